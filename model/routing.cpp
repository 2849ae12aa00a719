// SPDX-License-Identifier: Apache-2.0
#include "model/routing.hpp"

#include <fmt/format.h>

#include "model/errors.hpp"

namespace wormcast::model {

std::string RoutingFunction::vc_class_name(VcClass vc) const { return "vc" + std::to_string(vc); }

void RoutingFunction::check_vc(VcClass vc) const {
  if (vc < 0 || vc >= vc_class_count()) {
    throw RoutingError(
        fmt::format("VC class {} does not exist for {}; valid classes are 0..{}", vc, name(), vc_class_count() - 1));
  }
}

RouteStep RoutingFunction::route(NodeId current, VcClass in, NodeId destination) const {
  topology_.check_node(current);
  topology_.check_node(destination);
  check_vc(in);
  const std::optional<RouteStep> step = try_route(current, in, destination);
  if (!step) {
    const std::string valid = domain();
    throw RoutingError(fmt::format("{} on {} has no decision for a worm at {} in class {} heading for {}{}{}", name(),
                                   topology_.spec(), topology_.node_name(current), vc_class_name(in),
                                   topology_.node_name(destination), valid.empty() ? "" : "; ", valid));
  }
  return *step;
}

std::vector<RouteHop> trace_route(const RoutingFunction& routing, NodeId source, VcClass vc, NodeId destination) {
  const Topology& t = routing.topology();
  const int hop_limit = t.node_count() * routing.vc_class_count();
  std::vector<RouteHop> hops;
  NodeId here = source;
  VcClass cls = vc;
  while (true) {
    const RouteStep step = routing.route(here, cls, destination);
    if (step.ejects()) {
      if (here != destination) {
        throw RoutingError(fmt::format("{} ejects at {} but the destination is {}", routing.name(), t.node_name(here),
                                       t.node_name(destination)));
      }
      return hops;
    }
    const NodeId next = t.neighbour(here, step.port);
    if (next == kNoNode) {
      throw RoutingError(fmt::format("{} routes out of port {} of {}, which leaves {}", routing.name(),
                                     t.port_name(step.port), t.node_name(here), t.spec()));
    }
    hops.push_back(RouteHop{here, step.port, step.vc});
    if (static_cast<int>(hops.size()) > hop_limit) {
      throw RoutingError(fmt::format("{} on {} does not reach {} from {} within {} hops (livelock)", routing.name(),
                                     t.spec(), t.node_name(destination), t.node_name(source), hop_limit));
    }
    here = next;
    cls = step.vc;
  }
}

std::vector<NodeId> route_nodes(const RoutingFunction& routing, const std::vector<RouteHop>& hops, NodeId source) {
  std::vector<NodeId> nodes = {source};
  for (const RouteHop& hop : hops) nodes.push_back(routing.topology().neighbour(hop.node, hop.port));
  return nodes;
}

std::vector<std::string> routing_function_names() {
  return {"hamiltonian-path", "hamiltonian-cycle", "dimension-order", "dimension-order-single-vc", "cpr-line"};
}

std::unique_ptr<RoutingFunction> make_routing_function(std::string_view name, const Topology& topology) {
  if (name == "hamiltonian-path") return std::make_unique<HamiltonianPathRouting>(topology);
  if (name == "hamiltonian-cycle") return std::make_unique<HamiltonianCycleRouting>(topology);
  if (name == "dimension-order") return std::make_unique<DimensionOrderRouting>(topology);
  if (name == "dimension-order-single-vc") {
    return std::make_unique<DimensionOrderRouting>(topology, DimensionOrderRouting::TorusClasses::kSingleClass);
  }
  if (name == "cpr-line") return std::make_unique<CprLineRouting>(topology);
  throw SpecError(
      fmt::format("routing function '{}' is unknown; valid: {}", name, fmt::join(routing_function_names(), ", ")));
}

std::vector<std::string> routing_functions_for(const Topology& topology) {
  std::vector<std::string> supported;
  for (const std::string& name : routing_function_names()) {
    try {
      make_routing_function(name, topology);
      supported.push_back(name);
    } catch (const UnsupportedError&) {
    } catch (const LabelingError&) {
    }
  }
  return supported;
}

}  // namespace wormcast::model
