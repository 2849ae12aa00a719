// SPDX-License-Identifier: Apache-2.0
// One multicast a node serves, as source or relay: the control fields every message of it
// carries, its data, this step's sends, and the state of its algorithm's family (one member of
// JobState, chosen by the algorithm's row in firmware/algorithm_table.hpp).
#pragma once

#include <cstdint>

#include "firmware/broadcast_baselines.hpp"
#include "firmware/cpr_broadcast.hpp"
#include "firmware/fixed_vector.hpp"
#include "firmware/fw_config.hpp"
#include "firmware/message.hpp"
#include "firmware/node_context.hpp"
#include "firmware/path_multicast.hpp"
#include "firmware/replication_lock.hpp"
#include "firmware/tree_multicast.hpp"
#include "firmware/unicast_multicast.hpp"
#include "firmware/xy_path.hpp"

namespace wormcast::fw {

struct AlgorithmRow;

// The family states are trivially copyable, so assigning one (job.state.path = {}) makes it the
// union's active member. Which one is live follows from the job's row.
union JobState {
  constexpr JobState() : chain{} {}
  ChainJob chain;  // unicast, one-port, two-port, d-port
  TreeJob tree;    // vh, diag, dds, min
  PathJob path;    // lin, dual-path, multi-path, uniform, fixed, 3dbl
  XyPathJob xy;    // xy-path, xy-path-x-first
  CprJob cpr;      // pcp, 3dbs
  RdJob rd;        // rd
  EdnJob edn;      // edn
  NpdJob npd;      // np-d
};

struct Job {
  const AlgorithmRow* row = nullptr;  // the algorithm: its id goes on the wire, its handlers run the job
  bool active = false;
  // Active with nothing to send until a message of its multicast arrives (an np-d job missing a
  // sub-message); the row's receive clears it and the pump goes on.
  bool waiting = false;
  std::uint8_t ports = 1;
  bool all_port = false;
  std::uint16_t multicast = 0;
  std::uint32_t origin = 0;
  std::uint32_t step = 1;  // step of the current sends
  // The message's data: the application's words at the source (MulticastRequest::data, which
  // stays valid until the multicast is done), the job's relay buffer at a relay.
  const std::uint64_t* data = nullptr;
  std::uint32_t words = 0;
  std::uint8_t slot = 0;     // index of this job at its node: its relay buffer (NodeContext::relay_data)
  std::uint32_t sends = 0;   // this step's sends (the row's iterate handler's count)
  std::uint32_t issued = 0;  // of them, queued at the NI
  JobLock lock;              // its worms the routers replicate wait for the replication lock
  JobState state;
};

// A relay's job for `m`: the sender's control fields, the step after the message's, and the data
// copied into the job's relay buffer (the NI's receive buffer is gone once the receive returns).
// (Relays of unicast-based, tree, rd and CPR messages send all_port = 0, as they always have:
// receivers read the bit nowhere; callers clear it.)
inline void begin_relay(NodeContext& node, Job& job, const Received& m) {
  job.ports = m.info.ports;
  job.all_port = m.info.all_port;
  job.multicast = m.info.multicast;
  job.origin = m.info.origin;
  job.step = m.info.step + 1u;
  std::uint64_t* copy = node.relay_data[job.slot];
  for (std::uint32_t i = 0; i < m.info.data_words; ++i) copy[i] = m.data[i];
  job.data = copy;
  job.words = m.info.data_words;
}

}  // namespace wormcast::fw
