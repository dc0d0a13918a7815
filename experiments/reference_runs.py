"""Runs of the C++ reference engine on a time table's columns, kept as data of the harness.

    python -m experiments.reference_runs stabilized_table4 --runs 10 [--seconds 163.84 | --playouts N] [--hours 2]
    make reference-runs TABLE=stabilized_table4 ARGS="--runs 10 --hours 2"
    python -m experiments.reference_runs stabilized_table4 --status

Each column of the table (its settings as the harness's paper-scale config has them: board, rule,
level, N, P) is run on the engine (experiments/reference_engine.py) for ``--seconds`` CPU-seconds
(default: the table's last published time: the clock's runs) or ``--playouts`` playouts (runs that
compare the searches at equal playouts, cheaper where the comparison needs many), seeds 1, 2, ...,
``--runs``. The runs go seed by seed,
every column once a round, the columns' order reversed every other round, so that a drift of the
machine's speed favours no column: the work the columns do by each time is compared within rounds.
Each finished run is appended as one JSON line to archive/reference/<table>.jsonl (committed with
the code; a line cut by an interruption is dropped and its run made again), and a run already there
is not made again: the command resumes where it stopped. ``--hours`` stops starting runs after that
much time.
"""

from __future__ import annotations

import argparse
import fcntl
import json
import os
import sys
import time
from pathlib import Path

from experiments.config import exit_on_input_error
from experiments.reference_engine import binary, check_current, run, settings_of
from experiments.store import PROJECT_ROOT
from nrpa.errors import InputError

FOLDER = PROJECT_ROOT / "archive" / "reference"
PLAYOUTS_SEEDS = 1_000_000  # playouts-budget runs take seeds 1,000,001, ... (see make)


def runs_file(table: str, folder: Path = FOLDER) -> Path:
    return folder / f"{table}.jsonl"


def read_runs(table: str, folder: Path = FOLDER) -> list[dict]:
    """The table's finished runs; a last line cut by an interruption is left out."""
    path = runs_file(table, folder)
    if not path.is_file():
        return []
    records = []
    lines = path.read_text().splitlines()
    for number, line in enumerate(lines, start=1):
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError:
            if number == len(lines):
                break  # cut by an interruption: made again
            raise InputError(f"{path}, line {number}: not a run record (JSON); the file is damaged")
    return records


def append_run(table: str, record: dict, folder: Path = FOLDER) -> None:
    """Append one run's line, under a lock (two commands may fill one table: a clock batch and a
    playouts batch), first dropping a last line cut by an interruption."""
    path = runs_file(table, folder)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a+") as stream:
        fcntl.flock(stream, fcntl.LOCK_EX)
        stream.seek(0)
        text = stream.read()
        if text and not text.endswith("\n"):
            stream.truncate(text.rfind("\n") + 1)
        stream.write(json.dumps(record, separators=(",", ":")) + "\n")
        stream.flush()
        os.fsync(stream.fileno())


def table_columns(table: str) -> dict[str, object]:
    """The table's columns (the paper's labels) -> their reference settings."""
    from experiments.paper_campaign import table_experiment

    experiment = table_experiment(table)
    if experiment.published_rate is None:
        raise InputError(f"{table} is not a time table (no report.published_rate)")
    return {variant.label: settings_of(variant.job) for variant in experiment.variants}


def last_time(table: str) -> float:
    """The table's last published time (its transcription under analysis/reference/)."""
    from experiments.paper_campaign import table_experiment
    from experiments.published import load_reference

    return float(load_reference(table_experiment(table).reference)["time"].max())


def budget_of(record: dict) -> tuple[float, int]:
    return float(record["budget"]["cpu_seconds"]), int(record["budget"]["playouts"])


def budget_text(budget: tuple[float, int]) -> str:
    seconds, playouts = budget
    return f"{seconds:g} CPU-s" if seconds else f"{playouts:,} playouts"


def make(table: str, runs: int, budget: tuple[float, int], hours: float, folder: Path = FOLDER, say=print) -> int:
    """Make the missing runs at ``budget`` (CPU-seconds, playouts: one of them 0), seed-major;
    returns how many were made. The engine's runs are its seed's: a playouts run of seed s would
    play the first playouts of the CPU-seconds run of seed s, so playouts runs take seeds from
    PLAYOUTS_SEEDS + 1 on, independent of the clock's runs."""
    columns = table_columns(table)
    for domain in {settings.domain for settings in columns.values()}:
        binary(domain)
    check_current()
    done = {(record["column"], record["seed"], budget_of(record)) for record in read_runs(table, folder)}
    stop_at = time.monotonic() + hours * 3600 if hours else float("inf")
    made = 0
    first = PLAYOUTS_SEEDS if budget[1] else 0
    for seed in range(first + 1, first + runs + 1):
        order = list(columns) if seed % 2 else list(columns)[::-1]
        for column in order:
            if (column, seed, budget) in done:
                continue
            if time.monotonic() >= stop_at:
                say(f"stopped after {hours:g} h: {made} runs made")
                return made
            record = {"table": table, "column": column,
                      **run(columns[column], seed, cpu_seconds=budget[0], playouts=budget[1])}
            append_run(table, record, folder)
            made += 1
            say(f"{table} {column} seed {seed}: {record['end']['playouts']:,} playouts in "
                f"{record['end']['cpu']:.1f} CPU-s, best {record['end']['best']:g}")
    return made


def status(table: str, folder: Path = FOLDER) -> str:
    counts: dict[tuple, int] = {}
    cpu = 0.0
    for record in read_runs(table, folder):
        counts[(budget_of(record), record["column"])] = counts.get((budget_of(record), record["column"]), 0) + 1
        cpu += record["end"]["cpu"]
    lines = [f"{column} to {budget_text(budget)}: {n} runs" for (budget, column), n in sorted(counts.items())]
    return "\n".join([f"{table}: {sum(counts.values())} reference runs, {cpu / 3600:.2f} CPU-h", *lines])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m experiments.reference_runs", description=__doc__.split("\n\n")[0])
    parser.add_argument("table", help="a time table of the campaign, e.g. stabilized_table4")
    parser.add_argument("--runs", type=int, default=10, help="runs of each column, seeds 1..RUNS (playouts runs: "
                        "1,000,001..) (default 10)")
    budgets = parser.add_mutually_exclusive_group()
    budgets.add_argument("--seconds", type=float, default=None, help="CPU-seconds a run (default: the table's last time)")
    budgets.add_argument("--playouts", type=int, default=None, help="playouts a run, instead of CPU-seconds")
    parser.add_argument("--hours", type=float, default=0.0, help="stop starting runs after this long (default: none)")
    parser.add_argument("--status", action="store_true", help="say what the table's runs hold and stop")
    parser.add_argument("--folder", type=Path, default=FOLDER,
                        help="where the runs go (default archive/reference: the engine as built); a folder in "
                             "it keeps another build's runs apart, and its table's engines page shows them beside "
                             "ours (\"The reference engine built otherwise\")")
    args = parser.parse_args(argv)

    try:
        if not args.status:
            if args.runs < 1:
                raise InputError(f"--runs {args.runs}: at least 1")
            if args.playouts is not None:
                if args.playouts < 1:
                    raise InputError(f"--playouts {args.playouts}: at least 1")
                budget = (0.0, args.playouts)
            else:
                seconds = args.seconds if args.seconds is not None else last_time(args.table)
                if seconds <= 0:
                    raise InputError(f"--seconds {seconds}: a positive number of CPU-seconds")
                budget = (seconds, 0)
            make(args.table, args.runs, budget, args.hours, args.folder, say=lambda text: print(text, flush=True))
        print(status(args.table, args.folder))
    except InputError as error:
        exit_on_input_error(error)
    except KeyboardInterrupt:  # the run in flight is lost; every finished one is in the file
        print(f"\ninterrupted: the finished runs are in {runs_file(args.table, args.folder)}; the same command resumes",
              file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
