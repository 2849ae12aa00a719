// SPDX-License-Identifier: Apache-2.0
// Dimension-order routing (XY, XYZ): correct the lowest dimension that differs first, along the
// shorter way round on a torus (the + direction on a tie).
//
// Tori need two VC classes per channel to break the ring cycles. We use a stateless dateline rule
// so that the router needs nothing but the head flit: class 0 while the wraparound link of the
// current dimension still lies ahead (the wrap hop itself included), class 1 once it does not.
// Class-0 channels of a ring then only lead toward its wrap link, after which the worm is in
// class 1, and class-1 channels never take the wrap: neither class closes the ring.
#include <fmt/format.h>

#include "model/errors.hpp"
#include "model/routing.hpp"

namespace wormcast::model {

DimensionOrderRouting::DimensionOrderRouting(const Topology& topology, TorusClasses torus_classes)
    : RoutingFunction(topology), torus_classes_(torus_classes) {
  if (topology.is_star()) {
    throw UnsupportedError(fmt::format(
        "dimension-order routing is not defined on {}; it supports 2D/3D meshes and tori", topology.spec()));
  }
}

std::string DimensionOrderRouting::name() const {
  return torus_classes_ == TorusClasses::kDateline ? "dimension-order" : "dimension-order-single-vc";
}

int DimensionOrderRouting::vc_class_count() const {
  return topology().is_torus() && torus_classes_ == TorusClasses::kDateline ? 2 : 1;
}

std::vector<VcClass> DimensionOrderRouting::entry_classes() const {
  return vc_class_count() == 2 ? std::vector<VcClass>{0, 1} : std::vector<VcClass>{0};
}

std::optional<RouteStep> DimensionOrderRouting::try_route(NodeId current, VcClass in, NodeId destination) const {
  if (in < 0 || in >= vc_class_count()) return std::nullopt;
  const Topology& t = topology();
  const Coord here = t.coord(current);
  const Coord there = t.coord(destination);
  for (int d = 0; d < t.dimensions(); ++d) {
    const int c = here[static_cast<std::size_t>(d)];
    const int target = there[static_cast<std::size_t>(d)];
    if (c == target) continue;
    if (t.is_mesh()) return RouteStep{port_of(d, target < c), 0};
    const int k = t.size(d);
    const int forward = (target - c + k) % k;
    const bool negative = forward > k - forward;
    const bool wrap_ahead = negative ? target > c : target < c;
    const VcClass vc = vc_class_count() == 2 && !wrap_ahead ? 1 : 0;
    return RouteStep{port_of(d, negative), vc};
  }
  return RouteStep{};
}

}  // namespace wormcast::model
