// SPDX-License-Identifier: SHL-0.51
// noc_switch_allocator: separable input-first switch allocator with all-or-nothing multi-output
// (replicating) requests.
//
// Every input VC requests a *set* of output ports (req_i), so a replicating worm (docs/rtl.md,
// "Synchronous replication": local ejection and the next hop, or the PCP spine's branches) asks
// for all of its outputs at once. The requests are qualified by the router (the VC's front flit is
// ready, its output VCs are held or granted by the VC allocator in this same cycle, and have a
// credit); this module only matches them.
//   1. Per input, a noc_rr_arbiter picks one VC among those with a request.
//   2. Per output, a noc_rr_arbiter picks one input among those whose picked VC requests it.
//   3. An input wins only if it got every output in its picked VC's set; outputs tentatively given
//      to an input that did not get all of its outputs stay idle this cycle.
// A plain separable allocator can livelock on multi-output requests: two inputs that both want
// outputs a and b, with a's arbiter favouring one and b's the other, fail forever. So a third
// round-robin arbiter passes a *token* among the inputs that had a request in the previous cycle,
// one step per cycle; at each output its picked VC requests, the token holder beats the output
// arbiter. A token holder with a request thus always wins, and an input that requests in
// consecutive cycles holds the token by the NumIn-th cycle after its first. The token's requests
// are registered so that its arbiter is off the allocation cycle: in series with the switch
// requests it was the longest path (docs/rtl.md, "Where the area and the clock go").
// Arbiter pointers (noc_rr_arbiter's advance_i): a winner whose grant was used moves to the lowest
// priority (advance); a winner whose grant was not used (its input lost another output, or the
// token holder took the output) moves to the highest priority and keeps it, so it wins next time
// unless the token overrides again. Hence no VC starves under permanent requests: its input picks
// it within NumVcs-1 of that input's wins, and the input wins at least once in NumIn + 1 cycles.
// The switch is allocated per flit: a worm's output VC (noc_output_unit) is held from head to
// tail, so flits of different VCs may interleave on one output.
// Tentative grants (pick_vc_o, tent_gnt_o): the choices before step 3's all-or-nothing check.
// Wherever a final grant is given it equals them, so the router steers the flit data (input VC
// mux, crossbar, head rewrite) with them and only the valid bits wait for the check: the check is
// then off the 34-bit data path, the allocation cycle's longest (docs/design-log.md).
`include "noc_assert.svh"
`include "noc_registers.svh"

module noc_switch_allocator #(
  /// Input ports (>= 1).
  parameter int unsigned NumIn = 5,
  /// Output ports (>= 1).
  parameter int unsigned NumOut = 5,
  /// Virtual channels per input port (>= 1).
  parameter int unsigned NumVcs = 2
) (
  /// Clock; the arbiters' priority state changes on its rising edge.
  input  logic                      clk_i,
  /// Asynchronous active-low reset: input 0, VC 0 first everywhere.
  input  logic                      rst_ni,
  /// Requests: input i's VC v requests the set of outputs in bits [(i*NumVcs+v)*NumOut +: NumOut]
  /// (bit o = output o); zero = no request, more than one bit = a replicating flit.
  input  logic [NumIn*NumVcs*NumOut-1:0] req_i,
  /// Input grant: VC v of input i is granted, bit i*NumVcs+v; one-hot or zero per input.
  output logic [NumIn*NumVcs-1:0]   in_gnt_vc_o,
  /// Outputs granted to input i, bits [i*NumOut +: NumOut]: exactly the granted VC's request set,
  /// or zero.
  output logic [NumIn*NumOut-1:0]   in_gnt_out_o,
  /// Output grant: output o goes to input i, bit o*NumIn+i; one-hot or zero per output.
  output logic [NumOut*NumIn-1:0]   out_gnt_o,
  /// Tentative input grant: the VC input i's arbiter picked (bit i*NumVcs+v), one-hot or zero per
  /// input, before the all-or-nothing check; equal to in_gnt_vc_o wherever that is nonzero.
  output logic [NumIn*NumVcs-1:0]   pick_vc_o,
  /// Tentative output grant: the input output o chose (bit o*NumIn+i, one-hot or zero per
  /// output), before the all-or-nothing check; equal to out_gnt_o wherever that is nonzero.
  output logic [NumOut*NumIn-1:0]   tent_gnt_o
);

  // Stage 1: the VC picked per input, and its request set.
  logic [NumIn*NumVcs-1:0] vc_pick;        // one-hot0 per input
  logic [NumIn*NumOut-1:0] pick_req;       // the picked VC's outputs, per input
  logic [NumIn-1:0]        in_active;      // the input has a request
  logic [NumIn-1:0]        in_win;         // the input got every output it picked
  // Stage 2: per output, the inputs requesting it, the arbiter's and the final choice.
  logic [NumOut*NumIn-1:0] out_req;        // bit o*NumIn+i: input i's pick requests output o
  logic [NumOut*NumIn-1:0] out_arb_gnt;    // the output arbiter's choice
  logic [NumOut*NumIn-1:0] out_tent;       // the choice after the token override
  logic [NumIn-1:0]        active_q;       // the inputs that had a request last cycle
  logic [NumIn-1:0]        token;          // one-hot0: the input holding the token

  for (genvar i = 0; i < NumIn; i++) begin : gen_in
    logic [NumVcs-1:0] vc_req;
    for (genvar v = 0; v < NumVcs; v++) begin : gen_vc
      assign vc_req[v] = (req_i[(i*NumVcs+v)*NumOut +: NumOut] != '0);
    end
    noc_rr_arbiter #(
      .NumReq(NumVcs)
    ) u_vc_arb (
      .clk_i,
      .rst_ni,
      .req_i    (vc_req),
      .advance_i(in_win[i]),
      .gnt_o    (vc_pick[i*NumVcs +: NumVcs])
    );
    assign in_active[i] = (vc_req != '0);

    // The picked VC's request set: an OR over constant slices, masked by the one-hot pick.
    always_comb begin
      pick_req[i*NumOut +: NumOut] = '0;
      for (int v = 0; v < NumVcs; v++) begin
        if (vc_pick[i*NumVcs+v]) begin
          pick_req[i*NumOut +: NumOut] = pick_req[i*NumOut +: NumOut] | req_i[(i*NumVcs+v)*NumOut +: NumOut];
        end
      end
    end
  end

  // The token: one step per cycle among the inputs that had a request last cycle.
  `NOC_FF(active_q, in_active, '0)
  noc_rr_arbiter #(
    .NumReq(NumIn)
  ) u_token_arb (
    .clk_i,
    .rst_ni,
    .req_i    (active_q),
    .advance_i(1'b1),
    .gnt_o    (token)
  );

  for (genvar o = 0; o < NumOut; o++) begin : gen_out
    logic token_here;  // the token holder's pick requests this output
    for (genvar i = 0; i < NumIn; i++) begin : gen_in
      assign out_req[o*NumIn+i] = pick_req[i*NumOut+o];
    end
    assign token_here = ((out_req[o*NumIn +: NumIn] & token) != '0);
    noc_rr_arbiter #(
      .NumReq(NumIn)
    ) u_out_arb (
      .clk_i,
      .rst_ni,
      .req_i    (out_req[o*NumIn +: NumIn]),
      .advance_i((out_arb_gnt[o*NumIn +: NumIn] & out_gnt_o[o*NumIn +: NumIn]) != '0),
      .gnt_o    (out_arb_gnt[o*NumIn +: NumIn])
    );
    assign out_tent[o*NumIn +: NumIn] = token_here ? token : out_arb_gnt[o*NumIn +: NumIn];
    // The token holder takes an output its arbiter gave to another input (the livelock guard).
    `NOC_COVER(TokenOverridesArbiter_C, token_here && (out_arb_gnt[o*NumIn +: NumIn] & ~token) != '0)
    // The token rests on an input that requested last cycle but not in this one.
    if (o == 0) begin : gen_token_idle
      `NOC_COVER(TokenOnInputWithoutRequest_C, (token & ~in_active) != '0)
    end
    assign out_gnt_o[o*NumIn +: NumIn] = out_tent[o*NumIn +: NumIn] & in_win;
  end

  // Stage 3: an input wins when every output its pick requests chose it.
  always_comb begin
    for (int i = 0; i < NumIn; i++) begin
      in_win[i] = in_active[i];
      for (int o = 0; o < NumOut; o++) begin
        if (pick_req[i*NumOut+o] && !out_tent[o*NumIn+i]) begin
          in_win[i] = 1'b0;
        end
      end
    end
  end

  for (genvar i = 0; i < NumIn; i++) begin : gen_in_gnt
    assign in_gnt_vc_o[i*NumVcs +: NumVcs]  = in_win[i] ? vc_pick[i*NumVcs +: NumVcs] : '0;
    assign in_gnt_out_o[i*NumOut +: NumOut] = in_win[i] ? pick_req[i*NumOut +: NumOut] : '0;
  end
  assign pick_vc_o  = vc_pick;
  assign tent_gnt_o = out_tent;

  // Assertions. Per input: the granted VC is one VC that requested, and it got exactly its set.
  for (genvar i = 0; i < NumIn; i++) begin : gen_in_check
    logic [NumOut-1:0] granted_set;  // the request set of the granted VC
    always_comb begin
      granted_set = '0;
      for (int v = 0; v < NumVcs; v++) begin
        if (in_gnt_vc_o[i*NumVcs+v]) begin
          granted_set = granted_set | req_i[(i*NumVcs+v)*NumOut +: NumOut];
        end
      end
    end
    `NOC_ASSERT(InGntVcOneHot0_A, $onehot0(in_gnt_vc_o[i*NumVcs +: NumVcs]))
    `NOC_ASSERT(GrantedVcGotExactlyItsOutputs_A, in_gnt_out_o[i*NumOut +: NumOut] == granted_set)
    `NOC_ASSERT(GrantedVcRequested_A, (in_gnt_vc_o[i*NumVcs +: NumVcs] != '0) |-> (granted_set != '0))
    `NOC_ASSERT(TokenHolderWins_A, (token[i] && in_active[i]) |-> in_win[i])
    // The router steers an input's flit by the tentative pick: it must be the granted VC.
    `NOC_ASSERT(PickIsGrantedVc_A, (in_gnt_vc_o[i*NumVcs +: NumVcs] != '0) |->
                                   (pick_vc_o[i*NumVcs +: NumVcs] == in_gnt_vc_o[i*NumVcs +: NumVcs]))
    `NOC_ASSERT(PickOneHot0_A, $onehot0(pick_vc_o[i*NumVcs +: NumVcs]))
  end
  // Per output: granted at most once, and only to an input that lists it among its granted outputs.
  for (genvar o = 0; o < NumOut; o++) begin : gen_out_check
    logic [NumIn-1:0] listed;  // inputs whose granted outputs include o
    for (genvar i = 0; i < NumIn; i++) begin : gen_in
      assign listed[i] = in_gnt_out_o[i*NumOut+o];
    end
    `NOC_ASSERT(OutGntOneHot0_A, $onehot0(out_gnt_o[o*NumIn +: NumIn]))
    `NOC_ASSERT(OutGntMatchesInGnt_A, out_gnt_o[o*NumIn +: NumIn] == listed)
    // The crossbar selects by the tentative grant: it must be the final one where one is given,
    // and one-hot or zero (two selected inputs would be OR-ed into one flit).
    `NOC_ASSERT(TentIsGrantedInput_A, (out_gnt_o[o*NumIn +: NumIn] != '0) |->
                                      (tent_gnt_o[o*NumIn +: NumIn] == out_gnt_o[o*NumIn +: NumIn]))
    `NOC_ASSERT(TentOneHot0_A, $onehot0(tent_gnt_o[o*NumIn +: NumIn]))
  end

endmodule
