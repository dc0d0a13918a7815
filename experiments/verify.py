"""Re-verify run files: replay each certificate with the domain's plain-Python rules
(independent of the numba kernels) and check that it scores what the file claims.

    python -m experiments.verify                 # every run file under outputs/, every archived run
    python -m experiments.verify path/to/run.json other/dir archive/runs-v1-....parquet
    python -m experiments.verify --show path/to/run.json   # and print the certificate
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from experiments.archive import PACK_SUFFIX, pack_paths, verify_packs
from experiments.runs import verify_files
from experiments.store import PROJECT_ROOT, RunStore, default_archive_dir, load_run_file
from nrpa.domains.registry import make_domain


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
    verified = verify_files(paths)
    archived, checked = verify_packs(packs)
    failures = len(paths) + checked - len(verified) - len(archived)
    if arguments.show:
        for label, record in [(str(path), load_run_file(path)) for path in verified] + archived:
            domain = make_domain(record["config"]["domain"])
            print(f"\n{label} ({record['domain_info']['instance']}, score {record['certificate']['score']:g}):")
            print(domain.print_certificate(record["certificate"]["moves"]))
    summary = f"{len(verified) + len(archived)} verified, {failures} failed"
    if packs:
        summary += f" ({checked} archived run(s) checked from {len(packs)} pack(s), {len(archived)} verified)"
    print(summary)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
