"""`make list COST=1` (experiments.catalog --cost, which caches the composed experiments) and
`python run.py --help` (config groups: only what a user can choose). `make list` itself:
tests/test_make.py."""

from __future__ import annotations

import re

from experiments.catalog_cost import SCALES
from experiments.estimate import cost
from experiments.experiment import load_experiment
from tests.conftest import cli


def test_catalog_counts_are_those_of_the_composed_sweep():
    name = "stabilized_table4"
    expected = []
    for scale in SCALES:
        experiment = load_experiment([f"experiment={name}", f"scale={scale}"])
        runs, to_make, _, _ = cost(experiment)
        expected.append(f"SCALE={scale:<6} {len(experiment.variants)} jobs, {runs} runs ({runs - to_make} done): ")
    for _ in range(2):  # the first listing may compose (no cache yet for this code), the second reads the cache
        listed = cli("-m", "experiments.catalog", "--cost", name)
        assert listed.returncode == 0, listed.stderr
        assert listed.stdout.startswith(f"make stabilized-table4   ({experiment.title})\n")
        for line in expected:
            assert line in listed.stdout
    assert "SCALE=paper  8 jobs, 1600 runs" in listed.stdout  # P = 1, 2, 3, 4, 5, 6, 7, 10; 200 runs each


def test_catalog_refuses_an_unknown_experiment():
    for cost in ([], ["--cost"]):
        listed = cli("-m", "experiments.catalog", *cost, "no_such_table")
        assert listed.returncode == 2
        assert "no_such_table" in listed.stderr


def test_help_lists_only_what_a_user_can_choose():
    shown = cli("run.py", "--help")
    assert shown.returncode == 0, shown.stderr
    assert "_schema" not in shown.stdout
    assert "_distributed" not in shown.stdout and "_samegame_20_boards" not in shown.stdout
    groups = dict(re.findall(r"^(\w+): (.+)$", shown.stdout.split("== Config ==")[0], re.MULTILINE))
    assert set(groups) == {"algo", "backend", "domain", "experiment", "morpion_rules", "playout", "scale", "strategy",
                           "variant"}
    assert set(groups["morpion_rules"].split(", ")) == {"standard", "span6", "one_sided"}
    assert {"nrpa", "gnrpa_tabu", "beam"} <= set(groups["variant"].split(", "))
    assert {"samegame", "tsptw", "weakschur"} <= set(groups["domain"].split(", "))
    assert {"stabilized_table4", "distributed_fig3", "speedup"} <= set(groups["experiment"].split(", "))
    assert "== Config ==" in shown.stdout and "outputs_dir:" in shown.stdout
