"""Beam NRPA (Cazenave and Teytaud 2012): each level keeps the B best (sequence, policy) pairs.

The paper's text could not be read from here; this follows the structure of the author's
public Morpion code (morpionBeam.c), as we read it, and is documented as our reading:

* A level-l call starts from one policy (its parent's, copied) and no sequence. Each of its
  N iterations runs, for every element of its beam, a level-(l-1) call from that element's
  policy (level 0: one playout); every sequence the child call returns (its beam) becomes a
  candidate paired with the *parent element's* policy. The parents stay candidates too.
* The next beam is the B best candidates by score, an equal sequence counted once; a new
  candidate displaces the worst one when its score is >= (NRPA's ``>=``); then every element
  of the beam adapts its own policy toward its own sequence.
* The call returns its beam (best first) to its parent level; the top level restarts from a
  fresh policy when its N iterations end, as NRPA's does.

With B = 1 the beam is the level's best sequence and its policy: NRPA, move for move (tested
on whole runs). A level-l call makes up to (B·N)^l playouts. It runs sequentially, with P = 1.

Storage: level l owns 2B slots (policy rows and workspace sequence rows of the same index):
at most B hold the beam, whose rows stay intact until the iteration ends (their policies are
the children's), at most B the child candidates' sequences.
"""

from collections import namedtuple

import numpy as np
from numba import njit

from nrpa import policy as pol
from nrpa.domains.contract import code_bound
from nrpa.nested import _new_workspace, _policy_playout, adapt, adapt_step, copy_sequence
from nrpa.run import STOP, go_on, new_run, result, start_clocks

# Per level l (index l, 1..top): the beam (n_beam elements: slot row and score, best first),
# the candidates of the running iteration (slot row, score, and the row of the parent whose
# policy it takes: its own row for a parent), which of the level's 2B slots are taken, the
# iterations done, and the beam element whose child call runs.
BeamState = namedtuple("BeamState", ["n_beam", "beam_slot", "beam_score", "n_cand", "cand_slot", "cand_score",
                                     "cand_parent", "taken", "done", "member"])


@njit(cache=True)
def _new_beam_state(top, size):
    return BeamState(
        n_beam=np.zeros(top + 1, dtype=np.int64),
        beam_slot=np.zeros((top + 1, size), dtype=np.int64),
        beam_score=np.zeros((top + 1, size)),
        n_cand=np.zeros(top + 1, dtype=np.int64),
        cand_slot=np.zeros((top + 1, size), dtype=np.int64),
        cand_score=np.zeros((top + 1, size)),
        cand_parent=np.zeros((top + 1, size), dtype=np.int64),
        taken=np.zeros((top + 1, 2 * size), dtype=np.bool_),
        done=np.zeros(top + 1, dtype=np.int64),
        member=np.zeros(top + 1, dtype=np.int64),
    )


@njit(cache=True, inline="always")
def _first_row(level, size):
    """The policy and sequence row of slot 0 of ``level`` (row 0 is the playouts' sequence)."""
    return 1 + (level - 1) * 2 * size


@njit(cache=True)
def _begin_level(b, policy, level, size, parent_row):
    """Start a call of ``level`` from the policy of ``parent_row`` (-1: a fresh policy)."""
    row = _first_row(level, size)
    if parent_row < 0:
        pol.clear(policy, row)
    else:
        pol.copy_row(policy, parent_row, row)
    b.taken[level, :] = False
    b.taken[level, 0] = True
    b.n_beam[level] = 1
    b.beam_slot[level, 0] = row
    b.beam_score[level, 0] = -np.inf  # no sequence yet: not a candidate
    b.n_cand[level] = 0
    b.done[level] = 0
    b.member[level] = 0


@njit(cache=True)
def _same_sequence(ws, a, b):
    length = ws.seq_len[a]
    if ws.seq_len[b] != length:
        return False
    for t in range(length):
        if ws.seq_moves[a, t] != ws.seq_moves[b, t]:
            return False
    return True


@njit(cache=True)
def _offer(b, ws, level, size, value, source, parent_row):
    """Offer the sequence of workspace row ``source`` (score ``value``), paired with the
    policy of ``parent_row``, to the candidates of ``level``'s iteration."""
    n = b.n_cand[level]
    worst = 0
    if n == size:
        for j in range(1, n):
            if b.cand_score[level, j] < b.cand_score[level, worst]:
                worst = j
        if value < b.cand_score[level, worst]:
            return
    for j in range(n):
        if _same_sequence(ws, b.cand_slot[level, j], source):
            return
    first = _first_row(level, size)
    if n == size:
        evicted = b.cand_slot[level, worst]
        if evicted != b.cand_parent[level, worst]:  # a child's slot; a parent's row is needed until the iteration ends
            b.taken[level, evicted - first] = False
        j = worst
    else:
        j = n
        b.n_cand[level] = n + 1
    slot = 0
    while b.taken[level, slot]:
        slot += 1
    b.taken[level, slot] = True
    copy_sequence(ws, source, ws, first + slot)
    b.cand_slot[level, j] = first + slot
    b.cand_score[level, j] = value
    b.cand_parent[level, j] = parent_row


@njit(cache=True)
def _end_iteration(b, ws, policy, level, size, step):
    """The candidates become the beam (best first); each child takes a copy of its parent's
    policy (every parent row still intact), then every element adapts toward its sequence;
    the next iteration's candidates are the new beam."""
    n = b.n_cand[level]
    slots, scores, parents = b.cand_slot[level], b.cand_score[level], b.cand_parent[level]
    for i in range(1, n):  # insertion sort, best first, stable
        j = i
        while j > 0 and scores[j] > scores[j - 1]:
            slots[j], slots[j - 1] = slots[j - 1], slots[j]
            scores[j], scores[j - 1] = scores[j - 1], scores[j]
            parents[j], parents[j - 1] = parents[j - 1], parents[j]
            j -= 1
    for j in range(n):
        if slots[j] != parents[j]:
            pol.copy_row(policy, parents[j], slots[j])
    first = _first_row(level, size)
    b.taken[level, :] = False
    for j in range(n):
        b.beam_slot[level, j] = slots[j]
        b.beam_score[level, j] = scores[j]
        b.taken[level, slots[j] - first] = True
        parents[j] = slots[j]
    b.n_beam[level] = n
    for j in range(n):
        adapt(ws, policy, slots[j], slots[j], step)
    b.done[level] += 1
    b.member[level] = 0


@njit(cache=True)
def _next_member(b, ws, policy, level, size, step):
    """The child call of the current beam element has been offered: go to the next element,
    or end the iteration after the last."""
    b.member[level] += 1
    if b.member[level] == b.n_beam[level]:
        _end_iteration(b, ws, policy, level, size, step)


@njit(cache=True)
def beam_nrpa(domain, ws, policy, run, params, b, top):
    """One Beam NRPA call at level ``top`` >= 1 from a fresh policy; the run records the best.
    A loop over an explicit stack of levels, as ``nrpa_until``."""
    size = params.beam
    step = adapt_step(params)
    level = top
    _begin_level(b, policy, level, size, -1)
    while True:
        if b.done[level] == params.iterations:  # the call ends: its beam goes to the parent
            if level == top:
                return
            parent = level + 1
            parent_row = b.beam_slot[parent, b.member[parent]]
            for j in range(b.n_beam[level]):
                _offer(b, ws, parent, size, b.beam_score[level, j], b.beam_slot[level, j], parent_row)
            level = parent
            _next_member(b, ws, policy, level, size, step)
            continue
        row = b.beam_slot[level, b.member[level]]
        if level > 1:
            level -= 1
            _begin_level(b, policy, level, size, row)
            continue
        value = _policy_playout(domain, ws, policy, row, run, params)
        if run.counters[STOP]:  # the budget is spent
            return
        _offer(b, ws, 1, size, value, 0, row)
        _next_member(b, ws, policy, 1, size, step)


@njit(cache=True, nogil=True)  # nrpa.interrupt runs it in a thread of its own
def beam_search(domain, params):
    """``nrpa.nested.nrpa_search`` for Beam NRPA (``params.beam`` = B, ``params.level`` >= 1)."""
    np.random.seed(params.seed)
    top = params.level
    rows = 2 * params.beam * top  # policy and sequence rows 1..rows (row 0: the playouts' sequence)
    run = new_run(domain, params)
    ws = _new_workspace(domain, rows, params)
    policy = pol.new_policy(rows, params.policy_capacity_bits, code_bound(domain))
    b = _new_beam_state(top, params.beam)
    start_clocks(run)  # after the allocations, as ``search``
    while True:
        beam_nrpa(domain, ws, policy, run, params, b, top)
        if not go_on(run, params):
            break
    return result(run)
