"""The tables and figures of the Morpion paper's neural experiments (Doux, Negrevergne, Cazenave), from what
the
pipeline made (``experiments.neural``: the NRPA games, the trained networks, the sampled and
nested games, the Expert Iteration records). Each function writes its files under
``outputs/tables`` and ``outputs/figures`` and returns their paths; none runs a search or
trains a network: analysis/results/neural.py runs the pipeline, then calls them.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from analysis.results.plots import new_figure, save_figure
from analysis.stats import final_statistics, t_interval
from analysis.results.tables import markdown_table
from experiments.published import load_reference

PAPER_FILTERS = (70, 80)  # Figure 2's two game sets: scoring 70 to 82, and 80 or above


def published_in_ci(table, column: str):
    """Whether each row's published value (``column``) lies in our 95% CI."""
    return (table[column] >= table["ci_low"]) & (table[column] <= table["ci_high"])


def _write(table: pd.DataFrame, outputs: Path, name: str, caption: str | None = None) -> list[Path]:
    """``table`` as outputs/tables/NAME.csv, and with ``caption`` as NAME.md too."""
    stem = outputs / "tables" / name
    stem.parent.mkdir(parents=True, exist_ok=True)
    table.to_csv(stem.with_suffix(".csv"), index=False)
    if caption is None:
        return [stem.with_suffix(".csv")]
    stem.with_suffix(".md").write_text(caption + "\n" + markdown_table(table, index=False, floatfmt=".4g") + "\n")
    return [stem.with_suffix(".csv"), stem.with_suffix(".md")]


def figure2(sequences, scores, high: float, scale: str, outputs: Path) -> list[Path]:
    """Figure 2, the score filter's trade-off between quality and diversity, from every game of
    the scale's data runs (``sequences``: kernel move ids; ``scores``) and the filter's upper
    bound ``high``. The paper's figure ("NRPA data diversity", section 3.3) sets two filters
    side by side: "10 000 games (800.000 game states) generated with NRPA that scored 80 or above
    (Figure 2 first plot), and 10 000 games (around 800.000 game states) ... that scored between
    70 and 82 (Figure 2 second plot)", the first lacking diversity; what its plots draw is not
    said. Our reading: for each lower bound of the filter, the games kept, their mean score
    (quality) and the distinct positions among them (diversity: a position is the set of lines
    drawn, moves commuting, counted by a Zobrist hash of that set); the paper's two lower
    bounds, 70 and 80, are marked."""
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
    paths = _write(table, outputs, f"morpion_fig2_{scale}")
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
    return paths + save_figure(figure, outputs / "figures" / f"morpion_fig2_{scale}")


def table1(trained: dict[str, dict], scale: str, outputs: Path) -> list[Path]:
    """Table 1 (the networks' accuracy on held-out games) and Figures 3 and 4 (loss and
    accuracy per epoch), from the trained networks' checkpoints (``trained``, by label)."""
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
    games = next(iter(trained.values()))["data"]
    caption = (f"**Morpion 5D, Table 1: the networks imitating NRPA** ({scale} scale)\n\n"
               f"Accuracy: the share of held-out positions (a tenth of the {games['games']} games, never trained on) "
               "where the network's most probable legal move is the one NRPA played; loss: the cross-entropy there. "
               f"Trained {table['epochs'].iloc[0]} epochs on {table['train_positions'].iloc[0]} positions "
               f"(conf/neural_morpion.yaml), device {table['device'].iloc[0]}. Published: the paper's Table 1, "
               "accuracy after 1, 40 and 80 epochs (\"Accuracy for each tested configuration\"; its test set; 694,716 "
               "positions of 9,141 NRPA games scoring 70 to 82), as a share.\n")
    paths = _write(table, outputs, f"morpion_table1_{scale}", caption)
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


def table2(games: dict, count: int, seed: int, epochs: int, device: str, scale: str, outputs: Path) -> list[Path]:
    """Table 2's neural rows (games whose every move is sampled from a network, temperature 1)
    beside the published ones, and Figure 5 (the distribution of their scores). ``games``:
    per network label, (scores, games cut short, seconds for the ``count`` games)."""
    scores = {label: scores for label, (scores, _, _) in games.items()}
    table = final_statistics(scores).rename(columns={"variant": "network", "runs": "games"})
    published = load_reference("morpion_table2_5d.csv").set_index("policy")
    for column in ("mean", "max", "sem"):
        table[f"published {column}"] = [published[column].get(label, np.nan) for label in table["network"]]
    table["published_mean_in_ci"] = published_in_ci(table, "published mean")
    table["games_cut_short"] = [games[label][1] for label in table["network"]]
    table["ms_per_game"] = [1000 * games[label][2] / count for label in table["network"]]
    caption = (f"**Morpion 5D, Table 2 (neural rows): games played by the imitation networks** ({scale} scale)\n\n"
               f"{count} games per network, every move sampled from the network's softmax over the legal moves "
               f"(temperature 1; seed {seed}); mean with its 95% Student-t CI, standard error (sem), max; the "
               f"published mean, max and sem beside. The networks: Table 1's ({epochs} epochs on the {scale} game set, "
               f"conf/neural_morpion.yaml), device {device}. games_cut_short: games that ended with legal "
               "moves left, all starting outside the 30 x 30 window. The NRPA rows: `make morpion-table2`'s "
               f"morpion_table2_{scale}.md.\n")
    paths = _write(table, outputs, f"morpion_table2_neural_{scale}", caption)
    figure, ax = new_figure()
    bins = np.arange(min(min(v) for v in scores.values()) - 0.5, max(max(v) for v in scores.values()) + 1.5)
    for label, values in scores.items():
        ax.hist(values, bins=bins, histtype="step", linewidth=1.5, label=f"{label} (mean {np.mean(values):.1f})")
    ax.set_xlabel("score (moves)")
    ax.set_ylabel("games")
    ax.set_title(f"Morpion 5D, Figure 5: scores of {count} games per network ({scale} scale)", fontsize="medium")
    ax.legend(fontsize="small")
    return paths + save_figure(figure, outputs / "figures" / f"morpion_fig5_{scale}")


def table3(games: dict, device: str, scale: str, outputs: Path) -> list[Path]:
    """Table 3: Nested(1) with the ResNet R2 network beside the network alone, score and time
    per game, the published rows beside. ``games``: per approach, (scores, seconds per game)."""
    table = final_statistics({label: scores for label, (scores, _) in games.items()}).rename(
        columns={"variant": "approach", "runs": "games"})
    table["seconds_per_game"] = [games[label][1] for label in table["approach"]]
    published = load_reference("morpion_table3_5d.csv").set_index("approach")
    for column in ("mean", "max", "avg_game_time"):
        table[f"published {column}"] = [published[column].get(label, np.nan) for label in table["approach"]]
    table["published_mean_in_ci"] = published_in_ci(table, "published mean")
    caption = (f"**Morpion 5D, Table 3: a nested search with the network** ({scale} scale)\n\n"
               "Nested(1) + Resnet R2: at each move every legal move is tried and followed by a game sampled from "
               "the network; the best sequence found so far is followed (NMCS level 1). Resnet R2: games sampled "
               f"from the network alone. Mean with its 95% Student-t CI, max, seconds per game on {device}; "
               "the published mean, max and time per game (min:s, the paper's hardware) beside, and whether the "
               f"published mean lies in our CI. The network: Table 1's ({scale} game set). The published NRPA(3) "
               "row: `make morpion-table2`'s NRPA(3) row.\n")
    return _write(table, outputs, f"morpion_table3_{scale}", caption)


def table4(records: list[dict], exit_: dict, scale: str, outputs: Path) -> list[Path]:
    """Table 4: per published row, its Expert Iteration run's record (``records``, in the
    published order; ``exit_``: the scale's settings), the network's mean (95% CI) and best
    and the expert's best beside the published values; Figure 6, the best score over time."""
    published = load_reference("morpion_table4_5d_exit.csv")
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
    paths = _write(table, outputs, f"morpion_table4_{scale}", caption)
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
    return paths + save_figure(figure, outputs / "figures" / f"morpion_fig6_{scale}")
