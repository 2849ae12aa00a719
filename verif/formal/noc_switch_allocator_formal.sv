// SPDX-License-Identifier: SHL-0.51
// noc_switch_allocator_formal: formal harness of noc_switch_allocator through its ports only
// (verif/formal/run.sh; docs/verification.md).
//
// Every cycle, for any request pattern: each input is granted at most one VC, and only a VC that
// requests; the outputs granted to an input are exactly its granted VC's request set (all or
// nothing for a replicating flit); each output goes to at most one input, the one whose granted set
// lists it; the tentative picks (the router's data steering) equal the final grants wherever those
// are given, and are one-hot or zero. Waiting: when a VC's request set stays the same until it is
// granted (the environment assumption: a VC's front flit keeps its request), it is granted within
// Bound cycles of waiting. The claim is Bound = NumIn * NumVcs: its input holds the token by the
// NumIn-th cycle after it first requests and within every NumIn cycles while it keeps requesting
// (the token passes among the inputs that requested in the previous cycle), and among the input's
// wins the VC arbiter reaches it within NumVcs-1 others.
module noc_switch_allocator_formal #(
  parameter int unsigned NumIn = 3,
  parameter int unsigned NumOut = 3,
  parameter int unsigned NumVcs = 2,
  parameter int unsigned Bound = NumIn * NumVcs
) (
  input logic                            clk_i,
  input logic                            rst_ni,
  input logic [NumIn*NumVcs*NumOut-1:0]  req_i
);
  localparam int unsigned NumIvc = NumIn * NumVcs;
  localparam int unsigned WaitW = $clog2(Bound + 2) + 1;

  logic f_first = 1'b1;  // the first cycle: reset is asserted
  always_ff @(posedge clk_i) f_first <= 1'b0;
  always_comb if (f_first) assume (!rst_ni);

  logic [NumIvc-1:0]       in_gnt_vc, pick_vc;
  logic [NumIn*NumOut-1:0] in_gnt_out;
  logic [NumOut*NumIn-1:0] out_gnt, tent_gnt;
  noc_switch_allocator #(.NumIn(NumIn), .NumOut(NumOut), .NumVcs(NumVcs)) dut (
    .clk_i, .rst_ni, .req_i,
    .in_gnt_vc_o(in_gnt_vc), .in_gnt_out_o(in_gnt_out), .out_gnt_o(out_gnt),
    .pick_vc_o(pick_vc), .tent_gnt_o(tent_gnt)
  );

  // Persistent requests: a VC that requested and was not granted requests the same set again.
  logic [NumIvc*NumOut-1:0] held_req_q;  // last cycle's set of every VC left waiting, else 0
  logic [NumIvc-1:0]        held_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      held_req_q <= '0;
      held_q <= '0;
    end else begin
      for (int q = 0; q < NumIvc; q++) begin
        held_q[q] <= (req_i[q*NumOut +: NumOut] != '0) && !in_gnt_vc[q];
        held_req_q[q*NumOut +: NumOut] <= req_i[q*NumOut +: NumOut];
      end
    end
  end
  always_comb begin
    if (rst_ni) begin
      for (int q = 0; q < NumIvc; q++) begin
        if (held_q[q]) assume (req_i[q*NumOut +: NumOut] == held_req_q[q*NumOut +: NumOut]);
      end
    end
  end

  // Cycles each VC has waited (saturating one above Bound).
  logic [NumIvc*WaitW-1:0] wait_q;
  for (genvar q = 0; q < NumIvc; q++) begin : gen_wait
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        wait_q[q*WaitW +: WaitW] <= '0;
      end else if (req_i[q*NumOut +: NumOut] == '0 || in_gnt_vc[q]) begin
        wait_q[q*WaitW +: WaitW] <= '0;
      end else if (wait_q[q*WaitW +: WaitW] <= WaitW'(Bound)) begin
        wait_q[q*WaitW +: WaitW] <= wait_q[q*WaitW +: WaitW] + WaitW'(1);
      end
    end
    always_comb if (rst_ni) assert (wait_q[q*WaitW +: WaitW] <= WaitW'(Bound));
  end

  always_comb begin
    if (rst_ni) begin
      for (int i = 0; i < NumIn; i++) begin
        logic [NumOut-1:0] granted_set;
        granted_set = '0;
        for (int v = 0; v < NumVcs; v++) begin
          if (in_gnt_vc[i*NumVcs+v]) granted_set = granted_set | req_i[(i*NumVcs+v)*NumOut +: NumOut];
        end
        assert ($onehot0(in_gnt_vc[i*NumVcs +: NumVcs]));
        assert ($onehot0(pick_vc[i*NumVcs +: NumVcs]));
        if (in_gnt_vc[i*NumVcs +: NumVcs] != '0) begin
          assert (granted_set != '0);  // only a requesting VC
          assert (pick_vc[i*NumVcs +: NumVcs] == in_gnt_vc[i*NumVcs +: NumVcs]);
        end
        assert (in_gnt_out[i*NumOut +: NumOut] == granted_set);  // all or nothing
      end
      for (int o = 0; o < NumOut; o++) begin
        logic [NumIn-1:0] listed;
        for (int i = 0; i < NumIn; i++) listed[i] = in_gnt_out[i*NumOut+o];
        assert ($onehot0(out_gnt[o*NumIn +: NumIn]));
        assert (out_gnt[o*NumIn +: NumIn] == listed);
        assert ($onehot0(tent_gnt[o*NumIn +: NumIn]));
        if (out_gnt[o*NumIn +: NumIn] != '0) assert (tent_gnt[o*NumIn +: NumIn] == out_gnt[o*NumIn +: NumIn]);
      end
    end
  end
endmodule
