"""The views beyond the papers' tables: the fixed-target view (hitting times, ERT with runs
that never reach a target, runtime ECDFs), the comparisons across boards (probability of
improvement, performance profiles), on cases computed by hand; then both in the reports of
smoke runs, and the tidy export of those runs read back."""

import math
import shutil

import numpy as np
import pandas as pd
import pytest

from analysis.results.boards import (best_known, board_bootstrap, comparisons, performance_profile,
                                     probability_of_improvement)
from analysis.results.targets import expected_running_time, hitting_times, runtime_ecdf
from experiments.store import PROJECT_ROOT
from tests.conftest import cli


def test_a_target_is_hit_at_the_first_improvement_that_reaches_it():
    # a run improving to 10 at 1 s, 20 at 2 s, 30 at 4 s
    hits = hitting_times([1.0, 2.0, 4.0], [10, 20, 30], [5, 10, 15, 30, 31])
    assert hits.tolist() == [1.0, 1.0, 2.0, 4.0, math.inf]
    assert hitting_times([], [], [1.0]).tolist() == [math.inf]  # no solution at all


def test_ert_counts_what_the_runs_that_never_reach_the_target_spent():
    # three runs: one reaches the target at 2 s, one never does in its 8 s, one at 4 s:
    # (2 + 8 + 4) / 2 successes = 7 s
    assert expected_running_time([2.0, math.inf, 4.0], [10.0, 8.0, 10.0]) == 7.0
    assert expected_running_time([math.inf, math.inf], [10.0, 8.0]) == math.inf
    assert expected_running_time([3.0], [10.0]) == 3.0  # every run succeeds: the mean hitting time


def test_the_ecdf_of_three_runs_counts_run_target_pairs():
    hits = np.array([[1.0, 3.0],        # run 1 reaches both targets, at 1 s and 3 s
                     [2.0, math.inf],   # run 2 the first only
                     [1.0, math.inf]])  # run 3 the first only
    # six pairs; sorted times 1, 1, 2, 3, never, never
    assert runtime_ecdf(hits, [0.5, 1, 2, 3, 10]).tolist() == [0, 2 / 6, 3 / 6, 4 / 6, 4 / 6]


def test_the_probability_of_improvement_of_two_tiny_score_matrices():
    x = [np.array([3.0, 1.0]), np.array([5.0]), np.array([4.0])]
    y = [np.array([2.0, 2.0]), np.array([5.0]), np.array([1.0, 2.0])]
    # board 1: 3 beats both 2s, 1 beats neither: 2/4; board 2: a tie counts half; board 3: 1
    assert probability_of_improvement(x, y) == pytest.approx((0.5 + 0.5 + 1.0) / 3)
    assert probability_of_improvement(y, x) == pytest.approx(1 - (0.5 + 0.5 + 1.0) / 3)


def test_a_performance_profile_averages_the_boards_shares_above_tau():
    normalized = [np.array([0.5, 1.0]), np.array([0.9])]
    # board 1: above 0.4 both, above 0.8 one of two, above 0.95 one of two; board 2: 1, 1, 0
    assert performance_profile(normalized, [0.4, 0.8, 0.95]).tolist() == [1.0, 0.75, 0.25]


def test_the_board_bootstrap_draws_boards_so_one_run_per_board_still_varies():
    scores = {"A": [np.array([float(b)]) for b in range(10)]}
    means = board_bootstrap(scores, lambda sample: np.mean([runs.mean() for runs in sample["A"]]),
                            resamples=500, seed=1)
    assert means.shape == (500,) and means.std() > 0 and abs(means.mean() - 4.5) < 0.3


def test_best_known_takes_the_published_columns_the_leaderboard_and_the_runs():
    reference = pd.DataFrame({"board": ["1", "2"], "NMCS": [100.0, 50.0], "record": [120.0, 60.0]})
    final = {("A", 1): [110.0, 90.0], ("A", 2): [70.0]}
    assert best_known(final, reference, {1: 130.0}) == {1: 130.0, 2: 70.0}


def test_comparisons_give_each_pair_and_each_profile_with_intervals():
    final = {("A", 1): [10.0, 10.0], ("B", 1): [5.0, 5.0], ("A", 2): [8.0, 8.0], ("B", 2): [4.0, 4.0]}
    improvement, profile = comparisons(final, {1: 10.0, 2: 8.0}, resamples=200)
    assert improvement[["X", "Y", "P(X > Y)", "ci_low", "ci_high"]].values.tolist() == [["A", "B", 1.0, 1.0, 1.0]]
    a = profile[profile["algorithm"] == "A"]
    assert (a["share_above"][a["tau"] < 1.0] == 1.0).all()  # A's runs are all at 1 (its boards' best)
    b = profile[profile["algorithm"] == "B"]
    assert b["share_above"][b["tau"] >= 0.5].max() == 0.0  # B's at 0.5


# runs in the test's process (n_jobs=1): starting worker processes would cost more than these runs.
# Dist-NRPA(5)'s members run sequentially here (parallel=none): the views read its root runs
# (a member's best per run) whatever the members do inside, and the threaded kernels, half a
# minute of compiling, are tested by tests/test_parallel.py (slow)
TIME_TABLE = ["experiment=selective_table3", "scale=smoke", "repeats=3", "backend.n_jobs=1"]
BOARD_TABLE = ["experiment=distributed_table1", "scale=smoke", "domain.board=1,2", "backend.n_jobs=1",
               "parallel=none", "threads=1"]


@pytest.fixture(scope="module")
def smoke_outputs(tmp_path_factory):
    """A time table (3 runs per column) and a board table (2 boards) at smoke scale, run and
    reported once for the tests of this file."""
    outputs = tmp_path_factory.mktemp("views") / "outputs"
    for experiment in (TIME_TABLE, BOARD_TABLE):
        for command in (["run.py", "-m"], ["-m", "analysis.results.report"]):
            done = cli(*command, *experiment, f"outputs_dir={outputs}")
            assert done.returncode == 0, done.stderr
    return outputs


@pytest.mark.slow  # end to end, over 10 s
def test_a_time_table_report_gives_the_ert_table_and_the_ecdf(smoke_outputs):
    table = pd.read_csv(smoke_outputs / "tables" / "selective_table3_smoke_targets.csv")
    published = pd.read_csv(PROJECT_ROOT / "analysis" / "reference" / "selective_table3_samegame_board1.csv")
    # default targets: each column's published means, one per published time
    tabu = table[table["variant"] == "tabu"]
    assert tabu["target"].tolist() == published["tabu"].tolist()
    assert (tabu["runs"] == 3).all() and set(table.columns) >= {"ert_cpu_seconds", "ert_playouts", "reached"}
    reached = table[table["reached"] > 0]
    assert np.isfinite(reached[["ert_cpu_seconds", "ert_playouts"]]).all().all()
    assert np.isinf(table[table["reached"] == 0]["ert_cpu_seconds"]).all()
    assert (smoke_outputs / "figures" / "selective_table3_smoke_ecdf.png").exists()
    assert "expected running time ERT" in (smoke_outputs / "tables" / "selective_table3_smoke_targets.md").read_text()


@pytest.mark.slow  # end to end, over 10 s
def test_given_targets_are_the_same_for_every_column_in_the_tables_unit(tmp_path, smoke_outputs):
    outputs = tmp_path / "outputs"
    shutil.copytree(smoke_outputs / "runs", outputs / "runs")
    done = cli("-m", "analysis.results.report", *TIME_TABLE, f"outputs_dir={outputs}", "+report.targets=[100,500]")
    assert done.returncode == 0, done.stderr
    given = pd.read_csv(outputs / "tables" / "selective_table3_smoke_targets.csv")
    assert given["target"].tolist() == [100.0, 500.0] * 4


def test_targets_that_are_not_numbers_are_refused_before_any_work(tmp_outputs):
    done = cli("-m", "analysis.results.report", *TIME_TABLE, f"outputs_dir={tmp_outputs}", "+report.targets=[high]")
    assert done.returncode == 2 and "report.targets" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.slow  # end to end, over 10 s
def test_a_board_table_report_gives_the_probability_of_improvement_and_the_profiles(smoke_outputs):
    improvement = pd.read_csv(smoke_outputs / "tables" / "distributed_table1_smoke_improvement.csv")
    assert improvement[["X", "Y", "boards"]].values.tolist() == [
        ["NMCS(4)", "NRPA(4)", 2], ["NMCS(4)", "Dist-NRPA(5)", 2], ["NRPA(4)", "Dist-NRPA(5)", 2]]
    for _, row in improvement.iterrows():
        assert 0 <= row["ci_low"] <= row["P(X > Y)"] <= row["ci_high"] <= 1
    profile = pd.read_csv(smoke_outputs / "tables" / "distributed_table1_smoke_profile.csv")
    assert set(profile["algorithm"]) == {"NMCS(4)", "NRPA(4)", "Dist-NRPA(5)"}
    assert profile["share_above"].between(0, 1).all()
    assert (smoke_outputs / "figures" / "distributed_table1_smoke_profile.png").exists()


@pytest.mark.slow  # end to end, over 10 s
def test_the_export_read_back_gives_the_means_of_the_time_tables(smoke_outputs):
    done = cli("-m", "analysis.results.export", *TIME_TABLE, f"outputs_dir={smoke_outputs}")
    assert done.returncode == 0, done.stderr
    runs = pd.read_parquet(smoke_outputs / "export" / "selective_table3_smoke.parquet")
    csv = pd.read_csv(smoke_outputs / "export" / "selective_table3_smoke.csv")  # the same rows
    assert csv["run_id"].tolist() == runs["run_id"].tolist()
    np.testing.assert_allclose(csv["value"], runs["value"])
    for axis, suffix in (("cpu_seconds", ""), ("playouts", "_playouts")):
        table = pd.read_csv(smoke_outputs / "tables" / f"selective_table3_smoke{suffix}.csv")
        means = runs[runs["axis"] == axis].groupby(["variant", "checkpoint"])["value"].mean()
        expected = table.set_index(["variant", "checkpoint"])["mean"]
        np.testing.assert_allclose(means.loc[expected.index], expected)
    final = runs[runs["axis"] == "final"]
    assert len(final) == 12 and final["seed"].notna().all() and final["run_id"].is_unique
    assert set(final["git_commit"]) == {runs["git_commit"].iloc[0]} and (final["level"] == 4).all()


@pytest.mark.slow  # end to end, over 10 s
def test_the_export_read_back_gives_the_means_of_the_board_tables(smoke_outputs):
    done = cli("-m", "analysis.results.export", *BOARD_TABLE, f"outputs_dir={smoke_outputs}")
    assert done.returncode == 0, done.stderr
    runs = pd.read_parquet(smoke_outputs / "export" / "distributed_table1_smoke.parquet")
    assert set(runs["axis"]) == {"final"}  # a board table is of final scores
    table = pd.read_csv(smoke_outputs / "tables" / "distributed_table1_smoke.csv", dtype={"board": str})
    means = runs.groupby(["variant", "instance"])["value"].mean()
    for board in ("1", "2"):
        row = table[table["board"] == board].iloc[0]
        for algorithm in ("NMCS(4)", "NRPA(4)", "Dist-NRPA(5)"):  # Dist-NRPA(5): root runs, their members' best
            assert means[(algorithm, f"board {board}")] == pytest.approx(row[f"{algorithm} mean"])


def test_an_export_with_no_runs_says_so(tmp_outputs):
    done = cli("-m", "analysis.results.export", *TIME_TABLE, f"outputs_dir={tmp_outputs}")
    assert done.returncode == 2 and "no runs" in done.stderr and "Traceback" not in done.stderr
