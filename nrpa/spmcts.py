"""Single-Player Monte-Carlo Tree Search, SP-MCTS (Schadd, Winands, van den Herik, Chaslot,
Uiterwijk 2008), over the domain contract, and the two parallelisations of Gelly et al. (2008).

The SP-MCTS papers' texts are not among those this project has (the NRPA papers only quote
SP-MCTS's SameGame scores, "a variant of the UCT algorithm applied to single player games");
what follows is our reading of the algorithm as public implementations of it write it (README,
"SP-MCTS"; docs/readings.md), said as such:

* **Selection.** From the root, while the node has every legal move as a child, go to the
  child i maximising
  ``mean_i + C * sqrt(ln n_parent / n_i) + sqrt((sum x^2 - n_i * mean_i^2 + D) / n_i)``,
  x the raw scores of the simulations through i (UCT plus the single-player variance term,
  which keeps a child with few or very spread results worth a look). Ties: the child added
  last.
* **Expansion.** One node per simulation: at the first node that lacks a child for some of
  its legal moves, one of the missing moves, drawn uniformly, gets its node and the
  simulation goes on from it. (A node's legal moves are computed once, the first time it is
  reached; a node whose state is terminal has none.)
* **Simulation.** Uniform random moves among the domain's legal moves to the end of the game:
  SameGame's ``tabu`` playout rule is the paper's TabuColorRandom (the most frequent colour of
  the initial board is played only when no other move exists or when it removes that
  colour's last group; nrpa/domains/samegame.py).
* **Back-propagation.** Every node of the path adds 1 to its visits, the score of the whole
  sequence (from the initial state) to its sum and its square to its sum of squares, and
  keeps the best score seen through it ("top score").
* **Moves and restarts.** With ``simulations_per_move`` S > 0 the search plays the game: after
  S simulations from the current root it moves to the root's child with the best top score
  (the first move of the best sequence through the root) and searches on from there, the
  subtree kept; a game ends at a terminal root, and the search starts a new tree from the
  initial state (the paper's meta-search by randomized restarts: the random stream goes on,
  so each game is another random search). With S = 0 one tree grows from the initial state
  for the whole budget. The answer is the best sequence any simulation found.

The tree lives in preallocated arrays (``tree_capacity`` nodes, node 0 the root); children
are a linked list (first child, next sibling), each child keeping the index of its move in
its parent's ``legal_moves`` list, which is the same list every time (the order of
``legal_moves`` is deterministic for a state). When the pool is full no node is added: a
simulation plays out from the first node that would have grown one.

Random draws are ``np.random.random()`` only (an index is ``floor(u * n)``), so a
plain-Python search on numpy's legacy generator, numba's own Mersenne Twister, draws the same
(tests/test_spmcts.py compares whole runs).

Parallel versions (Gelly, Hoock, Rimmel, Teytaud, Kalemkarian 2008, their Algorithms 4 and 6,
written for Go: quoted in docs/readings.md; what they leave open for a single-player search is
ours):

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
from numba import njit, prange, types
from numba.typed import List

from nrpa.clock import CLOCK_MONOTONIC
from nrpa.domains.contract import copy_state, legal_moves, max_length, max_moves, new_state, play, reset, score
from nrpa.run import STOP, elapsed, end_playout, end_section, go_on, new_run, new_runs, result, start_clocks, start_section

# Per node: parent; first_child and next_sibling (0: none; node 0, the root, is nobody's
# child); the move from the parent and its index in the parent's legal moves; n_moves: the
# number of legal moves + 1 (0: not computed yet); children; visits (float: the cluster
# version averages them), sum and sum of squares of the scores, top score. size[0]: nodes in
# use; size[1]: the stamp of ``marks`` (which legal moves of a node have children).
Tree = namedtuple("Tree", ["parent", "first_child", "next_sibling", "move", "legal_index", "n_moves", "n_children",
                           "visits", "total", "squares", "top", "size", "marks"])
# The per-thread scratch of a simulation: the state, the legal moves and their codes, the
# nodes of the path, and the sequence from the initial state (length in scratch_len[0]).
Scratch = namedtuple("Scratch", ["state", "moves", "codes", "nodes", "path"])

# The tree's lock: a POSIX spin lock (its threads run one per core and hold it for microseconds;
# a sleeping lock made them wait for the wake-ups), in an int64 array set by pthread_spin_init.
_spin_init = types.ExternalFunction("pthread_spin_init", types.int32(types.CPointer(types.int64), types.int32))
_lock = types.ExternalFunction("pthread_spin_lock", types.int32(types.CPointer(types.int64)))
_unlock = types.ExternalFunction("pthread_spin_unlock", types.int32(types.CPointer(types.int64)))


@njit(cache=True)
def new_lock():
    lock = np.zeros(1, dtype=np.int64)
    _spin_init(lock.ctypes, 0)  # 0: PTHREAD_PROCESS_PRIVATE
    return lock


@njit(cache=True)
def new_tree(domain, capacity):
    """An empty tree (the root alone) of ``capacity`` nodes. ``np.zeros`` leaves the pages of
    a large pool unmapped until nodes are written there."""
    return _empty_tree(capacity, max_moves(domain))


@njit(cache=True)
def _empty_tree(capacity, width):
    """The root alone, in a pool of ``capacity`` nodes whose nodes have at most ``width`` moves."""
    tree = Tree(
        parent=np.zeros(capacity, dtype=np.int64),
        first_child=np.zeros(capacity, dtype=np.int64),
        next_sibling=np.zeros(capacity, dtype=np.int64),
        move=np.zeros(capacity, dtype=np.int64),
        legal_index=np.zeros(capacity, dtype=np.int64),
        n_moves=np.zeros(capacity, dtype=np.int64),
        n_children=np.zeros(capacity, dtype=np.int64),
        visits=np.zeros(capacity),
        total=np.zeros(capacity),
        squares=np.zeros(capacity),
        top=np.zeros(capacity),
        size=np.zeros(2, dtype=np.int64),
        marks=np.zeros(width, dtype=np.int64),
    )
    clear_tree(tree)
    return tree


@njit(cache=True)
def _init_node(tree, node, parent, move, index):
    tree.parent[node] = parent
    tree.first_child[node] = 0
    tree.next_sibling[node] = 0
    tree.move[node] = move
    tree.legal_index[node] = index
    tree.n_moves[node] = 0
    tree.n_children[node] = 0
    tree.visits[node] = 0.0
    tree.total[node] = 0.0
    tree.squares[node] = 0.0
    tree.top[node] = -np.inf


@njit(cache=True)
def clear_tree(tree):
    """The tree becomes the root alone."""
    _init_node(tree, 0, 0, -1, -1)
    tree.size[0] = 1


@njit(cache=True)
def add_child(tree, parent, move, index):
    """A new child of ``parent`` for the legal move ``move`` (index ``index``); -1 when the
    pool is full."""
    node = tree.size[0]
    if node >= tree.parent.size:
        return -1
    tree.size[0] = node + 1
    _init_node(tree, node, parent, move, index)
    tree.next_sibling[node] = tree.first_child[parent]
    tree.first_child[parent] = node
    tree.n_children[parent] += 1
    return node


@njit(cache=True, inline="always")
def _uniform_index(n):
    """floor(u * n) for one draw u of the generator (u < 1; the min guards the rounding)."""
    return min(np.int64(np.random.random() * n), n - 1)


@njit(cache=True)
def selection_value(tree, child, log_parent_visits, exploration, variance_bias):
    """SP-MCTS's value of ``child``: mean + C sqrt(ln n_p / n) + sqrt((sum x^2 - n mean^2 + D) / n)."""
    n = tree.visits[child]
    if n == 0.0:  # added by another thread whose simulation has not come back yet
        return np.inf
    mean = tree.total[child] / n
    spread = (tree.squares[child] - n * mean * mean + variance_bias) / n
    return mean + exploration * np.sqrt(log_parent_visits / n) + np.sqrt(max(spread, 0.0))


@njit(cache=True)
def select_child(tree, node, exploration, variance_bias):
    """The child of ``node`` with the highest selection value (the first found on ties:
    children are listed newest first)."""
    log_visits = np.log(tree.visits[node])
    best = -1
    best_value = -np.inf
    child = tree.first_child[node]
    while child != 0:
        value = selection_value(tree, child, log_visits, exploration, variance_bias)
        if best < 0 or value > best_value:
            best = child
            best_value = value
        child = tree.next_sibling[child]
    return best


@njit(cache=True)
def _untried_index(tree, node, n):
    """The index, among the ``n`` legal moves of ``node``, of a move without a child, drawn
    uniformly."""
    marks = tree.marks
    tree.size[1] += 1
    stamp = tree.size[1]
    child = tree.first_child[node]
    while child != 0:
        marks[tree.legal_index[child]] = stamp
        child = tree.next_sibling[child]
    r = _uniform_index(n - tree.n_children[node])
    for j in range(n):
        if marks[j] != stamp:
            if r == 0:
                return j
            r -= 1
    return -1  # unreachable: fewer children than moves


@njit(cache=True)
def descend(domain, tree, root, root_state, depth, scratch, params):
    """Selection and expansion from ``root`` (whose state is ``root_state``, reached by
    ``scratch.path[:depth]``): leaves the state of the path's last node in ``scratch.state``,
    its nodes in ``scratch.nodes``, its moves after ``scratch.path[:depth]``; returns (nodes on
    the path, length of the sequence)."""
    state = scratch.state
    moves = scratch.moves
    codes = scratch.codes
    nodes = scratch.nodes
    path = scratch.path
    copy_state(domain, root_state, state)
    node = root
    nodes[0] = node
    count = 1
    while True:
        known = tree.n_moves[node]
        if known == 0 or tree.n_children[node] < known - 1:  # a move without a child, or not known yet
            n = legal_moves(domain, state, moves, codes)
            tree.n_moves[node] = n + 1
            if n == 0:
                break
            if tree.n_children[node] < n:
                index = _untried_index(tree, node, n)
                child = add_child(tree, node, moves[index], index)
                if child >= 0:
                    play(domain, state, moves[index])
                    path[depth] = moves[index]
                    depth += 1
                    nodes[count] = child
                    count += 1
                break
        elif known == 1:  # terminal
            break
        child = select_child(tree, node, params.exploration, params.variance_bias)
        play(domain, state, tree.move[child])
        path[depth] = tree.move[child]
        depth += 1
        nodes[count] = child
        count += 1
        node = child
    return count, depth


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
        move = moves[_uniform_index(n)]
        path[depth] = move
        depth += 1
        play(domain, state, move)
    value = score(domain, state)
    end_playout(run, value, path, depth)
    return value


@njit(cache=True)
def backpropagate(tree, nodes, count, value):
    for i in range(count):
        node = nodes[i]
        tree.visits[node] += 1.0
        tree.total[node] += value
        tree.squares[node] += value * value
        if value > tree.top[node]:
            tree.top[node] = value


@njit(cache=True)
def simulate(domain, tree, root, root_state, depth, scratch, run, params):
    """One SP-MCTS simulation from ``root``: select, expand one node, play out, back-propagate."""
    count, length = descend(domain, tree, root, root_state, depth, scratch, params)
    value = playout(domain, scratch, length, run)
    backpropagate(tree, scratch.nodes, count, value)
    return value


@njit(cache=True)
def best_move_child(tree, node):
    """The child of ``node`` with the best top score (the first found on ties); -1: none."""
    best = -1
    child = tree.first_child[node]
    while child != 0:
        if tree.visits[child] > 0 and (best < 0 or tree.top[child] > tree.top[best]):
            best = child
        child = tree.next_sibling[child]
    return best


@njit(cache=True)
def new_scratch(domain):
    length = max_length(domain)
    width = max_moves(domain)
    return Scratch(state=new_state(domain), moves=np.zeros(width, dtype=np.int64),
                   codes=np.zeros(width, dtype=np.int64), nodes=np.zeros(length + 1, dtype=np.int64),
                   path=np.zeros(length, dtype=np.int64))


@njit(cache=True)
def _root_is_terminal(domain, tree, root, root_state, scratch):
    if tree.n_moves[root] == 0:
        tree.n_moves[root] = legal_moves(domain, root_state, scratch.moves, scratch.codes) + 1
    return tree.n_moves[root] == 1


@njit(cache=True)
def _advance_root(domain, tree, root, root_state, depth, scratch):
    """Play the root's child with the best top score: (the new root, its depth), or (-1, depth)
    when the root has no visited child."""
    child = best_move_child(tree, root)
    if child < 0:
        return -1, depth
    play(domain, root_state, tree.move[child])
    scratch.path[depth] = tree.move[child]
    return child, depth + 1


@njit(cache=True)
def play_game(domain, tree, root_state, scratch, run, params):
    """One SP-MCTS game from the initial state on a fresh tree, sequentially; ends at a
    terminal root, or with the budget."""
    clear_tree(tree)
    reset(domain, root_state)
    root = 0
    depth = 0
    per_move = params.simulations_per_move
    while not _root_is_terminal(domain, tree, root, root_state, scratch):
        done = 0
        while per_move <= 0 or done < per_move:
            simulate(domain, tree, root, root_state, depth, scratch, run, params)
            done += 1
            if run.counters[STOP]:
                return
        root, depth = _advance_root(domain, tree, root, root_state, depth, scratch)
        if root < 0:
            return


@njit(cache=True)
def spmcts_search(domain, params):
    """SP-MCTS until the budget (``nrpa.run``'s contract and result)."""
    np.random.seed(params.seed)
    run = new_run(domain, params)
    tree = new_tree(domain, params.tree_capacity)
    root_state = new_state(domain)
    scratch = new_scratch(domain)
    start_clocks(run)
    while True:
        play_game(domain, tree, root_state, scratch, run, params)
        if not go_on(run, params):
            break
    return result(run)


# ---------------------------------------------------------------------------------------
# Multi-core: M threads, one tree, one lock.


@njit(cache=True)
def _locked_simulation(domain, tree, root, root_state, depth, scratch, run, params, lock):
    """``simulate`` on a tree that other threads change: the lock is held to walk the tree
    (selection), to add the new node and to back-propagate; the moves are played, the new
    node's legal moves computed and the playout run outside it. A node another thread
    expanded fully in between is where the playout starts."""
    nodes = scratch.nodes
    path = scratch.path
    state = scratch.state
    _lock(lock.ctypes)
    node = root
    nodes[0] = node
    count = 1
    length = depth
    while tree.n_moves[node] > 1 and tree.n_children[node] == tree.n_moves[node] - 1:
        node = select_child(tree, node, params.exploration, params.variance_bias)
        nodes[count] = node
        count += 1
        path[length] = tree.move[node]
        length += 1
    _unlock(lock.ctypes)
    copy_state(domain, root_state, state)
    for t in range(depth, length):
        play(domain, state, path[t])
    if tree.n_moves[node] != 1:  # not known to be terminal: maybe a move without a child
        n = legal_moves(domain, state, scratch.moves, scratch.codes)
        _lock(lock.ctypes)
        tree.n_moves[node] = n + 1
        child = -1
        if tree.n_children[node] < n:
            index = _untried_index(tree, node, n)
            child = add_child(tree, node, scratch.moves[index], index)
        _unlock(lock.ctypes)
        if child >= 0:
            play(domain, state, tree.move[child])
            path[length] = tree.move[child]
            length += 1
            nodes[count] = child
            count += 1
    value = playout(domain, scratch, length, run)
    _lock(lock.ctypes)
    backpropagate(tree, scratch.nodes, count, value)
    _unlock(lock.ctypes)


@njit(cache=True, parallel=True)
def _shared_section(domain, tree, root, root_state, depth, scratches, runs, seeds, params, lock, share):
    for k in prange(params.threads):
        i = np.int64(k)  # prange counts in uint64; typed List indices are int64
        np.random.seed(seeds[i])
        scratch = scratches[i]
        thread_run = runs[i]
        done = 0
        while share <= 0 or done < share:
            _locked_simulation(domain, tree, root, root_state, depth, scratch, thread_run, params, lock)
            done += 1
            if thread_run.counters[STOP]:
                break


@njit(cache=True)
def _new_scratches(domain, threads):
    scratches = List()
    for _ in range(threads):
        scratches.append(new_scratch(domain))
    return scratches


@njit(cache=True)
def shared_tree_search(domain, params):
    """Gelly's multi-core SP-MCTS: ``params.threads`` threads on one tree (see the module
    docstring). With one thread it is ``spmcts_search`` for the same seed."""
    if params.threads == 1:
        return spmcts_search(domain, params)
    np.random.seed(params.seed)
    threads = params.threads
    run = new_run(domain, params)
    tree = new_tree(domain, params.tree_capacity)
    root_state = new_state(domain)
    scratches = _new_scratches(domain, threads)
    runs = new_runs(domain, params, threads)
    seeds = np.zeros(threads, dtype=np.int64)
    lock = new_lock()
    per_move = params.simulations_per_move
    share = max(1, per_move // threads) if per_move > 0 else 0
    start_clocks(run)
    while True:
        clear_tree(tree)
        reset(domain, root_state)
        root = 0
        depth = 0
        while not _root_is_terminal(domain, tree, root, root_state, scratches[0]):
            start_section(run, runs, seeds, threads)
            _shared_section(domain, tree, root, root_state, depth, scratches, runs, seeds, params, lock, share)
            end_section(run, runs, threads)
            if run.counters[STOP]:
                break
            root, depth = _advance_root(domain, tree, root, root_state, depth, scratches[0])
            if root < 0:
                break
            for i in range(1, threads):  # every thread's sequences start with the moves played
                scratches[i].path[:depth] = scratches[0].path[:depth]
        if not go_on(run, params):
            break
    return result(run)


# ---------------------------------------------------------------------------------------
# Cluster: K trees on K threads, averaging the statistics of their top nodes every T0 seconds.


@njit(cache=True, parallel=True)
def _independent_period(domain, trees, roots, root_states, depth, scratches, runs, seeds, params, deadline,
                        done, share):
    """Each thread grows its tree from its root until the wall-clock ``deadline``, the end
    of the budget or (``share`` > 0) its ``share`` of the move's simulations."""
    for k in prange(params.threads):
        i = np.int64(k)
        np.random.seed(seeds[i])
        thread_run = runs[i]
        while elapsed(thread_run, CLOCK_MONOTONIC) < deadline and (share <= 0 or done[i] < share):
            simulate(domain, trees[i], roots[i], root_states[i], depth, scratches[i], thread_run, params)
            done[i] += 1
            if thread_run.counters[STOP]:
                break


@njit(cache=True)
def _find_child(tree, node, move):
    child = tree.first_child[node]
    while child != 0:
        if tree.move[child] == move:
            return child
        child = tree.next_sibling[child]
    return -1


@njit(cache=True)
def share_statistics(trees, roots, share_depth, min_visits):
    """Gelly's averaging over K trees (module docstring): the moves played from the nodes at
    depth <= ``share_depth`` below the roots (``roots[t]``: tree t's) that all trees reach,
    node by node from the roots. Returns the number of nodes averaged."""
    count = len(trees)
    first = trees[0]
    width = first.marks.size
    # An explicit stack of (a node per tree, its depth); every tree has each node pushed.
    capacity = 1024
    stack = np.zeros((capacity, count), dtype=np.int64)
    depths = np.zeros(capacity, dtype=np.int64)
    stack[0] = roots
    top = 1
    candidates = np.zeros((width, count), dtype=np.int64)
    candidate_moves = np.zeros(width, dtype=np.int64)
    candidate_index = np.zeros(width, dtype=np.int64)
    shared = 0
    while top > 0:
        top -= 1
        parents = stack[top].copy()
        depth = depths[top]
        # the moves that some tree has played from this node
        n = 0
        for t in range(count):
            tree = trees[t]
            child = tree.first_child[parents[t]]
            while child != 0:
                move = tree.move[child]
                j = 0
                while j < n and candidate_moves[j] != move:
                    j += 1
                if j == n:
                    candidate_moves[n] = move
                    candidate_index[n] = tree.legal_index[child]
                    candidates[n, :] = -1
                    n += 1
                candidates[j, t] = child
                child = tree.next_sibling[child]
        for j in range(n):
            visits = 0.0
            total = 0.0
            squares = 0.0
            best = -np.inf
            for t in range(count):
                child = candidates[j, t]
                if child >= 0:
                    tree = trees[t]
                    visits += tree.visits[child]
                    total += tree.total[child]
                    squares += tree.squares[child]
                    best = max(best, tree.top[child])
            if visits / count < min_visits:
                continue
            complete = True
            for t in range(count):
                tree = trees[t]
                child = candidates[j, t]
                if child < 0:
                    child = add_child(tree, parents[t], candidate_moves[j], candidate_index[j])
                    candidates[j, t] = child
                if child < 0:  # a full pool: this node is not shared below
                    complete = False
                    continue
                tree.visits[child] = visits / count
                tree.total[child] = total / count
                tree.squares[child] = squares / count
                tree.top[child] = best
            shared += 1
            if complete and depth + 1 <= share_depth and top < capacity:
                stack[top] = candidates[j]
                depths[top] = depth + 1
                top += 1
    return shared


@njit(cache=True)
def _advance_roots(domain, trees, roots, root_states, depth, scratches):
    """Every tree plays the move whose child has the best top score in any tree (a tree
    without that child gets it, empty). Returns the new depth, or -1 when no tree has a
    visited child at its root."""
    best_tree = -1
    best_child = -1
    for t in range(len(trees)):
        child = best_move_child(trees[t], roots[t])
        if child >= 0 and (best_child < 0 or trees[t].top[child] > trees[best_tree].top[best_child]):
            best_tree = t
            best_child = child
    if best_child < 0:
        return -1
    move = trees[best_tree].move[best_child]
    index = trees[best_tree].legal_index[best_child]
    for t in range(len(trees)):
        tree = trees[t]
        child = _find_child(tree, roots[t], move)
        if child < 0:
            child = add_child(tree, roots[t], move, index)
        if child < 0:  # a full pool: this tree searches on from the root's state without a node
            clear_tree(tree)
            child = 0
        roots[t] = child
        play(domain, root_states[t], move)
        scratches[t].path[depth] = move
    return depth + 1


@njit(cache=True)
def averaged_trees_search(domain, params):
    """Gelly's cluster SP-MCTS on threads (module docstring). With one tree it is
    ``spmcts_search`` for the same seed (averaging one tree changes nothing)."""
    if params.threads == 1:
        return spmcts_search(domain, params)
    np.random.seed(params.seed)
    threads = params.threads
    run = new_run(domain, params)
    trees = List()
    root_states = List()
    for _ in range(threads):
        trees.append(new_tree(domain, params.tree_capacity))
        root_states.append(new_state(domain))
    scratches = _new_scratches(domain, threads)
    runs = new_runs(domain, params, threads)
    seeds = np.zeros(threads, dtype=np.int64)
    roots = np.zeros(threads, dtype=np.int64)
    done = np.zeros(threads, dtype=np.int64)
    per_move = params.simulations_per_move
    share = max(1, per_move // threads) if per_move > 0 else 0
    start_clocks(run)
    period = 1
    while True:  # a game: fresh trees from the initial state
        depth = 0
        for t in range(threads):
            clear_tree(trees[t])
            reset(domain, root_states[t])
            roots[t] = 0
        while not _root_is_terminal(domain, trees[0], roots[0], root_states[0], scratches[0]):
            done[:] = 0
            while True:  # periods of T0 seconds, cut short by the end of the move's simulations
                start_section(run, runs, seeds, threads)
                _independent_period(domain, trees, roots, root_states, depth, scratches, runs, seeds, params,
                                    period * params.average_every, done, share)
                end_section(run, runs, threads)
                if run.counters[STOP]:
                    return result(run)
                if elapsed(run, CLOCK_MONOTONIC) >= period * params.average_every:
                    period = np.int64(elapsed(run, CLOCK_MONOTONIC) / params.average_every) + 1
                share_statistics(trees, roots, params.share_depth, params.share_min_visits)
                if share > 0 and done.min() >= share:
                    break
            depth = _advance_roots(domain, trees, roots, root_states, depth, scratches)
            if depth < 0:
                break
        if not go_on(run, params):
            break
    return result(run)


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
    keeps answering while the tree grows.)"""
    run = member.run
    while elapsed(run, CLOCK_MONOTONIC) < deadline and not run.counters[STOP]:
        simulate(domain, member.tree, 0, member.root_state, 0, member.scratch, run, params)
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
    top = _empty_tree(count + room, tree.marks.size)
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
            target = _find_child(tree, into[node], top.move[child])
            if target < 0:
                target = add_child(tree, into[node], top.move[child], top.legal_index[child])
            into[child] = target
            if target >= 0:
                _copy_statistics(top, child, tree, target)
            child = top.next_sibling[child]
