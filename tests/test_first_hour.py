"""The rough edges a newcomer meets in the first hour: what a command says must exist
and be what they can type."""

import re
from pathlib import Path

import yaml

from experiments import valid_runs
from experiments.config import INTERNAL_KEYS
from experiments.experiment import load_experiment
from experiments.sweep import load_sweep
from tests.conftest import cli

ROOT = Path(__file__).resolve().parents[1]


def test_an_unknown_option_is_answered_with_the_options_a_user_sets_only():
    done = cli("run.py", "levle=3")
    assert done.returncode == 2 and "did you mean level?" in done.stderr
    offered = done.stderr.split("(valid are ", 1)[1]
    assert "matched_work" in offered and not [key for key in INTERNAL_KEYS if re.search(rf"\b{key}\b", offered)]


def test_against_an_unknown_experiment_names_the_experiments():
    done = cli("run.py", "-m", "P=2,3", "against=stabilized_table5")
    assert done.returncode == 2
    assert "against=stabilized_table5 is not an experiment: did you mean stabilized_table4" in done.stderr
    assert "experiment=" not in done.stderr


def test_a_sweeps_command_is_the_one_that_makes_it():
    sweep = load_sweep(["algo=snrpa", "P=8,12", "scale=smoke"], "stabilized_table4")
    assert sweep.make_command == "python run.py -m algo=snrpa P=8,12 scale=smoke against=stabilized_table4"
    assert load_experiment(["experiment=stabilized_table4", "scale=quick"]).make_command == \
        "make stabilized-table4 SCALE=quick"
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"^stabilized-table4:", makefile, re.MULTILINE)


def test_make_docs_says_where_the_site_is():
    site = yaml.safe_load((ROOT / "mkdocs.yml").read_text())["site_dir"]
    recipe = re.search(r"^docs:.*\n((?:\t.*\n)+)", (ROOT / "Makefile").read_text(), re.MULTILINE).group(1)
    assert f"{site}/index.html" in recipe and "echo" in recipe


def test_starved_archived_runs_are_said_in_one_line_at_the_end(monkeypatch, capsys):
    monkeypatch.setattr(valid_runs, "_SAID_STARVED", {"aaaa": "2.0 of 4 cores", "bbbb": "1.5 of 4 cores"})
    valid_runs._say_starved_archived()
    lines = capsys.readouterr().err.splitlines()
    assert lines == ["2 starved archived runs not used (e.g. aaaa: 2.0 of 4 cores); a command that makes their "
                     "columns' runs makes them again"]
