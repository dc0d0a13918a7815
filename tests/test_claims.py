"""Verdicts on published claims: the statistics on cases checkable by hand, the engine-speed
factor on curves with a known shift, the claim files, and the report on smoke runs."""

import math

import numpy as np
import pandas as pd
import pytest

from dataclasses import replace

from analysis.claims import verdicts
from analysis.claims.files import Claim, load_claims, load_experiments, load_not_tested
from analysis.results.speedup import engine_speed, published_improvements
from nrpa.errors import InputError
from tests.conftest import cli, run_experiment

CHECKPOINTS = 0.01 * 2.0 ** np.arange(15)  # the papers' 0.01 .. 163.84 s


def curve_runs(score, *, runs: int = 20, seed: int = 0):
    """Runs whose best-so-far follows ``score(t)`` plus a per-run offset, on a fine time grid."""
    times = np.exp(np.linspace(np.log(0.001), np.log(10.24), 400))
    rng = np.random.default_rng(seed)
    return [(times, np.maximum.accumulate(score(times) + rng.normal(0, 3))) for _ in range(runs)]


def test_a_known_shift_of_the_published_curve_recovers_its_k():
    # ours(t) = 100 log2(t / 0.0005); published(t) = ours(t / 3): we score at t as they do at 3t
    ours = lambda t: 100 * np.log2(t / 0.0005)  # noqa: E731
    speed = engine_speed({"A": curve_runs(ours)}, {"A": (CHECKPOINTS, ours(CHECKPOINTS / 3))})
    assert speed["k"] == pytest.approx(3, rel=0.03)
    assert speed["ci_low"] <= speed["k"] <= speed["ci_high"]
    # the published points at t = 40.96 s and after are reached by our curve only after
    # its last time, 10.24 s (t / 3 = 13.65 s): the 12 from 0.01 to 20.48 s are placed
    assert speed["points"] == 12
    # two variants with shifts 2 and 8 pool to the geometric mean 4, each seen alone
    pooled = engine_speed({"A": curve_runs(ours), "B": curve_runs(ours, seed=1)},
                          {"A": (CHECKPOINTS, ours(CHECKPOINTS / 2)), "B": (CHECKPOINTS, ours(CHECKPOINTS / 8))})
    assert pooled["per_variant"]["A"] == pytest.approx(2, rel=0.03)
    assert pooled["per_variant"]["B"] == pytest.approx(8, rel=0.03)
    assert 2 < pooled["k"] < 8


def test_flat_published_stretches_date_nothing_and_are_left_out():
    times, values = published_improvements([0.01, 0.02, 0.04, 0.08], [5, 7, 7, 9])
    assert times.tolist() == [0.01, 0.02, 0.08] and values.tolist() == [5, 7, 9]


def test_a_claim_on_two_constant_samples_gets_the_verdict_it_must():
    high, low = np.full(20, 10.0), np.full(20, 5.0)
    above = verdicts.compare([("high vs low", high, low)])
    assert (above.p_support, above.p_contradict, above.effect) == (0.0, 1.0, 5.0)
    assert verdicts.verdict(above.p_support, above.p_contradict) == "supported"
    below = verdicts.compare([("low vs high", low, high)])
    assert verdicts.verdict(below.p_support, below.p_contradict) == "contradicted"
    tie = verdicts.compare([("same", high, high)])
    assert verdicts.verdict(tie.p_support, tie.p_contradict) == "inconclusive"
    assert verdicts.runs_to_decide(tie, family=1) == math.inf  # no effect: no number of runs decides


def test_where_the_p_values_underflow_to_0_the_smallest_t_decides():
    """Welch's p-values of two overwhelming comparisons are both 0.0: the weaker evidence (the
    smaller t) decides, not the lower difference."""
    rng = np.random.default_rng(5)
    base = rng.normal(0, 1, 2000)
    steady, spread = 100.0 + rng.normal(0, 1, 2000), 300.0 + rng.normal(0, 30, 2000)
    assert verdicts.welch(steady, base).p_greater == verdicts.welch(spread, base).p_greater == 0.0
    assert verdicts.welch(spread, base).t < verdicts.welch(steady, base).t
    evidence = verdicts.compare([("steady vs base", steady, base), ("spread vs base", spread, base)])
    assert evidence.detail == "spread vs base (of 2 comparisons)"


def test_a_claim_over_several_comparisons_holds_only_if_each_does():
    rng = np.random.default_rng(0)
    a, b, c = rng.normal(10, 1, 30), rng.normal(0, 1, 30), rng.normal(10.2, 1, 30)
    clear = verdicts.compare([("a vs b", a, b)])
    both = verdicts.compare([("a vs b", a, b), ("a vs c", a, c)])
    assert clear.p_support < 1e-10
    # the weakest comparison decides (intersection-union), and names itself
    assert both.p_support == pytest.approx(verdicts.welch(a, c).p_greater)
    assert both.detail == "a vs c (of 2 comparisons)"
    # an opposite comparison counts times the number of comparisons (Bonferroni)
    assert both.p_contradict == pytest.approx(min(1, 2 * verdicts.welch(a, c).p_less))


def test_welch_matches_the_hand_formula():
    a, b = np.array([1.0, 2, 3, 4, 5]), np.array([2.0, 4, 6, 8, 10])
    # difference -3, se sqrt(2.5/5 + 10/5) = sqrt(2.5); Welch dof = 2.5^2 / (0.5^2/4 + 2^2/4) = 5.882...
    test = verdicts.welch(a, b)
    dof = 2.5 ** 2 / (0.5 ** 2 / 4 + 2 ** 2 / 4)
    from scipy import stats
    assert test.difference == -3 and test.se == pytest.approx(math.sqrt(2.5))
    assert test.p_less == pytest.approx(stats.t.cdf(-3 / math.sqrt(2.5), dof))
    half = stats.t.ppf(0.975, dof) * math.sqrt(2.5)
    assert (test.low, test.high) == pytest.approx((-3 - half, -3 + half))


def test_holm_on_a_hand_made_list():
    # sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1 = 0.02, 0.03, 0.06, 0.04 -> running max 0.06
    adjusted = verdicts.holm([0.01, 0.04, 0.03, np.nan, 0.005])
    np.testing.assert_allclose(adjusted, [0.03, 0.06, 0.06, np.nan, 0.02])
    assert verdicts.holm([0.5, 0.9]).tolist() == [1.0, 1.0]


def test_a_published_value_holds_within_its_margin_or_is_contradicted():
    near = verdicts.value(np.full(50, 58.4), 58.5, 0.5)
    assert verdicts.verdict(near.p_support, near.p_contradict) == "supported"
    far = verdicts.value(np.full(50, 60.0), 58.5, 0.5)
    assert verdicts.verdict(far.p_support, far.p_contradict) == "contradicted"
    assert far.effect == pytest.approx(1.5)
    noisy = verdicts.value(np.random.default_rng(0).normal(58.5, 10, 10), 58.5, 0.5)
    assert verdicts.verdict(noisy.p_support, noisy.p_contradict) == "inconclusive"
    assert verdicts.runs_to_decide(noisy, family=1) > 10


def test_a_total_over_boards_is_the_sum_of_the_per_board_differences():
    better = [np.array([10.0, 12]), np.array([20.0, 20])]
    worse = [np.array([9.0, 9]), np.array([19.0, 19])]
    total = verdicts.total(better, worse, resamples=2000)
    assert total.effect == pytest.approx(3.0)  # (11 - 9) + (20 - 19)
    assert total.p_support < 0.01 and verdicts.verdict(total.p_support, total.p_contradict) == "supported"


def test_a_constant_gain_per_doubling_is_supported_and_a_vanishing_one_contradicted():
    rng = np.random.default_rng(0)
    steady = 100 * np.arange(8) + rng.normal(0, 5, (30, 8))  # 100 a doubling
    evidence = verdicts.gain(steady, resamples=500)
    assert evidence.effect == pytest.approx(100, rel=0.05)  # the slope per doubling
    assert verdicts.verdict(evidence.p_support, evidence.p_contradict) == "supported"
    fading = np.cumsum([0, 64, 32, 16, 8, 4, 2, 1]) + rng.normal(0, 1, (30, 8))  # late / early = 1/16
    evidence = verdicts.gain(fading, resamples=500)
    assert verdicts.verdict(evidence.p_support, evidence.p_contradict) == "contradicted"


def test_the_claim_files_load_and_name_known_tests_and_experiments():
    claims = load_claims()
    assert {claim.paper for claim in claims} >= {
        "NRPA with Selective Policies (Cazenave, CGW 2016)",
        "Stabilized NRPA (Cazenave, Sevestre, Toulemont, MCS@IJCAI 2020)",
        "GNRPA (Cazenave 2020)", "GNRPA with limited repetitions (Cazenave 2024)"}
    assert all(claim.pairs or claim.variant for claim in claims)


@pytest.mark.slow  # end to end, over 10 s
def test_the_claims_of_some_files_only_and_an_unknown_file_refused():
    assert {claim.paper for claim in load_claims(files=["gnrpa"])} == {"GNRPA (Cazenave 2020)"}
    done = cli("-m", "analysis.claims.report", "scale=quick", "--experiments", "--files", "gnrpa", "gnrpa_lr")
    assert done.returncode == 0 and done.stdout.split() == ["family_samegame", "family_tsptw", "family_weakschur"]
    refused = cli("-m", "analysis.claims.report", "scale=quick", "--files", "gnrpa", "nope")
    assert refused.returncode == 2 and "no claims file nope: choose among" in refused.stderr


SOURCE = "source: {where: Table 3, quote: the tabu strategy is a large improvement}"


@pytest.mark.parametrize("entry, message", [
    ("test: bigger", "test='bigger' is not valid"),
    ("test: compare\n    better: [a]\n    than: [b]\n    at: soon", "at='soon' is not valid"),
    ("test: value\n    variant: NRPA(1)", "needs published, margin"),
    ("test: compare\n    bettr: [a]", "unknown key(s) ['bettr']"),
    ("test: compare\n    kind: rumour", "kind='rumour' is not valid: choose one of paper, transfer, observation"),
    ("test: compare\n    source: {where: Table 3}", "source must be {where:"),
    ("test: compare\n    settings: {threads: many}", "settings.threads='many' must be a number"),
    ("test: compare\n    settings: {unstated: N}", "settings.unstated must be a list"),
])
def test_a_wrong_claim_file_is_refused_with_what_is_wrong(tmp_path, entry, message):
    # the later of two equal keys wins: each case's own kind or source replaces the defaults
    (tmp_path / "paper.yaml").write_text(
        f"paper: P\nclaims:\n  - id: c1\n    kind: paper\n    text: T\n    {SOURCE}\n    settings: {{}}\n"
        f"    experiment: selective_table3\n    basis: equal time\n    {entry}\n")
    with pytest.raises(InputError, match=message.replace("(", r"\(").replace(")", r"\)").replace("[", r"\[")):
        load_claims(tmp_path)


def test_a_paper_claim_needs_its_source_and_settings(tmp_path):
    (tmp_path / "paper.yaml").write_text(
        "paper: P\nclaims:\n  - id: c1\n    kind: paper\n    text: T\n    experiment: selective_table3\n"
        "    test: compare\n    basis: equal time\n    pairs: [[tabu, no_tabu]]\n")
    with pytest.raises(InputError, match=r"missing \['settings', 'source'\]"):
        load_claims(tmp_path)


def test_every_claim_file_gives_each_claim_a_kind_a_quoted_source_and_the_papers_settings():
    claims = load_claims()
    assert {claim.kind for claim in claims} == {"paper", "transfer", "observation"}
    for claim in claims:
        assert claim.where and claim.quote, claim.id
        assert claim.kind != "paper" or claim.settings, claim.id
    # the harness's own hypotheses are not the papers'
    assert {c.id for c in claims if c.kind == "observation"} >= {"nrpa-constant-gain-samegame", "nrpa-constant-gain-tsptw"}
    assert all(c.kind == "transfer" for c in claims if c.file == "gelly")


def test_a_claim_on_a_column_the_experiment_lacks_is_refused_before_any_work():
    claim = Claim("P", "c1", "T", "selective_table3", "compare", pairs=(("tabu", "no such rule"),))
    with pytest.raises(InputError, match="'no such rule'.* are not columns of selective_table3"):
        load_experiments([claim], ["scale=smoke"])


@pytest.mark.slow
def test_every_claim_names_columns_of_its_experiment():
    assert len(load_experiments(load_claims(), ["scale=quick"])) >= 10


@pytest.mark.slow  # end to end, over 10 s
def test_the_claims_report_on_smoke_runs(tmp_outputs):
    run_experiment("selective_table3", tmp_outputs)
    claims = [Claim("P", "tabu-first", "tabu above no tabu", "selective_table3", "compare",
                    pairs=(("tabu", "no_tabu"),), at="every"),
              Claim("P", "late", "t > 10 above tabu at 163.84 s", "selective_table3", "compare",
                    pairs=(("t_gt_10", "tabu"),), at="last"),
              Claim("P", "steady", "tabu gains steadily", "selective_table3", "gain", variant="tabu", start=0.08)]
    from analysis.claims.report import claims_report
    paths = claims_report(["scale=smoke", f"outputs_dir={tmp_outputs}"], claims)
    assert {p.name for p in paths} == {"claims_smoke.csv", "claims_smoke.md", "claims_smoke.png", "claims_smoke.pdf"}
    table = pd.read_csv(tmp_outputs / "claims" / "claims_smoke.csv")
    # two claims, each at the published time and at matched time (the table states its R and rho)
    assert table[["claim", "basis"]].values.tolist() == [
        ["tabu-first", "published time"], ["tabu-first", "matched time"],
        ["late", "published time"], ["late", "matched time"], ["steady", "published time"]]
    assert set(table["verdict"][:4]) <= {"supported", "contradicted", "inconclusive"}
    # smoke runs end at 0.08 s: no doublings to judge a gain on, and the report says so
    assert (table["verdict"][4], table["why"][4]) == ("not run", "needs compute") and "runs end at 0.08 s" in table["detail"][4]
    late = table[table["claim"] == "late"]["evaluated_at"].tolist()
    assert late[0] == "0.08 s: the runs end there; the claim is at 163.84 s"
    # at matched time: each column on the playouts axis at t x R x rho(column); the runs end at the
    # published seconds whose work the fewest playouts of a column reach, against the claim's 163.84 s
    from analysis.results.report import collect
    experiment = load_experiments(claims, ["scale=smoke", f"outputs_dir={tmp_outputs}"])["selective_table3"]
    runs = collect(experiment).records
    rate = experiment.published_rate
    last = min((min(r["result"]["playouts"] for r in runs[label]) + 0.5) / rate.work(1.0, label)
               for label in ("t_gt_10", "tabu"))  # within half a playout: a budget is a whole number of them
    assert late[1] == (f"{last:.4g} s at matched time (each column at t x R x rho playouts): the runs end there; "
                       "the claim is at 163.84 s")
    report = (tmp_outputs / "claims" / "claims_smoke.md").read_text()
    assert "# Claims report (smoke scale)" in report and "t > 10 above tabu at 163.84 s" in report
    assert "1 not run at the paper's settings (0 needs hardware, 1 needs compute)" in report
    assert "## The papers' claims" in report


def test_the_claims_command_refuses_a_scale_it_does_not_know():
    done = cli("-m", "analysis.claims.report", "scale=huge")
    assert done.returncode == 2 and "huge" in done.stderr and "Traceback" not in done.stderr


def test_matched_work_runs_the_papers_protocol_at_the_papers_work_in_playouts():
    from experiments.experiment import load_experiment
    experiment = load_experiment(["experiment=stabilized_table4", "scale=paper", "matched_work=true"])
    rate = experiment.published_rate
    assert all(v.job.settings.max_time is None and v.job.settings.max_playouts == rate.budget(163.84, v.label)
               for v in experiment.variants)
    nrpa = next(v for v in experiment.variants if v.label == "NRPA")
    assert nrpa.job.settings.max_playouts == round(163.84 * rate.R)  # the baseline: rho 1
    assert experiment.output_name == "stabilized_table4_paper_work"


@pytest.mark.parametrize("arguments", [["domain=morpion"], ["experiment=morpion_table2", "scale=smoke"]])
def test_matched_work_without_a_published_rate_is_refused_before_any_work(arguments):
    done = cli("run.py", *arguments, "matched_work=true")
    assert done.returncode == 2 and "report.published_rate" in done.stderr and "Traceback" not in done.stderr


def test_the_report_names_a_contradicted_claim_in_plain_words():
    from analysis.claims.report import in_short
    table = pd.DataFrame([
        {"claim": "a", "text": "A beats B.", "basis": "published time", "verdict": "contradicted"},
        {"claim": "a", "text": "A beats B.", "basis": "matched time", "verdict": "supported"},
        {"claim": "c", "text": "C scores 5.", "basis": "published time", "verdict": "inconclusive"},
        {"claim": "d", "text": "D scores 6.", "basis": "published time", "verdict": "contradicted"},
        {"claim": "e", "text": "E carries over.", "basis": "published time", "verdict": "contradicted"}])
    table["kind"] = ["paper"] * 4 + ["transfer"]
    lines = in_short(table)
    assert "- A beats B. (at published time)" in lines
    assert "- D scores 6." in lines  # judged on one basis only: no need to name it
    assert "- E carries over." not in lines  # a transfer is not the paper's claim
    assert "| A beats B. | paper | contradicted | supported |" in lines
    assert "| C scores 5. | paper | inconclusive | n/a |" in lines
    assert "Our runs contradict none" in in_short(table[table["verdict"] != "contradicted"])[2]


# --- the paper's settings: a verdict only where the runs match them ---

def source_of(name, *overrides):
    from analysis.claims.sources import Source
    from analysis.results.report import Runs
    from experiments.experiment import load_experiment
    return Source(load_experiment([f"experiment={name}", *overrides]), Runs({}, {}))


def test_a_claim_at_settings_the_runs_scale_down_names_each_gap():
    from analysis.claims.paper_settings import settings_gaps
    claim = Claim("P", "f4", "shared L=1 best", "distributed_fig4", "compare", basis="wall time",
                  pairs=(("strategy=leaf_shared threads=2", "strategy=node2_shared threads=2"),),
                  settings=(("seconds", 500), ("threads", 32), ("level", 4)))
    gaps = settings_gaps(claim, source_of("distributed_fig4", "scale=quick"))
    assert gaps == ["threads 2 for the paper's 32", "5.12 s for the paper's 500 s"]  # level 4 matches
    # the same claim as a transfer: its settings are the paper's, not a bar for our runs
    assert settings_gaps(replace(claim, kind="transfer"), source_of("distributed_fig4", "scale=quick")) == []


@pytest.mark.slow  # end to end, over 10 s
def test_matched_work_meets_the_papers_seconds_in_playouts_and_a_smoke_budget_does_not():
    from analysis.claims.paper_settings import settings_gaps
    claim = Claim("P", "late", "t > 10 above tabu", "selective_table3", "compare", pairs=(("t_gt_10", "tabu"),),
                  settings=(("seconds", 163.84), ("threads", 1)))
    assert settings_gaps(claim, source_of("selective_table3", "scale=paper", "matched_work=true")) == []
    # round(163.84 x R) playouts are a hair under 163.84 s of the published work: no gap either
    for name in ("stabilized_table1", "stabilized_table3", "stabilized_table4", "selective_table2", "selective_table5"):
        labels = {v.label for v in source_of(name, "scale=paper", "matched_work=true").experiment.variants}
        anyone = replace(claim, experiment=name, pairs=((sorted(labels)[0], sorted(labels)[1]),))
        assert settings_gaps(anyone, source_of(name, "scale=paper", "matched_work=true")) == [], name
    # smoke: 0.08 s of each column's work (rounded to whole playouts: 0.0798 s of one of them)
    (gap,) = settings_gaps(claim, source_of("selective_table3", "scale=smoke", "matched_work=true"))
    assert gap in ("0.08 s for the paper's 163.84 s", "0.0798 s for the paper's 163.84 s")


def test_complete_searches_and_unstated_settings_are_gaps():
    from analysis.claims.paper_settings import settings_gaps
    claim = Claim("P", "t", "SNRPA(4) total above NRPA's", "stabilized_table2", "total", pairs=(("SNRPA(4)", "NRPA"),),
                  settings=(("level", 4), ("complete", True), ("unstated", ("N",))))
    assert settings_gaps(claim, source_of("stabilized_table2", "scale=quick")) == [
        "the paper does not state N", "searches stopped at 12 s for the paper's complete searches"]


@pytest.mark.slow  # end to end, over 10 s
def test_a_column_only_the_paper_scale_has_is_a_gap_and_a_misspelt_one_an_error():
    from analysis.claims.files import check_columns
    from analysis.claims.paper_settings import settings_gaps
    from experiments.experiment import load_experiment
    quick = load_experiment(["experiment=distributed_fig4", "scale=quick"])
    paper_only = Claim("P", "32", "32 above 16", "distributed_fig4", "compare", basis="wall time",
                       pairs=(("strategy=leaf_shared threads=32", "strategy=leaf_shared threads=16"),))
    at_paper = load_experiment(["experiment=distributed_fig4", "scale=paper"])
    if "strategy=leaf_shared threads=32" in {v.label for v in at_paper.variants}:
        check_columns([paper_only], "distributed_fig4", quick, ["scale=quick"])  # no error
        assert settings_gaps(paper_only, source_of("distributed_fig4", "scale=quick"))[0] == \
            "strategy=leaf_shared threads=16, strategy=leaf_shared threads=32 run only at scale=paper"
    misspelt = replace(paper_only, pairs=(("strategy=leaf_sharde threads=2", "strategy=leaf_shared threads=1"),))
    with pytest.raises(InputError, match="leaf_sharde"):
        check_columns([misspelt], "distributed_fig4", quick, ["scale=quick"])


def test_the_most_threads_placeholder_reads_the_experiments_largest_thread_count():
    from analysis.claims.files import resolve
    claim = Claim("P", "f4", "best on the most threads", "distributed_fig4", "compare", basis="wall time",
                  pairs=(("strategy=leaf_shared threads={threads}", "strategy=leaf_shared threads=1"),))
    assert resolve(claim, source_of("distributed_fig4", "scale=quick").experiment).pairs == (
        ("strategy=leaf_shared threads=2", "strategy=leaf_shared threads=1"),)


def test_a_claim_not_run_at_its_papers_settings_keeps_what_its_runs_say_apart_and_out_of_the_judged_family():
    from analysis.claims.judging import NOT_RUN, apply_settings
    strong = object()  # any evidence: the verdict reads the p-values
    table = pd.DataFrame([
        {"kind": "paper", "gaps": "", "why": "", "judged_on": "the stated settings", "p_support": 0.01,
         "p_contradict": 1.0, "_evidence": strong},
        {"kind": "paper", "gaps": "2 threads for the paper's 32", "why": "needs hardware", "judged_on": "",
         "p_support": 0.001, "p_contradict": 1.0, "_evidence": strong},
        {"kind": "transfer", "gaps": "", "why": "", "judged_on": "", "p_support": 1.0, "p_contradict": 0.001,
         "_evidence": strong}])
    table = apply_settings(table)
    assert table["verdict"].tolist() == ["supported", NOT_RUN, "contradicted"]
    assert table["why"].tolist() == ["", "needs hardware", ""]
    assert table["scaled_down_verdict"].tolist() == ["", "supported", ""]
    # three families of one: Holm leaves each p-value as it is
    assert table["p_support_holm"].tolist() == [0.01, 0.001, 1.0]


def test_a_claim_on_a_named_reading_is_judged_and_says_so():
    from analysis.claims.judging import ON_READING, apply_settings
    table = apply_settings(pd.DataFrame([
        {"kind": "paper", "gaps": "the paper does not state the level", "why": "", "judged_on": ON_READING,
         "p_support": 0.001, "p_contradict": 1.0, "_evidence": object()},
        {"kind": "paper", "gaps": "the paper does not state the level", "why": "", "judged_on": ON_READING,
         "p_support": math.nan, "p_contradict": math.nan, "_evidence": None}]))  # no runs yet
    assert table["verdict"].tolist() == ["supported", "not run"]
    assert table["judged_on"].tolist() == [ON_READING, ""] and table["why"].tolist() == ["", "needs compute"]


def test_a_claim_no_run_can_test_is_not_judged():
    from analysis.claims.judging import UNTESTABLE, apply_settings
    table = apply_settings(pd.DataFrame([{"kind": "paper", "gaps": "180 h for the paper's ...", "why": UNTESTABLE,
                                          "judged_on": "", "p_support": math.nan, "p_contradict": math.nan,
                                          "_evidence": None}]))
    assert (table["verdict"].iloc[0], table["why"].iloc[0]) == ("not judged", UNTESTABLE)


def test_a_claim_on_a_reading_its_papers_baseline_rejects_is_not_judged_and_gets_no_runs(tmp_path):
    from analysis.claims import reading_cases
    from analysis.claims.judging import ON_READING, READING_REJECTED, apply_settings
    from analysis.claims.decide import campaign_verdicts
    table = apply_settings(pd.DataFrame([{"kind": "paper", "gaps": "the paper does not state the level",
                                          "why": READING_REJECTED, "judged_on": ON_READING, "p_support": 0.001,
                                          "p_contradict": 1.0, "_evidence": object()}]))
    assert (table["verdict"].iloc[0], table["why"].iloc[0], table["judged_on"].iloc[0]) == \
        ("not judged", READING_REJECTED, "")
    assert campaign_verdicts(table) == ["not run"]
    # the committed fit: the row of analysis/readings.yaml's current reading, whatever was current then
    fit = tmp_path / "readings.csv"
    pd.DataFrame([
        {"case": "tsptw_moves", "setting": "S", "candidate": "all", "current": False, "status": "rejected: does not fit",
         "inside": 11, "cells": 15, "z2_per_cell": 5.21, "worst_z": 5.02, "worst_bound": 2.94, "runs": 20},
        {"case": "tsptw_moves", "setting": "S", "candidate": "pruned", "current": True, "status": "chosen",
         "inside": 5, "cells": 15, "z2_per_cell": 1.0, "worst_z": 2.0, "worst_bound": 2.94, "runs": 10}]).to_csv(fit, index=False)
    reading_cases.committed_fits.cache_clear()
    try:
        rows = reading_cases.committed_fits(fit)
    finally:
        reading_cases.committed_fits.cache_clear()
    assert [row["candidate"] for row in rows["stabilized_table3"]] == ["all"]
    assert reading_cases.rejects(rows["stabilized_table3"][0])
    assert reading_cases.fit_text(rows["stabilized_table3"][0]) == (
        "S: all; by the published baseline: rejected: does not fit (11 of 15 cells inside our 95% interval, "
        "mean z^2 5.21, largest abs(z) 5.02 for a bound of 2.94, the 0.01 s cells left out, 20 runs a column; "
        "docs/results/readings.md)")
    # a case without a committed row: not fitted, no rejection
    assert rows["stabilized_table1"][0]["status"] == "not fitted"


def test_a_campaign_makes_no_runs_for_a_claim_away_from_its_papers_settings():
    from analysis.claims.judging import NOT_RUN
    from analysis.claims.campaign import ClaimState, plan_round
    states = [ClaimState("away", ("a",), NOT_RUN, math.nan, 15),
              ClaimState("here", ("b",), "not judged", math.nan, 15)]
    plan = plan_round(states, {"a": 0, "b": 0}, {"a": 1.0, "b": 1.0}, left=1e6, round_budget=1e6, cap=200)
    assert plan.capped == ["away"] and plan.targets == {"b": 15}


def test_a_claim_at_the_end_reads_where_every_run_ends_between_two_doublings():
    """Figure 3's complete level-4 executions end at (N/M) x M x N^3 playouts (96 x 10^6 with
    16 threads), between two doublings of 100: "at the end" is there, not at the doubling before."""
    from types import SimpleNamespace

    from analysis.claims.basis import checkpoint_times
    from analysis.claims.sources import Source

    untimed = SimpleNamespace(settings=SimpleNamespace(max_time=None, clock="wall"))
    experiment = SimpleNamespace(variants=[SimpleNamespace(label=label, job=untimed) for label in ("a", "b")],
                                 reference=None)
    runs = SimpleNamespace(records={"a": [{"result": {"playouts": 96_000_000}}] * 2,
                                    "b": [{"result": {"playouts": 100_000_000}}] * 2})
    source = Source(experiment, runs)
    at_end = Claim("P", "end", "a above b", "x", "compare", pairs=(("a", "b"),), at="last", axis="playouts")
    assert checkpoint_times(at_end, source, "playouts") == ([(96_000_000, {"a": 96_000_000, "b": 96_000_000})],
                                                            "9.6e+07 playouts")
    every = Claim("P", "every", "a above b", "x", "compare", pairs=(("a", "b"),), at="every", axis="playouts")
    points, _ = checkpoint_times(every, source, "playouts")
    assert [t for t, _ in points] == [100 * 2**k for k in range(20)] + [96_000_000]  # 100 x 2^19 = 52,428,800 < 96e6


def test_a_speedup_within_the_papers_band_is_supported_and_one_far_below_contradicted():
    inside = verdicts.speedup(2.1, np.full(999, 2.1), 2.0, 0.5, runs=10)
    # every replicate inside [1.5, 2.5]: each one-sided p is 1 / 1000
    assert inside.p_support == pytest.approx(1 / 1000) and verdicts.verdict(inside.p_support, inside.p_contradict) == \
        "supported"
    below = verdicts.speedup(1.0, np.full(999, 1.0), 2.0, 0.5, runs=10)
    assert verdicts.verdict(below.p_support, below.p_contradict) == "contradicted"
    assert below.effect == pytest.approx(-1.0)
    # replicates beyond anything the sequential runs reached (NaN) count as above the band
    beyond = verdicts.speedup(np.nan, np.full(999, np.nan), 2.0, 0.5, runs=10)
    assert verdicts.verdict(beyond.p_support, beyond.p_contradict) == "contradicted"


def test_a_speedup_claim_needs_a_published_number(tmp_path):
    (tmp_path / "paper.yaml").write_text(
        f"paper: P\nclaims:\n  - id: c1\n    kind: transfer\n    text: T\n    {SOURCE}\n"
        "    experiment: spmcts_speedup\n    test: speedup\n    basis: wall time\n    variant: sequential\n"
        "    published: two\n"
        "    margin: 0.5\n")
    with pytest.raises(InputError, match="test=speedup needs published: the speed-up the paper gives, a number"):
        load_claims(tmp_path)


def test_the_speedup_samples_read_the_same_k_as_the_speedup_table():
    from analysis.results.speedup import column_speedup, speedup_samples

    def run(times, scores):
        return {"axes": {"wall_seconds": {"positions": times, "score": scores}}, "result": {"best_score": scores[-1]}}
    # the sequential runs reach 10 at 1 s and 20 at 2 s; the parallel ones reach 20 at 1 s: k = 2
    records = {"sequential": [run([0.5, 1.0, 2.0], [5, 10, 20])] * 3, "par": [run([0.5, 1.0], [10, 20])] * 3}
    k, samples = speedup_samples(records, "par", 1.0, resamples=50)
    assert k == pytest.approx(column_speedup(records, "par", 1.0, resamples=50)["k"]) == pytest.approx(2.0, rel=0.02)
    assert samples.shape == (50,)


def test_a_not_tested_line_without_its_reason_is_refused_naming_the_file(tmp_path):
    (tmp_path / "paper.yaml").write_text(
        "paper: P\nclaims: []\nnot_tested:\n  - {where: Section 1, quote: Q, why: W}\n  - {where: Section 2, quote: Q}\n")
    with pytest.raises(InputError, match=r"paper.yaml, not_tested entry 2: expected \{where"):
        load_not_tested(tmp_path)
    (tmp_path / "paper.yaml").write_text("paper: P\nclaims: []\nnot_testd: []\n")
    with pytest.raises(InputError, match=r"unknown key\(s\) \['not_testd'\]"):
        load_claims(tmp_path)
