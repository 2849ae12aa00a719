// SPDX-License-Identifier: Apache-2.0
// The analytic latency's RTL parameters (model::LatencyParameters::rtl, docs/timing.md "The
// analytic opinion") and the worms' wire lengths (model/wire_length.hpp), on small hand-checked
// plans; the papers' defaults keep [3]'s eq. (3). The comparison with the RTL itself is
// verif/system/analytic_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "model/cpr_broadcast.hpp"
#include "model/path_multicast.hpp"
#include "model/planner.hpp"
#include "model/tree_multicast.hpp"
#include "model/unicast_multicast.hpp"
#include "model/wire_length.hpp"

namespace wormcast::model {
namespace {

constexpr double kAlpha = 30, kGamma = 20;

Plan plan_of(const Topology& t, const std::string& algorithm, NodeId source, std::vector<NodeId> destinations,
             int length, PortModel ports, LatencyParameters latency) {
  return plan(make_request(t, algorithm, source, std::move(destinations), length, ports, latency));
}

TEST(AnalyticLatency, PaperDefaultsKeepAlphaPlusHopsPlusLengthPlusGamma) {
  const Topology t = Topology::mesh({4, 4});
  const Plan p = plan_of(t, kUnicastAlgorithm, 0, {15}, 5, PortModel::one_port(), LatencyParameters{});
  const double hops = static_cast<double>(p.worms.front().hops.size());
  EXPECT_DOUBLE_EQ(p.metrics.latency, 227 + hops + 5 + 227);
}

// docs/rtl.md "Latency": the head leaves the destination's ejection port 2 + 2 H cycles after it
// entered the sender's router (4 for one hop); the tail F - 1 cycles after it; then gamma.
TEST(AnalyticLatency, RtlUnicastIsAlphaPlusTwoPlusTwoPerHopPlusTailPlusGamma) {
  const Topology t = Topology::mesh({4, 4});
  for (const NodeId to : {1, 5, 15}) {
    const Plan p =
        plan_of(t, kUnicastAlgorithm, 0, {to}, 7, PortModel::one_port(), LatencyParameters::rtl(kAlpha, kGamma));
    const double hops = static_cast<double>(p.worms.front().hops.size());
    const int flits = 1 + 3 + 1 + 7;  // head, 3 control words, one address word (the receiver), L
    ASSERT_EQ(wire_lengths(p.request, p.worms).front().flits(), flits);
    EXPECT_DOUBLE_EQ(p.metrics.latency, kAlpha + 2 + 2 * hops + (flits - 1) + kGamma) << "to node " << to;
  }
}

TEST(AnalyticLatency, RtlOnePortSourceSendsItsNextWormWhenTheTailHasLeft) {
  const Topology t = Topology::mesh({4, 4});
  const Plan p =
      plan_of(t, kUnicastAlgorithm, 0, {1, 2}, 4, PortModel::one_port(), LatencyParameters::rtl(kAlpha, kGamma));
  ASSERT_EQ(p.worms.size(), 2u);
  const int first = wire_lengths(p.request, p.worms)[0].flits();
  const auto& second = p.worms[1];
  const double hops = static_cast<double>(second.hops.size());
  const int flits = wire_lengths(p.request, p.worms)[1].flits();
  const NodeId to = second.keeps_copy.front();
  const auto& d = p.metrics.destinations;
  const double got = d[0].destination == to ? d[0].latency : d[1].latency;
  EXPECT_DOUBLE_EQ(got, (kAlpha + first) + kAlpha + 2 + 2 * hops + (flits - 1) + kGamma);
}

TEST(AnalyticLatency, MultidestinationWormCarriesOneHeaderFlitPerDestinationAndPaysAPromotionAtEach) {
  const Topology t = Topology::mesh({4, 4});
  const Plan p =
      plan_of(t, kDualPathAlgorithm, 0, {1, 2, 3}, 6, PortModel::one_port(), LatencyParameters::rtl(kAlpha, kGamma));
  ASSERT_EQ(p.worms.size(), 1u);
  const Worm& w = p.worms.front();
  ASSERT_EQ(w.header.destinations.size(), 3u);
  const WireLength length = wire_lengths(p.request, p.worms).front();
  EXPECT_EQ(length.header_flits, 3);
  EXPECT_EQ(length.payload_words, 3 + 6);
  for (std::size_t i = 0; i < 3; ++i) {
    const NodeId d = w.header.destinations[i];
    const auto at = std::find(w.route.begin(), w.route.end(), d) - w.route.begin();
    const double want =
        kAlpha + 2 + 2 * static_cast<double>(at) + (length.flits() - 1) + static_cast<double>(i) + kGamma;
    for (const DestinationMetrics& m : p.metrics.destinations) {
      if (m.destination == d) {
        EXPECT_DOUBLE_EQ(m.latency, want) << "destination " << i;
      }
    }
  }
}

TEST(AnalyticLatency, TreeWormCarriesItsReceiversSubtree) {
  const Topology t = Topology::mesh({4, 4});
  // VH from the origin to the whole first row: a chain (0,0) -> (1,0) -> (2,0) -> (3,0).
  const Plan p =
      plan_of(t, kVhAlgorithm, 0, {1, 2, 3}, 2, PortModel::one_port(), LatencyParameters::rtl(kAlpha, kGamma));
  ASSERT_EQ(p.worms.size(), 3u);
  const std::vector<WireLength> lengths = wire_lengths(p.request, p.worms);
  EXPECT_EQ(lengths[0].payload_words, 3 + 2 + 2);  // subtree of (1,0): 3 entries, 2 words
  EXPECT_EQ(lengths[1].payload_words, 3 + 1 + 2);  // (2,0), (3,0)
  EXPECT_EQ(lengths[2].payload_words, 3 + 1 + 2);  // (3,0)
}

TEST(AnalyticLatency, RtlChargesOneAlphaPerChannelAndNoMuWhereThePapersChargeCopiesAndControlFields) {
  const Topology t = Topology::mesh({8, 8});
  std::vector<NodeId> all;
  for (NodeId v = 1; v < t.node_count(); ++v) all.push_back(v);
  LatencyParameters paper;
  paper.alpha = paper.gamma = paper.mu = kAlpha;
  const Plan a = plan_of(t, kPcpAlgorithm, 0, all, 4, PortModel::all_port(), paper);
  LatencyParameters per_channel = paper;
  per_channel.startup_per_channel = true;
  per_channel.mu = 0;
  const Plan b = plan_of(t, kPcpAlgorithm, 0, all, 4, PortModel::all_port(), per_channel);
  const Worm& first = a.worms.front();
  ASSERT_GT(first.prepared_copies, 1);
  EXPECT_DOUBLE_EQ(a.metrics.latency - b.metrics.latency,
                   (first.prepared_copies - 1) * kAlpha + first.control_field_changes * kAlpha);
}

// Two worms of one step from one node on separate injection channels, both over the channel
// (0,0) -> (1,0): docs/timing.md, the next head takes a channel F + 1 cycles after the previous one.
TEST(AnalyticLatency, RtlQueuesTheSecondWormOfAStepBehindTheFirstOnASharedChannel) {
  const Topology t = Topology::mesh({4, 4});
  const int length = 6;
  const auto unicast = [&](NodeId to, int port, std::vector<NodeId> route) {
    Worm w;
    w.sender = 0;
    w.port = port;
    w.header.mode = RoutingMode::kDimensionOrder;
    w.header.destinations = {to};
    for (std::size_t i = 0; i + 1 < route.size(); ++i) w.hops.push_back({route[i], port_of(0, false), 0});
    w.route = std::move(route);
    w.keeps_copy = {to};
    return w;
  };
  const std::vector<Worm> worms{unicast(1, 0, {0, 1}), unicast(2, 1, {0, 1, 2})};
  LatencyParameters p = LatencyParameters::rtl(kAlpha, kGamma);
  p.wire_lengths = false;  // F = L
  const Request r = make_request(t, kUnicastAlgorithm, 0, {1, 2}, length, PortModel::all_port(), p);
  const PlanMetrics m = compute_metrics(r, worms);
  EXPECT_DOUBLE_EQ(m.destinations[0].latency, kAlpha + 2 + 2 * 1 + (length - 1) + kGamma);
  EXPECT_DOUBLE_EQ(m.destinations[1].latency, kAlpha + 2 + 2 * 2 + (length - 1) + kGamma + (length + 1));
  p.channel_queueing = false;
  const PlanMetrics free =
      compute_metrics(make_request(t, kUnicastAlgorithm, 0, {1, 2}, length, PortModel::all_port(), p), worms);
  EXPECT_DOUBLE_EQ(free.destinations[1].latency, kAlpha + 2 + 2 * 2 + (length - 1) + kGamma);
}

}  // namespace
}  // namespace wormcast::model
