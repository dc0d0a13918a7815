"""Bus regulation, both models (the paper's and bus.cpp's): the published test vectors, a
line set by hand, the kernel against the plain-Python rules, the shipped instance against
bus.cpp's generator, instance files, options and run identities."""

import json
from importlib import resources
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st

from analysis.stats import best_at
from experiments.config import check_override_keys
from experiments.run_file import run_id
from experiments.runs import Job
from nrpa.domains import bus as kernel
from nrpa.domains import bus_rules as rules
from nrpa.domains.registry import BusOptions, make_domain, replay_domain
from nrpa.errors import InputError
from nrpa.search import SearchSettings, run_search
from tests.conftest import run_experiment

PAPER = rules.load_instance("paper")


@pytest.fixture(scope="module")
def paper_domain():
    return kernel.make_bus(PAPER.new_passengers, PAPER.travel_time, PAPER.incident, model="bus_cpp")


# (model, waiting time at the k-th decision, decisions, total waiting, score). bus_cpp's are
# SOURCE.md's (checked against a build of bus.cpp); the paper model with 1 everywhere plays
# bus.cpp's episode (a bus leaves after one minute in both); its other two are pinned from
# the kernel and the plain-Python rules, which agree on them.
VECTORS = [
    ("bus_cpp", "always 1", lambda k: 1, 456, 1_995_777, -1795.777),
    ("bus_cpp", "always 4", lambda k: 4, 4001, 5_697_927, -5497.927),
    ("bus_cpp", "cyclic 1..4", lambda k: k % 4 + 1, 1342, 2_862_773, -2662.773),
    ("paper", "always 1", lambda k: 1, 456, 1_995_777, -1795.777),
    ("paper", "always 5", lambda k: 5, 313, 3_098_246, -2898.246),
    ("paper", "cyclic 1..5", lambda k: k % 5 + 1, 374, 2_388_928, -2188.928),
]
VECTOR_IDS = [f"{v[0]}, {v[1]}" for v in VECTORS]


@pytest.mark.parametrize("model, name, dwell, decisions, total, score", VECTORS, ids=VECTOR_IDS)
def test_the_python_rules_give_the_published_vectors(model, name, dwell, decisions, total, score):
    line = rules.Line(PAPER, model=model)
    while line.decision_bus is not None:
        line.play(dwell(line.decisions))
    assert (line.decisions, line.total_waiting, line.score()) == (decisions, total, score)


@pytest.mark.parametrize("model, name, dwell, decisions, total, score", VECTORS, ids=VECTOR_IDS)
def test_the_kernel_gives_the_published_vectors(model, name, dwell, decisions, total, score):
    domain = kernel.make_bus(PAPER.new_passengers, PAPER.travel_time, PAPER.incident, model=model)
    state = kernel.bus_new_state(domain)
    moves, codes = np.zeros(5, dtype=np.int64), np.zeros(5, dtype=np.int64)
    played = 0
    while kernel.bus_legal_moves(domain, state, moves, codes):
        kernel.bus_play(domain, state, dwell(played))
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
    # nobody dwells before the first decision, so both models start from the same line
    paper = kernel.make_bus(PAPER.new_passengers, PAPER.travel_time, PAPER.incident, model="paper")
    assert np.array_equal(paper.start, start)


def test_the_models_offer_their_waits_and_codes_at_the_first_decision():
    # bus 4 at stop 36 in minute 202 (above): the paper's code minute + 1000 stop + 100000 w,
    # bus.cpp's minute + 1000 bus + 50000 w
    for model, codes in [("paper", [136_202, 236_202, 336_202, 436_202, 536_202]),
                         ("bus_cpp", [54_202, 104_202, 154_202, 204_202])]:
        domain = kernel.make_bus(PAPER.new_passengers, PAPER.travel_time, PAPER.incident, model=model)
        line = rules.Line(PAPER, model=model)
        assert kernel_options(domain, kernel.bus_new_state(domain)) == (list(range(1, len(codes) + 1)), codes)
        assert [line.move_code(w) for w in line.legal_dwell_times()] == codes
        assert kernel.bus_max_moves(domain) == len(codes)


def kernel_options(domain, state):
    moves, codes = np.zeros(5, dtype=np.int64), np.zeros(5, dtype=np.int64)
    n = kernel.bus_legal_moves(domain, state, moves, codes)
    return [int(m) for m in moves[:n]], [int(c) for c in codes[:n]]


@settings(max_examples=25, deadline=None)
@given(delta=st.integers(0, 8), seed=st.integers(0, 2**32 - 1), model=st.sampled_from(["paper", "bus_cpp"]))
def test_kernel_plays_exactly_the_python_rules(delta, seed, model):
    domain = kernel.make_bus(PAPER.new_passengers, PAPER.travel_time, PAPER.incident, delta=delta, model=model)
    state = kernel.bus_new_state(domain)
    line = rules.Line(PAPER, delta=delta, model=model)
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


# A line set by hand, on an instance made for it: travel time 2 everywhere, no incidents, and
# one passenger arriving at stop 5 at the end of each minute 301..305, nobody else. In minute
# 301 (no departure: they are at multiples of 20) bus 19 has just reached stop 5; every other
# bus is idle at a terminus, 0-9 at stop 0 and 10-18 at stop 35. The next bus to reach stop 5
# is bus 0: it leaves stop 0 in minute 320 (travel 2: at stop 1 in 321), then each stop takes
# 3 minutes (a wait of 1 and a travel of 2): at stop 5 in minute 321 + 4 * 3 = 333. A passenger
# who arrives at the end of minute t and is not taken by bus 19 is counted at the end of
# minutes t + 1 .. 332: 332 - t minutes.
HAND_PASSENGERS = np.zeros((rules.MINUTES, rules.STOPS + 1), dtype=np.int64)
HAND_PASSENGERS[301:306, 5] = 1
HAND = rules.Instance("hand", HAND_PASSENGERS, np.full_like(HAND_PASSENGERS, 2), np.zeros_like(HAND_PASSENGERS))
HAND_CASES = [
    # paper: bus 19 stays w minutes, 302..301 + w, and takes the passengers of minutes 301..300 + w
    ("paper", [5], 0),
    ("paper", [3], (332 - 304) + (332 - 305)),  # 55
    ("paper", [1], (332 - 302) + (332 - 303) + (332 - 304) + (332 - 305)),  # 114
    # bus.cpp: asked again each minute it dwells; w = 1 leaves after the next minute
    ("bus_cpp", [4, 4, 4, 4, 1], 0),  # stays 302..306, as the paper's w = 5
    ("bus_cpp", [4, 1], (332 - 303) + (332 - 304) + (332 - 305)),  # 84: stays 302..303
    ("bus_cpp", [1], 114),
]


def hand_line(model, delta=0):
    line = rules.Line(HAND, delta=delta, model=model)
    line.buses = [rules.Bus(stop=0) for _ in range(10)] + [rules.Bus(stop=35) for _ in range(9)]
    line.buses.append(rules.Bus(stop=5, active=True))
    line.waiting, line.current_travel = [0] * (rules.STOPS + 1), [2] * (rules.STOPS + 1)
    line.minute, line.total_waiting, line.closing, line.decision_bus, line.decisions = 301, 0, 500, 19, 0
    return line


def hand_state(model, delta=0):
    domain = kernel.make_bus(HAND.new_passengers, HAND.travel_time, HAND.incident, delta=delta, model=model)
    data = np.zeros(kernel.STATE_SIZE, dtype=np.int64)
    data[kernel.STOP:kernel.STOP + kernel.BUSES] = [0] * 10 + [35] * 9 + [5]
    data[kernel.ACTIVE + 19] = 1
    data[kernel.TRAVEL_NOW:kernel.TRAVEL_NOW + kernel.STOPS + 1] = 2
    data[kernel.MINUTE], data[kernel.DECISION_BUS], data[kernel.CLOSING_AT] = 301, 19, 500
    return domain, kernel.BusState(data=data)


@pytest.mark.parametrize("model, first, total", HAND_CASES)
def test_a_line_set_by_hand_waits_what_is_counted_by_hand(model, first, total):
    line = hand_line(model)
    domain, state = hand_state(model)
    for k, dwell in enumerate(first):  # every decision here is bus 19's at stop 5
        assert (line.decision_bus, line.minute, int(state.data[kernel.MINUTE])) == (19, 301 + k, 301 + k)
        line.play(dwell)
        kernel.bus_play(domain, state, dwell)
    while line.decision_bus is not None:
        line.play(1)
        kernel.bus_play(domain, state, 1)
    assert line.total_waiting == state.data[kernel.TOTAL_WAITING] == total


def test_a_line_set_by_hand_has_the_codes_and_rule_counted_by_hand():
    # bus 19 at stop 5 in minute 301; the nearest lower stop holding a bus is 0: 5 stops
    assert kernel_options(*hand_state("paper")) == (
        [1, 2, 3, 4, 5], [301 + 5_000 + 100_000 * w for w in range(1, 6)])
    assert [hand_line("paper").move_code(w) for w in range(1, 6)] == [301 + 5_000 + 100_000 * w for w in range(1, 6)]
    assert kernel_options(*hand_state("bus_cpp")) == ([1, 2, 3, 4], [301 + 19_000 + 50_000 * w for w in range(1, 5)])
    for delta, legal in [(5, (1, 2, 3, 4, 5)), (6, (1,))]:  # strictly fewer than delta stops
        assert hand_line("paper", delta).legal_dwell_times() == legal
        assert kernel_options(*hand_state("paper", delta))[0] == list(legal)


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
    assert rules.Line(PAPER, delta=0).legal_dwell_times() == (1, 2, 3, 4, 5)
    assert rules.Line(PAPER, delta=0, model="bus_cpp").legal_dwell_times() == (1, 2, 3, 4)


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


@pytest.mark.slow  # compiles NRPA for the bus class, which no fast test needs
@pytest.mark.parametrize("model", ["paper", "bus_cpp"])
def test_a_search_certificate_replays_to_its_score_under_its_rule(model):
    adapter = make_domain(BusOptions(delta=3, model=model))
    result = run_search(adapter.kernel_domain(), SearchSettings(level=1, N=20, max_playouts=40, seed=3))
    certificate = adapter.certificate(result.best_moves)
    assert adapter.replay_score(certificate) == result.best_score
    assert len(certificate) >= 313  # a whole episode (313 decisions when every wait is the paper's 5)
    with pytest.raises(rules.InvalidCertificate, match="not over"):
        adapter.replay_score(certificate[:-1])


def test_a_wait_of_5_is_not_a_move_of_bus_cpp():
    certificate = [5] * 313  # always 5 (VECTORS)
    assert make_domain(BusOptions()).replay_score(certificate) == -2898.246
    with pytest.raises(rules.InvalidCertificate, match="decision 1: dwell time 5 is not legal"):
        make_domain(BusOptions(model="bus_cpp")).replay_score(certificate)
    with pytest.raises(InputError,
                       match=r"domain.model='cpp' is not valid: did you mean bus_cpp\? \(choose one of paper, "
                             r"bus_cpp\)"):
        make_domain(BusOptions(model="cpp"))


def test_the_runs_of_the_two_models_never_mix():
    """A bus_cpp run keeps the identity of the runs made before the option existed (no
    ``model`` in it: those were all bus.cpp's), a paper run has its own; a record without
    ``model`` replays as bus.cpp's; leaderboard keys and the run's domain info tell them apart."""
    settings = SearchSettings(level=4, N=100, seed=7)
    paper, cpp = Job(BusOptions(), settings), Job(BusOptions(model="bus_cpp"), settings)
    assert "model" not in cpp.semantic_config()["domain"]
    assert paper.semantic_config()["domain"]["model"] == "paper"
    assert run_id(paper.run_config(0)) != run_id(cpp.run_config(0))
    old_record = {"name": "bus", "instance": "paper", "delta": 0}  # as archived before the option
    assert replay_domain(old_record)[0].options.model == "bus_cpp"
    assert replay_domain({**old_record, "model": "paper"})[0].options.model == "paper"
    adapters = {model: make_domain(BusOptions(model=model)) for model in ("paper", "bus_cpp")}
    assert {m: a.leaderboard_key() for m, a in adapters.items()} == {"paper": "bus/paper_model_paper",
                                                                     "bus_cpp": "bus/paper"}
    assert adapters["paper"].describe()["model"].startswith("paper: waits 1..5 minutes")
    assert adapters["bus_cpp"].describe()["model"].startswith("bus_cpp: waits 1..4 minutes")


@pytest.mark.slow  # end to end, over 10 s
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
    # the model the published table fits (its config says why); its ids leave out the old default
    assert {r["config"]["domain"].get("model", "bus_cpp") for r in runs} == {"bus_cpp"}
    last = table["checkpoint"].max()
    no_delta = [-best_at(r["trace"]["cpu_seconds"], r["trace"]["score"], [last])[0]
                for r in runs if r["config"]["domain"]["delta"] == 0]
    cell = table.set_index(["variant", "checkpoint"]).loc[("no_delta", last), "mean"]
    assert cell == pytest.approx(np.mean(no_delta))
    assert "lower is better" in (outputs / "tables" / "selective_table2_smoke.md").read_text()


def test_a_domain_option_on_the_command_line_is_checked_against_the_experiments_domain():
    check_override_keys(["experiment=selective_table2", "domain.model=bus_cpp"])  # bus, not samegame
    with pytest.raises(InputError, match=r"unknown option 'domain.modle' for domain=bus: did you mean domain.model\? "
                                         r"\(valid are domain.instance"):
        check_override_keys(["experiment=selective_table2", "domain.modle=bus_cpp"])
