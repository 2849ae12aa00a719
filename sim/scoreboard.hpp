// What an RTL run did, and the check of it against the model's plans (docs/firmware.md,
// "Scoreboard"). check_run is a pure function of the plans and the record, so a test can doctor a
// record and prove that each difference fails the check.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "model/plan.hpp"

namespace wormcast::sim {

// One copy of a worm that left the network at a node: a multidestination worm leaves one at each
// destination (intermediate reception), a unicast one at its receiver.
struct EjectedCopy {
  model::NodeId node = model::kNoNode;
  long head_cycle = -1;
  long tail_cycle = -1;  // -1: the node has not taken the whole copy in
};

// One worm as the network interfaces and the link monitor saw it.
struct RtlWorm {
  int multicast = 0;
  model::NodeId sender = model::kNoNode;
  model::NodeId addressed = model::kNoNode;   // the node its head names
  model::NodeId ejected_at = model::kNoNode;  // where it left the network for good (kNoNode: never)
  std::vector<EjectedCopy> copies;            // every copy ejected, in order (the last at ejected_at)
  model::NodeId route_end = model::kNoNode;   // a source route's last node, decoded from its header
  int step = 0;                               // from the payload
  int channel = 0;                            // injection channel at the sender
  std::uint32_t sequence = 0;                 // the sender firmware's sequence number
  std::vector<model::RouteHop> hops;          // network links its head crossed, with the head's class
  std::vector<long> hop_cycles;
  long inject_cycle = -1;
  long eject_cycle = -1;  // tail ejected
};

struct Delivery {
  int multicast = 0;
  model::NodeId node = model::kNoNode;
  long cycle = 0;
  bool payload_ok = false;
};

struct RunRecord {
  std::vector<RtlWorm> worms;
  std::vector<Delivery> deliveries;
  std::vector<std::string> errors;  // protocol errors seen during the run (first ones)
  long cycles = 0;
  bool stalled = false;
};

// "" when the run did exactly what the plans say; otherwise the first difference, naming the
// multicast, node, worm and cycle.
std::string check_run(const std::vector<model::Plan>& plans, const RunRecord& record);

// Delivery cycle of each destination of multicast `multicast` (destinations in request order;
// -1 for one never delivered).
std::vector<long> delivery_cycles(const model::Plan& plan, int multicast, const RunRecord& record);

}  // namespace wormcast::sim
