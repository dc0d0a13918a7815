"""Bus regulation: the published test vectors, the kernel against the plain-Python rules,
the shipped instance against bus.cpp's generator, instance files and options."""

import json
from importlib import resources
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st

from analysis.stats import best_at
from nrpa.domains import bus as kernel
from nrpa.domains import bus_rules as rules
from nrpa.domains.registry import BusOptions, make_domain
from nrpa.errors import InputError
from nrpa.search import SearchSettings, run_search
from tests.conftest import run_experiment

PAPER = rules.load_instance("paper")


@pytest.fixture(scope="module")
def paper_domain():
    return kernel.make_bus(PAPER.new_passengers, PAPER.travel_time, PAPER.incident)


# SOURCE.md's vectors: (dwell time at the k-th decision, decisions, total waiting, score)
VECTORS = [
    ("always 1", lambda k: 1, 456, 1_995_777, -1795.777),
    ("always 4", lambda k: 4, 4001, 5_697_927, -5497.927),
    ("cyclic 1..4", lambda k: k % 4 + 1, 1342, 2_862_773, -2662.773),
]


@pytest.mark.parametrize("name, dwell, decisions, total, score", VECTORS, ids=[v[0] for v in VECTORS])
def test_the_python_rules_give_the_published_vectors(name, dwell, decisions, total, score):
    line = rules.Line(PAPER)
    while line.decision_bus is not None:
        line.play(dwell(line.decisions))
    assert (line.decisions, line.total_waiting, line.score()) == (decisions, total, score)


@pytest.mark.parametrize("name, dwell, decisions, total, score", VECTORS, ids=[v[0] for v in VECTORS])
def test_the_kernel_gives_the_published_vectors(paper_domain, name, dwell, decisions, total, score):
    state = kernel.bus_new_state(paper_domain)
    moves, codes = np.zeros(4, dtype=np.int64), np.zeros(4, dtype=np.int64)
    played = 0
    while kernel.bus_legal_moves(paper_domain, state, moves, codes):
        kernel.bus_play(paper_domain, state, dwell(played))
        played += 1
    data = state.data
    assert (played, data[kernel.DECISIONS], data[kernel.TOTAL_WAITING]) == (decisions, decisions, total)
    assert -(data[kernel.TOTAL_WAITING] - 200_000) / 1000 == score


def test_the_first_decision_is_bus_4_at_stop_36_in_minute_202(paper_domain):
    line = rules.Line(PAPER)
    assert (line.minute, line.decision_bus, line.buses[4].stop) == (202, 4, 36)
    start = paper_domain.start
    assert (start[kernel.MINUTE], start[kernel.DECISION_BUS], start[kernel.STOP + 4]) == (202, 4, 36)
    # SOURCE.md: four buses on the road still hop one stop a minute (never asked in the warm-up)
    assert sum(bus.active and bus.to_next_stop < 0 for bus in line.buses) == 4


def kernel_options(domain, state):
    moves, codes = np.zeros(4, dtype=np.int64), np.zeros(4, dtype=np.int64)
    n = kernel.bus_legal_moves(domain, state, moves, codes)
    return [int(m) for m in moves[:n]], [int(c) for c in codes[:n]]


@settings(max_examples=25, deadline=None)
@given(delta=st.integers(0, 8), seed=st.integers(0, 2**32 - 1))
def test_kernel_plays_exactly_the_python_rules(delta, seed):
    domain = kernel.make_bus(PAPER.new_passengers, PAPER.travel_time, PAPER.incident, delta=delta)
    state = kernel.bus_new_state(domain)
    line = rules.Line(PAPER, delta=delta)
    rng = np.random.default_rng(seed)
    while True:
        moves, codes = kernel_options(domain, state)
        legal = list(line.legal_dwell_times())
        assert moves == legal
        assert codes == [line.move_code(w) for w in legal]
        if not legal:
            break
        assert state.data[kernel.MINUTE] == line.minute
        assert state.data[kernel.DECISION_BUS] == line.decision_bus
        dwell = int(rng.choice(legal))
        kernel.bus_play(domain, state, dwell)
        line.play(dwell)
        assert state.data[kernel.TOTAL_WAITING] == line.total_waiting
    assert -(state.data[kernel.TOTAL_WAITING] - 200_000) / 1000 == line.score()


def test_stops_to_the_bus_behind_by_hand():
    line = rules.Line(PAPER)
    for index, bus in enumerate(line.buses):
        bus.stop = 0 if index < 10 else 35
    line.buses[0].stop = 12
    assert line.stops_to_bus_behind(0) == 12  # the nearest lower stop holding a bus is 0
    line.buses[1].stop = 9
    assert line.stops_to_bus_behind(0) == 3
    line.buses[2].stop = 12
    assert line.stops_to_bus_behind(0) == 0  # another bus at the same stop
    line.buses[0].stop = 40
    assert line.stops_to_bus_behind(0) == 5  # the buses idle at terminus 35 count
    data = np.zeros(kernel.STATE_SIZE, dtype=np.int64)
    data[kernel.STOP:kernel.STOP + kernel.BUSES] = [bus.stop for bus in line.buses]
    assert [kernel.stops_to_bus_behind(data, b) for b in range(3)] == [
        line.stops_to_bus_behind(b) for b in range(3)]


def test_the_rule_offers_only_dwell_1_when_the_bus_behind_is_close():
    line = rules.Line(PAPER, delta=70)  # every bus is within 70 stops of the one behind
    assert line.legal_dwell_times() == (1,)
    with pytest.raises(rules.InvalidCertificate, match="decision 1: dwell time 2 is not legal"):
        line.play(2)
    assert rules.Line(PAPER, delta=0).legal_dwell_times() == (1, 2, 3, 4)


def glibc_rand(seed):
    """glibc's rand() (TYPE_3 additive feedback generator), written from its definition."""
    state = [seed]
    for i in range(1, 31):
        state.append((16807 * state[i - 1]) % 2147483647)
    for i in range(31, 34):
        state.append(state[i - 31])
    for i in range(34, 344):
        state.append((state[i - 31] + state[i - 3]) & 0xFFFFFFFF)
    while True:
        state.append((state[-31] + state[-3]) & 0xFFFFFFFF)
        del state[0]
        yield state[-1] >> 1


def test_the_shipped_instance_is_what_bus_cpp_draws_with_glibc_rand():
    draws = glibc_rand(1)
    uniform = lambda: next(draws) / (2147483647 + 1.0)  # noqa: E731
    single = lambda: float(np.float32(uniform()))  # noqa: E731 - bus.cpp keeps these in a float
    travel = [2] * 71
    for minute in range(rules.MINUTES):
        for stop in range(71):
            assert PAPER.new_passengers[minute, stop] == int(5 * uniform())
            step = single()
            travel[stop] = min(15, max(2, travel[stop] + (step > 0.6) - (step < 0.4)))
            assert PAPER.travel_time[minute, stop] == travel[stop]
            assert PAPER.incident[minute, stop] == (5 if single() > 0.99 else 0)


def test_a_generated_instance_is_reproducible_and_not_the_papers():
    one, again = rules.load_instance("random:7"), rules.load_instance("random:7")
    assert np.array_equal(one.travel_time, again.travel_time)
    assert not np.array_equal(one.new_passengers, PAPER.new_passengers)
    assert one.travel_time.min() >= 2 and one.travel_time.max() <= 15
    assert set(np.unique(one.incident)) <= {0, 5}


def write_instance(tmp_path, edit):
    lines = (resources.files("nrpa") / "data" / "bus" / "bus_instance_glibc_seed1.csv").read_text().splitlines()
    edit(lines)
    path = tmp_path / "instance.csv"
    path.write_text("\n".join(lines) + "\n")
    return str(path)


@pytest.mark.parametrize("edit, message", [
    (lambda lines: lines.__setitem__(0, "minute,stop,passengers"), "line 1: the header must be"),
    (lambda lines: lines.__setitem__(5, "0,4,x,2,0"), "line 6: expected five integers"),
    (lambda lines: lines.__setitem__(5, "0,4,1,0,0"), "line 6: travel_time 0 is below 1"),
    (lambda lines: lines.__setitem__(5, "0,99,1,2,0"), "line 6: station 99 is not in 0..70"),
    (lambda lines: lines.__setitem__(5, "0,3,1,2,0"), "line 6: minute 0, station 3 appears twice"),
    (lambda lines: lines.pop(), "no row for minute 999, station 70"),
])
def test_a_malformed_instance_file_is_named_with_its_line(tmp_path, edit, message):
    with pytest.raises(InputError, match=message):
        rules.load_instance(write_instance(tmp_path, edit))


def test_a_copy_of_the_shipped_file_loads_as_the_paper_instance(tmp_path):
    copy = rules.load_instance(write_instance(tmp_path, lambda lines: None))
    assert np.array_equal(copy.travel_time, PAPER.travel_time)


def test_a_search_certificate_replays_to_its_score_under_its_rule():
    adapter = make_domain(BusOptions(delta=3))
    result = run_search(adapter.kernel_domain(), SearchSettings(level=1, N=20, max_playouts=40, seed=3))
    certificate = adapter.certificate(result.best_moves)
    assert adapter.replay_score(certificate) == result.best_score
    assert len(certificate) >= 456  # a whole episode: 456 decisions when every dwell is 1
    with pytest.raises(rules.InvalidCertificate, match="not over"):
        adapter.replay_score(certificate[:-1])


def test_selective_table_2_at_smoke_scale_is_in_the_papers_unit(tmp_path):
    outputs = tmp_path / "outputs"
    root = Path(__file__).resolve().parent.parent
    run_experiment("selective_table2", outputs)
    table = pd.read_csv(outputs / "tables" / "selective_table2_smoke.csv")
    assert list(dict.fromkeys(table["variant"])) == ["no_delta", "delta_1", "delta_2", "delta_3", "delta_4"]
    first = table[(table["checkpoint"] == 0.01)].set_index("variant")
    published = pd.read_csv(root / "analysis" / "reference" / "selective_table2_bus.csv").set_index("time")
    assert first["published"].to_dict() == published.loc[0.01].to_dict()
    # (waiting - 200000) / 1000 = -score: the runs' best scores at the checkpoint, negated
    runs = [json.loads(p.read_text()) for p in (outputs / "runs" / "bus").glob("*.json")]
    last = table["checkpoint"].max()
    no_delta = [-best_at(r["trace"]["cpu_seconds"], r["trace"]["score"], [last])[0]
                for r in runs if r["config"]["domain"]["delta"] == 0]
    cell = table.set_index(["variant", "checkpoint"]).loc[("no_delta", last), "mean"]
    assert cell == pytest.approx(np.mean(no_delta))
    assert "lower is better" in (outputs / "tables" / "selective_table2_smoke.md").read_text()
