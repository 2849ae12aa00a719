// SPDX-License-Identifier: SHL-0.51
// noc_router: the wormcast router top, instances of the router stages and the wires between them
// (docs/rtl.md, "Router top"; the sub-blocks in docs/rtl-modules.md, "The router top's sub-blocks").
//
// Input-queued, credit-based wormhole router with NumNetPorts network ports (numbered as in
// docs/model.md) followed by NumLocal local port pairs (injection input, ejection output). Port
// index p < NumNetPorts is a network port, NumNetPorts + l is local pair l, on both sides.
// Per input port p (gen_in):
//   u_input     noc_input_unit: the per-VC buffers in one RAM read by the switch grant, route
//               compute and head decision on the arriving flit, one registered segment per VC
//               (network ports, spawned CPR branches, local copy, class), the credits upstream;
//   u_pick      noc_picked_segment: the segment of the VC the switch allocator's pick selects;
//   gen_vc[v].u_request  noc_switch_request: per input VC, the output VCs its segment takes, its
//               ejection port and its switch requests (all of the segment's outputs, only when
//               every one has a credit).
// Per router:
//   u_config    noc_router_config: the configuration, registered during reset or passed through;
//   u_vc_alloc  noc_vc_allocator: admits a waiting head whose output VCs are free to request the
//               switch; the head takes them in the edge the switch carries it;
//   u_sw_alloc  noc_switch_allocator: final grants (valid bits) and tentative grants and picks
//               (which steer the data: they agree wherever a flit is sent);
//   u_steer     noc_output_steer: per output port, the VC a grant sends on and allocates, and the
//               ejection streams;
//   u_traversal noc_switch_traversal: the switch-traversal registers, the crossbar and the head
//               rewrite, the cycle after the grant;
//   u_status    noc_router_status: the drained-worm count and the sticky errors.
// Per network output port o (gen_out): u_output, noc_output_unit (output VCs, downstream credits,
// the link's valid and VC). Per ejection port l (gen_eject): u_eject, noc_eject_unit (one credit
// pool, the link's valid and stream). Per input link (gen_link_check): u_link_check,
// noc_link_checker (simulation only).
// An uncontended head spends one cycle in this router after the cycle it arrives in (docs/rtl.md,
// "Latency: the pipeline"). Every output is driven from registers (the RAM output and
// switch-traversal registers, the output and ejection units' valid, VC and stream registers, the
// input units' credit registers; the spawned branches' rewritten dest also reads the
// configuration, held after reset): no combinational path from any link or credit input to any
// output, so routers can be wired to each other in C++ and evaluated in any order.
// Configuration inputs are held after reset, or, with RegisterConfig = 1, captured while rst_ni
// is low (at least one clock edge) and free afterwards (meanings in noc_route_compute).
`include "noc_assert.svh"

module noc_router #(
  /// Network ports, 3..6 (route compute's NumPorts); ports beyond the network's degree are left
  /// unconnected (port_connected_i = 0, inputs idle).
  parameter int unsigned NumNetPorts = 4,
  /// Local port pairs (injection input and ejection output) after the network ports (>= 1).
  parameter int unsigned NumLocal = 1,
  /// Virtual channels per port, input and output: 1, 2 or 4 (a power of two: a worm of class c
  /// takes VC c mod NumVcs). The VC-class plan needs 4 on 2D networks, 2 elsewhere (docs/rtl.md
  /// "VC-class plan").
  parameter int unsigned NumVcs = 2,
  /// Flits per input VC buffer, and the credits per output VC after reset (>= 1): every router
  /// of a network uses the same BufDepth.
  parameter int unsigned BufDepth = 4,
  /// Width of a Hamiltonian label (<= noc_pkg::AddrW).
  parameter int unsigned LabelW = 16,
  /// 1: configuration registers loaded while rst_ni is low (the inputs may change afterwards;
  /// faster in Verilator); 0: the configuration inputs are used directly and must be held.
  parameter int unsigned RegisterConfig = 0,
  /// Routing modes implemented (noc_pkg::AllModes, bit m = route_mode_e m): an FPGA build that
  /// needs fewer modes leaves the others out and saves their logic; their worms get no decision
  /// and are drained (route_drops_o), like reserved modes (docs/rtl.md, "Routing modes per build").
  parameter int unsigned Modes = noc_pkg::AllModes,
  /// Ports on each side: network then local. Derived, do not override.
  localparam int unsigned NumPorts = NumNetPorts + NumLocal,
  /// Width of a VC id on a link. Derived, do not override.
  localparam int unsigned VcIdW = (NumVcs > 1) ? $clog2(NumVcs) : 1,
  /// Width of a flit (noc_pkg::FlitW). Derived, do not override.
  localparam int unsigned FlitW = noc_pkg::FlitW,
  /// Width of one coordinate (noc_pkg::CoordW). Derived, do not override.
  localparam int unsigned CoordW = noc_pkg::CoordW,
  /// Width of one dimension's size, 1..2**CoordW: one bit more than a coordinate (a side of 64
  /// nodes has coordinates 0..63). Derived, do not override.
  localparam int unsigned DimSizeW = CoordW + 1,
  /// Width of an ejection stream id, a router input VC id (port * NumVcs + VC). Derived, do not
  /// override.
  localparam int unsigned StreamW = (NumPorts * NumVcs > 1) ? $clog2(NumPorts * NumVcs) : 1
) (
  /// Clock.
  input  logic                           clk_i,
  /// Asynchronous active-low reset: buffers empty, every VC free, BufDepth credits per output VC.
  input  logic                           rst_ni,

  // Configuration of this router (RegisterConfig: held, or captured while rst_ni is low), passed
  // to every input unit's route compute (meanings in noc_route_compute).
  /// Own Hamiltonian label.
  input  logic [LabelW-1:0]              own_label_i,
  /// Label of the neighbour on network port p in bits [p*LabelW +: LabelW].
  input  logic [NumNetPorts*LabelW-1:0]  nbr_label_i,
  /// Network port p has a neighbour.
  input  logic [NumNetPorts-1:0]         port_connected_i,
  /// Network port p is a torus wraparound link.
  input  logic [NumNetPorts-1:0]         port_is_wrap_i,
  /// Network port p is a boundary link of the Hamiltonian-cycle labeling.
  input  logic [NumNetPorts-1:0]         port_is_boundary_i,
  /// Own coordinates x, y, z in bits [d*CoordW +: CoordW].
  input  logic [3*CoordW-1:0]            own_coord_i,
  /// Network size per dimension x, y, z in bits [d*DimSizeW +: DimSizeW].
  input  logic [3*DimSizeW-1:0]          dim_size_i,
  /// The network is a torus.
  input  logic                           is_torus_i,
  /// Dimensions of a mesh or torus (2 or 3), 0 for a star graph.
  input  logic [1:0]                     num_dims_i,

  // Input links (port p: from the neighbour on network port p, or local injection).
  /// A flit arrives on port p (its VC must have room: the sender holds a credit).
  input  logic [NumPorts-1:0]            in_valid_i,
  /// VC of port p's flit in bits [p*VcIdW +: VcIdW].
  input  logic [NumPorts*VcIdW-1:0]      in_vc_i,
  /// Flit of port p (noc_pkg::flit_t) in bits [p*FlitW +: FlitW].
  input  logic [NumPorts*FlitW-1:0]      in_flit_i,
  /// Credit back to port p's sender for VC v, bit p*NumVcs+v (registered).
  output logic [NumPorts*NumVcs-1:0]     in_credit_o,

  // Output links (port p: to the neighbour on network port p, or local ejection).
  /// A flit leaves on port p (registered).
  output logic [NumPorts-1:0]            out_valid_o,
  /// VC of port p's flit in bits [p*VcIdW +: VcIdW] (registered); 0 on ejection ports.
  output logic [NumPorts*VcIdW-1:0]      out_vc_o,
  /// Flit of port p in bits [p*FlitW +: FlitW]: the input buffer RAM's output register through
  /// the crossbar and the head rewrite, whose selects are registered (from registers only); zero
  /// while out_valid_o[p] is low.
  output logic [NumPorts*FlitW-1:0]      out_flit_o,
  /// Credit from port p's receiver for VC v, bit p*NumVcs+v (a buffer slot was freed there). An
  /// ejection port's credits are one pool for the port, returned on bit p*NumVcs (VC 0).
  input  logic [NumPorts*NumVcs-1:0]     out_credit_i,
  /// Stream of the flit on ejection port NumNetPorts + l, bits [l*StreamW +: StreamW]: the input
  /// VC it comes from. Flits of different worms interleave per flit on an ejection port; the
  /// receiver reassembles per stream (registered, with out_valid_o).
  output logic [NumLocal*StreamW-1:0]    eject_stream_o,

  /// Status: input VC p*NumVcs+v drains a worm whose head had no route decision (a mode left out
  /// by Modes, a reserved mode, a dest outside the network, a bad source route, a misconfigured
  /// router): its flits are dropped to the tail, nothing is forwarded. From registers only.
  output logic [NumPorts*NumVcs-1:0]     draining_o,
  /// Status: worms drained since reset, sticky, saturating at 2**RouteDropsW - 1 (registered).
  output logic [noc_pkg::RouteDropsW-1:0] route_drops_o,
  /// Status: sticky protocol errors since reset, bits noc_pkg::Err* (a flit into a full buffer, a
  /// credit into a full counter or ejection pool; registered). What the assertions guard in
  /// simulation, kept in hardware, where the flit or credit is dropped.
  output logic [noc_pkg::ErrorsW-1:0]    errors_o
);

  // The flit width (noc_pkg::DataW, the NOC_DATA_W define) must name one of noc_pkg's two head
  // layouts. Verilator stops earlier, at noc_pkg's data_width_check_e; this stops yosys.
  if (noc_pkg::DataW != 32 && noc_pkg::DataW != 64) begin : gen_data_width_check
    $error("noc_router: NOC_DATA_W (%0d) must be 32 or 64, the data widths of noc_pkg's head layouts", noc_pkg::DataW);
  end

  if (Modes == 0 || Modes > noc_pkg::AllModes) begin : gen_modes_check
    $error("noc_router: Modes (%0d) must be 1..%0d, a set of routing modes (bit m = noc_pkg::route_mode_e m)",
           Modes, noc_pkg::AllModes);
  end

  // A worm of class c takes VC c mod NumVcs, the class's low bits: NumVcs must be a power of two
  // no wider than the class field.
  if (NumVcs != 1 && NumVcs != 2 && NumVcs != 4) begin : gen_vcs_check
    $error("noc_router: NumVcs (%0d) must be 1, 2 or 4 (a class c takes VC c mod NumVcs)", NumVcs);
  end

  /// Input VCs (ids port * NumVcs + VC, docs/rtl-modules.md "The router stages"); network output VCs.
  localparam int unsigned NumInVcs     = NumPorts * NumVcs;
  localparam int unsigned NumNetOutVcs = NumNetPorts * NumVcs;
  localparam int unsigned ClassW       = noc_pkg::ClassW;
  localparam int unsigned OwnerW       = (NumInVcs > 1) ? $clog2(NumInVcs) : 1;
  localparam int unsigned CountW       = $clog2(BufDepth + 1);
  localparam int unsigned CfgW         = (NumNetPorts + 1) * LabelW + 3 * NumNetPorts + 3 * CoordW
                                         + 3 * DimSizeW + 3;

  // The configuration (noc_router_config), unpacked per field.
  logic [CfgW-1:0]               cfg;
  logic [LabelW-1:0]             cfg_own_label;
  logic [NumNetPorts*LabelW-1:0] cfg_nbr_label;
  logic [NumNetPorts-1:0]        cfg_port_connected, cfg_port_is_wrap, cfg_port_is_boundary;
  logic [3*CoordW-1:0]           cfg_own_coord;
  logic [3*DimSizeW-1:0]         cfg_dim_size;
  logic                          cfg_is_torus;
  logic [1:0]                    cfg_num_dims;

  // Per input VC J: its segment and front flit (noc_input_unit), its requests.
  logic [NumInVcs*NumNetPorts-1:0] seg_net, seg_spawn;
  logic [NumInVcs*ClassW-1:0]      seg_class;
  logic [NumInVcs-1:0]             seg_eject, seg_shift, seg_lead, seg_routed;
  logic [NumInVcs-1:0]             front_tail;  // the VC's front flit is a tail
  logic [NumInVcs-1:0]             drop_worm;   // the VC's head got no decision this cycle
  logic [NumInVcs-1:0]             va_req;      // a head waiting for its output VCs
  logic [NumInVcs-1:0]             va_ok;       // ... which it may take: it may request the switch
  logic [NumInVcs-1:0]             sa_req;      // the front flit may leave
  logic [NumInVcs*NumNetOutVcs-1:0] va_target;  // the output VCs the segment takes
  logic [NumInVcs*NumPorts-1:0]    sw_req;      // switch requests per output port (noc_switch_request)

  // Per input port: the flit its grant read at the last edge, and the VC the switch picks.
  logic [NumPorts*FlitW-1:0]       read_flit;
  logic [NumPorts-1:0]             buffer_overflow;  // a flit into a full buffer, dropped
  logic [NumInVcs-1:0]             sa_pick;     // the tentative pick: one VC per input or none
  logic [NumInVcs-1:0]             sa_gnt;      // the final grant: the VC whose flit the grant reads
  // The picked VC's segment per input (noc_picked_segment).
  logic [NumPorts-1:0]             pick_lead, pick_tail, pick_shift, pick_takes;
  logic [NumPorts*ClassW-1:0]      pick_class;
  logic [NumPorts*NumNetPorts-1:0] pick_spawn;
  logic [NumPorts*StreamW-1:0]     pick_stream;
  logic [NumPorts*NumNetPorts*VcIdW-1:0] pick_net_vc;  // its output VC on each network port

  // Switch grants: input i to output o, bit o*NumPorts+i.
  logic [NumPorts*NumPorts-1:0]    out_gnt;     // final
  logic [NumPorts*NumPorts-1:0]    tent_gnt;    // tentative: steer the picked segments' data
  logic [NumPorts*NumPorts-1:0]    unused_in_gnt_out;
  logic [NumPorts-1:0]             xbar_valid;  // output o carries a flit (granted at the last edge)

  // Output side: network output VCs and ejection ports.
  logic [NumNetOutVcs-1:0]         allocated, credit_avail, alloc, send;
  logic [NumNetOutVcs*OwnerW-1:0]  alloc_owner, unused_owner;
  logic [NumNetOutVcs*CountW-1:0]  unused_credit_count;
  logic [NumNetPorts-1:0]          out_tail;    // the flit a network port sends is a tail
  logic [NumNetPorts-1:0]          credit_overflow;
  logic [NumLocal-1:0]             ej_credit, ej_send, ej_credit_overflow;
  logic [NumLocal*StreamW-1:0]     ej_stream;
  logic [NumLocal*CountW-1:0]      unused_ej_count;

  // ---------------------------------------------------------------------------------------------
  // Configuration.

  noc_router_config #(
    .Width   (CfgW),
    .Register(RegisterConfig)
  ) u_config (
    .clk_i,
    .rst_ni,
    .cfg_i({own_label_i, nbr_label_i, port_connected_i, port_is_wrap_i, port_is_boundary_i, own_coord_i,
            dim_size_i, is_torus_i, num_dims_i}),
    .cfg_o(cfg)
  );
  assign {cfg_own_label, cfg_nbr_label, cfg_port_connected, cfg_port_is_wrap, cfg_port_is_boundary, cfg_own_coord,
          cfg_dim_size, cfg_is_torus, cfg_num_dims} = cfg;

  // ---------------------------------------------------------------------------------------------
  // Input ports.

  for (genvar i = 0; i < NumPorts; i++) begin : gen_in
    noc_input_unit #(
      .NumPorts(NumNetPorts),
      .InPort  (i),
      .NumVcs  (NumVcs),
      .BufDepth(BufDepth),
      .LabelW  (LabelW),
      .Modes   (Modes)
    ) u_input (
      .clk_i,
      .rst_ni,
      .own_label_i       (cfg_own_label),
      .nbr_label_i       (cfg_nbr_label),
      .port_connected_i  (cfg_port_connected),
      .port_is_wrap_i    (cfg_port_is_wrap),
      .port_is_boundary_i(cfg_port_is_boundary),
      .own_coord_i       (cfg_own_coord),
      .dim_size_i        (cfg_dim_size),
      .is_torus_i        (cfg_is_torus),
      .num_dims_i        (cfg_num_dims),
      .valid_i           (in_valid_i[i]),
      .vc_i              (in_vc_i[i*VcIdW +: VcIdW]),
      .flit_i            (in_flit_i[i*FlitW +: FlitW]),
      .credit_o          (in_credit_o[i*NumVcs +: NumVcs]),
      .net_o             (seg_net[i*NumVcs*NumNetPorts +: NumVcs*NumNetPorts]),
      .spawn_o           (seg_spawn[i*NumVcs*NumNetPorts +: NumVcs*NumNetPorts]),
      .eject_o           (seg_eject[i*NumVcs +: NumVcs]),
      .class_o           (seg_class[i*NumVcs*ClassW +: NumVcs*ClassW]),
      .shift_o           (seg_shift[i*NumVcs +: NumVcs]),
      .lead_o            (seg_lead[i*NumVcs +: NumVcs]),
      .routed_o          (seg_routed[i*NumVcs +: NumVcs]),
      .draining_o        (draining_o[i*NumVcs +: NumVcs]),
      .drop_worm_o       (drop_worm[i*NumVcs +: NumVcs]),
      .va_req_o          (va_req[i*NumVcs +: NumVcs]),
      .va_ok_i           (va_ok[i*NumVcs +: NumVcs]),
      .sa_req_o          (sa_req[i*NumVcs +: NumVcs]),
      .sa_gnt_i          (sa_gnt[i*NumVcs +: NumVcs]),
      .front_tail_o      (front_tail[i*NumVcs +: NumVcs]),
      .flit_o            (read_flit[i*FlitW +: FlitW]),
      .overflow_o        (buffer_overflow[i])
    );

    for (genvar v = 0; v < NumVcs; v++) begin : gen_vc
      localparam int unsigned J = i * NumVcs + v;
      noc_switch_request #(
        .NumNetPorts(NumNetPorts),
        .NumLocal   (NumLocal),
        .NumVcs     (NumVcs),
        .InPort     (i)
      ) u_request (
        .clk_i,
        .rst_ni,
        .net_i         (seg_net[J*NumNetPorts +: NumNetPorts]),
        .spawn_i       (seg_spawn[J*NumNetPorts +: NumNetPorts]),
        .class_i       (seg_class[J*ClassW +: ClassW]),
        .eject_i       (seg_eject[J]),
        .routed_i      (seg_routed[J]),
        .va_req_i      (va_req[J]),
        .sa_req_i      (sa_req[J]),
        .credit_i      (credit_avail),
        .eject_credit_i(ej_credit),
        .target_o      (va_target[J*NumNetOutVcs +: NumNetOutVcs]),
        .req_o         (sw_req[J*NumPorts +: NumPorts])
      );
    end

    noc_picked_segment #(
      .NumNetPorts(NumNetPorts),
      .NumLocal   (NumLocal),
      .NumVcs     (NumVcs),
      .InPort     (i)
    ) u_pick (
      .pick_i  (sa_pick[i*NumVcs +: NumVcs]),
      .va_req_i(va_req[i*NumVcs +: NumVcs]),
      .lead_i  (seg_lead[i*NumVcs +: NumVcs]),
      .tail_i  (front_tail[i*NumVcs +: NumVcs]),
      .shift_i (seg_shift[i*NumVcs +: NumVcs]),
      .class_i (seg_class[i*NumVcs*ClassW +: NumVcs*ClassW]),
      .spawn_i (seg_spawn[i*NumVcs*NumNetPorts +: NumVcs*NumNetPorts]),
      .takes_o (pick_takes[i]),
      .lead_o  (pick_lead[i]),
      .tail_o  (pick_tail[i]),
      .shift_o (pick_shift[i]),
      .class_o (pick_class[i*ClassW +: ClassW]),
      .spawn_o (pick_spawn[i*NumNetPorts +: NumNetPorts]),
      .stream_o(pick_stream[i*StreamW +: StreamW]),
      .net_vc_o(pick_net_vc[i*NumNetPorts*VcIdW +: NumNetPorts*VcIdW])
    );
  end

  // ---------------------------------------------------------------------------------------------
  // Allocation: VC allocation (network ports only: ejection is not allocated, noc_eject_unit)
  // folded into the switch allocation.

  noc_vc_allocator #(
    .NumIn (NumPorts),
    .NumOut(NumNetPorts),
    .NumVcs(NumVcs)
  ) u_vc_alloc (
    .clk_i,
    .rst_ni,
    .req_i   (va_req),
    .target_i(va_target),
    .free_i  (~allocated),
    .ok_o    (va_ok),
    .taken_i (sa_gnt & va_req)
  );

  noc_switch_allocator #(
    .NumIn (NumPorts),
    .NumOut(NumPorts),
    .NumVcs(NumVcs)
  ) u_sw_alloc (
    .clk_i,
    .rst_ni,
    .req_i       (sw_req),
    .in_gnt_vc_o (sa_gnt),
    .in_gnt_out_o(unused_in_gnt_out),
    .out_gnt_o   (out_gnt),
    .pick_vc_o   (sa_pick),
    .tent_gnt_o  (tent_gnt)
  );

  noc_output_steer #(
    .NumNetPorts(NumNetPorts),
    .NumLocal   (NumLocal),
    .NumVcs     (NumVcs)
  ) u_steer (
    .clk_i,
    .rst_ni,
    .out_gnt_i     (out_gnt),
    .tent_gnt_i    (tent_gnt),
    .pick_net_vc_i (pick_net_vc),
    .pick_takes_i  (pick_takes),
    .pick_tail_i   (pick_tail),
    .pick_stream_i (pick_stream),
    .send_o        (send),
    .alloc_o       (alloc),
    .alloc_owner_o (alloc_owner),
    .tail_o        (out_tail),
    .eject_send_o  (ej_send),
    .eject_stream_o(ej_stream)
  );

  // ---------------------------------------------------------------------------------------------
  // Switch traversal, the cycle after the grant.

  noc_switch_traversal #(
    .NumNetPorts(NumNetPorts),
    .NumLocal   (NumLocal)
  ) u_traversal (
    .clk_i,
    .rst_ni,
    .out_gnt_i   (out_gnt),
    .tent_gnt_i  (tent_gnt),
    .pick_lead_i (pick_lead),
    .pick_shift_i(pick_shift),
    .pick_class_i(pick_class),
    .pick_spawn_i(pick_spawn),
    .flit_i      (read_flit),
    .dim_size_x_i(cfg_dim_size[0 +: DimSizeW]),
    .own_y_i     (cfg_own_coord[CoordW +: CoordW]),
    .own_z_i     (cfg_own_coord[2*CoordW +: CoordW]),
    .valid_o     (xbar_valid),
    .flit_o      (out_flit_o)
  );

  // ---------------------------------------------------------------------------------------------
  // Output units (network ports) and ejection units (local ports).

  for (genvar o = 0; o < NumNetPorts; o++) begin : gen_out
    noc_output_unit #(
      .NumVcs  (NumVcs),
      .BufDepth(BufDepth),
      .NumInVcs(NumInVcs)
    ) u_output (
      .clk_i,
      .rst_ni,
      .alloc_i          (alloc[o*NumVcs +: NumVcs]),
      .alloc_owner_i    (alloc_owner[o*NumVcs*OwnerW +: NumVcs*OwnerW]),
      .send_i           (send[o*NumVcs +: NumVcs]),
      .tail_i           (out_tail[o]),
      .credit_i         (out_credit_i[o*NumVcs +: NumVcs]),
      .allocated_o      (allocated[o*NumVcs +: NumVcs]),
      .owner_o          (unused_owner[o*NumVcs*OwnerW +: NumVcs*OwnerW]),
      .credit_o         (credit_avail[o*NumVcs +: NumVcs]),
      .credit_count_o   (unused_credit_count[o*NumVcs*CountW +: NumVcs*CountW]),
      .valid_o          (out_valid_o[o]),
      .vc_o             (out_vc_o[o*VcIdW +: VcIdW]),
      .credit_overflow_o(credit_overflow[o])
    );

    // In the cycle after a grant the crossbar carries the granted input's flit onto the link,
    // exactly while the link is valid.
    `NOC_ASSERT(LinkValidIsCrossbarFlit_A, out_valid_o[o] == xbar_valid[o])
  end

  for (genvar l = 0; l < NumLocal; l++) begin : gen_eject
    localparam int unsigned P = NumNetPorts + l;
    logic [NumVcs-1:0] unused_credit_bits;

    noc_eject_unit #(
      .BufDepth(BufDepth),
      .StreamW (StreamW)
    ) u_eject (
      .clk_i,
      .rst_ni,
      .send_i           (ej_send[l]),
      .stream_i         (ej_stream[l*StreamW +: StreamW]),
      .credit_i         (out_credit_i[P*NumVcs]),
      .credit_o         (ej_credit[l]),
      .credit_count_o   (unused_ej_count[l*CountW +: CountW]),
      .valid_o          (out_valid_o[P]),
      .stream_o         (eject_stream_o[l*StreamW +: StreamW]),
      .credit_overflow_o(ej_credit_overflow[l])
    );
    assign out_vc_o[P*VcIdW +: VcIdW] = '0;
    // An ejection port's credits are one pool, returned on VC 0's bit.
    assign unused_credit_bits = out_credit_i[P*NumVcs +: NumVcs];

    `NOC_ASSERT(EjectLinkValidIsCrossbarFlit_A, out_valid_o[P] == xbar_valid[P])
  end

  // ---------------------------------------------------------------------------------------------
  // Status.

  noc_router_status #(
    .NumNetPorts(NumNetPorts),
    .NumLocal   (NumLocal),
    .NumVcs     (NumVcs)
  ) u_status (
    .clk_i,
    .rst_ni,
    .drop_worm_i            (drop_worm),
    .buffer_overflow_i      (buffer_overflow),
    .credit_overflow_i      (credit_overflow),
    .eject_credit_overflow_i(ej_credit_overflow),
    .route_drops_o,
    .errors_o
  );

  // Outputs of the stages the router does not need (the grant sets are implied by sa_gnt and the
  // segments; the owners and counts are for debugging).
  logic unused;
  assign unused = ^{unused_in_gnt_out, unused_owner, unused_credit_count, unused_ej_count};

  // ---------------------------------------------------------------------------------------------
  // Checks across the sub-blocks (simulation only).

  // A port's final grant reads the granted input's buffer: the flit the crossbar takes from it in
  // the next cycle.
  for (genvar i = 0; i < NumPorts; i++) begin : gen_read_check
    for (genvar o = 0; o < NumPorts; o++) begin : gen_out
      `NOC_ASSERT(OutGrantReadsInput_A, out_gnt[o*NumPorts+i] |-> (sa_gnt[i*NumVcs +: NumVcs] != '0))
    end
  end

`ifndef SYNTHESIS
  // The output steering (per output port, from the picked segments) against the per-input-VC
  // sets, as word operations: a granted input VC sends on the output VC of each of its network
  // ports (its va_target set), and a granted waiting head takes them. With the output units' one
  // flit per port, the ports send and allocate exactly these.
  logic [NumNetOutVcs-1:0] granted_sets, taken_sets;
  always_comb begin
    granted_sets = '0;
    taken_sets   = '0;
    for (int j = 0; j < NumInVcs; j++) begin
      if (sa_gnt[j]) begin
        granted_sets = granted_sets | va_target[j*NumNetOutVcs +: NumNetOutVcs];
        if (va_req[j]) begin
          taken_sets = taken_sets | va_target[j*NumNetOutVcs +: NumNetOutVcs];
        end
      end
    end
  end
  `NOC_ASSERT(SendIsGrantedVc_A, send == granted_sets)
  `NOC_ASSERT(AllocIsTakenSet_A, alloc == taken_sets)
`endif

  // ---------------------------------------------------------------------------------------------
  // The link protocol on every input link, at this router's end (noc_link_checker, docs/rtl.md
  // "The link protocol"): flits only on credits this router gave, VC ids in range, whole worms per
  // VC. Simulation only (synthesis keeps nothing of it), so every simulation that wires routers
  // together, in SystemVerilog or in C++, checks every link into a router.

  for (genvar p = 0; p < NumPorts; p++) begin : gen_link_check
    noc_link_checker #(
      .NumVcs  (NumVcs),
      .BufDepth(BufDepth)
    ) u_link_check (
      .clk_i,
      .rst_ni,
      .valid_i (in_valid_i[p]),
      .vc_i    (in_vc_i[p*VcIdW +: VcIdW]),
      .flit_i  (in_flit_i[p*FlitW +: FlitW]),
      .stream_i(1'b0),
      .credit_i(in_credit_o[p*NumVcs +: NumVcs])
    );
  end

endmodule
