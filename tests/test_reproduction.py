"""The status of a published table or figure (analysis/claims/reproduction.py): the rule on made-up
claims, and the README's summary held to the committed reproduction.csv."""

import json
import math

import pandas as pd
import pytest

from analysis.claims.judging import READING_REJECTED
from analysis.claims.reproduction import ITEMS, README, claims_of, cost_of, readme_block, reproduction_table
from analysis.claims.status import STATUSES
from tests.conftest import PROJECT_ROOT

STATED, READING = "the stated settings", "a named reading"


def claims(*rows) -> pd.DataFrame:
    """Made-up paper claims: (verdict, judged_on, why)."""
    return pd.DataFrame([{"kind": "paper", "paper": "P (A 2020)", "source": "Section 1, Table 1: \"...\"",
                          "claim": f"c{i}", "verdict": verdict, "judged_on": on, "why": why,
                          "paper_cost": "a machine with 160 cores (this one has 2); ~1.0 CPU-h" if why == "needs hardware"
                          else "~1.0 CPU-h: `make it`", "paper_cost_parts": json.dumps({f"e: c{i}": 3600.0}),
                          "published": math.nan, "effect": 1.0, "effect_low": 0.5, "effect_high": 1.5, "unit": "score",
                          "paper_settings": "runs 200", "reading": ""}
                         for i, (verdict, on, why) in enumerate(rows)])


def test_a_claim_counts_for_every_item_its_source_names():
    table = claims(("supported", STATED, "")).assign(source="Section 4, Figure 6, Table 4: \"...\"")
    for name in ("Figure 6", "Table 4"):
        assert len(claims_of("P", name, table)) == 1
    assert claims_of("P", "Table 1", table).empty  # "Table 4" is not "Table 1"
    assert claims_of("Q", "Table 4", table).empty  # another paper's Table 4


def test_a_cost_shared_by_claims_is_counted_once():
    table = claims(("not run", "", "needs compute"), ("not run", "", "needs compute"))
    table["paper_cost_parts"] = json.dumps({"e: shared": 7200.0})
    assert cost_of(table) == 2.0


def test_every_item_gets_one_status_and_a_not_run_one_its_cost():
    table = claims(("supported", STATED, ""))  # none of the 22 items' papers: every item unclaimed
    result = reproduction_table(table, "paper", cells=lambda item, scale, overrides: None, curves=lambda item: None)
    assert len(result) == len(ITEMS) == 22
    assert set(result["status"]) == {"not run: needs compute"}


def test_the_committed_status_covers_the_22_items_with_a_status_each():
    committed = pd.read_csv(PROJECT_ROOT / "docs" / "results" / "reproduction.csv")
    assert len(committed) == 22
    assert committed["status"].isin(STATUSES).all()
    compute = committed[committed["status"] == "not run: needs compute"]
    assert compute["cpu_hours_to_run"].notna().all() and compute["command"].str.len().gt(0).all()


def test_the_readme_leads_with_the_committed_status():
    committed = pd.read_csv(PROJECT_ROOT / "docs" / "results" / "reproduction.csv", keep_default_na=False,
                            na_values=[""])
    claims = pd.read_csv(PROJECT_ROOT / "docs" / "results" / "claims_paper_decided.csv", keep_default_na=False,
                         na_values=[""])
    text = README.read_text()
    block = readme_block(committed, claims)
    assert block in text, "run python -m analysis.claims.reproduction scale=paper --readme"
    assert text.index(block) + len(block) <= len("\n".join(text.splitlines()[:40])), "within the first 40 lines"
    for paper in [*committed["paper"].unique(), "Gelly et al. 2008"]:  # the five papers
        assert paper in block


def test_the_papers_runs_per_column_come_from_its_claims_settings():
    from analysis.claims.reproduction import paper_runs

    table = claims(("supported", STATED, ""), ("supported", STATED, ""), ("supported", STATED, ""))
    table["paper_settings"] = ["seconds 163.84, runs 200", "level 1, rules 5D, runs 100000", "level 4, longer runs 7"]
    assert paper_runs(table) == "200, 100000"  # "longer runs 7" is no count
    assert paper_runs(table.assign(paper_settings="")) == "-"


def test_the_readmes_qualifier_reads_the_claims_the_status_reads():
    """A Morpion-like item: the stated row contradicted, three rows on a reading against the text apart."""
    from analysis.claims.reproduction import in_short

    table = claims(("contradicted", STATED, ""), ("supported", READING, ""), ("supported", READING, ""),
                   ("contradicted", READING, "")).assign(test="compare", against_text=["", "x", "x", "x"],
                                                         published_inside=[0, 1, 1, 1], published_compared=1,
                                                         published_z=[-8.0, 0.0, 0.0, 0.0])
    unjudged = claims(("not run", "", "needs compute"))
    assert in_short("not reproduced", pd.concat([table, unjudged]), None, {}, "", full=False) == (
        " (4 of its 5 claims judged; 1 of 1 claims contradicted; the paper's values not ours for 1 of 1 claims; "
        "3 claims on a reading against the text apart)")
    assert in_short("inconclusive", table.iloc[:1].assign(verdict="inconclusive"), None, {}, "122 of the paper's 200",
                    full=False) == " (122 of the paper's 200 runs)"  # its magnitudes are in its row
    partly = table.iloc[:2].assign(against_text="", verdict=["inconclusive", "supported"])
    assert in_short("partly reproduced", partly, None, {}, "200 of the paper's 200", full=True) == (
        " (1 of 2 directions hold; c0 inconclusive; the paper's values not ours for 1 of 2 claims)")
    inconclusive = table.iloc[:2].assign(against_text="", verdict="inconclusive")
    assert in_short("not reproduced", inconclusive, None, {}, "200 of the paper's 200", full=True).startswith(
        " (its directions inconclusive;")


def test_a_time_tables_status_reads_its_baseline_fit():
    """The same supported claims: reproduced where the baseline fits at R, qualitatively where it does not."""
    from analysis.claims.campaign_fit import CampaignFit

    table = claims(("supported", STATED, ""), ("supported", STATED, "")).assign(
        paper="NRPA with Selective Policies (Cazenave, CGW 2016)", source="Section 4.2, Table 3: \"...\"")
    for fit, status in ((CampaignFit(1100, 1100, 14, 2.0, 2.5, 2.91, runs=200), "reproduced"),
                        (CampaignFit(1100, 1100, 14, 10.8, 6.6, 2.91, runs=200), "qualitatively reproduced")):
        result = reproduction_table(table, "paper", cells=lambda item, scale, overrides: None,
                                    curves=lambda item, fit=fit: (fit, {}) if item.item == "Table 3" else None)
        row = result[(result["paper"] == "NRPA with Selective Policies") & (result["item"] == "Table 3")].iloc[0]
        assert row["status"] == status
        assert row["baseline_fits"] == ("yes" if fit.fits else "no")
