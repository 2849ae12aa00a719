#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Synthesizes an RTL top (noc_router, noc_ni) with yosys into a flat gate netlist, replays on it in
# iverilog the cycles recorded from the Verilator RTL model (the top's testbench:
# netlist_tb_router.v, ni_netlist_tb.v), and fails unless every output matched in every compared
# cycle (docs/verification.md, "Router netlist versus RTL"; docs/rtl.md, "Network interface"; docs/sv-subset.md,
# "Equivalence by simulation"). The netlist is kept in <work dir>/<top>_netlist.v, the logs next
# to it.
# Usage: netlist_equiv_top.sh <top> <testbench module> <rtl dir> <testbench> <vectors> <cycles>
#        <work dir> <yosys> <iverilog> <vvp> <NumNetPorts> <NumLocal> <NumVcs> <BufDepth>
set -euo pipefail
if [[ $# -ne 14 ]]; then
  echo "usage: $0 <top> <testbench module> <rtl dir> <testbench> <vectors> <cycles> <work dir> <yosys>" \
    "<iverilog> <vvp> <NumNetPorts> <NumLocal> <NumVcs> <BufDepth> (got $# arguments)" >&2
  exit 2
fi
top=$1 tb_module=$2 rtl=$3 tb=$4 vectors=$5 cycles=$6 work=$7 yosys=$8 iverilog=$9 vvp=${10}
net_ports=${11} local_pairs=${12} vcs=${13} depth=${14}
mkdir -p "$work"


packages=("$rtl"/*_pkg.sv)
modules=()
for f in "$rtl"/*.sv; do
  [[ "$f" == *_pkg.sv ]] || modules+=("$f")
done

# `rename -top`: yosys 0.23 may leave a chparam'd top as `$paramod...` (docs/sv-subset.md, "Tool notes").
# `check -assert` before writing: an undriven wire would otherwise become a constant in the netlist.
"$yosys" -q -l "$work/${top}_yosys.log" -p "read_verilog -sv -noautowire -I$rtl ${packages[*]} ${modules[*]}; \
  chparam -set NumNetPorts $net_ports -set NumLocal $local_pairs -set NumVcs $vcs -set BufDepth $depth $top; \
  hierarchy -check -top $top; rename -top $top; synth -flatten -top $top; check -assert; \
  setundef -zero -init; write_verilog -noattr $work/${top}_netlist.v"

"$iverilog" -g2005 -o "$work/${top}_netlist_sim" -s "$tb_module" \
  -P"$tb_module".NumNetPorts="$net_ports" -P"$tb_module".NumLocal="$local_pairs" \
  -P"$tb_module".NumVcs="$vcs" -P"$tb_module".VECTORS="\"$vectors\"" "$tb" "$work/${top}_netlist.v"
"$vvp" -n "$work/${top}_netlist_sim" | tee "$work/${top}_netlist_sim.log"
grep -qE "^netlist cycles $cycles compared [0-9]+ mismatches 0\$" "$work/${top}_netlist_sim.log"
