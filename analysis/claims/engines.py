"""Two engines side by side: the C++ reference engine's runs of a time table (archive/reference/,
experiments/reference_runs.py) beside this engine's (the archive, as the claims read them).

    python -m analysis.claims.engines_page stabilized_table4   (make engines TABLE=stabilized_table4)

writes docs/results/engines_<table>.{md,csv,png} (analysis/claims/engines_page.py, from what this
module measures). It makes no run and needs no engine built: it reads the committed runs. Three
questions a column at a time:

* **The clock.** The reference engine's work W(tau), the playouts ended by CPU time tau, from its
  clock runs (budgeted in CPU-seconds, the table's last published time): the mean over runs with a
  95% Student-t interval, and playouts per CPU-second W(tau) / tau. Does the rate fall as the
  search goes on?
* **rho_ref.** Each column's work over the baseline's (report.published_rate.fit_on) at the same
  tau, on the reference engine: per seed (the columns of a seed ran in one round, interleaved, so
  a drift of the machine's speed cancels in the ratio), the geometric mean of the seeds' ratios with
  a 95% Student-t interval on their logarithms (experiments/rates.py's summary), beside this
  engine's rho (the config's report.published_rate.relative, measured so).
* **Playout for playout.** The mean best score after n playouts, n = 2^6 .. 2^20, of the reference
  engine's runs (all that reach n, MIN_RUNS or more: clock runs and playouts runs, one run a seed) against ours (the
  runs the claims read, up to 200 a column, all reaching n), with Welch's interval of the
  difference reference - ours. A cell *differs* when the difference's interval at the Bonferroni
  level over all the table's cells (every column's) excludes 0; it *agrees* when its 90% interval
  lies within +-margin (two one-sided tests at 5%, an equivalence test), the margin MARGIN_FRACTION
  of the published baseline's value at the table's last time (SameGame: 2% of 2,838, 57 points,
  half the published gain of SNRPA(4) over NRPA at 163.84 s, a third of the largest, +164 at
  20.48 s, in Stabilized NRPA's Table 4). A column agrees when every cell does (an
  intersection-union test: no correction), differs when one cell does, and is otherwise
  inconclusive: runs too few for the margin (the page gives the 90% half-widths beside it).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import pandas as pd

from analysis.claims.basis import FIRST_SCORED, PUBLISHED_RUNS, ROUNDED_BUDGET_SLACK
from analysis.claims.readings import FIT_LIMIT, cell, judge, worst_bound
from analysis.claims.same_search import MIN_RUNS, agreement, column_verdicts
from analysis.stats import best_at, t_interval
from experiments.rates import geometric_summary
from experiments.reference_engine import checkpoint_index, checkpoint_time
from experiments.reference_runs import FOLDER, budget_of, read_runs
from nrpa.domains.maximum_adapter import MaximumOptions
from nrpa.errors import InputError

# Domains whose playout-for-playout cells compare log10 of the best scores: the Maximum problem's
# values span nine orders of magnitude, and its runs spread by a factor, not a sum (an absolute
# margin of 2% of the last published value, 6.7e13, holds every cell below 1e13 trivially).
LOG_SCORED = (MaximumOptions,)
MARGIN_FRACTION = 0.02
RHO_TIMES = (0.16, 1.28, 10.24, 163.84)  # where rho_ref is reported (published times)
REFERENCE_CLOCK, TODAY = "reference clock", "t x R x rho (this engine)"  # the two readings' names
# clock_decision's whys where the claims read both t x R x rho and the reference clock
NOT_TOLD_APART = "t x R x rho is not told apart from it"
NOT_TOLD_APART_ON_MODEL = ("t x R x rho is not told apart from the clock of another CPU model, which the baseline does "
                           "not tell apart from this one")


def by_column(records: list[dict]) -> dict[str, list[dict]]:
    """Records per column, one a seed (the longest where a seed has two)."""
    chosen: dict[tuple, dict] = {}
    for record in records:
        key = record["column"], record["seed"]
        if key not in chosen or record["end"]["playouts"] > chosen[key]["end"]["playouts"]:
            chosen[key] = record
    columns: dict[str, list[dict]] = {}
    for (column, _), record in sorted(chosen.items(), key=lambda item: item[0][1]):
        columns.setdefault(column, []).append(record)
    return columns


def clock_runs(records: list[dict], seconds: float) -> dict[str, list[dict]]:
    """The runs budgeted in CPU-seconds to ``seconds`` (the clock's runs), per column."""
    return by_column([record for record in records if budget_of(record)[0] == seconds])


def clock_model(candidates: dict[str, tuple], baseline: str) -> tuple[str, dict]:
    """The CPU model whose clock the table reads, and each model's status. Work and rho_ref are a
    machine's, not only an engine's (Stabilized Table 4's NRPA made a third more playouts by 163.84 s
    on an Intel Xeon than on an AMD EPYC, and SNRPA(3)'s rho_ref 1.46 there against 1.75), and
    the paper's machine is a setting it leaves unsaid: so, as for any unsaid setting, the baseline
    chooses among the models the clock runs were made on by the readings' rule (clock_statuses on
    each model's reference-clock reading of it). ``candidates``: model -> (readings, s), as
    ``clocks`` returns them, the first made first; where no model's clock fits the baseline, the
    first made."""
    rows = []
    for name, (readings, _) in candidates.items():
        base = next(r for r in readings if r.reading == REFERENCE_CLOCK and r.column == baseline)
        rows.append({**vars(base), "reading": name})
    statuses = clock_statuses(rows)
    chosen = [name for name, (status, _) in statuses.items() if status == "chosen"]
    return (chosen[0] if chosen else next(iter(candidates))), statuses


def on_model(clock: dict[str, list[dict]], model: str) -> dict[str, list[dict]]:
    """The clock runs made on CPU ``model``, per column."""
    found = {column: [record for record in runs if record["cpu_model"] == model] for column, runs in clock.items()}
    return {column: runs for column, runs in found.items() if runs}


def work_at(record: dict, k: int) -> float:
    playouts = record["work"]["playouts"]
    return float(playouts[k]) if k < len(playouts) else np.nan


def work_table(runs: dict[str, list[dict]], last: float) -> pd.DataFrame:
    """Per column and checkpoint tau <= ``last``: runs, the mean work with its 95% interval, and
    playouts per CPU-second (the mean work over tau)."""
    rows = []
    steps = checkpoint_index(last) + 1
    for column, records in runs.items():
        for k in range(steps):
            values = np.array([work_at(record, k) for record in records])
            mean, low, high = t_interval(values)
            tau = checkpoint_time(k)
            rows.append({"column": column, "tau": tau, "runs": int(np.isfinite(values).sum()), "work": mean,
                         "work_low": low, "work_high": high, "rate": mean / tau})
    return pd.DataFrame(rows)


def own_baseline(rate, column: str) -> str:
    """The column rho is measured against (report.published_rate.relative's `against`): itself for a
    column R is fitted on (a table with two baselines, Weak Schur's one a K, has two)."""
    if column in rate.fit_on:
        return column
    return dict(rate.relative)[column].against


def rho_ref(runs: dict[str, list[dict]], baseline, tau: float) -> dict[str, tuple]:
    """Per column: (rho_ref, its 95% interval, seeds) at ``tau``, paired by seed with its baseline:
    ``baseline``, one column or a mapping column -> its own (own_baseline; columns not in it are
    left out)."""
    k = checkpoint_index(tau)
    against = baseline if isinstance(baseline, dict) else {column: baseline for column in runs}
    found = {}
    for column, records in runs.items():
        if against.get(column) not in runs:
            continue
        base = {record["seed"]: work_at(record, k) for record in runs[against[column]]}
        ratios = np.array([work_at(record, k) / base[record["seed"]] for record in records if record["seed"] in base])
        ratios = ratios[np.isfinite(ratios) & (ratios > 0)]
        if ratios.size == 0:
            continue
        if ratios.size < 2:
            found[column] = (float(ratios[0]), np.nan, np.nan, 1)
            continue
        found[column] = (*geometric_summary(ratios), int(ratios.size))  # rho's own summary (experiments/rates.py)
    return found


def reference_traces(records: list[dict]) -> tuple[list[tuple], list[int]]:
    return ([(record["improvements"]["playouts"], record["improvements"]["score"]) for record in records],
            [int(record["end"]["playouts"]) for record in records])


def our_traces(table: str, overrides=()) -> tuple[dict[str, tuple], object, pd.DataFrame]:
    """Our runs of the table as the claims read them at t x R x rho (up to 200 a column): column ->
    (traces, playouts reached); the experiment; the published table."""
    from analysis.claims.decide import PrefixSource
    from experiments.paper_campaign import table_experiment

    source = PrefixSource(table_experiment(table, list(overrides)), cap=PUBLISHED_RUNS)
    return traces_of(source), source.experiment, source.reference


def traces_of(source) -> dict[str, tuple]:
    """column -> (traces on the playouts axis, playouts each run reached), of a PrefixSource."""
    from experiments.root_parallel import axis_trace

    return {column: ([axis_trace(record, "playouts") for record in records],
                     [int(record["result"]["playouts"]) for record in records])
            for column, records in source.runs.records.items() if records}


LONGER = (2, 4)  # the matched-work runs to these times the table's last time, where the archive has them


def our_longer_traces(table: str, last: float, overrides=()) -> dict[str, list[tuple]]:
    """Our matched-work runs of the table to 2 and 4 times its last time (made for the reference
    clock's work, ``extensions``), those there: column -> [(traces, reached), ...], shortest first."""
    from analysis.claims.decide import PrefixSource
    from experiments.experiment import load_experiment

    found: dict[str, list[tuple]] = {}
    for factor in LONGER:
        experiment = load_experiment([f"experiment={table}", *overrides, "scale=paper", "matched_work=true",
                                      f"max_time={last * factor:g}"])
        for column, sample in traces_of(PrefixSource(experiment, cap=PUBLISHED_RUNS)).items():
            found.setdefault(column, []).append(sample)
    return found


def measure(table: str, folder: Path = FOLDER, overrides=()) -> dict:
    """Everything the page shows but the split gains (gain_split.split_gains reads this), from the
    committed runs (ours: our_traces)."""
    records = read_runs(table, folder)
    if not records:
        raise InputError(f"{table}: no reference runs in {folder} (make reference-runs TABLE={table})")
    ours, experiment, published = our_traces(table, overrides)
    last = float(published["time"].max())
    baseline = experiment.published_rate.fit_on[0]
    log = isinstance(experiment.variants[0].job.domain_options, LOG_SCORED)
    # in the engines' own scores, as the cells are (the published table's unit over value_scale); on
    # log10 of the scores, the same fraction as a ratio
    margin = (math.log10(1 + MARGIN_FRACTION) if log else
              MARGIN_FRACTION * abs(float(published[baseline].iloc[-1]) / experiment.value_scale))
    every_clock = clock_runs(records, last)
    every = by_column(records)
    reference = {column: reference_traces(runs) for column, runs in every.items()}
    cells = agreement(reference, ours, margin, log=log)
    against = {column: own_baseline(experiment.published_rate, column) for column in every}
    relative = {column: experiment.published_rate.rho(column) for column in every}
    longer = our_longer_traces(table, last, overrides)
    # each CPU model's clock read apart (the first made first), and the one the baseline chooses
    made = sorted((record["finished_at"], record["cpu_model"]) for runs in every_clock.values() for record in runs)
    by_model = {name: on_model(every_clock, name) for _, name in made}  # the first made first
    candidates = {name: clocks({"experiment": experiment, "baseline": baseline, "clock": runs, "longer": longer},
                               ours, published, experiment.value_scale)
                  for name, runs in by_model.items() if baseline in runs}
    model, model_statuses = clock_model(candidates, baseline) if candidates else ("", {})
    clock = by_model[model] if model else {}
    readings, speed = candidates[model] if model else ([], np.nan)
    rhos = {tau: rho_ref(clock, against, tau) for tau in RHO_TIMES if tau <= last} if baseline in clock else {}
    rho_by_model = {name: rho_ref(runs, against, last) for name, runs in by_model.items()}
    return {"table": table, "baseline": baseline, "against": against, "margin": margin, "log": log, "last": last, "clock": clock, "ours": ours,
            "longer": longer, "reference": reference, "published": published, "readings": readings, "speed": speed,
            "clock_model": model, "model_statuses": model_statuses,
            "model_speeds": {name: found[1] for name, found in candidates.items()}, "rho_by_model": rho_by_model,
            "model_clocks": {name: by_model[name] for name in candidates},
            "model_readings": {name: found[0] for name, found in candidates.items()},
            "work": work_table(clock, last) if clock else pd.DataFrame(), "rho_ref": rhos, "rho_ours": relative,
            "cells": cells, "verdicts": column_verdicts(cells) if len(cells) else {}, "records": records,
            "experiment": experiment}


def mean_work(records: list[dict]) -> tuple[np.ndarray, np.ndarray]:
    """(taus, mean work) over a column's clock runs, at the checkpoints every run reached."""
    steps = min(len(record["work"]["playouts"]) for record in records)
    works = np.array([record["work"]["playouts"][:steps] for record in records], dtype=float).mean(axis=0)
    return np.array([checkpoint_time(k) for k in range(steps)]), works


def work_by_time(taus: np.ndarray, works: np.ndarray, query) -> np.ndarray:
    """W at CPU times ``query``: log-log interpolation between checkpoints; before the first, in
    proportion to time; after the last, at the last checkpoint's mean rate."""
    query = np.asarray(query, dtype=float)
    inside = np.exp(np.interp(np.log(query), np.log(taus), np.log(np.maximum(works, 1e-9))))
    return np.where(query < taus[0], works[0] * query / taus[0],
                    np.where(query > taus[-1], works[-1] * query / taus[-1], inside))


def work_inverse(taus: np.ndarray, works: np.ndarray, playouts: float) -> float:
    """The CPU time tau at which W(tau) = ``playouts``: work_by_time's inverse (the same log-log
    interpolation, the same proportional ends)."""
    works = np.maximum.accumulate(np.maximum(works, 1e-9))  # a mean of cumulative counts: never falls
    if playouts < works[0]:
        return float(taus[0] * playouts / works[0])
    if playouts > works[-1]:
        return float(taus[-1] * playouts / works[-1])
    return float(np.exp(np.interp(np.log(playouts), np.log(works), np.log(taus))))


@dataclass(frozen=True)
class ReferenceClock:
    """Equal time on the reference engine's clock: a column's work at published time t is
    W_ref,column(t / s), its mean work on the reference engine by CPU time t / s (work_by_time over
    its clock runs), s the speed ratio fitted on the table's baseline alone (``clocks``). It reads
    our runs as PublishedRate does (work, reach, describe), where every column's work is t x R x rho."""

    works: dict  # column -> (taus, mean work): mean_work of its clock runs
    s: float
    model: str = ""  # the CPU model its clock runs were made on

    def work(self, seconds: float, column: str) -> float:
        return float(work_by_time(*self.works[column], [seconds / self.s])[0])

    def reach(self, playouts: float, column: str) -> float:
        return work_inverse(*self.works[column], playouts) * self.s

    @property
    def describe(self) -> str:
        return f"W_ref(t / s) playouts, the reference engine's clock{' on ' + self.model if self.model else ''}, s = {self.s:.2f}"


def clock_statuses(rows) -> dict[str, tuple[str, float]]:
    """The baseline column's readings judged by the readings' rule (readings.judge: of the readings
    that fit, the least sum of z^2; another fitting one is not told apart unless its sum is larger
    by more than the number of cells): ``rows``, one per reading, with reading, cells, mean_z2, max_z."""
    return judge({row["reading"]: {"cells": int(row["cells"]), "chi2": float(row["mean_z2"]) * int(row["cells"]),
                                   "worst": float(row["max_z"])} if row["cells"] else None for row in rows})


def clock_decision(measured: dict) -> tuple[dict, str, str]:
    """The baseline's two readings judged (clock_statuses), the reading the table's claims read,
    and why. The claims leave t x R x rho, which they rested on, for the reference clock only where
    the evidence asks it: the baseline chooses the reference clock, t x R x rho is rejected (not
    merely not told apart), and every other baseline column of the table (Weak Schur has one a K)
    fits at the reference clock too, at its own Bonferroni bound; and where another CPU model's
    clock is not told apart from the chosen one's (clock_model), t x R x rho is rejected there too."""
    rate = measured["experiment"].published_rate
    readings = [r for r in measured["readings"] if r.column in rate.fit_on]
    statuses = clock_statuses(vars(r) for r in readings if r.column == measured["baseline"])
    misfits = [r.column for r in readings if r.reading == REFERENCE_CLOCK and r.column != measured["baseline"]
               and not replace(r, bound=worst_bound(r.cells)).fits]
    if statuses.get(REFERENCE_CLOCK, ("",))[0] != "chosen":
        return statuses, TODAY, "the baseline does not choose the reference clock"
    if misfits:
        return statuses, TODAY, f"the table's other baseline {', '.join(misfits)} does not fit at it"
    if not statuses.get(TODAY, ("",))[0].startswith("rejected"):
        return statuses, TODAY, NOT_TOLD_APART
    # another CPU model's clock that the baseline does not tell apart from the chosen one must
    # reject t x R x rho too: the claims do not leave it on a choice of machine the evidence does not make
    for name, (status, _) in measured.get("model_statuses", {}).items():
        if status == "not told apart":
            other = clock_statuses(vars(r) for r in measured["model_readings"][name] if r.column == measured["baseline"])
            if not other.get(TODAY, ("",))[0].startswith("rejected"):
                return statuses, TODAY, NOT_TOLD_APART_ON_MODEL
    return statuses, REFERENCE_CLOCK, "t x R x rho is rejected"


def chosen_clock(measured: dict) -> ReferenceClock | None:
    """The reference engine's clock where the table's claims read it (clock_decision), else None:
    the claims then keep t x R x rho."""
    if not measured["readings"] or clock_decision(measured)[1] != REFERENCE_CLOCK:
        return None
    return reference_clock(measured)


def tied_clock(measured: dict) -> ReferenceClock | None:
    """The second clock a table's claims are decided at, where the baseline does not tell it apart
    from the one they read: the reference engine's clock where they keep t x R x rho only because
    the baseline, which chooses the reference clock (and every other baseline fits at it), does not
    tell t x R x rho apart from it (clock_decision); where they read the reference clock, another
    CPU model's clock that the baseline does not tell apart from the chosen model's (clock_model).
    A verdict that differs between the two is clock-dependent (campaign.with_other_clock). Else None."""
    if not measured["readings"]:
        return None
    read, why = clock_decision(measured)[1:]
    if why in (NOT_TOLD_APART, NOT_TOLD_APART_ON_MODEL):
        return reference_clock(measured)
    if read != REFERENCE_CLOCK:
        return None
    tied = [name for name, (status, _) in measured.get("model_statuses", {}).items() if status == "not told apart"]
    if not tied:
        return None
    return clock_of(measured["model_clocks"][tied[0]], measured["model_speeds"][tied[0]], tied[0])


def reference_clock(measured: dict) -> ReferenceClock:
    """The clock of the CPU model the table reads (clock_model)."""
    return clock_of(measured["clock"], measured["speed"], measured.get("clock_model", ""))


def clock_of(runs: dict[str, list[dict]], speed: float, model: str) -> ReferenceClock:
    """The reference clock of one CPU model's clock runs (column -> runs) at speed ratio s."""
    return ReferenceClock({column: mean_work(records) for column, records in runs.items()}, float(speed), model)


def extensions(measured: dict, clock: ReferenceClock) -> dict[str, int]:
    """Per column, the least power of two E such that its matched-work runs to E x the table's last
    time (t x R x max(1, rho) playouts: PublishedRate.budget) hold the clock's work at the last time
    (1: the runs read at t x R x rho do)."""
    rate, last = measured["experiment"].published_rate, measured["last"]
    need = {column: clock.work(last, column) / rate.budget(last, column) for column in measured["ours"]
            if column in clock.works}
    return {column: 2 ** max(0, math.ceil(math.log2(ratio) - 1e-9)) for column, ratio in need.items()}


def clock_fits(measured: dict) -> tuple:
    """The reference clock's readings (``clocks``) as the statuses read a table's curves
    (campaign_fit.CampaignFit): the baseline's fit, and each other column's (column -> fit), on the
    runs they were measured on (those the claims read at t x R x rho, and longer ones for the cells
    those stop short of: read_column)."""
    from analysis.claims.campaign_fit import CampaignFit

    runs = {column: len(traces) for column, (traces, _) in measured["ours"].items()}

    def fit(reading: Reading) -> CampaignFit:
        longer = (f", the last {reading.longer_cells} on {reading.longer_runs} longer runs" if reading.longer_cells > 1
                  else f", the last on {reading.longer_runs} longer runs" if reading.longer_cells else "")
        at = f"the reference engine's clock (s = {measured['speed']:.2f}, on the runs read at t x R x rho{longer})"
        return CampaignFit(np.nan, np.nan, reading.cells, reading.mean_z2, reading.max_z, reading.bound,
                           runs=runs[reading.column], columns=(reading.column,), clock=at)

    found = [reading for reading in measured["readings"] if reading.reading == REFERENCE_CLOCK]
    base = next(reading for reading in found if reading.column == measured["baseline"])
    return fit(base), {reading.column: fit(reading) for reading in found if reading.column != measured["baseline"]}


@functools.lru_cache(maxsize=None)
def measured_table(table: str, overrides: tuple = ()) -> dict:
    """measure(table) on the runs the claims read at t x R x rho (up to 200 a column), once a process:
    the campaign's clock choice, the claims' splits, the engines pages and the statuses read it."""
    return measure(table, overrides=overrides)


def claims_clock(table: str, overrides=()) -> ReferenceClock | None:
    """The reference engine's clock where ``table``'s claims read it (chosen_clock on its committed
    runs, measured_table), else None: a table without reference runs, or whose claims keep t x R x rho."""
    return chosen_clock(measured_table(table, tuple(overrides))) if table in tables() else None


def reading_experiment(table: str, overrides=(), first=()):
    """The time table's experiment whose runs the claims read at matched time, and the clock they
    read it at: at scale=paper, where the table has reference runs and its baseline chooses the
    reference engine's clock (chosen_clock), clock_experiment's runs and that clock; else the runs
    read at t x R x rho and the config's published rate. ``first``: overrides composed before
    ``overrides`` (the campaign's repeats=cap)."""
    from experiments.experiment import load_experiment

    clock = claims_clock(table, overrides)
    if clock is None:
        experiment = load_experiment([f"experiment={table}", *first, *overrides, "scale=paper", "matched_work=true"])
        return experiment, experiment.published_rate
    return clock_experiment(table, clock, overrides, first), clock


def clock_experiment(table: str, clock: ReferenceClock, overrides=(), first=()):
    """The time table's matched-work experiment whose runs reach ``clock``'s work at the last time:
    each column's runs to ``extensions`` x the last time (those read at t x R x rho where E = 1),
    with the commands that make them."""
    from experiments.experiment import load_experiment

    base = [f"experiment={table}", *first, *overrides, "scale=paper", "matched_work=true"]
    experiment = load_experiment(base)
    measured = measured_table(table, tuple(overrides))
    factors = extensions(measured, clock)
    longer = {factor: load_experiment([*base, f"max_time={measured['last'] * factor:g}"])
              for factor in set(factors.values()) if factor > 1}
    variants = tuple(next(v for v in longer[factors[variant.label]].variants if v.label == variant.label)
                     if factors.get(variant.label, 1) > 1 else variant for variant in experiment.variants)
    target = table.replace("_", "-")
    commands = "; ".join(f'make {target} SCALE=paper ARGS="matched_work=true max_time={measured["last"] * factor:g}"'
                         for factor in sorted(longer))
    return replace(experiment, variants=variants, command=commands or None)


def other_clock(table: str, overrides=()) -> ReferenceClock | None:
    """The second clock ``table``'s claims are decided at (tied_clock on its committed runs), else None."""
    return tied_clock(measured_table(table, tuple(overrides))) if table in tables() else None


@dataclass(frozen=True)
class Reading:
    """One column read at one clock: the cells our runs reach, and the fit's numbers."""

    column: str
    reading: str
    cells: int  # published cells from FIRST_SCORED on that our runs reach at this clock
    published_cells: int  # published cells from FIRST_SCORED on
    inside: int  # of ``cells``, the published mean inside our 95% interval
    above: int  # of ``cells``, those where our mean is above the published one
    mean_z2: float
    max_z: float
    bound: float = np.nan
    longer_cells: int = 0  # of ``cells``, those read on longer runs than the judged ones (our_longer_traces)
    longer_runs: int = 0  # the fewest runs such a cell is read on
    # at the reference clock, a non-baseline column read again at the ends of rho_ref's 95% interval
    # (clock_ends): ours above the published in how many of the cells, and whether it fits there
    above_low: float = np.nan
    above_high: float = np.nan
    fits_low: float = np.nan
    fits_high: float = np.nan

    @property
    def fits(self) -> bool:
        return bool(self.cells) and self.mean_z2 <= FIT_LIMIT and self.max_z <= self.bound


def read_column(column: str, reading: str, work: np.ndarray, times: np.ndarray, values: np.ndarray,
                samples: list[tuple], scale: float) -> Reading:
    """Our runs of ``column`` read at ``work`` playouts for each published time, beside the published
    ``values``: the cells from FIRST_SCORED on that every run of a sample reaches, each on the first
    of ``samples`` (the judged runs, then longer ones: our_longer_traces) whose runs all reach it,
    MIN_RUNS of them or more."""
    scored = times >= FIRST_SCORED - 1e-9
    zs, inside, above, longer = [], 0, 0, []
    for k in np.flatnonzero(scored):
        found = first_reaching(samples, work[k])
        if found is None:
            continue
        n, (traces, _) = found
        if n:
            longer.append(len(traces))
        found = cell(np.array([best_at(p, sc, [work[k]])[0] for p, sc in traces]) * scale, float(values[k]),
                     PUBLISHED_RUNS)
        zs.append(abs(found["z"]))
        inside += found["inside"]
        above += bool(found["mean"] > values[k])
    zs = np.array(zs, dtype=float)
    return Reading(column, reading, zs.size, int(scored.sum()), inside, above,
                   float(np.square(zs).mean()) if zs.size else np.nan, float(zs.max()) if zs.size else np.nan,
                   worst_bound(zs.size) if zs.size else np.nan, len(longer), min(longer, default=0))


def first_reaching(samples: list[tuple], playouts: float) -> tuple[int, tuple] | None:
    """The first of ``samples`` (traces, playouts each run reached: the judged runs, then longer
    ones) with MIN_RUNS runs or more, all reaching ``playouts``, and its index; None if none does."""
    return next(((n, sample) for n, sample in enumerate(samples)
                 if len(sample[0]) >= MIN_RUNS and playouts <= min(sample[1]) + ROUNDED_BUDGET_SLACK), None)


def with_family_bound(readings: list[Reading]) -> list[Reading]:
    """The non-baseline columns of one reading under one Bonferroni bound over all their cells."""
    bound = worst_bound(sum(r.cells for r in readings)) if any(r.cells for r in readings) else np.nan
    return [replace(r, bound=bound) for r in readings]


def clocks(measured: dict, ours: dict, published: pd.DataFrame, scale: float) -> tuple[list[Reading], float]:
    """Every column read two ways: today's (t x R x rho, this engine's rho, the config's R) and the
    reference engine's clock (W_ref,column(t / s), s fitted on the baseline column alone by the
    readings' rule, campaign_fit.best_fit's: of a log grid, the s whose baseline fits on the most
    cells, then with the least mean z^2; where none fits, the one whose largest abs(z) is least above
    its bound). Returns the readings and s."""
    experiment, baseline, clock = measured["experiment"], measured["baseline"], measured["clock"]
    rate = experiment.published_rate
    times = published["time"].to_numpy(dtype=float)
    values = {column: published[column].to_numpy(dtype=float) for column in published.columns[1:]}
    works = {column: mean_work(records) for column, records in clock.items()}
    columns = [column for column in values if column in ours and column in works]

    def at_clock(column: str, speed: float) -> np.ndarray:
        return work_by_time(*works[column], times / speed)

    base_rate = works[baseline][1][-1] / works[baseline][0][-1]
    grid = np.exp(np.linspace(np.log(base_rate / rate.R / 4), np.log(base_rate / rate.R * 4), 81))
    samples = {column: [ours[column], *measured.get("longer", {}).get(column, [])] for column in columns}
    fits = [read_column(baseline, REFERENCE_CLOCK, at_clock(baseline, speed), times, values[baseline],
                        samples[baseline], scale) for speed in grid]
    fits = [replace(fit, bound=worst_bound(fit.cells)) for fit in fits]
    fitting = [k for k, fit in enumerate(fits) if fit.fits]
    best = (min(fitting, key=lambda k: (-fits[k].cells, fits[k].mean_z2)) if fitting
            else min(range(len(fits)), key=lambda k: fits[k].max_z - fits[k].bound))
    speed = float(grid[best])
    today = [read_column(column, TODAY, times * rate.R * (1.0 if column == baseline else rate.rho(column)),
                         times, values[column], samples[column], scale) for column in columns]
    reference = [read_column(column, REFERENCE_CLOCK, at_clock(column, speed), times, values[column],
                             samples[column], scale) for column in columns]
    readings = []
    for group in (today, reference):
        base = [replace(r, bound=worst_bound(r.cells)) for r in group if r.column == baseline]
        readings += base + with_family_bound([r for r in group if r.column != baseline])
    against = {column: own_baseline(rate, column) for column in columns}
    ends = {}
    for column in columns:
        if against[column] == column or against[column] not in clock:
            continue
        factors = clock_ends(clock, against, column, times / speed)
        if not np.isfinite(factors).all():  # read at the ends only where rho_ref has an interval at every time
            continue
        ends[column] = [read_column(column, REFERENCE_CLOCK, at_clock(column, speed) * factor, times, values[column],
                                    samples[column], scale) for factor in factors]
    bound = {r.column: r.bound for r in readings if r.reading == REFERENCE_CLOCK}
    readings = [replace(r, **{f"{key}_{end}": value for end, found in zip(("low", "high"), ends[r.column])
                              for key, value in (("above", found.above),
                                                 ("fits", float(replace(found, bound=bound[r.column]).fits)))})
                if r.reading == REFERENCE_CLOCK and r.column in ends else r for r in readings]
    return readings, speed


def clock_ends(clock: dict, against: dict, column: str, taus: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The factors that take ``column``'s reference-clock work at each tau to the low and the high end
    of rho_ref's 95% interval there (rho_ref at the work checkpoint nearest tau, within the clock
    runs; seeds paired with its own baseline): W_ref's own error, which the readings' z leave out,
    as the ratio of two columns' work measured in the same rounds. NaN where rho_ref has no interval
    (one seed)."""
    last = min(len(record["work"]["playouts"]) for records in clock.values() for record in records) - 1
    low, high = np.full(len(taus), np.nan), np.full(len(taus), np.nan)
    for i, tau in enumerate(taus):
        k = min(max(checkpoint_index(tau), 0), last)
        found = rho_ref(clock, against, checkpoint_time(k)).get(column)
        if found is not None and np.isfinite(found[1]):
            low[i], high[i] = found[1] / found[0], found[2] / found[0]
    return low, high


def tables(folder: Path = FOLDER) -> list[str]:
    """The tables with reference runs."""
    return sorted(path.stem for path in folder.glob("*.jsonl"))
