// SPDX-License-Identifier: Apache-2.0
// Channel dependency graphs (Dally and Seitz) and the deadlock proof they give.
//
// A vertex is a virtual channel: the directed physical channel leaving a node on a port, in one
// VC class. There is an edge a -> b when some worm can hold a and request b next. A routing
// function is deadlock-free (for wormhole switching) if its graph is acyclic.
//
// build() walks every route the function can produce: from every node to every other node in
// every entry class. A walk whose first decision is missing is a request the function does not
// serve (a CPR worm off its line) and adds nothing. A walk that stops later is a state the
// function never reaches in practice (a q-class worm that would need a second boundary crossing);
// for an injection class that is a bug in the function and throws. Walking all legal entry states
// over-approximates the reachable states, so an acyclic graph is a proof. For functions that route
// multidestination worms with intermediate reception, build() also adds the continuation at each
// intermediate destination: the channel a worm arrived over -> the first channel toward its next
// destination, wherever RoutingFunction::continues_after_delivery allows that continuation.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/routing.hpp"

namespace wormcast::model {

struct VirtualChannel {
  NodeId node = kNoNode;
  Port port = kNoPort;
  VcClass vc = 0;
  bool operator==(const VirtualChannel&) const = default;
};

class ChannelDependencyGraph {
 public:
  // An empty graph over every (node, port, class) of the topology.
  ChannelDependencyGraph(const Topology& topology, int vc_class_count);

  // The graph of a routing function (see above).
  static ChannelDependencyGraph build(const RoutingFunction& routing);

  void add_dependency(const VirtualChannel& from, const VirtualChannel& to);
  bool has_dependency(const VirtualChannel& from, const VirtualChannel& to) const;
  std::size_t dependency_count() const;
  // Virtual channels that appear in at least one dependency.
  std::size_t used_channel_count() const;
  // Every dependency (from, to), by source channel index.
  std::vector<std::pair<VirtualChannel, VirtualChannel>> dependencies() const;

  // A cycle of dependencies c0 -> c1 -> ... -> c(k-1) -> c0, or nullopt if the graph is acyclic.
  std::optional<std::vector<VirtualChannel>> find_cycle() const;
  // A cycle with the fewest dependencies (breadth-first from every channel), or nullopt: the
  // easiest cycle to read, at O(V * E) instead of find_cycle's O(V + E).
  std::optional<std::vector<VirtualChannel>> find_shortest_cycle() const;
  // `(0,0) +X vc0 -> (1,0) +X vc0 -> ... -> (0,0) +X vc0`, closing the cycle.
  std::string describe_cycle(const std::vector<VirtualChannel>& cycle) const;

 private:
  int index(const VirtualChannel& channel) const;
  VirtualChannel channel(int index) const;

  Topology topology_;
  int vc_class_count_;
  std::vector<std::vector<int>> successors_;
};

}  // namespace wormcast::model
