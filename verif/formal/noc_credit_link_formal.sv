// SPDX-License-Identifier: SHL-0.51
// noc_credit_link_formal: formal harness of noc_credit_counter with a model of the link and of the
// downstream input buffer (verif/formal/run.sh; docs/verification.md).
//
// The sender sends a flit whenever it wants to and the counter shows a credit (the router's guard,
// noc_output_unit's send_i). The flit crosses a forward link of FwdLat registers into a downstream
// buffer of Depth slots, which the downstream router drains at will; every drained slot sends a
// credit back over a return link of RetLat registers into the counter. Conservation: the credits
// held, the flits on the forward link, the flits buffered downstream and the credits on the return
// link always add up to Depth, so the buffer never overflows and the counter never goes above Depth
// or below zero. Only the counter's ports are used.
module noc_credit_link_formal #(
  parameter int unsigned Depth = 4,
  parameter int unsigned FwdLat = 1,
  parameter int unsigned RetLat = 1,
  localparam int unsigned CountW = $clog2(Depth + 1),
  localparam int unsigned SumW = CountW + 4
) (
  input logic clk_i,
  input logic rst_ni,
  input logic want_send_i,  // the sender has a flit for this VC
  input logic drain_i       // the downstream router forwards its head flit
);
  logic f_first = 1'b1;  // the first cycle: reset is asserted
  always_ff @(posedge clk_i) f_first <= 1'b0;
  always_comb if (f_first) assume (!rst_ni);

  logic              send, credit_back, available, overflow;
  logic [CountW-1:0] credits;
  assign send = want_send_i && available;

  noc_credit_counter #(.Depth(Depth)) dut (
    .clk_i, .rst_ni,
    .consume_i(send), .return_i(credit_back),
    .available_o(available), .count_o(credits), .overflow_o(overflow)
  );

  logic [FwdLat-1:0] fwd_q;   // flits on the link, fwd_q[FwdLat-1] arrives downstream this cycle
  logic [RetLat-1:0] ret_q;   // credits on the return link, ret_q[RetLat-1] arrives this cycle
  logic [CountW-1:0] buf_q;   // flits in the downstream buffer
  logic              arrive, drain;
  assign arrive      = fwd_q[FwdLat-1];
  assign drain       = drain_i && (buf_q != '0);
  assign credit_back = ret_q[RetLat-1];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fwd_q <= '0;
      ret_q <= '0;
      buf_q <= '0;
    end else begin
      fwd_q <= (FwdLat > 1) ? {fwd_q, send} : FwdLat'(send);
      ret_q <= (RetLat > 1) ? {ret_q, drain} : RetLat'(drain);
      buf_q <= buf_q + CountW'(arrive) - CountW'(drain);
    end
  end

  logic [SumW-1:0] in_flight;
  always_comb begin
    in_flight = '0;
    for (int i = 0; i < FwdLat; i++) in_flight = in_flight + SumW'(fwd_q[i]);
    for (int i = 0; i < RetLat; i++) in_flight = in_flight + SumW'(ret_q[i]);
  end

  always_comb begin
    if (rst_ni) begin
      assert (SumW'(credits) + in_flight + SumW'(buf_q) == SumW'(Depth));
      assert (credits <= CountW'(Depth));
      assert (buf_q <= CountW'(Depth));
      assert (!(send && credits == '0));
      assert (available == (credits != '0));
      assert (!overflow);
    end
  end
endmodule
