// SPDX-License-Identifier: Apache-2.0
// wormcast deadlock: a routing function's channel dependency graph, and the cycle if it has one
// (exit 1: the deadlock-freedom check failed).
#include <fmt/format.h>

#include <memory>

#include "model/channel_dependency_graph.hpp"
#include "model/routing.hpp"
#include "sim/commands/command.hpp"
#include "sim/commands/common.hpp"
#include "sim/network_views.hpp"

namespace wormcast::sim::commands {
namespace {

// {"routing", "topology", "acyclic", "vc_classes", "cycle": [{"node", "port", "vc"}, ...]} (the
// cycle's channels in dependency order, empty when acyclic).
nlohmann::json deadlock_to_json(const model::RoutingFunction& routing,
                                const std::optional<std::vector<model::VirtualChannel>>& cycle) {
  const model::Topology& t = routing.topology();
  nlohmann::json channels = nlohmann::json::array();
  for (const model::VirtualChannel& c : cycle.value_or(std::vector<model::VirtualChannel>{})) {
    channels.push_back({{"node", t.node_name(c.node)}, {"port", t.port_name(c.port)}, {"vc", c.vc}});
  }
  return {{"routing", routing.name()},
          {"topology", t.spec()},
          {"acyclic", !cycle.has_value()},
          {"vc_classes", routing.vc_class_count()},
          {"cycle", channels}};
}

}  // namespace

Command add_deadlock(CLI::App& app) {
  struct Options {
    std::string topology;
    std::string routing;
    bool json = false;
  };
  auto o = std::make_shared<Options>();
  CLI::App* command = app.add_subcommand(
      "deadlock", "Build the channel dependency graph and look for a cycle (exit 1 when there is one)");
  command->add_option("-t,--topology", o->topology, "topology spec")->required();
  command->add_option("-r,--routing", o->routing, fmt::format("{}", fmt::join(model::routing_function_names(), ", ")))
      ->required();
  command->add_flag("--json", o->json, "print {routing, topology, acyclic, vc_classes, cycle} as JSON");
  return {command, [o] {
            const auto routing = model::make_routing_function(o->routing, model::Topology::parse(o->topology));
            const auto cycle = model::ChannelDependencyGraph::build(*routing).find_cycle();
            if (o->json) {
              print_json(deadlock_to_json(*routing, cycle));
            } else {
              fmt::print("{}\n", render_deadlock_check(*routing));
            }
            return cycle ? ExitCode::kCheckFailed : ExitCode::kSuccess;
          }};
}

}  // namespace wormcast::sim::commands
