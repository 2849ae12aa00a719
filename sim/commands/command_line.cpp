// SPDX-License-Identifier: Apache-2.0
#include "sim/commands/command_line.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

#include "sim/multicast_sweep.hpp"
#include "sim/traffic.hpp"

namespace wormcast::sim::commands {
namespace {

// `message` with every line longer than 400 characters cut in its middle, where an echoed value
// sits between the words that name it and the list of what is valid.
std::string short_lines(const std::string& message) {
  constexpr std::size_t kLongest = 400, kKept = 190;
  std::string out;
  std::size_t start = 0;
  while (start <= message.size()) {
    const std::size_t end = std::min(message.find('\n', start), message.size());
    const std::string line = message.substr(start, end - start);
    out += line.size() <= kLongest ? line
                                   : fmt::format("{} [... {} characters cut ...] {}", line.substr(0, kKept),
                                                 line.size() - 2 * kKept, line.substr(line.size() - kKept));
    if (end < message.size()) out += '\n';
    start = end + 1;
  }
  return out;
}

int fail(ExitCode code, const std::string& message) {
  fmt::print(stderr, "wormcast: {}\n", short_lines(message));
  return static_cast<int>(code);
}

// Exit 2 when what a command printed did not reach its standard output (a full device, a closed
// pipe), rather than the command's own code: the output is lost.
int finish(int code) {
  if (std::fflush(stdout) != 0 || std::ferror(stdout) != 0) {
    return fail(ExitCode::kBadInput, fmt::format("cannot write the standard output: {}", std::strerror(errno)));
  }
  return code;
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
      if (command.app->parsed()) return finish(static_cast<int>(command.run()));
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
