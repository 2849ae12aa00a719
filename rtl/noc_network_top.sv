// SPDX-License-Identifier: SHL-0.51
// noc_network_top: a SizeX x SizeY 2D mesh or torus of noc_routers (docs/rtl-modules.md,
// "Network tops").
//
// Node n = x + SizeX * y (docs/model.md, "Node ids") is one noc_router with NumNetPorts = 4
// network ports (port 2d = +dim d, 2d+1 = -dim d) and NumLocal local port pairs. The top wires the
// links: input port p of node n is fed by output port p^1 of its neighbour on port p, and the
// credits of that input go back to the same neighbour's output port p^1. Mesh edge ports are left
// unconnected (inputs idle, credits 0, port_connected = 0).
//
// Every router's configuration is computed here, at elaboration, from the parameters by the
// constant functions below; they reproduce the model's (model/labeling.cpp, model/topology.cpp):
//   - labels: the row snake label(x, y) = y*SizeX + x for even y, y*SizeX + SizeX-1-x for odd y.
//     The mesh uses it as its Hamiltonian-path labeling; on a torus with an even SizeY it is both
//     the path labeling (wraps unused) and the Hamiltonian-cycle labeling (closed by the y-wrap),
//     so one label configuration serves both label modes. A torus with an odd SizeY has no such
//     cycle in the model, and elaboration stops with an $error naming SizeY;
//   - port_is_wrap: torus ports that leave the ring at its end (x = SizeX-1 on +x, x = 0 on -x,
//     and likewise in y), exactly Topology::is_wraparound;
//   - port_is_boundary: the boundary links of the torus cycle labeling, the y-wraps (model's
//     link_class, docs/model.md); none on a mesh (a path labeling has no boundary links);
//   - own coordinates, sizes {SizeY, SizeX}, is_torus = Torus, num_dims = 2.
// The configuration drives the routers from module-scope vectors (cfg_*), which a test reads
// through Verilator's public access to compare them with the model (verif/rtl/network_top_test.cpp).
//
// Local ports are flat vectors, node n's slice at [n*W +: W] with W the width of NumLocal ports;
// local pair l of node n is router port NumNetPorts + l. Every output is a router register.
// A noc_link_checker at the receiving end of every link asserts the link protocol in simulation
// (the routers check the links into them, the top its ejection links); synthesis drops it.

module noc_network_top #(
  /// Nodes along x (2..2**noc_pkg::CoordW, the model's minimum is 2).
  parameter int unsigned SizeX = 4,
  /// Nodes along y (2..2**noc_pkg::CoordW; even when Torus = 1).
  parameter int unsigned SizeY = 4,
  /// 1: a torus (wraparound links in both dimensions); 0: a mesh.
  parameter int unsigned Torus = 0,
  /// Local port pairs per node (noc_router NumLocal, >= 1).
  parameter int unsigned NumLocal = 1,
  /// Virtual channels per port (noc_router NumVcs: 1, 2 or 4). 4 follows the VC-class plan on 2D
  /// networks (docs/rtl.md "VC-class plan"); fewer are deadlock-free only for fewer routing families.
  parameter int unsigned NumVcs = 4,
  /// Flits per input VC buffer (noc_router BufDepth).
  parameter int unsigned BufDepth = 4,
  /// Width of a Hamiltonian label (<= noc_pkg::AddrW; SizeX * SizeY labels must fit).
  parameter int unsigned LabelW = 16,
  /// Nodes. Derived, do not override.
  localparam int unsigned NumNodes = SizeX * SizeY,
  /// Network ports of a 2D router. Derived, do not override.
  localparam int unsigned NumNetPorts = 4,
  /// Ports of a router, network then local. Derived, do not override.
  localparam int unsigned NumPorts = NumNetPorts + NumLocal,
  /// Width of a VC id on a link. Derived, do not override.
  localparam int unsigned VcIdW = (NumVcs > 1) ? $clog2(NumVcs) : 1,
  /// Width of a flit (noc_pkg::FlitW). Derived, do not override.
  localparam int unsigned FlitW = noc_pkg::FlitW,
  /// Width of one coordinate (noc_pkg::CoordW). Derived, do not override.
  localparam int unsigned CoordW = noc_pkg::CoordW,
  /// Width of one dimension's size (noc_router DimSizeW). Derived, do not override.
  localparam int unsigned DimSizeW = CoordW + 1,
  /// Width of an ejection stream id (noc_router StreamW). Derived, do not override.
  localparam int unsigned StreamW = (NumPorts * NumVcs > 1) ? $clog2(NumPorts * NumVcs) : 1
) (
  /// Clock.
  input  logic                                  clk_i,
  /// Asynchronous active-low reset of every router.
  input  logic                                  rst_ni,

  // Injection: node n's local input l (router port NumNetPorts + l).
  /// A flit is injected on node n's local input l, bit n*NumLocal + l (its VC must hold a credit).
  input  logic [NumNodes*NumLocal-1:0]          inj_valid_i,
  /// Its VC in bits [(n*NumLocal + l)*VcIdW +: VcIdW].
  input  logic [NumNodes*NumLocal*VcIdW-1:0]    inj_vc_i,
  /// Its flit (noc_pkg::flit_t) in bits [(n*NumLocal + l)*FlitW +: FlitW].
  input  logic [NumNodes*NumLocal*FlitW-1:0]    inj_flit_i,
  /// Credit back to the injector for VC v, bit (n*NumLocal + l)*NumVcs + v (registered).
  output logic [NumNodes*NumLocal*NumVcs-1:0]   inj_credit_o,

  // Ejection: node n's local output l (router port NumNetPorts + l).
  /// A flit is ejected on node n's local output l, bit n*NumLocal + l (registered).
  output logic [NumNodes*NumLocal-1:0]          ej_valid_o,
  /// Its VC in bits [(n*NumLocal + l)*VcIdW +: VcIdW] (registered).
  output logic [NumNodes*NumLocal*VcIdW-1:0]    ej_vc_o,
  /// Its flit in bits [(n*NumLocal + l)*FlitW +: FlitW] (registered).
  output logic [NumNodes*NumLocal*FlitW-1:0]    ej_flit_o,
  /// Credit from the ejection sink for VC v, bit (n*NumLocal + l)*NumVcs + v.
  input  logic [NumNodes*NumLocal*NumVcs-1:0]   ej_credit_i,
  /// Stream of node n's ejected flit on local port l (noc_router eject_stream_o), bits
  /// [(n*NumLocal+l)*StreamW +: StreamW].
  output logic [NumNodes*NumLocal*StreamW-1:0]  ej_stream_o,

  /// Status: node n's noc_router draining_o (input VCs draining a worm without a route decision)
  /// in bits [n*NumPorts*NumVcs +: NumPorts*NumVcs].
  output logic [NumNodes*NumPorts*NumVcs-1:0]   draining_o,
  /// Status: node n's noc_router route_drops_o (sticky, saturating count of drained worms) in bits
  /// [n*RouteDropsW +: RouteDropsW], RouteDropsW = noc_pkg::RouteDropsW.
  output logic [NumNodes*noc_pkg::RouteDropsW-1:0] route_drops_o,
  /// Status: node n's noc_router errors_o (sticky protocol errors, bits noc_pkg::Err*) in bits
  /// [n*ErrorsW +: ErrorsW], ErrorsW = noc_pkg::ErrorsW.
  output logic [NumNodes*noc_pkg::ErrorsW-1:0]  errors_o
);

  // ---------------------------------------------------------------------------------------------
  // Constant functions of the configuration (docs/sv-subset.md: plain vectors in and out, the result
  // assigned to the function name). Ports are numbered 0 +x, 1 -x, 2 +y, 3 -y.

  /// Row-snake label of (x, y) (model/labeling.cpp row_snake).
  function automatic logic [31:0] snake_label(input logic [31:0] x, input logic [31:0] y,
                                              input logic [31:0] size_x);
    snake_label = y * size_x + ((y % 2 == 0) ? x : size_x - 1 - x);
  endfunction

  /// The mesh link on `port` of (x, y) exists (it does not leave the grid).
  function automatic logic mesh_link(input logic [31:0] x, input logic [31:0] y, input logic [31:0] port,
                                     input logic [31:0] size_x, input logic [31:0] size_y);
    if (port == 0)      mesh_link = (x + 1 < size_x);
    else if (port == 1) mesh_link = (x > 0);
    else if (port == 2) mesh_link = (y + 1 < size_y);
    else                mesh_link = (y > 0);
  endfunction

  /// x of the neighbour on `port` of (x, y), one step along the ring (torus; also right for every
  /// mesh link that exists).
  function automatic logic [31:0] nbr_x(input logic [31:0] x, input logic [31:0] port,
                                        input logic [31:0] size_x);
    if (port == 0)      nbr_x = (x + 1) % size_x;
    else if (port == 1) nbr_x = (x + size_x - 1) % size_x;
    else                nbr_x = x;
  endfunction

  /// y of the neighbour on `port` of (x, y), as nbr_x.
  function automatic logic [31:0] nbr_y(input logic [31:0] y, input logic [31:0] port,
                                        input logic [31:0] size_y);
    if (port == 2)      nbr_y = (y + 1) % size_y;
    else if (port == 3) nbr_y = (y + size_y - 1) % size_y;
    else                nbr_y = y;
  endfunction

  // ---------------------------------------------------------------------------------------------
  // Parameter checks at elaboration. A generate-block $error stops yosys (which prints the message
  // without formatting the values) and Verilator (which prints the values; a run with -Wno-fatal,
  // as verilate() in verif/rtl/CMakeLists.txt, reports it and goes on).

  if (Torus == 1 && SizeY % 2 != 0) begin : gen_torus_rows_check
    $error("noc_network_top: SizeY (%0d) is odd; a torus needs an even SizeY for the model's Hamiltonian-cycle labeling (the row snake closed by the y-wrap)",
           SizeY);
  end
  if (Torus > 1) begin : gen_torus_check
    $error("noc_network_top: Torus (%0d) must be 0 (mesh) or 1 (torus)", Torus);
  end
  if (SizeX < 2 || SizeX > 2 ** CoordW || SizeY < 2 || SizeY > 2 ** CoordW) begin : gen_size_check
    $error("noc_network_top: SizeX (%0d) and SizeY (%0d) must each be 2..%0d (one coordinate is noc_pkg::CoordW bits)",
           SizeX, SizeY, 2 ** CoordW);
  end
  if (LabelW > noc_pkg::AddrW || (LabelW < 32 && NumNodes > 2 ** LabelW)) begin : gen_label_check
    $error("noc_network_top: LabelW (%0d) must be at most noc_pkg::AddrW (%0d) and hold the %0d labels",
           LabelW, noc_pkg::AddrW, NumNodes);
  end

  // ---------------------------------------------------------------------------------------------
  // Configuration of every router, public for the test (verif/rtl/network_top_test.cpp). Public
  // "rw", not "rd": Verilator 5.006 optimizes the constant 1- and 2-bit public_flat_rd signals
  // (cfg_is_torus, cfg_num_dims) away.

  logic [NumNodes*LabelW-1:0]             cfg_own_label      /*verilator public_flat_rw*/;
  logic [NumNodes*NumNetPorts*LabelW-1:0] cfg_nbr_label      /*verilator public_flat_rw*/;
  logic [NumNodes*NumNetPorts-1:0]        cfg_connected      /*verilator public_flat_rw*/;
  logic [NumNodes*NumNetPorts-1:0]        cfg_is_wrap        /*verilator public_flat_rw*/;
  logic [NumNodes*NumNetPorts-1:0]        cfg_is_boundary    /*verilator public_flat_rw*/;
  logic [NumNodes*3*CoordW-1:0]           cfg_own_coord      /*verilator public_flat_rw*/;
  logic [3*DimSizeW-1:0]                  cfg_dim_size       /*verilator public_flat_rw*/;
  logic                                   cfg_is_torus       /*verilator public_flat_rw*/;
  logic [1:0]                             cfg_num_dims       /*verilator public_flat_rw*/;

  assign cfg_dim_size = {DimSizeW'(0), DimSizeW'(SizeY), DimSizeW'(SizeX)};
  assign cfg_is_torus = (Torus == 1);
  assign cfg_num_dims = 2'd2;

  // ---------------------------------------------------------------------------------------------
  // Every router's ports, flat over the nodes: node n's slice at [n*NumPorts*W +: NumPorts*W].

  logic [NumNodes*NumPorts-1:0]        r_in_valid, r_out_valid;
  logic [NumNodes*NumPorts*VcIdW-1:0]  r_in_vc, r_out_vc;
  logic [NumNodes*NumPorts*FlitW-1:0]  r_in_flit, r_out_flit;
  logic [NumNodes*NumPorts*NumVcs-1:0] r_in_credit, r_out_credit;
  // Outputs of unconnected mesh edge ports, collected so that lint sees them read.
  logic [NumNodes*NumNetPorts-1:0]     unused_edge;

  for (genvar n = 0; n < NumNodes; n++) begin : gen_node
    localparam int unsigned X = n % SizeX;
    localparam int unsigned Y = n / SizeX;

    assign cfg_own_label[n*LabelW +: LabelW] = LabelW'(snake_label(X, Y, SizeX));
    assign cfg_own_coord[n*3*CoordW +: 3*CoordW] = {CoordW'(0), CoordW'(Y), CoordW'(X)};

    for (genvar p = 0; p < NumNetPorts; p++) begin : gen_port
      localparam bit          Link = (Torus == 1) || mesh_link(X, Y, p, SizeX, SizeY);
      localparam bit          Wrap = (Torus == 1) && !mesh_link(X, Y, p, SizeX, SizeY);
      localparam int unsigned NbrX = nbr_x(X, p, SizeX);
      localparam int unsigned NbrY = nbr_y(Y, p, SizeY);
      localparam int unsigned Nbr  = NbrX + SizeX * NbrY;
      localparam int unsigned Here = n * NumPorts + p;           // this input / output port
      localparam int unsigned There = Nbr * NumPorts + (p ^ 1);  // the neighbour's port toward n

      assign cfg_connected[n*NumNetPorts + p]   = Link;
      assign cfg_is_wrap[n*NumNetPorts + p]     = Wrap;
      assign cfg_is_boundary[n*NumNetPorts + p] = Wrap && (p >= 2);
      assign cfg_nbr_label[(n*NumNetPorts + p)*LabelW +: LabelW] =
          Link ? LabelW'(snake_label(NbrX, NbrY, SizeX)) : '0;

      if (Link) begin : gen_link
        assign r_in_valid[Here]                      = r_out_valid[There];
        assign r_in_vc[Here*VcIdW +: VcIdW]          = r_out_vc[There*VcIdW +: VcIdW];
        assign r_in_flit[Here*FlitW +: FlitW]        = r_out_flit[There*FlitW +: FlitW];
        assign r_out_credit[Here*NumVcs +: NumVcs]   = r_in_credit[There*NumVcs +: NumVcs];
        assign unused_edge[n*NumNetPorts + p]        = 1'b0;
      end else begin : gen_edge
        assign r_in_valid[Here]                      = 1'b0;
        assign r_in_vc[Here*VcIdW +: VcIdW]          = '0;
        assign r_in_flit[Here*FlitW +: FlitW]        = '0;
        assign r_out_credit[Here*NumVcs +: NumVcs]   = '0;
        assign unused_edge[n*NumNetPorts + p]        = ^{r_out_valid[Here], r_out_vc[Here*VcIdW +: VcIdW],
                                                         r_out_flit[Here*FlitW +: FlitW],
                                                         r_in_credit[Here*NumVcs +: NumVcs]};
      end
    end

    // Local ports: the router's ports NumNetPorts.. are node n's slices of the top's vectors.
    localparam int unsigned Loc = n * NumPorts + NumNetPorts;
    assign r_in_valid[Loc +: NumLocal]                       = inj_valid_i[n*NumLocal +: NumLocal];
    assign r_in_vc[Loc*VcIdW +: NumLocal*VcIdW]              = inj_vc_i[n*NumLocal*VcIdW +: NumLocal*VcIdW];
    assign r_in_flit[Loc*FlitW +: NumLocal*FlitW]            = inj_flit_i[n*NumLocal*FlitW +: NumLocal*FlitW];
    assign inj_credit_o[n*NumLocal*NumVcs +: NumLocal*NumVcs] = r_in_credit[Loc*NumVcs +: NumLocal*NumVcs];
    assign ej_valid_o[n*NumLocal +: NumLocal]                = r_out_valid[Loc +: NumLocal];
    assign ej_vc_o[n*NumLocal*VcIdW +: NumLocal*VcIdW]       = r_out_vc[Loc*VcIdW +: NumLocal*VcIdW];
    assign ej_flit_o[n*NumLocal*FlitW +: NumLocal*FlitW]     = r_out_flit[Loc*FlitW +: NumLocal*FlitW];
    assign r_out_credit[Loc*NumVcs +: NumLocal*NumVcs]       = ej_credit_i[n*NumLocal*NumVcs +: NumLocal*NumVcs];

    // The link protocol on node n's ejection links (noc_link_checker: one pool and worms per
    // stream). Every link into a router, network or injection, is checked by the router itself.
    for (genvar l = 0; l < NumLocal; l++) begin : gen_eject_check
      localparam int unsigned Ej = n * NumLocal + l;

      noc_link_checker #(
        .NumVcs    (NumVcs),
        .BufDepth  (BufDepth),
        .Eject     (1),
        .NumStreams(NumPorts * NumVcs)
      ) u_eject_check (
        .clk_i,
        .rst_ni,
        .valid_i (ej_valid_o[Ej]),
        .vc_i    (ej_vc_o[Ej*VcIdW +: VcIdW]),
        .flit_i  (ej_flit_o[Ej*FlitW +: FlitW]),
        .stream_i(ej_stream_o[Ej*StreamW +: StreamW]),
        .credit_i(ej_credit_i[Ej*NumVcs +: NumVcs])
      );
    end

    noc_router #(
      .NumNetPorts(NumNetPorts),
      .NumLocal   (NumLocal),
      .NumVcs     (NumVcs),
      .BufDepth   (BufDepth),
      .LabelW     (LabelW)
    ) u_router (
      .clk_i,
      .rst_ni,
      .own_label_i       (cfg_own_label[n*LabelW +: LabelW]),
      .nbr_label_i       (cfg_nbr_label[n*NumNetPorts*LabelW +: NumNetPorts*LabelW]),
      .port_connected_i  (cfg_connected[n*NumNetPorts +: NumNetPorts]),
      .port_is_wrap_i    (cfg_is_wrap[n*NumNetPorts +: NumNetPorts]),
      .port_is_boundary_i(cfg_is_boundary[n*NumNetPorts +: NumNetPorts]),
      .own_coord_i       (cfg_own_coord[n*3*CoordW +: 3*CoordW]),
      .dim_size_i        (cfg_dim_size),
      .is_torus_i        (cfg_is_torus),
      .num_dims_i        (cfg_num_dims),
      .in_valid_i        (r_in_valid[n*NumPorts +: NumPorts]),
      .in_vc_i           (r_in_vc[n*NumPorts*VcIdW +: NumPorts*VcIdW]),
      .in_flit_i         (r_in_flit[n*NumPorts*FlitW +: NumPorts*FlitW]),
      .in_credit_o       (r_in_credit[n*NumPorts*NumVcs +: NumPorts*NumVcs]),
      .out_valid_o       (r_out_valid[n*NumPorts +: NumPorts]),
      .out_vc_o          (r_out_vc[n*NumPorts*VcIdW +: NumPorts*VcIdW]),
      .out_flit_o        (r_out_flit[n*NumPorts*FlitW +: NumPorts*FlitW]),
      .out_credit_i      (r_out_credit[n*NumPorts*NumVcs +: NumPorts*NumVcs]),
      .eject_stream_o    (ej_stream_o[n*NumLocal*StreamW +: NumLocal*StreamW]),
      .draining_o        (draining_o[n*NumPorts*NumVcs +: NumPorts*NumVcs]),
      .route_drops_o     (route_drops_o[n*noc_pkg::RouteDropsW +: noc_pkg::RouteDropsW]),
      .errors_o          (errors_o[n*noc_pkg::ErrorsW +: noc_pkg::ErrorsW])
    );
  end

endmodule
