"""Re-verify run files: replay each certificate with the domain's plain-Python rules
(independent of the numba kernels) and check that it scores what the file claims.

    python -m experiments.verify                 # every run file under outputs/
    python -m experiments.verify path/to/run.json other/dir
    python -m experiments.verify --show path/to/run.json   # and print the certificate
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from experiments.runs import verify_files
from experiments.store import PROJECT_ROOT, RunStore
from nrpa.domains.registry import make_domain


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="*", type=Path, help="run files or folders (default: outputs/)")
    parser.add_argument("--show", action="store_true",
                        help="print each certificate in its domain's format (a SameGame click, a "
                             "Weak Schur part, ... per line)")
    arguments = parser.parse_args(argv)
    paths = []
    for target in arguments.paths or [PROJECT_ROOT / "outputs"]:
        if target.is_dir():
            paths += RunStore(target).run_files() or sorted(target.rglob("runs/*/*.json"))
        elif target.is_file():
            paths.append(target)
        else:
            print(f"error: {target} is neither a run file nor a folder", file=sys.stderr)
            return 2
    if not paths:
        print("no run files found")
        return 0
    verified = verify_files(paths)
    failures = len(paths) - len(verified)
    if arguments.show:
        for path in verified:
            record = RunStore(path.parent).load(path)
            domain = make_domain(record["config"]["domain"])
            print(f"\n{path} ({record['domain_info']['instance']}, score {record['certificate']['score']:g}):")
            print(domain.print_certificate(record["certificate"]["moves"]))
    print(f"{len(paths) - failures} verified, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
