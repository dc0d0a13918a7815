"""SP-MCTS's tree: its arrays, the selection value, the one descent (selection and expansion)
of every SP-MCTS search, back-propagation, the best move, the lock of a tree that threads
share, and the averaging of the statistics that Gelly et al.'s trees share. The searches are
nrpa/spmcts.py (sequential, and the game loop) and nrpa/spmcts_parallel.py (Gelly's two
parallelisations); the module docstring of nrpa/spmcts.py says where our reading comes from.

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
* **Back-propagation.** Every node of the path adds 1 to its visits, the score of the whole
  sequence (from the initial state) to its sum and its square to its sum of squares, and
  keeps the best score seen through it ("top score").

The tree lives in preallocated arrays (``tree_capacity`` nodes, node 0 the root); children
are a linked list (first child, next sibling), each child keeping the index of its move in
its parent's ``legal_moves`` list, which is the same list every time (the order of
``legal_moves`` is deterministic for a state). When the pool is full no node is added: a
simulation plays out from the first node that would have grown one.
"""

from collections import namedtuple

import numpy as np
from numba import njit, types

from nrpa.domains.contract import copy_state, legal_moves, max_length, max_moves, new_state, play

# Per node: parent; first_child and next_sibling (0: none; node 0, the root, is nobody's
# child); the move from the parent and its index in the parent's legal moves; n_moves: the
# number of legal moves + 1 (0: not computed yet); children; visits (float: the cluster
# version averages them), sum and sum of squares of the scores, top score. size[0]: nodes in
# use; size[1]: the stamp of ``marks`` (which legal moves of a node have children).
Tree = namedtuple("Tree", ["parent", "first_child", "next_sibling", "move", "legal_index", "n_moves", "n_children",
                           "visits", "total", "squares", "top", "size", "marks"])
# The per-thread scratch of a simulation: the state, the legal moves and their codes, the
# nodes of the path, and the sequence from the initial state.
Scratch = namedtuple("Scratch", ["state", "moves", "codes", "nodes", "path"])

# The lock of a tree that threads share: a POSIX spin lock (its threads run one per core and
# hold it for microseconds; a sleeping lock made them wait for the wake-ups), in an int64 array
# set by pthread_spin_init. A tree no other thread touches has an empty array: no lock.
_spin_init = types.ExternalFunction("pthread_spin_init", types.int32(types.CPointer(types.int64), types.int32))
_lock = types.ExternalFunction("pthread_spin_lock", types.int32(types.CPointer(types.int64)))
_unlock = types.ExternalFunction("pthread_spin_unlock", types.int32(types.CPointer(types.int64)))


@njit(cache=True)
def new_lock():
    lock = np.zeros(1, dtype=np.int64)
    _spin_init(lock.ctypes, 0)  # 0: PTHREAD_PROCESS_PRIVATE
    return lock


@njit(cache=True)
def no_lock():
    """The lock of a tree that one thread alone searches: none."""
    return np.zeros(0, dtype=np.int64)


@njit(cache=True, inline="always")
def acquire(lock):
    if lock.size > 0:
        _lock(lock.ctypes)


@njit(cache=True, inline="always")
def release(lock):
    if lock.size > 0:
        _unlock(lock.ctypes)


@njit(cache=True)
def new_tree(domain, capacity):
    """An empty tree (the root alone) of ``capacity`` nodes. ``np.zeros`` leaves the pages of
    a large pool unmapped until nodes are written there."""
    return empty_tree(capacity, max_moves(domain))


@njit(cache=True)
def empty_tree(capacity, width):
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


@njit(cache=True)
def find_child(tree, node, move):
    """The child of ``node`` for ``move``; -1: none."""
    child = tree.first_child[node]
    while child != 0:
        if tree.move[child] == move:
            return child
        child = tree.next_sibling[child]
    return -1


@njit(cache=True, inline="always")
def uniform_index(n):
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
def _untried_index(tree, node, moves, n):
    """The index, among the ``n`` legal moves ``moves`` of ``node``, of a move without a
    child, drawn uniformly; -1 when every move has one.

    A child's ``legal_index`` is where its move stood in the list it was made from, and the
    list of the same state can come in another order: a domain may list its moves in an
    order that depends on how the state was reached (SameGame's group records), and the
    averaged trees add a child with the index from another tree's list. So each child's
    index is checked against ``moves`` and, where its move stands elsewhere, repaired: a move
    that has a child is never drawn again (a tree never holds one move twice)."""
    marks = tree.marks
    tree.size[1] += 1
    stamp = tree.size[1]
    tried = 0
    child = tree.first_child[node]
    while child != 0:
        j = tree.legal_index[child]
        if j < 0 or j >= n or moves[j] != tree.move[child]:
            j = 0
            while j < n and moves[j] != tree.move[child]:
                j += 1
            tree.legal_index[child] = j
        if j < n and marks[j] != stamp:
            marks[j] = stamp
            tried += 1
        child = tree.next_sibling[child]
    if tried >= n:
        return -1
    r = uniform_index(n - tried)
    for j in range(n):
        if marks[j] != stamp:
            if r == 0:
                return j
            r -= 1
    return -1  # unreachable: tried < n moves are marked


@njit(cache=True, inline="always")
def descend(domain, tree, root, root_state, depth, scratch, params, lock):
    """Selection and expansion from ``root`` (whose state is ``root_state``, reached by
    ``scratch.path[:depth]``): leaves the state of the path's last node in ``scratch.state``,
    its nodes in ``scratch.nodes``, its moves after ``scratch.path[:depth]``; returns (nodes on
    the path, length of the sequence).

    With a ``lock`` (threads share the tree) it is held to walk the tree (selection) and to
    add the new node, and the moves are played and the new node's legal moves computed outside
    it; a node that another thread expanded fully in between is where the playout starts
    (without a lock the selection goes on from it)."""
    state = scratch.state
    nodes = scratch.nodes
    path = scratch.path
    shared = lock.size > 0
    copy_state(domain, root_state, state)
    node = root
    nodes[0] = node
    count = 1
    while True:
        played = depth
        acquire(lock)
        while tree.n_moves[node] > 1 and tree.n_children[node] >= tree.n_moves[node] - 1:  # every move a child
            node = select_child(tree, node, params.exploration, params.variance_bias)
            nodes[count] = node
            count += 1
            path[depth] = tree.move[node]
            depth += 1
        release(lock)
        for t in range(played, depth):
            play(domain, state, path[t])
        if tree.n_moves[node] == 1:  # terminal
            break
        # a move without a child, or the moves not known yet
        n = legal_moves(domain, state, scratch.moves, scratch.codes)
        acquire(lock)
        tree.n_moves[node] = n + 1
        child = -1
        index = _untried_index(tree, node, scratch.moves, n) if tree.n_children[node] < n else -1
        expands = index >= 0
        if expands:
            child = add_child(tree, node, scratch.moves[index], index)
        release(lock)
        if child >= 0:
            play(domain, state, tree.move[child])
            path[depth] = tree.move[child]
            depth += 1
            nodes[count] = child
            count += 1
        if expands or n == 0 or shared:
            break
    return count, depth


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


# ---------------------------------------------------------------------------------------
# Gelly's averaging of K trees (nrpa/spmcts_parallel.py): the threads' trees, or the tops of
# the trees that the machines of the cluster version send.


@njit(cache=True)
def share_statistics(trees, roots, share_depth, min_visits):
    """Gelly's averaging over K trees (nrpa/spmcts_parallel.py): the moves played from the
    nodes at depth <= ``share_depth`` below the roots (``roots[t]``: tree t's) that all trees
    reach, node by node from the roots. Returns the number of nodes averaged."""
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
