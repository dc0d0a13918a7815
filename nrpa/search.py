"""One search run from Python: settings in, a frozen result out.

The papers' symbols are kept where users type them: ``level``, ``N`` (iterations per
level), ``alpha`` (Adapt step), ``P`` (playouts per level-1 step of Stabilized NRPA).
"""

import math
from dataclasses import dataclass
from typing import Optional


from nrpa.algorithms import ALGORITHMS, search
from nrpa.averaging import averaged_search
from nrpa.clock import CLOCKS
from nrpa.errors import InputError
from nrpa.parallel import STRATEGIES, parallel_search

TRACE_CAPACITY = 1 << 16


@dataclass(frozen=True)
class SearchSettings:
    """What to run and for how long. A budget is ``max_time`` seconds on ``clock`` (``cpu``:
    CPU time of the process, the default for single-threaded runs, as the papers' C++
    ``clock()``; ``wall``: elapsed time) and/or ``max_playouts``; the first reached stops
    the run. With ``restart`` the top level starts again from a fresh policy whenever it
    ends before the budget, keeping the global best (the papers' harness did this).

    ``parallel`` (``shared`` or ``thread_local`` policy, ``nrpa.parallel``) runs the level
    ``parallel_level`` calls on ``threads`` threads; ``averaged`` runs ``threads`` root
    searches that average their top-level policies every ``average_every`` wall-seconds
    (``nrpa.averaging``). Parallel runs with more than one thread take a wall-clock budget."""

    algorithm: str = "nrpa"
    level: int = 4
    N: int = 100
    alpha: float = 1.0
    P: int = 1
    seed: int = 0
    max_time: Optional[float] = 10.0
    max_playouts: Optional[int] = None
    clock: str = "cpu"
    restart: bool = True
    policy_capacity_bits: int = 17
    parallel: str = "none"
    parallel_level: int = 1
    threads: int = 1
    average_every: float = 1.0

    def __post_init__(self):
        validate(self)


def validate(settings: SearchSettings) -> None:
    """Raise InputError naming the first bad option and what is valid."""
    s = settings
    if s.algorithm not in ALGORITHMS:
        raise InputError(f"algo={s.algorithm!r} is not valid: choose one of {', '.join(ALGORITHMS)}")
    checks = [
        (s.level >= 0, f"level={s.level} is out of range: it must be >= 0"),
        (0 <= s.seed < 2**32, f"seed={s.seed} is out of range: 0 <= seed < 2**32"),
        (s.N >= 1, f"N={s.N} is out of range: it must be >= 1"),
        (math.isfinite(s.alpha) and s.alpha > 0, f"alpha={s.alpha} is out of range: it must be > 0"),
        (s.P >= 1, f"P={s.P} is out of range: it must be >= 1"),
        (s.algorithm != "nrpa" or s.P == 1,
         f"P={s.P} is the Stabilized NRPA parameter: NRPA is SNRPA(1); use algo=snrpa P={s.P}"),
        (s.max_time is None or (math.isfinite(s.max_time) and s.max_time > 0),
         f"max_time={s.max_time} is out of range: it must be > 0 seconds (or null)"),
        (s.max_playouts is None or s.max_playouts >= 1,
         f"max_playouts={s.max_playouts} is out of range: it must be >= 1 (or null)"),
        (s.max_time is not None or s.max_playouts is not None or not s.restart,
         "no budget: set max_time and/or max_playouts (or restart=false to run the top level once)"),
        (s.clock in CLOCKS, f"clock={s.clock!r} is not valid: choose one of {', '.join(CLOCKS)}"),
        (10 <= s.policy_capacity_bits <= 28,
         f"policy_capacity_bits={s.policy_capacity_bits} is out of range: 10..28"),
    ]
    if s.parallel != "none":
        checks += [
            (s.parallel in STRATEGIES or s.parallel == "averaged",
             f"parallel={s.parallel!r} is not valid: choose one of none, {', '.join(STRATEGIES)}, averaged"),
            (math.isfinite(s.average_every) and s.average_every > 0,
             f"average_every={s.average_every} is out of range: it must be > 0 seconds"),
            (s.algorithm == "nrpa", f"parallel={s.parallel} runs NRPA: set algo=nrpa (not {s.algorithm})"),
            (1 <= s.parallel_level <= s.level,
             f"parallel_level={s.parallel_level} is out of range: 1 (leaf) .. level={s.level}"),
            (1 <= s.threads <= 1024, f"threads={s.threads} is out of range: 1..1024"),
            (s.threads == 1 or s.clock == "wall" or s.max_time is None,
             f"threads={s.threads}: parallel runs use a wall-clock budget, set clock=wall"),
        ]
    else:
        checks.append((s.threads == 1, f"threads={s.threads} needs a parallel strategy: parallel=shared, "
                                       "thread_local or averaged"))
    for ok, message in checks:
        if not ok:
            raise InputError(message)


@dataclass(frozen=True)
class Trace:
    """Every improvement of the best score: when (wall and CPU seconds since the start,
    playouts done) and the new best. The best at any checkpoint is the last entry at or
    before it (``analysis.stats.best_at``)."""

    wall_seconds: tuple[float, ...]
    cpu_seconds: tuple[float, ...]
    playouts: tuple[int, ...]
    score: tuple[float, ...]


@dataclass(frozen=True)
class SearchResult:
    best_score: float
    best_moves: tuple[int, ...]  # kernel move ids; the domain turns them into a certificate
    trace: Trace
    playouts: int
    restarts: int
    wall_seconds: float
    cpu_seconds: float


def run_search(kernel_domain, settings: SearchSettings) -> SearchResult:
    """Run one search on a domain value built by a domain adapter (``kernel_domain()``)."""
    s = settings
    budget = (
        s.seed,
        CLOCKS[s.clock],
        float(s.max_time) if s.max_time is not None else 0.0,
        float(s.max_playouts) if s.max_playouts is not None else 0.0,
        s.restart,
        s.policy_capacity_bits,
        TRACE_CAPACITY,
    )
    if s.parallel == "none":
        outcome = search(kernel_domain, ALGORITHMS[s.algorithm], s.level, s.N, s.P, float(s.alpha), *budget)
    elif s.parallel == "averaged":
        outcome = averaged_search(kernel_domain, s.threads, float(s.average_every), s.level, s.N, float(s.alpha),
                                  *budget)
    else:
        outcome = parallel_search(kernel_domain, STRATEGIES[s.parallel], s.parallel_level, s.threads, s.level,
                                  s.N, float(s.alpha), *budget)
    best, moves, wall, cpu, playouts_at, scores, playouts, restarts, wall_total, cpu_total = outcome
    return SearchResult(
        best_score=float(best),
        best_moves=tuple(int(m) for m in moves),
        trace=Trace(
            wall_seconds=tuple(float(x) for x in wall),
            cpu_seconds=tuple(float(x) for x in cpu),
            playouts=tuple(int(x) for x in playouts_at),
            score=tuple(float(x) for x in scores),
        ),
        playouts=int(playouts),
        restarts=int(restarts),
        wall_seconds=float(wall_total),
        cpu_seconds=float(cpu_total),
    )
