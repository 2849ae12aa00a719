// SPDX-License-Identifier: Apache-2.0
// wormcast algorithms: the planner registry: each algorithm's family, topologies and port models,
// and the port model plan, run and compare use when --ports is not given.
#include <fmt/format.h>

#include "model/planner.hpp"
#include "sim/commands/command.hpp"
#include "sim/commands/common.hpp"

namespace wormcast::sim::commands {

Command add_algorithms(CLI::App& app) {
  auto json = std::make_shared<bool>(false);
  CLI::App* command = app.add_subcommand(
      "algorithms", "List the planners' algorithms, their topologies, port models and default port model");
  command->add_flag("--json", *json,
                    "print [{name, family, topologies, port_models, default_ports, broadcast, summary}] as JSON");
  return {command, [json] {
            nlohmann::json list = nlohmann::json::array();
            for (const model::AlgorithmInfo& info : model::algorithms()) {
              const std::string ports = info.default_ports.name();
              if (*json) {
                list.push_back({{"name", info.name},
                                {"family", info.family},
                                {"topologies", info.topologies},
                                {"port_models", info.port_models},
                                {"default_ports", ports},
                                {"broadcast", info.broadcast},
                                {"summary", info.summary}});
              } else {
                fmt::print("{:<10} {}{}\n           family: {}; topologies: {}; ports: {} (default {})\n", info.name,
                           info.summary, info.broadcast ? " [broadcast: --dests all]" : "", info.family,
                           info.topologies, info.port_models, ports);
              }
            }
            if (*json) print_json(list);
            return ExitCode::kSuccess;
          }};
}

}  // namespace wormcast::sim::commands
