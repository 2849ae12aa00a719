// SPDX-License-Identifier: SHL-0.51
// synth_node_router: a synthesis harness (not part of the router): noc_router with 4 network ports
// and the constant configuration of one node, node (5, 5) of a 16x16 mesh, as a network top
// (rtl/noc_network_top.sv) instantiates every router on an FPGA. Every link port stays a port.
// `make synth` reports it next to the general router, whose configuration is an input
// (verif/rtl/synth_table.sh; docs/rtl.md, "make synth: resource table"): with the configuration
// constant yosys folds the neighbour-versus-own label comparisons and the coordinate arithmetic of
// route compute, and the flags of ports and modes this node cannot use.
//
// The configuration, from the model's path labeling of mesh:16x16 (the row snake: label
// y * 16 + x on even rows, y * 16 + 15 - x on odd rows): own label 90; neighbours +X (6,5) 89,
// -X (4,5) 91, +Y (5,6) 101, -Y (5,4) 69; all four ports connected, no wraparound or boundary
// links; coordinates (5, 5, 0); sizes (16, 16, 0); a 2D mesh.
module synth_node_router #(
  parameter int unsigned NumLocal = 1,
  parameter int unsigned NumVcs   = 2,
  parameter int unsigned BufDepth = 4,
  parameter int unsigned LabelW   = 16,
  parameter int unsigned Modes    = noc_pkg::AllModes,
  localparam int unsigned NumNetPorts = 4,
  localparam int unsigned NumPorts    = NumNetPorts + NumLocal,
  localparam int unsigned VcIdW       = (NumVcs > 1) ? $clog2(NumVcs) : 1,
  localparam int unsigned FlitW       = noc_pkg::FlitW,
  localparam int unsigned CoordW      = noc_pkg::CoordW,
  localparam int unsigned DimSizeW    = CoordW + 1,
  localparam int unsigned StreamW     = (NumPorts * NumVcs > 1) ? $clog2(NumPorts * NumVcs) : 1
) (
  input  logic                        clk_i,
  input  logic                        rst_ni,
  input  logic [NumPorts-1:0]         in_valid_i,
  input  logic [NumPorts*VcIdW-1:0]   in_vc_i,
  input  logic [NumPorts*FlitW-1:0]   in_flit_i,
  output logic [NumPorts*NumVcs-1:0]  in_credit_o,
  output logic [NumPorts-1:0]         out_valid_o,
  output logic [NumPorts*VcIdW-1:0]   out_vc_o,
  output logic [NumPorts*FlitW-1:0]   out_flit_o,
  input  logic [NumPorts*NumVcs-1:0]  out_credit_i,
  output logic [NumLocal*StreamW-1:0] eject_stream_o,
  output logic [NumPorts*NumVcs-1:0]  draining_o,
  output logic [noc_pkg::RouteDropsW-1:0] route_drops_o,
  output logic [noc_pkg::ErrorsW-1:0]     errors_o
);

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
    .own_label_i       (LabelW'(90)),
    .nbr_label_i       ({LabelW'(69), LabelW'(101), LabelW'(91), LabelW'(89)}),
    .port_connected_i  (4'b1111),
    .port_is_wrap_i    (4'b0000),
    .port_is_boundary_i(4'b0000),
    .own_coord_i       ({CoordW'(0), CoordW'(5), CoordW'(5)}),
    .dim_size_i        ({DimSizeW'(0), DimSizeW'(16), DimSizeW'(16)}),
    .is_torus_i        (1'b0),
    .num_dims_i        (2'd2),
    .in_valid_i,
    .in_vc_i,
    .in_flit_i,
    .in_credit_o,
    .out_valid_o,
    .out_vc_o,
    .out_flit_o,
    .out_credit_i,
    .eject_stream_o,
    .draining_o,
    .route_drops_o,
    .errors_o
  );

endmodule
