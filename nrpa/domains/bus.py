"""Bus regulation for the numba kernels (model: nrpa/data/bus/SOURCE.md).

A circular line of 70 stops with termini 0 and 35 and 20 buses, simulated minute by minute
on a pre-drawn instance (passengers arriving, travel times, incidents per minute and stop).
When a bus has just reached an intermediate stop, the simulation pauses and a move sets its
waiting time w there. The episode runs from the first decision after a 200-minute warm-up to
minute 500; score = -(total passenger waiting minutes - 200000) / 1000.

Two models of the move, on the same line (``model``):

* ``PAPER`` (the default, the Selective paper's words, Cazenave 2016, section 3.1): "the
  standard policy that can choose a waiting time between 1 and 5 minutes", one decision per
  arrival; the bus stays w minutes after its arrival minute, taking everybody each minute,
  then leaves. "A move code [...] takes into account the bus stop, the time of arrival to the
  bus stop and the number of minutes to wait before leaving the stop": ``minute + 1000 * stop
  + 100000 * w``, the form bus.cpp keeps commented out in its ``code``.
* ``BUS_CPP`` (the authors' bus.cpp as it runs): w in 1..4, and a dwelling bus is asked again
  every minute it stays (w = 1 leaves after this minute, w = 2..4 stay one more minute and
  ask again); code ``minute + 1000 * bus + 50000 * w``.

With w = 1 everywhere the two models play the same episode.

The state after the warm-up is the same for every playout (and both models: nobody dwells
before the first decision), so it is simulated once, when the domain value is built, and
``reset`` copies it. Playout rules: ``delta = 0`` offers every waiting time; ``delta > 0``
(the selective policy of Cazenave 2016) offers only w = 1 when the bus behind is fewer than
delta stops away (bus.cpp's ``deltaBusSuivant``).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from nrpa.domains import contract

STOPS, SECOND_TERMINUS, BUSES, HEADWAY = 70, 35, 20, 20
WARM_UP, FIRST_CLOSING, CLOSING = 200, 300, 500
NO_DECISION = -1  # decision bus once the line has closed
PAPER, BUS_CPP = 0, 1  # the models (docstring)
MODELS = {"paper": PAPER, "bus_cpp": BUS_CPP}

# The whole state is one int64 array, read through these offsets: numba reference-counts
# every NamedTuple field it reads, and with one field per quantity that bookkeeping cost
# more than the simulation (one call per decision, thousands of decisions per playout).
STOP = 0  # [BUSES] stop of each bus, 0..69
ACTIVE = STOP + BUSES  # [BUSES] 1 when on the road (not idle at a terminus)
DWELL_LEFT = ACTIVE + BUSES  # [BUSES] minutes still to wait at the stop
TO_NEXT_STOP = DWELL_LEFT + BUSES  # [BUSES] minutes to the next stop (may go negative: SOURCE.md)
WAITING = TO_NEXT_STOP + BUSES  # [STOPS + 1] passengers waiting at each stop
TRAVEL_NOW = WAITING + STOPS + 1  # [STOPS + 1] current travel time to each stop
MINUTE = TRAVEL_NOW + STOPS + 1
DECISION_BUS = MINUTE + 1  # the bus waiting for a dwell time, or NO_DECISION
TOTAL_WAITING = MINUTE + 2  # passenger-minutes since the first decision
CLOSING_AT = MINUTE + 3
DECISIONS = MINUTE + 4
STATE_SIZE = MINUTE + 5
# instance tables: tables[minute, kind, stop]
PASSENGERS, TRAVEL, INCIDENT = 0, 1, 2

Bus = namedtuple("Bus", ["tables", "delta", "model", "start"])
BusState = namedtuple("BusState", ["data"])


def make_bus(passengers, travel, incident, *, delta: int = 0, model: str = "paper") -> Bus:
    """The domain value for an instance (``int64[1000, 71]`` tables), the playout rule and the
    model ("paper" or "bus_cpp")."""
    tables = np.ascontiguousarray(np.stack([passengers, travel, incident], axis=1), dtype=np.int64)
    code = np.int64(MODELS[model])
    return Bus(tables=tables, delta=np.int64(delta), model=code, start=_start_state(tables, code))


@njit(cache=True)
def _start_state(tables, model):
    """The line at its first decision: 200 minutes without decisions, then on to the first
    bus reaching a stop (closing time 300 meanwhile, as bus.cpp); the total restarts at 0."""
    data = np.zeros(STATE_SIZE, dtype=np.int64)
    for b in range(BUSES):
        data[STOP + b] = 0 if b < BUSES // 2 else SECOND_TERMINUS
    data[CLOSING_AT] = FIRST_CLOSING
    for minute in range(WARM_UP):
        _departures(data, tables, minute)
        for b in range(BUSES):
            if data[ACTIVE + b]:
                _advance(data, tables, minute, b)
        _end_minute(data, tables, minute)
    data[MINUTE] = WARM_UP
    _departures(data, tables, WARM_UP)
    _run_from_bus(data, tables, 0, model)
    data[TOTAL_WAITING] = 0
    data[CLOSING_AT] = CLOSING
    return data


# The helpers below are inlined into the step's kernel (bus_play), each with one way out (no
# return mid-way) where it uses its arrays once more: an inlined helper given an array acquires
# it, and a release on one of several ways out is one numba's pruning cannot pair
# (nrpa.domains.contract; `make bench ARGS=--refcounts` counts them).
@njit(cache=True, inline="always")
def _departures(data, tables, minute):
    leaving = minute % HEADWAY == 0
    for terminus in (0, SECOND_TERMINUS):
        left = not leaving
        for b in range(BUSES):  # the lowest-numbered bus there, active or not (as bus.cpp)
            if not left and data[STOP + b] == terminus:
                data[ACTIVE + b] = 1
                data[TO_NEXT_STOP + b] = data[TRAVEL_NOW + terminus + 1] + tables[minute, INCIDENT, terminus + 1]
                left = True
    data[MINUTE] += 0 * tables.size  # both arrays' last use, on the one way out


@njit(cache=True, inline="always")
def _advance(data, tables, minute, b):
    here = data[STOP + b]
    if data[DWELL_LEFT + b] > 0:
        data[DWELL_LEFT + b] -= 1
        data[WAITING + here] = 0  # a dwelling bus takes everybody
        if data[DWELL_LEFT + b] == 0:
            data[TO_NEXT_STOP + b] = data[TRAVEL_NOW + here + 1] + tables[minute, INCIDENT, here + 1]
    else:
        data[TO_NEXT_STOP + b] -= 1
        if data[TO_NEXT_STOP + b] <= 0:
            here += 1
            if here == SECOND_TERMINUS:
                data[ACTIVE + b] = 0
            elif here == STOPS:
                here = 0
                data[ACTIVE + b] = 0
            else:
                data[WAITING + here] = 0
    data[STOP + b] = here + 0 * tables.size  # both arrays' last use, on the one way out


@njit(cache=True, inline="always")
def _end_minute(data, tables, minute):
    """Count the passengers waiting at the end of ``minute`` (not at the termini), then the
    instance's new passengers and travel times of that minute arrive."""
    total = 0
    for s in range(1, STOPS):
        total += data[WAITING + s]
    data[TOTAL_WAITING] += total - data[WAITING + SECOND_TERMINUS]
    for s in range(1, STOPS + 1):
        data[TRAVEL_NOW + s] = tables[minute, TRAVEL, s]
        data[WAITING + s] += tables[minute, PASSENGERS, s]


@njit(cache=True, inline="always")
def _run_from_bus(data, tables, first, model):
    """Advance buses ``first``.. of this minute, then whole minutes, until a bus that has just
    reached a stop needs a waiting time (data[DECISION_BUS]) or the line closes (NO_DECISION).
    A dwelling bus keeps TO_NEXT_STOP at 0: bus.cpp asks it again, the paper's model does not.
    Inlined, with one exit: it runs at every step, and a call (or a return mid-loop) would
    keep numba's reference counts of ``data`` and ``tables`` (nrpa.domains.contract)."""
    minute = data[MINUTE]
    closing = data[CLOSING_AT]
    decision = NO_DECISION
    while decision == NO_DECISION:
        for b in range(first, BUSES):
            if data[ACTIVE + b]:
                _advance(data, tables, minute, b)
                if data[ACTIVE + b] and data[TO_NEXT_STOP + b] == 0 and (
                        model == BUS_CPP or data[DWELL_LEFT + b] == 0):
                    decision = b
                    break
        if decision != NO_DECISION:
            break
        _end_minute(data, tables, minute)
        minute += 1
        if minute >= closing:
            break
        _departures(data, tables, minute)
        first = 0
    data[MINUTE] = minute
    data[DECISION_BUS] = decision


@njit(cache=True, inline="always")
def max_wait(model):
    """The longest waiting time: 5 minutes in the paper ("between 1 and 5"), 4 in bus.cpp
    (its loop ``for (i = 1; i < MaxAttente; i++)`` with MaxAttente = 5)."""
    return np.int64(5 if model == PAPER else 4)


@njit(cache=True)
def bus_new_state(domain):
    return BusState(data=domain.start.copy())


@njit(cache=True)
def bus_reset(domain, state):
    # element by element: a slice assignment costs numba's atomic counts of two views (sg_reset)
    data = state.data
    start = domain.start
    for i in range(start.size):
        data[i] = start[i]
    return 0 * (data.size + start.size)  # their last use, at the exit (bus_legal_moves); unused


@njit(cache=True)
def bus_copy_state(domain, source, target):
    target.data[:] = source.data


@njit(cache=True, inline="always")
def stops_to_bus_behind(data, b):
    """bus.cpp's deltaBusSuivant: 0 when another bus is at the same stop, else the distance
    to the nearest bus at a lower stop number (stop 0 when there is none)."""
    here = data[STOP + b]
    behind = 0
    shared = False
    for other in range(BUSES):  # no break nor continue: inlined, one path keeps numba's counts pruned
        there = data[STOP + other]
        if other != b:
            shared |= there == here
            if behind < there < here:
                behind = there
    return 0 if shared else here - behind


@njit(cache=True, inline="always")
def bus_legal_moves(domain, state, moves, codes):
    # One exit, every array used in its statement: see nrpa.domains.contract.
    data = state.data
    b = data[DECISION_BUS]
    count = 0
    if b != NO_DECISION:
        count = max_wait(domain.model)
        if domain.delta > 0 and stops_to_bus_behind(data, b) < domain.delta:
            count = 1
        for k in range(count):
            moves[k] = k + 1
            if domain.model == PAPER:  # (arrival minute, stop, wait)
                codes[k] = data[MINUTE] + 1000 * data[STOP + b] + 100_000 * (k + 1)
            else:  # bus.cpp: (minute, bus, wait)
                codes[k] = data[MINUTE] + 1000 * b + 50_000 * (k + 1)
    return count + 0 * (data.size + moves.size + codes.size)


@njit(cache=True, inline="always")
def bus_play(domain, state, dwell):
    data = state.data
    tables = domain.tables
    b = data[DECISION_BUS]
    data[DWELL_LEFT + b] = dwell
    _run_from_bus(data, tables, b + 1, domain.model)
    # last, with both arrays, so that numba releases them at the exit (see bus_legal_moves)
    data[DECISIONS] += 1 + 0 * (data.size + tables.size)


@njit(cache=True)
def bus_score(domain, state):
    return -(state.data[TOTAL_WAITING] - 200_000) / 1000.0


@njit(cache=True)
def bus_max_moves(domain):
    return max_wait(domain.model)


@njit(cache=True)
def bus_max_length(domain):
    # each bus is advanced once a minute, so at most one decision per bus and minute
    return np.int64(BUSES * CLOSING)


contract.register(
    Bus, new_state=bus_new_state, reset=bus_reset, copy_state=bus_copy_state, legal_moves=bus_legal_moves,
    play=bus_play, score=bus_score, max_moves=bus_max_moves, max_length=bus_max_length,
)
