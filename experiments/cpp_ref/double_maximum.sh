#!/usr/bin/env bash
# A variant of a built reference engine whose Maximum problem values expressions in double, not in
# the authors' C float: the experiment that tells whether the arithmetic is what makes the
# reference's search differ from ours on the Maximum problem (docs/reference/cpp-reference.md).
# Usage: double_maximum.sh BUILD_DIR
#   BUILD_DIR: a folder experiments/cpp_ref/build.sh built (a copy apart from build/cpp-ref, e.g.
#   build/cpp-ref-double); its src/test/maximum is rebuilt and BUILD_INFO says so, so that every
#   run of it records the variant (reference_engine.build_info).
# Then: NRPA_CPP_REF=BUILD_DIR python -m experiments.reference_runs stabilized_table1 --playouts 65536 \
#         --runs 66 --folder archive/reference/maximum-double
set -euo pipefail
if [ $# -ne 1 ]; then echo "usage: $0 BUILD_DIR" >&2; exit 2; fi
source=$1/src/test/maximum.cpp
# the three declarations that make the value single precision: evalStack's children and result,
# its return type, and score()'s local (each must be found once)
for line in 'float evalChildren \[MaxChildren\], result = 0.0;' '  float evalStack (int & depth) {' '    float score = evalStack (depth);'; do
  if [ "$(grep -c -F "$(echo "$line" | sed 's/\\//g')" "$source")" != 1 ]; then
    echo "$source: expected once: $line" >&2; exit 1
  fi
done
sed -i 's/float evalChildren \[MaxChildren\], result = 0.0;/double evalChildren [MaxChildren], result = 0.0;/;
        s/^  float evalStack (int & depth) {/  double evalStack (int \& depth) {/;
        s/^    float score = evalStack (depth);/    double score = evalStack (depth);/' "$source"
make -C "$1/src/test" maximum >> "$1/build.log" 2>&1
echo "variant src/test/maximum.cpp evaluates in double (experiments/cpp_ref/double_maximum.sh)" >> "$1/BUILD_INFO"
