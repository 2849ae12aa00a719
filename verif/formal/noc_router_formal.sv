// SPDX-License-Identifier: SHL-0.51
// noc_router_formal: bounded check of the whole noc_router through its ports only
// (verif/formal/run.sh, bounded by ABC's bmc3; docs/verification.md).
//
// Environment (assumed): the configuration inputs hold after reset (RegisterConfig 0); per input
// port and VC a flit arrives only with a credit (a shadow count of BufDepth credits, spent by each
// arriving flit, given back by in_credit_o), and the flits of each input VC form well-formed worms
// (a head only between worms, a body or tail only inside one); head contents are arbitrary, so
// any route decision (or none: a drained worm) is reached. Downstream of every network output VC a
// buffer of BufDepth flits returns a credit only for a flit it holds; the ejection port's
// receiver likewise, its credits one pool on the port's VC-0 bit.
//
// Claims, every cycle up to the depth: no credit returned without a pop (an input VC's shadow
// credits never exceed BufDepth); no flit out without a credit (no downstream buffer overflows);
// worms leave whole per network output VC (a head only between worms, a body or tail only inside
// one: two worms never interleave on an output VC) and per ejection stream.
module noc_router_formal #(
  parameter int unsigned NumNetPorts = 3,
  parameter int unsigned NumVcs = 2,
  parameter int unsigned BufDepth = 2,
  parameter int unsigned LabelW = 4,
  parameter int unsigned Modes = 1,
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
  noc_router #(
    .NumNetPorts(NumNetPorts), .NumLocal(1), .NumVcs(NumVcs), .BufDepth(BufDepth),
    .LabelW(LabelW), .RegisterConfig(0), .Modes(Modes)
  ) dut (
    .clk_i, .rst_ni, .own_label_i, .nbr_label_i, .port_connected_i, .port_is_wrap_i,
    .port_is_boundary_i, .own_coord_i, .dim_size_i, .is_torus_i, .num_dims_i,
    .in_valid_i, .in_vc_i, .in_flit_i, .in_credit_o(in_credit),
    .out_valid_o(out_valid), .out_vc_o(out_vc), .out_flit_o(out_flit), .out_credit_i,
    .eject_stream_o(eject_stream), .draining_o(), .route_drops_o(), .errors_o()
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

  // Input side: the senders' credits and worm state per input VC.
  logic [NumPorts*NumVcs*CntW-1:0] in_cred_q;
  logic [NumPorts*NumVcs-1:0]      in_open_q;
  // Output side: flits held downstream per output VC (the ejection port: one pool, index 0), and
  // worm state per network output VC and per ejection stream.
  logic [NumPorts*NumVcs*CntW-1:0] down_q;
  logic [NumNetPorts*NumVcs-1:0]   out_open_q;
  logic [NumStreams-1:0]           ej_open_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int q = 0; q < NumPorts * NumVcs; q++) in_cred_q[q*CntW +: CntW] <= CntW'(BufDepth);
      in_open_q <= '0;
      down_q <= '0;
      out_open_q <= '0;
      ej_open_q <= '0;
    end else begin
      for (int p = 0; p < NumPorts; p++) begin
        for (int v = 0; v < NumVcs; v++) begin
          logic arrive, leave;
          logic [FlitW-1:0] fi, fo;
          fi = in_flit_i[p*FlitW +: FlitW];
          fo = out_flit[p*FlitW +: FlitW];
          arrive = in_valid_i[p] && in_vc_i[p*VcIdW +: VcIdW] == VcIdW'(v);
          in_cred_q[(p*NumVcs+v)*CntW +: CntW] <= in_cred_q[(p*NumVcs+v)*CntW +: CntW]
              - CntW'(arrive) + CntW'(in_credit[p*NumVcs+v]);
          if (arrive) in_open_q[p*NumVcs+v] <= !fi[TailBit];
          leave = out_valid[p] && (p >= NumNetPorts ? (v == 0) : (out_vc[p*VcIdW +: VcIdW] == VcIdW'(v)));
          down_q[(p*NumVcs+v)*CntW +: CntW] <= down_q[(p*NumVcs+v)*CntW +: CntW]
              + CntW'(leave) - CntW'(out_credit_i[p*NumVcs+v]);
          if (p < NumNetPorts && leave) out_open_q[p*NumVcs+v] <= !fo[TailBit];
        end
      end
      for (int s = 0; s < NumStreams; s++) begin
        if (out_valid[NumNetPorts] && eject_stream == StreamW'(s)) ej_open_q[s] <= !out_flit[NumNetPorts*FlitW+TailBit];
      end
    end
  end

  always_comb begin
    if (rst_ni) begin
      for (int p = 0; p < NumPorts; p++) begin
        for (int v = 0; v < NumVcs; v++) begin
          if (in_valid_i[p] && in_vc_i[p*VcIdW +: VcIdW] == VcIdW'(v)) begin
            assume (in_cred_q[(p*NumVcs+v)*CntW +: CntW] != '0);  // a flit only with a credit
            assume (in_flit_i[p*FlitW+HeadBit] == !in_open_q[p*NumVcs+v]);  // well-formed worms
          end
          // Downstream returns a credit only for a flit it holds (the ejection pool on VC 0).
          if (out_credit_i[p*NumVcs+v]) assume (down_q[(p*NumVcs+v)*CntW +: CntW] != '0);
          if (p >= NumNetPorts && v != 0) assume (!out_credit_i[p*NumVcs+v]);
        end
        if (NumVcs > 1 && in_valid_i[p]) assume (32'(in_vc_i[p*VcIdW +: VcIdW]) < NumVcs);
      end
    end
  end

  always_comb begin
    if (rst_ni) begin
      for (int p = 0; p < NumPorts; p++) begin
        for (int v = 0; v < NumVcs; v++) begin
          // No credit returned without a pop.
          assert (in_cred_q[(p*NumVcs+v)*CntW +: CntW] <= CntW'(BufDepth));
          // No flit out without a credit: the downstream buffer never overflows.
          assert (down_q[(p*NumVcs+v)*CntW +: CntW] <= CntW'(BufDepth));
          // Worms leave whole per network output VC.
          if (p < NumNetPorts && out_valid[p] && out_vc[p*VcIdW +: VcIdW] == VcIdW'(v)) begin
            assert (out_flit[p*FlitW+HeadBit] == !out_open_q[p*NumVcs+v]);
          end
        end
      end
      // And per ejection stream.
      for (int s = 0; s < NumStreams; s++) begin
        if (out_valid[NumNetPorts] && eject_stream == StreamW'(s)) begin
          assert (out_flit[NumNetPorts*FlitW+HeadBit] == !ej_open_q[s]);
        end
      end
    end
  end
endmodule
