#!/usr/bin/env bash
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
# Usage: verif/rtl/lint.sh [rtl-dir] [verilator-binary] [extra-module.sv ...]
set -uo pipefail

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
  if output=$("${cmd[@]}" 2>&1) && [[ -z "$output" ]]; then
    echo "lint: $name clean"
  else
    echo "lint: $name FAILED"
    echo "  command: ${cmd[*]}"
    echo "$output" | sed 's/^/  /'
    failed+=("$name")
  fi
done

if [[ ${#failed[@]} -ne 0 ]]; then
  echo "lint: ${#failed[@]} file(s) not clean: ${failed[*]}" >&2
  exit 1
fi
echo "lint: all ${#files[@]} file(s) clean"
