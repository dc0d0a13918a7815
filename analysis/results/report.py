"""Build an experiment's tables and figures from its run files (never runs a search).

    python -m analysis.results.report experiment=stabilized_table4 scale=quick [--interval bootstrap]
    python -m analysis.results.report sweep=outputs/sweeps/sweep_1a2b3c4d   # a sweep's (or sweep=NAME)

The experiment's ``report.kind`` picks the report in REPORTS; each takes the experiment, its
runs and the interval method (``--interval``: t or bootstrap, analysis.stats.ESTIMATORS) and
returns Tables and Figures, which report() writes, printing their paths:
  checkpoints: outputs/tables/<name>_<scale>.csv / .md   best score at 0.01 s and every doubling
               outputs/tables/<name>_<scale>_engine_speed.csv   for a published time table, the
                   factor k by which this engine outruns the published runs per CPU-second (a
                   measurement, never a budget) and the published runs' rate R (report.published_rate)
                   beside R estimated from these runs, with their CIs
               outputs/tables/<name>_<scale>_matched.csv / .md   the same table at matched time:
                   each column's mean at t x R x rho(column) playouts (the paper's machine's work for
                   that column in t seconds) beside the published mean at t
               outputs/tables/<name>_<scale>_equal_playouts.csv / .md   the same at equal playouts, t x R
                   for every column: which column uses a playout better (not the papers' comparison)
               outputs/tables/<name>_<scale>_playouts.csv / .md   the same at 100 playouts and every doubling
               outputs/figures/<name>_<scale>.png / .pdf (and _playouts)
               outputs/tables/<name>_<scale>_final.csv (/ .md), for domains that judge a final
               solution beyond its score (its view's final_summary: analysis/results/domain_views.py)
               outputs/tables/<name>_<scale>_targets.csv / .md   the fixed-target view: per target
                   score, the expected running time (ERT) in seconds and in playouts
               outputs/figures/<name>_<scale>_ecdf.png / .pdf   the runtime ECDF over those targets
  boards:      the best-score table over many boards, outputs/tables/<name>_<scale>.csv / .md
               and outputs/figures/<name>_<scale>.png / .pdf;
               outputs/tables/<name>_<scale>_improvement.csv / .md   the probability that one
                   algorithm's run beats another's, with bootstrap CIs (rliable)
               outputs/tables/<name>_<scale>_profile.csv, outputs/figures/<name>_<scale>_profile.*
                   each algorithm's performance profile over normalized scores, with CIs
  final:       mean, max and standard error of each variant's final scores, in the same files,
               plus a picture of the best solution, outputs/figures/<name>_<scale>_best.png,
               for domains that draw theirs (its view's draw_solution)
  speedup:     k(t) against the baseline, the same files plus <name>_<scale>_throughput.csv
Runs made with matched_work=true (budgets of max_time x R playouts, no time budget) write
<name>_<scale>_work* instead of <name>_<scale>*.
Captions are in analysis/results/captions.py.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Callable

import numpy as np
import pandas as pd

from analysis.results import captions
from analysis.results.boards import best_known, board_markdown, board_table, comparisons
from analysis.results.domain_views import domain_view
from analysis.results.matched import cells_inside, matched_work, scaled_traces
from analysis.results.plots import (new_figure, plot_boards, plot_checkpoint_panels, plot_checkpoints, plot_ecdf,
                                    plot_finals, plot_profiles, plot_speedups, save_figure)
from analysis.results.speedup import speedup_table
from analysis.stats import (ESTIMATORS, best_at, checkpoint_statistics, doubling_checkpoints, final_statistics,
                            t_interval)
from analysis.results.targets import expected_running_time, hitting_times, runtime_ecdf
from analysis.results.tables import markdown, markdown_table, side_by_side
from experiments.config import overrides_parser, print_outputs
from experiments.experiment import Experiment, load_experiment
from experiments.leaderboard import Leaderboard
from experiments.machine import StarvedRule, rate_outliers
from experiments.published import load_reference
from experiments.root_parallel import axis_trace, group_root_runs
from experiments.runs import game_count, game_scores
from experiments.sweep import DEFINITION, find_sweep, read_definition, sweep_of_folder
from experiments.valid_runs import JudgedRun, read_and_judge
from nrpa.domains.registry import make_domain
from nrpa.errors import InputError, did_you_mean
from nrpa.search import label

FIRST_TIME = 0.01
FIRST_PLAYOUTS = 100
BOARD_RESAMPLES = 2000  # of the 20-board comparisons' bootstrap


@dataclass
class Runs:
    """The run files found for each variant, read once."""

    records: dict[str, list[dict]]  # by variant key (label, plus the board for board tables)
    expected: dict[str, int]
    # per variant key, runs missing because they were starved (experiments/valid_runs.py): set
    # aside by their readers, never counted; and the repeats of runs kept whose playout rate is under
    # starved.rate_fraction of their column's median (their machine section shows no contention)
    starved: dict[str, int] = field(default_factory=dict)
    rate_outliers: dict[str, list[int]] = field(default_factory=dict)

    @property
    def code_versions(self) -> set[str]:
        return {r["code_version"]["source_hash"] for rs in self.records.values() for r in rs}


@dataclass(frozen=True)
class Table:
    """outputs/tables/<name>_<scale><suffix>.csv, and .md when there is Markdown."""

    suffix: str
    frame: pd.DataFrame
    markdown: str | None = None
    folder = "tables"

    def write(self, stem: Path) -> list[Path]:
        stem.parent.mkdir(parents=True, exist_ok=True)
        csv_path, md_path = stem.with_suffix(".csv"), stem.with_suffix(".md")
        self.frame.to_csv(csv_path, index=False)
        if self.markdown is None:
            return [csv_path]
        md_path.write_text(self.markdown)
        return [csv_path, md_path]


@dataclass(frozen=True)
class Figure:
    """outputs/figures/<name>_<scale><suffix>.*: ``save(stem)`` writes them, returns their paths."""

    suffix: str
    save: Callable[[Path], list[Path]]
    folder = "figures"

    def write(self, stem: Path) -> list[Path]:
        stem.parent.mkdir(parents=True, exist_ok=True)
        return self.save(stem)


def plotted(experiment: Experiment, title_detail: str, plot: Callable, suffix: str = "",
            axis: str | None = None) -> Figure:
    """A new figure drawn by ``plot(ax)``, titled (by its x ``axis`` when a checkpoint axis),
    to be saved as .png and .pdf."""
    figure, ax = new_figure()
    plot(ax)
    ax.set_title(captions.figure_title(experiment, title_detail, axis), fontsize="medium")
    return Figure(suffix, partial(save_figure, figure))


def paneled(experiment: Experiment, table: pd.DataFrame, axis: str, xlabel: str, ylabel: str, note: str,
            interval: str) -> Figure:
    """A published time table's figure: a panel per column, the note on its face."""
    figure = plot_checkpoint_panels(table, xlabel=xlabel, ylabel=ylabel, note=note)
    figure.suptitle(captions.figure_title(experiment, f", mean and {interval} per column, published values hollow",
                                          axis), fontsize="medium")
    return Figure("", partial(save_figure, figure))


def with_table(caption: str, table_markdown: str) -> str:
    return f"{caption}\n\n{table_markdown}\n"


def collect(experiment: Experiment) -> Runs:
    records, expected, starved, outliers = {}, {}, {}, {}
    for variant in experiment.variants:
        key = variant_key(experiment, variant)
        runs = list(read_and_judge(experiment.store, experiment.run_paths(variant), experiment.starved_rule))
        records[key] = [run.record for run in runs if run.record is not None]
        starved[key], outliers[key] = machine_counts(runs, experiment.starved_rule)
        if variant.root > 1:
            records[key] = group_root_runs(records[key], variant.root)
        expected[key] = variant.repeats
    return Runs(records, expected, starved, outliers)


def machine_counts(runs: list[JudgedRun], rule: StarvedRule) -> tuple[int, list[int]]:
    """Of one column's runs, read and judged: how many are missing because they were starved,
    and the repeats of the rate outliers among those that count (experiments/machine.py)."""
    return (sum(run.starved is not None for run in runs),
            sorted(record["repeat"] for record in rate_outliers([run.record for run in runs if run.record], rule)))


def variant_key(experiment: Experiment, variant) -> str:
    if experiment.kind == "boards":
        return f"{variant.label} board {variant.job.domain_options.board}"
    return variant.label


def checkpoints_report(experiment: Experiment, runs: Runs, estimate) -> list[Table | Figure]:
    """Mean best score at doubling checkpoints of time and of playouts with its CI, the
    published values beside them; for a published time table, this engine's speed against
    the published runs and the same comparison at matched time; then the domain's judgement
    of the final solutions."""
    reference = load_reference(experiment.reference) if experiment.reference else None
    budgets = [v.job.settings.max_time for v in experiment.variants if v.job.settings.max_time]
    time_axis = "wall_seconds" if all(v.job.settings.clock == "wall" for v in experiment.variants) else "cpu_seconds"
    fewest_playouts = min(r["result"]["playouts"] for rs in runs.records.values() for r in rs)
    axes = [(time_axis, time_axis.replace("_", " ").replace("cpu", "CPU"), FIRST_TIME,
             min(budgets) if budgets else None, reference, ""),
            ("playouts", "playouts", FIRST_PLAYOUTS, fewest_playouts, None, "_playouts")]
    scale = experiment.value_scale
    ylabel = f"mean best: {experiment.unit}" if experiment.unit else "mean best score"
    speed = matched = None
    if reference is not None and "time" in reference.columns:  # a published time table
        speed, matched = matched_work(experiment, runs, estimate, time_axis if budgets else None)
    outputs = []
    for axis, axis_name, first, last, published, suffix in axes:
        if last is None or last < first:
            continue
        traces = scaled_traces(runs, axis, scale)
        statistics = checkpoint_statistics(traces, doubling_checkpoints(first, last), estimate=estimate)
        table = side_by_side(statistics, published)
        table.insert(1, "axis", axis)
        caption = captions.checkpoints(experiment, runs, axis_name, estimate, published is not None)
        if speed is not None and published is not None:  # the table at equal time
            speed["cells_inside"] = cells_inside(table)
            caption += "\n" + captions.engine_speed(speed)
        on_figure = matched if axis == "playouts" else None
        outputs.append(Table(suffix, table, markdown(table, axis_name=axis_name, caption=caption)))
        if speed is not None and published is not None:  # a published time table: a panel per column
            outputs.append(paneled(experiment, table, axis, f"{axis_name} of this engine (log2 scale)", ylabel,
                                   captions.equal_time_figure_note(speed, axis_name),
                                   captions.interval_name(estimate)))
        else:
            outputs.append(plotted(experiment, f", mean and {captions.interval_name(estimate)}", suffix=suffix,
                                   axis=axis, plot=lambda ax, table=table, on_figure=on_figure: plot_checkpoints(
                                       table, ax, xlabel=f"{axis_name} (log2 scale)", ylabel=ylabel,
                                       matched=on_figure)))
    if speed is not None:
        outputs += speed_tables(experiment, runs, estimate, speed, matched)
    if budgets and min(budgets) >= FIRST_TIME:
        outputs += fixed_targets(experiment, runs, time_axis, axes[0][1], reference)
    return outputs + final_solutions(experiment, runs)


def fixed_targets(experiment: Experiment, runs: Runs, axis: str, axis_name: str,
                  reference: pd.DataFrame | None) -> list[Table | Figure]:
    """How long the runs take to reach each target (analysis.results.targets): the ERT table on the
    time axis and in playouts, and the runtime ECDF figure on both."""
    source, targets = target_scores(experiment, runs, axis, reference)
    scale = experiment.value_scale
    rows, curves = [], {axis: {}, "playouts": {}}
    for variant, records in runs.records.items():
        if not records:
            continue
        checkpoints, values = targets[variant]
        hits = {a: np.array([hitting_times(*axis_trace(r, a), values) for r in records]) for a in curves}
        lengths = {a: np.array([r["result"][a] for r in records], dtype=float) for a in curves}
        for a in curves:
            curves[a][variant] = hits[a]
        for i, (checkpoint, value) in enumerate(zip(checkpoints, values)):
            rows.append({"variant": variant, "checkpoint": checkpoint, "target": value * scale, "runs": len(records),
                         "reached": int(np.isfinite(hits[axis][:, i]).sum()),
                         f"ert_{axis}": expected_running_time(hits[axis][:, i], lengths[axis]),
                         "ert_playouts": expected_running_time(hits["playouts"][:, i], lengths["playouts"])})
    table = pd.DataFrame(rows)
    text = "\n\n".join(target_markdown(table, source, ert, unit) for ert, unit in
                        ((f"ert_{axis}", "s"), ("ert_playouts", "playouts")))
    caption = captions.fixed_targets(experiment, runs, axis_name, captions.TARGET_SOURCES[source])
    outputs: list[Table | Figure] = [Table("_targets", table, with_table(caption, text))]
    published = None
    if source == "published":  # the published mean reaches the target of t at t, by definition
        times = np.sort(np.concatenate([targets[variant][0] for variant in curves[axis]]))
        published = (times, np.arange(1, times.size + 1) / times.size)
    figure, panels = new_figure(panels=2)
    for ax, a, name in ((panels[0], axis, axis_name), (panels[1], "playouts", "playouts")):
        finite = np.concatenate([h[np.isfinite(h)] for h in curves[a].values()] + [np.array([np.inf])])
        longest = max(r["result"][a] for rs in runs.records.values() for r in rs)
        grid = np.geomspace(max(min(finite.min(), longest) / 2, 1e-6), longest, 300)
        plot_ecdf({variant: (grid, runtime_ecdf(h, grid)) for variant, h in curves[a].items()}, ax,
                  xlabel=f"{name} (log scale)", published=published if a == axis else None)
    figure.suptitle(captions.figure_title(experiment, ": runtime ECDF over the targets of the ERT table"),
                    fontsize="medium")
    return outputs + [Figure("_ecdf", partial(save_figure, figure))]


def target_scores(experiment: Experiment, runs: Runs, axis: str, reference: pd.DataFrame | None):
    """The fixed-target view's targets, in the kernel's unit, per variant: (the checkpoint
    each comes from, NaN for given ones; the scores), and where they come from (a key of
    captions.TARGET_SOURCES): report.targets when given, else each variant's published means
    when every variant has a published column, else the mean of all the runs at each
    checkpoint."""
    variants = [variant for variant, records in runs.records.items() if records]
    scale = experiment.value_scale
    if experiment.targets:
        values = np.array(experiment.targets) / scale
        return "given", {variant: (np.full(values.size, np.nan), values) for variant in variants}
    published_columns = reference is not None and "time" in reference.columns and all(
        variant in reference.columns for variant in variants)
    if published_columns:
        published = {}
        for variant in variants:
            known = reference[variant].notna()
            published[variant] = (reference["time"][known].to_numpy(dtype=float),
                                reference[variant][known].to_numpy(dtype=float) / scale)
        return "published", published
    budget = min(v.job.settings.max_time for v in experiment.variants)
    checkpoints = doubling_checkpoints(FIRST_TIME, budget)
    matrix = np.array([best_at(*axis_trace(r, axis), checkpoints)
                       for variant in variants for r in runs.records[variant]])
    means = np.array([column[np.isfinite(column)].mean() if np.isfinite(column).any() else np.nan
                      for column in matrix.T])  # over the runs with a solution at t
    keep = np.isfinite(means)
    return "pooled", {variant: (checkpoints[keep], means[keep]) for variant in variants}


def target_markdown(table: pd.DataFrame, source: str, ert: str, unit: str) -> str:
    """One ERT column of the targets table as Markdown, a column per variant and a row per
    target: per published time t when each column has its own published targets (the cell
    then names its target), else per target."""
    def cell(row) -> str:
        spent = "-" if not np.isfinite(row[ert]) else f"{row[ert]:.3g} s" if unit == "s" else f"{row[ert]:,.0f}"
        reached = f"{spent} ({row['reached']}/{row['runs']})"
        return f"{row['target']:.5g}: {reached}" if source == "published" else reached

    rows = {"published": lambda row: f"{row['checkpoint']:g}",
            "pooled": lambda row: f"{row['target']:.5g} (mean at {row['checkpoint']:g} s)",
            "given": lambda row: f"{row['target']:.5g}"}[source]
    heading = {"published": "published time t: the target is the column's published mean at t",
               "pooled": "target", "given": "target"}[source]
    wide = table.assign(row=[rows(row) for _, row in table.iterrows()],
                        cell=[cell(row) for _, row in table.iterrows()])
    wide = wide.pivot(index="row", columns="variant", values="cell").reindex(
        index=list(dict.fromkeys(wide["row"])), columns=list(dict.fromkeys(table["variant"])))
    return f"ERT in {'seconds' if unit == 's' else 'playouts'}:\n\n" + markdown_table(wide.rename_axis(heading))


def speed_tables(experiment: Experiment, runs: Runs, estimate, speed: dict,
                 matched: pd.DataFrame | None) -> list[Table]:
    """The tables a published time table adds: _engine_speed (k, the stated and estimated R,
    the cell counts; one row) and, with a stated R, _matched (the columns with a rho) and
    _equal_playouts."""
    stated = speed["stated_rate"]
    row = {key: value for key, value in speed.items()
           if key not in ("per_variant", "cells_inside", "cells_matched_inside", "stated_rate", "matched",
                          "equal_playouts", "published_relative")}
    row.update(R=stated.R if stated else np.nan, R_ci_low=stated.ci_low if stated else np.nan,
               R_ci_high=stated.ci_high if stated else np.nan, R_fit_on="; ".join(stated.fit_on) if stated else None,
               R_source=stated.source if stated else None)
    for key in ("cells_inside", "cells_matched_inside"):
        row[f"{key}_ci"], row[key.replace("inside", "judged")] = speed[key]
    row.update({f"k {label}": k for label, k in speed["per_variant"].items()})
    if stated:
        row.update({f"rho {label}": value.rho for label, value in stated.relative})
        row.update({f"published relative rate {label}": value
                    for label, value in speed.get("published_relative", {}).items()})
    outputs = [Table("_engine_speed", pd.DataFrame([row]))]
    if matched is not None:
        outputs.append(Table("_matched", matched, markdown(
            matched, axis_name="published CPU seconds t (each column at t x R x rho playouts)",
            caption=captions.matched_work(experiment, runs, estimate, speed))))
    if stated is not None:
        equal = speed["equal_playouts"]
        outputs.append(Table("_equal_playouts", equal, markdown(
            equal, axis_name="published CPU seconds t (every column at t x R playouts)",
            caption=captions.equal_playouts(experiment, runs, estimate, speed))))
    return outputs


def boards_report(experiment: Experiment, runs: Runs, estimate) -> list[Table | Figure]:
    """The best-score table over the boards, with the leaderboard beside it (always the
    Student-t interval: analysis.results.boards); the probability of improvement of each pair of
    algorithms and their performance profiles, with bootstrap intervals."""
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
    algorithms = list(dict.fromkeys(v.label for v in experiment.variants))
    searches = captions.board_searches(experiment, separator=";\n")  # a line per budget in the figure's title
    outputs = [Table("", table, board_markdown(table, algorithms,
                                               caption=captions.boards(experiment, runs, leaderboard.root))),
               plotted(experiment, f": {searches}", lambda ax: plot_boards(table, algorithms, ax))]
    if len(algorithms) < 2 or not any(all(final_scores.get((a, b)) for a in algorithms) for _, b in final_scores):
        return outputs  # nothing to compare yet
    improvement, profile = comparisons(final_scores, best_known(final_scores, reference, best_ever),
                                       resamples=BOARD_RESAMPLES)
    caption = captions.board_comparisons(experiment, runs, BOARD_RESAMPLES)
    return outputs + [
        Table("_improvement", improvement,
              with_table(caption, markdown_table(improvement, index=False, floatfmt=".3f"))),
        Table("_profile", profile),
        plotted(experiment, ": performance profiles, 95% bootstrap CI", lambda ax: plot_profiles(profile, ax),
                suffix="_profile")]


def final_report(experiment: Experiment, runs: Runs, estimate) -> list[Table | Figure]:
    """Each variant's final scores (one per run or game): mean with CI, standard error, max; the
    published columns beside them; the best solution drawn when the domain can."""
    scores = final_scores(runs, experiment.value_scale)
    table = final_statistics(scores, estimate=estimate)
    if any("games" in r["result"] for rs in runs.records.values() for r in rs):
        # runs of several games: the statistics are over the games; "runs" says how many files hold them
        table.insert(table.columns.get_loc("runs"), "games", table["runs"])
        table["runs"] = [len(runs.records[label]) for label in table["variant"]]
    searches = {v.label: _search_text(v.job.settings) for v in experiment.variants}
    table.insert(1, "search", [searches[label] for label in table["variant"]])
    # the cost of a game on this engine (the median: a run's first game can carry a kernel's compile)
    table["CPU-s a game (median)"] = [float(np.median([r["result"]["cpu_seconds"] / game_count(r)
                                                       for r in runs.records[label]])) for label in table["variant"]]
    if experiment.reference:
        reference = load_reference(experiment.reference)
        reference = reference.set_index(reference.columns[0])  # the published row names
        for column in reference.columns:
            # NaN, not None, where a row has no published value: a column of none is still numeric
            table[f"published {column}"] = [reference[column].get(label, np.nan) for label in table["variant"]]
        if "published mean" in table:
            inside = (table["published mean"] >= table["ci_low"]) & (table["published mean"] <= table["ci_high"])
            table["published_mean_in_ci"] = inside.where(table["published mean"].notna() & table["ci_low"].notna())
        if {"published sem", "published games"} <= set(table):
            # the standard deviation the published standard error implies over the published games,
            # to set beside ours (std): sem = sd / sqrt(games)
            table["published sem x sqrt(games)"] = table["published sem"] * np.sqrt(table["published games"])
    printed = load_reference(experiment.reference, aliases=False) if experiment.reference else None
    aliased = printed is not None and bool(set(table["variant"]) & (set(reference.index) - set(printed.iloc[:, 0])))
    caption = captions.finals(experiment, runs, estimate, aliased=aliased,
                              implied_sd="published sem x sqrt(games)" in table)
    return [Table("", table, with_table(caption, markdown_table(table, index=False, floatfmt=".5g"))),
            plotted(experiment, f", mean and {captions.interval_name(estimate)}",
                    lambda ax: plot_finals(table, scores, ax)),
            *best_drawing(experiment, runs)]


def final_scores(runs: Runs, scale: float = 1.0) -> dict[str, list[float]]:
    """Each column's final scores times ``scale``: one per run, or per game of a run of several
    games (experiments.runs.game_scores)."""
    return {label: [score * scale for r in rs for score in game_scores(r)] for label, rs in runs.records.items() if rs}


def speedup_report(experiment: Experiment, runs: Runs, estimate) -> list[Table | Figure]:
    """k(t) of every variant against the baseline (``report.baseline``), on wall time, and
    each variant's throughput in playouts per wall-second (always the percentile bootstrap:
    analysis.results.speedup)."""
    traces = {label: [axis_trace(r, "wall_seconds") for r in rs] for label, rs in runs.records.items() if rs}
    if experiment.baseline not in traces:
        raise InputError(f"no runs of the baseline {experiment.baseline!r}: run the sweep first")
    budget = min(v.job.settings.max_time for v in experiment.variants)
    others = {label: t for label, t in traces.items() if label != experiment.baseline}
    table = speedup_table(traces[experiment.baseline], others, doubling_checkpoints(FIRST_TIME, budget))
    settings = {v.label: v for v in experiment.variants}
    throughput = pd.DataFrame([{
        "variant": label, "threads": settings[label].job.settings.threads, "root": settings[label].root,
        "runs": len(rs),
        "playouts_per_wall_second": float(np.mean([r["result"]["playouts"] / r["result"]["wall_seconds"]
                                                   for r in rs])),
    } for label, rs in runs.records.items() if rs])
    wide = table.assign(cell=[
        ("> budget" if censored else "-") if not np.isfinite(k) else
        f"{k:.2f}" + (f" [{low:.2f}, {high:.2f}]" if np.isfinite(low) else "")
        for k, low, high, censored in zip(table["speedup"], table["ci_low"], table["ci_high"], table["censored"])
    ]).pivot(index="checkpoint", columns="variant", values="cell")[list(others)]
    text = "\n".join([captions.speedup(experiment, runs), "", markdown_table(wide), "", captions.THROUGHPUT, "",
                      markdown_table(throughput, index=False, floatfmt=",.0f")])
    return [Table("", table, text + "\n"), Table("_throughput", throughput),
            plotted(experiment, ", 95% bootstrap CI", lambda ax: plot_speedups(table, ax))]


REPORTS = {"checkpoints": checkpoints_report, "boards": boards_report, "final": final_report,
           "speedup": speedup_report}


def _search_text(settings) -> str:
    text = label(settings)
    if not settings.restart and settings.max_time is None and settings.max_playouts is None:
        return text + ", the top level once"
    return text


def final_solutions(experiment: Experiment, runs: Runs) -> list[Table]:
    """For domains that judge a final solution beyond its score (their view's
    ``final_summary``, analysis.results.domain_views), one row per run; summed up per variant with the
    domain's note when the view has ``final_summary_table``."""
    options = experiment.variants[0].job.domain_options
    view, domain = domain_view(options.name), make_domain(options)
    if view.final_summary is None:
        return []
    rows = pd.DataFrame([{"variant": label, "repeat": r["repeat"], **view.final_summary(domain, r)}
                         for label, rs in runs.records.items() for r in rs])
    if view.final_summary_table is None:
        return [Table("_final", rows)]
    summary, note = view.final_summary_table(domain, rows)
    return [Table("_final", rows, with_table(captions.final_summary(experiment, note),
                                             markdown_table(summary, floatfmt=".2f")))]


def best_drawing(experiment: Experiment, runs: Runs) -> list[Figure]:
    """A picture of the best certificate over all the runs, by the ``draw_solution`` of the
    view of the domain that made it (analysis.results.domain_views), when it has one."""
    variant, best = max(((v, r) for v in experiment.variants for r in runs.records[variant_key(experiment, v)]),
                        key=lambda pair: pair[1]["result"]["best_score"])
    draw = domain_view(variant.job.domain_options.name).draw_solution
    if draw is None:
        return []
    domain, moves = make_domain(variant.job.domain_options), best["certificate"]["moves"]
    return [Figure("_best", lambda stem: [draw(domain, moves, stem.with_suffix(".png"))])]


def report(overrides: list[str], *, estimate=t_interval) -> list[Path]:
    """Build the experiment's report (REPORTS[kind]) with the interval method ``estimate``
    (one of analysis.stats.ESTIMATORS); write its tables and figures, return their paths."""
    return write_report(load_experiment(overrides), estimate=estimate, overrides=overrides)


def write_report(experiment: Experiment, *, estimate=t_interval, overrides: list[str] | None = None,
                 folder: Path | None = None) -> list[Path]:
    """The report of an experiment already composed (``report`` composes it from overrides);
    its tables and figures in ``folder`` when given (a sweep's: experiments/sweep.py)."""
    overrides = overrides or [f"experiment={experiment.name}", f"scale={experiment.scale}"]
    if experiment.kind not in REPORTS:
        raise InputError(f"report.kind={experiment.kind!r} is not valid: {did_you_mean(experiment.kind, REPORTS)}")
    runs = collect(experiment)
    if not any(runs.records.values()):
        raise InputError(
            f"no run files of {experiment.name} at scale {experiment.scale} under "
            f"{experiment.store.root}: run `python run.py -m {' '.join(overrides)}` first"
        )
    name = experiment.output_name
    return [path for output in REPORTS[experiment.kind](experiment, runs, estimate)
            for path in output.write((folder or experiment.store.root / output.folder) / f"{name}{output.suffix}")]


def rebuild_report(overrides: list[str], estimate=t_interval) -> list[Path]:
    """``python -m analysis.results.report sweep=FOLDER`` (or sweep=NAME, found under outputs_dir/sweeps):
    the sweep's report again from its run files, as its sweep.yaml defines it."""
    given = next(o.split("=", 1)[1] for o in overrides if o.startswith("sweep="))
    others = [o for o in overrides if not o.startswith("sweep=")]
    unknown = [o for o in others if not o.startswith("outputs_dir=")]
    if unknown:
        raise InputError(f"sweep= takes only outputs_dir= beside it, not {' '.join(unknown)} "
                         f"(the sweep's overrides are in its {DEFINITION})")
    folder = find_sweep(given, others)
    experiment = sweep_of_folder(folder)
    return write_report(experiment, estimate=estimate, folder=folder,
                        overrides=[*read_definition(folder)["overrides"]])


def main(argv: list[str] | None = None) -> int:
    parser = overrides_parser(__doc__, "experiment=NAME scale=S and any other overrides")
    parser.add_argument("--interval", choices=list(ESTIMATORS), default="t",
                        help="confidence interval: t (Student-t) or bootstrap (percentile bootstrap)")
    arguments = parser.parse_args(argv)
    if any(o.startswith("sweep=") for o in arguments.overrides):  # a sweep's report, rebuilt from its sweep.yaml
        return print_outputs(lambda: rebuild_report(arguments.overrides, estimate=ESTIMATORS[arguments.interval]))
    return print_outputs(lambda: report(arguments.overrides, estimate=ESTIMATORS[arguments.interval]))


if __name__ == "__main__":
    sys.exit(main())
