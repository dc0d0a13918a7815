"""The Morpion paper's neural tables (Doux, Negrevergne, Cazenave), step by step from the command line:

    python -m analysis.results.neural games scale=quick     # the imitation data set (NRPA games)
    python -m analysis.results.neural table1 scale=quick    # Figure 2; train the 3 networks: Table 1, Figures 3, 4
    python -m analysis.results.neural table2 scale=quick    # games sampled from them: Table 2's rows, Figure 5
    python -m analysis.results.neural table3 scale=quick    # Nested(1) + ResNet R2 beside ResNet R2 alone: Table 3
    python -m analysis.results.neural table4 scale=quick    # Expert Iteration, a run per published row: Table 4, Figure 6

Each step runs the pipeline (experiments/neural.py: the NRPA games, the trained networks, the
sampled and nested games, the Expert Iteration runs, all kept under ``outputs/neural/`` and
found there next time), then draws its tables and figures from what it made
(analysis/results/neural_report.py). Settings per scale: conf/neural_morpion.yaml.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from analysis.results import neural_report
from experiments import neural
from experiments.config import print_outputs
from experiments.store import PROJECT_ROOT


def table1(scale: str, outputs: Path, device) -> list[Path]:
    """Figure 2 (the data's score filter), Table 1 (the networks' accuracy on held-out games),
    Figures 3 and 4 (loss and accuracy per epoch); the per-position results for the claims."""
    sequences, scores, _ = neural.data_runs(scale, outputs)
    paths = neural_report.figure2(sequences, scores, neural.scale_settings(scale)["data"]["keep"][1], scale, outputs)
    trained = neural.train_networks(scale, outputs, device)
    return (paths + neural_report.table1(trained, scale, outputs)
            + [neural.held_out_results(scale, outputs, trained, device)])


def table2(scale: str, outputs: Path, device) -> list[Path]:
    """Table 2's neural rows (games whose every move is sampled from a network, temperature 1)
    beside the published ones, and Figure 5 (the distribution of their scores)."""
    from nrpa.neural.torch_setup import describe

    played, trained, results = neural.sampled_games(scale, outputs, device)
    count = neural.scale_settings(scale)["play"]["games"]
    epochs = next(iter(trained.values()))["epoch"]
    return neural_report.table2(played, count, neural.DATA_SEED, epochs, describe(device), scale, outputs) + [results]


def table3(scale: str, outputs: Path, device) -> list[Path]:
    """Table 3: Nested(1) with the ResNet R2 network beside the network alone, score and time
    per game, the published rows beside."""
    from nrpa.neural.torch_setup import describe

    played, results = neural.nested_beside_network(scale, outputs, device)
    return neural_report.table3(played, describe(device), scale, outputs) + [results]


def table4(scale: str, outputs: Path, device) -> list[Path]:
    """Table 4: an Expert Iteration run per published row, the network's mean (95% CI) and
    best and the expert's best beside the published values; Figure 6, the best score found
    over time."""
    records, results = neural.exit_records(scale, outputs, device)
    return neural_report.table4(records, neural.scale_settings(scale)["exit"], scale, outputs) + [results]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m analysis.results.neural", description=__doc__,
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
        return print_outputs(lambda: [neural.make_games(scale, outputs)])
    step = {"table1": table1, "table2": table2, "table3": table3, "table4": table4}[arguments.step]

    def produce():
        print(neural.plan(scale, arguments.step), file=sys.stderr)
        return step(scale, outputs, _device(options.get("device", "auto")))

    return print_outputs(produce)


def _device(name: str):
    from nrpa.neural.torch_setup import describe, pick_device

    device = pick_device(name)
    print(f"device: {describe(device)}", file=sys.stderr)
    return device


if __name__ == "__main__":
    sys.exit(main())
