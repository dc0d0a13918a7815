"""The results site (analysis/site/build.py) built from smoke runs: its pages, that every link and
image resolves, its figure payloads, a column without runs shown as missing, the records
replayed and drawn, the claims linked to their tables, the provenance on every page."""

from __future__ import annotations

import html
import json
import os
import re
import subprocess
import xml.etree.ElementTree as ElementTree
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import matplotlib.pyplot as plt
import pandas as pd
import pytest
from matplotlib.colors import to_hex

from analysis.claims.files import Claim, load_claims
from analysis.claims.report import claims_report
from analysis.results import palette, plots
from analysis.results.palette import KEY_GREY, PALETTE
from analysis.site import build, sections
from analysis.site.build import PAGES, VERDICTS, docs_link, known_page, page_of
from analysis.site.index import answers_html, claim_anchor, latest_claims
from analysis.site.neural import neural_section
from experiments.experiment import experiment_names
from experiments.store import code_version
from nrpa.domains.registry import make_domain
from nrpa.errors import InputError
from tests.conftest import cli

EXPERIMENT = "stabilized_table4"  # run at smoke scale without its SNRPA(10) column
WITHOUT_RUNS = "stabilized_table1"  # on the site, never run
COLUMNS = ["NRPA", "SNRPA(2)", "SNRPA(3)", "SNRPA(4)", "SNRPA(5)", "SNRPA(6)", "SNRPA(7)"]

# A figure payload, as site.js hands it to Plotly.newPlot: what each part must hold.
PAYLOAD_SCHEMA = {"data": list, "layout": dict}
TRACE_SCHEMA = {"type": str, "x": list, "y": list, "legendgroup": str}


def payload_problems(payload) -> list[str]:
    """What in ``payload`` breaks the schema: a missing or mistyped key, x and y of
    different lengths, a hoverable trace without one hover text per point."""
    if not isinstance(payload, dict):
        return ["the payload is not an object"]
    problems = [f"{key}: not a {kind.__name__}" for key, kind in PAYLOAD_SCHEMA.items()
                if not isinstance(payload.get(key), kind)]
    for index, trace in enumerate(payload.get("data") or []):
        problems += [f"trace {index}, {key}: not a {kind.__name__}" for key, kind in TRACE_SCHEMA.items()
                     if not isinstance(trace.get(key), kind)]
        if isinstance(trace.get("x"), list) and isinstance(trace.get("y"), list) and len(trace["x"]) != len(trace["y"]):
            problems.append(f"trace {index}: {len(trace['x'])} x and {len(trace['y'])} y")
        if trace.get("hoverinfo") != "skip" and len(trace.get("text") or []) != len(trace.get("x") or []):
            if "%{text}" in trace.get("hovertemplate", ""):
                problems.append(f"trace {index}: not one hover text per point")
    return problems


def write_entries(leaderboard: Path) -> None:
    """Leaderboard entries of the domains the smoke runs do not reach, scored by their own
    rules, and one (Weak Schur K = 3: 1 + 2 = 3 in one part) that does not replay."""
    games = {"weakschur/K2": ({"name": "weakschur", "parts": 2}, [[1, 2, 4, 8], [3, 5, 6, 7]]),
             "tsptw/rc_204.1": ({"name": "tsptw", "instance": "rc_204.1"}, None),
             "morpion/5D": ({"name": "morpion", "variant": "5D"}, [])}
    for key, (options, moves) in games.items():
        domain = make_domain(options)
        if moves is None:  # a tour visiting the customers in order
            moves = list(range(1, domain.instance.nodes))
        write_entry(leaderboard, key, options, moves, domain.replay_score(moves))
    write_entry(leaderboard, "weakschur/K3", {"name": "weakschur", "parts": 3}, [[1, 2, 3], [], []], 3.0)


def write_entry(leaderboard: Path, key: str, options: dict, moves, score: float) -> None:
    path = leaderboard / f"{key}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"key": key, "score": score, "certificate": {"score": score, "moves": moves},
                                "run_id": "hand-made", "config": {"domain": options},
                                "found_at": "2026-01-01T00:00:00+00:00"}))


def build_smoke_site(outputs: Path) -> Path:
    """Smoke runs of Table 4 without SNRPA(10), the claims report on them, a few hand-made
    leaderboard entries, then `python -m analysis.site.build` for Table 4 and an experiment without
    runs; returns the site's folder."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("NRPA_ARCHIVE", "none")  # tests/conftest.py's no_project_archive, for a module's fixture
        done = cli("run.py", "-m", f"experiment={EXPERIMENT}", "scale=smoke", f"outputs_dir={outputs}",
                   "P=1,2,3,4,5,6,7")
        assert done.returncode == 0, done.stderr
        done = cli("run.py", "-m", f"experiment={EXPERIMENT}", "scale=smoke", "matched_work=true", "P=1",
                   f"outputs_dir={outputs}")  # NRPA's runs at matched work, as `make claims BUDGET=...` makes
        assert done.returncode == 0, done.stderr
        # the file's claims on Table 4 are not run at smoke scale (0.08 s for the paper's 163.84 s); an
        # observation of the smoke runs themselves is judged: two verdicts for the claims page to filter
        at_smoke = Claim("This harness's observations", "smoke-snrpa2-above-nrpa", "SNRPA(2) above NRPA (smoke runs)",
                         EXPERIMENT, "compare", pairs=(("SNRPA(2)", "NRPA"),), kind="observation")
        claims_report(["scale=smoke", f"outputs_dir={outputs}"],
                      claims=[claim for claim in load_claims() if claim.experiment == EXPERIMENT] + [at_smoke])
        write_entries(outputs / "leaderboard")
        done = cli("-m", "analysis.site.build", "scale=smoke", f"outputs_dir={outputs}", "--experiments", EXPERIMENT,
                   WITHOUT_RUNS)
        assert done.returncode == 0, done.stderr
    return outputs / "site"


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    return build_smoke_site(tmp_path_factory.mktemp("site") / "outputs")


class Links(HTMLParser):
    """The ids of a page and the targets of its href and src attributes."""

    def __init__(self, text: str):
        super().__init__()
        self.ids, self.targets = set(), []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name == "id":
                self.ids.add(value)
            if name in ("href", "src"):
                self.targets.append(value)


def section(page: str, name: str) -> str:
    return re.search(rf'<section id="{name}">(.*?)</section>', page, flags=re.S).group(1)


def figure_payloads(text: str) -> list:
    return [json.loads(payload) for payload in re.findall(
        r'<script type="application/json" class="figure-data" data-target="[^"]*">(.*?)</script>', text, flags=re.S)]


def test_every_experiment_has_a_page():
    assert {page_of(name) for name in experiment_names()} <= set(PAGES)
    with pytest.raises(InputError, match="no page"):
        page_of("newpaper_table1")


@pytest.mark.slow  # end to end, over 10 s
def test_the_site_has_its_pages_and_the_export(site):
    assert sorted(path.name for path in site.glob("*.html")) == [
        "claims.html", "index.html", "records.html", "stabilized.html"]
    runs = pd.read_parquet(site / "runs_smoke.parquet")
    assert set(runs["experiment"]) == {EXPERIMENT}
    assert sorted(set(runs["variant"])) == sorted(COLUMNS)


@pytest.mark.slow  # end to end, over 10 s
def test_every_link_and_image_resolves_to_a_file_of_the_site(site):
    pages = {path.name: Links(path.read_text()) for path in site.glob("*.html")}
    docs = docs_link(site)
    checked = 0
    for name, links in pages.items():
        # the documentation (make docs) is a site of its own, outside this one: one link a page,
        # to a file that exists (its built index, or before any `make docs` its sources)
        assert links.targets.count(docs) == 1, f"{name} does not link to the documentation"
        assert (site / unquote(docs)).resolve().is_file(), f"{name}: the documentation link {docs} is dead"
        for target in links.targets:
            if target == docs:
                continue
            parts = urlsplit(target)
            assert not parts.scheme and not parts.netloc, f"{name} links outside the site: {target}"
            file = site / unquote(parts.path) if parts.path else site / name
            assert file.is_file(), f"{name}: {target} is not a file"
            if parts.fragment:
                assert parts.fragment in pages[file.name].ids, f"{name}: no id {parts.fragment} in {file.name}"
            checked += 1
    assert checked > 50  # the navigation, scripts, export, drawings, the claims' links


def test_the_documentation_link_reaches_the_built_docs_or_else_their_sources(tmp_path, monkeypatch):
    """`make docs` writes mkdocs.yml's site_dir; the link goes there from any site folder, and to
    docs/index.md while the documentation was never built."""
    site_dir = re.search(r"^site_dir: *(\S+)$", (build.PROJECT_ROOT / "mkdocs.yml").read_text(), re.M)[1]
    assert build.DOCS_INDEX == build.PROJECT_ROOT / site_dir / "index.html"
    folder = tmp_path / "somewhere" / "site"
    folder.mkdir(parents=True)
    built = tmp_path / "outputs" / "docs" / "index.html"
    monkeypatch.setattr(build, "DOCS_INDEX", built)
    assert (folder / unquote(docs_link(folder))).resolve() == build.DOCS_SOURCE.resolve()
    built.parent.mkdir(parents=True)
    built.write_text("<html></html>")
    assert docs_link(folder) == "../../outputs/docs/index.html"
    assert docs_link(tmp_path / "outputs" / "site") == "../docs/index.html"  # make site: beside it


def test_make_site_builds_the_documentation_first():
    """The site links to the documentation: `make site` builds it (make docs) before the site."""
    done = subprocess.run(["make", "--dry-run", "site"], cwd=build.PROJECT_ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    docs = next(i for i, line in enumerate(lines) if "mkdocs build" in line)
    assert docs < next(i for i, line in enumerate(lines) if "analysis.site.build" in line)


@pytest.mark.slow  # end to end, over 10 s
def test_figure_payloads_follow_their_schema_and_hover_with_the_cells_values(site):
    page = (site / "stabilized.html").read_text()
    payloads = figure_payloads(section(page, EXPERIMENT))
    assert len(payloads) == 3  # by time, by playouts, ERT
    for payload in payloads:
        assert payload_problems(payload) == []
    by_time = payloads[0]
    assert by_time["layout"]["xaxis"]["type"] == "log"
    assert by_time["layout"]["xaxis"]["ticktext"] == ["0.01", "0.02", "0.04", "0.08"]
    legend = [trace for trace in by_time["data"] if trace.get("showlegend") is not False]
    lines, keys = legend[:len(COLUMNS)], legend[len(COLUMNS):]
    assert [trace["name"] for trace in lines] == COLUMNS
    for hover in lines[0]["text"]:
        assert re.search(r"mean [\d.]+<br>95% CI \[.+\]<br>n = 2 of 2 runs<br>published \d+", hover), hover
    # the published points (hollow circles in each column's colour) have a legend entry, grey, as in the PNG
    (key,) = keys
    assert key["showlegend"] is True and key["name"] == "published at t (hollow circles)"
    assert key["marker"] == {"symbol": "circle-open", "size": 10, "color": KEY_GREY}
    # every trace of a column (band, line, published points at t) toggles with it
    assert {trace["legendgroup"] for trace in by_time["data"]} - {key["name"]} == set(COLUMNS)
    # in the PNGs' colours: column i is PALETTE[i] on the site and in the report's figures
    assert [trace["line"]["color"] for trace in lines] == list(PALETTE[:len(COLUMNS)])
    published = [trace for trace in by_time["data"] if trace.get("name", "").endswith(", published")]
    assert [trace["marker"]["color"] for trace in published] == list(PALETTE[:len(published)])


def test_the_report_figures_and_the_site_share_one_palette():
    """Both modules take their colours from analysis.results.palette; a report figure's columns are drawn in it."""
    assert plots.column_colour is sections.column_colour is palette.column_colour
    assert plots.KEY_GREY == sections.KEY_GREY == palette.KEY_GREY
    table = pd.DataFrame({"variant": ["a"] * 2 + ["b"] * 2 + ["c"] * 2, "checkpoint": [1.0, 2.0] * 3,
                          "mean": range(6), "ci_low": range(6), "ci_high": range(6), "published": [1.0, 2.0] * 3,
                          "runs": 2, "runs_without_solution": 0})
    figure, ax = plots.new_figure()
    plots.plot_checkpoints(table, ax, xlabel="t")
    drawn = [to_hex(line.get_color()) for line in ax.get_lines() if line.get_label() in ("a", "b", "c")]
    plt.close(figure)
    assert drawn == list(palette.PALETTE[:3])
    on_site = sections.checkpoint_figure(table, "t", "mean", None)
    assert [trace.line.color for trace in on_site.data if trace.name in ("a", "b", "c")] == drawn
    assert payload_problems({"data": [{"type": "scatter", "x": [1], "y": []}], "layout": {}}) != []


@pytest.mark.slow  # end to end, over 10 s
def test_matched_work_runs_get_their_own_section_beside_the_plain_runs(site):
    page = (site / "stabilized.html").read_text()
    matched = section(page, f"{EXPERIMENT}_work")
    assert "at matched time: budgets of t x R x max(1, rho) playouts" in page and "ARGS=matched_work=true" in matched
    assert "runs per column: NRPA 2, SNRPA(2) 0 of 2" in matched
    # runs budgeted in playouts: the figure by playouts, with the published points at t x R x rho, and
    # the matched-time table (no time axis: the seconds are this machine's)
    (payload,) = figure_payloads(matched)
    assert f'id="{EXPERIMENT}_work-figure_playouts"' in matched and "<h3>At matched time</h3>" in matched
    assert any(trace.get("name") == "NRPA, published at t x R x rho playouts" for trace in payload["data"])
    runs = pd.read_parquet(site / "runs_smoke.parquet")
    assert len(set(runs.loc[runs["variant"] == "NRPA", "run_id"])) == 4  # 2 plain, 2 at matched work


@pytest.mark.slow  # end to end, over 10 s
def test_a_column_without_runs_shows_as_missing_and_not_as_a_line(site):
    page = (site / "stabilized.html").read_text()
    table4 = section(page, EXPERIMENT)
    assert "<th>SNRPA(10)</th>" in table4
    assert table4.count('<td class="missing">no runs</td>') >= 4 * 3  # four checkpoints in each table
    assert all(trace["legendgroup"] != "SNRPA(10)" for payload in figure_payloads(table4) for trace in payload["data"])
    assert "SNRPA(10) 0 of 2" in table4
    never_run = section(page, WITHOUT_RUNS)
    assert "No runs at smoke scale" in never_run and "figure-data" not in never_run


@pytest.mark.slow  # end to end, over 10 s
def test_the_records_are_replayed_and_drawn(site):
    page = (site / "records.html").read_text()
    for drawing in ("samegame_board_01.svg", "weakschur_K2.svg", "tsptw_rc_204.1.svg", "morpion_5D.png"):
        assert f'src="records/{drawing}"' in page
    for svg in (site / "records").glob("*.svg"):  # well-formed, with something drawn
        shapes = [e for e in ElementTree.parse(svg).getroot().iter() if e.tag.rpartition("}")[2] in ("rect", "path")]
        assert shapes, svg
    row = next(row for row in page.split("<tr>") if "weakschur/K3" in row)
    assert "not verified" in row and "<img" not in row
    assert page.count("&#10004; verified") == 4


@pytest.mark.slow  # end to end, over 10 s
def test_each_claim_has_its_verdict_and_links_to_its_table(site):
    table = pd.read_csv(site.parent / "claims" / "claims_smoke.csv")
    page = (site / "claims.html").read_text()
    rows = re.findall(r'<tr class="claim" id="[^"]*" data-verdict="([^"]*)" data-paper="[^"]*">(.*?)</tr>', page,
                      flags=re.S)
    rows = [(html.unescape(verdict), row) for verdict, row in rows]
    assert [verdict for verdict, _ in rows] == list(table["verdict"])
    assert {verdict for verdict, _ in rows} <= set(VERDICTS)
    assert all(f'href="stabilized.html#{EXPERIMENT}"' in row for _, row in rows)


def paper_counts(index: str) -> dict[str, dict[str, int]]:
    """The index's summary table: per paper, its count per verdict (the cells' data-verdict)."""
    rows = re.findall(r'<tr class="paper-counts" data-paper="([^"]*)">(.*?)</tr>', index, flags=re.S)
    return {html.unescape(paper): {html.unescape(verdict): int(n) for verdict, n in
                                   re.findall(r'data-verdict="([^"]*)">(\d+)</td>', cells)} for paper, cells in rows}


@pytest.mark.slow  # end to end, over 10 s
def test_the_index_leads_with_each_papers_verdict_counts_from_its_claims_report(site):
    table = pd.read_csv(site.parent / "claims" / "claims_smoke.csv")
    index = (site / "index.html").read_text()
    papers = table[table["kind"] == "paper"]
    assert len(papers) and set(table["kind"]) - {"paper"}  # the smoke report has an observation too
    expected = {paper: {verdict: int((rows["verdict"] == verdict).sum()) for verdict in VERDICTS}
                for paper, rows in papers.groupby("paper")}
    assert paper_counts(index) == expected
    # each paper named in its block, with a line per claim linking to its row on the claims page
    for _, row in table.iterrows():
        assert f'href="claims.html#{claim_anchor("claims_smoke", row["claim"], row["basis"])}"' in index
    assert index.count('<ul class="claims">') == 2  # Stabilized's claims, then the observations apart
    # the answers lead: the counts, the claims and the headline figure come before the run counts
    runs_table = index.index('<h2 id="runs">')
    assert index.index('class="paper-counts"') < index.index('id="answers-stabilized"') < runs_table
    assert index.index(f'src="img/{EXPERIMENT}_smoke.png"') < runs_table < index.index('id="experiments"')
    assert (site / "img" / f"{EXPERIMENT}_smoke.png").is_file()


def write_report(path: Path, rows: list[dict], written: float) -> Path:
    pd.DataFrame(rows).to_csv(path, index=False)
    os.utime(path, (written, written))
    return path


def claim_row(claim: str, paper: str, verdict: str, experiment: str, kind: str = "paper", basis: str = "-",
              **columns) -> dict:
    return {"paper": paper, "kind": kind, "claim": claim, "text": f"the claim {claim}", "experiment": experiment,
            "basis": basis, "verdict": verdict, "detail": f"detail of {claim}", "paper_cost": "", "to_decide": "",
            "runs_to_decide": float("nan"), "scaled_down_verdict": "", **columns}


def test_the_answers_read_each_claim_from_the_report_written_last_and_count_only_the_papers_claims(tmp_path):
    selective, morpion = "Selective (2016)", "Morpion (2020)"
    older = write_report(tmp_path / "claims_paper.csv", [
        claim_row("a", selective, "inconclusive", "selective_table3", basis="published time", runs_to_decide=40.0),
        claim_row("a", selective, "supported", "selective_table3", basis="matched work"),
        claim_row("b", selective, "contradicted", "selective_table3"),
        claim_row("t", "Gelly carried", "supported", "spmcts_speedup", kind="transfer"),
        claim_row("o", "Observations", "inconclusive", "stabilized_table4", kind="observation", to_decide="more runs"),
    ], written=1_000_000)
    newer = write_report(tmp_path / "claims_paper_decided.csv", [
        claim_row("b", selective, "supported", "selective_table3"),  # b judged again, later: this verdict
        claim_row("m", morpion, "not run", "neural_table2", scaled_down_verdict="contradicted", why="needs compute",
                  paper_cost="~12 CPU-h: `make morpion-table2 SCALE=paper`"),
        claim_row("n", morpion, "not judged", "morpion_table2", to_decide="a column has no runs yet"),
    ], written=2_000_000)
    rows = latest_claims([older, newer])
    assert sorted(zip(rows["claim"], rows["report"])) == [
        ("a", "claims_paper"), ("a", "claims_paper"), ("b", "claims_paper_decided"), ("m", "claims_paper_decided"),
        ("n", "claims_paper_decided"), ("o", "claims_paper"), ("t", "claims_paper")]
    titles = {name: title for name, (title, _) in PAGES.items() if name != "sweeps"}
    text = answers_html(rows, known_page, titles, {"selective"}, {"morpion": '<figure class="headline">M</figure>'})
    zero = dict.fromkeys(VERDICTS, 0)
    # a claim judged on two bases counts once per basis; transfers and observations are no paper's
    assert paper_counts(text) == {selective: {**zero, "supported": 2, "inconclusive": 1},
                                  morpion: {**zero, "not run": 1, "not judged": 1}}
    blocks = dict(re.findall(r'<section class="paper" id="answers-([a-z]+)">(.*?)</section>', text, flags=re.S))
    assert list(blocks) == ["selective", "morpion", "gelly", "observations"]  # in the pages' order
    assert '<a href="selective.html">' in blocks["selective"] and '<a href="morpion.html">' not in blocks["morpion"]
    assert "~40 runs per column" in blocks["selective"]  # what the inconclusive basis would need
    # the neural claims are the Morpion paper's, on its page, beside its headline; the command to go further
    assert '<figure class="headline">M</figure>' in blocks["morpion"]
    assert "<code>make morpion-table2 SCALE=paper</code>" in blocks["morpion"] and "scaled down: contradicted" in text
    assert "a column has no runs yet" in blocks["morpion"]
    assert "transfers, not counted" in blocks["gelly"] and "No claim of this paper" in blocks["gelly"]
    assert "the claim o" in blocks["observations"] and "more runs" in blocks["observations"]
    assert latest_claims([]).empty and "paper-counts" not in answers_html(latest_claims([]), known_page, titles,
                                                                           set(), {})


@pytest.mark.slow  # end to end, over 10 s
def test_every_page_says_where_its_numbers_come_from(site):
    commit = code_version()["git_commit"]
    for path in site.glob("*.html"):
        footer = path.read_text().split("<footer>")[1]
        assert "scale=smoke" in footer and 'href="runs_smoke.parquet"' in footer, path.name
        assert commit is None or commit in footer, path.name
    meta = section((site / "stabilized.html").read_text(), EXPERIMENT)
    assert "runs per column: NRPA 2, SNRPA(2) 2" in meta and "engine-speed factor k = " in meta


def test_the_neural_section_shows_the_files_experiments_neural_wrote_and_what_is_missing(tmp_path):
    root, folder = tmp_path / "outputs", tmp_path / "site"
    (root / "tables").mkdir(parents=True)
    (root / "figures").mkdir()
    (root / "tables" / "morpion_table1_smoke.md").write_text(
        "**Table 1** (smoke scale)\n\n| network | held_out_accuracy |\n|:--|--:|\n| Resnet R1 | 0.31 |\n")
    (root / "figures" / "morpion_fig2_smoke.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (root / "tables" / "morpion_table3_quick.md").write_text("| a |\n|--|\n| 1 |\n")  # another scale: not shown
    text = neural_section(root, "smoke", folder)
    assert "<td>Resnet R1</td><td>0.31</td>" in text and "<strong>Table 1</strong>" in text
    assert 'src="img/morpion_fig2_smoke.png"' in text and (folder / "img" / "morpion_fig2_smoke.png").is_file()
    assert "morpion_fig4" not in text  # a figure not made is left out, its table shown
    for target in ("morpion-table2", "morpion-table3", "morpion-table4"):
        assert f"<code>make {target} SCALE=smoke</code> makes it" in text
    assert "make morpion-table1 SCALE" not in text


def test_the_published_means_and_maxima_of_a_final_table_have_their_legend_entries():
    table = pd.DataFrame({"variant": ["uniform", "NRPA(1)"], "mean": [60.0, 80.0], "ci_low": [59.0, 79.0],
                          "ci_high": [61.0, 81.0], "runs": [4, 4], "max": [62.0, 82.0],
                          "published mean": [58.3, None], "published max": [None, 85.0]})
    figure = sections.finals_figure(table)
    keys = [trace for trace in figure.data if trace.showlegend and trace.legendgroup == trace.name]
    assert [(key.name, key.marker.symbol, key.marker.color) for key in keys] == [
        ("published mean", "circle-open", KEY_GREY), ("published max", "triangle-up-open", KEY_GREY)]
    assert [trace.marker.color for trace in figure.data if trace.name in ("uniform", "NRPA(1)")] == list(PALETTE[:2])
