// SPDX-License-Identifier: Apache-2.0
// `--algorithm auto` against the RTL. For random requests of several sizes on
// small networks of each kind, every applicable algorithm the firmware runs is run alone on the
// verilated routers (sim/algorithm_race.hpp), and the algorithm auto picks from the analytic
// model's predictions must have run within 5 % of the best measured latency. Every run must also
// pass the scoreboard's check. The same measurement at a larger scale is `wormcast rank`
// (docs/results.md, "Which algorithm wins where").
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model/algorithm_choice.hpp"
#include "model/sweep.hpp"
#include "sim/algorithm_race.hpp"

namespace wormcast::verif {
namespace {

constexpr double kWithin = 0.05;
constexpr int kLength = 20;

struct Network {
  std::string topology;
  std::vector<int> sizes;  // K; N - 1 is the broadcast
};

// Explains a race: each algorithm's prediction and measurement, auto's pick first.
std::string describe(const sim::Race& race) {
  std::string out = fmt::format("{} source {}, {} destinations:\n", race.request.topology.spec(),
                                race.request.topology.node_name(race.request.source), race.request.destinations.size());
  for (const sim::RaceEntry& e : race.entries) {
    out += fmt::format("  {:<12} predicted {:>8.1f} measured {:>6}{}\n", e.predicted.algorithm, e.predicted.latency,
                       e.measured, e.check.empty() ? "" : " check: " + e.check);
  }
  return out;
}

// Races `requests` random requests per K of each network under one start-up and port model.
void expect_auto_within_five_percent(const std::vector<Network>& networks, model::PortModel ports, long alpha,
                                     long gamma, int requests, std::uint64_t seed) {
  sim::RunOptions options;
  options.alpha = alpha;
  options.gamma = gamma;
  options.backend = sim::Backend::kRtl;
  int races = 0;
  double worst = 0;
  for (const Network& n : networks) {
    const model::Topology t = model::Topology::parse(n.topology);
    for (const int k : n.sizes) {
      for (const model::Sample& s : model::draw_samples(t, model::SourceChoice::random(), k, requests, seed)) {
        const sim::Race race = sim::race_algorithms(
            model::make_request(t, model::kAutoAlgorithm, s.source, s.destinations, kLength, ports), options);
        ++races;
        worst = std::max(worst, race.pick_gap());
        EXPECT_TRUE(race.all_checks_pass()) << describe(race);
        EXPECT_LE(race.pick_gap(), kWithin) << "auto picked " << race.entries.front().predicted.algorithm
                                            << ", measured best " << race.measured_best().predicted.algorithm << "\n"
                                            << describe(race);
      }
    }
  }
  ::testing::Test::RecordProperty("races", races);
  ::testing::Test::RecordProperty("worst_gap_percent", fmt::format("{:.2f}", 100 * worst));
  std::printf("%d requests, auto's worst gap to the measured best %.2f %%\n", races, 100 * worst);
}

const std::vector<Network> kNetworks{
    {"mesh:4x4", {2, 6, 15}}, {"torus:4x4", {3, 8, 15}}, {"mesh:3x3x3", {4, 26}}, {"star:4", {5, 23}}};

TEST(AutoAlgorithm, AllPortPickWithinFivePercentOfBestRtlLatencyAtShowcaseStartUps) {
  expect_auto_within_five_percent(kNetworks, model::PortModel::all_port(), 227, 227, 1, 161);
}

TEST(AutoAlgorithm, AllPortPickWithinFivePercentOfBestRtlLatencyAtShortStartUps) {
  expect_auto_within_five_percent(kNetworks, model::PortModel::all_port(), 12, 8, 3, 162);
}

TEST(AutoAlgorithm, OnePortPickWithinFivePercentOfBestRtlLatency) {
  expect_auto_within_five_percent({{"mesh:4x4", {3, 15}}, {"mesh:3x3x3", {8}}}, model::PortModel::one_port(), 227, 227,
                                  1, 163);
}

}  // namespace
}  // namespace wormcast::verif
