"""The papers' time tables at their own scale: a campaign that fills each table's columns with
runs at matched time (the basis the claims compare on), in a stated order, within a CPU budget,
and survives every stop.

    python -m experiments.paper_campaign [--budget 6h] [--status]      (make campaign BUDGET=6h)

Order and targets (runs a column): Stabilized Table 4 and Selective Table 3 to 200, then
Stabilized Table 1, Selective Tables 2, 5 and 6, Stabilized Table 3 to 50 each, then those five to
the paper's 200 in the same order (QUEUE; the status counts against each table's last target). Each
table runs under its experiment's config (conf/experiment/<name>.yaml: the readings its claims
rest on, analysis/readings.yaml), scale=paper, matched_work=true: t x R x rho playouts a column.

How it survives a stop: runs are made STEP a column at a time, round the columns of one table
(``experiments.sweep.make_runs``: the runs the store lacks, one worker process a core); a run
file is written when its run ends, so a kill loses only the runs in flight, and the next start
makes only what is missing. After each step the finished runs are packed into archive/ (a new
pack: commit it, or another machine cannot reuse them). A lock (outputs/.campaign.lock) keeps a
second campaign from starting beside a running one, so no core runs two searches. CI never runs
it. ``--status`` prints where each table stands and does nothing else.
"""

from __future__ import annotations

import argparse
import fcntl
import os
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from experiments.archive import pack
from experiments.config import exit_interrupted, exit_on_input_error
from experiments.experiment import Experiment, load_experiment
from experiments.store import default_archive_dir
from experiments.valid_runs import read_and_judge
from nrpa import interrupt
from nrpa.errors import InputError

QUEUE = (("stabilized_table4", 200), ("selective_table3", 200), ("stabilized_table1", 50),
         ("selective_table2", 50), ("selective_table5", 50), ("selective_table6", 50),
         ("stabilized_table3", 50),
         # the second pass: the five tables at 50 to the paper's 200, in the same order
         ("stabilized_table1", 200), ("selective_table2", 200), ("selective_table5", 200),
         ("selective_table6", 200), ("stabilized_table3", 200))
STEP = 20  # runs a column per step: a pack after each


@dataclass(frozen=True)
class Column:
    """One column of a table: its runs made (the prefix 0 .. n-1 that a report reads), the
    target, and the CPU-seconds of those made."""

    table: str
    label: str
    made: int
    target: int
    cpu_seconds: list[float]

    @property
    def missing(self) -> int:
        return max(0, self.target - self.made)

    def seconds_a_run(self) -> float:
        """The median CPU-seconds of its runs (nan before the first)."""
        return statistics.median(self.cpu_seconds) if self.cpu_seconds else float("nan")


def table_experiment(name: str, overrides=()) -> Experiment:
    return load_experiment([f"experiment={name}", "scale=paper", "matched_work=true", *overrides])


def columns_of(experiment: Experiment, target: int) -> list[Column]:
    """Each column's runs made as a prefix (a report reads a column up to its first missing run)."""
    columns = []
    for variant in experiment.variants:
        seconds = []
        for run in read_and_judge(experiment.store, experiment.run_paths(variant)[:target], experiment.starved_rule):
            if run.record is None:
                break
            seconds.append(float(run.record["result"]["cpu_seconds"]))
        columns.append(Column(experiment.name, variant.label, len(seconds), target, seconds))
    return columns


def status_lines(tables: dict[str, list[Column]], cores: int) -> list[str]:
    """Runs made against the target per table, the CPU-hours they hold, and the time the missing
    ones take on ``cores`` (each column's median run; a column without runs: its table's)."""
    lines, left = [], 0.0
    for name, columns in tables.items():
        made, target = sum(c.made for c in columns), sum(max(c.made, c.target) for c in columns)
        held = sum(sum(c.cpu_seconds) for c in columns) / 3600
        known = [c.seconds_a_run() for c in columns if c.cpu_seconds]
        typical = statistics.median(known) if known else float("nan")
        need = sum(c.missing * (c.seconds_a_run() if c.cpu_seconds else typical) for c in columns) / 3600
        left += need
        fewest = min(c.made for c in columns)
        lines.append(f"{name}: {made:,} of {target:,} runs (fewest in a column: {fewest}), {held:.2f} CPU-h held, "
                     f"{need:.1f} CPU-h to go" if need == need else
                     f"{name}: {made:,} of {target:,} runs, {held:.2f} CPU-h held, time to go unknown (no run yet)")
    lines.append(f"to finish: about {left:.1f} CPU-h, {left / cores:.1f} h on {cores} cores")
    return lines


def run(budget_hours: float, overrides=(), status_only: bool = False) -> int:
    from experiments.sweep import make_runs

    experiments = {name: table_experiment(name, overrides) for name, _ in QUEUE}
    targets = dict(QUEUE)  # a table's last target
    cores = experiments[QUEUE[0][0]].backend.get("n_jobs") or os.cpu_count()  # null: one worker a core
    tables = {name: columns_of(experiments[name], targets[name]) for name in experiments}
    print("\n".join(status_lines(tables, cores)), flush=True)
    if status_only:
        return 0
    spent, started = 0.0, time.time()
    for name, target in QUEUE:
        experiment = experiments[name]
        while True:
            columns = columns_of(experiment, target)
            if not any(c.missing for c in columns) or spent >= budget_hours * 3600:
                break
            step = min(target, min(c.made for c in columns) + STEP)
            wanted = [(experiment, v, max(c.made, step)) for v, c in zip(experiment.variants, columns)]
            print(f"{name}: every column to {step} runs", flush=True)
            records, _ = make_runs(wanted, experiment.backend)
            spent += sum(float(r["result"]["cpu_seconds"]) for r in records)
            folder = default_archive_dir()
            packed = pack(experiment.store, folder, rule=experiment.starved_rule) if folder is not None else None
            if packed is not None and packed.path is not None:
                print(f"packed {packed.runs} runs into {packed.path} (commit it)", flush=True)
            print(f"spent {spent / 3600:.2f} of {budget_hours:g} CPU-h in {(time.time() - started) / 3600:.2f} h",
                  flush=True)
    tables = {name: columns_of(experiments[name], targets[name]) for name in experiments}
    print("\n".join(status_lines(tables, cores)), flush=True)
    return 0


def parse_hours(text: str) -> float:
    """"6h", "90m" or a number of hours."""
    try:
        if text.endswith("h"):
            return float(text[:-1])
        if text.endswith("m"):
            return float(text[:-1]) / 60
        return float(text)
    except ValueError:
        raise InputError(f"--budget {text!r}: CPU-hours as 6h, 90m or 6") from None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("overrides", nargs="*", help="outputs_dir=..., backend.n_jobs=...")
    parser.add_argument("--budget", default="1000h", help="CPU-hours to spend in this start (6h, 90m)")
    parser.add_argument("--status", action="store_true", help="where each table stands; makes nothing")
    arguments = parser.parse_intermixed_args(argv)
    try:
        budget = parse_hours(arguments.budget)
        if budget <= 0:
            raise InputError(f"--budget {arguments.budget}: more than 0 CPU-hours")
        if arguments.status:
            return run(budget, arguments.overrides, status_only=True)
        outputs = table_experiment(QUEUE[0][0], arguments.overrides).store.root
        outputs.mkdir(parents=True, exist_ok=True)
        with open(Path(outputs) / ".campaign.lock", "w") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise InputError(f"a campaign is running already ({outputs / '.campaign.lock'} is held): one at "
                                 "a time, so that no core runs two searches") from None
            return run(budget, arguments.overrides)
    except InputError as error:
        exit_on_input_error(error)
    except KeyboardInterrupt:
        exit_interrupted()


if __name__ == "__main__":
    interrupt.install()
    sys.exit(main())
