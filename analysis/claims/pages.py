"""Every committed results page, remade from the committed archive at the committed code, so that
none can go stale.

    python -m analysis.claims.pages            # remake docs/results/ and the README's summary (make results)
    python -m analysis.claims.pages --check    # remake into a temporary folder, exit 1 on any difference

The pages (PAGES): the claims report under a budget of 0 (claims_paper_decided), the status of
each published table and figure (reproduction), the readings' fit to the published baselines
(readings, readings_cells), each campaign time table's snapshot (<table>_paper), the C++ reference
engine beside ours for each table it has runs of (engines_<table>, from archive/reference/) and Morpion's
Table 2 under the two games its rows are judged on (morpion_table2_paper), each read from an empty
store, so from the archive alone (archive/); the README's summary between its markers. Their figures (.png, .pdf) are remade beside them but not compared: their bytes carry the
plotting library's version. A page's stamp (the date and commit it was made at, its wall time) is
the one line a remake may change. Remaking refuses a checkout with local changes outside the pages
themselves: the stamp must name a commit that holds the code and archive the page was made from.
About 4 minutes on 2 cores; tests/test_pages.py (slow) runs the check.
"""

from __future__ import annotations

import argparse
import difflib
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from nrpa.errors import InputError

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "docs" / "results"
# a page's stamp: the claims report's "Made <date> UTC by ... (code <commit>...), N min of wall time." and a
# snapshot's "made at commit <commit>"
STAMPS = (re.compile(r"Made \d{4}-\d\d-\d\d \d\d:\d\d UTC by .*?of wall time\."),
          re.compile(r"made at commit [0-9a-f]+"))


def pages() -> list[str]:
    """The compared pages' file names under docs/results/."""
    from analysis.claims.campaign_fit import tables
    from analysis.claims.engines import tables as engines_tables

    from experiments.paper_campaign import table_experiment
    from experiments.reference_runs import FOLDER

    return [*(f"engines_{name}{suffix}" for name in engines_tables()
              for suffix in (".md", ".csv", "_clocks.csv", "_gains.csv")),
            *(f"engines_{name}_also.csv" for name in engines_tables()
              if table_experiment(name).same_search_also or list(FOLDER.glob(f"*/{name}.jsonl"))),
            *(["engines_clocks.md"] if engines_tables() else []),
            "claims_paper_decided.md", "claims_paper_decided.csv", "reproduction.md", "reproduction.csv",
            "readings.md", "readings.csv", "readings_cells.csv",
            *(f"{name}_paper.{suffix}" for name in (*tables(), "morpion_table2") for suffix in ("md", "csv"))]


def remake(into: Path) -> Path:
    """Every page into ``into`` (the figures too), read from an empty store; the README's summary
    block is returned in ``into``/README-block.md."""
    import pandas as pd

    from analysis.claims import campaign, engines_page, readings, reproduction, snapshot
    from analysis.claims.campaign_fit import tables
    from analysis.results import report

    into.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="pages-store-") as store:
        store_override = f"outputs_dir={store}"
        if campaign.main(["scale=paper", store_override, "--budget", "0", "--yes"]):
            raise SystemExit("the claims report failed (above)")
        for made in (Path(store) / "claims").iterdir():
            if made.name.startswith(("claims_paper_decided.", "reproduction.")):
                shutil.copy2(made, into / made.name)
        for name in tables():
            snapshot.write(name, into, overrides=[store_override])
        for name in engines_page.tables():  # the reference engine beside ours (archive/reference/)
            engines_page.write(name, into, overrides=[store_override])
        if engines_page.tables():
            engines_page.summary(into)
        readings.write("paper", into, [store_override], clocks=engines_page.clock_sections(into, heading="###"))
        # Morpion's Table 2 under the two games its rows are judged on, as `make morpion-table2` writes it
        if report.main(["experiment=morpion_table2", "scale=paper", "morpion_rules=standard,one_sided", store_override]):
            raise SystemExit("Morpion's Table 2 failed (above)")
        for made in (Path(store) / "tables" / "morpion_table2_paper.md", Path(store) / "tables" / "morpion_table2_paper.csv",
                     Path(store) / "figures" / "morpion_table2_paper.png"):
            shutil.copy2(made, into / made.name)
    table = pd.read_csv(into / "reproduction.csv", keep_default_na=False, na_values=[""])
    claims = pd.read_csv(into / "claims_paper_decided.csv", keep_default_na=False, na_values=[""])
    (into / "README-block.md").write_text(reproduction.readme_block(table, claims) + "\n")
    return into


def unstamped(text: str) -> list[str]:
    for stamp in STAMPS:
        text = stamp.sub("<stamp>", text)
    return text.splitlines()


def differences(made: Path) -> list[str]:
    """The unified diffs of every page of ``made`` against the committed one (stamps aside), and of the
    README's summary."""
    from analysis.claims.reproduction import MARKERS, README

    found = []
    for name in pages():
        committed = RESULTS / name
        old = unstamped(committed.read_text()) if committed.is_file() else []
        new = unstamped((made / name).read_text())
        found += list(difflib.unified_diff(old, new, f"docs/results/{name}", f"remade/{name}", lineterm="", n=0))
    readme = README.read_text()
    start, end = readme.find(MARKERS[0]), readme.find(MARKERS[1]) + len(MARKERS[1])
    block = (made / "README-block.md").read_text().rstrip("\n")
    found += list(difflib.unified_diff(readme[start:end].splitlines(), block.splitlines(), "README.md",
                                       "remade README summary", lineterm="", n=0))
    return found


def local_changes() -> list[str]:
    """Paths with local changes outside the pages (docs/results/, README.md)."""
    status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT, capture_output=True,
                            text=True, check=True).stdout.splitlines()
    return [line[3:] for line in status if not line[3:].startswith(("docs/results/", "README.md"))]


def main(argv: list[str] | None = None) -> int:
    from analysis.claims.reproduction import README, replace_readme_block
    from experiments.config import exit_on_input_error

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="remake into a temporary folder; exit 1 on any difference")
    arguments = parser.parse_args(argv)
    try:
        if arguments.check:
            with tempfile.TemporaryDirectory(prefix="pages-") as folder:
                found = differences(remake(Path(folder)))
            if found:
                print("\n".join(found[:200]))
                print(f"the committed results pages differ from a remake ({len(found)} diff lines): "
                      "run `make results` and commit", file=sys.stderr)
                return 1
            print("every committed results page is what the committed archive and code make")
            return 0
        changed = local_changes()
        if changed:
            raise InputError(f"local changes outside the pages ({', '.join(changed[:5])}): commit them first, so that "
                             "each page's stamp names the code it was made by")
        with tempfile.TemporaryDirectory(prefix="pages-") as folder:
            made = remake(Path(folder))
            for path in made.iterdir():
                if path.name != "README-block.md":
                    shutil.copy2(path, RESULTS / path.name)
            README.write_text(replace_readme_block(README.read_text(), (made / "README-block.md").read_text().rstrip("\n")))
        print(f"remade {RESULTS.relative_to(ROOT)}/ and the README's summary: commit them")
        return 0
    except InputError as error:
        exit_on_input_error(error)


if __name__ == "__main__":
    sys.exit(main())
