// SPDX-License-Identifier: Apache-2.0
#include "model/path_multicast.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string_view>
#include <utility>

#include "model/errors.hpp"
#include "model/routing.hpp"

namespace wormcast::model {
namespace {

std::vector<NodeId> sorted_by_label(const HamiltonianLabeling& labeling, std::vector<NodeId> nodes) {
  std::sort(nodes.begin(), nodes.end(), [&](NodeId a, NodeId b) { return labeling.label(a) < labeling.label(b); });
  return nodes;
}

// phi of [2], Section 3.2: the destinations in cyclic label order, starting just after the source.
std::vector<NodeId> cyclic_order_after(const HamiltonianLabeling& labeling, NodeId source,
                                       const std::vector<NodeId>& destinations) {
  std::vector<NodeId> phi = sorted_by_label(labeling, destinations);
  const int own = labeling.label(source);
  std::stable_partition(phi.begin(), phi.end(), [&](NodeId d) { return labeling.label(d) > own; });
  return phi;
}

// ---------------------------------------------------------------------------------------------
// Building one worm from its header list.

// Throws std::logic_error (a planner bug) unless a worm that reached `arrival` may go on over
// `next` in class `start`: one channel network for Hamiltonian-path worms, one class (no second
// boundary crossing) for Hamiltonian-cycle worms.
void check_continuation(const RoutingFunction& routing, const std::vector<RouteHop>& hops, VcClass start,
                        const RouteHop& next) {
  if (hops.empty()) return;
  if (!routing.continues_after_delivery(hops.back(), start, next)) {
    const Topology& t = routing.topology();
    throw std::logic_error(fmt::format("{} worm cannot go on from {} over port {} of {}", routing.name(),
                                       t.node_name(hops.back().node), t.port_name(next.port), t.node_name(next.node)));
  }
}

// A multidestination worm from `sender` through `destinations` in order, each leg traced by
// `routing` from the class the previous leg arrived in (`start` for the first). With
// `first_port` set, the worm is injected straight into that channel of the sender and routed by
// `routing` from the next router on (multi-path's row worms).
Worm path_worm(const RoutingFunction& routing, NodeId sender, const std::vector<NodeId>& destinations, VcClass start,
               Port first_port = kNoPort) {
  const Topology& t = routing.topology();
  Worm worm;
  worm.sender = sender;
  worm.kind = WormKind::kMultidestinationPath;
  worm.header.vc = start;
  worm.header.destinations = destinations;
  worm.keeps_copy = destinations;
  NodeId here = sender;
  VcClass cls = start;
  if (first_port != kNoPort) {
    if (t.neighbour(sender, first_port) == kNoNode) {
      throw std::logic_error(
          fmt::format("port {} of {} has no neighbour", t.port_name(first_port), t.node_name(sender)));
    }
    worm.hops.push_back(RouteHop{sender, first_port, start});
    here = t.neighbour(sender, first_port);
  }
  for (NodeId destination : destinations) {
    const std::vector<RouteHop> leg = trace_route(routing, here, cls, destination);
    if (!leg.empty()) {
      check_continuation(routing, worm.hops, cls, leg.front());
      cls = leg.back().vc;
      worm.hops.insert(worm.hops.end(), leg.begin(), leg.end());
    }
    here = destination;
  }
  worm.route = route_nodes(routing, worm.hops, sender);
  return worm;
}

Worm hamiltonian_path_worm(const HamiltonianPathRouting& routing, NodeId sender,
                           const std::vector<NodeId>& destinations, Port first_port = kNoPort) {
  // The worm's class is its channel network (high 0, low 1: docs/rtl.md "VC-class plan"), the
  // network its labels move in toward the first destination; a prefix hop travels in it too.
  const HamiltonianLabeling& labeling = routing.labeling();
  const bool high = labeling.label(destinations.front()) > labeling.label(sender);
  Worm worm = path_worm(routing, sender, destinations, high ? 0 : 1, first_port);
  worm.header.mode = RoutingMode::kHamiltonianPath;
  const RouteHop& first = worm.hops.front();  // destinations exclude the sender: at least one hop
  worm.header.subnetwork = labeling.network(first.node, first.port);
  return worm;
}

Worm hamiltonian_cycle_worm(const HamiltonianCycleRouting& routing, NodeId sender,
                            const std::vector<NodeId>& destinations, VcClass start) {
  Worm worm = path_worm(routing, sender, destinations, start);
  worm.header.mode = RoutingMode::kHamiltonianCycle;
  worm.header.subnetwork = HamiltonianCycleRouting::is_high(start) ? ChannelNetwork::kHigh : ChannelNetwork::kLow;
  return worm;
}

// The worms of a dual-path list pair, high first; an empty list sends no worm.
std::vector<Worm> dual_path_worms(const HamiltonianPathRouting& routing, NodeId sender, const DualPathLists& lists) {
  std::vector<Worm> worms;
  if (!lists.high.empty()) worms.push_back(hamiltonian_path_worm(routing, sender, lists.high));
  if (!lists.low.empty()) worms.push_back(hamiltonian_path_worm(routing, sender, lists.low));
  return worms;
}

// ---------------------------------------------------------------------------------------------
// Ports and steps.

// Places the worms one holder sends (in its sending order) on its injection channels, from
// `first_step` on:
//   all-port:  one injection channel per network direction, so every worm leaves at once on the
//              channel of its first hop (port = that network port);
//   even d (two-port, d-port): as in seed 000, ports 0..d/2-1 inject into the low network and
//              d/2..d-1 into the high one; a worm takes the next port of its network, and the k-th
//              worm of a network goes in step first_step + k / (d/2);
//   odd d (one-port, odd d-port): ports in turn, the k-th worm in step first_step + k / d.
void place_on_ports(std::vector<Worm>& worms, int first_step, const Request& request) {
  const int ports = request.ports.injection_ports(request.topology);
  const bool all_port = request.ports.kind == PortModelKind::kAllPort;
  const bool bound = !all_port && ports % 2 == 0;
  const int per_network = std::max(1, ports / 2);
  std::map<ChannelNetwork, int> sent_in;
  int sent = 0;
  for (Worm& worm : worms) {
    if (all_port) {
      worm.step = first_step;
      worm.port = worm.hops.front().port;
    } else if (bound) {
      const ChannelNetwork network = worm.header.subnetwork.value_or(ChannelNetwork::kHigh);
      const int k = sent_in[network]++;
      worm.step = first_step + k / per_network;
      worm.port = (network == ChannelNetwork::kLow ? 0 : per_network) + k % per_network;
      worm.port_network = network;
    } else {
      worm.step = first_step + sent / ports;
      worm.port = sent % ports;
      ++sent;
    }
  }
}

void append(std::vector<Worm>& to, std::vector<Worm> worms) {
  to.insert(to.end(), std::make_move_iterator(worms.begin()), std::make_move_iterator(worms.end()));
}

// ---------------------------------------------------------------------------------------------
// The algorithms.

std::vector<Worm> plan_dual_path(const Request& request) {
  const HamiltonianPathRouting routing(request.topology);
  std::vector<Worm> worms = dual_path_worms(
      routing, request.source, lin_ni_dual_path_lists(routing.labeling(), request.source, request.destinations));
  place_on_ports(worms, 1, request);
  return worms;
}

// Multi-path (our reading, docs/algorithms.md "Multi-path"). The source has up to two outgoing
// channels per network: the row channel to its label neighbour (label +- 1) along its row, and the
// column channel (+Y high, -Y low). Each of D_H and D_L is split by the source's column: the row
// part holds the destinations on the row channel's side of the source (x beyond x0 in the direction
// that channel points), the column part the others, including the source's own column. The column
// worm is routed by R from the source and leaves on the column channel; the row worm is injected
// into the row channel (R would take most of them up the column channel too) and routed by R from
// there.
std::vector<Worm> plan_multi_path(const Request& request) {
  const Topology& t = request.topology;
  const HamiltonianPathRouting routing(t);
  const HamiltonianLabeling& labeling = routing.labeling();
  const NodeId s = request.source;
  const Coord at = t.coord(s);
  // The row snake runs +X in even rows: there the high row channel is +X and the low one -X.
  const int high_direction = at[1] % 2 == 0 ? +1 : -1;
  const DualPathLists lists = lin_ni_dual_path_lists(labeling, s, request.destinations);

  std::vector<Worm> worms;
  const auto split = [&](const std::vector<NodeId>& side, int row_direction) {
    std::vector<NodeId> row_part;
    std::vector<NodeId> column_part;
    for (NodeId d : side) {
      ((t.coord(d)[0] - at[0]) * row_direction > 0 ? row_part : column_part).push_back(d);
    }
    if (!row_part.empty()) {
      worms.push_back(hamiltonian_path_worm(routing, s, row_part, port_of(0, row_direction < 0)));
    }
    if (!column_part.empty()) worms.push_back(hamiltonian_path_worm(routing, s, column_part));
  };
  split(lists.high, high_direction);
  split(lists.low, -high_direction);
  place_on_ports(worms, 1, request);
  return worms;
}

// The cycle-routed worms of a list pair: high from class ph, low from pl; an empty list sends no worm.
std::vector<Worm> plan_cycle_worms(const Request& request, const HamiltonianCycleRouting& routing,
                                   const DualPathLists& lists) {
  std::vector<Worm> worms;
  if (!lists.high.empty()) {
    worms.push_back(hamiltonian_cycle_worm(routing, request.source, lists.high, HamiltonianCycleRouting::kPHigh));
  }
  if (!lists.low.empty()) {
    worms.push_back(hamiltonian_cycle_worm(routing, request.source, lists.low, HamiltonianCycleRouting::kPLow));
  }
  place_on_ports(worms, 1, request);
  return worms;
}

std::vector<Worm> plan_cycle_dual_path(const Request& request, bool uniform) {
  const HamiltonianCycleRouting routing(request.topology);
  const HamiltonianLabeling& labeling = routing.labeling();
  return plan_cycle_worms(request, routing,
                          uniform ? uniform_dual_path_lists(labeling, request.source, request.destinations)
                                  : fixed_dual_path_lists(labeling, request.source, request.destinations));
}

// HP dual-path (docs/algorithms.md "HP dual-path"): Lin-Ni's lists on the Hamiltonian path
// 0..N-1 of the star graph's cycle labeling. The high list rises from the source and every leg
// ends above where it starts, so the cycle routing's case (1) routes each leg over common channels
// only (the path successor always qualifies and outranks a boundary channel, which falls): the
// worms stay in class ph / pl, exactly Lin-Ni's routing on the path with the boundary links unused.
std::vector<Worm> plan_hp_dual_path(const Request& request) {
  const HamiltonianCycleRouting routing(request.topology);
  return plan_cycle_worms(request, routing,
                          lin_ni_dual_path_lists(routing.labeling(), request.source, request.destinations));
}

// Moves the header's nodes that are not destinations from worm.keeps_copy to worm.relays; both stay
// in route order.
void move_relays(Worm& worm, const std::vector<bool>& is_destination) {
  const auto relays_from = std::stable_partition(worm.keeps_copy.begin(), worm.keeps_copy.end(),
                                                 [&](NodeId n) { return is_destination[static_cast<std::size_t>(n)]; });
  worm.relays.assign(relays_from, worm.keeps_copy.end());
  worm.keeps_copy.erase(relays_from, worm.keeps_copy.end());
}

// 3-DBL ([4], Section 3.1, reading R1; docs/algorithms.md "3-DBL"). The layer source of layer z is
// (x0, y0, z). The source sends a +Z and a -Z column worm through the layer sources it needs
// (intermediate reception) and runs dual-path in its own layer; each layer source then runs
// dual-path in its layer. Routes use R on the 3D layer snake: inside a layer it takes exactly the
// 2D snake's route (see docs). For a multicast (the paper broadcasts) a layer source that is not a
// destination but whose layer holds destinations still takes the message in, as a relay
// (Worm::relays), so that it can start its layer's worms; the column worm's header lists it like a
// destination.
std::vector<Worm> plan_three_dbl(const Request& request) {
  const Topology& t = request.topology;
  const HamiltonianPathRouting routing(t);
  const HamiltonianLabeling& labeling = routing.labeling();
  const NodeId s = request.source;
  const Coord origin = t.coord(s);
  const auto layer_source = [&](int z) { return t.node_at(Coord{origin[0], origin[1], z}); };

  std::vector<std::vector<NodeId>> in_layer(static_cast<std::size_t>(t.size(2)));
  std::vector<bool> is_destination(static_cast<std::size_t>(t.node_count()), false);
  for (NodeId d : request.destinations) {
    is_destination[static_cast<std::size_t>(d)] = true;
    if (d != layer_source(t.coord(d)[2])) in_layer[static_cast<std::size_t>(t.coord(d)[2])].push_back(d);
  }
  const auto needed = [&](int z) {
    return is_destination[static_cast<std::size_t>(layer_source(z))] || !in_layer[static_cast<std::size_t>(z)].empty();
  };
  std::vector<NodeId> up;
  std::vector<NodeId> down;
  for (int z = origin[2] + 1; z < t.size(2); ++z) {
    if (needed(z)) up.push_back(layer_source(z));
  }
  for (int z = origin[2] - 1; z >= 0; --z) {
    if (needed(z)) down.push_back(layer_source(z));
  }

  // The source: column worms first, so that the layer sources start as early as possible when
  // the source has to serialise its worms.
  std::vector<Worm> at_source;
  if (!up.empty()) at_source.push_back(hamiltonian_path_worm(routing, s, up));
  if (!down.empty()) at_source.push_back(hamiltonian_path_worm(routing, s, down));
  append(
      at_source,
      dual_path_worms(routing, s, lin_ni_dual_path_lists(labeling, s, in_layer[static_cast<std::size_t>(origin[2])])));
  place_on_ports(at_source, 1, request);
  const std::size_t column_worms = (up.empty() ? 0 : 1) + (down.empty() ? 0 : 1);
  for (std::size_t i = 0; i < column_worms; ++i) move_relays(at_source[i], is_destination);

  std::vector<Worm> worms = at_source;
  for (std::size_t i = 0; i < column_worms; ++i) {
    const Worm& column = at_source[i];
    for (NodeId layer_holder : column.header.destinations) {  // its deliveries and relays
      const std::vector<NodeId>& layer = in_layer[static_cast<std::size_t>(t.coord(layer_holder)[2])];
      std::vector<Worm> layer_worms =
          dual_path_worms(routing, layer_holder, lin_ni_dual_path_lists(labeling, layer_holder, layer));
      place_on_ports(layer_worms, column.step + 1, request);
      append(worms, std::move(layer_worms));
    }
  }
  return worms;
}

// ---------------------------------------------------------------------------------------------
// Checks of the request against the algorithm.

[[noreturn]] void unsupported_topology(const Request& request, std::string_view supported) {
  throw UnsupportedError(fmt::format("algorithm {} does not run on {}; it supports {}", request.algorithm,
                                     request.topology.spec(), supported));
}

void check_topology(const Request& request) {
  const Topology& t = request.topology;
  const std::string& name = request.algorithm;
  if (name == kLinAlgorithm || name == kDualPathAlgorithm) {
    if (t.is_star()) unsupported_topology(request, "2D and 3D meshes, and tori with the wraparound links unused");
  } else if (name == kMultiPathAlgorithm) {
    if (t.is_star() || t.dimensions() != 2) {
      unsupported_topology(request, "2D meshes, and 2D tori with the wraparound links unused");
    }
    if (request.ports.kind != PortModelKind::kAllPort) {
      throw UnsupportedError(
          fmt::format("algorithm {} does not run on a {} node; it needs the all-port model (its row worms are injected "
                      "straight into the row channel, one injection channel per direction)",
                      name, request.ports.name()));
    }
  } else if (name == kUniformDualPathAlgorithm || name == kFixedDualPathAlgorithm) {
    const bool even_row_torus = t.is_torus() && t.dimensions() == 2 && t.size(1) % 2 == 0;
    if (!t.is_star() && !even_row_torus) {
      unsupported_topology(request, "2D tori with an even row count (e.g. torus:4x4) and star graphs");
    }
  } else if (name == kHpDualPathAlgorithm) {
    if (!t.is_star()) unsupported_topology(request, "star graphs (e.g. star:5); on meshes and tori use dual-path");
  } else if (name == kThreeDblAlgorithm) {
    if (t.is_star() || t.dimensions() != 3) {
      unsupported_topology(request, "3D meshes, and 3D tori with the wraparound links unused");
    }
  } else {
    throw SpecError(fmt::format("algorithm '{}' is not a path-based multicast; valid: {}", name,
                                fmt::join(path_multicast_names(), ", ")));
  }
}

}  // namespace

std::vector<std::string> path_multicast_names() {
  return {kLinAlgorithm,           kDualPathAlgorithm,   kMultiPathAlgorithm, kUniformDualPathAlgorithm,
          kFixedDualPathAlgorithm, kHpDualPathAlgorithm, kThreeDblAlgorithm};
}

DualPathLists lin_ni_dual_path_lists(const HamiltonianLabeling& labeling, NodeId source,
                                     const std::vector<NodeId>& destinations) {
  const int own = labeling.label(source);
  DualPathLists lists;
  for (NodeId d : sorted_by_label(labeling, destinations)) {
    (labeling.label(d) > own ? lists.high : lists.low).push_back(d);
  }
  std::reverse(lists.low.begin(), lists.low.end());
  return lists;
}

DualPathLists uniform_dual_path_lists(const HamiltonianLabeling& labeling, NodeId source,
                                      const std::vector<NodeId>& destinations) {
  const std::vector<NodeId> phi = cyclic_order_after(labeling, source, destinations);
  const auto half = static_cast<std::ptrdiff_t>((phi.size() + 1) / 2);
  return DualPathLists{{phi.begin(), phi.begin() + half}, {phi.rbegin(), phi.rend() - half}};
}

DualPathLists fixed_dual_path_lists(const HamiltonianLabeling& labeling, NodeId source,
                                    const std::vector<NodeId>& destinations) {
  const int own = labeling.label(source);
  const int c = (labeling.size() + 1) / 2;
  DualPathLists lists;
  std::vector<NodeId> rest;
  for (NodeId d : cyclic_order_after(labeling, source, destinations)) {
    const int l = labeling.label(d);
    if (own < c) {
      (own < l && l < own + c ? lists.high : rest).push_back(d);
    } else {
      (own - c < l && l < own ? lists.low : rest).push_back(d);
    }
  }
  if (own < c) {
    lists.low.assign(rest.rbegin(), rest.rend());
  } else {
    std::reverse(lists.low.begin(), lists.low.end());
    lists.high = rest;
  }
  return lists;
}

Plan plan_path_multicast(const Request& request) {
  validate(request);
  check_topology(request);
  const std::string& name = request.algorithm;
  Plan plan{request, {}, {}};
  if (name == kLinAlgorithm || name == kDualPathAlgorithm) {
    plan.worms = plan_dual_path(request);
  } else if (name == kMultiPathAlgorithm) {
    plan.worms = plan_multi_path(request);
  } else if (name == kUniformDualPathAlgorithm || name == kFixedDualPathAlgorithm) {
    plan.worms = plan_cycle_dual_path(request, name == kUniformDualPathAlgorithm);
  } else if (name == kHpDualPathAlgorithm) {
    plan.worms = plan_hp_dual_path(request);
  } else {
    plan.worms = plan_three_dbl(request);
  }
  std::stable_sort(plan.worms.begin(), plan.worms.end(), [](const Worm& a, const Worm& b) { return a.step < b.step; });
  plan.metrics = compute_metrics(request, plan.worms);
  return plan;
}

}  // namespace wormcast::model
