#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Lever 4 of docs/rtl.md "Router v2" (one route compute per router), measured as an upper bound: an
# area experiment on a scratch copy of rtl/, not a router. In the copy, noc_input_unit gets a
# parameter that leaves out its noc_route_compute and takes the decision (valid, eject, port,
# class) from a new input, and noc_router feeds input port 0's decision to ports 1..4, so four of
# the five route computes are gone (and ports 1..4 route by port 0's heads: the netlist does not
# work, it only counts). Then the node row of `make synth` (verif/rtl/synth_node_router.sv, flat
# synth_ice40) of the copy and of rtl/ itself, and, synthesized alone, what sharing would add: a
# 5-way round-robin turn (noc_rr_arbiter) and a one-hot 5:1 mux of the 21 head bits route compute
# reads (mode, class, dest of the 32-bit head).
#
# Usage: verif/rtl/synth_lever4.sh <NumVcs> [out-dir]   (about 3 to 6 minutes of yosys)
set -euo pipefail

vcs=${1:?usage: synth_lever4.sh <NumVcs> [out-dir]}
here=$(cd "$(dirname "$0")" && pwd)
rtl_dir=$(cd "$here/../../rtl" && pwd)
out_dir=${2:-build/synth_lever4}
yosys=${YOSYS:-yosys}
mkdir -p "$out_dir"
out_dir=$(cd "$out_dir" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$rtl_dir"/*.sv "$rtl_dir"/*.svh "$work"/

# The edit: anchored on the lines it changes; it stops with a message if one is not found (the RTL
# moved on and the experiment needs a new anchor).
python3 - "$work" <<'EOF'
import sys
work = sys.argv[1]

def edit(path, old, new, count=1):
    s = open(path).read()
    if old not in s:
        sys.exit(f"synth_lever4: anchor not found in {path}: {old.splitlines()[0]!r}")
    open(path, "w").write(s.replace(old, new, count))

iu = f"{work}/noc_input_unit.sv"
edit(iu, "  parameter int unsigned LabelW = 16,",
     "  parameter int unsigned LabelW = 16,\n  parameter int unsigned ExtRc = 0,")
edit(iu, "  input  logic                       valid_i,",
     "  input  logic [3+$clog2(NumPorts)+2-1:0] ext_rc_i,\n"
     "  output logic [3+$clog2(NumPorts)+2-1:0] rc_o,\n"
     "  input  logic                       valid_i,")
s = open(iu).read()
begin = s.index("  noc_route_compute #(\n")
end = s.index("  logic                dc_valid")
rc = s[begin:end]
edit(iu, rc,
     "  if (ExtRc == 1) begin : gen_ext_rc\n"
     "    assign {rc_valid, rc_eject, rc_port, rc_class} = ext_rc_i[1+1+PortW+ClassW-1:0];\n"
     "  end else begin : gen_rc\n" + rc + "  end\n"
     "  assign rc_o = {1'b0, rc_valid, rc_eject, rc_port, rc_class};\n\n")
router = f"{work}/noc_router.sv"
edit(router, "  for (genvar i = 0; i < NumPorts; i++) begin : gen_in\n    noc_input_unit #(",
     "  localparam int unsigned RcW = 3 + $clog2(NumNetPorts) + 2;\n"
     "  logic [NumPorts*RcW-1:0] rc_all;\n"
     "  for (genvar i = 0; i < NumPorts; i++) begin : gen_in\n    noc_input_unit #(\n"
     "      .ExtRc   ((i != 0) ? 1 : 0),")
edit(router, "      .valid_i   (in_valid_i[i]),",
     "      .ext_rc_i  (rc_all[0 +: RcW]),\n      .rc_o      (rc_all[i*RcW +: RcW]),\n"
     "      .valid_i   (in_valid_i[i]),")
EOF

cat >"$work/rc_share_mux.sv" <<'EOF'
// The turn and head mux one shared route compute needs (lever 4's estimate; synth_lever4.sh).
module rc_share_mux #(
  parameter int unsigned N = 5,
  parameter int unsigned W = 21
) (
  input  logic           clk_i,
  input  logic           rst_ni,
  input  logic [N-1:0]   want_i,
  input  logic [N*W-1:0] head_i,
  output logic [W-1:0]   head_o,
  output logic [N-1:0]   gnt_o
);
  noc_rr_arbiter #(.NumReq(N)) u_turn (.clk_i, .rst_ni, .req_i(want_i), .advance_i(1'b1), .gnt_o(gnt_o));
  always_comb begin
    head_o = '0;
    for (int i = 0; i < N; i++) if (gnt_o[i]) head_o = head_o | head_i[i*W +: W];
  end
endmodule
EOF

node_row() {  # <rtl dir> <tag>
  local dir=$1 tag=$2 files=()
  files=("$dir"/*_pkg.sv)
  for file in "$dir"/*.sv; do [[ "$file" == *_pkg.sv || "$file" == */rc_share_mux.sv ]] || files+=("$file"); done
  files+=("$here/synth_node_router.sv")
  "$yosys" -q -l "$out_dir/$tag.log" -p "read_verilog -sv -noautowire -DNOC_DATA_W=32 -I$dir ${files[*]};
chparam -set NumVcs $vcs -set NumLocal 1 -set BufDepth 4 synth_node_router;
hierarchy -check -top synth_node_router; rename -top synth_node_router; synth_ice40 -top synth_node_router;
tee -q -o $out_dir/$tag.stat stat" >/dev/null 2>&1 || { echo "synth_lever4: yosys failed (log: $out_dir/$tag.log)" >&2; exit 1; }
}
count() { awk -v pat="$2" '$1 ~ pat && $2 ~ /^[0-9]+$/ { n += $2 } END { print n + 0 }' "$out_dir/$1.stat"; }

node_row "$rtl_dir" "node_v${vcs}"
node_row "$work" "node_v${vcs}_one_rc"
"$yosys" -q -l "$out_dir/rc_share_mux.log" -p "read_verilog -sv -noautowire $work/noc_rr_arbiter.sv $work/rc_share_mux.sv;
synth_ice40 -top rc_share_mux; tee -q -o $out_dir/rc_share_mux.stat stat" >/dev/null 2>&1 ||
  { echo "synth_lever4: yosys failed (log: $out_dir/rc_share_mux.log)" >&2; exit 1; }

echo "| Node router, $vcs VCs (iCE40) | LUT4 | FF |"
echo "|---|---:|---:|"
echo "| rtl/ (a route compute per input port) | $(count "node_v${vcs}" '^SB_LUT4$') | $(count "node_v${vcs}" '^SB_DFF') |"
echo "| four of the five route computes removed (not a router) | $(count "node_v${vcs}_one_rc" '^SB_LUT4$') | $(count "node_v${vcs}_one_rc" '^SB_DFF') |"
echo "| the 5-way turn and 5:1 head mux alone | $(count rc_share_mux '^SB_LUT4$') | $(count rc_share_mux '^SB_DFF') |"
