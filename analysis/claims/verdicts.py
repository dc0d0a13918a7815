"""Tests behind the claims report: pure functions on samples, no files.

Every test returns Evidence: a p-value for the claim (small: our runs support it) and one
for its opposite (small: our runs contradict it), the effect in the claimed direction with
its 95% CI, and the standard error that sizes the runs a decision would need. Holm's
step-down correction is applied across the claims of a report (``holm``), then
``verdict`` reads the two corrected p-values. The tests, and why each fits its claim:

  compare   A above B (or each A above each B, at one or several checkpoints): Welch's t
            (unequal variances; the tables compare means, and the mean of >= 20 runs is close
            to normal). A claim over several comparisons holds only if each does: its p-value
            for support is the largest of theirs (an intersection-union test, valid without
            correction); it is contradicted if any comparison goes significantly the other
            way (the smallest opposite p-value times their number, Bonferroni). With
            paired=True, for two columns measured on the same units (two networks on the same
            held-out games): the paired t test on the per-unit differences instead of Welch's.
  value     a published mean holds within +-margin: two one-sided t tests (TOST) for support;
            contradicted when our mean is significantly more than margin away.
  total     a sum over instances (20 boards) of A's mean above B's: bootstrap of the
            difference of the totals, resampling runs within each instance (few runs per
            board, no normality to lean on).
  gain      the gain per doubling of time stays within a factor 2: bootstrap of
            log2(late gain / early gain) over runs, support when it lies inside (-1, 1)
            (TOST on the bootstrap distribution), contradiction when it lies outside.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass

import numpy as np
from scipy import stats

ALPHA = 0.05
POWER = 0.8  # of the runs-to-decide estimate


@dataclass(frozen=True)
class Evidence:
    p_support: float
    p_contradict: float
    effect: float  # in the claimed direction (> 0: as claimed), in the claim's unit
    effect_low: float
    effect_high: float
    standardized: float  # effect / the runs' standard deviation (NaN where that is 0)
    standardized_low: float
    standardized_high: float
    se: float  # standard error of the deciding effect
    distance: float  # how far the effect is from the boundary a decision must cross
    runs: int  # runs per column now
    detail: str  # which comparison decided, in words
    published: float = math.nan  # the paper's own value of the deciding comparison, in the effect's unit and sign
    # the magnitude (sequential.against_published): of the claim's comparisons with a published value, how
    # many hold it, how many there are, and the worst one's z (ours minus the paper's, in standard errors)
    published_inside: float = math.nan
    published_compared: float = math.nan
    published_z: float = math.nan


@dataclass(frozen=True)
class Welch:
    difference: float  # mean(a) - mean(b)
    se: float
    p_greater: float  # H1: mean(a) > mean(b)
    p_less: float
    low: float
    high: float
    sd: float  # pooled standard deviation, sqrt((var a + var b) / 2)

    @property
    def t(self) -> float:
        """The t statistic: it ranks evidences whose p-values underflow to 0 together."""
        return self.difference / self.se if self.se > 0 else math.copysign(math.inf, self.difference)


def finite(values) -> np.ndarray:
    values = np.asarray(values, dtype=float)
    return values[np.isfinite(values)]


def welch(a, b) -> Welch:
    """Welch's t of mean(a) - mean(b), one-sided both ways, with its 95% CI. Two samples
    without spread (runs that all end at the same score) give p = 0 or 1 exactly."""
    a, b = finite(a), finite(b)
    difference = float(a.mean() - b.mean())
    variance_a, variance_b = a.var(ddof=1), b.var(ddof=1)
    se = math.sqrt(variance_a / a.size + variance_b / b.size)
    sd = math.sqrt((variance_a + variance_b) / 2)
    if se <= 1e-12 * max(1.0, abs(a.mean()), abs(b.mean())):  # no spread but rounding noise
        p_greater = 0.0 if difference > 0 else 1.0
        p_less = 0.0 if difference < 0 else 1.0
        return Welch(difference, 0.0, p_greater, p_less, difference, difference, 0.0)
    with warnings.catch_warnings():  # scipy's warning for one sample without spread: its variance is 0
        warnings.filterwarnings("ignore", "Precision loss occurred", RuntimeWarning)
        greater = stats.ttest_ind(a, b, equal_var=False, alternative="greater")
        less = stats.ttest_ind(a, b, equal_var=False, alternative="less")
        interval = stats.ttest_ind(a, b, equal_var=False).confidence_interval(1 - ALPHA)
    return Welch(difference, se, float(greater.pvalue), float(less.pvalue), float(interval.low),
                 float(interval.high), sd)


def paired_t(a, b) -> Welch:
    """The paired t test of mean(a - b), ``a[i]`` and ``b[i]`` measured on the same unit,
    one-sided both ways, with its 95% CI; ``sd`` is that of the differences. Differences
    without spread give p = 0 or 1 exactly, as ``welch``."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if a.shape != b.shape:
        raise ValueError(f"a paired test needs one value of each column per unit: got {a.size} and {b.size}")
    d = finite(a - b)
    difference, sd = float(d.mean()), float(d.std(ddof=1))
    se = sd / math.sqrt(d.size)
    if se <= 1e-12 * max(1.0, abs(difference)):
        return Welch(difference, 0.0, 0.0 if difference > 0 else 1.0, 0.0 if difference < 0 else 1.0,
                     difference, difference, 0.0)
    half = stats.t.ppf(1 - ALPHA / 2, d.size - 1) * se
    return Welch(difference, se, float(stats.ttest_1samp(d, 0.0, alternative="greater").pvalue),
                 float(stats.ttest_1samp(d, 0.0, alternative="less").pvalue), difference - half, difference + half, sd)


def compare(pairs: list[tuple[str, np.ndarray, np.ndarray]], *, unit_scale: float = 1.0,
            paired: bool = False) -> Evidence:
    """Each ``(name, a, b)``: the claim says mean(a) > mean(b) (higher is better: negate
    lower-is-better scores first). ``unit_scale`` turns differences into the claim's unit.
    ``paired``: a[i] and b[i] are measured on the same unit (paired_t), else Welch's t."""
    test = paired_t if paired else welch
    tests = [(name, test(a, b), min(finite(a).size, finite(b).size)) for name, a, b in pairs]
    # the weakest evidence decides; where p-values underflow to 0 together, the smallest t (else the lowest difference)
    name, deciding, runs = max(tests, key=lambda test: (test[1].p_greater, -test[1].t if test[1].p_greater == 0 else 0.0,
                                                          -test[1].difference))
    p_contradict = min(1.0, len(tests) * min(test.p_less for _, test, _ in tests))
    if deciding.difference <= 0:  # heading for contradiction: size it on the strongest opposite
        name, deciding, runs = min(tests, key=lambda test: (test[1].p_less, test[1].t if test[1].p_less == 0 else 0.0,
                                                             test[1].difference))
    scale = abs(unit_scale)
    sd = deciding.sd if deciding.sd > 0 else np.nan
    return Evidence(
        p_support=max(test.p_greater for _, test, _ in tests), p_contradict=p_contradict,
        effect=deciding.difference * scale, effect_low=deciding.low * scale, effect_high=deciding.high * scale,
        standardized=deciding.difference / sd, standardized_low=deciding.low / sd,
        standardized_high=deciding.high / sd, se=deciding.se * scale, distance=abs(deciding.difference) * scale,
        runs=runs, detail=f"{name}{' (of ' + str(len(tests)) + ' comparisons)' if len(tests) > 1 else ''}")


def value(sample, published: float, margin: float, *, unit_scale: float = 1.0, detail: str = "") -> Evidence:
    """The claim: the mean of ``sample`` is ``published`` within +-``margin`` (all in the
    claim's unit: ``sample`` is multiplied by ``unit_scale``)."""
    x = finite(sample) * unit_scale
    difference = float(x.mean() - published)
    sd = x.std(ddof=1) if x.size > 1 else 0.0
    se = sd / math.sqrt(x.size) if x.size else np.nan

    def one_sided(boundary: float, alternative: str) -> float:
        if se == 0:
            holds = x.mean() > boundary if alternative == "greater" else x.mean() < boundary
            return 0.0 if holds else 1.0
        return float(stats.ttest_1samp(x, boundary, alternative=alternative).pvalue)

    p_support = max(one_sided(published - margin, "greater"), one_sided(published + margin, "less"))
    p_contradict = min(1.0, 2 * min(one_sided(published + margin, "greater"), one_sided(published - margin, "less")))
    half = stats.t.ppf(1 - ALPHA / 2, x.size - 1) * se if x.size > 1 else np.nan
    inside = abs(difference) <= half if half == half else False
    scaled_sd = sd if sd > 0 else np.nan
    return Evidence(
        p_support=p_support, p_contradict=p_contradict, effect=difference, effect_low=difference - half,
        effect_high=difference + half, standardized=difference / scaled_sd,
        standardized_low=(difference - half) / scaled_sd, standardized_high=(difference + half) / scaled_sd,
        se=se, distance=margin - abs(difference) if abs(difference) < margin else abs(difference) - margin,
        runs=int(x.size),
        detail=f"{detail}our mean {x.mean():.4g} vs published {published:g} (margin {margin:g}); "
               f"the published value is {'inside' if inside else 'outside'} our 95% CI")


def bootstrap_p(samples: np.ndarray, boundary: float) -> tuple[float, float]:
    """One-sided bootstrap p-values of the statistic being above / below ``boundary``: the
    share of resamples on the other side (with the +1 that keeps them above 0)."""
    above = (1 + np.sum(samples <= boundary)) / (samples.size + 1)
    below = (1 + np.sum(samples >= boundary)) / (samples.size + 1)
    return float(above), float(below)


def speedup(k: float, samples: np.ndarray, published: float, margin: float, *, runs: int,
            detail: str = "") -> Evidence:
    """The claim: the speed-up k is ``published`` within +-``margin`` (Gelly et al.'s "about 2"),
    from k and its bootstrap replicates (analysis.results.speedup.speedup_samples): two one-sided
    bootstrap tests, as ``value`` does with t tests. A replicate whose k cannot be read (the
    parallel column beyond anything the sequential one reached) counts as above the band."""
    replicates = np.where(np.isfinite(samples), samples, np.inf)
    low, high = published - margin, published + margin
    above_low, below_low = bootstrap_p(replicates, low)
    above_high, below_high = bootstrap_p(replicates, high)
    p_support = max(above_low, below_high)
    p_contradict = min(1.0, 2 * min(below_low, above_high))
    finite_k = replicates[np.isfinite(replicates)]
    ci = np.percentile(finite_k, [2.5, 97.5]) if finite_k.size > replicates.size // 2 else (np.nan, np.nan)
    difference = k - published
    return Evidence(
        p_support=p_support, p_contradict=p_contradict, effect=difference, effect_low=ci[0] - published,
        effect_high=ci[1] - published, standardized=np.nan, standardized_low=np.nan, standardized_high=np.nan,
        se=float(np.std(finite_k)) if finite_k.size > 1 else np.nan,
        distance=margin - abs(difference) if abs(difference) < margin else abs(difference) - margin, runs=runs,
        detail=f"{detail}speed-up {k:.3g} [{ci[0]:.3g}, {ci[1]:.3g}] vs {published:g} +- {margin:g}")


def total(better: list[np.ndarray], worse: list[np.ndarray], *, resamples: int = 10_000, seed: int = 0,
          unit_scale: float = 1.0, detail: str = "") -> Evidence:
    """The claim: sum over instances of mean(better[i]) > sum of mean(worse[i])."""
    rng = np.random.default_rng(seed)
    better = [finite(x) * unit_scale for x in better]
    worse = [finite(x) * unit_scale for x in worse]

    def resampled_total(groups: list[np.ndarray]) -> np.ndarray:
        return sum(x[rng.integers(0, x.size, (resamples, x.size))].mean(axis=1) for x in groups)

    observed = sum(x.mean() for x in better) - sum(x.mean() for x in worse)
    samples = resampled_total(better) - resampled_total(worse)
    p_support, p_contradict = bootstrap_p(samples, 0.0)
    low, high = np.percentile(samples, [2.5, 97.5])
    se = float(samples.std(ddof=1))
    sd = se * math.sqrt(min(x.size for x in better + worse)) or np.nan
    return Evidence(p_support, p_contradict, float(observed), float(low), float(high), observed / sd,
                    low / sd, high / sd, se, abs(float(observed)), min(x.size for x in better + worse),
                    detail + "difference of the totals of per-instance means (bootstrap over runs)")


def gain_ratio(matrix: np.ndarray) -> tuple[float, float]:
    """From runs x checkpoints (doublings of time) of best scores: the mean gain per
    doubling (least-squares slope of the mean against log2 time) and log2(late / early),
    the gains over the later half of the doublings against the earlier half."""
    means = matrix.mean(axis=0)
    gains = np.diff(means)
    half = gains.size // 2
    early, late = gains[:half].mean(), gains[half:].mean()
    slope = np.polyfit(np.arange(means.size), means, 1)[0]
    if early > 0 and late > 0:
        ratio = math.log2(late / early)
    else:  # no gain in one half: outside any band (the early half gaining nothing: above it)
        ratio = np.inf if late > 0 else -np.inf
    return float(slope), ratio


def gain(matrix, *, resamples: int = 2000, seed: int = 0, unit_scale: float = 1.0, detail: str = "") -> Evidence:
    """The claim: each doubling of time buys a roughly constant gain, read as: the mean gain
    over the later half of the doublings is within a factor 2 of the earlier half's
    (|log2 late/early| < 1). The effect reported is the slope per doubling (in the claim's
    unit); the decision is on the ratio."""
    matrix = np.asarray(matrix, dtype=float) * unit_scale
    if matrix.shape[1] < 3:
        raise ValueError("the gain claim needs at least 3 checkpoints (2 doublings)")
    slope, ratio = gain_ratio(matrix)
    rng = np.random.default_rng(seed)
    boot = np.array([gain_ratio(matrix[rng.integers(0, len(matrix), len(matrix))]) for _ in range(resamples)])
    slopes, ratios = boot[:, 0], boot[:, 1]
    inside_low, _ = bootstrap_p(ratios, -1.0)  # small: the ratio is above -1
    _, inside_high = bootstrap_p(ratios, 1.0)  # small: the ratio is below 1
    outside_low, outside_high = bootstrap_p(ratios, -1.0)[1], bootstrap_p(ratios, 1.0)[0]
    finite_ratios = ratios[np.isfinite(ratios)]
    low, high = np.percentile(slopes, [2.5, 97.5])
    ratio_low, ratio_high = (np.percentile(finite_ratios, [2.5, 97.5]) if finite_ratios.size else (np.nan, np.nan))
    se = float(np.std(finite_ratios, ddof=1)) if finite_ratios.size > 1 else np.nan
    return Evidence(
        p_support=max(inside_low, inside_high), p_contradict=min(1.0, 2 * min(outside_low, outside_high)),
        effect=slope, effect_low=float(low), effect_high=float(high),
        standardized=ratio, standardized_low=float(ratio_low), standardized_high=float(ratio_high),
        se=se, distance=abs(1 - abs(ratio)) if np.isfinite(ratio) else np.inf, runs=len(matrix),
        detail=f"{detail}log2(late gain / early gain) = {ratio:.2f} [{ratio_low:.2f}, {ratio_high:.2f}]")


def holm(p_values) -> np.ndarray:
    """Holm's step-down adjusted p-values (NaN entries are left out and stay NaN)."""
    p = np.asarray(p_values, dtype=float)
    adjusted = np.full(p.shape, np.nan)
    index = np.flatnonzero(np.isfinite(p))
    order = index[np.argsort(p[index], kind="stable")]
    m = order.size
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p[i]))
        adjusted[i] = running
    return adjusted


def verdict(p_support: float, p_contradict: float) -> str:
    """From Holm-adjusted p-values: supported, contradicted or inconclusive."""
    if p_support < ALPHA:
        return "supported"
    if p_contradict < ALPHA:
        return "contradicted"
    return "inconclusive"


def runs_to_decide(evidence: Evidence, family: int) -> float:
    """About how many runs per column would decide an inconclusive claim if the effect is
    what we measured: the standard error shrinks as 1/sqrt(runs) until the effect is
    ``distance`` / (t(1 - alpha / family) + t(power)) standard errors from the boundary
    (Bonferroni's alpha / family, which Holm's first step is; Student-t quantiles with
    runs - 1 degrees of freedom, so a handful of runs is not promised a decision that only
    the normal approximation would give). Inf when there is no effect."""
    if not (evidence.se > 0 and evidence.distance > 0 and math.isfinite(evidence.distance)):
        return math.inf
    alpha = ALPHA / max(family, 1)
    runs = evidence.runs
    for _ in range(50):  # the quantiles depend on the answer: iterate to a fixed point
        dof = max(runs - 1, 1)
        z = stats.t.ppf(1 - alpha, dof) + stats.t.ppf(POWER, dof)
        needed = max(2, math.ceil(evidence.runs * (z * evidence.se / evidence.distance) ** 2))
        if needed == runs:
            break
        runs = needed
    return float(max(runs, evidence.runs + 1))  # inconclusive now: more runs than now, at least
