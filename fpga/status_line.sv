// SPDX-License-Identifier: SHL-0.51
// status_line: formats the self-test's counters as one line of text, byte by byte, for a UART.
//
//   wormcast sent=<d> delivered=<d> errors=<d> router=<hh> cycles=<d> <PASS|FAIL|RUN>\r\n
//
// `<d>` is a decimal number without leading zeros, `<hh>` two lowercase hex digits (the router's
// sticky error flags), and the last word the verdict: FAIL once `fail_i` is high, else PASS once
// `pass_i` is high, else RUN. All values are taken in one cycle when the line starts (a snapshot),
// so a line is consistent (delivered <= sent as the network counts them).
//
// A line starts every `LinePeriod` cycles, and also as soon as `pass_i` or `fail_i` rises (a line
// requested while one is being sent follows it). The numbers are converted serially: the snapshot
// is one shift register, and each number's bits are shifted out of its top into a 10-digit BCD
// register with the double-dabble rule (add 3 to every digit of 5 or more, then shift), one bit per
// cycle; a 32-bit number takes 32 cycles, far less than one character at any UART rate.
//
// The bytes go out through a valid/ready handshake (`valid_o`, `ready_i`: uart_tx's).
`include "noc_assert.svh"
`include "noc_registers.svh"

module status_line #(
  /// Cycles from one periodic line's start to the next (about one second at the design clock).
  parameter int unsigned LinePeriod = 12_000_000,
  /// Width of the period counter. Derived, do not override.
  localparam int unsigned PeriodW = $clog2(LinePeriod)
) (
  /// Clock.
  input  logic        clk_i,
  /// Asynchronous active-low reset: no line in progress, the period starts again.
  input  logic        rst_ni,
  /// Worms sent by the self-test's traffic generators.
  input  logic [31:0] worms_sent_i,
  /// Worms delivered and checked.
  input  logic [31:0] worms_delivered_i,
  /// Errors found by the checkers.
  input  logic [15:0] check_errors_i,
  /// The routers' sticky error flags.
  input  logic [7:0]  router_errors_i,
  /// Cycles since reset.
  input  logic [31:0] cycles_i,
  /// Sticky: the self-test passed.
  input  logic        pass_i,
  /// Sticky: the self-test found an error.
  input  logic        fail_i,
  /// The next byte of the line.
  output logic [7:0]  data_o,
  /// `data_o` is valid.
  output logic        valid_o,
  /// The UART takes `data_o` this cycle.
  input  logic        ready_i
);

  // The line's template, one byte per entry: printable text, or a code below 0x20 (other than
  // CR and LF) that stands for a field.
  localparam logic [7:0] CodeEnd   = 8'h00;  // end of the line
  localparam logic [7:0] CodeDec32 = 8'h01;  // the next 32 bits of the snapshot, in decimal
  localparam logic [7:0] CodeDec16 = 8'h02;  // the next 16 bits, in decimal
  localparam logic [7:0] CodeHex8  = 8'h03;  // the next 8 bits, as two hex digits
  localparam logic [7:0] CodeWord0 = 8'h10;  // 8'h10..8'h13: the verdict's characters 0..3
  localparam int unsigned TextLen = 62;
  localparam logic [8*TextLen-1:0] Text = {
    "wormcast sent=", CodeDec32, " delivered=", CodeDec32, " errors=", CodeDec16, " router=",
    CodeHex8, " cycles=", CodeDec32, " ", CodeWord0, 8'h11, 8'h12, 8'h13, 8'h0d, 8'h0a, CodeEnd
  };
  localparam int unsigned IdxW = $clog2(TextLen);
  localparam int unsigned SnapW = 32 + 32 + 16 + 8 + 32;

  typedef enum logic [1:0] {
    StIdle,     // no line in progress
    StText,     // sending the template entry at idx_q
    StConvert,  // shifting a number into the BCD register
    StDigits    // sending the BCD register's digits
  } state_e;

  typedef enum logic [1:0] {
    VerdictRun,
    VerdictPass,
    VerdictFail
  } verdict_e;

  state_e             state_d, state_q;
  verdict_e           verdict_d, verdict_q;
  logic [IdxW-1:0]    idx_d, idx_q;
  logic [SnapW-1:0]   snap_d, snap_q;
  logic [39:0]        bcd_d, bcd_q;
  // Bits still to shift in (StConvert), or digits still to send (StDigits).
  logic [5:0]         count_d, count_q;
  // The number is hex (no add-3 rule, no leading-zero suppression).
  logic               hex_d, hex_q;
  // Still suppressing leading zeros.
  logic               lead_d, lead_q;
  logic [PeriodW-1:0] period_d, period_q;
  logic               pending_d, pending_q;
  logic               pass_seen_q, fail_seen_q;

  // The template entry at idx_q (a loop over constant slices: a small ROM, not a shifter).
  logic [7:0] entry;
  always_comb begin
    entry = CodeEnd;
    for (int i = 0; i < TextLen; i++) begin
      if (idx_q == IdxW'(i)) entry = Text[8*(TextLen-1-i) +: 8];
    end
  end

  // The verdict's characters: "PASS", "FAIL", "RUN" (the fourth is 0: nothing sent).
  logic [7:0] word_char;
  always_comb begin
    word_char = 8'h00;
    unique case (verdict_q)
      VerdictPass: begin
        unique case (entry[1:0])
          2'd0: word_char = "P";
          2'd1: word_char = "A";
          default: word_char = "S";
        endcase
      end
      VerdictFail: begin
        unique case (entry[1:0])
          2'd0: word_char = "F";
          2'd1: word_char = "A";
          2'd2: word_char = "I";
          default: word_char = "L";
        endcase
      end
      default: begin
        unique case (entry[1:0])
          2'd0: word_char = "R";
          2'd1: word_char = "U";
          2'd2: word_char = "N";
          default: word_char = 8'h00;
        endcase
      end
    endcase
  end

  // The digit to send next (StDigits): BCD digit count_q - 1.
  logic [3:0] digit;
  always_comb begin
    digit = 4'd0;
    for (int i = 0; i < 10; i++) begin
      if (count_q == 6'(i + 1)) digit = bcd_q[4*i +: 4];
    end
  end

  // One double-dabble step: add 3 to every digit of 5 or more, then shift in the snapshot's top.
  // The top digit of a 32-bit number is at most 4, so it needs no adjusting and its top bit is
  // shifted out as a zero.
  logic [38:0] bcd_adjusted;
  always_comb begin
    bcd_adjusted[38:36] = bcd_q[38:36];
    for (int i = 0; i < 9; i++) begin
      bcd_adjusted[4*i +: 4] = (!hex_q && bcd_q[4*i +: 4] >= 4'd5) ? bcd_q[4*i +: 4] + 4'd3
                                                                    : bcd_q[4*i +: 4];
    end
  end

  logic start;
  assign start = (state_q == StIdle) && pending_q;

  always_comb begin
    state_d   = state_q;
    verdict_d = verdict_q;
    idx_d     = idx_q;
    snap_d    = snap_q;
    bcd_d     = bcd_q;
    count_d   = count_q;
    hex_d     = hex_q;
    lead_d    = lead_q;
    data_o    = 8'h00;
    valid_o   = 1'b0;

    unique case (state_q)
      StIdle: begin
        if (start) begin
          snap_d    = {worms_sent_i, worms_delivered_i, check_errors_i, router_errors_i, cycles_i};
          verdict_d = fail_i ? VerdictFail : (pass_i ? VerdictPass : VerdictRun);
          idx_d     = '0;
          state_d   = StText;
        end
      end
      StText: begin
        if (entry == CodeEnd) begin
          state_d = StIdle;
        end else if (entry == CodeDec32 || entry == CodeDec16 || entry == CodeHex8) begin
          bcd_d   = '0;
          hex_d   = (entry == CodeHex8);
          count_d = (entry == CodeDec32) ? 6'd32 : ((entry == CodeDec16) ? 6'd16 : 6'd8);
          state_d = StConvert;
        end else if (entry[7:2] == CodeWord0[7:2]) begin
          // A verdict character; RUN's fourth is skipped.
          data_o  = word_char;
          valid_o = (word_char != 8'h00);
          if (ready_i || word_char == 8'h00) idx_d = idx_q + IdxW'(1);
        end else begin
          data_o  = entry;
          valid_o = 1'b1;
          if (ready_i) idx_d = idx_q + IdxW'(1);
        end
      end
      StConvert: begin
        bcd_d   = {bcd_adjusted, snap_q[SnapW-1]};
        snap_d  = {snap_q[SnapW-2:0], 1'b0};
        count_d = count_q - 6'd1;
        if (count_q == 6'd1) begin
          count_d = hex_q ? 6'd2 : 6'd10;
          lead_d  = !hex_q;
          state_d = StDigits;
        end
      end
      StDigits: begin
        if (lead_q && digit == 4'd0 && count_q != 6'd1) begin
          count_d = count_q - 6'd1;
        end else begin
          lead_d  = 1'b0;
          data_o  = (digit < 4'd10) ? 8'h30 + {4'd0, digit} : 8'h57 + {4'd0, digit};
          valid_o = 1'b1;
          if (ready_i) begin
            count_d = count_q - 6'd1;
            if (count_q == 6'd1) begin
              idx_d   = idx_q + IdxW'(1);
              state_d = StText;
            end
          end
        end
      end
      default: state_d = StIdle;
    endcase
  end

  // The period timer and the requests: a line every LinePeriod cycles, and one when pass or fail
  // first rises.
  always_comb begin
    period_d  = (period_q == '0) ? PeriodW'(LinePeriod - 1) : period_q - PeriodW'(1);
    pending_d = pending_q;
    if (start) pending_d = 1'b0;
    if (period_q == '0 || (pass_i && !pass_seen_q) || (fail_i && !fail_seen_q)) pending_d = 1'b1;
  end

  `NOC_FF(state_q, state_d, StIdle)
  `NOC_FF(verdict_q, verdict_d, VerdictRun)
  `NOC_FF(idx_q, idx_d, '0)
  `NOC_FF(snap_q, snap_d, '0)
  `NOC_FF(bcd_q, bcd_d, '0)
  `NOC_FF(count_q, count_d, '0)
  `NOC_FF(hex_q, hex_d, 1'b0)
  `NOC_FF(lead_q, lead_d, 1'b0)
  `NOC_FF(period_q, period_d, PeriodW'(LinePeriod - 1))
  `NOC_FF(pending_q, pending_d, 1'b0)
  `NOC_FF(pass_seen_q, pass_i, 1'b0)
  `NOC_FF(fail_seen_q, fail_i, 1'b0)

  `NOC_ASSERT(IdxInTemplate_A, idx_q < IdxW'(TextLen))
  `NOC_ASSERT(DigitIsDecimal_A, state_q == StDigits && !hex_q |-> digit < 4'd10)

endmodule
