// SPDX-License-Identifier: Apache-2.0
// Unicast-based broadcast baselines of seed 002 (spec 3.3, 3.4): Recursive Doubling and Extended
// Dominating Node on the mesh. Both send only unicast worms; a message-passing step is one round
// of unicasts, and a receiver forwards from the next step on.
//
//   "rd"   Recursive Doubling (Barnett et al.): dimension by dimension (X, then Y, then Z), every
//          holder halves the segment of its row (column, ...) it is responsible for and sends to
//          the node at the same relative position in the other half. One port, dimension-order
//          routes, no channel shared within a step. sum_d ceil(log2 size_d) steps: 2k on 2^k x 2^k.
//          2D and 3D meshes of any size, any port model (it uses one injection port).
//   "edn"  Extended Dominating Node (Tsai and McKinley), reconstructed from the seed's description
//          (docs/algorithms.md, "Extended Dominating Node"): the source reaches the four
//          highest-level EDNs in two steps, then every level-j EDN sends to the three other
//          level-(j-1) EDNs of its region, one step per level, k - 1 steps: k + 1 steps on
//          2^k x 2^k (k >= 2). All-port (each worm leaves on its own direction), XY or YX routes
//          chosen so that no two worms of a step share a channel.
//
// Both are broadcasts: the destinations must be every node except the source (in any order).
#pragma once

#include <string>
#include <vector>

#include "model/plan.hpp"

namespace wormcast::model {

inline constexpr const char* kRecursiveDoublingAlgorithm = "rd";
inline constexpr const char* kExtendedDominatingNodeAlgorithm = "edn";
std::vector<std::string> broadcast_baseline_names();

// Every node except `source`, in id order: the destination set of a broadcast request.
std::vector<NodeId> broadcast_destinations(const Topology& topology, NodeId source);

// Recursive Doubling's step count on a mesh: the sum over dimensions of ceil(log2 size).
int recursive_doubling_steps(const Topology& topology);

// The four highest-level EDNs of a 2^k x 2^k mesh (k >= 2), in quadrant order (lower left, lower
// right, upper right, upper left; on 4x4 the centres of the four T-tetrominoes). The two first
// steps of "edn" deliver to these. Throws UnsupportedError on other topologies.
std::vector<NodeId> edn_top_level_nodes(const Topology& topology);

// The plan of "rd" or "edn". Throws what validate() throws, SpecError for another algorithm name,
// UnsupportedError for a topology or port model the algorithm does not run on, RequestError if the
// destinations are not every other node.
Plan plan_broadcast_baseline(const Request& request);

// The papers' latency formulas (spec 3.4), in the units of `p`.
// Eq. (6) on a 2^k x 2^k mesh with D = 2(2^k - 1), the critical-path distance (A-002-4):
//   tau_RD = 2k (alpha + gamma + beta L) + D beta
double recursive_doubling_latency_formula(int k, int length_flits, const LatencyParameters& p);
// Eq. (7); the seed leaves d1 (distance covered per level step) and d2 (in the two first steps)
// unspecified, so they are arguments:
//   tau_EDN = (k - 1)(3 alpha + beta L + gamma + d1 beta) + 3 alpha + 2 beta L + 2 gamma + d2 beta
double extended_dominating_node_latency_formula(int k, int length_flits, double d1, double d2,
                                                const LatencyParameters& p);

}  // namespace wormcast::model
