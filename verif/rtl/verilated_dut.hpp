// SPDX-License-Identifier: Apache-2.0
// Shared harness of the verilated RTL tests: one model in its own context, clocked by hand, and bit
// access on ports of any width.
#pragma once

#include <verilated.h>

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <type_traits>

namespace wormcast::verif {

// One verilated module in its own context, reset for one cycle at construction. A failed assertion
// is recorded (AssertionFired) instead of aborting the process, so a test can check both that legal
// traffic never fires an assertion and that illegal traffic does.
template <class Model>
class Dut {
 public:
  Dut() : context_(std::make_unique<VerilatedContext>()) {
    context_->fatalOnError(false);
    model_ = std::make_unique<Model>(context_.get(), "dut");
    model_->clk_i = 0;
    model_->rst_ni = 0;
    model_->eval();
    Tick();
    model_->rst_ni = 1;
    model_->eval();
  }

  Model& operator*() { return *model_; }
  Model* operator->() { return model_.get(); }

  // Settles the combinational outputs after the test changed inputs (clock low).
  void Settle() { model_->eval(); }

  // One clock cycle: rising edge (registers update, assertions sample), then falling edge.
  void Tick() {
    model_->clk_i = 1;
    model_->eval();
    context_->timeInc(1);
    model_->clk_i = 0;
    model_->eval();
    context_->timeInc(1);
  }

  // True once any assertion (or other $error) has fired.
  bool AssertionFired() const { return context_->gotError(); }

 private:
  std::unique_ptr<VerilatedContext> context_;
  std::unique_ptr<Model> model_;
};

// Bit access on a verilated port of any width (CData..QData or VlWide).
template <class T>
bool GetBit(const T& sig, unsigned bit) {
  if constexpr (std::is_integral_v<T>) {
    return (static_cast<std::uint64_t>(sig) >> bit) & 1u;
  } else {
    return (sig.m_storage[bit / 32] >> (bit % 32)) & 1u;
  }
}

template <class T>
void SetBit(T& sig, unsigned bit, bool value) {
  if constexpr (std::is_integral_v<T>) {
    const auto mask = static_cast<T>(std::uint64_t{1} << bit);
    sig = value ? static_cast<T>(sig | mask) : static_cast<T>(sig & ~mask);
  } else {
    // The bound check also keeps GCC's -Warray-bounds from guessing past the port's words.
    const std::size_t word = bit / 32;
    if (word >= std::size(sig.m_storage)) throw std::out_of_range("bit beyond the port");
    const std::uint32_t mask = std::uint32_t{1} << (bit % 32);
    sig.m_storage[word] = value ? (sig.m_storage[word] | mask) : (sig.m_storage[word] & ~mask);
  }
}

template <class T>
std::uint64_t GetField(const T& sig, unsigned lsb, unsigned width) {
  std::uint64_t v = 0;
  for (unsigned b = 0; b < width; ++b) v |= std::uint64_t{GetBit(sig, lsb + b)} << b;
  return v;
}

template <class T>
void SetField(T& sig, unsigned lsb, unsigned width, std::uint64_t value) {
  for (unsigned b = 0; b < width; ++b) SetBit(sig, lsb + b, (value >> b) & 1u);
}

}  // namespace wormcast::verif
