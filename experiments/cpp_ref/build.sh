#!/usr/bin/env bash
# Build the C++ reference engine (github.com/bnegreve/nrpa, the Distributed NRPA paper's code:
# T. Cazenave's SameGame under B. Negrevergne's NRPA) with the harness's instrument.patch, beside
# this script: three missing `return`s fixed and a rollout's score kept as a double (the framework
# truncated it to an int: docs/reference/cpp-reference.md); SNRPA(P) at level 1 (--playouts-per-step); the
# SameGame playout rules none, tabu and selective t (--rule, --threshold); budgets in CPU-seconds
# or playouts; work checkpoints and best scores written to an event file (src/instrument.hpp);
# "PLAYOUTS n CPU s" on standard error at exit; the repository's other domains as the harness
# reads them (src/test/: bus.cpp with the selective rule of Cazenave 2016, ws.cpp with K at run time
# and both playout rules, maximum.cpp, tsptw.cpp with every customer a move). docs/reference/
# cpp-reference.md says what each does. Builds src/same, src/test/{bus,ws,maximum,tsptw}.
# Usage: build.sh REFERENCE OUT_DIR
#   REFERENCE: a checkout or mirror of it (git clone https://github.com/bnegreve/nrpa)
#   OUT_DIR:   a folder to clone it into and build in (emptied first)
# Prints the path of the built `same` binary as its last line. Needs git, make and g++.
set -euo pipefail
if [ $# -ne 2 ]; then echo "usage: $0 REFERENCE OUT_DIR" >&2; exit 2; fi
src=$1; out=$(mkdir -p "$2" && cd "$2" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$out"; git clone -q "$src" "$out"
cd "$out" && git apply --whitespace=nowarn "$here/instrument.patch"
if ! { make -C src same nrpa.o && make -C src/test bus ws maximum tsptw; } >build.log 2>&1; then
  echo "the build failed: $out/build.log says why (g++ and make are needed)" >&2; exit 1
fi
# what the runs record of the engine that made them: the reference's commit and the patch's hash
{ echo "reference_commit $(git rev-parse HEAD)"; echo "patch_sha256 $(sha256sum "$here/instrument.patch" | cut -d' ' -f1)"; } > "$out/BUILD_INFO"
echo "$out/src/same"
