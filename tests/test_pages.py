"""The committed results pages are what the committed archive and code make (analysis/claims/pages.py):
a remake from an empty store finds no difference but the pages' stamps."""

import pytest

from analysis.claims import pages


def test_a_stamp_is_the_one_line_a_remake_may_change():
    made = "Made 2026-12-02 00:57 UTC by `make claims BUDGET=0h SCALE=paper` (code b980348), 1 min of wall time. Which"
    again = "Made 2026-12-03 10:01 UTC by `make claims BUDGET=0h SCALE=paper` (code 0a1b2c3, local changes), 2 min of wall time. Which"
    assert pages.unstamped(made) == pages.unstamped(again)
    assert pages.unstamped("made at commit b980348f3bf1 by") == pages.unstamped("made at commit d3bc66fda86b by")
    assert pages.unstamped("19 of 120 cells") != pages.unstamped("20 of 120 cells")


def test_every_campaign_table_has_its_snapshot_among_the_pages():
    names = pages.pages()
    assert "reproduction.csv" in names and "claims_paper_decided.md" in names and "readings.md" in names
    assert {"stabilized_table4_paper.md", "selective_table6_paper.csv", "stabilized_table3_paper.md"} <= set(names)


@pytest.mark.slow  # about 4 minutes: the claims report, the readings, 8 snapshots, all from the archive
def test_the_committed_pages_are_what_the_committed_archive_makes(monkeypatch):
    monkeypatch.delenv("NRPA_ARCHIVE")  # the project's committed archive/, as `make results` reads it
    assert pages.main(["--check"]) == 0, "run `make results` and commit the pages"
