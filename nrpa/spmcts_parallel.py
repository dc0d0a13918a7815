"""Gelly et al.'s two parallelisations of SP-MCTS (Gelly, Hoock, Rimmel, Teytaud, Kalemkarian
2008, their Algorithms 4 and 6, written for Go: quoted in docs/readings.md; what they leave open
for a single-player search is ours), on nrpa/spmcts.py's game loop and nrpa/spmcts_tree.py's
tree.

As Gelly's cores and machines, which all think for the whole time of a move, every thread of
the shared tree and every one of the averaged trees makes the whole per-move budget:
S = ``simulations_per_move`` simulations per move each, so M threads or K trees make M x S or
K x S simulations per move. Every version here plays the text's decision: the move simulated
most often, summed over all trees (``nrpa.spmcts.most_simulated_move``; ties: the best top
score, then the smallest move code), so that the parallel versions compare under one rule.
The sequential SP-MCTS (``nrpa.spmcts.spmcts_search``) keeps SP-MCTS's own rule (the best top
score); ``nrpa.spmcts.one_tree_search`` is the sequential search with Gelly's rule, which is
what each version here is with one thread or one tree.

* **Multi-core** (``parallel=shared``, M threads): the threads share one tree. A lock (one
  POSIX spin lock) is held while a thread walks the tree (selection), adds its new node and
  back-propagates; it plays the path's moves on its own state, computes the new node's legal
  moves and runs the playout outside it. A move is one parallel section in which each thread
  makes S simulations; the decision is the root child with the most visits. (A first version
  held the lock for the whole selection and expansion, moves included: two threads then made
  fewer simulations per second than one.)
* **Cluster** (``parallel=averaged``, K trees on K threads, standing for K machines): each
  thread grows its own tree. Every T0 = ``share_every`` simulations of each tree the threads
  pause (all trees have made the same count) and the statistics (visits, sum, sum of squares;
  the top score as the maximum) of the moves played from the nodes at depth <=
  ``share_depth`` (0: the root's moves, Gelly's K = 0) are replaced, in every tree, by their
  mean over the K trees (a tree that lacks the node counts zero, and gets the node), for the
  nodes whose mean number of visits is at least ``share_min_visits`` (N_min). The periods
  start again at each move and the averagings fall within it: with S = 100 and T0 = 10, nine
  averagings, then the decision step, which sums the trees' visits (an averaging there would
  not change the sums). ``share_every = 0`` is Gelly's T0 = infinity, "no communication
  before the final step of the decision making": the K trees search independently during the
  move and meet only in the decision's sum. S = 0 (one tree per thread for the whole budget):
  periods of T0 until the budget; T0 = 0: K independent trees.
  T0 counts simulations, not seconds, so that it falls at the same points of a move on any
  machine; in Gelly's seconds it is share_every / r, r one tree's simulations per second (the
  experiment's throughput divided by K), and share_every / S of a move. (Their table runs
  T0 = 1.00 s, 0.33 s and 0.11 s; the text does not give the time per move of those games.)
* **Cluster on several machines** (``parallel=cluster``, experiments/cluster.py): the trees
  are dask actors and the client averages the tops they send with the same
  ``share_statistics``, every T0 = ``average_every`` wall-seconds (a real cluster's clock).
  It runs S = 0 only: each machine grows its one tree for the whole budget (the whole time,
  as here), and there is no move, so no decision step: the answer is the best simulation.
"""

from collections import namedtuple

import numpy as np
from numba import njit, prange

from nrpa.domains.contract import new_state, reset
from nrpa.run import STOP, end_section, new_run, new_runs, start_clocks, start_section
from nrpa.spmcts import one_tree_search, play_games, simulations
from nrpa.spmcts_tree import (
    add_child, empty_tree, find_child, new_lock, new_scratch, new_tree, no_lock, share_statistics,
)

# What the threads of a parallel search bring to its moves: a run, a seed and a count of
# simulations per thread (counted from the move's start), the count each thread goes to in
# the section to come (0: no count, to the end of the budget), the tree's lock (the shared
# tree's; none for the averaged trees), and the number of averagings made.
Crew = namedtuple("Crew", ["runs", "seeds", "done", "target", "lock", "averagings"])


@njit(cache=True)
def _new_crew(domain, params, lock):
    threads = params.threads
    return Crew(runs=new_runs(domain, params, threads), seeds=np.zeros(threads + 1, dtype=np.int64),
                done=np.zeros(threads, dtype=np.int64), target=np.zeros(1, dtype=np.int64), lock=lock,
                averagings=np.zeros(1, dtype=np.int64))


@njit(cache=True, parallel=True)
def _threads_simulate(domain, trees, roots, root_states, depth, scratches, params, crew):
    """Thread i grows tree i (or the one tree they share) from its root: ``simulations`` until
    its count reaches ``crew.target[0]`` (0: no count) or its run's budget ends."""
    # ``done`` by name: a write to ``crew.done[i]`` in the loop's body does not reach the array
    # (numba's parfor; the count then stayed 0 and the averaged trees never ended a move)
    done = crew.done
    target = crew.target[0]
    for k in prange(params.threads):
        i = np.int64(k)  # prange counts in uint64; typed List indices are int64
        t = i % len(trees)
        np.random.seed(crew.seeds[i])
        done[i] = simulations(domain, trees[t], roots[t], root_states[t], depth, scratches[i], crew.runs[i], params,
                              crew.lock, target, done[i], np.inf)


@njit(cache=True)
def _section(domain, trees, roots, root_states, depth, scratches, run, params, crew):
    """One parallel section of ``_threads_simulate``, its threads' runs merged into ``run``."""
    start_section(run, crew.runs, crew.seeds, params.threads)
    _threads_simulate(domain, trees, roots, root_states, depth, scratches, params, crew)
    end_section(run, crew.runs, crew.seeds, params.threads)


# ---------------------------------------------------------------------------------------
# Multi-core: M threads, one tree, one lock.


@njit(cache=True)
def _shared_move(domain, trees, roots, root_states, depth, scratches, run, params, crew):
    """S simulations by every thread on the one tree (S = 0: to the end of the budget)."""
    crew.done[:] = 0
    crew.target[0] = params.simulations_per_move
    _section(domain, trees, roots, root_states, depth, scratches, run, params, crew)


@njit(cache=True, nogil=True)  # nrpa.interrupt runs it in a thread of its own
def shared_tree_search(domain, params):
    """Gelly's multi-core SP-MCTS: ``params.threads`` threads on one tree (see the module
    docstring). With one thread it is ``one_tree_search`` for the same seed."""
    if params.threads == 1:
        return one_tree_search(domain, params)
    return play_games(domain, params, 1, params.threads, _shared_move, _new_crew(domain, params, new_lock()), True)


# ---------------------------------------------------------------------------------------
# Cluster: K trees on K threads, averaging the statistics of their top nodes every T0
# simulations of each tree.


@njit(cache=True)
def period_end(period, every, per_move):
    """The count of simulations of each tree at which period ``period`` (1, 2, ...) of a move
    ends: period x T0 (``every``), the move's S (``per_move``) at most; T0 = 0 (infinity): S;
    0 when neither counts (T0 = 0 and S = 0: to the end of the budget)."""
    if every == 0:
        return per_move
    if per_move == 0:
        return period * every
    return min(period * every, per_move)


@njit(cache=True)
def _averaged_move(domain, trees, roots, root_states, depth, scratches, run, params, crew):
    """The move's periods (module docstring): the K trees' simulations to each period's end,
    each period but the move's last followed by the averaging."""
    crew.done[:] = 0
    period = 0
    while True:
        period += 1
        crew.target[0] = period_end(period, params.share_every, params.simulations_per_move)
        _section(domain, trees, roots, root_states, depth, scratches, run, params, crew)
        if run.counters[STOP] or crew.target[0] == params.simulations_per_move:
            return  # the budget's end, or the decision step
        share_statistics(trees, roots, params.share_depth, params.share_min_visits)
        crew.averagings[0] += 1


@njit(cache=True, nogil=True)  # nrpa.interrupt runs it in a thread of its own
def averaged_trees_search(domain, params):
    """Gelly's cluster SP-MCTS on threads (module docstring). With one tree it is
    ``one_tree_search`` for the same seed (averaging one tree changes nothing)."""
    if params.threads == 1:
        return one_tree_search(domain, params)
    return play_games(domain, params, params.threads, params.threads, _averaged_move,
                      _new_crew(domain, params, no_lock()), True)


# ---------------------------------------------------------------------------------------
# Cluster on several machines (experiments/cluster.py): each machine holds one tree, grows it
# between two exchanges, and sends the top of it (the nodes at depth <= share_depth + 1) to
# the client, which averages the tops with ``share_statistics`` and sends each machine its
# own top back to be grafted on its tree.

Member = namedtuple("Member", ["tree", "root_state", "scratch", "run"])


@njit(cache=True)
def new_member(domain, params):
    """One machine's search: a tree from the initial state (its clocks start with
    ``start_member``)."""
    member = Member(tree=new_tree(domain, params.tree_capacity), root_state=new_state(domain),
                    scratch=new_scratch(domain), run=new_run(domain, params))
    reset(domain, member.root_state)
    return member


@njit(cache=True)
def start_member(member, seed):
    np.random.seed(seed)
    start_clocks(member.run)


@njit(cache=True, nogil=True)
def grow(domain, member, params, deadline):
    """Simulations until ``deadline`` seconds of the member's wall clock or the end of its
    budget; returns whether the budget is spent. (Without the GIL: the worker's event loop
    keeps answering while the tree grows.) The member's tree is the whole game's (S = 0)."""
    run = member.run
    simulations(domain, member.tree, 0, member.root_state, 0, member.scratch, run, params, no_lock(), 0, 0,
                deadline)
    return run.counters[STOP] != 0


@njit(cache=True)
def top_subtree(tree, root, depth, room):
    """A new tree holding the nodes of ``tree`` at depth <= depth + 1 below ``root`` (the
    moves from the nodes at depth <= ``depth``) with their statistics, node 0 for ``root``,
    and room for ``room`` nodes more (those that averaging adds)."""
    originals = np.zeros(tree.size[0], dtype=np.int64)  # breadth first: the nodes to copy,
    parents = np.zeros(tree.size[0], dtype=np.int64)  # the index of their parent among them
    levels = np.zeros(tree.size[0], dtype=np.int64)  # and their depth
    originals[0] = root
    count = 1
    for i in range(tree.size[0]):
        if i >= count:
            break
        if levels[i] > depth:
            continue
        child = tree.first_child[originals[i]]
        while child != 0:
            originals[count] = child
            parents[count] = i
            levels[count] = levels[i] + 1
            count += 1
            child = tree.next_sibling[child]
    top = empty_tree(count + room, tree.marks.size)
    _copy_statistics(tree, root, top, 0)
    for i in range(1, count):  # node i of the copy is originals[i]: add_child numbers them in order
        node = originals[i]
        add_child(top, parents[i], tree.move[node], tree.legal_index[node])
        _copy_statistics(tree, node, top, i)
    return top


@njit(cache=True)
def _copy_statistics(source, node, target, into):
    target.visits[into] = source.visits[node]
    target.total[into] = source.total[node]
    target.squares[into] = source.squares[node]
    target.top[into] = source.top[node]


@njit(cache=True)
def graft(tree, root, top):
    """Write the statistics of ``top`` (a ``top_subtree`` of ``tree`` from ``root``, since
    averaged) into ``tree``, adding the nodes it lacks."""
    into = np.zeros(top.size[0], dtype=np.int64)  # the node of ``tree`` for each node of ``top``
    into[0] = root
    for node in range(top.size[0]):
        if into[node] < 0:  # its parent found no room in the pool
            continue
        child = top.first_child[node]
        while child != 0:
            target = find_child(tree, into[node], top.move[child])
            if target < 0:
                target = add_child(tree, into[node], top.move[child], top.legal_index[child])
            into[child] = target
            if target >= 0:
                _copy_statistics(top, child, tree, target)
            child = top.next_sibling[child]
