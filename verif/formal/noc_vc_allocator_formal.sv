// SPDX-License-Identifier: SHL-0.51
// noc_vc_allocator_formal: formal harness of noc_vc_allocator through its ports, with a model of
// the output VCs' holders and of the switch around it (verif/formal/run.sh; docs/verification.md).
// The cell's own `ifdef FORMAL` block adds the one claim that names its internal top (the
// reservation).
//
// Environment (the router's contract, assumed):
// - a waiting head names a non-empty set of output VCs, at most one per output port (its class
//   names the VC), and keeps waiting with the same set until it is carried; a carried head does
//   not wait in the next cycle (the input unit leaves Routed);
// - the switch carries only heads the allocator lets go (taken_i within ok_o), at most one input
//   VC per input port and at most one head per output port in a cycle (the switch allocator's
//   proven grants), and a head whose ok_o stays high is carried within SwWait cycles of waiting
//   (the switch allocator's proven waiting bound, with the downstream credits returning);
// - a worm holding an output VC releases it (its tail leaves) within Release cycles of taking it,
//   at any cycle before that, and only a held VC is released.
//
// Claims, every cycle: no output VC has two holders (a head takes only free VCs); ok_o only for a
// waiting head whose whole set is free. Starvation freedom: a head waits at most Bound cycles.
// The bound: a head is picked top after at most NumInVcs-1 other tops are carried (the round-robin
// pointer moves only when its top is carried, TopIsPicked); a top waits at most Release cycles for
// the worms holding its VCs (nobody takes them meanwhile), then SwWait cycles for the switch, plus
// the one cycle from pick to top.
module noc_vc_allocator_formal #(
  parameter int unsigned NumIn = 3,
  parameter int unsigned NumOut = 2,
  parameter int unsigned NumVcs = 2,
  parameter int unsigned Release = 2,
  parameter int unsigned SwWait = 2,
  parameter int unsigned Bound = NumIn * NumVcs * (Release + SwWait + 2) - 1
) (
  input logic                                              clk_i,
  input logic                                              rst_ni,
  input logic [NumIn*NumVcs-1:0]                           req_i,
  input logic [NumIn*NumVcs*NumOut*NumVcs-1:0]             target_i,
  input logic [NumIn*NumVcs-1:0]                           taken_i,
  input logic [NumOut*NumVcs-1:0]                          release_i
);
  localparam int unsigned NumIvc = NumIn * NumVcs;
  localparam int unsigned NumOvc = NumOut * NumVcs;
  localparam int unsigned WaitW = $clog2(Bound + 2) + 1;
  localparam int unsigned AgeW = $clog2(Release + 1) + 1;
  localparam int unsigned SwW = $clog2(SwWait + 1) + 1;

  logic f_first = 1'b1;  // the first cycle: reset is asserted
  always_ff @(posedge clk_i) f_first <= 1'b0;
  always_comb if (f_first) assume (!rst_ni);

  logic [NumOvc-1:0] free;
  logic [NumIvc-1:0] ok;
  noc_vc_allocator #(.NumIn(NumIn), .NumOut(NumOut), .NumVcs(NumVcs)) dut (
    .clk_i, .rst_ni, .req_i, .target_i, .free_i(free), .ok_o(ok), .taken_i
  );

  // Holders per output VC (two bits: two holders are representable, so the claim can fail), and
  // how long the present holder has held it.
  logic [NumOvc*2-1:0]    holders_q;
  logic [NumOvc*AgeW-1:0] age_q;
  logic [NumOvc-1:0]      takers_any;
  logic [NumOvc*2-1:0]    takers_n;
  always_comb begin
    takers_n = '0;
    for (int k = 0; k < NumOvc; k++) begin
      for (int j = 0; j < NumIvc; j++) begin
        if (taken_i[j] && target_i[j*NumOvc+k]) takers_n[k*2 +: 2] = takers_n[k*2 +: 2] + 2'd1;
      end
      takers_any[k] = takers_n[k*2 +: 2] != '0;
      free[k] = holders_q[k*2 +: 2] == '0;
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      holders_q <= '0;
      age_q <= '0;
    end else begin
      for (int k = 0; k < NumOvc; k++) begin
        holders_q[k*2 +: 2] <= holders_q[k*2 +: 2] + takers_n[k*2 +: 2] - 2'(release_i[k]);
        if (release_i[k] || takers_any[k]) age_q[k*AgeW +: AgeW] <= '0;
        else if (!free[k]) age_q[k*AgeW +: AgeW] <= age_q[k*AgeW +: AgeW] + AgeW'(1);
      end
    end
  end

  // Waiting heads: last cycle's requests and sets, the cycles ok_o has stayed high uncarried,
  // and the cycles each head has waited (saturating one above Bound).
  logic [NumIvc-1:0]        req_q, taken_q;
  logic [NumIvc*NumOvc-1:0] target_q;
  logic [NumIvc*SwW-1:0]    sw_wait_q;
  logic [NumIvc*WaitW-1:0]  wait_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      req_q <= '0;
      taken_q <= '0;
      target_q <= '0;
      sw_wait_q <= '0;
      wait_q <= '0;
    end else begin
      req_q <= req_i;
      taken_q <= taken_i;
      target_q <= target_i;
      for (int j = 0; j < NumIvc; j++) begin
        if (!ok[j] || taken_i[j]) sw_wait_q[j*SwW +: SwW] <= '0;
        else sw_wait_q[j*SwW +: SwW] <= sw_wait_q[j*SwW +: SwW] + SwW'(1);
        if (!req_i[j] || taken_i[j]) wait_q[j*WaitW +: WaitW] <= '0;
        else if (wait_q[j*WaitW +: WaitW] <= WaitW'(Bound)) wait_q[j*WaitW +: WaitW] <= wait_q[j*WaitW +: WaitW] + WaitW'(1);
      end
    end
  end

  always_comb begin
    if (rst_ni) begin
      for (int j = 0; j < NumIvc; j++) begin
        if (req_i[j]) begin
          assume (target_i[j*NumOvc +: NumOvc] != '0);
          for (int o = 0; o < NumOut; o++) assume ($onehot0(target_i[j*NumOvc+o*NumVcs +: NumVcs]));
        end
        if (req_q[j] && !taken_q[j]) assume (req_i[j] && target_i[j*NumOvc +: NumOvc] == target_q[j*NumOvc +: NumOvc]);
        if (taken_q[j]) assume (!req_i[j]);
        if (taken_i[j]) assume (ok[j]);
        if (ok[j] && sw_wait_q[j*SwW +: SwW] == SwW'(SwWait)) assume (taken_i[j]);
      end
      for (int i = 0; i < NumIn; i++) assume ($onehot0(taken_i[i*NumVcs +: NumVcs]));
      for (int o = 0; o < NumOut; o++) begin
        logic [NumIvc-1:0] on_port;
        for (int j = 0; j < NumIvc; j++) on_port[j] = taken_i[j] && (target_i[j*NumOvc+o*NumVcs +: NumVcs] != '0);
        assume ($onehot0(on_port));
      end
      for (int k = 0; k < NumOvc; k++) begin
        if (release_i[k]) assume (!free[k]);
        if (!free[k] && age_q[k*AgeW +: AgeW] == AgeW'(Release - 1)) assume (release_i[k]);
      end
    end
  end

  always_comb begin
    if (rst_ni) begin
      for (int k = 0; k < NumOvc; k++) assert (holders_q[k*2 +: 2] <= 2'd1);  // one holder at most
      for (int j = 0; j < NumIvc; j++) begin
        // Admitted only when waiting and every target VC is free.
        if (ok[j]) assert (req_i[j] && (target_i[j*NumOvc +: NumOvc] & ~free) == '0);
        // Starvation freedom.
        assert (wait_q[j*WaitW +: WaitW] <= WaitW'(Bound));
      end
    end
  end
endmodule
