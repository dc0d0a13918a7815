"""Errors about what the user gave (options, board or instance files), as opposed to bugs.

The command line prints these as one clear message and exits with status 2, before any
search starts; anything else is a bug and keeps its traceback."""

import difflib


class InputError(ValueError):
    """Bad user input; the message names the option, file or line and what is valid."""


def require(checks) -> None:
    """Raise InputError with the message of the first (condition, message) pair whose
    condition is false: the options' checks, listed once and run in order."""
    for ok, message in checks:
        if not ok:
            raise InputError(message)


def did_you_mean(given, choices, valid: str = "choose one of") -> str:
    """The end of a message about a mistyped name or key: "did you mean snrpa? (choose one of
    beam, gnrpa, ..., spmcts)", the closest choice first (difflib's get_close_matches, its
    default cutoff 0.6, case ignored), or "choose one of beam, ..., spmcts" when none is close.
    ``valid`` words the list ("valid are", "choose among")."""
    choices = [str(choice) for choice in choices]
    lowered = {choice.lower(): choice for choice in choices}
    close = difflib.get_close_matches(str(given).lower(), list(lowered), n=1)
    listed = f"{valid} {', '.join(choices)}"
    return f"did you mean {lowered[close[0]]}? ({listed})" if close else listed
