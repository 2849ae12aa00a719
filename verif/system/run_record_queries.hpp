// SPDX-License-Identifier: Apache-2.0
// What the system tests ask of a run's record, shared by the multicast and mixed-run suites.
#pragma once

#include <algorithm>
#include <tuple>
#include <vector>

#include "sim/run_record.hpp"

namespace wormcast::verif {

// The first cycle any worm of multicast m entered the network (-1: none did).
inline long first_injection(const sim::RunRecord& record, int m) {
  long first = -1;
  for (const sim::ObservedWorm& w : record.worms) {
    if (w.multicast == m && w.inject_cycle >= 0 && (first < 0 || w.inject_cycle < first)) first = w.inject_cycle;
  }
  return first;
}

// The last delivery cycle of multicast m (-1: none).
inline long last_delivery(const sim::RunRecord& record, int m) {
  long last = -1;
  for (const sim::Delivery& d : record.deliveries) {
    if (d.multicast == m) last = std::max(last, d.cycle);
  }
  return last;
}

// Every delivery as (multicast, node, cycle), sorted: two runs that deliver alike compare equal.
inline std::vector<std::tuple<int, model::NodeId, long>> deliveries(const sim::RunRecord& record) {
  std::vector<std::tuple<int, model::NodeId, long>> all;
  for (const sim::Delivery& d : record.deliveries) all.emplace_back(d.multicast, d.node, d.cycle);
  std::sort(all.begin(), all.end());
  return all;
}

}  // namespace wormcast::verif
