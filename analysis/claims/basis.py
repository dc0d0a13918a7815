"""The comparison a claim's paper makes (its file's `basis:`) and where the runs are read for it.

A claim is judged only on a reading of the runs that makes its paper's comparison (check_basis):
final scores or complete searches, equal time, equal playouts, wall time. A claim on a published
CPU-time table is read twice by the fixed-n report (BASES): at the published time, and at matched
time, each column at t x R x rho(column) playouts (checkpoint_times), the work the paper's machine
did for that column in t seconds (or, where the table's baseline chooses it, at the reference
engine's clock: analysis/claims/engines.py, ReferenceClock).
"""

from __future__ import annotations

import math

import numpy as np

from analysis.claims.files import CLAIM_BASES, Claim, claim_variants
from analysis.claims.paper_settings import complete
from analysis.claims.sources import NotJudged, Refused, Source

PUBLISHED_RUNS = 200  # the published protocol's runs per column of a time table (a claim may state its own)

# The first published checkpoint is not read at matched time (by the claims' "every", by the
# readings' fits; the short-time claims of analysis/claims/selective.yaml list their times without
# it): at 0.01 s the published mean lies below ours at t x R in nearly every table and under nearly
# every candidate (8 of the 9 time tables' baseline columns under the readings the claims rest on:
# docs/notes/claims-measured.md), the mark of a start-up time of the paper's process within its
# first 0.01 s, shared by every column: our cell at t x R playouts is not what the paper's process
# had done by then. Decided after the first fits showed it; the snapshots still show the cells.
FIRST_SCORED = 0.02

# A matched-time run's budget is the paper's work for it (t x R x rho playouts) rounded to a whole
# playout, so its runs reach that work within half a playout: checkpoints are read that far on.
ROUNDED_BUDGET_SLACK = 0.5
# The fixed-n report's two readings of a claim on a published time table: our runs at the
# published CPU-seconds, and at matched time (each column at t x R x rho(column) playouts).
BASES = ("published time", "matched time")


def check_basis(claim: Claim, reading: str) -> None:
    """NotJudged unless ``reading`` (what a reading of the runs compares: a key of CLAIM_BASES'
    values) is a reading of the comparison the claim's paper makes."""
    if reading not in CLAIM_BASES[claim.basis]:
        raise Refused(f"the paper compares at {claim.basis}; these runs are read at {reading}: refused (a verdict "
                        "on another basis answers another question)")


def final_reading(claim: Claim, source: Source) -> str:
    """A reading of runs' final scores: of complete searches when no column the claim reads has
    a budget or restarts (each search ran to the end of its top level), else of final scores."""
    jobs = [v.job.settings for v in claim_variants(claim, source.experiment)]
    return "complete searches" if jobs and all(map(complete, jobs)) \
        else "final scores"


def time_reading(axis: str, rate) -> str:
    """What a checkpoint reading compares: wall time, equal time (CPU-seconds, or with ``rate``
    matched time on the playouts axis), or equal playouts."""
    if rate is not None or axis == "cpu_seconds":
        return "equal time"
    return "wall time" if axis == "wall_seconds" else "equal playouts"


def matched_reach(source: Source, label: str, rate) -> float:
    """The published seconds a column's runs reach at matched time: the time whose work its fewest
    playouts are (within a rounded budget's slack), on ``rate``'s clock (t x R x rho, or the
    reference engine's: engines.ReferenceClock)."""
    return rate.reach(source.last("playouts", [label]) + ROUNDED_BUDGET_SLACK, label)


def checkpoint_times(claim: Claim, source: Source, axis: str, rate=None) -> tuple[list[tuple[float, dict]], str]:
    """The points at which a claim is judged, each (t, {column: where the column is read on
    ``axis``}), and how the report says it. Without ``rate``: the published times, every column
    read at t. With ``rate`` (a PublishedRate: matched time, on the playouts axis): each column
    at the paper's work for it in t seconds, t x R x rho(column) (or an engines.ReferenceClock's,
    W_ref,column(t / s)). Where the claim's time is
    beyond the runs: the last point every column reaches, and the report says so."""
    labels = sorted(claim.variants())
    empty = [label for label in labels if not source.runs.records.get(label)]
    if empty:
        raise NotJudged(f"{', '.join(empty)}: no runs yet")
    unit = "playouts" if axis == "playouts" and rate is None else "s"
    if rate is None:
        last = source.last(axis, labels)
        published = source.published_times(axis, last)

        def position(t: float, label: str) -> float:  # every column at the same t
            return t
    else:
        # the published seconds every column's runs reach: a column's fewest playouts over its R x rho
        last = min(matched_reach(source, label, rate) for label in labels)
        published = source.reference["time"].to_numpy(dtype=float)
        position = rate.work
    if claim.at == "every":
        wanted = published if rate is None else [t for t in published if t >= FIRST_SCORED * (1 - 1e-9)]
    else:
        wanted = [published[-1]] if claim.at == "last" else list(claim.at)
    times = [float(t) for t in wanted if t <= last * (1 + 1e-9)]
    matched = "" if rate is None else f" at matched time (each column at {rate.describe})"
    if not times:
        return [(last, {label: position(last, label) for label in labels})], \
            f"{last:.4g} {unit}{matched}: the runs end there; the claim is at {wanted[-1]:g} {unit}"
    text = f"{times[0]:.4g} {unit}" if len(times) == 1 else \
        f"{len(times)} checkpoints, {times[0]:.4g}-{times[-1]:.4g} {unit}"
    return [(t, {label: position(t, label) for label in labels}) for t in times], text + matched


def published_difference(source: Source, a: str, b: str, t: float | None = None) -> float:
    """The paper's own value of the comparison "a above b": a - b at published time ``t`` of a time
    table, or of the two columns' totals (``t`` None: a board table's Total row), in a contrast's
    unit and sign (higher is better: the paper's unit times the sign of value_scale); NaN where the
    paper has no such cells."""
    reference = source.reference
    if reference is None or a not in reference.columns or b not in reference.columns:
        return math.nan
    if t is None:
        row = reference[reference.iloc[:, 0].astype(str) == "Total"]
    elif "time" in reference.columns:
        row = reference[np.isclose(reference["time"].to_numpy(dtype=float), t)]
    else:
        return math.nan
    if len(row) != 1:
        return math.nan
    return float(row[a].iloc[0] - row[b].iloc[0]) * float(np.sign(source.experiment.value_scale))


def pair_name(a: str, b: str, t: float, positions: dict, axis: str, rate) -> str:
    """A contrast's name: "A vs B at 163.8 s", or at matched time "A vs B at 163.8 s (1.9e+06 vs
    9.5e+05 playouts)", each column at its own work."""
    if rate is None:
        return f"{a} vs {b} at {t:.4g} {'playouts' if axis == 'playouts' else 's'}"
    return f"{a} vs {b} at {t:.4g} s ({positions[a]:.3g} vs {positions[b]:.3g} playouts)"
