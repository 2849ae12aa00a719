// SPDX-License-Identifier: SHL-0.51
// noc_output_unit: one output port of the router, with NumVcs output virtual channels.
//
// Per output VC it keeps the credits of the downstream input buffer (a noc_credit_counter of
// Depth = BufDepth) and the allocation state: which input VC holds the output VC for its worm. The
// VC allocator (noc_vc_allocator) allocates a free VC to an input VC at the worm's head
// (`alloc_i`, `alloc_owner_i`); the VC is released when the worm's tail flit leaves on it. The
// switch allocation sends at most one flit per cycle (`send_i`, one-hot over the VCs, with the
// flit's tail bit `tail_i`); the link's valid bit and VC id are registered here. The flit itself
// is not: the switch grant reads it from the input buffer's RAM, whose output register drives the
// link in the next cycle through the crossbar and the head rewrite (noc_switch_traversal), in step with
// `valid_o`. So the link is driven from flip-flops and there is no combinational path from any
// router input to this output (docs/rtl.md, "The router: decisions taken for its composition"). The allocation state and the credits are
// outputs for the allocators: a VC is free when `allocated_o` is low, and a flit may be sent on it
// when `credit_o` is high.
//
// Why a one-hot `send_i` rather than valid + VC id: the "at most one flit per cycle" invariant of
// the switch allocator becomes a checkable assertion here, at the boundary it protects.
// Illegal sends (on an unallocated VC, without a credit, or more than one at once) fire an
// assertion; the hardware still drops a send without a credit (the counter ignores it).
`include "noc_assert.svh"
`include "noc_registers.svh"

module noc_output_unit #(
  /// Output virtual channels of this port (>= 1).
  parameter int unsigned NumVcs = 2,
  /// Depth of the downstream input buffer of one VC in flits: the credits after reset (>= 1).
  parameter int unsigned BufDepth = 4,
  /// Input VCs of the router that can hold an output VC (input ports x VCs; >= 1).
  parameter int unsigned NumInVcs = 10,
  /// Width of a VC id on the link. Derived, do not override.
  localparam int unsigned VcIdW = (NumVcs > 1) ? $clog2(NumVcs) : 1,
  /// Width of an input-VC id (the owner of an output VC). Derived, do not override.
  localparam int unsigned OwnerW = (NumInVcs > 1) ? $clog2(NumInVcs) : 1,
  /// Width of a credit count (0..BufDepth). Derived, do not override.
  localparam int unsigned CountW = $clog2(BufDepth + 1)
) (
  /// Clock.
  input  logic                          clk_i,
  /// Asynchronous active-low reset: every VC free with BufDepth credits, no flit on the link.
  input  logic                          rst_ni,
  /// VC-allocation grant: output VC v is allocated this cycle (a head won it). Only on a free VC.
  input  logic [NumVcs-1:0]             alloc_i,
  /// The input VC that receives output VC v, in [v*OwnerW +: OwnerW]; read where alloc_i[v].
  input  logic [NumVcs*OwnerW-1:0]      alloc_owner_i,
  /// A flit leaves on output VC v this cycle: one-hot or zero; only on an allocated VC with a credit.
  input  logic [NumVcs-1:0]             send_i,
  /// The flit sent is a worm's tail: it releases the VC.
  input  logic                          tail_i,
  /// A credit comes back from downstream for VC v (one buffer slot of VC v was freed).
  input  logic [NumVcs-1:0]             credit_i,
  /// Output VC v is held by a worm (from the cycle after its allocation until its tail has left).
  output logic [NumVcs-1:0]             allocated_o,
  /// The input VC that holds output VC v, in [v*OwnerW +: OwnerW]; 0 while the VC is free.
  output logic [NumVcs*OwnerW-1:0]      owner_o,
  /// Output VC v has at least one credit (registered): a flit may be sent on it this cycle.
  output logic [NumVcs-1:0]             credit_o,
  /// Credits of VC v, 0..BufDepth, in [v*CountW +: CountW].
  output logic [NumVcs*CountW-1:0]      credit_count_o,
  /// Link: a flit is on the link this cycle (registered).
  output logic                          valid_o,
  /// Link: the VC of the flit (registered); 0 when no flit.
  output logic [VcIdW-1:0]              vc_o,
  /// A credit came back for a VC whose counter is full (lost; combinational, the router keeps it
  /// sticky in errors_o).
  output logic                          credit_overflow_o
);

  logic [NumVcs-1:0]        allocated_d, allocated_q;
  logic [NumVcs*OwnerW-1:0] owner_d, owner_q;
  logic                     valid_d, valid_q;
  logic [VcIdW-1:0]         vc_d, vc_q;

  // Credits, one counter per output VC.
  logic [NumVcs-1:0] credit_overflow;
  assign credit_overflow_o = (credit_overflow != '0);
  for (genvar v = 0; v < NumVcs; v++) begin : gen_vc
    noc_credit_counter #(
      .Depth(BufDepth)
    ) u_credit (
      .clk_i,
      .rst_ni,
      .consume_i  (send_i[v]),
      .return_i   (credit_i[v]),
      .available_o(credit_o[v]),
      .count_o    (credit_count_o[v*CountW +: CountW]),
      .overflow_o (credit_overflow[v])
    );
  end

  // Allocation state: set by a grant, cleared when the tail leaves; the owner is kept until then.
  // A worm's head may leave in its grant's cycle (docs/rtl.md "Latency"): a one-flit worm is then
  // allocated and released in one edge, and the VC stays free.
  always_comb begin
    allocated_d = allocated_q;
    owner_d     = owner_q;
    for (int v = 0; v < NumVcs; v++) begin
      if (send_i[v] && tail_i) begin
        allocated_d[v]              = 1'b0;
        owner_d[v*OwnerW +: OwnerW] = '0;
      end else if (alloc_i[v]) begin
        allocated_d[v]              = 1'b1;
        owner_d[v*OwnerW +: OwnerW] = alloc_owner_i[v*OwnerW +: OwnerW];
      end
    end
  end

  // The link registers: a flit is sent, and the id of its VC.
  always_comb begin
    valid_d = (send_i != '0);
    vc_d    = '0;
    for (int v = 0; v < NumVcs; v++) begin
      if (send_i[v]) begin
        vc_d = VcIdW'(v);
      end
    end
  end

  `NOC_FF(allocated_q, allocated_d, '0)
  `NOC_FF(owner_q, owner_d, '0)
  `NOC_FF(valid_q, valid_d, 1'b0)
  `NOC_FF(vc_q, vc_d, '0)

  assign allocated_o = allocated_q;
  assign owner_o     = owner_q;
  assign valid_o     = valid_q;
  assign vc_o        = vc_q;

  `NOC_ASSERT(OneFlitPerCycle_A, $onehot0(send_i))
  // Sent on a VC held by the worm, or granted to it in this cycle.
  `NOC_ASSERT(SendOnAllocatedVc_A, (send_i & ~(allocated_q | alloc_i)) == '0)
  `NOC_ASSERT(SendNeedsCredit_A, (send_i & ~credit_o) == '0)
  `NOC_ASSERT(AllocOnlyFreeVc_A, (alloc_i & allocated_q) == '0)
  for (genvar v = 0; v < NumVcs; v++) begin : gen_owner_check
    `NOC_ASSERT(AllocOwnerInRange_A, alloc_i[v] |-> (32'(alloc_owner_i[v*OwnerW +: OwnerW]) < NumInVcs))
  end

endmodule
