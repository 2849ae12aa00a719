// SPDX-License-Identifier: Apache-2.0
// The FPGA board's core (fpga/wormcast_hx8k_core.sv) in simulation: a clocked verilated model, a
// C++ UART receiver that decodes the transmit pin into lines, and the parser of the status line
// (docs/fpga.md, "The UART line").
#pragma once

#include <verilated.h>

#include <cstdint>
#include <iostream>
#include <memory>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "sim/uart_pin_model.hpp"

namespace wormcast::verif::fpga {

// One status line, parsed: `wormcast sent=<d> delivered=<d> errors=<d> router=<hh> cycles=<d>
// <PASS|FAIL|RUN>`, decimal numbers without leading zeros.
struct StatusLine {
  std::uint64_t sent = 0;
  std::uint64_t delivered = 0;
  std::uint64_t errors = 0;
  unsigned router = 0;
  std::uint64_t cycles = 0;
  std::string verdict;
  std::uint64_t end_cycle = 0;  // the simulation cycle its LF was received in
};

inline std::optional<StatusLine> ParseStatusLine(const std::string& text) {
  static const std::regex kLine(
      "wormcast sent=(0|[1-9][0-9]*) delivered=(0|[1-9][0-9]*) errors=(0|[1-9][0-9]*) "
      "router=([0-9a-f]{2}) cycles=(0|[1-9][0-9]*) (PASS|FAIL|RUN)");
  std::smatch m;
  if (!std::regex_match(text, m, kLine)) return std::nullopt;
  StatusLine line;
  line.sent = std::stoull(m[1]);
  line.delivered = std::stoull(m[2]);
  line.errors = std::stoull(m[3]);
  line.router = static_cast<unsigned>(std::stoul(m[4], nullptr, 16));
  line.cycles = std::stoull(m[5]);
  line.verdict = m[6];
  return line;
}

// LED bits of led_o (wormcast_hx8k_core.sv).
enum Led : unsigned {
  kLedHeartbeat = 0,
  kLedPass = 1,
  kLedError = 2,
  kLedRunning = 3,
  kLedUart = 4,
  kLedRouterError = 5,
  kLedCheckError = 6,
};

// The core, clocked by hand, with its UART decoded into lines. Every text line received (without
// its CR LF) is kept; one that is not a status line, or a line not ended by CR LF, is recorded as
// malformed. With `echo`, every line is printed as it arrives (make fpga-sim).
template <class Model>
class Board {
 public:
  Board(unsigned divisor, bool echo) : context_(std::make_unique<VerilatedContext>()), uart_(divisor), echo_(echo) {
    context_->fatalOnError(false);
    model_ = std::make_unique<Model>(context_.get(), "board");
    model_->clk_i = 0;
    model_->rst_req_ni = 0;
    model_->eval();
  }

  Model* operator->() { return model_.get(); }

  // Holds the reset request low (or releases it) from the next cycle on.
  void SetResetRequest(bool asserted) {
    model_->rst_req_ni = asserted ? 0 : 1;
    model_->eval();
  }

  // One clock cycle; the line is sampled after the rising edge.
  void Tick() {
    model_->clk_i = 1;
    model_->eval();
    context_->timeInc(1);
    model_->clk_i = 0;
    model_->eval();
    context_->timeInc(1);
    ++cycle_;
    if (model_->led_o & (1u << kLedHeartbeat)) heartbeat_seen_on_ = true;
    if (heartbeat_seen_on_ && !(model_->led_o & (1u << kLedHeartbeat))) heartbeat_toggles_ok_ = true;
    if (auto byte = uart_.sample(model_->uart_tx_o != 0)) Receive(static_cast<char>(*byte));
  }

  // Runs until a line with the verdict `until` (or any FAIL line) arrives, or `max_cycles` pass.
  void RunUntilVerdict(const std::string& until, std::uint64_t max_cycles) {
    const std::size_t seen = lines_.size();
    for (std::uint64_t i = 0; i < max_cycles; ++i) {
      Tick();
      for (std::size_t k = seen; k < lines_.size(); ++k) {
        if (lines_[k].verdict == until || lines_[k].verdict == "FAIL") return;
      }
    }
  }

  // Drops the characters of a line not yet ended (a line cut by a reset).
  void DiscardPartialLine() { text_.clear(); }

  void Run(std::uint64_t cycles) {
    for (std::uint64_t i = 0; i < cycles; ++i) Tick();
  }

  const std::vector<StatusLine>& lines() const { return lines_; }
  const std::vector<std::string>& malformed() const { return malformed_; }
  int framing_errors() const { return uart_.framing_errors(); }
  std::uint64_t cycle() const { return cycle_; }
  bool led(unsigned i) const { return (model_->led_o >> i) & 1u; }
  bool heartbeat_blinked() const { return heartbeat_toggles_ok_; }
  bool assertion_fired() const { return context_->gotError(); }

 private:
  void Receive(char c) {
    text_ += c;
    if (c != '\n') return;
    std::string line = text_;
    text_.clear();
    if (line.size() < 2 || line[line.size() - 2] != '\r') {
      malformed_.push_back(line);
      return;
    }
    line.resize(line.size() - 2);
    if (echo_) std::cout << line << std::endl;
    auto parsed = ParseStatusLine(line);
    if (!parsed) {
      malformed_.push_back(line);
      return;
    }
    parsed->end_cycle = cycle_;
    lines_.push_back(*parsed);
  }

  std::unique_ptr<VerilatedContext> context_;
  std::unique_ptr<Model> model_;
  sim::UartReceiver uart_;
  bool echo_;
  std::string text_;
  std::vector<StatusLine> lines_;
  std::vector<std::string> malformed_;
  std::uint64_t cycle_ = 0;
  bool heartbeat_seen_on_ = false;
  bool heartbeat_toggles_ok_ = false;
};

}  // namespace wormcast::verif::fpga
