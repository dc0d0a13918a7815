"""The best certificate ever found per problem instance (a SameGame board, ...).

One small JSON file per instance, ``outputs/leaderboard/<key>.json``. A run's certificate
replaces it only when it scores more *and* replays to that score with the domain's
plain-Python rules; every finished run is offered as it is written. The playout rule does
not matter here: a certificate is a legal game whatever rule found it.

    python -m experiments.leaderboard     # offer every run file in the store (e.g. older runs)
                                          # and every archived run without a file
"""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

from experiments.machine import StarvedRule
from experiments.runs import verify_record
from experiments.run_file import DamagedFile, read_json
from experiments.store import PROJECT_ROOT, RunStore, set_aside, write_json
from experiments.valid_runs import counted_archived_runs, judge, read_and_judge
from nrpa.domains.registry import MissingInstance, replay_domain
from nrpa.errors import InputError


class Leaderboard:
    def __init__(self, outputs_root: str | Path):
        self.root = Path(outputs_root) / "leaderboard"

    def path(self, key: str) -> Path:
        return self.root / f"{key}.json"

    def best(self, key: str) -> dict | None:
        """The entry for ``key``; None when there is none or it is damaged (then moved aside)."""
        path = self.path(key)
        if not path.exists():
            return None
        try:
            entry = read_json(path, kind="leaderboard entry")
            if not isinstance(entry.get("score"), (int, float)) or not isinstance(entry.get("certificate"), dict):
                raise DamagedFile(path, "lacks its score or certificate", kind="leaderboard entry")
            return entry
        except DamagedFile as damage:
            set_aside(damage, "the next verified run for it takes its place")
            return None

    def offer(self, record: dict) -> bool:
        """Keep ``record``'s certificate if it beats the entry and verifies; say whether. A
        record whose instance file is gone (and not kept: nrpa.domains.registry.replay_domain)
        is named on stderr and not kept; a starved run (its machine section says other processes
        took its cores) is never kept: its readers set such runs aside before they are offered,
        and this holds for any caller."""
        if judge(record, StarvedRule()) is not None:  # no result (experiments/valid_runs.py)
            return False
        kept = record.get("domain_info", {}).get("instance_file")
        try:
            key = replay_domain(record["config"]["domain"], kept)[0].leaderboard_key()
        except MissingInstance as missing:
            print(f"run {record['run_id']} not offered to the leaderboard: {missing}", file=sys.stderr)
            return False
        score = float(record["certificate"]["score"])
        current = self.best(key)
        if current is not None and current["score"] >= score:
            return False
        verified, message = verify_record(record)
        if not verified:
            return False
        write_json(self.path(key), {
            "key": key,
            "score": score,
            "verified": f"certificate {message} with the plain-Python rules",
            "certificate": record["certificate"],
            "run_id": record["run_id"],
            "config": record["config"],
            "code_version": record["code_version"],
            "found_at": record["finished_at"],
            # the instance as the run read it, so that the records page replays it after the file moves
            **({"instance_file": kept} if kept else {}),
        })
        return True


def main() -> int:
    store, rule = RunStore(PROJECT_ROOT / "outputs"), StarvedRule()
    board = Leaderboard(store.root)
    files = store.run_files()
    with_files = {path.stem for path in files}
    # The archived runs too: in a fresh clone they are the only runs, and the board starts from them.
    records = itertools.chain((run.record for run in read_and_judge(store, files, rule)),
                              (record for record in counted_archived_runs(store, rule)
                               if record["run_id"] not in with_files))
    try:
        improved = sum(board.offer(record) for record in records if record is not None)
    except InputError as error:  # a damaged archive pack
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(f"{improved} improvement(s) kept under {board.root}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
