"""The domain contract (nrpa.domains.contract), checked the same way for every registered domain.

States are compared as the kernels see them: the same legal moves, codes and score at every
step of the same random playout (a state may keep scratch space whose bytes differ)."""

from collections import namedtuple

import numpy as np
import pytest
from numba import njit

from nrpa.domains import contract
from nrpa.domains.registry import DOMAINS

SEEDS = (1, 2, 3)


@njit(cache=True)
def fresh_state(domain):
    return contract.new_state(domain)


@njit(cache=True)
def reset_state(domain, state):
    contract.reset(domain, state)


@njit(cache=True)
def copy_of(domain, state):
    target = contract.new_state(domain)
    contract.copy_state(domain, state, target)
    return target


@njit(cache=True)
def limits(domain):
    return contract.max_moves(domain), contract.max_length(domain)


@njit(cache=True)
def random_moves(domain, state, seed, steps):
    """Play up to ``steps`` uniform random moves on ``state`` (all of them when ``steps`` < 0).
    Returns the moves, the legal-move count before each move and after the last, every legal
    code in order, and the score. The buffers are larger than ``max_moves`` so that a domain
    breaking its bound is caught here rather than writing out of bounds."""
    np.random.seed(seed)
    width, cap = contract.max_moves(domain), contract.max_length(domain)
    moves = np.zeros(2 * width + 64, dtype=np.int64)
    codes = np.zeros(2 * width + 64, dtype=np.int64)
    played = np.zeros(cap + 1, dtype=np.int64)
    counts = np.zeros(cap + 2, dtype=np.int64)
    all_codes = np.zeros((cap + 1) * width, dtype=np.int64)
    length = 0
    n_codes = 0
    while True:
        n = contract.legal_moves(domain, state, moves, codes)
        counts[length] = n
        if n == 0 or n > width or length == steps or length > cap:
            break
        all_codes[n_codes : n_codes + n] = codes[:n]
        n_codes += n
        move = moves[np.random.randint(0, n)]
        played[length] = move
        contract.play(domain, state, move)
        length += 1
    return played[:length].copy(), counts[: length + 1].copy(), all_codes[:n_codes].copy(), \
        contract.score(domain, state)


@njit(cache=True)
def bound_of(domain):
    return contract.code_bound(domain)


@pytest.fixture(scope="module", params=sorted(DOMAINS))
def adapter(request):
    domain_class = DOMAINS[request.param]
    return domain_class(domain_class.options_class())


def same_playout(first, second):
    for a, b in zip(first, second):
        np.testing.assert_array_equal(a, b)


def test_every_domain_is_registered(adapter):
    assert type(adapter.kernel_domain()) in contract.REGISTERED


def test_a_fresh_state_equals_a_reset_one(adapter):
    domain = adapter.kernel_domain()
    for seed in SEEDS:
        played = fresh_state(domain)
        random_moves(domain, played, seed, 5)
        reset_state(domain, played)
        same_playout(random_moves(domain, fresh_state(domain), seed + 100, -1),
                     random_moves(domain, played, seed + 100, -1))


def test_legal_moves_is_zero_exactly_at_the_end_within_the_bounds(adapter):
    domain = adapter.kernel_domain()
    width, cap = limits(domain)
    for seed in SEEDS:
        state = fresh_state(domain)
        played, counts, _, _ = random_moves(domain, state, seed, -1)
        assert np.all(counts <= width), f"{counts.max()} legal moves, above max_moves = {width}"
        assert len(played) <= cap, f"a playout of {len(played)} moves, above max_length = {cap}"
        assert np.all(counts[:-1] > 0) and counts[-1] == 0
        again, counts_again, _, _ = random_moves(domain, state, seed, -1)  # asked again at the end: still 0
        assert len(again) == 0 and counts_again[0] == 0


def test_a_declared_code_bound_holds_every_code_of_random_playouts(adapter):
    """``code_bound`` B > 0 is a promise that every code lies in [0, B): a dense policy table
    reads the exp of code c at slot c (nrpa.policy). B = 0 (hashed codes) promises nothing."""
    domain = adapter.kernel_domain()
    bound = bound_of(domain)
    if bound == 0:
        pytest.skip("hashed codes: no bound declared")
    for seed in SEEDS:
        _, _, codes, _ = random_moves(domain, fresh_state(domain), seed, -1)
        assert codes.size > 0 and codes.min() >= 0 and codes.max() < bound, (codes.min(), codes.max(), bound)


def test_copy_state_gives_an_independent_copy(adapter):
    domain = adapter.kernel_domain()
    for seed in SEEDS:
        original = fresh_state(domain)
        random_moves(domain, original, seed, 4)
        copy = copy_of(domain, original)
        random_moves(domain, original, seed + 1, -1)  # the original goes on to the end
        walked = fresh_state(domain)
        random_moves(domain, walked, seed, 4)
        same_playout(random_moves(domain, walked, seed + 2, -1), random_moves(domain, copy, seed + 2, -1))


def test_a_random_playout_certificate_replays_to_the_kernel_score(adapter):
    domain = adapter.kernel_domain()
    for seed in SEEDS:
        played, _, _, score = random_moves(domain, fresh_state(domain), seed, -1)
        certificate = adapter.certificate(played)
        assert adapter.replay_score(certificate) == pytest.approx(score, abs=1e-9)


Toy = namedtuple("Toy", ["size"])


@njit
def _toy(domain):
    return domain.size


def test_register_refuses_a_missing_function_by_name():
    with pytest.raises(TypeError, match="missing reset, copy_state, legal_moves, play, score, max_length"):
        contract.register(Toy, new_state=_toy, max_moves=_toy)
    assert Toy not in contract.REGISTERED


@njit
def _toy_state(domain, state):
    pass


@njit
def _toy_copy(domain, source, target):
    pass


@njit
def _toy_legal(domain, state, moves, codes):
    return 0


def test_a_domain_with_bound_fields_registers_no_bound_function():
    """Fields named max_moves and max_length are the bounds (Morpion's), unless a function is given."""
    Bounded = namedtuple("Bounded", ["max_moves", "max_length"])
    Overridden = namedtuple("Overridden", ["max_moves", "max_length"])
    rules = dict(new_state=_toy, reset=_toy_state, copy_state=_toy_copy,
                 legal_moves=_toy_legal, play=_toy_copy, score=_toy_state)
    contract.register(Bounded, **rules)
    contract.register(Overridden, **rules, max_moves=_toy)
    assert contract.REGISTERED[Bounded]["max_moves"] is contract.stored_max_moves
    assert contract.REGISTERED[Bounded]["max_length"] is contract.stored_max_length
    assert contract.REGISTERED[Overridden]["max_moves"] is _toy
    assert contract.REGISTERED[Overridden]["max_length"] is contract.stored_max_length


def test_register_refuses_a_function_of_the_wrong_arity():
    functions = {name: _toy for name in contract.CONTRACT if name not in contract.OPTIONAL}  # each of one parameter
    with pytest.raises(TypeError, match=r"reset=...\): an @njit function of 2 parameters \(domain, state\)"):
        contract.register(Toy, **functions)
