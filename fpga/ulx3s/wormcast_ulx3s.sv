// SPDX-License-Identifier: SHL-0.51
// wormcast_ulx3s: the board top for the ULX3S (LFE5U-85F-CABGA381): the mesh self-test
// (noc_selftest_mesh: a SizeX x SizeY mesh of the VC-class plan's routers, a traffic generator and
// a delivery checker per node, the credit audit and the routers' sticky error bits) behind the
// HX8K board's status line, UART and LEDs (board_status; docs/fpga.md, "ECP5: the ULX3S"). With
// HostLink = 1 the same mesh is driven by the host instead (noc_host_mesh: the host's commands
// arrive on the UART's receive line, docs/host-link.md).
//
// The design runs on the board's 25 MHz oscillator directly (no PLL: the build's timing target is
// that clock). The reset request is a power-on register: its initial value (0, the flip-flop's
// state after configuration) holds the design in reset for the first cycle, then reset_sync
// releases it ResetHold + 2 cycles later with the clock running.
//
// `led_o[i]` drives the board's LED D(i); board_status says what each one shows, as on the HX8K
// (with HostLink, the list below).
// Pins: fpga/ulx3s/ulx3s_v20.lpf.
`include "noc_registers.svh"

module wormcast_ulx3s #(
  /// Mesh nodes along x (2..4).
  parameter int unsigned SizeX = 3,
  /// Mesh nodes along y (2..4).
  parameter int unsigned SizeY = 3,
  /// Flits per router input VC buffer (and NI ejection FIFO).
  parameter int unsigned BufDepth = 1,
  /// Test-only fault injection, passed to noc_selftest_mesh; 0 on the board.
  parameter int unsigned Fault = 0,
  /// Design clock in Hz (the oscillator): sets the baud divisor, the line period and the heartbeat.
  parameter int unsigned ClkHz = 25_000_000,
  /// UART baud rate (8N1).
  parameter int unsigned Baud = 115_200,
  /// Cycles between periodic status lines (one second by default).
  parameter int unsigned LinePeriod = ClkHz,
  /// Cycles between heartbeat LED toggles (half a second by default).
  parameter int unsigned HeartbeatHalf = ClkHz / 2,
  /// Cycles the clock runs in reset after the request is released.
  parameter int unsigned ResetHold = 16,
  /// 0: the mesh self-test. 1: the mesh driven by the host over the UART (noc_host_mesh,
  /// docs/host-link.md), the node firmware running on the host.
  parameter int unsigned HostLink = 0
) (
  /// The board's 25 MHz oscillator.
  input  logic       clk_25mhz_i,
  /// UART receive (the FT231X's transmit output: the host's serial port); used with HostLink.
  input  logic       uart_rx_i,
  /// UART transmit (FPGA to the FT231X's receive input: the host's serial port).
  output logic       uart_tx_o,
  /// LEDs D0..D7, see above.
  output logic [7:0] led_o
);

  logic clk_i;
  assign clk_i = clk_25mhz_i;

  // Power-on reset request: low in the first cycle after configuration, high from then on. It has
  // no reset of its own; its initial value is the configured flip-flop state.
  logic por_q = 1'b0;
  always_ff @(posedge clk_i) por_q <= 1'b1;

  // The synchronized reset of everything below (asynchronous assert, synchronous release).
  logic rst_ni;

  reset_sync #(
    .HoldCycles(ResetHold)
  ) u_reset_sync (
    .clk_i (clk_i),
    .rst_ni(por_q),
    .rst_no(rst_ni)
  );

  if (HostLink == 0) begin : gen_selftest
    logic [31:0] worms_sent, worms_delivered, cycles;
    logic [15:0] check_errors;
    logic [7:0]  router_errors;
    logic        pass, fail;

    noc_selftest_mesh #(
      .SizeX   (SizeX),
      .SizeY   (SizeY),
      .BufDepth(BufDepth),
      .Fault   (Fault)
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

    // The receive line is the host link's.
    logic unused_rx;
    assign unused_rx = uart_rx_i;
  end else begin : gen_host_link
    logic [7:0] node_errors, link_errors;

    noc_host_mesh #(
      .SizeX   (SizeX),
      .SizeY   (SizeY),
      .BufDepth(BufDepth),
      .ClkHz   (ClkHz),
      .Baud    (Baud)
    ) u_host_mesh (
      .clk_i        (clk_i),
      .rst_ni       (rst_ni),
      .uart_rx_i    (uart_rx_i),
      .uart_tx_o    (uart_tx_o),
      .node_errors_o(node_errors),
      .link_errors_o(link_errors)
    );

    // LEDs in host-link mode (registered): 0 running, 1 a router or NI error, 2 a link error,
    // 3 the receive line is low (flickers with each command), 4 the transmit line is low.
    logic [7:0] led_d, led_q;
    assign led_d = {3'b000, !uart_tx_o, !uart_rx_i, link_errors != '0, node_errors != '0, 1'b1};
    `NOC_FF(led_q, led_d, 8'h00)
    assign led_o = led_q;
  end

endmodule
