"""The two answers of a claim and the status of a published table or figure
(analysis/claims/status.py), on made-up claims whose answers are known by hand."""

import math

import numpy as np
import pandas as pd
import pytest

from analysis.claims.campaign_fit import CampaignFit
from analysis.claims.judging import READING_REJECTED
from analysis.claims.status import INSIDE, PAPER_ABOVE, PAPER_BELOW, magnitude, status_of

STATED, READING = "the stated settings", "a named reading"
FITS = CampaignFit(3320, 3320, 14, 2.3, 2.5, 2.91, runs=200)
MISFITS = CampaignFit(1100, 1100, 14, 10.8, 6.6, 2.91, runs=200)


def claims(*rows) -> pd.DataFrame:
    """Made-up paper claims: (verdict, judged_on, why, published effect, against_text); ours is
    +1.0 with a standard error of 0.25 (the paper's included) in every row, so the paper's value
    fits ours within 1.96 standard errors: 0.51 to 1.49."""
    def answer(published):
        if not math.isfinite(published):
            return {"published_inside": 0, "published_compared": 0, "published_z": math.nan}
        z = (1.0 - published) / 0.25
        return {"published_inside": int(abs(z) <= 1.96), "published_compared": 1, "published_z": z}

    return pd.DataFrame([{"claim": f"c{i}", "verdict": verdict, "judged_on": on, "why": why, "test": "compare",
                          "published": published, "effect": 1.0, "effect_low": 0.5, "effect_high": 1.5,
                          **answer(published), "against_text": against, "paper_cost": "~1.0 CPU-h"}
                         for i, (verdict, on, why, published, against) in enumerate(rows)])


def row(verdict="supported", on=STATED, why="", published=1.2, against=""):
    return (verdict, on, why, published, against)


@pytest.mark.parametrize("inside, compared, z, answer", [
    (3, 3, 1.2, INSIDE), (1, 1, -1.9, INSIDE),
    (6, 7, -3.4, PAPER_ABOVE),  # the worst comparison: ours 3.4 standard errors below the paper's
    (0, 1, 2.5, PAPER_BELOW),
    (0, 0, math.nan, ""),  # no published value: no second answer
])
def test_the_magnitude_reads_how_many_published_values_fit_ours_and_the_worst_ones_side(inside, compared, z, answer):
    row = {"verdict": "inconclusive", "published_inside": inside, "published_compared": compared, "published_z": z}
    assert magnitude(row) == answer
    assert magnitude({**row, "verdict": "not run"}) == ""  # a scaled-down effect answers nothing


def test_a_published_value_fits_ours_within_the_bonferroni_bound_with_both_samples_errors():
    """By hand: values 1, 2, 3, 4 (mean 2.5, sd 1.291), the paper's mean over 200 runs: se = 1.291 x
    sqrt(1/4 + 1/200) = 0.6519; 3.7 is 1.84 se above ours (inside 1.96 for one comparison), 3.9 is
    2.15 (outside); with two comparisons the bound is 2.24, and 3.9 fits."""
    from analysis.claims.sequential import Contrast, against_published

    values = np.array([1.0, 2.0, 3.0, 4.0])
    se = values.std(ddof=1) * math.sqrt(1 / 4 + 1 / 200)
    assert against_published([Contrast("a", values, published=3.7)], 200) == (1, 1, pytest.approx((2.5 - 3.7) / se))
    assert against_published([Contrast("a", values, published=3.9)], 200)[:2] == (0, 1)
    both = against_published([Contrast("a", values, published=3.9), Contrast("b", values, published=2.5)], 200)
    assert both[:2] == (2, 2) and both[2] == pytest.approx((2.5 - 3.9) / se)
    assert against_published([Contrast("a", values)], 200) == (0, 0, pytest.approx(math.nan, nan_ok=True))
    # the paper's runs count: over 4 runs its mean is as uncertain as ours, and 3.9 fits
    assert against_published([Contrast("a", values, published=3.9)], 4)[:2] == (1, 1)


@pytest.mark.parametrize("rows, curve, runs, status", [
    # every direction and magnitude holds, the baseline fits
    ([row(), row()], FITS, (200, 200), "reproduced"),
    ([row(), row(on=READING)], FITS, (200, 200), "reproduced on a reading"),
    ([row(), row()], None, (200, 200), "reproduced"),  # an item without a curve (final scores)
    # the directions hold, not the magnitudes or the curves
    ([row(), row(published=3.0)], FITS, (200, 200), "qualitatively reproduced"),
    ([row(), row()], MISFITS, (200, 200), "qualitatively reproduced"),
    ([row(on=READING, against="waits 1-4, the text 1-5")], FITS, (200, 200), "qualitatively reproduced"),
    # some directions hold
    ([row(), row("inconclusive")], FITS, (200, 200), "partly reproduced"),
    ([row(), row("contradicted")], FITS, (200, 200), "partly reproduced"),
    ([row(), ("not run", "", "needs compute", math.nan, "")], FITS, (200, 200), "partly reproduced"),
    # none: a contradiction, or the published effects excluded at the paper's sample with a fitting baseline
    ([row("contradicted"), row("inconclusive")], FITS, (50, 200), "not reproduced"),
    ([row("inconclusive", published=3.0), row("inconclusive", published=3.0)], FITS, (200, 200), "not reproduced"),
    # ... but not below the paper's sample, nor where the baseline does not fit, nor with the effects inside
    ([row("inconclusive", published=3.0)], FITS, (122, 200), "inconclusive"),
    ([row("inconclusive", published=3.0)], MISFITS, (200, 200), "inconclusive"),
    ([row("inconclusive", published=1.2)], FITS, (200, 200), "inconclusive"),
    # no claim judged
    ([("not judged", "", READING_REJECTED, 1.0, "")], None, (None, None), "no reading fits"),
    ([("not run", "", "needs compute", math.nan, "")], None, (None, None), "not run: needs compute"),
    ([("not run", "", "needs hardware", math.nan, "")], None, (None, None), "not run: needs hardware"),
])
def test_the_status_of_an_item_follows_the_rule(rows, curve, runs, status):
    assert status_of(claims(*rows), curve, *runs)[0] == status


def test_never_partly_with_nothing_supported():
    for verdicts in (("inconclusive",), ("inconclusive", "contradicted"), ("contradicted",)):
        found, _ = status_of(claims(*(row(v) for v in verdicts)), FITS, 50, 200)
        assert found in ("inconclusive", "not reproduced")


def test_claims_against_the_text_stand_apart_where_others_are_judged():
    """Morpion's Table 2: the Uniform row on the stated game, contradicted; the NRPA rows on a game the
    text rules out, two of three supported. The status reads the stated row alone."""
    table = claims(row("contradicted", published=math.nan), row(on=READING, against="the one-sided game"),
                   row(on=READING, against="the one-sided game"), row("contradicted", on=READING, against="the one-sided game"))
    status, detail = status_of(table, None, None, None)
    assert status == "not reproduced"
    assert detail.startswith("0 of 1 supported, 1 contradicted (the directions)")
    assert "apart, on a reading against the text (the one-sided game): 2 of 3 supported, 1 contradicted" in detail


def test_the_detail_names_what_decided_the_status():
    status, detail = status_of(claims(row(), row(published=3.0)), MISFITS, 50, 200)
    assert status == "qualitatively reproduced"
    assert detail == ("2 of 2 supported (the directions); the paper's values do not fit ours for 1 of 2 claims (c1); "
                      "the published baseline does not fit at R = 1,100 (200 runs a column, 14 cells: mean z^2 10.80, "
                      "largest abs(z) 6.60 > 2.91); 50 of the paper's 200 runs a column")
    assert status_of(claims(("not run", "", "needs hardware", math.nan, "")).assign(
        paper_cost="a machine with 160 cores (this one has 2)"))[1] == "a machine with 160 cores"


def test_the_other_columns_curves_count_where_the_baseline_fits():
    """Stabilized Table 4's case: the baseline fits at R, the compared columns' published curves do not
    at R x rho, every published value fits ours and both directions are inconclusive at the paper's
    sample: not reproduced; the same with the columns fitting: inconclusive; supported claims with a
    column off: only qualitatively reproduced."""
    inconclusive = claims(row("inconclusive"), row("inconclusive"))
    off, on = {"SNRPA(4)": MISFITS, "SNRPA(10)": FITS}, {"SNRPA(4)": FITS}
    status, detail = status_of(inconclusive, FITS, 200, 200, off)
    assert status == "not reproduced"
    assert "the other published columns fit at R x rho: 1 of 2 (SNRPA(10))" in detail
    assert status_of(inconclusive, FITS, 122, 200, off)[0] == "inconclusive"  # below the paper's sample
    assert status_of(inconclusive, FITS, 200, 200, on)[0] == "inconclusive"
    assert status_of(claims(row(), row()), FITS, 200, 200, off)[0] == "qualitatively reproduced"
    assert status_of(claims(row(), row()), FITS, 200, 200, on)[0] == "reproduced"


def test_no_magnitude_where_the_paper_ran_one_run_a_column():
    """The 20-board totals: one run a board in the paper, no spread of its to weigh ours against."""
    from analysis.claims.sequential import Contrast, against_published

    values = np.array([1.0, 2.0, 3.0, 4.0])
    assert against_published([Contrast("total", values, published=30.0)], 1)[:2] == (0, 0)


def test_a_claim_supported_at_one_clock_and_contradicted_at_the_other_makes_the_item_clock_dependent():
    """Where the claims are decided at a second clock (campaign.with_other_clock), the detail says how
    they went there; opposite decided verdicts make the item clock-dependent, a verdict that one clock
    decides and the other's fewer runs do not is not."""
    two = claims(row("supported"), row("inconclusive"))
    undecided = two.assign(other_clock_verdict=["inconclusive", "inconclusive"], other_clock_runs=[25, 23])
    status, detail = status_of(undecided, FITS, runs=200, paper_runs=200)
    assert status == "partly reproduced"
    assert ("at a second clock too, which the baseline does not tell apart from the one the claims read (23-25 runs "
            "a column: 0 of 2 supported, 2 inconclusive); clock-dependent (supported at one clock, contradicted at "
            "the other): none") in detail
    flipped = two.assign(other_clock_verdict=["contradicted", "inconclusive"], other_clock_runs=[25, 25])
    status, detail = status_of(flipped, FITS, runs=200, paper_runs=200)
    assert status == "clock-dependent" and "contradicted at the other): c0" in detail
    # no second clock: no such words, and the status as before
    assert "second clock" not in status_of(two, FITS, runs=200, paper_runs=200)[1]
    assert status_of(two.assign(other_clock_verdict=["", ""], other_clock_runs=[np.nan, np.nan]), FITS,
                     runs=200, paper_runs=200)[0] == "partly reproduced"
