// SPDX-License-Identifier: SHL-0.51
// iverilog testbench: the yosys gate netlist of noc_route_compute (NumPorts = 6, LabelW = 16,
// CoordW = 8) replays decisions recorded from the Verilator RTL model and must give the same
// outputs. Plain Verilog-2005, because iverilog 11 reads the netlist but not our SystemVerilog.
// Each vector, MSB first: own_label 16, nbr_label 96, port_connected 6, port_is_wrap 6,
// port_is_boundary 6, own_coord 24, dim_size 27, is_torus 1, num_dims 2, mode 3, class 2,
// dest_label 16, dest_coord 24, then the expected {valid, eject, port 3, class 2}: 236 bits.
`timescale 1ns / 1ps
module netlist_tb_route_compute;
  parameter N = 1;
  parameter VECTORS = "vectors.hex";

  reg [235:0] vectors [0:N-1];
  reg [15:0] own_label, dest_label;
  reg [95:0] nbr_label;
  reg [5:0] connected, wrap, boundary;
  reg [23:0] own_coord, dest_coord;
  reg [26:0] dim_size;
  reg is_torus;
  reg [1:0] num_dims, class_in;
  reg [2:0] mode;
  reg [6:0] expected;
  wire valid, eject;
  wire [2:0] port;
  wire [1:0] class_out;

  noc_route_compute dut (
    .clk_i(1'b0), .rst_ni(1'b1),
    .own_label_i(own_label), .nbr_label_i(nbr_label), .port_connected_i(connected),
    .port_is_wrap_i(wrap), .port_is_boundary_i(boundary), .own_coord_i(own_coord),
    .dim_size_i(dim_size), .is_torus_i(is_torus), .num_dims_i(num_dims),
    .mode_i(mode), .class_i(class_in), .dest_label_i(dest_label), .dest_coord_i(dest_coord),
    .valid_o(valid), .eject_o(eject), .port_o(port), .class_o(class_out)
  );

  integer i, mismatches;
  initial begin
    $readmemh(VECTORS, vectors);
    mismatches = 0;
    for (i = 0; i < N; i = i + 1) begin
      {own_label, nbr_label, connected, wrap, boundary, own_coord, dim_size, is_torus, num_dims, mode,
       class_in, dest_label, dest_coord, expected} = vectors[i];
      #1;
      if ({valid, eject, port, class_out} !== expected) begin
        mismatches = mismatches + 1;
        if (mismatches <= 10)
          $display("vector %0d: netlist %b, Verilator RTL %b", i, {valid, eject, port, class_out}, expected);
      end
    end
    $display("netlist mismatches %0d of %0d", mismatches, N);
    $finish;
  end
endmodule
