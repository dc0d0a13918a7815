"""The two answers of a claim, and the status of a published table or figure (pure functions on the
claims report's rows: no runs, no files; tests/test_status.py holds them on made-up inputs).

A judged claim answers two questions:

  direction   its verdict: supported, contradicted or inconclusive, read on anytime-valid p-values
              Holm-corrected within the claim's family (analysis/claims/judging.py)
  magnitude   does the paper's own value of each of its comparisons fit ours? Read at our final
              sample (fixed n, not the running confidence sequence the verdict reads), with the
              paper's own sampling error added: z = (our mean - the paper's) / (sd x sqrt(1/n +
              1/N)), N the paper's runs a column, as the readings' test scores a cell; a comparison
              fits when abs(z) is within the Bonferroni bound at 5% over the claim's comparisons
              with a published value (a claim on "every" column or time reads several). A value
              claim's one comparison is its mean against the published one
              (sequential.against_published). So the answer does not hang on a run early in the
              sequence, nor on the one comparison most adverse to the claim.

The status of an item (a table or figure) combines its claims' two answers with three facts of its
runs: the published baseline curve's fit at the machine speed R the claims read, on the runs the
claims read (analysis/claims/campaign_fit.py, the readings' test at the sample judged); the other
published columns' fit by the same test at their matched work (t x R x rho); where the table's
baseline chooses the reference engine's clock, both fits at that clock instead (engines.clock_fits,
on the runs read at t x R x rho); and our runs per column against the paper's. In this order, the first that applies:

  not run: needs hardware / compute   no claim judged (the machine or the CPU-hours, priced)
  no reading fits                     no claim judged: their reading does not fit the published baseline
  clock-dependent                     where the table's baseline does not tell a second clock apart
                                      from the one its claims read (t x R x rho and the reference
                                      engine's, or two CPU models' reference clocks) and the claims
                                      are decided at both (campaign.with_other_clock), a claim supported at one clock and
                                      contradicted at the other: which one holds depends on the
                                      engine's relative costs, which the papers do not give
  reproduced                          every claim supported, every published value fits ours, the
                                      baseline and the other columns fit, on the stated settings
  reproduced on a reading             the same, some verdict on a named reading of a setting the
                                      paper leaves unsaid
  qualitatively reproduced            every claim supported (the directions hold), but a published
                                      value does not fit ours, or a published curve (the baseline at
                                      R, another column at R x rho) does not, or a verdict rests on a
                                      reading against a setting the text states: the detail says which
  partly reproduced                   some claims supported, not all (the detail says how the others went)
  not reproduced                      none supported, and a claim contradicted, or, at the paper's
                                      sample and with the baseline fitting, a published value of
                                      the claims or a published column of the compared searches
                                      that does not fit ours
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
STATUSES = ("clock-dependent", "reproduced", "reproduced on a reading", "qualitatively reproduced", "partly reproduced",
            "not reproduced", "inconclusive", "no reading fits", "not run: needs hardware", "not run: needs compute")
DECIDED = {"supported", "contradicted"}


def magnitude(row) -> str:
    """Does the paper's own value of each of the claim's comparisons fit ours (the row's
    published_inside of published_compared, sequential.against_published)? INSIDE where every one
    does, else PAPER_ABOVE or PAPER_BELOW by the sign of the worst one (published_z: ours minus the
    paper's); "" where the row has no judged effect or the paper no value to compare."""
    if row.get("verdict") not in JUDGED:
        return ""
    compared, inside = float(row.get("published_compared", math.nan)), float(row.get("published_inside", math.nan))
    if not compared > 0:
        return ""
    if inside == compared:
        return INSIDE
    return PAPER_BELOW if float(row.get("published_z", math.nan)) > 0 else PAPER_ABOVE


def magnitude_words(row) -> str:
    """A row's magnitude in words: "the paper's value fits ours", "the paper's values fit ours (7 of 7
    comparisons)", "the paper's value does not fit ours: the paper's above ours (6 of 7 comparisons fit)"."""
    answer = magnitude(row)
    if not answer:
        return ""
    compared = int(row["published_compared"])
    counts = f" ({int(row['published_inside'])} of {compared} comparisons" + (")" if answer == INSIDE else " fit)")
    if answer == INSIDE:
        return ("the paper's values fit ours" + counts) if compared > 1 else "the paper's value fits ours"
    return answer.replace("outside: ", "the paper's value does not fit ours: ") + (counts if compared > 1 else "")


def _counts(claims: pd.DataFrame) -> tuple[int, int, int]:
    verdict = claims["verdict"]
    return int((verdict == "supported").sum()), int((verdict == "contradicted").sum()), int((verdict == "inconclusive").sum())


def against_the_text(claims: pd.DataFrame) -> pd.Series:
    """Which claims rest on a reading against a setting the text states (their `against_text`)."""
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
    against = against_the_text(judged)
    if (~against).any():
        return judged[~against], judged[against]
    return judged, judged.iloc[0:0]


def magnitude_counts(claims: pd.DataFrame) -> tuple[int, int]:
    """(the judged claims whose published values do not fit ours, those with one to compare)."""
    found = _magnitudes(claims)
    compared = found[found != ""]
    return int((compared != INSIDE).sum()), len(compared)


def magnitudes_text(claims: pd.DataFrame) -> str:
    """"the paper's values do not fit ours for 2 of 3 claims (a, b)", or "the paper's values fit ours
    (3 of 3 claims)", or "" where no claim has one to compare."""
    found = _magnitudes(claims)
    compared = found[found != ""]
    outside = compared[compared != INSIDE]
    if outside.empty:
        return f"the paper's values fit ours ({len(compared)} of {len(compared)} claims)" if len(compared) else ""
    names = ", ".join(claims.loc[outside.index, "claim"])
    return f"the paper's values do not fit ours for {len(outside)} of {len(compared)} claims ({names})"


def other_clock(claims: pd.DataFrame) -> pd.DataFrame:
    """The claims also decided at a second clock (their other_clock_verdict: campaign.with_other_clock)."""
    if "other_clock_verdict" not in claims:
        return claims.iloc[0:0]
    return claims[claims["other_clock_verdict"].fillna("").astype(str) != ""]


def clock_dependent(claims: pd.DataFrame) -> pd.DataFrame:
    """The claims decided one way at one clock and the other way at the other: supported at one,
    contradicted at the other (a claim decided at one clock and not at the other is not: its runs
    there are too few to say)."""
    both = other_clock(claims)
    if both.empty:
        return both
    return both[both["verdict"].isin(DECIDED) & both["other_clock_verdict"].isin(DECIDED)
                & (both["verdict"] != both["other_clock_verdict"])]


def other_clock_text(claims: pd.DataFrame) -> str:
    """"at the reference engine's clock too, which the baseline does not tell apart from t x R x rho
    (23-25 runs a column): 0 of 2 supported, 2 inconclusive; clock-dependent: none" ("" where no claim
    was decided there)."""
    both = other_clock(claims)
    if both.empty:
        return ""
    flipped = clock_dependent(claims)
    return (f"at a second clock too, which the baseline does not tell apart from the one the claims read "
            f"({other_clock_short(claims)}); clock-dependent (supported at one clock, contradicted at the "
            f"other): {', '.join(flipped['claim']) or 'none'}")


def other_clock_short(claims: pd.DataFrame) -> str:
    """"23-25 runs a column: 0 of 2 supported, 2 inconclusive": the claims' verdicts at the second clock."""
    both = other_clock(claims)
    runs = both["other_clock_runs"].astype(float)
    counted = f"{runs.min():.0f}" + (f"-{runs.max():.0f}" if runs.max() > runs.min() else "")
    return f"{counted} runs a column: {verdicts_text(both.assign(verdict=both['other_clock_verdict']))}"


def others_text(others: dict) -> str:
    """"the other published columns fit at R x rho: 0 of 7" (naming those that fit); "at the reference
    clock" where they are read at the reference engine's (their fits' clock)."""
    fitting = [column for column, fit in others.items() if fit.fits]
    at = "the reference clock" if any(getattr(fit, "clock", "") for fit in others.values()) else "R x rho"
    return (f"the other published columns fit at {at}: {len(fitting)} of {len(others)}"
            + (f" ({', '.join(fitting)})" if fitting else ""))


def status_of(claims: pd.DataFrame, curve=None, runs: int | None = None,
              paper_runs: int | None = None, others: dict | None = None) -> tuple[str, str]:
    """The status of an item from its paper claims' rows (the module's rule) and its detail: what
    decided it. ``curve``: the published baseline's fit at the R the claims read, an
    analysis.claims.campaign_fit.CampaignFit (None: the item has no curve, or it is not
    measured); ``runs``, ``paper_runs``: runs per column, ours (the fewest) and the paper's;
    ``others``: each other published column's fit by the same test at its matched work (column -> fit)."""
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
    against = against_the_text(judged)
    supported, contradicted, _ = _counts(basis)
    sample = f"{runs} of the paper's {paper_runs} runs a column" if runs and paper_runs else ""
    full = bool(runs and paper_runs and runs >= paper_runs)
    unjudged = len(claims) - len(judged)
    found = _magnitudes(basis)
    excluded = bool(((found != "") & (found != INSIDE)).any())
    others = others or {}
    off = any(not fit.fits for fit in others.values())
    departs = f"on a reading against the text: {basis['against_text'].iloc[0]}" if len(apart) == 0 and against.all() else ""
    problems = [text for text in (
        magnitudes_text(basis) if excluded else "",
        curve.text() if curve is not None and not curve.fits else "",
        others_text(others) if off else "",
        departs,
    ) if text]
    facts = [verdicts_text(basis) + " (the directions)", magnitudes_text(basis),
             curve.text() if curve is not None else "",
             others_text(others) if others else "",
             other_clock_text(basis),
             departs,
             sample,
             f"{unjudged} of the item's {len(claims)} claims not judged (not run, or no run can test them)" if unjudged else "",
             (f"apart, on a reading against the text ({apart['against_text'].iloc[0]}): {verdicts_text(apart)}, "
              + (magnitudes_text(apart) or "no published effect to compare")) if len(apart) else ""]
    detail = "; ".join(fact for fact in facts if fact)
    if not clock_dependent(basis).empty:
        return "clock-dependent", detail
    if supported == len(basis) and not unjudged:
        if problems:
            return "qualitatively reproduced", detail
        return ("reproduced on a reading" if (basis["judged_on"] == ON_READING).any() else "reproduced"), detail
    if supported:
        return "partly reproduced", detail
    if contradicted or ((excluded or off) and full and curve is not None and curve.fits):
        return "not reproduced", detail
    return "inconclusive", detail
