// noc_route_pkg: the encodings of the route-compute stage (rtl/noc_route_compute.sv).
//
// A head flit carries a routing mode and a 2-bit VC class; the router decides its output port and
// output class from them (docs/model.md, "Routing functions"; docs/rtl.md, "Route compute"). The
// wire-format package that comes with the router reuses these encodings. Refer to every item as
// `noc_route_pkg::NAME` (yosys 0.23 has no `import`).
package noc_route_pkg;

  /// Width of the routing-mode field of a head flit.
  localparam int unsigned RouteModeW = 3;

  /// Routing mode of a worm: which routing function of the model the router applies. Values 4..7
  /// are reserved; the route-compute stage has no decision for them (valid_o = 0).
  typedef enum logic [RouteModeW-1:0] {
    /// Hamiltonian-path routing R (spec 1.3) on the path labeling; meshes and tori (wraps unused).
    RouteHamPath  = 3'd0,
    /// Hamiltonian-cycle routing R(u, alpha, v) (spec 2.6); 2D tori with an even row count, stars.
    RouteHamCycle = 3'd1,
    /// Dimension-order routing (XY, XYZ), stateless dateline classes on tori; meshes and tori.
    RouteDimOrder = 3'd2,
    /// Straight-line routing of CPR and 3-DBS line worms; meshes only.
    RouteCprLine  = 3'd3
  } route_mode_e;

  /// Width of a VC class (input class of a worm, output class of a decision).
  localparam int unsigned VcClassW = 2;

  /// Hamiltonian-cycle classes alpha/beta (model/routing.hpp): ph = 0, qh = 1, pl = 2, ql = 3.
  /// Bit `HcClassQBit` is the q virtual channel, bit `HcClassLowBit` the low channel network.
  localparam logic [VcClassW-1:0] HcClassPHigh = 2'd0;
  /// Hamiltonian-cycle class qh: high network, q virtual channel (after a boundary hop).
  localparam logic [VcClassW-1:0] HcClassQHigh = 2'd1;
  /// Hamiltonian-cycle class pl: low network, p virtual channel.
  localparam logic [VcClassW-1:0] HcClassPLow  = 2'd2;
  /// Hamiltonian-cycle class ql: low network, q virtual channel (after a boundary hop).
  localparam logic [VcClassW-1:0] HcClassQLow  = 2'd3;
  /// Bit of a Hamiltonian-cycle class that is set for q (qh, ql).
  localparam int unsigned HcClassQBit   = 0;
  /// Bit of a Hamiltonian-cycle class that is set for the low network (pl, ql).
  localparam int unsigned HcClassLowBit = 1;

  /// Dimension-order class on a torus while the wraparound link of the current dimension is still
  /// ahead (the wrap hop included); the only class on meshes.
  localparam logic [VcClassW-1:0] DorClassWrapAhead = 2'd0;
  /// Dimension-order class on a torus once the wraparound link is not ahead.
  localparam logic [VcClassW-1:0] DorClassNoWrap    = 2'd1;

endpackage
