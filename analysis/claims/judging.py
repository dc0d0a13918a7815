"""Claims judged on a fixed number of runs, and the verdicts both claims reports give.

evaluate reads a claim's evidence off its runs on one basis (the tests are analysis/claims/verdicts.py's);
claims_table makes a row per claim and basis; apply_settings corrects the p-values (Holm, within
each family of claims) and reads each row's verdict, or why it has none (NOT_RUN, UNTESTABLE,
READING_REJECTED); claim_columns are the columns every claims report has for a claim (the budgeted
report, analysis/claims/decide.py, uses them with its own evidence).
"""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd

from analysis.claims import reading_cases, verdicts
from analysis.claims.basis import BASES, check_basis, checkpoint_times, final_reading, pair_name, time_reading
from analysis.claims.files import NEURAL, Claim
from analysis.claims.paper_settings import (NEEDS_COMPUTE, NEEDS_HARDWARE, UNSTATED, paper_cost, settings_gaps,
                                            why_not_judged)
from analysis.claims.sources import NeuralSource, NotJudged, Source, Untestable
from analysis.stats import best_at, doubling_checkpoints
from experiments.experiment import experiment_names
from experiments.root_parallel import axis_trace

# a claim whose runs at the paper's settings need hardware or compute this machine lacks (its why);
# what scaled-down runs say is kept apart, in scaled_down_verdict
NOT_RUN = "not run"
# A claim no run can test: its paper's evidence is one run per row (Morpion's Expert Iteration), so a
# difference cannot be told from one run's luck, here or there; its row compares, it does not judge.
UNTESTABLE = "no run can test it"
# A claim on a reading that the paper's own published baseline rejects (analysis/claims/readings.py, the
# committed fit in docs/results/readings.csv): no verdict rests on it; its row says what its runs say.
READING_REJECTED = "its reading does not fit the paper's published baseline"
# Why a row has no verdict: not run at the paper's settings (the first of its gaps' kinds in this
# order; runs not made at all need compute), or untestable. An unstated setting is no reason: the
# claim is judged on the claim file's reading of it, and its row says so (judged_on).
WHY = (NEEDS_HARDWARE, NEEDS_COMPUTE, UNTESTABLE, READING_REJECTED)
# judged_on: what a paper claim's verdict rests on, the settings its paper states or, where the paper
# leaves one unsaid, the reading its claim file names (on the paper's text elsewhere, the code it
# points to, or a fit to its published numbers)
ON_STATED, ON_READING = "the stated settings", "a named reading"
# reading_fit of a claim on a reading that no published column can test (analysis/readings.yaml has no case for it)
ARGUED_ONLY = "argued only (docs/readings.md): no published baseline column tests it"
VERDICTS = ("supported", "contradicted", "inconclusive", NOT_RUN, "not judged")
JUDGED = VERDICTS[:3]


def evaluate(claim: Claim, source: Source, basis: str) -> tuple[verdicts.Evidence, str] | None:
    """The evidence for ``claim`` from its runs on ``basis`` (one of BASES), with where it
    was judged; None where the basis does not apply."""
    scale = source.experiment.value_scale
    rate = source.published_rate() if basis == "matched time" else None
    if basis == "matched time" and (rate is None or claim.axis == "playouts" or claim.test == "gain"):
        return None
    if claim.test == "total":
        check_basis(claim, final_reading(claim, source))
        return _total(claim, source, scale), "final scores"
    if claim.test == "speedup":  # Gelly et al.'s k: the parallel column at t scores as the sequential one at k t
        check_basis(claim, "wall time")
        from analysis.results.speedup import speedup_samples
        at = source.last("wall_seconds", {claim.variant, "sequential"})
        if min(len(source.runs.records.get(label, [])) for label in (claim.variant, "sequential")) < 2:
            raise NotJudged(f"{claim.variant} or sequential has fewer than 2 runs")
        k, samples = speedup_samples(source.runs.records, claim.variant, at)
        return verdicts.speedup(k, samples, float(claim.published), claim.margin,
                                runs=len(source.runs.records[claim.variant]),
                                detail=f"{claim.variant} at {at:g} s: "), f"{at:g} s"
    if claim.test == "value" or source.experiment.kind == "final":
        check_basis(claim, final_reading(claim, source))
        if claim.test == "value":
            reference = source.reference.set_index(source.reference.columns[0])
            published = float(reference.loc[claim.variant, claim.published])
            if source.finals(claim.variant).size < 2:
                raise NotJudged(f"{claim.variant} has fewer than 2 runs")
            return verdicts.value(source.finals(claim.variant), published, claim.margin, unit_scale=scale), \
                "final scores"
        pairs = [(f"{a} vs {b}", source.finals(a), source.finals(b)) for a, b in claim.pairs]
        if any(min(a.size, b.size) < 2 for _, a, b in pairs):
            raise NotJudged("a variant has fewer than 2 runs")
        return verdicts.compare(pairs, unit_scale=scale), "final scores"
    axis = "playouts" if rate else claim.axis or source.time_axis
    check_basis(claim, time_reading(axis, rate))
    if claim.test == "gain":
        last = source.last(axis, claim.variants())
        checkpoints = doubling_checkpoints(claim.start, last)
        matrix = np.array([best_at(*axis_trace(r, axis), checkpoints) for r in source.runs.records[claim.variant]])
        matrix = matrix[np.isfinite(matrix).all(axis=1)]
        if len(checkpoints) < 3 or len(matrix) < 2:
            raise NotJudged(f"needs 2 runs over 2 doublings from {claim.start:g} s; the runs end at {last:g} s")
        where = f"{len(checkpoints)} checkpoints, {checkpoints[0]:g}-{checkpoints[-1]:g} s"
        return verdicts.gain(matrix, unit_scale=scale, detail=f"{claim.variant}: "), where
    points, where = checkpoint_times(claim, source, axis, rate)
    pairs = []
    for t, positions in points:
        for a, b in claim.pairs:
            # higher is better in the kernel's unit: compare there
            a_values, b_values = source.at(a, axis, positions[a]), source.at(b, axis, positions[b])
            if np.isfinite(a_values).sum() >= 2 and np.isfinite(b_values).sum() >= 2:
                pairs.append((pair_name(a, b, t, positions, axis, rate), a_values, b_values))
    if not pairs:
        raise NotJudged("no checkpoint where both variants have 2 runs with a solution")
    return verdicts.compare(pairs, unit_scale=scale), where


def _total(claim: Claim, source: Source, scale: float) -> verdicts.Evidence:
    boards = source.boards()
    (better, worse), = claim.pairs

    def per_board(label: str) -> list[np.ndarray]:
        found = [source.runs.records.get(f"{label} board {board}", []) for board in boards]
        if not all(found):
            raise NotJudged(f"{label} has no runs on some of the boards")
        return [np.array([r["result"]["best_score"] for r in rs], dtype=float) for rs in found]

    return verdicts.total(per_board(better), per_board(worse), unit_scale=abs(scale),
                          detail=f"{better} vs {worse} over {len(boards)} boards: ")


def claim_columns(claim: Claim, source: Source) -> dict:
    """The columns every claims report has for a claim: what it is, where the paper says it,
    the paper's settings, and how far the runs are from them (gaps: none, a verdict may be
    given; else the paper's settings' cost)."""
    gaps = settings_gaps(claim, source)
    # the cost of runs at the paper's settings (any kind: a transfer's at its experiment's paper scale)
    known = claim.experiment in NEURAL or claim.experiment in experiment_names()
    hours, cost, parts = paper_cost(claim, source) if known else (math.nan, "", {})
    on_reading = claim.kind == "paper" and any(gap.kind == UNSTATED for gap in gaps)
    fits = reading_cases.committed_fits().get(claim.experiment, []) if on_reading else []
    rejected = READING_REJECTED if any(map(reading_cases.rejects, fits)) else ""
    return {"paper": claim.paper, "kind": claim.kind, "claim": claim.id, "text": claim.text,
            "experiment": claim.experiment, "test": claim.test, "claim_basis": claim.basis, "unit": unit_of(source),
            "source": source_text(claim), "paper_settings": settings_text(claim),
            "reading": claim.reading, "against_text": claim.against_text, "gaps": "; ".join(gaps),
            "reading_fit": ("; ".join(map(reading_cases.fit_text, fits)) or ARGUED_ONLY) if on_reading else "",
            "why": why_not_judged(gaps) or rejected,
            "judged_on": (ON_READING if on_reading else ON_STATED) if claim.kind == "paper" else "",
            "paper_cost": cost, "paper_cost_hours": hours, "paper_cost_parts": json.dumps(parts, sort_keys=True)}


def settings_text(claim: Claim) -> str:
    return ", ".join(f"{key} {'/'.join(map(str, value)) if isinstance(value, tuple) else value}"
                     for key, value in claim.settings)


def source_text(claim: Claim) -> str:
    """The source cell: where, the quote, and the published numbers the claim reads."""
    return f"{claim.where}: \"{claim.quote}\"" + (f" ({claim.figures})" if claim.figures else "")


def apply_settings(table: pd.DataFrame, p_columns=("p_support", "p_contradict"), by=("kind",)) -> pd.DataFrame:
    """Holm's correction within each group of rows ``by`` (a kind is its own family: transfers
    and observations never weigh on the papers' claims; within it three: the rows at the settings
    their paper states, those on a named reading, those not run there), then each row's verdict:

      judged       supported, contradicted or inconclusive, on the stated settings or on the claim
                   file's reading of a setting the paper leaves unsaid (judged_on says which)
      NOT_RUN      no runs at the paper's settings: they need hardware or compute (why); what our
                   scaled-down runs say is kept in scaled_down_verdict, never counted as a verdict
      not judged   no run can test the claim (why: UNTESTABLE, set by the caller), or its reading
                   does not fit the paper's published baseline (READING_REJECTED)"""
    for key in p_columns:
        if key not in table:
            table[key] = np.nan
        table[f"{key}_holm"] = np.nan
    for key in ("why", "judged_on"):
        if key not in table:
            table[key] = ""
    # three families within a kind: at the stated settings, on a named reading, away from the paper's
    # settings (scaled down, never counted): a p-value of one never weighs on another's verdicts
    table["_away"] = np.where(~table["gaps"].astype(bool), "stated",
                              np.where(table["why"].fillna("").astype(bool), "away", "reading"))
    for _, rows in table.groupby([*by, "_away"], sort=False):
        for key in p_columns:
            table.loc[rows.index, f"{key}_holm"] = verdicts.holm(rows[key])
        # Holm's m: the rows of the family with a p-value (a row with no runs yet tests nothing)
        table.loc[rows.index, "family"] = max(1, int(np.isfinite(rows[p_columns[0]].astype(float)).sum()))
    table.pop("_away")
    found = [verdicts.verdict(s, c) if e is not None else ""
             for s, c, e in zip(table["p_support_holm"], table["p_contradict_holm"], table["_evidence"])]
    verdict, why, scaled_down = [], [], []
    for ours, reason in zip(found, table["why"].fillna("")):
        if reason in (UNTESTABLE, READING_REJECTED):
            verdict.append("not judged"), why.append(reason), scaled_down.append("")
        elif reason or not ours:  # hardware or compute at the paper's settings; no runs at all: compute
            verdict.append(NOT_RUN), why.append(reason or NEEDS_COMPUTE), scaled_down.append(ours)
        else:
            verdict.append(ours), why.append(""), scaled_down.append("")
    table["verdict"], table["why"], table["scaled_down_verdict"] = verdict, why, scaled_down
    table["judged_on"] = np.where(table["verdict"].isin(JUDGED), table["judged_on"].fillna(""), "")
    return table


def claims_table(claims: list[Claim], sources: dict[str, Source]) -> pd.DataFrame:
    """One row per (claim, basis) with its evidence, Holm-corrected p-values and verdict."""
    rows = []
    for claim in claims:
        source = sources[claim.experiment]
        about = claim_columns(claim, source)
        if isinstance(source, NeuralSource):  # final values: judged once, as a final-score table's claims
            try:
                evidence, where = source.evidence(claim)
            except NotJudged as reason:
                rows.append({**about, "basis": BASES[0], "evaluated_at": "-", "detail": str(reason), "_evidence": None,
                             **({"why": UNTESTABLE} if isinstance(reason, Untestable) else {})})
                continue
            rows.append({**about, "basis": BASES[0], "evaluated_at": where, "runs": evidence.runs, "runs_missing": 0,
                         "runs_starved": 0, **evidence_columns(evidence), "detail": evidence.detail,
                         "_evidence": evidence})
            continue
        if not claim.variants() <= {v.label for v in source.experiment.variants}:
            rows.append({**about, "basis": BASES[0], "evaluated_at": "-", "detail": about["gaps"], "_evidence": None})
            continue
        for basis in BASES:
            try:
                result = evaluate(claim, source, basis)
            except NotJudged as reason:
                rows.append({**about, "basis": basis, "evaluated_at": "-", "detail": str(reason), "_evidence": None})
                continue
            if result is None:
                continue
            evidence, where = result
            missing = {label: source.runs.expected[label] - len(rs) for label, rs in source.runs.records.items()
                       if len(rs) < source.runs.expected[label]}
            rows.append({**about, "basis": basis, "evaluated_at": where, "runs": evidence.runs,
                         "runs_missing": sum(missing.values()),
                         "runs_starved": sum(source.runs.starved.get(label, 0) for label in source.runs.records),
                         **evidence_columns(evidence), "detail": evidence.detail, "_evidence": evidence})
    table = apply_settings(with_evidence_columns(pd.DataFrame(rows)), by=("basis", "kind"))
    # no verdict from fewer runs than the budgeted report accepts (analysis/claims/sequential.py): the sd of
    # a handful of runs says too little, and a smoke report's two runs a column would otherwise decide
    few = np.array([e is not None and e.runs < minimum_runs(test) for e, test in zip(table["_evidence"], table["test"])],
                   dtype=bool)
    for column in ("verdict", "scaled_down_verdict"):
        for index in table.index[table[column].isin(["supported", "contradicted"]) & few]:
            table.loc[index, column] = "inconclusive"
            table.loc[index, "detail"] = (f"{table.loc[index, 'detail']} (a verdict needs "
                                          f"{minimum_runs(table.loc[index, 'test'])} runs per column)")
    table["runs_to_decide"] = [verdicts.runs_to_decide(e, int(f)) if v == "inconclusive" else np.nan
                               for e, f, v in zip(table["_evidence"], table["family"], table["verdict"])]
    return table.drop(columns=["_evidence"])


def minimum_runs(test: str) -> int:
    """The fewest runs per column (or games) on which a report gives a verdict, as the budgeted
    report (analysis/claims/sequential.py): one sample (a published value, a gain) needs more than pairs."""
    from analysis.claims import sequential

    return sequential.MIN_RUNS_ONE_SAMPLE if test in ("value", "gain") else sequential.MIN_RUNS


def evidence_columns(evidence) -> dict:
    """A report row's columns from its Evidence."""
    return {key: getattr(evidence, key) for key in ("effect", "effect_low", "effect_high", "standardized",
                                                     "standardized_low", "standardized_high", "p_support",
                                                     "p_contradict", "published", "published_inside",
                                                     "published_compared", "published_z")}


def with_evidence_columns(table: pd.DataFrame) -> pd.DataFrame:
    """``table`` with every evidence column, NaN where a row has none (a report whose every row is
    not judged still has them)."""
    for key in ("effect", "effect_low", "effect_high", "standardized", "standardized_low", "standardized_high",
                "p_support", "p_contradict", "published", "published_inside", "published_compared", "published_z",
                "runs"):
        if key not in table:
            table[key] = np.nan
    return table


def unit_of(source) -> str:
    """The unit of a claim's effect, in words: the paper's unit of its table (with its scale)."""
    if isinstance(source, NeuralSource):
        return "accuracy, percentage points" if source.step == "table1" else "moves (score)"
    experiment = source.experiment
    if experiment.unit:
        return experiment.unit
    if abs(experiment.value_scale) != 1:
        return f"score x {abs(experiment.value_scale):g} (the paper's unit)"
    return "score"
