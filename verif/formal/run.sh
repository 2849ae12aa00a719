#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# make formal: formal proofs of the router's leaf cells, and the mutants each proof must reject
# (docs/verification.md).
#
# Every proof reads its files with `read_verilog -sv -formal -noautowire -DSYNTHESIS` (FORMAL
# enables the cell's own `ifdef FORMAL` block; SYNTHESIS compiles the simulation NOC_ASSERTs out,
# as in every yosys run), turns the asynchronous resets into synchronous ones (async2sync), maps the
# design to an AIG with the asserts as bad-state properties and the assumes as constraints
# (write_aiger -B), and proves every assert for all reachable states with ABC's property-directed
# reachability (yosys-abc: read_aiger; fold; strash; pdr). "proved" is an unbounded proof, not a
# bounded check; the whole router's checks are bounded ones (engine bmc:N, bmcs:N: no
# counterexample in the first N cycles from reset). A mutant is a one-line sed on a copy of rtl/ (never on the tree): its proof must
# fail (ABC finds a counterexample), else the proof is not checking what it claims.
#
# Usage: verif/formal/run.sh [--only REGEX] [--results FILE] [--list]
#   --only REGEX   run only the proofs whose name matches REGEX (and their mutants)
#   --results FILE write the table of proofs and mutants with their times (markdown) to FILE
#   --merge        with --only and --results: keep FILE's rows of the proofs not run (and of their
#                  mutants and checks), so one proof's figures are refreshed without running them all
#   --list         print the proof names and exit
# Exit status: 0 all proved and all mutants rejected; 1 a proof failed or a mutant survived;
# 2 bad arguments or a missing tool.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
yosys=${YOSYS:-yosys}
abc=${YOSYS_ABC:-yosys-abc}
pdr_timeout=${FORMAL_TIMEOUT:-600}
bmc_timeout=${FORMAL_BMC_TIMEOUT:-3600}  # wall-clock seconds for a bounded check (engine bmc:N)

only=""
results=""
list=""
merge=""
while [[ $# -gt 0 ]]; do
  case $1 in
    --only) [[ $# -ge 2 ]] || { echo "run.sh: --only needs a regex" >&2; exit 2; }; only=$2; shift 2 ;;
    --results) [[ $# -ge 2 ]] || { echo "run.sh: --results needs a file" >&2; exit 2; }; results=$2; shift 2 ;;
    --merge) merge=1; shift ;;
    --list) list=1; shift ;;
    *) echo "run.sh: unknown argument '$1'; valid: --only REGEX, --results FILE, --merge, --list" >&2; exit 2 ;;
  esac
done
for tool in "$yosys" "$abc"; do
  command -v "$tool" > /dev/null || { echo "run.sh: '$tool' not found (scripts/ensure-deps.sh installs yosys)" >&2; exit 2; }
done

# Proofs: name | top module | files (rtl/ relative names are read from the rtl copy under test,
# verif/ ones from this tree) | chparam arguments | what it proves.
proofs=(
  "fifo_d1|noc_fifo|rtl/noc_fifo.sv|-set Depth 1 -set Width 4|input buffer, 1 entry"
  "fifo_d3|noc_fifo|rtl/noc_fifo.sv|-set Depth 3 -set Width 4|input buffer, 3 entries (pointers wrap below a power of two)"
  "fifo_d4|noc_fifo|rtl/noc_fifo.sv|-set Depth 4 -set Width 8|input buffer, 4 entries (the router's default)"
  "credit_d4_l1|noc_credit_link_formal|rtl/noc_credit_counter.sv verif/formal/noc_credit_link_formal.sv|-set Depth 4 -set FwdLat 1 -set RetLat 1|credit loop, depth 4, one-register links"
  "credit_d3_l23|noc_credit_link_formal|rtl/noc_credit_counter.sv verif/formal/noc_credit_link_formal.sv|-set Depth 3 -set FwdLat 2 -set RetLat 3|credit loop, depth 3, longer links than credits"
  "rr_arbiter_n4|noc_rr_arbiter_formal|rtl/noc_rr_arbiter.sv verif/formal/noc_rr_arbiter_formal.sv|-set NumReq 4|round-robin arbiter, 4 requesters, fairness bound 3"
  "rr_arbiter_n5|noc_rr_arbiter_formal|rtl/noc_rr_arbiter.sv verif/formal/noc_rr_arbiter_formal.sv|-set NumReq 5|round-robin arbiter, 5 requesters, fairness bound 4"
  "switch_alloc_i3o3v2|noc_switch_allocator_formal|rtl/noc_rr_arbiter.sv rtl/noc_switch_allocator.sv verif/formal/noc_switch_allocator_formal.sv|-set NumIn 3 -set NumOut 3 -set NumVcs 2|switch allocator, 3 inputs x 2 VCs, 3 outputs, waiting bound 6 cycles"
  "ni_eject_d2s3|noc_ni_eject_formal|-DNOC_DATA_W=32 rtl/noc_pkg.sv rtl/noc_fifo.sv rtl/noc_ni_eject.sv verif/formal/noc_ni_eject_formal.sv|-set BufDepth 2 -set NumStreams 3|NI ejection, 2 credits, 3 streams, 32-bit flit data: streams never mix"
  "crossbar_i5o5|noc_crossbar_formal|-DNOC_DATA_W=32 rtl/noc_pkg.sv rtl/noc_crossbar.sv verif/formal/noc_crossbar_formal.sv|-set NumIn 5 -set NumOut 5|crossbar, 5 x 5, 34-bit flits: each output is its selected input"
  "output_unit_v2d2|noc_output_unit_formal|-DNOC_DATA_W=32 rtl/noc_pkg.sv rtl/noc_credit_counter.sv rtl/noc_output_unit.sv verif/formal/noc_output_unit_formal.sv|-set NumVcs 2 -set BufDepth 2 -set NumInVcs 3|output unit, 2 VCs of 2 credits, with link and downstream buffers"
  "output_unit_v4d4|noc_output_unit_formal|-DNOC_DATA_W=32 rtl/noc_pkg.sv rtl/noc_credit_counter.sv rtl/noc_output_unit.sv verif/formal/noc_output_unit_formal.sv|-set NumVcs 4 -set BufDepth 4 -set NumInVcs 10|output unit, 4 VCs of 4 credits, 10 input VCs (the 2D router's shape)"
  "vc_ram_buffer_v2d3|noc_vc_ram_buffer|rtl/noc_vc_ram_buffer.sv|-set NumVcs 2 -set Depth 3 -set DataW 4 -set FlagW 2 -set SideW 3|input buffers in RAM read by the grant, 2 VCs of 3 flits (pointers wrap below a power of two)"
  "vc_ram_buffer_v3d4|noc_vc_ram_buffer|rtl/noc_vc_ram_buffer.sv|-set NumVcs 3 -set Depth 4 -set DataW 4 -set FlagW 2 -set SideW 3|input buffers in RAM read by the grant, 3 VCs of 4 flits"
  "ni_inject_v2d2|noc_ni_inject_formal|-DNOC_DATA_W=32 rtl/noc_pkg.sv rtl/noc_ni_inject.sv verif/formal/noc_ni_inject_formal.sv|-set NumVcs 2 -set BufDepth 2|NI injection, 2 VCs of 2 credits, 32-bit flit data"
  "ni_inject_v4d4|noc_ni_inject_formal|-DNOC_DATA_W=32 rtl/noc_pkg.sv rtl/noc_ni_inject.sv verif/formal/noc_ni_inject_formal.sv|-set NumVcs 4 -set BufDepth 4|NI injection, 4 VCs of 4 credits, 32-bit flit data"
  "eject_path_d2s3|noc_ni_eject_formal|-DNOC_DATA_W=32 rtl/noc_pkg.sv rtl/noc_fifo.sv rtl/noc_credit_counter.sv rtl/noc_eject_unit.sv rtl/noc_ni_eject.sv verif/formal/noc_ni_eject_formal.sv|-set BufDepth 2 -set NumStreams 3 -set ViaEjectUnit 1|ejection path: the router's eject unit, its link and the NI, 2 credits, 3 streams"
  "switch_alloc_i5o5v2|noc_switch_allocator_formal|rtl/noc_rr_arbiter.sv rtl/noc_switch_allocator.sv verif/formal/noc_switch_allocator_formal.sv|-set NumIn 5 -set NumOut 5 -set NumVcs 2|switch allocator, 5 inputs x 2 VCs, 5 outputs (the 2D router), waiting bound 10 cycles"
)

# Mutants: name | proof that must fail | rtl file | sed expression (must change exactly one line).
mutants=(
  "fifo_push_when_full|fifo_d3|noc_fifo.sv|s/assign push_en = push_i \& ~full_o;/assign push_en = push_i;/"
  "fifo_pop_when_empty|fifo_d3|noc_fifo.sv|s/assign pop_en  = pop_i \& ~empty_o;/assign pop_en  = pop_i;/"
  "fifo_write_pointer_stuck|fifo_d4|noc_fifo.sv|s/? '0 : wr_ptr_q + PtrW'(1);/? '0 : wr_ptr_q;/"
  "fifo_count_no_decrement|fifo_d3|noc_fifo.sv|s/count_d = count_q - CountW'(1);/count_d = count_q;/"
  "credit_lost_on_send_and_return|credit_d4_l1|noc_credit_counter.sv|s/end else if (consume_en \&\& !return_en) begin/end else if (consume_en) begin/"
  "credit_reset_one_short|credit_d3_l23|noc_credit_counter.sv|s/\`NOC_FF(count_q, count_d, CountW'(Depth))/\`NOC_FF(count_q, count_d, CountW'(Depth - 1))/"
  "rr_winner_keeps_priority|rr_arbiter_n4|noc_rr_arbiter.sv|s/prio_d = advance_i ? sel_below : at_or_after_gnt;/prio_d = at_or_after_gnt;/"
  "rr_grant_all_requesters|rr_arbiter_n4|noc_rr_arbiter.sv|s/assign gnt_o = req_sel & ~sel_below;/assign gnt_o = req_sel;/"
  "sa_outputs_to_losing_input|switch_alloc_i3o3v2|noc_switch_allocator.sv|s/assign out_gnt_o\[o\*NumIn +: NumIn\] = out_tent\[o\*NumIn +: NumIn\] \& in_win;/assign out_gnt_o[o*NumIn +: NumIn] = out_tent[o*NumIn +: NumIn];/"
  "sa_win_without_all_outputs|switch_alloc_i3o3v2|noc_switch_allocator.sv|s/if (pick_req\[i\*NumOut+o\] \&\& !out_tent\[o\*NumIn+i\]) begin/if (1'b0) begin/"
  "sa_no_token_override|switch_alloc_i3o3v2|noc_switch_allocator.sv|s/assign out_tent\[o\*NumIn +: NumIn\] = token_here ? token : out_arb_gnt\[o\*NumIn +: NumIn\];/assign out_tent[o*NumIn +: NumIn] = out_arb_gnt[o*NumIn +: NumIn];/"
  "sa_token_stays_on_one_input|switch_alloc_i3o3v2|noc_switch_allocator.sv|s/.advance_i(1'b1),/.advance_i(1'b0),/"
  "crossbar_valid_always|crossbar_i5o5|noc_crossbar.sv|s/valid_o = '0;/valid_o = '1;/"
  "crossbar_mirrored_inputs|crossbar_i5o5|noc_crossbar.sv|s/| in_i\[i\*FlitW +: FlitW\];/| in_i[(NumIn-1-i)*FlitW +: FlitW];/"
  "ou_link_vc_lost|output_unit_v2d2|noc_output_unit.sv|s/vc_d = VcIdW'(v);/vc_d = '0;/"
  "ou_release_on_every_flit|output_unit_v2d2|noc_output_unit.sv|s/if (send_i\[v\] \&\& tail_i) begin/if (send_i[v]) begin/"
  "vcram_write_lost|vc_ram_buffer_v2d3|noc_vc_ram_buffer.sv|s/mem\[waddr\] <= push_data_i;/mem[waddr] <= '0;/"
  "vcram_read_address_without_vc|vc_ram_buffer_v3d4|noc_vc_ram_buffer.sv|s/raddr = raddr | {VcIdW'(v), rd_ptr_q/raddr = raddr | {VcIdW'(0), rd_ptr_q/"
  "vcram_drop_does_not_pop|vc_ram_buffer_v2d3|noc_vc_ram_buffer.sv|s/assign pop_en\[v\]     = (read_i\[v\] || drop_i\[v\]) \&\& !empty_o\[v\];/assign pop_en[v]     = read_i[v] \&\& !empty_o[v];/"
  "vcram_flags_at_tail|vc_ram_buffer_v2d3|noc_vc_ram_buffer.sv|s/if (rd_ptr_q\[v\*PtrW +: PtrW\] == PtrW'(s)) begin/if (wr_ptr_q[v*PtrW +: PtrW] == PtrW'(s)) begin/"
  "vcram_output_never_loaded|vc_ram_buffer_v2d3|noc_vc_ram_buffer.sv|s/if (read_en != '0) begin/if (1'b0) begin/"
  "vcram_side_read_at_the_front|vc_ram_buffer_v3d4|noc_vc_ram_buffer.sv|s/side_raddr = side_raddr | {VcIdW'(v), rd_next\[v\*PtrW +: PtrW\]};/side_raddr = side_raddr | {VcIdW'(v), rd_ptr_q[v*PtrW +: PtrW]};/"
  "vcram_side_push_only_into_empty|vc_ram_buffer_v2d3|noc_vc_ram_buffer.sv|s/assign pushed_to_front\[v\] = push_en\[v\] \&\& (empty_o\[v\] || (count == CountW'(1) \&\& pop_en\[v\]));/assign pushed_to_front[v] = push_en[v] \&\& empty_o[v];/"
  "vcram_write_pointer_wraps_at_power_of_two|vc_ram_buffer_v2d3|noc_vc_ram_buffer.sv|s/wr_ptr_d = (SingleSlot || wr_ptr_d == PtrW'(Depth - 1)) ? '0 : wr_ptr_d + PtrW'(1);/wr_ptr_d = wr_ptr_d + PtrW'(1);/"
  "ni_inject_head_flag_drifts|ni_inject_v2d2|noc_ni_inject.sv|s/assign first_d = send ? msg_last_i : first_q;/assign first_d = msg_last_i;/"
  "ni_inject_credit_not_spent|ni_inject_v2d2|noc_ni_inject.sv|s/count_d\[v\*CountW +: CountW\] = count_q\[v\*CountW +: CountW\] - CountW'(1);/count_d[v*CountW +: CountW] = count_q[v*CountW +: CountW];/"
  "ni_inject_body_picks_own_vc|ni_inject_v2d2|noc_ni_inject.sv|s/assign vc = first_q ? word_head.vc_class\[VcIdW-1:0\] : vc_q;/assign vc = word_head.vc_class[VcIdW-1:0];/"
  "eject_unit_stream_stuck|eject_path_d2s3|noc_eject_unit.sv|s/assign stream_d = send_i ? stream_i : stream_q;/assign stream_d = stream_q;/"
  "eject_unit_link_drops_flit|eject_path_d2s3|noc_eject_unit.sv|s/\`NOC_FF(valid_q, send_i, 1'b0)/\`NOC_FF(valid_q, 1'b0, 1'b0)/"
  "ni_eject_context_of_every_stream|ni_eject_d2s3|noc_ni_eject.sv|s/if (deliver \&\& front_stream == StreamW'(s)) begin/if (deliver) begin/"
  "ni_eject_no_address_flits|ni_eject_d2s3|noc_ni_eject.sv|s/next_state = (front_head.more != '0) ? StAddr : StPayload;/next_state = StPayload;/"
)

# Tightness: the same proof with its fairness or waiting bound lowered by one must fail (the bound
# stated is the least that holds). name | proof | chparam arguments added.
tight=(
  "rr_arbiter_n4_bound_2|rr_arbiter_n4|-set Bound 2"
  "rr_arbiter_n5_bound_3|rr_arbiter_n5|-set Bound 3"
  "switch_alloc_i3o3v2_bound_5|switch_alloc_i3o3v2|-set Bound 5"
)

reach=()

# --- VC allocator (registered admission) with its holders and switch modelled: begin ---
proofs+=(
  "vc_alloc_i2o2v2|noc_vc_allocator_formal|rtl/noc_rr_arbiter.sv rtl/noc_vc_allocator.sv verif/formal/noc_vc_allocator_formal.sv|-set NumIn 2 -set NumOut 2 -set NumVcs 2 -set Release 2 -set SwWait 4|VC allocator, 2 inputs x 2 VCs, 2 output ports x 2 VCs, holders release within 2 cycles, switch within 4: no VC held twice, reservation kept, waiting bound 31 cycles"
)
mutants+=(
  "va_ok_without_free_vcs|vc_alloc_i2o2v2|noc_vc_allocator.sv|s/all_free\[j\]   = ((target_i\[j\*NumOutVcs +: NumOutVcs\] \& ~free_i) == '0);/all_free[j]   = 1'b1;/"
  "va_no_reservation|vc_alloc_i2o2v2|noc_vc_allocator.sv|s/misses_top\[j\] = ((target_i\[j\*NumOutVcs +: NumOutVcs\] \& reserved_q) == '0);/misses_top[j] = 1'b1;/"
  "va_never_a_top|vc_alloc_i2o2v2|noc_vc_allocator.sv|s/\`NOC_FF(top_q, pick, '0)/\`NOC_FF(top_q, '0, '0)/"
  "va_reservation_outlives_the_top|vc_alloc_i2o2v2|noc_vc_allocator.sv|s/assign reserved_d = ((pick \& taken_i) == '0) ? pick_set : '0;/assign reserved_d = pick_set;/"
  "va_top_not_let_go|vc_alloc_i2o2v2|noc_vc_allocator.sv|s/assign ok_o = req_i \& all_free \& (top_q | misses_top);/assign ok_o = req_i \& all_free \& misses_top;/"
  "va_pointer_passes_a_waiting_top|vc_alloc_i2o2v2|noc_vc_allocator.sv|s/.advance_i((top \& taken_i) != '0),/.advance_i(taken_i != '0),/"
)
tight+=(
  "vc_alloc_i2o2v2_bound_30|vc_alloc_i2o2v2|-set Bound 30"
)
# --- VC allocator: end ---

# --- Whole router, bounded (BMC from reset, ports only; engine field bmc:N or bmcs:N): begin ---
router_files="-DNOC_DATA_W=32 rtl/noc_pkg.sv rtl/noc_fifo.sv rtl/noc_credit_counter.sv rtl/noc_rr_arbiter.sv rtl/noc_label_argmax.sv rtl/noc_route_compute.sv rtl/noc_head_decision.sv rtl/noc_input_unit.sv rtl/noc_vc_ram_buffer.sv rtl/noc_vc_allocator.sv rtl/noc_switch_allocator.sv rtl/noc_crossbar.sv rtl/noc_output_unit.sv rtl/noc_eject_unit.sv rtl/noc_link_checker.sv rtl/noc_router_config.sv rtl/noc_out_vc_map.sv rtl/noc_switch_request.sv rtl/noc_picked_segment.sv rtl/noc_output_steer.sv rtl/noc_switch_traversal.sv rtl/noc_router_status.sv rtl/noc_router.sv verif/formal/noc_router_formal.sv"
router_shape="-set NumNetPorts 3 -set NumVcs 2 -set BufDepth 2 -set MaxMore 1"
proofs+=(
  "router_n3v2d2_hampath|noc_router_formal|$router_files|$router_shape -set Modes 1 -set CheckOrder 0 -set CheckFlow 0|router, 3 network ports + 1 local, 2 VCs of 2 flits, Hamiltonian-path build (other modes drained), 32-bit flit data: no credit without a pop, no flit without a credit, worms whole per output VC and ejection stream|bmcs-g:10"
  "router_n3v2d2_allmodes_order|noc_router_formal|$router_files|$router_shape -set Modes 31 -set CheckOrder 1 -set CheckFlow 0|router as above with every routing mode, the mode free per worm: worms whole and in order per output VC and ejection stream (every flit from its head's input port, address flits and payload indices without gap, repeat or swap), so replication all or nothing|bmcs-g:9"
  "router_n3v2d2_allmodes_flow|noc_router_formal|$router_files|$router_shape -set Modes 31 -set CheckOrder 0 -set CheckFlow 1|router as above with every routing mode: flits out equal flits in per input port (a flit leaves only with its pop's credit, every credit is a flit out or a drop by design: a drain or a regroup's head), copies of a flit leave together, drained worms counted|bmcs:7"
)
mutants+=(
  "router_ou_release_on_every_flit|router_n3v2d2_hampath|noc_output_unit.sv|s/if (send_i\[v\] \&\& tail_i) begin/if (send_i[v]) begin/"
  "router_output_credits_one_over|router_n3v2d2_hampath|noc_credit_counter.sv|s/\`NOC_FF(count_q, count_d, CountW'(Depth))/\`NOC_FF(count_q, count_d, CountW'(Depth + 1))/"
  "router_input_credits_out_of_reset|router_n3v2d2_hampath|noc_input_unit.sv|s/\`NOC_FF(credit_q, pop, '0)/\`NOC_FF(credit_q, pop, '1)/"
  "router_vcram_read_address_without_vc|router_n3v2d2_allmodes_order|noc_vc_ram_buffer.sv|s/raddr = raddr | {VcIdW'(v), rd_ptr_q/raddr = raddr | {VcIdW'(0), rd_ptr_q/"
  "router_eject_stream_stuck|router_n3v2d2_allmodes_order|noc_eject_unit.sv|s/assign stream_d = send_i ? stream_i : stream_q;/assign stream_d = stream_q;/"
  "router_sa_win_without_all_outputs|router_n3v2d2_allmodes_order|noc_switch_allocator.sv|s/if (pick_req\[i\*NumOut+o\] \&\& !out_tent\[o\*NumIn+i\]) begin/if (1'b0) begin/"
  "router_body_copy_not_ejected|router_n3v2d2_allmodes_order|noc_router.sv|s/\.eject_i       (seg_eject\[J\]),/.eject_i       (seg_eject[J] \&\& (seg_lead[J] || front_tail[J])),/"
  "router_eject_link_drops_flit|router_n3v2d2_allmodes_flow|noc_eject_unit.sv|s/\`NOC_FF(valid_q, send_i, 1'b0)/\`NOC_FF(valid_q, 1'b0, 1'b0)/"
  "router_eject_only_segment_dropped|router_n3v2d2_allmodes_flow|noc_input_unit.sv|s/assign goes_nowhere  = (net_q == '0) \&\& !eject_q;/assign goes_nowhere  = (net_q == '0);/"
  "router_drained_worms_not_counted|router_n3v2d2_allmodes_flow|noc_router_status.sv|s/    sum           = {1'b0, route_drops_q} + (DropsW + 1)'(drops_tree\[DropsNowW +: DropsNowW\]);/    sum           = {1'b0, route_drops_q};/"
)
# Reachability: the check with a witness assertion ("no worm of N flits leaves whole") must fail
# within its depth, so the depth covers such a worm's passage. name | check | chparam arguments
# added | what.
reach+=(
  "router_n3v2d2_allmodes_flow_3_flit_worm|router_n3v2d2_allmodes_flow|-set WitnessFlits 3|a worm of 3 flits enters and leaves whole"
  "router_n3v2d2_allmodes_order_4_flit_worm|router_n3v2d2_allmodes_order|-set WitnessFlits 4|a worm of 4 flits enters and leaves whole"
)
# --- Whole router: end ---

if [[ -n "$list" ]]; then
  for p in "${proofs[@]}"; do echo "${p%%|*}"; done
  exit 0
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/wormcast-formal.XXXXXX")
trap 'rm -rf "$work"' EXIT

# prove <rtl dir> <proof entry> <log prefix>: sets $result (proved | failed | error: the logs are
# <log prefix>.yosys.log and .abc.log) and $cpu (CPU seconds of yosys and ABC, user + system).
prove() {
  local rtl=$1 entry=$2 log=$3
  local name top files params f
  local engine
  IFS='|' read -r name top files params _ engine <<<"$entry"
  local paths=()
  for f in $files; do
    case $f in
      -D*) paths+=("$f") ;;
      rtl/*) paths+=("$rtl/${f#rtl/}") ;;
      *) paths+=("$root/$f") ;;
    esac
  done
  local TIMEFORMAT='%3U %3S'
  { time tools "$log" "$top" "$params" "${engine:-pdr}" "$rtl" "${paths[@]}"; } 2> "$log.time"
  cpu=$(tail -n 1 "$log.time" | awk '{ printf "%.1f", $1 + $2 }')
  if grep -q "^Property proved" "$log.abc.log" 2> /dev/null; then
    result=proved
  elif grep -q "^No output \(asserted\|failed\) in" "$log.abc.log" 2> /dev/null; then
    result="bounded, $(grep -o 'in [0-9]* frames' "$log.abc.log" | head -n 1 | cut -d' ' -f2) cycles"
  elif grep -q "was asserted in frame" "$log.abc.log" 2> /dev/null; then
    result=failed
  else
    result=error
  fi
}

# tools <log prefix> <top> <chparam arguments> <engine> <rtl dir> <file ...>: yosys to the AIG, ABC's
# pdr on it (engine pdr), or its bounded model check to N cycles (engine bmc:N).
tools() {
  local log=$1 top=$2 params=$3 engine=$4 rtl=$5
  shift 5
  "$yosys" -q -l "$log.yosys.log" -p "
      read_verilog -sv -formal -noautowire -DSYNTHESIS -I$rtl $*
      chparam $params $top
      prep -top $top
      memory_map
      async2sync
      chformal -cover -remove
      flatten
      setundef -undriven -anyseq
      delete -output
      opt -fast
      techmap
      opt -fast
      dffunmap
      abc -g AND -fast
      opt_clean
      write_aiger -I -B -zinit $log.aig" > /dev/null 2>&1 || return
  local check=pdr limit=$pdr_timeout
  [[ $engine == bmc:* ]] && check="bmc3 -F ${engine#bmc:}" && limit=$bmc_timeout
  # bmcs:N (bmcs-g:N): the AIG simplified first (dc2; scorr merges registers equal in every
  # reachable state, sound for any check), then ABC's newer unrolling BMC, &bmcs, with its Satoko
  # SAT solver (-g: Glucose, faster on some proofs): on the whole router 3-10x faster per cycle
  # than bmc3 on the unsimplified AIG.
  [[ $engine == bmcs:* ]] && check="dc2; scorr; dc2; &get; &bmcs -F ${engine#bmcs:}" && limit=$bmc_timeout
  [[ $engine == bmcs-g:* ]] && check="dc2; scorr; dc2; &get; &bmcs -g -F ${engine#bmcs-g:}" && limit=$bmc_timeout
  timeout "$limit" "$abc" -c "read_aiger $log.aig; fold; strash; $check" > "$log.abc.log" 2>&1
}

# show_log <log prefix>: the tail of a failed run's logs, for the reader of make formal's output.
show_log() {
  local f
  for f in "$1.yosys.log" "$1.abc.log"; do
    [[ -f "$f" ]] && tail -n 8 "$f" | sed 's/^/    /'
  done
}

# proof_entry <name>: the proofs entry of that name (empty when there is none), for the mutants,
# tightness checks and witnesses that run a proof again.
proof_entry() {
  local p
  for p in "${proofs[@]}"; do
    if [[ "${p%%|*}" == "$1" ]]; then
      echo "$p"
      return
    fi
  done
}

failures=0
table=("| Proof | What | Result | CPU (s) |" "|---|---|---|---|")
ttable=("| Proof | Bound lowered by one | Result | CPU (s) |" "|---|---|---|---|")
mtable=("| Mutant | Proof | Line changed | Result | CPU (s) |" "|---|---|---|---|---|")
mkdir -p "$work/tree"
cp -r "$root/rtl" "$work/tree/rtl"
ran=0
for entry in "${proofs[@]}"; do
  IFS='|' read -r name top files params what engine <<<"$entry"
  [[ -n "$only" && ! "$name" =~ $only ]] && continue
  ran=$((ran + 1))
  prove "$work/tree/rtl" "$entry" "$work/$name"
  if [[ $result == proved ]]; then
    echo "formal: proof  $name: proved (PDR, all reachable states) in ${cpu} s CPU"
  elif [[ $result == bounded* && $engine == bmc*:* ]]; then
    echo "formal: check  $name: no counterexample in ${engine#bmc*:} cycles from reset (BMC) in ${cpu} s CPU"
  else
    echo "formal: proof  $name: $result in ${cpu} s CPU"
    show_log "$work/$name"
    failures=$((failures + 1))
  fi
  table+=("| $name | $what | $result | $cpu |")
done
if [[ $ran -eq 0 ]]; then
  echo "run.sh: no proof matches '$only'; valid: $(for p in "${proofs[@]}"; do printf '%s ' "${p%%|*}"; done)" >&2
  exit 2
fi

for mutant in "${mutants[@]}"; do
  IFS='|' read -r mname pname file expr <<<"$mutant"
  [[ -n "$only" && ! "$pname" =~ $only ]] && continue
  entry=$(proof_entry "$pname")
  mdir="$work/mut-$mname"
  mkdir -p "$mdir"
  cp -r "$root/rtl" "$mdir/rtl"
  sed -i "$expr" "$mdir/rtl/$file"
  changed=$(diff "$root/rtl/$file" "$mdir/rtl/$file" | grep -c '^>')
  if [[ -z "$entry" || $changed -ne 1 ]]; then
    # The RTL moved under the mutant: its sed no longer changes exactly one line.
    echo "formal: mutant $mname: NOT APPLIED (sed changed $changed lines of rtl/$file; update the mutant)"
    failures=$((failures + 1))
    mtable+=("| $mname | $pname | (not applied) | not applied | - |")
    continue
  fi
  line=$(diff "$root/rtl/$file" "$mdir/rtl/$file" | sed -n 's/^> *//p')
  line=${line//|/\\|}  # a markdown table cell
  prove "$mdir/rtl" "$entry" "$mdir/$pname"
  if [[ $result == failed ]]; then
    echo "formal: mutant $mname: rejected by $pname in ${cpu} s CPU ($(grep -o 'asserted in frame *[0-9]*' "$mdir/$pname.abc.log"))"
    mtable+=("| $mname | $pname | \`rtl/$file\`: \`$line\` | rejected | $cpu |")
  else
    echo "formal: mutant $mname: SURVIVED ($pname: $result in ${cpu} s CPU)"
    show_log "$mdir/$pname"
    failures=$((failures + 1))
    mtable+=("| $mname | $pname | \`rtl/$file\`: \`$line\` | survived ($result) | $cpu |")
  fi
done

for check in "${tight[@]}"; do
  IFS='|' read -r tname pname extra <<<"$check"
  [[ -n "$only" && ! "$pname" =~ $only ]] && continue
  entry=$(proof_entry "$pname")
  IFS='|' read -r name top files params what engine <<<"$entry"
  prove "$work/tree/rtl" "$name|$top|$files|$params $extra|$what|$engine" "$work/$tname"
  if [[ $result == failed ]]; then
    echo "formal: bound  $tname: counterexample found in ${cpu} s CPU (the bound of $pname is tight)"
    ttable+=("| $pname | \`$extra\` | counterexample (tight) | $cpu |")
  else
    echo "formal: bound  $tname: $result in ${cpu} s CPU (expected a counterexample: the bound of $pname is not the least)"
    failures=$((failures + 1))
    ttable+=("| $pname | \`$extra\` | $result (not tight) | $cpu |")
  fi
done

rtable=("| Check | Witness | Result | CPU (s) |" "|---|---|---|---|")
for check in "${reach[@]}"; do
  IFS='|' read -r rname pname extra rwhat <<<"$check"
  [[ -n "$only" && ! "$pname" =~ $only ]] && continue
  entry=$(proof_entry "$pname")
  IFS='|' read -r name top files params what engine <<<"$entry"
  prove "$work/tree/rtl" "$name|$top|$files|$params $extra|$what|$engine" "$work/$rname"
  if [[ $result == failed ]]; then
    echo "formal: reach  $rname: witness found in ${cpu} s CPU ($(grep -o 'asserted in frame *[0-9]*' "$work/$rname.abc.log"): $rwhat)"
    rtable+=("| $pname | $rwhat (\`$extra\`) | reached, $(grep -o 'in frame *[0-9]*' "$work/$rname.abc.log" | head -n 1 | tr -s ' ') | $cpu |")
  else
    echo "formal: reach  $rname: $result in ${cpu} s CPU (expected a witness: the depth of $pname does not cover it)"
    failures=$((failures + 1))
    rtable+=("| $pname | $rwhat (\`$extra\`) | $result (not reached) | $cpu |")
  fi
done

# kept_rows <table header> <proof column>: with --merge (and --only), the rows of that table in the
# existing results file whose proof (column 1 of the proofs table, 2 of the mutants table) was not run.
kept_rows() {
  [[ -n "$merge" && -n "$only" && -f "$results" ]] || return 0
  awk -v head="$1" -v col="$2" -v only="$only" -F' [|] ' '
    index($0, head) == 1 { intable = 1; next }
    intable && /^[|]---/ { next }
    intable && /^[|]/ { name = $col; sub(/^[|] /, "", name); if (name !~ only) print; next }
    { intable = 0 }' "$results"
}
if [[ -n "$results" ]]; then
  {
    echo "# Formal proofs (make formal)"
    echo
    echo "Written by verif/formal/run.sh (docs/verification.md). CPU seconds (yosys + ABC, user + system) on this machine;"
    echo "yosys $("$yosys" -V | awk '{print $2}'), ABC pdr (\"proved\": unbounded); the whole router's checks ABC &bmcs from reset"
    echo "(\"bounded, N cycles\": no counterexample in cycles 0..N-1, cycle 0 the reset)."
    echo
    printf '%s\n' "${table[@]:0:2}"
    kept_rows "| Proof | What |" 1
    if [[ ${#table[@]} -gt 2 ]]; then printf '%s\n' "${table[@]:2}"; fi
    echo
    printf '%s\n' "${mtable[@]:0:2}"
    kept_rows "| Mutant | Proof |" 2
    if [[ ${#mtable[@]} -gt 2 ]]; then printf '%s\n' "${mtable[@]:2}"; fi
    echo
    printf '%s\n' "${ttable[@]:0:2}"
    kept_rows "| Proof | Bound lowered by one |" 1
    if [[ ${#ttable[@]} -gt 2 ]]; then printf '%s\n' "${ttable[@]:2}"; fi
    echo
    printf '%s\n' "${rtable[@]:0:2}"
    kept_rows "| Check | Witness |" 1
    if [[ ${#rtable[@]} -gt 2 ]]; then printf '%s\n' "${rtable[@]:2}"; fi
  } > "$results.new" && mv "$results.new" "$results"
  echo "formal: table written to $results"
fi

if [[ $failures -ne 0 ]]; then
  echo "formal: $failures proof(s) failed or mutant(s) survived" >&2
  exit 1
fi
echo "formal: all proofs proved, all mutants rejected"
