// SPDX-License-Identifier: Apache-2.0
#include "sim/commands/command_line.hpp"

#include <fmt/format.h>

#include <exception>
#include <string>

#include "sim/multicast_sweep.hpp"
#include "sim/traffic.hpp"

namespace wormcast::sim::commands {
namespace {

int fail(ExitCode code, const std::string& message) {
  fmt::print(stderr, "wormcast: {}\n", message);
  return static_cast<int>(code);
}

}  // namespace

const char* const kExitCodesHelp =
    "Exit codes: 0 success; 1 a check failed (a run or comparison that does not match the plan, a\n"
    "dependency cycle found by `deadlock`, a traffic sweep point that misdelivers or stalls, a\n"
    "multicast sweep run off its plan or with the RTL and the timing model apart); 2 the\n"
    "command could not run: bad input (an unknown option, a bad value, a file that cannot be read or\n"
    "written) or a missing tool. Every failure prints a line starting with `wormcast:` on stderr.";

int run_command_line(CLI::App& app, const std::vector<Command>& registered, int argc, const char* const* argv) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& help) {
    return app.exit(help);
  } catch (const CLI::CallForAllHelp& help) {
    return app.exit(help);
  } catch (const CLI::ParseError& error) {
    return fail(ExitCode::kBadInput, fmt::format("{}\nRun with --help for the options.", error.what()));
  }
  try {
    for (const Command& command : registered) {
      if (command.app->parsed()) return static_cast<int>(command.run());
    }
    return fail(ExitCode::kBadInput, "no command given; run with --help for the list");
  } catch (const CLI::ParseError& error) {
    // An option rule a command checks once it knows which options go together (run: -a, -s and -d
    // unless --requests): reported as the parser reports its own.
    return fail(ExitCode::kBadInput, fmt::format("{}\nRun with --help for the options.", error.what()));
  } catch (const TrafficError& error) {
    return fail(ExitCode::kCheckFailed, error.what());  // the network misdelivered or stalled: a check
  } catch (const MulticastSweepError& error) {
    return fail(ExitCode::kCheckFailed, error.what());  // a run off its plan, or the backends apart
  } catch (const std::exception& error) {
    return fail(ExitCode::kBadInput, error.what());  // model errors, file-system errors, missing tools
  }
}

}  // namespace wormcast::sim::commands
