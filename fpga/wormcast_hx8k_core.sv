// SPDX-License-Identifier: SHL-0.51
// wormcast_hx8k_core: the FPGA self-test without the clock generator: what simulation runs.
//
// reset_sync -> noc_selftest (the two-router network with its traffic generators and checkers)
// -> board_status (the status line over the UART, the heartbeat and the LEDs). The board top
// (wormcast_hx8k) adds the PLL and feeds `rst_req_ni` from its lock output.
//
// `led_o[i]` drives the breakout board's LED D(i+2); board_status says what each one shows ("running"
// is on once the PLL has locked and reset has been released).

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
  parameter int unsigned ResetHold = 16,
  /// Flits per input VC of the self-test's routers (noc_selftest). 1 by default: the fault tests
  /// and the credit audit's schedule are written for one credit per VC; `make fpga FPGA_BUFDEPTH=4`
  /// builds the board with deeper buffers.
  parameter int unsigned BufDepth = 1
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
    .Fault   (Fault),
    .BufDepth(BufDepth)
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

  board_status #(
    .ClkHz        (ClkHz),
    .Baud         (Baud),
    .LinePeriod   (LinePeriod),
    .HeartbeatHalf(HeartbeatHalf)
  ) u_board_status (
    .clk_i            (clk_i),
    .rst_ni           (rst_ni),
    .worms_sent_i     (worms_sent),
    .worms_delivered_i(worms_delivered),
    .check_errors_i   (check_errors),
    .router_errors_i  (router_errors),
    .cycles_i         (cycles),
    .pass_i           (pass),
    .fail_i           (fail),
    .uart_tx_o        (uart_tx_o),
    .led_o            (led_o)
  );

endmodule
