// SPDX-License-Identifier: Apache-2.0
// A verilated board top with the host link (fpga/ulx3s/wormcast_ulx3s.sv, HostLink = 1) behind
// the host's UART pin model (sim/uart_pin_model.hpp), as a ByteLink for sim::HostLinkClient: the
// board is clocked while the host's bytes go out on its receive pin and until its answer's bytes
// come back on its transmit pin. The command line's fpga-sim board (sim/board_top.cpp) and the
// fpga tests (verif/fpga/) use it.
#pragma once

#include <verilated.h>

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <vector>

#include "sim/host_link_client.hpp"
#include "sim/uart_pin_model.hpp"

namespace wormcast::sim {

template <class Model>
class SimulatedBoard final : public ByteLink {
 public:
  // `divisor`: the board's cycles per UART bit; `patience`: cycles read_byte waits for a byte.
  SimulatedBoard(unsigned divisor, std::uint64_t patience)
      : context_(std::make_unique<VerilatedContext>()), pins_(divisor), patience_(patience) {
    context_->fatalOnError(false);
    model_ = std::make_unique<Model>(context_.get(), "board");
    model_->clk_25mhz_i = 0;
    model_->uart_rx_i = 1;
    model_->eval();
  }

  void write(const std::vector<std::uint8_t>& bytes) override {
    for (std::uint8_t b : bytes) pins_.send(b);
  }

  std::optional<std::uint8_t> read_byte() override {
    for (std::uint64_t waited = 0; received_.empty(); ++waited) {
      if (waited == patience_ && !pins_.sending()) return std::nullopt;
      tick();
    }
    const std::uint8_t byte = received_.front();
    received_.pop_front();
    return byte;
  }

  // A byte that has arrived from the board, without clocking it.
  std::optional<std::uint8_t> arrived_byte() {
    if (received_.empty()) return std::nullopt;
    const std::uint8_t byte = received_.front();
    received_.pop_front();
    return byte;
  }

  // One board clock cycle: the receive pin set for it, the transmit pin sampled after the edge.
  void tick() {
    model_->uart_rx_i = pins_.rx_pin() ? 1 : 0;
    model_->clk_25mhz_i = 1;
    model_->eval();
    context_->timeInc(1);
    model_->clk_25mhz_i = 0;
    model_->eval();
    context_->timeInc(1);
    ++cycles_;
    if (auto byte = pins_.sample_tx_pin(model_->uart_tx_o != 0)) received_.push_back(*byte);
  }
  void run(std::uint64_t cycles) {
    for (std::uint64_t i = 0; i < cycles; ++i) tick();
  }

  std::uint64_t cycles() const { return cycles_; }
  bool assertion_failed() const { return context_->gotError(); }
  int framing_errors() const { return pins_.framing_errors(); }
  Model* operator->() { return model_.get(); }

 private:
  std::unique_ptr<VerilatedContext> context_;
  std::unique_ptr<Model> model_;
  UartPinModel pins_;
  std::uint64_t patience_;
  std::deque<std::uint8_t> received_;
  std::uint64_t cycles_ = 0;
};

}  // namespace wormcast::sim
