"""Morpion Solitaire 5D and 5T for the numba kernels (rules: nrpa/data/morpion/SOURCE.md),
and 5D with ``line_span = 6``, a rule variant, on both sides or one (below).

Representation: a fixed W x W grid (W = 64) stored flat, cell ``y * W + x``, with bits: 0 a
dot, 1 + d "used in direction d", 5 a dot of the cross, 6 the border ring of the play area, 7
a wall. Directions
d = 0..3 are (1,0), (1,1), (0,1), (-1,1): steps of 1, W + 1, W, W - 1 cells. "Used" means: 5D,
the point lies on a line of direction d; 5T, the unit segment from the point to the point + d
is drawn (so the 4 segments of a line are marked at its first 4 points). Plain-Python rules with the same
conventions: ``nrpa.domains.morpion_rules``.

The rule variant ``line_span = 6`` (5D only; the default, 5, is standard 5D). Our reading of the
Morpion paper's plane definition (Doux, Negrevergne, Cazenave, section 3.1: "A one in the first
matrix (left to right) at position i, j signifies that there is a segment between the place
i, j and the place i + 5, j on the board"): a line blocks, in its direction, the 6 points from
its start to one step past its end, and a new line's 6 points may not meet those of a line of
the same direction. Two collinear lines of direction d starting at s and s + k d therefore
conflict when |k| <= 5 (standard 5D: |k| <= 4): what the variant adds is that a line may not
start one step past the end of another (lines end to end with one undrawn unit segment
between them). The paper does not state this rule; it is a reading, never the default. Here
"used in direction d" then also marks the point one step past each line's end, and a line is
free when its 6 points are unmarked. Every line_span = 6 move is a legal 5D move, so a game
under it is a legal 5D game and the 5D bounds below hold for it. The variant's domain is its
own NamedTuple class, ``MorpionSpan6``: the kernels compile separately for it, and for the
standard rules the variant's code folds away at compile time (``_blocks_6``), so their
playouts run the code they ran before the variant existed.

Its one-sided form (``one_sided``, class ``MorpionSpan6OneSided``; docs/readings.md):
a new line may not end one step before a line of its direction starts, but may start one step
past one's end. A reading of the paper's published Table 2, against its stated rule: never the
default. A line marks its 5 points only and a new one needs 6 free (its 5 and the one past its
end), so collinear lines starting at s (new) and a conflict when -5 <= s - a <= 4.

The grid, its cells and the bitboards: nrpa/domains/morpion_board.py.

Moves. A line is ``(start_y * W + start_x) * 4 + d`` (kernel cells), the move id is
``line * 5 + k`` with k = 0..4 the index of the new dot along the line, and the policy code is
the move id itself: the line plus the dot, independent of the rest of the state (Rosin keys
the policy by the move); with ``code_by_line`` (option ``code=line``) the line alone, as the
Morpion paper's network outputs moves (docs/readings.md). A line holds at most one move of a position
(its only empty point), so either code tells a position's moves apart.

The legal moves are kept in the state, as a list plus the list index + 1 of each line (0: not
a move). Playing a dot p on a line L of direction d changes only the lines through p (their dot
count) and the lines of direction d that now share a point (5D: start offsets -4..4 along d
from L's start; line_span 6: -5..5, one-sided -5..4) or a unit segment (5T: offsets -3..3) with L, which all
become illegal. So
``play`` removes those and re-evaluates the 5 lines through p in each other direction (and, in
5T, when p is an end of L, the line of direction d continuing L beyond p): ~16 lines, from
bitboards that hold, per direction, a 64-bit word per line of the grid (the dots, the used
marks and the walls on it, and which of the lines starting there are listed), so that the 9
cells around p are one word and only the lines whose listing changes are visited. ``reset``
restores only the cells and words of the lines played (kept in the history) and reloads the
initial list. The list order depends on the history; it is deterministic.

Each array of the domain and state tuples costs atomic reference-count updates at every call
of a jitted function taking it, and so does every array passed to a helper (with five arrays
and small helpers these took a third of a random playout). So ``play`` is one function body,
the domain holds only scalars, and the state two arrays:
``board`` (int16) holds the W * W cells, then the list index of each of the 4 W^2 lines;
``lists`` (int64) holds [legal moves n, moves played m, border flag, initial moves n0], the
legal moves, the history, the initial moves, then the bitboards.

Bounds (``max_moves``, ``max_length``), proved from potentials, so that the buffers of the
search kernels can never overflow:

* 5D. Let Q = the number of pairs (dot, direction d) with the dot not on a line of d. The
  cross gives Q = 4 * 36 = 144; a move adds 4 pairs and uses 5 (its 5 points, all free in d),
  so Q = 144 - m after m moves: a game has at most 144 moves (the literature proves 121,
  Kawamura et al. 2013). A legal line of direction d holds 4 dots free in d, and a (dot, d)
  pair lies in 5 lines of direction d, so 4 N <= 5 Q: at most N = 180 legal moves.
* 5T. Count the free half-segments (dot, one of the 8 orientations) whose unit segment is not
  drawn: 8 per dot, and a move adds a dot (+8) and draws 4 segments (-8), so P = 288 always.
  An undrawn unit segment between two dots takes 2 of them: at most 144 such segments. The 4
  segments of a legal line are undrawn and at least 2 of them join two dots (3 when the new
  dot is an end); a segment lies in 4 lines of its direction, so 2 N <= 4 * 144: at most
  N = 288 legal moves. Game length: at most 705 moves (Demaine, Demaine, Langerman and
  Langerman 2006, as corrected on morpionsolitaire.com; 485 by Nagorko's computer-assisted
  proof). As a memory guard the kernel also reports no move once ``max_length`` moves are
  played, and never stores more than ``max_moves`` legal moves (neither can happen).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit
from numba.extending import overload

from nrpa.bits import trailing_zeros
from nrpa.domains import contract
from nrpa.domains.morpion_board import (BITBOARD_WORDS, BORDER, BORDER_REACHED, CELLS, CROSS, CROSS_DOT,
                                        DOT, DOTS, FIRST_MOVE, KEEP, LINES_PER_DIRECTION, LISTED, MARKS, N_INITIAL,
                                        N_LEGAL, N_PLAYED, ORIGIN, WALL, WALL_RINGS, WALLS, WIDTH, _bitboards,
                                        _line_of, _step, scan_moves)

RULES = {"5D": 0, "5T": 1}
DIRECTIONS = ((1, 0), (1, 1), (0, 1), (-1, 1))
MAX_MOVES = {"5D": 180, "5T": 288}
MAX_LENGTH = {"5D": 144, "5T": 705}

# For a 5-bit mask of the dots of a line with exactly 4 set: the index of the missing one.
_EMPTY_INDEX = np.array([(~m & 31).bit_length() - 1 for m in range(32)], dtype=np.int64)


def _windows(width: int, test) -> np.ndarray:
    """For each mask of ``width`` bits (the cells around a dot, ``play``), the 5-bit mask of
    the j = 0..4 for which ``test(mask >> j)`` holds."""
    return np.array([sum(1 << j for j in range(5) if test(mask >> j)) for mask in range(1 << width)],
                    dtype=np.int64)


# bit j: the line covering bits j .. j + 4 of a 9-cell mask of dots holds exactly 4 of them
_FOUR_DOTS_AT = _windows(9, lambda m: bin(m & 31).count("1") == 4)
# bit j: no set bit among bits j .. j + 4 (5 cells), j .. j + 3 (5T's 4 segments), j .. j + 5
# (line_span 6: 10-bit masks)
_CLEAR_5_AT = _windows(9, lambda m: m & 31 == 0)
_CLEAR_4_AT = _windows(9, lambda m: m & 15 == 0)
_CLEAR_6_AT = _windows(10, lambda m: m & 63 == 0)

LINE_SPANS = (5, 6)  # the points of its direction a 5D line blocks: 5 standard, 6 the variant
CODES = ("move", "line")  # a move's policy code: the move id (line and dot), or the line alone

Morpion = namedtuple(
    "Morpion",
    # scalars only (see above); max_moves and max_length: the contract's bounds, read from these
    # fields (``contract.register``); span = the line_span (5: standard; 6: the variant, 5D
    # only); code_by_line: 1 = a move's policy code is its line alone (0: the move id).
    ["variant", "width", "max_moves", "max_length", "span", "code_by_line"],
)
# line_span 6: the same fields, its own class (a compile-time switch for the kernels, above);
# and its one-sided form.
MorpionSpan6 = namedtuple("MorpionSpan6", Morpion._fields)
MorpionSpan6OneSided = namedtuple("MorpionSpan6OneSided", Morpion._fields)
MorpionState = namedtuple(
    "MorpionState",
    # board[:CELLS] cell bits, board[CELLS + line] = index + 1 of the line's move in the list
    # (0: none); lists = [n, m, border reached, n0, moves[max_moves], history[max_length],
    # initial moves[max_moves], then the bitboards (``_bitboards``)].
    ["board", "lists"],
)


def make_morpion(variant: str = "5D", line_span: int = 5, one_sided: bool = False, code: str = "move") -> Morpion:
    """The kernel domain of ``variant`` (5D, 5T) with ``line_span`` 5 (standard) or 6 (the
    variant of the module's docstring, 5D only: under 5T it would give the rules of 5D), on
    both sides or, ``one_sided``, one; ``code``: a move's policy code, ``move`` (the line and the
    dot) or ``line``."""
    if line_span not in LINE_SPANS or (line_span != 5 and variant != "5D"):
        raise ValueError(f"line_span={line_span!r} with {variant}: 5, or 6 with 5D only")
    if one_sided and line_span != 6:
        raise ValueError("one_sided is a form of line_span 6")
    if code not in CODES:  # one_sided and code: checked with their InputErrors by the adapter as well
        raise ValueError(f"code={code!r}: choose one of {', '.join(CODES)}")
    domain_class = (MorpionSpan6OneSided if one_sided else MorpionSpan6) if line_span == 6 else Morpion
    return domain_class(variant=np.int64(RULES[variant]), width=np.int64(WIDTH),
                        max_moves=np.int64(MAX_MOVES[variant]), max_length=np.int64(MAX_LENGTH[variant]),
                        span=np.int64(line_span), code_by_line=np.int64(code == "line"))


def _blocks_6(domain):
    """Whether ``domain`` is the line_span 6 variant (either form): in the kernels a constant of
    the domain's class, so that the branches of the other rules fold away when compiled."""
    return isinstance(domain, (MorpionSpan6, MorpionSpan6OneSided))


def _one_sided(domain):
    """Whether ``domain`` is line_span 6's one-sided form (a constant of its class, as above)."""
    return isinstance(domain, MorpionSpan6OneSided)


def _yes(domain):  # the typers' bodies (module-level, not closures: numba caches them across processes)
    return True


def _no(domain):
    return False


@overload(_blocks_6, inline="always", jit_options={"cache": True})
def _blocks_6_typer(domain):
    return _yes if getattr(domain, "instance_class", None) in (MorpionSpan6, MorpionSpan6OneSided) else _no


@overload(_one_sided, inline="always", jit_options={"cache": True})
def _one_sided_typer(domain):
    return _yes if getattr(domain, "instance_class", None) is MorpionSpan6OneSided else _no


def decode_move(domain: Morpion, move: int) -> list[int]:
    """[dot_x, dot_y, dir_dx, dir_dy, start_x, start_y] of a kernel move id, in the
    coordinates of SOURCE.md (origin at the cross's top-left inner corner)."""
    line, k = divmod(int(move), 5)
    start, d = divmod(line, 4)
    gy, gx = divmod(start, int(domain.width))
    dx, dy = DIRECTIONS[d]
    sx, sy = gx - ORIGIN, gy - ORIGIN
    return [sx + k * dx, sy + k * dy, dx, dy, sx, sy]


def encode_move(domain: Morpion, move) -> int:
    """The kernel move id of [dot_x, dot_y, dir_dx, dir_dy, start_x, start_y]."""
    dot_x, dot_y, dx, dy, sx, sy = (int(v) for v in move)
    d = DIRECTIONS.index((dx, dy))
    k = dot_y - sy if dy != 0 else dot_x - sx
    if not (0 <= k <= 4 and (dot_x, dot_y) == (sx + k * dx, sy + k * dy)):
        raise ValueError(f"{list(move)}: the dot is not on the line")
    start = (sy + ORIGIN) * int(domain.width) + sx + ORIGIN
    return (start * 4 + d) * 5 + k


@njit(cache=True)
def mp_new_state(domain):
    """The cross (its cells and its legal moves found by a scan), as the initial state."""
    max_moves = domain.max_moves
    board = np.zeros(CELLS * 5, dtype=np.int16)
    for y in range(WIDTH):
        for x in range(WIDTH):
            ring = min(min(x, y), min(WIDTH - 1 - x, WIDTH - 1 - y))
            if ring < WALL_RINGS:
                board[y * WIDTH + x] = WALL
            elif ring == WALL_RINGS:
                board[y * WIDTH + x] = BORDER
    for x, y in CROSS:
        board[(y + ORIGIN) * WIDTH + x + ORIGIN] |= DOT | CROSS_DOT
    lists = np.zeros(FIRST_MOVE + 2 * max_moves + domain.max_length + 4 * BITBOARD_WORDS, dtype=np.int64)
    initial = FIRST_MOVE + max_moves + domain.max_length
    lists[N_INITIAL] = scan_moves(board, domain.variant, domain.span, lists[initial:])
    bitboards = _bitboards(domain)
    for cell in range(CELLS):
        for d in range(4):
            line, position = _line_of(d, cell)
            word = d * LINES_PER_DIRECTION + line
            if board[cell] & WALL:
                lists[bitboards + WALLS * BITBOARD_WORDS + word] |= np.int64(1) << position
            if board[cell] & DOT:  # the cross: its dots stay, the others are undone by reset
                lists[bitboards + DOTS * BITBOARD_WORDS + word] |= np.int64(1) << position
    state = MorpionState(board=board, lists=lists)
    mp_reset(domain, state)
    return state


@njit(cache=True, inline="always")  # inlined: a call would keep numba's counts of the state's arrays
def mp_reset(domain, state):
    board = state.board
    lists = state.lists
    history = FIRST_MOVE + domain.max_moves
    initial = history + domain.max_length
    # Only the cells of the lines played changed (and, line_span 6 on both sides, the cell past
    # each one's end): keep their fixed bits, the cross's dots.
    cells = 6 if _blocks_6(domain) and not _one_sided(domain) else 5
    dots = _bitboards(domain) + DOTS * BITBOARD_WORDS
    marks = _bitboards(domain) + MARKS * BITBOARD_WORDS
    for t in range(lists[N_PLAYED]):
        move = lists[history + t]
        line = move // 5
        start = line >> 2
        d = line & 3
        step = _step(d)
        for i in range(cells):
            cell = start + i * step
            value = board[cell]
            board[cell] = (value & KEEP) | ((value & CROSS_DOT) >> 5)
        # every mark comes from a line played, and every dot beyond the cross from a move
        word, _ = _line_of(d, start)
        lists[marks + d * LINES_PER_DIRECTION + word] = 0
        dot = start + (move - line * 5) * step
        for d2 in range(4):
            word, position = _line_of(d2, dot)
            lists[dots + d2 * LINES_PER_DIRECTION + word] &= ~(np.int64(1) << position)
    listed = _bitboards(domain) + LISTED * BITBOARD_WORDS
    for i in range(lists[N_LEGAL]):
        line = lists[FIRST_MOVE + i] // 5
        board[CELLS + line] = 0
        word, position = _line_of(line & 3, line >> 2)
        lists[listed + (line & 3) * LINES_PER_DIRECTION + word] &= ~(np.int64(1) << position)
    n = lists[N_INITIAL]
    for i in range(n):
        move = lists[initial + i]
        lists[FIRST_MOVE + i] = move
        line = move // 5
        board[CELLS + line] = i + 1
        word, position = _line_of(line & 3, line >> 2)
        lists[listed + (line & 3) * LINES_PER_DIRECTION + word] |= np.int64(1) << position
    lists[N_LEGAL] = n
    lists[N_PLAYED] = 0
    lists[BORDER_REACHED] = 0 * board.size  # board's last use, at the exit (sg_legal_moves)


@njit(cache=True)
def mp_copy_state(domain, source, target):
    target.board[:] = source.board
    target.lists[:] = source.lists


@njit(cache=True, inline="always")
def mp_play(domain, state, move):
    # One function body with the two arrays read once: a helper taking the arrays would
    # update their reference counts at every call (atomic operations).
    board = state.board
    lists = state.lists
    variant = domain.variant
    max_moves = domain.max_moves
    line = move // 5
    k = move - line * 5
    start = line >> 2
    d = line & 3
    step = _step(d)
    p = start + k * step
    board[p] |= DOT
    span6 = _blocks_6(domain)  # constants of the domain's class: 5D only
    one_sided = _one_sided(domain)
    used = 2 << d
    marked = 5 if one_sided else (6 if span6 else (5 if variant == 0 else 4))
    for i in range(marked):
        board[start + i * step] |= used
    dots = _bitboards(domain) + DOTS * BITBOARD_WORDS
    marks = _bitboards(domain) + MARKS * BITBOARD_WORDS
    walls = _bitboards(domain) + WALLS * BITBOARD_WORDS
    listed = _bitboards(domain) + LISTED * BITBOARD_WORDS
    for d2 in range(4):
        word, position = _line_of(d2, p)
        lists[dots + d2 * LINES_PER_DIRECTION + word] |= np.int64(1) << position
    word, start_position = _line_of(d, start)  # (a 6th mark past the grid's 64th cell is never read)
    word += d * LINES_PER_DIRECTION
    lists[marks + word] |= ((np.int64(1) << marked) - 1) << start_position
    played = lists[N_PLAYED]
    lists[FIRST_MOVE + max_moves + played] = move
    lists[N_PLAYED] = played + 1
    if board[p] & BORDER:
        lists[BORDER_REACHED] = 1
    n = lists[N_LEGAL]
    # 1. The lines of direction d sharing a point (5D) or a unit segment (5T) with the new
    # line (line_span 6: whose 6 points meet its 6; one-sided: whose 6 meet its 5), the new
    # line itself included, are no moves any more.
    # They are the listed lines of direction d starting within ``reach`` of the new line's
    # start, taken in increasing order (a line starting within 4 cells of the grid's edge
    # holds a wall cell and is never listed, so the window may stop at the edge).
    reach = 5 if span6 else (4 if variant == 0 else 3)  # before the new line's start
    reach_after = 4 if one_sided else reach  # after it
    lowest = max(start_position - reach, 0)
    nearby = (np.uint64(lists[listed + word]) >> np.uint64(lowest)) \
        & np.uint64((1 << (start_position + reach_after + 1 - lowest)) - 1)
    while nearby:
        position = np.int64(trailing_zeros(nearby)) + lowest
        nearby &= nearby - np.uint64(1)
        lists[listed + word] &= ~(np.int64(1) << position)
        gone = line + 4 * (position - start_position) * step
        index = board[CELLS + gone]  # remove it: the last move of the list takes its place
        last = lists[FIRST_MOVE + n - 1]
        lists[FIRST_MOVE + index - 1] = last
        board[CELLS + last // 5] = index
        board[CELLS + gone] = 0
        n -= 1
    # 2. The 5 lines through p in each direction: p is now a dot. In direction d they all
    # meet the new line and are blocked, except in 5T, when p is an end of the new line, the
    # line continuing it beyond p (they are evaluated all the same: the used marks block the
    # others).
    for d2 in range(4):
        if d2 == d and (variant == 0 or (k != 0 and k != 4)):
            continue
        # Bit i of the masks: cell p + (i - 4) * step2, from the bitboards (a dot of the play
        # area lies 4 cells or more from the grid's edges, so the 9 cells are in one word);
        # the line through p at position 4 - j covers bits j .. j + 4. line_span 6: bit 9,
        # the cell past the end of the line starting at p, matters only when that line's 5
        # cells hold no wall, and then it is on the grid (cells past the word read as 0).
        step2 = _step(d2)
        word, position = _line_of(d2, p)
        word += d2 * LINES_PER_DIRECTION
        below = np.uint64(position - 4)
        window_dots = np.int64((np.uint64(lists[dots + word]) >> below) & np.uint64(0x1FF))
        window_walls = np.int64((np.uint64(lists[walls + word]) >> below) & np.uint64(0x1FF))
        window_marks = np.int64((np.uint64(lists[marks + word]) >> below) & np.uint64(0x3FF if span6 else 0x1FF))
        # bit j: the line through p at position 4 - j is a move now: 4 dots of 5, no wall,
        # and 5D: no point used in d2 (line_span 6: nor the point past its end); 5T: no
        # segment (marked at its first 4 points)
        if span6:
            free = _CLEAR_5_AT[window_walls] & _CLEAR_6_AT[window_marks]
        elif variant == 0:
            free = _CLEAR_5_AT[window_walls | window_marks]
        else:
            free = _CLEAR_5_AT[window_walls] & _CLEAR_4_AT[window_marks]
        moves_now = _FOUR_DOTS_AT[window_dots] & free
        listed_before = np.int64((np.uint64(lists[listed + word]) >> below) & np.uint64(31))
        # the lines whose listing changes, in increasing j as the list's order requires
        changes = np.uint64(moves_now ^ listed_before)
        while changes:
            j = np.int64(trailing_zeros(changes))
            changes &= changes - np.uint64(1)
            line2 = (p - (4 - j) * step2) * 4 + d2
            if (moves_now >> j) & 1:  # add it
                if n < max_moves:
                    lists[FIRST_MOVE + n] = line2 * 5 + _EMPTY_INDEX[(window_dots >> j) & 31]
                    n += 1
                    board[CELLS + line2] = n
                    lists[listed + word] |= np.int64(1) << (position - 4 + j)
            else:  # listed only if p was its missing point: 5 dots now
                index = board[CELLS + line2]
                last = lists[FIRST_MOVE + n - 1]
                lists[FIRST_MOVE + index - 1] = last
                board[CELLS + last // 5] = index
                board[CELLS + line2] = 0
                n -= 1
                lists[listed + word] &= ~(np.int64(1) << (position - 4 + j))
    lists[N_LEGAL] = n


@njit(cache=True, inline="always")
def mp_legal_moves(domain, state, moves, codes):
    lists = state.lists
    if lists[N_PLAYED] >= domain.max_length:
        return 0
    n = lists[N_LEGAL]
    by_line = domain.code_by_line
    for i in range(n):
        move = lists[FIRST_MOVE + i]
        moves[i] = move
        codes[i] = move // 5 if by_line else move
    return n


@njit(cache=True)
def mp_score(domain, state):
    return np.float64(state.lists[N_PLAYED])


@njit(cache=True)
def mp_code_bound(domain):
    """Move ids (line * 5 + k, line = cell * 4 + d) lie below CELLS * 20: slot = code in the
    policy (the lines near a dot share cache lines)."""
    return CELLS * 20


for _domain_class in (Morpion, MorpionSpan6, MorpionSpan6OneSided):
    contract.register(
        _domain_class, new_state=mp_new_state, reset=mp_reset, copy_state=mp_copy_state,
        legal_moves=mp_legal_moves, play=mp_play, score=mp_score, code_bound=mp_code_bound,
    )
