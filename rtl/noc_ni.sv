// SPDX-License-Identifier: SHL-0.51
// noc_ni: the RTL network interface of one node (docs/rtl.md, "Network interface"), bound to the
// NumLocal local port pairs of its noc_router: per pair, a noc_ni_inject (message words in,
// flits out with per-VC credits) and a noc_ni_eject (the ejection port's interleaved flits out on
// a receive port, tagged with their stream and place in their message, the credit back when the
// consumer takes a flit). The router-side ports are the router's local-port slices, in its own
// layout, so a node top wires them straight across:
//   inj_valid_o/inj_vc_o/inj_flit_o -> in_valid_i/in_vc_i/in_flit_i of ports NumNetPorts..;
//   in_credit_o of those ports      -> inj_credit_i;
//   out_valid_o/out_flit_o of those ports and eject_stream_o -> ej_valid_i/ej_flit_i/ej_stream_i;
//   ej_credit_o                     -> out_credit_i of those ports.
// It mirrors the harness's C++ NI (sim/node_interface.cpp) cycle for cycle: the same flits on
// the same VCs in the same cycles for the same messages and credits, and the same credits back for
// the same ejected flits and consumer back-pressure (verif/rtl/ni_test.cpp).
// Sticky errors_o bits: ErrInjectCredit (a credit returned to a full injection count), ErrEjectOverflow
// (a flit ejected into a full FIFO: the router spent a credit it did not have), ErrEjectMisplaced
// (a head inside a message of its stream, or a body flit outside one; dropped).
`include "noc_assert.svh"
`include "noc_registers.svh"

module noc_ni #(
  /// Network ports of the router (noc_router NumNetPorts): the stream ids count its input VCs.
  parameter int unsigned NumNetPorts = 4,
  /// Local port pairs of the router (noc_router NumLocal, >= 1): one injection and one ejection
  /// channel each.
  parameter int unsigned NumLocal = 1,
  /// VCs per router port: 1, 2 or 4 (noc_router NumVcs).
  parameter int unsigned NumVcs = 2,
  /// Flits per router input VC buffer and credits of an ejection port (noc_router BufDepth, >= 1).
  parameter int unsigned BufDepth = 4,
  /// Router ports. Derived, do not override.
  localparam int unsigned NumPorts = NumNetPorts + NumLocal,
  /// Width of a VC id on a link (noc_router VcIdW). Derived, do not override.
  localparam int unsigned VcIdW = (NumVcs > 1) ? $clog2(NumVcs) : 1,
  /// Width of a flit (noc_pkg::FlitW). Derived, do not override.
  localparam int unsigned FlitW = noc_pkg::FlitW,
  /// Width of a word (noc_pkg::DataW). Derived, do not override.
  localparam int unsigned DataW = noc_pkg::DataW,
  /// Streams of an ejection port: the router's input VCs. Derived, do not override.
  localparam int unsigned NumStreams = NumPorts * NumVcs,
  /// Width of a stream id (noc_router StreamW). Derived, do not override.
  localparam int unsigned StreamW = (NumStreams > 1) ? $clog2(NumStreams) : 1,
  /// Width of a payload word index (noc_pkg::MoreW). Derived, do not override.
  localparam int unsigned PosW = noc_pkg::MoreW,
  /// Width of a credit count. Derived, do not override.
  localparam int unsigned CountW = $clog2(BufDepth + 1),
  /// Width of errors_o. Derived, do not override.
  localparam int unsigned ErrorsW = 3
) (
  /// Clock (the router's).
  input  logic                          clk_i,
  /// Asynchronous active-low reset, with the router's: full credits, empty FIFOs, idle streams.
  input  logic                          rst_ni,

  // Message ports, channel l in bit l / bits [l*W +: W] (noc_ni_inject).
  /// A message word is offered on channel l (held until taken).
  input  logic [NumLocal-1:0]           msg_valid_i,
  /// Channel l takes its word this cycle.
  output logic [NumLocal-1:0]           msg_ready_o,
  /// Channel l's word: head, address flit or payload word.
  input  logic [NumLocal*DataW-1:0]     msg_data_i,
  /// Channel l's word is the last of its message.
  input  logic [NumLocal-1:0]           msg_last_i,

  // Injection links to the router's local input ports NumNetPorts + l.
  /// A flit goes to local input port l.
  output logic [NumLocal-1:0]           inj_valid_o,
  /// Its VC.
  output logic [NumLocal*VcIdW-1:0]     inj_vc_o,
  /// The flit (noc_pkg::flit_t).
  output logic [NumLocal*FlitW-1:0]     inj_flit_o,
  /// The router's credits of local input port l, VC v in bit l*NumVcs+v.
  input  logic [NumLocal*NumVcs-1:0]    inj_credit_i,

  // Ejection links from the router's ejection ports NumNetPorts + l.
  /// A flit is ejected on port l.
  input  logic [NumLocal-1:0]           ej_valid_i,
  /// The flit.
  input  logic [NumLocal*FlitW-1:0]     ej_flit_i,
  /// Its stream (noc_router eject_stream_o).
  input  logic [NumLocal*StreamW-1:0]   ej_stream_i,
  /// Credits to the router's ejection port l: the pool's credit on bit l*NumVcs (VC 0), the other
  /// bits 0, the layout of noc_router out_credit_i.
  output logic [NumLocal*NumVcs-1:0]    ej_credit_o,

  // Receive ports, channel l (noc_ni_eject).
  /// A flit is offered on receive port l.
  output logic [NumLocal-1:0]           rx_valid_o,
  /// The consumer of port l takes it (must be high again and again: the sink guarantee).
  input  logic [NumLocal-1:0]           rx_ready_i,
  /// Its stream.
  output logic [NumLocal*StreamW-1:0]   rx_stream_o,
  /// It is a message's head.
  output logic [NumLocal-1:0]           rx_head_o,
  /// It is an address flit.
  output logic [NumLocal-1:0]           rx_addr_o,
  /// It is the last flit of its message.
  output logic [NumLocal-1:0]           rx_last_o,
  /// Its payload word index (0 on head and address flits).
  output logic [NumLocal*PosW-1:0]      rx_pos_o,
  /// Its data.
  output logic [NumLocal*DataW-1:0]     rx_data_o,

  /// Sticky errors since reset: bit 0 ErrInjectCredit, bit 1 ErrEjectOverflow, bit 2
  /// ErrEjectMisplaced (registered).
  output logic [ErrorsW-1:0]            errors_o
);

  /// errors_o bits.
  localparam int unsigned ErrInjectCredit   = 0;
  localparam int unsigned ErrEjectOverflow  = 1;
  localparam int unsigned ErrEjectMisplaced = 2;

  logic [NumLocal-1:0] credit_overflow, eject_overflow, misplaced;
  logic [ErrorsW-1:0]  errors_d, errors_q;

  for (genvar l = 0; l < NumLocal; l++) begin : gen_local
    logic [NumVcs*CountW-1:0] unused_credit_count;
    logic [CountW-1:0]        unused_held;
    logic                     ej_credit;

    noc_ni_inject #(
      .NumVcs  (NumVcs),
      .BufDepth(BufDepth)
    ) u_inject (
      .clk_i,
      .rst_ni,
      .msg_valid_i      (msg_valid_i[l]),
      .msg_ready_o      (msg_ready_o[l]),
      .msg_data_i       (msg_data_i[l*DataW +: DataW]),
      .msg_last_i       (msg_last_i[l]),
      .inj_valid_o      (inj_valid_o[l]),
      .inj_vc_o         (inj_vc_o[l*VcIdW +: VcIdW]),
      .inj_flit_o       (inj_flit_o[l*FlitW +: FlitW]),
      .inj_credit_i     (inj_credit_i[l*NumVcs +: NumVcs]),
      .credit_count_o   (unused_credit_count),
      .credit_overflow_o(credit_overflow[l])
    );

    noc_ni_eject #(
      .BufDepth  (BufDepth),
      .NumStreams(NumStreams)
    ) u_eject (
      .clk_i,
      .rst_ni,
      .ej_valid_i (ej_valid_i[l]),
      .ej_flit_i  (ej_flit_i[l*FlitW +: FlitW]),
      .ej_stream_i(ej_stream_i[l*StreamW +: StreamW]),
      .ej_credit_o(ej_credit),
      .rx_valid_o (rx_valid_o[l]),
      .rx_ready_i (rx_ready_i[l]),
      .rx_stream_o(rx_stream_o[l*StreamW +: StreamW]),
      .rx_head_o  (rx_head_o[l]),
      .rx_addr_o  (rx_addr_o[l]),
      .rx_last_o  (rx_last_o[l]),
      .rx_pos_o   (rx_pos_o[l*PosW +: PosW]),
      .rx_data_o  (rx_data_o[l*DataW +: DataW]),
      .held_o     (unused_held),
      .misplaced_o(misplaced[l]),
      .overflow_o (eject_overflow[l])
    );

    // The ejection port's credits are one pool, returned on VC 0 (noc_eject_unit).
    assign ej_credit_o[l*NumVcs +: NumVcs] = NumVcs'(ej_credit);

    // The link protocol on both links of the pair, at their receivers' ends (noc_link_checker):
    // the injection link has a credit pool and worms per VC, the ejection link (no VC wire: VC 0)
    // one pool and worms per stream.
    noc_link_checker #(
      .NumVcs  (NumVcs),
      .BufDepth(BufDepth)
    ) u_inject_check (
      .clk_i,
      .rst_ni,
      .valid_i (inj_valid_o[l]),
      .vc_i    (inj_vc_o[l*VcIdW +: VcIdW]),
      .flit_i  (inj_flit_o[l*FlitW +: FlitW]),
      .stream_i(1'b0),
      .credit_i(inj_credit_i[l*NumVcs +: NumVcs])
    );

    noc_link_checker #(
      .NumVcs    (NumVcs),
      .BufDepth  (BufDepth),
      .Eject     (1),
      .NumStreams(NumStreams)
    ) u_eject_check (
      .clk_i,
      .rst_ni,
      .valid_i (ej_valid_i[l]),
      .vc_i    (VcIdW'(0)),
      .flit_i  (ej_flit_i[l*FlitW +: FlitW]),
      .stream_i(ej_stream_i[l*StreamW +: StreamW]),
      .credit_i(ej_credit_o[l*NumVcs +: NumVcs])
    );

    // The debug counts are for the unit tests of the cells.
    logic unused_debug;
    assign unused_debug = ^{unused_credit_count, unused_held};
  end

  always_comb begin
    errors_d = errors_q;
    errors_d[ErrInjectCredit]   = errors_q[ErrInjectCredit] | (|credit_overflow);
    errors_d[ErrEjectOverflow]  = errors_q[ErrEjectOverflow] | (|eject_overflow);
    errors_d[ErrEjectMisplaced] = errors_q[ErrEjectMisplaced] | (|misplaced);
  end
  `NOC_FF(errors_q, errors_d, '0)
  assign errors_o = errors_q;

  `NOC_ASSERT(ErrorsSticky_A, (errors_d & errors_q) == errors_q)

endmodule
