"""The Morpion networks' input planes and move indices (nrpa/neural/planes.py) against a
plain-Python reading of the same definitions on the plain-Python rules, and by hand."""

import numpy as np
import pytest

from nrpa.domains import morpion_rules
from nrpa.domains.morpion import decode_move, encode_move, make_morpion
from nrpa.neural.planes import CHANNELS, HISTORY, SIZE, legal_mask, move_index, positions_planes, write_planes
from nrpa.neural.play import legal_count, state_after

DIRECTIONS = morpion_rules.DIRECTIONS
SHIFT = 13  # window row/column of a point = its SOURCE.md coordinate + 13 (the cross's origin at 13)


def reference_planes(moves, representation):
    """The planes from the plain-Python rules, written from the module docstring's definitions."""
    position = morpion_rules.replay_position("5D", moves)
    planes = np.zeros((CHANNELS[representation], SIZE, SIZE), dtype=np.float32)

    def mark(plane, x, y):
        if 0 <= y + SHIFT < SIZE and 0 <= x + SHIFT < SIZE:
            planes[plane, y + SHIFT, x + SHIFT] = 1

    for x, y in position.dots:
        mark(0, x, y)
    for move in position.moves:
        d = DIRECTIONS.index(move.direction)
        for x, y in move.points()[:4]:
            mark(1 + d, x, y)
    for move in morpion_rules.legal_moves(position):
        mark(5 + DIRECTIONS.index(move.direction), move.start_x, move.start_y)
    for i in range(min(HISTORY[representation], len(position.moves))):
        mark(9 + i, *position.moves[-1 - i].dot)
    return planes


@pytest.fixture(scope="module")
def domain():
    return make_morpion("5D")


@pytest.fixture(scope="module")
def record(domain):
    moves = morpion_rules.load_record("5d_82_rosin")
    return moves, np.array([encode_move(domain, list(m)) for m in moves], dtype=np.int64)


def kernel_planes(domain, kernel_moves, representation):
    out = np.zeros((CHANNELS[representation], SIZE, SIZE), dtype=np.float32)
    write_planes(domain, state_after(domain, kernel_moves), HISTORY[representation], out)
    return out


def test_the_initial_position_by_hand(domain):
    planes = kernel_planes(domain, np.zeros(0, dtype=np.int64), "R2")
    assert planes[0].sum() == 36  # the cross
    assert planes[0, 13, 13] == 1 and planes[0, 13, 10] == 1 and planes[0, 19, 16] == 1  # (0,0) (-3,0) (3,6)
    assert planes[0, 12, 12] == 0  # (-1,-1): the inside corner of the cross is empty
    assert planes[1:5].sum() == 0 and planes[9:].sum() == 0  # no line, no move played
    per_direction = planes[5:9].sum(axis=(1, 2))
    # 28 first moves (SOURCE.md); the cross is symmetric under a quarter turn, which swaps
    # horizontal with vertical and one diagonal with the other
    assert per_direction.sum() == 28
    assert per_direction[0] == per_direction[2] and per_direction[1] == per_direction[3]


def test_one_move_draws_four_segment_starts_in_its_direction(domain):
    first = morpion_rules.legal_moves(morpion_rules.initial_position("5D"))[0]
    planes = kernel_planes(domain, np.array([encode_move(domain, list(first))]), "R2")
    d = DIRECTIONS.index(first.direction)
    marked = {(int(r) - SHIFT, int(c) - SHIFT) for r, c in zip(*np.nonzero(planes[1 + d]))}
    assert marked == {(y, x) for x, y in first.points()[:4]}
    assert planes[1:5].sum() == 4
    assert planes[9, first.dot_y + SHIFT, first.dot_x + SHIFT] == 1 and planes[9].sum() == 1  # the last move
    assert planes[0].sum() == 37


@pytest.mark.parametrize("representation", ["R1", "R2"])
@pytest.mark.parametrize("ply", [0, 1, 5, 9, 40, 81, 82])
def test_the_kernel_planes_are_the_plain_python_planes_along_the_record(domain, record, representation, ply):
    moves, kernel_moves = record
    expected = reference_planes(moves[:ply], representation)
    assert np.array_equal(kernel_planes(domain, kernel_moves[:ply], representation), expected)


def test_move_indices_name_the_line_start_and_the_mask_holds_every_legal_move(domain, record):
    moves, kernel_moves = record
    for ply in (0, 20, 60):
        position = morpion_rules.replay_position("5D", moves[:ply])
        legal = morpion_rules.legal_moves(position)
        mask = np.zeros(4 * SIZE * SIZE, dtype=np.bool_)
        state = state_after(domain, kernel_moves[:ply])
        legal_mask(domain, state, mask)
        assert mask.sum() == len(legal) == legal_count(domain, state)
        for move in legal:
            index = move_index(encode_move(domain, list(move)))
            d, rest = divmod(index, SIZE * SIZE)
            row, column = divmod(rest, SIZE)
            assert mask[index] and DIRECTIONS[d] == move.direction
            assert (column - SHIFT, row - SHIFT) == (move.start_x, move.start_y)
    far = encode_move(domain, [20, 0, 1, 0, 16, 0])  # a line starting at x = 16: column 29, inside
    assert move_index(far) == 13 * SIZE + 29
    beyond = encode_move(domain, [21, 0, 1, 0, 17, 0])  # starting at x = 17: outside the window
    assert move_index(beyond) == -1 and decode_move(domain, beyond)[4] == 17


def test_a_batch_of_positions_is_the_planes_of_each_and_its_targets_the_moves_played(domain, record):
    _, kernel_moves = record
    games = np.full((2, 82), -1, dtype=np.int64)
    games[0] = kernel_moves
    games[1, :30] = kernel_moves[:30]
    lengths = np.array([82, 30], dtype=np.int64)
    game_of = np.array([1, 0, 0, 1, 0], dtype=np.int64)
    ply_of = np.array([29, 81, 3, 0, 3], dtype=np.int64)
    out = np.zeros((5, 17, SIZE, SIZE), dtype=np.float32)
    targets = np.zeros(5, dtype=np.int64)
    positions_planes(domain, games, lengths, game_of, ply_of, 8, out, targets)
    for i, (game, ply) in enumerate(zip(game_of, ply_of)):
        assert np.array_equal(out[i], kernel_planes(domain, games[game, :ply], "R2"))
        assert targets[i] == move_index(games[game, ply])
    assert (targets >= 0).all()
