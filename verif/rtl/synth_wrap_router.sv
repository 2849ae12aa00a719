// SPDX-License-Identifier: SHL-0.51
// synth_wrap_router: a synthesis harness (not part of the router) that gives noc_router a handful of
// pins so that nextpnr can place it in an iCE40 HX8K and report its fmax (verif/rtl/synth_table.sh,
// `make synth`; docs/rtl.md, "make synth: resource table").
//
// With NodeConfig = 0 nothing reaching the router is constant, so yosys keeps every gate of the
// general router:
//   - the configuration inputs come from a shift register loaded from one pin (cfg_shift_i,
//     cfg_data_i); constant configuration would let yosys prune route compute down to one node's;
//   - the link inputs (valid, VC, flit, output credits) come from a shift register fed by one pin
//     (stim_i) through the 32-bit maximal LFSR below, every bit its own flip-flop;
//   - every router output is XOR-reduced into one registered pin in two registered stages (32-bit
//     chunks, then the chunk parities), so the parity tree stays shorter than the router's own
//     paths and does not set the fmax.
// With NodeConfig = 1 the router is synth_node_router instead: one node's constant configuration,
// as a network top instantiates it (4 network ports only); cfg_shift_i and cfg_data_i are unused.
// The router is connected by port name with widths derived from its parameters: a new router output
// is a declaration, a connection, and its signal in `outs` and width in `OutW`.
module synth_wrap_router #(
  parameter int unsigned NumNetPorts = 4,
  parameter int unsigned NumLocal    = 1,
  parameter int unsigned NumVcs      = 2,
  parameter int unsigned BufDepth    = 4,
  parameter int unsigned LabelW      = 16,
  /// 1: the router of one node with constant configuration (synth_node_router); 0: the general
  /// router, its configuration from the shift register.
  parameter int unsigned NodeConfig  = 0,
  /// Routing modes built into the router (noc_pkg::AllModes: every mode).
  parameter int unsigned Modes       = noc_pkg::AllModes
) (
  input  logic clk_i,
  input  logic rst_ni,
  /// While high, the configuration shift register takes cfg_data_i in at bit 0 every cycle.
  input  logic cfg_shift_i,
  input  logic cfg_data_i,
  /// XOR-ed into the stimulus LFSR every cycle.
  input  logic stim_i,
  /// Parity of every router output, two cycles late.
  output logic parity_o
);

  localparam int unsigned NumPorts = NumNetPorts + NumLocal;
  localparam int unsigned VcIdW    = (NumVcs > 1) ? $clog2(NumVcs) : 1;
  localparam int unsigned FlitW    = noc_pkg::FlitW;
  localparam int unsigned CoordW   = noc_pkg::CoordW;
  localparam int unsigned DimSizeW = CoordW + 1;  // noc_router's
  /// own_label, nbr_label, connected/wrap/boundary flags, own_coord, dim_size, is_torus, num_dims.
  localparam int unsigned CfgW     = LabelW + NumNetPorts * LabelW + 3 * NumNetPorts + 3 * CoordW + 3 * DimSizeW + 1 + 2;
  /// in_valid, in_vc, in_flit, out_credit.
  localparam int unsigned StimW    = NumPorts * (1 + VcIdW + FlitW) + NumPorts * NumVcs;
  localparam int unsigned StreamW  = (NumPorts * NumVcs > 1) ? $clog2(NumPorts * NumVcs) : 1;
  /// out_valid, out_vc, out_flit, eject_stream, in_credit, draining, route_drops, errors.
  localparam int unsigned OutW     = NumPorts * (1 + VcIdW + FlitW) + NumLocal * StreamW + 2 * NumPorts * NumVcs +
                                     noc_pkg::RouteDropsW + noc_pkg::ErrorsW;
  localparam int unsigned ChunkW   = 32;
  localparam int unsigned NumChunk = (OutW + ChunkW - 1) / ChunkW;

  logic [CfgW-1:0]  cfg_q;
  logic [StimW-1:0] stim_q;
  logic [31:0]      lfsr_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      lfsr_q <= 32'h1;
      stim_q <= '0;
    end else begin
      // x^32 + x^22 + x^2 + x + 1 (maximal length).
      lfsr_q <= {lfsr_q[30:0], lfsr_q[31] ^ lfsr_q[21] ^ lfsr_q[1] ^ lfsr_q[0] ^ stim_i};
      stim_q <= {stim_q[StimW-2:0], lfsr_q[31]};
    end
  end

  // No reset: the configuration is whatever was shifted in (the router loads it during reset).
  always_ff @(posedge clk_i) begin
    if (cfg_shift_i) cfg_q <= {cfg_q[CfgW-2:0], cfg_data_i};
  end

  logic [NumPorts-1:0]         in_valid, out_valid;
  logic [NumPorts*VcIdW-1:0]   in_vc, out_vc;
  logic [NumPorts*FlitW-1:0]   in_flit, out_flit;
  logic [NumPorts*NumVcs-1:0]  in_credit, out_credit, draining;
  logic [noc_pkg::RouteDropsW-1:0] route_drops;
  logic [noc_pkg::ErrorsW-1:0]     errors;
  logic [NumLocal*StreamW-1:0] eject_stream;
  logic [OutW-1:0]             outs;
  logic [NumChunk*ChunkW-1:0]  outs_padded;

  assign {in_valid, in_vc, in_flit, out_credit} = stim_q;

  if (NodeConfig != 0) begin : gen_node_router
    logic unused_cfg;
    assign unused_cfg = ^cfg_q;
    synth_node_router #(
      .NumLocal(NumLocal),
      .NumVcs  (NumVcs),
      .BufDepth(BufDepth),
      .LabelW  (LabelW),
      .Modes   (Modes)
    ) u_router (
      .clk_i,
      .rst_ni,
      .in_valid_i    (in_valid),
      .in_vc_i       (in_vc),
      .in_flit_i     (in_flit),
      .in_credit_o   (in_credit),
      .out_valid_o   (out_valid),
      .out_vc_o      (out_vc),
      .out_flit_o    (out_flit),
      .out_credit_i  (out_credit),
      .eject_stream_o(eject_stream),
      .draining_o    (draining),
      .route_drops_o (route_drops),
      .errors_o      (errors)
    );
  end else begin : gen_router
    noc_router #(
      .NumNetPorts(NumNetPorts),
      .NumLocal   (NumLocal),
      .NumVcs     (NumVcs),
      .BufDepth   (BufDepth),
      .LabelW     (LabelW),
      .Modes      (Modes)
    ) u_router (
      .clk_i,
      .rst_ni,
      .own_label_i       (cfg_q[0 +: LabelW]),
      .nbr_label_i       (cfg_q[LabelW +: NumNetPorts*LabelW]),
      .port_connected_i  (cfg_q[(1+NumNetPorts)*LabelW +: NumNetPorts]),
      .port_is_wrap_i    (cfg_q[(1+NumNetPorts)*LabelW + NumNetPorts +: NumNetPorts]),
      .port_is_boundary_i(cfg_q[(1+NumNetPorts)*LabelW + 2*NumNetPorts +: NumNetPorts]),
      .own_coord_i       (cfg_q[(1+NumNetPorts)*LabelW + 3*NumNetPorts +: 3*CoordW]),
      .dim_size_i        (cfg_q[(1+NumNetPorts)*LabelW + 3*NumNetPorts + 3*CoordW +: 3*DimSizeW]),
      .is_torus_i        (cfg_q[CfgW-3]),
      .num_dims_i        (cfg_q[CfgW-2 +: 2]),
      .in_valid_i        (in_valid),
      .in_vc_i           (in_vc),
      .in_flit_i         (in_flit),
      .in_credit_o       (in_credit),
      .out_valid_o       (out_valid),
      .out_vc_o          (out_vc),
      .out_flit_o        (out_flit),
      .out_credit_i      (out_credit),
      .eject_stream_o    (eject_stream),
      .draining_o        (draining),
      .route_drops_o     (route_drops),
      .errors_o          (errors)
    );
  end

  assign outs        = {out_valid, out_vc, out_flit, eject_stream, in_credit, draining, route_drops, errors};
  assign outs_padded = (NumChunk * ChunkW)'(outs);

  logic [NumChunk-1:0] chunk_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      chunk_q  <= '0;
      parity_o <= 1'b0;
    end else begin
      for (int c = 0; c < NumChunk; c++) begin
        chunk_q[c] <= ^outs_padded[c*ChunkW +: ChunkW];
      end
      parity_o <= ^chunk_q;
    end
  end

endmodule
