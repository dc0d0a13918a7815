"""The domains the harness knows, by the name users type (``domain=samegame``): a table of
adapter classes, each carrying its options class (``options_class``). A domain's options and
adapter live beside its kernel (``nrpa/domains/NAME_adapter.py``; what an adapter has:
``nrpa.domains.adapter``). The options classes are importable from here too.
"""

from __future__ import annotations

import os
from dataclasses import asdict
from pathlib import Path

from nrpa.domains import adapter

from nrpa.domains.bus_adapter import BusDomain, BusOptions
from nrpa.domains.knapsack_adapter import KnapsackDomain, KnapsackOptions
from nrpa.domains.maximum_adapter import MaximumDomain, MaximumOptions
from nrpa.domains.morpion_adapter import MorpionDomain, MorpionOptions
from nrpa.domains.samegame_adapter import SameGameDomain, SameGameOptions
from nrpa.domains.tsptw_adapter import TsptwDomain, TsptwOptions
from nrpa.domains.weakschur_adapter import WeakSchurDomain, WeakSchurOptions
from nrpa.errors import InputError, did_you_mean

__all__ = [
    "DOMAINS", "MissingInstance", "make_domain", "replay_domain",
    "BusDomain", "BusOptions", "KnapsackDomain", "KnapsackOptions", "MaximumDomain", "MaximumOptions",
    "MorpionDomain", "MorpionOptions", "SameGameDomain", "SameGameOptions", "TsptwDomain", "TsptwOptions",
    "WeakSchurDomain", "WeakSchurOptions",
]

# name -> adapter class; its options class is the adapter's ``options_class``
DOMAINS = {"samegame": SameGameDomain, "weakschur": WeakSchurDomain, "maximum": MaximumDomain,
           "tsptw": TsptwDomain, "bus": BusDomain, "morpion": MorpionDomain, "knapsack": KnapsackDomain}


def make_domain(options, instance_text: str | None = None):
    """The adapter for ``options`` (an options dataclass or a mapping with a ``name`` key);
    InputError naming a bad domain, option or file before any work. GNRPA's bias is not
    built here: the search does it (``nrpa.bias.bias_for``). ``instance_text``: the contents
    of the user's instance file the options name, read elsewhere (``replay_domain``)."""
    domain_class, values = _checked(options)
    if instance_text is None:
        return domain_class(values)
    return domain_class(values, instance_text)


def _checked(options):
    """The adapter class and options object of ``options``; InputError for a bad name or option."""
    values = dict(options) if not hasattr(options, "__dataclass_fields__") else asdict(options)
    name = values.get("name")
    if name not in DOMAINS:
        raise InputError(f"domain={name!r} is not valid: {did_you_mean(name, DOMAINS)}")
    domain_class = DOMAINS[name]
    known = domain_class.options_class.__dataclass_fields__
    unknown = sorted(set(values) - set(known))
    if unknown:
        raise InputError(
            f"unknown option(s) domain.{', domain.'.join(unknown)} for domain={name}: "
            + did_you_mean(f"domain.{unknown[0]}", [f"domain.{key}" for key in known if key != "name"], "valid are")
        )
    return domain_class, domain_class.options_class(**values)


INSTANCES_ENVIRONMENT = "NRPA_INSTANCES"  # folders where a replay looks for a moved instance file by its hash


class MissingInstance(InputError):
    """A record's instance is not at hand: its file is gone or changed since the run, and
    the record keeps no copy. Not a wrong certificate: the replay cannot be made."""


def replay_domain(options, kept: dict | None = None):
    """The adapter a record's certificate replays on, and a note on where its instance came
    from ("" when from the file its options name, unchanged). ``kept``: what the record keeps
    of its instance (``domain_info.instance_file``, ``Adapter.kept_instance``; None in records
    made before it). A user's file is used when its SHA-256 is the record's; else the copy
    the record keeps; else a file of that hash in a folder ``$NRPA_INSTANCES`` names (folders
    separated by ``os.pathsep``: where a moved file is found). MissingInstance says why none
    can be; a shipped instance that differs from the record's hash is named too."""
    domain_class, values = _checked(_with_identity_defaults(options))
    option = domain_class.instance_option
    source = domain_class.instance_source(getattr(values, option)) if option else None
    if source is None or kept is None or "sha256" not in kept:  # no file, or a record without its hash
        if source is not None and source[0] == "file" and not source[1].is_file():
            raise MissingInstance(f"cannot replay: its {option} file {source[1]} is gone, and the record "
                                  "keeps neither a copy nor a hash of it (made before records kept them)")
        return domain_class(values), ""
    kind, path = source
    digest = kept["sha256"]
    if kind == "shipped":
        shipped = _file_hash(path)
        if shipped != digest:
            raise MissingInstance(f"cannot replay: its shipped {option} {path.name} differs from the one it was "
                                  f"run on (SHA-256 {shipped[:12]} now, {digest[:12]} then)")
        return domain_class(values), ""
    path = Path(kept.get("path", path))
    here = _file_hash(path) if path.is_file() else None
    if here == digest:
        return domain_class(values, path.read_text()), ""
    state = "is gone" if here is None else f"changed since the run (SHA-256 {here[:12]} now, {digest[:12]} then)"
    copy = kept.get("contents")
    if copy is not None:
        if adapter.sha256(copy.encode()) != digest:
            raise MissingInstance(f"cannot replay: its {option} file {path} {state}, and the copy the record "
                                  "keeps does not match the record's SHA-256 (edited by hand?)")
        return domain_class(values, copy), f"its {option} file {path} {state}: replayed on the copy the record keeps"
    found = _find_by_hash(digest, kept.get("bytes"))
    if found is not None:
        return domain_class(values, found.read_text()), f"its {option} file {path} {state}: replayed on {found}, " \
                                                           "a file of the same SHA-256"
    raise MissingInstance(f"cannot replay: its {option} file {path} {state}; the record keeps no copy of it "
                          f"(files over {adapter.COPY_LIMIT // 1024} KiB keep their hash only): put the file of "
                          f"SHA-256 {digest} in a folder named by ${INSTANCES_ENVIRONMENT}")


def _with_identity_defaults(options):
    """A record's options with each option its identity leaves out when it has its identity
    default (``identity_defaults``, experiments.runs.domain_identity) set to that default: a
    bus record without ``model`` is of bus.cpp's model, whatever the options' default now."""
    if hasattr(options, "__dataclass_fields__") or options.get("name") not in DOMAINS:
        return options  # a dataclass has every option; a bad name is named by _checked
    defaults = getattr(DOMAINS[options["name"]].options_class, "identity_defaults", {})
    return {**defaults, **options}


def _file_hash(path: Path) -> str:
    return adapter.sha256(path.read_bytes())


def _find_by_hash(digest: str, size: int | None) -> Path | None:
    """The first file of SHA-256 ``digest`` (and ``size`` bytes, when known: the others are
    not read) directly in a folder ``$NRPA_INSTANCES`` names."""
    for folder in filter(None, os.environ.get(INSTANCES_ENVIRONMENT, "").split(os.pathsep)):
        for path in sorted(Path(folder).expanduser().glob("*")):
            if path.is_file() and (size is None or path.stat().st_size == size) and _file_hash(path) == digest:
                return path
    return None
