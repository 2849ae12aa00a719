#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Synthesizes noc_ni with yosys into a flat gate netlist, replays on it in iverilog the cycles
# recorded from the Verilator RTL model (ni_netlist_tb.v), and fails unless every output matched in
# every compared cycle (docs/rtl.md, "Network interface"; rtl-subset.md, "Equivalence by
# simulation"). The netlist is kept in <work dir>/ni_netlist.v, the logs next to it.
# Usage: ni_netlist_equiv.sh <rtl dir> <testbench> <vectors> <cycles> <work dir> <yosys> <iverilog> <vvp>
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

# Only the NI's files: the package, the FIFO and the three NI modules.
files=("$rtl/noc_pkg.sv" "$rtl/noc_fifo.sv" "$rtl/noc_ni_inject.sv" "$rtl/noc_ni_eject.sv" "$rtl/noc_ni.sv")
# `rename -top`: yosys 0.23 may leave a chparam'd top as `$paramod...` (docs/rtl.md, tool notes).
# `check -assert` before writing: an undriven wire would otherwise become a constant in the netlist.
"$yosys" -q -l "$work/ni_yosys.log" -p "read_verilog -sv -noautowire -I$rtl ${files[*]}; \
  chparam -set NumNetPorts $net_ports -set NumLocal $local_pairs -set NumVcs $vcs -set BufDepth $depth noc_ni; \
  hierarchy -check -top noc_ni; rename -top noc_ni; synth -flatten -top noc_ni; check -assert; \
  setundef -zero -init; write_verilog -noattr $work/ni_netlist.v"

"$iverilog" -g2005 -o "$work/ni_netlist_sim" -s ni_netlist_tb \
  -Pni_netlist_tb.NumNetPorts="$net_ports" -Pni_netlist_tb.NumLocal="$local_pairs" \
  -Pni_netlist_tb.NumVcs="$vcs" -Pni_netlist_tb.VECTORS="\"$vectors\"" "$tb" "$work/ni_netlist.v"
"$vvp" -n "$work/ni_netlist_sim" | tee "$work/ni_netlist_sim.log"
grep -qE "^netlist cycles $cycles compared [0-9]+ mismatches 0\$" "$work/ni_netlist_sim.log"
