"""The two answers of a claim and the status of a published table or figure
(analysis/claims/status.py), on made-up claims whose answers are known by hand."""

import math

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
    +1.0 [+0.5, +1.5] in every row."""
    return pd.DataFrame([{"claim": f"c{i}", "verdict": verdict, "judged_on": on, "why": why, "test": "compare",
                          "published": published, "effect": 1.0, "effect_low": 0.5, "effect_high": 1.5,
                          "against_text": against, "paper_cost": "~1.0 CPU-h"}
                         for i, (verdict, on, why, published, against) in enumerate(rows)])


def row(verdict="supported", on=STATED, why="", published=1.2, against=""):
    return (verdict, on, why, published, against)


@pytest.mark.parametrize("published, test, answer", [
    (1.2, "compare", INSIDE), (0.5, "compare", INSIDE), (1.5, "compare", INSIDE),  # the ends are inside
    (2.0, "compare", PAPER_ABOVE), (0.4, "compare", PAPER_BELOW),
    (math.nan, "compare", ""),  # no published effect: no second answer
    (math.nan, "value", PAPER_BELOW),  # a value claim: ours minus the published is [0.5, 1.5], the paper 0 below it
])
def test_the_magnitude_places_the_papers_effect_against_our_interval(published, test, answer):
    assert magnitude({"verdict": "supported", "test": test, "published": published, "effect_low": 0.5,
                      "effect_high": 1.5}) == answer


def test_a_value_claims_magnitude_asks_whether_the_published_value_is_inside_our_interval_of_the_difference():
    """Ours minus the published mean: [-0.2, +0.3] holds 0 (the published value); [+0.17, +0.21] does
    not, ours being above it: the paper's below."""
    value = {"verdict": "supported", "test": "value", "published": math.nan}
    assert magnitude({**value, "effect_low": -0.2, "effect_high": 0.3}) == INSIDE
    assert magnitude({**value, "effect_low": 0.17, "effect_high": 0.21}) == PAPER_BELOW
    assert magnitude({**value, "verdict": "not run", "effect_low": -1, "effect_high": 1}) == ""


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
    assert detail == ("2 of 2 supported (the directions); the paper's effect outside our 95% interval for 1 of 2 (c1); "
                      "the published baseline does not fit at R = 1,100 (200 runs a column, 14 cells: mean z^2 10.80, "
                      "largest abs(z) 6.60 > 2.91); 50 of the paper's 200 runs a column")
    assert status_of(claims(("not run", "", "needs hardware", math.nan, "")).assign(
        paper_cost="a machine with 160 cores (this one has 2)"))[1] == "a machine with 160 cores"
