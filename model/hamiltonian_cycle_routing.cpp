// SPDX-License-Identifier: Apache-2.0
// R(u, alpha, v) of [2], Section 3.1. A worm stays in the channel network of its class:
//   high: among high-network neighbours with label <= label(v) take the largest label; if there
//         is none (label(u) > label(v), cases 2-3) take the largest label overall, which is the
//         cycle successor. Low: the mirror image.
// beta: a p-class worm that takes a boundary channel continues in q; a q-class worm never takes a
// boundary channel again (that state has no decision), which is what makes the resource order
// "p channels by label < boundary q channels < q channels by label" strict and the function
// deadlock-free.
#include <fmt/format.h>

#include "model/errors.hpp"
#include "model/routing.hpp"

namespace wormcast::model {

HamiltonianCycleRouting::HamiltonianCycleRouting(const Topology& topology)
    : RoutingFunction(topology), labeling_([&] {
        if (!topology.is_star() && !(topology.is_torus() && topology.dimensions() == 2)) {
          throw UnsupportedError(
              fmt::format("hamiltonian-cycle routing is not defined on {}; it supports 2D tori "
                          "with an even row count and star graphs",
                          topology.spec()));
        }
        return HamiltonianLabeling::cycle(topology);
      }()) {}

std::string HamiltonianCycleRouting::vc_class_name(VcClass vc) const {
  switch (vc) {
    case kPHigh:
      return "ph";
    case kQHigh:
      return "qh";
    case kPLow:
      return "pl";
    case kQLow:
      return "ql";
    default:
      return RoutingFunction::vc_class_name(vc);
  }
}

std::optional<RouteStep> HamiltonianCycleRouting::try_route(NodeId current, VcClass in, NodeId destination) const {
  if (in < 0 || in >= vc_class_count()) return std::nullopt;
  if (current == destination) return RouteStep{};
  const bool high = is_high(in);
  const ChannelNetwork network = high ? ChannelNetwork::kHigh : ChannelNetwork::kLow;
  const int target = labeling_.label(destination);
  // "Toward" means a larger label in the high network and a smaller one in the low network.
  const auto closer = [high](int a, int b) { return high ? a > b : a < b; };
  const auto within = [high, target](int l) { return high ? l <= target : l >= target; };

  Port best_within = kNoPort;
  int best_within_label = 0;
  Port best_any = kNoPort;
  int best_any_label = 0;
  for (Port p = 0; p < topology().port_count(); ++p) {
    if (!labeling_.uses_link(current, p) || labeling_.network(current, p) != network) continue;
    const int l = labeling_.label(topology().neighbour(current, p));
    if (within(l) && (best_within == kNoPort || closer(l, best_within_label))) {
      best_within = p;
      best_within_label = l;
    }
    if (best_any == kNoPort || closer(l, best_any_label)) {
      best_any = p;
      best_any_label = l;
    }
  }
  const Port port = best_within != kNoPort ? best_within : best_any;
  if (port == kNoPort) return std::nullopt;
  const bool boundary = labeling_.link_class(current, port) == LinkClass::kBoundary;
  if (boundary && is_q(in)) return std::nullopt;
  const bool q = is_q(in) || boundary;
  const VcClass out = high ? (q ? kQHigh : kPHigh) : (q ? kQLow : kPLow);
  return RouteStep{port, out};
}

}  // namespace wormcast::model
