// SPDX-License-Identifier: Apache-2.0
// The host's UART at a simulated board's pins (docs/host-link.md): an 8N1 transmitter
// that drives the board's receive pin and an 8N1 receiver that samples the board's transmit pin,
// once per board clock cycle, `divisor` cycles per bit (the board's uart_tx/uart_rx divisor). The
// receiver alone also serves the board tests that read the status line (verif/fpga/board_harness.hpp).
#pragma once

#include <cstdint>
#include <deque>
#include <optional>

namespace wormcast::sim {

// An 8N1 receiver sampling a line once per clock cycle: a falling edge on the idle line starts a
// frame; the start bit is checked at its middle, then each data bit and the stop bit are sampled
// `divisor` cycles apart at their middles. A low stop bit is a framing error and drops the byte.
class UartReceiver {
 public:
  explicit UartReceiver(unsigned divisor) : divisor_(divisor) {}

  // The line's level in one cycle; returns a byte when its stop bit has been sampled high.
  std::optional<std::uint8_t> sample(bool line) {
    if (!busy_) {
      if (prev_ && !line) {
        busy_ = true;
        count_ = 0;
        bits_ = 0;
        byte_ = 0;
      }
      prev_ = line;
      return std::nullopt;
    }
    prev_ = line;
    ++count_;
    if (count_ < divisor_ / 2 + bits_ * divisor_) return std::nullopt;
    if (bits_ == 0) {
      if (line) busy_ = false;  // a glitch, not a start bit
    } else if (bits_ <= 8) {
      byte_ |= static_cast<std::uint8_t>((line ? 1u : 0u) << (bits_ - 1));
    } else {
      busy_ = false;
      if (!line) {
        ++framing_errors_;
        return std::nullopt;
      }
      return byte_;
    }
    ++bits_;
    return std::nullopt;
  }

  int framing_errors() const { return framing_errors_; }

 private:
  unsigned divisor_;
  bool prev_ = true, busy_ = false;
  unsigned count_ = 0, bits_ = 0;
  std::uint8_t byte_ = 0;
  int framing_errors_ = 0;
};

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
  std::optional<std::uint8_t> sample_tx_pin(bool line) { return from_board_.sample(line); }

  int framing_errors() const { return from_board_.framing_errors(); }
  unsigned divisor() const { return divisor_; }

 private:
  unsigned divisor_;
  std::deque<std::uint8_t> to_board_;
  unsigned tx_frame_ = 0, tx_bits_ = 0, tx_tick_ = 0;
  UartReceiver from_board_{divisor_};
};

}  // namespace wormcast::sim
