"""Leaf and node parallel NRPA on threads (Negrevergne & Cazenave 2017), in one process.

A parallel level L (1 <= L <= the top level) and M threads; the levels above L are NRPA's.

* Shared policy (the paper's Algorithm 4): a level-L call runs N / M rounds; in a round, M
  level-(L-1) calls run at once, all starting from the level's current policy (a level-0
  call is one playout, reading the level's policy where it lies, shared in memory); the
  level keeps the best of the round's sequences (on ``>=``, ties to the lowest thread) and
  adapts toward it with step alpha * M (the paper's alpha = M; GNRPA's step times M).
* Thread-local policy (Algorithm 5): a level-L call runs M level-L searches at once, each on
  its own copy of the policy with N / M iterations at level L (N below); the call returns the
  best thread's sequence (its policy, which the paper hands back too, is never read: the
  caller starts its next call from a fresh copy of its own policy).

Leaf parallelisation is L = 1, node parallelisation any higher L. With M = 1 both run the
sequential code on the caller's random stream, so they give the sequential run for the
same seed. With M > 1 the caller draws one seed per thread and round from its stream and
each thread seeds its own numba generator (numba keeps one per thread), so a run depends on
the seed only, not on how the threads are scheduled (when it runs to the end of its top
level: a time budget stops threads wherever they are).

Each thread counts its playouts and traces its own improvements in its own ``Run``; after
each parallel section the parent merges them in time order into the run's trace. A merged
entry's playout count is the count before the section plus M times the thread's own count
then (exact when the threads keep the same pace, as they do on average). Parallel runs use
a wall-clock budget, checked by every thread after every playout; a playout budget is
shared out equally among the threads of a section.

The levels above L run ``nrpa.algorithms.nrpa_until``, which hands each level-L call to
``_parallel_level`` here.
"""

import numpy as np
from numba import njit, prange
from numba.typed import List

from nrpa import policy as pol
from nrpa.algorithms import (
    BEST_LEN, ENDED, MAX_PLAYOUTS, PLAYOUTS, STOP, TRACE_LEN, _new_run, _new_workspace, _policy_playout,
    _start_clocks, adapt_step, begin_call, copy_sequence, end_bottom_call, go_on, keep_then_adapt, new_call, nrpa,
    nrpa_until, result,
)

STRATEGIES = {"shared": 0, "thread_local": 1}
SHARED, THREAD_LOCAL = 0, 1
SEED_LIMIT = 2**31 - 1


@njit(cache=True)
def _new_threads(domain, params, threads, levels):
    """One workspace, policy table and run per thread, allocated once per search."""
    workspaces = List()
    policies = List()
    runs = List()
    for _ in range(threads):
        workspaces.append(_new_workspace(domain, levels, params))
        policies.append(pol.new_policy(levels, params.policy_capacity_bits))
        runs.append(_new_run(domain, params))
    return workspaces, policies, runs


@njit(cache=True)
def _start_section(run, runs, seeds, threads):
    """Draw each thread's seed from the caller's stream; give each thread a fresh run with
    the caller's clocks, its share of the remaining playout budget and the global best, so
    that it traces (and reads the process CPU clock for) only improvements of that."""
    for i in range(threads):
        seeds[i] = np.random.randint(0, SEED_LIMIT)
        thread_run = runs[i]
        thread_run.limits[:] = run.limits
        if run.limits[MAX_PLAYOUTS] > 0:
            left = run.limits[MAX_PLAYOUTS] - run.counters[PLAYOUTS]
            thread_run.limits[MAX_PLAYOUTS] = max(1.0, np.ceil(left / threads))
        thread_run.counters[:] = 0
        thread_run.best_score[0] = run.best_score[0]


@njit(cache=True)
def _end_section(run, runs, threads):
    """Merge the threads' runs into ``run``: playouts, stop flag, every improvement of the
    global best in time order, and the best sequence."""
    before = run.counters[PLAYOUTS]
    entries = 0
    best = 0
    for i in range(threads):
        thread_run = runs[i]
        run.counters[PLAYOUTS] += thread_run.counters[PLAYOUTS]
        if thread_run.counters[STOP]:
            run.counters[STOP] = 1
        if thread_run.best_score[0] > run.best_score[0]:
            entries += thread_run.counters[TRACE_LEN]
        if thread_run.best_score[0] > runs[best].best_score[0]:
            best = i
    if run.limits[MAX_PLAYOUTS] > 0 and run.counters[PLAYOUTS] >= run.limits[MAX_PLAYOUTS]:
        run.counters[STOP] = 1
    if entries == 0:  # no thread beat the global best (most sections): nothing to merge
        return
    wall = np.empty(entries)
    cpu = np.empty(entries)
    playouts = np.empty(entries, dtype=np.int64)
    scores = np.empty(entries)
    k = 0
    for i in range(threads):
        thread_run = runs[i]
        if thread_run.best_score[0] <= run.best_score[0]:
            continue
        for j in range(thread_run.counters[TRACE_LEN]):
            wall[k] = thread_run.trace_wall[j]
            cpu[k] = thread_run.trace_cpu[j]
            playouts[k] = before + threads * thread_run.trace_playouts[j]
            scores[k] = thread_run.trace_score[j]
            k += 1
    for k in np.argsort(wall, kind="mergesort"):
        if scores[k] > run.best_score[0]:
            run.best_score[0] = scores[k]
            i = min(run.counters[TRACE_LEN], run.trace_score.size - 1)
            run.trace_wall[i] = wall[k]
            run.trace_cpu[i] = cpu[k]
            run.trace_playouts[i] = playouts[k]
            run.trace_score[i] = scores[k]
            run.counters[TRACE_LEN] = i + 1
    length = runs[best].counters[BEST_LEN]
    run.best_moves[:length] = runs[best].best_moves[:length]
    run.counters[BEST_LEN] = length


@njit(cache=True)
def _best_thread(values, threads):
    best = 0
    for i in range(1, threads):
        if values[i] > values[best]:
            best = i
    return best


@njit(cache=True, parallel=True)
def _shared_round(domain, policy, params, level, workspaces, policies, runs, seeds, values):
    """M level-(L-1) calls at once from the level-L policy (row ``level`` of ``policy``)."""
    for k in prange(params.threads):
        i = np.int64(k)  # prange counts in uint64; typed List indices are int64
        np.random.seed(seeds[i])
        if level == 1:  # a playout reads the level's policy in place
            values[i] = _policy_playout(domain, workspaces[i], policy, 1, runs[i], params)
        else:
            pol.copy_row_to(policy, level, policies[i], level - 1)
            values[i] = nrpa(domain, workspaces[i], policies[i], runs[i], params, level - 1, params.iterations)


@njit(cache=True, parallel=True)
def _thread_local_searches(domain, policy, params, source_row, level, workspaces, policies, runs, seeds, values):
    """M level-L searches at once, each on its own copy of row ``source_row`` of the policy,
    N / M iterations each at level L."""
    share = max(1, params.iterations // params.threads)
    for k in prange(params.threads):
        i = np.int64(k)  # prange counts in uint64; typed List indices are int64
        np.random.seed(seeds[i])
        pol.copy_row_to(policy, source_row, policies[i], level)
        values[i] = nrpa(domain, workspaces[i], policies[i], runs[i], params, level, share)


@njit(cache=True)
def _parallel_level(domain, ws, policy, run, params, source_row, workspaces, policies, runs, seeds, values):
    """One level-L call (L = ``params.parallel_level``), parallel by ``params.strategy``,
    starting from the policy in row ``source_row`` (the caller's row L + 1, or row L itself
    at the top level); its best sequence ends in ``ws.seq_*[L]``. Thread-local threads copy
    that row straight into their own tables; the other cases copy it into row L first, as
    ``nrpa_until``'s levels do."""
    level = params.parallel_level
    threads = params.threads
    if params.strategy == THREAD_LOCAL and threads > 1:
        _start_section(run, runs, seeds, threads)
        _thread_local_searches(domain, policy, params, source_row, level, workspaces, policies, runs, seeds,
                               values)
        _end_section(run, runs, threads)
        best = _best_thread(values, threads)
        # The best thread's policy is not copied back into row L: the caller never reads the
        # policy of a call it made (the next call starts from a fresh copy of row L + 1), so
        # taking it would change nothing but the time.
        copy_sequence(workspaces[best], level, ws, level)
        return values[best]
    if source_row != level:
        pol.copy_row(policy, source_row, level)
    if params.strategy == THREAD_LOCAL:  # one thread: the sequential call, on the caller's random stream
        return nrpa(domain, ws, policy, run, params, level, params.iterations)
    best = np.full(level + 1, -np.inf)
    for _ in range(max(1, params.iterations // threads)):
        if threads == 1:  # the sequential iteration, on the caller's random stream
            if level == 1:
                value = _policy_playout(domain, ws, policy, 1, run, params)
            else:
                pol.copy_row(policy, level, level - 1)
                value = nrpa(domain, ws, policy, run, params, level - 1, params.iterations)
        else:
            _start_section(run, runs, seeds, threads)
            _shared_round(domain, policy, params, level, workspaces, policies, runs, seeds, values)
            _end_section(run, runs, threads)
            chosen = _best_thread(values, threads)
            copy_sequence(workspaces[chosen], level - 1, ws, level - 1)
            value = values[chosen]
        if keep_then_adapt(ws, policy, run, best, level, value, adapt_step(params) * threads, True):
            break
    return best[level]


@njit(cache=True)
def parallel_search(domain, params):
    """``nrpa.algorithms.search`` for the parallel NRPA: the same budget, restarts and
    result; the level ``params.parallel_level`` calls run on ``params.threads`` threads."""
    np.random.seed(params.seed)
    level = params.level
    run = _new_run(domain, params)
    ws = _new_workspace(domain, level, params)
    policy = pol.new_policy(level, params.policy_capacity_bits)
    call = new_call(level)
    thread_levels = params.parallel_level if params.strategy == THREAD_LOCAL else params.parallel_level - 1
    # (one set even for M = 1, which does not use it: numba cannot type an empty List)
    workspaces, policies, runs = _new_threads(domain, params, params.threads, max(thread_levels, 1))
    seeds = np.zeros(params.threads, dtype=np.int64)
    values = np.zeros(params.threads)
    _start_clocks(run)
    while True:
        pol.clear(policy, level)
        begin_call(call, level, params.iterations, params.parallel_level)
        while True:
            nrpa_until(domain, ws, policy, run, params, call, 0.0)
            if call.cursor[ENDED]:
                break
            source_row = params.level if params.parallel_level == params.level else params.parallel_level + 1
            value = _parallel_level(domain, ws, policy, run, params, source_row, workspaces, policies, runs, seeds,
                                    values)
            end_bottom_call(call, params, value)
        if not go_on(run, params):
            break
    return result(run)
