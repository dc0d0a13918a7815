"""At what budget would our runs average a published mean? For a row whose paper states no
budget per game (the Morpion paper's NRPA(3): "no time limit" is our reading, and Table 3's
"avg. game time 16:40" is exactly 1,000 s), the budget at which our complete runs, cut
there, average the published mean: read off each run's trace of improvements.

    python -m analysis.budget_fit experiment=morpion_table2 scale=paper --column "NRPA(3)" --target 68.2

prints, per column, its runs, the budget (on the playouts axis, or --axis cpu_seconds) at
which the mean best score so far first reaches the target, its 95% bootstrap interval (runs
resampled), and the mean at the end of the runs. The budget is exact: the mean changes only
where some run improves, so it is read at every position any run's trace records. Runs of one
game only: a run of several games (games > 1) records the best over its games played one
after another, which is no game's trace. Scores are the run files' (the kernel's unit). Never
runs a search.
"""

from __future__ import annotations

import sys

import numpy as np

from analysis.results.report import collect
from analysis.stats import best_at
from analysis.results.targets import bootstrap_budget_for_mean, budget_for_mean
from experiments.config import exit_on_input_error, overrides_parser
from experiments.experiment import load_experiment
from experiments.root_parallel import axis_trace
from experiments.runs import game_count
from nrpa.errors import InputError, did_you_mean

AXES = ("playouts", "cpu_seconds", "wall_seconds")


def fit(overrides: list[str], columns: list[str], target: float, axis: str) -> list[dict]:
    """One row per column: runs, budget, its bootstrap interval, the final mean."""
    runs = collect(load_experiment(overrides))
    for column in columns:
        if column not in runs.records:
            raise InputError(f"--column {column!r}: {did_you_mean(column, sorted(runs.records))}")
    rows = []
    for column in columns:
        records = runs.records[column]
        several = sorted({game_count(record) for record in records} - {1})
        if several:
            raise InputError(f"--column {column!r}: its runs play {several[0]} games each; a budget per game "
                             "needs runs of one game (their traces are the games')")
        traces = [axis_trace(record, axis) for record in records]
        traces = [(positions, scores) for positions, scores in traces if len(positions)]
        if not traces:
            raise InputError(f"--column {column!r}: no runs with a trace at this scale")
        grid = np.unique(np.concatenate([np.asarray(positions, dtype=float) for positions, _ in traces]))
        best = np.array([best_at(positions, scores, grid) for positions, scores in traces])
        low, high = bootstrap_budget_for_mean(best, grid, target)
        rows.append({"column": column, "runs": len(traces), "budget": budget_for_mean(best, grid, target),
                     "low": low, "high": high, "final_mean": float(best[:, -1].mean())})
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = overrides_parser(__doc__, "experiment=NAME scale=S, and any other overrides")
    parser.add_argument("--column", action="append", required=True, help="a column's label (repeatable)")
    parser.add_argument("--target", type=float, required=True, help="the published mean, in the run files' unit")
    parser.add_argument("--axis", default="playouts", choices=AXES, help="the budget's axis (default: playouts)")
    arguments = parser.parse_args(argv)
    try:
        rows = fit(arguments.overrides, arguments.column, arguments.target, arguments.axis)
    except InputError as error:
        exit_on_input_error(error)
    for row in rows:
        print(f"{row['column']}: {row['runs']} runs average {arguments.target:g} at {row['budget']:,.0f} "
              f"{arguments.axis} (95% bootstrap {row['low']:,.0f}-{row['high']:,.0f}); {row['final_mean']:.2f} at "
              "the runs' end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
