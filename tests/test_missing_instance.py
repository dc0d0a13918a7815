"""A record whose instance file (a board or instance file of the user's) is gone: it keeps the
file (its contents and SHA-256, domain_info.instance_file), replays from that copy or from the
file's new place, and where it cannot be replayed `make verify`, the leaderboard and the
records page name it and go on (nrpa.domains.registry.replay_domain)."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from pathlib import Path

import pytest

from experiments import leaderboard
from experiments.leaderboard import Leaderboard
from experiments.runs import Job, execute_run, verify_record
from experiments.store import RunStore, write_json
from nrpa.domains import knapsack_rules, samegame_rules, tsptw_rules
from nrpa.domains.registry import MissingInstance, SameGameOptions, make_domain, replay_domain
from nrpa.errors import InputError
from nrpa.search import SearchSettings
from tests.conftest import cli

BOARD = "1 1 2 2\n2 1 1 3\n3 3 2 2\n"  # 3 rows, 4 columns, 3 colours
# the same size, other stones: where the run's certificate (clicks) would replay to another score
EDITED = "3 1 2 1\n2 3 1 3\n1 3 2 1\n"


def samegame_record(board: str) -> dict:
    """A finished run on the board ``board`` names, as the sweep stores it."""
    job = Job(SameGameOptions(board=board), SearchSettings(level=1, N=10, max_playouts=30, seed=3))
    return execute_run(job, 0)


@pytest.fixture
def board_file(tmp_path) -> Path:
    path = tmp_path / "mine.txt"
    path.write_text(BOARD)
    return path


def test_a_run_file_keeps_its_board_file_and_its_sha256(board_file):
    kept = samegame_record(str(board_file))["domain_info"]["instance_file"]
    assert kept == {"option": "board", "path": str(board_file.resolve()),
                    "sha256": hashlib.sha256(BOARD.encode()).hexdigest(), "bytes": len(BOARD), "contents": BOARD}


def test_a_shipped_board_is_kept_by_name_and_hash_only():
    shipped = samegame_rules.board_file(1).read_bytes()
    assert make_domain({"name": "samegame", "board": "1"}).kept_instance() == {
        "option": "board", "shipped": "board_01.txt", "sha256": hashlib.sha256(shipped).hexdigest()}


def test_a_record_replays_on_its_kept_copy_after_the_board_file_is_deleted(board_file):
    record = samegame_record(str(board_file))
    board_file.unlink()
    ok, message = verify_record(record)
    assert ok, message
    assert message == (f"replays to {record['result']['best_score']:g} (its board file {board_file.resolve()} is "
                       "gone: replayed on the copy the record keeps)")


def test_a_board_file_edited_after_the_run_is_named_as_changed_and_not_replayed(board_file):
    record = samegame_record(str(board_file))
    board_file.write_text(EDITED)
    ok, message = verify_record(record)  # the copy the record keeps is the board it was run on
    assert ok and f"its board file {board_file.resolve()} changed since the run" in message, message
    del record["domain_info"]["instance_file"]["contents"]  # as a file over the copy limit keeps it
    ok, message = verify_record(record)
    assert ok is None  # neither verified nor failed on the edited board
    then, now = hashlib.sha256(BOARD.encode()).hexdigest(), hashlib.sha256(EDITED.encode()).hexdigest()
    assert message.startswith(f"cannot replay: its board file {board_file.resolve()} changed since the run "
                              f"(SHA-256 {now[:12]} now, {then[:12]} then)"), message


def test_a_moved_file_is_found_by_its_hash_in_a_folder_nrpa_instances_names(board_file, tmp_path, monkeypatch):
    record = samegame_record(str(board_file))
    del record["domain_info"]["instance_file"]["contents"]
    moved = tmp_path / "elsewhere" / "renamed.txt"
    moved.parent.mkdir()
    (moved.parent / "other.txt").write_text(EDITED)  # the same size, another hash: not taken
    board_file.rename(moved)
    assert verify_record(record)[0] is None
    monkeypatch.setenv("NRPA_INSTANCES", str(moved.parent))
    ok, message = verify_record(record)
    assert ok and f"replayed on {moved}, a file of the same SHA-256" in message, message


@pytest.mark.parametrize("name, shipped", [("tsptw", tsptw_rules.instance_file("rc_201.1")),
                                           ("knapsack", knapsack_rules.shipped_file("p07"))])
def test_an_instance_file_replays_on_its_kept_copy_after_it_is_deleted(name, shipped, tmp_path):
    path = tmp_path / f"mine{shipped.suffix}"
    shutil.copyfile(shipped, path)
    options = {"name": name, "instance": str(path)}
    original = make_domain(options)
    kept = original.kept_instance()
    assert kept["contents"] == shipped.read_text()
    path.unlink()
    replayed, note = replay_domain(options, kept)
    assert replayed.instance == original.instance
    assert note == f"its instance file {path.resolve()} is gone: replayed on the copy the record keeps"


def test_a_bus_instance_over_the_copy_limit_keeps_its_hash_and_is_found_by_it(tmp_path, monkeypatch):
    path = tmp_path / "line.csv"
    shutil.copyfile(make_domain({"name": "bus"}).instance_source("paper")[1], path)  # 0.9 MiB
    options = {"name": "bus", "instance": str(path), "model": "paper"}  # as a paper run's record has it
    original = make_domain(options)
    kept = original.kept_instance()
    assert "contents" not in kept and kept["bytes"] == path.stat().st_size
    moved = tmp_path / "moved"
    moved.mkdir()
    path.rename(moved / "line.csv")
    expected = (f"cannot replay: its instance file {path.resolve()} is gone; the record keeps no copy of it (files "
                f"over 64 KiB keep their hash only): put the file of SHA-256 {kept['sha256']} in a folder named by "
                "$NRPA_INSTANCES")
    with pytest.raises(MissingInstance, match=re.escape(expected)):
        replay_domain(options, kept)
    monkeypatch.setenv("NRPA_INSTANCES", str(moved))
    assert replay_domain(options, kept)[0].leaderboard_key() == original.leaderboard_key()


def stored(outputs: Path, record: dict) -> Path:
    path = RunStore(outputs).path_for("samegame", record["run_id"])
    write_json(path, record)
    return path


def test_verify_names_a_record_whose_board_file_is_gone_and_exits_with_its_summary(board_file, tmp_outputs):
    gone = samegame_record(str(board_file))
    del gone["domain_info"]["instance_file"]  # as a record made before records kept their file
    stored(tmp_outputs, gone)
    stored(tmp_outputs, samegame_record("1"))
    board_file.unlink()
    done = cli("-m", "experiments.verify", str(tmp_outputs))
    assert done.returncode == 0, done.stdout  # a missing input is not a wrong certificate
    assert (f"SKIP {RunStore(tmp_outputs).path_for('samegame', gone['run_id'])}: cannot replay: its board file "
            f"{board_file} is gone") in done.stdout
    assert done.stdout.splitlines()[-1] == ("1 verified, 0 failed, 1 not replayed (their instance file is gone or "
                                            "changed: the SKIP lines)")


def test_the_leaderboard_names_a_record_whose_board_file_is_gone_and_goes_on(board_file, tmp_path, monkeypatch,
                                                                              capsys):
    gone = samegame_record(str(board_file))
    del gone["domain_info"]["instance_file"]
    monkeypatch.setattr(leaderboard, "PROJECT_ROOT", tmp_path)  # `make leaderboard` reads <root>/outputs
    stored(tmp_path / "outputs", gone)
    stored(tmp_path / "outputs", samegame_record("1"))
    board_file.unlink()
    assert leaderboard.main() == 0
    out, err = capsys.readouterr()
    assert "1 improvement(s) kept" in out
    assert f"run {gone['run_id']} not offered to the leaderboard: cannot replay: its board file {board_file}" in err
    assert Leaderboard(tmp_path / "outputs").best("samegame/board_01") is not None


def test_a_leaderboard_entry_keeps_the_board_file_of_its_run(board_file, tmp_path):
    record = samegame_record(str(board_file))
    board = Leaderboard(tmp_path)
    assert board.offer(record)
    entry = json.loads(next((tmp_path / "leaderboard" / "samegame").glob("file_*.json")).read_text())
    assert entry["instance_file"] == record["domain_info"]["instance_file"]


def test_the_site_is_written_with_leaderboard_records_whose_board_files_were_deleted(tmp_path, tmp_outputs):
    """`make site SCALE=smoke` (analysis.site.build, here with one experiment's page: the records
    page is the same) once the board files of two leaderboard records are deleted: the one
    that keeps its board is replayed and drawn, the other is named; the site is written."""
    board = Leaderboard(tmp_outputs)
    paths = {}
    for name, text in (("kept.txt", BOARD), ("lost.txt", EDITED)):
        paths[name] = tmp_path / name
        paths[name].write_text(text)
        record = samegame_record(str(paths[name]))
        if name == "lost.txt":
            del record["domain_info"]["instance_file"]  # as a run made before records kept their file
        assert board.offer(record)
        paths[name].unlink()
    done = cli("-m", "analysis.site.build", "scale=smoke", f"outputs_dir={tmp_outputs}", "--experiments", "stabilized_table1")
    assert done.returncode == 0, done.stderr
    rows = (tmp_outputs / "site" / "records.html").read_text().split("<tr>")
    kept = next(row for row in rows if str(paths["kept.txt"]) in row)
    assert "&#10004; verified" in kept and "replayed on the copy the record keeps" in kept and "<img" in kept
    lost = next(row for row in rows if str(paths["lost.txt"]) in row)
    assert "not replayed" in lost and f"cannot replay: its board file {paths['lost.txt']} is gone" in lost
    assert "<img" not in lost


def test_a_board_file_that_is_not_text_is_named(tmp_path):
    path = tmp_path / "latin1.txt"
    path.write_bytes("1 2\n\u00e9 1\n".encode("latin-1"))  # byte 0xe9 alone is not UTF-8
    with pytest.raises(InputError, match=re.escape(f"domain.board={str(path)!r} is not a text file")):
        make_domain({"name": "samegame", "board": str(path)})
