"""Each column's playouts per CPU-second relative to its baseline's: rho, for matched time.

    python -m experiments.rates experiment=stabilized_table1 --seconds 16 --rounds 4
    make rates EXPERIMENT=stabilized_table1 ARGS="--seconds 16 --rounds 4"

A published time table compares its columns at the same time ("given the same computation
time"), and its columns do not cost the same per playout: SNRPA(P) adapts once per P
playouts, a selective playout rule does more (or less) work per move. So at matched time a
column gets the work the paper's machine did *for that column* in t seconds: t x R x rho
playouts, R the published runs' rate fitted on the baseline column(s)
(report.published_rate.R, fit_on) and rho the column's playouts per CPU-second over its
baseline's on this engine (report.published_rate.relative). rho is a ratio of two columns
on one engine, measured here as every speed figure of this project is: in one process,
interleaved (each round runs every column once, the order reversed every other round, so a
drift of the machine's speed favours no column), each run a search at the paper's settings
for ``--seconds`` CPU-seconds (the CPU time a baseline run of the whole table takes on this
engine is the span that the table's last checkpoint averages over), with the round's ratio
per column. The summary is the geometric mean of the rounds' ratios with a 95% Student-t
interval on their logarithms. It prints the YAML to put under report.published_rate in
conf/experiment/NAME.yaml.

A column's baseline is the fit_on column that shares most of its overrides
(Weak Schur: ws_rule_6 against ws_6, the same K); a fit_on column has rho = 1 by definition.
"""

from __future__ import annotations

import argparse
import math
import platform
import sys
from dataclasses import replace
from datetime import date

import numpy as np
from scipy import stats

from experiments.config import exit_on_input_error
from experiments.experiment import Experiment, Variant, load_experiment
from experiments.runs import Job, execute_run
from experiments.store import code_version
from nrpa.errors import InputError


def baseline_of(variant: Variant, experiment: Experiment) -> Variant:
    """The fit_on column ``variant`` is measured against: the one sharing most of its
    overrides (InputError when two share as many: the config must say)."""
    fit_on = experiment.published_rate.fit_on
    bases = [v for v in experiment.variants if v.label in fit_on]
    shared = [len(set(variant.overrides) & set(base.overrides)) for base in bases]
    best = [base for base, n in zip(bases, shared) if n == max(shared)]
    if len(best) != 1:
        raise InputError(f"{experiment.name}: column {variant.label} shares as many overrides with "
                         f"{', '.join(b.label for b in best)}: no single baseline to measure it against")
    return best[0]


def measured_rate(variant: Variant, seconds: float, round_number: int) -> float:
    """Playouts per CPU-second of one search of ``variant``'s job for ``seconds`` CPU-seconds
    (its repeat ``round_number`` of a job budgeted so: its own seed)."""
    settings = replace(variant.job.settings, max_time=seconds, max_playouts=None, clock="cpu")
    record = execute_run(Job(variant.job.domain_options, settings), round_number)
    return record["result"]["playouts"] / record["result"]["cpu_seconds"]


def geometric_summary(ratios: list[float]) -> tuple[float, float, float]:
    """The geometric mean of ``ratios`` and its 95% Student-t interval (on the logarithms)."""
    logs = np.log(ratios)
    mean = float(logs.mean())
    half = float(stats.t.ppf(0.975, len(logs) - 1) * logs.std(ddof=1) / math.sqrt(len(logs)))
    return math.exp(mean), math.exp(mean - half), math.exp(mean + half)


def measure(experiment: Experiment, seconds: float, rounds: int, say=print) -> dict[str, tuple]:
    """Per non-baseline column: (rho, its 95% interval, the baseline's label, the rounds' ratios)."""
    for variant in experiment.variants:  # compile (or load the cache) before any run counts
        warm_up = replace(variant.job.settings, max_time=0.05, max_playouts=None, clock="cpu")
        execute_run(Job(variant.job.domain_options, warm_up), 0)
    ratios = {v.label: [] for v in experiment.variants if v.label not in experiment.published_rate.fit_on}
    for round_number in range(rounds):
        order = experiment.variants if round_number % 2 == 0 else experiment.variants[::-1]
        rates = {v.label: measured_rate(v, seconds, round_number) for v in order}
        for variant in experiment.variants:
            if variant.label in ratios:
                ratios[variant.label].append(rates[variant.label] / rates[baseline_of(variant, experiment).label])
        say(f"round {round_number + 1}: " + ", ".join(f"{label} {rate:,.0f}" for label, rate in rates.items())
            + " playouts per CPU-second")
    return {variant.label: (*geometric_summary(ratios[variant.label]), baseline_of(variant, experiment).label,
                            ratios[variant.label])
            for variant in experiment.variants if variant.label in ratios}


def cpu_model() -> str:
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def yaml_block(experiment: Experiment, found: dict, seconds: float, rounds: int, when: str) -> str:
    commit = str(code_version().get("git_commit"))[:7]
    lines = ["    relative:  # rho: a column's playouts per CPU-second over its baseline's on this engine "
             "(experiments/rates.py); matched time runs t as t x R x rho playouts",
             f"      measured: \"python -m experiments.rates experiment={experiment.name} --seconds {seconds:g} "
             f"--rounds {rounds} ({when}, {cpu_model()}, code {commit})\"",
             "      columns:"]
    for label, (rho, low, high, against, ratios) in found.items():
        lines.append(f"        {label}: {{rho: {rho:.3g}, ci_low: {low:.3g}, ci_high: {high:.3g}, against: {against}}}"
                     f"  # rounds: {', '.join(f'{r:.3f}' for r in ratios)}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("overrides", nargs="+", help="experiment=NAME (a published time table) and any overrides")
    parser.add_argument("--seconds", type=float, default=10.0, help="CPU-seconds per run (default 10)")
    parser.add_argument("--rounds", type=int, default=4, help="rounds, each running every column once (default 4)")
    arguments = parser.parse_args(argv)
    try:
        if arguments.rounds < 2 or not arguments.seconds > 0:
            raise InputError(f"--rounds {arguments.rounds} --seconds {arguments.seconds:g}: at least 2 rounds "
                             "(an interval needs two ratios) of more than 0 seconds")
        experiment = load_experiment([*arguments.overrides, "scale=paper"])
        if experiment.published_rate is None:
            raise InputError(f"{experiment.name} states no published runs' rate (report.published_rate): "
                             "rho is measured for a published time table's columns")
        found = measure(experiment, arguments.seconds, arguments.rounds)
    except InputError as error:
        exit_on_input_error(error)
    print(yaml_block(experiment, found, arguments.seconds, arguments.rounds, date.today().isoformat()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
