"""Errors about what the user gave (options, board or instance files), as opposed to bugs.

The command line prints these as one clear message and exits with status 2, before any
search starts; anything else is a bug and keeps its traceback."""


class InputError(ValueError):
    """Bad user input; the message names the option, file or line and what is valid."""


def require(checks) -> None:
    """Raise InputError with the message of the first (condition, message) pair whose
    condition is false: the options' checks, listed once and run in order."""
    for ok, message in checks:
        if not ok:
            raise InputError(message)
