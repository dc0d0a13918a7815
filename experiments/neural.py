"""The Morpion paper's neural experiments (issue 18): their steps from the command line.

    python -m experiments.neural games scale=quick     # the imitation data set (NRPA games)
    python -m experiments.neural table1 scale=quick    # Figure 2; train the 3 networks: Table 1, Figures 3, 4
    python -m experiments.neural table2 scale=quick    # games sampled from them: Table 2's rows, Figure 5
    python -m experiments.neural table3 scale=quick    # Nested(1) + ResNet R2 beside ResNet R2 alone: Table 3
    python -m experiments.neural table4 scale=quick    # Expert Iteration, a run per published row: Table 4, Figure 6

Settings per scale: conf/neural_morpion.yaml. Every step keeps what it made under
``outputs/neural/`` and finds it there next time: the NRPA runs are ordinary runs of the
result store (run files with their config, seed, code version and certificate), and the game
set lists the run files it was made from.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import asdict
from pathlib import Path

from omegaconf import OmegaConf

from experiments.config import print_outputs
from experiments.estimate import duration
from experiments.workers import run_job
from experiments.runs import Job
from experiments.store import PROJECT_ROOT, RunStore
from nrpa.domains.morpion import encode_move, make_morpion
from nrpa.domains.registry import MorpionOptions
from nrpa.errors import InputError
from nrpa.neural import data
from nrpa.search import SearchSettings

CONFIG = PROJECT_ROOT / "conf" / "neural_morpion.yaml"
DATA_SEED = 18  # the base seed of the data runs (each run's own seed derives from it)


def scale_settings(scale: str) -> dict:
    scales = OmegaConf.to_container(OmegaConf.load(CONFIG))["scales"]
    if scale not in scales:
        raise InputError(f"scale={scale!r} is not valid: choose one of {', '.join(scales)}")
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


def figure2(scale: str, outputs: Path) -> list[Path]:
    """Figure 2, the score filter's trade-off between quality and diversity. The paper's
    figure ("NRPA data diversity", section 3.3) sets two filters side by side: "10 000 games
    (800.000 game states) generated with NRPA that scored 80 or above (Figure 2 first plot), and
    10 000 games (around 800.000 game states) ... that scored between 70 and 82 (Figure 2
    second plot)", the first lacking diversity; what its plots draw is not said. Our reading:
    for each lower bound of the filter (the upper one the scale's), the games kept, their mean
    score (quality) and the distinct positions among them (diversity: a position is the set of
    lines drawn, moves commuting, counted by a Zobrist hash of that set), from every game of
    the scale's data runs; the paper's two lower bounds, 70 and 80, are marked."""
    import numpy as np
    import pandas as pd

    from analysis.plots import new_figure, save_figure

    sequences, scores, _ = data_runs(scale, outputs)
    high = scale_settings(scale)["data"]["keep"][1]
    keys = np.random.default_rng(0).integers(1, 2**63, size=max(max(s, default=0) for s in sequences) + 1,
                                              dtype=np.uint64)
    positions = [set(np.bitwise_xor.accumulate(keys[np.asarray(s, dtype=np.int64)]).tolist()) for s in sequences]
    scores = np.asarray(scores, dtype=float)
    rows = []
    for low in np.unique(scores[scores <= high]):
        kept = np.flatnonzero((scores >= low) & (scores <= high))
        rows.append({"keep_from": low, "keep_to": high, "games": kept.size, "mean_score": scores[kept].mean(),
                     "positions": int(sum(len(positions[i]) for i in kept)),
                     "distinct_positions": len(set().union(*(positions[i] for i in kept)))})
    table = pd.DataFrame(rows)
    stem = outputs / "tables" / f"morpion_fig2_{scale}"
    stem.parent.mkdir(parents=True, exist_ok=True)
    table.to_csv(stem.with_suffix(".csv"), index=False)
    figure, ax = new_figure()
    ax.plot(table["keep_from"], table["distinct_positions"], marker=".", color="C0")
    ax.set_xlabel(f"lowest score kept (games scoring up to {high:g})")
    ax.set_ylabel("distinct positions kept (diversity)", color="C0")
    for bound in PAPER_FILTERS:  # the lower bounds of the paper's two plots (80 and up, 70 to 82)
        ax.axvline(bound, color="0.6", linestyle=":", linewidth=1)
    quality = ax.twinx()
    quality.plot(table["keep_from"], table["mean_score"], marker=".", color="C1")
    quality.set_ylabel("mean score of the games kept (quality)", color="C1")
    ax.set_title(f"Morpion 5D, Figure 2: the score filter, {len(scores)} NRPA games ({scale} scale)",
                 fontsize="medium")
    return [stem.with_suffix(".csv"), *save_figure(figure, outputs / "figures" / f"morpion_fig2_{scale}")]


PAPER_FILTERS = (70, 80)  # Figure 2's two game sets: scoring 70 to 82, and 80 or above


def published_in_ci(table, column: str):
    """Whether each row's published value (``column``) lies in our 95% CI."""
    return (table[column] >= table["ci_low"]) & (table[column] <= table["ci_high"])


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


def table1(scale: str, outputs: Path, device) -> list[Path]:
    """Figure 2 (the data's score filter), Table 1 (the networks' accuracy on held-out games),
    Figures 3 and 4 (loss and accuracy per epoch)."""
    import pandas as pd

    from analysis.plots import new_figure, save_figure
    from analysis.tables import load_reference

    paths = figure2(scale, outputs)
    trained = train_networks(scale, outputs, device)
    rows = []
    for label, state in trained.items():
        last = state["curves"][-1]
        rows.append({"network": label, "epochs": state["epoch"], "train_positions": state["data"]["train_positions"],
                     "held_out_positions": state["data"]["held_out_positions"],
                     "held_out_accuracy": last["held_out_accuracy"], "held_out_loss": last["held_out_loss"],
                     "train_accuracy": last["train_accuracy"], "train_loss": last["train_loss"],
                     "training_minutes": sum(epoch["seconds"] for epoch in state["curves"]) / 60,
                     "device": state["device"]})
    table = pd.DataFrame(rows)
    published = load_reference("morpion_table1_5d.csv").set_index("network")
    for epoch in (1, 40, 80):  # the paper's accuracy at these epochs, in percent there, a share here
        table[f"published accuracy epoch {epoch}"] = [published[f"epoch_{epoch}"].get(label, float("nan")) / 100
                                                      for label in table["network"]]
    tables = outputs / "tables"
    tables.mkdir(parents=True, exist_ok=True)
    stem = tables / f"morpion_table1_{scale}"
    table.to_csv(stem.with_suffix(".csv"), index=False)
    games = next(iter(trained.values()))["data"]
    caption = (f"**Morpion 5D, Table 1: the networks imitating NRPA** ({scale} scale)\n\n"
               f"Accuracy: the share of held-out positions (a tenth of the {games['games']} games, never trained on) "
               "where the network's most probable legal move is the one NRPA played; loss: the cross-entropy there. "
               f"Trained {table['epochs'].iloc[0]} epochs on {table['train_positions'].iloc[0]} positions "
               f"(conf/neural_morpion.yaml), device {table['device'].iloc[0]}. Published: the paper's Table 1, "
               "accuracy after 1, 40 and 80 epochs (\"Accuracy for each tested configuration\"; its test set; 694,716 "
               "positions of 9,141 NRPA games scoring 70 to 82), as a share.\n")
    stem.with_suffix(".md").write_text(caption + "\n" + table.to_markdown(index=False, floatfmt=".4g") + "\n")
    paths += [stem.with_suffix(".csv"), stem.with_suffix(".md")]
    for figure_name, key, ylabel in (("fig3", "loss", "cross-entropy"), ("fig4", "accuracy", "accuracy")):
        figure, ax = new_figure()
        for label, state in trained.items():
            epochs = [epoch["epoch"] for epoch in state["curves"]]
            line, = ax.plot(epochs, [epoch[f"train_{key}"] for epoch in state["curves"]], label=f"{label}, training")
            ax.plot(epochs, [epoch[f"held_out_{key}"] for epoch in state["curves"]], linestyle="--",
                    color=line.get_color(), label=f"{label}, held out")
        ax.set_xlabel("epoch")
        ax.set_ylabel(ylabel)
        ax.set_title(f"Morpion 5D, Figure {figure_name[-1]}: {key} per epoch ({scale} scale)", fontsize="medium")
        ax.legend(fontsize="small")
        paths += save_figure(figure, outputs / "figures" / f"morpion_{figure_name}_{scale}")
    return paths


def table2(scale: str, outputs: Path, device) -> list[Path]:
    """Table 2's neural rows (games whose every move is sampled from a network, temperature 1)
    beside the published ones, and Figure 5 (the distribution of their scores)."""
    import numpy as np

    from analysis.plots import new_figure, save_figure
    from analysis.stats import final_statistics
    from analysis.tables import load_reference
    from nrpa.neural.play import sample_games
    from nrpa.neural.torch_setup import describe
    from nrpa.neural.training import load_network

    trained = train_networks(scale, outputs, device)
    count = scale_settings(scale)["play"]["games"]
    domain = make_morpion("5D")
    scores, cut_short, seconds = {}, {}, {}
    for label, (network, representation) in NETWORKS.items():
        model, _ = load_network(outputs / "neural" / scale / f"{network}_{representation}.pt", device)
        started = time.perf_counter()
        games = sample_games(model, representation, domain, count, seed=DATA_SEED, device=device)
        seconds[label] = time.perf_counter() - started
        scores[label], cut_short[label] = list(games.scores), games.cut_short
    table = final_statistics(scores).rename(columns={"variant": "network", "runs": "games"})
    published = load_reference("morpion_table2_5d.csv").set_index("policy")
    for column in ("mean", "max", "sem"):
        table[f"published {column}"] = [published[column].get(label, np.nan) for label in table["network"]]
    table["published_mean_in_ci"] = published_in_ci(table, "published mean")
    table["games_cut_short"] = [cut_short[label] for label in table["network"]]
    table["ms_per_game"] = [1000 * seconds[label] / count for label in table["network"]]
    stem = outputs / "tables" / f"morpion_table2_neural_{scale}"
    stem.parent.mkdir(parents=True, exist_ok=True)
    table.to_csv(stem.with_suffix(".csv"), index=False)
    epochs = next(iter(trained.values()))["epoch"]
    caption = (f"**Morpion 5D, Table 2 (neural rows): games played by the imitation networks** ({scale} scale)\n\n"
               f"{count} games per network, every move sampled from the network's softmax over the legal moves "
               f"(temperature 1; seed {DATA_SEED}); mean with its 95% Student-t CI, standard error (sem), max; the "
               f"published mean, max and sem beside. The networks: Table 1's ({epochs} epochs on the {scale} game set, "
               f"conf/neural_morpion.yaml), device {describe(device)}. games_cut_short: games that ended with legal "
               "moves left, all starting outside the 30 x 30 window. The NRPA rows: `make morpion-table2`'s "
               f"morpion_table2_{scale}.md.\n")
    stem.with_suffix(".md").write_text(caption + "\n" + table.to_markdown(index=False, floatfmt=".4g") + "\n")
    figure, ax = new_figure()
    bins = np.arange(min(min(v) for v in scores.values()) - 0.5, max(max(v) for v in scores.values()) + 1.5)
    for label, values in scores.items():
        ax.hist(values, bins=bins, histtype="step", linewidth=1.5, label=f"{label} (mean {np.mean(values):.1f})")
    ax.set_xlabel("score (moves)")
    ax.set_ylabel("games")
    ax.set_title(f"Morpion 5D, Figure 5: scores of {count} games per network ({scale} scale)", fontsize="medium")
    ax.legend(fontsize="small")
    return [stem.with_suffix(".csv"), stem.with_suffix(".md"),
            *save_figure(figure, outputs / "figures" / f"morpion_fig5_{scale}")]


MORPION_PLAYOUTS_PER_SECOND = 46_500  # NRPA on 5D, `make bench` on this VM (README, Speed)
TRAINING_EXAMPLES_PER_SECOND = 1_100  # the three networks on 2 CPU threads (README, neural section)


def plan(scale: str, step: str) -> str:
    """What a step will do at ``scale`` and about how long it takes on this 2-core VM's CPU,
    printed before any work (the store's runs and the finished checkpoints are not redone)."""
    settings = scale_settings(scale)
    if step == "table4":
        exit_, runs = settings["exit"], len(exit_rows())
        return (f"table4 at {scale} scale: {runs} Expert Iteration runs (one per published row), each stopped at "
                f"the first iteration past {exit_['minutes']:g} minutes of wall-clock (the first iteration "
                f"always runs): about {duration(runs * 60 * exit_['minutes'])} in all. The runs finished under "
                "outputs/neural/ are not made again; an interrupted one goes on from its last iteration.")
    data_, train_ = settings["data"], settings["train"]
    data_seconds = data_["runs"] * 100 ** data_["level"] / MORPION_PLAYOUTS_PER_SECOND
    positions = data_["runs"] * 30  # about 30 kept positions per run at quick scale (measured: 29,258 / 1000)
    train_seconds = 3 * train_["epochs"] * positions / TRAINING_EXAMPLES_PER_SECOND
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


def table3(scale: str, outputs: Path, device) -> list[Path]:
    """Table 3: Nested(1) with the ResNet R2 network (NMCS level 1 whose playouts sample from
    it) beside the network alone, score and time per game, the published rows beside."""
    import numpy as np

    from analysis.stats import final_statistics
    from analysis.tables import load_reference
    from nrpa.neural.play import nested_games, sample_games
    from nrpa.neural.torch_setup import describe
    from nrpa.neural.training import load_network

    train_networks(scale, outputs, device)
    play = scale_settings(scale)["play"]
    model, _ = load_network(outputs / "neural" / scale / "resnet_R2.pt", device)
    domain = make_morpion("5D")
    rows = {}
    for label, player, count in (("Nested(1) + Resnet R2", nested_games, play["nested_games"]),
                                 ("Resnet R2", sample_games, play["games"])):
        print(f"{label}: {count} games", file=sys.stderr)
        started = time.perf_counter()
        games = player(model, "R2", domain, count, seed=DATA_SEED, device=device)
        rows[label] = (list(games.scores), (time.perf_counter() - started) / count)
    table = final_statistics({label: scores for label, (scores, _) in rows.items()}).rename(
        columns={"variant": "approach", "runs": "games"})
    table["seconds_per_game"] = [rows[label][1] for label in table["approach"]]
    published = load_reference("morpion_table3_5d.csv").set_index("approach")
    for column in ("mean", "max", "avg_game_time"):
        table[f"published {column}"] = [published[column].get(label, np.nan) for label in table["approach"]]
    table["published_mean_in_ci"] = published_in_ci(table, "published mean")
    stem = outputs / "tables" / f"morpion_table3_{scale}"
    stem.parent.mkdir(parents=True, exist_ok=True)
    table.to_csv(stem.with_suffix(".csv"), index=False)
    caption = (f"**Morpion 5D, Table 3: a nested search with the network** ({scale} scale)\n\n"
               "Nested(1) + Resnet R2: at each move every legal move is tried and followed by a game sampled from "
               "the network; the best sequence found so far is followed (NMCS level 1). Resnet R2: games sampled "
               f"from the network alone. Mean with its 95% Student-t CI, max, seconds per game on {describe(device)}; "
               "the published mean, max and time per game (min:s, the paper's hardware) beside, and whether the "
               f"published mean lies in our CI. The network: Table 1's ({scale} game set). The published NRPA(3) "
               "row: `make morpion-table2`'s NRPA(3) row.\n")
    stem.with_suffix(".md").write_text(caption + "\n" + table.to_markdown(index=False, floatfmt=".4g") + "\n")
    return [stem.with_suffix(".csv"), stem.with_suffix(".md")]


def exit_rows() -> list:
    """The experts of the published Table 4's rows, in its order."""
    from analysis.tables import load_reference
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
    from experiments.store import DamagedFile, code_version, read_json, set_aside, write_json
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


def table4(scale: str, outputs: Path, device) -> list[Path]:
    """Table 4: an Expert Iteration run per published row, the network's mean (95% CI) and
    best and the expert's best beside the published values; Figure 6, the best score found
    over time."""
    import pandas as pd

    from analysis.plots import new_figure, save_figure
    from analysis.stats import t_interval
    from analysis.tables import load_reference

    published = load_reference("morpion_table4_5d_exit.csv")
    records = [exit_run(expert, row, scale, outputs, device) for row, expert in enumerate(exit_rows())]
    rows = []
    for record, reference in zip(records, published.itertuples()):
        mean, low, high = t_interval(record["final_nn_scores"])
        iterations = record["iterations"]
        rows.append({"approach": reference.approach, "temperature": reference.temperature,
                     "rollouts": reference.rollouts, "iterations": len(iterations),
                     "minutes": record["seconds"] / 60, "nn_mean_score": mean, "ci_low": low, "ci_high": high,
                     "nn_best_score": max(entry["nn_best"] for entry in iterations),
                     "expert_best_score": max(entry["expert_best"] for entry in iterations),
                     "best_found_minutes": record["best"]["seconds"] / 60,
                     "published nn_mean_score": reference.nn_mean_score,
                     "published nn_best_score": reference.nn_best_score,
                     "published best_score_in_hours": reference.best_score_in_hours,
                     "device": record["device"]})
    table = pd.DataFrame(rows)
    table.insert(table.columns.get_loc("device"), "published_mean_in_ci",
                 published_in_ci(table, "published nn_mean_score"))
    stem = outputs / "tables" / f"morpion_table4_{scale}"
    stem.parent.mkdir(parents=True, exist_ok=True)
    table.to_csv(stem.with_suffix(".csv"), index=False)
    exit_ = scale_settings(scale)["exit"]
    caption = (f"**Morpion 5D, Table 4: Expert Iteration** ({scale} scale)\n\n"
               f"One run per published row, from an untrained ResNet R2, each stopped at the first iteration past "
               f"{exit_['minutes']:g} minutes (the paper: 180 hours); an iteration: {exit_['expert_games']} games of "
               f"the expert, {exit_['epochs']} epochs of training on its moves (Adam, learning rate 5e-4), "
               f"{exit_['network_games']} games of the network alone at the row's temperature. nn_mean_score: the "
               "mean of the last iteration's network games, with its 95% Student-t CI; nn_best_score and "
               "expert_best_score: the best over the run; best_found_minutes: when the run's best game was found; "
               "published_mean_in_ci: whether the published nn mean lies in our CI. "
               "As the paper defines them (nrpa/neural/exit.py): \"c\", NMCS stopped after its first step, the best "
               "sequence found being the game; \"A\", the paper's best row of each expert type (a label, not a "
               "setting). Our reading: rollouts are network playouts per evaluation for NeuralNMCS and N for "
               "NeuralNRPA. The published columns beside; published best_score_in_hours: when, in hours, the "
               "published run (all ran 180 hours) reached its best score, to set beside best_found_minutes.\n")
    stem.with_suffix(".md").write_text(caption + "\n" + table.to_markdown(index=False, floatfmt=".4g") + "\n")
    figure, ax = new_figure()  # the paper's Figure 6: "the maximum score evolution on 100 rollouts with the
    # four best approaches of each type", the "A" rows: the network's best game of each iteration
    for record, reference in zip(records, published.itertuples()):
        if not record["expert"]["best"]:
            continue
        minutes = [entry["seconds"] / 60 for entry in record["iterations"]]
        ax.step(minutes, [entry["nn_best"] for entry in record["iterations"]], where="post", marker=".",
                label=f"{reference.approach} T={reference.temperature:g} r={reference.rollouts}")
    ax.set_xlabel("minutes")
    ax.set_ylabel(f"best of the network's {exit_['network_games']} games")
    ax.set_title(f"Morpion 5D, Figure 6: Expert Iteration, the four \"A\" rows ({scale} scale)",
                 fontsize="medium")
    ax.legend(fontsize="x-small", ncol=2)
    return [stem.with_suffix(".csv"), stem.with_suffix(".md"),
            *save_figure(figure, outputs / "figures" / f"morpion_fig6_{scale}")]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m experiments.neural", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("step", choices=["games", "table1", "table2", "table3", "table4"])
    parser.add_argument("overrides", nargs="*", help="scale=S (smoke, quick, paper), outputs_dir=PATH, "
                                                    "device=auto|cpu|cuda")
    arguments = parser.parse_args(argv)
    options = dict(item.split("=", 1) for item in arguments.overrides if "=" in item)
    unknown = sorted(set(options) - {"scale", "outputs_dir", "device"}) + [
        item for item in arguments.overrides if "=" not in item]
    if unknown:
        print(f"Error: unknown option(s) {', '.join(unknown)}: give scale=S, outputs_dir=PATH, device=D",
              file=sys.stderr)
        return 2
    outputs = Path(options.get("outputs_dir", PROJECT_ROOT / "outputs"))
    scale = options.get("scale", "quick")
    if arguments.step == "games":
        return print_outputs(lambda: [make_games(scale, outputs)])
    step = {"table1": table1, "table2": table2, "table3": table3, "table4": table4}[arguments.step]

    def produce():
        print(plan(scale, arguments.step), file=sys.stderr)
        return step(scale, outputs, _device(options.get("device", "auto")))

    return print_outputs(produce)


def _device(name: str):
    from nrpa.neural.torch_setup import describe, pick_device

    device = pick_device(name)
    print(f"device: {describe(device)}", file=sys.stderr)
    return device


if __name__ == "__main__":
    sys.exit(main())
