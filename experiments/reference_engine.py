"""The C++ reference engine as an instrument of the harness: one run of it, read back.

The engine is the code of the Distributed NRPA paper (github.com/bnegreve/nrpa: T. Cazenave's
SameGame under B. Negrevergne's NRPA, with Cazenave's policy table of 65,536 lists of (code,
weight), the table copied at every level call and a fresh one built at every Adapt): the authors'
kind of code. This project does not hold it (it has no licence to copy); get it with
`git clone https://github.com/bnegreve/nrpa` and build it with `make cpp-ref CPP_REF=<the clone>`,
which applies experiments/cpp_ref/instrument.patch (SNRPA(P) at level 1, the SameGame playout
rules none, tabu and selective t, budgets in CPU-seconds or playouts, and an event file of work
checkpoints and best scores: docs/reference/cpp-reference.md) and builds build/cpp-ref/src/same.
The environment variable NRPA_CPP_REF names another built binary.

A run's record (``run``) holds its work W(tau), the playouts that had ended by CPU time tau since
the run's start (tau = 0.01 x 2^(k/8), eight points a doubling, the published times among them),
and the best score by then; every rise of its best score with its playout count and CPU time; the
settings, the command, the engine's commit and patch hash, the CPU model and the load average.
"""

from __future__ import annotations

import hashlib
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
DEFAULT_BINARY = PROJECT_ROOT / "build" / "cpp-ref" / "src" / "same"
HOW_TO_BUILD = ("build it with `git clone https://github.com/bnegreve/nrpa` then `make cpp-ref CPP_REF=nrpa` "
                "(the clone's folder), or name a built binary in NRPA_CPP_REF")
RULES = ("none", "tabu", "selective")
MAX_LEVEL = 4  # same.cpp instantiates Nrpa<..., L = 5, ...>: levels 0..4


def checkpoint_time(k: int) -> float:
    """CPU time of work checkpoint k (instrument.hpp): 0.01 x 2^(k/8)."""
    return 0.01 * 2.0 ** (k / 8.0)


@dataclass(frozen=True)
class ReferenceSettings:
    """What the reference engine can run: (S)NRPA on a standard SameGame board."""

    board: int  # 1..20, the harness's board numbers (the engine's problem board - 1)
    rule: str  # none, tabu or selective
    threshold: int  # t of the selective rule
    level: int
    N: int
    P: int  # SNRPA(P); 1 is NRPA

    def __post_init__(self):
        if not 1 <= self.board <= 20:
            raise InputError(f"the reference engine plays the 20 standard SameGame boards, not board {self.board}")
        if self.rule not in RULES:
            raise InputError(f"the reference engine's rules are {', '.join(RULES)}, not {self.rule!r}")
        if not 1 <= self.level <= MAX_LEVEL:
            raise InputError(f"the reference engine runs levels 1..{MAX_LEVEL}, not {self.level}")
        if self.N < 1 or self.P < 1:
            raise InputError(f"N and P must be 1 or more (N = {self.N}, P = {self.P})")


def settings_of(job) -> ReferenceSettings:
    """The reference settings of a harness job (experiments.runs.Job), or InputError naming what the
    engine cannot run."""
    options, settings = job.domain_options, job.settings
    if getattr(options, "name", None) != "samegame":
        raise InputError(f"the reference engine plays SameGame only, not {getattr(options, 'name', options)!r}")
    if not str(options.board).isdigit():
        raise InputError(f"the reference engine plays the standard boards 1..20, not the board file {options.board!r}")
    unsupported = {"algorithm": settings.algorithm not in ("nrpa", "snrpa"), "alpha": settings.alpha != 1.0,
                   "bias": getattr(options, "bias", "none") != "none", "repetitions": settings.repetitions is not None,
                   "patience": settings.patience is not None, "beam": settings.beam != 1}
    named = [name for name, differs in unsupported.items() if differs]
    if named:
        raise InputError(f"the reference engine runs (S)NRPA with alpha = 1 and no other option; this job sets "
                         f"{', '.join(named)}")
    return ReferenceSettings(board=int(options.board), rule=options.policy, threshold=int(options.threshold),
                             level=settings.level, N=settings.N, P=settings.P)


def binary() -> Path:
    """The built engine, or InputError saying how to build it."""
    path = Path(os.environ.get("NRPA_CPP_REF") or DEFAULT_BINARY)
    if not path.is_file() or not os.access(path, os.X_OK):
        raise InputError(f"no built C++ reference engine at {path}: {HOW_TO_BUILD}")
    return path


def build_info(path: Path) -> dict:
    """The engine's commit and patch hash (BUILD_INFO, written by experiments/cpp_ref/build.sh)."""
    info_file = path.parent.parent / "BUILD_INFO"
    if not info_file.is_file():
        raise InputError(f"{path} has no BUILD_INFO beside its checkout: rebuild it, {HOW_TO_BUILD}")
    info = dict(line.split(" ", 1) for line in info_file.read_text().splitlines() if " " in line)
    return {key: value.strip() for key, value in info.items()}


def check_current(path: Path) -> dict:
    """The engine's build info, after checking it was built from this checkout's patch."""
    info = build_info(path)
    patch = hashlib.sha256(PATCH.read_bytes()).hexdigest()
    if info.get("patch_sha256") != patch:
        raise InputError(f"{path} was built from another instrument.patch than this checkout's: rebuild it, {HOW_TO_BUILD}")
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
    return arguments + [str(settings.board - 1)]  # the engine's 0-based problem index


def execute(arguments: list[str], path: Path) -> None:
    """Run the engine in its folder (it reads problems.txt from there); stdout is its progress."""
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
        path: Path | None = None) -> dict:
    """One run of the engine to its budget, as a record (see the module's docstring)."""
    if not cpu_seconds and not playouts:
        raise InputError("a reference run needs a budget: cpu_seconds or playouts")
    path = path or binary()
    info = check_current(path)
    with tempfile.TemporaryDirectory(prefix="cpp-ref-") as folder:
        events = Path(folder) / "events.txt"
        arguments = command(path, settings, seed, cpu_seconds=cpu_seconds, playouts=playouts, events=events)
        load_before = load_average()
        execute(arguments, path)
        record = parse_events(events.read_text())
    return {"settings": asdict(settings), "seed": seed, "budget": {"cpu_seconds": cpu_seconds, "playouts": playouts},
            "command": [Path(arguments[0]).name, *arguments[1:-2], "EVENTS", arguments[-1]], "engine": info, "cpu_model": cpu_model(),
            "load_average": [load_before, load_average()], "host": platform.node(),
            "finished_at": datetime.now(timezone.utc).isoformat(timespec="seconds"), **record}


def move_trace(settings: ReferenceSettings, seed: int, path: Path | None = None) -> tuple[list[set], list[int], float]:
    """One uniform playout (level 0) of the engine: each step's legal groups as (first cell, size),
    cells numbered 15 x row + column from the top left; the first cell of each group played; the
    score."""
    path = path or binary()
    with tempfile.TemporaryDirectory(prefix="cpp-ref-") as folder:
        trace, events = Path(folder) / "moves.txt", Path(folder) / "events.txt"
        arguments = command(path, settings, seed, playouts=1, events=events, move_trace=trace)
        arguments[arguments.index("-l") + 1] = "0"
        execute(arguments, path)
        legal, played = [], []
        for line in trace.read_text().splitlines():
            kind, *fields = line.split()
            if kind == "L":
                legal.append({tuple(int(x) for x in field.split(":")) for field in fields})
            else:
                played.append(int(fields[0]))
        return legal, played, parse_events(events.read_text())["end"]["best"]
