// SPDX-License-Identifier: SHL-0.51
// noc_output_unit_formal: formal harness of noc_output_unit through its ports, with the link and
// the downstream input buffers (verif/formal/run.sh; docs/verification.md).
//
// Environment (the router's contract at this boundary): at most one send per cycle, only on a VC
// held by a worm or granted in the same cycle, and only with a credit; allocation only of a free
// VC. Downstream, each VC's buffer of BufDepth slots is drained at will and returns a credit one
// cycle after each drained flit. Claims: the link carries a flit exactly one cycle after each send,
// on the VC sent on (the flit itself comes from the router's switch-traversal register); a VC is held from its allocation until its tail leaves, by the input VC it was
// granted to; per VC, credits held + flits on the link + flits buffered downstream + credits on the
// way back = BufDepth, so a downstream buffer never overflows and a credit is never lost.
module noc_output_unit_formal #(
  parameter int unsigned NumVcs = 2,
  parameter int unsigned BufDepth = 2,
  parameter int unsigned NumInVcs = 3,
  localparam int unsigned VcIdW = (NumVcs > 1) ? $clog2(NumVcs) : 1,
  localparam int unsigned OwnerW = (NumInVcs > 1) ? $clog2(NumInVcs) : 1,
  localparam int unsigned CountW = $clog2(BufDepth + 1),
  localparam int unsigned SumW = CountW + 2
) (
  input logic                      clk_i,
  input logic                      rst_ni,
  input logic [NumVcs-1:0]         alloc_i,
  input logic [NumVcs*OwnerW-1:0]  alloc_owner_i,
  input logic [NumVcs-1:0]         send_i,
  input logic                      tail_i,
  input logic [NumVcs-1:0]         drain_i  // the downstream router forwards VC v's head flit
);
  logic f_first = 1'b1;  // the first cycle: reset is asserted
  always_ff @(posedge clk_i) f_first <= 1'b0;
  always_comb if (f_first) assume (!rst_ni);

  logic [NumVcs-1:0]        allocated, credit, credit_back;
  logic [NumVcs*OwnerW-1:0] owner;
  logic [NumVcs*CountW-1:0] credit_count;
  logic                     valid, credit_overflow;
  logic [VcIdW-1:0]         vc;
  noc_output_unit #(.NumVcs(NumVcs), .BufDepth(BufDepth), .NumInVcs(NumInVcs)) dut (
    .clk_i, .rst_ni, .alloc_i, .alloc_owner_i, .send_i, .tail_i, .credit_i(credit_back),
    .allocated_o(allocated), .owner_o(owner), .credit_o(credit), .credit_count_o(credit_count),
    .valid_o(valid), .vc_o(vc), .credit_overflow_o(credit_overflow)
  );

  always_comb begin
    if (rst_ni) begin
      assume ($onehot0(send_i));
      assume ((send_i & ~(allocated | alloc_i)) == '0);
      assume ((send_i & ~credit) == '0);
      assume ((alloc_i & allocated) == '0);
      for (int v = 0; v < NumVcs; v++) begin
        if (alloc_i[v]) assume (32'(alloc_owner_i[v*OwnerW +: OwnerW]) < NumInVcs);
      end
    end
  end

  // Shadows: the VC last sent on, each VC's holder, the downstream buffers and credits.
  logic                      sent_q;
  logic [VcIdW-1:0]          sent_vc_q;
  logic [NumVcs-1:0]         held_q;
  logic [NumVcs*OwnerW-1:0]  holder_q;
  logic [NumVcs*CountW-1:0]  buf_q;     // flits in VC v's downstream buffer
  logic [NumVcs-1:0]         ret_q;     // a credit of VC v on the way back
  logic [NumVcs-1:0]         arrive, drain;
  for (genvar v = 0; v < NumVcs; v++) begin : gen_vc
    assign arrive[v] = valid && vc == VcIdW'(v);
    assign drain[v]  = drain_i[v] && buf_q[v*CountW +: CountW] != '0;
  end
  assign credit_back = ret_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sent_q <= 1'b0;
      sent_vc_q <= '0;
      held_q <= '0;
      holder_q <= '0;
      buf_q <= '0;
      ret_q <= '0;
    end else begin
      sent_q <= send_i != '0;
      for (int v = 0; v < NumVcs; v++) begin
        if (send_i[v]) begin
          sent_vc_q <= VcIdW'(v);
        end
        if (send_i[v] && tail_i) begin
          held_q[v] <= 1'b0;
        end else if (alloc_i[v]) begin
          held_q[v] <= 1'b1;
          holder_q[v*OwnerW +: OwnerW] <= alloc_owner_i[v*OwnerW +: OwnerW];
        end
        buf_q[v*CountW +: CountW] <= buf_q[v*CountW +: CountW] + CountW'(arrive[v]) - CountW'(drain[v]);
      end
      ret_q <= drain;
    end
  end

  always_comb begin
    if (rst_ni) begin
      assert (valid == sent_q);
      if (valid) assert (vc == sent_vc_q);
      assert (allocated == held_q);
      assert (!credit_overflow);
      for (int v = 0; v < NumVcs; v++) begin
        if (held_q[v]) assert (owner[v*OwnerW +: OwnerW] == holder_q[v*OwnerW +: OwnerW]);
        else assert (owner[v*OwnerW +: OwnerW] == '0);
        assert (SumW'(credit_count[v*CountW +: CountW]) + SumW'(arrive[v]) + SumW'(buf_q[v*CountW +: CountW])
                + SumW'(ret_q[v]) == SumW'(BufDepth));
        assert (credit[v] == (credit_count[v*CountW +: CountW] != '0));
      end
    end
  end
endmodule
