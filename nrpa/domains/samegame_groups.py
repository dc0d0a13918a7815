"""SameGame's group records for the numba kernels (nrpa/domains/samegame.py holds the
domain, its states and its moves; this module, the records of the groups and their refresh).

Groups are found with bit operations: a stone belongs to a group of size >= 2 exactly when
it has a same-colour neighbour, so "paired" masks are computed for all cells at once and
flood fills start only from paired cells (most stones of a fresh board are singletons).

Groups are kept between moves as records (code; move, size, colour and column range packed
in one word, so that dropping the stale records moves two words a record, with no branch). A move
changes only the columns of the group it removes, so the next ``legal_moves`` drops the records
of groups touching those columns or their two neighbours (every column from there on when a
column emptied: the columns to its right moved) and flood-fills only there; the others keep
their records. A step re-finds about 6 of 19 groups on board 1 (uniform playouts).

The masks, the state's ``info`` and ``work`` are laid out as samegame.py's SameGameState says.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from nrpa.bits import popcount, trailing_zeros

_ONE = np.uint64(1)
# A group record: its code, then its move id, size, colour index and first and last column in one word.
_CODE, _META = range(2)
_RECORD = 2
# _META packs them in 16, 16, 8, 8 and 8 bits: a board has at most MAX_WIDTH (256) columns of
# MAX_HEIGHT (63) rows (samegame_rules; make_samegame checks), so a move id (x * 64 + k) and a
# size are below 2^14, and a column below 2^8.
_TO_THE_END = 1 << 40  # a last stale column past any board's


@njit(cache=True, inline="always")
def _meta(move, size, colour, lo, hi):
    return move | (size << 16) | (colour << 32) | (lo << 40) | (hi << 48)


# _META's fields, as (shift, mask): read with _field(meta, SIZE); the constants fold, so each
# read compiles to a shift and a mask
MOVE, SIZE, COLOUR, LO, HI = (0, 0xFFFF), (16, 0xFFFF), (32, 0xFF), (40, 0xFF), (48, 0xFF)


@njit(cache=True, inline="always")
def _field(meta, field):
    return (meta >> field[0]) & field[1]


# min and max of two int64, as a compare and a select: the builtins compiled to function calls
# in the kernels (numba links them in, and LLVM did not inline them there).
@njit(cache=True, inline="always")
def _min(a, b):
    return a if a < b else b


@njit(cache=True, inline="always")
def _max(a, b):
    return a if a > b else b


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
def _flood(masks, row, group_row, x0, seed, stack):
    """Fill row ``group_row`` of ``masks`` (all zero on entry) with the 4-connected component
    of row ``row`` that contains bit ``seed`` of column ``x0``; return the column range
    (lo, hi) it touches."""
    masks[group_row, x0] = _vertical_fill(masks[row, x0], seed)
    lo = x0
    hi = x0
    stack[0] = x0
    top = 1
    while top > 0:
        top -= 1
        x = stack[top]
        for nx in (x - 1, x + 1):  # off the board: an empty column (see make_samegame)
            touching = masks[group_row, x] & masks[row, nx] & ~masks[group_row, nx]
            if touching != 0:
                masks[group_row, nx] = _vertical_fill(masks[row, nx], masks[group_row, nx] | touching)
                stack[top] = nx
                top += 1
                lo = _min(lo, nx)
                hi = _max(hi, nx)
    return lo, hi


@njit(cache=True, inline="always")
def _refresh_groups(domain, state):
    """Bring the group records up to date with the stale columns ``info[5] .. info[6]``: drop
    the records of groups touching them, recompute their paired masks and flood-fill the
    groups that have a stone there (a fill may reach beyond them: such a group touched them,
    so its record was dropped too). Survivors keep their order; new groups are appended."""
    info = state.info
    ncols = info[0]
    stale_first = info[5]
    stale_last = info[6]
    info[5] = _TO_THE_END
    info[6] = -1
    masks = state.masks
    groups = state.groups
    zobrist = domain.zobrist
    n_colours = domain.colours.size
    seeds = 2 * n_colours  # scratch rows of masks
    group = seeds + 1
    stack = state.work
    n_groups = 0
    for i in range(info[4]):  # without a branch: whether a record is kept is a coin toss
        code = groups[i, _CODE]
        meta = groups[i, _META]
        groups[n_groups, _CODE] = code
        groups[n_groups, _META] = meta
        n_groups += np.int64((_field(meta, LO) > stale_last) | (_field(meta, HI) < stale_first))
    lo = _max(stale_first, 0)
    hi = _min(stale_last, ncols - 1)
    for colour in range(n_colours):
        paired = n_colours + colour
        seeded = np.int64(0)  # bit i: column lo + i has seeds (i < 64; wider bands scan the rest)
        for x in range(lo, hi + 1):
            column = masks[colour, x]
            neighbours = (column << _ONE) | (column >> _ONE) | masks[colour, x - 1] | masks[colour, x + 1]
            masks[paired, x] = column & neighbours
            masks[seeds, x] = column & neighbours
            seeded |= np.int64(column & neighbours != 0) << _min(x - lo, 63)  # past 63: scanned below
        x0 = lo - 1
        while True:  # x0: the columns with seeds, in order (skipping the others saves mispredicted tests)
            if seeded != 0:
                x0 = lo + _lowest_index(np.uint64(seeded))
                seeded &= seeded - 1
            else:
                x0 = _max(x0 + 1, lo + 64)
                if x0 > hi:
                    break
            while masks[seeds, x0] != 0:
                seed = masks[seeds, x0] & (~masks[seeds, x0] + _ONE)
                first, last = _flood(masks, paired, group, x0, seed, stack)
                size = 0
                code = np.int64(0)
                # the move id: the lowest stone of the leftmost column (module docstring)
                move = first * 64 + _lowest_index(masks[group, first])
                for x in range(first, last + 1):
                    bits = masks[group, x]
                    size += _popcount(bits)
                    masks[seeds, x] &= ~bits  # read only inside lo..hi
                    while bits != 0:
                        low = bits & (~bits + _ONE)
                        code ^= zobrist[x, _lowest_index(low), colour]
                        bits ^= low
                    masks[group, x] = 0
                groups[n_groups, _CODE] = code
                groups[n_groups, _META] = _meta(move, size, colour, first, last)
                n_groups += 1
    info[4] = n_groups
