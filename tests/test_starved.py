"""Starved wall-clock runs (experiments/machine.py): what a run records of the machine, the
rule that tells a starved run from one idling by design, the store setting it aside, the
sweep making it again, the reports counting it, and the archive's old records judged by
their rate.

No test here makes a run on the wall clock: a "wall-clock" run is conftest.small_job with
clock=wall whose kernel runs on the CPU clock (its 300-playout budget makes it the same run),
and the machine's figures come from a /proc/stat written by the test, before the run and
after it, so that other processes seem to have taken its cores or not. The real thing, a
threaded run beside CPU hogs, is the slow test at the end."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import joblib
import pytest

from analysis.claims import decide
from analysis.claims.files import Claim
from analysis.claims.judging import claims_table
from analysis.claims.report import markdown
from analysis.claims.sources import Source
from analysis.results.report import Runs, collect, final_report
from analysis.site.sections import section_html
from analysis.stats import t_interval
from experiments import archive, machine, runs
from experiments.config import check_override_keys
from experiments.experiment import Experiment, Variant, load_experiment
from experiments.leaderboard import Leaderboard
from experiments.store import STARVED_FOLDER, RunStore
from experiments.valid_runs import SET_ASIDE_EARLIER, counted_archived_runs, judge, read_and_judge
from experiments.workers import run_job
from nrpa.errors import InputError
from nrpa.search import SearchSettings
from tests.conftest import cli, small_job

CPUS = sorted(machine.usable_cpus())


def proc_stat(busy_ticks: int) -> str:
    """A /proc/stat whose usable CPUs have each been busy ``busy_ticks`` ticks (user), idle 1000."""
    lines = [f"cpu  {busy_ticks * len(CPUS)} 0 0 {1000 * len(CPUS)} 0 0 0 0 0 0"]
    lines += [f"cpu{n} {busy_ticks} 0 0 1000 0 0 0 0 0 0" for n in CPUS]
    return "\n".join(lines) + "\nintr 1 2 3\n"


@pytest.fixture
def fake_machine(tmp_path, monkeypatch):
    """Runs whose kernel spends its playout budget on the CPU clock, and a /proc/stat of the
    test's own: while the n-th run goes, ``others[n]`` ticks are added to every CPU (the
    list's values are used up in run order; none left: 0, a quiet machine). A sweep's look at
    the machine reads the same file, over a hundredth of a second."""
    stat = tmp_path / "stat"
    stat.write_text(proc_stat(0))
    monkeypatch.setattr(machine, "PROC_STAT", stat)
    monkeypatch.setattr(machine, "LOAD_WINDOW", 0.01)
    others = []
    real = runs.run_search

    def search(domain, settings, bias=None):
        result = real(domain, replace(settings, clock="cpu"), bias)
        busy = int(stat.read_text().split()[1]) // len(CPUS)
        stat.write_text(proc_stat(busy + (others.pop(0) if others else 0)))  # what others took while it ran
        return result

    monkeypatch.setattr(runs, "run_search", search)
    return others


def wall_job(**settings):
    """A wall-clock job with a time budget (a minute: its 300 playouts end it first)."""
    return small_job(clock="wall", max_time=60.0, **settings)


def record_with(machine_section: dict | None, threads: int = 2, parallel: str = "shared", rate: float = 20000.0) -> dict:
    """A minimal wall-clock record for the rule (what machine_verdict and rate_verdict read)."""
    record = {"run_id": "x", "config": {"domain": {"name": "samegame"}, "repeat": 0},
              "settings": {"clock": "wall", "max_time": 5.12, "parallel": parallel, "threads": threads},
              "result": {"playouts": int(rate * 5.12), "wall_seconds": 5.12}}
    if machine_section is not None:
        record["machine"] = machine_section
    return record


def test_busy_seconds_add_the_busy_fields_of_the_usable_cpus_only():
    text = ("cpu  999 999 999 999 999 999 999 999 0 0\n"
            "cpu0 100 20 30 5000 40 5 6 7 0 0\n"
            "cpu1 1 2 3 5000 4 5 6 7 0 0\n"
            "cpu2 1000 0 0 0 0 0 0 0 0 0\n")
    ticks = os.sysconf("SC_CLK_TCK")
    # user + nice + system + irq + softirq + steal; idle and iowait are not busy
    assert machine.busy_seconds({0, 1}, text) == pytest.approx((100 + 20 + 30 + 5 + 6 + 7 + 1 + 2 + 3 + 5 + 6 + 7) / ticks)
    assert machine.busy_seconds({0, 3}, text) is None  # cpu3 not listed: nothing measured


def test_a_run_whose_cores_others_took_is_starved_and_one_idling_by_design_is_not():
    rule = machine.StarvedRule()
    # the archive's starved shared L=1 runs: 5 CPU-s of their own in 5.12 s, the other process as much
    starved = machine.machine_section(cpus=2, needed=2, wall=5.12, own=5.0, playouts=1276, others=5.1)
    assert starved["cores_left"] == pytest.approx(2 - 5.1 / 5.12)
    assert "left it 1.00 of 2 CPUs" in machine.machine_verdict(record_with(starved), rule)
    # a healthy shared L=2 run: a CPU share of 0.6 of wall x threads (its threads wait for the round's slowest)
    idling = machine.machine_section(cpus=2, needed=2, wall=5.12, own=0.6 * 2 * 5.12, playouts=150000, others=0.1)
    assert idling["cores_left"] == pytest.approx(2 - 0.1 / 5.12)
    assert machine.machine_verdict(record_with(idling), rule) is None
    # a sequential run beside one busy core of two has the core it needs
    beside = machine.machine_section(cpus=2, needed=1, wall=5.0, own=5.0, playouts=100000, others=5.0)
    assert machine.machine_verdict(record_with(beside, threads=1, parallel="none"), rule) is None
    # nothing measured (no /proc/stat, or a dask cluster's run): never starved by the section
    unmeasured = machine.machine_section(cpus=2, needed=2, wall=5.0, own=1.0, playouts=10, others=None)
    assert machine.machine_verdict(record_with(unmeasured), rule) is None
    # a CPU-clock run is never judged, nor one budgeted in playouts alone: it does the same work on any machine
    assert machine.machine_verdict({**record_with(starved), "settings": {"clock": "cpu", "max_time": 5.12}}, rule) is None
    assert machine.machine_verdict({**record_with(starved), "settings": {"clock": "wall", "max_time": None}},
                                   rule) is None


def test_a_run_pinned_to_fewer_cpus_than_its_threads_needs_only_its_cpus():
    assert machine.cores_needed({"parallel": "shared", "threads": 2}, cpus=1) == 1
    assert machine.cores_needed({"parallel": "none", "threads": 1}, cpus=16) == 1
    assert machine.cores_needed({"parallel": "averaged", "threads": 4}, cpus=16) == 4


def test_an_old_record_is_starved_by_its_rate_within_its_column():
    rule = machine.StarvedRule()
    assert machine.rate_verdict(record_with(None, rate=4000.0), 20000.0, rule).startswith("4,000 playouts")
    assert machine.rate_verdict(record_with(None, rate=6000.0), 20000.0, rule) is None  # above a quarter
    assert machine.rate_verdict(record_with({"cores_left": 2.0}, rate=10.0), 20000.0, rule) is None  # it has a section


def test_judge_says_which_records_count_and_why():
    """The one judgement of a record read (experiments/valid_runs.py), on hand-made records."""
    rule = machine.StarvedRule()
    # contended: other processes left a 2-thread run one core of two
    contended = record_with(machine.machine_section(cpus=2, needed=2, wall=5.12, own=5.0, playouts=1276, others=5.1))
    assert judge(contended, rule).startswith("other processes left it 1.00 of 2 CPUs")
    # starved, told by its rate alone (a record made before the machine section): a fifth of its column's median
    old = record_with(None, rate=4000.0)
    assert judge(old, rule, column_median=20000.0).startswith("4,000 playouts per wall-second, under 0.25 x")
    assert judge(old, rule) is None  # nothing to compare it with: it counts
    assert judge(record_with(None, rate=6000.0), rule, column_median=20000.0) is None  # above a quarter
    # counted: a healthy run; one whose work ran on another machine (a dask cluster's: nothing measured here);
    # one pinned to fewer CPUs than its threads, which has the one core it can use
    healthy = machine.machine_section(cpus=2, needed=2, wall=5.12, own=6.1, playouts=150000, others=0.1)
    elsewhere = machine.machine_section(cpus=2, needed=2, wall=5.0, own=1.0, playouts=10, others=None)
    pinned = machine.machine_section(cpus=1, needed=1, wall=5.0, own=5.0, playouts=50000, others=0.5)
    assert [judge(record_with(section), rule) for section in (healthy, elsewhere, pinned)] == [None, None, None]
    # counted whatever the machine did: a CPU-clock run, and one budgeted in playouts alone
    for settings in ({"clock": "cpu", "max_time": 5.12}, {"clock": "wall", "max_time": None}):
        assert judge({**contended, "settings": settings}, rule) is None
        assert judge({**old, "settings": settings}, rule, column_median=20000.0) is None
    # the rule's settings decide: a lax tolerance counts the contended run
    assert judge(contended, machine.StarvedRule(tolerance=0.6)) is None


def test_a_starved_run_file_gives_way_to_the_archives_record_of_the_run_when_that_one_counts(
        fake_machine, tmp_path, capsys):
    store = RunStore(tmp_path / "outputs", archive=tmp_path / "archive")
    path = run_job(wall_job(), 1, store, n_jobs=1).paths[0]
    assert archive.pack(store, tmp_path / "archive").runs == 1  # the run as it was made, on a quiet machine
    record = json.loads(path.read_text())
    record["machine"]["cores_left"] = 0.2  # its file says otherwise: others left it a fifth of a core
    path.write_text(json.dumps(record))
    (read,) = read_and_judge(store, [path], machine.StarvedRule())
    assert read.record is not None and read.record["machine"]["cores_left"] > 0.2 and read.starved is None
    assert not path.exists() and (path.parent / STARVED_FOLDER / path.name).exists()
    assert "the archive's record of the run is used instead" in capsys.readouterr().err


def test_a_wall_clock_run_records_what_the_machine_gave_it(fake_machine, tmp_path):
    fake_machine[:] = [100]  # 100 ticks on each CPU by others while it ran
    record = runs.execute_run(wall_job(), 0)
    section = record["machine"]
    assert section["cpus"] == len(CPUS) and section["cores_needed"] == 1
    assert section["others_cpu_seconds"] == pytest.approx(
        100 * len(CPUS) / os.sysconf("SC_CLK_TCK") - section["cpu_seconds"])
    assert section["cores_left"] == pytest.approx(len(CPUS) - section["others_cpu_seconds"] / section["wall_seconds"])
    assert section["playouts_per_wall_second"] == pytest.approx(300 / section["wall_seconds"])
    assert "machine" not in runs.execute_run(small_job(), 0)  # a CPU-clock run: its budget is its own CPU time


def two_column_experiment(store: RunStore, repeats: int) -> Experiment:
    a, b = wall_job(), wall_job(N=5)
    return Experiment(name="starved", kind="final", scale="smoke", title="Starved runs", report_source="-",
                      reference=None, value_scale=1.0, unit=None, baseline=None,
                      variants=(Variant("A", (), a, repeats), Variant("B", (), b, repeats)), store=store,
                      backend={"backend": "loky", "address": None, "n_jobs": 1})


def test_a_starved_run_is_set_aside_remade_and_absent_from_a_table_and_a_verdict(fake_machine, tmp_path, capsys):
    store = RunStore(tmp_path / "outputs", archive=None)
    experiment = two_column_experiment(store, repeats=3)
    a, b = (variant.job for variant in experiment.variants)
    run_job(b, 3, store, n_jobs=1)
    fake_machine[:] = [0, 10_000, 0]  # repeat 1 of A: other processes take every core while it runs
    outcome = run_job(a, 3, store, n_jobs=1)
    assert (outcome.ran, outcome.found, outcome.starved) == (2, 0, 1)
    starved_path = a.run_path(store, 1)
    assert not starved_path.exists() and (starved_path.parent / STARVED_FOLDER / starved_path.name).exists()
    assert "starved run" in capsys.readouterr().err
    # the table: column A has 2 runs and says 1 set aside; the verdict reads A's runs up to its first missing one
    runs_read = collect(experiment)
    assert [len(runs_read.records[label]) for label in ("A", "B")] == [2, 3]
    assert runs_read.starved == {"A": 1, "B": 0}
    table = final_report(experiment, runs_read, t_interval)[0]
    assert table.frame.set_index("variant")["runs"].to_dict() == {"A": 2, "B": 3}
    assert "set aside as starved" in table.markdown and "A: 1" in table.markdown
    claim = Claim("P", "c", "A above B", "starved", "compare", pairs=(("A", "B"),), basis="final scores")
    decided = decide.decide_table([claim], {"starved": decide.PrefixSource(experiment, cap=3)}, cap=3)
    assert decided.iloc[0]["starved"] == "A: 1" and len(decide.PrefixSource(experiment, cap=3).runs.records["A"]) == 1
    assert "starved A: 1." in decide.starved_lines(decided)[0]
    sources = {"starved": Source(experiment, runs_read)}
    fixed_n = claims_table([claim], sources)
    assert fixed_n.iloc[0]["runs_starved"] == 1 and "starved A: 1." in markdown(fixed_n, "smoke", sources)
    # the next call makes it again, on a quiet machine: the column is whole, nothing set aside
    outcome = run_job(a, 3, store, n_jobs=1)
    assert (outcome.ran, outcome.found, outcome.starved) == (1, 2, 0)
    assert collect(experiment).starved == {"A": 0, "B": 0}
    assert len(decide.PrefixSource(experiment, cap=3).runs.records["A"]) == 3


def test_short_wall_clock_runs_read_the_load_again_when_the_reading_is_old_or_a_run_starved(
        fake_machine, tmp_path, monkeypatch):
    readings = []
    monkeypatch.setattr("experiments.workers.wait_for_cores", lambda needed, rule: readings.append(needed))
    monkeypatch.setattr("experiments.workers.usable_cpus", lambda: {0})  # one CPU: a batch per run
    assert run_job(wall_job(), 3, RunStore(tmp_path / "quick", archive=None), n_jobs=1).ran == 3
    assert len(readings) == 1  # three runs well within RECHECK_LOAD seconds: one reading
    fake_machine[:] = [10_000, 0, 0]  # the first run starves: the load is read again before the second
    outcome = run_job(wall_job(), 3, RunStore(tmp_path / "starved", archive=None), n_jobs=1)
    assert (outcome.ran, outcome.starved, len(readings)) == (2, 1, 3)
    monkeypatch.setattr("experiments.workers.RECHECK_LOAD", 0.0)  # every reading old at once: one a batch
    assert run_job(wall_job(), 3, RunStore(tmp_path / "every", archive=None), n_jobs=1).ran == 3
    assert len(readings) == 6


def test_run_py_says_a_run_was_set_aside_and_makes_it_on_the_next_call(fake_machine, tmp_path):
    command = ("run.py", "clock=wall", "max_time=60", "max_playouts=300", "level=2", "N=10", f"outputs_dir={tmp_path}")
    fake_machine[:] = [10_000]
    done = cli(*command)
    assert done.returncode == 2 and "no run to report: 1 run(s) made and set aside as starved" in done.stderr
    assert not list((tmp_path / "runs").glob("*/*.json")) and len(list(tmp_path.rglob(".starved/*.json"))) == 1
    done = cli(*command)
    assert done.returncode == 0 and "(1 run(s) made, 0 already in the store)" in done.stdout


def test_a_starved_file_in_the_store_is_moved_aside_and_never_packed(fake_machine, tmp_path, capsys):
    store = RunStore(tmp_path / "outputs", archive=None)
    job = wall_job()
    path = run_job(job, 1, store, n_jobs=1).paths[0]
    record = json.loads(path.read_text())
    record["machine"]["cores_left"] = 0.2  # as if others had left it a fifth of a core
    path.write_text(json.dumps(record))
    packed = archive.pack(store, tmp_path / "archive")
    assert (packed.path, packed.starved) == (None, 1)
    (read,) = read_and_judge(store, [path], machine.StarvedRule())
    assert read.record is None and read.starved.startswith("other processes left it 0.20 of")
    assert not path.exists() and (path.parent / STARVED_FOLDER / path.name).exists()
    assert "starved run" in capsys.readouterr().err
    (again,) = read_and_judge(store, [path], machine.StarvedRule())  # a later reading still counts it
    assert again.record is None and again.starved == SET_ASIDE_EARLIER


def test_the_leaderboard_keeps_no_starved_run(fake_machine, tmp_path):
    fake_machine[:] = [10_000]
    record = runs.execute_run(wall_job(), 0)
    board = Leaderboard(tmp_path)
    assert not board.offer(record)
    record["machine"]["cores_left"] = float(len(CPUS))
    assert board.offer(record)


def test_archived_starved_runs_are_counted_per_column(fake_machine, tmp_path):
    """An archive made before runs recorded their machine: 4 runs of a column, one of them at a
    tenth of the others' rate, and one run with a machine section that says it was starved."""
    # the store they were made in judged by a lax rule: it packs them all
    lax = machine.StarvedRule(tolerance=0.9, rate_fraction=0.0)
    made = RunStore(tmp_path / "made", archive=None)
    experiment = two_column_experiment(made, repeats=4)
    a, b = (variant.job for variant in experiment.variants)
    paths = run_job(a, 4, made, n_jobs=1).paths + run_job(b, 4, made, n_jobs=1).paths
    for path in paths:
        record = json.loads(path.read_text())
        del record["machine"]  # an old record
        record["result"]["wall_seconds"] = 1.0 if path != paths[2] else 10.0  # A's repeat 2: a tenth of the rate
        if path == paths[5]:  # B's repeat 1 records its machine: others left it half a core
            record["machine"] = machine.machine_section(len(CPUS), 1, 1.0, 0.1, 300, others=len(CPUS) - 0.5)
        path.write_text(json.dumps(record))
    folder = tmp_path / "archive"
    assert archive.pack(made, folder, rule=lax).runs == 8  # the lax rule sets nothing aside: all packed
    fresh = replace(experiment, store=RunStore(tmp_path / "fresh", archive=folder))
    read = collect(fresh)
    assert read.starved == {"A": 1, "B": 1}
    assert [r["repeat"] for r in read.records["A"]] == [0, 1, 3] and [r["repeat"] for r in read.records["B"]] == [0, 2, 3]
    assert sum(1 for _ in counted_archived_runs(fresh.store, fresh.starved_rule)) == 6
    # a sweep makes them again, and only them
    assert run_job(a, 4, fresh.store, n_jobs=1).ran == 1


def test_a_rate_outlier_with_a_clean_machine_section_is_kept_and_flagged(fake_machine, tmp_path):
    store = RunStore(tmp_path / "outputs", archive=None)
    experiment = two_column_experiment(store, repeats=3)
    a = experiment.variants[0].job
    paths = run_job(a, 3, store, n_jobs=1).paths
    for path, wall in zip(paths, (1.0, 1.0, 10.0)):
        record = json.loads(path.read_text())
        record["result"]["wall_seconds"] = wall
        path.write_text(json.dumps(record))
    read = collect(experiment)
    assert len(read.records["A"]) == 3 and read.rate_outliers["A"] == [2]
    assert "repeats A: 2" in final_report(experiment, read, t_interval)[0].markdown


def test_the_site_says_how_many_runs_of_a_column_were_set_aside(tmp_path):
    experiment = two_column_experiment(RunStore(tmp_path, archive=None), repeats=3)
    read = Runs({"A": [], "B": []}, {"A": 3, "B": 3}, starved={"A": 2, "B": 0})
    text = section_html(experiment, read, None, "No runs at smoke scale.", tmp_path)
    assert "No runs at smoke scale." in text and "set aside as starved" in text and "A: 2." in text
    assert "B: 0" not in text


def test_a_sweep_waits_for_a_busy_machine_then_stops_with_one_line(capsys):
    now = [0.0]

    def sleep(seconds):
        now[0] += seconds

    readings = iter([(2.0, 2), (1.5, 2), (0.1, 2)])
    machine.wait_for_cores(2, machine.StarvedRule(wait=60), measure=lambda: next(readings), sleep=sleep,
                           clock=lambda: now[0])
    assert now[0] == 10.0  # two waits of 5 s, then the others left it its 2 cores
    assert capsys.readouterr().err.count("waiting up to 60 s") == 1
    with pytest.raises(machine.BusyMachine, match="still so after 60 s"):
        machine.wait_for_cores(1, machine.StarvedRule(wait=60), measure=lambda: (2.0, 2), sleep=sleep,
                               clock=lambda: now[0])
    machine.wait_for_cores(2, machine.StarvedRule(wait=0), measure=lambda: None)  # no /proc/stat: no wait


def test_wall_clock_runs_go_side_by_side_only_as_many_as_the_cpus_hold(fake_machine, tmp_path, monkeypatch):
    asked = []
    real = joblib.Parallel

    def parallel(n_jobs, **keywords):  # in this process whatever is asked: the fake kernel lives here
        asked.append(n_jobs)
        return real(n_jobs=1, **keywords)

    monkeypatch.setattr("experiments.workers.joblib.Parallel", parallel)
    monkeypatch.setattr("experiments.workers.usable_cpus", lambda: {0})  # one CPU: one run at a time
    assert run_job(wall_job(), 3, RunStore(tmp_path / "wall", archive=None), n_jobs=2).ran == 3
    monkeypatch.setattr("experiments.workers.usable_cpus", lambda: {0, 1})
    assert run_job(wall_job(), 3, RunStore(tmp_path / "two", archive=None), n_jobs=2).ran == 3
    assert run_job(small_job(), 3, RunStore(tmp_path / "cpu", archive=None), n_jobs=2).ran == 3
    assert asked == [1, 2, 2]  # CPU-clock runs keep the workers asked for


def test_cpu_clock_sweeps_never_look_at_the_machine(tmp_path, monkeypatch):
    def refuse(*arguments, **keywords):
        raise AssertionError("a CPU-clock sweep looked at the machine's load")

    monkeypatch.setattr("experiments.workers.wait_for_cores", refuse)
    assert run_job(small_job(), 2, RunStore(tmp_path, archive=None), n_jobs=1).ran == 2


def test_a_wall_clock_sweep_stops_on_a_busy_machine_before_any_run(tmp_path, monkeypatch):
    monkeypatch.setattr(machine, "others_cores", lambda: (float(len(CPUS)), len(CPUS)))
    store = RunStore(tmp_path, archive=None)
    with pytest.raises(machine.BusyMachine, match="stopped rather than make runs"):
        run_job(wall_job(), 1, store, rule=machine.StarvedRule(wait=0), n_jobs=1)
    assert not list(tmp_path.rglob("*.json"))


@pytest.mark.parametrize("override, message", [
    ("starved.tolerance=1.5", "starved.tolerance=1.5 is out of range"),
    ("starved.wait=-1", "starved.wait=-1.0 is out of range"),
])
def test_starved_settings_out_of_range_are_refused_before_any_work(override, message, tmp_path):
    done = cli("run.py", "max_playouts=10", "max_time=null", override, f"outputs_dir={tmp_path}")
    assert done.returncode == 2 and message in done.stderr
    assert not list(tmp_path.rglob("*.json"))


def test_the_starved_settings_reach_an_experiment(tmp_path):
    experiment = load_experiment(["experiment=stabilized_table4", "scale=smoke", "starved.tolerance=0.1",
                                  "starved.wait=5", f"outputs_dir={tmp_path}"])
    assert experiment.starved_rule == machine.StarvedRule(tolerance=0.1, rate_fraction=0.25, wait=5.0)


def test_an_unknown_starved_key_is_named():
    with pytest.raises(InputError, match=r"unknown option 'starved.tolerence': did you mean starved.tolerance\? "
                                         r"\(valid are starved.tolerance"):
        check_override_keys(["starved.tolerence=0.1"])


@pytest.mark.slow
def test_a_two_thread_run_beside_cpu_hogs_is_set_aside(tmp_path):
    """The real thing: a 2-thread shared-policy run of 2 wall-seconds while one CPU hog per
    usable CPU runs. It makes a fraction of its playouts, and the sweep sets it aside."""
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in CPUS]
    try:
        job = runs.Job(small_job().domain_options, SearchSettings(
            level=3, N=100, max_time=2.0, clock="wall", parallel="shared", parallel_level=1, threads=2))
        store, rule = RunStore(tmp_path, archive=None), machine.StarvedRule(wait=0)
        # the sweep looks first and refuses: the hogs leave it no core
        with pytest.raises(machine.BusyMachine):
            run_job(job, 1, store, rule=rule, n_jobs=1)
        record = runs.execute_run(job, 0)  # made anyway, as a sweep that started before the hogs would
        assert judge(record, rule) is not None, record["machine"]
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
    record = runs.execute_run(job, 0)  # the machine quiet again
    assert judge(record, rule) is None, record["machine"]
