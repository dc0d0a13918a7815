"""The Makefile and the README as a new user reads them: `make help`, `make list`, and no path
of the machine they were written on."""

from __future__ import annotations

import re
import subprocess

from experiments.store import PROJECT_ROOT
from tests.conftest import cli, python

# a home or work folder of one machine (not /tmp/perf-<pid>.map, perf's own place on any machine)
MACHINE_PATH = re.compile(r"(?<![\w.])/(work|home|Users|root)/")


def test_no_machine_path_in_the_makefile_or_the_readme():
    for name in ("Makefile", "README.md"):
        text = (PROJECT_ROOT / name).read_text()
        found = [line for line in text.splitlines() if MACHINE_PATH.search(line)]
        assert found == [], f"{name}: {found}"


def makefile_words(variable: str) -> list[str]:
    """The words of ``VARIABLE := ...`` in the Makefile, continuation lines included."""
    text = (PROJECT_ROOT / "Makefile").read_text().replace("\\\n", " ")
    return re.search(rf"^{variable} :=(.*)$", text, re.MULTILINE).group(1).split()


def test_make_help_lines_are_short_and_say_the_defaults_once():
    shown = subprocess.run(["make", "--no-print-directory", "help"], cwd=PROJECT_ROOT, capture_output=True,
                           text=True)
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    assert [line for line in lines if len(line) >= 100] == []
    assert "SCALE: paper (the default" in shown.stdout and shown.stdout.count("SCALE=paper") <= 1
    targets = [line.split()[1] for line in lines if line.startswith("  make ")]
    for target in ["list", "claims", "stabilized-table4", "morpion-table1", "morpion-table3", "morpion-table4"]:
        assert target in targets


def test_make_list_names_every_experiment_target_of_the_makefile():
    listed = cli("-m", "experiments.catalog")
    assert listed.returncode == 0, listed.stderr
    named = re.findall(r"^make (\S+)   \(", listed.stdout, re.MULTILINE)
    expected = makefile_words("EXPERIMENTS") + ["morpion-table1", "morpion-table3", "morpion-table4"]
    assert sorted(named) == sorted(expected)
    assert "make table4 = make stabilized-table4\n" in listed.stdout
    assert "    Stabilized Nested Rollout Policy Adaptation (Cazenave, Sevestre, Toulemont, MCS@IJCAI 2020), " \
           "Table 4\n" in listed.stdout
    assert "make morpion-table4   (Morpion Table 4: Expert Iteration" in listed.stdout
    one = cli("-m", "experiments.catalog", "morpion-table3", "stabilized_table4")
    assert re.findall(r"^make (\S+)", one.stdout, re.MULTILINE) == ["morpion-table3", "stabilized-table4"]


def test_make_list_imports_no_numba_and_composes_nothing():
    """A fresh interpreter lists every experiment without numba (whose import, and the kernels
    that composing an experiment compiles, made the first listing take minutes) nor Hydra."""
    script = ("import runpy, sys; sys.argv = ['catalog']; runpy.run_module('experiments.catalog', run_name='__main__');"
              "print(sorted(m for m in ('numba', 'hydra', 'pandas', 'nrpa') if m in sys.modules))")
    done = python("-c", script, env={"PYTHONPATH": str(PROJECT_ROOT)})
    assert done.returncode == 0, done.stderr
    assert "make stabilized-table4   (" in done.stdout
    assert done.stdout.splitlines()[-1] == "[]"
