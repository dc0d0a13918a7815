"""A throwaway algorithm added exactly as docs/howto/add-algorithm.md says for a search of its
own, and a pytest plugin that adds it: ``pytest -p tests.throwaway_algorithm -m algorithms``
runs the tests that depend on the list of algorithms with it registered, on it alone
(tests/test_add_algorithm.py does).

The guide's steps, and where each lands here:

1. its kernel, a numba function ``(domain value, Params)`` returning ``result(run)`` over the
   domain contract and the run runtime: ``random_restarts_search``. The guide puts it in a
   file of ``nrpa/``; a test must not add one there (the file would change the kernel
   cache's key for every other process of the checkout);
2. its declaration, ``register(Algorithm(...))`` (in ``nrpa/algorithms.py`` in the guide):
   ``add``;
3. its ``conf/algo/<name>.yaml``, ``CONF_FILE``: ``add`` writes it into a copy of ``conf/``,
   where ``experiments.experiment.CONFIG_DIR`` points while the plugin is loaded (the command
   line's checks and the tests compose from there);
4. its tests: the tests marked ``algorithms`` pick it up by themselves.

It has no setting of its own (that step edits ``SearchSettings`` and ``Params``, which a test
cannot add at run time): restarting NRPA, the guide's worked example, is the algorithm that
goes through that step, and its own tests show it does."""

import shutil
import tempfile
from pathlib import Path

import numpy as np
from numba import njit

from experiments import experiment
from nrpa.domains.contract import legal_moves, max_moves, new_state, play, reset, score
from nrpa.run import end_playout, go_on, new_run, result, start_clocks
from nrpa.search import ALGORITHMS, Algorithm, register

NAME = "random_restarts"


@njit
def random_restarts_search(domain, params):
    """Uniform playouts from the initial state until the budget: one playout per top-level call."""
    np.random.seed(params.seed)
    run = new_run(domain, params)
    state = new_state(domain)
    moves = np.zeros(max_moves(domain), dtype=np.int64)
    codes = np.zeros(max_moves(domain), dtype=np.int64)
    start_clocks(run)
    while True:
        reset(domain, state)
        length = 0
        while True:
            n = legal_moves(domain, state, moves, codes)
            if n == 0:
                break
            run.path[length] = moves[np.random.randint(0, n)]
            play(domain, state, run.path[length])
            length += 1
        end_playout(run, score(domain, state), run.path, length)
        if not go_on(run, params):
            break
    return result(run)


ALGORITHM = Algorithm(NAME, "random restarts", {"none": random_restarts_search}, identity=(),
                      label=lambda s: "random restarts")
CONF_FILE = """# @package _global_
# Random restarts: uniform playouts from the initial state until the budget (a test's throwaway).
algorithm: random_restarts
P: 1
"""


def add(conf_dir: Path) -> Algorithm:
    """Steps 2 and 3 of the guide: register the algorithm, write its conf file under ``conf_dir``."""
    (conf_dir / "algo" / f"{NAME}.yaml").write_text(CONF_FILE)
    return register(ALGORITHM)


_saved = {}


def pytest_configure(config):
    folder = Path(tempfile.mkdtemp(prefix="throwaway_conf_"))
    shutil.copytree(experiment.CONFIG_DIR, folder / "conf")
    add(folder / "conf")
    _saved.update(folder=folder, config_dir=experiment.CONFIG_DIR)
    experiment.CONFIG_DIR = folder / "conf"


def pytest_collection_modifyitems(config, items):
    """Keep the tests parametrised by an algorithm's ``name`` for the throwaway alone: the
    others' run in the suite itself."""
    kept, others = [], []
    for item in items:
        named = getattr(item, "callspec", None) is not None and "name" in item.callspec.params
        (others if named and item.callspec.params["name"] != NAME else kept).append(item)
    if others:
        config.hook.pytest_deselected(items=others)
        items[:] = kept


def pytest_unconfigure(config):
    if _saved:
        experiment.CONFIG_DIR = _saved["config_dir"]
        ALGORITHMS.pop(NAME, None)
        shutil.rmtree(_saved["folder"], ignore_errors=True)
