#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `make synth-options`: iCE40 tool options side by side on the 2-VC node router's fmax wrapper
# (docs/rtl.md, "Arbiters and tool options").
#
# Each option set is one run of verif/rtl/synth_table.sh on the configuration "4 2 1 4 32 node"
# (FLOWS=ice40) in a directory of its own under <out-dir>, with the set's SYNTH_ICE40_OPTS and
# NEXTPNR_OPTS and NEXTPNR_SEEDS placement seeds. Sets with the same synth_ice40 options share the
# synthesized netlist: the first one's yosys outputs are copied into the others' directories and
# synth_table.sh runs with SYNTH_REUSE=1, so only nextpnr runs again. --from <dir> takes the default
# options' whole run (netlist and nextpnr logs) from a `make synth` directory that ran the row
# already (its table records the commit; the results say which commit every row was measured at).
#
# Writes the table to <out-dir>/synth_options.md and, with --results <file> (make synth-options:
# docs/results/synth_options.md), there too, keeping the rows of sets this run left out when the
# tools are the same. Columns: the router's iCE40 LUT4 and FF (synth_ice40 of noc_router alone),
# the wrapper's logic cells after placement, every seed's fmax, their median and spread (max - min).
#
# Usage: verif/rtl/synth_options.sh [--only <regex>] [--from <make-synth-dir>] [--results <file>]
#                                   [out-dir]   (default build/synth_options)
#   --only <regex>   run the option sets whose name matches (the others keep their old rows)
#   --render         run nothing: write the rows of the selected sets from <out-dir> as it is
# Environment: NEXTPNR_SEEDS (default 3), SYNTH_JOBS (default 1), NEXTPNR_TIMEOUT (default 2700 s per
# seed: one seed took 8 to 15 minutes of wall time on a shared 2-core machine).
set -uo pipefail

# name|synth_ice40 options|nextpnr-ice40 options
sets=(
  "default||"
  "abc9|-abc9|"
  "opt-timing||--opt-timing"
  "tmg-ripup||--tmg-ripup"
  "router2||--router router2"
)

only=
from=
results=
render=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --only) only=${2:?--only needs a regex}; shift 2 ;;
    --from) from=${2:?--from needs a make synth directory}; shift 2 ;;
    --results) results=${2:?--results needs a file}; shift 2 ;;
    --render) render=1; shift ;;
    -*) echo "synth-options: unknown option '$1'; valid: --only <regex>, --from <dir>, --results <file>, --render" >&2; exit 2 ;;
    *) break ;;
  esac
done
here=$(cd "$(dirname "$0")" && pwd)
out_dir=${1:-build/synth_options}
seeds=${NEXTPNR_SEEDS:-3}
export NEXTPNR_TIMEOUT=${NEXTPNR_TIMEOUT:-2700}
if ! [[ "$seeds" =~ ^[1-9][0-9]*$ ]]; then
  echo "synth-options: NEXTPNR_SEEDS is '$seeds'; it must be a positive number of seeds" >&2
  exit 2
fi
config="4 2 1 4 32 node"
tag=p4_v2_l1_d4_w32_node_m31
if [[ -n "$from" && ! -f "$from/$tag.wrap.json" ]]; then
  echo "synth-options: --from '$from' has no $tag.wrap.json (run make synth ONLY='^4 2 1 4 32 node\\|' first)" >&2
  exit 2
fi
mkdir -p "$out_dir"
out_dir=$(cd "$out_dir" && pwd)

selected=()
for s in "${sets[@]}"; do
  [[ -z "$only" || "${s%%|*}" =~ $only ]] && selected+=("$s")
done
if [[ ${#selected[@]} -eq 0 ]]; then
  echo "synth-options: --only '$only' matches no option set; they are: $(for s in "${sets[@]}"; do printf '%s ' "${s%%|*}"; done)" >&2
  exit 2
fi

# The fmax of one nextpnr log after routing, or nothing when it did not route.
fmax_of_log() {
  [[ -f "$1" ]] && grep -q 'Program finished normally' "$1" &&
    grep -oE 'Max frequency for clock .*: [0-9.]+ MHz' "$1" | tail -1 | grep -oE '[0-9.]+ MHz$' | cut -d' ' -f1
}

# The table row of one option set, from its directory.
row_of() {
  local name synth pnr dir lut ff lcs measured s log all median spread list
  IFS='|' read -r name synth pnr <<<"$1"
  dir=$out_dir/$name
  lut=$(awk '$1 == "SB_LUT4" { print $2 }' "$dir/$tag.ice40.stat" 2>/dev/null)
  ff=$(awk '$1 ~ /^SB_DFF/ { n += $2 } END { print n + 0 }' "$dir/$tag.ice40.stat" 2>/dev/null)
  lcs=$(grep -oE 'ICESTORM_LC: +[0-9]+' "$dir/$tag.wrap.nextpnr.log" 2>/dev/null | head -1 | grep -oE '[0-9]+$')
  measured=$(head -1 "$dir/synth_table.md" 2>/dev/null | grep -oE 'measured .*$' | sed 's/^measured //')
  list=
  all=
  for ((s = 1; s <= seeds; s++)); do
    log="$dir/$tag.wrap.nextpnr.log"
    [[ $s -gt 1 ]] && log="$dir/$tag.wrap.nextpnr.seed$s.log"
    f=$(fmax_of_log "$log")
    if [[ -z "$f" && ! -f "$log" ]]; then
      f="not run"
    elif [[ -z "$f" && -f "$dir/$tag.wrap.nextpnr.timeout" ]]; then
      f="not routed in ${NEXTPNR_TIMEOUT} s"
    elif [[ -z "$f" ]]; then
      f="not routed"
    fi
    list+="${list:+, }$f"
    [[ "$f" =~ ^[0-9.]+$ ]] || f=""
    [[ -n "$f" ]] && all+="$f"$'\n'
  done
  all=$(printf '%s' "$all" | sort -n)
  if [[ -n "$all" ]]; then
    median=$(echo "$all" | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
    spread=$(echo "$all" | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%.2f", hi - lo }')
  else
    median="-"; spread="-"
  fi
  echo "| $name | ${synth:-(none)} | ${pnr:-(none)} | ${lut:-?} | ${ff:-?} | ${lcs:-?} | $list | **$median** | $spread | ${measured:-?} |"
}

start=$SECONDS
status=0
declare -A netlist_of  # synth_ice40 options -> the directory that synthesized them
for s in "${selected[@]}"; do
  [[ $render -eq 1 ]] && break
  IFS='|' read -r name synth pnr <<<"$s"
  dir=$out_dir/$name
  rm -rf "$dir"
  mkdir -p "$dir"
  reuse=0
  if [[ -z "$synth" && -z "$pnr" && -n "$from" ]]; then
    cp -p "$from/$tag".ice40.stat "$from/$tag".wrap.* "$dir"/
    reuse=1
  elif [[ -n "${netlist_of["opts:$synth"]:-}" ]]; then
    cp -p "${netlist_of["opts:$synth"]}/$tag".ice40.stat "${netlist_of["opts:$synth"]}/$tag".wrap.{json,stat} "$dir"/
    reuse=1
  elif [[ -z "$synth" && -n "$from" ]]; then
    cp -p "$from/$tag".ice40.stat "$from/$tag".wrap.{json,stat} "$dir"/
    reuse=1
  fi
  echo "synth-options: $name (synth_ice40 ${synth:-no options}; nextpnr ${pnr:-no options}; $seeds seeds)" >&2
  SYNTH_REUSE=$reuse SYNTH_FLOWS=ice40 SYNTH_JOBS=${SYNTH_JOBS:-1} NEXTPNR_SEEDS=$seeds \
    SYNTH_ICE40_OPTS="$synth" NEXTPNR_OPTS="$pnr" \
    "$here/synth_table.sh" --only "^$config\\|" "$dir" >"$dir/run.log" 2>&1 || status=1
  netlist_of["opts:$synth"]=$dir
  row_of "$s" >&2
done
echo "synth-options: done in $((SECONDS - start)) s" >&2

tools="yosys $(yosys -V | awk '{print $2}'), $(nextpnr-ice40 --version 2>&1 | head -1)"
header="| Options | synth_ice40 | nextpnr-ice40 | Router LUT4 | Router FF | Wrapper LCs (of 7680) | fmax per seed (MHz) | Median | Spread | Measured |"
rule="|---|---|---|---:|---:|---:|---|---:|---:|---|"
table=$out_dir/synth_options.md
{
  echo "$header"
  echo "$rule"
  for s in "${selected[@]}"; do row_of "$s"; done
} >"$table"
cat "$table"

if [[ -n "$results" ]]; then
  old_rows=
  if [[ -f "$results" ]] && grep -qxF "Tools: $tools." "$results"; then old_rows=$(grep '^| ' "$results" | tail -n +3); fi
  {
    echo "# iCE40 tool options on the 2-VC node router"
    echo
    echo "Written by \`make synth-options\` (verif/rtl/synth_options.sh; docs/rtl.md, \"Arbiters and tool"
    echo "options\"): do not edit. The router \"$config\" (4 network ports, 2 VCs, 1 local port, BufDepth 4,"
    echo "32-bit data; one node's constant configuration) in make synth's fmax wrapper on the iCE40 HX8K"
    echo "(nextpnr-ice40 --hx8k --package ct256 --timing-allow-fail plus the options), seeds 1 to $seeds."
    echo "Router LUT4/FF: synth_ice40 of the router alone with the row's synth_ice40 options. A run"
    echo "replaces the rows of the option sets it ran; compare rows measured with the same RTL."
    echo
    echo "Tools: $tools."
    echo
    echo "$header"
    echo "$rule"
    for s in "${sets[@]}"; do
      name=${s%%|*}
      ran=0
      for r in "${selected[@]}"; do [[ "$r" == "$s" ]] && ran=1; done
      if [[ $ran -eq 1 ]]; then
        row_of "$s"
      else
        awk -v row="| $name | " 'index($0, row) == 1 { print; exit }' <<<"$old_rows"
      fi
    done
  } >"$results"
  echo "synth-options: results written to $results" >&2
fi
exit $status
