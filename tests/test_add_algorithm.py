"""An algorithm added exactly as docs/howto/add-algorithm.md says passes the fast suite: the
tests that depend on the list of algorithms (marked ``algorithms``) run, in a new pytest
process, with the throwaway algorithm of tests/throwaway_algorithm.py added as the guide says
(its kernel, its declaration, its conf/algo file, nothing else)."""

import re
import shutil
from pathlib import Path

import pytest

from experiments import experiment
from nrpa.domains.registry import KnapsackOptions, make_domain
from nrpa.search import ALGORITHMS, run_search
from tests import throwaway_algorithm
from tests.conftest import python
from tests.test_algorithm_contract import BUDGET, keeps_the_contract, settings_for

ROOT = Path(__file__).resolve().parent.parent


def marked_files() -> list[str]:
    """The test files holding tests marked ``algorithms``: found, not listed, so that a test
    marked later runs here too."""
    return sorted(path.relative_to(ROOT).as_posix() for path in (ROOT / "tests").glob("test_*.py")
                  if re.search(r"^@pytest\.mark\.algorithms$", path.read_text(), re.MULTILINE))


@pytest.mark.slow  # end to end, over 10 s
def test_an_algorithm_added_as_the_guide_says_passes_the_fast_suite():
    files = marked_files()
    assert {"tests/test_algorithm_contract.py", "tests/test_bad_input.py", "tests/test_run_ids.py"} <= set(files)
    done = python("-m", "pytest", "-p", "tests.throwaway_algorithm", "-m", "algorithms and not slow", "-rA",
                  "-p", "no:cacheprovider", *files, env={"PYTHONPATH": str(ROOT)}, timeout=900)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
    passed = [line.split(" ", 1)[1] for line in done.stdout.splitlines() if line.startswith("PASSED ")]
    # every file's marked tests ran, the contract on the throwaway among them, and only on it
    assert {name.split("::")[0] for name in passed} == set(files)
    contract = "tests/test_algorithm_contract.py::test_every_algorithm_keeps_the_contract_and_users_can_choose_it"
    assert [name for name in passed if name.startswith(contract)] == [f"{contract}[{throwaway_algorithm.NAME}]"]
    # the messages that list the algorithms, the throwaway among them
    assert "tests/test_bad_input.py::test_an_unknown_group_choice_lists_every_registered_one[algo=foo]" in passed


@pytest.fixture
def throwaway(tmp_path, monkeypatch):
    """The throwaway added in this process, its conf file in a copy of conf/."""
    shutil.copytree(experiment.CONFIG_DIR, tmp_path / "conf")
    monkeypatch.setattr(experiment, "CONFIG_DIR", tmp_path / "conf")
    yield throwaway_algorithm.add(tmp_path / "conf")
    del ALGORITHMS[throwaway_algorithm.NAME]


@pytest.mark.slow  # compiles the throwaway's own kernel, which no other fast test needs (the test above uses it)
def test_the_throwaway_is_a_search_of_its_own(throwaway):
    """Not a trivial stand-in: one uniform playout per top-level call, another seed another run."""
    adapter = make_domain(KnapsackOptions())
    run = keeps_the_contract(adapter, settings_for(throwaway.name))
    assert run.restarts == BUDGET - 1
    other_seed = run_search(adapter.kernel_domain(), settings_for(throwaway.name, "seed=4"))
    assert other_seed.trace.score != run.trace.score or other_seed.best_moves != run.best_moves
