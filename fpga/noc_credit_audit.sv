// SPDX-License-Identifier: SHL-0.51
// noc_credit_audit: the self-test's credit audit of one credit loop (docs/fpga.md): flits a sender
// sent on it minus credits the sender got back. While traffic runs the difference is the flits the
// receiver holds (0..Depth); once the network is drained every credit must be back, so the
// difference must be 0. A credit lost anywhere on the loop (a receiver that never returns it, a
// wire that drops it) leaves it at 1 or more for good, which no other check sees: the sender just
// runs with one credit less.
`include "noc_assert.svh"
`include "noc_registers.svh"

module noc_credit_audit #(
  /// Credits of the loop (the receiver's buffer slots).
  parameter int unsigned Depth = 4,
  /// Width of the count. Derived, do not override.
  localparam int unsigned CountW = $clog2(Depth + 2)
) (
  /// Clock.
  input  logic clk_i,
  /// Asynchronous active-low reset: nothing outstanding.
  input  logic rst_ni,
  /// The sender sent a flit on the loop this cycle.
  input  logic flit_i,
  /// The sender got a credit back this cycle (as the sender sees it).
  input  logic credit_i,
  /// The network is drained: every credit must be back now.
  input  logic check_i,
  /// Error pulse: more flits outstanding than credits, a credit with none outstanding, or an
  /// outstanding flit when check_i says none may be.
  output logic error_o
);

  logic [CountW-1:0] count_d, count_q;
  logic              over, under;
  always_comb begin
    count_d = count_q;
    if (flit_i && !credit_i) begin
      count_d = count_q + 1'b1;
    end else if (!flit_i && credit_i) begin
      count_d = count_q - 1'b1;
    end
    over  = flit_i && !credit_i && (32'(count_q) >= Depth);
    under = !flit_i && credit_i && (count_q == '0);
    if (over || under) begin
      count_d = count_q;
    end
  end
  `NOC_FF(count_q, count_d, '0)

  assign error_o = over || under || (check_i && count_q != '0);

endmodule
