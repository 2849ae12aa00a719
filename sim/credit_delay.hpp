// SPDX-License-Identifier: Apache-2.0
// Back-pressure on the network links of a run (docs/verification.md, "Back-pressure"): each credit a
// router returns on a network link reaches the sending router after a random delay of 0..max_delay
// cycles. A link is credit-based, so a flit already sent cannot be held on the wire; a late credit
// holds the next one back at the sender instead, as a slow or busy receiver would. Credits keep
// their order per VC and none is lost: one credit bit per VC per cycle, so a credit due in the cycle
// of an earlier one of its VC comes one cycle after it (a delay stays at most max_delay).
#pragma once

#include <cstdint>
#include <deque>
#include <random>
#include <vector>

#include "model/topology.hpp"

namespace wormcast::sim {

class CreditDelay {
 public:
  // `routers` routers of `net_ports` network ports with `vcs` VCs each; max_delay 0: every credit
  // passes in the cycle it is returned, and no number is drawn. The delays come from an engine of
  // their own seeded from `seed` (the run's), so adding them leaves the run's other draws as they were.
  CreditDelay(int routers, unsigned net_ports, unsigned vcs, unsigned max_delay, std::uint64_t seed);

  bool active() const { return max_delay_ > 0; }

  // The credits router r's network output VCs get in `cycle` (bit port * vcs + vc), given the ones
  // their receivers return to it in that cycle (`returned`, same layout). Call once per router per
  // cycle, cycles ascending and routers in node order in each: a returned credit draws its delay,
  // one engine call, in that order, so two runs with the same credits draw the same delays.
  std::uint32_t pass(model::NodeId r, long cycle, std::uint32_t returned);

  // Credits returned to router r and not yet passed on.
  unsigned held(model::NodeId r) const { return held_[static_cast<std::size_t>(r)]; }
  // Over the calls so far: the sum, over routers and cycles, of the credits held back at the end of
  // the cycle (a sender's count stayed that much below what its receivers had returned).
  std::uint64_t held_credit_cycles() const { return held_credit_cycles_; }

 private:
  unsigned bits_;  // credit bits per router: net_ports * vcs
  unsigned max_delay_;
  std::mt19937_64 rng_;
  std::vector<std::deque<long>> due_;  // r * bits_ + bit: the cycles its held credits pass, ascending
  std::vector<unsigned> held_;         // per router
  std::uint64_t held_credit_cycles_ = 0;
};

}  // namespace wormcast::sim
