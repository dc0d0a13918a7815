"""An experiment's columns composed the fast way (experiments/experiment.py's _variant_config:
Hydra once per choice of config groups, value overrides set after) are the configs Hydra's
own compose gives for each column."""

import pytest
from hydra import compose, initialize_config_dir
from omegaconf import OmegaConf

from experiments.config import register_configs
from experiments.experiment import CONFIG_DIR, _variant_config

# config groups and values swept together, a key read by an interpolation (morpion's repeats
# per level), a string-typed value given as a number (domain.board)
CASES = [
    ("stabilized_table2", ["algo=nmcs", "algo=snrpa"], ["domain.board=1", "domain.board=20"]),
    ("distributed_fig4", ["strategy=leaf_shared", "strategy=node3_thread_local"], ["threads=1", "threads=2"]),
    ("morpion_table2", [], ["level=0", "level=3"]),
    ("family_samegame", ["variant=gnrpa_tabu_lr", "variant=nrpa"], []),
    # a variant whose budgets interpolate its own scale_budgets; root's K through oc.select
    ("distributed_table1", ["variant=nmcs", "variant=dist_nrpa5"], ["domain.board=1", "domain.board=20"]),
    ("distributed_fig5", ["strategy=root", "strategy=hybrid_thread_local"], ["domain.board=3"]),
]


@pytest.mark.parametrize("name, groups, values", CASES)
@pytest.mark.parametrize("scale", ["smoke", "paper"])
def test_a_column_composed_fast_is_the_config_hydra_composes(name, groups, values, scale):
    register_configs()
    fixed = [f"experiment={name}", f"scale={scale}"]
    composed = {}
    with initialize_config_dir(config_dir=str(CONFIG_DIR), version_base="1.3"):
        for group in groups or [None]:
            for value in values or [None]:
                chosen = tuple(o for o in (group, value) if o)
                fast = _variant_config(fixed, chosen, composed)
                slow = compose("config", overrides=fixed + list(chosen))
                assert OmegaConf.to_container(fast, resolve=True) == OmegaConf.to_container(slow, resolve=True), chosen
    assert len(composed) == max(1, len(groups))  # one Hydra compose per choice of groups


def test_a_config_composed_again_is_a_fresh_copy_and_follows_an_edit_of_conf(tmp_path, monkeypatch):
    import shutil

    from experiments import experiment

    conf = tmp_path / "conf"
    shutil.copytree(CONFIG_DIR, conf)
    monkeypatch.setattr(experiment, "CONFIG_DIR", conf)
    register_configs()
    with initialize_config_dir(config_dir=str(conf), version_base="1.3"):
        first = experiment._compose(["algo=nrpa", "level=3"], hydra=False)
        assert (first.algorithm, first.level, first.N) == ("nrpa", 3, 100)
        first.N = 7  # a caller's change stays in its copy
        again = experiment._compose(["algo=nrpa", "level=3"], hydra=False)
        assert again.N == 100 and again == compose("config", overrides=["algo=nrpa", "level=3"])
        (conf / "algo" / "nrpa.yaml").write_text("# @package _global_\nalgorithm: nrpa\nP: 1\nN: 50\n")
        assert experiment._compose(["algo=nrpa", "level=3"], hydra=False).N == 50
        (conf / "algo" / "mine.yaml").write_text("# @package _global_\nalgorithm: nrpa\nP: 1\nN: 9\n")
        assert experiment._compose(["algo=mine"], hydra=False).N == 9
