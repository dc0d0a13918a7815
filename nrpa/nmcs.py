"""Nested Monte Carlo Search, NMCS (Cazenave 2009), with uniform playouts: the papers' baseline.

At each step of level l, every legal move is tried with a level l-1 search (a uniform
playout at level 1); the best sequence found so far (replaced on ``>``) is followed one move.
A run repeats the top level until the budget runs out, keeping the global best
(``nrpa.run``: budget, trace, result). Nopython code, compiled once per domain type.
"""

import numpy as np
from numba import njit
from numba.typed import List

from nrpa.domains.contract import copy_state, legal_moves, max_length, max_moves, new_state, play, reset, score
from nrpa.run import STOP, end_playout, go_on, new_run, result, start_clocks


@njit(cache=True)
def _uniform_playout(domain, state, moves, codes, run, depth):
    """Uniform random playout from ``state`` (which it consumes), whose first ``depth``
    moves from the initial state are ``run.path[:depth]``. Returns (score, total length)."""
    length = depth
    while True:
        n = legal_moves(domain, state, moves, codes)
        if n == 0:
            break
        move = moves[np.random.randint(0, n)]
        run.path[length] = move
        length += 1
        play(domain, state, move)
    value = score(domain, state)
    end_playout(run, value, run.path, length)
    return value, length


@njit(cache=True)
def _nmcs_enter(domain, states, moves, codes, n_moves, tried, depth, best, best_len,
                best_paths, run, level, source, at_depth):
    """Start NMCS at ``level`` on a copy of ``source``, reached by ``run.path[:at_depth]``."""
    copy_state(domain, source, states[level])
    depth[level] = at_depth
    best[level] = -np.inf
    best_len[level] = at_depth
    best_paths[level, :at_depth] = run.path[:at_depth]
    n_moves[level] = legal_moves(domain, states[level], moves[level], codes[level])
    tried[level] = 0


@njit(cache=True)
def nmcs(domain, root, playout_moves, playout_codes, run, top, best_paths):
    """NMCS at level ``top`` >= 1 from ``root``. At each step every legal move is tried
    with a level-1 search (a uniform playout at level 1); the best sequence found so far
    (replaced on ``>``) is followed one move. The best full sequence ends in
    ``best_paths[top]``. Returns the best score.

    A loop over an explicit stack of levels, for the same reason as ``nrpa``."""
    width = max_moves(domain)
    states = List()
    for _ in range(top + 1):
        states.append(new_state(domain))
    child = new_state(domain)
    moves = np.zeros((top + 1, width), dtype=np.int64)
    codes = np.zeros((top + 1, width), dtype=np.int64)
    n_moves = np.zeros(top + 1, dtype=np.int64)
    tried = np.zeros(top + 1, dtype=np.int64)
    depth = np.zeros(top + 1, dtype=np.int64)
    best = np.full(top + 1, -np.inf)
    best_len = np.zeros(top + 1, dtype=np.int64)
    _nmcs_enter(domain, states, moves, codes, n_moves, tried, depth, best, best_len,
                best_paths, run, top, root, 0)
    level = top
    while True:
        d = depth[level]
        if n_moves[level] == 0:  # this level's game is over: hand its result to the parent
            if best[level] == -np.inf:  # entered on a terminal state
                best[level] = score(domain, states[level])
                end_playout(run, best[level], best_paths[level], d)
            if level == top:
                return best[top]
            value = best[level]
            length = best_len[level]
            level += 1
            sequence = best_paths[level - 1]
        elif tried[level] < n_moves[level]:
            move = moves[level, tried[level]]
            tried[level] += 1
            copy_state(domain, states[level], child)
            play(domain, child, move)
            run.path[:d] = best_paths[level, :d]
            run.path[d] = move
            if level > 1:
                _nmcs_enter(domain, states, moves, codes, n_moves, tried, depth, best,
                            best_len, best_paths, run, level - 1, child, d + 1)
                level -= 1
                continue
            value, length = _uniform_playout(domain, child, playout_moves, playout_codes, run, d + 1)
            sequence = run.path
        else:  # every move of this step was tried: follow the best sequence one move
            play(domain, states[level], best_paths[level, d])
            depth[level] = d + 1
            n_moves[level] = legal_moves(domain, states[level], moves[level], codes[level])
            tried[level] = 0
            continue
        if value > best[level]:
            best[level] = value
            best_len[level] = length
            best_paths[level, :length] = sequence[:length]
        if run.counters[STOP]:
            return best[top]


@njit(cache=True, nogil=True)  # nrpa.interrupt runs it in a thread of its own
def nmcs_search(domain, params):
    """NMCS until the budget (``params.max_time`` seconds on ``params.budget_clock``, or
    ``params.max_playouts``) or, without ``params.restart``, until the top level ends; level 0
    is repeated uniform playouts. Returns ``result(run)``."""
    np.random.seed(params.seed)
    level = params.level
    run = new_run(domain, params)
    playout_moves = np.zeros(max_moves(domain), dtype=np.int64)
    playout_codes = np.zeros(max_moves(domain), dtype=np.int64)
    best_paths = np.zeros((max(level, 1) + 1, max_length(domain)), dtype=np.int64)
    root = new_state(domain)
    start_clocks(run)
    while True:
        reset(domain, root)
        if level == 0:
            _uniform_playout(domain, root, playout_moves, playout_codes, run, 0)
        else:
            nmcs(domain, root, playout_moves, playout_codes, run, level, best_paths)
        if not go_on(run, params):
            break
    return result(run)
