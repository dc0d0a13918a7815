"""The C++ reference engine as an instrument of the harness: one run of it, read back.

The engine is the code of the Distributed NRPA paper (github.com/bnegreve/nrpa: T. Cazenave's
SameGame under B. Negrevergne's NRPA, with Cazenave's policy table of 65,536 lists of (code,
weight), the table copied at every level call and a fresh one built at every Adapt): the authors'
kind of code. This project does not hold it (it has no licence to copy); get it with
`git clone https://github.com/bnegreve/nrpa` and build it with `make cpp-ref CPP_REF=<the clone>`,
which applies experiments/cpp_ref/instrument.patch (SNRPA(P) at level 1, the SameGame playout
rules none, tabu and selective t, the bus's selective delta, budgets in CPU-seconds or playouts, and an event file of work
checkpoints and best scores: docs/reference/cpp-reference.md) and builds build/cpp-ref/src/same.
It also builds build/cpp-ref/src/test/bus, the bus line of the same repository (src/test/bus.cpp,
bus.cpp's model of the harness's bus domain) with the selective rule of Cazenave 2016. The
environment variable NRPA_CPP_REF names another built checkout.

A run's record (``run``) holds its work W(tau), the playouts that had ended by CPU time tau since
the run's start (tau = 0.01 x 2^(k/8), eight points a doubling, the published times among them),
and the best score by then; every rise of its best score with its playout count and CPU time; the
settings, the command, the engine's commit and patch hash, the CPU model and the load average.
"""

from __future__ import annotations

import hashlib
import math
import os
import platform
import subprocess
import tempfile
from dataclasses import asdict, dataclass
from datetime import datetime, timezone
from pathlib import Path

from experiments.rates import cpu_model
from experiments.store import PROJECT_ROOT
from nrpa.errors import InputError

PATCH = PROJECT_ROOT / "experiments" / "cpp_ref" / "instrument.patch"
DEFAULT_BUILD = PROJECT_ROOT / "build" / "cpp-ref"
BINARIES = {"samegame": "src/same", "bus": "src/test/bus", "weakschur": "src/test/ws",  # in the built checkout
            "maximum": "src/test/maximum", "tsptw": "src/test/tsptw"}
RULES = {"samegame": ("none", "tabu", "selective"), "bus": ("none", "selective"), "weakschur": ("standard", "rule"),
         "maximum": ("none",), "tsptw": ("all",)}
MAX_ATOMS = 199  # maximum.cpp's limit (MaxPlayoutLength - 1), compiled in
ATOM_IDS = {"+": 0, "*": 1, "1.0": 2}  # maximum.cpp's atoms by name -> the harness's move ids
MAX_PARTS = 9  # ws.cpp's MaxPartition
TSPTW_FOLDER = "data/tsptw/SolomonPotvinBengio"  # tsptw.cpp's instances, beside the binary
HOW_TO_BUILD = ("build it with `git clone https://github.com/bnegreve/nrpa` then `make cpp-ref CPP_REF=nrpa` "
                "(the clone's folder), or name a built checkout in NRPA_CPP_REF")
MAX_LEVEL = 4  # same.cpp and bus.cpp instantiate Nrpa<..., L = 5, ...>: levels 0..4


def checkpoint_time(k: int) -> float:
    """CPU time of work checkpoint k (instrument.hpp): 0.01 x 2^(k/8)."""
    return 0.01 * 2.0 ** (k / 8.0)


def checkpoint_index(tau: float) -> int:
    """The work checkpoint k at (or nearest to) CPU time ``tau``."""
    return int(round(8 * math.log2(tau / 0.01)))


@dataclass(frozen=True)
class ReferenceSettings:
    """What the reference engine can run: (S)NRPA on the repository's domains as the harness reads
    them (SameGame, the bus line, Weak Schur, the Maximum problem, TSPTW)."""

    domain: str  # a key of BINARIES
    rule: str  # SameGame: none, tabu or selective; bus: none or selective; Weak Schur: standard or rule; TSPTW: all
    threshold: int  # the selective rule's: SameGame's t, the bus's delta (else 0)
    level: int
    N: int
    P: int  # SNRPA(P); 1 is NRPA
    board: int = 1  # SameGame: 1..20, the harness's board numbers (the engine's problem index + 1)
    parts: int = 0  # Weak Schur: K
    instance: str = ""  # TSPTW: a Potvin-Bengio instance of the repository, e.g. rc_204.1

    def __post_init__(self):
        if self.domain not in RULES:
            raise InputError(f"the reference engine plays {' and '.join(RULES)}, not {self.domain!r}")
        if self.rule not in RULES[self.domain]:
            raise InputError(f"the reference engine's {self.domain} rules are {', '.join(RULES[self.domain])}, "
                             f"not {self.rule!r}")
        if not 1 <= self.board <= 20:
            raise InputError(f"the reference engine plays the 20 standard SameGame boards, not board {self.board}")
        if self.domain == "weakschur" and not 1 <= self.parts <= MAX_PARTS:
            raise InputError(f"the reference engine's Weak Schur has 1 to {MAX_PARTS} parts, not {self.parts}")
        if self.domain == "tsptw" and not self.instance.replace("_", "").replace(".", "").isalnum():
            raise InputError(f"the reference engine's TSPTW instance is a name such as rc_204.1, not {self.instance!r}")
        if not 1 <= self.level <= MAX_LEVEL:
            raise InputError(f"the reference engine runs levels 1..{MAX_LEVEL}, not {self.level}")
        if self.N < 1 or self.P < 1:
            raise InputError(f"N and P must be 1 or more (N = {self.N}, P = {self.P})")


def domain_settings(options) -> dict:
    """The domain part of the reference settings of a harness domain's options."""
    name = getattr(options, "name", None)
    if name == "samegame":
        if not str(options.board).isdigit():
            raise InputError(f"the reference engine plays the standard boards 1..20, not the board file {options.board!r}")
        return {"domain": "samegame", "board": int(options.board), "rule": options.policy,
                "threshold": int(options.threshold)}
    if name == "bus":
        if options.model != "bus_cpp" or options.instance != "paper":
            raise InputError(f"the reference engine's bus is bus.cpp's model on its instance (domain.model=bus_cpp, "
                             f"domain.instance=paper), not model {options.model!r} on {options.instance!r}")
        return {"domain": "bus", "rule": "selective" if options.delta else "none", "threshold": int(options.delta)}
    if name == "weakschur":
        if options.max_number:
            raise InputError(f"the reference engine's Weak Schur has no cap on the numbers (domain.max_number={options.max_number})")
        return {"domain": "weakschur", "rule": options.policy, "threshold": 0, "parts": int(options.parts)}
    if name == "maximum":
        if options.max_atoms != MAX_ATOMS:
            raise InputError(f"the reference engine's Maximum problem has maximum.cpp's limit of {MAX_ATOMS} atoms, "
                             f"not domain.max_atoms={options.max_atoms}")
        return {"domain": "maximum", "rule": "none", "threshold": 0}
    if name == "tsptw":
        if options.policy != "all":
            raise InputError(f"the reference engine's TSPTW moves are every unvisited customer (domain.policy=all); "
                             f"tsptw.cpp's own pruning is not the harness's domain.policy={options.policy} "
                             "(docs/reference/cpp-reference.md)")
        return {"domain": "tsptw", "rule": "all", "threshold": 0, "instance": str(options.instance)}
    raise InputError(f"the reference engine plays {' and '.join(RULES)}, not {name!r}")


def settings_of(job) -> ReferenceSettings:
    """The reference settings of a harness job (experiments.runs.Job), or InputError naming what the
    engine cannot run."""
    options, settings = job.domain_options, job.settings
    domain = domain_settings(options)
    unsupported = {"algorithm": settings.algorithm not in ("nrpa", "snrpa"), "alpha": settings.alpha != 1.0,
                   "bias": getattr(options, "bias", "none") != "none", "repetitions": settings.repetitions is not None,
                   "patience": settings.patience is not None, "beam": settings.beam != 1}
    named = [name for name, differs in unsupported.items() if differs]
    if named:
        raise InputError(f"the reference engine runs (S)NRPA with alpha = 1 and no other option; this job sets "
                         f"{', '.join(named)}")
    return ReferenceSettings(**domain, level=settings.level, N=settings.N, P=settings.P)


def build_folder() -> Path:
    """The built checkout of the engine (NRPA_CPP_REF, else build/cpp-ref), as an absolute path: the
    engine runs in its binary's folder (a relative NRPA_CPP_REF would be read from there)."""
    return Path(os.environ.get("NRPA_CPP_REF") or DEFAULT_BUILD).resolve()


def binary(domain: str, folder: Path | None = None) -> Path:
    """The built engine of ``domain``, or InputError saying how to build it."""
    path = (folder.resolve() if folder else build_folder()) / BINARIES[domain]
    if not path.is_file() or not os.access(path, os.X_OK):
        raise InputError(f"no built C++ reference engine at {path}: {HOW_TO_BUILD}")
    return path


def build_info(folder: Path) -> dict:
    """The engine's commit and patch hash (BUILD_INFO, written by experiments/cpp_ref/build.sh)."""
    info_file = folder / "BUILD_INFO"
    if not info_file.is_file():
        raise InputError(f"{folder} has no BUILD_INFO: rebuild it, {HOW_TO_BUILD}")
    info = dict(line.split(" ", 1) for line in info_file.read_text().splitlines() if " " in line)
    return {key: value.strip() for key, value in info.items()}


def check_current(folder: Path | None = None) -> dict:
    """The engine's build info, after checking it was built from this checkout's patch."""
    folder = folder or build_folder()
    info = build_info(folder)
    patch = hashlib.sha256(PATCH.read_bytes()).hexdigest()
    if info.get("patch_sha256") != patch:
        raise InputError(f"{folder} was built from another instrument.patch than this checkout's: rebuild it, {HOW_TO_BUILD}")
    return info


def command(path: Path, settings: ReferenceSettings, seed: int, *, cpu_seconds: float = 0.0, playouts: int = 0,
            events: Path | None = None, move_trace: Path | None = None) -> list[str]:
    """The engine's command line: one run, one thread, seed ``seed`` (>= 1: the engine takes 0 for
    the clock), stopping at the first budget reached."""
    if seed < 1:
        raise InputError(f"seed {seed}: the reference engine's seeds are 1 or more")
    arguments = [str(path), "-r", "1", "-x", "1", "-l", str(settings.level), "-n", str(settings.N),
                 "-k", str(settings.P), "-R", settings.rule, "-m", str(settings.threshold), "-a", str(seed)]
    if cpu_seconds:
        arguments += ["-b", repr(float(cpu_seconds))]
    if playouts:
        arguments += ["-B", str(int(playouts))]
    if events is not None:
        arguments += ["-F", str(events)]
    if move_trace is not None:
        arguments += ["-M", str(move_trace)]
    if settings.domain == "samegame":
        arguments.append(str(settings.board - 1))  # the engine's 0-based problem index
    elif settings.domain == "weakschur":
        arguments.append(str(settings.parts))
    elif settings.domain == "tsptw":
        arguments.append(f"{TSPTW_FOLDER}/{settings.instance}.txt")
    return arguments


def execute(arguments: list[str], path: Path) -> None:
    """Run the engine in its folder (same reads problems.txt, tsptw its instances from there); stdout
    is its progress."""
    done = subprocess.run(arguments, cwd=path.parent, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"the reference engine failed ({done.returncode}): {done.stderr.strip()[-500:]}")


def parse_events(text: str) -> dict:
    """The event file (instrument.hpp) as a record's work, improvements and end."""
    work = {"playouts": [], "best": []}
    improvements = {"playouts": [], "cpu": [], "score": []}
    end = None
    for number, line in enumerate(text.splitlines(), start=1):
        kind, *fields = line.split()
        if kind == "W":
            if abs(float(fields[0]) - checkpoint_time(len(work["playouts"]))) > 1e-5 * float(fields[0]):
                raise ValueError(f"event line {number}: checkpoint {fields[0]} out of sequence")
            work["playouts"].append(int(fields[1]))
            work["best"].append(float(fields[2]))
        elif kind == "B":
            improvements["playouts"].append(int(fields[0]))
            improvements["cpu"].append(float(fields[1]))
            improvements["score"].append(float(fields[2]))
        elif kind == "E":
            end = {"playouts": int(fields[0]), "cpu": float(fields[1]), "best": float(fields[2])}
        else:
            raise ValueError(f"event line {number}: unknown event {kind!r}")
    if end is None:
        raise ValueError("the event file has no end line: the run did not finish")
    return {"work": work, "improvements": improvements, "end": end}


def load_average() -> float:
    try:
        return os.getloadavg()[0]
    except OSError:
        return float("nan")


def run(settings: ReferenceSettings, seed: int, *, cpu_seconds: float = 0.0, playouts: int = 0,
        folder: Path | None = None) -> dict:
    """One run of the engine to its budget, as a record (see the module's docstring)."""
    if not cpu_seconds and not playouts:
        raise InputError("a reference run needs a budget: cpu_seconds or playouts")
    folder = folder or build_folder()
    path = binary(settings.domain, folder)
    info = check_current(folder)
    with tempfile.TemporaryDirectory(prefix="cpp-ref-") as scratch:
        events = Path(scratch) / "events.txt"
        arguments = command(path, settings, seed, cpu_seconds=cpu_seconds, playouts=playouts, events=events)
        load_before = load_average()
        execute(arguments, path)
        record = parse_events(events.read_text())
    shown = [Path(arguments[0]).name, *("EVENTS" if argument == str(events) else argument for argument in arguments[1:])]
    return {"settings": asdict(settings), "seed": seed, "budget": {"cpu_seconds": cpu_seconds, "playouts": playouts},
            "command": shown, "engine": info, "cpu_model": cpu_model(),
            "load_average": [load_before, load_average()], "host": platform.node(),
            "finished_at": datetime.now(timezone.utc).isoformat(timespec="seconds"), **record}


def move_trace(settings: ReferenceSettings, seed: int, folder: Path | None = None) -> tuple[list, list[int], float]:
    """One uniform playout (level 0) of the engine: each step's legal moves and the move played, and
    the score. SameGame: a legal move is a group as (its first cell, its size), cells numbered
    15 x row + column from the top left, and a move played its first cell; bus: a move is a wait in
    minutes; Weak Schur: a part; Maximum: an atom, as the harness's id (0 +, 1 *, 2 the leaf 1); TSPTW: a customer. tsptw.cpp plays one
    more step than the customers, with no legal move (a stale move the score ignores, but its Adapt
    does not): that step is left out here."""
    path = binary(settings.domain, folder)
    with tempfile.TemporaryDirectory(prefix="cpp-ref-") as scratch:
        trace, events = Path(scratch) / "moves.txt", Path(scratch) / "events.txt"
        arguments = command(path, settings, seed, playouts=1, events=events, move_trace=trace)
        arguments[arguments.index("-l") + 1] = "0"
        execute(arguments, path)
        legal, played = [], []
        for line in trace.read_text().splitlines():
            kind, *fields = line.split()
            if kind == "P":
                played.append(ATOM_IDS[fields[0]] if settings.domain == "maximum" else int(fields[0]))
            elif settings.domain == "samegame":
                legal.append({tuple(int(x) for x in field.split(":")) for field in fields})
            elif settings.domain == "maximum":
                legal.append(tuple(ATOM_IDS[field] for field in fields))
            else:
                legal.append(tuple(int(field) for field in fields))
        if settings.domain == "tsptw" and legal and not legal[-1]:
            legal, played = legal[:-1], played[:-1]
        return legal, played, parse_events(events.read_text())["end"]["best"]
