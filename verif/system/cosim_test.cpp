// SPDX-License-Identifier: Apache-2.0
// System tests: the node firmware on networks of verilated routers, every run checked against the
// model's plans by the scoreboard (docs/firmware.md, "Tests"). Fixed seeds throughout.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <iostream>
#include <numeric>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "firmware/fw_config.hpp"
#include "model/broadcast_baselines.hpp"
#include "model/cpr_broadcast.hpp"
#include "model/errors.hpp"
#include "model/path_multicast.hpp"
#include "model/planner.hpp"
#include "model/sweep.hpp"
#include "model/tree_multicast.hpp"
#include "model/unicast_multicast.hpp"
#include "model/xy_path.hpp"
#include "sim/compare.hpp"
#include "sim/credit_delay.hpp"
#include "sim/multicast_run.hpp"
#include "sim/scoreboard.hpp"
#include "verif/system/regress.hpp"
#include "verif/system/run_record_queries.hpp"

namespace wormcast::verif {
namespace {

using model::NodeId;

// d = 0: all-port.
model::PortModel port_model(int d) {
  if (d == 0) return model::PortModel::all_port();
  if (d == 1) return model::PortModel::one_port();
  if (d == 2) return model::PortModel::two_port();
  return model::PortModel::d_port(d);
}

// A random request: source and K distinct destinations (K = N-1 for a broadcast).
model::Request random_request(const model::Topology& t, const std::string& algorithm, int d, int k, int length,
                              std::mt19937_64& rng) {
  const int n = t.node_count();
  NodeId source = static_cast<NodeId>(rng() % static_cast<std::uint64_t>(n));
  if (algorithm.rfind(model::kXyPathAlgorithm, 0) == 0) {  // XY-path runs from a corner ([5])
    const model::Coord corner{static_cast<int>(rng() % 2) * (t.size(0) - 1),
                              static_cast<int>(rng() % 2) * (t.size(1) - 1), 0};
    source = t.node_at(corner);
  }
  std::vector<NodeId> others;
  for (NodeId v = 0; v < n; ++v) {
    if (v != source) others.push_back(v);
  }
  std::shuffle(others.begin(), others.end(), rng);
  others.resize(static_cast<std::size_t>(std::min(k, n - 1)));
  return model::make_request(t, algorithm, source, others, length, port_model(d));
}

sim::RunOptions fast_options() {
  sim::RunOptions o;
  o.alpha = 12;
  o.gamma = 8;
  return o;
}

// Runs the plans together and expects every check to pass; returns the record.
sim::RunRecord run_and_check(const std::vector<model::Plan>& plans, const sim::RunOptions& options) {
  const sim::RunRecord record = sim::run_multicasts(sim::requests_of(plans), options);
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
  std::mt19937_64 rng = seeded(20261121);
  for (int run = 0; run < c.runs * regress().scale; ++run) {
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

// Every firmware algorithm on every topology it runs on: 2D meshes (4x4, 8x8), the 4x4 torus (its
// Hamiltonian-path labeling leaves the wraps unused), the 3x3x3 and 4x4x4 meshes; rd (a broadcast)
// runs on meshes only; the trees also on tori (zones and zone links: torus:4x4, 5x5, 3x3x3).
INSTANTIATE_TEST_SUITE_P(
    Topologies, FirmwareOnRtl,
    testing::Values(
        Case{"mesh:4x4", model::kUnicastAlgorithm, 1, 20, 15}, Case{"mesh:4x4", model::kUnicastAlgorithm, 2, 15, 15},
        Case{"mesh:4x4", model::kOnePortAlgorithm, 1, 20, 15}, Case{"mesh:4x4", model::kTwoPortAlgorithm, 2, 25, 15},
        Case{"mesh:4x4", model::kDPortAlgorithm, 4, 20, 15},
        Case{"mesh:4x4", model::kRecursiveDoublingAlgorithm, 1, 6, 0},
        Case{"mesh:8x8", model::kOnePortAlgorithm, 1, 6, 63}, Case{"mesh:8x8", model::kTwoPortAlgorithm, 2, 6, 63},
        Case{"mesh:8x8", model::kDPortAlgorithm, 4, 4, 63}, Case{"mesh:8x8", model::kUnicastAlgorithm, 2, 3, 20},
        Case{"mesh:8x8", model::kRecursiveDoublingAlgorithm, 1, 2, 0},
        Case{"torus:4x4", model::kTwoPortAlgorithm, 2, 15, 15}, Case{"torus:4x4", model::kOnePortAlgorithm, 1, 10, 15},
        Case{"torus:4x4", model::kUnicastAlgorithm, 1, 8, 15}, Case{"mesh:3x3x3", model::kTwoPortAlgorithm, 2, 10, 26},
        Case{"mesh:3x3x3", model::kOnePortAlgorithm, 1, 8, 26}, Case{"mesh:3x3x3", model::kUnicastAlgorithm, 2, 5, 26},
        Case{"mesh:3x3x3", model::kRecursiveDoublingAlgorithm, 1, 3, 0},
        Case{"mesh:4x4", model::kVhAlgorithm, 1, 15, 15}, Case{"mesh:4x4", model::kVhAlgorithm, 4, 10, 15},
        Case{"mesh:8x8", model::kVhAlgorithm, 1, 4, 63}, Case{"mesh:8x8", model::kVhAlgorithm, 2, 4, 63},
        Case{"mesh:3x3x3", model::kVhAlgorithm, 1, 6, 26}, Case{"mesh:3x3x3", model::kVhAlgorithm, 2, 6, 26},
        Case{"torus:4x4", model::kDPortAlgorithm, 4, 8, 15}, Case{"mesh:4x4x4", model::kTwoPortAlgorithm, 2, 4, 63},
        Case{"mesh:4x4x4", model::kRecursiveDoublingAlgorithm, 1, 1, 0},
        Case{"mesh:4x4", model::kDdsAlgorithm, 1, 15, 15}, Case{"mesh:4x4", model::kDiagAlgorithm, 1, 15, 15},
        Case{"mesh:4x4", model::kMinAlgorithm, 1, 15, 15}, Case{"mesh:8x8", model::kDdsAlgorithm, 1, 6, 40},
        Case{"mesh:8x8", model::kDiagAlgorithm, 2, 6, 40}, Case{"mesh:8x8", model::kMinAlgorithm, 4, 6, 40},
        Case{"mesh:3x3x3", model::kDdsAlgorithm, 1, 6, 26}, Case{"mesh:3x3x3", model::kDiagAlgorithm, 1, 6, 26},
        Case{"mesh:3x3x3", model::kMinAlgorithm, 2, 6, 26}, Case{"torus:4x4", model::kVhAlgorithm, 1, 10, 15},
        Case{"torus:4x4", model::kDiagAlgorithm, 2, 10, 15}, Case{"torus:4x4", model::kDdsAlgorithm, 4, 10, 15},
        Case{"torus:5x5", model::kMinAlgorithm, 1, 6, 24}, Case{"torus:3x3x3", model::kDdsAlgorithm, 2, 5, 26},
        Case{"torus:3x3x3", model::kDiagAlgorithm, 1, 5, 26},
        // Path-based (multidestination worms, intermediate reception); ports 0 = all-port.
        Case{"mesh:4x4", model::kLinAlgorithm, 0, 10, 15}, Case{"mesh:4x4", model::kDualPathAlgorithm, 1, 10, 15},
        Case{"mesh:4x4", model::kDualPathAlgorithm, 2, 10, 15}, Case{"mesh:4x4", model::kDualPathAlgorithm, 0, 10, 15},
        Case{"mesh:8x8", model::kDualPathAlgorithm, 0, 4, 63}, Case{"mesh:8x8", model::kLinAlgorithm, 1, 3, 63},
        Case{"torus:4x4", model::kDualPathAlgorithm, 2, 6, 15}, Case{"mesh:3x3x3", model::kDualPathAlgorithm, 2, 5, 26},
        Case{"mesh:4x4x4", model::kLinAlgorithm, 1, 2, 63}, Case{"mesh:4x4", model::kMultiPathAlgorithm, 0, 15, 15},
        Case{"mesh:8x8", model::kMultiPathAlgorithm, 0, 6, 63}, Case{"torus:4x4", model::kMultiPathAlgorithm, 0, 6, 15},
        // Hamiltonian cycle (mode 1, classes ph / pl): tori with an even row count.
        Case{"torus:4x4", model::kUniformDualPathAlgorithm, 0, 12, 15},
        Case{"torus:4x4", model::kFixedDualPathAlgorithm, 0, 12, 15},
        Case{"torus:4x4", model::kUniformDualPathAlgorithm, 1, 6, 15},
        Case{"torus:4x4", model::kFixedDualPathAlgorithm, 2, 6, 15},
        Case{"torus:6x6", model::kUniformDualPathAlgorithm, 0, 5, 35},
        Case{"torus:6x6", model::kFixedDualPathAlgorithm, 0, 5, 35},
        Case{"torus:5x4", model::kFixedDualPathAlgorithm, 1, 4, 19},
        // CPR lines (broadcasts): PCP's spine branches are spawned by the routers.
        Case{"mesh:4x4", model::kPcpAlgorithm, 0, 6, 0}, Case{"mesh:8x8", model::kPcpAlgorithm, 0, 3, 0},
        Case{"mesh:5x3", model::kPcpAlgorithm, 0, 4, 0},
        // 3D: 3-DBS lines (re-injected at every line node), 3-DBL columns to the layer sources.
        Case{"mesh:3x3x3", model::kThreeDbsAlgorithm, 0, 3, 0}, Case{"mesh:4x4x4", model::kThreeDbsAlgorithm, 0, 2, 0},
        Case{"mesh:3x3x3", model::kThreeDblAlgorithm, 0, 6, 26},
        Case{"mesh:3x3x3", model::kThreeDblAlgorithm, 1, 6, 26},
        Case{"mesh:3x3x3", model::kThreeDblAlgorithm, 2, 6, 26}, Case{"mesh:4x4x4", model::kThreeDblAlgorithm, 0, 3, 0},
        // XY-path: source routes from a corner (random_request draws corner sources).
        Case{"mesh:4x4", model::kXyPathAlgorithm, 0, 10, 15}, Case{"mesh:8x8", model::kXyPathAlgorithm, 0, 6, 63},
        Case{"mesh:6x4", model::kXyPathXFirstAlgorithm, 0, 6, 23},
        // Star graphs on the p3 (S4) and p4 (S5) routers: the cycle of docs/model.md, generator ports.
        Case{"star:4", model::kUniformDualPathAlgorithm, 0, 15, 23},
        Case{"star:4", model::kFixedDualPathAlgorithm, 0, 15, 23},
        Case{"star:4", model::kUniformDualPathAlgorithm, 1, 10, 23},
        Case{"star:4", model::kFixedDualPathAlgorithm, 2, 10, 23},
        Case{"star:4", model::kUniformDualPathAlgorithm, 2, 3, 0},
        Case{"star:4", model::kFixedDualPathAlgorithm, 1, 3, 0},
        Case{"star:5", model::kUniformDualPathAlgorithm, 0, 8, 119},
        Case{"star:5", model::kFixedDualPathAlgorithm, 0, 8, 119},
        Case{"star:5", model::kFixedDualPathAlgorithm, 1, 4, 60},
        Case{"star:5", model::kUniformDualPathAlgorithm, 2, 4, 60},
        Case{"star:5", model::kUniformDualPathAlgorithm, 1, 2, 0},
        // Seed 001's star-graph baseline: dual-path's lists on the cycle's Hamiltonian path, mode 1.
        Case{"star:4", model::kHpDualPathAlgorithm, 0, 15, 23}, Case{"star:4", model::kHpDualPathAlgorithm, 1, 10, 23},
        Case{"star:4", model::kHpDualPathAlgorithm, 2, 3, 0}, Case{"star:5", model::kHpDualPathAlgorithm, 0, 8, 119},
        Case{"star:5", model::kHpDualPathAlgorithm, 2, 4, 60},
        // S6 on the p5 router (720 nodes), one run: a worm crosses up to hundreds of the cycle's nodes,
        // seconds per run on the RTL. Uniform on the all-port p5 routers: timing_test.cpp.
        Case{"star:6", model::kFixedDualPathAlgorithm, 1, 1, 60},
        // EDN broadcasts: XY worms by dimension order (VC 0), YX legs source-routed in class 1.
        Case{"mesh:4x4", model::kExtendedDominatingNodeAlgorithm, 0, 10, 0},
        Case{"mesh:8x8", model::kExtendedDominatingNodeAlgorithm, 0, 5, 0},
        Case{"mesh:16x16", model::kExtendedDominatingNodeAlgorithm, 0, 1, 0},
        // Network partitioning: sub-messages by dimension order (VC 0), put together at every node.
        Case{"mesh:2x2", model::kNetworkPartitioningAlgorithm, 0, 4, 0},
        Case{"mesh:4x4", model::kNetworkPartitioningAlgorithm, 0, 10, 0},
        Case{"mesh:8x8", model::kNetworkPartitioningAlgorithm, 0, 5, 0},
        Case{"mesh:16x16", model::kNetworkPartitioningAlgorithm, 0, 1, 0}),
    case_name);

// Several sources multicast at once on a shared network, with random back-pressure at every
// ejection port: every multicast still matches its plan, and the watchdog never fires.
// A unicast-based all-port broadcast of 20-flit messages on mesh:4x4x4 queues 63 unicasts at its
// source on six channels, so two of them with the same 4-bit tag wait at the front of two injection
// VCs of the source's router at once (cycle 241 from (0,0,2)). The monitor tells them apart by their
// address (sim/network_monitor.cpp, find_worm); before, it reported "two worms from node 32 with
// tag 1" (shorter messages leave the source too soon to show it).
TEST(FirmwareOnRtl, UnicastBroadcastWithMoreWormsAtItsSourceThanTags) {
  const model::Topology t = model::Topology::parse("mesh:4x4x4");
  const NodeId source = t.node_at({0, 0, 2});
  std::vector<NodeId> others;
  for (NodeId v = 0; v < t.node_count(); ++v) {
    if (v != source) others.push_back(v);
  }
  for (const sim::Backend backend : {sim::Backend::kRtl, sim::Backend::kModel}) {
    sim::RunOptions options = fast_options();
    options.backend = backend;
    const sim::RunRecord record = run_and_check(
        {model::plan(model::make_request(t, model::kUnicastAlgorithm, source, others, 20, port_model(0)))}, options);
    EXPECT_EQ(record.worms.size(), 63u);
  }
}

TEST(FirmwareOnRtlConcurrent, EightConcurrentMulticastsUnderEjectionBackPressure) {
  const model::Topology t = model::Topology::parse("mesh:8x8");
  std::mt19937_64 rng = seeded(7);
  for (int round = 0; round < 3 * regress().scale; ++round) {
    std::vector<model::Plan> plans;
    for (int i = 0; i < 8; ++i) {
      const char* algorithm = i % 2 == 0 ? model::kTwoPortAlgorithm : model::kOnePortAlgorithm;
      const int k = 1 + static_cast<int>(rng() % 30);
      plans.push_back(model::plan(random_request(t, algorithm, i % 2 == 0 ? 2 : 1, k, 4, rng)));
    }
    sim::RunOptions o = fast_options();
    o.alpha = 2;  // short start-ups: the worms of different multicasts overlap in the network
    o.gamma = 2;
    o.eject_stall = 0.5;
    o.seed = static_cast<std::uint64_t>(round) + 1;
    SCOPED_TRACE(fmt::format("round {}", round));
    const sim::RunRecord record = run_and_check(plans, o);
    EXPECT_FALSE(record.stalled);
  }
}

TEST(FirmwareOnRtlConcurrent, RecursiveDoublingBroadcastsFromFourSourcesAtOnce) {
  const model::Topology t = model::Topology::parse("mesh:4x4");
  std::mt19937_64 rng = seeded(11);
  for (int round = 0; round < regress().scale; ++round) {
    std::vector<model::Plan> plans;
    for (int i = 0; i < 4; ++i)
      plans.push_back(model::plan(random_request(t, model::kRecursiveDoublingAlgorithm, 1, 15, 3, rng)));
    sim::RunOptions o = fast_options();
    o.alpha = 0;
    o.gamma = 0;
    o.eject_stall = 0.3;
    o.seed = static_cast<std::uint64_t>(round) + 1;
    SCOPED_TRACE(fmt::format("round {}", round));
    run_and_check(plans, o);
  }
}

// Store-and-forward trees from six sources at once on a torus. Dimension-order worms only: mixed
// with Hamiltonian-path worms on VC 0 their channel dependencies contain cycles (the router's
// network test deadlocked that way at load 0.2, verif/rtl/router_network_test.cpp).
TEST(FirmwareOnRtlConcurrent, SixConcurrentTreesOnATorusUnderEjectionBackPressure) {
  const model::Topology t = model::Topology::parse("torus:6x6");
  std::mt19937_64 rng = seeded(5);
  const char* algorithms[] = {model::kVhAlgorithm, model::kDiagAlgorithm, model::kDdsAlgorithm, model::kMinAlgorithm};
  for (int round = 0; round < regress().scale; ++round) {
    std::vector<model::Plan> plans;
    for (int i = 0; i < 6; ++i) {
      const int k = 5 + static_cast<int>(rng() % 20);
      plans.push_back(model::plan(random_request(t, algorithms[i % 4], 1 + i % 2, k, 3, rng)));
    }
    sim::RunOptions o = fast_options();
    o.alpha = 1;
    o.gamma = 1;
    o.eject_stall = 0.4;
    o.seed = static_cast<std::uint64_t>(round) + 1;
    SCOPED_TRACE(fmt::format("round {}", round));
    const sim::RunRecord record = run_and_check(plans, o);
    EXPECT_FALSE(record.stalled);
  }
}

// Dual-path, LIN and multi-path from six sources at once, all-port: worms of different multicasts share
// channels and ejection ports while each delivers at several nodes, under 40 % ejection stalls (a
// promoted worm's local copy keeps its ejection port: docs/design-log.md, 2026-11-22).
TEST(FirmwareOnRtlConcurrent, SixConcurrentDualPaths) {
  const model::Topology t = model::Topology::parse("mesh:8x8");
  std::mt19937_64 rng = seeded(13);
  for (int round = 0; round < 2 * regress().scale; ++round) {
    std::vector<model::Plan> plans;
    for (int i = 0; i < 6; ++i) {
      const int k = 3 + static_cast<int>(rng() % 30);
      const char* algorithm = i % 3 == 0   ? model::kLinAlgorithm
                              : i % 3 == 1 ? model::kDualPathAlgorithm
                                           : model::kMultiPathAlgorithm;
      plans.push_back(model::plan(random_request(t, algorithm, 0, k, 4, rng)));
    }
    sim::RunOptions o = fast_options();
    o.alpha = 1;
    o.gamma = 1;
    o.seed = static_cast<std::uint64_t>(round) + 3;
    o.eject_stall = 0.4;
    SCOPED_TRACE(fmt::format("round {}", round));
    const sim::RunRecord record = run_and_check(plans, o);
    EXPECT_FALSE(record.stalled);
  }
}

// The two PCP broadcasts from (3,7) and (2,1) on mesh:8x8 that deadlock without the replication
// lock (below), on both backends.
std::vector<model::Plan> deadlocking_pcp_pair() {
  const model::Topology t = model::Topology::parse("mesh:8x8");
  std::vector<model::Plan> plans;
  for (const char* source : {"3,7", "2,1"}) {
    plans.push_back(model::plan(model::make_request(t, model::kPcpAlgorithm, t.parse_node(source),
                                                    model::broadcast_destinations(t, t.parse_node(source)), 3,
                                                    model::PortModel::all_port())));
  }
  return plans;
}

// The pair's runs: start-ups of 1 cycle (the spines meet in the network), a 500-cycle watchdog.
sim::RunOptions pcp_pair_options(sim::Backend backend) {
  sim::RunOptions o = fast_options();
  o.alpha = 1;
  o.gamma = 1;
  o.watchdog = 500;
  o.backend = backend;
  return o;
}

// [3], Fig. 2: a spine worm the router replicates in lock step into three outputs is a
// tree-shaped worm, and concurrent broadcasts can wait on each other in a cycle. On the RTL it
// happens with just two: (3,7) and (2,1) on mesh:8x8 (spines in neighbouring columns, each one's
// row branches blocked by the other's); the spawned branches' own VCs (classes 3 and 2) do not
// prevent it. This is why the firmware takes the replication lock before it sends a spine: with the lock
// skipped (a test-only switch) the monitor's assertion of the lock's invariant names both
// multicasts and the cycle, and the watchdog then reports the deadlock, naming both spine worms.
TEST(FirmwareOnRtlConcurrent, TwoConcurrentPcpBroadcastsWithoutTheLockViolateItsInvariantAndDeadlock) {
  const std::vector<model::Plan> plans = deadlocking_pcp_pair();
  for (const sim::Backend backend : {sim::Backend::kRtl, sim::Backend::kModel}) {
    SCOPED_TRACE(sim::backend_name(backend));
    sim::RunOptions o = pcp_pair_options(backend);
    o.skip_replication_lock = true;
    const sim::RunRecord record = sim::run_multicasts(sim::requests_of(plans), o);
    ASSERT_FALSE(record.violations.empty());
    const sim::LockViolation& v = record.violations.front();
    EXPECT_EQ(v.multicast + v.other, 1) << v.message;  // the two broadcasts, one against the other
    EXPECT_NE(v.message.find(fmt::format("replication lock violated at cycle {}: worm ", v.cycle)), std::string::npos)
        << v.message;
    EXPECT_NE(v.message.find("multicast 0"), std::string::npos) << v.message;
    EXPECT_NE(v.message.find("multicast 1"), std::string::npos) << v.message;
    EXPECT_TRUE(record.stalled);
    const std::string check = sim::check_run(plans, record);
    EXPECT_EQ(check.rfind("watchdog: no flit moved for 500 cycles", 0), 0u) << check;
    EXPECT_NE(check.find("worm 3,7->3,0 (multicast 0"), std::string::npos) << check;
    EXPECT_NE(check.find("worm 2,1->2,7 (multicast 1"), std::string::npos) << check;
    EXPECT_EQ(sim::check_each_multicast(plans, record)[0], check);
  }
}

// The same pair with the lock (the default), on both backends: both complete and check, the lock's
// protocol holds (sim::check_replication_lock, part of check_run), no violation is reported, each
// source requested and was granted the lock once (neither is the coordinator, node 0,0), and the
// backends agree to the cycle.
TEST(FirmwareOnRtlConcurrent, TwoConcurrentPcpBroadcastsCompleteUnderTheReplicationLock) {
  const std::vector<model::Plan> plans = deadlocking_pcp_pair();
  std::vector<long> cycles;
  for (const sim::Backend backend : {sim::Backend::kRtl, sim::Backend::kModel}) {
    SCOPED_TRACE(sim::backend_name(backend));
    sim::RunOptions o = pcp_pair_options(backend);
    const sim::RunRecord record = run_and_check(plans, o);
    ASSERT_FALSE(record.stalled);
    EXPECT_TRUE(record.violations.empty());
    int requests = 0, grants = 0, dones = 0;
    for (const sim::ObservedWorm& w : record.worms) {
      requests += w.lock_kind == fw::MessageKind::kLockRequest ? 1 : 0;
      grants += w.lock_kind == fw::MessageKind::kLockGrant ? 1 : 0;
      dones += w.lock_kind == fw::MessageKind::kLockDone ? 1 : 0;
    }
    EXPECT_EQ(requests, 2);
    EXPECT_EQ(grants, 2);
    // (3,7): one -Y spine over 7 rows, two branches each, + its end; (2,1): +Y over 6 rows and -Y
    // over 1, two branches a row, + two ends; less the heads absorbed at the coordinator (0,0), one
    // per broadcast (the row end of row 0's -X branch).
    EXPECT_EQ(dones, (1 + 7 * 2) + (2 + 7 * 2) - 2);
    cycles.push_back(record.cycles);
  }
  EXPECT_EQ(cycles[0], cycles[1]);
}

// The last cycle a head of worm w was in the network: its last copy's head ejected (a replicating
// worm's heads end at its branches' row ends and its spine's end).
long last_head(const sim::ObservedWorm& w) {
  long last = -1;
  for (const sim::EjectedCopy& c : w.copies) last = std::max(last, c.head_cycle);
  return last;
}

// Four broadcasts with the lock (the default) and two path-based multicasts, on both backends:
// every broadcast and multicast completes and checks (the lock's protocol included); the spine
// worms of concurrent broadcasts from four sources (the deadlocking pair among them) are never in
// the network together (each waits for its source's grant, which comes when the previous
// holder's heads have all been acknowledged), and the path-based multicasts requested with them
// are not held back.
TEST(FirmwareOnRtlConcurrent, ConcurrentPcpBroadcastsFromFourSourcesCompleteUnderTheReplicationLock) {
  const model::Topology t = model::Topology::parse("mesh:8x8");
  std::mt19937_64 rng = seeded(29);
  for (int round = 0; round < 4 * regress().scale; ++round) {
    std::vector<model::Plan> plans;
    for (const char* source : {"3,7", "2,1", "6,4", "0,0"}) {
      plans.push_back(model::plan(model::make_request(t, model::kPcpAlgorithm, t.parse_node(source),
                                                      model::broadcast_destinations(t, t.parse_node(source)), 3,
                                                      model::PortModel::all_port())));
    }
    plans.push_back(model::plan(random_request(t, model::kDualPathAlgorithm, 0, 20, 4, rng)));
    plans.push_back(model::plan(random_request(t, model::kLinAlgorithm, 0, 12, 4, rng)));
    sim::RunOptions o = fast_options();
    o.alpha = 1;
    o.gamma = 1;
    o.watchdog = 500;
    o.seed = static_cast<std::uint64_t>(round / 2) + 11;
    o.eject_stall = round % 2 == 0 ? 0.0 : 0.4;
    o.backend = round % 4 < 2 ? sim::Backend::kRtl : sim::Backend::kModel;
    SCOPED_TRACE(fmt::format("round {} ({})", round, sim::backend_name(o.backend)));
    const sim::RunRecord record = run_and_check(plans, o);
    ASSERT_FALSE(record.stalled);
    std::vector<const sim::ObservedWorm*> spines;
    for (const sim::ObservedWorm& w : record.worms) {
      if (w.replicates) spines.push_back(&w);
    }
    EXPECT_EQ(spines.size(), 6u);  // (3,7) and (0,0) send one spine, (2,1) and (6,4) two
    for (const sim::ObservedWorm* a : spines) {
      for (const sim::ObservedWorm* b : spines) {
        if (a->multicast >= b->multicast) continue;
        EXPECT_TRUE(b->inject_cycle >= last_head(*a) || a->inject_cycle >= last_head(*b))
            << "spines of broadcasts " << a->multicast << " and " << b->multicast << " overlap: cycles "
            << a->inject_cycle << ".." << last_head(*a) << " and " << b->inject_cycle << ".." << last_head(*b);
      }
    }
    // Not held back: they start while the first broadcast is still delivering (a source shared
    // with a broadcast may wait for its processor, so not necessarily at cycle alpha).
    EXPECT_LT(first_injection(record, 4), last_delivery(record, 0));
    EXPECT_LT(first_injection(record, 5), last_delivery(record, 0));
  }
}

// Uniform, fixed and hp-dual-path multicasts from several sources at once on S4 and S5 under
// ejection back-pressure: Hamiltonian-cycle routing with its p/q classes on two VCs keeps them
// moving (hp-dual-path's worms are cycle worms that stay in p).
TEST(FirmwareOnRtlConcurrent, ConcurrentCycleMulticastsOnStarGraphsUnderEjectionBackPressure) {
  for (const char* spec : {"star:4", "star:5"}) {
    const model::Topology t = model::Topology::parse(spec);
    std::mt19937_64 rng(19);
    for (int round = 0; round < 2; ++round) {
      std::vector<model::Plan> plans;
      for (int i = 0; i < 4; ++i) {
        const int k = 3 + static_cast<int>(rng() % static_cast<std::uint64_t>(t.node_count() - 3));
        const char* algorithm = i % 3 == 0   ? model::kUniformDualPathAlgorithm
                                : i % 3 == 1 ? model::kFixedDualPathAlgorithm
                                             : model::kHpDualPathAlgorithm;
        plans.push_back(model::plan(random_request(t, algorithm, i % 3, k, 4, rng)));
      }
      sim::RunOptions o = fast_options();
      o.alpha = 1;
      o.gamma = 1;
      o.eject_stall = 0.4;
      o.seed = static_cast<std::uint64_t>(round) + 9;
      SCOPED_TRACE(fmt::format("{} round {}", spec, round));
      const sim::RunRecord record = run_and_check(plans, o);
      EXPECT_FALSE(record.stalled);
    }
  }
}

// Three broadcasts of `algorithm` (messages of `length` flits) from random sources at once on mesh:8x8, three rounds,
// every ejection port stalling 40 % of cycles: each round delivers every message whole, without a stall.
void ThreeConcurrentBroadcastsUnderEjectionBackPressure(const char* algorithm, std::uint64_t source_seed, int length,
                                                        std::uint64_t stall_seed) {
  const model::Topology t = model::Topology::parse("mesh:8x8");
  std::mt19937_64 rng(source_seed);
  for (int round = 0; round < 3; ++round) {
    std::vector<model::Plan> plans;
    for (int i = 0; i < 3; ++i) plans.push_back(model::plan(random_request(t, algorithm, 0, 63, length, rng)));
    sim::RunOptions o = fast_options();
    o.alpha = 1;
    o.gamma = 1;
    o.eject_stall = 0.4;
    o.seed = static_cast<std::uint64_t>(round) + stall_seed;
    SCOPED_TRACE(fmt::format("{} round {}", algorithm, round));
    const sim::RunRecord record = run_and_check(plans, o);
    EXPECT_FALSE(record.stalled);
    for (const sim::Delivery& d : record.deliveries) EXPECT_TRUE(d.payload_ok);
  }
}

// EDN broadcasts from three sources at once: XY worms in VC 0 and YX source routes in VC 1 of
// different broadcasts share channels and ejection ports, under ejection back-pressure. (Every
// broadcast's hierarchy has the same holders, so the top EDNs send for all of them at once; with
// four broadcasts more than 16 worms of one node were queued together, and the monitor, which
// tells a node's worms apart by the head's 4-bit tag, could not follow them: a harness limit.)
TEST(FirmwareOnRtlConcurrent, ThreeConcurrentEdnBroadcastsUnderEjectionBackPressure) {
  ThreeConcurrentBroadcastsUnderEjectionBackPressure(model::kExtendedDominatingNodeAlgorithm, 23, 3, 13);
}

// Three np-d broadcasts at once under ejection back-pressure: a node's sub-messages of three
// multicasts arrive interleaved and in any order, each joins its own job, and every node puts
// each message together and delivers it once.
TEST(FirmwareOnRtlConcurrent, ThreeConcurrentNpdBroadcastsUnderEjectionBackPressure) {
  ThreeConcurrentBroadcastsUnderEjectionBackPressure(model::kNetworkPartitioningAlgorithm, 29, 9, 17);
}

// The scoreboard can fail: each doctored run or record below must be reported, naming the node,
// worm or cycle.
class ScoreboardDetects : public testing::Test {
 protected:
  void SetUp() override {
    const model::Topology t = model::Topology::parse("mesh:4x4");
    plans_ = {model::plan(model::make_request(
        t, model::kTwoPortAlgorithm, t.parse_node("1,1"),
        {t.parse_node("0,0"), t.parse_node("3,0"), t.parse_node("2,2"), t.parse_node("0,3"), t.parse_node("3,3")}, 4,
        model::PortModel::two_port()))};
    record_ = sim::run_multicasts(sim::requests_of(plans_), fast_options());
    ASSERT_EQ(sim::check_run(plans_, record_), "");
  }
  std::vector<model::Plan> plans_;
  sim::RunRecord record_;
};

TEST_F(ScoreboardDetects, CorruptedPayloadAtOneReceiver) {
  sim::RunOptions o = fast_options();
  o.corrupt_tail_at = plans_[0].request.destinations[2];  // (2,2): its tail word is flipped on ejection
  const sim::RunRecord record = sim::run_multicasts(sim::requests_of(plans_), o);
  EXPECT_EQ(sim::check_run(plans_, record), fmt::format("multicast 0: node 2,2 got a corrupted payload (cycle {})",
                                                        sim::delivery_cycles(plans_[0], 0, record)[2]));
}

TEST_F(ScoreboardDetects, WrongLinkInAMonitorRecord) {
  sim::RunRecord doctored = record_;
  sim::ObservedWorm& w = doctored.worms.front();
  ASSERT_FALSE(w.hops.empty());
  w.hops.back().port ^= 1;  // the monitor "saw" the last hop leave on the opposite port
  EXPECT_NE(sim::check_run(plans_, doctored).find("link " + std::to_string(w.hops.size()) + " differs"),
            std::string::npos)
      << sim::check_run(plans_, doctored);
}

TEST_F(ScoreboardDetects, WrongClaimedOrDerivedStepMissingAndDuplicateDeliveries) {
  sim::RunRecord wrong_claim = record_;
  wrong_claim.worms.back().step += 1;
  EXPECT_NE(sim::check_run(plans_, wrong_claim).find("the firmware claims step"), std::string::npos)
      << sim::check_run(plans_, wrong_claim);

  // The monitor's causal step disagrees with the plan's (the firmware's claim left as it was).
  sim::RunRecord wrong_derived = record_;
  wrong_derived.worms.back().derived_step += 1;
  EXPECT_NE(sim::check_run(plans_, wrong_derived).find("by causality, the plan's causal step is"), std::string::npos)
      << sim::check_run(plans_, wrong_derived);

  sim::RunRecord missing = record_;
  missing.deliveries.pop_back();
  EXPECT_NE(sim::check_run(plans_, missing).find("never received the message"), std::string::npos);

  sim::RunRecord twice = record_;
  twice.deliveries.push_back(twice.deliveries.front());
  EXPECT_NE(sim::check_run(plans_, twice).find("received the message twice"), std::string::npos);

  sim::RunRecord extra_worm = record_;
  extra_worm.worms.push_back(extra_worm.worms.front());
  extra_worm.worms.back().addressed = extra_worm.worms.back().ejected_at = 4;  // (0,1): no destination
  EXPECT_NE(sim::check_run(plans_, extra_worm).find("is not in the plan"), std::string::npos);
}

// Firmware that mislabels its steps: the source's NI adds one to the step field of its sends, so
// the firmware claims step 2 for worms that causality puts in step 1.
TEST_F(ScoreboardDetects, FirmwareThatMislabelsAStepFailsWithClaimedAndDerivedStep) {
  sim::RunOptions o = fast_options();
  o.mislabel_step_at = plans_[0].request.source;
  const sim::RunRecord record = sim::run_multicasts(sim::requests_of(plans_), o);
  const std::string check = sim::check_run(plans_, record);
  EXPECT_NE(check.find("(step 1): the firmware claims step 2, the monitor derived step 1"), std::string::npos) << check;
}

// The derived steps follow the deliveries, never the payload: every worm of the unmodified run has
// the plan's step (two-port numbers its steps causally), and the mislabelled run's derived steps are
// the same as the clean run's.
TEST_F(ScoreboardDetects, DerivedStepsComeFromCausalityNotFromThePayload) {
  sim::RunOptions o = fast_options();
  o.mislabel_step_at = plans_[0].request.source;
  const sim::RunRecord mislabelled = sim::run_multicasts(sim::requests_of(plans_), o);
  ASSERT_EQ(mislabelled.worms.size(), record_.worms.size());
  int steps = 0;
  for (std::size_t i = 0; i < record_.worms.size(); ++i) {
    EXPECT_EQ(record_.worms[i].derived_step, record_.worms[i].step) << i;
    EXPECT_EQ(mislabelled.worms[i].derived_step, record_.worms[i].derived_step) << i;
    steps = std::max(steps, record_.worms[i].derived_step);
  }
  EXPECT_EQ(steps, plans_[0].metrics.steps);
}

// A multicast the plan does not describe (another source) fails the check.
TEST_F(ScoreboardDetects, RunOfAnotherPlan) {
  const model::Topology& t = plans_[0].request.topology;
  const std::vector<model::Plan> other = {
      model::plan(model::make_request(t, model::kOnePortAlgorithm, plans_[0].request.source,
                                      plans_[0].request.destinations, 4, model::PortModel::one_port()))};
  EXPECT_NE(sim::check_run(other, record_), "");
}

// The watchdog: ejection ports that never take a flit block the network; the run fails naming
// the blocked worms and where their heads are, instead of hanging.
TEST_F(ScoreboardDetects, WatchdogNamesBlockedWormsWhenEjectionNeverDrains) {
  sim::RunOptions o = fast_options();
  o.eject_stall = 1.0;
  o.watchdog = 500;
  const sim::RunRecord record = sim::run_multicasts(sim::requests_of(plans_), o);
  EXPECT_TRUE(record.stalled);
  const std::string check = sim::check_run(plans_, record);
  EXPECT_EQ(check.rfind("watchdog: no flit moved for 500 cycles", 0), 0u) << check;
  EXPECT_NE(check.find("worm 1,1->"), std::string::npos) << check;
  EXPECT_NE(check.find("tail not taken in"), std::string::npos) << check;
  EXPECT_NE(check.find("ejection port 0 VC 0: 4 flit(s) not taken"), std::string::npos) << check;
}

// The replication lock's protocol check can fail: a record of the pair's run under the lock (timing
// model), doctored one way at a time, is reported: an acknowledgement missing, a request with
// another count, a second grant, a grant that overlaps the previous holder's, a lock message that
// never arrived.
TEST(ScoreboardDetectsLock, ReplicationLockProtocolViolationsInADoctoredRecord) {
  const std::vector<model::Plan> plans = deadlocking_pcp_pair();
  sim::RunOptions o = fast_options();
  o.backend = sim::Backend::kModel;
  const sim::RunRecord record = sim::run_multicasts(sim::requests_of(plans), o);
  ASSERT_EQ(sim::check_run(plans, record), "");
  const auto first = [](sim::RunRecord& r, fw::MessageKind kind, int multicast) -> sim::ObservedWorm& {
    for (sim::ObservedWorm& w : r.worms) {
      if (w.lock_kind == kind && w.lock_multicast == multicast) return w;
    }
    throw std::logic_error("no such lock message");
  };
  const auto expect_failure = [&](const sim::RunRecord& doctored, const std::string& text) {
    const std::string check = sim::check_run(plans, doctored);
    EXPECT_NE(check.find(text), std::string::npos) << check;
  };
  {
    sim::RunRecord r = record;
    const sim::ObservedWorm& done = first(r, fw::MessageKind::kLockDone, 1);
    r.worms.erase(r.worms.begin() + (&done - r.worms.data()));
    expect_failure(r, "multicast 1: 14 lock acknowledgement(s) from the heads' ends, want 15");
  }
  {
    sim::RunRecord r = record;
    first(r, fw::MessageKind::kLockRequest, 0).lock_count += 1;
    expect_failure(r,
                   "multicast 0: the lock request expects 16 acknowledgements, the plan's replicated worms end in 15");
  }
  {
    sim::RunRecord r = record;
    r.worms.push_back(first(r, fw::MessageKind::kLockGrant, 0));
    expect_failure(r, "multicast 0: 1 lock request(s) and 2 grant(s) for source 3,7; want one of each");
  }
  {
    // The later holder's grant moved to the cycle before the earlier holder's last acknowledgement
    // arrived.
    sim::RunRecord r = record;
    sim::ObservedWorm& a = first(r, fw::MessageKind::kLockGrant, 0);
    sim::ObservedWorm& b = first(r, fw::MessageKind::kLockGrant, 1);
    const int earlier = a.inject_cycle < b.inject_cycle ? 0 : 1;
    long released = -1;
    for (const sim::ObservedWorm& w : r.worms) {
      if (w.lock_kind == fw::MessageKind::kLockDone && w.lock_multicast == earlier) {
        released = std::max(released, w.eject_cycle);
      }
    }
    (earlier == 0 ? b : a).inject_cycle = released - 1;
    expect_failure(r, fmt::format("multicast {} was granted the replication lock at cycle {}, before multicast {} "
                                  "released it (cycle {})",
                                  1 - earlier, released - 1, earlier, released));
  }
  {
    sim::RunRecord r = record;
    first(r, fw::MessageKind::kLockRequest, 1).eject_cycle = -1;
    expect_failure(r, "lock request 2,1->0,0 for multicast 1");
  }
}

// A worm no router can route (docs/rtl-modules.md, "Drained worms"): the source of a dual-path multicast
// sends its first worm with a reserved routing mode in its last address flit. The routers deliver
// that worm up to the destination where the broken flit becomes its head; that router has no
// decision and drains the rest. The run is not stalled (no watchdog: it ends when the rest of the
// traffic is done), the multicast's missing destination is reported with the router and cycle, and
// a concurrent multicast passes. On both backends.
class RouteDropReported : public testing::TestWithParam<sim::Backend> {};

TEST_P(RouteDropReported, UnroutableAddressFlitIsDrainedAndNamedWhileTheRestCompletes) {
  const model::Topology t = model::Topology::parse("mesh:4x4");
  const NodeId source = t.parse_node("1,1");
  const std::vector<model::Plan> plans = {
      model::plan(model::make_request(
          t, model::kDualPathAlgorithm, source,
          {t.parse_node("0,0"), t.parse_node("3,0"), t.parse_node("2,2"), t.parse_node("0,3"), t.parse_node("3,3")}, 4,
          model::PortModel::one_port())),
      model::plan(model::make_request(t, model::kTwoPortAlgorithm, t.parse_node("2,3"),
                                      {t.parse_node("0,1"), t.parse_node("3,1"), t.parse_node("1,2")}, 4,
                                      model::PortModel::two_port()))};
  sim::RunOptions o = fast_options();
  o.backend = GetParam();
  const sim::RunRecord clean = sim::run_multicasts(sim::requests_of(plans), o);
  ASSERT_EQ(sim::check_run(plans, clean), "");
  ASSERT_TRUE(clean.route_drops.empty());
  o.unroutable_worm_at = source;
  const sim::RunRecord record = sim::run_multicasts(sim::requests_of(plans), o);

  EXPECT_FALSE(record.stalled);
  EXPECT_TRUE(record.errors.empty()) << record.errors.front();
  ASSERT_EQ(record.route_drops.size(), 1u);
  const sim::RouteDrop& drop = record.route_drops.front();
  ASSERT_GE(drop.worm, 0) << "the monitor names the worm the router drained";
  const sim::ObservedWorm& w = record.worms[static_cast<std::size_t>(drop.worm)];
  EXPECT_EQ(w.multicast, 0);
  EXPECT_EQ(w.sender, source);
  // The plan's worm it is: its last header flit names its last destination and becomes the head at
  // the destination before it (intermediate reception), which has no decision for it.
  const auto p = std::find_if(plans[0].worms.begin(), plans[0].worms.end(), [&](const model::Worm& m) {
    return m.sender == source && m.header.destinations.front() == w.addressed;
  });
  ASSERT_NE(p, plans[0].worms.end());
  const std::vector<NodeId>& dests = p->header.destinations;
  ASSERT_GE(dests.size(), 2u) << "the test needs a worm with address flits";
  const NodeId at = dests[dests.size() - 2];
  EXPECT_EQ(drop.router, at);
  EXPECT_GE(drop.input_port, 0);
  EXPECT_LT(drop.input_port, t.port_count()) << "a network input";
  // The copy delivered at that router stays delivered; only the last destination misses out.
  const std::vector<long> cycles = sim::delivery_cycles(plans[0], 0, record);
  for (std::size_t i = 0; i < plans[0].request.destinations.size(); ++i) {
    const NodeId d = plans[0].request.destinations[i];
    EXPECT_EQ(cycles[i] < 0, d == dests.back()) << t.node_name(d);
  }
  const std::string named =
      fmt::format("router {} dropped a worm with no route at cycle {}", t.node_name(at), drop.cycle);
  const std::vector<std::string> checks = sim::check_each_multicast(plans, record);
  EXPECT_EQ(checks[0].rfind(fmt::format("multicast 0: destination {} never received the message: {}",
                                        t.node_name(dests.back()), named),
                            0),
            0u)
      << checks[0];
  EXPECT_EQ(checks[1], "");
  EXPECT_NE(sim::check_run(plans, record).find(named), std::string::npos);
  std::cout << checks[0] << "\n";
  // Promptly: no watchdog wait (3000 cycles); the run ends with the rest of the traffic, about
  // when the clean run does.
  EXPECT_LE(record.cycles, clean.cycles + 50);
  EXPECT_GT(drop.cycle, w.inject_cycle);
  EXPECT_LT(drop.cycle, record.cycles);
}

INSTANTIATE_TEST_SUITE_P(Backends, RouteDropReported, testing::Values(sim::Backend::kRtl, sim::Backend::kModel),
                         [](const testing::TestParamInfo<sim::Backend>& i) {
                           return i.param == sim::Backend::kRtl ? std::string("Rtl") : std::string("Model");
                         });

// The firmware's job limit never loses work (docs/firmware.md, "The job limit"), on both backends.
class FirmwareJobLimit : public testing::TestWithParam<sim::Backend> {};

// A one-port multicast from (0,0): its step-1 receiver relays the upper half of the chain. That
// node also sources four separate-addressing multicasts to every other node, so its four jobs wait
// for its send queue when the message arrives: it needs a fifth job. The relay holds the message
// until a job frees, then delivers and relays it: every destination of the five is served once.
TEST_P(FirmwareJobLimit, RelayThatNeedsAFifthJobHoldsTheMessageUntilOneFrees) {
  const model::Topology t = model::Topology::parse("mesh:4x4");
  std::vector<NodeId> dests;
  for (const char* d : {"1,1", "0,1", "0,2", "1,2", "2,2", "3,2", "0,3"}) dests.push_back(t.parse_node(d));
  const model::Plan relayed_plan = model::plan(
      model::make_request(t, model::kOnePortAlgorithm, t.parse_node("0,0"), dests, 16, model::PortModel::one_port()));
  const NodeId relay = relayed_plan.worms.front().header.destinations.front();
  ASSERT_TRUE(std::any_of(relayed_plan.worms.begin(), relayed_plan.worms.end(), [&](const model::Worm& w) {
    return w.sender == relay;
  })) << "the test needs the step-1 receiver to relay";
  std::vector<NodeId> others;
  for (NodeId v = 0; v < t.node_count(); ++v) {
    if (v != relay) others.push_back(v);
  }
  std::vector<model::Plan> plans;
  for (std::size_t i = 0; i < fw::kMaxJobs; ++i) {
    plans.push_back(
        model::plan(model::make_request(t, model::kUnicastAlgorithm, relay, others, 16, model::PortModel::one_port())));
  }
  plans.push_back(relayed_plan);
  const int relayed = static_cast<int>(plans.size()) - 1;
  sim::RunOptions o = fast_options();
  o.backend = GetParam();
  const sim::RunRecord record = run_and_check(plans, o);
  EXPECT_FALSE(record.stalled);
  // It was held: the relay's firmware took the message (and delivered it) later than gamma after
  // its NI had taken the whole copy in.
  long taken_in = -1, delivered = -1;
  for (const sim::ObservedWorm& w : record.worms) {
    for (const sim::EjectedCopy& c : w.copies) {
      if (w.multicast == relayed && c.node == relay) taken_in = c.tail_cycle;
    }
  }
  for (const sim::Delivery& d : record.deliveries) {
    if (d.multicast == relayed && d.node == relay) delivered = d.cycle;
  }
  ASSERT_GE(taken_in, 0);
  EXPECT_GT(delivered, taken_in + o.gamma) << "the relay had a free job: the test shows nothing";
}

// A burst of 40 single-destination unicasts from one node at cycle 0, more than its jobs and send
// queue hold at once (kMaxJobs + 8): the source's application holds what the firmware cannot take
// yet and submits it when a job frees; every one is delivered.
TEST_P(FirmwareJobLimit, BurstFromOneSourceBeyondItsJobsWaitsAtTheSource) {
  const model::Topology t = model::Topology::parse("mesh:4x4");
  const NodeId source = t.parse_node("1,2");
  std::vector<model::Plan> plans;
  for (int i = 0; i < 40; ++i) {
    const NodeId d = static_cast<NodeId>((source + 1 + i % (t.node_count() - 1)) % t.node_count());
    plans.push_back(
        model::plan(model::make_request(t, model::kUnicastAlgorithm, source, {d}, 4, model::PortModel::one_port())));
  }
  sim::RunOptions o = fast_options();
  o.backend = GetParam();
  const sim::RunRecord record = run_and_check(plans, o);
  EXPECT_FALSE(record.stalled);
  EXPECT_EQ(record.deliveries.size(), plans.size());
}

// Back to back from one source: 48 multicasts of six families (separate addressing, one-port
// halving, dual-path, a tree, rd and multi-path), all from (1,1) at cycle 0, random destination
// sets, under 30 % ejection stalls. Every destination is served exactly once, no watchdog.
TEST_P(FirmwareJobLimit, BackToBackMulticastsOfSixFamiliesFromOneSourceEachDeliveredOnce) {
  const model::Topology t = model::Topology::parse("mesh:4x4");
  const NodeId source = t.parse_node("1,1");
  std::vector<NodeId> others;
  for (NodeId v = 0; v < t.node_count(); ++v) {
    if (v != source) others.push_back(v);
  }
  const std::vector<std::pair<const char*, model::PortModel>> families = {
      {model::kUnicastAlgorithm, model::PortModel::one_port()},
      {model::kOnePortAlgorithm, model::PortModel::one_port()},
      {model::kDualPathAlgorithm, model::PortModel::all_port()},
      {model::kMinAlgorithm, model::PortModel::two_port()},
      {model::kRecursiveDoublingAlgorithm, model::PortModel::one_port()},
      {model::kMultiPathAlgorithm, model::PortModel::all_port()}};
  std::mt19937_64 rng = seeded(29);
  std::vector<model::Plan> plans;
  for (int i = 0; i < 48; ++i) {
    const auto& [algorithm, ports] = families[static_cast<std::size_t>(i) % families.size()];
    std::vector<NodeId> dests = others;
    if (std::string(algorithm) != model::kRecursiveDoublingAlgorithm) {
      std::shuffle(dests.begin(), dests.end(), rng);
      dests.resize(1 + rng() % others.size());
    }
    plans.push_back(
        model::plan(model::make_request(t, algorithm, source, dests, 1 + static_cast<int>(rng() % 6), ports)));
  }
  sim::RunOptions o = fast_options();
  o.backend = GetParam();
  o.eject_stall = 0.3;
  const sim::RunRecord record = run_and_check(plans, o);
  EXPECT_FALSE(record.stalled);
  std::size_t destinations = 0;
  for (const model::Plan& p : plans) destinations += p.request.destinations.size();
  EXPECT_EQ(record.deliveries.size(), destinations);
}

// The hangs multicast NoCs have shipped with (docs/verification.md, "Hang regressions"), each on
// the RTL and the timing model and on several topologies: every destination served exactly once,
// no watchdog.

// One topology of the hang scenarios and what runs there (model::algorithm_info's topologies).
struct HangTopology {
  const char* spec;
  // The acknowledgement scenario: its two sources, the multicast algorithms (alternating) and the
  // algorithm of the one-destination answers.
  std::array<const char*, 2> ack_sources;
  std::vector<const char*> ack_multicasts;
  const char* answer;
  // The every-node scenario's families, one per source in turn.
  std::vector<std::pair<const char*, model::PortModel>> families;
};

// Where the routers run the scenarios: a 2D mesh, a 2D torus (the Hamiltonian cycle's
// uniform/fixed use the wraps; the path families leave them unused), a 3D mesh (two local pairs per
// router, 2 VCs, 3dbl and 3dbs), and a star graph (3-port routers; only the cycle's families run
// there).
const std::vector<HangTopology>& hang_topologies() {
  static const std::vector<HangTopology> topologies = {
      {"mesh:4x4",
       {"1,1", "2,2"},
       {model::kDualPathAlgorithm},
       model::kUnicastAlgorithm,
       {{model::kUnicastAlgorithm, model::PortModel::one_port()},
        {model::kOnePortAlgorithm, model::PortModel::one_port()},
        {model::kDualPathAlgorithm, model::PortModel::all_port()},
        {model::kMultiPathAlgorithm, model::PortModel::all_port()},
        {model::kDdsAlgorithm, model::PortModel::one_port()},
        {model::kPcpAlgorithm, model::PortModel::all_port()}}},
      {"torus:4x4",
       {"1,1", "2,2"},
       {model::kDualPathAlgorithm, model::kUniformDualPathAlgorithm},
       model::kUnicastAlgorithm,
       {{model::kUnicastAlgorithm, model::PortModel::one_port()},
        {model::kOnePortAlgorithm, model::PortModel::one_port()},
        {model::kDualPathAlgorithm, model::PortModel::all_port()},
        {model::kUniformDualPathAlgorithm, model::PortModel::all_port()},
        {model::kFixedDualPathAlgorithm, model::PortModel::all_port()},
        {model::kDdsAlgorithm, model::PortModel::one_port()}}},
      {"mesh:3x3x3",
       {"1,1,1", "2,0,2"},
       {model::kDualPathAlgorithm},
       model::kUnicastAlgorithm,
       {{model::kUnicastAlgorithm, model::PortModel::one_port()},
        {model::kOnePortAlgorithm, model::PortModel::one_port()},
        {model::kDualPathAlgorithm, model::PortModel::all_port()},
        {model::kThreeDblAlgorithm, model::PortModel::all_port()},
        {model::kDdsAlgorithm, model::PortModel::one_port()},
        {model::kThreeDbsAlgorithm, model::PortModel::all_port()}}},
      {"star:4",
       {"2143", "3412"},
       {model::kUniformDualPathAlgorithm, model::kHpDualPathAlgorithm, model::kFixedDualPathAlgorithm},
       model::kUniformDualPathAlgorithm,
       {{model::kUniformDualPathAlgorithm, model::PortModel::all_port()},
        {model::kFixedDualPathAlgorithm, model::PortModel::all_port()},
        {model::kHpDualPathAlgorithm, model::PortModel::all_port()}}},
  };
  return topologies;
}

const HangTopology& hang_topology(const std::string& spec) {
  for (const HangTopology& h : hang_topologies()) {
    if (spec == h.spec) return h;
  }
  throw std::invalid_argument("no hang scenario topology " + spec);
}

using HangParam = std::tuple<sim::Backend, std::string>;

// "RtlMesh4x4", "ModelStar4": the backend, then the topology without its colon.
std::string hang_param_name(const testing::TestParamInfo<HangParam>& i) {
  std::string spec = std::get<1>(i.param);
  spec.erase(std::remove(spec.begin(), spec.end(), ':'), spec.end());
  spec[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(spec[0])));
  return (std::get<0>(i.param) == sim::Backend::kRtl ? "Rtl" : "Model") + spec;
}

class MulticastHangs : public testing::TestWithParam<HangParam> {
 protected:
  sim::Backend backend() const { return std::get<0>(GetParam()); }
  model::Topology topology() const { return model::Topology::parse(std::get<1>(GetParam())); }
  const HangTopology& shape() const { return hang_topology(std::get<1>(GetParam())); }
};

// Runs the plans' multicasts at their start cycles and checks the run against the plans: no
// stall, every destination delivered once. Returns the run's network cycles.
long expect_every_destination_once(const std::vector<model::Plan>& plans, const std::vector<long>& starts,
                                   const sim::RunOptions& o) {
  const sim::RunRecord record = sim::run_multicasts(sim::requests_of(plans), o, starts);
  EXPECT_EQ(sim::check_run(plans, record), "");
  EXPECT_FALSE(record.stalled);
  std::size_t destinations = 0;
  for (const model::Plan& p : plans) destinations += p.request.destinations.size();
  EXPECT_EQ(record.deliveries.size(), destinations);
  return record.cycles;
}

// One pass of a hang scenario: its multicasts, their start cycles and the run's options.
struct HangPass {
  std::vector<model::Plan> plans;
  std::vector<long> starts;
  sim::RunOptions options;
};

// `make test` runs a hang scenario once; `make regress` runs it again, pass after pass with new
// seeds (its traffic and its back-pressure), until its runs add up to kHangCyclesPerScale x
// WORMCAST_REGRESS_SCALE network cycles on its topology: 10^6 at make regress's scale of 20.
constexpr long kHangCyclesPerScale = 50'000;
template <class Scenario>
void run_hang_passes(Scenario scenario) {
  const long budget = regress().scale == 1 ? 0 : kHangCyclesPerScale * regress().scale;
  long cycles = 0;
  for (int pass = 0; pass == 0 || cycles < budget; ++pass) {
    const HangPass p = scenario(pass);
    cycles += expect_every_destination_once(p.plans, p.starts, p.options);
    if (testing::Test::HasFailure()) {
      ADD_FAILURE() << "in pass " << pass << " (" << cycles << " cycles run)";
      return;
    }
  }
}

// Acknowledgements back along the multicast's path: eight multicasts from alternating sources, and
// every destination of each answers its source with a one-destination worm while the multicast's
// other worm is still on its way (on a mesh or torus a Hamiltonian-path unicast back toward a lower
// label travels the multicast's channels in reverse, in the other channel network; on a torus
// every other multicast goes around the Hamiltonian cycle instead, and on a star graph the
// multicasts and answers are the cycle's worms).
TEST_P(MulticastHangs, AcknowledgementsBackAlongTheMulticastsPathEachDeliveredOnce) {
  run_hang_passes([this](int pass) {
    const model::Topology t = topology();
    const HangTopology& h = shape();
    std::mt19937_64 rng = seeded(31 + 1000 * static_cast<std::uint64_t>(pass));
    std::vector<model::Plan> plans;
    std::vector<long> starts;
    for (int m = 0; m < 8; ++m) {
      const NodeId source = t.parse_node(h.ack_sources[static_cast<std::size_t>(m % 2)]);
      const char* algorithm = h.ack_multicasts[static_cast<std::size_t>(m / 2) % h.ack_multicasts.size()];
      std::vector<NodeId> dests;
      for (NodeId v = 0; v < t.node_count(); ++v) {
        if (v != source) dests.push_back(v);
      }
      std::shuffle(dests.begin(), dests.end(), rng);
      dests.resize(6);
      const long start = 40L * m;
      plans.push_back(model::plan(model::make_request(t, algorithm, source, dests, 6, model::PortModel::all_port())));
      starts.push_back(start);
      for (std::size_t i = 0; i < dests.size(); ++i) {
        plans.push_back(
            model::plan(model::make_request(t, h.answer, dests[i], {source}, 2, model::PortModel::one_port())));
        starts.push_back(start + 10 + 5 * static_cast<long>(i));
      }
    }
    sim::RunOptions o = fast_options();
    o.backend = backend();
    o.eject_stall = 0.2;
    o.credit_delay = 3;
    o.seed += regress().seed + static_cast<std::uint64_t>(pass);
    return HangPass{plans, starts, o};
  });
}

// Every node starts a multicast at cycle 0, the topology's families mixed (on mesh:4x4 separate
// addressing, one-port halving, dual-path, multi-path, a tree, pcp), under 40 % ejection stalls.
// The hang regressions run under back-pressure on both ends of the network: ejection stalls and
// credits returned up to 3 cycles late on every network link (RunOptions::credit_delay).
TEST_P(MulticastHangs, MulticastsFromEveryNodeAtOnceUnderEjectionStallsEachDeliveredOnce) {
  run_hang_passes([this](int pass) {
    const model::Topology t = topology();
    const auto& families = shape().families;
    std::mt19937_64 rng = seeded(37 + 1000 * static_cast<std::uint64_t>(pass));
    std::vector<model::Plan> plans;
    for (NodeId source = 0; source < t.node_count(); ++source) {
      const auto& [algorithm, ports] = families[static_cast<std::size_t>(source) % families.size()];
      std::vector<NodeId> dests = model::broadcast_destinations(t, source);
      if (!model::algorithm_info(algorithm).broadcast) {
        std::shuffle(dests.begin(), dests.end(), rng);
        dests.resize(2 + rng() % 8);
      }
      plans.push_back(model::plan(model::make_request(t, algorithm, source, dests, 4, ports)));
    }
    sim::RunOptions o = fast_options();
    o.backend = backend();
    o.eject_stall = 0.4;
    o.credit_delay = 3;
    o.seed += regress().seed + static_cast<std::uint64_t>(pass);
    return HangPass{plans, std::vector<long>(plans.size(), 0), o};
  });
}

// Worms that deliver and pass along lines while unicasts hold those lines' channels: on a 2D mesh
// PCP broadcasts from three sources while unicasts run along every row (the spines' routers
// replicate into rows whose channels the unicasts hold, and synchronous replication must wait for
// them without closing a cycle); on a 3D mesh 3-DBS broadcasts from three sources while unicasts
// run along every Y and Z line (its line worms deliver at every router and pass, and line nodes
// re-inject in firmware: 3D routers never replicate). Tori and star graphs run no line algorithm
// (pcp: 2D meshes, 3dbs: 3D meshes), so this suite has no instance there.
class MulticastHangsAlongLines : public MulticastHangs {};

TEST_P(MulticastHangsAlongLines, LineBroadcastsWhileUnicastsFillTheLinesEachDeliveredOnce) {
  run_hang_passes([this](int pass) {
    const model::Topology t = topology();
    const bool flat = t.dimensions() == 2;
    std::vector<model::Plan> plans;
    std::vector<long> starts;
    const std::vector<const char*> sources =
        flat ? std::vector<const char*>{"1,1", "2,3", "0,2"} : std::vector<const char*>{"1,1,1", "2,0,2", "0,2,0"};
    for (const char* source : sources) {
      const NodeId s = t.parse_node(source);
      plans.push_back(
          model::plan(model::make_request(t, flat ? model::kPcpAlgorithm : model::kThreeDbsAlgorithm, s,
                                          model::broadcast_destinations(t, s), 8, model::PortModel::all_port())));
      starts.push_back(20L * static_cast<long>(plans.size() - 1));
    }
    // The lines: rows (dimension 0) on a 2D mesh, the Y and Z lines (dimensions 1, 2) on a 3D one;
    // each line's unicast runs from one end to the other, the direction alternating by round and line.
    const std::vector<int> dims = flat ? std::vector<int>{0} : std::vector<int>{1, 2};
    for (int round = 0; round < 3; ++round) {
      for (const int d : dims) {
        int line = 0;
        for (NodeId v = 0; v < t.node_count(); ++v) {
          model::Coord c = t.coord(v);
          if (c[static_cast<std::size_t>(d)] != 0) continue;  // one node per line: its start
          const bool ascending = (round + line++) % 2 == 0;
          model::Coord end = c;
          end[static_cast<std::size_t>(d)] = t.size(d) - 1;
          const NodeId from = ascending ? v : t.node_at(end);
          const NodeId to = ascending ? t.node_at(end) : v;
          plans.push_back(model::plan(
              model::make_request(t, model::kUnicastAlgorithm, from, {to}, 12, model::PortModel::one_port())));
          starts.push_back(15L * round);
        }
      }
    }
    sim::RunOptions o = fast_options();
    o.backend = backend();
    o.eject_stall = 0.2;
    o.credit_delay = 3;
    o.seed += regress().seed + static_cast<std::uint64_t>(pass);  // the plans are fixed: new back-pressure
    return HangPass{plans, starts, o};
  });
}

// --- Back-pressure on the network links (sim/credit_delay.hpp) -----------------------------------

// Random credit returns on two routers' links: every credit passes exactly once, matched in order
// per VC to the oldest one held, at most the maximum delay late; some wait, and the same seed gives
// the same delays.
TEST(CreditDelay, EveryCreditPassesOnceInOrderWithinTheMaximumDelay) {
  constexpr unsigned kPorts = 2, kVcs = 2, kMax = 5;
  constexpr unsigned kBits = kPorts * kVcs;
  std::mt19937_64 rng = seeded(41);
  sim::CreditDelay delay(2, kPorts, kVcs, kMax, 9), twin(2, kPorts, kVcs, kMax, 9);
  std::vector<std::deque<long>> outstanding(2 * kBits);  // per router and bit: the cycles returned
  long returned = 0, passed = 0;
  std::vector<long> waits(kMax + 1, 0);
  for (long cycle = 0; cycle < 4'000; ++cycle) {
    for (model::NodeId r = 0; r < 2; ++r) {
      // Each bit set one cycle in four for 3,000 cycles, then none while the held ones drain.
      const std::uint64_t a = rng(), b2 = rng();
      const std::uint32_t bits = cycle < 3'000 ? static_cast<std::uint32_t>(a & b2 & ((1u << kBits) - 1)) : 0;
      for (unsigned b = 0; b < kBits; ++b) {
        if (((bits >> b) & 1) == 0) continue;
        outstanding[r * kBits + b].push_back(cycle);
        ++returned;
      }
      const std::uint32_t out = delay.pass(r, cycle, bits);
      ASSERT_EQ(twin.pass(r, cycle, bits), out) << "cycle " << cycle;
      for (unsigned b = 0; b < kBits; ++b) {
        if (((out >> b) & 1) == 0) continue;
        std::deque<long>& q = outstanding[r * kBits + b];
        ASSERT_FALSE(q.empty()) << "a credit passed that was never returned, cycle " << cycle;
        const long wait = cycle - q.front();
        q.pop_front();
        ASSERT_LE(wait, static_cast<long>(kMax)) << "cycle " << cycle;
        ++waits[static_cast<std::size_t>(wait)];
        ++passed;
      }
    }
  }
  EXPECT_EQ(passed, returned);
  EXPECT_GT(returned, 5'000);
  EXPECT_EQ(delay.held(0) + delay.held(1), 0u);
  for (unsigned w = 0; w <= kMax; ++w) EXPECT_GT(waits[w], 100) << "no credit waited " << w << " cycles";
  EXPECT_GT(delay.held_credit_cycles(), 0u);
  sim::CreditDelay none(1, kPorts, kVcs, 0, 9);
  EXPECT_FALSE(none.active());
  EXPECT_EQ(none.pass(0, 0, 0b1011), 0b1011u);
}

std::vector<model::Plan> dual_path_from_every_node(const model::Topology& t, std::uint64_t seed) {
  std::mt19937_64 rng = seeded(seed);
  std::vector<model::Plan> plans;
  for (NodeId source = 0; source < t.node_count(); ++source) {
    std::vector<NodeId> dests;
    for (NodeId v = 0; v < t.node_count(); ++v) {
      if (v != source) dests.push_back(v);
    }
    std::shuffle(dests.begin(), dests.end(), rng);
    dests.resize(5);
    plans.push_back(
        model::plan(model::make_request(t, model::kDualPathAlgorithm, source, dests, 8, model::PortModel::all_port())));
  }
  return plans;
}

// A dual-path multicast of 8 flits from every node of mesh:4x4 at once, with credits up to 6 cycles
// late on every network link: every destination served once on both backends; the senders held
// fewer credits (credit-cycles held back) and the run takes longer than without; and the RTL and
// the timing model stay cycle-identical under it (the same links every cycle, the same credits held).
TEST(NetworkBackPressure, LateCreditsSlowTheRunAndTheRtlAndModelStayCycleIdentical) {
  const model::Topology t = model::Topology::parse("mesh:4x4");
  const std::vector<model::Plan> plans = dual_path_from_every_node(t, 43);
  sim::RunOptions o = fast_options();
  const sim::RunRecord prompt = sim::run_multicasts(sim::requests_of(plans), o);
  ASSERT_EQ(sim::check_run(plans, prompt), "");
  o.credit_delay = 6;
  o.seed = 17;
  sim::LinkTrace traces[2];
  std::uint64_t held[2] = {0, 0};
  long cycles[2] = {0, 0};
  for (int b = 0; b < 2; ++b) {
    o.backend = b == 0 ? sim::Backend::kRtl : sim::Backend::kModel;
    o.trace = &traces[b];
    o.held_credit_cycles = &held[b];
    const sim::RunRecord record = sim::run_multicasts(sim::requests_of(plans), o);
    EXPECT_EQ(sim::check_run(plans, record), "") << sim::backend_name(o.backend);
    EXPECT_FALSE(record.stalled);
    cycles[b] = record.cycles;
  }
  EXPECT_GT(held[0], 1'000u);
  EXPECT_EQ(held[0], held[1]);
  EXPECT_EQ(cycles[0], cycles[1]);
  EXPECT_GT(cycles[0], prompt.cycles);
  const std::optional<sim::Divergence> d = sim::first_divergence(traces[0], traces[1], 4);
  EXPECT_FALSE(d.has_value()) << sim::describe(*d, t);
  fmt::print(
      "mesh:4x4, 16 dual-path multicasts: {} cycles, {} with credits up to 6 cycles late ({} credit-cycles held)\n",
      prompt.cycles, cycles[0], held[0]);
}

TEST(NetworkBackPressure, ACreditDelayOutOfRangeIsRefused) {
  const model::Topology t = model::Topology::parse("mesh:4x4");
  sim::RunOptions o = fast_options();
  o.credit_delay = sim::kMaxCreditDelay + 1;
  try {
    sim::run_multicasts(sim::requests_of(dual_path_from_every_node(t, 43)), o);
    FAIL() << "a credit delay beyond the limit was accepted";
  } catch (const model::RequestError& e) {
    EXPECT_EQ(std::string(e.what()),
              fmt::format("credit delay {} is not in 0..{} cycles", sim::kMaxCreditDelay + 1, sim::kMaxCreditDelay));
  }
}

INSTANTIATE_TEST_SUITE_P(Topologies, MulticastHangs,
                         testing::Combine(testing::Values(sim::Backend::kRtl, sim::Backend::kModel),
                                          testing::Values("mesh:4x4", "torus:4x4", "mesh:3x3x3", "star:4")),
                         hang_param_name);
INSTANTIATE_TEST_SUITE_P(Topologies, MulticastHangsAlongLines,
                         testing::Combine(testing::Values(sim::Backend::kRtl, sim::Backend::kModel),
                                          testing::Values("mesh:4x4", "mesh:3x3x3")),
                         hang_param_name);

INSTANTIATE_TEST_SUITE_P(Backends, FirmwareJobLimit, testing::Values(sim::Backend::kRtl, sim::Backend::kModel),
                         [](const testing::TestParamInfo<sim::Backend>& i) {
                           return i.param == sim::Backend::kRtl ? std::string("Rtl") : std::string("Model");
                         });

// Every algorithm of the planner's registry runs on the RTL and passes its check: on the first of
// the small networks its planner accepts, from a middle node or else a corner (xy-path), with its
// default port model or else another, a broadcast for a broadcast algorithm and three destinations
// otherwise.
TEST(FirmwareOnRtl, EveryRegisteredAlgorithmRunsOnTheRtlAndPassesItsCheck) {
  const std::vector<model::Topology> networks = {
      model::Topology::parse("mesh:4x4"), model::Topology::parse("torus:4x4"), model::Topology::parse("mesh:3x3x3"),
      model::Topology::parse("star:4")};
  for (const model::AlgorithmInfo& info : model::algorithms()) {
    std::optional<model::Plan> plan;
    for (std::size_t n = 0; n < networks.size() && !plan; ++n) {
      const model::Topology& t = networks[n];
      for (const model::NodeId source : {t.node_count() / 2, 0}) {
        const std::vector<model::NodeId> dests =
            info.broadcast ? model::broadcast_destinations(t, source)
                           : model::draw_samples(t, model::SourceChoice::fixed(source), 3, 1, 7).front().destinations;
        for (const model::PortModel& ports : {info.default_ports, model::PortModel::all_port(),
                                              model::PortModel::two_port(), model::PortModel::one_port()}) {
          try {
            plan = model::plan(model::make_request(t, info.name, source, dests, 4, ports));
            break;
          } catch (const model::ModelError&) {
          }
        }
        if (plan) break;
      }
    }
    ASSERT_TRUE(plan.has_value()) << info.name << " plans on none of mesh:4x4, torus:4x4, mesh:3x3x3, star:4";
    const sim::RunRecord record = sim::run_multicasts({plan->request}, fast_options());
    EXPECT_EQ(sim::check_run({*plan}, record), "") << info.name << " on " << plan->request.topology.spec() << " from "
                                                   << plan->request.topology.node_name(plan->request.source);
    EXPECT_EQ(record.deliveries.size(), plan->request.destinations.size()) << info.name;
  }
}

// Long messages: the papers' 120 flits (seed 001) and 2,000 bytes = 250 words of 8 bytes
// (seed 003) on the RTL, checked against the plan (the scoreboard also compares every delivered word
// with the multicast's data): path-based (dual-path, all-port; 3-DBL, whose layer sources relay),
// unicast-based (two-port: every relay re-sends from its relay buffer) and a store-and-forward tree.
TEST(FirmwareOnRtlLong, PapersMessageLengthsOnPathUnicastAndTreeAlgorithms) {
  std::mt19937_64 rng = seeded(15);
  struct LongCase {
    const char* topology;
    const char* algorithm;
    int ports;
    int k;
  };
  for (const LongCase& c :
       {LongCase{"mesh:4x4", model::kDualPathAlgorithm, 0, 9}, LongCase{"mesh:4x4", model::kTwoPortAlgorithm, 2, 9},
        LongCase{"mesh:4x4", model::kVhAlgorithm, 1, 7}, LongCase{"mesh:3x3x3", model::kThreeDblAlgorithm, 0, 12}}) {
    for (const int length : {120, 250}) {
      SCOPED_TRACE(fmt::format("{} {} L = {}", c.topology, c.algorithm, length));
      const model::Topology t = model::Topology::parse(c.topology);
      const model::Plan plan = model::plan(random_request(t, c.algorithm, c.ports, c.k, length, rng));
      const sim::RunRecord record = run_and_check({plan}, fast_options());
      EXPECT_EQ(record.deliveries.size(), static_cast<std::size_t>(c.k));
      for (const sim::Delivery& d : record.deliveries) EXPECT_TRUE(d.payload_ok);
    }
  }
}

// Eight 250-word broadcasts by one-port and two-port chains at once under ejection back-pressure,
// each with its own data: every delivery carries its multicast's words (the scoreboard's payload
// check). That a relay holding two messages keeps each apart is shown deterministically by
// Firmware.WaitingRelaysOfTwoLongMulticastsKeepTheirOwnData (here the NI's send queues rarely hold
// a relay long enough for two of its jobs to wait at once).
TEST(FirmwareOnRtlLong, EightConcurrentLongChainMulticastsDeliverTheirOwnData) {
  const model::Topology t = model::Topology::parse("mesh:4x4");
  std::mt19937_64 rng = seeded(16);
  std::vector<model::Plan> plans;
  for (int i = 0; i < 8; ++i) {
    plans.push_back(model::plan(
        random_request(t, i % 2 == 0 ? model::kTwoPortAlgorithm : model::kOnePortAlgorithm, 2 - i % 2, 15, 250, rng)));
  }
  sim::RunOptions o = fast_options();
  o.eject_stall = 0.2;
  const sim::RunRecord record = run_and_check(plans, o);
  EXPECT_EQ(record.deliveries.size(), 120u);
  for (const sim::Delivery& d : record.deliveries) EXPECT_TRUE(d.payload_ok);
}

// A broadcast is a flag (docs/firmware.md, "Long messages and large broadcasts"): recursive
// doubling on mesh:16x8x9 names 1,151 destinations, more than the firmware's list of 1,024 nodes
// holds, and runs on the RTL against the model's plan.
TEST(FirmwareOnRtlLong, BroadcastBeyondTheListOnAThreeDMesh) {
  const model::Topology t = model::Topology::parse("mesh:16x8x9");
  std::mt19937_64 rng = seeded(17);
  const model::Plan plan =
      model::plan(random_request(t, model::kRecursiveDoublingAlgorithm, 1, t.node_count() - 1, 4, rng));
  ASSERT_GT(plan.request.destinations.size() + 1, fw::kMaxChain);
  sim::RunOptions o = fast_options();
  o.alpha = 0;  // no start-ups: 1,152 routers for about 150 cycles instead of about 1,000
  o.gamma = 0;
  const sim::RunRecord record = run_and_check({plan}, o);
  EXPECT_EQ(record.deliveries.size(), static_cast<std::size_t>(t.node_count() - 1));
}

// The lists are sized from the network (docs/firmware.md, "Long messages and large broadcasts"):
// 3-DBL's all-port broadcast on mesh:8x8x8 lists 511 destinations (its column worms carry the
// destinations of up to four layers in their address fields, the layer worms up to 32 address
// flits) and passes against its plan, on the timing model and on the RTL.
class FirmwareListsFromTheNetwork : public testing::TestWithParam<sim::Backend> {};

TEST_P(FirmwareListsFromTheNetwork, ThreeDblBroadcastOnEightCubedMesh) {
  const model::Topology t = model::Topology::parse("mesh:8x8x8");
  std::vector<NodeId> others;
  const NodeId source = t.node_at({3, 3, 3});
  for (NodeId v = 0; v < t.node_count(); ++v) {
    if (v != source) others.push_back(v);
  }
  const model::Plan plan =
      model::plan(model::make_request(t, model::kThreeDblAlgorithm, source, others, 4, model::PortModel::all_port()));
  sim::RunOptions o = fast_options();
  o.backend = GetParam();
  o.alpha = 0;  // no start-ups: a few hundred cycles of 512 routers
  o.gamma = 0;
  const sim::RunRecord record = run_and_check({plan}, o);
  EXPECT_EQ(record.deliveries.size(), 511u);
}

// The thesis's 20x20 mesh (seed 004): XY-path (both partition orders, all-port) and VH (one-port)
// from the origin with K = 40 and K = 370 destinations (the thesis's largest), against their plans.
// XY-path's routes and VH's carried trees pass 256 nodes here.
TEST_P(FirmwareListsFromTheNetwork, ThesisTwentyByTwentyXyPathAndVh) {
  const model::Topology t = model::Topology::parse("mesh:20x20");
  std::mt19937_64 rng = seeded(4);
  for (const int k : {40, 370}) {
    std::vector<NodeId> others;
    for (NodeId v = 1; v < t.node_count(); ++v) others.push_back(v);
    std::shuffle(others.begin(), others.end(), rng);
    others.resize(static_cast<std::size_t>(k));
    for (const char* algorithm : {model::kXyPathAlgorithm, model::kXyPathXFirstAlgorithm, model::kVhAlgorithm}) {
      SCOPED_TRACE(fmt::format("{} K {}", algorithm, k));
      const model::PortModel ports =
          std::string(algorithm) == model::kVhAlgorithm ? model::PortModel::one_port() : model::PortModel::all_port();
      const model::Plan plan = model::plan(model::make_request(t, algorithm, 0, others, 20, ports));
      sim::RunOptions o = fast_options();
      o.backend = GetParam();
      o.alpha = 0;  // the thesis's times: D + L and L per store-and-forward step
      o.gamma = 0;
      const sim::RunRecord record = run_and_check({plan}, o);
      EXPECT_EQ(record.deliveries.size(), static_cast<std::size_t>(k));
    }
  }
}

// A broadcast of lin, dual-path or 3-DBL keeps no list (label ranges, node ranges in the column
// worms' address fields, a layer source recognising its whole layer): on networks of more nodes
// than the list holds, 3-DBL from inside mesh:16x8x9 and dual-path from inside mesh:33x32 pass
// against their plans, on the timing model (about 0.6 s; the RTL takes about 18 s).
TEST(FirmwareListsFromTheNetworkModel, BroadcastsWithoutAListBeyondTheListsLength) {
  for (const auto& [spec, algorithm, source] :
       {std::tuple{"mesh:16x8x9", model::kThreeDblAlgorithm, model::Coord{5, 2, 4}},
        std::tuple{"mesh:33x32", model::kDualPathAlgorithm, model::Coord{17, 9, 0}}}) {
    SCOPED_TRACE(spec);
    const model::Topology t = model::Topology::parse(spec);
    ASSERT_GT(static_cast<std::size_t>(t.node_count()), fw::kMaxChain);
    const NodeId from = t.node_at(source);
    std::vector<NodeId> others;
    for (NodeId v = 0; v < t.node_count(); ++v) {
      if (v != from) others.push_back(v);
    }
    const model::Plan plan =
        model::plan(model::make_request(t, algorithm, from, others, 4, model::PortModel::all_port()));
    sim::RunOptions o = fast_options();
    o.backend = sim::Backend::kModel;
    o.alpha = 0;
    o.gamma = 0;
    const sim::RunRecord record = run_and_check({plan}, o);
    EXPECT_EQ(record.deliveries.size(), others.size());
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, FirmwareListsFromTheNetwork,
                         testing::Values(sim::Backend::kModel, sim::Backend::kRtl),
                         [](const testing::TestParamInfo<sim::Backend>& info) {
                           return info.param == sim::Backend::kRtl ? std::string("Rtl") : std::string("Model");
                         });

// Bad input keeps its clear errors: a message longer than the maximum names it and the setting
// that raises it; a multicast that lists more destinations than the firmware's list, and a tree
// source on a network larger than its tables, name theirs with the valid range.
TEST(FirmwareOnRtlErrors, LimitsAreNamedWithTheSettingsThatRaiseThem) {
  const auto refused = [](const model::Request& r) -> std::string {
    try {
      sim::run_multicasts({r}, fast_options());
    } catch (const model::UnsupportedError& e) {
      return e.what();
    }
    return "ran";
  };
  const model::Topology small = model::Topology::parse("mesh:4x4");
  const int too_long = static_cast<int>(fw::kMaxDataWords) + 1;
  EXPECT_EQ(
      refused(model::make_request(small, model::kDualPathAlgorithm, 0, {1, 2}, too_long, model::PortModel::one_port())),
      fmt::format("message length {} exceeds the firmware's maximum of {} data words ({} bytes; raise "
                  "WORMCAST_FW_MAX_DATA_WORDS, firmware/fw_config.hpp)",
                  too_long, fw::kMaxDataWords, 8 * fw::kMaxDataWords));
  const model::Topology big = model::Topology::parse("mesh:33x32");  // 1,056 nodes
  std::vector<NodeId> many;
  for (NodeId v = 1; v <= static_cast<NodeId>(fw::kMaxChain); ++v) many.push_back(v);
  EXPECT_EQ(refused(model::make_request(big, model::kDualPathAlgorithm, 0, many, 2, model::PortModel::one_port())),
            fmt::format("{} destinations exceed the firmware's list of {} nodes: dual-path lists its destinations, "
                        "1..{} of them (raise WORMCAST_FW_MAX_CHAIN, firmware/fw_config.hpp, or use a broadcast "
                        "algorithm)",
                        fw::kMaxChain, fw::kMaxChain, fw::kMaxChain - 1));
  EXPECT_EQ(refused(model::make_request(big, model::kVhAlgorithm, 0, {1, 40}, 2, model::PortModel::one_port())),
            fmt::format("mesh:33x32 has 1056 nodes, more than the {} of the firmware's tables vh plans over at the "
                        "source (raise WORMCAST_FW_MAX_GRID_NODES, firmware/fw_config.hpp)",
                        fw::kMaxGridNodes));
  // The routers' limit, not the firmware's: a side of 2^CoordW = 64 nodes is the longest.
  const model::Topology too_wide = model::Topology::parse("mesh:65x2");
  EXPECT_EQ(refused(model::make_request(too_wide, model::kLinAlgorithm, 0, {1, 2}, 2, model::PortModel::one_port())),
            "mesh:65x2: 65 nodes along dimension 0 exceed the routers' 64 (a coordinate is noc_pkg::CoordW = 6 bits)");
}

// A side of 64 nodes, the longest (noc_router DimSizeW = CoordW + 1 bits per size): with sizes in
// CoordW bits it read as 0 and every dimension-order worm was drained with no route at its source's
// router. rd broadcasts by dimension order along both sides, uniform mixes cycle and
// dimension-order worms.
TEST(FirmwareOnRtl, DimensionOrderOnASideOf64Nodes) {
  for (const char* spec : {"mesh:64x2", "torus:64x2"}) {
    const model::Topology t = model::Topology::parse(spec);
    std::vector<NodeId> others;
    for (NodeId v = 1; v < t.node_count(); ++v) others.push_back(v);
    const char* algorithm = t.is_torus() ? model::kUniformDualPathAlgorithm : model::kRecursiveDoublingAlgorithm;
    SCOPED_TRACE(fmt::format("{} {}", spec, algorithm));
    run_and_check({model::plan(model::make_request(t, algorithm, 0, others, 2, model::PortModel::one_port()))},
                  fast_options());
  }
}

TEST(FirmwareOnRtlErrors, AnAlgorithmWithoutFirmwareIsNamedWithTheOnesTheFirmwareRuns) {
  EXPECT_FALSE(sim::firmware_supports("three-port"));
  EXPECT_EQ(sim::no_firmware_message("three-port"),
            "algorithm 'three-port' has no node firmware; the firmware runs: 3dbl, 3dbs, d-port, dds, diag, dual-path, "
            "edn, fixed, hp-dual-path, lin, min, multi-path, np-d, one-port, pcp, rd, two-port, unicast, uniform, vh, "
            "xy-path, "
            "xy-path-x-first");
}

// S3 has two network ports, S6 five: no verilated router variant for them.
TEST(FirmwareOnRtlErrors, StarGraphWithTooFewPortsIsAClearError) {
  const model::Topology t = model::Topology::parse("star:3");
  const model::Plan p = model::plan(
      model::make_request(t, model::kUniformDualPathAlgorithm, 0, {1, 2, 3}, 2, model::PortModel::one_port()));
  try {
    sim::run_multicasts({p.request}, fast_options());
    FAIL() << "star:3 ran";
  } catch (const model::UnsupportedError& e) {
    EXPECT_EQ(
        std::string(e.what()),
        "star:3 has 2 network ports; the RTL runs star:4, star:5 and star:6 (verilated routers with 3, 4 and 5 network "
        "ports)");
  }
}

}  // namespace
}  // namespace wormcast::verif
