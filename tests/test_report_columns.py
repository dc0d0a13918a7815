"""The committed reports' columns are the documented ones (analysis/claims/report_columns.py), and the
reference page that documents them is the one its generator makes."""

import pandas as pd

from analysis.claims import report_columns
from analysis.site.docs_reference import claims_columns_page
from tests.conftest import PROJECT_ROOT

RESULTS = PROJECT_ROOT / "docs" / "results"


def test_the_claims_report_has_the_documented_columns():
    assert list(pd.read_csv(RESULTS / "claims_paper_decided.csv", nrows=1).columns) == list(report_columns.CLAIMS)


def test_the_reproduction_status_has_the_documented_columns():
    assert list(pd.read_csv(RESULTS / "reproduction.csv", nrows=1).columns) == list(report_columns.REPRODUCTION)


def test_the_columns_page_is_current():
    page = PROJECT_ROOT / "docs" / "reference" / "claims-columns.md"
    assert page.read_text() == claims_columns_page(), "run python -m analysis.site.docs_reference claims-columns"
