"""The claims judged on runs that keep coming: `make claims BUDGET=...` (never runs a search).

Each claim of analysis/claims/*.yaml is reduced to contrasts (analysis/sequential.py): per
paired run index i, a value whose mean the claim says is > 0, in the claim's unit.

  compare  run i of A minus run i of B, at each checkpoint the claim names (runs of a column
           are independent, so pairing them by repeat index is as good as any pairing, and
           a difference of two identical columns is symmetric: few runs suffice)
  value    run i minus (published - margin), and (published + margin) minus run i
  total    over the boards, the sum of run i of A minus run i of B (one run of each column on
           each board makes one paired "run")
  gain     the claim "each doubling of time buys a roughly constant gain", read as the mean
           gain per doubling over the later half of the doublings within a factor 2 of the
           earlier half's: late - early / 2 > 0 and 2 early - late > 0, both linear in a run's
           best scores (the fixed-n report tests the ratio itself, analysis/verdicts.gain)

A claim on the neural pipeline's stored results (analysis/claims.py, NeuralSource) gives its
contrasts from them (the networks' games, paired per held-out game for Table 1); the campaign
makes no runs for it (it reads no column the campaign can grow), and says which `make`
target would give it more games.

Time-table claims are judged at matched work: our runs at t x R playouts, R the published
runs' rate (report.published_rate; the runs are made with matched_work=true, so a 163.84 s
claim is a run of 163.84 x R playouts, the same run on any machine). A column's runs are
read as a prefix (repeats 0, 1, ... up to the first missing one), so that the runs behind
a verdict are the first n of a fixed sequence.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from analysis import sequential, verdicts
from analysis.claims import (
    KIND_SECTIONS, MAKE_TARGETS, NEURAL, SCALED_DOWN, Claim, NeuralSource, NotJudged, Source, apply_settings,
    checkpoint_times, claim_cells, claim_columns, counts_line, evidence_columns,
)
from analysis.report import FIRST_PLAYOUTS, Runs, machine_counts, variant_key
from analysis.stats import best_at, doubling_checkpoints
from experiments.experiment import Experiment
from experiments.root_parallel import axis_trace, group_root_runs


def run_cost(record: dict) -> float:
    """The CPU-seconds a run took: its CPU time, or for a run on the wall clock (threads),
    its wall time times the cores it held."""
    settings = record["settings"]
    if settings.get("clock") == "wall":
        return float(record["result"]["wall_seconds"]) * max(1, int(settings.get("threads", 1)))
    return float(record["result"]["cpu_seconds"])


class PrefixSource(Source):
    """An experiment's runs as prefixes: for each column, its runs 0 .. n-1 (all there), with
    the CPU-seconds each cost. ``last`` on the playouts axis is fixed by the first
    sequential.MIN_RUNS runs, so that later runs do not move the checkpoint a claim is
    judged at."""

    def __init__(self, experiment: Experiment, cap: int):
        records, costs, starved, outliers = {}, {}, {}, {}
        for variant in experiment.variants:
            found = []
            paths = experiment.run_paths(variant)[:cap * variant.root]
            for path in paths:
                record = experiment.store.load_or_set_aside(path)
                if record is None:
                    break
                found.append(record)
            whole = len(found) // variant.root * variant.root
            key = variant_key(experiment, variant)
            starved[key], outliers[key] = machine_counts(experiment.store, paths, found)
            costs[key] = [sum(run_cost(r) for r in found[i:i + variant.root]) for i in range(0, whole, variant.root)]
            records[key] = group_root_runs(found[:whole], variant.root) if variant.root > 1 else found[:whole]
        super().__init__(experiment, Runs(records, {key: cap for key in records}, starved, outliers))
        self.costs = costs

    def last(self, axis: str, labels) -> float:
        if axis == "playouts":
            return min(r["result"]["playouts"] for label in labels
                       for r in self.runs.records[label][:sequential.MIN_RUNS])
        return super().last(axis, labels)


def columns(claim: Claim, source: Source) -> list[str]:
    """The variant keys (columns) whose runs the claim reads."""
    if claim.test == "total":
        return [f"{label} board {board}" for label in claim.variants() for board in source.boards()]
    return sorted(claim.variants())


def contrasts(claim: Claim, source: PrefixSource) -> tuple[list[sequential.Contrast], str, str]:
    """The claim's contrasts, where they are judged, and on which basis."""
    if isinstance(source, NeuralSource):  # game by game for Table 1, else independent games: any pairing
        pairs, where = source.pairs(claim)
        return [_paired(name, a, b, source.unit) for name, a, b in pairs], where, "final scores"
    scale = source.experiment.value_scale
    unit = abs(scale)
    keys = columns(claim, source)
    if any(not source.runs.records.get(key) for key in keys):
        raise NotJudged("a column has no runs yet")
    if claim.test == "speedup":
        raise NotJudged("a speed-up is judged by the fixed-n report (`make claims` without BUDGET): its bootstrap "
                        "has no anytime-valid form here")
    if claim.test == "value":
        reference = source.reference.set_index(source.reference.columns[0])
        published = float(reference.loc[claim.variant, claim.published])
        x = source.finals(claim.variant) * scale
        low, high = published - claim.margin, published + claim.margin
        ours = f"our mean {x.mean():.4g} against the published {published:g} +- {claim.margin:g}: "
        return [sequential.Contrast(f"{ours}{claim.variant} above {low:g}", x - low, paired=False),
                sequential.Contrast(f"{ours}{claim.variant} below {high:g}", high - x, paired=False)], \
            "final scores", "final scores"
    if claim.test == "total":
        (better, worse), = claim.pairs
        n = min(len(source.runs.records[key]) for key in keys)
        finals = {key: source.finals(key)[:n] for key in keys}
        boards = source.boards()
        difference = sum(finals[f"{better} board {b}"] - finals[f"{worse} board {b}"] for b in boards)
        return [sequential.Contrast(f"{better} vs {worse}, total over {len(boards)} boards", difference * unit)], \
            "final scores", "final scores"
    if claim.test == "gain":
        return _gain(claim, source, unit)
    if source.experiment.kind == "final":
        return [_paired(f"{a} vs {b}", source.finals(a), source.finals(b), unit) for a, b in claim.pairs], \
            "final scores", "final scores"
    matched = source.experiment.matched_work and claim.axis != "playouts"
    rate = source.experiment.published_rate if matched else None
    axis = "playouts" if matched else claim.axis or source.time_axis
    if claim.axis == "playouts" and source.last(axis, claim.variants()) < FIRST_PLAYOUTS:
        raise NotJudged(f"a run among the first {sequential.MIN_RUNS} of a column made fewer than "
                        f"{FIRST_PLAYOUTS} playouts: no checkpoint to judge at")
    times, where = checkpoint_times(claim, source, axis, rate)
    unit_name = "playouts" if axis == "playouts" else "s"
    found = [_paired(f"{a} vs {b} at {t:.4g} {unit_name}", source.at(a, axis, t), source.at(b, axis, t), unit)
             for t in times for a, b in claim.pairs]
    basis = "matched work" if matched else ("playouts" if axis == "playouts" else "equal time")
    return found, where, basis


def _paired(name: str, a: np.ndarray, b: np.ndarray, unit: float) -> sequential.Contrast:
    n = min(a.size, b.size)
    return sequential.Contrast(name, (a[:n] - b[:n]) * unit)


def _gain(claim: Claim, source: PrefixSource, unit: float) -> tuple[list[sequential.Contrast], str, str]:
    # at matched work the runs have a playout budget: the doublings of time are read as
    # doublings of the published work, from claim.start x R playouts
    rate = source.experiment.published_rate if source.experiment.matched_work else None
    axis, unit_name = ("playouts", "playouts") if rate else (source.time_axis, "s")
    start = rate.playouts(claim.start) if rate else claim.start
    last = source.last(axis, claim.variants())
    checkpoints = doubling_checkpoints(start, last)
    if len(checkpoints) < 3:
        raise NotJudged(f"needs 2 doublings from {start:g} {unit_name}; the runs end at {last:g} {unit_name}")
    matrix = np.array([best_at(*axis_trace(r, axis), checkpoints) for r in source.runs.records[claim.variant]])
    half = (len(checkpoints) - 1) // 2
    early = (matrix[:, half] - matrix[:, 0]) / half
    late = (matrix[:, -1] - matrix[:, half]) / (len(checkpoints) - 1 - half)
    where = f"{len(checkpoints)} checkpoints, {checkpoints[0]:g}-{checkpoints[-1]:g} {unit_name}"
    basis = "matched work" if source.experiment.matched_work else "equal time"
    return [sequential.Contrast(f"{claim.variant}: late gain above half the early one", (late - early / 2) * unit,
                                paired=False),
            sequential.Contrast(f"{claim.variant}: late gain below twice the early one", (2 * early - late) * unit,
                                paired=False)], where, basis


def decide_table(claims: list[Claim], sources: dict[str, PrefixSource], cap: int) -> pd.DataFrame:
    """One row per claim: its evidence from the runs so far, Holm-corrected anytime p-values,
    the verdict, the runs behind it (paired runs, CPU-seconds), and for an undecided claim
    the runs per column that would decide it (inf: more than ``cap``, or no effect)."""
    rows = []
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
            starved = starved_text(source.runs, keys)
        row = {**about, "columns": keys, "runs": runs, "cpu_seconds": cpu, "_evidence": None, "min_runs": None,
               "starved": starved}
        try:
            found, where, basis = contrasts(claim, source)
        except NotJudged as reason:
            rows.append({**row, "basis": "-", "evaluated_at": "-", "detail": str(reason)})
            continue
        evidence = sequential.judge(found)
        rows.append({**row, "basis": basis, "evaluated_at": where, "runs": evidence.runs,
                     **evidence_columns(evidence), "detail": evidence.detail, "_evidence": evidence,
                     "min_runs": max(c.min_runs for c in found)})
    table = apply_settings(pd.DataFrame(rows))
    undecided = int((table["verdict"].isin(["inconclusive", "not judged"])).sum())
    table["runs_to_decide"] = [
        sequential.runs_to_decide(e, undecided, cap, int(m)) if v == "inconclusive" else math.nan
        for e, v, m in zip(table["_evidence"], table["verdict"], table["min_runs"])]
    return table.drop(columns=["_evidence"])


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
    if row["verdict"] == "not judged":
        return row["detail"]
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
    more = (row["runs_to_decide"] - row["runs"]) * row["cpu_seconds"] / max(row["runs"], 1) / 3600
    cost = f"~{more:,.1f} CPU-h more" if more >= 0.1 else f"~{more * 60:,.0f} CPU-min more"
    return f"~{row['runs_to_decide']:,.0f} runs per column ({cost})"


def write_report(table: pd.DataFrame, plan, *, scale: str, files, budget_hours: float, spent: float, cap: int,
                 wall: float, experiments: dict, when, code: dict) -> list:
    """outputs/claims/claims_<scale>_decided.{md,csv,png,pdf}: one row per claim."""
    from analysis.claims import plot_effects
    from analysis.plots import new_figure, save_figure

    table = table.assign(cap=cap, cpu_hours=table["cpu_seconds"] / 3600)
    table["to_decide"] = [to_decide(row) for _, row in table.iterrows()]
    table["columns"] = ["; ".join(c) for c in table["columns"]]
    counts = table["verdict"].value_counts()
    folder = next(iter(experiments.values())).store.root / "claims"
    folder.mkdir(parents=True, exist_ok=True)
    stem = folder / "_".join(["claims", scale, *(files or []), "decided"])
    table.to_csv(stem.with_suffix(".csv"), index=False)
    protocols = ", ".join(f"{name} ({e.scale}{', matched work' if e.matched_work else ''})"
                          for name, e in experiments.items())
    lines = [
        f"# Claims decided under a budget ({scale} scale)", "",
        f"Made {when:%Y-%m-%d %H:%M} UTC by `make claims BUDGET={budget_hours:g}h SCALE={scale}` "
        f"(code {str(code.get('git_commit'))[:7]}{', local changes' if code.get('git_dirty') else ''}), "
        f"{wall / 60:.0f} min of wall time.", "",
        f"- Budget {budget_hours:g} CPU-h; spent by this call {spent / 3600:.2f} CPU-h. The runs behind the verdicts "
        f"(this call's, earlier calls', archived ones) hold {table['cpu_seconds'].sum() / 3600:.2f} CPU-h "
        "(a column shared by several claims counts once per claim).",
        "- Verdicts of the papers' claims: " + counts_line(table[table["kind"] == "paper"])
        + f"; {len(plan.capped)} claims got no more runs (beyond the cap of {cap} runs per column, or no effect); "
        f"about {plan.still_needed / 3600:.1f} CPU-h more would decide the others.",
        "- Method: each claim is reduced to contrasts whose mean it says is > 0 (paired runs of two columns, or "
        "runs against a published boundary; analysis/decide.py) and each contrast gets an anytime-valid p-value "
        "from the asymptotic confidence sequence of Waudby-Smith, Arbour, Sinha, Kennedy and Ramdas (Annals of "
        "Statistics, 2024; Robbins' normal mixture as in Howard, Ramdas, McAuliffe and Sekhon, 2021), so that "
        "judging again after every round does not inflate false verdicts; intersection-union within a claim, "
        f"Holm across the claims, alpha = {verdicts.ALPHA}. No verdict from fewer than {sequential.MIN_RUNS} "
        f"paired runs ({sequential.MIN_RUNS_ONE_SAMPLE} for one sample). The effect is in the claimed direction "
        "(> 0: as claimed), in the paper's unit, with its 95% confidence sequence. analysis/sequential.py; the "
        "false-verdict rate of the whole loop on null claims is checked by simulation in tests/test_sequential.py.",
        f"- Runs: {protocols}."
        + (" Matched work is t x R playouts, R the published runs' rate (report.published_rate); until 2026-11-26 "
           "it was t / k CPU-seconds with a fixed engine-speed factor k: those runs are other runs (other run "
           "ids), and verdicts made on them do not carry over." if any(e.matched_work for e in experiments.values())
           else ""), *starved_lines(table), "",
        ""]
    for kind, (title, about) in KIND_SECTIONS.items():
        rows = table[table["kind"] == kind]
        if not len(rows):
            continue
        lines += [f"## {title}", "", about, "", f"- {counts_line(rows, rows['cpu_seconds'].sum() / 3600)}.", "",
                  "| claim | source | paper's settings | judged at | basis | verdict | effect [95% CS] | p support / "
                  "contradict (Holm) | runs per column | CPU-h | to decide | decided by | scaled down |",
                  "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
        for _, row in rows.iterrows():
            verdict, scaled = claim_cells(row)
            head = f"| {row['text']} | {row['source']} | {row['paper_settings'] or '-'} |"
            if row["evaluated_at"] == "-":
                lines.append(f"{head} - | - | {verdict} | - | - | {row['runs']} | {row['cpu_hours']:.2f} | "
                             f"{row['to_decide']} | - | {scaled} |")
                continue
            lines.append(
                f"{head} {row['evaluated_at']} | {row['basis']} | {verdict} | "
                f"{row['effect']:+.4g} [{row['effect_low']:+.4g}, {row['effect_high']:+.4g}] | "
                f"{row['p_support_holm']:.2g} / {row['p_contradict_holm']:.2g} | {row['runs']} | "
                f"{row['cpu_hours']:.2f} | {row['to_decide']} | {row['detail']} | {scaled} |")
        lines.append("")
    stem.with_suffix(".md").write_text("\n".join(lines) + "\n")
    figure, ax = new_figure()
    figure.set_size_inches(9, 0.35 * len(table) + 1.5)
    plot_effects(table, ax)
    ax.set_title(f"Claims decided under a budget ({scale} scale): effects and verdicts", fontsize="medium")
    return [stem.with_suffix(".csv"), stem.with_suffix(".md"), *save_figure(figure, stem)]
