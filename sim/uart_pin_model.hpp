// SPDX-License-Identifier: Apache-2.0
// The host's UART at a simulated board's pins (docs/fpga.md, "The host link"): an 8N1 transmitter
// that drives the board's receive pin and an 8N1 receiver that samples the board's transmit pin,
// once per board clock cycle, `divisor` cycles per bit (the board's uart_tx/uart_rx divisor).
#pragma once

#include <cstdint>
#include <deque>
#include <optional>

namespace wormcast::sim {

class UartPinModel {
 public:
  explicit UartPinModel(unsigned divisor) : divisor_(divisor) {}

  // Queues bytes for the board's receive pin, sent back to back (one stop bit each).
  void send(std::uint8_t byte) { to_board_.push_back(byte); }
  bool sending() const { return tx_bits_ != 0 || !to_board_.empty(); }

  // The level of the board's receive pin in the next cycle; call once per cycle, before the edge.
  bool rx_pin() {
    if (tx_bits_ == 0) {
      if (to_board_.empty()) return true;
      tx_frame_ = 0x200u | (static_cast<unsigned>(to_board_.front()) << 1);  // {stop, data, start}
      to_board_.pop_front();
      tx_bits_ = 10;
      tx_tick_ = 0;
    }
    const bool level = (tx_frame_ & 1u) != 0;
    if (++tx_tick_ == divisor_) {
      tx_tick_ = 0;
      tx_frame_ >>= 1;
      --tx_bits_;
    }
    return level;
  }

  // The board's transmit pin in one cycle; returns a byte when its stop bit has been sampled high
  // (a low stop bit counts as a framing error and drops the byte).
  std::optional<std::uint8_t> sample_tx_pin(bool line) {
    if (!rx_busy_) {
      if (rx_prev_ && !line) {
        rx_busy_ = true;
        rx_count_ = 0;
        rx_bits_ = 0;
        rx_byte_ = 0;
      }
      rx_prev_ = line;
      return std::nullopt;
    }
    rx_prev_ = line;
    ++rx_count_;
    if (rx_count_ < divisor_ / 2 + rx_bits_ * divisor_) return std::nullopt;
    if (rx_bits_ == 0) {
      if (line) rx_busy_ = false;  // a glitch, not a start bit
    } else if (rx_bits_ <= 8) {
      rx_byte_ |= static_cast<std::uint8_t>((line ? 1u : 0u) << (rx_bits_ - 1));
    } else {
      rx_busy_ = false;
      if (!line) {
        ++framing_errors_;
        return std::nullopt;
      }
      return rx_byte_;
    }
    ++rx_bits_;
    return std::nullopt;
  }

  int framing_errors() const { return framing_errors_; }
  unsigned divisor() const { return divisor_; }

 private:
  unsigned divisor_;
  std::deque<std::uint8_t> to_board_;
  unsigned tx_frame_ = 0, tx_bits_ = 0, tx_tick_ = 0;
  bool rx_prev_ = true, rx_busy_ = false;
  unsigned rx_count_ = 0, rx_bits_ = 0;
  std::uint8_t rx_byte_ = 0;
  int framing_errors_ = 0;
};

}  // namespace wormcast::sim
