"""Anytime-valid verdicts (analysis/claims/sequential.py) and the adaptive loop that spends a CPU
budget on them (analysis/claims/campaign.py): values by hand, and the false-verdict rate of
the whole loop on null claims by simulation."""

import math

import numpy as np
import pytest

from analysis.claims import sequential, verdicts
from analysis.claims.sequential import Contrast, judge, judge_contrast, mixture_p, radius, runs_to_decide
from analysis.claims.campaign import ClaimState, adaptive_loop, parse_budget, plan_round
from nrpa.errors import InputError


def test_mixture_p_is_the_reciprocal_of_the_normal_mixture_martingale():
    n, mean, sd = 25, 0.8, 2.0
    z = n * mean / sd
    by_hand = math.sqrt(1 + n * sequential.RHO2) * math.exp(-sequential.RHO2 * z ** 2 / (2 * (1 + n * sequential.RHO2)))
    assert mixture_p(n, mean, sd) == pytest.approx(by_hand)
    assert mixture_p(n, -mean, sd) == 1.0  # the wrong side gives no evidence
    assert mixture_p(n, mean, 0.0) == 1.0  # nor does a sample without spread


def test_the_boundary_touches_zero_exactly_where_the_p_value_is_alpha():
    n, sd = 40, 3.0
    half = float(radius(n, sd, alpha=0.05))
    assert mixture_p(n, half, sd) == pytest.approx(0.05)


def test_no_verdict_from_fewer_runs_than_the_minimum():
    def clear(n):  # a mean 5 standard deviations above 0
        return 5.0 + np.random.default_rng(n).normal(0, 1, n)

    few = judge_contrast(Contrast("x", clear(sequential.MIN_RUNS - 1)))
    assert (few.p_greater, few.p_less) == (1.0, 1.0)
    assert judge_contrast(Contrast("x", clear(sequential.MIN_RUNS))).p_greater < 1e-6
    one_sample = judge_contrast(Contrast("x", clear(sequential.MIN_RUNS_ONE_SAMPLE - 1), paired=False))
    assert one_sample.p_greater == 1.0
    assert judge_contrast(Contrast("x", clear(sequential.MIN_RUNS_ONE_SAMPLE), paired=False)).p_greater < 1e-6


def test_the_anytime_p_value_is_the_smallest_over_the_prefixes():
    rng = np.random.default_rng(0)
    values = np.r_[rng.normal(1.0, 1.0, 20), rng.normal(-1.5, 1.0, 20)]  # evidence early, then gone
    sequence = judge_contrast(Contrast("x", values))
    assert sequence.low <= sequence.high  # (later means further off would leave no value in every interval)
    at_each = [mixture_p(n, values[:n].mean(), values[:n].std(ddof=1)) for n in range(sequential.MIN_RUNS, 41)]
    assert sequence.p_greater == pytest.approx(min(at_each))
    assert mixture_p(40, values.mean(), values.std(ddof=1)) == 1.0  # at 40 runs alone: no evidence


def test_a_claim_holds_only_if_each_contrast_does_and_falls_if_any_goes_the_other_way():
    rng = np.random.default_rng(1)
    strong, null, opposite = rng.normal(2, 1, 50), rng.normal(0, 1, 50), rng.normal(-2, 1, 50)
    both = judge([Contrast("a", strong), Contrast("b", strong + 1)])
    assert both.p_support < 1e-6
    mixed = judge([Contrast("a", strong), Contrast("b", null)])
    assert mixed.p_support == judge_contrast(Contrast("b", null)).p_greater
    against = judge([Contrast("a", strong), Contrast("b", opposite)])
    assert against.p_contradict == pytest.approx(2 * judge_contrast(Contrast("b", opposite)).p_less)
    assert against.effect < 0 and "b" in against.detail


def test_the_weakest_evidence_decides_even_where_every_p_value_underflows_to_0():
    """Two comparisons so clear that both p-values are 0.0 as doubles: the one with less evidence
    (its log p the larger) decides, not the one of the lower mean."""
    rng = np.random.default_rng(3)
    steady = 100.0 + rng.normal(0, 1, 50)  # mean 100, sd 1: overwhelming
    spread = 300.0 + rng.normal(0, 30, 50)  # mean 300, sd 30: a tenth of the standardized mean
    sequences = [judge_contrast(Contrast("steady", steady)), judge_contrast(Contrast("spread", spread))]
    assert [s.p_greater for s in sequences] == [0.0, 0.0]
    assert sequences[0].log_p_greater < sequences[1].log_p_greater < -700  # below exp's smallest double
    evidence = judge([Contrast("steady", steady), Contrast("spread", spread)])
    assert evidence.detail.startswith("spread") and evidence.effect == pytest.approx(spread.mean())


def test_runs_to_decide_is_the_first_n_whose_p_value_falls_below_alpha_over_the_family():
    evidence = judge([Contrast("a", np.random.default_rng(2).normal(0.5, 2.0, 20))])
    needed = runs_to_decide(evidence, family=4, cap=10_000)
    sd = evidence.se * math.sqrt(evidence.runs)
    assert mixture_p(needed, evidence.distance, sd) < 0.05 / 4 <= mixture_p(needed - 1, evidence.distance, sd)
    assert runs_to_decide(evidence, family=4, cap=int(needed) - 1) == math.inf


@pytest.mark.parametrize("text, hours", [("6h", 6.0), ("0.2h", 0.2), ("90m", 1.5), ("3600s", 1.0), ("2", 2.0)])
def test_budgets_read_as_cpu_hours(text, hours):
    assert parse_budget(text) == pytest.approx(hours)


@pytest.mark.parametrize("text", ["", "six hours", "-1h", "20000h", "1d"])
def test_a_bad_budget_is_refused(text):
    with pytest.raises(InputError, match="BUDGET"):
        parse_budget(text)


def state(claim, columns, verdict="inconclusive", needed=math.inf, min_runs=None):
    return ClaimState(claim, tuple(columns), verdict, needed, min_runs or sequential.MIN_RUNS)


def test_a_round_gives_runs_to_the_claims_cheapest_to_decide_first():
    have = {"a": 20, "b": 20, "c": 20, "d": 20}
    cost = {"a": 1.0, "b": 1.0, "c": 10.0, "d": 10.0}
    states = [state("dear", "cd", needed=40), state("cheap", "ab", needed=40), state("done", "ab", "supported"),
              state("hopeless", "ab")]
    plan = plan_round(states, have, cost, left=1e6, round_budget=25.0, cap=200)
    assert plan.claims == ["cheap"]  # 2 columns x 10 runs x 1 s; then "dear" (200 s) does not fit
    assert plan.targets == {"a": 30, "b": 30}  # half as many again, toward the 40 that decide it
    assert plan.capped == ["hopeless"]
    assert plan.still_needed == 2 * 20 * 1.0 + 2 * 20 * 10.0


def test_a_claim_below_its_minimum_gets_its_minimum_first():
    plan = plan_round([state("new", "ab", "not judged", min_runs=30)], {"a": 0, "b": 12}, {"a": 2.0, "b": 2.0},
                      left=1e6, round_budget=1.0, cap=200)
    assert plan.targets == {"a": 30, "b": 30} and plan.cost == (30 + 18) * 2.0


def test_a_claim_its_runs_cannot_judge_gets_no_more_runs():
    # e.g. a gain claim on runs too short for two doublings: more runs would not help
    plan = plan_round([state("too short", "ab", "not judged")], {"a": 15, "b": 15}, {"a": 1.0, "b": 1.0},
                      left=1e6, round_budget=1e6, cap=200)
    assert plan.targets == {} and plan.capped == ["too short"]


def test_fill_without_a_budget_is_refused_before_any_work(capsys):
    from analysis.claims.campaign import main

    with pytest.raises(SystemExit) as stop:
        main(["scale=smoke", "--fill"])
    assert stop.value.code == 2 and "--fill spends a budget" in capsys.readouterr().err


def test_fill_grows_the_claims_beyond_the_cap_toward_it_after_those_with_an_estimate():
    have = {"a": 20, "b": 20, "c": 40, "d": 40}
    states = [state("hopeless", "cd"), state("cheap", "ab", needed=40)]
    cost = {c: 1.0 for c in have}
    assert plan_round(states, have, cost, left=1e6, round_budget=1e6, cap=200).capped == ["hopeless"]
    plan = plan_round(states, have, cost, left=1e6, round_budget=1e6, cap=200, fill=True)
    assert plan.claims == ["cheap", "hopeless"] and plan.capped == []
    assert plan.targets == {"a": 30, "b": 30, "c": 60, "d": 60}  # half as many again, toward 40 and the cap
    assert plan.still_needed == 2 * 20 * 1.0  # what would decide: the filled claim promises nothing
    first = plan_round(states, have, cost, left=1e6, round_budget=20.0, cap=200, fill=True)
    assert first.claims == ["cheap"]  # the round's budget goes to the claim with an estimate first
    full = plan_round([state("hopeless", "cd")], {"c": 200, "d": 200}, cost, left=1e6, round_budget=1e6, cap=200,
                      fill=True)
    assert full.targets == {} and full.capped == ["hopeless"]


def test_the_last_round_shrinks_to_what_the_budget_affords():
    plan = plan_round([state("x", "ab", needed=100)], {"a": 20, "b": 20}, {"a": 1.0, "b": 1.0},
                      left=9.0, round_budget=1e6, cap=200)
    assert plan.targets == {"a": 24, "b": 24} and plan.cost == 8.0
    nothing = plan_round([state("x", "ab", needed=100)], {"a": 20, "b": 20}, {"a": 1.0, "b": 1.0},
                         left=1.5, round_budget=1e6, cap=200)
    assert nothing.targets == {}


class SimulatedClaims:
    """Null claims "A_j above B_j" on columns of i.i.d. draws, judged as analysis/claims/decide.py
    does (paired contrasts, Holm across the claims), made by the adaptive loop."""

    def __init__(self, claims: int, draw, seed: int, cap: int):
        self.rng, self.draw, self.cap = np.random.default_rng(seed), draw, cap
        self.data = {f"{side}{j}": np.empty(0) for j in range(claims) for side in "AB"}
        self.claims = claims

    def observe(self):
        evidences = []
        for j in range(self.claims):
            a, b = self.data[f"A{j}"], self.data[f"B{j}"]
            n = min(a.size, b.size)
            evidences.append(judge([Contrast(f"A{j} vs B{j}", a[:n] - b[:n])]))
        supports = verdicts.holm([e.p_support for e in evidences])
        contradicts = verdicts.holm([e.p_contradict for e in evidences])
        found = [verdicts.verdict(s, c) for s, c in zip(supports, contradicts)]
        undecided = sum(v == "inconclusive" for v in found)
        states = [state(f"claim {j}", (f"A{j}", f"B{j}"), v, runs_to_decide(e, undecided, self.cap))
                  for j, (e, v) in enumerate(zip(evidences, found))]
        return states, {c: v.size for c, v in self.data.items()}, {c: 1.0 for c in self.data}

    def make(self, targets):
        for column, target in targets.items():
            self.data[column] = np.r_[self.data[column], self.draw(self.rng, target - self.data[column].size)]
        return float(sum(targets.values()))


DRAWS = {  # scores of a column: symmetric, and skewed as best-so-far scores often are
    "normal": lambda rng, n: rng.normal(1000.0, 150.0, n),
    "gamma": lambda rng, n: 1500 + 200 * rng.gamma(0.7, size=n),
}


@pytest.mark.slow
@pytest.mark.parametrize("draw", DRAWS)
def test_null_claims_judged_by_the_adaptive_loop_are_rarely_decided(draw, capsys):
    """Two identical columns: the loop must call the claim supported or contradicted in at
    most 5% of simulations, however its rounds fall (it judges after every round)."""
    simulations, false = 1000, 0
    for seed in range(simulations):
        claims = SimulatedClaims(1, DRAWS[draw], seed, cap=200)
        states, _, _ = adaptive_loop(claims.observe, claims.make, budget=400.0, cap=200, say=lambda line: None)
        false += states[0].verdict in ("supported", "contradicted")
    with capsys.disabled():
        print(f"\nnull claim ({draw} scores), adaptive loop, {simulations} simulations: "
              f"false verdicts {false / simulations:.1%}")
    assert false / simulations <= 0.05


@pytest.mark.slow
def test_a_family_of_null_claims_keeps_its_family_wise_rate(capsys):
    """Four null claims at once, Holm across them: any false verdict counts."""
    simulations, false = 500, 0
    for seed in range(simulations):
        claims = SimulatedClaims(4, DRAWS["gamma"], seed, cap=200)
        states, _, _ = adaptive_loop(claims.observe, claims.make, budget=1600.0, cap=200, say=lambda line: None)
        false += any(s.verdict in ("supported", "contradicted") for s in states)
    with capsys.disabled():
        print(f"\n4 null claims (gamma scores), adaptive loop, {simulations} simulations: "
              f"family-wise false verdicts {false / simulations:.1%}")
    assert false / simulations <= 0.05


def test_a_real_effect_is_found_by_the_loop_well_before_the_cap():
    better = SimulatedClaims(1, DRAWS["normal"], 1, cap=200)
    plain_make = better.make

    def make_shifted(targets):  # column A scores 100 more: two thirds of a standard deviation
        before = better.data["A0"].size
        spent = plain_make(targets)
        better.data["A0"][before:] += 100.0
        return spent

    states, _, spent = adaptive_loop(better.observe, make_shifted, budget=400.0, cap=200, say=lambda line: None)
    assert states[0].verdict == "supported"
    assert spent < 200  # under 100 runs per column


def test_an_empty_confidence_sequence_gives_no_verdict():
    """Samples sorted low to high (a histogram read in its order) make every prefix's interval
    miss the later ones: no value lies in all of them, and no verdict rests on the p-values."""
    values = np.sort(np.random.default_rng(1).normal(40.0, 12.0, 20000)) - 39.1
    sequence = judge_contrast(Contrast("sorted", values))
    assert sequence.low > sequence.high
    assert sequence.p_greater == sequence.p_less == 1.0 and "no verdict" in sequence.name
    shuffled = judge_contrast(Contrast("shuffled", np.random.default_rng(2).permutation(values)))
    assert shuffled.low <= shuffled.mean <= shuffled.high and shuffled.p_greater < 0.05
