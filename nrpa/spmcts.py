"""Single-Player Monte-Carlo Tree Search, SP-MCTS (Schadd, Winands, van den Herik, Chaslot,
Uiterwijk 2008), over the domain contract: the sequential search, and the game loop that it
and Gelly et al.'s two parallelisations (nrpa/spmcts_parallel.py) share. The tree and the
steps of a simulation in it (selection, expansion, back-propagation) are nrpa/spmcts_tree.py.

The SP-MCTS papers' texts are not among those this project has (the NRPA papers only quote
SP-MCTS's SameGame scores, "a variant of the UCT algorithm applied to single player games");
what follows, and the selection, expansion and back-propagation of nrpa/spmcts_tree.py, is our
reading of the algorithm as public implementations of it write it (README, "SP-MCTS";
docs/readings.md), said as such:

* **Simulation.** Uniform random moves among the domain's legal moves to the end of the game:
  SameGame's ``tabu`` playout rule is the paper's TabuColorRandom (the most frequent colour of
  the initial board is played only when no other move exists or when it removes that
  colour's last group; nrpa/domains/samegame.py).
* **Moves and restarts.** With ``simulations_per_move`` S > 0 the search plays the game: after
  S simulations from the current root it moves to the root's child with the best top score
  (the first move of the best sequence through the root) and searches on from there, the
  subtree kept; a game ends at a terminal root, and the search starts a new tree from the
  initial state (the paper's meta-search by randomized restarts: the random stream goes on,
  so each game is another random search). With S = 0 one tree grows from the initial state
  for the whole budget. The answer is the best sequence any simulation found.

One game loop (``play_games``) runs every SP-MCTS search: K trees (one for the sequential and
the shared-tree searches) with their roots, their roots' states and the threads' scratches;
a search brings its ``search_move``, which makes the simulations of a move (S = 0: of the
budget), and all trees then play the move that the search's decision rule picks
(``_advance_roots``):

* the sequential search: SP-MCTS's own rule above, the child with the best top score
  (``best_top_move``);
* Gelly et al.'s parallel searches (nrpa/spmcts_parallel.py), all of them, and
  ``one_tree_search`` (one tree, one thread: what they are with one thread or one tree): their
  Algorithm 6's "Decision step: Pick up the decision which has been simulated most often, on
  the whole set of nodes" (Algorithm 1's, on one tree: "Pick up the decision which has been
  simulated most often from the root"): the move whose root child has the most simulations
  summed over all trees (``most_simulated_move``). Ties (equal sums) go to the best top score
  over the trees, then to the smallest move code: the text says nothing of ties; ours keep
  the rule deterministic and, among equally simulated moves, follow the best sequence found.

Random draws are ``np.random.random()`` only (an index is ``floor(u * n)``), so a
plain-Python search on numpy's legacy generator, numba's own Mersenne Twister, draws the same
(tests/test_spmcts.py compares whole runs).
"""

import numpy as np
from numba import njit
from numba.typed import List

from nrpa.clock import CLOCK_MONOTONIC
from nrpa.domains.contract import legal_moves, new_state, play, reset, score
from nrpa.run import STOP, elapsed, end_playout, go_on, new_run, result, start_clocks
from nrpa.spmcts_tree import (
    acquire, add_child, backpropagate, best_move_child, clear_tree, descend, find_child, new_scratch, new_tree,
    no_lock, release, uniform_index,
)


@njit(cache=True)
def playout(domain, scratch, depth, run):
    """Uniform random moves from ``scratch.state`` to the end; the run counts the playout.
    Returns the score of the whole sequence ``scratch.path``."""
    state = scratch.state
    moves = scratch.moves
    path = scratch.path
    while True:
        n = legal_moves(domain, state, moves, scratch.codes)
        if n == 0:
            break
        move = moves[uniform_index(n)]
        path[depth] = move
        depth += 1
        play(domain, state, move)
    value = score(domain, state)
    end_playout(run, value, path, depth)
    return value


@njit(cache=True)
def simulate(domain, tree, root, root_state, depth, scratch, run, params, lock):
    """One SP-MCTS simulation from ``root``: select, expand one node, play out, back-propagate
    (with the tree's ``lock`` held to back-propagate, and where ``descend`` says)."""
    count, length = descend(domain, tree, root, root_state, depth, scratch, params, lock)
    value = playout(domain, scratch, length, run)
    acquire(lock)
    backpropagate(tree, scratch.nodes, count, value)
    release(lock)
    return value


@njit(cache=True)
def simulations(domain, tree, root, root_state, depth, scratch, run, params, lock, share, done, deadline):
    """Simulations from ``root`` until ``share`` of them are done, counting from ``done``
    (``share`` <= 0: no count), until ``deadline`` seconds of the run's wall clock (np.inf:
    none), or to the end of the run's budget. Returns the count done."""
    while (not run.counters[STOP] and (share <= 0 or done < share)
           and (deadline == np.inf or elapsed(run, CLOCK_MONOTONIC) < deadline)):
        simulate(domain, tree, root, root_state, depth, scratch, run, params, lock)
        done += 1
    return done


@njit(cache=True)
def _new_scratches(domain, threads):
    scratches = List()
    for _ in range(threads):
        scratches.append(new_scratch(domain))
    return scratches


@njit(cache=True)
def _root_is_terminal(domain, tree, root, root_state, scratch):
    if tree.n_moves[root] == 0:
        tree.n_moves[root] = legal_moves(domain, root_state, scratch.moves, scratch.codes) + 1
    return tree.n_moves[root] == 1


@njit(cache=True)
def best_top_move(trees, roots):
    """SP-MCTS's move: (tree, child) of the root child with the best top score in any tree
    (the first found on ties); (-1, -1) when no tree has a visited child at its root."""
    best_tree = -1
    best_child = -1
    for t in range(len(trees)):
        child = best_move_child(trees[t], roots[t])
        if child >= 0 and (best_child < 0 or trees[t].top[child] > trees[best_tree].top[best_child]):
            best_tree = t
            best_child = child
    return best_tree, best_child


@njit(cache=True, inline="always")
def _ahead(visits, top, move, best_visits, best_top, best_move):
    """Whether a move goes before the best so far: more simulations, then a better top score,
    then a smaller move code."""
    if visits != best_visits:
        return visits > best_visits
    if top != best_top:
        return top > best_top
    return move < best_move


@njit(cache=True)
def most_simulated_move(trees, roots):
    """Gelly's decision step: (tree, child) of the move whose root children have the most
    simulations summed over all trees (a tree without the move counts none); ties go to the
    best top score over the trees, then to the smallest move code. (-1, -1) when no move has
    a simulation."""
    width = trees[0].marks.size
    moves = np.zeros(width, dtype=np.int64)  # the moves some tree has at its root, each once,
    visits = np.zeros(width)  # their summed visits,
    tops = np.full(width, -np.inf)  # their best top score,
    where = np.zeros((width, 2), dtype=np.int64)  # and a (tree, child) that has each
    n = 0
    for t in range(len(trees)):
        tree = trees[t]
        child = tree.first_child[roots[t]]
        while child != 0:
            j = 0
            while j < n and moves[j] != tree.move[child]:
                j += 1
            if j == n:
                moves[n] = tree.move[child]
                where[n, 0] = t
                where[n, 1] = child
                n += 1
            visits[j] += tree.visits[child]
            tops[j] = max(tops[j], tree.top[child])
            child = tree.next_sibling[child]
    best = -1
    for j in range(n):
        if visits[j] > 0 and (best < 0 or _ahead(visits[j], tops[j], moves[j], visits[best], tops[best], moves[best])):
            best = j
    if best < 0:
        return -1, -1
    return where[best, 0], where[best, 1]


@njit(cache=True)
def _advance_roots(domain, trees, roots, root_states, depth, scratches, most_simulated):
    """Every tree plays the move of the decision rule (``most_simulated``: Gelly's, else
    SP-MCTS's best top score; a tree without that child gets it, empty), and every scratch's
    sequences go on with it. Returns the new depth, or -1 when no tree has a visited child
    at its root."""
    if most_simulated:
        best_tree, best_child = most_simulated_move(trees, roots)
    else:
        best_tree, best_child = best_top_move(trees, roots)
    if best_child < 0:
        return -1
    move = trees[best_tree].move[best_child]
    index = trees[best_tree].legal_index[best_child]
    for t in range(len(trees)):
        tree = trees[t]
        child = find_child(tree, roots[t], move)
        if child < 0:
            child = add_child(tree, roots[t], move, index)
        if child < 0:  # a full pool: this tree searches on from the root's state without a node
            clear_tree(tree)
            child = 0
        roots[t] = child
        play(domain, root_states[t], move)
    for i in range(len(scratches)):
        scratches[i].path[depth] = move
    return depth + 1


# inline: each search compiles the loop with its own ``search_move``, a constant there (a
# function passed on as a value is an address numba's cache cannot keep).
@njit(cache=True, inline="always")
def play_games(domain, params, tree_count, thread_count, search_move, crew, most_simulated):
    """The run of an SP-MCTS search of ``tree_count`` trees and ``thread_count`` scratches
    (one per thread): games from the initial state on fresh trees, each ending at a terminal
    root, until the budget (``nrpa.run``'s contract and result). A move's simulations are
    ``search_move(domain, trees, roots, root_states, depth, scratches, run, params, crew)``,
    ``crew`` what the search brings for them; then every tree plays the move of the decision
    rule (``most_simulated``: Gelly's, else SP-MCTS's; module docstring)."""
    np.random.seed(params.seed)
    run = new_run(domain, params)
    trees = List()
    root_states = List()
    for _ in range(tree_count):
        trees.append(new_tree(domain, params.tree_capacity))
        root_states.append(new_state(domain))
    scratches = _new_scratches(domain, thread_count)
    roots = np.zeros(tree_count, dtype=np.int64)
    start_clocks(run)
    while True:  # a game: fresh trees from the initial state
        depth = 0
        for t in range(tree_count):
            clear_tree(trees[t])
            reset(domain, root_states[t])
            roots[t] = 0
        while not _root_is_terminal(domain, trees[0], roots[0], root_states[0], scratches[0]):
            search_move(domain, trees, roots, root_states, depth, scratches, run, params, crew)
            if run.counters[STOP]:
                return result(run)
            depth = _advance_roots(domain, trees, roots, root_states, depth, scratches, most_simulated)
            if depth < 0:
                break
        if not go_on(run, params):
            break
    return result(run)


@njit(cache=True)
def _sequential_move(domain, trees, roots, root_states, depth, scratches, run, params, lock):
    """S simulations (S = 0: to the end of the budget) from the root of the one tree."""
    simulations(domain, trees[0], roots[0], root_states[0], depth, scratches[0], run, params, lock,
                params.simulations_per_move, 0, np.inf)


@njit(cache=True, nogil=True)  # nrpa.interrupt runs it in a thread of its own
def spmcts_search(domain, params):
    """SP-MCTS until the budget (``nrpa.run``'s contract and result), playing SP-MCTS's move
    (the best top score)."""
    return play_games(domain, params, 1, 1, _sequential_move, no_lock(), False)


@njit(cache=True, nogil=True)  # nrpa.interrupt runs it in a thread of its own
def one_tree_search(domain, params):
    """SP-MCTS on one tree playing Gelly's move (the most simulated one): Gelly's parallel
    searches with one thread or one tree (nrpa/spmcts_parallel.py)."""
    return play_games(domain, params, 1, 1, _sequential_move, no_lock(), True)
