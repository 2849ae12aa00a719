// SPDX-License-Identifier: Apache-2.0
// Unicast-based multicast on the Hamiltonian-path labeling ([1], Definitions 5-6, Figure 4).
//
// The source and the K = m destinations form a labeling-ordered chain D_0 .. D_m (Def. 5); the
// source sits at index src. Every holder of the message splits its part of the chain, sends one
// unicast per part to a node of that part (the unicast's payload carries the part as its address
// field) and keeps the rest; a receiver starts on its part in the next step. Algorithms:
//   "unicast"   separate addressing: the source sends one unicast per destination, up to one per
//               port per step (with K = 1 the plain unicast, one worm)
//   "one-port"  recursive halving (docs/algorithms.md "One-port"): ceil(log2(m+1)) steps
//   "two-port"  [1], Figure 4 (partitions of Definition 6): at most ceil(log3(2(m+1))) steps
//   "d-port"    the even-d generalisation (docs/algorithms.md "d-port"); experimental for d > 2
// Every unicast is routed by HamiltonianPathRouting (2D/3D meshes; tori with the wraps unused).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/labeling.hpp"
#include "model/plan.hpp"

namespace wormcast::model {

// Algorithm names (Request::algorithm).
inline constexpr const char* kUnicastAlgorithm = "unicast";
inline constexpr const char* kOnePortAlgorithm = "one-port";
inline constexpr const char* kTwoPortAlgorithm = "two-port";
inline constexpr const char* kDPortAlgorithm = "d-port";
std::vector<std::string> unicast_multicast_names();

// One unicast of a schedule, in chain indices (0 .. m).
struct ChainSend {
  int sender = 0;
  int receiver = 0;
  int step = 1;
  int port = 0;  // the sender's injection port
  // The network of that port where the architecture binds ports to networks (two-port and
  // d-port: the first d/2 ports are low, toward smaller chain indices, the others high).
  std::optional<ChannelNetwork> port_network;
  int first = 0;  // the address field is chain[first .. last]; it contains the receiver
  int last = 0;
  bool operator==(const ChainSend&) const = default;
};

// Schedules of a chain D_0 .. D_m with the source at index src (0 <= src <= m), ordered by step,
// then sender index, then port. Pure functions of the indices: the partition formulas alone.
// Throws RequestError for m < 0, src outside 0..m, or a port count the algorithm cannot use.
std::vector<ChainSend> one_port_schedule(int m, int src);
std::vector<ChainSend> two_port_schedule(int m, int src);
// d even (d = 2 gives two_port_schedule).
std::vector<ChainSend> d_port_schedule(int m, int src, int d);
// ports = 1, or even: d/2 low ports send to the destinations below the source nearest first, d/2
// high ports to those above; one port sends in chain order.
std::vector<ChainSend> separate_addressing_schedule(int m, int src, int ports);
// The largest step of a schedule (0 when it is empty).
int step_count(const std::vector<ChainSend>& schedule);

// The labeling-ordered chain of Def. 5: the source and the destinations sorted by label.
std::vector<NodeId> labeling_ordered_chain(const HamiltonianLabeling& labeling, NodeId source,
                                           const std::vector<NodeId>& destinations);

// The plan of a unicast-based request on the labeling-ordered chain. Throws what validate()
// throws, SpecError for an algorithm name not in unicast_multicast_names(), UnsupportedError for a
// port model the algorithm does not run on or a topology without a Hamiltonian path labeling.
Plan plan_unicast_multicast(const Request& request);
// The same on an explicit chain: a permutation of the source and the destinations, used in the
// given order (V4(a) reproduces the seed's printed, not label-sorted, chain; docs/algorithms.md). Throws
// RequestError if `chain` is not such a permutation.
Plan plan_unicast_multicast(const Request& request, const std::vector<NodeId>& chain);

}  // namespace wormcast::model
