// SPDX-License-Identifier: Apache-2.0
// The command line around the commands: parse, run the chosen one, map every failure to the one
// exit-code convention (sim/commands/command.hpp) with a `wormcast:` line on stderr. main() runs it
// with every command; the command-line fuzzer (verif/fuzz/) with those that run no simulation.
#pragma once

#include <vector>

#include "sim/commands/command.hpp"

namespace wormcast::sim::commands {

// The exit codes, as `wormcast --help` lists them in its footer.
extern const char* const kExitCodesHelp;

// Parses `argc`/`argv` with `app`, on which `registered` are the subcommands, and runs the parsed
// one. Returns the exit code: 0, 1 (a check failed) or 2 (bad input); help returns 0. Every
// exception a command throws is mapped here; none escapes.
int run_command_line(CLI::App& app, const std::vector<Command>& registered, int argc, const char* const* argv);

}  // namespace wormcast::sim::commands
