"""Every registered algorithm keeps the same contract, on the knapsack example domain (as
pgx tests every environment with one API test): it spends exactly its playout budget, its
trace rises strictly and ends at its best score, its best sequence is a certificate that
replays to that score, the same seed gives the same run, and each parallel strategy on one
thread is the sequential run.

The last test adds an algorithm the way the README's "Add an algorithm" says (its kernel,
its declaration; its conf/algo yaml is what lets users type ``algo=NAME``) and holds it to
the same contract, so the checklist stays true."""

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from numba import njit

from nrpa.domains.contract import legal_moves, max_moves, new_state, play, reset, score
from nrpa.domains.registry import KnapsackOptions, make_domain
from nrpa.run import end_playout, go_on, new_run, result, start_clocks
from nrpa.search import ALGORITHMS, Algorithm, SearchSettings, register, run_search

CONF_ALGO = Path(__file__).resolve().parents[1] / "conf" / "algo"
BUDGET = 240  # playouts


@pytest.fixture(scope="module")
def knapsack():
    return make_domain(KnapsackOptions())


def settings_for(name: str, **changes) -> SearchSettings:
    return SearchSettings(algorithm=name, level=2, N=6, max_time=None, max_playouts=BUDGET, seed=3, **changes)


def keeps_the_contract(adapter, settings: SearchSettings):
    """Run ``settings`` twice on ``adapter``; check the contract; return the run."""
    domain = adapter.kernel_domain()
    first = run_search(domain, settings)
    assert first.playouts == BUDGET
    scores = first.trace.score
    assert len(scores) >= 1 and all(later > earlier for earlier, later in zip(scores, scores[1:]))
    assert scores[-1] == first.best_score
    assert list(first.trace.playouts) == sorted(first.trace.playouts) and first.trace.playouts[-1] <= BUDGET
    assert adapter.replay_score(adapter.certificate(first.best_moves)) == first.best_score
    second = run_search(domain, settings)
    assert (second.best_moves, second.trace.score, second.trace.playouts) == (
        first.best_moves, first.trace.score, first.trace.playouts)
    return first


@pytest.mark.parametrize("name", sorted(ALGORITHMS))
def test_every_algorithm_keeps_the_contract_and_users_can_choose_it(knapsack, name):
    keeps_the_contract(knapsack, settings_for(name))
    assert f"algorithm: {name}\n" in (CONF_ALGO / f"{name}.yaml").read_text()


@pytest.mark.slow  # ~90 s of compiling the threaded kernels for the knapsack domain
@pytest.mark.parametrize("name, parallel", [(algorithm.name, parallel) for algorithm in ALGORITHMS.values()
                                            for parallel, kernel in algorithm.kernels.items()
                                            if parallel != "none" and kernel is not None])
def test_every_parallel_strategy_on_one_thread_is_the_sequential_run(knapsack, name, parallel):
    sequential = run_search(knapsack.kernel_domain(), settings_for(name))
    one_thread = keeps_the_contract(knapsack, settings_for(name, parallel=parallel, threads=1))
    assert (one_thread.best_moves, one_thread.trace.score, one_thread.trace.playouts) == (
        sequential.best_moves, sequential.trace.score, sequential.trace.playouts)


@njit
def random_restarts_search(domain, params):
    """The example algorithm: uniform playouts from the initial state until the budget."""
    np.random.seed(params.seed)
    run = new_run(domain, params)
    state = new_state(domain)
    moves = np.zeros(max_moves(domain), dtype=np.int64)
    codes = np.zeros(max_moves(domain), dtype=np.int64)
    start_clocks(run)
    while True:
        reset(domain, state)
        length = 0
        while True:
            n = legal_moves(domain, state, moves, codes)
            if n == 0:
                break
            run.path[length] = moves[np.random.randint(0, n)]
            play(domain, state, run.path[length])
            length += 1
        end_playout(run, score(domain, state), run.path, length)
        if not go_on(run, params):
            break
    return result(run)


@pytest.fixture
def random_restarts():
    algorithm = register(Algorithm("random_restarts", "random restarts", {"none": random_restarts_search},
                                   identity=(), label=lambda s: "random restarts"))
    yield algorithm
    del ALGORITHMS[algorithm.name]


def test_an_algorithm_added_as_the_readme_says_keeps_the_contract(knapsack, random_restarts):
    run = keeps_the_contract(knapsack, settings_for("random_restarts"))
    assert run.restarts == BUDGET - 1  # one playout per top-level call
    other_seed = run_search(knapsack.kernel_domain(), replace(settings_for("random_restarts"), seed=4))
    assert other_seed.trace.score != run.trace.score or other_seed.best_moves != run.best_moves
