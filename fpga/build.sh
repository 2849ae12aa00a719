#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `make fpga`: the self-test bitstream for the iCE40-HX8K Breakout Board (docs/fpga.md).
#
#   1. icepll: the SB_PLL40_CORE settings from the board's 12 MHz for the design clock FPGA_MHZ
#      (the nearest the PLL reaches; its exact frequency is what the UART divisor and the timing
#      target use);
#   2. yosys 0.23 synth_ice40 of wormcast_hx8k (rtl/*.sv with noc_pkg.sv first, fpga/*.sv,
#      -DNOC_DATA_W=32), the PLL settings set with chparam;
#   3. nextpnr-ice40 --hx8k --package ct256 with fpga/hx8k_breakout.pcf at that clock and seed;
#   4. icepack to <out>/wormcast_hx8k.bin, written only when timing is met; icetime's timing
#      estimate of the placed design as a second opinion;
#   5. the report: logic cells, LUT4, flip-flops, block RAMs and PLLs used of the part, nextpnr's
#      fmax against the clock, into <out>/report.md and (the committed figures, one file per
#      buffer depth; not for the stand-in) docs/results/fpga_hx8k_bufdepth<N>.md.
# Exit status: 0 when the design is placed, routed and meets the clock (nextpnr's fmax at least the
# target); 1 when timing is not met (the report still prints; no .bin) or the design does not fit
# the part (the logic cells it needs are printed); 2 when a tool fails.
#
# Environment: FPGA_MHZ (default 16), FPGA_SEED (default 1), FPGA_BUFDEPTH (flits per input VC of
# the two routers, 1..16, default 1), FPGA_STANDIN=1 builds the flow around
# the test-only counter stand-in verif/fpga/standin/noc_selftest.sv instead of fpga/noc_selftest.sv
# (a test of the flow and the board parts, not of the network), NEXTPNR_TIMEOUT (seconds, 1200),
# SYNTH_ICE40_OPTS and NEXTPNR_OPTS (added to synth_ice40 and nextpnr-ice40, as in make synth;
# empty by default: the tools' defaults; docs/rtl.md "Arbiters and tool options").
#
# Usage: fpga/build.sh [out-dir]   (default build/fpga)
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
out_dir=${1:-build/fpga}
mhz=${FPGA_MHZ:-16}
seed=${FPGA_SEED:-1}
bufdepth=${FPGA_BUFDEPTH:-1}
standin=${FPGA_STANDIN:-0}
timeout_s=${NEXTPNR_TIMEOUT:-1200}
synth_opts=${SYNTH_ICE40_OPTS-}
nextpnr_opts=${NEXTPNR_OPTS-}
yosys=${YOSYS:-yosys}
nextpnr=${NEXTPNR_ICE40:-nextpnr-ice40}
mkdir -p "$out_dir"
out_dir=$(cd "$out_dir" && pwd)
pcf=$here/hx8k_breakout.pcf
top=wormcast_hx8k

fail() { echo "fpga: $*" >&2; exit 2; }
[[ "$bufdepth" =~ ^[0-9]+$ ]] && ((bufdepth >= 1 && bufdepth <= 16)) ||
  fail "FPGA_BUFDEPTH '$bufdepth' is not a depth of 1..16 flits per VC"
for tool in "$yosys" "$nextpnr" icepll icepack icetime; do
  command -v "$tool" >/dev/null || fail "$tool not found (scripts/ensure-deps.sh installs it)"
done

# 1. PLL settings.
pll=$(icepll -i 12 -o "$mhz" -q -f - 2>&1) || fail "icepll cannot make $mhz MHz from 12 MHz: $pll"
field() { echo "$pll" | grep -oE "$1 = *[0-9]+" | grep -oE '[0-9]+$'; }
divr=$(field DIVR); divf=$(field DIVF); divq=$(field DIVQ); filter=$(field FILTER_RANGE)
[[ -n "$divr" && -n "$divf" && -n "$divq" && -n "$filter" ]] || fail "cannot read icepll's output: $pll"
clk_hz=$((12000000 * (divf + 1) / (divr + 1) / (1 << divq)))
clk_mhz=$(awk -v hz="$clk_hz" 'BEGIN { printf "%.4f", hz / 1e6 }')

# 2. Synthesis.
shopt -s nullglob
board_files=(reset_sync uart_tx status_line board_status wormcast_hx8k_core wormcast_hx8k)
if [[ "$standin" == 1 ]]; then
  # The board's own modules and the stand-in only (no router, no network).
  files=()
  for m in "${board_files[@]}"; do files+=("$here/$m.sv"); done
  files+=("$root/verif/fpga/standin/noc_selftest.sv")
  echo "fpga: FPGA_STANDIN=1: the test-only counter stand-in replaces the self-test network" >&2
else
  [[ -f "$here/noc_selftest.sv" ]] ||
    fail "fpga/noc_selftest.sv is missing (FPGA_STANDIN=1 builds the flow around a test-only stand-in)"
  # Packages first (rtl/noc_pkg.sv, fpga/*_pkg.sv), then every module of rtl/ and fpga/.
  files=("$root/rtl/noc_pkg.sv")
  for f in "$root"/rtl/*.sv; do [[ "$f" == */noc_pkg.sv ]] || files+=("$f"); done
  files+=("$here"/*_pkg.sv)
  for f in "$here"/*.sv; do [[ "$f" == *_pkg.sv ]] || files+=("$f"); done
fi

start=$SECONDS
echo "fpga: design clock $clk_mhz MHz (PLL DIVR $divr DIVF $divf DIVQ $divq FILTER_RANGE $filter), seed $seed" >&2
echo "fpga: yosys synth_ice40 ..." >&2
"$yosys" -q -l "$out_dir/yosys.log" -p "read_verilog -lib +/ice40/cells_sim.v;
read_verilog -sv -noautowire -DNOC_DATA_W=32 -I$root/rtl ${files[*]};
chparam -set DivR $divr -set DivF $divf -set DivQ $divq -set FilterRange $filter -set ClkHz $clk_hz $(
  [[ "$standin" == 1 ]] || echo "-set BufDepth $bufdepth") $top;
hierarchy -top $top; rename -top $top;
synth_ice40 $synth_opts -top $top -json $out_dir/$top.json;
tee -q -o $out_dir/yosys.stat stat" >/dev/null 2>&1 ||
  fail "yosys failed: $(grep -m1 'ERROR' "$out_dir/yosys.log") (log: $out_dir/yosys.log)"
yosys_s=$((SECONDS - start))

# What was built, for make fpga-check (verif/fpga/fpga_check.sh).
printf 'standin=%s\nclk_hz=%s\nclk_mhz=%s\nseed=%s\nbufdepth=%s\n' "$standin" "$clk_hz" "$clk_mhz" "$seed" "$bufdepth" \
  >"$out_dir/build.env"

# 3. Place and route.
start=$SECONDS
echo "fpga: nextpnr-ice40 --hx8k --package ct256 --freq $clk_mhz --seed $seed $nextpnr_opts ..." >&2
rm -f "$out_dir/$top.asc" "$out_dir/$top.bin"
# shellcheck disable=SC2086  # the options are words
timeout "$timeout_s" "$nextpnr" --hx8k --package ct256 --pcf "$pcf" --json "$out_dir/$top.json" \
  --asc "$out_dir/$top.asc" --freq "$clk_mhz" --seed "$seed" --timing-allow-fail -q $nextpnr_opts \
  -l "$out_dir/nextpnr.log" >/dev/null 2>&1
rc=$?
nextpnr_s=$((SECONDS - start))
[[ $rc -eq 124 ]] && fail "nextpnr did not finish in $timeout_s s (log: $out_dir/nextpnr.log)"
if [[ $rc -ne 0 ]] && grep -qE 'Unable to place|no BELs remaining' "$out_dir/nextpnr.log"; then
  # The design is larger than the part: print what it needs and stop (no bitstream).
  used=$(grep -oE 'ICESTORM_LC: +[0-9]+/ *[0-9]+' "$out_dir/nextpnr.log" | head -1 | sed -E 's/ICESTORM_LC: +//; s/ //g')
  luts=$(awk '$1 == "SB_LUT4" { print $2 }' "$out_dir/yosys.stat")
  ffs=$(awk '$1 ~ /^SB_DFF/ { n += $2 } END { print n + 0 }' "$out_dir/yosys.stat")
  echo "fpga: DOES NOT FIT the HX8K: $used logic cells needed ($luts LUT4, $ffs flip-flops, yosys ${yosys_s} s;" \
    "log: $out_dir/nextpnr.log); no bitstream" >&2
  exit 1
fi
[[ $rc -eq 0 && -f "$out_dir/$top.asc" ]] || fail "nextpnr failed (log: $out_dir/nextpnr.log)"

# 4. Timing estimate and bitstream.
icetime -d hx8k -P ct256 -p "$pcf" -c "$clk_mhz" -t -r "$out_dir/icetime.rpt" "$out_dir/$top.asc" \
  >"$out_dir/icetime.log" 2>&1
icetime_mhz=$(grep -oE '(Timing estimate|Total path delay): [0-9.]+ ns \([0-9.]+ MHz\)' "$out_dir/icetime.log" | tail -1 |
  grep -oE '\([0-9.]+' | tr -d '(')

# 5. Report. Utilisation from nextpnr's "Device utilisation" (after packing), LUT4 and FF from
# yosys stat, fmax from nextpnr's last "Max frequency for clock" of the design clock (post-route).
util() { grep -oE "$1: +[0-9]+/ *[0-9]+" "$out_dir/nextpnr.log" | tail -1 | sed -E "s/$1: +([0-9]+)\/ *([0-9]+)/\1 \2/"; }
count() { awk -v pat="$1" '$1 ~ pat && $2 ~ /^[0-9]+$/ { n += $2 } END { print n + 0 }' "$out_dir/yosys.stat"; }
read -r lc_used lc_all <<<"$(util ICESTORM_LC)"
read -r ram_used ram_all <<<"$(util ICESTORM_RAM)"
read -r pll_used pll_all <<<"$(util ICESTORM_PLL)"
read -r io_used io_all <<<"$(util SB_IO)"
luts=$(count '^SB_LUT4$')
ffs=$(count '^SB_DFF')
fmax_line=$(grep -E "Max frequency for clock +'[^']*u_pll[^']*'" "$out_dir/nextpnr.log" | tail -1)
[[ -n "$fmax_line" ]] || fmax_line=$(grep -E 'Max frequency for clock' "$out_dir/nextpnr.log" | tail -1)
fmax=$(echo "$fmax_line" | grep -oE ': [0-9.]+ MHz' | grep -oE '[0-9.]+')
[[ -n "$fmax" ]] || fail "no fmax in $out_dir/nextpnr.log"
met=$(awk -v f="$fmax" -v t="$clk_mhz" 'BEGIN { print (f >= t) ? 1 : 0 }')
pct() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", 100 * a / b }'; }

if [[ $met -eq 1 ]]; then
  icepack "$out_dir/$top.asc" "$out_dir/$top.bin" || fail "icepack failed"
fi

report=$out_dir/report.md
{
  echo "wormcast_hx8k on iCE40HX8K-CT256$([[ "$standin" == 1 ]] && echo " (FLOW TEST: test-only counter stand-in, not the network)"):" \
    "yosys $("$yosys" -V | awk '{print $2}'), $("$nextpnr" --version 2>&1 | head -1 | sed 's/.*(Version //; s/)//')," \
    "BufDepth $bufdepth, seed $seed, commit $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?');" \
    "synth_ice40 ${synth_opts:-(no options)}, nextpnr-ice40 options ${nextpnr_opts:-(none)}"
  echo
  echo "| Resource | Used | Of the part | % |"
  echo "|---|---:|---:|---:|"
  echo "| Logic cells (ICESTORM_LC) | $lc_used | $lc_all | $(pct "$lc_used" "$lc_all") |"
  echo "| LUT4 (SB_LUT4, yosys) | $luts | $lc_all | $(pct "$luts" "$lc_all") |"
  echo "| Flip-flops (SB_DFF*, yosys) | $ffs | $lc_all | $(pct "$ffs" "$lc_all") |"
  echo "| Block RAM (EBR, 4 kbit) | $ram_used | $ram_all | $(pct "$ram_used" "$ram_all") |"
  echo "| PLL | $pll_used | $pll_all | $(pct "$pll_used" "$pll_all") |"
  echo "| I/O | $io_used | $io_all | $(pct "$io_used" "$io_all") |"
  echo
  echo "Design clock $clk_mhz MHz (PLL from 12 MHz); nextpnr fmax $fmax MHz:" \
    "$([[ $met -eq 1 ]] && echo "met, $(awk -v f="$fmax" -v t="$clk_mhz" 'BEGIN { printf "%.1f", 100 * (f - t) / t }') % margin" || echo "NOT MET")." \
    "icetime estimate: ${icetime_mhz:-?} MHz. yosys ${yosys_s} s, nextpnr ${nextpnr_s} s."
} >"$report"
cat "$report"
if [[ "$standin" != 1 ]]; then
  results=$root/docs/results/fpga_hx8k_bufdepth$bufdepth.md
  { echo "# make fpga FPGA_BUFDEPTH=$bufdepth FPGA_MHZ=$mhz: the two-router self-test on the iCE40 HX8K"
    echo
    echo "Written by \`make fpga\` (fpga/build.sh; docs/fpga.md): do not edit."
    echo
    cat "$report"; } >"$results" || fail "cannot write $results"
fi
if [[ $met -eq 1 ]]; then
  echo "fpga: bitstream $out_dir/$top.bin (program: iceprog $out_dir/$top.bin)" >&2
  exit 0
fi
echo "fpga: timing NOT met ($fmax MHz < $clk_mhz MHz): no bitstream written; try another FPGA_SEED or a lower FPGA_MHZ" >&2
exit 1
