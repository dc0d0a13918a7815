"""`python run.py -m KEY=a,b,c` from start to report (experiments/sweep.py): its cost first, its
runs in one pool, its report last; the report rebuilt, the sweep exported; the question
before a long command (experiments/estimate.py confirm)."""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from experiments import estimate
from experiments.sweep import sweep_name
from tests.conftest import cli

OVERRIDES = ["algo=snrpa", "P=2,3,4", "scale=smoke"]


@pytest.fixture(scope="module")
def swept(tmp_path_factory):
    """The sweep run once into a fresh store: (outputs folder, its command's result)."""
    outputs = tmp_path_factory.mktemp("sweep") / "outputs"
    done = cli("run.py", "-m", *OVERRIDES, f"outputs_dir={outputs}", "--yes")
    assert done.returncode == 0, done.stderr
    return outputs, done


def best_by_hand(record: dict, checkpoint: float) -> float:
    """A run's best score at ``checkpoint`` CPU-seconds, read off its trace of improvements."""
    trace = record["trace"]
    return max((s for p, s in zip(trace["cpu_seconds"], trace["score"]) if p <= checkpoint), default=math.nan)


@pytest.mark.slow  # end to end, over 10 s
def test_a_sweep_prints_its_cost_runs_in_one_pool_and_ends_in_its_report(swept):
    outputs, done = swept
    lines = done.stdout.splitlines()
    name = sweep_name(OVERRIDES)
    assert lines[0].startswith(f"{name} at scale smoke: 3 jobs (SNRPA(2), SNRPA(3), SNRPA(4)), 6 runs in all, "
                               "0 already in the store, 6 to make.")
    workers = os.cpu_count()
    assert lines[1].startswith("Cost: ") and f"on {workers} worker process" in lines[1]
    assert "6 run(s) made, 0 already in the store" in done.stdout
    assert f"running={min(workers, 6)}" in done.stderr  # one pool across the three jobs: every core at once
    folder = outputs / "sweeps" / name
    paths = [Path(line) for line in lines if line.startswith(str(folder))]
    stem = folder / f"{name}_smoke"
    for suffix in (".csv", ".md", ".png"):
        assert stem.with_suffix(suffix) in paths and stem.with_suffix(suffix).stat().st_size > 0
    assert (folder / "sweep.yaml").exists()

    # the table's numbers, recomputed from the run files
    records = [json.loads(p.read_text()) for p in outputs.glob("runs/samegame/*.json")]
    assert sorted(r["settings"]["P"] for r in records) == [2, 2, 3, 3, 4, 4]
    table = pd.read_csv(stem.with_suffix(".csv"))
    assert list(dict.fromkeys(table["variant"])) == ["SNRPA(2)", "SNRPA(3)", "SNRPA(4)"]  # named by the algorithm
    assert set(table["axis"]) == {"cpu_seconds"}
    assert sorted(set(table["checkpoint"])) == [0.01, 0.02, 0.04, 0.08]
    markdown = stem.with_suffix(".md").read_text()
    for _, row in table.iterrows():
        P = int(row["variant"].strip("SNRPA()"))
        scores = [best_by_hand(r, row["checkpoint"]) for r in records if r["settings"]["P"] == P]
        assert row["runs"] == 2
        if all(math.isnan(s) for s in scores):
            assert math.isnan(row["mean"])
            continue
        assert row["mean"] == pytest.approx(np.nanmean(scores))
        assert f"{row['mean']:.1f} [" in markdown
    playouts = pd.read_csv(stem.parent / f"{stem.name}_playouts.csv")
    first = playouts[(playouts["variant"] == "SNRPA(3)") & (playouts["checkpoint"] == 100)]["mean"].item()
    by_hand = [max(s for p, s in zip(r["trace"]["playouts"], r["trace"]["score"]) if p <= 100)
               for r in records if r["settings"]["P"] == 3]
    assert first == pytest.approx(np.mean(by_hand))


@pytest.mark.slow  # end to end, over 10 s
def test_the_sweep_runs_again_makes_nothing_and_its_report_is_rebuilt_from_its_folder_or_name(swept):
    outputs, first = swept
    again = cli("run.py", "-m", *OVERRIDES, f"outputs_dir={outputs}")
    assert again.returncode == 0 and "0 run(s) made, 6 already in the store" in again.stdout
    name = sweep_name(OVERRIDES)
    folder = outputs / "sweeps" / name
    csv = folder / f"{name}_smoke.csv"
    written = csv.read_text()
    csv.unlink()
    rebuilt = cli("-m", "analysis.results.report", f"sweep={folder}")
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert str(csv) in rebuilt.stdout.split() and csv.read_text() == written
    by_name = cli("-m", "analysis.results.report", f"sweep={name}", f"outputs_dir={outputs}")
    assert by_name.returncode == 0 and str(csv) in by_name.stdout.split()
    unknown = cli("-m", "analysis.results.report", "sweep=sweep_00000000", f"outputs_dir={outputs}")
    assert unknown.returncode == 2 and f"(sweeps there: {name})" in unknown.stderr


@pytest.mark.slow  # end to end, over 10 s
def test_make_export_finds_the_sweeps_runs(swept):
    outputs, _ = swept
    done = cli("-m", "analysis.results.export", "scale=smoke", f"outputs_dir={outputs}")
    assert done.returncode == 0, done.stderr
    frame = pd.read_csv(outputs / "export" / "runs_smoke.csv")
    rows = frame[frame["experiment"] == sweep_name(OVERRIDES)]
    assert sorted(set(rows["variant"])) == ["SNRPA(2)", "SNRPA(3)", "SNRPA(4)"]
    assert rows["run_id"].nunique() == 6
    table = pd.read_csv(outputs / "sweeps" / sweep_name(OVERRIDES) / f"{sweep_name(OVERRIDES)}_smoke.csv")
    cell = rows[(rows["variant"] == "SNRPA(4)") & (rows["axis"] == "cpu_seconds") & (rows["checkpoint"] == 0.08)]
    expected = table[(table["variant"] == "SNRPA(4)") & (table["checkpoint"] == 0.08)]["mean"].item()
    assert cell["best_score"].mean() == pytest.approx(expected)


@pytest.fixture
def terminal(monkeypatch):
    """A person at a terminal who answers ``answers`` in turn; the questions asked are kept."""
    asked = []
    monkeypatch.setattr(estimate, "on_terminal", lambda: True)
    monkeypatch.delenv("YES", raising=False)

    def answering(answer: str):
        monkeypatch.setattr("builtins.input", lambda question: asked.append(question) or answer)
        return asked
    return answering


def test_a_command_over_an_hour_asks_on_a_terminal_and_stops_unless_told_yes(terminal, monkeypatch):
    asked = terminal("n")
    with pytest.raises(SystemExit) as stopped:
        estimate.confirm(36.4 * 3600, 2)
    assert stopped.value.code == 1
    assert asked == ["This takes about 36.4 h on 2 worker processes. Start? [y/N] "]
    asked.clear()
    terminal("y")
    estimate.confirm(36.4 * 3600, 2)  # goes on
    assert len(asked) == 1
    estimate.confirm(3000, 2)  # under an hour: no question
    estimate.confirm(None, 2)  # no time budget: no estimate, no question
    estimate.confirm(36.4 * 3600, 2, yes=True)  # --yes
    monkeypatch.setenv("YES", "1")  # make table4 YES=1
    estimate.confirm(36.4 * 3600, 2)
    monkeypatch.delenv("YES")
    monkeypatch.setattr(estimate, "on_terminal", lambda: False)  # CI, a cluster job, a pipe
    estimate.confirm(36.4 * 3600, 2)
    assert len(asked) == 1


def test_a_long_sweep_asks_before_it_starts_and_makes_nothing_when_told_no(terminal, tmp_path):
    asked = terminal("")  # Enter: the default, no
    done = cli("run.py", "-m", "algo=snrpa", "P=2,3", "max_time=7200", "repeats=1", f"outputs_dir={tmp_path}")
    assert done.returncode == 1 and "Not started" in done.stderr
    assert len(asked) == 1 and asked[0].endswith("Start? [y/N] ") and " h on " in asked[0]
    assert "Cost: 4.00 hours of run budgets" in done.stdout
    assert not list(tmp_path.glob("runs/*/*.json"))


@pytest.mark.slow  # end to end, over 10 s
def test_against_runs_the_sweep_on_the_experiments_settings_beside_its_columns_and_published_values(tmp_path):
    overrides = ["algo=snrpa", "P=8,12", "scale=smoke"]
    done = cli("run.py", "-m", *overrides, "against=stabilized_table4", f"outputs_dir={tmp_path}")
    assert done.returncode == 0, done.stderr
    name = sweep_name([*overrides, "settings_of=stabilized_table4"])
    folder = tmp_path / "sweeps" / name
    table = pd.read_csv(folder / f"{name}_smoke.csv")
    published = pd.read_csv(Path(__file__).parents[1] / "analysis/reference/stabilized_table4_samegame_board1.csv")
    assert list(dict.fromkeys(table["variant"])) == ["SNRPA(8)", "SNRPA(12)", *published.columns[1:]]
    first = table[table["checkpoint"] == 0.01].set_index("variant")["published"]
    assert first[list(published.columns[1:])].tolist() == published.iloc[0, 1:].tolist()
    assert first[["SNRPA(8)", "SNRPA(12)"]].isna().all()  # a variant of the researcher's own has no published value
    assert "against: stabilized_table4" in (folder / "sweep.yaml").read_text()
    # the swept columns play Table 4's game with Table 4's playout rule, level and N: the run files say so
    swept = [r for r in map(json.loads, map(Path.read_text, tmp_path.glob("runs/samegame/*.json")))
             if r["settings"]["P"] in (8, 12)]
    assert len(swept) == 4
    assert all(r["config"]["domain"]["policy"] == "selective" and r["config"]["domain"]["threshold"] == 10
               and r["config"]["level"] == 4 and r["config"]["N"] == 100 for r in swept)
    # the only difference, on the terminal and under the report's heading
    said = "SNRPA(8) differs from stabilized_table4's nearest column: P = 8 where SNRPA(7) has 7."
    assert said in done.stdout and said in (folder / f"{name}_smoke.md").read_text()
    assert "against=EXPERIMENT draws a sweep" in cli("run.py", "P=2", "against=stabilized_table4").stderr


def test_a_swept_column_that_is_one_of_the_experiments_is_that_column():
    from experiments.sweep import load_sweep
    experiment = load_sweep(["algo=snrpa", "P=2,8", "scale=smoke"], "stabilized_table4")
    labels = [v.label for v in experiment.variants]
    assert labels.count("SNRPA(2)") == 1 and labels[0] == "SNRPA(8)"
    assert "P=2 is stabilized_table4's SNRPA(2): the same search, its column and runs are the experiment's." \
        in experiment.notes
    # a setting of the playout rule is the researcher's to change: said, not refused, and named in the column
    tabu = load_sweep(["algo=nrpa,gnrpa", "domain.policy=tabu", "scale=smoke"], "stabilized_table4")
    assert [v.label for v in tabu.variants[:2]] == ["NRPA domain.policy=tabu", "GNRPA"]
    assert any(note.startswith("NRPA domain.policy=tabu differs from stabilized_table4's nearest column: "
                               "domain.policy = tabu where NRPA has selective") for note in tabu.notes)


def test_against_refuses_another_game_in_one_line_unless_asked(tmp_path):
    refused = cli("run.py", "-m", "algo=snrpa", "P=8,12", "domain.board=2", "scale=smoke", "against=stabilized_table4",
                  f"outputs_dir={tmp_path}")
    assert refused.returncode == 2 and not list(tmp_path.glob("runs/*/*.json"))
    assert refused.stderr.strip().splitlines() == [
        "error: against=stabilized_table4: your columns play another game than its columns (SNRPA(8): "
        "domain.board = 2 where SNRPA(7) has 1; SNRPA(12): domain.board = 2 where SNRPA(10) has 1): add "
        "--other-game to draw them beside it anyway"]
    from experiments.sweep import load_sweep
    asked = load_sweep(["algo=snrpa", "P=8", "domain.board=2", "scale=smoke"], "stabilized_table4", other_game=True)
    assert asked.variants[0].job.domain_options.board == "2"
    assert "--other-game lets a sweep" in cli("run.py", "-m", "P=2,3", "--other-game").stderr
