// SPDX-License-Identifier: SHL-0.51
// noc_link_checker: the link protocol of one credit-based link, asserted from the receiver's side
// (docs/rtl.md, "The link protocol"; docs/verification.md, "Link checkers"). It has no outputs and
// its state exists only in simulation: under SYNTHESIS (yosys) the module is empty.
//
// A link is valid-per-cycle with credits: in a cycle with valid_i the flit is on the wire and the
// receiver takes it in that cycle, whatever it holds (it has no ready), so no "held while not
// accepted" rule exists. What the protocol requires instead, and this module asserts:
//   - FlitHasCredit_A: a flit arrives on a credit pool only while the sender holds a credit of it:
//     BufDepth after reset, -1 per flit, +1 per credit the receiver returns. A credit returned in
//     a cycle may carry a flit in that same cycle (the NI's injection counts it at once), so the
//     count seen at a flit is the registered count plus this cycle's credit;
//   - CreditWithinDepth_A: the receiver never returns more credits than flits it took: the count
//     stays at most BufDepth (a flit and a credit in one cycle leave it unchanged);
//   - VcInRange_A: the VC id names a VC of the link (NumVcs 1: VC 0; an ejection link: VC 0);
//   - HeadOpensWorm_A, BodyInsideWorm_A: worms are whole per worm key: a flit with the head bit
//     opens a worm only where none is open (the last one ended with its tail), a flit without it
//     only continues an open one; the tail closes it (a head with the tail bit is a one-flit worm).
//     The key is the VC on a network or injection link (an output VC is held from head to tail),
//     and the stream id on an ejection link (the router interleaves worms there per flit, each
//     tagged with its input VC). The head bit is the flit's as it is on this link: a router that
//     promotes an address flit sets its head bit on the network copy (docs/header-format.md,
//     "Promotion"), so every network worm starts with a head bit, while the ejected copy keeps the
//     delivered head followed by its address flits without one;
//   - ejection links only (Eject = 1): one pool of BufDepth credits returned on credit bit 0, so
//     EjectCreditOnPoolBit_A (no other credit bit is ever set), and StreamInRange_A.
// A flit that breaks a worm rule leaves the key's state as it was (as the NI drops a misplaced
// flit), and a count that would leave 0..BufDepth is clamped, so one fault fires once. The checker
// registers the link and judges each cycle one cycle later, from registers only.

`include "noc_assert.svh"
`include "noc_registers.svh"

module noc_link_checker #(
  /// VCs of the link (the router's NumVcs): credit bits, one per VC.
  parameter int unsigned NumVcs = 2,
  /// Credits per pool after reset: the receiver's flits per VC buffer (noc_router BufDepth), or an
  /// ejection port's pool.
  parameter int unsigned BufDepth = 4,
  /// 0: a network or injection link (a credit pool and worms per VC); 1: an ejection link (one
  /// pool on credit bit 0, VC 0, worms per stream).
  parameter int unsigned Eject = 0,
  /// Ejection streams (the router's input VCs, NumPorts * NumVcs); used when Eject = 1.
  parameter int unsigned NumStreams = 1,
  /// Width of a VC id on a link. Derived, do not override.
  localparam int unsigned VcIdW = (NumVcs > 1) ? $clog2(NumVcs) : 1,
  /// Width of a stream id (noc_router StreamW). Derived, do not override.
  localparam int unsigned StreamW = (NumStreams > 1) ? $clog2(NumStreams) : 1,
  /// Width of a flit (noc_pkg::FlitW). Derived, do not override.
  localparam int unsigned FlitW = noc_pkg::FlitW
) (
  /// Clock of the receiver.
  input logic               clk_i,
  /// Asynchronous active-low reset, with the link's ends: full credits, no worm open.
  input logic               rst_ni,
  /// A flit is on the link.
  input logic               valid_i,
  /// Its VC.
  input logic [VcIdW-1:0]   vc_i,
  /// The flit (noc_pkg::flit_t).
  input logic [FlitW-1:0]   flit_i,
  /// Its stream (ejection links; tie to 0 elsewhere).
  input logic [StreamW-1:0] stream_i,
  /// The credits the receiver returns in this cycle, bit v for VC v.
  input logic [NumVcs-1:0]  credit_i
);

`ifndef SYNTHESIS
  localparam int unsigned NumPools = (Eject != 0) ? 1 : NumVcs;
  localparam int unsigned NumKeys  = (Eject != 0) ? NumStreams : NumVcs;
  localparam int unsigned CountW   = $clog2(BufDepth + 2);  // 0..BufDepth + 1 (a credit too many)
  localparam int unsigned KeyW     = (Eject != 0) ? StreamW : VcIdW;

  if (Eject > 1 || NumVcs < 1 || BufDepth < 1 || NumStreams < 1) begin : gen_param_check
    $error("noc_link_checker: Eject (%0d) must be 0 or 1, NumVcs (%0d), BufDepth (%0d) and NumStreams (%0d) at least 1",
           Eject, NumVcs, BufDepth, NumStreams);
  end

  // The link, registered: the checks judge cycle t in cycle t + 1, from registers only (the link
  // below and the state it updates), so every assertion reads one consistent cycle however a
  // simulator orders the sampling of inputs and the update of registers at the edge.
  noc_pkg::flit_t       flit;
  logic                 valid_q, head_q, tail_q;
  logic [VcIdW-1:0]     vc_q;
  logic [StreamW-1:0]   stream_q;
  logic [NumVcs-1:0]    credit_q;
  assign flit = flit_i;
  `NOC_FF(valid_q, valid_i, 1'b0)
  `NOC_FF(head_q, flit.head, 1'b0)
  `NOC_FF(tail_q, flit.tail, 1'b0)
  `NOC_FF(vc_q, vc_i, '0)
  `NOC_FF(stream_q, stream_i, '0)
  `NOC_FF(credit_q, credit_i, '0)

  logic               vc_in_range, stream_in_range, key_in_range, key_open, head_ok, body_ok;
  logic [KeyW-1:0]    key;
  logic [NumKeys-1:0] open_d, open_q;

  assign vc_in_range     = (Eject != 0) ? (vc_q == '0) : ({1'b0, vc_q} < (VcIdW + 1)'(NumVcs));
  assign stream_in_range = ({1'b0, stream_q} < (StreamW + 1)'(NumStreams));
  assign key             = (Eject != 0) ? KeyW'(stream_q) : KeyW'(vc_q);
  assign key_in_range    = (Eject != 0) ? stream_in_range : vc_in_range;

  // Credit pools: count_q is the sender's credits before the registered cycle.
  for (genvar k = 0; k < NumPools; k++) begin : gen_pool
    logic              take, give;
    logic [CountW-1:0] count_d, count_q, avail;

    assign take  = valid_q && ((Eject != 0) || (32'(vc_q) == k));
    assign give  = credit_q[k];
    assign avail = count_q + CountW'(give);
    always_comb begin
      count_d = avail - CountW'(take);
      if (take && avail == '0) count_d = '0;
      if (count_d > CountW'(BufDepth)) count_d = CountW'(BufDepth);
    end
    `NOC_FF(count_q, count_d, CountW'(BufDepth))

    `NOC_ASSERT(FlitHasCredit_A, take |-> (avail != '0))
    `NOC_ASSERT(CreditWithinDepth_A, avail <= CountW'(BufDepth) + CountW'(take))
  end

  if (Eject != 0 && NumVcs > 1) begin : gen_pool_bit
    `NOC_ASSERT(EjectCreditOnPoolBit_A, credit_q[NumVcs-1:1] == '0)
  end

  // Worms per key: open_q is whether a worm is open before the registered cycle.
  always_comb begin
    key_open = 1'b0;
    for (int k = 0; k < NumKeys; k++) begin
      if (key_in_range && key == KeyW'(k)) key_open = open_q[k];
    end
  end
  assign head_ok = head_q && !key_open;
  assign body_ok = !head_q && key_open;

  always_comb begin
    open_d = open_q;
    for (int k = 0; k < NumKeys; k++) begin
      if (valid_q && key_in_range && key == KeyW'(k) && (head_ok || body_ok)) open_d[k] = !tail_q;
    end
  end
  `NOC_FF(open_q, open_d, '0)

  `NOC_ASSERT(VcInRange_A, valid_q |-> vc_in_range)
  `NOC_ASSERT(StreamInRange_A, (valid_q && Eject != 0) |-> stream_in_range)
  `NOC_ASSERT(HeadOpensWorm_A, (valid_q && key_in_range && head_q) |-> !key_open)
  `NOC_ASSERT(BodyInsideWorm_A, (valid_q && key_in_range && !head_q) |-> key_open)

  // The flit's data is the receiver's.
  logic unused_data;
  assign unused_data = ^flit.data;
`endif

endmodule
