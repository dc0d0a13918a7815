"""What every domain adapter is: the Python side of a domain, beside its kernel.

A domain is three modules in ``nrpa/domains``: ``NAME.py`` (the numba kernel, the contract of
``nrpa.domains.contract``), ``NAME_rules.py`` (its rules in plain Python, which verify
certificates) and ``NAME_adapter.py`` (its options and adapter, plain Python: no numba, so that
an edit there keeps every compiled kernel, ``nrpa/__init__.py``). ``nrpa.domains.registry``
lists the adapters by the name users type (``domain=samegame``). An adapter has:

* ``options_class``: a (non-frozen) dataclass with a ``name`` field, also the Hydra schema
  of ``conf/domain/<name>.yaml``; the constructor takes an instance and raises InputError
  naming the bad option, file or line before any work. Its fields and ``name`` are the
  domain's part of every run id (``experiments.runs.domain_identity``): never rename them;
* ``kernel_domain()``: the NamedTuple the kernels take (``nrpa.domains.contract``);
* ``certificate(kernel_moves)``: a JSON-able certificate; ``certificate_format``: its words;
* ``replay_score(certificate)``: its score by the plain-Python rules (raises if illegal);
* ``print_certificate(certificate)``: the text a person reads;
* ``leaderboard_key()``: the instance, whatever the playout rule; ``describe()``: facts for
  the run file, with ``instance`` naming the problem instance;
* ``biases``: the names of its own GNRPA biases (its kernel module's ``BIASES``; none by
  default). Every options class has ``bias`` (none, one of those, or a bias file) and may
  have ``bias_weight``: the search that runs the domain builds the kernels' bias from them
  (``nrpa.bias.bias_for``).

What a report shows of a domain's solutions beyond the score (a drawing, a summary of the
final solutions) is not here: ``analysis.views`` keys it by the domain's name.
"""

from __future__ import annotations

import hashlib

from nrpa.errors import InputError


class Adapter:
    """Defaults shared by the adapters: certificates that are the kernel's moves as integers,
    printed on one line, and no GNRPA bias of the domain's own."""

    options_class: type
    certificate_format: str
    biases = ()

    def __init__(self, options):
        self.options = options

    def certificate(self, kernel_moves) -> list:
        return [int(move) for move in kernel_moves]

    def print_certificate(self, certificate) -> str:
        return " ".join(map(str, certificate))


def check_choice(option: str, value, valid) -> None:
    """InputError unless ``domain.<option>`` is one of ``valid``."""
    if value not in valid:
        raise InputError(f"domain.{option}={value!r} is not valid: choose one of {', '.join(valid)}")


def check_range(option: str, value, valid: bool, rule: str) -> None:
    """InputError ``domain.<option>=<value> is out of range: <rule>`` unless ``valid``."""
    if not valid:
        raise InputError(f"domain.{option}={value} is out of range: {rule}")


def content_key(domain: str, content: bytes) -> str:
    """The leaderboard key of an instance read from a file: ``domain/file_<its hash>``."""
    return f"{domain}/file_{hashlib.sha256(content).hexdigest()[:12]}"
