// SPDX-License-Identifier: SHL-0.51
// noc_mesh_traffic_gen: the traffic generator of one node of the mesh self-test network
// (fpga/noc_selftest_mesh.sv; docs/fpga.md, "The mesh self-test"). It drives the node's noc_ni
// message port with LFSR-chosen messages of the kinds noc_selftest_mesh_pkg::KindsSent: a head
// (and for a two-destination Hamiltonian path an address word) built for an R x C mesh, then
// 1..8 self-checking payload words (noc_selftest_mesh_pkg::word_t). Every kind maps onto a
// firmware routing family of the VC-class plan with the same routes and classes (docs/fpga.md,
// "Why the mix cannot deadlock"):
//   - KindHpUni / KindHpMulti: Hamiltonian path on the row snake, class = the network the labels
//     move in (high 0, low 1); the second kind delivers at a node on the way (or at the source's
//     own router) and ends further along the same network (family hamiltonian-path);
//   - KindDor: dimension order (XY) to any node, class 0 (family dimension-order);
//   - KindCpr: a CPR line along the source's row or column with a random control field, class 0;
//     never cf = 11 along Y, which the routers would replicate into +-X (PCP spine: that needs the
//     replication lock, docs/rtl.md) (family cpr-line);
//   - KindSrUni / KindSrMulti: a YX source route of at most 3 hops (the compact head's 4 entries),
//     class 1, the second with a deliver entry at the source or the first node on the way (family
//     edn-yx-leg: YX routes between any pair; a truncated route is a prefix of one).
// No message buffer: the head and address word are built when the message starts and held, the
// payload words are a function of a few registers and the word index.
//
// Every message of this source is accounted by its tag (the head's 2 bits, seq mod 4): a message
// starts only when the previous message with the same tag has had all of its deliveries reported
// by the checkers, so a tag never names two messages in flight, and a delivery reported for a tag
// with none outstanding (a duplicate, or a delivery at one node too many) is an error. A watchdog
// reports a source that is busy (a message under way or deliveries outstanding) and makes no
// progress (no word taken, no delivery) for WatchdogCycles.
`include "noc_assert.svh"
`include "noc_registers.svh"

module noc_mesh_traffic_gen #(
  /// Mesh nodes along x (2..4).
  parameter int unsigned SizeX = 2,
  /// Mesh nodes along y (2..4).
  parameter int unsigned SizeY = 2,
  /// This node: x + SizeX * y.
  parameter int unsigned Node = 0,
  /// LFSR reset state (nonzero; different per node so the nodes' traffic differs).
  parameter logic [31:0] Seed = 32'hACE1_5EED,
  /// Cycles a busy source may go without progress before the watchdog trips.
  parameter int unsigned WatchdogCycles = 4096,
  /// Nodes. Derived, do not override.
  localparam int unsigned NumNodes = SizeX * SizeY,
  /// Width of a node id. Derived, do not override.
  localparam int unsigned NodeW = noc_selftest_mesh_pkg::NodeW,
  /// Width of the head's tag. Derived, do not override.
  localparam int unsigned TagW = noc_pkg::TagW,
  /// Width of the word (noc_pkg::DataW). Derived, do not override.
  localparam int unsigned DataW = noc_pkg::DataW
) (
  /// Clock.
  input  logic                      clk_i,
  /// Asynchronous active-low reset.
  input  logic                      rst_ni,
  /// Start no new message (the credit audit drains the network); a message under way finishes.
  input  logic                      drain_i,
  /// Message port to noc_ni: a word is offered (held until taken).
  output logic                      msg_valid_o,
  /// The NI takes the word.
  input  logic                      msg_ready_i,
  /// The word: head, address word or payload word.
  output logic [DataW-1:0]          msg_data_o,
  /// The word is the last of its message.
  output logic                      msg_last_o,
  /// Checker n reports a delivery this cycle (bit n).
  input  logic [NumNodes-1:0]       dlv_i,
  /// Its message's source, bits [n*NodeW +: NodeW].
  input  logic [NumNodes*NodeW-1:0] dlv_src_i,
  /// Its message's tag, bits [n*TagW +: TagW].
  input  logic [NumNodes*TagW-1:0]  dlv_tag_i,
  /// A message's head was taken by the NI this cycle (worms sent).
  output logic                      sent_o,
  /// No message under way and no delivery outstanding.
  output logic                      idle_o,
  /// Error pulse: a delivery was reported for a tag with none outstanding.
  output logic                      dup_o,
  /// Error pulse: the watchdog tripped (outstanding deliveries cleared, so the test goes on).
  output logic                      stall_o
);

  localparam int unsigned KindW = noc_selftest_pkg::KindW;
  localparam int unsigned LenW  = noc_selftest_pkg::LenW;
  localparam int unsigned SeqW  = noc_selftest_mesh_pkg::SeqW;
  localparam int unsigned DlvW  = noc_selftest_mesh_pkg::DlvW;
  localparam int unsigned NumTags = 2 ** TagW;
  localparam int unsigned WdW   = $clog2(WatchdogCycles);
  localparam int unsigned DecW  = $clog2(NumNodes + 1);
  localparam int unsigned OwnX  = Node % SizeX;
  localparam int unsigned OwnY  = Node / SizeX;
  /// Own row-snake label (noc_selftest_mesh_pkg::snake of the own coordinates).
  localparam int unsigned OwnLabel = OwnY * SizeX + ((OwnY % 2 == 0) ? OwnX : SizeX - 1 - OwnX);
  /// The node of the last label (N-1), the far end of the high network.
  localparam int unsigned LastNode = (SizeY - 1) * SizeX + (((SizeY - 1) % 2 == 0) ? SizeX - 1 : 0);
  /// Hops of a source route at most: one entry of the compact head's four is the end.
  localparam int unsigned MaxHops = noc_pkg::NumRouteEntries - 1;
  localparam logic [noc_pkg::RoutePortW-1:0] PortPlusX = 3'd0, PortMinusX = 3'd1, PortPlusY = 3'd2,
                                             PortMinusY = 3'd3;

  if (SizeX < 2 || SizeX > 4 || SizeY < 2 || SizeY > 4) begin : gen_size_check
    $error("noc_mesh_traffic_gen: SizeX (%0d) and SizeY (%0d) must each be 2..4 (4-bit node ids, 3-hop routes)",
           SizeX, SizeY);
  end
  if (Node >= NumNodes) begin : gen_node_check
    $error("noc_mesh_traffic_gen: Node (%0d) must be below SizeX * SizeY (%0d)", Node, NumNodes);
  end
  if (noc_selftest_mesh_pkg::KindW != noc_selftest_pkg::KindW || noc_selftest_mesh_pkg::LenW != noc_selftest_pkg::LenW ||
      noc_selftest_mesh_pkg::SumW != noc_selftest_pkg::SumW) begin : gen_fields_check
    $error("noc_mesh_traffic_gen: noc_selftest_mesh_pkg's field widths must equal noc_selftest_pkg's");
  end
  if (DataW != noc_selftest_mesh_pkg::WordW) begin : gen_width_check
    $error("noc_mesh_traffic_gen: the payload word layout needs NOC_DATA_W=32");
  end

  logic [31:0] rnd;
  noc_lfsr #(
    .Width(32),
    .Taps (32'h8020_0003),
    .Seed (Seed)
  ) u_lfsr (
    .clk_i,
    .rst_ni,
    .state_o(rnd)
  );

  // ---------------------------------------------------------------------------------------------
  // The choice for a new message, from the LFSR: kind, length, control field, two random nodes t
  // and m (each coordinate's 2 random bits folded into 0..Size-1).
  logic [3:0]       tx, ty, mx, my, t2x, t2y, ax, ay, hx, hy, hops, ex, ey, cx, cy, cd;
  logic [7:0]       own_lab, tlab, t2lab, mlab, d1lab;
  logic             t_own, high, between, axis_y;
  logic [KindW-1:0] pick_kind;
  logic [1:0]       pick_cf;
  logic [DlvW-1:0]  pick_ndlv;
  logic [NodeW-1:0] pick_fdest;
  noc_pkg::head_t   pick_head, pick_addr;
  logic [noc_pkg::AddrW-1:0] route;  // the source route, entry i at [i*RouteEntryW +: RouteEntryW]
  always_comb begin
    unique case (rnd[3:1])
      3'd0:    pick_kind = noc_selftest_pkg::KindHpUni;
      3'd1,
      3'd2:    pick_kind = noc_selftest_pkg::KindHpMulti;
      3'd3:    pick_kind = noc_selftest_pkg::KindDor;
      3'd4,
      3'd7:    pick_kind = noc_selftest_pkg::KindCpr;
      3'd5:    pick_kind = noc_selftest_pkg::KindSrUni;
      default: pick_kind = noc_selftest_pkg::KindSrMulti;
    endcase
    tx = {2'b0, rnd[11:10]};
    ty = {2'b0, rnd[13:12]};
    mx = {2'b0, rnd[15:14]};
    my = {2'b0, rnd[17:16]};
    if (tx >= 4'(SizeX)) tx = tx - 4'(SizeX);
    if (ty >= 4'(SizeY)) ty = ty - 4'(SizeY);
    if (mx >= 4'(SizeX)) mx = mx - 4'(SizeX);
    if (my >= 4'(SizeY)) my = my - 4'(SizeY);
    tlab  = noc_selftest_mesh_pkg::snake(tx, ty, 4'(SizeX));
    mlab  = noc_selftest_mesh_pkg::snake(mx, my, 4'(SizeX));
    t_own = (tx == 4'(OwnX)) && (ty == 4'(OwnY));
    // A two-destination path needs an end other than the source: the last label, or label 0 from
    // the last node.
    t2x = tx;
    t2y = ty;
    if (t_own) begin
      t2x = 4'((LastNode == Node) ? 0 : LastNode % SizeX);
      t2y = 4'((LastNode == Node) ? 0 : LastNode / SizeX);
    end
    t2lab   = noc_selftest_mesh_pkg::snake(t2x, t2y, 4'(SizeX));
    // (The own label through a variable: a constant 0 would make these comparisons constant.)
    own_lab = 8'(OwnLabel);
    high    = (pick_kind == noc_selftest_pkg::KindHpMulti) ? (t2lab > own_lab) : (tlab >= own_lab);
    // The first destination: m if it lies strictly between the source and the end in the path's
    // network, else the source's own router (intermediate reception where the worm starts).
    between = high ? (mlab > own_lab && mlab < t2lab) : (mlab < own_lab && mlab > t2lab);
    d1lab   = between ? mlab : own_lab;
    // Distances from the source, and the YX route to t cut to MaxHops hops.
    ax   = (tx > 4'(OwnX)) ? tx - 4'(OwnX) : 4'(OwnX) - tx;
    ay   = (ty > 4'(OwnY)) ? ty - 4'(OwnY) : 4'(OwnY) - ty;
    hy   = (ay > 4'(MaxHops)) ? 4'(MaxHops) : ay;
    hx   = (ax > 4'(MaxHops) - hy) ? 4'(MaxHops) - hy : ax;
    hops = hx + hy;
    ex   = (tx > 4'(OwnX)) ? 4'(OwnX) + hx : 4'(OwnX) - hx;
    ey   = (ty > 4'(OwnY)) ? 4'(OwnY) + hy : 4'(OwnY) - hy;
    for (int i = 0; i < noc_pkg::NumRouteEntries; i++) begin
      if (4'(i) < hy) begin
        route[i*noc_pkg::RouteEntryW +: noc_pkg::RouteEntryW] = {1'b0, (ty > 4'(OwnY)) ? PortPlusY : PortMinusY};
      end else if (4'(i) < hops) begin
        route[i*noc_pkg::RouteEntryW +: noc_pkg::RouteEntryW] = {1'b0, (tx > 4'(OwnX)) ? PortPlusX : PortMinusX};
      end else if (4'(i) == hops) begin
        route[i*noc_pkg::RouteEntryW +: noc_pkg::RouteEntryW] = {1'b0, noc_pkg::RoutePortEnd};
      end else begin
        route[i*noc_pkg::RouteEntryW +: noc_pkg::RouteEntryW] = noc_pkg::RouteEntryUnused;
      end
    end
    if (pick_kind == noc_selftest_pkg::KindSrMulti && hops != '0) begin
      // A deliver entry at the source (entry 0) or, on a longer route, the first node on the way.
      if (rnd[9] && hops >= 4'd2) begin
        route[noc_pkg::RouteEntryW + noc_pkg::RoutePortW] = 1'b1;
      end else begin
        route[noc_pkg::RoutePortW] = 1'b1;
      end
    end
    // The CPR line: along the row (dest (tx, own y)) or the column (dest (own x, ty)).
    axis_y  = rnd[9];
    cx      = axis_y ? 4'(OwnX) : tx;
    cy      = axis_y ? ty : 4'(OwnY);
    cd      = axis_y ? ay : ax;
    pick_cf = rnd[8:7];
    if (axis_y && pick_cf == noc_pkg::CfDeliverPass) begin
      pick_cf = noc_pkg::CfPassOnly;
    end

    pick_head       = '0;
    pick_addr       = '0;
    pick_head.ident = TagW'(seq_q + 1'b1);
    pick_addr.ident = TagW'(seq_q + 1'b1);
    pick_ndlv       = DlvW'(1);
    pick_fdest      = NodeW'(ty) * NodeW'(SizeX) + NodeW'(tx);
    unique case (pick_kind)
      noc_selftest_pkg::KindHpUni: begin
        pick_head.mode     = noc_pkg::RouteHamPath;
        pick_head.network  = high ? noc_pkg::NetworkHigh : noc_pkg::NetworkLow;
        pick_head.vc_class = high ? noc_pkg::HpClassHigh : noc_pkg::HpClassLow;
        pick_head.dest     = noc_pkg::AddrW'(tlab);
      end
      noc_selftest_pkg::KindHpMulti: begin
        pick_head.mode     = noc_pkg::RouteHamPath;
        pick_head.network  = high ? noc_pkg::NetworkHigh : noc_pkg::NetworkLow;
        pick_head.vc_class = high ? noc_pkg::HpClassHigh : noc_pkg::HpClassLow;
        pick_head.more     = noc_pkg::MoreW'(1);
        pick_head.dest     = noc_pkg::AddrW'(d1lab);
        pick_addr.mode     = pick_head.mode;
        pick_addr.network  = pick_head.network;
        pick_addr.vc_class = pick_head.vc_class;
        pick_addr.dest     = noc_pkg::AddrW'(t2lab);
        pick_ndlv          = DlvW'(2);
        pick_fdest         = NodeW'(t2y) * NodeW'(SizeX) + NodeW'(t2x);
      end
      noc_selftest_pkg::KindDor: begin
        pick_head.mode = noc_pkg::RouteDimOrder;
        pick_head.dest = noc_pkg::coord_dest(noc_pkg::CoordW'(tx), noc_pkg::CoordW'(ty), '0);
      end
      noc_selftest_pkg::KindCpr: begin
        pick_head.mode = noc_pkg::RouteCprLine;
        pick_head.cf   = pick_cf;
        pick_head.dest = noc_pkg::coord_dest(noc_pkg::CoordW'(cx), noc_pkg::CoordW'(cy), '0);
        // cf = 11 delivers at every router after the source up to the end; the others once.
        pick_ndlv      = (pick_cf == noc_pkg::CfDeliverPass && cd != '0) ? DlvW'(cd) : DlvW'(1);
        pick_fdest     = NodeW'(cy) * NodeW'(SizeX) + NodeW'(cx);
      end
      default: begin  // KindSrUni, KindSrMulti
        pick_head.mode     = noc_pkg::RouteSourceRouted;
        pick_head.vc_class = 2'd1;
        pick_head.dest     = route;
        pick_ndlv          = (pick_kind == noc_selftest_pkg::KindSrMulti && hops != '0) ? DlvW'(2) : DlvW'(1);
        pick_fdest         = NodeW'(ey) * NodeW'(SizeX) + NodeW'(ex);
      end
    endcase
  end

  // ---------------------------------------------------------------------------------------------
  // The message under way.
  typedef enum logic [1:0] {
    PhIdle = 2'd0,
    PhHead = 2'd1,
    PhAddr = 2'd2,
    PhData = 2'd3
  } phase_e;

  phase_e                  phase_d, phase_q;
  logic [KindW-1:0]        kind_d, kind_q;
  logic [LenW-1:0]         lenm1_d, lenm1_q, pos_d, pos_q;
  logic [SeqW-1:0]         seq_d, seq_q;
  logic [NodeW-1:0]        fdest_d, fdest_q;
  logic [DataW-1:0]        head_d, head_q, addr_d, addr_q;
  logic [NumTags*DlvW-1:0] out_d, out_q;   // deliveries outstanding per tag
  logic [WdW-1:0]          wd_d, wd_q;

  // Deliveries of this source's messages reported this cycle, per tag.
  logic [NumTags*DecW-1:0] dec;
  always_comb begin
    dec = '0;
    for (int t = 0; t < NumTags; t++) begin
      for (int n = 0; n < NumNodes; n++) begin
        if (dlv_i[n] && dlv_src_i[n*NodeW +: NodeW] == NodeW'(Node) && dlv_tag_i[n*TagW +: TagW] == TagW'(t)) begin
          dec[t*DecW +: DecW] = dec[t*DecW +: DecW] + 1'b1;
        end
      end
    end
  end

  logic [TagW-1:0] next_tag;
  logic            next_free, start, word_taken, last_word, busy, progress;
  always_comb begin
    next_tag  = TagW'(seq_q + 1'b1);
    next_free = 1'b0;
    for (int t = 0; t < NumTags; t++) begin
      if (next_tag == TagW'(t)) begin
        next_free = (out_q[t*DlvW +: DlvW] == '0);
      end
    end
  end
  assign start      = (phase_q == PhIdle) && !drain_i && next_free && rnd[0];
  assign word_taken = msg_valid_o && msg_ready_i;
  assign last_word  = (phase_q == PhData) && (pos_q == lenm1_q);

  always_comb begin
    phase_d = phase_q;
    kind_d  = kind_q;
    lenm1_d = lenm1_q;
    pos_d   = pos_q;
    seq_d   = seq_q;
    fdest_d = fdest_q;
    head_d  = head_q;
    addr_d  = addr_q;
    if (start) begin
      phase_d = PhHead;
      kind_d  = pick_kind;
      lenm1_d = rnd[6:4];
      pos_d   = '0;
      seq_d   = seq_q + 1'b1;
      fdest_d = pick_fdest;
      head_d  = pick_head;
      addr_d  = pick_addr;
    end else if (word_taken) begin
      unique case (phase_q)
        PhHead: phase_d = (kind_q == noc_selftest_pkg::KindHpMulti) ? PhAddr : PhData;
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

  // Outstanding deliveries per tag, duplicates and the watchdog.
  assign busy     = (phase_q != PhIdle) || (out_q != '0);
  assign progress = word_taken || (dec != '0);
  always_comb begin
    out_d   = out_q;
    dup_o   = 1'b0;
    wd_d    = '0;
    stall_o = 1'b0;
    for (int t = 0; t < NumTags; t++) begin
      if (32'(dec[t*DecW +: DecW]) > 32'(out_q[t*DlvW +: DlvW])) begin
        dup_o                = 1'b1;
        out_d[t*DlvW +: DlvW] = '0;
      end else begin
        out_d[t*DlvW +: DlvW] = out_q[t*DlvW +: DlvW] - DlvW'(dec[t*DecW +: DecW]);
      end
      if (start && next_tag == TagW'(t)) begin
        out_d[t*DlvW +: DlvW] = pick_ndlv;
      end
    end
    if (busy && !progress) begin
      wd_d = wd_q + 1'b1;
      if (wd_q == WdW'(WatchdogCycles - 1)) begin
        stall_o = 1'b1;
        wd_d    = '0;
        out_d   = '0;
      end
    end
  end

  `NOC_FF(phase_q, phase_d, PhIdle)
  `NOC_FF(kind_q, kind_d, '0)
  `NOC_FF(lenm1_q, lenm1_d, '0)
  `NOC_FF(pos_q, pos_d, '0)
  `NOC_FF(seq_q, seq_d, '0)
  `NOC_FF(fdest_q, fdest_d, '0)
  `NOC_FF(head_q, head_d, '0)
  `NOC_FF(addr_q, addr_d, '0)
  `NOC_FF(out_q, out_d, '0)
  `NOC_FF(wd_q, wd_d, '0)

  // ---------------------------------------------------------------------------------------------
  // The words.
  noc_selftest_mesh_pkg::word_t word;
  always_comb begin
    word       = '0;
    word.fdest = fdest_q;
    word.seq   = seq_q;
    word.src   = NodeW'(Node);
    word.kind  = kind_q;
    word.lenm1 = lenm1_q;
    word.pos   = pos_q;
    word.sum   = noc_selftest_pkg::word_sum({fdest_q, seq_q, NodeW'(Node), kind_q, lenm1_q, pos_q, 3'b000});
  end

  assign msg_valid_o = (phase_q != PhIdle);
  assign msg_last_o  = last_word;
  always_comb begin
    unique case (phase_q)
      PhHead:  msg_data_o = head_q;
      PhAddr:  msg_data_o = addr_q;
      default: msg_data_o = word;
    endcase
  end

  assign sent_o = word_taken && (phase_q == PhHead);
  assign idle_o = !busy;

  logic unused_rnd;
  assign unused_rnd = ^rnd[31:18];

  `NOC_ASSERT(KindIsSent_A, (phase_q != PhIdle) |-> noc_selftest_mesh_pkg::KindsSent[kind_q])
  `NOC_ASSERT(DeliveriesBounded_A, start |-> (pick_ndlv != '0 && 32'(pick_ndlv) <= noc_selftest_mesh_pkg::MaxDeliveries))
  `NOC_ASSERT(WordHeldUntilTaken_A, (msg_valid_o && !msg_ready_i) |=> (msg_valid_o && $stable(msg_data_o)))

endmodule
