// SPDX-License-Identifier: SHL-0.51
// noc_rr_arbiter_formal: formal harness of noc_rr_arbiter through its ports only
// (verif/formal/run.sh; docs/verification.md), so it holds for any implementation of the same
// contract.
//
// Every cycle: the grant is one-hot or zero, only to a requester, and nonzero whenever someone
// requests. Fairness: a requester that keeps requesting until it is granted (the environment
// assumption) sees at most NumReq-1 grants used up by others (cycles with a grant to another
// requester and advance_i high) before its own grant. Grants held without advance_i (a worm
// keeping its output) are not counted: holding is the arbiter's contract, not starvation.
module noc_rr_arbiter_formal #(
  parameter int unsigned NumReq = 4,
  /// The fairness bound checked: NumReq-1 is the claim; run.sh also checks that NumReq-2 fails.
  parameter int unsigned Bound = NumReq - 1
) (
  input logic              clk_i,
  input logic              rst_ni,
  input logic [NumReq-1:0] req_i,
  input logic              advance_i
);
  localparam int unsigned WaitW = $clog2(NumReq + 1) + 1;

  logic f_first = 1'b1;  // the first cycle: reset is asserted
  always_ff @(posedge clk_i) f_first <= 1'b0;
  always_comb if (f_first) assume (!rst_ni);

  logic [NumReq-1:0] gnt;
  noc_rr_arbiter #(.NumReq(NumReq)) dut (
    .clk_i, .rst_ni, .req_i, .advance_i, .gnt_o(gnt)
  );

  // A requester not granted keeps requesting (persistent requests).
  logic [NumReq-1:0] waiting_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) waiting_q <= '0;
    else waiting_q <= req_i & ~gnt;
  end
  always_comb if (rst_ni) assume ((waiting_q & ~req_i) == '0);

  // Per requester: grants used up by others while it waits.
  logic [NumReq*WaitW-1:0] others_q;
  for (genvar r = 0; r < NumReq; r++) begin : gen_wait
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        others_q[r*WaitW +: WaitW] <= '0;
      end else if (!req_i[r] || gnt[r]) begin
        others_q[r*WaitW +: WaitW] <= '0;
      end else if (gnt != '0 && advance_i && others_q[r*WaitW +: WaitW] != '1) begin
        others_q[r*WaitW +: WaitW] <= others_q[r*WaitW +: WaitW] + WaitW'(1);
      end
    end
    always_comb if (rst_ni) assert (others_q[r*WaitW +: WaitW] <= WaitW'(Bound));
  end

  always_comb begin
    if (rst_ni) begin
      assert ($onehot0(gnt));
      assert ((gnt & ~req_i) == '0);
      assert ((req_i == '0) || (gnt != '0));
    end
  end
endmodule
