// SPDX-License-Identifier: Apache-2.0
// The timing model against the RTL (docs/timing.md): the same firmware scenario on both backends
// must deliver every destination in the same cycle at zero load, within 1 % under concurrent load,
// and a perturbed model must be caught at the router and cycle where it departs. Fixed seeds.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "model/broadcast_baselines.hpp"
#include "model/cpr_broadcast.hpp"
#include "model/path_multicast.hpp"
#include "model/planner.hpp"
#include "model/tree_multicast.hpp"
#include "model/unicast_multicast.hpp"
#include "model/xy_path.hpp"
#include "sim/compare.hpp"
#include "sim/multicast_run.hpp"
#include "sim/scoreboard.hpp"

namespace wormcast::verif {
namespace {

using model::NodeId;

model::PortModel port_model(int d) {
  if (d == 0) return model::PortModel::all_port();
  if (d == 1) return model::PortModel::one_port();
  if (d == 2) return model::PortModel::two_port();
  return model::PortModel::d_port(d);
}

// Source and K distinct destinations (K = N-1: a broadcast); XY-path starts at a corner ([5]).
model::Plan random_plan(const model::Topology& t, const std::string& algorithm, int d, int k, int length,
                        std::mt19937_64& rng) {
  const int n = t.node_count();
  NodeId source = static_cast<NodeId>(rng() % static_cast<std::uint64_t>(n));
  if (algorithm.rfind(model::kXyPathAlgorithm, 0) == 0) {
    source =
        t.node_at({static_cast<int>(rng() % 2) * (t.size(0) - 1), static_cast<int>(rng() % 2) * (t.size(1) - 1), 0});
  }
  std::vector<NodeId> others;
  for (NodeId v = 0; v < n; ++v) {
    if (v != source) others.push_back(v);
  }
  std::shuffle(others.begin(), others.end(), rng);
  others.resize(static_cast<std::size_t>(std::min(k, n - 1)));
  return model::plan(model::make_request(t, algorithm, source, others, length, port_model(d)));
}

sim::RunOptions fast_options() {
  sim::RunOptions o;
  o.alpha = 12;
  o.gamma = 8;
  return o;
}

// Both backends ran the plans correctly; the comparison's table as text for a failure message.
void expect_both_correct(const sim::Comparison& c) {
  EXPECT_EQ(c.rtl_check, "");
  EXPECT_EQ(c.model_check, "");
  for (const sim::DestinationTiming& d : c.destinations) {
    EXPECT_GT(d.rtl, 0) << "multicast " << d.multicast << " node " << d.node;
  }
}

std::string divergence_text(const sim::Comparison& c, const model::Topology& t) {
  return c.divergence ? sim::describe(*c.divergence, t) : "none";
}

struct ZeroLoadCase {
  const char* topology;
  const char* algorithm;
  int ports;  // 0: all-port
  int max_k;  // 0: broadcast
};

class TimingZeroLoad : public testing::TestWithParam<ZeroLoadCase> {};

// One request on an idle network, from three random sources: every destination's delivery cycle is
// the same on both backends, and the link traces are identical (no divergence at all).
TEST_P(TimingZeroLoad, ModelDeliversInTheRtlsCycles) {
  const ZeroLoadCase c = GetParam();
  const model::Topology t = model::Topology::parse(c.topology);
  std::mt19937_64 rng(20261122);
  for (int run = 0; run < 3; ++run) {
    const int k = c.max_k == 0 ? t.node_count() - 1 : 1 + static_cast<int>(rng() % static_cast<std::uint64_t>(c.max_k));
    const model::Plan plan = random_plan(t, c.algorithm, c.ports, k, 1 + static_cast<int>(rng() % 6), rng);
    SCOPED_TRACE(fmt::format("run {}: source {} K {}", run, t.node_name(plan.request.source), k));
    const sim::Comparison cmp = sim::compare_backends({plan}, fast_options());
    expect_both_correct(cmp);
    EXPECT_EQ(cmp.differing, 0) << "first divergence: " << divergence_text(cmp, t);
    EXPECT_FALSE(cmp.divergence.has_value()) << divergence_text(cmp, t);
    if (HasFailure()) return;
  }
}

// S6 on the p5 all-port routers, one request: a worm of the 720-node cycle crosses hundreds of
// routers, so one RTL run takes seconds (docs/timing.md). The fixed algorithm on S6 runs on the RTL
// against its plan in cosim_test.cpp.
TEST(TimingZeroLoadSixStar, UniformAllPortModelDeliversInTheRtlsCycles) {
  const model::Topology t = model::Topology::parse("star:6");
  std::mt19937_64 rng(20261124);
  const model::Plan plan = random_plan(t, model::kUniformDualPathAlgorithm, 0, 255, 3, rng);
  const sim::Comparison cmp = sim::compare_backends({plan}, fast_options());
  expect_both_correct(cmp);
  EXPECT_EQ(cmp.differing, 0) << "first divergence: " << divergence_text(cmp, t);
  EXPECT_FALSE(cmp.divergence.has_value()) << divergence_text(cmp, t);
}

std::string zero_load_name(const testing::TestParamInfo<ZeroLoadCase>& info) {
  std::string s = fmt::format("{}_{}_{}", info.param.topology, info.param.algorithm, info.param.ports);
  for (char& ch : s) {
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  }
  return s;
}

// Every algorithm the firmware runs, on every topology family the RTL harness builds (2D meshes,
// 2D tori with even and odd rows, 3D meshes and tori), as in verif/system/cosim_test.cpp.
INSTANTIATE_TEST_SUITE_P(
    Topologies, TimingZeroLoad,
    testing::Values(
        ZeroLoadCase{"mesh:4x4", model::kUnicastAlgorithm, 1, 15},
        ZeroLoadCase{"mesh:4x4", model::kUnicastAlgorithm, 2, 15},
        ZeroLoadCase{"mesh:4x4", model::kOnePortAlgorithm, 1, 15},
        ZeroLoadCase{"mesh:4x4", model::kTwoPortAlgorithm, 2, 15},
        ZeroLoadCase{"mesh:4x4", model::kDPortAlgorithm, 4, 15},
        ZeroLoadCase{"mesh:4x4", model::kRecursiveDoublingAlgorithm, 1, 0},
        ZeroLoadCase{"mesh:8x8", model::kTwoPortAlgorithm, 2, 40}, ZeroLoadCase{"mesh:4x4", model::kVhAlgorithm, 1, 15},
        ZeroLoadCase{"mesh:4x4", model::kDdsAlgorithm, 1, 15}, ZeroLoadCase{"mesh:4x4", model::kDiagAlgorithm, 1, 15},
        ZeroLoadCase{"mesh:4x4", model::kMinAlgorithm, 1, 15}, ZeroLoadCase{"mesh:4x4", model::kLinAlgorithm, 0, 15},
        ZeroLoadCase{"mesh:4x4", model::kDualPathAlgorithm, 2, 15},
        ZeroLoadCase{"mesh:4x4", model::kDualPathAlgorithm, 0, 15},
        ZeroLoadCase{"mesh:4x4", model::kMultiPathAlgorithm, 0, 15},
        ZeroLoadCase{"mesh:4x4", model::kPcpAlgorithm, 0, 0}, ZeroLoadCase{"mesh:5x3", model::kPcpAlgorithm, 0, 0},
        ZeroLoadCase{"mesh:4x4", model::kXyPathAlgorithm, 0, 15},
        ZeroLoadCase{"mesh:6x4", model::kXyPathXFirstAlgorithm, 0, 23},
        ZeroLoadCase{"torus:4x4", model::kUnicastAlgorithm, 1, 15},
        ZeroLoadCase{"torus:4x4", model::kOnePortAlgorithm, 1, 15},
        ZeroLoadCase{"torus:4x4", model::kTwoPortAlgorithm, 2, 15},
        ZeroLoadCase{"torus:4x4", model::kDPortAlgorithm, 4, 15}, ZeroLoadCase{"torus:4x4", model::kVhAlgorithm, 1, 15},
        ZeroLoadCase{"torus:4x4", model::kDiagAlgorithm, 2, 15}, ZeroLoadCase{"torus:4x4", model::kDdsAlgorithm, 4, 15},
        ZeroLoadCase{"torus:5x5", model::kMinAlgorithm, 1, 24},
        ZeroLoadCase{"torus:4x4", model::kDualPathAlgorithm, 2, 15},
        ZeroLoadCase{"torus:4x4", model::kMultiPathAlgorithm, 0, 15},
        ZeroLoadCase{"torus:4x4", model::kUniformDualPathAlgorithm, 0, 15},
        ZeroLoadCase{"torus:4x4", model::kFixedDualPathAlgorithm, 2, 15},
        ZeroLoadCase{"torus:6x6", model::kUniformDualPathAlgorithm, 1, 35},
        ZeroLoadCase{"torus:5x4", model::kFixedDualPathAlgorithm, 1, 19},
        ZeroLoadCase{"mesh:3x3x3", model::kUnicastAlgorithm, 2, 26},
        ZeroLoadCase{"mesh:3x3x3", model::kOnePortAlgorithm, 1, 26},
        ZeroLoadCase{"mesh:3x3x3", model::kTwoPortAlgorithm, 2, 26},
        ZeroLoadCase{"mesh:3x3x3", model::kRecursiveDoublingAlgorithm, 1, 0},
        ZeroLoadCase{"mesh:3x3x3", model::kVhAlgorithm, 2, 26}, ZeroLoadCase{"mesh:3x3x3", model::kDdsAlgorithm, 1, 26},
        ZeroLoadCase{"mesh:3x3x3", model::kDiagAlgorithm, 1, 26},
        ZeroLoadCase{"mesh:3x3x3", model::kMinAlgorithm, 2, 26},
        ZeroLoadCase{"mesh:3x3x3", model::kDualPathAlgorithm, 2, 26},
        ZeroLoadCase{"mesh:3x3x3", model::kThreeDbsAlgorithm, 0, 0},
        ZeroLoadCase{"mesh:3x3x3", model::kThreeDblAlgorithm, 0, 26},
        ZeroLoadCase{"mesh:3x3x3", model::kThreeDblAlgorithm, 1, 26},
        ZeroLoadCase{"torus:3x3x3", model::kDdsAlgorithm, 2, 26},
        ZeroLoadCase{"torus:3x3x3", model::kDiagAlgorithm, 1, 26},
        ZeroLoadCase{"star:4", model::kUniformDualPathAlgorithm, 0, 23},
        ZeroLoadCase{"star:4", model::kFixedDualPathAlgorithm, 1, 23},
        ZeroLoadCase{"star:5", model::kFixedDualPathAlgorithm, 0, 119},
        ZeroLoadCase{"star:5", model::kUniformDualPathAlgorithm, 2, 60},
        ZeroLoadCase{"star:4", model::kHpDualPathAlgorithm, 0, 23},
        ZeroLoadCase{"star:5", model::kHpDualPathAlgorithm, 1, 119},
        ZeroLoadCase{"mesh:4x4", model::kExtendedDominatingNodeAlgorithm, 0, 0},
        ZeroLoadCase{"mesh:8x8", model::kExtendedDominatingNodeAlgorithm, 0, 0},
        ZeroLoadCase{"mesh:4x4", model::kNetworkPartitioningAlgorithm, 0, 0},
        ZeroLoadCase{"mesh:8x8", model::kNetworkPartitioningAlgorithm, 0, 0}),
    zero_load_name);

// Concurrent load: several multicasts from several sources at once, with and without ejection
// back-pressure. The delivery cycles must agree within 1 % on average.
struct LoadScenario {
  std::vector<model::Plan> plans;
  sim::RunOptions options;
};

void expect_within_one_percent(const LoadScenario& s, const model::Topology& t) {
  const sim::Comparison c = sim::compare_backends(s.plans, s.options);
  expect_both_correct(c);
  EXPECT_LE(c.mean_relative_error, 0.01) << "max " << c.max_relative_error << ", first divergence "
                                         << divergence_text(c, t);
  std::cout << fmt::format("[ timing   ] {} destinations, {} differ, mean relative error {:.4f} %, max {:.4f} %\n",
                           c.destinations.size(), c.differing, 100 * c.mean_relative_error, 100 * c.max_relative_error);
}

TEST(TimingUnderLoad, EightConcurrentMulticastsWithEjectionBackPressureWithinOnePercent) {
  const model::Topology t = model::Topology::parse("mesh:8x8");
  std::mt19937_64 rng(7);
  LoadScenario s;
  for (int i = 0; i < 8; ++i) {
    s.plans.push_back(random_plan(t, i % 2 == 0 ? model::kTwoPortAlgorithm : model::kOnePortAlgorithm,
                                  i % 2 == 0 ? 2 : 1, 1 + static_cast<int>(rng() % 30), 4, rng));
  }
  s.options = fast_options();
  s.options.alpha = 2;
  s.options.gamma = 2;
  s.options.eject_stall = 0.5;
  expect_within_one_percent(s, t);
}

TEST(TimingUnderLoad, SixConcurrentPathMulticastsWithinOnePercent) {
  const model::Topology t = model::Topology::parse("mesh:8x8");
  std::mt19937_64 rng(13);
  LoadScenario s;
  for (int i = 0; i < 6; ++i) {
    const char* algorithm = i % 3 == 0   ? model::kLinAlgorithm
                            : i % 3 == 1 ? model::kDualPathAlgorithm
                                         : model::kMultiPathAlgorithm;
    s.plans.push_back(random_plan(t, algorithm, 0, 3 + static_cast<int>(rng() % 30), 4, rng));
  }
  s.options = fast_options();
  s.options.alpha = 1;
  s.options.gamma = 1;
  expect_within_one_percent(s, t);
  s.options.eject_stall = 0.4;
  expect_within_one_percent(s, t);
}

TEST(TimingUnderLoad, SixConcurrentTreesOnATorusWithEjectionBackPressureWithinOnePercent) {
  const model::Topology t = model::Topology::parse("torus:6x6");
  std::mt19937_64 rng(5);
  LoadScenario s;
  const char* algorithms[] = {model::kVhAlgorithm, model::kDiagAlgorithm, model::kDdsAlgorithm, model::kMinAlgorithm};
  for (int i = 0; i < 6; ++i) {
    s.plans.push_back(random_plan(t, algorithms[i % 4], 1 + i % 2, 5 + static_cast<int>(rng() % 20), 3, rng));
  }
  s.options = fast_options();
  s.options.alpha = 1;
  s.options.gamma = 1;
  s.options.eject_stall = 0.4;
  expect_within_one_percent(s, t);
}

// Uniform, fixed and hp-dual-path (all cycle-routed) in turn.
TEST(TimingUnderLoad, SixConcurrentHamiltonianCycleMulticastsOnS5WithEjectionBackPressureWithinOnePercent) {
  const model::Topology t = model::Topology::parse("star:5");
  std::mt19937_64 rng(23);
  LoadScenario s;
  for (int i = 0; i < 6; ++i) {
    const char* algorithm = i % 3 == 0   ? model::kUniformDualPathAlgorithm
                            : i % 3 == 1 ? model::kFixedDualPathAlgorithm
                                         : model::kHpDualPathAlgorithm;
    s.plans.push_back(random_plan(t, algorithm, 0, 5 + static_cast<int>(rng() % 40), 3, rng));
  }
  s.options = fast_options();
  s.options.alpha = 1;
  s.options.gamma = 1;
  s.options.eject_stall = 0.4;
  expect_within_one_percent(s, t);
}

// One PCP broadcast (its spines wait for the replication lock) among four unicast-based multicasts.
TEST(TimingUnderLoad, PcpBroadcastAmongConcurrentMulticastsWithinOnePercent) {
  const model::Topology t = model::Topology::parse("mesh:8x8");
  std::mt19937_64 rng(17);
  LoadScenario s;
  s.plans.push_back(random_plan(t, model::kPcpAlgorithm, 0, 63, 4, rng));
  for (int i = 0; i < 4; ++i) s.plans.push_back(random_plan(t, model::kDualPathAlgorithm, 2, 10, 4, rng));
  s.options = fast_options();
  s.options.alpha = 1;
  s.options.gamma = 1;
  s.options.eject_stall = 0.3;
  expect_within_one_percent(s, t);
}

// The comparison can fail: a model router that holds back its first switch grant one cycle is
// caught at exactly that router, in the cycle its first flit leaves on the RTL.
TEST(TimingDivergence, PerturbedModelRouterIsNamedWithItsFirstCycle) {
  const model::Topology t = model::Topology::parse("mesh:4x4");
  const model::Plan plan = model::plan(
      model::make_request(t, model::kDualPathAlgorithm, t.parse_node("1,1"),
                          {t.parse_node("0,0"), t.parse_node("3,0"), t.parse_node("2,2"), t.parse_node("0,3")}, 4,
                          model::PortModel::two_port()));
  const NodeId perturbed = t.parse_node("2,1");
  // Where the RTL's router (2,1) first sends a flit.
  sim::LinkTrace rtl_trace;
  sim::RunOptions o = fast_options();
  o.trace = &rtl_trace;
  ASSERT_EQ(sim::check_run({plan}, sim::run_multicasts({plan.request}, o)), "");
  const auto first =
      std::find_if(rtl_trace.begin(), rtl_trace.end(), [&](const sim::LinkEvent& e) { return e.router == perturbed; });
  ASSERT_NE(first, rtl_trace.end()) << "the plan must cross router (2,1)";

  sim::RunOptions perturbed_options = fast_options();
  perturbed_options.perturb_model_at = perturbed;
  const sim::Comparison c = sim::compare_backends({plan}, perturbed_options);
  ASSERT_TRUE(c.divergence.has_value());
  std::cout << "[ timing   ] first divergence: " << sim::describe(*c.divergence, t) << "\n";
  EXPECT_EQ(c.divergence->router, perturbed) << sim::describe(*c.divergence, t);
  EXPECT_EQ(c.divergence->cycle, first->cycle) << sim::describe(*c.divergence, t);
  EXPECT_TRUE(c.divergence->rtl.has_value());
  EXPECT_FALSE(c.divergence->model.has_value());
  EXPECT_GT(c.differing, 0);
  // Unperturbed, the same scenario agrees exactly.
  EXPECT_FALSE(sim::compare_backends({plan}, fast_options()).divergence.has_value());
}

}  // namespace
}  // namespace wormcast::verif
