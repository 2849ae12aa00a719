#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `make fpga-check`: the placed and routed bitstream against the RTL (docs/fpga.md, "make
# fpga-check"), the bitstream-level version of the router's netlist check.
#
#   1. icebox_vlog turns <out>/wormcast_hx8k.asc (make fpga's placed and routed design) back into
#      Verilog: the chip's LUTs, carries, flip-flops, block RAMs and PLL as configured;
#   2. iverilog simulates it (verif/fpga/placed_tb.v, with a test-only PLL model whose output is the
#      testbench clock) for FPGA_CHECK_CYCLES cycles and writes the UART pin and LEDs whenever they
#      change;
#   3. Verilator simulates the RTL core (fpga/wormcast_hx8k_core.sv with the same ClkHz, and the same
#      noc_selftest source as the bitstream: build.env) the same cycles with the same reset
#      release (verif/fpga/rtl_trace_main.cpp) and writes the same trace;
#   4. the two traces must be identical: the same UART bytes in the same cycles, the same LEDs.
#      The UART bytes are decoded from the trace and the lines printed.
# Exit status 0 when they match, 1 when they differ, 2 when a tool fails.
#
# Usage: verif/fpga/fpga_check.sh [out-dir]   (default build/fpga; make fpga must have run)
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out_dir=${1:-build/fpga}
cycles=${FPGA_CHECK_CYCLES:-400000}
lock_cycles=8
fail() { echo "fpga-check: $*" >&2; exit 2; }
[[ -f "$out_dir/wormcast_hx8k.asc" && -f "$out_dir/build.env" ]] ||
  fail "no placed design in $out_dir (run make fpga first)"
out_dir=$(cd "$out_dir" && pwd)
# shellcheck disable=SC1091
source "$out_dir/build.env"
work=$out_dir/check
mkdir -p "$work"

start=$SECONDS
icebox_vlog -S -c -n wormcast_hx8k_placed -p "$root/fpga/hx8k_breakout.pcf" "$out_dir/wormcast_hx8k.asc" \
  >"$work/placed.v" 2>"$work/icebox_vlog.log" || fail "icebox_vlog failed (log: $work/icebox_vlog.log)"
iverilog -o "$work/placed.vvp" "$here/placed_tb.v" "$work/placed.v" >"$work/iverilog.log" 2>&1 ||
  fail "iverilog failed (log: $work/iverilog.log)"
vlog_s=$((SECONDS - start))

# The RTL reference, built with the core's sources as the bitstream was.
start=$SECONDS
shopt -s nullglob
if [[ "$standin" == 1 ]]; then
  files=()
  for m in reset_sync uart_tx status_line board_status wormcast_hx8k_core; do files+=("$root/fpga/$m.sv"); done
  files+=("$root/verif/fpga/standin/noc_selftest.sv")
else
  files=("$root/rtl/noc_pkg.sv")
  for f in "$root"/rtl/*.sv; do [[ "$f" == */noc_pkg.sv ]] || files+=("$f"); done
  files+=("$root"/fpga/*_pkg.sv)
  for f in "$root"/fpga/*.sv; do
    [[ "$f" == *_pkg.sv || "$f" == */wormcast_hx8k.sv ]] || files+=("$f")
  done
fi
verilator --cc --exe --build -O2 -Wno-fatal -Wno-lint -Wno-style -DNOC_DATA_W=32 -I"$root/rtl" "$root/rtl/noc_lint.vlt" \
  "${files[@]}" "$here/rtl_trace_main.cpp" --top-module wormcast_hx8k_core -GClkHz="$clk_hz" \
  $([[ "$standin" == 1 ]] || echo "-GBufDepth=${bufdepth:-1}") \
  -Mdir "$work/rtl_trace" -o rtl_trace -j 2 >"$work/verilator.log" 2>&1 ||
  fail "verilator failed (log: $work/verilator.log)"
build_s=$((SECONDS - start))

start=$SECONDS
"$work/rtl_trace/rtl_trace" "$cycles" "$lock_cycles" "$work/rtl.trace" || fail "the RTL reference failed"
rtl_s=$((SECONDS - start))
start=$SECONDS
vvp -n "$work/placed.vvp" +CYCLES="$cycles" +LOCK_CYCLES="$lock_cycles" +TRACE="$work/placed.trace" \
  >"$work/vvp.log" 2>&1 || fail "vvp failed (log: $work/vvp.log)"
sim_s=$((SECONDS - start))

# The UART lines of a trace: bytes decoded at the middle of each bit (divisor from ClkHz, 115200).
decode() {
  python3 - "$1" "$clk_hz" <<'PY'
import sys
path, clk_hz = sys.argv[1], int(sys.argv[2])
div = (clk_hz + 57600) // 115200
changes = [(int(c), int(t)) for c, t, _ in (l.split() for l in open(path))]
def level(cycle):
    lv = 1
    for c, t in changes:
        if c > cycle: break
        lv = t
    return lv
text, i = "", 0
falls = [c for (c, t), (pc, pt) in zip(changes[1:], changes) if t == 0 and pt == 1]
next_free = 0
for f in falls:
    if f < next_free: continue
    if level(f + div // 2) != 0: continue
    byte = sum(level(f + div // 2 + div * (b + 1)) << b for b in range(8))
    text += chr(byte)
    next_free = f + div // 2 + div * 9
text = text.replace("\r", "")
sys.stdout.write(text if text.endswith("\n") or not text else text + " (cut at the last cycle)\n")
PY
}

echo "fpga-check: $cycles cycles of the placed design (icebox_vlog + iverilog) against the RTL core (Verilator)," \
  "ClkHz $clk_hz$([[ "$standin" == 1 ]] && echo ", FLOW TEST with the test-only counter stand-in")"
decode "$work/placed.trace" | sed "s/^/  uart: /"
echo "fpga-check: icebox_vlog + iverilog compile ${vlog_s} s, RTL build ${build_s} s, RTL run ${rtl_s} s, placed-design simulation ${sim_s} s"
if cmp -s "$work/rtl.trace" "$work/placed.trace"; then
  echo "fpga-check: MATCH: the same UART bytes and LEDs in every cycle ($(wc -l <"$work/rtl.trace") changes)"
  exit 0
fi
echo "fpga-check: MISMATCH (first differences; traces in $work):"
diff "$work/rtl.trace" "$work/placed.trace" | head -10
exit 1
