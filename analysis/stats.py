"""Statistics of runs at checkpoints: pure functions on arrays, no files, no plotting.

A run is its trace: the positions (CPU seconds, or playouts) at which its best score
improved and the new best at each. Its best at a checkpoint is the last improvement at or
before it; NaN when it had no solution yet.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats


def doubling_checkpoints(first: float, last: float) -> np.ndarray:
    """first * 2**k for k = 0, 1, ... up to ``last`` (0.01 .. 163.84 s in the papers)."""
    count = int(np.floor(np.log2(last / first) + 1e-9)) + 1
    return np.round(first * 2.0 ** np.arange(count), 10)


def best_at(positions, scores, checkpoints) -> np.ndarray:
    """The best score of one run at each checkpoint (NaN before its first solution)."""
    positions = np.asarray(positions, dtype=float)
    scores = np.asarray(scores, dtype=float)
    index = np.searchsorted(positions, np.asarray(checkpoints, dtype=float), side="right") - 1
    return np.where(index >= 0, scores[np.maximum(index, 0)], np.nan)


def t_interval(values, confidence: float = 0.95) -> tuple[float, float, float]:
    """Mean and Student-t confidence interval of the finite values (NaN bounds with n < 2)."""
    values = np.asarray(values, dtype=float)
    values = values[np.isfinite(values)]
    if values.size == 0:
        return np.nan, np.nan, np.nan
    mean = float(values.mean())
    if values.size < 2:
        return mean, np.nan, np.nan
    half = stats.t.ppf((1 + confidence) / 2, values.size - 1) * values.std(ddof=1) / np.sqrt(values.size)
    return mean, mean - half, mean + half


def bootstrap_interval(values, confidence: float = 0.95, resamples: int = 10_000,
                       seed: int = 0) -> tuple[float, float, float]:
    """Mean and percentile-bootstrap interval (the cross-check of the t interval)."""
    values = np.asarray(values, dtype=float)
    values = values[np.isfinite(values)]
    if values.size < 2:
        return (float(values.mean()) if values.size else np.nan), np.nan, np.nan
    if np.all(values == values[0]):
        return float(values[0]), float(values[0]), float(values[0])
    result = stats.bootstrap((values,), np.mean, confidence_level=confidence, n_resamples=resamples,
                             method="percentile", random_state=np.random.default_rng(seed))
    return float(values.mean()), float(result.confidence_interval.low), float(result.confidence_interval.high)


# The confidence-interval methods, by the name a command line gives: each maps (values,
# confidence) to (mean, low, high).
ESTIMATORS = {"t": t_interval, "bootstrap": bootstrap_interval}


def checkpoint_statistics(traces_by_variant: dict[str, list[tuple]], checkpoints, *,
                          confidence: float = 0.95, estimate=t_interval) -> pd.DataFrame:
    """One row per (variant, checkpoint): runs, runs without a solution yet, mean, CI
    (``estimate``: one of ESTIMATORS).

    ``traces_by_variant`` maps a label to the runs' (positions, scores) pairs."""
    rows = []
    for variant, traces in traces_by_variant.items():
        matrix = np.array([best_at(p, s, checkpoints) for p, s in traces]).reshape(len(traces), -1)
        for column, checkpoint in enumerate(checkpoints):
            values = matrix[:, column]
            mean, low, high = estimate(values, confidence)
            rows.append({
                "variant": variant,
                "checkpoint": float(checkpoint),
                "runs": len(traces),
                "runs_without_solution": int(np.sum(~np.isfinite(values))),
                "mean": mean,
                "ci_low": low,
                "ci_high": high,
            })
    return pd.DataFrame(rows)


def final_statistics(scores_by_variant: dict[str, list[float]], *, confidence: float = 0.95,
                     estimate=t_interval) -> pd.DataFrame:
    """One row per variant over its runs' final scores: runs, mean with its CI (``estimate``:
    one of ESTIMATORS), standard error of the mean, standard deviation, min and max."""
    rows = []
    for variant, scores in scores_by_variant.items():
        values = np.asarray(scores, dtype=float)
        mean, low, high = estimate(values, confidence)
        spread = values.std(ddof=1) if values.size > 1 else np.nan
        rows.append({"variant": variant, "runs": values.size, "mean": mean, "ci_low": low, "ci_high": high,
                     "sem": spread / np.sqrt(values.size), "std": spread,
                     "min": values.min() if values.size else np.nan,
                     "max": values.max() if values.size else np.nan})
    return pd.DataFrame(rows)
