"""The speed-up of a parallel search over the sequential one (Gelly et al. 2008): the factor
k(t) such that the parallel search at time t scores as well as the sequential search at
k(t) * t. Pure functions on traces; no files.

The sequential mean best-so-far S is evaluated on a fine log-spaced grid; k(t) = T(P(t)) / t,
where P(t) is the parallel mean at t and T(y) the first grid time at which S reaches y
(interpolated in log time between grid points). When P(t) exceeds every value S reaches
within its budget, k(t) is only known to exceed T_max / t: it is reported as NaN with
``censored`` set. The 95% interval resamples the runs of both searches (percentile bootstrap).
``column_speedup`` gives one column's k at one time from the run records an experiment's
report reads (a claim's evidence).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis.stats import best_at
from experiments.root_parallel import axis_trace
from nrpa.errors import InputError


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
    grid = _grid(sequential, checkpoints)
    rng = np.random.default_rng(seed)
    rows = []
    for label, runs in variants.items():
        k, samples = _replicates(sequential, runs, checkpoints, grid, resamples, rng)
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


def _grid(sequential: list[tuple], checkpoints) -> np.ndarray:
    """The log-spaced times the sequential mean curve is read at: from a quarter of the first
    checkpoint to the sequential runs' last improvement or the last checkpoint."""
    last = max(max(times) if len(times) else 0 for times, _ in sequential)
    budget = max(last, max(checkpoints))
    return np.exp(np.linspace(np.log(min(checkpoints) / 4), np.log(budget), 400))


def _replicates(sequential: list[tuple], runs: list[tuple], checkpoints, grid, resamples: int,
                rng) -> tuple[np.ndarray, np.ndarray]:
    """k at each checkpoint, and ``resamples`` bootstrap replicates of it (rows; the runs of
    both searches resampled)."""
    k = speedups(sequential, runs, checkpoints, grid)
    samples = np.array([
        speedups([sequential[i] for i in rng.integers(0, len(sequential), len(sequential))],
                 [runs[i] for i in rng.integers(0, len(runs), len(runs))], checkpoints, grid)
        for _ in range(resamples)])
    return k, samples


def column_speedup(records: dict[str, list[dict]], label: str, at: float, *, baseline: str = "sequential",
                   resamples: int = 1000, seed: int = 0) -> dict:
    """The speed-up k of column ``label`` over column ``baseline`` at ``at`` wall-seconds (the
    ``label`` runs at ``at`` score, on average, as the ``baseline`` runs at k x ``at``), with
    its 95% percentile-bootstrap CI over both columns' runs. ``records`` maps each column to its
    run records as the report reads them (``analysis.results.report.collect(experiment).records``; a
    claim's ``Source.runs.records``; root runs merged). Returns k, ci_low, ci_high, censored
    (k is NaN and only known to exceed the baseline's last improvement / ``at``: the column's
    mean at ``at`` is above anything the baseline reached), runs and baseline_runs."""
    for name in (label, baseline):
        if not records.get(name):
            raise InputError(f"no runs of the column {name!r}: the columns with runs are "
                             f"{sorted(key for key, runs in records.items() if runs)}")
    if not (np.isfinite(at) and at > 0):
        raise InputError(f"at={at} is out of range: a time > 0 wall-seconds")
    traces = {name: [axis_trace(record, "wall_seconds") for record in records[name]] for name in (label, baseline)}
    row = speedup_table(traces[baseline], {label: traces[label]}, [at], resamples=resamples, seed=seed).iloc[0]
    return {"k": float(row["speedup"]), "ci_low": float(row["ci_low"]), "ci_high": float(row["ci_high"]),
            "censored": bool(row["censored"]), "runs": len(records[label]), "baseline_runs": len(records[baseline])}


def speedup_samples(records: dict[str, list[dict]], label: str, at: float, *, baseline: str = "sequential",
                    resamples: int = 1000, seed: int = 0) -> tuple[float, np.ndarray]:
    """k of column ``label`` over ``baseline`` at ``at`` wall-seconds (as column_speedup) and its
    bootstrap replicates (runs of both columns resampled; a replicate whose k cannot be read,
    the column's mean beyond anything the baseline reached, is NaN)."""
    for name in (label, baseline):
        if not records.get(name):
            raise InputError(f"no runs of the column {name!r}")
    sequential = [axis_trace(record, "wall_seconds") for record in records[baseline]]
    runs = [axis_trace(record, "wall_seconds") for record in records[label]]
    k, samples = _replicates(sequential, runs, [at], _grid(sequential, [at]), resamples, np.random.default_rng(seed))
    return float(k[0]), samples[:, 0]


# The engine-speed factor: the same measure applied engine to engine. ---------------------

def published_improvements(times, values) -> tuple[np.ndarray, np.ndarray]:
    """The published points at which the published mean improved on the previous checkpoint
    (the first point included): only those date when a value was first reached; a flat run
    of equal values (a solved instance) says nothing about time."""
    times, values = np.asarray(times, dtype=float), np.asarray(values, dtype=float)
    keep = np.isfinite(values) & np.concatenate([[True], values[1:] > values[:-1]])
    return times[keep], values[keep]


def log2_shifts(curve: np.ndarray, grid: np.ndarray, published_times, published_values) -> np.ndarray:
    """log2(t / T(v)) for each published point (t, v) that our mean ``curve`` (on ``grid``)
    reaches strictly after its first finite time: T(v) is when our mean first reaches v. NaN
    elsewhere (our curve starts above v, or never reaches it: those give bounds, not
    estimates). Values are in the kernel's unit (higher is better)."""
    finite = np.isfinite(curve)
    if not finite.any():
        return np.full(len(published_times), np.nan)
    start = grid[np.argmax(finite)]
    reached = np.array([time_to_reach(curve, grid, value) for value in published_values])
    usable = np.isfinite(reached) & (reached > start)
    return np.where(usable, np.log2(np.asarray(published_times, dtype=float) / np.where(usable, reached, 1.0)),
                    np.nan)


def engine_speed(traces_by_variant: dict[str, list[tuple]], published: dict[str, tuple], *,
                 resamples: int = 1000, seed: int = 0) -> dict:
    """The factor k by which this engine outruns the published one on a time table: the shift
    in log2 time that best aligns our mean curves with the published points (least squares
    in log2 time, so log2 k is the mean of the per-point shifts log2(t / T(v)) over every
    variant with a published column), with a 95% percentile-bootstrap CI over runs.

    ``published`` maps a variant to its (times, values) in the kernel's unit. Returns k,
    ci_low, ci_high, points (the published points used) and per_variant (k of each variant
    alone, a check that one factor fits them all)."""
    variants = [v for v in published if traces_by_variant.get(v)]
    nothing = {"k": np.nan, "ci_low": np.nan, "ci_high": np.nan, "points": 0, "per_variant": {}}
    if not variants:
        return nothing
    points = {v: published_improvements(*published[v]) for v in variants}
    last = max(max(times, default=0) for v in variants for times, _ in traces_by_variant[v])
    first = min(min(times, default=np.inf) for times, _ in points.values())
    if last <= 0 or not np.isfinite(first):
        return nothing
    grid = np.exp(np.linspace(np.log(min(first, last) / 64), np.log(last), 600))
    # each run's best on the grid, once: a resample is a choice of rows
    matrices = {v: np.array([best_at(p, s, grid) for p, s in traces_by_variant[v]]) for v in variants}

    def shifts(rows: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        return {v: log2_shifts(matrices[v][rows[v]].mean(axis=0), grid, *points[v]) for v in variants}

    observed = shifts({v: np.arange(len(matrices[v])) for v in variants})
    pooled = np.concatenate(list(observed.values()))
    if not np.isfinite(pooled).any():
        return nothing
    rng = np.random.default_rng(seed)
    estimates = []
    for _ in range(resamples):
        resampled = np.concatenate(list(shifts(
            {v: rng.integers(0, len(matrices[v]), len(matrices[v])) for v in variants}).values()))
        if np.isfinite(resampled).any():
            estimates.append(np.nanmean(resampled))
    enough = len(estimates) > resamples // 2
    return {
        "k": float(2 ** np.nanmean(pooled)),
        "ci_low": float(2 ** np.percentile(estimates, 2.5)) if enough else np.nan,
        "ci_high": float(2 ** np.percentile(estimates, 97.5)) if enough else np.nan,
        "points": int(np.isfinite(pooled).sum()),
        "per_variant": {v: float(2 ** np.nanmean(s)) if np.isfinite(s).any() else np.nan
                        for v, s in observed.items()},
    }
