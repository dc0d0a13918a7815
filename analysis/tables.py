"""Tables of checkpoint statistics beside the published values (read by
experiments/published.py), as CSV and Markdown."""

from __future__ import annotations

import numpy as np
import pandas as pd


def published_at(reference: pd.DataFrame | None, column: str, checkpoint: float) -> float:
    if reference is None or column not in reference.columns:
        return np.nan
    rows = reference[np.isclose(reference["time"], checkpoint)]
    return float(rows[column].iloc[0]) if len(rows) else np.nan


def side_by_side(statistics: pd.DataFrame, reference: pd.DataFrame | None) -> pd.DataFrame:
    """One row per (variant, checkpoint) with the published value beside the reproduced
    one, and whether it lies inside the confidence interval."""
    table = statistics.copy()
    table["published"] = [published_at(reference, v, c) for v, c in zip(table["variant"], table["checkpoint"])]
    inside = (table["published"] >= table["ci_low"]) & (table["published"] <= table["ci_high"])
    table["published_in_ci"] = np.where(table["published"].isna() | table["ci_low"].isna(), None, inside)
    return table


def markdown(table: pd.DataFrame, *, axis_name: str, caption: str) -> str:
    """A wide Markdown table: a row per checkpoint, a column per variant reading
    'mean [low, high] (published)', a star where the published value is outside the CI."""
    variants = list(dict.fromkeys(table["variant"]))
    wide = {}
    for variant in variants:
        rows = table[table["variant"] == variant]
        cells = []
        for _, row in rows.iterrows():
            cell = "-" if np.isnan(row["mean"]) else f"{row['mean']:.1f}"
            if not np.isnan(row["ci_low"]):
                cell += f" [{row['ci_low']:.0f}, {row['ci_high']:.0f}]"
            if not np.isnan(row["published"]):
                cell += f" ({row['published']:g}{'' if row['published_in_ci'] in (True, None) else '*'})"
            cells.append(cell)
        wide[variant] = cells
    checkpoints = table[table["variant"] == variants[0]]["checkpoint"]
    frame = pd.DataFrame(wide, index=pd.Index([f"{c:g}" for c in checkpoints], name=axis_name))
    return f"{caption}\n\n{frame.to_markdown()}\n"
