"""Search kernels over the domain contract: NRPA, Stabilized NRPA and GNRPA (NMCS: ``nrpa.nmcs``).

Everything here is nopython code, compiled once per domain type and cached on disk.

* NRPA (Rosin 2011): level 0 is one playout that picks each move with probability
  exp(w[code]) / sum exp(w); level l runs N iterations of level l-1 on a copy of its policy,
  keeps the best sequence (replacing it on ``>=``) and adapts its policy toward it.
* Stabilized NRPA, SNRPA(P) (Cazenave, Sevestre, Toulemont 2020): at level 1 each of the N
  iterations plays P playouts with the same policy, keeps the best (on ``>=``) and only then
  adapts. NRPA is SNRPA(1): both are this one kernel, so SNRPA(1) is NRPA's run exactly.
* GNRPA (Cazenave 2020): a playout picks move m with probability proportional to
  exp(w[code] / tau + beta_m), beta_m a bias the domain (or a table of codes) gives the move
  in its state, tau a temperature; Adapt follows the gradient of the log-probability of the
  best sequence, w[code(m)] += (alpha / tau) * (delta_bm - p_m). The policy table holds
  v = w / tau, so a playout reads exp(v) as NRPA's does and Adapt steps v by alpha / tau^2.
  With tau = 1 and no bias it is NRPA, operation for operation (tested on whole runs).
* GNRPA with limited repetitions (Cazenave 2024) and restarting NRPA (beyond the papers, the
  worked example of ``docs/howto/add-algorithm.md``): a step of ``nrpa_until`` each, whose
  decision (end the call; go back to the policy the call started from) is in ``nrpa.variants``.

A run repeats the top level from a fresh policy until the budget runs out (the papers'
harness did this), keeping the global best. Every improvement of the global best is traced
as (wall seconds, CPU seconds, playouts, score); the budget is checked after each playout.

The kernels take their hyper-parameters and budget as one ``Params`` NamedTuple (built from
the user's settings by ``nrpa.search.kernel_params``). The NRPA level loop is written once,
in ``nrpa_until``: the sequential search, the leaf and node parallel searches (``nrpa.leaf_node``) and the
averaging root searches (``nrpa.policy_averaging``) all run it. The run record they share
(budget, clocks, trace, result) is ``nrpa.run``'s.
"""

from collections import namedtuple

import numpy as np
from numba import njit

from nrpa import policy as pol
from nrpa.bias import DOMAIN_BIAS, NO_BIAS
from nrpa.clock import CLOCK_MONOTONIC
from nrpa.domains.contract import (
    bias, code_bound, legal_moves, max_length, max_moves, new_state, play, reset, score,
)
from nrpa.run import STOP, elapsed, end_playout, go_on, new_run, result, start_clocks
from nrpa.variants import out_of_patience, repeated

Workspace = namedtuple(
    "Workspace",
    # Sequences per level l: seq_moves[l, t] is the t-th move; the codes of every move that
    # was legal at step t are seq_legal[l, seq_starts[l, t] : seq_starts[l, t + 1]], the
    # chosen one at offset seq_chosen[l, t]. Keeping them lets Adapt run without replaying
    # the sequence through the domain (a replay cost as much as the playout itself). With a
    # bias, seq_factor[l, j] is exp(beta) of the move of seq_legal[l, j]; without, seq_factor
    # has no columns (so copying a sequence copies nothing more than NRPA's); factors holds
    # exp(beta) of the moves of one step.
    ["state", "moves", "codes", "probabilities", "factors", "seq_moves", "seq_chosen", "seq_legal",
     "seq_factor", "seq_starts", "seq_len", "update_slots", "update_deltas"],
)
# The loop state of one NRPA call, so that it can pause and resume (``nrpa_until``): per
# level, the best score of its current call, the iterations it has done, (GNRPA-LR) how many
# times an iteration found that best score again and (restarting NRPA) how many iterations
# in a row did not raise it; the cursor. A variant's state of its own is one more per-level
# array here, made in ``new_call`` and zeroed in ``begin_call`` and where a child call starts.
Call = namedtuple("Call", ["best", "done", "repeats", "stale", "cursor"])
# Call.cursor slots: the level being iterated, whether the call has ended, its top level,
# the iterations of its top level, and the level whose calls the caller makes (0: none).
LEVEL, ENDED, TOP, TOP_ITERATIONS, BOTTOM = 0, 1, 2, 3, 4
CURSOR_SLOTS = 5


@njit(cache=True)
def _new_workspace(domain, levels, params):
    length = max_length(domain)
    width = max_moves(domain)
    return Workspace(
        state=new_state(domain),
        moves=np.zeros(width, dtype=np.int64),
        codes=np.zeros(width, dtype=np.int64),
        probabilities=np.zeros(width),
        factors=np.ones(width),
        seq_moves=np.zeros((levels + 1, length), dtype=np.int64),
        seq_chosen=np.zeros((levels + 1, length), dtype=np.int64),
        seq_legal=np.zeros((levels + 1, length * width), dtype=np.int64),
        seq_factor=np.ones((levels + 1, length * width if params.bias != NO_BIAS else 0)),
        seq_starts=np.zeros((levels + 1, length + 1), dtype=np.int64),
        seq_len=np.zeros(levels + 1, dtype=np.int64),
        update_slots=np.zeros(length * width, dtype=np.int64),
        update_deltas=np.zeros(length * width),
    )


@njit(cache=True)
def _policy_playout(domain, ws, policy, row, run, params):
    """One level-0 playout from the initial state with the policy of row ``row`` (and the
    bias of ``params.bias``); the sequence goes to ``ws.seq_*[0]``. Returns its score."""
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
    seq_factor = ws.seq_factor
    factors = ws.factors
    keys = policy.keys
    exp_weights = policy.exp_weights
    multiplier = policy.multiplier
    shift = policy.shift
    bias_kind = params.bias
    bias_keys = params.bias_keys
    bias_factors = params.bias_factors
    bias_shift = params.bias_shift
    reset(domain, state)
    length = 0
    offset = 0
    while True:
        n = legal_moves(domain, state, moves, codes)
        if n == 0:
            break
        total = 0.0
        if bias_kind == NO_BIAS:
            for i in range(n):
                weights[i] = pol.exp_weight(keys, exp_weights, multiplier, shift, row, codes[i])
                total += weights[i]
                seq_legal[0, offset + i] = codes[i]
        else:  # GNRPA: exp(w / tau + beta) = exp(v) * exp(beta)
            # exp(beta) of each move: the domain's, or a table's (a code it lacks has beta = 0).
            # Written out here rather than in an inlined helper taking ``params``: numba's
            # inlining of a NamedTuple of arrays added ~30 atomic reference-count updates per
            # step, which cost GNRPA a fifth of its playouts per second on TSPTW.
            if bias_kind == DOMAIN_BIAS:
                bias(domain, state, moves, codes, n, factors)
            else:
                # bias tables hash their codes (nrpa.bias._table builds them with code_bound 0)
                for i in range(n):
                    factors[i] = pol.exp_weight(bias_keys, bias_factors, pol.GOLDEN, bias_shift, 0, codes[i])
            for i in range(n):
                weights[i] = pol.exp_weight(keys, exp_weights, multiplier, shift, row, codes[i]) * factors[i]
                total += weights[i]
                seq_legal[0, offset + i] = codes[i]
                seq_factor[0, offset + i] = factors[i]
        # The move: index i drawn with probability weights[i] / total (total summed in index
        # order above). Written out rather than an inlined function: numba acquired and
        # released ``weights`` around each call, two atomic updates a step.
        threshold = np.random.random() * total
        chosen = n - 1
        cumulative = 0.0
        for i in range(n - 1):
            cumulative += weights[i]
            if threshold < cumulative:
                chosen = i
                break
        seq_moves[0, length] = moves[chosen]
        seq_chosen[0, length] = chosen
        seq_starts[0, length] = offset
        offset += n
        length += 1
        play(domain, state, moves[chosen])
    seq_starts[0, length] = offset
    ws.seq_len[0] = length
    value = score(domain, state)
    end_playout(run, value, seq_moves[0], length)
    return value


@njit(cache=True, inline="always")
def adapt_step(params):
    """The step Adapt takes on the stored weights v = w / tau: alpha / tau^2 (alpha when tau = 1)."""
    return params.alpha / (params.temperature * params.temperature)


@njit(cache=True)
def adapt(ws, policy, row, level, step):
    """Rosin's Adapt, generalized (GNRPA): move row ``row`` of the policy toward the
    sequence ``ws.seq_*[level]``.

    For each step, v[chosen] += step and v[m] -= step * p(m) for every legal m, p(m) being
    exp(v[m]) (times exp(beta_m) with a bias) over its sum on the step's legal moves, every
    p computed from the weights as they were before this call: all the deltas are gathered
    first and applied afterwards (a code can be legal at many steps). NRPA's step is alpha;
    GNRPA's, on v = w / tau, is ``adapt_step``."""
    keys = policy.keys
    weights = policy.weights
    exp_weights = policy.exp_weights
    used = policy.used
    n_used = policy.n_used
    multiplier = policy.multiplier
    shift = policy.shift
    legal = ws.seq_legal
    starts = ws.seq_starts
    chosen = ws.seq_chosen
    factor = ws.seq_factor
    biased = factor.shape[1] > 0
    slots = ws.update_slots
    deltas = ws.update_deltas
    length = ws.seq_len[level]
    for t in range(length):
        first = starts[level, t]
        last = starts[level, t + 1]
        total = 0.0
        # Two copies of the same loops, with and without the bias factors: one loop testing
        # for the bias at each move cost NRPA 20% of its playouts per second. p(m) is taken
        # as exp * (step / total): one division a step instead of one a move.
        if biased:
            for j in range(first, last):
                slot = pol.slot_for(keys, weights, exp_weights, used, n_used, multiplier, shift, row,
                                    legal[level, j])
                slots[j] = slot
                total += exp_weights[row, slot] * factor[level, j]
            scale = -step / total
            for j in range(first, last):
                deltas[j] = (exp_weights[row, slots[j]] * factor[level, j]) * scale
        else:
            for j in range(first, last):
                slot = pol.slot_for(keys, weights, exp_weights, used, n_used, multiplier, shift, row,
                                    legal[level, j])
                slots[j] = slot
                total += exp_weights[row, slot]
            scale = -step / total
            for j in range(first, last):
                deltas[j] = exp_weights[row, slots[j]] * scale
        deltas[first + chosen[level, t]] += step
    n_codes = starts[level, length]
    for j in range(n_codes):
        weights[row, slots[j]] += deltas[j]
    # The new weights' exps, taken on a dense copy (in ``deltas``) in a loop that vectorizes,
    # then written back. A code legal at several steps (SameGame's untouched groups, Morpion's
    # open lines) takes its exp once per step: cheaper than finding its first occurrence.
    for j in range(n_codes):
        deltas[j] = weights[row, slots[j]]
    for j in range(n_codes):
        deltas[j] = pol.weight_exp(deltas[j])
    for j in range(n_codes):
        exp_weights[row, slots[j]] = deltas[j]


@njit(cache=True, inline="always")
def _sequence_arrays(ws):
    """The arrays of a workspace's sequences (``seq_*``), read once, for ``copy_sequence``
    to read from the source and the target alike."""
    return ws.seq_moves, ws.seq_chosen, ws.seq_starts, ws.seq_legal, ws.seq_factor, ws.seq_len


@njit(cache=True)
def copy_sequence(source, source_level, target, target_level):
    """``target.seq_*[target_level]`` becomes ``source.seq_*[source_level]`` (workspaces,
    the same one or two)."""
    # Element by element, with every array read once and used again in the last statement:
    # slice assignments cost numba's atomic counts of two views each (about 270 a call),
    # and level 1 copies the playout's sequence at every playout that ties or beats its best.
    moves_from, chosen_from, starts_from, legal_from, factor_from, len_from = _sequence_arrays(source)
    moves_to, chosen_to, starts_to, legal_to, factor_to, len_to = _sequence_arrays(target)
    length = len_from[source_level]
    n_codes = starts_from[source_level, length]
    for t in range(length):
        moves_to[target_level, t] = moves_from[source_level, t]
        chosen_to[target_level, t] = chosen_from[source_level, t]
    for t in range(length + 1):
        starts_to[target_level, t] = starts_from[source_level, t]
    for j in range(n_codes):
        legal_to[target_level, j] = legal_from[source_level, j]
    for j in range(min(n_codes, factor_from.shape[1])):  # no columns without a bias
        factor_to[target_level, j] = factor_from[source_level, j]
    len_to[target_level] = length + 0 * (moves_from.size + chosen_from.size + starts_from.size + legal_from.size
                                         + factor_from.size + moves_to.size + chosen_to.size + starts_to.size
                                         + legal_to.size + factor_to.size)


@njit(cache=True)
def new_call(levels):
    return Call(best=np.full(levels + 1, -np.inf), done=np.zeros(levels + 1, dtype=np.int64),
                repeats=np.zeros(levels + 1, dtype=np.int64), stale=np.zeros(levels + 1, dtype=np.int64),
                cursor=np.zeros(CURSOR_SLOTS, dtype=np.int64))


@njit(cache=True)
def begin_call(call, top, top_iterations, bottom):
    """Set ``call`` to the start of an NRPA call at level ``top`` (on policy row ``top``, as
    it is) with ``top_iterations`` iterations at the top (N below). With ``bottom`` >= 1
    the caller makes the level-``bottom`` calls itself (``nrpa_until``)."""
    call.best[:] = -np.inf
    call.done[:] = 0
    call.repeats[:] = 0
    call.stale[:] = 0
    call.cursor[LEVEL] = top
    call.cursor[ENDED] = 0
    call.cursor[TOP] = top
    call.cursor[TOP_ITERATIONS] = top_iterations
    call.cursor[BOTTOM] = bottom


@njit(cache=True, inline="always")
def keep_then_adapt(ws, policy, run, best, level, value, step, adapting):
    """A level-``level`` iteration ends with the score ``value`` of its child, whose sequence
    is in ``ws.seq_*[level - 1]``: keep that sequence if ``value >= best[level]``, then
    adapt row ``level`` toward the level's best sequence (when ``adapting``), unless the
    budget has run out. Returns whether it has."""
    if value >= best[level]:
        best[level] = value
        copy_sequence(ws, level - 1, ws, level)
    if run.counters[STOP]:
        return True
    if adapting:
        adapt(ws, policy, level, level, step)
    return False


@njit(cache=True, inline="always")
def _iterations(cursor, iterations, level):
    """The iterations a call of ``level`` runs: the top's own count, N (``iterations``)
    below it. N rather than the Params: an inlined function given a NamedTuple acquires
    and releases every array in it."""
    return cursor[TOP_ITERATIONS] if level == cursor[TOP] else iterations


@njit(cache=True)
def nrpa_until(domain, ws, policy, run, params, call, deadline):
    """Advance the NRPA call ``call`` (set by ``begin_call``) until it ends
    (``call.cursor[ENDED]`` = 1), or until the wall clock reaches ``deadline`` after a
    level-1 iteration (when ``deadline`` > 0), or until a level-``bottom`` call is due when
    the caller makes those: it then makes the call from the policy of row ``bottom + 1``
    (row ``bottom`` when that is the top), which is not copied into row ``bottom`` here,
    leaves the call's best sequence in ``ws.seq_*[bottom]``, reports its score with
    ``end_bottom_call`` and resumes.

    The level loop of every NRPA search, written once. Level l >= 2 runs N times: copy row
    l into row l-1, run level l-1, keep its sequence if its score is >= the best, adapt row l
    toward the best sequence. Level 1 runs N iterations of P playouts on row 1 (SNRPA(P);
    P = 1 is NRPA). With GNRPA-LR's R, a level's call ends early, without adapting, at the
    iteration that finds its best score for the R-th time again. With restarting NRPA's K
    (``params.patience``), the level-1 iteration that ends K in a row without raising the
    call's best puts row 1 back as the call found it, instead of adapting it. A loop over an
    explicit stack of levels rather than a recursion because numba does not reliably link
    self-recursive functions loaded from its cache."""
    best = call.best
    done = call.done
    repeats = call.repeats
    stale = call.stale
    cursor = call.cursor
    top = cursor[TOP]
    bottom = cursor[BOTTOM]
    level = cursor[LEVEL]
    step = adapt_step(params)
    while True:
        iterations = _iterations(cursor, params.iterations, level)
        if done[level] < iterations:
            if level == bottom:  # the caller makes this call
                cursor[LEVEL] = level
                return
            if level > 1:  # enter a child call (the caller copies the policy of the calls it makes)
                if level - 1 != bottom:
                    pol.copy_row(policy, level, level - 1)
                level -= 1
                best[level] = -np.inf
                done[level] = 0
                repeats[level] = 0
                stale[level] = 0
                continue
            before = best[1]
            iteration_best = -np.inf
            for _ in range(params.playouts_per_step):  # a level-1 iteration
                value = _policy_playout(domain, ws, policy, 1, run, params)
                iteration_best = max(iteration_best, value)
                if value >= best[1]:
                    best[1] = value
                    copy_sequence(ws, 0, ws, 1)
                if run.counters[STOP]:
                    cursor[ENDED] = 1
                    return
            if repeated(repeats, 1, before, iteration_best, params.repetitions):
                done[1] = iterations
            elif out_of_patience(stale, 1, before, iteration_best, params.patience):
                # Back to the policy the call started from: its parent's row 2, which the
                # parent adapts only once the call has returned, or at the top the cleared row
                # (restarting NRPA runs in nrpa_search alone, whose top call starts cleared).
                if top > 1:
                    pol.copy_row(policy, 2, 1)
                else:
                    pol.clear(policy, 1)
                done[1] += 1
            else:
                adapt(ws, policy, 1, 1, step)
                done[1] += 1
            if deadline > 0 and elapsed(run, CLOCK_MONOTONIC) >= deadline:
                cursor[LEVEL] = 1
                return
            continue
        if level == top:
            cursor[ENDED] = 1
            return
        value = best[level]  # the child call ended: its parent keeps and adapts
        level += 1
        ends = repeated(repeats, level, best[level], value, params.repetitions)
        if keep_then_adapt(ws, policy, run, best, level, value, step, not ends):
            cursor[ENDED] = 1
            return
        done[level] = _iterations(cursor, params.iterations, level) if ends else done[level] + 1


@njit(cache=True)
def end_bottom_call(call, params, value):
    """The caller made the level-``bottom`` call that ``nrpa_until`` stopped at, scoring
    ``value``: that level is done, and the next ``nrpa_until`` hands it to its parent."""
    level = call.cursor[LEVEL]
    call.best[level] = value
    call.done[level] = _iterations(call.cursor, params.iterations, level)


@njit(cache=True)
def nrpa(domain, ws, policy, run, params, top, top_iterations):
    """One (S)NRPA call at level ``top`` >= 1 on policy row ``top``, running
    ``top_iterations`` iterations at the top level and N below (the same N, except in the
    thread-local parallel search); its best sequence ends in ``ws.seq_*[top]``. Returns the
    best score (``-inf`` if stopped before any)."""
    call = new_call(top)
    begin_call(call, top, top_iterations, 0)
    nrpa_until(domain, ws, policy, run, params, call, 0.0)
    return call.best[top]


@njit(cache=True, nogil=True)  # nrpa.interrupt runs it in a thread of its own
def nrpa_search(domain, params):
    """(S/G)NRPA until the budget (``params.max_time`` seconds on ``params.budget_clock``, or
    ``params.max_playouts``) or, without ``params.restart``, until the top level ends; level
    0 is repeated playouts from the first row of a policy that is never adapted (uniform;
    GNRPA's: the bias alone). Returns ``result(run)``."""
    np.random.seed(params.seed)  # numba's generator is seeded only from nopython code
    level = params.level
    run = new_run(domain, params)
    ws = _new_workspace(domain, max(level, 1), params)
    policy = pol.new_policy(max(level, 1), params.policy_capacity_bits, code_bound(domain))
    call = new_call(max(level, 1))
    # The clocks start after every allocation: zeroing large policy tables takes tens of
    # milliseconds, which would otherwise leave the 0.01 s checkpoint empty.
    start_clocks(run)
    while True:
        if level == 0:
            _policy_playout(domain, ws, policy, 1, run, params)
        else:
            pol.clear(policy, level)
            begin_call(call, level, params.iterations, 0)
            nrpa_until(domain, ws, policy, run, params, call, 0.0)
        if not go_on(run, params):
            break
    return result(run)
