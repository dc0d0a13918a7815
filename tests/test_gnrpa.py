"""The NRPA family: GNRPA (temperature and bias), GNRPA with limited repetitions and Beam NRPA,
the kernels against NRPA run for run, against plain-Python versions on the same random stream,
and by hand."""

import math

import numpy as np
import pytest

from nrpa.bias import TABLE_BIAS
from nrpa.bias import _table, bias_for, kernel_bias, read_table
from nrpa.domains import knapsack_rules, samegame, tsptw_rules
from nrpa.domains.registry import KnapsackOptions, SameGameOptions, TsptwOptions, make_domain
from nrpa.domains.samegame import make_samegame
from nrpa.errors import InputError
from nrpa.search import SearchSettings, run_search

BUDGET = dict(max_time=None, max_playouts=4000)


def same_run(a, b):
    return (a.best_score, a.best_moves, a.trace.playouts, a.trace.score, a.playouts, a.restarts) == (
        b.best_score, b.best_moves, b.trace.playouts, b.trace.score, b.playouts, b.restarts)


@pytest.mark.parametrize("options", [SameGameOptions(board="1", policy="selective", threshold=10),
                                     TsptwOptions(instance="rc_201.1")], ids=["samegame", "tsptw"])
@pytest.mark.parametrize("P", [1, 3])
def test_gnrpa_with_tau_1_no_bias_and_no_repetition_limit_is_nrpa_run_for_run(options, P):
    domain = make_domain(options).kernel_domain()
    settings = dict(level=3, N=10, seed=3, P=P, **BUDGET)
    nrpa = run_search(domain, SearchSettings(algorithm="nrpa" if P == 1 else "snrpa", **settings))
    gnrpa = run_search(domain, SearchSettings(algorithm="gnrpa", tau=1.0, repetitions=None, **settings))
    # a bias table of zeros: every factor is exp(0) = 1 exactly
    zeros = _table(np.array([1, 2, 3], dtype=np.int64), np.zeros(3), TABLE_BIAS, "zeros")
    zero_bias = run_search(domain, SearchSettings(algorithm="gnrpa", **settings), zeros)
    assert same_run(nrpa, gnrpa) and same_run(nrpa, zero_bias)
    assert len(nrpa.trace.score) > 3  # a run with several improvements, not a trivial one


class PlainGNRPA:
    """GNRPA(-LR) at level 2 on TSPTW (every unvisited customer legal, bias ``time``), in
    plain Python from the definitions, drawing from numpy's legacy generator, which is the
    numba kernels' Mersenne Twister: the same seed makes the same draws."""

    def __init__(self, instance, *, N, P, tau, alpha, repetitions, bias_weight, seed):
        self.instance, self.N, self.P, self.R = instance, N, P, repetitions
        self.step = alpha / tau**2  # on v = w / tau (see nrpa.nested)
        self.scale = bias_weight / self.mean_distance(instance) if bias_weight else 0.0
        self.random = np.random.RandomState(seed)
        self.playouts, self.best, self.trace = 0, -math.inf, []

    @staticmethod
    def mean_distance(instance):
        nodes, d = instance.nodes, instance.distance
        return math.fsum(d[i][j] for i in range(nodes) for j in range(nodes) if i != j) / (nodes * (nodes - 1))

    def draw(self, weights):
        """The kernels' draw: the first index whose cumulative weight passes u x the sum (else the last)."""
        threshold = self.random.random_sample() * sum(weights)
        cumulative = 0.0
        for i in range(len(weights) - 1):
            cumulative += weights[i]
            if threshold < cumulative:
                return i
        return len(weights) - 1

    def scored(self, value, steps):
        """A playout's (value, steps), counted and traced."""
        self.playouts += 1
        if value > self.best:
            self.best = value
            self.trace.append((self.playouts, value))
        return value, steps

    def playout(self, exp_v):
        inst = self.instance
        visited, here, time, tour, steps = {0}, 0, 0.0, [], []
        while True:
            legal = tsptw_rules.legal_customers(inst, visited, here, time, rule="all")
            if not legal:
                break
            codes = [here * 4096 + j for j in legal]
            arrival = [max(time + inst.distance[here][j], inst.ready[j]) for j in legal]
            # beta = -scale x the time until j can be served: the travel, or the wait for its
            # window, whose exp is taken as exp(-scale ready_j) exp(scale t) (nrpa.domains.tsptw)
            factors = [math.exp(-self.scale * inst.distance[here][j]) if inst.distance[here][j] >= inst.ready[j] - time
                       else math.exp(-self.scale * inst.ready[j]) * math.exp(self.scale * time) for j in legal]
            chosen = self.draw([exp_v.get(code, 1.0) * f for code, f in zip(codes, factors)])
            steps.append((codes, factors, chosen))
            here, time = legal[chosen], arrival[chosen]
            visited.add(here)
            tour.append(here)
        return self.scored(tsptw_rules.score(inst, tour), steps)

    def adapt(self, v, exp_v, steps):
        changes = []
        for codes, factors, chosen in steps:
            weights = [exp_v.get(code, 1.0) * f for code, f in zip(codes, factors)]
            total = sum(weights)
            deltas = [-self.step * w / total for w in weights]
            deltas[chosen] += self.step
            changes += zip(codes, deltas)
        for code, delta in changes:
            v[code] = v.get(code, 0.0) + delta
        for code, _ in changes:
            exp_v[code] = math.exp(v[code])

    def repeated(self, repeats, before, value):
        if self.R is None:
            return False
        if value > before:
            repeats[0] = 0
        elif value == before:
            repeats[0] += 1
        return repeats[0] >= self.R

    def iteration(self, exp_v, best, sequence):
        """A level-1 iteration's P playouts with one policy: (its best score, the call's best
        score and sequence after them, a playout replacing the best on >=)."""
        iteration_best = -math.inf
        for _ in range(self.P):
            value, steps = self.playout(exp_v)
            iteration_best = max(iteration_best, value)
            if value >= best:
                best, sequence = value, steps
        return iteration_best, best, sequence

    def level1(self, v, exp_v):
        best, sequence, done, repeats = -math.inf, None, 0, [0]
        while done < self.N:
            before = best
            iteration_best, best, sequence = self.iteration(exp_v, best, sequence)
            if self.repeated(repeats, before, iteration_best):
                break
            self.adapt(v, exp_v, sequence)
            done += 1
        return best, sequence

    def level2(self):
        v, exp_v = {}, {}
        best, sequence, done, repeats = -math.inf, None, 0, [0]
        while done < self.N:
            value, steps = self.level1(dict(v), dict(exp_v))
            repeated = self.repeated(repeats, best, value)
            if value >= best:
                best, sequence = value, steps
            if repeated:
                break
            self.adapt(v, exp_v, sequence)
            done += 1
        return best


@pytest.mark.parametrize("repetitions", [None, 1, 2])
def test_the_kernel_is_a_plain_python_gnrpa_with_temperature_bias_and_repetitions(repetitions):
    instance = tsptw_rules.load_instance("rc_201.1")
    adapter = make_domain(TsptwOptions(instance="rc_201.1", bias="time", bias_weight=2.0))
    settings = SearchSettings(algorithm="gnrpa", level=2, N=20, P=2, tau=0.8, alpha=0.8, repetitions=repetitions,
                              seed=11, max_time=None, restart=False)
    result = run_search(adapter.kernel_domain(), settings, bias_for(adapter))
    plain = PlainGNRPA(instance, N=20, P=2, tau=0.8, alpha=0.8, repetitions=repetitions, bias_weight=2.0, seed=11)
    best = plain.level2()
    assert result.best_score == best
    assert list(zip(result.trace.playouts, result.trace.score)) == plain.trace
    assert result.playouts == plain.playouts
    assert (result.playouts < 20 * 20 * 2) == (repetitions is not None)  # the limit ended calls early


class PlainBeam(PlainGNRPA):
    """Beam NRPA from its definition (nrpa/beam.py), on the plain GNRPA's playouts and Adapt
    (no bias, tau = 1): every beam element is (score, steps, v, exp_v)."""

    def __init__(self, instance, *, B, N, alpha, seed):
        super().__init__(instance, N=N, P=1, tau=1.0, alpha=alpha, repetitions=None, bias_weight=0.0, seed=seed)
        self.B, self.duplicates = B, 0

    @staticmethod
    def moves(steps):
        return [codes[chosen] for codes, _, chosen in steps]

    def offer(self, candidates, score, steps, parent):
        """Candidates are [score, steps, parent element]; the worst (the first of the lowest
        scores) gives way to a score >= its own; an equal sequence is kept once."""
        if len(candidates) == self.B:
            worst = min(range(len(candidates)), key=lambda j: (candidates[j][0], j))
            if score < candidates[worst][0]:
                return
        if any(self.moves(c[1]) == self.moves(steps) for c in candidates):
            self.duplicates += 1
            return
        if len(candidates) == self.B:
            candidates[worst] = [score, steps, parent]
        else:
            candidates.append([score, steps, parent])

    def call(self, level, v, exp_v):
        beam = [(-math.inf, None, v, exp_v)]
        for _ in range(self.N):
            candidates = [[element[0], element[1], element] for element in beam if element[0] > -math.inf]
            for element in beam:
                _, _, parent_v, parent_exp = element
                if level == 1:
                    children = [self.playout(parent_exp)]
                else:
                    children = [(score, steps) for score, steps, _, _ in self.call(level - 1, dict(parent_v),
                                                                                   dict(parent_exp))]
                for score, steps in children:
                    self.offer(candidates, score, steps, element)
            candidates.sort(key=lambda c: -c[0])  # stable: best first
            beam = [(score, steps, dict(parent[2]), dict(parent[3])) for score, steps, parent in candidates]
            for _, steps, element_v, element_exp in beam:
                self.adapt(element_v, element_exp, steps)
        return beam


class PlainKnapsackBeam(PlainBeam):
    """Beam NRPA as above on the knapsack: a move puts item i in, its code is i, no bias."""

    def playout(self, exp_v):
        inst = self.instance
        items, room, steps = [], inst.capacity, []
        while legal := [i for i in range(len(inst.weights)) if i not in items and inst.weights[i] <= room]:
            factors = [1.0] * len(legal)
            chosen = self.draw([exp_v.get(code, 1.0) for code in legal])
            steps.append((legal, factors, chosen))
            items.append(legal[chosen])
            room -= inst.weights[legal[chosen]]
        return self.scored(knapsack_rules.replay(inst, items), steps)


# The knapsack's runs in the fast suite (the contract's domain: tests/test_algorithm_contract.py
# compiles Beam NRPA for it anyway); SameGame's and TSPTW's in the slow one: each compiles a Beam
# kernel that no other fast test needs.
SLOW = pytest.mark.slow
BEAM_GAMES = {"knapsack": (KnapsackOptions(),
                           lambda **kw: PlainKnapsackBeam(knapsack_rules.load_instance("p07"), **kw)),
              "tsptw": (TsptwOptions(instance="rc_201.1"),
                        lambda **kw: PlainBeam(tsptw_rules.load_instance("rc_201.1"), **kw))}


@pytest.mark.parametrize("options", [pytest.param(SameGameOptions(board="1", policy="selective", threshold=10),
                                                  marks=SLOW),
                                     pytest.param(TsptwOptions(instance="rc_201.1"), marks=SLOW), KnapsackOptions()],
                         ids=["samegame", "tsptw", "knapsack"])
def test_beam_nrpa_with_a_beam_of_one_is_nrpa_run_for_run(options):
    domain = make_domain(options).kernel_domain()
    settings = dict(level=3, N=10, seed=3, **BUDGET)
    nrpa = run_search(domain, SearchSettings(algorithm="nrpa", **settings))
    beam = run_search(domain, SearchSettings(algorithm="beam", beam=1, **settings))
    assert same_run(nrpa, beam) and len(nrpa.trace.score) > 3


@pytest.mark.parametrize("game", ["knapsack", pytest.param("tsptw", marks=SLOW)])
@pytest.mark.parametrize("B", [2, 3])
def test_the_beam_kernel_is_a_plain_python_beam_nrpa(B, game):
    options, plain_beam = BEAM_GAMES[game]
    domain = make_domain(options).kernel_domain()
    # alpha = 2: the policies sharpen fast, so children find their parents' sequences again
    settings = SearchSettings(algorithm="beam", beam=B, level=2, N=6, alpha=2.0, seed=5, max_time=None,
                              restart=False)
    result = run_search(domain, settings)
    plain = plain_beam(B=B, N=6, alpha=2.0, seed=5)
    beam = plain.call(2, {}, {})
    assert result.best_score == beam[0][0] == plain.best
    assert list(zip(result.trace.playouts, result.trace.score)) == plain.trace
    assert result.playouts == plain.playouts > 6 * 6  # the beam made more than NRPA's N^2 playouts
    assert len(beam) == B and len({tuple(plain.moves(steps)) for _, steps, _, _ in beam}) == B
    assert plain.duplicates > 0  # the rule that keeps an equal sequence once was exercised


@pytest.mark.parametrize("repetitions, playouts", [(1, 4), (2, 9), (None, 25)])
def test_limited_repetitions_on_a_game_whose_every_playout_scores_the_same(repetitions, playouts):
    # One group of two stones: every playout scores 1000. Level 1 finds 1000 at its first
    # iteration and again at each later one, so with R it ends after R + 1 playouts; level 2
    # likewise after R + 1 level-1 calls: (R + 1)^2 playouts, against N^2 = 25 without R.
    domain = make_samegame([[1, 1]], rule="none")
    result = run_search(domain, SearchSettings(algorithm="gnrpa", level=2, N=5, repetitions=repetitions,
                                               max_time=None, restart=False))
    assert result.best_score == 1000.0
    assert result.playouts == playouts


def test_samegame_tabu_bias_is_minus_the_weight_on_tabu_groups_while_the_colour_is_split():
    # (the domain writes the factors exp(beta))
    from nrpa.domains.samegame import sg_bias as bias, sg_legal_moves as legal_moves, sg_new_state as new_state

    # colour 1 is the most frequent (tabu) and in two components; colour 2 in one group
    rows = [[1, 1, 2],
            [2, 2, 2],
            [1, 1, 3]]
    domain = make_samegame(rows, rule="none", bias="tabu", bias_weight=3.0)
    moves, codes, factors = np.zeros(9, dtype=np.int64), np.zeros(9, dtype=np.int64), np.zeros(9)
    state = new_state(domain)
    n = legal_moves(domain, state, moves, codes)
    bias(domain, state, moves, codes, n, factors)
    # the groups: the two of colour 1 (tabu) and the one of colour 2
    assert n == 3 and sorted(factors[:n]) == [math.exp(-3.0), math.exp(-3.0), 1.0]
    one_component = make_samegame([[1, 1, 1], [2, 2, 3]], rule="none", bias="tabu", bias_weight=3.0)
    state = new_state(one_component)
    n = legal_moves(one_component, state, moves, codes)
    bias(one_component, state, moves, codes, n, factors)
    assert n == 2 and list(factors[:n]) == [1.0, 1.0]  # the tabu colour in one piece: no bias


def test_bias_files_npz_and_csv(tmp_path):
    np.savez(tmp_path / "bias.npz", codes=np.array([5, 7]), bias=np.array([0.5, -1.0]))
    (tmp_path / "bias.csv").write_text("code,bias\n5,0.5\n7,-1.0\n")
    for name in ("bias.npz", "bias.csv"):
        codes, betas = read_table(str(tmp_path / name))
        assert list(codes) == [5, 7] and list(betas) == [0.5, -1.0]
        table = kernel_bias(str(tmp_path / name), {})
        assert table.kind == TABLE_BIAS and "2 codes" in table.description


@pytest.mark.parametrize("content, message", [
    ("code,weight\n1,2\n", "header 'code,bias'"),
    ("code,bias\n1,2\n1,3\n", "listed twice"),
    ("code,bias\n1,nan\n", "finite"),
    ("code,bias\n1\n", "line 2: two values"),
    ("code,bias\nx,1\n", "invalid literal"),
])
def test_bad_bias_files_are_refused_with_what_is_wrong(tmp_path, content, message):
    path = tmp_path / "bias.csv"
    path.write_text(content)
    with pytest.raises(InputError, match=message):
        read_table(str(path))


def test_a_bias_is_refused_for_an_algorithm_that_takes_none_and_unknown_names_say_what_is_valid():
    with pytest.raises(InputError, match="domain.bias='size' is not valid: choose none, tabu, or the path"):
        bias_for(make_domain(SameGameOptions(bias="size")))
    with pytest.raises(InputError, match="no such bias file"):
        bias_for(make_domain(SameGameOptions(bias="missing.npz")))
    adapter = make_domain(SameGameOptions(bias="tabu"))
    with pytest.raises(InputError, match="GNRPA's bias: use algo=gnrpa"):
        run_search(adapter.kernel_domain(), SearchSettings(**BUDGET), bias_for(adapter))
    with pytest.raises(InputError, match="tau=2.0 is a setting of GNRPA: use algo=gnrpa"):
        SearchSettings(tau=2.0)
    with pytest.raises(InputError, match="runs sequentially only"):
        SearchSettings(algorithm="gnrpa", repetitions=2, parallel="shared", threads=2, clock="wall")
    with pytest.raises(InputError, match="beam=3 is a setting of Beam NRPA: use algo=beam"):
        SearchSettings(beam=3)
    with pytest.raises(InputError, match="Beam NRPA runs sequentially only"):
        SearchSettings(algorithm="beam", parallel="shared", threads=2, clock="wall")
    with pytest.raises(InputError, match="Beam NRPA runs with P = 1"):
        SearchSettings(algorithm="beam", P=2)
    with pytest.raises(InputError, match="beam=0 is out of range"):
        SearchSettings(algorithm="beam", beam=0)
    assert samegame.BIASES == {"none": 0, "tabu": 1}


def test_a_gnrpa_run_has_its_own_identity_and_a_bias_enters_it_only_when_set():
    from dataclasses import replace as replaced

    from experiments.runs import Job

    nrpa = Job(SameGameOptions(), SearchSettings(level=3, N=100)).run_config(0)
    gnrpa = Job(SameGameOptions(), SearchSettings(algorithm="gnrpa", level=3, N=100)).run_config(0)
    assert "bias" not in nrpa["domain"] and "tau" not in nrpa  # NRPA's identities as before (test_run_ids)
    assert gnrpa["tau"] == 1.0 and gnrpa["repetitions"] is None and gnrpa != {**nrpa, "algorithm": "gnrpa"}
    biased = Job(SameGameOptions(bias="tabu"), SearchSettings(algorithm="gnrpa", level=3, N=100)).run_config(0)
    heavier = Job(SameGameOptions(bias="tabu", bias_weight=2.0), SearchSettings(algorithm="gnrpa", level=3, N=100))
    assert biased["domain"]["bias"] == "tabu" and biased != gnrpa != heavier.run_config(0) != biased
    assert Job(replaced(SameGameOptions(), bias_weight=2.0), SearchSettings(level=3, N=100)).run_config(0) == nrpa  # unused weight
