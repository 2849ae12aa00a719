#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Where a node router's iCE40 LUT4 are: the node row of `make synth` (verif/rtl/synth_node_router.sv,
# constant configuration) split by the kind of module each LUT comes from (docs/rtl.md, "Synthesis figures",
# "Where the area and the clock go").
#
# A plain `synth_ice40 -noflatten` would not do: the node's configuration reaches route compute
# through ports, so a kept hierarchy leaves every label comparison and coordinate test unfolded and
# the split would describe a different netlist. So this flattens and folds as `make synth` does
# (synth_ice40's begin, flatten and coarse steps: the same netlist up to there), then moves each
# cell into a module named after the kind of RTL module it came from, read from the cell's `src`
# attribute (flatten keeps every instantiation line of a cell's path there), with `submod`, and runs
# synth_ice40's remaining steps (gate mapping, ABC) on that hierarchy. ABC then optimizes each kind
# alone, so the hierarchical total is a few per cent above the flat row; the script prints both.
#
# Kinds, first match wins (a cell that opt_merge built from two modules has both in its src):
#   rc    noc_route_compute (with noc_label_argmax), one per input port
#   hd    noc_head_decision, one per input port
#   buf   noc_vc_ram_buffer, the input VC buffers (pointers, counts, flags; the RAMs are EBRs)
#   va    noc_vc_allocator (with its round-robin arbiter)
#   sa    noc_switch_allocator (with its arbiters)
#   xbar  noc_crossbar
#   ou    noc_output_unit (with its credit counters)
#   ej    noc_eject_unit
#   iu    the rest of noc_input_unit (VC state machines, segment registers, switch requests)
#   glue  what is left: the router top's sub-blocks (docs/rtl-modules.md, "The router top's
#         sub-blocks": VC-class mapping, switch requests and credit checks, picked segments,
#         output steering, head rewrite, drop counter, error OR trees)
#
# Usage: verif/rtl/synth_split.sh <NumVcs> [out-dir]
# Environment: SPLIT_FLAT=0 skips the flat reference run; SPLIT_ROUTER_PARAMS sets parameters of
# noc_router itself (e.g. "-set BufDepth 1": a chparam of a module that is not the top changes what
# every instance of it elaborates) and SPLIT_TAG names that run's files.
set -uo pipefail

vcs=${1:?usage: synth_split.sh <NumVcs> [out-dir]}
here=$(cd "$(dirname "$0")" && pwd)
rtl_dir=$(cd "$here/../../rtl" && pwd)
out_dir=${2:-build/synth_split}
yosys=${YOSYS:-yosys}
router_chparam=
[[ -n "${SPLIT_ROUTER_PARAMS:-}" ]] && router_chparam="chparam ${SPLIT_ROUTER_PARAMS} noc_router;"
mkdir -p "$out_dir"
out_dir=$(cd "$out_dir" && pwd)
tag="node_v${vcs}${SPLIT_TAG:-}"

shopt -s nullglob
files=("$rtl_dir"/*_pkg.sv)
for file in "$rtl_dir"/*.sv; do
  [[ "$file" == *_pkg.sv ]] || files+=("$file")
done
files+=("$here/synth_node_router.sv")

read_script="read_verilog -sv -noautowire -DNOC_DATA_W=32 -I$rtl_dir ${files[*]};
$router_chparam chparam -set NumVcs $vcs -set NumLocal 1 -set BufDepth 4 synth_node_router;
hierarchy -check -top synth_node_router; rename -top synth_node_router;"

kinds=(rc:noc_route_compute hd:noc_head_decision buf:noc_vc_ram_buffer va:noc_vc_allocator
       sa:noc_switch_allocator xbar:noc_crossbar ou:noc_output_unit
       ej:noc_eject_unit iu:noc_input_unit)
split_script="$read_script
synth_ice40 -top synth_node_router -run begin:map_ram;"
for kind in "${kinds[@]}"; do
  name=${kind%%:*}
  file=${kind#*:}
  split_script+="
submod -name split_$name a:src=*/$file.sv* t:* %i synth_node_router/* %i;"
done
split_script+="
synth_ice40 -top synth_node_router -run map_ram:;
tee -q -o $out_dir/$tag.split.stat stat -top synth_node_router;"

# submod with an empty selection only warns; a kind absent from a build (the EBR buffer in a
# register build) is then simply missing from the stat.
"$yosys" -q -l "$out_dir/$tag.split.log" -p "$split_script" >/dev/null 2>&1 ||
  { echo "synth_split: yosys failed (log: $out_dir/$tag.split.log)" >&2; exit 1; }

if [[ "${SPLIT_FLAT:-1}" != 0 ]]; then
  "$yosys" -q -l "$out_dir/$tag.flat.log" -p "$read_script
synth_ice40 -top synth_node_router;
tee -q -o $out_dir/$tag.flat.stat stat" >/dev/null 2>&1 ||
    { echo "synth_split: flat yosys failed (log: $out_dir/$tag.flat.log)" >&2; exit 1; }
fi

# Per module of the split stat: SB_LUT4 and SB_DFF* counts (each kind's module is instantiated
# once in the top).
awk -v flat_file="$out_dir/$tag.flat.stat" '
  /^=== design hierarchy ===$/ { mod = ""; next }
  /^=== .* ===$/ { mod = $2; next }
  $1 == "SB_LUT4" && mod != "" { lut[mod] = $2 }
  $1 ~ /^SB_DFF/ && mod != "" { ff[mod] += $2 }
  END {
    total = 0; total_ff = 0
    printf "| Kind | iCE40 LUT4 | FF |\n|---|---:|---:|\n"
    for (m in lut) {
      name = m; sub(/^split_/, "", name); if (name == "synth_node_router") name = "glue"
      printf "| %s | %d | %d |\n", name, lut[m], ff[m]
      total += lut[m]; total_ff += ff[m]
    }
    printf "| hierarchical total | %d | %d |\n", total, total_ff
    flat = ""
    while ((getline line < flat_file) > 0) {
      split(line, f, " "); if (f[1] == "SB_LUT4") flat = f[2]
    }
    if (flat != "") printf "| flat (make synth flow) | %d | |\n", flat
  }' "$out_dir/$tag.split.stat" | tee "$out_dir/$tag.split.md"
