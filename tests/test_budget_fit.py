"""analysis.budget_fit: the budget at which runs cut short would average a published mean."""

import numpy as np
import pytest

from analysis import budget_fit
from analysis.stats import best_at
from analysis.results.targets import bootstrap_budget_for_mean, budget_for_mean

GRID = [1, 10, 100]
# run A improves to 6 at 10, run B to 8 at 100: best so far A 2, 6, 6 and B 4, 4, 8; means 3, 5, 7
BEST = np.array([best_at([1, 10], [2, 6], GRID), best_at([1, 100], [4, 8], GRID)])


@pytest.mark.parametrize("target, budget", [(3, 1), (5, 10), (5.5, 100), (7, 100), (7.5, np.inf)])
def test_the_budget_is_the_first_point_whose_mean_reaches_the_target(target, budget):
    assert budget_for_mean(BEST, GRID, target) == budget


def test_a_point_before_some_run_has_a_score_has_no_mean():
    late = np.array([best_at([1], [9], GRID), best_at([10], [9], GRID)])  # the second scores from 10 on
    assert budget_for_mean(late, GRID, 1) == 10


def test_the_bootstrap_interval_collapses_on_identical_runs_and_brackets_the_estimate():
    same = np.repeat(BEST[:1], 50, axis=0)
    assert bootstrap_budget_for_mean(same, GRID, 6) == (10.0, 10.0)
    rng = np.random.default_rng(3)
    grid = np.arange(1, 101)
    # runs whose best so far is a noisy ramp: the mean reaches 50 near 50
    best = np.maximum.accumulate(grid + rng.normal(0, 10, (200, grid.size)), axis=1)
    low, high = bootstrap_budget_for_mean(best, grid, 50, resamples=300)
    assert low <= budget_for_mean(best, grid, 50) <= high
    assert (low, high) == bootstrap_budget_for_mean(best, grid, 50, resamples=300)  # seeded


def test_a_mistyped_column_is_named_before_any_work(tmp_path, capsys):
    with pytest.raises(SystemExit) as stop:
        budget_fit.main(["experiment=morpion_table2", "scale=smoke", f"outputs_dir={tmp_path}",
                         "--column", "NRPA(4)", "--target", "68.2"])
    assert stop.value.code == 2
    assert "--column 'NRPA(4)'" in capsys.readouterr().err


def test_the_bisection_finds_what_a_scan_of_every_point_finds():
    rng = np.random.default_rng(7)
    grid = np.arange(1.0, 61.0)
    for _ in range(50):
        best = np.maximum.accumulate(rng.integers(0, 10, (rng.integers(1, 8), grid.size)).astype(float), axis=1)
        best[:, : rng.integers(0, 5)] = np.nan  # runs with no score yet at the first points
        target = rng.uniform(0, 10)
        means = best.mean(axis=0)
        reached = np.flatnonzero(means >= target)
        assert budget_for_mean(best, grid, target) == (grid[reached[0]] if reached.size else np.inf)
