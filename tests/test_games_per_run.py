"""Runs of several games (``games`` G > 1): G independent searches in one run file, their
scores as a histogram. Checked against the same searches run one by one."""

import json
from types import SimpleNamespace

import pytest

from analysis.claims.paper_settings import complete_search_seconds
from analysis.claims.sources import Source
from analysis.results.report import Runs, final_scores
from experiments.run_file import run_id
from experiments.runs import Job, execute_run, game_scores, game_seed, verify_record
from nrpa.domains.registry import MorpionDomain, MorpionOptions
from nrpa.search import SearchSettings, run_search
from tests.conftest import cli

UNIFORM = SearchSettings(algorithm="nrpa", level=0, N=100, max_time=None, restart=False, seed=3)


def test_a_run_of_games_holds_the_scores_of_the_searches_made_one_by_one():
    """Game g is the search seeded game_seed(run seed, g): the histogram is the multiset of
    their scores, the best game's moves are the certificate, playouts and times add up."""
    job = Job(MorpionOptions(), UNIFORM, games=12)
    record = execute_run(job, repeat=0)
    seed = job.run_settings(0).seed
    kernel = MorpionDomain(MorpionOptions()).kernel_domain()
    alone = [run_search(kernel, SearchSettings(**{**UNIFORM.__dict__, "seed": game_seed(seed, g)})) for g in range(12)]
    assert sorted(game_scores(record)) == sorted(r.best_score for r in alone)
    games = record["result"]["games"]
    assert games["count"] == 12 and sum(games["scores"].values()) == 12
    best = max(range(12), key=lambda g: (alone[g].best_score, -g))  # the first of the highest score
    assert games["best_game"] == best
    assert record["result"]["best_score"] == alone[best].best_score == len(record["certificate"]["moves"])
    assert record["result"]["playouts"] == 12  # one playout a level-0 game
    assert record["trace"]["score"][-1] == alone[best].best_score
    assert verify_record(record) == (True, f"replays to {alone[best].best_score:g}")
    json.dumps(record)  # a run file


def test_a_histogram_that_does_not_hold_its_games_fails_verification():
    record = execute_run(Job(MorpionOptions(), UNIFORM, games=5), repeat=1)
    low = min(record["result"]["games"]["scores"], key=float)
    record["result"]["games"]["scores"][low] += 1
    ok, why = verify_record(record)
    assert ok is False and "does not hold 5 games" in why


def test_games_enter_a_run_identity_only_above_one():
    """Every run made before the option keeps its id; a run of G games is another run."""
    one, several = Job(MorpionOptions(), UNIFORM), Job(MorpionOptions(), UNIFORM, games=1000)
    assert "games" not in one.semantic_config()
    assert several.semantic_config()["games"] == 1000
    assert run_id(one.run_config(0)) != run_id(several.run_config(0))


def test_the_final_table_reads_every_game():
    """A column of 2 runs of 10 games is 20 final scores."""
    records = [execute_run(Job(MorpionOptions(), UNIFORM, games=10), repeat=r) for r in range(2)]
    scores = final_scores(Runs({"Uniform": records}, expected={}))
    assert sorted(scores["Uniform"]) == sorted(game_scores(records[0]) + game_scores(records[1]))
    assert len(scores["Uniform"]) == 20


@pytest.mark.parametrize("arguments, message", [
    (("games=0",), "games=0 is out of range"),
    (("games=3", "root=2"), "games=3 plays sequential searches one after the other: it does not take root=2"),
])
def test_run_py_refuses_games_out_of_range_before_any_search(arguments, message):
    done = cli("run.py", "domain=morpion", "level=0", *arguments)
    assert done.returncode != 0 and message in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize("level, bits", [(0, 12), (1, 15)])
def test_a_smaller_policy_table_plays_the_same_games(level, bits):
    """The policy's capacity is not part of a run's identity (morpion_table2.yaml lowers it for
    short searches, whose time went into allocating tables): the same run, game for game."""
    records = [execute_run(Job(MorpionOptions(), SearchSettings(**{**UNIFORM.__dict__, "level": level,
                                                                  "policy_capacity_bits": b}), games=8), 0)
               for b in (17, bits)]
    assert records[0]["run_id"] == records[1]["run_id"]
    assert records[0]["result"]["games"] == records[1]["result"]["games"]
    assert records[0]["certificate"] == records[1]["certificate"]


def test_the_games_come_out_in_an_order_drawn_from_the_run_not_sorted():
    """A sequential test reads scores in order: a histogram expanded low to high would send it
    every low game first (the Morpion uniform row's confidence sequence came out empty so)."""
    record = execute_run(Job(MorpionOptions(), UNIFORM, games=60), repeat=2)
    scores = game_scores(record)
    assert scores == game_scores(record)  # the same order on every reading
    assert sorted(scores) != scores and sorted(scores, reverse=True) != scores
    histogram = record["result"]["games"]["scores"]
    assert sorted(scores) == sorted(float(s) for s, n in histogram.items() for _ in range(n))


def test_a_run_of_games_is_priced_a_game_at_a_time():
    """The cost of a complete search read off stored runs is per game: a column of runs of 10
    games costs a tenth of a run file a game (the paper's counts are games)."""
    records = [execute_run(Job(MorpionOptions(), UNIFORM, games=10), repeat=r) for r in range(2)]
    source = Source(experiment=None, runs=Runs({"Uniform": records}, expected={}))
    variant = SimpleNamespace(job=SimpleNamespace(settings=SimpleNamespace(**records[0]["settings"])))
    per_game = complete_search_seconds(variant, source, "Uniform")
    assert per_game == pytest.approx(sum(r["result"]["cpu_seconds"] for r in records) / 20)
