"""The readings' test on the campaign's runs (analysis/claims/campaign_fit.py), on made-up runs
whose law is known: a curve made at one machine speed fits there; a curve no speed gives does not."""

import numpy as np
import pytest

from analysis.claims.campaign_fit import best_fit, score_at

TIMES = 0.01 * 2.0 ** np.arange(15)  # the published checkpoints, 0.01 to 163.84 s
RUNS = 200


def made_up_runs(budget: float, seed: int = 0) -> list[tuple]:
    """Runs whose best score after p playouts is 100 log10(p) plus a run's own offset (sd 20:
    the grid of R steps 3.5%, 1.5 points of this curve)."""
    rng = np.random.default_rng(seed)
    playouts = np.unique(np.geomspace(1, budget, 20_000).round())  # fine enough that the steps do not show
    return [(playouts, 100 * np.log10(playouts) + rng.normal(0, 20)) for _ in range(RUNS)]


def law(playouts):
    return 100 * np.log10(playouts)


def test_a_curve_made_at_one_speed_fits_there_and_not_at_a_speed_16_times_lower():
    budget = 163.84 * 1000
    traces = {"baseline": made_up_runs(budget)}
    published = {"baseline": (TIMES, law(TIMES * 1000))}
    fit = best_fit(traces, published, budget)
    assert fit.fits and fit.cells == 14  # every cell from 0.02 s on, reached below the cap
    assert fit.rate == pytest.approx(1000, rel=0.1)
    slow = score_at(1000 / 16, traces, published, budget)
    assert not slow.fits and slow.max_z > slow.bound


def test_a_faster_machine_is_scored_on_the_cells_the_runs_reach():
    """The published curve made at R = 1500 and our runs stopping at R = 1000's budget: the fit
    goes above the cap and scores the cells 1,500 x t playouts reach (the last dropped)."""
    budget = 163.84 * 1000
    fit = best_fit({"baseline": made_up_runs(budget)}, {"baseline": (TIMES, law(TIMES * 1500))}, budget)
    assert fit.fits and fit.rate > fit.rate_cap
    assert fit.cells == 13
    assert fit.rate == pytest.approx(1500, rel=0.15)


def test_a_curve_no_speed_gives_does_not_fit():
    """Published above our law by a share growing from 0 to 15% with time: on this log curve a
    machine speed shifts every cell alike, so no R maps ours onto it."""
    budget = 163.84 * 1000
    published = {"baseline": (TIMES, law(TIMES * 1000) * np.linspace(1.0, 1.15, TIMES.size))}
    fit = best_fit({"baseline": made_up_runs(budget)}, published, budget)
    assert not fit.fits
    assert fit.max_z > fit.bound


def test_a_cells_z_is_the_readings_t_on_the_published_and_our_standard_errors_as_a_normal_score():
    """By hand: three runs of best scores 10, 12, 14 at the one cell scored (0.02 s; 0.01 s is
    not), the published 15 over 200 runs, our values times 2 (value_scale)."""
    from scipy import stats

    playouts = np.array([1.0, 10.0])  # the value reached at 10 playouts, read at 0.02 x 1000 = 20
    traces = {"c": [(playouts, np.array([0.0, v])) for v in (5.0, 6.0, 7.0)]}
    fit = score_at(1000, traces, {"c": (np.array([0.01, 0.02]), np.array([0.0, 15.0]))}, budget=20, scale=2)
    mean, sd = 12.0, 2.0  # of 10, 12, 14
    t = (15.0 - mean) / (sd * np.sqrt(1 / 3 + 1 / 200))
    z = stats.norm.isf(stats.t.sf(t, 2))
    assert fit.cells == 1
    assert fit.max_z == pytest.approx(z) and fit.mean_z2 == pytest.approx(z * z)
    assert fit.bound == pytest.approx(stats.norm.isf(0.025))  # Bonferroni over one cell, two-sided


@pytest.mark.parametrize("mean_z2, max_z, fits", [(3.9, 3.0, True), (4.1, 1.0, False), (1.0, 3.2, False)])
def test_a_fit_needs_both_the_mean_z2_limit_and_the_bound(mean_z2, max_z, fits):
    from analysis.claims.campaign_fit import CampaignFit

    assert CampaignFit(1.0, 1.0, 14, mean_z2, max_z, bound=3.1).fits is fits


def test_the_other_columns_are_judged_as_one_family():
    """Seven columns of 14 cells: each column's largest abs(z) is held to Bonferroni's bound over the
    98 cells (3.49), not its own 14 (2.91): a column at 3.2 fits in the family, one at 3.6 does not."""
    from scipy import stats

    from analysis.claims.campaign_fit import CampaignFit, one_family

    fits = {f"c{i}": CampaignFit(1.0, 1.0, 14, 2.0, 3.2 if i else 3.6, bound=2.91) for i in range(7)}
    family = one_family(fits)
    assert family["c1"].bound == pytest.approx(stats.norm.isf(0.05 / (2 * 98)))
    assert family["c1"].fits and not family["c0"].fits
    assert not fits["c1"].fits  # at its own bound it would have been off
    assert one_family({}) == {}
