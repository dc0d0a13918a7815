"""The fixed-target view (COCO, IOHanalyzer): how long each run takes to reach a score.
Pure functions on traces; no files, no plotting.

The tables answer "what score at time t"; this answers "how long until score v". A run's
hitting time of a target v is the first position on an axis (CPU or wall seconds, or
playouts) at which its best score is at least v; +inf when it never is within the run. The
expected running time of a target over a set of runs (COCO's ERT, Hansen et al. 2009,
"Real-parameter black-box optimization benchmarking 2009: experimental setup") is

    ERT(v) = (sum over the runs of what each spent: its hitting time if it reached v,
              its whole length on the axis otherwise) / (the runs that reached v)

the expected cost of reaching v by restarting independent runs until one does; +inf when
no run reached it. Runs that never reach a target count through what they spent, which a
mean over the successful runs alone would hide. The runtime ECDF of a variant is, at each
x, the share of its (run, target) pairs whose hitting time is at most x.

Scores are in the kernel's unit (higher is better); the report converts published targets
into it and its tables back into the paper's unit.
"""

from __future__ import annotations

import numpy as np


def hitting_times(positions, scores, targets) -> np.ndarray:
    """The first position at which a run's best score (its trace of improvements:
    ``positions``, ``scores``) is at least each target; +inf for a target it never reaches."""
    positions = np.asarray(positions, dtype=float)
    targets = np.asarray(targets, dtype=float)
    if positions.size == 0:
        return np.full(targets.shape, np.inf)
    best = np.maximum.accumulate(np.asarray(scores, dtype=float))
    first = np.searchsorted(best, targets, side="left")  # the first improvement >= the target
    return np.where(first < best.size, positions[np.minimum(first, best.size - 1)], np.inf)


def expected_running_time(hits, lengths) -> float:
    """ERT of one target from each run's hitting time (``hits``, +inf: not reached) and its
    whole length on the same axis (``lengths``): what the runs spent over their successes."""
    hits, lengths = np.asarray(hits, dtype=float), np.asarray(lengths, dtype=float)
    reached = np.isfinite(hits)
    if not reached.any():
        return np.inf
    return float(np.where(reached, hits, lengths).sum() / reached.sum())


def runtime_ecdf(hits, grid) -> np.ndarray:
    """At each point of ``grid``, the share of all (run, target) hitting times ``hits`` (any
    shape; +inf: never) that are at most that point."""
    flat = np.sort(np.asarray(hits, dtype=float).ravel())
    return np.searchsorted(flat, np.asarray(grid, dtype=float), side="right") / flat.size


def budget_for_mean(best, grid, target) -> float:
    """The first point of ``grid`` at which the mean over runs of the best score so far
    (``best``: runs x grid, analysis.stats.best_at of each run, nondecreasing along the grid) is
    at least ``target``: the budget at which these runs, cut there, would average the target (a
    published mean made under an unstated budget). +inf when the mean never reaches it; a point
    where some run has no score yet (NaN) has no mean and does not count."""
    best = np.asarray(best, dtype=float)
    return _first_reaching(lambda j: best[:, j].mean(), np.asarray(grid, dtype=float), target)


def bootstrap_budget_for_mean(best, grid, target, resamples: int = 2000, seed: int = 0) -> tuple[float, float]:
    """The 95% percentile bootstrap interval of budget_for_mean, the runs resampled with
    replacement (Efron and Tibshirani 1993, ch. 13); ``seed`` makes it repeatable."""
    best, grid = np.asarray(best, dtype=float), np.asarray(grid, dtype=float)
    rng = np.random.default_rng(seed)
    draws = []
    for _ in range(resamples):
        rows = rng.integers(0, len(best), len(best))
        draws.append(_first_reaching(lambda j: best[rows, j].mean(), grid, target))
    low, high = np.percentile(draws, [2.5, 97.5])
    return float(low), float(high)


def _first_reaching(mean_at, grid: np.ndarray, target: float) -> float:
    """The first grid point j whose ``mean_at(j)`` is at least ``target`` (NaN: not), by
    bisection: the mean of best scores so far only rises along the grid, so the grid points
    that reach the target are a suffix of it (a few columns read, not the whole matrix)."""
    low, high = 0, grid.size
    while low < high:
        middle = (low + high) // 2
        if mean_at(middle) >= target:
            high = middle
        else:
            low = middle + 1
    return float(grid[low]) if low < grid.size else np.inf
