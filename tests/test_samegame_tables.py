"""Every SameGame table of the papers: composition, smoke runs, the 20-board table and the
leaderboard."""

import json
from pathlib import Path
from types import SimpleNamespace

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

from analysis.results.captions import figure_title
from analysis.results.report import Figure, checkpoints_report, collect
from analysis.stats import best_at, t_interval
from experiments.experiment import experiment_names, load_experiment
from experiments.leaderboard import Leaderboard
from experiments.store import RunStore
from experiments.workers import run_job
from tests.conftest import cli, small_job

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "analysis" / "reference"


def command(*arguments, outputs):
    return cli(*arguments, f"outputs_dir={outputs}")


# Every experiment at every scale: smoke in the fast suite, quick and paper (the same files
# with other budgets and repeats; the 20-board tables take 5-7 s each) in the slow one.
@pytest.mark.parametrize("scale", ["smoke", pytest.param("quick", marks=pytest.mark.slow),
                                   pytest.param("paper", marks=pytest.mark.slow)])
@pytest.mark.parametrize("name", experiment_names())
def test_every_experiment_composes_at_every_scale(name, scale):
    experiment = load_experiment([f"experiment={name}", f"scale={scale}"])
    assert experiment.variants
    # the Distributed NRPA figures and the NRPA-family time tables have no published numbers; every table has
    assert experiment.reference or name.startswith(("distributed_fig", "family_", "spmcts_")) or name == "speedup"
    assert experiment.reference is None or (REFERENCE / experiment.reference).exists()


@pytest.mark.slow  # end to end, over 10 s
def test_selective_table_3_runs_its_four_playout_rules_at_smoke_scale(tmp_outputs):
    sweep = command("run.py", "-m", "experiment=selective_table3", "scale=smoke", outputs=tmp_outputs)
    assert sweep.returncode == 0, sweep.stderr
    policies = {json.loads(path.read_text())["config"]["domain"]["policy"]
                for path in tmp_outputs.glob("runs/samegame/*.json")}
    assert policies == {"none", "tabu", "selective"}
    assert str(tmp_outputs / "tables" / "selective_table3_smoke.csv") in sweep.stdout.split()  # its report
    report = command("-m", "analysis.results.report", "experiment=selective_table3", "scale=smoke", outputs=tmp_outputs)
    assert report.returncode == 0, report.stderr
    table = pd.read_csv(tmp_outputs / "tables" / "selective_table3_smoke.csv")
    assert list(dict.fromkeys(table["variant"])) == ["no_tabu", "tabu", "t_gt_0", "t_gt_10"]
    published = pd.read_csv(REFERENCE / "selective_table3_samegame_board1.csv").set_index("time")
    first = table[table["checkpoint"] == 0.01].set_index("variant")["published"]
    assert first.to_dict() == published.loc[0.01].to_dict()
    # beside it, the engine's speed against the published runs and the table at matched time:
    # each column's mean at t x R x rho(column) playouts beside the published mean at t, up to the
    # published times every column's runs reach
    speed = pd.read_csv(tmp_outputs / "tables" / "selective_table3_smoke_engine_speed.csv")
    rate = speed["R"][0]
    experiment = load_experiment(["experiment=selective_table3", "scale=smoke", f"outputs_dir={tmp_outputs}"])
    rho = {label: experiment.published_rate.rho(label) for label in ("no_tabu", "tabu", "t_gt_0", "t_gt_10")}
    assert rho["no_tabu"] == 1 and speed["rho tabu"][0] == rho["tabu"]
    matched = pd.read_csv(tmp_outputs / "tables" / "selective_table3_smoke_matched.csv")
    np.testing.assert_allclose(matched["our_playouts"], matched["checkpoint"] * rate * matched["variant"].map(rho))
    runs = collect(experiment)
    reach = min(min(r["result"]["playouts"] for r in runs.records[label]) / (rate * rho[label]) for label in rho)
    assert matched["checkpoint"].max() <= reach < 2 * matched["checkpoint"].max()  # published t double
    # the same at equal playouts, t x R for every column: another question, its own table
    equal = pd.read_csv(tmp_outputs / "tables" / "selective_table3_smoke_equal_playouts.csv")
    np.testing.assert_allclose(equal["our_playouts"], equal["checkpoint"] * rate)
    # a cell is the mean of each run's best at t x R x rho on its playouts trace
    by_hand = np.mean([best_at(r["trace"]["playouts"], r["trace"]["score"], [0.01 * rate * rho["tabu"]])[0]
                       for r in runs.records["tabu"]])
    assert matched.set_index(["variant", "checkpoint"])["mean"][("tabu", 0.01)] == pytest.approx(by_hand)
    assert matched.set_index(["variant", "checkpoint"])["published"][("tabu", 0.01)] == published.loc[0.01, "tabu"]
    caption = (tmp_outputs / "tables" / "selective_table3_smoke.md").read_text()
    assert "Engine speed against the published runs" in caption and f"R = {rate:,.0f}" in caption
    # each figure is titled by its x axis: the title's "vs CPU time" is "vs playouts" on the playouts figure
    figures = {item.suffix: item.save.args[0] for item in checkpoints_report(experiment, runs, t_interval)
               if isinstance(item, Figure)}
    # the time figure, a published time table's, is a panel per column: each curve beside its own
    # published values, the axis and the gap to them said on its face
    time_figure = figures[""]
    assert time_figure.get_suptitle().startswith(
        "Selective NRPA, Table 3: SameGame board 1, mean best score vs CPU time\n")
    assert [ax.get_title() for ax in time_figure.axes if ax.get_visible()] == ["no_tabu", "tabu", "t_gt_0", "t_gt_10"]
    assert time_figure.get_supxlabel() == "CPU seconds of this engine (log2 scale)"
    note = " ".join(text.get_text() for text in time_figure.texts)
    assert "x: CPU seconds of this engine on this machine, not the paper's" in note and "_matched table" in note
    assert figures["_playouts"].axes[0].get_title().startswith(
        "Selective NRPA, Table 3: SameGame board 1, mean best score vs playouts\n")
    assert figures["_playouts"].axes[0].get_xlabel() == "playouts (log2 scale)"
    for figure in figures.values():
        plt.close(figure)


@pytest.mark.slow
def test_the_20_board_table_has_20_rows_a_total_and_the_papers_columns(tmp_outputs):
    sweep = command("run.py", "-m", "experiment=distributed_table1", "scale=smoke", outputs=tmp_outputs)
    assert sweep.returncode == 0, sweep.stderr
    report = command("-m", "analysis.results.report", "experiment=distributed_table1", "scale=smoke", outputs=tmp_outputs)
    assert report.returncode == 0, report.stderr
    assert {Path(p).suffix for p in report.stdout.split()} == {".csv", ".md", ".png", ".pdf"}
    table = pd.read_csv(tmp_outputs / "tables" / "distributed_table1_smoke.csv", dtype={"board": str})
    assert table["board"].tolist() == [str(b) for b in range(1, 21)] + ["Total"]
    published = pd.read_csv(REFERENCE / "distributed_table1_samegame_best.csv", dtype={"board": str})
    for column in published.columns[1:]:
        assert table[f"published {column}"].tolist() == published[column].astype(float).tolist()
    for algorithm in ("NMCS(4)", "NRPA(4)", "Dist-NRPA(5)"):
        assert (table[f"{algorithm} runs"][:20] == 2).all()
        assert table[f"{algorithm} best"][20] == table[f"{algorithm} best"][:20].sum()
    # The leaderboard holds the best of every board's runs, each verified.
    columns = ["NMCS(4) best", "NRPA(4) best", "Dist-NRPA(5) best"]
    assert (table["leaderboard"][:20] >= table[columns][:20].max(axis=1)).all()
    # Dist-NRPA(5): each run the best of K = 2 hybrid-1 members (level 5, shared policy on 2 threads)
    members = [json.loads(path.read_text()) for path in (tmp_outputs / "runs" / "samegame").glob("*.json")]
    dist = [m for m in members if m["config"].get("level") == 5]
    assert len(dist) == 20 * 2 * 2
    assert {json.dumps(m["config"]["parallel"], sort_keys=True) for m in dist} == {
        json.dumps({"strategy": "shared", "level": 1, "threads": 2}, sort_keys=True)}
    assert all(m["result"]["playouts"] == 200 for m in dist)
    caption = (tmp_outputs / "tables" / "distributed_table1_smoke.md").read_text()
    assert ("level 4, budget 0.02 CPU-seconds per run; Dist-NRPA(5): level 5, the best of 2 searches with the "
            "shared policy at level 1 on 2 threads, budget 200 playouts per search") in caption


def test_the_leaderboard_keeps_only_verified_improvements(tmp_path):
    store = RunStore(tmp_path)
    outcome = run_job(small_job(), 2, store, n_jobs=1)
    records = sorted((json.loads(p.read_text()) for p in outcome.paths), key=lambda r: r["result"]["best_score"])
    board = Leaderboard(tmp_path)
    entry = board.best("samegame/board_01")
    assert entry["score"] == records[-1]["result"]["best_score"]  # offered as the runs finished
    assert "replays to" in entry["verified"]
    assert not board.offer(records[0])  # not better
    forged = json.loads(json.dumps(records[-1]))
    forged["certificate"]["score"] += 100  # claims more than its moves score
    forged["result"]["best_score"] += 100
    assert not board.offer(forged)
    assert board.best("samegame/board_01")["score"] == records[-1]["result"]["best_score"]


def test_a_figure_title_names_its_x_axis():
    fig3 = SimpleNamespace(title="Distributed NRPA, Figure 3: board 1, mean best score vs playouts, by strategy",
                           scale="quick")
    assert figure_title(fig3, ", mean", "wall_seconds") == (
        "Distributed NRPA, Figure 3: board 1, mean best score vs wall time, by strategy\nquick scale, mean")
    assert figure_title(fig3, ", mean") == f"{fig3.title}\nquick scale, mean"  # not a checkpoint axis: as it is
    untitled = SimpleNamespace(title="Speed-up over sequential NRPA", scale="smoke")
    assert figure_title(untitled, "", "playouts") == "Speed-up over sequential NRPA, vs playouts\nsmoke scale"
