"""The answers on the results site's index (analysis/site/build.py): per paper, its claims and their
verdicts as the claims reports of the site's scale give them (outputs/claims/claims_<scale>*.csv,
`make claims`), its headline figure beside the published values, and what the undecided claims
would need to be decided ("to go further": the reports' paper_cost and to_decide columns, with
their CPU-hours and commands). Nothing is judged here: every verdict is a row of a report.

- A claim's verdict comes from the report written last that holds it: several reports of one
  scale can hold a claim (a fixed-n `make claims`, one under a budget, one of a few papers'
  files). The claims page shows every row of every report.
- A claim judged on two bases (a fixed-n report: at the published time and at matched time)
  has a row per basis, and each row counts, as in the claims report's own counts line.
- A paper's block is on the page (analysis/site/build.py's PAGES) of most of its claims' experiments.
  Transfers (a paper's finding carried to another domain) go with the page of their experiment,
  observations (the harness's own) to a section of their own: neither is counted as a paper's.
"""

from __future__ import annotations

import html
import re
from collections import Counter
from pathlib import Path
from typing import Callable

import pandas as pd

from analysis.claims.judging import NOT_RUN, ON_READING, VERDICTS
from analysis.results.report import Figure, Table
from analysis.site.sections import href, inline, section_id

# The paper page's main experiment, whose figure the index shows small beside the paper's
# claims; a page built without it shows its first experiment that has a figure.
HEADLINES = {"selective": "selective_table3", "stabilized": "stabilized_table4", "distributed": "distributed_table1",
             "morpion": "morpion_table2", "gelly": "spmcts_speedup", "family": "family_samegame"}
DECIDED = ("supported", "contradicted")
EMPTY = ["paper", "kind", "claim", "text", "experiment", "basis", "verdict", "report"]  # no report yet
# the colours of analysis.claims.report.plot_effects (green, red, grey), blue for "not run", a lighter grey for "not judged"
VERDICT_COLOURS = dict(zip(VERDICTS, ("#2a7a2a", "#b22222", "#666666", "#1f5fa8", "#999999")))


def slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_]+", "-", str(text)).strip("-").lower()


def verdict_class(verdict: str) -> str:
    return f"v-{slug(verdict)}"


VERDICT_CSS = " ".join(f".{verdict_class(v)} {{ color: {colour}; }}" for v, colour in VERDICT_COLOURS.items())


def claim_anchor(report: str, claim: str, basis: str) -> str:
    """The id of a claims page row: its report's stem, the claim, the basis it is judged on."""
    return "claim--" + "--".join(part for part in map(slug, (report, claim, basis)) if part)


def latest_claims(files: list[Path]) -> pd.DataFrame:
    """Every claim's rows from the report written last that holds it (ties: by name), with
    that report's stem as ``report``. A report made before claims had kinds counts every claim
    as the paper's (as the claims page does)."""
    kept, seen = [], set()
    for path in sorted(files, key=lambda p: (p.stat().st_mtime, p.name), reverse=True):
        table = pd.read_csv(path).assign(report=path.stem)
        if "kind" not in table:
            table["kind"] = "paper"
        kept.append(table[~table["claim"].isin(seen)])
        seen |= set(table["claim"])
    return pd.concat(kept, ignore_index=True) if kept else pd.DataFrame(columns=EMPTY)


def verdict_counts(rows: pd.DataFrame) -> dict[str, int]:
    counts = rows["verdict"].value_counts()
    return {verdict: int(counts.get(verdict, 0)) for verdict in VERDICTS}


def text_of(row, column: str) -> str:
    """A report's text cell, empty when the report has no such column or the cell is blank."""
    value = row.get(column)
    return value.strip() if isinstance(value, str) else ""


def need(row) -> str:
    """What deciding an undecided row would take, in the report's words: for a claim judged
    only on scaled-down runs, the runs at the paper's settings and their command; else what the
    report under a budget says (to_decide), or a fixed-n report's runs per column."""
    if row["verdict"] in DECIDED:
        return ""
    if row["verdict"] == NOT_RUN and text_of(row, "paper_cost"):
        return text_of(row, "paper_cost")
    if text_of(row, "to_decide"):
        return text_of(row, "to_decide")
    if row["verdict"] == "inconclusive":
        runs = row.get("runs_to_decide")
        return f"~{runs:,.0f} runs per column" if pd.notna(runs) and runs != float("inf") else "no effect to detect"
    return text_of(row, "detail")


def claim_item(row) -> str:
    """A claim's line: its verdict, its text linking to its claims page row, the basis."""
    basis = row.get("basis", "-")
    scaled = text_of(row, "scaled_down_verdict") if row["verdict"] == NOT_RUN else ""
    notes = [html.escape(basis)] if basis not in ("-", "") else []
    notes += ["on a named reading"] if text_of(row, "judged_on") == ON_READING else []
    notes += [f"why: {html.escape(text_of(row, 'why'))}"] if text_of(row, "why") else []  # hardware, compute, untestable
    notes += [f"scaled down: {html.escape(scaled)}"] if scaled else []
    note = f" <small>({'; '.join(notes)})</small>" if notes else ""
    return (f'<li><span class="verdict {verdict_class(row["verdict"])}">{html.escape(row["verdict"])}</span> '
            f'<a href="claims.html#{claim_anchor(row["report"], row["claim"], basis)}">{inline(row["text"])}</a>'
            f"{note}</li>")


def counts_html(rows: pd.DataFrame) -> str:
    return '<p class="counts">' + " · ".join(
        f'<span class="verdict {verdict_class(v)}">{n} {html.escape(v)}</span>' for v, n in verdict_counts(rows).items()
    ) + "</p>"


def claims_html(rows: pd.DataFrame) -> str:
    return counts_html(rows) + '<ul class="claims">' + "".join(claim_item(row) for _, row in rows.iterrows()) + "</ul>"


def further_html(rows: pd.DataFrame) -> str:
    """The undecided rows' needs, each once, with the claims it would decide."""
    needs: dict[str, list] = {}
    for _, row in rows.iterrows():
        if text := need(row):
            needs.setdefault(text, []).append(row)
    if not needs:
        return ""
    items = "".join(
        f"<li>{inline(text)} <small>for {len(of)} claim{'s' if len(of) > 1 else ''}: "
        + ", ".join(f'<a href="claims.html#{claim_anchor(r["report"], r["claim"], r.get("basis", "-"))}">'
                    f'{html.escape(r["claim"])}</a>' for r in of) + "</small></li>"
        for text, of in needs.items())
    return f'<h4>To go further</h4><ul class="further">{items}</ul>'


# The report's figures an index shows: the main one (on the time axis), else the one by playouts
# (runs at matched work have no time budget; it draws the published values at t x R playouts).
HEADLINE_SUFFIXES = ("", "_playouts")
INSIDE = re.compile(r"Published value inside our CI(?: here)?: \d+ of \d+ cells(?: at matched (?:work|time))?")


def main_figure(item) -> Figure | None:
    figures = {o.suffix: o for o in item.outputs or [] if isinstance(o, Figure)}
    return next((figures[suffix] for suffix in HEADLINE_SUFFIXES if suffix in figures), None)


def headline_html(item, page: str, folder: Path) -> str:
    """The report's main figure of a Built (analysis/site/build.py) small, as the paper page draws it
    (ours with its 95% CI, the published values as hollow marks), and how many published values
    lie inside our CIs, linking to its section; the figure is written to ``folder``/img."""
    figure = main_figure(item)
    stem = folder / "img" / f"{item.experiment.output_name}{figure.suffix}"
    png = next(p for p in figure.write(stem) if p.suffix == ".png")
    inside = [match.group(0) for o in item.outputs if isinstance(o, Table) and o.markdown
              for match in [INSIDE.search(o.markdown)] if match]
    anchor = html.escape(f"{page}.html#{section_id(item.experiment)}")
    return (f'<figure class="headline"><a href="{anchor}"><img src="{href(f"img/{png.name}")}" '
            f'alt="{html.escape(item.title())}">'
            f"</a><figcaption>{html.escape(item.title())}. {html.escape('; '.join(inside) + '.' if inside else '')} "
            f'<a href="{anchor}">The tables and their interactive figures</a>.</figcaption></figure>')


def headline_item(page: str, items: list):
    """The page's headline experiment (HEADLINES; its runs at matched work when its plain runs
    have no figure) when it has a figure, else the page's first experiment with one; None when
    none has."""
    drawn = {section_id(b.experiment): b for b in items if main_figure(b) is not None}
    name = HEADLINES.get(page, "")
    return drawn.get(name) or drawn.get(f"{name}_work") or next(iter(drawn.values()), None)


def answers_html(rows: pd.DataFrame, page_of: Callable[[str], str | None], titles: dict[str, str],
                 built: set[str], headlines: dict[str, str]) -> str:
    """The summary table of the papers' verdict counts, then a block per page of ``titles``
    (in their order) with claims or a headline: its papers' claims, its transfers, its headline
    figure, what would decide the rest; then the observations. ``built``: the pages on the site
    (linked); ``headlines``: a page's headline figure's HTML."""
    papers = rows[rows["kind"] == "paper"]
    page_of_paper = {}
    for paper, of_paper in papers.groupby("paper", sort=False):
        found = [page for page in map(page_of, of_paper["experiment"]) if page in titles]
        page_of_paper[paper] = Counter(found).most_common(1)[0][0] if found else None
    transfers = rows[rows["kind"] == "transfer"]
    transfer_page = [page if (page := page_of(name)) in titles else None for name in transfers["experiment"]]
    apart = pd.concat([rows[rows["kind"] == "observation"], transfers[[p is None for p in transfer_page]]])
    order = [*titles, None]  # None: papers whose experiments are on no page
    ordered = sorted(page_of_paper, key=lambda paper: order.index(page_of_paper[paper]))

    def link(page: str | None, text: str) -> str:
        return f'<a href="#answers-{page}">{text}</a>' if page else text

    summary = "".join(
        f'<tr class="paper-counts" data-paper="{html.escape(paper)}">'
        f"<td>{link(page_of_paper[paper], html.escape(paper))}</td>"
        + "".join(f'<td class="{verdict_class(v)}" data-verdict="{html.escape(v)}">{n}</td>'
                  for v, n in verdict_counts(papers[papers["paper"] == paper]).items())
        + f"<td>{int((papers['paper'] == paper).sum())}</td></tr>" for paper in ordered)
    parts = ['<h2 id="answers">The papers\' claims</h2>']
    if summary:
        parts.append('<div class="table"><table class="answers"><thead><tr><th>paper</th>'
                     + "".join(f'<th class="{verdict_class(v)}">{html.escape(v)}</th>' for v in VERDICTS)
                     + f"<th>claims</th></tr></thead><tbody>{summary}</tbody></table></div>")
    for page in order:
        of_page = [paper for paper in ordered if page_of_paper[paper] == page]
        page_transfers = transfers[[p == page and p is not None for p in transfer_page]]
        if not of_page and not len(page_transfers) and page not in headlines:
            continue
        title = html.escape(titles.get(page, "Papers whose experiments are on no page of this site"))
        heading = f'<a href="{page}.html">{title}</a>' if page in built else title
        left = []
        for paper in of_page:  # the paper's name under its page's title where the page has several
            named = f"<h4>{html.escape(paper)}</h4>" if len(of_page) > 1 else ""
            left.append(named + claims_html(papers[papers["paper"] == paper]))
        if not of_page:
            left.append('<p class="missing">No claim of this paper\'s own in the claims reports of this scale.</p>')
        if len(page_transfers):
            left.append("<h4>Carried to another domain (transfers, not counted as the paper's claims)</h4>"
                        + claims_html(page_transfers))
        undecided = pd.concat([papers[papers["paper"].isin(of_page)], page_transfers])
        parts.append(f'<section class="paper" id="answers-{page or "other"}"><h3>{heading}</h3><div class="answer">'
                     f'<div class="claims">{"".join(left)}</div>{headlines.get(page, "")}</div>'
                     f"{further_html(undecided)}</section>")
    if len(apart):
        parts.append('<section class="paper" id="answers-observations"><h3>The harness\'s observations and other '
                     "transfers (not the papers' claims)</h3>" + claims_html(apart) + further_html(apart)
                     + "</section>")
    return "\n".join(parts)


def status_html(path: Path, scale: str) -> str:
    """The status of every published table and figure (analysis/claims/reproduction.py's report at this
    scale), as the README leads with it; a note with the command where it is not made yet."""
    from analysis.claims.reproduction import status_cell

    if not path.is_file():
        return ('<h2 id="status">Which tables and figures reproduce</h2><p class="missing">No reproduction status at '
                f"this scale yet: <code>make claims BUDGET=0 SCALE={html.escape(scale)}</code> writes it.</p>")
    table = pd.read_csv(path, keep_default_na=False, na_values=[""])
    rows = "".join(
        f'<tr data-status="{html.escape(row["status"])}"><td>{html.escape(row["paper"])}</td>'
        f"<td>{html.escape(row['item'])}</td><td>{html.escape(row['shows'])}</td>"
        f"<td><strong>{html.escape(status_cell(row))}</strong></td>"
        f"<td>{'-' if not row['cells'] else f'{row.cells_inside:.0f} of {row.cells}'}</td></tr>"
        for _, row in table.iterrows())
    return ('<h2 id="status">Which tables and figures reproduce</h2><div class="table"><table class="status"><thead><tr>'
            "<th>paper</th><th>item</th><th>what it shows</th><th>status</th><th>published cells inside our 95% CI</th>"
            f"</tr></thead><tbody>{rows}</tbody></table></div><p><small>From <code>{html.escape(path.name)}</code> "
            "(the rule: analysis/claims/reproduction.py).</small></p>")
