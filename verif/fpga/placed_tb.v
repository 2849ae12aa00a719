// SPDX-License-Identifier: SHL-0.51
// make fpga-check (verif/fpga/fpga_check.sh): the placed and routed design, turned back into
// Verilog by icebox_vlog (module wormcast_hx8k_placed), simulated by iverilog for CYCLES clock
// cycles. The trace (cycle, UART pin, LEDs; one line whenever they change) goes to TRACE and is
// compared with the same trace of the RTL core (rtl_trace_main.cpp, Verilator).
//
// The PLL is a test-only behavioural model (below): its output is its reference clock (the
// testbench's clock stands for the design clock) and LOCK, low from the start, rises after
// LOCK_CYCLES rising edges, at a falling edge, as the RTL reference releases its reset request.
`timescale 1ns / 1ps
module placed_tb;
  reg clk = 1'b0;
  wire uart_tx;
  wire [7:0] leds;
  integer cycle = 0;
  integer fd;
  reg [8:0] last = 9'h1ff;
  reg [1023:0] trace_file;
  integer cycles;

  wormcast_hx8k_placed dut (
    .clk_12m_i(clk),
    .uart_tx_o(uart_tx),
    .led_o    (leds)
  );

  initial begin
    if (!$value$plusargs("TRACE=%s", trace_file)) trace_file = "placed.trace";
    if (!$value$plusargs("CYCLES=%d", cycles)) cycles = 1000;
    fd = $fopen(trace_file, "w");
  end

  always #5 clk = !clk;

  always @(negedge clk) begin
    cycle = cycle + 1;
    if ({uart_tx, leds} !== last) begin
      $fwrite(fd, "%0d %b %b\n", cycle, uart_tx, leds);
      last = {uart_tx, leds};
    end
    if (cycle == cycles) begin
      $fclose(fd);
      $finish;
    end
  end
endmodule

// Test-only PLL model: PLLOUTGLOBAL follows REFERENCECLK; LOCK low until LOCK_CYCLES rising edges.
module SB_PLL40_CORE (
  input REFERENCECLK, output PLLOUTCORE, output PLLOUTGLOBAL, input EXTFEEDBACK,
  input [7:0] DYNAMICDELAY, output reg LOCK, input BYPASS, input RESETB, input LATCHINPUTVALUE,
  output SDO, input SDI, input SCLK
);
  parameter FEEDBACK_PATH = "SIMPLE";
  parameter DELAY_ADJUSTMENT_MODE_FEEDBACK = "FIXED";
  parameter DELAY_ADJUSTMENT_MODE_RELATIVE = "FIXED";
  parameter PLLOUT_SELECT = "GENCLK";
  parameter SHIFTREG_DIV_MODE = 1'b0;
  parameter FDA_FEEDBACK = 4'b0000;
  parameter FDA_RELATIVE = 4'b0000;
  parameter DIVR = 4'b0000;
  parameter DIVF = 7'b0000000;
  parameter DIVQ = 3'b000;
  parameter FILTER_RANGE = 3'b000;
  parameter ENABLE_ICEGATE = 1'b0;
  parameter TEST_MODE = 1'b0;
  integer edges = 0;
  integer lock_cycles;
  assign PLLOUTGLOBAL = REFERENCECLK;
  assign PLLOUTCORE = REFERENCECLK;
  assign SDO = 1'b0;
  initial begin
    if (!$value$plusargs("LOCK_CYCLES=%d", lock_cycles)) lock_cycles = 4;
    LOCK = 1'b1;   // a falling edge at time 0 puts the design in reset
    #1 LOCK = 1'b0;
  end
  always @(posedge REFERENCECLK) edges = edges + 1;
  always @(negedge REFERENCECLK) if (edges == lock_cycles) LOCK = 1'b1;
endmodule
