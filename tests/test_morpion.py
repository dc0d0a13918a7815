"""Morpion Solitaire 5D / 5T: the record games, the kernel against the plain-Python rules."""

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st

from analysis.results.morpion_grid import draw_grid
from experiments.run_file import run_id
from experiments.runs import Job
from nrpa.domains import morpion as kernel
from nrpa.domains import morpion_rules as rules
from nrpa.domains.registry import MorpionDomain, MorpionOptions
from nrpa.errors import InputError
from nrpa.search import SearchSettings, run_search
from tests.conftest import run_experiment

DOMAINS = {variant: kernel.make_morpion(variant) for variant in rules.VARIANTS}
SPAN6 = kernel.make_morpion("5D", line_span=6)  # the rule variant: a line blocks 6 points
ONE_SIDED = kernel.make_morpion("5D", line_span=6, one_sided=True)  # its one-sided form
RULE_SETS = [("5D", 5, False), ("5T", 5, False), ("5D", 6, False), ("5D", 6, True)]  # (variant, line_span, one_sided)


def kernel_moves(domain, state) -> list[int]:
    moves = np.zeros(int(domain.max_moves), dtype=np.int64)
    codes = np.zeros(int(domain.max_moves), dtype=np.int64)
    n = kernel.mp_legal_moves(domain, state, moves, codes)
    assert list(codes[:n]) == list(moves[:n])  # the policy code is the move id
    return [int(m) for m in moves[:n]]


def kernel_set(domain, state) -> list[tuple]:
    """The kernel's legal moves as sorted (dot, dir, start) tuples, checked against a full scan."""
    listed = kernel_moves(domain, state)
    assert len(set(listed)) == len(listed)
    scan = np.zeros(1000, dtype=np.int64)
    n = kernel.scan_moves(state.board, domain.variant, domain.span, scan)
    assert sorted(listed) == sorted(int(m) for m in scan[:n])
    return sorted(tuple(kernel.decode_move(domain, m)) for m in listed)


def play_record_in_kernel(domain, record):
    """Play ``record`` in the kernel, each move found among its legal moves; returns the state
    and the 1-based ply of the first move that is not (None when all are)."""
    state = kernel.mp_new_state(domain)
    for ply, move in enumerate(record, start=1):
        move_id = kernel.encode_move(domain, move)
        if move_id not in kernel_moves(domain, state):
            return state, ply
        kernel.mp_play(domain, state, move_id)
    return state, None


@pytest.mark.parametrize("variant", rules.VARIANTS)
def test_the_cross_has_28_legal_moves(variant):
    domain = DOMAINS[variant]
    state = kernel.mp_new_state(domain)
    expected = [tuple(m) for m in rules.legal_moves(rules.initial_position(variant))]
    assert len(expected) == 28
    assert kernel_set(domain, state) == expected


@pytest.mark.parametrize("name, variant, length", [("5d_82_rosin", "5D", 82), ("5t_178_rosin", "5T", 178),
                                                   ("5t_170_bruneau", "5T", 170)])
def test_the_record_games_are_legal_and_terminal(name, variant, length):
    from_csv = rules.load_record(name, ".csv")
    from_psol = rules.load_record(name, ".psol")
    shipped = json.loads(rules.record_path("records", ".json").read_text())["records"][name]
    assert from_csv == from_psol == [rules.Move(*m["dot"], *m["dir"], *m["start"]) for m in shipped["moves"]]
    assert shipped["variant"] == variant and shipped["n_moves"] == length
    assert rules.replay(variant, from_csv) == length
    assert rules.is_terminal(rules.replay_position(variant, from_psol))
    domain = DOMAINS[variant]
    state, refused = play_record_in_kernel(domain, from_csv)
    assert refused is None
    assert kernel_moves(domain, state) == []
    assert state.lists[kernel.BORDER_REACHED] == 0  # far from the grid's edge
    assert state.lists[kernel.N_PLAYED] == length
    kernel.mp_reset(domain, state)  # reset restores the cross and its 28 moves
    fresh = kernel.mp_new_state(domain)
    assert np.array_equal(state.board, fresh.board)
    assert kernel_moves(domain, state) == kernel_moves(domain, fresh)


def test_the_178_game_is_not_a_5d_game_from_ply_10():
    record = rules.load_record("5t_178_rosin")
    with pytest.raises(rules.IllegalMove, match="ply 10: .* under 5D: .*shares the point"):
        rules.replay("5D", record)
    _, refused = play_record_in_kernel(DOMAINS["5D"], record)
    assert refused == 10


def test_a_line_touching_another_at_an_end_is_5t_only():
    first = rules.Move(1, 0, 1, 0, -3, 0)  # (-3,0)..(1,0), new dot (1,0)
    touching = rules.Move(2, 0, 1, 0, 1, 0)  # (1,0)..(5,0): shares only the point (1,0)
    overlapping = rules.Move(2, 0, 1, 0, -2, 0)  # (-2,0)..(2,0): shares unit segments
    for variant, legal in [("5T", True), ("5D", False)]:
        position = rules.replay_position(variant, [first])
        assert (touching in rules.legal_moves(position)) is legal
        assert overlapping not in rules.legal_moves(position)
        assert (rules.why_illegal(position, touching) is None) is legal
        domain = DOMAINS[variant]
        state = kernel.mp_new_state(domain)
        kernel.mp_play(domain, state, kernel.encode_move(domain, first))
        assert (kernel.encode_move(domain, touching) in kernel_moves(domain, state)) is legal
        assert kernel.encode_move(domain, overlapping) not in kernel_moves(domain, state)
    with pytest.raises(rules.IllegalMove, match=r"ply 2: .*5D: the line shares the point \(1,0\)"):
        rules.replay("5D", [first, touching])
    with pytest.raises(rules.IllegalMove, match=r"ply 2: .*5T: the line shares the unit segment"):
        rules.replay("5T", [first, overlapping])


def test_5t_a_line_continuing_the_new_line_beyond_its_end_dot_is_updated():
    """The new line ends at its new dot p, where a line of the same direction starts whose
    missing point was p: in 5T that line is not blocked by the new one but now has 5 dots."""
    prefix = [[2, 3, 1, 0, 2, 3], [0, 1, 0, 1, 0, -3], [4, -3, 1, 0, 0, -3], [-1, 4, 1, 1, -3, 2],
              [-4, 3, 1, 0, -4, 3], [1, 2, 1, 1, -1, 0], [4, -1, 1, 1, 2, -3], [2, 1, -1, 1, 3, 0],
              [-1, 6, 1, 0, -1, 6], [-1, -1, -1, 1, 1, -3], [1, 0, 1, 0, -3, 0], [6, 4, 0, 1, 6, 0],
              [3, 2, 1, 1, 0, -1]]
    ending, starting = rules.Move(3, 1, 0, 1, 3, -3), rules.Move(3, 1, 0, 1, 3, 1)
    position = rules.replay_position("5T", prefix)
    assert {ending, starting} <= set(rules.legal_moves(position))
    domain = DOMAINS["5T"]
    state, refused = play_record_in_kernel(domain, prefix)
    assert refused is None
    kernel.mp_play(domain, state, kernel.encode_move(domain, ending))
    rules.play(position, ending)
    assert starting not in rules.legal_moves(position)
    assert kernel_set(domain, state) == [tuple(m) for m in rules.legal_moves(position)]


@pytest.mark.parametrize("moves, message", [
    ([[1, 0, 1, 0, -3, 0], [1, 0, 1, 0, -3, 0]], r"ply 2: .*\(1,0\) is already a dot"),
    ([[2, 0, 1, 0, -2, 0]], r"ply 1: .*needs dots at \(1,0\)"),
    ([[1, 0, -1, 0, -3, 0]], r"ply 1: .*direction \(-1,0\) is not one of"),
    ([[1, 1, 1, 0, -3, 0]], r"ply 1: .*not on the line"),
    ([[1, 0, 1]], r"ply 1: .*not six integers"),
])
def test_illegal_certificates_name_the_ply_and_the_reason(moves, message):
    with pytest.raises(rules.IllegalMove, match=message):
        rules.replay("5T", moves)


@settings(max_examples=24, deadline=None)
@given(rule_set=st.sampled_from(RULE_SETS), seed=st.integers(0, 2**32 - 1), ends=st.booleans())
def test_kernel_plays_exactly_the_python_rules(rule_set, seed, ends):
    """Random games (with ``ends``, mostly moves whose dot ends its line), move by move, under
    5D, 5T and 5D with line_span 6 on both sides or one (the kernel blocks 6 points per line,
    or needs 6 free where a line marks 5, the plain rules check the lines drawn for one end to
    end: two formulations of the same rule)."""
    variant, line_span, one_sided = rule_set
    domain = (ONE_SIDED if one_sided else SPAN6) if line_span == 6 else DOMAINS[variant]
    state = kernel.mp_new_state(domain)
    position = rules.initial_position(variant, line_span, one_sided)
    rng = np.random.default_rng(seed)
    while True:
        expected = rules.legal_moves(position)
        assert kernel_set(domain, state) == [tuple(m) for m in expected]
        if not expected:
            break
        weights = np.array([5.0 if ends and m.dot in (m.points()[0], m.points()[4]) else 1.0 for m in expected])
        move = expected[rng.choice(len(expected), p=weights / weights.sum())]
        kernel.mp_play(domain, state, kernel.encode_move(domain, move))
        rules.play(position, move)
    assert kernel_set(domain, state) == []
    assert state.lists[kernel.N_PLAYED] == len(position.moves) == rules.replay(variant, position.moves, line_span,
                                                                               one_sided)
    kernel.mp_reset(domain, state)  # reset restores the cross, the cells past the lines' ends included
    fresh = kernel.mp_new_state(domain)
    assert np.array_equal(state.board, fresh.board)
    bitboards = kernel._bitboards(domain)  # and the bitboards: dots, marks, walls, listed lines
    assert np.array_equal(state.lists[bitboards:], fresh.lists[bitboards:])


def play_agreeing_games(domain, games: int, rng, line_span: int, one_sided: bool = False) -> list[int]:
    """``games`` uniform random 5D games under ``line_span`` (and ``one_sided``), the kernel's legal
    moves equal to the plain rules' at every move; each also a legal game of standard 5D (the
    variants forbid moves, never allow one). Returns their lengths."""
    state = kernel.mp_new_state(domain)
    lengths = []
    for _ in range(games):
        kernel.mp_reset(domain, state)
        position = rules.initial_position("5D", line_span=line_span, one_sided=one_sided)
        while expected := rules.legal_moves(position):
            assert kernel_set(domain, state) == [tuple(m) for m in expected]
            move = expected[rng.integers(len(expected))]
            kernel.mp_play(domain, state, kernel.encode_move(domain, move))
            rules.play(position, move)
        assert kernel_moves(domain, state) == []
        assert rules.replay("5D", position.moves) == len(position.moves) == state.lists[kernel.N_PLAYED]
        lengths.append(len(position.moves))
    return lengths


def test_line_span_6_games_are_5d_games_and_the_kernel_agrees_on_them_in_bulk():
    """40 random line_span 6 games (fixed seeds), the kernel's legal moves equal to the plain
    rules' at every move; each game also replays under 5D (every line_span 6 move is a 5D move);
    and 100 kernel games of each rule set: line_span 6 games are shorter on average (the variant
    forbids moves, never allows one)."""
    rng = np.random.default_rng(3)
    play_agreeing_games(SPAN6, 40, rng, line_span=6)
    lengths = {}
    for line_span, domain in [(5, DOMAINS["5D"]), (6, SPAN6)]:
        state = kernel.mp_new_state(domain)
        lengths[line_span] = []
        for _ in range(100):
            kernel.mp_reset(domain, state)
            while moves := kernel_moves(domain, state):
                kernel.mp_play(domain, state, moves[rng.integers(len(moves))])
            lengths[line_span].append(int(state.lists[kernel.N_PLAYED]))
    assert np.mean(lengths[6]) < np.mean(lengths[5]) - 3


def test_lines_end_to_end_are_legal_in_5d_and_illegal_with_line_span_6():
    """(-3,0)..(1,0) drawn, the line (2,0)..(6,0) starts one step past its end: legal in 5D
    (no shared point), illegal with line_span 6; (3,0)..(7,0), two steps past, legal in both.
    In the other order too (the rule is symmetric)."""
    first = rules.Move(1, 0, 1, 0, -3, 0)  # (-3,0)..(1,0), new dot (1,0)
    end_to_end = rules.Move(2, 0, 1, 0, 2, 0)  # (2,0)..(6,0): dots (3..6,0) of the cross
    gap = rules.Move(7, 0, 1, 0, 3, 0)  # (3,0)..(7,0)
    for line_span, domain in [(5, DOMAINS["5D"]), (6, SPAN6)]:
        position = rules.replay_position("5D", [first], line_span)
        legal = rules.legal_moves(position)
        assert (end_to_end in legal) is (line_span == 5)
        assert gap in legal
        state = kernel.mp_new_state(domain)
        kernel.mp_play(domain, state, kernel.encode_move(domain, first))
        listed = kernel_moves(domain, state)
        assert (kernel.encode_move(domain, end_to_end) in listed) is (line_span == 5)
        assert kernel.encode_move(domain, gap) in listed
        assert kernel_set(domain, state) == [tuple(m) for m in legal]
        # the other order: (2,0)..(6,0) first, then (-3,0)..(1,0) ends one step before its start
        position = rules.replay_position("5D", [end_to_end], line_span)
        assert (first in rules.legal_moves(position)) is (line_span == 5)
        state = kernel.mp_new_state(domain)
        kernel.mp_play(domain, state, kernel.encode_move(domain, end_to_end))
        assert (kernel.encode_move(domain, first) in kernel_moves(domain, state)) is (line_span == 5)
    assert rules.replay("5D", [first, end_to_end]) == 2
    with pytest.raises(rules.IllegalMove, match=r"ply 2: .*under 5D, line_span 6: the line lies end to end "
                                                r"with the line of the same direction from \(-3,0\)"):
        rules.replay("5D", [first, end_to_end], line_span=6)


def test_line_span_6_a_new_dot_starting_a_line_end_to_end_with_another_does_not_list_it():
    """The case the kernel reads one cell further for: the new dot p, (4,-3), starts the
    vertical line (4,-3)..(4,1) that now has 4 dots, and the vertical line from (4,2) (ply 25)
    starts one step past its end. 5D would list it; line_span 6 must not (a random game found
    by a search of the plain rules, seed 6)."""
    prefix = [[1, 0, 1, 0, -3, 0], [3, -4, 0, 1, 3, -4], [1, 3, 1, 0, -3, 3], [0, 1, 0, 1, 0, -3], [7, 3, 1, 0, 3, 3],
              [0, 7, 0, 1, 0, 3], [4, -1, 1, 1, 2, -3], [1, -2, -1, 1, 3, -4], [3, 2, 0, 1, 3, 2], [7, 0, 1, 0, 3, 0],
              [-1, -3, 1, 0, -1, -3], [4, 6, 1, 0, 0, 6], [2, 1, 1, 1, 0, -1], [5, 1, 1, 1, 3, -1], [5, 2, -1, 1, 7, 0],
              [-1, 4, 1, 1, -3, 2], [5, -1, 0, 1, 5, -1], [4, 4, -1, 1, 6, 2], [1, 2, -1, 1, 3, 0], [-3, -1, 0, 1, -3, -1],
              [6, -1, 0, 1, 6, -1], [-1, -1, -1, 1, 1, -3], [7, -1, 1, 0, 3, -1], [4, 2, -1, 1, 7, -1], [4, 5, 0, 1, 4, 2],
              [2, 2, 1, 0, 1, 2], [3, 1, -1, 1, 5, -1], [4, 1, 1, 0, 2, 1], [2, 3, -1, 1, 6, -1], [5, 6, 1, 1, 1, 2],
              [2, -1, 1, 1, 2, -1]]
    dot = rules.Move(4, -3, -1, 1, 4, -3)
    blocked = rules.Move(4, -2, 0, 1, 4, -3)  # (4,-3)..(4,1), its empty point (4,-2)
    position = rules.replay_position("5D", prefix + [dot], line_span=6)
    assert blocked not in rules.legal_moves(position)
    assert "end to end with the line of the same direction from (4,2)" in rules.why_illegal(position, blocked)
    assert rules.why_illegal(rules.replay_position("5D", prefix + [dot]), blocked) is None  # legal in 5D
    state, refused = play_record_in_kernel(SPAN6, prefix + [dot])
    assert refused is None
    assert kernel_set(SPAN6, state) == [tuple(m) for m in rules.legal_moves(position)]


def test_the_82_record_replays_under_5d_and_breaks_at_ply_14_with_line_span_6():
    """The default rules keep replaying the 5D record (test above); under line_span 6 its ply
    14, (-3,0)..(1,0), lies end to end with ply 4's (2,0)..(6,0): both implementations refuse
    it there (the record has 23 such pairs of lines)."""
    record = rules.load_record("5d_82_rosin")
    assert rules.replay("5D", record) == 82
    with pytest.raises(rules.IllegalMove, match=r"ply 14: move \[1, 0, 1, 0, -3, 0\] is illegal under 5D, "
                                                r"line_span 6: the line lies end to end .* from \(2,0\)"):
        rules.replay("5D", record, line_span=6)
    _, refused = play_record_in_kernel(SPAN6, record)
    assert refused == 14
    pairs = [(a, b) for a in record for b in record if a.direction == b.direction
             and (b.start_x - a.start_x, b.start_y - a.start_y) == (5 * a.dir_dx, 5 * a.dir_dy)]
    assert len(pairs) == 23


def test_line_span_6_is_refused_for_5t_and_out_of_range():
    """Under 5T a 6-point span (no shared unit segment) would give the rules of 5D: refused."""
    with pytest.raises(InputError, match="domain.line_span=6 is a variant of 5D only"):
        MorpionDomain(MorpionOptions(variant="5T", line_span=6))
    with pytest.raises(InputError, match="domain.line_span=7 is not valid: choose 5"):
        MorpionDomain(MorpionOptions(line_span=7))
    with pytest.raises(ValueError, match="5, or 6 with 5D only"):
        kernel.make_morpion("5T", line_span=6)
    with pytest.raises(ValueError, match="5, or 6 with 5D only"):
        rules.initial_position("5T", line_span=6)


def test_line_span_enters_a_run_identity_only_when_it_is_6():
    """Every Morpion run made before the option existed keeps its identity (line_span 5 is
    left out, as the pinned ids of test_run_ids check); line_span 6 runs get their own."""
    settings = SearchSettings(algorithm="nrpa", level=3, N=100, seed=7)
    standard, explicit = Job(MorpionOptions(), settings), Job(MorpionOptions(line_span=5), settings)
    variant = Job(MorpionOptions(line_span=6), settings)
    assert standard.semantic_config()["domain"] == {"name": "morpion", "variant": "5D"}
    assert run_id(explicit.run_config(0)) == run_id(standard.run_config(0)) == "5ccfb536ffa58e7b634e"  # pinned
    assert variant.semantic_config()["domain"] == {"name": "morpion", "variant": "5D", "line_span": 6}
    assert run_id(variant.run_config(0)) != run_id(standard.run_config(0))
    assert variant.run_seed(1) != standard.run_seed(1)


@pytest.mark.slow  # compiles NRPA for the span-6 Morpion class, which no fast test needs
def test_a_line_span_6_search_gives_a_certificate_of_its_rules():
    adapter = MorpionDomain(MorpionOptions(line_span=6))
    result = run_search(adapter.kernel_domain(), SearchSettings(level=1, N=10, max_time=None, max_playouts=200, seed=1))
    certificate = adapter.certificate(result.best_moves)
    assert result.best_score == len(certificate) == adapter.replay_score(certificate)
    rules.replay("5D", certificate, line_span=6)


def test_the_line_span_6_domain_names_its_rules():
    adapter = MorpionDomain(MorpionOptions(line_span=6))
    assert adapter.leaderboard_key() == "morpion/5D_span6"
    assert adapter.describe() == {"instance": "Morpion 5D, line_span 6", "variant": "5D", "line_span": 6}


@pytest.mark.parametrize("suffix, text, message", [
    (".csv", "ply,dot_x,dot_y,dir_dx,dir_dy,start_x,start_y\n1,-3,-1,0,1,-3,-1\n2,-1,x,1,1,-3,2\n",
     "line 3: .* is not 7 integers"),
    (".csv", "ply,dot_x,dot_y,dir_dx,dir_dy,start_x,start_y\n1,-3,-1,0,1,-3\n", "line 2: 6 fields"),
    (".csv", "ply,dot_x,dot_y,dir_dx,dir_dy,start_x,start_y\n2,-3,-1,0,1,-3,-1\n", "line 2: ply 2 where 1"),
    (".csv", "dot_x,dot_y\n", "line 1: the header must be"),
    (".psol", "(28,28)\n(25,27) | 2\n(27,32) % 0\n", r"line 3: .* is not a move"),
    (".psol", "28,28\n", "line 1: .* is not the reference dot"),
])
def test_malformed_move_files_name_the_file_and_line(tmp_path, suffix, text, message):
    path = tmp_path / f"game{suffix}"
    path.write_text(text)
    with pytest.raises(InputError, match=f"{path}, {message}"):
        rules.load_moves(path)


def test_draw_grid_writes_a_png(tmp_path):
    path = draw_grid("5D", [list(m) for m in rules.load_record("5d_82_rosin")], tmp_path / "grid.png")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and path.stat().st_size > 10_000


def test_a_short_search_gives_a_certificate_that_replays_to_its_score():
    adapter = MorpionDomain(MorpionOptions(variant="5D"))
    settings_ = SearchSettings(level=1, N=10, max_time=None, max_playouts=200, seed=1)
    result = run_search(adapter.kernel_domain(), settings_)
    certificate = adapter.certificate(result.best_moves)
    assert result.best_score == len(certificate) == adapter.replay_score(certificate) > 20
    again = run_search(adapter.kernel_domain(), settings_)
    assert (again.best_score, again.best_moves) == (result.best_score, result.best_moves)
    printed = adapter.print_certificate(certificate)
    assert printed.splitlines()[0] == rules.CSV_HEADER
    assert [list(m) for m in rules.parse_csv(printed, "printed")] == certificate
    assert adapter.leaderboard_key() == "morpion/5D"
    assert adapter.describe() == {"instance": "Morpion 5D", "variant": "5D"}


@pytest.mark.slow  # end to end, over 10 s
def test_morpion_table_2_at_smoke_scale_gives_its_rows_under_three_readings_and_the_best_grid(tmp_path):
    outputs = tmp_path / "outputs"
    root = Path(__file__).resolve().parent.parent
    run_experiment("morpion_table2", outputs)
    table = pd.read_csv(outputs / "tables" / "morpion_table2_smoke.csv").set_index("variant")
    standard = ["Uniform", "NRPA(1)", "NRPA(2)", "NRPA(3)"]
    readings = ["", ", line_span 6", ", one-sided"]
    assert sorted(table.index) == sorted(f"{row}{suffix}" for suffix in readings for row in standard)
    assert [table.loc[f"{row}{suffix}", "runs"] for suffix in readings for row in standard] == [20, 10, 4, 2] * 3
    published = pd.read_csv(root / "analysis" / "reference" / "morpion_table2_5d.csv").set_index("policy")
    for label, row in table.iterrows():  # the paper's row beside ours, under every reading
        printed = published.loc[label.removesuffix(", line_span 6").removesuffix(", one-sided")]
        assert (row["published mean"], row["published sem"], row["published games"]) == \
            (printed["mean"], printed["sem"], printed["games"])
        assert row["published sem x sqrt(games)"] == pytest.approx(printed["sem"] * np.sqrt(printed["games"]))
    runs = [json.loads(p.read_text()) for p in (outputs / "runs" / "morpion").glob("*.json")]
    for line_span, one_sided, label in [(5, False, "Uniform"), (6, False, "Uniform, line_span 6"),
                                        (6, True, "Uniform, one-sided")]:
        uniform = [r["result"]["best_score"] for r in runs if r["settings"]["level"] == 0
                   and r["config"]["domain"].get("line_span", 5) == line_span
                   and r["config"]["domain"].get("one_sided", False) == one_sided]
        assert len(uniform) == 20
        assert table.loc[label, "mean"] == pytest.approx(np.mean(uniform))
        assert table.loc[label, "max"] == max(uniform)
    variant_runs = [r for r in runs if r["config"]["domain"].get("line_span") == 6]
    assert len(variant_runs) == 72 and all(r["domain_info"]["line_span"] == 6 for r in variant_runs)
    for r in variant_runs:  # each certificate is a game of its rules
        one_sided = r["config"]["domain"].get("one_sided", False)
        assert rules.replay("5D", r["certificate"]["moves"], line_span=6, one_sided=one_sided) == r["result"]["best_score"]
    assert all(r["result"]["playouts"] == 10 ** r["settings"]["level"] for r in runs)  # N^L
    assert (outputs / "figures" / "morpion_table2_smoke_best.png").read_bytes()[:4] == b"\x89PNG"
