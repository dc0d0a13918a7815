"""The example domain: the plain-Python rules against values computed by hand, and a search."""

import pytest

from nrpa.domains import knapsack_rules as rules
from nrpa.domains.registry import KnapsackOptions, make_domain
from nrpa.errors import InputError
from nrpa.search import SearchSettings, run_search

# capacity 10; items (weight, value): (5, 10) (4, 40) (6, 30) (3, 50). By hand: items 1 and 3
# (weight 7, value 90) beat every other pair that fits; no three items fit (lightest three: 12).
SMALL = rules.Instance(name="small", capacity=10, weights=(5, 4, 6, 3), values=(10, 40, 30, 50))


def test_replay_adds_the_values_of_the_items_put_in():
    assert rules.replay(SMALL, [3, 1]) == 90
    assert rules.replay(SMALL, [0]) == 10


@pytest.mark.parametrize("items, reason", [([3, 3], "in the knapsack already"), ([0, 2], "does not fit"),
                                           ([4], "not an item index")])
def test_replay_refuses_an_illegal_move(items, reason):
    with pytest.raises(ValueError, match=reason):
        rules.replay(SMALL, items)


def test_the_optimum_by_dynamic_programming():
    assert rules.optimum(SMALL) == 90
    assert rules.optimum(rules.load_instance("p07")) == 1458  # the value listed by the instance's source


def test_a_malformed_instance_file_is_refused_with_its_line(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("10\n5 x\n")
    with pytest.raises(InputError, match="line 2"):
        rules.load_instance(str(bad))


def test_nrpa_finds_the_optimum_of_p07():
    domain = make_domain(KnapsackOptions())
    result = run_search(domain.kernel_domain(), SearchSettings(level=2, N=50, max_time=None, max_playouts=20_000,
                                                               seed=3))
    assert result.best_score == 1458
    assert domain.replay_score(domain.certificate(result.best_moves)) == 1458
