// SPDX-License-Identifier: Apache-2.0
// Hamiltonian labelings (model/labeling.hpp): the row snake of [1], Definition 1 (V1, V19), its 3D
// layer extension, the torus cycle of [2], Section 4.1 (V9), link classes of [2], Section 2.2.2
// (V9, V11; docs/model.md "Link classes and channel networks") and the channel networks of [1] and
// [2], Section 2.2.3. Expected values come from the papers' formulas and worked examples, computed
// here, never from the labeling under test.
#include "model/labeling.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "model/topology.hpp"

namespace wormcast::model {
namespace {

// [1], Definition 1 (docs/model.md "Resolved ambiguities"): label(x, y) = y*X + x for even y, y*X + (X-1-x) for odd y.
int snake_label(int x, int y, int size_x) { return y * size_x + (y % 2 == 0 ? x : size_x - 1 - x); }

int snake_label(const Topology& t, NodeId node) {
  const Coord c = t.coord(node);
  return snake_label(c[0], c[1], t.size(0));
}

// Whether two grid nodes are joined by a link, from coordinates alone: they differ by one step in
// exactly one dimension (modulo k on a torus).
bool grid_adjacent(const Topology& t, NodeId a, NodeId b) {
  const Coord ca = t.coord(a);
  const Coord cb = t.coord(b);
  int differing = 0;
  bool one_step = true;
  for (int d = 0; d < t.dimensions(); ++d) {
    const int k = t.size(d);
    const int delta = std::abs(ca[static_cast<std::size_t>(d)] - cb[static_cast<std::size_t>(d)]);
    if (delta == 0) continue;
    ++differing;
    one_step = one_step && (delta == 1 || (t.is_torus() && delta == k - 1));
  }
  return differing == 1 && one_step;
}

// Checks that the labels are a permutation of 0..N-1, that node() inverts label(), and that labels
// l and l+1 (and N-1 and 0 for a cycle) sit on adjacent nodes.
void expect_hamiltonian(const HamiltonianLabeling& labeling, bool closed) {
  const Topology& t = labeling.topology();
  ASSERT_EQ(labeling.size(), t.node_count()) << t.spec();
  std::set<int> labels;
  for (NodeId node = 0; node < t.node_count(); ++node) {
    const int l = labeling.label(node);
    EXPECT_TRUE(l >= 0 && l < t.node_count()) << t.spec() << " label " << l;
    EXPECT_EQ(labeling.node(l), node) << t.spec();
    labels.insert(l);
  }
  EXPECT_EQ(static_cast<int>(labels.size()), t.node_count()) << t.spec() << ": labels are distinct";
  const int n = t.node_count();
  for (int l = 0; l + 1 < n; ++l) {
    EXPECT_TRUE(grid_adjacent(t, labeling.node(l), labeling.node(l + 1)))
        << t.spec() << ": labels " << l << " and " << l + 1 << " at " << t.node_name(labeling.node(l)) << " and "
        << t.node_name(labeling.node(l + 1));
  }
  if (closed) {
    EXPECT_TRUE(grid_adjacent(t, labeling.node(n - 1), labeling.node(0))) << t.spec() << ": the cycle closes";
  }
}

// Every directed channel (node, port) the labeling uses.
std::vector<std::pair<NodeId, Port>> used_channels(const HamiltonianLabeling& labeling) {
  const Topology& t = labeling.topology();
  std::vector<std::pair<NodeId, Port>> channels;
  for (NodeId u = 0; u < t.node_count(); ++u) {
    for (Port p = 0; p < t.port_count(); ++p) {
      if (labeling.uses_link(u, p)) channels.emplace_back(u, p);
    }
  }
  return channels;
}

// [2], Section 2.2.2, from the definition: Delta = 1 general common, 1 < Delta <= ceil(N/2) shortcut common,
// Delta > ceil(N/2) boundary (path labelings have no boundary links).
LinkClass expected_class(int delta, int n, bool is_cycle) {
  if (delta == 1) return LinkClass::kGeneralCommon;
  if (is_cycle && delta > (n + 1) / 2) return LinkClass::kBoundary;
  return LinkClass::kShortcutCommon;
}

// --- Path labelings ------------------------------------------------------------------------------

TEST(Labeling, SixBySixMeshMatchesVectorV1) {
  // V1 ([1], Definition 1, read as in docs/model.md), coordinates (x, y).
  const Topology mesh = Topology::parse("mesh:6x6");
  const HamiltonianLabeling labeling = HamiltonianLabeling::path(mesh);
  const std::vector<std::pair<std::string, int>> expected = {
      {"1,2", 13}, {"1,3", 22}, {"1,4", 25}, {"2,4", 26}, {"3,4", 27}, {"0,1", 11}, {"3,1", 8}, {"2,2", 14},
      {"5,2", 17}, {"3,3", 20}, {"2,5", 33}, {"0,0", 0},  {"5,0", 5},  {"5,1", 6},  {"0,5", 35}};
  for (const auto& [node, label] : expected) EXPECT_EQ(labeling.label(mesh.parse_node(node)), label) << node;
  EXPECT_FALSE(labeling.is_cycle());
}

TEST(Labeling, FourByFourMeshSourceOneOneHasLabelSixAsInVectorV19) {
  // V19 ([4], Figs. 1-2): source (1,1) has label 6, D_L = [5..0], D_U = [7..15].
  const Topology mesh = Topology::parse("mesh:4x4");
  const HamiltonianLabeling labeling = HamiltonianLabeling::path(mesh);
  const int source = labeling.label(mesh.parse_node("1,1"));
  EXPECT_EQ(source, 6);
  int below = 0;
  int above = 0;
  for (NodeId node = 0; node < mesh.node_count(); ++node) {
    below += labeling.label(node) < source ? 1 : 0;
    above += labeling.label(node) > source ? 1 : 0;
  }
  EXPECT_EQ(below, 6);
  EXPECT_EQ(above, 9);
}

TEST(Labeling, PathLabelsFollowTheRowSnakeFormula) {
  // [1], Definition 1: X is the node count along x; square, non-square, odd and even sizes; tori too
  // (docs/model.md "Tori under a path labeling").
  for (const char* spec : {"mesh:2x2", "mesh:6x6", "mesh:5x4", "mesh:4x5", "mesh:7x3", "mesh:3x8", "mesh:16x16",
                           "torus:4x4", "torus:5x3"}) {
    const Topology t = Topology::parse(spec);
    const HamiltonianLabeling labeling = HamiltonianLabeling::path(t);
    for (NodeId node = 0; node < t.node_count(); ++node) {
      EXPECT_EQ(labeling.label(node), snake_label(t, node)) << spec << " " << t.node_name(node);
    }
  }
}

TEST(Labeling, ConsecutivePathLabelsAreAdjacentIn2DMeshes) {
  for (const char* spec : {"mesh:2x2", "mesh:3x3", "mesh:4x4", "mesh:6x6", "mesh:5x4", "mesh:4x5", "mesh:7x3",
                           "mesh:2x9", "mesh:8x3", "mesh:5x7"}) {
    SCOPED_TRACE(spec);
    expect_hamiltonian(HamiltonianLabeling::path(Topology::parse(spec)), false);
  }
}

TEST(Labeling, ConsecutivePathLabelsAreAdjacentIn3DMeshes) {
  for (const char* spec : {"mesh:2x2x2", "mesh:3x4x2", "mesh:4x4x4", "mesh:3x3x3", "mesh:5x5x5", "torus:4x4x3"}) {
    SCOPED_TRACE(spec);
    expect_hamiltonian(HamiltonianLabeling::path(Topology::parse(spec)), false);
  }
}

TEST(Labeling, ThreeDimensionalLayerZHoldsTheZthBlockOfLabels) {
  // labeling.hpp: layer z holds labels z*X*Y .. (z+1)*X*Y-1; even layers follow the 2D snake and odd
  // layers run it backwards. V20's layers (4x4x4, source (1,1,1)) are such blocks.
  for (const char* spec : {"mesh:2x2x2", "mesh:3x4x2", "mesh:4x4x4", "mesh:3x3x3"}) {
    const Topology t = Topology::parse(spec);
    const HamiltonianLabeling labeling = HamiltonianLabeling::path(t);
    const int layer = t.size(0) * t.size(1);
    for (NodeId node = 0; node < t.node_count(); ++node) {
      const Coord c = t.coord(node);
      const int l = labeling.label(node);
      EXPECT_GE(l, c[2] * layer) << spec << " " << t.node_name(node);
      EXPECT_LT(l, (c[2] + 1) * layer) << spec << " " << t.node_name(node);
      const int in_layer = snake_label(c[0], c[1], t.size(0));
      EXPECT_EQ(l, c[2] * layer + (c[2] % 2 == 0 ? in_layer : layer - 1 - in_layer))
          << spec << " " << t.node_name(node);
    }
  }
  const Topology cube = Topology::parse("mesh:4x4x4");
  const HamiltonianLabeling labeling = HamiltonianLabeling::path(cube);
  EXPECT_EQ(labeling.label(cube.parse_node("0,0,0")), 0);
  EXPECT_EQ(labeling.label(cube.parse_node("0,3,0")), 15);  // the end of layer 0 ...
  EXPECT_EQ(labeling.label(cube.parse_node("0,3,1")), 16);  // ... is below the start of layer 1
  EXPECT_EQ(labeling.label(cube.parse_node("1,1,1")), 25);  // 16 + (15 - 6)
}

TEST(Labeling, TorusPathLabelingLeavesWraparoundLinksUnused) {
  // [1]'s torus behaves as the mesh (docs/model.md); the cycle labeling ([2], Section 4.1) uses the
  // wraps.
  for (const char* spec : {"torus:4x4", "torus:5x4", "torus:3x4x2", "torus:2x4"}) {
    const Topology t = Topology::parse(spec);
    const HamiltonianLabeling path = HamiltonianLabeling::path(t);
    for (NodeId u = 0; u < t.node_count(); ++u) {
      for (Port p = 0; p < t.port_count(); ++p) {
        EXPECT_EQ(path.uses_link(u, p), !t.is_wraparound(u, p)) << spec << " " << t.node_name(u) << t.port_name(p);
      }
    }
  }
  for (const char* spec : {"torus:4x4", "torus:5x4", "torus:2x4"}) {
    const Topology t = Topology::parse(spec);
    const HamiltonianLabeling cycle = HamiltonianLabeling::cycle(t);
    for (NodeId u = 0; u < t.node_count(); ++u) {
      for (Port p = 0; p < t.port_count(); ++p) EXPECT_TRUE(cycle.uses_link(u, p)) << spec;
    }
  }
}

TEST(Labeling, MeshPathLabelingUsesExactlyThePortsThatHaveNeighbours) {
  const Topology mesh = Topology::parse("mesh:5x4");
  const HamiltonianLabeling labeling = HamiltonianLabeling::path(mesh);
  EXPECT_FALSE(labeling.uses_link(mesh.parse_node("4,0"), 0));
  EXPECT_FALSE(labeling.uses_link(mesh.parse_node("0,0"), 3));
  EXPECT_TRUE(labeling.uses_link(mesh.parse_node("0,0"), 0));
  int used = 0;
  for (NodeId u = 0; u < mesh.node_count(); ++u) {
    for (Port p = 0; p < mesh.port_count(); ++p) used += labeling.uses_link(u, p) ? 1 : 0;
  }
  // A 5x4 mesh has 4*4 + 5*3 = 31 links, 62 directed channels.
  EXPECT_EQ(used, 62);
}

// --- Torus cycle ---------------------------------------------------------------------------------

TEST(Labeling, FourByFourTorusCycleMatchesVectorV9) {
  // V9 ([2], Section 4.1).
  const Topology torus = Topology::parse("torus:4x4");
  const HamiltonianLabeling labeling = HamiltonianLabeling::cycle(torus);
  const std::vector<std::string> expected = {"0,0", "1,0", "2,0", "3,0", "3,1", "2,1", "1,1", "0,1",
                                             "0,2", "1,2", "2,2", "3,2", "3,3", "2,3", "1,3", "0,3"};
  ASSERT_EQ(labeling.size(), 16);
  for (int l = 0; l < 16; ++l) EXPECT_EQ(torus.node_name(labeling.node(l)), expected[static_cast<std::size_t>(l)]);
  EXPECT_TRUE(labeling.is_cycle());
}

TEST(Labeling, TorusCycleIsHamiltonianForEveryEvenRowCount) {
  // [2], Section 4.1 (docs/model.md "2D torus cycle"): the row snake closed by the y-wrap (0, Y-1)-(0, 0) needs Y even.
  for (int x = 2; x <= 8; ++x) {
    for (int y = 2; y <= 8; y += 2) {
      const Topology t = Topology::torus({x, y});
      SCOPED_TRACE(t.spec());
      const HamiltonianLabeling labeling = HamiltonianLabeling::cycle(t);
      expect_hamiltonian(labeling, true);
      for (NodeId node = 0; node < t.node_count(); ++node) EXPECT_EQ(labeling.label(node), snake_label(t, node));
      EXPECT_EQ(t.node_name(labeling.node(t.node_count() - 1)), "0," + std::to_string(y - 1));
    }
  }
}

// --- Link classes ([2], Section 2.2.2) -----------------------------------------------------------

TEST(Labeling, FourByFourTorusBoundaryLinksAreTheYWrapsAsInVectorV9) {
  // V9: the boundary links are {(x,0),(x,3)}, x = 0..3.
  const Topology torus = Topology::parse("torus:4x4");
  const HamiltonianLabeling labeling = HamiltonianLabeling::cycle(torus);
  std::set<std::pair<std::string, std::string>> boundary;
  for (const auto& [u, p] : used_channels(labeling)) {
    if (labeling.link_class(u, p) != LinkClass::kBoundary) continue;
    std::string a = torus.node_name(u);
    std::string b = torus.node_name(torus.neighbour(u, p));
    if (b < a) std::swap(a, b);
    boundary.emplace(a, b);
  }
  const std::set<std::pair<std::string, std::string>> expected = {
      {"0,0", "0,3"}, {"1,0", "1,3"}, {"2,0", "2,3"}, {"3,0", "3,3"}};
  EXPECT_EQ(boundary, expected);
}

TEST(Labeling, TorusCycleBoundaryLinksAreExactlyTheYWrapsForEvenRowCountsFromFour) {
  // docs/model.md "Link classes and channel networks": by Delta > ceil(N/2), the y-wraps are the
  // boundary links for every even Y >= 4; the x-wraps and all mesh links are common.
  for (int x = 2; x <= 8; ++x) {
    for (int y = 4; y <= 8; y += 2) {
      const Topology t = Topology::torus({x, y});
      const HamiltonianLabeling labeling = HamiltonianLabeling::cycle(t);
      const int n = t.node_count();
      for (const auto& [u, p] : used_channels(labeling)) {
        const NodeId v = t.neighbour(u, p);
        const int delta = std::abs(snake_label(t, u) - snake_label(t, v));
        const LinkClass cls = labeling.link_class(u, p);
        EXPECT_EQ(cls, expected_class(delta, n, true)) << t.spec() << " " << t.node_name(u) << t.port_name(p);
        const bool y_wrap = dimension_of(p) == 1 && t.is_wraparound(u, p);
        EXPECT_EQ(cls == LinkClass::kBoundary, y_wrap) << t.spec() << " " << t.node_name(u) << t.port_name(p);
        EXPECT_EQ(labeling.link_class(v, t.reverse_port(p)), cls) << t.spec() << ": a link has one class";
      }
    }
  }
}

TEST(Labeling, FourStarBoundaryLinksMatchVectorV11) {
  // V11: N = 24, ceil(N/2) = 12; the boundary links are {0,23}, {1,16}, {3,20}, {7,22}.
  const Topology star = Topology::parse("star:4");
  const HamiltonianLabeling labeling = HamiltonianLabeling::cycle(star);
  std::set<std::pair<int, int>> boundary;
  for (const auto& [u, p] : used_channels(labeling)) {
    const int a = labeling.label(u);
    const int b = labeling.label(star.neighbour(u, p));
    const LinkClass cls = labeling.link_class(u, p);
    EXPECT_EQ(cls, expected_class(std::abs(a - b), 24, true)) << a << "-" << b;
    if (cls == LinkClass::kBoundary) boundary.emplace(std::min(a, b), std::max(a, b));
  }
  const std::set<std::pair<int, int>> expected = {{0, 23}, {1, 16}, {3, 20}, {7, 22}};
  EXPECT_EQ(boundary, expected);
}

TEST(Labeling, StarCycleLinkClassesFollowTheDeltaRuleAndTheClosingEdgeIsBoundary) {
  for (int order = kMinStarOrder; order <= kMaxStarOrder; ++order) {
    const Topology t = Topology::star(order);
    const HamiltonianLabeling labeling = HamiltonianLabeling::cycle(t);
    const int n = t.node_count();
    int general = 0;
    for (const auto& [u, p] : used_channels(labeling)) {
      const NodeId v = t.neighbour(u, p);
      const int delta = std::abs(labeling.label(u) - labeling.label(v));
      const LinkClass cls = labeling.link_class(u, p);
      EXPECT_EQ(cls, expected_class(delta, n, true)) << t.spec() << " " << t.node_name(u) << t.port_name(p);
      EXPECT_EQ(labeling.link_class(v, t.reverse_port(p)), cls);
      general += cls == LinkClass::kGeneralCommon ? 1 : 0;
    }
    // [2], Section 2.2.2: the closing edge (N-1, 0) is always a boundary link; the other N-1 cycle edges are
    // general common, each counted in both directions.
    const NodeId last = labeling.node(n - 1);
    EXPECT_EQ(labeling.link_class(last, t.port_towards(last, labeling.node(0))), LinkClass::kBoundary) << t.spec();
    EXPECT_EQ(general, 2 * (n - 1)) << t.spec();
  }
}

TEST(Labeling, PathLabelingsHaveNoBoundaryLinks) {
  for (const char* spec : {"mesh:6x6", "mesh:5x4", "torus:4x4", "mesh:4x4x4", "torus:3x4x2"}) {
    const Topology t = Topology::parse(spec);
    const HamiltonianLabeling labeling = HamiltonianLabeling::path(t);
    for (const auto& [u, p] : used_channels(labeling)) {
      const int delta = std::abs(labeling.label(u) - labeling.label(t.neighbour(u, p)));
      EXPECT_EQ(labeling.link_class(u, p), expected_class(delta, t.node_count(), false))
          << spec << " " << t.node_name(u) << t.port_name(p);
    }
  }
}

TEST(Labeling, LinkClassNamesAreReadable) {
  EXPECT_STREQ(to_string(LinkClass::kGeneralCommon), "general common");
  EXPECT_STREQ(to_string(LinkClass::kShortcutCommon), "shortcut common");
  EXPECT_STREQ(to_string(LinkClass::kBoundary), "boundary");
  EXPECT_STREQ(to_string(ChannelNetwork::kHigh), "high");
  EXPECT_STREQ(to_string(ChannelNetwork::kLow), "low");
}

// --- Channel networks ([1], Definition 1; [2], Section 2.2.3) ------------------------------------

TEST(Labeling, PathChannelIsHighExactlyWhenItsLabelRises) {
  // [1]: the high-channel subnetwork holds u->v with label(u) < label(v).
  for (const char* spec : {"mesh:6x6", "mesh:5x4", "mesh:4x4x4", "torus:4x4", "torus:3x4x2"}) {
    const Topology t = Topology::parse(spec);
    const HamiltonianLabeling labeling = HamiltonianLabeling::path(t);
    int high = 0;
    const auto channels = used_channels(labeling);
    for (const auto& [u, p] : channels) {
      const NodeId v = t.neighbour(u, p);
      const bool rising = labeling.label(v) > labeling.label(u);
      const ChannelNetwork network = labeling.network(u, p);
      EXPECT_EQ(network, rising ? ChannelNetwork::kHigh : ChannelNetwork::kLow)
          << spec << " " << t.node_name(u) << t.port_name(p);
      EXPECT_NE(labeling.network(v, t.reverse_port(p)), network) << spec << ": u->v and v->u are in opposite networks";
      high += network == ChannelNetwork::kHigh ? 1 : 0;
    }
    EXPECT_EQ(2 * high, static_cast<int>(channels.size())) << spec;
  }
}

TEST(Labeling, CycleCommonChannelsRisingAndBoundaryChannelsFallingAreHigh) {
  // [2], Section 2.2.3: high = common channels to the higher label plus boundary channels to the lower label.
  std::vector<HamiltonianLabeling> labelings;
  for (const char* spec : {"torus:4x4", "torus:5x6", "torus:2x4", "torus:8x8", "star:4", "star:5"}) {
    labelings.push_back(HamiltonianLabeling::cycle(Topology::parse(spec)));
  }
  for (const HamiltonianLabeling& labeling : labelings) {
    const Topology& t = labeling.topology();
    const int n = t.node_count();
    int high = 0;
    const auto channels = used_channels(labeling);
    for (const auto& [u, p] : channels) {
      const NodeId v = t.neighbour(u, p);
      const int from = labeling.label(u);
      const int to = labeling.label(v);
      const bool boundary = std::abs(from - to) > (n + 1) / 2;
      const bool high_expected = boundary ? to < from : to > from;
      const ChannelNetwork network = labeling.network(u, p);
      EXPECT_EQ(network, high_expected ? ChannelNetwork::kHigh : ChannelNetwork::kLow)
          << t.spec() << " " << t.node_name(u) << t.port_name(p) << " labels " << from << "->" << to;
      EXPECT_NE(labeling.network(v, t.reverse_port(p)), network) << t.spec();
      high += network == ChannelNetwork::kHigh ? 1 : 0;
    }
    EXPECT_EQ(2 * high, static_cast<int>(channels.size())) << t.spec();
    // Moving forward around the cycle (l -> l+1 mod N, the closing edge included) is in the high network.
    for (int l = 0; l < n; ++l) {
      const NodeId u = labeling.node(l);
      const Port p = t.port_towards(u, labeling.node((l + 1) % n));
      ASSERT_NE(p, kNoPort) << t.spec();
      EXPECT_EQ(labeling.network(u, p), ChannelNetwork::kHigh) << t.spec() << " label " << l;
    }
  }
}

}  // namespace
}  // namespace wormcast::model
