// SPDX-License-Identifier: SHL-0.51
// noc_vc_allocator_sep: all-or-nothing output-VC allocation, separable: one round-robin arbiter per
// output VC and a token against livelock, as noc_switch_allocator allocates outputs. The same ports
// and the same all-or-nothing rule as noc_vc_allocator (a requester gets every output VC of its set
// in one cycle, or none); a different policy for who wins when. noc_router builds it with
// VcAlloc = 1 (an area experiment, docs/rtl.md "Router v2", lever 3): the timing model
// (model/timing_router.*) allocates as noc_vc_allocator does, so a router built with this one is
// not cycle-identical to it.
//
//   1. Per output VC k, a noc_rr_arbiter picks one of the input VCs that request k (whether or not k
//      is free: a pick waits for its VC).
//   2. A token (a noc_rr_arbiter over the requesters) overrides the arbiter of every output VC its
//      holder requests. The token stays with its holder until the holder is granted, then moves on.
//   3. A requester is granted iff every output VC of its set picked it (after the token) and all of
//      them are free.
// Arbiter pointers as in the switch allocator: a pick that was granted moves to the lowest priority
// (advance); one that was not keeps the highest, so an arbiter holds its pick until that requester
// is granted, unless the token holder takes the VC.
//
// Why no head waits for ever (the argument of noc_vc_allocator's top, with the token as the top):
// the token holder's output VCs go to no one else (every arbiter of its set is overridden), so it
// is granted as soon as the worms holding them have left; then the token moves on round-robin, so
// a waiting head holds the token within NumIn*NumVcs-1 grants of other token holders. The token
// holder waits only for busy output VCs (TokenWaitsOnlyForBusyVcs_A). A token that moved every
// cycle, as the switch allocator's does, would not do: single-VC heads taking a two-VC head's VCs
// out of phase, each on its own token turn, starve it (router_stages_test's directed test).
// The difference from noc_vc_allocator: only the token holder reserves its VCs; the other
// requesters do not reserve in an order but take what their VCs' arbiters give them, all or
// nothing, so two requesters whose picks cross on two VCs both wait for the token (at most
// NumIn*NumVcs token grants).
`include "noc_assert.svh"

module noc_vc_allocator_sep #(
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
  /// Clock; the arbiters' state changes on its rising edge.
  input  logic                            clk_i,
  /// Asynchronous active-low reset: input VC 0 first in every arbiter and for the token.
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

  logic [NumOutVcs*NumInVcs-1:0] out_req;   // bit k*NumInVcs+j: input VC j requests output VC k
  logic [NumOutVcs*NumInVcs-1:0] arb_pick;  // output VC k's arbiter's pick, one-hot0 per k
  logic [NumOutVcs*NumInVcs-1:0] tent;      // the pick after the token, one-hot0 per k
  logic [NumInVcs-1:0]           token;     // one-hot0: the input VC holding the token
  logic [NumInVcs-1:0]           all_free;  // every target of j is free
  logic [NumInVcs-1:0]           all_tent;  // every target of j picked j (after the token)

  // The token: held by a requester until it is granted, then passed on round-robin.
  noc_rr_arbiter #(
    .NumReq(NumInVcs)
  ) u_token_arb (
    .clk_i,
    .rst_ni,
    .req_i    (req_i),
    .advance_i((token & gnt_o) != '0),
    .gnt_o    (token)
  );

  for (genvar k = 0; k < NumOutVcs; k++) begin : gen_out_vc
    logic token_here;  // the token holder requests output VC k
    for (genvar j = 0; j < NumInVcs; j++) begin : gen_in
      assign out_req[k*NumInVcs+j] = req_i[j] & target_i[j*NumOutVcs+k];
    end
    noc_rr_arbiter #(
      .NumReq(NumInVcs)
    ) u_arb (
      .clk_i,
      .rst_ni,
      .req_i    (out_req[k*NumInVcs +: NumInVcs]),
      .advance_i((arb_pick[k*NumInVcs +: NumInVcs] & gnt_o) != '0),
      .gnt_o    (arb_pick[k*NumInVcs +: NumInVcs])
    );
    assign token_here = ((out_req[k*NumInVcs +: NumInVcs] & token) != '0);
    assign tent[k*NumInVcs +: NumInVcs] = token_here ? token : arb_pick[k*NumInVcs +: NumInVcs];
    `NOC_ASSERT(TentOneHot0_A, $onehot0(tent[k*NumInVcs +: NumInVcs]))
    `NOC_ASSERT(TentOnlyToRequester_A, (tent[k*NumInVcs +: NumInVcs] & ~out_req[k*NumInVcs +: NumInVcs]) == '0)
  end

  // All-or-nothing: j wins iff each of its output VCs is free and picked j.
  always_comb begin
    for (int j = 0; j < NumInVcs; j++) begin
      all_free[j] = ((target_i[j*NumOutVcs +: NumOutVcs] & ~free_i) == '0);
      all_tent[j] = 1'b1;
      for (int k = 0; k < NumOutVcs; k++) begin
        if (target_i[j*NumOutVcs+k] && !tent[k*NumInVcs+j]) begin
          all_tent[j] = 1'b0;
        end
      end
    end
  end

  assign gnt_o = req_i & all_free & all_tent;

  // The output side: which output VCs go out this cycle, and to whom (at most one taker per k:
  // tent is one-hot0 per k).
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
  end
  for (genvar k = 0; k < NumOutVcs; k++) begin : gen_out_check
    logic [NumInVcs-1:0] takers;  // granted input VCs that receive output VC k
    for (genvar j = 0; j < NumInVcs; j++) begin : gen_in
      assign takers[j] = gnt_o[j] & target_i[j*NumOutVcs+k];
    end
    // One-hot grants per output VC: granted sets are disjoint.
    `NOC_ASSERT(OutVcToOneInputVc_A, $onehot0(takers))
  end
  `NOC_ASSERT(AllocOnlyFreeVcs_A, (alloc_o & ~free_i) == '0)
  // The token holder waits only for busy output VCs: with all of them free it is granted.
  `NOC_ASSERT(TokenWaitsOnlyForBusyVcs_A, ((token & req_i & ~gnt_o) != '0) |-> ((token & all_free) == '0))
  // The token's progress: once its holder is granted it moves on to another requester, if any.
  `NOC_ASSERT(TokenMovesOnAfterGrant_A, ((token & gnt_o) != '0) |=>
                                        (token != $past(token) || (req_i & ~$past(token)) == '0))
  // And it stays with a holder that is still waiting.
  `NOC_ASSERT(TokenStaysUntilGranted_A, ((token & req_i & ~gnt_o) != '0) |=>
                                        (token == $past(token) || (req_i & $past(token)) == '0))

endmodule
