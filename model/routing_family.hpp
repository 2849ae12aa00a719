// SPDX-License-Identifier: Apache-2.0
// The routing families the firmware's worms use: what an algorithm's descriptor lists
// (model/planner.hpp) and what the VC-class plan assigns VCs to (model/vc_class_plan.hpp).
#pragma once

namespace wormcast::model {

enum class RoutingFamily {
  kHamiltonianPath,   // mode 0: unicast-based chains, lin, dual-path, multi-path, 3dbl
  kHamiltonianCycle,  // mode 1: uniform, fixed
  kDimensionOrder,    // mode 2: rd, edn's XY worms, the trees' one-hop worms
  kCprLine,           // mode 3: pcp's and 3dbs's line worms
  kPcpBranch,         // the +-X branches a PCP spine router spawns (no sender writes them)
  kXyPathRoute,       // mode 4: xy-path's partition paths (both variants)
  kEdnYxLeg,          // mode 4: edn's YX worms
  kMultiPathPrefix,   // mode 4: multi-path's one-hop prefix in front of a Hamiltonian-path head
};

}  // namespace wormcast::model
