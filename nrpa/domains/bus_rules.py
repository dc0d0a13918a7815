"""Bus regulation in plain Python: instances, the line simulation, certificates and replay.

Independent of the numba kernel (``nrpa.domains.bus``): written from the model in
nrpa/data/bus/SOURCE.md, with one object per bus. Used to check the kernel move by move and
to verify certificates. Two models of the move (``MODELS``): ``paper``, the Selective paper's
(Cazenave 2016: a waiting time "between 1 and 5 minutes", one decision per arrival at a
stop, coded by stop, arrival minute and wait), and ``bus_cpp``, the authors' bus.cpp (1..4,
a dwelling bus asked again every minute, coded by minute, bus and wait).

A certificate is the list of waiting times chosen at successive decision points. The score
NRPA maximises is -(W - 200000) / 1000 where W is the total passenger waiting time in
minutes; tables show the paper's unit, (W - 200000) / 1000, where lower is better.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

import numpy as np

from nrpa.errors import InputError, did_you_mean

STOPS = 70  # circular line 0..69; stop 70 is stop 0 again
TERMINI = (0, 35)
BUSES = 20
HEADWAY = 20  # minutes between departures from a terminus
MINUTES = 1000  # rows of an instance
WARM_UP = 200  # minutes simulated before the first decision, without decisions
CLOSING = 500  # the episode ends at this minute
# the waiting times of each model; with 1 everywhere both play the same episode
MODELS = {"paper": (1, 2, 3, 4, 5), "bus_cpp": (1, 2, 3, 4)}
MIN_TRAVEL, MAX_TRAVEL, INCIDENT_DELAY = 2, 15, 5
PAPER_INSTANCE = "paper"
COLUMNS = ["minute", "station", "new_passengers", "travel_time", "incident"]


class InvalidCertificate(ValueError):
    """A certificate that does not describe a complete episode."""


@dataclass(frozen=True)
class Instance:
    """Per (minute, stop 0..70): passengers arriving, travel time to that stop, incident delay."""

    name: str
    new_passengers: np.ndarray  # int64[MINUTES, STOPS + 1]
    travel_time: np.ndarray
    incident: np.ndarray


def paper_file() -> Path:
    """The shipped file of the paper's instance (bus.cpp's, glibc's rand() seeded with 1)."""
    return Path(str(resources.files("nrpa") / "data" / "bus" / "bus_instance_glibc_seed1.csv"))


def load_instance(spec: str, text: str | None = None) -> Instance:
    """``paper`` (the shipped instance of bus.cpp), ``random:SEED`` (a generated instance, not
    the paper's) or the path of a CSV file in the shipped format; ``text``: that file's
    contents read elsewhere (a file found by its hash), parsed in its place."""
    if spec == PAPER_INSTANCE:
        return _load_csv(paper_file().read_text(), PAPER_INSTANCE, paper_file().name)
    if spec.startswith("random:"):
        seed = spec.removeprefix("random:")
        if not seed.isdigit() or int(seed) >= 2**32:
            raise InputError(f"domain.instance={spec!r}: the seed after 'random:' must be an integer 0..2**32-1")
        return generate_instance(int(seed))
    path = Path(spec).expanduser()
    if text is None:
        if not path.is_file():
            raise InputError(f"domain.instance={spec!r}: neither 'paper', 'random:SEED' nor an instance CSV file")
        text = path.read_text()
    return _load_csv(text, str(path), str(path))


@lru_cache(maxsize=4)
def _load_csv(text: str, name: str, source: str) -> Instance:
    rows = csv.reader(text.splitlines())
    header = next(rows, None)
    if header != COLUMNS:
        raise InputError(f"instance file {source}, line 1: the header must be {','.join(COLUMNS)}")
    tables = np.full((3, MINUTES, STOPS + 1), -1, dtype=np.int64)
    for number, row in enumerate(rows, start=2):
        try:
            minute, stop, passengers, travel, incident = (int(value) for value in row)
        except ValueError:
            raise InputError(f"instance file {source}, line {number}: expected five integers, got {row}") from None
        problems = [
            (0 <= minute < MINUTES, f"minute {minute} is not in 0..{MINUTES - 1}"),
            (0 <= stop <= STOPS, f"station {stop} is not in 0..{STOPS}"),
            (passengers >= 0, f"new_passengers {passengers} is negative"),
            (travel >= 1, f"travel_time {travel} is below 1"),
            (incident >= 0, f"incident {incident} is negative"),
        ]
        for ok, message in problems:
            if not ok:
                raise InputError(f"instance file {source}, line {number}: {message}")
        if tables[0, minute, stop] != -1:
            raise InputError(f"instance file {source}, line {number}: minute {minute}, station {stop} appears twice")
        tables[:, minute, stop] = passengers, travel, incident
    missing = np.argwhere(tables[0] == -1)
    if len(missing):
        minute, stop = missing[0]
        raise InputError(f"instance file {source}: no row for minute {minute}, station {stop} "
                         f"({len(missing)} of the {MINUTES * (STOPS + 1)} rows are missing)")
    return Instance(name, *tables)


def generate_instance(seed: int) -> Instance:
    """A random instance with the distributions of bus.cpp (SOURCE.md) from numpy's PCG64,
    so NOT the paper's instance: passengers uniform 0..4; travel time a random walk per stop
    from 2 (+1 with probability 0.4, -1 with 0.4, clamped to 2..15); incidents of 5 minutes
    with probability 0.01."""
    rng = np.random.default_rng(seed)
    passengers = rng.integers(0, 5, size=(MINUTES, STOPS + 1), dtype=np.int64)
    steps = rng.random((MINUTES, STOPS + 1))
    travel = np.empty((MINUTES, STOPS + 1), dtype=np.int64)
    previous = np.full(STOPS + 1, MIN_TRAVEL, dtype=np.int64)
    for minute in range(MINUTES):
        walked = previous + (steps[minute] > 0.6) - (steps[minute] < 0.4)
        travel[minute] = previous = np.clip(walked, MIN_TRAVEL, MAX_TRAVEL)
    incident = np.where(rng.random((MINUTES, STOPS + 1)) > 0.99, INCIDENT_DELAY, 0).astype(np.int64)
    return Instance(f"random:{seed}", passengers, travel, incident)


@dataclass
class Bus:
    stop: int  # 0..69 (a bus reaching 70 is back at 0)
    active: bool = False
    dwell_left: int = 0  # minutes still to wait at the stop
    to_next_stop: int = 0  # minutes before reaching the next stop (may go negative: SOURCE.md)


class Line:
    """The bus line of bus.cpp, minute by minute. ``decision_bus`` is the bus waiting for a
    waiting time, or None once the episode is over."""

    def __init__(self, instance: Instance, *, delta: int = 0, model: str = "paper"):
        if model not in MODELS:
            raise InputError(f"domain.model={model!r} is not valid: {did_you_mean(model, MODELS)}")
        self.instance = instance
        self.delta = delta
        self.model = model
        self.buses = [Bus(stop=0 if b < BUSES // 2 else TERMINI[1]) for b in range(BUSES)]
        self.waiting = [0] * (STOPS + 1)
        self.current_travel = [0] * (STOPS + 1)
        self.minute = 0
        self.total_waiting = 0
        self.closing = 300  # bus.cpp's closing time until the first decision
        self.decision_bus: int | None = None
        self.decisions = 0
        for _ in range(WARM_UP):
            self._departures()
            for bus in self.buses:
                if bus.active:
                    self._advance(bus)
            self._end_minute()
        self._departures()
        self._run_from_bus(0)
        self.total_waiting = 0  # the episode is measured from the first decision
        self.closing = CLOSING

    # -- simulation ------------------------------------------------------------------
    def _travel_with_incident(self, stop: int) -> int:
        return self.current_travel[stop] + int(self.instance.incident[self.minute, stop])

    def _departures(self):
        if self.minute % HEADWAY:
            return
        for terminus in TERMINI:
            # the lowest-numbered bus at the terminus (bus.cpp does not look at `active`)
            bus = next((bus for bus in self.buses if bus.stop == terminus), None)
            if bus is not None:
                bus.active = True
                bus.to_next_stop = self._travel_with_incident(terminus + 1)

    def _advance(self, bus: Bus):
        if bus.dwell_left > 0:
            bus.dwell_left -= 1
            self.waiting[bus.stop] = 0  # a dwelling bus takes everybody
            if bus.dwell_left == 0:
                bus.to_next_stop = self._travel_with_incident(bus.stop + 1)
            return
        bus.to_next_stop -= 1
        if bus.to_next_stop > 0:
            return
        bus.stop += 1
        if bus.stop == TERMINI[1]:
            bus.active = False
        elif bus.stop == STOPS:
            bus.stop = 0
            bus.active = False
        else:
            self.waiting[bus.stop] = 0

    def _end_minute(self):
        self.total_waiting += sum(self.waiting[stop] for stop in range(1, STOPS) if stop != TERMINI[1])
        for stop in range(1, STOPS + 1):
            self.current_travel[stop] = int(self.instance.travel_time[self.minute, stop])
            self.waiting[stop] += int(self.instance.new_passengers[self.minute, stop])
        self.minute += 1

    def _asks(self, bus: Bus) -> bool:
        """Whether ``bus``, just advanced, needs a waiting time: it stands at an intermediate
        stop (to_next_stop == 0); in bus.cpp also every minute it dwells there (it keeps
        to_next_stop at 0), in the paper's model only on arriving."""
        return bus.active and bus.to_next_stop == 0 and (self.model == "bus_cpp" or bus.dwell_left == 0)

    def _run_from_bus(self, first: int):
        """Advance buses ``first``.. of this minute, then whole minutes, until a bus needs a
        waiting time or the line closes."""
        while True:
            for index in range(first, BUSES):
                bus = self.buses[index]
                if bus.active:
                    self._advance(bus)
                    if self._asks(bus):
                        self.decision_bus = index
                        return
            self._end_minute()
            if self.minute >= self.closing:
                self.decision_bus = None
                return
            self._departures()
            first = 0

    # -- the game ----------------------------------------------------------------------
    def stops_to_bus_behind(self, index: int) -> int:
        """bus.cpp's deltaBusSuivant: 0 when another bus is at the same stop, else the stops
        between this bus and the nearest bus at a lower stop number (stop 0 if none)."""
        stop = self.buses[index].stop
        if any(other.stop == stop for b, other in enumerate(self.buses) if b != index):
            return 0
        return stop - max((other.stop for other in self.buses if other.stop < stop), default=0)

    def legal_dwell_times(self) -> tuple[int, ...]:
        """Every waiting time of the model, or only 1 under the rule when the bus behind is
        closer than delta."""
        if self.decision_bus is None:
            return ()
        if self.delta > 0 and self.stops_to_bus_behind(self.decision_bus) < self.delta:
            return (1,)
        return MODELS[self.model]

    def play(self, dwell: int):
        if dwell not in self.legal_dwell_times():
            raise InvalidCertificate(
                f"decision {self.decisions + 1}: dwell time {dwell} is not legal here "
                f"(legal: {list(self.legal_dwell_times()) or 'none, the episode is over'})")
        bus = self.decision_bus
        self.buses[bus].dwell_left = dwell
        self.decisions += 1
        self._run_from_bus(bus + 1)

    def move_code(self, dwell: int) -> int:
        """The paper's code: (stop, arrival minute, wait), in the form bus.cpp keeps commented
        out (``minute + MaxMinutes * station + MaxMinutes * MaxStations * attente``, MaxStations
        = 100); bus.cpp's own: (minute, bus, wait). A decision is taken in the minute the bus
        arrives in the paper's model, so the minute is its arrival time."""
        if self.model == "paper":
            return self.minute + MINUTES * self.buses[self.decision_bus].stop + MINUTES * 100 * dwell
        return self.minute + MINUTES * self.decision_bus + MINUTES * 50 * dwell

    def score(self) -> float:
        return -(self.total_waiting - 200_000) / 1000


def replay(instance: Instance, dwell_times, *, delta: int = 0, model: str = "paper") -> Line:
    """The line after playing ``dwell_times``, which must end the episode exactly."""
    line = Line(instance, delta=delta, model=model)
    for dwell in dwell_times:
        line.play(int(dwell))
    if line.decision_bus is not None:
        raise InvalidCertificate(f"the episode is not over after {line.decisions} decisions")
    return line


def paper_unit(score: float) -> float:
    """The paper's number (total waiting time minus 200000, over 1000: lower is better)."""
    return -score
