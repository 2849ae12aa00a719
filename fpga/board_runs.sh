#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `wormcast run --backend fpga-sim` on the verilated board top (docs/host-link.md, "wormcast run on
# the board"): a unicast and broadcasts from node (0,0) of its 2x2 mesh by algorithms of both kinds,
# single-step (every worm leaves the source at once) and multi-step (later sends wait for the
# link), each run's text as the command prints it (delivery cycles, the link's wait, the check),
# written to docs/results/fpga_sim_runs.txt.
# Exits 1 when a run fails its check. About a minute of CPU.
#
# Usage: fpga/board_runs.sh [wormcast binary]   (default build/sim/wormcast)
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
wormcast=${1:-$root/build/sim/wormcast}
out=$root/docs/results/fpga_sim_runs.txt
common=(-t mesh:2x2 -s 0,0 -L 2 --alpha 40 --gamma 30)

status=0
{
  for run in "unicast -d 1,1" "dual-path -d all -p one" "lin -d all -p one" "one-port -d all" "vh -d all" "dds -d all" \
    "rd -d all"; do
    read -r algorithm extra <<<"$run"
    args=(run --backend fpga-sim "${common[@]}" -a "$algorithm")
    # shellcheck disable=SC2206  # the extra options are words
    [ -n "$extra" ] && args+=($extra)
    echo "\$ wormcast ${args[*]}"
    "$wormcast" "${args[@]}" || status=1
    echo
  done
} >"$out"
cat "$out"
exit $status
