// SPDX-License-Identifier: Apache-2.0
// The broadcast baselines: recursive doubling (rd, docs/algorithms.md "Recursive Doubling") on
// meshes, the Extended Dominating Node broadcast (edn, docs/algorithms.md "EDN step by step") on
// 2^k x 2^k meshes, whose geometry is firmware/edn_broadcast.hpp, and network partitioning (np-d,
// docs/algorithms.md "Network partitioning") on 2^k x 2^k meshes, whose geometry is
// firmware/network_partitioning.hpp. The row handlers of firmware/algorithm_table.hpp.
#pragma once

#include <cstdint>

#include "firmware/edn_broadcast.hpp"
#include "firmware/fixed_vector.hpp"
#include "firmware/fw_config.hpp"
#include "firmware/network.hpp"
#include "firmware/network_partitioning.hpp"
#include "firmware/node_types.hpp"

namespace wormcast::fw {

struct Job;
struct NodeContext;
struct Received;

// rd: one dimension-order unicast per step to the node that takes over segment [lo, hi) of the line.
struct RdSend {
  std::uint32_t receiver = 0;
  std::uint32_t lo = 0, hi = 0;
};

struct RdJob {
  std::uint8_t dim = 0;          // the dimension being halved
  std::uint32_t lo = 0, hi = 0;  // this node's segment [lo, hi) of its line along dim
  RdSend send;                   // this step's
};

// edn: one worm, XY (dimension order) or YX (source-routed), to the holder of `region`, which also
// forwards to the top EDNs of the quadrants in `forward` (bit i: quadrant i; those in `forward_yx`
// by YX).
struct EdnWorm {
  std::uint8_t channel = 0;
  std::uint32_t receiver = 0;
  EdnRegion region{};
  std::uint8_t forward = 0, forward_yx = 0;
  bool yx = false;
};

// (No member initializers on the EdnTopSend array: GCC 12 fails internally on resetting a job's state with them.)
struct EdnJob {
  // 0: the source's step 1; 1: step 2 (the source's, or a top EDN's forwards); 2: covering.
  std::uint8_t phase = 0;
  EdnTopSend top[4];  // the source's steps 1-2
  std::uint8_t top_count = 0;
  std::uint8_t forward = 0, forward_yx = 0;  // a top EDN reached in step 1: its step-2 forwards
  EdnRegion region{};                        // the region still to cover
  std::uint32_t cover_step = 0;              // and the step of its next level
  FixedVector<EdnWorm, kMaxChannels> pending;
};

// np-d: a worm of the current step, carrying sub-messages first_part .. first_part + parts - 1.
struct NpdWorm {
  std::uint32_t receiver = 0;
  std::uint8_t channel = 0;
  std::uint8_t first_part = 0, parts = 1;
};

// A node's np-d multicast, from its first sub-message (or the start, at the source) until it has
// sent its step-(k + 2) worm and, but at the source, delivered the whole message. The
// sub-messages it holds are at their places in its relay buffer (the source's: the application's
// data). It waits (Job::waiting) for its own DDN's sub-message before its DDN steps, for its X
// neighbour's before step k + 2, and for the last two before it delivers.
struct NpdJob {
  std::uint8_t held = 0;        // bit i: sub-message i is in hand
  std::uint32_t next_step = 0;  // the step whose sends come next; 0: its DDN's sub-message has not come
  bool delivered = false;
  FixedVector<NpdWorm, 3> pending;  // this step's
};

Status check_rd(const Grid& g, std::uint32_t self, const MulticastRequest& r);
Status start_rd(NodeContext& node, Job& job, const MulticastRequest& r);
Status receive_rd(NodeContext& node, const Received& m, Job* slot);
std::uint32_t iterate_rd(NodeContext& node, Job& job);
bool issue_rd(NodeContext& node, Job& job, std::uint32_t send);

Status check_edn(const Grid& g, std::uint32_t self, const MulticastRequest& r);
Status start_edn(NodeContext& node, Job& job, const MulticastRequest& r);
Status receive_edn(NodeContext& node, const Received& m, Job* slot);
std::uint32_t iterate_edn(NodeContext& node, Job& job);
bool issue_edn(NodeContext& node, Job& job, std::uint32_t send);

Status check_npd(const Grid& g, std::uint32_t self, const MulticastRequest& r);
Status start_npd(NodeContext& node, Job& job, const MulticastRequest& r);
Status receive_npd(NodeContext& node, const Received& m, Job* slot);
std::uint32_t iterate_npd(NodeContext& node, Job& job);
bool issue_npd(NodeContext& node, Job& job, std::uint32_t send);

}  // namespace wormcast::fw
