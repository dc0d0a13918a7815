"""The readings' test at the sample the claims are judged on: does each time table's published
baseline fit our runs at the table's machine speed R (the one R its claims, snapshot and reproduction
row read: report.published_rate.R in conf/experiment/<table>.yaml), on the runs the claims read (50 to
200 a column, where the readings chose on 10 to 20)?

    python -m analysis.claims.campaign_fit [outputs_dir=...]        (reads the store and the archive)

For each time table of the campaign (experiments/paper_campaign.py), its baseline columns (those its
R was fitted on, published_rate.fit_on) are scored as analysis/claims/readings.py scores a candidate,
a table at a time (the readings pool a case's tables, under one larger bound): z of each published
cell from FIRST_SCORED on, with the published mean's own standard error at 200 runs; the baseline
fits when the mean z^2 is at most FIT_LIMIT and no abs(z) passes the Bonferroni bound of the cells
scored. The status of a table (analysis/claims/status.py) reads this fit. Beside it, whether some R
of a log grid from R_cap / 4 to 2 R_cap fits (R_cap the largest R the runs cover at the table's last
time; a larger R is scored on the cells the runs reach): the readings' own rule, which asks whether
the search can match the published curve at any machine speed. That R is a diagnostic of the
reading, never a reading of the table: it is not printed. And each other published column, by the
same test at its matched work, t x R x rho(column), its largest abs(z) against the Bonferroni bound
over all the other columns' cells (one family): are the compared searches' published curves ours
where the baseline's is? (rho is this engine's, the table's config's: issue 75 measures the clock on
the authors' kind of engine.)
"""

from __future__ import annotations

import dataclasses
import sys
from dataclasses import dataclass

import numpy as np

from analysis.claims.basis import FIRST_SCORED
from analysis.claims.readings import FIT_LIMIT, PUBLISHED_RUNS, cell, worst_bound
from analysis.stats import best_at
from nrpa.errors import InputError

GRID = 61  # R values on the log grid [R_cap / 4, 2 R_cap]


@dataclass(frozen=True)
class CampaignFit:
    rate: float
    rate_cap: float
    cells: int  # scored cells the runs reach at ``rate``
    mean_z2: float
    max_z: float
    bound: float
    runs: int = 0  # the fewest runs a baseline column has (0: not said)
    columns: tuple[str, ...] = ()  # the baseline columns scored
    clock: str = ""  # "": read at ``rate`` (R, or R x rho); else the clock read at (engines.clock_fits)

    @property
    def fits(self) -> bool:
        return self.mean_z2 <= FIT_LIMIT and self.max_z <= self.bound

    def text(self) -> str:
        """"the published baseline does not fit at R = 433 (50 runs a column, 13 cells: ...)"."""
        verb = "fits" if self.fits else "does not fit"
        sign = "<=" if self.max_z <= self.bound else ">"
        runs = f"{self.runs} runs a column, " if self.runs else ""
        at = f"at {self.clock}" if self.clock else f"at R = {self.rate:,.0f}"
        return (f"the published baseline {verb} {at} ({runs}{self.cells} cells: mean z^2 "
                f"{self.mean_z2:.2f}, largest abs(z) {self.max_z:.2f} {sign} {self.bound:.2f})")


def rate_cap(published: dict[str, tuple], budget: float) -> float:
    """The largest R whose last published time ``budget`` playouts cover."""
    return budget / max(float(np.max(times)) for times, _ in published.values())


def score_at(rate: float, traces: dict[str, list[tuple]], published: dict[str, tuple], budget: float,
             scale: float = 1.0) -> CampaignFit:
    """The fit at machine speed ``rate`` on the scored cells ``budget`` playouts reach.
    ``traces``: column -> runs' (playouts, scores); ``published``: column -> (times, values)."""
    zs = []
    for column, (times, values) in published.items():
        times = np.asarray(times, dtype=float)
        keep = (times >= FIRST_SCORED - 1e-9) & (times * rate <= budget * (1 + 1e-9))
        matrix = np.array([best_at(p, s, times[keep] * rate) for p, s in traces[column]]) * scale
        zs += [cell(matrix[:, k], float(value), PUBLISHED_RUNS)["z"]
               for k, value in enumerate(np.asarray(values, dtype=float)[keep])]
    zs = np.abs(np.array(zs, dtype=float))
    return CampaignFit(float(rate), rate_cap(published, budget), len(zs), float(np.square(zs).mean()), float(zs.max()), worst_bound(len(zs)))


def best_fit(traces: dict[str, list[tuple]], published: dict[str, tuple], budget: float,
             scale: float = 1.0) -> CampaignFit:
    """The R of the grid that fits on the most cells, then with the least mean z^2; where none
    fits, the one whose largest abs(z) is the least above its bound."""
    cap = rate_cap(published, budget)
    fits = [score_at(rate, traces, published, budget, scale)
            for rate in np.exp(np.linspace(np.log(cap / 4), np.log(cap * 2), GRID))]
    fitting = [fit for fit in fits if fit.fits]
    if fitting:
        return min(fitting, key=lambda fit: (-fit.cells, fit.mean_z2))
    return min(fits, key=lambda fit: fit.max_z - fit.bound)


def table_fit(name: str, overrides=()) -> tuple[CampaignFit, bool, dict[str, CampaignFit]]:
    """The campaign table ``name``'s baseline fit at the table's R (report.published_rate.R, the one R
    its claims, snapshot and reproduction row read) on the runs the store and the archive hold, as the
    claims read them (up to 200 a column); whether some R of the grid [R_cap / 4, 2 R_cap] fits (the
    readings' rule: the search itself can match the published curve at some machine speed); and each
    other published column's fit by the same test at its matched work, t x R x rho(column) (column ->
    fit: are the compared searches' published curves ours where the baseline's is?)."""
    from analysis.claims.decide import PrefixSource
    from experiments.paper_campaign import table_experiment
    from experiments.root_parallel import axis_trace

    experiment = table_experiment(name, list(overrides))
    source = PrefixSource(experiment, cap=PUBLISHED_RUNS)
    rate, reference = experiment.published_rate, source.reference
    times = reference["time"].to_numpy(dtype=float)
    found = {column: source.runs.records.get(column, []) for column in reference.columns[1:]}
    missing = [column for column in rate.fit_on if not found.get(column)]
    if missing:
        raise InputError(f"{name}: no runs of {', '.join(missing)} (make campaign)")
    traces = {column: [axis_trace(record, "playouts") for record in records] for column, records in found.items() if records}
    published = {column: (times, reference[column].to_numpy(dtype=float)) for column in traces}

    def budget(columns) -> float:
        return min(record["result"]["playouts"] for column in columns for record in found[column])

    base = {column: published[column] for column in rate.fit_on}
    base_budget = budget(rate.fit_on)
    at_rate = score_at(rate.R, traces, base, base_budget, experiment.value_scale)
    some = best_fit(traces, base, base_budget, experiment.value_scale).fits
    others = {column: dataclasses.replace(
                  score_at(rate.R * rate.rho(column), traces, {column: published[column]}, budget([column]),
                           experiment.value_scale), runs=len(found[column]), columns=(column,))
              for column in traces if column not in rate.fit_on}
    others = one_family(others)
    fit = dataclasses.replace(at_rate, runs=min(len(found[column]) for column in rate.fit_on), columns=tuple(rate.fit_on))
    return fit, some, others


def one_family(fits: dict[str, CampaignFit]) -> dict[str, CampaignFit]:
    """The other columns' fits as one family: each column's largest abs(z) against the Bonferroni bound
    over all their cells (seven columns each at its own bound would call one off by chance up to a
    third of the time)."""
    if not fits:
        return {}
    bound = worst_bound(sum(fit.cells for fit in fits.values()))
    return {column: dataclasses.replace(fit, bound=bound) for column, fit in fits.items()}


def tables() -> list[str]:
    """The campaign's time tables, in its order."""
    from experiments.paper_campaign import QUEUE

    return list(dict.fromkeys(name for name, _ in QUEUE))


def main(argv: list[str] | None = None) -> int:
    from experiments.config import exit_on_input_error

    overrides = list(sys.argv[1:] if argv is None else argv)
    try:  # every table's fit first, so that a bad override is said before any output
        fits = {name: table_fit(name, overrides) for name in tables()}
    except InputError as error:
        exit_on_input_error(error)
    print("| table | baseline | runs a column | R (the table's) | cells scored | mean z^2 | largest abs(z) | bound | "
          "fits at R | some R of [R/4, 2R] fits | the other columns that fit at R x rho |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for name, (fit, some, others) in fits.items():
        fitting = [column for column, other in others.items() if other.fits]
        print(f"| {name} | {', '.join(fit.columns)} | {fit.runs} | {fit.rate:,.0f} | {fit.cells} | {fit.mean_z2:.2f} | "
              f"{fit.max_z:.2f} | {fit.bound:.2f} | {'yes' if fit.fits else 'no'} | {'yes' if some else 'no'} | "
              f"{len(fitting)} of {len(others)}{': ' + ', '.join(fitting) if fitting else ''} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
