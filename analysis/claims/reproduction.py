"""Which published tables and figures does the harness reproduce? One status per display item.

    python -m analysis.claims.reproduction scale=paper            # outputs/claims/reproduction.{csv,md}
    python -m analysis.claims.reproduction scale=paper --readme   # and the README's summary between its markers

Reads the claims report under a budget (outputs/claims/claims_<scale>_decided.csv, which `make
claims` writes first) and, for the time tables and Morpion's Table 2, the runs themselves (each
published cell beside our mean and its 95% interval, at matched time). Never runs a search.

Each of the 22 display items of the four papers with published numbers (ITEMS) gets one status,
by this rule (status_of; tests/test_reproduction.py holds it on made-up inputs):

  reproduced                  every paper claim read on the item is judged and supported, on the
                              settings its paper states
  reproduced on a reading     the same, where at least one verdict rests on a named reading of a
                              setting the paper leaves unsaid
  not reproduced              every claim is judged and contradicted
  no reading fits             no claim judged, because the reading they rest on does not fit the
                              paper's published baseline and no other candidate does either
                              (docs/results/readings.md): the published numbers are not those of
                              the search as the text and the readings tried describe it
  partly (k of n claims)      some claims judged, not all supported (k: supported; the row says how
                              many are contradicted and inconclusive, and which are not run)
  not run: needs hardware     no claim judged; runs at the paper's settings need a machine with more
                              cores than this one (the row names it)
  not run: needs compute      no claim judged, or an item no claim reads; runs at the paper's
                              settings need CPU-hours (the row gives them, each run counted once,
                              and the command)

A claim that no run can test (one run per row in the paper) counts with the claims not run, and
an item whose claims are all such says so beside its status (runs would compare, not test). The
share of published cells inside our 95% interval is shown beside the status, not folded into it:
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
from analysis.claims.judging import JUDGED, NOT_RUN, ON_READING, READING_REJECTED, UNTESTABLE
from analysis.claims.paper_settings import NEEDS_HARDWARE, parts_once
from analysis.claims.decide import PrefixSource, stem_of
from analysis.stats import t_interval
from experiments.config import overrides_parser, print_outputs
from nrpa.errors import InputError

STATUSES = ("reproduced", "reproduced on a reading", "partly", "not reproduced", "no reading fits",
            "not run: needs hardware", "not run: needs compute")  # status_of's, in the order of the module's rule
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


def status_of(claims: pd.DataFrame) -> tuple[str, str]:
    """The status of an item from the verdicts of its paper claims (the module's rule), and
    its detail: the counts behind a "partly", the machine behind "needs hardware"."""
    n = len(claims)
    judged = claims[claims["verdict"].isin(JUDGED)]
    if judged.empty:
        if (claims["why"] == READING_REJECTED).any():
            return "no reading fits", "its claims' reading does not fit the published baseline (the readings report)"
        hardware = claims[(claims["verdict"] == NOT_RUN) & (claims["why"] == NEEDS_HARDWARE)]
        if len(hardware):
            machine = re.match(r"a machine with [\d,]+ cores", str(hardware["paper_cost"].iloc[0]))
            return "not run: needs hardware", machine.group(0) if machine else ""
        return "not run: needs compute", ""
    supported = int((judged["verdict"] == "supported").sum())
    contradicted = int((judged["verdict"] == "contradicted").sum())
    on_reading = bool((judged["judged_on"] == ON_READING).any())
    if supported == n:
        return ("reproduced on a reading" if on_reading else "reproduced"), ""
    if contradicted == n:
        return "not reproduced", ""
    not_run = int((claims["verdict"] == NOT_RUN).sum())
    rejected = int((claims["why"] == READING_REJECTED).sum())
    untestable = n - len(judged) - not_run - rejected
    detail = (f"{supported} of {n} claims supported, {contradicted} contradicted, "
              f"{len(judged) - supported - contradicted} inconclusive"
              + (f", {not_run} not run" if not_run else "")
              + (f", {rejected} not judged (reading rejected)" if rejected else "")
              + (f", {untestable} not judged (no run can test it)" if untestable else "")
              + ((" (verdicts on a named reading)" if (judged["judged_on"] == ON_READING).all()
                  else " (some verdicts on a named reading)") if on_reading else ""))
    return "partly", detail


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
    """The deciding numbers of the item's judged claims: "claim: paper +152, ours -71 [-155, +43]"."""
    pieces = []
    for row in claims[claims["verdict"].isin(JUDGED)].itertuples():
        published = f"paper {row.published:+.4g}, " if pd.notna(row.published) else ""
        pieces.append(f"{row.claim}: {published}ours {row.effect:+.4g} [{row.effect_low:+.4g}, {row.effect_high:+.4g}]"
                      + (f" ({row.unit})" if unit and isinstance(row.unit, str) and row.unit != "score" else ""))
    return "; ".join(pieces)


# --- the published cells beside ours ---

def time_table_cells(name: str, scale: str, overrides=()) -> pd.DataFrame:
    """Each published cell of a time table beside our mean and 95% t interval at matched time
    (each column at t x R x rho playouts, read on the matched-time runs, the claims' runs; a
    column read up to its first missing run): columns time, column, published, mean, low, high,
    runs, inside."""
    from experiments.experiment import load_experiment

    experiment = load_experiment([f"experiment={name}", f"scale={scale}", "matched_work=true", *overrides])
    return source_cells(PrefixSource(experiment, cap=200))


def source_cells(source) -> pd.DataFrame:
    """time_table_cells of the runs ``source`` (an analysis.claims.decide.PrefixSource) holds."""
    experiment = source.experiment
    rate, reference, scale_by = source.published_rate(), source.reference, experiment.value_scale
    fitted = set(rate.fit_on)  # R is fitted on these columns' published cells
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


def reproduction_table(claims: pd.DataFrame, scale: str, cells=cells_of, overrides=()) -> pd.DataFrame:
    """One row per display item (ITEMS): its status and what it rests on."""
    rows = []
    for item in ITEMS:
        own = claims_of(item.paper, item.item, claims)
        status, detail = status_of(own)
        priced = claims_of(*COST_OF[(item.paper, item.item)], claims) if (item.paper, item.item) in COST_OF else own
        table = cells(item, scale, overrides)
        runs = "-"
        if table is not None and not table.empty:
            runs = ", ".join(f"{column} {count}" for column, count in table.groupby("column", sort=False)["runs"].min().items())
        # what is not run costs: every claim of an item not run, else the claims of a "partly" that are not
        not_run = priced if status.startswith("not run") else own[~own["verdict"].isin(JUDGED)]
        hours = cost_of(not_run) if len(not_run) or status.startswith("not run") else math.nan
        untestable = bool(len(own)) and (own["why"] == UNTESTABLE).all()
        unfitted = table[~table["fitted"]] if table is not None and not table.empty else None
        readings = own[own["verdict"].isin(JUDGED) & (own["judged_on"] == ON_READING)]
        rows.append({
            "paper": item.paper, "item": item.item, "shows": item.shows, "basis": item.basis,
            "status": status, "detail": detail,
            "claims": len(own), "claims_supported": int((own["verdict"] == "supported").sum()),
            "claims_contradicted": int((own["verdict"] == "contradicted").sum()),
            "claims_inconclusive": int((own["verdict"] == "inconclusive").sum()),
            "claims_not_run": int((~own["verdict"].isin(JUDGED)).sum()),
            "runs_per_column": runs,
            "paper_runs_per_column": paper_runs(own),
            "cells": 0 if table is None else len(table),
            "cells_inside": math.nan if table is None or table.empty else int(table["inside"].sum()),
            "cells_unfitted": 0 if unfitted is None else len(unfitted),
            "cells_unfitted_inside": math.nan if unfitted is None else int(unfitted["inside"].sum()),
            "final_cells": "" if table is None or table.empty else final_cells_text(table),
            "effects": effects_text(own),
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


def snapshot_of(item: Item) -> str:
    """The committed paper-scale snapshot of the item's table, docs/results/<experiment>_paper.md, if any."""
    name = f"{item.experiment}_paper.md" if item.experiment else ""
    return name if name and (RESULTS / name).is_file() else ""


def status_cell(row) -> str:
    status = row["status"]
    if status == "partly":
        others = [f"{row[f'claims_{verdict}']} {verdict}" for verdict in ("contradicted", "inconclusive")
                  if row[f"claims_{verdict}"]]
        return f"partly ({row['claims_supported']} of {row['claims']} claims supported" \
               + "".join(f", {text}" for text in others) + ")"
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
             f"{made} One row per table or figure of the four papers with published numbers; the rule that maps "
             "claims to a status is in `analysis/claims/reproduction.py` and [the statistics page]"
             "(../explanation/statistics.md#the-status-of-a-table-or-figure). \"Claims\": the paper's sentences on the "
             "item, judged in the [claims report](claims_paper_decided.md) on the paper's basis (matched time for "
             "the time tables); \"cells inside\": the published cells inside our 95% interval at matched time "
             "(Morpion: the four rows' means, Uniform under the 5D its text states, the NRPA rows under the one-sided "
             "game the Uniform row chooses, [the readings report](readings.md)); R, the published runs' rate, is "
             "fitted on each time table's baseline column, whose cells are therefore inside partly by construction "
             "(as Morpion's Uniform row, which chose the game): the other columns' share is given apart. The claims can hold while the curves sit apart, and the reverse. Left out: "
             "Selective NRPA's Table 1 (the Weak Schur records of the literature, no experiment), the illustrations, "
             "and Gelly et al.'s Table 1 and cluster table (Go against MoGo: no Go engine here; its claims are carried "
             "to SP-MCTS as transfers, in the claims report).", ""]
    for paper, rows in table.groupby("paper", sort=False):
        lines += [f"## {paper}", "", "| item | what it shows | status | claims: supported / contradicted / "
                  "inconclusive / not run or not judged | cells inside our 95% CI | runs per column: ours | the paper's |",
                  "|---|---|---|---|---|---|---|"]
        for _, row in rows.iterrows():
            lines.append(f"| [{row['item']}](#{anchor(row)}) | {row['shows']} | **{status_cell(row)}** | "
                         f"{row['claims_supported']} / {row['claims_contradicted']} / {row['claims_inconclusive']} / "
                         f"{row['claims_not_run']} | {cells_cell(row)} | {row['runs_per_column']} | "
                         f"{row['paper_runs_per_column']} |")
        lines.append("")
    lines += ["## Details", ""]
    for _, row in table.iterrows():
        lines += [f"### {row['paper']}, {row['item']} {{#{anchor(row)}}}", "", f"- What it shows: {row['shows']}; "
                  f"the paper's basis: {row['basis']}.", f"- Status: **{status_cell(row)}**"
                  + (f" ({row['detail']})" if row["detail"] and row["status"] == "partly" else "") + "."]
        if isinstance(row["note"], str) and row["note"]:
            lines.append(f"- Note: {row['note']}.")
        if row["claim_ids"]:
            lines.append(f"- Claims: {', '.join(f'`{c}`' for c in row['claim_ids'].split())}.")
        for reading in filter(None, row["readings"].split(" | ") if isinstance(row["readings"], str) else []):
            claim, _, text = reading.partition(": ")
            lines.append(f"- `{claim}` is judged on the reading: {text}.")
        if row["effects"]:
            lines.append(f"- The paper's effect beside ours (> 0: as claimed), 95% confidence sequence: {row['effects']}.")
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


def readme_block(table: pd.DataFrame) -> str:
    """The README's summary: a line per paper, its items by status (between MARKERS)."""
    lines = [MARKERS[0], "", "| paper | reproduced | on a reading | partly | not reproduced | no reading fits | not run |",
             "|---|---|---|---|---|---|---|"]
    for paper, rows in table.groupby("paper", sort=False):
        def items(statuses) -> str:
            chosen = rows[rows["status"].isin(statuses)]
            return ", ".join(chosen["item"].str.replace("Table ", "T").str.replace("Figure ", "F")) or "-"
        lines.append(f"| {paper} | {items(['reproduced'])} | {items(['reproduced on a reading'])} | {items(['partly'])} "
                     f"| {items(['not reproduced'])} | {items(['no reading fits'])} "
                     f"| {items(['not run: needs hardware', 'not run: needs compute'])} |")
    counts = table["status"].str.replace(r"^not run.*", "not run", regex=True).value_counts()
    lines += ["", f"{len(table)} published tables and figures (T: table, F: figure): "
              + ", ".join(f"{counts.get(s, 0)} {s}" for s in ("reproduced", "reproduced on a reading", "partly",
                                                             "not reproduced", "no reading fits", "not run"))
              + ".", "", MARKERS[1]]
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
        README.write_text(replace_readme_block(README.read_text(), readme_block(table)))
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
