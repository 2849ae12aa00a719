// SPDX-License-Identifier: SHL-0.51
// noc_rr_arbiter: round-robin arbiter with a grant that can be held for a whole packet.
//
// The grant is combinational from `req_i` and a priority state: requesters at or after a priority
// pointer come first, in index order, then the ones before it. The pointer moves only when a
// grant is given:
// - `advance_i` high (the grant was used up, e.g. a tail flit left): the winner becomes the lowest
//   priority, so a requester that keeps requesting waits for at most NumReq-1 other grants;
// - `advance_i` low: the winner becomes the highest priority, so it keeps its grant for as long
//   as it keeps requesting, even if requesters that would have beaten it arrive meanwhile. This
//   lets a wormhole output stay allocated to one packet from head to tail.
// The pointer is kept as a mask (`prio_q[i]` = requester i is at or after the pointer), and the
// grant is the lowest set bit of the masked requests if any, else of all requests.
// The vector to pick from is chosen first and the lowest set bit is taken once, on it: bit i wins
// when it is set and no bit below it is (a prefix OR per bit, a tree of LUTs). One prefix network
// instead of one per candidate vector matters on the 20- and 24-input arbiters of the 4-VC router,
// where two of them cost more LUTs than they save. Below 16 requesters the prefix ORs are LUTs;
// the arithmetic form `x & (~x + 1)` would put a carry chain, with its entry and exit routing on
// an FPGA, on the allocation cycle's critical path. From 16 requesters on (the VC allocator's
// pick among 20 or 24 input VCs, registered: off that path) the lowest set bit is taken by that
// carry chain, a prefix network in the FPGA's carry cells beside the LUTs: fewer LUTs on the 4-VC
// node (docs/design-log.md). Both forms are the same function (equiv_rev.sh).
`include "noc_assert.svh"
`include "noc_registers.svh"

module noc_rr_arbiter #(
  /// Number of requesters (>= 1).
  parameter int unsigned NumReq = 4
) (
  /// Clock; the priority state changes on its rising edge.
  input  logic              clk_i,
  /// Asynchronous active-low reset; requester 0 gets the highest priority.
  input  logic              rst_ni,
  /// One request bit per requester.
  input  logic [NumReq-1:0] req_i,
  /// The grant is used up this cycle: the winner moves to the lowest priority. While low, the
  /// winner keeps the grant as long as it requests. Ignored when nothing is granted.
  input  logic              advance_i,
  /// Grant: one-hot (or zero when nothing is requested), only to a requester; combinational.
  output logic [NumReq-1:0] gnt_o
);

  logic [NumReq-1:0] prio_d, prio_q;
  logic [NumReq-1:0] req_hi;           // the requests at or after the pointer
  logic              any_hi;           // some request is at or after the pointer
  logic [NumReq-1:0] req_sel;          // the requests the grant is picked from
  logic [NumReq-1:0] sel_below;        // bit i: some bit of req_sel below i is set
  logic [NumReq-1:0] at_or_after_gnt;

  // The requests at or after the pointer win if there are any; the lowest index among them wins.
  assign req_hi  = req_i & prio_q;
  assign any_hi  = (req_hi != '0);
  assign req_sel = any_hi ? req_hi : req_i;
  if (NumReq >= 16) begin : gen_carry
    // gnt_o - 1 sets exactly the bits below the grant (all of them without one).
    assign gnt_o     = req_sel & (~req_sel + NumReq'(1));
    assign sel_below = ~(gnt_o | (gnt_o - NumReq'(1)));
  end else begin : gen_prefix
    assign sel_below[0] = 1'b0;
    for (genvar i = 1; i < NumReq; i++) begin : gen_below
      assign sel_below[i] = |req_sel[i-1:0];
    end
    assign gnt_o = req_sel & ~sel_below;
  end

  // `sel_below` is also the thermometer of the positions strictly after the one-hot grant (the
  // grant is the lowest set bit of req_sel), so the pointer update needs no second prefix network.
  assign at_or_after_gnt = sel_below | gnt_o;

  always_comb begin
    prio_d = prio_q;
    if (req_i != '0) begin  // some grant is given (the same test as gnt_o != '0, one level earlier)
      prio_d = advance_i ? sel_below : at_or_after_gnt;
    end
  end

  `NOC_FF(prio_q, prio_d, '1)

  `NOC_ASSERT(GntOneHot0_A, $onehot0(gnt_o))
  `NOC_ASSERT(GntOnlyToRequester_A, (gnt_o & ~req_i) == '0)
  `NOC_ASSERT(GntWhenRequested_A, (req_i != '0) |-> (gnt_o != '0))
  `NOC_ASSERT(GntHeldWithoutAdvance_A,
              (gnt_o != '0 && !advance_i) |=> ((req_i & $past(gnt_o)) == '0 || gnt_o == $past(gnt_o)))

endmodule
