// SPDX-License-Identifier: SHL-0.51
// verif/fpga/ecp5_cells_check.sh: ecp5_cells_test (plain Verilog) and its placed and routed
// netlist (ecp5_cells_test_placed, with the ECP5 cell models) side by side for CYCLES cycles from
// the configured state; prints "mismatching <n> changes <m>": the cycles in which their outputs
// differ, and the cycles in which the placed design's outputs changed.
`timescale 1ns / 1ps
module ecp5_cells_test_tb;
  reg clk = 1'b0;
  wire [7:0] led_rtl, led_placed;
  wire uart_rtl, uart_placed;
  integer cycle = 0, mismatching = 0, changes = 0, cycles;
  reg [8:0] last = 9'h000;

  ecp5_cells_test u_rtl (
    .clk_25mhz_i(clk), .uart_rx_i(1'b1), .uart_tx_o(uart_rtl), .led_o(led_rtl)
  );
  ecp5_cells_test_placed u_placed (
    .clk_25mhz_i(clk), .uart_rx_i(1'b1), .uart_tx_o(uart_placed), .led_o(led_placed)
  );

  initial if (!$value$plusargs("CYCLES=%d", cycles)) cycles = 20000;
  always #20 clk = !clk;

  always @(negedge clk) begin
    cycle = cycle + 1;
    if ({uart_rtl, led_rtl} !== {uart_placed, led_placed}) begin
      mismatching = mismatching + 1;
      if (mismatching <= 5)
        $display("cycle %0d: RTL %b %b, placed %b %b", cycle, uart_rtl, led_rtl, uart_placed,
                 led_placed);
    end
    if ({uart_placed, led_placed} !== last) changes = changes + 1;
    last = {uart_placed, led_placed};
    if (cycle == cycles) begin
      $display("mismatching %0d changes %0d", mismatching, changes);
      $finish;
    end
  end
endmodule
