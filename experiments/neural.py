"""The Morpion paper's neural experiments (Doux, Negrevergne, Cazenave): the pipeline that makes what their
tables read (games, training, play, Expert Iteration). Its steps are run from the command line
by analysis/results/neural.py (``python -m analysis.results.neural table1 scale=quick``), which then draws
the tables and figures (analysis/results/neural_report.py): this module imports nothing of analysis/.

Settings per scale: conf/neural_morpion.yaml. Every step keeps what it made under
``outputs/neural/`` and finds it there next time: the NRPA runs are ordinary runs of the
result store (run files with their config, seed, code version and certificate), and the game
set lists the run files it was made from.
"""

from __future__ import annotations

import sys
import time
from dataclasses import asdict
from pathlib import Path

from omegaconf import OmegaConf

from experiments.estimate import duration
from experiments.published import load_reference
from experiments.runs import Job
from experiments.store import PROJECT_ROOT, RunStore
from experiments.workers import run_job
from nrpa.domains.morpion import encode_move, make_morpion
from nrpa.domains.registry import MorpionOptions
from nrpa.errors import InputError, did_you_mean
from nrpa.neural import data
from nrpa.search import SearchSettings

CONFIG = PROJECT_ROOT / "conf" / "neural_morpion.yaml"
DATA_SEED = 18  # the base seed of the data runs (each run's own seed derives from it)


def scale_settings(scale: str) -> dict:
    scales = OmegaConf.to_container(OmegaConf.load(CONFIG))["scales"]
    if scale not in scales:
        raise InputError(f"scale={scale!r} is not valid: {did_you_mean(scale, scales)}")
    return scales[scale]


def data_job(settings: dict) -> Job:
    return Job(MorpionOptions(variant="5D"),
               SearchSettings(level=settings["level"], N=100, alpha=1.0, restart=False, max_time=None,
                              seed=DATA_SEED))


def data_runs(scale: str, outputs: Path, n_jobs: int | None = None) -> tuple[list, list, list]:
    """Every NRPA game of ``scale``'s data runs, made first where the store lacks them: the
    games (kernel move ids), their scores and their run ids."""
    settings = scale_settings(scale)["data"]
    store = RunStore(outputs)
    outcome = run_job(data_job(settings), settings["runs"], store, n_jobs=n_jobs,
                      label=f"NRPA({settings['level']}) games")
    domain = make_morpion("5D")
    sequences, scores, run_ids = [], [], []
    for path in outcome.paths:
        record = store.load(path)
        sequences.append([encode_move(domain, move) for move in record["certificate"]["moves"]])
        scores.append(record["result"]["best_score"])
        run_ids.append(record["run_id"])
    return sequences, scores, run_ids


def make_games(scale: str, outputs: Path, n_jobs: int | None = None) -> Path:
    """The game set of ``scale`` (outputs/neural/games_<scale>.npz): the data runs' games whose
    score passes the filter."""
    settings = scale_settings(scale)["data"]
    low, high = settings["keep"]
    sequences, scores, run_ids = data_runs(scale, outputs, n_jobs)
    kept = [i for i, score in enumerate(scores) if low <= score <= high]
    provenance = {"variant": "5D", "job": data_job(settings).semantic_config(), "runs": settings["runs"],
                  "keep": [low, high], "kept": len(kept), "run_ids": [run_ids[i] for i in kept], "scale": scale}
    target = outputs / "neural" / f"games_{scale}.npz"
    data.save(data.from_sequences([sequences[i] for i in kept], [scores[i] for i in kept], provenance), target)
    return target


NETWORKS = {"BasicCNN R1": ("basic", "R1"), "Resnet R1": ("resnet", "R1"), "Resnet R2": ("resnet", "R2")}


def games_of(scale: str, outputs: Path) -> "data.GameSet":
    path = outputs / "neural" / f"games_{scale}.npz"
    return data.load(path if path.is_file() else make_games(scale, outputs))


def train_networks(scale: str, outputs: Path, device) -> dict[str, dict]:
    """The three networks of ``scale``, trained (or resumed, or found done) under
    outputs/neural/<scale>/; their checkpoints' contents by label."""
    from nrpa.neural.training import TrainSettings, train

    settings = scale_settings(scale)["train"]
    games = games_of(scale, outputs)
    trained = {}
    for label, (network, representation) in NETWORKS.items():
        print(f"training {label} on {len(games)} games ({scale} scale)", file=sys.stderr)
        trained[label] = train(games, TrainSettings(network=network, representation=representation, **settings),
                               outputs / "neural" / scale / f"{network}_{representation}.pt", device=device)
    return trained


# What each step keeps for the claims report (analysis/claims/sources.py, NeuralSource), beside its
# tables: outputs/neural/<scale>/<step>_results.json, with
#   step, scale, code_version;
#   settings   what the claims compare with the paper's: epochs (of the networks' training),
#              imitation_games (the game set's games), keep (its score filter); for table4 the
#              Expert Iteration runs' minutes
#   columns    per column (a network, an approach, a Table 4 row): table1, whether the network's
#              most probable legal move is the one played, a "0"/"1" per held-out position;
#              table2 and table3, the score of each game; table4, the network's best score over
#              the run (one value: one run per row)
#   held_out   table1 only: the held-out games (indices into the game set) and the positions of
#              each, in the order of the columns' characters (every network is measured on the
#              same positions: analysis/claims/sources.py pairs them game by game)
RESULTS = "{step}_results.json"
NESTED = "Nested(1) + Resnet R2"  # Table 3's approach (the published row's label)


def results_path(outputs: Path, scale: str, step: str) -> Path:
    return outputs / "neural" / scale / RESULTS.format(step=step)


def step_columns(step: str) -> list[str]:
    """The columns a step's results hold (known before it runs: the claims name them)."""
    if step in ("table1", "table2"):
        return list(NETWORKS)
    if step == "table3":
        return [NESTED, "Resnet R2"]
    return [exit_label(row) for row in load_reference("morpion_table4_5d_exit.csv").itertuples()]


def exit_label(row) -> str:
    """A Table 4 row's column: its approach where no other row has it (the A rows), else the
    approach with its temperature and rollouts ("NeuralNMCS(0) T 0.2 r 100")."""
    approaches = list(load_reference("morpion_table4_5d_exit.csv")["approach"])
    if approaches.count(row.approach) == 1:
        return row.approach
    return f"{row.approach} T {row.temperature:g} r {row.rollouts}"


def write_results(outputs: Path, scale: str, step: str, settings: dict, columns: dict, **more) -> Path:
    from experiments.store import code_version, write_json

    path = results_path(outputs, scale, step)
    write_json(path, {"step": step, "scale": scale, "code_version": code_version(), "settings": settings,
                      "columns": columns, **more})
    return path


def trained_settings(trained: dict[str, dict]) -> dict:
    """The settings of the networks ``trained`` (by label) that the claims check: their epochs,
    the games of the set they learnt from and its score filter."""
    state = next(iter(trained.values()))
    return {"epochs": state["epoch"], "imitation_games": state["data"]["games"],
            "keep": state["data"]["provenance"]["keep"]}


def held_out_results(scale: str, outputs: Path, trained: dict[str, dict], device) -> Path:
    """Table 1's results file: each network's correctness on every held-out position."""
    import numpy as np

    from nrpa.neural.training import held_out_correct, load_network

    games = games_of(scale, outputs)
    columns, positions = {}, None
    for label, (network, representation) in NETWORKS.items():
        model, settings = load_network(outputs / "neural" / scale / f"{network}_{representation}.pt", device)
        game_of, correct = held_out_correct(model, games, settings, device)
        if positions is not None and not np.array_equal(game_of, positions):
            raise RuntimeError(f"{label} was measured on other held-out positions than {next(iter(columns))}")
        positions = game_of
        columns[label] = "".join("1" if hit else "0" for hit in correct)
    held, counts = np.unique(positions, return_counts=True)  # the positions come game by game, in order
    return write_results(outputs, scale, "table1", trained_settings(trained), columns,
                         held_out={"games": held.tolist(), "positions": counts.tolist()})


def sampled_games(scale: str, outputs: Path, device) -> tuple[dict, dict, Path]:
    """Table 2's neural rows: ``scale``'s count of games whose every move is sampled from each
    network (temperature 1). Returns, by label, (scores, games cut short, seconds), the
    networks' checkpoints (train_networks) and the results file for the claims."""
    from nrpa.neural.play import sample_games
    from nrpa.neural.training import load_network

    trained = train_networks(scale, outputs, device)
    count = scale_settings(scale)["play"]["games"]
    domain = make_morpion("5D")
    played = {}
    for label, (network, representation) in NETWORKS.items():
        model, _ = load_network(outputs / "neural" / scale / f"{network}_{representation}.pt", device)
        started = time.perf_counter()
        games = sample_games(model, representation, domain, count, seed=DATA_SEED, device=device)
        played[label] = (list(games.scores), games.cut_short, time.perf_counter() - started)
    results = write_results(outputs, scale, "table2", trained_settings(trained),
                            {label: [float(s) for s in scores] for label, (scores, _, _) in played.items()})
    return played, trained, results


def nested_beside_network(scale: str, outputs: Path, device) -> tuple[dict, Path]:
    """Table 3's games: Nested(1) with the ResNet R2 network (NMCS level 1 whose playouts
    sample from it) beside the network alone. Returns, by approach, (scores, seconds per
    game), and the results file for the claims."""
    from nrpa.neural.play import nested_games, sample_games
    from nrpa.neural.training import load_network

    trained = train_networks(scale, outputs, device)
    play = scale_settings(scale)["play"]
    model, _ = load_network(outputs / "neural" / scale / "resnet_R2.pt", device)
    domain = make_morpion("5D")
    played = {}
    for label, player, count in ((NESTED, nested_games, play["nested_games"]),
                                 ("Resnet R2", sample_games, play["games"])):
        print(f"{label}: {count} games", file=sys.stderr)
        started = time.perf_counter()
        games = player(model, "R2", domain, count, seed=DATA_SEED, device=device)
        played[label] = (list(games.scores), (time.perf_counter() - started) / count)
    results = write_results(outputs, scale, "table3", trained_settings(trained),
                            {label: [float(s) for s in scores] for label, (scores, _) in played.items()})
    return played, results


MORPION_PLAYOUTS_PER_SECOND = 46_500  # NRPA on 5D, `make bench` on a 2-vCPU VM (docs/notes/speed.md)
TRAINING_EXAMPLES_PER_SECOND = 1_100  # the three networks on 2 CPU threads (README, neural section)


TRAINING_THREADS = 2  # training and Expert Iteration run on this VM's 2 CPU threads: a second of them is 2 CPU-seconds


def plan_seconds(scale: str, step: str) -> dict[str, float]:
    """plan's estimates as CPU-seconds on one core, by part: the NRPA games and the training the
    imitation steps (tables 1-3) share, or the Expert Iteration runs of table4 (their wall-clock
    on TRAINING_THREADS threads). The play of tables 2 and 3 (sampling games from the networks,
    minutes at quick scale) is not priced."""
    settings = scale_settings(scale)
    if step == "table4":
        return {"Expert Iteration (table4)": len(exit_rows()) * 60 * settings["exit"]["minutes"] * TRAINING_THREADS}
    data_, train_ = settings["data"], settings["train"]
    positions = data_["runs"] * 30  # about 30 kept positions per run at quick scale (measured: 29,258 / 1000)
    return {"NRPA games (tables 1-3)": data_["runs"] * 100 ** data_["level"] / MORPION_PLAYOUTS_PER_SECOND,
            "training (tables 1-3)": 3 * train_["epochs"] * positions / TRAINING_EXAMPLES_PER_SECOND * TRAINING_THREADS}


def plan(scale: str, step: str) -> str:
    """What a step will do at ``scale`` and about how long it takes on this 2-core VM's CPU,
    printed before any work (the store's runs and the finished checkpoints are not redone)."""
    settings = scale_settings(scale)
    seconds = plan_seconds(scale, step)
    if step == "table4":
        exit_, runs = settings["exit"], len(exit_rows())
        return (f"table4 at {scale} scale: {runs} Expert Iteration runs (one per published row), each stopped at "
                f"the first iteration past {exit_['minutes']:g} minutes of wall-clock (the first iteration "
                f"always runs): about {duration(runs * 60 * exit_['minutes'])} in all. The runs finished under "
                "outputs/neural/ are not made again; an interrupted one goes on from its last iteration.")
    data_, train_ = settings["data"], settings["train"]
    data_seconds = seconds["NRPA games (tables 1-3)"]
    positions = data_["runs"] * 30
    train_seconds = seconds["training (tables 1-3)"] / TRAINING_THREADS
    text = (f"{step} at {scale} scale: {data_['runs']} NRPA({data_['level']}) games on 5D, kept if scoring "
            f"{data_['keep'][0]} to {data_['keep'][1]} (about {duration(data_seconds)} of CPU); 3 networks x "
            f"{train_['epochs']} epochs (about {duration(train_seconds)} on 2 CPU threads if about "
            f"{positions:,} positions are kept)")
    if step == "table2":
        text += f"; {settings['play']['games']} sampled games per network"
    if step == "table3":
        text += (f"; {settings['play']['nested_games']} Nested(1) + ResNet R2 games (7 to 14 s each on 2 CPU "
                 f"threads at quick scale) and {settings['play']['games']} sampled ones")
    return text + ". What the store and outputs/neural/ hold already is not made again."


def exit_rows() -> list:
    """The experts of the published Table 4's rows, in its order."""
    from nrpa.neural.exit import Expert

    published = load_reference("morpion_table4_5d_exit.csv")
    return [Expert.parse(row.approach, row.temperature, row.rollouts) for row in published.itertuples()]


def _slug(expert) -> str:
    """A row's file name: NeuralNMCS(1)c A at 0.2 with 10 rollouts -> NeuralNMCS1c_A_t0.2_r10."""
    name = expert.label.replace("(", "").replace(")", "").replace(" ", "_")
    return f"{name}_t{expert.temperature:g}_r{expert.rollouts}"


def exit_run(expert, row: int, scale: str, outputs: Path, device) -> dict:
    """The Expert Iteration run of one Table 4 row: found done (its record under
    outputs/neural/<scale>/exit/), resumed from its checkpoint, or run. Its best game is
    replayed with the plain-Python rules before the record is written (the certificate). A
    damaged record is set aside and made again from the checkpoint (no iteration rerun)."""
    from experiments.run_file import DamagedFile, read_json
    from experiments.store import code_version, set_aside, write_json
    from nrpa.domains.morpion import decode_move
    from nrpa.domains.morpion_rules import replay
    from nrpa.neural.exit import ExitSettings, expert_iteration

    folder = outputs / "neural" / scale / "exit"
    done = folder / f"{_slug(expert)}.json"
    settings = ExitSettings(**scale_settings(scale)["exit"], seed=DATA_SEED * 100 + row)
    if done.is_file():
        try:
            record = read_json(done, "Expert Iteration record")
        except DamagedFile as damage:  # the run's checkpoint holds its record: made again from there
            set_aside(damage, "the record is made again from the run's last checkpoint")
        else:
            if (record.get("expert"), record.get("settings")) != (asdict(expert), asdict(settings)):
                raise InputError(f"{done} was made with another expert or other settings (an earlier definition of "
                                 f"the row): delete it and {done.with_suffix('.pt')} to run the row anew")
            return record
    print(f"Expert Iteration, {expert.label} (temperature {expert.temperature:g}, rollouts {expert.rollouts}): "
          f"{settings.minutes:g} min", file=sys.stderr)
    record = expert_iteration(expert, settings, folder / f"{_slug(expert)}.pt", device=device)
    best = record["best"]
    replayed = replay("5D", [decode_move(make_morpion("5D"), move) for move in best["moves"]])
    if replayed != best["score"]:
        raise RuntimeError(f"{expert.label}: the best game replays to {replayed}, not {best['score']}")
    record.update(scale=scale, code_version=code_version(), certificate={"variant": "5D", "moves": best["moves"],
                                                                         "replayed_score": replayed})
    write_json(done, record)
    return record


def exit_records(scale: str, outputs: Path, device) -> tuple[list[dict], Path]:
    """Table 4's runs: an Expert Iteration run per published row (exit_run), and the results
    file for the claims (each row's best network score over its run)."""
    records = [exit_run(expert, row, scale, outputs, device) for row, expert in enumerate(exit_rows())]
    rows = load_reference("morpion_table4_5d_exit.csv").itertuples()
    results = write_results(outputs, scale, "table4", {"minutes": min(r["settings"]["minutes"] for r in records)},
                            {exit_label(row): [max(entry["nn_best"] for entry in record["iterations"])]
                             for row, record in zip(rows, records)})
    return records, results
