// SPDX-License-Identifier: SHL-0.51
// noc_traffic_gen: the traffic generator of one node of the self-test network (docs/fpga.md, "The
// self-test network"). It drives the node's noc_ni message port with LFSR-chosen messages of every
// kind (noc_selftest_pkg Kind*): a head word built for the 2-node line, the head's address words,
// then 1..8 self-checking payload words (noc_selftest_pkg::word_t). No message buffer: every word
// is a function of a few registers (kind, destination choice, control field, length, sequence
// numbers) and the word index.
//
// It keeps, per destination node and arrival stream (the input VC the worm is ejected from, which
// the path of each kind determines), a sequence number (pseq) that it writes into the payload, so
// the checker can verify order and loss per (source, stream) exactly. It bounds the deliveries
// outstanding (sent, not yet reported by a checker) to MaxPending, below what the head's 2-bit
// tag distinguishes, and a watchdog reports a source whose outstanding deliveries make no progress.
`include "noc_assert.svh"
`include "noc_registers.svh"

module noc_traffic_gen #(
  /// This node: 0 or 1 on the 2-node line (node 0's network port 0 (+x) is wired to node 1's
  /// network port 1 (-x); the label of node n is n, its coordinates (n, 0, 0)).
  parameter int unsigned Node = 0,
  /// LFSR reset state (nonzero; different per node so the nodes' traffic differs).
  parameter logic [15:0] Seed = 16'hACE1,
  /// Cycles without a delivery while deliveries are outstanding before the watchdog trips.
  parameter int unsigned WatchdogCycles = 4096,
  /// Width of the word (noc_pkg::DataW). Derived, do not override.
  localparam int unsigned DataW = noc_pkg::DataW
) (
  /// Clock.
  input  logic             clk_i,
  /// Asynchronous active-low reset.
  input  logic             rst_ni,
  /// Start no new message (the credit audit drains the network); a message under way finishes.
  input  logic             drain_i,
  /// Message port to noc_ni: a word is offered (held until taken).
  output logic             msg_valid_o,
  /// The NI takes the word.
  input  logic             msg_ready_i,
  /// The word: head, address word or payload word.
  output logic [DataW-1:0] msg_data_o,
  /// The word is the last of its message.
  output logic             msg_last_o,
  /// Deliveries of this node's messages reported by the checkers this cycle (0..2).
  input  logic [1:0]       delivered_i,
  /// A message's head was taken by the NI this cycle (worms sent).
  output logic             sent_o,
  /// No message under way and no delivery outstanding.
  output logic             idle_o,
  /// Error pulse: a checker reported more deliveries than were outstanding.
  output logic             underflow_o,
  /// Error pulse: the watchdog tripped (outstanding deliveries cleared, so the test goes on).
  output logic             stall_o
);

  localparam int unsigned Other = 1 - Node;
  localparam int unsigned PortW = noc_pkg::RoutePortW;
  localparam int unsigned KindW = noc_selftest_pkg::KindW;
  localparam int unsigned LenW  = noc_selftest_pkg::LenW;
  localparam int unsigned PseqW = noc_selftest_pkg::PseqW;
  localparam int unsigned SeqW  = noc_selftest_pkg::SeqW;
  localparam int unsigned WdW   = $clog2(WatchdogCycles);
  /// Deliveries outstanding at most: a message starts only with at most MaxPending - 2
  /// outstanding, so at most 3 messages of this source are ever in flight, below the 4 that the
  /// head's 2-bit tag (noc_pkg::TagW) distinguishes.
  localparam int unsigned MaxPending = 3;
  /// Network port toward the other node (port 0, +x, on node 0; port 1, -x, on node 1), and the
  /// other node's port back.
  localparam logic [PortW-1:0] PortOut  = PortW'(Node);
  localparam logic [PortW-1:0] PortBack = PortW'(Other);
  /// Hamiltonian-path class and network of a worm moving toward the other node.
  localparam logic [noc_pkg::ClassW-1:0]   HpClassOut = (Node == 0) ? noc_pkg::HpClassHigh : noc_pkg::HpClassLow;
  localparam logic [noc_pkg::NetworkW-1:0] HpNetOut   = (Node == 0) ? noc_pkg::NetworkHigh : noc_pkg::NetworkLow;
  /// Source routes travel in class Node (VC Node): node 0's turnarounds use VC 0 both ways, node
  /// 1's VC 1, so no channel-dependency cycle forms (docs/fpga.md).
  localparam logic [noc_pkg::ClassW-1:0]   SrClass    = noc_pkg::ClassW'(Node);

  if (Node > 1) begin : gen_node_check
    $error("noc_traffic_gen: Node must be 0 or 1 (the self-test network is a 2-node line)");
  end
  if (DataW != noc_selftest_pkg::WordW) begin : gen_width_check
    $error("noc_traffic_gen: the payload word layout needs NOC_DATA_W=32");
  end

  logic [15:0] rnd;
  noc_lfsr #(
    .Seed(Seed)
  ) u_lfsr (
    .clk_i,
    .rst_ni,
    .state_o(rnd)
  );

  // ---------------------------------------------------------------------------------------------
  // The message under way.
  typedef enum logic [1:0] {
    PhIdle = 2'd0,
    PhHead = 2'd1,
    PhAddr = 2'd2,
    PhData = 2'd3
  } phase_e;

  phase_e           phase_d, phase_q;
  logic [KindW-1:0] kind_d, kind_q;
  logic             dsel_d, dsel_q;      // destination choice (kind-specific, see below)
  logic [1:0]       cf_d, cf_q;
  logic [LenW-1:0]  lenm1_d, lenm1_q, pos_d, pos_q;
  logic [1:0]       dmask_d, dmask_q;
  logic [SeqW-1:0]  seq_d, seq_q;
  logic [PseqW-1:0] pseq0_d, pseq0_q, pseq1_d, pseq1_q;
  logic [2:0]       pending_d, pending_q;
  logic [WdW-1:0]   wd_d, wd_q;
  // Stream sequence numbers: [slot] for deliveries at this node and at the other node. Slot =
  // {arrives on the network port, VC}: 0/1 local port VC 0/1, 2/3 network port VC 0/1.
  logic [4*PseqW-1:0] cnt_self_d, cnt_self_q, cnt_other_d, cnt_other_q;

  // The choice for a new message, from the LFSR.
  logic [KindW-1:0] pick_kind;
  logic             pick_dsel;
  logic [1:0]       pick_dmask;
  logic [1:0]       slot_self, slot_other;
  always_comb begin
    pick_kind = rnd[3:1];
    // The turnaround Hamiltonian path is node 0's only: node 1 sending it too would close a
    // channel-dependency cycle between the two VCs of the link (docs/fpga.md).
    if (Node != 0 && pick_kind == noc_selftest_pkg::KindHpTurn) begin
      pick_kind = noc_selftest_pkg::KindHpMulti;
    end
    pick_dsel = rnd[4];
    // Destination set and the arrival slot at each destination.
    pick_dmask = '0;
    slot_self  = 2'd0;
    slot_other = 2'd2;
    unique case (pick_kind)
      noc_selftest_pkg::KindHpUni, noc_selftest_pkg::KindDor, noc_selftest_pkg::KindCpr: begin
        // Self: local port, class 0 (Hamiltonian path toward a label not below its own: high).
        // Other: the network port, in the class toward the other node (0 for dimension order/CPR).
        pick_dmask = pick_dsel ? 2'(1 << Other) : 2'(1 << Node);
        if (pick_kind == noc_selftest_pkg::KindHpUni) begin
          slot_other = 2'd2 + 2'(HpClassOut);
        end
      end
      noc_selftest_pkg::KindHpMulti: begin
        pick_dmask = 2'b11;
        slot_self  = 2'(HpClassOut);
        slot_other = 2'd2 + 2'(HpClassOut);
      end
      noc_selftest_pkg::KindHpTurn: begin
        // Out in the high network on VC 0, back in the low network on VC 1.
        pick_dmask = 2'b11;
        slot_self  = 2'd3;
        slot_other = 2'd2;
      end
      noc_selftest_pkg::KindSrUni: begin
        pick_dmask = pick_dsel ? 2'(1 << Other) : 2'(1 << Node);
        slot_self  = 2'(SrClass);
        slot_other = 2'd2 + 2'(SrClass);
      end
      noc_selftest_pkg::KindSrMulti: begin
        // dsel 0: deliver here and end at the other node; 1: deliver there and come back.
        pick_dmask = 2'b11;
        slot_self  = (pick_dsel ? 2'd2 : 2'd0) + 2'(SrClass);
        slot_other = 2'd2 + 2'(SrClass);
      end
      noc_selftest_pkg::KindSrPrefix: begin
        pick_dmask = 2'(1 << Other);
        slot_other = 2'd2 + 2'(SrClass);
      end
      default: begin
        pick_dmask = '0;
      end
    endcase
  end

  logic start, head_taken, word_taken, last_word;
  assign start      = (phase_q == PhIdle) && !drain_i && (pending_q <= 3'(MaxPending - 2)) && rnd[0];
  assign word_taken = msg_valid_o && msg_ready_i;
  assign head_taken = word_taken && (phase_q == PhHead);
  assign last_word  = (phase_q == PhData) && (pos_q == lenm1_q);

  logic [1:0] add;
  logic [3:0] pending_sum;
  always_comb begin
    phase_d     = phase_q;
    kind_d      = kind_q;
    dsel_d      = dsel_q;
    cf_d        = cf_q;
    lenm1_d     = lenm1_q;
    pos_d       = pos_q;
    dmask_d     = dmask_q;
    seq_d       = seq_q;
    pseq0_d     = pseq0_q;
    pseq1_d     = pseq1_q;
    cnt_self_d  = cnt_self_q;
    cnt_other_d = cnt_other_q;
    add         = '0;
    if (start) begin
      phase_d = PhHead;
      kind_d  = pick_kind;
      dsel_d  = pick_dsel;
      lenm1_d = rnd[7:5];
      cf_d    = rnd[9:8];
      pos_d   = '0;
      dmask_d = pick_dmask;
      seq_d   = seq_q + 1'b1;
      add     = 2'(pick_dmask[0]) + 2'(pick_dmask[1]);
      // This message's stream sequence numbers, and the next ones of the streams it uses
      // (constant slices in a loop: docs/sv-subset.md, a variable part-select builds a shifter).
      for (int s = 0; s < 4; s++) begin
        if (slot_self == 2'(s)) begin
          if (Node == 0) begin
            pseq0_d = cnt_self_q[s*PseqW +: PseqW];
          end else begin
            pseq1_d = cnt_self_q[s*PseqW +: PseqW];
          end
          if (pick_dmask[Node]) begin
            cnt_self_d[s*PseqW +: PseqW] = cnt_self_q[s*PseqW +: PseqW] + 1'b1;
          end
        end
        if (slot_other == 2'(s)) begin
          if (Node == 0) begin
            pseq1_d = cnt_other_q[s*PseqW +: PseqW];
          end else begin
            pseq0_d = cnt_other_q[s*PseqW +: PseqW];
          end
          if (pick_dmask[Other]) begin
            cnt_other_d[s*PseqW +: PseqW] = cnt_other_q[s*PseqW +: PseqW] + 1'b1;
          end
        end
      end
    end else if (word_taken) begin
      unique case (phase_q)
        PhHead: phase_d = (kind_q == noc_selftest_pkg::KindHpMulti || kind_q == noc_selftest_pkg::KindHpTurn ||
                           kind_q == noc_selftest_pkg::KindSrPrefix) ? PhAddr : PhData;
        PhAddr: phase_d = PhData;
        PhData: begin
          pos_d = pos_q + 1'b1;
          if (last_word) begin
            phase_d = PhIdle;
          end
        end
        default: phase_d = PhIdle;
      endcase
    end
  end

  // Outstanding deliveries and the watchdog.
  always_comb begin
    pending_sum = 4'(pending_q) + 4'(add);
    underflow_o = (4'(delivered_i) > pending_sum);
    pending_d   = underflow_o ? '0 : 3'(pending_sum - 4'(delivered_i));
    wd_d        = '0;
    stall_o     = 1'b0;
    if (pending_q != '0 && delivered_i == '0) begin
      wd_d = wd_q + 1'b1;
      if (wd_q == WdW'(WatchdogCycles - 1)) begin
        stall_o   = 1'b1;
        wd_d      = '0;
        pending_d = 3'(add);
      end
    end
  end

  `NOC_FF(phase_q, phase_d, PhIdle)
  `NOC_FF(kind_q, kind_d, '0)
  `NOC_FF(dsel_q, dsel_d, 1'b0)
  `NOC_FF(cf_q, cf_d, '0)
  `NOC_FF(lenm1_q, lenm1_d, '0)
  `NOC_FF(pos_q, pos_d, '0)
  `NOC_FF(dmask_q, dmask_d, '0)
  `NOC_FF(seq_q, seq_d, '0)
  `NOC_FF(pseq0_q, pseq0_d, '0)
  `NOC_FF(pseq1_q, pseq1_d, '0)
  `NOC_FF(cnt_self_q, cnt_self_d, '0)
  `NOC_FF(cnt_other_q, cnt_other_d, '0)
  `NOC_FF(pending_q, pending_d, '0)
  `NOC_FF(wd_q, wd_d, '0)

  // ---------------------------------------------------------------------------------------------
  // The words.
  noc_pkg::head_t          head, addr;
  noc_selftest_pkg::word_t word;
  logic [noc_pkg::AddrW-1:0] route_unused;
  logic [noc_pkg::RouteEntryW-1:0] entry_end, entry_out, entry_out_deliver, entry_back_deliver;
  logic dest_other;
  assign route_unused       = {noc_pkg::NumRouteEntries{noc_pkg::RouteEntryUnused}};
  assign entry_end          = {1'b0, noc_pkg::RoutePortEnd};
  assign entry_out          = {1'b0, PortOut};
  assign entry_out_deliver  = {1'b1, PortOut};
  assign entry_back_deliver = {1'b1, PortBack};
  assign dest_other         = dsel_q;

  always_comb begin
    head          = '0;
    head.ident    = seq_q[noc_pkg::TagW-1:0];
    addr          = '0;
    addr.ident    = seq_q[noc_pkg::TagW-1:0];
    unique case (kind_q)
      noc_selftest_pkg::KindHpUni: begin
        head.mode     = noc_pkg::RouteHamPath;
        head.network  = dest_other ? HpNetOut : noc_pkg::NetworkHigh;
        head.vc_class = dest_other ? HpClassOut : noc_pkg::HpClassHigh;
        head.dest     = noc_pkg::AddrW'(dest_other ? Other : Node);
      end
      noc_selftest_pkg::KindHpMulti: begin
        // Deliver at this node's own router first (the head), then the other node (address word).
        head.mode     = noc_pkg::RouteHamPath;
        head.network  = HpNetOut;
        head.vc_class = HpClassOut;
        head.more     = noc_pkg::MoreW'(1);
        head.dest     = noc_pkg::AddrW'(Node);
        addr.mode     = noc_pkg::RouteHamPath;
        addr.network  = HpNetOut;
        addr.vc_class = HpClassOut;
        addr.dest     = noc_pkg::AddrW'(Other);
      end
      noc_selftest_pkg::KindHpTurn: begin
        head.mode     = noc_pkg::RouteHamPath;
        head.network  = noc_pkg::NetworkHigh;
        head.vc_class = noc_pkg::HpClassHigh;
        head.more     = noc_pkg::MoreW'(1);
        head.dest     = noc_pkg::AddrW'(Other);
        addr.mode     = noc_pkg::RouteHamPath;
        addr.network  = noc_pkg::NetworkLow;
        addr.vc_class = noc_pkg::HpClassLow;
        addr.dest     = noc_pkg::AddrW'(Node);
      end
      noc_selftest_pkg::KindDor, noc_selftest_pkg::KindCpr: begin
        head.mode = (kind_q == noc_selftest_pkg::KindDor) ? noc_pkg::RouteDimOrder : noc_pkg::RouteCprLine;
        head.cf   = (kind_q == noc_selftest_pkg::KindCpr) ? cf_q : noc_pkg::CfUnicastTransit;
        head.dest = noc_pkg::coord_dest(noc_pkg::CoordW'(dest_other ? Other : Node), '0, '0);
      end
      noc_selftest_pkg::KindSrUni: begin
        head.mode     = noc_pkg::RouteSourceRouted;
        head.vc_class = SrClass;
        head.dest     = dest_other ? {route_unused[noc_pkg::AddrW-1:2*noc_pkg::RouteEntryW], entry_end, entry_out}
                                   : {route_unused[noc_pkg::AddrW-1:noc_pkg::RouteEntryW], entry_end};
      end
      noc_selftest_pkg::KindSrMulti: begin
        head.mode     = noc_pkg::RouteSourceRouted;
        head.vc_class = SrClass;
        head.dest     = dest_other
                      ? {route_unused[noc_pkg::AddrW-1:3*noc_pkg::RouteEntryW], entry_end, entry_back_deliver, entry_out}
                      : {route_unused[noc_pkg::AddrW-1:2*noc_pkg::RouteEntryW], entry_end, entry_out_deliver};
      end
      noc_selftest_pkg::KindSrPrefix: begin
        // One entry, used up at this router with an address word behind it: the router drops the
        // head and sends the address word out on the entry's port as the new head.
        head.mode     = noc_pkg::RouteSourceRouted;
        head.vc_class = SrClass;
        head.more     = noc_pkg::MoreW'(1);
        head.dest     = {route_unused[noc_pkg::AddrW-1:noc_pkg::RouteEntryW], entry_out};
        addr.mode     = noc_pkg::RouteSourceRouted;
        addr.vc_class = SrClass;
        addr.dest     = {route_unused[noc_pkg::AddrW-1:noc_pkg::RouteEntryW], entry_end};
      end
      default: begin
        head.mode = noc_pkg::RouteHamPath;
      end
    endcase
  end

  always_comb begin
    word       = '0;
    word.pseq1 = pseq1_q;
    word.pseq0 = pseq0_q;
    word.seq   = seq_q;
    word.src   = 1'(Node);
    word.kind  = kind_q;
    word.dmask = dmask_q;
    word.lenm1 = lenm1_q;
    word.pos   = pos_q;
    word.sum   = noc_selftest_pkg::word_sum({pseq1_q, pseq0_q, seq_q, 1'(Node), kind_q, dmask_q, lenm1_q, pos_q});
  end

  assign msg_valid_o = (phase_q != PhIdle);
  assign msg_last_o  = last_word;
  always_comb begin
    unique case (phase_q)
      PhHead:  msg_data_o = head;
      PhAddr:  msg_data_o = addr;
      default: msg_data_o = word;
    endcase
  end

  assign sent_o = head_taken;
  assign idle_o = (phase_q == PhIdle) && (pending_q == '0);

  logic unused_rnd;
  assign unused_rnd = ^rnd[15:10];

  `NOC_ASSERT(PendingBounded_A, pending_q <= 3'(MaxPending))
  `NOC_ASSERT(MessageHasDestination_A, (phase_q != PhIdle) |-> (dmask_q != '0))
  `NOC_ASSERT(WordHeldUntilTaken_A, (msg_valid_o && !msg_ready_i) |=> (msg_valid_o && $stable(msg_data_o)))

endmodule
