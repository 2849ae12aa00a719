// SPDX-License-Identifier: SHL-0.51
// reset_sync: a reset synchronizer with a hold time.
//
// The reset `rst_no` asserts asynchronously, in the same instant as the request `rst_ni` (on the
// board: low while the PLL is not locked), and deasserts synchronously, on a rising edge of `clk_i`
// `HoldCycles` cycles after `rst_ni` rose and two synchronizer stages later. So the logic it
// resets sees the end of reset one clock edge after the same edge everywhere (no recovery-time
// race across the design), and the clock runs for `HoldCycles` edges while reset is still
// asserted: the router's configuration registers (`RegisterConfig`) load on clock edges during
// reset.
`include "noc_registers.svh"

module reset_sync #(
  /// Clock cycles between the synchronized release of the request and the release of `rst_no`
  /// (at least 1).
  parameter int unsigned HoldCycles = 16,
  /// Width of the hold counter. Derived, do not override.
  localparam int unsigned HoldW = $clog2(HoldCycles + 1)
) (
  /// Clock of the reset domain.
  input  logic clk_i,
  /// Asynchronous active-low reset request (may change at any time).
  input  logic rst_ni,
  /// The synchronized reset, active low: asynchronous assert, synchronous deassert.
  output logic rst_no
);

  logic [1:0]       sync_q;
  logic [HoldW-1:0] hold_d, hold_q;
  logic             rst_d, rst_q;

  // Two flip-flops against metastability of the release edge.
  `NOC_FF(sync_q, {sync_q[0], 1'b1}, 2'b00)

  always_comb begin
    hold_d = hold_q;
    if (sync_q[1] && hold_q != HoldW'(HoldCycles)) hold_d = hold_q + HoldW'(1);
    rst_d = sync_q[1] && (hold_q == HoldW'(HoldCycles));
  end

  `NOC_FF(hold_q, hold_d, '0)
  `NOC_FF(rst_q, rst_d, 1'b0)

  assign rst_no = rst_q;

endmodule
