// SPDX-License-Identifier: SHL-0.51
// noc_pkg: the wire format of wormcast, the one SystemVerilog definition of the flit and header
// layout (docs/header-format.md draws it bit by bit). Its C++ mirror is firmware/noc_wire_format.hpp;
// verif/rtl/wire_format_test.cpp proves the two bit-identical through verif/rtl/noc_wire_probe.sv.
//
// The package also holds the routing-mode and VC-class encodings that the head flit carries and
// the route-compute stage (rtl/noc_route_compute.sv) decodes, so that each value is defined once.
//
// Rules of the RTL subset (docs/sv-subset.md) that shape this file:
//   - refer to every item as `noc_pkg::NAME` (yosys 0.23 has no `import`), and write every
//     constant inside a package function as `noc_pkg::NAME` (unqualified, yosys leaves it undriven);
//   - functions assign their result to the function name (no `return`) and work on plain vectors
//     (no struct member access inside a function);
//   - never build packed or unpacked arrays of these structs: several flits cross a module boundary
//     as a flat `logic [N*FlitW-1:0]` vector, converted to `flit_t` in one place;
//   - no casts to these types: assign a vector to a struct-typed signal and read its members.
package noc_pkg;

  // ---------------------------------------------------------------------------------------------
  // Field widths. Every width of the wire format derives from DataW.

  /// Payload bits of a flit (head, address, body and tail flits alike): the flit width of every
  /// router and link, chosen per build with the preprocessor define NOC_DATA_W (32 or 64; default
  /// 64), e.g. `verilator -DNOC_DATA_W=32`, `read_verilog -DNOC_DATA_W=32`. A define, not a module
  /// parameter: the head layout is this package's structs, and yosys 0.23 has neither
  /// parameterized packages nor `parameter type` (docs/sv-subset.md); every router of a network shares
  /// one flit width anyway. docs/header-format.md draws both layouts.
`ifndef NOC_DATA_W
`define NOC_DATA_W 64
`endif
  localparam int unsigned DataW = `NOC_DATA_W;
  /// The compact 32-bit head layout (DataW = 32): narrower `more`, `dest` and coordinates, and a
  /// 2-bit tag in place of {src, tag}; otherwise the 64-bit layout.
  localparam bit Compact = (DataW == 32);
  /// Link flit: {head, tail, data}. The VC id travels beside the flit on the link, not in it.
  localparam int unsigned FlitW = 2 + DataW;
  /// Head field `mode`: the routing mode (route_mode_e).
  localparam int unsigned ModeW = 3;
  /// Head field `network`: the channel network of a Hamiltonian worm (NetworkHigh/NetworkLow).
  localparam int unsigned NetworkW = 1;
  /// Head field `vc_class`: the input VC class of the routing function; also the width of the
  /// route-compute stage's class inputs and outputs.
  localparam int unsigned ClassW = 2;
  /// Head field `cf`: the CPR control field (cf_e).
  localparam int unsigned CfW = 2;
  /// Head field `more`: how many address flits follow the head (0..2**MoreW-1).
  localparam int unsigned MoreW = Compact ? 6 : 12;
  /// Head field `dest` and the payload of an address flit: a label, coordinates or route entries.
  localparam int unsigned AddrW = Compact ? 16 : 20;
  /// One coordinate of a coordinate destination (0..2**CoordW-1 per dimension).
  localparam int unsigned CoordW = Compact ? 5 : 6;
  /// Dimensions of a coordinate destination (x, y, z; z = 0 in 2D).
  localparam int unsigned NumCoords = 3;
  /// Zero bits above z in a coordinate destination.
  localparam int unsigned CoordPadW = AddrW - NumCoords * CoordW;
  /// The source node id inside `ident` (docs/model.md, "Node ids"; at most 2**NodeW nodes); the
  /// compact layout has none (NodeW = 0).
  localparam int unsigned NodeW = Compact ? 0 : 20;
  /// The message tag inside `ident`, chosen by the sender.
  localparam int unsigned TagW = Compact ? 2 : 4;
  /// Head field `ident`: {src, tag}, the sender's identification of the message. Routers carry it
  /// and never read it.
  localparam int unsigned IdentW = NodeW + TagW;

  /// Sum of the head fields. It must equal DataW; the check is `head_width_check_e` below.
  localparam int unsigned HeadFieldsW = ModeW + NetworkW + ClassW + CfW + MoreW + AddrW + IdentW;

  /// Compile-time check that NOC_DATA_W names a layout: when it is neither 32 nor 64 both
  /// enumerators are 0 and Verilator stops with "Overlapping enumeration value" naming
  /// `NocDataWIs32Or64` wherever the package is read. The router also stops yosys with an $error.
  typedef enum logic [0:0] {
    DataWidthCheckBase = 1'b0,
    NocDataWIs32Or64   = 1'(DataW == 32 || DataW == 64)
  } data_width_check_e;

  /// Compile-time check that the head fields fill the data exactly: when HeadFieldsW != DataW both
  /// enumerators are 0, and Verilator stops with "Overlapping enumeration value" wherever the
  /// package is read (every lint run and every verilated model). yosys does not check enum values;
  /// modules that use head_t also check `$bits(head) == DataW` in a generate block with `$error`,
  /// which both tools report (verif/rtl/noc_wire_probe.sv).
  typedef enum logic [0:0] {
    HeadWidthCheckBase = 1'b0,
    HeadFieldsFillData = 1'(HeadFieldsW == DataW)
  } head_width_check_e;

  // ---------------------------------------------------------------------------------------------
  // Routing modes (head field `mode`).

  /// Routing mode of a worm: how routers route it. The route-compute stage implements the four
  /// routing functions of the model (docs/model.md, "Routing functions") and has no decision for
  /// RouteSourceRouted (the router follows the route entries in `dest` instead) or for 5..7.
  typedef enum logic [ModeW-1:0] {
    /// Hamiltonian-path routing R ([1], Definition 2) on the path labeling; meshes and tori (wraps
    /// unused).
    RouteHamPath      = 3'd0,
    /// Hamiltonian-cycle routing R(u, alpha, v) ([2], Section 3.1); 2D tori with an even row count,
    /// stars.
    RouteHamCycle     = 3'd1,
    /// Dimension-order routing (XY, XYZ), stateless dateline classes on tori; meshes and tori.
    RouteDimOrder     = 3'd2,
    /// Straight-line routing of CPR and 3-DBS line worms; meshes only.
    RouteCprLine      = 3'd3,
    /// Source routing: `dest` holds NumRouteEntries route entries, entry 0 the next hop.
    RouteSourceRouted = 3'd4
  } route_mode_e;

  /// Number of routing modes a router can implement (RouteHamPath .. RouteSourceRouted).
  localparam int unsigned NumModes = 5;
  /// A router's `Modes` parameter: bit m set = routing mode m (route_mode_e) implemented. A router
  /// built without a mode has no decision for its worms (they are drained and counted,
  /// route_drops_o), like the reserved modes, and synthesis drops the logic only that mode needs
  /// (docs/rtl.md, "Routing modes per build").
  localparam int unsigned AllModes = (1 << NumModes) - 1;

  /// Width of a router's sticky count of drained worms (noc_router route_drops_o): it saturates at
  /// 2**RouteDropsW - 1 (docs/rtl-modules.md, "Drained worms").
  localparam int unsigned RouteDropsW = 8;

  /// State of an input VC (noc_input_unit): which part of a worm its FIFO front is in.
  typedef enum logic [1:0] {
    /// Between worms: the front, if any, is a head waiting for a route decision.
    VcIdle    = 2'd0,
    /// A segment is decided and registered; the VC waits for its output VCs.
    VcRouted  = 2'd1,
    /// The segment's flits are leaving (its output VCs are held until the segment ends).
    VcActive  = 2'd2,
    /// A promote segment ended: the front is the address flit to decide next.
    VcReroute = 2'd3
  } vc_state_e;

  /// What the next flit to arrive on an input VC is (noc_input_unit's arrival tracker): the flits
  /// that need a decision (heads, and address flits that a promotion reroutes) are decided as they
  /// arrive.
  typedef enum logic [1:0] {
    /// The next flit starts a worm: a head, decided in the class it carries.
    ArriveHead    = 2'd0,
    /// The next flit is an address flit a promote segment reroutes: decided in the class its worm
    /// arrived in.
    ArriveAddress = 2'd1,
    /// The next flit follows its segment's lead without a decision (body flits, a drained worm,
    /// the address flit of a source-route regroup).
    ArriveBody    = 2'd2
  } arrival_e;

  /// Width of a router's sticky error flags (noc_router errors_o): protocol errors the hardware
  /// survives by dropping a flit or a credit, which the assertions catch in simulation but a
  /// netlist would otherwise hide (docs/rtl-modules.md, "Sticky errors and cover points"). Each
  /// bit, once set, stays set until reset.
  localparam int unsigned ErrorsW = 3;
  /// errors_o bit: a flit arrived for a full input VC buffer and was lost (its sender spent a
  /// credit it did not have).
  localparam int unsigned ErrBufferOverflow = 0;
  /// errors_o bit: a credit came back to a network output VC whose counter was full, and was lost.
  localparam int unsigned ErrCreditOverflow = 1;
  /// errors_o bit: a credit came back to an ejection port whose pool was full, and was lost.
  localparam int unsigned ErrEjectCreditOverflow = 2;

  // ---------------------------------------------------------------------------------------------
  // Channel networks (head field `network`, Hamiltonian modes; 0 in every other mode).

  /// The high channel network: labels rise along the route.
  localparam logic [NetworkW-1:0] NetworkHigh = 1'b1;
  /// The low channel network: labels fall along the route.
  localparam logic [NetworkW-1:0] NetworkLow  = 1'b0;

  // ---------------------------------------------------------------------------------------------
  // VC classes (head field `vc_class`, and the route-compute stage's input and output class).

  /// Hamiltonian-cycle classes alpha/beta (model/routing.hpp): ph = 0, qh = 1, pl = 2, ql = 3.
  /// Bit `HcClassQBit` is the q virtual channel, bit `HcClassLowBit` the low channel network.
  localparam logic [ClassW-1:0] HcClassPHigh = 2'd0;
  /// Hamiltonian-cycle class qh: high network, q virtual channel (after a boundary hop).
  localparam logic [ClassW-1:0] HcClassQHigh = 2'd1;
  /// Hamiltonian-cycle class pl: low network, p virtual channel.
  localparam logic [ClassW-1:0] HcClassPLow  = 2'd2;
  /// Hamiltonian-cycle class ql: low network, q virtual channel (after a boundary hop).
  localparam logic [ClassW-1:0] HcClassQLow  = 2'd3;
  /// Bit of a Hamiltonian-cycle class that is set for q (qh, ql).
  localparam int unsigned HcClassQBit   = 0;
  /// Bit of a Hamiltonian-cycle class that is set for the low network (pl, ql).
  localparam int unsigned HcClassLowBit = 1;

  /// Hamiltonian-path class of the high channel network (labels rise): VC 0.
  localparam logic [ClassW-1:0] HpClassHigh = 2'd0;
  /// Hamiltonian-path class of the low channel network (labels fall): VC 1, apart from the high
  /// network, as the VC-class plan needs on 2D meshes (docs/rtl.md "VC-class plan").
  localparam logic [ClassW-1:0] HpClassLow  = 2'd1;

  /// Class of a branch a PCP spine router spawns into +X / -X (docs/rtl.md, "VC-class plan", the
  /// branches): the VCs of xy-path's column paths that advance left (3) and right (2), which never
  /// move the other way along X, so a branch's channels carry only branches.
  localparam logic [ClassW-1:0] BranchClassPlusX  = 2'd3;
  localparam logic [ClassW-1:0] BranchClassMinusX = 2'd2;

  /// Dimension-order class on a torus while the wraparound link of the current dimension is still
  /// ahead (the wrap hop included); the only class on meshes.
  localparam logic [ClassW-1:0] DorClassWrapAhead = 2'd0;
  /// Dimension-order class on a torus once the wraparound link is not ahead.
  localparam logic [ClassW-1:0] DorClassNoWrap    = 2'd1;

  // ---------------------------------------------------------------------------------------------
  // CPR control field (head field `cf`; 00 in every mode but RouteCprLine).

  /// What the routers of a CPR line do with the worm ([3] Fig. 1, reading A;
  /// model/cpr_broadcast.hpp). The addressed router (dest) always delivers and absorbs the worm,
  /// whatever the field. A router on the line that is not addressed:
  typedef enum logic [CfW-1:0] {
    /// 00: passes the worm on (ordinary unicast transit).
    CfUnicastTransit = 2'b00,
    /// 01: delivers a copy and stops the worm there.
    CfDeliverStop    = 2'b01,
    /// 10: passes the worm on without a copy.
    CfPassOnly       = 2'b10,
    /// 11: delivers a copy and passes the worm on.
    CfDeliverPass    = 2'b11
  } cf_e;

  // ---------------------------------------------------------------------------------------------
  // Source-route entries (dest of a RouteSourceRouted head, and its address flits).

  /// Bits of one route entry: {deliver, port}.
  localparam int unsigned RouteEntryW = 4;
  /// Route entries in one dest field (5, compact 4); entry i sits at bits
  /// [RouteEntryW*i +: RouteEntryW].
  localparam int unsigned NumRouteEntries = AddrW / RouteEntryW;
  /// Bits of the port of a route entry: a network port (docs/model.md) or RoutePortEnd.
  localparam int unsigned RoutePortW = 3;
  /// Port value "end": the worm is ejected here and goes no further.
  localparam logic [RoutePortW-1:0] RoutePortEnd = 3'd7;
  /// An unused entry (deliver = 1, port = end): entries after the last one, and the entry shifted
  /// in at the top when a router consumes entry 0.
  localparam logic [RouteEntryW-1:0] RouteEntryUnused = 4'b1111;

  /// Compile-time check (as head_width_check_e) that the route entries fill the dest field exactly.
  typedef enum logic [0:0] {
    RouteWidthCheckBase  = 1'b0,
    RouteEntriesFillDest = 1'(NumRouteEntries * RouteEntryW == AddrW)
  } route_width_check_e;

  // ---------------------------------------------------------------------------------------------
  // Flit types.

  /// Head flit data, MSB first. 64-bit: [63:61] mode, [60] network, [59:58] vc_class, [57:56] cf,
  /// [55:44] more, [43:24] dest, [23:0] ident = {src [23:4], tag [3:0]}. Compact 32-bit: [31:29]
  /// mode, [28] network, [27:26] vc_class, [25:24] cf, [23:18] more, [17:2] dest, [1:0] ident = tag.
  typedef struct packed {
    /// Routing mode (route_mode_e; 5..7 reserved).
    logic [ModeW-1:0]    mode;
    /// Channel network of a Hamiltonian worm: NetworkHigh or NetworkLow; 0 in other modes.
    logic [NetworkW-1:0] network;
    /// Input VC class: Hamiltonian cycle HcClass*; dimension order on tori DorClass*; a source-
    /// routed worm's class on every hop; 0 otherwise.
    logic [ClassW-1:0]   vc_class;
    /// CPR control field (cf_e); 00 outside RouteCprLine.
    logic [CfW-1:0]      cf;
    /// Address flits that follow the head.
    logic [MoreW-1:0]    more;
    /// Current destination: a label (Hamiltonian modes), coord_dest() (dimension order, CPR)
    /// or NumRouteEntries route entries (source routed).
    logic [AddrW-1:0]    dest;
    /// {src, tag}: source node id (NodeW bits, none in the compact layout) and the message tag
    /// chosen by the sender (TagW bits). Carried, never read by a router.
    logic [IdentW-1:0]   ident;
  } head_t;

  /// Link flit. `data` is a head_t (head = 1), an address flit (the `more` flits after the head:
  /// head = 0, data a head_t for the rest of the worm, docs/header-format.md) or payload. `tail`
  /// marks the last flit of the worm; a single-flit worm has head = tail = 1.
  typedef struct packed {
    /// First flit of a worm: data is a head_t.
    logic             head;
    /// Last flit of a worm.
    logic             tail;
    /// Head, address or payload data.
    logic [DataW-1:0] data;
  } flit_t;

  /// Coordinate destination, MSB first: CoordPadW zero bits, z, y, x.
  typedef struct packed {
    /// Zero.
    logic [CoordPadW-1:0] pad;
    /// z coordinate (0 in 2D).
    logic [CoordW-1:0]    z;
    /// y coordinate.
    logic [CoordW-1:0]    y;
    /// x coordinate.
    logic [CoordW-1:0]    x;
  } coord_dest_t;

  /// Source-route entry.
  typedef struct packed {
    /// Deliver a copy here as well as forwarding the worm on `port`.
    logic                  deliver;
    /// Network port of the next hop, or RoutePortEnd.
    logic [RoutePortW-1:0] port;
  } route_entry_t;

  // ---------------------------------------------------------------------------------------------
  // Helpers on plain vectors (docs/sv-subset.md: no struct member access inside a function).

  /// The dest field of a coordinate destination (x, y, z).
  function automatic logic [noc_pkg::AddrW-1:0] coord_dest(input logic [noc_pkg::CoordW-1:0] x,
                                                           input logic [noc_pkg::CoordW-1:0] y,
                                                           input logic [noc_pkg::CoordW-1:0] z);
    coord_dest = {{noc_pkg::CoordPadW{1'b0}}, z, y, x};
  endfunction

  /// The x coordinate of a coordinate destination.
  function automatic logic [noc_pkg::CoordW-1:0] coord_dest_x(input logic [noc_pkg::AddrW-1:0] dest);
    coord_dest_x = dest[0 +: noc_pkg::CoordW];
  endfunction

  /// The y coordinate of a coordinate destination.
  function automatic logic [noc_pkg::CoordW-1:0] coord_dest_y(input logic [noc_pkg::AddrW-1:0] dest);
    coord_dest_y = dest[noc_pkg::CoordW +: noc_pkg::CoordW];
  endfunction

  /// The z coordinate of a coordinate destination.
  function automatic logic [noc_pkg::CoordW-1:0] coord_dest_z(input logic [noc_pkg::AddrW-1:0] dest);
    coord_dest_z = dest[2 * noc_pkg::CoordW +: noc_pkg::CoordW];
  endfunction

  /// A dest field is a well-formed coordinate destination: its pad bits are zero.
  function automatic logic coord_dest_ok(input logic [noc_pkg::AddrW-1:0] dest);
    coord_dest_ok = (dest[noc_pkg::NumCoords * noc_pkg::CoordW +: noc_pkg::CoordPadW] == '0);
  endfunction

  /// Entry 0 of a source route: this router's hop, {deliver, port}.
  function automatic logic [noc_pkg::RouteEntryW-1:0] route_next(input logic [noc_pkg::AddrW-1:0] dest);
    route_next = dest[0 +: noc_pkg::RouteEntryW];
  endfunction

  /// The route a router forwards after taking entry 0: entries 1.. move down one place and an
  /// unused entry (RouteEntryUnused) enters at the top.
  function automatic logic [noc_pkg::AddrW-1:0] route_shift(input logic [noc_pkg::AddrW-1:0] dest);
    route_shift = {noc_pkg::RouteEntryUnused, dest[noc_pkg::AddrW-1:noc_pkg::RouteEntryW]};
  endfunction

  /// Every entry of a route is unused: the route is used up (a router then refills it from the
  /// next address flit when `more` > 0).
  function automatic logic route_used_up(input logic [noc_pkg::AddrW-1:0] dest);
    route_used_up = (dest == {noc_pkg::NumRouteEntries{noc_pkg::RouteEntryUnused}});
  endfunction

endpackage
