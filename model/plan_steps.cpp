// SPDX-License-Identifier: Apache-2.0
#include "model/plan_steps.hpp"

#include <algorithm>
#include <map>
#include <utility>

namespace wormcast::model {

std::vector<int> causal_steps(const Plan& plan) {
  std::vector<int> steps(plan.worms.size(), 0);
  std::map<NodeId, int> received;                 // node -> the largest step it took a copy of
  std::map<std::pair<NodeId, int>, int> on_port;  // (sender, port) -> the step of its last worm there
  for (std::size_t i = 0; i < plan.worms.size(); ++i) {
    const Worm& w = plan.worms[i];
    if (w.spawned_from) {
      steps[i] = steps[*w.spawned_from];
    } else {
      int& previous = on_port[{w.sender, w.port}];
      const auto got = received.find(w.sender);
      previous = 1 + std::max(got == received.end() ? 0 : got->second, previous);
      steps[i] = previous;
    }
    for (const std::vector<NodeId>* takers : {&w.keeps_copy, &w.relays}) {
      for (const NodeId n : *takers) received[n] = std::max(received[n], steps[i]);
    }
  }
  return steps;
}

}  // namespace wormcast::model
