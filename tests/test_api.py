"""The Python API (analysis/api.py) as its how-to shows it: docs/howto/notebook.md's examples are
run here as written, with the store moved to a temporary folder, so that the page cannot drift
from the code; and the command lines the page says are the same runs find them in that store."""

from __future__ import annotations

import re
import shlex
from functools import partial

import pytest

from analysis import api
from experiments.runs import verify_record
from experiments.store import PROJECT_ROOT
from nrpa.errors import InputError
from tests.conftest import cli

PAGE = PROJECT_ROOT / "docs" / "howto" / "notebook.md"
BLOCK = re.compile(r"^```(\w*)\n(.*?)^```", re.MULTILINE | re.DOTALL)
TABLE4_COLUMNS = {"NRPA", "SNRPA(2)", "SNRPA(3)", "SNRPA(4)", "SNRPA(5)", "SNRPA(6)", "SNRPA(7)", "SNRPA(10)"}


def blocks(language: str) -> list[str]:
    return [code for fence, code in BLOCK.findall(PAGE.read_text()) if fence == language]


def page_commands() -> list[list[str]]:
    """The page's `run.py` command lines, as words after `run.py`."""
    return [shlex.split(line)[2:] for block in blocks("") for line in block.splitlines()
            if line.startswith(".venv/bin/python run.py")]


@pytest.fixture(scope="module")
def examples(tmp_path_factory):
    """The page's Python blocks run in order in one namespace, search and compare writing under a
    temporary outputs_dir (the blocks import them from analysis.api, where they are replaced)."""
    outputs = tmp_path_factory.mktemp("outputs")
    namespace: dict = {}
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("NRPA_ARCHIVE", "none")  # runs made here, not found in the committed archive
        patch.setattr(api, "search", partial(api.search, outputs_dir=str(outputs)))
        patch.setattr(api, "compare", partial(api.compare, outputs_dir=str(outputs)))
        for code in blocks("python"):
            exec(compile(code, str(PAGE), "exec"), namespace)  # noqa: S102: the page's own examples
    return outputs, namespace


def test_the_page_shows_a_search_and_a_comparison_and_their_command_lines():
    assert len(blocks("python")) == 2
    commands = page_commands()
    assert len(commands) == 2 and commands[1][0] == "-m"


@pytest.mark.slow  # end to end, over 10 s
def test_the_search_is_the_run_its_command_line_makes(examples):
    outputs, namespace = examples
    run = namespace["run"]
    assert run.playouts == 2000 and run.path.is_relative_to(outputs)
    assert verify_record(run.record)[0] is True  # its certificate replays to its best score
    assert run.best_score == run.record["certificate"]["score"]
    done = cli("run.py", *page_commands()[0], f"outputs_dir={outputs}")
    assert done.returncode == 0, done.stderr
    assert f"best score {run.best_score:g} " in done.stdout
    assert f"run file: {run.path} (0 run(s) made, 1 already in the store)" in done.stdout


@pytest.mark.slow  # end to end, over 10 s
def test_the_comparison_is_a_row_per_column_axis_and_checkpoint_beside_the_paper(examples):
    outputs, namespace = examples
    table = namespace["table"]
    assert {"variant", "axis", "checkpoint", "runs", "mean", "ci_low", "ci_high", "published"} <= set(table.columns)
    assert set(table["variant"]) == {"SNRPA(4) domain.policy=tabu", "SNRPA(4) domain.policy=none"} | TABLE4_COLUMNS
    assert not table.duplicated(["variant", "axis", "checkpoint"]).any()
    timed = table[table["axis"] == "cpu_seconds"]
    assert sorted(set(timed["checkpoint"])) == [0.01, 0.02, 0.04, 0.08]  # smoke: 0.01 s and doublings to 0.08 s
    assert len(timed) == 10 * 4 and (table["runs"] == 2).all()
    published = timed.set_index("variant")["published"]
    assert published[list(TABLE4_COLUMNS)].notna().all() and published[["SNRPA(4) domain.policy=tabu"]].isna().all()
    assert namespace["means"].shape == (4, 10)
    assert all(path.is_relative_to(outputs / "sweeps") for path in table.attrs["files"])


@pytest.mark.slow  # end to end, over 10 s
def test_the_comparison_is_the_sweep_its_command_line_makes(examples):
    outputs, _ = examples
    done = cli("run.py", *page_commands()[1], f"outputs_dir={outputs}")
    assert done.returncode == 0, done.stderr
    assert "0 run(s) made, 20 already in the store" in done.stdout


def test_bad_options_get_the_command_line_s_message(tmp_path):
    with pytest.raises(InputError, match="unknown option 'levle': did you mean level"):
        api.search(levle=2, outputs_dir=str(tmp_path))
    with pytest.raises(InputError, match="P=2,3 sweeps several values: use compare"):
        api.search("P=2,3", algo="snrpa", outputs_dir=str(tmp_path))
    with pytest.raises(InputError, match="a list of key=value strings"):
        api.compare("algo=snrpa P=4", outputs_dir=tmp_path)
    with pytest.raises(InputError, match="against=stabilised_table4 is not an experiment: did you mean stabilized_table4"):
        api.compare(["algo=snrpa"], against="stabilised_table4", outputs_dir=tmp_path)


def test_a_comparison_over_an_hour_needs_yes(tmp_path, monkeypatch):
    monkeypatch.setenv("NRPA_ARCHIVE", "none")
    with pytest.raises(InputError, match=r"take about .* h on this machine: compare\(\.\.\., yes=True\)"):
        api.compare(["experiment=stabilized_table4", "backend.n_jobs=1", "matched_work=false"], scale="paper",
                    outputs_dir=tmp_path)  # one worker, equal CPU: over an hour on any machine
    # at paper scale a time table's column runs matched time, budgets in playouts: no time to tell yet
    with pytest.raises(InputError, match=r"the time of these 1600 runs cannot be told .* compare\(\.\.\., yes=True\)"):
        api.compare(["algo=snrpa", "P=4", "backend.n_jobs=1"], against="stabilized_table4", scale="paper",
                    outputs_dir=tmp_path)
    assert not (tmp_path / "runs").exists()  # refused before any run
