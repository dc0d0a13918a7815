"""Verdicts that stay valid however often they are looked at: anytime-valid p-values from
confidence sequences (pure functions on samples, no files).

`make claims BUDGET=...` judges every claim again after each round of runs and gives the next
round to the claims still undecided. A fixed-n test repeated after every round would call
some true null claims decided by chance (optional stopping). Here each claim is reduced to
contrasts, each a sequence of i.i.d. values d_1, d_2, ... whose mean the claim says is > 0
(a paired difference of two columns' runs, a run's score minus a published boundary, ...), and
each contrast is tested with a time-uniform boundary: the probability that it is EVER
crossed under the null, at any number of runs, is at most alpha. The boundary is the
two-sided normal-mixture confidence sequence, used with the runs' estimated standard
deviation, i.e. the asymptotic confidence sequence of

    I. Waudby-Smith, D. Arbour, R. Sinha, E. H. Kennedy, A. Ramdas, "Time-uniform central
    limit theory and asymptotic confidence sequences", Annals of Statistics 52(6), 2024
    (Theorem 2.2; the boundary is Robbins' normal mixture, see also S. R. Howard,
    A. Ramdas, J. McAuliffe, J. Sekhon, "Time-uniform, nonparametric, nonasymptotic
    confidence sequences", Annals of Statistics 49(2), 2021, Eq. (14)):

    mean_n +- sd_n * sqrt( 2 (n rho^2 + 1) / (n^2 rho^2) * log( sqrt(n rho^2 + 1) / alpha ) )

Its p-value at n is the alpha at which the boundary touches 0, the reciprocal of the
mixture martingale, sqrt(n rho^2 + 1) * exp(-rho^2 Z^2 / (2 (n rho^2 + 1))) with
Z = n mean_n / sd_n; the anytime-valid p-value is its running minimum over n (Ville's
inequality bounds the chance of ever crossing). It is valid as n grows ("asymptotic"): with
few runs the estimated sd is noisy, so no verdict is read from fewer than MIN_RUNS runs; the
false-verdict rate of the whole adaptive loop is checked by simulation in
tests/test_sequential.py. Anytime-valid p-values are p-values at any stopping time, so
Holm's step-down correction across the claims applies to them as to fixed-n ones.

A claim over several contrasts holds only if each does (intersection-union: its p-value
for support is the largest); it is contradicted if any contrast goes the other way
(Bonferroni: the smallest opposite p-value times their number), as in analysis/claims/verdicts.py.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import stats

from analysis.claims.verdicts import ALPHA, Evidence

# No verdict from fewer runs: the sd estimate must settle first. Measured by simulation of
# the adaptive loop on a null claim (tests/test_sequential.py, 2000 simulations each): from 10
# pairs the false-verdict rate was 4.7-5.6% with normal scores (too close to 5%), from 15
# pairs 3.0% (normal) and 2.3% (skewed, gamma); the difference of two identical columns is
# symmetric, which helps. One sample (a published value, a gain ratio) keeps its skew and
# needs more: looking after every run up to 200, from 30 runs 3-5% for Poisson and gamma(2)
# scores, 6% for exponential ones (skewness 2).
MIN_RUNS = 15
MIN_RUNS_ONE_SAMPLE = 30
# The mixture's rho is fixed before any data (a choice, not a fit): the boundary is
# tightest at TUNED_RUNS runs for a test at TUNED_ALPHA (Waudby-Smith et al.'s rule below
# Theorem 2.2). 40 runs and alpha 0.005 (0.05 over about ten undecided claims) is where the
# claims this harness cannot decide at once are decided, if at all, under a few CPU-hours.
TUNED_RUNS = 40
TUNED_ALPHA = 0.005
RHO2 = (-2 * math.log(TUNED_ALPHA) + math.log(-2 * math.log(TUNED_ALPHA) + 1)) / TUNED_RUNS


@dataclass(frozen=True)
class Contrast:
    """One comparison of a claim: ``values`` (one per paired run, in run order, in the
    claim's unit), whose mean the claim says is above 0; ``paired``: a difference of two
    columns' runs (else one column's runs against a fixed boundary)."""

    name: str
    values: np.ndarray
    paired: bool = True
    published: float = math.nan  # the paper's own value of this comparison (same unit and sign), where it has one

    @property
    def min_runs(self) -> int:
        return MIN_RUNS if self.paired else MIN_RUNS_ONE_SAMPLE


def _prefix_statistics(values: np.ndarray, min_runs: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(n, mean, sd with ddof 1) of every prefix of ``values`` of ``min_runs`` values or more."""
    values = np.asarray(values, dtype=float)
    n = np.arange(1, values.size + 1, dtype=float)
    shift = values[0] if values.size else 0.0  # sums of squares about a typical value: no cancellation
    sums = np.cumsum(values - shift)
    squares = np.cumsum((values - shift) ** 2)
    mean = sums / n
    with np.errstate(invalid="ignore", divide="ignore"):
        variance = np.maximum(squares - n * mean ** 2, 0.0) / (n - 1)
    keep = n >= min_runs
    return n[keep], mean[keep] + shift, np.sqrt(variance[keep])


def mixture_log_p(n, mean, sd) -> np.ndarray:
    """The log of ``mixture_p``: it tells strong evidences apart where their p-values underflow to 0."""
    n, mean, sd = (np.asarray(x, dtype=float) for x in (n, mean, sd))
    spread = sd > 1e-12 * np.maximum(1.0, np.abs(mean))
    with np.errstate(divide="ignore", invalid="ignore"):
        z = n * mean / np.where(spread, sd, 1.0)
        log_p = 0.5 * np.log1p(n * RHO2) - RHO2 * z ** 2 / (2 * (1 + n * RHO2))
    return np.where((mean > 0) & spread, np.minimum(0.0, log_p), 0.0)


def mixture_p(n, mean, sd) -> np.ndarray:
    """The one-sided p-value of "the mean is > 0" at ``n`` runs with estimated ``mean`` and
    ``sd`` (arrays or numbers): 1 / the normal-mixture martingale, 1 where mean <= 0. A prefix
    without spread gives no evidence (p = 1): its sd says nothing yet about the next runs."""
    return np.exp(mixture_log_p(n, mean, sd))


def radius(n, sd, alpha: float = ALPHA) -> np.ndarray:
    """Half-width of the two-sided (1 - alpha) confidence sequence at ``n`` runs."""
    n, sd = np.asarray(n, dtype=float), np.asarray(sd, dtype=float)
    return sd * np.sqrt(2 * (n * RHO2 + 1) / (n ** 2 * RHO2) * np.log(np.sqrt(n * RHO2 + 1) / alpha))


@dataclass(frozen=True)
class Sequence:
    """One contrast judged over all its prefixes."""

    name: str
    runs: int
    mean: float
    sd: float
    # anytime-valid p-values, the running minimum over prefixes, kept as logs: they rank strong
    # evidences apart where the p-values themselves underflow to 0
    log_p_greater: float
    log_p_less: float
    low: float  # the running intersection of the 95% confidence sequence
    high: float
    published: float = math.nan  # the contrast's published value

    @property
    def p_greater(self) -> float:
        return float(np.exp(self.log_p_greater))

    @property
    def p_less(self) -> float:
        return float(np.exp(self.log_p_less))


def judge_contrast(contrast: Contrast) -> Sequence:
    values = np.asarray(contrast.values, dtype=float)
    values = values[np.isfinite(values)]
    if values.size < contrast.min_runs:
        mean = float(values.mean()) if values.size else math.nan
        return Sequence(contrast.name, int(values.size), mean, math.nan, 0.0, 0.0, -math.inf, math.inf,
                        contrast.published)
    n, mean, sd = _prefix_statistics(values, contrast.min_runs)
    half = np.where(sd > 0, radius(n, sd), 0.0)
    low, high = float((mean - half).max()), float((mean + half).min())
    if low > high:  # no value lies in every prefix's interval: samples in a telling order (sorted), or the
        # 5% miss of a 95% sequence; either way its p-values say nothing, and no verdict rests on them
        return Sequence(f"{contrast.name} (no verdict: its confidence sequence is empty, [{low:.4g}, {high:.4g}])",
                        int(values.size), float(mean[-1]), float(sd[-1]), 0.0, 0.0, low, high, contrast.published)
    return Sequence(contrast.name, int(values.size), float(mean[-1]), float(sd[-1]),
                    float(mixture_log_p(n, mean, sd).min()), float(mixture_log_p(n, -mean, sd).min()),
                    low, high, contrast.published)


def against_published(contrasts: list[Contrast], paper_runs: int) -> tuple[int, int, float]:
    """The magnitude of a claim: of its contrasts with a published value, how many hold it, how many
    there are, and the worst one's z. Each is read at our final sample, fixed n: z = (our mean - the
    published value) / (sd x sqrt(1/n + 1/paper_runs)), our sd standing for the paper's (the paper's
    value is itself a mean over ``paper_runs`` runs a column, as the readings' test counts it:
    analysis/claims/readings.py); a contrast holds it when abs(z) is within the two-sided Bonferroni
    bound at ALPHA over the claim's contrasts (a claim on "every" time or column reads several).
    "Holds" is "not rejected": a shift shared by every contrast, each below the bound, is not caught,
    and R and rho are taken as exact (the reports say so)."""
    if paper_runs < 2:  # one run a column (the 20-board totals): no published spread to weigh ours against
        return 0, 0, math.nan
    zs = []
    for contrast in contrasts:
        values = np.asarray(contrast.values, dtype=float)
        values = values[np.isfinite(values)]
        if not math.isfinite(contrast.published) or values.size < 2:
            continue
        se = values.std(ddof=1) * math.sqrt(1 / values.size + 1 / paper_runs)
        gap = float(values.mean()) - contrast.published
        zs.append(gap / se if se > 0 else (0.0 if gap == 0 else math.copysign(math.inf, gap)))
    if not zs:
        return 0, 0, math.nan
    bound = float(stats.norm.isf(ALPHA / (2 * len(zs))))
    return sum(abs(z) <= bound for z in zs), len(zs), max(zs, key=abs)


def judge(contrasts: list[Contrast], *, detail: str = "", paper_runs: int = 200) -> Evidence:
    """A claim's evidence from its contrasts (all must be > 0 for the claim to hold); ``paper_runs``:
    the runs a column behind the paper's published values (against_published)."""
    sequences = [judge_contrast(c) for c in contrasts]
    inside, compared, worst = against_published(contrasts, paper_runs)
    # the weakest evidence decides, compared in logs (p-values of many runs underflow to 0 together);
    # on a tie (often all p = 1 on few runs) the lowest mean
    deciding = max(sequences, key=lambda s: (s.log_p_greater, -s.mean if s.mean == s.mean else math.inf))
    p_contradict = min(1.0, len(sequences) * min(s.p_less for s in sequences))
    if not deciding.mean > 0:  # heading for contradiction: size it on the strongest opposite (on a tie of
        # p-values, the lowest mean: the comparison furthest from the claim)
        deciding = min(sequences, key=lambda s: (s.log_p_less, s.mean if s.mean == s.mean else math.inf))
    sd = deciding.sd if deciding.sd > 0 else math.nan
    runs = min(s.runs for s in sequences)
    return Evidence(
        p_support=max(s.p_greater for s in sequences), p_contradict=p_contradict,
        effect=deciding.mean, effect_low=deciding.low, effect_high=deciding.high,
        standardized=deciding.mean / sd, standardized_low=deciding.low / sd, standardized_high=deciding.high / sd,
        se=deciding.sd / math.sqrt(runs) if runs else math.nan, distance=abs(deciding.mean), runs=runs,
        detail=f"{detail}{deciding.name}" + (f" (of {len(sequences)} comparisons)" if len(sequences) > 1 else ""),
        published=deciding.published, published_inside=inside, published_compared=compared, published_z=worst)


def runs_to_decide(evidence: Evidence, family: int, cap: int, min_runs: int = MIN_RUNS) -> float:
    """About how many paired runs would decide the claim if its deciding contrast keeps the
    mean and sd measured now: the first n where the mixture p-value falls below
    alpha / ``family`` (Holm's first step). Inf when there is no effect to detect, or when
    even ``cap`` runs would not do it (the caller says "needs more than the cap")."""
    sd = evidence.se * math.sqrt(evidence.runs) if evidence.runs else math.nan
    if not (evidence.distance > 0 and math.isfinite(evidence.distance) and sd > 0):
        return math.inf
    n = np.arange(max(evidence.runs + 1, min_runs), cap + 1)
    decided = n[mixture_p(n, evidence.distance, sd) < ALPHA / max(family, 1)]
    return float(decided[0]) if decided.size else math.inf
