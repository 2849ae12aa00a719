// SPDX-License-Identifier: Apache-2.0
// XY-path multicast on the 2D mesh ([5], Algorithms 3.3.1/3.3.2; V36, V37, V42's XY-path row;
// docs/algorithms.md "XY-path"). Expected values come from the worked examples or are derived by
// hand in the comments.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "model/errors.hpp"
#include "model/plan.hpp"
#include "model/xy_path.hpp"
#include "verif/model/plan_properties.hpp"

namespace wormcast::model {
namespace {

NodeId at(const Topology& t, int x, int y) { return t.node_at(Coord{x, y, 0}); }

std::vector<NodeId> nodes(const Topology& t, const std::vector<std::pair<int, int>>& xy) {
  std::vector<NodeId> out;
  for (const auto& [x, y] : xy) out.push_back(at(t, x, y));
  return out;
}

// The thesis's wormhole time D + L (2.1.10): no start-ups, one cycle per hop and per flit.
LatencyParameters hops_and_flits() { return LatencyParameters{0, 0, 1, 0, 1}; }

const Worm* worm_delivering(const Plan& plan, NodeId node) {
  for (const Worm& w : plan.worms) {
    if (std::find(w.keeps_copy.begin(), w.keeps_copy.end(), node) != w.keeps_copy.end()) return &w;
  }
  return nullptr;
}

int route_length(const Worm* w) { return w == nullptr ? 0 : static_cast<int>(w->hops.size()); }

const std::vector<const char*> kAlgorithms = {kXyPathAlgorithm, kXyPathXFirstAlgorithm};
const std::vector<XyFirstPath> kOrders = {XyFirstPath::kY, XyFirstPath::kX};

// ---------------------------------------------------------------------------------------------
// V36: Example 3.3.1 on the 10x10 mesh

TEST(XyPath, TenByTenExampleMatchesV36ForBothPartitionOrders) {
  const Topology mesh = Topology::mesh({10, 10});
  const std::vector<NodeId> d = nodes(mesh, {{2, 0}, {3, 1}, {7, 2}, {7, 5}, {0, 4}, {1, 3}});
  const std::vector<NodeId> x_prime = nodes(
      mesh, {{0, 0}, {1, 0}, {2, 0}, {3, 0}, {3, 1}, {3, 2}, {4, 2}, {5, 2}, {6, 2}, {7, 2}, {7, 3}, {7, 4}, {7, 5}});
  const std::vector<NodeId> y_prime = nodes(mesh, {{0, 0}, {0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 4}, {1, 3}});
  for (const char* algorithm : kAlgorithms) {
    const Plan plan =
        plan_xy_path(make_request(mesh, algorithm, at(mesh, 0, 0), d, 20, PortModel::all_port(), hops_and_flits()));
    ASSERT_EQ(plan.worms.size(), 2u) << algorithm;
    const Worm* x = worm_delivering(plan, at(mesh, 2, 0));
    const Worm* y = worm_delivering(plan, at(mesh, 0, 4));
    ASSERT_TRUE(x != nullptr && y != nullptr) << algorithm;
    EXPECT_EQ(x->route, x_prime) << algorithm;
    EXPECT_EQ(y->route, y_prime) << algorithm;
    EXPECT_EQ(x->header.destinations, nodes(mesh, {{2, 0}, {3, 1}, {7, 2}, {7, 5}})) << algorithm;
    EXPECT_EQ(y->header.destinations, nodes(mesh, {{0, 4}, {1, 3}})) << algorithm;
    EXPECT_EQ(route_length(x), 12) << algorithm;  // d_x
    EXPECT_EQ(route_length(y), 6) << algorithm;   // d_y
    EXPECT_EQ(plan.metrics.traffic, 18) << algorithm;
    EXPECT_EQ(plan.metrics.additional_traffic, 12) << algorithm;
    int farthest = 0;
    for (const DestinationMetrics& m : plan.metrics.destinations) farthest = std::max(farthest, m.path_hops);
    EXPECT_EQ(farthest, 12) << algorithm;
    EXPECT_DOUBLE_EQ(plan.metrics.latency, 32.0) << algorithm;  // max(12, 6) + L, L = 20
    EXPECT_EQ(plan.metrics.steps, 1) << algorithm;
  }
}

TEST(XyPath, RouteFromTwoZeroTowardThreeOneTakesThreeZeroV36) {
  // "At (2,0), R chooses (3,0), as stated."
  const Topology mesh = Topology::mesh({10, 10});
  for (const XyFirstPath order : kOrders) {
    const XyPartition partition = xy_partition(mesh, at(mesh, 0, 0), order);
    const std::vector<int> labels = base_path_labels(mesh, partition.x_path);
    EXPECT_EQ(xy_route(mesh, labels, at(mesh, 2, 0), at(mesh, 3, 1)), nodes(mesh, {{2, 0}, {3, 0}, {3, 1}}));
  }
}

// ---------------------------------------------------------------------------------------------
// V37: the partition (Algorithm 3.3.1)

std::vector<std::string> grid_of(const Topology& mesh, const XyPartition& partition) {
  std::vector<std::string> rows(static_cast<std::size_t>(mesh.size(1)), std::string(mesh.size(0), '.'));
  const auto mark = [&](const std::vector<NodeId>& path, char c) {
    for (NodeId n : path) {
      const Coord xy = mesh.coord(n);
      rows[static_cast<std::size_t>(xy[1])][static_cast<std::size_t>(xy[0])] = c;
    }
  };
  mark(partition.x_path, 'X');
  mark(partition.y_path, 'Y');
  const Coord s = mesh.coord(partition.x_path.front());
  rows[static_cast<std::size_t>(s[1])][static_cast<std::size_t>(s[0])] = 'S';
  return rows;
}

std::vector<std::string> repeat(const std::string& row, int times) {
  return std::vector<std::string>(static_cast<std::size_t>(times), row);
}

std::vector<std::string> concat(std::initializer_list<std::vector<std::string>> parts) {
  std::vector<std::string> out;
  for (const auto& part : parts) out.insert(out.end(), part.begin(), part.end());
  return out;
}

TEST(XyPath, TenByTenYFirstPartitionMatchesV37Grid) {
  // V37, Y-first (the narrative): X has 50 edges, Y has 49; rows printed with y = 0 at the top.
  const Topology mesh = Topology::mesh({10, 10});
  const XyPartition p = xy_partition(mesh, at(mesh, 0, 0), XyFirstPath::kY);
  EXPECT_EQ(p.x_path.size() - 1, 50u);
  EXPECT_EQ(p.y_path.size() - 1, 49u);
  EXPECT_EQ(grid_of(mesh, p),
            concat({{"SXXXXXXXXX", "YXXXXXXXXX", "YXXXXXXXXX"}, repeat("YYYYYXXXXX", 4), repeat("YYYYYYYYYX", 3)}));
}

TEST(XyPath, TenByTenXFirstPartitionMatchesV37Grid) {
  // V37, X-first (the pseudo-code): X has 49 edges, Y has 50.
  const Topology mesh = Topology::mesh({10, 10});
  const XyPartition p = xy_partition(mesh, at(mesh, 0, 0), XyFirstPath::kX);
  EXPECT_EQ(p.x_path.size() - 1, 49u);
  EXPECT_EQ(p.y_path.size() - 1, 50u);
  EXPECT_EQ(grid_of(mesh, p),
            concat({{"SXXXXXXXXX"}, repeat("YYYXXXXXXX", 4), repeat("YYYYYYYXXX", 4), {"YYYYYYYYYY"}}));
}

TEST(XyPath, SixteenByEightAndEightBySixteenPathsHaveSixtyFiveAndSixtyTwoEdgesV37) {
  // V37: "For 16x8 and 8x16 the lengths are 65 and 62 edges". The vector names neither
  // the order nor which path is which; the two paths of each mesh have 65 and 62 edges (127 = N-1
  // in all) under both partition orders.
  for (const auto& size : std::vector<std::vector<int>>{{16, 8}, {8, 16}}) {
    const Topology mesh = Topology::mesh(size);
    for (const XyFirstPath order : kOrders) {
      const XyPartition p = xy_partition(mesh, at(mesh, 0, 0), order);
      const std::multiset<std::size_t> lengths = {p.x_path.size() - 1, p.y_path.size() - 1};
      EXPECT_EQ(lengths, (std::multiset<std::size_t>{62, 65})) << mesh.spec();
    }
  }
}

// Prop 3.3.1 and the algorithm's shape: two paths that start at the source, meet only there, cover
// the mesh, step between neighbours; X turns only to move to the next row away from the source, Y
// only to the next column away from it.
void expect_hamiltonian_partition(const Topology& mesh, NodeId source, XyFirstPath order) {
  const XyPartition p = xy_partition(mesh, source, order);
  const std::string what = mesh.spec() + " from (" + mesh.node_name(source) + ")";
  ASSERT_EQ(p.x_path.front(), source) << what;
  ASSERT_EQ(p.y_path.front(), source) << what;
  std::vector<int> seen(static_cast<std::size_t>(mesh.node_count()), 0);
  for (const auto* path : {&p.x_path, &p.y_path}) {
    for (std::size_t i = 1; i < path->size(); ++i) ++seen[static_cast<std::size_t>((*path)[i])];
  }
  for (NodeId n = 0; n < mesh.node_count(); ++n) {
    ASSERT_EQ(seen[static_cast<std::size_t>(n)], n == source ? 0 : 1) << what << " (" << mesh.node_name(n) << ")";
  }
  const Coord s = mesh.coord(source);
  for (int along = 0; along < 2; ++along) {
    const std::vector<NodeId>& path = along == 0 ? p.x_path : p.y_path;
    const std::size_t across = static_cast<std::size_t>(1 - along);
    for (std::size_t i = 1; i < path.size(); ++i) {
      ASSERT_EQ(mesh.distance(path[i - 1], path[i]), 1) << what;
      const Coord a = mesh.coord(path[i - 1]);
      const Coord b = mesh.coord(path[i]);
      if (a[across] != b[across]) {
        ASSERT_EQ(std::abs(b[across] - s[across]), std::abs(a[across] - s[across]) + 1) << what;
      }
    }
  }
}

TEST(XyPath, PartitionIsTwoHamiltonianPathsMeetingAtTheSourceOnEveryMeshUpToTwenty) {
  for (int nx = 2; nx <= 20; ++nx) {
    for (int ny = 2; ny <= 20; ++ny) {
      const Topology mesh = Topology::mesh({nx, ny});
      for (const NodeId corner : {at(mesh, 0, 0), at(mesh, nx - 1, 0), at(mesh, 0, ny - 1), at(mesh, nx - 1, ny - 1)}) {
        for (const XyFirstPath order : kOrders) {
          expect_hamiltonian_partition(mesh, corner, order);
          if (HasFatalFailure()) return;
        }
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Routing (Algorithm 3.3.2, eq. 3.3.1)

TEST(XyPath, RouteIsShortestBetweenEveryPairOnEveryBasePathV42) {
  // V42's XY-path row (Prop 3.3.5): on the partitions of 10x10, 20x20, 16x8, 8x16 and 7x5, both
  // orders, R routes every pair u -> v (L(u) < L(v)) of a base path along a shortest path.
  for (const auto& size : std::vector<std::vector<int>>{{10, 10}, {20, 20}, {16, 8}, {8, 16}, {7, 5}}) {
    const Topology mesh = Topology::mesh(size);
    for (const XyFirstPath order : kOrders) {
      const XyPartition p = xy_partition(mesh, at(mesh, 0, 0), order);
      for (const auto* path : {&p.x_path, &p.y_path}) {
        const std::vector<int> labels = base_path_labels(mesh, *path);
        int violations = 0;
        for (std::size_t i = 0; i < path->size(); ++i) {
          for (std::size_t j = i + 1; j < path->size(); ++j) {
            const std::vector<NodeId> route = xy_route(mesh, labels, (*path)[i], (*path)[j]);
            if (static_cast<int>(route.size()) - 1 != mesh.distance((*path)[i], (*path)[j])) ++violations;
          }
        }
        EXPECT_EQ(violations, 0) << mesh.spec();
      }
    }
  }
}

TEST(XyPath, TimeLowerBoundIsHalfOfKNotK) {
  // [5]'s bound is wrong (docs/algorithms.md "XY-path"): one destination next to the source on each
  // path: time = 1 + L < K + L = 2 + L, and equal to ceil(K/2) + L.
  const Topology mesh = Topology::mesh({10, 10});
  for (const char* algorithm : kAlgorithms) {
    const Plan plan = plan_xy_path(make_request(mesh, algorithm, at(mesh, 0, 0), {at(mesh, 1, 0), at(mesh, 0, 1)}, 20,
                                                PortModel::all_port(), hops_and_flits()));
    EXPECT_EQ(plan.worms.size(), 2u) << algorithm;
    EXPECT_DOUBLE_EQ(plan.metrics.latency, 21.0) << algorithm;
    EXPECT_LT(plan.metrics.latency, 2 + 20) << algorithm;
  }
}

TEST(XyPath, OtherCornersAreReflectionsOfTheOrigin) {
  // V36 mirrored onto each corner: the same d_x = 12, d_y = 6 and the mirrored X'.
  const Topology mesh = Topology::mesh({10, 10});
  const std::vector<std::pair<int, int>> d = {{2, 0}, {3, 1}, {7, 2}, {7, 5}, {0, 4}, {1, 3}};
  const std::vector<std::pair<int, int>> x_prime = {{0, 0}, {1, 0}, {2, 0}, {3, 0}, {3, 1}, {3, 2}, {4, 2},
                                                    {5, 2}, {6, 2}, {7, 2}, {7, 3}, {7, 4}, {7, 5}};
  for (const bool flip_x : {false, true}) {
    for (const bool flip_y : {false, true}) {
      const auto mirror = [&](const std::vector<std::pair<int, int>>& xy) {
        std::vector<std::pair<int, int>> out;
        for (const auto& [x, y] : xy) out.push_back({flip_x ? 9 - x : x, flip_y ? 9 - y : y});
        return nodes(mesh, out);
      };
      const NodeId source = mirror({{0, 0}}).front();
      const Plan plan = plan_xy_path(
          make_request(mesh, kXyPathAlgorithm, source, mirror(d), 20, PortModel::all_port(), hops_and_flits()));
      const Worm* x = worm_delivering(plan, mirror({{2, 0}}).front());
      ASSERT_NE(x, nullptr);
      EXPECT_EQ(x->route, mirror(x_prime)) << "corner (" << mesh.node_name(source) << ")";
      EXPECT_EQ(plan.metrics.traffic, 18);
      EXPECT_DOUBLE_EQ(plan.metrics.latency, 32.0);
    }
  }
}

TEST(XyPath, RandomMulticastsDeliverOnceAlongShortestLegsWithinTheBounds) {
  // 4000 random requests (2000 per order; meshes up to 20x20, any corner, K from 1 to N-1): each
  // destination receives exactly once and no other node keeps a copy; each worm runs from the
  // source over mesh links through its destinations, with every leg a shortest path (Prop 3.3.5);
  // time = max(d_x, d_y) + L and traffic = d_x + d_y (4.3.1, 4.3.2); ceil(K/2) + L <= time <=
  // K * D + L ([5]) and K <= traffic <= K * D, D the multicast zone's diameter (Props 3.3.7-8).
  std::mt19937 rng(40048);
  std::uniform_int_distribution<int> side(2, 20);
  for (int trial = 0; trial < 4000; ++trial) {
    const Topology mesh = Topology::mesh({side(rng), side(rng)});
    const int nx = mesh.size(0);
    const int ny = mesh.size(1);
    const int corner = std::uniform_int_distribution<int>(0, 3)(rng);
    const NodeId s = at(mesh, corner % 2 == 0 ? 0 : nx - 1, corner / 2 == 0 ? 0 : ny - 1);
    std::vector<NodeId> others;
    for (NodeId n = 0; n < mesh.node_count(); ++n) {
      if (n != s) others.push_back(n);
    }
    std::shuffle(others.begin(), others.end(), rng);
    const int k_max = trial % 4 == 0 ? mesh.node_count() - 1 : std::min(mesh.node_count() - 1, 12);
    const int k = std::uniform_int_distribution<int>(1, k_max)(rng);
    const std::vector<NodeId> d(others.begin(), others.begin() + k);
    const int length = std::uniform_int_distribution<int>(1, 40)(rng);
    const char* algorithm = kAlgorithms[static_cast<std::size_t>(trial % 2)];
    const Plan plan =
        plan_xy_path(make_request(mesh, algorithm, s, d, length, PortModel::all_port(), hops_and_flits()));
    const std::string what = std::string(algorithm) + " " + mesh.spec() + " trial " + std::to_string(trial);

    std::map<NodeId, int> copies;
    int longest = 0;
    for (const Worm& w : plan.worms) {
      ASSERT_EQ(w.sender, s) << what;
      ASSERT_EQ(w.step, 1) << what;
      ASSERT_EQ(w.kind, WormKind::kMultidestinationPath) << what;
      ASSERT_EQ(w.header.mode, RoutingMode::kSourceRouted) << what;
      ASSERT_EQ(w.header.destinations, w.keeps_copy) << what;
      ASSERT_EQ(w.route.size(), w.hops.size() + 1) << what;
      ASSERT_EQ(w.route.front(), s) << what;
      ASSERT_EQ(w.route.back(), w.keeps_copy.back()) << what << ": a worm ends at its last destination";
      ASSERT_EQ(w.port, w.hops.front().port) << what;
      for (std::size_t h = 0; h < w.hops.size(); ++h) {
        ASSERT_EQ(w.hops[h].node, w.route[h]) << what;
        ASSERT_EQ(mesh.neighbour(w.route[h], w.hops[h].port), w.route[h + 1]) << what;
      }
      // Legs: source -> first destination -> ... in route order, each a shortest path.
      std::size_t previous = 0;
      for (NodeId n : w.keeps_copy) {
        const auto found = std::find(w.route.begin() + static_cast<std::ptrdiff_t>(previous), w.route.end(), n);
        ASSERT_NE(found, w.route.end()) << what;
        const std::size_t here = static_cast<std::size_t>(found - w.route.begin());
        ASSERT_EQ(static_cast<int>(here - previous), mesh.distance(w.route[previous], n)) << what;
        previous = here;
        ++copies[n];
      }
      longest = std::max(longest, static_cast<int>(w.hops.size()));
    }
    ASSERT_EQ(copies.size(), d.size()) << what;
    for (NodeId n : d) ASSERT_EQ(copies[n], 1) << what << " (" << mesh.node_name(n) << ")";
    expect_copies_only_at_destinations_and_relays_forward(plan, what);

    const Coord sc = mesh.coord(s);
    int zone_x = 0;
    int zone_y = 0;
    for (NodeId n : d) {
      const Coord c = mesh.coord(n);
      zone_x = std::max(zone_x, std::abs(c[0] - sc[0]));
      zone_y = std::max(zone_y, std::abs(c[1] - sc[1]));
    }
    const int diameter = zone_x + zone_y;
    ASSERT_DOUBLE_EQ(plan.metrics.latency, longest + length) << what;
    ASSERT_GE(plan.metrics.latency, (k + 1) / 2 + length) << what;
    ASSERT_LE(plan.metrics.latency, k * diameter + length) << what;
    ASSERT_GE(plan.metrics.traffic, k) << what;
    ASSERT_LE(plan.metrics.traffic, k * diameter) << what;
    ASSERT_EQ(plan.metrics.stepwise_contention, 0) << what << ": the two paths share no node but the source";
  }
}

// ---------------------------------------------------------------------------------------------
// Bad input

TEST(XyPath, BadRequestsAreRejectedWithTypedErrors) {
  const Topology mesh = Topology::mesh({10, 10});
  const auto expect_message = [](const std::exception& e, const std::string& part) {
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
  };
  try {  // the thesis's source is the origin; other corners are reflections
    plan_xy_path(make_request(mesh, kXyPathAlgorithm, at(mesh, 3, 4), {at(mesh, 1, 2)}, 20, PortModel::all_port()));
    FAIL();
  } catch (const UnsupportedError& e) {
    expect_message(e, "(3,4) is not a corner");
    expect_message(e, "the thesis [5] puts it at the origin");
    expect_message(e, "docs/algorithms.md, \"Other sources\"");
  }
  try {
    plan_xy_path(make_request(Topology::torus({4, 4}), kXyPathAlgorithm, 0, {5}, 20, PortModel::all_port()));
    FAIL();
  } catch (const UnsupportedError& e) {
    expect_message(e, "torus:4x4");
    expect_message(e, "2D meshes");
  }
  EXPECT_THROW(
      plan_xy_path(make_request(Topology::mesh({3, 3, 3}), kXyPathAlgorithm, 0, {5}, 20, PortModel::all_port())),
      UnsupportedError);
  try {
    plan_xy_path(make_request(mesh, kXyPathAlgorithm, 0, {5}, 20, PortModel::one_port()));
    FAIL();
  } catch (const UnsupportedError& e) {
    expect_message(e, "one-port");
    expect_message(e, "all-port");
  }
  try {
    plan_xy_path(make_request(mesh, "xy", 0, {5}, 20, PortModel::all_port()));
    FAIL();
  } catch (const SpecError& e) {
    expect_message(e, "'xy'");
    expect_message(e, "xy-path, xy-path-x-first");
  }
  const XyPartition p = xy_partition(mesh, 0, XyFirstPath::kY);
  const std::vector<int> labels = base_path_labels(mesh, p.x_path);
  EXPECT_THROW(xy_route(mesh, labels, at(mesh, 3, 0), at(mesh, 1, 0)), RoutingError);  // backwards
  EXPECT_THROW(xy_route(mesh, labels, at(mesh, 0, 0), at(mesh, 0, 5)), RoutingError);  // on Y, not X
  EXPECT_THROW(xy_partition(mesh, 100, XyFirstPath::kY), NodeError);
}

}  // namespace
}  // namespace wormcast::model
