"""Hydra entry point: one config in, runs out.

    python run.py domain=samegame domain.board=1 algo=nrpa level=3 N=100 max_time=5
    python run.py algo=snrpa P=4
    python run.py algo=nmcs level=2
"""

import sys

import hydra
from omegaconf import DictConfig

from experiments.cli import run_from_config
from experiments.config import exit_interrupted, exit_on_input_error, register_configs
from experiments.experiment import check_command_line
from nrpa import interrupt
from nrpa.errors import InputError

register_configs()


@hydra.main(version_base="1.3", config_path="conf", config_name="config")
def main(cfg: DictConfig) -> float:
    try:
        return run_from_config(cfg)
    except InputError as error:
        exit_on_input_error(error)


if __name__ == "__main__":
    interrupt.install()
    flags = {argument for argument in sys.argv[1:] if argument.startswith("-")}
    if flags <= {"-m", "--multirun"}:  # a run or a sweep (not --help, --cfg, ...): check it all first
        try:
            check_command_line([argument for argument in sys.argv[1:] if argument not in flags])
        except InputError as error:
            exit_on_input_error(error)
    try:
        main()
    except KeyboardInterrupt:  # Ctrl-C: one line, no traceback (a sweep stops too: Hydra lets it through)
        exit_interrupted()
