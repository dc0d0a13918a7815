"""Gelly et al.'s cluster SP-MCTS on several machines (experiments/cluster.py): the top of a
tree that a member sends, the graft of the averaged top, the merge of the members' runs, by
hand; a run on a loopback dask cluster (slow)."""

import json

import numpy as np
import pytest
from numba.typed import List

from experiments.cluster import merged_result
from experiments.runs import verify_record
from nrpa.domains.registry import TsptwOptions, make_domain
from nrpa.errors import InputError
from nrpa.search import SearchSettings, run_search
from nrpa.spmcts_parallel import graft, top_subtree
from nrpa.spmcts_tree import add_child, backpropagate, find_child, new_tree, share_statistics
from tests.conftest import cli


@pytest.fixture(scope="module")
def tsptw_domain():
    return make_domain(TsptwOptions(instance="rc_201.1")).kernel_domain()


def _two_level_tree(domain, scores_a, scores_b):
    """Root, moves 7 and 9, and move 3 below move 7: backpropagated scores."""
    tree = new_tree(domain, 16)
    a = add_child(tree, 0, 7, 2)
    b = add_child(tree, 0, 9, 4)
    below = add_child(tree, a, 3, 0)
    for value in scores_a:
        backpropagate(tree, np.array([0, a, below]), 3, value)
    for value in scores_b:
        backpropagate(tree, np.array([0, b]), 2, value)
    return tree, a, b, below


def test_the_top_of_a_tree_holds_the_moves_down_to_the_share_depth_with_their_statistics(tsptw_domain):
    tree, a, b, below = _two_level_tree(tsptw_domain, [10.0, 20.0], [5.0])
    root_only = top_subtree(tree, 0, 0, 3)
    assert root_only.size[0] == 3 and root_only.parent.size == 6  # root, moves 7 and 9; room for 3 more
    moves = {root_only.move[n]: n for n in range(1, 3)}
    assert root_only.visits[moves[7]] == 2.0 and root_only.total[moves[7]] == 30.0
    assert root_only.squares[moves[7]] == 500.0 and root_only.top[moves[7]] == 20.0
    assert root_only.legal_index[moves[9]] == 4 and root_only.visits[0] == 3.0
    assert root_only.n_children[moves[7]] == 0  # depth 0: the moves below 7 stay out
    deeper = top_subtree(tree, 0, 1, 0)
    assert deeper.size[0] == 4 and find_child(deeper, find_child(deeper, 0, 7), 3) > 0


def test_a_member_grafts_its_averaged_top_and_keeps_the_rest_of_its_tree(tsptw_domain):
    first, a1, b1, below1 = _two_level_tree(tsptw_domain, [10.0, 20.0], [5.0])
    second = new_tree(tsptw_domain, 16)
    a2 = add_child(second, 0, 7, 2)
    for value in (40.0, 40.0, 40.0, 40.0):
        backpropagate(second, np.array([0, a2]), 2, value)
    tops = [top_subtree(tree, 0, 0, 10) for tree in (first, second)]
    share_statistics(List(tops), np.zeros(2, dtype=np.int64), 0, 0.0)
    graft(first, 0, tops[0])
    graft(second, 0, tops[1])
    # the same averages as the threaded version's by hand (tests/test_spmcts.py)
    for tree, child in ((first, a1), (second, a2)):
        assert tree.visits[child] == 3.0 and tree.total[child] == 95.0 and tree.top[child] == 40.0
    added = find_child(second, 0, 9)
    assert added > 0 and second.visits[added] == 0.5 and second.legal_index[added] == 4
    assert first.visits[b1] == 0.5 and first.visits[below1] == 2.0  # depth 1 is not the member's to change
    assert first.size[0] == 4 and second.size[0] == 3


def test_the_members_runs_merge_as_a_root_run():
    # (best, moves, trace wall, cpu, playouts, score, playouts, restarts, wall, cpu)
    one = (7.0, np.array([1, 2]), np.array([0.1, 0.5]), np.array([0.1, 0.5]), np.array([10, 50]),
           np.array([3.0, 7.0]), 60, 0, 1.0, 1.0)
    two = (9.0, np.array([4]), np.array([0.2, 0.9]), np.array([0.2, 0.8]), np.array([20, 90]),
           np.array([5.0, 9.0]), 100, 0, 1.1, 0.9)
    merged = merged_result([one, two])
    assert merged.best_score == 9.0 and merged.best_moves == (4,)
    assert merged.trace.wall_seconds == (0.1, 0.2, 0.5, 0.9) and merged.trace.score == (3.0, 5.0, 7.0, 9.0)
    assert merged.trace.playouts == (20, 40, 100, 180)  # K = 2 members at the same pace
    assert (merged.playouts, merged.wall_seconds, merged.cpu_seconds) == (160, 1.1, 1.9)


@pytest.mark.parametrize("overrides, message", [
    (dict(parallel="cluster", threads=2, clock="wall", simulations_per_move=10), "set simulations_per_move=0"),
    (dict(parallel="cluster", threads=2, clock="wall", max_playouts=100), "no max_playouts"),
])
def test_bad_cluster_options_are_refused_with_what_is_wrong(overrides, message):
    with pytest.raises(InputError, match=message):
        SearchSettings(algorithm="spmcts", **overrides)


def test_the_cluster_is_spmcts_only_and_runs_through_run_py(tsptw_domain):
    with pytest.raises(InputError, match="parallel=cluster runs with algo=spmcts"):
        SearchSettings(algorithm="nrpa", parallel="cluster", threads=2, clock="wall")
    settings = SearchSettings(algorithm="spmcts", parallel="cluster", threads=2, clock="wall", max_time=1.0)
    with pytest.raises(InputError, match="run it with run.py"):
        run_search(tsptw_domain, settings)


@pytest.mark.slow  # starts dask worker processes
def test_a_cluster_run_on_a_loopback_dask_cluster_averages_and_its_best_replays(tmp_path):
    from dask.distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, host="127.0.0.1", dashboard_address=None,
                      processes=True) as cluster:
        done = cli("run.py", "algo=spmcts", "parallel=cluster", "threads=2", "clock=wall", "max_time=1.0",
                   "average_every=0.1", "share_depth=1", "backend=dask",
                   f"backend.address={cluster.scheduler_address}", f"outputs_dir={tmp_path}")
    assert done.returncode == 0, done.stderr
    (path,) = (tmp_path / "runs" / "samegame").glob("*.json")
    record = json.loads(path.read_text())
    assert record["config"]["parallel"] == {"strategy": "cluster", "searches": 2, "average_every": 0.1,
                                            "share_depth": 1, "share_min_visits": 10.0}
    assert 1.0 <= record["result"]["wall_seconds"] < 3.0 and record["result"]["playouts"] > 1000
    assert record["trace"]["score"] == sorted(record["trace"]["score"])
    assert verify_record(record)[0], verify_record(record)[1]
