// SPDX-License-Identifier: Apache-2.0
#include "model/cpr_broadcast.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <deque>

#include "model/errors.hpp"
#include "model/routing.hpp"

namespace wormcast::model {
namespace {

// PCP's source sets the control field twice before sending, cf := 00 and then cf := 11 (Fig. 2):
// the "2 mu" of eq. (5).
constexpr int kPcpSourceControlFieldChanges = 2;

int coordinate(const Coord& c, int dimension) { return c[static_cast<std::size_t>(dimension)]; }

// The last node of the straight line that leaves `node` on mesh port `port`; `node` itself where
// the port leaves the mesh (an empty direction).
NodeId line_end(const Topology& topology, NodeId node, Port port) {
  Coord c = topology.coord(node);
  const int d = dimension_of(port);
  c[static_cast<std::size_t>(d)] = is_negative(port) ? 0 : topology.size(d) - 1;
  return topology.node_at(c);
}

// A cf = 11 line worm from `sender` to the end of its line on `port`, in class `vc`.
Worm line_worm(const CprLineRouting& routing, NodeId sender, Port port, int step, VcClass vc = 0) {
  Worm worm;
  worm.sender = sender;
  worm.step = step;
  worm.kind = WormKind::kCprLine;
  const NodeId end = line_end(routing.topology(), sender, port);
  worm.header.mode = RoutingMode::kCprLine;
  worm.header.vc = vc;
  worm.header.control_field = kCprReceiveAndPass;
  worm.header.destinations = {end};
  // All-port: one injection channel per direction, numbered like the network port it feeds.
  worm.port = port;
  worm.hops = trace_route(routing, sender, vc, end);
  worm.route = route_nodes(routing, worm.hops, sender);
  worm.keeps_copy = cpr_deliveries(worm.route, worm.header.control_field);
  return worm;
}

// The mesh ports along `dimension` whose line from `node` is not empty, + before -.
std::vector<Port> open_ports(const Topology& topology, NodeId node, int dimension) {
  std::vector<Port> ports;
  for (const bool negative : {false, true}) {
    const Port port = port_of(dimension, negative);
    if (topology.neighbour(node, port) != kNoNode) ports.push_back(port);
  }
  return ports;
}

void require_all_port_mesh(const Request& request, int dimensions) {
  const Topology& t = request.topology;
  if (!t.is_mesh() || t.dimensions() != dimensions) {
    throw UnsupportedError(fmt::format("algorithm {} does not run on {}; it needs a {}D mesh (mesh:XxY{})",
                                       request.algorithm, t.spec(), dimensions, dimensions == 3 ? "xZ" : ""));
  }
  if (request.ports.kind != PortModelKind::kAllPort) {
    throw UnsupportedError(fmt::format("algorithm {} does not run on a {} node; it needs the all-port model",
                                       request.algorithm, request.ports.name()));
  }
}

// validate() has checked that the destinations are distinct nodes other than the source, so a
// broadcast is exactly N - 1 of them.
void require_broadcast(const Request& request) {
  const Topology& t = request.topology;
  const std::size_t others = static_cast<std::size_t>(t.node_count() - 1);
  if (request.destinations.size() != others) {
    throw RequestError(fmt::format(
        "algorithm {} is a broadcast: the destinations must be all {} nodes of {} other than the source {}, not {}",
        request.algorithm, others, t.spec(), t.node_name(request.source), request.destinations.size()));
  }
}

// PCP ([3], Fig. 2): the source's row and column lines, then the spine's +-X lines, all in step 1.
std::vector<Worm> pcp_worms(const Request& request) {
  const Topology& t = request.topology;
  const CprLineRouting routing(t);
  std::vector<Worm> worms;
  for (int d = 0; d < 2; ++d) {
    for (const Port port : open_ports(t, request.source, d))
      worms.push_back(line_worm(routing, request.source, port, 1));
  }
  const int copies = static_cast<int>(worms.size());
  for (Worm& w : worms) {
    w.prepared_copies = copies;
    w.control_field_changes = kPcpSourceControlFieldChanges;
  }
  // The spine A^{Sx,+-y} (the source column, as [3]'s Fig. 2 pseudo-code says): every router
  // a Y worm reaches replicates it into +-X worms with cf = 11.
  const std::size_t source_worms = worms.size();
  for (std::size_t parent = 0; parent < source_worms; ++parent) {
    if (dimension_of(worms[parent].hops.front().port) != 1) continue;
    const std::vector<NodeId> spine(worms[parent].route.begin() + 1, worms[parent].route.end());
    for (const NodeId node : spine) {
      for (const Port port : open_ports(t, node, 0)) {
        Worm spawned = line_worm(routing, node, port, 1, CprLineRouting::spawned_branch_class(port));
        spawned.spawned_from = parent;
        worms.push_back(std::move(spawned));
      }
    }
  }
  return worms;
}

// 3-DBS (reading R1): lines in step order. A node reached by a line along dimension d (the source:
// d = -1) re-injects +-lines along every higher dimension in the next step.
std::vector<Worm> three_dbs_worms(const Request& request) {
  const Topology& t = request.topology;
  const CprLineRouting routing(t);
  struct LineStart {
    NodeId node;
    int after_dimension;
    int step;
  };
  std::vector<Worm> worms;
  std::deque<LineStart> starts = {{request.source, -1, 1}};
  while (!starts.empty()) {
    const LineStart start = starts.front();
    starts.pop_front();
    for (int d = start.after_dimension + 1; d < t.dimensions(); ++d) {
      for (const Port port : open_ports(t, start.node, d)) {
        worms.push_back(line_worm(routing, start.node, port, start.step));
        for (const NodeId node : worms.back().keeps_copy) starts.push_back({node, d, start.step + 1});
      }
    }
  }
  return worms;
}

}  // namespace

std::vector<std::string> cpr_broadcast_names() { return {kPcpAlgorithm, kThreeDbsAlgorithm}; }

CprRouterAction cpr_router_action(std::uint8_t control_field, bool addressed) {
  if (control_field >= (1u << kControlFieldBits)) {
    throw RoutingError(fmt::format("CPR control field {} does not fit in {} bits; valid values are 0..3", control_field,
                                   kControlFieldBits));
  }
  if (addressed) return {true, false};
  switch (control_field) {
    case kCprReceiveAndStop:
      return {true, false};
    case kCprReceiveAndPass:
      return {true, true};
    default:  // 00 (unicast transit) and 10
      return {false, true};
  }
}

std::vector<NodeId> cpr_deliveries(const std::vector<NodeId>& route, std::uint8_t control_field) {
  std::vector<NodeId> delivered;
  for (std::size_t i = 1; i < route.size(); ++i) {
    const CprRouterAction action = cpr_router_action(control_field, i + 1 == route.size());
    if (action.deliver) delivered.push_back(route[i]);
    if (!action.pass) break;
  }
  return delivered;
}

PcpReach pcp_reach(const Topology& topology, NodeId source) {
  topology.check_node(source);
  const Coord s = topology.coord(source);
  const auto reach = [&](int d) { return std::max(topology.size(d) - 1 - coordinate(s, d), coordinate(s, d)); };
  return {reach(0), reach(1)};
}

double pcp_latency_eq5(const Topology& topology, NodeId source, int length_flits, const LatencyParameters& latency,
                       int copies) {
  const PcpReach r = pcp_reach(topology, source);
  const LatencyParameters& p = latency;
  return p.beta * (r.d_x + r.d_y) + p.beta * length_flits + copies * p.alpha + kPcpSourceControlFieldChanges * p.mu +
         p.gamma;
}

ThreeDbsPartition three_dbs_partition(const Topology& topology, NodeId source) {
  if (!topology.is_mesh() || topology.dimensions() != 3) {
    throw UnsupportedError(
        fmt::format("the 3-DBS partition is defined on 3D meshes (mesh:XxYxZ), not on {}", topology.spec()));
  }
  topology.check_node(source);
  const Coord s = topology.coord(source);
  ThreeDbsPartition part;
  for (NodeId node = 0; node < topology.node_count(); ++node) {
    if (node == source) continue;
    const Coord c = topology.coord(node);
    if (c[0] > s[0]) {
      part.d_xr.push_back(node);
    } else if (c[0] < s[0]) {
      part.d_xl.push_back(node);
    } else {
      part.d_xs.push_back(node);
      if (c[1] > s[1]) {
        part.d_yu.push_back(node);
      } else if (c[1] < s[1]) {
        part.d_yl.push_back(node);
      } else if (c[2] > s[2]) {
        part.d_zu.push_back(node);
      } else {
        part.d_zl.push_back(node);
      }
    }
  }
  // Node ids grow with z slowest, so sort by the key coordinate and keep ties (z) ascending.
  const auto by = [&](int d, bool ascending) {
    return [&topology, d, ascending](NodeId a, NodeId b) {
      const int ca = coordinate(topology.coord(a), d);
      const int cb = coordinate(topology.coord(b), d);
      return ascending ? ca < cb : ca > cb;
    };
  };
  std::stable_sort(part.d_zu.begin(), part.d_zu.end(), by(2, true));
  std::stable_sort(part.d_zl.begin(), part.d_zl.end(), by(2, false));
  std::stable_sort(part.d_yu.begin(), part.d_yu.end(), by(1, true));
  std::stable_sort(part.d_yl.begin(), part.d_yl.end(), by(1, false));
  return part;
}

Plan plan_cpr_broadcast(const Request& request) {
  validate(request);
  const std::string& name = request.algorithm;
  std::vector<Worm> worms;
  if (name == kPcpAlgorithm) {
    require_all_port_mesh(request, 2);
    require_broadcast(request);
    worms = pcp_worms(request);
  } else if (name == kThreeDbsAlgorithm) {
    require_all_port_mesh(request, 3);
    require_broadcast(request);
    worms = three_dbs_worms(request);
  } else {
    throw SpecError(
        fmt::format("algorithm '{}' is not a CPR broadcast; valid: {}", name, fmt::join(cpr_broadcast_names(), ", ")));
  }
  Plan plan{request, std::move(worms), {}};
  plan.metrics = compute_metrics(request, plan.worms);
  return plan;
}

bool replicates_in_routers(const Plan& plan) {
  return std::any_of(plan.worms.begin(), plan.worms.end(), [](const Worm& w) { return w.spawned_from.has_value(); });
}

bool concurrent_broadcasts_may_deadlock(const std::vector<Plan>& plans) {
  return plans.size() >= 2 && std::any_of(plans.begin(), plans.end(), replicates_in_routers);
}

}  // namespace wormcast::model
