#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Rtl.YosysSynthNoLatches and `make synth-report`: yosys synthesis check and iCE40 LUT/FF report.
#
# For every variant below, and for every other module file rtl/<name>.sv (default parameters),
# one yosys 0.23 run reads all of rtl/ (packages first) with `read_verilog -sv -noautowire` and
#   1. runs `check -assert` right after `proc` (later passes turn an undriven wire into a
#      constant x that `check` no longer sees) and again after `synth -top <name>`, and asserts
#      that no latch cell exists: fails on any error, latch, undriven wire, multiple driver or
#      logic loop;
#   2. fails on any yosys warning except "Replacing memory ... with list of registers" (benign);
#   3. reloads the elaborated design, runs `synth_ice40 -top <name>` and reads `stat` for the
#      report: SB_LUT4 (LUTs), SB_DFF* (flip-flops) and SB_CARRY cells. Network tops (listed in
#      `hierarchical` below) are mapped with `synth_ice40 -noflatten` and flattened afterwards: each
#      distinct router is mapped once instead of 16 times, so the report is the sum of the routers
#      (no constant propagation of the configuration across them) and takes seconds, not minutes.
# The report table goes to stdout. Each run's log goes to $SYNTH_LOG_DIR if set; otherwise to a
# temporary directory that is removed unless a check failed.
#
# Usage: verif/rtl/synth_check.sh [--check-only] [--group router|routers|top|cells] [rtl-dir] [yosys-binary]
# --check-only: step 3 left out (no iCE40 report): make test's runs; make regress and
# `make synth-report` map and report.
# --group runs one part of the list (ctest runs the four parts as separate tests, so they spread
# over the cores): `router` the 4-port 4-VC router, `routers` the other router sizes, `top` the
# network tops, `cells` every other module. Without it, everything (`make synth-report`).
set -uo pipefail
# shellcheck source=verif/rtl/yosys_check_lib.sh
source "$(dirname "$0")/yosys_check_lib.sh"

check_only=0
if [[ "${1:-}" == "--check-only" ]]; then
  check_only=1
  shift
fi
group=""
if [[ "${1:-}" == "--group" ]]; then
  group=$2
  shift 2
  case $group in router | routers | top | cells) ;; *)
    echo "synth_check.sh: unknown --group '$group' (valid: router, routers, top, cells)" >&2
    exit 2 ;;
  esac
fi
rtl_dir=${1:-$(cd "$(dirname "$0")/../../rtl" && pwd)}
yosys=${2:-yosys}
if [[ -n "${SYNTH_LOG_DIR:-}" ]]; then
  log_dir=$SYNTH_LOG_DIR
  mkdir -p "$log_dir"
else
  log_dir=$(mktemp -d)
  trap '[[ ${#failed[@]} -eq 0 ]] && rm -rf "$log_dir"' EXIT
fi

# Cells with the parameter values to check and report ("<top> [Param=Value ...] [-]"; a final "-"
# checks without the iCE40 report).
variants=(
  "noc_fifo Width=32 Depth=4"
  "noc_fifo Width=8 Depth=5"
  "noc_fifo Width=8 Depth=1"
  "noc_rr_arbiter NumReq=5"
  "noc_rr_arbiter NumReq=4"
  "noc_credit_counter Depth=4"
  "noc_credit_counter Depth=8"
  "noc_route_compute NumPorts=6"
  "noc_route_compute NumPorts=4"
  "noc_label_argmax NumIn=6"
  "noc_output_unit NumVcs=2 BufDepth=4 NumInVcs=10"
  "noc_switch_allocator NumIn=5 NumOut=5 NumVcs=2"
  "noc_vc_allocator NumIn=5 NumOut=5 NumVcs=2"
  "noc_crossbar NumIn=5 NumOut=5"
  "noc_input_unit NumPorts=4 NumVcs=2 BufDepth=4"
  "noc_vc_ram_buffer NumVcs=4 Depth=16 DataW=32 SideW=11"
  "noc_router NumNetPorts=4 NumVcs=4 BufDepth=4"
  # Check only, no iCE40 report (keeps the test short; `make synth` reports every router size).
  "noc_router NumNetPorts=6 NumVcs=2 BufDepth=4 -"
  # Star graph S4, two-/all-port, with the verilated variants' configuration registers.
  "noc_router NumNetPorts=3 NumLocal=3 NumVcs=2 BufDepth=4 RegisterConfig=1 -"
  "noc_network_top SizeX=4 SizeY=4 Torus=0"  # network tops (NumLocal=1 NumVcs=4 BufDepth=4 by default)
  # The network interface (docs/rtl.md, "Network interface"): the harness's router shape and the
  # default; its cells with the default parameters are checked below like every other file.
  "noc_ni NumVcs=4 BufDepth=4"
  "noc_ni NumVcs=2 BufDepth=4"
  "noc_ni NumLocal=2 NumVcs=1 BufDepth=1 -"
)
# Tops whose iCE40 report maps submodules once (synth_ice40 -noflatten, then flatten).
hierarchical=(noc_network_top)  # network tops

shopt -s nullglob
pkgs=("$rtl_dir"/*_pkg.sv)
files=("${pkgs[@]}")
for file in "$rtl_dir"/*.sv; do
  [[ "$file" == *_pkg.sv ]] || files+=("$file")
done
# Every module file not listed above is checked with its default parameters.
for file in "$rtl_dir"/*.sv; do
  name=$(basename "$file" .sv)
  [[ "$name" == *_pkg ]] && continue
  listed=0
  for variant in "${variants[@]}"; do [[ "${variant%% *}" == "$name" ]] && listed=1; done
  [[ $listed -eq 1 ]] || variants+=("$name")
done

# The --group a variant belongs to.
group_of() {
  case $1 in
    "noc_router NumNetPorts=4 "*) echo router ;;
    noc_router*) echo routers ;;
    noc_network_top*) echo top ;;
    *) echo cells ;;
  esac
}
if [[ -n "$group" ]]; then
  selected=()
  for variant in "${variants[@]}"; do [[ "$(group_of "$variant")" == "$group" ]] && selected+=("$variant"); done
  variants=("${selected[@]}")
fi

failed=()
report=()
for variant in "${variants[@]}"; do
  read -r top params <<<"$variant"
  report_it=$((1 - check_only))
  if [[ "$params" == *" -" ]]; then
    report_it=0
    params=${params% -}
  fi
  # shellcheck disable=SC2086  # params: words Param=Value
  yosys_variant "$top" $params
  log="$log_dir/$variant_tag.log"
  stat_file="$log_dir/$variant_tag.ice40.stat"
  ice40="synth_ice40 -top $top"
  [[ " ${hierarchical[*]} " == *" $top "* ]] && ice40="synth_ice40 -noflatten -top $top; flatten"  # network tops
  # `rename -top`: after chparam, yosys 0.23 may leave a top whose generate loops instantiate
  # submodules as `$paramod$<hash>\<top>` (docs/sv-subset.md, "Tool notes"); name it back.
  script="read_verilog -sv -noautowire -I$rtl_dir ${files[*]}; $variant_chparam
hierarchy -check -top $top; rename -top $top; design -save elaborated;
proc; check -assert; synth -top $top; check -assert; select -assert-none $yosys_latch_cells;
design -load elaborated; $ice40; tee -q -o $stat_file stat"
  [[ $report_it -eq 1 ]] || script=${script%%design -load elaborated*}
  if ! yosys_check_run "$top ${params:-(defaults)}" "$yosys" "$log" "$script"; then
    failed+=("$variant_tag")
    continue
  fi
  count() { awk -v pat="$1" '$1 ~ pat { n += $2 } END { print n + 0 }' "$stat_file"; }
  [[ $report_it -eq 1 ]] && report+=("$(printf '%-20s %-22s %6s %6s %6s' "$top" "${params:-(defaults)}" "$(count '^SB_LUT4$')" \
    "$(count '^SB_DFF')" "$(count '^SB_CARRY$')")")
done

if [[ $check_only -eq 0 ]]; then
  echo
  echo "iCE40 (yosys $("$yosys" -V | awk '{print $2}') synth_ice40) LUT/FF report:"
  printf '%-20s %-22s %6s %6s %6s\n' "cell" "parameters" "LUT4" "FF" "CARRY"
  for line in "${report[@]}"; do echo "$line"; done
fi

if [[ ${#failed[@]} -ne 0 ]]; then
  echo "synth: ${#failed[@]} variant(s) failed: ${failed[*]}" >&2
  exit 1
fi
