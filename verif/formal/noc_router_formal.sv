// SPDX-License-Identifier: SHL-0.51
// noc_router_formal: bounded check of the whole noc_router through its ports only
// (verif/formal/run.sh, bounded by ABC's bmc3; docs/verification.md).
//
// Environment (assumed): the configuration inputs hold after reset (RegisterConfig 0); per input
// port and VC a flit arrives only with a credit (a shadow count of BufDepth credits, spent by each
// arriving flit, given back by in_credit_o and spendable in the cycle it returns), and the flits of each input VC form well-formed worms
// (a head only between worms, a body or tail only inside one). Head contents are arbitrary but for
// the format's framing: `more` <= MaxMore, followed by exactly `more` address flits whose own
// `more` counts down (the address flit k has more - k), the tail no earlier; so any route decision
// of the modes built in (or none: a drained worm) is reached. Every flit carries its input port in
// the low bits of its data (a head's and an address flit's `ident`, which routers carry and never
// read; a payload's first bits), and a payload flit its index among the worm's payload flits in the
// bits above. Downstream of every network output VC a buffer of BufDepth flits returns a credit
// only for a flit it holds; the ejection port's receiver likewise, its credits one pool on the
// port's VC-0 bit.
//
// Claims, every cycle up to the depth (the second group with CheckOrder, the third and fifth with
// CheckFlow):
//   - no credit returned without a pop (an input VC's shadow credits never exceed BufDepth); no
//     flit out without a credit (no downstream buffer overflows);
//   - worms leave whole and in order per network output VC and per ejection stream: a head only
//     between worms, a body or tail only inside one (two worms never interleave), every flit of a
//     worm from the input port of its head, its address flits all there and in order, its payload
//     flits numbered 0, 1, 2, ... with none missing, repeated or swapped;
//   - flits out equal flits in per input port: a flit leaves only in a cycle its port returns a
//     credit (the credit of its pop: every output and credit is registered from the grant's edge),
//     an ejected one only with the credit of its stream's input VC; the copies of one port's flit
//     in a cycle are one flit (all tails or none; each copy's data is checked by its output's
//     sequence above);
//     and every credit whose flit left on no output is a drop by design: the VC was draining in
//     the cycle before (a worm without a decision), or the flit is a source-routed head that a
//     regroup drops (its shifted route used up, `more` > 0, entry 0 not delivering);
//   - replication is all or nothing: a copy missing on one output leaves a gap in that output's
//     sequence above (a body without its head, an address or payload flit missing), and the copies
//     of a flit leave in one cycle;
//   - the sticky count of drained worms (route_drops_o) is at least the number of worms whose
//     drain has started (rises of draining_o).
module noc_router_formal #(
  parameter int unsigned NumNetPorts = 3,
  parameter int unsigned NumVcs = 2,
  parameter int unsigned BufDepth = 2,
  parameter int unsigned LabelW = 4,
  parameter int unsigned Modes = 1,
  parameter int unsigned MaxMore = 1,
  /// Check the order claims (every flit of a worm from its head's port, address flits and payload
  /// indices in sequence, per output VC and ejection stream).
  parameter bit CheckOrder = 1'b1,
  /// Check the flow claims (flits out equal flits in per input port, copies together, drains
  /// counted). Each group is a separate proof: ABC's BMC reaches a cycle deeper with one.
  parameter bit CheckFlow = 1'b1,
  /// A reachability witness, not a claim (0: off): N asserts that no worm of N flits (a head and
  /// N-1 payload flits) leaves whole on network port 0, VC 0; run.sh requires a counterexample, so
  /// the depth covers such a worm's passage.
  parameter int unsigned WitnessFlits = 0,
  localparam int unsigned NumPorts = NumNetPorts + 1,
  localparam int unsigned VcIdW = (NumVcs > 1) ? $clog2(NumVcs) : 1,
  localparam int unsigned FlitW = noc_pkg::FlitW,
  localparam int unsigned CoordW = noc_pkg::CoordW,
  localparam int unsigned DimSizeW = CoordW + 1,
  localparam int unsigned StreamW = (NumPorts * NumVcs > 1) ? $clog2(NumPorts * NumVcs) : 1
) (
  input logic                          clk_i,
  input logic                          rst_ni,
  input logic [LabelW-1:0]             own_label_i,
  input logic [NumNetPorts*LabelW-1:0] nbr_label_i,
  input logic [NumNetPorts-1:0]        port_connected_i,
  input logic [NumNetPorts-1:0]        port_is_wrap_i,
  input logic [NumNetPorts-1:0]        port_is_boundary_i,
  input logic [3*CoordW-1:0]           own_coord_i,
  input logic [3*DimSizeW-1:0]         dim_size_i,
  input logic                          is_torus_i,
  input logic [1:0]                    num_dims_i,
  input logic [NumPorts-1:0]           in_valid_i,
  input logic [NumPorts*VcIdW-1:0]     in_vc_i,
  input logic [NumPorts*FlitW-1:0]     in_flit_i,
  input logic [NumPorts*NumVcs-1:0]    out_credit_i
);
  localparam int unsigned CntW = $clog2(BufDepth + 1) + 1;
  localparam int unsigned NumStreams = NumPorts * NumVcs;
  localparam int unsigned HeadBit = FlitW - 1;
  localparam int unsigned TailBit = FlitW - 2;
  // Fields of a head (and of an address flit) in the flit data (noc_pkg::head_t, MSB first).
  localparam int unsigned DataW = noc_pkg::DataW;
  localparam int unsigned DestLo = noc_pkg::IdentW;
  localparam int unsigned MoreLo = DestLo + noc_pkg::AddrW;
  localparam int unsigned ModeLo = DataW - noc_pkg::ModeW;
  // The input port tag in the low data bits, the payload index above it.
  localparam int unsigned TagW = $clog2(NumPorts);
  localparam int unsigned IdxLo = TagW;
  localparam int unsigned IdxW = 2;  // mod 4: a gap of fewer than 4 flits shows
  localparam int unsigned AlW = (MaxMore > 0) ? $clog2(MaxMore + 1) : 1;  // address flits left
  localparam int unsigned DrainCntW = 5;

  if (TagW > noc_pkg::IdentW || MaxMore >= (1 << noc_pkg::MoreW)) begin : gen_check
    $error("noc_router_formal: the port tag (%0d bits) must fit in ident (%0d bits), MaxMore (%0d) in more",
           TagW, noc_pkg::IdentW, MaxMore);
  end

  logic f_first = 1'b1;  // the first cycle: reset is asserted
  always_ff @(posedge clk_i) f_first <= 1'b0;
  always_comb if (f_first) assume (!rst_ni);
  // Reset only in the first cycle: the shadow counts restart with the router's.
  always_comb if (!f_first) assume (rst_ni);

  logic [NumPorts*NumVcs-1:0]  in_credit;
  logic [NumPorts-1:0]         out_valid;
  logic [NumPorts*VcIdW-1:0]   out_vc;
  logic [NumPorts*FlitW-1:0]   out_flit;
  logic [StreamW-1:0]          eject_stream;
  logic [NumPorts*NumVcs-1:0]  draining;
  logic [noc_pkg::RouteDropsW-1:0] route_drops;
  noc_router #(
    .NumNetPorts(NumNetPorts), .NumLocal(1), .NumVcs(NumVcs), .BufDepth(BufDepth),
    .LabelW(LabelW), .RegisterConfig(0), .Modes(Modes)
  ) dut (
    .clk_i, .rst_ni, .own_label_i, .nbr_label_i, .port_connected_i, .port_is_wrap_i,
    .port_is_boundary_i, .own_coord_i, .dim_size_i, .is_torus_i, .num_dims_i,
    .in_valid_i, .in_vc_i, .in_flit_i, .in_credit_o(in_credit),
    .out_valid_o(out_valid), .out_vc_o(out_vc), .out_flit_o(out_flit), .out_credit_i,
    .eject_stream_o(eject_stream), .draining_o(draining), .route_drops_o(route_drops), .errors_o()
  );

  // Configuration held after reset.
  logic [LabelW-1:0]             own_label_q;
  logic [NumNetPorts*LabelW-1:0] nbr_label_q;
  logic [3*NumNetPorts-1:0]      port_flags_q;
  logic [3*CoordW-1:0]           own_coord_q;
  logic [3*DimSizeW-1:0]         dim_size_q;
  logic [2:0]                    net_kind_q;
  always_ff @(posedge clk_i) begin
    own_label_q  <= own_label_i;
    nbr_label_q  <= nbr_label_i;
    port_flags_q <= {port_connected_i, port_is_wrap_i, port_is_boundary_i};
    own_coord_q  <= own_coord_i;
    dim_size_q   <= dim_size_i;
    net_kind_q   <= {is_torus_i, num_dims_i};
  end
  always_comb begin
    if (!f_first) begin
      assume (own_label_i == own_label_q && nbr_label_i == nbr_label_q);
      assume ({port_connected_i, port_is_wrap_i, port_is_boundary_i} == port_flags_q);
      assume (own_coord_i == own_coord_q && dim_size_i == dim_size_q);
      assume ({is_torus_i, num_dims_i} == net_kind_q);
    end
  end

  // Input side, per input VC: the sender's credits, worm state, address flits still to come, the
  // next payload index, and per flit held (oldest first) whether a regroup may drop it.
  logic [NumStreams*CntW-1:0]     in_cred_q;
  logic [NumStreams-1:0]          in_open_q;
  logic [NumStreams*AlW-1:0]      in_addr_q;
  logic [NumStreams*IdxW-1:0]     in_idx_q;
  logic [NumStreams*BufDepth-1:0] in_dropok_q;
  // Output side: flits held downstream per output VC (the ejection port: one pool, index 0); per
  // network output VC and per ejection stream the worm state, address flits still to come, next
  // payload index, and (network) the input port of the worm's head.
  logic [NumStreams*CntW-1:0]     down_q;
  logic [NumNetPorts*NumVcs-1:0]  out_open_q;
  logic [NumNetPorts*NumVcs*AlW-1:0]  out_addr_q;
  logic [NumNetPorts*NumVcs*IdxW-1:0] out_idx_q;
  logic [NumNetPorts*NumVcs*TagW-1:0] out_tag_q;
  logic [NumStreams-1:0]          ej_open_q;
  logic [NumStreams*AlW-1:0]      ej_addr_q;
  logic [NumStreams*IdxW-1:0]     ej_idx_q;
  // Draining in the cycle before, and the drains started since reset.
  logic [NumStreams-1:0]          drain_prev_q;
  logic [DrainCntW-1:0]           drains_q;

  // A source-routed head a regroup drops without sending it anywhere (noc_head_decision: its
  // shifted route used up, more > 0, entry 0 a port, not delivering).
  function automatic logic regroup_drops(input logic [FlitW-1:0] f);
    logic [noc_pkg::AddrW-1:0] dest;
    dest = f[DestLo +: noc_pkg::AddrW];
    regroup_drops = f[HeadBit] && f[ModeLo +: noc_pkg::ModeW] == 3'd4 &&  // RouteSourceRouted
                    f[MoreLo +: noc_pkg::MoreW] != '0 && noc_pkg::route_used_up(noc_pkg::route_shift(dest)) &&
                    !dest[noc_pkg::RoutePortW] && dest[0 +: noc_pkg::RoutePortW] != noc_pkg::RoutePortEnd;
  endfunction

  // The output port tag of each link this cycle.
  logic [NumPorts*NumPorts-1:0] carries;  // carries[o*NumPorts+p]: output o carries a flit of port p
  always_comb begin
    for (int o = 0; o < NumPorts; o++) begin
      for (int p = 0; p < NumPorts; p++) begin
        carries[o*NumPorts+p] = out_valid[o] && out_flit[o*FlitW +: TagW] == TagW'(p);
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int q = 0; q < NumStreams; q++) in_cred_q[q*CntW +: CntW] <= CntW'(BufDepth);
      in_open_q <= '0;
      in_addr_q <= '0;
      in_idx_q <= '0;
      in_dropok_q <= '0;
      down_q <= '0;
      out_open_q <= '0;
      out_addr_q <= '0;
      out_idx_q <= '0;
      out_tag_q <= '0;
      ej_open_q <= '0;
      ej_addr_q <= '0;
      ej_idx_q <= '0;
      drain_prev_q <= '0;
      drains_q <= '0;
    end else begin
      for (int p = 0; p < NumPorts; p++) begin
        for (int v = 0; v < NumVcs; v++) begin
          logic arrive, leave;
          logic [FlitW-1:0] fi, fo;
          logic [CntW-1:0] held;
          logic [BufDepth-1:0] sh;
          int q;
          q = p * NumVcs + v;
          fi = in_flit_i[p*FlitW +: FlitW];
          fo = out_flit[p*FlitW +: FlitW];
          arrive = in_valid_i[p] && in_vc_i[p*VcIdW +: VcIdW] == VcIdW'(v);
          in_cred_q[q*CntW +: CntW] <= in_cred_q[q*CntW +: CntW] - CntW'(arrive) + CntW'(in_credit[q]);
          // The flits held (arrived, credit not yet back), oldest first: a credit returns the oldest.
          held = CntW'(BufDepth) - in_cred_q[q*CntW +: CntW] - CntW'(in_credit[q]);
          sh = in_dropok_q[q*BufDepth +: BufDepth];
          if (in_credit[q]) sh = sh >> 1;
          for (int k = 0; k < BufDepth; k++) begin
            if (arrive && held == CntW'(k)) sh[k] = regroup_drops(fi) && Modes[4];
          end
          in_dropok_q[q*BufDepth +: BufDepth] <= sh;
          if (arrive) begin
            in_open_q[q] <= !fi[TailBit];
            if (fi[HeadBit]) begin
              in_addr_q[q*AlW +: AlW] <= AlW'(fi[MoreLo +: noc_pkg::MoreW]);
              in_idx_q[q*IdxW +: IdxW] <= '0;
            end else if (in_addr_q[q*AlW +: AlW] != '0) begin
              in_addr_q[q*AlW +: AlW] <= in_addr_q[q*AlW +: AlW] - AlW'(1);
            end else begin
              in_idx_q[q*IdxW +: IdxW] <= in_idx_q[q*IdxW +: IdxW] + IdxW'(1);
            end
          end
          leave = out_valid[p] && (p >= NumNetPorts ? (v == 0) : (out_vc[p*VcIdW +: VcIdW] == VcIdW'(v)));
          down_q[q*CntW +: CntW] <= down_q[q*CntW +: CntW] + CntW'(leave) - CntW'(out_credit_i[q]);
          if (p < NumNetPorts && leave) begin
            out_open_q[q] <= !fo[TailBit];
            if (fo[HeadBit]) begin
              out_addr_q[q*AlW +: AlW] <= AlW'(fo[MoreLo +: noc_pkg::MoreW]);
              out_idx_q[q*IdxW +: IdxW] <= '0;
              out_tag_q[q*TagW +: TagW] <= fo[TagW-1:0];
            end else if (out_addr_q[q*AlW +: AlW] != '0) begin
              out_addr_q[q*AlW +: AlW] <= out_addr_q[q*AlW +: AlW] - AlW'(1);
            end else begin
              out_idx_q[q*IdxW +: IdxW] <= out_idx_q[q*IdxW +: IdxW] + IdxW'(1);
            end
          end
        end
      end
      for (int s = 0; s < NumStreams; s++) begin
        logic [FlitW-1:0] fe;
        fe = out_flit[NumNetPorts*FlitW +: FlitW];
        if (out_valid[NumNetPorts] && eject_stream == StreamW'(s)) begin
          ej_open_q[s] <= !fe[TailBit];
          if (fe[HeadBit]) begin
            ej_addr_q[s*AlW +: AlW] <= AlW'(fe[MoreLo +: noc_pkg::MoreW]);
            ej_idx_q[s*IdxW +: IdxW] <= '0;
          end else if (ej_addr_q[s*AlW +: AlW] != '0) begin
            ej_addr_q[s*AlW +: AlW] <= ej_addr_q[s*AlW +: AlW] - AlW'(1);
          end else begin
            ej_idx_q[s*IdxW +: IdxW] <= ej_idx_q[s*IdxW +: IdxW] + IdxW'(1);
          end
        end
      end
      drain_prev_q <= draining;
      drains_q <= drains_q + DrainCntW'($countones(draining & ~drain_prev_q));
    end
  end

  // Environment.
  always_comb begin
    if (rst_ni) begin
      for (int p = 0; p < NumPorts; p++) begin
        for (int v = 0; v < NumVcs; v++) begin
          logic [FlitW-1:0] fi;
          int q;
          q = p * NumVcs + v;
          fi = in_flit_i[p*FlitW +: FlitW];
          if (in_valid_i[p] && in_vc_i[p*VcIdW +: VcIdW] == VcIdW'(v)) begin
            // A flit only with a credit, counting one returned in the same cycle.
            assume (in_cred_q[q*CntW +: CntW] + CntW'(in_credit[q]) != '0);
            assume (fi[HeadBit] == !in_open_q[q]);     // well-formed worms
            assume (fi[TagW-1:0] == TagW'(p));         // the input port tag
            if (fi[HeadBit]) begin
              // A head: at most MaxMore address flits follow; a tail only without any.
              assume (fi[MoreLo +: noc_pkg::MoreW] <= noc_pkg::MoreW'(MaxMore));
              if (fi[TailBit]) assume (fi[MoreLo +: noc_pkg::MoreW] == '0);
            end else if (in_addr_q[q*AlW +: AlW] != '0) begin
              // An address flit: its own `more` counts the address flits after it.
              assume (fi[MoreLo +: noc_pkg::MoreW] == noc_pkg::MoreW'(in_addr_q[q*AlW +: AlW] - AlW'(1)));
              if (fi[TailBit]) assume (in_addr_q[q*AlW +: AlW] == AlW'(1));
            end else begin
              assume (fi[IdxLo +: IdxW] == in_idx_q[q*IdxW +: IdxW]);  // payload index
            end
          end
          // Downstream returns a credit only for a flit it holds (the ejection pool on VC 0).
          if (out_credit_i[q]) assume (down_q[q*CntW +: CntW] != '0);
          if (p >= NumNetPorts && v != 0) assume (!out_credit_i[q]);
        end
        if (NumVcs > 1 && in_valid_i[p]) assume (32'(in_vc_i[p*VcIdW +: VcIdW]) < NumVcs);
      end
    end
  end

  // Claims.
  always_comb begin
    if (rst_ni) begin
      for (int p = 0; p < NumPorts; p++) begin
        for (int v = 0; v < NumVcs; v++) begin
          logic [FlitW-1:0] fo;
          int q;
          q = p * NumVcs + v;
          fo = out_flit[p*FlitW +: FlitW];
          // No credit returned without a pop.
          assert (in_cred_q[q*CntW +: CntW] <= CntW'(BufDepth));
          // No flit out without a credit: the downstream buffer never overflows.
          assert (down_q[q*CntW +: CntW] <= CntW'(BufDepth));
          // Worms leave whole and in order per network output VC.
          if (p < NumNetPorts && out_valid[p] && out_vc[p*VcIdW +: VcIdW] == VcIdW'(v)) begin
            assert (fo[HeadBit] == !out_open_q[q]);
            if (!fo[HeadBit] && CheckOrder) begin
              assert (fo[TagW-1:0] == out_tag_q[q*TagW +: TagW]);
              if (out_addr_q[q*AlW +: AlW] != '0) begin
                assert (fo[MoreLo +: AlW] == out_addr_q[q*AlW +: AlW] - AlW'(1));
              end else begin
                assert (fo[IdxLo +: IdxW] == out_idx_q[q*IdxW +: IdxW]);
              end
            end
          end
        end
      end
      if (WitnessFlits > 1 && out_valid[0] && out_vc[0 +: VcIdW] == '0 && out_flit[TailBit] && !out_flit[HeadBit]) begin
        assert (!(out_addr_q[0 +: AlW] == '0 && out_idx_q[0 +: IdxW] == IdxW'(WitnessFlits - 2)));
      end
      // And per ejection stream, each from its own input VC's port.
      for (int s = 0; s < NumStreams; s++) begin
        logic [FlitW-1:0] fe;
        fe = out_flit[NumNetPorts*FlitW +: FlitW];
        if (out_valid[NumNetPorts] && eject_stream == StreamW'(s)) begin
          assert (fe[HeadBit] == !ej_open_q[s]);
          if (CheckOrder) assert (fe[TagW-1:0] == TagW'(s / NumVcs));
          if (!fe[HeadBit] && CheckOrder) begin
            if (ej_addr_q[s*AlW +: AlW] != '0) begin
              assert (fe[MoreLo +: AlW] == ej_addr_q[s*AlW +: AlW] - AlW'(1));
            end else begin
              assert (fe[IdxLo +: IdxW] == ej_idx_q[s*IdxW +: IdxW]);
            end
          end
          // Flits out equal flits in: an ejected flit with its input VC's credit.
          if (CheckFlow) assert (in_credit[s]);
        end
      end
      // Flits out equal flits in, per input port.
      for (int p = 0; p < NumPorts && CheckFlow; p++) begin
        logic out_p;
        logic [NumVcs-1:0] cred, unexplained;
        out_p = 1'b0;
        for (int o = 0; o < NumPorts; o++) out_p = out_p | carries[o*NumPorts+p];
        cred = in_credit[p*NumVcs +: NumVcs];
        unexplained = cred & ~(drain_prev_q[p*NumVcs +: NumVcs]);
        for (int v = 0; v < NumVcs; v++) begin
          if (in_dropok_q[(p*NumVcs+v)*BufDepth]) unexplained[v] = 1'b0;
        end
        // A flit leaves only with its pop's credit ...
        if (out_p) assert (cred != '0);
        // ... and every credit is a flit that left, or a drop by design.
        assert ($countones(unexplained) <= 32'(out_p));
        // The copies of a port's flit in one cycle are one flit: all a tail or none (the data of each
        // copy is checked by its output's sequence above).
        for (int o = 0; o < NumPorts; o++) begin
          for (int o2 = o + 1; o2 < NumPorts; o2++) begin
            if (carries[o*NumPorts+p] && carries[o2*NumPorts+p]) begin
              assert (out_flit[o*FlitW+TailBit] == out_flit[o2*FlitW+TailBit]);
            end
          end
        end
      end
      // The sticky count of drained worms counts every drain started.
      if (CheckFlow) assert (32'(route_drops) >= 32'(drains_q));
    end
  end
endmodule
