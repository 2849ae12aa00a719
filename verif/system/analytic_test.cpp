// SPDX-License-Identifier: Apache-2.0
// The analytic latency (the plans' contention-free formula under model::LatencyParameters::rtl,
// docs/timing.md "The analytic opinion") against the RTL at zero load: every algorithm the firmware
// runs, on each demo network that runs it, one random multicast and one broadcast (a broadcast
// algorithm: the broadcast only), alone on the network. The multicast latency (last delivery) and
// every destination's delivery cycle must be within the algorithm's bound of the RTL's: 5 % unless
// wider_bounds() names it with the reason docs/timing.md gives. Two start-ups: the showcase's, and
// short ones under which the network's share of the latency dominates.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "model/broadcast_baselines.hpp"
#include "model/cpr_broadcast.hpp"
#include "model/errors.hpp"
#include "model/path_multicast.hpp"
#include "model/planner.hpp"
#include "model/unicast_multicast.hpp"
#include "model/xy_path.hpp"
#include "sim/compare.hpp"
#include "sim/multicast_run.hpp"
#include "sim/scoreboard.hpp"

namespace wormcast::verif {
namespace {

using model::NodeId;

constexpr int kLength = 20;  // the showcase's message length
constexpr std::uint64_t kSeed = 20261124;

// Start-ups (alpha, gamma): the showcase's (the papers' T3D ratio), then short ones that leave the
// network's share of the latency in front.
struct Startup {
  long alpha, gamma;
};
const std::vector<Startup> kStartups{{227, 227}, {12, 8}};

// The largest relative error allowed for the multicast latency (last delivery) and for any
// destination's delivery cycle.
struct Bounds {
  double latency = 0.05;
  double destination = 0.05;
};

// Algorithms the analytic latency cannot hold to 5 %, with their bounds at each start-up of
// kStartups (docs/timing.md, "The analytic opinion", says why and what was measured):
// - unicast, d-port: their all-port plans send several worms of one step over a shared channel.
//   The formula queues them in the order it costs them (step, then plan order); the routers'
//   round-robin arbitration may serve two heads that arrive together the other way round, and a
//   head that waits mid-route holds the channels behind it.
// - the multidestination worms (intermediate reception): each promotion stalls the worm a cycle,
//   and the stall reaches the copies upstream while their tails are still on the way; the formula
//   charges a copy only the promotions before it. The last destination, and so the multicast
//   latency, is exact.
// - np-d: neither the latency nor a destination is exact. Its DDN steps' diagonal worms share
//   their X partners' links (queueing order, as above), and a node's processor takes its three or
//   four sub-messages one gamma after another when they arrive together, which the formula does
//   not model; the two are not measured apart (docs/timing.md).
const std::map<std::string, std::vector<Bounds>>& wider_bounds() {
  static const Bounds multidestination_short{0.05, 0.15};
  static const std::map<std::string, std::vector<Bounds>> bounds{
      {model::kUnicastAlgorithm, {{}, {0.10, 0.60}}},
      {model::kDPortAlgorithm, {{0.05, 0.10}, {0.05, 0.60}}},
      {model::kLinAlgorithm, {{}, multidestination_short}},
      {model::kDualPathAlgorithm, {{}, multidestination_short}},
      {model::kHpDualPathAlgorithm, {{}, multidestination_short}},
      {model::kMultiPathAlgorithm, {{}, multidestination_short}},
      {model::kUniformDualPathAlgorithm, {{}, multidestination_short}},
      {model::kFixedDualPathAlgorithm, {{}, multidestination_short}},
      {model::kThreeDblAlgorithm, {{}, multidestination_short}},
      {model::kNetworkPartitioningAlgorithm, {{0.10, 0.15}, {0.10, 0.35}}}};
  return bounds;
}

Bounds bounds_of(const std::string& algorithm, std::size_t startup) {
  const auto it = wider_bounds().find(algorithm);
  return it == wider_bounds().end() ? Bounds{} : it->second.at(startup);
}

struct Case {
  std::string topology;
  std::string algorithm;
  int multicast_size = 0;  // K of the random multicast; 0: the algorithm broadcasts only
};

// The demo networks (docs/firmware.md, "make run: the showcase") and their K.
const std::vector<std::pair<std::string, int>> kNetworks{
    {"mesh:8x8", 10}, {"torus:4x4", 6}, {"mesh:4x4x4", 10}, {"star:4", 6}};

// A source the algorithm accepts: a corner for XY-path ([5]), else drawn.
NodeId draw_source(const model::Topology& t, const std::string& algorithm, std::mt19937_64& rng) {
  if (algorithm.rfind(model::kXyPathAlgorithm, 0) == 0 && !t.is_star()) return t.node_at({t.size(0) - 1, 0, 0});
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

// The index of the destination whose analytic cycle is farthest from the RTL's, relatively.
std::size_t worst_destination(const std::vector<double>& analytic, const std::vector<long>& rtl) {
  std::size_t at = 0;
  for (std::size_t i = 1; i < rtl.size(); ++i) {
    if (sim::relative_error(analytic[i], rtl[i]) > sim::relative_error(analytic[at], rtl[at])) at = i;
  }
  return at;
}

double worst_error(const std::vector<double>& analytic, const std::vector<long>& rtl) {
  const std::size_t at = worst_destination(analytic, rtl);
  return sim::relative_error(analytic[at], rtl[at]);
}

// Every (network, algorithm) whose planner accepts the network's broadcast from the test's source.
std::vector<Case> cases() {
  std::vector<Case> out;
  for (const auto& [topology, k] : kNetworks) {
    const model::Topology t = model::Topology::parse(topology);
    for (const model::AlgorithmInfo& info : model::algorithms()) {
      if (!sim::firmware_supports(info.name)) continue;
      std::mt19937_64 rng(kSeed);
      const NodeId source = draw_source(t, info.name, rng);
      if (!widest_plan(t, info.name, source, destination_sets(t, source, 0, rng).front())) continue;
      out.push_back({topology, info.name, info.broadcast ? 0 : k});
    }
  }
  return out;
}

class AnalyticZeroLoad : public testing::TestWithParam<Case> {};

TEST_P(AnalyticZeroLoad, AnalyticLatencyIsWithinTheBoundOfTheRtlPerDestinationAndMulticast) {
  const Case c = GetParam();
  const model::Topology t = model::Topology::parse(c.topology);
  std::mt19937_64 rng(kSeed);
  const NodeId source = draw_source(t, c.algorithm, rng);
  int ran = 0;
  const std::vector<std::vector<NodeId>> sets = destination_sets(t, source, c.multicast_size, rng);
  for (std::size_t startup = 0; startup < kStartups.size(); ++startup) {
    const auto [alpha, gamma] = kStartups[startup];
    const Bounds bound = bounds_of(c.algorithm, startup);
    for (const std::vector<NodeId>& destinations : sets) {
      const std::optional<model::Plan> plan = widest_plan(t, c.algorithm, source, destinations);
      if (!plan) continue;
      sim::RunOptions options;
      options.alpha = alpha;
      options.gamma = gamma;
      sim::RunRecord record;
      try {
        record = sim::run_multicasts({plan->request}, options);
      } catch (const model::UnsupportedError&) {
        continue;  // a network the firmware does not run this algorithm on
      }
      ++ran;
      ASSERT_EQ(sim::check_run({*plan}, record), "");
      const std::vector<long> rtl = sim::delivery_cycles(*plan, 0, record);
      const std::vector<double> analytic = sim::analytic_delivery_cycles(*plan, alpha, gamma);
      ASSERT_EQ(rtl.size(), analytic.size());
      const long rtl_latency = *std::max_element(rtl.begin(), rtl.end());
      const double analytic_latency = *std::max_element(analytic.begin(), analytic.end());
      const std::string what = fmt::format("{} K = {} from {} ({}), alpha {} gamma {}: RTL latency {}, analytic {}",
                                           c.algorithm, destinations.size(), t.node_name(source),
                                           plan->request.ports.name(), alpha, gamma, rtl_latency, analytic_latency);
      fmt::print("{} ({:+.2f} %, worst destination {:.2f} %)\n", what,
                 100 * (analytic_latency - static_cast<double>(rtl_latency)) / static_cast<double>(rtl_latency),
                 100 * worst_error(analytic, rtl));
      EXPECT_LE(sim::relative_error(analytic_latency, rtl_latency), bound.latency) << what;
      const std::size_t at = worst_destination(analytic, rtl);
      EXPECT_LE(sim::relative_error(analytic[at], rtl[at]), bound.destination)
          << what << "; destination " << t.node_name(destinations[at]) << ": RTL " << rtl[at] << ", analytic "
          << analytic[at];
    }
  }
  EXPECT_GT(ran, 0) << "the RTL runs " << c.algorithm << " on " << c.topology << " nowhere";
}

std::string case_name(const testing::TestParamInfo<Case>& info) {
  std::string s = info.param.topology + "_" + info.param.algorithm;
  for (char& ch : s) {
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  }
  return s;
}

INSTANTIATE_TEST_SUITE_P(EveryAlgorithmOnTheDemoNetworks, AnalyticZeroLoad, testing::ValuesIn(cases()), case_name);

// The replication lock's round trip (LatencyParameters::replication_lock, docs/timing.md): PCP
// broadcasts on mesh:8x8 from the coordinator (0,0) (no round trip), from its row and its column,
// from the far corner and from inner nodes, each alone on the RTL at both start-ups: every
// destination's delivery cycle is the analytic one, and from every source but the coordinator the
// spines' rows come a round trip later than without the lock.
TEST(AnalyticLock, PcpBroadcastDeliveriesIncludeTheLockRoundTripExactly) {
  const model::Topology t = model::Topology::parse("mesh:8x8");
  for (const char* name : {"0,0", "5,0", "0,6", "7,7", "3,7", "2,1", "6,4"}) {
    const NodeId source = t.parse_node(name);
    std::mt19937_64 rng(kSeed);  // unused: a broadcast draws nothing
    const model::Plan plan = *widest_plan(t, model::kPcpAlgorithm, source, destination_sets(t, source, 0, rng).front());
    for (const auto& [alpha, gamma] : kStartups) {
      sim::RunOptions options;
      options.alpha = alpha;
      options.gamma = gamma;
      const sim::RunRecord record = sim::run_multicasts({plan.request}, options);
      ASSERT_EQ(sim::check_run({plan}, record), "");
      const std::vector<long> rtl = sim::delivery_cycles(plan, 0, record);
      const std::vector<double> analytic = sim::analytic_delivery_cycles(plan, alpha, gamma);
      model::Request unlocked = plan.request;
      unlocked.latency = model::LatencyParameters::rtl(static_cast<double>(alpha), static_cast<double>(gamma));
      unlocked.latency.replication_lock = false;
      const model::PlanMetrics without = model::compute_metrics(unlocked, plan.worms);
      for (std::size_t i = 0; i < rtl.size(); ++i) {
        EXPECT_EQ(static_cast<double>(rtl[i]), analytic[i])
            << "pcp from " << name << ", alpha " << alpha << ", gamma " << gamma << ", destination "
            << t.node_name(plan.request.destinations[i]);
        const bool spine_row = t.coord(plan.request.destinations[i])[1] != t.coord(source)[1];
        if (source != model::kReplicationLockCoordinator && spine_row) {
          EXPECT_GT(analytic[i], without.destinations[i].latency) << t.node_name(plan.request.destinations[i]);
        } else {
          EXPECT_EQ(analytic[i], without.destinations[i].latency) << t.node_name(plan.request.destinations[i]);
        }
      }
    }
  }
}

}  // namespace
}  // namespace wormcast::verif
