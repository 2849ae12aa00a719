// SPDX-License-Identifier: SHL-0.51
// noc_ebr_buffer_formal: formal harness of noc_ebr_buffer through its ports (verif/formal/run.sh;
// docs/verification.md): the block-RAM input buffers keep noc_fifo's contract per VC.
//
// The environment pushes, pops (any number of VCs at once) and resets at will, legal or not; the
// RAM and its read register start with arbitrary contents. Per VC, a shadow count follows the
// contract (an illegal push or pop is ignored): count, empty, full and overflow must match it. One
// flit pushed at an arbitrary cycle into an arbitrary VC is tracked to its VC's head: while it is
// the head its flag bits are on data_o, and its data bits too whenever loaded_o says so; it leaves
// after exactly the flits pushed into its VC before it. With OnePop = 1 the environment pops at
// most one VC per cycle (the router's switch), and then every stored head is loaded in every cycle
// (the read budget).
module noc_ebr_buffer_formal #(
  parameter int unsigned NumVcs = 2,
  parameter int unsigned Depth = 3,
  parameter int unsigned Width = 4,
  parameter int unsigned FlagW = 2,
  parameter bit OnePop = 1'b0,
  localparam int unsigned VcIdW = (NumVcs > 1) ? $clog2(NumVcs) : 1,
  localparam int unsigned CountW = $clog2(Depth + 1)
) (
  input logic              clk_i,
  input logic              rst_ni,
  input logic              push_i,
  input logic [VcIdW-1:0]  push_vc_i,
  input logic [Width-1:0]  data_i,
  input logic [NumVcs-1:0] pop_i,
  input logic              pick_i  // track the flit pushed in this cycle
);
  localparam int unsigned DataW = Width - FlagW;

  logic f_first = 1'b1;  // the first cycle: reset is asserted
  always_ff @(posedge clk_i) f_first <= 1'b0;
  always_comb if (f_first) assume (!rst_ni);
  always_comb if (push_i) assume (32'(push_vc_i) < NumVcs);
  always_comb if (OnePop) assume ($onehot0(pop_i));

  logic [NumVcs*Width-1:0]  data;
  logic [NumVcs-1:0]        loaded, empty, full, overflow;
  logic [NumVcs*CountW-1:0] count;
  noc_ebr_buffer #(.NumVcs(NumVcs), .Depth(Depth), .Width(Width), .FlagW(FlagW)) dut (
    .clk_i, .rst_ni, .push_i, .push_vc_i, .data_i, .pop_i,
    .data_o(data), .loaded_o(loaded), .empty_o(empty), .full_o(full), .count_o(count),
    .overflow_o(overflow)
  );

  // Shadow counts and the tracked flit.
  logic [NumVcs*CountW-1:0] count_q;
  logic [NumVcs-1:0]        push_ok, pop_ok;
  logic                     track_q;
  logic [VcIdW-1:0]         track_vc_q;
  logic [Width-1:0]         track_data_q;
  logic [CountW-1:0]        ahead_q;  // entries of its VC ahead of it
  logic                     track_pop;
  for (genvar v = 0; v < NumVcs; v++) begin : gen_vc
    assign push_ok[v] = push_i && push_vc_i == VcIdW'(v) && count_q[v*CountW +: CountW] != CountW'(Depth);
    assign pop_ok[v]  = pop_i[v] && count_q[v*CountW +: CountW] != '0;
  end
  always_comb begin
    track_pop = 1'b0;
    for (int v = 0; v < NumVcs; v++) begin
      if (track_vc_q == VcIdW'(v)) track_pop = pop_ok[v];
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      count_q <= '0;
      track_q <= 1'b0;
      track_vc_q <= '0;
      track_data_q <= '0;
      ahead_q <= '0;
    end else begin
      for (int v = 0; v < NumVcs; v++) begin
        count_q[v*CountW +: CountW] <= count_q[v*CountW +: CountW] + CountW'(push_ok[v]) - CountW'(pop_ok[v]);
      end
      if (track_q && track_pop) begin
        if (ahead_q == '0) track_q <= 1'b0;
        else ahead_q <= ahead_q - CountW'(1);
      end
      if (!track_q && pick_i && push_ok != '0) begin
        track_q <= 1'b1;
        track_vc_q <= push_vc_i;
        track_data_q <= data_i;
        for (int v = 0; v < NumVcs; v++) begin
          if (push_vc_i == VcIdW'(v)) ahead_q <= count_q[v*CountW +: CountW] - CountW'(pop_ok[v]);
        end
      end
    end
  end

  always_comb begin
    if (rst_ni) begin
      for (int v = 0; v < NumVcs; v++) begin
        assert (count[v*CountW +: CountW] == count_q[v*CountW +: CountW]);
        assert (empty[v] == (count_q[v*CountW +: CountW] == '0));
        assert (full[v] == (count_q[v*CountW +: CountW] == CountW'(Depth)));
        assert (overflow[v] == (push_i && push_vc_i == VcIdW'(v) && count_q[v*CountW +: CountW] == CountW'(Depth)));
        if (OnePop) assert (loaded[v] == !empty[v]);
        if (track_q && track_vc_q == VcIdW'(v)) begin
          assert (ahead_q < count_q[v*CountW +: CountW]);
          if (ahead_q == '0) begin
            assert (data[v*Width + DataW +: FlagW] == track_data_q[DataW +: FlagW]);
            if (loaded[v]) assert (data[v*Width +: DataW] == track_data_q[DataW-1:0]);
          end
        end
      end
    end
  end
endmodule
