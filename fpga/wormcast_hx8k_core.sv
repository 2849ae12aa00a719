// SPDX-License-Identifier: SHL-0.51
// wormcast_hx8k_core: the FPGA self-test without the clock generator: what simulation runs.
//
// reset_sync -> noc_selftest (the two-router network with its traffic generators and checkers)
// -> status_line -> uart_tx, and the LEDs. The board top (wormcast_hx8k) adds the PLL and feeds
// `rst_req_ni` from its lock output.
//
// LEDs (`led_o[i]` drives the breakout board's LED D(i+2); high is on):
//   0 heartbeat: toggles every HeartbeatHalf cycles (a 1 Hz blink by default) while out of reset
//   1 pass: every mode of the self-test reached its target without an error (sticky)
//   2 error: the self-test found an error (sticky)
//   3 running: the clock is up (PLL locked) and reset has been released
//   4 UART: on while the transmitter sends a 0 bit (flickers once per line)
//   5 router error: a router's sticky error flags are not all zero
//   6 check error: the checkers counted an error
//   7 off
`include "noc_registers.svh"

module wormcast_hx8k_core #(
  /// Test-only fault injection, passed to noc_selftest: 0 none; 1 corrupt one payload flit;
  /// 2 drop one credit.
  parameter int unsigned Fault = 0,
  /// Design clock in Hz (the PLL's output): sets the baud divisor, the line period and the
  /// heartbeat.
  parameter int unsigned ClkHz = 15_937_500,
  /// UART baud rate (8N1).
  parameter int unsigned Baud = 115_200,
  /// Cycles between periodic status lines (one second by default).
  parameter int unsigned LinePeriod = ClkHz,
  /// Cycles between heartbeat LED toggles (half a second by default).
  parameter int unsigned HeartbeatHalf = ClkHz / 2,
  /// Cycles the clock runs in reset after the request is released.
  parameter int unsigned ResetHold = 16
) (
  /// Design clock.
  input  logic       clk_i,
  /// Asynchronous active-low reset request (the PLL's lock on the board); synchronized inside.
  input  logic       rst_req_ni,
  /// UART transmit line (to the FTDI's receive input).
  output logic       uart_tx_o,
  /// The eight LEDs, see above.
  output logic [7:0] led_o
);

  localparam int unsigned BeatW = $clog2(HeartbeatHalf);

  // The synchronized reset of everything below (asynchronous assert, synchronous release).
  logic rst_ni;

  reset_sync #(
    .HoldCycles(ResetHold)
  ) u_reset_sync (
    .clk_i (clk_i),
    .rst_ni(rst_req_ni),
    .rst_no(rst_ni)
  );

  logic [31:0] worms_sent, worms_delivered, cycles;
  logic [15:0] check_errors;
  logic [7:0]  router_errors;
  logic        pass, fail;

  noc_selftest #(
    .Fault(Fault)
  ) u_selftest (
    .clk_i            (clk_i),
    .rst_ni           (rst_ni),
    .worms_sent_o     (worms_sent),
    .worms_delivered_o(worms_delivered),
    .check_errors_o   (check_errors),
    .router_errors_o  (router_errors),
    .cycles_o         (cycles),
    .pass_o           (pass),
    .fail_o           (fail)
  );

  logic [7:0] tx_data;
  logic       tx_valid, tx_ready;

  status_line #(
    .LinePeriod(LinePeriod)
  ) u_status_line (
    .clk_i            (clk_i),
    .rst_ni           (rst_ni),
    .worms_sent_i     (worms_sent),
    .worms_delivered_i(worms_delivered),
    .check_errors_i   (check_errors),
    .router_errors_i  (router_errors),
    .cycles_i         (cycles),
    .pass_i           (pass),
    .fail_i           (fail),
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
  assign led_d = {1'b0, check_errors != '0, router_errors != '0, !tx, 1'b1, fail, pass, heartbeat_q};

  `NOC_FF(beat_q, beat_d, BeatW'(HeartbeatHalf - 1))
  `NOC_FF(heartbeat_q, heartbeat_d, 1'b0)
  `NOC_FF(led_q, led_d, 8'h00)

  assign uart_tx_o = tx;
  assign led_o     = led_q;

endmodule
