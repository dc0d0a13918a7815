"""The pages of analysis/claims/engines.py: the C++ reference engine beside this engine, a table at a
time, and the two clocks over every table.

    python -m analysis.claims.engines_page stabilized_table4 [--summary]   (make engines TABLE=...)

docs/results/engines_<table>.md with its figure (.png), its playout-for-playout cells (.csv), its
columns read on both clocks (_clocks.csv), its gains split in two (_gains.csv) and, where the table
names other settings of ours or the reference has runs of another build, their cells (_also.csv);
--summary: engines_clocks.md from every table's _clocks.csv. `make results` remakes them all.
"""

from __future__ import annotations

import math
import sys
from dataclasses import asdict, fields
from pathlib import Path

import numpy as np
import pandas as pd

from analysis.claims.basis import FIRST_SCORED
from analysis.claims.engines import (FOLDER, MARGIN_FRACTION, REFERENCE_CLOCK, Reading, clock_decision,
                                     by_column, clock_statuses, measure, measured_table, our_traces,
                                     reference_traces, rho_ref, tables)
from analysis.claims.gain_split import split_gains
from analysis.claims.readings import FIT_LIMIT
from analysis.claims.same_search import MIN_RUNS, also, comparison, pooled
from experiments.reference_runs import read_runs
from experiments.store import PROJECT_ROOT
from nrpa.errors import InputError

PAGES = PROJECT_ROOT / "docs" / "results"


def rho_text(found: tuple | None) -> str:
    if not found:
        return "-"
    rho, low, high, seeds = found
    interval = f" [{low:.2f}, {high:.2f}]" if np.isfinite(low) else ""
    return f"{rho:.2f}{interval}"


def markdown(measured: dict, figure: str | None) -> str:
    experiment, records, clock = measured["experiment"], measured["records"], measured["clock"]
    table, baseline, last = measured["table"], measured["baseline"], measured["last"]
    builds: dict[tuple, int] = {}
    for r in records:
        key = (r["engine"]["reference_commit"][:7], r["engine"]["patch_sha256"][:12])
        builds[key] = builds.get(key, 0) + 1
    models = sorted({r["cpu_model"] for r in records})
    hours = sum(r["end"]["cpu"] for r in records) / 3600
    lower = experiment.value_scale < 0
    lines = [f"# {experiment.title}: the C++ reference engine beside this engine", "",
             f"Made by `python -m analysis.claims.engines_page {table}` (`make engines TABLE={table}`) from the reference engine's "
             f"runs in archive/reference/{table}.jsonl ({len(records)} runs, {hours:.2f} CPU-hours; engine "
             + ", ".join(f"github.com/bnegreve/nrpa {commit} with instrument.patch {patch} ({n} runs)"
                         for (commit, patch), n in sorted(builds.items()))
             + f"; CPU {', '.join(models)}) and this engine's runs in the archive (up to 200 a column, as the claims "
             f"read them). The method: analysis/claims/engines.py and docs/reference/cpp-reference.md."
             + (" Scores and gains are in the published table's unit, where lower is better: a negative gain is an "
                "improvement, and the playout-for-playout differences are in the engines' own scores (higher is "
                "better)." if lower else "") + (f" The playout-for-playout differences are in the engines' own scores, "
                f"the published unit over {experiment.value_scale:g}." if abs(experiment.value_scale) != 1 else ""), ""]
    lines += ["## The clock: the reference engine's work by CPU time", ""]
    if clock:
        loads = [value for runs in clock.values() for r in runs for value in r["load_average"]]
        lines += [f"Clock runs on {measured['clock_model']}{model_choice(measured)}: "
                  f"{', '.join(f'{c} {len(r)}' for c, r in clock.items())} runs of {last:g} CPU-seconds, "
                  "seed by seed, every column once a round, on a machine whose load average (1 minute) read "
                  f"{min(loads):.2f} to {max(loads):.2f} at their starts and ends (each run's in its record): CPU-time "
                  "rates depend on what else runs, so a rate here is this machine's under that load, and the "
                  "ratios between columns (rho_ref) are the measurement. Playouts per CPU-second, W(tau) / tau "
                  "(mean over runs):", ""]
    else:
        lines += [f"No clock runs yet (runs of {last:g} CPU-seconds: `make reference-runs TABLE={table}`).", ""]
    work = measured["work"]
    if len(work):
        times = [t for t in (0.01, 0.16, 1.28, 10.24, 40.96, 163.84) if t <= last * (1 + 1e-9)]
        lines += ["| column | runs | " + " | ".join(f"tau = {t:g} s" for t in times) + " |",
                  "|---|---:|" + "---:|" * len(times)]
        for column in clock:
            rows = work[work["column"] == column]
            rates = [rows.loc[np.isclose(rows["tau"], t, rtol=1e-6), "rate"] for t in times]
            lines.append(f"| {column} | {len(clock[column])} | " + " | ".join(
                f"{float(r.iloc[0]):,.0f}" if len(r) and np.isfinite(r.iloc[0]) else "-" for r in rates) + " |")
        lines.append("")
    lines += ["## rho_ref: each column's work over the baseline's, on each engine", "",
              f"The reference engine's rho_ref at tau (geometric mean of the seeds' ratios to the column's own baseline, "
              f"{baseline} unless the row says another, 95% interval) "
              "beside this engine's rho (report.published_rate.relative in the table's config: playouts per CPU-second "
              "over the same baseline's, measured by experiments/rates.py), the factor matched time gives each column today.", ""]
    taus = list(measured["rho_ref"])
    if taus:
        lines += ["| column | " + " | ".join(f"rho_ref at {t:g} s" for t in taus) + " | this engine's rho |",
                  "|---|" + "---:|" * (len(taus) + 1)]
        for column in clock:
            own = measured["against"].get(column, column)
            if own == column:  # a baseline
                continue
            ours = measured["rho_ours"].get(column)
            shown = column if own == baseline else f"{column} (over {own})"
            lines.append(f"| {shown} | " + " | ".join(rho_text(measured["rho_ref"][t].get(column)) for t in taus)
                         + f" | {ours:.2f} |")
        lines.append("")
    lines += rho_by_model_lines(measured, clock, last)
    cells, verdicts = measured["cells"], measured["verdicts"]
    if measured.get("log"):
        scored = "Mean log10 of the best score"
        margin = (f"the margin: {MARGIN_FRACTION:.0%} as a ratio, log10(1 + {MARGIN_FRACTION:g}); this domain's scores span "
                  "orders of magnitude and its runs spread by a factor, so the cells compare log10 of each run's best")
    else:
        scored = "Mean best score"
        margin = f"the margin: {MARGIN_FRACTION:.0%} of the published {baseline} at {last:g} s, in the engines' own scores"
    lines += ["## Playout for playout: the same search?", "",
              f"{scored} after n playouts, reference - ours, per column (all reference runs that reach n, at least {MIN_RUNS}, one a "
              f"seed; ours as the claims read them). A cell differs when its interval at the Bonferroni level over all "
              f"the table's cells excludes 0, agrees when its 90% interval lies within +-{measured['margin']:.4g} ("
              f"{margin}); a column agrees when all its "
              "cells do, differs when one does. The 90% half-widths say how far the runs are from telling: a "
              "column's cells cannot agree while they exceed the margin. " + gains_beside_margin(measured), ""]
    lines += (agreement_lines(cells, verdicts, together=pooled(measured["reference"], measured["ours"], cells, measured["log"]))
              if len(cells) else [f"No cell has {MIN_RUNS} reference runs yet.", ""])
    lines += also_lines(measured)
    readings = measured["readings"]
    if readings:
        rate = experiment.published_rate
        lines += ["## Equal time on two clocks", "",
                  f"Each column of our runs read at today's matched work, t x R x rho (R = {rate.R:,.0f} fitted on "
                  f"{baseline}, rho this engine's), and at the reference engine's clock, W_ref(t / s) with the "
                  f"column's own work W_ref, s = {measured['speed']:.2f} fitted on {baseline} alone (the paper's "
                  f"machine did in t seconds what the reference engine did here in t / s CPU-seconds); nothing is "
                  f"fitted to the other columns. Cells from {FIRST_SCORED:g} s on that our runs reach: the judged runs "
                  "(as the claims read them at t x R x rho), and where those stop short of a cell's work, the column's "
                  f"matched-work runs to 2 or 4 times the last time, when they hold {MIN_RUNS} or more (the cells "
                  "column says how many cells and runs); a column fits when its mean z^2 is at most "
                  f"{FIT_LIMIT:g} and no abs(z) passes the bound (the other columns: one Bonferroni bound a reading). "
                  "W_ref is the mean work of the clock runs, taken as exact in z; its error is shown apart: each "
                  "column but the baseline is read again with its work at the ends of rho_ref's 95% interval (at the "
                  "work checkpoint nearest t / s; the fits column gives ours above the published at the low and the "
                  "high end): ours below the published at one end and above at the other means that the clock's own "
                  "error, with these clock runs, covers the gap. A column below the published values on one clock and "
                  "above on the other lies between the two clocks: some work between them would fit it.", "",
                  "| column | reading | cells read (published) | published inside our 95% interval | ours above / below "
                  "the published | mean z^2 | largest abs(z) / bound | fits |", "|---|---|---|---|---|---:|---|---|"]
        for r in sorted(readings, key=lambda r: (list(clock).index(r.column) if r.column in clock else 99, r.reading)):
            lines.append(f"| {r.column} | {r.reading} | {cells_text(asdict(r))} | {r.inside} of {r.cells} | "
                         f"{r.above} / {r.cells - r.above} | {r.mean_z2:.2f} | {r.max_z:.2f} / {r.bound:.2f} | "
                         f"{fits_text(asdict(r), r.fits)} |")
        lines.append("")
    split = measured["split"]
    if len(split):
        lines += ["## Each gain split in two", "",
                  f"A column's gain over its own baseline ({baseline} unless the row says another) at published time t, "
                  "as ours makes it at equal time: the algorithm's "
                  f"part, the gain at equal playouts (both at t x R = t x {experiment.published_rate.R:,.0f}), plus the "
                  "engine's part, what the column's extra work adds (its own mean at t x R x rho less at t x R, the same "
                  "runs), with this engine's rho and with the reference's rho_ref(t / s) (the ratio of the columns' "
                  "mean work, log-log interpolated, not the per-seed geometric mean above). 95% intervals, which leave "
                  "out the error of rho and rho_ref; '-' where our runs stop short of the work. Where the runs the claims "
                  "read stop short of a column's work at rho_ref, that column's extra work is read on its runs to 2 or 4 "
                  f"times the last time ({MIN_RUNS} or more; the cell says how many).", "",
                  "| column | t | published gain | algorithm's part (equal playouts), ours | the same, the reference engine's "
                  "| + engine's part, this engine's rho | + engine's part, the reference's rho_ref |",
                  "|---|---:|---:|---|---|---|---|"]

        def part(mean, low, high, rho=None, longer=0) -> str:
            if not np.isfinite(mean):
                return "-" if rho is None or not np.isfinite(rho) else f"- (rho {rho:.2f})"
            prefix = f"{mean:+.0f} [{low:+.0f}, {high:+.0f}]"
            on = f", {longer:.0f} longer runs" if longer == longer and longer else ""
            return prefix if rho is None else f"{prefix} (rho {rho:.2f}{on})"

        for _, row in split.iterrows():
            shown = row["column"] if row["over"] == baseline else f"{row['column']} (over {row['over']})"
            lines.append(f"| {shown} | {row['time']:g} | {row['published_gain']:+.0f} | "
                         f"{part(row['equal_playouts'], row['equal_playouts_low'], row['equal_playouts_high'])} | "
                         f"{part(row['ref_equal_playouts'], row['ref_equal_playouts_low'], row['ref_equal_playouts_high'])} | "
                         f"{part(row['ours_part'], row['ours_part_low'], row['ours_part_high'], row['ours_rho'])} | "
                         f"{part(row['ref_part'], row['ref_part_low'], row['ref_part_high'], row['ref_rho'], row['ref_longer_runs'])} |")
        lines.append("")
    if figure:
        lines += [f"![the reference engine's clock and the two searches playout for playout]({figure})", ""]
    lines += [f"Cells: engines_{table}.csv (one row per column and playout count).", ""]
    return "\n".join(lines)


def gains_beside_margin(measured: dict) -> str:
    """What an "agrees" does not rule out: the published columns' differences from their baseline at
    the last time, in the cells' unit (log10 of the ratio where the cells are on log10)."""
    published, baseline = measured["published"], measured["baseline"]
    last = published.iloc[-1]
    others = [column for column in published.columns[1:] if column != baseline]
    if not others:
        return ""
    if measured.get("log"):
        gains = [abs(math.log10(last[column] / last[baseline])) for column in others]
    else:
        gains = [abs(last[column] - last[baseline]) / abs(measured["experiment"].value_scale) for column in others]
    inside = sum(gain <= measured["margin"] for gain in gains)
    return (f"The published columns differ from {baseline} at {float(last['time']):g} s by {min(gains):.3g} to "
            f"{max(gains):.3g} in the cells' unit; {inside} of these {len(gains)} gains lie within the margin, and "
            "an agreement cannot tell two searches apart by less than the margin.")


def agreement_lines(cells: pd.DataFrame, verdicts: dict, first: str = "reference", together: dict | None = None) -> list[str]:
    """The cells of same_search.agreement, a row per column; ``first``: what its first runs are;
    ``together``: the columns as one test (same_search.pooled), said under the table."""
    lines = ["| column | verdict | cells (agree / differ / inconclusive) | " + first + " runs | second runs | largest abs(difference) "
             "(of the cells that differ, where one does), its interval | at the last cell compared | 90% half-widths |",
             "|---|---|---|---|---|---|---|---|"]
    for column, verdict in verdicts.items():
        rows = cells[cells["column"] == column]
        differing = rows[rows["verdict"] == "differs"]
        shown = differing if len(differing) else rows  # a differing column shows a cell that differs
        worst = shown.loc[shown["difference"].abs().idxmax()]
        counts = [int((rows["verdict"] == v).sum()) for v in ("agrees", "differs", "inconclusive")]
        half = (rows["high90"] - rows["low90"]) / 2
        last = rows.loc[rows["playouts"].idxmax()]
        lines.append(f"| {column} | {verdict} | {counts[0]} / {counts[1]} / {counts[2]} | "
                     f"{rows['reference_runs'].min()}-{rows['reference_runs'].max()} | "
                     f"{rows['our_runs'].min()}-{rows['our_runs'].max()} | "
                     f"{worst['difference']:+.4g} at {int(worst['playouts']):,} [{worst['low']:+.4g}, {worst['high']:+.4g}] | "
                     f"{last['difference']:+.4g} at {int(last['playouts']):,} [{last['low']:+.4g}, {last['high']:+.4g}] | "
                     f"{half.min():.4g}-{half.max():.4g} |")
    if together:
        lines += ["", f"All {together['columns']} columns as one test, at {together['playouts']:,} playouts: the mean of their "
                      f"differences {together['difference']:+.4g}, 95% interval [{together['low']:+.4g}, {together['high']:+.4g}]."]
    return [*lines, ""]


def also_lines(measured: dict) -> list[str]:
    """The table's other settings of ours beside the reference (same_search.also), with what each
    changes in our search; and the reference engine built otherwise (reference_variants), beside
    ours and beside the engine as built."""
    lines = []
    for found in measured.get("also", ()):
        setting = " ".join(found["overrides"])
        lines += [f"### Our engine at {found['label']}", "",
                  f"Why: {found['why']}. Our runs made with `{setting}` ({found['runs']} or more a column; "
                  f"`python run.py -m experiment={measured['table']} scale=paper matched_work=true {setting} repeats=N`), "
                  "the same cells and tests as above. Reference - ours at this setting:", ""]
        lines += cells_or_none(found["main"])
        lines += ["What the setting changes in our own search: ours at this setting - ours as the claims read them "
                  "(the first runs: ours at this setting):", ""]
        lines += cells_or_none(found["effect"], first="our")
    for found in measured.get("variants", ()):
        lines += [f"### The reference engine built otherwise: {found['label']}", "",
                  f"Its build: {found['why']}. Its runs: archive/reference/{found['label']}/{measured['table']}.jsonl "
                  f"({found['runs']} or more a column), the same cells and tests as above. This build - ours:", ""]
        lines += cells_or_none(found["main"], first="this build's")
        lines += ["The engine as built - this build:", ""]
        lines += cells_or_none(found["effect"])
    return lines


def cells_or_none(compared: dict, first: str = "reference") -> list[str]:
    """A same_search.comparison's table, or a line saying it has no cell yet."""
    if not len(compared["cells"]):
        return ["No cell to compare yet.", ""]
    return agreement_lines(compared["cells"], compared["verdicts"], first, compared["pooled"])


def reference_variants(measured: dict, runs_folder: Path) -> list[dict]:
    """The reference engine built otherwise: its runs kept apart in a folder of ``runs_folder``
    (reference_runs --folder), each run's ``engine`` naming its build; beside ours as the claims
    read them (``main``) and beside the engine as built (``effect``), as same_search.also has them."""
    found = []
    for folder in sorted(path for path in runs_folder.iterdir() if path.is_dir()):
        records = read_runs(measured["table"], folder)
        if not records:
            continue
        traces = {column: reference_traces(runs) for column, runs in by_column(records).items()}
        found.append({"label": folder.name, "why": "; ".join(sorted({r["engine"].get("variant", "as built") for r in records})),
                      "runs": min(len(t) for t, _ in traces.values()),
                      "main": comparison(traces, measured["ours"], measured["margin"], measured["log"]),
                      "effect": comparison(measured["reference"], traces, measured["margin"], measured["log"])})
    return found


def plot(measured: dict, path: Path) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from analysis.results.palette import column_colour

    figure, axes = plt.subplots(1, 3, figsize=(16, 4.6))
    work, cells, clock = measured["work"], measured["cells"], measured["clock"]
    baseline = measured["baseline"]
    columns = list(measured["experiment"].published_rate.fit_on) + [c for c in clock if c != baseline]
    taus = np.sort(work["tau"].unique()) if len(work) else np.array([])
    ratios = [rho_ref(clock, measured["against"], t) for t in taus] if baseline in clock else []  # once a tau
    for index, column in enumerate(dict.fromkeys(columns)):
        colour = column_colour(index)
        rows = work[work["column"] == column] if len(work) else work
        if len(rows):
            axes[0].plot(rows["tau"], rows["rate"], color=colour, label=column)
        if measured["against"].get(column, column) != column and column in clock and ratios:
            axes[1].plot(taus, [found.get(column, (np.nan,))[0] for found in ratios], color=colour, label=column)
            axes[1].axhline(measured["rho_ours"][column], color=colour, linestyle=":", linewidth=1)
        mine = cells[cells["column"] == column] if len(cells) else cells
        if len(mine):
            axes[2].errorbar(mine["playouts"] * (1 + 0.03 * index), mine["difference"],
                             yerr=[mine["difference"] - mine["low"], mine["high"] - mine["difference"]],
                             color=colour, marker=".", capsize=2, label=column)
    axes[0].set(xscale="log", xlabel="CPU seconds tau", ylabel="playouts per CPU-second, W(tau) / tau",
                title="the reference engine's clock")
    axes[1].set(xscale="log", xlabel="CPU seconds tau", ylabel=f"work over {baseline}'s",
                title="rho_ref (lines) and this engine's rho (dotted)")
    axes[2].axhline(0, color="k", linewidth=0.8)
    for sign in (-1, 1):
        axes[2].axhline(sign * measured["margin"], color="0.5", linestyle="--", linewidth=0.8)
    scored = "mean log10 of the best score" if measured.get("log") else "mean best score"
    axes[2].set(xscale="log", xlabel="playouts n", ylabel=f"{scored}, reference - ours",
                title="playout for playout (Bonferroni intervals; dashed: the margin)")
    for ax in axes:
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=7)
    figure.suptitle(measured["experiment"].title, fontsize=10)
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)
    return path


def cells_text(reading) -> str:
    """A reading's cells read (of the published), and those read on longer runs than the judged ones."""
    longer = (f"; {reading['longer_cells']} on {reading['longer_runs']} longer runs" if reading["longer_cells"] else "")
    return f"{reading['cells']} ({reading['published_cells']}{longer})"


def model_choice(measured: dict) -> str:
    """Why the clock is read on its CPU model, where the clock runs were made on several: work and
    rho_ref are a machine's, so each model's clock is read apart and the baseline chooses (engines.clock_model)."""
    statuses = measured["model_statuses"]
    if len(statuses) < 2:
        return ""
    said = "; ".join(f"{name}: s = {measured['model_speeds'][name]:.2f}, {status}" for name, (status, _) in statuses.items())
    return (f" (work and rho_ref are a machine's, so each CPU model the clock runs were made on is read apart and "
            f"the baseline {measured['baseline']} chooses among them by the readings' rule: {said}; the other models' "
            "rho_ref is set beside it below)")


def rho_by_model_lines(measured: dict, clock: dict, last: float) -> list[str]:
    """rho_ref at the last time on each CPU model the clock runs were made on, the clock's first
    (nothing where they were made on one)."""
    by_model = measured["rho_by_model"]
    if len(by_model) < 2:
        return []
    ordered = [measured["clock_model"], *(name for name in by_model if name != measured["clock_model"])]
    lines = [f"rho_ref at {last:g} s on each CPU model the clock runs were made on (seeds paired within a round, as "
             "above; the clock reads the first):", "",
             "| column | " + " | ".join(f"{name} (seeds)" for name in ordered) + " |", "|---|" + "---|" * len(ordered)]
    for column in clock:
        if measured["against"].get(column, column) == column:  # a baseline
            continue
        found = [by_model[name].get(column) for name in ordered]
        lines.append(f"| {column} | " + " | ".join(f"{rho_text(rho)} ({rho[3] if rho else 0})" for rho in found) + " |")
    return lines + [""]


def fits_text(reading, fits: bool) -> str:
    """"yes" or "no", and for a column read at rho_ref's 95% ends: "no; at rho_ref's 95% ends above
    in 1 / 14 of 14 cells" (", fitting at the low end" where it fits there)."""
    said = "yes" if fits else "no"
    if not np.isfinite(float(reading["above_low"])):
        return said
    ends = [end for end in ("low", "high") if float(reading[f"fits_{end}"]) == 1.0]
    return (f"{said}; at rho_ref's 95% ends above in {reading['above_low']:.0f} / {reading['above_high']:.0f} of "
            f"{reading['cells']} cells" + (f", fitting at the {' and the '.join(ends)} end" if ends else ""))


def readings_frame(measured: dict) -> pd.DataFrame:
    """The _clocks.csv rows: each column's two readings, s, and the reading the claims read and why
    (engines.clock_decision)."""
    _, read, why = clock_decision(measured) if measured["readings"] else ({}, "", "")
    return pd.DataFrame([{**asdict(r), "fits": r.fits, "s": measured["speed"], "claims_read": read, "claims_why": why}
                         for r in measured["readings"]],
                        columns=[*(f.name for f in fields(Reading)), "fits", "s", "claims_read", "claims_why"])


def write(table: str, folder: Path = PAGES, runs_folder: Path = FOLDER, overrides=()) -> list[Path]:
    """engines_<table>.{md,png}, its cells (.csv: playout for playout), its two clocks' readings
    (_clocks.csv), its split gains (_gains.csv) and, where the table names other settings of ours
    (report.same_search_also) or the reference has runs of another build (reference_variants), their
    cells (_also.csv; ``first``: the runs each cell's difference starts from)."""
    # the committed runs: measured once a process (the claims' campaign has read them already)
    measured = measured_table(table, tuple(overrides)) if runs_folder == FOLDER else measure(table, runs_folder, overrides)
    measured = {**measured, "split": split_gains(measured),
                "also": also(measured, lambda setting: our_traces(table, [*overrides, *setting])[0])}
    measured["variants"] = reference_variants(measured, runs_folder)
    folder.mkdir(parents=True, exist_ok=True)
    stem = folder / f"engines_{table}"
    figure = plot(measured, stem.with_suffix(".png"))
    csvs = {stem.with_suffix(".csv"): measured["cells"], folder / f"engines_{table}_clocks.csv": readings_frame(measured),
            folder / f"engines_{table}_gains.csv": measured["split"]}
    if measured["also"] or measured["variants"]:  # the cells of each other setting of ours, each other build
        csvs[folder / f"engines_{table}_also.csv"] = pd.concat(
            [found[part]["cells"].assign(setting=found["label"], first=first) for found in measured["also"]
             for part, first in (("main", "reference"), ("effect", "ours at the setting"))]
            + [found[part]["cells"].assign(setting=f"reference: {found['label']}", first=first) for found in measured["variants"]
               for part, first in (("main", "this build"), ("effect", "the reference as built"))], ignore_index=True)
    for path, frame in csvs.items():
        frame.to_csv(path, index=False, float_format="%.6g")
    page = stem.with_suffix(".md")
    page.write_text(markdown(measured, figure.name))
    return [page, *csvs, figure]


def clock_choice(frame: pd.DataFrame) -> str:
    """Which clock the baseline column chooses (engines.clock_statuses: the readings' rule), from a
    table's _clocks.csv rows, and which the claims read (engines.clock_decision), and why."""
    statuses = clock_statuses(row for _, row in frame[frame["column"] == frame["column"].iloc[0]].iterrows())
    chosen = [name for name, (status, _) in statuses.items() if status == "chosen"]
    said = "; ".join(f"{name}: {status}" for name, (status, _) in statuses.items())
    read = frame["claims_read"].iloc[0] if "claims_read" in frame else ""
    why = frame["claims_why"].iloc[0] if "claims_why" in frame else ""
    if not chosen:
        return f"The baseline chooses neither clock: it fits on none ({said}); the claims keep t x R x rho."
    if read == REFERENCE_CLOCK:
        return (f"The baseline chooses **{chosen[0]}** ({said}): the claims read the columns at W_ref(t / s), on "
                "runs that reach its work at the last time.")
    if chosen[0] == REFERENCE_CLOCK:
        return f"The baseline chooses **{chosen[0]}** ({said}), but the claims keep t x R x rho: {why}."
    return f"The baseline chooses **{chosen[0]}** ({said}): the claims read t x R x rho."


SUMMARY_INTRO = ("Each column of our runs read at today's matched work (t x R x rho: R fitted on the baseline, rho "
                 "this engine's) and at the C++ reference engine's clock (W_ref,column(t / s): the column's own work on "
                 "the reference engine, s fitted on the baseline alone); nothing is fitted to the other columns. A "
                 f"reading fits when its mean z^2 is at most {FIT_LIMIT:g} and no abs(z) passes the bound. Each "
                 "table's page says how and on which runs (the runs the claims read, up to 200 a column).")


def clock_sections(folder: Path = PAGES, heading: str = "##") -> list[str]:
    """Per table with a _clocks.csv in ``folder``: which clock its baseline chooses, and every column
    read on both clocks."""
    lines = []
    found = sorted(folder.glob("engines_*_clocks.csv"))
    if not found:
        lines.append("No table has clock runs yet.")
    for path in found:
        table = path.name[len("engines_"):-len("_clocks.csv")]
        frame = pd.read_csv(path)
        lines += [f"{heading} [{table}](engines_{table}.md)", ""]
        if frame.empty:
            lines += ["No clock runs yet.", ""]
            continue
        others = frame[frame["column"] != frame["column"].iloc[0]]  # the baseline comes first
        today, clock = others[others["reading"] != REFERENCE_CLOCK], others[others["reading"] == REFERENCE_CLOCK]
        ended = clock[np.isfinite(clock["above_low"].astype(float))]
        spans = int(((ended["above_low"] < ended["cells"] / 2) & (ended["above_high"] > ended["cells"] / 2)).sum())
        lines += [f"s = {frame['s'].iloc[0]:.2f}. {clock_choice(frame)} The other columns, nothing fitted to them, "
                  f"fitting at t x R x rho: {int(today['fits'].sum())} of {len(today)}; at the reference "
                  f"clock: {int(clock['fits'].sum())} of {len(clock)}; read at the ends of rho_ref's 95% interval, "
                  f"ours mostly below the published at the low end and mostly above at the high end (the clock's own "
                  f"error spans the published values): {spans} of {len(ended)}.", "",
                  "| column | reading | cells read (published) | inside our 95% interval | ours above / below the published | "
                  "mean z^2 | largest abs(z) / bound | fits |", "|---|---|---|---|---|---:|---|---|"]
        for _, r in frame.iterrows():
            lines.append(f"| {r['column']} | {r['reading']} | {cells_text(r)} | {r['inside']} | "
                         f"{r['above']} / {r['cells'] - r['above']} | {r['mean_z2']:.2f} | {r['max_z']:.2f} / {r['bound']:.2f} | "
                         f"{fits_text(r, r['fits'])} |")
        lines.append("")
    return lines


def summary(folder: Path = PAGES) -> Path:
    """engines_clocks.md: every table's columns read on both clocks, from the tables' _clocks.csv
    (the readings report has the same sections: analysis/claims/readings.py)."""
    lines = ["# Equal time on two clocks, every table with reference runs", "",
             "Made by `python -m analysis.claims.engines_page --summary` from docs/results/engines_<table>_clocks.csv (written "
             f"with each table's page, `make engines`, `make results`). {SUMMARY_INTRO}", "", *clock_sections(folder)]
    path = folder / "engines_clocks.md"
    path.write_text("\n".join(lines))
    return path


def main(argv: list[str] | None = None) -> int:
    import argparse

    from experiments.config import exit_on_input_error

    parser = argparse.ArgumentParser(prog="python -m analysis.claims.engines_page", description=__doc__.split("\n\n")[0])
    parser.add_argument("table", nargs="?", help="a time table with reference runs, e.g. stabilized_table4")
    parser.add_argument("--summary", action="store_true", help="engines_clocks.md from the tables' _clocks.csv")
    args = parser.parse_args(argv)
    if not args.table and not args.summary:
        parser.error("name a table, or --summary")
    try:
        for path in (write(args.table) if args.table else []):
            print(path)
        if args.summary:
            print(summary())
    except InputError as error:
        exit_on_input_error(error)
    return 0


if __name__ == "__main__":
    sys.exit(main())
