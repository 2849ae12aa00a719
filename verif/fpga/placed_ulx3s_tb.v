// SPDX-License-Identifier: SHL-0.51
// make fpga-check BOARD=ulx3s (verif/fpga/fpga_check_ulx3s.sh): the placed and routed ULX3S design
// (nextpnr-ecp5's netlist after routing, written back as Verilog: module wormcast_ulx3s_placed)
// simulated by iverilog for CYCLES clock cycles with the ECP5 cell models. The trace (cycle, UART
// pin, LEDs; one line whenever they change) goes to TRACE and is compared with the same trace of
// the RTL top (rtl_trace_ulx3s_main.cpp, Verilator).
//
// The design starts from its configured state: every flip-flop at its REGSET value (the models'
// initial values), so the power-on reset request reads 0 until the first clock edge, as on the
// board. The receive line is idle (high). PROGRESS=<n> prints the cycle count every n cycles.
`timescale 1ns / 1ps
module placed_ulx3s_tb;
  reg clk = 1'b0;
  wire uart_tx;
  wire [7:0] leds;
  integer cycle = 0;
  integer fd;
  reg [8:0] last = 9'h1ff;
  reg [1023:0] trace_file;
  integer cycles;
  integer progress;

  wormcast_ulx3s_placed dut (
    .clk_25mhz_i(clk),
    .uart_rx_i  (1'b1),
    .uart_tx_o  (uart_tx),
    .led_o      (leds)
  );

  initial begin
    if (!$value$plusargs("TRACE=%s", trace_file)) trace_file = "placed.trace";
    if (!$value$plusargs("CYCLES=%d", cycles)) cycles = 1000;
    if (!$value$plusargs("PROGRESS=%d", progress)) progress = 0;
    fd = $fopen(trace_file, "w");
  end

  always #20 clk = !clk;

  always @(negedge clk) begin
    cycle = cycle + 1;
    if ({uart_tx, leds} !== last) begin
      $fwrite(fd, "%0d %b %b\n", cycle, uart_tx, leds);
      last = {uart_tx, leds};
    end
    if (progress > 0 && cycle % progress == 0) $display("cycle %0d", cycle);
    if (cycle == cycles) begin
      $fclose(fd);
      $finish;
    end
  end
endmodule
