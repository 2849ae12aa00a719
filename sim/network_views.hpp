// SPDX-License-Identifier: Apache-2.0
// Text views of the model's network layer for the command line: labelings drawn as grids,
// routes as hop lists, deadlock-proof summaries. Pure functions returning strings.
#pragma once

#include <string>
#include <vector>

#include "model/channel_dependency_graph.hpp"
#include "model/labeling.hpp"
#include "model/routing.hpp"

namespace wormcast::sim {

// The labels drawn where the nodes are: one grid per z layer, +Y upward, +X to the right. Star
// graphs are listed as label: permutation, with the boundary links of a cycle labeling.
std::string render_labeling(const model::HamiltonianLabeling& labeling);

// A worm injected at `source` in class `vc` that visits `stops` in order, carrying its class
// across intermediate stops (multidestination worms): `(1,2) -[+Y vc0]-> (1,3) -[+X vc0]-> (2,3)*`,
// each stop marked `*`, then the hop count (and, for one stop, the shortest distance).
std::string render_worm(const model::RoutingFunction& routing, model::NodeId source, model::VcClass vc,
                        const std::vector<model::NodeId>& stops);

// One line: the dependency graph's size and "acyclic: deadlock-free", or the cycle it found.
std::string render_deadlock_check(const model::RoutingFunction& routing);

}  // namespace wormcast::sim
