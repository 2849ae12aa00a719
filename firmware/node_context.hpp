// SPDX-License-Identifier: Apache-2.0
// What every algorithm's handlers (firmware/algorithm_table.hpp) see of the node: its
// configuration, its NI, the message sequence number and the buffers one send is built in, plus
// the source-side scratch of the algorithms that plan over the whole network. NodeFirmware owns
// one; the handlers are free functions over it and a job (firmware/job.hpp).
#pragma once

#include <cstdint>

#include "firmware/fw_config.hpp"
#include "firmware/message.hpp"
#include "firmware/network_interface.hpp"
#include "firmware/noc_wire_format.hpp"
#include "firmware/node_types.hpp"
#include "firmware/replication_lock.hpp"
#include "firmware/tree_multicast.hpp"
#include "firmware/xy_path.hpp"

namespace wormcast::fw {

struct Job;

static_assert(kMaxSide == 1u << wire::kCoordW, "kMaxSide is the routers' longest side");
// Header flits the firmware packs into NodeContext::header: a head, a multi-path prefix and its
// real head, or an EDN YX source route across two sides (2 (kMaxSide - 1) hops, kRouteEntries per
// flit). Longer headers (a path worm's address flits, an XY-path route) are generated as the NI
// takes them (HeaderFlits), never packed.
inline constexpr std::uint32_t kMaxPackedHeaderFlits =
    (2 * (kMaxSide - 1) + wire::kRouteEntries - 1) / wire::kRouteEntries;

// A message the NI handed up: its head, its decoded control words, the payload and its data words.
struct Received {
  wire::HeadFields head;
  MessageInfo info;
  const std::uint64_t* payload = nullptr;
  const std::uint64_t* data = nullptr;
};

struct NodeContext {
  NodeConfig config{};
  NetworkInterface* ni = nullptr;
  std::uint32_t sequence = 0;
  std::uint64_t header[kMaxPackedHeaderFlits]{};  // the packed header flits of the worm being sent
  // A message's control words; its address field and data go to the NI from where they lie.
  std::uint64_t control[kControlWords]{};
  // One buffer per job slot, used only while that job relays: the data it sends on.
  std::uint64_t relay_data[kMaxJobs][kMaxDataWords]{};
  TreeBuilder tree_builder{};  // VH, DIAG, DDS, MIN at the source
  XyPartition xy_partition{};  // XY-path at the source
  ReplicationLock lock{};      // holder side on every node, the queue on the coordinator
  // The node's kMaxJobs job slots (NodeFirmware's): a message of a multicast that a job here
  // already serves joins that job (np-d's sub-messages).
  Job* jobs = nullptr;

  const Grid& grid() const { return config.grid; }
  std::uint32_t self() const { return config.node; }

  // A head from this node with the next message's tag; the caller sets the routing fields.
  wire::HeadFields head() const;
  // A dimension-order head (mode 2) to `receiver`'s coordinates.
  wire::HeadFields dimension_order_head(std::uint32_t receiver) const;
  // header[flit] = `head` packed; false when a field does not fit its width.
  bool put_head(std::uint32_t flit, const wire::HeadFields& head);
  // header[flit] = address flit k (k >= 1) of a worm with head `head`, naming `dest`.
  void put_address_flit(std::uint32_t flit, const wire::HeadFields& head, std::uint32_t dest, std::uint32_t k);
  // Hands the message's data to the application: this node is a destination.
  void deliver(const Received& m) const;
  // Hands a message this node put together (np-d's sub-messages) to the application.
  void deliver(std::uint16_t multicast, const std::uint64_t* data, std::uint32_t words) const;
  // Sends the header flits and the payload: the job's control fields with the per-send ones of
  // `info` (address_entries set to the address field's count), the address field and the job's
  // data (job.data), both from where they lie or are generated. False, and nothing sent, when channel
  // `channel`'s queue is full or the NI refuses.
  bool send(const Job& job, unsigned channel, const HeaderFlits& header, MessageInfo info,
            const AddressEntries& address);
  // As send with header[0 .. flits) packed in `header` and address[0 .. entries) in memory.
  bool send(const Job& job, unsigned channel, std::uint32_t flits, MessageInfo info, const std::uint32_t* address,
            std::uint32_t entries);
  // As send with no address field, and `words` data words from `data` in place of the job's data:
  // a part of its message (np-d's sub-messages).
  bool send_part(const Job& job, unsigned channel, std::uint32_t flits, MessageInfo info, const std::uint64_t* data,
                 std::uint32_t words);

 private:
  bool transmit(const Job& job, unsigned channel, const HeaderFlits& header, MessageInfo info,
                const AddressEntries& address, const std::uint64_t* data, std::uint32_t words);
};

}  // namespace wormcast::fw
