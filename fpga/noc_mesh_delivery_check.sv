// SPDX-License-Identifier: SHL-0.51
// noc_mesh_delivery_check: the delivery checker of one node of the mesh self-test network
// (fpga/noc_selftest_mesh.sv; docs/fpga.md, "The mesh self-test"), the consumer of the node's
// noc_ni receive port. Always ready (rx_ready_o = 1): the sink guarantee holds with no bound to
// argue (docs/ni.md, "The sink guarantee").
//
// Messages arrive interleaved per stream (the router input VC they are ejected from); the mesh
// generators send in classes 0 and 1 only, so a stream on VC 2 or 3 is an error of its own. Every
// delivered message is checked flit by flit with a few bits of state per stream:
//   - the head addresses this node, or names it as a stop on the way: a Hamiltonian path's label
//     equal to the node's (the end when `more` = 0, an intermediate reception otherwise); a
//     dimension-order destination equal to the node's coordinates; a CPR line ending here, or
//     passing here with a control field that delivers (11, 01) along this node's row or column; a
//     source-route entry that ends here, or delivers here; the message has payload;
//   - address words: the same mode as their head;
//   - payload words (noc_selftest_mesh_pkg::word_t): the checksum; a kind the mesh sends, whose
//     mode is the head's; the word's index equals the NI's rx_pos_o, the last flag falls on index
//     len - 1; the zero bits; at the node the last head addresses, fdest is this node; the first
//     word's sequence number matches the head's tag, and every word of the message names the same
//     (source, sequence number, kind, length, fdest).
// At the last flit the delivery is reported (source, tag, kind, good or not) to the source's
// generator, which accounts every message's deliveries (no loss, no duplicate), and a failed one
// is an error.
`include "noc_assert.svh"
`include "noc_registers.svh"

module noc_mesh_delivery_check #(
  /// Mesh nodes along x (2..4).
  parameter int unsigned SizeX = 2,
  /// Mesh nodes along y (2..4).
  parameter int unsigned SizeY = 2,
  /// This node: x + SizeX * y.
  parameter int unsigned Node = 0,
  /// VCs per router port (noc_router NumVcs, a power of two >= 2).
  parameter int unsigned NumVcs = 4,
  /// Network ports of the router (noc_network_top: 4); the local port's streams follow.
  localparam int unsigned NumNetPorts = 4,
  /// Width of a stream id (noc_ni StreamW). Derived, do not override.
  localparam int unsigned StreamW = $clog2((NumNetPorts + 1) * NumVcs),
  /// Width of the payload index (noc_pkg::MoreW). Derived, do not override.
  localparam int unsigned PosW = noc_pkg::MoreW,
  /// Width of a word (noc_pkg::DataW). Derived, do not override.
  localparam int unsigned DataW = noc_pkg::DataW,
  /// Width of a node id. Derived, do not override.
  localparam int unsigned NodeW = noc_selftest_mesh_pkg::NodeW,
  /// Width of the head's tag. Derived, do not override.
  localparam int unsigned TagW = noc_pkg::TagW
) (
  /// Clock.
  input  logic                 clk_i,
  /// Asynchronous active-low reset.
  input  logic                 rst_ni,
  /// noc_ni receive port: a flit is offered.
  input  logic                 rx_valid_i,
  /// Always 1: the checker takes every flit in the cycle it is offered.
  output logic                 rx_ready_o,
  /// Its stream.
  input  logic [StreamW-1:0]   rx_stream_i,
  /// It is a head.
  input  logic                 rx_head_i,
  /// It is an address word.
  input  logic                 rx_addr_i,
  /// It is the last flit of its message.
  input  logic                 rx_last_i,
  /// Its payload index.
  input  logic [PosW-1:0]      rx_pos_i,
  /// Its data.
  input  logic [DataW-1:0]     rx_data_i,
  /// Pulse: a message was delivered here (its last payload word was taken).
  output logic                 deliver_o,
  /// With deliver_o: every check of the message passed.
  output logic                 deliver_good_o,
  /// With deliver_o: the message's source (from its payload).
  output logic [NodeW-1:0]     deliver_src_o,
  /// With deliver_o: the message's tag (its sequence number mod 4).
  output logic [TagW-1:0]      deliver_tag_o,
  /// With deliver_o: the message's kind (noc_selftest_pkg Kind*).
  output logic [2:0]           deliver_kind_o,
  /// Pulse: a delivery failed a check, or a flit arrived on a stream that carries no traffic.
  output logic                 error_o
);

  localparam int unsigned VcIdW    = $clog2(NumVcs);
  localparam int unsigned NumSlots = (NumNetPorts + 1) * 2;
  localparam int unsigned SlotW    = $clog2(NumSlots);
  localparam int unsigned KeyW     = 2 * NodeW + noc_selftest_mesh_pkg::SeqW + noc_selftest_pkg::KindW +
                                     noc_selftest_pkg::LenW;
  localparam int unsigned OwnX     = Node % SizeX;
  localparam int unsigned OwnY     = Node / SizeX;
  localparam int unsigned OwnLabel = OwnY * SizeX + ((OwnY % 2 == 0) ? OwnX : SizeX - 1 - OwnX);

  if (NumVcs < 2 || (NumVcs & (NumVcs - 1)) != 0) begin : gen_vcs_check
    $error("noc_mesh_delivery_check: NumVcs (%0d) must be a power of two >= 2", NumVcs);
  end
  if (Node >= SizeX * SizeY) begin : gen_node_check
    $error("noc_mesh_delivery_check: Node (%0d) must be below SizeX * SizeY (%0d)", Node, SizeX * SizeY);
  end

  assign rx_ready_o = 1'b1;

  // Stream to slot: {port, VC 0/1}; VCs 2.. carry nothing the generators send.
  logic [StreamW-VcIdW-1:0] port;
  logic [VcIdW-1:0]         vc;
  logic                     slot_ok;
  logic [SlotW-1:0]         slot;
  assign port    = rx_stream_i[StreamW-1:VcIdW];
  assign vc      = rx_stream_i[VcIdW-1:0];
  assign slot_ok = (vc < VcIdW'(2)) && (32'(port) <= NumNetPorts);
  assign slot    = SlotW'({port, vc[0]});

  // Per-slot state of the message under way.
  logic [NumSlots*3-1:0]    mode_d, mode_q;
  logic [NumSlots-1:0]      final_d, final_q, bad_d, bad_q;
  logic [NumSlots*TagW-1:0] tag_d, tag_q;
  logic [NumSlots*KeyW-1:0] key_d, key_q;

  // The slot's state, read through constant slices (docs/sv-subset.md: a variable part-select would
  // build a shifter).
  logic [2:0]      cur_mode;
  logic            cur_final, cur_bad;
  logic [TagW-1:0] cur_tag;
  logic [KeyW-1:0] cur_key;
  always_comb begin
    cur_mode  = '0;
    cur_final = 1'b0;
    cur_bad   = 1'b0;
    cur_tag   = '0;
    cur_key   = '0;
    for (int s = 0; s < NumSlots; s++) begin
      if (slot == SlotW'(s)) begin
        cur_mode  = mode_q[s*3 +: 3];
        cur_final = final_q[s];
        cur_bad   = bad_q[s];
        cur_tag   = tag_q[s*TagW +: TagW];
        cur_key   = key_q[s*KeyW +: KeyW];
      end
    end
  end

  noc_pkg::head_t               head;
  noc_selftest_mesh_pkg::word_t word;
  assign head = rx_data_i;
  assign word = rx_data_i;

  // Head: it addresses this node (final) or names it as a stop on the way.
  localparam logic [noc_pkg::AddrW-1:0] OwnCoord = {{noc_pkg::CoordPadW{1'b0}}, noc_pkg::CoordW'(0),
                                                   noc_pkg::CoordW'(OwnY), noc_pkg::CoordW'(OwnX)};
  logic [noc_pkg::RouteEntryW-1:0] entry;
  logic                            head_ok, head_final, on_line;
  assign entry   = noc_pkg::route_next(head.dest);
  assign on_line = noc_pkg::coord_dest_ok(head.dest) && (noc_pkg::coord_dest_z(head.dest) == '0) &&
                   ((noc_pkg::coord_dest_x(head.dest) == noc_pkg::CoordW'(OwnX)) ||
                    (noc_pkg::coord_dest_y(head.dest) == noc_pkg::CoordW'(OwnY)));
  always_comb begin
    head_final = 1'b1;
    unique case (head.mode)
      noc_pkg::RouteHamPath: begin
        head_ok    = (head.dest == noc_pkg::AddrW'(OwnLabel));
        head_final = (head.more == '0);
      end
      noc_pkg::RouteDimOrder: head_ok = (head.dest == OwnCoord);
      noc_pkg::RouteCprLine: begin
        head_final = (head.dest == OwnCoord);
        head_ok    = head_final || (on_line && (head.cf == noc_pkg::CfDeliverPass || head.cf == noc_pkg::CfDeliverStop));
      end
      noc_pkg::RouteSourceRouted: begin
        head_final = (entry[noc_pkg::RoutePortW-1:0] == noc_pkg::RoutePortEnd);
        head_ok    = head_final || entry[noc_pkg::RoutePortW];
      end
      default: head_ok = 1'b0;
    endcase
  end

  // Payload word.
  logic            word_ok, first_ok, rest_ok;
  logic [KeyW-1:0] word_key;
  assign word_key = {word.fdest, word.seq, word.src, word.kind, word.lenm1};
  assign word_ok  = (word.sum == noc_selftest_pkg::word_sum(rx_data_i[DataW-1:noc_selftest_pkg::SumW])) &&
                    noc_selftest_mesh_pkg::KindsSent[word.kind] &&
                    (noc_selftest_pkg::kind_mode(word.kind) == cur_mode) && (word.zero == '0) &&
                    (32'(word.src) < SizeX * SizeY) && (32'(word.fdest) < SizeX * SizeY) &&
                    (rx_pos_i == PosW'(word.pos)) && (rx_last_i == (word.pos == word.lenm1)) &&
                    (word.pos <= word.lenm1) && (!cur_final || word.fdest == NodeW'(Node));
  assign first_ok = (word.seq[TagW-1:0] == cur_tag);
  assign rest_ok  = (word_key == cur_key);

  logic bad_now, is_data;
  assign is_data = !rx_head_i && !rx_addr_i;
  always_comb begin
    mode_d  = mode_q;
    final_d = final_q;
    bad_d   = bad_q;
    tag_d   = tag_q;
    key_d   = key_q;
    bad_now = 1'b0;
    if (rx_valid_i && slot_ok) begin
      if (rx_head_i) begin
        bad_now = !head_ok || rx_last_i;
      end else if (rx_addr_i) begin
        bad_now = (head.mode != cur_mode) || rx_last_i;
      end else begin
        bad_now = !word_ok || ((rx_pos_i == '0) ? !first_ok : !rest_ok);
      end
      // Constant slices in a loop (docs/sv-subset.md: a variable part-select builds a shifter).
      for (int s = 0; s < NumSlots; s++) begin
        if (slot == SlotW'(s)) begin
          bad_d[s] = (rx_head_i ? 1'b0 : cur_bad) || bad_now;
          if (rx_head_i) begin
            mode_d[s*3 +: 3]      = head.mode;
            final_d[s]            = head_final;
            tag_d[s*TagW +: TagW] = head.ident[TagW-1:0];
          end
          if (is_data && rx_pos_i == '0) begin
            key_d[s*KeyW +: KeyW] = word_key;
          end
        end
      end
    end
  end

  `NOC_FF(mode_q, mode_d, '0)
  `NOC_FF(final_q, final_d, '0)
  `NOC_FF(bad_q, bad_d, '0)
  `NOC_FF(tag_q, tag_d, '0)
  `NOC_FF(key_q, key_d, '0)

  logic ends;
  assign ends           = rx_valid_i && slot_ok && rx_last_i;
  assign deliver_o      = ends && is_data;
  assign deliver_good_o = !(cur_bad || bad_now);
  assign deliver_src_o  = word.src;
  assign deliver_tag_o  = word.seq[TagW-1:0];
  assign deliver_kind_o = word.kind;
  // A failed delivery, a message ending without payload, or a flit on a stream that carries none.
  assign error_o = (ends && (cur_bad || bad_now)) || (rx_valid_i && !slot_ok);

  // Head fields no check needs: the channel network and class are the routers'.
  logic unused_head;
  assign unused_head = ^{head.network, head.vc_class};

  `NOC_ASSERT(HeadOrAddrNotBoth_A, rx_valid_i |-> !(rx_head_i && rx_addr_i))

endmodule
