// SPDX-License-Identifier: SHL-0.51
// noc_fifo: synchronous first-in first-out buffer, the router's input flit buffer.
//
// Storage is a bank of registers (`Depth` entries of `Width` bits) addressed by a read and a write
// pointer that wrap at `Depth`, so any depth >= 1 works, power of two or not. There is no
// fall-through: an entry pushed in cycle t is visible on `data_o` from cycle t+1. `data_o` is
// the head entry read combinationally from the registers (a mux over constant slices, no
// variable part-select); it is meaningful only while `empty_o` is low. A push and a pop in the
// same cycle are allowed whenever each is legal on its own. Pushing when full or popping when
// empty is a protocol error: it is flagged by an assertion and ignored by the hardware; a push into
// a full FIFO (a flit lost) is also reported on `overflow_o`, which survives synthesis.
`include "noc_assert.svh"
`include "noc_registers.svh"

module noc_fifo #(
  /// Width of one entry in bits (>= 1).
  parameter int unsigned Width = 8,
  /// Number of entries (>= 1; need not be a power of two).
  parameter int unsigned Depth = 4,
  /// Width of `count_o`: enough bits to hold 0..Depth. Derived, do not override.
  localparam int unsigned CountW = $clog2(Depth + 1)
) (
  /// Clock; all state changes on its rising edge.
  input  logic              clk_i,
  /// Asynchronous active-low reset; empties the FIFO and clears the storage.
  input  logic              rst_ni,
  /// Write `data_i` at the tail this cycle. Must be low while `full_o` is high.
  input  logic              push_i,
  /// Entry to write when `push_i` is high.
  input  logic [Width-1:0]  data_i,
  /// Remove the head entry this cycle. Must be low while `empty_o` is high.
  input  logic              pop_i,
  /// Head entry (the oldest one); valid while `empty_o` is low.
  output logic [Width-1:0]  data_o,
  /// No entries stored.
  output logic              empty_o,
  /// `Depth` entries stored; no room for a push.
  output logic              full_o,
  /// Number of entries stored, 0..Depth.
  output logic [CountW-1:0] count_o,
  /// A push while full this cycle: `data_i` is dropped (combinational; the router keeps it sticky).
  output logic              overflow_o
);
  // The simulator (Verilator 5.006) keeps a wide FIFO (the input unit's flit and decision, 77
  // bits) as a module of its own and then emits assertion code that samples registers it did not
  // declare (C++ that does not compile); inlined, the assertions compile.
  /*verilator inline_module*/

  /// Width of a pointer into the storage (at least one bit, also for Depth = 1).
  localparam int unsigned PtrW = (Depth > 1) ? $clog2(Depth) : 1;
  /// With one entry both pointers stay 0 (tied off, so synthesis drops their registers).
  localparam bit SingleEntry = (Depth == 1);

  logic [Depth*Width-1:0] mem_d, mem_q;
  logic [PtrW-1:0]        wr_ptr_d, wr_ptr_q;
  logic [PtrW-1:0]        rd_ptr_d, rd_ptr_q;
  logic [CountW-1:0]      count_d, count_q;
  logic                   push_en, pop_en;

  assign empty_o = (count_q == '0);
  assign full_o  = (count_q == CountW'(Depth));
  assign count_o = count_q;

  // Illegal requests are dropped so the state stays consistent even with assertions compiled out.
  assign push_en = push_i & ~full_o;
  assign pop_en  = pop_i & ~empty_o;
  assign overflow_o = push_i & full_o;

  always_comb begin
    mem_d    = mem_q;
    wr_ptr_d = wr_ptr_q;
    rd_ptr_d = rd_ptr_q;
    count_d  = count_q;
    if (push_en) begin
      for (int i = 0; i < Depth; i++) begin
        if (wr_ptr_q == PtrW'(i)) begin
          mem_d[i*Width +: Width] = data_i;
        end
      end
      wr_ptr_d = (SingleEntry || wr_ptr_q == PtrW'(Depth - 1)) ? '0 : wr_ptr_q + PtrW'(1);
    end
    if (pop_en) begin
      rd_ptr_d = (SingleEntry || rd_ptr_q == PtrW'(Depth - 1)) ? '0 : rd_ptr_q + PtrW'(1);
    end
    if (push_en && !pop_en) begin
      count_d = count_q + CountW'(1);
    end else if (pop_en && !push_en) begin
      count_d = count_q - CountW'(1);
    end
  end

  // Head entry: a mux over the constant slices of the storage.
  always_comb begin
    data_o = '0;
    for (int i = 0; i < Depth; i++) begin
      if (rd_ptr_q == PtrW'(i)) begin
        data_o = mem_q[i*Width +: Width];
      end
    end
  end

  `NOC_FF(mem_q, mem_d, '0)
  `NOC_FF(wr_ptr_q, wr_ptr_d, '0)
  `NOC_FF(rd_ptr_q, rd_ptr_d, '0)
  `NOC_FF(count_q, count_d, '0)

  `NOC_ASSERT(PushNotFull_A, push_i |-> !full_o)
  `NOC_ASSERT(PopNotEmpty_A, pop_i |-> !empty_o)
  `NOC_ASSERT(CountInRange_A, count_q <= CountW'(Depth))
  `NOC_ASSERT(PointersAgreeWithCount_A,
              (count_q == '0 || count_q == CountW'(Depth)) == (wr_ptr_q == rd_ptr_q))

`ifdef FORMAL
  // Formal properties (verif/formal/run.sh; docs/verification.md). The environment may push, pop
  // and reset at will, legal or not. A shadow count follows the documented contract (an illegal
  // push or pop is ignored), and one flit pushed at an arbitrary cycle is tracked to the head: it
  // must leave with its data after exactly the flits pushed before it, which for an arbitrary flit
  // means no flit is created, lost, reordered or duplicated.
  logic f_first = 1'b1;  // the first cycle: reset is asserted
  always_ff @(posedge clk_i) f_first <= 1'b0;
  always_comb if (f_first) assume (!rst_ni);

  (* anyseq *) logic f_pick;          // track the flit pushed in this cycle
  logic [CountW-1:0] f_count_d, f_count_q;  // entries stored, by the contract
  logic              f_push_ok, f_pop_ok;
  logic              f_track_d, f_track_q;  // a flit is tracked
  logic [Width-1:0]  f_data_d, f_data_q;    // its data
  logic [CountW-1:0] f_ahead_d, f_ahead_q;  // entries ahead of it
  logic [CountW:0]   f_slot;                // its storage slot: rd_ptr + ahead, wrapped
  logic [CountW:0]   f_wr_slot;             // the tail slot: rd_ptr + count, wrapped

  assign f_push_ok = push_i && (f_count_q != CountW'(Depth));
  assign f_pop_ok  = pop_i && (f_count_q != '0);
  always_comb begin
    f_count_d = f_count_q + CountW'(f_push_ok) - CountW'(f_pop_ok);
    f_track_d = f_track_q;
    f_data_d  = f_data_q;
    f_ahead_d = f_ahead_q;
    if (f_track_q && f_pop_ok) begin
      if (f_ahead_q == '0) f_track_d = 1'b0;
      else f_ahead_d = f_ahead_q - CountW'(1);
    end
    if (!f_track_q && f_pick && f_push_ok) begin
      f_track_d = 1'b1;
      f_data_d  = data_i;
      f_ahead_d = f_count_q - CountW'(f_pop_ok);
    end
    f_slot = (CountW+1)'(rd_ptr_q) + (CountW+1)'(f_ahead_q);
    if (f_slot >= (CountW+1)'(Depth)) f_slot = f_slot - (CountW+1)'(Depth);
    f_wr_slot = (CountW+1)'(rd_ptr_q) + (CountW+1)'(count_q);
    if (f_wr_slot >= (CountW+1)'(Depth)) f_wr_slot = f_wr_slot - (CountW+1)'(Depth);
  end
  `NOC_FF(f_count_q, f_count_d, '0)
  `NOC_FF(f_track_q, f_track_d, 1'b0)
  `NOC_FF(f_data_q, f_data_d, '0)
  `NOC_FF(f_ahead_q, f_ahead_d, '0)

  always_comb begin
    if (rst_ni) begin
      // Ports against the contract.
      assert (count_o == f_count_q);
      assert (empty_o == (f_count_q == '0));
      assert (full_o == (f_count_q == CountW'(Depth)));
      assert (overflow_o == (push_i && f_count_q == CountW'(Depth)));
      // The tracked flit leaves in its turn with its data (order, no loss, no corruption).
      if (f_track_q && f_pop_ok && f_ahead_q == '0) assert (data_o == f_data_q);
      if (f_track_q) assert (f_ahead_q < f_count_q);
      // The guard: a pop of an empty buffer moves nothing.
      if (empty_o) assert (!pop_en && rd_ptr_d == rd_ptr_q);
      // Internal invariants (they make the proof inductive).
      assert (count_q <= CountW'(Depth));
      assert ((CountW+1)'(wr_ptr_q) == f_wr_slot);
      for (int i = 0; i < Depth; i++) begin
        if (f_track_q && f_slot == (CountW+1)'(i)) assert (mem_q[i*Width +: Width] == f_data_q);
      end
    end
  end
  always_comb begin
    if (rst_ni) begin
      cover (f_track_q && f_pop_ok && f_ahead_q == '0 && full_o);
    end
  end
`endif

endmodule
