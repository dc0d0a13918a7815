"""The input planes of the Morpion networks, and the index of a move among their outputs, as
numba kernels over the Morpion state (nrpa/domains/morpion.py), after the paper's section 3.1
(quoted in docs/readings.md):

* **The window.** 30 x 30 points ("five 30 x 30 binary valued matrices, which are large enough
  to capture any record holding boards"); plane cell (row r, column c) is kernel cell
  (y, x) = (OFFSET + r, OFFSET + c), OFFSET = ORIGIN - 13, so the cross (kernel cells 27..36)
  sits in the middle (the placement is ours). What lies outside the window is not seen.
* **R1, 9 planes.** 0: the dots ("the occupied places"). 1 + d (d = 0..3, directions (1,0),
  (1,1), (0,1), (-1,1)): the start point of every drawn line of direction d, one point per
  move, as the paper has it ("Every time a new place is occupied (i.e. the player makes a move)
  we set one boolean value in the first matrix, and one boolean value from one of the 4
  remaining matrices"; a segment there is a whole line, "determined by ... the starting point
  of the segment, and one direction"). Computed from the moves played. 5 + d: the start points
  of the legal moves of direction d ("4 extra matrices ... all the possible moves for the next
  move (one matrix for each possible direction)"). The paper orders the directions left to
  right, top to bottom, top-left to bottom-right, top-right to bottom-left, i.e. (1,0), (0,1),
  (1,1), (-1,1): ours is a permutation of the planes, immaterial to a network trained on them.
* **R2, 17 planes.** R1 and "8 extra matrices, to represent the 8 previous moves": in plane
  9 + i, the new dot of the move played i + 1 plies ago (none before the game has that many
  moves; marking the new dot is our reading: the paper does not say what a plane holds).
* **Outputs.** One logit per (point, direction), 3600: a move is its line (in any position a
  line holds at most one legal move), at index d * 900 + r * 30 + c of its start point. A move
  whose line starts outside the window has no index (-1): the network cannot play it.
Planes 5..8, flattened, are therefore the mask of the legal moves among the outputs.

``reference_planes`` computes the same planes in plain Python from the plain-Python rules
(``nrpa.domains.morpion_rules``), sharing no code with the kernels: the tests compare the two.
"""

import numpy as np
from numba import njit

from nrpa.domains import morpion_rules
from nrpa.domains.contract import new_state, play, reset
from nrpa.domains.morpion_board import DOT, FIRST_MOVE, N_LEGAL, N_PLAYED, ORIGIN, WIDTH, _step

SIZE = 30
OFFSET = ORIGIN - 13
OUTPUTS = 4 * SIZE * SIZE
CHANNELS = {"R1": 9, "R2": 17}
HISTORY = {"R1": 0, "R2": 8}  # the history planes of each representation
LEGAL_PLANES = slice(5, 9)
# The layout of the planes, kept in every training checkpoint's settings so that a network
# trained on another layout is refused, not used (1: each drawn line marked at its 4 unit
# segments' starts; 2: at its start point only, the paper's one point per move).
LAYOUT = 2


def legal_from_planes(planes):
    """The legal moves' mask among the outputs (bool [batch, 3600]) of a batch of planes
    (numpy or torch): planes 5..8 flattened."""
    return planes[:, LEGAL_PLANES].reshape(len(planes), OUTPUTS) > 0


@njit(cache=True)
def _window(cell):
    """(row, column) of a kernel cell in the window, (-1, -1) outside it."""
    row = cell // WIDTH - OFFSET
    column = cell % WIDTH - OFFSET
    if 0 <= row < SIZE and 0 <= column < SIZE:
        return row, column
    return -1, -1


@njit(cache=True)
def move_index(move):
    """The output index of a kernel move id (its line's start and direction), -1 outside."""
    line = move // 5
    row, column = _window(line >> 2)
    if row < 0:
        return -1
    return (line & 3) * SIZE * SIZE + row * SIZE + column


@njit(cache=True)
def move_indices(moves):
    """``move_index`` of each kernel move id of an array."""
    out = np.empty(moves.size, dtype=np.int64)
    for i in range(moves.size):
        out[i] = move_index(moves[i])
    return out


@njit(cache=True)
def _mark(out, plane, cell):
    row, column = _window(cell)
    if row >= 0:
        out[plane, row, column] = 1.0


@njit(cache=True)
def write_planes(domain, state, history_planes, out):
    """The planes of ``state`` into ``out`` (float32 [9 or 17, 30, 30]); ``history_planes``: 0
    (R1) or 8 (R2)."""
    out[:] = 0.0
    board = state.board
    lists = state.lists
    for row in range(SIZE):
        for column in range(SIZE):
            if board[(OFFSET + row) * WIDTH + OFFSET + column] & DOT:
                out[0, row, column] = 1.0
    history = FIRST_MOVE + domain.max_moves
    played = lists[N_PLAYED]
    for t in range(played):
        line = lists[history + t] // 5
        _mark(out, 1 + (line & 3), line >> 2)
    for i in range(lists[N_LEGAL]):
        line = lists[FIRST_MOVE + i] // 5
        _mark(out, 5 + (line & 3), line >> 2)
    for i in range(min(history_planes, played)):
        move = lists[history + played - 1 - i]
        line = move // 5
        _mark(out, 9 + i, (line >> 2) + (move - line * 5) * _step(line & 3))


@njit(cache=True)
def legal_mask(domain, state, out):
    """``out`` (bool [3600]) True at the index of every legal move inside the window."""
    out[:] = False
    lists = state.lists
    for i in range(lists[N_LEGAL]):
        index = move_index(lists[FIRST_MOVE + i])
        if index >= 0:
            out[index] = True


@njit(cache=True)
def positions_planes(domain, games, lengths, game_of, ply_of, history_planes, out, targets):
    """For each sample i, the planes of the position after the first ``ply_of[i]`` moves of
    game ``game_of[i]`` (``games``: kernel move ids, one game a row) into ``out[i]``, and the
    output index of the move played there into ``targets[i]`` (-1: none, or outside)."""
    state = new_state(domain)
    current_game = -1
    current_ply = 0
    for i in range(game_of.size):
        game = game_of[i]
        ply = ply_of[i]
        if game != current_game or ply < current_ply:  # replay from the start
            reset(domain, state)
            current_game = game
            current_ply = 0
        while current_ply < ply:
            play(domain, state, games[game, current_ply])
            current_ply += 1
        write_planes(domain, state, history_planes, out[i])
        targets[i] = move_index(games[game, ply]) if ply < lengths[game] else -1


def reference_planes(variant, moves, history_planes):
    """The planes (float32 [9 + history_planes, 30, 30]) of the position after ``moves``
    (morpion_rules Moves, or six integers each, SOURCE.md coordinates) under ``variant``, from
    the plain-Python rules: the reference the kernels are tested against."""
    position = morpion_rules.replay_position(variant, moves)
    planes = np.zeros((9 + history_planes, SIZE, SIZE), dtype=np.float32)
    shift = ORIGIN - OFFSET  # window row/column = SOURCE.md coordinate + 13

    def mark(plane, point):
        row, column = point[1] + shift, point[0] + shift
        if 0 <= row < SIZE and 0 <= column < SIZE:  # outside the window: not seen
            planes[plane, row, column] = 1.0

    for point in position.dots:
        mark(0, point)
    for move in position.moves:  # a line is marked at its start point
        mark(1 + morpion_rules.DIRECTIONS.index(move.direction), (move.start_x, move.start_y))
    for move in morpion_rules.legal_moves(position):
        mark(5 + morpion_rules.DIRECTIONS.index(move.direction), (move.start_x, move.start_y))
    for i in range(min(history_planes, len(position.moves))):  # i = 0: the last move
        mark(9 + i, position.moves[-1 - i].dot)
    return planes
