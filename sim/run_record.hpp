// SPDX-License-Identifier: Apache-2.0
// What a multicast run did, as the network interfaces and the link monitor saw it
// (sim/network_monitor.hpp): the record the scoreboard (sim/scoreboard.hpp) checks.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "firmware/message.hpp"
#include "model/routing.hpp"
#include "model/topology.hpp"

namespace wormcast::sim {

// One copy of a worm that left the network at a node: a multidestination worm leaves one at each
// destination (intermediate reception), a unicast one at its receiver.
struct EjectedCopy {
  model::NodeId node = model::kNoNode;
  long head_cycle = -1;
  long tail_cycle = -1;  // -1: the node has not taken the whole copy in
};

// One worm as the network interfaces and the link monitor saw it.
struct ObservedWorm {
  int multicast = 0;  // -1 for a replication-lock message (it belongs to no multicast's plan)
  model::NodeId sender = model::kNoNode;
  model::NodeId addressed = model::kNoNode;   // the node its head names
  model::NodeId ejected_at = model::kNoNode;  // where it left the network for good (kNoNode: never)
  std::vector<EjectedCopy> copies;            // every copy ejected, in order (the last at ejected_at)
  model::NodeId route_end = model::kNoNode;   // a source route's last node, decoded from its header
  int step = 0;                               // claimed: the step field of its payload
  // From causality, never from the payload (docs/firmware.md, "Scoreboard"): 1 + the largest
  // derived step of the worms of its multicast the sender's firmware had received before it sent
  // this one (0 at the source), or of the sender's previous worm of the multicast on this channel.
  int derived_step = 0;
  // Its head and injection channel make the routers replicate it onto network channels (PCP's
  // spine): the replication lock's invariant is asserted on these (docs/rtl.md).
  bool replicates = false;
  // A message of the replication lock (docs/firmware.md, "The replication lock"): its kind, the
  // multicast and holder it names, and a request's acknowledgements to expect. kMulticast for a
  // multicast's worm.
  fw::MessageKind lock_kind = fw::MessageKind::kMulticast;
  int lock_multicast = -1;
  model::NodeId lock_holder = model::kNoNode;
  int lock_count = 0;
  int channel = 0;                    // injection channel at the sender
  std::uint32_t sequence = 0;         // the sender firmware's sequence number
  std::vector<model::RouteHop> hops;  // network links its head crossed, with the head's class
  std::vector<long> hop_cycles;
  int route_drop = -1;  // index into RunRecord::route_drops when a router drained it
  long inject_cycle = -1;
  long eject_cycle = -1;  // tail ejected
};

struct Delivery {
  int multicast = 0;
  model::NodeId node = model::kNoNode;
  long cycle = 0;
  bool payload_ok = false;
};

// The replication lock's invariant broken: a replicating worm's head entered the network while a
// head of another multicast's replicating worm was still in it (docs/rtl.md, "The mechanism
// chosen: the replication lock"). The run goes on, so what follows (a deadlock) is seen too.
struct LockViolation {
  int multicast = -1;  // the worm that entered
  int other = -1;      // the multicast whose replicating head was in the network
  long cycle = 0;
  std::string message;
};

// A worm a router drained: its head (or promoted address flit) had no route decision there, so
// the router dropped the worm to its tail and counted it (docs/rtl-modules.md, "Drained worms").
struct RouteDrop {
  model::NodeId router = model::kNoNode;
  int input_port = -1;  // router input port: network ports, then local ones (-1: not known)
  int vc = -1;          // input VC (-1: not known)
  long cycle = -1;      // the cycle whose clock edge found no decision
  int worm = -1;        // index into RunRecord::worms (-1: no followed worm entered there)
};

struct RunRecord {
  std::vector<ObservedWorm> worms;
  std::vector<Delivery> deliveries;
  std::vector<RouteDrop> route_drops;
  std::vector<std::string> errors;        // protocol errors seen during the run (first ones)
  std::vector<LockViolation> violations;  // the replication lock's invariant (first ones)
  long cycles = 0;
  bool stalled = false;
};

}  // namespace wormcast::sim
