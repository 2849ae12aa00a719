// SPDX-License-Identifier: SHL-0.51
// noc_ebr_buffer: the flit buffers of one input port, NumVcs FIFOs of Depth entries, with the bulk
// of the storage in one block RAM (iCE40 SB_RAM40_4K: 1 read + 1 write port, synchronous read).
//
// It behaves like NumVcs noc_fifo instances side by side (same push/pop rules, same empty, full,
// count and overflow, no fall-through) with one difference: a VC's head data bits are only
// guaranteed while `loaded_o` is high (docs/rtl.md, "Input buffers in block RAM").
//
// Storage:
//   - the low `Width - FlagW` bits of every entry (a flit's data) in one RAM at address {vc, slot}:
//     one write per cycle (one flit arrives per link per cycle), one read per cycle;
//   - the top `FlagW` bits of every entry (a flit's head and tail flags) in registers, so every
//     VC's head flags, `empty_o`, `full_o` and `count_o` are exact every cycle;
//   - per VC two data registers, F (the entry at position 0, the head) and S (position 1), each
//     with a loaded bit. A push that lands at position 0 or 1 is written into F or S as well as
//     into the RAM (bypass: no read for it). A pop moves S into F. The RAM is read only for an
//     entry that reaches position 0 or 1 without being loaded: it arrived behind two others.
//
// The read: its address comes from the next state (after this edge's pushes and pops) and is
// clocked at this edge; the data comes out of the RAM in the next cycle, tagged {vc, slot}
// (`r_*_q`), and goes into F or S of the position its slot has after that cycle's edge. A read for
// a VC's head is also the head's data in the cycle it lands (one mux), so a head refilled after
// a pop is usable in the next cycle, as a FIFO's. Of the VCs whose F would be unloaded after this
// edge ("urgent") the lowest gets the read; when none is urgent, the lowest whose S would be.
// A slot is read only while its entry is stored and never in the edge that writes it (asserted),
// so no read-during-write of one address occurs (the RAM is marked `no_rw_check`).
//
// The read budget: with at most one pop per cycle (over all VCs) no head is ever unloaded: a pop
// needs one read (the entry moving to position 1) and arrivals at positions 0 and 1 are bypassed
// (OnePopKeepsFrontsLoaded_A). A second pop in the same cycle (in the router: a drained or dropped
// flit beside a flit through the switch) leaves one VC's S unloaded until a cycle with a free
// read; if that VC pops again first, its next head comes from an urgent read one cycle later.
// The input unit asserts that it never uses an unloaded head (FrontLoadedWhenUsed_A).
`include "noc_assert.svh"
`include "noc_registers.svh"

module noc_ebr_buffer #(
  /// Virtual channels (>= 1): independent FIFOs sharing the RAM.
  parameter int unsigned NumVcs = 2,
  /// Entries per VC (>= 1; need not be a power of two).
  parameter int unsigned Depth = 4,
  /// Width of one entry in bits (> FlagW).
  parameter int unsigned Width = 34,
  /// Top bits of an entry kept in registers (a flit's head and tail flags), exact every cycle.
  parameter int unsigned FlagW = 2,
  /// Width of a VC id. Derived, do not override.
  localparam int unsigned VcIdW = (NumVcs > 1) ? $clog2(NumVcs) : 1,
  /// Width of one VC's count (0..Depth). Derived, do not override.
  localparam int unsigned CountW = $clog2(Depth + 1)
) (
  /// Clock; all state changes on its rising edge.
  input  logic                     clk_i,
  /// Asynchronous active-low reset: every VC empty, no data loaded (the RAM keeps its contents).
  input  logic                     rst_ni,
  /// Write `data_i` at the tail of VC `push_vc_i` this cycle. Must be low while that VC is full.
  input  logic                     push_i,
  /// VC of the push (< NumVcs).
  input  logic [VcIdW-1:0]         push_vc_i,
  /// Entry to write when `push_i` is high.
  input  logic [Width-1:0]         data_i,
  /// Bit v: remove VC v's head entry this cycle. Must be low while VC v is empty. Any number of VCs
  /// may pop in one cycle (the read budget above says what that costs).
  input  logic [NumVcs-1:0]        pop_i,
  /// VC v's head entry in bits [v*Width +: Width]; its flag bits are valid while VC v is not empty,
  /// its data bits while `loaded_o[v]` is also high (stale otherwise: not gated, to save a LUT
  /// per bit).
  output logic [NumVcs*Width-1:0]  data_o,
  /// Bit v: VC v's head data is present (in F or in this cycle's RAM output).
  output logic [NumVcs-1:0]        loaded_o,
  /// Bit v: VC v stores no entries.
  output logic [NumVcs-1:0]        empty_o,
  /// Bit v: VC v stores Depth entries.
  output logic [NumVcs-1:0]        full_o,
  /// VC v's entry count, 0..Depth, in bits [v*CountW +: CountW].
  output logic [NumVcs*CountW-1:0] count_o,
  /// Bit v: a push into VC v while it is full this cycle: `data_i` is dropped (combinational).
  output logic [NumVcs-1:0]        overflow_o
);

  /// Bits of an entry kept in the RAM.
  localparam int unsigned DataW = Width - FlagW;
  /// Width of a slot index within one VC (at least one bit, also for Depth = 1).
  localparam int unsigned PtrW = (Depth > 1) ? $clog2(Depth) : 1;
  /// RAM address {vc, slot}, and its words: 2^VcIdW regions of 2^PtrW slots.
  localparam int unsigned AddrW = VcIdW + PtrW;
  localparam int unsigned RamDepth = 1 << AddrW;

  // The RAM: written at one edge, read at one edge, no reset (yosys maps it to SB_RAM40_4K).
  (* ram_style = "block", no_rw_check *) logic [DataW-1:0] mem [RamDepth];
  logic             we, re;
  logic [AddrW-1:0] waddr, raddr;
  logic [DataW-1:0] rdata_q;

  always_ff @(posedge clk_i) begin
    if (we) begin
      mem[waddr] <= data_i[DataW-1:0];
    end
  end
  always_ff @(posedge clk_i) begin
    if (re) begin
      rdata_q <= mem[raddr];
    end
  end

  // The read in flight: valid, and the {vc, slot} whose data is on `rdata_q` this cycle.
  logic             r_valid_d, r_valid_q;
  logic [VcIdW-1:0] r_vc_d, r_vc_q;
  logic [PtrW-1:0]  r_slot_d, r_slot_q;

  logic [NumVcs-1:0]      push, push_en, pop_en, urgent, refill;
  logic [NumVcs*PtrW-1:0] wr_slot, urgent_slot, refill_slot;


  for (genvar v = 0; v < NumVcs; v++) begin : gen_vc
    logic [PtrW-1:0]        rd_d, rd_q, wr_d, wr_q, rd_1, rd_n, rd_n1;
    logic [CountW-1:0]      count_d, count_q;
    logic [Depth*FlagW-1:0] flags_d, flags_q;
    logic [DataW-1:0]       f_d, f_q, s_d, s_q;
    logic                   f_ok_d, f_ok_q, s_ok_d, s_ok_q;
    logic [FlagW-1:0]       front_flags;

    assign push[v]    = push_i && (push_vc_i == VcIdW'(v));
    assign empty_o[v] = (count_q == '0);
    assign full_o[v]  = (count_q == CountW'(Depth));
    assign count_o[v*CountW +: CountW] = count_q;
    assign overflow_o[v] = push[v] && full_o[v];
    // Illegal requests are dropped so the state stays consistent with assertions compiled out.
    assign push_en[v] = push[v] && !full_o[v];
    assign pop_en[v]  = pop_i[v] && !empty_o[v];

    // Slot of position 1 now, and of positions 0 and 1 after this edge.
    assign rd_1  = (Depth == 1 || rd_q == PtrW'(Depth - 1)) ? '0 : rd_q + PtrW'(1);
    assign rd_n  = pop_en[v] ? rd_1 : rd_q;
    assign rd_n1 = (Depth == 1 || rd_n == PtrW'(Depth - 1)) ? '0 : rd_n + PtrW'(1);

    // The RAM output of this cycle is VC v's, for the slot at position 0 or 1 after this edge
    // (checked against the entries that stay: a slot popped meanwhile is not captured).
    logic land0, land1, byp0, byp1;
    // A read for this VC's front lands this cycle: its data is the front's now (through one mux,
    // so a front refilled urgently is usable one cycle after the pop that needed it) and goes into
    // F at this edge.
    logic r_hit0;
    assign r_hit0 = r_valid_q && (r_vc_q == VcIdW'(v)) && (r_slot_q == rd_q) && !empty_o[v];
    assign loaded_o[v] = !empty_o[v] && (f_ok_q || r_hit0);

    always_comb begin
      front_flags = '0;
      for (int i = 0; i < Depth; i++) begin
        if (rd_q == PtrW'(i)) begin
          front_flags = flags_q[i*FlagW +: FlagW];
        end
      end
    end
    assign data_o[v*Width +: Width] = {front_flags, r_hit0 ? rdata_q : f_q};

    always_comb begin
      logic [CountW-1:0] kept;  // entries left after this edge's pop, before its push
      rd_d    = rd_n;
      wr_d    = wr_q;
      flags_d = flags_q;
      kept    = count_q - CountW'(pop_en[v]);
      count_d = kept + CountW'(push_en[v]);
      land0   = r_valid_q && (r_vc_q == VcIdW'(v)) && (kept != '0) && (r_slot_q == rd_n);
      land1   = r_valid_q && (r_vc_q == VcIdW'(v)) && (32'(kept) >= 2) && (r_slot_q == rd_n1);
      byp0    = push_en[v] && (kept == '0);
      byp1    = push_en[v] && (kept == CountW'(1));
      // Loaded bits: a pop moves S's into F's; a landing or a bypass loads its position.
      if (pop_en[v]) begin
        f_ok_d = s_ok_q && (32'(count_q) >= 2);
        s_ok_d = 1'b0;
      end else begin
        f_ok_d = f_ok_q && !empty_o[v];
        s_ok_d = s_ok_q && (32'(count_q) >= 2);
      end
      f_ok_d = f_ok_d || land0 || byp0;
      s_ok_d = s_ok_d || land1 || byp1;
      // Data, written as a clock enable and a mux over the sources (a register holds otherwise):
      // F takes the pushed entry (an empty VC), the RAM output, or S after a pop; S takes the
      // pushed entry or the RAM output. (One bus shared by the Fs would save a LUT per bit but
      // block a streaming VC's landing whenever a head arrives into an empty VC.)
      f_d = byp0 ? data_i[DataW-1:0] : (land0 ? rdata_q : (pop_en[v] ? s_q : f_q));
      s_d = byp1 ? data_i[DataW-1:0] : (land1 ? rdata_q : s_q);
      if (push_en[v]) begin
        for (int i = 0; i < Depth; i++) begin
          if (wr_q == PtrW'(i)) begin
            flags_d[i*FlagW +: FlagW] = data_i[Width-1 -: FlagW];
          end
        end
        wr_d = (Depth == 1 || wr_q == PtrW'(Depth - 1)) ? '0 : wr_q + PtrW'(1);
      end
    end

    // After this edge: position 0 unloaded (urgent) or position 1 unloaded (refill).
    assign urgent[v] = (count_d != '0) && !f_ok_d;
    assign refill[v] = (32'(count_d) >= 2) && !s_ok_d;
    assign urgent_slot[v*PtrW +: PtrW] = rd_n;
    assign refill_slot[v*PtrW +: PtrW] = rd_n1;
    assign wr_slot[v*PtrW +: PtrW]     = wr_q;

    `NOC_FF(rd_q, rd_d, '0)
    `NOC_FF(wr_q, wr_d, '0)
    `NOC_FF(count_q, count_d, '0)
    `NOC_FF(flags_q, flags_d, '0)
    `NOC_FF(f_q, f_d, '0)
    `NOC_FF(s_q, s_d, '0)
    `NOC_FF(f_ok_q, f_ok_d, 1'b0)
    `NOC_FF(s_ok_q, s_ok_d, 1'b0)

    `NOC_ASSERT(PushNotFull_A, push[v] |-> !full_o[v])
    `NOC_ASSERT(PopNotEmpty_A, pop_i[v] |-> !empty_o[v])
    `NOC_ASSERT(CountInRange_A, count_q <= CountW'(Depth))
    `NOC_ASSERT(PointersAgreeWithCount_A,
                (count_q == '0 || count_q == CountW'(Depth)) == (wr_q == rd_q))
    // Loaded bits only for stored entries; the RAM output only for a stored position 0 or 1.
    `NOC_ASSERT(LoadedOnlyStored_A, (!f_ok_q || count_q >= CountW'(1)) && (!s_ok_q || 32'(count_q) >= 2))
    // A read lands on an entry still stored, unless a pop took it unloaded (a dropped flit).
    `NOC_ASSERT(ReadLands_A, (r_valid_q && r_vc_q == VcIdW'(v)) |-> (land0 || land1 || (pop_en[v] && r_slot_q == rd_q)))
  end

  // The write: the pushing VC's tail slot (a mux over constant slices).
  always_comb begin
    we    = push_en != '0;
    waddr = '0;
    for (int v = 0; v < NumVcs; v++) begin
      if (push[v]) begin
        waddr = {VcIdW'(v), wr_slot[v*PtrW +: PtrW]};
      end
    end
  end

  // The read: the lowest urgent VC, else the lowest VC to refill.
  always_comb begin
    logic found;
    found     = 1'b0;
    r_vc_d    = '0;
    r_slot_d  = '0;
    for (int v = 0; v < NumVcs; v++) begin
      if (!found && urgent[v]) begin
        found    = 1'b1;
        r_vc_d   = VcIdW'(v);
        r_slot_d = urgent_slot[v*PtrW +: PtrW];
      end
    end
    for (int v = 0; v < NumVcs; v++) begin
      if (!found && refill[v]) begin
        found    = 1'b1;
        r_vc_d   = VcIdW'(v);
        r_slot_d = refill_slot[v*PtrW +: PtrW];
      end
    end
    r_valid_d = found;
    re        = found;
    raddr     = {r_vc_d, r_slot_d};
  end

  `NOC_FF(r_valid_q, r_valid_d, 1'b0)
  `NOC_FF(r_vc_q, r_vc_d, '0)
  `NOC_FF(r_slot_q, r_slot_d, '0)

  `NOC_ASSERT(PushVcInRange_A, push_i |-> (32'(push_vc_i) < NumVcs))
  // The read never names the slot this edge writes (no read-during-write of one address).
  `NOC_ASSERT(NoReadOfWrittenSlot_A, !(we && re && raddr == waddr))
  // The read budget: when no front was left unloaded and at most one position 1 was being read,
  // one pop leaves at most one position 1 to read (the entry moving up) and no front unloaded; so
  // with at most one pop per cycle every front stays loaded.
  `NOC_ASSERT(OnePopKeepsFrontsLoaded_A, ($past(urgent == '0 && $onehot0(refill)) && $onehot0(pop_en))
                                         |-> (urgent == '0 && $onehot0(refill)))

endmodule
