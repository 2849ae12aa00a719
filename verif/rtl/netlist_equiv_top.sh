#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Synthesizes an RTL top (noc_router, noc_ni) with yosys into a flat gate netlist, replays on it in
# iverilog the cycles recorded from the Verilator RTL model (the top's testbench:
# netlist_tb_router.v, ni_netlist_tb.v), and fails unless every output matched in every compared
# cycle (docs/rtl.md, "Router netlist versus RTL" and "Network interface"; docs/sv-subset.md,
# "Equivalence by simulation"). The netlist is kept in <work dir>/<top>_netlist.v, the logs next
# to it.
# Usage: netlist_equiv_top.sh <top> <testbench module> <rtl dir> <testbench> <vectors> <cycles>
#        <work dir> <yosys> <iverilog> <vvp> <NumNetPorts> <NumLocal> <NumVcs> <BufDepth>
# NETLIST_BUF_IMPL=1 (noc_router only) synthesizes the router with its input buffers in block RAM
# (BufImpl 1; generic `synth` maps the RAM to flip-flops): replayed on vectors recorded from the
# register router, it checks the netlist and the cycle identity of the two at once (docs/rtl.md,
# "Input buffers in block RAM"). Its files get the suffix _b1.
set -euo pipefail
if [[ $# -ne 14 ]]; then
  echo "usage: $0 <top> <testbench module> <rtl dir> <testbench> <vectors> <cycles> <work dir> <yosys>" \
    "<iverilog> <vvp> <NumNetPorts> <NumLocal> <NumVcs> <BufDepth> (got $# arguments)" >&2
  exit 2
fi
top=$1 tb_module=$2 rtl=$3 tb=$4 vectors=$5 cycles=$6 work=$7 yosys=$8 iverilog=$9 vvp=${10}
net_ports=${11} local_pairs=${12} vcs=${13} depth=${14}
mkdir -p "$work"
buf_param=
name=$top
if [[ "${NETLIST_BUF_IMPL:-0}" != 0 ]]; then
  buf_param="-set BufImpl ${NETLIST_BUF_IMPL}"
  name=${top}_b${NETLIST_BUF_IMPL}
fi

packages=("$rtl"/*_pkg.sv)
modules=()
for f in "$rtl"/*.sv; do
  [[ "$f" == *_pkg.sv ]] || modules+=("$f")
done

# `rename -top`: yosys 0.23 may leave a chparam'd top as `$paramod...` (docs/rtl.md, tool notes).
# `check -assert` before writing: an undriven wire would otherwise become a constant in the netlist.
"$yosys" -q -l "$work/${name}_yosys.log" -p "read_verilog -sv -noautowire -I$rtl ${packages[*]} ${modules[*]}; \
  chparam -set NumNetPorts $net_ports -set NumLocal $local_pairs -set NumVcs $vcs -set BufDepth $depth $buf_param $top; \
  hierarchy -check -top $top; rename -top $top; synth -flatten -top $top; check -assert; \
  setundef -zero -init; write_verilog -noattr $work/${name}_netlist.v"

"$iverilog" -g2005 -o "$work/${name}_netlist_sim" -s "$tb_module" \
  -P"$tb_module".NumNetPorts="$net_ports" -P"$tb_module".NumLocal="$local_pairs" \
  -P"$tb_module".NumVcs="$vcs" -P"$tb_module".VECTORS="\"$vectors\"" "$tb" "$work/${name}_netlist.v"
"$vvp" -n "$work/${name}_netlist_sim" | tee "$work/${name}_netlist_sim.log"
grep -qE "^netlist cycles $cycles compared [0-9]+ mismatches 0\$" "$work/${name}_netlist_sim.log"
