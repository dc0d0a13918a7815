"""Playout for playout: does the C++ reference engine make the same search as ours? Per column and
playout count n, the mean best score after n playouts on each engine, Welch's interval of the
difference, and an equivalence test against a margin (analysis/claims/engines.py says how the
engines pages read it).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy import stats

from analysis.stats import best_at

PLAYOUT_CELLS = tuple(2 ** k for k in range(6, 21))  # 64 .. 1,048,576 playouts
# A cell is compared where each side has this many runs or more: with fewer, a sample variance
# near 0 by chance leaves Welch's interval to the other side's error, and a cell "differs" falsely.
MIN_RUNS = 10


def scores_at(traces: list[tuple], reach: list[int], cell: int) -> np.ndarray:
    """The best score after ``cell`` playouts of each run that reached it."""
    return np.array([best_at(positions, scores, [cell])[0]
                     for (positions, scores), reached in zip(traces, reach) if reached >= cell])


def welch(a: np.ndarray, b: np.ndarray, confidence: float) -> tuple[float, float]:
    """Welch's interval of mean(a) - mean(b); the difference itself where neither varies (scipy's
    ttest_ind(equal_var=False).confidence_interval gives NaN there, and a constant paired difference,
    a column's extra work that changes no run's score, is a case split_pair meets)."""
    va, vb = a.var(ddof=1) / a.size, b.var(ddof=1) / b.size
    se = math.sqrt(va + vb)
    diff = float(a.mean() - b.mean())
    if se == 0:
        return diff, diff
    df = (va + vb) ** 2 / (va ** 2 / (a.size - 1) + vb ** 2 / (b.size - 1))
    half = float(stats.t.ppf(0.5 + confidence / 2, df)) * se
    return diff - half, diff + half


def agreement(reference: dict[str, tuple], ours: dict[str, tuple], margin: float,
              cells: tuple[int, ...] = PLAYOUT_CELLS, log: bool = False) -> pd.DataFrame:
    """Per column and playout cell both sides reach with MIN_RUNS runs or more: the means, their difference
    (reference - ours), its interval at the Bonferroni level over all the table's cells and its 90%
    interval, and the cell's verdict. ``reference`` and
    ``ours``: column -> (traces [(positions, scores)], playouts each run reached). ``log``: each run's
    best score as its log10 (a domain in LOG_SCORED)."""
    found = []
    for column in reference:
        if column not in ours:
            continue
        for cell in cells:
            a, b = scores_at(*reference[column], cell), scores_at(*ours[column], cell)
            if a.size >= MIN_RUNS and b.size >= MIN_RUNS:
                found.append((column, cell, *((np.log10(a), np.log10(b)) if log else (a, b))))
    rows = []
    level = 1 - 0.05 / max(len(found), 1)  # Bonferroni over every cell of the table, all columns
    for column, cell, a, b in found:
        low, high = welch(a, b, level)
        low90, high90 = welch(a, b, 0.90)
        verdict = ("differs" if low > 0 or high < 0 else
                   "agrees" if -margin <= low90 and high90 <= margin else "inconclusive")
        rows.append({"column": column, "playouts": cell, "reference_runs": a.size, "our_runs": b.size,
                     "reference": float(a.mean()), "ours": float(b.mean()), "difference": float(a.mean() - b.mean()),
                     "low": low, "high": high, "low90": low90, "high90": high90, "verdict": verdict})
    return pd.DataFrame(rows)


def pooled(first: dict[str, tuple], second: dict[str, tuple], cells: pd.DataFrame, log: bool = False) -> dict | None:
    """The comparison as one test: at the last cell every compared column reaches (``cells``, made by
    ``agreement`` from the same runs), the mean over the columns of their differences (first - second),
    and its 95% interval (its variance the sum of the columns' over k^2, Welch-Satterthwaite's degrees
    of freedom). A shift common to the columns shows there while each cell alone is too noisy to tell
    it; a difference at earlier cells only does not. The columns are taken as independent: ours are
    (no seed shared), the reference's columns run the same seed numbers, different searches; on the
    committed runs their sums' variance was 0.9-1.4 times the independent one (audit, 2026-12-02), an
    interval at most about 13% too narrow. None without cells."""
    if not len(cells):
        return None
    cell = int(cells.groupby("column")["playouts"].max().min())
    columns = list(cells.loc[cells["playouts"] == cell, "column"])
    samples = []
    for column in columns:
        a, b = scores_at(*first[column], cell), scores_at(*second[column], cell)
        samples.append((np.log10(a), np.log10(b)) if log else (a, b))
    k = len(samples)
    difference = sum(float(a.mean() - b.mean()) for a, b in samples) / k
    parts = [v for a, b in samples for v in ((a.var(ddof=1) / a.size, a.size), (b.var(ddof=1) / b.size, b.size))]
    variance = sum(v for v, _ in parts)
    df = variance ** 2 / sum(v ** 2 / (n - 1) for v, n in parts) if variance else math.inf
    half = float(stats.t.ppf(0.975, df)) * math.sqrt(variance) / k
    return {"playouts": cell, "columns": k, "difference": difference, "low": difference - half, "high": difference + half}


def column_verdicts(cells: pd.DataFrame) -> dict[str, str]:
    verdicts = {}
    for column, rows in cells.groupby("column", sort=False):
        verdicts[column] = ("differs" if (rows["verdict"] == "differs").any() else
                            "agrees" if (rows["verdict"] == "agrees").all() else "inconclusive")
    return verdicts


def comparison(first: dict[str, tuple], second: dict[str, tuple], margin: float, log: bool) -> dict:
    """One comparison of two samples of runs: its cells (``agreement``), each column's verdict and
    the columns as one test (``pooled``)."""
    cells = agreement(first, second, margin, log=log)
    return {"cells": cells, "verdicts": column_verdicts(cells) if len(cells) else {},
            "pooled": pooled(first, second, cells, log)}


def also(measured: dict, ours_at) -> list[dict]:
    """The table's report.same_search_also: for each other setting of our engine, its runs beside the
    reference playout for playout (``main``) and beside ours as the claims read them (``effect``:
    what the setting changes in our search), each a ``comparison``. ``ours_at(overrides)``: our runs
    at a setting, as ``measured["ours"]`` holds them (engines.our_traces)."""
    found = []
    for label, why, setting in measured["experiment"].same_search_also:
        ours = ours_at(setting)
        if not any(traces for traces, _ in ours.values()):
            continue  # its runs not made yet: the page says nothing of it
        found.append({"label": label, "why": why, "overrides": setting, "runs": min(len(t) for t, _ in ours.values()),
                      "main": comparison(measured["reference"], ours, measured["margin"], measured["log"]),
                      "effect": comparison(ours, measured["ours"], measured["margin"], measured["log"])})
    return found
