// SPDX-License-Identifier: SHL-0.51
// noc_lfsr: a free-running Galois LFSR, the self-test's random source (docs/fpga.md). It advances
// every cycle; its users sample whatever bits they need when they decide.
`include "noc_assert.svh"
`include "noc_registers.svh"

module noc_lfsr #(
  /// State width.
  parameter int unsigned Width = 16,
  /// Feedback taps of the Galois form (default x^16 + x^14 + x^13 + x^11 + 1, maximal length).
  parameter logic [Width-1:0] Taps = 16'hB400,
  /// Reset state; must not be zero (the all-zero state is a fixed point).
  parameter logic [Width-1:0] Seed = 16'hACE1
) (
  /// Clock.
  input  logic             clk_i,
  /// Asynchronous active-low reset to Seed.
  input  logic             rst_ni,
  /// The current state.
  output logic [Width-1:0] state_o
);

  logic [Width-1:0] state_d, state_q;
  assign state_d = state_q[0] ? ((state_q >> 1) ^ Taps) : (state_q >> 1);
  `NOC_FF(state_q, state_d, Seed)
  assign state_o = state_q;

  if (Seed == '0) begin : gen_seed_check
    $error("noc_lfsr: Seed must not be zero");
  end

  // A maximal-length LFSR never reaches zero from a nonzero state.
  `NOC_ASSERT(NeverZero_A, state_q != '0)

endmodule
