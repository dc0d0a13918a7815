"""What a search is told to do (``SearchSettings``) and the algorithms that can do it: the
``Algorithm`` type, the registry ``ALGORITHMS`` that ``register`` fills, and the settings' checks,
which read the registry. The harness's own algorithms are declared in ``nrpa.algorithms``, which
imports this module; ``nrpa.search``, the entry point, imports both, so the registry is full
whenever a search can be run (tests/test_arrows.py: no module imports one that imports it back).
"""

import math
from dataclasses import dataclass, field, replace
from typing import Callable, Optional

from nrpa.clock import CLOCKS
from nrpa.errors import InputError, did_you_mean, require


@dataclass(frozen=True)
class SearchSettings:
    """What to run and for how long. A budget is ``max_time`` seconds on ``clock`` (``cpu``:
    CPU time of the process, the default for single-threaded runs, as the papers' C++
    ``clock()``; ``wall``: elapsed time) and/or ``max_playouts``; the first reached stops
    the run. With ``restart`` the top level starts again from a fresh policy whenever it
    ends before the budget, keeping the global best (the papers' harness did this).

    ``parallel`` (``shared`` or ``thread_local`` policy, ``nrpa.leaf_node``) runs the level
    ``parallel_level`` calls on ``threads`` threads; ``averaged`` runs ``threads`` root
    searches that average their top-level policies every ``average_every`` wall-seconds
    (``nrpa.policy_averaging``; SP-MCTS's ``averaged`` averages its trees' statistics every
    ``share_every`` simulations of each tree, its ``cluster`` every ``average_every``
    wall-seconds: ``nrpa.spmcts_parallel``). Parallel runs with more than one thread take a
    wall-clock budget."""

    algorithm: str = "nrpa"
    level: int = 4
    N: int = 100
    alpha: float = 1.0
    P: int = 1
    tau: float = 1.0
    repetitions: Optional[int] = None
    patience: Optional[int] = None
    beam: int = 1
    C: float = 0.5
    D: float = 10000.0
    simulations_per_move: int = 0
    tree_nodes: int = 2**23
    share_depth: int = 0
    share_min_visits: float = 10.0
    share_every: int = 10
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


@dataclass(frozen=True)
class Algorithm:
    """An algorithm users choose with ``algo=NAME`` (conf/algo/NAME.yaml sets ``algorithm``):
    everything the harness knows of it. ``register`` adds one to ``ALGORITHMS``; the
    harness's own are declared in ``nrpa.algorithms``."""

    name: str
    title: str  # its name in messages ("Beam NRPA")
    # The entry kernel per value of ``parallel`` it runs: a numba function (domain value,
    # ``Params``) -> ``nrpa.run.result`` (None: run elsewhere, as SP-MCTS's dask cluster).
    kernels: dict[str, Optional[Callable]]
    # The settings it reads. With the domain, the budget, the base seed and the parallel
    # strategy they make a run's identity (``experiments.runs.Job``), so a key added here
    # re-hashes every stored run of the algorithm: tests/test_run_ids.py pins today's ids.
    identity: tuple[str, ...]
    label: Callable[[SearchSettings], str]  # its name in tables and logs, with its parallel strategy
    checks: Callable[[SearchSettings], list[tuple[bool, str]]] = lambda s: []  # its (condition, message) checks
    # The settings only it reads (SearchSettings fields): every other algorithm runs their defaults
    own_settings: tuple[str, ...] = ()
    biased: bool = False  # whether its playouts take GNRPA's bias (``domain.bias``)
    # The parallel strategy's part of a run's identity (with parallel != none)
    parallel_identity: Callable[[SearchSettings], dict] = lambda s: nrpa_parallel_identity(s)
    # Another algorithm whose search this one is under these settings (SNRPA with P = 1 is NRPA:
    # the same kernel, the same draws), or None. A run is then stored under that algorithm's
    # name (``same_search``), so the two spellings find each other's runs.
    same_as: Callable[[SearchSettings], Optional[str]] = lambda s: None
    # Its name as a table's column, with the setting that names it (SNRPA(4), Beam NRPA(B=3));
    # None: its title
    column: Optional[Callable[[SearchSettings], str]] = None
    # A valid value of each of its own settings other than its conf/algo file's, at which
    # tests/test_algorithm_contract.py runs the contract: a setting that acts only away from
    # its default (GNRPA-LR's repetitions) is otherwise never run by the tests
    examples: dict[str, object] = field(default_factory=dict)


def nrpa_parallel_identity(s: SearchSettings) -> dict:
    if s.parallel == "averaged":
        return {"strategy": s.parallel, "searches": s.threads, "average_every": s.average_every}
    identity = {"strategy": s.parallel, "level": s.parallel_level, "threads": s.threads}
    if s.parallel == "thread_local" and s.threads > 1:
        # The best thread's policy goes back to the caller (Algorithm 5) since this key came
        # in: runs made before, without it, are other runs and keep their ids, so the store
        # never hands them back for these (one thread, unchanged, keeps its id).
        identity["hand_back"] = True
    return identity


ALGORITHMS: dict[str, Algorithm] = {}


def register(algorithm: Algorithm) -> Algorithm:
    """Add ``algorithm`` to the ones ``algo=NAME`` and ``run_search`` know."""
    ALGORITHMS[algorithm.name] = algorithm
    return algorithm


def same_search(settings: SearchSettings) -> SearchSettings:
    """``settings`` under the one name of its search: SNRPA(1) is run and stored as NRPA."""
    other = ALGORITHMS[settings.algorithm].same_as(settings)
    return settings if other is None else replace(settings, algorithm=other)


def other_spellings(settings: SearchSettings) -> list[SearchSettings]:
    """The same search under the other algorithms' names that ``same_search`` maps to it
    (NRPA: SNRPA with P = 1), for runs stored under those names before they were one."""
    return [replace(settings, algorithm=name) for name, algorithm in ALGORITHMS.items()
            if name != settings.algorithm and settings.parallel in algorithm.kernels
            and algorithm.same_as(settings) == settings.algorithm]


def own_settings() -> dict[str, str]:
    """Each setting only one algorithm reads, and that algorithm's name."""
    return {key: algorithm.name for algorithm in ALGORITHMS.values() for key in algorithm.own_settings}


def parallel_values() -> tuple[str, ...]:
    """The values of ``parallel``: none and every strategy some algorithm runs."""
    values = {"none": None}
    for algorithm in ALGORITHMS.values():
        values.update(dict.fromkeys(algorithm.kernels))
    return tuple(values)


def validate(settings: SearchSettings) -> None:
    """Raise InputError naming the first bad option and what is valid."""
    s = settings
    if s.algorithm not in ALGORITHMS:
        raise InputError(f"algo={s.algorithm!r} is not valid: {did_you_mean(s.algorithm, ALGORITHMS)}")
    algorithm = ALGORITHMS[s.algorithm]
    checks = [
        *[(s.algorithm == owner or getattr(s, key) == getattr(SearchSettings, key),
           f"{key}={getattr(s, key)} is a setting of {ALGORITHMS[owner].title}: use algo={owner} "
           f"(algo={s.algorithm} runs {key}={getattr(SearchSettings, key)})")
          for key, owner in own_settings().items()],
        (s.level >= 0, f"level={s.level} is out of range: it must be >= 0"),
        (0 <= s.seed < 2**32, f"seed={s.seed} is out of range: 0 <= seed < 2**32"),
        *algorithm.checks(s),
        (s.max_time is None or (math.isfinite(s.max_time) and s.max_time > 0),
         f"max_time={s.max_time} is out of range: it must be > 0 seconds (or null)"),
        (s.max_playouts is None or s.max_playouts >= 1,
         f"max_playouts={s.max_playouts} is out of range: it must be >= 1 (or null)"),
        (s.max_time is not None or s.max_playouts is not None or not s.restart,
         "no budget: set max_time and/or max_playouts (or restart=false to run the top level once)"),
        (s.clock in CLOCKS, f"clock={s.clock!r} is not valid: {did_you_mean(s.clock, CLOCKS)}"),
        (10 <= s.policy_capacity_bits <= 28,
         f"policy_capacity_bits={s.policy_capacity_bits} is out of range: 10..28"),
    ]
    if s.parallel != "none":
        checks += [
            (s.parallel in parallel_values(),
             f"parallel={s.parallel!r} is not valid: {did_you_mean(s.parallel, parallel_values())}"),
            (math.isfinite(s.average_every) and s.average_every > 0,
             f"average_every={s.average_every} is out of range: it must be > 0 seconds"),
            (s.parallel in algorithm.kernels, _unsupported_parallel(algorithm, s.parallel)),
            (1 <= s.parallel_level <= s.level,
             f"parallel_level={s.parallel_level} is out of range: 1 (leaf) .. level={s.level}"),
            (1 <= s.threads <= 1024, f"threads={s.threads} is out of range: 1..1024"),
            (s.threads == 1 or s.clock == "wall" or s.max_time is None,
             f"threads={s.threads}: parallel runs use a wall-clock budget, set clock=wall"),
        ]
    else:
        checks.append((s.threads == 1, f"threads={s.threads} needs a parallel strategy: parallel=shared, "
                                       "thread_local or averaged"))
    require(checks)


def _unsupported_parallel(algorithm: Algorithm, parallel: str) -> str:
    runners = " or ".join(a.name for a in ALGORITHMS.values() if parallel in a.kernels)
    if list(algorithm.kernels) == ["none"]:
        return (f"parallel={parallel}: {algorithm.title} runs sequentially only: set parallel=none, or use root=K "
                f"for independent searches (parallel={parallel} runs with algo={runners})")
    strategies = ", ".join(key for key in algorithm.kernels if key != "none")
    return f"parallel={parallel}: {algorithm.title} runs parallel={strategies}; parallel={parallel} runs with algo={runners}"
