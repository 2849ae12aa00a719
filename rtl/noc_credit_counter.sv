// SPDX-License-Identifier: SHL-0.51
// noc_credit_counter: credit-based flow control for one output virtual channel.
//
// Counts the free slots of the downstream input buffer. It starts at `Depth` (the buffer is empty
// after reset), loses one credit per flit sent (`consume_i`) and gains one per credit returned by
// the downstream router (`return_i`). Both may happen in the same cycle. `available_o` is
// registered (count > 0), so a credit returned in cycle t can be spent from cycle t+1. Consuming
// at 0 credits or returning a credit at `Depth` credits (without a consume in the same cycle) is a
// protocol error: it is flagged by an assertion and ignored by the hardware; the returned credit
// that does not fit is also reported on `overflow_o`, which survives synthesis.
`include "noc_assert.svh"
`include "noc_registers.svh"

module noc_credit_counter #(
  /// Depth of the downstream buffer in flits: the number of credits after reset (>= 1).
  parameter int unsigned Depth = 4,
  /// Width of `count_o`: enough bits to hold 0..Depth. Derived, do not override.
  localparam int unsigned CountW = $clog2(Depth + 1)
) (
  /// Clock; the count changes on its rising edge.
  input  logic              clk_i,
  /// Asynchronous active-low reset; the count returns to `Depth`.
  input  logic              rst_ni,
  /// A flit is sent downstream this cycle and takes one credit. Must be low at 0 credits.
  input  logic              consume_i,
  /// A credit comes back from downstream this cycle. Must be low at `Depth` credits unless
  /// `consume_i` is high in the same cycle.
  input  logic              return_i,
  /// At least one credit: a flit may be sent this cycle.
  output logic              available_o,
  /// Number of credits, 0..Depth.
  output logic [CountW-1:0] count_o,
  /// A credit came back that does not fit (the count is at `Depth` and none is consumed): it is
  /// dropped (combinational; the router keeps it sticky).
  output logic              overflow_o
);

  logic [CountW-1:0] count_d, count_q;
  logic              consume_en, return_en;

  assign available_o = (count_q != '0);
  assign count_o     = count_q;

  // Illegal requests are dropped so the count never wraps, even with assertions compiled out.
  assign consume_en = consume_i & available_o;
  assign return_en  = return_i & (consume_en | (count_q != CountW'(Depth)));
  assign overflow_o = return_i & ~return_en;

  always_comb begin
    count_d = count_q;
    if (return_en && !consume_en) begin
      count_d = count_q + CountW'(1);
    end else if (consume_en && !return_en) begin
      count_d = count_q - CountW'(1);
    end
  end

  `NOC_FF(count_q, count_d, CountW'(Depth))

  `NOC_ASSERT(ConsumeNeedsCredit_A, consume_i |-> available_o)
  `NOC_ASSERT(ReturnBelowDepth_A, (return_i && !consume_i) |-> (count_q != CountW'(Depth)))
  `NOC_ASSERT(CountInRange_A, count_q <= CountW'(Depth))

endmodule
