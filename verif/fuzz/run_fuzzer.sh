#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs one libFuzzer target of verif/fuzz/ from its seed corpus, with its dictionary, into a fresh
# work folder: WORK/corpus gets the inputs the run found new (the seed corpus stays as it is),
# WORK/artifacts the input of a crash, a timeout or a sanitizer report, with the command to rerun it.
# Exit status 0 when the run found nothing, else libFuzzer's.
#
# Usage: verif/fuzz/run_fuzzer.sh FUZZER WORK [libFuzzer options: -runs=N, -max_total_time=S, -seed=N]
set -euo pipefail

if [[ $# -lt 2 ]]; then
  echo "run_fuzzer: usage: run_fuzzer.sh FUZZER WORK [libFuzzer options]" >&2
  exit 2
fi
fuzzer=$1
work=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
name=$(basename "$fuzzer" _fuzzer)
if [[ ! -d "$here/corpus/$name" ]]; then
  echo "run_fuzzer: no seed corpus $here/corpus/$name for '$fuzzer'; fuzzers: topology, request_file, command_line" >&2
  exit 2
fi

rm -rf "$work"
mkdir -p "$work/corpus" "$work/artifacts"
# Absolute: the command-line fuzzer runs its inputs in a temporary folder of its own.
work=$(cd "$work" && pwd)
# -close_fd_mask=3: the commands' own output (help, plans, error lines) stays out of the log;
# libFuzzer and the sanitizers still report on their own copy of stderr.
status=0
"$fuzzer" -dict="$here/$name.dict" -max_len=1024 -timeout=10 -close_fd_mask=3 -print_final_stats=1 \
  -artifact_prefix="$work/artifacts/" "$@" "$work/corpus" "$here/corpus/$name" || status=$?
for artifact in "$work"/artifacts/*; do
  [[ -e "$artifact" ]] || continue
  echo "run_fuzzer: finding $artifact; rerun: $fuzzer $artifact"
  od -c "$artifact" | head -20
done
exit "$status"
