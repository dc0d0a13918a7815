"""Every registered algorithm keeps the same contract, on the knapsack example domain (as
pgx tests every environment with one API test): it spends exactly its playout budget, its
trace rises strictly and ends at its best score, its best sequence is a certificate that
replays to that score, the same seed gives the same run, and each parallel strategy on one
thread is the sequential run.

An algorithm runs on the settings ``python run.py algo=NAME`` gives it (its conf/algo/NAME.yaml,
composed by Hydra), with the contract's level, N, budget and seed on top; and again at the
value its declaration's ``examples`` gives each setting of its own, which must change the run
exactly when the setting is part of the run's identity.

The tests marked ``algorithms`` depend on the list of algorithms: tests/test_add_algorithm.py
runs them on a throwaway algorithm added as docs/howto/add-algorithm.md says."""

import pytest
from hydra import initialize_config_dir

from experiments import experiment
from experiments.cli import settings_from
from experiments.config import register_configs
from nrpa.domains.registry import KnapsackOptions, make_domain
from nrpa.search import ALGORITHMS, SearchSettings, run_search

BUDGET = 240  # playouts
CONTRACT = ("level=2", "N=6", "max_time=null", f"max_playouts={BUDGET}", "seed=3")


@pytest.fixture(scope="module")
def knapsack():
    return make_domain(KnapsackOptions())


def settings_for(name: str, *overrides: str) -> SearchSettings:
    """The settings of ``python run.py algo=NAME`` with the contract's and ``overrides``: the
    algorithm's conf file composed by Hydra (from ``experiments.experiment.CONFIG_DIR``, which
    tests/test_add_algorithm.py points at a copy holding a throwaway algorithm's file)."""
    register_configs()
    with initialize_config_dir(config_dir=str(experiment.CONFIG_DIR), version_base="1.3"):
        return settings_from(experiment._compose([f"algo={name}", *CONTRACT, *overrides], hydra=False))


def override(key: str, value) -> str:
    """``key=value`` as a command line writes it."""
    text = "null" if value is None else str(value).lower() if isinstance(value, bool) else str(value)
    return f"{key}={text}"


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


def the_run(result) -> tuple:
    return result.best_moves, result.trace.score, result.trace.playouts, result.restarts


@pytest.mark.algorithms
@pytest.mark.parametrize("name", sorted(ALGORITHMS))
def test_every_algorithm_keeps_the_contract_and_users_can_choose_it(knapsack, name):
    settings = settings_for(name)
    assert settings.algorithm == name  # algo=NAME chooses it: conf/algo/NAME.yaml sets `algorithm: NAME`
    keeps_the_contract(knapsack, settings)
    algorithm = ALGORITHMS[name]
    assert set(algorithm.examples) <= set(algorithm.own_settings), f"{name}: examples of settings not its own"


@pytest.mark.algorithms
@pytest.mark.parametrize("name, key", [(algorithm.name, key) for algorithm in ALGORITHMS.values()
                                       for key in algorithm.own_settings])
def test_every_setting_of_its_own_keeps_the_contract_away_from_its_conf_value(knapsack, name, key):
    algorithm = ALGORITHMS[name]
    assert key in algorithm.examples, (f"{name}: give examples={{{key!r}: VALUE}} in its declaration, a valid "
                                       f"value other than conf/algo/{name}.yaml's")
    conf_value = getattr(settings_for(name), key)
    value = algorithm.examples[key]
    assert value != conf_value, f"{name}: examples[{key!r}] is conf/algo/{name}.yaml's value"
    settings = settings_for(name, override(key, value))
    assert getattr(settings, key) == value
    run = keeps_the_contract(knapsack, settings)
    # A setting of the run's identity must change the run (else its example runs none of its
    # code); one outside it (SP-MCTS's share_*: parallel=averaged's) must not, or two
    # different runs would be stored under one run id.
    changed = the_run(run) != the_run(run_search(knapsack.kernel_domain(), settings_for(name)))
    assert changed == (key in algorithm.identity), (name, key, value)


@pytest.mark.algorithms
@pytest.mark.slow  # ~90 s of compiling the threaded kernels for the knapsack domain
@pytest.mark.parametrize("name, parallel", [(algorithm.name, parallel) for algorithm in ALGORITHMS.values()
                                            for parallel, kernel in algorithm.kernels.items()
                                            if parallel != "none" and kernel is not None])
def test_every_parallel_strategy_on_one_thread_is_the_sequential_run(knapsack, name, parallel):
    sequential = run_search(knapsack.kernel_domain(), settings_for(name))
    one_thread = keeps_the_contract(knapsack, settings_for(name, f"parallel={parallel}", "threads=1"))
    assert the_run(one_thread)[:3] == the_run(sequential)[:3]
