// SPDX-License-Identifier: SHL-0.51
// noc_vc_allocator: all-or-nothing output-VC allocation for the heads of worms.
//
// An input VC whose front flit is a routed head requests a *set* of output VCs (req_i, target_i):
// one per output port the worm leaves on, the VC named by the route's class (docs/rtl.md, "VC
// classes to VCs"; the input unit does that mapping). It is granted only when every output VC of
// its set is free, and then all of them in the same cycle (docs/rtl.md, "All-or-nothing output
// allocation": acquiring them one at a time lets two replicating worms each hold an output VC the
// other needs). The grant goes to the output units (noc_output_unit alloc_i / alloc_owner_i), which
// hold each VC until the worm's tail has left; they report which VCs are free (free_i). The grant
// is combinational from registered state (requests, free VCs, the top pointer): the router lets a
// granted VC request the switch in the same cycle (docs/rtl.md, "Latency").
//
// Fairness: the input VCs are ordered round-robin, starting at the "top" requester chosen by a
// noc_rr_arbiter. Every requester, granted or not, reserves its output VCs against all requesters
// after it in that order: a requester is granted iff all its targets are free and no requester
// before it wants any of them. Several requesters with disjoint sets are granted in one cycle. The
// top requester keeps the top place until it is granted (advance_i = its grant), and then moves to
// the bottom. So a waiting requester becomes top within NumIn*NumVcs-1 grants to others, and once
// top, the VCs it waits for are given to no one else: when their worms' tails leave, it gets them
// all. A plain greedy allocator would let single-VC requests keep taking the VCs of a multi-VC
// request one at a time, starving it.
`include "noc_assert.svh"

module noc_vc_allocator #(
  /// Input ports (>= 1).
  parameter int unsigned NumIn = 5,
  /// Output ports (>= 1).
  parameter int unsigned NumOut = 5,
  /// Virtual channels per port, input and output (>= 1).
  parameter int unsigned NumVcs = 2,
  /// Input VCs; input VC id = port * NumVcs + VC. Derived, do not override.
  localparam int unsigned NumInVcs = NumIn * NumVcs,
  /// Output VCs; output VC id = port * NumVcs + VC. Derived, do not override.
  localparam int unsigned NumOutVcs = NumOut * NumVcs,
  /// Width of an input-VC id. Derived, do not override.
  localparam int unsigned OwnerW = (NumInVcs > 1) ? $clog2(NumInVcs) : 1
) (
  /// Clock; the round-robin state changes on its rising edge.
  input  logic                            clk_i,
  /// Asynchronous active-low reset: input VC 0 is top.
  input  logic                            rst_ni,
  /// Input VC j has a routed head waiting for its output VCs.
  input  logic [NumInVcs-1:0]             req_i,
  /// The output VCs input VC j needs, bits [j*NumOutVcs +: NumOutVcs] (bit k = output VC k);
  /// non-empty where req_i[j].
  input  logic [NumInVcs*NumOutVcs-1:0]   target_i,
  /// Output VC k is free (not held by a worm): from the output units, ~allocated_o.
  input  logic [NumOutVcs-1:0]            free_i,
  /// Input VC j is granted every output VC of its set this cycle.
  output logic [NumInVcs-1:0]             gnt_o,
  /// Output VC k is allocated this cycle (to the output unit's alloc_i).
  output logic [NumOutVcs-1:0]            alloc_o,
  /// The input VC that receives output VC k, bits [k*OwnerW +: OwnerW]; 0 where alloc_o[k] is low
  /// (to the output unit's alloc_owner_i).
  output logic [NumOutVcs*OwnerW-1:0]     alloc_owner_o
);

  logic [NumInVcs-1:0] top;       // one-hot0: the requester first in the round-robin order
  logic [NumInVcs-1:0] at_or_after_top;  // thermometer: index >= top's index
  logic [NumInVcs-1:0] blocked;   // a requester earlier in the order wants one of j's targets
  logic [NumInVcs-1:0] all_free;  // every target of j is free
  logic [NumOutVcs-1:0] top_wants;  // a requester at or after top targets output VC k

  noc_rr_arbiter #(
    .NumReq(NumInVcs)
  ) u_top_arb (
    .clk_i,
    .rst_ni,
    .req_i    (req_i),
    .advance_i((top & gnt_o) != '0),
    .gnt_o    (top)
  );

  assign at_or_after_top = ~(top - NumInVcs'(1));

  // blocked[j] = some requester i before j in the cyclic order that starts at top shares a
  // target with j. Computed per output VC k, not per pair (i, j): with 20 input VCs and 16 output
  // VCs the pairwise form costs 400 set intersections (3,610 iCE40 LUT4 on the 4-VC router,
  // docs/rtl.md "Router v2"); this form 16 prefix ORs over the requesters of k. The function is
  // the same (checked by yosys equivalence against the pairwise form, docs/rtl.md).
  //   i before j: j at or after top: top <= i < j; j before top: i < j, or i at or after top.
  // So with `seen` = a requester of k below j, and `seen_top` = a requester of k at or after top
  // and below j (both running over j), a requester of k is before j iff `seen_top` when j is at or
  // after top, and `seen || top_wants[k]` (any requester of k at or after top) when it is not.
  always_comb begin
    blocked = '0;
    for (int k = 0; k < NumOutVcs; k++) begin
      logic seen, seen_top;  // a requester of k below the current j: any; at or after top
      seen     = 1'b0;
      seen_top = 1'b0;
      for (int j = 0; j < NumInVcs; j++) begin
        if (target_i[j*NumOutVcs+k]) begin
          if (at_or_after_top[j] ? seen_top : (seen || top_wants[k])) begin
            blocked[j] = 1'b1;
          end
        end
        seen     = seen || (req_i[j] && target_i[j*NumOutVcs+k]);
        seen_top = seen_top || (req_i[j] && target_i[j*NumOutVcs+k] && at_or_after_top[j]);
      end
    end
  end

  // top_wants[k]: a requester at or after top targets output VC k.
  always_comb begin
    for (int k = 0; k < NumOutVcs; k++) begin
      top_wants[k] = 1'b0;
      for (int j = 0; j < NumInVcs; j++) begin
        top_wants[k] = top_wants[k] || (req_i[j] && target_i[j*NumOutVcs+k] && at_or_after_top[j]);
      end
    end
  end

  always_comb begin
    for (int j = 0; j < NumInVcs; j++) begin
      all_free[j] = ((target_i[j*NumOutVcs +: NumOutVcs] & ~free_i) == '0);
    end
  end

  assign gnt_o = req_i & ~blocked & all_free;

  // The output side: which output VCs go out this cycle, and to whom.
  always_comb begin
    alloc_o       = '0;
    alloc_owner_o = '0;
    for (int k = 0; k < NumOutVcs; k++) begin
      for (int j = 0; j < NumInVcs; j++) begin
        if (gnt_o[j] && target_i[j*NumOutVcs+k]) begin
          alloc_o[k]                        = 1'b1;
          alloc_owner_o[k*OwnerW +: OwnerW] = alloc_owner_o[k*OwnerW +: OwnerW] | OwnerW'(j);
        end
      end
    end
  end

  for (genvar j = 0; j < NumInVcs; j++) begin : gen_in_check
    `NOC_ASSERT(RequestHasTargets_A, req_i[j] |-> (target_i[j*NumOutVcs +: NumOutVcs] != '0))
    `NOC_ASSERT(GrantOnlyFreeVcs_A, gnt_o[j] |-> ((target_i[j*NumOutVcs +: NumOutVcs] & ~free_i) == '0))
    // A replicating head gets three output VCs at once (all-or-nothing on a PCP spine).
    `NOC_COVER(GrantsThreeVcsAtOnce_C, gnt_o[j] && $countones(target_i[j*NumOutVcs +: NumOutVcs]) >= 3)
  end
  for (genvar k = 0; k < NumOutVcs; k++) begin : gen_out_check
    logic [NumInVcs-1:0] takers;  // granted input VCs that receive output VC k
    for (genvar j = 0; j < NumInVcs; j++) begin : gen_in
      assign takers[j] = gnt_o[j] & target_i[j*NumOutVcs+k];
    end
    `NOC_ASSERT(OutVcToOneInputVc_A, $onehot0(takers))
  end
  `NOC_ASSERT(AllocOnlyFreeVcs_A, (alloc_o & ~free_i) == '0)
  `NOC_ASSERT(TopWaitsOnlyForBusyVcs_A, ((top & req_i & ~gnt_o) != '0) |-> ((top & all_free) == '0))

endmodule
