// SPDX-License-Identifier: SHL-0.51
// noc_selftest_mesh: the self-test network on an R x C mesh (docs/fpga.md, "The mesh
// self-test"), for FPGAs larger than the HX8K. The network is rtl/noc_network_top.sv itself (its
// labels, coordinates and neighbour wiring), with 4 VCs by the VC-class plan; per node a noc_ni,
// a traffic generator (noc_mesh_traffic_gen) and a delivery checker (noc_mesh_delivery_check). The
// generators send LFSR-chosen worms of the routing modes a mesh runs (Hamiltonian path with one
// and two destinations, dimension order, CPR lines, YX source routes with and without a deliver
// entry), each in the classes of a firmware family of the VC-class plan; the checkers check every
// delivery and report it to its source, which accounts every message's deliveries; a credit audit
// (noc_credit_audit) drains the network every AuditPeriod cycles and checks every credit loop it
// can see (each node's injection link per VC and ejection pool: the links between routers are
// inside noc_network_top); the routers' and NIs' sticky error bits and drained-worm counts are
// collected. The outputs are noc_selftest's.
//
// Every whole-mesh gather starts from registers: each checker's delivery report is registered at
// its node before it fans out to every generator and to the counters, and every node's error
// sources, sent pulse and router/NI error bits are registered before the counters sum them. On a
// die the size of the ECP5's the nodes are placed far apart, and these gathers otherwise chain the
// routing across the chip onto a node's ejection logic in one cycle; the stages give the crossing
// a cycle of its own. The verdict is unchanged (see "Counters and verdict").
//
// Fault injection (Fault, test only), on node 0's injection link (NI to router), once, after
// FaultAfter cycles: 1 flips one bit of the first payload tail flit (the checker where the worm
// ends must find it); 2 drops the first credit router 0 returns to the NI for VC 0 (the credit
// audit must find it, or with BufDepth 1 the watchdog).
`include "noc_assert.svh"
`include "noc_registers.svh"

module noc_selftest_mesh #(
  /// Mesh nodes along x (2..4).
  parameter int unsigned SizeX = 2,
  /// Mesh nodes along y (2..4).
  parameter int unsigned SizeY = 2,
  /// Test-only fault injection: 0 none; 1 corrupt one payload flit; 2 drop one credit.
  parameter int unsigned Fault = 0,
  /// Cycle after reset from which the fault is injected (once).
  parameter int unsigned FaultAfter = 512,
  /// Good deliveries of each kind sent (noc_selftest_mesh_pkg::KindsSent) that pass_o needs.
  parameter int unsigned Target = 64,
  /// Cycles a busy source may go without progress before its watchdog trips.
  parameter int unsigned WatchdogCycles = 4096,
  /// Cycles between credit audits (a power of two).
  parameter int unsigned AuditPeriod = 2048,
  /// VCs per router port: 4, the VC-class plan's count on 2D meshes (docs/rtl.md).
  parameter int unsigned NumVcs = 4,
  /// Flits per router input VC buffer (and NI ejection FIFO).
  parameter int unsigned BufDepth = 4
) (
  /// Clock.
  input  logic        clk_i,
  /// Active-low reset, asynchronous assert, deasserted synchronously by the board.
  input  logic        rst_ni,
  /// Messages injected (all nodes): heads taken by the NIs.
  output logic [31:0] worms_sent_o,
  /// Deliveries checked good (all nodes, one per delivery).
  output logic [31:0] worms_delivered_o,
  /// Deliveries failing a check, plus duplicate reports, watchdog trips and credit-audit failures
  /// (saturating).
  output logic [15:0] check_errors_o,
  /// Sticky: bits [2:0] the routers' errors_o (OR), [5:3] the NIs' errors_o (OR), [6] a router
  /// drained a worm (route_drops_o != 0), [7] 0.
  output logic [7:0]  router_errors_o,
  /// Cycles since reset.
  output logic [31:0] cycles_o,
  /// Sticky: every kind sent reached Target good deliveries and a credit audit after that found
  /// every credit back, with no error so far.
  output logic        pass_o,
  /// Sticky: any check error, duplicate, watchdog trip, credit-audit failure or router/NI error bit.
  output logic        fail_o
);

  localparam int unsigned NumNodes    = SizeX * SizeY;
  localparam int unsigned NumNetPorts = 4;
  localparam int unsigned NumPorts    = NumNetPorts + 1;
  localparam int unsigned VcIdW       = $clog2(NumVcs);
  localparam int unsigned FlitW       = noc_pkg::FlitW;
  localparam int unsigned DataW       = noc_pkg::DataW;
  localparam int unsigned StreamW     = $clog2(NumPorts * NumVcs);
  localparam int unsigned PosW        = noc_pkg::MoreW;
  localparam int unsigned NodeW       = noc_selftest_mesh_pkg::NodeW;
  localparam int unsigned TagW        = noc_pkg::TagW;
  localparam int unsigned NumKinds    = noc_selftest_pkg::NumKinds;
  localparam int unsigned KindCntW    = $clog2(Target + 1);
  localparam int unsigned AuditW      = $clog2(AuditPeriod);
  localparam int unsigned LabelW      = $clog2(NumNodes);
  localparam int unsigned CntW        = $clog2(NumNodes + 1);
  /// Credit loops audited: each node's injection link per VC, then each node's ejection pool.
  localparam int unsigned NumAudits   = NumNodes * NumVcs + NumNodes;
  /// Error pulses per cycle: the checkers, the generators' duplicates and watchdogs, the audit.
  localparam int unsigned NumErrSrc   = 3 * NumNodes + 1;

  if (Fault > 2) begin : gen_fault_check
    $error("noc_selftest_mesh: Fault (%0d) must be 0 (none), 1 (corrupt a flit) or 2 (drop a credit)", Fault);
  end
  if (NumVcs != 4) begin : gen_vcs_check
    $error("noc_selftest_mesh: NumVcs (%0d) must be 4, the VC-class plan's count on a 2D mesh", NumVcs);
  end
  if ((AuditPeriod & (AuditPeriod - 1)) != 0) begin : gen_audit_check
    $error("noc_selftest_mesh: AuditPeriod (%0d) must be a power of two", AuditPeriod);
  end

  // ---------------------------------------------------------------------------------------------
  // Cycles since reset (also times the fault).
  logic [31:0] cycles_d, cycles_q;
  assign cycles_d = cycles_q + 1'b1;
  `NOC_FF(cycles_q, cycles_d, '0)
  assign cycles_o = cycles_q;

  // ---------------------------------------------------------------------------------------------
  // The network and the NIs. Node n's local vectors at [n*W +: W].
  logic [NumNodes-1:0]                     inj_valid, ej_valid;
  logic [NumNodes*VcIdW-1:0]               inj_vc, ej_vc;
  logic [NumNodes*FlitW-1:0]               ni_inj_flit, inj_flit, ej_flit;
  logic [NumNodes*NumVcs-1:0]              inj_credit, ni_inj_credit, ej_credit;
  logic [NumNodes*StreamW-1:0]             ej_stream;
  logic [NumNodes*NumPorts*NumVcs-1:0]     draining;
  logic [NumNodes*noc_pkg::RouteDropsW-1:0] drops;
  logic [NumNodes*noc_pkg::ErrorsW-1:0]    r_errors;
  logic [NumNodes*3-1:0]                   ni_errors;

  // The fault point: node 0's injection link.
  logic             fault_armed, fault_done_d, fault_done_q, fault_hit;
  logic             inj0_head, inj0_tail;
  // Node 0's injected flit's head and tail bits (noc_pkg::flit_t: {head, tail, data}).
  assign inj0_head   = ni_inj_flit[FlitW-1];
  assign inj0_tail   = ni_inj_flit[FlitW-2];
  assign fault_armed = (cycles_q >= 32'(FaultAfter)) && !fault_done_q;
  always_comb begin
    inj_flit      = ni_inj_flit;
    ni_inj_credit = inj_credit;
    fault_hit     = 1'b0;
    if (Fault == 1 && fault_armed && inj_valid[0] && inj0_tail && !inj0_head) begin
      // One bit of a payload word (a tail flit is always payload: every message has payload).
      inj_flit[12] = !inj_flit[12];
      fault_hit    = 1'b1;
    end
    if (Fault == 2 && fault_armed && inj_credit[0]) begin
      ni_inj_credit[0] = 1'b0;
      fault_hit        = 1'b1;
    end
    fault_done_d = fault_done_q || fault_hit;
  end
  `NOC_FF(fault_done_q, fault_done_d, 1'b0)

  noc_network_top #(
    .SizeX   (SizeX),
    .SizeY   (SizeY),
    .Torus   (0),
    .NumLocal(1),
    .NumVcs  (NumVcs),
    .BufDepth(BufDepth),
    .LabelW  (LabelW)
  ) u_net (
    .clk_i,
    .rst_ni,
    .inj_valid_i  (inj_valid),
    .inj_vc_i     (inj_vc),
    .inj_flit_i   (inj_flit),
    .inj_credit_o (inj_credit),
    .ej_valid_o   (ej_valid),
    .ej_vc_o      (ej_vc),
    .ej_flit_o    (ej_flit),
    .ej_credit_i  (ej_credit),
    .ej_stream_o  (ej_stream),
    .draining_o   (draining),
    .route_drops_o(drops),
    .errors_o     (r_errors)
  );

  // Generator and checker signals per node.
  logic [NumNodes-1:0]       msg_valid, msg_ready, msg_last, rx_valid, rx_ready, rx_head, rx_addr, rx_last;
  logic [NumNodes*DataW-1:0] msg_data, rx_data;
  logic [NumNodes*StreamW-1:0] rx_stream;
  logic [NumNodes*PosW-1:0]  rx_pos;
  logic [NumNodes-1:0]       sent, gen_idle, dup, stall;
  logic [NumNodes-1:0]       dlv, dlv_good, chk_error;
  logic [NumNodes*NodeW-1:0] dlv_src;
  logic [NumNodes*TagW-1:0]  dlv_tag;
  logic [NumNodes*3-1:0]     dlv_kind;
  logic                      drain;
  // The delivery reports registered at their node: the generators (every node's report goes to
  // every source) and the counters read these. A source sees its deliveries a cycle later than the
  // checker makes them; its accounting only waits a cycle longer (a tag is reused once all of its
  // deliveries are reported, idle_o comes a cycle later, the audit waits for idle).
  logic [NumNodes-1:0]       dlv_q, dlv_good_q;
  logic [NumNodes*NodeW-1:0] dlv_src_q;
  logic [NumNodes*TagW-1:0]  dlv_tag_q;
  logic [NumNodes*3-1:0]     dlv_kind_q;
  `NOC_FF(dlv_q, dlv, '0)
  `NOC_FF(dlv_good_q, dlv_good, '0)
  `NOC_FF(dlv_src_q, dlv_src, '0)
  `NOC_FF(dlv_tag_q, dlv_tag, '0)
  `NOC_FF(dlv_kind_q, dlv_kind, '0)

  for (genvar n = 0; n < NumNodes; n++) begin : gen_node
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
      .inj_valid_o (inj_valid[n]),
      .inj_vc_o    (inj_vc[n*VcIdW +: VcIdW]),
      .inj_flit_o  (ni_inj_flit[n*FlitW +: FlitW]),
      .inj_credit_i(ni_inj_credit[n*NumVcs +: NumVcs]),
      .ej_valid_i  (ej_valid[n]),
      .ej_flit_i   (ej_flit[n*FlitW +: FlitW]),
      .ej_stream_i (ej_stream[n*StreamW +: StreamW]),
      .ej_credit_o (ej_credit[n*NumVcs +: NumVcs]),
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

    noc_mesh_traffic_gen #(
      .SizeX         (SizeX),
      .SizeY         (SizeY),
      .Node          (n),
      // Distinct nonzero seeds per node (the constant's low half is never zero).
      .Seed          (32'hACE1_5EED ^ (32'(n) * 32'h9E37_0000)),
      .WatchdogCycles(WatchdogCycles)
    ) u_gen (
      .clk_i,
      .rst_ni,
      .drain_i    (drain),
      .msg_valid_o(msg_valid[n]),
      .msg_ready_i(msg_ready[n]),
      .msg_data_o (msg_data[n*DataW +: DataW]),
      .msg_last_o (msg_last[n]),
      .dlv_i      (dlv_q),
      .dlv_src_i  (dlv_src_q),
      .dlv_tag_i  (dlv_tag_q),
      .sent_o     (sent[n]),
      .idle_o     (gen_idle[n]),
      .dup_o      (dup[n]),
      .stall_o    (stall[n])
    );

    noc_mesh_delivery_check #(
      .SizeX (SizeX),
      .SizeY (SizeY),
      .Node  (n),
      .NumVcs(NumVcs)
    ) u_check (
      .clk_i,
      .rst_ni,
      .rx_valid_i    (rx_valid[n]),
      .rx_ready_o    (rx_ready[n]),
      .rx_stream_i   (rx_stream[n*StreamW +: StreamW]),
      .rx_head_i     (rx_head[n]),
      .rx_addr_i     (rx_addr[n]),
      .rx_last_i     (rx_last[n]),
      .rx_pos_i      (rx_pos[n*PosW +: PosW]),
      .rx_data_i     (rx_data[n*DataW +: DataW]),
      .deliver_o     (dlv[n]),
      .deliver_good_o(dlv_good[n]),
      .deliver_src_o (dlv_src[n*NodeW +: NodeW]),
      .deliver_tag_o (dlv_tag[n*TagW +: TagW]),
      .deliver_kind_o(dlv_kind[n*3 +: 3]),
      .error_o       (chk_error[n])
    );
  end

  // ---------------------------------------------------------------------------------------------
  // Credit audit, as noc_selftest's: every AuditPeriod cycles the generators stop starting
  // messages; once all are idle, noc_audit_schedule waits for the last credits and asks every
  // audited loop to have all of them.
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
    for (int n = 0; n < NumNodes; n++) begin
      for (int v = 0; v < NumVcs; v++) begin
        // Injection link of node n, VC v, with the credits as the NI gets them (after the fault).
        audit_flit[n*NumVcs + v]   = inj_valid[n] && (32'(inj_vc[n*VcIdW +: VcIdW]) == v);
        audit_credit[n*NumVcs + v] = ni_inj_credit[n*NumVcs + v];
      end
      // Ejection pool n: one pool of credits, returned on VC 0's bit.
      audit_flit[NumNodes*NumVcs + n]   = ej_valid[n];
      audit_credit[NumNodes*NumVcs + n] = ej_credit[n*NumVcs];
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
  // Counters and verdict. The counters sum registered per-node inputs: the delivery reports
  // (above) and, here, the error sources, sent pulses, router/NI error bits and drained-worm flags.
  // An event is counted one cycle later than without these stages (a duplicate or watchdog trip,
  // which a generator makes from the registered reports, two), so fail_o rises a cycle or two
  // later.
  //
  // Pass is decided two cycles after the audit's check (au_check_q2). There fail_d holds every
  // error source up to the cycle after the check, duplicates and watchdog trips from every
  // delivery up to the check's cycle, and every router/NI error bit up to the check's cycle;
  // kind_q counts every delivery up to the check's cycle. Without the stages, the decision at the
  // check saw error sources up to the check's cycle (the audit's own result among them) and error
  // bits and deliveries up to the cycle before: a subset, so nothing it saw is missed. Nor do the
  // later cycles let in a delivery it would not have counted: the sources are idle, nothing
  // outstanding, from before the audit's quiet cycles to the check, so a delivery then is a
  // duplicate and fails. pass_o still means every kind at its target and a clean audit with no
  // error.
  logic [NumErrSrc-1:0]                 err_src, err_src_q;
  assign err_src = {|audit_error, stall, dup, chk_error};
  logic [NumNodes-1:0]                  sent_q, drops_d, drops_q;
  logic [NumNodes*noc_pkg::ErrorsW-1:0] r_errors_q;
  logic [NumNodes*3-1:0]                ni_errors_q;
  logic                                 au_check_q, au_check_q2;
  always_comb begin
    for (int n = 0; n < NumNodes; n++) begin
      drops_d[n] = drops[n*noc_pkg::RouteDropsW +: noc_pkg::RouteDropsW] != '0;
    end
  end
  `NOC_FF(err_src_q, err_src, '0)
  `NOC_FF(sent_q, sent, '0)
  `NOC_FF(drops_q, drops_d, '0)
  `NOC_FF(r_errors_q, r_errors, '0)
  `NOC_FF(ni_errors_q, ni_errors, '0)
  `NOC_FF(au_check_q, au_check, 1'b0)
  `NOC_FF(au_check_q2, au_check_q, 1'b0)

  logic [31:0] sent_cnt_d, sent_cnt_q, good_d, good_q;
  logic [15:0] errs_d, errs_q;
  logic [16:0] errs_sum;
  logic [NumKinds*KindCntW-1:0] kind_d, kind_q;
  logic [NumKinds-1:0]          kind_done;
  logic [7:0]                   rerr_d, rerr_q;
  logic                         pass_d, pass_q, fail_d, fail_q;
  always_comb begin
    sent_cnt_d = sent_cnt_q + 32'($countones(sent_q));
    good_d     = good_q + 32'($countones(dlv_q & dlv_good_q));
    errs_sum   = 17'(errs_q) + 17'($countones(err_src_q));
    errs_d     = errs_sum[16] ? '1 : errs_sum[15:0];
    kind_d     = kind_q;
    for (int k = 0; k < NumKinds; k++) begin
      logic [KindCntW+CntW-1:0] sum;
      sum = (KindCntW + CntW)'(kind_q[k*KindCntW +: KindCntW]);
      for (int n = 0; n < NumNodes; n++) begin
        sum = sum + (KindCntW + CntW)'(dlv_q[n] && dlv_good_q[n] && (32'(dlv_kind_q[n*3 +: 3]) == k));
      end
      kind_d[k*KindCntW +: KindCntW] = (32'(sum) >= Target) ? KindCntW'(Target) : KindCntW'(sum);
      // A kind the mesh does not send counts as done (a delivery of it fails its check).
      kind_done[k] = (32'(kind_q[k*KindCntW +: KindCntW]) == Target) || !noc_selftest_mesh_pkg::KindsSent[k];
    end
    rerr_d = rerr_q;
    for (int n = 0; n < NumNodes; n++) begin
      rerr_d[2:0] = rerr_d[2:0] | r_errors_q[n*noc_pkg::ErrorsW +: 3];
      rerr_d[5:3] = rerr_d[5:3] | ni_errors_q[n*3 +: 3];
    end
    rerr_d[6] = rerr_q[6] | (drops_q != '0);
    fail_d = fail_q || (err_src_q != '0) || (rerr_q != '0);
    // Pass is decided at a credit audit (two cycles on, above): every kind at its target and
    // every credit back.
    pass_d = pass_q || (au_check_q2 && (&kind_done) && !fail_d);
  end
  `NOC_FF(sent_cnt_q, sent_cnt_d, '0)
  `NOC_FF(good_q, good_d, '0)
  `NOC_FF(errs_q, errs_d, '0)
  `NOC_FF(kind_q, kind_d, '0)
  `NOC_FF(rerr_q, rerr_d, '0)
  `NOC_FF(pass_q, pass_d, 1'b0)
  `NOC_FF(fail_q, fail_d, 1'b0)

  assign worms_sent_o      = sent_cnt_q;
  assign worms_delivered_o = good_q;
  assign check_errors_o    = errs_q;
  assign router_errors_o   = rerr_q;
  assign pass_o            = pass_q;
  assign fail_o            = fail_q;

  // The draining status is covered by route_drops_o; the ejection ports' VC is always 0.
  logic unused;
  assign unused = ^{draining, ej_vc};

  `NOC_ASSERT(NoCheckErrorWithoutFault_A, (Fault == 0) |-> (err_src == '0))
  `NOC_ASSERT(NoRouterErrorWithoutFault_A, (Fault == 0) |-> (rerr_q == '0))

endmodule
