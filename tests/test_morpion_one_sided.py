"""Morpion 5D, line_span 6 one-sided (docs/readings.md): a new line may not end one step before a line of
its direction starts, but may start one step past one's end. The kernel (a line marks its 5
points, a new line needs 6 free) against the plain rules (the lines drawn), by hand and over
random games."""

import numpy as np
import pytest

from experiments.run_file import run_id
from experiments.runs import Job
from nrpa.domains import morpion as kernel
from nrpa.domains import morpion_rules as rules
from nrpa.domains.registry import MorpionDomain, MorpionOptions
from nrpa.errors import InputError
from nrpa.search import SearchSettings, run_search
from tests.conftest import cli
from tests.test_morpion import (DOMAINS, ONE_SIDED, SPAN6, kernel_moves, kernel_set, play_agreeing_games,
                                play_record_in_kernel)

# Two collinear lines on the cross, worked out by hand: (-3,0)..(1,0), new dot (1,0), and
# (2,0)..(6,0), new dot (2,0), whose other 4 points are the cross's; (2,0) is one step past
# the first's end (1,0). The same pair transposed: the cross is symmetric about its diagonal.
HORIZONTAL = (rules.Move(1, 0, 1, 0, -3, 0), rules.Move(2, 0, 1, 0, 2, 0))
VERTICAL = (rules.Move(0, 1, 0, 1, 0, -3), rules.Move(0, 2, 0, 1, 0, 2))


@pytest.mark.parametrize("before, after", [HORIZONTAL, VERTICAL], ids=["horizontal", "vertical"])
def test_a_line_may_start_past_one_s_end_but_not_end_before_one_s_start(before, after):
    """Both lines legal alone in every rule set. One-sided: ``after`` (starting one step past
    ``before``'s end) is legal once ``before`` is drawn; ``before`` (ending one step before
    ``after``'s start) is not once ``after`` is. Both sides: neither. Standard 5D: both."""
    for line_span, one_sided, domain, first_then_second, second_then_first in [
            (5, False, DOMAINS["5D"], True, True), (6, False, SPAN6, False, False), (6, True, ONE_SIDED, True, False)]:
        for drawn, new, legal in [(before, after, first_then_second), (after, before, second_then_first)]:
            position = rules.replay_position("5D", [drawn], line_span, one_sided)
            assert (new in rules.legal_moves(position)) is legal, (line_span, one_sided, drawn)
            assert (rules.why_illegal(position, new) is None) is legal
            state = kernel.mp_new_state(domain)
            kernel.mp_play(domain, state, kernel.encode_move(domain, drawn))
            assert (kernel.encode_move(domain, new) in kernel_moves(domain, state)) is legal
            assert kernel_set(domain, state) == [tuple(m) for m in rules.legal_moves(position)]
    with pytest.raises(rules.IllegalMove, match=r"ply 2: .* is illegal under 5D, line_span 6 one-sided: the line "
                                                r"lies end to end with the line of the same direction from "):
        rules.replay("5D", [after, before], line_span=6, one_sided=True)


def random_games_agree(games: int, seed: int) -> list[int]:
    """``games`` uniform random one-sided games, kernel and plain rules agreeing at every move."""
    return play_agreeing_games(ONE_SIDED, games, np.random.default_rng(seed), line_span=6, one_sided=True)


def test_the_kernel_and_the_plain_rules_agree_over_random_games():
    random_games_agree(30, seed=11)


@pytest.mark.slow
def test_the_kernel_and_the_plain_rules_agree_over_1000_random_games():
    random_games_agree(1000, seed=12)


def test_one_sided_games_lie_between_the_two_other_readings():
    """It forbids a subset of what line_span 6 forbids and more than 5D: over 1,000 kernel games
    each, its mean length lies between theirs (5D about 43, line_span 6 about 35, one-sided about
    39: a difference of 4 moves where a mean's standard error is about 0.4)."""
    means = {}
    for name, domain in [("5D", DOMAINS["5D"]), ("span6", SPAN6), ("one-sided", ONE_SIDED)]:
        rng = np.random.default_rng(5)
        state = kernel.mp_new_state(domain)
        moves = np.zeros(int(domain.max_moves), dtype=np.int64)
        codes = np.zeros_like(moves)
        lengths = []
        for _ in range(1000):
            kernel.mp_reset(domain, state)
            while n := kernel.mp_legal_moves(domain, state, moves, codes):
                kernel.mp_play(domain, state, moves[rng.integers(n)])
            lengths.append(int(state.lists[kernel.N_PLAYED]))
        means[name] = np.mean(lengths)
    assert means["span6"] + 2 < means["one-sided"] < means["5D"] - 2


def test_the_82_record_breaks_at_ply_14_under_the_one_sided_rule_too():
    """Ply 14, (-3,0)..(1,0), ends one step before ply 4's (2,0)..(6,0) starts: the side the
    one-sided rule forbids."""
    record = rules.load_record("5d_82_rosin")
    with pytest.raises(rules.IllegalMove, match=r"ply 14: move \[1, 0, 1, 0, -3, 0\] is illegal under 5D, "
                                                r"line_span 6 one-sided: .* from \(2,0\)"):
        rules.replay("5D", record, line_span=6, one_sided=True)
    _, refused = play_record_in_kernel(ONE_SIDED, record)
    assert refused == 14


def test_one_sided_needs_line_span_6_and_has_its_own_run_identity():
    with pytest.raises(InputError, match="domain.one_sided=true is a form of line_span 6"):
        MorpionDomain(MorpionOptions(one_sided=True))
    with pytest.raises(ValueError, match="one_sided is a form of line_span 6"):
        kernel.make_morpion("5D", one_sided=True)
    settings = SearchSettings(algorithm="nrpa", level=3, N=100, seed=7)
    span6 = Job(MorpionOptions(line_span=6), settings)
    one_sided = Job(MorpionOptions(line_span=6, one_sided=True), settings)
    assert span6.semantic_config()["domain"] == {"name": "morpion", "variant": "5D", "line_span": 6}
    assert Job(MorpionOptions(line_span=6, one_sided=False), settings).run_config(0) == span6.run_config(0)
    assert one_sided.semantic_config()["domain"] == {"name": "morpion", "variant": "5D", "line_span": 6,
                                                     "one_sided": True}
    assert run_id(one_sided.run_config(0)) != run_id(span6.run_config(0))


@pytest.mark.slow  # compiles NRPA for the one-sided Morpion class, which no fast test needs
def test_a_one_sided_search_gives_a_certificate_of_its_rules():
    adapter = MorpionDomain(MorpionOptions(line_span=6, one_sided=True))
    result = run_search(adapter.kernel_domain(), SearchSettings(level=1, N=10, max_time=None, max_playouts=200, seed=1))
    certificate = adapter.certificate(result.best_moves)
    assert result.best_score == len(certificate) == adapter.replay_score(certificate)
    rules.replay("5D", certificate, line_span=6, one_sided=True)


def test_the_one_sided_domain_names_its_rules():
    adapter = MorpionDomain(MorpionOptions(line_span=6, one_sided=True))
    assert adapter.leaderboard_key() == "morpion/5D_span6_one_sided"
    assert adapter.describe() == {"instance": "Morpion 5D, line_span 6 one-sided", "variant": "5D",
                                  "line_span": 6, "one_sided": True}


def test_run_py_refuses_one_sided_without_line_span_6_before_any_search():
    done = cli("run.py", "domain=morpion", "domain.one_sided=true", "level=0")
    assert done.returncode != 0
    assert "domain.one_sided=true is a form of line_span 6" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_table_s_three_readings_and_a_column_named_from_the_command_line():
    """morpion_table2 sweeps the three readings; a command that sets one column's overrides
    itself (`morpion_rules=one_sided level=3`) gets that column's name, so its report sets the
    published row beside it."""
    from experiments.experiment import load_experiment
    labels = [v.label for v in load_experiment(["experiment=morpion_table2", "scale=smoke"]).variants]
    assert {"Uniform", "Uniform, line_span 6", "Uniform, one-sided", "NRPA(3), one-sided"} <= set(labels)
    one = load_experiment(["experiment=morpion_table2", "scale=smoke", "morpion_rules=one_sided", "level=3"])
    assert [v.label for v in one.variants] == ["NRPA(3), one-sided"]
    assert one.variants[0].job.domain_options == MorpionOptions(line_span=6, one_sided=True)


def test_the_line_code_keys_the_policy_by_the_line_alone():
    """code=line (the paper's network outputs a line, start and direction): a move's
    policy code is its line, move id // 5, and the moves of a position keep distinct codes; a
    search learns on them another way, so it is another run (the search: the test below)."""
    domain = kernel.make_morpion("5D", line_span=6, one_sided=True, code="line")
    state = kernel.mp_new_state(domain)
    rng = np.random.default_rng(2)
    moves = np.zeros(int(domain.max_moves), dtype=np.int64)
    codes = np.zeros_like(moves)
    while n := kernel.mp_legal_moves(domain, state, moves, codes):
        assert list(codes[:n]) == [m // 5 for m in moves[:n]] and len(set(codes[:n])) == n
        kernel.mp_play(domain, state, moves[rng.integers(n)])
    settings = SearchSettings(level=1, N=10, max_time=None, max_playouts=300, seed=4)
    line_job = Job(MorpionOptions(line_span=6, one_sided=True, code="line"), settings)
    assert line_job.semantic_config()["domain"]["code"] == "line"
    assert "code" not in Job(MorpionOptions(line_span=6, one_sided=True), settings).semantic_config()["domain"]
    with pytest.raises(InputError, match="domain.code='dot' is not valid"):
        MorpionDomain(MorpionOptions(code="dot"))


# The line code is a field of every Morpion class: the fast suite searches on it with the
# standard 5D class; the one-sided one is slow: it compiles NRPA for a class no fast test needs.
@pytest.mark.parametrize("line_span, one_sided", [(5, False), pytest.param(6, True, marks=pytest.mark.slow)],
                         ids=["5D", "one-sided"])
def test_a_search_on_line_codes_learns_another_way(line_span, one_sided):
    settings = SearchSettings(level=1, N=10, max_time=None, max_playouts=300, seed=4)
    by_move = run_search(kernel.make_morpion("5D", line_span=line_span, one_sided=one_sided), settings)
    by_line = run_search(kernel.make_morpion("5D", line_span=line_span, one_sided=one_sided, code="line"), settings)
    assert by_move.trace != by_line.trace  # the same draws, another policy
