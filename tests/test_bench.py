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


def test_the_contention_line_compares_each_case_with_the_idle_rate_per_fair_core(monkeypatch):
    from experiments import bench_contention

    monkeypatch.setattr(bench_contention.os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    # 2 threads on 2 cores: alone both cores, beside a one-thread hog 2 x 2/3, two runs at once one core each
    assert [bench_contention.cores(case) for case in bench_contention.CASES] == [2, 4 / 3, 1]
    rates = {("shared", "tbb", "alone"): [90.0, 100.0, 110.0], ("shared", "tbb", "beside a hog"): [40.0],
             ("shared", "tbb", "two at once"): [10.0]}
    (line,) = bench_contention.contention_lines(rates, 3, 4.0)
    # idle: 100 / 2 = 50 a core; the hog: 40 / (4/3) = 30 a core, x0.60; two at once: 10 / 1, x0.20
    assert "alone 100 (x1.00" in line and "beside a hog 40 (x0.60" in line and "two at once 10 (x0.20" in line
