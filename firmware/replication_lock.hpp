// SPDX-License-Identifier: Apache-2.0
// The replication lock (docs/firmware.md, "The replication lock"; why it makes concurrent PCP
// broadcasts deadlock-free: docs/rtl.md, "The mechanism chosen: the replication lock"). Worms the
// routers replicate onto network channels (PCP's spines) go only while their source holds the
// lock; a coordinator node grants it in request order, one holder at a time, and takes it back
// when every head of the holder's replicating worms has been absorbed and acknowledged. No node
// needs more than what it sends and receives. Event driven, no heap: the coordinator's queue
// holds kMaxLockQueue requests (fw_config.hpp), one per PCP source waiting at once (a node has at
// most one request outstanding); the harness refuses a run in which more nodes start PCP broadcasts.
#pragma once

#include <cstddef>
#include <cstdint>

#include "firmware/fixed_vector.hpp"
#include "firmware/fw_config.hpp"
#include "firmware/message.hpp"
#include "firmware/network.hpp"
#include "firmware/noc_wire_format.hpp"
#include "firmware/node_types.hpp"

namespace wormcast::fw {

struct Job;
struct NodeContext;
struct Received;

// The node that holds the lock's queue: node 0 exists on every network (docs/firmware.md).
inline constexpr std::uint32_t kLockCoordinator = 0;
// The injection channel of grants and acknowledgements (every node has channel 0). A request
// leaves on the channel of the worm it asks for, which waits for the grant anyway.
inline constexpr unsigned kLockChannel = 0;

// The routers replicate this worm of `sender` onto network channels (docs/rtl.md, "CPR control
// field", its PCP spine): a cf = 11 CPR line worm on a 2D mesh whose line runs along Y enters every
// router after the sender on a Y input, and each of them spawns a branch into every X port it has.
bool replicates_onto_network(const Grid& g, std::uint32_t sender, const wire::HeadFields& head);
// The heads that worm ends in, each absorbed by one node: the line's end, plus one branch per
// open X port of every router it reaches after the sender (0 for a worm that does not replicate).
std::uint32_t replicated_heads(const Grid& g, std::uint32_t sender, const wire::HeadFields& head);
// This node absorbs a head of a replicating worm with the copy it received: a cf = 11 CPR line copy
// of a line along Y (the payload's line dimension; a spawned branch carries its spine's payload)
// whose head names this node (the spine's end, or a branch's row end: the router rewrote its head).
bool absorbs_replicated_head(const Grid& g, std::uint32_t self, const wire::HeadFields& head, const MessageInfo& info);

// Where a job stands with the lock (Job::lock).
enum class LockState : std::uint8_t {
  kNone,       // its worms do not replicate onto network channels
  kWanted,     // it has replicating worms to send; no request sent yet
  kRequested,  // its request is on the way or queued at the coordinator
  kGranted,    // it sends its replicating worms
};

struct JobLock {
  LockState state = LockState::kNone;
  std::uint16_t heads = 0;   // acknowledgements the coordinator waits for (replicated_heads, summed)
  std::uint8_t channel = 0;  // the request's injection channel
};

class ReplicationLock {
 public:
  // The node's job slots (the grant marks one of them).
  void bind(Job* jobs, std::size_t count);
  // Sends what waits: queued lock messages, then a request for a job that wants the lock if
  // none of this node's requests is outstanding. The firmware's pump calls it first.
  void pump(NodeContext& node);
  // A lock message arrived (m.info.kind is not kMulticast).
  Status receive(NodeContext& node, const Received& m);
  // This node absorbed a head of a replicating worm of `origin`'s multicast: acknowledge it.
  Status absorbed(NodeContext& node, std::uint32_t origin, std::uint16_t multicast, Algorithm algorithm);

 private:
  struct Request {
    std::uint16_t node = 0;
    std::uint16_t multicast = 0;
    std::uint16_t heads = 0;
    Algorithm algorithm = Algorithm::kUnicast;
  };
  struct Outgoing {
    MessageKind kind = MessageKind::kMulticast;
    std::uint32_t to = 0;
    Request request;  // the holder and multicast it names
    std::uint8_t channel = 0;
  };
  // Coordinator side.
  Status request(NodeContext& node, const Request& r);
  Status acknowledge(NodeContext& node, std::uint32_t origin, std::uint16_t multicast);
  Status grant_next(NodeContext& node);
  // Holder side: the coordinator granted its request for `multicast`.
  Status granted(std::uint16_t multicast);
  Status post(NodeContext& node, const Outgoing& message);
  void flush(NodeContext& node);

  Job* jobs_ = nullptr;
  std::size_t job_count_ = 0;
  bool outstanding_ = false;  // this node's request waits for its grant
  // A node has at most one request, one acknowledgement and (the coordinator) one grant waiting
  // for its send queues at a time (docs/firmware.md).
  FixedVector<Outgoing, 4> outbox_;
  // Coordinator: the holder, its acknowledgements so far, the requests waiting in arrival order.
  bool held_ = false;
  Request holder_;
  std::uint16_t acknowledged_ = 0;
  Request queue_[kMaxLockQueue]{};
  std::uint32_t queue_head_ = 0, queue_size_ = 0;
};

}  // namespace wormcast::fw
