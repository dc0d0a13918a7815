"""Figures: mean best score against a checkpoint axis with CI bands, published points on top.

The plotting function takes data and an ``ax`` and returns the axes; saving is separate.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only: no display on the machines this runs on
import matplotlib.pyplot as plt  # noqa: E402

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from analysis.results.palette import KEY_GREY, column_colour  # noqa: E402


def plot_checkpoints(table: pd.DataFrame, ax, *, xlabel: str, ylabel: str = "mean best score",
                     matched: pd.DataFrame | None = None):
    """Lines of ``mean`` with ``ci_low``..``ci_high`` bands per variant, over a log2 axis;
    the ``published`` column, where present, as hollow markers of the same colour; the
    published values of ``matched`` (a matched-time table) as hollow squares at ``our_playouts``,
    t x R x rho, the published work of t for that column (on the playouts axis)."""
    published_shown = False
    if matched is not None:
        colours = {variant: column_colour(index) for index, variant in enumerate(table["variant"].unique())}
        for variant, rows in matched.groupby("variant", sort=False):
            ax.plot(rows["our_playouts"], rows["published"], linestyle=":", marker="s", markerfacecolor="none",
                    color=colours.get(variant, KEY_GREY), markersize=4, linewidth=0.8)
        ax.plot([], [], linestyle=":", marker="s", markerfacecolor="none", color=KEY_GREY,
                label="published at t x R x rho playouts (matched time)")
    for index, (variant, rows) in enumerate(table.groupby("variant", sort=False)):
        colour = column_colour(index)
        _line_with_band(ax, rows["checkpoint"], rows["mean"], rows, colour, variant, linewidth=1.5)
        if "published" in rows and rows["published"].notna().any():
            ax.plot(rows["checkpoint"], rows["published"], linestyle="none", marker="o",
                    markerfacecolor="none", color=colour, markersize=5)
            published_shown = True
    if published_shown:  # one legend entry for all the hollow markers
        ax.plot([], [], linestyle="none", marker="o", markerfacecolor="none", color=KEY_GREY,
                label="published at t (hollow)")
    checkpoints = sorted(table["checkpoint"].unique())
    ax.set_xscale("log", base=2)
    ax.set_xticks(checkpoints, labels=[f"{c:g}" for c in checkpoints], rotation=45)
    ax.minorticks_off()
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize="small", ncols=2)
    return ax


def plot_checkpoint_panels(table: pd.DataFrame, *, xlabel: str, ylabel: str, note: str):
    """A published time table as small multiples: one panel per column (its mean with its CI
    band, its published values as hollow circles of the same colour), on shared axes, so that
    each curve is read against its own published values; ``note`` under the panels says what
    the axis is and how to read the gap. Returns the figure."""
    variants = list(table["variant"].unique())
    columns = min(4, len(variants))
    rows_of_panels = -(-len(variants) // columns)
    figure, axes = plt.subplots(rows_of_panels, columns, figsize=(3.2 * columns, 2.6 * rows_of_panels + 0.8),
                                sharex=True, sharey=True, squeeze=False)
    checkpoints = sorted(table["checkpoint"].unique())
    for index, ax in enumerate(axes.flat):
        if index >= len(variants):
            ax.set_visible(False)
            continue
        rows = table[table["variant"] == variants[index]]
        colour = column_colour(index)
        _line_with_band(ax, rows["checkpoint"], rows["mean"], rows, colour, variants[index], linewidth=1.5)
        if rows["published"].notna().any():
            ax.plot(rows["checkpoint"], rows["published"], linestyle="none", marker="o", markerfacecolor="none",
                    color=colour, markersize=4)
        ax.set_title(variants[index], fontsize="small", color=colour)
        ax.set_xscale("log", base=2)
        ax.set_xticks(checkpoints[::2], labels=[f"{c:g}" for c in checkpoints[::2]], rotation=45, fontsize="x-small")
        ax.minorticks_off()
        ax.tick_params(labelsize="x-small")
        ax.grid(True, which="both", alpha=0.3)
    key = [plt.Line2D([], [], color=KEY_GREY, linewidth=1.5, label="ours: mean, band: CI"),
           plt.Line2D([], [], linestyle="none", marker="o", markerfacecolor="none", color=KEY_GREY,
                      label="published at t (hollow)")]
    figure.legend(handles=key, loc="upper right", fontsize="x-small")
    figure.supxlabel(xlabel, fontsize="small")
    figure.supylabel(ylabel, fontsize="small")
    figure.text(0.5, -0.02, note, ha="center", va="top", fontsize="small", wrap=True)
    return figure


def save_figure(figure, stem: Path) -> list[Path]:
    """Write ``stem``.png and ``stem``.pdf; return both paths."""
    stem.parent.mkdir(parents=True, exist_ok=True)
    paths = [stem.with_suffix(".png"), stem.with_suffix(".pdf")]
    for path in paths:
        figure.savefig(path, dpi=150, bbox_inches="tight")
    plt.close(figure)
    return paths


def _line_with_band(ax, x, y, rows: pd.DataFrame, colour: str, label: str, **line):
    """A line and its confidence band (``rows``' ``ci_low``..``ci_high``) in one colour."""
    ax.plot(x, y, color=colour, label=label, **line)
    ax.fill_between(x, rows["ci_low"], rows["ci_high"], color=colour, alpha=0.2, linewidth=0)


def new_figure(panels: int = 1):
    """A figure and its axes: one panel of 8 x 5 inches, or ``panels`` side by side."""
    return plt.subplots(1, panels, figsize=(8 if panels == 1 else 6 * panels, 5))


def plot_finals(table: pd.DataFrame, scores: dict[str, list[float]], ax, *, ylabel: str = "final score"):
    """Per variant: every run's final score (small dots), the mean with its CI (bar), and
    the published mean (hollow circle) and max (hollow triangle) where given."""
    for index, row in table.reset_index(drop=True).iterrows():
        colour = column_colour(index)
        values = scores[row["variant"]]
        jitter = np.random.default_rng(index).uniform(-0.15, 0.15, len(values))
        ax.plot(index + jitter, values, linestyle="none", marker=".", color=colour, alpha=0.3)
        ax.errorbar([index], [row["mean"]], yerr=[[row["mean"] - row["ci_low"]], [row["ci_high"] - row["mean"]]],
                    marker="s", color=colour, capsize=6)
        for column, marker in (("published mean", "o"), ("published max", "^")):
            if column in row and pd.notna(row[column]):
                ax.plot([index + 0.3], [row[column]], marker=marker, markerfacecolor="none", color=colour)
    ax.plot([], [], linestyle="none", marker="o", markerfacecolor="none", color=KEY_GREY, label="published mean")
    ax.plot([], [], linestyle="none", marker="^", markerfacecolor="none", color=KEY_GREY, label="published max")
    ax.set_xticks(range(len(table)), labels=list(table["variant"]),
                  rotation=30 if len(table) > 5 else 0, ha="right" if len(table) > 5 else "center")
    ax.set_ylabel(ylabel)
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(fontsize="small")
    return ax


def plot_speedups(table: pd.DataFrame, ax):
    """k(t) per variant with its CI band over a log2 time axis; k = 1 dashed."""
    for index, (variant, rows) in enumerate(table.groupby("variant", sort=False)):
        _line_with_band(ax, rows["checkpoint"], rows["speedup"], rows, column_colour(index), variant, marker="o")
    ax.axhline(1.0, color="0.4", linestyle="--", linewidth=1)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("wall seconds t (log2 scale)")
    ax.set_ylabel("speed-up k: as good as sequential at k x t")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize="small")
    return ax


def plot_boards(table: pd.DataFrame, algorithms: list[str], ax, *, ylabel: str = "best score"):
    """Best score per board for each algorithm (filled markers), the published columns as
    hollow markers; the Total row is left out."""
    boards = table[table["board"] != "Total"]
    x = range(len(boards))
    published = [c for c in table.columns if c.startswith("published ")]
    for index, algorithm in enumerate(algorithms):
        ax.plot(x, boards[f"{algorithm} best"], marker="o", linestyle="-", color=column_colour(index),
                label=f"{algorithm} (here)")
    for index, column in enumerate(published, start=len(algorithms)):
        ax.plot(x, boards[column], marker="s", markerfacecolor="none", linestyle="none",
                color=column_colour(index), label=column)
    ax.set_xticks(list(x), labels=list(boards["board"]))
    ax.set_xlabel("board")
    ax.set_ylabel(ylabel)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize="small", ncols=2)
    return ax


def plot_ecdf(curves: dict[str, tuple[np.ndarray, np.ndarray]], ax, *, xlabel: str,
              published: tuple[np.ndarray, np.ndarray] | None = None):
    """The runtime ECDF of each variant (``curves``: label -> (grid, share of its (run,
    target) pairs reached by each grid point)) over a log axis; ``published``, the same for
    the published mean curve (each target reached at its published time), dashed."""
    for index, (variant, (grid, shares)) in enumerate(curves.items()):
        ax.plot(grid, shares, color=column_colour(index), label=variant, linewidth=1.5, drawstyle="steps-post")
    if published is not None:
        ax.plot(*published, color=KEY_GREY, linestyle="--", linewidth=1, drawstyle="steps-post",
                label="published mean: target of t reached at t")
    ax.set_xscale("log")
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("share of (run, target) pairs reached")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize="small")
    return ax


def plot_profiles(profile: pd.DataFrame, ax):
    """The performance profile of each algorithm (share of runs above tau) with its CI band."""
    for index, (algorithm, rows) in enumerate(profile.groupby("algorithm", sort=False)):
        _line_with_band(ax, rows["tau"], rows["share_above"], rows, column_colour(index), algorithm, linewidth=1.5)
    ax.set_xlabel("normalized score tau (score / the board's best known score)")
    ax.set_ylabel("share of runs with a normalized score above tau")
    ax.set_ylim(-0.02, 1.02)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize="small")
    return ax
