// SPDX-License-Identifier: Apache-2.0
// Deadlock freedom (Dally and Seitz): the channel dependency graph of every routing function is
// acyclic on every small network, and the checker does find the ring cycles of single-class
// dimension-order routing on tori, so an acyclic answer means something.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <deque>
#include <iostream>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "model/channel_dependency_graph.hpp"
#include "model/routing.hpp"
#include "model/topology.hpp"

namespace wormcast::model {
namespace {

// ------------------------------------------------------------------------------------------------
// The cycle finder on hand-built graphs.

// Channels of a 4x4 mesh in one or two classes, named for readability.
VirtualChannel vc_at(const Topology& t, int x, int y, Port port, VcClass vc = 0) {
  return VirtualChannel{t.node_at(Coord{x, y, 0}), port, vc};
}

bool same_channel_set(std::vector<VirtualChannel> a, std::vector<VirtualChannel> b) {
  const auto key = [](const VirtualChannel& c) { return std::tuple(c.node, c.port, c.vc); };
  const auto less = [&](const VirtualChannel& l, const VirtualChannel& r) { return key(l) < key(r); };
  std::sort(a.begin(), a.end(), less);
  std::sort(b.begin(), b.end(), less);
  return a == b;
}

// Each consecutive pair is a dependency and the last closes back to the first.
void expect_real_cycle(const ChannelDependencyGraph& graph, const std::vector<VirtualChannel>& cycle) {
  ASSERT_FALSE(cycle.empty());
  for (std::size_t i = 0; i < cycle.size(); ++i) {
    EXPECT_TRUE(graph.has_dependency(cycle[i], cycle[(i + 1) % cycle.size()]))
        << "link " << i << " of " << graph.describe_cycle(cycle);
  }
}

TEST(ChannelDependencyGraph, FindCycleReturnsNothingForAnAcyclicChain) {
  const Topology mesh = Topology::mesh({4, 4});
  ChannelDependencyGraph graph(mesh, 1);
  graph.add_dependency(vc_at(mesh, 0, 0, 0), vc_at(mesh, 1, 0, 0));
  graph.add_dependency(vc_at(mesh, 1, 0, 0), vc_at(mesh, 2, 0, 0));
  graph.add_dependency(vc_at(mesh, 2, 0, 0), vc_at(mesh, 3, 0, 2));
  EXPECT_EQ(graph.dependency_count(), 3U);
  EXPECT_EQ(graph.used_channel_count(), 4U);
  EXPECT_EQ(graph.find_cycle(), std::nullopt);
}

TEST(ChannelDependencyGraph, FindCycleReturnsNothingForADiamond) {
  // Two paths into the same channel: a depth-first search that mistakes a finished vertex for one
  // on its stack would report a cycle here.
  const Topology mesh = Topology::mesh({4, 4});
  ChannelDependencyGraph graph(mesh, 1);
  const VirtualChannel a = vc_at(mesh, 0, 0, 0);
  const VirtualChannel b = vc_at(mesh, 1, 0, 0);
  const VirtualChannel c = vc_at(mesh, 0, 1, 0);
  const VirtualChannel d = vc_at(mesh, 1, 1, 2);
  graph.add_dependency(a, b);
  graph.add_dependency(a, c);
  graph.add_dependency(b, d);
  graph.add_dependency(c, d);
  graph.add_dependency(d, vc_at(mesh, 1, 2, 2));
  EXPECT_EQ(graph.find_cycle(), std::nullopt);
}

TEST(ChannelDependencyGraph, FindCycleReturnsExactlyTheThreeCycleInDependencyOrder) {
  const Topology mesh = Topology::mesh({4, 4});
  ChannelDependencyGraph graph(mesh, 2);
  const VirtualChannel a = vc_at(mesh, 1, 1, 0, 1);
  const VirtualChannel b = vc_at(mesh, 2, 1, 2, 1);
  const VirtualChannel c = vc_at(mesh, 2, 2, 1, 0);
  // A tail into the cycle and a branch out of it that are not part of it.
  graph.add_dependency(vc_at(mesh, 0, 1, 0), a);
  graph.add_dependency(a, b);
  graph.add_dependency(b, vc_at(mesh, 2, 2, 0));
  graph.add_dependency(b, c);
  graph.add_dependency(c, a);
  const auto cycle = graph.find_cycle();
  ASSERT_TRUE(cycle.has_value());
  EXPECT_EQ(cycle->size(), 3U) << graph.describe_cycle(*cycle);
  EXPECT_TRUE(same_channel_set(*cycle, {a, b, c})) << graph.describe_cycle(*cycle);
  expect_real_cycle(graph, *cycle);
}

TEST(ChannelDependencyGraph, FindCycleFindsACycleAmongLaterChannels) {
  // An acyclic component first in index order, the cycle among higher-numbered channels.
  const Topology mesh = Topology::mesh({4, 4});
  ChannelDependencyGraph graph(mesh, 1);
  graph.add_dependency(vc_at(mesh, 0, 0, 0), vc_at(mesh, 1, 0, 0));
  const VirtualChannel a = vc_at(mesh, 2, 3, 0);
  const VirtualChannel b = vc_at(mesh, 3, 3, 3);
  graph.add_dependency(a, b);
  graph.add_dependency(b, a);
  const auto cycle = graph.find_cycle();
  ASSERT_TRUE(cycle.has_value());
  EXPECT_TRUE(same_channel_set(*cycle, {a, b})) << graph.describe_cycle(*cycle);
  expect_real_cycle(graph, *cycle);
}

TEST(ChannelDependencyGraph, FindCycleReturnsASelfLoopAsACycleOfOne) {
  const Topology mesh = Topology::mesh({4, 4});
  ChannelDependencyGraph graph(mesh, 1);
  const VirtualChannel a = vc_at(mesh, 2, 2, 1);
  graph.add_dependency(vc_at(mesh, 3, 2, 1), a);
  graph.add_dependency(a, a);
  const auto cycle = graph.find_cycle();
  ASSERT_TRUE(cycle.has_value());
  ASSERT_EQ(cycle->size(), 1U) << graph.describe_cycle(*cycle);
  EXPECT_EQ((*cycle)[0], a);
  expect_real_cycle(graph, *cycle);
}

// ------------------------------------------------------------------------------------------------
// Acyclicity proofs: routing function x topology.

struct ProofCase {
  std::string routing;
  std::string topology;
};

void PrintTo(const ProofCase& c, std::ostream* os) { *os << c.routing << " on " << c.topology; }

// `mesh:8x8` -> `Mesh8x8`, `star:4` -> `Star4`.
std::string case_name(const ::testing::TestParamInfo<ProofCase>& info) {
  std::string name;
  bool upper = true;
  for (char ch : info.param.topology) {
    if (ch == ':') {
      upper = false;
      continue;
    }
    name += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(ch))) : ch;
    upper = false;
  }
  return name;
}

std::vector<ProofCase> grid_cases(const std::string& routing, const std::string& kind, int dimensions, int low,
                                  int high) {
  std::vector<ProofCase> cases;
  for (int x = low; x <= high; ++x) {
    for (int y = low; y <= high; ++y) {
      if (dimensions == 2) {
        cases.push_back({routing, kind + ":" + std::to_string(x) + "x" + std::to_string(y)});
        continue;
      }
      for (int z = low; z <= high; ++z) {
        cases.push_back({routing, kind + ":" + std::to_string(x) + "x" + std::to_string(y) + "x" + std::to_string(z)});
      }
    }
  }
  return cases;
}

// 2D X, Y in 2..8 and 3D each dimension in 2..4, for the given kinds.
std::vector<ProofCase> all_grids(const std::string& routing, const std::vector<std::string>& kinds) {
  std::vector<ProofCase> cases;
  for (const std::string& kind : kinds) {
    for (const auto& c : grid_cases(routing, kind, 2, 2, 8)) cases.push_back(c);
    for (const auto& c : grid_cases(routing, kind, 3, 2, 4)) cases.push_back(c);
  }
  return cases;
}

std::vector<ProofCase> hamiltonian_cycle_cases() {
  std::vector<ProofCase> cases;
  for (int x = 2; x <= 8; ++x) {
    for (int y = 2; y <= 8; y += 2) {
      cases.push_back({"hamiltonian-cycle", "torus:" + std::to_string(x) + "x" + std::to_string(y)});
    }
  }
  for (int n = 3; n <= 5; ++n) cases.push_back({"hamiltonian-cycle", "star:" + std::to_string(n)});
  return cases;
}

// Hop distances by breadth-first search, to know independently whether routes of 2+ hops exist.
int diameter(const Topology& t) {
  int longest = 0;
  for (NodeId s = 0; s < t.node_count(); ++s) {
    std::vector<int> dist(static_cast<std::size_t>(t.node_count()), -1);
    std::deque<NodeId> queue = {s};
    dist[static_cast<std::size_t>(s)] = 0;
    while (!queue.empty()) {
      const NodeId u = queue.front();
      queue.pop_front();
      longest = std::max(longest, dist[static_cast<std::size_t>(u)]);
      for (Port p = 0; p < t.port_count(); ++p) {
        const NodeId v = t.neighbour(u, p);
        if (v == kNoNode || dist[static_cast<std::size_t>(v)] >= 0) continue;
        dist[static_cast<std::size_t>(v)] = dist[static_cast<std::size_t>(u)] + 1;
        queue.push_back(v);
      }
    }
  }
  return longest;
}

// Whether the function serves the pair at all (CPR only serves straight lines).
bool serves(const RoutingFunction& routing, NodeId s, NodeId d) {
  if (routing.name() != "cpr-line") return true;
  const Coord a = routing.topology().coord(s);
  const Coord b = routing.topology().coord(d);
  int differing = 0;
  for (int i = 0; i < routing.topology().dimensions(); ++i) {
    if (a[static_cast<std::size_t>(i)] != b[static_cast<std::size_t>(i)]) ++differing;
  }
  return differing <= 1;
}

class DeadlockFreedom : public ::testing::TestWithParam<ProofCase> {};

TEST_P(DeadlockFreedom, DependencyGraphCoversEveryInjectedRouteAndIsAcyclic) {
  const Topology t = Topology::parse(GetParam().topology);
  const auto routing = make_routing_function(GetParam().routing, t);
  const ChannelDependencyGraph graph = ChannelDependencyGraph::build(*routing);

  // Not vacuous: where a route of 2+ hops exists the graph has dependencies, and every pair of
  // consecutive channels of every injected route is one of them.
  const int longest_line = std::max({t.size(0), t.size(1), t.dimensions() == 3 ? t.size(2) : 0}) - 1;
  const bool multi_hop_routes = GetParam().routing == "cpr-line" ? longest_line >= 2 : diameter(t) >= 2;
  if (multi_hop_routes) {
    EXPECT_GT(graph.dependency_count(), 0U) << t.spec();
  }
  for (NodeId s = 0; s < t.node_count(); ++s) {
    for (NodeId d = 0; d < t.node_count(); ++d) {
      if (!serves(*routing, s, d)) continue;
      for (VcClass vc : routing->injection_classes()) {
        const std::vector<RouteHop> hops = trace_route(*routing, s, vc, d);
        for (std::size_t i = 1; i < hops.size(); ++i) {
          const VirtualChannel from{hops[i - 1].node, hops[i - 1].port, hops[i - 1].vc};
          const VirtualChannel to{hops[i].node, hops[i].port, hops[i].vc};
          ASSERT_TRUE(graph.has_dependency(from, to))
              << t.spec() << " route " << t.node_name(s) << " -> " << t.node_name(d) << " hop " << i;
        }
      }
    }
  }

  const auto cycle = graph.find_cycle();
  if (cycle)
    ADD_FAILURE() << GetParam().routing << " on " << t.spec() << " has the cycle " << graph.describe_cycle(*cycle);
}

// Counts the continuations of a multidestination worm (from `source_label` in class `vc`, visiting
// `stop_labels` in order) that are in `graph`: the channel the worm arrived over at a stop, which
// it holds, -> the first channel of its next leg.
int continuations_in_graph(const ChannelDependencyGraph& graph, const HamiltonianCycleRouting& routing,
                           int source_label, VcClass vc, const std::vector<int>& stop_labels) {
  NodeId here = routing.labeling().node(source_label);
  std::optional<RouteHop> arrival;
  int found = 0;
  for (int label : stop_labels) {
    const NodeId stop = routing.labeling().node(label);
    const std::vector<RouteHop> leg = trace_route(routing, here, vc, stop);
    if (arrival && graph.has_dependency(VirtualChannel{arrival->node, arrival->port, arrival->vc},
                                        VirtualChannel{leg.front().node, leg.front().port, leg.front().vc})) {
      ++found;
    }
    arrival = leg.back();
    vc = leg.back().vc;
    here = stop;
  }
  return found;
}

TEST(DeadlockFreedom, MultidestinationWormsHoldTheirArrivalChannelWhileRequestingTheNextLeg) {
  // A worm with intermediate reception still holds the channel it arrived over at a stop when it
  // requests the first channel toward its next destination, so the graph must contain that
  // dependency even where no single-destination route makes the same turn. On torus:4x4 the
  // high worm 0 -> [1, 6] arrives at (1,0) over +X and leaves over +Y, while the unicast 0 -> 6
  // leaves label 0 over the -X wrap and never passes (1,0).
  const Topology torus = Topology::parse("torus:4x4");
  const HamiltonianCycleRouting routing(torus);
  const ChannelDependencyGraph graph = ChannelDependencyGraph::build(routing);
  EXPECT_EQ(
      trace_route(routing, routing.labeling().node(0), HamiltonianCycleRouting::kPHigh, routing.labeling().node(6))
          .front()
          .port,
      1)
      << "the unicast 0 -> 6 should leave over -X, making the continuation below a new turn";
  EXPECT_EQ(continuations_in_graph(graph, routing, 0, HamiltonianCycleRouting::kPHigh, {1, 6}), 1);
  // V9's uniform high worm: four continuations, all in the graph; and the graph stays acyclic.
  EXPECT_EQ(continuations_in_graph(graph, routing, 11, HamiltonianCycleRouting::kPHigh, {12, 13, 15, 0, 1}), 4);
  EXPECT_FALSE(graph.find_cycle().has_value());
}

INSTANTIATE_TEST_SUITE_P(HamiltonianPath, DeadlockFreedom,
                         ::testing::ValuesIn(all_grids("hamiltonian-path", {"mesh", "torus"})), case_name);
INSTANTIATE_TEST_SUITE_P(DimensionOrder, DeadlockFreedom,
                         ::testing::ValuesIn(all_grids("dimension-order", {"mesh", "torus"})), case_name);
INSTANTIATE_TEST_SUITE_P(HamiltonianCycle, DeadlockFreedom, ::testing::ValuesIn(hamiltonian_cycle_cases()), case_name);
INSTANTIATE_TEST_SUITE_P(CprLine, DeadlockFreedom, ::testing::ValuesIn(all_grids("cpr-line", {"mesh"})), case_name);

// ------------------------------------------------------------------------------------------------
// The checker is not blind: single-class dimension-order routing on a torus has ring cycles.

class DeadlockDetection : public ::testing::TestWithParam<ProofCase> {};

TEST_P(DeadlockDetection, SingleVcTorusCycleIsFoundAndIsOneDirectedRing) {
  const Topology t = Topology::parse(GetParam().topology);
  const DimensionOrderRouting routing(t, DimensionOrderRouting::TorusClasses::kSingleClass);
  const ChannelDependencyGraph graph = ChannelDependencyGraph::build(routing);
  const auto cycle = graph.find_cycle();
  ASSERT_TRUE(cycle.has_value()) << t.spec() << ": single-class dimension-order routing reported acyclic";
  std::cout << "  " << t.spec() << " cycle: " << graph.describe_cycle(*cycle) << "\n";
  expect_real_cycle(graph, *cycle);

  // One ring: the same port (dimension and direction) everywhere, the other coordinates fixed,
  // and every node of the ring once (a directed ring's only cycle is the whole ring).
  const Port port = cycle->front().port;
  const int dim = dimension_of(port);
  const Coord first = t.coord(cycle->front().node);
  std::set<int> positions;
  for (const VirtualChannel& c : *cycle) {
    EXPECT_EQ(c.port, port) << graph.describe_cycle(*cycle);
    EXPECT_EQ(c.vc, 0);
    const Coord here = t.coord(c.node);
    for (int i = 0; i < t.dimensions(); ++i) {
      if (i != dim) {
        EXPECT_EQ(here[static_cast<std::size_t>(i)], first[static_cast<std::size_t>(i)]);
      }
    }
    positions.insert(here[static_cast<std::size_t>(dim)]);
  }
  EXPECT_EQ(static_cast<int>(cycle->size()), t.size(dim)) << graph.describe_cycle(*cycle);
  EXPECT_EQ(static_cast<int>(positions.size()), t.size(dim)) << graph.describe_cycle(*cycle);
}

INSTANTIATE_TEST_SUITE_P(DimensionOrderSingleVc, DeadlockDetection,
                         ::testing::Values(ProofCase{"dimension-order-single-vc", "torus:4x4"},
                                           ProofCase{"dimension-order-single-vc", "torus:5x5"},
                                           ProofCase{"dimension-order-single-vc", "torus:8x3"},
                                           ProofCase{"dimension-order-single-vc", "torus:3x6"},
                                           ProofCase{"dimension-order-single-vc", "torus:4x4x4"},
                                           ProofCase{"dimension-order-single-vc", "torus:2x2x5"}),
                         case_name);

TEST(DeadlockDetection, SingleVcTorusWithRingsOfAtMostThreeNodesIsAcyclic) {
  // With k <= 3 a minimal route takes at most one hop per ring, so no ring dependency exists and
  // the only dependencies are turns to a higher dimension: the checker must say acyclic here.
  for (const char* spec : {"torus:2x2", "torus:3x3", "torus:2x3", "torus:3x2x3"}) {
    const Topology t = Topology::parse(spec);
    const DimensionOrderRouting routing(t, DimensionOrderRouting::TorusClasses::kSingleClass);
    const ChannelDependencyGraph graph = ChannelDependencyGraph::build(routing);
    EXPECT_GT(graph.dependency_count(), 0U) << spec;
    const auto cycle = graph.find_cycle();
    if (cycle) ADD_FAILURE() << spec << " has the cycle " << graph.describe_cycle(*cycle);
  }
}

}  // namespace
}  // namespace wormcast::model
