// SPDX-License-Identifier: SHL-0.51
// noc_ebr_buffer_pair (test only): rtl/noc_ebr_buffer.sv beside NumVcs rtl/noc_fifo.sv instances,
// both driven by the same push/pop inputs, every output of both brought out, so the cell test
// (verif/rtl/ebr_buffer_test.cpp) compares the block-RAM buffer with the register FIFOs it
// replaces cycle by cycle in one verilated model.
module noc_ebr_buffer_pair #(
  /// Virtual channels (FIFOs).
  parameter int unsigned NumVcs = 4,
  /// Entries per VC.
  parameter int unsigned Depth = 4,
  /// Bits per entry; the top 2 are the flags the block-RAM buffer keeps in registers.
  parameter int unsigned Width = 16,
  /// Width of a VC id. Derived, do not override.
  localparam int unsigned VcIdW = (NumVcs > 1) ? $clog2(NumVcs) : 1,
  /// Width of one count. Derived, do not override.
  localparam int unsigned CountW = $clog2(Depth + 1)
) (
  /// Clock of both.
  input  logic                     clk_i,
  /// Asynchronous active-low reset of both.
  input  logic                     rst_ni,
  /// Push `data_i` into VC `push_vc_i`.
  input  logic                     push_i,
  /// VC of the push.
  input  logic [VcIdW-1:0]         push_vc_i,
  /// Entry pushed.
  input  logic [Width-1:0]         data_i,
  /// Bit v: pop VC v.
  input  logic [NumVcs-1:0]        pop_i,
  /// The block-RAM buffer's outputs (noc_ebr_buffer).
  output logic [NumVcs*Width-1:0]  ebr_data_o,
  output logic [NumVcs-1:0]        ebr_loaded_o,
  output logic [NumVcs-1:0]        ebr_empty_o,
  output logic [NumVcs-1:0]        ebr_full_o,
  output logic [NumVcs*CountW-1:0] ebr_count_o,
  output logic [NumVcs-1:0]        ebr_overflow_o,
  /// The register FIFOs' outputs (noc_fifo), VC v in the same bits.
  output logic [NumVcs*Width-1:0]  reg_data_o,
  output logic [NumVcs-1:0]        reg_empty_o,
  output logic [NumVcs-1:0]        reg_full_o,
  output logic [NumVcs*CountW-1:0] reg_count_o,
  output logic [NumVcs-1:0]        reg_overflow_o
);

  noc_ebr_buffer #(
    .NumVcs(NumVcs),
    .Depth (Depth),
    .Width (Width),
    .FlagW (2)
  ) u_ebr (
    .clk_i,
    .rst_ni,
    .push_i,
    .push_vc_i,
    .data_i,
    .pop_i,
    .data_o    (ebr_data_o),
    .loaded_o  (ebr_loaded_o),
    .empty_o   (ebr_empty_o),
    .full_o    (ebr_full_o),
    .count_o   (ebr_count_o),
    .overflow_o(ebr_overflow_o)
  );

  for (genvar v = 0; v < NumVcs; v++) begin : gen_fifo
    noc_fifo #(
      .Width(Width),
      .Depth(Depth)
    ) u_fifo (
      .clk_i,
      .rst_ni,
      .push_i    (push_i && push_vc_i == VcIdW'(v)),
      .data_i,
      .pop_i     (pop_i[v]),
      .data_o    (reg_data_o[v*Width +: Width]),
      .empty_o   (reg_empty_o[v]),
      .full_o    (reg_full_o[v]),
      .count_o   (reg_count_o[v*CountW +: CountW]),
      .overflow_o(reg_overflow_o[v])
    );
  end

endmodule
