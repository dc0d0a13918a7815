"""The neural policies (nrpa/neural): masking, a tiny network overfitting a tiny data set, a
killed training resumed to the same weights, the game-set files, the message when PyTorch is
not installed, NeuralNMCS and NeuralNRPA, the board's symmetries, Expert Iteration resumed."""

import json
import sys

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from nrpa.domains.morpion import encode_move, make_morpion  # noqa: E402
from nrpa.domains.morpion_rules import load_record  # noqa: E402
from nrpa.errors import InputError  # noqa: E402
from nrpa.neural import data  # noqa: E402
from nrpa.neural.networks import make_network, masked_logits  # noqa: E402
from nrpa.neural.training import TrainSettings, train  # noqa: E402


@pytest.fixture(scope="module")
def record_games():
    """The 5D record (82 moves) and its first 30 moves as a second game."""
    domain = make_morpion("5D")
    moves = [encode_move(domain, list(m)) for m in load_record("5d_82_rosin")]
    return data.from_sequences([moves, moves[:30]], [82.0, 30.0], {"made_by": "tests"})


def test_masked_moves_get_probability_zero_and_are_never_sampled():
    generator = torch.Generator().manual_seed(0)
    logits = torch.randn(4, 3600, generator=generator) * 5
    legal = torch.zeros(4, 3600, dtype=torch.bool)
    legal[:, [3, 900, 2000, 3599]] = True
    logits[~legal] += 50.0  # the illegal moves would win by far without the mask
    probabilities = torch.softmax(masked_logits(logits, legal), dim=1)
    assert torch.all(probabilities[~legal] == 0)
    samples = torch.multinomial(probabilities, 2000, replacement=True, generator=generator)
    assert set(samples.flatten().tolist()) <= {3, 900, 2000, 3599}


def test_both_networks_give_a_logit_per_point_and_direction():
    for name, residual in (("basic", False), ("resnet", True)):
        network = make_network(name, 17)
        assert network.residual is residual
        assert network(torch.zeros(2, 17, 30, 30)).shape == (2, 3600)
    with pytest.raises(InputError, match="network='mlp' is not valid"):
        make_network("mlp", 9)


@pytest.mark.slow  # trains for ~25 s
def test_a_tiny_network_overfits_a_tiny_data_set(record_games, tmp_path):
    settings = TrainSettings(network="basic", representation="R1", epochs=60, batch_size=16, learning_rate=0.05,
                             decay_every=1000, validation=0.0, seed=1)
    state = train(record_games, settings, tmp_path / "overfit.pt", progress=False)
    curves = state["curves"]
    assert curves[0]["train_loss"] > 2.0  # about log(number of legal moves) at the start
    assert curves[-1]["train_loss"] < 0.1 and curves[-1]["train_accuracy"] == 1.0


@pytest.mark.slow  # end to end, over 10 s
def test_a_killed_training_resumes_to_the_weights_of_an_unbroken_one(record_games, tmp_path):
    settings = TrainSettings(network="resnet", representation="R2", epochs=4, batch_size=8, decay_every=2,
                             validation=0.5, seed=3)
    unbroken = train(record_games, settings, tmp_path / "unbroken.pt", progress=False)
    first = train(record_games, settings, tmp_path / "killed.pt", stop_after=2, progress=False)
    assert first["epoch"] == 2
    resumed = train(record_games, settings, tmp_path / "killed.pt", progress=False)
    def measured(curves):  # every number but the time each epoch took
        return [{key: value for key, value in epoch.items() if key != "seconds"} for epoch in curves]

    assert resumed["epoch"] == 4 and measured(resumed["curves"]) == measured(unbroken["curves"])
    assert all(torch.equal(resumed["network"][k], unbroken["network"][k]) for k in unbroken["network"])
    assert unbroken["curves"][2]["learning_rate"] == pytest.approx(unbroken["curves"][0]["learning_rate"] / 10)


def test_a_checkpoint_of_other_settings_is_refused(record_games, tmp_path):
    path = tmp_path / "net.pt"
    train(record_games, TrainSettings(network="basic", representation="R1", epochs=1, seed=0), path, progress=False)
    with pytest.raises(InputError, match="made with other settings"):
        train(record_games, TrainSettings(network="basic", representation="R1", epochs=1, seed=5), path,
              progress=False)


def test_a_damaged_checkpoint_is_named_not_a_traceback(record_games, tmp_path):
    from nrpa.neural.exit import ExitSettings, Expert, expert_iteration
    from nrpa.neural.training import load_network

    path = tmp_path / "net.pt"
    train(record_games, TrainSettings(network="basic", representation="R1", epochs=1), path, progress=False)
    path.write_bytes(path.read_bytes()[:200])  # a copy cut short
    with pytest.raises(InputError, match="net.pt is damaged or not a checkpoint"):
        train(record_games, TrainSettings(network="basic", representation="R1", epochs=2), path, progress=False)
    with pytest.raises(InputError, match="net.pt is damaged or not a checkpoint"):
        load_network(path)
    with pytest.raises(InputError, match="net.pt is damaged or not a checkpoint"):
        expert_iteration(Expert("nmcs", 0, 1.0, 1), ExitSettings(minutes=0, expert_games=1, network_games=1), path,
                         progress=False)


def test_a_game_set_survives_its_file_and_a_damaged_file_is_named(record_games, tmp_path):
    path = tmp_path / "games.npz"
    data.save(record_games, path)
    again = data.load(path)
    assert np.array_equal(again.games, record_games.games) and again.provenance == {"made_by": "tests"}
    assert list(again.lengths) == [82, 30]
    game_of, ply_of = again.positions()
    assert len(game_of) == 112 and list(ply_of[80:84]) == [80, 81, 0, 1]
    path.write_bytes(path.read_bytes()[:100])
    with pytest.raises(InputError, match="damaged or not a game set"):
        data.load(path)
    with pytest.raises(InputError, match="no game set at"):
        data.load(tmp_path / "missing.npz")


def test_without_pytorch_the_neural_part_says_how_to_install_it(monkeypatch):
    from nrpa.neural.torch_setup import require_torch

    monkeypatch.setitem(sys.modules, "torch", None)  # import torch now raises ImportError
    with pytest.raises(InputError, match="need PyTorch.*make install"):
        require_torch()


def test_bad_neural_options_are_refused_before_any_work(tmp_path):
    from tests.conftest import cli

    done = cli("-m", "analysis.results.neural", "table1", "scale=huge", f"outputs_dir={tmp_path}")
    assert done.returncode == 2 and "scale='huge' is not valid" in done.stderr
    done = cli("-m", "analysis.results.neural", "table1", "epochs=3")
    assert done.returncode == 2 and "unknown option(s) epochs" in done.stderr
    assert not (tmp_path / "neural").exists()


@pytest.mark.slow  # NRPA games, three networks trained, games sampled, 11 ExIt runs: about 2 minutes
def test_the_neural_tables_build_at_smoke_scale(tmp_path):
    import pandas as pd

    from tests.conftest import cli

    done = cli("-m", "analysis.results.neural", "table2", "scale=smoke", "device=cpu", f"outputs_dir={tmp_path}")
    assert done.returncode == 0, done.stderr
    assert "table2 at smoke scale: 20 NRPA(1) games" in done.stderr and "device: cpu" in done.stderr
    table = pd.read_csv(tmp_path / "tables" / "morpion_table2_neural_smoke.csv")
    assert list(table["network"]) == ["BasicCNN R1", "Resnet R1", "Resnet R2"]
    assert (table["games"] == 20).all() and list(table["published mean"]) == [41.7, 44.0, 50.5]
    assert (table["min"] >= 1).all()
    games = data.load(tmp_path / "neural" / "games_smoke.npz")
    assert len(games) == 20 and len(games.provenance["run_ids"]) == 20
    for name in ("morpion_fig5_smoke.png",):
        assert (tmp_path / "figures" / name).is_file()
    # Table 1 finds the three trained networks and writes its table and curves
    done = cli("-m", "analysis.results.neural", "table1", "scale=smoke", "device=cpu", f"outputs_dir={tmp_path}")
    assert done.returncode == 0, done.stderr
    accuracy = pd.read_csv(tmp_path / "tables" / "morpion_table1_smoke.csv")
    assert (accuracy["epochs"] == 2).all() and accuracy["held_out_accuracy"].between(0, 1).all()
    assert (tmp_path / "figures" / "morpion_fig3_smoke.png").is_file()
    # Figure 2: the filter from the lowest score keeps all 20 games, then fewer, better ones
    tradeoff = pd.read_csv(tmp_path / "tables" / "morpion_fig2_smoke.csv")
    assert tradeoff["games"].iloc[0] == 20 and tradeoff["games"].is_monotonic_decreasing
    assert tradeoff["mean_score"].is_monotonic_increasing
    assert (tradeoff["distinct_positions"] <= tradeoff["positions"]).all()
    # Table 3: one Nested(1) game with the smoke network, beside 20 sampled games
    done = cli("-m", "analysis.results.neural", "table3", "scale=smoke", "device=cpu", f"outputs_dir={tmp_path}")
    assert done.returncode == 0, done.stderr
    nested = pd.read_csv(tmp_path / "tables" / "morpion_table3_smoke.csv").set_index("approach")
    assert list(nested["games"]) == [1, 20] and nested.loc["Nested(1) + Resnet R2", "published mean"] == 68.8
    assert nested.loc["Nested(1) + Resnet R2", "mean"] >= 20
    # Table 4: a one-iteration Expert Iteration run per published row, its best game replayed
    done = cli("-m", "analysis.results.neural", "table4", "scale=smoke", "device=cpu", f"outputs_dir={tmp_path}")
    assert done.returncode == 0, done.stderr
    exit_table = pd.read_csv(tmp_path / "tables" / "morpion_table4_smoke.csv")
    assert len(exit_table) == 11 and (exit_table["iterations"] == 1).all()
    assert exit_table["published nn_mean_score"].iloc[0] == 50.66 and (exit_table["expert_best_score"] >= 1).all()
    record = json.loads((tmp_path / "neural" / "smoke" / "exit" / "NeuralNRPA2_A_t0.2_r20.json").read_text())
    assert record["certificate"]["replayed_score"] == record["best"]["score"] and record["code_version"]
    assert (tmp_path / "figures" / "morpion_fig6_smoke.png").is_file()
    # what the claims read: each row's network best, one run per row
    results = json.loads((tmp_path / "neural" / "smoke" / "table4_results.json").read_text())
    assert len(results["columns"]) == 11 and results["settings"] == {"minutes": 0}
    assert results["columns"]["NeuralNRPA(2) A"] == [exit_table["nn_best_score"].iloc[9]]
    # a damaged record is set aside and made again from the run's checkpoint, no iteration rerun
    path = tmp_path / "neural" / "smoke" / "exit" / "NeuralNRPA2_A_t0.2_r20.json"
    path.write_text("{cut short")
    done = cli("-m", "analysis.results.neural", "table4", "scale=smoke", "device=cpu", f"outputs_dir={tmp_path}")
    assert done.returncode == 0 and "the record is made again from the run's last checkpoint" in done.stderr
    assert "iteration 0" not in done.stdout and json.loads(path.read_text())["best"] == record["best"]


@pytest.mark.slow  # a whole Nested(1) game: about a minute on 2 cores
def test_a_nested_game_with_the_network_is_legal_and_beats_sampled_games():
    """A Nested(1) game with a network that is uniform over the legal moves of the window:
    every move legal (the plain-Python rules replay it), and, keeping the best of a playout per
    move at every step, a score above the mean of such playouts alone (the uniform policy: 43)."""
    from nrpa.domains.morpion import decode_move
    from nrpa.domains.morpion_rules import replay
    from nrpa.neural.play import nested_games, sample_games

    domain = make_morpion("5D")
    network = _constant_network("basic", 9, [0.0, 0.0, 0.0, 0.0])  # uniform over the window's legal moves
    games = nested_games(network, "R1", domain, 1, seed=2)
    moves = games.sequences[0]
    assert replay("5D", [decode_move(domain, m) for m in moves]) == len(moves) == games.scores[0]
    sampled = sample_games(network, "R1", domain, 100, seed=2)
    assert games.scores[0] > sampled.scores.mean()


def _constant_network(name, channels, per_direction):
    """A network whose every weight is 0 and whose head's bias is ``per_direction``: the logit
    of a move is that of its direction, whatever the position."""
    network = make_network(name, channels)
    with torch.no_grad():
        for parameter in network.parameters():
            parameter.zero_()
        network.head.bias.copy_(torch.tensor(per_direction, dtype=torch.float32))
    return network


def test_a_network_bias_gives_each_move_its_lines_logit_over_the_temperature():
    from nrpa.neural.bias import network_betas

    domain = make_morpion("5D")
    codes, betas = network_betas(_constant_network("basic", 9, [1.0, 2.0, 3.0, 4.0]), "R1", domain,
                                 temperature=0.5)
    assert codes.size == 3600 * 5 and np.unique(codes).size == codes.size
    beta_of = dict(zip(codes.tolist(), betas.tolist()))
    first_moves = [encode_move(domain, list(m)) for m in load_record("5d_82_rosin")[:10]]
    for move in first_moves:
        direction = (move // 5) & 3
        assert beta_of[move] == (direction + 1) / 0.5


def test_neural_nrpa_with_a_zero_network_is_nrpa():
    from nrpa.neural.bias import network_bias
    from nrpa.search import SearchSettings, run_search

    domain = make_morpion("5D")
    bias = network_bias(_constant_network("resnet", 17, [0.0] * 4), "R2", domain)
    settings = dict(level=2, N=10, max_time=None, max_playouts=None, restart=False, seed=7)
    nrpa = run_search(domain, SearchSettings(algorithm="nrpa", **settings))
    neural = run_search(domain, SearchSettings(algorithm="gnrpa", **settings), bias)
    assert (neural.best_score, neural.best_moves, neural.trace.score, neural.playouts) == (
        nrpa.best_score, nrpa.best_moves, nrpa.trace.score, nrpa.playouts)
    assert nrpa.playouts == 100  # N^level: one call of the top level
    # and the bias is used: a network preferring one direction makes another search
    leaning = network_bias(_constant_network("resnet", 17, [0.0, 0.0, 0.0, 5.0]), "R2", domain)
    assert run_search(domain, SearchSettings(algorithm="gnrpa", **settings), leaning).best_moves != nrpa.best_moves


def test_the_board_symmetries_map_a_game_to_a_game_of_the_same_score():
    """The records of 5D and 5T under the 8 symmetries: 8 different games, each replayed by
    the plain-Python rules to the record's score."""
    from nrpa.domains.morpion import decode_move
    from nrpa.domains.morpion_rules import replay
    from nrpa.neural.symmetry import SYMMETRIES, augmented, map_move

    for variant, record in (("5D", "5d_82_rosin"), ("5T", "5t_178_rosin")):
        domain = make_morpion(variant)
        moves = [encode_move(domain, list(m)) for m in load_record(record)]
        images = {tuple(map_move(domain, move, symmetry) for move in moves) for symmetry in SYMMETRIES}
        assert len(images) == 8
        for image in images:
            assert replay(variant, [decode_move(domain, move) for move in image]) == len(moves)
    games = augmented(data.from_sequences([moves[:3]], [3.0], {"made_by": "tests"}), domain)
    assert len(games) == 8 and list(games.games[0]) == moves[:3] and games.provenance["made_by"] == "tests"


def test_a_cached_playout_draws_from_the_logits_of_its_start():
    from nrpa.domains.morpion import decode_move
    from nrpa.domains.morpion_rules import replay
    from nrpa.neural.planes import move_index
    from nrpa.neural.play import legal_move_ids, new_game, playout_with_logits

    domain = make_morpion("5D")
    logits = np.random.default_rng(0).normal(size=3600)
    moves, cut = playout_with_logits(domain, new_game(domain), logits, 1.0, 5)
    assert not cut and replay("5D", [decode_move(domain, m) for m in moves]) == len(moves) > 10
    assert list(playout_with_logits(domain, new_game(domain), logits, 1.0, 5)[0]) == list(moves)  # seeded
    favourite = legal_move_ids(domain, new_game(domain))[7]
    logits[move_index(favourite)] = 10.0  # exp(10 / 0.01) against exp(at most 4 / 0.01): always first
    assert all(playout_with_logits(domain, new_game(domain), logits, 0.01, seed)[0][0] == favourite
               for seed in range(20))


def test_neural_nmcs_level_0_keeps_the_best_of_its_playouts():
    from nrpa.neural.play import nmcs_game, sample_games

    domain = make_morpion("5D")
    torch.manual_seed(3)
    network = make_network("basic", 9)
    moves, score, _ = nmcs_game(network, "R1", domain, level=0, rollouts=6, temperature=0.5,
                                generator=torch.Generator().manual_seed(11))
    sampled = sample_games(network, "R1", domain, 6, temperature=0.5, seed=11)  # the same draws
    best = int(np.argmax(sampled.scores))
    assert (moves, score) == (sampled.sequences[best], sampled.scores[best]) and len(set(sampled.scores)) > 1


@pytest.mark.slow  # end to end, over 10 s
def test_neural_nmcs_1c_is_the_best_sequence_of_nmcs_1s_first_step():
    """The paper's NeuralNMCS(1)c: NMCS(1) "early stopped": every legal move of the start is
    tried with its playouts, and the best sequence found is the game (no move-by-move search)."""
    from nrpa.domains.morpion import decode_move
    from nrpa.domains.morpion_rules import replay
    from nrpa.neural.play import _best_playouts, child_state, legal_move_ids, new_game, nmcs_game

    domain = make_morpion("5D")
    torch.manual_seed(5)
    network = make_network("basic", 9)
    moves, score, _ = nmcs_game(network, "R1", domain, level=1, rollouts=2, temperature=0.5, early_stop=True,
                                generator=torch.Generator().manual_seed(8))
    assert replay("5D", [decode_move(domain, m) for m in moves]) == len(moves) == score
    start = new_game(domain)
    legal = legal_move_ids(domain, start)
    results, _ = _best_playouts(network, "R1", domain, [child_state(domain, start, m) for m in legal], 2, 0.5,
                                False, torch.Generator().manual_seed(8), torch.device("cpu"))  # the same draws
    best = int(np.argmax([result for result, _ in results]))
    assert (moves, score) == ([int(legal[best])] + results[best][1], results[best][0])
    assert len(legal) == 28 and len({result for result, _ in results}) > 1


def test_table_4s_experts_are_read_from_the_published_rows():
    from experiments.published import load_reference
    from experiments.neural import exit_rows
    from nrpa.neural.exit import Expert

    labels = [(expert.label, expert.temperature, expert.rollouts) for expert in exit_rows()]
    assert len(labels) == 11 and labels[5] == ("NeuralNMCS(1)c A", 0.2, 10)
    assert Expert.parse("NeuralNRPA(2) A", 0.2, 20) == Expert("nrpa", 2, 0.2, 20, best=True)
    assert Expert.parse("NeuralNMCS(1)c", 0.2, 1) == Expert("nmcs", 1, 0.2, 1, early_stop=True)
    # "A" is a label, "the best approaches among all tested parameters", one per type: no published row
    # trains otherwise, and each A row has the best published nn score of its type
    assert not any(expert.augment for expert in exit_rows())
    published = load_reference("morpion_table4_5d_exit.csv")
    published["type"] = published["approach"].str.replace(" A", "")
    published["type"] = published["type"].where(~published["type"].str.startswith("NeuralNRPA"), "NeuralNRPA")
    marked = published[published["approach"].str.endswith(" A")]
    assert list(marked["approach"]) == ["NeuralNMCS(0) A", "NeuralNMCS(1) A", "NeuralNMCS(1)c A", "NeuralNRPA(2) A"]
    assert list(marked["nn_best_score"]) == list(published.groupby("type", sort=False)["nn_best_score"].max())
    for label, message in (("NeuralMCTS(1)", "not a Table 4 expert"), ("NeuralNMCS(2)", "level=2 is not valid"),
                           ("NeuralNRPA(1)c", "only NeuralNMCS\\(1\\) has an early stopped"),
                           ("NeuralNMCS(0)c", "only NeuralNMCS\\(1\\) has an early stopped")):
        with pytest.raises(InputError, match=message):
            Expert.parse(label, 0.2, 1)


def test_an_expert_iteration_record_of_another_definition_is_refused_not_reused(tmp_path):
    from experiments.neural import _slug, exit_rows, exit_run

    expert = exit_rows()[5]  # NeuralNMCS(1)c A
    folder = tmp_path / "neural" / "smoke" / "exit"
    folder.mkdir(parents=True)
    old = {"search": "nmcs", "level": 1, "temperature": 0.2, "rollouts": 10, "cached": True, "augment": True}
    (folder / f"{_slug(expert)}.json").write_text(json.dumps({"expert": old, "settings": {}, "iterations": []}))
    with pytest.raises(InputError, match="another expert or other settings.*delete it"):
        exit_run(expert, 5, "smoke", tmp_path, torch.device("cpu"))


@pytest.mark.slow  # two expert-iteration runs, ~15 s
def test_an_expert_iteration_run_resumed_from_its_checkpoint_equals_an_unbroken_one(tmp_path):
    """Two iterations of NeuralNRPA(1) A in one go, and one, a kill, then one more: the same
    games, losses and network scores; the best game replays to its score."""
    from nrpa.domains.morpion import decode_move
    from nrpa.domains.morpion_rules import replay
    from nrpa.neural.exit import ExitSettings, Expert, expert_iteration

    expert = Expert("nrpa", 1, 0.5, 10, augment=True)
    settings = ExitSettings(minutes=1000, expert_games=1, network_games=3, epochs=2, network="basic",
                            representation="R1", seed=4)
    unbroken = expert_iteration(expert, settings, tmp_path / "unbroken.pt", stop_after=2, progress=False)
    expert_iteration(expert, settings, tmp_path / "killed.pt", stop_after=1, progress=False)
    resumed = expert_iteration(expert, settings, tmp_path / "killed.pt", stop_after=1, progress=False)
    keys = ("expert_mean", "expert_best", "positions", "train_loss", "nn_mean", "nn_best")
    assert [[entry[key] for key in keys] for entry in resumed["iterations"]] == [
        [entry[key] for key in keys] for entry in unbroken["iterations"]]
    assert len(unbroken["iterations"]) == 2 and unbroken["final_nn_scores"] == resumed["final_nn_scores"]
    assert unbroken["expert"]["augment"] and unbroken["iterations"][0]["positions"] > 8 * 20  # a game x 8
    best = unbroken["best"]
    assert replay("5D", [decode_move(make_morpion("5D"), move) for move in best["moves"]]) == best["score"]
    with pytest.raises(InputError, match="another expert or other settings"):
        expert_iteration(Expert("nrpa", 1, 0.2, 10), settings, tmp_path / "killed.pt", progress=False)
