"""NRPA policy tables: one open-addressing hash table (move code -> weight) per level.

All levels live in 2-D arrays, row ``l`` being the policy of level ``l`` (the level-0
playouts read row 1). A code that is not in a row has weight 0. Rows have the same capacity
and hash function, so a code sits in the same slot in every row and copying a policy from
level ``l`` to ``l - 1`` copies only the slots row ``l`` uses (a full copy of a large table
per call would cost more than the playouts of a level-1 call).

Each slot holds the weight and its exp: weights change only in Adapt, while playouts read
exp(weight) for every legal move of every step, so storing it saves an exp per read.

Codes are 64-bit keys; ``EMPTY_KEY`` marks a free slot, and the one code equal to it is
stored as ``EMPTY_KEY + 1`` (a 2^-64 chance per distinct code of merging two weights).
"""

from collections import namedtuple

import numpy as np
from numba import njit

EMPTY_KEY = np.int64(-(2**63))
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MAX_LOAD = 0.7

Policy = namedtuple("Policy", ["keys", "weights", "exp_weights", "used", "n_used", "shift"])


@njit(cache=True)
def new_policy(levels, capacity_bits):
    """Empty tables for rows 0..levels, each with 2**capacity_bits slots."""
    capacity = 1 << capacity_bits
    rows = levels + 1
    return Policy(
        keys=np.full((rows, capacity), EMPTY_KEY, dtype=np.int64),
        weights=np.zeros((rows, capacity), dtype=np.float64),
        exp_weights=np.ones((rows, capacity), dtype=np.float64),
        used=np.zeros((rows, capacity), dtype=np.int64),
        n_used=np.zeros(rows, dtype=np.int64),
        shift=np.uint64(64 - capacity_bits),
    )


# Hot loops read the arrays of a Policy into locals once and call the functions taking
# plain arrays: each read of a NamedTuple field costs an atomic reference-count update.


@njit(cache=True, inline="always")
def _key(code):
    return code if code != EMPTY_KEY else EMPTY_KEY + 1


@njit(cache=True, inline="always")
def _home_slot(key, shift):
    return np.int64((np.uint64(key) * _GOLDEN) >> shift)


# find_slot and slot_for keep their own probe loops on purpose: sharing one probe helper
# (returning the slot of the key or of the free place) cost 30% of the playouts per second
# in `make bench` (21,900 -> 15,600 with tabu).
@njit(cache=True, inline="always")
def find_slot(keys, shift, row, code):
    """The slot of ``code`` in row ``row``, or -1 when the code is absent (weight 0)."""
    key = _key(code)
    mask = keys.shape[1] - 1
    slot = _home_slot(key, shift)
    while True:
        found = keys[row, slot]
        if found == key:
            return slot
        if found == EMPTY_KEY:
            return -1
        slot = (slot + 1) & mask


@njit(cache=True, inline="always")
def exp_weight(keys, exp_weights, shift, row, code):
    """exp of the weight of ``code`` in row ``row`` (1 when absent: weight 0)."""
    slot = find_slot(keys, shift, row, code)
    return exp_weights[row, slot] if slot >= 0 else 1.0


@njit(cache=True)
def weight(policy, row, code):
    """The weight of ``code`` in row ``row`` (0 when absent); for tests and inspection."""
    slot = find_slot(policy.keys, policy.shift, row, code)
    return policy.weights[row, slot] if slot >= 0 else 0.0


@njit(cache=True, inline="always")
def slot_for(keys, weights, exp_weights, used, n_used, shift, row, code):
    """The slot of ``code`` in row ``row``, inserted with weight 0 (exp 1) when absent.
    Inserting does not change any weight, so reads made after it still see the old ones."""
    key = _key(code)
    mask = keys.shape[1] - 1
    slot = _home_slot(key, shift)
    while True:
        found = keys[row, slot]
        if found == key:
            return slot
        if found == EMPTY_KEY:
            if n_used[row] >= MAX_LOAD * keys.shape[1]:
                raise RuntimeError("policy table full: raise policy_capacity_bits")
            keys[row, slot] = key
            weights[row, slot] = 0.0
            exp_weights[row, slot] = 1.0
            used[row, n_used[row]] = slot
            n_used[row] += 1
            return slot
        slot = (slot + 1) & mask


@njit(cache=True)
def clear(policy, row):
    """Make row ``row`` the uniform policy (every weight 0)."""
    keys = policy.keys
    used = policy.used
    for i in range(policy.n_used[row]):
        keys[row, used[row, i]] = EMPTY_KEY
    policy.n_used[row] = 0


@njit(cache=True)
def copy_row(policy, source, target):
    """Row ``target`` becomes a copy of row ``source``, touching only used slots."""
    copy_row_to(policy, source, policy, target)


@njit(cache=True)
def copy_row_to(source_policy, source, target_policy, target):
    """Row ``target`` of ``target_policy`` becomes a copy of row ``source`` of
    ``source_policy`` (tables of the same capacity), touching only used slots."""
    clear(target_policy, target)
    source_keys = source_policy.keys
    source_weights = source_policy.weights
    source_exp = source_policy.exp_weights
    source_used = source_policy.used
    keys = target_policy.keys
    weights = target_policy.weights
    exp_weights = target_policy.exp_weights
    used = target_policy.used
    for i in range(source_policy.n_used[source]):
        slot = source_used[source, i]
        keys[target, slot] = source_keys[source, slot]
        weights[target, slot] = source_weights[source, slot]
        exp_weights[target, slot] = source_exp[source, slot]
        used[target, i] = slot
    target_policy.n_used[target] = source_policy.n_used[source]


@njit(cache=True)
def fill_row(policy, row, codes, weights):
    """Row ``row`` gets weight ``weights[i]`` for ``codes[i]`` (GNRPA's bias tables)."""
    keys = policy.keys
    table_weights = policy.weights
    exp_weights = policy.exp_weights
    for i in range(codes.size):
        slot = slot_for(keys, table_weights, exp_weights, policy.used, policy.n_used, policy.shift, row, codes[i])
        table_weights[row, slot] = weights[i]
        exp_weights[row, slot] = np.exp(weights[i])
