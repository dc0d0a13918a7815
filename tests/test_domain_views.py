"""The domains' views in the reports (analysis/results/domain_views.py), keyed by domain name: TSPTW's
summary of the final tours and Morpion's grid drawing, on the best-known tour and a record game.
The library side holds none of it: nothing under nrpa/ imports analysis, experiments, pandas or
matplotlib."""

import re
from pathlib import Path

import pandas as pd
import pytest

from analysis.results.domain_views import VIEWS, domain_view
from nrpa.domains import morpion_rules, tsptw_rules
from nrpa.domains.registry import DOMAINS, MorpionOptions, TsptwOptions, make_domain


def test_tsptw_summary_gives_the_gap_of_feasible_tours_only():
    domain = make_domain(TsptwOptions(instance="rc_204.1"))
    cost, tour = tsptw_rules.best_known()["rc_204.1"]
    info = domain.describe()
    best = domain_view("tsptw").final_summary(domain, {"certificate": {"moves": tour}, "domain_info": info})
    assert best == {"violations": 0, "cost": pytest.approx(cost, abs=1e-3), "gap_percent": pytest.approx(0, abs=1e-3)}
    backwards = domain_view("tsptw").final_summary(domain, {"certificate": {"moves": tour[::-1]}, "domain_info": info})
    assert backwards["violations"] > 0 and backwards["gap_percent"] is None
    rows = pd.DataFrame([{"variant": "A", "repeat": 0, **best}, {"variant": "A", "repeat": 1, **backwards}])
    summary, note = domain_view("tsptw").final_summary_table(domain, rows)
    assert summary.loc["A", ["runs", "feasible"]].tolist() == [2, 1]
    assert summary.loc["A", "best_feasible_cost"] == best["cost"]
    assert f"Best-known cost {cost:g} (LKH-3)" in note


def test_morpion_draws_its_best_game_and_the_other_domains_show_nothing_more(tmp_path):
    domain = make_domain(MorpionOptions(variant="5D"))
    game = [list(move) for move in morpion_rules.load_record("5d_82_rosin")]
    path = domain_view("morpion").draw_solution(domain, game, tmp_path / "grid.png")
    assert Path(path).read_bytes()[:4] == b"\x89PNG"
    assert set(VIEWS) <= set(DOMAINS)
    assert domain_view("samegame").final_summary is None and domain_view("samegame").draw_solution is None


def test_the_library_imports_neither_analysis_nor_experiments_nor_plotting():
    upward = re.compile(r"^\s*(import|from)\s+(analysis|experiments|pandas|matplotlib)\b", re.MULTILINE)
    library = Path(__file__).resolve().parents[1] / "nrpa"
    assert [str(path) for path in library.rglob("*.py") if upward.search(path.read_text())] == []
