"""Gelly et al.'s two parallelisations of SP-MCTS (Gelly, Hoock, Rimmel, Teytaud, Kalemkarian
2008, their Algorithms 4 and 6, written for Go: quoted in docs/readings.md; what they leave open
for a single-player search is ours), on nrpa/spmcts.py's game loop and nrpa/spmcts_tree.py's
tree:

* **Multi-core** (``parallel=shared``, M threads): the threads share one tree. A lock (one
  POSIX spin lock) is held while a thread walks the tree (selection), adds its new node and
  back-propagates; it plays the path's moves on its own state, computes the new node's legal
  moves and runs the playout outside it. Moves are decided between parallel sections of S
  simulations in all (S / M per thread). (A first version held the lock for the whole
  selection and expansion, moves included: two threads then made fewer simulations per
  second than one.)
* **Cluster** (``parallel=averaged``, K trees on K threads, standing for K machines): each
  thread grows its own tree; every T0 = ``average_every`` wall-seconds they pause and the
  statistics (visits, sum, sum of squares; the top score as the maximum) of the moves played
  from the nodes at depth <= ``share_depth`` (0: the root's moves) are replaced, in every
  tree, by their mean over the K trees (a tree that lacks the node counts zero, and gets the
  node), for the nodes whose mean number of visits is at least ``share_min_visits``
  (N_min). With S > 0 each tree makes S / K simulations per move; the trees also average when
  the move's simulations are done, and every tree then plays the move whose child has the best
  top score in any tree (the best sequence any tree found goes on); S = 0: one tree per thread
  for the whole budget. On several machines (``parallel=cluster``, experiments/cluster.py) the
  trees are dask actors and the client averages the tops they send with the same
  ``share_statistics`` (S = 0 there).
"""

from collections import namedtuple

import numpy as np
from numba import njit, prange

from nrpa.clock import CLOCK_MONOTONIC
from nrpa.domains.contract import new_state, reset
from nrpa.run import STOP, elapsed, end_section, new_run, new_runs, start_clocks, start_section
from nrpa.spmcts import play_games, simulations, spmcts_search
from nrpa.spmcts_tree import (
    add_child, empty_tree, find_child, new_lock, new_scratch, new_tree, no_lock, share_statistics,
)

# What the threads of a parallel search bring to its moves: a run, a seed and a count of
# simulations per thread, the simulations of a move per thread (0: S = 0), the tree's lock
# (the shared tree's; none for the averaged trees), the averaging period to come.
Crew = namedtuple("Crew", ["runs", "seeds", "done", "share", "lock", "period"])


@njit(cache=True)
def _new_crew(domain, params, lock):
    threads = params.threads
    per_move = params.simulations_per_move
    return Crew(runs=new_runs(domain, params, threads), seeds=np.zeros(threads + 1, dtype=np.int64),
                done=np.zeros(threads, dtype=np.int64), share=max(1, per_move // threads) if per_move > 0 else 0,
                lock=lock, period=np.ones(1, dtype=np.int64))


@njit(cache=True, parallel=True)
def _threads_simulate(domain, trees, roots, root_states, depth, scratches, params, crew, deadline):
    """Thread i grows tree i (or the one tree they share) from its root: ``simulations`` to its
    share of the move's, the wall-clock ``deadline`` or the end of its run's budget."""
    for k in prange(params.threads):
        i = np.int64(k)  # prange counts in uint64; typed List indices are int64
        t = i % len(trees)
        np.random.seed(crew.seeds[i])
        crew.done[i] = simulations(domain, trees[t], roots[t], root_states[t], depth, scratches[i], crew.runs[i],
                                   params, crew.lock, crew.share, crew.done[i], deadline)


@njit(cache=True)
def _section(domain, trees, roots, root_states, depth, scratches, run, params, crew, deadline):
    """One parallel section of ``_threads_simulate``, its threads' runs merged into ``run``."""
    start_section(run, crew.runs, crew.seeds, params.threads)
    _threads_simulate(domain, trees, roots, root_states, depth, scratches, params, crew, deadline)
    end_section(run, crew.runs, crew.seeds, params.threads)


# ---------------------------------------------------------------------------------------
# Multi-core: M threads, one tree, one lock.


@njit(cache=True)
def _shared_move(domain, trees, roots, root_states, depth, scratches, run, params, crew):
    """The move's simulations (S = 0: the budget's) by every thread on the one tree."""
    crew.done[:] = 0
    _section(domain, trees, roots, root_states, depth, scratches, run, params, crew, np.inf)


@njit(cache=True)
def shared_tree_search(domain, params):
    """Gelly's multi-core SP-MCTS: ``params.threads`` threads on one tree (see the module
    docstring). With one thread it is ``spmcts_search`` for the same seed."""
    if params.threads == 1:
        return spmcts_search(domain, params)
    return play_games(domain, params, 1, params.threads, _shared_move, _new_crew(domain, params, new_lock()))


# ---------------------------------------------------------------------------------------
# Cluster: K trees on K threads, averaging the statistics of their top nodes every T0 seconds.


@njit(cache=True)
def _averaged_move(domain, trees, roots, root_states, depth, scratches, run, params, crew):
    """Periods of T0 seconds of the K trees, each followed by the averaging, until each tree
    has made its share of the move's simulations (S = 0: until the end of the budget)."""
    crew.done[:] = 0
    period = crew.period
    while True:  # periods of T0 seconds, cut short by the end of the move's simulations
        _section(domain, trees, roots, root_states, depth, scratches, run, params, crew,
                 period[0] * params.average_every)
        if run.counters[STOP]:
            return
        if elapsed(run, CLOCK_MONOTONIC) >= period[0] * params.average_every:
            period[0] = np.int64(elapsed(run, CLOCK_MONOTONIC) / params.average_every) + 1
        share_statistics(trees, roots, params.share_depth, params.share_min_visits)
        if crew.share > 0 and crew.done.min() >= crew.share:
            return


@njit(cache=True)
def averaged_trees_search(domain, params):
    """Gelly's cluster SP-MCTS on threads (module docstring). With one tree it is
    ``spmcts_search`` for the same seed (averaging one tree changes nothing)."""
    if params.threads == 1:
        return spmcts_search(domain, params)
    return play_games(domain, params, params.threads, params.threads, _averaged_move,
                      _new_crew(domain, params, no_lock()))


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
