// SPDX-License-Identifier: Apache-2.0
// CPR broadcasts: PCP on the all-port 2D mesh ([3]; V15-V18) and 3-DBS on the all-port 3D mesh
// ([4], Section 3.2, reading R1 of docs/algorithms.md "3-DBS"; V21-V22). Expected values come from
// the papers' worked examples (V-numbers, docs/algorithms.md) or are derived by hand in the comments.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "model/cpr_broadcast.hpp"
#include "model/errors.hpp"
#include "model/plan.hpp"
#include "verif/model/plan_properties.hpp"

namespace wormcast::model {
namespace {

NodeId at(const Topology& t, int x, int y, int z = 0) { return t.node_at(Coord{x, y, z}); }

std::vector<NodeId> everyone_but(const Topology& t, NodeId source) {
  std::vector<NodeId> others;
  for (NodeId n = 0; n < t.node_count(); ++n) {
    if (n != source) others.push_back(n);
  }
  return others;
}

Request broadcast(const Topology& t, const char* algorithm, NodeId source, int length = 4,
                  const LatencyParameters& latency = {}) {
  return make_request(t, algorithm, source, everyone_but(t, source), length, PortModel::all_port(), latency);
}

// The Cray T3D parameters of [3] (us): beta = 0.0033 per flit, alpha = gamma = mu = 0.75, and
// router_delay = beta so that a hop costs what eq. (5) charges for it.
LatencyParameters t3d() { return LatencyParameters{0.75, 0.75, 0.0033, 0.75, 0.0033}; }

// Non-empty directions of a line along one dimension from coordinate c in a dimension of size k.
int open_directions(int c, int k) { return (c > 0 ? 1 : 0) + (c < k - 1 ? 1 : 0); }
int reach(int c, int k) { return std::max(c, k - 1 - c); }

// Structural checks every CPR broadcast plan must pass: every other node keeps exactly one copy and
// the source none; every worm is a cf = 11 CPR line worm that runs straight over topology links to
// the mesh edge, which it addresses, and is delivered to every router after its sender (V17: 11 =
// deliver and pass, the addressed end router delivers and absorbs); processor-sent worms leave
// nodes that hold the message from an earlier step, spawned worms leave routers of their parent.
void expect_valid_cpr_broadcast(const Plan& plan) {
  const Topology& t = plan.request.topology;
  const std::string where =
      plan.request.algorithm + " on " + t.spec() + " from (" + t.node_name(plan.request.source) + ")";
  std::map<NodeId, int> copies;
  std::map<NodeId, int> received_in_step = {{plan.request.source, 0}};
  for (std::size_t i = 0; i < plan.worms.size(); ++i) {
    const Worm& w = plan.worms[i];
    ASSERT_EQ(w.kind, WormKind::kCprLine) << where;
    ASSERT_EQ(w.header.mode, RoutingMode::kCprLine) << where;
    ASSERT_EQ(w.header.control_field, 0b11) << where;
    ASSERT_FALSE(w.hops.empty()) << where;
    ASSERT_EQ(w.route.size(), w.hops.size() + 1) << where;
    ASSERT_EQ(w.route.front(), w.sender) << where;
    ASSERT_EQ(w.header.destinations, std::vector<NodeId>{w.route.back()}) << where;
    const Port direction = w.hops.front().port;
    for (std::size_t h = 0; h < w.hops.size(); ++h) {
      ASSERT_EQ(w.hops[h].node, w.route[h]) << where;
      ASSERT_EQ(w.hops[h].port, direction) << where << ": a CPR line never turns";
      ASSERT_EQ(t.neighbour(w.route[h], direction), w.route[h + 1]) << where;
    }
    ASSERT_EQ(t.neighbour(w.route.back(), direction), kNoNode) << where << ": a line ends at the mesh edge";
    ASSERT_EQ(w.keeps_copy, std::vector<NodeId>(w.route.begin() + 1, w.route.end())) << where;
    if (w.spawned_from) {
      ASSERT_LT(*w.spawned_from, i) << where;
      const Worm& parent = plan.worms[*w.spawned_from];
      ASSERT_EQ(parent.step, w.step) << where;
      ASSERT_NE(std::find(parent.route.begin() + 1, parent.route.end(), w.sender), parent.route.end()) << where;
    } else {
      ASSERT_TRUE(received_in_step.count(w.sender)) << where << ": (" << t.node_name(w.sender) << ") sends first";
      ASSERT_LT(received_in_step[w.sender], w.step) << where;
    }
    for (NodeId n : w.keeps_copy) {
      ++copies[n];
      received_in_step.try_emplace(n, w.step);
    }
  }
  EXPECT_EQ(copies.count(plan.request.source), 0u) << where;
  EXPECT_EQ(static_cast<int>(copies.size()), t.node_count() - 1) << where;
  expect_copies_only_at_destinations_and_relays_forward(plan, where);
  for (const auto& [node, count] : copies) EXPECT_EQ(count, 1) << where << ": (" << t.node_name(node) << ")";
  // Straight monotone lines: every copy travels a shortest path from the source.
  for (const DestinationMetrics& d : plan.metrics.destinations) EXPECT_EQ(d.path_hops, d.distance) << where;
}

int largest_path_hops(const Plan& plan) {
  int most = 0;
  for (const DestinationMetrics& d : plan.metrics.destinations) most = std::max(most, d.path_hops);
  return most;
}

int count_if_worms(const Plan& plan, bool spawned) {
  return static_cast<int>(std::count_if(plan.worms.begin(), plan.worms.end(),
                                        [&](const Worm& w) { return w.spawned_from.has_value() == spawned; }));
}

// ---------------------------------------------------------------------------------------------
// CPR control field ([3], Fig. 1, reading A: docs/algorithms.md "The control field")

TEST(PcpControlField, RouterActionsFollowReadingAV17) {
  // V17: at a router that is not addressed, 10 passes only, 11 delivers and passes, 01 delivers and
  // the worm stops, 00 passes (inferred); the addressed router delivers and absorbs in every case.
  const CprRouterAction pass{false, true};
  const CprRouterAction deliver_and_pass{true, true};
  const CprRouterAction deliver_and_stop{true, false};
  EXPECT_EQ(cpr_router_action(0b00, false), pass);
  EXPECT_EQ(cpr_router_action(0b01, false), deliver_and_stop);
  EXPECT_EQ(cpr_router_action(0b10, false), pass);
  EXPECT_EQ(cpr_router_action(0b11, false), deliver_and_pass);
  for (const std::uint8_t cf : {0b00, 0b01, 0b10, 0b11}) EXPECT_EQ(cpr_router_action(cf, true), deliver_and_stop);
}

TEST(PcpControlField, DeliveriesAlongALineFollowTheTable) {
  const std::vector<NodeId> line = {10, 11, 12, 13};  // sender 10, addressed router 13
  EXPECT_EQ(cpr_deliveries(line, 0b11), (std::vector<NodeId>{11, 12, 13}));
  EXPECT_EQ(cpr_deliveries(line, 0b10), (std::vector<NodeId>{13}));
  EXPECT_EQ(cpr_deliveries(line, 0b00), (std::vector<NodeId>{13}));  // ordinary unicast
  EXPECT_EQ(cpr_deliveries(line, 0b01), (std::vector<NodeId>{11}));  // stops at the first router
}

TEST(PcpControlField, FieldWiderThanTwoBitsIsRejected) {
  try {
    cpr_router_action(4, false);
    FAIL() << "expected RoutingError";
  } catch (const RoutingError& e) {
    EXPECT_NE(std::string(e.what()).find("4"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("0..3"), std::string::npos) << e.what();
  }
}

// ---------------------------------------------------------------------------------------------
// PCP ([3], Fig. 2)

TEST(Pcp, EightByEightCornerSourceSendsTwoWormsAndSevenSpineWormsV18) {
  // V18: 8x8 from (0,0): d_X = d_Y = 7; 2 source worms; 7 spine nodes x 1 X worm = 7 more.
  const Topology mesh = Topology::mesh({8, 8});
  const Plan plan = plan_cpr_broadcast(broadcast(mesh, kPcpAlgorithm, at(mesh, 0, 0)));
  expect_valid_cpr_broadcast(plan);
  ASSERT_EQ(plan.worms.size(), 9u);
  EXPECT_EQ(count_if_worms(plan, false), 2);
  EXPECT_EQ(count_if_worms(plan, true), 7);
  std::set<NodeId> spine_ends;
  for (const Worm& w : plan.worms) {
    EXPECT_EQ(w.step, 1);  // V15: router replication is no new message-passing step
    if (!w.spawned_from) continue;
    const Coord s = mesh.coord(w.sender);
    EXPECT_EQ(s[0], 0);
    EXPECT_EQ(w.route.back(), at(mesh, 7, s[1]));
    spine_ends.insert(w.route.back());
  }
  EXPECT_EQ(spine_ends.size(), 7u);
  EXPECT_EQ(plan.metrics.steps, 1);
  EXPECT_EQ(largest_path_hops(plan), 14);  // d_X + d_Y
  EXPECT_EQ(pcp_reach(mesh, at(mesh, 0, 0)), (PcpReach{7, 7}));
  EXPECT_EQ(plan.metrics.traffic, 63);  // every link of the tree carries the message once
}

TEST(Pcp, InteriorSourceSpineSpawnsBothXDirectionsAndSourceSendsFour) {
  // 5x4 from (2,1): the source sends -X, +X, -Y, +Y; the spine is (2,0), (2,2), (2,3), each
  // spawning one worm to the west end and one to the east end of its row.
  const Topology mesh = Topology::mesh({5, 4});
  const NodeId s = at(mesh, 2, 1);
  const Plan plan = plan_cpr_broadcast(broadcast(mesh, kPcpAlgorithm, s));
  expect_valid_cpr_broadcast(plan);
  std::multiset<std::pair<NodeId, NodeId>> got;  // (sender, addressed end)
  for (const Worm& w : plan.worms) got.insert({w.sender, w.header.destinations.front()});
  const std::multiset<std::pair<NodeId, NodeId>> expected = {
      {s, at(mesh, 0, 1)},
      {s, at(mesh, 4, 1)},
      {s, at(mesh, 2, 0)},
      {s, at(mesh, 2, 3)},
      {at(mesh, 2, 0), at(mesh, 0, 0)},
      {at(mesh, 2, 0), at(mesh, 4, 0)},
      {at(mesh, 2, 2), at(mesh, 0, 2)},
      {at(mesh, 2, 2), at(mesh, 4, 2)},
      {at(mesh, 2, 3), at(mesh, 0, 3)},
      {at(mesh, 2, 3), at(mesh, 4, 3)},
  };
  EXPECT_EQ(got, expected);
  for (const Worm& w : plan.worms) {
    if (w.spawned_from) {
      const Worm& parent = plan.worms[*w.spawned_from];
      EXPECT_EQ(parent.sender, s);
      EXPECT_EQ(dimension_of(parent.hops.front().port), 1)
          << "only the source column replicates (docs/algorithms.md, \"CPR broadcasts\", \"Resolved ambiguities\")";
      EXPECT_EQ(dimension_of(w.hops.front().port), 0);
    } else {
      EXPECT_EQ(w.prepared_copies, 4);
      EXPECT_EQ(w.control_field_changes, 2);
      EXPECT_EQ(w.port, w.hops.front().port);
    }
  }
}

TEST(Pcp, WormCountFollowsV18ForEverySourceOfSeveralMeshes) {
  // V18: worms = non-empty source directions + (spine nodes) x (non-empty X directions), every node
  // once, and the last node d_X + d_Y hops away (eq. 4).
  for (const auto& size : std::vector<std::vector<int>>{{2, 2}, {4, 4}, {8, 8}, {5, 7}, {2, 9}, {9, 2}, {6, 3}}) {
    const Topology mesh = Topology::mesh(size);
    const int nx = size[0];
    const int ny = size[1];
    for (NodeId s = 0; s < mesh.node_count(); ++s) {
      const Coord c = mesh.coord(s);
      const Plan plan = plan_cpr_broadcast(broadcast(mesh, kPcpAlgorithm, s));
      expect_valid_cpr_broadcast(plan);
      const int source_worms = open_directions(c[0], nx) + open_directions(c[1], ny);
      const int spine_worms = (ny - 1) * open_directions(c[0], nx);
      EXPECT_EQ(count_if_worms(plan, false), source_worms) << mesh.spec() << " (" << mesh.node_name(s) << ")";
      EXPECT_EQ(count_if_worms(plan, true), spine_worms) << mesh.spec() << " (" << mesh.node_name(s) << ")";
      EXPECT_EQ(largest_path_hops(plan), reach(c[0], nx) + reach(c[1], ny));
      EXPECT_EQ(plan.metrics.steps, 1);
      EXPECT_EQ(plan.metrics.traffic, mesh.node_count() - 1);
      EXPECT_EQ(plan.metrics.stepwise_contention, 0);
    }
  }
}

TEST(Pcp, OneMessagePassingStepOnEveryPowerOfTwoMeshV15) {
  // V15 (Fig. 3): PCP takes 1 step on 2^k x 2^k, k = 3..9, whatever the size.
  std::mt19937 rng(15);
  for (int k = 3; k <= 9; ++k) {
    const int side = 1 << k;
    const Topology mesh = Topology::mesh({side, side});
    std::uniform_int_distribution<int> coordinate(0, side - 1);
    for (const NodeId s : {at(mesh, 0, 0), at(mesh, coordinate(rng), coordinate(rng))}) {
      const Plan plan = plan_cpr_broadcast(broadcast(mesh, kPcpAlgorithm, s));
      EXPECT_EQ(plan.metrics.steps, 1) << mesh.spec();
      EXPECT_EQ(static_cast<int>(plan.metrics.destinations.size()), side * side - 1) << mesh.spec();
      const Coord c = mesh.coord(s);
      EXPECT_EQ(largest_path_hops(plan), reach(c[0], side) + reach(c[1], side)) << mesh.spec();
    }
  }
}

TEST(Pcp, EquationFiveReproducesV16) {
  // V16, eq. (5) with M = 4 for every source (the paper's formula, corners included) and the T3D
  // parameters: tau = 0.0033 (d_X + d_Y + L) + 5.25 us. Values printed to 4 decimals.
  const Topology m8 = Topology::mesh({8, 8});
  const Topology m4 = Topology::mesh({4, 4});
  EXPECT_NEAR(pcp_latency_eq5(m8, at(m8, 0, 0), 100, t3d()), 5.6262, 5e-5);
  EXPECT_NEAR(pcp_latency_eq5(m8, at(m8, 0, 0), 30, t3d()), 5.3952, 5e-5);
  EXPECT_NEAR(pcp_latency_eq5(m8, at(m8, 0, 0), 210, t3d()), 5.9892, 5e-5);
  EXPECT_NEAR(pcp_latency_eq5(m4, at(m4, 0, 0), 100, t3d()), 5.5998, 5e-5);
  EXPECT_NEAR(pcp_latency_eq5(m4, at(m4, 0, 0), 30, t3d()), 5.3688, 5e-5);
  EXPECT_NEAR(pcp_latency_eq5(m4, at(m4, 0, 0), 210, t3d()), 5.9628, 5e-5);
  for (const auto& [mesh, mean] : {std::pair{m8, 5.6163}, std::pair{m4, 5.5965}}) {
    double sum = 0.0;
    for (NodeId s = 0; s < mesh.node_count(); ++s) sum += pcp_latency_eq5(mesh, s, 100, t3d());
    EXPECT_NEAR(sum / mesh.node_count(), mean, 5e-5) << mesh.spec() << ": mean over sources";
  }
}

TEST(Pcp, PlanLatencyIsEquationFiveForFourDirectionSources) {
  // [3], eq. (5), router_delay = beta: for every source off the edges of the 8x8 mesh the
  // source prepares 4 copies (4 alpha), sets cf twice (2 mu), and the last node is d_X + d_Y hops
  // away, reached by a spine worm and the X worm it spawns with no start-up at the spine. By hand,
  // (3,4): d_X = max(4,3) = 4, d_Y = max(3,4) = 4: 0.0033 (8 + 100) + 5.25 = 5.6064 us.
  const Topology mesh = Topology::mesh({8, 8});
  EXPECT_NEAR(plan_cpr_broadcast(broadcast(mesh, kPcpAlgorithm, at(mesh, 3, 4), 100, t3d())).metrics.latency, 5.6064,
              1e-9);
  for (int x = 1; x < 7; ++x) {
    for (int y = 1; y < 7; ++y) {
      const NodeId s = at(mesh, x, y);
      const Plan plan = plan_cpr_broadcast(broadcast(mesh, kPcpAlgorithm, s, 100, t3d()));
      const double expected = 0.0033 * (reach(x, 8) + reach(y, 8) + 100) + 4 * 0.75 + 2 * 0.75 + 0.75;
      EXPECT_NEAR(plan.metrics.latency, expected, 1e-9) << "(" << x << "," << y << ")";
      EXPECT_NEAR(plan.metrics.latency, pcp_latency_eq5(mesh, s, 100, t3d()), 1e-9);
      // Every node: the same start-up, its own distance.
      for (const DestinationMetrics& d : plan.metrics.destinations) {
        EXPECT_NEAR(d.latency, 0.0033 * (d.distance + 100) + 5.25, 1e-9);
      }
    }
  }
}

TEST(Pcp, EdgeSourcesPrepareOnlyTheirNonEmptyDirections) {
  // [3]'s edge note: a source on an edge prepares M = its non-empty directions, so a corner
  // source of 8x8 prepares 2 copies, 2 alpha fewer than V16's M = 4 figure: 5.6262 - 1.5 = 4.1262.
  const Topology mesh = Topology::mesh({8, 8});
  const Plan corner = plan_cpr_broadcast(broadcast(mesh, kPcpAlgorithm, at(mesh, 0, 0), 100, t3d()));
  EXPECT_NEAR(corner.metrics.latency, 4.1262, 5e-5);
  EXPECT_NEAR(corner.metrics.latency, pcp_latency_eq5(mesh, at(mesh, 0, 0), 100, t3d(), 2), 1e-9);
  const Plan edge = plan_cpr_broadcast(broadcast(mesh, kPcpAlgorithm, at(mesh, 0, 3), 100, t3d()));
  EXPECT_NEAR(edge.metrics.latency, pcp_latency_eq5(mesh, at(mesh, 0, 3), 100, t3d(), 3), 1e-9);
}

TEST(Pcp, SpawnedWormsPayNoStartUpAtTheSpine) {
  // alpha 10, gamma 5, beta 2, mu 3, router delay 1, L = 4 on 4x4 from (1,1). The source's worms
  // leave at 4*10 + 2*3 = 46; a copy h hops from the source arrives at 46 + h + 4*2 + 5 = 59 + h,
  // including those a spine router spawned: (1,3) at 61 and, 2 hops further, (3,3) at 63; (0,0) via
  // the spine router (1,0) at 61. A spine node's own copy (gamma, L beta) does not delay its X worms.
  const Topology mesh = Topology::mesh({4, 4});
  const LatencyParameters p{10, 5, 2, 3, 1};
  const Plan plan = plan_cpr_broadcast(broadcast(mesh, kPcpAlgorithm, at(mesh, 1, 1), 4, p));
  for (const DestinationMetrics& d : plan.metrics.destinations) {
    EXPECT_DOUBLE_EQ(d.latency, 59.0 + d.distance) << "(" << mesh.node_name(d.destination) << ")";
  }
  EXPECT_DOUBLE_EQ(plan.metrics.latency, 63.0);
}

TEST(Pcp, RandomMeshesAndSourcesDeliverOnceAlongStraightLines) {
  std::mt19937 rng(20021);
  std::uniform_int_distribution<int> side(2, 16);
  for (int trial = 0; trial < 2000; ++trial) {
    const Topology mesh = Topology::mesh({side(rng), side(rng)});
    const NodeId s = std::uniform_int_distribution<NodeId>(0, mesh.node_count() - 1)(rng);
    const Plan plan = plan_cpr_broadcast(broadcast(mesh, kPcpAlgorithm, s));
    expect_valid_cpr_broadcast(plan);
    if (HasFatalFailure()) return;
    const Coord c = mesh.coord(s);
    ASSERT_EQ(plan.metrics.steps, 1);
    ASSERT_EQ(largest_path_hops(plan), reach(c[0], mesh.size(0)) + reach(c[1], mesh.size(1)));
    ASSERT_TRUE(replicates_in_routers(plan));  // the spine always has a node: Ny >= 2
  }
}

TEST(Pcp, ConcurrentBroadcastsAreFlaggedWhenAnyReplicatesInRouters) {
  // [3]: spine worms replicate in lock step; two broadcasts in flight can deadlock.
  const Topology m2 = Topology::mesh({4, 4});
  const Topology m3 = Topology::mesh({3, 3, 3});
  const Plan pcp = plan_cpr_broadcast(broadcast(m2, kPcpAlgorithm, at(m2, 1, 1)));
  const Plan dbs = plan_cpr_broadcast(broadcast(m3, kThreeDbsAlgorithm, at(m3, 1, 1, 1)));
  EXPECT_TRUE(replicates_in_routers(pcp));
  EXPECT_FALSE(replicates_in_routers(dbs));
  EXPECT_FALSE(concurrent_broadcasts_may_deadlock({pcp}));
  EXPECT_TRUE(concurrent_broadcasts_may_deadlock({pcp, pcp}));
  EXPECT_TRUE(concurrent_broadcasts_may_deadlock({dbs, pcp}));
  EXPECT_FALSE(concurrent_broadcasts_may_deadlock({dbs, dbs}));
}

TEST(Pcp, BadRequestsAreRejectedWithTypedErrors) {
  const Topology mesh = Topology::mesh({4, 4});
  const auto expect_message = [](const std::exception& e, const std::string& part) {
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
  };
  try {  // not a broadcast
    plan_cpr_broadcast(make_request(mesh, kPcpAlgorithm, 0, {1, 2}, 4, PortModel::all_port()));
    FAIL();
  } catch (const RequestError& e) {
    expect_message(e, "all 15 nodes");
  }
  try {
    plan_cpr_broadcast(broadcast(Topology::torus({4, 4}), kPcpAlgorithm, 0));
    FAIL();
  } catch (const UnsupportedError& e) {
    expect_message(e, "torus:4x4");
    expect_message(e, "2D mesh");
  }
  try {
    plan_cpr_broadcast(broadcast(Topology::mesh({3, 3, 3}), kPcpAlgorithm, 0));
    FAIL();
  } catch (const UnsupportedError& e) {
    expect_message(e, "mesh:3x3x3");
  }
  try {
    plan_cpr_broadcast(make_request(mesh, kPcpAlgorithm, 0, everyone_but(mesh, 0), 4, PortModel::one_port()));
    FAIL();
  } catch (const UnsupportedError& e) {
    expect_message(e, "one-port");
    expect_message(e, "all-port");
  }
  try {
    plan_cpr_broadcast(broadcast(mesh, "pbr", 0));
    FAIL();
  } catch (const SpecError& e) {
    expect_message(e, "'pbr'");
    expect_message(e, "pcp, 3dbs");
  }
  EXPECT_THROW(plan_cpr_broadcast(broadcast(mesh, kThreeDbsAlgorithm, 0)), UnsupportedError);
}

// ---------------------------------------------------------------------------------------------
// 3-DBS ([4], Section 3.2, reading R1)

class ThreeDbsFourCubed : public ::testing::Test {
 protected:
  const Topology mesh = Topology::mesh({4, 4, 4});
  const NodeId s = at(mesh, 1, 1, 1);
};

TEST_F(ThreeDbsFourCubed, PartitionMatchesV21) {
  // V21: |D_XS| = 15, |D_XR| = 32 (x = 2, 3), |D_XL| = 16 (x = 0); D_ZU = [(1,1,2),(1,1,3)],
  // D_ZL = [(1,1,0)]; D_YU = {(1,2,z),(1,3,z)} (8 nodes), D_YL = {(1,0,z)} (4 nodes).
  const ThreeDbsPartition part = three_dbs_partition(mesh, s);
  EXPECT_EQ(part.d_xs.size(), 15u);
  EXPECT_EQ(part.d_xr.size(), 32u);
  EXPECT_EQ(part.d_xl.size(), 16u);
  for (NodeId n : part.d_xr) EXPECT_GE(mesh.coord(n)[0], 2);
  for (NodeId n : part.d_xl) EXPECT_EQ(mesh.coord(n)[0], 0);
  for (NodeId n : part.d_xs) EXPECT_EQ(mesh.coord(n)[0], 1);
  EXPECT_EQ(part.d_zu, (std::vector<NodeId>{at(mesh, 1, 1, 2), at(mesh, 1, 1, 3)}));
  EXPECT_EQ(part.d_zl, (std::vector<NodeId>{at(mesh, 1, 1, 0)}));
  std::set<NodeId> yu;
  std::set<NodeId> yl;
  for (int z = 0; z < 4; ++z) {
    yu.insert({at(mesh, 1, 2, z), at(mesh, 1, 3, z)});
    yl.insert(at(mesh, 1, 0, z));
  }
  EXPECT_EQ(std::set<NodeId>(part.d_yu.begin(), part.d_yu.end()), yu);
  EXPECT_EQ(std::set<NodeId>(part.d_yl.begin(), part.d_yl.end()), yl);
  EXPECT_EQ(part.d_yu.size(), 8u);
  EXPECT_EQ(part.d_yl.size(), 4u);
  // Step 3: D_YU by y ascending (ties by z, our choice).
  EXPECT_EQ(part.d_yu.front(), at(mesh, 1, 2, 0));
  EXPECT_EQ(part.d_yu.back(), at(mesh, 1, 3, 3));
  for (std::size_t i = 1; i < part.d_yu.size(); ++i) {
    EXPECT_LE(mesh.coord(part.d_yu[i - 1])[1], mesh.coord(part.d_yu[i])[1]);
  }
}

TEST_F(ThreeDbsFourCubed, XyzTreeCoversEveryNodeOnceInThreeLinePhasesV22) {
  // V22: all 64 nodes once, maximum hop distance 6, line phases X -> Y -> Z, the source issues 6.
  const Plan plan = plan_cpr_broadcast(broadcast(mesh, kThreeDbsAlgorithm, s));
  expect_valid_cpr_broadcast(plan);
  EXPECT_EQ(largest_path_hops(plan), 6);
  EXPECT_EQ(plan.metrics.steps, 3);
  int from_source = 0;
  std::set<Port> source_ports;
  for (const Worm& w : plan.worms) {
    EXPECT_FALSE(w.spawned_from.has_value()) << "3-DBS re-injects: every line is a send";
    const int d = dimension_of(w.hops.front().port);
    if (w.sender == s) {
      ++from_source;
      source_ports.insert(w.port);
      EXPECT_EQ(w.step, 1);
    } else {
      // Phase X -> Y -> Z: a Y line starts on the X line, a Z line on a Y line or the X line.
      const Coord c = mesh.coord(w.sender);
      EXPECT_GE(d, 1);
      EXPECT_EQ(c[2], 1) << "lines start in the source's z plane";
      if (d == 1) {
        EXPECT_EQ(c[1], 1) << "Y lines start on the X line";
      }
      EXPECT_EQ(w.step, (c[0] != 1 ? 1 : 0) + (c[1] != 1 ? 1 : 0) + 1);
    }
  }
  EXPECT_EQ(from_source, 6);
  EXPECT_EQ(source_ports, (std::set<Port>{0, 1, 2, 3, 4, 5}));
}

TEST_F(ThreeDbsFourCubed, EachSourceLineReachesExactlyItsPartitionSet) {
  // [4], Section 3.2, step 4: the source's six messages serve D_XR, D_XL, D_YU, D_YL, D_ZU and D_ZL.
  const Plan plan = plan_cpr_broadcast(broadcast(mesh, kThreeDbsAlgorithm, s));
  std::map<NodeId, std::size_t> delivered_by;
  for (std::size_t i = 0; i < plan.worms.size(); ++i) {
    for (NodeId n : plan.worms[i].keeps_copy) delivered_by[n] = i;
  }
  std::map<Port, std::set<NodeId>> subtree;  // by the source worm's direction
  for (const auto& [node, worm] : delivered_by) {
    std::size_t w = worm;
    while (plan.worms[w].sender != s) w = delivered_by.at(plan.worms[w].sender);
    subtree[plan.worms[w].hops.front().port].insert(node);
  }
  const ThreeDbsPartition part = three_dbs_partition(mesh, s);
  const auto as_set = [](const std::vector<NodeId>& v) { return std::set<NodeId>(v.begin(), v.end()); };
  EXPECT_EQ(subtree[port_of(0, false)], as_set(part.d_xr));
  EXPECT_EQ(subtree[port_of(0, true)], as_set(part.d_xl));
  EXPECT_EQ(subtree[port_of(1, false)], as_set(part.d_yu));
  EXPECT_EQ(subtree[port_of(1, true)], as_set(part.d_yl));
  EXPECT_EQ(subtree[port_of(2, false)], as_set(part.d_zu));
  EXPECT_EQ(subtree[port_of(2, true)], as_set(part.d_zl));
}

TEST_F(ThreeDbsFourCubed, LatencyIsThreeStartUpPhasesPlusTheFarthestDistance) {
  // alpha 10, gamma 5, beta 2, router delay 1, L = 4: each phase costs 10 + 8 + 5 = 23 plus its
  // hops; (3,3,3) is reached by 2 X hops, 2 Y hops and 2 Z hops in 3 phases: 3 * 23 + 6 = 75.
  const Plan plan = plan_cpr_broadcast(broadcast(mesh, kThreeDbsAlgorithm, s, 4, LatencyParameters{10, 5, 2, 3, 1}));
  EXPECT_DOUBLE_EQ(plan.metrics.latency, 75.0);
  for (const DestinationMetrics& d : plan.metrics.destinations) {
    const Coord c = mesh.coord(d.destination);
    const int phases = (c[0] != 1 ? 1 : 0) + (c[1] != 1 ? 1 : 0) + (c[2] != 1 ? 1 : 0);  // an X, Y, Z line each
    EXPECT_DOUBLE_EQ(d.latency, 23.0 * phases + d.distance) << "(" << mesh.node_name(d.destination) << ")";
  }
}

TEST(ThreeDbs, RandomMeshesAndSourcesDeliverOnceInThreePhases) {
  // Lines: the X lines of the source, +-Y lines from each of the Nx X-line nodes, +-Z lines from each
  // of the Nx * Ny nodes of the source's z plane.
  std::mt19937 rng(30032);
  std::uniform_int_distribution<int> side(2, 7);
  for (int trial = 0; trial < 2000; ++trial) {
    const std::vector<int> size = {side(rng), side(rng), side(rng)};
    const Topology mesh = Topology::mesh(size);
    const NodeId s = std::uniform_int_distribution<NodeId>(0, mesh.node_count() - 1)(rng);
    const Coord c = mesh.coord(s);
    const Plan plan = plan_cpr_broadcast(broadcast(mesh, kThreeDbsAlgorithm, s));
    expect_valid_cpr_broadcast(plan);
    if (HasFatalFailure()) return;
    const int lines = open_directions(c[0], size[0]) + size[0] * open_directions(c[1], size[1]) +
                      size[0] * size[1] * open_directions(c[2], size[2]);
    ASSERT_EQ(static_cast<int>(plan.worms.size()), lines) << mesh.spec();
    ASSERT_EQ(plan.metrics.steps, 3) << mesh.spec();
    ASSERT_EQ(largest_path_hops(plan), reach(c[0], size[0]) + reach(c[1], size[1]) + reach(c[2], size[2]));
    ASSERT_EQ(plan.metrics.stepwise_contention, 0);
    ASSERT_EQ(plan.metrics.depth_contention, 0);
  }
}

TEST(ThreeDbs, BadRequestsAreRejectedWithTypedErrors) {
  const Topology cube = Topology::mesh({3, 3, 3});
  EXPECT_THROW(three_dbs_partition(Topology::mesh({3, 3}), 0), UnsupportedError);
  EXPECT_THROW(three_dbs_partition(cube, 27), NodeError);
  try {
    plan_cpr_broadcast(broadcast(Topology::torus({3, 3, 3}), kThreeDbsAlgorithm, 0));
    FAIL();
  } catch (const UnsupportedError& e) {
    EXPECT_NE(std::string(e.what()).find("3D mesh"), std::string::npos) << e.what();
  }
  EXPECT_THROW(plan_cpr_broadcast(make_request(cube, kThreeDbsAlgorithm, 0, {1}, 4, PortModel::all_port())),
               RequestError);
  EXPECT_THROW(
      plan_cpr_broadcast(make_request(cube, kThreeDbsAlgorithm, 0, everyone_but(cube, 0), 4, PortModel::two_port())),
      UnsupportedError);
}

}  // namespace
}  // namespace wormcast::model
