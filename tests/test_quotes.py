"""Every quote of the claim files is the paper's own words: a paraphrase cannot pass for a quote.

The papers' texts are not part of the project: this reads them as plain text (one file a paper,
named as in TEXT_OF) from the folder NRPA_PAPERS names, by default shared/papers beside the
checkout, and is skipped without them. A quote may cut the paper's text with "[...]": its pieces
must then appear in that order. The comparison ignores what a text extraction changes and a
reader does not see: spaces and line breaks, hyphens (a word split at a line end), typographic
quotes and ligatures (Unicode NFKC), and the extraction's markup of formulas and emphasis ($, *,
_ and the LaTeX names of Greek letters), so "δ = 3" matches "$\\delta = 3$" and "T0" matches "T\n0".
The published numbers a claim reads go in its source's `figures`, which is not a quote.
"""

import os
import re
import unicodedata
from pathlib import Path

import pytest

from analysis.claims.files import load_claims, load_not_tested
from tests.conftest import PROJECT_ROOT

PAPERS = Path(os.environ.get("NRPA_PAPERS", PROJECT_ROOT.parent / "shared" / "papers"))
# each claim file's paper; the observations quote any of the five, GNRPA's papers are not among them
TEXT_OF = {"selective": "nrpa_selective_policies_2016.txt", "stabilized": "stabilized_nrpa_2020.txt",
           "distributed": "distributed_nrpa_samegame_2017.txt", "morpion": "deep_rl_morpion_solitaire.txt",
           "morpion_neural": "deep_rl_morpion_solitaire.txt", "gelly": "parallelization_mc_planning_gelly_2008.txt"}
ANY_PAPER = {"observations"}
LATEX = {"delta": "δ", "alpha": "α", "infty": "∞", "times": "×", "leq": "≤", "geq": "≥", "pm": "±", "sigma": "σ"}

needs_papers = pytest.mark.skipif(not PAPERS.is_dir(), reason=f"the papers' texts are not in {PAPERS} (NRPA_PAPERS)")


def normalized(text: str) -> str:
    text = unicodedata.normalize("NFKC", text)
    text = text.translate(str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'}))
    for name, letter in LATEX.items():
        text = re.sub(r"\\" + name + r"(?![a-zA-Z])", letter, text)
    return re.sub(r"[\s$*_\-]", "", text)


def appears(quote: str, text: str) -> bool:
    """Whether ``quote``'s pieces (cut at "[...]") appear in ``text`` in that order."""
    position = 0
    for piece in quote.split("[...]"):
        found = text.find(normalized(piece), position)
        if found < 0:
            return False
        position = found + len(normalized(piece))
    return True


def test_the_normalisation_forgives_the_extraction_and_nothing_else():
    text = normalized("using  $\\delta = 3$  always gives better\nresults than the par-\nallelization T\n0 = 1")
    assert appears("using δ = 3 always gives better results", text)
    assert appears("using δ = 3 [...] than the parallelization T0 = 1", text)
    assert not appears("using δ = 4 always gives better results", text)  # a number changed
    assert not appears("than the parallelization [...] using δ = 3", text)  # pieces out of order
    assert not appears("using δ = 3 always gives much better results", text)  # a word added


def _sources():
    texts = {name: normalized((PAPERS / file).read_text()) for name, file in TEXT_OF.items()}
    sources = [(claim.file, claim.id, claim.quote) for claim in load_claims()]
    sources += [(sentence.file, f"not tested at {sentence.where}", sentence.quote) for sentence in load_not_tested()]
    return texts, sources


@needs_papers
def test_every_quote_of_the_claim_files_is_in_its_papers_text():
    texts, sources = _sources()
    checked, wrong = 0, []
    for file, name, quote in sources:
        if file in ANY_PAPER:
            candidates = list(texts.values())
        elif file in texts:
            candidates = [texts[file]]
        else:
            continue  # a paper whose text is not here
        checked += 1
        if not any(appears(quote, text) for text in candidates):
            wrong.append(f"{file}: {name}: {quote[:100]}")
    assert checked >= 50  # the files of the five papers hold most claims: none skipped by mistake
    assert not wrong, "not the paper's words:\n" + "\n".join(wrong)
