"""Claims judged on runs that keep coming (analysis/claims/decide.py) and the budgeted campaign
(analysis/claims/campaign.py) on real smoke runs: the contrasts against the run files by hand,
runs read as prefixes, the report, and `make claims BUDGET=...` end to end."""

import math
import subprocess

import numpy as np
import pandas as pd
import pytest

from analysis.claims import decide, sequential
from analysis.claims.files import Claim, load_claims
from analysis.claims.sources import Refused
from analysis.stats import best_at
from analysis.claims.campaign import budget_of, campaign_experiments, run_campaign
from tests.conftest import PROJECT_ROOT, cli

RUNS = sequential.MIN_RUNS  # enough paired runs for a verdict


@pytest.fixture(scope="module")
def selective_runs(tmp_path_factory):
    """selective_table3 at smoke scale, RUNS runs of each column, in a store of its own."""
    outputs = tmp_path_factory.mktemp("decide")
    done = cli("run.py", "-m", "experiment=selective_table3", "scale=smoke", "matched_work=true", f"repeats={RUNS}",
               f"outputs_dir={outputs}")
    assert done.returncode == 0, done.stderr
    return outputs


def experiment_of(outputs, claims):
    return campaign_experiments(claims, "smoke", [f"outputs_dir={outputs}"], cap=200)["selective_table3"]


def test_a_compare_claim_is_the_paired_differences_at_matched_time(selective_runs):
    """Each column read at the paper's work for it: t x R x rho(column) playouts."""
    claim = Claim("P", "late", "t > 10 above tabu at the end", "selective_table3", "compare",
                  pairs=(("t_gt_10", "tabu"),), at="last")
    experiment = experiment_of(selective_runs, [claim])
    assert experiment.matched_work  # a published CPU-time table: judged at the paper's work
    rate = experiment.published_rate
    source = decide.PrefixSource(experiment, cap=200)
    (contrast,), where, basis = decide.contrasts(claim, source)
    for label in ("t_gt_10", "tabu"):  # each run holds both readings: the longer of t x R x rho and t x R
        assert all(r["result"]["playouts"] == rate.budget(0.08, label) for r in source.runs.records[label])
    # smoke's runs end at 0.08 published s for a column with rho >= 1, at 0.08 / rho for one below
    # (within half a playout: a budget is rounded to a whole one)
    last = min((rate.budget(0.08, label) + 0.5) / rate.work(1.0, label) for label in ("t_gt_10", "tabu"))
    at = {label: rate.work(last, label) for label in ("t_gt_10", "tabu")}
    by_hand = [best_at(a["trace"]["playouts"], a["trace"]["score"], [at["t_gt_10"]])[0]
               - best_at(b["trace"]["playouts"], b["trace"]["score"], [at["tabu"]])[0]
               for a, b in zip(source.runs.records["t_gt_10"], source.runs.records["tabu"])]
    assert basis == "equal time (matched: t x R x rho playouts)" and len(by_hand) == RUNS
    assert np.allclose(contrast.values, by_hand, equal_nan=True)
    assert "the runs end there" in where and "at matched time" in where


def test_a_claim_at_every_time_reads_matched_time_from_the_second_checkpoint(selective_runs):
    """At matched time 0.01 s is not read (the paper's start-up: basis.FIRST_SCORED): a claim at
    every time has one contrast per published checkpoint from 0.02 s to where the runs end."""
    claim = Claim("P", "every", "t > 10 above tabu throughout", "selective_table3", "compare",
                  pairs=(("t_gt_10", "tabu"),), at="every")
    source = decide.PrefixSource(experiment_of(selective_runs, [claim]), cap=200)
    contrasts, where, _ = decide.contrasts(claim, source)
    rate = source.experiment.published_rate
    last = min((rate.budget(0.08, label) + 0.5) / rate.work(1.0, label) for label in ("t_gt_10", "tabu"))
    expected = [t for t in (0.01, 0.02, 0.04, 0.08) if 0.02 <= t <= last]
    assert len(expected) >= 2 and len(contrasts) == len(expected)
    assert where.startswith(f"{len(expected)} checkpoints, 0.02-")


def test_an_equal_time_claim_is_refused_on_a_reading_at_equal_playouts(selective_runs):
    """The same columns read at the same playouts answer another question: refused, and the
    campaign makes no runs for it (nothing more of them would judge it)."""
    claim = Claim("P", "late", "t > 10 above tabu", "selective_table3", "compare", pairs=(("t_gt_10", "tabu"),),
                  axis="playouts", basis="equal time")
    source = decide.PrefixSource(experiment_of(selective_runs, [claim]), cap=200)
    with pytest.raises(Refused, match="the paper compares at equal time; these runs are read at equal playouts"):
        decide.contrasts(claim, source)
    row = decide.decide_table([claim], {"selective_table3": source}, cap=200).iloc[0]
    assert row["verdict"] == "not run" and row["min_runs"] == 0 and "refused" in row["detail"]


def test_a_column_is_read_up_to_its_first_missing_run(selective_runs, tmp_path):
    import shutil

    copy = tmp_path / "outputs"
    shutil.copytree(selective_runs, copy)
    claim = Claim("P", "c", "tabu above no tabu", "selective_table3", "compare", pairs=(("tabu", "no_tabu"),))
    experiment = experiment_of(copy, [claim])
    tabu = next(v for v in experiment.variants if v.label == "tabu")
    experiment.run_paths(tabu)[3].unlink()  # repeat 3 gone: repeats 4.. are not read until it is made again
    source = decide.PrefixSource(experiment, cap=200)
    assert len(source.runs.records["tabu"]) == 3 and len(source.costs["tabu"]) == 3
    assert len(source.runs.records["no_tabu"]) == RUNS
    assert all(cost > 0 for cost in source.costs["no_tabu"])


def test_a_value_claim_tests_the_runs_against_both_ends_of_its_margin(selective_runs):
    claim = Claim("P", "v", "tabu scores 1000", "selective_table3", "value", basis="final scores", variant="tabu",
                  published="mean", margin=50.0)
    experiment = experiment_of(selective_runs, [claim])

    class Published(decide.PrefixSource):  # a published table of our own
        reference = pd.DataFrame({"rule": ["tabu"], "mean": [1000.0]})

    source = Published(experiment, cap=200)
    low, high = decide.contrasts(claim, source)[0]
    finals = source.finals("tabu")
    assert np.allclose(low.values, finals - 950) and np.allclose(high.values, 1050 - finals)
    assert not low.paired and low.min_runs == sequential.MIN_RUNS_ONE_SAMPLE


@pytest.mark.slow  # end to end, over 10 s
def test_a_campaign_with_no_budget_judges_the_stored_runs_and_makes_none(selective_runs, capsys):
    before = sorted(selective_runs.glob("runs/*/*.json"))
    paths = run_campaign(["scale=smoke", f"outputs_dir={selective_runs}"], 0.0, files=["selective"])
    assert sorted(selective_runs.glob("runs/*/*.json")) == before
    out = capsys.readouterr().out
    assert "round 0:" in out and "stopping" in out
    table = pd.read_csv(next(p for p in paths if p.suffix == ".csv"))
    by_claim = table.set_index("claim")
    # its columns all have RUNS runs: judged; the other claims' experiments have none
    assert by_claim.loc["samegame-tabu-beats-no-tabu", "runs"] == RUNS
    # smoke runs stop at 0.08 s of the paper's work: not run at 163.84 s (compute), what they say kept apart
    assert by_claim.loc["samegame-tabu-beats-no-tabu", ["verdict", "why"]].tolist() == ["not run", "needs compute"]
    assert by_claim.loc["samegame-tabu-beats-no-tabu", "scaled_down_verdict"] in ("supported", "contradicted",
                                                                                  "inconclusive")
    gaps = by_claim.loc["samegame-tabu-beats-no-tabu", "gaps"].split("; ")
    assert gaps[0] == "the paper does not state the search's level (given for Table 4 only)"  # read as 4
    assert gaps[1] in ("0.08 s for the paper's 163.84 s", "0.0798 s for the paper's 163.84 s")
    assert by_claim.loc["weakschur-rule-k6", "verdict"] == "not run"  # no runs at all
    assert pd.isna(by_claim.loc["weakschur-rule-k6", "scaled_down_verdict"])
    report = next(p for p in paths if p.suffix == ".md").read_text()
    assert "Waudby-Smith" in report and "anytime-valid" in report
    # the basis of every row: the paper's comparison, and matched time per column
    assert "t x R x rho(column) playouts" in report and "runs of another are refused" in report
    assert "its basis: equal time; the runs read at: equal time (matched: t x R x rho playouts)" in report


@pytest.mark.slow
def test_make_claims_with_a_budget_runs_its_rounds_end_to_end(tmp_path, capsys):
    # the observations: at smoke scale every paper claim is away from its paper's settings and
    # gets no runs; the harness's own claims are judged at any scale
    done = subprocess.run(["make", "claims", "BUDGET=0.2h", "SCALE=smoke", "CLAIMS=observations",
                           f"ARGS=outputs_dir={tmp_path}"], cwd=PROJECT_ROOT, capture_output=True, text=True)
    rounds = [line for line in done.stdout.splitlines() if line.startswith("round ")]
    with capsys.disabled():
        print("\n" + "\n".join(rounds))
    assert done.returncode == 0, done.stderr[-2000:]
    assert len(rounds) >= 2 and "claims decided" in rounds[0] and "CPU spent" in rounds[-1]
    table = pd.read_csv(tmp_path / "claims" / "claims_smoke_observations_decided.csv")
    observations = {claim.id for claim in load_claims(files=["observations"])}
    assert len(table) == len(set(table["claim"])) and set(table["claim"]) == observations
    assert set(table["kind"]) == {"observation"}
    # every claim got the runs a verdict needs: one not judged says why, and it is not the lack of runs
    unjudged = table[table["verdict"] == "not judged"]
    assert not unjudged["detail"].str.contains("no runs yet").any(), unjudged[["claim", "detail"]]


@pytest.mark.slow
def test_make_claims_without_a_budget_makes_the_scales_runs_in_one_process_then_every_report(tmp_path):
    command = ["make", "claims", "SCALE=smoke", "CLAIMS=gnrpa", f"ARGS=outputs_dir={tmp_path}"]
    done = subprocess.run(command, cwd=PROJECT_ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "family_samegame at scale smoke:" in done.stdout and "to make." in done.stdout  # the cost first
    assert (tmp_path / "tables" / "family_samegame_smoke.md").is_file()
    table = pd.read_csv(tmp_path / "claims" / "claims_smoke_gnrpa.csv")
    assert set(table["claim"]) == {"gnrpa-beats-nrpa-samegame", "gnrpa-beats-nrpa-tsptw"}
    runs = sorted(tmp_path.glob("runs/*/*.json"))
    again = subprocess.run(command, cwd=PROJECT_ROOT, capture_output=True, text=True)
    assert again.returncode == 0 and sorted(tmp_path.glob("runs/*/*.json")) == runs  # nothing made twice
    assert "0 to make." in again.stdout


def test_a_matched_work_column_without_runs_is_priced_at_the_published_engines_time():
    """Budgeted in playouts, a column costs max_playouts / R before its first run (the
    published engine's seconds: an overestimate where ours is faster), not 1 s a run, which
    let a first round overrun its budget several times over."""
    claims = [claim for claim in load_claims(files=["selective"]) if claim.experiment == "selective_table3"]
    experiment = campaign_experiments(claims, "paper", [], cap=200)["selective_table3"]
    variant = experiment.variants[0]
    assert variant.job.settings.max_time is None and variant.job.settings.max_playouts
    expected = variant.job.settings.max_playouts / experiment.published_rate.R
    assert budget_of(variant, experiment.published_rate) == pytest.approx(expected)
    assert expected == pytest.approx(163.84, rel=0.01)  # t x R playouts at R: the published 163.84 s



def test_the_runs_that_would_decide_a_claim_are_priced_column_by_column():
    """Columns of unequal counts (a claim's 30-run columns beside a 200-run one): only the short
    columns' missing runs cost, each at its own column's CPU a run."""
    columns = [(30, 10.0), (200, 20.0), (30, 5.0)]  # (runs, CPU-s a run)
    assert decide.cpu_hours_to_reach(47, columns) == pytest.approx((17 * 10.0 + 17 * 5.0) / 3600)
    assert decide.cpu_hours_to_reach(250, columns) == pytest.approx((220 * 10.0 + 50 * 20.0 + 220 * 5.0) / 3600)
    assert math.isnan(decide.cpu_hours_to_reach(math.inf, columns))


def test_a_gain_at_matched_time_reads_up_to_the_last_doubling_the_runs_were_budgeted_for(selective_runs):
    """A budget is the paper's work rounded to a whole playout, so the last doubling (0.08 s at
    smoke scale) can sit a fraction of a playout past the runs' end: it is still read."""
    claim = Claim("O", "g", "tabu's gain per doubling is roughly constant", "selective_table3", "gain",
                  basis="equal time", variant="tabu", start=0.01)
    source = decide.PrefixSource(experiment_of(selective_runs, [claim]), cap=200)
    rate = source.experiment.published_rate
    _, where, _ = decide.contrasts(claim, source)
    assert where.startswith("4 checkpoints, ")  # 0.01, 0.02, 0.04, 0.08 s of the paper's work for tabu
    assert where.endswith(f"-{rate.work(0.08, 'tabu'):g} playouts")


def test_a_claim_decided_at_the_second_clock_is_said_with_its_runs_and_interval():
    from analysis.claims.campaign import other_clock_text

    row = {"verdict": "inconclusive", "basis": "equal time (matched: W_ref)", "runs": 23, "effect": -87.65,
           "effect_low": -193.4, "effect_high": -13.65, "detail": "SNRPA(4) vs SNRPA(10) at 163.8 s"}
    assert other_clock_text(row) == ("inconclusive at equal time (matched: W_ref) (23 runs a column): effect -87.65 "
                                     "[-193.4, -13.65], decided by: SNRPA(4) vs SNRPA(10) at 163.8 s")
    unbounded = other_clock_text({**row, "effect_low": -math.inf, "effect_high": math.inf})
    assert "effect -87.65 (no bounded confidence sequence at so few runs)" in unbounded
    assert other_clock_text({**row, "effect": math.nan, "detail": "no runs"}) == \
        "inconclusive at equal time (matched: W_ref): no runs"
