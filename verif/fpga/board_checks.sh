#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Fpga.BoardPartsLintAndSynthClean: the board's own modules (fpga/reset_sync.sv, uart_tx.sv,
# status_line.sv, board_status.sv; wormcast_hx8k_core.sv around the test-only stand-in of the network) pass
# `verilator --lint-only -Wall --assert` with no output, and yosys 0.23 synthesizes each of the four
# cells (`read_verilog -sv -noautowire`, `check -assert` after proc and after synth: no latches, no
# undriven wires) and reports its iCE40 LUT4 and flip-flop counts. The network's own modules and the
# board top (SB_PLL40_CORE) are checked by make fpga's synthesis.
#
# Usage: verif/fpga/board_checks.sh <repo-root> [verilator] [yosys]
set -uo pipefail
root=${1:?repo root}
verilator=${2:-verilator}
yosys=${3:-yosys}
status=0
for m in reset_sync uart_tx status_line board_status wormcast_hx8k_core; do
  out=$("$verilator" --lint-only -Wall --assert -I"$root/rtl" "$root/rtl/noc_lint.vlt" -y "$root/verif/fpga/standin" \
    -y "$root/fpga" "$root/fpga/$m.sv" --top-module "$m" 2>&1)
  if [[ -n "$out" ]]; then
    echo "lint: $m FAILED"; echo "$out" | sed 's/^/  /'; status=1
  else
    echo "lint: $m clean"
  fi
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for m in reset_sync uart_tx status_line board_status; do
  sources="$root/fpga/$m.sv"
  [[ $m == board_status ]] && sources="$root/fpga/status_line.sv $root/fpga/uart_tx.sv $sources"
  if "$yosys" -q -l "$tmp/$m.log" -p "read_verilog -sv -noautowire -I$root/rtl $sources;
hierarchy -check -top $m; proc; check -assert; synth_ice40 -top $m; check -assert; tee -q -o $tmp/$m.stat stat" \
    >/dev/null 2>&1 && ! grep -qE 'Latch inferred|^Warning:' "$tmp/$m.log"; then
    echo "yosys: $m clean, iCE40 $(awk '$1 == "SB_LUT4" { l = $2 } $1 ~ /^SB_DFF/ { f += $2 } END { print l + 0 " LUT4, " f + 0 " FF" }' "$tmp/$m.stat")"
  else
    echo "yosys: $m FAILED"; grep -E 'ERROR|Latch inferred|^Warning:' "$tmp/$m.log" | head -5 | sed 's/^/  /'; status=1
  fi
done
exit $status
