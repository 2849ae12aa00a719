// SPDX-License-Identifier: Apache-2.0
// The unicast-based multicasts on the label-sorted chain (paper [1], docs/algorithms.md):
// separate addressing (unicast), one-port recursive halving, two-port (Figure 4's 2/3 partitions)
// and the even-d d-port generalisation. Every message is a Hamiltonian-path unicast to a chain
// member whose address field is the part of the chain it becomes responsible for. The row handlers
// of firmware/algorithm_table.hpp.
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

// One unicast: chain[receiver] gets the address field chain[first .. first + count).
struct ChainSend {
  std::uint8_t channel = 0;
  std::uint32_t receiver = 0, first = 0, count = 0;
};

struct ChainJob {
  Chain chain;                               // label-sorted node ids: the source's whole chain, a relay's address field
  std::uint32_t own = 0;                     // this node's index (two-/d-port: in the window)
  std::uint32_t last = 0;                    // the last index (two-/d-port: of the window)
  std::uint32_t window_base = 0;             // two-/d-port: the window is chain[window_base .. window_base + last]
  std::uint32_t block_lo = 0, block_hi = 0;  // one-port: the block this node still holds
  std::uint32_t rounds = 0;                  // unicast: one-port sends, or even-d steps, so far
  FixedVector<ChainSend, kMaxChannels> pending;
};

Status check_unicast(const Grid& g, std::uint32_t self, const MulticastRequest& r);
Status check_one_port(const Grid& g, std::uint32_t self, const MulticastRequest& r);
Status check_two_port(const Grid& g, std::uint32_t self, const MulticastRequest& r);
Status check_d_port(const Grid& g, std::uint32_t self, const MulticastRequest& r);
Status start_chain(NodeContext& node, Job& job, const MulticastRequest& r);
Status receive_chain(NodeContext& node, const Received& m, Job* slot);
std::uint32_t iterate_unicast(NodeContext& node, Job& job);
std::uint32_t iterate_one_port(NodeContext& node, Job& job);
std::uint32_t iterate_two_port(NodeContext& node, Job& job);
std::uint32_t iterate_d_port(NodeContext& node, Job& job);
bool issue_chain_send(NodeContext& node, Job& job, std::uint32_t send);

}  // namespace wormcast::fw
