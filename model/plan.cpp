#include "model/plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "model/errors.hpp"

namespace wormcast::model {
namespace {

void check_member(const Topology& topology, NodeId node, std::string_view role) {
  if (node < 0 || node >= topology.node_count()) {
    throw NodeError(fmt::format("{} (node id {}) is outside {}; valid ids are 0..{}", role, node, topology.spec(),
                                topology.node_count() - 1));
  }
}

// Links from the sender of worm `index`'s parent (Worm::spawned_from) to the router that spawns it.
// Throws std::logic_error unless the parent is an earlier worm of the same step (`departed`) whose
// route passes that router.
int hops_to_spawning_router(const Topology& topology, const std::vector<Worm>& worms, std::size_t index,
                            const std::vector<bool>& departed) {
  const Worm& w = worms[index];
  const std::size_t parent = *w.spawned_from;
  if (parent >= worms.size() || !departed[parent] || worms[parent].step != w.step) {
    throw std::logic_error(fmt::format(
        "worm {} of step {} is spawned off worm {}, which is not an earlier worm of that step", index, w.step, parent));
  }
  const std::vector<NodeId>& route = worms[parent].route;
  const auto at = route.empty() ? route.end() : std::find(route.begin() + 1, route.end(), w.sender);
  if (at == route.end()) {
    throw std::logic_error(fmt::format("worm {} is spawned at {}, which worm {} does not pass", index,
                                       topology.node_name(w.sender), parent));
  }
  return static_cast<int>(at - route.begin());
}

}  // namespace

int PortModel::injection_ports(const Topology& topology) const {
  switch (kind) {
    case PortModelKind::kOnePort:
      return 1;
    case PortModelKind::kTwoPort:
      return 2;
    case PortModelKind::kAllPort:
      return topology.port_count();
    case PortModelKind::kDPort:
      return count;
  }
  return count;
}

std::string PortModel::name() const {
  return kind == PortModelKind::kDPort ? fmt::format("{}-port", count) : std::string(to_string(kind));
}

const char* to_string(PortModelKind kind) {
  switch (kind) {
    case PortModelKind::kOnePort:
      return "one-port";
    case PortModelKind::kTwoPort:
      return "two-port";
    case PortModelKind::kAllPort:
      return "all-port";
    case PortModelKind::kDPort:
      return "d-port";
  }
  return "?";
}

const char* to_string(WormKind kind) {
  switch (kind) {
    case WormKind::kUnicast:
      return "unicast";
    case WormKind::kMultidestinationPath:
      return "multidestination path";
    case WormKind::kCprLine:
      return "CPR line";
    case WormKind::kStoreAndForwardHop:
      return "store-and-forward hop";
  }
  return "?";
}

const char* to_string(RoutingMode mode) {
  switch (mode) {
    case RoutingMode::kHamiltonianPath:
      return "hamiltonian-path";
    case RoutingMode::kHamiltonianCycle:
      return "hamiltonian-cycle";
    case RoutingMode::kDimensionOrder:
      return "dimension-order";
    case RoutingMode::kCprLine:
      return "cpr-line";
    case RoutingMode::kSourceRouted:
      return "source-routed";
  }
  return "?";
}

void validate(const Request& request) {
  const Topology& t = request.topology;
  check_member(t, request.source, "source");
  if (request.destinations.empty()) {
    throw RequestError(fmt::format("the destination set is empty; give 1..{} destinations other than the source {}",
                                   t.node_count() - 1, t.node_name(request.source)));
  }
  std::set<NodeId> seen;
  for (std::size_t i = 0; i < request.destinations.size(); ++i) {
    const NodeId d = request.destinations[i];
    check_member(t, d, fmt::format("destination #{}", i + 1));
    if (d == request.source) {
      throw RequestError(fmt::format("destination #{} ({}) is the source; destinations must be other nodes of {}",
                                     i + 1, t.node_name(d), t.spec()));
    }
    if (!seen.insert(d).second) {
      throw RequestError(fmt::format("destination #{} ({}) is listed twice; each destination must appear once", i + 1,
                                     t.node_name(d)));
    }
  }
  if (request.length_flits < 1) {
    throw RequestError(
        fmt::format("message length {} flits is too short; L must be at least 1 flit", request.length_flits));
  }
  if (request.ports.kind == PortModelKind::kDPort && request.ports.count < 1) {
    throw RequestError(fmt::format("a {}-port node has no injection port; d must be at least 1", request.ports.count));
  }
}

Request make_request(Topology topology, std::string algorithm, NodeId source, std::vector<NodeId> destinations,
                     int length_flits, PortModel ports, LatencyParameters latency) {
  Request request{
      std::move(topology), std::move(algorithm), source, std::move(destinations), length_flits, ports, latency};
  validate(request);
  return request;
}

PlanMetrics compute_metrics(const Request& request, const std::vector<Worm>& worms) {
  const Topology& t = request.topology;
  const LatencyParameters& p = request.latency;
  const double length = request.length_flits;
  PlanMetrics metrics;

  // Worms in step order (stable, so the plan's order breaks ties); senders hold the message from
  // their first arrival.
  std::vector<std::size_t> order(worms.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return worms[a].step < worms[b].step; });

  struct Holding {
    double time = 0.0;
    int step = 0;
    int path_hops = 0;
  };
  std::map<NodeId, Holding> holds = {{request.source, Holding{}}};
  std::map<std::pair<NodeId, int>, double> port_free;
  // Per worm: when its header leaves the sender, and the links its copy crossed before the sender.
  std::vector<Holding> departs(worms.size());
  std::vector<bool> departed(worms.size(), false);
  for (std::size_t index : order) {
    const Worm& w = worms[index];
    Holding depart;
    if (w.spawned_from) {  // router replication: no processor, no start-up, no injection port
      const int hops = hops_to_spawning_router(t, worms, index, departed);
      depart = departs[*w.spawned_from];
      depart.time += hops * p.router_delay;
      depart.path_hops += hops;
    } else {
      const auto sender = holds.find(w.sender);
      if (sender == holds.end() || sender->second.step >= w.step) {
        throw std::logic_error(
            fmt::format("worm {} of step {} leaves {}, which does not hold the message before that step", index, w.step,
                        t.node_name(w.sender)));
      }
      double& free_at = port_free[{w.sender, w.port}];
      const double start = std::max(sender->second.time, free_at);
      const double startup = w.prepared_copies * p.alpha + w.control_field_changes * p.mu;
      free_at = start + startup + length * p.beta;
      depart = Holding{start + startup, w.step, sender->second.path_hops};
    }
    departs[index] = depart;
    departed[index] = true;
    for (NodeId node : w.keeps_copy) {
      const auto at = std::find(w.route.begin(), w.route.end(), node);
      const int hops = static_cast<int>(at - w.route.begin());
      const double arrival = depart.time + hops * p.router_delay + length * p.beta + p.gamma;
      holds.try_emplace(node, Holding{arrival, w.step, depart.path_hops + hops});
    }
  }

  for (const Worm& w : worms) {
    metrics.steps = std::max(metrics.steps, w.step);
    metrics.traffic += static_cast<int>(w.hops.size());
  }
  metrics.additional_traffic = metrics.traffic - static_cast<int>(request.destinations.size());
  for (NodeId d : request.destinations) {
    const auto held = holds.find(d);
    if (held == holds.end()) {
      throw std::logic_error(fmt::format("no worm delivers to destination {}", t.node_name(d)));
    }
    metrics.destinations.push_back(DestinationMetrics{d, held->second.step, t.distance(request.source, d),
                                                      held->second.path_hops, held->second.time});
    metrics.latency = std::max(metrics.latency, held->second.time);
  }

  // Channel sharing: every pair of worms on every directed physical channel they both use.
  std::map<std::pair<NodeId, Port>, std::vector<std::size_t>> users;
  for (std::size_t i = 0; i < worms.size(); ++i) {
    std::set<std::pair<NodeId, Port>> own;
    for (const RouteHop& hop : worms[i].hops) {
      if (own.insert({hop.node, hop.port}).second) users[{hop.node, hop.port}].push_back(i);
    }
  }
  metrics.distinct_channels = static_cast<int>(users.size());
  std::set<std::pair<std::size_t, std::size_t>> stepwise;
  std::set<std::pair<std::size_t, std::size_t>> depth;
  for (const auto& [channel, list] : users) {
    for (std::size_t a = 0; a < list.size(); ++a) {
      for (std::size_t b = a + 1; b < list.size(); ++b) {
        const Worm& first = worms[list[a]];
        const Worm& second = worms[list[b]];
        metrics.shared_channels.push_back(SharedChannel{channel.first, channel.second, list[a], list[b]});
        if (first.step == second.step) {
          stepwise.insert({list[a], list[b]});
        } else if (first.sender != second.sender) {
          depth.insert({list[a], list[b]});
        }
      }
    }
  }
  std::sort(metrics.shared_channels.begin(), metrics.shared_channels.end(),
            [](const SharedChannel& a, const SharedChannel& b) {
              return std::tie(a.first_worm, a.second_worm, a.node, a.port) <
                     std::tie(b.first_worm, b.second_worm, b.node, b.port);
            });
  metrics.stepwise_contention = static_cast<int>(stepwise.size());
  metrics.depth_contention = static_cast<int>(depth.size());
  return metrics;
}

}  // namespace wormcast::model
