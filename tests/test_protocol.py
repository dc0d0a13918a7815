"""The experiment protocol: sweeps, repeats, the crash-safe store and the reports."""

import json
import os
import re
import signal
import stat
import time
from pathlib import Path

import pandas as pd
import pytest

from experiments.leaderboard import Leaderboard
from experiments.store import RunStore
from experiments.workers import run_job
from nrpa.domains.registry import make_domain
from tests.conftest import cli, python, small_job

ROOT = Path(__file__).resolve().parent.parent


def command(*arguments, outputs):
    """A command of the harness, writing under ``outputs``, in this process."""
    return cli(*arguments, f"outputs_dir={outputs}")


def run_files(outputs: Path) -> list[Path]:
    return sorted((outputs / "runs").glob("*/*.json"))


def made(completed) -> list[int]:
    return [int(n) for n in re.findall(r"(\d+) run\(s\) made", completed.stdout)]


def deterministic(record):
    return (record["seed"], record["result"]["best_score"], record["result"]["playouts"],
            record["trace"]["playouts"], record["trace"]["score"], record["certificate"]["moves"])


@pytest.mark.slow  # end to end, over 10 s
def test_a_smoke_sweep_of_table_4_makes_its_runs_once_and_reports_beside_the_paper(tmp_outputs):
    sweep = ["run.py", "-m", "experiment=stabilized_table4", "scale=smoke"]
    first = command(*sweep, outputs=tmp_outputs)
    assert first.returncode == 0, first.stderr
    assert made(first) == [16]  # one pool across the 8 jobs (experiments/sweep.py)
    assert len(run_files(tmp_outputs)) == 16
    assert "running=" in first.stderr  # the progress bar
    assert "stabilized_table4 at scale smoke: 8 jobs" in first.stdout  # its cost, first
    assert str(tmp_outputs / "tables" / "stabilized_table4_smoke.csv") in first.stdout.split()  # its report, last
    again = command(*sweep, outputs=tmp_outputs)
    assert made(again) == [0]
    # Its NRPA column (SNRPA(1)) is NRPA's runs under any spelling: one identity per search
    nrpa = command("run.py", "-m", "algo=nrpa", "playout=selective_t10", "scale=smoke", outputs=tmp_outputs)
    assert nrpa.returncode == 0 and made(nrpa) == [0], nrpa.stdout + nrpa.stderr
    # One truncated run file (a disk that filled up): moved aside, said, and made again.
    damaged = run_files(tmp_outputs)[3]
    whole = damaged.read_text()
    damaged.write_text(whole[: len(whole) // 2])
    repaired = command(*sweep, outputs=tmp_outputs)
    assert repaired.returncode == 0, repaired.stderr
    assert made(repaired) == [1]
    assert f"damaged run file {damaged}: not valid JSON" in repaired.stderr
    assert "the run will be made again" in repaired.stderr
    assert json.loads(damaged.read_text())["seed"] == json.loads(whole)["seed"]
    assert (damaged.parent / ".damaged" / damaged.name).read_text() == whole[: len(whole) // 2]

    report = command("-m", "analysis.results.report", "experiment=stabilized_table4", "scale=smoke", outputs=tmp_outputs)
    assert report.returncode == 0, report.stderr
    paths = [Path(line) for line in report.stdout.split()]
    assert {p.suffix for p in paths} == {".csv", ".md", ".png", ".pdf"} and all(p.exists() for p in paths)
    table = pd.read_csv(tmp_outputs / "tables" / "stabilized_table4_smoke.csv")
    published = pd.read_csv(ROOT / "analysis" / "reference" / "stabilized_table4_samegame_board1.csv")
    assert list(dict.fromkeys(table["variant"])) == list(published.columns[1:])
    for _, row in table.iterrows():
        expected = published.loc[published["time"].round(2) == round(row["checkpoint"], 2), row["variant"]]
        assert row["published"] == expected.iloc[0]
    assert set(table["checkpoint"]) == {0.01, 0.02, 0.04, 0.08}
    assert (table["runs"] == 2).all()
    caption = (tmp_outputs / "tables" / "stabilized_table4_smoke.md").read_text()
    assert "over 2 runs per column" in caption and "stopped at 0.08 CPU-seconds" in caption
    assert "code versions" not in caption

    # A run from other code makes the table say so; a missing run too.
    files = run_files(tmp_outputs)
    record = json.loads(files[0].read_text())
    record["code_version"]["source_hash"] = "0123456789abcdef"
    files[0].write_text(json.dumps(record))
    files[1].unlink()
    command("-m", "analysis.results.report", "experiment=stabilized_table4", "scale=smoke", outputs=tmp_outputs)
    caption = (tmp_outputs / "tables" / "stabilized_table4_smoke.md").read_text()
    assert "WARNING: built from runs of 2 code versions" in caption
    assert "WARNING: runs missing" in caption


def test_a_command_line_sweep_runs_one_job_per_value(tmp_outputs):
    completed = command("run.py", "-m", "algo=snrpa", "P=2,3,4", "scale=smoke", outputs=tmp_outputs)
    assert completed.returncode == 0, completed.stderr
    assert ": 3 jobs (SNRPA(2), SNRPA(3), SNRPA(4)), 6 runs in all" in completed.stdout  # its cost, first
    assert sorted(json.loads(path.read_text())["settings"]["P"] for path in run_files(tmp_outputs)) == [2, 2, 3, 3, 4, 4]


def test_a_removed_run_file_is_the_only_run_made_again(tmp_path):
    store = RunStore(tmp_path)
    job = small_job()
    outcome = run_job(job, 3, store, n_jobs=2)
    kept = {path: path.read_text() for path in outcome.paths}
    outcome.paths[1].unlink()
    again = run_job(job, 3, store, n_jobs=2)
    assert (again.ran, again.found) == (1, 2)
    assert json.loads(outcome.paths[1].read_text())["seed"] == json.loads(kept[outcome.paths[1]])["seed"]
    for path in (outcome.paths[0], outcome.paths[2]):
        assert path.read_text() == kept[path]


@pytest.mark.parametrize("damage, reason", [
    (lambda text, record: text[:-40], "not valid JSON"),
    (lambda text, record: "", "not valid JSON"),
    (lambda text, record: "[1, 2]", "not a JSON object but a list"),
    (lambda text, record: json.dumps({k: v for k, v in record.items() if k != "trace"}), "lacks trace"),
    (lambda text, record: json.dumps({**record, "result": {**record["result"], "best_score": "high"}}),
     "result.best_score is not a number"),
    (lambda text, record: json.dumps({**record, "trace": {**record["trace"], "score": [1.0] * 99}}),
     "its trace lists have different lengths"),
    (lambda text, record: json.dumps({**record, "config": {**record["config"], "level": 9}}),
     "its run id, its config and its file name do not agree"),
])
def test_a_damaged_run_file_is_set_aside_said_and_made_again(tmp_path, capsys, damage, reason):
    store = RunStore(tmp_path)
    job = small_job()
    [path] = run_job(job, 1, store).paths
    text = path.read_text()
    path.write_text(damage(text, json.loads(text)))
    capsys.readouterr()
    again = run_job(job, 1, store)
    assert (again.ran, again.found) == (1, 0)
    said = capsys.readouterr().err
    assert f"damaged run file {path}: {reason}" in said and ".damaged" in said
    assert deterministic(store.load(path)) == deterministic(json.loads(text))  # the same run, remade
    assert len(list((path.parent / ".damaged").iterdir())) == 1


def test_verify_reports_a_damaged_run_file_and_checks_the_others(tmp_path):
    store = RunStore(tmp_path)
    whole, truncated, tampered = run_job(small_job(), 3, store).paths
    truncated.write_text(truncated.read_text()[:200])
    record = json.loads(tampered.read_text())
    record["certificate"]["score"] += 1
    record["result"]["best_score"] += 1
    tampered.write_text(json.dumps(record))
    completed = cli("-m", "experiments.verify", str(tmp_path))
    assert completed.returncode == 1
    lines = completed.stdout.splitlines()
    assert any(line.startswith(f"ok   {whole}: replays to") for line in lines)
    assert any(line.startswith(f"FAIL {truncated}: damaged: not valid JSON") for line in lines)
    assert any(line.startswith(f"FAIL {tampered}: certificate replays to") for line in lines)
    assert lines[-1] == "1 verified, 2 failed"
    assert truncated.exists()  # verify only reads


def test_a_certificate_that_does_not_replay_never_reaches_the_leaderboard(tmp_path):
    store = RunStore(tmp_path)
    [path] = run_job(small_job(), 1, store).paths
    record = json.loads(path.read_text())
    board = Leaderboard(tmp_path)
    key = make_domain(record["config"]["domain"]).leaderboard_key()
    assert board.best(key)["score"] == record["result"]["best_score"]  # offered as it finished
    record["certificate"]["score"] = record["result"]["best_score"] = 10**6
    assert not board.offer(record)
    assert board.best(key)["score"] < 10**6


def test_a_damaged_leaderboard_entry_is_set_aside_and_replaced(tmp_path, capsys):
    store = RunStore(tmp_path)
    [path] = run_job(small_job(), 1, store).paths
    record = json.loads(path.read_text())
    board = Leaderboard(tmp_path)
    key = make_domain(record["config"]["domain"]).leaderboard_key()
    board.path(key).write_text("{\"score\": 12")
    assert board.best(key) is None
    assert f"damaged leaderboard entry {board.path(key)}: not valid JSON" in capsys.readouterr().err
    assert board.offer(record) and board.best(key)["score"] == record["result"]["best_score"]


def test_a_run_file_write_flushes_the_file_and_then_its_folder(tmp_path, monkeypatch):
    flushed = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (flushed.append(os.path.basename(os.readlink(
        f"/proc/self/fd/{fd}"))), real_fsync(fd)))
    path = RunStore(tmp_path).write(tmp_path / "runs" / "samegame" / "abc.json", {"a": 1})
    assert flushed[0].startswith(".") and flushed[0].endswith(".partial")  # the temporary file
    assert flushed[1:] == ["samegame", "runs"]  # the new folder, then its entry in its parent
    assert json.loads(path.read_text()) == {"a": 1}


@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_a_run_file_gets_the_mode_of_a_new_file_under_the_umask(tmp_path, umask, mode):
    """Run files are for the group to read (0644 under the usual umask), not 0600 as mkstemp's."""
    saved = os.umask(umask)
    try:
        path = RunStore(tmp_path).write(tmp_path / "runs" / "samegame" / "abc.json", {"a": 1})
    finally:
        os.umask(saved)
    assert stat.S_IMODE(path.stat().st_mode) == mode
    assert [p.name for p in path.parent.iterdir()] == ["abc.json"]  # no temporary file left


def test_run_identity_and_results_do_not_depend_on_paths_or_worker_counts(tmp_path):
    job = small_job(P=3)
    one = run_job(job, 4, RunStore(tmp_path / "a"), n_jobs=1)
    two = run_job(job, 4, RunStore(tmp_path / "b" / "deeper"), n_jobs=2)
    assert [p.name for p in one.paths] == [p.name for p in two.paths]
    for a, b in zip(one.paths, two.paths):
        assert deterministic(json.loads(a.read_text())) == deterministic(json.loads(b.read_text()))


def test_each_repeat_gets_its_own_seed_derived_from_the_job():
    job = small_job()
    seeds = [job.run_seed(r) for r in range(50)]
    assert len(set(seeds)) == 50 and all(0 <= s < 2**32 for s in seeds)
    assert seeds == [small_job().run_seed(r) for r in range(50)]
    assert small_job(P=2).run_seed(0) != seeds[0]
    assert small_job(seed=1).run_seed(0) != seeds[0]  # the job's base seed


def descendants(pid: int) -> list[int]:
    children = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                children.append(int(entry.name))
    return children + [d for child in children for d in descendants(child)]


def kill_a_worker(process, timeout=30):
    """SIGKILL one of the sweep's joblib (loky) workers. The sweep's other children (resource
    trackers) and a worker that exits between being listed and being killed are skipped: the
    list is read again until a kill lands."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        assert process.poll() is None, "the sweep ended before a worker could be killed"
        for pid in descendants(process.pid):
            try:
                if b"LokyProcess" not in Path(f"/proc/{pid}/cmdline").read_bytes():
                    continue
                os.kill(pid, signal.SIGKILL)
                return
            except OSError:
                continue  # it exited meanwhile
        time.sleep(0.05)
    raise AssertionError("no worker of the sweep could be killed in time")


def wait_for_files(outputs, count, process, timeout=120):
    deadline = time.time() + timeout
    while len(run_files(outputs)) < count:
        assert process.poll() is None, process.stderr.read().decode()
        assert time.time() < deadline, "the sweep made no run file in time"
        time.sleep(0.1)


def assert_complete_store(outputs, repeats):
    files = run_files(outputs)
    assert len(files) == repeats
    records = [json.loads(path.read_text()) for path in files]  # every file is whole
    assert sorted(r["repeat"] for r in records) == list(range(repeats))
    assert all(path.stem == r["run_id"] for path, r in zip(files, records))


SWEEP = ["run.py", "level=3", "max_time=0.6", "repeats=8", "backend.n_jobs=2"]


@pytest.mark.slow
def test_a_sweep_killed_with_sigkill_resumes_losing_and_duplicating_nothing(tmp_outputs):
    process = python(*SWEEP, f"outputs_dir={tmp_outputs}", wait=False)
    wait_for_files(tmp_outputs, 2, process)
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    finished = {path: path.read_text() for path in run_files(tmp_outputs)}
    assert 2 <= len(finished) < 8
    resumed = command(*SWEEP, outputs=tmp_outputs)
    assert resumed.returncode == 0, resumed.stderr
    assert made(resumed) == [8 - len(finished)]
    assert_complete_store(tmp_outputs, 8)
    assert all(path.read_text() == text for path, text in finished.items())


@pytest.mark.slow
def test_a_sweep_whose_worker_is_killed_mid_run_completes_on_the_next_call(tmp_outputs):
    process = python(*SWEEP, f"outputs_dir={tmp_outputs}", wait=False)
    wait_for_files(tmp_outputs, 1, process)
    kill_a_worker(process)
    assert len(run_files(tmp_outputs)) < 8  # the kill came while runs were still to make
    process.wait(timeout=120)
    resumed = command(*SWEEP, outputs=tmp_outputs)
    assert resumed.returncode == 0, resumed.stderr
    assert_complete_store(tmp_outputs, 8)


@pytest.mark.slow
def test_repeats_run_on_a_dask_cluster_give_the_same_runs_as_local_processes(tmp_path):
    from dask.distributed import LocalCluster

    job = small_job(P=2)
    local = run_job(job, 3, RunStore(tmp_path / "local"), n_jobs=2)
    with LocalCluster(n_workers=2, threads_per_worker=1, host="127.0.0.1", dashboard_address=None,
                      processes=True) as cluster:
        remote = run_job(job, 3, RunStore(tmp_path / "dask"), backend="dask",
                         address=cluster.scheduler_address)
    assert remote.ran == 3
    for a, b in zip(local.paths, remote.paths):
        assert deterministic(json.loads(a.read_text())) == deterministic(json.loads(b.read_text()))


def test_the_estimate_counts_the_runs_of_each_scale(tmp_outputs):
    # at paper scale a time table runs matched time (budgets in playouts): priced by stored runs, none here
    paper = command("-m", "experiments.estimate", "experiment=stabilized_table4", "scale=paper", outputs=tmp_outputs)
    assert "8 jobs (NRPA, SNRPA(2)" in paper.stdout and "1600 runs in all" in paper.stdout
    assert "matched time: 543,949, 620,102" in paper.stdout and "cannot be estimated before the first runs" in paper.stdout
    equal = command("-m", "experiments.estimate", "experiment=stabilized_table4", "scale=paper", "matched_work=false",
                    outputs=tmp_outputs)
    assert "72.82 hours of run budgets" in equal.stdout
    root = command("-m", "experiments.estimate", "experiment=distributed_fig5", "scale=smoke", outputs=tmp_outputs)
    # 2 boards x 2 root runs x (root's K x threads = 4 jobs + 2 hybrids' K = 2 members)
    assert "32 runs in all, 0 already in the store, 32 to make" in root.stdout
    quick = command("-m", "experiments.estimate", "experiment=stabilized_table4", "scale=quick", "repeats=3",
                    outputs=tmp_outputs)
    assert "24 runs in all" in quick.stdout


@pytest.mark.slow  # end to end, over 10 s
def test_figure_4_sweeps_the_papers_thread_counts_at_paper_scale_and_keeps_its_column_names(tmp_outputs):
    from hydra import compose, initialize_config_dir
    from hydra.core.plugins import Plugins

    from experiments.config import register_configs
    from experiments.experiment import CONFIG_DIR, load_experiment

    labels = {}
    for scale in ("paper", "quick"):
        experiment = load_experiment(["experiment=distributed_fig4", f"scale={scale}", f"outputs_dir={tmp_outputs}"])
        labels[scale] = [variant.label for variant in experiment.variants]
        threads = sorted({variant.job.settings.threads for variant in experiment.variants})
        assert threads == ([1, 2, 4, 8, 16, 32] if scale == "paper" else [1, 2])
        # Hydra's own sweeper (run.py -m) reads the same values from the interpolation
        register_configs()
        with initialize_config_dir(config_dir=str(CONFIG_DIR), version_base="1.3"):
            cfg = compose("config", overrides=["experiment=distributed_fig4", f"scale={scale}"],
                          return_hydra_config=True)
            swept = Plugins.instance()._instantiate(cfg.hydra.sweeper)._parse_config()
        assert f"threads={','.join(map(str, threads))}" in swept
    assert len(labels["paper"]) == 6 * 6 and len(labels["quick"]) == 6 * 2
    assert set(labels["quick"]) < set(labels["paper"])  # the same names for the columns both have
    assert "strategy=leaf_shared threads=2" in labels["quick"]


@pytest.mark.slow  # end to end, over 10 s
def test_figure_3_runs_complete_level_4_executions_at_paper_scale_and_budgets_below(tmp_outputs):
    from experiments.experiment import load_experiment

    for scale, budget, restart in (("paper", None, False), ("quick", 5.12, True), ("smoke", 0.08, True)):
        experiment = load_experiment(["experiment=distributed_fig3", f"scale={scale}", f"outputs_dir={tmp_outputs}"])
        settings = {(v.job.settings.level, v.job.settings.max_time, v.job.settings.max_playouts,
                     v.job.settings.restart) for v in experiment.variants}
        assert settings == {(4, budget, None, restart)}, scale  # paper: the top level once, to its end


@pytest.mark.slow
def test_the_submitit_launcher_spreads_a_sweep_over_processes(tmp_outputs):
    completed = python("run.py", "-m", "hydra/launcher=submitit_local", "algo=snrpa", "P=2,3",
                       "scale=smoke", f"outputs_dir={tmp_outputs}", timeout=600)
    assert completed.returncode == 0, completed.stderr
    assert len(run_files(tmp_outputs)) == 4
