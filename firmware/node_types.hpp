// SPDX-License-Identifier: Apache-2.0
// The values of the node firmware's API (firmware/node_firmware.hpp): what the harness configures,
// what the application asks for, and the status every call answers with.
#pragma once

#include <cstdint>

#include "firmware/message.hpp"
#include "firmware/network.hpp"

namespace wormcast::fw {

enum class Status : std::uint8_t {
  kOk,
  kBadConfig,             // init: node outside the grid, no channel, a size out of range
  kNotInitialized,        // an event before init
  kUnsupportedAlgorithm,  // an algorithm id this firmware does not implement
  kUnsupportedTopology,   // rd or vh on a torus
  kBadPortCount,          // the port count does not suit the algorithm or exceeds the channels
  kBadDestinations,       // none, repeated, outside the grid, the source itself; rd: not a broadcast
  kTooManyDestinations,   // more than kMaxChain - 1 (a list of the source and its destinations)
  kTooMuchData,           // more than kMaxDataWords
  kNoFreeJob,             // every one of the kMaxJobs job slots is busy: nothing done, present it again later
  kBadMessage,            // a payload that does not decode or does not name this node
  kNetworkTooLarge,       // a tree source's network exceeds kMaxGridNodes
};

const char* to_string(Status status);

struct NodeConfig {
  Grid grid;
  std::uint32_t node = 0;  // own id
  // Test-only: send replicating worms without the replication lock (firmware/replication_lock.hpp),
  // to show what the lock prevents. Every node of a run must agree.
  bool skip_replication_lock = false;
};

// What the application asks the source to multicast.
struct MulticastRequest {
  Algorithm algorithm = Algorithm::kUnicast;
  std::uint8_t ports = 1;       // d of the port model
  std::uint16_t multicast = 0;  // id the application chose, carried in every message
  const std::uint32_t* destinations = nullptr;
  std::uint32_t count = 0;
  const std::uint64_t* data = nullptr;
  std::uint32_t words = 0;
  // All-port node: one injection channel per network direction (channel = network port); a
  // path-based worm leaves on the channel of its first hop.
  bool all_port = false;
};

}  // namespace wormcast::fw
