// SPDX-License-Identifier: SHL-0.51
// noc_route_compute: the route-compute stage of the router. Purely combinational.
//
// For the head flit of a worm it makes exactly the decision of the model's routing function
// (model/*_routing.cpp, docs/model.md "Routing functions"), selected by `mode_i`:
//   RouteHamPath   Hamiltonian-path routing R on the path labeling (wraparound links unused), the
//                  output class the channel network (high 0, low 1: the VC-class plan);
//   RouteHamCycle  Hamiltonian-cycle routing R(u, alpha, v) with the p/q output class beta;
//   RouteDimOrder  dimension-order routing (XY, XYZ), stateless dateline classes on tori;
//   RouteCprLine   straight-line routing of CPR worms (no decision off the line).
// The decision is: eject here, or leave on network port `port_o` in VC class `class_o`, or none
// (`valid_o` = 0) exactly where the model's try_route returns nullopt, where the network does not
// support the mode (the model has no such routing function), for a class the mode does not use, for
// a coordinate destination outside the network (the model's coordinates name no node),
// for RouteSourceRouted (the router follows the worm's route entries instead) and for the reserved
// modes 5..7. The encodings are the head flit's (rtl/noc_pkg.sv, docs/header-format.md).
//
// The two label modes share one datapath: each port qualifies by label comparisons and the best
// neighbour label wins in one noc_label_argmax (lowest port on a tie). Hamiltonian-path routing is
// the "within reach" half of Hamiltonian-cycle routing with no boundary links, searching the high
// network when the destination label is above the own label and the low network otherwise.
// The two coordinate modes share the per-dimension comparisons.
//
// Configuration inputs are loaded once at reset and held; the decision inputs come from the head
// flit. The router registers around this stage. `clk_i` and `rst_ni` exist only to sample the
// assertions (NOC_ASSERT) and drive no logic.
`include "noc_assert.svh"

module noc_route_compute #(
  /// Number of network ports, 3..6, numbered as in docs/model.md: for meshes and tori port 2d is
  /// the + direction and port 2d+1 the - direction of dimension d (so dimensions 0..NumPorts/2-1
  /// exist); for the star graph S_n port i-2 applies generator g_i. Unused ports are unconnected.
  parameter int unsigned NumPorts = 6,
  /// Width of a Hamiltonian label in bits (labels 0..N-1 of an N-node network).
  parameter int unsigned LabelW = 16,
  /// Width of one coordinate in bits (a dimension's size takes one bit more).
  parameter int unsigned CoordW = 8,
  /// Routing modes implemented (noc_pkg::AllModes: bit m = route_mode_e m); a mode left out has no
  /// decision, and synthesis drops the datapath no implemented mode uses.
  parameter int unsigned Modes = noc_pkg::AllModes,
  /// Width of `port_o`. Derived, do not override.
  localparam int unsigned PortW = $clog2(NumPorts),
  /// Width of one dimension's size, 1..2**CoordW. Derived, do not override.
  localparam int unsigned DimSizeW = CoordW + 1
) (
  /// Clock; used only to sample the assertions.
  input  logic                                 clk_i,
  /// Active-low reset; the assertions are disabled while it is low. The configuration inputs must
  /// be stable from the release of reset on.
  input  logic                                 rst_ni,

  // Configuration of this router (constant after reset).
  /// Own Hamiltonian label: the path label on meshes and tori, the cycle label on star graphs (on
  /// 2D tori with an even row count the two coincide).
  input  logic [LabelW-1:0]                    own_label_i,
  /// Label of the neighbour on port p in bits [p*LabelW +: LabelW]; ignored on unconnected ports.
  input  logic [NumPorts*LabelW-1:0]           nbr_label_i,
  /// Port p has a neighbour (0 for a mesh edge port and for ports beyond the network's degree).
  input  logic [NumPorts-1:0]                  port_connected_i,
  /// Port p is a torus wraparound link (Hamiltonian-path routing does not use it).
  input  logic [NumPorts-1:0]                  port_is_wrap_i,
  /// Port p is a boundary link of the Hamiltonian-cycle labeling (used by RouteHamCycle only).
  input  logic [NumPorts-1:0]                  port_is_boundary_i,
  /// Own coordinates x, y, z in bits [d*CoordW +: CoordW] (z = 0 in 2D; unused for star graphs).
  input  logic [3*CoordW-1:0]                  own_coord_i,
  /// Network size per dimension (X, Y, Z) in bits [d*DimSizeW +: DimSizeW]; Z unused in 2D.
  input  logic [3*DimSizeW-1:0]                dim_size_i,
  /// The network is a torus (1) or a mesh or star graph (0).
  input  logic                                 is_torus_i,
  /// Dimensions of a mesh or torus, 2 or 3; 0 for a star graph.
  input  logic [1:0]                           num_dims_i,

  // Decision inputs (from the head flit).
  /// Routing mode of the worm.
  input  noc_pkg::route_mode_e                 mode_i,
  /// Input VC class: ph/qh/pl/ql (noc_pkg::HcClass*) for RouteHamCycle, the dateline class
  /// 0/1 for RouteDimOrder on a torus, the network class 0/1 for RouteHamPath, 0 otherwise.
  input  logic [noc_pkg::ClassW-1:0]           class_i,
  /// Destination label (label modes).
  input  logic [LabelW-1:0]                    dest_label_i,
  /// Destination coordinates in the layout of `own_coord_i` (coordinate modes).
  input  logic [3*CoordW-1:0]                  dest_coord_i,

  /// There is a decision for this state (eject or a port). When low, all other outputs are 0.
  output logic                                 valid_o,
  /// The destination is this node: deliver locally. `port_o` and `class_o` are then 0.
  output logic                                 eject_o,
  /// Output network port when valid and not ejecting.
  output logic [PortW-1:0]                     port_o,
  /// Output VC class when valid and not ejecting: beta for RouteHamCycle, the dateline class on
  /// tori for RouteDimOrder, the channel network for RouteHamPath (noc_pkg::HpClassHigh/Low), 0
  /// otherwise.
  output logic [noc_pkg::ClassW-1:0]           class_o
);

  /// Dimensions that have ports (x, y, z in that order).
  localparam int unsigned NumDims = NumPorts / 2;
  /// The modes this build implements (constant: yosys folds every disabled mode's logic away).
  localparam bit HasHamPath  = ((Modes >> noc_pkg::RouteHamPath) & 1) != 0;
  localparam bit HasHamCycle = ((Modes >> noc_pkg::RouteHamCycle) & 1) != 0;
  localparam bit HasDimOrder = ((Modes >> noc_pkg::RouteDimOrder) & 1) != 0;
  localparam bit HasCprLine  = ((Modes >> noc_pkg::RouteCprLine) & 1) != 0;
  /// Bit of a Hamiltonian-cycle class that marks q (qh, ql).
  localparam int unsigned QBit = noc_pkg::HcClassQBit;
  /// Bit of a Hamiltonian-cycle class that marks the low network (pl, ql).
  localparam int unsigned LowBit = noc_pkg::HcClassLowBit;

  logic is_ham_path, is_ham_cycle, is_grid;
  assign is_ham_path  = (mode_i == noc_pkg::RouteHamPath);
  assign is_ham_cycle = (mode_i == noc_pkg::RouteHamCycle);
  assign is_grid      = (num_dims_i != 2'd0);

  // ---------------------------------------------------------------------------------------------
  // Label modes: Hamiltonian path and Hamiltonian cycle.
  //
  // A port is in the searched channel network iff ((neighbour label > own label) XOR boundary)
  // equals `label_high`. Its neighbour is "within reach" if its label does not pass the
  // destination label (<= dest in the high network, >= dest in the low one). One search picks the
  // largest label (high) or smallest (low), ports within reach first: the best port within reach
  // if there is one (R's cases 1, 2, 4, 5), else the best port overall (cases 3, 6: the cycle
  // successor or predecessor). Hamiltonian-path routing admits only ports within reach, ignores
  // wraparound links and has no boundary links.

  logic                       label_high;    // search the high network (labels rise)
  logic                       label_at_dest;
  logic [NumPorts-1:0]        port_used, port_bnd, port_reach, port_cand;
  logic                       label_found;
  logic [PortW-1:0]           label_port;
  logic [NumPorts-1:0]        label_onehot;
  logic                       label_bnd_hop; // the chosen port is a boundary link

  assign label_high    = is_ham_path ? (own_label_i < dest_label_i) : ~class_i[LowBit];
  assign label_at_dest = (own_label_i == dest_label_i);

  // The configuration's label order: which neighbour labels lie above the own label, and the
  // neighbour labels' order among themselves (the argmax's keys). Every input unit's route compute
  // derives the same bits from the same configuration, so synthesis keeps one copy per router
  // (none with constant configuration), and no head compares labels picked by its candidates.
  logic [NumPorts-1:0]          nbr_above_own;
  logic [NumPorts*NumPorts-1:0] nbr_gt;  // bit p*NumPorts+q: neighbour p's label > neighbour q's
  always_comb begin
    nbr_above_own = '0;
    nbr_gt        = '0;
    for (int p = 0; p < NumPorts; p++) begin
      nbr_above_own[p] = nbr_label_i[p*LabelW +: LabelW] > own_label_i;
      for (int q = 0; q < NumPorts; q++) begin
        if (p != q) nbr_gt[p*NumPorts+q] = nbr_label_i[p*LabelW +: LabelW] > nbr_label_i[q*LabelW +: LabelW];
      end
    end
  end

  always_comb begin
    logic [LabelW-1:0] nbr;
    logic              in_net;
    port_used  = '0;
    port_bnd   = '0;
    port_reach = '0;
    port_cand  = '0;
    for (int p = 0; p < NumPorts; p++) begin
      nbr           = nbr_label_i[p*LabelW +: LabelW];
      port_used[p]  = port_connected_i[p] & ~(is_ham_path & port_is_wrap_i[p]);
      port_bnd[p]   = is_ham_cycle & port_is_boundary_i[p];
      in_net        = (nbr_above_own[p] ^ port_bnd[p]) == label_high;
      port_reach[p] = label_high ? (nbr <= dest_label_i) : (nbr >= dest_label_i);
      port_cand[p]  = port_used[p] & in_net & (port_reach[p] | ~is_ham_path);
    end
  end

  noc_label_argmax #(
    .NumIn(NumPorts)
  ) u_label_argmax (
    .clk_i,
    .rst_ni,
    .min_i   (~label_high),
    .cand_i  (port_cand),
    .prio_i  (port_reach),
    .gt_i    (nbr_gt),
    .valid_o (label_found),
    .idx_o   (label_port),
    .onehot_o(label_onehot)
  );

  assign label_bnd_hop = |(label_onehot & port_bnd);

  // ---------------------------------------------------------------------------------------------
  // Coordinate modes: dimension order and CPR line.
  //
  // Per dimension d with own coordinate c, destination t and size k: on a mesh go toward t; on a
  // torus take the shorter way round, + on a tie: with delta = |t - c|, go - iff 2*delta > k when
  // t > c (the way round through the wrap is shorter) or 2*delta < k when t < c. The wrap link
  // lies ahead exactly when the direction is not straight toward t (+ with t < c, - with t > c):
  // dateline class 0 then, class 1 otherwise.

  logic [NumDims-1:0] dim_differs;  // dimension in use and coordinates differ
  logic [NumDims-1:0] dim_below;    // t < c
  logic [NumDims-1:0] dim_neg;      // take the - port
  logic [NumDims-1:0] dim_no_wrap;  // torus, and the wrap link is not ahead: dateline class 1
  logic               coord_at_dest;
  logic               dor_found;
  logic [PortW-1:0]   dor_port;
  logic               dor_no_wrap;
  logic [PortW-1:0]   cpr_port;

  always_comb begin
    logic [CoordW-1:0]   c, t, delta;
    logic [DimSizeW-1:0] k;
    logic                neg_torus;
    dim_differs = '0;
    dim_below   = '0;
    dim_neg     = '0;
    dim_no_wrap = '0;
    for (int d = 0; d < NumDims; d++) begin
      c              = own_coord_i[d*CoordW +: CoordW];
      t              = dest_coord_i[d*CoordW +: CoordW];
      k              = dim_size_i[d*DimSizeW +: DimSizeW];
      dim_differs[d] = (num_dims_i > 2'(d)) && (c != t);
      dim_below[d]   = (t < c);
      delta          = dim_below[d] ? c - t : t - c;
      neg_torus      = dim_below[d] ? ({delta, 1'b0} < k) : ({delta, 1'b0} > k);
      dim_neg[d]     = is_torus_i ? neg_torus : dim_below[d];
      dim_no_wrap[d] = is_torus_i & (dim_neg[d] == dim_below[d]);
    end
  end

  assign coord_at_dest = (dim_differs == '0);

  // The destination is a node of the network: each coordinate below its dimension's size, and 0
  // in the dimensions the network does not have. Outside it a mesh worm would leave on an
  // unconnected edge port: no decision instead (the input unit drains the worm).
  logic coord_in_net;
  always_comb begin
    logic [CoordW-1:0]   t;
    logic [DimSizeW-1:0] k;
    coord_in_net = 1'b1;
    for (int d = 0; d < 3; d++) begin
      t = dest_coord_i[d*CoordW +: CoordW];
      k = dim_size_i[d*DimSizeW +: DimSizeW];
      if (num_dims_i > 2'(d)) begin
        coord_in_net = coord_in_net && ({1'b0, t} < k);
      end else begin
        coord_in_net = coord_in_net && (t == '0);
      end
    end
  end

  // Dimension order: the lowest dimension that differs. CPR: the one dimension that differs.
  always_comb begin
    dor_found   = 1'b0;
    dor_port    = '0;
    dor_no_wrap = 1'b0;
    cpr_port    = '0;
    for (int d = 0; d < NumDims; d++) begin
      if (dim_differs[d] && !dor_found) begin
        dor_found   = 1'b1;
        dor_port    = PortW'(2 * d) + PortW'(dim_neg[d]);
        dor_no_wrap = dim_no_wrap[d];
      end
      if (dim_differs[d]) begin
        cpr_port = PortW'(2 * d) + PortW'(dim_below[d]);
      end
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Mode selection.

  logic                              mode_ok;   // network supports the mode, class_i is one of its
  logic                              at_dest;
  logic                              has_step;  // a network hop exists (when not at the dest)
  logic [PortW-1:0]                  step_port;
  logic [noc_pkg::ClassW-1:0]        step_class;

  always_comb begin
    mode_ok    = 1'b0;
    at_dest    = 1'b0;
    has_step   = 1'b0;
    step_port  = '0;
    step_class = '0;
    unique case (mode_i)
      noc_pkg::RouteHamPath: begin
        // Either network class: the labels, not the class, choose the network (they agree for
        // every worm the firmware writes; the injection VC is the only use of the head's class).
        mode_ok    = HasHamPath && is_grid && (class_i[1] == 1'b0);
        at_dest    = label_at_dest;
        has_step   = label_found;
        step_port  = label_port;
        step_class = label_high ? noc_pkg::HpClassHigh : noc_pkg::HpClassLow;
      end
      noc_pkg::RouteHamCycle: begin
        // Star graphs, and 2D tori with an even row count Y (bit 0 of the Y size).
        mode_ok    = HasHamCycle && (!is_grid || (is_torus_i && num_dims_i == 2'd2 && !dim_size_i[DimSizeW]));
        at_dest    = label_at_dest;
        // A q-class worm never takes a boundary link a second time: no decision.
        has_step   = label_found && !(class_i[QBit] && label_bnd_hop);
        step_port  = label_port;
        step_class[LowBit] = class_i[LowBit];
        step_class[QBit]   = class_i[QBit] | label_bnd_hop;
      end
      noc_pkg::RouteDimOrder: begin
        mode_ok    = HasDimOrder && is_grid && coord_in_net && (class_i == '0 || (is_torus_i && class_i == 2'd1));
        at_dest    = coord_at_dest;
        has_step   = dor_found;
        step_port  = dor_port;
        step_class = dor_no_wrap ? noc_pkg::DorClassNoWrap : noc_pkg::DorClassWrapAhead;
      end
      noc_pkg::RouteCprLine: begin
        // Class 0: source lines; 3 and 2: the +X and -X branches a PCP spine spawns (class 1 is
        // not written). A line keeps its class.
        mode_ok    = HasCprLine && is_grid && !is_torus_i && coord_in_net;
        at_dest    = coord_at_dest;
        has_step   = $onehot(dim_differs);
        step_port  = cpr_port;
        step_class = class_i;
      end
      default: begin
        // RouteSourceRouted (not routed here) and the reserved modes: no decision.
      end
    endcase
  end

  assign valid_o = mode_ok && (at_dest || has_step);
  assign eject_o = mode_ok && at_dest;
  assign port_o  = (valid_o && !at_dest) ? step_port : '0;
  assign class_o = (valid_o && !at_dest) ? step_class : '0;

  // ---------------------------------------------------------------------------------------------
  // Assertions.

`ifndef SYNTHESIS
  logic [LabelW-1:0] hop_nbr_label;  // label of the neighbour on port_o
  always_comb begin
    hop_nbr_label = '0;
    for (int p = 0; p < NumPorts; p++) begin
      if (port_o == PortW'(p)) begin
        hop_nbr_label = nbr_label_i[p*LabelW +: LabelW];
      end
    end
  end
`endif

  logic hop;  // a network hop is decided
  assign hop = valid_o && !eject_o;

  // Every hop leaves on a connected port.
  `NOC_ASSERT(HopOnConnectedPort_A, hop |-> (32'(port_o) < NumPorts && port_connected_i[port_o]))
  // No decision, or an ejection, leaves the other outputs at 0.
  `NOC_ASSERT(NoDecisionOutputsZero_A, !valid_o |-> (!eject_o && port_o == '0 && class_o == '0))
  `NOC_ASSERT(EjectOutputsZero_A, eject_o |-> (valid_o && port_o == '0 && class_o == '0))
  // Hamiltonian path: the label moves strictly toward the destination label, never past it; the
  // class is the network the labels move in and no wraparound link is used.
  `NOC_ASSERT(HamPathMovesTowardDest_A, (hop && is_ham_path) |->
              ((own_label_i < dest_label_i) ? (hop_nbr_label > own_label_i && hop_nbr_label <= dest_label_i)
                                            : (hop_nbr_label < own_label_i && hop_nbr_label >= dest_label_i)))
  `NOC_ASSERT(HamPathAvoidsWrap_A, (hop && is_ham_path) |-> !port_is_wrap_i[port_o])
  `NOC_ASSERT(HamPathClassIsNetwork_A, (hop && is_ham_path) |->
              (class_o == ((own_label_i < dest_label_i) ? noc_pkg::HpClassHigh : noc_pkg::HpClassLow)))
  // Hamiltonian cycle: the worm stays in its network, a q worm stays q, a boundary hop is a p to q
  // switch.
  `NOC_ASSERT(HamCycleKeepsNetwork_A, (hop && is_ham_cycle) |-> (class_o[LowBit] == class_i[LowBit]))
  `NOC_ASSERT(HamCycleQStaysQ_A, (hop && is_ham_cycle && class_i[QBit]) |-> class_o[QBit])
  `NOC_ASSERT(HamCycleBoundaryHopTurnsQ_A,
              (hop && is_ham_cycle && port_is_boundary_i[port_o]) |-> (class_o[QBit] && !class_i[QBit]))
  // Only the multi-class modes output a class other than 0: dimension order only on a torus, a
  // CPR line the class it travels in, a Hamiltonian path its network.
  `NOC_ASSERT(ClassZeroOutsideCycleAndTorus_A,
              !(is_ham_cycle || is_ham_path || (mode_i == noc_pkg::RouteDimOrder && is_torus_i) ||
                mode_i == noc_pkg::RouteCprLine) |-> class_o == '0)
  `NOC_ASSERT(CprLineKeepsClass_A, (hop && mode_i == noc_pkg::RouteCprLine) |-> class_o == class_i)
  // Configuration: flags only on connected ports, wraparound links only on a torus.
  `NOC_ASSERT(ConfigFlagsOnConnectedPorts_A, ((port_is_wrap_i | port_is_boundary_i) & ~port_connected_i) == '0)
  `NOC_ASSERT(ConfigWrapOnlyOnTorus_A, !is_torus_i |-> (port_is_wrap_i == '0))

  // Own coordinates of dimensions without ports are not used (a destination's are checked to be 0).
  if (NumDims < 3) begin : gen_unused_dims
    logic unused_dims;
    assign unused_dims = ^{own_coord_i[3*CoordW-1:NumDims*CoordW]};
  end

endmodule
