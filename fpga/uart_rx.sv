// SPDX-License-Identifier: SHL-0.51
// uart_rx: an 8N1 UART receiver (one start bit, 8 data bits LSB first, one stop bit, no parity),
// the counterpart of uart_tx at the same divisor.
//
// The line passes two synchronizer flip-flops (it comes from another clock domain: the host's
// UART). A falling edge of the synchronized line while idle starts a frame; the start bit is
// sampled again at its middle (Divisor / 2 cycles later; a high line there was a glitch, and the
// receiver goes back to idle), then each data bit and the stop bit at their middles, Divisor
// cycles apart. A byte is offered for one cycle (`valid_o`, no handshake: the consumer takes a
// byte in the cycle it arrives, and bytes arrive at most once per 10 bit times) when its stop bit
// is high; a low stop bit drops the byte and pulses `frame_error_o`. The receiver looks for the
// next start bit right after the stop bit's middle, so a sender up to half a bit per frame faster
// is still received.
`include "noc_assert.svh"
`include "noc_registers.svh"

module uart_rx #(
  /// Clock frequency in Hz.
  parameter int unsigned ClkHz = 12_000_000,
  /// Baud rate in bit/s; `ClkHz / Baud` must be at least 4.
  parameter int unsigned Baud = 115_200,
  /// Clock cycles per bit (uart_tx's rounding). Derived, do not override.
  localparam int unsigned Divisor = (ClkHz + Baud / 2) / Baud,
  /// Width of the bit-time counter. Derived, do not override.
  localparam int unsigned DivW = $clog2(Divisor)
) (
  /// Clock.
  input  logic       clk_i,
  /// Asynchronous active-low reset: idle, nothing received.
  input  logic       rst_ni,
  /// The serial line (idle high), asynchronous to `clk_i`.
  input  logic       rx_i,
  /// The byte received, LSB first on the line; valid with `valid_o`.
  output logic [7:0] data_o,
  /// A byte arrived with a good stop bit (one cycle).
  output logic       valid_o,
  /// A frame ended with a low stop bit; its byte is dropped (one cycle).
  output logic       frame_error_o
);

  if (Divisor < 4) begin : gen_divisor_check
    $error("uart_rx: ClkHz / Baud must be at least 4");
  end

  // Two synchronizer stages, reset to the idle level.
  logic [1:0] sync_d, sync_q;
  logic       line;
  assign sync_d = {sync_q[0], rx_i};
  assign line   = sync_q[1];
  `NOC_FF(sync_q, sync_d, 2'b11)

  // Bits of the frame still to sample, the start bit's check included (0: idle; 10 at the start
  // bit's middle ... 1 at the stop bit's middle).
  logic [3:0]      bits_d, bits_q;
  // Cycles to the next sample.
  logic [DivW-1:0] tick_d, tick_q;
  // The data bits so far, shifted in from the top (LSB first on the line).
  logic [7:0]      shift_d, shift_q;

  always_comb begin
    bits_d        = bits_q;
    tick_d        = tick_q;
    shift_d       = shift_q;
    valid_o       = 1'b0;
    frame_error_o = 1'b0;
    if (bits_q == 4'd0) begin
      if (!line) begin
        bits_d = 4'd10;
        tick_d = DivW'(Divisor / 2 - 1);
      end
    end else if (tick_q != '0) begin
      tick_d = tick_q - DivW'(1);
    end else begin
      tick_d = DivW'(Divisor - 1);
      bits_d = bits_q - 4'd1;
      if (bits_q == 4'd10) begin
        if (line) bits_d = 4'd0;  // the start bit did not last: a glitch
      end else if (bits_q == 4'd1) begin
        valid_o       = line;
        frame_error_o = !line;
      end else begin
        shift_d = {line, shift_q[7:1]};
      end
    end
  end

  `NOC_FF(bits_q, bits_d, 4'd0)
  `NOC_FF(tick_q, tick_d, '0)
  `NOC_FF(shift_q, shift_d, 8'h00)

  assign data_o = shift_q;

  `NOC_ASSERT(BitsInRange_A, bits_q <= 4'd10)
  `NOC_ASSERT(OneOutcome_A, !(valid_o && frame_error_o))

endmodule
