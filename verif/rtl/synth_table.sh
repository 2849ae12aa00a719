#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `make synth`: resource table of the router top (rtl/noc_router.sv) in its main configurations
# (docs/rtl.md, "make synth: resource table").
#
# For each configuration (network ports x VCs x local pairs, BufDepth 4 unless noted, LabelW 16, flit
# data width 64 unless noted) yosys 0.23 reads all of rtl/ (packages first, `read_verilog -sv
# -noautowire -DNOC_DATA_W=<width>`), sets the parameters with `chparam` and runs, each on the
# elaborated router:
#   - synth_ice40: SB_LUT4 cells, and flip-flops (SB_DFF*);
#   - synth_xilinx -family xc7 -flatten: LUT1..LUT6 cells, and flip-flops (FD*);
#   - synth_ecp5: LUT4 cells, and flip-flops (TRELLIS_FF).
# The router's ports are the top's ports, so nothing is constant and nothing is pruned.
# For the iCE40 HX8K fmax, verif/rtl/synth_wrap_router.sv gives the router a few pins (configuration
# and link inputs from shift registers, outputs XOR-reduced into one registered pin); yosys
# synth_ice40 writes JSON and nextpnr-ice40 --hx8k --package ct256 --timing-allow-fail places and
# routes it; the table shows its "Max frequency for clock" (MHz). A configuration larger than the
# HX8K's 7680 logic cells shows "does not fit". nextpnr takes minutes per design that fits, so by
# default only the configurations in fmax_default get an fmax; --full (make synth FULL=1) tries all.
#
# iCE40 tool options: SYNTH_ICE40_OPTS is added to every synth_ice40 (the LUT4/FF counts and the
# netlist nextpnr places alike), NEXTPNR_OPTS to every nextpnr-ice40 run. Both are empty by default
# (the tools' defaults); docs/rtl.md, "Arbiters and tool options", has what the options measured.
#
# Prints the table as markdown to stdout and writes it to <out-dir>/synth_table.md; every run's log
# and stat stay in <out-dir>. Uses two yosys jobs at a time (SYNTH_JOBS: another number, e.g. 1 on
# a shared machine).
#
# SYNTH_REUSE=1 keeps the outputs already in <out-dir>: a yosys run whose stat file is there and the
# nextpnr runs of a design whose every seed's log is there are not run again (verif/rtl/synth_options.sh
# fills a directory per option set from a common one, e.g. nextpnr options on one synthesized netlist).
#
# SYNTH_FLOWS (make synth FLOWS=...) names the yosys flows to run, of "ice40 xilinx ecp5" (the
# default); the columns of a flow left out show "-", e.g. FLOWS=ice40 for iterating on the iCE40
# columns and the fmax alone.
#
# --results <file> also writes the table there (make synth: docs/results/synth.md) with the date,
# the commit, the tool versions and options, one row per configuration: a run replaces the rows it
# measured and keeps the others if they were measured with the same tools and options (each row
# says when and at which commit), and drops them otherwise.
#
# --only <regex> keeps the configurations whose entry (fields and description) matches, for
# iterating on one row (make synth ONLY='node'). The 4x4 mesh top runs only when --only names it
# (make synth ONLY=mesh4x4): about 40 minutes of yosys CPU for the three families, each router mapped
# alone after the flattened constant folding (run_yosys; docs/rtl.md).
#
# Usage: verif/rtl/synth_table.sh [--full] [--only <regex>] [--results <file>] [out-dir]
set -uo pipefail

full=0
only=
results=
while [[ $# -gt 0 ]]; do
  case "$1" in
    --full) full=1; shift ;;
    --only) only=${2:?--only needs a regex}; shift 2 ;;
    --results) results=${2:?--results needs a file}; shift 2 ;;
    *) break ;;
  esac
done
here=$(cd "$(dirname "$0")" && pwd)
rtl_dir=$(cd "$here/../../rtl" && pwd)
out_dir=${1:-build/synth}
wrapper=$here/synth_wrap_router.sv
node_router=$here/synth_node_router.sv
yosys=${YOSYS:-yosys}
nextpnr=${NEXTPNR_ICE40:-nextpnr-ice40}
jobs=${SYNTH_JOBS:-2}
if ! [[ "$jobs" =~ ^[1-9][0-9]*$ ]]; then
  echo "synth: SYNTH_JOBS is '$jobs'; it must be a positive number of yosys jobs" >&2
  exit 2
fi
# A design that fills the HX8K to the last logic cells may route for ever: give up after this.
nextpnr_timeout=${NEXTPNR_TIMEOUT:-600}
# Placement seeds per design that fits: the fmax column is their median (min and max beside it).
nextpnr_seeds=${NEXTPNR_SEEDS:-3}
ice40_opts=${SYNTH_ICE40_OPTS-}
nextpnr_opts=${NEXTPNR_OPTS-}
mkdir -p "$out_dir"
out_dir=$(cd "$out_dir" && pwd)

# "<NumNetPorts> <NumVcs> <NumLocal> <BufDepth> <NOC_DATA_W> <configuration> [<Modes>]|<what it is>"
# (Modes: the routing modes built in, noc_pkg::AllModes = 31 when left out).
# Configuration "in": the general router, its configuration on input ports (nothing pruned);
# "node": one node's constant configuration as in a network top (verif/rtl/synth_node_router.sv,
# node (5,5) of a 16x16 mesh; 4 network ports only); "mesh<X>x<Y>": the whole network top
# (rtl/noc_network_top.sv, a 2D mesh of that size; its routers' configuration constant, mesh-edge
# ports unconnected and pruned), counted in total (the table's per-router column divides).
configs=(
  "4 4 1 4 64 in|2D mesh/torus router as the harness runs it (4 VCs, 64-bit flits)"
  "4 4 2 4 64 in|2D, two local ports"
  "4 4 4 4 64 in|2D, all-port (4 local)"
  "6 2 1 4 64 in|3D mesh/torus (2 VCs)"
  "3 2 1 4 64 in|star graph S4 (2 VCs)"
  "4 4 1 4 32 in|2D general router, 32-bit flits (the target configuration)"
  "4 2 1 4 32 in|the general router with 2 VCs"
  "4 4 1 4 32 node|the same as one node of a network top (constant configuration): the target row"
  "4 4 1 4 32 node 5|the same node, Hamiltonian path and dimension order only (Modes 5)"
  "4 2 1 4 32 node|the same node with 2 VCs (a build without concurrent xy-path mixes)"
  "4 2 1 1 32 node|the same node, 2 VCs, BufDepth 1"
  "4 4 1 4 32 mesh2x2|2x2 mesh network top (4 routers), 32-bit flits"
  "4 4 1 4 32 mesh4x4|4x4 mesh network top (16 routers), 32-bit flits"
)
all_configs=("${configs[@]}")
if [[ -n "$only" ]]; then
  kept=()
  for entry in "${configs[@]}"; do
    if [[ "$entry" =~ $only ]]; then kept+=("$entry"); fi
  done
  if [[ ${#kept[@]} -eq 0 ]]; then
    echo "synth: --only '$only' matches no configuration; they are:" >&2
    printf '  %s\n' "${configs[@]}" >&2
    exit 2
  fi
  configs=("${kept[@]}")
else
  kept=()
  for entry in "${configs[@]}"; do
    if [[ "$entry" == *" mesh4x4|"* ]]; then
      echo "synth: leaving out '${entry%%|*}' (40 minutes of yosys; make synth ONLY=mesh4x4 runs it)" >&2
    else
      kept+=("$entry")
    fi
  done
  configs=("${kept[@]}")
fi
read -r -a flows <<<"${SYNTH_FLOWS:-ice40 xilinx ecp5}"
for flow in "${flows[@]}"; do
  case $flow in
    ice40 | xilinx | ecp5) ;;
    *) echo "synth: SYNTH_FLOWS has '$flow'; the flows are ice40, xilinx and ecp5" >&2; exit 2 ;;
  esac
done
# True when this run synthesized the given flow (a flow left out may have a stale stat file).
flow_ran() {
  local f
  for f in "${flows[@]}"; do [[ "$f" == "$1" ]] && return 0; done
  return 1
}
# The configurations that get an fmax without --full: the 32-bit general routers and nodes and the
# 2-VC node at BufDepth 1 (one that does not fit the HX8K stops after packing, in seconds; one that
# fits is placed and routed, minutes).
fmax_default=("4 4 1 4 32 in" "4 2 1 4 32 in" "4 4 1 4 32 node" "4 2 1 4 32 node" "4 2 1 1 32 node")

shopt -s nullglob
files=("$rtl_dir"/*_pkg.sv)
for file in "$rtl_dir"/*.sv; do
  [[ "$file" == *_pkg.sv ]] || files+=("$file")
done

tag_of() {
  local ports vcs local_pairs depth data_w cfg modes
  read -r ports vcs local_pairs depth data_w cfg modes <<<"$1"
  echo "p${ports}_v${vcs}_l${local_pairs}_d${depth}_w${data_w}_${cfg}_m${modes:-31}"
}

# yosys on one configuration: synth_<flow> of noc_router, or of the wrapper for "wrap".
run_yosys() {
  local config=$1 flow=$2 ports vcs local_pairs depth data_w cfg modes top tag cmd params mesh_nodes=
  read -r ports vcs local_pairs depth data_w cfg modes <<<"$config"
  modes=${modes:-31}
  tag="$(tag_of "$config").$flow"
  [[ ${SYNTH_REUSE:-0} == 1 && -f "$out_dir/$tag.stat" ]] && return 0
  top=noc_router
  params="-set NumNetPorts $ports -set NumVcs $vcs -set NumLocal $local_pairs -set BufDepth $depth -set Modes $modes"
  local extra=()
  if [[ "$cfg" == node ]]; then
    top=synth_node_router
    extra=("$node_router")
    params="-set NumVcs $vcs -set NumLocal $local_pairs -set BufDepth $depth -set Modes $modes"
  elif [[ "$cfg" =~ ^mesh([0-9]+)x([0-9]+)$ ]]; then
    top=noc_network_top
    params="-set SizeX ${BASH_REMATCH[1]} -set SizeY ${BASH_REMATCH[2]} -set NumVcs $vcs -set NumLocal $local_pairs -set BufDepth $depth"
    mesh_nodes=$((BASH_REMATCH[1] * BASH_REMATCH[2]))
  fi
  case $flow in
    ice40) cmd="synth_ice40 $ice40_opts -top $top" ;;
    xilinx) cmd="synth_xilinx -family xc7 -flatten -top $top" ;;
    ecp5) cmd="synth_ecp5 -top $top" ;;
  esac
  # A network top is flattened (every router's constant configuration and idle mesh-edge inputs
  # reach its cells, and opt_clean removes the edge outputs nobody reads), then each router's cells
  # go back into a module of their own (submod, by the flattened name gen_node[n].u_router...), so
  # the flow optimizes and maps each router alone and the total is flattened again to be counted:
  # the flat flow's ABC on the whole 4x4 top took hours, this takes the routers' time (docs/rtl.md,
  # "make synth: resource table").
  if [[ -n "${mesh_nodes:-}" ]]; then
    local split="proc; flatten; opt_clean;" n
    for ((n = 0; n < mesh_nodes; n++)); do
      split+=" submod -name mesh_router_$n $top/*gen_node?$n?.u_router.* t:* %i;"
    done
    case $flow in
      ice40) cmd="$split synth_ice40 $ice40_opts -top $top -noflatten; flatten" ;;
      xilinx) cmd="$split synth_xilinx -family xc7 -top $top; flatten" ;;
      ecp5) cmd="$split synth_ecp5 -top $top -noflatten; flatten" ;;
    esac
  fi
  case $flow in
    wrap)
      top=synth_wrap_router
      extra=("$wrapper" "$node_router")
      params="-set NumNetPorts $ports -set NumVcs $vcs -set NumLocal $local_pairs -set BufDepth $depth -set Modes $modes"
      [[ "$cfg" == node ]] && params+=" -set NodeConfig 1"
      cmd="synth_ice40 $ice40_opts -top $top -json $out_dir/$tag.json"
      ;;
  esac
  # `rename -top`: yosys 0.23 may leave a chparam'd top as `$paramod...` (docs/sv-subset.md, "Tool notes").
  "$yosys" -q -l "$out_dir/$tag.log" -p "read_verilog -sv -noautowire -DNOC_DATA_W=$data_w -I$rtl_dir ${files[*]} ${extra[*]};
chparam $params $top;
hierarchy -check -top $top; rename -top $top; $cmd; tee -q -o $out_dir/$tag.stat stat" >/dev/null 2>&1 ||
    echo "synth: yosys $flow failed on $config (log: $out_dir/$tag.log)" >&2
}

# nextpnr-ice40 on the wrapper's JSON of one configuration: seed 1 (log <tag>.nextpnr.log), and
# when it routed, seeds 2..nextpnr_seeds (<tag>.nextpnr.seed<s>.log).
run_nextpnr() {
  local tag seed log
  tag="$(tag_of "$1").wrap"
  [[ -f "$out_dir/$tag.json" ]] || return 0
  if [[ ${SYNTH_REUSE:-0} == 1 ]]; then
    local have=0
    for ((seed = 1; seed <= nextpnr_seeds; seed++)); do
      log="$out_dir/$tag.nextpnr.log"
      [[ $seed -gt 1 ]] && log="$out_dir/$tag.nextpnr.seed$seed.log"
      [[ "$log" -nt "$out_dir/$tag.json" ]] && grep -q 'Program finished normally' "$log" && have=$((have + 1))
    done
    [[ $have -eq $nextpnr_seeds ]] && return 0
  fi
  rm -f "$out_dir/$tag.nextpnr.timeout" "$out_dir/$tag".nextpnr.seed*.log
  for ((seed = 1; seed <= nextpnr_seeds; seed++)); do
    log="$out_dir/$tag.nextpnr.log"
    [[ $seed -gt 1 ]] && log="$out_dir/$tag.nextpnr.seed$seed.log"
    # shellcheck disable=SC2086  # the options are words
    timeout "$nextpnr_timeout" "$nextpnr" --hx8k --package ct256 --json "$out_dir/$tag.json" --timing-allow-fail -q \
      $nextpnr_opts --seed "$seed" -l "$log" >/dev/null 2>&1
    if [[ $? -eq 124 ]]; then
      echo "timeout" >"$out_dir/$tag.nextpnr.timeout"
      return 0
    fi
    grep -q 'Program finished normally' "$log" || return 0
  done
  return 0
}

# Runs "<function> <args>" jobs from stdin, `jobs` at a time.
run_all() {
  local line
  while IFS= read -r line; do
    while [[ $(jobs -rp | wc -l) -ge $jobs ]]; do wait -n; done
    eval "$line" &
  done
  wait
}

wants_fmax() {
  [[ $full -eq 1 ]] && return 0
  local c
  for c in "${fmax_default[@]}"; do [[ "$1" == "$c" ]] && return 0; done
  return 1
}

start=$SECONDS
{
  for entry in "${configs[@]}"; do
    config=${entry%%|*}
    for flow in "${flows[@]}"; do echo "run_yosys '$config' $flow"; done
    if wants_fmax "$config"; then echo "run_yosys '$config' wrap"; fi
  done
} | run_all
echo "synth: yosys done in $((SECONDS - start)) s" >&2

# nextpnr runs one at a time: each is single-threaded but needs the memory of a whole design.
start=$SECONDS
for entry in "${configs[@]}"; do
  config=${entry%%|*}
  if wants_fmax "$config"; then run_nextpnr "$config"; fi
done
echo "synth: nextpnr done in $((SECONDS - start)) s" >&2

# Sum of the counts of the cells whose type matches a regex, from one stat file ("<tag>.<flow>");
# "-" for a flow this run left out.
count() {
  local file="$out_dir/$1.stat"
  flow_ran "${1##*.}" || { echo "-"; return; }
  [[ -f "$file" ]] || { echo "?"; return; }
  awk -v pat="$2" '$1 ~ pat && $2 ~ /^[0-9]+$/ { n += $2 } END { print n + 0 }' "$file"
}

fmax_of() {
  local tag log
  tag="$(tag_of "$1").wrap"
  log="$out_dir/$tag.nextpnr.log"
  if ! wants_fmax "$1"; then echo "(FULL=1)"; return; fi
  if [[ ! -f "$log" ]]; then echo "?"; return; fi
  # The last report is the one after routing.
  local mhz
  mhz=$(grep -oE 'Max frequency for clock .*: [0-9.]+ MHz' "$log" | tail -1 | grep -oE '[0-9.]+ MHz$' | cut -d' ' -f1)
  local used
  used=$(grep -oE 'ICESTORM_LC: +[0-9]+/ *[0-9]+' "$log" | head -1 | sed -E 's/ICESTORM_LC: +([0-9]+)\/ *([0-9]+)/\1 of \2 LCs/')
  if [[ -f "$out_dir/$tag.nextpnr.timeout" ]]; then
    echo "not routed in ${nextpnr_timeout} s (${used:-?})"
  elif grep -q 'Program finished normally' "$log" && [[ -n "$mhz" ]]; then
    # The median over the seeds that routed (seed 1's log and the others').
    local all median
    all=$(for l in "$log" "$out_dir/$tag".nextpnr.seed*.log; do
      [[ -f "$l" ]] && grep -q 'Program finished normally' "$l" &&
        grep -oE 'Max frequency for clock .*: [0-9.]+ MHz' "$l" | tail -1 | grep -oE '[0-9.]+ MHz$' | cut -d' ' -f1
    done | sort -n)
    median=$(echo "$all" | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
    echo "$median, median of $(echo "$all" | wc -l) seeds ($(echo "$all" | head -1)-$(echo "$all" | tail -1); $used)"
  elif grep -qiE 'Unable to place|too many|not enough|exceeds|Failed to expand region' "$log"; then
    echo "does not fit (${used:-see log})"
  else
    echo "failed (see $tag.nextpnr.log)"
  fi
}

tools="yosys $("$yosys" -V | awk '{print $2}'), $("$nextpnr" --version 2>&1 | head -1)"
options="synth_ice40 ${ice40_opts:-(no options)}; nextpnr-ice40 --hx8k --package ct256 --timing-allow-fail${nextpnr_opts:+ $nextpnr_opts}"
header="| Configuration | Ports x VCs x local x depth, flit | iCE40 LUT4 | iCE40 FF | iCE40 EBR | Xilinx LUT | Xilinx FF | ECP5 LUT4 | ECP5 FF | iCE40 HX8K fmax (MHz) |"
rule="|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"

# The table row of one configuration entry ("<config>|<what it is>").
row_of() {
  local entry=$1 config tag ports vcs local_pairs depth data_w cfg modes
  config=${entry%%|*}
  tag=$(tag_of "$config")
  read -r ports vcs local_pairs depth data_w cfg modes <<<"$config"
  echo "| ${entry#*|} | ${ports}x${vcs}x${local_pairs}x${depth}, $((data_w + 2)) bits | $(count "$tag.ice40" '^SB_LUT4$') | $(count "$tag.ice40" '^SB_DFF') | $(count "$tag.ice40" '^SB_RAM40_4K$') \
| $(count "$tag.xilinx" '^LUT[1-6]$') | $(count "$tag.xilinx" '^FD') | $(count "$tag.ecp5" '^LUT4$') \
| $(count "$tag.ecp5" '^TRELLIS_FF$') | $(fmax_of "$config") |"
}

# How many routers of the target row each part holds, by LUT and FF counts alone (a router
# takes max(LUTs, FFs) iCE40 logic cells; ECP5 and Xilinx parts have as many FFs as LUT4s, or
# two per LUT6). Only the iCE40 HX8K figure is backed by place and route (the fmax column).
# Prints nothing when this run did not synthesize the target row.
target="4 4 1 4 32 node"
parts_line() {
  local tag ice_lut ice_ff x_lut x_ff e_lut e_ff ice_lc v
  tag=$(tag_of "$target")
  ice_lut=$(count "$tag.ice40" '^SB_LUT4$'); ice_ff=$(count "$tag.ice40" '^SB_DFF')
  x_lut=$(count "$tag.xilinx" '^LUT[1-6]$'); x_ff=$(count "$tag.xilinx" '^FD')
  e_lut=$(count "$tag.ecp5" '^LUT4$'); e_ff=$(count "$tag.ecp5" '^TRELLIS_FF$')
  for v in "$ice_lut" "$x_lut" "$e_lut"; do [[ "$v" =~ ^[0-9]+$ ]] || return 0; done
  fits() {  # <capacity LUTs> <capacity FFs> <LUTs> <FFs>
    local a=$(($1 / $3)) b=$(($2 / $4))
    echo $((a < b ? a : b))
  }
  ice_lc=$((ice_lut > ice_ff ? ice_lut : ice_ff))
  echo "Routers of the target row (\"$target\") per part, by LUT and FF counts: iCE40 UP5K $((5280 / ice_lc)), HX8K $((7680 / ice_lc));" \
    "ECP5 LFE5U-25 $(fits 24288 24288 "$e_lut" "$e_ff"), -45 $(fits 43848 43848 "$e_lut" "$e_ff"), -85 $(fits 83640 83640 "$e_lut" "$e_ff");" \
    "Artix-7 XC7A35T $(fits 20800 41600 "$x_lut" "$x_ff"), XC7A100T $(fits 63400 126800 "$x_lut" "$x_ff"), XC7A200T $(fits 134600 269200 "$x_lut" "$x_ff")."
}

# The synthesized configurations were read from this tree: the commit, and whether the RTL or the
# synthesis harness differed from it.
repo=$(cd "$here/../.." && pwd)
commit=$(git -C "$repo" rev-parse --short=7 HEAD 2>/dev/null || echo "no commit")
if ! git -C "$repo" diff --quiet HEAD -- rtl verif/rtl/synth_wrap_router.sv verif/rtl/synth_node_router.sv 2>/dev/null; then
  commit+=" with uncommitted RTL changes"
fi
measured="$(date -u +%F), $commit"

table="$out_dir/synth_table.md"
{
  echo "noc_router, LabelW 16; $tools; $options; measured $measured"
  echo
  echo "$header"
  echo "$rule"
  for entry in "${configs[@]}"; do row_of "$entry"; done
  parts=$(parts_line)
  if [[ -n "$parts" ]]; then echo; echo "$parts"; fi
} >"$table"
cat "$table"
echo "synth: table written to $table" >&2

# The results file: this run's rows, and the rows of earlier runs with the same tools and options.
if [[ -n "$results" ]]; then
  mkdir -p "$(dirname "$results")"
  old_rows=
  old_parts=
  if [[ -f "$results" ]] && grep -qxF "Tools: $tools." "$results" && grep -qxF "Options: $options." "$results"; then
    old_rows=$(grep '^| ' "$results")
    old_parts=$(grep '^Routers of the target row' "$results")
  fi
  {
    echo "# make synth: resource table"
    echo
    echo "Written by \`make synth\` (verif/rtl/synth_table.sh; docs/rtl.md, \"make synth: resource table\"): do"
    echo "not edit. A run replaces the rows it measured (\`make synth ONLY=<regex>\` only those) and keeps"
    echo "the others while the tools and options are the same. fmax: median of the placement seeds that"
    echo "routed, their range and the logic cells used. noc_router, LabelW 16."
    echo
    echo "Tools: $tools."
    echo
    echo "Options: $options."
    echo
    echo "${header} Measured |"
    echo "${rule}---|"
    for entry in "${all_configs[@]}"; do
      ran=0
      for e in "${configs[@]}"; do [[ "$e" == "$entry" ]] && ran=1; done
      if [[ $ran -eq 1 ]]; then
        echo "$(row_of "$entry") $measured |"
      else
        awk -v row="| ${entry#*|} | " 'index($0, row) == 1 { print; exit }' <<<"$old_rows"
      fi
    done
    [[ -z "$parts" ]] && parts=$old_parts
    if [[ -n "$parts" ]]; then echo; echo "$parts"; fi
  } >"$results"
  echo "synth: results written to $results" >&2
fi
if grep -q '| ? |' "$table"; then
  echo "synth: some runs failed (logs in $out_dir)" >&2
  exit 1
fi
