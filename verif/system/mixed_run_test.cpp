// SPDX-License-Identifier: Apache-2.0
// Mixed runs (docs/run.md, "Mixed runs"): multicasts of several algorithms at once, each
// started at its own cycle (run_multicasts with start cycles), each checked against its plan, on
// both backends.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "model/broadcast_baselines.hpp"
#include "model/cpr_broadcast.hpp"
#include "model/design_deadlock.hpp"
#include "model/errors.hpp"
#include "model/path_multicast.hpp"
#include "model/planner.hpp"
#include "model/routing.hpp"
#include "model/tree_multicast.hpp"
#include "model/unicast_multicast.hpp"
#include "model/vc_class_plan.hpp"
#include "model/xy_path.hpp"
#include "sim/backend.hpp"
#include "sim/multicast_run.hpp"
#include "sim/rtl_router.hpp"
#include "sim/scoreboard.hpp"
#include "verif/system/run_record_queries.hpp"

namespace wormcast::verif {
namespace {

struct Mixed {
  const char* algorithm;
  const char* source;
  std::vector<const char*> dests;
  model::PortModel ports;
  int length;
  long start;
};

std::vector<model::Plan> plans_of(const model::Topology& t, const std::vector<Mixed>& mix) {
  std::vector<model::Plan> plans;
  for (const Mixed& m : mix) {
    std::vector<model::NodeId> dests;
    for (const char* d : m.dests) dests.push_back(t.parse_node(d));
    plans.push_back(model::plan(model::make_request(t, m.algorithm, t.parse_node(m.source), dests, m.length, m.ports)));
  }
  return plans;
}

std::vector<long> starts_of(const std::vector<Mixed>& mix) {
  std::vector<long> starts;
  for (const Mixed& m : mix) starts.push_back(m.start);
  return starts;
}

// The source of plans[m] sends, relays or receives a worm of another multicast (its injection
// channel may then be taken when it starts).
bool busy_in_others(const std::vector<model::Plan>& plans, std::size_t m) {
  const model::NodeId source = plans[m].request.source;
  for (std::size_t i = 0; i < plans.size(); ++i) {
    for (const model::Worm& w : plans[i].worms) {
      const auto has = [source](const std::vector<model::NodeId>& nodes) {
        return std::find(nodes.begin(), nodes.end(), source) != nodes.end();
      };
      if (i != m && (w.sender == source || has(w.keeps_copy) || has(w.relays))) return true;
    }
  }
  return false;
}

sim::RunOptions options(sim::Backend backend) {
  sim::RunOptions o;
  o.alpha = 20;
  o.gamma = 10;
  o.backend = backend;
  return o;
}

// These mixes keep to Hamiltonian-path worms and the trees' one-hop dimension-order worms (which
// hold no network channel while requesting one, so add no dependency: the checker walks them so,
// docs/model.md "The whole design"), deadlock-free even under the old single-class VCs; the
// shipped VC-class plan (docs/rtl.md) covers every mix, tested below.
const model::PortModel kAll = model::PortModel::all_port();
const model::PortModel kOne = model::PortModel::one_port();
const model::PortModel kTwo = model::PortModel::two_port();
const std::vector<Mixed> kStaggered = {
    {model::kDualPathAlgorithm, "3,2", {"0,2", "7,7", "5,1", "2,6", "6,3", "1,4"}, kAll, 20, 0},
    {model::kLinAlgorithm, "0,0", {"1,3", "4,4", "7,2", "6,7", "2,7", "0,5", "5,0"}, kAll, 12, 40},
    {model::kDdsAlgorithm, "4,3", {"0,1", "7,6", "2,2", "5,4", "1,7", "6,0"}, kTwo, 16, 150},
    {model::kTwoPortAlgorithm, "6,6", {"0,7", "1,1", "4,4", "7,0", "3,5"}, kTwo, 8, 300},
    {model::kVhAlgorithm, "1,6", {"6,1", "2,2", "7,5"}, kOne, 4, 320},
    {model::kUnicastAlgorithm, "5,5", {"0,2", "3,7", "7,3"}, kOne, 6, 320},
};

TEST(MixedRun, TheMixesKeepToFamiliesTheCheckerProvesDeadlockFreeEvenUnderTheSingleClassVcs) {
  const model::Topology t = model::Topology::parse("mesh:8x8");
  const std::vector<std::string> path = model::family_algorithms(model::RoutingFamily::kHamiltonianPath);
  for (const Mixed& m : kStaggered) {
    const bool tree =
        std::string(m.algorithm) == model::kVhAlgorithm || std::string(m.algorithm) == model::kDdsAlgorithm;
    EXPECT_TRUE(tree || std::find(path.begin(), path.end(), m.algorithm) != path.end()) << m.algorithm;
  }
  const model::DesignDeadlockCheck check = model::check_design_deadlock(t, model::vc_class_plan("single-class", t),
                                                                        {model::RoutingFamily::kHamiltonianPath});
  EXPECT_FALSE(check.cycle.has_value()) << check.cycle_text;
}

// A late start_cycle delays the source: no worm of a multicast enters the network before its start
// cycle plus alpha (the NI's send start-up), and one whose source has no part in the other
// multicasts injects exactly then; no destination delivers before the start.
TEST(MixedRun, LateStartCycleDelaysTheFirstInjectionToStartPlusAlpha) {
  const model::Topology t = model::Topology::parse("mesh:8x8");
  const std::vector<model::Plan> plans = plans_of(t, kStaggered);
  const std::vector<long> starts = starts_of(kStaggered);
  const sim::RunOptions o = options(sim::Backend::kRtl);
  const sim::RunRecord record = sim::run_multicasts(sim::requests_of(plans), o, starts);
  ASSERT_EQ(sim::check_run(plans, record), "");
  int idle = 0;
  for (std::size_t m = 0; m < plans.size(); ++m) {
    const int i = static_cast<int>(m);
    EXPECT_GE(first_injection(record, i), starts[m] + o.alpha) << plans[m].request.algorithm;
    if (!busy_in_others(plans, m)) {
      EXPECT_EQ(first_injection(record, i), starts[m] + o.alpha) << plans[m].request.algorithm;
      ++idle;
    }
    for (const sim::Delivery& d : record.deliveries) {
      if (d.multicast == i) {
        EXPECT_GT(d.cycle, starts[m]) << plans[m].request.algorithm;
      }
    }
  }
  EXPECT_GE(idle, 4);  // the equality is tested, not skipped
  // The starts overlap other multicasts: the run is concurrent, not one after another.
  EXPECT_LT(first_injection(record, 2), last_delivery(record, 1));
  EXPECT_LT(first_injection(record, 3), last_delivery(record, 2));
}

// A multicast alone, started in cycle 1000 instead of 0, is the same run 1000 cycles later: a late
// start only shifts cycles (the routers are idle while it waits), on both backends.
TEST(MixedRun, ALoneMulticastStartedLateIsTheSameRunShifted) {
  const model::Topology t = model::Topology::parse("mesh:8x8");
  const std::vector<model::Plan> plans = plans_of(t, {kStaggered[0]});
  for (const sim::Backend backend : {sim::Backend::kRtl, sim::Backend::kModel}) {
    const sim::RunRecord now = sim::run_multicasts(sim::requests_of(plans), options(backend), {0});
    const sim::RunRecord late = sim::run_multicasts(sim::requests_of(plans), options(backend), {1000});
    EXPECT_EQ(sim::check_run(plans, late), "");
    ASSERT_EQ(now.deliveries.size(), plans[0].request.destinations.size());
    ASSERT_EQ(late.deliveries.size(), now.deliveries.size());
    for (std::size_t i = 0; i < now.deliveries.size(); ++i) {
      EXPECT_EQ(late.deliveries[i].node, now.deliveries[i].node);
      EXPECT_EQ(late.deliveries[i].cycle, now.deliveries[i].cycle + 1000) << sim::backend_name(backend);
    }
    EXPECT_EQ(late.cycles, now.cycles + 1000);
  }
}

// Six algorithms (dual-path, lin, DDS, two-port, VH, separate addressing) at staggered starts pass
// their plans on the RTL and on the timing model, which deliver every destination in the same
// cycle; also under 30 % ejection back-pressure (the same seed draws the same stalls).
TEST(MixedRun, SixAlgorithmsAtStaggeredStartsPassOnBothBackendsWithIdenticalDeliveries) {
  const model::Topology t = model::Topology::parse("mesh:8x8");
  const std::vector<model::Plan> plans = plans_of(t, kStaggered);
  for (const double stall : {0.0, 0.3}) {
    std::vector<sim::RunRecord> records;
    for (const sim::Backend backend : {sim::Backend::kRtl, sim::Backend::kModel}) {
      sim::RunOptions o = options(backend);
      o.eject_stall = stall;
      o.seed = 7;
      records.push_back(sim::run_multicasts(sim::requests_of(plans), o, starts_of(kStaggered)));
      EXPECT_EQ(sim::check_run(plans, records.back()), "") << sim::backend_name(backend) << " stall " << stall;
      for (const std::string& check : sim::check_each_multicast(plans, records.back())) EXPECT_EQ(check, "");
    }
    EXPECT_EQ(deliveries(records[0]).size(), 30u);
    EXPECT_EQ(deliveries(records[0]), deliveries(records[1])) << "stall " << stall;
    EXPECT_EQ(records[0].cycles, records[1].cycles) << "stall " << stall;
  }
}

// A stalled run fails every request that did not finish with the watchdog's report, which names
// the blocked worms (sender->receiver, multicast) and the routers holding their heads: two PCP
// broadcasts without the replication lock deadlock (cosim_test.cpp), a third multicast due in
// cycle 5000 never starts (and its pending start does not postpone the watchdog), while a
// multicast that finished before the stall keeps its own check.
TEST(MixedRun, StalledRunFailsEveryUnfinishedRequestWithTheWatchdogReport) {
  const model::Topology t = model::Topology::parse("mesh:8x8");
  std::vector<model::Plan> plans;
  for (const char* source : {"3,7", "2,1"}) {
    const model::NodeId s = t.parse_node(source);
    plans.push_back(
        model::plan(model::make_request(t, model::kPcpAlgorithm, s, model::broadcast_destinations(t, s), 3, kAll)));
  }
  plans.push_back(
      model::plan(model::make_request(t, model::kVhAlgorithm, t.parse_node("7,0"), {t.parse_node("6,0")}, 1, kOne)));
  plans.push_back(
      model::plan(model::make_request(t, model::kVhAlgorithm, t.parse_node("0,0"), {t.parse_node("5,5")}, 2, kOne)));
  sim::RunOptions o = options(sim::Backend::kRtl);
  o.alpha = 1;
  o.gamma = 1;
  o.watchdog = 500;
  o.skip_replication_lock = true;
  const sim::RunRecord record = sim::run_multicasts(sim::requests_of(plans), o, {0, 0, 0, 5000});
  ASSERT_TRUE(record.stalled);
  EXPECT_LT(record.cycles, 5000);
  const std::vector<std::string> checks = sim::check_each_multicast(plans, record);
  for (const int m : {0, 1, 3}) {
    EXPECT_EQ(checks[static_cast<std::size_t>(m)].rfind("watchdog: no flit moved for 500 cycles", 0), 0u) << m;
    EXPECT_EQ(checks[static_cast<std::size_t>(m)], record.errors.front());
  }
  EXPECT_EQ(checks[2], "");  // the one-hop VH multicast at (7,0) finished before the stall
  const std::string& report = checks[0];
  EXPECT_NE(report.find("worm 3,7->3,0 (multicast 0"), std::string::npos) << report;
  EXPECT_NE(report.find("worm 2,1->2,7 (multicast 1"), std::string::npos) << report;
  EXPECT_NE(report.find("head held by router"), std::string::npos) << report;
  EXPECT_NE(sim::check_run(plans, record), "");
}

// The replication lock works with late starts: PCP broadcasts from four sources (the pair (3,7),
// (2,1) that deadlocks without the lock among them) started in cycles 0, 3, 7 and 20 all pass (the
// lock's protocol included); no two broadcasts' spine worms have heads in the network at once, and
// at least one spine went later than its start + alpha (it waited for its grant; the test is not
// vacuous).
TEST(MixedRun, PcpBroadcastsStartedAtDifferentCyclesHoldTheReplicationLockOneAtATime) {
  const model::Topology t = model::Topology::parse("mesh:8x8");
  std::vector<model::Plan> plans;
  for (const char* source : {"3,7", "2,1", "6,4", "0,0"}) {
    const model::NodeId s = t.parse_node(source);
    plans.push_back(
        model::plan(model::make_request(t, model::kPcpAlgorithm, s, model::broadcast_destinations(t, s), 3, kAll)));
  }
  const std::vector<long> starts = {0, 3, 7, 20};
  sim::RunOptions o = options(sim::Backend::kRtl);
  o.alpha = 1;
  o.gamma = 1;
  o.watchdog = 500;
  const sim::RunRecord record = sim::run_multicasts(sim::requests_of(plans), o, starts);
  ASSERT_FALSE(record.stalled);
  EXPECT_EQ(sim::check_run(plans, record), "");
  std::vector<const sim::ObservedWorm*> spines;
  for (const sim::ObservedWorm& w : record.worms) {
    if (w.replicates) spines.push_back(&w);
  }
  ASSERT_EQ(spines.size(), 6u);  // (3,7) and (0,0) send one spine, (2,1) and (6,4) two
  const auto last_head = [](const sim::ObservedWorm& w) {
    long last = -1;
    for (const sim::EjectedCopy& c : w.copies) last = std::max(last, c.head_cycle);
    return last;
  };
  int waited = 0;
  for (const sim::ObservedWorm* a : spines) {
    waited += a->inject_cycle > starts[static_cast<std::size_t>(a->multicast)] + o.alpha ? 1 : 0;
    for (const sim::ObservedWorm* b : spines) {
      if (a->multicast >= b->multicast) continue;
      EXPECT_TRUE(b->inject_cycle >= last_head(*a) || a->inject_cycle >= last_head(*b))
          << "spines of broadcasts " << a->multicast << " and " << b->multicast << " overlap";
    }
  }
  EXPECT_GT(waited, 0);
}

// Issue 12 item 1: families whose worms closed channel-dependency cycles together under the
// single-class VCs (xy-path from different corners, Hamiltonian path with dimension order, edn's
// XY and YX worms, multi-path's prefixes) run at once on the RTL and every multicast passes its
// plan, the watchdog quiet, with and without ejection stalls. The checker confirms the same
// families are cyclic under the old classes and acyclic under the shipped ones.
TEST(MixedRun, FamiliesThatWereCyclicTogetherCompleteOnTheRtlUnderTheShippedVcs) {
  const model::Topology t = model::Topology::parse("mesh:8x8");
  using F = model::RoutingFamily;
  const std::vector<F> families = {F::kHamiltonianPath, F::kDimensionOrder, F::kXyPathRoute, F::kEdnYxLeg,
                                   F::kMultiPathPrefix};
  EXPECT_TRUE(model::check_design_deadlock(t, model::vc_class_plan("single-class", t), families).cycle);
  const model::DesignDeadlockCheck shipped =
      model::check_design_deadlock(t, model::vc_class_plan("shipped", t), families);
  EXPECT_FALSE(shipped.cycle) << shipped.cycle_text;

  const std::vector<model::NodeId> eleven = {t.parse_node("1,2"), t.parse_node("5,5"), t.parse_node("6,1"),
                                             t.parse_node("2,6"), t.parse_node("3,3"), t.parse_node("0,4"),
                                             t.parse_node("4,0"), t.parse_node("7,6"), t.parse_node("2,1"),
                                             t.parse_node("6,4"), t.parse_node("4,7")};
  const auto others = [&](const char* source) {
    std::vector<model::NodeId> d;
    for (model::NodeId n : eleven) {
      if (n != t.parse_node(source)) d.push_back(n);
    }
    return d;
  };
  const auto request = [&](const char* algorithm, const char* source, std::vector<model::NodeId> dests,
                           model::PortModel ports) {
    return model::plan(model::make_request(t, algorithm, t.parse_node(source), std::move(dests), 8, ports));
  };
  const std::vector<model::Plan> plans = {
      request(model::kXyPathAlgorithm, "0,0", others("0,0"), kAll),
      request(model::kXyPathAlgorithm, "7,7", others("7,7"), kAll),
      request(model::kXyPathXFirstAlgorithm, "7,0", others("7,0"), kAll),
      request(model::kXyPathXFirstAlgorithm, "0,7", others("0,7"), kAll),
      request(model::kDualPathAlgorithm, "3,4", others("3,4"), kAll),
      request(model::kMultiPathAlgorithm, "4,3", others("4,3"), kAll),
      request(model::kExtendedDominatingNodeAlgorithm, "2,5", model::broadcast_destinations(t, t.parse_node("2,5")),
              kAll),
      request(model::kRecursiveDoublingAlgorithm, "5,2", model::broadcast_destinations(t, t.parse_node("5,2")), kOne),
      request(model::kUnicastAlgorithm, "6,6", others("6,6"), kTwo),
  };
  const model::HamiltonianPathRouting path(t);
  bool families_sent[5] = {};
  for (const model::Plan& p : plans) {
    for (const model::Worm& w : p.worms) {
      const bool source_routed = w.header.mode == model::RoutingMode::kSourceRouted;
      families_sent[0] |= w.header.mode == model::RoutingMode::kHamiltonianPath;
      families_sent[1] |= w.header.mode == model::RoutingMode::kDimensionOrder && w.hops.size() > 1;
      families_sent[2] |= source_routed && p.request.algorithm.rfind(model::kXyPathAlgorithm, 0) == 0;
      families_sent[3] |= source_routed && p.request.algorithm == model::kExtendedDominatingNodeAlgorithm;
      // A row worm whose first hop is not R's: the firmware sends it behind a source-routed prefix.
      families_sent[4] |= p.request.algorithm == model::kMultiPathAlgorithm &&
                          path.route(w.sender, 0, w.header.destinations.front()).port != w.hops.front().port;
    }
  }
  for (std::size_t f = 0; f < families.size(); ++f) EXPECT_TRUE(families_sent[f]) << model::to_string(families[f]);
  for (const double stall : {0.0, 0.3}) {
    sim::RunOptions o = options(sim::Backend::kRtl);
    o.eject_stall = stall;
    o.seed = 11;
    const sim::RunRecord record = sim::run_multicasts(sim::requests_of(plans), o, std::vector<long>(plans.size(), 0));
    EXPECT_FALSE(record.stalled) << "stall " << stall;
    EXPECT_EQ(sim::check_run(plans, record), "") << "stall " << stall;
  }
}

// The replication lock with several broadcasts per source: two from (3,7) (a node has one request
// outstanding; its second asks after its first is granted), two from the coordinator (0,0) (its
// requests are local), one from (2,1), under 30 % ejection stalls, on both backends: every one
// passes (the lock's protocol included) in identical cycles.
TEST(MixedRun, SeveralPcpBroadcastsPerSourceAndFromTheCoordinatorTakeTurns) {
  const model::Topology t = model::Topology::parse("mesh:8x8");
  std::vector<model::Plan> plans;
  for (const char* source : {"3,7", "3,7", "0,0", "0,0", "2,1"}) {
    const model::NodeId s = t.parse_node(source);
    plans.push_back(
        model::plan(model::make_request(t, model::kPcpAlgorithm, s, model::broadcast_destinations(t, s), 8, kAll)));
  }
  const std::vector<long> starts = {0, 0, 0, 2, 0};
  std::vector<long> cycles;
  for (const sim::Backend backend : {sim::Backend::kRtl, sim::Backend::kModel}) {
    sim::RunOptions o = options(backend);
    o.alpha = 1;
    o.gamma = 1;
    o.eject_stall = 0.3;
    const sim::RunRecord record = sim::run_multicasts(sim::requests_of(plans), o, starts);
    EXPECT_EQ(sim::check_run(plans, record), "") << sim::backend_name(backend);
    EXPECT_TRUE(record.violations.empty());
    cycles.push_back(record.cycles);
  }
  EXPECT_EQ(cycles[0], cycles[1]);
}

// The harness's routers have the VC count the model's plan assumes on every topology the RTL runs
// (the plan is class mod that count), on both backends.
TEST(MixedRun, RoutersHaveTheVcCountOfTheModelsPlan) {
  for (const char* spec : {"mesh:8x8", "mesh:4x4x4", "torus:4x4", "torus:4x4x4", "star:4", "star:5", "star:6"}) {
    const model::Topology t = model::Topology::parse(spec);
    const auto net = static_cast<unsigned>(t.port_count());
    EXPECT_EQ(static_cast<int>(sim::router_variant_vcs(net)), model::router_vc_count(t)) << spec;
    for (const sim::Backend backend : {sim::Backend::kRtl, sim::Backend::kModel}) {
      const std::unique_ptr<sim::RouterBackend> b = sim::make_backend(backend);
      EXPECT_EQ(static_cast<int>(b->make(net, 1, "r")->vcs()), model::router_vc_count(t))
          << spec << " " << sim::backend_name(backend);
    }
  }
}

TEST(MixedRunErrors, StartCyclesOfTheWrongCountOrOutOfRangeAreNamed) {
  const model::Topology t = model::Topology::parse("mesh:4x4");
  const std::vector<model::Request> requests = {
      model::make_request(t, model::kVhAlgorithm, t.parse_node("0,0"), {t.parse_node("3,3")}, 2, kOne)};
  const sim::RunOptions o = options(sim::Backend::kModel);
  try {
    sim::run_multicasts(requests, o, {0, 5});
    FAIL() << "two start cycles for one multicast were accepted";
  } catch (const model::RequestError& e) {
    EXPECT_STREQ(e.what(), "2 start cycles for 1 multicasts; give one per multicast or none");
  }
  try {
    sim::run_multicasts(requests, o, {-1});
    FAIL() << "a negative start cycle was accepted";
  } catch (const model::RequestError& e) {
    EXPECT_STREQ(e.what(), "start cycle -1 of multicast 0 is not in 0..4999999");
  }
}

}  // namespace
}  // namespace wormcast::verif
