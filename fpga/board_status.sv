// SPDX-License-Identifier: SHL-0.51
// board_status: what a board shows of a self-test: its counters as a text line over the UART
// (status_line -> uart_tx), a heartbeat and seven status LEDs. Both board tops use it
// (wormcast_hx8k_core for the iCE40 HX8K, wormcast_ulx3s for the ECP5), so the LEDs mean the same
// on both boards (docs/fpga.md, "LEDs").
//
// LEDs (`led_o[i]`; high is on):
//   0 heartbeat: toggles every HeartbeatHalf cycles (a 1 Hz blink by default) while out of reset
//   1 pass: the self-test passed (sticky)
//   2 error: the self-test found an error (sticky)
//   3 running: reset has been released
//   4 UART: on while the transmitter sends a 0 bit (flickers once per line)
//   5 router error: a router's or NI's sticky error flags are not all zero
//   6 check error: the checkers counted an error
//   7 off
`include "noc_registers.svh"

module board_status #(
  /// Design clock in Hz: sets the baud divisor.
  parameter int unsigned ClkHz = 15_937_500,
  /// UART baud rate (8N1).
  parameter int unsigned Baud = 115_200,
  /// Cycles between periodic status lines.
  parameter int unsigned LinePeriod = ClkHz,
  /// Cycles between heartbeat LED toggles.
  parameter int unsigned HeartbeatHalf = ClkHz / 2
) (
  /// Design clock.
  input  logic        clk_i,
  /// Asynchronous active-low reset (already synchronized): LEDs off, the line idle.
  input  logic        rst_ni,
  /// Worms sent by the self-test.
  input  logic [31:0] worms_sent_i,
  /// Worms delivered and checked.
  input  logic [31:0] worms_delivered_i,
  /// Errors found by the checkers.
  input  logic [15:0] check_errors_i,
  /// The routers' and NIs' sticky error flags.
  input  logic [7:0]  router_errors_i,
  /// Cycles since reset.
  input  logic [31:0] cycles_i,
  /// Sticky: the self-test passed.
  input  logic        pass_i,
  /// Sticky: the self-test found an error.
  input  logic        fail_i,
  /// UART transmit line (idle high).
  output logic        uart_tx_o,
  /// The eight LEDs, see above (registered).
  output logic [7:0]  led_o
);

  localparam int unsigned BeatW = $clog2(HeartbeatHalf);

  logic [7:0] tx_data;
  logic       tx_valid, tx_ready;

  status_line #(
    .LinePeriod(LinePeriod)
  ) u_status_line (
    .clk_i            (clk_i),
    .rst_ni           (rst_ni),
    .worms_sent_i     (worms_sent_i),
    .worms_delivered_i(worms_delivered_i),
    .check_errors_i   (check_errors_i),
    .router_errors_i  (router_errors_i),
    .cycles_i         (cycles_i),
    .pass_i           (pass_i),
    .fail_i           (fail_i),
    .data_o           (tx_data),
    .valid_o          (tx_valid),
    .ready_i          (tx_ready)
  );

  logic tx;

  uart_tx #(
    .ClkHz(ClkHz),
    .Baud (Baud)
  ) u_uart_tx (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .data_i (tx_data),
    .valid_i(tx_valid),
    .ready_o(tx_ready),
    .tx_o   (tx)
  );

  // Heartbeat: a 1 Hz square wave.
  logic [BeatW-1:0] beat_d, beat_q;
  logic             heartbeat_d, heartbeat_q;
  always_comb begin
    beat_d      = beat_q - BeatW'(1);
    heartbeat_d = heartbeat_q;
    if (beat_q == '0) begin
      beat_d      = BeatW'(HeartbeatHalf - 1);
      heartbeat_d = !heartbeat_q;
    end
  end
  // The LED outputs are registered, so no LED pin hangs on a combinational path.
  logic [7:0] led_d, led_q;
  assign led_d = {1'b0, check_errors_i != '0, router_errors_i != '0, !tx, 1'b1, fail_i, pass_i, heartbeat_q};

  `NOC_FF(beat_q, beat_d, BeatW'(HeartbeatHalf - 1))
  `NOC_FF(heartbeat_q, heartbeat_d, 1'b0)
  `NOC_FF(led_q, led_d, 8'h00)

  assign uart_tx_o = tx;
  assign led_o     = led_q;

endmodule
