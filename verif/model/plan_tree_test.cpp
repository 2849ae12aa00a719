// SPDX-License-Identifier: Apache-2.0
// Store-and-forward multicast trees of the thesis ([5], Chapter 3 and Section 4.2.1; V24-V35, V39,
// V42): VH, DIAG, DDS and MIN on 2D/3D meshes and tori. Expected values come from the worked
// examples or are derived by hand in the comments; the random tests check the thesis's bounds and
// the plan's structure with fixed seeds.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "model/errors.hpp"
#include "model/plan.hpp"
#include "model/tree_multicast.hpp"
#include "verif/model/plan_properties.hpp"

namespace wormcast::model {
namespace {

using Edge = std::pair<NodeId, NodeId>;

NodeId at(const Topology& t, int x, int y, int z = 0) { return t.node_at(Coord{x, y, z}); }

Request tree_request(const Topology& t, const std::string& algorithm, const std::vector<Coord>& destinations,
                     Coord source = {}, PortModel ports = PortModel::one_port()) {
  std::vector<NodeId> ids;
  for (const Coord& c : destinations) ids.push_back(t.node_at(c));
  return make_request(t, algorithm, t.node_at(source), ids, 1, ports);
}

// The per-destination hop times (step of the delivering worm), by coordinate.
std::map<Coord, int> hop_times(const Plan& plan) {
  std::map<Coord, int> times;
  for (const DestinationMetrics& d : plan.metrics.destinations)
    times[plan.request.topology.coord(d.destination)] = d.step;
  return times;
}

std::set<Edge> edges_of(const Plan& plan) {
  std::set<Edge> edges;
  for (const Worm& w : plan.worms) edges.insert({w.sender, w.route.back()});
  return edges;
}

// The links of the thesis's "a => b": X, then Y, then Z, one unit step at a time toward b, never
// across a wraparound link (the thesis lists wraps separately).
std::vector<Edge> straight_path(const Topology& t, Coord a, const Coord& b) {
  std::vector<Edge> edges;
  for (std::size_t d = 0; d < 3; ++d) {
    while (a[d] != b[d]) {
      Coord next = a;
      next[d] += b[d] > a[d] ? 1 : -1;
      edges.emplace_back(t.node_at(a), t.node_at(next));
      a = next;
    }
  }
  return edges;
}

std::set<Edge> paths(const Topology& t, const std::vector<std::pair<Coord, Coord>>& listed) {
  std::set<Edge> edges;
  for (const auto& [a, b] : listed) {
    for (const Edge& e : straight_path(t, a, b)) edges.insert(e);
  }
  return edges;
}

// ---------------------------------------------------------------------------------------------
// Worked examples of the thesis.

// V24 (thesis 3.2.1.1, Figs. 3.2.1.1/3.2.1.3): VH 29 links; the diagonal tree 15 = D_max, since
// the four destinations lie on one monotone chain.
TEST(Vh, VhAndDiagTrafficMatchV24OnTenByTenMesh) {
  const Topology mesh = Topology::mesh({10, 10});
  const std::vector<Coord> d = {{2, 3, 0}, {3, 5, 0}, {4, 6, 0}, {6, 9, 0}};
  EXPECT_EQ(plan_tree_multicast(tree_request(mesh, kVhAlgorithm, d)).metrics.traffic, 29);
  EXPECT_EQ(plan_tree_multicast(tree_request(mesh, kDiagAlgorithm, d)).metrics.traffic, 15);
}

class TreeMulticastEightByEight : public ::testing::Test {
 protected:
  const Topology mesh = Topology::mesh({8, 8});
  const Topology torus = Topology::torus({8, 8});
  // Example 3.2.1.1: D = {(0,2),(3,0),(4,0),(4,6),(6,6),(7,4)}.
  const std::vector<Coord> d = {{0, 2, 0}, {3, 0, 0}, {4, 0, 0}, {4, 6, 0}, {6, 6, 0}, {7, 4, 0}};
  NodeId m(int x, int y) const { return at(mesh, x, y); }
};

TEST_F(TreeMulticastEightByEight, DiagStemAttachmentsTrafficAndTimesMatchV25) {
  const Request r = tree_request(mesh, kDiagAlgorithm, d);
  const MulticastTree tree = build_multicast_tree(r);
  const std::vector<NodeId> stem = {m(0, 0), m(1, 0), m(1, 1), m(2, 1), m(2, 2), m(3, 2), m(3, 3),
                                    m(4, 3), m(4, 4), m(5, 4), m(5, 5), m(6, 5), m(6, 6), m(7, 6)};
  EXPECT_EQ(tree.zones[0].stem, stem);
  // Sorted by distance: d1..d6 of the thesis; (6,6) is on the stem.
  const std::vector<TreeAttachment> attachments = {{m(0, 2), m(0, 0)}, {m(3, 0), m(1, 0)}, {m(4, 0), m(3, 0)},
                                                   {m(4, 6), m(4, 4)}, {m(7, 4), m(5, 4)}, {m(6, 6), m(6, 6)}};
  EXPECT_EQ(tree.attachments, attachments);

  const Plan plan = plan_tree_multicast(r);
  EXPECT_EQ(plan.metrics.traffic, 21);
  EXPECT_EQ(plan.metrics.steps, 12);
  EXPECT_EQ(tree.time, 12);
  for (const Worm& w : plan.worms) EXPECT_NE(w.route.back(), m(7, 6)) << "the stem's tail (7,6) is pruned";
  const std::map<Coord, int> times = {{{0, 2, 0}, 3},  {{3, 0, 0}, 4},  {{4, 0, 0}, 5},
                                      {{4, 6, 0}, 11}, {{6, 6, 0}, 12}, {{7, 4, 0}, 12}};
  EXPECT_EQ(hop_times(plan), times);
}

TEST_F(TreeMulticastEightByEight, VhTrafficAndTimesMatchV26) {
  const Plan plan = plan_tree_multicast(tree_request(mesh, kVhAlgorithm, d));
  EXPECT_EQ(plan.metrics.traffic, 25);
  EXPECT_EQ(plan.metrics.steps, 13);
  const std::map<Coord, int> times = {{{0, 2, 0}, 3},  {{3, 0, 0}, 3},  {{4, 0, 0}, 4},
                                      {{4, 6, 0}, 11}, {{6, 6, 0}, 13}, {{7, 4, 0}, 11}};
  EXPECT_EQ(hop_times(plan), times);
}

TEST_F(TreeMulticastEightByEight, DdsOrderAttachmentsTrafficAndTimeMatchV27) {
  std::vector<Coord> order = d;
  std::sort(order.begin(), order.end(), [](const Coord& a, const Coord& b) { return dds_precedes(a, b, 2); });
  const std::vector<Coord> expected_order = {{0, 2, 0}, {3, 0, 0}, {4, 0, 0}, {4, 6, 0}, {7, 4, 0}, {6, 6, 0}};
  EXPECT_EQ(order, expected_order);
  // The scan meets them in the same order.
  std::vector<Coord> scanned;
  for (const Coord& c : dds_scan_order(Coord{8, 8, 1}, 2)) {
    if (std::find(d.begin(), d.end(), c) != d.end()) scanned.push_back(c);
  }
  EXPECT_EQ(scanned, expected_order);

  const Request r = tree_request(mesh, kDdsAlgorithm, d);
  // (6,6) <- (6,4): a tie with (4,6) at distance 2, broken lexicographically largest (docs/algorithms.md).
  const std::vector<TreeAttachment> attachments = {{m(0, 2), m(0, 0)}, {m(3, 0), m(0, 0)}, {m(4, 0), m(3, 0)},
                                                   {m(4, 6), m(4, 0)}, {m(7, 4), m(4, 4)}, {m(6, 6), m(6, 4)}};
  EXPECT_EQ(build_multicast_tree(r).attachments, attachments);
  const Plan plan = plan_tree_multicast(r);
  EXPECT_EQ(plan.metrics.traffic, 17);
  EXPECT_EQ(plan.metrics.steps, 13);
}

// V28: the 8x8 torus in four 4x4 zones; subtrees and wraps as printed in thesis 3.2.1.4.
TEST_F(TreeMulticastEightByEight, DiagTorusZonesSubtreesAndWrapsMatchV28) {
  const Request r = tree_request(torus, kDiagAlgorithm, d);
  for (NodeId v = 0; v < torus.node_count(); ++v) {
    const Coord c = torus.coord(v);
    const int expected = 1 + (c[0] >= 4 ? 1 : 0) + (c[1] >= 4 ? 2 : 0);  // M1..M4
    EXPECT_EQ(tree_zone_of(torus, r.source, v), expected) << torus.node_name(v);
  }
  const MulticastTree tree = build_multicast_tree(r);
  ASSERT_EQ(tree.zones.size(), 4u);
  EXPECT_EQ(tree.zones[0].origin, at(torus, 0, 0));
  EXPECT_EQ(tree.zones[1].origin, at(torus, 7, 0));
  EXPECT_EQ(tree.zones[2].origin, at(torus, 0, 7));
  EXPECT_EQ(tree.zones[3].origin, at(torus, 7, 7));

  const Plan plan = plan_tree_multicast(r);
  std::set<Edge> expected = paths(torus, {{{0, 0, 0}, {0, 2, 0}},
                                          {{0, 0, 0}, {3, 0, 0}},
                                          {{7, 0, 0}, {4, 0, 0}},
                                          {{7, 7, 0}, {6, 6, 0}},
                                          {{7, 7, 0}, {7, 4, 0}},
                                          {{6, 6, 0}, {4, 6, 0}}});
  expected.insert({at(torus, 0, 0), at(torus, 7, 0)});
  expected.insert({at(torus, 7, 0), at(torus, 7, 7)});
  EXPECT_EQ(edges_of(plan), expected);
  std::set<Edge> wraps;
  for (const TreeEdge& e : tree.edges) {
    if (e.zone_link) wraps.insert({e.parent, e.child});
  }
  EXPECT_EQ(wraps, (std::set<Edge>{{at(torus, 0, 0), at(torus, 7, 0)}, {at(torus, 7, 0), at(torus, 7, 7)}}));
  for (const Worm& w : plan.worms) {
    const bool wrap = wraps.count({w.sender, w.route.back()}) != 0;
    EXPECT_EQ(torus.is_wraparound(w.hops.front().node, w.hops.front().port), wrap) << torus.node_name(w.sender);
  }
  EXPECT_EQ(plan.metrics.traffic, 17);
  EXPECT_EQ(plan.metrics.steps, 6);
}

TEST_F(TreeMulticastEightByEight, DdsTorusZoneFourSubtreeTrafficAndTimeMatchV29) {
  const Request r = tree_request(torus, kDdsAlgorithm, d);
  const MulticastTree tree = build_multicast_tree(r);
  std::set<Edge> zone4;
  for (const TreeEdge& e : tree.edges) {
    if (e.zone == 4 && !e.zone_link) zone4.insert({e.parent, e.child});
  }
  EXPECT_EQ(zone4, paths(torus, {{{7, 7, 0}, {7, 4, 0}}, {{7, 6, 0}, {6, 6, 0}}, {{6, 6, 0}, {4, 6, 0}}}));
  const Plan plan = plan_tree_multicast(r);
  EXPECT_EQ(plan.metrics.traffic, 16);
  EXPECT_EQ(plan.metrics.steps, 6);
}

TEST_F(TreeMulticastEightByEight, VhTorusTrafficAndTimeMatchV30) {
  const Plan plan = plan_tree_multicast(tree_request(torus, kVhAlgorithm, d));
  EXPECT_EQ(plan.metrics.traffic, 18);
  EXPECT_EQ(plan.metrics.steps, 6);
}

// With every port (thesis eq. 2.1.8) a shortest-path tree delivers in D_max hops: here (6,6) at 12.
TEST_F(TreeMulticastEightByEight, AllPortTimeIsTheLongestTreePath) {
  for (const char* algorithm : {kVhAlgorithm, kDiagAlgorithm, kDdsAlgorithm}) {
    const Plan plan = plan_tree_multicast(tree_request(mesh, algorithm, d, {}, PortModel::all_port()));
    EXPECT_EQ(plan.metrics.steps, 12) << algorithm;
    for (const DestinationMetrics& m : plan.metrics.destinations) EXPECT_EQ(m.step, m.distance) << algorithm;
  }
}

// Store-and-forward latency (thesis 2.1.3): L flit times per hop when start-ups and the header's
// router delay are zero, so each destination's latency is L times its hop.
TEST_F(TreeMulticastEightByEight, LatencyIsLengthTimesHopWithoutStartUps) {
  LatencyParameters unit;
  unit.alpha = 0;
  unit.gamma = 0;
  unit.beta = 1;
  unit.router_delay = 0;
  std::vector<NodeId> ids;
  for (const Coord& c : d) ids.push_back(mesh.node_at(c));
  const Plan plan =
      plan_tree_multicast(make_request(mesh, kDiagAlgorithm, m(0, 0), ids, 5, PortModel::one_port(), unit));
  for (const DestinationMetrics& dm : plan.metrics.destinations) EXPECT_DOUBLE_EQ(dm.latency, 5.0 * dm.step);
  EXPECT_DOUBLE_EQ(plan.metrics.latency, 5.0 * 12);
}

class TreeMulticastFiveCubed : public ::testing::Test {
 protected:
  const Topology mesh = Topology::mesh({5, 5, 5});
  const Topology torus = Topology::torus({5, 5, 5});
  // Example 3.2.1.2.
  const std::vector<Coord> d = {{0, 3, 0}, {1, 3, 0}, {1, 4, 2}, {2, 3, 0}, {3, 1, 0}, {4, 3, 3}};
  NodeId m(int x, int y, int z) const { return at(mesh, x, y, z); }
  NodeId t(int x, int y, int z) const { return at(torus, x, y, z); }
};

TEST_F(TreeMulticastFiveCubed, DiagStemOrderTrafficAndTimesMatchV31) {
  const Request r = tree_request(mesh, kDiagAlgorithm, d);
  const MulticastTree tree = build_multicast_tree(r);
  const std::vector<NodeId> stem = {m(0, 0, 0), m(1, 0, 0), m(1, 1, 0), m(1, 1, 1), m(2, 1, 1), m(2, 2, 1),
                                    m(2, 2, 2), m(3, 2, 2), m(3, 3, 2), m(3, 3, 3), m(4, 3, 3), m(4, 4, 3)};
  EXPECT_EQ(tree.zones[0].stem, stem);
  std::vector<NodeId> order;
  for (const TreeAttachment& a : tree.attachments) order.push_back(a.destination);
  EXPECT_EQ(order, (std::vector<NodeId>{m(0, 3, 0), m(1, 3, 0), m(3, 1, 0), m(2, 3, 0), m(1, 4, 2), m(4, 3, 3)}));

  const Plan plan = plan_tree_multicast(r);
  for (const Worm& w : plan.worms) EXPECT_NE(w.route.back(), m(4, 4, 3)) << "the stem's tail (4,4,3) is pruned";
  EXPECT_EQ(plan.metrics.traffic, 20);
  EXPECT_EQ(plan.metrics.steps, 10);
  const std::map<Coord, int> times = {{{0, 3, 0}, 4}, {{1, 3, 0}, 5}, {{3, 1, 0}, 5},
                                      {{2, 3, 0}, 6}, {{1, 4, 2}, 9}, {{4, 3, 3}, 10}};
  EXPECT_EQ(hop_times(plan), times);
}

TEST_F(TreeMulticastFiveCubed, DdsOrderTreeTrafficAndTimeMatchV32) {
  const Request r = tree_request(mesh, kDdsAlgorithm, d);
  std::vector<NodeId> order;
  for (const TreeAttachment& a : build_multicast_tree(r).attachments) order.push_back(a.destination);
  EXPECT_EQ(order, (std::vector<NodeId>{m(0, 3, 0), m(1, 3, 0), m(3, 1, 0), m(2, 3, 0), m(1, 4, 2), m(4, 3, 3)}));

  const Plan plan = plan_tree_multicast(r);
  const std::set<Edge> expected = paths(mesh, {{{0, 0, 0}, {0, 1, 0}},
                                               {{0, 1, 0}, {0, 3, 0}},
                                               {{0, 3, 0}, {1, 3, 0}},
                                               {{0, 1, 0}, {3, 1, 0}},
                                               {{1, 3, 0}, {2, 3, 0}},
                                               {{1, 3, 0}, {1, 4, 0}},
                                               {{1, 4, 0}, {1, 4, 2}},
                                               {{2, 3, 0}, {4, 3, 0}},
                                               {{4, 3, 0}, {4, 3, 3}}});
  EXPECT_EQ(edges_of(plan), expected);
  EXPECT_EQ(plan.metrics.traffic, 16);
  EXPECT_EQ(plan.metrics.steps, 11);
}

TEST_F(TreeMulticastFiveCubed, DiagTorusZonesSubtreesAndWrapsMatchV33) {
  const Request r = tree_request(torus, kDiagAlgorithm, d);
  // Zone boxes {origin <=> far corner} as listed in V33 (k = 5, h = 3).
  const std::vector<std::pair<Coord, Coord>> boxes = {
      {{0, 0, 0}, {2, 2, 2}}, {{4, 0, 0}, {3, 2, 2}}, {{4, 0, 4}, {3, 2, 3}}, {{0, 0, 4}, {2, 2, 3}},
      {{0, 4, 0}, {2, 3, 2}}, {{4, 4, 0}, {3, 3, 2}}, {{4, 4, 4}, {3, 3, 3}}, {{0, 4, 4}, {2, 3, 3}}};
  const auto in_box = [](const Coord& c, const Coord& a, const Coord& b) {
    for (std::size_t i = 0; i < 3; ++i) {
      if (c[i] < std::min(a[i], b[i]) || c[i] > std::max(a[i], b[i])) return false;
    }
    return true;
  };
  for (NodeId v = 0; v < torus.node_count(); ++v) {
    const int zone = tree_zone_of(torus, r.source, v);
    ASSERT_GE(zone, 1);
    ASSERT_LE(zone, 8);
    const auto& [a, b] = boxes[static_cast<std::size_t>(zone - 1)];
    EXPECT_TRUE(in_box(torus.coord(v), a, b)) << torus.node_name(v) << " in zone " << zone;
  }
  const MulticastTree tree = build_multicast_tree(r);
  ASSERT_EQ(tree.zones.size(), 8u);
  for (std::size_t i = 0; i < 8; ++i) EXPECT_EQ(tree.zones[i].origin, torus.node_at(boxes[i].first));
  EXPECT_EQ(tree.zones[1].destinations, (std::vector<NodeId>{t(3, 1, 0)}));
  EXPECT_EQ(tree.zones[4].destinations, (std::vector<NodeId>{t(0, 3, 0), t(1, 3, 0), t(1, 4, 2), t(2, 3, 0)}));
  EXPECT_EQ(tree.zones[6].destinations, (std::vector<NodeId>{t(4, 3, 3)}));
  for (std::size_t i : {0u, 2u, 3u, 5u, 7u}) EXPECT_TRUE(tree.zones[i].destinations.empty()) << "zone " << i + 1;

  std::set<Edge> subtrees;
  std::set<Edge> wraps;
  for (const TreeEdge& e : tree.edges) (e.zone_link ? wraps : subtrees).insert({e.parent, e.child});
  EXPECT_EQ(subtrees, paths(torus, {{{4, 0, 0}, {3, 0, 0}},
                                    {{3, 0, 0}, {3, 1, 0}},
                                    {{0, 4, 0}, {1, 4, 0}},
                                    {{1, 4, 0}, {1, 4, 2}},
                                    {{0, 4, 0}, {0, 3, 0}},
                                    {{1, 4, 0}, {1, 3, 0}},
                                    {{1, 3, 0}, {2, 3, 0}},
                                    {{4, 4, 4}, {4, 3, 4}},
                                    {{4, 3, 4}, {4, 3, 3}}}));
  // (0,0,0) => (4,0,0) => (4,0,4) => (4,4,4) and (0,0,0) => (0,4,0); the unused (0,0,4) is absent.
  EXPECT_EQ(
      wraps,
      (std::set<Edge>{
          {t(0, 0, 0), t(4, 0, 0)}, {t(4, 0, 0), t(4, 0, 4)}, {t(4, 0, 4), t(4, 4, 4)}, {t(0, 0, 0), t(0, 4, 0)}}));
  const Plan plan = plan_tree_multicast(r);
  EXPECT_EQ(plan.metrics.traffic, 14);
  EXPECT_EQ(plan.metrics.steps, 6);
}

TEST_F(TreeMulticastFiveCubed, DdsTorusTrafficAndTimeMatchV34) {
  const Plan plan = plan_tree_multicast(tree_request(torus, kDdsAlgorithm, d));
  EXPECT_EQ(plan.metrics.traffic, 14);
  EXPECT_EQ(plan.metrics.steps, 6);
}

TEST_F(TreeMulticastFiveCubed, VhMeshAndTorusMatchDerivedV35) {
  const Plan on_mesh = plan_tree_multicast(tree_request(mesh, kVhAlgorithm, d));
  EXPECT_EQ(on_mesh.metrics.traffic, 23);
  EXPECT_EQ(on_mesh.metrics.steps, 10);
  const Plan on_torus = plan_tree_multicast(tree_request(torus, kVhAlgorithm, d));
  EXPECT_EQ(on_torus.metrics.traffic, 15);
  EXPECT_EQ(on_torus.metrics.steps, 7);
}

// V39 (thesis Fig. 3.1.1): s(3,4) cuts the mesh into quadrants; zone numbers follow [5], 3.1.3
// (1 = (+x,+y), 2 = (-x,+y), 3 = (+x,-y), 4 = (-x,-y)).
TEST(TreeMulticast, MeshReductionQuadrantsMatchV39) {
  const Topology mesh = Topology::mesh({8, 8});
  const NodeId s = at(mesh, 3, 4);
  EXPECT_EQ(tree_zone_of(mesh, s, at(mesh, 1, 2)), 4);  // d1, {x<=3, y<=4}
  EXPECT_EQ(tree_zone_of(mesh, s, at(mesh, 1, 5)), 2);  // d2, {x<=3, y>=4}
  EXPECT_EQ(tree_zone_of(mesh, s, at(mesh, 4, 1)), 3);  // d3, {x>=3, y<=4}
  EXPECT_EQ(tree_zone_of(mesh, s, at(mesh, 6, 2)), 3);  // d4
  EXPECT_EQ(tree_zone_of(mesh, s, at(mesh, 6, 5)), 1);  // d5, {x>=3, y>=4}
  // docs/algorithms.md "Zones and sources other than the origin": a node on a cut line goes to the
  // first zone that holds it.
  EXPECT_EQ(tree_zone_of(mesh, s, at(mesh, 3, 6)), 1);
  EXPECT_EQ(tree_zone_of(mesh, s, at(mesh, 1, 4)), 2);
  EXPECT_EQ(tree_zone_of(mesh, s, at(mesh, 3, 0)), 3);
  const Topology cube = Topology::mesh({5, 5, 5});
  EXPECT_EQ(tree_zone_of(cube, at(cube, 2, 2, 2), at(cube, 2, 0, 0)), 7);  // zones 7 (-,-,-) and 8 (+,-,-)

  const std::vector<Coord> d = {{1, 2, 0}, {1, 5, 0}, {4, 1, 0}, {6, 2, 0}, {6, 5, 0}};
  for (const char* algorithm : {kVhAlgorithm, kDiagAlgorithm, kDdsAlgorithm}) {
    const Plan plan = plan_tree_multicast(tree_request(mesh, algorithm, d, {3, 4, 0}));
    for (const DestinationMetrics& m : plan.metrics.destinations) EXPECT_EQ(m.path_hops, m.distance) << algorithm;
  }
}

// MIN as we read it (docs/algorithms.md) on Example 3.2.1.1 (derived by hand; the thesis gives no MIN tree).
// Picks: j=x (0,2) <- s; j=y (3,0) <- s [ties on y=0 by x]; j=x (4,0) <- (3,0); j=y (7,4) <- (4,0)
// (distance 7, path (5,0)..(7,0)..(7,4)); j=x (4,6) <- (7,4) (distance 5, path (6,4),(5,4),(4,4),
// (4,5),(4,6)); j=y (6,6) <- (6,4) (tie with (4,6) at distance 2, lexicographically largest).
// Traffic 2+3+1+7+5+2 = 20. Hops: (0,2) 3 (s sends +X first), (3,0) 3, (4,0) 4, (7,4) 11; (7,4)
// sends (6,4) at 12; (6,4) sends -X (5,4) at 13 before +Y (6,5) at 14, so (6,6) 15 and (4,6) 16.
TEST(MinTree, HandDerivedEightByEightExample) {
  const Topology mesh = Topology::mesh({8, 8});
  const std::vector<Coord> d = {{0, 2, 0}, {3, 0, 0}, {4, 0, 0}, {4, 6, 0}, {6, 6, 0}, {7, 4, 0}};
  const Request r = tree_request(mesh, kMinAlgorithm, d);
  const auto m = [&](int x, int y) { return at(mesh, x, y); };
  const std::vector<TreeAttachment> attachments = {{m(0, 2), m(0, 0)}, {m(3, 0), m(0, 0)}, {m(4, 0), m(3, 0)},
                                                   {m(7, 4), m(4, 0)}, {m(4, 6), m(7, 4)}, {m(6, 6), m(6, 4)}};
  EXPECT_EQ(build_multicast_tree(r).attachments, attachments);
  const Plan plan = plan_tree_multicast(r);
  EXPECT_EQ(plan.metrics.traffic, 20);
  EXPECT_EQ(plan.metrics.steps, 16);
  const std::map<Coord, int> times = {{{0, 2, 0}, 3},  {{3, 0, 0}, 3},  {{4, 0, 0}, 4},
                                      {{7, 4, 0}, 11}, {{4, 6, 0}, 16}, {{6, 6, 0}, 15}};
  EXPECT_EQ(hop_times(plan), times);
}

// ---------------------------------------------------------------------------------------------
// Building blocks.

// [5], Section 3.2.2: the scan meets the nodes in comparator order.
TEST(Dds, ScanOrderEqualsComparatorOrder) {
  const std::vector<std::pair<Coord, int>> boxes = {{{4, 4, 1}, 2}, {{8, 8, 1}, 2}, {{3, 3, 3}, 3}, {{4, 4, 4}, 3},
                                                    {{5, 5, 5}, 3}, {{6, 6, 6}, 3}, {{4, 6, 1}, 2}, {{7, 3, 1}, 2},
                                                    {{3, 5, 4}, 3}, {{5, 2, 3}, 3}};
  for (const auto& [sizes, n] : boxes) {
    std::vector<Coord> all;
    for (int z = 0; z < sizes[2]; ++z) {
      for (int y = 0; y < sizes[1]; ++y) {
        for (int x = 0; x < sizes[0]; ++x) all.push_back(Coord{x, y, z});
      }
    }
    const int dims = n;
    std::sort(all.begin(), all.end(), [dims](const Coord& a, const Coord& b) { return dds_precedes(a, b, dims); });
    EXPECT_EQ(dds_scan_order(sizes, n), all) << sizes[0] << "x" << sizes[1] << "x" << sizes[2];
  }
}

// Alg. 3.2.2.1 by hand: Dmin first, then the first dimension holding it, then the rest.
TEST(Dds, ComparatorFollowsAlgorithm3221) {
  EXPECT_TRUE(dds_precedes({0, 7, 0}, {1, 1, 0}, 2));   // Dmin 0 < 1
  EXPECT_TRUE(dds_precedes({1, 5, 0}, {5, 1, 0}, 2));   // Dmin 1 in x before Dmin 1 in y
  EXPECT_TRUE(dds_precedes({2, 3, 0}, {2, 4, 0}, 2));   // x deleted, then 3 < 4
  EXPECT_FALSE(dds_precedes({2, 3, 0}, {2, 3, 0}, 2));  // equal
  EXPECT_TRUE(dds_precedes({1, 3, 0}, {3, 1, 0}, 3));   // all Dmin 0 in z; delete z; then (1,3) < (3,1)
  EXPECT_TRUE(dds_precedes({3, 1, 2}, {2, 2, 1}, 3));   // Dmin 1 in y before Dmin 1 in z
}

// Alg. 3.2.1.1 on d = (3,2) (the integer key of docs/algorithms.md, ties to x): (1,0) key 4 beats (0,1) 9; then
// (1,1) 1 beats (2,0) 16; (2,1) 1 beats (1,2) 16; (2,2) 4 beats (3,1) 9; then (3,2).
TEST(Diag, DiagonalPathFollowsTheLine) {
  const std::vector<Coord> expected = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {2, 1, 0}, {2, 2, 0}, {3, 2, 0}};
  EXPECT_EQ(diagonal_path({3, 2, 0}, 2), expected);
  EXPECT_EQ(diagonal_path({0, 0, 0}, 3), (std::vector<Coord>{{0, 0, 0}}));
  EXPECT_EQ(diagonal_path({0, 2, 0}, 2), (std::vector<Coord>{{0, 0, 0}, {0, 1, 0}, {0, 2, 0}}));
}

// ---------------------------------------------------------------------------------------------
// Random instances (V42) and structure.

struct Sample {
  NodeId source;
  std::vector<NodeId> destinations;
};

Sample random_sample(const Topology& t, std::mt19937& rng, int max_k, bool origin_source) {
  std::uniform_int_distribution<NodeId> any(0, t.node_count() - 1);
  Sample s;
  s.source = origin_source ? 0 : any(rng);
  const int k = std::uniform_int_distribution<int>(1, std::min(max_k, t.node_count() - 1))(rng);
  std::set<NodeId> chosen;
  while (static_cast<int>(s.destinations.size()) < k) {
    const NodeId v = any(rng);
    if (v != s.source && chosen.insert(v).second) s.destinations.push_back(v);
  }
  return s;
}

int d_max(const Topology& t, const Sample& s) {
  int most = 0;
  for (NodeId v : s.destinations) most = std::max(most, t.distance(s.source, v));
  return most;
}

// [5], Def. 3.2.1.1: on a torus, D_max is the largest distance from a destination to its
// zone origin, i.e. without the links from the source to the zone origins.
int torus_local_d_max(const Topology& t, const Sample& s) {
  const Coord src = t.coord(s.source);
  int most = 0;
  for (NodeId v : s.destinations) {
    const Coord c = t.coord(v);
    int local = 0;
    for (int d = 0; d < t.dimensions(); ++d) {
      const int k = t.size(d);
      const int offset = ((c[static_cast<std::size_t>(d)] - src[static_cast<std::size_t>(d)]) % k + k) % k;
      local += offset < (k + 1) / 2 ? offset : k - 1 - offset;
    }
    most = std::max(most, local);
  }
  return most;
}

Plan plan_for(const Topology& t, const std::string& algorithm, const Sample& s,
              PortModel ports = PortModel::one_port()) {
  return plan_tree_multicast(make_request(t, algorithm, s.source, s.destinations, 1, ports));
}

// V42: DIAG and DDS one-port time within [D_max, D_max + K - 1], traffic within
// [D_max, sum of distances], on meshes with the source at the origin.
TEST(Diag, TimeAndTrafficWithinThesisBoundsOnRandomMeshes) {
  std::mt19937 rng(4004);
  for (const Topology& t :
       {Topology::mesh({8, 8}), Topology::mesh({20, 20}), Topology::mesh({5, 5, 5}), Topology::mesh({10, 10, 10})}) {
    for (int i = 0; i < 500; ++i) {
      const Sample s = random_sample(t, rng, 40, true);
      for (const char* algorithm : {kDiagAlgorithm, kDdsAlgorithm}) {
        const Plan plan = plan_for(t, algorithm, s);
        const int k = static_cast<int>(s.destinations.size());
        const int dm = d_max(t, s);
        int sum = 0;
        for (NodeId v : s.destinations) sum += t.distance(s.source, v);
        EXPECT_GE(plan.metrics.steps, dm) << algorithm << " " << t.spec();
        EXPECT_LE(plan.metrics.steps, dm + k - 1) << algorithm << " " << t.spec();
        EXPECT_GE(plan.metrics.traffic, dm);
        EXPECT_LE(plan.metrics.traffic, sum);
      }
    }
  }
}

// V42: VH one-port time <= D_max + 1 in 2D (thesis); in 3D it reaches D_max + 2 (the thesis states
// no 3D bound), which is also the bound: a path turns at most twice and each turn waits at most one
// hop per earlier dimension still to serve.
TEST(Vh, TimeWithinDmaxPlusOneIn2DAndDmaxPlusTwoIn3D) {
  std::mt19937 rng(4005);
  int reached_plus_two = 0;
  for (const Topology& t :
       {Topology::mesh({8, 8}), Topology::mesh({20, 20}), Topology::mesh({5, 5, 5}), Topology::mesh({10, 10, 10})}) {
    for (int i = 0; i < 500; ++i) {
      const Sample s = random_sample(t, rng, 40, true);
      const Plan plan = plan_for(t, kVhAlgorithm, s);
      const int dm = d_max(t, s);
      EXPECT_GE(plan.metrics.steps, dm);
      EXPECT_LE(plan.metrics.steps, dm + (t.dimensions() == 2 ? 1 : 2)) << t.spec();
      if (plan.metrics.steps == dm + 2) ++reached_plus_two;
    }
  }
  EXPECT_GT(reached_plus_two, 0) << "3D VH should sometimes need D_max + 2";
}

// V42: torus time <= D_max + K + 1 (2D) and <= D_max + K + 2 (3D; the thesis prints <, = is attained),
// D_max local; any source (a translation of the thesis's origin case).
TEST(TreeMulticast, TorusTimeWithinThesisBoundsOnRandomInstances) {
  std::mt19937 rng(4006);
  for (const Topology& t : {Topology::torus({8, 8}), Topology::torus({20, 20}), Topology::torus({7, 6}),
                            Topology::torus({5, 5, 5}), Topology::torus({10, 10, 10})}) {
    for (int i = 0; i < 400; ++i) {
      const Sample s = random_sample(t, rng, 40, false);
      const int k = static_cast<int>(s.destinations.size());
      const int bound = torus_local_d_max(t, s) + k + (t.dimensions() == 2 ? 1 : 2);
      for (const char* algorithm : {kDiagAlgorithm, kDdsAlgorithm, kVhAlgorithm}) {
        const Plan plan = plan_for(t, algorithm, s);
        EXPECT_LE(plan.metrics.steps, bound) << algorithm << " " << t.spec();
        EXPECT_GE(plan.metrics.steps, d_max(t, s)) << algorithm << " " << t.spec();
      }
    }
  }
}

// Props 3.2.1.3 / 3.2.2.4 and VH: every tree path is a shortest path, on meshes (any source, via
// the zone reduction) and tori.
TEST(TreeMulticast, VhDiagDdsBuildShortestPathTreesOnRandomInstances) {
  std::mt19937 rng(4007);
  for (const Topology& t :
       {Topology::mesh({8, 8}), Topology::mesh({9, 6}), Topology::mesh({5, 5, 5}), Topology::torus({8, 8}),
        Topology::torus({5, 7}), Topology::torus({2, 5}), Topology::torus({5, 5, 5}), Topology::torus({4, 3, 2})}) {
    for (int i = 0; i < 300; ++i) {
      const Sample s = random_sample(t, rng, 30, i % 3 == 0);
      for (const char* algorithm : {kVhAlgorithm, kDiagAlgorithm, kDdsAlgorithm}) {
        const Plan plan = plan_for(t, algorithm, s);
        for (const DestinationMetrics& m : plan.metrics.destinations) {
          EXPECT_EQ(m.path_hops, m.distance) << algorithm << " " << t.spec() << " " << t.node_name(m.destination);
        }
      }
    }
  }
}

// MIN (our reading): not a shortest-path tree, but its time is at most its traffic, and its traffic
// at most the chain through the destinations in selection order (each pick joins the tree no
// farther than from the previous pick). The selection order is derived here independently.
TEST(MinTree, TimeAndTrafficWithinSelectionChainOnRandomMeshes) {
  std::mt19937 rng(4008);
  for (const Topology& t : {Topology::mesh({10, 10}), Topology::mesh({5, 5, 5})}) {
    for (int i = 0; i < 200; ++i) {
      const Sample s = random_sample(t, rng, 30, true);
      const MulticastTree tree = build_multicast_tree(make_request(t, kMinAlgorithm, s.source, s.destinations, 1, {}));
      std::vector<Coord> remaining;
      for (NodeId v : s.destinations) remaining.push_back(t.coord(v));
      std::vector<NodeId> picks;
      const int n = t.dimensions();
      for (int j = 0; !remaining.empty(); j = (j + 1) % n) {
        std::size_t best = 0;
        for (std::size_t c = 1; c < remaining.size(); ++c) {
          for (int step = 0; step < n; ++step) {
            const std::size_t dim = static_cast<std::size_t>((j + step) % n);
            if (remaining[c][dim] != remaining[best][dim]) {
              if (remaining[c][dim] < remaining[best][dim]) best = c;
              break;
            }
          }
        }
        picks.push_back(t.node_at(remaining[best]));
        remaining.erase(remaining.begin() + static_cast<std::ptrdiff_t>(best));
      }
      std::vector<NodeId> order;
      for (const TreeAttachment& a : tree.attachments) order.push_back(a.destination);
      EXPECT_EQ(order, picks);
      int chain = 0;
      NodeId previous = s.source;
      for (NodeId v : picks) {
        chain += t.distance(previous, v);
        previous = v;
      }
      const int traffic = static_cast<int>(tree.edges.size());
      EXPECT_LE(tree.time, traffic);
      EXPECT_LE(traffic, chain);
    }
  }
}

// Every plan of every algorithm, topology, source and port model is a store-and-forward tree:
// one one-link worm per tree link, each node reached once, every destination reached, no
// non-destination leaf, senders send only after they receive, in consecutive hops as the port
// model allows, and metrics that agree with the tree.
TEST(TreeMulticast, RandomPlansAreStoreAndForwardTreesThatDeliverOnce) {
  std::mt19937 rng(4009);
  const std::vector<PortModel> port_models = {PortModel::one_port(), PortModel::two_port(), PortModel::d_port(3),
                                              PortModel::all_port()};
  for (const Topology& t :
       {Topology::mesh({8, 8}), Topology::mesh({4, 9}), Topology::mesh({4, 5, 3}), Topology::torus({8, 8}),
        Topology::torus({3, 4}), Topology::torus({5, 4, 3}), Topology::torus({2, 2, 2}), Topology::mesh({2, 2})}) {
    for (int i = 0; i < 400; ++i) {
      const Sample s = random_sample(t, rng, 25, i % 4 == 0);
      const PortModel ports = port_models[static_cast<std::size_t>(i) % port_models.size()];
      const int p = ports.injection_ports(t);
      for (const std::string& algorithm : tree_multicast_names()) {
        const Request r = make_request(t, algorithm, s.source, s.destinations, 1, ports);
        const Plan plan = plan_tree_multicast(r);
        const MulticastTree tree = build_multicast_tree(r);
        const std::string what = algorithm + " " + t.spec() + " " + ports.name();
        std::map<NodeId, int> received = {{s.source, 0}};
        std::map<NodeId, std::vector<int>> sends;
        std::set<std::pair<NodeId, Port>> channels;
        ASSERT_EQ(plan.worms.size(), tree.edges.size()) << what;
        for (std::size_t w = 0; w < plan.worms.size(); ++w) {
          const Worm& worm = plan.worms[w];
          ASSERT_EQ(worm.kind, WormKind::kStoreAndForwardHop) << what;
          ASSERT_EQ(worm.hops.size(), 1u) << what;
          ASSERT_EQ(worm.route.size(), 2u) << what;
          const NodeId child = worm.route[1];
          EXPECT_EQ(worm.route[0], worm.sender) << what;
          EXPECT_EQ(worm.hops[0].node, worm.sender) << what;
          EXPECT_EQ(t.neighbour(worm.sender, worm.hops[0].port), child) << what;
          EXPECT_EQ(worm.header.mode, RoutingMode::kDimensionOrder) << what;
          EXPECT_EQ(worm.header.destinations, std::vector<NodeId>{child}) << what;
          // The child takes the whole message in: a destination keeps it, any other tree node relays.
          if (std::count(s.destinations.begin(), s.destinations.end(), child) != 0) {
            EXPECT_EQ(worm.keeps_copy, std::vector<NodeId>{child}) << what;
            EXPECT_TRUE(worm.relays.empty()) << what;
          } else {
            EXPECT_TRUE(worm.keeps_copy.empty()) << what;
            EXPECT_EQ(worm.relays, std::vector<NodeId>{child}) << what;
          }
          EXPECT_GE(worm.port, 0);
          EXPECT_LT(worm.port, p);
          EXPECT_EQ(tree.edges[w].parent, worm.sender);
          EXPECT_EQ(tree.edges[w].child, child);
          EXPECT_EQ(tree.edges[w].hop, worm.step);
          EXPECT_TRUE(channels.insert({worm.sender, worm.hops[0].port}).second) << what << ": a link used twice";
          EXPECT_TRUE(received.emplace(child, worm.step).second) << what << ": " << t.node_name(child) << " twice";
          sends[worm.sender].push_back(worm.step);
        }
        const std::set<NodeId> destinations(s.destinations.begin(), s.destinations.end());
        for (NodeId d : s.destinations) EXPECT_TRUE(received.count(d)) << what << ": " << t.node_name(d) << " missed";
        for (const auto& [node, hop] : received) {
          if (node != s.source && destinations.count(node) == 0) {
            EXPECT_TRUE(sends.count(node)) << what << ": non-destination leaf " << t.node_name(node);
          }
        }
        for (auto& [node, steps] : sends) {
          ASSERT_TRUE(received.count(node)) << what << ": " << t.node_name(node) << " sends without receiving";
          std::sort(steps.begin(), steps.end());
          for (std::size_t i2 = 0; i2 < steps.size(); ++i2) {
            // The i-th child (in send order) goes out in hop t + 1 + i / p: no port idles.
            EXPECT_EQ(steps[i2], received[node] + 1 + static_cast<int>(i2) / p) << what << " " << t.node_name(node);
          }
        }
        expect_copies_only_at_destinations_and_relays_forward(plan, what);
        EXPECT_EQ(plan.metrics.steps, tree.time) << what;
        EXPECT_EQ(plan.metrics.traffic, static_cast<int>(plan.worms.size())) << what;
        EXPECT_EQ(plan.metrics.distinct_channels, plan.metrics.traffic) << what;
        for (const DestinationMetrics& m : plan.metrics.destinations) {
          EXPECT_EQ(m.step, received[m.destination]) << what;
          EXPECT_GE(m.path_hops, m.distance) << what;
        }
      }
    }
  }
}

// Thesis chapter 4 (qualitative; the means are withheld, [5], Section 4.2): on a 20x20 mesh with the
// source at the origin, MIN makes the least traffic, then DDS, DIAG and VH; DIAG is fastest, then
// DDS, and MIN, which is not a shortest-path tree, is slowest.
TEST(TreeMulticast, MeanTrafficAndTimeOrderAsInThesisChapterFour) {
  const Topology mesh = Topology::mesh({20, 20});
  std::mt19937 rng(4010);
  std::map<std::string, double> traffic;
  std::map<std::string, double> time;
  for (int i = 0; i < 200; ++i) {
    const Sample s = random_sample(mesh, rng, 60, true);
    for (const std::string& algorithm : tree_multicast_names()) {
      const Plan plan = plan_for(mesh, algorithm, s);
      traffic[algorithm] += plan.metrics.traffic;
      time[algorithm] += plan.metrics.steps;
    }
  }
  EXPECT_LT(traffic[kMinAlgorithm], traffic[kDdsAlgorithm]);
  EXPECT_LT(traffic[kDdsAlgorithm], traffic[kDiagAlgorithm]);
  EXPECT_LT(traffic[kDiagAlgorithm], traffic[kVhAlgorithm]);
  EXPECT_LT(time[kDiagAlgorithm], time[kDdsAlgorithm]);
  EXPECT_LT(time[kDdsAlgorithm], time[kMinAlgorithm]);
}

// ---------------------------------------------------------------------------------------------
// Bad input.

TEST(TreeMulticast, UnknownAlgorithmIsASpecErrorListingTheValidNames) {
  const Topology mesh = Topology::mesh({4, 4});
  const Request r = make_request(mesh, "diagonal", 0, {5}, 1, PortModel::one_port());
  try {
    plan_tree_multicast(r);
    FAIL() << "expected SpecError";
  } catch (const SpecError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("'diagonal'"), std::string::npos) << message;
    EXPECT_NE(message.find("vh, diag, dds, min"), std::string::npos) << message;
  }
}

TEST(TreeMulticast, StarGraphIsUnsupportedAndNamesTheTopologies) {
  const Topology star = Topology::star(4);
  const Request r = make_request(star, kDdsAlgorithm, 0, {5}, 1, PortModel::one_port());
  try {
    plan_tree_multicast(r);
    FAIL() << "expected UnsupportedError";
  } catch (const UnsupportedError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("star:4"), std::string::npos) << message;
    EXPECT_NE(message.find("meshes and tori"), std::string::npos) << message;
  }
  EXPECT_THROW(tree_zone_of(star, 0, 1), UnsupportedError);
}

TEST(TreeMulticast, InvalidRequestsThrowTheValidationErrors) {
  const Topology mesh = Topology::mesh({4, 4});
  Request r{mesh, kVhAlgorithm, 0, {}, 1, PortModel::one_port(), LatencyParameters{}};
  EXPECT_THROW(plan_tree_multicast(r), RequestError);
  r.destinations = {16};
  EXPECT_THROW(plan_tree_multicast(r), NodeError);
  r.destinations = {0};
  EXPECT_THROW(plan_tree_multicast(r), RequestError);
  EXPECT_THROW(tree_zone_of(mesh, 0, 99), NodeError);
}

}  // namespace
}  // namespace wormcast::model
