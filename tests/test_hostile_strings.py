"""Shared runs stay text: a string of a run file, an archive pack's record, a leaderboard entry
or a claims report reaches the results site (analysis/site/build.py) and the reports' Markdown tables
escaped, never as markup. Every string field of the records here holds a ``<script>``, a pipe
and a line break; the site built from them must hold them as text only."""

from __future__ import annotations

import json
import time
from html.parser import HTMLParser
from pathlib import Path

import pandas as pd
import pytest

from analysis.site.build import build
from analysis.site.sections import checkpoint_figure, figure_html, markdown_html
from analysis.results.tables import markdown_cell, markdown_table, markdown_text
from experiments import archive
from experiments.experiment import load_experiment
from experiments.store import RunStore
from experiments.workers import run_job
from nrpa.domains.registry import make_domain
from tests.test_site import claim_row, write_report

SCRIPT = "<script>alert(1)</script>"
HOSTILE = f'{SCRIPT} <img src=x onerror="alert(2)"> a | b\nc'
OPENED = "<script>alert(1)"  # what a page must never hold raw; a file name's version of HOSTILE (no slash):
IN_NAME = f"{OPENED} <img src=x onerror=alert(2)> a | b"
EXPERIMENT = "selective_table2"  # 10 smoke runs of a few seconds
# What identifies a run (its file name is its config's hash) and what readers parse: a value
# changed there is another run, or no run file, not a string shown on a page.
KEPT = {("run_id",), ("config",), ("settings", "clock"), ("settings", "parallel"), ("finished_at",),
        ("domain_info", "instance_file")}


def hostile(value, path=()):
    """``value`` with HOSTILE appended to every string in it, but under KEPT."""
    if any(path[:len(kept)] == kept for kept in KEPT):
        return value
    if isinstance(value, dict):
        return {key: hostile(item, (*path, key)) for key, item in value.items()}
    if isinstance(value, list):
        return [hostile(item, (*path, "[]")) for item in value]
    return f"{value} {HOSTILE}" if isinstance(value, str) else value


def hostile_runs(outputs: Path, packs: Path) -> None:
    """The experiment's smoke runs with hostile strings, every one packed into ``packs`` and the
    first column's run files then removed: those are read from the pack."""
    experiment = load_experiment([f"experiment={EXPERIMENT}", "scale=smoke", f"outputs_dir={outputs}"])
    store = RunStore(outputs, archive=None)
    paths = [path for variant in experiment.variants
             for path in run_job(variant.job, variant.repeats, store, n_jobs=1).paths]
    for path in paths:
        record = hostile(json.loads(path.read_text()))
        record["host"] = {**record.get("host", {}), "cpu": f"cpu {HOSTILE}"}
        path.write_text(json.dumps(record))
    assert archive.pack(store, packs).runs == len(paths)
    for path in run_job(experiment.variants[0].job, experiment.variants[0].repeats, store, n_jobs=1).paths:
        path.unlink()


def hostile_records(leaderboard: Path) -> None:
    """A leaderboard entry whose every string but its domain's options is hostile, its key too
    (the file's name: IN_NAME), and one of a domain no code knows."""
    options, moves = {"name": "weakschur", "parts": 2}, [[1, 2, 4, 8], [3, 5, 6, 7]]
    score = make_domain(options).replay_score(moves)
    entries = {f"weakschur/K2 {IN_NAME}": {"domain": options},
               f"{IN_NAME}/K2 {IN_NAME}": {"domain": {"name": f"weakschur {HOSTILE}", "parts": 2}}}
    for key, config in entries.items():
        path = leaderboard / f"{key}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({
            "key": f"{key} {HOSTILE}", "score": score, "verified": HOSTILE,
            "certificate": {"score": score, "moves": moves, "format": HOSTILE},
            "run_id": HOSTILE, "found_at": HOSTILE, "code_version": {"source_hash": HOSTILE},
            "config": {**config, "algorithm": HOSTILE, "level": HOSTILE, "N": HOSTILE, "P": HOSTILE}}))


def hostile_claims(claims: Path) -> None:
    claims.mkdir(parents=True, exist_ok=True)
    write_report(claims / "claims_smoke.csv", [
        claim_row(HOSTILE, HOSTILE, "supported", EXPERIMENT, basis=HOSTILE, text=HOSTILE, evaluated_at=HOSTILE,
                  runs=10, effect=1.0, effect_low=0.5, effect_high=1.5, why=HOSTILE),
        claim_row(f"b {HOSTILE}", HOSTILE, "inconclusive", HOSTILE, kind=HOSTILE, to_decide=HOSTILE,
                  scaled_down_verdict=HOSTILE, gaps=HOSTILE, runs=float("nan"), effect=float("nan")),
    ], time.time())


class Markup(HTMLParser):
    """The elements of a page, and its text."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict]] = []
        self.text: list[str] = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text.append(data)


# The site's own scripts: plotly, site.js and the figures' JSON payloads.
def own_script(attributes: dict) -> bool:
    return attributes.get("src") in ("plotly.min.js", "site.js") or (
        attributes.get("type") == "application/json" and attributes.get("class") == "figure-data")


def assert_text_only(page: Path) -> None:
    text = page.read_text()
    assert OPENED not in text and "<img src=x" not in text, page.name
    markup = Markup(text)
    for tag, attributes in markup.tags:
        assert tag != "script" or own_script(attributes), f"{page.name}: a script of a record's: {attributes}"
        assert tag != "img" or "onerror" not in attributes, f"{page.name}: an image with a handler: {attributes}"
        assert not any(name.startswith("on") for name in attributes), f"{page.name}: {tag} {attributes}"


@pytest.mark.slow  # end to end, over 10 s
def test_a_site_built_from_hostile_runs_records_and_claims_shows_their_strings_as_text(tmp_path, monkeypatch):
    outputs, packs = tmp_path / "outputs", tmp_path / "archive"
    hostile_runs(outputs, packs)
    hostile_records(outputs / "leaderboard")
    hostile_claims(outputs / "claims")
    monkeypatch.setenv("NRPA_ARCHIVE", str(packs))
    index = build(["scale=smoke", f"outputs_dir={outputs}"], [EXPERIMENT], tmp_path / "site")
    pages = sorted(index.parent.glob("*.html"))
    assert {page.name for page in pages} >= {"index.html", "claims.html", "records.html", "selective.html"}
    for page in pages:
        assert_text_only(page)
    for drawing in (index.parent / "records").glob("*.svg"):
        assert_text_only(drawing)
    # the strings did reach the pages, as text: the runs' hosts and code, the records, the claims
    selective = "".join(Markup((index.parent / "selective.html").read_text()).text)
    assert OPENED in selective  # the hosts and the code versions of the runs, from files and from the pack
    records = "".join(Markup((index.parent / "records.html").read_text()).text)
    assert records.count(OPENED) >= 6  # per entry its key, run id, date, what found it
    claims = "".join(Markup((index.parent / "claims.html").read_text()).text)
    assert claims.count(OPENED) >= 6
    # the reports' Markdown tables: no raw HTML, no cell broken by a pipe or a line break
    for table in (outputs / "tables").glob("*.md"):
        assert OPENED not in table.read_text(), table.name


def test_a_markdown_table_cell_keeps_its_pipe_line_break_and_markup_as_text():
    frame = pd.DataFrame({f"column {HOSTILE}": [HOSTILE, "plain"], "number": [1.5, 2.0]},
                         index=pd.Index([HOSTILE, "r"], name=HOSTILE))
    text = markdown_table(frame, floatfmt=".2f")
    lines = text.splitlines()
    assert len(lines) == 4 and SCRIPT not in text  # a heading, the rule, a line per row
    assert all(line.count("|") - line.count("\\|") == 4 for line in lines)
    assert markdown_text(markdown_cell(HOSTILE)) == HOSTILE.replace("\n", " ")
    shown = markdown_html(f"caption\n\n{text}", [], [])
    assert SCRIPT not in shown and shown.count("&lt;script&gt;alert(1)&lt;/script&gt;") == 4
    assert shown.count("<td>") + shown.count("<td ") == 6  # two rows of three cells, as written


def test_a_figure_payload_holds_hostile_labels_as_json_text():
    table = pd.DataFrame({"variant": [HOSTILE, HOSTILE], "checkpoint": [1.0, 2.0], "mean": [1.0, 2.0],
                          "ci_low": [0.5, 1.5], "ci_high": [1.5, 2.5], "runs": [2, 2], "runs_without_solution": [0, 0],
                          "published": [float("nan"), 2.0]})
    shown = figure_html(f"id {HOSTILE}", checkpoint_figure(table, "CPU seconds", "score", None))
    assert SCRIPT not in shown and "</script>" in shown and shown.count("<script") == 1
    payload = shown.split('data-target="', 1)[1].split(">", 1)[1].rsplit("</script>", 1)[0]
    assert HOSTILE in {trace.get("name") for trace in json.loads(payload)["data"]}  # the column's line, as text
