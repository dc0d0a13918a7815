"""Build an experiment's tables and figures from its run files (never runs a search).

    python -m analysis.report experiment=stabilized_table4 scale=quick [--interval bootstrap]

Writes, and prints the paths of:
  outputs/tables/<name>_<scale>.csv / .md            best score at 0.01 s and every doubling
  outputs/tables/<name>_<scale>_playouts.csv / .md   the same at 100 playouts and every doubling
  outputs/figures/<name>_<scale>.png / .pdf          (and _playouts)
or, for the best-score tables over many boards (``kind: boards``) and the final-score tables
(``kind: final``: mean, max and standard error of each variant's final scores),
outputs/tables/<name>_<scale>.csv / .md and outputs/figures/<name>_<scale>.png / .pdf, plus
a picture of the best solution, <name>_<scale>_best.png, for domains that draw theirs.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from analysis.boards import board_markdown, board_table
from analysis.morpion_grid import draw_grid
from analysis.plots import new_figure, plot_boards, plot_checkpoints, plot_finals, plot_speedups, save_figure
from analysis.speedup import speedup_table
from analysis.stats import checkpoint_statistics, doubling_checkpoints, final_statistics
from analysis.tables import load_reference, markdown, side_by_side
from experiments.cli import describe
from experiments.config import exit_on_input_error
from experiments.experiment import Experiment, load_experiment
from experiments.leaderboard import Leaderboard
from experiments.root import axis_trace, group_root_runs
from nrpa.domains.registry import make_domain
from nrpa.errors import InputError

# Domains whose solutions people look at rather than read: draw(domain options, certificate, path)
DRAWINGS = {
    "morpion": lambda options, certificate, path: draw_grid(options["variant"], certificate, path),
}
FIRST_TIME = 0.01
FIRST_PLAYOUTS = 100


@dataclass
class Runs:
    """The run files found for each variant, read once."""

    records: dict[str, list[dict]]  # by variant key (label, plus the board for board tables)
    expected: dict[str, int]

    @property
    def code_versions(self) -> set[str]:
        return {r["code_version"]["source_hash"] for rs in self.records.values() for r in rs}


def collect(experiment: Experiment) -> Runs:
    records, expected = {}, {}
    for variant in experiment.variants:
        paths = experiment.run_paths(variant)
        key = variant_key(experiment, variant)
        records[key] = [record for path in paths if (record := experiment.store.load_or_set_aside(path))]
        if variant.root > 1:
            records[key] = group_root_runs(records[key], variant.root)
        expected[key] = variant.repeats
    return Runs(records, expected)


def variant_key(experiment: Experiment, variant) -> str:
    if experiment.kind == "boards":
        return f"{variant.label} board {variant.job.domain_options.board}"
    return variant.label


def board_report(experiment: Experiment, runs: Runs) -> list[Path]:
    """The best-score table over the boards, with the leaderboard beside it."""
    final_scores = {}
    leaderboard = Leaderboard(experiment.store.root)
    best_ever = {}
    for variant in experiment.variants:
        board = int(variant.job.domain_options.board)
        final_scores[(variant.label, board)] = [
            r["result"]["best_score"] for r in runs.records[variant_key(experiment, variant)]]
        entry = leaderboard.best(make_domain(variant.job.domain_options).leaderboard_key())
        if entry is not None:
            best_ever[board] = entry["score"]
    reference = load_reference(experiment.reference) if experiment.reference else None
    table = board_table(final_scores, reference, best_ever)
    stem = experiment.store.root / "tables" / f"{experiment.name}_{experiment.scale}"
    stem.parent.mkdir(parents=True, exist_ok=True)
    csv_path, md_path = stem.with_suffix(".csv"), stem.with_suffix(".md")
    table.to_csv(csv_path, index=False)
    algorithms = list(dict.fromkeys(v.label for v in experiment.variants))
    settings = experiment.variants[0].job.settings
    counts = sorted({len(rs) for rs in runs.records.values()})
    lines = [
        f"**{experiment.title}** ({experiment.scale} scale)",
        "",
        f"Per board, the best and the mean final score over {'-'.join(map(str, counts))} run(s) per "
        f"algorithm and board (95% Student-t CI in brackets), level {settings.level}, "
        f"budget {settings.max_time:g} {budget_unit(experiment)} per run; the papers ran level 4 to completion or "
        "for 2 hours per board. Published columns as printed in the paper. leaderboard: the best "
        "certificate ever found here for the board, whatever the run, verified by replay "
        f"(files under {leaderboard.root}).",
    ]
    lines += caption_warnings(runs)
    md_path.write_text(board_markdown(table, algorithms, caption="\n".join(lines)))
    figure, ax = new_figure()
    plot_boards(table, algorithms, ax)
    ax.set_title(f"{experiment.title}\n{experiment.scale} scale: {settings.max_time:g} CPU-s per run",
                 fontsize="medium")
    return [csv_path, md_path, *save_figure(figure, experiment.store.root / "figures" / stem.name)]


def final_report(experiment: Experiment, runs: Runs, interval: str) -> list[Path]:
    """Each variant's final scores (one per run): mean with CI, standard error, max; the
    published columns beside them; the best solution drawn when the domain can."""
    scale = experiment.value_scale
    scores = {label: [r["result"]["best_score"] * scale for r in rs] for label, rs in runs.records.items() if rs}
    table = final_statistics(scores, interval=interval)
    searches = {v.label: _search_text(v.job.settings) for v in experiment.variants}
    table.insert(1, "search", [searches[label] for label in table["variant"]])
    if experiment.reference:
        reference = load_reference(experiment.reference)
        reference = reference.set_index(reference.columns[0])  # the published row names
        for column in reference.columns:
            table[f"published {column}"] = [reference[column].get(label) for label in table["variant"]]
        if "published mean" in table:
            inside = (table["published mean"] >= table["ci_low"]) & (table["published mean"] <= table["ci_high"])
            table["published_mean_in_ci"] = inside.where(table["published mean"].notna() & table["ci_low"].notna())
    stem = experiment.store.root / "tables" / f"{experiment.name}_{experiment.scale}"
    stem.parent.mkdir(parents=True, exist_ok=True)
    csv_path, md_path = stem.with_suffix(".csv"), stem.with_suffix(".md")
    table.to_csv(csv_path, index=False)
    lines = [f"**{experiment.title}** ({experiment.scale} scale)", "",
             f"Per variant, the final best score of each run: mean with its {interval_name(interval)}, "
             "standard error of the mean (sem), max"
             + ("; published columns as printed in the paper." if experiment.reference else
                f". Budget: {_budget_text(experiment)}.")]
    lines += caption_warnings(runs)
    md_path.write_text("\n".join(lines) + "\n\n" + table.to_markdown(index=False, floatfmt=".5g") + "\n")
    figure, ax = new_figure()
    plot_finals(table, scores, ax)
    ax.set_title(f"{experiment.title}\n{experiment.scale} scale, mean and {interval_name(interval)}",
                 fontsize="medium")
    written = [csv_path, md_path, *save_figure(figure, experiment.store.root / "figures" / stem.name)]
    return written + draw_best(experiment, runs, experiment.store.root / "figures" / f"{stem.name}_best.png")


def speedup_report(experiment: Experiment, runs: Runs) -> list[Path]:
    """k(t) of every variant against the baseline (``report.baseline``), on wall time, and
    each variant's throughput in playouts per wall-second."""
    traces = {label: [axis_trace(r, "wall_seconds") for r in rs] for label, rs in runs.records.items() if rs}
    if experiment.baseline not in traces:
        raise InputError(f"no runs of the baseline {experiment.baseline!r}: run the sweep first")
    budget = min(v.job.settings.max_time for v in experiment.variants)
    checkpoints = doubling_checkpoints(FIRST_TIME, budget)
    others = {label: t for label, t in traces.items() if label != experiment.baseline}
    table = speedup_table(traces[experiment.baseline], others, checkpoints)
    settings = {v.label: v for v in experiment.variants}
    throughput = pd.DataFrame([{
        "variant": label, "threads": settings[label].job.settings.threads, "root": settings[label].root,
        "runs": len(rs),
        "playouts_per_wall_second": float(np.mean([r["result"]["playouts"] / r["result"]["wall_seconds"]
                                                   for r in rs])),
    } for label, rs in runs.records.items() if rs])
    stem = experiment.store.root / "tables" / f"{experiment.name}_{experiment.scale}"
    stem.parent.mkdir(parents=True, exist_ok=True)
    csv_path, md_path = stem.with_suffix(".csv"), stem.with_suffix(".md")
    throughput_path = stem.with_name(f"{stem.name}_throughput.csv")
    table.to_csv(csv_path, index=False)
    throughput.to_csv(throughput_path, index=False)
    wide = table.assign(cell=[
        ("> budget" if censored else "-") if not np.isfinite(k) else
        f"{k:.2f}" + (f" [{low:.2f}, {high:.2f}]" if np.isfinite(low) else "")
        for k, low, high, censored in zip(table["speedup"], table["ci_low"], table["ci_high"], table["censored"])
    ]).pivot(index="checkpoint", columns="variant", values="cell")[list(others)]
    lines = [f"**{experiment.title}** ({experiment.scale} scale)", "",
             f"Speed-up k(t): the parallel search at wall time t scores (on average over its runs) as "
             f"the {experiment.baseline} search at k(t) x t; 95% percentile-bootstrap CI over runs in "
             "brackets. '> budget': the parallel mean is above anything the sequential search reached "
             "within its budget; '-': no estimate. Root runs count their K members as simultaneous.",
             *caption_warnings(runs), "", wide.to_markdown(), "",
             "Throughput: playouts per wall-second of one run (a root run: the sum of its members).", "",
             throughput.to_markdown(index=False, floatfmt=",.0f")]
    md_path.write_text("\n".join(lines) + "\n")
    figure, ax = new_figure()
    plot_speedups(table, ax)
    ax.set_title(f"{experiment.title}\n{experiment.scale} scale, 95% bootstrap CI", fontsize="medium")
    return [csv_path, md_path, throughput_path,
            *save_figure(figure, experiment.store.root / "figures" / stem.name)]


def _budget_text(experiment: Experiment) -> str:
    budgets = sorted({v.job.settings.max_time for v in experiment.variants}, key=str)
    return ", ".join("the top level once" if b is None else f"{b:g} {budget_unit(experiment)}" for b in budgets)


def _search_text(settings) -> str:
    text = describe(settings)
    if not settings.restart and settings.max_time is None and settings.max_playouts is None:
        return text + ", the top level once"
    return text


def draw_best(experiment: Experiment, runs: Runs, path: Path) -> list[Path]:
    """A picture of the best certificate over all the runs, for the domains in DRAWINGS."""
    records = [r for rs in runs.records.values() for r in rs]
    best = max(records, key=lambda r: r["result"]["best_score"])
    options = best["config"]["domain"]
    if options["name"] not in DRAWINGS:
        return []
    path.parent.mkdir(parents=True, exist_ok=True)
    DRAWINGS[options["name"]](options, best["certificate"]["moves"], path)
    return [path]


def report(overrides: list[str], *, interval: str = "t") -> list[Path]:
    experiment = load_experiment(overrides)
    runs = collect(experiment)
    if not any(runs.records.values()):
        raise InputError(
            f"no run files of {experiment.name} at scale {experiment.scale} under "
            f"{experiment.store.root}: run `python run.py -m {' '.join(overrides)}` first"
        )
    if experiment.kind == "boards":
        return board_report(experiment, runs)
    if experiment.kind == "final":
        return final_report(experiment, runs, interval)
    if experiment.kind == "speedup":
        return speedup_report(experiment, runs)
    outputs = experiment.store.root
    stem = f"{experiment.name}_{experiment.scale}"
    reference = load_reference(experiment.reference) if experiment.reference else None
    budgets = [v.job.settings.max_time for v in experiment.variants if v.job.settings.max_time]
    written = []
    time_axis = "wall_seconds" if all(v.job.settings.clock == "wall" for v in experiment.variants) else "cpu_seconds"
    axes = [(time_axis, time_axis.replace("_", " ").replace("cpu", "CPU"), FIRST_TIME,
             min(budgets) if budgets else None, reference, "")]
    fewest_playouts = min(r["result"]["playouts"] for rs in runs.records.values() for r in rs)
    axes.append(("playouts", "playouts", FIRST_PLAYOUTS, fewest_playouts, None, "_playouts"))
    for axis, axis_name, first, last, published, suffix in axes:
        if last is None or last < first:
            continue
        checkpoints = doubling_checkpoints(first, last)
        scale = experiment.value_scale
        traces = {label: [(positions, [score * scale for score in scores])
                          for positions, scores in (axis_trace(r, axis) for r in rs)]
                  for label, rs in runs.records.items() if rs}
        table = side_by_side(checkpoint_statistics(traces, checkpoints, interval=interval), published)
        table.insert(1, "axis", axis)
        csv_path = outputs / "tables" / f"{stem}{suffix}.csv"
        csv_path.parent.mkdir(parents=True, exist_ok=True)
        table.to_csv(csv_path, index=False)
        md_path = csv_path.with_suffix(".md")
        md_path.write_text(markdown(table, axis_name=axis_name,
                                    caption=caption(experiment, runs, axis_name, interval, published is not None)))
        figure, ax = new_figure()
        plot_checkpoints(table, ax, xlabel=f"{axis_name} (log2 scale)",
                         ylabel=f"mean best: {experiment.unit}" if experiment.unit else "mean best score")
        ax.set_title(f"{experiment.title}\n{experiment.scale} scale, mean and {interval_name(interval)}",
                     fontsize="medium")
        written += [csv_path, md_path, *save_figure(figure, outputs / "figures" / f"{stem}{suffix}")]
    return written + final_results(experiment, runs, outputs / "tables" / stem)


def final_results(experiment: Experiment, runs: Runs, stem: Path) -> list[Path]:
    """For domains that judge a final solution beyond its score (TSPTW: violations, cost and
    gap to the best-known tour), one row per run and a summary per variant."""
    domain = make_domain(experiment.variants[0].job.domain_options)
    if not hasattr(domain, "final_summary"):
        return []
    rows = [{"variant": label, "repeat": r["repeat"], **domain.final_summary(r)}
            for label, rs in runs.records.items() for r in rs]
    frame = pd.DataFrame(rows)
    csv_path = stem.with_name(f"{stem.name}_final.csv")
    frame.to_csv(csv_path, index=False)
    summary = frame.groupby("variant", sort=False).agg(
        runs=("repeat", "size"),
        feasible=("violations", lambda v: int((v == 0).sum())),
        mean_violations=("violations", "mean"),
        best_feasible_cost=("cost", lambda c: c[frame.loc[c.index, "violations"] == 0].min()),
        mean_gap_percent=("gap_percent", "mean"),
    )
    known = experiment_best_known(runs)
    md_path = stem.with_name(f"{stem.name}_final.md")
    md_path.write_text(
        f"**{experiment.title}**: final best tour of each run ({experiment.scale} scale)\n\n"
        f"Best-known cost {known:g} (LKH-3); gap = (cost - best known) / best known, over the runs "
        "whose tour has no violation.\n\n"
        + summary.to_markdown(floatfmt=("", ".0f", ".0f", ".2f", ".2f", ".2f")) + "\n")
    return [csv_path, md_path]


def experiment_best_known(runs: Runs) -> float:
    return next(r["domain_info"]["best_known_cost"] for rs in runs.records.values() for r in rs)


def interval_name(interval: str) -> str:
    return "95% Student-t CI" if interval == "t" else "95% percentile-bootstrap CI"


def caption(experiment: Experiment, runs: Runs, axis_name: str, interval: str, published: bool) -> str:
    counts = sorted({len(rs) for rs in runs.records.values()})
    budgets = sorted({v.job.settings.max_time for v in experiment.variants}, key=str)
    lines = [
        f"**{experiment.title}** ({experiment.scale} scale)",
        "",
        f"Mean best score at each checkpoint ({axis_name}) over {'-'.join(map(str, counts))} runs per "
        f"column, with its {interval_name(interval)} in brackets"
        + (" and the published value in parentheses (* where it lies outside the CI)." if published else "."),
        *([f"Values are multiplied by {experiment.value_scale:g}, the paper's unit."]
          if experiment.value_scale != 1 else []),
        *([f"Unit: {experiment.unit}."] if experiment.unit else []),
        f"Runs stopped at {', '.join(f'{b:g}' for b in budgets)} {budget_unit(experiment)}. A '-' means no run had a "
        "solution yet; the CSV counts those runs per cell. With many runs the intervals are thin.",
    ]
    return "\n".join(lines + caption_warnings(runs))


def budget_unit(experiment: Experiment) -> str:
    clocks = {v.job.settings.clock for v in experiment.variants}
    return "wall-seconds" if clocks == {"wall"} else "CPU-seconds" if clocks == {"cpu"} else "seconds (CPU or wall)"


def caption_warnings(runs: Runs) -> list[str]:
    """Lines that say a table is incomplete or mixes code versions."""
    lines = []
    missing = {label: runs.expected[label] - len(rs) for label, rs in runs.records.items()
               if len(rs) < runs.expected[label]}
    if missing:
        lines.append(f"WARNING: runs missing ({', '.join(f'{k}: {v}' for k, v in missing.items())}): "
                     "run the sweep again to complete them.")
    if len(runs.code_versions) > 1:
        lines.append(f"WARNING: built from runs of {len(runs.code_versions)} code versions "
                     f"(source hashes {', '.join(sorted(runs.code_versions))}).")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("overrides", nargs="+", help="experiment=NAME scale=S and any other overrides")
    parser.add_argument("--interval", choices=["t", "bootstrap"], default="t")
    arguments = parser.parse_args(argv)
    try:
        paths = report(arguments.overrides, interval=arguments.interval)
    except InputError as error:
        exit_on_input_error(error)
    for path in paths:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
