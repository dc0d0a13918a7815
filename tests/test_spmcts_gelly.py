"""Gelly et al.'s rules on SP-MCTS (nrpa/spmcts.py, nrpa/spmcts_parallel.py) against the text's
definitions, with values worked out by hand: the decision step ("the decision which has been
simulated most often, on the whole set of nodes") on small sets of trees, its ties; S
simulations per move for each thread and each tree; the averagings within a move every T0
simulations, counted over a run of known budget; T0 = infinity meeting only at the decision.
Then the options, the runs' identity, the experiment's columns and a column's speed-up.

The tests that run the threaded kernels (the trees' moves, nrpa/spmcts_parallel.py's prange)
are behind `slow`, as every threaded kernel's are (tests/test_parallel.py): their compile is
half a minute of the fast suite's 4. CI runs them (`make test-slow`)."""

import math

import numpy as np
import pytest
from numba import njit
from numba.typed import List

from experiments.experiment import load_experiment
from experiments.runs import Job
from analysis.results.speedup import column_speedup
from nrpa import spmcts, spmcts_parallel
from nrpa.domains.contract import new_state, reset
from nrpa.domains.registry import SameGameOptions, TsptwOptions, make_domain
from nrpa.errors import InputError
from nrpa.run import PLAYOUTS, STOP, new_run, start_clocks
from nrpa.search import SearchSettings, kernel_params
from nrpa.spmcts_tree import add_child, backpropagate, new_lock, new_scratch, new_tree, no_lock, share_statistics


@pytest.fixture(scope="module")
def tsptw_domain():
    return make_domain(TsptwOptions(instance="rc_201.1")).kernel_domain()


@pytest.fixture(scope="module")
def samegame_domain():
    return make_domain(SameGameOptions(board="1", policy="tabu")).kernel_domain()


def root_with(domain, children):
    """A tree whose root has a child per (move, scores): the scores back-propagated through it."""
    tree = new_tree(domain, 32)
    nodes = {}
    for move, scores in children:
        nodes[move] = add_child(tree, 0, move, move)
        for value in scores:
            backpropagate(tree, np.array([0, nodes[move]]), 2, value)
    return tree, nodes


def roots(count):
    return np.zeros(count, dtype=np.int64)


# ---------------------------------------------------------------------------------------
# The decision step


def test_the_decision_is_the_move_simulated_most_often_summed_over_the_trees(tsptw_domain):
    first, a = root_with(tsptw_domain, [(7, [10.0] * 3), (9, [50.0, 0.0, 0.0, 0.0])])
    second, b = root_with(tsptw_domain, [(7, [20.0] * 5), (9, [5.0])])
    # move 7: 3 + 5 = 8 simulations, move 9: 4 + 1 = 5; alone, the first tree simulated 9 more (4 > 3)
    assert spmcts.most_simulated_move(List([first, second]), roots(2)) == (0, a[7])
    assert spmcts.most_simulated_move(List([first]), roots(1)) == (0, a[9])
    # SP-MCTS's own rule, the best top score, plays 9 (50, in the first tree)
    assert spmcts.best_top_move(List([first, second]), roots(2)) == (0, a[9])
    # a move that one tree alone has counts its visits there: 9 simulations of move 11 beat 8
    third, c = root_with(tsptw_domain, [(11, [1.0] * 9)])
    assert spmcts.most_simulated_move(List([first, second, third]), roots(3)) == (2, c[11])


def test_ties_go_to_the_best_top_score_then_to_the_smallest_move_code(tsptw_domain):
    first, a = root_with(tsptw_domain, [(7, [10.0, 10.0]), (9, [30.0])])
    second, b = root_with(tsptw_domain, [(9, [10.0]), (3, [30.0, 30.0]), (5, [20.0, 25.0])])
    trees = List([first, second])
    # every move has 2 simulations; 9 and 3 share the best top (30): the smaller code, 3, is played
    assert spmcts.most_simulated_move(trees, roots(2)) == (1, b[3])
    backpropagate(first, np.array([0, a[9]]), 2, 40.0)  # now 9 leads on visits (3)
    assert spmcts.most_simulated_move(trees, roots(2)) == (0, a[9])
    unvisited, _ = root_with(tsptw_domain, [(4, [])])
    assert spmcts.most_simulated_move(List([unvisited]), roots(1)) == (-1, -1)


def test_averaging_keeps_the_sums_that_the_decision_reads(tsptw_domain):
    # move 7: 1, 2 and 4 visits in three trees; move 9: 6 visits in the first tree alone
    trees = [root_with(tsptw_domain, [(7, [1.0]), (9, [1.0] * 6)])[0],
             root_with(tsptw_domain, [(7, [1.0] * 2)])[0], root_with(tsptw_domain, [(7, [1.0] * 4)])[0]]
    share_statistics(List(trees), roots(3), 0, 0.0)
    # every tree now holds the means, 7/3 of move 7 and 6/3 = 2 of move 9: sums 7 and 6
    assert [_root_children(tree) for tree in trees] == [pytest.approx({7: 7 / 3, 9: 2.0})] * 3
    t, child = spmcts.most_simulated_move(List(trees), roots(3))
    assert trees[t].move[child] == 7


@pytest.mark.slow
def test_every_tree_plays_the_decision_of_its_rule(tsptw_domain):
    for most_simulated, played in ((True, 7), (False, 9)):
        first, _ = root_with(tsptw_domain, [(7, [10.0] * 3), (9, [50.0, 0.0, 0.0, 0.0])])
        second, _ = root_with(tsptw_domain, [(7, [20.0] * 5)])
        trees = List([first, second])
        tree_roots = roots(2)
        states = List([new_scratch(tsptw_domain).state for _ in range(2)])
        scratches = spmcts._new_scratches(tsptw_domain, 2)
        assert spmcts._advance_roots(tsptw_domain, trees, tree_roots, states, 0, scratches, most_simulated) == 1
        assert [trees[t].move[tree_roots[t]] for t in range(2)] == [played, played]
        assert scratches[0].path[0] == played and scratches[1].path[0] == played


# ---------------------------------------------------------------------------------------
# S simulations per move for each thread and tree; averagings every T0 simulations


def play_moves(domain, settings, count):
    """The moves of a parallel SP-MCTS run as ``nrpa.spmcts.play_games`` plays them, move by
    move: per move, the simulations each thread made, the averagings so far and the run's
    playouts; and the trees."""
    params = kernel_params(settings)
    _seed(settings.seed)
    averaged = settings.parallel == "averaged"
    tree_count = settings.threads if averaged else 1
    trees = List([new_tree(domain, 2**16) for _ in range(tree_count)])
    states = _initial_states(domain, tree_count)
    scratches = spmcts._new_scratches(domain, settings.threads)
    tree_roots = roots(tree_count)
    run = new_run(domain, params)
    start_clocks(run)
    crew = spmcts_parallel._new_crew(domain, params, no_lock() if averaged else new_lock())
    move = spmcts_parallel._averaged_move if averaged else spmcts_parallel._shared_move
    moves = []
    for depth in range(count):
        move(domain, trees, tree_roots, states, depth, scratches, run, params, crew)
        moves.append((crew.done.copy(), int(crew.averagings[0]), int(run.counters[PLAYOUTS]), bool(run.counters[STOP])))
        if run.counters[STOP]:
            break
        if depth == 0:
            first_move = [(tree.visits[0], _root_children(tree)) for tree in trees]
        spmcts._advance_roots(domain, trees, tree_roots, states, depth, scratches, True)
    return moves, first_move


def _root_children(tree):
    children = {}
    child = tree.first_child[0]
    while child:
        children[int(tree.move[child])] = float(tree.visits[child])
        child = tree.next_sibling[child]
    return children


def averaged(**extra):
    """K = 2 trees of S = 100 simulations per move, every root move averaged (N_min = 0)."""
    settings = dict(algorithm="spmcts", parallel="averaged", threads=2, clock="wall", max_time=None,
                    simulations_per_move=100, share_min_visits=0.0)
    return SearchSettings(**{**settings, **extra})


@njit
def _initial_states(domain, count):
    states = List()
    for _ in range(count):
        state = new_state(domain)
        reset(domain, state)
        states.append(state)
    return states


@njit
def _seed(seed):
    np.random.seed(seed)  # numba's generator, from which a section draws its threads' seeds


@pytest.mark.slow
@pytest.mark.parametrize("every, per_move", [(10, 9), (30, 3), (7, 14), (100, 0), (0, 0)])
def test_the_trees_average_every_t0_simulations_within_each_move(samegame_domain, every, per_move):
    # S = 100 simulations per tree and move, K = 2 trees, a budget of 5 moves: 1000 playouts.
    # The periods end at T0, 2 T0, ... and at S, the decision; an averaging follows each period
    # but the last: ceil(100 / T0) - 1 a move (T0 = 0, infinity: none).
    assert per_move == (math.ceil(100 / every) - 1 if every else 0)
    moves, _ = play_moves(samegame_domain, averaged(share_every=every, max_playouts=1000), 6)
    assert len(moves) == 5 and moves[-1][3]  # the budget ends with the fifth move
    for number, (done, averagings, playouts, _) in enumerate(moves, start=1):
        assert done.tolist() == [100, 100]  # each tree makes S simulations per move
        assert playouts == 200 * number  # K x S a move
        assert averagings == per_move * number


def test_the_periods_of_a_move_end_at_multiples_of_t0_and_at_s():
    ends = [spmcts_parallel.period_end(p, 30, 100) for p in range(1, 5)]
    assert ends == [30, 60, 90, 100]
    assert spmcts_parallel.period_end(1, 0, 100) == 100  # T0 = infinity: the move is one period
    assert spmcts_parallel.period_end(3, 10, 0) == 30  # S = 0: periods to the end of the budget
    assert spmcts_parallel.period_end(1, 0, 0) == 0  # neither: no count


@pytest.mark.slow
def test_with_t0_infinity_the_trees_meet_only_at_the_decision(samegame_domain):
    moves, first_move = play_moves(samegame_domain, averaged(share_every=0, max_playouts=10**6), 1)
    assert moves[0][1] == 0
    # each tree's root children hold its own 100 simulations, nothing of the other tree's
    for root_visits, children in first_move:
        assert root_visits == 100.0 and sum(children.values()) == 100.0
    assert first_move[0][1] != first_move[1][1]  # two independent searches


@pytest.mark.slow
def test_averaged_trees_share_their_root_moves_within_the_move(samegame_domain):
    # T0 = 50: one averaging at 50 simulations (N_min = 0: every root move), then 50 more each.
    # A root child of tree t then holds the mean of the two trees' first 50 (a multiple of
    # 1/2, the same in both trees) plus tree t's own visits of the last 50 (whole numbers).
    moves, first_move = play_moves(samegame_domain, averaged(share_every=50, max_playouts=10**6), 1)
    assert moves[0][1] == 1
    (visits_0, children_0), (visits_1, children_1) = first_move
    assert visits_0 == visits_1 == 100.0  # the root itself is not averaged at K = 0
    halves = {move: visits % 1 for move, visits in children_0.items()}
    assert halves == {move: children_1.get(move, 0.0) % 1 for move in children_0}
    assert set(halves.values()) == {0.0, 0.5}  # some means are halves: the trees did average
    # 50 averaged (the mean of two sums of 50) + 50 own visits through the root's children
    assert sum(children_0.values()) == sum(children_1.values()) == 100.0


@njit
def _tree_faults(tree):
    """Nodes that hold one move twice, or more children than legal moves."""
    faults = 0
    for node in range(tree.size[0]):
        count = 0
        child = tree.first_child[node]
        while child != 0:
            count += 1
            other = tree.next_sibling[child]
            while other != 0:
                faults += tree.move[other] == tree.move[child]
                other = tree.next_sibling[other]
            child = tree.next_sibling[child]
        faults += count != tree.n_children[node] or (tree.n_moves[node] > 0 and count > tree.n_moves[node] - 1)
    return faults


@pytest.mark.slow
def test_averaged_trees_play_a_whole_game_without_holding_a_move_twice(samegame_domain):
    # A SameGame group's move id once depended on which columns the refresh that found it
    # started from, and each tree's root state had its own refreshes: near a game's end the
    # trees named one group two ways, the averaging gave a tree a second child for it, and
    # the next simulation looped for ever (found as "averaged trees never stop at a time
    # budget's end": the runs reached a game's end). Move by move to the terminal position,
    # averaging every 5 of S = 20 simulations, every tree stays a tree of distinct moves.
    settings = averaged(share_every=5, simulations_per_move=20, max_playouts=10**6)
    params = kernel_params(settings)
    _seed(settings.seed)
    trees = List([new_tree(samegame_domain, 2**16) for _ in range(2)])
    states = _initial_states(samegame_domain, 2)
    scratches = spmcts._new_scratches(samegame_domain, 2)
    tree_roots = roots(2)
    run = new_run(samegame_domain, params)
    start_clocks(run)
    crew = spmcts_parallel._new_crew(samegame_domain, params, no_lock())
    depth = 0
    while not spmcts._root_is_terminal(samegame_domain, trees[0], tree_roots[0], states[0], scratches[0]):
        spmcts_parallel._averaged_move(samegame_domain, trees, tree_roots, states, depth, scratches, run, params, crew)
        assert [_tree_faults(tree) for tree in trees] == [0, 0], f"move {depth + 1}"
        depth = spmcts._advance_roots(samegame_domain, trees, tree_roots, states, depth, scratches, True)
    assert depth > 20 and crew.averagings[0] == 3 * depth  # a whole game, 3 averagings a move
    assert run.counters[PLAYOUTS] == 40 * depth and not run.counters[STOP]


@pytest.mark.slow
def test_each_thread_of_the_shared_tree_makes_s_simulations_per_move(samegame_domain):
    settings = SearchSettings(algorithm="spmcts", parallel="shared", threads=2, clock="wall", max_time=None,
                              simulations_per_move=50, max_playouts=10**6)
    moves, first_move = play_moves(samegame_domain, settings, 3)
    for number, (done, averagings, playouts, _) in enumerate(moves, start=1):
        assert done.tolist() == [50, 50] and playouts == 100 * number and averagings == 0
    assert first_move[0][0] == 100.0  # M x S simulations through the root of the one tree


# ---------------------------------------------------------------------------------------
# Options, identity, the experiment, a column's speed-up


@pytest.mark.parametrize("overrides, message", [
    (dict(algorithm="spmcts", share_every=-1), "share_every=-1 is out of range"),
    (dict(algorithm="spmcts", parallel="averaged", threads=2, clock="wall", average_every=0.5),
     "average_every=0.5: SP-MCTS parallel=averaged averages every share_every simulations"),
    (dict(algorithm="spmcts", parallel="cluster", threads=2, clock="wall", share_every=5),
     "share_every=5: parallel=cluster averages every average_every wall-seconds"),
    (dict(algorithm="nrpa", share_every=5), "share_every=5 is a setting of SP-MCTS"),
])
def test_bad_gelly_options_are_refused_with_what_is_wrong(overrides, message):
    with pytest.raises(InputError, match=message):
        SearchSettings(**overrides)


def test_a_runs_identity_says_s_per_tree_and_the_decision_rule():
    domain = SameGameOptions(board="1", policy="tabu")
    identity = Job(domain, averaged(share_every=0, max_time=1.0)).semantic_config()["parallel"]
    assert identity == {"strategy": "averaged", "searches": 2, "share_every": 0, "share_depth": 0,
                        "share_min_visits": 0.0, "per_move": "each tree", "decision": "most simulated"}
    shared = SearchSettings(algorithm="spmcts", parallel="shared", threads=4, clock="wall")
    assert Job(domain, shared).semantic_config()["parallel"] == {
        "strategy": "shared", "level": 1, "threads": 4, "per_move": "each thread", "decision": "most simulated"}


@pytest.mark.slow  # end to end, over 10 s
def test_the_experiment_has_gellys_columns_at_quick_and_paper_scale():
    def columns(scale):
        experiment = load_experiment(["experiment=spmcts_speedup", f"scale={scale}"])
        return {v.label: (v.job.settings.parallel, v.job.settings.threads, v.job.settings.share_every, v.root)
                for v in experiment.variants}

    quick = columns("quick")
    assert quick == {
        "sequential": ("none", 1, 10, 1),
        "one tree, most simulated move": ("shared", 1, 10, 1),
        "shared tree, 2 threads": ("shared", 2, 10, 1),
        "averaged trees (K = 0), 2 nodes": ("averaged", 2, 10, 1),
        "voting at the end (T0 = infinity), 2 nodes": ("averaged", 2, 0, 1),
        "root: best of K games (not Gelly's)": ("shared", 1, 10, 2),
    }
    paper = columns("paper")
    assert set(quick) < set(paper)  # a column keeps its name at every scale
    assert {paper[f"shared tree, {m} threads"][1] for m in (2, 4, 16)} == {2, 4, 16}
    assert {paper[f"averaged trees (K = 0), {n} nodes"][1] for n in (2, 3, 4, 9)} == {2, 3, 4, 9}
    assert paper["voting at the end (T0 = infinity), 9 nodes"] == ("averaged", 9, 0, 1)


def test_a_columns_speedup_with_its_interval_from_run_records():
    def record(times, scores):
        return {"trace": {"wall_seconds": times, "score": scores}}

    # the sequential best is 1, 2, 3, 4 at 1, 2, 4, 8 s; the column is at 3 from 1 s on: k(1 s) = 4
    records = {"sequential": [record([1.0, 2.0, 4.0, 8.0], [1.0, 2.0, 3.0, 4.0])] * 3,
               "shared tree, 2 threads": [record([0.5, 1.0], [2.0, 3.0])] * 3,
               "ahead": [record([1.0], [5.0])] * 3}
    k = column_speedup(records, "shared tree, 2 threads", 1.0, resamples=50)
    assert k["k"] == pytest.approx(4.0, rel=0.03) and k["ci_low"] == pytest.approx(4.0, rel=0.03)
    assert not k["censored"] and (k["runs"], k["baseline_runs"]) == (3, 3)
    ahead = column_speedup(records, "ahead", 1.0, resamples=50)
    assert ahead["censored"] and math.isnan(ahead["k"])
    with pytest.raises(InputError, match="no runs of the column 'absent'"):
        column_speedup(records, "absent", 1.0)
