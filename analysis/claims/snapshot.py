"""A time table at the paper's scale, as the claims read it, for docs/results/.

    python -m analysis.claims.snapshot experiment=stabilized_table4 [--to docs/results]

Writes <name>_paper.{md,csv,png}: every published cell beside our mean and 95% t interval at
matched time (each column at t x R x rho playouts, its runs 0 .. n-1: the prefix the claims read,
at most 200), `runs` per column and cell, the share of published cells inside our interval (and
apart, the columns R is not fitted on), the CPU-hours the runs hold, the code they were made
with and the commit the snapshot was made at. The figure: one panel per column, our mean and
its band against the published points. Makes no run: `make campaign` makes them.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd

from analysis.claims.reproduction import source_cells
from experiments.config import overrides_parser, print_outputs
from experiments.store import code_version
from nrpa.errors import InputError


def snapshot(name: str, overrides=()) -> tuple[pd.DataFrame, dict]:
    """The cells (time, column, published, mean, low, high, runs, fitted, inside) and the facts
    the page states."""
    from analysis.claims.decide import PrefixSource
    from experiments.experiment import load_experiment

    experiment = load_experiment([f"experiment={name}", "scale=paper", "matched_work=true", *overrides])
    if experiment.published_rate is None:
        raise InputError(f"experiment={name}: no published time table with a stated rate (report.published_rate): "
                         "a snapshot at matched time needs one")
    source = PrefixSource(experiment, cap=200)
    cells = source_cells(source)
    if cells.empty:
        raise InputError(f"experiment={name}: no runs at paper scale and matched time yet (make campaign)")
    cells = cells.assign(inside=(cells["low"] <= cells["published"]) & (cells["published"] <= cells["high"]))
    versions = sorted({r["code_version"].get("source_hash", "?")[:16] for rs in source.runs.records.values() for r in rs})
    facts = {"title": experiment.title, "cpu_hours": sum(sum(c) for c in source.costs.values()) / 3600,
             "runs": cells.groupby("column", sort=False)["runs"].min().to_dict(),
             "versions": versions, "commit": code_version().get("git_commit", "?"),
             "rate": experiment.published_rate}
    return cells, facts


def markdown(name: str, cells: pd.DataFrame, facts: dict) -> str:
    inside, unfitted = cells["inside"], cells[~cells["fitted"]]
    runs = ", ".join(f"{column} {count}" for column, count in facts["runs"].items())
    lines = [f"# {facts['title']}: paper scale, matched time", "",
             f"Each column at t x R x rho playouts (R = {facts['rate'].R:g} playouts a second, the published runs' "
             f"rate fitted on {', '.join(facts['rate'].fit_on)}; rho: each column's rate over it on this engine), "
             f"our mean and 95% t interval beside the published mean. Runs per column: {runs} (the paper: 200). "
             f"Published cells inside our interval: {int(inside.sum())} of {len(cells)}"
             + (f" (the columns R is not fitted on: {int(unfitted['inside'].sum())} of {len(unfitted)})"
                if 0 < len(unfitted) < len(cells) else "")
             + f". CPU behind the runs: {facts['cpu_hours']:.2f} h. Runs of code {', '.join(facts['versions'])}; "
             f"made at commit {facts['commit'][:12]} by `python -m analysis.claims.snapshot experiment={name}`.", ""]
    table = cells.assign(ours=[f"{m:,.6g} [{lo:,.6g}, {hi:,.6g}]" for m, lo, hi in zip(cells["mean"], cells["low"],
                                                                                       cells["high"])])
    wide = table.pivot(index="time", columns="column", values="ours")
    published = cells.pivot(index="time", columns="column", values="published")
    columns = list(dict.fromkeys(cells["column"]))
    lines += ["| t (s) | " + " | ".join(f"{c}: paper | ours" for c in columns) + " |",
              "|---|" + "---|---|" * len(columns)]
    for t in wide.index:
        lines.append(f"| {t:g} | " + " | ".join(
            f"{published.loc[t, c]:,.6g} | {wide.loc[t, c]}" if pd.notna(wide.loc[t, c]) else "- | -"
            for c in columns) + " |")
    return "\n".join(lines) + "\n"


def figure(cells: pd.DataFrame, facts: dict, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    columns = list(dict.fromkeys(cells["column"]))
    wide = min(4, len(columns))
    rows = -(-len(columns) // wide)
    fig, axes = plt.subplots(rows, wide, figsize=(3.6 * wide, 2.9 * rows), squeeze=False, sharex=True)
    for ax, column in zip(axes.flat, columns):
        own = cells[cells["column"] == column]
        ax.plot(own["time"], own["mean"], color="C0", label=f"ours ({facts['runs'][column]} runs)")
        ax.fill_between(own["time"], own["low"], own["high"], color="C0", alpha=0.25)
        ax.plot(own["time"], own["published"], "k*", markersize=6, label="paper (200 runs)")
        ax.set_xscale("log")
        ax.set_title(column, fontsize=9)
        ax.legend(fontsize=7)
    for ax in list(axes.flat)[len(columns):]:
        ax.set_visible(False)
    fig.supxlabel("published CPU seconds t (ours: t x R x rho playouts)", fontsize=9)
    fig.suptitle(facts["title"], fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def write(name: str, folder: Path, overrides=()) -> list[Path]:
    cells, facts = snapshot(name, overrides)
    folder.mkdir(parents=True, exist_ok=True)
    stem = folder / f"{name}_paper"
    paths = [stem.with_suffix(".md"), stem.with_suffix(".csv"), stem.with_suffix(".png")]
    paths[0].write_text(markdown(name, cells, facts))
    cells.to_csv(paths[1], index=False)
    figure(cells, facts, paths[2])
    return paths


def main(argv: list[str] | None = None) -> int:
    parser = overrides_parser(__doc__, "experiment=NAME, outputs_dir=...")
    parser.add_argument("--to", default="outputs/snapshots", help="the folder (docs/results: the committed one)")
    arguments = parser.parse_intermixed_args(argv)

    def produce() -> list[Path]:
        names = [o.split("=", 1)[1] for o in arguments.overrides if o.startswith("experiment=")]
        if len(names) != 1:
            raise InputError("give one experiment=NAME (a time table: stabilized_table4, selective_table3, ...)")
        rest = [o for o in arguments.overrides if not o.startswith("experiment=")]
        return write(names[0], Path(arguments.to), rest)

    return print_outputs(produce)


if __name__ == "__main__":
    sys.exit(main())
