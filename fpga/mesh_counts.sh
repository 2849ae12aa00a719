#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Resource counts of the mesh self-test network (fpga/noc_selftest_mesh.sv; docs/fpga.md, "The
# mesh self-test", counts table) for a team with a board larger than the HX8K: yosys 0.23 only,
# no place and route. Not part of make test (a 4x4 takes 15-30 min of CPU per flow).
#
# For each size (2x2, 4x4) and BufDepth (4, 1), 32-bit flits, 4 VCs, yosys reads rtl/ and fpga/
# (packages first, `read_verilog -sv -noautowire -DNOC_DATA_W=32`), sets SizeX, SizeY and BufDepth
# with `chparam` and runs, flattened, on the whole top:
#   - synth_ice40: SB_LUT4 cells and flip-flops (SB_DFF*);
#   - synth_ecp5 -nowidelut: LUT4 cells and flip-flops (TRELLIS_FF); -nowidelut maps to LUT4 only, as
#     make fpga BOARD=ulx3s does (the default wide-function mapping, LUT4 + PFUMX/L6MUX21, about
#     doubled the LUT4 count of these meshes against iCE40's);
#   - synth_xilinx -family xc7 -flatten: LUT1..LUT6 cells and flip-flops (FD*).
# --hier synthesizes every distinct module once instead (`synth_<flow> -noflatten`, then `flatten`,
# as Rtl.YosysSynthNoLatches counts the network top): minutes instead of tens of minutes for a 4x4,
# but nothing is optimized across module boundaries (the constant configuration, the idle mesh
# edge ports), so it is an upper bound; its rows are marked "hier".
# Logs and stat files stay in <out-dir>; the table is printed and written to
# <out-dir>/mesh_counts.md and docs/results/mesh_counts.md (mesh_counts_hier.md with --hier). A stat
# file already there is reused (delete it to rerun that run).
#
# Usage: fpga/mesh_counts.sh [--sizes "2x2 4x4"] [--depths "4 1"] [--flows "ice40 ecp5 xilinx"]
#                            [--jobs N] [--hier] [out-dir]   (default out-dir build/mesh_counts, 1 job)
set -uo pipefail

sizes="2x2 4x4"
depths="4 1"
flows="ice40 ecp5 xilinx"
jobs=1
hier=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --sizes) sizes=${2:?--sizes needs a list such as "2x2 4x4"}; shift 2 ;;
    --depths) depths=${2:?--depths needs a list such as "4 1"}; shift 2 ;;
    --flows) flows=${2:?--flows needs a list of ice40, ecp5, xilinx}; shift 2 ;;
    --jobs) jobs=${2:?--jobs needs a number}; shift 2 ;;
    --hier) hier=1; shift ;;
    -*) echo "mesh_counts.sh: unknown option '$1' (valid: --sizes, --depths, --flows, --jobs, --hier)" >&2; exit 2 ;;
    *) break ;;
  esac
done
for size in $sizes; do
  [[ "$size" =~ ^[2-4]x[2-4]$ ]] ||
    { echo "mesh_counts.sh: size '$size' is not RxC with R and C in 2..4 (noc_selftest_mesh's range)" >&2; exit 2; }
done
for flow in $flows; do
  [[ "$flow" =~ ^(ice40|ecp5|xilinx)$ ]] ||
    { echo "mesh_counts.sh: flow '$flow' is not one of ice40, ecp5, xilinx" >&2; exit 2; }
done
for depth in $depths; do
  [[ "$depth" =~ ^[1-9][0-9]*$ ]] || { echo "mesh_counts.sh: BufDepth '$depth' is not a positive number" >&2; exit 2; }
done

suffix=""
[[ $hier -eq 1 ]] && suffix=_hier
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
out_dir=${1:-build/mesh_counts}
yosys=${YOSYS:-yosys}
mkdir -p "$out_dir"
files=("$root/rtl/noc_pkg.sv" "$here"/*_pkg.sv)
for f in "$root"/rtl/*.sv "$here"/*.sv; do [[ "$f" == *_pkg.sv ]] || files+=("$f"); done

run_yosys() {
  local size=$1 depth=$2 flow=$3 tag cmd
  tag="mesh${size}_d${depth}${suffix}.$flow"
  [[ -s "$out_dir/$tag.stat" ]] && return 0
  case $flow in
    ice40) cmd="synth_ice40 -top noc_selftest_mesh" ;;
    ecp5) cmd="synth_ecp5 -nowidelut -top noc_selftest_mesh" ;;
    xilinx) cmd="synth_xilinx -family xc7 -flatten -top noc_selftest_mesh" ;;
  esac
  if [[ $hier -eq 1 ]]; then
    # synth_xilinx keeps the hierarchy unless -flatten; the others flatten unless -noflatten. Then
    # flatten, and drop the submodules' definitions so that stat counts the top alone.
    case $flow in
      xilinx) cmd="synth_xilinx -family xc7 -top noc_selftest_mesh" ;;
      *) cmd="$cmd -noflatten" ;;
    esac
    cmd="$cmd; flatten; hierarchy -top noc_selftest_mesh"
  fi
  local start=$SECONDS
  # `rename -top`: yosys 0.23 may leave a chparam'd top as `$paramod...` (docs/sv-subset.md, "Tool notes").
  if "$yosys" -q -l "$out_dir/$tag.log" -p "read_verilog -sv -noautowire -DNOC_DATA_W=32 -I$root/rtl ${files[*]};
chparam -set SizeX ${size%x*} -set SizeY ${size#*x} -set BufDepth $depth noc_selftest_mesh;
hierarchy -check -top noc_selftest_mesh; rename -top noc_selftest_mesh; $cmd; tee -q -o $out_dir/$tag.stat.tmp stat" \
    >/dev/null 2>&1; then
    mv "$out_dir/$tag.stat.tmp" "$out_dir/$tag.stat"
    echo "mesh_counts: $tag done in $((SECONDS - start)) s" >&2
  else
    echo "mesh_counts: yosys failed on $tag (log: $out_dir/$tag.log)" >&2
  fi
}

# Sum of the counts of the cells whose type matches a regex, from one stat file.
count() {
  local file="$out_dir/$1.stat"
  [[ -f "$file" ]] || { echo "?"; return; }
  awk -v pat="$2" '$1 ~ pat && $2 ~ /^[0-9]+$/ { n += $2 } END { print n + 0 }' "$file"
}

for size in $sizes; do
  for depth in $depths; do
    for flow in $flows; do
      while [[ $(jobs -rp | wc -l) -ge $jobs ]]; do wait -n; done
      run_yosys "$size" "$depth" "$flow" &
    done
  done
done
wait

table="$out_dir/mesh_counts${suffix}.md"
{
  echo "noc_selftest_mesh, 32-bit flits, 4 VCs (fpga/mesh_counts.sh; ECP5 synth_ecp5 -nowidelut); yosys $("$yosys" -V | awk '{print $2}'), $([[ $hier -eq 1 ]] && echo "hier: -noflatten, then flatten" || echo flattened)"
  echo
  echo "| Mesh | BufDepth | iCE40 LUT4 | iCE40 FF | ECP5 LUT4 | ECP5 FF | Xilinx-7 LUT | Xilinx-7 FF |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|"
  for size in $sizes; do
    for depth in $depths; do
      tag="mesh${size}_d${depth}${suffix}"
      echo "| $size${suffix:+ (hier)} | $depth | $(count "$tag.ice40" '^SB_LUT4$') | $(count "$tag.ice40" '^SB_DFF') \
| $(count "$tag.ecp5" '^LUT4$') | $(count "$tag.ecp5" '^TRELLIS_FF$') \
| $(count "$tag.xilinx" '^LUT[1-6]$') | $(count "$tag.xilinx" '^FD') |"
    done
  done
} >"$table"
cat "$table"
mkdir -p "$root/docs/results"
cp "$table" "$root/docs/results/$(basename "$table")"
