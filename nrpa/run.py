"""The run record every search kernel shares: its parameters and budget, clocks, counters,
trace of improvements and result, and the threaded sections that merge threads' runs.

A search kernel (``nrpa.nested``, ``nrpa.beam``, ``nrpa.leaf_node``, ``nrpa.policy_averaging``,
``nrpa.spmcts``) takes a domain value and a ``Params`` and returns ``result(run)``. It makes a
``new_run``, starts its clocks with ``start_clocks`` after its allocations, calls
``end_playout`` after each finished playout (which counts it, traces it when it beats the
global best and sets the stop flag when the budget is spent or Ctrl-C asked to stop:
``nrpa.interrupt``), asks ``go_on`` after each
top-level call whether to restart, and returns ``result(run)``. A kernel that runs threads
gives each its own run (``new_runs``) and brackets every parallel section with
``start_section`` and ``end_section``.

Everything here is nopython code, compiled once per domain type and cached on disk.
"""

from collections import namedtuple

import numpy as np
from numba import njit
from numba.typed import List

from nrpa.clock import CLOCK_MONOTONIC, CLOCK_PROCESS_CPUTIME_ID, read_clock
from nrpa.domains.contract import max_length

Params = namedtuple(
    "Params",
    # level; iterations: N; playouts_per_step: P of SNRPA; alpha; temperature: tau of GNRPA;
    # repetitions: R of GNRPA-LR (0: no limit); patience: K of restarting NRPA (0: never
    # restarts a level-1 call's policy); beam: B of Beam NRPA; bias: a kind of
    # ``nrpa.bias`` (NO_BIAS, DOMAIN_BIAS: the domain's ``bias`` function, or TABLE_BIAS:
    # bias_keys and bias_factors, one row of a policy-like hash table of code -> exp(beta),
    # shift bias_shift); strategy, parallel_level, threads, average_every: the parallel
    # searches' (nrpa.leaf_node, nrpa.policy_averaging); seed; budget_clock: a clock id;
    # max_time and max_playouts (<= 0: no limit of that kind); restart; policy_capacity_bits;
    # trace_capacity; SP-MCTS's (nrpa.spmcts): exploration (C), variance_bias (D),
    # simulations_per_move (0: one tree for the whole budget), tree_capacity (nodes),
    # share_depth, share_min_visits and share_every (K, N_min and T0 in simulations of each
    # tree of the averaged trees, nrpa.spmcts_parallel); interrupt: nrpa.interrupt's
    # STOP_REQUEST (one int64, 1 once Ctrl-C asked the run to stop).
    ["level", "iterations", "playouts_per_step", "alpha", "temperature", "repetitions", "patience", "beam", "bias",
     "bias_keys", "bias_factors", "bias_shift", "strategy", "parallel_level", "threads", "average_every", "seed",
     "budget_clock", "max_time", "max_playouts", "restart", "policy_capacity_bits", "trace_capacity",
     "exploration", "variance_bias", "simulations_per_move", "tree_capacity", "share_depth", "share_min_visits",
     "share_every", "interrupt"],
)
SEED_LIMIT = 2**31 - 1  # a thread's seed, drawn from its caller's stream: 0 <= seed < SEED_LIMIT

# Run.counters slots
PLAYOUTS, STOP, TRACE_LEN, BEST_LEN, RESTARTS = 0, 1, 2, 3, 4
# Run.limits slots
START_WALL, START_CPU, MAX_TIME, MAX_PLAYOUTS, BUDGET_CLOCK = 0, 1, 2, 3, 4

Run = namedtuple(
    "Run",
    ["counters", "limits", "clock_scratch", "best_score", "best_moves", "path",
     "trace_wall", "trace_cpu", "trace_playouts", "trace_score", "interrupt"],
)


@njit(cache=True)
def new_run(domain, params):
    length = max_length(domain)
    run = Run(
        counters=np.zeros(5, dtype=np.int64),
        limits=np.zeros(5, dtype=np.float64),
        clock_scratch=np.zeros(2, dtype=np.int64),
        best_score=np.full(1, -np.inf),
        best_moves=np.zeros(length, dtype=np.int64),
        path=np.zeros(length, dtype=np.int64),
        trace_wall=np.zeros(params.trace_capacity),
        trace_cpu=np.zeros(params.trace_capacity),
        trace_playouts=np.zeros(params.trace_capacity, dtype=np.int64),
        trace_score=np.zeros(params.trace_capacity),
        interrupt=params.interrupt,
    )
    run.limits[MAX_TIME] = params.max_time
    run.limits[MAX_PLAYOUTS] = params.max_playouts
    run.limits[BUDGET_CLOCK] = params.budget_clock
    return run


@njit(cache=True)
def new_runs(domain, params, threads):
    """One run per thread, allocated once per search."""
    runs = List()
    for _ in range(threads):
        runs.append(new_run(domain, params))
    return runs


@njit(cache=True)
def start_clocks(run):
    run.limits[START_WALL] = read_clock(CLOCK_MONOTONIC, run.clock_scratch)
    run.limits[START_CPU] = read_clock(CLOCK_PROCESS_CPUTIME_ID, run.clock_scratch)


@njit(cache=True)
def elapsed(run, clock_id):
    return _since(run.limits, run.clock_scratch, clock_id)


@njit(cache=True, inline="always")
def _since(limits, clock_scratch, clock_id):
    """Seconds on ``clock_id`` since the run's clocks started (``elapsed`` on the run's arrays)."""
    start = limits[START_WALL] if clock_id == CLOCK_MONOTONIC else limits[START_CPU]
    return read_clock(clock_id, clock_scratch) - start


@njit(cache=True)
def end_playout(run, value, moves, length):
    """Count a finished playout whose full sequence from the initial state is
    ``moves[:length]``; trace it if it beats the global best; check the budget."""
    # It runs after every playout: the run's arrays are read into locals once and used
    # again in the last statement, so that numba acquires and releases none of them per
    # call (nrpa.domains.contract says why).
    counters = run.counters
    limits = run.limits
    clock_scratch = run.clock_scratch
    best_score = run.best_score
    best_moves = run.best_moves
    trace_wall = run.trace_wall
    trace_cpu = run.trace_cpu
    trace_playouts = run.trace_playouts
    trace_score = run.trace_score
    interrupt = run.interrupt
    counters[PLAYOUTS] += 1
    if value > best_score[0]:
        best_score[0] = value
        for t in range(length):
            best_moves[t] = moves[t]
        counters[BEST_LEN] = length
        # A full trace keeps overwriting its last entry, so the final best is always there.
        i = min(counters[TRACE_LEN], trace_score.size - 1)
        trace_wall[i] = _since(limits, clock_scratch, CLOCK_MONOTONIC)
        trace_cpu[i] = _since(limits, clock_scratch, CLOCK_PROCESS_CPUTIME_ID)
        trace_playouts[i] = counters[PLAYOUTS]
        trace_score[i] = value
        counters[TRACE_LEN] = i + 1
    max_playouts = limits[MAX_PLAYOUTS]
    if max_playouts > 0 and counters[PLAYOUTS] >= max_playouts:
        counters[STOP] = 1
    max_time = limits[MAX_TIME]
    if max_time > 0 and _since(limits, clock_scratch, np.int64(limits[BUDGET_CLOCK])) >= max_time:
        counters[STOP] = 1
    if interrupt[0]:  # Ctrl-C (nrpa.interrupt): the caller drops this run
        counters[STOP] = 1
    counters[PLAYOUTS] += 0 * (limits.size + clock_scratch.size + best_score.size + best_moves.size + trace_wall.size
                               + trace_cpu.size + trace_playouts.size + trace_score.size + interrupt.size
                               + moves.size)


@njit(cache=True, inline="always")
def go_on(run, params):
    """After a top-level call: whether the search starts it again (counting the restart)."""
    if run.counters[STOP] or not params.restart:
        return False
    run.counters[RESTARTS] += 1
    return True


@njit(cache=True)
def result(run):
    """What a search returns: (best score, best moves, trace wall, CPU, playouts and score
    arrays, playouts, restarts, wall seconds, CPU seconds)."""
    wall = elapsed(run, CLOCK_MONOTONIC)
    cpu = elapsed(run, CLOCK_PROCESS_CPUTIME_ID)
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


@njit(cache=True)
def start_section(run, runs, seeds, threads):
    """Draw each thread's seed from the caller's stream, and the seed the caller's stream goes
    on from after the section (``seeds[threads]``: ``seeds`` holds threads + 1); give each
    thread a fresh run with the caller's clocks, its share of the remaining playout budget and
    the global best, so that it traces (and reads the process CPU clock for) only improvements
    of that."""
    for i in range(threads + 1):
        seeds[i] = np.random.randint(0, SEED_LIMIT)
    for i in range(threads):
        thread_run = runs[i]
        thread_run.limits[:] = run.limits
        if run.limits[MAX_PLAYOUTS] > 0:
            left = run.limits[MAX_PLAYOUTS] - run.counters[PLAYOUTS]
            thread_run.limits[MAX_PLAYOUTS] = max(1.0, np.ceil(left / threads))
        thread_run.counters[:] = 0
        thread_run.best_score[0] = run.best_score[0]


@njit(cache=True)
def end_section(run, runs, seeds, threads):
    """Reseed the caller's stream from ``seeds[threads]``; merge the threads' runs into
    ``run``: playouts, stop flag, every improvement of the global best in time order, and the
    best sequence."""
    # numba keeps one generator per OS thread, and the threading layer may run an iteration
    # of the section on the calling thread (which one, and whether, is its scheduler's
    # choice): reseeding makes the caller's next draws depend on the seed alone.
    np.random.seed(seeds[threads])
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
