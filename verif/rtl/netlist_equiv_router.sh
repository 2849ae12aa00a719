#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Synthesizes noc_router with yosys into a flat gate netlist, replays on it in iverilog the cycles
# recorded from the Verilator RTL model (netlist_tb_router.v), and fails unless every output matched
# in every compared cycle (docs/rtl.md, "Router netlist versus RTL"; rtl-subset.md, "Equivalence by
# simulation"). The netlist is kept in <work dir>/router_netlist.v, the logs next to it.
# Usage: netlist_equiv_router.sh <rtl dir> <testbench> <vectors> <cycles> <work dir> <yosys> <iverilog> <vvp>
#        <NumNetPorts> <NumLocal> <NumVcs> <BufDepth>
set -euo pipefail
if [[ $# -ne 12 ]]; then
  echo "usage: $0 <rtl dir> <testbench> <vectors> <cycles> <work dir> <yosys> <iverilog> <vvp>" \
    "<NumNetPorts> <NumLocal> <NumVcs> <BufDepth> (got $# arguments)" >&2
  exit 2
fi
rtl=$1 tb=$2 vectors=$3 cycles=$4 work=$5 yosys=$6 iverilog=$7 vvp=$8
net_ports=$9 local_pairs=${10} vcs=${11} depth=${12}
mkdir -p "$work"

packages=("$rtl"/*_pkg.sv)
modules=()
for f in "$rtl"/*.sv; do
  [[ "$f" == *_pkg.sv ]] || modules+=("$f")
done

# `rename -top`: yosys 0.23 may leave a chparam'd top as `$paramod...` (docs/rtl.md, tool notes).
# `check -assert` before writing: an undriven wire would otherwise become a constant in the netlist.
"$yosys" -q -l "$work/router_yosys.log" -p "read_verilog -sv -noautowire -I$rtl ${packages[*]} ${modules[*]}; \
  chparam -set NumNetPorts $net_ports -set NumLocal $local_pairs -set NumVcs $vcs -set BufDepth $depth noc_router; \
  hierarchy -check -top noc_router; rename -top noc_router; synth -flatten -top noc_router; check -assert; \
  setundef -zero -init; write_verilog -noattr $work/router_netlist.v"

"$iverilog" -g2005 -o "$work/router_netlist_sim" -s netlist_tb_router \
  -Pnetlist_tb_router.NumNetPorts="$net_ports" -Pnetlist_tb_router.NumLocal="$local_pairs" \
  -Pnetlist_tb_router.NumVcs="$vcs" -Pnetlist_tb_router.VECTORS="\"$vectors\"" "$tb" "$work/router_netlist.v"
"$vvp" -n "$work/router_netlist_sim" | tee "$work/router_netlist_sim.log"
grep -qE "^netlist cycles $cycles compared [0-9]+ mismatches 0\$" "$work/router_netlist_sim.log"
