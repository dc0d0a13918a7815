"""The C++ reference engine as an instrument (experiments/reference_engine.py, reference_runs.py,
analysis/claims/engines.py, engines_page.py): its event file read on made-up text; the settings it refuses, named; the
comparisons on made-up runs; and, where the engine is built (`make cpp-ref CPP_REF=<a clone of
github.com/bnegreve/nrpa>`, or NRPA_CPP_REF naming a binary), its SameGame rules move by move
against the harness's plain-Python rules, its SNRPA(P) level loop by its playout count, and its
budgets and work checkpoints."""

import json
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

from analysis.claims import engines, engines_page, gain_split, same_search
from experiments import reference_engine as ref
from experiments import reference_runs
from nrpa.domains import samegame_rules as rules
from nrpa.domains import bus_rules, maximum_rules, tsptw_rules, weakschur_rules
from nrpa.domains.bus_adapter import BusOptions
from nrpa.domains.maximum_adapter import MaximumOptions
from nrpa.domains.tsptw_adapter import TsptwOptions
from nrpa.domains.samegame_adapter import SameGameOptions
from nrpa.errors import InputError
from nrpa.settings import SearchSettings
from experiments.runs import Job


def built() -> bool:
    try:
        for domain in ref.BINARIES:
            ref.binary(domain)
        ref.check_current()
        return True
    except InputError:
        return False


needs_engine = pytest.mark.skipif(not built(), reason="no C++ reference engine built from this checkout's patch: "
                                  "make cpp-ref CPP_REF=<a clone of github.com/bnegreve/nrpa>")
SETTINGS = ref.ReferenceSettings(domain="samegame", board=1, rule="selective", threshold=10, level=1, N=3, P=4)
BUS = ref.ReferenceSettings(domain="bus", rule="selective", threshold=3, level=1, N=3, P=1)


def test_events_are_read_in_order():
    text = "W 0.01 5 -1.7976931348623157e+308\nB 6 0.011 120\nW 0.0109051 9 120\nB 12 0.02 300\nE 15 0.03 300\n"
    found = ref.parse_events(text)
    assert found["work"] == {"playouts": [5, 9], "best": [-1.7976931348623157e+308, 120.0]}
    assert found["improvements"] == {"playouts": [6, 12], "cpu": [0.011, 0.02], "score": [120.0, 300.0]}
    assert found["end"] == {"playouts": 15, "cpu": 0.03, "best": 300.0}


@pytest.mark.parametrize("text, message", [("W 0.02 5 1\nE 5 0.1 1\n", "out of sequence"),
                                           ("W 0.01 5 1\n", "no end line"), ("X 1\nE 1 1 1\n", "unknown event")])
def test_bad_event_files_are_named(text, message):
    with pytest.raises(ValueError, match=message):
        ref.parse_events(text)


def test_checkpoints_hold_the_published_times():
    assert ref.checkpoint_time(0) == pytest.approx(0.01)
    assert ref.checkpoint_time(8 * 14) == pytest.approx(163.84)


@pytest.mark.parametrize("change, named", [(dict(alpha=0.5), "alpha"), (dict(algorithm="nmcs"), "algorithm"),
                                           (dict(algorithm="rnrpa", patience=3), "algorithm, patience")])
def test_settings_the_engine_cannot_run_are_named(change, named):
    job = Job(SameGameOptions(board="1", policy="tabu"), replace(SearchSettings(), **change))
    with pytest.raises(InputError, match=named):
        ref.settings_of(job)


def test_a_board_file_and_a_bad_rule_are_refused():
    with pytest.raises(InputError, match="board file"):
        ref.settings_of(Job(SameGameOptions(board="my_board.txt"), SearchSettings()))
    with pytest.raises(InputError, match="rules are"):
        ref.ReferenceSettings(domain="samegame", board=1, rule="greedy", threshold=0, level=4, N=100, P=1)
    with pytest.raises(InputError, match="bus rules are none, selective"):
        replace(BUS, rule="tabu")
    with pytest.raises(InputError, match="bus.cpp's model"):
        ref.settings_of(Job(BusOptions(model="paper"), SearchSettings()))
    assert ref.settings_of(Job(BusOptions(model="bus_cpp", delta=2), SearchSettings())) == replace(
        BUS, threshold=2, level=4, N=100, rule="selective")


def test_the_command_line_says_every_setting():
    arguments = ref.command(ref.DEFAULT_BUILD / "src" / "same", replace(SETTINGS, board=3), 7, playouts=100)
    text = " ".join(arguments[1:])
    assert text == "-r 1 -x 1 -l 1 -n 3 -k 4 -R selective -m 10 -a 7 -B 100 2"
    with pytest.raises(InputError, match="seeds are 1 or more"):
        ref.command(ref.DEFAULT_BUILD / "src" / "same", SETTINGS, 0, playouts=1)
    bus = ref.command(ref.DEFAULT_BUILD / "src" / "test" / "bus", BUS, 2, cpu_seconds=1.5)
    assert " ".join(bus[1:]) == "-r 1 -x 1 -l 1 -n 3 -k 1 -R selective -m 3 -a 2 -b 1.5"  # no board


def test_a_missing_engine_says_how_to_build_it(monkeypatch, tmp_path):
    monkeypatch.setenv("NRPA_CPP_REF", str(tmp_path))
    with pytest.raises(InputError, match="make cpp-ref"):
        ref.binary("samegame")


def record(column, seed, work, improvements, end_playouts, seconds=1.0):
    return {"column": column, "seed": seed, "budget": {"cpu_seconds": seconds, "playouts": 0},
            "work": {"playouts": work, "best": [0.0] * len(work)},
            "improvements": {"playouts": improvements[0], "score": improvements[1], "cpu": [0.0] * len(improvements[0])},
            "end": {"playouts": end_playouts, "cpu": seconds, "best": improvements[1][-1]}}


def test_rho_ref_pairs_the_seeds():
    runs = {"NRPA": [record("NRPA", 1, [10, 20], ([1], [1]), 20), record("NRPA", 2, [10, 40], ([1], [1]), 40)],
            "SNRPA(2)": [record("SNRPA(2)", 2, [10, 80], ([1], [1]), 80), record("SNRPA(2)", 1, [10, 40], ([1], [1]), 40)]}
    rho, low, high, seeds = engines.rho_ref(runs, "NRPA", 0.01 * 2 ** (1 / 8))["SNRPA(2)"]
    assert (rho, seeds) == (pytest.approx(2.0), 2)  # 40/20 and 80/40, paired by seed
    assert low == pytest.approx(2.0) and high == pytest.approx(2.0)


def test_rho_ref_reads_each_column_over_its_own_baseline():
    """Weak Schur's tables have a baseline a K: ws_rule_7 over ws_7, not over ws_6."""
    runs = {name: [record(name, 1, [10, work], ([1], [1]), work)] for name, work in
            (("ws_6", 20), ("ws_7", 40), ("ws_rule_7", 10))}
    found = engines.rho_ref(runs, {"ws_6": "ws_6", "ws_7": "ws_7", "ws_rule_7": "ws_7"}, 0.01 * 2 ** (1 / 8))
    assert found["ws_rule_7"][0] == pytest.approx(0.25) and found["ws_7"][0] == pytest.approx(1.0)


def test_a_seed_counts_once_in_its_longest_run():
    runs = engines.by_column([record("A", 1, [1], ([1], [5]), 100), record("A", 1, [1], ([1], [5]), 300),
                              record("A", 2, [1], ([1], [5]), 50)])
    assert [r["end"]["playouts"] for r in runs["A"]] == [300, 50]


def synthetic(shift, runs, seed):
    """Runs whose best score after n playouts is 100 log2(n) + noise + shift (one improvement a doubling)."""
    generator = np.random.default_rng(seed)
    positions = [2 ** k for k in range(6, 15)]
    traces = []
    for _ in range(runs):
        scores = list(np.maximum.accumulate([100 * k + shift + generator.normal(0, 20) for k in range(6, 15)]))
        traces.append((positions, scores))
    return traces, [2 ** 14] * runs


def test_the_same_search_agrees_and_a_shifted_one_differs():
    ours = {"A": synthetic(0, 200, 1), "B": synthetic(0, 200, 2)}
    reference = {"A": synthetic(0, 200, 3), "B": synthetic(100, 200, 4)}
    cells = same_search.agreement(reference, ours, margin=15.0, cells=tuple(2 ** k for k in range(6, 15)))
    assert same_search.column_verdicts(cells) == {"A": "agrees", "B": "differs"}
    few = same_search.agreement({"A": synthetic(0, same_search.MIN_RUNS, 5)}, {"A": ours["A"]}, margin=5.0, cells=(2 ** 10,))
    assert same_search.column_verdicts(few) == {"A": "inconclusive"}


def test_a_cut_last_line_is_dropped_and_made_again(tmp_path):
    path = reference_runs.runs_file("t", tmp_path)
    path.write_text(json.dumps({"column": "A"}) + "\n" + '{"column": "B", "se')
    assert reference_runs.read_runs("t", tmp_path) == [{"column": "A"}]
    reference_runs.append_run("t", {"column": "C"}, tmp_path)
    assert [r["column"] for r in reference_runs.read_runs("t", tmp_path)] == ["A", "C"]


@needs_engine
@pytest.mark.parametrize("rule, threshold", [("none", 0), ("tabu", 0), ("selective", 0), ("selective", 10)])
def test_the_engines_rules_are_the_harness_rules_move_by_move(rule, threshold):
    board = rules.load_board(1).rows
    tabu = rules.tabu_colour(board)
    for seed in (1, 2, 3):
        legal, played, score = ref.move_trace(replace(SETTINGS, rule=rule, threshold=threshold), seed)
        grid, total = rules.new_grid(board), 0
        for step, (groups, cell) in enumerate(zip(legal, played)):
            ours = rules.legal_groups(grid, rule=rule, threshold=threshold, tabu=tabu, moves_played=step)
            assert groups == {(g[0][0] * 15 + g[0][1], len(g)) for g in ours}, (rule, seed, step)
            total += rules.remove_group(grid, rules.group_at(grid, *divmod(cell, 15)))
        assert len(legal) == len(played) and not rules.all_groups(grid)
        assert score == total


@needs_engine
@pytest.mark.parametrize("level, N, P, playouts", [(1, 3, 4, 12), (2, 3, 2, 18), (2, 4, 1, 16)])
def test_snrpa_plays_p_playouts_a_level_one_iteration(level, N, P, playouts):
    found = ref.run(replace(SETTINGS, level=level, N=N, P=P), 1, playouts=10_000)
    assert found["end"]["playouts"] == playouts  # the search ended, its level loops counted


@needs_engine
def test_a_run_stops_at_its_budget_and_records_its_work():
    found = ref.run(replace(SETTINGS, level=4, N=100, P=2), 5, playouts=3_000)
    assert found["end"]["playouts"] == 3_000
    work = found["work"]["playouts"]
    assert work == sorted(work) and work[-1] <= 3_000
    assert found["improvements"]["score"] == sorted(found["improvements"]["score"])
    assert found["end"]["best"] == found["improvements"]["score"][-1]
    timed = ref.run(replace(SETTINGS, level=4, N=100, P=1), 5, cpu_seconds=0.05)
    assert 0.05 <= timed["end"]["cpu"] < 0.5
    passed = [k for k in range(100) if ref.checkpoint_time(k) <= timed["end"]["cpu"]]
    assert 19 <= len(timed["work"]["playouts"]) <= len(passed)  # every checkpoint to 0.05 s (k = 18) at least


@needs_engine
@pytest.mark.parametrize("delta", [0, 1, 3, 4])
def test_the_engines_bus_is_the_harness_bus_move_by_move(delta):
    instance = bus_rules.load_instance("paper")
    for seed in (1, 2):
        legal, played, score = ref.move_trace(replace(BUS, rule="selective" if delta else "none", threshold=delta), seed)
        line = bus_rules.Line(instance, delta=delta, model="bus_cpp")
        for step, (waits, wait) in enumerate(zip(legal, played)):
            assert waits == line.legal_dwell_times(), (delta, seed, step)
            line.play(wait)
        assert len(legal) == len(played) and line.decision_bus is None
        assert score == pytest.approx(line.score(), abs=1e-9)


WS = ref.ReferenceSettings(domain="weakschur", rule="rule", threshold=0, level=1, N=3, P=1, parts=6)


@needs_engine
@pytest.mark.parametrize("parts, rule", [(3, "standard"), (6, "rule"), (7, "standard"), (7, "rule")])
def test_the_engines_weak_schur_is_the_harness_weak_schur_move_by_move(parts, rule):
    for seed in (1, 2):
        legal, played, score = ref.move_trace(replace(WS, parts=parts, rule=rule), seed)
        partition = [set() for _ in range(parts)]
        for n, (choices, part) in enumerate(zip(legal, played), start=1):
            assert sorted(choices) == weakschur_rules.legal_parts(partition, n, rule=rule), (parts, rule, seed, n)
            partition[part].add(n)
        assert len(legal) == len(played) == score
        assert weakschur_rules.legal_parts(partition, len(played) + 1, rule=rule) == []


def test_maximum_and_tsptw_settings_are_the_engines_or_refused():
    assert ref.settings_of(Job(MaximumOptions(), SearchSettings())).domain == "maximum"
    with pytest.raises(InputError, match="199 atoms"):
        ref.settings_of(Job(MaximumOptions(max_atoms=150), SearchSettings()))
    assert ref.settings_of(Job(TsptwOptions(), SearchSettings())).instance == "rc_204.1"
    with pytest.raises(InputError, match="own pruning is not the harness's domain.policy=pruned"):
        ref.settings_of(Job(TsptwOptions(policy="pruned"), SearchSettings()))


@needs_engine
def test_the_engines_maximum_problem_is_the_sources_move_by_move():
    """nrpa/data/maxexpr/SOURCE.md: atom a (arity 2 for + and *, 0 for 1) is legal iff length + open
    leaves + arity <= 199; the score, the expression's value in single precision, each + and * rounded."""
    settings = ref.ReferenceSettings(domain="maximum", rule="none", threshold=0, level=1, N=3, P=1)
    lengths = set()
    for seed in range(1, 9):
        legal, played, score = ref.move_trace(settings, seed)
        length, open_leaves = 0, 1
        for atoms, atom in zip(legal, played):
            assert atoms == tuple(a for a, arity in ((0, 2), (1, 2), (2, 0)) if length + open_leaves + arity <= 199)
            length, open_leaves = length + 1, open_leaves + (1 if atom < 2 else -1)
        assert open_leaves == 0 and len(legal) == len(played)
        tokens = [maximum_rules.ATOMS[a] for a in played]
        maximum_rules.check(tokens, 199)
        # uniform playouts stay below 2**24, where float32 is exact: the rounding itself is shown by
        # test_the_engines_maximum_scores_are_single_precision_values
        assert score == float(maximum_rules.value(maximum_rules.parse(tokens), maximum_rules.PRECISIONS["float32"]))
        lengths.add(len(played))
    assert max(lengths) == 199  # the limit reached by some playouts


@needs_engine
def test_the_engines_tsptw_is_the_harness_tsptw_move_by_move():
    instance = tsptw_rules.load_instance("rc_204.1")
    settings = ref.ReferenceSettings(domain="tsptw", rule="all", threshold=0, level=1, N=3, P=1, instance="rc_204.1")
    for seed in (1, 2, 3):
        legal, played, score = ref.move_trace(settings, seed)
        visited, here, time = set(), 0, 0.0
        for customers, customer in zip(legal, played):
            assert sorted(customers) == tsptw_rules.legal_customers(instance, visited, here, time, rule="all")
            time = max(time + instance.distance[here][customer], instance.ready[customer])
            here = customer
            visited.add(customer)
        assert len(played) == instance.nodes - 1
        assert score == pytest.approx(tsptw_rules.score(instance, played), abs=1e-6)


def test_work_by_time_interpolates_and_extends_at_the_end_rates():
    taus, works = np.array([0.01, 0.02, 0.04]), np.array([10.0, 40.0, 80.0])
    found = engines.work_by_time(taus, works, [0.005, 0.01, 0.01 * 2 ** 0.5, 0.03, 0.08])
    # before the first checkpoint in proportion to time; log-log between checkpoints; after the last
    # at the last checkpoint's mean rate (80 / 0.04 = 2,000 a second)
    assert found == pytest.approx([5.0, 10.0, 20.0, 40.0 * 2 ** np.log2(0.03 / 0.02), 160.0])


def test_a_cell_the_judged_runs_stop_short_of_is_read_on_longer_runs():
    def runs(count: int, reach: int, score: float) -> tuple:  # each run's best: score from playout 1 on
        return [(np.array([1.0]), np.array([score + k % 2])) for k in range(count)], [reach] * count

    times, values = np.array([0.02, 0.04, 0.08]), np.array([10.5, 10.5, 20.5])
    work = np.array([100.0, 200.0, 400.0])
    judged, longer = runs(30, 200, 10.0), runs(same_search.MIN_RUNS, 400, 20.0)
    found = engines.read_column("NRPA", engines.TODAY, work, times, values, [judged, longer], 1.0)
    # the first two cells on the 30 judged runs (mean 10.5: z = 0), the third on the longer ones (20.5)
    assert (found.cells, found.inside, found.longer_cells, found.longer_runs) == (3, 3, 1, same_search.MIN_RUNS)
    assert found.mean_z2 == pytest.approx(0.0)
    # fewer than MIN_RUNS longer runs read nothing: the third cell is left out
    short = runs(same_search.MIN_RUNS - 1, 400, 20.0)
    found = engines.read_column("NRPA", engines.TODAY, work, times, values, [judged, short], 1.0)
    assert (found.cells, found.longer_cells) == (2, 0)
    assert engines_page.cells_text({"cells": 3, "published_cells": 3, "longer_cells": 1, "longer_runs": 25}) == \
        "3 (3; 1 on 25 longer runs)"


def test_the_clock_ends_are_rho_refs_95_percent_interval_over_its_mean():
    """By hand: three seeds whose column B does 1.5, 2 and 2.5 times the baseline's work at every
    checkpoint; on the logarithms, mean m and the Student-t half-width h with 2 degrees of freedom:
    the ends are exp(-h) and exp(+h) times rho_ref, at any tau (before the first checkpoint and past
    the last ones, the nearest checkpoint's)."""
    from scipy import stats

    ratios = [1.5, 2.0, 2.5]
    base = [{"seed": i, "work": {"playouts": [100.0, 200.0, 400.0]}} for i in range(3)]
    column = [{"seed": i, "work": {"playouts": [100.0 * r, 200.0 * r, 400.0 * r]}} for i, r in enumerate(ratios)]
    half = stats.t.ppf(0.975, 2) * np.log(ratios).std(ddof=1) / np.sqrt(3)
    low, high = engines.clock_ends({"A": base, "B": column}, {"B": "A"}, "B", np.array([0.001, 0.01, 1.0]))
    assert low == pytest.approx([np.exp(-half)] * 3) and high == pytest.approx([np.exp(half)] * 3)
    one = engines.clock_ends({"A": base[:1], "B": column[:1]}, {"B": "A"}, "B", np.array([0.01]))
    assert np.isnan(one).all()  # one seed: no interval, no ends


# a table whose R is fitted on NRPA alone, for the clocks' pages
T4_LIKE = type("Experiment", (), {"published_rate": type("Rate", (), {"fit_on": ("NRPA",)})()})()


def test_the_summary_page_reads_each_tables_clocks(tmp_path):
    rows = [engines.Reading("NRPA", "t x R x rho (this engine)", 14, 14, 6, 7, 2.3, 2.5, 2.9),
            engines.Reading("NRPA", "reference clock", 13, 14, 5, 9, 4.4, 3.1, 2.9),
            engines.Reading("SNRPA(2)", "reference clock", 13, 14, 2, 13, 9.0, 5.0, 3.3,
                            above_low=2, above_high=13, fits_low=1.0, fits_high=0.0)]
    engines_page.readings_frame({"readings": rows, "speed": 1.5, "baseline": "NRPA", "experiment": T4_LIKE}).to_csv(tmp_path / "engines_t4_clocks.csv", index=False)
    text = engines_page.summary(tmp_path).read_text()
    assert ("s = 1.50. The baseline chooses **t x R x rho (this engine)** (t x R x rho (this engine): chosen; reference "
            "clock: rejected: does not fit): the claims read t x R x rho. The other columns, nothing fitted to them, fitting at t x R x rho: 0 of 0; "
            "at the reference clock: 0 of 1; read at the ends of rho_ref's 95% interval, ours mostly below the "
            "published at the low end and mostly above at the high end (the clock's own error spans the published "
            "values): 1 of 1.") in text
    assert "| NRPA | reference clock | 13 (14) | 5 | 9 / 4 | 4.40 | 3.10 / 2.90 | no |" in text
    assert ("| SNRPA(2) | reference clock | 13 (14) | 2 | 13 / 0 | 9.00 | 5.00 / 3.30 | no; at rho_ref's 95% ends "
            "above in 2 / 13 of 13 cells, fitting at the low end |") in text


def test_a_gain_splits_into_its_equal_playouts_part_and_each_columns_extra_work():
    """By hand: R = 10 and t = 10 s, so equal playouts is 100; rho is 1.5 for B and 1.2 for C. Run i
    of B scores 10 + i at 100 playouts and 20 + i at 150; of C, 5 + 2i at 100 and 8 + 2i at 120; of
    the baseline A, 7 + i at 100. B over A: 3 at equal playouts, 10 from B's extra work. B over C:
    14.5 - 14 = 0.5, then 10 - 3 = 7, summing to B's equal-time mean less C's, 24.5 - 17."""
    runs = range(10)
    ours = {"A": ([((1, 100), (0, 7 + i)) for i in runs], [100] * 10),
            "B": ([((1, 100, 150), (0, 10 + i, 20 + i)) for i in runs], [150] * 10),
            "C": ([((1, 100, 120), (0, 5 + 2 * i, 8 + 2 * i)) for i in runs], [120] * 10)}
    against_a = type("Relative", (), {"against": "A"})()
    rate = type("Rate", (), {"R": 10.0, "rho": staticmethod({"A": 1.0, "B": 1.5, "C": 1.2}.get), "fit_on": ("A",),
                             "relative": (("B", against_a), ("C", against_a))})()
    measured = {"experiment": type("Experiment", (), {"published_rate": rate})(), "baseline": "A", "clock": {},
                "speed": np.nan}
    over_a = gain_split.split_pair(measured, ours, {}, 1.0, "B", "A", 10.0)
    assert (over_a["equal_playouts"], over_a["ours_part"], over_a["ours_part_low"]) == (3.0, 10.0, 10.0)
    assert np.isnan(over_a["ref_equal_playouts"]) and np.isnan(over_a["ref_part"])  # no reference runs, no clock
    over_c = gain_split.split_pair(measured, ours, {}, 1.0, "B", "C", 10.0)
    assert over_c["equal_playouts"] == pytest.approx(0.5) and over_c["ours_part"] == pytest.approx(7.0)
    assert over_c["equal_playouts"] + over_c["ours_part"] == pytest.approx(24.5 - 17.0)
    flipped = gain_split.split_pair(measured, ours, {}, -1.0, "B", "C", 10.0)  # a lower-is-better unit
    assert (flipped["equal_playouts"], flipped["ours_part"]) == pytest.approx((-0.5, -7.0))
    short = gain_split.split_pair(measured, ours, {}, 1.0, "B", "A", 20.0)  # 200 playouts: beyond every run
    assert np.isnan(short["equal_playouts"]) and np.isnan(short["ours_part"])
    assert "ours not reached" in gain_split.split_text(short)
    assert "this engine (rho 1.5) +10 [+10, +10], the reference engine (no clock measured)" in gain_split.split_text(over_a)

    # B's judged runs stop at 100 playouts: its extra work is read, paired, on its 10 longer runs
    # (12 + i at 100, 20 + i at 150: +8), the equal-playouts part still on the judged runs
    cut = {**ours, "B": ([((1, 100), (0, 10 + i)) for i in runs], [100] * 10)}
    longer = {"B": [([((1, 100, 150), (0, 12 + i, 20 + i)) for i in runs], [150] * 10)]}
    found = gain_split.split_pair({**measured, "longer": longer}, cut, {}, 1.0, "B", "A", 10.0)
    assert (found["equal_playouts"], found["ours_part"], found["ours_longer_runs"]) == (3.0, 8.0, 10)
    assert "this engine (rho 1.5) +8 [+8, +8] (on 10 longer runs)" in gain_split.split_text(found)


def test_the_baseline_chooses_the_clock_by_the_readings_rule():
    def rows(today: tuple, clock: tuple) -> pd.DataFrame:  # (cells, mean z^2, largest abs(z)) of the baseline
        return pd.DataFrame([{"column": "NRPA", "reading": reading, "cells": cells, "mean_z2": z2, "max_z": z}
                             for reading, (cells, z2, z) in (("t x R x rho (this engine)", today),
                                                             ("reference clock", clock))])
    assert "chooses **reference clock**" in engines_page.clock_choice(rows((14, 2.3, 2.5), (14, 1.4, 2.4)))
    assert "t x R x rho (this engine): not told apart" in engines_page.clock_choice(rows((14, 2.3, 2.5), (14, 1.4, 2.4)))
    # worse by more than a z^2 of 1 a cell: rejected
    assert "rejected: worse" in engines_page.clock_choice(rows((14, 3.5, 2.5), (14, 1.4, 2.4)))
    assert "chooses **t x R x rho" in engines_page.clock_choice(rows((14, 1.0, 2.0), (14, 12.0, 6.0)))
    assert "chooses neither" in engines_page.clock_choice(rows((14, 10.8, 6.6), (13, 2.9, 3.01)))  # beyond its bound


def test_the_readings_report_shows_each_tables_two_clocks(tmp_path):
    from analysis.claims import readings

    rows = [engines.Reading("NRPA", "t x R x rho (this engine)", 14, 14, 6, 7, 2.3, 2.5, 2.9),
            engines.Reading("NRPA", "reference clock", 13, 14, 5, 9, 4.4, 3.1, 2.9)]
    engines_page.readings_frame({"readings": rows, "speed": 1.5, "baseline": "NRPA", "experiment": T4_LIKE}).to_csv(tmp_path / "engines_t4_clocks.csv", index=False)
    text = readings.markdown(pd.DataFrame({"case": []}), [], "paper", {},
                             engines_page.clock_sections(tmp_path, heading="###"))
    assert "## Equal time: which clock" in text and "### [t4](engines_t4.md)" in text
    assert "The baseline chooses **t x R x rho (this engine)**" in text


@needs_engine
@pytest.mark.parametrize("table", ["stabilized_table4", "selective_table3", "selective_table5"])
def test_archived_runs_of_an_earlier_patch_replay_on_the_current_engine(table):
    """The SameGame and Weak Schur runs kept from before the patch kept scores as doubles (their
    scores are integers below 2^31, which the int changed nothing in): the first archived playouts
    run of each column, made again on the current engine to 2,048 playouts, rises to the same best
    scores at the same playouts."""
    by_column = {}
    for record in reference_runs.read_runs(table):
        if record["budget"]["playouts"] and record["column"] not in by_column:
            by_column[record["column"]] = record
    assert by_column, table
    for column, record in list(by_column.items())[:2]:
        settings = {"domain": "samegame", **record["settings"]}  # the first records, before other domains, say none
        again = ref.run(ref.ReferenceSettings(**settings), record["seed"], playouts=2_048)
        archived = [(n, s) for n, s in zip(record["improvements"]["playouts"], record["improvements"]["score"])
                    if n <= 2_048]
        assert list(zip(again["improvements"]["playouts"], again["improvements"]["score"])) == archived, column


def test_a_log_scored_domains_cells_compare_log10_of_the_scores():
    """The same runs, one engine's scores ten times the other's: on log10 the means differ by exactly
    1, clear of 0 (differs); the absolute comparison's difference is 9 times our mean."""
    runs = [(np.array([1.0]), np.array([10.0 ** (3 + k % 3)])) for k in range(12)]
    tenfold = [(p, s * 10) for p, s in runs]
    reference, ours = {"A": (tenfold, [64] * 12)}, {"A": (runs, [64] * 12)}
    found = same_search.agreement(reference, ours, 0.0086, cells=(64,), log=True)
    assert found["difference"].tolist() == pytest.approx([1.0]) and found["verdict"].tolist() == ["differs"]
    assert same_search.agreement(reference, ours, 0.0086, cells=(64,))["difference"].iloc[0] == pytest.approx(
        9 * np.mean([10.0 ** (3 + k % 3) for k in range(12)]))


def test_the_baseline_chooses_the_cpu_model_whose_clock_it_fits_best():
    """Each model's clock read apart: the baseline's reference-clock reading on each, judged by the
    readings' rule (chi^2 8.7 against 23.7 over 14 cells: the second model, the first rejected as
    worse); where no model's clock fits the baseline, the first made."""
    def candidate(mean_z2: float, max_z: float) -> tuple:
        return [engines.Reading("NRPA", engines.REFERENCE_CLOCK, 14, 14, 10, 7, mean_z2, max_z, 2.91)], 1.0

    model, statuses = engines.clock_model({"AMD": candidate(1.69, 2.3), "Intel": candidate(0.62, 1.7)}, "NRPA")
    assert model == "Intel" and statuses["AMD"][0] == "rejected: worse"
    model, statuses = engines.clock_model({"AMD": candidate(9.0, 5.0), "Intel": candidate(8.0, 4.0)}, "NRPA")
    assert model == "AMD" and statuses["Intel"][0] == "rejected: does not fit"


def test_a_second_cpu_models_clock_the_baseline_does_not_tell_apart_is_the_claims_second_clock():
    rate = type("Rate", (), {"fit_on": ("NRPA",)})()
    readings = [engines.Reading("NRPA", engines.TODAY, 14, 14, 6, 1, 2.3, 2.5, 2.91),
                engines.Reading("NRPA", engines.REFERENCE_CLOCK, 14, 14, 12, 5, 0.7, 1.6, 2.91)]
    runs = {"NRPA": [{"work": {"playouts": [10.0, 20.0]}}]}
    on_amd = [readings[0], engines.Reading("NRPA", engines.REFERENCE_CLOCK, 14, 14, 10, 5, 0.9, 2.4, 2.91)]
    measured = {"readings": readings, "baseline": "NRPA", "experiment": type("E", (), {"published_rate": rate})(),
                "model_statuses": {"AMD": ("not told apart", 11.2), "Intel": ("chosen", 0.0)},
                "model_clocks": {"AMD": runs, "Intel": runs}, "model_speeds": {"AMD": 1.19, "Intel": 1.67},
                "model_readings": {"AMD": on_amd, "Intel": readings}, "clock": runs, "speed": 1.67,
                "clock_model": "Intel"}
    # t x R x rho rejected on both models' clocks (chi^2 32.2 against 9.8 and 12.6), which are not
    # told apart: the claims read the chosen model's, and the other model's is their second clock
    assert engines.clock_decision(measured)[1] == engines.REFERENCE_CLOCK
    second = engines.tied_clock(measured)
    assert (second.model, second.s) == ("AMD", 1.19) and "on AMD, s = 1.19" in second.describe
    # on the AMD's clock t x R x rho is not told apart (chi^2 32.2 against 21): the claims keep it,
    # and read the chosen model's clock as their second
    measured["model_readings"]["AMD"] = [readings[0], replace(on_amd[1], mean_z2=1.5)]
    assert engines.clock_decision(measured)[1:] == (engines.TODAY, engines.NOT_TOLD_APART_ON_MODEL)
    assert engines.tied_clock(measured).model == "Intel"
    measured["model_statuses"]["AMD"] = ("rejected: worse", 15.0)
    assert engines.clock_decision(measured)[1] == engines.REFERENCE_CLOCK and engines.tied_clock(measured) is None


def test_another_setting_of_ours_is_compared_with_the_reference_and_with_ours():
    """report.same_search_also: ours at the other setting (shifted up like the reference) agrees with
    the reference and differs from ours as the claims read them; the page shows both tables."""
    from types import SimpleNamespace

    shifted = {"A": synthetic(100, 200, 7)}
    experiment = SimpleNamespace(same_search_also=(("float32", "the authors' arithmetic", ("domain.precision=float32",)),
                                                   ("unmade", "no runs yet", ("x=1",))))
    measured = {"table": "t", "experiment": experiment, "reference": {"A": synthetic(100, 200, 3)},
                "ours": {"A": synthetic(0, 200, 1)}, "margin": 15.0, "log": False}
    found = same_search.also(measured, lambda setting: shifted if "domain.precision=float32" in setting else {"A": ([], [])})
    assert [f["label"] for f in found] == ["float32"] and found[0]["runs"] == 200  # the unmade setting left out
    assert found[0]["main"]["verdicts"] == {"A": "agrees"} and found[0]["effect"]["verdicts"] == {"A": "differs"}
    text = "\n".join(engines_page.also_lines({"table": "t", "also": found}))
    assert "### Our engine at float32" in text and "domain.precision=float32" in text
    assert "| A | agrees |" in text and "| A | differs |" in text


def test_a_bad_same_search_also_entry_is_named():
    from omegaconf import OmegaConf

    from experiments.experiment import same_search_also_of

    good = OmegaConf.create({"name": "t", "same_search_also": [{"label": "f", "why": "w", "overrides": ["a=1"]}]})
    assert same_search_also_of(good) == (("f", "w", ("a=1",)),)
    bad = OmegaConf.create({"name": "t", "same_search_also": [{"label": "f", "overrides": ["a"]}]})
    with pytest.raises(InputError, match="report.same_search_also entries"):
        same_search_also_of(bad)


def test_an_engine_variants_runs_go_to_their_own_folder(tmp_path, monkeypatch):
    monkeypatch.setattr(reference_runs, "make", lambda table, runs, budget, hours, folder, say: reference_runs.append_run(
        table, {"column": "NRPA", "budget": {"cpu_seconds": 0.0, "playouts": 64}, "end": {"cpu": 1.0}}, folder))
    assert reference_runs.main(["stabilized_table1", "--playouts", "64", "--runs", "1", "--folder", str(tmp_path / "v")]) == 0
    assert [r["column"] for r in reference_runs.read_runs("stabilized_table1", tmp_path / "v")] == ["NRPA"]


def test_a_reference_build_kept_apart_is_compared_with_ours_and_with_the_build_as_is(tmp_path):
    """archive/reference/<variant>/<table>.jsonl: its runs (here, ours shifted up like the engine as
    built: 200 seeds, one improvement a doubling) beside ours and beside the engine as built."""
    traces, _ = synthetic(100, 200, 9)
    for seed, (positions, scores) in enumerate(traces, start=1):
        run = record("A", seed, [2 ** 14], (positions, scores), 2 ** 14)
        run["engine"] = {"variant": "maximum.cpp in double"}
        reference_runs.append_run("t", run, tmp_path / "double")
    reference_runs.append_run("t", record("A", 1, [64], ([1], [1.0]), 64), tmp_path)  # the engine as built: not a variant
    measured = {"table": "t", "reference": {"A": synthetic(100, 200, 3)}, "ours": {"A": synthetic(0, 200, 1)},
                "margin": 15.0, "log": False}
    found = engines_page.reference_variants(measured, tmp_path)
    assert [(f["label"], f["why"], f["runs"]) for f in found] == [("double", "maximum.cpp in double", 200)]
    assert found[0]["main"]["verdicts"] == {"A": "differs"} and found[0]["effect"]["verdicts"] == {"A": "agrees"}
    text = "\n".join(engines_page.also_lines({"table": "t", "variants": found}))
    assert "### The reference engine built otherwise: double" in text and "archive/reference/double/t.jsonl" in text


def test_the_engines_maximum_scores_are_single_precision_values():
    """Every best score above 2**24 that the archived Maximum runs of the engine as built record is a
    float32 value (maximum.cpp's C float); most of the double build's are not (cpp_ref/double_maximum.sh)."""
    def large(folder):
        return [score for record in reference_runs.read_runs("stabilized_table1", folder)
                for score in record["improvements"]["score"] if score > 2 ** 24]

    as_built, double = large(reference_runs.FOLDER), large(reference_runs.FOLDER / "maximum-double")
    assert len(as_built) > 1000 and all(float(np.float32(score)) == score for score in as_built)
    assert len(double) > 1000 and sum(float(np.float32(score)) != score for score in double) > len(double) / 2


def test_the_columns_pooled_as_one_test_by_hand():
    """Two columns, each 10 runs of 10..19 against 10 of 0..9 (variance 55/6 each): the mean of the
    differences is 10; its variance 4 x (55/6)/10 / 2^2, on 4 x 9 = 36 degrees of freedom (all four
    samples alike), so the 95% half-width is t(0.975, 36) x sqrt(11/12) = 2.0281 x 0.9574."""
    def runs(values):
        return [([1], [float(v)]) for v in values], [64] * len(values)

    first = {"A": runs(range(10, 20)), "B": runs(range(10, 20))}
    second = {"A": runs(range(10)), "B": runs(range(10))}
    cells = same_search.agreement(first, second, margin=1.0, cells=(64,))
    found = same_search.pooled(first, second, cells)
    assert (found["playouts"], found["columns"], found["difference"]) == (64, 2, pytest.approx(10.0))
    assert found["high"] - 10 == pytest.approx(2.0281 * (11 / 12) ** 0.5, rel=1e-4)
    assert 10 - found["low"] == pytest.approx(found["high"] - 10)


def test_the_page_says_which_published_gains_lie_within_the_margin():
    from types import SimpleNamespace

    published = pd.DataFrame({"time": [0.01, 163.84], "A": [1.0, 100.0], "B": [1.0, 110.0], "C": [1.0, 40.0]})
    measured = {"published": published, "baseline": "A", "margin": 20.0, "experiment": SimpleNamespace(value_scale=1.0)}
    assert engines_page.gains_beside_margin(measured).startswith(
        "The published columns differ from A at 163.84 s by 10 to 60 in the cells' unit; 1 of these 2 gains")
    on_log = {**measured, "log": True, "margin": 0.05}  # log10(110 / 100) = 0.0414, log10(100 / 40) = 0.398
    assert "by 0.0414 to 0.398 in the cells' unit; 1 of these 2 gains" in engines_page.gains_beside_margin(on_log)
