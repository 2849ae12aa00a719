// noc_router: the wormcast router top, composing the router stages (docs/rtl.md, "Router top").
//
// Input-queued, credit-based wormhole router with NumNetPorts network ports (numbered as in
// docs/model.md) followed by NumLocal local port pairs (injection input, ejection output). Port
// index p < NumNetPorts is a network port, NumNetPorts + l is local pair l, on both sides. Each
// input port is a noc_input_unit (per-VC FIFO, state machine, shared route compute); they request
// output VCs from one noc_vc_allocator and the switch from one noc_switch_allocator; a
// noc_crossbar moves the granted flits to the noc_output_units, which hold the output VCs and the
// downstream credits and register the link. Glue in this module:
//   - output port set: the input unit's target bits 0..NumNetPorts-1 are the network ports; its
//     eject bit goes to local ejection port NumNetPorts + (input port mod NumLocal);
//   - output VC: the route's output class names the VC (docs/rtl.md, "VC classes to VCs":
//     Hamiltonian cycle p -> 0, q -> 1; dimension order on tori dateline class c -> c; everything
//     else 0). Every route-compute class obeys VC = class bit 0 (noc_pkg::HcClassQBit; the
//     dateline classes are 0 and 1, every other class is 0), so that is the whole mapping;
//   - switch requests: an Active VC's front flit requests its output port only while its output VC
//     has a credit (noc_output_unit credit_o), so the switch allocator never grants a flit that
//     cannot be sent;
//   - the head's vc_class field is rewritten to the output class on every network hop, so the next
//     router's route compute sees the class of the VC the worm arrives on; an ejected head keeps
//     the class it arrived with.
// Every output is a register (the output units' link registers and the input units' credit
// registers): no combinational path from any input to any output, so routers can be wired to
// each other in C++ and evaluated in any order.
//
// Not implemented yet (the input unit's limits, docs/rtl.md): intermediate reception and
// replication (a head for this node ejects whatever its `more` field says: single-destination
// worms only), source routes (no decision: the VC waits in Routed, `no_route_o`), and CPR branches.
// Configuration inputs are loaded while rst_ni is low and held (noc_route_compute).
`include "noc_assert.svh"

module noc_router #(
  /// Network ports, 3..6 (route compute's NumPorts); ports beyond the network's degree are left
  /// unconnected (port_connected_i = 0, inputs idle).
  parameter int unsigned NumNetPorts = 4,
  /// Local port pairs (injection input and ejection output) after the network ports (>= 1).
  parameter int unsigned NumLocal = 1,
  /// Virtual channels per port, input and output (>= 1; >= 2 for Hamiltonian-cycle and torus
  /// dimension-order traffic).
  parameter int unsigned NumVcs = 2,
  /// Flits per input VC buffer, and the credits per output VC after reset (>= 1): every router
  /// of a network uses the same BufDepth.
  parameter int unsigned BufDepth = 4,
  /// Width of a Hamiltonian label (<= noc_pkg::AddrW).
  parameter int unsigned LabelW = 16,
  /// Ports on each side: network then local. Derived, do not override.
  localparam int unsigned NumPorts = NumNetPorts + NumLocal,
  /// Width of a VC id on a link. Derived, do not override.
  localparam int unsigned VcIdW = (NumVcs > 1) ? $clog2(NumVcs) : 1,
  /// Width of a flit (noc_pkg::FlitW). Derived, do not override.
  localparam int unsigned FlitW = noc_pkg::FlitW,
  /// Width of one coordinate (noc_pkg::CoordW). Derived, do not override.
  localparam int unsigned CoordW = noc_pkg::CoordW
) (
  /// Clock.
  input  logic                           clk_i,
  /// Asynchronous active-low reset: buffers empty, every VC free, BufDepth credits per output VC.
  input  logic                           rst_ni,

  // Configuration of this router, passed to every input unit's route compute (constant after
  // reset; meanings in noc_route_compute).
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
  /// Network size per dimension in the same layout.
  input  logic [3*CoordW-1:0]            dim_size_i,
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
  /// VC of port p's flit in bits [p*VcIdW +: VcIdW] (registered).
  output logic [NumPorts*VcIdW-1:0]      out_vc_o,
  /// Flit of port p in bits [p*FlitW +: FlitW] (registered; holds the last flit while idle).
  output logic [NumPorts*FlitW-1:0]      out_flit_o,
  /// Credit from port p's receiver for VC v, bit p*NumVcs+v (a buffer slot was freed there).
  input  logic [NumPorts*NumVcs-1:0]     out_credit_i,

  /// Status: input VC p*NumVcs+v holds a head without a route-compute decision (it waits forever;
  /// a source-routed, reserved-mode or misconfigured worm). Registered.
  output logic [NumPorts*NumVcs-1:0]     no_route_o
);

  /// Input VCs, output VCs (ids port * NumVcs + VC, docs/rtl.md "The router stages").
  localparam int unsigned NumInVcs  = NumPorts * NumVcs;
  localparam int unsigned NumOutVcs = NumPorts * NumVcs;
  /// Targets of an input unit: the network ports and local ejection (bit NumNetPorts).
  localparam int unsigned NumTgt = NumNetPorts + 1;
  localparam int unsigned ClassW = noc_pkg::ClassW;
  localparam int unsigned OwnerW = (NumInVcs > 1) ? $clog2(NumInVcs) : 1;
  localparam int unsigned CountW = $clog2(BufDepth + 1);

  // Input units.
  logic [NumInVcs-1:0]        va_req, va_gnt, sa_req, sa_gnt;
  logic [NumInVcs*NumTgt-1:0] target;
  logic [NumInVcs*ClassW-1:0] route_class;
  logic [NumPorts-1:0]        iu_flit_valid;
  logic [NumPorts*FlitW-1:0]  iu_flit;

  // Glue, per input VC j: output port set, output VC (one-hot), output VCs for the VC allocator.
  logic [NumInVcs*NumPorts-1:0]  out_ports;
  logic [NumInVcs*NumVcs-1:0]    out_vc;
  logic [NumInVcs*NumOutVcs-1:0] va_target;
  logic [NumInVcs*NumPorts-1:0]  sa_req_set;

  // Output units.
  logic [NumOutVcs-1:0]        allocated, credit_avail, alloc, send;
  logic [NumOutVcs*OwnerW-1:0] alloc_owner, unused_owner;
  logic [NumOutVcs*CountW-1:0] unused_credit_count;

  // Switch allocator and crossbar.
  logic [NumPorts*NumPorts-1:0] in_gnt_out, out_gnt;
  logic [NumPorts*FlitW-1:0]    xbar_in, xbar_out;
  logic [NumPorts-1:0]          xbar_valid;
  logic [NumPorts-1:0]          hop;        // input i's granted flit leaves on a network port
  logic [NumPorts*ClassW-1:0]   hop_class;  // ... in this output class
  noc_pkg::flit_t               xb_f;       // temporaries of the head rewrite
  noc_pkg::head_t               xb_h;

  for (genvar i = 0; i < NumPorts; i++) begin : gen_in
    noc_input_unit #(
      .NumPorts(NumNetPorts),
      .NumVcs  (NumVcs),
      .BufDepth(BufDepth),
      .LabelW  (LabelW)
    ) u_input (
      .clk_i,
      .rst_ni,
      .own_label_i,
      .nbr_label_i,
      .port_connected_i,
      .port_is_wrap_i,
      .port_is_boundary_i,
      .own_coord_i,
      .dim_size_i,
      .is_torus_i,
      .num_dims_i,
      .valid_i     (in_valid_i[i]),
      .vc_i        (in_vc_i[i*VcIdW +: VcIdW]),
      .flit_i      (in_flit_i[i*FlitW +: FlitW]),
      .credit_o    (in_credit_o[i*NumVcs +: NumVcs]),
      .va_req_o    (va_req[i*NumVcs +: NumVcs]),
      .target_o    (target[i*NumVcs*NumTgt +: NumVcs*NumTgt]),
      .class_o     (route_class[i*NumVcs*ClassW +: NumVcs*ClassW]),
      .no_route_o  (no_route_o[i*NumVcs +: NumVcs]),
      .va_gnt_i    (va_gnt[i*NumVcs +: NumVcs]),
      .sa_req_o    (sa_req[i*NumVcs +: NumVcs]),
      .sa_gnt_i    (sa_gnt[i*NumVcs +: NumVcs]),
      .flit_valid_o(iu_flit_valid[i]),
      .flit_o      (iu_flit[i*FlitW +: FlitW])
    );

    // Per VC of this input: output ports, output VC, and the qualified requests.
    for (genvar v = 0; v < NumVcs; v++) begin : gen_vc
      localparam int unsigned J = i * NumVcs + v;
      logic [NumTgt-1:0] tgt;
      logic [ClassW-1:0] cls;
      logic [NumVcs-1:0] vc_onehot;
      assign tgt = target[J*NumTgt +: NumTgt];
      assign cls = route_class[J*ClassW +: ClassW];

      always_comb begin
        out_ports[J*NumPorts +: NumPorts] = '0;
        for (int p = 0; p < NumNetPorts; p++) begin
          out_ports[J*NumPorts+p] = tgt[p];
        end
        out_ports[J*NumPorts + NumNetPorts + (i % NumLocal)] = tgt[NumNetPorts];
      end

      // VC = class bit 0 (see the header); with one VC every class maps to VC 0 (asserted below).
      always_comb begin
        vc_onehot = '0;
        for (int w = 0; w < NumVcs; w++) begin
          if ((NumVcs > 1) ? (32'(cls[noc_pkg::HcClassQBit]) == w) : (w == 0)) begin
            vc_onehot[w] = 1'b1;
          end
        end
      end
      assign out_vc[J*NumVcs +: NumVcs] = vc_onehot;

      // The output VCs for the VC allocator, and the switch request masked by their credits.
      always_comb begin
        va_target[J*NumOutVcs +: NumOutVcs] = '0;
        sa_req_set[J*NumPorts +: NumPorts]  = '0;
        for (int o = 0; o < NumPorts; o++) begin
          for (int w = 0; w < NumVcs; w++) begin
            if (out_ports[J*NumPorts+o] && vc_onehot[w]) begin
              va_target[J*NumOutVcs + o*NumVcs + w] = 1'b1;
              if (sa_req[J] && credit_avail[o*NumVcs+w]) begin
                sa_req_set[J*NumPorts+o] = 1'b1;
              end
            end
          end
        end
      end

      `NOC_ASSERT(ClassHasVc_A, (va_req[J] && NumVcs == 1) |-> !cls[noc_pkg::HcClassQBit])
      `NOC_ASSERT(OneOutputPerWorm_A, va_req[J] |-> $onehot(out_ports[J*NumPorts +: NumPorts]))
    end

    // Whether the flit this input sends leaves on a network port, and the class it leaves in.
    always_comb begin
      hop[i]                         = 1'b0;
      hop_class[i*ClassW +: ClassW] = '0;
      for (int v = 0; v < NumVcs; v++) begin
        if (sa_gnt[i*NumVcs+v]) begin
          hop[i]                         = !target[(i*NumVcs+v)*NumTgt + NumNetPorts];
          hop_class[i*ClassW +: ClassW] = route_class[(i*NumVcs+v)*ClassW +: ClassW];
        end
      end
    end
  end

  // The flits toward the crossbar: a head leaving on a network port carries its output class.
  // The struct temporaries sit at module scope: yosys 0.23 cannot resolve a struct member of a
  // signal declared inside a generate block.
  always_comb begin
    xb_f    = '0;
    xb_h    = '0;
    xbar_in = '0;
    for (int i = 0; i < NumPorts; i++) begin
      xb_f = iu_flit[i*FlitW +: FlitW];
      xb_h = xb_f.data;
      if (xb_f.head && hop[i]) begin
        xb_h.vc_class = hop_class[i*ClassW +: ClassW];
      end
      xb_f.data                 = xb_h;
      xbar_in[i*FlitW +: FlitW] = xb_f;
    end
  end

  // ---------------------------------------------------------------------------------------------
  // VC allocation.

  noc_vc_allocator #(
    .NumIn (NumPorts),
    .NumOut(NumPorts),
    .NumVcs(NumVcs)
  ) u_vc_alloc (
    .clk_i,
    .rst_ni,
    .req_i        (va_req),
    .target_i     (va_target),
    .free_i       (~allocated),
    .gnt_o        (va_gnt),
    .alloc_o      (alloc),
    .alloc_owner_o(alloc_owner)
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
    .out_gnt_o   (out_gnt)
  );

  noc_crossbar #(
    .NumIn (NumPorts),
    .NumOut(NumPorts)
  ) u_crossbar (
    .clk_i,
    .rst_ni,
    .in_i   (xbar_in),
    .sel_i  (out_gnt),
    .valid_o(xbar_valid),
    .out_o  (xbar_out)
  );

  // Output VC of each send: the granted input VC's output VC, on the outputs it was granted.
  always_comb begin
    send = '0;
    for (int j = 0; j < NumInVcs; j++) begin
      for (int o = 0; o < NumPorts; o++) begin
        for (int w = 0; w < NumVcs; w++) begin
          if (sa_gnt[j] && out_ports[j*NumPorts+o] && out_vc[j*NumVcs+w]) begin
            send[o*NumVcs+w] = 1'b1;
          end
        end
      end
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Output units.

  for (genvar o = 0; o < NumPorts; o++) begin : gen_out
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
      .flit_i        (xbar_out[o*FlitW +: FlitW]),
      .credit_i      (out_credit_i[o*NumVcs +: NumVcs]),
      .allocated_o   (allocated[o*NumVcs +: NumVcs]),
      .owner_o       (unused_owner[o*NumVcs*OwnerW +: NumVcs*OwnerW]),
      .credit_o      (credit_avail[o*NumVcs +: NumVcs]),
      .credit_count_o(unused_credit_count[o*NumVcs*CountW +: NumVcs*CountW]),
      .valid_o       (out_valid_o[o]),
      .vc_o          (out_vc_o[o*VcIdW +: VcIdW]),
      .flit_o        (out_flit_o[o*FlitW +: FlitW])
    );

    // The crossbar carries a flit to this output exactly when one of its VCs sends.
    `NOC_ASSERT(SendIffCrossbar_A, (send[o*NumVcs +: NumVcs] != '0) == xbar_valid[o])
  end

  // Outputs of the stages the glue does not need (the grant sets are implied by sa_gnt and
  // out_ports; the owners and counts are for debugging).
  logic unused;
  assign unused = ^{in_gnt_out, iu_flit_valid, unused_owner, unused_credit_count};

endmodule
