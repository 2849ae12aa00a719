// System tests: the node firmware on networks of verilated routers, every run checked against the
// model's plans by the scoreboard (docs/firmware.md, "Tests"). Fixed seeds throughout.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "model/planner.hpp"
#include "sim/rtl_cosim.hpp"
#include "sim/scoreboard.hpp"

namespace wormcast::verif {
namespace {

using model::NodeId;

model::PortModel port_model(int d) {
  if (d == 1) return model::PortModel::one_port();
  if (d == 2) return model::PortModel::two_port();
  return model::PortModel::d_port(d);
}

// A random request: source and K distinct destinations (K = N-1 for a broadcast).
model::Request random_request(const model::Topology& t, const std::string& algorithm, int d, int k, int length,
                              std::mt19937_64& rng) {
  const int n = t.node_count();
  const NodeId source = static_cast<NodeId>(rng() % static_cast<std::uint64_t>(n));
  std::vector<NodeId> others;
  for (NodeId v = 0; v < n; ++v) {
    if (v != source) others.push_back(v);
  }
  std::shuffle(others.begin(), others.end(), rng);
  others.resize(static_cast<std::size_t>(std::min(k, n - 1)));
  return model::make_request(t, algorithm, source, others, length, port_model(d));
}

sim::RtlRunOptions fast_options() {
  sim::RtlRunOptions o;
  o.alpha = 12;
  o.gamma = 8;
  return o;
}

// Runs the plans together and expects every check to pass; returns the record.
sim::RunRecord run_and_check(const std::vector<model::Plan>& plans, const sim::RtlRunOptions& options) {
  const sim::RunRecord record = sim::run_on_rtl(plans, options);
  EXPECT_EQ(sim::check_run(plans, record), "");
  for (std::size_t i = 0; i < plans.size(); ++i) {
    for (const long c : sim::delivery_cycles(plans[i], static_cast<int>(i), record)) EXPECT_GT(c, 0);
  }
  return record;
}

struct Case {
  const char* topology;
  const char* algorithm;
  int ports;
  int runs;
  int max_k;  // 0: broadcast
};

class FirmwareOnRtl : public testing::TestWithParam<Case> {};

TEST_P(FirmwareOnRtl, RandomMulticastsMatchThePlan) {
  const Case c = GetParam();
  const model::Topology t = model::Topology::parse(c.topology);
  std::mt19937_64 rng(20261121);
  for (int run = 0; run < c.runs; ++run) {
    const int k = c.max_k == 0 ? t.node_count() - 1 : 1 + static_cast<int>(rng() % static_cast<std::uint64_t>(c.max_k));
    const model::Plan plan =
        model::plan(random_request(t, c.algorithm, c.ports, k, 1 + static_cast<int>(rng() % 6), rng));
    SCOPED_TRACE(fmt::format("run {}: source {} K {}", run, t.node_name(plan.request.source), k));
    run_and_check({plan}, fast_options());
    if (HasFailure()) return;
  }
}

std::string case_name(const testing::TestParamInfo<Case>& info) {
  std::string s = fmt::format("{}_{}_{}", info.param.topology, info.param.algorithm, info.param.ports);
  for (char& ch : s) {
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  }
  return s;
}

INSTANTIATE_TEST_SUITE_P(Mesh4x4, FirmwareOnRtl,
                         testing::Values(Case{"mesh:4x4", "unicast", 1, 20, 15},
                                         Case{"mesh:4x4", "two-port", 2, 20, 15}),
                         case_name);

}  // namespace
}  // namespace wormcast::verif
