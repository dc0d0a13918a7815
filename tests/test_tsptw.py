"""TSPTW: instances, tour evaluation by hand and against the best-known tours, the kernel
against the plain-Python rules, and malformed files."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from nrpa.domains import tsptw, tsptw_rules as rules
from nrpa.domains.registry import TsptwOptions, make_domain
from nrpa.domains.tsptw import make_tsptw, tw_legal_moves, tw_new_state, tw_play, tw_reset, tw_score
from nrpa.search import SearchSettings, run_search

TINY = rules.parse_instance("3\n0 5 9\n6 10 4\n9 4 10\n0 100\n0 7\n20 30\n", "tiny")


def test_a_tour_costs_its_legs_waits_for_ready_times_and_counts_late_arrivals():
    # depot -> 1 (t = 5) -> 2 (t = 9, waits to 20) -> depot (t = 29): cost 5 + 4 + 9 = 18
    assert rules.evaluate(TINY, [1, 2]) == (18, 0)
    # depot -> 2 (t = 9, waits to 20) -> 1 (t = 24 > 7: late) -> depot: cost 9 + 4 + 6 = 19
    assert rules.evaluate(TINY, [2, 1]) == (19, 1)
    assert rules.score(TINY, [2, 1]) == -(1_000_000 + 19)


def play_in_kernel(domain, tour):
    state = tw_new_state(domain)
    for customer in tour:
        tw_play(domain, state, customer)
    return tw_score(domain, state)


@pytest.mark.parametrize("name", rules.instance_names())
def test_every_instance_loads_and_its_best_known_tour_scores_as_listed(name):
    cost, tour = rules.best_known()[name]
    domain = make_domain(TsptwOptions(instance=name))
    assert domain.instance.nodes == len(tour) + 1
    assert rules.evaluate(domain.instance, tour) == (pytest.approx(cost, abs=1e-3), 0)
    assert play_in_kernel(domain.kernel_domain(), tour) == pytest.approx(-cost, abs=1e-3)
    assert domain.replay_score(tour) == pytest.approx(-cost, abs=1e-3)


@settings(max_examples=40, deadline=None)
@given(name=st.sampled_from(["rc_201.1", "rc_202.2", "rc_203.1", "rc_207.4"]),
       rule=st.sampled_from(sorted(tsptw.RULES)), seed=st.integers(0, 2**32 - 1))
def test_kernel_offers_the_customers_the_python_rules_offer(name, rule, seed):
    domain = make_domain(TsptwOptions(instance=name, policy=rule))
    kernel = domain.kernel_domain()
    state = tw_new_state(kernel)
    moves = np.zeros(64, dtype=np.int64)
    codes = np.zeros(64, dtype=np.int64)
    rng = np.random.default_rng(seed)
    visited, here, time, tour = set(), 0, 0.0, []
    while (n := tw_legal_moves(kernel, state, moves, codes)) > 0:
        expected = rules.legal_customers(domain.instance, visited, here, time, rule=rule)
        assert sorted(moves[:n]) == sorted(expected)
        assert all(code == here * kernel.nodes + move for move, code in zip(moves[:n], codes[:n]))
        customer = int(moves[rng.integers(n)])
        tw_play(kernel, state, customer)
        time = max(time + domain.instance.distance[here][customer], domain.instance.ready[customer])
        visited.add(customer)
        here = customer
        tour.append(customer)
    assert tw_score(kernel, state) == pytest.approx(rules.score(domain.instance, tour))


def test_each_playout_rule_offers_the_customers_worked_out_by_hand():
    # depot 0 and customers 1-3, all ready at 0; from the depot at time 0: customer 1 (due 5,
    # 10 away) is already late, so step (1) offers it alone; visiting 2 (arrival 1) would make
    # 3 late (1 + 50 > 30) while visiting 1 (arrival 10) or 3 (arrival 1) makes no one late
    # (10 + 1 <= 30 and <= 100; 1 + 1 <= 5, 1 + 50 <= 100), so step (2) offers 1 and 3
    text = "4\n0 10 1 1\n10 10 1 1\n1 1 10 50\n1 1 50 10\n0 1000\n0 5\n0 100\n0 30\n"
    instance = rules.parse_instance(text, "hand")
    expected = {"all": [1, 2, 3], "late_first": [1], "harmless": [1, 3], "pruned": [1]}
    assert set(expected) == set(tsptw.RULES)
    for rule, customers in expected.items():
        assert rules.legal_customers(instance, set(), 0, 0.0, rule=rule) == customers
        kernel = tsptw.make_tsptw(instance.distance, instance.ready, instance.due, rule=rule)
        moves, codes = np.zeros(8, dtype=np.int64), np.zeros(8, dtype=np.int64)
        n = tw_legal_moves(kernel, tw_new_state(kernel), moves, codes)
        assert sorted(moves[:n]) == customers, rule
    # at customer 1 (time 10) nobody is late (10 + 1 <= 100 and <= 30), and visiting 2 (arrival
    # 11) would make 3 late (11 + 50 > 30), visiting 3 not 2 (11 + 50 <= 100)
    after = {"all": [2, 3], "late_first": [2, 3], "harmless": [3], "pruned": [3]}
    for rule, customers in after.items():
        assert rules.legal_customers(instance, {1}, 1, 10.0, rule=rule) == customers


def test_nrpa_finds_the_optimal_tour_of_a_small_instance():
    domain = make_domain(TsptwOptions(instance="rc_207.4"))  # 5 customers: 120 tours
    optimum = max(rules.score(domain.instance, list(t)) for t in itertools.permutations(range(1, 6)))
    result = run_search(domain.kernel_domain(), SearchSettings(level=2, N=20, seed=1, max_time=None,
                                                                max_playouts=400))
    assert result.best_score == pytest.approx(optimum)
    assert -optimum == pytest.approx(rules.best_known()["rc_207.4"][0], abs=1e-3)


@pytest.mark.parametrize("text, message", [
    ("", "is empty"),
    ("3\n0 1 2\n1 0 2\n", "3 nodes need 3 matrix lines and 3 time-window lines"),
    ("2\n0 1 5\n1 0\n0 10\n0 10\n", "line 2: 3 distances where the first line says 2 nodes"),
    ("2\n0 x\n1 0\n0 10\n0 10\n", "line 2: 'x' is not a number"),
    ("2\n0 1\n1 0\n0 10\n5 1\n", "line 5: a time window is 'ready due' with ready <= due"),
    ("two\n", "line 1: the first line must be the number of nodes"),
])
def test_malformed_instance_files_name_the_file_and_line(tmp_path, text, message):
    path = tmp_path / "bad.txt"
    path.write_text(text)
    with pytest.raises(rules.InstanceError, match=message.replace("(", r"\(")) as error:
        make_domain(TsptwOptions(instance=str(path)))
    assert str(path) in str(error.value)


@pytest.mark.parametrize("nodes", [2, 41, 64, 65, 70])
def test_rule_all_lists_the_unvisited_customers_in_order_below_and_above_64_nodes(nodes):
    # up to 64 nodes the kernel walks a bitmask of the unvisited customers, above it their flags
    rng = np.random.default_rng(nodes)
    kernel = make_tsptw(rng.uniform(1, 10, (nodes, nodes)), np.zeros(nodes), np.full(nodes, 1e9))
    state = tw_new_state(kernel)
    moves = np.zeros(nodes, dtype=np.int64)
    codes = np.zeros(nodes, dtype=np.int64)
    for _ in range(2):  # a second game after reset
        unvisited, here = list(range(1, nodes)), 0
        while (n := tw_legal_moves(kernel, state, moves, codes)) > 0:
            assert list(moves[:n]) == unvisited
            assert list(codes[:n]) == [here * nodes + customer for customer in unvisited]
            here = int(moves[rng.integers(n)])
            tw_play(kernel, state, here)
            unvisited.remove(here)
        assert unvisited == []
        tw_reset(kernel, state)
