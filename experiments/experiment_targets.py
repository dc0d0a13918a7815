"""The experiment targets, read from text: the Makefile (its targets, their `##` help and its
NEURAL_TABLES) and conf/experiment/NAME.yaml's ``report`` sections. No numba, Hydra or pandas
is imported here: `make list` (experiments/catalog.py) answers from a fresh clone in well under
a second, and the composition (experiments/experiment.py) and the costs
(experiments/catalog_cost.py) read the same names from here.
"""

from __future__ import annotations

import re
from pathlib import Path

from omegaconf import OmegaConf

PROJECT_ROOT = Path(__file__).resolve().parent.parent  # as experiments.store's (which imports numba)
MAKEFILE = PROJECT_ROOT / "Makefile"
EXPERIMENT_DIR = PROJECT_ROOT / "conf" / "experiment"
HELP_LINE = re.compile(r"^([a-zA-Z0-9_-]+):([^=#]*)## (.*)$", re.MULTILINE)  # target: prerequisites ## help


def experiment_names() -> list[str]:
    """Runnable experiments (files starting with _ hold settings shared by several)."""
    return sorted(p.stem for p in EXPERIMENT_DIR.glob("*.yaml") if not p.stem.startswith("_"))


def make_targets() -> dict[str, tuple[list[str], str]]:
    """Each Makefile target with a `##` help text: its prerequisites and that text."""
    return {name: (prerequisites.split(), text.strip())
            for name, prerequisites, text in HELP_LINE.findall(MAKEFILE.read_text())}


def neural_tables() -> list[str]:
    """The Makefile's NEURAL_TABLES: the Morpion paper's neural tables, run by analysis/results/neural.py."""
    found = re.search(r"^NEURAL_TABLES\s*:?=(.*)$", MAKEFILE.read_text(), re.MULTILINE)
    return found.group(1).split() if found else []


def target_of(name: str) -> str:
    """An experiment's make target: conf/experiment/stabilized_table4.yaml is `make stabilized-table4`."""
    return name.replace("_", "-")


def experiment_targets() -> list[str]:
    """Every experiment target, a conf/experiment file's or one of the Makefile's NEURAL_TABLES,
    in the order of their names (a paper's tables together)."""
    return sorted([target_of(name) for name in experiment_names()] + neural_tables())


def entries(targets: list[str]) -> list[tuple[str, str, str]]:
    """(make target, title, where it comes from) of each of ``targets``."""
    helps = make_targets()
    rows = []
    for target in targets:
        path = EXPERIMENT_DIR / f"{target.replace('-', '_')}.yaml"
        if path.is_file():
            report = OmegaConf.load(path).report
            rows.append((target, report.title, f"{report.get('paper', '?')}, {report.get('table', '?')}"))
        else:  # a neural table: its Makefile help, and the step that makes it
            text = helps.get(target, ([], target))[1]
            rows.append((target, text, f"python -m analysis.results.neural {neural_step(target)}"))
    return rows


def neural_step(target: str) -> str:
    """The step of analysis/results/neural.py a neural table's target runs: morpion-table1 runs table1."""
    return target.rsplit("-", 1)[-1]
