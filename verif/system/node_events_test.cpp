// SPDX-License-Identifier: Apache-2.0
// Event-driven node visits (docs/timing.md, "Event-driven node interface"): a multicast
// run visits only the nodes that can act in a cycle (sim::NodeVisits::kActive, the default) and must
// be exactly the run that visits every node every cycle (kEvery): the same worm records (every
// field, every copy and hop), deliveries, route drops, errors, lock violations, cycle count and
// watchdog verdict, and the same valid router output in every cycle (the link trace), on both
// backends, for every algorithm the firmware runs, under random ejection stalls (whose draws a
// skipped node must not shift) and with the harness's faults. kEvery also checks, every cycle, that
// no node outside the busy set became busy (a run error if one did).
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "model/broadcast_baselines.hpp"
#include "model/cpr_broadcast.hpp"
#include "model/path_multicast.hpp"
#include "model/plan.hpp"
#include "model/planner.hpp"
#include "model/topology.hpp"
#include "model/unicast_multicast.hpp"
#include "sim/backend.hpp"
#include "sim/multicast_run.hpp"
#include "sim/node_interface.hpp"
#include "sim/random_mix.hpp"
#include "sim/scoreboard.hpp"

namespace wormcast::verif {
namespace {

using model::NodeId;

bool same_link(const sim::Link& a, const sim::Link& b) {
  return a.valid == b.valid && a.vc == b.vc && a.flit == b.flit && a.stream == b.stream;
}

bool same_copies(const std::vector<sim::EjectedCopy>& a, const std::vector<sim::EjectedCopy>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].node != b[i].node || a[i].head_cycle != b[i].head_cycle || a[i].tail_cycle != b[i].tail_cycle) {
      return false;
    }
  }
  return true;
}

// The first field in which worm records a and b differ ("" when none does).
std::string worm_difference(const sim::ObservedWorm& a, const sim::ObservedWorm& b) {
  const auto differs = [](const char* field, const auto& x, const auto& y) {
    return x == y ? std::string() : std::string(field);
  };
  for (const std::string& d : {differs("multicast", a.multicast, b.multicast),
                               differs("sender", a.sender, b.sender),
                               differs("addressed", a.addressed, b.addressed),
                               differs("ejected_at", a.ejected_at, b.ejected_at),
                               same_copies(a.copies, b.copies) ? std::string() : std::string("copies"),
                               differs("route_end", a.route_end, b.route_end),
                               differs("step", a.step, b.step),
                               differs("derived_step", a.derived_step, b.derived_step),
                               differs("replicates", a.replicates, b.replicates),
                               differs("lock_kind", a.lock_kind, b.lock_kind),
                               differs("lock_multicast", a.lock_multicast, b.lock_multicast),
                               differs("lock_holder", a.lock_holder, b.lock_holder),
                               differs("lock_count", a.lock_count, b.lock_count),
                               differs("channel", a.channel, b.channel),
                               differs("sequence", a.sequence, b.sequence),
                               differs("hops", a.hops, b.hops),
                               differs("hop_cycles", a.hop_cycles, b.hop_cycles),
                               differs("route_drop", a.route_drop, b.route_drop),
                               differs("inject_cycle", a.inject_cycle, b.inject_cycle),
                               differs("eject_cycle", a.eject_cycle, b.eject_cycle)}) {
    if (!d.empty()) return d;
  }
  return "";
}

// The first difference between two complete run records ("" when there is none).
std::string record_difference(const sim::RunRecord& a, const sim::RunRecord& b) {
  if (a.cycles != b.cycles) return fmt::format("cycles {} / {}", a.cycles, b.cycles);
  if (a.stalled != b.stalled) return fmt::format("stalled {} / {}", a.stalled, b.stalled);
  if (a.worms.size() != b.worms.size()) return fmt::format("{} / {} worms", a.worms.size(), b.worms.size());
  for (std::size_t i = 0; i < a.worms.size(); ++i) {
    const std::string d = worm_difference(a.worms[i], b.worms[i]);
    if (!d.empty()) return fmt::format("worm {}: {}", i, d);
  }
  if (a.deliveries.size() != b.deliveries.size()) {
    return fmt::format("{} / {} deliveries", a.deliveries.size(), b.deliveries.size());
  }
  for (std::size_t i = 0; i < a.deliveries.size(); ++i) {
    const sim::Delivery &x = a.deliveries[i], &y = b.deliveries[i];
    if (x.multicast != y.multicast || x.node != y.node || x.cycle != y.cycle || x.payload_ok != y.payload_ok) {
      return fmt::format("delivery {}: multicast {} at node {} in cycle {} / multicast {} at node {} in cycle {}", i,
                         x.multicast, x.node, x.cycle, y.multicast, y.node, y.cycle);
    }
  }
  if (a.route_drops.size() != b.route_drops.size()) {
    return fmt::format("{} / {} route drops", a.route_drops.size(), b.route_drops.size());
  }
  for (std::size_t i = 0; i < a.route_drops.size(); ++i) {
    const sim::RouteDrop &x = a.route_drops[i], &y = b.route_drops[i];
    if (x.router != y.router || x.input_port != y.input_port || x.vc != y.vc || x.cycle != y.cycle ||
        x.worm != y.worm) {
      return fmt::format("route drop {}", i);
    }
  }
  if (a.errors != b.errors)
    return fmt::format("errors: '{}' / '{}'", fmt::join(a.errors, "; "), fmt::join(b.errors, "; "));
  if (a.violations.size() != b.violations.size()) {
    return fmt::format("{} / {} lock violations", a.violations.size(), b.violations.size());
  }
  for (std::size_t i = 0; i < a.violations.size(); ++i) {
    const sim::LockViolation &x = a.violations[i], &y = b.violations[i];
    if (x.multicast != y.multicast || x.other != y.other || x.cycle != y.cycle || x.message != y.message) {
      return fmt::format("lock violation {}", i);
    }
  }
  return "";
}

// The first difference between two link traces ("" when there is none).
std::string trace_difference(const sim::LinkTrace& a, const sim::LinkTrace& b) {
  for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
    const sim::LinkEvent &x = a[i], &y = b[i];
    if (x.cycle != y.cycle || x.router != y.router || x.port != y.port || !same_link(x.link, y.link)) {
      return fmt::format("link event {}: router {} port {} in cycle {} / router {} port {} in cycle {}", i, x.router,
                         x.port, x.cycle, y.router, y.port, y.cycle);
    }
  }
  return a.size() == b.size() ? "" : fmt::format("{} / {} link events", a.size(), b.size());
}

// One run visiting every node and one visiting the busy ones, otherwise the same options.
struct Pair {
  sim::RunRecord every, active;
  std::uint64_t visits[2] = {0, 0};  // every, active
  std::uint64_t node_cycles[2] = {0, 0};
};

// Runs the pair and expects the same record and link trace; `what` names it in failures.
Pair run_pair(const std::vector<model::Request>& requests, sim::RunOptions options,
              const std::vector<long>& start_cycles, const std::string& what) {
  Pair pair;
  sim::LinkTrace traces[2];
  for (const sim::NodeVisits visits : {sim::NodeVisits::kEvery, sim::NodeVisits::kActive}) {
    const int k = visits == sim::NodeVisits::kEvery ? 0 : 1;
    options.visits = visits;
    options.trace = &traces[k];
    options.node_visits = &pair.visits[k];
    options.node_cycles = &pair.node_cycles[k];
    (k == 0 ? pair.every : pair.active) = sim::run_multicasts(requests, options, start_cycles);
  }
  EXPECT_EQ(record_difference(pair.every, pair.active), "") << what << " (every node / busy nodes)";
  EXPECT_EQ(trace_difference(traces[0], traces[1]), "") << what << " (every node / busy nodes)";
  EXPECT_GT(traces[0].size(), 0u) << what;
  // The reference visited every node in every cycle, the event-driven run fewer.
  EXPECT_EQ(pair.visits[0], pair.node_cycles[0]) << what;
  EXPECT_EQ(pair.node_cycles[1], pair.node_cycles[0]) << what;
  EXPECT_LT(pair.visits[1], pair.node_cycles[1]) << what;
  return pair;
}

const sim::Backend kBackends[] = {sim::Backend::kRtl, sim::Backend::kModel};

// Random mixes (every algorithm the firmware runs on the topology from several sources, background
// unicasts, random start cycles), without ejection stalls and with two stall probabilities, whose
// draws a skipped node must keep in step: the same run either way, each one checked by the
// scoreboard. The busy nodes are a small share of the node cycles.
TEST(NodeEvents, RandomMixesGiveTheSameRunVisitingOnlyTheBusyNodes) {
  for (const char* spec : {"mesh:4x4", "torus:4x4", "mesh:3x3x3", "star:4", "star:5"}) {
    const model::Topology t = model::Topology::parse(spec);
    sim::MixOptions mix_options;
    mix_options.size = 1;
    const sim::RandomMix mix = sim::random_mix(t, 11, mix_options);
    std::vector<model::Plan> plans;
    for (const model::Request& r : mix.requests) plans.push_back(model::plan(r));
    for (const sim::Backend backend : kBackends) {
      for (const double stall : {0.0, 0.2, 0.5}) {
        const std::string what = fmt::format("{} on {}, stall {}", sim::backend_title(backend), spec, stall);
        sim::RunOptions o = mix.options;
        o.backend = backend;
        o.eject_stall = stall;
        const Pair pair = run_pair(mix.requests, o, mix.start_cycles, what);
        EXPECT_EQ(sim::check_run(plans, pair.active), "") << what;
        EXPECT_LT(pair.visits[1], pair.node_cycles[1] / 2) << what;
      }
    }
  }
}

// Each algorithm the firmware runs on an 8x8 mesh and torus, alone, one 24-flit multicast with a
// 0.3 ejection stall: a run whose worms are long and whose stall draws outnumber the busy nodes'
// by far. The same run either way; the visits are under a fifth of the node cycles, but np-d's
// under a third: its 189 worms (rd's and edn's broadcasts: 63) keep each sender awake through an
// alpha of 20 cycles and each receiver through a gamma of 10, about 5,700 visits (measured 6,453,
// 29 % of the node cycles).
TEST(NodeEvents, EachAlgorithmAloneGivesTheSameRunOnEightByEightNetworks) {
  for (const char* spec : {"mesh:8x8", "torus:8x8"}) {
    const model::Topology t = model::Topology::parse(spec);
    for (const std::string& algorithm : sim::mix_algorithms(t)) {
      sim::MixOptions mix_options;
      mix_options.size = 1;
      mix_options.algorithms = {algorithm};
      mix_options.unicasts_per_node = 0;
      mix_options.max_length = 24;
      const sim::RandomMix mix = sim::random_mix(t, 5, mix_options);
      for (const sim::Backend backend : kBackends) {
        const std::string what = fmt::format("{} on {} ({})", algorithm, spec, sim::backend_title(backend));
        sim::RunOptions o = mix.options;
        o.backend = backend;
        o.eject_stall = 0.3;
        const Pair pair = run_pair(mix.requests, o, mix.start_cycles, what);
        EXPECT_EQ(sim::check_run({model::plan(mix.requests.front())}, pair.active), "") << what;
        EXPECT_LT(pair.visits[1], pair.node_cycles[1] / (algorithm == model::kNetworkPartitioningAlgorithm ? 3 : 5))
            << what;
      }
    }
  }
}

// The runs that end badly end alike: two PCP broadcasts without the replication lock (a lock
// violation, then the watchdog's stall report naming every node's queues and partial worms), a worm
// a router drains (a route drop), a corrupted tail and a mislabelled step (scoreboard faults).
TEST(NodeEvents, FaultsStallsAndDrainsGiveTheSameRecord) {
  const model::Topology mesh8 = model::Topology::parse("mesh:8x8");
  std::vector<model::Request> pcp;
  for (const char* source : {"3,7", "2,1"}) {
    const NodeId s = mesh8.parse_node(source);
    pcp.push_back(model::make_request(mesh8, model::kPcpAlgorithm, s, model::broadcast_destinations(mesh8, s), 3,
                                      model::PortModel::all_port()));
  }
  const model::Topology mesh4 = model::Topology::parse("mesh:4x4");
  const NodeId source = mesh4.parse_node("1,1");
  const std::vector<model::Request> pair = {
      model::make_request(mesh4, model::kDualPathAlgorithm, source,
                          {mesh4.parse_node("0,0"), mesh4.parse_node("3,0"), mesh4.parse_node("2,2"),
                           mesh4.parse_node("0,3"), mesh4.parse_node("3,3")},
                          4, model::PortModel::one_port()),
      model::make_request(mesh4, model::kTwoPortAlgorithm, mesh4.parse_node("2,3"),
                          {mesh4.parse_node("0,1"), mesh4.parse_node("3,1"), mesh4.parse_node("1,2")}, 4,
                          model::PortModel::two_port())};
  for (const sim::Backend backend : kBackends) {
    const std::string name = sim::backend_title(backend);
    sim::RunOptions o;
    o.alpha = 1;
    o.gamma = 1;
    o.watchdog = 500;
    o.backend = backend;
    o.skip_replication_lock = true;
    const Pair deadlock = run_pair(pcp, o, {}, "PCP pair without the lock on the " + name);
    EXPECT_TRUE(deadlock.active.stalled) << name;
    EXPECT_FALSE(deadlock.active.violations.empty()) << name;
    ASSERT_FALSE(deadlock.active.errors.empty()) << name;
    EXPECT_NE(deadlock.active.errors.front().find("watchdog"), std::string::npos) << deadlock.active.errors.front();

    sim::RunOptions f;
    f.alpha = 12;
    f.gamma = 8;
    f.eject_stall = 0.25;
    f.backend = backend;
    f.unroutable_worm_at = source;
    const Pair drained = run_pair(pair, f, {}, "a drained worm on the " + name);
    EXPECT_EQ(drained.active.route_drops.size(), 1u) << name;
    f.unroutable_worm_at = model::kNoNode;
    f.corrupt_tail_at = mesh4.parse_node("2,2");
    const Pair corrupt = run_pair(pair, f, {}, "a corrupted tail on the " + name);
    EXPECT_NE(sim::check_run({model::plan(pair[0]), model::plan(pair[1])}, corrupt.active), "") << name;
    f.corrupt_tail_at = model::kNoNode;
    f.mislabel_step_at = source;
    const Pair mislabel = run_pair(pair, f, {}, "a mislabelled step on the " + name);
    EXPECT_NE(sim::check_run({model::plan(pair[0]), model::plan(pair[1])}, mislabel.active), "") << name;
  }
}

// `wormcast run --evaluation full` is the loop before event-driven visits too: Evaluation::kFull
// visits every node whatever RunOptions::visits says.
TEST(NodeEvents, FullEvaluationVisitsEveryNode) {
  const model::Topology t = model::Topology::parse("mesh:4x4");
  const std::vector<model::Request> requests = {model::make_request(t, model::kDualPathAlgorithm, t.parse_node("1,1"),
                                                                    {t.parse_node("0,0"), t.parse_node("3,3")}, 4,
                                                                    model::PortModel::one_port())};
  for (const sim::Evaluation evaluation : {sim::Evaluation::kFull, sim::Evaluation::kActivity}) {
    sim::RunOptions o;
    o.backend = sim::Backend::kModel;
    o.evaluation = evaluation;
    std::uint64_t visits = 0, node_cycles = 0;
    o.node_visits = &visits;
    o.node_cycles = &node_cycles;
    const sim::RunRecord record = sim::run_multicasts(requests, o);
    EXPECT_TRUE(record.errors.empty());
    EXPECT_EQ(node_cycles, static_cast<std::uint64_t>(16 * (record.cycles + 1)));
    if (evaluation == sim::Evaluation::kFull) {
      EXPECT_EQ(visits, node_cycles);
    } else {
      EXPECT_LT(visits, node_cycles / 4);
    }
  }
}

// The ejection stall's draw is the one std::uniform_real_distribution<double> made from one draw
// of the engine in libstdc++, which the runs used before: a run with stalls is the run it was.
TEST(NodeEvents, StallDrawIsTheStandardDistributionsDraw) {
#ifndef __GLIBCXX__
  GTEST_SKIP() << "the runs before drew through libstdc++'s distribution";
#endif
  std::mt19937_64 a(42), b(42);
  std::uniform_real_distribution<double> u(0, 1);
  for (int i = 0; i < 1'000'000; ++i) ASSERT_EQ(u(a), sim::ejection_stall_draw(b)) << "draw " << i;
  // Discarding n draws skips exactly n calls.
  std::mt19937_64 c(7), d(7);
  for (int i = 0; i < 1000; ++i) sim::ejection_stall_draw(c);
  d.discard(1000);
  EXPECT_EQ(sim::ejection_stall_draw(c), sim::ejection_stall_draw(d));
}

}  // namespace
}  // namespace wormcast::verif
