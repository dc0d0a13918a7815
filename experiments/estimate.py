"""Print what an experiment will cost before it starts (`make table4` calls this first).

    python -m experiments.estimate experiment=stabilized_table4 scale=quick
"""

from __future__ import annotations

import os
import statistics
import sys
from collections import Counter

from experiments.config import exit_on_input_error
from experiments.experiment import load_experiment
from experiments.valid_runs import read_and_judge
from nrpa.errors import InputError


def cost(experiment) -> tuple[int, int, float | None, int]:
    """(runs in all, runs still to make, seconds of search they need or None when it cannot be
    told, worker processes). A root run counts as its K member runs. A run budgeted in time costs
    its budget; one budgeted in playouts (matched_work) what its column's stored runs took, their
    median CPU-seconds (None while a column with runs to make has none stored)."""
    runs = sum(v.repeats * v.root for v in experiment.variants)
    missing, seconds = [], 0.0
    for variant in experiment.variants:
        stored = [run.record for run in read_and_judge(experiment.store, experiment.run_paths(variant),
                                                       experiment.starved_rule) if run.record is not None]
        missing.append(variant.repeats * variant.root - len(stored))
        budget = variant.job.settings.max_time
        if budget is None and missing[-1] and variant.job.settings.max_playouts and stored and seconds is not None:
            budget = statistics.median(float(r["result"]["cpu_seconds"]) for r in stored)
        seconds = None if seconds is None or (budget is None and missing[-1]) else seconds + (budget or 0.0) * missing[-1]
    return runs, sum(missing), seconds, experiment.backend["n_jobs"] or os.cpu_count() or 1


ASK_OVER = 3600.0  # seconds of wall time: a longer command asks before it starts, on a terminal


def wall_seconds(costs: tuple) -> float | None:
    """About how long the runs the store lacks take on this machine, from an experiment's
    ``cost`` (None: runs without a time budget)."""
    _, _, seconds, workers = costs
    return None if seconds is None else seconds / workers


def on_terminal() -> bool:
    """Whether a person can answer: standard input and output are a terminal."""
    return sys.stdin.isatty() and sys.stdout.isatty()


def confirm(seconds: float | None, workers: int, yes: bool = False, unpriced: int = 0) -> None:
    """Ask before a command that takes over an hour (ASK_OVER) starts, or ``unpriced`` runs whose
    time cannot be told (budgets in playouts, no stored run to read a cost off); an answer other
    than y ends it (status 1). Only a person at a terminal is asked: ``yes`` (--yes), YES=1 in the
    environment (`make table4 YES=1`) or a standard input or output that is not a terminal
    (CI, a cluster job, a pipe) starts it at once."""
    long = seconds is not None and seconds > ASK_OVER
    unknown = seconds is None and unpriced > 0
    if (not (long or unknown) or yes or os.environ.get("YES", "").strip().lower()
            in ("1", "y", "yes", "true") or not on_terminal()):
        return
    question = (f"This takes about {duration(seconds)} on {workers} worker process{'es' if workers > 1 else ''}. "
                "Start? [y/N] " if long else
                f"The time of these {unpriced} runs cannot be told before the first ones end. Start? [y/N] ")
    try:
        answer = input(question)
    except EOFError:
        answer = ""
    if answer.strip().lower() not in ("y", "yes"):
        print("Not started (YES=1, or --yes, starts it without asking).", file=sys.stderr)
        sys.exit(1)


def estimate(overrides: list[str]) -> str:
    return describe(load_experiment(overrides))


def describe(experiment, costs: tuple | None = None) -> str:
    """The experiment's runs, those the store lacks, and what they cost, in words (``costs``:
    its ``cost`` when the caller has it already: it reads every run file's place in the store)."""
    runs, to_make, seconds, workers = costs or cost(experiment)
    lines = [
        f"{experiment.name} at scale {experiment.scale}: {len(experiment.variants)} jobs "
        f"({_columns(experiment)}), {runs} runs in all, "
        f"{runs - to_make} already in the store, {to_make} to make."
    ]
    playouts = sorted({v.job.settings.max_playouts for v in experiment.variants if v.job.settings.max_time is None})
    if seconds is not None and playouts and None not in playouts:
        lines.append(
            f"Cost: about {seconds / 3600:.2f} CPU-hours (runs budgeted in playouts, matched time: each column's "
            f"stored runs' median CPU-seconds a run), about {duration(seconds / workers)} on {workers} worker "
            f"process{'es' if workers > 1 else ''}.")
    elif seconds is None and experiment.matched_work and None not in playouts:
        lines.append(f"Cost: runs are budgeted in playouts (matched time: {', '.join(f'{p:,}' for p in playouts)} a "
                     "run, the published work of max_time for each column, max_time x R x max(1, rho)), so their "
                     "time is this machine's: it cannot be estimated before the first runs.")
    elif seconds is None:
        lines.append("Cost: runs have no time budget, so it cannot be estimated.")
    else:
        lines.append(
            f"Cost: {seconds / 3600:.2f} hours of run budgets, about {duration(seconds / workers)} "
            f"on {workers} worker process{'es' if workers > 1 else ''} (plus a few seconds per job to start)."
        )
    return "\n".join(lines)


def _columns(experiment) -> str:
    """The columns once each, with their number of jobs when there are several (boards)."""
    counts = Counter(v.label for v in experiment.variants)
    return ", ".join(label if n == 1 else f"{label}: {n} jobs" for label, n in counts.items())


def duration(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 2 * 3600:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


if __name__ == "__main__":
    try:
        print(estimate(sys.argv[1:]))
    except InputError as error:
        exit_on_input_error(error)
