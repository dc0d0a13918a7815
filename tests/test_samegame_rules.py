"""The plain-Python SameGame rules against positions whose answer is worked out by hand."""

import pytest

from nrpa.domains.samegame_rules import (
    BoardError, IllegalMove, all_groups, components, group_at, legal_groups, load_board,
    new_grid, parse_board, remove_group, replay, tabu_colour,
)

_ = None  # an empty cell


def test_removing_a_group_of_n_stones_scores_n_minus_2_squared():
    grid = new_grid([[0, 1, 1],
                     [0, 1, 2],
                     [2, 1, 2]])
    assert remove_group(grid, group_at(grid, 0, 1)) == (4 - 2) ** 2


def test_gravity_pulls_stones_down_and_empty_columns_shift_left():
    grid = new_grid([[1, 2, 0],
                     [0, 2, 0],
                     [0, 2, 1]])
    remove_group(grid, group_at(grid, 0, 1))  # the whole middle column
    assert grid == [[1, 0, _],
                    [0, 0, _],
                    [0, 1, _]]
    remove_group(grid, group_at(grid, 1, 0))  # the 0s of both columns fall
    assert grid == [[_, _, _],
                    [_, _, _],
                    [1, 1, _]]


def test_clearing_the_board_adds_1000():
    grid = new_grid([[3, 3], [3, 3]])
    assert remove_group(grid, group_at(grid, 1, 1)) == 4 + 1000


def test_stones_left_at_the_end_cost_nothing():
    assert replay([[1, 1, 2]], [(0, 0)]) == 0  # a 2-group scores 0 and one stone is left


def test_groups_are_four_connected_and_at_least_two_stones():
    grid = new_grid([[1, 0, 1],
                     [0, 1, 0],
                     [1, 0, 1]])
    assert all_groups(grid) == []  # diagonal neighbours do not connect
    assert components(grid, 1) == 5


def test_tabu_colour_is_the_most_frequent_with_ties_to_the_lowest_code():
    assert tabu_colour([[2, 2, 1, 1, 0]]) == 1
    assert tabu_colour(load_board(1).rows) == 1  # SOURCE.md: board 1's most frequent colour


def test_tabu_colour_is_not_played_while_it_has_two_components():
    grid = new_grid([[1, 1, 2, 1],
                     [0, 0, 2, 1]])
    groups = legal_groups(grid, rule="tabu", threshold=0, tabu=1, moves_played=0)
    assert sorted(cells[0] for cells in groups) == [(0, 2), (1, 0)]


def test_tabu_colour_is_played_once_it_has_a_single_component():
    grid = new_grid([[1, 1, 2, 0],
                     [0, 0, 2, 0]])
    groups = legal_groups(grid, rule="tabu", threshold=0, tabu=1, moves_played=0)
    assert (0, 0) in [cells[0] for cells in groups]


def test_selective_allows_a_two_stone_tabu_group_only_after_more_than_t_moves():
    grid = new_grid([[1, 1, 2, 1, 1, 1],
                     [0, 0, 2, 0, 3, 3]])
    def tabu_groups(moves_played):
        groups = legal_groups(grid, rule="selective", threshold=10, tabu=1, moves_played=moves_played)
        return sorted(cells[0] for cells in groups if grid[cells[0][0]][cells[0][1]] == 1)
    assert tabu_groups(10) == []
    assert tabu_groups(11) == [(0, 0)]  # the 3-stone tabu group stays forbidden


def test_when_the_rule_leaves_no_move_every_group_is_legal():
    grid = new_grid([[1, 1, 0, 1, 1]])
    groups = legal_groups(grid, rule="tabu", threshold=0, tabu=1, moves_played=0)
    assert sorted(cells[0] for cells in groups) == [(0, 0), (0, 3)]


def test_replay_rejects_a_click_on_a_single_stone():
    with pytest.raises(IllegalMove, match="move 1"):
        replay([[1, 2, 2]], [(0, 0)])


def test_the_20_standard_boards_load_as_15_by_15_with_5_colours():
    for number in range(1, 21):
        board = load_board(number)
        assert (board.height, board.width) == (15, 15)
        assert {c for row in board.rows for c in row} == {0, 1, 2, 3, 4}
    counts = [sum(row.count(c) for row in load_board(1).rows) for c in range(5)]
    assert counts == [48, 50, 34, 49, 44]  # SOURCE.md's table for board 1


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "is empty"),
        ("0 1\n0 1 2\n", "line 2: 3 cells where line 1 has 2"),
        ("0 1\n0 x\n", "line 2: 'x' is not a colour digit"),
        ("0 1\n\n0 1\n", "line 2: blank line"),
        ("0 1 2 3 4 5 6 7 8\n", "9 colours"),
        ("0 12\n", "line 1: '12' is not a colour digit"),
        ("0 1\n" * 64, "64 rows, at most 63"),
        (" ".join("01" * 129) + "\n", "258 columns, at most 256"),
    ],
)
def test_malformed_board_files_fail_naming_file_and_line(tmp_path, text, message):
    path = tmp_path / "bad.txt"
    path.write_text(text)
    with pytest.raises(BoardError, match=message) as error:
        load_board(str(path))
    assert str(path) in str(error.value)


def test_trailing_blank_lines_are_allowed():
    assert parse_board("1 2\n2 1\n\n\n", "x") == ((1, 2), (2, 1))
