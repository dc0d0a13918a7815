"""One search run from Python: settings in, a frozen result out.

The papers' symbols are kept where users type them: ``level``, ``N`` (iterations per
level), ``alpha`` (Adapt step), ``P`` (playouts per level-1 step of Stabilized NRPA),
``tau`` (GNRPA's temperature), ``repetitions`` (R of GNRPA with limited repetitions),
``patience`` (K of restarting NRPA), ``beam`` (B of Beam NRPA), ``C`` and ``D`` (SP-MCTS's
exploration constant and the constant of its variance term). The settings and the algorithms'
registry live in ``nrpa.settings``; this module, the entry point, imports the algorithms'
declarations (``nrpa.algorithms``), so that importing it leaves the registry full.
"""

from dataclasses import dataclass
from typing import Optional

import numpy as np

from nrpa import algorithms  # noqa: F401  (declares the harness's algorithms: fills ALGORITHMS)
from nrpa.bias import NO_BIAS, KernelBias, no_bias
from nrpa.clock import CLOCKS
from nrpa.errors import InputError
from nrpa.interrupt import STOP_REQUEST, Interrupted, run_kernel
from nrpa.leaf_node import STRATEGIES
from nrpa.run import Params
# the settings and the registry, imported by every caller from here (the entry point)
from nrpa.settings import (ALGORITHMS, Algorithm, SearchSettings, nrpa_parallel_identity,  # noqa: F401
                           other_spellings, own_settings, parallel_values, register, same_search, validate)

TRACE_CAPACITY = 1 << 16


def column_name(settings: SearchSettings) -> str:
    """The search's name as a table's column: the algorithm and the setting that names it."""
    algorithm = ALGORITHMS[settings.algorithm]
    return algorithm.title if algorithm.column is None else algorithm.column(settings)


def label(settings: SearchSettings) -> str:
    """The search in words, for tables and logs: the algorithm's label, with its parallel strategy."""
    return ALGORITHMS[settings.algorithm].label(settings)


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


def check_bias(settings: SearchSettings, bias: KernelBias) -> None:
    """InputError when a bias is set for an algorithm whose playouts take none."""
    if bias.kind != NO_BIAS and not ALGORITHMS[settings.algorithm].biased:
        raise InputError(f"domain.bias={bias.description} is GNRPA's bias: use algo=gnrpa "
                         f"(algo={settings.algorithm} takes no bias; domain.bias=none)")


def kernel_params(settings: SearchSettings, bias: Optional[KernelBias] = None) -> Params:
    """The kernels' ``Params`` for ``settings`` and the playouts' ``bias`` (none by default),
    every field of a fixed type (numba compiles and caches the kernels for the types of
    their arguments)."""
    s = settings
    bias = bias if bias is not None else no_bias()
    check_bias(settings, bias)
    return Params(
        level=int(s.level),
        iterations=int(s.N),
        playouts_per_step=int(s.P),
        alpha=float(s.alpha),
        temperature=float(s.tau),
        repetitions=int(s.repetitions) if s.repetitions is not None else 0,
        patience=int(s.patience) if s.patience is not None else 0,
        beam=int(s.beam),
        bias=int(bias.kind),
        bias_keys=bias.keys,
        bias_factors=bias.factors,
        bias_shift=np.uint64(bias.shift),
        strategy=STRATEGIES.get(s.parallel, 0),
        parallel_level=int(s.parallel_level),
        threads=int(s.threads),
        average_every=float(s.average_every),
        seed=int(s.seed),
        budget_clock=CLOCKS[s.clock],
        max_time=float(s.max_time) if s.max_time is not None else 0.0,
        max_playouts=float(s.max_playouts) if s.max_playouts is not None else 0.0,
        restart=bool(s.restart),
        policy_capacity_bits=int(s.policy_capacity_bits),
        trace_capacity=TRACE_CAPACITY,
        exploration=float(s.C),
        variance_bias=float(s.D),
        simulations_per_move=int(s.simulations_per_move),
        tree_capacity=int(s.tree_nodes),
        share_depth=int(s.share_depth),
        share_min_visits=float(s.share_min_visits),
        share_every=int(s.share_every),
        interrupt=STOP_REQUEST,
    )


def run_search(kernel_domain, settings: SearchSettings, bias: Optional[KernelBias] = None) -> SearchResult:
    """Run one search on a domain value built by a domain adapter (``kernel_domain()``),
    with GNRPA's ``bias`` (``nrpa.bias.bias_for(adapter)``; none by default)."""
    kernel = ALGORITHMS[settings.algorithm].kernels[settings.parallel]
    if kernel is None:
        raise InputError(f"parallel={settings.parallel} runs on a dask cluster: run it with run.py "
                         "(experiments.cluster.cluster_search)")
    try:
        outcome = run_kernel(kernel, kernel_domain, kernel_params(settings, bias))  # Ctrl-C stops it
    except Interrupted as stop:  # the best so far, for the command to show (the run is dropped)
        if stop.partial is not None:
            best, playouts, cpu_total = stop.partial[0], stop.partial[6], stop.partial[9]
            stop.best_so_far = (float(best), int(playouts), float(cpu_total))
        raise
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
