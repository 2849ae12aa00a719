// SPDX-License-Identifier: SHL-0.51
// noc_selftest (TEST-ONLY STAND-IN, not the self-test network): a counter module with the port list
// of fpga/noc_selftest.sv, so the board's own parts (reset synchronizer, status line, UART, LEDs)
// and the `make fpga` flow can be built and tested without the network. Its outputs are fixed
// functions of the cycle count, which the UART test recomputes to check every decimal digit the
// status line prints:
//   cycles_o          cycles since reset
//   worms_sent_o      cycles * 2654435761 (mod 2^32: every digit position gets exercised)
//   worms_delivered_o cycles * 3 (mod 2^32)
//   check_errors_o    Fault 1: cycles / 64 (16 bits) from FaultCycle on; else 0
//   router_errors_o   Fault 2: 8'h5a from FaultCycle on; else 0
//   pass_o            from PassCycles on, if no fault
//   fail_o            from FaultCycle on, if a fault
// It is never in fpga/: `make fpga` and the board test use it only when asked (FPGA_STANDIN=1, and
// the UART test's own model).
`include "noc_registers.svh"

module noc_selftest #(
  /// 0 none; 1 checker errors; 2 router error flags (the stand-in's versions of the real faults).
  parameter int unsigned Fault = 0,
  /// Cycle at which pass_o rises (no fault).
  parameter int unsigned PassCycles = 20_000,
  /// Cycle at which a fault shows.
  parameter int unsigned FaultCycle = 15_000,
  /// The real self-test's buffer depth, which the board top sets; the stand-in has no routers.
  /* verilator lint_off UNUSEDPARAM */
  parameter int unsigned BufDepth = 1
  /* verilator lint_on UNUSEDPARAM */
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  output logic [31:0] worms_sent_o,
  output logic [31:0] worms_delivered_o,
  output logic [15:0] check_errors_o,
  output logic [7:0]  router_errors_o,
  output logic [31:0] cycles_o,
  output logic        pass_o,
  output logic        fail_o
);

  logic [31:0] cycles_q;
  logic [31:0] cycles_d;
  assign cycles_d = cycles_q + 32'd1;
  `NOC_FF(cycles_q, cycles_d, '0)

  logic faulty;
  assign faulty = (Fault != 0) && (cycles_q >= FaultCycle);

  assign cycles_o          = cycles_q;
  assign worms_sent_o      = cycles_q * 32'd2654435761;
  assign worms_delivered_o = cycles_q * 32'd3;
  assign check_errors_o    = (Fault == 1 && faulty) ? cycles_q[21:6] : 16'd0;
  assign router_errors_o   = (Fault == 2 && faulty) ? 8'h5a : 8'h00;
  assign pass_o            = (Fault == 0) && (cycles_q >= PassCycles);
  assign fail_o            = faulty;

endmodule
