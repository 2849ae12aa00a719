// SPDX-License-Identifier: Apache-2.0
// The single entry point of the model's planners: plan(request) dispatches request.algorithm to
// the family planner that implements it, and algorithms() describes every algorithm for the
// command line and the docs.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "model/plan.hpp"
#include "model/routing_family.hpp"
#include "model/topology.hpp"

namespace wormcast::model {

// How many address entries (two per payload word) each of an algorithm's worms carries for the
// nodes it serves beyond its route (model/wire_length.hpp).
enum class AddressEntries {
  kNone,          // every destination is in the header
  kUnicastChain,  // the unicast-based chains: the rest of the chain the receiver forwards to
  kTreeSubtree,   // the trees: every node of the receiver's subtree
  kColumnLayers,  // 3-DBL's column worms: the destinations of the layers beyond the sender's
};

// Which pairs of nodes an algorithm's dimension-order worms join: what the whole-design deadlock
// check adds for it (model/design_deadlock.cpp).
enum class DimensionOrderWorms {
  kNone,       // it sends none
  kAnyPair,    // between any two nodes (edn's and np-d's XY worms)
  kAlongLine,  // along one row or column (rd)
  kOneHop,     // to a neighbour (the trees): nothing is held while the one channel is requested
};

// One algorithm, described once: the planner, the wire lengths, the VC-class plan and the command
// line read it from here (docs/algorithms.md, "Adding an algorithm").
struct AlgorithmInfo {
  std::string name;         // Request::algorithm
  std::string family;       // the planner family and its seed
  std::string topologies;   // where it runs, in words
  std::string port_models;  // which port models it accepts, in words
  // A broadcast: the destinations must be every node except the source.
  bool broadcast = false;
  std::string summary;  // one line: what it does
  // The port model a request gets when it names none (the CLI's --ports default): the one the
  // algorithm is defined for, or for "any", the one that shows it best (path-based worms at once).
  PortModel default_ports = PortModel::one_port();
  // The routing families its worms use (docs/firmware.md, "HW/SW split"): the VC-class plan's
  // input.
  std::vector<RoutingFamily> routing_families;
  // The topologies the firmware's `check` handler accepts, port counts aside (the model may not
  // include the firmware: verif/model/vc_class_plan_firmware_test.cpp keeps the two equal).
  bool (*firmware_runs_on)(const Topology&) = nullptr;
  AddressEntries address_entries = AddressEntries::kNone;
  DimensionOrderWorms dimension_order_worms = DimensionOrderWorms::kNone;
  // It injects on one channel whatever the port model (rd).
  bool one_injection_channel = false;
  // Its worms take the firmware's replication lock (pcp's spines), whose queue bounds how many may
  // run at once.
  bool takes_replication_lock = false;
};

// Every registered algorithm, in registry order.
std::vector<AlgorithmInfo> algorithms();
std::vector<std::string> algorithm_names();
// Throws SpecError listing the valid names if `name` is not registered.
const AlgorithmInfo& algorithm_info(std::string_view name);

// The plan of `request` by its algorithm's family planner. Throws SpecError for an unknown
// algorithm (listing the valid names) and whatever the family planner throws (validate(),
// UnsupportedError, RequestError).
Plan plan(const Request& request);

}  // namespace wormcast::model
