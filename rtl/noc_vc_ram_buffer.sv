// SPDX-License-Identifier: SHL-0.51
// noc_vc_ram_buffer: one input port's virtual-channel buffers with the flits' data in one RAM that
// is read only by the switch grant, and each flit's side word (the input unit's decision) in a
// second RAM read only when a pop makes a waiting flit the front.
//
// The data of every VC lives in one simple dual-port RAM addressed {VC, slot}: one write per cycle
// (the link delivers one flit per cycle to one VC) and one registered read per cycle (the switch
// grants one VC of a port per cycle). The read is started by the grant (`read_i`, one-hot over the
// VCs): the VC's front is popped at that edge and its data appears on `rdata_o` in the next cycle,
// from the RAM's own output register. So the RAM output is the switch-traversal register and no
// flit is ever read combinationally out of the buffer. Drains and regroup drops pop a front
// without reading it (`drop_i`), so several VCs may pop in one cycle and the RAM still reads at
// most once.
//
// The side word (`SideW` bits) is written with the flit, at the same address of a second RAM, and
// is shown at the flit's VC's front in the first cycle the flit is the front (`front_side_o`,
// `front_side_valid_o`), and only then: that is when the input unit loads a decision. It comes
// from one of two registers, so no VC ever holds a word per slot in logic:
//   - a flit pushed into a VC where it is the front after the edge (the VC was empty, or held one
//     flit that popped in the same edge): the pushed word, registered;
//   - a flit that becomes the front because the flit ahead of it pops, when the pop asks for it
//     (`side_read_i`): the side RAM is read at the popping VC's next slot in that edge, and its
//     output register holds the word. One read per cycle: at most one VC per cycle may ask while a
//     flit waits behind its front (the input unit's rule, docs/rtl.md "The decision store").
// Every other new front shows no side word (`front_side_valid_o` low).
//
// Everything the VC state machines look at every cycle is in registers: each VC's count, empty
// and full, and its front flit's flags (`FlagW` bits stored beside each slot, e.g. head and tail).
// Flag and data storage are not reset (never read before written: a front exists only after its
// push); pointers and counts are.
//
// The RAMs are written as arrays with a synchronous read (`(* no_rw_check *)`: a read never
// addresses the slot written in the same edge: a grant read needs a stored front and a push a free
// slot; a side read needs a second stored flit, which the push cannot be writing), so yosys maps
// them to block RAM (iCE40 SB_RAM40_4K, ECP5 DP16KD, Xilinx RAMB18) or distributed RAM by size.
// `Depth` need not be a power of two: a VC's slots are 0..Depth-1 of its 2^PtrW-entry region.
`include "noc_assert.svh"
`include "noc_registers.svh"

module noc_vc_ram_buffer #(
  /// Virtual channels sharing the RAM (>= 1).
  parameter int unsigned NumVcs = 2,
  /// Flits per VC (>= 1): the credits the upstream router starts with.
  parameter int unsigned Depth = 16,
  /// Bits of a flit kept in the RAM.
  parameter int unsigned DataW = 32,
  /// Bits of a flit kept in registers beside each slot (the flags the VC logic reads at the front).
  parameter int unsigned FlagW = 2,
  /// Bits of a flit's side word, kept in the second RAM (the input unit's decision; >= 1).
  parameter int unsigned SideW = 1,
  /// Width of a VC id. Derived, do not override.
  localparam int unsigned VcIdW = (NumVcs > 1) ? $clog2(NumVcs) : 1,
  /// Width of a VC's count, 0..Depth. Derived, do not override.
  localparam int unsigned CountW = $clog2(Depth + 1)
) (
  /// Clock; all state changes on its rising edge.
  input  logic                     clk_i,
  /// Asynchronous active-low reset: every VC empty (the storage keeps its contents).
  input  logic                     rst_ni,
  /// Store a flit at the tail of VC `push_vc_i` this cycle. Must be low while that VC is full.
  input  logic                     push_i,
  /// The VC `push_i` stores into (< NumVcs).
  input  logic [VcIdW-1:0]         push_vc_i,
  /// The flit's RAM bits.
  input  logic [DataW-1:0]         push_data_i,
  /// The flit's register bits.
  input  logic [FlagW-1:0]         push_flags_i,
  /// The flit's side word.
  input  logic [SideW-1:0]         push_side_i,
  /// Per VC, at most one bit set: pop that VC's front and read its data onto `rdata_o` in the next
  /// cycle (the switch grant). Must be low for an empty VC.
  input  logic [NumVcs-1:0]        read_i,
  /// Per VC: pop the front without reading it (a drain or a dropped flit). Must be low for an
  /// empty VC; with `read_i` of the same VC the front pops once.
  input  logic [NumVcs-1:0]        drop_i,
  /// Per VC: if that VC pops in this edge (read or drop) with a flit waiting behind its front, read
  /// that flit's side word for `front_side_o` in the next cycle. At most one such VC per cycle.
  input  logic [NumVcs-1:0]        side_read_i,
  /// The data of the front `read_i` popped at the last edge; held while no read.
  output logic [DataW-1:0]         rdata_o,
  /// Per VC, the front flit's register bits (meaningful while that VC is not empty).
  output logic [NumVcs*FlagW-1:0]  front_flags_o,
  /// Per VC, the front flit's side word, in the first cycle the flit is the front when it was
  /// pushed there or a `side_read_i` pop brought it there (`front_side_valid_o`).
  output logic [NumVcs*SideW-1:0]  front_side_o,
  /// Per VC: `front_side_o` is the front flit's side word this cycle.
  output logic [NumVcs-1:0]        front_side_valid_o,
  /// Per VC: no flit stored.
  output logic [NumVcs-1:0]        empty_o,
  /// Per VC: `Depth` flits stored.
  output logic [NumVcs-1:0]        full_o,
  /// Per VC, flits stored, 0..Depth.
  output logic [NumVcs*CountW-1:0] count_o,
  /// Per VC, a push while full this cycle: the flit is dropped (combinational; the router keeps
  /// it sticky).
  output logic [NumVcs-1:0]        overflow_o
);

  /// Width of a slot index within a VC's region (at least one bit, also for Depth = 1).
  localparam int unsigned PtrW = (Depth > 1) ? $clog2(Depth) : 1;
  localparam int unsigned AddrW = VcIdW + PtrW;
  localparam int unsigned Entries = 1 << AddrW;
  /// With one slot per VC the pointers stay 0 (tied off, so synthesis drops their registers).
  localparam bit SingleSlot = (Depth == 1);

  logic [NumVcs*PtrW-1:0] wr_ptr_q, rd_ptr_q;
  logic [NumVcs*Depth*FlagW-1:0] flags_q;  // VC v's slot s at (v*Depth + s)*FlagW
  logic [NumVcs-1:0]      push_en, pop_en, read_en;
  logic [AddrW-1:0]       waddr, raddr;

  // ---------------------------------------------------------------------------------------------
  // Per VC: pointers, count and the flags of every slot.

  for (genvar v = 0; v < NumVcs; v++) begin : gen_vc
    logic [PtrW-1:0]        wr_ptr_d, rd_ptr_d;
    logic [CountW-1:0]      count_d, count_q;
    logic                   pushed_here;

    assign pushed_here   = push_i && (push_vc_i == VcIdW'(v));
    assign empty_o[v]    = (count_q == '0);
    assign full_o[v]     = (count_q == CountW'(Depth));
    assign count_o[v*CountW +: CountW] = count_q;
    // Illegal requests are dropped so the state stays consistent with assertions compiled out.
    assign push_en[v]    = pushed_here && !full_o[v];
    assign overflow_o[v] = pushed_here && full_o[v];
    assign pop_en[v]     = (read_i[v] || drop_i[v]) && !empty_o[v];
    assign read_en[v]    = read_i[v] && !empty_o[v];

    always_comb begin
      wr_ptr_d = wr_ptr_q[v*PtrW +: PtrW];
      rd_ptr_d = rd_ptr_q[v*PtrW +: PtrW];
      count_d  = count_q;
      if (push_en[v]) begin
        wr_ptr_d = (SingleSlot || wr_ptr_d == PtrW'(Depth - 1)) ? '0 : wr_ptr_d + PtrW'(1);
      end
      if (pop_en[v]) begin
        rd_ptr_d = (SingleSlot || rd_ptr_d == PtrW'(Depth - 1)) ? '0 : rd_ptr_d + PtrW'(1);
      end
      if (push_en[v] && !pop_en[v]) begin
        count_d = count_q + CountW'(1);
      end else if (pop_en[v] && !push_en[v]) begin
        count_d = count_q - CountW'(1);
      end
    end
    `NOC_FF(wr_ptr_q[v*PtrW +: PtrW], wr_ptr_d, '0)
    `NOC_FF(rd_ptr_q[v*PtrW +: PtrW], rd_ptr_d, '0)
    `NOC_FF(count_q, count_d, '0)

    // The flags beside each slot: written with the RAM, read at the front (a mux over constant
    // slices). Not reset: a slot is read only after its push.
    always_ff @(posedge clk_i) begin
      for (int s = 0; s < Depth; s++) begin
        if (push_en[v] && wr_ptr_q[v*PtrW +: PtrW] == PtrW'(s)) begin
          flags_q[(v*Depth + s)*FlagW +: FlagW] <= push_flags_i;
        end
      end
    end
    always_comb begin
      front_flags_o[v*FlagW +: FlagW] = '0;
      for (int s = 0; s < Depth; s++) begin
        if (rd_ptr_q[v*PtrW +: PtrW] == PtrW'(s)) begin
          front_flags_o[v*FlagW +: FlagW] = flags_q[(v*Depth + s)*FlagW +: FlagW];
        end
      end
    end
  end

  // ---------------------------------------------------------------------------------------------
  // The RAM: the write at the pushed VC's tail, the read at the granted VC's front. The read
  // address is an AND-OR over the one-hot grant (the grant comes late in the cycle).

  always_comb begin
    waddr = '0;
    for (int v = 0; v < NumVcs; v++) begin
      if (push_vc_i == VcIdW'(v)) begin
        waddr = {VcIdW'(v), wr_ptr_q[v*PtrW +: PtrW]};
      end
    end
  end
  always_comb begin
    raddr = '0;
    for (int v = 0; v < NumVcs; v++) begin
      if (read_i[v]) begin
        raddr = raddr | {VcIdW'(v), rd_ptr_q[v*PtrW +: PtrW]};
      end
    end
  end

  (* no_rw_check *) logic [DataW-1:0] mem [Entries];
  logic [DataW-1:0] rdata_q;
  always_ff @(posedge clk_i) begin
    if (push_en != '0) begin
      mem[waddr] <= push_data_i;
    end
  end
  always_ff @(posedge clk_i) begin
    if (read_en != '0) begin
      rdata_q <= mem[raddr];
    end
  end
  assign rdata_o = rdata_q;

  // ---------------------------------------------------------------------------------------------
  // The side words: the RAM written beside the data RAM, read at a popping VC's next slot; the
  // pushed word registered for a flit that lands at its VC's front.

  logic [NumVcs-1:0] side_read_en;     // the pops whose next flit's word is read this edge
  logic [NumVcs-1:0] pushed_to_front;  // the push lands at the front of its VC
  logic [NumVcs-1:0] side_from_ram_q, side_from_push_q;
  logic [SideW-1:0]  side_ram_q, side_push_q;
  logic [AddrW-1:0]  side_raddr;
  logic [NumVcs*PtrW-1:0] rd_next;  // per VC, the slot after the front

  for (genvar v = 0; v < NumVcs; v++) begin : gen_side
    logic [CountW-1:0] count;
    assign count = count_o[v*CountW +: CountW];
    assign rd_next[v*PtrW +: PtrW] = (SingleSlot || rd_ptr_q[v*PtrW +: PtrW] == PtrW'(Depth - 1)) ?
                                     '0 : rd_ptr_q[v*PtrW +: PtrW] + PtrW'(1);
    if (SingleSlot) begin : gen_never_behind
      // One slot: no flit ever waits behind a front, so the side RAM is never read.
      logic unused_side_read;
      assign unused_side_read = side_read_i[v];
      assign side_read_en[v] = 1'b0;
    end else begin : gen_read_behind
      assign side_read_en[v] = side_read_i[v] && pop_en[v] && (count >= CountW'(2));
    end
    assign pushed_to_front[v] = push_en[v] && (empty_o[v] || (count == CountW'(1) && pop_en[v]));
  end
  always_comb begin
    side_raddr = '0;
    for (int v = 0; v < NumVcs; v++) begin
      if (side_read_en[v]) begin
        side_raddr = side_raddr | {VcIdW'(v), rd_next[v*PtrW +: PtrW]};
      end
    end
  end

  (* no_rw_check *) logic [SideW-1:0] side_mem [Entries];
  always_ff @(posedge clk_i) begin
    if (push_en != '0) begin
      side_mem[waddr] <= push_side_i;
    end
  end
  always_ff @(posedge clk_i) begin
    if (side_read_en != '0) begin
      side_ram_q <= side_mem[side_raddr];
    end
  end
  always_ff @(posedge clk_i) begin
    if (pushed_to_front != '0) begin
      side_push_q <= push_side_i;
    end
  end
  `NOC_FF(side_from_ram_q, side_read_en, '0)
  `NOC_FF(side_from_push_q, pushed_to_front, '0)
  for (genvar v = 0; v < NumVcs; v++) begin : gen_front_side
    assign front_side_o[v*SideW +: SideW] = side_from_ram_q[v] ? side_ram_q : side_push_q;
  end
  assign front_side_valid_o = side_from_ram_q | side_from_push_q;

`ifndef SYNTHESIS
  // The read path checked in simulation, in the router too (the formal proof below covers this
  // module alone): a copy of every slot's data in registers, written at each VC's own write
  // pointer and read at each VC's own front, so without the RAM's {VC, slot} addresses; the front
  // of the VC a read takes is registered beside the RAM's output, which must then equal it.
  logic [NumVcs*Depth*DataW-1:0] shadow_q;
  logic [DataW-1:0]              shadow_read_d, shadow_read_q;
  logic                          shadow_valid_q;
  for (genvar v = 0; v < NumVcs; v++) begin : gen_shadow
    always_ff @(posedge clk_i) begin
      for (int s = 0; s < Depth; s++) begin
        if (push_en[v] && wr_ptr_q[v*PtrW +: PtrW] == PtrW'(s)) begin
          shadow_q[(v*Depth + s)*DataW +: DataW] <= push_data_i;
        end
      end
    end
  end
  always_comb begin
    shadow_read_d = shadow_read_q;
    for (int v = 0; v < NumVcs; v++) begin
      for (int s = 0; s < Depth; s++) begin
        if (read_en[v] && rd_ptr_q[v*PtrW +: PtrW] == PtrW'(s)) begin
          shadow_read_d = shadow_q[(v*Depth + s)*DataW +: DataW];
        end
      end
    end
  end
  always_ff @(posedge clk_i) shadow_read_q <= shadow_read_d;
  `NOC_FF(shadow_valid_q, read_en != '0, 1'b0)
  // A read's data is the flit that was at the granted VC's front.
  `NOC_ASSERT(ReadIsGrantedFront_A, shadow_valid_q |-> (rdata_o == shadow_read_q))

  // The side words likewise: a register copy per slot, read at each VC's own front.
  logic [NumVcs*Depth*SideW-1:0] shadow_side_q;
  for (genvar v = 0; v < NumVcs; v++) begin : gen_shadow_side
    logic [SideW-1:0] front_copy;
    always_ff @(posedge clk_i) begin
      for (int s = 0; s < Depth; s++) begin
        if (push_en[v] && wr_ptr_q[v*PtrW +: PtrW] == PtrW'(s)) begin
          shadow_side_q[(v*Depth + s)*SideW +: SideW] <= push_side_i;
        end
      end
    end
    always_comb begin
      front_copy = '0;
      for (int s = 0; s < Depth; s++) begin
        if (rd_ptr_q[v*PtrW +: PtrW] == PtrW'(s)) front_copy = shadow_side_q[(v*Depth + s)*SideW +: SideW];
      end
    end
    // A side word shown at a front is the front flit's own.
    `NOC_ASSERT(FrontSideIsFrontsOwn_A, front_side_valid_o[v] |-> (front_side_o[v*SideW +: SideW] == front_copy))
  end
`endif

  `NOC_ASSERT(PushNotFull_A, push_i |-> !overflow_o[push_vc_i])
  `NOC_ASSERT(PushVcInRange_A, push_i |-> (32'(push_vc_i) < NumVcs))
  `NOC_ASSERT(ReadOneVc_A, $onehot0(read_i))
  `NOC_ASSERT(PopNotEmpty_A, ((read_i | drop_i) & empty_o) == '0)
  // One side read per cycle (the RAM has one read port).
  `NOC_ASSERT(SideReadOneVc_A, $onehot0(side_read_en))

`ifdef FORMAL
  // Formal properties (verif/formal/run.sh; docs/verification.md). The environment may push, read,
  // drop and reset at will, legal or not, except that it reads at most one VC per cycle (the switch
  // allocator's proof gives that), asks at most one side read per cycle where a flit waits behind
  // the popped front (the input unit's rule) and pushes only into VCs that exist. A shadow count
  // per VC follows the contract (an illegal push or pop is ignored), and one flit pushed at an
  // arbitrary cycle into any VC is tracked to its VC's front: its flags are the front's flags
  // there, its side word is shown there in its first cycle when it was pushed there or a side read
  // brought it (and is its own whenever shown), and if the grant reads it, `rdata_o` carries its
  // data in the next cycle. The flit being arbitrary, no flit is created, lost, reordered between
  // VCs' fronts, duplicated or corrupted. The storage starts with arbitrary contents.
  logic f_first = 1'b1;  // the first cycle: reset is asserted
  always_ff @(posedge clk_i) f_first <= 1'b0;
  always_comb if (f_first) assume (!rst_ni);
  always_comb assume ($onehot0(read_i));
  always_comb if (push_i) assume (32'(push_vc_i) < NumVcs);

  (* anyseq *) logic f_pick;  // track the flit pushed in this cycle
  logic [NumVcs*CountW-1:0] f_count_d, f_count_q;  // per VC, flits stored by the contract
  logic              f_track_d, f_track_q;  // a flit is tracked
  logic [VcIdW-1:0]  f_vc_d, f_vc_q;        // its VC
  logic [DataW-1:0]  f_data_d, f_data_q;    // its data
  logic [FlagW-1:0]  f_flags_d, f_flags_q;  // its flags
  logic [SideW-1:0]  f_side_d, f_side_q;    // its side word
  logic              f_due_d, f_due_q;      // it became its VC's front at the last edge, pushed
                                            // there or brought by a side-read pop
  logic [CountW-1:0] f_ahead_d, f_ahead_q;  // flits ahead of it in its VC
  logic              f_read_d, f_read_q;    // it was read at the last edge
  logic [CountW-1:0] f_vc_count;            // its VC's count by the contract
  logic              f_vc_pops;             // its VC pops this cycle, by the contract
  logic [PtrW:0]     f_slot;                // its slot: the VC's rd_ptr + ahead, wrapped
  logic [NumVcs*(PtrW+1)-1:0] f_wr_slot;     // per VC, the tail slot: rd_ptr + count, wrapped

  always_comb begin
    for (int v = 0; v < NumVcs; v++) begin
      f_count_d[v*CountW +: CountW] = f_count_q[v*CountW +: CountW];
      if (push_i && push_vc_i == VcIdW'(v) && f_count_q[v*CountW +: CountW] != CountW'(Depth)) begin
        f_count_d[v*CountW +: CountW] = f_count_d[v*CountW +: CountW] + CountW'(1);
      end
      if ((read_i[v] || drop_i[v]) && f_count_q[v*CountW +: CountW] != '0) begin
        f_count_d[v*CountW +: CountW] = f_count_d[v*CountW +: CountW] - CountW'(1);
      end
    end
    f_vc_count = f_count_q[f_vc_q*CountW +: CountW];
    f_vc_pops  = (read_i[f_vc_q] || drop_i[f_vc_q]) && f_vc_count != '0;
    f_track_d = f_track_q;
    f_vc_d    = f_vc_q;
    f_data_d  = f_data_q;
    f_flags_d = f_flags_q;
    f_side_d  = f_side_q;
    f_ahead_d = f_ahead_q;
    f_read_d  = 1'b0;
    f_due_d   = 1'b0;
    if (f_track_q && f_vc_pops) begin
      if (f_ahead_q == '0) begin
        f_track_d = 1'b0;
        f_read_d  = read_i[f_vc_q];
      end else begin
        f_ahead_d = f_ahead_q - CountW'(1);
        f_due_d   = (f_ahead_q == CountW'(1)) && side_read_i[f_vc_q];
      end
    end
    if (!f_track_q && f_pick && push_i &&
        f_count_q[push_vc_i*CountW +: CountW] != CountW'(Depth)) begin
      f_track_d = 1'b1;
      f_vc_d    = push_vc_i;
      f_data_d  = push_data_i;
      f_flags_d = push_flags_i;
      f_side_d  = push_side_i;
      f_ahead_d = f_count_q[push_vc_i*CountW +: CountW] -
                  CountW'((read_i[push_vc_i] || drop_i[push_vc_i]) &&
                          f_count_q[push_vc_i*CountW +: CountW] != '0);
      f_due_d   = (f_ahead_d == '0);
    end
    f_slot = (PtrW+1)'(rd_ptr_q[f_vc_q*PtrW +: PtrW]) + (PtrW+1)'(f_ahead_q);
    if (f_slot >= (PtrW+1)'(Depth)) f_slot = f_slot - (PtrW+1)'(Depth);
    for (int v = 0; v < NumVcs; v++) begin
      f_wr_slot[v*(PtrW+1) +: PtrW+1] = (PtrW+1)'(rd_ptr_q[v*PtrW +: PtrW]) +
                                        (PtrW+1)'(f_count_q[v*CountW +: CountW]);
      if (f_wr_slot[v*(PtrW+1) +: PtrW+1] >= (PtrW+1)'(Depth)) begin
        f_wr_slot[v*(PtrW+1) +: PtrW+1] = f_wr_slot[v*(PtrW+1) +: PtrW+1] - (PtrW+1)'(Depth);
      end
    end
  end
  `NOC_FF(f_count_q, f_count_d, '0)
  `NOC_FF(f_track_q, f_track_d, 1'b0)
  `NOC_FF(f_vc_q, f_vc_d, '0)
  `NOC_FF(f_data_q, f_data_d, '0)
  `NOC_FF(f_flags_q, f_flags_d, '0)
  `NOC_FF(f_side_q, f_side_d, '0)
  `NOC_FF(f_due_q, f_due_d, 1'b0)
  // At most one VC per cycle pops with a side read while a flit waits behind its front.
  logic [NumVcs-1:0] f_side_reads;
  for (genvar v = 0; v < NumVcs; v++) begin : gen_f_side_reads
    assign f_side_reads[v] = side_read_i[v] && (read_i[v] || drop_i[v]) &&
                             f_count_q[v*CountW +: CountW] > CountW'(1);
  end
  always_comb assume ($onehot0(f_side_reads));
  `NOC_FF(f_ahead_q, f_ahead_d, '0)
  `NOC_FF(f_read_q, f_read_d, 1'b0)

  always_comb begin
    if (rst_ni) begin
      // Ports against the contract.
      assert (count_o == f_count_q);
      for (int v = 0; v < NumVcs; v++) begin
        assert (empty_o[v] == (f_count_q[v*CountW +: CountW] == '0));
        assert (full_o[v] == (f_count_q[v*CountW +: CountW] == CountW'(Depth)));
        assert (overflow_o[v] == (push_i && push_vc_i == VcIdW'(v) &&
                                  f_count_q[v*CountW +: CountW] == CountW'(Depth)));
        // The guard: a pop of an empty VC moves nothing.
        if (empty_o[v]) assert (!pop_en[v]);
      end
      // The tracked flit: at its VC's front its flags are the front's; read, its data is the RAM
      // output one cycle later.
      if (f_track_q) assert (f_ahead_q < f_vc_count);
      if (f_track_q && f_ahead_q == '0) assert (front_flags_o[f_vc_q*FlagW +: FlagW] == f_flags_q);
      if (f_read_q) assert (rdata_o == f_data_q);
      // Its side word: shown at the front in the first cycle there when it was pushed there or a
      // side-read pop brought it; whenever shown at its front, its own.
      if (f_track_q && f_due_q) assert (f_ahead_q == '0 && front_side_valid_o[f_vc_q]);
      if (f_track_q && f_ahead_q == '0 && front_side_valid_o[f_vc_q]) begin
        assert (front_side_o[f_vc_q*SideW +: SideW] == f_side_q);
      end
      // Internal invariants (they make the proof inductive).
      for (int v = 0; v < NumVcs; v++) begin
        assert ((PtrW+1)'(wr_ptr_q[v*PtrW +: PtrW]) == f_wr_slot[v*(PtrW+1) +: PtrW+1]);
        assert (32'(rd_ptr_q[v*PtrW +: PtrW]) < Depth);
        assert (f_count_q[v*CountW +: CountW] <= CountW'(Depth));
      end
      if (f_track_q) begin
        assert (32'(f_vc_q) < NumVcs);
        assert (mem[{f_vc_q, f_slot[PtrW-1:0]}] == f_data_q);
        assert (flags_q[(32'(f_vc_q)*Depth + 32'(f_slot))*FlagW +: FlagW] == f_flags_q);
        assert (side_mem[{f_vc_q, f_slot[PtrW-1:0]}] == f_side_q);
      end
    end
  end
  always_comb begin
    if (rst_ni) begin
      cover (f_read_q && f_vc_q == VcIdW'(NumVcs - 1) && drop_i != '0);
    end
  end
`endif

endmodule
