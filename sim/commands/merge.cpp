// SPDX-License-Identifier: Apache-2.0
// wormcast merge: the shard files of a sweep (`wormcast sweep --shard i/n`) put together into the
// CSV the unsharded sweep writes, byte for byte (sim/shard.hpp; docs/results.md, "Sharding").
#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>

#include "sim/commands/command.hpp"
#include "sim/commands/common.hpp"
#include "sim/shard.hpp"

namespace wormcast::sim::commands {
namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw CommandError(fmt::format("cannot read '{}': {}", path, std::strerror(errno)));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

Command add_merge(CLI::App& app) {
  struct Options {
    std::vector<std::string> shards;
    std::string out;
    std::string plots;
  };
  auto o = std::make_shared<Options>();
  CLI::App* command = app.add_subcommand(
      "merge", "Put the shard files of a sweep (sweep --shard i/n) together into the unsharded sweep's CSV");
  command->add_option("shards", o->shards, "every shard file of one sweep, in any order")->required();
  CLI::Option* out = command->add_option("-o,--out", o->out, "write the CSV to this file (default: stdout)");
  command
      ->add_option(
          "--plots", o->plots,
          "a traffic sweep's shards: also draw its latency plots into this folder, as the unsharded sweep does")
      ->needs(out);
  return {command, [o] {
            std::vector<std::pair<std::string, std::string>> files;
            for (const std::string& path : o->shards) files.emplace_back(path, read_file(path));
            const std::string csv = merge_shard_csvs(files);
            if (!o->plots.empty() && csv.rfind("backend,", 0) != 0) {
              throw CommandError(
                  "--plots draws a traffic sweep's plots (sweep --backend); these shards are of a "
                  "planning sweep");
            }
            // The plot script before the file is written: a missing script fails before any output.
            const std::filesystem::path script = o->plots.empty() ? std::filesystem::path() : plot_script();
            if (o->out.empty()) {
              fmt::print("{}", csv);
              return ExitCode::kSuccess;
            }
            if (!o->plots.empty()) std::filesystem::create_directories(o->plots);  // -o may go into it
            write_file(o->out, csv);
            if (!o->plots.empty()) draw_plots(script, o->out, o->plots);
            return ExitCode::kSuccess;
          }};
}

}  // namespace wormcast::sim::commands
