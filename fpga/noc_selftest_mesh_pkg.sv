// SPDX-License-Identifier: SHL-0.51
// noc_selftest_mesh_pkg: the payload word layout and helpers of the mesh self-test network
// (fpga/noc_selftest_mesh.sv; docs/fpga.md, "The mesh self-test"). Shared by its traffic generator
// (fpga/noc_mesh_traffic_gen.sv), which builds the words, and its delivery checker
// (fpga/noc_mesh_delivery_check.sv), which checks them. The message kinds, their routing modes and
// the checksum are the 2-node line's (noc_selftest_pkg Kind*, kind_mode, word_sum); the mesh sends
// a subset of those kinds, built for R x C nodes.
//
// Every payload word is self-checking (no message buffer anywhere): it names its message (source,
// sequence number, kind, length, the node its last head addresses), its own index in the message
// and a checksum byte over all of that.
// Rules of the RTL subset (docs/sv-subset.md): package items as noc_selftest_mesh_pkg::NAME,
// functions on plain vectors, results assigned to the function name.
package noc_selftest_mesh_pkg;

  /// Width of a node id (x + SizeX * y): meshes of up to 16 nodes (4x4).
  localparam int unsigned NodeW = 4;
  /// Per-source message sequence number width; its low noc_pkg::TagW bits are the head's tag.
  localparam int unsigned SeqW = 4;
  /// The kinds the mesh sends (bit k = noc_selftest_pkg kind k): Hamiltonian path with one and two
  /// destinations, dimension order, CPR line, source route with one and two deliveries. Not sent:
  /// KindHpTurn (its network switch is outside the firmware's families) and KindSrPrefix (the
  /// firmware's prefix is multi-path's, whose first hops the mesh generator does not reproduce).
  localparam logic [7:0] KindsSent = 8'b0111_1011;
  /// Deliveries of one message at most (a CPR line with cf = 11 delivers at every router after the
  /// source up to its end: 3 on a row of 4).
  localparam int unsigned MaxDeliveries = 3;
  /// Width of a count of deliveries (0..MaxDeliveries).
  localparam int unsigned DlvW = 2;

  /// Widths of the kind, length and checksum fields: noc_selftest_pkg's KindW, LenW and SumW
  /// (yosys 0.23 cannot read another package's items inside a package; noc_mesh_traffic_gen checks
  /// that they agree).
  localparam int unsigned KindW = 3;
  localparam int unsigned LenW  = 3;
  localparam int unsigned SumW  = 8;

  /// Payload word, MSB first: [31:28] fdest, [27:24] seq, [23:20] src, [19:17] kind,
  /// [16:14] len - 1, [13:11] pos (the word's index), [10:8] zero, [7:0] checksum of [31:8]
  /// (noc_selftest_pkg::word_sum). fdest is the node the message's last head addresses: the end of
  /// a Hamiltonian path, the dimension-order or CPR destination, the end of a source route.
  typedef struct packed {
    logic [NodeW-1:0]                   fdest;
    logic [SeqW-1:0]                    seq;
    logic [NodeW-1:0]                   src;
    logic [KindW-1:0] kind;
    logic [LenW-1:0]  lenm1;
    logic [LenW-1:0]  pos;
    logic [2:0]                         zero;
    logic [SumW-1:0]  sum;
  } word_t;

  /// Width of a payload word (the build must have NOC_DATA_W = 32).
  localparam int unsigned WordW = 2 * NodeW + SeqW + KindW + 2 * LenW + 3 + SumW;

  /// Row-snake label of (x, y) on a mesh `size_x` wide, the labeling noc_network_top configures
  /// (docs/rtl-modules.md, "Network tops"): y*size_x + x on even rows, y*size_x + size_x-1-x on
  /// odd ones.
  function automatic logic [7:0] snake(input logic [3:0] x, input logic [3:0] y, input logic [3:0] size_x);
    snake = 8'(y) * 8'(size_x) + (y[0] ? 8'(size_x) - 8'd1 - 8'(x) : 8'(x));
  endfunction

endpackage
