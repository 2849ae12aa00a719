// SPDX-License-Identifier: Apache-2.0
// Path-based multicast plans: LIN's single path ([5], V38), Lin-Ni dual-path and multi-path
// ([4], [5], V19), [2]'s uniform and fixed dual-path (V9, V10, V12, V13) and 3-DBL ([4], V20).
// Expected values come from the papers' worked examples (V-numbers, docs/algorithms.md) or are
// derived by hand in the comments, with labels computed here from the snake formula, not by the
// model.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "model/errors.hpp"
#include "model/path_multicast.hpp"
#include "model/plan.hpp"
#include "model/routing.hpp"
#include "verif/model/plan_properties.hpp"

namespace wormcast::model {
namespace {

// Row snake of an X-wide grid ([1], Definition 1): label(x, y) = yX + x for even y, yX + X-1-x for odd y.
int snake_label(int x, int y, int size_x) { return y * size_x + (y % 2 == 0 ? x : size_x - 1 - x); }

// The node of a 2D row-snake label in layer z of `t`.
NodeId snake_node(const Topology& t, int label, int z = 0) {
  const int size_x = t.size(0);
  const int y = label / size_x;
  const int offset = label % size_x;
  return t.node_at(Coord{y % 2 == 0 ? offset : size_x - 1 - offset, y, z});
}

NodeId at(const Topology& t, int x, int y, int z = 0) { return t.node_at(Coord{x, y, z}); }

std::vector<NodeId> nodes_at(const Topology& t, const std::vector<Coord>& coords) {
  std::vector<NodeId> nodes;
  for (const Coord& c : coords) nodes.push_back(t.node_at(c));
  return nodes;
}

// Labels of a node list under a labeling (the cycle labelings are checked against V9/V11 in
// labeling_test.cpp and star_cycle_test.cpp).
std::vector<int> labels_of(const HamiltonianLabeling& labeling, const std::vector<NodeId>& nodes) {
  std::vector<int> labels;
  for (NodeId n : nodes) labels.push_back(labeling.label(n));
  return labels;
}

std::vector<NodeId> nodes_of_labels(const HamiltonianLabeling& labeling, const std::vector<int>& labels) {
  std::vector<NodeId> nodes;
  for (int l : labels) nodes.push_back(labeling.node(l));
  return nodes;
}

// The worm of `plan` sent by `sender` whose header lists exactly `destinations`; fails if none.
const Worm* find_worm(const Plan& plan, NodeId sender, const std::vector<NodeId>& destinations) {
  for (const Worm& w : plan.worms) {
    if (w.sender == sender && w.header.destinations == destinations) return &w;
  }
  ADD_FAILURE() << "no worm from node " << sender << " with the expected destination list";
  return nullptr;
}

std::vector<NodeId> all_but(const Topology& t, NodeId source) {
  std::vector<NodeId> nodes;
  for (NodeId n = 0; n < t.node_count(); ++n) {
    if (n != source) nodes.push_back(n);
  }
  return nodes;
}

// Positions along the route of the header's destinations (hops from the sender), where the routers
// hand the message to the node: a delivery (keeps_copy) or a relay.
std::vector<int> delivery_hops(const Worm& w) {
  std::vector<int> hops;
  for (NodeId n : w.header.destinations) {
    hops.push_back(static_cast<int>(std::find(w.route.begin(), w.route.end(), n) - w.route.begin()));
  }
  return hops;
}

// -----------------------------------------------------------------------------------------------
// LIN ([5], Section 3.3.2)

TEST(Lin, TenByTenThesisExampleIsOneWormOfLengthTwentySixV38) {
  // V38: source (0,0); the destinations in label order (2,0)2, (3,1)16, (7,2)27, (1,3)38, (0,4)40,
  // (7,5)52; legs 2+2+5+7+2+8, so traffic = path length = 26 and time 26 + L.
  const Topology mesh = Topology::mesh({10, 10});
  const std::vector<NodeId> ordered =
      nodes_at(mesh, {{2, 0, 0}, {3, 1, 0}, {7, 2, 0}, {1, 3, 0}, {0, 4, 0}, {7, 5, 0}});
  EXPECT_EQ(labels_of(HamiltonianLabeling::path(mesh), ordered), (std::vector<int>{2, 16, 27, 38, 40, 52}));
  const std::vector<NodeId> given = {ordered[3], ordered[5], ordered[0], ordered[4], ordered[1], ordered[2]};
  const int length = 20;
  const Plan plan = plan_path_multicast(make_request(mesh, kLinAlgorithm, at(mesh, 0, 0), given, length,
                                                     PortModel::all_port(), LatencyParameters{0, 0, 1, 0, 1}));
  ASSERT_EQ(plan.worms.size(), 1u);
  const Worm& w = plan.worms.front();
  EXPECT_EQ(w.kind, WormKind::kMultidestinationPath);
  EXPECT_EQ(w.header.mode, RoutingMode::kHamiltonianPath);
  EXPECT_EQ(w.header.subnetwork, ChannelNetwork::kHigh);
  EXPECT_EQ(w.header.destinations, ordered);
  EXPECT_EQ(w.keeps_copy, ordered);
  EXPECT_EQ(delivery_hops(w), (std::vector<int>{2, 4, 9, 16, 18, 26}));  // cumulative legs
  EXPECT_EQ(w.hops.size(), 26u);
  EXPECT_EQ(plan.metrics.traffic, 26);
  EXPECT_EQ(plan.metrics.additional_traffic, 26 - 6);
  EXPECT_EQ(plan.metrics.steps, 1);
  // Thesis eq. 2.1.11 with alpha = gamma = 0 and one cycle per hop and per flit: path length + L.
  EXPECT_DOUBLE_EQ(plan.metrics.latency, 26 + length);
}

TEST(Lin, SourceAwayFromLabelZeroSendsTheDualPathWorms) {
  // The destinations below a non-origin source cannot ride the ascending worm; LIN then sends the
  // descending one too, which is dual-path.
  const Topology mesh = Topology::mesh({6, 5});
  const std::vector<NodeId> destinations = {at(mesh, 0, 0), at(mesh, 5, 4), at(mesh, 2, 2), at(mesh, 4, 1)};
  Request request = make_request(mesh, kLinAlgorithm, at(mesh, 3, 2), destinations, 8, PortModel::all_port());
  const Plan lin = plan_path_multicast(request);
  request.algorithm = kDualPathAlgorithm;
  const Plan dual = plan_path_multicast(request);
  EXPECT_EQ(lin.worms, dual.worms);
  EXPECT_EQ(lin.worms.size(), 2u);
}

// -----------------------------------------------------------------------------------------------
// Dual-path ([4], Section 2)

TEST(DualPath, FourByFourBroadcastFromLabelSixMatchesV19) {
  // V19: source (1,1), label 6; D_L = [5,4,3,2,1,0], D_U = [7..15]; high path 9 hops, low 6.
  const Topology mesh = Topology::mesh({4, 4});
  const NodeId s = at(mesh, 1, 1);
  ASSERT_EQ(snake_label(1, 1, 4), 6);
  const Plan plan =
      plan_path_multicast(make_request(mesh, kDualPathAlgorithm, s, all_but(mesh, s), 16, PortModel::all_port()));
  std::vector<NodeId> up;
  std::vector<NodeId> down;
  for (int l = 7; l <= 15; ++l) up.push_back(snake_node(mesh, l));
  for (int l = 5; l >= 0; --l) down.push_back(snake_node(mesh, l));
  ASSERT_EQ(plan.worms.size(), 2u);
  const Worm* high = find_worm(plan, s, up);
  const Worm* low = find_worm(plan, s, down);
  ASSERT_TRUE(high && low);
  EXPECT_EQ(high->hops.size(), 9u);
  EXPECT_EQ(low->hops.size(), 6u);
  EXPECT_EQ(high->header.subnetwork, ChannelNetwork::kHigh);
  EXPECT_EQ(low->header.subnetwork, ChannelNetwork::kLow);
  // A broadcast along the Hamiltonian path: every hop moves one label.
  std::vector<NodeId> along_path = {s};
  along_path.insert(along_path.end(), up.begin(), up.end());
  EXPECT_EQ(high->route, along_path);
  EXPECT_EQ(plan.metrics.traffic, 15);
  EXPECT_EQ(plan.metrics.steps, 1);
}

TEST(DualPath, PortModelsSerialiseTheTwoWorms) {
  // One port: the high worm in step 1, the low worm in step 2, both on port 0. Two ports: both in
  // step 1, low on port 0 and high on port 1 (seed 000's port-network binding). All-port: the
  // injection channel of each worm's first hop: from (2,2) of a 5x5 mesh (label 12, even row) the
  // high worm to (4,2) leaves on +X (port 0) and the low worm to (0,0) on -Y (port 3): the -Y
  // neighbour (2,1) has label 7, the -X neighbour 11, and R takes the smallest label >= 0.
  const Topology mesh = Topology::mesh({5, 5});
  const NodeId s = at(mesh, 2, 2);
  const NodeId up = at(mesh, 4, 2);
  const NodeId down = at(mesh, 0, 0);
  const auto plan = [&](PortModel ports) {
    return plan_path_multicast(make_request(mesh, kDualPathAlgorithm, s, {down, up}, 4, ports));
  };
  const Plan one = plan(PortModel::one_port());
  ASSERT_EQ(one.worms.size(), 2u);
  EXPECT_EQ(one.worms[0].header.destinations, std::vector<NodeId>{up});
  EXPECT_EQ(one.worms[0].step, 1);
  EXPECT_EQ(one.worms[1].step, 2);
  EXPECT_EQ(one.worms[1].port, 0);
  EXPECT_FALSE(one.worms[1].port_network.has_value());
  EXPECT_EQ(one.metrics.steps, 2);

  const Plan two = plan(PortModel::two_port());
  ASSERT_EQ(two.worms.size(), 2u);
  EXPECT_EQ(two.metrics.steps, 1);
  EXPECT_EQ(two.worms[0].port, 1);
  EXPECT_EQ(two.worms[0].port_network, ChannelNetwork::kHigh);
  EXPECT_EQ(two.worms[1].port, 0);
  EXPECT_EQ(two.worms[1].port_network, ChannelNetwork::kLow);

  const Plan all = plan(PortModel::all_port());
  ASSERT_EQ(all.worms.size(), 2u);
  EXPECT_EQ(all.metrics.steps, 1);
  EXPECT_EQ(all.worms[0].port, port_of(0, false));
  EXPECT_EQ(all.worms[1].port, port_of(1, true));
  EXPECT_EQ(all.worms[1].route.at(1), at(mesh, 2, 1));
}

TEST(DualPath, OnePortLatencySerialisesTheSecondWormBehindTheFirst) {
  // alpha 10, gamma 5, beta 2, router delay 3, L = 4 (the unicast test's formula). 5x5 mesh from
  // (2,2): (4,2) is 2 hops up the row, (0,0) 4 hops down (previous test). One port: the high worm
  // starts at 0 and arrives at 10 + 2*3 + 8 + 5 = 29; the port is free at 18, so the low worm
  // arrives at 18 + 10 + 4*3 + 8 + 5 = 53.
  const Topology mesh = Topology::mesh({5, 5});
  const Plan plan =
      plan_path_multicast(make_request(mesh, kDualPathAlgorithm, at(mesh, 2, 2), {at(mesh, 0, 0), at(mesh, 4, 2)}, 4,
                                       PortModel::one_port(), LatencyParameters{10, 5, 2, 0, 3}));
  ASSERT_EQ(plan.metrics.destinations.size(), 2u);
  EXPECT_DOUBLE_EQ(plan.metrics.destinations[0].latency, 53.0);
  EXPECT_DOUBLE_EQ(plan.metrics.destinations[1].latency, 29.0);
  EXPECT_DOUBLE_EQ(plan.metrics.latency, 53.0);
}

// -----------------------------------------------------------------------------------------------
// Multi-path (our reading of [5], docs/algorithms.md "Multi-path")

TEST(MultiPath, SixBySixExampleSendsFourChannelDisjointWorms) {
  // 6x6 mesh, source (2,2), label 14, even row: high row channel +X, low row channel -X.
  //   high row part (x > 2):      (5,2)17, (4,4)28
  //   high column part (x <= 2):  (2,4)26, (0,5)35
  //   low row part (x < 2):       (0,0)0
  //   low column part (x >= 2):   (3,1)8, (2,0)2
  // Routes by hand with R (labels in brackets):
  //   +X forced to (3,2)[15], (4,2)[16], (5,2)[17]*, (5,3)[18], (4,3)[19], (4,4)[28]*   6 hops
  //   (2,3)[21] (the +Y label 21 is the largest <= 26), (2,4)[26]*, (2,5)[33], (1,5)[34], (0,5)*  5 hops
  //   -X forced to (1,2)[13], (1,1)[10], (1,0)[1], (0,0)*                              4 hops
  //   (2,1)[9], (3,1)[8]*, (3,0)[3], (2,0)[2]*                                          4 hops
  // Dual-path on the same request: high [17,26,28,35] 3+5+2+5 = 15 hops, low [8,2,0] 2+2+2 = 6.
  const Topology mesh = Topology::mesh({6, 6});
  const NodeId s = at(mesh, 2, 2);
  const std::vector<NodeId> destinations =
      nodes_at(mesh, {{4, 4, 0}, {0, 5, 0}, {2, 4, 0}, {5, 2, 0}, {0, 0, 0}, {3, 1, 0}, {2, 0, 0}});
  Request request = make_request(mesh, kMultiPathAlgorithm, s, destinations, 8, PortModel::all_port());
  const Plan plan = plan_path_multicast(request);
  ASSERT_EQ(plan.worms.size(), 4u);
  const Worm* high_row = find_worm(plan, s, nodes_at(mesh, {{5, 2, 0}, {4, 4, 0}}));
  const Worm* high_column = find_worm(plan, s, nodes_at(mesh, {{2, 4, 0}, {0, 5, 0}}));
  const Worm* low_row = find_worm(plan, s, nodes_at(mesh, {{0, 0, 0}}));
  const Worm* low_column = find_worm(plan, s, nodes_at(mesh, {{3, 1, 0}, {2, 0, 0}}));
  ASSERT_TRUE(high_row && high_column && low_row && low_column);
  EXPECT_EQ(high_row->route,
            nodes_at(mesh, {{2, 2, 0}, {3, 2, 0}, {4, 2, 0}, {5, 2, 0}, {5, 3, 0}, {4, 3, 0}, {4, 4, 0}}));
  EXPECT_EQ(high_column->route, nodes_at(mesh, {{2, 2, 0}, {2, 3, 0}, {2, 4, 0}, {2, 5, 0}, {1, 5, 0}, {0, 5, 0}}));
  EXPECT_EQ(low_row->route, nodes_at(mesh, {{2, 2, 0}, {1, 2, 0}, {1, 1, 0}, {1, 0, 0}, {0, 0, 0}}));
  EXPECT_EQ(low_column->route, nodes_at(mesh, {{2, 2, 0}, {2, 1, 0}, {3, 1, 0}, {3, 0, 0}, {2, 0, 0}}));
  EXPECT_EQ(high_row->port, port_of(0, false));
  EXPECT_EQ(high_column->port, port_of(1, false));
  EXPECT_EQ(low_row->port, port_of(0, true));
  EXPECT_EQ(low_column->port, port_of(1, true));
  EXPECT_EQ(plan.metrics.traffic, 6 + 5 + 4 + 4);
  EXPECT_EQ(plan.metrics.stepwise_contention, 0);
  EXPECT_EQ(plan.metrics.steps, 1);

  request.algorithm = kDualPathAlgorithm;
  const Plan dual = plan_path_multicast(request);
  EXPECT_EQ(dual.metrics.traffic, 15 + 6);
}

TEST(MultiPath, OddRowSourceMirrorsTheRowChannels) {
  // 6x6 mesh, source (3,1), label 6 + 5 - 3 = 8, odd row: the high row channel is -X (label 9),
  // the low one +X (label 7). (0,1)[11] is on the high row side, (3,3)[18+2 = 20] in the source's
  // column goes with the column worm (up +Y to (3,2)[15]); (5,0)[5] is on the low row side and
  // (3,0)[3] in the column: -Y.
  const Topology mesh = Topology::mesh({6, 6});
  const NodeId s = at(mesh, 3, 1);
  const Plan plan = plan_path_multicast(make_request(mesh, kMultiPathAlgorithm, s,
                                                     nodes_at(mesh, {{0, 1, 0}, {3, 3, 0}, {5, 0, 0}, {3, 0, 0}}), 8,
                                                     PortModel::all_port()));
  ASSERT_EQ(plan.worms.size(), 4u);
  const std::map<NodeId, Port> first_port_of = {{at(mesh, 0, 1), port_of(0, true)},
                                                {at(mesh, 3, 3), port_of(1, false)},
                                                {at(mesh, 5, 0), port_of(0, false)},
                                                {at(mesh, 3, 0), port_of(1, true)}};
  for (const Worm& w : plan.worms) {
    ASSERT_EQ(w.header.destinations.size(), 1u);
    EXPECT_EQ(w.hops.front().port, first_port_of.at(w.header.destinations.front()));
    EXPECT_EQ(static_cast<int>(w.hops.size()), mesh.distance(s, w.header.destinations.front()));
  }
}

TEST(MultiPath, ScatteredDestinationsUseFewerLinksAndShorterWormsThanDualPath) {
  // Multi-path's expected behaviour (qualitative, docs/algorithms.md): on 16x16, random sources and 8..40 scattered
  // destinations, the mean traffic and the mean longest worm are both smaller than dual-path's.
  std::mt19937 rng(511);
  const Topology mesh = Topology::mesh({16, 16});
  long multi_traffic = 0, dual_traffic = 0, multi_longest = 0, dual_longest = 0;
  const auto longest = [](const Plan& plan) {
    std::size_t most = 0;
    for (const Worm& w : plan.worms) most = std::max(most, w.hops.size());
    return static_cast<long>(most);
  };
  for (int trial = 0; trial < 200; ++trial) {
    const NodeId s = std::uniform_int_distribution<NodeId>(0, mesh.node_count() - 1)(rng);
    std::vector<NodeId> nodes = all_but(mesh, s);
    std::shuffle(nodes.begin(), nodes.end(), rng);
    nodes.resize(static_cast<std::size_t>(std::uniform_int_distribution<int>(8, 40)(rng)));
    Request request = make_request(mesh, kMultiPathAlgorithm, s, nodes, 16, PortModel::all_port());
    const Plan multi = plan_path_multicast(request);
    request.algorithm = kDualPathAlgorithm;
    const Plan dual = plan_path_multicast(request);
    multi_traffic += multi.metrics.traffic;
    dual_traffic += dual.metrics.traffic;
    multi_longest += longest(multi);
    dual_longest += longest(dual);
    EXPECT_EQ(multi.metrics.steps, dual.metrics.steps);  // one step each
  }
  EXPECT_LT(multi_traffic, dual_traffic);
  EXPECT_LT(multi_longest, dual_longest);
}

// -----------------------------------------------------------------------------------------------
// Uniform and fixed dual-path ([2], Section 3.2)

class UniformFixedFourByFourTorus : public ::testing::Test {
 protected:
  // V9: s = (3,2)^11, K = labels {0,1,2,6,8,10,12,13,15} ("(0,2)^2" read as (2,0)^2).
  const Topology torus = Topology::torus({4, 4});
  const HamiltonianLabeling labeling = HamiltonianLabeling::cycle(torus);
  const NodeId s = at(torus, 3, 2);
  Plan plan(const char* algorithm) const {
    return plan_path_multicast(make_request(
        torus, algorithm, s, nodes_of_labels(labeling, {0, 1, 2, 6, 8, 10, 12, 13, 15}), 120, PortModel::all_port()));
  }
};

TEST_F(UniformFixedFourByFourTorus, UniformListsAndLengthsMatchV9) {
  ASSERT_EQ(labeling.label(s), 11);
  ASSERT_EQ(snake_label(3, 2, 4), 11);
  const Plan p = plan(kUniformDualPathAlgorithm);
  ASSERT_EQ(p.worms.size(), 2u);
  const Worm& high = p.worms[0];
  const Worm& low = p.worms[1];
  EXPECT_EQ(labels_of(labeling, high.header.destinations), (std::vector<int>{12, 13, 15, 0, 1}));
  EXPECT_EQ(labels_of(labeling, low.header.destinations), (std::vector<int>{10, 8, 6, 2}));
  EXPECT_EQ(high.hops.size(), 6u);
  EXPECT_EQ(low.hops.size(), 7u);
  EXPECT_EQ(labels_of(labeling, high.route), (std::vector<int>{11, 12, 13, 14, 15, 0, 1}));
  EXPECT_EQ(labels_of(labeling, low.route), (std::vector<int>{11, 10, 9, 8, 7, 6, 5, 2}));
  EXPECT_EQ(high.header.mode, RoutingMode::kHamiltonianCycle);
  EXPECT_EQ(high.header.subnetwork, ChannelNetwork::kHigh);
  EXPECT_EQ(high.header.vc, HamiltonianCycleRouting::kPHigh);
  EXPECT_EQ(low.header.subnetwork, ChannelNetwork::kLow);
  EXPECT_EQ(low.header.vc, HamiltonianCycleRouting::kPLow);
  // One boundary crossing, 15 -> 0 (a y-wrap), after which the worm holds the q VC.
  const std::vector<VcClass> classes = [&] {
    std::vector<VcClass> c;
    for (const RouteHop& h : high.hops) c.push_back(h.vc);
    return c;
  }();
  const VcClass ph = HamiltonianCycleRouting::kPHigh;
  const VcClass qh = HamiltonianCycleRouting::kQHigh;
  EXPECT_EQ(classes, (std::vector<VcClass>{ph, ph, ph, ph, qh, qh}));
  EXPECT_TRUE(torus.is_wraparound(high.hops[4].node, high.hops[4].port));
  for (const RouteHop& h : low.hops) EXPECT_EQ(h.vc, HamiltonianCycleRouting::kPLow);
  EXPECT_EQ(std::max(high.hops.size(), low.hops.size()), 7u);
}

TEST_F(UniformFixedFourByFourTorus, FixedListsAndLengthsMatchV10) {
  // V10: c = 8, label(s) = 11 >= 8, pivot label 3: D^h = [12,13,15,0,1,2] length 7, D^l = [10,8,6]
  // length 5.
  const Plan p = plan(kFixedDualPathAlgorithm);
  ASSERT_EQ(p.worms.size(), 2u);
  EXPECT_EQ(labels_of(labeling, p.worms[0].header.destinations), (std::vector<int>{12, 13, 15, 0, 1, 2}));
  EXPECT_EQ(labels_of(labeling, p.worms[1].header.destinations), (std::vector<int>{10, 8, 6}));
  EXPECT_EQ(p.worms[0].hops.size(), 7u);
  EXPECT_EQ(p.worms[1].hops.size(), 5u);
  EXPECT_EQ(labels_of(labeling, p.worms[1].route), (std::vector<int>{11, 10, 9, 8, 7, 6}));
  EXPECT_EQ(p.metrics.traffic, 12);
}

TEST_F(UniformFixedFourByFourTorus, PivotDestinationFollowsTheStrictInequalities) {
  // As written: label(s) >= c puts the pivot label(s) - c in D^h; label(s) < c puts label(s) + c in
  // D^l. From label 11 the pivot is 3; from label 2 (node (2,0)) it is 10.
  const DualPathLists from_eleven = fixed_dual_path_lists(labeling, s, nodes_of_labels(labeling, {3, 4}));
  EXPECT_EQ(labels_of(labeling, from_eleven.high), (std::vector<int>{3}));  // 3 is not > 11 - 8
  EXPECT_EQ(labels_of(labeling, from_eleven.low), (std::vector<int>{4}));
  const DualPathLists from_two =
      fixed_dual_path_lists(labeling, labeling.node(2), nodes_of_labels(labeling, {9, 10, 1}));
  EXPECT_EQ(labels_of(labeling, from_two.high), (std::vector<int>{9}));
  EXPECT_EQ(labels_of(labeling, from_two.low), (std::vector<int>{1, 10}));
}

class UniformFixedFourStar : public ::testing::Test {
 protected:
  // V12: s = 1432^17, K = labels {1,2,4,7,9,12,19,21,22}.
  const Topology star = Topology::star(4);
  const HamiltonianLabeling labeling = HamiltonianLabeling::cycle(star);
  const NodeId s = star.parse_node("1432");
  Plan plan(const char* algorithm) const {
    return plan_path_multicast(make_request(
        star, algorithm, s, nodes_of_labels(labeling, {1, 2, 4, 7, 9, 12, 19, 21, 22}), 120, PortModel::all_port()));
  }
};

TEST_F(UniformFixedFourStar, UniformListsAndLengthsMatchV12) {
  ASSERT_EQ(labeling.label(s), 17);
  const Plan p = plan(kUniformDualPathAlgorithm);
  ASSERT_EQ(p.worms.size(), 2u);
  EXPECT_EQ(labels_of(labeling, p.worms[0].header.destinations), (std::vector<int>{19, 21, 22, 1, 2}));
  EXPECT_EQ(labels_of(labeling, p.worms[1].header.destinations), (std::vector<int>{12, 9, 7, 4}));
  EXPECT_EQ(labels_of(labeling, p.worms[0].route), (std::vector<int>{17, 18, 19, 20, 21, 22, 23, 0, 1, 2}));
  EXPECT_EQ(labels_of(labeling, p.worms[1].route), (std::vector<int>{17, 12, 11, 10, 9, 8, 7, 6, 5, 4}));
  EXPECT_EQ(p.worms[0].hops.size(), 9u);
  EXPECT_EQ(p.worms[1].hops.size(), 9u);
}

TEST_F(UniformFixedFourStar, FixedListsAndLengthsMatchV13) {
  // V13: pivot label 5 (17 >= 12): D^h = [19,21,22,1,2,4] length 11, D^l = [12,9,7] length 6.
  const Plan p = plan(kFixedDualPathAlgorithm);
  ASSERT_EQ(p.worms.size(), 2u);
  EXPECT_EQ(labels_of(labeling, p.worms[0].header.destinations), (std::vector<int>{19, 21, 22, 1, 2, 4}));
  EXPECT_EQ(labels_of(labeling, p.worms[1].header.destinations), (std::vector<int>{12, 9, 7}));
  EXPECT_EQ(p.worms[0].hops.size(), 11u);
  EXPECT_EQ(p.worms[1].hops.size(), 6u);
  EXPECT_EQ(p.metrics.traffic, 17);
}

// HP dual-path on V12's multicast: Lin-Ni's lists on the path 0..23 split at label 17, high =
// [19,21,22] ascending, low = [12,9,7,4,2,1] descending. Routes by R on the path, worked by hand
// from V11's cycle (the neighbour with the largest label <= the target in the high network, the
// smallest >= it in the low one, common links only; the boundary links are {0,23}, {1,16}, {3,20},
// {7,22}): high 17-18-19-20-21-22 (5 hops); low 17-12 (g3), 12-11 (g4), 11-10, 10-9, 9-8, 8-7,
// 7-6, 6-5, 5-4, 4-3, 3-2, 2-1 (12 hops). Max 12 against uniform's 9 and fixed's 11.
TEST_F(UniformFixedFourStar, HpDualPathSplitsAtTheSourceLabelAndKeepsToCommonLinks) {
  const Plan p = plan(kHpDualPathAlgorithm);
  ASSERT_EQ(p.worms.size(), 2u);
  EXPECT_EQ(labels_of(labeling, p.worms[0].header.destinations), (std::vector<int>{19, 21, 22}));
  EXPECT_EQ(labels_of(labeling, p.worms[1].header.destinations), (std::vector<int>{12, 9, 7, 4, 2, 1}));
  EXPECT_EQ(labels_of(labeling, p.worms[0].route), (std::vector<int>{17, 18, 19, 20, 21, 22}));
  EXPECT_EQ(labels_of(labeling, p.worms[1].route), (std::vector<int>{17, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1}));
  EXPECT_EQ(p.metrics.traffic, 17);
  EXPECT_EQ(p.worms[0].header.vc, HamiltonianCycleRouting::kPHigh);
  EXPECT_EQ(p.worms[1].header.vc, HamiltonianCycleRouting::kPLow);
}

// -----------------------------------------------------------------------------------------------
// 3-DBL ([4], Section 3.1)

TEST(ThreeDbl, FourCubeBroadcastFromOneOneOneMatchesV20) {
  // V20: 4x4x4, source (1,1,1): |D_Z0| = 15, |D_ZU| = 32, |D_ZL| = 16; layer sources (1,1,2),
  // (1,1,3), (1,1,0); each layer runs V19's dual path (labels 7..15 up, 5..0 down, 9 and 6 hops);
  // critical path 2 Z hops + 9 in-layer hops = 11; 2 start-up phases.
  const Topology mesh = Topology::mesh({4, 4, 4});
  const NodeId s = at(mesh, 1, 1, 1);
  const Plan plan =
      plan_path_multicast(make_request(mesh, kThreeDblAlgorithm, s, all_but(mesh, s), 32, PortModel::all_port()));
  EXPECT_EQ(plan.metrics.steps, 2);
  ASSERT_TRUE(find_worm(plan, s, {at(mesh, 1, 1, 2), at(mesh, 1, 1, 3)}));
  ASSERT_TRUE(find_worm(plan, s, {at(mesh, 1, 1, 0)}));
  EXPECT_EQ(find_worm(plan, s, {at(mesh, 1, 1, 2), at(mesh, 1, 1, 3)})->route,
            (std::vector<NodeId>{s, at(mesh, 1, 1, 2), at(mesh, 1, 1, 3)}));

  std::map<int, int> delivered_in_layer;  // by z
  for (const Worm& w : plan.worms) {
    for (NodeId n : w.keeps_copy) ++delivered_in_layer[mesh.coord(n)[2]];
  }
  EXPECT_EQ(delivered_in_layer[1], 15);
  EXPECT_EQ(delivered_in_layer[2] + delivered_in_layer[3], 32);
  EXPECT_EQ(delivered_in_layer[0], 16);

  for (int z : {1, 2, 3, 0}) {
    const NodeId layer_source = at(mesh, 1, 1, z);
    std::vector<NodeId> up;
    std::vector<NodeId> down;
    for (int l = 7; l <= 15; ++l) up.push_back(snake_node(mesh, l, z));
    for (int l = 5; l >= 0; --l) down.push_back(snake_node(mesh, l, z));
    const Worm* high = find_worm(plan, layer_source, up);
    const Worm* low = find_worm(plan, layer_source, down);
    ASSERT_TRUE(high && low) << "layer " << z;
    EXPECT_EQ(high->hops.size(), 9u) << "layer " << z;
    EXPECT_EQ(low->hops.size(), 6u) << "layer " << z;
    EXPECT_EQ(high->step, z == 1 ? 1 : 2);
  }
  int critical = 0;
  NodeId farthest = kNoNode;
  for (const DestinationMetrics& d : plan.metrics.destinations) {
    if (d.path_hops > critical) {
      critical = d.path_hops;
      farthest = d.destination;
    }
  }
  EXPECT_EQ(critical, 11);
  EXPECT_EQ(farthest, snake_node(mesh, 15, 3));
  EXPECT_EQ(plan.metrics.stepwise_contention, 0);
  EXPECT_EQ(plan.metrics.depth_contention, 0);
  EXPECT_EQ(plan.metrics.distinct_channels, plan.metrics.traffic);
  EXPECT_EQ(plan.metrics.traffic, 63);  // a broadcast along paths that never share a node: N - 1
}

TEST(ThreeDbl, OnePortSourceSendsColumnWormsFirst) {
  // 4x4x4 broadcast from (1,1,1), one port: the source sends +Z (step 1), -Z (2), its layer's high
  // and low worms (3, 4); (1,1,2) and (1,1,3) hold the message after step 1 and send in steps 2, 3;
  // (1,1,0) after step 2, sending in steps 3, 4.
  const Topology mesh = Topology::mesh({4, 4, 4});
  const NodeId s = at(mesh, 1, 1, 1);
  const Plan plan =
      plan_path_multicast(make_request(mesh, kThreeDblAlgorithm, s, all_but(mesh, s), 32, PortModel::one_port()));
  std::map<NodeId, std::vector<int>> steps_of;
  for (const Worm& w : plan.worms) steps_of[w.sender].push_back(w.step);
  EXPECT_EQ(steps_of[s], (std::vector<int>{1, 2, 3, 4}));
  EXPECT_EQ(steps_of[at(mesh, 1, 1, 2)], (std::vector<int>{2, 3}));
  EXPECT_EQ(steps_of[at(mesh, 1, 1, 3)], (std::vector<int>{2, 3}));
  EXPECT_EQ(steps_of[at(mesh, 1, 1, 0)], (std::vector<int>{3, 4}));
  EXPECT_EQ(plan.metrics.steps, 4);
}

TEST(ThreeDbl, MulticastRelaysThroughLayerSourcesThatAreNotDestinations) {
  // 3x3x3 from (0,0,0) to (2,2,2) only: the +Z column worm hands the message to the relay
  // (0,0,2), which sends the in-layer worm; the layer source (0,0,1) of the empty layer is passed
  // through.
  const Topology mesh = Topology::mesh({3, 3, 3});
  const NodeId s = at(mesh, 0, 0, 0);
  const Plan plan =
      plan_path_multicast(make_request(mesh, kThreeDblAlgorithm, s, {at(mesh, 2, 2, 2)}, 8, PortModel::all_port()));
  ASSERT_EQ(plan.worms.size(), 2u);
  EXPECT_TRUE(plan.worms[0].keeps_copy.empty());
  EXPECT_EQ(plan.worms[0].relays, (std::vector<NodeId>{at(mesh, 0, 0, 2)}));
  EXPECT_EQ(plan.worms[0].route, (std::vector<NodeId>{s, at(mesh, 0, 0, 1), at(mesh, 0, 0, 2)}));
  EXPECT_EQ(plan.worms[1].sender, at(mesh, 0, 0, 2));
  EXPECT_EQ(plan.worms[1].keeps_copy, (std::vector<NodeId>{at(mesh, 2, 2, 2)}));
  EXPECT_EQ(plan.worms[1].step, 2);
  EXPECT_EQ(plan.metrics.destinations.at(0).path_hops, 2 + 4);
}

TEST(ThreeDbl, LayerWormsTakeTheTwoDimensionalSnakeRoutesOfSeedThree) {
  // Seed 003 runs the 2D dual-path on each layer's own row snake. The planner routes with R on the
  // 3D layer snake, whose labels in a layer are the 2D ones, reversed in odd layers; R picks the
  // same neighbour either way. Check it against the 2D planner on an X x Y mesh, layer by layer.
  const Topology mesh = Topology::mesh({4, 3, 5});
  const Topology layer = Topology::mesh({4, 3});
  std::mt19937 rng(3);
  for (int trial = 0; trial < 20; ++trial) {
    const NodeId s = std::uniform_int_distribution<NodeId>(0, mesh.node_count() - 1)(rng);
    const Coord o = mesh.coord(s);
    const Plan plan =
        plan_path_multicast(make_request(mesh, kThreeDblAlgorithm, s, all_but(mesh, s), 8, PortModel::all_port()));
    const NodeId flat_source = at(layer, o[0], o[1]);
    const Plan flat = plan_path_multicast(
        make_request(layer, kDualPathAlgorithm, flat_source, all_but(layer, flat_source), 8, PortModel::all_port()));
    std::set<std::vector<NodeId>> flat_routes;
    for (const Worm& w : flat.worms) flat_routes.insert(w.route);
    for (int z = 0; z < mesh.size(2); ++z) {
      std::set<std::vector<NodeId>> layer_routes;
      for (const Worm& w : plan.worms) {
        if (w.sender != at(mesh, o[0], o[1], z) || dimension_of(w.hops.front().port) == 2) continue;
        std::vector<NodeId> projected;
        for (NodeId n : w.route) {
          EXPECT_EQ(mesh.coord(n)[2], z);
          projected.push_back(at(layer, mesh.coord(n)[0], mesh.coord(n)[1]));
        }
        layer_routes.insert(projected);
      }
      EXPECT_EQ(layer_routes, flat_routes) << "source " << mesh.node_name(s) << ", layer " << z;
    }
  }
}

// -----------------------------------------------------------------------------------------------
// Properties on random requests

struct Scenario {
  const char* algorithm;
  Topology topology;
  int requests;
};

// Checks one plan; returns the relays (3-DBL's layer sources that are not destinations).
std::set<NodeId> check_plan(const Plan& plan) {
  const Request& r = plan.request;
  const Topology& t = r.topology;
  const std::string what = r.algorithm + " on " + t.spec() + " from " + t.node_name(r.source);
  const bool hp_dual_path = r.algorithm == kHpDualPathAlgorithm;
  const bool cycle = r.algorithm == kUniformDualPathAlgorithm || r.algorithm == kFixedDualPathAlgorithm || hp_dual_path;
  const HamiltonianLabeling labeling = cycle ? HamiltonianLabeling::cycle(t) : HamiltonianLabeling::path(t);
  const std::set<NodeId> destinations(r.destinations.begin(), r.destinations.end());
  std::map<NodeId, int> copies;
  std::map<NodeId, int> received_in_step = {{r.source, 0}};
  std::set<std::tuple<NodeId, int, int>> ports_in_use;  // (sender, step, port)
  int previous_step = 1;
  for (const Worm& w : plan.worms) {
    EXPECT_GE(w.step, previous_step) << what << ": worms ordered by step";
    previous_step = w.step;
    EXPECT_EQ(w.kind, WormKind::kMultidestinationPath) << what;
    // The header lists the deliveries and the relays, in route order.
    std::vector<NodeId> delivered;
    std::vector<NodeId> relayed;
    for (NodeId n : w.header.destinations) (destinations.count(n) ? delivered : relayed).push_back(n);
    EXPECT_EQ(w.keeps_copy, delivered) << what;
    EXPECT_EQ(w.relays, relayed) << what;
    EXPECT_TRUE(ports_in_use.insert({w.sender, w.step, w.port}).second) << what << ": a port twice in one step";
    EXPECT_GE(w.port, 0) << what;
    EXPECT_LT(w.port, r.ports.injection_ports(t)) << what;
    const auto held = received_in_step.find(w.sender);
    EXPECT_TRUE(held != received_in_step.end() && held->second < w.step) << what << ": sender does not hold";
    // The route: connected, along links the labeling uses, delivering in header order.
    EXPECT_EQ(w.route.size(), w.hops.size() + 1) << what;
    EXPECT_EQ(w.route.front(), w.sender) << what;
    for (std::size_t i = 0; i < w.hops.size(); ++i) {
      const RouteHop& h = w.hops[i];
      EXPECT_EQ(h.node, w.route[i]) << what;
      EXPECT_TRUE(labeling.uses_link(h.node, h.port)) << what << ": hop " << i;
      EXPECT_EQ(t.neighbour(h.node, h.port), w.route[i + 1]) << what;
      EXPECT_EQ(labeling.network(h.node, h.port), w.header.subnetwork) << what << ": hop " << i;
    }
    std::vector<int> at = delivery_hops(w);
    EXPECT_TRUE(std::is_sorted(at.begin(), at.end())) << what;
    EXPECT_EQ(at.back(), static_cast<int>(w.hops.size())) << what << ": the worm ends at its last destination";
    EXPECT_EQ(std::set<NodeId>(w.route.begin(), w.route.end()).size(), w.route.size()) << what << ": simple path";
    if (cycle) {
      // At most one boundary crossing; p classes before it, q from it on ([2], Section 3.1).
      const bool high = w.header.subnetwork == ChannelNetwork::kHigh;
      EXPECT_EQ(w.header.vc, high ? HamiltonianCycleRouting::kPHigh : HamiltonianCycleRouting::kPLow) << what;
      int crossings = 0;
      for (const RouteHop& h : w.hops) {
        if (labeling.link_class(h.node, h.port) == LinkClass::kBoundary) ++crossings;
        const VcClass expected = high ? (crossings ? HamiltonianCycleRouting::kQHigh : HamiltonianCycleRouting::kPHigh)
                                      : (crossings ? HamiltonianCycleRouting::kQLow : HamiltonianCycleRouting::kPLow);
        EXPECT_EQ(h.vc, expected) << what;
      }
      EXPECT_LE(crossings, 1) << what;
      if (hp_dual_path) {
        // Lin-Ni on the Hamiltonian path 0..N-1: no boundary link, labels strictly monotone in the
        // worm's network direction (docs/algorithms.md "HP dual-path").
        EXPECT_EQ(crossings, 0) << what;
        for (std::size_t i = 0; i + 1 < w.route.size(); ++i) {
          EXPECT_EQ(labeling.label(w.route[i + 1]) > labeling.label(w.route[i]), high) << what << ": hop " << i;
        }
        const int own = labeling.label(w.sender);
        for (NodeId d : w.header.destinations) EXPECT_EQ(labeling.label(d) > own, high) << what;
      }
    } else {
      // One channel network: labels strictly monotone along the route; the class is the network
      // (high 0, low 1: docs/rtl.md "VC-class plan") on every hop.
      const VcClass network_class = w.header.subnetwork == ChannelNetwork::kHigh ? 0 : 1;
      EXPECT_EQ(w.header.vc, network_class) << what;
      for (const RouteHop& h : w.hops) EXPECT_EQ(h.vc, network_class) << what;
      for (std::size_t i = 0; i + 1 < w.route.size(); ++i) {
        const bool rising = labeling.label(w.route[i + 1]) > labeling.label(w.route[i]);
        EXPECT_EQ(rising, w.header.subnetwork == ChannelNetwork::kHigh) << what;
      }
    }
    for (NodeId n : w.header.destinations) {
      ++copies[n];
      received_in_step.try_emplace(n, w.step);
    }
  }
  std::set<NodeId> relays;
  for (const Worm& w : plan.worms) relays.insert(w.relays.begin(), w.relays.end());
  for (NodeId d : r.destinations) EXPECT_EQ(copies[d], 1) << what << ": destination " << t.node_name(d);
  for (NodeId relay : relays) EXPECT_EQ(copies[relay], 1) << what << ": relay " << t.node_name(relay);
  EXPECT_EQ(copies.size(), destinations.size() + relays.size()) << what << ": a copy outside the header lists";
  expect_copies_only_at_destinations_and_relays_forward(plan, what);
  if (r.ports.kind != PortModelKind::kAllPort && r.ports.injection_ports(t) % 2 == 0) {
    for (const Worm& w : plan.worms) EXPECT_EQ(w.port_network, w.header.subnetwork) << what;
  }
  return relays;
}

PortModel random_ports(std::mt19937& rng, const char* algorithm) {
  if (std::string(algorithm) == kMultiPathAlgorithm) return PortModel::all_port();
  switch (std::uniform_int_distribution<int>(0, 5)(rng)) {
    case 0:
      return PortModel::one_port();
    case 1:
      return PortModel::two_port();
    case 2:
      return PortModel::d_port(3);
    default:
      return PortModel::all_port();
  }
}

Request random_request(std::mt19937& rng, const char* algorithm, const Topology& t) {
  const NodeId source = std::uniform_int_distribution<NodeId>(0, t.node_count() - 1)(rng);
  std::vector<NodeId> nodes = all_but(t, source);
  std::shuffle(nodes.begin(), nodes.end(), rng);
  const bool broadcast = std::uniform_int_distribution<int>(0, 9)(rng) == 0;
  if (!broadcast)
    nodes.resize(static_cast<std::size_t>(std::uniform_int_distribution<int>(1, t.node_count() - 1)(rng)));
  return make_request(t, algorithm, source, nodes, 16, random_ports(rng, algorithm));
}

TEST(PathBased, RandomMulticastsDeliverOnceAlongOneChannelNetworkPerWorm) {
  std::mt19937 rng(2024);
  const std::vector<Topology> path_2d = {Topology::mesh({4, 4}), Topology::mesh({5, 7}), Topology::mesh({8, 8}),
                                         Topology::mesh({2, 6}), Topology::torus({6, 5})};
  const std::vector<Topology> path_3d = {Topology::mesh({3, 3, 3}), Topology::mesh({4, 4, 4}),
                                         Topology::mesh({2, 3, 4}), Topology::torus({3, 4, 3})};
  const std::vector<Topology> cycle = {Topology::torus({4, 4}), Topology::torus({6, 4}), Topology::torus({5, 6}),
                                       Topology::torus({3, 2}), Topology::torus({8, 8}), Topology::star(4),
                                       Topology::star(5)};
  std::vector<Scenario> scenarios;
  for (const char* algorithm : {kLinAlgorithm, kDualPathAlgorithm, kMultiPathAlgorithm}) {
    for (const Topology& t : path_2d) scenarios.push_back({algorithm, t, 1000});
  }
  for (const char* algorithm : {kLinAlgorithm, kDualPathAlgorithm, kThreeDblAlgorithm}) {
    for (const Topology& t : path_3d) scenarios.push_back({algorithm, t, 1000});
  }
  for (const char* algorithm : {kUniformDualPathAlgorithm, kFixedDualPathAlgorithm}) {
    for (const Topology& t : cycle) scenarios.push_back({algorithm, t, 1000});
  }
  for (const Topology& t : {Topology::star(4), Topology::star(5)}) scenarios.push_back({kHpDualPathAlgorithm, t, 2000});
  std::map<std::string, int> planned;
  for (const Scenario& scenario : scenarios) {
    const Topology& t = scenario.topology;
    const int n = t.node_count();
    for (int trial = 0; trial < scenario.requests; ++trial) {
      const Request request = random_request(rng, scenario.algorithm, t);
      const Plan plan = plan_path_multicast(request);  // a second boundary crossing would throw here
      ++planned[scenario.algorithm];
      const std::set<NodeId> relays = check_plan(plan);
      const std::string what = std::string(scenario.algorithm) + " on " + t.spec();
      const bool all_port = request.ports.kind == PortModelKind::kAllPort;
      EXPECT_EQ(plan.metrics.stepwise_contention, 0) << what;
      if (scenario.algorithm == std::string(kThreeDblAlgorithm)) {
        // Relays are exactly the column nodes that start a layer's worms without being asked for.
        for (NodeId relay : relays) {
          const Coord c = t.coord(relay);
          const Coord o = t.coord(request.source);
          EXPECT_TRUE(c[0] == o[0] && c[1] == o[1]) << what;
        }
        EXPECT_EQ(plan.metrics.depth_contention, 0) << what;
        EXPECT_EQ(plan.metrics.distinct_channels, plan.metrics.traffic) << what;
        if (all_port) {
          EXPECT_LE(plan.metrics.steps, 2) << what;
        }
        continue;
      }
      EXPECT_TRUE(relays.empty()) << what;
      // The source's worms visit disjoint node sets (each a label-monotone run, or a cyclic run on
      // its own side of the source), so no worm and no plan exceeds N - 1 links.
      std::set<NodeId> visited;
      for (const Worm& w : plan.worms) {
        for (std::size_t i = 1; i < w.route.size(); ++i) EXPECT_TRUE(visited.insert(w.route[i]).second) << what;
        EXPECT_LE(static_cast<int>(w.hops.size()), n - 1) << what;
      }
      EXPECT_LE(plan.metrics.traffic, n - 1) << what;
      EXPECT_LE(plan.worms.size(), scenario.algorithm == std::string(kMultiPathAlgorithm) ? 4u : 2u) << what;
      if (all_port) {
        EXPECT_EQ(plan.metrics.steps, 1) << what;
      }
      if (scenario.algorithm == std::string(kUniformDualPathAlgorithm)) {
        EXPECT_EQ(plan.worms.front().header.destinations.size(), (request.destinations.size() + 1) / 2) << what;
      }
    }
  }
  for (const auto& [name, count] : planned) EXPECT_GE(count, 4000) << name;
}

TEST(PathBased, MultiPathSplitsByTheSourceColumnAndLeavesOnFourDistinctChannels) {
  // The multi-path split (docs/algorithms.md "Multi-path"), derived from the snake: in an even row
  // the high network runs +X along the row, in an odd row -X; the low network the other way. A row
  // worm holds only destinations strictly on its row channel's side of the source and leaves on
  // that channel; a column worm holds the others of its network and leaves on +Y (high) or -Y
  // (low).
  std::mt19937 rng(77);
  for (const Topology& t :
       {Topology::mesh({7, 6}), Topology::mesh({2, 5}), Topology::mesh({9, 9}), Topology::torus({4, 6})}) {
    const HamiltonianLabeling labeling = HamiltonianLabeling::path(t);
    for (int trial = 0; trial < 300; ++trial) {
      const Request request = random_request(rng, kMultiPathAlgorithm, t);
      const Coord s = t.coord(request.source);
      std::map<std::pair<ChannelNetwork, bool>, int> worms_of_kind;  // (network, row worm)
      for (const Worm& w : plan_path_multicast(request).worms) {
        const bool high = labeling.label(w.header.destinations.front()) > labeling.label(request.source);
        const int row_direction = (s[1] % 2 == 0) == high ? +1 : -1;
        const auto on_row_side = [&](NodeId d) { return (t.coord(d)[0] - s[0]) * row_direction > 0; };
        const bool row_worm = on_row_side(w.header.destinations.front());
        for (NodeId d : w.header.destinations) {
          EXPECT_EQ(labeling.label(d) > labeling.label(request.source), high) << t.spec();
          EXPECT_EQ(on_row_side(d), row_worm) << t.spec();
        }
        const Port expected = row_worm ? port_of(0, row_direction < 0) : port_of(1, !high);
        EXPECT_EQ(w.hops.front().port, expected) << t.spec() << " from " << t.node_name(request.source);
        EXPECT_EQ(w.port, expected) << t.spec();
        const std::pair<ChannelNetwork, bool> kind(w.header.subnetwork.value(), row_worm);
        EXPECT_EQ(++worms_of_kind[kind], 1) << t.spec();
      }
    }
  }
}

TEST(PathBased, ListsPartitionTheDestinations) {
  // Every preparation splits K into its two lists; Lin-Ni and uniform sizes as specified.
  std::mt19937 rng(9);
  const Topology torus = Topology::torus({6, 4});
  const HamiltonianLabeling labeling = HamiltonianLabeling::cycle(torus);
  for (int trial = 0; trial < 500; ++trial) {
    const Request r = random_request(rng, kFixedDualPathAlgorithm, torus);
    std::vector<NodeId> sorted = r.destinations;
    std::sort(sorted.begin(), sorted.end());
    for (const DualPathLists& lists : {lin_ni_dual_path_lists(labeling, r.source, r.destinations),
                                       uniform_dual_path_lists(labeling, r.source, r.destinations),
                                       fixed_dual_path_lists(labeling, r.source, r.destinations)}) {
      std::vector<NodeId> both = lists.high;
      both.insert(both.end(), lists.low.begin(), lists.low.end());
      std::sort(both.begin(), both.end());
      EXPECT_EQ(both, sorted);
    }
    const int own = labeling.label(r.source);
    for (NodeId d : lin_ni_dual_path_lists(labeling, r.source, r.destinations).high) {
      EXPECT_GT(labeling.label(d), own);
    }
  }
}

// -----------------------------------------------------------------------------------------------
// Bad input

TEST(PathBased, UnknownAlgorithmIsASpecErrorListingTheNames) {
  const Topology mesh = Topology::mesh({4, 4});
  try {
    plan_path_multicast(make_request(mesh, "quad-path", 0, {5}, 1, PortModel::all_port()));
    FAIL() << "no error";
  } catch (const SpecError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("quad-path"), std::string::npos) << message;
    for (const std::string& name : path_multicast_names()) EXPECT_NE(message.find(name), std::string::npos) << message;
  }
}

void expect_unsupported(const Request& request, const std::string& mentions) {
  try {
    plan_path_multicast(request);
    ADD_FAILURE() << request.algorithm << " on " << request.topology.spec() << ": no error";
  } catch (const UnsupportedError& e) {
    EXPECT_NE(std::string(e.what()).find(mentions), std::string::npos) << e.what();
  }
}

TEST(PathBased, TopologiesAndPortModelsOutsideEachAlgorithmAreUnsupportedErrors) {
  const Topology star = Topology::star(4);
  const Topology mesh2 = Topology::mesh({4, 4});
  const Topology mesh3 = Topology::mesh({3, 3, 3});
  const Topology odd_torus = Topology::torus({4, 5});
  const auto request = [](const Topology& t, const char* algorithm, PortModel ports = PortModel::all_port()) {
    return Request{t, algorithm, 0, {1}, 1, ports, {}};
  };
  expect_unsupported(request(star, kLinAlgorithm), "meshes");
  expect_unsupported(request(star, kDualPathAlgorithm), "star:4");
  expect_unsupported(request(mesh3, kMultiPathAlgorithm), "2D meshes");
  expect_unsupported(request(mesh2, kMultiPathAlgorithm, PortModel::two_port()), "all-port");
  expect_unsupported(request(mesh2, kUniformDualPathAlgorithm), "star graphs");
  expect_unsupported(request(odd_torus, kFixedDualPathAlgorithm), "even row count");
  expect_unsupported(request(mesh2, kHpDualPathAlgorithm), "star graphs");
  expect_unsupported(request(Topology::torus({4, 4}), kHpDualPathAlgorithm), "use dual-path");
  expect_unsupported(request(mesh2, kThreeDblAlgorithm), "3D meshes");
  expect_unsupported(request(star, kThreeDblAlgorithm), "3D meshes");
}

TEST(PathBased, InvalidRequestsThrowTheValidationErrors) {
  const Topology mesh = Topology::mesh({4, 4});
  EXPECT_THROW(plan_path_multicast(Request{mesh, kDualPathAlgorithm, 0, {}, 1, PortModel::all_port(), {}}),
               RequestError);
  EXPECT_THROW(plan_path_multicast(Request{mesh, kDualPathAlgorithm, 0, {0, 3}, 1, PortModel::all_port(), {}}),
               RequestError);
  EXPECT_THROW(plan_path_multicast(Request{mesh, kLinAlgorithm, 16, {3}, 1, PortModel::all_port(), {}}), NodeError);
  EXPECT_THROW(plan_path_multicast(Request{mesh, kMultiPathAlgorithm, 0, {3}, 0, PortModel::all_port(), {}}),
               RequestError);
}

}  // namespace
}  // namespace wormcast::model
