// SPDX-License-Identifier: SHL-0.51
// noc_router: the wormcast router top, composing the router stages (docs/rtl.md, "Router top").
//
// Input-queued, credit-based wormhole router with NumNetPorts network ports (numbered as in
// docs/model.md) followed by NumLocal local port pairs (injection input, ejection output). Port
// index p < NumNetPorts is a network port, NumNetPorts + l is local pair l, on both sides. Each
// input port is a noc_input_unit (per-VC buffers in one RAM read by the switch grant, each flit's
// decision in registers beside it, route compute and head decision on the arriving flit, one
// registered *segment* per VC: network ports, spawned CPR branches, local copy, class); they
// request the switch from one noc_switch_allocator, a routed head only while noc_vc_allocator
// finds its output VCs free to take, and it takes them in the edge the switch carries it (so an
// uncontended head spends one cycle in this router after the cycle it arrives in, docs/rtl.md
// "Latency"); a noc_crossbar moves the granted flits (replicating) onto the links of the
// noc_output_units, which hold the output VCs and the downstream credits, and of the
// noc_eject_units, which are not allocated: flits of several worms interleave on an ejection
// port, tagged with their stream.
// Glue here:
//   - output VC per network port: VC = output class mod NumVcs (a spawned branch's class is its
//     X direction's, noc_pkg::BranchClassPlusX/MinusX),
//     one rule for every mode (docs/rtl.md "VC-class plan");
//   - ejection port per worm: the first local port from (input port mod NumLocal) on with a credit
//     while the worm's first segment is Routed (used at once, registered), kept to its tail;
//   - switch requests: a flit requests all of its segment's outputs only when every one has a
//     credit, so a granted flit leaves on all of them in the same cycle (synchronous replication);
//   - head rewrite after the crossbar, on network ports only: the lead flit of a segment leaves as
//     a head (a promoted address flit gets head = 1) carrying the output class, a source route
//     shifted past this router's entry, or, on a spawned branch, the end of its row as dest;
//   - the switch grant reads the granted flit out of its input buffer's RAM (noc_input_unit); in
//     the next cycle the RAM's output register is the switch-traversal register: the crossbar
//     and the head rewrite, steered by registered copies of the grant and the rewrite controls,
//     take it onto the links (zero on a link without a flit), in step with the output and
//     ejection units' registered valid bits;
//   - what the allocation cycle needs of the granted flits (its tail bit releasing the output VC,
//     the segment's rewrite) is steered by the switch allocator's tentative grants, the valid bits
//     (send, ej_send) by the final ones: the two agree wherever a flit is sent (docs/design-log.md).
// Every output is driven from registers (the RAM output and switch-traversal registers, the output
// and ejection units' valid, VC and stream registers, the input units' credit registers; the
// spawned branches' rewritten dest also reads the configuration, held after reset): no
// combinational path from any link or credit input to any output, so routers can be wired to each
// other in C++ and evaluated in any order.
// Configuration inputs are held after reset, or, with RegisterConfig = 1, captured while rst_ni
// is low (at least one clock edge) and free afterwards (meanings in noc_route_compute).
`include "noc_assert.svh"
`include "noc_registers.svh"

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

  // The configuration the route compute uses. RegisterConfig = 1: captured at every rising edge
  // while rst_ni is low, then held, so the inputs need be valid only during reset and the route
  // compute depends on registers alone (Verilator re-evaluates logic fed by a top-level input on
  // every eval(), twice a cycle, and logic fed by registers only after a clock edge: the
  // verilated routers run about 1.3x faster). RegisterConfig = 0: the inputs themselves, held
  // by the system (no flip-flops: the FPGA default, docs/rtl.md "Router top").
  localparam int unsigned CfgW = (NumNetPorts + 1) * LabelW + 3 * NumNetPorts + 3 * CoordW + 3 * DimSizeW + 3;
  logic [LabelW-1:0]             cfg_own_label;
  logic [NumNetPorts*LabelW-1:0] cfg_nbr_label;
  logic [NumNetPorts-1:0]        cfg_port_connected, cfg_port_is_wrap, cfg_port_is_boundary;
  logic [3*CoordW-1:0]           cfg_own_coord;
  logic [3*DimSizeW-1:0]         cfg_dim_size;
  logic                          cfg_is_torus;
  logic [1:0]                    cfg_num_dims;
  logic [CfgW-1:0]               cfg_in, cfg;
  assign cfg_in = {own_label_i, nbr_label_i, port_connected_i, port_is_wrap_i, port_is_boundary_i, own_coord_i,
                   dim_size_i, is_torus_i, num_dims_i};
  if (RegisterConfig != 0) begin : gen_cfg_regs
    always_ff @(posedge clk_i) begin
      if (!rst_ni) cfg <= cfg_in;
    end
  end else begin : gen_cfg_wires
    assign cfg = cfg_in;
  end
  assign {cfg_own_label, cfg_nbr_label, cfg_port_connected, cfg_port_is_wrap, cfg_port_is_boundary, cfg_own_coord,
          cfg_dim_size, cfg_is_torus, cfg_num_dims} = cfg;

  /// Input VCs (ids port * NumVcs + VC, docs/rtl-modules.md "The router stages"); network output VCs.
  localparam int unsigned NumInVcs     = NumPorts * NumVcs;
  localparam int unsigned NumNetOutVcs = NumNetPorts * NumVcs;
  localparam int unsigned ClassW       = noc_pkg::ClassW;
  localparam int unsigned OwnerW       = (NumInVcs > 1) ? $clog2(NumInVcs) : 1;
  localparam int unsigned CountW       = $clog2(BufDepth + 1);
  localparam int unsigned LocalW       = (NumLocal > 1) ? $clog2(NumLocal) : 1;

  // Output VC of a segment on network port `o` ("VC-class plan"): VC = class mod NumVcs, the
  // class's low VcIdW bits; a spawned CPR branch travels in the class of its X direction
  // (noc_pkg::BranchClassPlusX/MinusX). With one VC everything is VC 0 (ClassHasVc_A).
  function automatic logic [VcIdW-1:0] seg_out_vc(input logic spawned, input logic [31:0] o,
                                                  input logic [VcIdW-1:0] class_low);
    if (NumVcs == 1) seg_out_vc = '0;
    else if (spawned) seg_out_vc = (o == 0) ? noc_pkg::BranchClassPlusX[VcIdW-1:0]
                                            : noc_pkg::BranchClassMinusX[VcIdW-1:0];
    else seg_out_vc = class_low;
  endfunction

  // Input units: per input VC J the current segment (noc_head_decision) and the requests.
  logic [NumInVcs-1:0]             va_req, va_ok, sa_req, sa_gnt;
  logic [NumInVcs-1:0]             sa_pick;  // the switch allocator's tentative VC per input
  logic [NumInVcs*NumNetPorts-1:0] seg_net, seg_spawn;
  logic [NumInVcs-1:0]             seg_eject, seg_shift, seg_lead, seg_routed;
  logic [NumInVcs-1:0]             seg_tail;   // the input VC's front flit is a tail
  logic [NumInVcs-1:0]             drop_worm;  // the input VC's head got no decision this cycle
  logic [NumInVcs*ClassW-1:0]      seg_class;
  logic [NumPorts*FlitW-1:0]       iu_flit;    // per input, the flit its grant read at the last edge

  // Glue, per input VC J: the output VC on each network port, the VC allocator's targets, the
  // ejection port, and the switch requests.
  logic [NumInVcs*NumNetOutVcs-1:0] va_target;
  logic [NumInVcs*LocalW-1:0]      ej_port_d, ej_port_q;
  logic [NumInVcs-1:0]             sa_ok;     // every output of the segment has a credit
  logic [NumInVcs*NumPorts-1:0]    sa_req_set;

  // Network output units and ejection units.
  logic [NumNetOutVcs-1:0]        allocated, credit_avail, alloc, send;
  logic [NumNetOutVcs*OwnerW-1:0] alloc_owner, unused_owner;
  logic [NumNetOutVcs*CountW-1:0] unused_credit_count;
  logic [NumLocal-1:0]            ej_credit, ej_send;
  // Dropped flits and credits this cycle (combinational), kept in errors_o.
  logic [NumPorts-1:0]            buffer_overflow;
  logic [NumNetPorts-1:0]         credit_overflow;
  logic [NumLocal-1:0]            ej_credit_overflow;
  logic [NumLocal*StreamW-1:0]    ej_stream;
  logic [NumLocal*CountW-1:0]     unused_ej_count;

  // Switch allocator and crossbar, and the granted VC's segment per input.
  logic [NumPorts*NumPorts-1:0]    in_gnt_out, out_gnt;
  logic [NumPorts*NumPorts-1:0]    tent_gnt;  // tentative output grants: steer the granted segments
  logic [NumPorts*FlitW-1:0]       xbar_out;
  logic [NumNetPorts*FlitW-1:0]    net_flit;  // xbar_out's network ports after the head rewrite
  logic [NumPorts-1:0]             xbar_valid;  // the crossbar carries a flit (granted at the last edge)
  logic [NumPorts-1:0]             g_lead, g_shift, g_tail;
  logic [NumPorts*ClassW-1:0]      g_class;
  logic [NumPorts*NumNetPorts-1:0] g_spawn;
  logic [NumPorts*StreamW-1:0]     g_stream;
  logic [NumPorts*NumNetPorts*VcIdW-1:0] g_net_vc;  // the picked VC's output VC on each network port
  logic [NumPorts-1:0]             g_takes;   // the picked VC is a head waiting for its output VCs
  noc_pkg::flit_t                  rw_f;      // temporaries of the head rewrite
  noc_pkg::head_t                  rw_h;

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
      .own_label_i(cfg_own_label),
      .nbr_label_i(cfg_nbr_label),
      .port_connected_i(cfg_port_connected),
      .port_is_wrap_i(cfg_port_is_wrap),
      .port_is_boundary_i(cfg_port_is_boundary),
      .own_coord_i(cfg_own_coord),
      .dim_size_i(cfg_dim_size),
      .is_torus_i(cfg_is_torus),
      .num_dims_i(cfg_num_dims),
      .valid_i   (in_valid_i[i]),
      .vc_i      (in_vc_i[i*VcIdW +: VcIdW]),
      .flit_i    (in_flit_i[i*FlitW +: FlitW]),
      .credit_o  (in_credit_o[i*NumVcs +: NumVcs]),
      .net_o     (seg_net[i*NumVcs*NumNetPorts +: NumVcs*NumNetPorts]),
      .spawn_o   (seg_spawn[i*NumVcs*NumNetPorts +: NumVcs*NumNetPorts]),
      .eject_o   (seg_eject[i*NumVcs +: NumVcs]),
      .class_o   (seg_class[i*NumVcs*ClassW +: NumVcs*ClassW]),
      .shift_o   (seg_shift[i*NumVcs +: NumVcs]),
      .lead_o    (seg_lead[i*NumVcs +: NumVcs]),
      .routed_o  (seg_routed[i*NumVcs +: NumVcs]),
      .draining_o(draining_o[i*NumVcs +: NumVcs]),
      .drop_worm_o(drop_worm[i*NumVcs +: NumVcs]),
      .va_req_o  (va_req[i*NumVcs +: NumVcs]),
      .va_ok_i   (va_ok[i*NumVcs +: NumVcs]),
      .sa_req_o  (sa_req[i*NumVcs +: NumVcs]),
      .sa_gnt_i  (sa_gnt[i*NumVcs +: NumVcs]),
      .front_tail_o(seg_tail[i*NumVcs +: NumVcs]),
      .flit_o    (iu_flit[i*FlitW +: FlitW]),
      .overflow_o(buffer_overflow[i])
    );

    for (genvar v = 0; v < NumVcs; v++) begin : gen_vc
      localparam int unsigned J = i * NumVcs + v;
      logic [NumNetPorts-1:0] net, spawn;
      logic [NumNetPorts*VcIdW-1:0] vc;
      logic [ClassW-1:0]      cls;
      logic                   net_credits, ej_ok;
      logic [LocalW-1:0]      ej_now;   // the ejection port this cycle's switch request uses
      assign net   = seg_net[J*NumNetPorts +: NumNetPorts];
      assign spawn = seg_spawn[J*NumNetPorts +: NumNetPorts];
      assign cls   = seg_class[J*ClassW +: ClassW];

      // Output VC per network port (seg_out_vc).
      always_comb begin
        for (int o = 0; o < NumNetPorts; o++) begin
          vc[o*VcIdW +: VcIdW] = seg_out_vc(spawn[o], 32'(o), cls[VcIdW-1:0]);
        end
      end

      always_comb begin
        va_target[J*NumNetOutVcs +: NumNetOutVcs] = '0;
        net_credits = 1'b1;
        for (int o = 0; o < NumNetPorts; o++) begin
          for (int w = 0; w < NumVcs; w++) begin
            if (net[o] && (32'(vc[o*VcIdW +: VcIdW]) == w)) begin
              va_target[J*NumNetOutVcs + o*NumVcs + w] = 1'b1;
              net_credits = net_credits && credit_avail[o*NumVcs+w];
            end
          end
        end
      end

      // Ejection port: while the worm's first segment is Routed, the first local port from
      // (input port mod NumLocal) on that has a credit ("any free one"); held to the worm's tail,
      // so the local copy of a worm with several segments stays on one port.
      always_comb begin
        logic found;
        found = 1'b0;
        ej_port_d[J*LocalW +: LocalW] = ej_port_q[J*LocalW +: LocalW];
        if (seg_routed[J]) begin
          ej_port_d[J*LocalW +: LocalW] = LocalW'(i % NumLocal);
          for (int k = 0; k < NumLocal; k++) begin
            if (!found && ej_credit[(i + k) % NumLocal]) begin
              found = 1'b1;
              ej_port_d[J*LocalW +: LocalW] = LocalW'((i + k) % NumLocal);
            end
          end
        end
      end

      // The switch request reads this cycle's choice (ej_port_d): a first segment's lead may
      // leave in the cycle its VC is Routed, before the choice is registered. With one local
      // port it is 0, written as a constant (through ej_port_d yosys kept the choice's registers).
      assign ej_now = (NumLocal > 1) ? ej_port_d[J*LocalW +: LocalW] : '0;
      always_comb begin
        ej_ok = 1'b0;
        for (int l = 0; l < NumLocal; l++) begin
          if (32'(ej_now) == l) begin
            ej_ok = ej_credit[l];
          end
        end
      end

      // A flit is sent to all of its segment's outputs in one cycle, so it requests the switch
      // only when every one of them has a credit.
      assign sa_ok[J] = net_credits && (!seg_eject[J] || ej_ok);
      always_comb begin
        sa_req_set[J*NumPorts +: NumPorts] = '0;
        for (int o = 0; o < NumNetPorts; o++) begin
          sa_req_set[J*NumPorts+o] = sa_req[J] && sa_ok[J] && net[o];
        end
        for (int l = 0; l < NumLocal; l++) begin
          sa_req_set[J*NumPorts+NumNetPorts+l] = sa_req[J] && sa_ok[J] && seg_eject[J] && (32'(ej_now) == l);
        end
      end

      `NOC_ASSERT(ClassHasVc_A, (va_req[J] && NumVcs == 1) |-> (spawn == '0 && !cls[noc_pkg::HcClassQBit]))
      `NOC_ASSERT(EjectPortInRange_A, 32'(ej_port_q[J*LocalW +: LocalW]) < NumLocal)
    end

    // The segment of the VC this input's tentative pick selects (the VC it sends from whenever
    // it sends; zero when it picks none). It steers only the head rewrite, the output VCs' tail
    // release and the ejection stream, all used only where a flit is sent.
    always_comb begin
      g_lead[i]                                = 1'b0;
      g_tail[i]                                = 1'b0;
      g_shift[i]                               = 1'b0;
      g_class[i*ClassW +: ClassW]              = '0;
      g_spawn[i*NumNetPorts +: NumNetPorts]    = '0;
      g_stream[i*StreamW +: StreamW]           = '0;
      g_net_vc[i*NumNetPorts*VcIdW +: NumNetPorts*VcIdW] = '0;
      g_takes[i]                               = 1'b0;
      for (int v = 0; v < NumVcs; v++) begin
        if (sa_pick[i*NumVcs+v]) begin
          g_takes[i]                            = va_req[i*NumVcs+v];
          g_lead[i]                             = seg_lead[i*NumVcs+v];
          g_tail[i]                             = seg_tail[i*NumVcs+v];
          g_shift[i]                            = seg_shift[i*NumVcs+v];
          g_class[i*ClassW +: ClassW]           = seg_class[(i*NumVcs+v)*ClassW +: ClassW];
          g_spawn[i*NumNetPorts +: NumNetPorts] = seg_spawn[(i*NumVcs+v)*NumNetPorts +: NumNetPorts];
          g_stream[i*StreamW +: StreamW]        = StreamW'(i*NumVcs+v);
        end
      end
      // The picked segment's output VCs, mapped from its class and spawned ports after the pick:
      // one mapping per input instead of a mux of every VC's mapped VCs (about 100 iCE40 LUT4
      // fewer on the 4-VC node, docs/design-log.md).
      for (int o = 0; o < NumNetPorts; o++) begin
        g_net_vc[(i*NumNetPorts+o)*VcIdW +: VcIdW] =
            seg_out_vc(g_spawn[i*NumNetPorts+o], 32'(o), g_class[i*ClassW +: VcIdW]);
      end
    end
  end

  `NOC_FF(ej_port_q, ej_port_d, '0)

  // ---------------------------------------------------------------------------------------------
  // VC allocation (network ports only: ejection is not allocated, noc_eject_unit), folded into
  // the switch allocation: a waiting head whose output VCs are free requests the switch, and a
  // head the switch carries (granted while it waits) takes them.

  noc_vc_allocator #(
    .NumIn (NumPorts),
    .NumOut(NumNetPorts),
    .NumVcs(NumVcs)
  ) u_vc_alloc (
    .clk_i,
    .rst_ni,
    .req_i        (va_req),
    .target_i     (va_target),
    .free_i       (~allocated),
    .ok_o         (va_ok),
    .taken_i      (sa_gnt & va_req)
  );

  // ---------------------------------------------------------------------------------------------
  // Switch allocation and the crossbar.

  noc_switch_allocator #(
    .NumIn (NumPorts),
    .NumOut(NumPorts),
    .NumVcs(NumVcs)
  ) u_sw_alloc (
    .clk_i,
    .rst_ni,
    .req_i       (sa_req_set),
    .in_gnt_vc_o (sa_gnt),
    .in_gnt_out_o(in_gnt_out),
    .out_gnt_o   (out_gnt),
    .pick_vc_o   (sa_pick),
    .tent_gnt_o  (tent_gnt)
  );

  // The switch-traversal registers: per output, the input the final grant gave it, and for a
  // network port the head rewrite of the flit it sends (a lead: the head bit, the class, the
  // shift, or a spawned branch's row end). In the next cycle the crossbar, steered by them, takes
  // each granted input's buffer output (the RAM's output register, noc_input_unit's flit_o) onto
  // the link: no output unit registers the flit again, and a link without a flit shows zero.
  logic [NumPorts*NumPorts-1:0]  xbar_sel_q;
  logic [NumNetPorts-1:0]        rw_lead_d, rw_lead_q, rw_spawn_d, rw_spawn_q, rw_shift_d, rw_shift_q;
  logic [NumNetPorts*ClassW-1:0] rw_class_d, rw_class_q;
  logic [NumNetPorts-1:0]        out_tail;  // the flit a network port sends is a tail
  always_comb begin
    rw_lead_d  = '0;
    rw_spawn_d = '0;
    rw_shift_d = '0;
    rw_class_d = '0;
    out_tail   = '0;
    for (int o = 0; o < NumNetPorts; o++) begin
      for (int i = 0; i < NumPorts; i++) begin
        if (tent_gnt[o*NumPorts+i]) begin
          rw_lead_d[o]                  = rw_lead_d[o] | (g_lead[i] && out_gnt[o*NumPorts +: NumPorts] != '0);
          rw_spawn_d[o]                 = rw_spawn_d[o] | g_spawn[i*NumNetPorts+o];
          rw_shift_d[o]                 = rw_shift_d[o] | g_shift[i];
          rw_class_d[o*ClassW +: ClassW] = rw_class_d[o*ClassW +: ClassW] | g_class[i*ClassW +: ClassW];
          out_tail[o]                   = out_tail[o] | g_tail[i];
        end
      end
    end
  end
  `NOC_FF(xbar_sel_q, out_gnt, '0)
  `NOC_FF(rw_lead_q, rw_lead_d, '0)
  `NOC_FF(rw_spawn_q, rw_spawn_d, '0)
  `NOC_FF(rw_shift_q, rw_shift_d, '0)
  `NOC_FF(rw_class_q, rw_class_d, '0)

  // A port's final grant reads the granted input's buffer: the flit the crossbar takes from it
  // in the next cycle.
  for (genvar i = 0; i < NumPorts; i++) begin : gen_read_check
    for (genvar o = 0; o < NumPorts; o++) begin : gen_out
      `NOC_ASSERT(OutGrantReadsInput_A, out_gnt[o*NumPorts+i] |-> (sa_gnt[i*NumVcs +: NumVcs] != '0))
    end
  end

  noc_crossbar #(
    .NumIn (NumPorts),
    .NumOut(NumPorts)
  ) u_crossbar (
    .clk_i,
    .rst_ni,
    .in_i   (iu_flit),
    .sel_i  (xbar_sel_q),
    .valid_o(xbar_valid),
    .out_o  (xbar_out)
  );

  // The copy of a segment's lead flit on a network port becomes the head of the worm there: head
  // bit set (a promoted address flit), the output class written (the next router routes in it),
  // a source route shifted past this router's entry, and a spawned CPR branch addressed to the end
  // of its row. Ejection ports get the flit as it is. Struct temporaries at module scope: yosys
  // 0.23 cannot resolve a struct member of a signal declared inside a generate block.
  always_comb begin
    rw_f     = '0;
    rw_h     = '0;
    net_flit = xbar_out[NumNetPorts*FlitW-1:0];
    for (int o = 0; o < NumNetPorts; o++) begin
      if (rw_lead_q[o]) begin
        rw_f      = xbar_out[o*FlitW +: FlitW];
        rw_h      = rw_f.data;
        rw_f.head = 1'b1;
        if (rw_spawn_q[o]) begin
          rw_h.vc_class = (o == 0) ? noc_pkg::BranchClassPlusX : noc_pkg::BranchClassMinusX;
          rw_h.dest     = noc_pkg::coord_dest((o == 0) ? CoordW'(cfg_dim_size[0 +: DimSizeW] - DimSizeW'(1)) : '0,
                                              cfg_own_coord[CoordW +: CoordW],
                                              cfg_own_coord[2*CoordW +: CoordW]);
        end else begin
          rw_h.vc_class = rw_class_q[o*ClassW +: ClassW];
          if (rw_shift_q[o]) begin
            rw_h.dest = noc_pkg::route_shift(rw_h.dest);
          end
        end
        rw_f.data                  = rw_h;
        net_flit[o*FlitW +: FlitW] = rw_f;
      end
    end
  end
  assign out_flit_o[NumNetPorts*FlitW-1:0] = net_flit;
  assign out_flit_o[NumPorts*FlitW-1:NumNetPorts*FlitW] = xbar_out[NumPorts*FlitW-1:NumNetPorts*FlitW];

  // Which output VC each network port sends on and allocates, and which stream each ejection port
  // carries. A network port sends when the switch grants it, on the output VC of the granted
  // input's picked segment (the tentative grant and pick steer the choice: they equal the final
  // ones wherever a grant is given), and allocates that VC when the segment is a waiting head (the
  // head takes its output VCs in the edge the switch carries it, noc_vc_allocator). Read per
  // output port from the five picked segments, not per input VC: the same functions, 417 iCE40
  // LUT4 fewer on the 4-VC node (docs/design-log.md); SendIsGrantedVc_A and AllocIsTakenSet_A
  // check them against the per-input-VC sets in simulation (the owners: proven equal, docs/rtl-modules.md).
  always_comb begin
    logic [VcIdW-1:0]   out_vc;
    logic               out_takes;
    logic [StreamW-1:0] out_owner;
    send        = '0;
    alloc       = '0;
    alloc_owner = '0;
    ej_send     = '0;
    ej_stream   = '0;
    for (int o = 0; o < NumNetPorts; o++) begin
      out_vc    = '0;
      out_takes = 1'b0;
      out_owner = '0;
      for (int i = 0; i < NumPorts; i++) begin
        if (tent_gnt[o*NumPorts+i]) begin
          out_vc    = out_vc | g_net_vc[(i*NumNetPorts+o)*VcIdW +: VcIdW];
          out_takes = out_takes | g_takes[i];
          out_owner = out_owner | g_stream[i*StreamW +: StreamW];
        end
      end
      for (int w = 0; w < NumVcs; w++) begin
        send[o*NumVcs+w] = (out_gnt[o*NumPorts +: NumPorts] != '0) && (32'(out_vc) == w);
        alloc[o*NumVcs+w] = send[o*NumVcs+w] && out_takes;
        if (alloc[o*NumVcs+w]) begin
          alloc_owner[(o*NumVcs+w)*OwnerW +: OwnerW] = OwnerW'(out_owner);
        end
      end
    end
    for (int l = 0; l < NumLocal; l++) begin
      for (int i = 0; i < NumPorts; i++) begin
        if (out_gnt[(NumNetPorts+l)*NumPorts+i]) begin
          ej_send[l] = 1'b1;
        end
        if (tent_gnt[(NumNetPorts+l)*NumPorts+i]) begin
          ej_stream[l*StreamW +: StreamW] = g_stream[i*StreamW +: StreamW];
        end
      end
    end
  end

`ifndef SYNTHESIS
  // The per-input-VC forms, as word operations (cheap in simulation): a granted input VC sends on
  // the output VC of each of its network ports (its va_target set), and a granted waiting head
  // takes them. With the output units' one flit per port, the ports send and allocate exactly these.
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
  // Output units (network ports) and ejection units (local ports).

  for (genvar o = 0; o < NumNetPorts; o++) begin : gen_out
    noc_output_unit #(
      .NumVcs  (NumVcs),
      .BufDepth(BufDepth),
      .NumInVcs(NumInVcs)
    ) u_output (
      .clk_i,
      .rst_ni,
      .alloc_i       (alloc[o*NumVcs +: NumVcs]),
      .alloc_owner_i (alloc_owner[o*NumVcs*OwnerW +: NumVcs*OwnerW]),
      .send_i        (send[o*NumVcs +: NumVcs]),
      .tail_i        (out_tail[o]),
      .credit_i      (out_credit_i[o*NumVcs +: NumVcs]),
      .allocated_o   (allocated[o*NumVcs +: NumVcs]),
      .owner_o       (unused_owner[o*NumVcs*OwnerW +: NumVcs*OwnerW]),
      .credit_o      (credit_avail[o*NumVcs +: NumVcs]),
      .credit_count_o(unused_credit_count[o*NumVcs*CountW +: NumVcs*CountW]),
      .valid_o       (out_valid_o[o]),
      .vc_o          (out_vc_o[o*VcIdW +: VcIdW]),
      .credit_overflow_o(credit_overflow[o])
    );

    // This output sends exactly when the switch is granted to it, and in the next cycle the
    // crossbar carries the granted input's flit onto the link, exactly while the link is valid.
    `NOC_ASSERT(SendIffGranted_A, (send[o*NumVcs +: NumVcs] != '0) == (out_gnt[o*NumPorts +: NumPorts] != '0))
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
      .send_i        (ej_send[l]),
      .stream_i      (ej_stream[l*StreamW +: StreamW]),
      .credit_i      (out_credit_i[P*NumVcs]),
      .credit_o      (ej_credit[l]),
      .credit_count_o(unused_ej_count[l*CountW +: CountW]),
      .valid_o       (out_valid_o[P]),
      .stream_o      (eject_stream_o[l*StreamW +: StreamW]),
      .credit_overflow_o(ej_credit_overflow[l])
    );
    assign out_vc_o[P*VcIdW +: VcIdW] = '0;
    // An ejection port's credits are one pool, returned on VC 0's bit.
    assign unused_credit_bits = out_credit_i[P*NumVcs +: NumVcs];

    `NOC_ASSERT(EjectLinkValidIsCrossbarFlit_A, out_valid_o[P] == xbar_valid[P])
  end

  // ---------------------------------------------------------------------------------------------
  // The sticky count of drained worms: at most one per input port per cycle (one arrival each),
  // added with saturation so that the count never wraps back to a value that hides the drops.
  // This cycle's drops are summed in a balanced tree (heap layout: node k = nodes 2k + 2k+1, the
  // NumInVcs leaves from index NumInVcs on, the sum at node 1) and added once: a chain of one
  // conditional increment per input VC was the 2-VC node's longest path (ten carry chains in
  // series behind the head decisions, docs/design-log.md). The same function:
  // min(count + drops, 2**DropsW - 1).

  localparam int unsigned DropsW = noc_pkg::RouteDropsW;
  localparam int unsigned DropsNowW = $clog2(NumInVcs + 1);  // <= DropsW up to 255 input VCs
  logic [DropsW-1:0] route_drops_d, route_drops_q;
  logic [2*NumInVcs*DropsNowW-1:0] drops_tree;
  always_comb begin
    drops_tree = '0;
    for (int j = 0; j < NumInVcs; j++) begin
      drops_tree[(NumInVcs+j)*DropsNowW +: DropsNowW] = DropsNowW'(drop_worm[j]);
    end
    for (int k = NumInVcs - 1; k >= 1; k--) begin
      drops_tree[k*DropsNowW +: DropsNowW] = drops_tree[2*k*DropsNowW +: DropsNowW]
                                           + drops_tree[(2*k+1)*DropsNowW +: DropsNowW];
    end
  end
  always_comb begin
    logic [DropsW:0] sum;
    sum           = {1'b0, route_drops_q} + (DropsW + 1)'(drops_tree[DropsNowW +: DropsNowW]);
    route_drops_d = sum[DropsW] ? '1 : sum[DropsW-1:0];
  end
  `NOC_ASSERT(DropsTreeCountsEveryDrop_A, 32'(drops_tree[DropsNowW +: DropsNowW]) == $countones(drop_worm))

  `NOC_FF(route_drops_q, route_drops_d, '0)
  assign route_drops_o = route_drops_q;

  // ---------------------------------------------------------------------------------------------
  // Sticky errors: each flag is set by the first dropped flit or credit of its kind and held
  // until reset, so a netlist without assertions still shows that the protocol was broken.

  logic [noc_pkg::ErrorsW-1:0] errors_d, errors_q;
  always_comb begin
    errors_d = errors_q;
    errors_d[noc_pkg::ErrBufferOverflow]      = errors_q[noc_pkg::ErrBufferOverflow] || (buffer_overflow != '0);
    errors_d[noc_pkg::ErrCreditOverflow]      = errors_q[noc_pkg::ErrCreditOverflow] || (credit_overflow != '0);
    errors_d[noc_pkg::ErrEjectCreditOverflow] = errors_q[noc_pkg::ErrEjectCreditOverflow] || (ej_credit_overflow != '0);
  end

  `NOC_FF(errors_q, errors_d, '0)
  assign errors_o = errors_q;

  `NOC_ASSERT(ErrorsSticky_A, (errors_d & errors_q) == errors_q)
  `NOC_ASSERT(RouteDropsNeverWrap_A, route_drops_d >= route_drops_q)
  `NOC_ASSERT(RouteDropsCountEveryDrop_A, (drop_worm != '0 && route_drops_q != '1) |-> route_drops_d > route_drops_q)

  // Outputs of the stages the glue does not need (the grant sets are implied by sa_gnt and the
  // segments; the owners and counts are for debugging).
  logic unused;
  assign unused = ^{in_gnt_out, unused_owner, unused_credit_count, unused_ej_count};

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
