"""Matched work in playouts: matched_work=true runs the paper's t seconds as t x R playouts,
R the published runs' rate stated in the experiment's config (report.published_rate), so a
matched-work run is a function of its seed and playout count, whatever the machine."""

import json
import os
import subprocess
import sys

import pytest

from experiments.experiment import load_experiment
from experiments.run_file import run_id
from tests.conftest import PROJECT_ROOT, cli

TABLE4 = "experiment=stabilized_table4"


def stated_rate(rate, low=None, high=None) -> list[str]:
    """Overrides that state R (and an interval around it) for stabilized_table4."""
    low, high = low if low is not None else rate * 0.9, high if high is not None else rate * 1.1
    return [f"report.published_rate.R={rate}", f"report.published_rate.ci_low={low}",
            f"report.published_rate.ci_high={high}"]


def matched_job(*overrides: str):
    experiment = load_experiment([TABLE4, "scale=smoke", "matched_work=true", *overrides])
    return next(variant.job for variant in experiment.variants if variant.label == "NRPA")


def test_a_matched_work_budget_is_t_times_R_playouts_and_no_time():
    settings = matched_job("max_time=1.28", *stated_rate(1000)).settings
    assert (settings.max_playouts, settings.max_time) == (1280, None)  # 1.28 s x 1000 playouts per second


def test_a_matched_work_run_id_depends_on_the_playouts_alone():
    # 1.28 s at R = 1000 and 2.56 s at R = 500 are both 1280 playouts: one run, one id
    first = matched_job("max_time=1.28", *stated_rate(1000))
    second = matched_job("max_time=2.56", *stated_rate(500))
    assert run_id(first.run_config(0)) == run_id(second.run_config(0))
    budget = first.semantic_config()["budget"]
    assert budget == {"max_time": None, "max_playouts": 1280, "clock": "cpu", "restart": True}
    assert "engine_speed" not in json.dumps(first.run_config(0)) and "published_rate" not in json.dumps(
        first.run_config(0))


def run_on_core_0(outputs, env) -> dict:
    """One matched-work run of Table 4's NRPA (1 published s: 3,320 playouts), pinned to core 0."""
    done = subprocess.run(["taskset", "-c", "0", sys.executable, "run.py", TABLE4, "scale=smoke", "P=1",
                           "matched_work=true", "max_time=1.0", "repeats=1", f"outputs_dir={outputs}"],
                          cwd=PROJECT_ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    (path,) = (outputs / "runs").rglob("*.json")
    return {"file": path.name, **json.loads(path.read_text())}


@pytest.mark.slow  # end to end, over 10 s
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="taskset pins the run and the hog to one core")
def test_one_run_id_gives_the_same_run_alone_and_beside_a_cpu_hog(tmp_path):
    env = {**os.environ, "NRPA_ARCHIVE": "none"}
    alone = run_on_core_0(tmp_path / "alone", env)
    hog = subprocess.Popen(["taskset", "-c", "0", "yes"], stdout=subprocess.DEVNULL)
    try:
        beside = run_on_core_0(tmp_path / "beside", env)
    finally:
        hog.kill()
        hog.wait()
    result = beside["result"]
    assert result["cpu_seconds"] < 0.8 * result["wall_seconds"]  # the hog really took half the core
    assert alone["file"] == beside["file"] and alone["result"]["playouts"] == result["playouts"] == 3320
    assert alone["result"]["best_score"] == result["best_score"]
    assert (alone["trace"]["playouts"], alone["trace"]["score"]) == (beside["trace"]["playouts"],
                                                                     beside["trace"]["score"])


@pytest.mark.parametrize("override, said", [
    ("~report.published_rate.R", "report.published_rate.R must be a number > 0"),
    ("report.published_rate.R=0", "report.published_rate.R must be a number > 0"),
    ("report.published_rate.R=-5", "report.published_rate.R must be a number > 0"),
    ("report.published_rate.R=fast", "report.published_rate.R must be a number > 0"),
    ("report.published_rate.R=9000", "R = 9000 is outside its interval"),
])
def test_a_bad_published_rate_is_refused_naming_the_file(override, said):
    done = cli("run.py", TABLE4, "scale=smoke", "P=1", "matched_work=true", override)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "conf/experiment/stabilized_table4.yaml" in done.stderr and said in done.stderr


def test_a_published_rate_fitted_on_a_column_the_table_lacks_is_refused():
    done = cli("-m", "experiments.estimate", TABLE4, "scale=smoke", "report.published_rate.fit_on=[NRPA,PLAIN]")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "stabilized_table4.yaml: report.published_rate.fit_on names ['PLAIN']" in done.stderr
