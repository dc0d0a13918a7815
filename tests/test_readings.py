"""The readings fit (analysis/claims/readings.py) on made-up curves whose answer is known, the case
file, and the choice among candidates."""

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from analysis.claims import readings
from nrpa.errors import InputError

# a run's trace: an improvement half-way between two playout counts, so that reading it at
# t x R, an integer up to rounding, is the same below or above it
POSITIONS = np.arange(1.0, 2.0**19) + 0.5


def curve(playouts, slope=100.0):
    """A made-up mean best score after ``playouts`` playouts: rising with log playouts."""
    return slope * np.log2(np.asarray(playouts, dtype=float) + 1)


def runs(shape=curve, spread=20.0, count=10):
    """Traces whose mean at every position is exactly ``shape``: offsets in +/- pairs."""
    offsets = np.repeat([spread, -spread], count // 2)
    return [(POSITIONS, shape(POSITIONS) + offset) for offset in offsets]


TIMES = 0.01 * 2.0 ** np.arange(15)  # the published checkpoints, 0.01 s to 163.84 s
R_TRUE = 2000.0


def published(shape=curve):
    return {"NRPA": (TIMES, shape(TIMES * R_TRUE - 0.5))}  # our runs' mean at t x R_TRUE


def test_the_fit_finds_the_rate_that_made_the_published_curve():
    cap = 4 * R_TRUE  # R_TRUE lies on the grid: cap / 4 = cap x 2^(-64/32)
    fit = readings.fit_rate({"NRPA": runs()}, published(), rate_cap=cap)
    assert fit.rate == pytest.approx(R_TRUE, rel=1e-9)
    assert not fit.at_cap
    assert fit.chi2 == pytest.approx(0.0, abs=1e-12)
    assert fit.cells["inside"].all() and len(fit.cells) == 15
    # z by hand at one cell, R a factor 2 too small: our mean is 100 x log2(t R / 2 + 1), the
    # spread of +/-20 over 10 runs has s = 20 sqrt(10/9)
    cells = readings.fit_rate({"NRPA": runs()}, published(), rate_cap=R_TRUE / 2).cells
    t = TIMES[-1]
    gap = curve(t * R_TRUE - 0.5) - curve(t * R_TRUE / 2 - 0.5)
    s = 20 * math.sqrt(10 / 9)
    t = gap / (s * math.sqrt(1 / 10 + 1 / 200))  # a Student t on 9 degrees of freedom, as a normal score
    assert cells["z"].iloc[-1] == pytest.approx(stats.norm.isf(stats.t.sf(t, 9)))


def test_a_rate_beyond_the_runs_budget_is_reported_at_the_cap():
    fit = readings.fit_rate({"NRPA": runs()}, published(), rate_cap=R_TRUE / 3)
    assert fit.at_cap and fit.rate == pytest.approx(R_TRUE / 3)


def test_the_value_scale_turns_our_unit_into_the_papers():
    flipped = {"NRPA": (TIMES, -published()["NRPA"][1])}  # a paper printing minus our score
    fit = readings.fit_rate({"NRPA": runs()}, flipped, rate_cap=4 * R_TRUE, scale=-1.0)
    assert fit.rate == pytest.approx(R_TRUE) and fit.chi2 == pytest.approx(0.0, abs=1e-12)


def test_the_published_curve_chooses_the_candidate_that_made_it():
    def steeper(playouts):  # another search: no speed factor maps it onto the published curve
        return 160.0 * np.log2(np.asarray(playouts, dtype=float) + 1) - 900

    summaries = {name: readings.summary([readings.fit_rate({"NRPA": runs(shape)}, published(), rate_cap=4 * R_TRUE)])
                 for name, shape in (("right", curve), ("wrong", steeper))}
    statuses = readings.judge({**summaries, "unrun": None})
    assert statuses["right"] == ("chosen", 0.0)
    assert statuses["wrong"][0] == "rejected: does not fit" and statuses["wrong"][1] > 15
    assert statuses["unrun"][0] == "no runs"


@pytest.mark.parametrize("chi2s, worst, expected", [
    ({"a": 10.0, "b": 20.0}, 2.0, {"a": "chosen", "b": "not told apart"}),  # 10 more over 15 cells
    ({"a": 10.0, "b": 40.0}, 2.0, {"a": "chosen", "b": "rejected: worse"}),  # 30 more
    ({"a": 70.0, "b": 90.0}, 2.0, {"a": "rejected: does not fit", "b": "rejected: does not fit"}),  # 70 / 15 > 4
    # right on average, a cell beyond Bonferroni's 2.94 for 15 cells: no fit
    ({"a": 10.0, "b": 20.0}, 3.0, {"a": "rejected: does not fit", "b": "rejected: does not fit"}),
])
def test_the_choice_rule(chi2s, worst, expected):
    assert readings.worst_bound(15) == pytest.approx(2.935, abs=1e-3)
    summaries = {name: {"chi2": chi2, "cells": 15, "worst": worst} for name, chi2 in chi2s.items()}
    assert {name: status for name, (status, _) in readings.judge(summaries).items()} == expected


def test_a_final_score_row_is_one_cell_against_the_published_games():
    scores = np.array([38.0, 40.0] * 500)
    fit = readings.fit_final({"Uniform": scores}, {"Uniform": (39.1, 100_000)})
    row = fit.cells.iloc[0]
    error = scores.std(ddof=1) * math.sqrt(1 / 1000 + 1 / 100_000)
    assert row["z"] == pytest.approx(stats.norm.isf(stats.t.sf((39.1 - 39.0) / error, 999)))
    assert row["z"] == pytest.approx((39.1 - 39.0) / error, rel=0.01)  # 999 degrees of freedom: nearly normal
    assert math.isnan(fit.rate) and not row["inside"]  # 39.1 lies 0.1 above a mean known to +/- 0.06


def test_the_declared_cases_are_complete():
    cases = readings.load_cases()
    assert {c.case for c in cases} >= {"tsptw_moves", "selective_level", "samegame_rule", "maximum_atoms",
                                       "morpion_game"}
    for case in cases:
        assert len(case.candidates) >= 2 and case.current in {c.name for c in case.candidates}


def test_a_case_file_with_a_current_reading_that_is_no_candidate_is_refused(tmp_path):
    path = tmp_path / "readings.yaml"
    path.write_text("- {case: x, paper: P, setting: s, quote: q, current: c, candidates: {a: [k=1], b: [k=2]}, "
                    "parts: [{experiment: e, columns: [A]}]}\n")
    with pytest.raises(InputError, match="current 'c' is not a candidate"):
        readings.load_cases(path)


@pytest.mark.slow  # a few minutes: every time-table case's candidates, 2 smoke runs each
def test_make_readings_at_smoke_scale_runs_every_case(tmp_path):
    import pandas as pd

    from tests.conftest import cli

    outputs = tmp_path / "outputs"
    done = cli("-m", "analysis.claims.readings", "scale=smoke", "--make", f"outputs_dir={outputs}")
    assert done.returncode == 0, done.stderr
    table = pd.read_csv(outputs / "readings" / "readings_smoke.csv")
    cases = readings.load_cases()
    assert table.groupby("case")["candidate"].count().to_dict() == {c.case: len(c.candidates) for c in cases}
    assert set(table["status"]) <= set(readings.STATUSES)
    timed = table[table["case"] != "morpion_game"]  # a final-score row's runs are its experiment's own
    assert (timed["runs"] == readings.RUNS["smoke"]).all() and (timed["cells"] > 0).all()
    assert (table.groupby("case")["current"].sum() == 1).all()
    for case in cases:
        if case.case != "morpion_game":
            assert (outputs / "readings" / f"readings_smoke_{case.case}.png").stat().st_size > 0


def test_a_candidate_fits_when_some_rate_keeps_every_cell_within_the_bound():
    def cells(*zs):
        return pd.DataFrame({"z": zs, "scored": [True] * len(zs)})

    # the least sum of z^2 (R = 2) has a cell at 3.0; R = 1 keeps every cell within 2.9
    scan = ((1.0, cells(2.0, 2.0)), (2.0, cells(3.0, 0.0)), (3.0, cells(2.5, 2.5)))
    fit = readings.Fit(2.0, 4.0, scan[1][1], scan)
    assert fit.within(2.9).rate == 1.0  # 8.0 < 12.5: the least sum among those within
    assert fit.within(1.0) is fit  # none within: the least sum overall stays
