// SPDX-License-Identifier: Apache-2.0
// wormcast route: the hops of one worm through its destinations in order, by a routing function.
#include <fmt/format.h>

#include <memory>

#include "model/errors.hpp"
#include "model/routing.hpp"
#include "sim/commands/command.hpp"
#include "sim/commands/common.hpp"
#include "sim/network_views.hpp"

namespace wormcast::sim::commands {
namespace {

model::VcClass parse_class(const model::RoutingFunction& routing, const std::string& text) {
  if (text.empty()) return routing.injection_classes().front();
  for (model::VcClass vc = 0; vc < routing.vc_class_count(); ++vc) {
    if (text == routing.vc_class_name(vc) || text == std::to_string(vc)) return vc;
  }
  std::vector<std::string> names;
  for (model::VcClass vc = 0; vc < routing.vc_class_count(); ++vc) names.push_back(routing.vc_class_name(vc));
  throw model::SpecError(
      fmt::format("class '{}' does not exist for {}; valid: {}", text, routing.name(), fmt::join(names, ", ")));
}

// {"topology", "routing", "source", "class", "stops", "hops": [{"from", "port", "vc", "class", "to"}]}:
// the hops render_worm draws, a worm carrying its class across intermediate stops.
nlohmann::json route_to_json(const model::RoutingFunction& routing, model::NodeId source, model::VcClass vc,
                             const std::vector<model::NodeId>& stops) {
  const model::Topology& t = routing.topology();
  nlohmann::json j = {{"topology", t.spec()},
                      {"routing", routing.name()},
                      {"source", t.node_name(source)},
                      {"class", routing.vc_class_name(vc)}};
  nlohmann::json names = nlohmann::json::array();
  nlohmann::json hops = nlohmann::json::array();
  model::NodeId here = source;
  for (const model::NodeId stop : stops) {
    names.push_back(t.node_name(stop));
    for (const model::RouteHop& hop : model::trace_route(routing, here, vc, stop)) {
      hops.push_back({{"from", t.node_name(hop.node)},
                      {"port", t.port_name(hop.port)},
                      {"vc", hop.vc},
                      {"class", routing.vc_class_name(hop.vc)},
                      {"to", t.node_name(t.neighbour(hop.node, hop.port))}});
      vc = hop.vc;
    }
    here = stop;
  }
  j["stops"] = names;
  j["hops"] = hops;
  return j;
}

}  // namespace

Command add_route(CLI::App& app) {
  struct Options {
    std::string topology;
    std::string routing = "hamiltonian-path";
    std::string source;
    std::vector<std::string> stops;
    std::string vc_class;
    bool json = false;
  };
  auto o = std::make_shared<Options>();
  CLI::App* command = app.add_subcommand("route", "Trace a worm through one or more destinations in order");
  command->add_option("-t,--topology", o->topology, "topology spec")->required();
  command->add_option("-r,--routing", o->routing, fmt::format("{}", fmt::join(model::routing_function_names(), ", ")))
      ->capture_default_str();
  command->add_option("-s,--source", o->source, "source node (3,2 / 1,1,1 / 1432)")->required();
  command->add_option("-d,--dests", o->stops, "destinations, visited in order")->required();
  command->add_option("-c,--class", o->vc_class, "VC class to inject in (e.g. ph or pl); default: the first");
  command->add_flag("--json", o->json, "print the route as JSON: its hops with port, VC class and next node");
  return {command, [o] {
            const model::Topology t = model::Topology::parse(o->topology);
            const auto routing = model::make_routing_function(o->routing, t);
            const model::NodeId source = t.parse_node(o->source);
            std::vector<model::NodeId> stops;
            for (const std::string& text : o->stops) stops.push_back(t.parse_node(text));
            const model::VcClass vc = parse_class(*routing, o->vc_class);
            if (o->json) {
              print_json(route_to_json(*routing, source, vc, stops));
            } else {
              fmt::print("{}\n", render_worm(*routing, source, vc, stops));
            }
            return ExitCode::kSuccess;
          }};
}

}  // namespace wormcast::sim::commands
