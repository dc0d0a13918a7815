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

A code's home slot is (code * multiplier) >> shift, the top bits of a 64-bit product.
Codes are hashed with the golden-ratio multiplier (Fibonacci hashing), unless the domain
says that its codes are dense, all in [0, B) (the contract's ``code_bound``) and B fits the
table: the multiplier is then 2^(64 - bits) and code c sits in slot c, so the codes of a
step (Morpion's lines near a dot, TSPTW's (from, to) of one ``from``) share cache lines
instead of being scattered over the table. A slot not in use holds weight 0 and exp 1
(``clear`` restores them), so in such a dense table a playout reads the exp of code c at
slot c without looking at the keys. That relies on the domain's promise that no code lies
outside [0, B) (tests/test_contract.py checks every domain that makes it); Adapt's inserts
still probe, so a broken promise gives wrong weights, never a write outside the table.
"""

from collections import namedtuple

import numpy as np
from numba import njit

from nrpa.bits import float_from_bits

EMPTY_KEY = np.int64(-(2**63))
GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MAX_LOAD = 0.7

Policy = namedtuple("Policy", ["keys", "weights", "exp_weights", "used", "n_used", "multiplier", "shift"])


@njit(cache=True)
def new_policy(levels, capacity_bits, code_bound):
    """Empty tables for rows 0..levels, each with 2**capacity_bits slots, for codes in
    [0, ``code_bound``) when it is positive (dense codes: slot = code when they fit), any
    64-bit codes otherwise."""
    capacity = 1 << capacity_bits
    dense = 0 < code_bound <= capacity
    rows = levels + 1
    return Policy(
        keys=np.full((rows, capacity), EMPTY_KEY, dtype=np.int64),
        weights=np.zeros((rows, capacity), dtype=np.float64),
        exp_weights=np.ones((rows, capacity), dtype=np.float64),
        used=np.zeros((rows, capacity), dtype=np.int64),
        n_used=np.zeros(rows, dtype=np.int64),
        multiplier=np.uint64(1) << np.uint64(64 - capacity_bits) if dense else GOLDEN,
        shift=np.uint64(64 - capacity_bits),
    )


# exp of a weight, for every exp_weights entry. Adapt takes one exp per legal move of the
# sequence (TSPTW: a thousand a level-1 iteration), and libm's exp is a call that a loop
# cannot vectorize (4.3 ns each here); this one is plain arithmetic that LLVM vectorizes
# (1.1 ns), with the same bits on every machine (no libm, and no fused multiply-add: numba
# asks LLVM for none). It is within 1 ulp of exp (libm within 0.5 ulp; they differ in the
# last bit for about 1 argument in 10; tests/test_policy.py compares them).
# x = k ln2 + r with |r| <= ln2 / 2 (k rounded to nearest by the 1.5 * 2^52 shifter, ln2 in
# Cody and Waite's two parts), exp(r) by its Taylor series to r^13 (the next term is below
# 2^-56 there), times 2^k applied as two powers of 2, so that overflow gives inf and
# underflow 0.
_LOG2_E = 1.4426950408889634
_LN2_HIGH = 0.6931471803691238  # ln 2 to 32 bits: k * _LN2_HIGH is exact for |k| < 2^21
_LN2_LOW = 1.9082149292705877e-10  # ln 2 - _LN2_HIGH
_SHIFTER = 6755399441055744.0  # 1.5 * 2^52: (y + _SHIFTER) - _SHIFTER rounds y to an integer
_EXP_RANGE = 746.0  # exp is inf or 0 beyond it; the clamp keeps both powers of 2 normal


@njit(cache=True, inline="always")
def weight_exp(x):
    """exp(x) for the policy tables (see above)."""
    clamped = min(max(x, -_EXP_RANGE), _EXP_RANGE)
    k = (clamped * _LOG2_E + _SHIFTER) - _SHIFTER
    r = (clamped - k * _LN2_HIGH) - k * _LN2_LOW
    p = 1.6059043836821613e-10  # 1 / 13!
    p = p * r + 2.08767569878681e-09
    p = p * r + 2.505210838544172e-08
    p = p * r + 2.755731922398589e-07
    p = p * r + 2.7557319223985893e-06
    p = p * r + 2.48015873015873e-05
    p = p * r + 0.0001984126984126984
    p = p * r + 0.001388888888888889
    p = p * r + 0.008333333333333333
    p = p * r + 0.041666666666666664
    p = p * r + 0.16666666666666666
    p = p * r + 0.5
    p = p * r + 1.0
    p = p * r + 1.0
    exponent = np.int64(k)
    half = exponent >> 1
    value = p * float_from_bits((half + 1023) << 52) * float_from_bits((exponent - half + 1023) << 52)
    return value if x == x else x  # NaN stays NaN


# Hot loops read the arrays of a Policy into locals once and call the functions taking
# plain arrays: each read of a NamedTuple field costs an atomic reference-count update.


@njit(cache=True, inline="always")
def _key(code):
    return code if code != EMPTY_KEY else EMPTY_KEY + 1


@njit(cache=True, inline="always")
def _home_slot(key, multiplier, shift):
    return np.int64((np.uint64(key) * multiplier) >> shift)


# find_slot and slot_for keep their own probe loops on purpose: sharing one probe helper
# (returning the slot of the key or of the free place) cost 30% of the playouts per second
# in `make bench` (21,900 -> 15,600 with tabu). Nor can slot_for call find_slot and insert
# after it (find_slot returning an absent code's free slot as -1 - slot, which leaves the
# playout as it is): with the insert's raise out of the probe loop, Adapt keeps 11 + 34
# atomic reference-count updates a call, over its budget of 30 (experiments/refcounts.py;
# 7 + 22 with the raise inside the loop; 2026-11-29).
@njit(cache=True, inline="always")
def find_slot(keys, multiplier, shift, row, code):
    """The slot of ``code`` in row ``row``, or -1 when the code is absent (weight 0)."""
    key = _key(code)
    mask = keys.shape[1] - 1
    slot = _home_slot(key, multiplier, shift)
    while True:
        found = keys[row, slot]
        if found == key:
            return slot
        if found == EMPTY_KEY:
            return -1
        slot = (slot + 1) & mask


@njit(cache=True, inline="always")
def exp_weight(keys, exp_weights, multiplier, shift, row, code):
    """exp of the weight of ``code`` in row ``row`` (1 when absent: weight 0)."""
    if multiplier != GOLDEN:  # a dense table: slot = code (masked: never outside the row)
        return exp_weights[row, code & (keys.shape[1] - 1)]
    slot = find_slot(keys, multiplier, shift, row, code)
    return exp_weights[row, slot] if slot >= 0 else 1.0


@njit(cache=True)
def weight(policy, row, code):
    """The weight of ``code`` in row ``row`` (0 when absent); for tests and inspection."""
    slot = find_slot(policy.keys, policy.multiplier, policy.shift, row, code)
    return policy.weights[row, slot] if slot >= 0 else 0.0


@njit(cache=True, inline="always")
def slot_for(keys, weights, exp_weights, used, n_used, multiplier, shift, row, code):
    """The slot of ``code`` in row ``row``, inserted with weight 0 (exp 1) when absent.
    Inserting does not change any weight, so reads made after it still see the old ones."""
    key = _key(code)
    mask = keys.shape[1] - 1
    slot = _home_slot(key, multiplier, shift)
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


@njit(cache=True, inline="always")
def _slot_arrays(policy):
    """The arrays of a policy's slots, read once, for the functions that walk the used slots
    of a row (``clear``, ``copy_row_to``)."""
    return policy.keys, policy.weights, policy.exp_weights, policy.used, policy.n_used


@njit(cache=True)
def clear(policy, row):
    """Make row ``row`` the uniform policy (every weight 0, every slot free with weight 0
    and exp 1, as dense tables' look-ups require)."""
    keys, weights, exp_weights, used, n_used = _slot_arrays(policy)
    for i in range(n_used[row]):
        slot = used[row, i]
        keys[row, slot] = EMPTY_KEY
        weights[row, slot] = 0.0
        exp_weights[row, slot] = 1.0
    n_used[row] = 0


@njit(cache=True)
def copy_row(policy, source, target):
    """Row ``target`` becomes a copy of row ``source``, touching only used slots."""
    copy_row_to(policy, source, policy, target)


@njit(cache=True)
def copy_row_to(source_policy, source, target_policy, target):
    """Row ``target`` of ``target_policy`` becomes a copy of row ``source`` of
    ``source_policy`` (tables of the same capacity and multiplier), touching only used slots."""
    clear(target_policy, target)
    source_keys, source_weights, source_exp, source_used, source_n_used = _slot_arrays(source_policy)
    keys, weights, exp_weights, used, n_used = _slot_arrays(target_policy)
    for i in range(source_n_used[source]):
        slot = source_used[source, i]
        keys[target, slot] = source_keys[source, slot]
        weights[target, slot] = source_weights[source, slot]
        exp_weights[target, slot] = source_exp[source, slot]
        used[target, i] = slot
    n_used[target] = source_n_used[source]


@njit(cache=True)
def fill_row(policy, row, codes, weights):
    """Row ``row`` gets weight ``weights[i]`` for ``codes[i]`` (GNRPA's bias tables)."""
    keys = policy.keys
    table_weights = policy.weights
    exp_weights = policy.exp_weights
    for i in range(codes.size):
        slot = slot_for(keys, table_weights, exp_weights, policy.used, policy.n_used, policy.multiplier,
                        policy.shift, row, codes[i])
        table_weights[row, slot] = weights[i]
        exp_weights[row, slot] = weight_exp(weights[i])
