"""`python run.py ...` as a user types it, and `python -m experiments.verify`."""

import json
import re
from pathlib import Path

import pytest

from tests.conftest import cli

ROOT = Path(__file__).resolve().parent.parent


def run(*arguments, outputs):
    return cli("run.py", *arguments, f"outputs_dir={outputs}")


def run_file_of(completed) -> Path:
    match = re.search(r"run file: (\S+)", completed.stdout)
    assert match, completed.stdout + completed.stderr
    return Path(match.group(1))


@pytest.mark.parametrize(
    "arguments, title",
    [
        (["domain=samegame", "domain.board=1", "algo=nrpa", "level=3", "N=100", "max_time=0.5"], "NRPA level 3"),
        (["algo=snrpa", "P=4", "level=2", "max_time=0.5"], "SNRPA(4) level 2"),
        # slow: compiles NMCS for SameGame, which no other fast test needs
        pytest.param(["algo=nmcs", "level=1", "max_time=0.5"], "NMCS level 1", marks=pytest.mark.slow),
    ],
)
def test_a_single_run_prints_its_best_score_and_writes_a_verifiable_run_file(tmp_outputs, arguments, title,
                                                                            monkeypatch):
    monkeypatch.chdir(ROOT / "tests")  # any working directory
    completed = run(*arguments, outputs=tmp_outputs)
    assert completed.returncode == 0, completed.stderr
    assert title in completed.stdout
    best = float(re.search(r"best score (\S+)", completed.stdout).group(1))
    path = run_file_of(completed)
    assert path.is_relative_to(tmp_outputs / "runs" / "samegame")
    record = json.loads(path.read_text())
    assert record["result"]["best_score"] == best == record["trace"]["score"][-1]
    assert record["code_version"]["source_hash"]
    assert (record["config"]["base_seed"], record["config"]["repeat"]) == (0, 0)
    assert record["seed"] == record["settings"]["seed"]
    verified = cli("-m", "experiments.verify", str(path))
    assert verified.returncode == 0 and "1 verified, 0 failed" in verified.stdout


def test_running_the_same_command_again_finds_the_stored_run(tmp_outputs):
    first = run("level=1", "max_playouts=50", outputs=tmp_outputs)
    again = run("level=1", "max_playouts=50", outputs=tmp_outputs)
    assert "already in the store" in again.stdout
    assert run_file_of(first) == run_file_of(again)


def test_verify_flags_a_certificate_that_does_not_reach_its_score(tmp_outputs):
    path = run_file_of(run("level=1", "max_playouts=50", outputs=tmp_outputs))
    record = json.loads(path.read_text())
    record["certificate"]["score"] += 1
    path.write_text(json.dumps(record))
    verified = cli("-m", "experiments.verify", str(tmp_outputs))
    assert verified.returncode == 1
    assert "FAIL" in verified.stdout and "0 verified, 1 failed" in verified.stdout


def test_a_board_file_of_your_own_is_searched(tmp_path, tmp_outputs):
    board = tmp_path / "mine.txt"
    board.write_text("1 1 2\n2 2 1\n")
    completed = run(f"domain.board={board}", "level=1", "max_playouts=20", outputs=tmp_outputs)
    assert completed.returncode == 0, completed.stderr
    assert json.loads(run_file_of(completed).read_text())["domain_info"]["board"] == str(board)
