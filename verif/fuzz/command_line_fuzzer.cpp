// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: the wormcast command line (sim/commands/command_line.hpp) with the commands
// that run no simulation: labeling, route, deadlock, algorithms, plan, merge.
// Input: the arguments after `wormcast`, one per line. The exit code must be 0, 1 or 2 and no
// exception may escape; a sanitizer report or a timeout (-timeout) is a finding.
// The harness keeps every input cheap and contained: it runs in a private temporary folder,
// emptied after each input, and skips inputs that would leave it (an argument with '/'), start a
// program (merge --plots runs python3) or name a network over kMaxFuzzedNodes nodes.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include "sim/commands/command.hpp"
#include "sim/commands/command_line.hpp"
#include "verif/fuzz/fuzz_input.hpp"

namespace {

namespace commands = wormcast::sim::commands;

constexpr std::size_t kMaxArguments = 24;
// An 8x8 mesh (labeling's default topology): the commands' work grows with the network, and the
// bad-input paths are the same on small networks as on large ones.
constexpr int kMaxFuzzedNodes = 64;

void require(bool property) {
  if (!property) std::abort();
}

// Known faults with their own fix and tests, kept out of the search: a latency parameter or seed
// that is not a plain number in range (NaN, infinities, negatives, values past 64 bits).
bool names_an_excluded_value(const std::vector<std::string>& arguments) {
  static const std::regex value_option("--(alpha|beta|gamma|mu|router-delay|seed)(=.*)?");
  static const std::regex plain_number("[0-9]{1,6}(\\.[0-9]{1,3})?");
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    std::smatch match;
    if (!std::regex_match(arguments[i], match, value_option)) continue;
    const std::string value =
        match[2].matched ? match[2].str().substr(1) : (i + 1 < arguments.size() ? arguments[i + 1] : "0");
    if (!std::regex_match(value, plain_number)) return true;
  }
  return false;
}

bool contained(const std::vector<std::string>& arguments) {
  if (arguments.size() > kMaxArguments) return false;
  for (const std::string& argument : arguments) {
    if (argument.find('/') != std::string::npos || argument.find("--plots") != std::string::npos) return false;
  }
  return wormcast::fuzz::largest_network_named(arguments) <= kMaxFuzzedNodes && !names_an_excluded_value(arguments);
}

void empty_folder(const std::filesystem::path& folder) {
  for (const auto& entry : std::filesystem::directory_iterator(folder)) std::filesystem::remove_all(entry.path());
}

}  // namespace

// Runs every input in a fresh temporary folder: the files the commands write (--svg, merge -o)
// land there and nowhere else.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  char name[] = "/tmp/wormcast-fuzz-cli-XXXXXX";
  require(mkdtemp(name) != nullptr);
  require(chdir(name) == 0);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> arguments = wormcast::fuzz::lines_of(data, size);
  if (!contained(arguments)) return 0;
  arguments.insert(arguments.begin(), "wormcast");
  std::vector<const char*> argv;
  for (const std::string& argument : arguments) argv.push_back(argument.c_str());

  CLI::App app{"wormcast"};
  app.require_subcommand(1);
  const std::vector<commands::Command> registered = {commands::add_labeling(app), commands::add_route(app),
                                                     commands::add_deadlock(app), commands::add_algorithms(app),
                                                     commands::add_plan(app),     commands::add_merge(app)};
  const int code = commands::run_command_line(app, registered, static_cast<int>(argv.size()), argv.data());
  require(code == 0 || code == 1 || code == 2);
  empty_folder(std::filesystem::current_path());
  return 0;
}
