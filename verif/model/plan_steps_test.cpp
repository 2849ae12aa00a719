// SPDX-License-Identifier: Apache-2.0
// The causal steps of a plan's worms (model/plan_steps.hpp), the rule the run's monitor applies to
// what it observes (docs/firmware.md, "Scoreboard").
#include "model/plan_steps.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "model/broadcast_baselines.hpp"
#include "model/errors.hpp"
#include "model/planner.hpp"
#include "model/unicast_multicast.hpp"
#include "model/xy_path.hpp"

namespace wormcast::model {
namespace {

// A plan of hand-made worms (causal_steps reads only the worms).
Plan hand_plan(std::vector<Worm> worms) {
  const Topology t = Topology::parse("mesh:4x4");
  return Plan{make_request(t, kTwoPortAlgorithm, 0, {1}, 1, PortModel::one_port()), std::move(worms), {}};
}

Worm hand_worm(NodeId sender, int step, int port, std::vector<NodeId> keeps) {
  Worm w;
  w.sender = sender;
  w.step = step;
  w.port = port;
  w.header.destinations = keeps;
  w.keeps_copy = std::move(keeps);
  return w;
}

// Worked by hand: source 0 sends to 1 and then to 2 on port 0 (steps 1, 2); 1 forwards to 3 on
// port 0, numbered 3 as a global numbering would (the plan's step), causally 2: it follows only
// the step-1 delivery; 3 forwards to 4 (plan 4, causally 3); 2 uses port 1 (causally 3: after the
// step-2 delivery); a router-spawned worm from 3's worm keeps its parent's step.
TEST(CausalSteps, HandPlanFollowsDeliveriesAndPortsNotTheNumbering) {
  Plan p = hand_plan({hand_worm(0, 1, 0, {1}), hand_worm(0, 2, 0, {2}), hand_worm(1, 3, 0, {3}),
                      hand_worm(2, 3, 1, {5}), hand_worm(3, 4, 0, {4}), hand_worm(3, 4, 1, {6})});
  p.worms.back().spawned_from = 4;
  EXPECT_EQ(causal_steps(p), (std::vector<int>{1, 2, 2, 3, 3, 3}));
}

// A relay (it takes the message in only to forward it) causes its sends like a destination does,
// and two worms of one sender on one port take two steps even when both follow one delivery.
TEST(CausalSteps, RelaysCauseAndOnePortCarriesOneWormPerStep) {
  Worm to_relay = hand_worm(0, 1, 0, {});
  to_relay.relays = {7};
  const Plan p = hand_plan({to_relay, hand_worm(7, 2, 0, {8}), hand_worm(7, 3, 0, {9}), hand_worm(7, 2, 1, {10})});
  EXPECT_EQ(causal_steps(p), (std::vector<int>{1, 2, 3, 2}));
}

// Every registered algorithm on the RTL's networks (random requests, every port model it takes):
// the plan's step is never below the causal one, and equals it except for rd, edn and np-d, which
// number their steps globally (a node done with a dimension, a level or its DDN's broadcast early
// is causally ahead).
TEST(CausalSteps, PlanStepIsNeverBelowCausalAndEqualOutsideTheGloballyNumberedBroadcasts) {
  std::mt19937_64 rng(7);
  std::map<std::string, int> ahead;  // algorithm -> worms causally ahead of their plan step
  std::set<std::string> planned;
  for (const char* spec : {"mesh:4x4", "mesh:8x8", "torus:4x4", "mesh:3x3x3", "mesh:4x4x4", "star:4", "mesh:16x16"}) {
    const Topology t = Topology::parse(spec);
    for (const std::string& name : algorithm_names()) {
      for (const PortModel ports : {PortModel::one_port(), PortModel::two_port(), PortModel::all_port()}) {
        for (int run = 0; run < 4; ++run) {
          NodeId source = static_cast<NodeId>(rng() % static_cast<std::uint64_t>(t.node_count()));
          if (name.rfind(kXyPathAlgorithm, 0) == 0) source = 0;
          std::vector<NodeId> dests = broadcast_destinations(t, source);
          if (!algorithm_info(name).broadcast && run % 2 == 1) {
            std::shuffle(dests.begin(), dests.end(), rng);
            dests.resize(std::min<std::size_t>(dests.size(), 1 + rng() % 12));
          }
          std::optional<Plan> planned_or_not;
          try {
            planned_or_not = plan(make_request(t, name, source, dests, 2, ports));
          } catch (const ModelError&) {
            continue;
          }
          const Plan& p = *planned_or_not;
          planned.insert(name);
          const std::vector<int> causal = causal_steps(p);
          ASSERT_EQ(causal.size(), p.worms.size());
          for (std::size_t i = 0; i < p.worms.size(); ++i) {
            ASSERT_GE(p.worms[i].step, causal[i]) << name << " on " << spec << " worm " << i;
            if (p.worms[i].step != causal[i]) ++ahead[name];
          }
        }
      }
    }
  }
  EXPECT_EQ(planned.size(), algorithm_names().size());
  for (const auto& [name, count] : ahead) {
    EXPECT_TRUE(name == kRecursiveDoublingAlgorithm || name == kExtendedDominatingNodeAlgorithm ||
                name == kNetworkPartitioningAlgorithm)
        << name << ": " << count;
  }
  EXPECT_GT(ahead[kRecursiveDoublingAlgorithm], 0);
  EXPECT_GT(ahead[kExtendedDominatingNodeAlgorithm], 0);
  EXPECT_GT(ahead[kNetworkPartitioningAlgorithm], 0);
}

}  // namespace
}  // namespace wormcast::model
