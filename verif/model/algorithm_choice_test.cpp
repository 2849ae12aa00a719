// SPDX-License-Identifier: Apache-2.0
// `--algorithm auto` in the model (model/algorithm_choice.hpp): the ranking is by predicted latency,
// ties by traffic; the pick is the plan with the lowest latency among every algorithm that plans
// the request, found here by planning each one directly; the inapplicable ones carry the planner's
// reason; no applicable algorithm is an error naming each reason. The pick against the RTL's
// measured best is AutoAlgorithm.* (verif/system/auto_algorithm_test.cpp).
#include "model/algorithm_choice.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <map>

#include "model/broadcast_baselines.hpp"
#include "model/cpr_broadcast.hpp"
#include "model/errors.hpp"
#include "model/path_multicast.hpp"
#include "model/planner.hpp"
#include "model/sweep.hpp"
#include "model/tree_multicast.hpp"
#include "model/unicast_multicast.hpp"
#include "model/xy_path.hpp"

namespace wormcast::model {
namespace {

Request request_on(const std::string& topology, NodeId source, std::vector<NodeId> destinations, PortModel ports,
                   LatencyParameters latency = {}) {
  return make_request(Topology::parse(topology), kAutoAlgorithm, source, std::move(destinations), 20, ports, latency);
}

// The lowest latency of any algorithm that plans `request`, by planning each one.
double best_latency(const Request& request) {
  double best = std::numeric_limits<double>::infinity();
  for (const std::string& name : algorithm_names()) {
    Request r = request;
    r.algorithm = name;
    try {
      best = std::min(best, plan(r).metrics.latency);
    } catch (const ModelError&) {
    }
  }
  return best;
}

TEST(AlgorithmChoice, PickHasTheLowestLatencyOfEveryPlanAndTheRankingIsOrdered) {
  for (const std::string topology : {"mesh:6x6", "torus:4x4", "mesh:3x3x3"}) {
    const Topology t = Topology::parse(topology);
    for (const int k : {1, 5, t.node_count() - 1}) {
      for (const Sample& s : draw_samples(t, SourceChoice::random(), k, 3, 16)) {
        for (const PortModel ports : {PortModel::one_port(), PortModel::all_port()}) {
          const Request request = request_on(topology, s.source, s.destinations, ports);
          const AlgorithmChoice choice = choose_algorithm(request);
          ASSERT_FALSE(choice.ranking.empty());
          EXPECT_EQ(choice.ranking.front().latency, best_latency(request)) << topology << " K=" << k;
          EXPECT_EQ(choice.ranking.size() + choice.excluded.size(), algorithm_names().size());
          for (std::size_t i = 1; i < choice.ranking.size(); ++i) {
            const Candidate& a = choice.ranking[i - 1];
            const Candidate& b = choice.ranking[i];
            EXPECT_TRUE(a.latency < b.latency || (same_latency(a.latency, b.latency) && a.traffic <= b.traffic))
                << a.algorithm << " before " << b.algorithm;
          }
        }
      }
    }
  }
}

TEST(AlgorithmChoice, EqualLatenciesGoToLessTraffic) {
  // Without per-hop or per-flit costs every one-step plan on an all-port source costs alpha +
  // gamma, however far its worms go: the latency ties, and the fewest channel traversals must come
  // first. From (0,0) to (5,0) and (5,5) one path worm (lin: along the bottom row, then up the last
  // column) takes 10 hops; two unicasts take 5 + 10 = 15.
  LatencyParameters flat;
  flat.beta = 0;
  flat.router_delay = 0;
  const Topology t = Topology::parse("mesh:6x6");
  const AlgorithmChoice choice = choose_algorithm(request_on(
      "mesh:6x6", t.parse_node("0,0"), {t.parse_node("5,0"), t.parse_node("5,5")}, PortModel::all_port(), flat));
  // The one-worm plans tie at alpha + gamma, ahead of the trees' one-hop worm per step.
  std::vector<Candidate> tied;
  for (const Candidate& c : choice.ranking) {
    if (c.latency == 2 * 227.0) tied.push_back(c);
  }
  ASSERT_GE(tied.size(), 2U);
  EXPECT_EQ(choice.ranking.front(), tied.front());
  EXPECT_EQ(tied.front().traffic, 10);
  EXPECT_EQ(tied.back().traffic, 15);
  for (std::size_t i = 1; i < tied.size(); ++i) EXPECT_LE(tied[i - 1].traffic, tied[i].traffic);
}

TEST(AlgorithmChoice, InapplicableAlgorithmsCarryThePlannersReason) {
  const Topology t = Topology::parse("mesh:4x4");
  const AlgorithmChoice choice = choose_algorithm(
      request_on("mesh:4x4", t.parse_node("1,1"), {t.parse_node("2,2"), t.parse_node("3,0")}, PortModel::all_port()));
  std::map<std::string, std::string> excluded;
  for (const Candidate& c : choice.excluded) excluded[c.algorithm] = c.excluded_because;
  // rd and pcp broadcast; uniform needs a torus or star; two-port takes only two ports; xy-path a corner.
  for (const std::string name :
       {kRecursiveDoublingAlgorithm, kPcpAlgorithm, kUniformDualPathAlgorithm, kTwoPortAlgorithm, kXyPathAlgorithm}) {
    ASSERT_TRUE(excluded.contains(name)) << name;
    EXPECT_FALSE(excluded[name].empty()) << name;
  }
  EXPECT_NE(excluded[kRecursiveDoublingAlgorithm].find("broadcast"), std::string::npos)
      << excluded[kRecursiveDoublingAlgorithm];
}

TEST(AlgorithmChoice, CandidatesLimitTheChoiceAndNoneApplicableNamesEachReason) {
  const Topology t = Topology::parse("mesh:4x4");
  const Request request = request_on("mesh:4x4", t.parse_node("1,1"), {t.parse_node("2,2")}, PortModel::all_port());
  const AlgorithmChoice choice = choose_algorithm(request, {kVhAlgorithm, kDdsAlgorithm});
  EXPECT_EQ(choice.ranking.size(), 2U);
  try {
    choose_algorithm(request, {kRecursiveDoublingAlgorithm, kUniformDualPathAlgorithm});
    FAIL() << "no candidate applies";
  } catch (const UnsupportedError& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.rfind("no algorithm applies to this request on mesh:4x4 with all-port: rd: ", 0), 0U) << message;
    EXPECT_NE(message.find("; uniform: "), std::string::npos) << message;
  }
  EXPECT_THROW(choose_algorithm(request, {"three-port"}), SpecError);
}

}  // namespace
}  // namespace wormcast::model
