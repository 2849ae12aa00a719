// SPDX-License-Identifier: Apache-2.0
// Network topologies: 2D/3D meshes and tori, and the star graph S_n.
//
// A Topology is a small value type. Nodes are dense ids 0..node_count()-1; each router has
// port_count() network ports, numbered the same way for every node so that the RTL can use the
// numbering unchanged (docs/model.md, "Port numbering"):
//   mesh/torus: port 2*d is the + direction of dimension d, port 2*d+1 the - direction
//               (0 = +X/E, 1 = -X/W, 2 = +Y/N, 3 = -Y/S, 4 = +Z/U, 5 = -Z/D);
//   star S_n:   port i-2 applies generator g_i (swap the first symbol with the i-th), i = 2..n.
// A mesh port that leaves the network has no neighbour (kNoNode).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace wormcast::model {

using NodeId = std::int32_t;
using Port = std::int32_t;

inline constexpr NodeId kNoNode = -1;
inline constexpr Port kNoPort = -1;
inline constexpr int kMaxDimensions = 3;
inline constexpr int kMinStarOrder = 3;
inline constexpr int kMaxStarOrder = 6;
// Bounds that keep every table of the model small; networks of 1024+ nodes fit comfortably.
inline constexpr int kMinDimensionSize = 2;
inline constexpr int kMaxDimensionSize = 1024;
inline constexpr int kMaxNodes = 1 << 20;

enum class TopologyKind { kMesh, kTorus, kStar };

// Mesh/torus coordinates (x, y, z); unused dimensions are 0.
using Coord = std::array<int, kMaxDimensions>;

// Star-graph node: symbols 1..n at positions 0..n-1; unused positions are 0.
using Permutation = std::array<std::uint8_t, kMaxStarOrder>;

class Topology {
 public:
  // sizes has 2 or 3 entries (X, Y[, Z]), each in [kMinDimensionSize, kMaxDimensionSize].
  static Topology mesh(const std::vector<int>& sizes);
  static Topology torus(const std::vector<int>& sizes);
  // S_n with n in [kMinStarOrder, kMaxStarOrder].
  static Topology star(int n);
  // `mesh:8x8`, `torus:4x4`, `mesh:4x4x4`, `torus:5x5x5`, `star:4`.
  static Topology parse(std::string_view spec);

  TopologyKind kind() const { return kind_; }
  bool is_mesh() const { return kind_ == TopologyKind::kMesh; }
  bool is_torus() const { return kind_ == TopologyKind::kTorus; }
  bool is_star() const { return kind_ == TopologyKind::kStar; }
  // 2 or 3 for meshes and tori, 0 for the star graph.
  int dimensions() const { return dimensions_; }
  // Nodes along dimension d (meshes and tori).
  int size(int d) const { return sizes_.at(static_cast<std::size_t>(d)); }
  // n of S_n (star graph only; 0 otherwise).
  int star_order() const { return star_order_; }
  int node_count() const { return node_count_; }
  // Network ports of every router: 2 * dimensions for meshes and tori, n - 1 for S_n.
  int port_count() const { return port_count_; }

  // The node on the far side of `port`, or kNoNode where a mesh port leaves the network.
  NodeId neighbour(NodeId node, Port port) const;
  // The port by which the link leaving a node on `port` arrives at the neighbour: the opposite
  // direction on a mesh or torus (p XOR 1), the same generator on a star graph (each g_i is its own
  // inverse). Also the neighbour's port back toward the node (docs/model.md, "Port numbering").
  Port reverse_port(Port port) const {
    check_port(port);
    return is_star() ? port : port ^ 1;
  }
  // The lowest-numbered port of `from` whose neighbour is `to`, or kNoPort if they are not adjacent.
  Port port_towards(NodeId from, NodeId to) const;
  // True for a torus wraparound link (the port crosses from coordinate k-1 to 0 or back).
  bool is_wraparound(NodeId node, Port port) const;
  // Number of ports that have a neighbour.
  int degree(NodeId node) const;
  // Shortest-path hop distance.
  int distance(NodeId a, NodeId b) const;

  Coord coord(NodeId node) const;
  NodeId node_at(const Coord& coord) const;
  Permutation permutation(NodeId node) const;
  NodeId node_of(const Permutation& perm) const;

  // `3,2` or `1,1,1` (coordinates) for meshes and tori, `1432` (the permutation) for star graphs.
  NodeId parse_node(std::string_view text) const;
  std::string node_name(NodeId node) const;
  // `+X`, `-Y`, ... for meshes and tori; `g2`, `g3`, ... for star graphs.
  std::string port_name(Port port) const;
  // The spec string this topology parses from.
  std::string spec() const;

  // Throws NodeError naming the node and the valid range unless 0 <= node < node_count().
  // Inline: every query checks its nodes, and the check must cost no more than the query.
  void check_node(NodeId node) const {
    if (node < 0 || node >= node_count_) throw_node_outside(node);
  }
  void check_port(Port port) const {
    if (port < 0 || port >= port_count_) throw_port_outside(port);
  }

  bool operator==(const Topology&) const = default;

 private:
  Topology() = default;
  static Topology grid(TopologyKind kind, const std::vector<int>& sizes);
  [[noreturn]] void throw_node_outside(NodeId node) const;
  [[noreturn]] void throw_port_outside(Port port) const;
  // Node-id distance between neighbours along dimension d (ids are x + X * (y + Y * z)).
  int stride(int d) const;

  TopologyKind kind_ = TopologyKind::kMesh;
  int dimensions_ = 0;
  std::array<int, kMaxDimensions> sizes_{1, 1, 1};
  int star_order_ = 0;
  int node_count_ = 0;
  int port_count_ = 0;
};

// Port helpers for meshes and tori.
inline constexpr Port port_of(int dimension, bool negative) { return 2 * dimension + (negative ? 1 : 0); }
inline constexpr int dimension_of(Port port) { return port / 2; }
inline constexpr bool is_negative(Port port) { return (port % 2) != 0; }

// Star-graph helpers, exposed for the labeling construction and for tests.
// g_i: swap the first symbol with the i-th (i = 2..n).
Permutation apply_generator(const Permutation& perm, int n, int i);
// Parity of the permutation (0 even, 1 odd); S_n is bipartite by parity.
int permutation_parity(const Permutation& perm, int n);
// Rank of the permutation in lexicographic order (the identity is 0) and its inverse.
NodeId permutation_rank(const Permutation& perm, int n);
Permutation permutation_unrank(NodeId rank, int n);

}  // namespace wormcast::model
