#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The mesh self-test (fpga/noc_selftest_mesh.sv; docs/fpga.md, "The mesh self-test") simulated once,
# by hand, at a size make test does not build (the test has the 2x2): Verilator 5.006 with --assert
# and the FPGA build's 32-bit flits, C++ at -O0 (a 4x4 is 16 routers: about 6 min of CPU to build,
# 10 s to run to the verdict and 8,192 cycles more), driven by verif/fpga/mesh_selftest_main.cpp.
# Exit 0 on pass with no fail and no assertion.
#
# Usage: fpga/mesh_sim.sh [RxC (4x4)] [out-dir (build/mesh_sim)] [extra Verilator -G options ...]
set -euo pipefail

size=${1:-4x4}
out_dir=${2:-build/mesh_sim}
shift $(($# > 2 ? 2 : $#))
[[ "$size" =~ ^[2-4]x[2-4]$ ]] ||
  { echo "mesh_sim.sh: size '$size' is not RxC with R and C in 2..4 (noc_selftest_mesh's range)" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
files=("$root/rtl/noc_pkg.sv" "$here"/*_pkg.sv)
for f in "$root"/rtl/*.sv; do [[ "$f" == *_pkg.sv ]] || files+=("$f"); done
files+=("$here/noc_lfsr.sv" "$here/noc_credit_audit.sv" "$here/noc_audit_schedule.sv" "$here/noc_mesh_traffic_gen.sv"
        "$here/noc_mesh_delivery_check.sv" "$here/noc_selftest_mesh.sv")
obj="$out_dir/mesh$size"
mkdir -p "$obj"
verilator --cc --exe --assert -Wall -Wno-fatal -DNOC_DATA_W=32 -I"$root/rtl" "$root/rtl/noc_lint.vlt" "${files[@]}" \
  "$root/verif/fpga/mesh_selftest_main.cpp" --top-module noc_selftest_mesh -GSizeX="${size%x*}" -GSizeY="${size#*x}" \
  -CFLAGS "-I$root" "$@" -Mdir "$obj" -o mesh_selftest >/dev/null
make -s -C "$obj" -f Vnoc_selftest_mesh.mk -j 2 OPT_FAST=-O0 OPT_SLOW=-O0 OPT_GLOBAL=-O0 >/dev/null
"$obj/mesh_selftest"
