#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Rtl.LintClean: Verilator lint of every SystemVerilog file in rtl/, failing on any warning.
#
# Each module file rtl/<name>.sv is linted as the top (`--top-module <name>`, default parameters)
# with `verilator --lint-only -Wall --assert`: --assert turns on the checks that only exist with
# assertions compiled in. Packages (rtl/*_pkg.sv) are read first by every run, submodules are found
# through `-y rtl`, and rtl/noc_lint.vlt holds the project's (documented) lint waivers.
#
# Test-only modules outside rtl/ (e.g. verif/rtl/noc_wire_probe.sv) are linted the same way when
# given after the two arguments; they use the rtl/ packages and modules but are not part of rtl/.
#
# --files: only the files (each as its top, and the 32-bit layout); --shapes: only the router in the
# harness's other shapes (below). make test lints the files, make regress the shapes too.
#
# Usage: verif/rtl/lint.sh [--files|--shapes] [rtl-dir] [verilator-binary] [extra-module.sv ...]
set -uo pipefail

part=all
case ${1:-} in
  --files) part=files; shift ;;
  --shapes) part=shapes; shift ;;
  --*) echo "lint: unknown option '$1'; valid: --files, --shapes" >&2; exit 2 ;;
esac
rtl_dir=${1:-$(cd "$(dirname "$0")/../../rtl" && pwd)}
verilator=${2:-verilator}
extra_files=("${@:3}")

shopt -s nullglob
pkgs=("$rtl_dir"/*_pkg.sv)
files=("$rtl_dir"/*.sv "${extra_files[@]}")
if [[ ${#files[@]} -eq 0 ]]; then
  echo "lint: no .sv files in $rtl_dir" >&2
  exit 1
fi
waivers=()
[[ -f "$rtl_dir/noc_lint.vlt" ]] && waivers=("$rtl_dir/noc_lint.vlt")

failed=()
# Runs "${cmd[@]}"; clean means no output at all. Reports it under name $1.
lint_one() {
  local output
  if output=$("${cmd[@]}" 2>&1) && [[ -z "$output" ]]; then
    echo "lint: $1 clean"
  else
    echo "lint: $1 FAILED"
    echo "  command: ${cmd[*]}"
    echo "$output" | sed 's/^/  /'
    failed+=("$1")
  fi
}
[[ $part == shapes ]] && files=()
for file in "${files[@]}"; do
  name=$(basename "$file" .sv)
  if [[ "$name" == *_pkg ]]; then
    # A package has no top module: lint it together with the packages it may use.
    cmd=("$verilator" --lint-only -Wall --assert -I"$rtl_dir" "${waivers[@]}" "${pkgs[@]}")
  else
    others=()
    for pkg in "${pkgs[@]}"; do [[ "$pkg" != "$file" ]] && others+=("$pkg"); done
    cmd=("$verilator" --lint-only -Wall --assert -I"$rtl_dir" -y "$rtl_dir" "${waivers[@]}" "${others[@]}"
         "$file" --top-module "$name")
  fi
  lint_one "$name"
done

# The router in the other shapes the harness builds (rtl/CMakeLists.txt): star graph S4 (3 network
# ports, 1 or 3 local pairs), all-port 2D (4 and 4), S6 (5 and 5) and 3D (6 and 6): widths that
# only appear there; and with the configuration registers of the verilated variants
# (RegisterConfig = 1).
router_file="$rtl_dir/noc_router.sv"
if [[ -f "$router_file" && $part != files ]]; then
  others=()
  for pkg in "${pkgs[@]}"; do others+=("$pkg"); done
  for shape in "3 1 1" "3 3 1" "4 1 1" "4 4 0" "5 5 1" "6 6 1"; do
    read -r net locals registered <<<"$shape"
    cmd=("$verilator" --lint-only -Wall --assert -I"$rtl_dir" -y "$rtl_dir" "${waivers[@]}" "${others[@]}"
         "$router_file" --top-module noc_router -GNumNetPorts="$net" -GNumLocal="$locals"
         -GRegisterConfig="$registered")
    lint_one "noc_router NumNetPorts=$net NumLocal=$locals RegisterConfig=$registered"
  done
fi

# The compact 32-bit head layout (NOC_DATA_W = 32, rtl/noc_pkg.sv): the package, the router (its
# submodules through -y) and the network top, and the test-only probe when given.
thirty_two_bit_tops=(noc_pkg noc_router noc_network_top noc_wire_probe)
[[ $part == shapes ]] && thirty_two_bit_tops=()
for top in "${thirty_two_bit_tops[@]}"; do
  file="$rtl_dir/$top.sv"
  for extra in "${extra_files[@]}"; do [[ $(basename "$extra" .sv) == "$top" ]] && file=$extra; done
  [[ -f "$file" ]] || continue
  if [[ "$top" == *_pkg ]]; then
    cmd=("$verilator" --lint-only -Wall --assert -DNOC_DATA_W=32 -I"$rtl_dir" "${waivers[@]}" "${pkgs[@]}")
  else
    others=()
    for pkg in "${pkgs[@]}"; do [[ "$pkg" != "$file" ]] && others+=("$pkg"); done
    cmd=("$verilator" --lint-only -Wall --assert -DNOC_DATA_W=32 -I"$rtl_dir" -y "$rtl_dir" "${waivers[@]}"
         "${others[@]}" "$file" --top-module "$top")
  fi
  lint_one "$top NOC_DATA_W=32"
done

if [[ ${#failed[@]} -ne 0 ]]; then
  echo "lint: ${#failed[@]} file(s) not clean: ${failed[*]}" >&2
  exit 1
fi
if [[ $part == shapes ]]; then
  echo "lint: the router clean in every shape"
else
  echo "lint: all ${#files[@]} file(s) clean"
fi
