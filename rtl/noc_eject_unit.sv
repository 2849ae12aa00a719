// SPDX-License-Identifier: SHL-0.51
// noc_eject_unit: one local ejection port of the router.
//
// Ejection is not allocated per worm (docs/rtl.md, "Ejection is not allocated"): any worm's flit
// may take the port in any cycle the switch grants it, so flits of several worms interleave on it,
// each tagged with its stream, the router input VC it comes from (`stream_o`). The network
// interface reassembles per stream. Flow control is one credit pool for the whole port (a
// noc_credit_counter of Depth = BufDepth): the network interface returns a credit per flit it has
// taken, whatever the stream, and never waits on the network to do so.
// Why: a worm that holds an ejection channel while it waits for a network channel couples the
// channel networks (or directions) that share the node, and concurrent multidestination worms can
// then close a cycle through it (docs/rtl.md). A port that no worm holds adds no dependency.
// Like noc_output_unit, the link's valid bit and stream are registered here, and the flit comes
// from the input buffer's RAM output register through the crossbar (noc_switch_traversal).
`include "noc_assert.svh"
`include "noc_registers.svh"

module noc_eject_unit #(
  /// Flits the network interface accepts without returning a credit: the credits after reset (>= 1).
  parameter int unsigned BufDepth = 4,
  /// Width of a stream id (a router input VC id).
  parameter int unsigned StreamW = 4,
  /// Width of the credit count. Derived, do not override.
  localparam int unsigned CountW = $clog2(BufDepth + 1)
) (
  /// Clock.
  input  logic                      clk_i,
  /// Asynchronous active-low reset: BufDepth credits, link idle.
  input  logic                      rst_ni,
  /// A flit leaves on this port this cycle (only with a credit).
  input  logic                      send_i,
  /// The input VC the flit comes from.
  input  logic [StreamW-1:0]        stream_i,
  /// A credit comes back from the network interface.
  input  logic                      credit_i,
  /// At least one credit: a flit may be sent this cycle (registered).
  output logic                      credit_o,
  /// Credits left, for debugging.
  output logic [CountW-1:0]         credit_count_o,
  /// Link: a flit is delivered (registered).
  output logic                      valid_o,
  /// Link: the flit's stream (registered).
  output logic [StreamW-1:0]        stream_o,
  /// A credit came back while the pool is full (lost; combinational, the router keeps it sticky
  /// in errors_o).
  output logic                      credit_overflow_o
);

  logic                      valid_q;
  logic [StreamW-1:0]        stream_d, stream_q;

  noc_credit_counter #(
    .Depth(BufDepth)
  ) u_credit (
    .clk_i,
    .rst_ni,
    .consume_i  (send_i),
    .return_i   (credit_i),
    .available_o(credit_o),
    .count_o    (credit_count_o),
    .overflow_o (credit_overflow_o)
  );

  assign stream_d = send_i ? stream_i : stream_q;

  `NOC_FF(valid_q, send_i, 1'b0)
  `NOC_FF(stream_q, stream_d, '0)

  assign valid_o  = valid_q;
  assign stream_o = stream_q;

  `NOC_ASSERT(SendNeedsCredit_A, send_i |-> credit_o)

endmodule
