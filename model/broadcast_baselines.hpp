// SPDX-License-Identifier: Apache-2.0
// Unicast-based broadcast baselines of [3] (its Section 5 and eqs. (6)-(7)): Recursive Doubling and Extended
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
//   "np-d" Network Partitioning (Tseng, Wang and Ho), our reading (docs/algorithms.md, "Network
//          partitioning"): the message is cut into 4 sub-messages, one per DDN (the nodes of one
//          row parity and one column parity); step 1 sends them to the DDNs' representatives,
//          steps 2 .. k broadcast each in its DDN, steps k + 1 and k + 2 exchange them inside every
//          2x2 block (the DCNs). k + 2 steps on 2^k x 2^k (k >= 1), all-port.
//
// All three are broadcasts: the destinations must be every node except the source (in any order).
#pragma once

#include <string>
#include <vector>

#include "model/plan.hpp"

namespace wormcast::model {

inline constexpr const char* kRecursiveDoublingAlgorithm = "rd";
inline constexpr const char* kExtendedDominatingNodeAlgorithm = "edn";
inline constexpr const char* kNetworkPartitioningAlgorithm = "np-d";
inline constexpr int kNpdSubmessages = 4;  // one per DDN
std::vector<std::string> broadcast_baseline_names();

// Every node except `source`, in id order: the destination set of a broadcast request.
std::vector<NodeId> broadcast_destinations(const Topology& topology, NodeId source);

// Recursive Doubling's step count on a mesh: the sum over dimensions of ceil(log2 size).
int recursive_doubling_steps(const Topology& topology);

// The four highest-level EDNs of a 2^k x 2^k mesh (k >= 2), in quadrant order (lower left, lower
// right, upper right, upper left; on 4x4 the centres of the four T-tetrominoes). The two first
// steps of "edn" deliver to these. Throws UnsupportedError on other topologies.
std::vector<NodeId> edn_top_level_nodes(const Topology& topology);

// np-d's pieces on a 2^k x 2^k mesh: k for side 2^k; the DDN of a node, (x mod 2) + 2 (y mod 2);
// the flits of sub-message i of an L-flit message (L / 4, the first L mod 4 one flit more, at
// least one); the
// representative of each DDN, by DDN index (the source for its own; its X and Y neighbours in its
// 2x2 block; for the diagonal DDN the node one column away from the block and one row into it, or
// the block's diagonal node when that column is outside the mesh).
int np_d_k(int side);
int np_d_ddn(const Topology& topology, NodeId node);
int np_d_submessage_flits(int length_flits, int ddn);
std::vector<NodeId> np_d_representatives(const Topology& topology, NodeId source);

// The plan of "rd", "edn" or "np-d". Throws what validate() throws, SpecError for another algorithm name,
// UnsupportedError for a topology or port model the algorithm does not run on, RequestError if the
// destinations are not every other node.
Plan plan_broadcast_baseline(const Request& request);

// The papers' latency formulas ([3], eqs. (6)-(8)), in the units of `p`.
// Eq. (6) on a 2^k x 2^k mesh with D = 2(2^k - 1), the critical-path distance
// (docs/algorithms.md "Recursive Doubling"):
//   tau_RD = 2k (alpha + gamma + beta L) + D beta
double recursive_doubling_latency_formula(int k, int length_flits, const LatencyParameters& p);
// Eq. (7); the seed leaves d1 (distance covered per level step) and d2 (in the two first steps)
// unspecified, so they are arguments:
//   tau_EDN = (k - 1)(3 alpha + beta L + gamma + d1 beta) + 3 alpha + 2 beta L + 2 gamma + d2 beta
double extended_dominating_node_latency_formula(int k, int length_flits, double d1, double d2,
                                                const LatencyParameters& p);
// Eq. (8) as we read it (docs/algorithms.md "Network partitioning": the brackets are ceilings;
// d, the partitioning depth of Tseng et al., is not defined in [3], so it is an argument,
// 0 <= d <= k):
//   tau_NP-D = (k - d + 2^d + 3 + ceil((d+1) log_3 2) + ceil(d log_5 2)) alpha
//            + (9/4 + (k - d + 2 + ceil((d+1) log_3 2)) / 2^d) gamma + (3 2^k + 2^(d+1) - 3) beta L
double network_partitioning_latency_formula(int k, int d, int length_flits, const LatencyParameters& p);

}  // namespace wormcast::model
