"""A level-L NRPA search spends its first N^(L-1) playouts in one level-(L-1) call that starts from
the same (empty) policy, so below N^(L-1) playouts levels L-1, L, L+1, ... are the same search.
The Selective NRPA time tables (level unstated, read as 4: analysis/claims/selective.yaml) budget
each column below 10^6 = 100^3 playouts at matched time: any level of 3 or more is the same search
there, which this checks on the knapsack with N = 4 (a level-3 call: 64 playouts); level 2 is
another search past its first N^2 playouts."""

import pytest

from nrpa.domains.registry import KnapsackOptions, make_domain
from nrpa.search import run_search
from tests.test_algorithm_contract import settings_for


@pytest.mark.parametrize("budget", [50, 63])
def test_levels_3_4_and_5_are_one_search_below_a_level_3_call(budget):
    domain = make_domain(KnapsackOptions()).kernel_domain()
    runs = []
    for level in (3, 4, 5):
        result = run_search(domain, settings_for("nrpa", f"level={level}", "N=4", f"max_playouts={budget}", "seed=11"))
        runs.append((result.trace.playouts, result.trace.score, result.best_moves, result.playouts))
    assert runs[0][3] == budget
    assert runs[0] == runs[1] == runs[2]


def test_level_2_is_the_same_search_only_until_its_top_level_ends():
    """A level-2 search is a level-3 search's first level-2 call for its N^2 playouts (16 here); then
    it restarts from a fresh policy (restart, the default) where the level-3 search adapts its
    level-3 policy and goes on: another search after that."""
    domain = make_domain(KnapsackOptions()).kernel_domain()
    level2, level3 = (run_search(domain, settings_for("nrpa", f"level={level}", "N=4", "max_playouts=63", "seed=11"))
                      for level in (2, 3))
    first = [i for i, p in enumerate(level3.trace.playouts) if p <= 16]
    assert [level2.trace.playouts[i] for i in first] == [level3.trace.playouts[i] for i in first]
    assert level2.restarts > 0 and level3.restarts == 0
    assert (level2.trace.playouts, level2.trace.score) != (level3.trace.playouts, level3.trace.score)
