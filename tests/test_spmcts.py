"""SP-MCTS (nrpa/spmcts.py, spmcts_tree.py, spmcts_parallel.py): its selection value and
statistics by hand, the kernel against a plain-Python SP-MCTS on the same random stream, Gelly
et al.'s averaging of two trees by hand, and its options."""

import json
import math
from dataclasses import replace

import numpy as np
import pytest
from numba.typed import List

from nrpa import spmcts
from nrpa.domains import knapsack_rules, tsptw_rules
from experiments.runs import verify_record
from nrpa.domains.registry import DOMAINS, KnapsackOptions, SameGameOptions, TsptwOptions, make_domain
from nrpa.errors import InputError
from nrpa.search import SearchSettings, kernel_params, run_search
from nrpa.spmcts_tree import (
    add_child, backpropagate, find_child, new_scratch, new_tree, select_child, selection_value, share_statistics,
)
from tests.conftest import cli


@pytest.fixture(scope="module")
def tsptw_domain():
    return make_domain(TsptwOptions(instance="rc_201.1")).kernel_domain()


@pytest.fixture(scope="module")
def knapsack_domain():
    """The trees by hand hold states of the knapsack, the contract's domain
    (tests/test_algorithm_contract.py), whose SP-MCTS kernels the fast suite compiles anyway."""
    return make_domain(KnapsackOptions()).kernel_domain()


def test_selection_value_is_mean_plus_uct_plus_the_variance_term(knapsack_domain):
    tree = new_tree(knapsack_domain, 8)
    child = add_child(tree, 0, 5, 0)
    # four simulations scoring 3, 4, 6, 7: mean 5, sum of squares 110
    for value in (3.0, 4.0, 6.0, 7.0):
        backpropagate(tree, np.array([0, child]), 2, value)
    tree.visits[0] = 10.0
    # 5 + 0.5 sqrt(ln 10 / 4) + sqrt((110 - 4 * 25 + 6) / 4) = 5 + 0.5 * 0.75868 + 2
    expected = 5 + 0.5 * math.sqrt(math.log(10) / 4) + 2.0
    assert selection_value(tree, child, math.log(10), 0.5, 6.0) == pytest.approx(expected, rel=1e-12)
    assert tree.top[child] == 7.0 and tree.top[0] == 7.0 and tree.visits[child] == 4.0


def test_selection_prefers_a_spread_child_to_a_steady_one_of_the_same_mean(knapsack_domain):
    tree = new_tree(knapsack_domain, 8)
    steady = add_child(tree, 0, 1, 0)
    spread = add_child(tree, 0, 2, 1)
    for value in (5.0, 5.0):
        backpropagate(tree, np.array([0, steady]), 2, value)
    for value in (1.0, 9.0):
        backpropagate(tree, np.array([0, spread]), 2, value)
    # same mean and visits: the variance term, sqrt((82 - 50 + D) / 2) against sqrt(D / 2), decides
    assert select_child(tree, 0, 0.5, 0.0) == spread
    # no variance term at all would leave a tie, which goes to the child listed first (the newest)
    assert selection_value(tree, steady, math.log(4), 0.5, 0.0) < selection_value(tree, spread, math.log(4), 0.5, 0.0)


class TsptwGame:
    """TSPTW's plain rules for the plain searches: every unvisited customer legal."""

    def __init__(self, instance):
        self.instance = instance

    def legal(self, tour):
        inst, here, time = self.instance, 0, 0.0
        for customer in tour:
            time = max(time + inst.distance[here][customer], inst.ready[customer])
            here = customer
        return tsptw_rules.legal_customers(inst, {0, *tour}, here, time, rule="all")

    def score(self, tour):
        return tsptw_rules.score(self.instance, tour)


class KnapsackGame:
    """The knapsack's plain rules: the items out that fit, in index order (a move puts item i in)."""

    def __init__(self, instance):
        self.instance = instance

    def legal(self, items):
        inst = self.instance
        room = inst.capacity - sum(inst.weights[i] for i in items)
        return [i for i in range(len(inst.weights)) if i not in items and inst.weights[i] <= room]

    def score(self, items):
        return knapsack_rules.replay(self.instance, list(items))


class PlainSPMCTS:
    """SP-MCTS on a plain ``game`` (TsptwGame, KnapsackGame), in plain Python from the module's
    definition: nodes keyed by their sequence, children in creation order, the same draws
    (floor(u * n) of numpy's legacy generator, numba's Mersenne Twister). The move played is
    the child with the best top score (``rule="top"``, SP-MCTS's) or Gelly's most simulated
    one (``rule="visits"``; ties: the best top, then the smallest move code)."""

    def __init__(self, game, *, C, D, per_move, playouts, seed, rule="top"):
        self.game, self.C, self.D, self.per_move, self.budget = game, C, D, per_move, playouts
        self.legal = game.legal
        self.rule = rule
        self.random = np.random.RandomState(seed)
        self.playouts, self.best, self.trace, self.restarts = 0, -math.inf, [], 0

    def index(self, n):
        return min(int(self.random.random_sample() * n), n - 1)

    @staticmethod
    def node(index):
        return {"index": index, "children": [], "moves": None, "n": 0, "sum": 0.0, "squares": 0.0,
                "top": -math.inf}

    def value(self, key, log_parent):
        node = self.tree[key]
        mean = node["sum"] / node["n"]
        return (mean + self.C * math.sqrt(log_parent / node["n"])
                + math.sqrt(max((node["squares"] - node["n"] * mean * mean + self.D) / node["n"], 0.0)))

    def simulate(self, root):
        key, path = root, [root]
        while True:
            node = self.tree[key]
            if node["moves"] is None or len(node["children"]) < node["moves"]:
                legal = self.legal(key)
                node["moves"] = len(legal)
                if not legal:
                    break
                if len(node["children"]) < len(legal):
                    tried = {self.tree[child]["index"] for child in node["children"]}
                    untried = [j for j in range(len(legal)) if j not in tried]
                    j = untried[self.index(len(untried))]
                    child = key + (legal[j],)
                    self.tree[child] = self.node(j)
                    node["children"].append(child)
                    path.append(child)
                    key = child
                    break
            elif node["moves"] == 0:
                break
            log_visits = math.log(node["n"])
            best, best_value = None, -math.inf
            for child in reversed(node["children"]):  # the kernel lists children newest first
                value = self.value(child, log_visits)
                if best is None or value > best_value:
                    best, best_value = child, value
            key = best
            path.append(key)
        tour = list(key)
        while legal := self.legal(tour):
            tour.append(legal[self.index(len(legal))])
        value = self.game.score(tour)
        self.playouts += 1
        if value > self.best:
            self.best = value
            self.trace.append((self.playouts, value))
        for key in path:
            node = self.tree[key]
            node["n"] += 1
            node["sum"] += value
            node["squares"] += value * value
            node["top"] = max(node["top"], value)

    def run(self):
        while True:
            self.tree, root = {(): self.node(-1)}, ()
            while self.legal(root):
                self.tree[root]["moves"] = len(self.legal(root))
                done = 0
                while self.per_move == 0 or done < self.per_move:
                    self.simulate(root)
                    done += 1
                    if self.playouts >= self.budget:
                        return
                visited = [child for child in reversed(self.tree[root]["children"]) if self.tree[child]["n"] > 0]
                if self.rule == "top":
                    root = max(visited, key=lambda child: self.tree[child]["top"])  # max keeps the first of ties
                else:
                    root = max(visited, key=lambda child: (self.tree[child]["n"], self.tree[child]["top"], -child[-1]))
            self.restarts += 1


# The kernel against its plain twin on two games: the knapsack (the contract's domain, whose
# SP-MCTS kernels the fast suite compiles anyway) and, in the slow suite, TSPTW (slow: it compiles
# SP-MCTS for TSPTW, which no other fast test needs). C and D of the size of each game's scores,
# so that both terms steer the selection: on TSPTW (about -1e6 per violation) a plain search with
# C = 0.71 made the same run as with C = 0.7; on the knapsack (about 1,400) 2% more C, 5% more D,
# C = 0 or D = 0 each make another run, with 0 or 40 simulations per move.
GAMES = {"knapsack": (KnapsackOptions(), lambda: KnapsackGame(knapsack_rules.load_instance("p07")), 30.0, 1e4),
         "tsptw": (TsptwOptions(instance="rc_201.1"), lambda: TsptwGame(tsptw_rules.load_instance("rc_201.1")),
                   3e5, 1e12)}
GAME_NAMES = ["knapsack", pytest.param("tsptw", marks=pytest.mark.slow)]


@pytest.mark.parametrize("game", GAME_NAMES)
@pytest.mark.parametrize("per_move", [0, 40])
def test_the_kernel_is_a_plain_python_spmcts(game, per_move):
    options, plain_game, C, D = GAMES[game]
    settings = SearchSettings(algorithm="spmcts", C=C, D=D, simulations_per_move=per_move, seed=5,
                              max_time=None, max_playouts=3000)
    result = run_search(make_domain(options).kernel_domain(), settings)
    plain = PlainSPMCTS(plain_game(), C=C, D=D, per_move=per_move, playouts=3000, seed=5)
    plain.run()
    assert result.best_score == plain.best
    assert list(zip(result.trace.playouts, result.trace.score)) == plain.trace
    assert result.playouts == plain.playouts == 3000
    assert result.restarts == plain.restarts
    assert (result.restarts > 0) == (per_move > 0)  # 40 per move: a game (9 items, 20 customers at most) ends in budget


@pytest.mark.parametrize("game", GAME_NAMES)
def test_one_tree_playing_gellys_move_is_a_plain_python_spmcts_deciding_by_visits(game):
    options, plain_game, C, D = GAMES[game]
    settings = SearchSettings(algorithm="spmcts", C=C, D=D, simulations_per_move=40, seed=5, max_time=None,
                              max_playouts=3000)
    outcome = spmcts.one_tree_search(make_domain(options).kernel_domain(), kernel_params(settings))
    best, playouts_at, scores, playouts, restarts = outcome[0], outcome[4], outcome[5], outcome[6], outcome[7]
    plain = PlainSPMCTS(plain_game(), C=C, D=D, per_move=40, playouts=3000, seed=5, rule="visits")
    plain.run()
    assert best == plain.best and list(zip(playouts_at.tolist(), scores.tolist())) == plain.trace
    assert playouts == plain.playouts == 3000 and restarts == plain.restarts
    top = PlainSPMCTS(plain_game(), C=C, D=D, per_move=40, playouts=3000, seed=5)
    top.run()
    assert top.trace != plain.trace  # the two rules play other games


@pytest.mark.parametrize("game", GAME_NAMES)
def test_a_tree_pool_that_fills_up_keeps_searching_with_playouts(game):
    small = run_search(make_domain(GAMES[game][0]).kernel_domain(),
                       SearchSettings(algorithm="spmcts", tree_nodes=3, seed=1, max_time=None, max_playouts=500))
    assert small.playouts == 500 and math.isfinite(small.best_score)


ROOTS = np.zeros(2, dtype=np.int64)  # both trees averaged from their node 0


def test_averaging_two_trees_by_hand(knapsack_domain):
    first, second = new_tree(knapsack_domain, 16), new_tree(knapsack_domain, 16)
    a1 = add_child(first, 0, 7, 2)
    a2 = add_child(second, 0, 7, 2)
    only_first = add_child(first, 0, 9, 4)
    deep = add_child(first, a1, 3, 0)
    for value in (10.0, 20.0):
        backpropagate(first, np.array([0, a1, deep]), 3, value)
    for value in (40.0, 40.0, 40.0, 40.0):
        backpropagate(second, np.array([0, a2]), 2, value)
    backpropagate(first, np.array([0, only_first]), 2, 100.0)
    trees = List([first, second])
    # depth 0: the root's moves; move 7 has 2 and 4 visits (mean 3 >= N_min = 1.5), move 9 has 1 and none (0.5)
    assert share_statistics(trees, ROOTS, 0, 1.5) == 1
    for tree, child in ((first, a1), (second, a2)):
        assert tree.visits[child] == 3.0
        assert tree.total[child] == (30.0 + 160.0) / 2
        assert tree.squares[child] == (500.0 + 6400.0) / 2
        assert tree.top[child] == 40.0
    assert first.visits[only_first] == 1.0 and second.n_children[0] == 1  # below N_min: not shared, not added
    assert first.visits[deep] == 2.0  # depth 1 is not shared at share_depth 0
    # with N_min = 0 move 9 is shared too, and the second tree gets its node
    assert share_statistics(trees, ROOTS, 0, 0.0) == 2
    added = find_child(second, 0, 9)
    assert added > 0 and second.visits[added] == 0.5 and second.legal_index[added] == 4
    # share_depth 1 reaches the nodes below move 7 (the second tree gets move 3 with half the first's)
    share_statistics(trees, ROOTS, 1, 0.0)
    below = find_child(second, a2, 3)
    assert below > 0 and second.visits[below] == 1.0 and first.visits[deep] == 1.0


def test_averaged_trees_play_the_move_of_any_tree_and_average_from_their_roots(knapsack_domain):
    first, second = new_tree(knapsack_domain, 16), new_tree(knapsack_domain, 16)
    a = add_child(first, 0, 7, 2)
    b = add_child(first, 0, 9, 4)
    c = add_child(second, 0, 7, 2)
    backpropagate(first, np.array([0, a]), 2, 10.0)
    for _ in range(3):
        backpropagate(first, np.array([0, b]), 2, 30.0)
    backpropagate(second, np.array([0, c]), 2, 20.0)
    trees = List([first, second])
    roots = np.zeros(2, dtype=np.int64)
    states = List([new_scratch(knapsack_domain).state for _ in range(2)])  # initial states
    scratches = spmcts._new_scratches(knapsack_domain, 2)
    # move 9, simulated 3 times (move 7: 1 + 1), in the first tree alone: both trees play it; the
    # second gets its node
    assert spmcts._advance_roots(knapsack_domain, trees, roots, states, 0, scratches, True) == 1
    added = find_child(second, 0, 9)
    assert roots[0] == b and roots[1] == added and second.legal_index[added] == 4 and second.visits[added] == 0
    assert scratches[0].path[0] == 9 and scratches[1].path[0] == 9
    # the next averaging starts from the new roots: the children of b and of the added node
    below_first = add_child(first, b, 3, 0)
    backpropagate(first, np.array([b, below_first]), 2, 50.0)
    assert share_statistics(trees, roots, 0, 0.0) == 1
    below_second = find_child(second, added, 3)
    assert second.visits[below_second] == 0.5 and first.visits[below_first] == 0.5
    assert first.visits[a] == 1.0 and second.visits[c] == 1.0  # the old root's moves are left alone


@pytest.mark.parametrize("overrides, message", [
    (dict(C=-1.0), "C=-1.0 is out of range"),
    (dict(D=float("nan")), "D=nan is out of range"),
    (dict(simulations_per_move=-2), "simulations_per_move=-2 is out of range"),
    (dict(tree_nodes=0), "tree_nodes=0 is out of range"),
    (dict(parallel="thread_local", threads=2, clock="wall"), "SP-MCTS runs parallel=shared"),
    (dict(max_time=None), "SP-MCTS needs a budget"),
])
def test_bad_spmcts_options_are_refused_with_what_is_wrong(overrides, message):
    with pytest.raises(InputError, match=message.replace("(", r"\(")):
        SearchSettings(algorithm="spmcts", **overrides)


def test_spmcts_settings_belong_to_spmcts():
    with pytest.raises(InputError, match="C=0.3 is a setting of SP-MCTS: use algo=spmcts"):
        SearchSettings(algorithm="nrpa", C=0.3)


@pytest.mark.slow  # compiles the threaded kernels (about a minute)
@pytest.mark.parametrize("parallel", ["shared", "averaged"])
def test_threaded_spmcts_with_one_thread_is_one_tree_playing_gellys_move(tsptw_domain, parallel):
    settings = SearchSettings(algorithm="spmcts", seed=9, max_time=None, max_playouts=1500, simulations_per_move=40)
    one_tree = spmcts.one_tree_search(tsptw_domain, kernel_params(settings))
    threaded = run_search(tsptw_domain, replace(settings, parallel=parallel, threads=1))
    assert (threaded.best_score, threaded.trace.score, threaded.playouts) == (
        one_tree[0], tuple(one_tree[5].tolist()), one_tree[6])


@pytest.mark.slow
@pytest.mark.parametrize("parallel, extra", [("shared", {}), ("shared", {"simulations_per_move": 50}),
                                             ("averaged", {"share_every": 100, "share_depth": 1}),
                                             ("averaged", {"share_every": 50, "simulations_per_move": 500}),
                                             ("averaged", {"share_every": 0, "simulations_per_move": 100})])
def test_two_threads_run_to_the_budget_and_their_best_replays(parallel, extra):
    adapter = make_domain(SameGameOptions(board="1", policy="tabu"))
    settings = SearchSettings(algorithm="spmcts", parallel=parallel, threads=2, clock="wall", seed=4, max_time=0.5,
                              **extra)
    result = run_search(adapter.kernel_domain(), settings)
    # wall time and playouts: allow for a loaded machine (averaging every 0.01 s once made 406 playouts under load)
    assert 0.5 <= result.wall_seconds < 3.0 and result.playouts > 100
    assert adapter.replay_score(adapter.certificate(result.best_moves)) == result.best_score
    assert list(result.trace.score) == sorted(result.trace.score)  # the merged trace only improves


@pytest.mark.slow  # compiles SP-MCTS for each of the seven domains
@pytest.mark.parametrize("name", list(DOMAINS))
def test_spmcts_runs_through_run_py_on_every_domain_and_its_best_replays(name, tmp_path):
    done = cli("run.py", "algo=spmcts", f"domain={name}", "max_time=null", "max_playouts=300",
               "simulations_per_move=20", f"outputs_dir={tmp_path}")
    assert done.returncode == 0, done.stderr
    (path,) = (tmp_path / "runs" / name).glob("*.json")
    record = json.loads(path.read_text())
    assert record["result"]["playouts"] == 300 and record["settings"]["algorithm"] == "spmcts"
    ok, message = verify_record(record)
    assert ok, message
