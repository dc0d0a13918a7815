"""The paper-scale snapshot of a time table (analysis/claims/snapshot.py) on made-up cells."""

import pandas as pd
import pytest

from analysis.claims.snapshot import markdown
from experiments.config import PublishedRate
from experiments.store import PROJECT_ROOT
from tests.conftest import cli


def test_the_snapshot_page_counts_the_cells_inside_and_sets_each_beside_the_paper():
    cells = pd.DataFrame([
        # time, column, published, mean, low, high, runs, fitted
        (0.01, "NRPA", 448.0, 576.0, 538.4, 613.5, 200, True),
        (0.02, "NRPA", 654.0, 660.0, 640.0, 680.0, 200, True),
        (0.01, "SNRPA(2)", 499.0, 500.0, 480.0, 520.0, 198, False),
        (0.02, "SNRPA(2)", 685.0, 799.3, 762.6, 835.9, 198, False),
    ], columns=["time", "column", "published", "mean", "low", "high", "runs", "fitted"])
    cells["inside"] = (cells["low"] <= cells["published"]) & (cells["published"] <= cells["high"])
    rate = PublishedRate(R=3320.0, ci_low=2860.0, ci_high=3740.0, fit_on=("NRPA",), source="made up")
    facts = {"title": "T", "cpu_hours": 1.234, "runs": {"NRPA": 200, "SNRPA(2)": 198}, "versions": ["abc"],
             "commit": "0123456789abcdef", "rate": rate}
    page = markdown("t", cells, facts)
    assert "Runs per column: NRPA 200, SNRPA(2) 198 (the paper: 200)" in page
    assert "inside our interval: 2 of 4 (the columns R is not fitted on: 1 of 2)" in page
    assert "CPU behind the runs: 1.23 h" in page and "commit 0123456789ab" in page
    assert "| 0.02 | 654 | 660 [640, 680] | 685 | 799.3 [762.6, 835.9] |" in page


@pytest.mark.slow  # reads Stabilized Table 4's 1,600 archived runs
def test_the_archive_holds_stabilized_table_4_at_paper_scale_and_its_table_is_the_snapshot(tmp_outputs, monkeypatch):
    """`make stabilized-table4 SCALE=paper` on a checkout with the committed archive makes no run
    (the campaign's 200 runs a column are all there) and its matched-time table has the means of
    the committed snapshot, docs/results/stabilized_table4_paper.csv."""
    monkeypatch.delenv("NRPA_ARCHIVE")  # the project's committed archive/, as a user's checkout reads it
    done = cli("run.py", "-m", "experiment=stabilized_table4", "scale=paper", f"outputs_dir={tmp_outputs}")
    assert done.returncode == 0, done.stderr
    assert "0 run(s) made, 1600 already in the store" in done.stdout
    made = pd.read_csv(tmp_outputs / "tables" / "stabilized_table4_paper_work_matched.csv")
    snapshot = pd.read_csv(PROJECT_ROOT / "docs" / "results" / "stabilized_table4_paper.csv")
    both = made.merge(snapshot, left_on=["variant", "checkpoint"], right_on=["column", "time"],
                      suffixes=("_made", "_snapshot"))
    assert len(both) == len(snapshot) == 8 * 15
    assert (both["runs_made"] == 200).all() and (both["runs_snapshot"] == 200).all()
    assert (both["mean_made"] - both["mean_snapshot"]).abs().max() < 1e-9
