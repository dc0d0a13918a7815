"""Leaf and node parallel NRPA on threads (Negrevergne & Cazenave 2017), in one process.

A parallel level L (1 <= L <= the top level) and M threads; the levels above L are NRPA's.

* Shared policy (the paper's Algorithm 4): a level-L call runs N / M rounds; in a round, M
  level-(L-1) calls run at once, all starting from the level's current policy (a level-0
  call is one playout, reading the level's policy where it lies, shared in memory); the
  level keeps the best of the round's sequences (on ``>=``, ties to the lowest thread) and
  adapts toward it with step alpha * M (the paper's alpha = M; GNRPA's step times M).
* Thread-local policy (Algorithm 5): a level-L call runs M level-L searches at once, each on
  its own copy of the caller's policy with N / M iterations at level L (N below); the call
  returns the best thread's sequence and hands its local policy back: the caller's policy
  (row L + 1, passed "by reference") becomes the best thread's before the caller adapts it
  toward its best sequence ("policy-ref <- policy_max /* Update parent policy */"). The best
  thread: the highest score, the lowest thread on a tie.

Leaf parallelisation is L = 1, node parallelisation any higher L. With M = 1 both run the
sequential code on the caller's random stream, so they give the sequential run for the
same seed (one thread hands no policy back, as in the authors' code, which makes the
parallel call only with more than one thread: Figure 4's 1-thread points are the
sequential NRPA; docs/readings.md). With M > 1 the caller draws one seed per thread and
round from its stream, and one it reseeds its own stream with after the round; each thread
seeds its own numba generator (numba keeps one per OS thread, and the threading layer may
run a thread's share on the caller's), so a run depends on the seed only, not on how the
threads are scheduled (when it runs to the end of its top level: a time budget stops
threads wherever they are).

Each thread counts its playouts and traces its own improvements in its own ``Run``; after
each parallel section the parent merges them in time order into the run's trace. A merged
entry's playout count is the count before the section plus M times the thread's own count
then (exact when the threads keep the same pace, as they do on average). Parallel runs use
a wall-clock budget, checked by every thread after every playout; a playout budget is
shared out equally among the threads of a section.

The levels above L run ``nrpa.nested.nrpa_until``, which hands each level-L call to
``_parallel_level`` here.
"""

import numpy as np
from numba import njit, prange
from numba.typed import List

from nrpa import policy as pol
from nrpa.domains.contract import code_bound
from nrpa.nested import (
    ENDED, _new_workspace, _policy_playout, adapt_step, begin_call, copy_sequence, end_bottom_call, keep_then_adapt,
    new_call, nrpa, nrpa_until,
)
from nrpa.run import end_section, go_on, new_run, new_runs, result, start_clocks, start_section

STRATEGIES = {"shared": 0, "thread_local": 1}
SHARED, THREAD_LOCAL = 0, 1


@njit(cache=True)
def _new_threads(domain, params, threads, levels):
    """One workspace, policy table and run per thread, allocated once per search."""
    workspaces = List()
    policies = List()
    for _ in range(threads):
        workspaces.append(_new_workspace(domain, levels, params))
        policies.append(pol.new_policy(levels, params.policy_capacity_bits, code_bound(domain)))
    return workspaces, policies, new_runs(domain, params, threads)


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
    that row straight into their own tables, and the best thread's table goes back into it
    (M > 1); the other cases copy it into row L first, as ``nrpa_until``'s levels do."""
    level = params.parallel_level
    threads = params.threads
    if params.strategy == THREAD_LOCAL and threads > 1:
        start_section(run, runs, seeds, threads)
        _thread_local_searches(domain, policy, params, source_row, level, workspaces, policies, runs, seeds,
                               values)
        end_section(run, runs, seeds, threads)
        best = _best_thread(values, threads)
        copy_sequence(workspaces[best], level, ws, level)
        # Algorithm 5's hand-back: the caller's policy becomes the best thread's local
        # policy (at the top level, row L itself: nothing reads it before the restart clears it).
        pol.copy_row_to(policies[best], level, policy, source_row)
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
            start_section(run, runs, seeds, threads)
            _shared_round(domain, policy, params, level, workspaces, policies, runs, seeds, values)
            end_section(run, runs, seeds, threads)
            chosen = _best_thread(values, threads)
            copy_sequence(workspaces[chosen], level - 1, ws, level - 1)
            value = values[chosen]
        if keep_then_adapt(ws, policy, run, best, level, value, adapt_step(params) * threads, True):
            break
    return best[level]


@njit(cache=True, nogil=True)  # nrpa.interrupt runs it in a thread of its own
def leaf_node_search(domain, params):
    """``nrpa.nested.nrpa_search`` for the parallel NRPA: the same budget, restarts and
    result; the level ``params.parallel_level`` calls run on ``params.threads`` threads."""
    np.random.seed(params.seed)
    level = params.level
    run = new_run(domain, params)
    ws = _new_workspace(domain, level, params)
    policy = pol.new_policy(level, params.policy_capacity_bits, code_bound(domain))
    call = new_call(level)
    thread_levels = params.parallel_level if params.strategy == THREAD_LOCAL else params.parallel_level - 1
    # (one set even for M = 1, which does not use it: numba cannot type an empty List)
    workspaces, policies, runs = _new_threads(domain, params, params.threads, max(thread_levels, 1))
    seeds = np.zeros(params.threads + 1, dtype=np.int64)  # + the caller's (run.start_section)
    values = np.zeros(params.threads)
    start_clocks(run)
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
