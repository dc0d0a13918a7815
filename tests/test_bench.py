"""`make bench`'s measurements that count something exactly (the speed figures themselves are
never asserted: they belong to the benchmark, not to a test)."""

import pytest

from experiments.bench import _level1_iterations, game_step_split, level1_split
from nrpa.domains.registry import TsptwOptions, make_domain
from nrpa.search import SearchSettings, kernel_params


@pytest.mark.slow
def test_the_level1_split_counts_every_legal_move_a_playout_lists():
    # TSPTW with every move legal: a tour of c customers lists c + (c - 1) + ... + 1 moves.
    adapter = make_domain(TsptwOptions(instance="rc_204.1", policy="all"))
    domain = adapter.kernel_domain()
    customers = int(domain.nodes) - 1
    playing, adapting, listed = _level1_iterations(domain, kernel_params(SearchSettings(level=1, N=100, seed=1)), 250)
    assert listed == 250 * customers * (customers + 1) // 2
    assert playing > 0 and adapting > 0
    lines = level1_split(0.01)
    assert [line.split(":")[0] for line in lines] == ["SameGame board 1, tabu", "Morpion 5D", "TSPTW rc_204.1, all moves"]
    assert f"{customers * (customers + 1) // 2} legal moves listed a playout" in lines[2]


@pytest.mark.slow
def test_the_game_step_split_replays_whole_uniform_games():
    # TSPTW with every move legal: every game visits the c customers, listing c, c - 1, ..., 1 moves.
    customers = int(make_domain(TsptwOptions(instance="rc_204.1", policy="all")).kernel_domain().nodes) - 1
    lines = game_step_split(0.01, games=50)
    assert [line.split(",")[0] for line in lines] == ["SameGame board 1", "Morpion 5D", "TSPTW rc_204.1"]
    assert f"({customers:.1f} moves a game, {(customers + 1) / 2:.1f} legal moves a step)" in lines[2]
