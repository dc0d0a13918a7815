"""The two answers of a claim, and the status of a published table or figure (pure functions on the
claims report's rows: no runs, no files; tests/test_status.py holds them on made-up inputs).

A judged claim answers two questions:

  direction   its verdict: supported, contradicted or inconclusive, read on anytime-valid p-values
              Holm-corrected within the claim's family (analysis/claims/judging.py)
  magnitude   is the paper's own effect of the same comparison inside our 95% interval? The interval
              is the one every report shows beside the verdict: that comparison's 95% confidence
              sequence alone, NOT Holm-corrected (for a value claim, the t interval of our mean
              minus the published one). It is the stricter test of the paper's number: corrected
              over a family of m claims it would be wider. So an interval clear of 0 can sit beside
              an "inconclusive" direction, and a published effect just outside it is a weaker
              finding than one far outside; the rows give both ends.

The status of an item (a table or figure) combines its claims' two answers with two facts of its
runs: the published baseline curve's fit at the machine speed R the claims read, on the runs the
claims read (analysis/claims/campaign_fit.py, the readings' test at the sample judged), and our
runs per column against the paper's. In this order, the first that applies:

  not run: needs hardware / compute   no claim judged (the machine or the CPU-hours, priced)
  no reading fits                     no claim judged: their reading does not fit the published baseline
  reproduced                          every claim supported, every published effect inside our
                                      interval, the baseline fits at R, on the stated settings
  reproduced on a reading             the same, some verdict on a named reading of a setting the
                                      paper leaves unsaid
  qualitatively reproduced            every claim supported (the directions hold), but a published
                                      effect lies outside our interval, or the baseline does not fit
                                      at R, or a verdict rests on a reading against a setting the
                                      text states: the detail says which
  partly reproduced                   some claims supported, not all (the detail says how the others went)
  not reproduced                      none supported, and a claim contradicted, or the published
                                      effects excluded at the paper's sample while the baseline fits
  inconclusive                        none supported or contradicted otherwise: the runs (n of the
                                      paper's N a column) cannot yet tell

A claim on a reading against the text (its file's `against_text`: the runs depart from a setting
the paper states, because its numbers fit only that way) never lifts a status: where the item has
claims on the stated settings (or on readings of unsaid ones), the status reads those alone and the
detail reports the others apart; where it has no other, the status reads them but stops at
"qualitatively reproduced".
"""

from __future__ import annotations

import math
import re

import pandas as pd

from analysis.claims.judging import JUDGED, NOT_RUN, ON_READING, READING_REJECTED
from analysis.claims.paper_settings import NEEDS_HARDWARE

INSIDE = "inside"
PAPER_ABOVE, PAPER_BELOW = "outside: the paper's above ours", "outside: the paper's below ours"
STATUSES = ("reproduced", "reproduced on a reading", "qualitatively reproduced", "partly reproduced",
            "not reproduced", "inconclusive", "no reading fits", "not run: needs hardware", "not run: needs compute")


def magnitude(row) -> str:
    """Is the paper's effect inside our 95% interval (the row's effect_low, effect_high)? INSIDE,
    PAPER_ABOVE, PAPER_BELOW, or "" where the row has no judged effect or the paper none of its own.
    A value claim's effect is our mean minus the published value: the paper's is 0 on that scale."""
    if row.get("verdict") not in JUDGED:
        return ""
    low, high = float(row.get("effect_low", math.nan)), float(row.get("effect_high", math.nan))
    paper = 0.0 if row.get("test") == "value" else float(row.get("published", math.nan))
    if not (math.isfinite(paper) and low == low and high == high):
        return ""
    if paper < low:
        return PAPER_BELOW
    if paper > high:
        return PAPER_ABOVE
    return INSIDE


def magnitude_words(answer: str) -> str:
    """A magnitude in a sentence: "inside our 95% interval", "outside our 95% interval: the paper's above ours"."""
    if answer == INSIDE:
        return "inside our 95% interval"
    return answer.replace("outside: ", "outside our 95% interval: ") if answer else ""


def _counts(claims: pd.DataFrame) -> tuple[int, int, int]:
    verdict = claims["verdict"]
    return int((verdict == "supported").sum()), int((verdict == "contradicted").sum()), int((verdict == "inconclusive").sum())


def _against(claims: pd.DataFrame) -> pd.Series:
    texts = claims["against_text"] if "against_text" in claims else pd.Series("", index=claims.index)
    return texts.fillna("").astype(str).str.len() > 0


def _magnitudes(claims: pd.DataFrame) -> pd.Series:
    return pd.Series([magnitude(row) for _, row in claims.iterrows()], index=claims.index, dtype=object)


def verdicts_text(claims: pd.DataFrame) -> str:
    """"3 of 4 supported, 1 inconclusive" (the judged claims)."""
    supported, contradicted, inconclusive = _counts(claims)
    others = [f"{n} {word}" for n, word in ((contradicted, "contradicted"), (inconclusive, "inconclusive")) if n]
    return ", ".join([f"{supported} of {len(claims)} supported", *others])


def basis_of(judged: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(the judged claims a status reads, those it reports apart): claims on a reading against the text
    stand apart where the item has others."""
    against = _against(judged)
    if (~against).any():
        return judged[~against], judged[against]
    return judged, judged.iloc[0:0]


def magnitude_counts(claims: pd.DataFrame) -> tuple[int, int]:
    """(the judged claims whose published effect lies outside our interval, those with one to compare)."""
    found = _magnitudes(claims)
    compared = found[found != ""]
    return int((compared != INSIDE).sum()), len(compared)


def magnitudes_text(claims: pd.DataFrame) -> str:
    """"the paper's effect outside our 95% interval for 2 of 3 (a, b)", or "" where none is."""
    found = _magnitudes(claims)
    compared = found[found != ""]
    outside = compared[compared != INSIDE]
    if outside.empty:
        return f"the paper's effects inside our 95% intervals ({len(compared)} of {len(compared)})" if len(compared) else ""
    names = ", ".join(claims.loc[outside.index, "claim"])
    return f"the paper's effect outside our 95% interval for {len(outside)} of {len(compared)} ({names})"


def status_of(claims: pd.DataFrame, curve=None, runs: int | None = None,
              paper_runs: int | None = None) -> tuple[str, str]:
    """The status of an item from its paper claims' rows (the module's rule) and its detail: what
    decided it. ``curve``: the published baseline's fit at the R the claims read, an
    analysis.claims.campaign_fit.CampaignFit (None: the item has no curve, or it is not
    measured); ``runs``, ``paper_runs``: runs per column, ours (the fewest) and the paper's."""
    judged = claims[claims["verdict"].isin(JUDGED)]
    if judged.empty:
        if (claims["why"] == READING_REJECTED).any():
            return "no reading fits", "its claims' reading does not fit the published baseline (the readings report)"
        hardware = claims[(claims["verdict"] == NOT_RUN) & (claims["why"] == NEEDS_HARDWARE)]
        if len(hardware):
            machine = re.match(r"a machine with [\d,]+ cores", str(hardware["paper_cost"].iloc[0]))
            return "not run: needs hardware", machine.group(0) if machine else ""
        return "not run: needs compute", ""
    basis, apart = basis_of(judged)
    against = _against(judged)
    supported, contradicted, _ = _counts(basis)
    sample = f"{runs} of the paper's {paper_runs} runs a column" if runs and paper_runs else ""
    full = bool(runs and paper_runs and runs >= paper_runs)
    unjudged = len(claims) - len(judged)
    found = _magnitudes(basis)
    excluded = bool(((found != "") & (found != INSIDE)).any())
    problems = [text for text in (
        magnitudes_text(basis) if excluded else "",
        curve.text() if curve is not None and not curve.fits else "",
        f"on a reading against the text: {basis['against_text'].iloc[0]}" if len(apart) == 0 and against.all() else "",
    ) if text]
    facts = [verdicts_text(basis) + " (the directions)", magnitudes_text(basis),
             curve.text() if curve is not None else "",
             f"on a reading against the text: {basis['against_text'].iloc[0]}" if len(apart) == 0 and against.all() else "",
             sample,
             f"{unjudged} of the item's {len(claims)} claims not judged (not run, or no run can test them)" if unjudged else "",
             (f"apart, on a reading against the text ({apart['against_text'].iloc[0]}): {verdicts_text(apart)}, "
              + (magnitudes_text(apart) or "no published effect to compare")) if len(apart) else ""]
    detail = "; ".join(fact for fact in facts if fact)
    if supported == len(basis) and not unjudged:
        if problems:
            return "qualitatively reproduced", detail
        return ("reproduced on a reading" if (basis["judged_on"] == ON_READING).any() else "reproduced"), detail
    if supported:
        return "partly reproduced", detail
    if contradicted or (excluded and full and curve is not None and curve.fits):
        return "not reproduced", detail
    return "inconclusive", detail
