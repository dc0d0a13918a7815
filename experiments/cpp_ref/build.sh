#!/usr/bin/env bash
# Build the C++ reference of `make bench-cpp` (github.com/bnegreve/nrpa, the Distributed NRPA
# paper's code) with three missing `return`s fixed and a playout counter printed at exit
# ("PLAYOUTS n CPU s" on standard error): counter-and-returns.patch, beside this script.
# Usage: build.sh REFERENCE OUT_DIR
#   REFERENCE: a checkout or mirror of it (git clone https://github.com/bnegreve/nrpa)
#   OUT_DIR:   a folder to clone it into and build in (emptied first)
# Prints the path of the built `same` binary as its last line. Needs git, make and g++.
set -euo pipefail
if [ $# -ne 2 ]; then echo "usage: $0 REFERENCE OUT_DIR" >&2; exit 2; fi
src=$1; out=$2
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$out"; git clone -q "$src" "$out"
cd "$out" && git apply --whitespace=nowarn "$here/counter-and-returns.patch" && make -C src same >/dev/null 2>&1
echo "$out/src/same"
