"""Decide the papers' claims under a CPU budget: `make claims BUDGET=6h`.

    python -m analysis.claims.campaign scale=paper --budget 6h          # as `make claims BUDGET=6h`
    python -m analysis.claims.campaign scale=smoke --budget 0.2h --files selective

Instead of a fixed number of runs per column, runs are made in rounds. After each round
every claim is judged again (analysis/claims/decide.py, with anytime-valid p-values: looking after
every round does not inflate false verdicts) and the next round goes to the undecided claims
that are cheapest to decide: a claim with fewer runs than its minimum gets them first
(cheapest first); then, for a claim with an estimate of the runs per column that would decide
it, the CPU-seconds to get there rank it (the smaller, the more a run reduces its
uncertainty per CPU-second), and its columns grow by half their runs (at least MIN_STEP)
toward that estimate. A claim whose estimate is beyond the cap (runs per column), or that
shows no effect to detect, gets no more runs: the report says what it would need; with
--fill it gets them anyway, after the claims with an estimate, its columns growing by half
toward the cap (an estimate read off a few dozen runs can be far off, and more runs narrow the
confidence sequence the report shows; the p-values stay valid however long the loop looks). The
loop stops when every claim is decided or capped, or when the budget is spent. Runs already in
the store or the archive cost nothing; the budget counts the runs this call makes.

Which runs: every experiment runs at SCALE's settings, with two exceptions that make the
verdicts affordable and comparable: a published CPU-time table runs at matched time
(matched_work=true: a 163.84 s claim reads each column at 163.84 x R x rho playouts, R the
published runs' rate and rho the column's relative rate, report.published_rate: the same run
on any machine; where the claims read the reference engine's clock (engines.clock_decision), at W_ref(t / s),
on runs long enough for it: reading_clocks; where the baseline does not tell the two clocks apart,
at both, the second as a verdict beside the first: with_other_clock), and at SCALE=paper an
experiment with budgets of its own per scale (the 20-board tables, the threaded Distributed
NRPA figures, Morpion, SP-MCTS's speed-up) runs its quick budgets (12 CPU-s a board, 2
threads), since its paper budgets are cluster-sized (7200 s a board, 16 threads); pass
--own-paper-budgets on a cluster to keep them.
"""

from __future__ import annotations

import math
import re
import sys
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone

import joblib

from analysis.claims import decide, sequential
from analysis.claims.files import Claim, check_columns, experiment_of, load_claims, load_experiments, resolve
from analysis.claims.judging import NOT_RUN
from analysis.claims.report import claims_report
from analysis.claims.sources import with_neural_sources
from analysis.results.report import write_report
from experiments.config import exit_interrupted, exit_on_input_error, overrides_parser
from experiments.estimate import confirm, cost, describe, wall_seconds
from experiments.experiment import Experiment, load_experiment
from experiments.store import code_version
from experiments.sweep import make_runs
from nrpa import interrupt
from nrpa.errors import InputError

CAP = 200  # the most runs per column a campaign makes: a budget rule (a claim reads every run there is, up
# to its paper's own count: decide.read_limits)
MIN_STEP = 5  # a claim's columns grow by at least this many runs a round
ROUNDS_PER_BUDGET = 6  # a round spends about budget / ROUNDS_PER_BUDGET (progress is seen that often)


def parse_budget(text: str) -> float:
    """CPU-hours from "6h", "0.2h", "90m" or "3600s" (0: judge the stored runs only); InputError otherwise."""
    match = re.fullmatch(r"\s*(\d+(?:\.\d*)?|\.\d+)\s*([hms]?)\s*", str(text))
    if not match:
        raise InputError(f"BUDGET={text!r} is not valid: give CPU time as e.g. 6h, 90m or 3600s")
    value = float(match.group(1)) * {"h": 1.0, "": 1.0, "m": 1 / 60, "s": 1 / 3600}[match.group(2)]
    if value < 0 or value > 10_000:
        raise InputError(f"BUDGET={text!r} is out of range: between 0 (judge the stored runs, make none) "
                         "and 10,000 CPU-hours")
    return value


# --- the loop, on claims' states and columns' run counts (no files: tests/test_sequential.py
# drives it with simulated columns) ---

@dataclass(frozen=True)
class ClaimState:
    id: str
    columns: tuple  # the columns (any hashable keys) whose runs the claim reads
    verdict: str  # supported, contradicted, inconclusive, not judged
    runs_to_decide: float  # paired runs per column; inf: beyond the cap or no effect
    min_runs: int  # runs per column before a verdict can be read


@dataclass
class Plan:
    targets: dict = field(default_factory=dict)  # column -> runs it should have after the round
    cost: float = 0.0  # CPU-seconds the round is expected to take
    claims: list = field(default_factory=list)  # the claims the round is for
    still_needed: float = 0.0  # CPU-seconds that would decide every claim not capped
    capped: list = field(default_factory=list)  # claims that get no more runs


def plan_round(states: list[ClaimState], have: dict, cost: dict, left: float, round_budget: float,
               cap: int, fill: bool = False) -> Plan:
    """The next round's runs: see the module's docstring. ``have``: runs per column now;
    ``cost``: CPU-seconds of one run of a column; ``left``: CPU-seconds of budget left;
    ``fill``: an inconclusive claim beyond the cap grows toward the cap all the same."""
    plan = Plan()
    requests = []
    needed_by_column: dict = {}
    for state in states:
        if state.verdict in ("supported", "contradicted"):
            continue
        if state.verdict == NOT_RUN or not state.columns:  # runs away from the paper's settings decide
            # nothing of it; a claim on no column the campaign grows (the neural pipeline's results) gets none
            plan.capped.append(state.id)
            continue
        runs = min(have[c] for c in state.columns)
        if runs >= cap:
            plan.capped.append(state.id)
            continue
        if runs < state.min_runs:
            target = goal = state.min_runs
        elif state.verdict == "not judged":  # judged on nothing the runs give (the report says why)
            plan.capped.append(state.id)
            continue
        elif math.isfinite(state.runs_to_decide) and state.runs_to_decide <= cap:
            goal = int(state.runs_to_decide)
            target = min(goal, max(runs + MIN_STEP, math.ceil(runs * 1.5)))
        elif fill:  # toward the cap, after every claim with an estimate (ranked by to_goal among them)
            target = min(cap, max(runs + MIN_STEP, math.ceil(runs * 1.5)))
            requests.append((math.inf, sum((cap - have[c]) * cost[c] for c in state.columns), state, target))
            continue
        else:
            plan.capped.append(state.id)
            continue
        for c in state.columns:
            needed_by_column[c] = max(needed_by_column.get(c, 0), goal)
        to_goal = sum(max(0, goal - have[c]) * cost[c] for c in state.columns)
        requests.append((to_goal, 0.0, state, target))
    plan.still_needed = sum(max(0, n - have[c]) * cost[c] for c, n in needed_by_column.items())
    for *_, state, target in sorted(requests, key=lambda request: request[:2]):
        def extra(runs: int) -> float:
            return sum(max(0, runs - max(have[c], plan.targets.get(c, 0))) * cost[c] for c in state.columns)

        room = min(left, round_budget) - plan.cost if plan.claims else left - plan.cost
        runs = min(have[c] for c in state.columns)
        while target > runs and extra(target) > room:
            target -= 1  # what the budget affords of this claim's step
        if target <= runs:
            continue
        if extra(target) <= 0:  # its columns already grow enough for other claims
            plan.claims.append(state.id)
            continue
        plan.cost += extra(target)
        plan.claims.append(state.id)
        for c in state.columns:
            plan.targets[c] = max(plan.targets.get(c, have[c]), target)
        if plan.cost >= round_budget:
            break
    return plan


def adaptive_loop(observe, make, budget: float, cap: int = CAP, say=print, fill: bool = False):
    """Rounds until every claim is decided or capped, or ``budget`` CPU-seconds are spent.
    ``observe()`` -> (claim states, runs per column, CPU-seconds per run of each column);
    ``make(targets)`` makes the runs and returns the CPU-seconds they took. Returns the last
    states, the last plan and the CPU-seconds spent."""
    spent, round_number = 0.0, 0
    round_budget = budget / ROUNDS_PER_BUDGET
    while True:
        states, have, cost = observe()
        plan = plan_round(states, have, cost, budget - spent, round_budget, cap, fill)
        decided = sum(s.verdict in ("supported", "contradicted") for s in states)
        say(f"round {round_number}: {decided} of {len(states)} claims decided, {len(plan.capped)} given no more runs "
            f"(beyond the cap, or not judged on anything runs here would give); CPU spent {spent / 3600:.2f} of "
            f"{budget / 3600:g} h; about {plan.still_needed / 3600:.1f} CPU-h more would decide the others whose "
            f"estimate is within the cap" + (f"; next: {sum(plan.targets.get(c, 0) - have[c] for c in plan.targets)}"
                                            f" runs (~{plan.cost / 3600:.2f} CPU-h) for {', '.join(plan.claims)}"
                                            if plan.targets else "; stopping"))
        if not plan.targets:
            return states, plan, spent
        spent += make(plan.targets)
        round_number += 1


# --- the claims, their experiments and the store ---

def campaign_experiments(claims: list[Claim], scale: str, overrides: list[str], cap: int,
                         own_paper_budgets: bool = False) -> dict[str, Experiment]:
    """Each experiment the claims use, composed as the module's docstring says, with ``cap``
    runs per column."""
    experiments = {}
    for name in dict.fromkeys(experiment_of(claim) for claim in claims):
        base = [f"experiment={name}", f"repeats={cap}", *overrides]
        experiment = load_experiment([*base, f"scale={scale}"])
        if scale == "paper" and experiment.own_budgets and not own_paper_budgets:
            experiment = load_experiment([*base, "scale=quick"])
        if decide.PrefixSource(experiment, 0).published_rate() is not None:
            experiment = load_experiment([*base, f"scale={experiment.scale}", "matched_work=true"])
        check_columns(claims, name, experiment, overrides)
        experiments[name] = experiment
    return experiments


def reading_clocks(experiments: dict[str, Experiment], overrides: list[str], cap: int) -> dict:
    """The tables whose claims read the reference engine's clock (engines.clock_decision, at
    scale=paper, decided on the runs read at t x R x rho): their claims read each column at
    W_ref(t / s), each on runs that reach that work at the last time (their experiment is replaced
    by those runs'). The clock is chosen once, at the start: the runs a campaign makes do not move it."""
    from analysis.claims import engines

    clocks = {}
    for name, experiment in list(experiments.items()):
        if experiment.scale == "paper" and experiment.matched_work and engines.claims_clock(name, overrides) is not None:
            experiments[name], clocks[name] = engines.reading_experiment(name, overrides, first=[f"repeats={cap}"])
    return clocks


class Campaign:
    """The real columns: the experiments' variants, their runs in the store (or archive)."""

    def __init__(self, claims: list[Claim], experiments: dict[str, Experiment], cap: int, scale: str,
                 clocks: dict | None = None):
        self.claims, self.experiments, self.cap, self.scale = claims, experiments, cap, scale
        self.clocks = clocks or {}  # experiment -> the clock its claims read matched time at (reading_clocks)
        # One command line composed every experiment, so they share its backend, except that a
        # threaded experiment's own file sets backend.n_jobs: 1 (its runs go one at a time).
        backends = [experiment.backend for experiment in experiments.values()]
        self.backend = next((b for b in backends if b["n_jobs"] != 1), backends[0])
        self.variants = {(name, decide.variant_key(e, v)): (e, v) for name, e in experiments.items()
                         for v in e.variants}
        self.table = None
        self.sources = None

    def observe(self):
        self.sources = with_neural_sources(
            self.claims, {name: decide.PrefixSource(e, self.cap, decide.read_limits(self.claims, e, self.cap),
                                                    self.clocks.get(name))
                          for name, e in self.experiments.items()}, self.scale)
        self.table = decide.decide_table(self.claims, self.sources, self.cap)
        states = [ClaimState(row["claim"], tuple((row["experiment"], key) for key in row["columns"]),
                             verdict, row["runs_to_decide"],
                             int(row["min_runs"]) if row["min_runs"] == row["min_runs"] and row["min_runs"] is not None
                             else sequential.MIN_RUNS)
                  for (_, row), verdict in zip(self.table.iterrows(), decide.campaign_verdicts(self.table))]
        have, cost = {}, {}
        for (name, key), (experiment, variant) in self.variants.items():
            runs = self.sources[name].costs[key]
            have[(name, key)] = len(runs)
            cost[(name, key)] = sum(runs) / len(runs) if runs else first_cost(experiment, variant, self.sources[name])
        return states, have, cost

    def make(self, targets: dict) -> float:
        """Make the runs that bring each column to its target, in one pool (experiments/sweep.py
        make_runs: a threaded experiment's one at a time); their CPU-seconds."""
        wanted = [(*self.variants[key], target * self.variants[key][1].root) for key, target in targets.items()]
        records, _ = make_runs(wanted, self.backend)
        return sum(decide.run_cost(r) for r in records)


def first_cost(experiment: Experiment, variant, source) -> float:
    """A column's cost before any of its runs is stored: at matched time, a run of column c holds
    t x R x max(1, rho(c)) playouts made at rho(c) times a baseline's rate, so it costs a baseline
    run's CPU-seconds times max(1, rho) / rho (a baseline column's runs priced it: the measured
    cost, not the published engine's, which overestimates it several times over and ranked such a
    column last); without a baseline's runs, budget_of."""
    rate = experiment.published_rate
    relative = dict(rate.relative) if rate is not None else {}
    if experiment.matched_work and variant.label in relative:
        baseline = next(v for v in experiment.variants if v.label == relative[variant.label].against)
        measured = source.costs.get(decide.variant_key(experiment, baseline), [])
        if measured:
            rho = relative[variant.label].rho
            return sum(measured) / len(measured) * max(1.0, rho) / rho
    return budget_of(variant, rate)


def budget_of(variant, rate=None) -> float:
    """A column's cost before any of its runs is stored: its time budget in CPU-seconds; for a
    matched-work column (budgeted in playouts) the published engine's time for them,
    max_playouts / R, an overestimate where our engine is faster, so that a first round
    does not overrun its budget; 1 s when it has neither (e.g. Morpion's runs to the end:
    learnt from its first runs)."""
    settings = variant.job.settings
    if settings.max_time:
        seconds = settings.max_time
    elif settings.max_playouts and rate is not None:
        seconds = settings.max_playouts / rate.R
    else:
        seconds = 1.0
    return seconds * (settings.threads if settings.clock == "wall" else 1) * variant.root


def run_campaign(overrides: list[str], budget_hours: float, files: list[str] | None = None, cap: int = CAP,
                 own_paper_budgets: bool = False, cpu_clock_only: bool = False, yes: bool = False,
                 fill: bool = False) -> list:
    scale = next((o.split("=", 1)[1] for o in overrides if o.startswith("scale=")), "paper")
    others = [o for o in overrides if not o.startswith("scale=")]
    claims = load_claims(files=files)
    experiments = campaign_experiments(claims, scale, others, cap, own_paper_budgets)
    clocks = reading_clocks(experiments, others, cap)
    claims = [resolve(claim, experiments[experiment_of(claim)]) for claim in claims]
    if cpu_clock_only:
        wall = {name for name, e in experiments.items() if any(v.job.settings.clock == "wall" for v in e.variants)}
        claims = [claim for claim in claims if experiment_of(claim) not in wall]
        experiments = {name: e for name, e in experiments.items() if name not in wall}
        if not claims:
            raise InputError("--cpu-clock-only leaves no claim: every claim chosen is judged on wall-clock runs")
    campaign = Campaign(claims, experiments, cap, scale, clocks)
    started = time.time()
    print(f"Deciding {len(claims)} claims with at most {budget_hours:g} CPU-hours of new runs "
          f"(cap {cap} runs per column; {', '.join(f'{n}: {e.scale}' + (' at matched time' if e.matched_work else '') for n, e in experiments.items())})",
          flush=True)
    workers = cost(next(iter(experiments.values())))[3]
    confirm(budget_hours * 3600 / workers, workers, yes)  # the budget, spent on every core: its wall time at most
    states, plan, spent = adaptive_loop(campaign.observe, campaign.make, budget_hours * 3600, cap,
                                        say=lambda line: print(line, flush=True), fill=fill)
    with_engine_split(campaign, others)
    with_other_clock(campaign, others)
    paths = decide.write_report(campaign.table, plan, scale=scale, files=files, budget_hours=budget_hours, spent=spent,
                                cap=cap, wall=time.time() - started, experiments=experiments,
                                when=datetime.now(timezone.utc), code=code_version())
    if files:  # the claims of some files only: no status of every table and figure
        return paths
    from analysis.claims import reproduction  # a status per published table and figure, from the report just written

    return paths + reproduction.write(scale, folder=paths[0].parent, overrides=others)


def run_fixed(overrides: list[str], files: list[str] | None = None, yes: bool = False) -> list:
    """`make claims SCALE=S` (no BUDGET): the runs the claims' experiments have at the scale (each
    column's repeats there), made in this one process where the store lacks them (a
    process per experiment, and Hydra's per-job start, cost minutes at smoke scale), then each
    experiment's tables and figures and the fixed-n claims report (analysis/claims/report.py)."""
    claims = load_claims(files=files)
    experiments = load_experiments(claims, overrides)
    costs = {name: cost(experiment) for name, experiment in experiments.items()}  # once: a store look-up per run
    for name, experiment in experiments.items():
        print(describe(experiment, costs[name]), flush=True)
    seconds = [wall_seconds(c) for c in costs.values()]
    confirm(sum(s for s in seconds if s is not None), next(iter(costs.values()))[3], yes)
    campaign = Campaign(claims, experiments, cap=max(v.repeats for e in experiments.values() for v in e.variants),
                        scale=next(iter(experiments.values())).scale)
    campaign.make({(name, decide.variant_key(e, v)): v.repeats for name, e in experiments.items() for v in e.variants})
    # the experiments' tables and figures on every core of this machine (a second or two each, matplotlib's)
    reports = joblib.Parallel(n_jobs=-1)(joblib.delayed(write_report)(e) for e in experiments.values())
    paths = [path for report in reports for path in report]
    return paths + claims_report(overrides, files=files, experiments=experiments)


def with_engine_split(campaign: Campaign, overrides=()) -> None:
    """The decided table's engine_split column, after its detail: each equal-time compare claim's
    gain split in two on a table with reference engine runs (gain_split.claim_split; "" elsewhere)."""
    from analysis.claims import gain_split

    splits = {claim.id: gain_split.claim_split(claim, campaign.sources[claim.experiment], overrides)
              for claim in campaign.claims}
    table = campaign.table
    table.insert(table.columns.get_loc("detail") + 1, "engine_split", [splits.get(c, "") for c in table["claim"]])


def with_other_clock(campaign: Campaign, overrides=()) -> None:
    """The decided table's other_clock_verdict, other_clock_runs and other_clock columns, after
    engine_split. Where a table's baseline does not tell a second clock apart from the one its
    claims read (t x R x rho kept against the reference clock, or another CPU model's reference
    clock: engines.tied_clock), its claims are decided again at that clock, each column on runs
    that reach its work (engines.clock_experiment; no run is made), with every other claim as
    decided (the same Holm families): the verdict there and its effect. A claim supported at one
    clock and contradicted at the other makes its item clock-dependent (analysis/claims/status.py).
    "" elsewhere."""
    from analysis.claims import engines

    tied = {name: engines.other_clock(name, overrides) for name, experiment in campaign.experiments.items()
            if experiment.scale == "paper" and experiment.matched_work}
    tied = {name: clock for name, clock in tied.items() if clock is not None}
    texts, verdicts, runs = {}, {}, {}
    if tied:
        sources = dict(campaign.sources)
        for name, clock in tied.items():
            experiment = engines.clock_experiment(name, clock, overrides, first=[f"repeats={campaign.cap}"])
            sources[name] = decide.PrefixSource(experiment, campaign.cap,
                                                decide.read_limits(campaign.claims, experiment, campaign.cap), clock)
        found = decide.decide_table(campaign.claims, sources, campaign.cap)
        for _, row in found[found["experiment"].isin(list(tied))].iterrows():
            verdicts[row["claim"]], runs[row["claim"]] = row["verdict"], row["runs"]
            texts[row["claim"]] = other_clock_text(row)
    table = campaign.table
    at = table.columns.get_loc("engine_split") + 1
    table.insert(at, "other_clock_verdict", [verdicts.get(c, "") for c in table["claim"]])
    table.insert(at + 1, "other_clock_runs", [runs.get(c, math.nan) for c in table["claim"]])
    table.insert(at + 2, "other_clock", [texts.get(c, "") for c in table["claim"]])


def other_clock_text(row) -> str:
    """A claim decided at the second clock, in words: its verdict, runs, effect and what decided it."""
    if not isinstance(row["effect"], float) or row["effect"] != row["effect"]:
        return f"{row['verdict']} at {row['basis']}: {row['detail']}"
    bounded = math.isfinite(row["effect_low"]) and math.isfinite(row["effect_high"])
    interval = (f"[{row['effect_low']:+.4g}, {row['effect_high']:+.4g}]" if bounded
                else "(no bounded confidence sequence at so few runs)")
    return (f"{row['verdict']} at {row['basis']} ({row['runs']:.0f} runs a column): effect "
            f"{row['effect']:+.4g} {interval}, decided by: {row['detail']}")


def main(argv: list[str] | None = None) -> int:
    parser = overrides_parser(__doc__, "scale=S (paper, quick, smoke) and overrides all experiments "
                                       "take (backend=dask backend.address=..., outputs_dir=...)", nargs="*")
    parser.add_argument("--budget", help="CPU time of new runs, e.g. 6h, 90m; without it, every run of the "
                                         "experiments at the scale, then the fixed-n report (analysis/claims/report.py)")
    parser.add_argument("--files", nargs="+", metavar="NAME", help="only the claims of analysis/claims/NAME.yaml")
    parser.add_argument("--cap", type=int, default=CAP, help=f"most runs per column (default {CAP})")
    parser.add_argument("--own-paper-budgets", action="store_true",
                        help="at scale=paper, run every experiment at its own paper budgets (a cluster)")
    parser.add_argument("--cpu-clock-only", action="store_true",
                        help="leave out the claims judged on wall-clock runs (the threaded searches), whose work "
                             "depends on the machine being otherwise idle: for a machine shared with other work")
    parser.add_argument("--fill", action="store_true",
                        help="spend on the undecided claims beyond the cap too, growing their columns toward the "
                             "cap (narrower confidence sequences; no decision promised)")
    parser.add_argument("--yes", action="store_true", help="start without asking, however long it takes (as YES=1)")
    # intermixed: flags may come between the overrides (make claims ARGS="--own-paper-budgets backend=dask")
    arguments = parser.parse_intermixed_args(argv)
    interrupt.install()
    try:
        if arguments.cap < sequential.MIN_RUNS_ONE_SAMPLE:
            raise InputError(f"--cap {arguments.cap} is out of range: at least {sequential.MIN_RUNS_ONE_SAMPLE} "
                             "runs per column (a verdict needs that many)")
        if arguments.fill and arguments.budget is None:
            raise InputError("--fill spends a budget: give one (make claims BUDGET=1h ARGS=--fill)")
        if arguments.budget is None:
            paths = run_fixed(arguments.overrides, arguments.files, arguments.yes)
        else:
            paths = run_campaign(arguments.overrides, parse_budget(arguments.budget), arguments.files, arguments.cap,
                                 arguments.own_paper_budgets, arguments.cpu_clock_only, arguments.yes,
                                 arguments.fill)
    except InputError as error:
        exit_on_input_error(error)
    except KeyboardInterrupt:
        exit_interrupted()
    for path in paths:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
