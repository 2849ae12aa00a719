#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A compiler and linker launcher (CMAKE_CXX_COMPILER_LAUNCHER, CMAKE_CXX_LINKER_LAUNCHER) that runs
# the command and appends "<user+system s> <user s> <system s> <output file>" to $CPU_LOG: the CPU
# time of each translation unit and link, which a busy machine inflates far less than wall time.
# Used by scripts/measure_test_time.sh.
"$@"
status=$?
# `times` as a builtin in this shell (not a subshell, which would have no children): its second
# line is the children's user and system time, as 1m2.345s.
times_file=$(mktemp)
times > "$times_file"
read -r child_user child_system < <(sed -n 2p "$times_file")
rm -f "$times_file"
output=unknown
previous=
for argument in "$@"; do
  if [ "$previous" = "-o" ]; then output=$argument; fi
  previous=$argument
done
awk -v u="$child_user" -v s="$child_system" -v out="$output" 'function seconds(t) { split(t, p, "m"); return p[1] * 60 + substr(p[2], 1, length(p[2]) - 1) }
  BEGIN { printf "%.3f %.3f %.3f %s\n", seconds(u) + seconds(s), seconds(u), seconds(s), out }' >> "${CPU_LOG:?CPU_LOG must name the log file}"
exit $status
