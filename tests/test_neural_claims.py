"""Claims on the neural pipeline's stored results (analysis/claims/sources.py, NeuralSource): the paired
test by hand, results files made by hand read into both reports' evidence, the paper's settings
as gaps, what a row says where the results are not made, Table 4's one run per row, the claims
file, and (slow) the claims on the smoke pipeline's own results."""

import json
import math
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

from analysis.claims import decide, verdicts
from analysis.claims.files import Claim, load_claims, load_experiments
from analysis.claims.judging import NOT_RUN, UNTESTABLE, claims_table
from analysis.claims.paper_settings import settings_gaps
from analysis.claims.sources import NeuralSource, Source
from analysis.results.report import Runs
from experiments.experiment import load_experiment
from nrpa.errors import InputError

PAPER = (("epochs", 80), ("imitation_games", 9141), ("keep", (70, 82)))  # the paper's Table 1-3 settings
AS_THE_PAPER = {"epochs": 80, "imitation_games": 9141, "keep": [70, 82]}


def test_the_paired_t_test_matches_the_hand_formula():
    # differences 2, 1, 0: mean 1, sd 1, se 1 / sqrt(3), t = sqrt(3) with 2 degrees of freedom,
    # whose distribution function is 1/2 + t / (2 sqrt(2 + t^2)): P(T > sqrt 3) = 1/2 - sqrt(3) / (2 sqrt 5)
    test = verdicts.paired_t([3.0, 5, 4], [1.0, 4, 4])
    assert (test.difference, test.sd) == (1.0, 1.0) and test.se == pytest.approx(1 / math.sqrt(3))
    assert test.p_greater == pytest.approx(0.5 - math.sqrt(3) / (2 * math.sqrt(5)))
    assert test.p_less == pytest.approx(0.5 + math.sqrt(3) / (2 * math.sqrt(5)))
    half = 4.302652729749464 / math.sqrt(3)  # t(0.975, 2) x se
    assert (test.low, test.high) == pytest.approx((1 - half, 1 + half))
    # the same values unpaired are Welch's, another test
    assert verdicts.welch([3.0, 5, 4], [1.0, 4, 4]).p_greater != pytest.approx(test.p_greater)
    with pytest.raises(ValueError, match="one value of each column per unit"):
        verdicts.paired_t([1.0, 2], [1.0])


def neural_source(outputs, name, scale="smoke", results=None, baseline=None):
    """A NeuralSource on ``outputs`` with ``results`` written as the step's results file (None:
    not made) and ``baseline`` ({column: scores}) as morpion_table2's runs."""
    step = name.removeprefix("neural_")
    if results is not None:
        path = outputs / "neural" / scale / f"{step}_results.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"step": step, "scale": scale, **results}))
    records = {label: [{"result": {"best_score": score}} for score in scores] for label, scores in (baseline or {}).items()}
    experiment = load_experiment(["experiment=morpion_table2", f"scale={scale}", f"outputs_dir={outputs}"])
    return NeuralSource(name, Source(experiment, Runs(records, {label: len(r) for label, r in records.items()})), scale)


def table1_results(settings):
    """Two held-out games (indices 3 and 7) of 2 and 3 positions; R2 right on 2 + 2 of them,
    ResNet R1 on 1 + 0, BasicCNN R1 on 0 + 1."""
    return {"settings": settings, "held_out": {"games": [3, 7], "positions": [2, 3]},
            "columns": {"Resnet R2": "11" + "101", "Resnet R1": "01" + "000", "BasicCNN R1": "00" + "010"}}


ACCURACY = Claim("P", "acc", "R2 above both R1", "neural_table1", "compare", basis="final scores",
                 pairs=(("Resnet R2", "Resnet R1"), ("Resnet R2", "BasicCNN R1")), settings=PAPER)


def test_table_1s_accuracy_is_compared_game_by_game_on_the_same_held_out_positions(tmp_path):
    source = neural_source(tmp_path, "neural_table1", results=table1_results(AS_THE_PAPER))
    # per game, the correct positions over the mean positions per game (2.5): each column's mean
    # is its accuracy (R2: 4 of 5 positions), and R2 - R1's the difference of accuracies
    values = source.columns(ACCURACY)
    assert values["Resnet R2"].tolist() == [0.8, 0.8] and values["Resnet R2"].mean() == pytest.approx(0.8)
    assert values["Resnet R1"].tolist() == [0.4, 0.0] and values["BasicCNN R1"].tolist() == [0.0, 0.4]
    evidence, where = source.evidence(ACCURACY)
    assert where == "5 held-out positions of 2 games (accuracy in points)"
    # each difference in points: R2 - R1 = 40, 80 and R2 - BasicCNN = 80, 40: mean 60, sd 28.28,
    # se 20, t = 3 with 1 degree of freedom (Cauchy): P(T > 3) = 1/2 - arctan(3) / pi for both
    assert evidence.effect == pytest.approx(60) and evidence.se == pytest.approx(20)
    assert evidence.p_support == pytest.approx(0.5 - math.atan(3) / math.pi)
    assert evidence.runs == 2  # games, the units
    # the campaign's contrasts are the same differences, game by game
    contrasts, _, basis = decide.contrasts(ACCURACY, source)
    assert [c.values.tolist() for c in contrasts] == [pytest.approx([40, 80]), pytest.approx([80, 40])]
    assert basis == "final scores" and all(c.paired for c in contrasts)


def test_a_row_at_the_papers_settings_is_judged_and_one_below_them_is_not_run(tmp_path):
    at_paper = neural_source(tmp_path / "a", "neural_table1", results=table1_results(AS_THE_PAPER))
    assert settings_gaps(ACCURACY, at_paper) == []
    row = claims_table([ACCURACY], {"neural_table1": at_paper}).iloc[0]
    assert row["verdict"] == "inconclusive" and row["evaluated_at"].startswith("5 held-out positions")
    assert row["p_support_holm"] == pytest.approx(0.5 - math.atan(3) / math.pi)
    smaller = neural_source(tmp_path / "b", "neural_table1",
                            results=table1_results({"epochs": 10, "imitation_games": 1000, "keep": [68, 144]}))
    assert settings_gaps(ACCURACY, smaller) == [
        "10 epochs for the paper's 80", "1000 games imitated for the paper's 9141",
        "games scoring 68-144 kept for the paper's 70-82"]
    row = claims_table([ACCURACY], {"neural_table1": smaller}).iloc[0]
    assert (row["verdict"], row["why"], row["scaled_down_verdict"]) == (NOT_RUN, "needs compute", "inconclusive")
    assert "`make morpion-table1 SCALE=paper`: table1 at paper scale" in row["paper_cost"]


def test_a_network_is_set_beside_morpion_table2s_runs_with_welchs_t(tmp_path):
    claim = Claim("P", "r2", "R2 above uniform", "neural_table2", "compare", basis="final scores",
                  pairs=(("Resnet R2", "Uniform"),),
                  settings=(*PAPER, ("level", 0)))
    # 15 games or more a column: no report gives a verdict on fewer (analysis/claims/sequential.py's minimum)
    r2, uniform = [50.0, 52, 61, 47, 55] * 3, [39.0, 44, 41, 35, 43, 40] * 3
    source = neural_source(tmp_path, "neural_table2", results={"settings": AS_THE_PAPER, "columns": {
        "Resnet R2": r2, "Resnet R1": [44.0, 45], "BasicCNN R1": [41.0, 40]}}, baseline={"Uniform": uniform})
    assert settings_gaps(claim, source) == []  # level 0: morpion_table2's Uniform column
    evidence, where = source.evidence(claim)
    assert where == "final scores" and evidence.effect == pytest.approx(np.mean(r2) - np.mean(uniform))
    assert evidence.p_support == pytest.approx(verdicts.welch(r2, uniform).p_greater)
    row = claims_table([claim], {"neural_table2": source}).iloc[0]
    assert row["verdict"] == "supported"
    # NRPA(1)'s N is not stated by the paper: read, not a reason; without runs of its column, not run
    nrpa = Claim("P", "n1", "NRPA(1) above R1", "neural_table2", "compare", basis="final scores",
                 pairs=(("NRPA(1)", "Resnet R1"),),
                 settings=(*PAPER, ("level", 1), ("unstated", ("N",))))
    assert settings_gaps(nrpa, source) == ["the paper does not state N"]
    row = claims_table([nrpa], {"neural_table2": source}).iloc[0]
    assert row["verdict"] == NOT_RUN and row["scaled_down_verdict"] == ""
    assert "NRPA(1) has 0 runs of morpion_table2 at smoke scale: `make morpion-table2 SCALE=smoke`" in row["detail"]
    # a wrong level for the baseline's column is a gap too
    assert settings_gaps(replace(claim, settings=(*PAPER, ("level", 1))), source) == ["level 0 for the paper's 1"]


def test_results_not_made_read_not_run_with_the_make_target_that_makes_them(tmp_path):
    at_paper = neural_source(tmp_path, "neural_table1", scale="paper")
    assert settings_gaps(ACCURACY, at_paper) == []  # conf/neural_morpion.yaml's paper scale: 80 epochs, 70-82
    row = claims_table([ACCURACY], {"neural_table1": at_paper}).iloc[0]
    assert (row["verdict"], row["why"]) == (NOT_RUN, "needs compute")
    assert row["detail"] == ("the neural pipeline's table1 is not made at paper scale: `make morpion-table1 "
                             "SCALE=paper` makes it (table1_results.json)")
    quick = neural_source(tmp_path, "neural_table1", scale="quick")
    assert settings_gaps(ACCURACY, quick) == ["10 epochs for the paper's 80", "games scoring 68-144 kept for the "
                                              "paper's 70-82"]
    row = claims_table([ACCURACY], {"neural_table1": quick}).iloc[0]
    assert (row["verdict"], row["scaled_down_verdict"]) == (NOT_RUN, "")
    assert "`make morpion-table1 SCALE=quick` makes it" in row["detail"]


def test_table_4_has_one_run_per_row_and_is_never_judged(tmp_path):
    claim = Claim("P", "t4", "NeuralNRPA(2) A highest", "neural_table4", "compare", basis="final scores",
                  pairs=(("NeuralNRPA(2) A", "NeuralNMCS(1)c A"),), settings=(("hours", 180),))
    absent = neural_source(tmp_path / "a", "neural_table4", scale="paper")
    assert settings_gaps(claim, absent) == []  # paper scale: 10,800 minutes
    row = claims_table([claim], {"neural_table4": absent}).iloc[0]
    assert (row["verdict"], row["why"]) == ("not judged", UNTESTABLE) and row["detail"].startswith("one run per row")
    made = neural_source(tmp_path / "b", "neural_table4", results={"settings": {"minutes": 2.5}, "columns": {
        "NeuralNRPA(2) A": [41.0], "NeuralNMCS(1)c A": [44.0]}})
    assert settings_gaps(claim, made) == ["0.0417 h of Expert Iteration per row for the paper's 180 h"]
    row = claims_table([claim], {"neural_table4": made}).iloc[0]
    assert (row["verdict"], row["why"]) == ("not judged", UNTESTABLE)  # more hours would not make it testable
    assert row["detail"].endswith("; ours: NeuralNMCS(1)c A 44, NeuralNRPA(2) A 41")


def test_the_campaign_reads_neural_claims_and_grows_none_of_their_columns(tmp_path):
    from analysis.claims import decide
    from analysis.claims.campaign import ClaimState, plan_round

    source = neural_source(tmp_path, "neural_table1", results=table1_results(AS_THE_PAPER))
    row = decide.decide_table([ACCURACY], {"neural_table1": source}, cap=200).iloc[0]
    assert row["columns"] == [] and row["cpu_seconds"] == 0 and row["runs"] == 2
    assert row["verdict"] == "inconclusive"  # 2 games: fewer than a confidence sequence reads
    states = [ClaimState("neural", (), "inconclusive", 40.0, 15)]
    plan = plan_round(states, {}, {}, left=1e6, round_budget=1e6, cap=200)
    assert plan.capped == ["neural"] and plan.targets == {}


@pytest.mark.parametrize("entry, message", [
    ("experiment: neural_table2\n    test: value\n    variant: Resnet R2\n    published: mean\n    margin: 1",
     "test=value is not valid on the neural pipeline's results: compare"),
    ("experiment: neural_table5\n    test: compare\n    pairs: [[a, b]]",
     "experiment='neural_table5' is not valid: did you mean neural_table4?"),
    ("experiment: neural_table1\n    test: compare\n    pairs: [[a, b]]\n    settings: {keep: 70}",
     "settings.keep=70 must be [lowest, highest]"),
    ("experiment: neural_table1\n    test: compare\n    pairs: [[a, b]]\n    settings: {epochs: many}",
     "settings.epochs='many' must be a number > 0"),
])
def test_a_wrong_neural_claim_is_refused_with_what_is_wrong(tmp_path, entry, message):
    (tmp_path / "paper.yaml").write_text(
        "paper: P\nclaims:\n  - id: c1\n    kind: paper\n    text: T\n    source: {where: Table 1, quote: Q}\n"
        f"    settings: {{}}\n    basis: final scores\n    {entry}\n")
    with pytest.raises(InputError, match=message.replace("(", r"\(").replace("[", r"\[")):
        load_claims(tmp_path)


def test_a_neural_claim_on_a_column_neither_source_has_is_refused_before_any_work():
    claim = Claim("P", "c1", "T", "neural_table2", "compare", basis="final scores", pairs=(("Resnet R3", "Uniform"),))
    with pytest.raises(InputError, match=r"\['Resnet R3'\] are not columns of neural_table2 or morpion_table2"):
        load_experiments([claim], ["scale=smoke"])


@pytest.mark.slow  # end to end, over 10 s
def test_every_claim_of_the_neural_file_is_scaled_down_at_quick_scale(tmp_path):
    """The quick scale trains 10 epochs on games scoring 68 and up, and runs Expert Iteration
    2.5 minutes a row: every claim is away from its paper's settings (not run there)."""
    claims = load_claims(files=["morpion_neural"])
    assert len(claims) == 10 and all(claim.kind == "paper" and claim.settings for claim in claims)
    assert {claim.experiment for claim in claims} == {"neural_table1", "neural_table2", "neural_table3",
                                                      "neural_table4"}
    assert list(load_experiments(claims, ["scale=quick"])) == ["morpion_table2"]  # what `make claims` runs
    for claim in claims:
        assert settings_gaps(claim, neural_source(tmp_path, claim.experiment, scale="quick")), claim.id


@pytest.mark.slow  # NRPA games, three networks trained, games sampled, a nested game: a few minutes on 2 cores
def test_the_neural_claims_on_the_smoke_pipelines_own_results(tmp_path):
    from analysis.claims.report import claims_report
    from tests.conftest import cli, run_experiment

    run_experiment("morpion_table2", tmp_path)
    for step in ("table2", "table1", "table3"):
        done = cli("-m", "analysis.results.neural", step, "scale=smoke", "device=cpu", f"outputs_dir={tmp_path}")
        assert done.returncode == 0, done.stderr
    claims_report(["scale=smoke", f"outputs_dir={tmp_path}"], files=["morpion_neural"])
    table = pd.read_csv(tmp_path / "claims" / "claims_smoke_morpion_neural.csv").set_index("claim")
    exit_rows = table["experiment"] == "neural_table4"  # one run per row: no run can test them
    assert (table.loc[~exit_rows, "verdict"] == NOT_RUN).all()  # smoke: 2 epochs on 20 games of NRPA(1)
    assert (table.loc[exit_rows, "verdict"] == "not judged").all()
    networks = table[table["experiment"] != "neural_table4"]
    assert networks["gaps"].str.contains("2 epochs for the paper's 80; 20 games imitated for the paper's 9141").all()
    for claim in ("morpion-r2-accuracy-above-r1", "morpion-r2-mean-above-r1", "morpion-r2-above-uniform"):
        assert table.loc[claim, "scaled_down_verdict"] in ("supported", "contradicted", "inconclusive")
    # Table 1: the effect is the deciding pair's difference of the accuracies Table 1 reports
    accuracy = pd.read_csv(tmp_path / "tables" / "morpion_table1_smoke.csv").set_index("network")
    row = table.loc["morpion-r2-accuracy-above-r1"]
    better, worse = row["detail"].split(" (of")[0].split(" vs ")
    assert row["effect"] == pytest.approx(100 * (accuracy.loc[better, "held_out_accuracy"]
                                                 - accuracy.loc[worse, "held_out_accuracy"]))
    assert row["evaluated_at"].startswith(f"{accuracy['held_out_positions'].iloc[0]} held-out positions")
    # Table 2: ResNet R2's sampled games against morpion_table2's Uniform runs
    sampled = pd.read_csv(tmp_path / "tables" / "morpion_table2_neural_smoke.csv").set_index("network")
    runs = pd.read_csv(tmp_path / "tables" / "morpion_table2_smoke.csv").set_index("variant")
    assert table.loc["morpion-r2-above-uniform", "effect"] == pytest.approx(
        sampled.loc["Resnet R2", "mean"] - runs.loc["Uniform", "mean"])
    # Table 3: one nested game at smoke scale, Table 4 not made: not judged, and why
    assert table.loc["morpion-nested-above-resnet", "detail"] == "Nested(1) + Resnet R2 has 1 game: a test needs 2 or more"
    assert table.loc["morpion-exit-nrpa-best-expert", "detail"].startswith("one run per row")
    assert "`make morpion-table4 SCALE=smoke` makes it" in table.loc["morpion-exit-nrpa-best-expert", "detail"]
