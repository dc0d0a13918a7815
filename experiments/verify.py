"""Re-verify run files: replay each certificate with the domain's plain-Python rules
(independent of the numba kernels) and check that it scores what the file claims.

    python -m experiments.verify                 # every run file under outputs/, every archived run
    python -m experiments.verify path/to/run.json other/dir archive/runs-v1-....parquet
    python -m experiments.verify --show path/to/run.json   # and print the certificate

A record whose instance file (a board or instance file of the user's) is gone or changed,
and which keeps no copy of it, cannot be replayed: its line starts SKIP and says why, and it
is counted apart. It does not fail the check (a missing input is not a wrong certificate):
the exit status is 1 only when a certificate does not replay to its score or a file is
damaged. A record replays on the copy of its file it keeps, or on a moved file found by its
SHA-256 in a folder $NRPA_INSTANCES names (nrpa.domains.registry.replay_domain).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from experiments.archive import verify_packs
from experiments.packs import PACK_SUFFIX, pack_paths
from experiments.runs import verify_files
from experiments.run_file import load_run_file
from experiments.store import PROJECT_ROOT, RunStore, default_archive_dir
from nrpa.domains.registry import replay_domain


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="*", type=Path,
                        help="run files, archive packs or folders of either (default: outputs/ and the archive)")
    parser.add_argument("--show", action="store_true",
                        help="print each certificate in its domain's format (a SameGame click, a "
                             "Weak Schur part, ... per line)")
    arguments = parser.parse_args(argv)
    paths, packs = [], []
    # With no paths: the store's files and every archived run (the archive outlives the store).
    archive = default_archive_dir()
    targets = arguments.paths or [PROJECT_ROOT / "outputs", *([archive] if archive else [])]
    for target in targets:
        if target.is_dir():
            paths += RunStore(target).run_files() or sorted(target.rglob("runs/*/*.json"))
            packs += pack_paths(target)
        elif target.is_file():
            (packs if target.suffix == PACK_SUFFIX else paths).append(target)
        elif arguments.paths:
            print(f"error: {target} is neither a run file nor a folder, nor an archive pack", file=sys.stderr)
            return 2
    if not paths and not packs:
        print("no run files found")
        return 0
    verified, skipped = verify_files(paths)
    archived, checked, skipped_archived = verify_packs(packs)
    skipped += skipped_archived
    failures = len(paths) + checked - len(verified) - len(archived) - skipped
    if arguments.show:
        for label, record in [(str(path), load_run_file(path)) for path in verified] + archived:
            domain, _ = replay_domain(record["config"]["domain"], record["domain_info"].get("instance_file"))
            print(f"\n{label} ({record['domain_info']['instance']}, score {record['certificate']['score']:g}):")
            print(domain.print_certificate(record["certificate"]["moves"]))
    summary = f"{len(verified) + len(archived)} verified, {failures} failed"
    if skipped:
        summary += f", {skipped} not replayed (their instance file is gone or changed: the SKIP lines)"
    if packs:
        summary += f" ({checked} archived run(s) checked from {len(packs)} pack(s), {len(archived)} verified)"
    print(summary)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
