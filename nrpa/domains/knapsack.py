"""The 0/1 knapsack for the numba kernels (rules: nrpa/data/knapsack/SOURCE.md).

The example domain: the smallest complete implementation of the domain contract
(``nrpa.domains.contract``), to copy when adding a domain. A move puts item i in (the move
id and the policy code are both i); it is legal while the item is out and fits.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from nrpa.domains import contract

Knapsack = namedtuple("Knapsack", ["capacity", "weights", "values"])
# taken[i] = 1 when item i is in; info = [room left, total value]
KnapsackState = namedtuple("KnapsackState", ["taken", "info"])


def make_knapsack(capacity: int, weights, values) -> Knapsack:
    return Knapsack(capacity=np.int64(capacity), weights=np.asarray(weights, dtype=np.int64),
                    values=np.asarray(values, dtype=np.int64))


@njit(cache=True)
def ks_new_state(domain):
    state = KnapsackState(taken=np.zeros(domain.weights.size, dtype=np.int64), info=np.zeros(2, dtype=np.int64))
    ks_reset(domain, state)
    return state


@njit(cache=True)
def ks_reset(domain, state):
    state.taken[:] = 0
    state.info[0] = domain.capacity
    state.info[1] = 0


@njit(cache=True)
def ks_copy_state(domain, source, target):
    target.taken[:] = source.taken
    target.info[:] = source.info


@njit(cache=True)
def ks_legal_moves(domain, state, moves, codes):
    n = 0
    for item in range(domain.weights.size):
        if state.taken[item] == 0 and domain.weights[item] <= state.info[0]:
            moves[n] = item
            codes[n] = item
            n += 1
    return n


@njit(cache=True)
def ks_play(domain, state, item):
    state.taken[item] = 1
    state.info[0] -= domain.weights[item]
    state.info[1] += domain.values[item]


@njit(cache=True)
def ks_score(domain, state):
    return np.float64(state.info[1])


@njit(cache=True)
def ks_items(domain):
    """Both bounds: at most n items are legal at once, and a sequence puts each in once."""
    return domain.weights.size


contract.register(
    Knapsack, new_state=ks_new_state, reset=ks_reset, copy_state=ks_copy_state, legal_moves=ks_legal_moves,
    play=ks_play, score=ks_score, max_moves=ks_items, max_length=ks_items,
)
