// SPDX-License-Identifier: Apache-2.0
// The wormcast command line: registers the commands (sim/commands/, one file each) and runs the
// chosen one (sim/commands/command_line.hpp: the parse and the exit-code convention).
#include <CLI/CLI.hpp>
#include <vector>

#include "sim/commands/command.hpp"
#include "sim/commands/command_line.hpp"

int main(int argc, char** argv) {
  namespace commands = wormcast::sim::commands;
  CLI::App app{"wormcast: multicast and broadcast on wormhole-routed networks"};
  app.require_subcommand(1);
  app.footer(commands::kExitCodesHelp);
  const std::vector<commands::Command> registered = {
      commands::add_labeling(app),   commands::add_route(app), commands::add_deadlock(app), commands::add_demo(app),
      commands::add_algorithms(app), commands::add_plan(app),  commands::add_run(app),      commands::add_compare(app),
      commands::add_showcase(app),   commands::add_sweep(app), commands::add_merge(app),    commands::add_rank(app)};
  return commands::run_command_line(app, registered, argc, argv);
}
