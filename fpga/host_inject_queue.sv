// SPDX-License-Identifier: SHL-0.51
// host_inject_queue: one node's queue of messages from the host link (docs/host-link.md), each
// injected into the node's NI at the board cycle the host asked for.
//
// The host link writes a message as a start entry (the requested board cycle) followed by its
// words, the last one marked; the queue holds up to Depth entries. The message at the front is
// offered to the NI's message port, word by word, from the cycle `now_i` reaches its start cycle,
// and only once all its words are in the queue (the link counts a message complete when it writes
// the last word), so a message is never offered with a gap. The start entry is taken off the front
// as soon as it is there (into `start_q`), so the head word is offered exactly in the requested cycle
// when the message was complete before it and the node's previous message was done. A message that
// begins later than its start cycle is late (`late_o` pulses in its first cycle): its start had
// passed when its last word arrived, or the messages before it were still being sent.
// Cycles compare modulo 2^32: a start at most 2^31 - 1 cycles ago counts as reached.
`include "noc_assert.svh"
`include "noc_registers.svh"

module host_inject_queue #(
  /// Queue entries (start entries and words); a power of two.
  parameter int unsigned Depth = 32,
  /// Width of a message word (noc_pkg::DataW); at least 32, the width of a board cycle.
  parameter int unsigned DataW = 32,
  /// Width of an entry count. Derived, do not override.
  localparam int unsigned CountW = $clog2(Depth + 1)
) (
  /// Clock.
  input  logic              clk_i,
  /// Asynchronous active-low reset: empty.
  input  logic              rst_ni,
  /// The board cycle (free-running from reset).
  input  logic [31:0]       now_i,
  /// Write an entry this cycle (at most one per cycle; never when `free_o` is 0).
  input  logic              push_i,
  /// The entry is a message's start cycle (`push_data_i[31:0]`), else a word.
  input  logic              push_start_i,
  /// The word is its message's last.
  input  logic              push_last_i,
  /// The start cycle or the word.
  input  logic [DataW-1:0]  push_data_i,
  /// Entries free.
  output logic [CountW-1:0] free_o,
  /// Complete messages in the queue, not yet fully offered.
  output logic [7:0]        queued_o,
  /// The NI's message port (noc_ni msg_*): a word offered, taken, the word, the message's last.
  output logic              msg_valid_o,
  input  logic              msg_ready_i,
  output logic [DataW-1:0]  msg_data_o,
  output logic              msg_last_o,
  /// A message's head word was offered after its start cycle (one cycle, with the first offer).
  output logic              late_o
);

  localparam int unsigned PtrW   = $clog2(Depth);
  localparam int unsigned EntryW = DataW + 2;  // {start, last, data}

  if ((Depth & (Depth - 1)) != 0 || Depth < 4 || Depth > 256) begin : gen_depth_check
    $error("host_inject_queue: Depth (%0d) must be a power of two in 4..256", Depth);
  end
  if (DataW < 32) begin : gen_width_check
    $error("host_inject_queue: DataW (%0d) must hold a 32-bit board cycle", DataW);
  end

  logic [EntryW-1:0] mem [Depth];
  logic [PtrW-1:0]   wr_d, wr_q, rd_d, rd_q;
  logic [CountW-1:0] used_d, used_q;
  logic [7:0]        complete_d, complete_q;  // complete messages whose start entry is still queued or armed
  logic [31:0]       start_d, start_q;
  logic              armed_d, armed_q;        // start_q holds the front message's start cycle
  logic              sending_d, sending_q;    // the front message's head word has been offered

  logic [EntryW-1:0] front;
  logic              front_start, front_last, pop, reached, offer;
  assign front       = mem[rd_q];
  assign front_start = front[EntryW-1];
  assign front_last  = front[EntryW-2];
  // The start cycle has come: now - start, as a signed 32-bit difference, is not negative.
  logic [31:0] since_start;
  logic [30:0] unused_since;
  assign since_start  = now_i - start_q;
  assign reached      = !since_start[31];
  assign unused_since = since_start[30:0];
  assign offer       = armed_q && complete_q != '0 && (sending_q || reached);

  assign msg_valid_o = offer;
  assign msg_data_o  = front[DataW-1:0];
  assign msg_last_o  = front_last;
  assign late_o      = offer && !sending_q && (now_i != start_q);
  assign free_o      = CountW'(Depth) - used_q;
  assign queued_o    = complete_q;

  always_comb begin
    pop       = 1'b0;
    armed_d   = armed_q;
    start_d   = start_q;
    sending_d = sending_q;
    if (!armed_q && used_q != '0 && front_start) begin
      pop     = 1'b1;
      armed_d = 1'b1;
      start_d = front[31:0];
    end else if (offer && msg_ready_i) begin
      pop       = 1'b1;
      sending_d = !front_last;
      armed_d   = !front_last;
    end
  end

  always_comb begin
    wr_d       = wr_q + PtrW'(push_i);
    rd_d       = rd_q + PtrW'(pop);
    used_d     = used_q + CountW'(push_i) - CountW'(pop);
    complete_d = complete_q + 8'(push_i && !push_start_i && push_last_i)
                 - 8'(offer && msg_ready_i && front_last);
  end

  // Data storage: written only, never reset.
  always_ff @(posedge clk_i) begin
    if (push_i) mem[wr_q] <= {push_start_i, push_last_i, push_data_i};
  end

  `NOC_FF(wr_q, wr_d, '0)
  `NOC_FF(rd_q, rd_d, '0)
  `NOC_FF(used_q, used_d, '0)
  `NOC_FF(complete_q, complete_d, '0)
  `NOC_FF(start_q, start_d, '0)
  `NOC_FF(armed_q, armed_d, 1'b0)
  `NOC_FF(sending_q, sending_d, 1'b0)

  `NOC_ASSERT(NoPushWhenFull_A, !push_i || used_q != CountW'(Depth))
  `NOC_ASSERT(UsedInRange_A, used_q <= CountW'(Depth))
  `NOC_ASSERT(OfferedWordIsAWord_A, !offer || !front_start)
  `NOC_ASSERT(CompleteAtMostUsed_A, CountW'(complete_q) <= used_q)

endmodule
