"""Bad input, as a table: every case exits with status 2 and a message naming what is wrong
(the word or phrase of the third column), prints no traceback, and writes nothing to the store.

The commands run in this process (``tests.conftest.cli``), as ``python ARGUMENTS`` would:
they all end before any search. ``{tmp}`` is a folder holding the bad files below, ``{out}``
the store (``outputs_dir``), which holds one whole run file before each case."""

import shutil

import pytest

from nrpa.domains.registry import DOMAINS
from nrpa.errors import did_you_mean
from nrpa.search import ALGORITHMS
from tests.conftest import cli

BAD_FILES = {
    "ragged_board.txt": "0 1 2\n0 1\n",
    "letter_board.txt": "0 1\n0 x\n",
    "tsptw_letter.txt": "2\n0 x\n1 0\n0 10\n0 10\n",
    "tsptw_window.txt": "2\n0 1\n1 0\n0 10\n5 1\n",
    "bus_header.csv": "minute,stop,passengers\n0,1,2\n",
    "bus_row.csv": "minute,station,new_passengers,travel_time,incident\n0,4,x,2,0\n",
    "morpion.psol": "28,28\n",
    "morpion.csv": "ply,dot_x,dot_y,dir_dx,dir_dy,start_x,start_y\n1,-3,-1,0,1,-3\n",
    "a_file": "not a folder\n",
}
RUN = ("run.py",)
REPORT = ("-m", "analysis.results.report")
ESTIMATE = ("-m", "experiments.estimate")

CASES = [
    # options of a run: unknown, mistyped, out of range, or not valid together
    # a mistyped name or key: the closest valid one first, then all of them on the same line
    (RUN + ("levle=3",), "unknown option 'levle': did you mean level? (valid are algorithm, level, N"),
    (RUN + ("levl=3",), "unknown option 'levl': did you mean level?"),
    (RUN + ("domain.bord=2",), "unknown option 'domain.bord' for domain=samegame: did you mean domain.board? "
                               "(valid are domain.board, domain.policy"),
    (RUN + ("backend.workers=3",), "valid are backend.n_jobs, backend.address"),
    (RUN + ("starved.wiat=3",), "unknown option 'starved.wiat': did you mean starved.wait?"),
    # (a mistyped or unknown algo= or domain=: test_an_unknown_group_choice_lists_every_registered_one)
    (RUN + ("-m", "algo=nrpa,snrpaa"), "algo=snrpaa is not valid: did you mean snrpa?"),  # a swept value
    (RUN + ("domain=samegam",), "domain=samegam is not valid: did you mean samegame?"),
    (RUN + ("scale=huge",), "scale=huge is not valid: choose one of paper, quick, smoke"),
    (RUN + ("variant=gnrpa_tabu_rl",), "variant=gnrpa_tabu_rl is not valid: did you mean gnrpa_tabu_lr?"),
    (RUN + ("domain.policy=tabou",), "domain.policy='tabou' is not valid: did you mean tabu? (choose one of none, "),
    (RUN + ("level=three",), "'three' of type 'str' could not be converted to Integer"),
    (RUN + ("domain.board=[1",), "no viable alternative at input '[1'"),
    (RUN + ("level=-1",), "level=-1 is out of range: it must be >= 0"),
    (RUN + ("N=0",), "N=0 is out of range"),
    (RUN + ("alpha=0",), "alpha=0.0 is out of range"),
    (RUN + ("algo=snrpa", "P=0"), "P=0 is out of range: it must be >= 1"),
    (RUN + ("algo=nrpa", "P=3"), "use algo=snrpa P=3"),
    (RUN + ("algo=gnrpa", "tau=0"), "tau=0.0 is out of range: it must be > 0"),
    (RUN + ("tau=2",), "tau=2.0 is a setting of GNRPA: use algo=gnrpa"),
    (RUN + ("algo=gnrpa", "repetitions=0"), "repetitions=0 is out of range"),
    (RUN + ("algo=snrpa", "repetitions=2"), "repetitions=2 is a setting of GNRPA"),
    (RUN + ("algo=gnrpa", "repetitions=2", "parallel=shared", "threads=2", "clock=wall"),
     "repetitions=2 (GNRPA-LR) runs sequentially only"),
    (RUN + ("algo=rnrpa", "patience=0"), "patience=0 is out of range: it must be >= 1"),
    (RUN + ("algo=rnrpa", "patience=null"), "patience=null is out of range"),
    (RUN + ("patience=3",), "patience=3 is a setting of Restarting NRPA: use algo=rnrpa"),
    (RUN + ("algo=rnrpa", "parallel=shared", "threads=2", "clock=wall"), "Restarting NRPA runs sequentially only"),
    (RUN + ("algo=beam", "beam=0"), "beam=0 is out of range: 1..64"),
    (RUN + ("beam=3",), "beam=3 is a setting of Beam NRPA: use algo=beam"),
    (RUN + ("algo=beam", "level=0"), "level=0 is out of range for Beam NRPA"),
    (RUN + ("algo=beam", "P=2"), "Beam NRPA runs with P = 1"),
    (RUN + ("algo=beam", "beam=64", "level=4", "policy_capacity_bits=19"),
     "beam=64 at level=4 takes 8.0 GiB of policy tables"),
    (RUN + ("algo=gnrpa", "domain.bias=size"), "domain.bias='size' is not valid: choose none, tabu, or the path"),
    (RUN + ("algo=gnrpa", "domain=tsptw", "domain.bias=nowhere.npz"), "no such bias file"),
    (RUN + ("algo=gnrpa", "domain.bias=tabu", "domain.bias_weight=-1"), "domain.bias_weight=-1.0 is out of range"),
    (RUN + ("domain.bias=tabu",), "domain.bias=tabu is GNRPA's bias: use algo=gnrpa"),
    (RUN + ("algo=gnrpa", "domain=bus", "domain.bias=time"), "choose none, or the path of a bias file"),
    (RUN + ("max_time=0",), "max_time=0.0 is out of range"),
    (RUN + ("max_playouts=0",), "max_playouts=0 is out of range"),
    (RUN + ("max_time=null",), "no budget: set max_time and/or max_playouts"),
    (RUN + ("clock=sundial",), "choose one of cpu, wall"),
    (RUN + ("seed=-1",), "seed=-1 is out of range"),
    (RUN + ("policy_capacity_bits=40",), "policy_capacity_bits=40 is out of range: 10..28"),
    (RUN + ("parallel=both",), "parallel='both' is not valid: choose one of none, shared, thread_local, averaged"),
    (RUN + ("parallel=sahred",), "parallel='sahred' is not valid: did you mean shared?"),
    (RUN + ("clock=CPU",), "clock='CPU' is not valid: did you mean cpu?"),
    (RUN + ("parallel=shared", "threads=2"), "parallel runs use a wall-clock budget, set clock=wall"),
    (RUN + ("threads=2", "clock=wall"), "threads=2 needs a parallel strategy"),
    (RUN + ("parallel=shared", "parallel_level=5", "clock=wall"), "parallel_level=5 is out of range"),
    (RUN + ("parallel=averaged", "threads=2", "clock=wall", "average_every=0"), "average_every=0.0 is out of range"),
    (RUN + ("parallel=shared", "algo=nmcs"), "parallel=shared: NMCS runs sequentially only"),
    (RUN + ("parallel=shared", "parallel_level=0", "clock=wall"), "parallel_level=0 is out of range"),
    (RUN + ("parallel=shared", "threads=0", "clock=wall"), "threads=0 is out of range"),
    (RUN + ("root=0",), "root=0 is out of range"),
    (RUN + ("repeats=0", "max_playouts=1"), "repeats=0 is out of range"),
    (RUN + ("backend=dask",), "backend.address"),
    (RUN + ("-m", "algo=snrpa", "P=2,0"), "P=0 is out of range"),  # a swept value, before any run
    (RUN + ("-m", "N=10,100", "P=1,2"), "use algo=snrpa P=2"),
    # each domain's options and instance files
    (RUN + ("domain.board=21",), "domain.board=21 is out of range: valid are the standard boards 1..20"),
    (RUN + ("domain.board={tmp}/ragged_board.txt",), "ragged_board.txt, line 2: 2 cells where line 1 has 3"),
    (RUN + ("domain.board={tmp}/letter_board.txt",), "letter_board.txt, line 2: 'x' is not a colour digit"),
    (RUN + ("domain.board={tmp}/no_such_board.txt",), "no_such_board.txt"),
    (RUN + ("domain.policy=taboo",), "choose one of none, tabu, selective"),
    (RUN + ("domain=weakschur", "domain.parts=0"), "domain.parts=0 is out of range: K must be 1..12"),
    (RUN + ("domain=weakschur", "domain.policy=greedy"), "choose one of standard, rule"),
    (RUN + ("domain=weakschur", "domain.max_number=-1"), "domain.max_number=-1 is out of range"),
    (RUN + ("domain=maximum", "domain.max_atoms=0"), "domain.max_atoms=0 is out of range: L must be 1..100000"),
    (RUN + ("domain=tsptw", "domain.instance=rc_999.9"), "rc_201.1, rc_201.2"),
    (RUN + ("domain=tsptw", "domain.instance={tmp}/tsptw_letter.txt"), "tsptw_letter.txt, line 2: 'x' is not a number"),
    (RUN + ("domain=tsptw", "domain.instance={tmp}/tsptw_window.txt"), "line 5: a time window is 'ready due'"),
    (RUN + ("domain=bus", "domain.instance={tmp}/bus_header.csv"), "line 1: the header must be"),
    (RUN + ("domain=bus", "domain.instance={tmp}/bus_row.csv"), "line 2: expected five integers"),
    (RUN + ("domain=bus", "domain.delta=-1"), "domain.delta=-1 is out of range"),
    (RUN + ("domain=bus", "domain.instance=random:x"), "the seed after 'random:' must be an integer"),
    (RUN + ("domain=bus", "domain.instance=nowhere.csv"), "neither 'paper', 'random:SEED' nor an instance CSV file"),
    (RUN + ("domain=morpion", "domain.variant=5X"), "domain.variant='5X' is not valid: choose one of 5D, 5T"),
    (("-m", "analysis.results.morpion_grid", "{tmp}/morpion.psol", "{tmp}/grid.png"), "is not the reference dot"),
    (("-m", "analysis.results.morpion_grid", "{tmp}/morpion.csv", "{tmp}/grid.png"), "line 2: 6 fields"),
    # experiments, reports, estimates
    (RUN + ("-m", "experiment=nope"), "experiment=nope is not valid: choose one of distributed_fig3, "),
    (RUN + ("-m", "experiment=stabilized_table44"), "experiment=stabilized_table44 is not valid: did you mean "
                                                    "stabilized_table4? (choose one of distributed_fig3, "),
    (REPORT + ("experiment=nope",), "experiment=nope is not valid: choose one of"),
    (REPORT + ("experiment=stabilized_table44",), "experiment=stabilized_table44 is not valid: did you mean "
                                                  "stabilized_table4?"),
    (ESTIMATE + ("experiment=selective_tabel3",), "did you mean selective_table3?"),
    (("-m", "experiments.catalog", "stabilized-table44"), "no experiment stabilized-table44: did you mean "
                                                          "stabilized-table4? (choose among distributed-fig3, "),
    (REPORT + ("scale=quick",), "no experiment given: add experiment=NAME, one of"),
    (ESTIMATE + ("experiment=stabilized_table4", "P=x"), "P=x"),
    (("-m", "analysis.claims.campaign_fit", "scale=papr"), "scale=papr is not valid"),
    # a store that cannot be written or holds no whole run
    (RUN + ("outputs_dir={tmp}/a_file",), "a_file to be a folder, and it is a file"),
    (ESTIMATE + ("experiment=stabilized_table4", "outputs_dir={tmp}/a_file"), "a_file to be a folder"),
    (("-m", "experiments.verify", "{tmp}/no_such_run.json"), "neither a run file nor a folder"),
    (REPORT + ("experiment=stabilized_table4", "scale=smoke"), "no run files of stabilized_table4"),
]


@pytest.fixture(scope="module")
def bad_files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("bad")
    for name, text in BAD_FILES.items():
        (folder / name).write_text(text)
    return folder


@pytest.fixture(scope="module")
def one_run(tmp_path_factory):
    """A store holding one whole run file, copied into each case's store."""
    store = tmp_path_factory.mktemp("store")
    done = cli("run.py", "level=1", "N=3", "max_playouts=3", f"outputs_dir={store}")
    assert done.returncode == 0, done.stderr
    return store


def run_files(store):
    return sorted(path.relative_to(store) for path in store.glob("runs/**/*.json"))


def test_the_table_covers_thirty_cases_or_more():
    assert len(CASES) >= 30


@pytest.mark.parametrize("arguments, message", CASES, ids=[" ".join(c[0]) for c in CASES])
def test_bad_input_is_refused_with_status_2_and_its_reason(tmp_path, bad_files, one_run, arguments, message):
    store = tmp_path / "outputs"
    shutil.copytree(one_run, store)
    before = run_files(store)
    arguments = [a.format(tmp=bad_files, out=store) for a in arguments]
    if arguments[0] == "run.py" or arguments[1] in ("analysis.results.report", "experiments.estimate"):
        if not any(a.startswith("outputs_dir=") for a in arguments):
            arguments.append(f"outputs_dir={store}")
    completed = cli(*arguments)
    assert completed.returncode == 2, completed.stderr + completed.stdout
    assert message in completed.stderr
    assert "Traceback" not in completed.stderr + completed.stdout
    assert run_files(store) == before



def choices(names) -> str:
    """Every name, sorted, as the messages list them (the registry's, never a copy of it)."""
    return "choose one of " + ", ".join(sorted(names))


@pytest.mark.algorithms
@pytest.mark.parametrize("argument, message", [
    ("algo=snrpaa", "algo=snrpaa is not valid: did you mean snrpa? ({algorithms})"),
    ("algo=foo", "algo=foo is not valid: {algorithms}"),
    ("domain=chess", "domain=chess is not valid: {domains}"),
], ids=["algo=snrpaa", "algo=foo", "domain=chess"])
def test_an_unknown_group_choice_lists_every_registered_one(tmp_path, argument, message):
    """The message names every algorithm (domain) of the registry in order: one registered
    without its conf/algo (conf/domain) file, or a file of none, shows here."""
    refused = cli("run.py", argument, f"outputs_dir={tmp_path}")
    assert refused.returncode == 2
    expected = message.format(algorithms=choices(ALGORITHMS), domains=choices(DOMAINS))
    assert refused.stderr.strip() == f"error: {expected}"


@pytest.mark.algorithms
def test_did_you_mean_gives_the_closest_choice_then_every_choice():
    algorithms = sorted(ALGORITHMS)
    listed = choices(algorithms)
    assert did_you_mean("snrpaa", algorithms) == f"did you mean snrpa? ({listed})"
    assert did_you_mean("SNRPA", algorithms) == f"did you mean snrpa? ({listed})"  # case ignored
    assert did_you_mean("chess", algorithms) == listed  # nothing close: the list alone
    assert did_you_mean(3, [1, 2, 3.5], "valid are") == "valid are 1, 2, 3.5"


@pytest.mark.parametrize("argument", ["experiment=stabilized_table44", "domain=chess", "algo=snrpaa"])
def test_a_mistyped_group_option_is_one_line_naming_only_what_a_user_can_choose(tmp_path, argument):
    refused = cli("run.py", argument, f"outputs_dir={tmp_path}")
    assert refused.returncode == 2
    assert len(refused.stderr.strip().splitlines()) == 1, refused.stderr
    assert "_distributed" not in refused.stderr and "_schema" not in refused.stderr
