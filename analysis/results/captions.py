"""The words of the reports: the caption of each table and the title of each figure.

Each function takes the experiment (``experiments.experiment.Experiment``) and what the
table shows, and returns text; none reads or writes a file. ``runs`` is the report's
``analysis.results.report.Runs``: the run files read for each variant, and how many were expected.
"""

from __future__ import annotations

import math

import re

from analysis.stats import bootstrap_interval, t_interval

INTERVAL_NAMES = {t_interval: "95% Student-t CI", bootstrap_interval: "95% percentile-bootstrap CI"}
AXIS_WORDS = {"cpu_seconds": "CPU time", "wall_seconds": "wall time", "playouts": "playouts"}
_VS_AXIS = re.compile(r"\bvs (?:CPU time|wall time|playouts)\b")  # the axis in an experiment's title
THROUGHPUT = "Throughput: playouts per wall-second of one run (a root run: the sum of its members)."


def interval_name(estimate) -> str:
    """What an interval method of ``analysis.stats.ESTIMATORS`` is called in a caption."""
    return INTERVAL_NAMES[estimate]


def heading(experiment, vs: str | None = None) -> str:
    """The table's title in bold; ``vs``: what its rows are where not the experiment's axis
    (a matched-time table's rows are published seconds, read at playouts)."""
    work = (", at the paper's work: each column budgeted t x R x max(1, rho) playouts, R the published runs' "
            "rate, rho the column's relative rate" if experiment.matched_work else "")
    title = experiment.title
    if vs is not None:
        title, found = _VS_AXIS.subn(f"vs {vs}", title)
        title += "" if found else f", vs {vs}"
    return f"**{title}** ({experiment.scale} scale{work})"


def figure_title(experiment, detail: str, axis: str | None = None) -> str:
    """``detail`` follows the scale: ', mean and ...' or ': ... per run'. With ``axis`` (a
    checkpoint axis: cpu_seconds, wall_seconds, playouts), the title says what the x axis is:
    the experiment's "vs CPU time" becomes "vs playouts" on the playouts figure."""
    title = experiment.title
    if axis is not None:
        title, found = _VS_AXIS.subn(f"vs {AXIS_WORDS[axis]}", title)
        if not found:
            title += f", vs {AXIS_WORDS[axis]}"
    return f"{title}\n{experiment.scale} scale{detail}"


def run_counts(runs) -> str:
    return "-".join(map(str, sorted({len(rs) for rs in runs.records.values()})))


def budget_unit(experiment) -> str:
    clocks = {v.job.settings.clock for v in experiment.variants}
    return "wall-seconds" if clocks == {"wall"} else "CPU-seconds" if clocks == {"cpu"} else "seconds (CPU or wall)"


def budgets(experiment) -> list:
    return sorted({v.job.settings.max_time for v in experiment.variants}, key=str)


def stops(experiment) -> str:
    """Where the runs stop: their time budgets, and the playout budgets of runs without one
    (matched time: t x R x max(1, rho) playouts)."""
    settings = [v.job.settings for v in experiment.variants]
    times = sorted({s.max_time for s in settings if s.max_time is not None})
    playouts = sorted({s.max_playouts for s in settings if s.max_time is None and s.max_playouts is not None})
    parts = ([f"{', '.join(f'{b:g}' for b in times)} {budget_unit(experiment)}"] if times else []) + \
        ([f"{', '.join(f'{p:,}' for p in playouts)} playouts"] if playouts else [])
    return " or ".join(parts) or "the end of the top level"


def budget_text(experiment) -> str:
    return ", ".join("the top level once" if b is None else f"{b:g} {budget_unit(experiment)}"
                     for b in budgets(experiment))


def warnings(runs) -> list[str]:
    """Lines that say a table is incomplete or mixes code versions."""
    lines = []
    missing = {label: runs.expected[label] - len(rs) for label, rs in runs.records.items()
               if len(rs) < runs.expected[label]}
    if missing:
        lines.append(f"WARNING: runs missing ({', '.join(f'{k}: {v}' for k, v in missing.items())}): "
                     "run the sweep again to complete them.")
    starved = {label: n for label, n in runs.starved.items() if n}
    if starved:
        lines.append(f"WARNING: runs set aside as starved, other processes having taken their cores "
                     f"({', '.join(f'{k}: {v}' for k, v in starved.items())}): not counted; the sweep makes them "
                     "again (experiments/machine.py).")
    outliers = {label: repeats for label, repeats in runs.rate_outliers.items() if repeats}
    if outliers:
        listed = "; ".join(f"{label}: {', '.join(map(str, repeats))}" for label, repeats in outliers.items())
        lines.append("WARNING: runs whose playouts per wall-second are under starved.rate_fraction of their column's "
                     f"median, though their machine section shows no contention (counted; repeats {listed}).")
    if len(runs.code_versions) > 1:
        lines.append(f"WARNING: built from runs of {len(runs.code_versions)} code versions "
                     f"(source hashes {', '.join(sorted(runs.code_versions))}).")
    return lines


def captioned(experiment, runs, text: str, vs: str | None = None) -> str:
    """The heading (``vs``: what the rows are, see heading), the text, then the warnings, one a line."""
    return "\n".join([heading(experiment, vs), "", *(f"- {note}" for note in experiment.notes),
                      *([""] if experiment.notes else []), text,
                      *warnings(runs)])


def checkpoints(experiment, runs, axis_name: str, estimate, published: bool) -> str:
    return captioned(experiment, runs, "\n".join([
        f"Mean best score at each checkpoint ({axis_name}) over {run_counts(runs)} runs per "
        f"column, with its {interval_name(estimate)} in brackets"
        + (" and the published value in parentheses (* where it lies outside the CI)." if published else "."),
        *([f"Values are multiplied by {experiment.value_scale:g}, the paper's unit."]
          if experiment.value_scale != 1 else []),
        *([f"Unit: {experiment.unit}."] if experiment.unit else []),
        f"Runs stopped at {stops(experiment)}. A '-' "
        "means no run had a solution yet; the CSV counts those runs per cell. With many runs the intervals "
        "are thin.",
    ]))


def board_searches(experiment, separator: str = "; ") -> str:
    """The level and budget of a board table's runs: one phrase when every column shares them,
    else the first columns' phrase then each other column's (Dist-NRPA(5): a threaded root run),
    joined by ``separator``."""
    phrases = {}
    for variant in experiment.variants:
        s = variant.job.settings
        budget = (f"{s.max_time:g} {'wall' if s.clock == 'wall' else 'CPU'}-seconds" if s.max_time is not None
                  else f"{s.max_playouts:,} playouts" if s.max_playouts is not None else "the top level once")
        search = (f", the best of {variant.root} searches" if variant.root > 1 else "") + (
            f" with the {s.parallel.replace('_', '-')} policy at level {s.parallel_level} on {s.threads} threads"
            if s.parallel in ("shared", "thread_local") else "")
        phrase = f"level {s.level}{search}, budget {budget} per {'search' if variant.root > 1 else 'run'}"
        phrases.setdefault(phrase, []).append(variant.label)
    (first, _), *others = phrases.items()
    return separator.join([first] + [f"{', '.join(dict.fromkeys(labels))}: {phrase}" for phrase, labels in others])


def boards(experiment, runs, leaderboard_root) -> str:
    return captioned(experiment, runs, (
        f"Per board, the best and the mean final score over {run_counts(runs)} run(s) per "
        f"algorithm and board (95% Student-t CI in brackets), {board_searches(experiment)}; the papers ran "
        "level 4 to completion or for 2 hours per board. Published columns as printed in the paper. leaderboard: "
        "the best certificate ever found here for the board, whatever the run, verified by replay "
        f"(files under {leaderboard_root})."))


def finals(experiment, runs, estimate, aliased: bool = False, implied_sd: bool = False) -> str:
    """``aliased``: some of our rows have a published row under another name beside them
    (analysis/reference/<table>_aliases.csv); ``implied_sd``: the table has the standard
    deviation the published standard error implies over the published games."""
    return captioned(experiment, runs, (
        f"Per variant, the final best score of each run (of each game, where a run plays several: "
        f"the games column counts them, runs the files that hold them): mean with its {interval_name(estimate)}, "
        "standard error of the mean (sem), standard deviation (std), max"
        + ("; published columns as printed in the paper" if experiment.reference else
           f". Budget: {budget_text(experiment)}.")
        + ("; a row measured under another reading of the rules (its label says which) has the paper's row "
           "of the same policy beside it" if aliased else "")
        + ("; published sem x sqrt(games): the standard deviation that the published standard error implies "
           "over the game count the paper gives, to compare with our std" if implied_sd else "")
        + ("." if experiment.reference else "")))


def speedup(experiment, runs) -> str:
    return captioned(experiment, runs, (
        f"Speed-up k(t): the parallel search at wall time t scores (on average over its runs) as "
        f"the {experiment.baseline} search at k(t) x t; 95% percentile-bootstrap CI over runs in "
        "brackets. '> budget': the parallel mean is above anything the sequential search reached "
        "within its budget; '-': no estimate. Root runs count their K members as simultaneous."))


def final_summary(experiment, note: str) -> str:
    """Of the domain's per-variant summary of the final solutions; ``note`` is the domain's."""
    return f"**{experiment.title}**: final best solution of each run ({experiment.scale} scale)\n\n{note}"


def stated_rate(speed: dict) -> str:
    """The published runs' rate as the experiment's config states it, with this table's own estimate."""
    stated = speed["stated_rate"]
    estimate = ("not estimable from these runs" if speed["rate"] != speed["rate"] else
                f"{speed['rate']:,.0f} [{speed['rate_ci_low']:,.0f}, {speed['rate_ci_high']:,.0f}] from these runs "
                f"({speed['rate_points']} published points)")
    return (f"R = {stated.R:,.0f} [{stated.ci_low:,.0f}, {stated.ci_high:,.0f}] playouts per published second "
            f"(report.published_rate, fitted on {', '.join(stated.fit_on)}; {estimate})")


def engine_speed(speed: dict) -> str:
    """The engine-speed line of a time table's caption (``speed``: analysis.results.report.matched_work)."""
    inside, cells = speed["cells_inside"]
    estimate = ("not estimable: no published value is reached by our mean curves inside their time range"
                if speed["k"] != speed["k"] else
                f"k = {speed['k']:.2f} [{speed['ci_low']:.2f}, {speed['ci_high']:.2f}] (95% bootstrap CI over runs, "
                f"{speed['points']} published points): at t this engine scores as the published runs at k t")
    matched = (f"The matched-time table reads each column at t x R x rho playouts, {stated_rate(speed)}; k is a "
               "measurement of this engine on this machine, never a budget." if speed["stated_rate"] else
               "The experiment states no published runs' rate (report.published_rate): no matched-work table.")
    return (f"Engine speed against the published runs per CPU-second, estimated from these runs: {estimate}. "
            f"{matched} Published value inside our CI here: {inside} of {cells} cells.")


def equal_time_figure_note(speed: dict, axis_name: str) -> str:
    """What a published time table's figure shows, on its face: the axis, and why our curves
    sit apart from the published values at equal time."""
    k = speed["k"]
    if k != k:  # not estimable
        gap = "its speed against the published runs is not estimable from these runs"
    else:
        gap = (f"it does about k = {k:.2g} times the published runs' work per {axis_name.split()[0]}-second, so at "
               f"equal time its curves sit {'above' if k > 1 else 'below'} the published values")
    return (f"x: {axis_name} of this engine on this machine, not the paper's: {gap}. The _matched table compares each "
            "column at the paper's work for t (t x R x rho playouts).")


def matched_work(experiment, runs, estimate, speed: dict) -> str:
    inside, cells = speed["cells_matched_inside"]
    same_time, same_time_cells = speed["cells_inside"]
    equal_time = f", against {same_time} of {same_time_cells} at equal time" if same_time_cells else ""
    stated = speed["stated_rate"]
    alone = speed.get("published_relative", {})
    rhos = ", ".join(f"{label} {value.rho:.3g} [{value.ci_low:.3g}, {value.ci_high:.3g}]"
                     + (f" (the published curves' own: {alone[label]:.3g})"
                        if math.isfinite(alone.get(label, math.nan)) else "")
                     for label, value in stated.relative)
    return captioned(experiment, runs, (
        f"At matched time: each column's mean best at t x R x rho playouts, the work the paper's machine did for "
        f"that column in t seconds, read on each run's playouts trace; {stated_rate(speed)}; rho, the column's "
        f"playouts per CPU-second over its baseline's on this engine (report.published_rate.relative, measured by "
        f"{stated.measured or 'experiments/rates.py'}): {rhos or 'none (every column is a baseline)'}; in parentheses, "
        f"R fitted on the column's published curve alone over R fitted on its baseline's, the published engine's own "
        f"relative rate where the curves allow it: far from rho, the relative costs did not carry over. Our mean has "
        f"its {interval_name(estimate)} in brackets, beside the published mean at t in parentheses (* where it lies "
        f"outside the CI). Published value inside our CI: {inside} of {cells} cells at matched time{equal_time}. "
        "Rows stop where t x R x rho passes a column's runs. The same at equal playouts (t x R for every column, "
        "which uses a playout better, not the papers' comparison) is the _equal_playouts table."),
        vs="published time t, each column at matched time (t x R x rho playouts)")


def equal_playouts(experiment, runs, estimate, speed: dict) -> str:
    return captioned(experiment, runs, (
        f"At equal playouts: every column's mean best at t x R playouts, {stated_rate(speed)}, with its "
        f"{interval_name(estimate)} in brackets, beside the published mean at t in parentheses. This answers which "
        "column uses a playout better, a question the papers do not ask: they compare their columns at the same "
        "time, and the columns do not cost the same per playout (the _matched table reads each at its own work). "
        "No verdict on a paper's claim is read here."),
        vs="published time t, every column at t x R playouts")


def fixed_targets(experiment, runs, axis_name: str, source: str) -> str:
    return captioned(experiment, runs, (
        f"Fixed-target view (COCO): for each target score, the expected running time ERT, in {axis_name} and "
        "in playouts: what all the runs spent until they reached the target (a run that never did: its "
        "whole length) divided by the runs that reached it; (r/n): r of the n runs reached it; '-': none "
        f"did. Targets: {source}. An ERT beyond the runs' budget is what restarting whole runs would cost, "
        "read off the few that got there. The figure is the runtime ECDF: at each time, the share of (run, "
        "target) pairs already reached."))


TARGET_SOURCES = {
    "given": "the scores given in report.targets, the same for every column",
    "published": "each column's published means, one per published time t (the row), in the paper's unit",
    "pooled": "the mean best score of all this experiment's runs at each checkpoint t (the row), the same "
              "for every column",
}


def board_comparisons(experiment, runs, resamples: int) -> str:
    return captioned(experiment, runs, (
        "Probability of improvement (rliable): P(X > Y) is, on each board, the share of (run of X, run of Y) "
        "pairs in which X scores more (ties count half), averaged over the boards; 0.5 means neither is "
        f"ahead. 95% percentile-bootstrap intervals over {resamples} resamples of the boards and, within "
        "each drawn board, of each algorithm's runs (so they speak for boards like these; with one run per "
        "board, as at paper scale, only the boards vary). The figure is each algorithm's performance "
        "profile: the share of its runs whose normalized score (final score / the best score known for the "
        "board: the published columns, the leaderboard and these runs) is above tau, averaged over the "
        "boards, with the same intervals."))
