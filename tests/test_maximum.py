"""The Maximum problem: values by hand and by exhaustive search, the kernel against the
plain-Python evaluation, and NRPA reaching the optimum of small limits."""

import csv
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from nrpa.domains import maximum_rules as rules
from nrpa.domains.maximum import make_maximum, mx_legal_moves, mx_new_state, mx_play, mx_score
from nrpa.domains.registry import MaximumOptions, make_domain
from nrpa.search import SearchSettings, run_search

DATA = Path(__file__).resolve().parent.parent / "nrpa" / "data" / "maxexpr"


def test_values_of_small_expressions_by_hand():
    assert rules.value(rules.parse("* + 1 1 + 1 + 1 1".split())) == 6  # (1+1)*(1+(1+1))
    assert rules.value(rules.parse(["1"])) == 1
    with pytest.raises(rules.InvalidExpression, match="leaves still open"):
        rules.parse("+ 1".split())
    with pytest.raises(rules.InvalidExpression, match="after the complete expression"):
        rules.parse("1 1".split())


@lru_cache(maxsize=None)
def all_values(atoms: int) -> frozenset:
    """Every value of an expression with exactly ``atoms`` atoms, by enumeration."""
    if atoms == 1:
        return frozenset({1})
    values = set()
    for left in range(1, atoms - 1):
        for a in all_values(left):
            for b in all_values(atoms - 1 - left):
                values.update((a + b, a * b))
    return frozenset(values)


def test_exhaustive_search_gives_the_optimum_table_of_source_md_for_small_limits():
    rows = list(csv.DictReader((DATA / "max_optimum_by_atom_limit.csv").open()))
    for row in rows[:15]:
        limit = int(row["atom_limit"])
        best = max(max(all_values(n), default=0) for n in range(1, limit + 1))
        assert best == int(row["max_value_exact"]) == rules.optimum(limit)


def test_the_199_atom_certificate_is_worth_4_times_3_to_the_32():
    tokens = [t for line in (DATA / "optimal_expression_199_atoms.txt").read_text().splitlines()
              if not line.startswith("#") for t in line.split()]
    assert rules.check(tokens, 199) == 4 * 3**32 == rules.optimum(199)
    with pytest.raises(rules.InvalidExpression, match="the limit is 197"):
        rules.check(tokens, 197)


@settings(max_examples=60, deadline=None)
@given(limit=st.integers(1, 60), seed=st.integers(0, 2**32 - 1))
def test_kernel_plays_and_values_expressions_as_the_python_rules(limit, seed):
    domain = make_maximum(limit)
    state = mx_new_state(domain)
    moves = np.zeros(3, dtype=np.int64)
    codes = np.zeros(3, dtype=np.int64)
    rng = np.random.default_rng(seed)
    tokens, open_leaves = [], 1
    while (n := mx_legal_moves(domain, state, moves, codes)) > 0:
        expected = [a for a, arity in enumerate((2, 2, 0)) if len(tokens) + open_leaves + arity <= limit]
        assert list(moves[:n]) == expected
        assert list(codes[:n]) == [len(tokens) * 100 + a for a in expected]
        atom = int(moves[rng.integers(n)])
        mx_play(domain, state, atom)
        tokens.append(rules.ATOMS[atom])
        open_leaves += 1 if atom < 2 else -1
    assert open_leaves == 0 and len(tokens) <= limit
    assert mx_score(domain, state) == rules.value(rules.parse(tokens), float) == rules.check(tokens, limit)


@pytest.mark.slow  # compiles NRPA for the Maximum class, which no fast test needs
@pytest.mark.parametrize("limit", [15, 21])
def test_nrpa_reaches_the_optimum_of_small_limits(limit):
    domain = make_domain(MaximumOptions(max_atoms=limit))
    result = run_search(domain.kernel_domain(), SearchSettings(level=2, seed=1, max_time=None,
                                                                max_playouts=20000))
    assert result.best_score == rules.optimum(limit)
    assert domain.replay_score(domain.certificate(result.best_moves)) == result.best_score


def test_single_precision_rounds_each_operation_by_hand():
    """3 * (3 * (... * 3)), twenty-two threes: 3**22 = 31,381,059,609 exactly (float64). Rounded to
    float32 once, 31,381,059,584; rounded after each product as C float does (3**16 is the first
    power above 2**24 that float32 cannot hold), 31,381,061,632: a kernel that rounded only its
    result would give the former."""
    three = ["+", "1", "+", "1", "1"]
    tokens = ["*", *three] * 21 + three
    assert rules.value(rules.parse(tokens)) == 3 ** 22
    step = np.float32(3.0)
    for _ in range(21):  # the innermost product first
        step = np.float32(step * np.float32(3.0))
    assert float(step) == 31_381_061_632.0 != float(np.float32(3 ** 22)) == 31_381_059_584.0
    assert float(rules.value(rules.parse(tokens), np.float32)) == float(step)
    assert kernel_value(tokens, "float32") == float(step)


def kernel_value(tokens: list[str], precision: str) -> float:
    """The kernel's score of an expression played atom by atom, at ``precision``."""
    domain = make_maximum(len(tokens), precision)
    state = mx_new_state(domain)
    for token in tokens:
        mx_play(domain, state, rules.ATOMS.index(token))
    return mx_score(domain, state)


def random_large_expression(rng) -> list[str]:
    """A random tree over 16-30 sums of 2-5 ones, each inner node * (or, one in five, +): values
    up to about 5**30, mostly past float32's 2**24 with odd factors, where it rounds."""
    def tree(factors):
        if len(factors) == 1:
            return ["+", "1"] * (factors[0] - 1) + ["1"]
        cut = int(rng.integers(1, len(factors)))
        return ["+" if rng.random() < 0.2 else "*", *tree(factors[:cut]), *tree(factors[cut:])]
    return tree([int(f) for f in rng.integers(2, 6, size=rng.integers(16, 31))])


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_kernel_in_single_precision_is_the_python_rules_in_float32(seed):
    tokens = random_large_expression(np.random.default_rng(seed))
    assert kernel_value(tokens, "float32") == float(rules.value(rules.parse(tokens), np.float32))


def test_the_large_expressions_are_rounded_in_float32():
    """The draws above reach values that float32 rounds (else the test above could not fail)."""
    rounded = 0
    for seed in range(20):
        tree = rules.parse(random_large_expression(np.random.default_rng(seed)))
        rounded += float(rules.value(tree, np.float32)) != rules.value(tree)
    assert rounded >= 5  # 9 of these 20 draws


def test_precision_is_checked_and_float64_runs_keep_their_identity():
    from experiments.runs import domain_identity
    from nrpa.errors import InputError

    with pytest.raises(InputError, match="precision"):
        make_domain(MaximumOptions(precision="half"))
    assert "precision" not in domain_identity(MaximumOptions())
    assert domain_identity(MaximumOptions(precision="float32"))["precision"] == "float32"
    assert make_domain(MaximumOptions(precision="float32")).leaderboard_key() == "maximum/L199/float32"
