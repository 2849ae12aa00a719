// SPDX-License-Identifier: Apache-2.0
// The whole design's channel dependency graph: every routing family the firmware emits on a
// topology, each on the router VCs a VcClassPlan gives its classes, in one graph.
//
// A vertex is (node, port, router VC). Each family adds the dependencies of every worm it can
// produce (docs/model.md, "The whole design"):
//   hamiltonian-path, hamiltonian-cycle, dimension-order, cpr-line: ChannelDependencyGraph::build
//     of the routing function (every route, and the intermediate-reception continuations), each
//     channel on the VC of its class (Hamiltonian path: of the channel's network). Dimension order
//     is walked as far as its senders go (AlgorithmInfo::dimension_order_worms): every pair where
//     edn or np-d runs (XY worms), straight lines where only rd sends beyond one hop (its worms
//     stay on one line: tested against its plans), nothing where only the trees use it (one-hop
//     worms hold no channel while requesting one).
//   pcp-branch: a spine worm holding the Y channel it arrived on requests the +-X branch channels
//     (the router spawns them, in the class of their X direction), and each branch runs straight
//     to the row end. On top of an acyclic channel graph, the check adds, for each source in turn,
//     the starvation dependencies of that source's PCP tree (every branch channel waits for the
//     spine's next Y channel: synchronous replication starves a branch while its spine is
//     blocked); one tree at a time, as the replication lock lets into the network.
//   xy-path-route: on each partition path of both variants from every corner, the route of
//     eq. 3.3.1 between every ordered pair of path nodes, with the continuations at each node.
//   edn-yx-leg: the YX route (the Y leg, then the X leg) between every ordered pair of nodes.
//   multi-path-prefix: the prefix hop from every source onto its row channel, then the
//     Hamiltonian-path hop toward every first destination the row worm can have.
// Walking every such state over-approximates what worms can do, so an acyclic graph is a proof.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/channel_dependency_graph.hpp"
#include "model/vc_class_plan.hpp"

namespace wormcast::model {

struct DesignDependency {
  VirtualChannel from;
  VirtualChannel to;
  RoutingFamily family = RoutingFamily::kHamiltonianPath;
  bool operator==(const DesignDependency&) const = default;
};

// Every dependency each family of `plan` adds on `topology`, channels on router VCs (a dependency
// two families add appears once per family). `only`, when not empty, keeps the families it names:
// which families close a cycle.
std::vector<DesignDependency> design_dependencies(const Topology& topology, const VcClassPlan& plan,
                                                  const std::vector<RoutingFamily>& only = {});

struct DesignDeadlockCheck {
  int vc_count = 0;
  std::size_t dependency_count = 0;  // distinct (from, to) pairs
  std::size_t used_channel_count = 0;
  // A shortest cycle c0 -> c1 -> ... -> c(k-1) -> c0, or nullopt when the design is deadlock-free.
  std::optional<std::vector<VirtualChannel>> cycle;
  // Edge i (cycle[i] -> cycle[i+1 mod k]): the families that add it.
  std::vector<std::vector<RoutingFamily>> cycle_families;
  // One line per edge of the cycle: `(0,0) +X vc0 -> (1,0) +Y vc0  [dimension-order]`; a
  // starvation dependency is marked `pcp-branch starvation`.
  std::string cycle_text;
  // Set when the channel graph alone is acyclic and the cycle closes only with the starvation
  // dependencies of the PCP tree from this source (one tree at a time: the replication lock).
  std::optional<NodeId> starvation_tree;
};

// The graph of `plan` on `topology` and the cycle it has, if any. Pure.
DesignDeadlockCheck check_design_deadlock(const Topology& topology, const VcClassPlan& plan,
                                          const std::vector<RoutingFamily>& only = {});

// The distinct families of the cycle, in routing_families() order (empty when acyclic).
std::vector<RoutingFamily> families_in_cycle(const DesignDeadlockCheck& check);

}  // namespace wormcast::model
