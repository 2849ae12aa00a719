// SPDX-License-Identifier: Apache-2.0
// The software of one node: the source side and the relay side of every multicast
// (docs/firmware.md). An event-driven state machine: the harness (or a real node's interrupt
// handlers) calls on_start_multicast, on_message_received and on_channel_free; each call advances
// the node's multicasts as far as the NI's send queues allow and returns. What each algorithm does
// is its row's handlers (firmware/algorithm_table.hpp); this class holds the jobs and runs them.
// No heap, no exceptions: every buffer is sized by fw_config.hpp and every error is a Status.
#pragma once

#include <cstdint>

#include "firmware/fw_config.hpp"
#include "firmware/job.hpp"
#include "firmware/message.hpp"
#include "firmware/network_interface.hpp"
#include "firmware/noc_wire_format.hpp"
#include "firmware/node_context.hpp"
#include "firmware/node_types.hpp"

namespace wormcast::fw {

class NodeFirmware {
 public:
  Status init(const NodeConfig& config, NetworkInterface* ni);
  // kNoFreeJob: every job slot is busy and nothing was started; the application submits the
  // request again once has_free_job() (docs/firmware.md, "The job limit").
  Status on_start_multicast(const MulticastRequest& request);
  // kNoFreeJob: the message needs a job to send on and every slot is busy; nothing was done (no
  // delivery either), and the NI keeps the message and presents it again once has_free_job().
  Status on_message_received(const wire::HeadFields& head, const std::uint64_t* payload, std::uint32_t words);
  // A send queue has room again: retry the sends that waited for it.
  void on_channel_free();
  // No multicast is in progress: none has sends left to issue or waits for a message.
  bool idle() const;
  // A job slot is free: a multicast or a message refused with kNoFreeJob would be taken now.
  bool has_free_job() const;

 private:
  Job* free_job();
  // Runs a job just set up: its first step's sends, then every job as far as the queues allow.
  void launch(Job& job);
  void pump();
  // Fills the job's sends of step job.step; false when it has nothing to send now (done, or waiting
  // for a message: job.waiting).
  bool next_iteration(Job& job);

  NodeContext node_{};
  Job jobs_[kMaxJobs]{};
};

}  // namespace wormcast::fw
