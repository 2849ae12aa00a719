// SPDX-License-Identifier: SHL-0.51
// noc_router_config: the router's configuration as its route compute reads it (docs/rtl.md,
// "Router top").
//
// Register = 1: captured at every rising edge while rst_ni is low, then held, so the configuration
// inputs need be valid only during reset and the route compute depends on registers alone
// (Verilator re-evaluates logic fed by a top-level input on every eval(), logic fed by registers
// only after a clock edge: the verilated routers run faster). These registers have no reset value
// (noc_registers.svh). Register = 0: the inputs themselves, which the system holds (no flip-flops:
// the FPGA default).
module noc_router_config #(
  /// Bits of configuration (noc_router concatenates its configuration inputs).
  parameter int unsigned Width = 8,
  /// 1: capture while rst_ni is low; 0: pass the inputs through.
  parameter int unsigned Register = 0
) (
  /// Clock (used with Register = 1).
  input  logic             clk_i,
  /// Active-low reset: the configuration is captured while it is low (Register = 1).
  input  logic             rst_ni,
  /// The configuration inputs.
  input  logic [Width-1:0] cfg_i,
  /// The configuration the router uses.
  output logic [Width-1:0] cfg_o
);

  if (Register != 0) begin : gen_regs
    always_ff @(posedge clk_i) begin
      if (!rst_ni) cfg_o <= cfg_i;
    end
  end else begin : gen_wires
    assign cfg_o = cfg_i;
    logic unused;
    assign unused = ^{clk_i, rst_ni};
  end

endmodule
