#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Rtl.YosysWireProbeKeepsStructLayout: yosys 0.23 builds the wire-format structs of rtl/noc_pkg.sv
# exactly as SystemVerilog defines them (first member = most significant bits).
#
# docs/sv-subset.md lists struct constructs that yosys silently miscompiles. Verilator's reading of
# noc_pkg is proved equal to the C++ header by wire_format_test.cpp; this script proves, for every
# input value (a SAT proof, not samples), that the yosys netlist of verif/rtl/noc_wire_probe.sv
# packs and unpacks each struct as the concatenation of its members in declaration order, i.e. the
# same bits Verilator gives. It reads rtl/noc_pkg.sv and the probe with `read_verilog -sv
# -noautowire`, runs `proc; check -assert; synth; check -assert`, fails on any yosys warning, and
# then runs one `sat -verify -prove` per conversion. A proof that fails prints the counterexample.
#
# Run once per head layout: NOC_DATA_W 64 (default) and 32 (the compact layout).
#
# Usage: verif/rtl/wire_probe_yosys.sh [rtl-dir] [probe.sv] [yosys-binary] [data-width 64|32]
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
rtl_dir=${1:-$here/../../rtl}
probe=${2:-$here/noc_wire_probe.sv}
yosys=${3:-yosys}
data_w=${4:-64}

# The layout's widths (rtl/noc_pkg.sv, docs/header-format.md): dest, coordinate, coordinate pad.
case "$data_w" in
  64) addr_w=20 coord_w=6 ;;
  32) addr_w=16 coord_w=5 ;;
  *) echo "wire probe: data width $data_w is not a layout; valid: 64, 32" >&2; exit 2 ;;
esac
coords_w=$((3 * coord_w))
pad_w=$((addr_w - coords_w))
pad_zero="${pad_w}'b$(printf '0%.0s' $(seq 1 "$pad_w"))"
all_unused="${addr_w}'h$(printf 'f%.0s' $(seq 1 $((addr_w / 4))))"

# Each line: <signal> <value>, in yosys SigSpec syntax: a,b,c is the concatenation {a, b, c}.
proofs=(
  # head_t: mode, network, vc_class, cf, more, dest, ident (MSB first).
  "head_o mode_i,network_i,vc_class_i,cf_i,more_i,dest_i,ident_i"
  "mode_o,network_o,vc_class_o,cf_o,more_o,dest_o,ident_o head_i"
  # coord_dest: pad, z, y, x; coord_dest_t agrees with the functions.
  "coord_dest_o $pad_zero,coord_z_i,coord_y_i,coord_x_i"
  "coord_z_o,coord_y_o,coord_x_o coord_dest_i[$((coords_w - 1)):0]"
  "coord_struct_agrees_o 1'b1"
  # route_entry_t: deliver, port; route_shift.
  "route_deliver_o,route_port_o route_i[3:0]"
  "route_shift_o 4'b1111,route_i[$((addr_w - 1)):4]"
  # flit_t: head, tail, data.
  "flit_o flit_head_i,flit_tail_i,flit_data_i"
  "flit_head_o,flit_tail_o,flit_data_o flit_i"
)
# Flags that hold under a constraint: "<set signal> <set value> <signal> <value>".
constrained=(
  "coord_dest_i[$((addr_w - 1)):$coords_w] $pad_zero coord_dest_ok_o 1'b1"
  "route_i $all_unused route_used_up_o 1'b1"
)

script="read_verilog -sv -noautowire -DNOC_DATA_W=$data_w $rtl_dir/noc_pkg.sv $probe;
hierarchy -check -top noc_wire_probe; proc; check -assert; synth -top noc_wire_probe; check -assert;"
for proof in "${proofs[@]}"; do
  read -r signal value <<<"$proof"
  script+=" sat -verify -prove $signal $value;"
done
for proof in "${constrained[@]}"; do
  read -r set_signal set_value signal value <<<"$proof"
  script+=" sat -verify -set $set_signal $set_value -prove $signal $value;"
done

log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! "$yosys" -q -l "$log" -p "$script" >/dev/null 2>&1; then
  echo "wire probe: yosys failed (error, undriven wire, or a proof failed)" >&2
  grep -E 'ERROR|Import proof|FAIL|\\[a-z_]+ +[0-9]' "$log" | tail -40 >&2
  exit 1
fi
if grep -E '^Warning:' "$log" >&2; then
  echo "wire probe: yosys warnings" >&2
  exit 1
fi
count=$(grep -c 'SAT proof finished - no model found: SUCCESS' "$log")
expected=$((${#proofs[@]} + ${#constrained[@]}))
if [[ "$count" -ne "$expected" ]]; then
  echo "wire probe: $count of $expected proofs succeeded" >&2
  exit 1
fi
echo "wire probe: yosys netlist keeps the struct layout ($count SAT proofs)"
