"""Hydra entry point: one config in, runs out.

    python run.py domain=samegame domain.board=1 algo=nrpa level=3 N=100 max_time=5
    python run.py algo=snrpa P=4
    python run.py algo=nmcs level=2
    python run.py -m algo=snrpa P=8,12 scale=smoke [against=stabilized_table4 [--other-game]] [--yes]

A sweep (-m) on Hydra's basic launcher is run by experiments/sweep.py: its cost first (and a
question when it takes over an hour, on a terminal), its runs in one pool across its jobs; its
report (analysis/results/report.py) last. Another launcher (hydra/launcher=submitit_slurm) or a hydra.* override keeps
Hydra's multirun, a job at a time.
"""

import sys
from pathlib import Path

import hydra
from omegaconf import DictConfig

from experiments.cli import run_from_config
from experiments.config import exit_interrupted, exit_on_input_error, register_configs
from experiments.experiment import check_command_line
from experiments.sweep import check_against, make_sweep
from nrpa import interrupt
from nrpa.errors import InputError

register_configs()


@hydra.main(version_base="1.3", config_path="conf", config_name="config")
def main(cfg: DictConfig) -> float:
    try:
        return run_from_config(cfg)
    except InputError as error:
        exit_on_input_error(error)


def run_sweep(overrides: list[str], against: str | None, yes: bool, other_game: bool = False) -> list[Path]:
    """A sweep from start to report: its runs (experiments/sweep.py), then the report an
    experiment gets (analysis/results/report.py), whose paths it returns. run.py is the top of the
    layers: experiments/ makes runs, analysis/ reads them, and only here does one call the other."""
    from analysis.results.report import write_report  # a single run does without pandas and matplotlib

    experiment, folder = make_sweep(overrides, against, yes, other_game)
    return write_report(experiment, overrides=overrides, folder=folder)


def sweep_or_hydra(arguments: list[str]) -> list[str] | None:
    """The overrides of a sweep this harness runs (experiments/sweep.py), or None where Hydra
    runs the command: a single run, a Hydra flag (--cfg, --help), or a launcher or hydra.*
    override (a SLURM sweep: each job on its own node)."""
    flags = {argument for argument in arguments if argument.startswith("-")}
    overrides = [argument for argument in arguments if argument not in flags]
    if not flags or flags - {"-m", "--multirun"} or any(o.startswith("hydra") for o in overrides):
        return None
    return overrides


if __name__ == "__main__":
    interrupt.install()
    yes = "--yes" in sys.argv[1:]  # start without asking, however long it takes (as YES=1)
    other_game = "--other-game" in sys.argv[1:]  # against=: columns of another game than the experiment's, knowingly
    against = [argument.split("=", 1)[1] for argument in sys.argv[1:] if argument.startswith("against=")]
    sys.argv = [sys.argv[0], *(a for a in sys.argv[1:]
                               if a not in ("--yes", "--other-game") and not a.startswith("against="))]
    flags = {argument for argument in sys.argv[1:] if argument.startswith("-")}
    sweep = sweep_or_hydra(sys.argv[1:])
    try:
        if against and sweep is None:
            raise InputError("against=EXPERIMENT draws a sweep beside a paper's columns: give it with -m")
        if other_game and not against:
            raise InputError("--other-game lets a sweep drawn against=EXPERIMENT play another game: give against=")
        if against:
            check_against(against[-1])
        if flags <= {"-m", "--multirun"}:  # a run or a sweep (not --help, --cfg, ...): check it all first
            # beside an experiment, the options are checked on its settings (P=8 on Table 4's SNRPA)
            check_command_line([*(f"experiment={name}" for name in against[-1:]),
                                *(argument for argument in sys.argv[1:] if argument not in flags)])
        if sweep is not None:
            for path in run_sweep(sweep, against[-1] if against else None, yes, other_game):
                print(path)
            sys.exit(0)
    except InputError as error:
        exit_on_input_error(error)
    except KeyboardInterrupt as stop:  # Ctrl-C: one line, no traceback
        exit_interrupted(stop)
    try:
        main()
    except KeyboardInterrupt as stop:  # Ctrl-C: one line, no traceback (a Hydra sweep stops too: Hydra lets it through)
        exit_interrupted(stop)
