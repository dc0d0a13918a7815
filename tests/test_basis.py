"""Each claim judged on the comparison its paper made: the basis a claim file states,
matched time per column (t x R x rho), the refusal of a reading of another basis, the whole
sample, the deciding comparison, and why a row is not judged, with its true cost."""

import math

import numpy as np
import pytest

from analysis.claims import sequential
from analysis.claims.basis import check_basis
from analysis.claims.files import Claim, load_claims
from analysis.claims.paper_settings import NEEDS_COMPUTE, NEEDS_HARDWARE, UNSTATED, Gap, paper_cost, why_not_judged
from analysis.claims.report import effect_cells
from analysis.claims.sources import Refused
from experiments.config import PublishedRate, RelativeRate
from experiments.experiment import load_experiment
from experiments.rates import baseline_of, geometric_summary
from nrpa.errors import InputError


def rate_with(rho: float) -> PublishedRate:
    return PublishedRate(1000.0, 900.0, 1100.0, ("base",), "test", (("other", RelativeRate(rho, rho, rho, "base")),))


def test_matched_time_gives_each_column_the_papers_work_for_it_and_a_budget_for_both_readings():
    faster, slower = rate_with(2.0), rate_with(0.5)
    assert faster.work(1.28, "base") == 1280 and faster.work(1.28, "other") == 2560  # t x R x rho
    assert slower.work(1.28, "other") == 640
    # one run serves matched time and equal playouts: its budget is the longer of the two
    assert (faster.budget(1.28, "other"), slower.budget(1.28, "other"), faster.budget(1.28, "base")) == (2560, 1280, 1280)


def test_the_maximum_tables_snrpa10_runs_at_paper_scale_have_about_twice_nrpas_playouts():
    experiment = load_experiment(["experiment=stabilized_table1", "scale=paper", "matched_work=true"])
    budgets = {v.label: v.job.settings.max_playouts for v in experiment.variants}
    rate = experiment.published_rate
    assert budgets["NRPA"] == round(163.84 * rate.R)
    assert budgets["SNRPA(10)"] == round(163.84 * rate.R * rate.rho("SNRPA(10)"))
    assert 1.6 < budgets["SNRPA(10)"] / budgets["NRPA"] < 2.4  # SNRPA(10) adapts once per 10 playouts


def test_a_column_without_a_measured_rho_has_no_matched_budget():
    with pytest.raises(InputError, match="experiments.rates"):
        load_experiment(["experiment=stabilized_table1", "scale=smoke", "matched_work=true",
                         "~report.published_rate.relative"])


def test_rho_is_the_geometric_mean_of_the_rounds_ratios_against_the_baseline_sharing_most_overrides():
    rho, low, high = geometric_summary([1.0, 4.0])
    assert rho == pytest.approx(2.0) and low < 2.0 < high
    assert geometric_summary([3.0, 3.0, 3.0]) == pytest.approx((3.0, 3.0, 3.0))
    experiment = load_experiment(["experiment=selective_table5", "scale=smoke"])
    by_label = {v.label: v for v in experiment.variants}
    assert baseline_of(by_label["ws_rule_7"], experiment).label == "ws_7"  # the same K, not ws_6


def claim(**fields) -> Claim:
    base = dict(paper="P", id="c", text="a above b", experiment="selective_table3", test="compare",
                pairs=(("tabu", "no_tabu"),))
    return Claim(**{**base, **fields})


def test_a_reading_of_another_basis_is_refused():
    check_basis(claim(basis="equal time"), "equal time")
    check_basis(claim(basis="final scores"), "complete searches")  # a complete search's final score is one
    for basis, reading in (("equal time", "equal playouts"), ("complete searches", "final scores"),
                           ("equal playouts", "equal time"), ("wall time", "equal time")):
        with pytest.raises(Refused, match=f"the paper compares at {basis}; these runs are read at {reading}"):
            check_basis(claim(basis=basis), reading)


def test_every_claim_file_states_its_basis_and_a_reading_for_what_its_paper_leaves_unstated(tmp_path):
    claims = load_claims()
    assert all(c.basis for c in claims)
    assert all(c.reading for c in claims if c.paper_settings.get("unstated"))
    entry = ("paper: P\nclaims:\n  - {id: x, kind: paper, text: t, source: {where: w, quote: q}, settings: {%s}, "
             "experiment: selective_table3, test: compare, %s pairs: [[tabu, no_tabu]]}\n")
    (tmp_path / "no_basis.yaml").write_text(entry % ("level: 4", ""))
    with pytest.raises(InputError, match="missing \\['basis'\\]"):
        load_claims(tmp_path)
    (tmp_path / "no_basis.yaml").write_text(entry % ("unstated: [N]", "basis: equal time,"))
    with pytest.raises(InputError, match="settings.unstated needs reading"):
        load_claims(tmp_path)


def test_the_effect_shown_is_the_comparison_furthest_from_the_claim_when_none_is_decided():
    noise = np.random.default_rng(1).normal(0, 400, 15)
    near, far = (sequential.Contrast("near", 3 + noise), sequential.Contrast("far", -30 + noise))
    evidence = sequential.judge([near, far])  # both undecided on 15 noisy runs: p-values all 1
    assert evidence.detail.startswith("far") and evidence.effect == pytest.approx(-30 + noise.mean())


def test_a_row_says_when_our_interval_excludes_the_papers_own_effect():
    row = {"verdict": "inconclusive", "test": "compare", "effect": 3.1, "effect_low": -47.0, "effect_high": 50.0,
           "published": 152.0, "published_inside": 0, "published_compared": 1, "published_z": -4.2}
    assert effect_cells(row) == ("+3.1 [-47, +50]", "+152 (the paper's value does not fit ours: the paper's above ours)")
    assert effect_cells({**row, "published": 20.0, "published_inside": 1, "published_z": -0.5})[1] == \
        "+20 (the paper's value fits ours)"
    assert effect_cells({**row, "published": math.nan, "published_compared": 0})[1] == "-"
    assert effect_cells({**row, "verdict": "not run"})[1] == "+152"  # a scaled-down effect answers nothing


def test_a_row_not_run_says_hardware_before_compute_and_an_unstated_setting_is_no_reason():
    assert why_not_judged([Gap(UNSTATED, "u"), Gap(NEEDS_COMPUTE, "c")]) == NEEDS_COMPUTE
    assert why_not_judged([Gap(NEEDS_COMPUTE, "c"), Gap(NEEDS_HARDWARE, "h")]) == NEEDS_HARDWARE
    assert why_not_judged([Gap(UNSTATED, "u")]) == ""  # judged on the claim file's reading


def test_figure_4s_cost_prices_each_column_at_its_own_cores():
    """The sequential column holds one core, the 32-thread one the paper's 16: 20 runs x 500 s x
    (1 + 16) cores = 47.2 CPU-h (it was priced at 16 cores a column: 89)."""
    (fig4,) = [c for c in load_claims(files=["distributed"]) if c.id == "fixed-time-parallel-beats-sequential"]

    class NoRuns:  # the cost of timed columns needs no stored run
        runs = None

    hours, text, parts = paper_cost(fig4, NoRuns())
    assert hours == pytest.approx(20 * 500 * 17 / 3600)
    assert "1 column x 20 runs of 500 s x 1 core" in text and "1 column x 20 runs of 500 s x 16 cores" in text
    assert sorted(parts.values()) == [20 * 500.0, 20 * 500.0 * 16]  # by column: a total counts each once


def test_figure_3_at_equal_playouts_needs_compute_not_a_machine():
    """At equal iterations a round-synchronous parallel search makes the same search on any number
    of cores: more cores only make it sooner, so its rows need compute, priced, not a 16-core machine."""
    from analysis.claims.paper_settings import needs_machine

    claims = {c.id: c for c in load_claims(files=["distributed"])}
    assert claims["equal-playouts-sequential-best"].basis == "equal playouts"
    assert not needs_machine(claims["equal-playouts-sequential-best"])
    assert needs_machine(claims["fixed-time-parallel-beats-sequential"])  # wall time on 16 cores


def test_a_column_without_runs_is_priced_at_its_baselines_measured_cost_over_rho():
    """At matched time a run of column c costs a baseline run's CPU-seconds times max(1, rho) / rho:
    priced at the published engine's seconds instead (several times too high), SNRPA(10)'s first
    runs were ranked last and a campaign spent everything on one table."""
    from types import SimpleNamespace

    from analysis.claims.campaign import first_cost

    rate = PublishedRate(1000.0, 900.0, 1100.0, ("base",), "test", (("fast", RelativeRate(2.0, 1.9, 2.1, "base")),
                                                                     ("slow", RelativeRate(0.5, 0.4, 0.6, "base"))))
    columns = {label: SimpleNamespace(label=label, job=None) for label in ("base", "fast", "slow")}
    experiment = SimpleNamespace(published_rate=rate, matched_work=True, kind="checkpoints",
                                 variants=tuple(columns.values()))
    source = SimpleNamespace(costs={"base": [10.0, 14.0], "fast": [], "slow": []})
    assert first_cost(experiment, columns["fast"], source) == pytest.approx(12.0)  # same work per CPU-second
    assert first_cost(experiment, columns["slow"], source) == pytest.approx(24.0)  # t x R playouts at half the rate


def test_the_papers_cores_read_numbers_only_and_figure_4s_most_threads_are_the_papers():
    """A transfer's settings in words ("1, 2, 4" threads) are shown, not counted; a claim resolved
    at quick scale ("{threads}" -> 2) is priced at the paper scale's most threads (32, on 16 cores)."""
    from analysis.claims.files import resolve
    from analysis.claims.paper_settings import paper_cores

    assert paper_cores(claim(settings=(("threads", "1, 2, 4"),))) == 1
    assert paper_cores(claim(settings=(("threads", 16), ("jobs", 10)))) == 160
    (fig4,) = [c for c in load_claims(files=["distributed"]) if c.id == "fixed-time-parallel-beats-sequential"]
    at_quick = resolve(fig4, load_experiment(["experiment=distributed_fig4", "scale=quick"]))
    assert at_quick.variants() == {"strategy=leaf_shared threads=2", "strategy=leaf_shared threads=1"}

    class NoRuns:
        runs = None

    assert paper_cost(at_quick, NoRuns())[0] == pytest.approx(20 * 500 * 17 / 3600)


def test_a_budget_rounded_down_to_a_whole_playout_still_reaches_its_last_published_time():
    """round(163.84 x 433 x 1.22) = 86,550 playouts is 163.839 s of bus delta 3's work: the runs
    are read at 163.84 s, not cut at the checkpoint before (81.92 s)."""
    from types import SimpleNamespace

    from analysis.claims.basis import checkpoint_times
    from analysis.claims.sources import Source

    import pandas as pd

    rate = PublishedRate(433.0, 368.0, 499.0, ("base",), "test", (("rule", RelativeRate(1.22, 1.14, 1.31, "base")),))
    budgets = {label: rate.budget(163.84, label) for label in ("base", "rule")}
    assert budgets["rule"] < 163.84 * rate.work(1.0, "rule")  # rounded down
    runs = SimpleNamespace(records={label: [{"result": {"playouts": n}}] * 2 for label, n in budgets.items()})

    class Table(Source):
        reference = pd.DataFrame({"time": [81.92, 163.84], "base": [1.0, 2.0], "rule": [1.0, 2.0]})

    source = Table(SimpleNamespace(variants=[]), runs)
    points, where = checkpoint_times(claim(pairs=(("rule", "base"),)), source, "playouts", rate)
    assert [t for t, _ in points] == [163.84] and "the runs end there" not in where


def test_a_campaign_works_toward_the_verdict_under_the_reading_of_an_unstated_setting():
    """More runs under the reading decide the verdict the row shows; runs away from the paper's
    hardware or compute decide nothing of the claim, so such a row gets none."""
    import pandas as pd

    from analysis.claims.judging import NOT_RUN
    from analysis.claims.decide import campaign_verdicts

    table = pd.DataFrame({"verdict": ["inconclusive", NOT_RUN, NOT_RUN, "supported"],
                          "gaps": ["the paper does not state the level", "2 threads for the paper's 32", "", ""]})
    # on a reading: its own verdict; not run for hardware: none; runs not made yet: the campaign makes them
    assert campaign_verdicts(table) == ["inconclusive", NOT_RUN, "not judged", "supported"]


def test_the_reference_engines_clock_reads_each_column_at_its_own_work_on_that_engine():
    """By hand: the baseline's clock runs make 100 playouts by 1 s and 400 by 4 s (a rate rising
    from 100 to 100 a second: W = 100 tau), the other column 300 by 1 s and 600 by 4 s (W = 300
    tau^(1/2) between them, log-log); s = 2, so published t = 4 s is tau = 2 s: 200 and
    300 x 2^(1/2) = 424.26 playouts. reach inverts work; beyond the last checkpoint both go on at
    the last mean rate (600 / 4 a second)."""
    from types import SimpleNamespace

    import pandas as pd

    from analysis.claims.basis import checkpoint_times, matched_reach
    from analysis.claims.engines import ReferenceClock
    from analysis.claims.sources import Source

    taus = np.array([1.0, 4.0])
    clock = ReferenceClock({"base": (taus, np.array([100.0, 400.0])), "rule": (taus, np.array([300.0, 600.0]))}, 2.0)
    assert clock.work(4.0, "base") == pytest.approx(200.0)
    assert clock.work(4.0, "rule") == pytest.approx(300 * 2 ** 0.5)
    assert clock.work(16.0, "rule") == pytest.approx(600 * 8 / 4)  # tau = 8: the last rate on
    assert clock.work(1.0, "rule") == pytest.approx(150.0)  # tau = 0.5: in proportion before the first
    for column in ("base", "rule"):
        for t in (1.0, 3.0, 4.0, 16.0):
            assert clock.reach(clock.work(t, column), column) == pytest.approx(t)
    assert "s = 2.00" in clock.describe

    runs = SimpleNamespace(records={"base": [{"result": {"playouts": 400}}] * 2,
                                    "rule": [{"result": {"playouts": 500}}] * 2})

    class Table(Source):
        reference = pd.DataFrame({"time": [2.0, 4.0, 8.0], "base": [1.0, 2.0, 3.0], "rule": [1.0, 2.0, 3.0]})

    source = Table(SimpleNamespace(variants=[]), runs)
    # the rule's 500 playouts are its work at tau = 4 x (5/6)^2 (log-log): t = 2 x 2.78 = 5.56 s
    assert matched_reach(source, "rule", clock) == pytest.approx(8 * (500.5 / 600) ** 2)
    points, where = checkpoint_times(claim(pairs=(("rule", "base"),), at="every"), source, "playouts", clock)
    assert [t for t, _ in points] == [2.0, 4.0]  # 8 s is beyond the rule's runs
    assert points[1][1] == pytest.approx({"base": 200.0, "rule": 300 * 2 ** 0.5})
    assert "W_ref(t / s) playouts" in where
    points, where = checkpoint_times(claim(pairs=(("rule", "base"),)), source, "playouts", clock)  # at the last, 8 s
    assert [t for t, _ in points] == pytest.approx([8 * (500.5 / 600) ** 2]) and "the runs end there" in where


def test_the_claims_read_the_reference_clock_only_where_the_baseline_rejects_the_other_on_runs_long_enough(monkeypatch):
    """The claims leave t x R x rho for the reference clock only where the baseline chooses the clock
    and rejects t x R x rho (not told apart is not enough), and where every other baseline fits
    at it; a column's extension is the least power of two of the last time whose matched-work
    budget holds the clock's work there."""
    from analysis.claims import engines
    from analysis.claims.engines import REFERENCE_CLOCK, TODAY, Reading, chosen_clock, clock_decision, extensions

    def reading(name: str, mean_z2: float, max_z: float, column: str = "base") -> Reading:
        return Reading(column, name, 13, 14, 10, 6, mean_z2, max_z, 3.0)

    taus = np.array([1.0, 10.0])
    rate = rate_with(1.5)  # R = 1000, the other column's rho 1.5
    measured = {"baseline": "base", "speed": 1.0, "last": 10.0, "ours": {"base": None, "other": None},
                "experiment": type("Experiment", (), {"published_rate": rate})(),
                "clock": {"base": [], "other": []}}
    works = {"base": (taus, np.array([1_000.0, 8_000.0])), "other": (taus, np.array([2_000.0, 40_000.0]))}
    real_mean_work = engines.mean_work
    try:
        engines.mean_work = lambda records, column=iter(("base", "other")): works[next(column)]
        clock = chosen_clock({**measured, "readings": [reading(TODAY, 5.0, 3.5), reading(REFERENCE_CLOCK, 1.4, 2.4)]})
    finally:
        engines.mean_work = real_mean_work
    assert clock is not None and clock.s == 1.0
    # the base's 8,000 at 10 s within its budget 10 x 1000; the other's 40,000 against 10 x 1000 x 1.5: x 2.67
    assert extensions(measured, clock) == {"base": 1, "other": 4}
    # chi^2 29.9 against 18.2 over 13 cells: t x R x rho not told apart, so the claims keep it
    tied = {**measured, "readings": [reading(TODAY, 2.3, 2.5), reading(REFERENCE_CLOCK, 1.4, 2.4)]}
    assert chosen_clock(tied) is None and clock_decision(tied)[1:] == (TODAY, "t x R x rho is not told apart from it")
    # ... and read the reference clock too, as a second verdict (campaign.with_other_clock)
    monkeypatch.setattr(engines, "reference_clock", lambda measured: "the reference clock")
    assert engines.tied_clock(tied) == "the reference clock" and engines.tied_clock({**measured, "readings": tied["readings"][::-1]})
    assert engines.tied_clock({**measured, "readings": [reading(TODAY, 5.0, 3.5), reading(REFERENCE_CLOCK, 1.4, 2.4)]}) \
        is None  # t x R x rho rejected: the claims read the reference clock alone
    assert chosen_clock({**measured, "readings": [reading(TODAY, 1.0, 2.0), reading(REFERENCE_CLOCK, 3.5, 2.4)]}) is None
    assert chosen_clock({**measured, "readings": [reading(TODAY, 9.0, 5.0), reading(REFERENCE_CLOCK, 8.0, 5.0)]}) is None
    # a second baseline (Weak Schur's one a K) that does not fit at the reference clock keeps t x R x rho
    two = PublishedRate(1000.0, 900.0, 1100.0, ("base", "base2"), "test", ())
    second = {**measured, "experiment": type("Experiment", (), {"published_rate": two})(),
              "readings": [reading(TODAY, 5.0, 3.5), reading(REFERENCE_CLOCK, 1.4, 2.4),
                           reading(REFERENCE_CLOCK, 5.1, 4.7, column="base2")]}
    assert clock_decision(second)[1:] == (TODAY, "the table's other baseline base2 does not fit at it")
    assert engines.tied_clock({**second, "readings": [reading(TODAY, 2.3, 2.5), *second["readings"][1:]]}) is None
