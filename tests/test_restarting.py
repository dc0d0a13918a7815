"""Restarting NRPA, the worked example of docs/howto/add-algorithm.md: its step of
``nrpa_until`` against a plain-Python version on the same random stream, run for run, and a
patience it never runs out of is NRPA, run for run."""

import math

import pytest

from nrpa.domains import tsptw_rules
from nrpa.domains.registry import TsptwOptions, make_domain
from nrpa.search import SearchSettings, run_search
from tests.test_gnrpa import PlainGNRPA, same_run


class PlainRestarting(PlainGNRPA):
    """Restarting NRPA from its definition, on the plain GNRPA's playouts and Adapt (no bias,
    tau = 1: NRPA's): a level-1 call whose last K iterations did not raise its best score goes
    back to the policy it started from, keeping its best sequence."""

    def __init__(self, instance, *, K, N, P, alpha, seed):
        super().__init__(instance, N=N, P=P, tau=1.0, alpha=alpha, repetitions=None, bias_weight=0.0, seed=seed)
        self.K, self.restarts = K, 0

    def level1(self, start_v, start_exp):
        v, exp_v = dict(start_v), dict(start_exp)
        best, sequence, stale = -math.inf, None, 0
        for _ in range(self.N):
            before = best
            iteration_best, best, sequence = self.iteration(exp_v, best, sequence)
            stale = 0 if iteration_best > before else stale + 1
            if stale == self.K:
                v, exp_v, stale = dict(start_v), dict(start_exp), 0
                self.restarts += 1
            else:
                self.adapt(v, exp_v, sequence)
        return best, sequence


@pytest.mark.parametrize("level", [1, 2])
@pytest.mark.parametrize("P", [1, 2])
def test_the_kernel_is_a_plain_python_restarting_nrpa(level, P):
    instance = tsptw_rules.load_instance("rc_201.1")
    domain = make_domain(TsptwOptions(instance="rc_201.1")).kernel_domain()
    settings = SearchSettings(algorithm="rnrpa", patience=3, level=level, N=20, P=P, seed=11, max_time=None,
                              restart=False)
    result = run_search(domain, settings)
    plain = PlainRestarting(instance, K=3, N=20, P=P, alpha=1.0, seed=11)
    best = plain.level2() if level == 2 else plain.level1({}, {})[0]  # a top call at level 1 starts uniform
    assert result.best_score == best
    assert list(zip(result.trace.playouts, result.trace.score)) == plain.trace
    assert result.playouts == plain.playouts == 20**level * P
    assert plain.restarts > 0  # the runs compared went back to a call's first policy


def test_a_patience_it_never_runs_out_of_is_nrpa_run_for_run():
    # a level-1 call has N iterations and its first raises the best: K = N never restarts
    domain = make_domain(TsptwOptions(instance="rc_201.1")).kernel_domain()
    settings = dict(level=3, N=10, seed=3, max_time=None, max_playouts=4000)
    nrpa = run_search(domain, SearchSettings(algorithm="nrpa", **settings))
    assert same_run(nrpa, run_search(domain, SearchSettings(algorithm="rnrpa", patience=10, **settings)))
    assert not same_run(nrpa, run_search(domain, SearchSettings(algorithm="rnrpa", patience=2, **settings)))
    assert len(nrpa.trace.score) > 3  # a run with several improvements, not a trivial one
