// SPDX-License-Identifier: SHL-0.51
// iverilog testbench: the yosys gate netlist of noc_ni replays, cycle by cycle, the inputs that
// ni_netlist_test.cpp drove into the Verilator RTL model, and every output must equal the output
// the RTL showed in the same cycle (docs/rtl.md, "Network interface"). Plain Verilog-2005, because
// iverilog 11 reads the netlist but not our SystemVerilog.
//
// Each line of VECTORS is one cycle, fields in hex separated by spaces, inputs then outputs:
//   rst_ni msg_valid msg_data msg_last inj_credit ej_valid ej_flit ej_stream rx_ready |
//   msg_ready inj_valid inj_vc inj_flit ej_credit rx_valid rx_stream rx_head rx_addr rx_last rx_pos
//   rx_data errors
// (without the "|"). Per line: drive the inputs with the clock low, wait, compare every output (the
// NI has combinational paths from its inputs, so the outputs are read after this cycle's inputs
// settled, where the C++ side read them), then a rising and a falling clock edge. Line 0 (reset) is
// not compared: the flip-flops start as x in iverilog and are reset by its clock edge.
`timescale 1ns / 1ps
module ni_netlist_tb;
  parameter NumNetPorts = 4;
  parameter NumLocal = 1;
  parameter NumVcs = 4;
  parameter VECTORS = "vectors.txt";
  localparam NumPorts = NumNetPorts + NumLocal;
  localparam VcIdW = (NumVcs > 1) ? $clog2(NumVcs) : 1;
  localparam StreamW = (NumPorts * NumVcs > 1) ? $clog2(NumPorts * NumVcs) : 1;
  localparam DataW = 64;  // noc_pkg::DataW
  localparam FlitW = 66;  // noc_pkg::FlitW
  localparam PosW = 12;   // noc_pkg::MoreW
  localparam W = NumLocal * FlitW;  // the widest port, for the check task

  reg clk, rst_ni;
  reg [NumLocal-1:0] msg_valid, msg_last, ej_valid, rx_ready;
  reg [NumLocal*DataW-1:0] msg_data;
  reg [NumLocal*NumVcs-1:0] inj_credit;
  reg [NumLocal*FlitW-1:0] ej_flit;
  reg [NumLocal*StreamW-1:0] ej_stream;

  wire [NumLocal-1:0] msg_ready, inj_valid, rx_valid, rx_head, rx_addr, rx_last;
  wire [NumLocal*VcIdW-1:0] inj_vc;
  wire [NumLocal*FlitW-1:0] inj_flit;
  wire [NumLocal*NumVcs-1:0] ej_credit;
  wire [NumLocal*StreamW-1:0] rx_stream;
  wire [NumLocal*PosW-1:0] rx_pos;
  wire [NumLocal*DataW-1:0] rx_data;
  wire [2:0] errors;

  reg [NumLocal-1:0] exp_msg_ready, exp_inj_valid, exp_rx_valid, exp_rx_head, exp_rx_addr, exp_rx_last;
  reg [NumLocal*VcIdW-1:0] exp_inj_vc;
  reg [NumLocal*FlitW-1:0] exp_inj_flit;
  reg [NumLocal*NumVcs-1:0] exp_ej_credit;
  reg [NumLocal*StreamW-1:0] exp_rx_stream;
  reg [NumLocal*PosW-1:0] exp_rx_pos;
  reg [NumLocal*DataW-1:0] exp_rx_data;
  reg [2:0] exp_errors;

  noc_ni dut (
    .clk_i(clk), .rst_ni(rst_ni),
    .msg_valid_i(msg_valid), .msg_ready_o(msg_ready), .msg_data_i(msg_data), .msg_last_i(msg_last),
    .inj_valid_o(inj_valid), .inj_vc_o(inj_vc), .inj_flit_o(inj_flit), .inj_credit_i(inj_credit),
    .ej_valid_i(ej_valid), .ej_flit_i(ej_flit), .ej_stream_i(ej_stream), .ej_credit_o(ej_credit),
    .rx_valid_o(rx_valid), .rx_ready_i(rx_ready), .rx_stream_o(rx_stream), .rx_head_o(rx_head),
    .rx_addr_o(rx_addr), .rx_last_o(rx_last), .rx_pos_o(rx_pos), .rx_data_o(rx_data), .errors_o(errors)
  );

  integer fd, fields, cycle, mismatches, compared;

  // Counts a mismatch of one output; prints the first ten.
  task check;
    input [8*16-1:0] name;
    input [W-1:0] expected, got;
    begin
      if (got !== expected) begin
        mismatches = mismatches + 1;
        if (mismatches <= 10)
          $display("mismatch cycle %0d %0s: Verilator RTL %h, netlist %h", cycle, name, expected, got);
      end
    end
  endtask

  task read_line;
    begin
      fields = $fscanf(fd, "%h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h\n", rst_ni, msg_valid,
                       msg_data, msg_last, inj_credit, ej_valid, ej_flit, ej_stream, rx_ready, exp_msg_ready,
                       exp_inj_valid, exp_inj_vc, exp_inj_flit, exp_ej_credit, exp_rx_valid, exp_rx_stream,
                       exp_rx_head, exp_rx_addr, exp_rx_last, exp_rx_pos, exp_rx_data, exp_errors);
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
    read_line;
    while (fields == 22) begin
      #1;
      if (cycle > 0) begin
        compared = compared + 1;
        check("msg_ready_o", exp_msg_ready, msg_ready);
        check("inj_valid_o", exp_inj_valid, inj_valid);
        // A flit's VC and data matter only while it is valid; the netlist may drive anything else
        // where the RTL does too, but both follow the same logic, so compare them always.
        check("inj_vc_o", exp_inj_vc, inj_vc);
        check("inj_flit_o", exp_inj_flit, inj_flit);
        check("ej_credit_o", exp_ej_credit, ej_credit);
        check("rx_valid_o", exp_rx_valid, rx_valid);
        check("rx_stream_o", exp_rx_stream, rx_stream);
        check("rx_head_o", exp_rx_head, rx_head);
        check("rx_addr_o", exp_rx_addr, rx_addr);
        check("rx_last_o", exp_rx_last, rx_last);
        check("rx_pos_o", exp_rx_pos, rx_pos);
        check("rx_data_o", exp_rx_data, rx_data);
        check("errors_o", exp_errors, errors);
      end
      #1 clk = 1'b1;
      #1 clk = 1'b0;
      cycle = cycle + 1;
      read_line;
    end
    if (fields != -1) $display("vector file: line %0d has %0d readable fields, expected 22", cycle + 1, fields);
    $display("netlist cycles %0d compared %0d mismatches %0d", cycle, compared, mismatches);
    $finish;
  end
endmodule
