// SPDX-License-Identifier: Apache-2.0
// The path-based multicasts ([5], [4], [2]; docs/algorithms.md): multidestination worms whose
// destinations travel in the header's address flits; the routers deliver a copy at each, so
// receivers only deliver. lin (dual-path from a source off label 0), dual-path and multi-path on
// the Hamiltonian path; uniform and fixed (seed 001) on the Hamiltonian cycle of an even-row 2D
// torus or a star graph; hp-dual-path (dual-path's lists on a star graph's cycle, routed like
// uniform and fixed); 3-DBL's column worms to the layer sources of a 3D mesh, each of which then
// runs dual-path in its layer. The row handlers of firmware/algorithm_table.hpp.
#pragma once

#include <cstdint>

#include "firmware/chain.hpp"
#include "firmware/fixed_vector.hpp"
#include "firmware/fw_config.hpp"
#include "firmware/network.hpp"
#include "firmware/node_types.hpp"

namespace wormcast::fw {

struct Job;
struct NodeContext;
struct Received;

// A path worm without a source-routed prefix (PathSend::prefix_port, PathWorm::row_port).
inline constexpr std::uint8_t kNoPrefixPort = 0xFF;

// One multidestination worm: its destinations chain[first .. first + count) in visiting order or,
// with labels_in_range, the nodes labelled first, first + 1, ... (high) or first, first - 1, ...
// (low), count of them: a broadcast's whole network or layer, listed nowhere.
// (No member initializers: GCC 12 fails internally on resetting a job's state (`= PathJob{}`) with them.)
struct PathWorm {
  std::uint32_t first, count;
  bool high;                    // the high channel network
  std::uint8_t row_port;        // multi-path row worm: injected into this row channel; else kNoPrefixPort
  std::uint32_t payload_first;  // 3-DBL column worm: its layers' destinations chain[payload_first ..)
  std::uint32_t payload_count;  //   travel in its payload's address field (payload_in_range: the
                                //   nodes payload_first .. payload_first + payload_count - 1)
  bool labels_in_range, payload_in_range;
};

// A worm of this step: which one, on which channel, behind which prefix.
struct PathSend {
  std::uint8_t channel = 0;
  std::uint8_t worm = 0;                     // index into PathJob::worms
  std::uint8_t prefix_port = kNoPrefixPort;  // a first hop the routing function would not take
};

// A path job's destinations and, at a 3-DBL source, its column worms' layer sources (one per
// layer: at most kMaxSide more).
using PathList = FixedVector<std::uint32_t, kMaxChain + kMaxSide>;

struct PathJob {
  PathList chain;
  PathWorm worms[4];  // in sending order
  std::uint8_t worm_count = 0;
  std::uint32_t first_step = 1;  // the step of the holder's first worms
  bool on_cycle = false;         // uniform, fixed, hp-dual-path: Hamiltonian-cycle routing (mode 1)
  FixedVector<PathSend, kMaxChannels> pending;
};

Status check_lin(const Grid& g, std::uint32_t self, const MulticastRequest& r);  // lin and dual-path
Status check_multi_path(const Grid& g, std::uint32_t self, const MulticastRequest& r);
Status check_cycle(const Grid& g, std::uint32_t self, const MulticastRequest& r);  // uniform and fixed
Status check_hp_dual_path(const Grid& g, std::uint32_t self, const MulticastRequest& r);
Status check_three_dbl(const Grid& g, std::uint32_t self, const MulticastRequest& r);
Status start_dual_path(NodeContext& node, Job& job, const MulticastRequest& r);  // lin and dual-path
Status start_multi_path(NodeContext& node, Job& job, const MulticastRequest& r);
Status start_uniform(NodeContext& node, Job& job, const MulticastRequest& r);
Status start_fixed(NodeContext& node, Job& job, const MulticastRequest& r);
Status start_hp_dual_path(NodeContext& node, Job& job, const MulticastRequest& r);
Status start_three_dbl(NodeContext& node, Job& job, const MulticastRequest& r);
Status receive_path_copy(NodeContext& node, const Received& m, Job* slot);   // Hamiltonian path
Status receive_cycle_copy(NodeContext& node, const Received& m, Job* slot);  // Hamiltonian cycle
Status receive_three_dbl(NodeContext& node, const Received& m, Job* slot);
std::uint32_t iterate_path(NodeContext& node, Job& job);
bool issue_path_worm(NodeContext& node, Job& job, std::uint32_t send);

}  // namespace wormcast::fw
