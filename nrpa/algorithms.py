"""Search kernels over the domain contract: NRPA, Stabilized NRPA and NMCS.

Everything here is nopython code, compiled once per domain type and cached on disk.

* NRPA (Rosin 2011): level 0 is one playout that picks each move with probability
  exp(w[code]) / sum exp(w); level l runs N iterations of level l-1 on a copy of its policy,
  keeps the best sequence (replacing it on ``>=``) and adapts its policy toward it.
* Stabilized NRPA, SNRPA(P) (Cazenave, Sevestre, Toulemont 2020): at level 1 each of the N
  iterations plays P playouts with the same policy, keeps the best (on ``>=``) and only then
  adapts. NRPA is SNRPA(1): both are this one kernel, so SNRPA(1) is NRPA's run exactly.
* NMCS (Cazenave 2009) with uniform playouts: at each step of level l, every move is tried
  with a level l-1 search; the best sequence so far is followed (replaced on ``>``).

A run repeats the top level from a fresh policy until the budget runs out (the papers'
harness did this), keeping the global best. Every improvement of the global best is traced
as (wall seconds, CPU seconds, playouts, score); the budget is checked after each playout.
"""

from collections import namedtuple

import numpy as np
from numba import njit
from numba.typed import List

from nrpa import policy as pol
from nrpa.clock import CLOCK_MONOTONIC, CLOCK_PROCESS_CPUTIME_ID, read_clock
from nrpa.domains.contract import (
    copy_state, legal_moves, max_length, max_moves, new_state, play, reset, score,
)

ALGORITHMS = {"nrpa": 0, "snrpa": 0, "nmcs": 1}  # NRPA is SNRPA with P = 1

# Run.counters slots
PLAYOUTS, STOP, TRACE_LEN, BEST_LEN, RESTARTS = 0, 1, 2, 3, 4
# Run.limits slots
START_WALL, START_CPU, MAX_TIME, MAX_PLAYOUTS, BUDGET_CLOCK = 0, 1, 2, 3, 4

Run = namedtuple(
    "Run",
    ["counters", "limits", "clock_scratch", "best_score", "best_moves", "path",
     "trace_wall", "trace_cpu", "trace_playouts", "trace_score"],
)
Workspace = namedtuple(
    "Workspace",
    # Sequences per level l: seq_moves[l, t] is the t-th move; the codes of every move that
    # was legal at step t are seq_legal[l, seq_starts[l, t] : seq_starts[l, t + 1]], the
    # chosen one at offset seq_chosen[l, t]. Keeping them lets Adapt run without replaying
    # the sequence through the domain (a replay cost as much as the playout itself).
    ["state", "moves", "codes", "probabilities", "seq_moves", "seq_chosen", "seq_legal",
     "seq_starts", "seq_len", "update_slots", "update_deltas"],
)


@njit(cache=True)
def _new_run(domain, clock_id, max_time, max_playouts, trace_capacity):
    length = max_length(domain)
    run = Run(
        counters=np.zeros(5, dtype=np.int64),
        limits=np.zeros(5, dtype=np.float64),
        clock_scratch=np.zeros(2, dtype=np.int64),
        best_score=np.full(1, -np.inf),
        best_moves=np.zeros(length, dtype=np.int64),
        path=np.zeros(length, dtype=np.int64),
        trace_wall=np.zeros(trace_capacity),
        trace_cpu=np.zeros(trace_capacity),
        trace_playouts=np.zeros(trace_capacity, dtype=np.int64),
        trace_score=np.zeros(trace_capacity),
    )
    run.limits[MAX_TIME] = max_time
    run.limits[MAX_PLAYOUTS] = max_playouts
    run.limits[BUDGET_CLOCK] = clock_id
    return run


@njit(cache=True)
def _start_clocks(run):
    run.limits[START_WALL] = read_clock(CLOCK_MONOTONIC, run.clock_scratch)
    run.limits[START_CPU] = read_clock(CLOCK_PROCESS_CPUTIME_ID, run.clock_scratch)


@njit(cache=True)
def _new_workspace(domain, levels):
    length = max_length(domain)
    width = max_moves(domain)
    return Workspace(
        state=new_state(domain),
        moves=np.zeros(width, dtype=np.int64),
        codes=np.zeros(width, dtype=np.int64),
        probabilities=np.zeros(width),
        seq_moves=np.zeros((levels + 1, length), dtype=np.int64),
        seq_chosen=np.zeros((levels + 1, length), dtype=np.int64),
        seq_legal=np.zeros((levels + 1, length * width), dtype=np.int64),
        seq_starts=np.zeros((levels + 1, length + 1), dtype=np.int64),
        seq_len=np.zeros(levels + 1, dtype=np.int64),
        update_slots=np.zeros(length * width, dtype=np.int64),
        update_deltas=np.zeros(length * width),
    )


@njit(cache=True)
def _elapsed(run, clock_id):
    start = run.limits[START_WALL] if clock_id == CLOCK_MONOTONIC else run.limits[START_CPU]
    return read_clock(clock_id, run.clock_scratch) - start


@njit(cache=True)
def _end_playout(run, value, moves, length):
    """Count a finished playout whose full sequence from the initial state is
    ``moves[:length]``; trace it if it beats the global best; check the budget."""
    run.counters[PLAYOUTS] += 1
    if value > run.best_score[0]:
        run.best_score[0] = value
        run.best_moves[:length] = moves[:length]
        run.counters[BEST_LEN] = length
        # A full trace keeps overwriting its last entry, so the final best is always there.
        i = min(run.counters[TRACE_LEN], run.trace_score.size - 1)
        run.trace_wall[i] = _elapsed(run, CLOCK_MONOTONIC)
        run.trace_cpu[i] = _elapsed(run, CLOCK_PROCESS_CPUTIME_ID)
        run.trace_playouts[i] = run.counters[PLAYOUTS]
        run.trace_score[i] = value
        run.counters[TRACE_LEN] = i + 1
    max_playouts = run.limits[MAX_PLAYOUTS]
    if max_playouts > 0 and run.counters[PLAYOUTS] >= max_playouts:
        run.counters[STOP] = 1
    max_time = run.limits[MAX_TIME]
    if max_time > 0 and _elapsed(run, np.int64(run.limits[BUDGET_CLOCK])) >= max_time:
        run.counters[STOP] = 1


@njit(cache=True, inline="always")
def _sample(weights, n):
    """Index drawn with probability weights[i] / sum(weights[:n])."""
    total = 0.0
    for i in range(n):
        total += weights[i]
    threshold = np.random.random() * total
    cumulative = 0.0
    for i in range(n - 1):
        cumulative += weights[i]
        if threshold < cumulative:
            return i
    return n - 1


@njit(cache=True)
def _policy_playout(domain, ws, policy, row, run):
    """One level-0 playout from the initial state with the policy of row ``row``; the
    sequence goes to ``ws.seq_*[0]``. Returns its score."""
    # Array fields are read into locals once: each NamedTuple field read in a loop costs an
    # atomic reference-count update.
    state = ws.state
    moves = ws.moves
    codes = ws.codes
    weights = ws.probabilities
    seq_moves = ws.seq_moves
    seq_chosen = ws.seq_chosen
    seq_legal = ws.seq_legal
    seq_starts = ws.seq_starts
    keys = policy.keys
    exp_weights = policy.exp_weights
    shift = policy.shift
    reset(domain, state)
    length = 0
    offset = 0
    while True:
        n = legal_moves(domain, state, moves, codes)
        if n == 0:
            break
        for i in range(n):
            weights[i] = pol.exp_weight(keys, exp_weights, shift, row, codes[i])
            seq_legal[0, offset + i] = codes[i]
        chosen = _sample(weights, n)
        seq_moves[0, length] = moves[chosen]
        seq_chosen[0, length] = chosen
        seq_starts[0, length] = offset
        offset += n
        length += 1
        play(domain, state, moves[chosen])
    seq_starts[0, length] = offset
    ws.seq_len[0] = length
    value = score(domain, state)
    _end_playout(run, value, seq_moves[0], length)
    return value


@njit(cache=True)
def adapt(ws, policy, row, level, alpha):
    """Rosin's Adapt: move row ``row`` of the policy toward the sequence ``ws.seq_*[level]``.

    For each step, w[chosen] += alpha and w[m] -= alpha * p(m) for every legal m, where every
    p is computed from the weights as they were before this call: all the deltas are
    gathered first and applied afterwards (a code can be legal at many steps)."""
    keys = policy.keys
    weights = policy.weights
    exp_weights = policy.exp_weights
    used = policy.used
    n_used = policy.n_used
    shift = policy.shift
    legal = ws.seq_legal
    starts = ws.seq_starts
    chosen = ws.seq_chosen
    slots = ws.update_slots
    deltas = ws.update_deltas
    length = ws.seq_len[level]
    for t in range(length):
        first = starts[level, t]
        last = starts[level, t + 1]
        total = 0.0
        for j in range(first, last):
            slot = pol.slot_for(keys, weights, exp_weights, used, n_used, shift, row, legal[level, j])
            slots[j] = slot
            total += exp_weights[row, slot]
        for j in range(first, last):
            deltas[j] = -alpha * exp_weights[row, slots[j]] / total
        deltas[first + chosen[level, t]] += alpha
    for j in range(starts[level, length]):
        weights[row, slots[j]] += deltas[j]
    for j in range(starts[level, length]):
        exp_weights[row, slots[j]] = np.exp(weights[row, slots[j]])


@njit(cache=True)
def _keep_sequence(ws, source, target):
    length = ws.seq_len[source]
    n_codes = ws.seq_starts[source, length]
    ws.seq_moves[target, :length] = ws.seq_moves[source, :length]
    ws.seq_chosen[target, :length] = ws.seq_chosen[source, :length]
    ws.seq_starts[target, : length + 1] = ws.seq_starts[source, : length + 1]
    ws.seq_legal[target, :n_codes] = ws.seq_legal[source, :n_codes]
    ws.seq_len[target] = length


@njit(cache=True)
def _level_one(domain, ws, policy, run, iterations, playouts_per_step, alpha):
    """One level-1 call on policy row 1: N iterations of P playouts, each iteration keeping
    the best sequence (on ``>=``) in ``ws.seq_*[1]`` and then adapting toward it."""
    best = -np.inf
    for _ in range(iterations):
        for _ in range(playouts_per_step):
            value = _policy_playout(domain, ws, policy, 1, run)
            if value >= best:
                best = value
                _keep_sequence(ws, 0, 1)
            if run.counters[STOP]:
                return best
        adapt(ws, policy, 1, 1, alpha)
    return best


@njit(cache=True)
def nrpa(domain, ws, policy, run, top, iterations, top_iterations, playouts_per_step, alpha):
    """One (S)NRPA call at level ``top`` >= 1 on policy row ``top``, running
    ``top_iterations`` iterations at the top level and ``iterations`` below (the same N,
    except in the thread-local parallel search); its best sequence ends in ``ws.seq_*[top]``.
    Returns the best score (``-inf`` if stopped before any).

    Written as a loop over an explicit stack of levels because numba does not reliably
    link self-recursive functions loaded from its cache. Level l >= 2 runs N times: copy
    row l into row l-1, run level l-1, keep its sequence if its score is >= the best, adapt
    row l toward the best sequence."""
    if top == 1:
        return _level_one(domain, ws, policy, run, top_iterations, playouts_per_step, alpha)
    best = np.full(top + 1, -np.inf)
    done = np.zeros(top + 1, dtype=np.int64)  # iterations finished at each level
    level = top
    while True:
        if done[level] < (top_iterations if level == top else iterations):
            pol.copy_row(policy, level, level - 1)
            if level > 2:
                level -= 1  # enter the child level
                best[level] = -np.inf
                done[level] = 0
                continue
            value = _level_one(domain, ws, policy, run, iterations, playouts_per_step, alpha)
        else:
            if level == top:
                return best[top]
            value = best[level]  # the child level ended: hand its result to its parent
            level += 1
        if value >= best[level]:
            best[level] = value
            _keep_sequence(ws, level - 1, level)
        if run.counters[STOP]:
            return best[top]
        adapt(ws, policy, level, level, alpha)
        done[level] += 1


@njit(cache=True)
def _uniform_playout(domain, state, ws, run, depth):
    """Uniform random playout from ``state`` (which it consumes), whose first ``depth``
    moves from the initial state are ``run.path[:depth]``. Returns (score, total length)."""
    length = depth
    while True:
        n = legal_moves(domain, state, ws.moves, ws.codes)
        if n == 0:
            break
        move = ws.moves[np.random.randint(0, n)]
        run.path[length] = move
        length += 1
        play(domain, state, move)
    value = score(domain, state)
    _end_playout(run, value, run.path, length)
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
def nmcs(domain, root, ws, run, top, best_paths):
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
                _end_playout(run, best[level], best_paths[level], d)
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
            value, length = _uniform_playout(domain, child, ws, run, d + 1)
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


@njit(cache=True)
def search(domain, algorithm, level, iterations, playouts_per_step, alpha, seed,
           budget_clock, max_time, max_playouts, restart, policy_capacity_bits, trace_capacity):
    """Run one search until the budget (``max_time`` seconds on ``budget_clock``, or
    ``max_playouts``; a value <= 0 means no limit of that kind) or, with ``restart`` false,
    until the top level ends. Returns (best score, best moves, trace arrays, counters)."""
    np.random.seed(seed)  # numba's generator is seeded only from nopython code
    run = _new_run(domain, budget_clock, max_time, max_playouts, trace_capacity)
    ws = _new_workspace(domain, max(level, 1))
    policy = pol.new_policy(max(level, 1), policy_capacity_bits)
    best_paths = np.zeros((max(level, 1) + 1, max_length(domain)), dtype=np.int64)
    root = new_state(domain)
    # The clocks start after every allocation: zeroing large policy tables takes tens of
    # milliseconds, which would otherwise leave the 0.01 s checkpoint empty.
    _start_clocks(run)
    while True:
        if algorithm == 0 and level == 0:
            _policy_playout(domain, ws, policy, 1, run)  # row 1 is never adapted: uniform
        elif algorithm == 0:
            pol.clear(policy, level)
            nrpa(domain, ws, policy, run, level, iterations, iterations, playouts_per_step, alpha)
        elif level == 0:
            reset(domain, root)
            _uniform_playout(domain, root, ws, run, 0)
        else:
            reset(domain, root)
            nmcs(domain, root, ws, run, level, best_paths)
        if run.counters[STOP] or not restart:
            break
        run.counters[RESTARTS] += 1
    return result(run)


@njit(cache=True)
def result(run):
    """What a search returns: (best score, best moves, trace wall, CPU, playouts and score
    arrays, playouts, restarts, wall seconds, CPU seconds)."""
    wall = _elapsed(run, CLOCK_MONOTONIC)
    cpu = _elapsed(run, CLOCK_PROCESS_CPUTIME_ID)
    n_trace = run.counters[TRACE_LEN]
    return (
        run.best_score[0],
        run.best_moves[: run.counters[BEST_LEN]].copy(),
        run.trace_wall[:n_trace].copy(),
        run.trace_cpu[:n_trace].copy(),
        run.trace_playouts[:n_trace].copy(),
        run.trace_score[:n_trace].copy(),
        run.counters[PLAYOUTS],
        run.counters[RESTARTS],
        wall,
        cpu,
    )
