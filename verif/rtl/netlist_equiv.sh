#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Synthesizes noc_route_compute (NumPorts = 6) with yosys into a gate netlist, simulates the netlist
# with iverilog on vectors recorded from the Verilator RTL model, and fails unless every output
# matches (docs/sv-subset.md: "Equivalence by simulation"; iverilog, not Verilator, simulates yosys
# gate netlists faithfully).
# Usage: netlist_equiv.sh <rtl dir> <testbench> <vectors.hex> <vector count> <work dir> <yosys> <iverilog> <vvp>
set -euo pipefail
rtl=$1 tb=$2 vectors=$3 count=$4 work=$5 yosys=$6 iverilog=$7 vvp=$8
mkdir -p "$work"

packages=("$rtl"/*_pkg.sv)
modules=()
for f in "$rtl"/*.sv; do
  [[ "$f" == *_pkg.sv ]] || modules+=("$f")
done

"$yosys" -q -l "$work/yosys.log" -p "read_verilog -sv -noautowire -I$rtl ${packages[*]} ${modules[*]}; \
  chparam -set NumPorts 6 noc_route_compute; synth -top noc_route_compute; check -assert; \
  setundef -zero -init; write_verilog -noattr $work/netlist.v"

"$iverilog" -g2005 -o "$work/netlist_sim" -s netlist_tb_route_compute \
  -Pnetlist_tb_route_compute.N="$count" -Pnetlist_tb_route_compute.VECTORS="\"$vectors\"" "$tb" "$work/netlist.v"
"$vvp" -n "$work/netlist_sim" | tee "$work/netlist_sim.log"
grep -q "^netlist mismatches 0 of $count\$" "$work/netlist_sim.log"
