"""The paper-scale snapshot of a time table (analysis/claims/snapshot.py) on made-up cells."""

import pandas as pd

from analysis.claims.snapshot import markdown
from experiments.config import PublishedRate


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
