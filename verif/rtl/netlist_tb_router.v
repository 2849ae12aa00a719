// SPDX-License-Identifier: SHL-0.51
// iverilog testbench: the yosys gate netlist of noc_router replays, cycle by cycle, the inputs that
// router_netlist_test.cpp drove into the Verilator RTL model, and every output must equal the
// output the RTL showed in the same cycle (docs/verification.md, "Router netlist versus RTL"). Plain
// Verilog-2005, because iverilog 11 reads the netlist but not our SystemVerilog.
//
// Each line of VECTORS is one cycle, fields in hex separated by spaces, inputs then outputs:
//   rst_ni own_label nbr_label port_connected port_is_wrap port_is_boundary own_coord dim_size
//   is_torus num_dims in_valid in_vc in_flit out_credit | in_credit out_valid out_vc out_flit
//   eject_stream draining route_drops errors
// (without the "|"). Per line: drive the inputs with the clock low, wait, compare every output (the
// point where the C++ side read them: after the previous rising edge and after this cycle's inputs
// settled), then a rising and a falling clock edge. Line 0 is not compared: the flip-flops start as
// x in iverilog and are reset by the first rising edge with rst_ni low (the reset is asynchronous,
// but whether iverilog sees the x->0 step of rst_ni at time 0 as an edge is a race).
// A new router output: one more wire, connection, expected register, read and comparison below.
`timescale 1ns / 1ps
module netlist_tb_router;
  parameter NumNetPorts = 4;
  parameter NumLocal = 1;
  parameter NumVcs = 2;
  parameter LabelW = 16;
  parameter VECTORS = "vectors.txt";
  localparam NumPorts = NumNetPorts + NumLocal;
  localparam VcIdW = (NumVcs > 1) ? $clog2(NumVcs) : 1;
  localparam StreamW = (NumPorts * NumVcs > 1) ? $clog2(NumPorts * NumVcs) : 1;
  localparam FlitW = 66;  // noc_pkg::FlitW
  localparam CoordW = 6;  // noc_pkg::CoordW
  localparam DimSizeW = CoordW + 1;  // noc_router DimSizeW

  reg clk, rst_ni;
  reg [LabelW-1:0] own_label;
  reg [NumNetPorts*LabelW-1:0] nbr_label;
  reg [NumNetPorts-1:0] port_connected, port_is_wrap, port_is_boundary;
  reg [3*CoordW-1:0] own_coord;
  reg [3*DimSizeW-1:0] dim_size;
  reg is_torus;
  reg [1:0] num_dims;
  reg [NumPorts-1:0] in_valid;
  reg [NumPorts*VcIdW-1:0] in_vc;
  reg [NumPorts*FlitW-1:0] in_flit;
  reg [NumPorts*NumVcs-1:0] out_credit;

  wire [NumPorts*NumVcs-1:0] in_credit, draining;
  wire [7:0] route_drops;  // noc_pkg::RouteDropsW
  wire [2:0] errors;       // noc_pkg::ErrorsW
  wire [NumPorts-1:0] out_valid;
  wire [NumPorts*VcIdW-1:0] out_vc;
  wire [NumPorts*FlitW-1:0] out_flit;
  wire [NumLocal*StreamW-1:0] eject_stream;

  reg [NumPorts*NumVcs-1:0] exp_in_credit, exp_draining;
  reg [7:0] exp_route_drops;
  reg [2:0] exp_errors;
  reg [NumPorts-1:0] exp_out_valid;
  reg [NumPorts*VcIdW-1:0] exp_out_vc;
  reg [NumPorts*FlitW-1:0] exp_out_flit;
  reg [NumLocal*StreamW-1:0] exp_eject_stream;

  noc_router dut (
    .clk_i(clk), .rst_ni(rst_ni),
    .own_label_i(own_label), .nbr_label_i(nbr_label), .port_connected_i(port_connected),
    .port_is_wrap_i(port_is_wrap), .port_is_boundary_i(port_is_boundary), .own_coord_i(own_coord),
    .dim_size_i(dim_size), .is_torus_i(is_torus), .num_dims_i(num_dims),
    .in_valid_i(in_valid), .in_vc_i(in_vc), .in_flit_i(in_flit), .in_credit_o(in_credit),
    .out_valid_o(out_valid), .out_vc_o(out_vc), .out_flit_o(out_flit), .out_credit_i(out_credit),
    .eject_stream_o(eject_stream), .draining_o(draining),
    .route_drops_o(route_drops), .errors_o(errors)
  );

  integer fd, fields, cycle, mismatches, compared;

  // Counts a mismatch of one output; prints the first ten.
  task check;
    input [8*16-1:0] name;
    input [NumPorts*FlitW-1:0] expected, got;
    begin
      if (got !== expected) begin
        mismatches = mismatches + 1;
        if (mismatches <= 10)
          $display("mismatch cycle %0d %0s: Verilator RTL %h, netlist %h", cycle, name, expected, got);
      end
    end
  endtask

  initial begin
    clk = 1'b0;
    mismatches = 0;
    compared = 0;
    cycle = 0;
    fd = $fopen(VECTORS, "r");
    if (fd == 0) begin
      $display("cannot open %0s", VECTORS);
      $finish;
    end
    fields = $fscanf(fd, "%h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h\n", rst_ni, own_label,
                     nbr_label, port_connected, port_is_wrap, port_is_boundary, own_coord, dim_size, is_torus,
                     num_dims, in_valid, in_vc, in_flit, out_credit, exp_in_credit, exp_out_valid, exp_out_vc,
                     exp_out_flit, exp_eject_stream, exp_draining, exp_route_drops, exp_errors);
    while (fields == 22) begin
      #1;
      if (cycle > 0) begin
        compared = compared + 1;
        check("in_credit_o", exp_in_credit, in_credit);
        check("out_valid_o", exp_out_valid, out_valid);
        check("out_vc_o", exp_out_vc, out_vc);
        check("out_flit_o", exp_out_flit, out_flit);
        check("eject_stream_o", exp_eject_stream, eject_stream);
        check("draining_o", exp_draining, draining);
        check("route_drops_o", exp_route_drops, route_drops);
        check("errors_o", exp_errors, errors);
      end
      #1 clk = 1'b1;
      #1 clk = 1'b0;
      cycle = cycle + 1;
      fields = $fscanf(fd, "%h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h\n", rst_ni, own_label,
                       nbr_label, port_connected, port_is_wrap, port_is_boundary, own_coord, dim_size, is_torus,
                       num_dims, in_valid, in_vc, in_flit, out_credit, exp_in_credit, exp_out_valid, exp_out_vc,
                       exp_out_flit, exp_eject_stream, exp_draining, exp_route_drops, exp_errors);
    end
    if (fields != -1) $display("vector file: line %0d has %0d readable fields, expected 22", cycle + 1, fields);
    $display("netlist cycles %0d compared %0d mismatches %0d", cycle, compared, mismatches);
    $finish;
  end
endmodule
