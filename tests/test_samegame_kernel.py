"""The numba SameGame against the plain-Python rules, move by move, on random boards."""

import numpy as np
from hypothesis import given, settings, strategies as st

from nrpa.domains import samegame, samegame_rules as rules
from nrpa.domains.samegame import (
    make_samegame, sg_copy_state, sg_legal_moves, sg_max_moves, sg_new_state, sg_play, zobrist_table,
)
from tests.conftest import kernel_grid, random_rows


def canonical_move(cells, height):
    """A group's move id as the kernel documents it: its lowest stone in its leftmost column,
    whatever the state's history (row 0 at the top)."""
    col = min(c for _, c in cells)
    row = max(r for r, c in cells if c == col)
    return col * 64 + height - 1 - row


def kernel_groups(domain, state):
    """{top-left cell: (size, code)} of the moves the kernel offers; each move's id must be its
    group's canonical one."""
    moves = np.zeros(sg_max_moves(domain), dtype=np.int64)
    codes = np.zeros(sg_max_moves(domain), dtype=np.int64)
    n = sg_legal_moves(domain, state, moves, codes)
    grid = kernel_grid(domain, state)
    offered = {}
    for move, code in zip(moves[:n], codes[:n]):
        col, k = divmod(int(move), 64)
        cells = rules.group_at(grid, int(domain.height) - 1 - k, col)
        assert int(move) == canonical_move(cells, int(domain.height))
        offered[cells[0]] = (len(cells), int(code))
    assert len(offered) == n, "two moves for one group"
    return offered, moves[:n]


def python_groups(grid, groups, table):
    """{top-left cell: (size, code)} of ``groups`` (lists of cells), by the plain-Python rules."""
    return {cells[0]: (len(cells), rules.group_code(grid, cells, table)) for cells in groups}


# Random boards and playout rules for the hypothesis tests.
RANDOM_BOARDS = dict(
    seed=st.integers(0, 2**32 - 1),
    height=st.integers(1, 9),
    width=st.integers(1, 9),
    colours=st.integers(1, 5),
    rule=st.sampled_from(["none", "tabu", "selective"]),
    threshold=st.integers(0, 4),
)


@settings(max_examples=60, deadline=None)
@given(**RANDOM_BOARDS)
def test_kernel_plays_exactly_the_python_rules(seed, height, width, colours, rule, threshold):
    rows = random_rows(seed, height, width, colours)
    domain = make_samegame(rows, rule=rule, threshold=threshold, zobrist_seed=seed)
    table = zobrist_table(width, height, seed)
    tabu = rules.tabu_colour(rows)
    state = sg_new_state(domain)
    grid = rules.new_grid(rows)
    score = 0
    rng = np.random.default_rng(seed)
    for moves_played in range(height * width):
        expected = python_groups(grid, rules.legal_groups(grid, rule=rule, threshold=threshold, tabu=tabu,
                                                          moves_played=moves_played), table)
        offered, moves = kernel_groups(domain, state)
        assert offered == expected
        assert (moves.size == 0) == (not rules.all_groups(grid))  # a rule never leaves a game without moves
        if not moves.size:
            break
        move = int(moves[rng.integers(moves.size)])
        col, k = divmod(move, 64)
        score += rules.remove_group(grid, rules.group_at(grid, height - 1 - k, col))
        sg_play(domain, state, move)
        assert kernel_grid(domain, state) == grid
        assert state.info[1] == score
        assert state.info[2] == moves_played + 1


@settings(max_examples=60, deadline=None)
@given(**RANDOM_BOARDS)
def test_the_kept_groups_stay_exact_through_unlisted_moves_and_state_copies(seed, height, width, colours, rule,
                                                                            threshold):
    """The kernel keeps its groups between moves and finds again only those near a move; it
    must list what a full scan (the Python rules) finds even when several moves are played
    between two listings, when a move is clicked on any stone of its group, and when the state
    is copied (stale groups included) and play goes on from the copy."""
    rows = random_rows(seed, height, width, colours)
    domain = make_samegame(rows, rule=rule, threshold=threshold, zobrist_seed=seed)
    table = zobrist_table(width, height, seed)
    tabu = rules.tabu_colour(rows)
    state, spare = sg_new_state(domain), sg_new_state(domain)
    grid = rules.new_grid(rows)
    rng = np.random.default_rng(seed)
    listed = 0
    for moves_played in range(height * width):
        groups = rules.all_groups(grid)
        if rng.random() < 0.5 or not groups:
            expected = python_groups(grid, rules.legal_groups(grid, rule=rule, threshold=threshold, tabu=tabu,
                                                              moves_played=moves_played), table)
            assert kernel_groups(domain, state)[0] == expected
            listed += 1
        if not groups:
            break
        if rng.random() < 0.3:
            sg_copy_state(domain, state, spare)
            state, spare = spare, state
        cells = groups[rng.integers(len(groups))]
        row, col = cells[rng.integers(len(cells))]
        rules.remove_group(grid, cells)
        sg_play(domain, state, col * 64 + height - 1 - row)
    assert listed > 0


def test_a_board_wider_than_64_columns_lists_every_group():
    """The kernel notes which of 64 columns hold seeds in one word; wider boards scan the rest."""
    rows = random_rows(3, 4, 70, 3)
    domain = make_samegame(rows, rule="none", zobrist_seed=3)
    table = zobrist_table(70, 4, 3)
    state = sg_new_state(domain)
    grid = rules.new_grid(rows)
    assert any(col >= 64 for cells in rules.all_groups(grid) for _, col in cells)
    for _ in range(20):
        expected = python_groups(grid, rules.all_groups(grid), table)
        offered, moves = kernel_groups(domain, state)
        assert offered == expected
        col, k = divmod(int(moves[0]), 64)
        rules.remove_group(grid, rules.group_at(grid, 3 - k, col))
        sg_play(domain, state, int(moves[0]))


def test_the_largest_board_lists_every_group_at_the_edges_of_the_packed_records():
    """A group record packs its move id (x * 64 + k), size, colour and first and last column
    in one word, each field sized for a board of MAX_WIDTH columns and MAX_HEIGHT rows: on
    such a board, with a group in the last column and one of thousands of stones, the kernel
    lists what the Python rules find, under the selective rule (which reads the sizes)."""
    width, height = rules.MAX_WIDTH, rules.MAX_HEIGHT
    rows = random_rows(5, height, width, 3)
    for row in rows:
        row[200:240] = [1] * 40  # one group of at least 63 * 40 stones
        row[-2:] = [2, 2]  # groups in the last two columns, up to the top row
    domain = make_samegame(rows, rule="selective", threshold=0, zobrist_seed=5)
    table = zobrist_table(width, height, 5)
    tabu = rules.tabu_colour(rows)
    state = sg_new_state(domain)
    grid = rules.new_grid(rows)
    assert max(len(cells) for cells in rules.all_groups(grid)) > 2**8
    for moves_played in range(6):
        expected = python_groups(grid, rules.legal_groups(grid, rule="selective", threshold=0, tabu=tabu,
                                                          moves_played=moves_played), table)
        offered, moves = kernel_groups(domain, state)
        assert offered == expected
        for code, meta in state.groups[: state.info[4]]:  # every record, the tabu colour's held ones too
            col, k = divmod(int(samegame._field(meta, samegame.MOVE)), 64)
            cells = rules.group_at(grid, height - 1 - k, col)
            assert samegame._field(meta, samegame.SIZE) == len(cells) and code == rules.group_code(grid, cells, table)
            assert domain.colours[samegame._field(meta, samegame.COLOUR)] == grid[height - 1 - k][col]
            columns = [c for _, c in cells]
            assert (samegame._field(meta, samegame.LO), samegame._field(meta, samegame.HI)) == (min(columns),
                                                                                                max(columns))
        move = int(moves.max())  # the group reaching furthest right, then highest
        col, k = divmod(move, 64)
        rules.remove_group(grid, rules.group_at(grid, height - 1 - k, col))
        sg_play(domain, state, move)


def test_move_code_is_the_xor_of_the_cell_numbers_of_the_group():
    rows = [[2, 2], [1, 0]]
    domain = make_samegame(rows, rule="none", zobrist_seed=7)
    table = zobrist_table(2, 2, 7)
    offered, _ = kernel_groups(domain, sg_new_state(domain))
    assert offered == {(0, 0): (2, int(table[0, 2] ^ table[1, 2]))}


def test_a_group_keeps_its_code_while_its_cells_do_not_move():
    rows = [[0, 3, 3],
            [1, 1, 2]]
    domain = make_samegame(rows, rule="none")
    state = sg_new_state(domain)
    before, moves = kernel_groups(domain, state)
    assert set(before) == {(0, 1), (1, 0)}
    sg_play(domain, state, int(moves[list(before).index((0, 1))]))  # the 3s sit above nothing else
    after, _ = kernel_groups(domain, state)
    assert after == {(1, 0): before[(1, 0)]}


def test_clearing_the_standard_board_column_by_column_is_scored_like_python():
    rows = rules.load_board(1).rows
    domain = make_samegame(rows, rule="none")
    state = sg_new_state(domain)
    grid = rules.new_grid(rows)
    moves = np.zeros(200, dtype=np.int64)
    codes = np.zeros(200, dtype=np.int64)
    score = 0
    while (n := sg_legal_moves(domain, state, moves, codes)) > 0:
        col, k = divmod(int(moves[n - 1]), 64)  # always the last group offered
        score += rules.remove_group(grid, rules.group_at(grid, 14 - k, col))
        sg_play(domain, state, int(moves[n - 1]))
    assert state.info[1] == score
    assert kernel_grid(domain, state) == grid
