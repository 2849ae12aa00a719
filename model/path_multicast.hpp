// SPDX-License-Identifier: Apache-2.0
// Path-based multicast: multidestination worms along Hamiltonian labelings, delivered by
// intermediate reception ([1], [2], [4], [5]; docs/algorithms.md "Path-based multicast").
//
//   "lin"                LIN's single Hamiltonian path ([5], 3.3.2): every destination in one worm,
//                        ascending by row-snake label, from a source at label 0. From any other
//                        source the destinations below it cannot ride an ascending worm, so LIN
//                        sends them on a second, descending one: exactly dual-path.
//   "dual-path"          Lin-Ni dual-path ([4], Section 2; [5]): D_H (labels above the source)
//                        ascending in the high network, D_L descending in the low network; 2D and
//                        3D (layer snake) meshes, tori with the wraps unused ([1])
//   "multi-path"         Lin-Ni multi-path (our reading of [5]): D_H and D_L each split by the
//                        source's column into a row worm and a column worm, up to four worms that
//                        leave on four different channels; 2D meshes and tori (wraps unused),
//                        all-port only
//   "uniform"            [2]'s message preparation on the Hamiltonian-cycle labeling: 2D tori with an
//   "fixed"              even row count and star graphs; worms routed by HamiltonianCycleRouting
//                        from class ph (high) / pl (low), carrying the class across destinations
//   "hp-dual-path"       the baseline of seed 001's star-graph figure (Chen, Wang and Chu, seed 001
//                        ref. [2]; docs/algorithms.md "HP dual-path"): Lin-Ni's lists on the
//                        Hamiltonian path that is the star cycle labeling without its closing edge,
//                        worms routed by HamiltonianCycleRouting from ph / pl, which for these
//                        lists never crosses a boundary link; star graphs only
//   "3dbl"               3-D Broadcast Layers ([4], Section 3.1, reading R1): +Z / -Z column
//                        worms to the layer sources, then each layer source's dual-path in its layer
//
// Every worm is a multidestination path worm: the routers deliver a copy at each destination of
// its header in order and route on toward the next with the labeling's routing function.
//
// Ports: with the all-port model a source sends all its worms at once, each on the injection
// channel of the direction it leaves in (Worm::port = the network port of its first hop). With
// fewer injection channels a node serialises its worms over consecutive steps (see
// plan_path_multicast); docs/algorithms.md gives the details.
#pragma once

#include <string>
#include <vector>

#include "model/labeling.hpp"
#include "model/plan.hpp"

namespace wormcast::model {

// Algorithm names (Request::algorithm).
inline constexpr const char* kLinAlgorithm = "lin";
inline constexpr const char* kDualPathAlgorithm = "dual-path";
inline constexpr const char* kMultiPathAlgorithm = "multi-path";
inline constexpr const char* kUniformDualPathAlgorithm = "uniform";
inline constexpr const char* kFixedDualPathAlgorithm = "fixed";
inline constexpr const char* kHpDualPathAlgorithm = "hp-dual-path";
inline constexpr const char* kThreeDblAlgorithm = "3dbl";
std::vector<std::string> path_multicast_names();

// The two header lists of a dual-path multicast, in delivery order.
struct DualPathLists {
  std::vector<NodeId> high;  // the worm in the high channel network
  std::vector<NodeId> low;   // the worm in the low channel network
  bool operator==(const DualPathLists&) const = default;
};

// Message preparation, pure functions of the labels (the source is not among the destinations).
// Lin-Ni ([4], Section 2): high = labels above the source ascending, low = labels below descending.
DualPathLists lin_ni_dual_path_lists(const HamiltonianLabeling& labeling, NodeId source,
                                     const std::vector<NodeId>& destinations);
// [2], Section 3.2, on a cycle labeling. phi = the destinations in cyclic label order starting
// after the source. Uniform: high = the first ceil(n/2) of phi, low = the rest reversed.
DualPathLists uniform_dual_path_lists(const HamiltonianLabeling& labeling, NodeId source,
                                      const std::vector<NodeId>& destinations);
// Fixed, with c = ceil(N/2): if label(s) < c, high = phi's labels strictly between label(s) and
// label(s) + c, low = the rest of phi reversed; otherwise low = phi's labels strictly between
// label(s) - c and label(s), descending, high = the rest of phi. A destination at the pivot
// label(s) +- c goes to low in the first case and to high in the second ([2] as written;
// docs/algorithms.md "Uniform and fixed dual-path").
DualPathLists fixed_dual_path_lists(const HamiltonianLabeling& labeling, NodeId source,
                                    const std::vector<NodeId>& destinations);

// The worms of a path-based request and their metrics. Throws what validate() throws, SpecError
// for an algorithm not in path_multicast_names(), UnsupportedError for a topology or port model
// the algorithm does not run on (the message names the ones it supports).
Plan plan_path_multicast(const Request& request);

}  // namespace wormcast::model
