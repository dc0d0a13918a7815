"""Print what an experiment will cost before it starts (`make table4` calls this first).

    python -m experiments.estimate experiment=stabilized_table4 scale=quick
"""

from __future__ import annotations

import os
import sys
from collections import Counter

from experiments.config import exit_on_input_error
from experiments.experiment import load_experiment
from nrpa.errors import InputError


def cost(experiment) -> tuple[int, int, float | None, int]:
    """(runs in all, runs still to make, seconds of search they need or None when a run has no
    time budget, worker processes). A root run counts as its K member runs."""
    runs = sum(v.repeats * v.root for v in experiment.variants)
    missing = [sum(experiment.store.load_or_set_aside(p) is None for p in experiment.run_paths(v))
               for v in experiment.variants]
    budgets = [v.job.settings.max_time for v in experiment.variants]
    seconds = None if None in budgets else sum(b * n for b, n in zip(budgets, missing))
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


def confirm(seconds: float | None, workers: int, yes: bool = False) -> None:
    """Ask before a command that takes over an hour (ASK_OVER) starts; an answer other than y
    ends it (status 1). Only a person at a terminal is asked: ``yes`` (--yes), YES=1 in the
    environment (`make table4 YES=1`) or a standard input or output that is not a terminal
    (CI, a cluster job, a pipe) starts it at once."""
    if (seconds is None or seconds <= ASK_OVER or yes or os.environ.get("YES", "").strip().lower()
            in ("1", "y", "yes", "true") or not on_terminal()):
        return
    question = (f"This takes about {duration(seconds)} on {workers} worker process{'es' if workers > 1 else ''}. "
                "Start? [y/N] ")
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
    if seconds is None and experiment.matched_work and None not in playouts:
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
