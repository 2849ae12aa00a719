// SPDX-License-Identifier: Apache-2.0
#include "model/labeling.hpp"

#include <fmt/format.h>

#include <cstdlib>

#include "model/errors.hpp"
#include "model/star_hamiltonian_cycle.hpp"

namespace wormcast::model {
namespace {

// Row snake of an X x Y grid: position of (x, y) along the path.
int row_snake(int x, int y, int size_x) { return y * size_x + (y % 2 == 0 ? x : size_x - 1 - x); }

std::vector<NodeId> snake_order(const Topology& t) {
  const int size_x = t.size(0);
  const int size_y = t.size(1);
  const int layer = size_x * size_y;
  std::vector<NodeId> order(static_cast<std::size_t>(t.node_count()));
  for (NodeId node = 0; node < t.node_count(); ++node) {
    const Coord c = t.coord(node);
    const int in_layer = row_snake(c[0], c[1], size_x);
    const int z = c[2];
    const int label = z * layer + (z % 2 == 0 ? in_layer : layer - 1 - in_layer);
    order[static_cast<std::size_t>(label)] = node;
  }
  return order;
}

}  // namespace

const char* to_string(LinkClass link_class) {
  switch (link_class) {
    case LinkClass::kGeneralCommon:
      return "general common";
    case LinkClass::kShortcutCommon:
      return "shortcut common";
    case LinkClass::kBoundary:
      return "boundary";
  }
  return "?";
}

const char* to_string(ChannelNetwork network) { return network == ChannelNetwork::kHigh ? "high" : "low"; }

HamiltonianLabeling::HamiltonianLabeling(Topology topology, bool is_cycle, std::vector<NodeId> node_of_label)
    : topology_(std::move(topology)), is_cycle_(is_cycle), node_of_label_(std::move(node_of_label)) {
  label_of_node_.assign(node_of_label_.size(), -1);
  for (std::size_t label = 0; label < node_of_label_.size(); ++label) {
    label_of_node_[static_cast<std::size_t>(node_of_label_[label])] = static_cast<int>(label);
  }
}

HamiltonianLabeling HamiltonianLabeling::path(const Topology& topology) {
  if (topology.is_star()) {
    throw UnsupportedError(
        fmt::format("{} has no Hamiltonian path labeling here; star graphs use the cycle labeling", topology.spec()));
  }
  return HamiltonianLabeling(topology, false, snake_order(topology));
}

HamiltonianLabeling HamiltonianLabeling::cycle(const Topology& topology) {
  if (topology.is_star()) {
    std::vector<NodeId> order;
    for (const Permutation& p : star_hamiltonian_cycle(topology.star_order())) order.push_back(topology.node_of(p));
    return HamiltonianLabeling(topology, true, std::move(order));
  }
  if (!topology.is_torus() || topology.dimensions() != 2) {
    throw UnsupportedError(fmt::format(
        "{} has no Hamiltonian cycle labeling here; cycles exist for 2D tori with an even row count and star graphs",
        topology.spec()));
  }
  if (topology.size(1) % 2 != 0) {
    throw LabelingError(
        fmt::format("{} has {} rows; the torus Hamiltonian cycle (row snake closed by the y-wrap) "
                    "needs an even row count, e.g. torus:{}x{}",
                    topology.spec(), topology.size(1), topology.size(0), topology.size(1) + 1));
  }
  return HamiltonianLabeling(topology, true, snake_order(topology));
}

int HamiltonianLabeling::label(NodeId node) const {
  topology_.check_node(node);
  return label_of_node_[static_cast<std::size_t>(node)];
}

NodeId HamiltonianLabeling::node(int label) const {
  if (label < 0 || label >= size()) {
    throw NodeError(fmt::format("label {} is outside {}; valid labels are 0..{}", label, topology_.spec(), size() - 1));
  }
  return node_of_label_[static_cast<std::size_t>(label)];
}

bool HamiltonianLabeling::uses_link(NodeId node, Port port) const {
  if (topology_.neighbour(node, port) == kNoNode) return false;
  return is_cycle_ || !topology_.is_wraparound(node, port);
}

void HamiltonianLabeling::check_used(NodeId node, Port port) const {
  if (!uses_link(node, port)) {
    throw RoutingError(fmt::format("the {} labeling of {} does not use port {} of node {}",
                                   is_cycle_ ? "cycle" : "path", topology_.spec(), topology_.port_name(port),
                                   topology_.node_name(node)));
  }
}

LinkClass HamiltonianLabeling::link_class(NodeId node, Port port) const {
  check_used(node, port);
  const int delta = std::abs(label(node) - label(topology_.neighbour(node, port)));
  if (is_cycle_ && topology_.is_torus()) {
    // Seed 001 names the torus boundary links: the wraps of the row dimension (y here,
    // docs/model.md "Resolved ambiguities"). For Y >= 4 that is exactly the Delta rule below; for
    // Y = 2 the y-wrap runs parallel to a y-mesh link between the same two nodes, which the seed
    // keeps common.
    if (dimension_of(port) == 1 && topology_.is_wraparound(node, port)) return LinkClass::kBoundary;
    return delta == 1 ? LinkClass::kGeneralCommon : LinkClass::kShortcutCommon;
  }
  if (delta == 1) return LinkClass::kGeneralCommon;
  const int half = (size() + 1) / 2;
  return (is_cycle_ && delta > half) ? LinkClass::kBoundary : LinkClass::kShortcutCommon;
}

ChannelNetwork HamiltonianLabeling::network(NodeId node, Port port) const {
  check_used(node, port);
  const bool rising = label(topology_.neighbour(node, port)) > label(node);
  const bool boundary = link_class(node, port) == LinkClass::kBoundary;
  // Common channels rise in the high network; boundary channels are its wrap and fall ([2], Section 2.2.3).
  return rising != boundary ? ChannelNetwork::kHigh : ChannelNetwork::kLow;
}

}  // namespace wormcast::model
