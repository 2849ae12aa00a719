// SPDX-License-Identifier: Apache-2.0
// Straight-line routing of CPR worms ([3], Figs. 1-2; [4]'s 3-DBS lines, Section 3.2): a
// worm travels along the one dimension in which it differs from its destination and never turns.
// The control field decides what routers on the line do with it; that is router behaviour, not
// routing. Each line direction is monotone, so one VC class is deadlock-free.
#include <fmt/format.h>

#include "model/errors.hpp"
#include "model/routing.hpp"

namespace wormcast::model {

CprLineRouting::CprLineRouting(const Topology& topology) : RoutingFunction(topology) {
  if (!topology.is_mesh()) {
    throw UnsupportedError(
        fmt::format("cpr-line routing is not defined on {}; it supports 2D and 3D meshes", topology.spec()));
  }
}

std::optional<RouteStep> CprLineRouting::try_route(NodeId current, VcClass in, NodeId destination) const {
  if (in >= vc_class_count()) return std::nullopt;
  const Coord here = topology().coord(current);
  const Coord there = topology().coord(destination);
  std::optional<RouteStep> step = RouteStep{};
  int differing = 0;
  for (int d = 0; d < topology().dimensions(); ++d) {
    const int c = here[static_cast<std::size_t>(d)];
    const int target = there[static_cast<std::size_t>(d)];
    if (c == target) continue;
    ++differing;
    step = RouteStep{port_of(d, target < c), in};
  }
  if (differing > 1) return std::nullopt;
  return step;
}

}  // namespace wormcast::model
