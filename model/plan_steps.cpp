// SPDX-License-Identifier: Apache-2.0
#include "model/plan_steps.hpp"

#include <algorithm>
#include <map>
#include <utility>
#include <vector>

namespace wormcast::model {

std::vector<int> causal_steps(const Plan& plan) {
  std::vector<int> steps(plan.worms.size(), 0);
  // node -> (plan step, causal step) of each copy or part it took so far
  std::map<NodeId, std::vector<std::pair<int, int>>> received;
  std::map<std::pair<NodeId, int>, int> on_port;  // (sender, port) -> the step of its last worm there
  for (std::size_t i = 0; i < plan.worms.size(); ++i) {
    const Worm& w = plan.worms[i];
    if (w.spawned_from) {
      steps[i] = steps[*w.spawned_from];
    } else {
      int& previous = on_port[{w.sender, w.port}];
      int got = 0;
      for (const auto& [plan_step, causal] : received[w.sender]) {
        if (plan_step < w.step) got = std::max(got, causal);
      }
      previous = 1 + std::max(got, previous);
      steps[i] = previous;
    }
    for (const std::vector<NodeId>* takers : {&w.keeps_copy, &w.relays, &w.part_receivers}) {
      for (const NodeId n : *takers) received[n].push_back({w.step, steps[i]});
    }
  }
  return steps;
}

}  // namespace wormcast::model
