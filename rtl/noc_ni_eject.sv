// SPDX-License-Identifier: SHL-0.51
// noc_ni_eject: the depacketizer of one ejection port of the RTL network interface (docs/rtl.md,
// "Network interface"): the flits of one noc_router ejection port in, every flit out on a
// valid/ready receive port, tagged with its stream and its place in its message.
//
// The router interleaves the flits of several worms on an ejection port, each tagged with its
// stream (the router input VC it comes from, eject_stream_o), and gives the port one pool of
// BufDepth credits (noc_eject_unit). So this unit keeps:
//   - a FIFO of BufDepth flits (with their streams): the credit pool's slots, so a flit sent with a
//     credit always has room. A flit that arrives while the FIFO is empty is offered in the same
//     cycle (bypass), as the harness's C++ NI takes a flit in the cycle it is ejected;
//   - per stream a small context: idle, in the address flits (how many are left) or in the payload
//     (the index of the next word). No message buffer: every flit is handed on as it arrives;
//     the consumer keeps any per-message state it needs (the head, a CRC), keyed by rx_stream_o.
// A credit goes back to the router in the cycle a flit leaves the FIFO (taken by the consumer, or
// dropped as misplaced), so the router may eject again at once.
//
// The sink guarantee (docs/rtl.md, "Network interface"): the front flit is taken in every cycle
// the consumer is ready, whatever its stream, and nothing here depends on injection; so if the
// consumer is ready again and again, every ejected flit is taken and its credit returned.
// A misplaced flit (a head inside a worm of its stream, a body flit outside one) breaks the wire
// protocol: it is dropped at once without waiting for the consumer (its credit returned), the
// stream's context is left as it was, and misplaced_o pulses (the top keeps it sticky); an
// assertion catches it in simulation.
`include "noc_assert.svh"
`include "noc_registers.svh"

module noc_ni_eject #(
  /// Credits of the router's ejection port: the FIFO's depth (noc_router BufDepth, >= 1).
  parameter int unsigned BufDepth = 4,
  /// Streams: the router's input VCs, NumPorts * NumVcs (a context each).
  parameter int unsigned NumStreams = 10,
  /// Width of a stream id (noc_router StreamW). Derived, do not override.
  localparam int unsigned StreamW = (NumStreams > 1) ? $clog2(NumStreams) : 1,
  /// Width of a word position: the payload index, and the address flits left (noc_pkg::MoreW).
  /// Derived, do not override.
  localparam int unsigned PosW = noc_pkg::MoreW,
  /// Width of the FIFO's fill count. Derived, do not override.
  localparam int unsigned CountW = $clog2(BufDepth + 1)
) (
  /// Clock.
  input  logic                      clk_i,
  /// Asynchronous active-low reset: FIFO empty, every stream idle.
  input  logic                      rst_ni,

  // Link from the router's ejection port (noc_router out_*_o, eject_stream_o, out_credit_i).
  /// A flit is ejected this cycle (the router spent a credit of the pool on it).
  input  logic                      ej_valid_i,
  /// The flit (noc_pkg::flit_t).
  input  logic [noc_pkg::FlitW-1:0] ej_flit_i,
  /// The flit's stream (the router input VC it comes from).
  input  logic [StreamW-1:0]        ej_stream_i,
  /// One credit back to the pool: a flit left the FIFO this cycle (combinational).
  output logic                      ej_credit_o,

  // Receive port (valid/ready): every flit of every message, as it comes.
  /// A flit is offered (the FIFO's front, or the arriving flit when the FIFO is empty).
  output logic                      rx_valid_o,
  /// The consumer takes the offered flit this cycle. Must be high again and again, whatever the
  /// consumer's own injection does (the sink guarantee).
  input  logic                      rx_ready_i,
  /// The flit's stream: flits of one stream are one message after another, in order.
  output logic [StreamW-1:0]        rx_stream_o,
  /// The flit is a message's head (rx_data_o is a noc_pkg::head_t).
  output logic                      rx_head_o,
  /// The flit is one of the head's `more` address flits.
  output logic                      rx_addr_o,
  /// The flit is the last of its message (its tail).
  output logic                      rx_last_o,
  /// Payload word index, from 0 (modulo 2**PosW); 0 on the head and the address flits.
  output logic [PosW-1:0]           rx_pos_o,
  /// The flit's data.
  output logic [noc_pkg::DataW-1:0] rx_data_o,

  /// Flits held in the FIFO (for tests and debugging).
  output logic [CountW-1:0]         held_o,
  /// A misplaced flit was dropped this cycle (combinational; the top keeps it sticky).
  output logic                      misplaced_o,
  /// A flit arrived with the FIFO full and was lost (combinational; the router ejected it without
  /// a credit).
  output logic                      overflow_o
);

  /// Stream states: between messages, in the address flits, in the payload.
  localparam logic [1:0] StIdle    = 2'd0;
  localparam logic [1:0] StAddr    = 2'd1;
  localparam logic [1:0] StPayload = 2'd2;
  localparam int unsigned EntryW = StreamW + noc_pkg::FlitW;

  logic                   fifo_empty, fifo_full, fifo_push, fifo_pop;
  logic [EntryW-1:0]      fifo_front;
  logic                   front_valid;
  logic [StreamW-1:0]     front_stream;
  noc_pkg::flit_t         front_flit;
  noc_pkg::head_t         front_head;
  logic                   take;       // the front leaves the FIFO (or the bypass) this cycle
  logic                   misplaced;  // the front flit breaks its stream's message order
  logic                   deliver;    // the front goes to the consumer this cycle

  // Per stream: state and count (address flits left in StAddr, next payload index in StPayload).
  logic [NumStreams*2-1:0]    state_d, state_q;
  logic [NumStreams*PosW-1:0] count_d, count_q;
  logic [1:0]                 cur_state, next_state;
  logic [PosW-1:0]            cur_count, next_count;

  noc_fifo #(
    .Width(EntryW),
    .Depth(BufDepth)
  ) u_fifo (
    .clk_i,
    .rst_ni,
    .push_i    (fifo_push),
    .data_i    ({ej_stream_i, ej_flit_i}),
    .pop_i     (fifo_pop),
    .data_o    (fifo_front),
    .empty_o   (fifo_empty),
    .full_o    (fifo_full),
    .count_o   (held_o),
    .overflow_o(overflow_o)
  );

  // The front: the oldest held flit, or the arriving one when nothing is held (bypass).
  assign front_valid = !fifo_empty || ej_valid_i;
  assign {front_stream, front_flit} = fifo_empty ? {ej_stream_i, ej_flit_i} : fifo_front;
  assign front_head = front_flit.data;

  // The front stream's context: a mux over constant slices.
  always_comb begin
    cur_state = StIdle;
    cur_count = '0;
    for (int s = 0; s < NumStreams; s++) begin
      if (front_stream == StreamW'(s)) begin
        cur_state = state_q[s*2 +: 2];
        cur_count = count_q[s*PosW +: PosW];
      end
    end
  end

  // A head opens a message only on an idle stream; any other flit continues an open one.
  assign misplaced = front_valid && (front_flit.head ? (cur_state != StIdle) : (cur_state == StIdle));
  assign rx_valid_o = front_valid && !misplaced;
  assign deliver    = rx_valid_o && rx_ready_i;
  // A misplaced flit does not wait for the consumer: the sink never stalls on a broken stream.
  assign take       = deliver || misplaced;

  assign fifo_pop  = take && !fifo_empty;
  assign fifo_push = ej_valid_i && !(fifo_empty && take);
  assign ej_credit_o = take;
  assign misplaced_o = misplaced;

  assign rx_stream_o = front_stream;
  assign rx_head_o   = front_flit.head;
  assign rx_addr_o   = !front_flit.head && (cur_state == StAddr);
  assign rx_last_o   = front_flit.tail;
  assign rx_pos_o    = (!front_flit.head && cur_state == StPayload) ? cur_count : '0;
  assign rx_data_o   = front_flit.data;

  // The context after the front flit.
  always_comb begin
    next_state = cur_state;
    next_count = cur_count;
    if (front_flit.tail) begin
      next_state = StIdle;
      next_count = '0;
    end else if (front_flit.head) begin
      next_state = (front_head.more != '0) ? StAddr : StPayload;
      next_count = front_head.more;
    end else if (cur_state == StAddr) begin
      next_state = (cur_count == PosW'(1)) ? StPayload : StAddr;
      next_count = (cur_count == PosW'(1)) ? '0 : cur_count - PosW'(1);
    end else begin
      next_count = cur_count + PosW'(1);
    end
  end

  always_comb begin
    state_d = state_q;
    count_d = count_q;
    for (int s = 0; s < NumStreams; s++) begin
      if (deliver && front_stream == StreamW'(s)) begin
        state_d[s*2 +: 2]       = next_state;
        count_d[s*PosW +: PosW] = next_count;
      end
    end
  end

  `NOC_FF(state_q, state_d, {NumStreams{StIdle}})
  `NOC_FF(count_q, count_d, '0)

  // The NI reads only the `more` field of a head.
  logic unused_head;
  assign unused_head = ^{front_head.mode, front_head.network, front_head.vc_class, front_head.cf,
                         front_head.dest, front_head.ident};

  // The router ejects only with a credit, and a credit returned in a cycle is spent no earlier
  // than the next: held flits plus the arriving one never exceed the pool, so the FIFO has room.
  `NOC_ASSERT(EjectHasRoom_A, ej_valid_i |-> !fifo_full)
  `NOC_ASSERT(PushNeverOverflows_A, fifo_push |-> !fifo_full)
  // One credit per flit that leaves, and none otherwise: the pool is never over-returned.
  `NOC_ASSERT(CreditPerFlitTaken_A, ej_credit_o == (front_valid && (misplaced || rx_ready_i)))
  // The sink guarantee, this unit's part: a ready consumer takes the front flit, whatever its
  // stream, and a misplaced flit goes without one.
  `NOC_ASSERT(ReadyTakesFront_A, (front_valid && rx_ready_i) |-> ej_credit_o)
  // Flits in the FIFO never exceed the pool (at most BufDepth flits sent without a credit back).
  `NOC_ASSERT(HeldWithinPool_A, held_o <= CountW'(BufDepth))
  // Head before body, one message at a time per stream: legal traffic has no misplaced flit.
  `NOC_ASSERT(HeadOpensIdleStream_A, (front_valid && front_flit.head) |-> (cur_state == StIdle))
  `NOC_ASSERT(BodyContinuesStream_A, (front_valid && !front_flit.head) |-> (cur_state != StIdle))
  // Stream ids name a router input VC.
  `NOC_ASSERT(StreamInRange_A, front_valid |-> (32'(front_stream) < NumStreams))
  // A valid/ready offer is held until taken: the front changes only when it leaves.
  `NOC_ASSERT(OfferHeld_A, (rx_valid_o && !rx_ready_i) |=> (rx_valid_o && $stable(rx_data_o)
                                                           && $stable(rx_stream_o)))

endmodule
