"""The claims judged on runs that keep coming: `make claims BUDGET=...` (never runs a search).

Each claim of analysis/claims/*.yaml is reduced to contrasts (analysis/claims/sequential.py): per
paired run index i, a value whose mean the claim says is > 0, in the claim's unit.

  compare  run i of A minus run i of B, at each checkpoint the claim names (runs of a column
           are independent, so pairing them by repeat index is as good as any pairing, and
           a difference of two identical columns is symmetric: few runs suffice)
  value    run i minus (published - margin), and (published + margin) minus run i
  total    the boards as the pairs: per board, the mean of its paired runs' A - B, times the
           number of boards (the values' mean is the difference of the totals)
  gain     the claim "each doubling of time buys a roughly constant gain", read as the mean
           gain per doubling over the later half of the doublings within a factor 2 of the
           earlier half's: late - early / 2 > 0 and 2 early - late > 0, both linear in a run's
           best scores (the fixed-n report tests the ratio itself, analysis.claims.verdicts.gain)

A claim on the neural pipeline's stored results (analysis/claims/sources.py, NeuralSource) gives its
contrasts from them (the networks' games, paired per held-out game for Table 1); the campaign
makes no runs for it (it reads no column the campaign can grow), and says which `make`
target would give it more games.

Time-table claims are judged at matched time: each column at t x R x rho(column) playouts, R
the published runs' rate and rho the column's playouts per CPU-second over its baseline's on
this engine (report.published_rate; the runs are made with matched_work=true, a run of
t x R x max(1, rho) playouts, the same run on any machine). Where a table's published baseline
chooses the C++ reference engine's clock and rejects t x R x rho, and every other baseline fits at
it (analysis/claims/engines.py, clock_decision and reading_experiment), each column is read at W_ref,column(t / s)
instead, its work by CPU time t / s on that engine, on runs that reach it at the last time (matched
work to 2 or 4 times the last time where the t x R x rho runs stop short). A column's runs are
read as a prefix (repeats 0, 1, ... up to the first missing one), so that the runs behind
a verdict are the first n of a fixed sequence.
"""

from __future__ import annotations

import dataclasses
import json
import math

import numpy as np
import pandas as pd

from analysis.claims import sequential, verdicts
from analysis.claims.basis import (PUBLISHED_RUNS, ROUNDED_BUDGET_SLACK, check_basis, checkpoint_times, final_reading,
                                   pair_name, published_difference, time_reading)
from analysis.claims.files import MAKE_TARGETS, NEURAL, Claim, claim_variants, experiment_of
from analysis.claims.judging import (JUDGED, NOT_RUN, ON_READING, READING_REJECTED, UNTESTABLE, apply_settings,
                                     claim_columns, evidence_columns, with_evidence_columns)
from analysis.claims.paper_settings import NEEDS_COMPUTE, NEEDS_HARDWARE, parts_once, search_key
from analysis.claims.report import KIND_SECTIONS
from analysis.claims.sources import NeuralSource, NotJudged, Refused, Source, Untestable
from analysis.results.report import FIRST_PLAYOUTS, Runs, machine_counts, variant_key
from analysis.stats import best_at, doubling_checkpoints
from experiments.experiment import Experiment
from experiments.root_parallel import axis_trace, group_root_runs
from experiments.valid_runs import read_and_judge


def run_cost(record: dict) -> float:
    """The CPU-seconds a run took: its CPU time, or for a run on the wall clock (threads),
    its wall time times the cores it held."""
    settings = record["settings"]
    if settings.get("clock") == "wall":
        return float(record["result"]["wall_seconds"]) * max(1, int(settings.get("threads", 1)))
    return float(record["result"]["cpu_seconds"])


class PrefixSource(Source):
    """An experiment's runs as prefixes: for each column, its runs 0 .. n-1 (all there), with
    the CPU-seconds each cost. A column is read up to its first missing run and at most up to
    ``limits[column]`` runs (the paper's own count of the claims that read it: read_limits),
    ``cap`` where no limit is given: the cap that limits a campaign's spending is a budget rule,
    not a reading rule. ``last`` on the playouts axis is fixed by the first
    sequential.MIN_RUNS runs, so that later runs do not move the checkpoint a claim is
    judged at."""

    def __init__(self, experiment: Experiment, cap: int, limits: dict | None = None, clock=None):
        # the clock matched time reads the columns at: the config's t x R x rho, or the one the
        # table's claims read (engines.reading_experiment: the reference engine's, where clock_decision says so)
        self.clock = clock or experiment.published_rate
        records, costs, starved, outliers = {}, {}, {}, {}
        for variant in experiment.variants:
            key = variant_key(experiment, variant)
            paths = (variant.job.run_path(experiment.store, index)
                     for index in range((limits or {}).get(key, cap) * variant.root))
            runs = []  # read and judged up to the first that does not count
            for run in read_and_judge(experiment.store, paths, experiment.starved_rule):
                runs.append(run)
                if run.record is None:
                    break
            found = [run.record for run in runs if run.record is not None]
            whole = len(found) // variant.root * variant.root
            starved[key], outliers[key] = machine_counts(runs, experiment.starved_rule)
            costs[key] = [sum(run_cost(r) for r in found[i:i + variant.root]) for i in range(0, whole, variant.root)]
            records[key] = group_root_runs(found[:whole], variant.root) if variant.root > 1 else found[:whole]
        super().__init__(experiment, Runs(records, {key: cap for key in records}, starved, outliers))
        self.costs = costs

    def last(self, axis: str, labels) -> float:
        if axis == "playouts":
            return min(r["result"]["playouts"] for label in labels
                       for r in self.runs.records[label][:sequential.MIN_RUNS])
        return super().last(axis, labels)


def read_limits(claims: list[Claim], experiment: Experiment, cap: int) -> dict[str, int]:
    """Each column's reading limit: the largest count of runs (games) the papers state for the
    claims that read it (`settings: {runs: ...}`: 100,000 games for Morpion's Uniform row), else
    ``cap``; at least ``cap``, so that what a campaign makes is read."""
    limits: dict[str, int] = {}
    for claim in claims:
        if experiment_of(claim) != experiment.name or claim.experiment in NEURAL:
            continue
        stated = claim.paper_settings.get("runs")
        for variant in claim_variants(claim, experiment):
            key = variant_key(experiment, variant)
            limits[key] = max(limits.get(key, cap), int(stated) if isinstance(stated, (int, float)) else cap)
    return limits


def columns(claim: Claim, source: Source) -> list[str]:
    """The variant keys (columns) whose runs the claim reads."""
    if claim.test == "total":
        # sorted: a set's order changes from process to process (string hashing), and so would the report's
        return [f"{label} board {board}" for label in sorted(claim.variants()) for board in source.boards()]
    return sorted(claim.variants())


def contrasts(claim: Claim, source: PrefixSource) -> tuple[list[sequential.Contrast], str, str]:
    """The claim's contrasts, where they are judged, and on which basis."""
    if isinstance(source, NeuralSource):  # game by game for Table 1, else independent games: any pairing
        check_basis(claim, "final scores")
        pairs, where = source.pairs(claim)
        return [_paired(name, a, b, source.unit) for name, a, b in pairs], where, "final scores"
    scale = source.experiment.value_scale
    unit = abs(scale)
    keys = columns(claim, source)
    if any(not source.runs.records.get(key) for key in keys):
        raise NotJudged("a column has no runs yet")
    reading = final_reading(claim, source)  # for a claim on final scores
    if claim.test in ("value", "total") or source.experiment.kind == "final":
        check_basis(claim, reading)
    if claim.test == "speedup":
        raise NotJudged("a speed-up is judged by the fixed-n report (`make claims` without BUDGET): its bootstrap "
                        "has no anytime-valid form here")
    if claim.test == "value":
        reference = source.reference.set_index(source.reference.columns[0])
        published = float(reference.loc[claim.variant, claim.published])
        x = source.finals(claim.variant) * scale
        low, high = published - claim.margin, published + claim.margin
        ours = f"our mean {x.mean():.4g} against the published {published:g} +- {claim.margin:g}: "
        # the paper's own value of "ours - low" is its mean minus low, the margin: the magnitude asks whether
        # the published mean is ours (once: the other contrast is the same question turned over)
        return [sequential.Contrast(f"{ours}{claim.variant} above {low:g}", x - low, paired=False,
                                    published=claim.margin),
                sequential.Contrast(f"{ours}{claim.variant} below {high:g}", high - x, paired=False)], \
            "final scores", reading
    if claim.test == "total":
        # the boards are the pairs: "total A > total B" is "the mean over the boards of A - B > 0",
        # each board's difference the mean of its paired runs', times the number of boards so that
        # the mean is the difference of the totals (one run a board, as the papers made, is a sample
        # of 20)
        (better, worse), = claim.pairs
        n = min(len(source.runs.records[key]) for key in keys)
        boards = source.boards()
        per_board = np.array([np.mean(source.finals(f"{better} board {b}")[:n] - source.finals(f"{worse} board {b}")[:n])
                              for b in boards])
        return [sequential.Contrast(f"{better} vs {worse}, total over {len(boards)} boards (the boards as the pairs)",
                                    per_board * len(boards) * unit,
                                    published=published_difference(source, better, worse))], \
            "final scores", reading
    if claim.test == "gain":
        return _gain(claim, source, unit)
    if source.experiment.kind == "final":
        return [_paired(f"{a} vs {b}", source.finals(a), source.finals(b), unit) for a, b in claim.pairs], \
            "final scores", reading
    matched = source.experiment.matched_work and claim.axis != "playouts"
    rate = source.clock if matched else None
    axis = "playouts" if matched else claim.axis or source.time_axis
    check_basis(claim, time_reading(axis, rate))
    if claim.axis == "playouts" and source.last(axis, claim.variants()) < FIRST_PLAYOUTS:
        raise NotJudged(f"a run among the first {sequential.MIN_RUNS} of a column made fewer than "
                        f"{FIRST_PLAYOUTS} playouts: no checkpoint to judge at")
    points, where = checkpoint_times(claim, source, axis, rate)
    found = [_paired(pair_name(a, b, t, positions, axis, rate), source.at(a, axis, positions[a]),
                     source.at(b, axis, positions[b]), unit,
                     published_difference(source, a, b, t) if axis != "playouts" or rate else math.nan)
             for t, positions in points for a, b in claim.pairs]
    return found, where, reading_name(time_reading(axis, rate), rate)


def reading_name(reading: str, rate=None) -> str:
    """The basis column of a row: the comparison its runs were read at, and how for matched time."""
    return f"{reading} (matched: {rate.describe})" if rate is not None else reading


def _paired(name: str, a: np.ndarray, b: np.ndarray, unit: float, published: float = math.nan) -> sequential.Contrast:
    n = min(a.size, b.size)
    return sequential.Contrast(name, (a[:n] - b[:n]) * unit, published=published)


def _gain(claim: Claim, source: PrefixSource, unit: float) -> tuple[list[sequential.Contrast], str, str]:
    # at matched time the runs have a playout budget: the doublings of time are read at the
    # column's work at each (t x R x rho: doublings of the work, from claim.start x R x rho playouts)
    rate = source.clock if source.experiment.matched_work else None
    axis, unit_name = ("playouts", "playouts") if rate else (source.time_axis, "s")
    check_basis(claim, time_reading(axis, rate))
    start = rate.work(claim.start, claim.variant) if rate else claim.start
    # the runs reach the last doubling within a rounded budget's slack, as checkpoint_times reads them
    last = source.last(axis, claim.variants()) + (ROUNDED_BUDGET_SLACK if rate else 0.0)
    if rate:  # the doublings of the published time the runs reach, each read at the column's work then
        times = doubling_checkpoints(claim.start, rate.reach(last, claim.variant) * (1 + 1e-9))
        checkpoints = [rate.work(t, claim.variant) for t in times]
    else:
        checkpoints = doubling_checkpoints(start, last)
    if len(checkpoints) < 3:
        raise NotJudged(f"needs 2 doublings from {start:g} {unit_name}; the runs end at {last:g} {unit_name}")
    matrix = np.array([best_at(*axis_trace(r, axis), checkpoints) for r in source.runs.records[claim.variant]])
    half = (len(checkpoints) - 1) // 2
    early = (matrix[:, half] - matrix[:, 0]) / half
    late = (matrix[:, -1] - matrix[:, half]) / (len(checkpoints) - 1 - half)
    where = f"{len(checkpoints)} checkpoints, {checkpoints[0]:g}-{checkpoints[-1]:g} {unit_name}"
    basis = reading_name(time_reading(axis, rate), rate)
    return [sequential.Contrast(f"{claim.variant}: late gain above half the early one", (late - early / 2) * unit,
                                paired=False),
            sequential.Contrast(f"{claim.variant}: late gain below twice the early one", (2 * early - late) * unit,
                                paired=False)], where, basis


def decide_table(claims: list[Claim], sources: dict[str, PrefixSource], cap: int) -> pd.DataFrame:
    """One row per claim: its evidence from the runs so far, Holm-corrected anytime p-values,
    the verdict, the runs behind it (paired runs, CPU-seconds), and for an undecided claim
    the runs per column that would decide it (inf: more than ``cap``, or no effect)."""
    rows = []
    column_costs = {}  # claim -> [(runs, mean CPU-seconds a run)] per column, to price the runs that would decide it
    for claim in claims:
        source = sources[claim.experiment]
        about = claim_columns(claim, source)
        if isinstance(source, NeuralSource):  # the pipeline's results: no column the campaign grows
            keys, runs, cpu, starved = [], 0, 0.0, ""
        elif not claim.variants() <= {v.label for v in source.experiment.variants}:
            rows.append({**about, "columns": [], "runs": 0, "cpu_seconds": 0.0, "_evidence": None, "min_runs": None,
                         "starved": "", "basis": "-", "evaluated_at": "-", "detail": about["gaps"]})
            continue
        else:
            keys = columns(claim, source)
            runs, cpu = min(len(source.costs[k]) for k in keys), sum(sum(source.costs[k]) for k in keys)
            column_costs[claim.id] = [(len(source.costs[k]), float(np.mean(source.costs[k])) if source.costs[k] else math.nan)
                                      for k in keys]
            starved = starved_text(source.runs, keys)
        searches = {variant_key(source.experiment, v): search_key(source.experiment, v)
                    for v in source.experiment.variants} if keys else {}
        by_column = {searches.get(k, f"{claim.experiment}: {k}"): sum(source.costs[k]) for k in keys}
        row = {**about, "columns": keys, "runs": runs, "cpu_seconds": cpu, "_evidence": None, "min_runs": None,
               "starved": starved, "cpu_seconds_by_column": json.dumps(by_column, sort_keys=True)}
        try:
            found, where, basis = contrasts(claim, source)
        except NotJudged as reason:  # runs on another basis: none is made for it (min_runs 0)
            rows.append({**row, "basis": "-", "evaluated_at": "-", "detail": str(reason),
                         "min_runs": 0 if isinstance(reason, Refused) else None,
                         **({"why": UNTESTABLE} if isinstance(reason, Untestable) else {})})
            continue
        evidence = sequential.judge(found, paper_runs=int(claim.paper_settings.get("runs", PUBLISHED_RUNS)))
        if claim.test == "value":  # its contrasts' published value is the margin, not a number of the paper's
            evidence = dataclasses.replace(evidence, published=math.nan)
        rows.append({**row, "basis": basis, "evaluated_at": where, "runs": evidence.runs,
                     **evidence_columns(evidence), "detail": evidence.detail, "_evidence": evidence,
                     # a 20-board total's pairs are the boards: one run a board is a sample
                     "min_runs": 1 if claim.test == "total" else max(c.min_runs for c in found)})
    table = apply_settings(with_evidence_columns(pd.DataFrame(rows)))
    undecided = int((table["verdict"].isin(["inconclusive", "not judged"])).sum())
    table["runs_to_decide"] = [
        sequential.runs_to_decide(e, undecided, cap, int(m)) if v == "inconclusive" else math.nan
        for e, v, m in zip(table["_evidence"], campaign_verdicts(table), table["min_runs"])]
    table["cpu_hours_to_decide"] = [cpu_hours_to_reach(needed, column_costs.get(claim, []))
                                    for claim, needed in zip(table["claim"], table["runs_to_decide"])]
    return table.drop(columns=["_evidence"])


def cpu_hours_to_reach(needed: float, column_costs) -> float:
    """CPU-hours of the runs that bring every column to ``needed`` runs: each column's missing
    runs at its own CPU-seconds a run (``column_costs``: (runs, mean CPU-seconds a run) per
    column; a claim's columns can hold unequal counts). NaN when no number of runs is given."""
    if not math.isfinite(needed):
        return math.nan
    return sum(max(0.0, needed - runs) * cost for runs, cost in column_costs) / 3600


def campaign_verdicts(table: pd.DataFrame) -> list[str]:
    """The verdict a campaign works toward, per row: the row's own (a claim judged on a named
    reading grows under that reading; a claim whose runs at its paper's settings need hardware or
    compute beyond the campaign's gets no runs, where more scaled-down runs would decide nothing of
    it), or "not judged" for a claim at its settings whose runs are simply not made yet (the
    campaign makes them). A claim on a reading its paper's baseline rejects gets no runs: NOT_RUN,
    as one away from its paper's settings (runs under that reading decide nothing of it)."""
    why = table["why"].fillna("") if "why" in table else pd.Series("", index=table.index)
    return [NOT_RUN if reason == READING_REJECTED else "not judged" if verdict == NOT_RUN and not gaps else verdict
            for verdict, gaps, reason in zip(table["verdict"], table["gaps"].fillna(""), why)]


def starved_text(runs: Runs, keys) -> str:
    """The runs set aside as starved in columns ``keys``, "column: n; ..." ('' for none)."""
    return "; ".join(f"{key}: {runs.starved[key]}" for key in keys if runs.starved.get(key))


def starved_lines(table: pd.DataFrame) -> list[str]:
    """A report's line on the runs set aside as starved, per experiment and column (none: no line)."""
    columns = dict.fromkeys(f"{row['experiment']} {piece}" for _, row in table.iterrows() if row["starved"]
                            for piece in row["starved"].split("; "))
    if not columns:
        return []
    return [f"- Runs set aside as starved, other processes having taken their cores (experiments/machine.py): "
            f"{'; '.join(columns)}. No verdict counts them; a column is read up to its first missing run."]


def to_decide(row) -> str:
    """What an undecided claim would need, in words."""
    if row["verdict"] == "not judged" and row["why"] == READING_REJECTED:
        return ("a reading of the unsaid setting that the paper's published baseline accepts (docs/results/"
                "readings.md: make readings), then runs under it")
    if row["verdict"] == "not judged":
        return ("no run can: the paper's evidence is one run per row, so its rows can be set beside ours, not tested "
                "(a test needs several runs of each row, in the paper too)")
    if row["verdict"] == NOT_RUN:
        return f"~{row['paper_cost_hours']:,.1f} CPU-h at the paper's settings" \
            if row["why"] == NEEDS_COMPUTE and row["paper_cost_hours"] == row["paper_cost_hours"] else ""
    if row["verdict"] != "inconclusive":
        return ""
    if row["runs"] < row["min_runs"]:
        return f"{row['min_runs']:.0f} runs per column before a verdict can be read"
    if row["effect_low"] == row["effect_high"]:
        return ("every run scores the same: the confidence sequence reads no evidence from runs without "
                "spread (the fixed-n report of `make claims` judges such a column)")
    effect = row.get("effect", math.nan)
    if row["experiment"] in NEURAL and effect == effect and effect != 0:  # games the campaign does not make
        games = (f"~{row['runs_to_decide']:,.0f}" if math.isfinite(row["runs_to_decide"])
                 else f"more than {row['cap']}")
        return (f"{games} games per column (held-out games for Table 1): the neural pipeline's, more of them in "
                f"conf/neural_morpion.yaml, then `make {MAKE_TARGETS[NEURAL[row['experiment']]]}`")
    if not math.isfinite(row["runs_to_decide"]):
        return "no effect to detect" if not (effect == effect and effect != 0) else f"more than the cap of {row['cap']} runs per column"
    more = row["cpu_hours_to_decide"]
    cost = f"~{more:,.1f} CPU-h more" if more >= 0.1 else f"~{more * 60:,.0f} CPU-min more"
    return f"~{row['runs_to_decide']:,.0f} runs per column ({cost})"


def headline_rows(table: pd.DataFrame) -> list[str]:
    """The counts per kind: supported, contradicted and inconclusive at the stated settings and on a
    named reading, not run (hardware, compute), not judged (untestable, reading rejected)."""
    lines = ["| kind | claims | supported: stated settings | on a named reading | contradicted: stated settings | "
             "on a named reading | inconclusive: stated settings | on a named reading | not run: needs hardware | "
             "not run: needs compute | not judged: no run can test it | not judged: reading rejected |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for kind in KIND_SECTIONS:
        rows = table[table["kind"] == kind]
        if not len(rows):
            continue
        cells = [len(rows)]
        for verdict in ("supported", "contradicted", "inconclusive"):
            of = rows[rows["verdict"] == verdict]
            on_reading = int((of["judged_on"] == ON_READING).sum())
            cells += [len(of) - on_reading, on_reading]
        cells += [int(((rows["verdict"] == NOT_RUN) & (rows["why"] == why)).sum()) for why in (NEEDS_HARDWARE, NEEDS_COMPUTE)]
        cells += [int(((rows["verdict"] == "not judged") & (rows["why"] == why)).sum()) for why in (UNTESTABLE, READING_REJECTED)]
        lines.append(f"| {kind} | " + " | ".join(str(c) for c in cells) + " |")
    return lines


def stem_of(scale: str) -> str:
    """The reproduction status's file stem (analysis/claims/reproduction.py, which the claims report links):
    reproduction (the paper's scale, committed as docs/results/reproduction.*) or reproduction_<scale>."""
    return "reproduction" if scale == "paper" else f"reproduction_{scale}"


def write_report(table: pd.DataFrame, plan, *, scale: str, files, budget_hours: float, spent: float, cap: int,
                 wall: float, experiments: dict, when, code: dict) -> list:
    """outputs/claims/claims_<scale>_decided.{md,csv,png,pdf}: one row per claim; the Markdown
    has a short line per claim, its details below (docs/reference/claims-columns.md: the CSV's
    columns)."""
    from analysis.claims.files import load_not_tested
    from analysis.claims.report import claims_sections, item_of, not_tested_lines, plot_effects
    from analysis.claims.status import magnitude
    from analysis.results.plots import new_figure, save_figure

    table = table.assign(cap=cap, cpu_hours=table["cpu_seconds"] / 3600)
    table["to_decide"] = [to_decide(row) for _, row in table.iterrows()]
    table["columns"] = ["; ".join(c) for c in table["columns"]]
    table["item"] = [item_of(source) for source in table["source"]]  # the CSV's item column
    table.insert(table.columns.get_loc("published") + 1, "magnitude", [magnitude(row) for _, row in table.iterrows()])
    folder = next(iter(experiments.values())).store.root / "claims"
    folder.mkdir(parents=True, exist_ok=True)
    stem = folder / "_".join(["claims", scale, *(files or []), "decided"])
    table.to_csv(stem.with_suffix(".csv"), index=False)
    protocols = ", ".join(f"{name} ({e.scale}{', matched time' if e.matched_work else ''})"
                          for name, e in experiments.items())
    papers = table[table["kind"] == "paper"]
    untested = load_not_tested(files=files)
    compute = papers[(papers["verdict"] == NOT_RUN) & (papers["why"] == NEEDS_COMPUTE)]
    hardware = papers[(papers["verdict"] == NOT_RUN) & (papers["why"] == NEEDS_HARDWARE)]
    # each search once: claims that read the same one share its runs
    compute_hours = sum(parts_once(compute, "paper_cost_parts").values()) / 3600
    behind_hours = sum(parts_once(table, "cpu_seconds_by_column").values()) / 3600
    lines = [
        f"# Claims decided under a budget ({scale} scale)", "",
        f"Made {when:%Y-%m-%d %H:%M} UTC by `make claims BUDGET={budget_hours:g}h SCALE={scale}` "
        f"(code {str(code.get('git_commit'))[:7]}{', local changes' if code.get('git_dirty') else ''}), "
        f"{wall / 60:.0f} min of wall time. Which tables and figures this reproduces: "
        f"[{stem_of(scale)}.md]({stem_of(scale)}.md). Every column of the CSV: "
        "[the claims report's columns](../reference/claims-columns.md).", "",
        "## In short", "", *headline_rows(table), "",
        "- **On a named reading**: the paper leaves a setting unsaid (the level of the Selective time tables, the "
        "2-stone rule of Stabilized Table 4, ...); the claim is judged on the reading its file names, which each row's "
        "details state with what it rests on. **Not run**: runs at the paper's settings need a machine with more cores "
        f"({len(hardware)} paper claims, each naming the machine) or CPU-hours ({len(compute)} paper claims, "
        f"~{compute_hours:,.1f} CPU-h on one core, each run counted once, "
        f"{int(compute['paper_cost_hours'].notna().sum())} of {len(compute)} priced); what our scaled-down runs say is "
        "in their details, never counted. **Not judged**: no run can test the claim (one run per row in the paper).",
        f"- Budget {budget_hours:g} CPU-h; spent by this call {spent / 3600:.2f} CPU-h. The runs behind the verdicts "
        f"hold {behind_hours:.2f} CPU-h (a column several claims read counted once). A campaign gives no "
        f"more runs to {len(plan.capped)} undecided claims (beyond the cap of {cap} runs per column, no effect, or not "
        f"run at their papers' settings); about {plan.still_needed / 3600:.1f} CPU-h more would decide the "
        "inconclusive others within the cap.",
        "- The effect: the comparison that decides (> 0: as claimed), in the paper's unit, with its 95% confidence "
        "sequence for that comparison alone; the verdict reads Holm-corrected p-values, so an interval clear of 0 "
        "can sit beside \"inconclusive\". How to read every part: [How this report judges](#how-this-report-judges).",
        ""]
    lines += claims_sections(table)
    lines += not_tested_lines(untested)
    lines += [
        "## How this report judges", "",
        "- The basis of every row: the comparison its paper makes (equal time: the time tables, \"given the same "
        "computation time\"; equal playouts; complete searches; final scores; wall time on given cores) and the "
        "reading of the runs behind it. A claim is judged only on a reading of its own basis; runs of another are "
        "refused (analysis/claims/basis.py, check_basis). Equal time on a published time table is read at matched time: "
        "each column at t x R x rho(column) playouts, R the published runs' rate (fitted on the baseline column) and "
        "rho the column's playouts per CPU-second over the baseline's on this engine, measured by "
        "experiments/rates.py (report.published_rate in each experiment's config): the work the paper's machine did "
        "for that column in t seconds. At matched time the first published checkpoint, 0.01 s, is not read (a claim "
        "at every time reads them from 0.02 s): there the published means lie below ours in nearly every table, the "
        "mark of the paper's process starting up (analysis/claims/basis.py, FIRST_SCORED).",
        "- Method: each claim is reduced to contrasts whose mean it says is > 0 (paired runs of two columns, runs "
        "against a published boundary, or a 20-board total with the boards as the pairs; analysis/claims/decide.py) and each "
        "contrast gets an anytime-valid p-value from the asymptotic confidence sequence of Waudby-Smith, Arbour, "
        "Sinha, Kennedy and Ramdas (Annals of Statistics, 2024; Robbins' normal mixture as in Howard, Ramdas, "
        "McAuliffe and Sekhon, 2021), so that judging again after every round does not inflate false verdicts; "
        "intersection-union within a claim, Holm across the claims of a family (a kind, and within it three: the "
        "claims at their papers' stated settings, those on a named reading, and those not run there, whose "
        f"scaled-down p-values weigh on no counted verdict; the family column counts a family's claims with a "
        f"p-value), alpha = {verdicts.ALPHA}. No verdict from fewer than {sequential.MIN_RUNS} paired runs "
        f"({sequential.MIN_RUNS_ONE_SAMPLE} for one sample). A claim reads every run of its columns there is, up to "
        "the paper's own count where it states one. analysis/claims/sequential.py; the false-verdict rate of the whole loop "
        "on null claims is checked by simulation in tests/test_sequential.py.",
        "- The effect is the comparison with the least evidence for the claim (of a \"best\" or \"every\" claim's "
        "comparisons; the largest p-value, compared in logs where p-values underflow to 0), signed so that > 0 "
        "means as claimed; the interval and the p-values are the confidence sequence's running intersection "
        "and running minimum over every count of pairs from the first "
        f"{sequential.MIN_RUNS} on, so they can rest on an earlier count of pairs than the mean. \"Runs per column\" "
        "is the fewest runs among the claim's columns; runs are paired by repeat index.",
        f"- Runs: {protocols}.", *starved_lines(table), ""]
    stem.with_suffix(".md").write_text("\n".join(lines) + "\n")
    figure, ax = new_figure()
    figure.set_size_inches(9, 0.3 * int(table["verdict"].isin(JUDGED).sum()) + 2.2)
    left_out = plot_effects(table, ax)
    ax.set_title(f"Claims with a verdict ({scale} scale): ours beside the paper's effect", fontsize="medium")
    figure.text(0.01, 0.005, f"Not drawn: {len(left_out)} claims without a verdict (not run, or not judged): "
                "their rows in the report say why.", fontsize="x-small", color="0.3")
    return [stem.with_suffix(".csv"), stem.with_suffix(".md"), *save_figure(figure, stem)]
