// noc_input_unit: one input port of the router, NumVcs virtual channels of BufDepth flits each.
//
// The link flit (valid, VC id, flit) is written into its VC's noc_fifo. Per VC a state machine
// follows the worm at the FIFO front:
//   Idle    the front is a head: route compute decides for it, and the decision (target output
//           set, output VC class) is registered;                                      -> Routed
//   Routed  the VC requests its output VCs from the VC allocator (`va_req_o`) until granted;
//                                                                                      -> Active
//   Active  the output VCs are held: each front flit requests the switch (`sa_req_o`); a switch
//           grant pops it toward the crossbar (`flit_o`); after the tail leaves        -> Idle.
// Every popped flit returns one credit for its VC upstream, registered (`credit_o`).
//
// Why one route-compute instance per port, not per VC: it is the largest stage (420-460 LUTs
// for 4 network ports, docs/rtl.md), and a VC needs it for one cycle per worm. The lowest Idle VC
// with a head at its front gets it; that VC then leaves Idle, so a head waits at most NumVcs - 1
// cycles for it. Why the decision is registered: the router's critical path would otherwise run
// from the FIFO through route compute into both allocators.
//
// The target set has one bit per network port (0..NumPorts-1, docs/model.md numbering) and bit
// NumPorts for local ejection; it holds exactly one bit (single-destination worms). Intermediate
// reception and source routes (docs/rtl.md) are not implemented yet: a head for this node
// ejects whatever its `more` field says, and a head without a route-compute decision (source
// routed, reserved mode, unsupported mode or class) stays in Routed with `no_route_o` set and no
// request. The state machine keeps Routed separate from Idle so that the IR step (wait for the
// address flit, build the new head, route it the next cycle) can slot in there.
//
// Head fields come from noc_pkg (docs/header-format.md): dest bits [LabelW-1:0] are the label of
// the label modes, dest bits [3*CoordW-1:0] the x, y, z coordinates of the coordinate modes.
`include "noc_assert.svh"

module noc_input_unit #(
  /// Network ports of the router, 3..6 (route compute's NumPorts); the local ejection port is
  /// target bit NumPorts.
  parameter int unsigned NumPorts = 4,
  /// Virtual channels of this input port (>= 1).
  parameter int unsigned NumVcs = 2,
  /// Flits per VC buffer (>= 1); the upstream router starts with this many credits per VC.
  parameter int unsigned BufDepth = 4,
  /// Width of a Hamiltonian label (<= noc_pkg::AddrW): dest bits [LabelW-1:0] of a label-mode head.
  parameter int unsigned LabelW = 16,
  /// Outputs a worm can target: the network ports and local ejection. Derived, do not override.
  localparam int unsigned NumOut = NumPorts + 1,
  /// Width of a VC id on the link. Derived, do not override.
  localparam int unsigned VcIdW = (NumVcs > 1) ? $clog2(NumVcs) : 1,
  /// Width of a flit (noc_pkg::FlitW). Derived, do not override.
  localparam int unsigned FlitW = noc_pkg::FlitW,
  /// Width of one coordinate (noc_pkg::CoordW, the head's). Derived, do not override.
  localparam int unsigned CoordW = noc_pkg::CoordW,
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
  /// Network size per dimension in the same layout.
  input  logic [3*CoordW-1:0]        dim_size_i,
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

  // Toward the VC allocator.
  /// VC v holds a routed head and requests its output VCs.
  output logic [NumVcs-1:0]          va_req_o,
  /// Target outputs of VC v's worm in bits [v*NumOut +: NumOut] (bit NumPorts = eject); valid
  /// from Routed until the tail leaves, also for the switch allocator's request set.
  output logic [NumVcs*NumOut-1:0]   target_o,
  /// Output VC class of VC v's worm in bits [v*ClassW +: ClassW] (0 when ejecting).
  output logic [NumVcs*ClassW-1:0]   class_o,
  /// VC v's head has no route-compute decision: it waits in Routed without a request.
  output logic [NumVcs-1:0]          no_route_o,
  /// VC v got all of its output VCs (only while `va_req_o[v]`); it becomes Active.
  input  logic [NumVcs-1:0]          va_gnt_i,

  // Toward the switch allocator and the crossbar.
  /// VC v is Active and has a flit at its front.
  output logic [NumVcs-1:0]          sa_req_o,
  /// VC v won the switch (one-hot or zero, only where `sa_req_o`): its front flit is popped.
  input  logic [NumVcs-1:0]          sa_gnt_i,
  /// A flit leaves this cycle (`sa_gnt_i` is not zero).
  output logic                       flit_valid_o,
  /// The flit that leaves, to the crossbar; zero when none does.
  output logic [FlitW-1:0]           flit_o
);

  /// VC states.
  localparam logic [1:0] StIdle   = 2'd0;
  localparam logic [1:0] StRouted = 2'd1;
  localparam logic [1:0] StActive = 2'd2;

  logic [NumVcs-1:0]       push, pop, empty, full, front_head, front_tail;
  logic [NumVcs*FlitW-1:0] front;
  logic [NumVcs*2-1:0]     state;
  logic [NumVcs-1:0]       rc_sel;    // this VC uses route compute this cycle
  logic [NumVcs-1:0]       credit_q;

  // ---------------------------------------------------------------------------------------------
  // Route compute, shared: the lowest Idle VC with a head at its front.

  noc_pkg::flit_t      rc_flit;
  noc_pkg::head_t      rc_head;
  logic                rc_valid, rc_eject;
  logic [$clog2(NumPorts)-1:0] rc_port;
  logic [ClassW-1:0]   rc_class;
  logic [NumOut-1:0]   rc_target;

  always_comb begin
    logic found;
    found   = 1'b0;
    rc_sel  = '0;
    rc_flit = '0;
    for (int v = 0; v < NumVcs; v++) begin
      if (!found && state[v*2 +: 2] == StIdle && !empty[v] && front_head[v]) begin
        found     = 1'b1;
        rc_sel[v] = 1'b1;
        rc_flit   = front[v*FlitW +: FlitW];
      end
    end
  end

  assign rc_head = rc_flit.data;

  noc_route_compute #(
    .NumPorts(NumPorts),
    .LabelW  (LabelW),
    .CoordW  (CoordW)
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

  always_comb begin
    rc_target = '0;
    for (int p = 0; p < NumPorts; p++) begin
      rc_target[p] = rc_valid && !rc_eject && (rc_port == $clog2(NumPorts)'(p));
    end
    rc_target[NumPorts] = rc_valid && rc_eject;
  end

  // Head fields route compute does not read (yet: `more` is for intermediate reception).
  logic unused_head;
  assign unused_head = ^{rc_flit.head, rc_flit.tail, rc_head.network, rc_head.cf, rc_head.more,
                         rc_head.dest[noc_pkg::AddrW-1:LabelW], rc_head.src, rc_head.tag};

  // ---------------------------------------------------------------------------------------------
  // Per VC: buffer and state machine.

  for (genvar v = 0; v < NumVcs; v++) begin : gen_vc
    logic [FlitW-1:0]                  fifo_data;
    logic [$clog2(BufDepth+1)-1:0]     unused_count;
    logic [1:0]                        state_d, state_q;
    logic [NumOut-1:0]                 target_d, target_q;
    logic [ClassW-1:0]                 class_d, class_q;
    logic                              no_route_d, no_route_q;
    logic                              first_d, first_q;

    assign push[v] = valid_i && (vc_i == VcIdW'(v));
    assign pop[v]  = sa_gnt_i[v] && sa_req_o[v];

    noc_fifo #(
      .Width(FlitW),
      .Depth(BufDepth)
    ) u_fifo (
      .clk_i,
      .rst_ni,
      .push_i (push[v]),
      .data_i (flit_i),
      .pop_i  (pop[v]),
      .data_o (fifo_data),
      .empty_o(empty[v]),
      .full_o (full[v]),
      .count_o(unused_count)
    );

    assign front[v*FlitW +: FlitW] = fifo_data;
    assign front_head[v] = fifo_data[FlitW-1];
    assign front_tail[v] = fifo_data[FlitW-2];

    always_comb begin
      state_d    = state_q;
      target_d   = target_q;
      class_d    = class_q;
      no_route_d = no_route_q;
      first_d    = first_q;
      unique case (state_q)
        StIdle: begin
          if (rc_sel[v]) begin
            state_d    = StRouted;
            target_d   = rc_target;
            class_d    = rc_class;
            no_route_d = !rc_valid;
          end
        end
        StRouted: begin
          if (va_gnt_i[v] && va_req_o[v]) begin
            state_d = StActive;
            first_d = 1'b1;
          end
        end
        StActive: begin
          if (pop[v]) begin
            first_d = 1'b0;
            if (front_tail[v]) begin
              state_d = StIdle;
            end
          end
        end
        default: state_d = StIdle;
      endcase
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        state_q    <= StIdle;
        target_q   <= '0;
        class_q    <= '0;
        no_route_q <= 1'b0;
        first_q    <= 1'b0;
      end else begin
        state_q    <= state_d;
        target_q   <= target_d;
        class_q    <= class_d;
        no_route_q <= no_route_d;
        first_q    <= first_d;
      end
    end

    assign state[v*2 +: 2]              = state_q;
    assign target_o[v*NumOut +: NumOut] = target_q;
    assign class_o[v*ClassW +: ClassW]  = class_q;
    assign no_route_o[v]                = (state_q == StRouted) && no_route_q;
    assign va_req_o[v]                  = (state_q == StRouted) && !no_route_q;
    assign sa_req_o[v]                  = (state_q == StActive) && !empty[v];

    // Worm order on this VC: behind a tail the next front is a head; inside a worm only the first
    // flit popped in Active is a head.
    `NOC_ASSERT(IdleFrontIsHead_A, (state_q == StIdle && !empty[v]) |-> front_head[v])
    `NOC_ASSERT(NoHeadInsideWorm_A, (state_q == StActive && !first_q && !empty[v]) |-> !front_head[v])
    `NOC_ASSERT(FirstPopIsHead_A, (pop[v] && first_q) |-> front_head[v])
    `NOC_ASSERT(PopOnlyActive_A, pop[v] |-> (state_q == StActive))
    `NOC_ASSERT(RoutedHasOneTarget_A, (state_q != StIdle && !no_route_q) |-> $onehot(target_q))
  end

  // ---------------------------------------------------------------------------------------------
  // The flit that leaves (a mux over constant slices), and the credits.

  always_comb begin
    flit_o = '0;
    for (int v = 0; v < NumVcs; v++) begin
      if (pop[v]) begin
        flit_o = front[v*FlitW +: FlitW];
      end
    end
  end
  assign flit_valid_o = |pop;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      credit_q <= '0;
    end else begin
      credit_q <= pop;
    end
  end
  assign credit_o = credit_q;

  `NOC_ASSERT(VcInRange_A, valid_i |-> (32'(vc_i) < NumVcs))
  // Upstream credits guarantee room: a write into a full buffer would lose the flit.
  `NOC_ASSERT(NoWriteIntoFullFifo_A, valid_i |-> !full[vc_i])
  `NOC_ASSERT(VaGntOnlyRequested_A, (va_gnt_i & ~va_req_o) == '0)
  `NOC_ASSERT(SaGntOneHot0_A, $onehot0(sa_gnt_i))
  `NOC_ASSERT(SaGntOnlyRequested_A, (sa_gnt_i & ~sa_req_o) == '0)
  // Exactly one credit per popped flit, in the next cycle.
  `NOC_ASSERT(OneCreditPerPop_A, credit_o == $past(pop))

endmodule
