// SPDX-License-Identifier: SHL-0.51
// noc_vc_allocator: output-VC allocation folded into switch allocation, all or nothing.
//
// An input VC whose front flit is a routed head waits for a *set* of output VCs (req_i, target_i):
// one per output port the worm leaves on, the VC named by the route's class (docs/rtl.md, "VC
// classes to VCs"; the router does that mapping). Since the class names the output VC, there is
// no choice of VC to make, only of the worm that takes it, and the switch allocator already makes
// that choice per output port: a head whose whole set is free may request the switch (ok_o), and
// the output VCs go to it in the edge the switch carries its lead (taken_i: the switch granted
// it). The router marks them allocated from the switch grant per output port, so this module has
// no output side. Two heads cannot take one output VC in one cycle, since an output VC belongs to
// one output port and the switch gives a port to one input; a head never holds VCs it cannot use
// yet.
// All or nothing (docs/rtl.md, "All-or-nothing output allocation"): a head takes all of its set in
// one edge, because acquiring them one at a time lets two replicating worms each hold an output VC
// the other needs; the switch allocator's request sets give that (a head requests every output of
// its set, and wins all of them or none).
//
// Fairness: heads that wait only for free VCs would let single-VC heads take a replicating head's
// VCs one at a time forever. So one waiting head, the *top*, reserves its set: no other head may
// request an output VC the top waits for. The admission is registered (docs/rtl.md, "Admission and
// starvation"): a noc_rr_arbiter picks a waiting head from this cycle's requests, and the pick is
// registered, with its set unless the switch carries it in the same edge; in the next cycle that
// head is the top if it still waits, and the registered set is what is reserved. So the test a
// head makes against the top is one against a register, not against an arbiter and a 20-set OR in
// series, nor against an OR of which pick still waits, and a head that became routed this
// cycle joins the race for top one cycle later (alone, it faces no reservation: zero-load timing
// is unchanged). A waiting top keeps the arbiter's grant (the pointer stays on it) until the
// switch carries it (advance = the top is taken), then moves to the bottom. Once top, the VCs it
// waits for go to no one else, so when their worms' tails leave it gets them all (the switch
// allocator's token lets its input win within NumIn + 1 cycles); a waiting head is picked within
// NumIn*NumVcs-1 carried picks. Heads whose sets miss the top's go as soon as their VCs are free.
// It replaced (docs/design-log.md) a VC allocator that granted the sets before the switch
// allocation, in series with it in one cycle, each requester reserving against all later ones.
`include "noc_assert.svh"
`include "noc_registers.svh"

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
  localparam int unsigned NumOutVcs = NumOut * NumVcs
) (
  /// Clock; the round-robin state changes on its rising edge.
  input  logic                            clk_i,
  /// Asynchronous active-low reset: no top; input VC 0 is picked first.
  input  logic                            rst_ni,
  /// Input VC j has a routed head waiting for its output VCs.
  input  logic [NumInVcs-1:0]             req_i,
  /// The output VCs input VC j needs, bits [j*NumOutVcs +: NumOutVcs] (bit k = output VC k);
  /// non-empty where req_i[j].
  input  logic [NumInVcs*NumOutVcs-1:0]   target_i,
  /// Output VC k is free (not held by a worm): from the output units, ~allocated_o.
  input  logic [NumOutVcs-1:0]            free_i,
  /// Input VC j may request the switch for its head this cycle: its whole set is free and the top
  /// (picked last cycle, still waiting) waits for none of it, or j is the top. Combinational from
  /// registered state.
  output logic [NumInVcs-1:0]             ok_o,
  /// Input VC j's head is carried by the switch this cycle (only where ok_o[j]): it takes its set.
  input  logic [NumInVcs-1:0]             taken_i
);

  logic [NumInVcs-1:0]  pick;        // this cycle's round-robin choice among the waiting heads
  logic [NumOutVcs-1:0] pick_set;    // its set
  logic [NumInVcs-1:0]  top_q;       // last cycle's pick (one-hot0)
  logic [NumInVcs-1:0]  top;         // last cycle's pick if it still waits: it reserves its set
  logic [NumOutVcs-1:0] reserved_d;  // the pick's set unless the switch carries the pick now
  logic [NumOutVcs-1:0] reserved_q;  // the top's set, or nothing when there is no top
  logic [NumInVcs-1:0]  all_free;    // every target of j is free
  logic [NumInVcs-1:0]  misses_top;  // j's set and the reserved one do not meet

  // A waiting head keeps the arbiter's grant until it is carried (advance_i low keeps the pointer
  // on it), so a top that still waits is also this cycle's pick (TopIsPicked_A) and moves to the
  // bottom in the edge the switch carries it. A pick carried in its first cycle, before it was
  // top, leaves the pointer on its VC, which no longer waits: the next pick comes after it.
  noc_rr_arbiter #(
    .NumReq(NumInVcs)
  ) u_top_arb (
    .clk_i,
    .rst_ni,
    .req_i    (req_i),
    .advance_i((top & taken_i) != '0),
    .gnt_o    (pick)
  );

  always_comb begin
    pick_set = '0;
    for (int j = 0; j < NumInVcs; j++) begin
      if (pick[j]) begin
        pick_set = pick_set | target_i[j*NumOutVcs +: NumOutVcs];
      end
    end
  end

  // A head's set does not change while it waits (the input unit's segment registers hold while
  // Routed), a carried head does not wait in the next cycle (TakenStopsWaiting_A) and an uncarried
  // one still does (PickWaitsUntilTaken_A), so whether the pick is top in the next cycle is known
  // at this edge: the reservation is registered whole, and a head's test against it starts at a
  // register instead of behind a 20-input OR of the waiting picks (the allocation cycle's longest
  // path, docs/rtl.md, "Where the area and the clock go").
  assign reserved_d = ((pick & taken_i) == '0) ? pick_set : '0;
  `NOC_FF(top_q, pick, '0)
  `NOC_FF(reserved_q, reserved_d, '0)
  assign top = top_q & req_i;

  always_comb begin
    for (int j = 0; j < NumInVcs; j++) begin
      all_free[j]   = ((target_i[j*NumOutVcs +: NumOutVcs] & ~free_i) == '0);
      misses_top[j] = ((target_i[j*NumOutVcs +: NumOutVcs] & reserved_q) == '0);
    end
  end

  assign ok_o = req_i & all_free & (top_q | misses_top);

  for (genvar j = 0; j < NumInVcs; j++) begin : gen_in_check
    `NOC_ASSERT(RequestHasTargets_A, req_i[j] |-> (target_i[j*NumOutVcs +: NumOutVcs] != '0))
    // The router lets only a head that may go take its set (the switch request depends on ok_o).
    `NOC_ASSERT(TakenOnlyOk_A, taken_i[j] |-> ok_o[j])
    `NOC_ASSERT(OkOnlyFreeVcs_A, ok_o[j] |-> ((target_i[j*NumOutVcs +: NumOutVcs] & ~free_i) == '0))
    `NOC_ASSERT(OkMissesTheTop_A, (ok_o[j] && !top[j]) |-> ((target_i[j*NumOutVcs +: NumOutVcs] & reserved_q) == '0))
    // The registered set is the waiting top's own (the starvation argument reserves exactly it).
    `NOC_ASSERT(ReservedIsTopsSet_A, top[j] |-> (reserved_q == target_i[j*NumOutVcs +: NumOutVcs]))
    // A picked head the switch does not carry still waits in the next cycle (the input unit
    // leaves Routed only by the switch), so a registered reservation is never a stale one.
    `NOC_ASSERT(PickWaitsUntilTaken_A, (pick[j] && !taken_i[j]) |=> req_i[j])
    // A carried head leaves Routed (Active, Idle or Reroute) for at least one cycle, so a
    // registered pick never names a later head of its VC.
    `NOC_ASSERT(TakenStopsWaiting_A, taken_i[j] |=> !req_i[j])
    // A replicating head takes three output VCs at once (all-or-nothing on a PCP spine).
    `NOC_COVER(TakesThreeVcsAtOnce_C, taken_i[j] && $countones(target_i[j*NumOutVcs +: NumOutVcs]) >= 3)
    // The top waits while another head goes: the reservation lets a disjoint set through.
    `NOC_COVER(GoesBesideAWaitingTop_C, taken_i[j] && !top[j] && (top & ~taken_i) != '0)
    // A head is carried in the cycle it is first picked, before it reserves anything.
    `NOC_COVER(CarriedBeforeTop_C, taken_i[j] && pick[j] && !top[j])
  end
  // The top waits: it holds the arbiter's grant, so the pointer passes it only when it is carried.
  `NOC_ASSERT(TopIsPicked_A, (top != '0) |-> (pick == top))
  `NOC_ASSERT(TopOneHot0_A, $onehot0(top_q))
  // Something is reserved exactly while a top waits.
  `NOC_ASSERT(ReservedWhileTopWaits_A, (reserved_q != '0) == (top != '0))
  for (genvar k = 0; k < NumOutVcs; k++) begin : gen_out_check
    logic [NumInVcs-1:0] takers;  // input VCs that take output VC k this cycle
    for (genvar j = 0; j < NumInVcs; j++) begin : gen_in
      assign takers[j] = taken_i[j] & target_i[j*NumOutVcs+k];
    end
    `NOC_ASSERT(OutVcToOneInputVc_A, $onehot0(takers))
  end

`ifdef FORMAL
  // Formal property (verif/formal/run.sh, with noc_vc_allocator_formal's environment;
  // docs/verification.md), the one that names the top: while the top waits, no other head takes
  // an output VC of its set (the reservation the starvation bound rests on).
  always_comb begin
    if (rst_ni) begin
      for (int j = 0; j < NumInVcs; j++) begin
        for (int i = 0; i < NumInVcs; i++) begin
          if (top[j] && i != j && taken_i[i]) begin
            assert ((target_i[i*NumOutVcs +: NumOutVcs] & target_i[j*NumOutVcs +: NumOutVcs]) == '0);
          end
        end
      end
      // The registered reservation is the waiting top's set, and nothing once the top is carried.
      assert ((reserved_q != '0) == (top != '0));
      for (int j = 0; j < NumInVcs; j++) begin
        if (top[j]) assert (reserved_q == target_i[j*NumOutVcs +: NumOutVcs]);
      end
    end
  end
`endif
endmodule
