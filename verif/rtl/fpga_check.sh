#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Fpga.LintClean and Fpga.YosysSynthNoLatches: the checks of the self-test network's files in
# fpga/ (docs/fpga.md, "The self-test network"), as verif/rtl/lint.sh and synth_check.sh do for rtl/;
# the board's files have their own (below).
#
#   lint:  every module file fpga/<name>.sv as the top (default parameters, the FPGA build's
#          NOC_DATA_W=32), `verilator --lint-only -Wall --assert`, with the rtl/ and fpga/
#          packages read first and submodules found through -y; clean means no output at all.
#          noc_selftest is linted with each Fault value as well, and the ULX3S board top
#          fpga/ulx3s/wormcast_ulx3s.sv at its defaults, with HostLink 0 and 1.
#   synth: yosys 0.23 reads rtl/ and fpga/ with `read_verilog -sv -noautowire -DNOC_DATA_W=32`;
#          for each fpga/ module (default parameters) `check -assert` after `proc` and after
#          `synth`, no latch cell, and no yosys warning but the benign memory one. The routers
#          inside noc_selftest are synthesized unflattened (as `synth` does), once. The mesh
#          tops (noc_selftest_mesh, noc_host_mesh: 2x2 networks of noc_network_top) are
#          synth-regress's.
#   synth-regress: the same check of the mesh tops and of noc_selftest with Fault 1 and 2 (make
#          regress's Fpga.YosysSynthNoLatchesMeshesAndFaults).
#
# Usage: verif/rtl/fpga_check.sh lint|synth|synth-regress [rtl-dir] [fpga-dir] [verilator-or-yosys-binary]
set -uo pipefail
# shellcheck source=verif/rtl/yosys_check_lib.sh
source "$(dirname "$0")/yosys_check_lib.sh"

mode=${1:?usage: fpga_check.sh lint|synth|synth-regress [rtl-dir] [fpga-dir] [binary]}
here=$(cd "$(dirname "$0")" && pwd)
rtl_dir=${2:-$here/../../rtl}
fpga_dir=${3:-$here/../../fpga}
shopt -s nullglob
pkgs=("$rtl_dir"/*_pkg.sv "$fpga_dir"/*_pkg.sv)
# The board's modules are not the network's: verif/fpga/board_checks.sh checks them
# (Fpga.BoardPartsLintAndSynthClean), and the board top, whose SB_PLL40_CORE only the iCE40 flow
# knows, is checked by make fpga's synthesis.
board_modules=" reset_sync uart_tx status_line board_status wormcast_hx8k_core wormcast_hx8k "
modules=()
for file in "$fpga_dir"/*.sv; do
  name=$(basename "$file" .sv)
  [[ "$file" == *_pkg.sv || "$board_modules" == *" $name "* ]] || modules+=("$name")
done
# Variants: "<top> [Param=Value ...]".
variants=()
# The self-test's fault variants and the mesh tops: synth-regress (make regress) synthesizes them,
# synth every other module once; lint takes them all.
fault_variants=("noc_selftest Fault=1" "noc_selftest Fault=2")
mesh_tops=" noc_selftest_mesh noc_host_mesh "
regress_variants=("${fault_variants[@]}")
for name in "${modules[@]}"; do
  if [[ "$mesh_tops" == *" $name "* ]]; then
    regress_variants+=("$name")
  else
    variants+=("$name")
  fi
done
case $mode in
  lint) variants=("${variants[@]}" "${regress_variants[@]}") ;;
  synth-regress)
    variants=("${regress_variants[@]}")
    mode=synth
    ;;
esac
failed=()

case $mode in
  lint)
    verilator=${4:-verilator}
    waivers=("$rtl_dir/noc_lint.vlt")
    for variant in "${variants[@]}"; do
      read -r top params <<<"$variant"
      gparams=()
      for assignment in $params; do gparams+=("-G$assignment"); done
      cmd=("$verilator" --lint-only -Wall --assert -DNOC_DATA_W=32 -I"$rtl_dir" -y "$rtl_dir" -y "$fpga_dir"
           "${waivers[@]}" "${pkgs[@]}" "$fpga_dir/$top.sv" --top-module "$top" "${gparams[@]}")
      if output=$("${cmd[@]}" 2>&1) && [[ -z "$output" ]]; then
        echo "lint: $variant clean"
      else
        echo "lint: $variant FAILED"
        echo "  command: ${cmd[*]}"
        echo "$output" | sed 's/^/  /'
        failed+=("$variant")
      fi
    done
    # The ULX3S board top (fpga/ulx3s/), at its default 3x3 mesh, as the self-test and with the host
    # link; its synthesis is make fpga BOARD=ulx3s's (a newer yosys than this test's).
    for host_link in 0 1; do
      cmd=("$verilator" --lint-only -Wall --assert -DNOC_DATA_W=32 -I"$rtl_dir" -y "$rtl_dir" -y "$fpga_dir"
           "${waivers[@]}" "${pkgs[@]}" "$fpga_dir/ulx3s/wormcast_ulx3s.sv" --top-module wormcast_ulx3s
           -GHostLink=$host_link)
      if output=$("${cmd[@]}" 2>&1) && [[ -z "$output" ]]; then
        echo "lint: wormcast_ulx3s HostLink=$host_link clean"
      else
        echo "lint: wormcast_ulx3s HostLink=$host_link FAILED"
        echo "  command: ${cmd[*]}"
        echo "$output" | sed 's/^/  /'
        failed+=("wormcast_ulx3s HostLink=$host_link")
      fi
    done
    ;;
  synth)
    yosys=${4:-yosys}
    files=("${pkgs[@]}")
    for file in "$rtl_dir"/*.sv "$fpga_dir"/*.sv; do
      [[ "$file" == *_pkg.sv ]] || files+=("$file")
    done
    log_dir=$(mktemp -d)
    for variant in "${variants[@]}"; do
      read -r top params <<<"$variant"
      # shellcheck disable=SC2086  # params: words Param=Value
      yosys_variant "$top" $params
      log="$log_dir/$variant_tag.log"
      script="read_verilog -sv -noautowire -DNOC_DATA_W=32 -I$rtl_dir ${files[*]}; $variant_chparam
hierarchy -check -top $top; rename -top $top; proc; check -assert; synth -top $top; check -assert;
select -assert-none $yosys_latch_cells"
      yosys_check_run "$variant" "$yosys" "$log" "$script" || failed+=("$variant")
    done
    [[ ${#failed[@]} -eq 0 ]] && rm -rf "$log_dir"
    ;;
  *)
    echo "fpga_check.sh: unknown mode '$mode' (valid: lint, synth, synth-regress)" >&2
    exit 2
    ;;
esac

if [[ ${#failed[@]} -ne 0 ]]; then
  echo "fpga_check: ${#failed[@]} variant(s) failed: ${failed[*]}" >&2
  exit 1
fi
