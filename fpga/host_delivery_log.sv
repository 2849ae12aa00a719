// SPDX-License-Identifier: SHL-0.51
// host_delivery_log: one node's log of received flits for the host link (docs/host-link.md): the
// consumer of the NI's receive port, each flit logged with the board cycle it was taken in, read
// back by the host in arrival order.
//
// An entry is {flags, word, cycle}: flags [StreamW-1:0] the flit's stream (the router input VC it
// was ejected from: worms of different streams interleave on the port, and the host reassembles
// each message from its stream's flits), [5] head, [6] address flit, [7] last; the word; the board
// cycle. A message is delivered in the cycle its last flit is logged. The log takes a flit every
// cycle it has room; when it is full it holds the receive port (`rx_ready_o` low, back-pressure into
// the network, which changes the network's timing), and `stall_o` says so in that cycle.
`include "noc_assert.svh"
`include "noc_registers.svh"

module host_delivery_log #(
  /// Entries; a power of two.
  parameter int unsigned Depth = 32,
  /// Width of a word (noc_pkg::DataW).
  parameter int unsigned DataW = 32,
  /// Width of a stream id (noc_ni's); at most 5.
  parameter int unsigned StreamW = 5,
  /// Width of an entry: flags, word, cycle. Derived, do not override.
  localparam int unsigned EntryW = 8 + DataW + 32,
  /// Width of an entry count. Derived, do not override.
  localparam int unsigned CountW = $clog2(Depth + 1)
) (
  /// Clock.
  input  logic               clk_i,
  /// Asynchronous active-low reset: empty.
  input  logic               rst_ni,
  /// The board cycle (free-running from reset).
  input  logic [31:0]        now_i,
  /// The NI's receive port (noc_ni rx_*).
  input  logic               rx_valid_i,
  output logic               rx_ready_o,
  input  logic [StreamW-1:0] rx_stream_i,
  input  logic               rx_head_i,
  input  logic               rx_addr_i,
  input  logic               rx_last_i,
  input  logic [DataW-1:0]   rx_data_i,
  /// A flit waits and the log is full (one cycle per cycle held).
  output logic               stall_o,
  /// Entries held.
  output logic [CountW-1:0]  count_o,
  /// The oldest entry (valid when `count_o` is not 0).
  output logic [EntryW-1:0]  front_o,
  /// Take the oldest entry this cycle.
  input  logic               pop_i
);

  localparam int unsigned PtrW = $clog2(Depth);

  if ((Depth & (Depth - 1)) != 0 || Depth < 2 || Depth > 128) begin : gen_depth_check
    $error("host_delivery_log: Depth (%0d) must be a power of two in 2..128", Depth);
  end
  if (StreamW > 5) begin : gen_stream_check
    $error("host_delivery_log: StreamW (%0d) must fit the 5 stream bits of an entry's flags", StreamW);
  end

  logic [EntryW-1:0] mem [Depth];
  logic [PtrW-1:0]   wr_d, wr_q, rd_d, rd_q;
  logic [CountW-1:0] used_d, used_q;
  logic              push;
  logic [7:0]        flags;

  assign rx_ready_o = used_q != CountW'(Depth);
  assign push       = rx_valid_i && rx_ready_o;
  assign stall_o    = rx_valid_i && !rx_ready_o;
  assign flags      = {rx_last_i, rx_addr_i, rx_head_i, 5'(rx_stream_i)};
  assign count_o    = used_q;
  assign front_o    = mem[rd_q];

  always_comb begin
    wr_d   = wr_q + PtrW'(push);
    rd_d   = rd_q + PtrW'(pop_i);
    used_d = used_q + CountW'(push) - CountW'(pop_i);
  end

  // Data storage: written only, never reset.
  always_ff @(posedge clk_i) begin
    if (push) mem[wr_q] <= {flags, rx_data_i, now_i};
  end

  `NOC_FF(wr_q, wr_d, '0)
  `NOC_FF(rd_q, rd_d, '0)
  `NOC_FF(used_q, used_d, '0)

  `NOC_ASSERT(NoPopWhenEmpty_A, !pop_i || used_q != '0)
  `NOC_ASSERT(UsedInRange_A, used_q <= CountW'(Depth))

endmodule
