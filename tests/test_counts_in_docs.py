"""One count everywhere: the verdict counts the claims tutorial prints are those of
the committed claims report (docs/results/claims_paper_decided.csv, which `make claims BUDGET=0
SCALE=paper` remakes), and the number of sentences the README and the tutorial say are not tested is the claim files'."""

import re

import pandas as pd
import pytest

from analysis.claims.files import load_not_tested
from analysis.claims.judging import JUDGED
from analysis.claims.decide import headline_rows
from tests.conftest import PROJECT_ROOT

REPORT = PROJECT_ROOT / "docs" / "results" / "claims_paper_decided.csv"
DOCS = [PROJECT_ROOT / "README.md", PROJECT_ROOT / "docs" / "tutorials" / "claims.md"]


def test_every_claim_is_counted_once_in_the_headline():
    table = pd.read_csv(REPORT, keep_default_na=False, na_values=[""])
    for line in headline_rows(table)[2:]:
        cells = [int(cell) for cell in line.strip("|").split("|")[1:]]
        assert sum(cells[1:]) == cells[0], line
    assert not table["verdict"].isin(["unstated", "unstated setting", "not judged at the paper's settings"]).any()
    assert set(table["verdict"]) <= {*JUDGED, "not run", "not judged"}


@pytest.mark.parametrize("path", DOCS[1:], ids=lambda path: path.name)  # the README leads with the statuses instead
def test_the_docs_print_the_committed_reports_counts(path):
    table = pd.read_csv(REPORT, keep_default_na=False, na_values=[""])
    assert "\n".join(headline_rows(table)) in path.read_text(), "copy the headline of the committed claims report"


@pytest.mark.parametrize("path", DOCS, ids=lambda path: path.name)
def test_the_docs_say_how_many_sentences_are_not_tested(path):
    said = re.search(r"(\d+)\s+comparative\s+sentences\s+no\s+claim\s+tests", path.read_text())
    assert said, f"{path.name} does not say how many sentences no claim tests"
    assert int(said.group(1)) == len(load_not_tested())
