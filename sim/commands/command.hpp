// SPDX-License-Identifier: Apache-2.0
// One subcommand of the wormcast command line. Each command file declares its own options on its
// subcommand and returns the function that runs it; main() registers them all, parses, runs the
// chosen one and maps every failure to the exit code (sim/wormcast_main.cpp, README.md):
//   0  success
//   1  a check failed: a run or comparison did not match the plan, a routing function has a
//      dependency cycle, a traffic sweep point misdelivered, stalled or fired an RTL assertion
//   2  the command could not run: any bad input (options, values, files it cannot read or write)
//      or a missing tool (the plot script, python3-matplotlib)
#pragma once

#include <CLI/CLI.hpp>
#include <filesystem>
#include <functional>
#include <stdexcept>

namespace wormcast::sim::commands {

enum class ExitCode { kSuccess = 0, kCheckFailed = 1, kBadInput = 2 };

// Input a command cannot use that is not the model's to judge (a file it cannot write, a missing
// tool): exit 2 with the message, like the model's errors.
class CommandError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Command {
  CLI::App* app = nullptr;
  // Runs the command once its options are parsed; throws on bad input.
  std::function<ExitCode()> run;
};

// The commands, in the order `wormcast --help` lists them.
Command add_labeling(CLI::App& app);
Command add_route(CLI::App& app);
Command add_deadlock(CLI::App& app);
Command add_demo(CLI::App& app);
Command add_algorithms(CLI::App& app);
Command add_plan(CLI::App& app);
Command add_run(CLI::App& app);
Command add_compare(CLI::App& app);
Command add_showcase(CLI::App& app);
Command add_sweep(CLI::App& app);
Command add_merge(CLI::App& app);
Command add_rank(CLI::App& app);

// The traffic sweep's plot script, found from the running binary (<bindir>/../share/wormcast/, the
// layout of `cmake --install` and of the build tree); throws CommandError when it is missing.
std::filesystem::path plot_script();
// Draws the traffic sweep's plots of `csv_file` into `out` with `script`; throws CommandError when
// the script fails.
void draw_plots(const std::filesystem::path& script, const std::string& csv_file, const std::string& out);

}  // namespace wormcast::sim::commands
