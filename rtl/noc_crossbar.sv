// SPDX-License-Identifier: SHL-0.51
// noc_crossbar: the router's switch, NumIn input ports by NumOut output ports. Combinational.
//
// Each output takes the flit of the input that the switch allocator granted it
// (noc_switch_allocator's `out_gnt_o`, one-hot or zero per output). One input may be granted
// several outputs in the same cycle: its flit then appears on all of them at once (synchronous
// replication, docs/rtl.md "The router: decisions taken for its composition"). An output with no
// grant shows `valid_o` = 0 and an all-zero flit.
//
// Why combinational: its flits come from registers (the input buffers' RAM output registers) and
// its select is registered (noc_switch_traversal), so a register here would only add a cycle of
// latency. Why an AND-OR mux over constant slices: the select is
// already one-hot, and a variable part-select `in_i[sel*FlitW +: FlitW]` would synthesize to a
// shifter of about four times the LUTs (docs/sv-subset.md). `clk_i` and `rst_ni` exist only
// to sample the assertion (NOC_ASSERT) and drive no logic.
`include "noc_assert.svh"

module noc_crossbar #(
  /// Number of input ports (>= 1).
  parameter int unsigned NumIn = 5,
  /// Number of output ports (>= 1).
  parameter int unsigned NumOut = 5,
  /// Width of a flit. Derived from the wire format (noc_pkg::FlitW), do not override.
  localparam int unsigned FlitW = noc_pkg::FlitW
) (
  /// Clock; used only to sample the assertion.
  input  logic                    clk_i,
  /// Active-low reset; the assertion is disabled while it is low.
  input  logic                    rst_ni,
  /// Flit of input i (a noc_pkg::flit_t) in bits [i*FlitW +: FlitW].
  input  logic [NumIn*FlitW-1:0]  in_i,
  /// Input granted to output o in bits [o*NumIn +: NumIn]: one-hot or zero (the switch
  /// allocator's `out_gnt_o`).
  input  logic [NumOut*NumIn-1:0] sel_i,
  /// Output o carries a flit this cycle (some input is granted to it).
  output logic [NumOut-1:0]       valid_o,
  /// Flit of output o in bits [o*FlitW +: FlitW]; zero when `valid_o[o]` is low.
  output logic [NumOut*FlitW-1:0] out_o
);

  always_comb begin
    out_o   = '0;
    valid_o = '0;
    for (int o = 0; o < NumOut; o++) begin
      for (int i = 0; i < NumIn; i++) begin
        if (sel_i[o*NumIn+i]) begin
          out_o[o*FlitW +: FlitW] = out_o[o*FlitW +: FlitW] | in_i[i*FlitW +: FlitW];
          valid_o[o]              = 1'b1;
        end
      end
    end
  end

  // At most one input per output: two selected inputs would be OR-ed into a corrupt flit.
  for (genvar o = 0; o < NumOut; o++) begin : gen_out
    `NOC_ASSERT(SelOneHot0_A, $onehot0(sel_i[o*NumIn +: NumIn]))
  end

endmodule
