"""Every stored run as one long table, for pandas, seaborn, R or any tool that reads Parquet.

    python -m analysis.results.export scale=quick                                # every experiment and sweep with runs
    python -m analysis.results.export experiment=stabilized_table4 scale=quick   # one experiment

writes outputs/export/runs_<scale>.parquet and .csv (or <experiment>_<scale>.*): one row per
run and checkpoint, at the checkpoints of the experiment's tables, so a mean over a group of
rows is the mean in the table:

  experiment, scale, variant      the table and its column (the paper's column name); a sweep
                                  (outputs/sweeps/<name>/sweep.yaml): its name and swept overrides
  domain, instance, domain_options   the problem (domain_options: its options as JSON)
  algorithm, level, N, alpha, P, parallel, parallel_level, threads, root, clock, max_time,
  max_playouts                    the search's settings (root: K of a root run, 1 otherwise)
  repeat, seed, run_id            which run (a root run: no seed, its members' ids joined by +)
  axis, checkpoint                cpu_seconds, wall_seconds or playouts and the position on it;
                                  axis "final" (checkpoint empty): the run's final best score
  best_score                      the run's best at the checkpoint, in the domain's score
                                  (higher is better; empty before its first solution)
  value                           the same in the table's unit (best_score x value_scale)
  git_commit, git_dirty, source_hash, kernel_hash   the code that made the run
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from analysis.results.report import FIRST_PLAYOUTS, FIRST_TIME, Runs, collect, variant_key
from analysis.stats import best_at, doubling_checkpoints
from experiments.config import overrides_parser, print_outputs
from experiments.experiment import Experiment, experiment_names, load_experiment
from experiments.root_parallel import axis_trace
from experiments.sweep import sweep_folders, sweep_of_folder
from nrpa.errors import InputError

SETTINGS = ("algorithm", "level", "N", "alpha", "P", "parallel", "parallel_level", "threads", "clock", "max_time",
            "max_playouts")
CODE = ("git_commit", "git_dirty", "source_hash", "kernel_hash")


def checkpoint_axes(experiment: Experiment, records: list[dict]) -> list[tuple[str, np.ndarray]]:
    """The axes and checkpoints of the experiment's score-vs-checkpoint tables (none for
    tables of final scores): its time axis from 0.01 s to the shortest budget, and playouts
    from 100 to the fewest any run made, each doubling."""
    if experiment.kind not in ("checkpoints", "speedup") or not records:
        return []
    clocks = {v.job.settings.clock for v in experiment.variants}
    time_axis = "wall_seconds" if clocks == {"wall"} or experiment.kind == "speedup" else "cpu_seconds"
    axes = []
    budgets = [v.job.settings.max_time for v in experiment.variants if v.job.settings.max_time]
    if budgets and min(budgets) >= FIRST_TIME:
        axes.append((time_axis, doubling_checkpoints(FIRST_TIME, min(budgets))))
    fewest = min(r["result"]["playouts"] for r in records)
    if fewest >= FIRST_PLAYOUTS:
        axes.append(("playouts", doubling_checkpoints(FIRST_PLAYOUTS, fewest)))
    return axes


def run_rows(experiment: Experiment, runs: Runs | None = None) -> list[dict]:
    """The rows of every stored run of ``experiment`` (root runs as their members' best);
    ``runs``: its runs, when the caller has collected them already."""
    runs = collect(experiment) if runs is None else runs
    every = [record for records in runs.records.values() for record in records]
    axes = checkpoint_axes(experiment, every)
    rows = []
    for variant in experiment.variants:
        for record in runs.records[variant_key(experiment, variant)]:
            settings, domain = record["settings"], dict(record["config"]["domain"])
            root = record.get("root", 1)
            common = {
                "experiment": experiment.name, "scale": experiment.scale, "variant": variant.label,
                "domain": domain.pop("name"), "instance": record["domain_info"].get("instance", ""),
                "domain_options": json.dumps(domain, sort_keys=True),
                **{key: settings.get(key) for key in SETTINGS}, "root": root,
                "repeat": record["repeat"], "seed": settings["seed"] if root == 1 else None,
                "run_id": record["run_id"] if root == 1 else "+".join(record["members"]),
                **{key: record["code_version"].get(key) for key in CODE},
            }
            points = [(axis, checkpoints, best_at(*axis_trace(record, axis), checkpoints))
                      for axis, checkpoints in axes]
            points.append(("final", [np.nan], [record["result"]["best_score"]]))
            for axis, checkpoints, scores in points:
                rows += [{**common, "axis": axis, "checkpoint": float(checkpoint), "best_score": float(score),
                          "value": float(score) * experiment.value_scale}
                         for checkpoint, score in zip(checkpoints, scores)]
    return rows


def run_table(rows: list[dict]) -> pd.DataFrame:
    """The long table of ``run_rows``' rows, with nullable integers where a run may have none
    (a root run has no seed, most runs no playout budget)."""
    return pd.DataFrame(rows).astype({"seed": "Int64", "max_playouts": "Int64"})


def export(overrides: list[str]) -> list[Path]:
    """Write the long table of the experiment named in ``overrides`` (or of every experiment
    and every sweep with runs at the scale given); return the Parquet and CSV paths."""
    named = any(o.startswith("experiment=") for o in overrides)
    names = [None] if named else experiment_names()
    rows, scale, root = [], None, None
    for name in names:
        experiment = load_experiment(overrides if named else [f"experiment={name}", *overrides])
        scale, root = experiment.scale, experiment.store.root
        rows += run_rows(experiment)
    if not named:  # the sweeps of `run.py -m` at the scale (experiments/sweep.py)
        rows += [row for folder in sweep_folders(root, scale) for row in run_rows(sweep_of_folder(folder, against=False))]
    if not rows:
        raise InputError(f"no runs at scale {scale} under {root}: run an experiment first "
                         "(`make table4 SCALE=quick`)")
    frame = run_table(rows)
    stem = root / "export" / (f"{experiment.name}_{scale}" if named else f"runs_{scale}")
    stem.parent.mkdir(parents=True, exist_ok=True)
    paths = [stem.with_suffix(".parquet"), stem.with_suffix(".csv")]
    frame.to_parquet(paths[0], engine="pyarrow", index=False)
    frame.to_csv(paths[1], index=False)
    return paths


def main(argv: list[str] | None = None) -> int:
    parser = overrides_parser(__doc__, "scale=S, optionally experiment=NAME, and any other overrides")
    arguments = parser.parse_args(argv)
    return print_outputs(lambda: export(arguments.overrides))


if __name__ == "__main__":
    sys.exit(main())
