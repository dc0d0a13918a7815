"""One count everywhere: the verdict counts the README and the claims tutorial print are those of
the committed claims report (docs/results/claims_paper_decided.csv, which `make claims BUDGET=0
SCALE=paper` remakes), and the number of sentences they say are not tested is the claim files'."""

import re

import pandas as pd
import pytest

from analysis.claims import JUDGED, WHY, load_not_tested
from tests.conftest import PROJECT_ROOT

REPORT = PROJECT_ROOT / "docs" / "results" / "claims_paper_decided.csv"
DOCS = [PROJECT_ROOT / "README.md", PROJECT_ROOT / "docs" / "tutorials" / "claims.md"]


def report_counts() -> dict[str, list[int]]:
    table = pd.read_csv(REPORT)
    counts = {}
    for kind, rows in table.groupby("kind"):
        judged = [int((rows["verdict"] == verdict).sum()) for verdict in JUDGED]
        unjudged = rows[~rows["verdict"].isin(JUDGED)]
        counts[kind] = [len(rows), *judged, *[int((unjudged["why"] == why).sum()) for why in WHY]]
    return counts


def printed_counts(path) -> dict[str, list[int]]:
    rows = re.findall(r"^\| (paper|transfer|observation) \|((?: \d+ \|)+)$", path.read_text(), flags=re.M)
    return {kind: [int(n) for n in cells.replace("|", " ").split()] for kind, cells in rows}


@pytest.mark.parametrize("path", DOCS, ids=lambda path: path.name)
def test_the_docs_print_the_committed_reports_counts(path):
    counts = report_counts()
    assert set(counts) == {"paper", "transfer", "observation"}
    assert sum(sum(row[1:]) == row[0] for row in counts.values()) == 3  # every claim counted once
    assert printed_counts(path) == counts


@pytest.mark.parametrize("path", DOCS, ids=lambda path: path.name)
def test_the_docs_say_how_many_sentences_are_not_tested(path):
    said = re.search(r"(\d+)\s+comparative\s+sentences\s+no\s+claim\s+tests", path.read_text())
    assert said, f"{path.name} does not say how many sentences no claim tests"
    assert int(said.group(1)) == len(load_not_tested())
