"""The readings' test, read again on the campaign's runs: does each chosen reading's baseline column
still fit the published one at the campaign's sample (50 to 200 runs a column, where the readings
chose on 10 to 20)?

    python -m analysis.claims.campaign_fit [outputs_dir=...]        (reads the store and the archive)

For each time table of the campaign (experiments/paper_campaign.py) whose claims rest on a reading,
its baseline columns (those analysis/readings.yaml fits R on) are scored as
analysis/claims/readings.py scores a candidate, a table at a time (the readings pool a case's
tables, under one larger bound): z of each published cell from FIRST_SCORED on, with the published
mean's own standard error at 200 runs; the reading fits when the mean z^2 is at most FIT_LIMIT and
no abs(z) passes the Bonferroni bound of the cells scored. The campaign's runs stop at t x R x rho
playouts of the table's last time, R the stated speed, so a larger R is scored on the cells the runs
reach (the last dropped): R runs over a log grid from R_cap / 4 to 2 R_cap, R_cap the largest R the
runs cover at the last time, and the R reported is the one that fits on the most cells (the
strongest test), then with the least mean z^2, or, where none fits, the one whose largest abs(z) is
the least above its bound. Fewer cells make a weaker test: the row says how many.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

import numpy as np

from analysis.claims.basis import FIRST_SCORED
from analysis.claims.readings import FIT_LIMIT, PUBLISHED_RUNS, cell, worst_bound
from analysis.stats import best_at
from nrpa.errors import InputError

# table -> its baseline columns, those of analysis/readings.yaml's cases (Stabilized Table 3 has no
# reading that fits: its claims are not judged, so it is left out)
BASELINES = {"stabilized_table4": ("NRPA",), "selective_table3": ("no_tabu",), "stabilized_table1": ("NRPA",),
             "selective_table2": ("no_delta",), "selective_table5": ("ws_6", "ws_7"),
             "selective_table6": ("ws_8", "ws_9")}
GRID = 61  # R values on the log grid [R_cap / 4, 2 R_cap]


@dataclass(frozen=True)
class CampaignFit:
    rate: float
    rate_cap: float
    cells: int  # scored cells the runs reach at ``rate``
    mean_z2: float
    max_z: float
    bound: float

    @property
    def fits(self) -> bool:
        return self.mean_z2 <= FIT_LIMIT and self.max_z <= self.bound


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


def table_fit(name: str, overrides=()) -> tuple[CampaignFit, int]:
    """The campaign table ``name``'s baseline fit on the runs the store and the archive hold, and
    the fewest runs a baseline column has."""
    from analysis.claims.decide import PrefixSource
    from experiments.paper_campaign import table_experiment
    from experiments.root_parallel import axis_trace

    experiment = table_experiment(name, list(overrides))
    source = PrefixSource(experiment, cap=PUBLISHED_RUNS)
    found = {column: source.runs.records.get(column, []) for column in BASELINES[name]}
    if not all(found.values()):
        raise SystemExit(f"{name}: no runs of {', '.join(c for c, r in found.items() if not r)} (make campaign)")
    budget = min(record["result"]["playouts"] for records in found.values() for record in records)
    reference = source.reference
    times = reference["time"].to_numpy(dtype=float)
    published = {column: (times, reference[column].to_numpy(dtype=float)) for column in found}
    traces = {column: [axis_trace(record, "playouts") for record in records] for column, records in found.items()}
    return best_fit(traces, published, budget, experiment.value_scale), min(map(len, found.values()))


def main(argv: list[str] | None = None) -> int:
    from experiments.config import exit_on_input_error

    overrides = list(sys.argv[1:] if argv is None else argv)
    try:  # every table's fit first, so that a bad override is said before any output
        fits = {name: table_fit(name, overrides) for name in BASELINES}
    except InputError as error:
        exit_on_input_error(error)
    print("| table | baseline | runs a column | R cap | R | cells scored | mean z^2 | largest abs(z) | bound | fits |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, columns in BASELINES.items():
        fit, runs = fits[name]
        print(f"| {name} | {', '.join(columns)} | {runs} | {fit.rate_cap:,.0f} | {fit.rate:,.0f} | {fit.cells} | "
              f"{fit.mean_z2:.2f} | {fit.max_z:.2f} | {fit.bound:.2f} | {'yes' if fit.fits else 'no'} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
