"""Weak Schur numbers: the checker, the kernel against the plain-Python rules, optima."""

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from nrpa.domains import weakschur_rules as rules
from nrpa.domains.registry import WeakSchurOptions, make_domain
from nrpa.domains.weakschur import make_weakschur, ws_legal_moves, ws_new_state, ws_play
from nrpa.search import SearchSettings, run_search
from tests.conftest import cli

DATA = Path(__file__).resolve().parent.parent / "nrpa" / "data" / "weakschur"


@pytest.mark.parametrize("name, size", [("ws2_8.txt", 8), ("ws3_23.txt", 23)])
def test_the_checker_accepts_the_known_certificates(name, size):
    assert rules.check_file(DATA / name) == size


@pytest.mark.parametrize("name, message", [("invalid_ws2_9.txt", "1 + 8 = 9"),
                                           ("invalid_not_partition.txt", "[7] missing")])
def test_the_checker_rejects_the_invalid_certificates(name, message):
    with pytest.raises(rules.InvalidPartition, match=message.replace("[", r"\[").replace("+", r"\+")):
        rules.check_file(DATA / name)


def test_a_number_may_join_a_part_holding_its_half():
    assert rules.fits({1}, 2)  # 1 + 1 = 2 uses the same member twice: allowed
    assert not rules.fits({1, 2}, 3)


def test_the_rule_offers_only_the_parts_ending_with_n_minus_1_where_n_fits():
    parts = [{1, 2}, {3}, set()]
    assert rules.legal_parts(parts, 4, rule="standard") == [0, 1, 2]
    assert rules.legal_parts(parts, 4, rule="rule") == [1]  # part 1 ends with 3 and 4 fits there
    # Part 0 ends with 3 but 1 + 3 = 4: no part to follow, so every legal part is offered.
    assert rules.legal_parts([{1, 3}, {2}, set()], 4, rule="rule") == [1, 2]


def kernel_parts(domain, state):
    moves = np.zeros(16, dtype=np.int64)
    codes = np.zeros(16, dtype=np.int64)
    n = ws_legal_moves(domain, state, moves, codes)
    return [int(m) for m in moves[:n]], [int(c) for c in codes[:n]]


@settings(max_examples=40, deadline=None)
@given(parts=st.integers(1, 6), rule=st.sampled_from(["standard", "rule"]), seed=st.integers(0, 2**32 - 1))
def test_kernel_plays_exactly_the_python_rules(parts, rule, seed):
    domain = make_weakschur(parts, rule=rule)
    state = ws_new_state(domain)
    partition = [set() for _ in range(parts)]
    rng = np.random.default_rng(seed)
    n = 1
    while True:
        offered, codes = kernel_parts(domain, state)
        assert offered == rules.legal_parts(partition, n, rule=rule)
        assert codes == [(n << 40) | (max(partition[p], default=0) << 8) | p for p in offered]
        if not offered:
            break
        part = offered[rng.integers(len(offered))]
        ws_play(domain, state, part)
        partition[part].add(n)
        n += 1
    assert state.info[1] == n - 1 == rules.check_partition([sorted(p) for p in partition])


def test_the_kernel_offers_no_part_past_the_cap():
    """The cap in the kernel's rules, without a search (the test below searches): the WS(3) = 23
    certificate played number by number, every part it plays offered, offers no part after 10
    under max_number = 10, and a part for 11 under the default cap."""
    partition = rules.parse_partition((DATA / "ws3_23.txt").read_text(), "ws3_23.txt")
    part_of = {n: part for part, members in enumerate(partition) for n in members}
    for cap in (10, None):
        domain = make_weakschur(3, max_number=cap)
        state = ws_new_state(domain)
        for n in range(1, 11):
            assert part_of[n] in kernel_parts(domain, state)[0]
            ws_play(domain, state, part_of[n])
        assert state.info[1] == 10
        offered = kernel_parts(domain, state)[0]
        assert offered == [] if cap == 10 else part_of[11] in offered


@pytest.mark.slow  # compiles NRPA for the Weak Schur class, which no other fast test needs
def test_the_cap_ends_the_game():
    domain = make_weakschur(3, max_number=10)
    result = run_search(domain, SearchSettings(level=1, N=20, max_time=None, max_playouts=50))
    assert result.best_score == 10


@pytest.mark.slow  # compiles NRPA for the Weak Schur class, which no other fast test needs
@pytest.mark.parametrize("parts, optimum, level", [(1, 2, 1), (2, 8, 1), (3, 23, 2)])
def test_nrpa_reaches_the_known_weak_schur_numbers(parts, optimum, level):
    domain = make_domain(WeakSchurOptions(parts=parts))
    result = run_search(domain.kernel_domain(), SearchSettings(level=level, seed=1, max_time=None,
                                                                max_playouts=20000))
    assert result.best_score == optimum
    certificate = domain.certificate(result.best_moves)
    assert domain.replay_score(certificate) == optimum
    assert len(domain.print_certificate(certificate).splitlines()) == parts  # one part a line


@pytest.mark.slow  # compiles NRPA for the Weak Schur class, which no other fast test needs
def test_a_weak_schur_run_from_the_command_line(tmp_outputs):
    completed = cli("run.py", "domain=weakschur", "domain.parts=3", "level=2", "max_playouts=3000",
                    f"outputs_dir={tmp_outputs}")
    assert completed.returncode == 0, completed.stderr
    assert "WS(3)" in completed.stdout
    assert cli("-m", "experiments.verify", str(tmp_outputs)).returncode == 0


@pytest.mark.slow  # compiles NRPA for the Weak Schur class, which no other fast test needs
def test_a_weak_schur_certificate_prints_one_part_a_line(tmp_outputs):
    assert cli("run.py", "domain=weakschur", "domain.parts=2", "level=1", "max_playouts=500",
               f"outputs_dir={tmp_outputs}").returncode == 0
    shown = cli("-m", "experiments.verify", "--show", str(tmp_outputs)).stdout
    header, body = shown.split("(WS(2), score ")[1].split(":\n", 1)
    parts = [list(map(int, line.split())) for line in body.splitlines()[:2]]
    assert rules.check_partition(parts) == int(header.rstrip(")"))


@pytest.mark.slow  # end to end, over 10 s
def test_the_nrpa_family_experiment_on_weak_schur_runs_gnrpa_and_its_limited_repetitions(tmp_outputs):
    # conf/variant/ names the algorithms; at smoke scale each column's runs are made and tabled
    import pandas as pd

    from tests.conftest import run_experiment

    run_experiment("family_weakschur", tmp_outputs)
    table = pd.read_csv(tmp_outputs / "tables" / "family_weakschur_smoke.csv")
    assert list(dict.fromkeys(table["variant"])) == ["GNRPA", "GNRPA-LR(3)"]
    assert table["mean"].notna().all() and (table["mean"] > 0).all()
    runs = sorted((tmp_outputs / "runs" / "weakschur").glob("*.json"))
    assert len(runs) == 4 and '"repetitions": 3' in "".join(path.read_text() for path in runs)
