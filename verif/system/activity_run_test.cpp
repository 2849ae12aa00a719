// SPDX-License-Identifier: Apache-2.0
// Activity-driven evaluation (docs/timing.md, "Activity-driven evaluation") in the two simulations
// that use it: the firmware's multicast runs (sim/multicast_run.hpp) and the synthetic traffic on a
// RouterNetwork (sim/traffic.hpp). Each runs twice on the same backend, once with every router
// clocked every cycle and once with the quiescent routers skipped: every valid router output of
// every cycle (the link trace), every delivery and every packet's latency must be the same. The
// router-level proof, every output of every router in every cycle under traffic of every routing
// mode, is verif/system/timing_lockstep_test.cpp's ActivityLockstep.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "model/topology.hpp"
#include "sim/backend.hpp"
#include "sim/compare.hpp"
#include "sim/multicast_run.hpp"
#include "sim/random_mix.hpp"
#include "sim/traffic.hpp"

namespace wormcast::verif {
namespace {

bool same_link(const sim::Link& a, const sim::Link& b) {
  return a.valid == b.valid && a.vc == b.vc && a.flit == b.flit && a.stream == b.stream;
}

// Random mixes (every algorithm the firmware runs on the topology from several sources, background
// unicasts, random start cycles and ejection stalls) give the same link trace, cycle count and
// deliveries skipped as in full, on both backends.
TEST(ActivityRuns, RandomMixesGiveTheSameTraceSkippedAsFull) {
  for (const char* spec : {"mesh:4x4", "torus:4x4", "mesh:3x3x3", "star:4", "star:5"}) {
    const model::Topology t = model::Topology::parse(spec);
    for (const sim::Backend backend : {sim::Backend::kRtl, sim::Backend::kModel}) {
      sim::MixOptions options;
      options.size = 1;  // one multicast of each algorithm, and the background unicasts
      const sim::RandomMix mix = sim::random_mix(t, 3, options);
      sim::LinkTrace traces[2];
      sim::RunRecord records[2];
      std::uint64_t evaluated[2] = {0, 0}, router_cycles[2] = {0, 0};
      for (const sim::Evaluation evaluation : {sim::Evaluation::kFull, sim::Evaluation::kActivity}) {
        const int k = evaluation == sim::Evaluation::kFull ? 0 : 1;
        sim::RunOptions o = mix.options;
        o.backend = backend;
        o.evaluation = evaluation;
        o.trace = &traces[k];
        o.evaluated = &evaluated[k];
        o.router_cycles = &router_cycles[k];
        records[k] = sim::run_multicasts(mix.requests, o, mix.start_cycles);
      }
      const std::string what = fmt::format("{} on {}", sim::backend_title(backend), spec);
      EXPECT_TRUE(records[0].errors.empty()) << what << ": " << records[0].errors.front();
      EXPECT_FALSE(records[0].stalled) << what;
      EXPECT_GT(traces[0].size(), 100u) << what;
      ASSERT_EQ(traces[0].size(), traces[1].size()) << what;
      for (std::size_t i = 0; i < traces[0].size(); ++i) {
        const sim::LinkEvent &a = traces[0][i], &b = traces[1][i];
        ASSERT_TRUE(a.cycle == b.cycle && a.router == b.router && a.port == b.port && same_link(a.link, b.link))
            << what << ": event " << i << " in cycle " << a.cycle << " (full) / " << b.cycle << " (activity)";
      }
      EXPECT_EQ(records[0].cycles, records[1].cycles) << what;
      EXPECT_EQ(records[0].deliveries.size(), records[1].deliveries.size()) << what;
      EXPECT_EQ(records[1].errors, records[0].errors) << what;
      // Full evaluation clocks every router every cycle; activity skipped most of them.
      EXPECT_EQ(evaluated[0], router_cycles[0]) << what;
      EXPECT_LT(evaluated[1], router_cycles[1] * 3 / 4) << what;
    }
  }
}

// Synthetic traffic on a RouterNetwork: uniform unicasts and dual-path multicasts, every measured
// packet delivered in the same cycle skipped as in full, on both backends.
TEST(ActivityRuns, SyntheticTrafficDeliversEveryPacketInTheSameCycleSkippedAsFull) {
  for (const double multicast_fraction : {0.0, 0.2}) {
    for (const sim::Backend backend : {sim::Backend::kRtl, sim::Backend::kModel}) {
      sim::TrafficConfig c;
      c.topology = "mesh:4x4";
      c.load = 0.05;
      c.length = 6;
      c.multicast_fraction = multicast_fraction;
      c.destinations = 3;
      c.warmup = 200;
      c.measure = 1500;
      c.keep_packets = true;
      sim::TrafficResult results[2];
      std::uint64_t evaluated[2] = {0, 0}, router_cycles[2] = {0, 0};
      for (const sim::Evaluation evaluation : {sim::Evaluation::kFull, sim::Evaluation::kActivity}) {
        const int k = evaluation == sim::Evaluation::kFull ? 0 : 1;
        const std::unique_ptr<sim::RouterBackend> b = sim::make_backend(backend);
        b->set_evaluation(evaluation);
        results[k] = sim::run_traffic(c, *b);
        evaluated[k] = b->evaluated;
        router_cycles[k] = b->router_cycles;
      }
      const std::string what =
          fmt::format("{}, multicast fraction {}", sim::backend_title(backend), multicast_fraction);
      EXPECT_GT(results[0].delivered_packets, 50) << what;
      EXPECT_EQ(results[0].cycles, results[1].cycles) << what;
      ASSERT_EQ(results[0].packets.size(), results[1].packets.size()) << what;
      for (std::size_t i = 0; i < results[0].packets.size(); ++i) {
        ASSERT_EQ(results[0].packets[i].delivered, results[1].packets[i].delivered) << what << ": packet " << i;
      }
      // Full evaluation clocks every router every cycle; at this load most are skipped.
      EXPECT_EQ(evaluated[0], router_cycles[0]) << what;
      EXPECT_LT(evaluated[1], router_cycles[1] / 2) << what;
    }
  }
}

TEST(ActivityRuns, EvaluationNamesParseAndABadOneIsNamed) {
  EXPECT_EQ(sim::parse_evaluation("full"), sim::Evaluation::kFull);
  EXPECT_EQ(sim::parse_evaluation("activity"), sim::Evaluation::kActivity);
  EXPECT_EQ(sim::evaluation_name(sim::Evaluation::kActivity), "activity");
  try {
    sim::parse_evaluation("lazy");
    FAIL() << "'lazy' parsed";
  } catch (const std::exception& e) {
    EXPECT_EQ(std::string(e.what()), "evaluation 'lazy' is not one of: full, activity");
  }
}

}  // namespace
}  // namespace wormcast::verif
