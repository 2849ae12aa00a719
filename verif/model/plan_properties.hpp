// SPDX-License-Identifier: Apache-2.0
// Properties every plan of every family must have, shared by the families' property tests.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include "model/plan.hpp"

namespace wormcast::model {

// The "no non-destination keeps a copy": every node of a Worm::keeps_copy is a destination
// and lies on the worm's route; every relay (Worm::relays) is a node that is not a destination, lies
// on the route and forwards the message: its processor sends at least one worm in a later step.
inline void expect_copies_only_at_destinations_and_relays_forward(const Plan& plan, const std::string& what) {
  const Request& r = plan.request;
  const Topology& t = r.topology;
  std::vector<bool> is_destination(static_cast<std::size_t>(t.node_count()), false);
  for (NodeId d : r.destinations) is_destination[static_cast<std::size_t>(d)] = true;
  std::vector<int> last_send(static_cast<std::size_t>(t.node_count()), 0);  // the step of its last send
  for (const Worm& w : plan.worms) {
    if (w.spawned_from) continue;  // a router's replication, not a send of the node's processor
    int& last = last_send[static_cast<std::size_t>(w.sender)];
    last = std::max(last, w.step);
  }
  const auto on_route = [](const Worm& w, NodeId n) {
    return std::find(w.route.begin() + 1, w.route.end(), n) != w.route.end();
  };
  for (const Worm& w : plan.worms) {
    for (NodeId n : w.keeps_copy) {
      EXPECT_TRUE(is_destination[static_cast<std::size_t>(n)])
          << what << ": non-destination " << t.node_name(n) << " keeps a copy";
      EXPECT_TRUE(on_route(w, n)) << what << ": " << t.node_name(n) << " keeps a copy off the route";
    }
    for (NodeId n : w.relays) {
      EXPECT_FALSE(is_destination[static_cast<std::size_t>(n)])
          << what << ": destination " << t.node_name(n) << " listed as a relay";
      EXPECT_TRUE(on_route(w, n)) << what << ": relay " << t.node_name(n) << " off the route";
      EXPECT_GT(last_send[static_cast<std::size_t>(n)], w.step)
          << what << ": relay " << t.node_name(n) << " (step " << w.step << ") never forwards";
    }
  }
}

}  // namespace wormcast::model
