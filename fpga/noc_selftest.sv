// SPDX-License-Identifier: SHL-0.51
// noc_selftest: the self-test network of the FPGA prototype (docs/fpga.md,
// "The self-test network"). Two noc_routers as a 2-node line (node 0's +x port, network port 0,
// wired to node 1's -x port, network port 1; the other network ports tied off with
// port_connected = 0), a noc_ni per node, and per node a traffic generator (noc_traffic_gen) and
// a delivery checker (noc_delivery_check). The generators send LFSR-chosen worms of every routing
// mode the routers are built with (Hamiltonian path with intermediate reception, dimension order,
// CPR line, source routes); the checkers check every delivery; a credit audit (noc_credit_audit)
// drains the network every AuditPeriod cycles and checks that every credit came back; the routers'
// and NIs' sticky error bits and the routers' drained-worm counts are collected.
//
// The configuration of each router is constant, as a network top computes it
// (rtl/noc_network_top.sv): labels 0 and 1 (the row snake of a 2x1 line), node n at (n, 0, 0),
// sizes (2, 1, 0), a 2D mesh. Hamiltonian-cycle routing needs a torus or a star graph, so the
// routers are built without it (Modes) and save its logic.
//
// Fault injection (Fault, test only): 1 flips one bit of the first tail flit on the link from
// node 0 to node 1 after FaultAfter cycles (a payload word: every message has one); 2 drops the
// first credit router 1 returns to router 0 for VC 0 of that link after FaultAfter cycles.
`include "noc_assert.svh"
`include "noc_registers.svh"

module noc_selftest #(
  /// Test-only fault injection: 0 none; 1 corrupt one payload flit on its way into a router; 2 drop
  /// one credit.
  parameter int unsigned Fault = 0,
  /// Cycle after reset from which the fault is injected (once).
  parameter int unsigned FaultAfter = 512,
  /// Good deliveries of each kind (noc_selftest_pkg Kind*) that pass_o needs.
  parameter int unsigned Target = 64,
  /// Cycles without a delivery while deliveries are outstanding before a source's watchdog trips.
  parameter int unsigned WatchdogCycles = 4096,
  /// Cycles between credit audits (a power of two).
  parameter int unsigned AuditPeriod = 2048,
  /// VCs per router port: 2, the Hamiltonian path's two channel networks.
  parameter int unsigned NumVcs = 2,
  /// Flits per router input VC buffer (and NI ejection FIFO). 1 on the HX8K: the buffers are
  /// flip-flops that no LUT drives, one logic cell each, and with 4 (9,031 logic cells) or 2 (7,653)
  /// the two routers and NIs leave no room for the board (docs/fpga.md, "iCE40 HX8K figures").
  parameter int unsigned BufDepth = 1,
  /// Width of a Hamiltonian label (labels 0 and 1).
  parameter int unsigned LabelW = 2,
  /// Routing modes built into the routers: Hamiltonian path, dimension order, CPR line, source
  /// routes (noc_pkg::route_mode_e bits 0, 2, 3, 4); no Hamiltonian cycle.
  parameter int unsigned Modes = 29
) (
  /// Clock.
  input  logic        clk_i,
  /// Active-low reset, asynchronous assert, deasserted synchronously by the board.
  input  logic        rst_ni,
  /// Messages injected (all nodes): heads taken by the NIs.
  output logic [31:0] worms_sent_o,
  /// Deliveries checked good (all nodes, one per destination).
  output logic [31:0] worms_delivered_o,
  /// Deliveries failing a check, plus watchdog trips and credit-audit failures (saturating).
  output logic [15:0] check_errors_o,
  /// Sticky: bits [2:0] the routers' errors_o (OR), [5:3] the NIs' errors_o (OR), [6] a router
  /// drained a worm (route_drops_o != 0), [7] 0.
  output logic [7:0]  router_errors_o,
  /// Cycles since reset.
  output logic [31:0] cycles_o,
  /// Sticky: every kind reached Target good deliveries and a credit audit after that found every
  /// credit back, with no error so far.
  output logic        pass_o,
  /// Sticky: any check error, watchdog trip, credit-audit failure or router/NI error bit.
  output logic        fail_o
);

  localparam int unsigned NumNodes    = noc_selftest_pkg::NumNodes;
  localparam int unsigned NumNetPorts = 4;
  localparam int unsigned NumPorts    = NumNetPorts + 1;
  localparam int unsigned VcIdW       = (NumVcs > 1) ? $clog2(NumVcs) : 1;
  localparam int unsigned FlitW       = noc_pkg::FlitW;
  localparam int unsigned DataW       = noc_pkg::DataW;
  localparam int unsigned CoordW      = noc_pkg::CoordW;
  localparam int unsigned DimSizeW    = CoordW + 1;  // noc_router's
  localparam int unsigned StreamW     = $clog2(NumPorts * NumVcs);
  localparam int unsigned PosW        = noc_pkg::MoreW;
  localparam int unsigned NumKinds    = noc_selftest_pkg::NumKinds;
  localparam int unsigned KindCntW    = $clog2(Target + 1);
  localparam int unsigned AuditW      = $clog2(AuditPeriod);
  localparam int unsigned LocalPort   = NumNetPorts;
  /// Credit loops audited: the link 0 -> 1 per VC, the link 1 -> 0 per VC, each ejection pool.
  localparam int unsigned NumAudits   = 2 * NumVcs + NumNodes;
  /// Error pulses per cycle: two checkers, two generators' underflow and watchdog, the audit.
  localparam int unsigned NumErrSrc   = 2 + 2 * NumNodes + 1;

  if (Fault > 2) begin : gen_fault_check
    $error("noc_selftest: Fault must be 0 (none), 1 (corrupt a flit) or 2 (drop a credit)");
  end
  if (NumVcs != 2) begin : gen_vcs_check
    $error("noc_selftest: the self-test network needs NumVcs = 2");
  end
  if ((AuditPeriod & (AuditPeriod - 1)) != 0) begin : gen_audit_check
    $error("noc_selftest: AuditPeriod must be a power of two");
  end

  // ---------------------------------------------------------------------------------------------
  // Cycles since reset (also times the fault).
  logic [31:0] cycles_d, cycles_q;
  assign cycles_d = cycles_q + 1'b1;
  `NOC_FF(cycles_q, cycles_d, '0)
  assign cycles_o = cycles_q;

  // ---------------------------------------------------------------------------------------------
  // Routers and NIs. r_* are router n's port vectors at [n*W +: W].
  logic [NumNodes*NumPorts-1:0]         r_in_valid, r_out_valid;
  logic [NumNodes*NumPorts*VcIdW-1:0]   r_in_vc, r_out_vc;
  logic [NumNodes*NumPorts*FlitW-1:0]   r_in_flit, r_out_flit;
  logic [NumNodes*NumPorts*NumVcs-1:0]  r_in_credit, r_out_credit;
  logic [NumNodes*StreamW-1:0]          r_stream;
  logic [NumNodes*NumPorts*NumVcs-1:0]  r_draining;
  logic [NumNodes*noc_pkg::RouteDropsW-1:0] r_drops;
  logic [NumNodes*noc_pkg::ErrorsW-1:0] r_errors;
  logic [NumNodes*3-1:0]                ni_errors;

  // Generator and checker signals per node.
  logic [NumNodes-1:0]       msg_valid, msg_ready, msg_last, rx_valid, rx_ready, rx_head, rx_addr, rx_last;
  logic [NumNodes*DataW-1:0] msg_data, rx_data;
  logic [NumNodes*StreamW-1:0] rx_stream;
  logic [NumNodes*PosW-1:0]  rx_pos;
  logic [NumNodes-1:0]       sent, gen_idle, underflow, stall;
  logic [NumNodes-1:0]       dlv, dlv_good, dlv_src, dlv_inter, chk_error;
  logic [NumNodes*3-1:0]     dlv_kind;
  logic [NumNodes*2-1:0]     delivered_to_src;
  logic                      drain;

  // Link wiring with the fault points, in router port order (node 0 port 0 <-> node 1 port 1).
  localparam int unsigned P01 = 0;                   // node 0's port toward node 1
  localparam int unsigned P10 = NumPorts + 1;        // node 1's port toward node 0 (flat index)
  logic       fault_armed, fault_done_d, fault_done_q, fault_hit;
  logic [FlitW-1:0] link01_flit;
  logic [NumVcs-1:0] credit10;  // router 1's credits for the link 0 -> 1, as router 0 gets them
  noc_pkg::flit_t link01;
  assign link01      = r_out_flit[P01*FlitW +: FlitW];
  assign fault_armed = (cycles_q >= 32'(FaultAfter)) && !fault_done_q;
  always_comb begin
    link01_flit = link01;
    credit10    = r_in_credit[P10*NumVcs +: NumVcs];
    fault_hit   = 1'b0;
    if (Fault == 1 && fault_armed && r_out_valid[P01] && link01.tail && !link01.head) begin
      // One bit of a payload word (a tail flit is always payload: every message has payload).
      link01_flit[12] = !link01_flit[12];
      fault_hit       = 1'b1;
    end
    if (Fault == 2 && fault_armed && credit10[0]) begin
      credit10[0] = 1'b0;
      fault_hit   = 1'b1;
    end
    fault_done_d = fault_done_q || fault_hit;
  end
  `NOC_FF(fault_done_q, fault_done_d, 1'b0)

  always_comb begin
    r_in_valid   = '0;
    r_in_vc      = '0;
    r_in_flit    = '0;
    r_out_credit = '0;
    // Link 0 -> 1: router 0 port 0 out, router 1 port 1 in; credits back from router 1 port 1.
    r_in_valid[P10]                  = r_out_valid[P01];
    r_in_vc[P10*VcIdW +: VcIdW]      = r_out_vc[P01*VcIdW +: VcIdW];
    r_in_flit[P10*FlitW +: FlitW]    = link01_flit;
    r_out_credit[P01*NumVcs +: NumVcs] = credit10;
    // Link 1 -> 0: router 1 port 1 out, router 0 port 0 in; credits back from router 0 port 0.
    r_in_valid[P01]                  = r_out_valid[P10];
    r_in_vc[P01*VcIdW +: VcIdW]      = r_out_vc[P10*VcIdW +: VcIdW];
    r_in_flit[P01*FlitW +: FlitW]    = r_out_flit[P10*FlitW +: FlitW];
    r_out_credit[P10*NumVcs +: NumVcs] = r_in_credit[P01*NumVcs +: NumVcs];
    // Local ports: the NIs.
    for (int n = 0; n < NumNodes; n++) begin
      r_in_valid[n*NumPorts + LocalPort]                     = ni_inj_valid[n];
      r_in_vc[(n*NumPorts + LocalPort)*VcIdW +: VcIdW]       = ni_inj_vc[n*VcIdW +: VcIdW];
      r_in_flit[(n*NumPorts + LocalPort)*FlitW +: FlitW]     = ni_inj_flit[n*FlitW +: FlitW];
      r_out_credit[(n*NumPorts + LocalPort)*NumVcs +: NumVcs] = ni_ej_credit[n*NumVcs +: NumVcs];
    end
  end

  logic [NumNodes-1:0]        ni_inj_valid;
  logic [NumNodes*VcIdW-1:0]  ni_inj_vc;
  logic [NumNodes*FlitW-1:0]  ni_inj_flit;
  logic [NumNodes*NumVcs-1:0] ni_ej_credit;

  for (genvar n = 0; n < NumNodes; n++) begin : gen_node
    localparam int unsigned Other = 1 - n;
    // Router n's constant configuration: label n, the neighbour's label on its port n.
    logic [NumNetPorts*LabelW-1:0] nbr_label;
    logic [NumNetPorts-1:0]        connected;
    always_comb begin
      nbr_label = '0;
      nbr_label[n*LabelW +: LabelW] = LabelW'(Other);
      connected = '0;
      connected[n] = 1'b1;
    end

    noc_router #(
      .NumNetPorts(NumNetPorts),
      .NumLocal   (1),
      .NumVcs     (NumVcs),
      .BufDepth   (BufDepth),
      .LabelW     (LabelW),
      .Modes      (Modes)
    ) u_router (
      .clk_i,
      .rst_ni,
      .own_label_i       (LabelW'(n)),
      .nbr_label_i       (nbr_label),
      .port_connected_i  (connected),
      .port_is_wrap_i    ('0),
      .port_is_boundary_i('0),
      .own_coord_i       ({CoordW'(0), CoordW'(0), CoordW'(n)}),
      .dim_size_i        ({DimSizeW'(0), DimSizeW'(1), DimSizeW'(2)}),
      .is_torus_i        (1'b0),
      .num_dims_i        (2'd2),
      .in_valid_i        (r_in_valid[n*NumPorts +: NumPorts]),
      .in_vc_i           (r_in_vc[n*NumPorts*VcIdW +: NumPorts*VcIdW]),
      .in_flit_i         (r_in_flit[n*NumPorts*FlitW +: NumPorts*FlitW]),
      .in_credit_o       (r_in_credit[n*NumPorts*NumVcs +: NumPorts*NumVcs]),
      .out_valid_o       (r_out_valid[n*NumPorts +: NumPorts]),
      .out_vc_o          (r_out_vc[n*NumPorts*VcIdW +: NumPorts*VcIdW]),
      .out_flit_o        (r_out_flit[n*NumPorts*FlitW +: NumPorts*FlitW]),
      .out_credit_i      (r_out_credit[n*NumPorts*NumVcs +: NumPorts*NumVcs]),
      .eject_stream_o    (r_stream[n*StreamW +: StreamW]),
      .draining_o        (r_draining[n*NumPorts*NumVcs +: NumPorts*NumVcs]),
      .route_drops_o     (r_drops[n*noc_pkg::RouteDropsW +: noc_pkg::RouteDropsW]),
      .errors_o          (r_errors[n*noc_pkg::ErrorsW +: noc_pkg::ErrorsW])
    );

    noc_ni #(
      .NumNetPorts(NumNetPorts),
      .NumLocal   (1),
      .NumVcs     (NumVcs),
      .BufDepth   (BufDepth)
    ) u_ni (
      .clk_i,
      .rst_ni,
      .msg_valid_i (msg_valid[n]),
      .msg_ready_o (msg_ready[n]),
      .msg_data_i  (msg_data[n*DataW +: DataW]),
      .msg_last_i  (msg_last[n]),
      .inj_valid_o (ni_inj_valid[n]),
      .inj_vc_o    (ni_inj_vc[n*VcIdW +: VcIdW]),
      .inj_flit_o  (ni_inj_flit[n*FlitW +: FlitW]),
      .inj_credit_i(r_in_credit[(n*NumPorts + LocalPort)*NumVcs +: NumVcs]),
      .ej_valid_i  (r_out_valid[n*NumPorts + LocalPort]),
      .ej_flit_i   (r_out_flit[(n*NumPorts + LocalPort)*FlitW +: FlitW]),
      .ej_stream_i (r_stream[n*StreamW +: StreamW]),
      .ej_credit_o (ni_ej_credit[n*NumVcs +: NumVcs]),
      .rx_valid_o  (rx_valid[n]),
      .rx_ready_i  (rx_ready[n]),
      .rx_stream_o (rx_stream[n*StreamW +: StreamW]),
      .rx_head_o   (rx_head[n]),
      .rx_addr_o   (rx_addr[n]),
      .rx_last_o   (rx_last[n]),
      .rx_pos_o    (rx_pos[n*PosW +: PosW]),
      .rx_data_o   (rx_data[n*DataW +: DataW]),
      .errors_o    (ni_errors[n*3 +: 3])
    );

    noc_traffic_gen #(
      .Node          (n),
      .Seed          ((n == 0) ? 16'hACE1 : 16'h1D2B),
      .WatchdogCycles(WatchdogCycles)
    ) u_gen (
      .clk_i,
      .rst_ni,
      .drain_i    (drain),
      .msg_valid_o(msg_valid[n]),
      .msg_ready_i(msg_ready[n]),
      .msg_data_o (msg_data[n*DataW +: DataW]),
      .msg_last_o (msg_last[n]),
      .delivered_i(delivered_to_src[n*2 +: 2]),
      .sent_o     (sent[n]),
      .idle_o     (gen_idle[n]),
      .underflow_o(underflow[n]),
      .stall_o    (stall[n])
    );

    noc_delivery_check #(
      .Node       (n),
      .NumNetPorts(NumNetPorts),
      .NumVcs     (NumVcs)
    ) u_check (
      .clk_i,
      .rst_ni,
      .rx_valid_i     (rx_valid[n]),
      .rx_ready_o     (rx_ready[n]),
      .rx_stream_i    (rx_stream[n*StreamW +: StreamW]),
      .rx_head_i      (rx_head[n]),
      .rx_addr_i      (rx_addr[n]),
      .rx_last_i      (rx_last[n]),
      .rx_pos_i       (rx_pos[n*PosW +: PosW]),
      .rx_data_i      (rx_data[n*DataW +: DataW]),
      .deliver_o      (dlv[n]),
      .deliver_good_o (dlv_good[n]),
      .deliver_src_o  (dlv_src[n]),
      .deliver_kind_o (dlv_kind[n*3 +: 3]),
      .deliver_inter_o(dlv_inter[n]),
      .error_o        (chk_error[n])
    );

    // Deliveries of source n's messages reported by both checkers this cycle.
    assign delivered_to_src[n*2 +: 2] = 2'(dlv[0] && (32'(dlv_src[0]) == n)) +
                                        2'(dlv[1] && (32'(dlv_src[1]) == n));
  end

  // ---------------------------------------------------------------------------------------------
  // Credit audit: every AuditPeriod cycles the generators stop starting messages; once both are
  // idle, noc_audit_schedule waits for the last credits and asks every loop to have all of them.
  logic au_check;
  noc_audit_schedule #(
    .AuditW(AuditW)
  ) u_audit_schedule (
    .clk_i,
    .rst_ni,
    .idle_i (&gen_idle),
    .drain_o(drain),
    .check_o(au_check)
  );

  logic [NumAudits-1:0] audit_flit, audit_credit, audit_error;
  always_comb begin
    for (int v = 0; v < NumVcs; v++) begin
      // Link 0 -> 1 as router 0 sees it (the credits after the fault point), and link 1 -> 0.
      audit_flit[v]            = r_out_valid[P01] && (32'(r_out_vc[P01*VcIdW +: VcIdW]) == v);
      audit_credit[v]          = r_out_credit[P01*NumVcs + v];
      audit_flit[NumVcs + v]   = r_out_valid[P10] && (32'(r_out_vc[P10*VcIdW +: VcIdW]) == v);
      audit_credit[NumVcs + v] = r_out_credit[P10*NumVcs + v];
    end
    for (int n = 0; n < NumNodes; n++) begin
      // Ejection pool n: one pool of credits, returned on VC 0's bit.
      audit_flit[2*NumVcs + n]   = r_out_valid[n*NumPorts + LocalPort];
      audit_credit[2*NumVcs + n] = r_out_credit[(n*NumPorts + LocalPort)*NumVcs];
    end
  end
  for (genvar a = 0; a < NumAudits; a++) begin : gen_audit
    noc_credit_audit #(
      .Depth(BufDepth)
    ) u_audit (
      .clk_i,
      .rst_ni,
      .flit_i  (audit_flit[a]),
      .credit_i(audit_credit[a]),
      .check_i (au_check),
      .error_o (audit_error[a])
    );
  end

  // ---------------------------------------------------------------------------------------------
  // Counters and verdict.
  logic [NumErrSrc-1:0] err_src;
  assign err_src = {|audit_error, stall, underflow, chk_error};

  logic [31:0] sent_d, sent_q, good_d, good_q;
  logic [15:0] errs_d, errs_q;
  logic [16:0] errs_sum;
  logic [NumKinds*KindCntW-1:0] kind_d, kind_q;
  logic [NumKinds-1:0]          kind_done;
  logic [7:0]                   rerr_d, rerr_q;
  logic                         pass_d, pass_q, fail_d, fail_q;
  always_comb begin
    sent_d   = sent_q + 32'(sent[0]) + 32'(sent[1]);
    good_d   = good_q + 32'(dlv[0] && dlv_good[0]) + 32'(dlv[1] && dlv_good[1]);
    errs_sum = 17'(errs_q) + 17'($countones(err_src));
    errs_d   = errs_sum[16] ? '1 : errs_sum[15:0];
    kind_d   = kind_q;
    for (int k = 0; k < NumKinds; k++) begin
      logic [KindCntW:0] sum;
      sum = (KindCntW + 1)'(kind_q[k*KindCntW +: KindCntW]) +
            (KindCntW + 1)'(dlv[0] && dlv_good[0] && (32'(dlv_kind[0 +: 3]) == k)) +
            (KindCntW + 1)'(dlv[1] && dlv_good[1] && (32'(dlv_kind[3 +: 3]) == k));
      kind_d[k*KindCntW +: KindCntW] = (32'(sum) >= Target) ? KindCntW'(Target) : KindCntW'(sum);
      kind_done[k] = (32'(kind_q[k*KindCntW +: KindCntW]) == Target);
    end
    rerr_d = rerr_q;
    rerr_d[2:0] = rerr_q[2:0] | r_errors[0 +: 3] | r_errors[3 +: 3];
    rerr_d[5:3] = rerr_q[5:3] | ni_errors[0 +: 3] | ni_errors[3 +: 3];
    rerr_d[6]   = rerr_q[6] | (r_drops != '0);
    fail_d = fail_q || (err_src != '0) || (rerr_q != '0);
    // Pass is decided at a credit audit: every kind at its target and every credit back.
    pass_d = pass_q || (au_check && (&kind_done) && !fail_d);
  end
  `NOC_FF(sent_q, sent_d, '0)
  `NOC_FF(good_q, good_d, '0)
  `NOC_FF(errs_q, errs_d, '0)
  `NOC_FF(kind_q, kind_d, '0)
  `NOC_FF(rerr_q, rerr_d, '0)
  `NOC_FF(pass_q, pass_d, 1'b0)
  `NOC_FF(fail_q, fail_d, 1'b0)

  assign worms_sent_o      = sent_q;
  assign worms_delivered_o = good_q;
  assign check_errors_o    = errs_q;
  assign router_errors_o   = rerr_q;
  assign pass_o            = pass_q;
  assign fail_o            = fail_q;

  // Which deliveries were intermediate receptions is checked per kind by the checkers; the
  // draining status is covered by route_drops_o. The tied-off ports' outputs go nowhere (their
  // out_vc_o, out_flit_o and in_credit_o bits; the ejection ports' VC is always 0).
  logic unused;
  always_comb begin
    unused = ^{dlv_inter, r_draining};
    for (int n = 0; n < NumNodes; n++) begin
      for (int p = 0; p < NumPorts; p++) begin
        if (p != n) begin
          unused = unused ^ (^r_out_vc[(n*NumPorts + p)*VcIdW +: VcIdW]);
          if (p != LocalPort) begin
            unused = unused ^ (^r_out_flit[(n*NumPorts + p)*FlitW +: FlitW]) ^
                     (^r_in_credit[(n*NumPorts + p)*NumVcs +: NumVcs]);
          end
        end
      end
    end
  end

  `NOC_ASSERT(NoCheckErrorWithoutFault_A, (Fault == 0) |-> (err_src == '0))
  `NOC_ASSERT(NoRouterErrorWithoutFault_A, (Fault == 0) |-> (rerr_q == '0))

endmodule
