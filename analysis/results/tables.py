"""Tables of checkpoint statistics beside the published values (read by
experiments/published.py), as CSV and Markdown; the one way every report writes a Markdown
table (markdown_table), whose cells may hold a run's or a record's text."""

from __future__ import annotations

import html
import re

import numpy as np
import pandas as pd

# What a Markdown table cell cannot hold as it is: a pipe or a line break ends the cell or the
# row, and mkdocs (docs/results/) and GitHub pass raw HTML through; the results site reads the
# cells back with markdown_text and escapes them itself (analysis/site/sections.py).
_CELL_ESCAPES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", "|": "\\|", "\r\n": " ", "\n": " ", "\r": " "}
_CELL_SPECIAL = re.compile("|".join(map(re.escape, _CELL_ESCAPES)))


def markdown_cell(value):
    """``value`` as a Markdown table cell: a string with its pipes, line breaks and HTML's
    special characters escaped (any other value as it is, for to_markdown to format)."""
    if not isinstance(value, str):
        return value
    return _CELL_SPECIAL.sub(lambda match: _CELL_ESCAPES[match.group(0)], value)


def markdown_text(cell: str) -> str:
    """A cell of a table markdown_table wrote, as the text it holds (markdown_cell undone)."""
    return html.unescape(cell.replace("\\|", "|"))


def markdown_table(frame: pd.DataFrame, **options) -> str:
    """``frame`` as a Markdown (pipe) table, every text cell, column name and row label through
    markdown_cell; ``options``: DataFrame.to_markdown's (index, floatfmt)."""
    escaped = frame.rename(columns=markdown_cell, index=markdown_cell)
    escaped = escaped.rename_axis(index=markdown_cell(escaped.index.name))
    for position, kind in enumerate(escaped.dtypes):
        if kind == object or pd.api.types.is_string_dtype(kind):
            escaped.isetitem(position, escaped.iloc[:, position].map(markdown_cell))
    return escaped.to_markdown(**options)


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
    return f"{caption}\n\n{markdown_table(frame)}\n"
