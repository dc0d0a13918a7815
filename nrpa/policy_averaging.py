"""Root parallel NRPA with periodic policy averaging, on threads (beyond the papers).

Gelly et al. (2008) parallelised Monte-Carlo planning on a cluster by letting independent
searches average their statistics every T seconds. Applied to NRPA: K root searches run as
threads in one process, each an ordinary sequential search (restarts included) on its own
policy; every ``average_every`` wall-seconds they pause between two playouts, the top-level
policies of the K searches are replaced by their average (per move code, a code missing
from a policy counting as weight 0), and every search goes on from where it paused with that
policy. The lower levels keep their own policies until their next copy from the top level.

The searches are paused and resumed exactly: ``nrpa.nested.nrpa_until`` keeps NRPA's
loop state (level, best score and iterations done per level) in arrays, so a search that
pauses and resumes makes the same moves as one that does not. With K = 1 the search runs on the
caller's random stream and averaging one policy changes nothing, so it is the sequential
run for the same seed (tested). With K > 1 each thread draws a seed per period from the
caller's stream; where the pauses fall depends on the clock, so runs are not repeatable.
"""

import numpy as np
from numba import njit, prange
from numba.typed import List

from nrpa import policy as pol
from nrpa.domains.contract import code_bound
from nrpa.leaf_node import _new_threads
from nrpa.nested import ENDED, begin_call, new_call, nrpa_until
from nrpa.run import RESTARTS, STOP, end_section, go_on, new_run, result, start_clocks, start_section


@njit(cache=True)
def start_call(policy, params, call):
    """Begin a top-level call from a fresh policy (as ``search`` does at each restart)."""
    pol.clear(policy, params.level)
    begin_call(call, params.level, params.iterations, 0)


@njit(cache=True)
def _search_until(domain, ws, policy, run, params, call, deadline):
    """One search (restarting its top level when ``params.restart``) until the deadline or its end."""
    while True:
        nrpa_until(domain, ws, policy, run, params, call, deadline)
        if not call.cursor[ENDED] or not go_on(run, params):
            return
        start_call(policy, params, call)


@njit(cache=True)
def _new_calls(searches, level):
    """One NRPA call state per search, made by ``new_call``: a field that ``nrpa.nested.Call``
    gains needs no change here."""
    calls = List()
    for _ in range(searches):
        calls.append(new_call(level))
    return calls


@njit(cache=True)
def _all_ended(calls):
    for call in calls:
        if not call.cursor[ENDED]:
            return False
    return True


@njit(cache=True, parallel=True)
def _period(domain, params, deadline, workspaces, policies, runs, calls, seeds):
    for k in prange(params.threads):
        i = np.int64(k)  # prange counts in uint64; typed List indices are int64
        np.random.seed(seeds[i])
        call = calls[i]
        if not (call.cursor[ENDED] and not params.restart):
            _search_until(domain, workspaces[i], policies[i], runs[i], params, call, deadline)


@njit(cache=True)
def average_top_policies(policies, searches, top, scratch):
    """Row ``top`` of every policy becomes the mean of the K rows ``top`` (row 0 of
    ``scratch`` holds the sum)."""
    pol.clear(scratch, 0)
    keys, weights, exp_weights, used, n_used, multiplier, shift = (
        scratch.keys, scratch.weights, scratch.exp_weights, scratch.used, scratch.n_used, scratch.multiplier,
        scratch.shift)
    for i in range(searches):
        source = policies[i]
        for j in range(source.n_used[top]):
            slot = source.used[top, j]
            target = pol.slot_for(keys, weights, exp_weights, used, n_used, multiplier, shift, 0,
                                  source.keys[top, slot])
            weights[0, target] += source.weights[top, slot] / searches
    for j in range(n_used[0]):
        slot = used[0, j]
        exp_weights[0, slot] = pol.weight_exp(weights[0, slot])
    for i in range(searches):
        pol.copy_row_to(scratch, 0, policies[i], top)


@njit(cache=True, nogil=True)  # nrpa.interrupt runs it in a thread of its own
def policy_averaging_search(domain, params):
    """K = ``params.threads`` root searches averaging their top-level policies every
    ``params.average_every`` wall-seconds; the same result as ``nrpa.nested.nrpa_search``."""
    np.random.seed(params.seed)
    searches, level = params.threads, params.level
    run = new_run(domain, params)
    workspaces, policies, runs = _new_threads(domain, params, searches, level)
    scratch = pol.new_policy(0, params.policy_capacity_bits, code_bound(domain))
    calls = _new_calls(searches, level)
    seeds = np.zeros(searches + 1, dtype=np.int64)  # + the caller's (run.start_section)
    for i in range(searches):
        start_call(policies[i], params, calls[i])
    start_clocks(run)
    period = 0
    while True:
        period += 1
        deadline = period * params.average_every
        if searches == 1:  # on the caller's stream and run: the sequential search
            _search_until(domain, workspaces[0], policies[0], run, params, calls[0], deadline)
        else:
            start_section(run, runs, seeds, searches)
            _period(domain, params, deadline, workspaces, policies, runs, calls, seeds)
            end_section(run, runs, seeds, searches)
            for i in range(searches):  # (each period starts the threads' counters afresh)
                run.counters[RESTARTS] += runs[i].counters[RESTARTS]
        if run.counters[STOP] or (not params.restart and _all_ended(calls)):
            break
        average_top_policies(policies, searches, level, scratch)
    return result(run)
