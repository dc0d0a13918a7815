"""The speed-up of a parallel search over the sequential one (Gelly et al. 2008): the factor
k(t) such that the parallel search at time t scores as well as the sequential search at
k(t) * t. Pure functions on traces; no files.

The sequential mean best-so-far S is evaluated on a fine log-spaced grid; k(t) = T(P(t)) / t,
where P(t) is the parallel mean at t and T(y) the first grid time at which S reaches y
(interpolated in log time between grid points). When P(t) exceeds every value S reaches
within its budget, k(t) is only known to exceed T_max / t: it is reported as NaN with
``censored`` set. The 95% interval resamples the runs of both searches (percentile bootstrap).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis.stats import best_at


def mean_curve(traces: list[tuple], times: np.ndarray) -> np.ndarray:
    """Mean over runs of the best at each time (NaN where some run has no solution yet)."""
    matrix = np.array([best_at(positions, scores, times) for positions, scores in traces])
    return matrix.mean(axis=0)


def time_to_reach(curve: np.ndarray, grid: np.ndarray, value: float) -> float:
    """First time the non-decreasing ``curve`` on ``grid`` reaches ``value`` (NaN if never)."""
    reached = np.flatnonzero(np.isfinite(curve) & (curve >= value))
    if reached.size == 0:
        return np.nan
    i = reached[0]
    if i == 0 or not np.isfinite(curve[i - 1]) or curve[i] == curve[i - 1]:
        return float(grid[i])
    fraction = (value - curve[i - 1]) / (curve[i] - curve[i - 1])
    return float(np.exp(np.log(grid[i - 1]) + fraction * (np.log(grid[i]) - np.log(grid[i - 1]))))


def speedups(sequential: list[tuple], parallel: list[tuple], checkpoints, grid) -> np.ndarray:
    """k at each checkpoint from the two sets of runs' (times, scores) traces."""
    reference = mean_curve(sequential, grid)
    parallel_mean = mean_curve(parallel, np.asarray(checkpoints))
    return np.array([time_to_reach(reference, grid, value) / t if np.isfinite(value) else np.nan
                     for value, t in zip(parallel_mean, checkpoints)])


def speedup_table(sequential: list[tuple], variants: dict[str, list[tuple]], checkpoints, *,
                  resamples: int = 1000, seed: int = 0) -> pd.DataFrame:
    """One row per (variant, checkpoint): k, its bootstrap CI, whether it is censored."""
    last = max(max(times) if len(times) else 0 for times, _ in sequential)
    budget = max(last, max(checkpoints))
    grid = np.exp(np.linspace(np.log(min(checkpoints) / 4), np.log(budget), 400))
    rng = np.random.default_rng(seed)
    rows = []
    for label, runs in variants.items():
        k = speedups(sequential, runs, checkpoints, grid)
        samples = np.array([
            speedups([sequential[i] for i in rng.integers(0, len(sequential), len(sequential))],
                     [runs[i] for i in rng.integers(0, len(runs), len(runs))], checkpoints, grid)
            for _ in range(resamples)])
        parallel_mean = mean_curve(runs, np.asarray(checkpoints))
        reference_best = np.nanmax(mean_curve(sequential, grid))
        for column, t in enumerate(checkpoints):
            finite = samples[:, column][np.isfinite(samples[:, column])]
            rows.append({
                "variant": label, "checkpoint": float(t), "speedup": k[column],
                "ci_low": np.percentile(finite, 2.5) if finite.size > resamples // 2 else np.nan,
                "ci_high": np.percentile(finite, 97.5) if finite.size > resamples // 2 else np.nan,
                "censored": bool(np.isfinite(parallel_mean[column]) and parallel_mean[column] > reference_best),
            })
    return pd.DataFrame(rows)
