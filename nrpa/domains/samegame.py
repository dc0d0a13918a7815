"""SameGame for the numba kernels (rules: nrpa/data/samegame/SOURCE.md).

Representation (x = column from the left, k = height from the bottom, 0-based):

* ``masks[i, x]`` a uint64 bitboard of column ``x`` for the i-th colour of the board
  (bit k = height k); rows ``n_colours`` and ``n_colours + 1`` are scratch space;
* stones always sit at the bottom of their column (gravity) and the non-empty columns are
  always ``0 .. ncols-1`` (empty columns are removed by shifting the rest left).

There is no cell grid: gravity is applied to the bitboards directly, so a move touches only
a few words and a state copy is small.

Groups are found with bit operations: a stone belongs to a group of size >= 2 exactly when
it has a same-colour neighbour, so "paired" masks are computed for all cells at once and
flood fills start only from paired cells (most stones of a fresh board are singletons).

A move id is the cell ``x * 64 + k`` of the first stone of the group found by the scan
(lowest column, then lowest stone); the printable certificate move, ``(row, col)`` of the
group's top-left stone with row 0 at the top, is made by the plain-Python rules in
``nrpa.domains.samegame_rules``.

Move code: the XOR of one random 64-bit number per (cell, colour) over the group's current
cells. The table is indexed by board cell ``row * width + col`` (row 0 at the top) and made
from ``zobrist_seed``; here it is re-laid out as ``zobrist[x, k, colour]``.

Playout rules (Cazenave 2016, and the authors' C++ ``same.cpp``):

* ``none``: every group of >= 2 stones;
* ``tabu``: the tabu colour (most frequent on the initial board, ties to the lowest code) is
  never played while it still has 2 or more connected components, singletons included
  (upstream ``moreThanOneMove``);
* ``selective`` with threshold t: as tabu, but a tabu-colour group of exactly 2 stones is
  allowed once more than t moves have been played (upstream: ``length > 10``);
* whenever the rule leaves no move, every group is legal.

GNRPA bias (``bias="tabu"``, our reading: the GNRPA paper's SameGame bias could not be
found; see the README): the tabu rule made soft, beta = -bias_weight for a group of the
tabu colour while that colour still has 2 or more components (the condition under which
the tabu rule forbids it), 0 otherwise.
"""

from __future__ import annotations

import math
from collections import namedtuple

import numpy as np
from numba import njit

from nrpa.bits import popcount, trailing_zeros
from nrpa.domains import contract

MAX_COLOURS = 10  # colour codes are the digits 0..9; a board may use at most 8 of them
RULES = {"none": 0, "tabu": 1, "selective": 2}
BIASES = {"none": 0, "tabu": 1}  # GNRPA biases (the domain's ``bias`` function)

SameGame = namedtuple(
    "SameGame",
    # colours: the codes present, ascending (colour index i <-> code colours[i]);
    # initial_masks: the bitboards of the initial state; zobrist[x, k, colour index];
    # bias: a value of BIASES; tabu_factor: exp(-bias_weight), the factor of a biased move.
    ["width", "height", "colours", "initial_masks", "zobrist", "rule", "threshold", "tabu_index", "bias",
     "tabu_factor"],
)
SameGameState = namedtuple(
    "SameGameState",
    # info = [number of non-empty columns, score, moves played, components of the tabu
    # colour (set by legal_moves)];
    # work = scratch: flood-fill stack, then group sizes, then group colour indices (of the
    # moves legal_moves returned, in its order).
    ["masks", "info", "work"],
)

_ONE = np.uint64(1)


def make_samegame(rows, *, rule="tabu", threshold=0, zobrist_seed=0, bias="none", bias_weight=1.0):
    """Build the domain value from a board given as rows of colour codes, row 0 at the top."""
    board = np.asarray(rows, dtype=np.int64)
    height, width = board.shape
    values, counts = np.unique(board, return_counts=True)
    tabu_index = int(np.argmax(counts))  # argmax returns the first (lowest code) on ties
    n_colours = values.size
    initial_masks = np.zeros((n_colours + 2, width), dtype=np.uint64)
    for x in range(width):
        for k in range(height):
            colour_index = int(np.searchsorted(values, board[height - 1 - k, x]))
            initial_masks[colour_index, x] |= np.uint64(1) << np.uint64(k)
    cell_table = zobrist_table(width, height, zobrist_seed)
    zobrist = np.empty((width, height, n_colours), dtype=np.int64)
    for x in range(width):
        for k in range(height):
            zobrist[x, k, :] = cell_table[(height - 1 - k) * width + x, values]
    return SameGame(
        width=np.int64(width),
        height=np.int64(height),
        colours=values.astype(np.int64),
        initial_masks=initial_masks,
        zobrist=zobrist,
        rule=np.int64(RULES[rule]),
        threshold=np.int64(threshold),
        tabu_index=np.int64(tabu_index),
        bias=np.int64(BIASES[bias]),
        tabu_factor=np.float64(math.exp(-bias_weight)),
    )


def zobrist_table(width, height, seed):
    """int64[width * height, 10]: the random number of each (cell row*width+col, colour)."""
    rng = np.random.default_rng(seed)
    info = np.iinfo(np.int64)
    return rng.integers(info.min, info.max, size=(width * height, MAX_COLOURS), dtype=np.int64, endpoint=True)


@njit(cache=True, inline="always")
def _popcount(v):
    return np.int64(popcount(v))


@njit(cache=True, inline="always")
def _lowest_index(v):
    """Index of the lowest set bit of ``v`` (v != 0)."""
    return np.int64(trailing_zeros(v))


@njit(cache=True, inline="always")
def _vertical_fill(column_mask, seeds):
    """The runs of ``column_mask`` that contain a bit of ``seeds``."""
    filled = seeds
    while True:
        grown = (filled | (filled << _ONE) | (filled >> _ONE)) & column_mask
        if grown == filled:
            return filled
        filled = grown


@njit(cache=True, inline="always")
def _flood(cells, ncols, x0, seed, group, stack):
    """Fill ``group`` (all zero on entry) with the 4-connected component of ``cells`` that
    contains bit ``seed`` of column ``x0``; return the column range (lo, hi) it touches."""
    group[x0] = _vertical_fill(cells[x0], seed)
    lo = x0
    hi = x0
    stack[0] = x0
    top = 1
    while top > 0:
        top -= 1
        x = stack[top]
        for nx in (x - 1, x + 1):
            if nx < 0 or nx >= ncols:
                continue
            touching = group[x] & cells[nx] & ~group[nx]
            if touching != 0:
                group[nx] = _vertical_fill(cells[nx], group[nx] | touching)
                stack[top] = nx
                top += 1
                lo = min(lo, nx)
                hi = max(hi, nx)
    return lo, hi


@njit(cache=True)
def sg_reset(domain, state):
    state.masks[:, :] = domain.initial_masks
    state.info[0] = domain.width
    state.info[1] = 0
    state.info[2] = 0


@njit(cache=True)
def sg_new_state(domain):
    cells = domain.width * domain.height
    state = SameGameState(
        masks=np.zeros(domain.initial_masks.shape, dtype=np.uint64),
        info=np.zeros(4, dtype=np.int64),
        work=np.zeros(cells + domain.width + 2 * (cells // 2 + 1), dtype=np.int64),
    )
    sg_reset(domain, state)
    return state


@njit(cache=True)
def sg_copy_state(domain, source, target):
    target.masks[: domain.colours.size, :] = source.masks[: domain.colours.size, :]
    target.info[:] = source.info


@njit(cache=True, inline="always")
def _work_layout(domain):
    """Where ``state.work`` keeps the group sizes and colours after the flood-fill stack."""
    cells = domain.width * domain.height
    sizes_at = cells + domain.width
    return sizes_at, sizes_at + cells // 2 + 1


@njit(cache=True, inline="always")
def sg_legal_moves(domain, state, moves, codes):
    # Array fields are read into locals once: each read of a NamedTuple field inside a
    # loop costs an atomic reference-count update, which dominated the run time.
    ncols = state.info[0]
    masks = state.masks
    work = state.work
    zobrist = domain.zobrist
    n_colours = domain.colours.size
    paired = masks[n_colours]
    group = masks[n_colours + 1]
    stack = work[: domain.width * domain.height + domain.width]
    sizes_at, colours_at = _work_layout(domain)
    tabu = domain.tabu_index
    tabu_components = 0
    n = 0
    for colour in range(n_colours):
        for x in range(ncols):
            column = masks[colour, x]
            neighbours = (column << _ONE) | (column >> _ONE)
            if x > 0:
                neighbours |= masks[colour, x - 1]
            if x + 1 < ncols:
                neighbours |= masks[colour, x + 1]
            paired[x] = column & neighbours
            if colour == tabu:
                tabu_components += _popcount(column & ~paired[x])  # singletons count too
        for x0 in range(ncols):
            while paired[x0] != 0:
                seed = paired[x0] & (~paired[x0] + _ONE)
                lo, hi = _flood(paired, ncols, x0, seed, group, stack)
                size = 0
                code = np.int64(0)
                for x in range(lo, hi + 1):
                    bits = group[x]
                    size += _popcount(bits)
                    while bits != 0:
                        low = bits & (~bits + _ONE)
                        code ^= zobrist[x, _lowest_index(low), colour]
                        bits ^= low
                    paired[x] &= ~group[x]
                    group[x] = 0
                moves[n] = x0 * 64 + _lowest_index(seed)
                codes[n] = code
                work[sizes_at + n] = size
                work[colours_at + n] = colour
                n += 1
                if colour == tabu:
                    tabu_components += 1
    state.info[3] = tabu_components
    if domain.rule == 0 or tabu_components < 2:
        return n
    moves_played = state.info[2]
    allowed = 0
    for i in range(n):
        if _rule_allows(domain, moves_played, work[sizes_at + i], work[colours_at + i]):
            allowed += 1
    if allowed == 0:  # the rule left nothing: every group is legal again
        return n
    kept = 0
    for i in range(n):
        if _rule_allows(domain, moves_played, work[sizes_at + i], work[colours_at + i]):
            moves[kept] = moves[i]
            codes[kept] = codes[i]
            work[sizes_at + kept] = work[sizes_at + i]
            work[colours_at + kept] = work[colours_at + i]
            kept += 1
    return kept


@njit(cache=True, inline="always")
def sg_bias(domain, state, moves, codes, n, factors):
    """GNRPA's bias ``tabu`` as factors exp(beta): exp(-bias_weight) for a group of the tabu
    colour while that colour has 2 or more components, else 1 (reads the colours
    ``sg_legal_moves`` left in ``work``)."""
    colours_at = _work_layout(domain)[1]
    active = state.info[3] >= 2
    work = state.work
    tabu = domain.tabu_index
    for i in range(n):
        factors[i] = domain.tabu_factor if (active and work[colours_at + i] == tabu) else 1.0


@njit(cache=True, inline="always")
def _rule_allows(domain, moves_played, size, colour):
    """Whether the tabu/selective rule lets a group be played while the tabu colour is active."""
    if colour != domain.tabu_index:
        return True
    return domain.rule == 2 and size == 2 and moves_played > domain.threshold


@njit(cache=True, inline="always")
def _drop_bits(column, removed):
    """Column bitboard ``column`` with the stones at the bits of ``removed`` taken out and
    the stones above them fallen down (removed bits are taken from the lowest up, so each
    later position has dropped by the number already removed)."""
    dropped = 0
    while removed != 0:
        low = removed & (~removed + _ONE)
        k = np.uint64(_lowest_index(low) - dropped)
        below = (_ONE << k) - _ONE
        column = (column & below) | ((column >> _ONE) & ~below)
        removed ^= low
        dropped += 1
    return column


@njit(cache=True, inline="always")
def sg_play(domain, state, move):
    masks = state.masks
    n_colours = domain.colours.size
    group = masks[n_colours + 1]
    x0 = move >> 6
    k0 = move & 63
    seed = _ONE << np.uint64(k0)
    colour = 0
    while masks[colour, x0] & seed == 0:
        colour += 1
    ncols = state.info[0]
    lo, hi = _flood(masks[colour], ncols, x0, seed, group, state.work)
    removed = 0
    for x in range(lo, hi + 1):
        bits = group[x]
        if bits != 0:
            removed += _popcount(bits)
            for c in range(n_colours):
                if masks[c, x] != 0:
                    masks[c, x] = _drop_bits(masks[c, x], bits)
            group[x] = 0
    # Remove the columns the move emptied (only lo..hi can have become empty).
    write = lo
    for x in range(lo, ncols):
        occupied = np.uint64(0)
        for c in range(n_colours):
            occupied |= masks[c, x]
        if occupied == 0:
            continue
        if write != x:
            for c in range(n_colours):
                masks[c, write] = masks[c, x]
        write += 1
    for x in range(write, ncols):
        for c in range(n_colours):
            masks[c, x] = 0
    state.info[0] = write
    state.info[1] += (removed - 2) * (removed - 2)
    if write == 0:
        state.info[1] += 1000
    state.info[2] += 1


@njit(cache=True)
def sg_score(domain, state):
    return np.float64(state.info[1])


@njit(cache=True)
def sg_max_moves(domain):
    return domain.width * domain.height // 2 + 1


contract.register(
    SameGame, new_state=sg_new_state, reset=sg_reset, copy_state=sg_copy_state, legal_moves=sg_legal_moves,
    play=sg_play, score=sg_score, max_moves=sg_max_moves, max_length=sg_max_moves, bias=sg_bias,
)
