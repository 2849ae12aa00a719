#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Where `make test`'s time goes (docs/verification.md, "Where the test time goes"): configures the
# default preset in a fresh scratch folder without ccache, builds it with every compile and link
# through scripts/cpu_launcher.sh, runs every test through scripts/test_cpu_times.py, and writes
# the decomposition (configure, build per library and translation unit, tests per label and test)
# with the estimate for an idle 2-core machine to docs/results/test-time.md. CPU time, not wall
# time, is what it adds up, so a busy machine changes the figures little; everything runs at
# nice $MEASURE_NICE (19 by default).
#
#   scripts/measure_test_time.sh <scratch folder, must not exist> [jobs, default 2]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: $0 <scratch folder, must not exist> [jobs]" >&2
  exit 2
fi
out=$1
jobs=${2:-2}
if [ -e "$out" ]; then
  echo "measure_test_time: '$out' exists; give a folder that does not (the build must be fresh)" >&2
  exit 2
fi
if ! [[ $jobs =~ ^[1-9][0-9]*$ ]]; then
  echo "measure_test_time: jobs '$jobs' is not a whole number >= 1" >&2
  exit 2
fi
if [ ! -x /usr/bin/time ]; then
  echo "measure_test_time: needs /usr/bin/time (Debian package time)" >&2
  exit 2
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
commit=$(git -C "$root" rev-parse --short HEAD)  # the commit measured, whatever HEAD is at the end
export CPU_LOG=$out/cpu.log CCACHE_DISABLE=1
niceness=${MEASURE_NICE:-19}
timed() { local name=$1; shift; /usr/bin/time -f '%e %U %S' -o "$out/$name.time" nice -n "$niceness" "$@" > "$out/$name.log" 2>&1; }
cd "$root"
timed configure cmake --preset default -B "$out/build" -DCMAKE_CXX_COMPILER_LAUNCHER="$root/scripts/cpu_launcher.sh" \
  -DCMAKE_CXX_LINKER_LAUNCHER="$root/scripts/cpu_launcher.sh"
timed build cmake --build "$out/build" -j "$jobs"
status=0
timed test scripts/test_cpu_times.py "$out/build" "$out/tests.tsv" -j "$jobs" || status=$?
scripts/test_time_report.py "$out" "$commit" > docs/results/test-time.md
cat docs/results/test-time.md
exit $status
