// SPDX-License-Identifier: SHL-0.51
// noc_audit_schedule: when the self-test's credit audits (noc_credit_audit, docs/fpga.md) look.
// Every 2**AuditW cycles the traffic generators are told to stop starting messages (drain_o);
// once all of them are idle (nothing outstanding) and QuietCycles more have passed (the last
// credits are on their way back: a credit is registered in the receiver), check_o pulses for one
// cycle, when every credit loop must have all its credits, and traffic resumes. Shared by the
// two-router self-test (noc_selftest) and the mesh self-test (noc_selftest_mesh).
`include "noc_assert.svh"
`include "noc_registers.svh"

module noc_audit_schedule #(
  /// Cycles between audits: 2**AuditW of traffic, then the drain (>= 1).
  parameter int unsigned AuditW = 11,
  /// Cycles after the generators are idle before the check (0..15).
  parameter int unsigned QuietCycles = 15
) (
  /// Clock.
  input  logic clk_i,
  /// Asynchronous active-low reset: traffic runs, the period starts.
  input  logic rst_ni,
  /// Every traffic generator is idle (nothing outstanding).
  input  logic idle_i,
  /// The generators start no new message (from the end of the period to the check).
  output logic drain_o,
  /// The network is drained: every credit must be back (one cycle).
  output logic check_o
);

  if (AuditW < 1 || QuietCycles > 15) begin : gen_param_check
    $error("noc_audit_schedule: AuditW (%0d) must be >= 1 and QuietCycles (%0d) at most 15", AuditW, QuietCycles);
  end

  typedef enum logic [1:0] {
    AuRun   = 2'd0,
    AuDrain = 2'd1,
    AuQuiet = 2'd2
  } audit_e;
  audit_e            au_d, au_q;
  logic [AuditW-1:0] timer_d, timer_q;
  logic [3:0]        quiet_d, quiet_q;
  always_comb begin
    au_d    = au_q;
    timer_d = timer_q;
    quiet_d = quiet_q;
    check_o = 1'b0;
    unique case (au_q)
      AuRun: begin
        timer_d = timer_q + 1'b1;
        if (timer_q == '1) begin
          au_d = AuDrain;
        end
      end
      AuDrain: begin
        quiet_d = '0;
        if (idle_i) begin
          au_d = AuQuiet;
        end
      end
      AuQuiet: begin
        quiet_d = quiet_q + 1'b1;
        if (quiet_q == 4'(QuietCycles)) begin
          check_o = 1'b1;
          au_d    = AuRun;
        end
      end
      default: au_d = AuRun;
    endcase
  end
  `NOC_FF(au_q, au_d, AuRun)
  `NOC_FF(timer_q, timer_d, '0)
  `NOC_FF(quiet_q, quiet_d, '0)
  assign drain_o = (au_q != AuRun);

endmodule
