// SPDX-License-Identifier: SHL-0.51
// noc_ni_inject_formal: formal harness of noc_ni_inject through its ports, with the router's
// local input buffers (verif/formal/run.sh; docs/verification.md).
//
// Environment: the source offers the words of one message after another and holds a word until it
// is taken; the router buffers each VC's flits in BufDepth slots, drains them at will and returns
// a credit one cycle after each drained flit (its credit outputs are registers). Claims: every
// flit is its word with head set exactly on a message's first word and tail on its last; all flits
// of a message travel in the VC its head's class names (vc_class mod NumVcs); per VC, credits held
// + flits buffered in the router + credits on the way back = BufDepth, so the router's buffer
// never overflows and no credit is lost or dropped.
module noc_ni_inject_formal #(
  parameter int unsigned NumVcs = 2,
  parameter int unsigned BufDepth = 2,
  localparam int unsigned VcIdW = (NumVcs > 1) ? $clog2(NumVcs) : 1,
  localparam int unsigned CountW = $clog2(BufDepth + 1),
  localparam int unsigned SumW = CountW + 2
) (
  input logic                      clk_i,
  input logic                      rst_ni,
  input logic                      msg_valid_i,
  input logic [noc_pkg::DataW-1:0] msg_data_i,
  input logic                      msg_last_i,
  input logic [NumVcs-1:0]         drain_i  // the router forwards VC v's front flit
);
  logic f_first = 1'b1;  // the first cycle: reset is asserted
  always_ff @(posedge clk_i) f_first <= 1'b0;
  always_comb if (f_first) assume (!rst_ni);

  logic                      ready, inj_valid, credit_overflow;
  logic [VcIdW-1:0]          inj_vc;
  logic [noc_pkg::FlitW-1:0] inj_flit;
  logic [NumVcs-1:0]         credit_back;
  logic [NumVcs*CountW-1:0]  credit_count;
  noc_ni_inject #(.NumVcs(NumVcs), .BufDepth(BufDepth)) dut (
    .clk_i, .rst_ni, .msg_valid_i, .msg_ready_o(ready), .msg_data_i, .msg_last_i,
    .inj_valid_o(inj_valid), .inj_vc_o(inj_vc), .inj_flit_o(inj_flit), .inj_credit_i(credit_back),
    .credit_count_o(credit_count), .credit_overflow_o(credit_overflow)
  );

  // The source holds an offered word until it is taken.
  logic                      offered_q;
  logic [noc_pkg::DataW-1:0] offered_data_q;
  logic                      offered_last_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      offered_q <= 1'b0;
      offered_data_q <= '0;
      offered_last_q <= 1'b0;
    end else begin
      offered_q <= msg_valid_i && !ready;
      offered_data_q <= msg_data_i;
      offered_last_q <= msg_last_i;
    end
  end
  always_comb begin
    if (rst_ni && offered_q) begin
      assume (msg_valid_i && msg_data_i == offered_data_q && msg_last_i == offered_last_q);
    end
  end

  // Shadows: where the source is in its message, the message's VC, the router's buffers.
  noc_pkg::head_t           word_head;
  noc_pkg::flit_t           flit;
  logic                     in_msg_q;      // words of a message have been taken, not its last
  logic [VcIdW-1:0]         msg_vc_q;      // the VC of that message
  logic [VcIdW-1:0]         head_vc;       // the VC this word's class names, if it is a head
  logic [NumVcs*CountW-1:0] buf_q;         // flits in the router's buffer of VC v
  logic [NumVcs-1:0]        drain;
  assign word_head = msg_data_i;
  assign flit = inj_flit;
  assign head_vc = VcIdW'(32'(word_head.vc_class) % NumVcs);
  for (genvar v = 0; v < NumVcs; v++) begin : gen_vc
    assign drain[v] = drain_i[v] && buf_q[v*CountW +: CountW] != '0;
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      in_msg_q <= 1'b0;
      msg_vc_q <= '0;
      buf_q <= '0;
      credit_back <= '0;
    end else begin
      if (msg_valid_i && ready) begin
        in_msg_q <= !msg_last_i;
        if (!in_msg_q) msg_vc_q <= head_vc;
      end
      for (int v = 0; v < NumVcs; v++) begin
        buf_q[v*CountW +: CountW] <= buf_q[v*CountW +: CountW]
                                     + CountW'(inj_valid && inj_vc == VcIdW'(v)) - CountW'(drain[v]);
      end
      credit_back <= drain;
    end
  end

  always_comb begin
    if (rst_ni) begin
      assert (inj_valid == (msg_valid_i && ready));
      if (inj_valid) begin
        assert (flit.head == !in_msg_q);
        assert (flit.tail == msg_last_i);
        assert (flit.data == msg_data_i);
        assert (inj_vc == (in_msg_q ? msg_vc_q : head_vc));
      end
      assert (!credit_overflow);
      for (int v = 0; v < NumVcs; v++) begin
        assert (SumW'(credit_count[v*CountW +: CountW]) + SumW'(buf_q[v*CountW +: CountW])
                + SumW'(credit_back[v]) == SumW'(BufDepth));
        assert (buf_q[v*CountW +: CountW] <= CountW'(BufDepth));
      end
    end
  end
endmodule
