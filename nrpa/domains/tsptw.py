"""The travelling salesman problem with time windows for the numba kernels
(nrpa/data/tsptw/SOURCE.md, the authors' tsptw.cpp).

A tour starts at the depot (node 0) at time 0, visits every customer once and returns to
the depot. Travelling i -> j costs d[i][j] (service time of i included); arriving before
the ready time waits, arriving after the due date is one violation and the tour goes on.
Score = -(1e6 * violations + cost), so the search maximises it.

A move is the next customer; its policy code is (previous node, next node), as the index
previous * nodes + next (dense: ``tw_code_bound``). Playout rules:
``all`` (every unvisited customer) and ``pruned`` (Cazenave & Teytaud 2012, Edelkamp et al.
2013): (1) if some unvisited customer can no longer be reached before its due date, only such
customers; otherwise (2) not a customer whose visit would make another reachable one late; and
every unvisited customer when that leaves none. ``late_first`` is step (1) alone and
``harmless`` step (2) alone: candidate readings of the Stabilized paper's unstated playouts,
between ``all`` and ``pruned`` (docs/readings.md).

GNRPA bias (``bias="time"``, our reading: the GNRPA paper's TSPTW bias could not be found;
see the README): beta_j = -bias_weight * max(d[i][j], ready_j - t) / dbar for the customer j,
i being the node the tour is at, t the time now and dbar the mean distance between two
distinct nodes: max(d, ready - t) is the time until j can be served (the travel, or the
wait for its window when that is longer), so the customer soonest served is the likeliest,
as in a nearest-neighbour tour that waits for the windows. exp(beta) of a customer that
waits is computed as exp(-s ready_j) exp(s t) (``tw_bias``).
"""

from __future__ import annotations

import math
from collections import namedtuple

import numpy as np
from numba import njit

from nrpa.bits import trailing_zeros
from nrpa.domains import contract

LATE_FIRST, HARMLESS = 1, 2  # the two steps of the pruned rule, as bits of ``rule``: see tw_legal_moves
RULES = {"all": 0, "pruned": LATE_FIRST | HARMLESS, "late_first": LATE_FIRST, "harmless": HARMLESS}
BIASES = {"none": 0, "time": 1}  # GNRPA biases (the domain's ``bias`` function)
VIOLATION_COST = 1_000_000.0

# bias: a value of BIASES; bias_scale: bias_weight / dbar; travel_factor[i, j]:
# exp(-bias_scale * d[i][j]), the factor of a move that waits for no window; ready_factor[j]:
# exp(-bias_scale * ready_j), for those that wait (see tw_bias); split_exp: whether that
# product form is safe from overflow
Tsptw = namedtuple("Tsptw", ["nodes", "distance", "ready", "due", "rule", "bias", "bias_scale", "travel_factor",
                             "ready_factor", "split_exp"])
MASK_NODES = 64
EXP_LIMIT = 700.0  # exp(700) ~ 1e304: the product form's factors stay finite and normal below it
# info = [current node, customers visited, violations, unvisited]; clock = [time, cost].
# info[3]: bit j set for each customer j not visited yet, when the nodes fit in 64 bits
# (MASK_NODES): the rule ``all`` lists them by walking the set bits (45 ns a step on
# rc_204.1 instead of 100 for a test of every node's flag, a branch the predictor misses).
TsptwState = namedtuple("TsptwState", ["visited", "info", "clock"])


def make_tsptw(distance, ready, due, *, rule: str = "all", bias: str = "none", bias_weight: float = 1.0) -> Tsptw:
    distance = np.ascontiguousarray(distance, dtype=np.float64)
    nodes = distance.shape[0]
    off_diagonal = [distance[i, j] for i in range(nodes) for j in range(nodes) if i != j]
    mean_distance = math.fsum(off_diagonal) / len(off_diagonal) if off_diagonal else 0.0
    scale = bias_weight / mean_distance if mean_distance > 0 else 0.0
    ready = np.asarray(ready, dtype=np.float64)
    # math.exp per entry, as the kernel's scalar exp (numpy's array exp may differ in the last bit)
    travel_factor = np.array([[math.exp(-scale * d) for d in row] for row in distance.tolist()])
    ready_factor = np.array([math.exp(-scale * r) for r in ready.tolist()])
    return Tsptw(nodes=np.int64(nodes), distance=distance, ready=ready, due=np.asarray(due, dtype=np.float64),
                 rule=np.int64(RULES[rule]), bias=np.int64(BIASES[bias]), bias_scale=np.float64(scale),
                 travel_factor=travel_factor, ready_factor=ready_factor,
                 split_exp=bool(scale * max(ready.max(initial=0.0), 0.0) <= EXP_LIMIT))


@njit(cache=True)
def tw_new_state(domain):
    state = TsptwState(visited=np.zeros(domain.nodes, dtype=np.uint8), info=np.zeros(4, dtype=np.int64),
                       clock=np.zeros(2))
    tw_reset(domain, state)
    return state


@njit(cache=True)
def tw_reset(domain, state):
    state.visited[:] = 0
    state.visited[0] = 1
    state.info[:] = 0
    state.clock[:] = 0.0
    if domain.nodes <= MASK_NODES:  # customers 1 .. nodes - 1
        state.info[3] = np.int64((np.uint64(0xFFFFFFFFFFFFFFFF) >> np.uint64(MASK_NODES - domain.nodes)) ^ np.uint64(1))


@njit(cache=True)
def tw_copy_state(domain, source, target):
    target.visited[:] = source.visited
    target.info[:] = source.info
    target.clock[:] = source.clock


@njit(cache=True, inline="always")
def _arrival(distance, ready, time, here, there):
    # the arrays, not the domain: given the domain NamedTuple, called inside tw_score's
    # branch, it kept 8 acquisitions and releases of its arrays (nrpa.domains.contract)
    return max(time + distance[here, there], ready[there])


@njit(cache=True, inline="always")
def _arrays(domain, state):
    """The arrays a step reads, read once at the top of each step function, which uses them
    all again in its last statement: numba then releases them at the exit, where its pruning
    removes each release with its acquisition (nrpa.domains.contract)."""
    return domain.distance, domain.ready, domain.due, state.visited, state.info, state.clock


@njit(cache=True, inline="always")
def tw_legal_moves(domain, state, moves, codes):
    nodes = domain.nodes
    rule = domain.rule  # read once, here: a read of the domain after a loop keeps its arrays acquired
    distance, ready, due, visited, info, clock = _arrays(domain, state)
    here = info[0]
    time = clock[0]
    count = 0
    if rule & LATE_FIRST:
        # (1) customers that can no longer be reached in time come first
        for j in range(1, nodes):
            if not visited[j] and time + distance[here, j] > due[j]:
                moves[count] = j
                count += 1
    if count == 0 and rule & HARMLESS:
        # (2) skip a customer whose visit would make another one late
        for i in range(1, nodes):
            if visited[i]:
                continue
            then = _arrival(distance, ready, time, here, i)
            harmless = True
            for j in range(1, nodes):
                if j != i and not visited[j] and then + distance[i, j] > due[j]:
                    harmless = False
                    break
            if harmless:
                moves[count] = i
                count += 1
    if count == 0:  # (3) no rule, or the rule left nothing: every unvisited customer, in order
        if nodes <= MASK_NODES:
            unvisited = np.uint64(info[3])
            while unvisited:
                moves[count] = np.int64(trailing_zeros(unvisited))
                unvisited &= unvisited - np.uint64(1)
                count += 1
        else:
            for j in range(1, nodes):
                if not visited[j]:
                    moves[count] = j
                    count += 1
    for k in range(count):
        codes[k] = here * nodes + moves[k]
    return count + 0 * (distance.size + ready.size + due.size + visited.size + info.size + clock.size + moves.size
                        + codes.size)


@njit(cache=True)
def tw_code_bound(domain):
    """Codes here * nodes + next lie below nodes^2: slot = code in the policy."""
    return domain.nodes * domain.nodes


@njit(cache=True, inline="always")
def tw_play(domain, state, customer):
    distance, ready, due, visited, info, clock = _arrays(domain, state)
    here = info[0]
    clock[1] += distance[here, customer]
    clock[0] = _arrival(distance, ready, clock[0], here, customer)
    if clock[0] > due[customer]:
        info[2] += 1
    visited[customer] = 1
    if domain.nodes <= MASK_NODES:
        info[3] &= ~(np.int64(1) << customer)
    info[0] = customer
    # last, with every array, so that numba releases them at the exit (see _arrays)
    info[1] += 1 + 0 * (clock.size + visited.size + distance.size + ready.size + due.size)


@njit(cache=True, inline="always")
def tw_score(domain, state):
    """-(1e6 * violations + cost), the return to the depot included once every customer is visited."""
    distance, ready, due, visited, info, clock = _arrays(domain, state)
    cost = clock[1]
    violations = info[2]
    if info[1] == domain.nodes - 1:
        here = info[0]
        cost += distance[here, 0]
        if _arrival(distance, ready, clock[0], here, 0) > due[0]:
            violations += 1
    # every array used once more: released at the exit, where numba prunes the pairs
    return -(VIOLATION_COST * violations + cost) + 0 * (info.size + clock.size + distance.size + ready.size + due.size
                                                     + visited.size)


@njit(cache=True, inline="always")
def tw_bias(domain, state, moves, codes, n, factors):
    """GNRPA's bias ``time`` as factors exp(beta) = exp(-s * max(d, ready - now)), s the
    bias scale: the precomputed travel factor, or for a customer whose window opens later
    than the travel takes, exp(-s * ready) * exp(s * now), one exp per step instead of one per
    such customer (an exp per move cost GNRPA a fifth of its playouts per second); the
    direct exp where that product could overflow."""
    here = state.info[0]
    time = state.clock[0]
    distance = domain.distance
    ready = domain.ready
    travel_factor = domain.travel_factor
    ready_factor = domain.ready_factor
    now_factor = 0.0  # exp(s * now), computed at the first customer that waits
    for k in range(n):
        j = moves[k]
        wait = ready[j] - time
        if distance[here, j] >= wait:
            factors[k] = travel_factor[here, j]
        elif domain.split_exp:
            if now_factor == 0.0:
                now_factor = np.exp(domain.bias_scale * time)
            factors[k] = ready_factor[j] * now_factor
        else:
            factors[k] = np.exp(-domain.bias_scale * wait)


@njit(cache=True)
def tw_max_moves(domain):
    return domain.nodes


contract.register(
    Tsptw, new_state=tw_new_state, reset=tw_reset, copy_state=tw_copy_state, legal_moves=tw_legal_moves,
    play=tw_play, score=tw_score, max_moves=tw_max_moves, max_length=tw_max_moves, bias=tw_bias,
    code_bound=tw_code_bound,
)
