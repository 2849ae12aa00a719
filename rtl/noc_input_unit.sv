// SPDX-License-Identifier: SHL-0.51
// noc_input_unit: one input port of the router, NumVcs virtual channels of BufDepth flits each.
//
// The link flit (valid, VC id, flit) is written into its VC's buffer, together with its
// *decision* when it needs one: route compute and noc_head_decision read only the link flit, and
// every head, and every address flit a promotion reroutes, is decided in the edge it arrives in.
// A per-VC arrival tracker (noc_pkg::arrival_e) says which flits those are: after a tail the next
// flit is a head, decided in the class it carries (which the tracker keeps as the worm's arrival
// class); after a decided flit whose segment promotes without a fixed port the next flit is an
// address flit, decided in the worm's arrival class (the upstream router rewrote only the head's
// class); every other flit follows its segment without one. Per VC a state machine follows the
// worm at the buffer's front, one *segment* at a time (noc_head_decision):
//   Idle     the front's stored decision is loaded into the segment registers (network ports,
//            spawned branches, eject, class, ...); a head arriving into an Idle, empty VC is
//            loaded straight from the link's decision, in the edge that writes it;        -> Routed
//   Reroute  the previous segment was a promote segment (intermediate reception, a source-route
//            regroup): the front is the address flit that becomes the worm's head. Its stored
//            decision is loaded, keeping the local copy; a regroup's address flit takes the port
//            already known instead;                                                        -> Routed
//   Routed   the front is the segment's lead flit. The VC waits for the segment's network output
//            VCs (`va_req_o`); while they may be taken (`va_ok_i`), or at once when the segment
//            has none (eject only, a dropped head, or a drain), it *goes*: the lead requests the
//            switch (`sa_req_o`) or is dropped. The output VCs are taken in the edge the switch
//            carries the lead (noc_vc_allocator), so the VC stays Routed until then; after that
//            pop, or at once without network ports, it continues as from Active;         -> Active
//   Active   each front flit requests the switch for all of the segment's outputs (`sa_req_o`),
//            or is dropped (`pop` without the switch) when the segment has none; after the tail
//            -> Idle, after the lead flit of a promote segment -> Reroute.
// So at zero load a head is written and decided in one edge and leaves through the switch in the
// next, and a head or address flit that reaches the front of an Idle or Reroute VC is loaded in
// its first cycle there, whatever the other VCs do (docs/rtl.md, "Latency"). Every popped flit
// returns one credit for its VC upstream, registered (`credit_o`).
//
// The buffers are one noc_vc_ram_buffer: every VC's flit data in one RAM, read only by the switch
// grant, whose output register is the switch-traversal register (`flit_o`, the flit granted at
// the last edge); the head and tail bits the state machines read at the front are in registers
// beside each slot, and drains and dropped flits pop without reading (docs/rtl.md, "The input
// buffers in block RAM").
//
// A flit's decision is kept in a second RAM of the buffer (its side word) and shown at the front
// in the flit's first cycle there, the only cycle a decision is loaded: a pop that ends a segment
// reads the next flit's decision, one such read per port and cycle (docs/rtl.md, "The decision
// store"). Its stored form is DecW bits:
// the segment's one non-spawned network port (or a regroup's fixed port) as an index with a valid
// bit, the spawned X ports, eject, class, shift, promote and fixed. A valid decision always sends
// its lead somewhere or fixes a port (noc_head_decision's DecisionHasOutput_A), so "no decision"
// is the all-zero one and needs no bit of its own.
//
// A head (or promoted address flit) without a decision (a mode the build leaves out, a reserved
// mode, a dest wider than LabelW or outside the network, a source route naming an unconnected
// port, a misconfigured router) is *drained*: its segment is registered with no network port and
// `drain` set, so the VC goes at once and pops every flit of the worm without the switch, up to
// and including the tail, returning each flit's credit as a forwarded flit would; then it takes
// the next worm normally. A worm whose local copy was already started (an address flit in Reroute
// after intermediate reception) keeps ejecting that copy to its tail, so the receiver's copy stays
// whole, and sends nothing on. `drop_worm_o` pulses once per drained worm, in the edge its flit
// arrives without a decision (the router counts them), `draining_o` shows the VCs draining
// (docs/rtl-modules.md, "Drained worms"). Why drain and not wait: a worm that waits holds its VC and,
// behind it, the upstream VCs it occupies forever.
//
// Why one route-compute instance per port: one flit arrives per cycle, and only the arriving
// flit is ever decided, so the route compute (the largest stage, docs/rtl.md "Where the area and
// the clock go") has no input mux over the VC fronts and no VC ever waits for it. Why the
// decision is registered: the router's critical path would otherwise run from the link through
// route compute into both allocators, and the link input would reach the outputs' registers
// through them.
//
// Head fields come from noc_pkg (docs/header-format.md); an address flit has the head's layout.
`include "noc_assert.svh"
`include "noc_registers.svh"

module noc_input_unit #(
  /// Network ports of the router, 3..6 (route compute's NumPorts).
  parameter int unsigned NumPorts = 4,
  /// This input's port index: network ports 0..NumPorts-1, local ports above (noc_head_decision).
  parameter int unsigned InPort = 0,
  /// Virtual channels of this input port (>= 1).
  parameter int unsigned NumVcs = 2,
  /// Flits per VC buffer (>= 1); the upstream router starts with this many credits per VC.
  parameter int unsigned BufDepth = 4,
  /// Width of a Hamiltonian label (<= noc_pkg::AddrW): dest bits [LabelW-1:0] of a label-mode head;
  /// a label-mode head with a dest bit above them set has no decision (it is drained).
  parameter int unsigned LabelW = 16,
  /// Routing modes implemented (noc_pkg::AllModes: bit m = route_mode_e m), for route compute and
  /// the head decision.
  parameter int unsigned Modes = noc_pkg::AllModes,
  /// Width of a VC id on the link. Derived, do not override.
  localparam int unsigned VcIdW = (NumVcs > 1) ? $clog2(NumVcs) : 1,
  /// Width of a network port number. Derived, do not override.
  localparam int unsigned PortW = $clog2(NumPorts),
  /// Width of a flit (noc_pkg::FlitW). Derived, do not override.
  localparam int unsigned FlitW = noc_pkg::FlitW,
  /// Width of one coordinate (noc_pkg::CoordW, the head's). Derived, do not override.
  localparam int unsigned CoordW = noc_pkg::CoordW,
  /// Width of one dimension's size (noc_router DimSizeW). Derived, do not override.
  localparam int unsigned DimSizeW = CoordW + 1,
  /// Width of a VC class (noc_pkg::ClassW). Derived, do not override.
  localparam int unsigned ClassW = noc_pkg::ClassW
) (
  /// Clock; all state changes on its rising edge.
  input  logic                      clk_i,
  /// Asynchronous active-low reset: empties the buffers, every VC Idle, no credits out.
  input  logic                      rst_ni,

  // Configuration of this router, passed to noc_route_compute (constant after reset; see there).
  /// Own Hamiltonian label.
  input  logic [LabelW-1:0]          own_label_i,
  /// Label of the neighbour on port p in bits [p*LabelW +: LabelW].
  input  logic [NumPorts*LabelW-1:0] nbr_label_i,
  /// Port p has a neighbour.
  input  logic [NumPorts-1:0]        port_connected_i,
  /// Port p is a torus wraparound link.
  input  logic [NumPorts-1:0]        port_is_wrap_i,
  /// Port p is a boundary link of the Hamiltonian-cycle labeling.
  input  logic [NumPorts-1:0]        port_is_boundary_i,
  /// Own coordinates x, y, z in bits [d*CoordW +: CoordW].
  input  logic [3*CoordW-1:0]        own_coord_i,
  /// Network size per dimension x, y, z in bits [d*DimSizeW +: DimSizeW].
  input  logic [3*DimSizeW-1:0]      dim_size_i,
  /// The network is a torus.
  input  logic                       is_torus_i,
  /// Dimensions of a mesh or torus (2 or 3), 0 for a star graph.
  input  logic [1:0]                 num_dims_i,

  // The link from the upstream router.
  /// A flit arrives this cycle. Its VC must have room (the upstream router holds a credit).
  input  logic                       valid_i,
  /// VC of the arriving flit (< NumVcs).
  input  logic [VcIdW-1:0]           vc_i,
  /// The arriving flit (noc_pkg::flit_t).
  input  logic [FlitW-1:0]           flit_i,
  /// Credits back to the upstream router: bit v = one flit left VC v's buffer last cycle.
  output logic [NumVcs-1:0]          credit_o,

  // VC v's current segment (noc_head_decision), valid from Routed until the segment ends.
  /// Network ports, bits [v*NumPorts +: NumPorts].
  output logic [NumVcs*NumPorts-1:0] net_o,
  /// Spawned CPR branches among them (class by X direction, head addressed to the end of the row).
  output logic [NumVcs*NumPorts-1:0] spawn_o,
  /// The segment's flits are also delivered locally.
  output logic [NumVcs-1:0]          eject_o,
  /// Output class of the non-spawned network ports, bits [v*ClassW +: ClassW].
  output logic [NumVcs*ClassW-1:0]   class_o,
  /// The segment's lead flit leaves with its source route shifted.
  output logic [NumVcs-1:0]          shift_o,
  /// The flit at VC v's front is its segment's lead (Routed, and Active until the lead leaves):
  /// the router writes head = 1 and the output class into the copies it sends on network ports.
  output logic [NumVcs-1:0]          lead_o,
  /// VC v is in Routed with the first segment of its worm (the router picks the worm's ejection
  /// port meanwhile and keeps it for the later segments, so a local copy never changes port).
  output logic [NumVcs-1:0]          routed_o,
  /// VC v drains a worm whose head had no decision: from the edge that found none until its tail
  /// leaves; nothing goes on network ports meanwhile (registered state).
  output logic [NumVcs-1:0]          draining_o,
  /// VC v's head (or promoted address flit) gets no decision this cycle: its worm is drained from
  /// the next edge on. One pulse per drained worm, at most one VC per cycle (combinational).
  output logic [NumVcs-1:0]          drop_worm_o,

  // Toward the VC allocator.
  /// VC v waits for the output VCs of its segment's network ports (Routed, a head not yet sent).
  output logic [NumVcs-1:0]          va_req_o,
  /// They may be taken this cycle (only while `va_req_o[v]`): its lead may request the switch
  /// (`sa_req_o` depends on it combinationally), and takes them if the switch carries it.
  input  logic [NumVcs-1:0]          va_ok_i,

  // Toward the switch allocator and the crossbar.
  /// VC v goes (Active, or Routed with its output VCs free to take or without network ports)
  /// with a flit at its front that goes somewhere.
  output logic [NumVcs-1:0]          sa_req_o,
  /// VC v won the switch (one-hot or zero, only where `sa_req_o`): its front flit is popped and
  /// read, onto `flit_o` in the next cycle.
  input  logic [NumVcs-1:0]          sa_gnt_i,
  /// VC v's front flit is a tail (registers; meaningful while `sa_req_o[v]`): the output units
  /// release an output VC with the tail in the edge the switch carries it.
  output logic [NumVcs-1:0]          front_tail_o,
  /// The flit the grant read at the last edge (the buffer RAM's output register, with the head and
  /// tail bits registered beside it); holds while nothing is read.
  output logic [FlitW-1:0]           flit_o,
  /// A flit arrived for a full VC buffer and is lost (the sender spent a credit it did not have;
  /// combinational, the router keeps it sticky in errors_o).
  output logic                       overflow_o
);


  /// Bits of the decision stored beside a flit: the port's valid bit and index, the two spawned
  /// X ports, eject, class, shift, promote, fixed (11 bits for 3 or 4 network ports, 12 for 5, 6).
  localparam int unsigned DecW = 1 + PortW + 2 + 1 + ClassW + 3;

  logic [NumVcs-1:0]        push, pop, drop, empty, full, front_head, front_tail, overflow;
  logic [NumVcs*DecW-1:0]   front_dec;  // each VC's front flit's stored decision (while front_dec_valid)
  logic [NumVcs*2-1:0]      arrive;     // per VC, noc_pkg::arrival_e: what the next flit is
  logic [NumVcs*ClassW-1:0] arr_class;  // per VC, the class the arriving worm's head carried
  logic [NumVcs-1:0]        arr_dec;    // the flit arriving into this VC is decided this cycle
  logic [NumVcs-1:0]        arr_load;   // ... and loaded at once (a head into an Idle, empty VC)
  logic [NumVcs-1:0]        front_load; // the front's stored decision is loaded this cycle
  logic [NumVcs-1:0]        go;         // the segment's flits may leave (Active, or Routed and ready)
  logic [NumVcs-1:0]        credit_q;

  // ---------------------------------------------------------------------------------------------
  // Route compute and the head decision, on the link flit only: a head in its own class, an
  // address flit in the class its worm arrived in (the arriving VC's tracker says which).

  noc_pkg::flit_t      link_flit;
  noc_pkg::head_t      link_head, rc_head;
  logic [1:0]          link_arrive;  // the arriving VC's tracker (noc_pkg::arrival_e)
  logic [ClassW-1:0]   link_arr_class, link_class;
  logic                link_is_head, link_is_tail;
  logic                rc_valid, rc_eject;
  logic [PortW-1:0]    rc_port;
  logic [ClassW-1:0]   rc_class;

  assign link_flit    = flit_i;
  assign link_head    = link_flit.data;
  assign link_is_head = link_flit.head;
  assign link_is_tail = link_flit.tail;
  assign link_class   = link_head.vc_class;
  always_comb begin
    link_arrive    = noc_pkg::ArriveBody;
    link_arr_class = '0;
    for (int v = 0; v < NumVcs; v++) begin
      if (vc_i == VcIdW'(v)) begin
        link_arrive    = arrive[v*2 +: 2];
        link_arr_class = arr_class[v*ClassW +: ClassW];
      end
    end
    rc_head = link_head;
    if (link_arrive == noc_pkg::ArriveAddress) begin
      rc_head.vc_class = link_arr_class;
    end
  end

  noc_route_compute #(
    .NumPorts(NumPorts),
    .LabelW  (LabelW),
    .CoordW  (CoordW),
    .Modes   (Modes)
  ) u_route_compute (
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
    .mode_i      (rc_head.mode),
    .class_i     (rc_head.vc_class),
    .dest_label_i(rc_head.dest[LabelW-1:0]),
    .dest_coord_i(rc_head.dest[3*CoordW-1:0]),
    .valid_o     (rc_valid),
    .eject_o     (rc_eject),
    .port_o      (rc_port),
    .class_o     (rc_class)
  );

  logic                dc_valid, dc_eject, dc_shift, dc_promote, dc_fixed;
  logic [NumPorts-1:0] dc_net, dc_spawn;
  logic [ClassW-1:0]   dc_class;
  logic [PortW-1:0]    dc_fixed_port;

  noc_head_decision #(
    .NumPorts(NumPorts),
    .InPort  (InPort),
    .LabelW  (LabelW),
    .Modes   (Modes),
    .NumVcs  (NumVcs)
  ) u_head_decision (
    .clk_i,
    .rst_ni,
    .port_connected_i,
    .num_dims_i,
    .head_i      (rc_head),
    .rc_valid_i  (rc_valid),
    .rc_eject_i  (rc_eject),
    .rc_port_i   (rc_port),
    .rc_class_i  (rc_class),
    .valid_o     (dc_valid),
    .net_o       (dc_net),
    .spawn_o     (dc_spawn),
    .eject_o     (dc_eject),
    .class_o     (dc_class),
    .shift_o     (dc_shift),
    .promote_o   (dc_promote),
    .fixed_o     (dc_fixed),
    .fixed_port_o(dc_fixed_port)
  );

  // The decision in its stored form. The non-spawned network port is one port at most (route
  // compute's hop or the source route's entry); a regroup has none and keeps its fixed port in
  // the same field. Spawned branches are X ports (0 and 1) only.
  logic [NumPorts-1:0] dc_hop;
  logic                dc_has_port;
  logic [PortW-1:0]    dc_port;
  logic [DecW-1:0]     dc_stored;
  always_comb begin
    dc_hop  = dc_net & ~dc_spawn;
    dc_port = '0;
    for (int p = 0; p < NumPorts; p++) begin
      if (dc_hop[p]) begin
        dc_port = dc_port | PortW'(p);
      end
    end
    if (dc_fixed) begin
      dc_port = dc_fixed_port;
    end
  end
  assign dc_has_port = (dc_hop != '0);
  assign dc_stored   = {dc_has_port, dc_port, dc_spawn[1:0], dc_eject, dc_class, dc_shift, dc_promote, dc_fixed};

  `NOC_ASSERT(OneHopPort_A, $onehot0(dc_hop))
  `NOC_ASSERT(SpawnOnlyX_A, (dc_spawn >> 2) == '0)
  `NOC_ASSERT(RegroupHasNoHop_A, dc_fixed |-> !dc_has_port)
  // "No decision" is exactly the stored all-quiet decision (the drain test at the load).
  `NOC_ASSERT(NoDecisionIsQuiet_A, (arr_dec != '0) |->
              (!dc_valid == (!dc_has_port && dc_spawn == '0 && !dc_eject && !dc_fixed)))

  // ---------------------------------------------------------------------------------------------
  // The VC buffers: one RAM for every VC's flit data, read only by the switch grant; the head and
  // tail bits beside each slot in registers; each flit's decision in a second RAM, shown at its
  // VC's front in the first cycle the flit is there (noc_vc_ram_buffer's side word). A drop pops
  // without reading.

  localparam int unsigned DataW = FlitW - 2;  // the flit's data field (noc_pkg::flit_t)
  localparam int unsigned FlagW = 2;          // head, tail
  localparam int unsigned CountW = $clog2(BufDepth + 1);
  logic [NumVcs*FlagW-1:0]  front_flags;
  logic [NumVcs*CountW-1:0] count;
  logic [NumVcs-1:0]        front_dec_valid;  // front_dec is the front's decision this cycle
  logic [NumVcs-1:0]        dec_read;     // a pop that reads the next flit's decision
  logic [NumVcs-1:0]        read;         // the granted VC's front is read (and popped)
  logic [DataW-1:0]         rdata;        // the data the last edge's read took from the RAM
  logic                     rd_head_q, rd_tail_q;  // that flit's head and tail bits
  logic                     rd_head_d, rd_tail_d;

  noc_vc_ram_buffer #(
    .NumVcs(NumVcs),
    .Depth (BufDepth),
    .DataW (DataW),
    .FlagW (FlagW),
    .SideW (DecW)
  ) u_buffer (
    .clk_i,
    .rst_ni,
    .push_i            (valid_i),
    .push_vc_i         (vc_i),
    .push_data_i       (flit_i[DataW-1:0]),
    .push_flags_i      ({link_is_head, link_is_tail}),
    .push_side_i       (dc_stored),
    .read_i            (read),
    .drop_i            (drop),
    .side_read_i       (dec_read),
    .rdata_o           (rdata),
    .front_flags_o     (front_flags),
    .front_side_o      (front_dec),
    .front_side_valid_o(front_dec_valid),
    .empty_o           (empty),
    .full_o            (full),
    .count_o           (count),
    .overflow_o        (overflow)
  );

  for (genvar v = 0; v < NumVcs; v++) begin : gen_front
    assign {front_head[v], front_tail[v]} = front_flags[v*FlagW +: FlagW];
  end

  // ---------------------------------------------------------------------------------------------
  // The decision RAM's one read per cycle (docs/rtl.md, "The decision store"). A pop that ends a
  // segment (a tail, or the lead of a promote segment without a fixed port) with a flit waiting
  // behind it reads that flit's decision, which the VC loads in the next cycle. Only one pop per
  // cycle reads: the switch grants one VC per port, but drains drop without the switch, in any
  // number of VCs. So a drained worm's tail with a flit behind it claims the read: the lowest such
  // VC drops, the other draining ones wait a cycle, and the switch requests of the port's VCs whose
  // front would also claim it wait that cycle. A claim ends a drained worm, so a request waits at
  // most as long as the port's draining VCs have worms to finish.

  logic [NumVcs-1:0] claims_read;   // the front ends a segment with a flit waiting behind it
  logic [NumVcs-1:0] drop_ready;    // the front leaves without the switch this cycle if allowed
  logic [NumVcs-1:0] drain_claims;  // drop_ready and claims_read
  logic [NumVcs-1:0] drain_claim_lower;  // per VC: a lower VC of the port has a drain claim
  for (genvar v = 0; v < NumVcs; v++) begin : gen_claim_lower
    assign drain_claim_lower[v] = (drain_claims & NumVcs'((64'(1) << v) - 64'(1))) != '0;
  end
  logic [NumVcs-1:0] behind;  // a flit waits behind the front
  for (genvar v = 0; v < NumVcs; v++) begin : gen_behind
    if (BufDepth > 1) begin : gen_deep
      assign behind[v] = (count[v*CountW +: CountW] >= CountW'(2));
    end else begin : gen_one_slot
      logic unused_count;
      assign unused_count = ^count[v*CountW +: CountW];
      assign behind[v] = 1'b0;
    end
  end
  assign drain_claims = drop_ready & claims_read;
  assign dec_read     = pop & claims_read;
  // One decision read per cycle: the grant's or the lowest drain claim's.
  `NOC_ASSERT(OneDecisionReadPerCycle_A, $onehot0(dec_read))

  // ---------------------------------------------------------------------------------------------
  // Per VC: the arrival tracker and the state machine.

  for (genvar v = 0; v < NumVcs; v++) begin : gen_vc
    noc_pkg::vc_state_e                state_d, state_q;
    noc_pkg::arrival_e                 arrive_d, arrive_q;
    logic [ClassW-1:0]                 arr_class_d, arr_class_q;
    logic [NumPorts-1:0]               net_d, net_q, spawn_d, spawn_q;
    logic [ClassW-1:0]                 class_d, class_q;
    logic                              eject_d, eject_q, shift_d, shift_q, promote_d, promote_q;
    logic                              fixed_d, fixed_q;
    logic [PortW-1:0]                  fixed_port_d, fixed_port_q;
    logic                              drain_d, drain_q;  // the segment drains a worm without a decision
    logic                              lead_d, lead_q;
    logic                              first_seg_d, first_seg_q;  // the worm's first segment
    logic                              goes_nowhere;
    // The stored decision at the front, decoded.
    logic                              st_has_port, st_eject, st_shift, st_promote, st_fixed;
    logic [PortW-1:0]                  st_port;
    logic [1:0]                        st_spawn_x;
    logic [ClassW-1:0]                 st_class;
    logic [NumPorts-1:0]               st_net, st_spawn;

    assign push[v] = valid_i && (vc_i == VcIdW'(v));
    assign claims_read[v] = (front_tail[v] || (lead_q && promote_q && !fixed_q)) && behind[v];
    assign read[v] = sa_gnt_i[v] && sa_req_o[v];
    assign pop[v]  = read[v] || drop[v];
    assign goes_nowhere  = (net_q == '0) && !eject_q;
    // Routed goes while its network output VCs may be taken, or at once without any (a drain
    // has none).
    assign go[v]         = (state_q == noc_pkg::VcActive) ||
                           ((state_q == noc_pkg::VcRouted) && ((va_ok_i[v] && va_req_o[v]) || net_q == '0));

    // Arrival: a flit that needs a decision gets the link's (a flit into a full buffer is lost,
    // and so is its decision). A tail ends the worm; a decided flit's segment says whether an
    // address flit follows that needs one.
    assign arr_dec[v]  = push[v] && !full[v] && (arrive_q != noc_pkg::ArriveBody);
    assign arr_load[v] = arr_dec[v] && empty[v] && (state_q == noc_pkg::VcIdle);
    always_comb begin
      arrive_d    = arrive_q;
      arr_class_d = arr_class_q;
      if (push[v] && !full[v]) begin
        if (arrive_q == noc_pkg::ArriveHead) begin
          arr_class_d = link_class;
        end
        if (link_is_tail) begin
          arrive_d = noc_pkg::ArriveHead;
        end else if (arrive_q != noc_pkg::ArriveBody) begin
          arrive_d = (dc_promote && !dc_fixed) ? noc_pkg::ArriveAddress : noc_pkg::ArriveBody;
        end
      end
    end
    `NOC_FF(arrive_q, arrive_d, noc_pkg::ArriveHead)
    `NOC_FF(arr_class_q, arr_class_d, '0)
    assign arrive[v*2 +: 2]             = arrive_q;
    assign arr_class[v*ClassW +: ClassW] = arr_class_q;

    // The front's stored decision: loaded when the front is a head in Idle or an address flit in
    // Reroute without a fixed port.
    assign {st_has_port, st_port, st_spawn_x, st_eject, st_class, st_shift, st_promote, st_fixed} =
        front_dec[v*DecW +: DecW];
    always_comb begin
      for (int p = 0; p < NumPorts; p++) begin
        st_spawn[p] = (p < 2) && st_spawn_x[p % 2];
        st_net[p]   = (st_has_port && 32'(st_port) == p) || st_spawn[p];
      end
    end
    assign front_load[v] = !empty[v] && ((state_q == noc_pkg::VcIdle) ||
                                         (state_q == noc_pkg::VcReroute && !fixed_q));

    always_comb begin
      state_d      = state_q;
      net_d        = net_q;
      spawn_d      = spawn_q;
      class_d      = class_q;
      eject_d      = eject_q;
      shift_d      = shift_q;
      promote_d    = promote_q;
      fixed_d      = fixed_q;
      fixed_port_d = fixed_port_q;
      drain_d      = drain_q;
      lead_d       = lead_q;
      first_seg_d  = first_seg_q;
      // A decision is loaded (the link's for a head arriving into an Idle, empty VC, else the
      // front's stored one): register the segment, whose lead is the flit at the front from then
      // on. In Reroute the local copy, once started, continues to the tail. Without a decision
      // every field is 0 (noc_head_decision): the segment drains the worm to its tail, ejecting
      // only a local copy Reroute had started.
      if (arr_load[v]) begin
        state_d      = noc_pkg::VcRouted;
        lead_d       = 1'b1;
        net_d        = dc_net;
        spawn_d      = dc_spawn;
        class_d      = dc_class;
        eject_d      = dc_eject;
        shift_d      = dc_shift;
        promote_d    = dc_promote;
        fixed_d      = dc_fixed;
        fixed_port_d = dc_fixed_port;
        drain_d      = !dc_valid;
        first_seg_d  = 1'b1;
      end
      if (front_load[v]) begin
        state_d      = noc_pkg::VcRouted;
        lead_d       = 1'b1;
        net_d        = st_net;
        spawn_d      = st_spawn;
        class_d      = st_class;
        eject_d      = st_eject || (state_q == noc_pkg::VcReroute && eject_q);
        shift_d      = st_shift;
        promote_d    = st_promote;
        fixed_d      = st_fixed;
        fixed_port_d = st_port;
        drain_d      = !(st_net != '0 || st_eject || st_fixed);
        first_seg_d  = (state_q == noc_pkg::VcIdle);
      end
      unique case (state_q)
        noc_pkg::VcIdle, noc_pkg::VcReroute: begin
          // A source-route regroup knows the next flit's port without a decision. Its class is
          // the worm's arrival class, which the regrouping segment already carries (a source
          // route keeps the class it was decided in, and that was the arrival class).
          if (state_q == noc_pkg::VcReroute && fixed_q && !empty[v]) begin
            state_d     = noc_pkg::VcRouted;
            lead_d      = 1'b1;
            first_seg_d = 1'b0;
            for (int p = 0; p < NumPorts; p++) begin
              net_d[p] = (32'(fixed_port_q) == p);
            end
            spawn_d   = '0;
            shift_d   = 1'b0;
            promote_d = 1'b0;
            fixed_d   = 1'b0;
          end
        end
        // A Routed VC holds its output VCs from the edge its lead leaves on (Active, unless the
        // lead was the tail or a promote segment's lead); one without network ports goes Active
        // at once. A lead the switch did not carry waits in Routed, holding nothing.
        noc_pkg::VcRouted, noc_pkg::VcActive: begin
          if (go[v] && (net_q == '0 || pop[v])) begin
            state_d = noc_pkg::VcActive;
          end
          if (pop[v]) begin
            lead_d = 1'b0;
            if (front_tail[v]) begin
              state_d = noc_pkg::VcIdle;
            end else if (promote_q) begin
              state_d = noc_pkg::VcReroute;
            end
          end
        end
        default: state_d = noc_pkg::VcIdle;
      endcase
    end

    `NOC_FF(state_q, state_d, noc_pkg::VcIdle)
    `NOC_FF(net_q, net_d, '0)
    `NOC_FF(spawn_q, spawn_d, '0)
    `NOC_FF(class_q, class_d, '0)
    `NOC_FF(eject_q, eject_d, 1'b0)
    `NOC_FF(shift_q, shift_d, 1'b0)
    `NOC_FF(promote_q, promote_d, 1'b0)
    `NOC_FF(fixed_q, fixed_d, 1'b0)
    `NOC_FF(fixed_port_q, fixed_port_d, '0)
    `NOC_FF(drain_q, drain_d, 1'b0)
    `NOC_FF(lead_q, lead_d, 1'b0)
    `NOC_FF(first_seg_q, first_seg_d, 1'b0)

    assign net_o[v*NumPorts +: NumPorts]   = net_q;
    assign spawn_o[v*NumPorts +: NumPorts] = spawn_q;
    assign class_o[v*ClassW +: ClassW]     = class_q;
    assign eject_o[v]                      = eject_q;
    assign shift_o[v]                      = shift_q;
    assign lead_o[v]                       = lead_q;
    assign routed_o[v]                     = (state_q == noc_pkg::VcRouted) && first_seg_q;
    assign draining_o[v]                   = (state_q == noc_pkg::VcRouted || state_q == noc_pkg::VcActive) && drain_q;
    assign drop_worm_o[v]                  = arr_dec[v] && !dc_valid;
    assign va_req_o[v]                     = (state_q == noc_pkg::VcRouted) && (net_q != '0);
    assign sa_req_o[v]                     = go[v] && !empty[v] && !goes_nowhere &&
                                             !(claims_read[v] && drain_claims != '0);
    // (Without network ports a Routed VC goes at once, so this is go without the VC allocator.)
    assign drop_ready[v]                   = (state_q == noc_pkg::VcRouted || state_q == noc_pkg::VcActive) &&
                                             !empty[v] && goes_nowhere;
    assign drop[v]                         = drop_ready[v] && !(claims_read[v] && drain_claim_lower[v]);

    // Worm order on this VC: behind a tail the next front is a head; inside a worm no flit is a
    // head (address flits have the head's layout but head = 0); a worm's first pop is its head.
    `NOC_ASSERT(IdleFrontIsHead_A, (state_q == noc_pkg::VcIdle && !empty[v]) |-> front_head[v])
    `NOC_ASSERT(NoHeadInsideWorm_A, (state_q == noc_pkg::VcReroute && !empty[v]) |-> !front_head[v])
    `NOC_ASSERT(NoHeadAfterLead_A, (state_q == noc_pkg::VcActive && !lead_q && !empty[v]) |-> !front_head[v])
    // The same order as the flits arrive: the tracker expects a head exactly after a tail.
    `NOC_ASSERT(ArrivingHeadExpected_A, push[v] |-> (link_is_head == (arrive_q == noc_pkg::ArriveHead)))
    `NOC_ASSERT(PopOnlyGo_A, pop[v] |-> go[v])
    `NOC_ASSERT(GoOnlyRoutedOrActive_A, go[v] |-> (state_q == noc_pkg::VcRouted || state_q == noc_pkg::VcActive))
    // A Routed VC's lead is at its front (loaded from there, or written in the loading edge).
    `NOC_ASSERT(RoutedHasLead_A, (state_q == noc_pkg::VcRouted) |-> (!empty[v] && lead_q))
    // A decision is loaded straight from the link only for a head written into an Idle, empty VC;
    // the two loads never meet (one needs an empty VC, the other a front).
    `NOC_ASSERT(ArrivalLoadOnlyHeadIntoEmptyIdle_A, arr_load[v] |-> (arrive_q == noc_pkg::ArriveHead && push[v] && empty[v] && state_q == noc_pkg::VcIdle))
    `NOC_ASSERT(ArrivalAndFrontLoadNeverBoth_A, !(arr_load[v] && front_load[v]))
    // A front's decision is loaded in the first cycle the flit is the front, when the decision RAM
    // (or the link's decision, registered) shows it.
    `NOC_ASSERT(FrontLoadHasDecision_A, front_load[v] |-> front_dec_valid[v])
    // Only a drain and a source-route regroup drop flits: the regroup its used-up head, when it
    // does not deliver.
    `NOC_ASSERT(DropOnlyDrainOrRegroupHead_A, drop[v] |-> (drain_q || (lead_q && promote_q && fixed_q && front_head[v])))
    // A drain never forwards: no network port, no VC request, no promotion; it ejects only a
    // local copy that Reroute had started (never the first segment of a worm).
    `NOC_ASSERT(DrainForwardsNothing_A, draining_o[v] |-> (net_q == '0 && spawn_q == '0 && !va_req_o[v] && !promote_q))
    `NOC_ASSERT(DrainEjectsOnlyStartedCopy_A, (draining_o[v] && eject_q) |-> !first_seg_q)
    // A drain goes at once: every flit at its front leaves in its cycle (dropped, or ejected when
    // the local port has a credit), and it ends only with the worm's tail.
    `NOC_ASSERT(DrainGoes_A, draining_o[v] |-> go[v])
    `NOC_ASSERT(DrainDropsEveryFrontFlit_A, (draining_o[v] && !eject_q && !empty[v]) |->
                (pop[v] || (claims_read[v] && drain_claim_lower[v])))
    // (On the next state rather than with |=>: Verilator 5.006 cannot sample a DFG temporary of
    // this expression in the 4-VC network top and emits C++ that does not compile.)
    `NOC_ASSERT(DrainEndsAtTail_A, (draining_o[v] && pop[v] && !front_tail[v]) |-> (drain_d && (state_d == noc_pkg::VcRouted || state_d == noc_pkg::VcActive)))
    `NOC_ASSERT(PromoteOnlyLead_A, (state_q == noc_pkg::VcActive && promote_q) |-> lead_q)
    // The rare paths (verif/rtl/router_cover_test.cpp): a PCP spine's lead leaving on three
    // network ports (straight on and both spawned branches); a source-route regroup dropping its
    // used-up head; an address flit's decision loaded in Reroute while the worm's local copy goes
    // on; a drain that finishes a local copy Reroute had started.
    `NOC_COVER(SpineSpawnsThree_C, go[v] && lead_q && sa_gnt_i[v] && $countones(spawn_q) == 2 && $countones(net_q) == 3)
    `NOC_COVER(RegroupDropsHead_C, drop[v] && lead_q && promote_q && fixed_q && front_head[v])
    `NOC_COVER(RerouteKeepsEjecting_C, front_load[v] && state_q == noc_pkg::VcReroute && eject_q)
    `NOC_COVER(DrainFinishesStartedCopy_C, draining_o[v] && eject_q && pop[v])
    // The decision read's rule: a switch request waits for a drained tail. (Two drained tails
    // in one port and cycle are rarer than random traffic reaches; the input unit's own test
    // StageInputUnitVcs2Depth4.DrainedTailsOfTwoVcs... drives them.)
    `NOC_COVER(RequestWaitsForDrainClaim_C, go[v] && !empty[v] && !goes_nowhere && claims_read[v] && drain_claims != '0)
  end

  // A head arriving into an Idle, empty VC is loaded in the same edge as a front of another VC
  // (no VC waits for another's decision).
  `NOC_COVER(ArrivalBesideFrontLoad_C, arr_load != '0 && front_load != '0)

  // ---------------------------------------------------------------------------------------------
  // The flit that leaves: the grant's read, on the RAM's output register in the next cycle, with
  // the head and tail bits taken from the granted front's flags at the same edge. So the flit is
  // a register (the switch-traversal register) and the buffer has no read mux.

  always_comb begin
    rd_head_d = rd_head_q;
    rd_tail_d = rd_tail_q;
    for (int v = 0; v < NumVcs; v++) begin
      if (read[v]) begin
        rd_head_d = front_head[v];
        rd_tail_d = front_tail[v];
      end
    end
  end
  `NOC_FF(rd_head_q, rd_head_d, 1'b0)
  `NOC_FF(rd_tail_q, rd_tail_d, 1'b0)
  assign flit_o       = {rd_head_q, rd_tail_q, rdata};
  assign front_tail_o = front_tail;

  // One read per cycle at most (one grant per input port).
  `NOC_ASSERT(ReadOneVc_A, $onehot0(read))

  `NOC_FF(credit_q, pop, '0)
  assign credit_o   = credit_q;
  assign overflow_o = (overflow != '0);

  `NOC_ASSERT(VcInRange_A, valid_i |-> (32'(vc_i) < NumVcs))
  // Upstream credits guarantee room: a write into a full buffer would lose the flit.
  `NOC_ASSERT(NoWriteIntoFullFifo_A, valid_i |-> !full[vc_i])
  `NOC_ASSERT(VaOkOnlyRequested_A, (va_ok_i & ~va_req_o) == '0)
  `NOC_ASSERT(SaGntOneHot0_A, $onehot0(sa_gnt_i))
  `NOC_ASSERT(SaGntOnlyRequested_A, (sa_gnt_i & ~sa_req_o) == '0)
  // Exactly one credit per popped flit, in the next cycle.
  `NOC_ASSERT(OneCreditPerPop_A, credit_o == $past(pop))

endmodule
