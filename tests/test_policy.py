"""The policy table and one Adapt step, against values computed by hand."""

import math

import numpy as np
import pytest

from nrpa import policy as pol
from nrpa.nested import _new_workspace, adapt, copy_sequence
from nrpa.bias import domain_bias
from nrpa.domains.samegame import make_samegame
from nrpa.domains.samegame_rules import load_board
from nrpa.search import SearchSettings, kernel_params


def workspace_with_sequence(legal_per_step, chosen, factors=None):
    """A workspace whose level-1 sequence has the given legal codes and choices (and, with
    ``factors``, exp(beta) per legal code: GNRPA's bias)."""
    params = (kernel_params(SearchSettings()) if factors is None
              else kernel_params(SearchSettings(algorithm="gnrpa"), domain_bias("tabu")))
    ws = _new_workspace(make_samegame(load_board(1).rows), 1, params)  # room for 113 x 113 codes
    offset = 0
    for t, codes in enumerate(legal_per_step):
        ws.seq_starts[1, t] = offset
        ws.seq_legal[1, offset:offset + len(codes)] = codes
        if factors is not None:
            ws.seq_factor[1, offset:offset + len(codes)] = factors[t]
        ws.seq_chosen[1, t] = chosen[t]
        offset += len(codes)
    ws.seq_starts[1, len(legal_per_step)] = offset
    ws.seq_len[1] = len(legal_per_step)
    return ws


@pytest.mark.parametrize("code_bound", [0, 50, 1024, 2048], ids=["hashed", "dense", "dense, full", "dense, too wide"])
def test_one_adapt_step_matches_the_hand_computed_update(code_bound):
    # Step 1: codes 10, 20, 30 all at weight 0, 20 chosen: p = 1/3 each.
    # Step 2: codes 20, 40, 40 chosen: p = 1/2 each, with 20 still at its weight from
    # before this Adapt (0), not at the 2/3 that step 1 gives it. Where the codes sit in
    # the table (the domain's ``code_bound``) does not change the weights.
    ws = workspace_with_sequence([[10, 20, 30], [20, 40]], chosen=[1, 1])
    policy = pol.new_policy(1, 10, code_bound)
    adapt(ws, policy, 1, 1, 1.0)
    expected = {10: -1 / 3, 20: 1 - 1 / 3 - 1 / 2, 30: -1 / 3, 40: 1 - 1 / 2}
    for code, weight in expected.items():
        assert pol.weight(policy, 1, code) == pytest.approx(weight, abs=1e-12)
        slot = pol.slot_for(policy.keys, policy.weights, policy.exp_weights, policy.used,
                            policy.n_used, np.uint64(policy.multiplier), policy.shift, 1, code)
        assert policy.exp_weights[1, slot] == pol.weight_exp(policy.weights[1, slot])
        assert policy.exp_weights[1, slot] == pytest.approx(math.exp(weight), abs=1e-12)
        if 0 < code_bound <= 1024:  # dense codes that fit: each in its own slot
            assert slot == code
    assert pol.weight(policy, 0, 20) == 0.0  # other rows untouched


def test_dense_codes_outside_their_bound_are_still_found_by_probing():
    # slot = code mod 1024 for dense codes: 7, 1031 and -1017 share a home slot
    policy = pol.new_policy(1, 10, 1024)
    adapt(workspace_with_sequence([[7, 1031, -1017]], chosen=[1]), policy, 1, 1, 3.0)
    assert pol.weight(policy, 1, 7) == pytest.approx(-1.0)
    assert pol.weight(policy, 1, 1031) == pytest.approx(2.0)
    assert pol.weight(policy, 1, -1017) == pytest.approx(-1.0)
    assert pol.weight(policy, 1, 2055) == 0.0


def test_a_dense_table_reads_weight_0_for_codes_that_a_copy_or_a_clear_removed():
    # a dense table's look-up reads slot = code without the key: free slots must hold exp 1
    policy = pol.new_policy(2, 10, 1024)
    adapt(workspace_with_sequence([[5, 6]], chosen=[0]), policy, 1, 1, 1.0)
    adapt(workspace_with_sequence([[7, 8]], chosen=[0]), policy, 2, 1, 1.0)

    def read(row, code):
        return pol.exp_weight(policy.keys, policy.exp_weights, np.uint64(policy.multiplier), policy.shift, row, code)

    assert read(1, 5) == pytest.approx(math.exp(0.5)) and read(1, 6) == pytest.approx(math.exp(-0.5))
    pol.copy_row(policy, 2, 1)  # row 1 becomes row 2: codes 5 and 6 are gone from it
    assert read(1, 5) == read(1, 6) == 1.0 and read(1, 7) == pytest.approx(math.exp(0.5))
    pol.clear(policy, 1)
    assert read(1, 7) == read(1, 8) == 1.0


def test_the_policy_exp_is_within_one_ulp_of_exp_and_ends_at_inf_and_0():
    rng = np.random.default_rng(3)
    xs = np.concatenate([rng.uniform(-50, 50, 100_000), rng.uniform(-708, 709.7, 10_000),
                         [0.0, -0.0, 1e-300, -1e-17, 0.5 * math.log(2), 1.0, -1.0, 709.78, -708.39]])
    for x in xs:
        exact = math.exp(x)
        assert abs(pol.weight_exp(x) - exact) <= math.ulp(exact), x
    assert pol.weight_exp(0.0) == pol.weight_exp(-0.0) == 1.0
    assert pol.weight_exp(709.8) == pol.weight_exp(1e308) == math.inf
    assert pol.weight_exp(-745.2) == pol.weight_exp(-1e308) == 0.0
    assert pol.weight_exp(-740.0) == pytest.approx(math.exp(-740.0), rel=1e-6)  # a subnormal
    assert math.isnan(pol.weight_exp(math.nan))


def test_adapt_with_nonzero_weights_and_alpha_uses_the_softmax_of_the_old_weights():
    ws = workspace_with_sequence([[1, 2]], chosen=[0])
    policy = pol.new_policy(1, 10, 0)
    adapt(ws, policy, 1, 1, 1.0)  # w1 = 1/2, w2 = -1/2
    adapt(ws, policy, 1, 1, 2.0)
    p1 = math.exp(0.5) / (math.exp(0.5) + math.exp(-0.5))
    assert pol.weight(policy, 1, 1) == pytest.approx(0.5 + 2.0 * (1 - p1))
    assert pol.weight(policy, 1, 2) == pytest.approx(-0.5 - 2.0 * (1 - p1))


def test_generalized_adapt_with_a_temperature_and_a_bias_matches_the_hand_computed_update():
    # GNRPA, tau = 2, alpha = 1: codes 10, 20, 30 at weight 0 with beta = 0, ln 2, 0 and 10
    # chosen, so p = (1, 2, 1) / 4. The gradient step on w is (alpha / tau) (delta - p) =
    # (3/8, -1/4, -1/8); the table holds v = w / tau = (3/16, -1/8, -1/16), stepped by
    # alpha / tau^2 = 1/4.
    ws = workspace_with_sequence([[10, 20, 30]], chosen=[0], factors=[[1.0, 2.0, 1.0]])
    policy = pol.new_policy(1, 10, 0)
    tau, alpha = 2.0, 1.0
    adapt(ws, policy, 1, 1, alpha / tau**2)
    w = {10: 3 / 8, 20: -1 / 4, 30: -1 / 8}
    for code, weight in w.items():
        assert pol.weight(policy, 1, code) == pytest.approx(weight / tau, abs=1e-12)
    # and the playout then reads p(m) ~ exp(w_m / tau + beta_m), as GNRPA defines it
    beta = {10: 0.0, 20: math.log(2.0), 30: 0.0}
    total = sum(math.exp(w[c] / tau + beta[c]) for c in w)
    stored = {c: math.exp(pol.weight(policy, 1, c)) * math.exp(beta[c]) for c in w}
    for code in w:
        assert stored[code] / sum(stored.values()) == pytest.approx(math.exp(w[code] / tau + beta[code]) / total)


def test_copying_a_row_replaces_the_target_row_entirely():
    policy = pol.new_policy(2, 10, 0)
    adapt(workspace_with_sequence([[5, 6]], chosen=[0]), policy, 1, 1, 1.0)
    adapt(workspace_with_sequence([[7, 8]], chosen=[0]), policy, 2, 1, 1.0)
    pol.copy_row(policy, 2, 1)
    assert pol.weight(policy, 1, 7) == pytest.approx(0.5)
    assert pol.weight(policy, 1, 5) == 0.0
    assert policy.n_used[1] == policy.n_used[2] == 2


def test_copying_a_row_to_another_table_copies_its_used_slots_and_nothing_else():
    source = pol.new_policy(1, 10, 0)
    target = pol.new_policy(2, 10, 0)
    adapt(workspace_with_sequence([[5, 6]], chosen=[0]), source, 1, 1, 1.0)
    adapt(workspace_with_sequence([[7, 8, 9]], chosen=[0]), target, 2, 1, 1.0)
    pol.copy_row_to(source, 1, target, 2)
    assert pol.weight(target, 2, 5) == pol.weight(source, 1, 5) == pytest.approx(0.5)
    assert pol.weight(target, 2, 6) == pytest.approx(-0.5)
    assert pol.weight(target, 2, 7) == 0.0  # the target row's own codes are gone
    assert target.n_used[2] == 2 and target.n_used[1] == 0
    assert sorted(target.exp_weights[2][target.keys[2] != pol.EMPTY_KEY]) == pytest.approx(
        sorted([math.exp(-0.5), math.exp(0.5)]))


def test_copying_a_sequence_copies_every_array_of_its_level_and_no_other_level():
    # between two workspaces, with a bias's factors: each array copy_sequence reads from both
    source = workspace_with_sequence([[10, 20, 30], [20, 40]], chosen=[2, 1],
                                     factors=[[1.0, 2.0, 3.0], [4.0, 5.0]])
    source.seq_moves[1, :2] = [7, 8]
    target = workspace_with_sequence([[1]], chosen=[0], factors=[[9.0]])
    copy_sequence(source, 1, target, 0)
    assert target.seq_len[0] == 2
    assert list(target.seq_moves[0, :2]) == [7, 8] and list(target.seq_chosen[0, :2]) == [2, 1]
    assert list(target.seq_starts[0, :3]) == [0, 3, 5]
    assert list(target.seq_legal[0, :5]) == [10, 20, 30, 20, 40]
    assert list(target.seq_factor[0, :5]) == [1.0, 2.0, 3.0, 4.0, 5.0]
    assert target.seq_len[1] == 1 and target.seq_legal[1, 0] == 1 and target.seq_factor[1, 0] == 9.0


def test_the_code_equal_to_the_empty_marker_is_stored_like_any_other():
    policy = pol.new_policy(1, 10, 0)
    adapt(workspace_with_sequence([[int(pol.EMPTY_KEY), 3]], chosen=[0]), policy, 1, 1, 1.0)
    assert pol.weight(policy, 1, int(pol.EMPTY_KEY)) == pytest.approx(0.5)


def test_a_full_policy_table_fails_loudly():
    policy = pol.new_policy(1, 10, 0)  # 1024 slots, at most 70% of them used
    ws = workspace_with_sequence([list(range(1, 101))] * 10 + [list(range(101, 1001))], chosen=[0] * 11)
    with pytest.raises(RuntimeError, match="policy table full"):
        adapt(ws, policy, 1, 1, 1.0)
    assert np.count_nonzero(policy.keys[1] != pol.EMPTY_KEY) == policy.n_used[1] <= 0.7 * 1024 + 1
