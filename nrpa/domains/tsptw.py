"""The travelling salesman problem with time windows for the numba kernels
(nrpa/data/tsptw/SOURCE.md, the authors' tsptw.cpp).

A tour starts at the depot (node 0) at time 0, visits every customer once and returns to
the depot. Travelling i -> j costs d[i][j] (service time of i included); arriving before
the ready time waits, arriving after the due date is one violation and the tour goes on.
Score = -(1e6 * violations + cost), so the search maximises it.

A move is the next customer; its policy code is (previous node, next node). Playout rules:
``all`` (every unvisited customer) and ``pruned`` (Cazenave & Teytaud 2012, Edelkamp et al.
2013): if some unvisited customer can no longer be reached before its due date, only such
customers; otherwise not a customer whose visit would make another reachable one late; and
every unvisited customer when that leaves none.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit
from numba.extending import overload

from nrpa.domains import contract

RULES = {"all": 0, "pruned": 1}
VIOLATION_COST = 1_000_000.0

Tsptw = namedtuple("Tsptw", ["nodes", "distance", "ready", "due", "rule"])
# info = [current node, customers visited, violations]; clock = [time, cost]
TsptwState = namedtuple("TsptwState", ["visited", "info", "clock"])


def make_tsptw(distance, ready, due, *, rule: str = "all") -> Tsptw:
    distance = np.ascontiguousarray(distance, dtype=np.float64)
    return Tsptw(nodes=np.int64(distance.shape[0]), distance=distance,
                 ready=np.asarray(ready, dtype=np.float64), due=np.asarray(due, dtype=np.float64),
                 rule=np.int64(RULES[rule]))


@njit(cache=True)
def tw_new_state(domain):
    state = TsptwState(visited=np.zeros(domain.nodes, dtype=np.uint8), info=np.zeros(3, dtype=np.int64),
                       clock=np.zeros(2))
    tw_reset(domain, state)
    return state


@njit(cache=True)
def tw_reset(domain, state):
    state.visited[:] = 0
    state.visited[0] = 1
    state.info[:] = 0
    state.clock[:] = 0.0


@njit(cache=True)
def tw_copy_state(domain, source, target):
    target.visited[:] = source.visited
    target.info[:] = source.info
    target.clock[:] = source.clock


@njit(cache=True, inline="always")
def _arrival(domain, time, here, there):
    return max(time + domain.distance[here, there], domain.ready[there])


@njit(cache=True)
def tw_legal_moves(domain, state, moves, codes):
    nodes = domain.nodes
    here = state.info[0]
    time = state.clock[0]
    visited = state.visited
    count = 0
    if domain.rule == 1:
        # (1) customers that can no longer be reached in time come first
        for j in range(1, nodes):
            if not visited[j] and time + domain.distance[here, j] > domain.due[j]:
                moves[count] = j
                count += 1
        if count == 0:
            # (2) skip a customer whose visit would make another one late
            for i in range(1, nodes):
                if visited[i]:
                    continue
                then = _arrival(domain, time, here, i)
                harmless = True
                for j in range(1, nodes):
                    if j != i and not visited[j] and then + domain.distance[i, j] > domain.due[j]:
                        harmless = False
                        break
                if harmless:
                    moves[count] = i
                    count += 1
    if count == 0:  # (3) no rule, or the rule left nothing
        for j in range(1, nodes):
            if not visited[j]:
                moves[count] = j
                count += 1
    for k in range(count):
        codes[k] = here * 4096 + moves[k]
    return count


@njit(cache=True)
def tw_play(domain, state, customer):
    here = state.info[0]
    state.clock[1] += domain.distance[here, customer]
    state.clock[0] = _arrival(domain, state.clock[0], here, customer)
    if state.clock[0] > domain.due[customer]:
        state.info[2] += 1
    state.visited[customer] = 1
    state.info[0] = customer
    state.info[1] += 1


@njit(cache=True)
def tw_score(domain, state):
    """-(1e6 * violations + cost), the return to the depot included once every customer is visited."""
    cost = state.clock[1]
    violations = state.info[2]
    if state.info[1] == domain.nodes - 1:
        here = state.info[0]
        cost += domain.distance[here, 0]
        if _arrival(domain, state.clock[0], here, 0) > domain.due[0]:
            violations += 1
    return -(VIOLATION_COST * violations + cost)


def _is_tsptw(domain):
    return getattr(domain, "instance_class", None) is Tsptw


@overload(contract.new_state, jit_options={"cache": True})
def _new_state(domain):
    if _is_tsptw(domain):
        return lambda domain: tw_new_state(domain)


@overload(contract.reset, jit_options={"cache": True})
def _reset(domain, state):
    if _is_tsptw(domain):
        return lambda domain, state: tw_reset(domain, state)


@overload(contract.copy_state, jit_options={"cache": True})
def _copy_state(domain, source, target):
    if _is_tsptw(domain):
        return lambda domain, source, target: tw_copy_state(domain, source, target)


@overload(contract.legal_moves, jit_options={"cache": True})
def _legal_moves(domain, state, moves, codes):
    if _is_tsptw(domain):
        return lambda domain, state, moves, codes: tw_legal_moves(domain, state, moves, codes)


@overload(contract.play, jit_options={"cache": True})
def _play(domain, state, move):
    if _is_tsptw(domain):
        return lambda domain, state, move: tw_play(domain, state, move)


@overload(contract.score, jit_options={"cache": True})
def _score(domain, state):
    if _is_tsptw(domain):
        return lambda domain, state: tw_score(domain, state)


@overload(contract.is_terminal, jit_options={"cache": True})
def _is_terminal(domain, state):
    if _is_tsptw(domain):
        return lambda domain, state: state.info[1] == domain.nodes - 1


@overload(contract.max_moves, jit_options={"cache": True})
def _max_moves(domain):
    if _is_tsptw(domain):
        return lambda domain: domain.nodes


@overload(contract.max_length, jit_options={"cache": True})
def _max_length(domain):
    if _is_tsptw(domain):
        return lambda domain: domain.nodes
