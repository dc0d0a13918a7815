"""The harness from Python, for a notebook: one search, and a small sweep beside a paper's columns.

    from analysis.api import search, compare
    run = search(domain="samegame", algo="nrpa", level=2, N=20, max_time=None, max_playouts=2000)
    table = compare(["algo=snrpa", "P=4", "domain.policy=tabu,none"], against="stabilized_table4")

Both take the command line's options and go through the command line's own code, so a bad option
is an InputError with run.py's message, and the runs are the same run files in the same result
store (``outputs_dir``): ``search`` is ``python run.py KEY=VALUE ...`` for one run, ``compare`` is
``python run.py -m ... [against=NAME]`` with its report, and each reuses what the other (or the
command line, or the archive) already made. How-to: docs/howto/notebook.md.

It is in analysis/ because ``compare`` reads the runs with the report's code (analysis/results/report.py)
and experiments/ never imports analysis/ (tests/test_arrows.py), as campaign.py does.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd
from hydra import compose, initialize_config_dir
from hydra.core.override_parser.overrides_parser import OverridesParser
from omegaconf import OmegaConf

from analysis.results.report import write_report
from experiments.cli import column_of, job_from
from experiments.config import register_configs, starved_rule
from experiments.estimate import ASK_OVER, cost, duration, wall_seconds
from experiments.experiment import CONFIG_DIR, check_command_line
from experiments.experiment_targets import experiment_names
from experiments.machine import BusyMachine
from experiments.store import RunStore
from experiments.sweep import load_sweep, make_sweep
from experiments.valid_runs import read_and_judge
from experiments.workers import run_job
from nrpa.errors import InputError, did_you_mean
from nrpa.search import label


@dataclass(frozen=True)
class Search:
    """One run: its best score, what it cost, its certificate (the moves that replay to
    ``best_score`` with the domain's plain rules: ``experiments.runs.verify_record(record)``),
    its run file and the whole record (settings, seed, trace, code version)."""

    best_score: float
    playouts: int
    cpu_seconds: float
    certificate: list
    path: Path
    record: dict = field(repr=False)


def search(*overrides: str, **options) -> Search:
    """One search, as ``python run.py OVERRIDES`` makes it: ``overrides`` are the command line's
    ``key=value`` strings (``"domain.board=3"``), ``options`` the same as keywords (``level=2``;
    None is null). Made once: the same options again read the stored run."""
    given = [*overrides, *(override(key, value) for key, value in options.items())]
    check_command_line(given)  # every option composed and checked, instance files read: run.py's messages
    swept = [o.input_line for o in OverridesParser.create().parse_overrides(given) if o.is_sweep_override()]
    if swept:
        raise InputError(f"search makes one run, and {' '.join(swept)} sweeps several values: use compare()")
    register_configs()
    with initialize_config_dir(config_dir=str(CONFIG_DIR), version_base="1.3"):
        cfg = compose("config", overrides=given)
    if cfg.repeats != 1 or cfg.root != 1:
        raise InputError(f"search makes one run, and repeats={cfg.repeats} root={cfg.root} asks for several: "
                         "use compare(), or run.py")
    # as experiments/cli.run_from_config: the published column the options name sets a matched_work budget
    columns = OmegaConf.to_container(cfg.report.columns) if cfg.report is not None and cfg.report.get("columns") else {}
    job = job_from(cfg, column_of(columns, given))
    rule = starved_rule(cfg)
    store = RunStore(cfg.outputs_dir)
    outcome = run_job(job, 1, store, rule=rule, n_jobs=cfg.backend.n_jobs, backend=cfg.backend.name,
                      address=cfg.backend.address, force=cfg.force, label=label(job.settings),
                      tls=cfg.backend.tls, insecure=cfg.backend.insecure)
    record = next(read_and_judge(store, outcome.paths, rule)).record
    if record is None:  # a wall-clock run that other processes starved of its cores is not kept
        raise BusyMachine("the run was set aside as starved (other processes took its cores): "
                          "search again on a quieter machine")
    result = record["result"]
    return Search(best_score=result["best_score"], playouts=result["playouts"], cpu_seconds=result["cpu_seconds"],
                  certificate=record["certificate"]["moves"], path=outcome.paths[0], record=record)


def compare(overrides: list[str], against: str | None = None, scale: str = "smoke",
            outputs_dir: str | Path | None = None, yes: bool = False) -> pd.DataFrame:
    """The sweep ``python run.py -m OVERRIDES scale=SCALE [against=AGAINST]`` makes, its runs and
    its report (the same files, under outputs_dir/sweeps/, or outputs_dir/tables/ for experiment=NAME
    alone), and its checkpoint tables as one DataFrame: a row per (variant, axis, checkpoint) with
    runs, mean best score, its 95% CI and the published value beside it (the report's own
    columns). ``table.attrs["files"]``: every file the report wrote. Runs the store holds are not
    made again. Over an hour of runs, or runs whose time cannot be told, need ``yes=True``: a notebook
    cannot be asked, as a terminal is."""
    if isinstance(overrides, str) or not all(isinstance(o, str) for o in overrides):
        raise InputError(f"compare takes a list of key=value strings, e.g. [\"algo=snrpa\", \"P=2,4\"], "
                         f"not {overrides!r}")
    given = [*overrides, *([] if any(o.startswith("scale=") for o in overrides) else [f"scale={scale}"]),
             *([] if outputs_dir is None else [f"outputs_dir={outputs_dir}"])]
    check_command_line(given)  # as run.py does before a sweep: every option, value by value
    if against is not None and against not in experiment_names():  # else Hydra's message names experiment=
        raise InputError(f"against={against} is not an experiment: {did_you_mean(against, experiment_names())}")
    costs = cost(load_sweep(given, against))
    seconds = wall_seconds(costs)
    if seconds is not None and seconds > ASK_OVER and not yes:
        raise InputError(f"these runs take about {duration(seconds)} on this machine: compare(..., yes=True) "
                         "starts them (or use a smaller scale)")
    if seconds is None and costs[1] and not yes:
        raise InputError(f"the time of these {costs[1]} runs cannot be told before the first ones end (budgets in "
                         "playouts: matched time, at paper scale a time table's default): compare(..., yes=True) "
                         "starts them (or use a smaller scale)")
    experiment, folder = make_sweep(given, against, yes=True)
    files = write_report(experiment, overrides=given, folder=folder)
    # the time axis's table, then the playouts axis's (each has an axis column): the report's CSVs
    stems = (experiment.output_name, f"{experiment.output_name}_playouts")
    table = pd.concat([pd.read_csv(path) for stem in stems for path in files if path.name == f"{stem}.csv"],
                      ignore_index=True)
    table.attrs["files"] = files
    return table


def override(key: str, value) -> str:
    """A keyword option as the command line writes it: None is null, True is true."""
    text = "null" if value is None else str(value).lower() if isinstance(value, bool) else str(value)
    return f"{key}={text}"
