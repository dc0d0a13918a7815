"""Root parallel NRPA with periodic policy averaging, on threads (beyond the papers).

Gelly et al. (2008) parallelised Monte-Carlo planning on a cluster by letting independent
searches average their statistics every T seconds. Applied to NRPA: K root searches run as
threads in one process, each an ordinary sequential search (restarts included) on its own
policy; every ``average_every`` wall-seconds they pause between two playouts, the top-level
policies of the K searches are replaced by their average (per move code, a code missing
from a policy counting as weight 0), and every search goes on from where it paused with that
policy. The lower levels keep their own policies until their next copy from the top level.

The searches are paused and resumed exactly: ``nrpa_until`` is NRPA with its loop state
(level, best score and iterations done per level) kept in arrays, so a search that pauses
and resumes makes the same moves as one that does not. With K = 1 the search runs on the
caller's random stream and averaging one policy changes nothing, so it is the sequential
run for the same seed (tested). With K > 1 each thread draws a seed per period from the
caller's stream; where the pauses fall depends on the clock, so runs are not repeatable.
"""

import numpy as np
from numba import njit, prange

from nrpa import policy as pol
from nrpa.algorithms import (
    RESTARTS, STOP, _elapsed, _keep_sequence, _new_run, _policy_playout, _start_clocks, adapt,
    result,
)
from nrpa.clock import CLOCK_MONOTONIC
from nrpa.parallel import _end_section, _new_threads, _start_section

# cursor slots: the level being iterated, whether the top-level call has ended
LEVEL, ENDED = 0, 1


@njit(cache=True)
def start_call(policy, top, best, done, cursor):
    """Begin a top-level call from a fresh policy (as ``search`` does at each restart)."""
    pol.clear(policy, top)
    best[:] = -np.inf
    done[:] = 0
    cursor[LEVEL] = top
    cursor[ENDED] = 0


@njit(cache=True)
def nrpa_until(domain, ws, policy, run, top, iterations, alpha, best, done, cursor, deadline):
    """Advance the NRPA call at level ``top`` until it ends (``cursor[ENDED]`` = 1) or, after
    a playout, the wall clock reaches ``deadline`` (> 0; then it can be resumed). The same
    playouts, Adapt calls and sequences as ``nrpa.algorithms.nrpa``."""
    level = cursor[LEVEL]
    while True:
        if level == 1 and done[1] < iterations:
            value = _policy_playout(domain, ws, policy, 1, run)
            if value >= best[1]:
                best[1] = value
                _keep_sequence(ws, 0, 1)
            if run.counters[STOP]:
                cursor[ENDED] = 1
                return
            adapt(ws, policy, 1, 1, alpha)
            done[1] += 1
            if deadline > 0 and _elapsed(run, CLOCK_MONOTONIC) >= deadline:
                cursor[LEVEL] = 1
                return
            continue
        if level > 1 and done[level] < iterations:  # enter a child call
            pol.copy_row(policy, level, level - 1)
            level -= 1
            best[level] = -np.inf
            done[level] = 0
            continue
        if level == top:
            cursor[ENDED] = 1
            return
        value = best[level]  # the child call ended: its parent keeps and adapts
        level += 1
        if value >= best[level]:
            best[level] = value
            _keep_sequence(ws, level - 1, level)
        if run.counters[STOP]:
            cursor[ENDED] = 1
            return
        adapt(ws, policy, level, level, alpha)
        done[level] += 1


@njit(cache=True)
def _search_until(domain, ws, policy, run, top, iterations, alpha, best, done, cursor, deadline, restart):
    """One search (restarting its top level when ``restart``) until the deadline or its end."""
    while True:
        nrpa_until(domain, ws, policy, run, top, iterations, alpha, best, done, cursor, deadline)
        if not cursor[ENDED] or run.counters[STOP]:
            return
        if not restart:
            return
        run.counters[RESTARTS] += 1
        start_call(policy, top, best, done, cursor)


@njit(cache=True, parallel=True)
def _period(domain, top, iterations, alpha, deadline, restart, searches, workspaces, policies, runs, bests,
            dones, cursors, seeds):
    for k in prange(searches):
        i = np.int64(k)  # prange counts in uint64; typed List indices are int64
        np.random.seed(seeds[i])
        if not (cursors[i, ENDED] and not restart):
            _search_until(domain, workspaces[i], policies[i], runs[i], top, iterations, alpha, bests[i],
                          dones[i], cursors[i], deadline, restart)


@njit(cache=True)
def average_top_policies(policies, searches, top, scratch):
    """Row ``top`` of every policy becomes the mean of the K rows ``top`` (row 0 of
    ``scratch`` holds the sum)."""
    pol.clear(scratch, 0)
    keys, weights, exp_weights, used, n_used, shift = (
        scratch.keys, scratch.weights, scratch.exp_weights, scratch.used, scratch.n_used, scratch.shift)
    for i in range(searches):
        source = policies[i]
        for j in range(source.n_used[top]):
            slot = source.used[top, j]
            target = pol.slot_for(keys, weights, exp_weights, used, n_used, shift, 0, source.keys[top, slot])
            weights[0, target] += source.weights[top, slot] / searches
    for j in range(n_used[0]):
        slot = used[0, j]
        exp_weights[0, slot] = np.exp(weights[0, slot])
    for i in range(searches):
        pol.copy_row_to(scratch, 0, policies[i], top)


@njit(cache=True)
def averaged_search(domain, searches, average_every, level, iterations, alpha, seed, budget_clock, max_time,
                    max_playouts, restart, policy_capacity_bits, trace_capacity):
    """K = ``searches`` root searches averaging their top-level policies every
    ``average_every`` wall-seconds; the same result tuple as ``nrpa.algorithms.search``."""
    np.random.seed(seed)
    run = _new_run(domain, budget_clock, max_time, max_playouts, trace_capacity)
    workspaces, policies, runs = _new_threads(domain, searches, level, policy_capacity_bits, budget_clock,
                                              max_time, max_playouts, trace_capacity)
    scratch = pol.new_policy(0, policy_capacity_bits)
    bests = np.full((searches, level + 1), -np.inf)
    dones = np.zeros((searches, level + 1), dtype=np.int64)
    cursors = np.zeros((searches, 2), dtype=np.int64)
    seeds = np.zeros(searches, dtype=np.int64)
    for i in range(searches):
        start_call(policies[i], level, bests[i], dones[i], cursors[i])
    _start_clocks(run)
    period = 0
    while True:
        period += 1
        deadline = period * average_every
        if searches == 1:  # on the caller's stream and run: the sequential search
            _search_until(domain, workspaces[0], policies[0], run, level, iterations, alpha, bests[0], dones[0],
                          cursors[0], deadline, restart)
        else:
            _start_section(run, runs, seeds, searches)
            _period(domain, level, iterations, alpha, deadline, restart, searches, workspaces, policies, runs,
                    bests, dones, cursors, seeds)
            _end_section(run, runs, searches)
            for i in range(searches):  # (each period starts the threads' counters afresh)
                run.counters[RESTARTS] += runs[i].counters[RESTARTS]
        if run.counters[STOP] or (not restart and np.all(cursors[:, ENDED] == 1)):
            break
        average_top_policies(policies, searches, level, scratch)
    return result(run)

