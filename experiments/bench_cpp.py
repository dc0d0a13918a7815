"""This engine beside the C++ reference (`make bench-cpp CPP_REF=...`): playouts per CPU-second
of NRPA level 4, N = 100, one thread, on SameGame board 1.

The reference is the code of the Distributed NRPA paper (github.com/bnegreve/nrpa, src/same.cpp,
T. Cazenave's SameGame under B. Negrevergne's NRPA). This project does not hold that code: get it
with `git clone https://github.com/bnegreve/nrpa`, then `make bench-cpp CPP_REF=nrpa` (the clone's
folder). experiments/cpp_ref/build.sh builds it (g++, with the harness's experiments/cpp_ref/instrument.patch:
three missing `return`s fixed, a playout counter, and what docs/reference/cpp-reference.md lists,
none of it used here but the counter); --build-script or the
environment variable CPP_REF_BUILD name another script, called as `SCRIPT REFERENCE OUT_DIR`; it
must print the path of the built `same` binary as its last line, and that binary must print
"PLAYOUTS n CPU s" on standard error at exit (n playouts in s CPU-seconds of the process, C's
clock()).

Two workloads, each measured in interleaved pairs of runs (which engine goes first alternates,
so that a drift of the machine's speed does not favour one), each pair's ratio this engine / C++:

* selective t = 10, the C++ code's own playout rule (same.cpp, findMoves: while the tabu colour
  has 2 or more components, single stones included, a group of it is a move only if it has 2
  stones and more than 10 moves have been played, or when nothing else is legal): the rules match, the ratio compares the
  engines;
* tabu (the tabu colour never while it has 2 or more components) against the same C++ binary,
  which has only its one rule: the rules do not match, the ratio is for information only.

The C++ run is `same -r 1 -l 4 -n 100 -x 1 -t SECONDS -a 1 0` in the binary's folder (it reads
problems.txt from the current folder): one run, level 4, N = 100, one thread (-x 0 would take
every core), seed 1, problem 0 (a 0-based index into problems.txt, whose first board is our
board 1). Its timeout -t is in whole seconds of wall-clock time, checked after every playout;
on a loaded machine such a run gets fewer CPU-seconds than SECONDS, which does not bias its
playouts per CPU-second. This engine's run is SECONDS CPU-seconds in this process, its kernels
compiled or loaded first.

    python -m experiments.bench_cpp --reference CPP_REF [--build-script PATH] [--pairs 7] [--seconds 10]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from experiments.bench import playouts_per_cpu_second
from experiments.bench_against import interleaved_ratios, ratio_summary
from experiments.config import exit_on_input_error
from experiments.store import PROJECT_ROOT
from nrpa.domains.registry import SameGameOptions
from nrpa.errors import InputError

DEFAULT_BUILD_SCRIPT = PROJECT_ROOT / "experiments" / "cpp_ref" / "build.sh"
HOW_TO_GET = "a checkout of github.com/bnegreve/nrpa (`git clone https://github.com/bnegreve/nrpa`)"
WORKLOADS = {
    "selective": ("NRPA level 4, selective t = 10 (the C++ code's rule)",
                  SameGameOptions(board="1", policy="selective", threshold=10)),
    "tabu": ("NRPA level 4, tabu here, the C++ code's selective t = 10 there (rules unmatched: "
             "the C++ has only its one rule; for information)", SameGameOptions(board="1", policy="tabu")),
}
CPP_PROBLEM = 0  # same.cpp's 0-based index into problems.txt: its first board, our board "1"
PLAYOUTS_LINE = re.compile(r"^PLAYOUTS (\d+) CPU (\d+(?:\.\d*)?)\s*$", re.MULTILINE)


def check_inputs(reference: str | None, build_script: Path) -> None:
    """InputError naming the first thing missing to build the reference, before any work."""
    if not build_script.is_file():
        raise InputError(f"build script {build_script} not found: give --build-script PATH or set CPP_REF_BUILD")
    if not os.access(build_script, os.X_OK):
        raise InputError(f"build script {build_script} is not executable")
    if not reference:
        raise InputError(f"no C++ reference: give --reference PATH (make bench-cpp CPP_REF=PATH), {HOW_TO_GET}")
    if not Path(reference).is_dir():
        raise InputError(f"--reference {reference}: no such folder; give {HOW_TO_GET}")
    if shutil.which("git") is None:
        raise InputError("git not found on PATH: the build script clones the reference with it")
    # `git cat-file` works in a bare mirror and in a checkout alike
    found = subprocess.run(["git", "-C", reference, "cat-file", "-e", "HEAD:src/same.cpp"], capture_output=True)
    if found.returncode != 0:
        raise InputError(f"--reference {reference} is not a git repository of bnegreve/nrpa (no src/same.cpp "
                         f"at its HEAD): give {HOW_TO_GET}")
    for tool in ("g++", "make"):
        if shutil.which(tool) is None:
            raise InputError(f"{tool} not found on PATH: building the C++ reference needs it")


def build_reference(reference: str, build_script: Path, folder: Path) -> Path:
    """The `same` binary that ``build_script`` builds from ``reference`` under ``folder``."""
    done = subprocess.run([str(build_script), reference, str(folder / "nrpa")], capture_output=True, text=True)
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise InputError(f"build script {build_script} failed (exit status {done.returncode}): {last}")
    lines = done.stdout.strip().splitlines()
    binary = Path(lines[-1]) if lines else None
    if binary is None or not binary.is_file():
        raise InputError(f"build script {build_script} did not print the path of a binary as its last line")
    return binary


def cpp_playouts_per_cpu_second(stderr: str) -> float:
    """n / s from the line "PLAYOUTS n CPU s" that the reference prints on standard error at exit.
    The patched build prints it once per translation unit that includes nrpa.inl (twice, with the
    same n): the first line is read, the nearer to the end of the search (the second adds some
    milliseconds of the process's exit)."""
    match = PLAYOUTS_LINE.search(stderr)
    if match is None or float(match[2]) <= 0:
        raise InputError("the C++ reference printed no \"PLAYOUTS n CPU s\" line (s > 0) on standard error: "
                         "build it with a script that adds the playout counter (experiments/cpp_ref/build.sh does)")
    return int(match[1]) / float(match[2])


def cpp_rate(binary: Path, seconds: int) -> float:
    """Playouts per CPU-second of one run of the reference (see the module's docstring)."""
    command = [str(binary), "-r", "1", "-l", "4", "-n", "100", "-x", "1", "-t", str(seconds), "-a", "1",
               str(CPP_PROBLEM)]
    # the timeout is a safety net only: the run stops itself after ``seconds`` of wall time
    done = subprocess.run(command, cwd=binary.parent, capture_output=True, text=True, timeout=seconds + 120)
    return cpp_playouts_per_cpu_second(done.stderr)


def compare(binary: Path, pairs: int, seconds: int) -> dict[str, list[float]]:
    """Each pair's ratio (this engine / C++) per workload of ``WORKLOADS``, printed as they come."""
    def rate(engine: str, workload: str) -> float:
        if engine == "this":
            return playouts_per_cpu_second(WORKLOADS[workload][1], seconds)
        return cpp_rate(binary, seconds)

    return interleaved_ratios(rate, {workload: words for workload, (words, _) in WORKLOADS.items()}, pairs,
                              ("this engine", "C++"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--reference", default=os.environ.get("CPP_REF"),
                        help="a checkout of github.com/bnegreve/nrpa, from "
                             "`git clone https://github.com/bnegreve/nrpa` (default: $CPP_REF)")
    parser.add_argument("--build-script", type=Path,
                        help=f"the script that builds it (default: $CPP_REF_BUILD, else {DEFAULT_BUILD_SCRIPT})")
    parser.add_argument("--pairs", type=int, default=7, help="interleaved pairs of runs per workload")
    parser.add_argument("--seconds", type=int, default=10,
                        help="seconds per run, whole (the C++ timeout is): CPU-seconds here, wall-seconds for the C++")
    arguments = parser.parse_args()
    build_script = arguments.build_script or Path(os.environ.get("CPP_REF_BUILD") or DEFAULT_BUILD_SCRIPT)
    try:
        if arguments.pairs < 1 or arguments.seconds < 1:
            raise InputError(f"--pairs {arguments.pairs} --seconds {arguments.seconds}: both must be >= 1")
        check_inputs(arguments.reference, build_script)
        with tempfile.TemporaryDirectory() as folder:
            binary = build_reference(arguments.reference, build_script, Path(folder))
            print(f"C++ reference built from {arguments.reference}; SameGame board 1, NRPA level 4, N = 100, "
                  "one thread, playouts per CPU-second", flush=True)
            results = compare(binary, arguments.pairs, arguments.seconds)
    except InputError as error:
        exit_on_input_error(error)
    runs = f"{arguments.seconds} s runs"
    for workload, ratios in results.items():
        print(f"{WORKLOADS[workload][0]}: this engine / C++ {ratio_summary(ratios, runs)}")


if __name__ == "__main__":
    main()
