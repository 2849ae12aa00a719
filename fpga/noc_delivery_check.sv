// SPDX-License-Identifier: SHL-0.51
// noc_delivery_check: the delivery checker of one node of the self-test network (docs/fpga.md,
// "The self-test network"), the consumer of the node's noc_ni receive port. It is always ready
// (rx_ready_o = 1): the sink guarantee (docs/ni.md, "The sink guarantee") holds with no bound to
// argue, and the NI's ejection FIFO never holds a flit for more than the cycle it arrives in.
//
// Every delivered message is checked flit by flit, with a few bits of state per stream (the
// router input VC it is ejected from; only the local port's and the connected network port's
// VCs can carry messages on the 2-node line):
//   - the head: its mode is one the generators send, and it addresses this node (a Hamiltonian
//     label equal to the node's, coordinates equal to the node's, a source-route entry that ends
//     or delivers here); the message has payload;
//   - address words: the same mode as their head;
//   - payload words (noc_selftest_pkg::word_t): the checksum; the kind's mode equals the head's;
//     this node is in the destination set; the word's index equals the NI's rx_pos_o and the
//     last flag falls on index len - 1; whether the head was an intermediate reception (more > 0)
//     is what the kind says for this node; the head's tag is the message's sequence number;
//     every word of a message carries the same (source, sequence number); and the first word's
//     stream sequence number for this node is exactly the next one expected from that source on
//     that stream (order, loss and duplicates per (source, stream)).
// At the last flit a delivery is reported (source, kind, good or not) and a failed one as an
// error; a flit on a stream that cannot carry traffic is an error of its own.
`include "noc_assert.svh"
`include "noc_registers.svh"

module noc_delivery_check #(
  /// This node: 0 or 1 on the 2-node line.
  parameter int unsigned Node = 0,
  /// Network ports of the router (noc_router NumNetPorts): the local port's stream ids follow.
  parameter int unsigned NumNetPorts = 4,
  /// VCs per router port (noc_router NumVcs): 2 on the self-test network.
  parameter int unsigned NumVcs = 2,
  /// Width of a stream id (noc_ni StreamW). Derived, do not override.
  localparam int unsigned StreamW = $clog2((NumNetPorts + 1) * NumVcs),
  /// Width of the payload index (noc_pkg::MoreW). Derived, do not override.
  localparam int unsigned PosW = noc_pkg::MoreW,
  /// Width of a word (noc_pkg::DataW). Derived, do not override.
  localparam int unsigned DataW = noc_pkg::DataW
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
  /// Pulse: a message was delivered here (its last flit was taken).
  output logic                 deliver_o,
  /// With deliver_o: every check of the message passed.
  output logic                 deliver_good_o,
  /// With deliver_o: the message's source (from its payload).
  output logic                 deliver_src_o,
  /// With deliver_o: the message's kind (noc_selftest_pkg Kind*).
  output logic [2:0]           deliver_kind_o,
  /// With deliver_o: the head was an intermediate reception (the worm went on from here).
  output logic                 deliver_inter_o,
  /// Pulse: a delivery failed a check, or a flit arrived on a stream that carries no traffic.
  output logic                 error_o
);

  localparam int unsigned PseqW = noc_selftest_pkg::PseqW;
  localparam int unsigned SeqW  = noc_selftest_pkg::SeqW;
  localparam int unsigned TagW  = noc_pkg::TagW;
  localparam int unsigned KeyW  = SeqW + 1;
  localparam int unsigned NumSlots = 4;

  if (NumVcs != 2) begin : gen_vcs_check
    $error("noc_delivery_check: the self-test network's streams assume NumVcs = 2");
  end
  if (Node > 1) begin : gen_node_check
    $error("noc_delivery_check: Node must be 0 or 1 (the self-test network is a 2-node line)");
  end

  assign rx_ready_o = 1'b1;

  // Stream to slot: {arrived on the network port, VC}. Only the local port (NumNetPorts) and the
  // network port toward the other node (port Node) carry traffic.
  logic [StreamW-2:0] port;
  logic               vc, slot_ok;
  logic [1:0]         slot;
  assign port    = rx_stream_i[StreamW-1:1];
  assign vc      = rx_stream_i[0];
  assign slot_ok = (32'(port) == NumNetPorts) || (32'(port) == Node);
  assign slot    = {32'(port) != NumNetPorts, vc};

  // Per-slot state of the message under way, and per (source, slot) the next stream sequence
  // number expected (exp_q bits [(src*NumSlots + slot)*PseqW +: PseqW]).
  logic [NumSlots*3-1:0]        mode_d, mode_q;
  logic [NumSlots-1:0]          inter_d, inter_q, bad_d, bad_q;
  logic [NumSlots*TagW-1:0]     tag_d, tag_q;
  logic [NumSlots*KeyW-1:0]     key_d, key_q;
  logic [2*NumSlots*PseqW-1:0]  exp_d, exp_q;

  // The slot's state, read through constant slices (docs/sv-subset.md: a variable part-select would
  // build a shifter).
  logic [2:0]       cur_mode;
  logic             cur_inter, cur_bad;
  logic [TagW-1:0]  cur_tag;
  logic [KeyW-1:0]  cur_key;
  logic [PseqW-1:0] cur_exp0, cur_exp1;
  always_comb begin
    cur_mode  = '0;
    cur_inter = 1'b0;
    cur_bad   = 1'b0;
    cur_tag   = '0;
    cur_key   = '0;
    cur_exp0  = '0;
    cur_exp1  = '0;
    for (int s = 0; s < NumSlots; s++) begin
      if (slot == 2'(s)) begin
        cur_mode  = mode_q[s*3 +: 3];
        cur_inter = inter_q[s];
        cur_bad   = bad_q[s];
        cur_tag   = tag_q[s*TagW +: TagW];
        cur_key   = key_q[s*KeyW +: KeyW];
        cur_exp0  = exp_q[s*PseqW +: PseqW];
        cur_exp1  = exp_q[(NumSlots + s)*PseqW +: PseqW];
      end
    end
  end

  noc_pkg::head_t          head;
  noc_selftest_pkg::word_t word;
  assign head = rx_data_i;
  assign word = rx_data_i;

  // Head: it addresses this node.
  logic [noc_pkg::RouteEntryW-1:0] entry;
  logic                            head_ok;
  assign entry = noc_pkg::route_next(head.dest);
  always_comb begin
    unique case (head.mode)
      noc_pkg::RouteHamPath:      head_ok = (head.dest == noc_pkg::AddrW'(Node));
      noc_pkg::RouteDimOrder,
      noc_pkg::RouteCprLine:      head_ok = (head.dest == noc_pkg::coord_dest(noc_pkg::CoordW'(Node), '0, '0));
      noc_pkg::RouteSourceRouted: head_ok = entry[noc_pkg::RoutePortW] ||
                                            (entry[noc_pkg::RoutePortW-1:0] == noc_pkg::RoutePortEnd);
      default:                    head_ok = 1'b0;
    endcase
  end

  // Payload word.
  logic             own_dest, inter_expected, word_ok, first_ok, rest_ok;
  logic [PseqW-1:0] own_pseq, exp_seen;
  assign own_dest = word.dmask[Node];
  assign own_pseq = (Node == 0) ? word.pseq0 : word.pseq1;
  assign exp_seen = word.src ? cur_exp1 : cur_exp0;
  // Intermediate reception happens at the source for KindHpMulti, at node 1 for KindHpTurn.
  assign inter_expected = ((word.kind == noc_selftest_pkg::KindHpMulti) && (32'(word.src) == Node)) ||
                          ((word.kind == noc_selftest_pkg::KindHpTurn) && (32'(word.src) != Node));
  assign word_ok = (word.sum == noc_selftest_pkg::word_sum(rx_data_i[DataW-1:noc_selftest_pkg::SumW])) &&
                   (noc_selftest_pkg::kind_mode(word.kind) == cur_mode) && own_dest &&
                   (rx_pos_i == PosW'(word.pos)) && (rx_last_i == (word.pos == word.lenm1)) &&
                   (word.pos <= word.lenm1) && (cur_inter == inter_expected);
  assign first_ok = (word.seq[TagW-1:0] == cur_tag) && (own_pseq == exp_seen);
  assign rest_ok  = ({word.seq, word.src} == cur_key);

  logic bad_now, is_data;
  assign is_data = !rx_head_i && !rx_addr_i;
  always_comb begin
    mode_d  = mode_q;
    inter_d = inter_q;
    bad_d   = bad_q;
    tag_d   = tag_q;
    key_d   = key_q;
    exp_d   = exp_q;
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
        if (slot == 2'(s)) begin
          bad_d[s] = (rx_head_i ? 1'b0 : cur_bad) || bad_now;
          if (rx_head_i) begin
            mode_d[s*3 +: 3]      = head.mode;
            inter_d[s]            = (head.more != '0);
            tag_d[s*TagW +: TagW] = head.ident[TagW-1:0];
          end
          if (is_data && rx_pos_i == '0) begin
            key_d[s*KeyW +: KeyW] = {word.seq, word.src};
          end
        end
      end
      // Resynchronize on what arrived, so one lost message is one error, not a run of them.
      for (int i = 0; i < 2 * NumSlots; i++) begin
        if (is_data && rx_pos_i == '0 && {word.src, slot} == 3'(i)) begin
          exp_d[i*PseqW +: PseqW] = own_pseq + 1'b1;
        end
      end
    end
  end

  `NOC_FF(mode_q, mode_d, '0)
  `NOC_FF(inter_q, inter_d, '0)
  `NOC_FF(bad_q, bad_d, '0)
  `NOC_FF(tag_q, tag_d, '0)
  `NOC_FF(key_q, key_d, '0)
  `NOC_FF(exp_q, exp_d, '0)

  logic ends;
  assign ends            = rx_valid_i && slot_ok && rx_last_i;
  assign deliver_o       = ends && is_data;
  assign deliver_good_o  = !(cur_bad || bad_now);
  assign deliver_src_o   = word.src;
  assign deliver_kind_o  = word.kind;
  assign deliver_inter_o = cur_inter;
  // A failed delivery, a message ending without payload, or a flit on a stream that carries none.
  assign error_o = (ends && (cur_bad || bad_now)) || (rx_valid_i && !slot_ok);

  // Head fields no check needs: the channel network, class and control field are the routers'.
  logic unused_head;
  assign unused_head = ^{head.network, head.vc_class, head.cf};

  `NOC_ASSERT(HeadOrAddrNotBoth_A, rx_valid_i |-> !(rx_head_i && rx_addr_i))

endmodule
