// SPDX-License-Identifier: Apache-2.0
#include "sim/credit_delay.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>

namespace wormcast::sim {

namespace {
// Separates the delays' engine from the run's other engines seeded with the same seed.
constexpr std::uint64_t kCreditDelayStream = 0x6372'6564'6974'646Cull;  // "creditdl"
}  // namespace

CreditDelay::CreditDelay(int routers, unsigned net_ports, unsigned vcs, unsigned max_delay, std::uint64_t seed)
    : bits_(net_ports * vcs),
      max_delay_(max_delay),
      rng_(seed ^ kCreditDelayStream),
      due_(static_cast<std::size_t>(routers) * net_ports * vcs),
      held_(static_cast<std::size_t>(routers), 0) {
  if (bits_ > 32) throw std::invalid_argument("CreditDelay: more than 32 credit bits per router");
}

std::uint32_t CreditDelay::pass(model::NodeId r, long cycle, std::uint32_t returned) {
  if (max_delay_ == 0) return returned;
  const std::size_t base = static_cast<std::size_t>(r) * bits_;
  unsigned& held = held_[static_cast<std::size_t>(r)];
  if (returned == 0 && held == 0) return 0;
  for (std::uint32_t bits = returned; bits != 0; bits &= bits - 1) {
    std::deque<long>& due = due_[base + static_cast<unsigned>(std::countr_zero(bits))];
    const long delay = static_cast<long>(rng_() % (max_delay_ + 1));
    due.push_back(due.empty() ? cycle + delay : std::max(cycle + delay, due.back() + 1));
    ++held;
  }
  std::uint32_t passed = 0;
  for (unsigned b = 0; b < bits_ && held != 0; ++b) {
    std::deque<long>& due = due_[base + b];
    if (!due.empty() && due.front() == cycle) {
      due.pop_front();
      --held;
      passed |= std::uint32_t{1} << b;
    }
  }
  held_credit_cycles_ += held;
  return passed;
}

}  // namespace wormcast::sim
