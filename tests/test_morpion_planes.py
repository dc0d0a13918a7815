"""The Morpion networks' input planes and output indices (nrpa/neural/planes.py): by hand on
the cross and after one move, and the kernels against the plain-Python ``reference_planes``
along the 5D and 5T record games."""

import numpy as np
import pytest
from numba import njit

from nrpa.domains import contract, morpion_rules
from nrpa.domains.morpion import decode_move, encode_move, make_morpion
from nrpa.neural.planes import (
    CHANNELS, HISTORY, OFFSET, OUTPUTS, SIZE, legal_mask, move_index, positions_planes, reference_planes, write_planes,
)
from nrpa.neural.play import legal_move_ids, state_after

SHIFT = 13  # window row/column of a point = its SOURCE.md coordinate + 13 (OFFSET = ORIGIN - 13)
RECORDS = {"5D": "5d_82_rosin", "5T": "5t_178_rosin"}


@njit(cache=True)
def random_game(domain, seed):
    """A uniform random game to its end, as kernel move ids."""
    np.random.seed(seed)
    state = contract.new_state(domain)
    contract.reset(domain, state)
    width = contract.max_moves(domain)
    moves = np.zeros(width, dtype=np.int64)
    played = np.zeros(contract.max_length(domain), dtype=np.int64)
    m = 0
    n = contract.legal_moves(domain, state, moves, np.zeros(width, dtype=np.int64))
    while n > 0:
        played[m] = moves[np.random.randint(n)]
        contract.play(domain, state, played[m])
        m += 1
        n = contract.legal_moves(domain, state, moves, np.zeros(width, dtype=np.int64))
    return played[:m].copy()


@pytest.fixture(scope="module")
def domains():
    return {variant: make_morpion(variant) for variant in RECORDS}


@pytest.fixture(scope="module")
def records(domains):
    """Each variant's record: its plain-Python moves and its kernel move ids."""
    found = {}
    for variant, name in RECORDS.items():
        moves = morpion_rules.load_record(name)
        found[variant] = moves, np.array([encode_move(domains[variant], list(m)) for m in moves], dtype=np.int64)
    return found


def kernel_planes(domain, kernel_moves, representation):
    # Filled with garbage first: write_planes must clear what it does not mark.
    out = np.full((CHANNELS[representation], SIZE, SIZE), 7.0, dtype=np.float32)
    write_planes(domain, state_after(domain, np.asarray(kernel_moves, dtype=np.int64)), HISTORY[representation], out)
    return out


def test_the_constants():
    assert (SIZE, OFFSET, OUTPUTS) == (30, 17, 3600)
    assert CHANNELS == {"R1": 9, "R2": 17}


@pytest.mark.parametrize("variant", ["5D", "5T"])
def test_the_initial_position_by_hand(domains, variant):
    planes = kernel_planes(domains[variant], [], "R2")
    assert planes[0].sum() == 36  # the cross's dots, nothing else
    # (x, y) = (0, 0), (-3, 0), (3, 6), (6, 3) at window (row, column) = (y + 13, x + 13)
    assert planes[0, 13, 13] == planes[0, 13, 10] == planes[0, 19, 16] == planes[0, 16, 19] == 1
    assert planes[0, 12, 12] == 0  # (-1, -1): inside the cross's corner, empty
    assert planes[1:5].sum() == 0 and planes[9:].sum() == 0  # no line drawn, no move played
    # By hand from the cross: horizontally, rows y = -3 and y = 6 hold 4 dots each (x 0..3):
    # 2 moves each (new dot at x = -1 or 4); rows y = 0 and y = 3 hold x -3..0 and 3..6: 4
    # moves each (new dot at -4, 1, 2 or 7); the other rows hold 2 dots: 2 + 2 + 4 + 4 = 12.
    # Vertically the same (a quarter turn maps the cross onto itself): 12. Diagonal (1,1):
    # only x - y = 5 ((2,-3) (3,-2) (5,0) (6,1), missing (4,-1)) and x - y = -5 ((-3,2)
    # (-2,3) (0,5) (1,6), missing (-1,4)) hold 4 dots in 5 consecutive points: 2; (-1,1): 2.
    # 28 in all, the count of SOURCE.md; 5D and 5T agree before any line is drawn.
    assert planes[5:9].sum(axis=(1, 2)).tolist() == [12, 2, 12, 2]
    assert planes[6, 10, 15] == 1  # the (1,1) line starting at (2,-3)
    assert planes[5, 13, 9] == planes[5, 13, 10] == 1  # the rows y = 0 starting at x = -4, -3


@pytest.mark.parametrize("variant", ["5D", "5T"])
@pytest.mark.parametrize("move, start", [
    # a horizontal line from (0,-3) to (4,-3), the new dot at its end
    ([4, -3, 1, 0, 0, -3], (0, -3)),
    # a (1,1) diagonal from (2,-3) to (6,1), the new dot (4,-1) in its middle
    ([4, -1, 1, 1, 2, -3], (2, -3)),
])
def test_one_move_sets_one_point_its_lines_start_in_its_direction(domains, variant, move, start):
    """The paper: "Every time a new place is occupied ... we set one boolean value in the first
    matrix, and one boolean value from one of the 4 remaining matrices"."""
    planes = kernel_planes(domains[variant], [encode_move(domains[variant], move)], "R2")
    d = morpion_rules.DIRECTIONS.index((move[2], move[3]))
    marked = {(int(c) - SHIFT, int(r) - SHIFT) for r, c in zip(*np.nonzero(planes[1 + d]))}
    assert marked == {start}
    assert planes[1:5].sum() == 1  # and nothing in the other directions
    assert planes[0].sum() == 37 and planes[0, move[1] + SHIFT, move[0] + SHIFT] == 1
    assert planes[9].sum() == 1 and planes[9, move[1] + SHIFT, move[0] + SHIFT] == 1  # the last move
    assert planes[10:].sum() == 0  # no earlier move


@pytest.mark.parametrize("representation", ["R1", "R2"])
@pytest.mark.parametrize("variant, plies", [
    ("5D", [0, 1, 3, 8, 9, 30, 81, 82]),
    ("5T", [1, 9, 60, 120, 177, 178]),
])
def test_the_kernel_planes_are_the_reference_planes_along_the_records(domains, records, representation,
                                                                      variant, plies):
    moves, kernel_moves = records[variant]
    for ply in plies:
        expected = reference_planes(variant, moves[:ply], HISTORY[representation])
        assert expected.shape == (CHANNELS[representation], SIZE, SIZE)
        got = kernel_planes(domains[variant], kernel_moves[:ply], representation)
        assert np.array_equal(got, expected), f"{variant} ply {ply}"
    if plies[-1] == len(moves):  # the record's end: no legal move left
        assert expected[5:9].sum() == 0


@pytest.mark.parametrize("variant, plies", [("5D", [0, 20, 60]), ("5T", [0, 50, 120])])
def test_the_mask_holds_every_legal_move_and_indices_name_the_line(domains, records, variant, plies):
    domain = domains[variant]
    moves, kernel_moves = records[variant]
    for ply in plies:
        state = state_after(domain, kernel_moves[:ply])
        legal = legal_move_ids(domain, state)
        # the kernel's moves are the plain-Python rules' moves
        rules = morpion_rules.legal_moves(morpion_rules.replay_position(variant, moves[:ply]))
        assert sorted(legal.tolist()) == sorted(encode_move(domain, list(m)) for m in rules)
        indices = [move_index(move) for move in legal]
        assert min(indices) >= 0  # these positions have every legal line start inside the window
        mask = np.ones(OUTPUTS, dtype=np.bool_)  # all True: legal_mask must clear it
        legal_mask(domain, state, mask)
        assert mask.sum() == len(legal) > 0
        assert len(set(indices)) == len(legal)  # one line, one move: no two share an index
        for move, index in zip(legal, indices):
            assert mask[index]
            d, rest = divmod(index, SIZE * SIZE)
            row, column = divmod(rest, SIZE)
            _, _, dx, dy, start_x, start_y = decode_move(domain, move)
            assert morpion_rules.DIRECTIONS[d] == (dx, dy)
            assert (column - SHIFT, row - SHIFT) == (start_x, start_y)


def test_a_line_starting_outside_the_window_has_no_index(domains):
    domain = domains["5D"]
    # window columns and rows 0..29 hold SOURCE.md coordinates -13..16
    assert move_index(encode_move(domain, [20, 0, 1, 0, 16, 0])) == 0 * 900 + 13 * SIZE + 29
    assert move_index(encode_move(domain, [21, 0, 1, 0, 17, 0])) == -1
    assert move_index(encode_move(domain, [-13, -13, 0, 1, -13, -13])) == 2 * 900 + 0
    assert move_index(encode_move(domain, [-14, 0, 0, 1, -14, -4])) == -1
    assert move_index(encode_move(domain, [-18, 4, -1, 1, -14, 0])) == -1  # dot inside, start not
    assert move_index(encode_move(domain, [0, 16, 1, 1, 0, 16])) == 900 + 29 * SIZE + 13
    assert move_index(encode_move(domain, [0, 17, 1, 1, 0, 17])) == -1


def test_a_batch_of_positions_is_the_planes_of_each_and_its_targets_the_moves_played(domains, records):
    domain = domains["5D"]
    record = records["5D"][1]
    other = random_game(domain, 3)
    assert 0 < len(other) < len(record) and other[0] != record[0]  # two different games
    games = np.full((2, len(record)), -1, dtype=np.int64)  # padded with -1
    games[0] = record
    games[1, :len(other)] = other
    lengths = np.array([len(record), len(other)], dtype=np.int64)
    # out of order, switching games and going back in a game, ending at the shorter's last move
    game_of = np.array([1, 0, 0, 1, 0, 1, 0], dtype=np.int64)
    ply_of = np.array([5, 81, 3, 0, 3, len(other) - 1, 0], dtype=np.int64)
    for representation in ("R1", "R2"):
        out = np.full((len(game_of), CHANNELS[representation], SIZE, SIZE), 7.0, dtype=np.float32)
        targets = np.full(len(game_of), -7, dtype=np.int64)
        positions_planes(domain, games, lengths, game_of, ply_of, HISTORY[representation], out, targets)
        for i, (game, ply) in enumerate(zip(game_of, ply_of)):
            assert np.array_equal(out[i], kernel_planes(domain, games[game, :ply], representation)), i
            assert targets[i] == move_index(games[game, ply]) >= 0, i
