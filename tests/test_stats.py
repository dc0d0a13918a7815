"""Checkpoint statistics and tables on tiny inputs checkable by hand."""

import math

import numpy as np
import pandas as pd
import pytest

from analysis.stats import (
    ESTIMATORS, best_at, bootstrap_interval, checkpoint_statistics, doubling_checkpoints, final_statistics,
    t_interval,
)
from analysis.results.speedup import speedup_table
from analysis.results.tables import markdown, side_by_side
from experiments.published import load_reference


def test_the_papers_checkpoints_are_0_01_s_and_every_doubling_to_163_84_s():
    checkpoints = doubling_checkpoints(0.01, 163.84)
    assert len(checkpoints) == 15
    assert checkpoints[0] == 0.01 and checkpoints[-1] == 163.84 and checkpoints[7] == 1.28


def test_best_at_a_checkpoint_is_the_last_improvement_at_or_before_it():
    values = best_at([0.005, 0.03, 0.2], [10, 20, 30], [0.001, 0.005, 0.01, 0.04, 1.0])
    np.testing.assert_array_equal(values, [np.nan, 10, 10, 20, 30])


def test_student_t_interval_of_1_to_5():
    # mean 3, sd sqrt(2.5), se sqrt(0.5), t(0.975, 4 dof) = 2.776445
    mean, low, high = t_interval([1, 2, 3, 4, 5])
    half = 2.776445 * math.sqrt(0.5)
    assert (mean, low, high) == pytest.approx((3, 3 - half, 3 + half), abs=1e-5)


def test_intervals_ignore_runs_without_a_solution_and_need_two_values():
    assert t_interval([np.nan, 4, 6]) == pytest.approx((5, 5 - 12.7062 * 1, 5 + 12.7062 * 1), abs=1e-3)
    mean, low, high = t_interval([7, np.nan])
    assert mean == 7 and math.isnan(low) and math.isnan(high)


def test_percentile_bootstrap_agrees_with_t_on_a_normal_sample_and_is_exact_on_constants():
    sample = np.random.default_rng(0).normal(100, 10, size=200)
    _, t_low, t_high = t_interval(sample)
    _, b_low, b_high = bootstrap_interval(sample)
    assert b_low == pytest.approx(t_low, abs=0.3) and b_high == pytest.approx(t_high, abs=0.3)
    assert bootstrap_interval([4, 4, 4]) == (4, 4, 4)


def test_checkpoint_statistics_count_runs_and_runs_without_a_solution():
    traces = {"A": [([0.02], [10.0]), ([0.005], [30.0])], "B": [([0.001], [5.0])]}
    table = checkpoint_statistics(traces, [0.01, 0.04]).set_index(["variant", "checkpoint"])
    assert table.loc[("A", 0.01), ["runs", "runs_without_solution", "mean"]].tolist() == [2, 1, 30]
    assert table.loc[("A", 0.04), "mean"] == 20
    assert table.loc[("B", 0.04), "runs"] == 1


def test_the_published_value_sits_beside_each_cell_and_is_checked_against_the_ci():
    statistics = pd.DataFrame({
        "variant": ["NRPA", "NRPA", "SNRPA(2)"], "checkpoint": [0.01, 0.02, 0.01],
        "runs": [3, 3, 3], "runs_without_solution": [0, 0, 0],
        "mean": [450.0, 600.0, 480.0], "ci_low": [440.0, 590.0, 470.0], "ci_high": [460.0, 610.0, 490.0],
    })
    table = side_by_side(statistics, load_reference("stabilized_table4_samegame_board1.csv"))
    assert table["published"].tolist() == [448, 654, 499]  # the paper's Table 4
    assert table["published_in_ci"].tolist() == [True, False, False]
    text = markdown(table, axis_name="CPU seconds", caption="Table")
    assert "450.0 [440, 460] (448)" in text and "600.0 [590, 610] (654*)" in text


def test_final_statistics_by_hand():
    table = final_statistics({"a": [1, 2, 3, 4, 5]}).iloc[0]
    # mean 3, sample std sqrt(2.5), sem sqrt(2.5) / sqrt(5) = sqrt(0.5)
    assert (table["runs"], table["mean"], table["min"], table["max"]) == (5, 3.0, 1.0, 5.0)
    assert table["std"] == pytest.approx(2.5 ** 0.5)
    assert table["sem"] == pytest.approx(0.5 ** 0.5)
    assert table["ci_low"] == pytest.approx(3 - 2.776445 * 0.5 ** 0.5, abs=1e-5)


def test_the_interval_method_is_the_callable_passed_and_named_on_the_command_line():
    assert ESTIMATORS == {"t": t_interval, "bootstrap": bootstrap_interval}
    sample = [1, 2, 3, 4, 5, 9]
    row = final_statistics({"a": sample}, estimate=bootstrap_interval).iloc[0]
    assert (row["mean"], row["ci_low"], row["ci_high"]) == bootstrap_interval(sample)
    assert (row["ci_low"], row["ci_high"]) != t_interval(sample)[1:]
    traces = {"A": [([0.001], [float(v)]) for v in sample]}
    cell = checkpoint_statistics(traces, [0.01], estimate=bootstrap_interval).iloc[0]
    assert (cell["mean"], cell["ci_low"], cell["ci_high"]) == bootstrap_interval(sample)


def test_the_speedup_of_a_search_that_is_4_times_ahead_is_4():
    # sequential best: 1, 2, 3, 4 reached at 1, 2, 4, 8 s; the parallel run is at 3 from 1 s on
    sequential = [([1.0, 2.0, 4.0, 8.0], [1.0, 2.0, 3.0, 4.0])]
    parallel = {"fast": [([0.5, 1.0], [2.0, 3.0])]}
    table = speedup_table(sequential, parallel, [1.0, 2.0], resamples=20).set_index("checkpoint")
    assert table.loc[1.0, "speedup"] == pytest.approx(4.0, rel=0.03)  # 3 is reached at 4 s
    assert table.loc[2.0, "speedup"] == pytest.approx(2.0, rel=0.03)
    assert not table["censored"].any()
    ahead = {"best": [([1.0], [5.0])]}  # above anything the sequential run reached
    assert speedup_table(sequential, ahead, [1.0], resamples=20)["censored"].tolist() == [True]
