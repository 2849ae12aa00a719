// SPDX-License-Identifier: Apache-2.0
// The single entry point of the model's planners: plan(request) dispatches request.algorithm to
// the family planner that implements it, and algorithms() describes every algorithm for the
// command line and the docs.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "model/plan.hpp"

namespace wormcast::model {

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
