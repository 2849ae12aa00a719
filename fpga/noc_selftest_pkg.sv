// SPDX-License-Identifier: SHL-0.51
// noc_selftest_pkg: the self-test network's message kinds and payload word layout (docs/fpga.md,
// "The self-test network"). Shared by the traffic generator (fpga/noc_traffic_gen.sv), which
// builds the words, and the delivery checker (fpga/noc_delivery_check.sv), which checks them.
//
// Every payload word is self-checking (no message buffer anywhere): it carries the identity of its
// message (source, sequence number, kind, destination set, length), its own index in the message,
// a per-destination stream sequence number for each of the two nodes, and a checksum byte over all
// of that. The checker needs no copy of the message, only a few bits of state per stream.
// Rules of the RTL subset (docs/sv-subset.md): package items as noc_selftest_pkg::NAME,
// functions on plain vectors, results assigned to the function name.
package noc_selftest_pkg;

  /// Nodes of the self-test network: a 2-node line (node 0's +x port to node 1's -x port).
  localparam int unsigned NumNodes = 2;

  /// Message kinds: what a generator sends, and the categories the pass condition counts.
  localparam int unsigned KindW = 3;
  /// Hamiltonian path, one destination (the neighbour, or the source itself).
  localparam logic [KindW-1:0] KindHpUni     = 3'd0;
  /// Hamiltonian path, two destinations {source, neighbour}: the head is delivered at the source's
  /// own router (intermediate reception) and the promoted address flit goes on to the neighbour.
  localparam logic [KindW-1:0] KindHpMulti   = 3'd1;
  /// Hamiltonian path from node 0 to {1, 0}: intermediate reception at node 1, where the promoted
  /// address flit turns back into the low network to end at node 0 (node 0 only, see docs/fpga.md).
  localparam logic [KindW-1:0] KindHpTurn    = 3'd2;
  /// Dimension-order unicast (neighbour or self).
  localparam logic [KindW-1:0] KindDor       = 3'd3;
  /// CPR line worm (neighbour or self), random control field.
  localparam logic [KindW-1:0] KindCpr       = 3'd4;
  /// Source route ending at the neighbour or at the source's own router.
  localparam logic [KindW-1:0] KindSrUni     = 3'd5;
  /// Source route with two deliveries: a deliver entry at the source then the neighbour, or a
  /// deliver entry at the neighbour then back to the source.
  localparam logic [KindW-1:0] KindSrMulti   = 3'd6;
  /// Source route whose head's route is used up at the source's router (regroup): the head is
  /// dropped there and the address flit leaves as the head of the rest of the worm.
  localparam logic [KindW-1:0] KindSrPrefix  = 3'd7;
  /// Number of kinds.
  localparam int unsigned NumKinds = 8;

  /// Payload words per message: 1..MaxLen (the length field holds len - 1).
  localparam int unsigned LenW = 3;
  /// Per-(destination, stream) sequence number width; exact (consecutive) per stream.
  localparam int unsigned PseqW = 4;
  /// Per-source message sequence number width; its low noc_pkg::TagW bits are the head's tag.
  localparam int unsigned SeqW = 4;
  /// Checksum width.
  localparam int unsigned SumW = 8;

  /// Width of a payload word: the fields of word_t below (the build must have NOC_DATA_W = 32).
  localparam int unsigned WordW = 2 * PseqW + SeqW + 1 + KindW + 2 + 2 * LenW + SumW;

  /// Payload word, MSB first: [31:28] pseq for node 1, [27:24] pseq for node 0, [23:20] seq,
  /// [19] src, [18:16] kind, [15:14] destination set (bit d = node d), [13:11] len - 1,
  /// [10:8] pos (the word's index), [7:0] checksum of [31:8].
  typedef struct packed {
    logic [PseqW-1:0] pseq1;
    logic [PseqW-1:0] pseq0;
    logic [SeqW-1:0]  seq;
    logic             src;
    logic [KindW-1:0] kind;
    logic [1:0]       dmask;
    logic [LenW-1:0]  lenm1;
    logic [LenW-1:0]  pos;
    logic [SumW-1:0]  sum;
  } word_t;

  /// The checksum of a payload word's fields [31:8]: the three bytes XORed, rotated 0, 1 and 2
  /// places so that a swap of bytes is caught too, and a constant so that an all-zero word fails.
  /// Any single corrupted bit changes it.
  function automatic logic [7:0] word_sum(input logic [23:0] fields);
    word_sum = fields[23:16] ^ {fields[14:8], fields[15]} ^ {fields[5:0], fields[7:6]} ^ 8'h5A;
  endfunction

  /// The routing mode (noc_pkg::route_mode_e) of a kind's worms.
  function automatic logic [2:0] kind_mode(input logic [2:0] kind);
    if (kind <= noc_selftest_pkg::KindHpTurn) begin
      kind_mode = noc_pkg::RouteHamPath;
    end else if (kind == noc_selftest_pkg::KindDor) begin
      kind_mode = noc_pkg::RouteDimOrder;
    end else if (kind == noc_selftest_pkg::KindCpr) begin
      kind_mode = noc_pkg::RouteCprLine;
    end else begin
      kind_mode = noc_pkg::RouteSourceRouted;
    end
  endfunction

endpackage
