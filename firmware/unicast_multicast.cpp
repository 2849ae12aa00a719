// SPDX-License-Identifier: Apache-2.0
// Separate addressing, one-port, two-port and d-port (paper [1], docs/algorithms.md); independent
// of model/ (docs/firmware.md, "HW/SW split").
#include "firmware/unicast_multicast.hpp"

#include "firmware/job.hpp"

namespace wormcast::fw {
namespace {

constexpr std::uint32_t ceil_div(std::uint32_t a, std::uint32_t b) { return (a + b - 1) / b; }

// [1], Figure 4 (d = 2), and its even-d generalisation: keep chain[l .. u] of the window, cut the
// lower part into d/2 blocks sent on low ports j, the upper part into d/2 blocks sent on high ports
// d/2 + j, each to the block's centre nearest the sender.
void split_window(ChainJob& c, std::uint32_t d) {
  const std::uint32_t m = c.last, s = c.own, h = d / 2;
  if (m == 0) return;
  const std::uint32_t l = ceil_div(d * s, d + 1);
  const std::uint32_t u = m - ceil_div(d * (m - s), d + 1);
  for (std::uint32_t j = 0; j < h; ++j) {
    const std::uint32_t a = j * l / h, b = (j + 1) * l / h;
    if (b > a) {
      c.pending.push_back({static_cast<std::uint8_t>(j), c.window_base + a + (b - a) / 2, c.window_base + a, b - a});
    }
  }
  const std::uint32_t upper = m - u;
  for (std::uint32_t j = 0; j < h; ++j) {
    const std::uint32_t a = u + 1 + j * upper / h, b = u + 1 + (j + 1) * upper / h;
    if (b > a) {
      c.pending.push_back(
          {static_cast<std::uint8_t>(h + j), c.window_base + a + ceil_div(b - a, 2) - 1, c.window_base + a, b - a});
    }
  }
  c.window_base += l;
  c.own = s - l;
  c.last = u - l;
}

// The job's chain state with this step's sends cleared.
ChainJob& fresh_step(Job& job) {
  job.state.chain.pending.clear();
  return job.state.chain;
}

}  // namespace

Status check_unicast(const Grid&, std::uint32_t, const MulticastRequest& r) {
  return r.ports == 1 || r.ports % 2 == 0 ? Status::kOk : Status::kBadPortCount;
}
Status check_one_port(const Grid&, std::uint32_t, const MulticastRequest& r) {
  return r.ports == 1 ? Status::kOk : Status::kBadPortCount;
}
Status check_two_port(const Grid&, std::uint32_t, const MulticastRequest& r) {
  return r.ports == 2 ? Status::kOk : Status::kBadPortCount;
}
Status check_d_port(const Grid&, std::uint32_t, const MulticastRequest& r) {
  return r.ports % 2 == 0 ? Status::kOk : Status::kBadPortCount;
}

// The source's chain: itself and the destinations, label-sorted.
Status start_chain(NodeContext& node, Job& job, const MulticastRequest& r) {
  job.state.chain = {};
  ChainJob& c = job.state.chain;
  c.chain.push_back(node.self());
  for (std::uint32_t i = 0; i < r.count; ++i) c.chain.push_back(r.destinations[i]);
  sort_by_label(node.grid(), c.chain);
  for (std::uint32_t i = 0; i < c.chain.size(); ++i) {
    if (c.chain[i] == node.self()) c.own = i;
  }
  c.last = static_cast<std::uint32_t>(c.chain.size()) - 1;
  c.block_hi = c.last;
  return Status::kOk;
}

// The receiver is a destination and in its address field; it delivers, and when the field holds
// more than itself it serves that part of the chain.
Status receive_chain(NodeContext& node, const Received& m, Job* slot) {
  if (m.info.address_entries > Chain::capacity()) return Status::kBadMessage;  // more than a chain holds
  std::uint32_t own_index = 0;
  bool found = false;
  for (std::uint32_t i = 0; i < m.info.address_entries; ++i) {
    const std::uint32_t entry = address_entry(m.payload, i);
    if (entry >= node.grid().nodes()) return Status::kBadMessage;
    if (entry == node.self()) {
      own_index = i;
      found = true;
    }
  }
  if (!found) return Status::kBadMessage;
  const bool relays = m.info.address_entries > 1;  // responsible for more than itself
  if (relays && slot == nullptr) return Status::kNoFreeJob;
  node.deliver(m);
  if (!relays) return Status::kOk;
  begin_relay(node, *slot, m);
  slot->all_port = false;
  slot->state.chain = {};
  ChainJob& c = slot->state.chain;
  for (std::uint32_t i = 0; i < m.info.address_entries; ++i) c.chain.push_back(address_entry(m.payload, i));
  c.own = own_index;
  c.last = m.info.address_entries - 1u;
  c.block_hi = c.last;
  slot->active = true;
  return Status::kOk;
}

// Separate addressing: one port goes through the chain in order; d = 2p ports send to the p
// nearest unserved destinations below the source on the low ports and above it on the high ports.
std::uint32_t iterate_unicast(NodeContext&, Job& job) {
  ChainJob& c = fresh_step(job);
  const std::uint32_t m = c.last, s = c.own;
  if (job.ports == 1) {
    const std::uint32_t index = c.rounds + (c.rounds >= s ? 1 : 0);
    if (index > m) return 0;
    c.pending.push_back({0, index, index, 1});
    ++c.rounds;
    return 1;
  }
  const std::uint32_t p = job.ports / 2u, round = c.rounds;
  for (std::uint32_t j = 0; j < p; ++j) {
    const std::uint32_t k = round * p + j + 1;  // k-th nearest below
    if (k <= s) c.pending.push_back({static_cast<std::uint8_t>(j), s - k, s - k, 1});
  }
  for (std::uint32_t j = 0; j < p; ++j) {
    const std::uint32_t k = round * p + j + 1;
    if (s + k <= m) c.pending.push_back({static_cast<std::uint8_t>(p + j), s + k, s + k, 1});
  }
  ++c.rounds;
  return static_cast<std::uint32_t>(c.pending.size());
}

// [1]'s one-port baseline, recursive halving: the holder of block [lo, hi] hands the half it is not
// in to that half's element nearest it.
std::uint32_t iterate_one_port(NodeContext&, Job& job) {
  ChainJob& c = fresh_step(job);
  if (c.block_lo >= c.block_hi) return 0;
  const std::uint32_t mid = (c.block_lo + c.block_hi) / 2;
  if (c.own <= mid) {
    c.pending.push_back({0, mid + 1, mid + 1, c.block_hi - mid});
    c.block_hi = mid;
  } else {
    c.pending.push_back({0, mid, c.block_lo, mid - c.block_lo + 1});
    c.block_lo = mid + 1;
  }
  return 1;
}

// [1]: the window's 2/3 partitions of Figure 4, one block per port.
std::uint32_t iterate_two_port(NodeContext&, Job& job) {
  ChainJob& c = fresh_step(job);
  split_window(c, 2);
  return static_cast<std::uint32_t>(c.pending.size());
}

// [1]'s even-d generalisation (docs/algorithms.md "d-port"), d/2 blocks on each side.
std::uint32_t iterate_d_port(NodeContext&, Job& job) {
  ChainJob& c = fresh_step(job);
  split_window(c, job.ports);
  return static_cast<std::uint32_t>(c.pending.size());
}

// A Hamiltonian-path unicast (mode 0) in the receiver's direction of the labels.
bool issue_chain_send(NodeContext& node, Job& job, std::uint32_t index) {
  const ChainJob& c = job.state.chain;
  const ChainSend& send = c.pending[index];
  const Grid& g = node.grid();
  const std::uint32_t receiver = c.chain[send.receiver];
  wire::HeadFields head = node.head();
  head.mode = wire::Mode::kHamiltonianPath;
  head.network = g.label(receiver) > g.label(node.self()) ? wire::kNetworkHigh : wire::kNetworkLow;
  head.vc_class = wire::ham_path_class(head.network);
  head.dest = g.label(receiver);
  if (!node.put_head(0, head)) return false;
  return node.send(job, send.channel, 1, MessageInfo{}, c.chain.begin() + send.first, send.count);
}

}  // namespace wormcast::fw
