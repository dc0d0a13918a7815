"""`make list`: every experiment target of the Makefile with its paper and table, at once.

    python -m experiments.catalog [NAME ...]          (every experiment, or the ones named)
    python -m experiments.catalog --cost [NAME ...]   (make list COST=1: and the cost at each scale)

The listing reads only text: the Makefile (its targets, their `##` help and its NEURAL_TABLES)
and each conf/experiment/NAME.yaml's ``report`` section (title, paper, table), through
experiments/experiment_targets.py, which experiments/catalog_cost.py reads too. It imports no
numba, Hydra or pandas and composes nothing, so it answers in well under a second even from a
fresh clone. The cost at each scale needs every experiment composed job by job, as the sweep
would (a minute or two the first time): that is ``--cost`` (experiments/catalog_cost.py).
"""

from __future__ import annotations

import sys

from experiments.experiment_targets import entries, experiment_targets, make_targets, target_of


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
