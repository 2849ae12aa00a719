// SPDX-License-Identifier: Apache-2.0
// Hamiltonian labelings and the channel networks they induce (spec sections 1.2, 2.2-2.4, 2.8, 2.9).
//
// A labeling numbers the nodes 0..N-1 along a Hamiltonian path or cycle. Path labelings:
//   * 2D mesh: the row snake, label(x, y) = y*X + x for even y and y*X + (X-1-x) for odd y
//     ([1], Definition 1, read with X = nodes along x);
//   * 3D mesh: a snake of layers; layer z holds labels z*X*Y .. (z+1)*X*Y-1, even layers follow
//     the 2D snake and odd layers run it backwards, so each layer ends above where the next begins
//     and vertically aligned nodes are joined by straight z routes;
//   * tori: the same labels with the wraparound links left unused (docs/model.md "Tori under a path labeling").
// Cycle labelings:
//   * 2D torus with an even row count: the row snake, closed by the y-wrap (0, Y-1)-(0, 0)
//     ([2], Section 4.1; docs/model.md "2D torus cycle");
//   * star graph S_n: star_hamiltonian_cycle(n) ([2], Section 4.2; V11 for n = 4).
#pragma once

#include <vector>

#include "model/topology.hpp"

namespace wormcast::model {

// Link classes of a cycle labeling ([2], Section 2.2.2), by Delta = |label(u) - label(v)|:
// general common (Delta = 1), shortcut common (1 < Delta <= ceil(N/2)), boundary (Delta > ceil(N/2)).
// A path labeling has no boundary links. On a 2D torus the boundary links are the y-wraps, as seed
// 001 states; for Y >= 4 these are exactly the links with Delta > ceil(N/2), and for Y = 2 the rule
// keeps the y-mesh link that runs parallel to each y-wrap common.
enum class LinkClass { kGeneralCommon, kShortcutCommon, kBoundary };

// The two channel networks ([1], Definition 1, for paths; [2], Section 2.2.3, for cycles). Every directed channel the
// labeling uses lies in exactly one of them.
enum class ChannelNetwork { kHigh, kLow };

const char* to_string(LinkClass link_class);
const char* to_string(ChannelNetwork network);

class HamiltonianLabeling {
 public:
  // Path labeling of a 2D or 3D mesh or torus; throws UnsupportedError for star graphs.
  static HamiltonianLabeling path(const Topology& topology);
  // Cycle labeling of a 2D torus (even Y) or a star graph; throws LabelingError for an odd row
  // count and UnsupportedError for meshes and 3D tori.
  static HamiltonianLabeling cycle(const Topology& topology);

  const Topology& topology() const { return topology_; }
  bool is_cycle() const { return is_cycle_; }
  int size() const { return static_cast<int>(node_of_label_.size()); }
  int label(NodeId node) const;
  NodeId node(int label) const;

  // Whether the labeling's routing may use the link on `port` of `node`: false where a mesh port
  // has no neighbour and for torus wraparound links under a path labeling ([1]; docs/model.md).
  bool uses_link(NodeId node, Port port) const;
  // Class of the link on `port` of `node`; throws if the labeling does not use that link.
  LinkClass link_class(NodeId node, Port port) const;
  // Network of the directed channel leaving `node` on `port`; throws if the link is not used.
  ChannelNetwork network(NodeId node, Port port) const;

 private:
  HamiltonianLabeling(Topology topology, bool is_cycle, std::vector<NodeId> node_of_label);
  void check_used(NodeId node, Port port) const;

  Topology topology_;
  bool is_cycle_;
  std::vector<NodeId> node_of_label_;
  std::vector<int> label_of_node_;
};

}  // namespace wormcast::model
