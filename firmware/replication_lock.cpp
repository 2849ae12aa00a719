// SPDX-License-Identifier: Apache-2.0
// The replication lock's holder and coordinator sides; independent of model/ (docs/firmware.md,
// "The replication lock").
#include "firmware/replication_lock.hpp"

#include "firmware/algorithm_table.hpp"
#include "firmware/job.hpp"
#include "firmware/node_context.hpp"

namespace wormcast::fw {
namespace {

bool same_coords(const Grid& g, std::uint32_t node, const wire::Coords& c) {
  return g.coord(node, 0) == c.x && g.coord(node, 1) == c.y && g.coord(node, 2) == c.z;
}

}  // namespace

bool replicates_onto_network(const Grid& g, std::uint32_t sender, const wire::HeadFields& head) {
  return replicated_heads(g, sender, head) > 0;
}

std::uint32_t replicated_heads(const Grid& g, std::uint32_t sender, const wire::HeadFields& head) {
  if (g.kind == GridKind::kStar || g.dims != 2) return 0;
  if (head.mode != wire::Mode::kCprLine || head.cf != wire::Cf::kDeliverPass) return 0;
  const wire::Coords end = wire::unpack_coord_dest(head.dest);
  const std::uint32_t x = g.coord(sender, 0), y = g.coord(sender, 1);
  if (end.y == y || end.x != x) return 0;  // a line along X, or not a line from here
  const std::uint32_t branches = (x > 0 ? 1u : 0u) + (x + 1 < g.size[0] ? 1u : 0u);
  if (branches == 0) return 0;  // a one-column mesh: the spine spawns nothing
  const std::uint32_t rows = end.y > y ? end.y - y : y - end.y;
  return 1 + rows * branches;
}

bool absorbs_replicated_head(const Grid& g, std::uint32_t self, const wire::HeadFields& head, const MessageInfo& info) {
  if (g.kind == GridKind::kStar || g.dims != 2 || info.rd_dim != 1) return false;
  if (head.mode != wire::Mode::kCprLine || head.cf != wire::Cf::kDeliverPass || g.size[0] < 2) return false;
  return same_coords(g, self, wire::unpack_coord_dest(head.dest));
}

void ReplicationLock::bind(Job* jobs, std::size_t count) {
  jobs_ = jobs;
  job_count_ = count;
}

Status ReplicationLock::post(NodeContext& node, const Outgoing& message) {
  if (!outbox_.push_back(message)) return Status::kBadMessage;  // beyond the bound: a protocol error
  flush(node);
  return Status::kOk;
}

// Sends each queued message its channel takes; the rest wait for on_channel_free (the pump).
void ReplicationLock::flush(NodeContext& node) {
  std::size_t kept = 0;
  for (std::size_t i = 0; i < outbox_.size(); ++i) {
    const Outgoing& o = outbox_[i];
    bool sent = false;
    if (node.ni->can_send(o.channel)) {
      const wire::HeadFields head = node.dimension_order_head(o.to);
      MessageInfo info;
      info.kind = o.kind;
      info.multicast = o.request.multicast;
      info.origin = o.request.node;
      info.algorithm = o.request.algorithm;
      info.lock_count = o.kind == MessageKind::kLockRequest ? o.request.heads : 0;
      info.sequence = node.sequence;
      if (node.put_head(0, head)) {
        encode_control(info, node.control);
        const PackedHeader header(node.header, 1);
        OutgoingWorm worm;
        worm.header = &header;
        worm.control = node.control;
        worm.control_words = kControlWords;
        sent = node.ni->send(o.channel, worm);
      }
      if (sent) node.sequence = (node.sequence + 1) & 0xFFFFF;
    }
    if (!sent) outbox_[kept++] = o;
  }
  outbox_.truncate(kept);
}

void ReplicationLock::pump(NodeContext& node) {
  flush(node);
  while (!outstanding_) {
    Job* wanting = nullptr;
    for (std::size_t i = 0; i < job_count_ && wanting == nullptr; ++i) {
      if (jobs_[i].active && jobs_[i].lock.state == LockState::kWanted) wanting = &jobs_[i];
    }
    if (wanting == nullptr) return;
    wanting->lock.state = LockState::kRequested;
    outstanding_ = true;
    const Request r{static_cast<std::uint16_t>(node.self()), wanting->multicast, wanting->lock.heads, wanting->row->id};
    // The coordinator's own request needs no message (and may be granted at once).
    const Status s = node.self() == kLockCoordinator
                         ? request(node, r)
                         : post(node, {MessageKind::kLockRequest, kLockCoordinator, r, wanting->lock.channel});
    if (s != Status::kOk) return;
  }
}

Status ReplicationLock::receive(NodeContext& node, const Received& m) {
  const std::uint32_t self = node.self();
  switch (m.info.kind) {
    case MessageKind::kLockRequest:
      if (self != kLockCoordinator || m.info.origin != m.head.src || m.info.lock_count == 0) {
        return Status::kBadMessage;
      }
      return request(
          node, {static_cast<std::uint16_t>(m.info.origin), m.info.multicast, m.info.lock_count, m.info.algorithm});
    case MessageKind::kLockGrant:
      if (m.head.src != kLockCoordinator || m.info.origin != self) return Status::kBadMessage;
      return granted(m.info.multicast);
    case MessageKind::kLockDone:
      if (self != kLockCoordinator) return Status::kBadMessage;
      return acknowledge(node, m.info.origin, m.info.multicast);
    case MessageKind::kMulticast:
      break;
  }
  return Status::kBadMessage;
}

Status ReplicationLock::absorbed(NodeContext& node, std::uint32_t origin, std::uint16_t multicast,
                                 Algorithm algorithm) {
  if (node.config.skip_replication_lock) return Status::kOk;
  if (node.self() == kLockCoordinator) return acknowledge(node, origin, multicast);
  const Request named{static_cast<std::uint16_t>(origin), multicast, 0, algorithm};
  return post(node, {MessageKind::kLockDone, kLockCoordinator, named, static_cast<std::uint8_t>(kLockChannel)});
}

Status ReplicationLock::request(NodeContext& node, const Request& r) {
  if (queue_size_ == kMaxLockQueue) return Status::kBadMessage;  // more waiting sources than the queue holds
  queue_[(queue_head_ + queue_size_) % kMaxLockQueue] = r;
  ++queue_size_;
  return held_ ? Status::kOk : grant_next(node);
}

Status ReplicationLock::acknowledge(NodeContext& node, std::uint32_t origin, std::uint16_t multicast) {
  if (!held_ || holder_.node != origin || holder_.multicast != multicast) return Status::kBadMessage;
  if (++acknowledged_ < holder_.heads) return Status::kOk;
  held_ = false;
  return grant_next(node);
}

Status ReplicationLock::grant_next(NodeContext& node) {
  if (queue_size_ == 0) return Status::kOk;
  holder_ = queue_[queue_head_];
  queue_head_ = (queue_head_ + 1) % kMaxLockQueue;
  --queue_size_;
  held_ = true;
  acknowledged_ = 0;
  if (holder_.node == node.self()) return granted(holder_.multicast);
  return post(node, {MessageKind::kLockGrant, holder_.node, holder_, static_cast<std::uint8_t>(kLockChannel)});
}

Status ReplicationLock::granted(std::uint16_t multicast) {
  for (std::size_t i = 0; i < job_count_; ++i) {
    Job& job = jobs_[i];
    if (job.active && job.lock.state == LockState::kRequested && job.multicast == multicast) {
      job.lock.state = LockState::kGranted;
      outstanding_ = false;
      return Status::kOk;
    }
  }
  return Status::kBadMessage;
}

}  // namespace wormcast::fw
