"""Leaf and node parallel NRPA on threads: M = 1 is the sequential run, M > 1 is
deterministic and makes N^level playouts per top-level call, the thread-local policy is a
plain-Python Algorithm 5 (the best thread's policy handed back), options are checked."""

import math

import json
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest
from numba.typed import List

from experiments.root_parallel import group_root_runs, merge_members
from nrpa import policy as pol
from nrpa.policy_averaging import average_top_policies
from nrpa.bias import bias_for
from nrpa.domains.registry import SameGameOptions, make_domain
from nrpa.domains.samegame import sg_legal_moves, sg_max_moves, sg_new_state, sg_play, sg_score
from nrpa.run import SEED_LIMIT
from nrpa.search import SearchSettings, run_search
from tests.conftest import cli, python, run_experiment

BOARD = make_domain(SameGameOptions(board="1", policy="tabu"))


@pytest.fixture(scope="module")
def board():
    return BOARD.kernel_domain()


def once(**settings):
    """One call of the top level, to its end: no budget, no restart."""
    return SearchSettings(max_time=None, restart=False, seed=11, **settings)


# Every test that runs the threaded kernels is behind `slow` (CI runs it): compiling the leaf
# kernel alone took 39 s of the fast suite, whose 4-minute limit (make test) it broke. The fast
# suite keeps the kernel-free tests of this file (root merging, policy averaging).
@pytest.mark.parametrize("parallel", ["shared", "thread_local"])
@pytest.mark.parametrize("parallel_level", [1, 2, 3])
@pytest.mark.slow
def test_one_thread_gives_the_sequential_run(board, parallel, parallel_level):
    sequential = run_search(board, once(level=3, N=6))
    threaded = run_search(board, once(level=3, N=6, parallel=parallel, parallel_level=parallel_level, threads=1))
    assert threaded.best_moves == sequential.best_moves
    assert threaded.best_score == sequential.best_score
    assert threaded.trace.score == sequential.trace.score
    assert threaded.trace.playouts == sequential.trace.playouts
    assert threaded.playouts == sequential.playouts == 6**3


@pytest.mark.parametrize("parallel", ["shared", "thread_local"])
@pytest.mark.parametrize("parallel_level, threads", [(1, 2), (2, 2), (1, 3), (3, 2)])
@pytest.mark.slow
def test_threads_give_the_same_run_for_the_same_seed(board, parallel, parallel_level, threads):
    settings = once(level=3, N=6, parallel=parallel, parallel_level=parallel_level, threads=threads)
    first, second = run_search(board, settings), run_search(board, settings)
    assert first.best_moves == second.best_moves and first.best_score == second.best_score
    # N / M rounds of M calls, or M searches of N / M iterations: N^level playouts either way
    assert first.playouts == second.playouts == 6**3
    assert BOARD.replay_score(BOARD.certificate(first.best_moves)) == first.best_score
    other_seed = run_search(board, replace(settings, seed=12))
    assert other_seed.best_moves != first.best_moves  # the seed matters


class PlainThreadLocal:
    """Leaf-parallel NRPA with the thread-local policy (the paper's Algorithm 5 at L = 1) in
    plain Python from the definitions, on the kernel's random streams (numba's generator is
    numpy's legacy Mersenne Twister): before each parallel call the caller draws M + 1 seeds
    (one per thread, then the one it reseeds its own stream with), thread i seeds its own
    stream with the i-th and runs N / M level-1 iterations on its copy of the caller's
    policy; the best thread (highest score, lowest thread on a tie) gives the sequence and,
    with ``hand_back``, its policy, which the caller then adapts. SameGame's legal moves and
    codes come from the domain kernel's functions (the rules are not under test here)."""

    def __init__(self, domain, *, N, M, alpha, seed, hand_back):
        self.domain, self.N, self.M, self.alpha, self.hand_back = domain, N, M, alpha, hand_back
        self.caller = np.random.RandomState(seed)
        self.moves = np.zeros(sg_max_moves(domain), dtype=np.int64)
        self.codes = np.zeros(sg_max_moves(domain), dtype=np.int64)
        self.playouts, self.best, self.best_moves = 0, -math.inf, ()

    def playout(self, exp_v, random):
        state, steps, moves = sg_new_state(self.domain), [], []
        while (n := sg_legal_moves(self.domain, state, self.moves, self.codes)) > 0:
            legal = [int(code) for code in self.codes[:n]]
            weights = [exp_v.get(code, 1.0) for code in legal]
            threshold = random.random_sample() * sum(weights)
            chosen, cumulative = n - 1, 0.0
            for i in range(n - 1):
                cumulative += weights[i]
                if threshold < cumulative:
                    chosen = i
                    break
            steps.append((legal, chosen))
            moves.append(int(self.moves[chosen]))
            sg_play(self.domain, state, self.moves[chosen])
        self.playouts += 1
        return float(sg_score(self.domain, state)), steps, tuple(moves)

    def adapt(self, v, exp_v, steps):
        """Rosin's Adapt, every probability taken before any weight changes (nrpa.nested.adapt)."""
        changes = []
        for legal, chosen in steps:
            weights = [exp_v.get(code, 1.0) for code in legal]
            scale = -self.alpha / sum(weights)
            deltas = [w * scale for w in weights]
            deltas[chosen] += self.alpha
            changes += zip(legal, deltas)
        for code, delta in changes:
            v[code] = v.get(code, 0.0) + delta
        for code, _ in changes:
            exp_v[code] = pol.weight_exp(v[code])

    def thread(self, v, exp_v, seed):
        """NRPA-Sub: N / M level-1 iterations on a local copy of the policy; (score, sequence,
        local policy, each improvement of the run's best as (score, moves) in order)."""
        random, v, exp_v = np.random.RandomState(seed), dict(v), dict(exp_v)
        best, best_steps, improvements = -math.inf, None, []
        for _ in range(self.N // self.M):
            value, steps, moves = self.playout(exp_v, random)
            if value > max([self.best] + [score for score, _ in improvements]):
                improvements.append((value, moves))
            if value >= best:
                best, best_steps = value, steps
            self.adapt(v, exp_v, best_steps)
        return best, best_steps, (v, exp_v), improvements

    def parallel(self, v, exp_v):
        """NRPA-Par2 (level 1, policy-ref): the best thread's score, sequence and policy."""
        seeds = [int(self.caller.randint(0, SEED_LIMIT)) for _ in range(self.M + 1)]
        threads = [self.thread(v, exp_v, seed) for seed in seeds[:self.M]]
        self.caller = np.random.RandomState(seeds[self.M])
        # the run's best: the lowest thread with the highest improvement, its first playout to reach it
        found = [(improvements[-1][0], -i, improvements[-1][1]) for i, (*_, improvements) in enumerate(threads)
                 if improvements]
        if found:
            self.best, _, self.best_moves = max(found)
        best = max(range(self.M), key=lambda i: (threads[i][0], -i))
        return threads[best][:3]

    def call(self, level, v, exp_v):
        """NRPA at ``level`` >= 2 on a copy of the policy; its level-1 calls are parallel."""
        v, exp_v = dict(v), dict(exp_v)
        best, best_steps = -math.inf, None
        for _ in range(self.N):
            if level == 2:
                value, steps, handed = self.parallel(v, exp_v)
                if self.hand_back:  # policy-ref <- policy_max
                    v, exp_v = handed
            else:
                value, steps = self.call(level - 1, v, exp_v)
            if value >= best:
                best, best_steps = value, steps
            self.adapt(v, exp_v, best_steps)
        return best, best_steps


@pytest.mark.parametrize("level, N, threads", [(2, 10, 2), (2, 6, 3), (3, 4, 2)])
@pytest.mark.slow
def test_the_thread_local_policy_is_a_plain_python_algorithm_5(board, level, N, threads):
    result = run_search(board, once(level=level, N=N, alpha=1.0, parallel="thread_local", parallel_level=1,
                                    threads=threads))
    plain = PlainThreadLocal(board, N=N, M=threads, alpha=1.0, seed=11, hand_back=True)
    best, _ = plain.call(level, {}, {})
    assert (result.best_score, result.best_moves, result.playouts) == (best, plain.best_moves, plain.playouts)
    assert plain.best == best and result.playouts == N**level
    # the hand-back was exercised: without it the same draws give another run
    kept = PlainThreadLocal(board, N=N, M=threads, alpha=1.0, seed=11, hand_back=False)
    kept.call(level, {}, {})
    assert (kept.best, kept.best_moves) != (plain.best, plain.best_moves)


@pytest.mark.slow
def test_the_merged_trace_is_the_best_so_far_in_time_order(board):
    result = run_search(board, SearchSettings(level=3, N=10, parallel="shared", parallel_level=1, threads=2,
                                              clock="wall", max_time=0.3, seed=5))
    trace = result.trace
    assert list(trace.wall_seconds) == sorted(trace.wall_seconds)
    assert all(later > earlier for earlier, later in zip(trace.score, trace.score[1:]))
    assert trace.score[-1] == result.best_score
    # the wall-clock limit stops the run (how many playouts fit in 0.3 s depends on the machine's load)
    assert 0.3 <= result.wall_seconds < 2.0 and result.playouts > 0


@pytest.mark.slow
def test_a_threaded_run_from_the_command_line(tmp_path):
    done = cli("run.py", "parallel=thread_local", "threads=2", "clock=wall", "level=2", "N=10", "max_time=null",
               "restart=false", f"outputs_dir={tmp_path}")
    assert done.returncode == 0, done.stderr
    record = json.loads(next((tmp_path / "runs" / "samegame").glob("*.json")).read_text())
    assert record["config"]["parallel"] == {"strategy": "thread_local", "level": 1, "threads": 2, "hand_back": True}
    assert record["result"]["playouts"] == 100
    assert np.isfinite(record["result"]["best_score"])


def member(repeat, wall, playouts, scores):
    return {"run_id": f"m{repeat}", "repeat": repeat, "config": {}, "settings": {}, "code_version": {},
            "domain_info": {}, "certificate": {"score": max(scores)},
            "result": {"best_score": max(scores), "playouts": playouts[-1] + 10, "wall_seconds": 1.0,
                       "cpu_seconds": 1.0},
            "trace": {"wall_seconds": wall, "cpu_seconds": wall, "playouts": playouts, "score": scores}}


def test_a_root_run_is_the_best_of_its_members_at_every_moment():
    a = member(2, [0.1, 0.5], [10, 300], [5.0, 9.0])
    b = member(3, [0.2, 0.3], [5, 20], [7.0, 8.0])
    merged = merge_members([a, b])
    assert merged["axes"]["wall_seconds"] == {"positions": [0.1, 0.2, 0.3, 0.5], "score": [5.0, 7.0, 8.0, 9.0]}
    # K = 2 members at the same pace: twice a member's playouts; b's 7 at 2 x 5 comes first
    assert merged["axes"]["playouts"] == {"positions": [10, 40, 600], "score": [7.0, 8.0, 9.0]}
    assert merged["result"]["best_score"] == 9.0 and merged["certificate"] == a["certificate"]
    assert merged["members"] == ["m2", "m3"] and merged["repeat"] == 1
    assert group_root_runs([a, b, member(0, [0.1], [1], [1.0])], 2) == [merged]  # root run 0 lacks member 1


@pytest.mark.slow
def test_a_hybrid_search_runs_through_a_dask_cluster(tmp_path):
    """Root parallelisation over a real LocalCluster on loopback, each member on 2 threads."""
    from dask.distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, host="127.0.0.1", dashboard_address=None,
                      processes=True) as cluster:
        done = cli("run.py", "root=2", "repeats=2", "parallel=shared", "threads=2", "clock=wall", "level=2", "N=10",
                   "max_time=null", "restart=false", "backend=dask", f"backend.address={cluster.scheduler_address}",
                   f"outputs_dir={tmp_path}")
    assert done.returncode == 0, done.stderr
    assert "root x2" in done.stdout and "2 runs" in done.stdout
    members = [json.loads(p.read_text()) for p in (tmp_path / "runs" / "samegame").glob("*.json")]
    assert sorted(m["repeat"] for m in members) == [0, 1, 2, 3]
    assert all(m["config"]["parallel"]["threads"] == 2 and m["result"]["playouts"] == 100 for m in members)
    root_runs = group_root_runs(members, 2)
    assert [run["repeat"] for run in root_runs] == [0, 1]
    mean = np.mean([run["result"]["best_score"] for run in root_runs])
    assert f"best score mean {mean:.1f}" in done.stdout


@pytest.mark.slow
def test_the_speedup_table_builds_at_smoke_scale_with_root_runs(tmp_path):
    run_experiment("speedup", tmp_path)
    table = pd.read_csv(tmp_path / "tables" / "speedup_smoke.csv")
    assert list(dict.fromkeys(table["variant"])) == ["shared L=1", "thread-local L=1", "root", "hybrid-2",
                                                     "averaged (beyond the paper)"]
    assert table["checkpoint"].max() == 0.08
    throughput = pd.read_csv(tmp_path / "tables" / "speedup_smoke_throughput.csv").set_index("variant")
    assert throughput.loc["root", "root"] == 2 and throughput.loc["hybrid-2", "threads"] == 2
    # smoke: 2 root runs of 2 members each; the first 2 members are the sequential runs themselves
    files = list((tmp_path / "runs" / "samegame").glob("*.json"))
    sequential = [json.loads(p.read_text()) for p in files]
    assert sum("parallel" not in r["config"] for r in sequential) == 4


@pytest.mark.slow
def test_one_averaged_search_pausing_often_is_the_sequential_run(board):
    sequential = run_search(board, once(level=3, N=6))
    paused = run_search(board, once(level=3, N=6, parallel="averaged", threads=1, average_every=0.0005))
    assert paused.best_moves == sequential.best_moves
    assert paused.trace.score == sequential.trace.score and paused.trace.playouts == sequential.trace.playouts
    assert paused.playouts == sequential.playouts == 6**3


def test_averaging_takes_the_mean_weight_of_each_code_missing_codes_weighing_0():
    policies = List()
    for weights in ({11: 1.0, 22: 2.0}, {11: 3.0}):
        policy = pol.new_policy(1, 10, 0)
        for code, weight in weights.items():
            slot = pol.slot_for(policy.keys, policy.weights, policy.exp_weights, policy.used, policy.n_used,
                                np.uint64(policy.multiplier), policy.shift, 1, code)
            policy.weights[1, slot] = weight
            policy.exp_weights[1, slot] = np.exp(weight)
        policies.append(policy)
    average_top_policies(policies, 2, 1, pol.new_policy(0, 10, 0))
    for policy in policies:
        assert pol.weight(policy, 1, 11) == 2.0 and pol.weight(policy, 1, 22) == 1.0
        exp_22 = pol.exp_weight(policy.keys, policy.exp_weights, np.uint64(policy.multiplier), policy.shift, 1, 22)
        assert exp_22 == pytest.approx(np.e)
        assert policy.n_used[1] == 2


@pytest.mark.slow
def test_averaged_root_searches_on_two_threads(board):
    result = run_search(board, SearchSettings(level=3, N=10, parallel="averaged", threads=2, average_every=0.05,
                                              clock="wall", max_time=0.3, seed=5))
    assert BOARD.replay_score(BOARD.certificate(result.best_moves)) == result.best_score
    assert all(later > earlier for earlier, later in zip(result.trace.score, result.trace.score[1:]))
    assert 0.3 <= result.wall_seconds < 2.0  # wall time: allow for a loaded machine


@pytest.mark.slow
def test_gnrpa_threaded_with_one_thread_is_the_sequential_gnrpa():
    # (here, where the threaded kernels are compiled once for the file's tests)
    adapter = make_domain(SameGameOptions(board="1", policy="none", bias="tabu", bias_weight=2.0))
    settings = dict(algorithm="gnrpa", level=2, N=10, tau=0.7, seed=5, max_time=None, max_playouts=4000)
    alone = run_search(adapter.kernel_domain(), SearchSettings(**settings), bias_for(adapter))
    threaded = run_search(adapter.kernel_domain(), SearchSettings(parallel="shared", threads=1, **settings),
                          bias_for(adapter))
    assert (alone.best_moves, alone.trace.playouts, alone.trace.score, alone.playouts) == (
        threaded.best_moves, threaded.trace.playouts, threaded.trace.score, threaded.playouts)


_LAYER_RUN = """
import json
from nrpa.domains.registry import SameGameOptions, make_domain
from nrpa.search import SearchSettings, run_search
from nrpa.threading_layer import threading_layer_name
board = make_domain(SameGameOptions(board="1", policy="tabu")).kernel_domain()
runs = {}
for parallel, parallel_level in (("shared", 1), ("shared", 2), ("thread_local", 2)):
    result = run_search(board, SearchSettings(max_time=None, restart=False, seed=11, level=3, N=6, parallel=parallel,
                                              parallel_level=parallel_level, threads=2))
    # (not the trace: threads' improvements are merged in the order of their clocks)
    runs[f"{parallel} {parallel_level}"] = [result.best_score, result.best_moves, result.playouts]
print(json.dumps({"layer": threading_layer_name(), "runs": runs}))
"""


@pytest.mark.slow
def test_the_threaded_runs_are_the_same_on_tbb_and_openmp():
    """The draws do not depend on the threading layer (nrpa/threading_layer.py): each prange
    iteration seeds its thread's generator first, whichever thread runs it."""
    outputs = {}
    for layer in ("tbb", "omp"):
        done = python("-c", _LAYER_RUN, env={"NUMBA_THREADING_LAYER": layer})
        assert done.returncode == 0, done.stderr
        outputs[layer] = json.loads(done.stdout.strip().splitlines()[-1])
        assert outputs[layer]["layer"] == layer
    assert outputs["tbb"]["runs"] == outputs["omp"]["runs"]


def test_the_threaded_kernels_ask_numba_for_tbb():
    """pip's tbb package is a dependency; importing nrpa loads its library so that numba's TBB
    layer can start (numba alone finds it only on the loader's path)."""
    from nrpa.threading_layer import _tbb_library_path

    assert _tbb_library_path() is not None
    done = python("-c", "import os; os.environ.pop('NUMBA_THREADING_LAYER', None); import nrpa; "
                        "print(os.environ['NUMBA_THREADING_LAYER'])")
    assert done.stdout.split() == ["tbb"], done.stderr
