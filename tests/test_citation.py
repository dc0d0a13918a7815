"""CITATION.cff kept true: a CFF 1.2.0 file whose license is the one pyproject.toml and LICENSE
declare, and whose references are the five papers the harness reproduces, each title spelled as
the project's own readings, claim files or experiments name it (a renamed or invented title fails).
The schema itself is checked by `cffconvert --validate` (not a dependency: docs/notes/requirements.md)."""

from __future__ import annotations

import re

import yaml

from experiments.store import PROJECT_ROOT

DOI = re.compile(r"^10\.\d{4,9}/\S+$")


def citation() -> dict:
    return yaml.safe_load((PROJECT_ROOT / "CITATION.cff").read_text())


def squeezed(text: str) -> str:
    """Lower case, one space between words: a title wrapped over two lines still matches."""
    return " ".join(text.lower().split())


def project_texts() -> str:
    """Where the project names the papers: the readings of their text, the claim files and the
    experiments' report.paper."""
    paths = [PROJECT_ROOT / "docs" / "readings.md", *sorted((PROJECT_ROOT / "analysis" / "claims").glob("*.yaml")),
             *sorted((PROJECT_ROOT / "conf" / "experiment").glob("*.yaml"))]
    return squeezed("\n".join(path.read_text() for path in paths))


def test_the_citation_file_is_cff_1_2_0_with_its_required_keys():
    cff = citation()
    assert cff["cff-version"] == "1.2.0"
    assert cff["message"] and cff["title"]
    assert cff["authors"] == [{"name": "The NRPA harness authors"}]


def test_the_citation_license_is_the_one_pyproject_and_license_declare():
    # read with a pattern, not tomllib: Python 3.10, which the project supports, lacks tomllib
    declared = re.search(r'^license = "(.+)"$', (PROJECT_ROOT / "pyproject.toml").read_text(), re.MULTILINE).group(1)
    assert citation()["license"] == declared == "BSD-3-Clause"
    assert (PROJECT_ROOT / "LICENSE").read_text().startswith("BSD 3-Clause License")


def test_the_references_are_the_five_papers_the_project_names():
    references = citation()["references"]
    assert len(references) == 5
    texts = project_texts()
    for reference in references:
        assert reference["type"] in ("conference-paper", "article"), reference["title"]
        assert reference["authors"] and all(a.get("family-names") for a in reference["authors"]), reference["title"]
        assert squeezed(reference["title"]) in texts, f"{reference['title']!r} is named nowhere in the project"
        if "doi" in reference:
            assert DOI.match(reference["doi"]), reference["doi"]
    assert len({squeezed(r["title"]) for r in references}) == 5
