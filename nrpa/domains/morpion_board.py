"""Morpion Solitaire's board for the numba kernels (nrpa/domains/morpion.py holds the domain,
its states and its moves; this module, where things are on the board): the grid and the bits
of its cells, the slots of the state's ``lists`` and its bitboards, and the full scan of the
legal moves that builds the initial list.

The grid. The cross's origin (top-left inner corner) sits at cell (30, 30), so the cross
fills cells 27..36 in x and y. The 4 outer rings of cells are walls: a line with a wall cell is
never a move, so every line evaluated around a dot of the play area 4..59 stays inside the
array without any bounds test. The kernel therefore plays the game restricted to the play
area, 23 cells beyond the cross on each side; the records reach at most 9 beyond it (5T 178:
x -12..8, y -6..10 for a cross at -3..6). Every kernel move is a legal move of the real game,
so a kernel sequence is always a valid certificate. The restriction can only hide a move
whose line leaves the play area, which needs a dot on its border ring (x or y = 4 or 59):
``lists[2]`` flags a state where a dot was placed there (never seen; tested on the records).
"""

from __future__ import annotations

from numba import njit

CROSS = (
    (0, 0), (-1, 0), (-2, 0), (-3, 0), (-3, 1), (-3, 2), (-3, 3), (-2, 3), (-1, 3), (0, 3),
    (0, 4), (0, 5), (0, 6), (1, 6), (2, 6), (3, 6), (3, 5), (3, 4), (3, 3), (4, 3), (5, 3),
    (6, 3), (6, 2), (6, 1), (6, 0), (5, 0), (4, 0), (3, 0), (3, -1), (3, -2), (3, -3),
    (2, -3), (1, -3), (0, -3), (0, -2), (0, -1),
)
WIDTH = 64
CELLS = WIDTH * WIDTH
WALL_RINGS = 4
ORIGIN = 30  # kernel cell (ORIGIN, ORIGIN) is the cross's origin (0, 0)

DOT = 1
CROSS_DOT = 32
BORDER = 64
WALL = 128
KEEP = CROSS_DOT | BORDER | WALL  # the bits of a cell that no move changes
# lists slots
N_LEGAL, N_PLAYED, BORDER_REACHED, N_INITIAL, FIRST_MOVE = 0, 1, 2, 3, 4
# Bitboards, in ``lists`` after the initial moves: per direction d, 128 words, one per line of
# the grid in direction d (``_line_of``): the dots on it, the cells used in direction d (the
# same marks as the cells' bits 1 + d), the walls, and the starts of the moves of direction d
# in the list of legal moves (LISTED: a move's line is listed exactly when its index in
# board[CELLS:] is not 0). Bit i of a word is the cell at position i along its line, so the
# 9 cells around a dot in direction d are 9 bits of one word instead of 9 cell reads, and
# ``play`` visits only the lines whose listing changes.
LINES_PER_DIRECTION = 128
BITBOARD_WORDS = 4 * LINES_PER_DIRECTION
DOTS, MARKS, WALLS, LISTED = 0, 1, 2, 3  # the bitboards, in this order


@njit(cache=True, inline="always")
def _step(d):
    """Cell step of direction d: (1,0) 1, (1,1) W + 1, (0,1) W, (-1,1) W - 1."""
    return 1 if d == 0 else WIDTH + 2 - d


@njit(cache=True, inline="always")
def _line_of(d, cell):
    """(line, position) of ``cell`` in the bitboards of direction d: rows by x, columns by
    y, both diagonals by y."""
    x = cell & (WIDTH - 1)
    y = cell >> 6
    if d == 0:
        return y, x
    if d == 1:
        return x - y + WIDTH - 1, y
    if d == 2:
        return x, y
    return x + y, y


@njit(cache=True, inline="always")
def _bitboards(domain):
    """Offset in ``lists`` of the first bitboard (DOTS; MARKS, WALLS and LISTED follow)."""
    return FIRST_MOVE + 2 * domain.max_moves + domain.max_length


@njit(cache=True)
def scan_moves(board, variant, span, out):
    """Every legal move of ``board``'s cells by a full scan of the lines inside the grid, in
    line order; returns their number (at most ``out.size`` are stored). Used to build the
    initial list, and by the tests as the reference for the incremental list. ``span`` 6:
    the point one step past the line's end must be unused too (it lies inside the array when
    the line's 5 points hold no wall); under the one-sided form, whose lines mark their 5
    points only, that point is used only where a line of the direction starts."""
    n = 0
    for y in range(WIDTH):
        for x in range(WIDTH):
            for d in range(4):
                dx = 1 if d < 2 else (0 if d == 2 else -1)
                if x + 4 * dx < 0 or x + 4 * dx >= WIDTH or (d > 0 and y + 4 >= WIDTH):
                    continue
                start = y * WIDTH + x
                step = _step(d)
                used = 2 << d
                empty = -1
                count = 0
                for i in range(5):
                    cell = board[start + i * step]
                    if cell & WALL or (cell & used and (variant == 0 or i < 4)):
                        count = -1
                        break
                    if cell & DOT:
                        count += 1
                    else:
                        empty = i
                if count == 4 and span == 6 and board[start + 5 * step] & used:
                    count = -1
                if count == 4 and n < out.size:
                    out[n] = (start * 4 + d) * 5 + empty
                    n += 1
    return n
