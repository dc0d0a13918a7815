"""A published time table against an experiment's runs: what the report of an experiment with
published times (analysis/results/report.py, checkpoints_report) adds to its tables.

This engine's speed k (a measurement, never a budget: at t CPU-seconds our runs score as the
published runs at k t); the published runs' rate R estimated from our runs, beside the stated R
(report.published_rate); and with the stated R, each column's mean at t x R x rho(column)
playouts, the work the paper's machine did for that column in t seconds, beside the published
mean at t. ``runs`` is the report's Runs (analysis.results.report): the runs of each column.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis.results.speedup import engine_speed
from analysis.results.tables import side_by_side
from analysis.stats import checkpoint_statistics
from experiments.experiment import Experiment
from experiments.published import load_reference
from experiments.root_parallel import axis_trace


def scaled_traces(runs, axis: str, scale: float) -> dict[str, list[tuple]]:
    """Each variant's runs as (positions on ``axis``, scores in the paper's unit)."""
    return {label: [(positions, [score * scale for score in scores])
                    for positions, scores in (axis_trace(r, axis) for r in rs)]
            for label, rs in runs.records.items() if rs}


def matched_work(experiment: Experiment, runs, estimate, time_axis: str | None) -> tuple[dict, pd.DataFrame | None]:
    """A published time table against these runs. This engine's speed k (a measurement,
    never a budget: at t CPU-seconds it scores as the published runs at k t), estimated from
    the runs on ``time_axis`` (NaN without one: runs budgeted in playouts); the published
    runs' rate R estimated from these runs on the playouts axis, on the columns the
    experiment's report.published_rate was fitted on (a check of the stated R); and, with
    the stated R, the table at matched time: each column's mean at t x R x rho(column)
    playouts, read on each run's playouts trace, beside the published mean at t (and the same at
    equal playouts, t x R, in speed["equal_playouts"]). Returns the estimates (with the stated R
    and the cell counts) and the matched table (None without a stated R)."""
    reference = load_reference(experiment.reference)
    scale = experiment.value_scale

    def published(labels) -> dict:
        return {label: (reference["time"].to_numpy(), reference[label].to_numpy() / scale)
                for label in labels if label in reference.columns}

    speed = {"k": np.nan, "ci_low": np.nan, "ci_high": np.nan, "points": 0, "per_variant": {}}
    if time_axis is not None:
        kernel_traces = scaled_traces(runs, time_axis, 1.0)  # higher is better, as engine_speed wants
        speed = engine_speed(kernel_traces, published(kernel_traces))
    stated = experiment.published_rate
    speed.update(rate=np.nan, rate_ci_low=np.nan, rate_ci_high=np.nan, rate_points=0,
                 stated_rate=stated, cells_inside=(0, 0), cells_matched_inside=(0, 0))
    if stated is None:
        return speed, None
    playout_traces = scaled_traces(runs, "playouts", 1.0)
    # engine_speed's factor on the playouts axis is published seconds per playout: R is its inverse
    fitted = engine_speed(playout_traces, published(stated.fit_on))
    speed.update(rate=1 / fitted["k"], rate_ci_low=1 / fitted["ci_high"], rate_ci_high=1 / fitted["ci_low"],
                 rate_points=fitted["points"])
    # a check of rho: R fitted on each column's published curve alone, over R fitted on its baseline's, is
    # the published engine's relative rate; where it is near rho, the relative costs carry over
    alone = engine_speed(playout_traces, published(list(playout_traces)), resamples=0)["per_variant"]
    speed["published_relative"] = {label: alone[value.against] / alone[label]
                                   for label, value in stated.relative if label in alone and value.against in alone}
    # matched time for the table's own columns (a sweep's column beside them has no rho: equal playouts only)
    measured = [label for label in playout_traces if label in stated.fit_on or label in dict(stated.relative)]
    matched = matched_table(runs, reference, scale, estimate, stated.work, measured) if measured else None
    speed["matched"] = matched
    speed["equal_playouts"] = matched_table(runs, reference, scale, estimate, lambda t, label: stated.playouts(t),
                                            list(playout_traces))
    speed["cells_matched_inside"] = cells_inside(matched) if matched is not None else (0, 0)
    return speed, matched


def matched_table(runs, reference: pd.DataFrame, scale: float, estimate, work, labels: list[str]) -> pd.DataFrame:
    """Our mean of each column of ``labels`` at ``work(t, column)`` playouts (matched time:
    PublishedRate.work, t x R x rho; equal playouts: t x R) beside the published mean at t, for the
    published times t whose work every run of every column reaches (one row per t for every column)."""
    traces = {label: traces for label, traces in scaled_traces(runs, "playouts", scale).items() if label in labels}
    fewest = {label: min(r["result"]["playouts"] for r in runs.records[label]) for label in traces}
    # a budget is rounded to a whole playout: half a playout more reads the same runs
    times = [t for t in reference["time"].to_numpy(dtype=float)
             if all(work(t, label) <= fewest[label] + 0.5 for label in traces)]
    tables = []
    for label, label_traces in traces.items():
        positions = np.array([work(t, label) for t in times])
        statistics = checkpoint_statistics({label: label_traces}, positions, estimate=estimate)
        statistics["checkpoint"] = times  # rows read by the published time
        table = side_by_side(statistics, reference)
        table.insert(2, "our_playouts", positions)
        tables.append(table)
    return pd.concat(tables, ignore_index=True)


def cells_inside(table: pd.DataFrame) -> tuple[int, int]:
    """(cells whose published value lies inside our CI, cells with both)."""
    judged = table["published_in_ci"].dropna()
    return int(sum(bool(v) for v in judged)), len(judged)
