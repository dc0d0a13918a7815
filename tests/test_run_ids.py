"""Stored runs keep their identities: the run id and seed of a job on every domain, pinned as
computed before the algorithm table was introduced. A change to what enters a run's
identity (a new setting added to an algorithm's identity keys, a renamed key) re-hashes
every stored run of that algorithm, so the stored files would no longer be found and every
run would be made again. If this test fails, that is what the change does: keep old ids
stable (for example, give the new setting its own algorithm entry) rather than edit the pins."""

from dataclasses import fields
from pathlib import Path

import pytest
import yaml

from experiments import experiment
from experiments.run_file import run_id
from experiments.runs import Job
from nrpa.domains.registry import DOMAINS
from nrpa.search import ALGORITHMS, SearchSettings

CASES = {
    "nrpa": dict(algorithm="nrpa", level=3, N=100),
    "snrpa": dict(algorithm="snrpa", level=4, N=50, P=3, alpha=0.5),
    "nmcs": dict(algorithm="nmcs", level=2),
    "playout budget": dict(algorithm="nrpa", level=2, max_time=None, max_playouts=300, clock="wall", restart=False),
    "shared leaf": dict(algorithm="nrpa", parallel="shared", threads=4, clock="wall"),
    "thread-local node": dict(algorithm="nrpa", parallel="thread_local", parallel_level=2, threads=2, clock="wall"),
    "averaged": dict(algorithm="nrpa", parallel="averaged", threads=3, average_every=0.5, clock="wall"),
}

# (domain, case): (run id of repeat 0, seed of repeat 1), with base seed 7 and the domain's
# default options (bus: STORED_OPTIONS below). The thread-local cases were re-pinned on purpose
# when the best thread's policy began to go back to the caller (Algorithm 5): those runs
# changed, so their ids did (the key ``hand_back``), and the runs made before are never handed
# back for them.
PINNED = {
    ("samegame", "nrpa"): ("5300d189aae62c43c4fb", 1304458906),
    ("samegame", "snrpa"): ("fdc7b7a841f15a7b3fe4", 1168579631),
    ("samegame", "nmcs"): ("a191d923dfc9a3f07856", 3487016535),
    ("samegame", "playout budget"): ("78080af9fdfccc82d44a", 1460551616),
    ("samegame", "shared leaf"): ("630474f22c033870584d", 799700091),
    ("samegame", "thread-local node"): ("7cbc04e824414febf004", 2843070804),
    ("samegame", "averaged"): ("415da06c92cace092387", 1218565987),
    ("weakschur", "nrpa"): ("0168a900d761c323a626", 1437830569),
    ("weakschur", "snrpa"): ("284bfc4193a733d39a39", 4083203654),
    ("weakschur", "nmcs"): ("67e85e8a354caf3176c3", 1445438223),
    ("weakschur", "playout budget"): ("425358e592b51613f4fe", 393235973),
    ("weakschur", "shared leaf"): ("a9d9bf2bc1e38639f55d", 105885009),
    ("weakschur", "thread-local node"): ("9bd3086b75901fda7d8f", 2420750677),
    ("weakschur", "averaged"): ("f1aa56cabf26cd22c040", 3832547815),
    ("maximum", "nrpa"): ("0fccd9de221ab12dbc15", 1548931041),
    ("maximum", "snrpa"): ("66503a4e8aebc185acd7", 215432220),
    ("maximum", "nmcs"): ("5fea97c4f7d657f92176", 2383776059),
    ("maximum", "playout budget"): ("44a98886519f87bb2c40", 4271382302),
    ("maximum", "shared leaf"): ("a5ed08c613a9d519a6b8", 646474677),
    ("maximum", "thread-local node"): ("b48cc8e9dfd1e0d0dd6d", 773841688),
    ("maximum", "averaged"): ("476c49e78df440023036", 4057014094),
    ("tsptw", "nrpa"): ("dbece1fcc991019c88d2", 3253946472),
    ("tsptw", "snrpa"): ("02f4298a34c0455cef62", 2277351449),
    ("tsptw", "nmcs"): ("7e023c08ad1dc49d72bd", 3469006804),
    ("tsptw", "playout budget"): ("04f513a08381d662fa74", 2911073301),
    ("tsptw", "shared leaf"): ("362ca8c71c7fe29d33ad", 1342301559),
    ("tsptw", "thread-local node"): ("d920bf0cf4d419a33c1a", 475681264),
    ("tsptw", "averaged"): ("daba4fc3c813bf9b6437", 1636552359),
    ("bus", "nrpa"): ("71e9d7824da2f5df2c2b", 4142091582),
    ("bus", "snrpa"): ("b349b3d53be247e79bff", 2312734283),
    ("bus", "nmcs"): ("050b88e2479a35472887", 81588493),
    ("bus", "playout budget"): ("123eb52fc0d817b4663a", 2237395380),
    ("bus", "shared leaf"): ("508531c9cbb7630f7d9d", 714087552),
    ("bus", "thread-local node"): ("69f8c4b98bec7390a439", 3235344393),
    ("bus", "averaged"): ("f53b57820fa15d5c1123", 2099801877),
    ("morpion", "nrpa"): ("5ccfb536ffa58e7b634e", 4163958236),
    ("morpion", "snrpa"): ("13fe8f72e65224d39137", 1962619635),
    ("morpion", "nmcs"): ("12d9884a09f24bd12032", 1564994159),
    ("morpion", "playout budget"): ("16ab3ff971324fde6f79", 4103839466),
    ("morpion", "shared leaf"): ("f93f5a5900db741c959c", 2173555262),
    ("morpion", "thread-local node"): ("aa923272200304246f4b", 3728202389),
    ("morpion", "averaged"): ("e92ff3b12854089e6885", 1023673553),
}


# The options of the stored runs where they are not the domain's defaults now: every bus run
# made before domain.model existed is of bus.cpp's model (the default is now the paper's).
STORED_OPTIONS = {"bus": {"model": "bus_cpp"}}


@pytest.mark.parametrize("domain, case", sorted(PINNED))
def test_stored_run_ids_are_unchanged(domain, case):
    options = DOMAINS[domain].options_class(**STORED_OPTIONS.get(domain, {}))
    job = Job(options, SearchSettings(seed=7, **CASES[case]))
    assert (run_id(job.run_config(0)), job.run_seed(1)) == PINNED[domain, case]


@pytest.mark.algorithms
def test_every_algorithm_has_its_config_file_and_reads_known_settings():
    """The algorithm table and conf/algo/ name the same algorithms, and the settings an
    algorithm reads are options of the config schema (SearchSettings fields)."""
    folder = experiment.CONFIG_DIR / "algo"  # read when run: tests/test_add_algorithm.py points it at a copy
    declared = {path.stem: yaml.safe_load(path.read_text())["algorithm"] for path in folder.glob("*.yaml")}
    assert declared == {name: name for name in ALGORITHMS}
    settings = {f.name for f in fields(SearchSettings)}
    for algorithm in ALGORITHMS.values():
        assert set(algorithm.identity) | set(algorithm.own_settings) <= settings, algorithm.name


def test_only_thread_local_runs_on_several_threads_changed_identity_with_the_hand_back():
    def parallel(**settings):
        return Job(DOMAINS["samegame"].options_class(), SearchSettings(clock="wall", **settings)).run_config(0)["parallel"]

    assert parallel(parallel="thread_local", threads=2) == {"strategy": "thread_local", "level": 1, "threads": 2,
                                                             "hand_back": True}
    # one thread is the sequential NRPA, as before; the shared policy did not change
    assert parallel(parallel="thread_local", threads=1) == {"strategy": "thread_local", "level": 1, "threads": 1}
    assert parallel(parallel="shared", threads=2) == {"strategy": "shared", "level": 1, "threads": 2}


def test_snrpa_with_p_1_is_nrpa_and_its_runs_stored_under_the_old_spelling_are_found(tmp_path, monkeypatch):
    """SNRPA(1) and NRPA are one search (the same kernel, the same draws): one identity, and
    a run stored as SNRPA(1) before (Table 4's NRPA column in the archive) serves NRPA."""
    from dataclasses import replace

    from experiments.store import RunStore
    from experiments.workers import run_job
    from nrpa.domains.samegame_adapter import SameGameOptions

    budget = dict(level=1, N=10, max_time=None, max_playouts=40)
    nrpa = Job(SameGameOptions(), SearchSettings(algorithm="nrpa", **budget))
    snrpa = Job(SameGameOptions(), SearchSettings(algorithm="snrpa", P=1, **budget))
    assert snrpa.settings.algorithm == "nrpa" and snrpa.run_config(0) == nrpa.run_config(0)
    assert Job(SameGameOptions(), SearchSettings(algorithm="snrpa", P=2, **budget)).settings.algorithm == "snrpa"

    store = RunStore(tmp_path, archive=None)
    monkeypatch.setitem(ALGORITHMS, "snrpa", replace(ALGORITHMS["snrpa"], same_as=lambda s: None))
    stored = run_job(Job(SameGameOptions(), SearchSettings(algorithm="snrpa", P=1, **budget)), 1, store, n_jobs=1)
    monkeypatch.undo()
    assert stored.ran == 1 and stored.paths[0] != nrpa.run_path(store, 1)
    assert json_of(stored.paths[0])["config"]["algorithm"] == "snrpa"  # as the code before stored it

    again = run_job(nrpa, 2, store, n_jobs=1)  # repeat 0 is the old spelling's file, repeat 1 made as NRPA
    assert (again.found, again.ran) == (1, 1)
    assert again.paths[0] == stored.paths[0] and json_of(again.paths[1])["config"]["algorithm"] == "nrpa"


def json_of(path: Path) -> dict:
    import json
    return json.loads(path.read_text())
