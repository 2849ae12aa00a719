// SPDX-License-Identifier: Apache-2.0
// Broadcast baselines of [3] (its Section 5; V15, V16): Recursive Doubling, Extended Dominating
// Node and Network Partitioning. Expected values come from the worked examples or are derived in
// the comments.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "model/broadcast_baselines.hpp"
#include "model/cpr_broadcast.hpp"
#include "model/errors.hpp"
#include "model/plan.hpp"
#include "verif/model/plan_properties.hpp"

namespace wormcast::model {
namespace {

NodeId at(const Topology& t, int x, int y) { return t.node_at(Coord{x, y, 0}); }

Request broadcast(const Topology& t, const char* algorithm, NodeId source, PortModel ports,
                  LatencyParameters latency = {}, int length = 20) {
  return make_request(t, algorithm, source, broadcast_destinations(t, source), length, ports, latency);
}

// ceil(log2 n) by doubling, independent of the planner's helper.
int ceil_log2(int n) {
  int k = 0;
  for (int power = 1; power < n; power *= 2) ++k;
  return k;
}

// Properties every unicast broadcast plan must have: every node except the source keeps exactly one
// copy, each worm is a unicast whose route is connected, uses links of the topology and is minimal,
// and every sender held the message before the step it sends in.
void expect_valid_unicast_broadcast(const Plan& plan) {
  const Topology& t = plan.request.topology;
  std::map<NodeId, int> received_in;  // node -> step
  for (const Worm& w : plan.worms) {
    ASSERT_EQ(w.kind, WormKind::kUnicast);
    ASSERT_EQ(w.keeps_copy.size(), 1u);
    ASSERT_EQ(w.header.destinations, w.keeps_copy);
    ASSERT_EQ(w.route.size(), w.hops.size() + 1);
    ASSERT_EQ(w.route.front(), w.sender);
    ASSERT_EQ(w.route.back(), w.keeps_copy.front());
    for (std::size_t i = 0; i < w.hops.size(); ++i) {
      ASSERT_EQ(w.hops[i].node, w.route[i]);
      ASSERT_EQ(t.neighbour(w.hops[i].node, w.hops[i].port), w.route[i + 1]);
    }
    ASSERT_EQ(static_cast<int>(w.hops.size()), t.distance(w.sender, w.keeps_copy.front())) << "route is not minimal";
    ASSERT_TRUE(received_in.emplace(w.keeps_copy.front(), w.step).second)
        << t.node_name(w.keeps_copy.front()) << " receives twice";
  }
  ASSERT_EQ(received_in.count(plan.request.source), 0u) << "the source receives its own message";
  ASSERT_EQ(received_in.size(), static_cast<std::size_t>(t.node_count() - 1));
  for (const Worm& w : plan.worms) {
    if (w.sender == plan.request.source) continue;
    ASSERT_LT(received_in.at(w.sender), w.step) << t.node_name(w.sender) << " sends before it holds the message";
  }
  expect_copies_only_at_destinations_and_relays_forward(plan, plan.request.algorithm + " on " + t.spec());
}

// (step, sender, port) -> worms: the number of worms a node injects on one port in one step.
int most_worms_per_port_and_step(const Plan& plan) {
  std::map<std::tuple<int, NodeId, int>, int> count;
  int most = 0;
  for (const Worm& w : plan.worms) most = std::max(most, ++count[{w.step, w.sender, w.port}]);
  return most;
}

// ---------------------------------------------------------------------------------------------
// Recursive Doubling

TEST(RecursiveDoubling, TakesTwoKStepsOnTwoToTheKMeshesV15) {
  for (int k = 3; k <= 6; ++k) {
    const int n = 1 << k;
    const Topology t = Topology::mesh({n, n});
    std::mt19937 pick(2024 + static_cast<unsigned>(k));
    std::vector<NodeId> sources = {0, at(t, n - 1, n - 1), at(t, n / 2, n / 2 - 1)};
    for (int i = 0; i < 5; ++i) sources.push_back(static_cast<NodeId>(pick() % static_cast<unsigned>(t.node_count())));
    for (NodeId s : sources) {
      const Plan plan = plan_broadcast_baseline(broadcast(t, kRecursiveDoublingAlgorithm, s, PortModel::one_port()));
      EXPECT_EQ(plan.metrics.steps, 2 * k) << t.spec() << " source " << t.node_name(s);  // V15: RD = 2k
    }
    EXPECT_EQ(recursive_doubling_steps(t), 2 * k);
  }
}

TEST(RecursiveDoubling, SendsToTheSameRelativePositionInTheOtherHalf) {
  // On 2^k x 2^k the step-j worm of the X phase goes from x to x XOR 2^(k-j) along the sender's
  // row; the Y phase does the same in y in steps k+1 .. 2k ([3], Barnett et al.).
  const int k = 4;
  const int n = 1 << k;
  const Topology t = Topology::mesh({n, n});
  const Plan plan =
      plan_broadcast_baseline(broadcast(t, kRecursiveDoublingAlgorithm, at(t, 5, 11), PortModel::one_port()));
  for (const Worm& w : plan.worms) {
    const Coord from = t.coord(w.sender);
    const Coord to = t.coord(w.keeps_copy.front());
    if (w.step <= k) {
      EXPECT_EQ(to[0], from[0] ^ (1 << (k - w.step)));
      EXPECT_EQ(to[1], from[1]);
      EXPECT_EQ(from[1], 11);  // the X phase stays in the source row
    } else {
      EXPECT_EQ(to[1], from[1] ^ (1 << (2 * k - w.step)));
      EXPECT_EQ(to[0], from[0]);
    }
  }
  EXPECT_EQ(plan.worms.size(), static_cast<std::size_t>(n * n - 1));
}

TEST(RecursiveDoubling, EveryNodeReceivesOnceOnAnyMeshFromEverySource) {
  // Non-power-of-two and 3D meshes: sum over dimensions of ceil(log2 size) steps, one worm per
  // sender per step on one port, straight routes along one dimension, no channel shared in a step.
  for (const char* spec : {"mesh:4x4", "mesh:5x3", "mesh:6x7", "mesh:2x9", "mesh:12x5", "mesh:3x3x5", "mesh:4x2x3"}) {
    const Topology t = Topology::parse(spec);
    int expected_steps = 0;
    for (int d = 0; d < t.dimensions(); ++d) expected_steps += ceil_log2(t.size(d));
    EXPECT_EQ(recursive_doubling_steps(t), expected_steps) << spec;
    for (NodeId s = 0; s < t.node_count(); ++s) {
      const Plan plan = plan_broadcast_baseline(broadcast(t, kRecursiveDoublingAlgorithm, s, PortModel::one_port()));
      SCOPED_TRACE(std::string(spec) + " source " + t.node_name(s));
      expect_valid_unicast_broadcast(plan);
      EXPECT_EQ(plan.metrics.steps, expected_steps);
      EXPECT_EQ(plan.metrics.stepwise_contention, 0);
      std::map<std::pair<int, NodeId>, int> per_step;
      for (const Worm& w : plan.worms) {
        EXPECT_EQ(++per_step[std::make_pair(w.step, w.sender)], 1);
        EXPECT_EQ(w.port, 0);
        EXPECT_EQ(w.header.mode, RoutingMode::kDimensionOrder);
        std::set<int> dims;
        for (const RouteHop& hop : w.hops) dims.insert(dimension_of(hop.port));
        EXPECT_EQ(dims.size(), 1u);
      }
    }
  }
}

TEST(RecursiveDoubling, AddressFieldsPartitionTheNetwork) {
  // A receiver's address field is the part it becomes responsible for: it contains the receiver,
  // the fields of one sender's worms are disjoint, and the nodes a receiver sends to lie in its field.
  const Topology t = Topology::parse("mesh:6x5");
  const Plan plan =
      plan_broadcast_baseline(broadcast(t, kRecursiveDoublingAlgorithm, at(t, 4, 1), PortModel::one_port()));
  std::map<NodeId, std::set<NodeId>> field;
  for (const Worm& w : plan.worms) {
    field[w.keeps_copy.front()] = std::set<NodeId>(w.address_field.begin(), w.address_field.end());
    EXPECT_TRUE(field[w.keeps_copy.front()].count(w.keeps_copy.front()));
  }
  for (const Worm& w : plan.worms) {
    if (w.sender == plan.request.source) continue;
    EXPECT_TRUE(field.at(w.sender).count(w.keeps_copy.front()))
        << t.node_name(w.sender) << " sends outside its field to " << t.node_name(w.keeps_copy.front());
  }
  std::size_t total = 0;
  for (const Worm& w : plan.worms) total += w.sender == plan.request.source ? w.address_field.size() : 0;
  EXPECT_EQ(total, static_cast<std::size_t>(t.node_count() - 1));  // the source's worms cover everyone else
}

TEST(RecursiveDoubling, LatencyFormulaMatchesV16) {
  // V16, RD column: eq. (6) with D = 2(2^k - 1), T3D parameters beta = 0.0033 us, alpha = gamma = 0.75 us.
  LatencyParameters t3d;
  t3d.alpha = t3d.gamma = t3d.mu = 0.75;
  t3d.beta = 0.0033;
  struct Row {
    int k;
    int length;
    double microseconds;
  };
  for (const Row& row : {Row{3, 100, 11.0262}, Row{3, 30, 9.6402}, Row{3, 210, 13.2042}, Row{2, 100, 7.3398},
                         Row{2, 30, 6.4158}, Row{2, 210, 8.7918}}) {
    EXPECT_NEAR(recursive_doubling_latency_formula(row.k, row.length, t3d), row.microseconds, 5e-5)
        << "k=" << row.k << " L=" << row.length;
  }
}

TEST(RecursiveDoubling, PlanLatencyReproducesEquationSixWhenRouterDelayIsBeta) {
  // The plan's contention-free latency follows the chain of fresh receivers: 2k unicasts of
  // alpha + L beta + gamma, covering n/2 + n/4 + ... + 1 hops per dimension, i.e. D = 2(n - 1)
  // hops at router_delay = beta each: exactly eq. (6) ([3]; D as in docs/algorithms.md).
  LatencyParameters t3d;
  t3d.alpha = t3d.gamma = t3d.mu = 0.75;
  t3d.beta = t3d.router_delay = 0.0033;
  for (int k : {2, 3, 4}) {
    const Topology t = Topology::mesh({1 << k, 1 << k});
    for (int length : {30, 100, 210}) {
      for (NodeId s : {NodeId{0}, static_cast<NodeId>(t.node_count() / 2 + 1)}) {
        const Plan plan =
            plan_broadcast_baseline(broadcast(t, kRecursiveDoublingAlgorithm, s, PortModel::one_port(), t3d, length));
        EXPECT_NEAR(plan.metrics.latency, recursive_doubling_latency_formula(k, length, t3d), 1e-9)
            << t.spec() << " L=" << length;
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Extended Dominating Node

TEST(Edn, TakesKPlusOneStepsOnTwoToTheKMeshesV15) {
  for (int k = 2; k <= 6; ++k) {
    const int n = 1 << k;
    const Topology t = Topology::mesh({n, n});
    std::vector<NodeId> sources;
    if (k <= 4) {
      for (NodeId s = 0; s < t.node_count(); ++s) sources.push_back(s);
    } else {
      std::mt19937 pick(77 + static_cast<unsigned>(k));
      sources = {0, at(t, n - 1, 0), at(t, n - 1, n - 1), at(t, 0, n - 1)};
      for (int i = 0; i < 12; ++i)
        sources.push_back(static_cast<NodeId>(pick() % static_cast<unsigned>(t.node_count())));
    }
    for (NodeId s : sources) {
      const Plan plan =
          plan_broadcast_baseline(broadcast(t, kExtendedDominatingNodeAlgorithm, s, PortModel::all_port()));
      ASSERT_EQ(plan.metrics.steps, k + 1) << t.spec() << " source " << t.node_name(s);  // V15: EDN = k+1
    }
  }
}

TEST(Edn, EveryNodeReceivesOnceWithoutContentionWithinAStep) {
  // Every source of 4x4 .. 16x16 and every fifth of 32x32: a valid broadcast, no channel shared by two worms of one
  // step, at most one worm per injection port per step, at most 3 worms per holder per step (3 alpha per level in eq.
  // 7); XY worms are dimension-ordered in class 0, YX worms source-routed in class 1.
  for (int k = 2; k <= 5; ++k) {
    const Topology t = Topology::mesh({1 << k, 1 << k});
    for (NodeId s = 0; s < t.node_count(); s += k <= 4 ? 1 : 5) {
      SCOPED_TRACE(t.spec() + " source " + t.node_name(s));
      const Plan plan =
          plan_broadcast_baseline(broadcast(t, kExtendedDominatingNodeAlgorithm, s, PortModel::all_port()));
      expect_valid_unicast_broadcast(plan);
      ASSERT_EQ(plan.metrics.stepwise_contention, 0);
      ASSERT_EQ(most_worms_per_port_and_step(plan), 1);
      std::map<std::pair<int, NodeId>, int> per_step;
      for (const Worm& w : plan.worms) {
        ASSERT_LE(++per_step[std::make_pair(w.step, w.sender)], w.step <= 2 ? 4 : 3);
        ASSERT_EQ(w.port, w.hops.front().port);
        const bool xy = w.header.mode == RoutingMode::kDimensionOrder;
        ASSERT_TRUE(xy || w.header.mode == RoutingMode::kSourceRouted);
        ASSERT_EQ(w.header.vc, xy ? 0 : 1);
        // XY: no X hop after a Y hop; YX: no Y hop after an X hop, and it must turn.
        bool seen_second = false;
        for (const RouteHop& hop : w.hops) {
          const bool first_dimension = dimension_of(hop.port) == (xy ? 0 : 1);
          ASSERT_FALSE(seen_second && first_dimension);
          seen_second = seen_second || !first_dimension;
          ASSERT_EQ(hop.vc, w.header.vc);
        }
      }
    }
  }
}

TEST(Edn, TopLevelNodesHoldAfterTwoStepsAndEachLevelQuadruplesTheHolders) {
  // The description ([3], eq. (7)): two steps bring the message to the four
  // highest-level EDNs; then every holder informs three new nodes per step for k - 1 steps, so
  // step s >= 3 delivers to 3 * 4^(s-2) nodes (one fewer when the source, already a holder, is
  // among them). 4 * 4^(k-1) = N.
  for (int k = 2; k <= 5; ++k) {
    const int n = 1 << k;
    const Topology t = Topology::mesh({n, n});
    const std::vector<NodeId> top = edn_top_level_nodes(t);
    ASSERT_EQ(std::set<NodeId>(top.begin(), top.end()).size(), 4u);
    for (NodeId s : {NodeId{0}, at(t, n / 2, n / 2), at(t, n - 1, 1), top[2]}) {
      const Plan plan =
          plan_broadcast_baseline(broadcast(t, kExtendedDominatingNodeAlgorithm, s, PortModel::all_port()));
      std::map<int, int> delivered;
      for (const Worm& w : plan.worms) {
        const NodeId r = w.keeps_copy.front();
        const bool is_top = std::find(top.begin(), top.end(), r) != top.end();
        EXPECT_EQ(w.step <= 2, is_top) << t.node_name(r) << " in step " << w.step;
        ++delivered[w.step];
      }
      EXPECT_GE(delivered[1], 1);
      EXPECT_GE(delivered[2], 1);
      for (int step = 3; step <= k + 1; ++step) {
        const int full = 3 * (1 << (2 * (step - 2)));
        EXPECT_TRUE(delivered[step] == full || delivered[step] == full - 1)
            << t.spec() << " step " << step << ": " << delivered[step];
      }
    }
  }
}

TEST(Edn, LatencyFormulaIsEquationSeven) {
  // Eq. (7) by hand, T3D parameters, k = 3, L = 100, d1 = 4, d2 = 10:
  // (k-1)(3a + bL + g + d1 b) = 2 (2.25 + 0.33 + 0.75 + 0.0132) = 6.6864
  // 3a + 2bL + 2g + d2 b      = 2.25 + 0.66 + 1.5 + 0.033     = 4.443      total 11.1294
  LatencyParameters t3d;
  t3d.alpha = t3d.gamma = t3d.mu = 0.75;
  t3d.beta = 0.0033;
  EXPECT_NEAR(extended_dominating_node_latency_formula(3, 100, 4, 10, t3d), 11.1294, 1e-9);
}

TEST(RecursiveDoublingAndEdn, RejectUnsupportedTopologiesPortsAndPartialDestinationSets) {
  const Topology mesh = Topology::mesh({8, 8});
  // EDN: square power-of-two 2D meshes of side >= 4, all-port.
  for (const char* spec : {"mesh:6x6", "mesh:8x4", "mesh:2x2", "torus:8x8", "mesh:4x4x4", "star:4"}) {
    const Topology t = Topology::parse(spec);
    try {
      plan_broadcast_baseline(broadcast(t, kExtendedDominatingNodeAlgorithm, 0, PortModel::all_port()));
      ADD_FAILURE() << "edn accepted " << spec;
    } catch (const UnsupportedError& e) {
      EXPECT_NE(std::string(e.what()).find(spec), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("power of two"), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(plan_broadcast_baseline(broadcast(mesh, kExtendedDominatingNodeAlgorithm, 0, PortModel::one_port())),
               UnsupportedError);
  EXPECT_THROW(plan_broadcast_baseline(broadcast(mesh, kExtendedDominatingNodeAlgorithm, 0, PortModel::d_port(3))),
               UnsupportedError);
  EXPECT_NO_THROW(plan_broadcast_baseline(broadcast(mesh, kExtendedDominatingNodeAlgorithm, 0, PortModel::d_port(4))));
  // RD: meshes only, any port model.
  for (const char* spec : {"torus:4x4", "star:4"}) {
    EXPECT_THROW(plan_broadcast_baseline(
                     broadcast(Topology::parse(spec), kRecursiveDoublingAlgorithm, 0, PortModel::one_port())),
                 UnsupportedError)
        << spec;
  }
  EXPECT_NO_THROW(plan_broadcast_baseline(broadcast(mesh, kRecursiveDoublingAlgorithm, 0, PortModel::all_port())));
  // Both are broadcasts.
  for (const char* name : {kRecursiveDoublingAlgorithm, kExtendedDominatingNodeAlgorithm}) {
    try {
      plan_broadcast_baseline(make_request(mesh, name, 0, {1, 2, 3}, 20, PortModel::all_port()));
      ADD_FAILURE() << name << " accepted three destinations";
    } catch (const RequestError& e) {
      EXPECT_NE(std::string(e.what()).find("all 63 nodes"), std::string::npos) << e.what();
    }
  }
  try {
    plan_broadcast_baseline(broadcast(mesh, kPcpAlgorithm, 0, PortModel::all_port()));
    ADD_FAILURE() << "accepted pcp";
  } catch (const SpecError& e) {
    EXPECT_NE(std::string(e.what()).find("rd, edn"), std::string::npos) << e.what();
  }
  EXPECT_THROW(edn_top_level_nodes(Topology::parse("mesh:6x6")), UnsupportedError);
  EXPECT_THROW(broadcast_destinations(mesh, 64), NodeError);
}

// ---------------------------------------------------------------------------------------------
// Network partitioning (np-d): our reading of Tseng, Wang and Ho (docs/algorithms.md).

TEST(NetworkPartitioning, TakesKPlusTwoStepsOnTwoToTheKMeshesV15) {
  for (int k = 1; k <= 5; ++k) {
    const int n = 1 << k;
    const Topology mesh = Topology::parse("mesh:" + std::to_string(n) + "x" + std::to_string(n));
    for (NodeId source : {0, at(mesh, n / 2, n / 2 - (n > 2 ? 1 : 0)), mesh.node_count() - 1, at(mesh, n - 1, 0)}) {
      const Plan p =
          plan_broadcast_baseline(broadcast(mesh, kNetworkPartitioningAlgorithm, source, PortModel::all_port()));
      EXPECT_EQ(p.metrics.steps, k + 2) << mesh.spec() << " from " << mesh.node_name(source);
      expect_copies_only_at_destinations_and_relays_forward(p, mesh.spec());
      // Every node but the source is delivered exactly once, in the last step, and holds all four
      // sub-messages: its own DDN's and its X neighbour's before, the two others in the delivery.
      std::map<NodeId, int> deliveries;
      for (const Worm& w : p.worms) {
        for (NodeId d : w.keeps_copy) ++deliveries[d];
      }
      EXPECT_EQ(deliveries.size(), static_cast<std::size_t>(mesh.node_count() - 1));
      for (const auto& [node, count] : deliveries) EXPECT_EQ(count, 1);
      for (const DestinationMetrics& d : p.metrics.destinations) EXPECT_EQ(d.step, k + 2);
    }
  }
}

TEST(NetworkPartitioning, EveryNodeReceivesItsDdnSubmessageOnceBeforeTheExchange) {
  const Topology mesh = Topology::parse("mesh:8x8");
  const NodeId source = at(mesh, 5, 2);
  const Plan p =
      plan_broadcast_baseline(broadcast(mesh, kNetworkPartitioningAlgorithm, source, PortModel::all_port(), {}, 23));
  // k = 3: phases 1 and 2 are steps 1 .. 3; each node but the source gets the sub-message of its own
  // DDN (row parity, column parity) once, from a node of that DDN or from the source.
  std::map<NodeId, int> own;
  for (const Worm& w : p.worms) {
    if (w.step > 3) continue;
    ASSERT_EQ(w.part_receivers.size(), 1u);
    const NodeId r = w.part_receivers[0];
    const Coord c = mesh.coord(r);
    const Coord from = mesh.coord(w.sender);
    if (w.sender != source) {
      EXPECT_EQ(c[0] % 2, from[0] % 2);
      EXPECT_EQ(c[1] % 2, from[1] % 2);
    }
    // 23 flits: sub-messages of 6, 6, 6 and 5 flits for DDNs 0..3.
    EXPECT_EQ(w.data_flits, (c[0] % 2) + 2 * (c[1] % 2) == 3 ? 5 : 6);
    ++own[r];
  }
  EXPECT_EQ(own.size(), 63u);
  for (const auto& [node, count] : own) EXPECT_EQ(count, 1) << mesh.node_name(node);
  // Steps 4 and 5 are one-hop worms inside the 2x2 blocks: X neighbour, then Y neighbour with two
  // sub-messages.
  for (const Worm& w : p.worms) {
    if (w.step <= 3) continue;
    ASSERT_EQ(w.hops.size(), 1u);
    const Coord a = mesh.coord(w.sender);
    const Coord b = mesh.coord(w.route.back());
    EXPECT_EQ(a[0] / 2, b[0] / 2);
    EXPECT_EQ(a[1] / 2, b[1] / 2);
    if (w.step == 4) {
      EXPECT_EQ(a[1], b[1]);
      EXPECT_EQ(w.data_flits, (a[0] % 2) + 2 * (a[1] % 2) == 3 ? 5 : 6);
    } else {
      EXPECT_EQ(a[0], b[0]);
      // the sender's and its X neighbour's: DDNs 0 and 1 (6 + 6) in even rows, 2 and 3 (6 + 5) in odd ones
      EXPECT_EQ(w.data_flits, a[1] % 2 == 0 ? 12 : 11);
    }
  }
}

TEST(NetworkPartitioning, FourByFourCornerLatencyDerivedByHand) {
  // mesh:4x4, source (0,0), L = 8 (four 2-flit sub-messages), alpha 10, gamma 5, beta 1, hop 1.
  // Representatives: (1,0), (0,1) and, column -1 being outside, (1,1). A sender's worms of a step
  // pay its copies (3 alpha = 30 when it sends three); ports +X 0, -X 1, +Y 2, -Y 3, and a worm
  // whose first hop's channel is taken in its step goes on the lowest free one.
  // Step 1: source -> (1,0) port 0, (0,1) port 2, (1,1) port 1 (first hop +X taken), all depart
  //         30 and free their port at 32; (1,0), (0,1) have their piece at 30+1+2+5 = 38, (1,1) at
  //         30+2+2+5 = 39.
  // Step 2: source -> (2,2) on port 1 from 32: departs 62, arrives 62+4+2+5 = 73.
  //         (1,1) -> (3,3) on port 1 from 39: departs 69, arrives 69+4+2+5 = 80.
  //         (0,1) -> (2,3) and (1,0) -> (3,2), port 1 from 38: depart 68, arrive 68+4+2+5 = 79.
  // Step 3: (2,3) -> (3,3): one copy, from 79: departs 89, arrives 89+1+2+5 = 97.
  //         (2,2) -> (3,2): from 73: departs 83, arrives 91.
  // Step 4: (3,2) -> (3,3) with 4 flits, from max(79, 91) = 91: departs 101, arrives 101+1+4+5 = 111.
  const Topology mesh = Topology::parse("mesh:4x4");
  LatencyParameters latency;
  latency.alpha = 10;
  latency.gamma = 5;
  latency.beta = 1;
  latency.router_delay = 1;
  const Plan p =
      plan_broadcast_baseline(broadcast(mesh, kNetworkPartitioningAlgorithm, 0, PortModel::all_port(), latency, 8));
  EXPECT_EQ(np_d_representatives(mesh, 0), (std::vector<NodeId>{0, at(mesh, 1, 0), at(mesh, 0, 1), at(mesh, 1, 1)}));
  const NodeId corner = at(mesh, 3, 3);
  for (const DestinationMetrics& d : p.metrics.destinations) {
    if (d.destination == corner) {
      EXPECT_DOUBLE_EQ(d.latency, 111.0);
      EXPECT_EQ(d.step, 4);
    }
  }
  // The source's three step-1 worms cannot all leave a corner on their own link: the diagonal
  // one shares (0,0) -> (1,0) with the worm to (1,0), on another injection channel.
  EXPECT_GE(p.metrics.stepwise_contention, 1);
  std::set<int> step_one_ports;
  for (const Worm& w : p.worms) {
    if (w.step == 1) step_one_ports.insert(w.port);
  }
  EXPECT_EQ(step_one_ports, (std::set<int>{0, 1, 2}));
}

TEST(NetworkPartitioning, DiagonalRepresentativeLeavesTheBlockWhenTheColumnExists) {
  const Topology mesh = Topology::parse("mesh:8x8");
  // Source (2,5), DDN 2 (x even, y odd): block columns 2..3, rows 4..5. Its X mate (3,5) is DDN 3,
  // its Y mate (2,4) DDN 0, and the diagonal DDN 1 is represented one column left of the block and
  // one row into it: (1,4). By DDN index: (2,4), (1,4), the source, (3,5).
  EXPECT_EQ(np_d_representatives(mesh, at(mesh, 2, 5)),
            (std::vector<NodeId>{at(mesh, 2, 4), at(mesh, 1, 4), at(mesh, 2, 5), at(mesh, 3, 5)}));
  // Then the source's three step-1 worms leave on -X, +X and -Y: their first links differ and no
  // shared channel involves two step-1 worms.
  const Plan p =
      plan_broadcast_baseline(broadcast(mesh, kNetworkPartitioningAlgorithm, at(mesh, 2, 5), PortModel::all_port()));
  std::set<Port> first_links;
  for (const Worm& w : p.worms) {
    if (w.step == 1) first_links.insert(w.hops.front().port);
  }
  EXPECT_EQ(first_links.size(), 3u);
  for (const SharedChannel& c : p.metrics.shared_channels) {
    EXPECT_FALSE(p.worms[c.first_worm].step == 1 && p.worms[c.second_worm].step == 1);
  }
}

TEST(NetworkPartitioning, EquationEightByHand) {
  // k = 3, d = 1: ceil(2 log_3 2) = 2, ceil(log_5 2) = 1; alpha (3-1+2+3+2+1) = 10,
  // gamma 9/4 + (3-1+2+2)/2 = 5.25, beta L (24+4-3) = 25.
  LatencyParameters p;
  p.alpha = 1;
  p.gamma = 1;
  p.beta = 1;
  EXPECT_DOUBLE_EQ(network_partitioning_latency_formula(3, 1, 1, p), 40.25);
  // d = 0: ceil(log_3 2) = 1, ceil(0) = 0: alpha 8, gamma 2.25 + 6 = 8.25, beta L 23; with the T3D
  // ratio alpha = gamma = 227, beta = 1, L = 100: 8*227 + 8.25*227 + 2300 = 5988.75.
  EXPECT_DOUBLE_EQ(network_partitioning_latency_formula(3, 0, 1, p), 39.25);
  p.alpha = 227;
  p.gamma = 227;
  EXPECT_DOUBLE_EQ(network_partitioning_latency_formula(3, 0, 100, p), 5988.75);
  EXPECT_THROW(network_partitioning_latency_formula(3, 4, 1, p), RequestError);
}

TEST(NetworkPartitioning, RejectsOtherMeshesPortModelsAndMulticasts) {
  EXPECT_THROW(plan_broadcast_baseline(
                   broadcast(Topology::parse("mesh:6x6"), kNetworkPartitioningAlgorithm, 0, PortModel::all_port())),
               UnsupportedError);
  EXPECT_THROW(plan_broadcast_baseline(
                   broadcast(Topology::parse("torus:4x4"), kNetworkPartitioningAlgorithm, 0, PortModel::all_port())),
               UnsupportedError);
  const Topology mesh = Topology::parse("mesh:4x4");
  EXPECT_THROW(plan_broadcast_baseline(broadcast(mesh, kNetworkPartitioningAlgorithm, 0, PortModel::two_port())),
               UnsupportedError);
  // L = 2: sub-messages 0 and 1 have a flit each, 2 and 3 none and are sent as one flit.
  const Plan short_message =
      plan_broadcast_baseline(broadcast(mesh, kNetworkPartitioningAlgorithm, 0, PortModel::all_port(), {}, 2));
  for (const Worm& w : short_message.worms) EXPECT_EQ(w.data_flits, w.step == 4 ? 2 : 1);
  EXPECT_THROW(plan_broadcast_baseline(make_request(mesh, kNetworkPartitioningAlgorithm, 0, {1, 2}, 20,
                                                    PortModel::all_port(), LatencyParameters{})),
               RequestError);
}

}  // namespace
}  // namespace wormcast::model
