"""Does each published result hold? The claims report (never runs a search).

    python -m analysis.claims.report scale=quick                 # outputs/claims/claims_quick.{md,csv,png}
    python -m analysis.claims.report scale=quick --experiments   # check the claims, list their experiments

The claims are in analysis/claims/<paper>.yaml, each a statement over one experiment's runs
with its test (analysis/claims/verdicts.py says which test fits which claim and why). Each claim
is evaluated twice:
  at the published time   our runs at the time the paper states (or at their last checkpoint
                          when the paper's time is beyond the runs' budget: the report says so)
  at matched time         each column at t x R x rho(column) playouts, read on the runs'
                          playouts traces, R the published runs' rate (playouts per second
                          of the paper's engine on its machine, fitted on the baseline column)
                          and rho the column's playouts per CPU-second over the baseline's on
                          this engine (report.published_rate.relative, experiments/rates.py):
                          the work the paper's machine did for that column in t seconds, the
                          same on any machine. Only for claims on a published CPU-time table;
                          n/a elsewhere (playouts and final scores need no matching).
A claim is judged only on a reading of the comparison its paper makes (its file's `basis`:
equal time, equal playouts, complete searches, final scores, wall time; check_basis).
A claim may rest on the neural pipeline's stored results instead of an experiment's runs
(experiment: neural_table1 .. neural_table4, the steps of experiments/neural.py): NeuralSource
reads them at the report's scale, with the runs of morpion_table2 (Uniform, NRPA(L)) beside
them; where they are not made yet the claim is not judged and its row says which `make` target
makes them.
Holm's correction runs across the claims of each of the two evaluations; the verdict
(supported, contradicted, inconclusive) reads the corrected p-values at alpha = 0.05, and an
inconclusive claim gets about how many runs per column would decide it.
`make claims SCALE=...` first runs every experiment that has runs missing.
"""

from __future__ import annotations

import math
import re
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from analysis.claims.basis import BASES
from analysis.claims.files import (Claim, NotTested, experiment_of, load_claims, load_experiments, load_not_tested,
                                   resolve)
from analysis.claims.judging import JUDGED, NOT_RUN, ON_READING, READING_REJECTED, UNTESTABLE, claims_table
from analysis.claims.paper_settings import NEEDS_COMPUTE, NEEDS_HARDWARE
from analysis.claims.sources import Source, with_neural_sources
from analysis.claims.status import magnitude_words
from analysis.results.plots import new_figure, save_figure
from analysis.results.report import collect
from experiments.config import overrides_parser, print_outputs
from experiments.experiment import Experiment
from nrpa.errors import InputError


def effect_cells(row) -> tuple[str, str]:
    """The effect cell, "+3.1 [-47, +50]" (> 0: as claimed), and the paper's own effect of the same
    comparison beside it, with where it lies against ours (status.magnitude)."""
    ours = f"{row['effect']:+.4g} [{row['effect_low']:+.4g}, {row['effect_high']:+.4g}]"
    where = magnitude_words(row)
    published = row.get("published", math.nan)
    if not (isinstance(published, (int, float)) and math.isfinite(published)):
        return ours, f"the published value, {where}" if where else "-"
    return ours, f"{published:+.4g} ({where})" if where else f"{published:+.4g}"


def not_tested_lines(sentences: list[NotTested]) -> list[str]:
    """The report's last section: the papers' comparative sentences no claim tests
    (load_not_tested), with why."""
    if not sentences:
        return []
    lines = ["## Sentences not tested here", "",
             f"{len(sentences)} comparative sentences of the papers that no claim above tests, each with the reason "
             "(the claim files' `not_tested:` lists): not forgotten, but out of what runs here can judge.", "",
             "| paper | where | the paper's words | why not tested |", "|---|---|---|---|"]
    lines += [f"| {sentence.paper} | {sentence.where} | \"{sentence.quote}\" | {sentence.why} |"
              for sentence in sentences]
    return lines + [""]


KIND_SECTIONS = {
    "paper": ("The papers' claims", "Each in the paper's own words (its details quote it). A claim is judged on the "
              "settings its paper states or, where the paper leaves one unsaid, on the reading its claim file names "
              "(the row says \"on a named reading\" and its details name the reading and what it rests on); a claim "
              "whose runs at the paper's settings need hardware or compute this machine lacks is \"not run\", with "
              "what our scaled-down runs say beside it (never counted) and the cost of the runs that would judge it."),
    "transfer": ("Transfers (not the papers' claims)", "A paper's claim carried to another domain or algorithm: what "
                 "they say of the paper is only that its finding does (or does not) carry over."),
    "observation": ("Observations (the harness's own, not the papers')", "Statements of this harness about its runs."),
}


def counts_line(rows: pd.DataFrame, cpu_hours: float | None = None) -> str:
    """"3 supported (1 on a named reading), 1 contradicted (0), 2 inconclusive (2), 5 not run (1
    needs hardware, 4 needs compute), 1 not judged" for the rows of one kind (and the CPU behind
    them)."""
    counts = rows["verdict"].value_counts()
    reading = rows.loc[rows["judged_on"] == ON_READING, "verdict"].value_counts()
    why = rows.loc[rows["verdict"] == NOT_RUN, "why"].value_counts()
    unjudged = rows.loc[rows["verdict"] == "not judged", "why"].value_counts()
    text = ", ".join(f"{counts.get(v, 0)} {v}" + (f" ({reading.get(v, 0)} on a named reading)" if len(reading) else "")
                     for v in JUDGED)
    text += (f", {counts.get(NOT_RUN, 0)} not run at the paper's settings ({why.get(NEEDS_HARDWARE, 0)} "
             f"{NEEDS_HARDWARE}, {why.get(NEEDS_COMPUTE, 0)} {NEEDS_COMPUTE}), {counts.get('not judged', 0)} not judged "
             f"({unjudged.get(UNTESTABLE, 0)} {UNTESTABLE}, {unjudged.get(READING_REJECTED, 0)}: {READING_REJECTED})")
    return text + (f"; the runs behind them hold {cpu_hours:.2f} CPU-h" if cpu_hours is not None else "")


def verdict_text(row) -> str:
    """A row's verdict in a few words: "supported", "supported on a named reading", "not run: needs
    compute", "not judged: no run can test it"."""
    if row["verdict"] in JUDGED:
        return row["verdict"] + (" on a named reading" if row.get("judged_on") == ON_READING else "")
    return f"{row['verdict']}: {row['why']}" if row.get("why") else row["verdict"]


def claim_cells(row) -> tuple[str, str]:
    """The verdict cell and the "what it rests on / what would judge it" cell of a row: for a
    verdict on a named reading, the reading; for a row not run at the paper's settings, what our
    scaled-down runs say and the cost of runs at the paper's settings."""
    if row["verdict"] in JUDGED:
        reading = f"on the reading \"{row['reading']}\" ({row['gaps']})" if row.get("judged_on") == ON_READING else ""
        return f"**{verdict_text(row)}**", reading
    if row["verdict"] != NOT_RUN:
        return verdict_text(row), ""
    scaled = row.get("scaled_down_verdict")
    ours = f"ours, scaled down: {scaled} ({row['gaps']}); " if isinstance(scaled, str) and scaled else ""
    return verdict_text(row), f"{ours}at the paper's settings: {row.get('paper_cost') or 'the runs as the paper states them'}"


def item_of(source: str) -> str:
    """The tables and figures a claim's source names ("Section 4, Figure 6, Table 4: ..." ->
    "Figure 6, Table 4"), or "-"."""
    where = str(source).split(":")[0]
    return ", ".join(dict.fromkeys(re.findall(r"(?:Table|Figure) \d+", where))) or "-"


def claim_anchor(claim: str, basis: str = "") -> str:
    """A claim's details anchor in a report ("claim-<id>", and its basis where a report has a row per basis)."""
    return "claim-" + re.sub(r"[^a-z0-9]+", "-", f"{claim} {basis}".strip().lower()).strip("-")


def effect_short(row) -> tuple[str, str]:
    """The paper's effect and ours [95% CI] for the main table ("-" where there is none)."""
    if row["evaluated_at"] == "-" or not np.isfinite(row.get("effect", np.nan)):
        return "-", "-"
    published = row.get("published", np.nan)
    paper = f"{published:+.4g}" if isinstance(published, float) and np.isfinite(published) else "-"
    return paper, f"{row['effect']:+.4g} [{row['effect_low']:+.4g}, {row['effect_high']:+.4g}]"


def detail_lines(row) -> list[str]:
    """A claim's details: every field the main table leaves out."""
    verdict, rests = claim_cells(row)
    effect, published = effect_cells(row) if row["evaluated_at"] != "-" and np.isfinite(row.get("effect", np.nan)) \
        else ("-", "-")
    anchor = claim_anchor(row["claim"], row.get("basis_anchor", ""))
    lines = [f'<a id="{anchor}"></a>', "", f"#### {row['claim']}: {row['text']}", "",
             f"- Source: {row['source']}",
             f"- The paper's settings: {row['paper_settings'] or '-'}; its basis: {row['claim_basis']}; the runs read at: "
             f"{row['basis']}, {row['evaluated_at']}.",
             f"- Verdict: {verdict}" + (f", {rests}" if rests else "") + "."]
    if effect != "-":
        lines.append(f"- Effect (> 0: as claimed; {row['unit']}), 95% confidence sequence of this comparison alone, "
                     f"not Holm-corrected: {effect}; the paper's: {published} (each comparison's published value "
                     f"against our mean at the final sample, with the paper's own error: analysis/claims/status.py); "
                     f"p support / contradict, Holm-corrected "
                     f"over {row['family']:.0f} claims (the verdict reads these, so an interval clear of 0 can stand "
                     f"beside an inconclusive verdict): {row['p_support_holm']:.2g} / {row['p_contradict_holm']:.2g}; "
                     f"decided by: {row['detail']}.")
    elif row["detail"]:
        lines.append(f"- Why no effect: {row['detail']}.")
    split = row.get("engine_split")
    if isinstance(split, str) and split:
        lines.append("- Each gain split in two, on the runs the engines page reads "
                     f"([engines_{row['experiment']}.md](engines_{row['experiment']}.md); 95% intervals; the gain at equal "
                     "time on an engine is the sum of its two parts; \"not reached\": our runs stop short of the work, or "
                     "the reference runs of that many playouts are too few; > 0: as claimed, in the effect's unit): the "
                     "algorithm's part, the gain at equal playouts, and the engine's part, what each column's playouts "
                     "per second over the baseline's (rho) adds, on this engine and on the reference engine:")
        lines += [f"  - {part}." for part in split.splitlines()]
    other = row.get("other_clock")
    if isinstance(other, str) and other:
        lines.append("- Decided at a second clock too, which the table's baseline does not tell apart from the one "
                     "its claims read (the readings' rule; each column on runs that reach the clock's work, every "
                     f"other claim as above: the same Holm family): {other}.")
    cpu = row.get("cpu_hours", math.nan)
    to_decide = row.get("to_decide") if isinstance(row.get("to_decide"), str) else ""
    if isinstance(row.get("reading_fit"), str) and row["reading_fit"]:
        lines.append(f"- The reading's fit to the paper's published baseline: {row['reading_fit']}.")
    lines.append(f"- Runs per column: {row['runs']}" + (f"; CPU behind them {cpu:.2f} h" if cpu == cpu else "")
                 + (f"; to decide: {to_decide}" if to_decide else "") + ".")
    return lines + [""]


def claims_sections(table: pd.DataFrame, per_basis: bool = False) -> list[str]:
    """The claims reports' body: per kind and paper, one short line per claim (its item, verdict,
    the paper's effect and ours, runs), each linked to its details below, where every other field
    is. ``per_basis``: the fixed-n report, with a row per basis a claim is judged on."""
    table = table.assign(item=[item_of(source) for source in table["source"]])
    if per_basis:
        table = table.assign(basis_anchor=table["basis"])
    lines = []
    for kind, (title, about) in KIND_SECTIONS.items():
        rows = table[table["kind"] == kind]
        if not len(rows):
            continue
        lines += [f"## {title}", "", about, ""]
        for paper, group in rows.groupby("paper", sort=False):
            basis = "basis | " if per_basis else ""
            lines += [f"### {paper}", "", f"| claim | item | {basis}direction (verdict) | the paper's effect | "
                      "ours [95% CI, this comparison, not Holm-corrected] | magnitude: the paper's values against "
                      "ours | runs per column |", "|---|---|" + "---|" * (bool(per_basis)) + "---|---|---|---|---|"]
            for _, row in group.iterrows():
                paper_effect, ours = effect_short(row)
                anchor = claim_anchor(row["claim"], row.get("basis_anchor", ""))
                cell = f"{row['basis']} | " if per_basis else ""
                where = magnitude_words(row) if ours != "-" else ""
                lines.append(f"| [{row['text']}](#{anchor}) | {row['item']} | {cell}{verdict_text(row)} | "
                             f"{paper_effect} | {ours} | {where or '-'} | {row['runs'] if row['runs'] == row['runs'] else '-'} |")
            lines.append("")
    lines += ["## Details", "", "Each claim: its source, the paper's settings and basis, the reading it rests on, the "
              "effect with its p-values, and what would decide it.", ""]
    for _, row in table.iterrows():
        lines += detail_lines(row)
    return lines


def markdown(table: pd.DataFrame, scale: str, sources: dict[str, Source], files: list[str] | None = None) -> str:
    sources = {name: source for name, source in sources.items() if isinstance(source, Source)}  # runs, not results
    lines = [f"# Claims report ({scale} scale)", "",
             "Each claim, tested on this harness's runs at the published time and at matched time "
             "(each column at t x R x rho playouts: R the published runs' rate, rho the column's playouts per "
             "CPU-second over the baseline's on this engine, both stated in each experiment's config, "
             "report.published_rate), and only on a reading of the comparison its paper makes (the basis column). "
             "p-values are Holm-corrected across the claims of each kind and evaluation; a verdict needs p < 0.05, "
             "and a paper's claim gets one where the runs match the settings its file states, or a named reading "
             "of those the paper leaves unsaid (the row says which); elsewhere it is not run. The effect is the difference in the claimed direction (> 0: as claimed) in the paper's unit, "
             "with its 95% CI: for a value claim our mean minus the published one, for a gain claim the mean gain per "
             "doubling. Tests: analysis/claims/verdicts.py; claims: analysis/claims/*.yaml.", ""]
    for kind, (title, _) in KIND_SECTIONS.items():
        for basis in BASES:
            rows = table[(table["kind"] == kind) & (table["basis"] == basis)]
            if len(rows):
                lines.append(f"- {title}, at {basis}: {counts_line(rows)}.")
    missing = {name: sum(source.runs.expected[label] - len(rs) for label, rs in source.runs.records.items())
               for name, source in sources.items()}
    if any(missing.values()):
        lines.append(f"- WARNING: runs missing ({', '.join(f'{k}: {v}' for k, v in missing.items() if v)}): "
                     f"run `make claims SCALE={scale}` again.")
    starved = [f"{name} {label}: {n}" for name, source in sources.items() for label, n in source.runs.starved.items()
               if n]
    if starved:
        lines.append(f"- Runs set aside as starved, other processes having taken their cores (experiments/machine.py;"
                     f" not counted, so among those missing): {'; '.join(starved)}.")
    lines += ["", *in_short(table), "", *claims_sections(table, per_basis=True)]
    lines += not_tested_lines(load_not_tested(files=files))
    return "\n".join(lines) + "\n"


def in_short(table: pd.DataFrame) -> list[str]:
    """The verdicts in plain words: which of the papers' claims our runs contradict (on the stated
    settings or a named reading), then one row per claim with its verdict on each basis (the
    details follow in the kinds' sections)."""
    verdict_of = {(row["claim"], row["basis"]): verdict_text(row) for _, row in table.iterrows()}
    texts = dict(zip(table["claim"], table["text"]))
    kinds = dict(zip(table["claim"], table["kind"]))
    contradicted = [(claim, [basis for basis in BASES if str(verdict_of.get((claim, basis))).startswith("contradicted")])
                    for claim in texts if kinds[claim] == "paper"]
    contradicted = [(claim, bases) for claim, bases in contradicted if bases]
    lines = ["## In short", ""]
    if contradicted:
        lines.append("Our runs **contradict** these claims of the papers, on their stated settings or a named reading "
                     "(the opposite holds at p < 0.05, Holm-corrected; the table below says which):")
        # the basis is worth naming only for a claim judged on both
        lines += [f"- {texts[claim]}" + (f" (at {' and at '.join(bases)})" if (claim, BASES[1]) in verdict_of else "")
                  for claim, bases in contradicted]
    else:
        lines.append("Our runs contradict none of the papers' claims.")
    lines += ["", f"| claim | kind | at {BASES[0]} | at {BASES[1]} |", "|---|---|---|---|"]
    lines += [f"| {text} | {kinds[claim]} | {verdict_of.get((claim, BASES[0]), 'n/a')} | "
              f"{verdict_of.get((claim, BASES[1]), 'n/a')} |" for claim, text in texts.items()]
    lines += ["", "n/a: the claim is not on a published CPU-time table (a figure without published numbers, "
              "final scores or playouts): there is no published work to match, or it is matched already."]
    return lines


VERDICT_COLOURS = {"supported": "tab:green", "contradicted": "tab:red", "inconclusive": "0.45"}


def plot_effects(table: pd.DataFrame, ax) -> list[str]:
    """One row per claim with a verdict, grouped by paper: our effect in the claimed direction
    with its 95% interval (a confidence sequence under a budget), standardized (difference / SD
    of the runs; a gain claim's log2 late / early gain), filled when judged on the stated
    settings and hollow on a named reading, coloured by verdict, and the paper's own effect of
    the same comparison on the same scale (a black cross) where it publishes one. A claim judged
    on two bases is drawn at matched time. Returns the claims left out (no verdict), for the
    caller to list in words."""
    rows = table[table["verdict"].isin(JUDGED) & table["standardized"].notna()]
    if "basis" in rows and rows["claim"].duplicated().any():  # the fixed-n report: matched time first
        rows = rows.sort_values("basis", key=lambda b: b.astype(str).str.contains("matched").map({True: 0, False: 1}))
        rows = rows.drop_duplicates("claim")
    rows = rows.assign(_paper=pd.Categorical(rows["paper"], categories=list(dict.fromkeys(table["paper"]))))
    rows = rows.sort_values(["_paper"], kind="stable")
    labels, y = [], 0
    for paper, group in rows.groupby("_paper", sort=False, observed=True):
        for _, row in group.iloc[::-1].iterrows():
            colour = VERDICT_COLOURS[row["verdict"]]
            low, high = row["standardized_low"], row["standardized_high"]
            if np.isfinite(low) and np.isfinite(high):
                ax.plot([low, high], [y, y], color=colour, linewidth=1.5)
            filled = row.get("judged_on") != ON_READING
            ax.plot([row["standardized"]], [y], marker="o", color=colour, markerfacecolor=colour if filled else "white")
            published, effect = row.get("published", np.nan), row["effect"]
            if row["test"] != "gain" and np.isfinite(published) and np.isfinite(effect) and effect != 0:
                ax.plot([published * row["standardized"] / effect], [y], marker="x", color="black", linestyle="none")
            labels.append(f"{row['claim']}" + (" [log2 late/early gain]" if row["test"] == "gain" else ""))
            y += 1
        ax.axhline(y - 0.5, color="0.8", linewidth=0.6)
        ax.text(1.01, y - 0.6, str(paper).split(" (")[0], transform=ax.get_yaxis_transform(), fontsize="x-small",
                va="top", color="0.3")
    ax.set_yticks(range(len(labels)), labels=labels, fontsize="small")
    ax.set_ylim(-0.7, max(len(labels), 1) - 0.3)
    ax.axvline(0, color="0.3", linewidth=0.8)
    ax.set_xscale("symlog", linthresh=1)
    ax.set_xlabel("effect in the claimed direction / SD of our runs (> 0: as claimed), with its 95% interval")
    for verdict, colour in VERDICT_COLOURS.items():
        ax.plot([], [], color=colour, marker="o", label=verdict)
    ax.plot([], [], color="0.3", marker="o", markerfacecolor="white", linestyle="none", label="on a named reading")
    ax.plot([], [], color="black", marker="x", linestyle="none", label="the paper's effect")
    ax.legend(fontsize="small", loc="upper center", bbox_to_anchor=(0.5, -0.07), ncol=5)
    ax.grid(True, axis="x", alpha=0.3)
    return sorted(set(table["claim"]) - set(rows["claim"]))


def claims_report(overrides: list[str], claims: list[Claim] | None = None, files: list[str] | None = None,
                  experiments: dict[str, Experiment] | None = None) -> list[Path]:
    """Write outputs/claims/claims_<scale>.{md,csv,png,pdf} (claims_<scale>_<files>.* for the
    claims of some files only); return their paths. ``overrides``: scale=S and any other
    override of the experiments (outputs_dir=...); ``experiments``: those load_experiments
    composed from them already (a second composition costs about a second each)."""
    claims = load_claims(files=files) if claims is None else claims
    experiments = load_experiments(claims, overrides) if experiments is None else experiments
    claims = [resolve(claim, experiments[experiment_of(claim)]) for claim in claims]
    sources = {name: Source(experiment, collect(experiment)) for name, experiment in experiments.items()}
    first = next(iter(sources.values())).experiment
    scale = first.scale
    empty = [name for name, source in sources.items() if not any(source.runs.records.values())]
    if empty:
        raise InputError(f"no runs of {', '.join(empty)} at scale {scale}: run `make claims SCALE={scale}` "
                         "(it runs what is missing first)")
    sources = with_neural_sources(claims, sources, scale)
    table = claims_table(claims, sources)
    folder = first.store.root / "claims"
    folder.mkdir(parents=True, exist_ok=True)
    stem = folder / "_".join(["claims", scale, *(files or [])])
    table.to_csv(stem.with_suffix(".csv"), index=False)
    stem.with_suffix(".md").write_text(markdown(table, scale, sources, files))
    figure, ax = new_figure()
    figure.set_size_inches(9, 0.3 * table[table["verdict"].isin(JUDGED)]["claim"].nunique() + 1.8)
    plot_effects(table, ax)
    ax.set_title(f"Claims ({scale} scale): the claims with a verdict, ours beside the paper's effect", fontsize="medium")
    return [stem.with_suffix(".csv"), stem.with_suffix(".md"), *save_figure(figure, stem)]


def main(argv: list[str] | None = None) -> int:
    parser = overrides_parser(__doc__, "scale=S (paper, quick, smoke) and any other overrides")
    parser.add_argument("--experiments", action="store_true",
                        help="check the claim files and print the experiments they use, one a line")
    parser.add_argument("--files", nargs="+", metavar="NAME",
                        help="only the claims of analysis/claims/NAME.yaml, e.g. --files gnrpa gnrpa_lr")
    arguments = parser.parse_args(argv)
    if arguments.experiments:  # the experiments' names, printed as the paths of a report are
        return print_outputs(lambda: list(load_experiments(load_claims(files=arguments.files), arguments.overrides)))
    return print_outputs(lambda: claims_report(arguments.overrides, files=arguments.files))


if __name__ == "__main__":
    sys.exit(main())
