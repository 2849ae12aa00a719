// SPDX-License-Identifier: Apache-2.0
// Unicast-based multicast plans ([1]; [3], eq. (3); V2, V4-V6) and Request validation.
// Expected values come from the papers' worked examples (V-numbers, docs/algorithms.md) or are
// derived by hand in the comments.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "model/errors.hpp"
#include "model/plan.hpp"
#include "model/unicast_multicast.hpp"
#include "verif/model/plan_properties.hpp"

namespace wormcast::model {
namespace {

// Smallest k with base^k >= value: ceil(log_base(value)) for value >= 1, in integers.
int ceil_log(int base, long long value) {
  int k = 0;
  for (long long power = 1; power < value; power *= base) ++k;
  return k;
}

NodeId at(const Topology& t, int x, int y) { return t.node_at(Coord{x, y, 0}); }

// One unicast as the worked examples list it: step, sender -> receiver, port, address field.
struct ExpectedSend {
  int step;
  NodeId sender;
  NodeId receiver;
  ChannelNetwork port;
  std::vector<NodeId> address;
  auto key() const { return std::tie(step, sender, receiver); }
};

std::vector<ExpectedSend> sends_of(const Plan& plan) {
  std::vector<ExpectedSend> sends;
  for (const Worm& w : plan.worms) {
    EXPECT_EQ(w.kind, WormKind::kUnicast);
    EXPECT_EQ(w.header.destinations.size(), 1u);
    EXPECT_TRUE(w.port_network.has_value());
    sends.push_back(ExpectedSend{w.step, w.sender, w.header.destinations.front(),
                                 w.port_network.value_or(ChannelNetwork::kHigh), w.address_field});
  }
  return sends;
}

void expect_same_sends(std::vector<ExpectedSend> actual, std::vector<ExpectedSend> expected, const Topology& t) {
  const auto by_key = [](const ExpectedSend& a, const ExpectedSend& b) { return a.key() < b.key(); };
  std::sort(actual.begin(), actual.end(), by_key);
  std::sort(expected.begin(), expected.end(), by_key);
  ASSERT_EQ(actual.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const ExpectedSend& a = actual[i];
    const ExpectedSend& e = expected[i];
    const std::string what =
        "step " + std::to_string(e.step) + " (" + t.node_name(e.sender) + ") -> (" + t.node_name(e.receiver) + ")";
    EXPECT_EQ(a.step, e.step) << what;
    EXPECT_EQ(a.sender, e.sender) << what;
    EXPECT_EQ(a.receiver, e.receiver) << what;
    EXPECT_EQ(a.port, e.port) << what;
    std::set<NodeId> got(a.address.begin(), a.address.end());
    std::set<NodeId> want(e.address.begin(), e.address.end());
    EXPECT_EQ(got, want) << what << " address field";
  }
}

// The seed-000 worked example (Figure 5, V4): 6x6 mesh, source (3,3).
class TwoPortFigureFive : public ::testing::Test {
 protected:
  const Topology mesh = Topology::mesh({6, 6});
  const NodeId s = at(mesh, 3, 3);
  const NodeId d01 = at(mesh, 0, 1);
  const NodeId d31 = at(mesh, 3, 1);
  const NodeId d22 = at(mesh, 2, 2);
  const NodeId d52 = at(mesh, 5, 2);
  const NodeId d25 = at(mesh, 2, 5);
  Request request(const LatencyParameters& latency = {}) const {
    return make_request(mesh, kTwoPortAlgorithm, s, {d01, d31, d22, d52, d25}, 4, PortModel::two_port(), latency);
  }
};

TEST_F(TwoPortFigureFive, TwoPortPrintedChainMatchesV4a) {
  const Plan plan = plan_unicast_multicast(request(), {d01, d31, d22, d52, s, d25});
  const auto low = ChannelNetwork::kLow;
  const auto high = ChannelNetwork::kHigh;
  expect_same_sends(sends_of(plan),
                    {
                        {1, s, d31, low, {d01, d31, d22}},
                        {1, s, d25, high, {d25}},
                        {2, s, d52, low, {d52}},  // remaining at the source: {(5,2),(3,3)}; m - u = 0
                        {2, d31, d01, low, {d01}},
                        {2, d31, d22, high, {d22}},
                    },
                    mesh);
  EXPECT_EQ(plan.metrics.steps, 2);
  // [1]'s printed chain is not label-sorted (docs/algorithms.md, unicast-based), so (3,1) -> (0,1)
  // leaves on the low port while its route rises (labels 8 -> 11, V1) in the high network.
  for (const Worm& w : plan.worms) {
    if (w.sender == d31 && w.header.destinations == std::vector<NodeId>{d01}) {
      EXPECT_EQ(w.port_network, low);
      EXPECT_EQ(w.header.subnetwork, high);
    }
  }
}

TEST_F(TwoPortFigureFive, TwoPortLabelSortedChainMatchesV4b) {
  const Plan plan = plan_unicast_multicast(request());
  const auto low = ChannelNetwork::kLow;
  const auto high = ChannelNetwork::kHigh;
  expect_same_sends(sends_of(plan),
                    {
                        {1, s, d01, low, {d31, d01, d22}},
                        {1, s, d25, high, {d25}},
                        {2, s, d52, low, {d52}},
                        {2, d01, d31, low, {d31}},
                        {2, d01, d22, high, {d22}},
                    },
                    mesh);
  EXPECT_EQ(plan.metrics.steps, 2);
  // On the label-sorted chain each port's network is the one its route uses (Def. 1 labels).
  for (const Worm& w : plan.worms) EXPECT_EQ(w.header.subnetwork, w.port_network);
}

TEST_F(TwoPortFigureFive, LabelSortedChainFollowsDefinitionOneLabels) {
  // V1: (3,1)=8, (0,1)=11, (2,2)=14, (5,2)=17, (3,3)=20, (2,5)=33.
  const HamiltonianLabeling labeling = HamiltonianLabeling::path(mesh);
  EXPECT_EQ(labeling_ordered_chain(labeling, s, {d01, d31, d22, d52, d25}),
            (std::vector<NodeId>{d31, d01, d22, d52, s, d25}));
}

TEST_F(TwoPortFigureFive, ContentionFreeLatencyAndTrafficMatchHandDerivation) {
  // alpha 10, gamma 5, beta 2, router delay 3, L = 4; routes are minimal (V3), so hops = Manhattan.
  // Message (a -> b, start t, h hops) arrives at t + 10 + 3h + 4*2 + 5 = t + 23 + 3h; a port is
  // busy for 10 + 4*2 = 18 after a start.
  //   step 1: (3,3)->(0,1) h 5 at 38; (3,3)->(2,5) h 3 at 32
  //   step 2: (3,3)->(5,2) waits for the low port (18), h 3: 50;
  //           (0,1)->(3,1) and (0,1)->(2,2) start at 38, h 3: 70
  const Plan plan = plan_unicast_multicast(request(LatencyParameters{10, 5, 2, 0, 3}));
  const std::map<NodeId, std::tuple<int, int, int, double>> expected = {
      // destination: step, shortest distance from the source, hops along the chain, latency
      {d01, {1, 5, 5, 38.0}}, {d25, {1, 3, 3, 32.0}}, {d52, {2, 3, 3, 50.0}},
      {d31, {2, 2, 8, 70.0}}, {d22, {2, 2, 8, 70.0}},
  };
  ASSERT_EQ(plan.metrics.destinations.size(), 5u);
  for (const DestinationMetrics& d : plan.metrics.destinations) {
    const auto& [step, distance, path_hops, latency] = expected.at(d.destination);
    EXPECT_EQ(d.step, step) << mesh.node_name(d.destination);
    EXPECT_EQ(d.distance, distance) << mesh.node_name(d.destination);
    EXPECT_EQ(d.path_hops, path_hops) << mesh.node_name(d.destination);
    EXPECT_DOUBLE_EQ(d.latency, latency) << mesh.node_name(d.destination);
  }
  EXPECT_DOUBLE_EQ(plan.metrics.latency, 70.0);
  EXPECT_EQ(plan.metrics.traffic, 5 + 3 + 3 + 3 + 3);
  EXPECT_EQ(plan.metrics.additional_traffic, 17 - 5);
  EXPECT_EQ(plan.metrics.stepwise_contention, 0);
}

// V5: steps of the two-port algorithm for the source at the end (src = 0) and the middle.
TEST(TwoPort, StepCountsMatchV5Table) {
  struct Row {
    int m, end, middle;
  };
  const std::vector<Row> table = {{1, 1, 1},  {2, 2, 1},  {3, 2, 2},   {4, 2, 2},   {5, 3, 2},
                                  {8, 3, 2},  {9, 3, 3},  {13, 3, 3},  {14, 4, 3},  {26, 4, 3},
                                  {27, 4, 4}, {80, 5, 4}, {242, 6, 5}, {243, 6, 6}, {399, 7, 6}};
  for (const Row& row : table) {
    EXPECT_EQ(step_count(two_port_schedule(row.m, 0)), row.end) << "m = " << row.m << ", src = 0";
    EXPECT_EQ(step_count(two_port_schedule(row.m, row.m / 2)), row.middle) << "m = " << row.m << ", src = m/2";
    EXPECT_LE(row.middle, ceil_log(3, row.m + 1)) << "m = " << row.m;
  }
}

// Every index but src receives exactly once, and only holders send (a receiver from the next step).
void expect_schedule_delivers_once(const std::vector<ChainSend>& schedule, int m, int src) {
  std::vector<int> received_at(static_cast<std::size_t>(m + 1), -1);
  received_at[static_cast<std::size_t>(src)] = 0;
  for (const ChainSend& send : schedule) {  // ordered by step
    const int sender_got = received_at[static_cast<std::size_t>(send.sender)];
    ASSERT_GE(sender_got, 0) << "m " << m << " src " << src << ": index " << send.sender << " sends before holding";
    ASSERT_LT(sender_got, send.step) << "m " << m << " src " << src;
    ASSERT_EQ(received_at[static_cast<std::size_t>(send.receiver)], -1)
        << "m " << m << " src " << src << ": index " << send.receiver << " receives twice";
    ASSERT_LE(send.first, send.receiver);
    ASSERT_GE(send.last, send.receiver);
    received_at[static_cast<std::size_t>(send.receiver)] = send.step;
  }
  for (int i = 0; i <= m; ++i) ASSERT_GE(received_at[static_cast<std::size_t>(i)], 0) << "m " << m << " index " << i;
}

TEST(TwoPort, StepsWithinCeilLog3OfTwiceChainForEveryChainUpTo399) {
  // V5: for all m <= 399 and all src, steps <= ceil(log3(2(m+1))) <= ceil(log3(m+1)) + 1; src = 0 is
  // the worst case and takes exactly ceil(log3(2(m+1))), one fewer for m = (3^j - 1)/2; the best
  // case over src is ceil(log3(m+1)) (checked for m < 200).
  const std::set<int> one_fewer = {1, 4, 13, 40, 121, 364};
  for (int m = 1; m <= 399; ++m) {
    const int bound = ceil_log(3, 2LL * (m + 1));
    ASSERT_LE(bound, ceil_log(3, m + 1) + 1);
    int worst = 0;
    int best = bound + 1;
    for (int src = 0; src <= m; ++src) {
      const std::vector<ChainSend> schedule = two_port_schedule(m, src);
      const int steps = step_count(schedule);
      ASSERT_LE(steps, bound) << "m = " << m << ", src = " << src;
      worst = std::max(worst, steps);
      best = std::min(best, steps);
      if (m <= 60) expect_schedule_delivers_once(schedule, m, src);
    }
    const int at_end = step_count(two_port_schedule(m, 0));
    EXPECT_EQ(at_end, worst) << "m = " << m;
    EXPECT_EQ(at_end, one_fewer.count(m) ? bound - 1 : bound) << "m = " << m;
    if (m < 200) {
      EXPECT_EQ(best, ceil_log(3, m + 1)) << "m = " << m;
    }
  }
}

TEST(TwoPort, EachHolderSendsAtMostOncePerPortPerStep) {
  for (int m = 1; m <= 120; ++m) {
    for (int src = 0; src <= m; ++src) {
      std::set<std::tuple<int, int, int>> used;  // (step, sender, port)
      for (const ChainSend& send : two_port_schedule(m, src)) {
        EXPECT_TRUE(used.insert({send.step, send.sender, send.port}).second) << "m " << m << " src " << src;
        // The low port hands away a block below the sender, the high port one above ([1], Figure 4).
        if (send.port_network == ChannelNetwork::kLow) {
          EXPECT_LT(send.last, send.sender);
        } else {
          EXPECT_GT(send.first, send.sender);
        }
      }
    }
  }
}

TEST(OnePort, RecursiveHalvingTakesCeilLog2StepsForEveryChainUpTo399) {
  // [1]'s one-port baseline: ceil(log2(m+1)) steps for any src, one send per holder per step.
  for (int m = 0; m <= 399; ++m) {
    for (int src = 0; src <= m; ++src) {
      const std::vector<ChainSend> schedule = one_port_schedule(m, src);
      ASSERT_EQ(step_count(schedule), ceil_log(2, m + 1)) << "m = " << m << ", src = " << src;
      if (m <= 60) {
        expect_schedule_delivers_once(schedule, m, src);
        std::set<std::pair<int, int>> used;
        for (const ChainSend& send : schedule) {
          EXPECT_TRUE(used.insert({send.step, send.sender}).second) << "m " << m << " src " << src;
          EXPECT_FALSE(send.port_network.has_value());
        }
      }
    }
  }
}

TEST(UnicastDPort, TwoPortsReproduceFigureFourSchedule) {
  for (int m = 0; m <= 150; ++m) {
    for (int src = 0; src <= m; ++src) {
      ASSERT_EQ(d_port_schedule(m, src, 2), two_port_schedule(m, src)) << "m = " << m << ", src = " << src;
    }
  }
}

TEST(UnicastDPort, FourAndSixPortsStayWithinOneStepOfLogDPlusOne) {
  // [1]'s d-port claim (docs/algorithms.md "d-port"): a centred holder needs ceil(log_{d+1}(m+1))
  // steps, an end-positioned source about one more.
  for (int d : {4, 6}) {
    for (int m = 1; m <= 150; ++m) {
      const int optimum = ceil_log(d + 1, m + 1);
      for (int src = 0; src <= m; ++src) {
        const std::vector<ChainSend> schedule = d_port_schedule(m, src, d);
        ASSERT_LE(step_count(schedule), optimum + 1) << "d " << d << " m " << m << " src " << src;
        if (m <= 40) expect_schedule_delivers_once(schedule, m, src);
      }
      EXPECT_LE(step_count(d_port_schedule(m, m / 2, d)), optimum) << "d " << d << " m " << m;
    }
  }
}

TEST(Unicast, PlainUnicastIsOneWormOnTheV2Route) {
  // V2: in the 6x6 mesh, R routes (1,2) -> (3,4) through (1,3), (1,4), (2,4): 4 high hops.
  const Topology mesh = Topology::mesh({6, 6});
  const Plan plan = plan_unicast_multicast(
      make_request(mesh, kUnicastAlgorithm, at(mesh, 1, 2), {at(mesh, 3, 4)}, 8, PortModel::one_port()));
  ASSERT_EQ(plan.worms.size(), 1u);
  const Worm& w = plan.worms.front();
  EXPECT_EQ(w.route,
            (std::vector<NodeId>{at(mesh, 1, 2), at(mesh, 1, 3), at(mesh, 1, 4), at(mesh, 2, 4), at(mesh, 3, 4)}));
  EXPECT_EQ(w.header.mode, RoutingMode::kHamiltonianPath);
  EXPECT_EQ(w.header.subnetwork, ChannelNetwork::kHigh);
  EXPECT_EQ(w.header.control_field, 0);
  EXPECT_EQ(w.keeps_copy, (std::vector<NodeId>{at(mesh, 3, 4)}));
  EXPECT_EQ(w.address_field, (std::vector<NodeId>{at(mesh, 3, 4)}));
  EXPECT_EQ(plan.metrics.steps, 1);
  EXPECT_EQ(plan.metrics.traffic, 4);
  EXPECT_EQ(plan.metrics.additional_traffic, 3);
}

TEST(Unicast, ZeroStartupLatencyIsDistancePlusLengthLikeThesisWormholeFormula) {
  // Thesis eq. 2.1.10 ([5]): wormhole latency D + L with one cycle per flit and per hop.
  const Topology mesh = Topology::mesh({6, 6});
  const Plan plan = plan_unicast_multicast(make_request(mesh, kUnicastAlgorithm, at(mesh, 0, 0), {at(mesh, 5, 5)}, 7,
                                                        PortModel::one_port(), LatencyParameters{0, 0, 1, 0, 1}));
  EXPECT_DOUBLE_EQ(plan.metrics.latency, 10 + 7);
}

TEST(Unicast, SeparateAddressingSendsOneUnicastPerPortPerStep) {
  // 8x8 mesh, source (3,3) (label 27); 3 destinations below it and 5 above.
  const Topology mesh = Topology::mesh({8, 8});
  const std::vector<NodeId> below = {at(mesh, 0, 0), at(mesh, 5, 1), at(mesh, 7, 2)};
  const std::vector<NodeId> above = {at(mesh, 0, 3), at(mesh, 2, 4), at(mesh, 6, 5), at(mesh, 1, 6), at(mesh, 7, 7)};
  std::vector<NodeId> destinations = below;
  destinations.insert(destinations.end(), above.begin(), above.end());
  const auto steps = [&](PortModel ports) {
    return plan_unicast_multicast(make_request(mesh, kUnicastAlgorithm, at(mesh, 3, 3), destinations, 1, ports))
        .metrics.steps;
  };
  EXPECT_EQ(steps(PortModel::one_port()), 8);
  EXPECT_EQ(steps(PortModel::two_port()), 5);  // one high send per step
  EXPECT_EQ(steps(PortModel::d_port(4)), 3);   // ceil(5 / 2) on the high side
  EXPECT_EQ(steps(PortModel::all_port()), 3);  // 4 ports in a 2D mesh
}

TEST(OnePort, SourceSendsOneAfterAnotherOnItsSinglePort) {
  // 4x4 mesh, source (0,0), chain [(0,0),(1,0),(2,0),(3,0)]: halving sends (0,0)->(2,0) in step 1,
  // then (0,0)->(1,0) and (2,0)->(3,0) in step 2. alpha 10, gamma 5, beta 2, delay 3, L 4:
  //   (2,0): 0 + 10 + 2*3 + 8 + 5 = 29; the port is busy until 0 + 10 + 8 = 18
  //   (1,0): 18 + 10 + 3 + 8 + 5 = 44;   (3,0): 29 + 26 = 55
  const Topology mesh = Topology::mesh({4, 4});
  const Plan plan = plan_unicast_multicast(make_request(mesh, kOnePortAlgorithm, at(mesh, 0, 0),
                                                        {at(mesh, 1, 0), at(mesh, 2, 0), at(mesh, 3, 0)}, 4,
                                                        PortModel::one_port(), LatencyParameters{10, 5, 2, 0, 3}));
  ASSERT_EQ(plan.metrics.destinations.size(), 3u);
  EXPECT_DOUBLE_EQ(plan.metrics.destinations[0].latency, 44.0);
  EXPECT_DOUBLE_EQ(plan.metrics.destinations[1].latency, 29.0);
  EXPECT_DOUBLE_EQ(plan.metrics.destinations[2].latency, 55.0);
  EXPECT_EQ(plan.metrics.destinations[2].step, 2);
  EXPECT_EQ(plan.metrics.steps, 2);
}

std::vector<NodeId> random_destinations(std::mt19937& rng, const Topology& t, NodeId source, int count) {
  std::vector<NodeId> nodes;
  for (NodeId n = 0; n < t.node_count(); ++n) {
    if (n != source) nodes.push_back(n);
  }
  std::shuffle(nodes.begin(), nodes.end(), rng);
  nodes.resize(static_cast<std::size_t>(count));
  return nodes;
}

TEST(TwoPort, RandomMulticastsHaveNoStepwiseContentionV6) {
  // V6: 0 stepwise conflicts in 300 random multicasts on 6x6 and 300 on 16x16; cross-step sharing
  // by different senders does occur on 16x16 (141 of 300 in V6).
  std::mt19937 rng(6);
  int with_depth_sharing = 0;
  for (int size : {6, 16}) {
    const Topology mesh = Topology::mesh({size, size});
    for (int trial = 0; trial < 300; ++trial) {
      const NodeId source = std::uniform_int_distribution<NodeId>(0, mesh.node_count() - 1)(rng);
      const int k = std::uniform_int_distribution<int>(1, size == 6 ? 35 : 80)(rng);
      const Plan plan = plan_unicast_multicast(make_request(
          mesh, kTwoPortAlgorithm, source, random_destinations(rng, mesh, source, k), 16, PortModel::two_port()));
      ASSERT_EQ(plan.metrics.stepwise_contention, 0) << mesh.spec() << " trial " << trial;
      if (size == 16 && plan.metrics.depth_contention > 0) ++with_depth_sharing;
    }
  }
  EXPECT_GT(with_depth_sharing, 0);
}

TEST(TwoPort, MinimalSixBySixInstanceSharesTwoChannelsAcrossStepsV6) {
  // V6: source (2,5), D = {(4,0),(5,0),(2,1),(0,1),(1,2),(2,4)}. Step 1 (2,5)->(2,1) and step 3
  // (2,4)->(1,2) share (2,4)->(2,3) and (2,3)->(2,2). By hand: hops 4 | 2, 4, 1 | 3, 1 = 15; the
  // source's own step-2 worm (2,5)->(2,4) reuses (2,5)->(2,4), so 12 distinct channels.
  const Topology mesh = Topology::mesh({6, 6});
  const NodeId source = at(mesh, 2, 5);
  const Plan plan = plan_unicast_multicast(
      make_request(mesh, kTwoPortAlgorithm, source,
                   {at(mesh, 4, 0), at(mesh, 5, 0), at(mesh, 2, 1), at(mesh, 0, 1), at(mesh, 1, 2), at(mesh, 2, 4)}, 8,
                   PortModel::two_port()));
  const auto low = ChannelNetwork::kLow;
  const auto high = ChannelNetwork::kHigh;
  expect_same_sends(
      sends_of(plan),
      {
          {1, source, at(mesh, 2, 1), low, {at(mesh, 4, 0), at(mesh, 5, 0), at(mesh, 2, 1), at(mesh, 0, 1)}},
          {2, at(mesh, 2, 1), at(mesh, 0, 1), high, {at(mesh, 0, 1)}},
          {2, at(mesh, 2, 1), at(mesh, 5, 0), low, {at(mesh, 4, 0), at(mesh, 5, 0)}},
          {2, source, at(mesh, 2, 4), low, {at(mesh, 1, 2), at(mesh, 2, 4)}},
          {3, at(mesh, 2, 4), at(mesh, 1, 2), low, {at(mesh, 1, 2)}},
          {3, at(mesh, 5, 0), at(mesh, 4, 0), low, {at(mesh, 4, 0)}},
      },
      mesh);
  EXPECT_EQ(plan.metrics.steps, 3);
  EXPECT_EQ(plan.metrics.stepwise_contention, 0);
  EXPECT_EQ(plan.metrics.depth_contention, 1);
  EXPECT_EQ(plan.metrics.traffic, 15);
  EXPECT_EQ(plan.metrics.distinct_channels, 12);
  EXPECT_EQ(plan.metrics.additional_traffic, 15 - 6);

  std::set<std::pair<NodeId, NodeId>> cross_step;  // channels as (from, to)
  for (const SharedChannel& shared : plan.metrics.shared_channels) {
    const Worm& a = plan.worms[shared.first_worm];
    const Worm& b = plan.worms[shared.second_worm];
    if (a.step == b.step || a.sender == b.sender) continue;
    const std::set<std::pair<NodeId, NodeId>> pair = {{a.sender, a.header.destinations.front()},
                                                      {b.sender, b.header.destinations.front()}};
    EXPECT_EQ(pair, (std::set<std::pair<NodeId, NodeId>>{{source, at(mesh, 2, 1)}, {at(mesh, 2, 4), at(mesh, 1, 2)}}));
    cross_step.insert({shared.node, mesh.neighbour(shared.node, shared.port)});
  }
  EXPECT_EQ(cross_step,
            (std::set<std::pair<NodeId, NodeId>>{{at(mesh, 2, 4), at(mesh, 2, 3)}, {at(mesh, 2, 3), at(mesh, 2, 2)}}));
}

int manhattan(const Topology& t, NodeId a, NodeId b) {
  const Coord p = t.coord(a);
  const Coord q = t.coord(b);
  int sum = 0;
  for (int d = 0; d < t.dimensions(); ++d)
    sum += std::abs(p[static_cast<std::size_t>(d)] - q[static_cast<std::size_t>(d)]);
  return sum;
}

// Invariants every unicast-based plan must satisfy, checked from the worms alone.
void expect_valid_unicast_plan(const Plan& plan, const std::string& what) {
  const Request& r = plan.request;
  const Topology& t = r.topology;
  const HamiltonianLabeling labeling = HamiltonianLabeling::path(t);
  const std::set<NodeId> destinations(r.destinations.begin(), r.destinations.end());
  std::map<NodeId, int> copies;
  std::map<NodeId, int> received_step = {{r.source, 0}};
  std::map<NodeId, std::set<NodeId>> responsible = {{r.source, {destinations.begin(), destinations.end()}}};
  int previous_step = 0;
  for (const Worm& w : plan.worms) {
    ASSERT_GE(w.step, previous_step) << what << ": worms out of step order";
    previous_step = w.step;
    ASSERT_EQ(w.header.destinations.size(), 1u) << what;
    const NodeId receiver = w.header.destinations.front();
    // Step order: the sender holds the message from an earlier step.
    ASSERT_TRUE(received_step.count(w.sender)) << what << ": " << t.node_name(w.sender) << " sends before holding";
    ASSERT_LT(received_step.at(w.sender), w.step) << what;
    // The receiver is one the sender is responsible for, and takes over its address field.
    ASSERT_TRUE(responsible.at(w.sender).count(receiver)) << what;
    for (NodeId a : w.address_field) ASSERT_TRUE(responsible.at(w.sender).count(a)) << what;
    ASSERT_TRUE(std::count(w.address_field.begin(), w.address_field.end(), receiver)) << what;
    // The route: connected, from sender to receiver, over links of the network and of the path
    // labeling (no torus wraps), labels monotone in the header's network, and minimal in 2D (V3).
    ASSERT_EQ(w.route.size(), w.hops.size() + 1) << what;
    ASSERT_EQ(w.route.front(), w.sender) << what;
    ASSERT_EQ(w.route.back(), receiver) << what;
    for (std::size_t i = 0; i < w.hops.size(); ++i) {
      ASSERT_EQ(w.hops[i].node, w.route[i]) << what;
      ASSERT_EQ(t.neighbour(w.route[i], w.hops[i].port), w.route[i + 1]) << what;
      ASSERT_TRUE(labeling.uses_link(w.route[i], w.hops[i].port)) << what;
      const bool rising = labeling.label(w.route[i + 1]) > labeling.label(w.route[i]);
      ASSERT_EQ(rising, w.header.subnetwork == ChannelNetwork::kHigh) << what;
    }
    if (t.dimensions() == 2) {  // V3 covers 2D; the 3D layer snake is not always minimal
      ASSERT_EQ(static_cast<int>(w.hops.size()), manhattan(t, w.sender, receiver)) << what;
    } else {
      ASSERT_GE(static_cast<int>(w.hops.size()), manhattan(t, w.sender, receiver)) << what;
    }
    ASSERT_EQ(w.keeps_copy, std::vector<NodeId>{receiver}) << what;
    for (NodeId node : w.keeps_copy) ++copies[node];
    received_step.emplace(receiver, w.step);
    for (NodeId a : w.address_field) responsible.at(w.sender).erase(a);
    responsible[receiver] = std::set<NodeId>(w.address_field.begin(), w.address_field.end());
    responsible[receiver].erase(receiver);
  }
  // Every destination keeps exactly one copy; the source and non-destinations keep none.
  for (NodeId d : destinations) EXPECT_EQ(copies[d], 1) << what << ": " << t.node_name(d);
  for (const auto& [node, count] : copies) ASSERT_TRUE(destinations.count(node)) << what << ": " << t.node_name(node);
  ASSERT_FALSE(copies.count(r.source)) << what;
  expect_copies_only_at_destinations_and_relays_forward(plan, what);
  // Nobody is left responsible for an undelivered destination.
  for (const auto& [node, rest] : responsible) ASSERT_TRUE(rest.empty()) << what << ": " << t.node_name(node);
  ASSERT_EQ(plan.metrics.destinations.size(), destinations.size()) << what;
  for (const DestinationMetrics& d : plan.metrics.destinations) {
    EXPECT_EQ(d.step, received_step.at(d.destination)) << what;
    EXPECT_GT(d.latency, 0.0) << what;
  }
}

TEST(Plan, RandomUnicastBasedPlansDeliverOnceAlongValidRoutes) {
  const std::vector<Topology> topologies = {
      Topology::mesh({6, 6}),  Topology::mesh({16, 16}),  Topology::mesh({5, 7}),
      Topology::mesh({8, 3}),  Topology::mesh({4, 4, 4}), Topology::mesh({3, 4, 5}),
      Topology::torus({6, 6}), Topology::torus({2, 4}),   Topology::torus({4, 3, 2})};
  struct Variant {
    const char* algorithm;
    PortModel ports;
  };
  const std::vector<Variant> variants = {
      {kUnicastAlgorithm, PortModel::one_port()}, {kUnicastAlgorithm, PortModel::two_port()},
      {kOnePortAlgorithm, PortModel::one_port()}, {kTwoPortAlgorithm, PortModel::two_port()},
      {kDPortAlgorithm, PortModel::d_port(4)},    {kDPortAlgorithm, PortModel::d_port(6)},
      {kDPortAlgorithm, PortModel::all_port()},
  };
  std::mt19937 rng(2024);
  for (int trial = 0; trial < 3000; ++trial) {
    const Topology& t = topologies[static_cast<std::size_t>(trial) % topologies.size()];
    const Variant& v = variants[static_cast<std::size_t>(trial / topologies.size()) % variants.size()];
    const NodeId source = std::uniform_int_distribution<NodeId>(0, t.node_count() - 1)(rng);
    const int k = std::uniform_int_distribution<int>(1, std::min(t.node_count() - 1, 64))(rng);
    const Plan plan = plan_unicast_multicast(
        make_request(t, v.algorithm, source, random_destinations(rng, t, source, k), 1 + trial % 32, v.ports));
    const std::string what = t.spec() + " " + v.algorithm + " " + v.ports.name() + " trial " + std::to_string(trial);
    expect_valid_unicast_plan(plan, what);
    if (v.algorithm == std::string(kTwoPortAlgorithm)) {
      ASSERT_LE(plan.metrics.steps, ceil_log(3, 2LL * (k + 1))) << what;
      ASSERT_EQ(plan.metrics.stepwise_contention, 0) << what;
      for (const Worm& w : plan.worms) ASSERT_EQ(w.header.subnetwork, w.port_network) << what;
    }
    if (v.algorithm == std::string(kOnePortAlgorithm)) {
      ASSERT_EQ(plan.metrics.steps, ceil_log(2, k + 1)) << what;
    }
    if (HasFatalFailure()) return;
  }
}

// Request validation: each bad input names itself and what is valid.
template <typename Error>
void expect_error_mentions(const std::function<void()>& call, const std::vector<std::string>& fragments) {
  try {
    call();
    ADD_FAILURE() << "no error thrown";
  } catch (const Error& e) {
    for (const std::string& f : fragments) EXPECT_NE(std::string(e.what()).find(f), std::string::npos) << e.what();
  }
}

TEST(PlanRequest, BadInputsThrowTypedErrorsNamingTheValue) {
  const Topology mesh = Topology::mesh({6, 6});
  const NodeId s = at(mesh, 3, 3);
  const auto request = [&](std::vector<NodeId> destinations, int length) {
    return [=] { make_request(mesh, kTwoPortAlgorithm, s, destinations, length, PortModel::two_port()); };
  };
  expect_error_mentions<NodeError>(request({1, 36}, 4), {"destination #2 (node id 36)", "0..35"});
  expect_error_mentions<NodeError>(request({-1}, 4), {"-1", "0..35"});
  expect_error_mentions<RequestError>(request({1, 7, 1}, 4), {"(1,0)", "twice"});
  expect_error_mentions<RequestError>(request({1, s}, 4), {"(3,3)", "source"});
  expect_error_mentions<RequestError>(request({}, 4), {"empty", "1..35"});
  expect_error_mentions<RequestError>(request({1}, 0), {"0 flits", "at least 1"});
  expect_error_mentions<NodeError>([&] { make_request(mesh, kTwoPortAlgorithm, 99, {1}, 4, PortModel::two_port()); },
                                   {"source (node id 99)", "0..35"});
  expect_error_mentions<RequestError>([&] { make_request(mesh, kUnicastAlgorithm, s, {1}, 4, PortModel::d_port(0)); },
                                      {"0-port", "at least 1"});
  // The validation also guards planners handed an unvalidated Request.
  Request bad = make_request(mesh, kTwoPortAlgorithm, s, {1}, 4, PortModel::two_port());
  bad.length_flits = -3;
  expect_error_mentions<RequestError>([&] { plan_unicast_multicast(bad); }, {"-3"});
  EXPECT_NO_THROW(request({1, 7, 35}, 1)());
}

TEST(PlanRequest, PlannerRejectsUnknownAlgorithmsPortModelsAndChains) {
  const Topology mesh = Topology::mesh({6, 6});
  const auto plan = [&](const char* algorithm, PortModel ports) {
    return [=] { plan_unicast_multicast(make_request(mesh, algorithm, 0, {5, 9}, 4, ports)); };
  };
  expect_error_mentions<SpecError>(plan("three-port", PortModel::two_port()), {"three-port", "two-port", "one-port"});
  expect_error_mentions<UnsupportedError>(plan(kTwoPortAlgorithm, PortModel::one_port()), {"one-port", "two ports"});
  expect_error_mentions<UnsupportedError>(plan(kOnePortAlgorithm, PortModel::two_port()), {"two-port", "one port"});
  expect_error_mentions<UnsupportedError>(plan(kDPortAlgorithm, PortModel::d_port(3)), {"3-port", "even"});
  expect_error_mentions<UnsupportedError>(
      [&] {
        plan_unicast_multicast(make_request(Topology::star(4), kTwoPortAlgorithm, 0, {1}, 4, PortModel::two_port()));
      },
      {"star:4"});
  const Request request = make_request(mesh, kTwoPortAlgorithm, 0, {5, 9}, 4, PortModel::two_port());
  expect_error_mentions<RequestError>([&] { plan_unicast_multicast(request, {0, 5}); }, {"chain"});
  expect_error_mentions<RequestError>([&] { plan_unicast_multicast(request, {0, 5, 10}); }, {"chain"});
  expect_error_mentions<RequestError>([] { two_port_schedule(4, 5); }, {"5", "0..4"});
}

}  // namespace
}  // namespace wormcast::model
