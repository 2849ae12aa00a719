// SPDX-License-Identifier: SHL-0.51
// uart_tx: an 8N1 UART transmitter (one start bit, 8 data bits LSB first, one stop bit, no parity).
//
// A byte offered on `data_i` with `valid_i` is taken in the cycle `ready_o` is high (a valid/ready
// handshake); the line `tx_o` then carries its 10 bits, each `ClkHz / Baud` cycles (rounded to the
// nearest integer) long, and `ready_o` rises again after the stop bit. The line idles high and is
// high in reset. The baud-rate error is the rounding of the divisor: at 15.938 MHz and 115200 baud
// the divisor is 138 (+0.25 %), well inside the +-2 % an 8N1 receiver tolerates.
`include "noc_assert.svh"
`include "noc_registers.svh"

module uart_tx #(
  /// Clock frequency in Hz.
  parameter int unsigned ClkHz = 12_000_000,
  /// Baud rate in bit/s; `ClkHz / Baud` must be at least 2.
  parameter int unsigned Baud = 115_200,
  /// Clock cycles per bit. Derived, do not override.
  localparam int unsigned Divisor = (ClkHz + Baud / 2) / Baud,
  /// Width of the bit-time counter. Derived, do not override.
  localparam int unsigned DivW = $clog2(Divisor)
) (
  /// Clock.
  input  logic       clk_i,
  /// Asynchronous active-low reset: the line goes idle (high) and any byte in flight is lost.
  input  logic       rst_ni,
  /// The byte to send, LSB first; taken when `valid_i` and `ready_o` are both high.
  input  logic [7:0] data_i,
  /// `data_i` holds a byte to send.
  input  logic       valid_i,
  /// The transmitter is idle and takes `data_i` this cycle if `valid_i`.
  output logic       ready_o,
  /// The serial line (idle high).
  output logic       tx_o
);

  if (Divisor < 2) begin : gen_divisor_check
    $error("uart_tx: ClkHz / Baud must be at least 2");
  end

  // The frame still to send, LSB on the line: {stop, data, start}, shifted right once per bit.
  logic [9:0]      frame_d, frame_q;
  // Bits of the frame still to send (0: idle).
  logic [3:0]      bits_d, bits_q;
  // Cycles left in the current bit.
  logic [DivW-1:0] tick_d, tick_q;

  assign ready_o = (bits_q == 4'd0);
  assign tx_o    = ready_o ? 1'b1 : frame_q[0];

  always_comb begin
    frame_d = frame_q;
    bits_d  = bits_q;
    tick_d  = tick_q;
    if (ready_o) begin
      if (valid_i) begin
        frame_d = {1'b1, data_i, 1'b0};
        bits_d  = 4'd10;
        tick_d  = DivW'(Divisor - 1);
      end
    end else if (tick_q == '0) begin
      frame_d = {1'b1, frame_q[9:1]};
      bits_d  = bits_q - 4'd1;
      tick_d  = DivW'(Divisor - 1);
    end else begin
      tick_d = tick_q - DivW'(1);
    end
  end

  `NOC_FF(frame_q, frame_d, 10'h3ff)
  `NOC_FF(bits_q, bits_d, 4'd0)
  `NOC_FF(tick_q, tick_d, '0)

  `NOC_ASSERT(BitsInRange_A, bits_q <= 4'd10)

endmodule
