// SPDX-License-Identifier: SHL-0.51
// noc_crossbar_formal: formal harness of noc_crossbar through its ports (verif/formal/run.sh;
// docs/verification.md).
//
// Environment: the select of each output is one-hot or zero (what the switch allocator's proof
// shows of its out_gnt_o). Claim: each output carries exactly the flit of the input selected for it
// (so an input selected by several outputs appears on all of them: replication), valid_o is high
// exactly when an input is selected, and an unselected output is all zero.
module noc_crossbar_formal #(
  parameter int unsigned NumIn = 5,
  parameter int unsigned NumOut = 5,
  localparam int unsigned FlitW = noc_pkg::FlitW
) (
  input logic                    clk_i,
  input logic                    rst_ni,
  input logic [NumIn*FlitW-1:0]  in_i,
  input logic [NumOut*NumIn-1:0] sel_i
);
  logic [NumOut-1:0]       valid;
  logic [NumOut*FlitW-1:0] out;
  noc_crossbar #(.NumIn(NumIn), .NumOut(NumOut)) dut (
    .clk_i, .rst_ni, .in_i, .sel_i, .valid_o(valid), .out_o(out)
  );

  always_comb begin
    for (int o = 0; o < NumOut; o++) begin
      assume ($onehot0(sel_i[o*NumIn +: NumIn]));
      assert (valid[o] == (sel_i[o*NumIn +: NumIn] != '0));
      if (sel_i[o*NumIn +: NumIn] == '0) assert (out[o*FlitW +: FlitW] == '0);
      for (int i = 0; i < NumIn; i++) begin
        if (sel_i[o*NumIn+i]) assert (out[o*FlitW +: FlitW] == in_i[i*FlitW +: FlitW]);
      end
    end
  end
endmodule
