"""A static results site from the stored runs: each paper's tables beside the published
values, interactive figures, the claims and their verdicts, the records (never runs a search).

    python -m analysis.site.build scale=quick [outputs_dir=...] [--experiments NAME ...] [--to FOLDER]

writes <outputs_dir>/site/ (or FOLDER), which opens from disk with nothing to serve:
  index.html          the answers first (analysis/site/index.py): per paper, its claims' verdict
                      counts and lines, its headline figure beside the published values, what
                      would decide the rest; then every experiment's runs per column and speed
  <paper>.html        a section per experiment (anchor: its name): the report's tables with the
                      published value beside ours and the 95% CI, the matched-work table, the
                      fixed-target view (ERT table and figure, the report's ECDF), the 20-board
                      comparisons; plotly figures (hover: a cell's mean, CI, n, published
                      value; a click on the legend shows or hides a column; log2 time axis);
                      the Morpion page ends with the neural tables and figures (neural.py)
  claims.html         every claim of the claims reports of this scale (outputs/claims/*.csv,
                      `make claims`), filtered by verdict and by paper, linked to its table
  records.html        the leaderboard's certificates, replayed now and drawn
  runs_<scale>.parquet   analysis.results.export's long table of every run on the site
  plotly.min.js, site.js, site.css   written once, shared by the pages
Every page ends with its provenance: code version, date, scale, the machine; its navigation
links to the documentation (`make docs`, which `make site` runs first: docs_link).

The numbers are the report's (analysis.results.report.REPORTS on the runs it reads: the store and
the archive); nothing is recomputed here. `--experiments` builds the pages of those only.
"""

from __future__ import annotations

import html
import os
import platform
import subprocess
import sys
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from urllib.parse import quote

import pandas as pd
from plotly.offline import get_plotlyjs

from analysis.claims.files import load_claims
from analysis.claims.judging import VERDICTS
from analysis.claims.sources import Source
from analysis.claims.decide import columns, run_cost
from analysis.results.export import run_rows, run_table
from analysis.results.report import collect
from analysis.site.index import (VERDICT_CSS, answers_html, claim_anchor, headline_html, headline_item, latest_claims,
                                 status_html, verdict_class)
from analysis.site.neural import NEURAL_TITLE, SECTION_ID, neural_section
from analysis.site.records import records_html
from analysis.site.sections import column_runs, engine_speed_text, href, inline, make_report, section_html, section_id
from experiments.config import overrides_parser, print_outputs
from experiments.experiment import Experiment, experiment_names, load_experiment
from experiments.sweep import sweep_folders, sweep_of_folder
from experiments.store import PROJECT_ROOT, code_version
from nrpa.errors import InputError, did_you_mean

# A page per paper. An experiment belongs to the page of its name's first word (the Makefile's
# <paper>-<table>, conf/experiment/<paper>_<table>.yaml); Gelly et al.'s speed-up measure and
# SP-MCTS share a page, as they share a claims file (analysis/claims/gelly.yaml). The claims of
# the Morpion paper's neural tables name experiments neural_table1..4 (analysis/claims/
# morpion_neural.yaml): their page is Morpion's, which ends with those tables.
PAGES = {
    "selective": ("NRPA with Selective Policies (Cazenave, CGW 2016)", ("selective",)),
    "stabilized": ("Stabilized NRPA (Cazenave, Sevestre, Toulemont, MCS@IJCAI 2020)", ("stabilized",)),
    "distributed": ("Distributed NRPA for SameGame (Negrevergne, Cazenave, CGW 2017)", ("distributed",)),
    "morpion": ("Deep RL for Morpion Solitaire (Doux, Negrevergne, Cazenave)", ("morpion", "neural")),
    "gelly": ("Gelly et al. 2008: the speed-up of parallel search, and SP-MCTS", ("speedup", "spmcts")),
    "family": ("The NRPA family since 2012: GNRPA, GNRPA-LR, Beam NRPA (no published tables)", ("family",)),
    "sweeps": ("Sweeps of run.py -m (outputs/sweeps/: experiments/sweep.py)", ("sweep",)),
}

SITE_JS = """// Draws each figure from its JSON payload (plotly.js is loaded before this file), and
// filters the claims table by verdict and by paper.
document.querySelectorAll("script.figure-data").forEach(function (script) {
  var payload = JSON.parse(script.textContent);
  Plotly.newPlot(script.dataset.target, payload.data, payload.layout, {responsive: true, displaylogo: false});
});
function filterClaims() {
  var verdict = document.getElementById("verdict-filter").value;
  var paper = document.getElementById("paper-filter").value;
  var shown = 0;
  document.querySelectorAll("tr.claim").forEach(function (row) {
    var show = (!verdict || row.dataset.verdict === verdict) && (!paper || row.dataset.paper === paper);
    row.style.display = show ? "" : "none";
    shown += show ? 1 : 0;
  });
  document.getElementById("claims-shown").textContent = shown;
}
document.querySelectorAll("select.claims-filter").forEach(function (select) {
  select.addEventListener("change", filterClaims);
});
"""

SITE_CSS = """body { font-family: sans-serif; margin: 0 auto; max-width: 1250px; padding: 0 1em; color: #222; }
nav { padding: 0.6em 0; border-bottom: 1px solid #ccc; } nav a { margin-right: 1em; }
table { border-collapse: collapse; font-size: 0.85em; } th, td { border: 1px solid #ddd; padding: 2px 6px; }
th { background: #f3f3f3; } td.missing, p.missing { color: #a33; font-style: italic; }
div.table { overflow-x: auto; margin: 0.5em 0; } p.caption { font-size: 0.85em; color: #444; }
p.meta { font-size: 0.85em; background: #f7f7f2; padding: 0.4em; } section { margin-bottom: 2.5em; }
.verified { color: #2a7a2a; font-weight: bold; } .unverified { color: #b22; font-weight: bold; }
img.record { max-width: 420px; max-height: 420px; } figure img { max-width: 100%; }
footer { font-size: 0.8em; color: #555; border-top: 1px solid #ccc; margin-top: 2em; padding: 0.6em 0 2em; }
span.verdict { font-weight: bold; font-size: 0.9em; } p.counts { margin: 0.2em 0; }
section.paper { border-top: 1px solid #ccc; padding-top: 0.3em; margin-bottom: 1.5em; }
div.answer { display: flex; gap: 1.5em; align-items: flex-start; } div.answer > div.claims { flex: 1 1 auto; }
figure.headline { flex: 0 0 420px; margin: 0.8em 0 0; font-size: 0.8em; color: #444; }
figure.headline img { width: 420px; } p.headline { flex: 0 0 420px; }
ul.claims, ul.further { font-size: 0.9em; padding-left: 1.2em; } ul.claims li, ul.further li { margin: 0.2em 0; }
table.answers td { text-align: right; }
table.answers td:first-child { text-align: left; } h4 { margin: 0.8em 0 0.2em; }
""" + VERDICT_CSS + "\n"


def page_of(experiment_name: str) -> str:
    prefix = experiment_name.split("_")[0]
    for page, (_, prefixes) in PAGES.items():
        if prefix in prefixes:
            return page
    raise InputError(f"experiment {experiment_name}: no page of analysis/site/build.py's PAGES takes {prefix}_*")


@dataclass(frozen=True)
class Provenance:
    code: str  # git describe, or the source hash outside a checkout
    built: str
    command: str
    scale: str
    machine: str
    export: str | None  # the export's file name in the site folder; None without runs
    docs: str  # the href of the documentation from the site's folder (docs_link)

    def html(self) -> str:
        export = (f'<a href="{href(self.export)}">{html.escape(self.export)}</a> (every run on this site, one row per '
                  "run and checkpoint: analysis/results/export.py)" if self.export else "none (no runs at this scale)")
        return (f"<footer>Built {html.escape(self.built)} by <code>{html.escape(self.command)}</code> "
                f"on {html.escape(self.machine)}. Code: {html.escape(self.code)}. Scale: "
                f"<strong>{html.escape(self.scale)}</strong>; runs per column and the engine-speed factor k: each "
                "section, and the "
                f'<a href="index.html#experiments">index</a>. Export: {export}.</footer>')


def provenance(command: str, scale: str, export: str | None, docs: str) -> Provenance:
    version = code_version()
    try:
        described = subprocess.run(["git", "describe", "--always", "--dirty", "--tags"], cwd=PROJECT_ROOT,
                                   capture_output=True, text=True, timeout=10, check=True).stdout.strip()
        code = f"{described} (commit {version['git_commit']})"
    except (OSError, subprocess.SubprocessError):
        code = f"not a git checkout, source hash {version['source_hash']}"
    machine = (f"{platform.node()} ({platform.machine()}, {os.cpu_count()} cores, {platform.system()} "
               f"{platform.release()}, Python {platform.python_version()})")
    built = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    return Provenance(code, built, command, scale, machine, export, docs)


# The documentation site: `make docs` writes it to the project's outputs/docs/ (mkdocs.yml's
# site_dir), and `make site` runs `make docs` first. Every page links to it from wherever the site
# is written (outputs_dir=..., --to); where it was never built (`python -m analysis.site.build` alone),
# to its sources, docs/index.md, so that the link is never dead.
DOCS_INDEX = PROJECT_ROOT / "outputs" / "docs" / "index.html"
DOCS_SOURCE = PROJECT_ROOT / "docs" / "index.md"


def docs_link(folder: Path) -> str:
    """The href, relative to the site's ``folder``, of the documentation's index (or its sources)."""
    target = DOCS_INDEX if DOCS_INDEX.is_file() else DOCS_SOURCE
    return quote(Path(os.path.relpath(target.resolve(), folder.resolve())).as_posix())


def page(title: str, body: str, facts: Provenance, nav: list[str], figures: bool = False) -> str:
    """A page of the site; ``nav``: the paper pages built."""
    links = " ".join(['<a href="index.html">Index</a>'] + [f'<a href="{name}.html">{name}</a>' for name in nav]
                     + ['<a href="claims.html">Claims</a>', '<a href="records.html">Records</a>',
                        f'<a class="docs" href="{html.escape(facts.docs)}">Documentation</a>'])
    plotly = '<script src="plotly.min.js"></script>' if figures else ""
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
            f'<link rel="stylesheet" href="site.css">{plotly}</head>\n<body><nav>{links}</nav><main>'
            f"<h1>{html.escape(title)}</h1>\n{body}\n</main>{facts.html()}<script src=\"site.js\"></script>"
            "</body></html>\n")


@dataclass
class Built:
    """An experiment as the site shows it: its runs, its report's outputs (or why none)."""

    experiment: Experiment
    source: Source
    outputs: list | None
    error: str | None

    def title(self) -> str:
        matched = " (at matched time: budgets of t x R x max(1, rho) playouts)" if self.experiment.matched_work else ""
        return self.experiment.title + matched

    def runs_text(self) -> str:
        return ", ".join(f"{label} {have}" + (f" of {planned}" if have != planned else "")
                         for label, (have, planned) in column_runs(self.experiment, self.source.runs).items())

    def meta(self) -> str:
        experiment, runs = self.experiment, self.source.runs
        hosts = sorted({r["host"]["name"] for rs in runs.records.values() for r in rs if "host" in r})
        facts = [html.escape(experiment.report_source), f"<code>{html.escape(experiment.make_command)}</code>",
                 f"runs per column: {html.escape(self.runs_text())}"]
        speed = engine_speed_text(self.outputs or [])
        if speed:
            facts.append(html.escape(speed))
        if hosts:
            facts.append(f"runs made on {html.escape(', '.join(hosts))}, code source hash(es) "
                         f"{html.escape(', '.join(sorted(runs.code_versions)))}")
        return '<p class="meta">' + " · ".join(facts) + "</p>"


def paper_page(name: str, built: list[Built], folder: Path, facts: Provenance, nav: list[str],
               extra: tuple[str, str, str] | None = None) -> str:
    """A paper's page: a section per experiment, and ``extra`` (anchor, title, HTML) after them."""
    sections = []
    for item in built:
        body = section_html(item.experiment, item.source.runs, item.outputs, item.error, folder)
        sections.append(f'<section id="{html.escape(section_id(item.experiment))}">'
                        f"<h2>{html.escape(item.title())}</h2>\n"
                        f"{item.meta()}\n{body}</section>")
    links = [(section_id(b.experiment), b.title()) for b in built]
    if extra is not None:
        links.append(extra[:2])
        sections.append(extra[2])
    contents = "<ul>" + "".join(f'<li><a href="#{html.escape(anchor)}">{html.escape(title)}</a></li>'
                                for anchor, title in links) + "</ul>"
    return page(PAGES[name][0], contents + "\n".join(sections), facts, nav, figures=True)


def claims_files(root: Path, scale: str) -> list[Path]:
    """The claims reports of this scale: claims_<scale>[_<files>][_decided].csv."""
    return sorted((root / "claims").glob(f"claims_{scale}*.csv"))


def claim_cpu_hours(claim_id: str, claims: dict, built: dict[str, Built]) -> float | None:
    """The CPU-hours of the runs a claim reads (analysis.claims.decide's columns and run cost), when
    its experiment is on the site."""
    claim = claims.get(claim_id)
    if claim is None or claim.experiment not in built:
        return None
    source = built[claim.experiment].source
    return sum(run_cost(r) for key in columns(claim, source) for r in source.runs.records.get(key, [])) / 3600


def claims_page(root: Path, scale: str, built: dict[str, Built], facts: Provenance, nav: list[str]) -> str:
    files = claims_files(root, scale)
    if not files:
        scale = html.escape(scale)
        body = (f'<p class="missing">No claims report at {scale} scale: <code>make claims SCALE={scale}</code> (or '
                f"<code>python -m analysis.claims.report scale={scale}</code> on the stored runs) writes it.</p>")
        return page("Claims", body, facts, nav)
    claims = {claim.id: claim for claim in load_claims()}
    tables = [(path, pd.read_csv(path)) for path in files]
    papers = sorted({paper for _, table in tables for paper in table["paper"]})
    options = "".join(f'<option value="{html.escape(p)}">{html.escape(p)}</option>' for p in papers)
    verdict_options = "".join(f'<option value="{v}">{v}</option>' for v in VERDICTS)
    total = sum(len(table) for _, table in tables)
    parts = [f'<p>Verdict: <select id="verdict-filter" class="claims-filter"><option value="">all</option>'
             f'{verdict_options}</select> Paper: <select id="paper-filter" class="claims-filter"><option value="">'
             f'all</option>{options}</select> <span id="claims-shown">{total}</span> of {total} rows shown.</p>',
             "<p>The effect is in the paper's unit, positive in the claimed direction, with its 95% CI (analysis/claims/"
             "verdicts.py; under a budget, analysis/claims/decide.py's confidence sequence). CPU-h: the runs the claim "
             "reads (a fixed-n report: those on this site now).</p>"]
    for path, table in tables:
        decided = path.stem.endswith("_decided")
        kind = ("under a CPU budget (<code>make claims BUDGET=...</code>, anytime-valid)" if decided
                else "fixed number of runs (<code>make claims</code>)")
        written = datetime.fromtimestamp(path.stat().st_mtime, timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
        parts.append(f"<h2>{html.escape(path.name)}</h2><p>{kind}; written {written}.</p>")
        rows = []
        for row in table.itertuples():
            cpu = row.cpu_hours if decided else claim_cpu_hours(row.claim, claims, built)
            effect = ("-" if pd.isna(row.effect) else
                      f"{row.effect:+.4g} [{row.effect_low:+.4g}, {row.effect_high:+.4g}]")
            # under a budget, a claim judged at matched time read the matched-work runs (a fixed-n
            # report reads the plain runs at t x R x rho playouts): link to their section when the site has it
            matched = decided and "matched" in str(row.basis) and f"{row.experiment}_work" in built
            anchor = f"{row.experiment}_work" if matched else row.experiment
            target = (f'<a href="{page_of(row.experiment)}.html#{html.escape(anchor)}">'
                      f"{html.escape(row.experiment)}</a>" if anchor in built else html.escape(row.experiment))
            # a report made before claims had kinds: every claim was counted as the paper's
            kind = getattr(row, "kind", "paper")
            scaled = getattr(row, "scaled_down_verdict", "")
            scaled = (f"<br><small>ours, scaled down: {html.escape(str(scaled))} ({html.escape(str(row.gaps))})</small>"
                      if isinstance(scaled, str) and scaled else "")
            rows.append(
                f'<tr class="claim" id="{claim_anchor(path.stem, row.claim, row.basis)}" '
                f'data-verdict="{html.escape(row.verdict)}" data-paper="{html.escape(row.paper)}">'
                f"<td>{inline(row.text)}<br><code>{html.escape(row.claim)}</code></td><td>{html.escape(row.paper)}"
                f"<br><small>{html.escape(kind)}</small></td>"
                f"<td>{html.escape(row.basis)}<br>{html.escape(str(row.evaluated_at))}</td>"
                f'<td class="verdict {verdict_class(row.verdict)}">{html.escape(row.verdict)}'
                f"{scaled}</td><td>{effect}</td>"
                f"<td>{'-' if pd.isna(row.runs) else f'{row.runs:.0f}'}</td>"
                f"<td>{'-' if cpu is None or pd.isna(cpu) else f'{cpu:.3g}'}</td><td>{target}</td></tr>")
        parts.append('<div class="table"><table><thead><tr><th>claim</th><th>paper</th><th>judged</th><th>verdict'
                     "</th><th>effect [95% CI]</th><th>runs</th><th>CPU-h</th><th>table</th></tr></thead><tbody>\n"
                     + "\n".join(rows) + "\n</tbody></table></div>")
    return page("Claims", "\n".join(parts), facts, nav)


def known_page(experiment_name: str) -> str | None:
    """page_of, None for an experiment no page takes (a claims report may name one)."""
    try:
        return page_of(experiment_name)
    except InputError:
        return None


def index_page(built: dict[str, Built], pages: dict[str, list[Built]], facts: Provenance, root: Path,
               folder: Path) -> str:
    """The answers first (analysis/site/index.py: per paper its claims' verdicts, its headline
    figure, what would decide the rest), from the claims reports of this scale; then the runs
    behind the pages: per paper the experiments with runs, per experiment its runs per column."""
    files = claims_files(root, facts.scale)
    headlines = {name: headline_html(item, name, folder) if (item := headline_item(name, items)) else
                 f'<p class="missing headline">No figure: no runs of this page\'s tables at {html.escape(facts.scale)} '
                 f'scale yet (<a href="{name}.html">its page</a> says which command makes them).</p>'
                 for name, items in pages.items()}
    titles = {name: title for name, (title, _) in PAGES.items() if name != "sweeps"}
    from analysis.claims.decide import stem_of

    answers = (status_html(root / "claims" / f"{stem_of(facts.scale)}.csv", facts.scale)
               + answers_html(latest_claims(files), known_page, titles, set(pages), headlines))
    sources = ", ".join(f"<code>{html.escape(path.name)}</code>" for path in files)
    about = (f"from the claims reports {sources} (a claim read from the one written last that holds it; every row of "
             "each on the <a href=\"claims.html\">claims page</a>)" if files else
             '<span class="missing">no claims report at this scale yet: <code>make claims SCALE='
             f"{html.escape(facts.scale)}</code> writes one</span>")
    papers = "".join(
        f'<tr><td><a href="{name}.html">{html.escape(PAGES[name][0])}</a></td><td>'
        f"{sum(1 for b in items if any(b.source.runs.records.values()))} of {len(items)}</td></tr>"
        for name, items in pages.items())
    experiments = "".join(
        f'<tr><td><a href="{page_of(name)}.html#{html.escape(name)}">{html.escape(name)}</a></td>'
        f"<td>{html.escape(b.title())}</td>"
        f"<td>{html.escape(b.runs_text())}</td><td>{html.escape(engine_speed_text(b.outputs or []) or '')}</td></tr>"
        for name, b in built.items())
    body = (f"<p>Scale <strong>{html.escape(facts.scale)}</strong>. What the runs say of each paper's claims, {about}; "
            "beside them the paper's headline figure (ours with its 95% CI, the published values as hollow marks), "
            "and what deciding the rest would take. <em>Supported</em> or <em>contradicted</em>: at p &lt; 0.05, "
            "Holm-corrected, on the settings the paper states or on a named reading of one it leaves unsaid; "
            "<em>not run</em>: runs at the paper's settings need hardware or compute (what our scaled-down runs say "
            "is noted beside); <em>not judged</em>: no run can test it. The "
            '<a href="records.html">records</a>: the best certificate per instance, replayed.</p>'
            f"{answers}"
            '<h2 id="runs">The runs behind the pages</h2><table><thead><tr><th>paper</th><th>experiments with runs'
            f"</th></tr></thead><tbody>{papers}</tbody></table>"
            '<h2 id="experiments">Experiments</h2><table><thead><tr><th>experiment</th><th>table</th>'
            f"<th>runs per column</th><th>engine speed</th></tr></thead><tbody>{experiments}</tbody></table>")
    return page(f"NRPA results ({facts.scale} scale)", body, facts, list(pages))


def export(built: dict[str, Built], folder: Path) -> str | None:
    """analysis.results.export's long table of the site's experiments, as runs_<scale>.parquet."""
    rows = [row for item in built.values() for row in run_rows(item.experiment, item.source.runs)]
    if not rows:
        return None
    name = f"runs_{next(iter(built.values())).experiment.scale}.parquet"
    run_table(rows).to_parquet(folder / name, index=False)
    return name


def compositions(name: str, overrides: list[str]) -> list[tuple[Experiment, object]]:
    """The experiment ``name`` as ``overrides`` compose it, with its runs (store and archive),
    and for a published time table (with its published runs' rate R) its matched-work runs too
    when there are some: `make claims BUDGET=...` makes and judges those (matched_work=true)."""
    experiment = load_experiment([f"experiment={name}", *overrides])
    found = [(experiment, collect(experiment))]
    if experiment.published_rate is not None and not experiment.matched_work:
        matched = load_experiment([f"experiment={name}", *overrides, "matched_work=true"])
        runs = collect(matched)
        if any(runs.records.values()):
            found.append((matched, runs))
    return found


def build(overrides: list[str], names: list[str] | None = None, folder: Path | None = None) -> Path:
    """Write the site of the experiments ``names`` (default: all) composed with ``overrides``
    (scale=S, outputs_dir=...) into ``folder`` (default: <outputs_dir>/site); return index.html."""
    known = experiment_names()
    unknown = sorted(set(names or []) - set(known))
    if unknown:
        raise InputError(f"no experiment {', '.join(unknown)}: {did_you_mean(unknown[0], known, 'choose among')}")
    found = [pair for name in names or known for pair in compositions(name, overrides)]
    first = found[0][0]
    root, scale = first.store.root, first.scale
    sweeps = [sweep_of_folder(sweep)  # `run.py -m` sweeps, with the columns they were drawn beside
              for sweep in (sweep_folders(root, scale) if names is None else [])]
    found += [(experiment, collect(experiment)) for experiment in sweeps]
    built = {section_id(experiment): Built(experiment, Source(experiment, runs), *make_report(experiment, runs))
             for experiment, runs in found}
    folder = folder or root / "site"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "plotly.min.js").write_text(get_plotlyjs())
    (folder / "site.js").write_text(SITE_JS)
    (folder / "site.css").write_text(SITE_CSS)
    command = " ".join(["python -m analysis.site.build", *overrides, *(["--experiments", *names] if names else [])])
    facts = provenance(command, scale, export(built, folder), docs_link(folder))
    pages: dict[str, list[Built]] = {}
    for name, item in built.items():
        pages.setdefault(page_of(name), []).append(item)
    pages = {name: pages[name] for name in PAGES if name in pages}
    nav = list(pages)
    for name, items in pages.items():
        # the Morpion paper's neural tables are files of experiments.neural, not runs in the store
        extra = (SECTION_ID, NEURAL_TITLE, neural_section(root, scale, folder)) if name == "morpion" else None
        (folder / f"{name}.html").write_text(paper_page(name, items, folder, facts, nav, extra))
    (folder / "claims.html").write_text(claims_page(root, scale, built, facts, nav))
    (folder / "records.html").write_text(page("Records", records_html(root, folder), facts, nav))
    (folder / "index.html").write_text(index_page(built, pages, facts, root, folder))
    return folder / "index.html"


def main(argv: list[str] | None = None) -> int:
    parser = overrides_parser(__doc__, "scale=S (paper, quick, smoke), outputs_dir=... and any other "
                                       "override of the experiments")
    parser.add_argument("--experiments", nargs="+", metavar="NAME", help="only these experiments (default: all)")
    parser.add_argument("--to", type=Path, metavar="FOLDER", help="write the site here (default: <outputs_dir>/site)")
    arguments = parser.parse_args(argv)
    return print_outputs(lambda: [build(arguments.overrides, arguments.experiments, arguments.to)])


if __name__ == "__main__":
    sys.exit(main())
