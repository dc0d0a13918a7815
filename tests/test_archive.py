"""The run archive (experiments/archive.py): packs of run files that another store reads back.

Each test makes a few runs of 300 playouts (conftest.small_job) in one store, packs them into
its own archive folder, and reads them from a second store with no run files, as a fresh clone
of the repository would."""

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from analysis.results.report import collect, variant_key
from experiments import archive, leaderboard
from experiments.estimate import cost
from experiments.experiment import load_experiment
from experiments.machine import StarvedRule
from experiments.store import RunStore
from experiments.valid_runs import read_and_judge
from experiments.workers import run_job
from nrpa.domains.registry import make_domain
from nrpa.errors import InputError
from tests.conftest import cli, small_job


def made_and_packed(tmp_path: Path, repeats: int = 3):
    """``repeats`` runs of small_job in a store of their own, packed: (job, their run files, the
    archive folder, the pack)."""
    job = small_job()
    paths = run_job(job, repeats, RunStore(tmp_path / "made", archive=None), n_jobs=1).paths
    folder = tmp_path / "archive"
    packed = archive.pack(RunStore(tmp_path / "made", archive=None), folder)
    return job, paths, folder, packed.path


def rewrite_pack(path: Path, change_rows=None, metadata=None, drop=()) -> None:
    """Write ``path`` again with its rows changed by ``change_rows(rows)``, its metadata replaced
    or columns dropped: a pack damaged, or made by another format version."""
    table = pq.read_table(path)
    rows = table.to_pylist()
    if change_rows:
        change_rows(rows)
    rewritten = pa.Table.from_pylist(rows, schema=table.schema).drop_columns(list(drop))
    pq.write_table(rewritten.replace_schema_metadata(metadata if metadata is not None else table.schema.metadata),
                   path, compression="zstd")


def tamper_record(rows: list[dict], row: int, change) -> None:
    record = json.loads(rows[row]["record"])
    change(record)
    rows[row]["record"] = json.dumps(record)


def test_a_store_without_run_files_finds_every_packed_run_and_makes_none(tmp_path):
    job, paths, folder, pack = made_and_packed(tmp_path)
    fresh = RunStore(tmp_path / "fresh", archive=folder)
    outcome = run_job(job, 3, fresh, n_jobs=1)
    assert (outcome.ran, outcome.found) == (0, 3)
    assert not list((tmp_path / "fresh").rglob("*.json"))  # read from the pack, nothing written
    for made, wanted in zip(paths, outcome.paths):
        assert fresh.load(wanted) == json.loads(made.read_text())
    # a fourth repeat is not archived: only it is made
    assert (run_job(job, 4, fresh, n_jobs=1).ran) == 1


def test_each_packed_record_is_its_run_file_exactly_with_its_query_columns(tmp_path):
    _, paths, _, pack = made_and_packed(tmp_path)
    rows = {row["run_id"]: row for row in pq.read_table(pack).to_pylist()}
    assert sorted(rows) == sorted(path.stem for path in paths)
    for path in paths:
        record = json.loads(path.read_text())
        row = rows[path.stem]
        assert json.loads(row["record"]) == record
        assert list(json.loads(row["record"])) == list(record)  # the keys in the file's order too
        assert (row["domain"], row["algorithm"], row["best_score"], row["playouts"], row["cpu_seconds"],
                row["source_hash"], row["git_commit"], row["finished_at"]) == (
            "samegame", "nrpa", record["result"]["best_score"], record["result"]["playouts"],
            record["result"]["cpu_seconds"], record["code_version"]["source_hash"],
            record["code_version"]["git_commit"], record["finished_at"])
    assert pq.read_schema(pack).metadata[archive.VERSION_KEY] == str(archive.FORMAT_VERSION).encode()
    assert pack.name.startswith(f"runs-v{archive.FORMAT_VERSION}-") and pack.suffix == ".parquet"


def test_packing_again_writes_only_the_runs_no_pack_holds_and_never_rewrites_a_pack(tmp_path, capsys):
    job, _, folder, first = made_and_packed(tmp_path)
    kept = first.read_bytes()
    store = RunStore(tmp_path / "made", archive=None)
    assert archive.pack(store, folder).path is None
    run_job(job, 5, store, n_jobs=1)
    second = archive.pack(store, folder)
    assert second.runs == 2 and second.path != first
    assert first.read_bytes() == kept
    assert archive.pack_paths(folder) == sorted([first, second.path])
    capsys.readouterr()
    assert archive.main(["pack", f"outputs_dir={tmp_path / 'made'}", f"archive_dir={folder}"]) == 0
    said = capsys.readouterr().out
    assert "nothing new to pack" in said and "2 pack(s), 5 runs" in said
    assert len(archive.pack_paths(folder)) == 2


def test_a_run_file_wins_over_its_archived_record_and_a_damaged_one_gives_way_to_it(tmp_path, capsys):
    job, paths, folder, pack = made_and_packed(tmp_path)
    archived = {row["run_id"]: json.loads(row["record"]) for row in pq.read_table(pack).to_pylist()}
    store = RunStore(tmp_path / "made", archive=folder)
    record = json.loads(paths[0].read_text())
    paths[0].write_text(json.dumps({**record, "finished_at": "from the file"}))
    assert next(read_and_judge(store, [paths[0]], StarvedRule())).record["finished_at"] == "from the file"
    assert store.load(paths[0])["finished_at"] == "from the file"
    paths[1].write_text(paths[1].read_text()[:100])
    assert next(read_and_judge(store, [paths[1]], StarvedRule())).record == archived[paths[1].stem]
    said = capsys.readouterr().err
    assert f"damaged run file {paths[1]}" in said and "the archive's record of the run is used instead" in said
    assert run_job(job, 3, store, n_jobs=1).ran == 0


@pytest.mark.parametrize("damage, reason", [
    (lambda pack: pack.write_bytes(pack.read_bytes()[:pack.stat().st_size // 2]), "not a Parquet file, or cut short"),
    (lambda pack: pack.write_text("run_id,record\n"), "not a Parquet file, or cut short"),
    (lambda pack: rewrite_pack(pack, drop=["record"]), "lacks the column(s) record"),
    (lambda pack: rewrite_pack(pack, metadata={}), "not a run archive pack"),
])
def test_a_damaged_pack_stops_before_any_run_naming_it_and_what_to_do(tmp_path, damage, reason):
    job, _, folder, pack = made_and_packed(tmp_path)
    damage(pack)
    with pytest.raises(InputError) as error:
        run_job(job, 3, RunStore(tmp_path / "fresh", archive=folder), n_jobs=1)
    assert f"archive pack {pack}: {reason}" in str(error.value) and "git checkout" in str(error.value)
    assert not (tmp_path / "fresh" / "runs").exists()
    listed = cli("-m", "experiments.archive", "list", f"archive_dir={folder}")
    assert listed.returncode == 2 and listed.stderr.startswith(f"error: archive pack {pack}: {reason}")
    assert "Traceback" not in listed.stderr


def corrupt_json(rows: list[dict]) -> None:
    rows[1]["record"] = rows[1]["record"][:-40]  # cut short: not JSON any more


def wrong_typed_column(path: Path) -> None:
    """``path`` written again with its playouts column as text."""
    table = pq.read_table(path)
    playouts = pa.array([str(value) for value in table.column("playouts").to_pylist()], pa.string())
    index = table.schema.get_field_index("playouts")
    pq.write_table(table.set_column(index, pa.field("playouts", pa.string()), playouts), path)


@pytest.mark.parametrize("damage, reason", [
    (lambda pack: rewrite_pack(pack, corrupt_json), "the record of row 1 (run {bad}) is not valid JSON"),
    (lambda pack: rewrite_pack(pack, lambda rows: rows[1].update(record="[1, 2]")),
     "the record of row 1 (run {bad}) is a JSON list, not an object"),
    (lambda pack: rewrite_pack(pack, lambda rows: tamper_record(rows, 1, lambda record: record.pop("result"))),
     "the record of row 1 (run {bad}) lacks result"),
    (wrong_typed_column, "its column(s) playouts (string, not int64) have the wrong type"),
])
def test_a_pack_whose_records_do_not_parse_or_whose_columns_have_the_wrong_type_is_refused_naming_it(
        tmp_path, capsys, damage, reason):
    """Refused as a whole, in one line naming the pack, before any of its records is used: no
    run is found in it, none is made."""
    job, _, folder, pack = made_and_packed(tmp_path)
    bad = pq.read_table(pack).column("run_id").to_pylist()[1]
    damage(pack)
    with pytest.raises(InputError) as error:
        run_job(job, 3, RunStore(tmp_path / "fresh", archive=folder), n_jobs=1)
    message = str(error.value)
    assert message.startswith(f"archive pack {pack}: {reason.format(bad=bad)}") and "\n" not in message
    assert not (tmp_path / "fresh" / "runs").exists()
    capsys.readouterr()
    assert archive.main(["list", f"archive_dir={folder}"]) == 2
    said = capsys.readouterr()
    assert said.err.startswith(f"error: archive pack {pack}: ") and said.err.count("\n") == 1
    assert "Traceback" not in said.err


def test_a_pack_of_an_unknown_format_version_stops_naming_it(tmp_path, monkeypatch):
    job, _, folder, pack = made_and_packed(tmp_path)
    rewrite_pack(pack, metadata={archive.VERSION_KEY: b"2"})
    monkeypatch.setenv("NRPA_ARCHIVE", str(folder))
    done = cli("run.py", "max_time=null", "max_playouts=300", "level=2", "N=10", "repeats=3",
               f"outputs_dir={tmp_path / 'fresh'}")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert f"archive pack {pack}: format version 2, and this code reads version 1 only" in done.stderr
    assert not (tmp_path / "fresh" / "runs").exists()


def test_a_bad_record_in_a_pack_is_skipped_said_once_and_its_run_made_again(tmp_path, capsys):
    job, paths, folder, pack = made_and_packed(tmp_path)
    rows = pq.read_table(pack).to_pylist()
    bad = rows[1]["run_id"]
    rewrite_pack(pack, lambda rows: tamper_record(rows, 1, lambda record: record["trace"]["score"].append(1.0)))
    capsys.readouterr()
    fresh = RunStore(tmp_path / "fresh", archive=folder)
    outcome = run_job(job, 3, fresh, n_jobs=1)
    assert (outcome.ran, outcome.found) == (1, 2)
    other = RunStore(tmp_path / "other", archive=folder)  # asked again in the same process: None, unsaid
    assert next(read_and_judge(other, [other.path_for("samegame", bad)], StarvedRule())).record is None
    said = capsys.readouterr().err
    assert said.count(f"damaged archived run {bad} in {pack}: its trace lists have different lengths") == 1
    [remade] = [path for path in outcome.paths if path.exists()]
    assert remade.stem == bad
    assert fresh.load(remade)["certificate"] == json.loads(next(p for p in paths if p.stem == bad).read_text())[
        "certificate"]  # the same run, made again


def test_verify_replays_every_archived_certificate_and_fails_a_tampered_one(tmp_path):
    _, paths, folder, pack = made_and_packed(tmp_path)
    tampered = pq.read_table(pack).to_pylist()[2]["run_id"]

    def raise_score(record):
        record["certificate"]["score"] += 1
        record["result"]["best_score"] += 1

    rewrite_pack(pack, lambda rows: tamper_record(rows, 2, raise_score))
    completed = cli("-m", "experiments.verify", str(folder), str(paths[0]))
    assert completed.returncode == 1
    lines = completed.stdout.splitlines()
    assert sum(line.startswith(f"ok   {pack} run ") for line in lines) == 2
    assert any(line.startswith(f"FAIL {pack} run {tampered}: certificate replays to") for line in lines)
    assert any(line.startswith(f"ok   {paths[0]}: replays to") for line in lines)
    assert lines[-1] == "3 verified, 1 failed (3 archived run(s) checked from 1 pack(s), 2 verified)"


def test_verify_reports_a_damaged_pack_as_failed_and_checks_the_rest(tmp_path):
    _, paths, folder, pack = made_and_packed(tmp_path)
    pack.write_bytes(pack.read_bytes()[:300])
    completed = cli("-m", "experiments.verify", str(folder), str(paths[0]))
    assert completed.returncode == 1 and "Traceback" not in completed.stderr
    assert f"FAIL {pack}: archive pack {pack}: not a Parquet file" in completed.stdout
    assert completed.stdout.splitlines()[-1].startswith("1 verified, 1 failed")


@pytest.mark.slow  # end to end, over 10 s
def test_an_experiment_run_and_reported_from_the_archive_alone(tmp_path, monkeypatch):
    """What a fresh clone does: the sweep makes no archived run, and the estimate and the
    reports' collect() count the archived runs as stored ones (the report's tables and figures
    are drawn from collect()'s records: drawing them here would add seconds and test nothing more)."""
    overrides = ["experiment=selective_table2", "scale=smoke"]
    made = load_experiment([*overrides, f"outputs_dir={tmp_path / 'made'}"])
    for variant in made.variants:
        run_job(variant.job, variant.repeats, RunStore(tmp_path / "made", archive=None), n_jobs=1)
    folder = tmp_path / "archive"
    archive.pack(RunStore(tmp_path / "made", archive=None), folder)
    monkeypatch.setenv("NRPA_ARCHIVE", str(folder))
    fresh = load_experiment([*overrides, f"outputs_dir={tmp_path / 'fresh'}"])
    runs, to_make, _, _ = cost(fresh)
    assert (runs, to_make) == (10, 0)
    assert collect(fresh).records == {variant_key(made, v): collect(made).records[variant_key(made, v)]
                                      for v in made.variants}
    swept = cli("run.py", "-m", *overrides, f"outputs_dir={tmp_path / 'fresh'}")
    assert swept.returncode == 0 and "0 run(s) made, 10 already in the store" in swept.stdout
    assert not (tmp_path / "fresh" / "runs").exists()


def test_make_leaderboard_offers_the_archived_runs_of_a_clone_without_run_files(tmp_path, monkeypatch):
    _, paths, folder, _ = made_and_packed(tmp_path)
    monkeypatch.setenv("NRPA_ARCHIVE", str(folder))
    monkeypatch.setattr(leaderboard, "PROJECT_ROOT", tmp_path / "clone")
    assert leaderboard.main() == 0
    records = [json.loads(path.read_text()) for path in paths]
    key = make_domain(records[0]["config"]["domain"]).leaderboard_key()
    entry = leaderboard.Leaderboard(tmp_path / "clone" / "outputs").best(key)
    assert entry["score"] == max(record["result"]["best_score"] for record in records)


def test_list_shows_each_pack_and_the_runs_and_cpu_hours_per_domain_and_algorithm(tmp_path, capsys):
    _, paths, folder, pack = made_and_packed(tmp_path)
    cpu_hours = sum(json.loads(path.read_text())["result"]["cpu_seconds"] for path in paths) / 3600
    assert archive.main(["list", f"archive_dir={folder}"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert any(line.split() == [pack.name, "1", "3", *f"{pack.stat().st_size / 1024:.1f} KiB".split()]
               for line in lines)
    assert ["samegame", "nrpa", "3", f"{cpu_hours:.3f}"] in [line.split()[:4] for line in lines]


def test_the_archive_command_refuses_what_it_does_not_know(tmp_path, capsys):
    assert archive.main(["pack", "outputs=somewhere"]) == 2
    assert "'outputs=somewhere' is not valid here: give outputs_dir=DIR or archive_dir=DIR" in capsys.readouterr().err
    (tmp_path / "file").write_text("")
    assert archive.main(["list", f"archive_dir={tmp_path / 'file'}"]) == 2
    assert "it is a file" in capsys.readouterr().err
