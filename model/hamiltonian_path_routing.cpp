// SPDX-License-Identifier: Apache-2.0
// R of [1], Definition 2 (reconstructed from Lin, McKinley and Ni):
//   label(u) < label(v): go to the neighbour with the largest label <= label(v)   (high channels)
//   label(u) > label(v): go to the neighbour with the smallest label >= label(v)  (low channels)
// The path neighbour label(u) +- 1 always qualifies, so the choice exists and labels move
// monotonically toward label(v): one VC class suffices (each channel network is acyclic). The
// output class names the network (high 0, low 1) only so that the two networks take different VCs
// where other routing functions share them (docs/rtl.md "VC-class plan").
#include <fmt/format.h>

#include "model/errors.hpp"
#include "model/routing.hpp"

namespace wormcast::model {

HamiltonianPathRouting::HamiltonianPathRouting(const Topology& topology)
    : RoutingFunction(topology), labeling_([&] {
        if (topology.is_star()) {
          throw UnsupportedError(
              fmt::format("hamiltonian-path routing is not defined on {}; it supports 2D/3D "
                          "meshes and tori (wraps unused); star graphs use hamiltonian-cycle",
                          topology.spec()));
        }
        return HamiltonianLabeling::path(topology);
      }()) {}

std::optional<RouteStep> HamiltonianPathRouting::try_route(NodeId current, VcClass in, NodeId destination) const {
  if (in != kHigh && in != kLow) return std::nullopt;
  if (current == destination) return RouteStep{};
  const int here = labeling_.label(current);
  const int target = labeling_.label(destination);
  const bool rising = here < target;
  Port best_port = kNoPort;
  int best_label = 0;
  for (Port p = 0; p < topology().port_count(); ++p) {
    if (!labeling_.uses_link(current, p)) continue;
    const int l = labeling_.label(topology().neighbour(current, p));
    const bool qualifies = rising ? (l > here && l <= target) : (l < here && l >= target);
    const bool better = best_port == kNoPort || (rising ? l > best_label : l < best_label);
    if (qualifies && better) {
      best_port = p;
      best_label = l;
    }
  }
  if (best_port == kNoPort) return std::nullopt;
  return RouteStep{best_port, rising ? kHigh : kLow};
}

bool HamiltonianPathRouting::continues_after_delivery(const RouteHop& arrival, VcClass /*start*/,
                                                      const RouteHop& first_hop) const {
  return labeling_.network(arrival.node, arrival.port) == labeling_.network(first_hop.node, first_hop.port);
}

}  // namespace wormcast::model
