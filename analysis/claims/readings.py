"""Readings tested against the papers' own numbers: where a paper leaves a setting unsaid,
its published baseline column chooses among the candidate readings.

    python -m analysis.claims.readings scale=paper [--make]      (make readings SCALE=paper)

The cases are declared in analysis/readings.yaml: an unsaid setting, its candidate readings (a
config override each), and the published columns that choose (each time table's baseline, or
Morpion's Uniform row). ``--make`` first makes each candidate's runs of those columns, RUNS[scale]
of them, budgeted in playouts (``matched_work=true``) to EXTEND times the work of the scale's last
checkpoint at the experiment's stated R, reusing what the store or the archive holds (a few of
every candidate first, then more); without it, only the runs already made are read.

How a candidate is scored. The published runs' machine speed R is unknown, so it is fitted with
the candidate, one R for all the checkpoints of a part (a machine whose speed changes with time
is not a reading): our runs' best score at t x R playouts is read for each published time t and
each R of a log grid from R_cap / 64 to R_cap, R_cap the largest R the runs' budget covers at the
last published time. At each cell, the published mean p and ours m (n runs, standard deviation
s) differ by t = (p - m) / (s * sqrt(1/n + 1/N)), N the published runs: were the candidate the
paper's search at that R, p and m would be two means of one law, and t a Student t on n - 1
degrees of freedom; z is the normal score of its tail probability, about standard normal
whatever n (a t on few runs has heavier tails: 20 runs make E[t^2] 1.12, 5 runs 2).
The fitted R minimises the sum of z^2 over the part's cells from FIRST_SCORED on (the exponent of
the likelihood of the published cells, taken as independent; why the first is left out: below),
among the R where no cell passes the worst-cell bound below when there are some (a candidate fits
if some machine speed makes it fit: ``Fit.within``); a final-score row (Morpion) has no R. Reported per
candidate: its fitted R and whether it sits at the cap (longer runs could fit better), the cells
inside our 95% t interval, the mean and largest relative gap |p - m| / |p|, and the sum of z^2
over the case's cells.

How a case chooses (``judge``): a candidate fits when its mean z^2 per cell is at most FIT_LIMIT
(a typical gap within two standard errors: were it the paper's search, its mean z^2 would exceed
4 with a probability under 5% however the cells are correlated, 4.6% at worst, all equal: above
1.54 a weighted mean of chi-square(1) variables has its heaviest tail with all the weight on one,
Szekely and Bakirov 2003) and
no cell's |z| exceeds the Bonferroni bound of the case's cells at 5% (``worst_bound``: 2.94 for 15
cells; a curve right on average and wrong late on does not fit), so that the paper's own search
would be rejected with a probability of at most 10%. The chosen reading is the fitting candidate
with the least sum of z^2; another fitting candidate is "not told apart" unless its sum exceeds the
chosen one's by more than the number of cells (a mean z^2 worse by at least 1), then
"rejected: worse"; a candidate that does not fit is "rejected: does not fit". When none fits,
none is chosen: the published column is not any candidate's search, a finding the report says.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

from analysis.claims.basis import FIRST_SCORED, PUBLISHED_RUNS  # the first published checkpoint scored (see there)
from analysis.claims.reading_cases import Candidate, Case, Part, load_cases
from analysis.stats import best_at, t_interval
from experiments.config import overrides_parser, print_outputs
from experiments.root_parallel import axis_trace
from nrpa.errors import InputError, did_you_mean

RUNS = {"smoke": 2, "quick": 10, "paper": 20}  # runs of each candidate's columns read (and made by --make)
# A candidate's runs hold twice the work of the scale's last checkpoint at the stated R (max_time
# of the scale times EXTEND, at matched work): the fitted R may then reach twice the stated one
EXTEND = 2
LAST_TIME = {"smoke": 0.08, "quick": 10.24, "paper": 163.84}  # conf/scale/*.yaml's max_time
FIT_LIMIT = 4.0  # the largest mean z^2 per cell of a candidate that fits
SPAN = 64  # the fitted R lies in [R_cap / SPAN, R_cap]
GRID = 193  # R values tried (log-spaced: 32 a factor 2)
FROM_TIME = 10.0  # the relative gaps "from 10 s" (the check the TSPTW case asks for)
STATUSES = ("chosen", "not told apart", "rejected: worse", "rejected: does not fit", "no runs")


# --- scoring: pure functions on traces and published cells ---

@dataclass(frozen=True)
class Fit:
    """A candidate on one part: its fitted R (NaN for a final-score row), the cap, and one row
    per published cell: time, column, published, mean, low, high, runs, z, inside, gap; ``scan``,
    the same (R, cells) at every R of the grid (empty for a final-score row)."""

    rate: float
    rate_cap: float
    cells: pd.DataFrame
    scan: tuple = ()

    def within(self, bound: float) -> "Fit":
        """The fit at the R of least sum of z^2 among those where no scored cell's abs(z) passes
        ``bound`` (a candidate fits if some machine speed makes it fit); itself where none does."""
        allowed = [(rate, cells) for rate, cells in self.scan
                   if cells.loc[cells["scored"], "z"].abs().max() <= bound]
        if not allowed:
            return self
        rate, cells = min(allowed, key=lambda pair: float(np.square(pair[1].loc[pair[1]["scored"], "z"]).sum()))
        return Fit(float(rate), self.rate_cap, cells, self.scan)

    @property
    def at_cap(self) -> bool:
        return bool(np.isfinite(self.rate) and self.rate >= self.rate_cap * (1 - 1e-9))

    @property
    def chi2(self) -> float:
        return float(np.square(self.cells.loc[self.cells["scored"], "z"]).sum())


def cell(values: np.ndarray, published: float, published_runs: int) -> dict:
    """Our mean and 95% t interval of ``values`` beside ``published``, and their standardized
    gap z (inf where our runs have no solution yet or all agree on another value)."""
    values = values[np.isfinite(values)]
    mean, low, high = t_interval(values)
    if values.size == 0:
        return {"mean": np.nan, "low": np.nan, "high": np.nan, "runs": 0, "z": np.inf, "inside": False}
    spread = values.std(ddof=1) if values.size > 1 else 0.0
    error = spread * math.sqrt(1 / values.size + 1 / published_runs)
    gap = published - mean
    if gap == 0:
        z = 0.0
    elif error > 0:  # a t statistic on n - 1 degrees of freedom, as the normal score of its tail
        tail = stats.t.sf(abs(gap / error), values.size - 1)
        # a tail below the smallest double: so far out that the t and the normal agree
        z = math.copysign(float(stats.norm.isf(tail)) if tail > 0 else abs(gap / error), gap)
    else:
        z = math.copysign(np.inf, gap)
    return {"mean": mean, "low": low, "high": high, "runs": int(values.size), "z": float(z),
            "inside": bool(np.isfinite(low) and low <= published <= high)}


def fit_rate(traces: dict[str, list[tuple]], published: dict[str, tuple], *, rate_cap: float,
             scale: float = 1.0, published_runs: int = PUBLISHED_RUNS) -> Fit:
    """The R in [rate_cap / SPAN, rate_cap] whose cells t x R best match the published points:
    ``traces`` maps a published column to our runs' (playouts, scores) traces, ``published``
    to its (times, values) in the paper's unit, ours times ``scale`` (value_scale)."""
    rates = np.exp(np.linspace(math.log(rate_cap / SPAN), math.log(rate_cap), GRID))

    def cells_at(rate: float) -> pd.DataFrame:
        rows = []
        for column, (times, values) in published.items():
            matrix = np.array([best_at(p, s, np.asarray(times) * rate) for p, s in traces[column]]) * scale
            for k, (t, value) in enumerate(zip(times, values)):
                rows.append({"time": float(t), "column": column, "published": float(value),
                             **cell(matrix[:, k], float(value), published_runs), "scored": t >= FIRST_SCORED - 1e-9})
        return pd.DataFrame(rows)

    def score(cells: pd.DataFrame) -> float:
        return float(np.square(cells.loc[cells["scored"], "z"]).sum())

    scan = tuple((float(rate), _with_gaps(cells_at(rate))) for rate in rates)
    best = int(np.argmin([score(cells) for _, cells in scan]))
    return Fit(scan[best][0], float(rate_cap), scan[best][1], scan)


def fit_final(finals: dict[str, np.ndarray], published: dict[str, tuple[float, int]], *, scale: float = 1.0) -> Fit:
    """A row of final scores (no time, no R): ``finals`` our games' scores per column,
    ``published`` its (mean, games)."""
    rows = [{"time": np.nan, "column": column, "published": float(mean),
             **cell(np.asarray(finals[column], dtype=float) * scale, float(mean), runs), "scored": True}
            for column, (mean, runs) in published.items()]
    return Fit(np.nan, np.nan, _with_gaps(pd.DataFrame(rows)))


def _with_gaps(cells: pd.DataFrame) -> pd.DataFrame:
    return cells.assign(gap=(cells["published"] - cells["mean"]).abs() / cells["published"].abs())


def worst_bound(cells: int) -> float:
    """The largest |z| a fitting candidate's cells may show: Bonferroni's bound at 5% over them."""
    return float(stats.norm.isf(0.05 / (2 * cells)))


def summary(fits: list[Fit]) -> dict:
    """A candidate's agreement over a case's parts."""
    cells = pd.concat([fit.cells for fit in fits], ignore_index=True)
    cells = cells[cells["scored"]]
    late = cells[cells["time"] >= FROM_TIME] if cells["time"].notna().any() else cells
    return {"cells": len(cells), "inside": int(cells["inside"].sum()),
            "chi2": float(np.square(cells["z"]).sum()), "worst": float(cells["z"].abs().max()),
            "mean_gap": float(cells["gap"].mean()), "max_gap_from_10s": float(late["gap"].max()),
            "rates": "; ".join(f"{fit.rate:,.0f}" + (" (at the cap)" if fit.at_cap else "")
                               for fit in fits if np.isfinite(fit.rate)) or "-"}


def judge(summaries: dict[str, dict]) -> dict[str, tuple[str, float]]:
    """Each candidate's status (STATUSES) and its margin over the chosen one (its sum of z^2
    minus the chosen one's; NaN where none is chosen), from ``summary`` rows (None: no runs)."""
    scored = {name: s for name, s in summaries.items() if s is not None}
    fitting = {name: s for name, s in scored.items()
               if s["chi2"] / s["cells"] <= FIT_LIMIT and s.get("worst", 0.0) <= worst_bound(s["cells"])}
    chosen = min(fitting, key=lambda name: fitting[name]["chi2"]) if fitting else None
    statuses = {}
    for name, s in summaries.items():
        if s is None:
            statuses[name] = ("no runs", np.nan)
            continue
        margin = s["chi2"] - fitting[chosen]["chi2"] if chosen else np.nan
        if name == chosen:
            statuses[name] = ("chosen", 0.0)
        elif name not in fitting:
            statuses[name] = ("rejected: does not fit", margin)
        elif margin > s["cells"]:
            statuses[name] = ("rejected: worse", margin)
        else:
            statuses[name] = ("not told apart", margin)
    return statuses


# --- the runs of a case, and the report ---

def _experiment(part: Part, candidate: Candidate, scale: str, overrides=()):
    """The part's experiment under the candidate: at matched work for a time table."""
    from experiments.experiment import load_experiment

    given = [f"experiment={part.experiment}", f"scale={scale}", *part.run_with, *candidate.overrides, *overrides]
    experiment = load_experiment(given)
    if experiment.kind == "checkpoints":
        experiment = load_experiment([*given, *_extended(scale)])
    return experiment


def _extended(scale: str) -> list[str]:
    """A time table's candidate runs: at matched work, to EXTEND times the scale's last checkpoint."""
    return ["matched_work=true", f"max_time={LAST_TIME[scale] * EXTEND:g}"]


def make_runs(cases: list[Case], scale: str, overrides=()) -> None:
    """Each candidate's runs of each part's columns, those the store lacks, RUNS[scale] of a time
    table's (a final-score row: the experiment's own count, made by its own target), a few of
    every candidate first and then more, so that a stopped command leaves every candidate runs."""
    from experiments.sweep import make_sweep

    steps = sorted({min(RUNS[scale], step) for step in (5, 10, RUNS[scale])})
    for count in steps:
        for case in cases:
            for part in case.parts:
                for candidate in case.candidates:
                    if _experiment(part, candidate, scale, overrides).kind != "checkpoints":
                        continue
                    print(f"{case.case}, {part.experiment}, {candidate.name}: {count} runs", flush=True)
                    make_sweep([f"experiment={part.experiment}", f"scale={scale}", *part.run_with,
                                *candidate.overrides, *_extended(scale), f"repeats={count}", *overrides], yes=True)


def part_fit(part: Part, candidate: Candidate, scale: str, overrides=(), published_runs: int = PUBLISHED_RUNS):
    """(Fit or None without runs, runs read per column, CPU-seconds they cost)."""
    from analysis.claims.decide import PrefixSource

    experiment = _experiment(part, candidate, scale, overrides)
    final = experiment.kind != "checkpoints"
    cap = max(v.repeats for v in experiment.variants) if final else RUNS[scale]
    source = PrefixSource(experiment, cap=cap)
    labels = {column: candidate.label(column) for column in part.columns}
    found = {column: source.runs.records.get(label, []) for column, label in labels.items()}
    if not all(found.values()):
        return None, 0, 0.0
    runs = min(len(records) for records in found.values())
    seconds = sum(sum(source.costs.get(label, [])) for label in labels.values())
    reference = source.reference
    scale_by = experiment.value_scale
    if final:
        table = reference.set_index(reference.columns[0])
        published = {column: (float(table.loc[column, "mean"]), published_runs) for column in part.columns}
        return fit_final({column: source.finals(labels[column]) for column in part.columns}, published,
                         scale=scale_by), runs, seconds
    # the published times up to the scale's last; R up to what the runs' budget covers there
    budget = min(record["result"]["playouts"] for records in found.values() for record in records)
    times = reference["time"].to_numpy(dtype=float)
    keep = times <= LAST_TIME[scale] * (1 + 1e-6)
    published = {column: (times[keep], reference[column].to_numpy(dtype=float)[keep]) for column in part.columns}
    traces = {column: [axis_trace(record, "playouts") for record in records] for column, records in found.items()}
    return fit_rate(traces, published, rate_cap=budget / times[keep].max(), scale=scale_by,
                    published_runs=published_runs), runs, seconds


def evaluate(scale: str, overrides=(), cases: list[Case] | None = None) -> tuple[pd.DataFrame, dict]:
    """One row per (case, candidate), and each candidate's fits per part (for the figures)."""
    rows, fits = [], {}
    for case in cases if cases is not None else load_cases():
        summaries, extra = {}, {}
        for candidate in case.candidates:
            results = [part_fit(part, candidate, scale, overrides, _published_runs(part)) for part in case.parts]
            parts = [fit for fit, _, _ in results]
            found = [fit for fit in parts if fit is not None]
            # each part's R within the worst-cell bound where some R is (the bound counts the case's scored cells)
            bound = worst_bound(sum(int(fit.cells["scored"].sum()) for fit in found)) if found else np.nan
            parts = [fit.within(bound) if fit is not None else None for fit in parts]
            fits[case.case, candidate.name] = parts
            summaries[candidate.name] = summary(parts) if all(fit is not None for fit in parts) else None
            extra[candidate.name] = {"runs": min(runs for _, runs, _ in results),
                                     "cpu_hours": sum(seconds for _, _, seconds in results) / 3600}
        statuses = judge(summaries)
        for candidate in case.candidates:
            s = summaries[candidate.name] or {"cells": 0, "inside": 0, "chi2": np.nan, "worst": np.nan, "mean_gap": np.nan,
                                              "max_gap_from_10s": np.nan, "rates": "-"}
            status, margin = statuses[candidate.name]
            rows.append({"case": case.case, "paper": case.paper, "setting": case.setting, "candidate": candidate.name,
                         "overrides": " ".join(candidate.overrides), "current": candidate.name == case.current,
                         "status": status, "cells": s["cells"], "inside": s["inside"],
                         "z2_per_cell": s["chi2"] / s["cells"] if s["cells"] else np.nan,
                         "worst_z": s["worst"], "worst_bound": worst_bound(s["cells"]) if s["cells"] else np.nan,
                         "margin": margin,
                         "mean_gap": s["mean_gap"], "max_gap_from_10s": s["max_gap_from_10s"], "R": s["rates"],
                         "runs": extra[candidate.name]["runs"], "cpu_hours": extra[candidate.name]["cpu_hours"],
                         "experiments": " ".join(part.experiment for part in case.parts)})
    return pd.DataFrame(rows), fits


def _published_runs(part: Part) -> int:
    return PUBLISHED_RUNS if part.experiment != "morpion_table2" else MORPION_UNIFORM_GAMES


MORPION_UNIFORM_GAMES = 100_000  # "The statistics for the Uniform policy [...] 100,000 games" (Morpion paper, Table 2)


def cells_table(fits: dict, cases: list[Case]) -> pd.DataFrame:
    """Every published cell beside each candidate's at its fitted R."""
    frames = []
    for case in cases:
        for candidate in case.candidates:
            for part, fit in zip(case.parts, fits[case.case, candidate.name]):
                if fit is not None:
                    frames.append(fit.cells.assign(case=case.case, candidate=candidate.name, experiment=part.experiment,
                                                   R=fit.rate))
    columns = ["case", "candidate", "experiment", "column", "time", "R", "published", "mean", "low", "high", "runs",
               "z", "inside", "gap", "scored"]
    return pd.concat(frames, ignore_index=True)[columns] if frames else pd.DataFrame(columns=columns)


def plot_case(case: Case, fits: dict, stem: Path) -> Path:
    """One panel per published column: the published points and each candidate's mean (and 95%
    band) at its fitted R; a final-score row as points with their intervals."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    panels = [(part, column) for part in case.parts for column in part.columns]
    wide = min(3, len(panels))
    rows = -(-len(panels) // wide)
    figure, axes = plt.subplots(rows, wide, figsize=(max(7.0, 4.6 * wide), 3.9 * rows + 0.5), squeeze=False)
    for ax in list(axes.flat)[len(panels):]:
        ax.set_visible(False)
    for ax, (part, column) in zip(axes.flat, panels):
        index = case.parts.index(part)
        for k, candidate in enumerate(case.candidates):
            fit = fits[case.case, candidate.name][index]
            if fit is None:
                continue
            cells = fit.cells[fit.cells["column"] == column]
            name = candidate.name + (f" (R = {fit.rate:,.0f})" if np.isfinite(fit.rate) else "")
            if cells["time"].notna().any():
                ax.plot(cells["time"], cells["mean"], marker=".", label=name, color=f"C{k}")
                ax.fill_between(cells["time"], cells["low"], cells["high"], alpha=0.2, color=f"C{k}")
            else:
                ax.errorbar([k], cells["mean"], yerr=[cells["mean"] - cells["low"], cells["high"] - cells["mean"]],
                            fmt="o", color=f"C{k}", label=name)
        first = next(fit for fit in (fits[case.case, c.name][index] for c in case.candidates) if fit is not None)
        published = first.cells[first.cells["column"] == column]
        if published["time"].notna().any():
            ax.plot(published["time"], published["published"], "k*", markersize=8, label="published")
            ax.set_xscale("log")
            ax.set_xlabel("published CPU seconds t (ours: t x R playouts)", fontsize=8)
        else:
            ax.axhline(published["published"].iloc[0], color="k", linestyle="--", label="published")
            ax.set_xticks([])
        ax.set_title(f"{part.experiment}: {column}", fontsize=9)
        ax.legend(fontsize=7)
    figure.suptitle(f"{case.setting}:\ncandidate readings against the published baseline", fontsize=10)
    figure.tight_layout()
    path = stem.with_name(f"{stem.name}_{case.case}.png")
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return path


def markdown(table: pd.DataFrame, cases: list[Case], scale: str, figures: dict[str, str],
             clocks: list[str] = ()) -> str:
    lines = [f"# Readings tested against the papers' published baselines ({scale} scale)", "",
             "Where a paper leaves a setting unsaid, each candidate reading is run on the column (or row) the "
             "paper published for its baseline, with the paper machine's speed R fitted jointly (one R for all the "
             "checkpoints), and scored against the published cells. A candidate fits when its mean squared "
             f"standardized gap z^2 per cell is at most {FIT_LIMIT:g} and no cell's abs(z) exceeds the Bonferroni "
             "bound at 5% over the case's cells; the fitting one with the least sum of z^2 is "
             "chosen; another is not told apart from it unless its sum is larger by more than the number of cells. "
             f"The cells from {FIRST_SCORED:g} s are scored: at the first checkpoint the published mean is behind "
             "ours in nearly every column, under nearly every candidate (a start-up time of the paper's process; "
             "the choice of the Selective level depends on leaving it out, where both levels miss it). "
             "How z is defined and why: analysis/claims/readings.py; the cells: the CSV beside this page "
             "(`readings_cells.csv`). Each candidate is scored at the machine speed that fits it best, a free parameter "
             "of this test (column `R` of the CSV), not the R any table is read at: each time table's claims, "
             "snapshot and reproduction row read one R, its config's, and the [reproduction page](reproduction.md) "
             "says whether the baseline fits there on the runs the claims read. Made by `make readings SCALE=" + scale
             + "`.", ""]
    for case in cases:
        rows = table[table["case"] == case.case]
        chosen = rows[rows["status"] == "chosen"]
        tied = list(rows.loc[rows["status"] == "not told apart", "candidate"])
        verdict = (f"**The published numbers choose {chosen['candidate'].iloc[0]}**"
                   + (f", but do not tell it from {' or '.join(tied)} (not told apart)" if tied else "") if len(chosen)
                   else "**No candidate fits the published numbers**: the published column is not the search any "
                        "candidate makes (or R lies beyond the runs' cap)")
        current = rows[rows["current"]].iloc[0]
        lines += [f"## {case.setting}", "", f"> {case.quote}", "",
                  f"{verdict}; the reading the experiments run: {case.current} ({current['status']}).", "",
                  "| candidate | status | cells inside | mean z^2 | largest abs(z) (bound) | mean gap | largest gap from "
                  "10 s | runs | CPU-h |",
                  "|---|---|---|---|---|---|---|---|---|"]
        for row in rows.itertuples():
            late = f"{row.max_gap_from_10s:.2%}" if np.isfinite(row.max_gap_from_10s) else "-"
            lines.append(f"| {row.candidate}{' (current)' if row.current else ''} | {row.status} | "
                         f"{row.inside} of {row.cells} | {row.z2_per_cell:.3g} | {row.worst_z:.3g} ({row.worst_bound:.3g}) | "
                         f"{row.mean_gap:.2%} | {late} | {row.runs} | {row.cpu_hours:.2f} |")
        if case.case in figures:
            lines += ["", f"![{case.setting}]({figures[case.case]})"]
        lines.append("")
    if clocks:
        lines += ["## Equal time: which clock, this engine's or the C++ reference engine's", "",
                  "Not a setting of the paper's but the reading of \"equal time\" itself: the published baseline of each "
                  "time table with reference engine runs chooses, by the rule above (each clock with one speed fitted on "
                  "the baseline), between today's t x R x rho and the reference engine's clock. The same sections, and "
                  "how they are read: [engines_clocks.md](engines_clocks.md) (added by `make results`).", "", *clocks]
    return "\n".join(lines)


def write(scale: str, folder: Path, overrides=(), cases: list[Case] | None = None,
          clocks: list[str] = ()) -> list[Path]:
    """The report, its two CSVs and its figures into ``folder``; ``clocks``: the sections on the two
    clocks of the tables with reference engine runs (engines_page.clock_sections), which `make
    results` adds after making the engines pages (this module does not import that one: it imports
    this one's rule)."""
    cases = cases if cases is not None else load_cases()
    table, fits = evaluate(scale, overrides, cases)
    folder.mkdir(parents=True, exist_ok=True)
    stem = folder / ("readings" if scale == "paper" else f"readings_{scale}")
    figures = {case.case: plot_case(case, fits, stem).name for case in cases
               if any(fit is not None for c in case.candidates for fit in fits[case.case, c.name])}
    paths = [stem.with_suffix(".csv"), stem.with_name(stem.name + "_cells.csv"), stem.with_suffix(".md")]
    table.to_csv(paths[0], index=False)
    cells_table(fits, cases).to_csv(paths[1], index=False)
    paths[2].write_text(markdown(table, cases, scale, figures, clocks) + "\n")
    return paths + [folder / name for name in figures.values()]


def main(argv: list[str] | None = None) -> int:
    parser = overrides_parser(__doc__, "scale=paper|quick|smoke, outputs_dir=...", nargs="*")
    parser.add_argument("--make", action="store_true", help="make the candidates' runs the store lacks first")
    parser.add_argument("--case", action="append", help="only this case (repeatable)")
    arguments = parser.parse_intermixed_args(argv)
    scale = next((o.split("=", 1)[1] for o in arguments.overrides if o.startswith("scale=")), "paper")
    overrides = [o for o in arguments.overrides if not o.startswith("scale=")]

    def produce() -> list[Path]:
        from experiments.experiment import load_outputs_dir

        if scale not in RUNS:
            raise InputError(f"scale={scale}: one of {', '.join(RUNS)}")
        cases = load_cases()
        if arguments.case:
            unknown = [name for name in arguments.case if name not in {c.case for c in cases}]
            if unknown:
                raise InputError(f"--case {unknown[0]}: {did_you_mean(unknown[0], [c.case for c in cases])}")
            cases = [c for c in cases if c.case in arguments.case]
        if arguments.make:
            make_runs(cases, scale, overrides)
        return write(scale, load_outputs_dir(overrides) / "readings", overrides, cases)

    return print_outputs(produce)


if __name__ == "__main__":
    sys.exit(main())
