// SPDX-License-Identifier: Apache-2.0
// Topologies (model/topology.hpp): spec and node parsing, the documented port numbering, neighbour
// symmetry, degrees, hop distances against an independent breadth-first search, and the
// lexicographic ranking of star-graph permutations.
#include "model/topology.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <deque>
#include <set>
#include <string>
#include <vector>

namespace wormcast::model {
namespace {

// Every topology kind and dimension count, including size-2 rings and a non-square torus.
const std::vector<std::string> kTopologySpecs = {"mesh:2x2",  "mesh:5x4",  "mesh:8x8",  "mesh:3x4x2",  "mesh:4x4x4",
                                                 "torus:2x2", "torus:5x4", "torus:4x4", "torus:3x4x2", "torus:5x5x5",
                                                 "star:3",    "star:4",    "star:5",    "star:6"};

// Hop distances from `source` by breadth-first search over neighbour(): independent of distance().
std::vector<int> bfs_distances(const Topology& t, NodeId source) {
  std::vector<int> dist(static_cast<std::size_t>(t.node_count()), -1);
  std::deque<NodeId> queue = {source};
  dist[static_cast<std::size_t>(source)] = 0;
  while (!queue.empty()) {
    const NodeId here = queue.front();
    queue.pop_front();
    for (Port p = 0; p < t.port_count(); ++p) {
      const NodeId next = t.neighbour(here, p);
      if (next == kNoNode || dist[static_cast<std::size_t>(next)] >= 0) continue;
      dist[static_cast<std::size_t>(next)] = dist[static_cast<std::size_t>(here)] + 1;
      queue.push_back(next);
    }
  }
  return dist;
}

int factorial(int n) { return n <= 1 ? 1 : n * factorial(n - 1); }

// --- Spec strings --------------------------------------------------------------------------------

struct SpecCase {
  std::string spec;
  TopologyKind kind;
  int dimensions;
  std::vector<int> sizes;
  int star_order;
  int node_count;
  int port_count;
};

class TopologySpec : public ::testing::TestWithParam<SpecCase> {};

TEST_P(TopologySpec, ParsesToTheStatedShapeAndPrintsBackTheSameSpec) {
  const SpecCase& c = GetParam();
  const Topology t = Topology::parse(c.spec);
  EXPECT_EQ(t.kind(), c.kind);
  EXPECT_EQ(t.is_mesh(), c.kind == TopologyKind::kMesh);
  EXPECT_EQ(t.is_torus(), c.kind == TopologyKind::kTorus);
  EXPECT_EQ(t.is_star(), c.kind == TopologyKind::kStar);
  EXPECT_EQ(t.dimensions(), c.dimensions);
  for (std::size_t d = 0; d < c.sizes.size(); ++d) EXPECT_EQ(t.size(static_cast<int>(d)), c.sizes[d]) << "d=" << d;
  EXPECT_EQ(t.star_order(), c.star_order);
  EXPECT_EQ(t.node_count(), c.node_count);
  EXPECT_EQ(t.port_count(), c.port_count);
  EXPECT_EQ(t.spec(), c.spec);
  EXPECT_EQ(Topology::parse(t.spec()), t);
}

INSTANTIATE_TEST_SUITE_P(Topology, TopologySpec,
                         ::testing::Values(SpecCase{"mesh:8x8", TopologyKind::kMesh, 2, {8, 8}, 0, 64, 4},
                                           SpecCase{"torus:4x4", TopologyKind::kTorus, 2, {4, 4}, 0, 16, 4},
                                           SpecCase{"mesh:4x4x4", TopologyKind::kMesh, 3, {4, 4, 4}, 0, 64, 6},
                                           SpecCase{"torus:5x5x5", TopologyKind::kTorus, 3, {5, 5, 5}, 0, 125, 6},
                                           SpecCase{"star:4", TopologyKind::kStar, 0, {}, 4, 24, 3},
                                           SpecCase{"mesh:5x3", TopologyKind::kMesh, 2, {5, 3}, 0, 15, 4},
                                           SpecCase{"torus:3x4x2", TopologyKind::kTorus, 3, {3, 4, 2}, 0, 24, 6},
                                           SpecCase{"star:6", TopologyKind::kStar, 0, {}, 6, 720, 5}));

TEST(Topology, FactoriesEqualTheirParsedSpecs) {
  EXPECT_EQ(Topology::mesh({8, 8}), Topology::parse("mesh:8x8"));
  EXPECT_EQ(Topology::torus({5, 5, 5}), Topology::parse("torus:5x5x5"));
  EXPECT_EQ(Topology::star(4), Topology::parse("star:4"));
  EXPECT_FALSE(Topology::mesh({4, 4}) == Topology::torus({4, 4}));
  EXPECT_FALSE(Topology::mesh({4, 5}) == Topology::mesh({5, 4}));
}

// --- Node names ----------------------------------------------------------------------------------

TEST(Topology, CoordinateNodeSpecsParseToThoseCoordinates) {
  const Topology mesh = Topology::parse("mesh:8x8");
  EXPECT_EQ(mesh.coord(mesh.parse_node("3,2")), (Coord{3, 2, 0}));
  EXPECT_EQ(mesh.coord(mesh.parse_node("0,7")), (Coord{0, 7, 0}));
  const Topology cube = Topology::parse("mesh:4x4x4");
  EXPECT_EQ(cube.coord(cube.parse_node("1,1,1")), (Coord{1, 1, 1}));
  EXPECT_EQ(cube.coord(cube.parse_node("3,0,2")), (Coord{3, 0, 2}));
  EXPECT_EQ(cube.node_name(cube.node_at(Coord{3, 0, 2})), "3,0,2");
}

TEST(Topology, StarNodeSpecParsesToThatPermutation) {
  const Topology star = Topology::parse("star:4");
  const Permutation p = star.permutation(star.parse_node("1432"));
  EXPECT_EQ(p[0], 1);
  EXPECT_EQ(p[1], 4);
  EXPECT_EQ(p[2], 3);
  EXPECT_EQ(p[3], 2);
  EXPECT_EQ(star.node_name(star.parse_node("1432")), "1432");
  EXPECT_EQ(star.node_name(0), "1234") << "node 0 is the identity";
}

TEST(Topology, EveryNodeNameParsesBackToItsNode) {
  for (const std::string& spec : kTopologySpecs) {
    const Topology t = Topology::parse(spec);
    std::set<std::string> names;
    for (NodeId node = 0; node < t.node_count(); ++node) {
      const std::string name = t.node_name(node);
      EXPECT_EQ(t.parse_node(name), node) << spec << " " << name;
      names.insert(name);
      if (t.is_star()) continue;
      // The name is the coordinates joined by commas.
      const Coord c = t.coord(node);
      std::string expected = std::to_string(c[0]) + "," + std::to_string(c[1]);
      if (t.dimensions() == 3) expected += "," + std::to_string(c[2]);
      EXPECT_EQ(name, expected) << spec;
    }
    EXPECT_EQ(static_cast<int>(names.size()), t.node_count()) << spec << ": names are unique";
  }
}

TEST(Topology, CoordinatesCoverEveryPointOfTheGridOnce) {
  for (const char* spec : {"mesh:5x4", "torus:3x4x2", "mesh:4x4x4"}) {
    const Topology t = Topology::parse(spec);
    std::set<Coord> seen;
    for (NodeId node = 0; node < t.node_count(); ++node) {
      const Coord c = t.coord(node);
      for (int d = 0; d < kMaxDimensions; ++d) {
        const int v = c[static_cast<std::size_t>(d)];
        if (d < t.dimensions()) {
          EXPECT_TRUE(v >= 0 && v < t.size(d)) << spec << " node " << node;
        } else {
          EXPECT_EQ(v, 0) << spec << " unused dimension";
        }
      }
      EXPECT_EQ(t.node_at(c), node);
      seen.insert(c);
    }
    EXPECT_EQ(static_cast<int>(seen.size()), t.node_count()) << spec;
  }
}

// --- Port numbering ------------------------------------------------------------------------------

TEST(Topology, MeshPortsFollowTheDocumentedNumbering) {
  // topology.hpp: 0 = +X, 1 = -X, 2 = +Y, 3 = -Y, 4 = +Z, 5 = -Z.
  const Topology mesh = Topology::parse("mesh:8x8");
  const NodeId u = mesh.parse_node("3,2");
  EXPECT_EQ(mesh.coord(mesh.neighbour(u, 0)), (Coord{4, 2, 0}));
  EXPECT_EQ(mesh.coord(mesh.neighbour(u, 1)), (Coord{2, 2, 0}));
  EXPECT_EQ(mesh.coord(mesh.neighbour(u, 2)), (Coord{3, 3, 0}));
  EXPECT_EQ(mesh.coord(mesh.neighbour(u, 3)), (Coord{3, 1, 0}));
  EXPECT_EQ(mesh.port_name(0), "+X");
  EXPECT_EQ(mesh.port_name(1), "-X");
  EXPECT_EQ(mesh.port_name(2), "+Y");
  EXPECT_EQ(mesh.port_name(3), "-Y");

  const Topology cube = Topology::parse("mesh:4x4x4");
  const NodeId v = cube.parse_node("1,2,1");
  EXPECT_EQ(cube.coord(cube.neighbour(v, 0)), (Coord{2, 2, 1}));
  EXPECT_EQ(cube.coord(cube.neighbour(v, 1)), (Coord{0, 2, 1}));
  EXPECT_EQ(cube.coord(cube.neighbour(v, 2)), (Coord{1, 3, 1}));
  EXPECT_EQ(cube.coord(cube.neighbour(v, 3)), (Coord{1, 1, 1}));
  EXPECT_EQ(cube.coord(cube.neighbour(v, 4)), (Coord{1, 2, 2}));
  EXPECT_EQ(cube.coord(cube.neighbour(v, 5)), (Coord{1, 2, 0}));
  EXPECT_EQ(cube.port_name(4), "+Z");
  EXPECT_EQ(cube.port_name(5), "-Z");

  EXPECT_EQ(port_of(0, false), 0);
  EXPECT_EQ(port_of(1, true), 3);
  EXPECT_EQ(port_of(2, true), 5);
  EXPECT_EQ(dimension_of(5), 2);
  EXPECT_TRUE(is_negative(3));
  EXPECT_FALSE(is_negative(4));
}

TEST(Topology, MeshPortsThatLeaveTheNetworkHaveNoNeighbour) {
  const Topology mesh = Topology::parse("mesh:8x8");
  EXPECT_EQ(mesh.neighbour(mesh.parse_node("7,3"), 0), kNoNode);  // +X off the east edge
  EXPECT_EQ(mesh.neighbour(mesh.parse_node("0,3"), 1), kNoNode);  // -X off the west edge
  EXPECT_EQ(mesh.neighbour(mesh.parse_node("3,7"), 2), kNoNode);  // +Y off the north edge
  EXPECT_EQ(mesh.neighbour(mesh.parse_node("3,0"), 3), kNoNode);  // -Y off the south edge
  const Topology cube = Topology::parse("mesh:3x3x3");
  EXPECT_EQ(cube.neighbour(cube.parse_node("1,1,2"), 4), kNoNode);
  EXPECT_EQ(cube.neighbour(cube.parse_node("1,1,0"), 5), kNoNode);

  // Exhaustively: a mesh port has no neighbour exactly where the coordinate would leave 0..k-1.
  for (const char* spec : {"mesh:5x4", "mesh:3x4x2"}) {
    const Topology t = Topology::parse(spec);
    for (NodeId u = 0; u < t.node_count(); ++u) {
      const Coord c = t.coord(u);
      for (Port p = 0; p < t.port_count(); ++p) {
        const int d = p / 2;
        const int moved = c[static_cast<std::size_t>(d)] + (p % 2 == 0 ? 1 : -1);
        const bool leaves = moved < 0 || moved >= t.size(d);
        EXPECT_EQ(t.neighbour(u, p) == kNoNode, leaves) << spec << " " << t.node_name(u) << " " << t.port_name(p);
        if (!leaves) {
          Coord expected = c;
          expected[static_cast<std::size_t>(d)] = moved;
          EXPECT_EQ(t.coord(t.neighbour(u, p)), expected);
        }
      }
    }
  }
}

TEST(Topology, TorusWrapsJoinTheLastAndFirstCoordinateAndAreMarkedExactlyThere) {
  const Topology torus = Topology::parse("torus:4x4");
  EXPECT_EQ(torus.coord(torus.neighbour(torus.parse_node("3,1"), 0)), (Coord{0, 1, 0}));
  EXPECT_EQ(torus.coord(torus.neighbour(torus.parse_node("0,1"), 1)), (Coord{3, 1, 0}));
  EXPECT_EQ(torus.coord(torus.neighbour(torus.parse_node("2,3"), 2)), (Coord{2, 0, 0}));
  EXPECT_EQ(torus.coord(torus.neighbour(torus.parse_node("2,0"), 3)), (Coord{2, 3, 0}));

  for (const char* spec : {"torus:5x4", "torus:2x2", "torus:4x4", "torus:3x4x2", "torus:5x5x5"}) {
    const Topology t = Topology::parse(spec);
    int wraps = 0;
    for (NodeId u = 0; u < t.node_count(); ++u) {
      const Coord c = t.coord(u);
      for (Port p = 0; p < t.port_count(); ++p) {
        const int d = p / 2;
        const int k = t.size(d);
        const bool plus = p % 2 == 0;
        const int v = c[static_cast<std::size_t>(d)];
        const bool wrap = plus ? v == k - 1 : v == 0;
        Coord expected = c;
        expected[static_cast<std::size_t>(d)] = plus ? (v + 1) % k : (v + k - 1) % k;
        EXPECT_EQ(t.coord(t.neighbour(u, p)), expected) << spec << " " << t.node_name(u) << " " << t.port_name(p);
        EXPECT_EQ(t.is_wraparound(u, p), wrap) << spec << " " << t.node_name(u) << " " << t.port_name(p);
        wraps += wrap ? 1 : 0;
      }
    }
    // Each dimension d has node_count / size(d) rings, each with one wrap link used in 2 directions.
    int expected_wraps = 0;
    for (int d = 0; d < t.dimensions(); ++d) expected_wraps += 2 * t.node_count() / t.size(d);
    EXPECT_EQ(wraps, expected_wraps) << spec;
  }

  // Meshes and star graphs have no wraparound links.
  for (const char* spec : {"mesh:4x4", "mesh:3x3x3", "star:4"}) {
    const Topology t = Topology::parse(spec);
    for (NodeId u = 0; u < t.node_count(); ++u) {
      for (Port p = 0; p < t.port_count(); ++p) EXPECT_FALSE(t.is_wraparound(u, p)) << spec;
    }
  }
}

TEST(Topology, StarPortIMinusTwoAppliesGeneratorGi) {
  // topology.hpp: port i-2 swaps the first symbol with the i-th ([2], Section 4.2).
  const Topology star = Topology::parse("star:4");
  const NodeId identity = star.parse_node("1234");
  EXPECT_EQ(star.node_name(star.neighbour(identity, 0)), "2134");  // g2
  EXPECT_EQ(star.node_name(star.neighbour(identity, 1)), "3214");  // g3
  EXPECT_EQ(star.node_name(star.neighbour(identity, 2)), "4231");  // g4
  EXPECT_EQ(star.node_name(star.neighbour(star.parse_node("1432"), 1)), "3412");
  EXPECT_EQ(star.port_name(0), "g2");
  EXPECT_EQ(star.port_name(2), "g4");

  for (int n = kMinStarOrder; n <= kMaxStarOrder; ++n) {
    const Topology t = Topology::star(n);
    for (NodeId u = 0; u < t.node_count(); ++u) {
      for (int i = 2; i <= n; ++i) {
        std::string swapped = t.node_name(u);
        std::swap(swapped[0], swapped[static_cast<std::size_t>(i - 1)]);
        EXPECT_EQ(t.node_name(t.neighbour(u, i - 2)), swapped) << "S" << n << " " << t.node_name(u) << " g" << i;
      }
    }
  }
}

TEST(Topology, PortTowardsGivesTheLowestPortReachingTheNode) {
  const Topology mesh = Topology::parse("mesh:8x8");
  const NodeId u = mesh.parse_node("3,2");
  EXPECT_EQ(mesh.port_towards(u, mesh.parse_node("3,1")), 3);
  EXPECT_EQ(mesh.port_towards(u, mesh.parse_node("4,2")), 0);
  EXPECT_EQ(mesh.port_towards(u, mesh.parse_node("4,3")), kNoPort);
  EXPECT_EQ(mesh.port_towards(u, u), kNoPort);
  // In a 2-ring both ports of a dimension reach the same node; the + port is the lower one.
  const Topology ring2 = Topology::parse("torus:2x4");
  EXPECT_EQ(ring2.port_towards(ring2.parse_node("0,1"), ring2.parse_node("1,1")), 0);
  const Topology star = Topology::parse("star:4");
  EXPECT_EQ(star.port_towards(star.parse_node("1234"), star.parse_node("4231")), 2);
}

// --- Symmetry and degree -------------------------------------------------------------------------

TEST(Topology, EveryLinkIsReachedBackThroughTheOppositePort) {
  for (const std::string& spec : kTopologySpecs) {
    const Topology t = Topology::parse(spec);
    for (NodeId u = 0; u < t.node_count(); ++u) {
      for (Port p = 0; p < t.port_count(); ++p) {
        const NodeId v = t.neighbour(u, p);
        if (v == kNoNode) continue;
        EXPECT_NE(v, u) << spec << ": no self loops";
        // Grids: the neighbour of u on +d has u on -d (and vice versa). Stars: g_i is an involution.
        const Port back = t.reverse_port(p);
        EXPECT_EQ(t.neighbour(v, back), u) << spec << " " << t.node_name(u) << " " << t.port_name(p);
        if (t.is_torus()) {
          EXPECT_EQ(t.is_wraparound(v, back), t.is_wraparound(u, p)) << spec;
        }
      }
    }
  }
}

TEST(Topology, DegreesMatchCornersEdgesAndRegularGraphs) {
  const Topology mesh2 = Topology::parse("mesh:5x4");
  EXPECT_EQ(mesh2.degree(mesh2.parse_node("0,0")), 2);
  EXPECT_EQ(mesh2.degree(mesh2.parse_node("4,3")), 2);
  EXPECT_EQ(mesh2.degree(mesh2.parse_node("2,0")), 3);
  EXPECT_EQ(mesh2.degree(mesh2.parse_node("2,2")), 4);
  const Topology mesh3 = Topology::parse("mesh:3x3x3");
  EXPECT_EQ(mesh3.degree(mesh3.parse_node("0,0,0")), 3);
  EXPECT_EQ(mesh3.degree(mesh3.parse_node("2,2,2")), 3);
  EXPECT_EQ(mesh3.degree(mesh3.parse_node("1,0,0")), 4);
  EXPECT_EQ(mesh3.degree(mesh3.parse_node("1,1,0")), 5);
  EXPECT_EQ(mesh3.degree(mesh3.parse_node("1,1,1")), 6);

  for (const std::string& spec : kTopologySpecs) {
    const Topology t = Topology::parse(spec);
    for (NodeId u = 0; u < t.node_count(); ++u) {
      int expected = 0;
      if (t.is_star()) {
        expected = t.star_order() - 1;
      } else if (t.is_torus()) {
        expected = 2 * t.dimensions();
      } else {
        const Coord c = t.coord(u);
        for (int d = 0; d < t.dimensions(); ++d) {
          expected += (c[static_cast<std::size_t>(d)] > 0 ? 1 : 0) + (c[static_cast<std::size_t>(d)] < t.size(d) - 1);
        }
      }
      EXPECT_EQ(t.degree(u), expected) << spec << " " << t.node_name(u);
    }
  }
}

// --- Distances -----------------------------------------------------------------------------------

class TopologyDistance : public ::testing::TestWithParam<std::string> {};

TEST_P(TopologyDistance, EqualsBreadthFirstSearchForEveryPair) {
  const Topology t = Topology::parse(GetParam());
  for (NodeId a = 0; a < t.node_count(); ++a) {
    const std::vector<int> expected = bfs_distances(t, a);
    for (NodeId b = 0; b < t.node_count(); ++b) {
      ASSERT_EQ(t.distance(a, b), expected[static_cast<std::size_t>(b)])
          << GetParam() << " " << t.node_name(a) << " -> " << t.node_name(b);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Topology, TopologyDistance,
                         ::testing::Values("mesh:5x4", "torus:5x4", "torus:4x4x3", "mesh:3x3x3", "torus:2x3", "star:3",
                                           "star:4", "star:5", "star:6"),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           std::replace(name.begin(), name.end(), ':', '_');
                           return name;
                         });

TEST(Topology, StarDiametersMatchTheKnownFormula) {
  // Akers and Krishnamurthy: diam(S_n) = floor(3(n-1)/2).
  for (int n = kMinStarOrder; n <= kMaxStarOrder; ++n) {
    const Topology t = Topology::star(n);
    int diameter = 0;
    for (NodeId b = 0; b < t.node_count(); ++b) diameter = std::max(diameter, t.distance(0, b));
    EXPECT_EQ(diameter, 3 * (n - 1) / 2) << "S" << n;
  }
}

// --- Permutation ranks ---------------------------------------------------------------------------

TEST(Topology, PermutationRanksFollowLexicographicOrderAndUnrankInverts) {
  for (int n = kMinStarOrder; n <= kMaxStarOrder; ++n) {
    std::array<std::uint8_t, kMaxStarOrder> symbols{};
    for (int i = 0; i < n; ++i) symbols[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(i + 1);
    Permutation identity{};
    std::copy(symbols.begin(), symbols.begin() + n, identity.begin());
    EXPECT_EQ(permutation_rank(identity, n), 0) << "S" << n;

    // std::next_permutation walks the n! permutations in lexicographic order: the k-th has rank k.
    NodeId expected_rank = 0;
    do {
      Permutation perm{};
      std::copy(symbols.begin(), symbols.begin() + n, perm.begin());
      EXPECT_EQ(permutation_rank(perm, n), expected_rank) << "S" << n;
      EXPECT_EQ(permutation_unrank(expected_rank, n), perm) << "S" << n << " rank " << expected_rank;
      ++expected_rank;
    } while (std::next_permutation(symbols.begin(), symbols.begin() + n));
    EXPECT_EQ(expected_rank, factorial(n));
  }
}

TEST(Topology, PermutationParityCountsInversions) {
  const Topology star = Topology::parse("star:4");
  EXPECT_EQ(permutation_parity(star.permutation(star.parse_node("1234")), 4), 0);
  EXPECT_EQ(permutation_parity(star.permutation(star.parse_node("2134")), 4), 1);
  EXPECT_EQ(permutation_parity(star.permutation(star.parse_node("2341")), 4), 1);  // a 4-cycle
  EXPECT_EQ(permutation_parity(star.permutation(star.parse_node("2143")), 4), 0);
  // Every generator is a transposition, so S_n is bipartite by parity.
  for (int n = kMinStarOrder; n <= kMaxStarOrder; ++n) {
    const Topology t = Topology::star(n);
    for (NodeId u = 0; u < t.node_count(); ++u) {
      for (Port p = 0; p < t.port_count(); ++p) {
        EXPECT_NE(permutation_parity(t.permutation(u), n), permutation_parity(t.permutation(t.neighbour(u, p)), n));
      }
    }
  }
}

}  // namespace
}  // namespace wormcast::model
