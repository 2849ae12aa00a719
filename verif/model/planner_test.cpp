// SPDX-License-Identifier: Apache-2.0
// The planner registry (model/planner.hpp) and the sweep driver (model/sweep.hpp).
#include "model/planner.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "model/broadcast_baselines.hpp"
#include "model/cpr_broadcast.hpp"
#include "model/errors.hpp"
#include "model/path_multicast.hpp"
#include "model/sweep.hpp"
#include "model/tree_multicast.hpp"
#include "model/unicast_multicast.hpp"
#include "model/vc_class_plan.hpp"
#include "model/xy_path.hpp"
#include "verif/model/plan_properties.hpp"

namespace wormcast::model {
namespace {

// A request `name` can plan on `t`: every other node for a broadcast, else a few fixed ones; from
// a middle node or else the corner node 0 (xy-path starts at a corner); the first port model of
// one-port, two-port, all-port that the algorithm accepts.
std::optional<Plan> plan_somehow(const Topology& t, const std::string& name,
                                 const std::vector<PortModel>& port_models = {
                                     PortModel::one_port(), PortModel::two_port(), PortModel::all_port()}) {
  for (NodeId source : {t.node_count() / 2 + 1, 0}) {
    std::vector<NodeId> destinations = broadcast_destinations(t, source);
    if (!algorithm_info(name).broadcast) {
      destinations.clear();
      for (NodeId d : {1, 5, t.node_count() / 3, t.node_count() - 1}) {
        if (d != source && std::find(destinations.begin(), destinations.end(), d) == destinations.end()) {
          destinations.push_back(d);
        }
      }
    }
    for (const PortModel& ports : port_models) {
      try {
        return plan(make_request(t, name, source, destinations, 20, ports));
      } catch (const UnsupportedError&) {
      }
    }
  }
  return std::nullopt;
}

TEST(Planner, DispatchesEveryRegisteredNameToAPlannerThatDeliversEveryDestination) {
  // Every registered algorithm plans on at least one of the default networks, and its plan
  // delivers to every destination.
  const std::vector<Topology> networks = {Topology::parse("mesh:8x8"), Topology::parse("torus:4x4"),
                                          Topology::parse("mesh:4x4x4"), Topology::parse("star:4")};
  ASSERT_FALSE(algorithm_names().empty());
  for (const std::string& name : algorithm_names()) {
    int planned = 0;
    for (const Topology& t : networks) {
      const std::optional<Plan> p = plan_somehow(t, name);
      if (!p) continue;
      ++planned;
      EXPECT_EQ(p->request.algorithm, name);
      std::set<NodeId> delivered;
      for (const Worm& w : p->worms) delivered.insert(w.keeps_copy.begin(), w.keeps_copy.end());
      expect_copies_only_at_destinations_and_relays_forward(*p, name + " on " + t.spec());
      for (NodeId d : p->request.destinations) EXPECT_TRUE(delivered.count(d)) << name << " misses " << d;
      EXPECT_EQ(p->metrics.destinations.size(), p->request.destinations.size()) << name;
      EXPECT_GE(p->metrics.steps, 1) << name;
    }
    EXPECT_GT(planned, 0) << name << " plans on none of mesh:8x8, torus:4x4, mesh:4x4x4, star:4";
  }
}

// The CLI's --ports default (AlgorithmInfo::default_ports) is a port model the algorithm's planner
// takes: a request that names no port model plans.
TEST(Planner, EveryAlgorithmPlansWithItsDefaultPortModel) {
  const std::vector<Topology> networks = {Topology::parse("mesh:8x8"), Topology::parse("torus:4x4"),
                                          Topology::parse("mesh:4x4x4"), Topology::parse("star:4")};
  for (const AlgorithmInfo& info : algorithms()) {
    const bool plans = std::any_of(networks.begin(), networks.end(), [&](const Topology& t) {
      return plan_somehow(t, info.name, {info.default_ports}).has_value();
    });
    EXPECT_TRUE(plans) << info.name << " with its default " << info.default_ports.name() << " plans nowhere";
  }
  EXPECT_EQ(algorithm_info(kTwoPortAlgorithm).default_ports, PortModel::two_port());
  EXPECT_EQ(algorithm_info(kOnePortAlgorithm).default_ports, PortModel::one_port());
  EXPECT_EQ(algorithm_info(kDualPathAlgorithm).default_ports, PortModel::all_port());
}

// The routing families a worm's header mode can belong to (model/routing_family.hpp): modes 0 to 3
// are one family each; a source route is one of the three families that write one.
std::set<RoutingFamily> families_of(RoutingMode mode) {
  switch (mode) {
    case RoutingMode::kHamiltonianPath:
      return {RoutingFamily::kHamiltonianPath};
    case RoutingMode::kHamiltonianCycle:
      return {RoutingFamily::kHamiltonianCycle};
    case RoutingMode::kDimensionOrder:
      return {RoutingFamily::kDimensionOrder};
    case RoutingMode::kCprLine:
      return {RoutingFamily::kCprLine};
    case RoutingMode::kSourceRouted:
      return {RoutingFamily::kXyPathRoute, RoutingFamily::kEdnYxLeg, RoutingFamily::kMultiPathPrefix};
  }
  return {};
}

// The descriptor's routing families (what the VC-class plan and the deadlock proof read) against
// what the planner does: every worm of every plan, on the networks the firmware runs it on, is in a
// declared family. (Not the converse: some families show only on some requests, np-d's YX legs
// where its XY routes collide, and multi-path's prefix travels in a Hamiltonian-path header.)
TEST(Planner, EveryWormOfAPlanIsInARoutingFamilyItsDescriptorDeclares) {
  const std::vector<Topology> networks = {Topology::parse("mesh:8x8"), Topology::parse("torus:4x4"),
                                          Topology::parse("mesh:4x4x4"), Topology::parse("star:4")};
  for (const AlgorithmInfo& info : algorithms()) {
    ASSERT_NE(info.firmware_runs_on, nullptr) << info.name;
    const std::set<RoutingFamily> declared(info.routing_families.begin(), info.routing_families.end());
    for (const Topology& t : networks) {
      if (!info.firmware_runs_on(t)) continue;
      const std::optional<Plan> p = plan_somehow(t, info.name);
      if (!p) continue;
      for (const Worm& w : p->worms) {
        const std::set<RoutingFamily> possible = families_of(w.header.mode);
        EXPECT_TRUE(std::any_of(possible.begin(), possible.end(), [&](RoutingFamily f) { return declared.count(f); }))
            << info.name << " on " << t.spec() << " sends a " << to_string(w.header.mode)
            << " worm, in none of its declared families";
      }
    }
  }
}

TEST(Planner, GivesTheFamilyPlannersResult) {
  const Topology mesh = Topology::mesh({6, 6});
  const Request two_port = make_request(mesh, kTwoPortAlgorithm, 21, {6, 19, 14, 13, 34, 2}, 10, PortModel::two_port());
  EXPECT_EQ(plan(two_port), plan_unicast_multicast(two_port));
  const Request rd =
      make_request(mesh, kRecursiveDoublingAlgorithm, 8, broadcast_destinations(mesh, 8), 10, PortModel::one_port());
  EXPECT_EQ(plan(rd), plan_broadcast_baseline(rd));
}

TEST(Planner, RegistryDescribesEveryAlgorithmOnce) {
  const std::vector<AlgorithmInfo> infos = algorithms();
  std::set<std::string> names;
  for (const AlgorithmInfo& info : infos) {
    EXPECT_TRUE(names.insert(info.name).second) << info.name << " registered twice";
    EXPECT_FALSE(info.family.empty()) << info.name;
    EXPECT_FALSE(info.topologies.empty()) << info.name;
    EXPECT_FALSE(info.port_models.empty()) << info.name;
    EXPECT_FALSE(info.summary.empty()) << info.name;
    EXPECT_EQ(algorithm_info(info.name).name, info.name);
  }
  for (const std::string& family_member : unicast_multicast_names()) EXPECT_TRUE(names.count(family_member));
  for (const auto& family : {broadcast_baseline_names(), path_multicast_names(), cpr_broadcast_names(), xy_path_names(),
                             tree_multicast_names()}) {
    for (const std::string& family_member : family) EXPECT_TRUE(names.count(family_member)) << family_member;
  }
  EXPECT_TRUE(algorithm_info(kRecursiveDoublingAlgorithm).broadcast);
  EXPECT_FALSE(algorithm_info(kTwoPortAlgorithm).broadcast);
}

TEST(Planner, UnknownAlgorithmIsASpecErrorListingEveryValidName) {
  const Topology mesh = Topology::mesh({4, 4});
  try {
    plan(make_request(mesh, "three-port", 0, {5}, 1, PortModel::one_port()));
    ADD_FAILURE() << "planned an unknown algorithm";
  } catch (const SpecError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("'three-port'"), std::string::npos) << message;
    for (const std::string& name : algorithm_names()) EXPECT_NE(message.find(name), std::string::npos) << message;
  }
  EXPECT_THROW(algorithm_info(""), SpecError);
}

// ---------------------------------------------------------------------------------------------
// Sweep driver

SweepConfig small_sweep(std::uint64_t seed) {
  SweepConfig config;
  config.topology = Topology::mesh({6, 6});
  config.algorithms = {kUnicastAlgorithm, kOnePortAlgorithm};
  config.destination_counts = {3, 10, 20};
  config.runs = 40;
  config.seed = seed;
  config.source = SourceChoice::random();
  config.length_flits = 16;
  config.ports = PortModel::one_port();
  return config;
}

TEST(Sweep, SameSeedGivesTheSameNumbersAndAnotherSeedOthers) {
  const SweepResult first = run_sweep(small_sweep(7));
  EXPECT_EQ(run_sweep(small_sweep(7)), first);
  const SweepResult other = run_sweep(small_sweep(8));
  ASSERT_EQ(other.rows.size(), first.rows.size());
  int differing = 0;
  for (std::size_t i = 0; i < first.rows.size(); ++i)
    differing += other.rows[i].mean_traffic != first.rows[i].mean_traffic;
  EXPECT_GE(differing, 4);  // 6 rows; sample means of 40 runs coincide only by accident
}

TEST(Sweep, OneRowPerKAndAlgorithmAggregatingPlansOfTheSameSamples) {
  // Recompute every row independently from draw_samples(): this shows that all algorithms were
  // planned on exactly the samples draw_samples gives for that K ([5], Section 4.2.1: same samples).
  const SweepConfig config = small_sweep(11);
  const SweepResult result = run_sweep(config);
  ASSERT_EQ(result.rows.size(), config.destination_counts.size() * config.algorithms.size());
  std::size_t row = 0;
  for (int k : config.destination_counts) {
    const std::vector<Sample> samples = draw_samples(config.topology, config.source, k, config.runs, config.seed);
    for (const std::string& name : config.algorithms) {
      const SweepRow& r = result.rows[row++];
      EXPECT_EQ(r.algorithm, name);
      EXPECT_EQ(r.destinations, k);
      EXPECT_EQ(r.runs, config.runs);
      double steps = 0, traffic = 0, additional = 0, latency = 0, max_latency = 0;
      int max_steps = 0;
      for (const Sample& s : samples) {
        const Plan p =
            plan(make_request(config.topology, name, s.source, s.destinations, config.length_flits, config.ports));
        steps += p.metrics.steps;
        max_steps = std::max(max_steps, p.metrics.steps);
        traffic += p.metrics.traffic;
        additional += p.metrics.traffic - k;
        latency += p.metrics.latency;
        max_latency = std::max(max_latency, p.metrics.latency);
      }
      EXPECT_DOUBLE_EQ(r.mean_steps, steps / config.runs);
      EXPECT_EQ(r.max_steps, max_steps);
      EXPECT_DOUBLE_EQ(r.mean_traffic, traffic / config.runs);
      EXPECT_DOUBLE_EQ(r.mean_additional_traffic, additional / config.runs);
      EXPECT_DOUBLE_EQ(r.mean_latency, latency / config.runs);
      EXPECT_DOUBLE_EQ(r.max_latency, max_latency);
      EXPECT_DOUBLE_EQ(r.mean_additional_traffic, r.mean_traffic - k);
    }
  }
}

// A unicast's traffic is its hop count, so the spread of K = 1 rows is the spread of the drawn
// destinations' distances from the origin, x + y on a mesh: worked out here from coordinates,
// with t(0.975, 2) = sqrt(0.95^2 * 2 / (1 - 0.95^2)) for 3 runs (P(|T| <= t) = t / sqrt(2 + t^2)).
TEST(Sweep, RowsCarryTheStandardDeviationAndIntervalOfTheirSamples) {
  SweepConfig config;
  config.topology = Topology::mesh({8, 8});
  config.algorithms = {kUnicastAlgorithm};
  config.destination_counts = {1};
  config.runs = 3;
  config.seed = 5;
  config.source = SourceChoice::origin();
  const SweepRow row = run_sweep(config).rows.at(0);
  double hops[3];
  const std::vector<Sample> samples = draw_samples(config.topology, config.source, 1, 3, config.seed);
  for (int i = 0; i < 3; ++i) {
    const Coord c = config.topology.coord(samples[i].destinations[0]);
    hops[i] = c[0] + c[1];
  }
  const double mean = (hops[0] + hops[1] + hops[2]) / 3.0;
  const double sd = std::sqrt(((hops[0] - mean) * (hops[0] - mean) + (hops[1] - mean) * (hops[1] - mean) +
                               (hops[2] - mean) * (hops[2] - mean)) /
                              2.0);
  ASSERT_GT(sd, 0.0) << "the seed should draw destinations at different distances";
  EXPECT_DOUBLE_EQ(row.mean_traffic, mean);
  EXPECT_NEAR(*row.traffic_spread.standard_deviation, sd, 1e-12);
  EXPECT_NEAR(*row.traffic_spread.ci95_half_width, std::sqrt(0.9025 * 2.0 / 0.0975) * sd / std::sqrt(3.0), 1e-9);
  EXPECT_EQ(*row.additional_traffic_spread.standard_deviation, *row.traffic_spread.standard_deviation);
  EXPECT_EQ(*row.steps_spread.standard_deviation, 0.0);  // a unicast is one step, every time
  EXPECT_EQ(*row.steps_spread.ci95_half_width, 0.0);

  config.runs = 1;  // one sample: no spread
  const SweepRow single = run_sweep(config).rows.at(0);
  EXPECT_FALSE(single.latency_spread.standard_deviation.has_value());
  EXPECT_FALSE(single.latency_spread.ci95_half_width.has_value());
}

TEST(Sweep, SamplesAreDistinctNodesOtherThanTheSourceAndIndependentOfOtherKs) {
  const Topology t = Topology::mesh({5, 4});
  for (int k : {1, 7, 19}) {
    const std::vector<Sample> samples = draw_samples(t, SourceChoice::random(), k, 200, 99);
    ASSERT_EQ(samples.size(), 200u);
    std::set<NodeId> sources;
    for (const Sample& s : samples) {
      ASSERT_EQ(s.destinations.size(), static_cast<std::size_t>(k));
      std::set<NodeId> distinct(s.destinations.begin(), s.destinations.end());
      EXPECT_EQ(distinct.size(), s.destinations.size());
      EXPECT_EQ(distinct.count(s.source), 0u);
      EXPECT_GE(*distinct.begin(), 0);
      EXPECT_LT(*distinct.rbegin(), t.node_count());
      sources.insert(s.source);
    }
    EXPECT_EQ(sources.size(), static_cast<std::size_t>(t.node_count())) << "200 random sources miss a node";
    EXPECT_EQ(draw_samples(t, SourceChoice::random(), k, 200, 99), samples);
  }
  // K's samples are the same whatever else the sweep runs.
  SweepConfig alone = small_sweep(5);
  alone.destination_counts = {10};
  SweepConfig mixed = small_sweep(5);
  mixed.destination_counts = {20, 10};
  EXPECT_EQ(run_sweep(alone).rows[0], run_sweep(mixed).rows[2]);
}

TEST(Sweep, ThreadCountDoesNotChangeTheRows) {
  SweepConfig config = small_sweep(3);
  config.destination_counts = {1, 3, 10, 20, 35, 7};
  const SweepResult alone = run_sweep(config);
  for (int threads : {0, 2, 3, 8}) {
    config.threads = threads;
    SweepResult parallel = run_sweep(config);
    EXPECT_EQ(parallel.rows, alone.rows) << threads << " threads";
  }
  config.threads = -1;
  EXPECT_THROW(run_sweep(config), RequestError);
}

TEST(Sweep, ParallelSweepThrowsThePlannerErrorOfTheFirstFailingK) {
  // xy-path needs a corner source: every K fails on its first random sample, and the error is
  // the one a single thread meets first.
  SweepConfig config = small_sweep(3);
  config.algorithms = {kXyPathAlgorithm};
  config.ports = PortModel::all_port();
  config.destination_counts = {3, 10, 20, 30};
  config.threads = 1;
  std::string sequential;
  try {
    run_sweep(config);
  } catch (const UnsupportedError& e) {
    sequential = e.what();
  }
  ASSERT_FALSE(sequential.empty());
  config.threads = 4;
  try {
    run_sweep(config);
    ADD_FAILURE() << "planned xy-path from random sources";
  } catch (const UnsupportedError& e) {
    EXPECT_EQ(e.what(), sequential);
  }
}

TEST(Sweep, SourcePolicies) {
  const Topology t = Topology::mesh({4, 4});
  for (const Sample& s : draw_samples(t, SourceChoice::origin(), 3, 20, 1)) EXPECT_EQ(s.source, 0);
  for (const Sample& s : draw_samples(t, SourceChoice::fixed(9), 3, 20, 1)) EXPECT_EQ(s.source, 9);
  EXPECT_THROW(draw_samples(t, SourceChoice::fixed(16), 3, 20, 1), NodeError);
}

TEST(Sweep, DestinationsAreUniform) {
  // 4000 single-destination samples from the origin of a 3x3 mesh: each of the 8 other nodes is
  // expected 500 times; a deviation of 100 is over 4.7 standard deviations (sd = sqrt(4000/8*7/8)).
  const Topology t = Topology::mesh({3, 3});
  std::map<NodeId, int> count;
  for (const Sample& s : draw_samples(t, SourceChoice::origin(), 1, 4000, 3)) ++count[s.destinations.front()];
  ASSERT_EQ(count.size(), 8u);
  for (const auto& [node, n] : count) EXPECT_NEAR(n, 500, 100) << node;
}

TEST(Sweep, GeneratorAndUniformBelowArePortable) {
  // The standard fixes mt19937_64's 10000th output for the default seed ([rand.predef]).
  std::mt19937_64 engine;
  engine.discard(9999);
  EXPECT_EQ(engine(), 9981545732273789042ULL);
  std::mt19937_64 a(42);
  for (std::uint64_t bound : {1ULL, 2ULL, 3ULL, 1000ULL, (1ULL << 63) + 1}) {
    for (int i = 0; i < 100; ++i) EXPECT_LT(uniform_below(a, bound), bound);
  }
}

TEST(Sweep, BroadcastBaselinesRunAtKEqualsNMinusOne) {
  SweepConfig config;
  config.topology = Topology::mesh({8, 8});
  config.algorithms = {kRecursiveDoublingAlgorithm, kExtendedDominatingNodeAlgorithm};
  config.destination_counts = {63};
  config.runs = 10;
  config.source = SourceChoice::random();
  config.ports = PortModel::all_port();
  const SweepResult result = run_sweep(config);
  ASSERT_EQ(result.rows.size(), 2u);
  EXPECT_EQ(result.rows[0].mean_steps, 6.0);  // V15, k = 3
  EXPECT_EQ(result.rows[1].mean_steps, 4.0);
  EXPECT_EQ(result.rows[0].mean_traffic, result.rows[0].mean_additional_traffic + 63);
}

TEST(Sweep, RejectsBadConfigurationsBeforePlanning) {
  SweepConfig config = small_sweep(1);
  config.algorithms = {kUnicastAlgorithm, kRecursiveDoublingAlgorithm};
  try {
    run_sweep(config);
    ADD_FAILURE() << "rd ran with K = 3";
  } catch (const RequestError& e) {
    EXPECT_NE(std::string(e.what()).find("K = N-1 = 35"), std::string::npos) << e.what();
  }
  config = small_sweep(1);
  config.algorithms = {"nope"};
  EXPECT_THROW(run_sweep(config), SpecError);
  config = small_sweep(1);
  config.algorithms = {};
  EXPECT_THROW(run_sweep(config), SpecError);
  config = small_sweep(1);
  config.destination_counts = {};
  EXPECT_THROW(run_sweep(config), SpecError);
  config = small_sweep(1);
  config.destination_counts = {10, 36};
  try {
    run_sweep(config);
    ADD_FAILURE() << "K = 36 on 36 nodes";
  } catch (const RequestError& e) {
    EXPECT_NE(std::string(e.what()).find("1..35"), std::string::npos) << e.what();
  }
  config = small_sweep(1);
  config.runs = 0;
  EXPECT_THROW(run_sweep(config), RequestError);
  config = small_sweep(1);
  config.source = SourceChoice::fixed(-1);
  EXPECT_THROW(run_sweep(config), NodeError);
}

}  // namespace
}  // namespace wormcast::model
