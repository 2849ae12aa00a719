// The analytic latency (the plans' contention-free formula under model::LatencyParameters::rtl,
// docs/timing.md "The analytic opinion") against the RTL at zero load: every algorithm the firmware
// runs, on each demo network that runs it, one random multicast and one broadcast (a broadcast
// algorithm: the broadcast only), alone on the network. The multicast latency (last delivery) and
// every destination's delivery cycle must be within the algorithm's bound of the RTL's: 5 % unless
// kWiderBounds names it with the reason docs/timing.md gives.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "model/errors.hpp"
#include "model/planner.hpp"
#include "sim/compare.hpp"
#include "sim/rtl_cosim.hpp"

namespace wormcast::verif {
namespace {

using model::NodeId;

constexpr double kBound = 0.05;
constexpr long kAlpha = 227, kGamma = 227;  // the showcase's start-ups (the papers' T3D ratio)
constexpr int kLength = 20;

// Algorithms whose analytic latency cannot be held to 5 %, with the bound the test holds them to
// (per destination; docs/timing.md, "The analytic opinion", says why).
const std::map<std::string, double>& wider_bounds() {
  static const std::map<std::string, double> bounds{};
  return bounds;
}

double bound_of(const std::string& algorithm) {
  const auto it = wider_bounds().find(algorithm);
  return it == wider_bounds().end() ? kBound : it->second;
}

struct Case {
  std::string topology;
  std::string algorithm;
  int multicast_size = 0;  // K of the random multicast; 0: the algorithm broadcasts only
};

// The demo networks (docs/firmware.md, "make run: the showcase") and their K.
const std::vector<std::pair<std::string, int>> kNetworks{
    {"mesh:8x8", 10}, {"torus:4x4", 6}, {"mesh:4x4x4", 10}, {"star:4", 6}};

std::vector<Case> cases() {
  std::vector<Case> out;
  for (const auto& [topology, k] : kNetworks) {
    for (const model::AlgorithmInfo& info : model::algorithms()) {
      if (!sim::rtl_supports(info.name)) continue;
      out.push_back({topology, info.name, info.broadcast ? 0 : k});
    }
  }
  return out;
}

// A source the algorithm accepts: a corner for XY-path (A-004-1), else drawn.
NodeId draw_source(const model::Topology& t, const std::string& algorithm, std::mt19937_64& rng) {
  if (algorithm.rfind("xy-path", 0) == 0) return t.node_at({t.size(0) - 1, 0, 0});
  return static_cast<NodeId>(rng() % static_cast<std::uint64_t>(t.node_count()));
}

// The plan with the widest port model the planner accepts on this network (as the showcase runs
// it), or nullopt when it accepts none (the algorithm does not run there).
std::optional<model::Plan> widest_plan(const model::Topology& t, const std::string& algorithm, NodeId source,
                                       const std::vector<NodeId>& destinations) {
  for (const model::PortModel ports :
       {model::PortModel::all_port(), model::PortModel::two_port(), model::PortModel::one_port()}) {
    try {
      return model::plan(model::make_request(t, algorithm, source, destinations, kLength, ports));
    } catch (const model::UnsupportedError&) {
    } catch (const model::RequestError&) {
    }
  }
  return std::nullopt;
}

std::vector<std::vector<NodeId>> destination_sets(const model::Topology& t, NodeId source, int k,
                                                  std::mt19937_64& rng) {
  std::vector<NodeId> others;
  for (NodeId v = 0; v < t.node_count(); ++v) {
    if (v != source) others.push_back(v);
  }
  std::vector<std::vector<NodeId>> sets{others};  // the broadcast
  if (k > 0) {
    std::shuffle(others.begin(), others.end(), rng);
    others.resize(static_cast<std::size_t>(std::min<int>(k, static_cast<int>(others.size()))));
    sets.push_back(others);
  }
  return sets;
}

class AnalyticZeroLoad : public testing::TestWithParam<Case> {};

TEST_P(AnalyticZeroLoad, AnalyticLatencyIsWithinTheBoundOfTheRtlPerDestinationAndMulticast) {
  const Case c = GetParam();
  const model::Topology t = model::Topology::parse(c.topology);
  std::mt19937_64 rng(20261124);
  const NodeId source = draw_source(t, c.algorithm, rng);
  const double bound = bound_of(c.algorithm);
  int ran = 0;
  for (const std::vector<NodeId>& destinations : destination_sets(t, source, c.multicast_size, rng)) {
    const std::optional<model::Plan> plan = widest_plan(t, c.algorithm, source, destinations);
    if (!plan) continue;
    sim::RtlRunOptions options;
    options.alpha = kAlpha;
    options.gamma = kGamma;
    sim::RunRecord record;
    try {
      record = sim::run_on_rtl({*plan}, options);
    } catch (const model::UnsupportedError&) {
      continue;  // a network the firmware does not run this algorithm on
    }
    ++ran;
    ASSERT_EQ(sim::check_run({*plan}, record), "");
    const std::vector<long> rtl = sim::delivery_cycles(*plan, 0, record);
    const std::vector<double> analytic = sim::analytic_delivery_cycles(*plan, kAlpha, kGamma);
    ASSERT_EQ(rtl.size(), analytic.size());
    const long rtl_latency = *std::max_element(rtl.begin(), rtl.end());
    const double analytic_latency = *std::max_element(analytic.begin(), analytic.end());
    const std::string what =
        fmt::format("{} K = {} from {} ({}): RTL latency {}, analytic {}", c.algorithm, destinations.size(),
                    t.node_name(source), plan->request.ports.name(), rtl_latency, analytic_latency);
    std::printf("%s (%.2f %%)\n", what.c_str(), 100 * (analytic_latency - rtl_latency) / rtl_latency);
    EXPECT_LE(sim::relative_error(analytic_latency, rtl_latency), bound) << what;
    double worst = 0;
    std::size_t at = 0;
    for (std::size_t i = 0; i < rtl.size(); ++i) {
      const double e = sim::relative_error(analytic[i], rtl[i]);
      if (e > worst) worst = e, at = i;
    }
    EXPECT_LE(worst, bound) << what << "; destination " << t.node_name(destinations[at]) << ": RTL " << rtl[at]
                            << ", analytic " << analytic[at];
  }
  if (ran == 0) GTEST_SKIP() << c.algorithm << " does not run on " << c.topology;
}

std::string case_name(const testing::TestParamInfo<Case>& info) {
  std::string s = info.param.topology + "_" + info.param.algorithm;
  for (char& ch : s) {
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  }
  return s;
}

INSTANTIATE_TEST_SUITE_P(EveryAlgorithmOnTheDemoNetworks, AnalyticZeroLoad, testing::ValuesIn(cases()), case_name);

}  // namespace
}  // namespace wormcast::verif
