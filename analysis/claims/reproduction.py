"""Which published tables and figures does the harness reproduce? One status per display item.

    python -m analysis.claims.reproduction scale=paper            # outputs/claims/reproduction.{csv,md}
    python -m analysis.claims.reproduction scale=paper --readme   # and the README's summary between its markers

Reads the claims report under a budget (outputs/claims/claims_<scale>_decided.csv, which `make
claims` writes first) and, for the time tables and Morpion's Table 2, the runs themselves (each
published cell beside our mean and its 95% interval, at matched time). Never runs a search.

Each of the 22 display items of the four papers with published numbers (ITEMS) gets one status by
the rule of analysis/claims/status.py (tests/test_status.py holds it on made-up inputs): from its
paper claims' two answers (the direction: the verdict; the magnitude: do the paper's values of its
comparisons fit ours), the published baseline's fit at the table's R on the runs the claims read
and the other columns' at their matched work (analysis/claims/campaign_fit.py), and our runs per
column against the paper's. The row says what decided it.

A claim that no run can test (one run per row in the paper) counts with the claims not run, and
an item whose claims are all such says so beside its status (runs would compare, not test). The
share of published cells inside our 95% interval is shown beside the status, not folded into it
(the baseline's fit is: it says whether the curves match at the R, or the reference engine's
clock, the claims read):
a table's cells are its curves at every checkpoint, while the claims are the sentences the paper
draws from them, and either can hold without the other (cells_inside; R is fitted on each table's
baseline column, so the other columns' share is given apart).

Left out: Selective NRPA's Table 1 (the Weak Schur records of the literature, no experiment) and
the papers' illustrations; Gelly et al. (2008), whose Table 1 and unnumbered cluster table of
section 3.1 are on Go against MoGo: no Go engine is in this harness, so its claims are carried to
SP-MCTS on SameGame as transfers (the claims report).
"""

from __future__ import annotations

import math
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from analysis.claims.basis import matched_reach
from analysis.claims.judging import JUDGED, ON_READING, UNTESTABLE
from analysis.claims.paper_settings import parts_once
from analysis.claims.status import (against_the_text, basis_of, magnitude_counts, magnitude_words,
                                   magnitudes_text, other_clock, other_clock_short, status_of, verdicts_text)
from analysis.claims.decide import PrefixSource, stem_of
from analysis.stats import t_interval
from experiments.config import overrides_parser, print_outputs
from nrpa.errors import InputError

README = Path(__file__).resolve().parents[2] / "README.md"
RESULTS = README.parent / "docs" / "results"  # the committed snapshots
MARKERS = ("<!-- reproduction: made by `python -m analysis.claims.reproduction scale=paper --readme`; do not edit -->",
           "<!-- end of reproduction -->")


@dataclass(frozen=True)
class Item:
    paper: str  # the claims files' `paper:`, up to its first "(": how the claims name it
    item: str  # "Table 3", "Figure 5"
    shows: str  # what it shows, one line
    experiment: str | None  # the experiment whose runs make it (its cells: a time table or morpion_table2)
    target: str  # the make target that makes it
    basis: str  # the comparison the paper makes
    note: str = ""  # what the status alone does not say


def time_table(paper: str, item: str, shows: str, experiment: str, target: str = "") -> Item:
    """A published CPU-time table: its cells are the runs of ``experiment``, compared at equal time
    and read at matched time (t x R x rho playouts a column); made by the make target named as the
    experiment, dashes for its underscores, unless ``target`` names another."""
    return Item(paper, item, shows, experiment, target or experiment.replace("_", "-"), "equal time (matched)")


SELECTIVE, STABILIZED = "NRPA with Selective Policies", "Stabilized NRPA"
EXIT_COST = "priced as the paper's 11 Expert Iteration runs of 180 wall-hours, each on this machine's 2 threads"
DISTRIBUTED, MORPION = "Distributed NRPA", "Deep RL for Morpion Solitaire"
ITEMS = (
    time_table(SELECTIVE, "Table 2", "bus regulation: standard NRPA against the rule with delta = 1..4, mean score vs time", "selective_table2"),
    time_table(SELECTIVE, "Table 3", "SameGame board 1: no tabu, tabu, selective t > 0 and t > 10, mean score vs time", "selective_table3"),
    Item(SELECTIVE, "Table 4", "the 20 SameGame boards: NMCS, SP-MCTS, Selective NRPA level 4, records; totals",
         None, "selective-table4", "complete searches"),
    time_table(SELECTIVE, "Table 5", "Weak Schur K = 6, 7: standard policy against the rule, mean score vs time", "selective_table5"),
    time_table(SELECTIVE, "Table 6", "Weak Schur K = 8, 9: standard policy against the rule, mean score vs time", "selective_table6"),
    time_table(STABILIZED, "Table 1", "Maximum problem: NRPA and SNRPA(2, 3, 4, 10), mean value / 1e6 vs time", "stabilized_table1"),
    Item(STABILIZED, "Table 2", "the 20 SameGame boards: NMCS, SP-MCTS, NRPA, SNRPA(4), records; totals",
         None, "stabilized-table2", "complete searches"),
    time_table(STABILIZED, "Table 3", "TSPTW rc204.1: NRPA and SNRPA(2, 3, 4, 10), mean score vs time", "stabilized_table3"),
    time_table(STABILIZED, "Table 4", "SameGame board 1: NRPA and SNRPA(P), P = 2..7, 10, mean score vs time", "stabilized_table4", target="table4"),
    Item(DISTRIBUTED, "Table 1", "the 20 SameGame boards: NMCS(4), NRPA(4), Diversity-NRPA(4), Dist-NRPA(5) on 160 cores",
         None, "distributed-table1", "final scores, 2 h on 160 cores"),
    Item(DISTRIBUTED, "Figure 3", "leaf parallelism, shared and thread-local policy, levels 1-3: score vs iterations",
         None, "distributed-fig3", "equal playouts"),
    Item(DISTRIBUTED, "Figure 4", "the same strategies on 1 to 32 threads: score vs wall time on a 16-core node",
         None, "distributed-fig4", "wall time on 16 cores"),
    Item(DISTRIBUTED, "Figure 5", "root and two hybrid parallelisations on 160 cores: score vs wall time",
         None, "distributed-fig5", "wall time on 160 cores"),
    Item(MORPION, "Table 1", "imitation networks (BasicCNN, ResNet; R1, R2): held-out accuracy",
         None, "morpion-table1", "final scores"),
    Item(MORPION, "Table 2", "Morpion 5D: uniform policy, NRPA(1..3) and the networks' games: mean, max",
         "morpion_table2", "morpion-table2", "final scores"),
    Item(MORPION, "Table 3", "Nested(1) with ResNet R2 against the network alone and NRPA(2), NRPA(3)",
         None, "morpion-table3", "final scores"),
    Item(MORPION, "Table 4", "Expert Iteration variants after 180 h: the network's mean and max",
         None, "morpion-table4", "one run per row", note=EXIT_COST),
    Item(MORPION, "Figure 2", "NRPA games kept by the score filter: data diversity", None, "morpion-table1",
         "none (a description)", note="priced as Table 1's games (20,000 NRPA(3) games, our choice); its first "
         "set, 10,000 games scoring 80 or more, needs far more: 64 of our 400 NRPA(3) games reach 80"),
    Item(MORPION, "Figure 3", "imitation networks' loss during training", None, "morpion-table1", "none (curves)"),
    Item(MORPION, "Figure 4", "imitation networks' accuracy during training", None, "morpion-table1", "none (curves)"),
    Item(MORPION, "Figure 5", "score distribution of ResNet R1 and R2's games", None, "morpion-table2", "final scores"),
    Item(MORPION, "Figure 6", "Expert Iteration: the best score over time of the best approaches", None,
         "morpion-table4", "one run per row", note=EXIT_COST),
)
# The figures no claim reads, and the claims their cost is that of: Morpion's Figures 2 and 3 come from
# the imitation step of Table 1 (the same NRPA games and networks).
COST_OF = {(MORPION, "Figure 2"): (MORPION, "Table 1"), (MORPION, "Figure 3"): (MORPION, "Table 1")}


def claims_of(paper: str, item: str, claims: pd.DataFrame) -> pd.DataFrame:
    """The paper claims read on ``paper``'s ``item``: the paper's, whose source names the item
    ("Section 4.2, Table 3"; "Section 4, Figure 6, Table 4" reads on both)."""
    pattern = re.compile(rf"\b{re.escape(item)}\b")
    return claims[(claims["kind"] == "paper") & claims["paper"].str.startswith(paper)
                  & claims["source"].str.split(":").str[0].str.contains(pattern)]


def paper_runs(claims: pd.DataFrame) -> str:
    """The paper's runs per column as its claims' settings state them ("200"; Morpion's rows
    "400, 10000, 100000"), "-" where none says."""
    counts = sorted({int(n) for text in claims["paper_settings"].dropna()
                     for n in re.findall(r"(?:^|, )runs (\d+)", str(text))})
    return ", ".join(map(str, counts)) or "-"


def cost_of(claims: pd.DataFrame) -> float:
    """CPU-hours of the runs the claims need at their papers' settings, each part once (NaN: none priced)."""
    parts = parts_once(claims, "paper_cost_parts")
    return sum(parts.values()) / 3600 if parts else math.nan


def command_of(item: Item, claims: pd.DataFrame) -> str:
    """The commands that make the runs at the paper's settings: the claims' own where they give
    them (each once, "; " between), else the item's make target at paper scale."""
    found = [re.findall(r"`([^`]+)`", str(text))[:1] for text in claims["paper_cost"].dropna()]
    commands = list(dict.fromkeys(command for first in found for command in first))
    return "; ".join(commands) or f"make {item.target} SCALE=paper"


def effects_text(claims: pd.DataFrame, unit: bool = True) -> str:
    """The deciding numbers of the item's judged claims, both answers: "claim (inconclusive): paper
    +152, ours -71 [-155, +43], the paper's value does not fit ours: the paper's above ours"."""
    pieces = []
    for _, row in claims[claims["verdict"].isin(JUDGED)].iterrows():
        published = f"paper {row['published']:+.4g}, " if pd.notna(row["published"]) else ""
        where = magnitude_words(row)
        pieces.append(f"{row['claim']} ({row['verdict']}): {published}ours {row['effect']:+.4g} "
                      f"[{row['effect_low']:+.4g}, {row['effect_high']:+.4g}]" + (f", {where}" if where else "")
                      + (f" ({row['unit']})" if unit and isinstance(row["unit"], str) and row["unit"] != "score" else ""))
    return "; ".join(pieces)


def runs_of(text: str) -> int | None:
    """One number of runs a column from "200" (None from "-" or from several, "400, 10000")."""
    numbers = re.findall(r"\d+", text)
    return int(numbers[0]) if len(numbers) == 1 else None


# --- the published cells beside ours ---

def time_table_cells(name: str, scale: str, overrides=()) -> pd.DataFrame:
    """Each published cell of a time table beside our mean and 95% t interval at matched time
    (each column at t x R x rho playouts, or at the reference engine's clock where the claims read
    it, on the claims' runs; a column read up to its first missing run): columns time, column,
    published, mean, low, high, runs, inside."""
    from analysis.claims.engines import reading_experiment
    from experiments.experiment import load_experiment

    if scale == "paper":  # where the claims read the reference engine's clock, their runs at it
        experiment, clock = reading_experiment(name, overrides)
        return source_cells(PrefixSource(experiment, cap=200, clock=clock))
    experiment = load_experiment([f"experiment={name}", f"scale={scale}", "matched_work=true", *overrides])
    return source_cells(PrefixSource(experiment, cap=200))


def source_cells(source) -> pd.DataFrame:
    """time_table_cells of the runs ``source`` (an analysis.claims.decide.PrefixSource) holds."""
    experiment = source.experiment
    rate, reference, scale_by = source.clock, source.reference, experiment.value_scale
    fitted = set(source.published_rate().fit_on)  # R (or the clock's s) is fitted on these columns' published cells
    rows = []
    for column in reference.columns[1:]:
        if not source.runs.records.get(column):
            continue
        last = matched_reach(source, column, rate)
        for t, published in zip(reference["time"], reference[column]):
            if t > last * (1 + 1e-9) or pd.isna(published):
                continue
            values = source.at(column, "playouts", rate.work(float(t), column))
            values = values[np.isfinite(values)] * scale_by  # the paper's unit
            rows.append({"time": float(t), "column": column, "published": float(published),
                         "fitted": column in fitted, **interval(values)})
    return pd.DataFrame(rows)


def morpion_cells(scale: str, overrides=()) -> pd.DataFrame:
    """Morpion Table 2's Uniform and NRPA(L) means beside ours, each row under the game its claim
    is judged on: Uniform under the 5D its text states, the NRPA rows under the one-sided reading
    the published Uniform row chooses (analysis/readings.yaml, case morpion_game), which is why
    the Uniform row counts apart (``fitted``: it chose the reading)."""
    from analysis.claims.sources import Source
    from analysis.results.report import collect
    from experiments.experiment import load_experiment

    # the two games the rows are judged on (line_span 6 is no claim's)
    experiment = load_experiment(["experiment=morpion_table2", f"scale={scale}", "morpion_rules=standard,one_sided", *overrides])
    source = Source(experiment, collect(experiment))
    reference = source.reference.set_index(source.reference.columns[0])
    rows = []
    for column in reference.index:
        ours = column if column == "Uniform" else f"{column}, one-sided"
        if source.runs.records.get(ours):
            rows.append({"time": math.nan, "column": column, "published": float(reference.loc[column, "mean"]),
                         "fitted": column == "Uniform", **interval(source.finals(ours))})
    return pd.DataFrame(rows)


def interval(values: np.ndarray) -> dict:
    """Mean, 95% t interval (analysis.stats.t_interval), count, of ``values``."""
    mean, low, high = t_interval(values)
    return {"mean": mean, "low": low, "high": high, "runs": values.size}


def cells_of(item: Item, scale: str, overrides=()) -> pd.DataFrame | None:
    """The published cells of ``item`` beside ours (None: an item without cells here); ``overrides``:
    those of the claims report (outputs_dir=...), so that both read the same runs."""
    if item.experiment is None:
        return None
    cells = (morpion_cells(scale, overrides) if item.experiment == "morpion_table2"
             else time_table_cells(item.experiment, scale, overrides))
    if cells.empty:
        return cells
    return cells.assign(inside=(cells["low"] <= cells["published"]) & (cells["published"] <= cells["high"]))


def final_cells_text(cells: pd.DataFrame) -> str:
    """The last published row of a time table (or Morpion's rows): "NRPA 2,838 / ours 2,810 [2,780, 2,840]"."""
    last = cells[cells["time"] == cells["time"].max()] if cells["time"].notna().any() else cells
    at = f"at {last['time'].iloc[0]:g} s: " if cells["time"].notna().any() else ""
    return at + "; ".join(f"{row.column} paper {row.published:,.6g}, ours {row.mean:,.6g} [{row.low:,.6g}, {row.high:,.6g}]"
                          f" ({'inside' if row.inside else 'outside'})"
                          for row in last.itertuples())


def reproduction_table(claims: pd.DataFrame, scale: str, cells=cells_of, overrides=(), curves=None) -> pd.DataFrame:
    """One row per display item (ITEMS): its status and what it rests on. ``curves``: item -> (the
    published baseline's fit at the table's R, {other column: its fit}) or None (baseline_fit by
    default: measured on the runs, for the campaign's time tables at paper scale)."""
    curves = curves or (lambda item: baseline_fit(item, scale, overrides))
    rows = []
    for item in ITEMS:
        own = claims_of(item.paper, item.item, claims)
        table = cells(item, scale, overrides)
        runs = "-"
        if table is not None and not table.empty:
            runs = ", ".join(f"{column} {count}" for column, count in table.groupby("column", sort=False)["runs"].min().items())
        fewest = int(table["runs"].min()) if table is not None and not table.empty else None
        curve, others = curves(item) or (None, {})
        published_runs = runs_of(paper_runs(own))
        status, detail = status_of(own, curve, fewest, published_runs, others)
        priced = claims_of(*COST_OF[(item.paper, item.item)], claims) if (item.paper, item.item) in COST_OF else own
        # what is not run costs: every claim of an item not run, else its claims that are not judged
        not_run = priced if status.startswith("not run") else own[~own["verdict"].isin(JUDGED)]
        hours = cost_of(not_run) if len(not_run) or status.startswith("not run") else math.nan
        untestable = bool(len(own)) and (own["why"] == UNTESTABLE).all()
        unfitted = table[~table["fitted"]] if table is not None and not table.empty else None
        judged = own[own["verdict"].isin(JUDGED)]
        readings = judged[judged["judged_on"] == ON_READING]
        basis, _ = basis_of(judged)  # the claims the status reads (those against the text stand apart)
        outside, compared = magnitude_counts(basis)
        rows.append({
            "paper": item.paper, "item": item.item, "shows": item.shows, "basis": item.basis,
            "status": status, "detail": detail,
            "claims": len(own), "claims_supported": int((own["verdict"] == "supported").sum()),
            "claims_contradicted": int((own["verdict"] == "contradicted").sum()),
            "claims_inconclusive": int((own["verdict"] == "inconclusive").sum()),
            "claims_not_run": int((~own["verdict"].isin(JUDGED)).sum()),
            "directions": verdicts_text(basis) if len(basis) else "",
            "magnitudes": magnitudes_text(basis) if len(basis) else "",
            "effects_outside": outside, "effects_compared": compared,
            "baseline_fit": curve.text() if curve is not None else "",
            "baseline_fits": "" if curve is None else "yes" if curve.fits else "no",
            "other_columns_fit": f"{sum(fit.fits for fit in others.values())} of {len(others)}" if others else "",
            "sample": f"{fewest} of the paper's {published_runs}" if fewest and published_runs else "",
            "runs_per_column": runs,
            "paper_runs_per_column": paper_runs(own),
            "cells": 0 if table is None else len(table),
            "cells_inside": math.nan if table is None or table.empty else int(table["inside"].sum()),
            "cells_unfitted": 0 if unfitted is None else len(unfitted),
            "cells_unfitted_inside": math.nan if unfitted is None else int(unfitted["inside"].sum()),
            "final_cells": "" if table is None or table.empty else final_cells_text(table),
            "effects": effects_text(own),
            "in_short": in_short(status, own, curve, others, f"{fewest} of the paper's {published_runs}"
                                 if fewest and published_runs else "", full=bool(fewest and published_runs
                                                                                and fewest >= published_runs)),
            "cpu_hours_to_run": hours,
            "command": command_of(item, not_run) if math.isfinite(hours) or status.startswith("not run") else "",
            "claim_ids": " ".join(own["claim"]),
            "target": item.target,
            "snapshot": snapshot_of(item),
            "note": "; ".join(filter(None, [
                item.note, "no run can test its claims (one run per row in the paper): runs would set ours beside "
                           "the paper's, not test them" if untestable else ""])),
            "readings": " | ".join(f"{row.claim}: {row.reading}" for row in readings.itertuples()),
        })
    return pd.DataFrame(rows)


def baseline_fit(item: Item, scale: str, overrides=()):
    """The published baseline's fit at the table's R on the runs the claims read, and each other
    column's at its matched work (analysis/claims/campaign_fit.table_fit), or where the claims read
    the reference engine's clock the columns' fits at that clock (engines.clock_fits), for a time table of the
    campaign at paper scale; None elsewhere (an item without a baseline curve, or a scale whose runs
    the campaign does not make)."""
    from analysis.claims.campaign_fit import table_fit, tables
    from analysis.claims.engines import claims_clock, clock_fits, measured_table

    if scale != "paper" or item.experiment not in tables():
        return None
    if claims_clock(item.experiment, overrides) is not None:  # the claims read the reference engine's clock
        return clock_fits(measured_table(item.experiment, tuple(overrides)))
    fit, _, others = table_fit(item.experiment, overrides)
    return fit, others


def snapshot_of(item: Item) -> str:
    """The committed paper-scale snapshot of the item's table, docs/results/<experiment>_paper.md, if any."""
    name = f"{item.experiment}_paper.md" if item.experiment else ""
    return name if name and (RESULTS / name).is_file() else ""


def status_cell(row) -> str:
    """The status with the number that qualifies it: "partly reproduced (3 of 4 directions hold)",
    "inconclusive (122 of the paper's 200 runs a column)", "not run: needs compute (~120 CPU-h)"."""
    status = row["status"]
    if status == "partly reproduced":
        return f"partly reproduced ({row['claims_supported']} of {row['claims'] - row['claims_not_run']} directions hold)"
    if status == "inconclusive" and isinstance(row["sample"], str) and row["sample"]:
        return f"inconclusive ({row['sample']} runs a column)"
    if status == "not run: needs compute" and pd.notna(row["cpu_hours_to_run"]):
        return f"not run: needs compute (~{row['cpu_hours_to_run']:,.0f} CPU-h)"
    if status == "not run: needs hardware" and row["detail"]:
        return f"not run: needs hardware ({row['detail']})"
    return status


def cells_cell(row) -> str:
    """"23 of 75 (the columns R is not fitted on: 11 of 60)"."""
    if not row["cells"]:
        return "-"
    text = f"{row['cells_inside']:.0f} of {row['cells']}"
    if 0 < row["cells_unfitted"] < row["cells"]:
        text += f" (the columns R is not fitted on: {row['cells_unfitted_inside']:.0f} of {row['cells_unfitted']})"
    return text


def markdown(table: pd.DataFrame, scale: str, made: str) -> str:
    lines = [f"# Reproduction status ({scale} scale)", "",
             f"{made} One row per table or figure of the four papers with published numbers. Its status reads "
             "four things (the rule: `analysis/claims/status.py`, and [the statistics page]"
             "(../explanation/statistics.md#the-status-of-a-table-or-figure)): the directions of the paper's claims on "
             "it (their verdicts in the [claims report](claims_paper_decided.md), on the paper's basis: matched time "
             "for the time tables); the magnitudes (do the paper's values of the claims' comparisons fit ours, with "
             "both samples' errors?); the curves (does the published baseline fit our runs at the table's R, the one "
             "R its claims read, on the runs they read, and each other published column at its matched work, t x R "
             "x rho, rho measured on this engine: `python -m analysis.claims.campaign_fit`; where a table's claims "
             "read the C++ reference engine's clock, every column at that clock, W_ref(t / s), for the claims, the "
             "curves and the cells alike: [the two clocks](engines_clocks.md)); and our runs per column "
             "against the paper's. \"Fits\" means not rejected at 5% (Bonferroni), nothing stronger, with R and rho "
             "taken as exact. \"What "
             "decided it\" names them. \"Cells inside\": the published cells inside our 95% interval at matched time "
             "(Morpion: the four rows' means, Uniform under the 5D its text states, the NRPA rows under the one-sided "
             "game the Uniform row chooses, [the readings report](readings.md)), shown beside the status, not folded "
             "into it; R is fitted on each time table's baseline column, whose cells are therefore inside partly by "
             "construction (as Morpion's Uniform row, which chose the game): the other columns' share is given apart. "
             "Left out: Selective NRPA's Table 1 (the Weak Schur records of the literature, no experiment), the "
             "illustrations, and Gelly et al.'s Table 1 and cluster table (Go against MoGo: no Go engine here; its "
             "claims are carried to SP-MCTS as transfers, in the claims report).", ""]
    for paper, rows in table.groupby("paper", sort=False):
        lines += [f"## {paper}", "", "| item | what it shows | status | what decided it | cells inside our 95% CI "
                  "| runs per column: ours | the paper's |", "|---|---|---|---|---|---|---|"]
        for _, row in rows.iterrows():
            lines.append(f"| [{row['item']}](#{anchor(row)}) | {row['shows']} | **{status_cell(row)}** | "
                         f"{row['detail'] or '-'} | {cells_cell(row)} | {row['runs_per_column']} | "
                         f"{row['paper_runs_per_column']} |")
        lines.append("")
    lines += ["## Details", ""]
    for _, row in table.iterrows():
        lines += [f"### {row['paper']}, {row['item']} {{#{anchor(row)}}}", "", f"- What it shows: {row['shows']}; "
                  f"the paper's basis: {row['basis']}.", f"- Status: **{status_cell(row)}**"
                  + (f": {row['detail']}" if row["detail"] else "") + "."]
        if isinstance(row["note"], str) and row["note"]:
            lines.append(f"- Note: {row['note']}.")
        if row["claim_ids"]:
            lines.append(f"- Claims: {', '.join(f'`{c}`' for c in row['claim_ids'].split())}.")
        for reading in filter(None, row["readings"].split(" | ") if isinstance(row["readings"], str) else []):
            claim, _, text = reading.partition(": ")
            lines.append(f"- `{claim}` is judged on the reading: {text}.")
        if row["effects"]:
            lines.append(f"- Each claim's two answers, the direction (its verdict, on Holm-corrected p-values; beside "
                         f"it the deciding comparison's 95% confidence sequence, not Holm-corrected; > 0: as claimed) "
                         f"and the magnitude (do the paper's values of its comparisons fit ours: analysis/claims/"
                         f"status.py): {row['effects']}.")
        if row["baseline_fit"]:
            lines.append(f"- The curves where the claims read them: {row['baseline_fit']} "
                         + ("(`make engines`)." if "reference engine's clock" in row["baseline_fit"]
                            else "(`python -m analysis.claims.campaign_fit`)."))
        if row["final_cells"]:
            lines.append(f"- Published cells beside ours (mean, 95% CI), {row['final_cells']}.")
        matched = " ARGS=matched_work=true" if str(row["basis"]).endswith("(matched)") else ""
        lines.append(f"- Our table and figure: `make {row['target']} SCALE=paper{matched}` writes them under `outputs/` "
                     "(from the runs the archive holds, making only those it lacks"
                     + ("; the matched-time runs the claims read" if matched else "") + ")"
                     + (f"; committed: [{row['snapshot']}]({row['snapshot']})" if row["snapshot"] else "") + ".")
        if pd.notna(row["cpu_hours_to_run"]):
            commands = ", ".join(f"`{command}`" for command in row["command"].split("; "))
            lines.append(f"- Runs at the paper's settings, as the claims read them: ~{row['cpu_hours_to_run']:,.1f} "
                         f"CPU-h on one core (each run counted once; the claims' cost texts say how each is priced): "
                         f"{commands}.")
        lines.append("")
    return "\n".join(lines)


def anchor(row) -> str:
    return re.sub(r"[^a-z0-9]+", "-", f"{row['paper']} {row['item']}".lower()).strip("-")


# The README's summary: the words of each status in a sentence, in the order of status.STATUSES
SAID = {"clock-dependent": "a direction holds at one engine's clock and not at the other",
        "reproduced": "reproduced", "reproduced on a reading": "reproduced on a named reading",
        "qualitatively reproduced": "the directions hold, not all the magnitudes or curves",
        "partly reproduced": "some directions hold", "not reproduced": "not reproduced",
        "inconclusive": "inconclusive so far", "no reading fits": "no reading of its unsaid settings fits",
        "not run": "not run (hardware or CPU-hours)"}
GELLY = "Gelly et al. 2008"  # the claims files' paper of its transfers


def short(item: str) -> str:
    return item.replace("Table ", "T").replace("Figure ", "F")


def in_short(status: str, own: pd.DataFrame, curve, others: dict, sample: str, full: bool) -> str:
    """What qualifies an item's status in the README's sentence, read on the claims the status reads
    (status.basis_of) of the item's paper claims ``own``: "(3 of 4 directions, not
    samegame-t10-beats-tabu-late; 50 of the paper's 200 runs; its baseline off at R; ...)";
    ``others``: the other columns' fits."""
    judged = own[own["verdict"].isin(JUDGED)]
    if judged.empty:
        return ""
    basis, apart = basis_of(judged)
    pieces = []
    if len(own) > len(judged):
        pieces.append(f"{len(judged)} of its {len(own)} claims judged")
    if status == "partly reproduced":
        failing = basis[basis["verdict"] != "supported"]
        pieces.append(f"{len(basis) - len(failing)} of {len(basis)} directions hold; "
                      + ", ".join(f"{row.claim} {row.verdict}" for row in failing.itertuples()))
    if status == "not reproduced" and (basis["verdict"] == "inconclusive").all():
        pieces.append("its directions inconclusive")
    if sample and (status == "inconclusive" or not full):
        pieces.append(f"{sample} runs")
    if status == "inconclusive" and curve is not None and curve.clock:
        pieces.append("read at the reference engine's clock")
    if status in ("qualitatively reproduced", "partly reproduced", "not reproduced"):
        contradicted = int((basis["verdict"] == "contradicted").sum())
        if status == "not reproduced" and contradicted:
            pieces.append(f"{contradicted} of {len(basis)} claims contradicted")
        outside, compared = magnitude_counts(basis)
        if outside:
            pieces.append(f"the paper's values not ours for {outside} of {compared} claims")
        if curve is not None:
            at = "the reference clock" if curve.clock else "R"
            pieces.append(f"its baseline fitting at {at}" if curve.fits else f"its baseline off at {at}")
        if others:
            off = sum(not fit.fits for fit in others.values())
            at = "the reference clock" if any(fit.clock for fit in others.values()) else "R x rho"
            pieces.append(f"{off} of {len(others)} other columns off at {at}" if off else "the other columns fitting")
        if not len(apart) and against_the_text(basis).all():
            pieces.append("on a reading against the text")
    if len(other_clock(basis)):
        pieces.append(f"at a second clock not told apart: {other_clock_short(basis)}")
    if len(apart):
        pieces.append(f"{len(apart)} claims on a reading against the text apart")
    return f" ({'; '.join(pieces)})" if pieces else ""


def paper_sentence(paper: str, rows: pd.DataFrame) -> str:
    """One sentence on a paper: its items by status, each status once, each item with what qualifies
    it ("NRPA with Selective Policies: the directions hold, not all the magnitudes or curves: T2 (1 of 2
    published effects outside our intervals, the published curves off at its R), ...")."""
    statuses = rows["status"].str.replace(r"^not run.*", "not run", regex=True)
    parts = []
    for status, words in SAID.items():
        chosen = rows[statuses == status]
        if len(chosen):
            parts.append(f"{words}: " + ", ".join(short(row["item"]) + (row["in_short"] if isinstance(row["in_short"], str)
                                                                          else "") for _, row in chosen.iterrows()))
    return f"**{paper}**: " + "; ".join(parts) + "."


def gelly_sentence(claims: pd.DataFrame) -> str:
    """Gelly et al.'s line: no Go engine here; its claims carried to SP-MCTS, with their verdicts."""
    carried = claims[claims["paper"].astype(str).str.startswith(GELLY)]
    counts = carried["verdict"].value_counts()
    said = ", ".join(f"{n} {verdict}" for verdict, n in counts.items())
    return (f"**{GELLY}** (parallel Monte-Carlo planning, on Go): no Go engine here, so its tables are not "
            f"reproduced; its {len(carried)} claims are carried to SP-MCTS on SameGame as transfers: {said or 'none'}.")


def readme_block(table: pd.DataFrame, claims: pd.DataFrame | None = None) -> str:
    """The README's summary (between MARKERS): a sentence per paper, the five papers named, then the
    items by status and the counts."""
    lines = [MARKERS[0], ""]
    for paper, rows in table.groupby("paper", sort=False):
        lines += [f"- {paper_sentence(paper, rows)}"]
    if claims is not None:
        lines += [f"- {gelly_sentence(claims)}"]
    statuses = table["status"].str.replace(r"^not run.*", "not run", regex=True)
    counts = statuses.value_counts()
    lines += ["", f"{len(table)} published tables and figures of the four papers with published numbers (T: table, "
              "F: figure): " + ", ".join(f"{counts.get(status, 0)} {status}" for status in SAID) + ".", "", MARKERS[1]]
    return "\n".join(lines)


def replace_readme_block(text: str, block: str) -> str:
    start, end = text.find(MARKERS[0]), text.find(MARKERS[1])
    if start < 0 or end < start:
        raise InputError(f"{README}: no reproduction markers ({MARKERS[0]} ... {MARKERS[1]})")
    return text[:start] + block + text[end + len(MARKERS[1]):]


def write(scale: str, readme: bool = False, folder: Path | None = None, overrides=()) -> list[Path]:
    """outputs/claims/<stem_of(scale)>.{csv,md} from the claims report there (and the README's summary
    with ``readme``); ``overrides``: those of the claims report (outputs_dir=...)."""
    from experiments.experiment import load_experiment

    folder = folder or load_experiment(["experiment=stabilized_table4", f"scale={scale}", *overrides]).store.root / "claims"
    report = folder / f"claims_{scale}_decided.csv"
    if not report.is_file():
        raise InputError(f"no claims report {report}: run `make claims BUDGET=0 SCALE={scale}` first")
    claims = pd.read_csv(report, keep_default_na=False, na_values=[""])
    table = reproduction_table(claims, scale, overrides=overrides)
    stem = folder / stem_of(scale)
    table.to_csv(stem.with_suffix(".csv"), index=False)
    made = (f"Made by `python -m analysis.claims.reproduction scale={scale}` (part of `make claims`) from "
            f"`claims_{scale}_decided.csv` and the runs.")
    stem.with_suffix(".md").write_text(markdown(table, scale, made) + "\n")
    paths = [stem.with_suffix(".csv"), stem.with_suffix(".md")]
    if readme:
        README.write_text(replace_readme_block(README.read_text(), readme_block(table, claims)))
        paths.append(README)
    return paths


def main(argv: list[str] | None = None) -> int:
    parser = overrides_parser(__doc__, "scale=S (paper, quick, smoke), then any override of the experiments (outputs_dir=...)")
    parser.add_argument("--readme", action="store_true", help="also rewrite the README's summary between its markers")
    arguments = parser.parse_args(argv)
    key, _, scale = arguments.overrides[0].partition("=")
    if key != "scale" or scale not in ("paper", "quick", "smoke"):
        parser.error(f"{arguments.overrides[0]!r}: give scale=paper, scale=quick or scale=smoke first")
    return print_outputs(lambda: write(scale, arguments.readme, overrides=arguments.overrides[1:]))


if __name__ == "__main__":
    sys.exit(main())
