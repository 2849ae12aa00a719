// SPDX-License-Identifier: Apache-2.0
// The network and the worms' paths as an SVG picture (`wormcast run --svg`, `wormcast plan --svg`),
// drawn like the papers' figures: one arrow per link a worm's head crossed, one colour per worm, the
// source and the destinations marked, a legend. Plain SVG text; pure functions.
//
// Layouts: a 2D mesh or torus is a grid (+X to the right, +Y up; a torus wraparound leaves one
// edge and comes back in at the other); a 3D mesh or torus draws its z layers side by side, a Z hop
// as an arc from one layer to the next; a star graph puts its nodes on a circle in the order of its
// Hamiltonian cycle labeling.
#pragma once

#include <string>
#include <vector>

#include "model/plan.hpp"

namespace wormcast::sim {

struct DrawnWorm {
  std::string label;  // the legend's text for this worm
  std::vector<model::RouteHop> hops;
};

struct NetworkDrawing {
  model::Topology topology;
  std::string title;
  model::NodeId source = model::kNoNode;
  std::vector<model::NodeId> destinations;
  std::vector<DrawnWorm> worms;
};

// The plan's worms with their planned routes.
NetworkDrawing drawing_of_plan(const model::Plan& plan);

// The SVG document. Throws model::RequestError naming the worm, the hop and the topology when a hop
// is not a link of the network, and model::NodeError for a source or destination outside it.
std::string render_svg(const NetworkDrawing& drawing);

// Writes render_svg(drawing) to `path`; throws model::RequestError naming the path if it cannot.
void write_svg(const std::string& path, const NetworkDrawing& drawing);

}  // namespace wormcast::sim
