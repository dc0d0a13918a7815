"""`make list`: every experiment target of the Makefile with its paper and table, at once.

    python -m experiments.catalog [NAME ...]          (every experiment, or the ones named)
    python -m experiments.catalog --cost [NAME ...]   (make list COST=1: and the cost at each scale)

The listing reads only text: the Makefile (its targets, their `##` help and its NEURAL_TABLES)
and each conf/experiment/NAME.yaml's ``report`` section (title, paper, table). It imports no
numba, Hydra or pandas and composes nothing, so it answers in well under a second even from a
fresh clone. The cost at each scale needs every experiment composed job by job, as the sweep
would (a minute or two the first time): that is ``--cost`` (experiments/catalog_cost.py).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from omegaconf import OmegaConf

PROJECT_ROOT = Path(__file__).resolve().parent.parent  # as experiments.store's (which imports numba)
MAKEFILE = PROJECT_ROOT / "Makefile"
EXPERIMENT_DIR = PROJECT_ROOT / "conf" / "experiment"
_HELP_LINE = re.compile(r"^([a-zA-Z0-9_-]+):([^=#]*)## (.*)$", re.MULTILINE)  # target: prerequisites ## help


def experiment_names() -> list[str]:
    """Runnable experiments (files starting with _ hold settings shared by several)."""
    return sorted(p.stem for p in EXPERIMENT_DIR.glob("*.yaml") if not p.stem.startswith("_"))


def make_targets() -> dict[str, tuple[list[str], str]]:
    """Each Makefile target with a `##` help text: its prerequisites and that text."""
    return {name: (prerequisites.split(), text.strip())
            for name, prerequisites, text in _HELP_LINE.findall(MAKEFILE.read_text())}


def neural_tables() -> list[str]:
    """The Makefile's NEURAL_TABLES: the Morpion paper's neural tables, run by experiments/neural.py."""
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
            rows.append((target, text, f"python -m experiments.neural {neural_step(target)}"))
    return rows


def neural_step(target: str) -> str:
    """The step of experiments/neural.py a neural table's target runs: morpion-table1 runs table1."""
    return target.rsplit("-", 1)[-1]


def aliases(listed: list[str]) -> list[tuple[str, list[str]]]:
    """The Makefile targets that only run experiment targets (table4, family)."""
    return [(name, prerequisites) for name, (prerequisites, _) in make_targets().items()
            if prerequisites and set(prerequisites) <= set(listed)]


def listing(targets: list[str], everything: bool = True) -> str:
    lines = []
    for target, title, source in entries(targets):
        lines += [f"make {target}   ({title})", f"    {source}", ""]
    if everything:
        lines += [f"make {name} = make {' '.join(prerequisites)}" for name, prerequisites in aliases(targets)]
        lines += ["",
                  "Each takes SCALE=paper (the default), quick or smoke, and prints its cost before it starts.",
                  "The cost of each at each scale: make list COST=1 (composes every experiment: a minute",
                  "or two the first time). The other targets (install, test, claims, export, site, ...): make help."]
    return "\n".join(lines).rstrip() + "\n"


def main(argv: list[str]) -> None:
    """List the experiment targets ``argv`` names (conf names or targets: stabilized_table4 or
    stabilized-table4), every one without; ``--cost``: with their cost at each scale."""
    names = [argument for argument in argv if argument != "--cost"]
    known = experiment_targets()
    unknown = [name for name in names if target_of(name) not in known]
    targets = [target_of(name) for name in names] or known
    if unknown or "--cost" in argv:
        # only now: nrpa (InputError's package) and the composition import numba and Hydra
        from experiments.config import exit_on_input_error
        from nrpa.errors import InputError, did_you_mean

        try:
            if unknown:
                raise InputError(f"no experiment {', '.join(unknown)}: "
                                 + did_you_mean(target_of(unknown[0]), known, "choose among"))
            from experiments import catalog_cost

            catalog_cost.main(targets)
        except InputError as error:
            exit_on_input_error(error)
    else:
        print(listing(targets, everything=not names), end="")


if __name__ == "__main__":
    main(sys.argv[1:])
