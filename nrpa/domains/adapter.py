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
* ``instance_option`` and ``instance_source(spec)``, for a domain whose instance may be a file:
  the option that names it (``board``, ``instance``) and where a value of it comes from, a
  shipped file or a user's; the constructor then takes ``instance_text``, that file's contents
  read elsewhere (the copy a run file keeps), and ``kept_instance()`` is what a run file keeps
  of it (``nrpa.domains.registry.replay_domain`` replays a record on it);
* ``biases``: the names of its own GNRPA biases (its kernel module's ``BIASES``; none by
  default). Every options class has ``bias`` (none, one of those, or a bias file) and may
  have ``bias_weight``: the search that runs the domain builds the kernels' bias from them
  (``nrpa.bias.bias_for``).

What a report shows of a domain's solutions beyond the score (a drawing, a summary of the
final solutions) is not here: ``analysis.results.domain_views`` keys it by the domain's name.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from nrpa.errors import InputError, did_you_mean

# A run file keeps a copy of a user's instance file up to this size: SameGame boards are
# about 0.5 KiB, TSPTW instances 16 KiB at most, knapsack instances less. A larger file (a bus
# instance CSV is about 0.9 MiB) keeps only its SHA-256 and size, and a replay finds it by them.
COPY_LIMIT = 64 * 1024


class Adapter:
    """Defaults shared by the adapters: certificates that are the kernel's moves as integers,
    printed on one line, and no GNRPA bias of the domain's own."""

    options_class: type
    certificate_format: str
    biases = ()
    instance_option: str | None = None  # the option naming an instance that may be a file

    def __init__(self, options, instance_text: str | None = None):
        """``instance_text``: the contents of the user's file ``instance_option`` names, read
        elsewhere (the copy a run file keeps); by default the file is read here, once, so that
        what the run file keeps of it (``kept_instance``) is what was parsed."""
        self.options = options
        self.instance_text = instance_text
        self._instance_bytes = None  # the user's file as read here
        source = self.instance_source(getattr(options, self.instance_option)) if self.instance_option else None
        if instance_text is None and source is not None and source[0] == "file" and source[1].is_file():
            self._instance_bytes = source[1].read_bytes()
            try:
                self.instance_text = self._instance_bytes.decode()
            except UnicodeDecodeError:
                raise InputError(f"domain.{self.instance_option}={str(source[1])!r} is not a text file") from None

    @classmethod
    def instance_source(cls, spec: str) -> tuple[str, Path] | None:
        """Where instance ``spec`` comes from: ("shipped", its file under nrpa/data), ("file",
        a user's path) or None (no file: generated, or an invalid value the constructor names)."""
        return None

    def kept_instance(self) -> dict | None:
        """What a run file keeps of its instance (``domain_info.instance_file``): the option,
        the file's SHA-256 and, for a user's file, its absolute path, size and, up to
        COPY_LIMIT bytes, its text; a shipped instance only by name and hash (it ships with
        the code). None for a domain or instance without a file."""
        source = self.instance_source(getattr(self.options, self.instance_option)) if self.instance_option else None
        if source is None:
            return None
        kind, path = source
        if kind == "shipped":
            return {"option": self.instance_option, "shipped": path.name, "sha256": sha256(path.read_bytes())}
        data = self._instance_bytes if self._instance_bytes is not None else self.instance_text.encode()
        return {"option": self.instance_option, "path": str(path.resolve()), "sha256": sha256(data),
                "bytes": len(data), **({"contents": data.decode()} if len(data) <= COPY_LIMIT else {})}

    def certificate(self, kernel_moves) -> list:
        return [int(move) for move in kernel_moves]

    def print_certificate(self, certificate) -> str:
        return " ".join(map(str, certificate))


def check_choice(option: str, value, valid) -> None:
    """InputError unless ``domain.<option>`` is one of ``valid``."""
    if value not in valid:
        raise InputError(f"domain.{option}={value!r} is not valid: {did_you_mean(value, valid)}")


def check_range(option: str, value, valid: bool, rule: str) -> None:
    """InputError ``domain.<option>=<value> is out of range: <rule>`` unless ``valid``."""
    if not valid:
        raise InputError(f"domain.{option}={value} is out of range: {rule}")


def sha256(data: bytes) -> str:
    """The hex SHA-256 of an instance file's bytes: what a run file keeps, and its leaderboard key's start."""
    return hashlib.sha256(data).hexdigest()


def content_key(domain: str, content: bytes) -> str:
    """The leaderboard key of an instance read from a file: ``domain/file_<its hash>``."""
    return f"{domain}/file_{sha256(content)[:12]}"
