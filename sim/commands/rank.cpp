// SPDX-License-Identifier: Apache-2.0
// wormcast rank: how good `--algorithm auto` is, and which algorithm wins where
// (docs/results.md "Which algorithm wins where"). For random requests of each (topology, K), every
// applicable algorithm the firmware runs is run alone on a backend (sim/algorithm_race.hpp); the
// table counts, per (topology, K), the measured winners, how often auto's pick (the analytic
// model's) was a measured best, and its worst gap to the best. Exit 1 when a run fails its check.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <memory>

#include "model/errors.hpp"
#include "model/planner.hpp"
#include "model/sweep.hpp"
#include "sim/algorithm_race.hpp"
#include "sim/commands/command.hpp"
#include "sim/commands/common.hpp"
#include "sim/plan_views.hpp"
#include "sim/progress.hpp"

namespace wormcast::sim::commands {
namespace {

// "dual-path 6, multi-path 3": the counts, most first (ties in name order).
std::string counts_text(const std::map<std::string, int>& counts) {
  std::vector<std::pair<std::string, int>> sorted(counts.begin(), counts.end());
  std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  std::vector<std::string> parts;
  for (const auto& [name, n] : sorted) parts.push_back(fmt::format("{} {}", name, n));
  return fmt::format("{}", fmt::join(parts, ", "));
}

}  // namespace

Command add_rank(CLI::App& app) {
  struct Options {
    std::vector<std::string> topologies;
    std::vector<std::string> counts;
    int requests = 10;
    std::uint64_t seed = 1;
    std::string backend = "rtl";
    RequestOptions request;
    std::string csv;
  };
  auto o = std::make_shared<Options>();
  CLI::App* command = app.add_subcommand(
      "rank", "Run every applicable algorithm on random requests: measured winners and how good --algorithm auto is");
  command->add_option("-t,--topologies", o->topologies, "comma-separated topology specs")->delimiter(',')->required();
  command->add_option("-k,--k", o->counts, "comma-separated destination counts K ('all' = N-1)")
      ->delimiter(',')
      ->required();
  command->add_option("-n,--requests", o->requests, "random requests (source and destinations) per topology and K")
      ->capture_default_str();
  command->add_option("--seed", o->seed, "seed of the requests (those of one K depend on (seed, K) alone)")
      ->capture_default_str()
      ->check(seed_value());
  command->add_option("--backend", o->backend, "rtl or model (the timing model, the RTL's cycles faster)")
      ->capture_default_str();
  o->request.add_to(*command, LatencyOptions::kStartUpOnly);
  command->add_option(
      "--csv", o->csv,
      "write one row per (request, algorithm): the request, predicted and measured latency, auto's pick");
  return {command, [o] {
            if (o->request.ports.empty()) throw model::SpecError(kAutoNeedsPorts);
            if (o->requests < 1) {
              throw model::RequestError(fmt::format("--requests {} is too few; give at least 1", o->requests));
            }
            RunOptions options = harness_options(model::kAutoAlgorithm, o->request, 0.0, o->seed);
            options.backend = parse_backend(o->backend);
            const model::PortModel ports = parse_port_model(o->request.ports);
            struct Point {
              model::Topology topology;
              int k;
            };
            std::vector<Point> points;
            for (const std::string& spec : o->topologies) {
              const model::Topology t = model::Topology::parse(spec);
              for (const int k : parse_counts(t, o->counts)) {
                model::draw_samples(t, model::SourceChoice::random(), k, 1, o->seed);  // K in range, before any run
                points.push_back({t, k});
              }
            }
            Progress progress("rank", points.size() * static_cast<std::size_t>(o->requests));
            std::string csv =
                "topology,k,request,source,destinations,algorithm,rank,predicted,traffic,measured,check,auto_pick,"
                "measured_best\n";
            std::string table =
                "| topology | K | requests | measured winners (ties count for each) | auto's pick a measured best | "
                "auto's worst gap |\n|---|---|---|---|---|---|\n";
            bool all_pass = true;
            int total = 0, right = 0;
            double worst = 0;
            for (const Point& point : points) {
              const model::Topology& t = point.topology;
              std::map<std::string, int> wins;
              int point_right = 0;
              double point_worst = 0;
              const std::vector<model::Sample> samples =
                  model::draw_samples(t, model::SourceChoice::random(), point.k, o->requests, o->seed);
              for (std::size_t i = 0; i < samples.size(); ++i) {
                const model::Request request =
                    model::make_request(t, model::kAutoAlgorithm, samples[i].source, samples[i].destinations,
                                        o->request.length, ports, o->request.latency);
                const Race race = race_algorithms(request, options);
                // Space-separated, so that `wormcast run -d` takes them as they are.
                std::vector<std::string> names;
                for (const model::NodeId d : samples[i].destinations) names.push_back(t.node_name(d));
                const std::string destinations = fmt::format("{}", fmt::join(names, " "));
                const long best = race.measured_best().measured;  // -1: no run delivered everything
                for (std::size_t r = 0; r < race.entries.size(); ++r) {
                  const RaceEntry& e = race.entries[r];
                  const bool won = best >= 0 && e.measured == best;
                  if (won) ++wins[e.predicted.algorithm];
                  csv += fmt::format("{},{},{},\"{}\",\"{}\",{},{},{},{},{},{},{},{}\n", t.spec(), point.k, i,
                                     t.node_name(samples[i].source), destinations, e.predicted.algorithm, r + 1,
                                     e.predicted.latency, e.predicted.traffic, e.measured,
                                     e.check.empty() ? "pass" : "fail", r == 0 ? 1 : 0, won ? 1 : 0);
                }
                all_pass = all_pass && race.all_checks_pass();
                point_right += race.pick_gap() == 0 ? 1 : 0;
                point_worst = std::max(point_worst, race.pick_gap());
                progress.point_done();
              }
              table += fmt::format("| {} | {} | {} | {} | {}/{} | {:.1f} % |\n", t.spec(), point.k, o->requests,
                                   counts_text(wins), point_right, o->requests, 100 * point_worst);
              total += o->requests;
              right += point_right;
              worst = std::max(worst, point_worst);
            }
            fmt::print(
                "{}\nauto's pick was a measured best in {} of {} requests; worst gap {:.1f} % ({}, L = {}, "
                "alpha = {}, gamma = {}, {} backend)\n",
                table, right, total, 100 * worst, ports.name(), o->request.length, options.alpha, options.gamma,
                o->backend);
            if (!o->csv.empty()) write_file(o->csv, csv);
            if (!all_pass) {
              fmt::print("a run did not match its plan (see the csv's check column)\n");
              return ExitCode::kCheckFailed;
            }
            return ExitCode::kSuccess;
          }};
}

}  // namespace wormcast::sim::commands
