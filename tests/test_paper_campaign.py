"""The paper-scale campaign (experiments/paper_campaign.py): its accounting, its budget's
syntax, one campaign at a time, and a campaign that resumes where it stopped."""

import fcntl
from pathlib import Path

import pytest

from experiments import paper_campaign
from experiments.paper_campaign import Column, parse_hours, status_lines
from nrpa.errors import InputError


def test_the_status_counts_runs_and_prices_the_missing_ones_at_each_columns_median():
    columns = [Column("t", "A", 3, 5, [10.0, 20.0, 30.0]),  # 2 missing at 20 s
               Column("t", "B", 0, 5, [])]                   # 5 missing at the table's median, 20 s
    lines = status_lines({"t": columns}, cores=2)
    assert lines[0] == "t: 3 of 10 runs (fewest in a column: 0), 0.02 CPU-h held, 0.0 CPU-h to go"
    # (2 + 5) x 20 s = 140 s = 0.039 CPU-h, half of it on 2 cores
    assert lines[-1] == "to finish: about 0.0 CPU-h, 0.0 h on 2 cores"
    assert Column("t", "A", 3, 5, [10.0, 20.0, 30.0]).missing == 2
    assert Column("t", "A", 7, 5, [1.0] * 7).missing == 0


@pytest.mark.parametrize("text, hours", [("6h", 6.0), ("90m", 1.5), ("2.5", 2.5)])
def test_a_budget_is_hours_or_minutes(text, hours):
    assert parse_hours(text) == hours


def test_a_budget_that_is_not_a_duration_is_refused_before_any_work():
    with pytest.raises(InputError, match="--budget 'six': CPU-hours as 6h, 90m or 6"):
        parse_hours("six")


def test_a_second_campaign_beside_a_running_one_is_refused(tmp_path, capsys):
    outputs = tmp_path / "outputs"
    outputs.mkdir()
    with open(outputs / ".campaign.lock", "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        with pytest.raises(SystemExit):
            paper_campaign.main([f"outputs_dir={outputs}"])
    assert "a campaign is running already" in capsys.readouterr().err


@pytest.mark.slow  # 8 runs of Selective Table 3's columns at matched time, a few seconds each
def test_a_campaign_makes_what_is_missing_packs_it_and_a_second_start_makes_nothing(tmp_path, monkeypatch, capsys):
    archive = tmp_path / "archive"
    archive.mkdir()
    monkeypatch.setenv("NRPA_ARCHIVE", str(archive))
    monkeypatch.setattr(paper_campaign, "QUEUE", (("selective_table3", 2),))
    monkeypatch.setattr(paper_campaign, "STEP", 1)
    outputs = tmp_path / "outputs"
    assert paper_campaign.main([f"outputs_dir={outputs}", "backend.n_jobs=2"]) == 0
    first = capsys.readouterr().out
    assert "every column to 1 runs" in first and "every column to 2 runs" in first
    assert len(list(archive.glob("runs-v1-*.parquet"))) == 2  # a pack after each step
    assert "selective_table3: 8 of 8 runs" in first.splitlines()[-2]
    assert paper_campaign.main([f"outputs_dir={outputs}", "backend.n_jobs=2"]) == 0
    again = capsys.readouterr().out
    assert "every column to" not in again and len(list(archive.glob("runs-v1-*.parquet"))) == 2


def test_a_sweep_budgeted_in_playouts_is_priced_at_its_columns_stored_runs():
    from types import SimpleNamespace

    from experiments.estimate import cost
    from experiments.machine import StarvedRule

    def variant(name, max_time, stored_seconds, repeats=4):
        settings = SimpleNamespace(max_time=max_time, max_playouts=None if max_time else 1000)
        return SimpleNamespace(name=name, repeats=repeats, root=1, job=SimpleNamespace(settings=settings),
                               stored=[{"result": {"cpu_seconds": s}} for s in stored_seconds])

    def experiment(*variants):
        # a store that holds the stored runs as files, and no archive
        paths = {Path(v.name, f"{r}.json"): (v.stored[r] if r < len(v.stored) else None)
                 for v in variants for r in range(v.repeats)}
        return SimpleNamespace(variants=variants, backend={"n_jobs": 2},
                               run_paths=lambda v: [Path(v.name, f"{r}.json") for r in range(v.repeats)],
                               starved_rule=StarvedRule(),
                               store=SimpleNamespace(read_file=lambda path: (paths.get(path), None),
                                                     archived=lambda path: None,
                                                     starved_copy_exists=lambda path: False))

    # 2 runs missing at the median of 10, 20, 60 s; 4 missing of a time-budgeted column at 5 s each
    priced = cost(experiment(variant("A", None, [10.0, 20.0, 60.0], repeats=5), variant("B", 5.0, [])))
    assert priced == (9, 6, 2 * 20.0 + 4 * 5.0, 2)
    # a column budgeted in playouts with runs to make and none stored: no price
    assert cost(experiment(variant("A", None, [])))[2] is None
    # every run stored: nothing to pay, whatever the budget
    assert cost(experiment(variant("A", None, [1.0] * 4)))[2] == 0.0
