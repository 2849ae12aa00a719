// SPDX-License-Identifier: Apache-2.0
// wormcast showcase, the demo of `make run`: every algorithm the firmware runs on the demo
// networks, then per network a random mix of them at once, on the verilated routers, checked
// against the plans; a table, one drawing per single run and one request file per mix (exit 1 when
// a check fails).
#include "sim/showcase.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <memory>

#include "sim/commands/command.hpp"
#include "sim/commands/common.hpp"

namespace wormcast::sim::commands {
namespace {

using model::Topology;

// The showcase's networks: the demo table's, or the named topologies (their K from the table, else
// a quarter of the nodes).
std::vector<ShowcaseNetwork> showcase_networks_for(const std::vector<std::string>& specs) {
  if (specs.empty()) return showcase_networks();
  std::vector<ShowcaseNetwork> networks;
  for (const std::string& spec : specs) {
    const Topology t = Topology::parse(spec);
    const auto& table = showcase_networks();
    const auto row = std::find_if(table.begin(), table.end(),
                                  [&](const ShowcaseNetwork& n) { return Topology::parse(n.topology) == t; });
    networks.push_back(row != table.end()
                           ? *row
                           : ShowcaseNetwork{t.spec(), std::max(1, std::min(t.node_count() - 1, t.node_count() / 4))});
  }
  return networks;
}

ExitCode run_showcase_command(const ShowcaseConfig& config) {
  const auto start = std::chrono::steady_clock::now();
  fmt::print(
      "wormcast showcase: every algorithm the firmware runs, then a mix of them at once, on the verilated routers, "
      "checked against the plans\n");
  fmt::print("(L = {} flits, alpha = {}, gamma = {} cycles; output folder {})\n\n", config.length, config.rtl.alpha,
             config.rtl.gamma, config.out_dir);
  fmt::print("{}", showcase_header_line());
  const ShowcaseResult result =
      run_showcase(config, [](const ShowcaseRow& row) { fmt::print("{}", showcase_row_line(row)); });
  if (result.rows.empty()) {
    // Nothing ran, so nothing failed: the options chose no run the networks can take.
    constexpr std::size_t kShown = 3;
    const std::vector<std::string> shown(result.skipped.begin(),
                                         result.skipped.begin() + std::min(kShown, result.skipped.size()));
    throw CommandError(fmt::format(
        "nothing to run: no algorithm of the selection runs on the networks given ({}{}); choose others from `wormcast "
        "algorithms` or networks the RTL runs",
        fmt::join(shown, "; "),
        result.skipped.size() > kShown ? fmt::format("; {} more", result.skipped.size() - kShown) : ""));
  }
  write_file((std::filesystem::path(config.out_dir) / "summary.md").string(), showcase_markdown(result, config));
  write_file((std::filesystem::path(config.out_dir) / "summary.csv").string(), showcase_csv(result));
  const auto failed =
      std::count_if(result.rows.begin(), result.rows.end(), [](const ShowcaseRow& r) { return !r.check.empty(); });
  for (const ShowcaseRow& r : result.rows) {
    if (r.check.empty()) continue;
    const std::string what = r.algorithm == "mixed" ? r.request : "from (" + r.source + ")";
    fmt::print("FAIL {} {} {}: {}\n", r.topology, r.algorithm, what, r.check);
  }
  if (!result.skipped.empty()) {
    fmt::print("\nnot run ({}):\n", result.skipped.size());
    for (const std::string& s : result.skipped) fmt::print("  {}\n", s);
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  fmt::print("\n{} runs, {} passed the check, {} failed; {:.1f} s\n", result.rows.size(),
             result.rows.size() - static_cast<std::size_t>(failed), failed, seconds);
  const auto mixes = std::count_if(result.rows.begin(), result.rows.end(),
                                   [](const ShowcaseRow& r) { return !r.request_file.empty(); });
  fmt::print("wrote {}/summary.md, summary.csv, {} drawings and {} request files\n", config.out_dir,
             result.rows.size() - static_cast<std::size_t>(mixes), mixes);
  for (const ShowcaseRow& r : result.rows) {
    if (!r.rerun.empty()) fmt::print("rerun the {} mix: {}\n", r.topology, r.rerun);
  }
  return result.passed() ? ExitCode::kSuccess : ExitCode::kCheckFailed;
}
}  // namespace

Command add_showcase(CLI::App& app) {
  struct Options {
    ShowcaseConfig config;
    std::vector<std::string> topologies;
  };
  auto o = std::make_shared<Options>();
  o->config.out_dir = "build/demo";
  ShowcaseConfig& c = o->config;
  CLI::App* command = app.add_subcommand(
      "showcase",
      "The demo of make run: every algorithm the RTL runs on the demo networks, then a mix of them at once, checked; "
      "table, SVGs and the mixes' request files");
  command->add_option("-o,--out", c.out_dir, "output folder for summary.md, summary.csv and the drawings")
      ->capture_default_str();
  command->add_option("-t,--topologies", o->topologies, "comma-separated topologies (default: the demo's)")
      ->delimiter(',');
  command->add_option("-a,--algorithms", c.algorithms, "comma-separated algorithms (default: all on the RTL)")
      ->delimiter(',');
  command->add_option("--multicasts", c.multicasts, "random multicasts per algorithm (plus a broadcast)")
      ->capture_default_str();
  command
      ->add_option("--mix-size", c.mix_size,
                   "multicasts per algorithm in each network's mixed row (a random mix run at once); 0: no mixed rows")
      ->capture_default_str();
  command->add_option("--seed", c.seed, "seed of the random requests and mixes")
      ->capture_default_str()
      ->check(seed_value());
  command->add_option("-L,--length", c.length, "message length in flits")->capture_default_str();
  command->add_option("--alpha", c.rtl.alpha, "send start-up (cycles)")
      ->capture_default_str()
      ->check(cycles_in(kMaxStartUpCycles));
  command->add_option("--gamma", c.rtl.gamma, "receive start-up (cycles)")
      ->capture_default_str()
      ->check(cycles_in(kMaxStartUpCycles));
  // Test only (hidden from --help): the scoreboard's negative test.
  command
      ->add_option("--corrupt-tail-at", c.rtl.corrupt_tail_at,
                   "fault injection: flip a bit of every tail ejected at this node id")
      ->group("");
  return {command, [o] {
            o->config.networks = showcase_networks_for(o->topologies);
            return run_showcase_command(o->config);
          }};
}

}  // namespace wormcast::sim::commands
