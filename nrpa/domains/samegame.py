"""SameGame for the numba kernels (rules: nrpa/data/samegame/SOURCE.md).

Representation (x = column from the left, k = height from the bottom, 0-based):

* ``masks[i, x]`` a uint64 bitboard of column ``x`` for the i-th colour of the board
  (bit k = height k); rows ``n_colours`` and ``n_colours + 1`` are scratch space;
* stones always sit at the bottom of their column (gravity) and the non-empty columns are
  always ``0 .. ncols-1`` (empty columns are removed by shifting the rest left).

There is no cell grid: gravity is applied to the bitboards directly, so a move touches only
a few words and a state copy is small.

The groups of 2 or more stones are kept between moves as records, found and refreshed by bit
operations (nrpa/domains/samegame_groups.py says how).

The moves are listed in record order: the kept groups in their order, then the new ones.
The order changes no probability, only which move a given random number picks; it changed
on 2026-11-25 (before, a full scan listed them by colour, column and stone), so a run of an
earlier version with the same seed made other draws.

A move id is the cell ``x * 64 + k`` of the group's lowest stone in its leftmost column: a
function of the board alone, whichever columns the refresh that found the group started from,
so that two states of one board name each group alike (the averaged SP-MCTS trees match moves
across trees by id; when the id was the stone a fill started from, a group found by a partial
refresh had another id than on a state refreshed in full, and a tree could hold one group
twice). The printable certificate move, ``(row, col)`` of the group's top-left stone with row
0 at the top, is made by the plain-Python rules in ``nrpa.domains.samegame_rules``.

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

from nrpa.domains import contract
# LO and HI: the tests read the records through this module, as the kernels do
from nrpa.domains.samegame_groups import (_CODE, _META, _ONE, _RECORD, _TO_THE_END, COLOUR, HI, LO, MOVE,  # noqa: F401
                                          SIZE, _field, _flood, _lowest_index, _max, _min, _popcount,
                                          _refresh_groups)
from nrpa.domains.samegame_rules import MAX_HEIGHT, MAX_WIDTH

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
    # masks: rows 0 .. n_colours - 1 the stones of each colour, rows n_colours ..
    # 2 n_colours - 1 the paired stones of each colour, then two scratch rows;
    # info = [number of non-empty columns, score, moves played, components of the tabu
    # colour counted up to 2 at least (set by legal_moves), number of group records, first
    # and last stale column];
    # groups: one record per group of 2 or more stones (fields _CODE and _META), valid for the
    # columns outside the stale ones;
    # work = scratch: flood-fill stack, then the colour indices of the moves legal_moves
    # returned, in its order.
    ["masks", "info", "groups", "work"],
)

def make_samegame(rows, *, rule="tabu", threshold=0, zobrist_seed=0, bias="none", bias_weight=1.0):
    """Build the domain value from a board given as rows of colour codes, row 0 at the top."""
    board = np.asarray(rows, dtype=np.int64)
    height, width = board.shape
    if height > MAX_HEIGHT or width > MAX_WIDTH:  # load_board says so to users; this guards the packed records
        raise ValueError(f"a {height} x {width} board: at most {MAX_HEIGHT} rows and {MAX_WIDTH} columns")
    values, counts = np.unique(board, return_counts=True)
    tabu_index = int(np.argmax(counts))  # argmax returns the first (lowest code) on ties
    n_colours = values.size
    # rows: SameGameState's; one more column, always empty, is what column -1 (numba wraps
    # negative indices) and column ``width`` read, so that neighbours need no bounds test
    initial_masks = np.zeros((2 * n_colours + 2, width + 1), dtype=np.uint64)
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


@njit(cache=True, inline="always")  # inlined: a call would keep numba's counts of the arrays
def sg_reset(domain, state):
    # Element by element: numba's slice assignment acquires and releases views of both
    # arrays, about 200 atomic updates a call, and reset runs before every playout.
    masks = state.masks
    initial = domain.initial_masks
    for row in range(initial.shape[0]):
        for x in range(initial.shape[1]):
            masks[row, x] = initial[row, x]
    info = state.info
    info[0] = domain.width
    info[1] = 0
    info[2] = 0
    info[3] = 0
    info[4] = 0
    info[5] = 0  # every column is stale: the first legal_moves finds every group
    info[6] = _TO_THE_END + 0 * (masks.size + initial.size)  # their last use, at the exit (sg_legal_moves)


@njit(cache=True)
def sg_new_state(domain):
    cells = domain.width * domain.height
    state = SameGameState(
        masks=np.zeros(domain.initial_masks.shape, dtype=np.uint64),
        info=np.zeros(7, dtype=np.int64),
        groups=np.zeros((cells // 2 + 1, _RECORD), dtype=np.int64),
        work=np.zeros(cells + domain.width + cells // 2 + 1, dtype=np.int64),
    )
    sg_reset(domain, state)
    return state


@njit(cache=True)
def sg_copy_state(domain, source, target):
    kept_rows = 2 * domain.colours.size  # the stones and the paired masks
    target.masks[:kept_rows, :] = source.masks[:kept_rows, :]
    target.info[:] = source.info
    target.groups[: source.info[4], :] = source.groups[: source.info[4], :]


@njit(cache=True, inline="always")
def _colours_at(width, height):
    """Where ``state.work`` keeps the colours of the listed moves, after the flood-fill stack."""
    return width * height + width


@njit(cache=True, inline="always")
def sg_legal_moves(domain, state, moves, codes):
    # Array fields are read into locals once: each read of a NamedTuple field inside a
    # loop costs an atomic reference-count update, which dominated the run time.
    info = state.info
    if info[5] <= info[6]:
        _refresh_groups(domain, state)
    ncols = info[0]
    masks = state.masks
    groups = state.groups
    work = state.work
    n_colours = domain.colours.size
    colours_at = _colours_at(domain.width, domain.height)
    tabu = domain.tabu_index
    n_groups = info[4]
    # Components of the tabu colour, its groups and its single stones, counted only as far
    # as 2: the rule and the bias ask only whether there are 2 or more.
    tabu_components = 0
    for i in range(n_groups):
        tabu_components += np.int64(_field(groups[i, _META], COLOUR) == tabu)
    x = 0
    while tabu_components < 2 and x < ncols:
        tabu_components += _popcount(masks[tabu, x] & ~masks[n_colours + tabu, x])
        x += 1
    info[3] = tabu_components
    # The rule holds the tabu colour's groups back while that colour has 2 or more
    # components (the selective rule lets its pairs through after t moves).
    pairs_allowed = domain.rule == 2 and info[2] > domain.threshold
    held = domain.rule != 0 and tabu_components >= 2
    n = 0
    for i in range(n_groups):  # written without a branch: whether a tabu group is held is a coin toss
        meta = groups[i, _META]
        colour = _field(meta, COLOUR)
        moves[n] = _field(meta, MOVE)
        codes[n] = groups[i, _CODE]
        work[colours_at + n] = colour
        n += 1 - np.int64(held & (colour == tabu) & (not (pairs_allowed & (_field(meta, SIZE) == 2))))
    if n == 0 and n_groups > 0:  # the rule left nothing: every group is legal again
        for i in range(n_groups):
            meta = groups[i, _META]
            moves[n] = _field(meta, MOVE)
            codes[n] = groups[i, _CODE]
            work[colours_at + n] = _field(meta, COLOUR)
            n += 1
    # Every array is used here once more, so that numba releases them all on the way out,
    # where its reference-count pruning removes each release with its acquisition. Released
    # after their last use, mid-function, they cost 17 atomic updates a call, a sixth of the
    # run time of NRPA. The sum is 0 and compiles to nothing.
    return n + 0 * (info.size + masks.size + groups.size + work.size + moves.size + codes.size + domain.zobrist.size)


@njit(cache=True, inline="always")
def sg_bias(domain, state, moves, codes, n, factors):
    """GNRPA's bias ``tabu`` as factors exp(beta): exp(-bias_weight) for a group of the tabu
    colour while that colour has 2 or more components, else 1 (reads the colours
    ``sg_legal_moves`` left in ``work``)."""
    colours_at = _colours_at(domain.width, domain.height)
    active = state.info[3] >= 2
    work = state.work
    tabu = domain.tabu_index
    tabu_factor = domain.tabu_factor
    for i in range(n):
        factors[i] = tabu_factor if (active and work[colours_at + i] == tabu) else 1.0
    # every array used once more, at the end: see sg_legal_moves (the sum is 0)
    factors[0] += 0 * (work.size + moves.size + codes.size + state.masks.size + domain.zobrist.size)


@njit(cache=True, inline="always")
def sg_play(domain, state, move):
    masks = state.masks
    n_colours = domain.colours.size
    group = 2 * n_colours + 1
    x0 = move >> 6
    k0 = move & 63
    seed = _ONE << np.uint64(k0)
    colour = 0
    while masks[colour, x0] & seed == 0:
        colour += 1
    ncols = state.info[0]
    lo, hi = _flood(masks, colour, group, x0, seed, state.work)
    removed = 0
    emptied = False
    for x in range(lo, hi + 1):
        bits = masks[group, x]
        removed += _popcount(bits)
        # Gravity, one removed stone at a time from the lowest (each later position has
        # dropped by the number already removed), applied to every colour at once.
        dropped = 0
        while bits != 0:
            low = bits & (~bits + _ONE)
            below = (_ONE << np.uint64(_lowest_index(low) - dropped)) - _ONE
            for c in range(n_colours):
                masks[c, x] = (masks[c, x] & below) | ((masks[c, x] >> _ONE) & ~below)
            bits ^= low
            dropped += 1
        occupied = np.uint64(0)
        for c in range(n_colours):
            occupied |= masks[c, x]
        masks[group, x] = 0
        emptied |= occupied == 0
    # Remove the columns the move emptied (only lo..hi can have become empty).
    write = ncols
    if emptied:
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
        for x in range(write, ncols):  # the stones and their paired masks: fills read them
            for c in range(2 * n_colours):
                masks[c, x] = 0
    info = state.info
    info[0] = write
    info[1] += (removed - 2) * (removed - 2)
    if write == 0:
        info[1] += 1000
    # The groups to find again: those touching lo - 1 .. hi + 1 (the stones of lo..hi fell,
    # which changes what touches them), or every one from lo - 1 on when a column emptied
    # (the columns to its right moved, and a group's code depends on where its stones are).
    info[5] = _min(info[5], lo - 1)
    info[6] = _TO_THE_END if write < ncols else _max(info[6], hi + 1)
    # The arrays are used once more here, at the end, so that numba releases them all on the
    # way out and prunes each release with its acquisition (see sg_legal_moves); the sum is 0.
    info[2] += 1 + 0 * (masks.size + state.work.size + domain.zobrist.size)


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
