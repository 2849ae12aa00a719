// SPDX-License-Identifier: Apache-2.0
// Synthetic traffic on both router backends (sim/traffic.hpp): zero-load latency against
// docs/rtl.md's per-hop figures, latency against load, multicast delivery, the model against the
// RTL packet by packet, the channel dependencies of the routings it mixes, bad input and the
// watchdog. Fixed seeds throughout.
#include "sim/traffic.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <memory>
#include <regex>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "model/channel_dependency_graph.hpp"
#include "model/errors.hpp"
#include "model/routing.hpp"
#include "model/topology.hpp"

namespace wormcast::verif {
namespace {

using sim::TrafficConfig;
using sim::TrafficResult;

TrafficResult run_on(const std::string& backend_name, const TrafficConfig& c) {
  const std::unique_ptr<sim::RouterBackend> backend = sim::make_backend(backend_name);
  return sim::run_traffic(c, *backend);
}

// docs/rtl.md, "Latency": 2 cycles per hop including the link, 4 from the head entering the
// sender's router to leaving the destination's ejection port for one hop, so 2 + 2 H for H hops;
// body flits follow one per cycle, so the tail leaves L - 1 cycles after the head. An idle source
// queue injects the head in the cycle the packet is created.
long documented_zero_load_latency(int hops, int length) { return 2 + 2L * hops + (length - 1); }

// Packets that met no other packet: no other packet was alive (created, not yet delivered) at any
// time of their life. On those the latency is the zero-load latency.
std::vector<sim::PacketRecord> isolated(const std::vector<sim::PacketRecord>& packets, long before) {
  std::vector<sim::PacketRecord> alone;
  auto end = [](const sim::PacketRecord& p) { return *std::max_element(p.delivered.begin(), p.delivered.end()); };
  for (const sim::PacketRecord& p : packets) {
    if (end(p) >= before) continue;  // drain-phase packets (not recorded) could overlap it
    bool met = false;
    for (const sim::PacketRecord& q : packets) {
      if (&q != &p && q.created <= end(p) && p.created <= end(q)) met = true;
    }
    if (!met) alone.push_back(p);
  }
  return alone;
}

// (backend, topology)
class TrafficZeroLoad : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

TEST_P(TrafficZeroLoad, IsolatedPacketLatencyIsTwoPerHopPlusTwoPlusLengthMinusOneAsDocumented) {
  TrafficConfig c;
  c.topology = std::get<1>(GetParam());
  c.load = 0.004;
  c.length = 5;
  c.warmup = 0;
  c.measure = 6000;
  c.keep_packets = true;
  const TrafficResult r = run_on(std::get<0>(GetParam()), c);
  const model::Topology t = model::Topology::parse(c.topology);
  const std::vector<sim::PacketRecord> alone = isolated(r.packets, c.measure);
  std::set<int> hop_counts;
  for (const sim::PacketRecord& p : alone) {
    const int hops = t.distance(p.source, p.destinations.front());  // the model's, not the run's
    hop_counts.insert(hops);
    EXPECT_EQ(p.delivered.front() - p.created, documented_zero_load_latency(hops, c.length))
        << t.node_name(p.source) << " -> " << t.node_name(p.destinations.front()) << ", " << hops << " hops";
  }
  EXPECT_GE(alone.size(), 15u) << "too few isolated packets to test";
  EXPECT_GE(hop_counts.size(), 3u) << "too few distinct hop counts";
}

INSTANTIATE_TEST_SUITE_P(Backends, TrafficZeroLoad,
                         ::testing::Combine(::testing::Values("rtl", "model"),
                                            ::testing::Values("mesh:4x4", "torus:4x4", "mesh:3x3x3")),
                         [](const auto& info) {
                           const std::string& t = std::get<1>(info.param);
                           std::string name = std::get<0>(info.param) + "_" + t;
                           std::replace(name.begin(), name.end(), ':', '_');
                           return name;
                         });

class Traffic : public ::testing::TestWithParam<std::string> {
 protected:
  TrafficResult run(const TrafficConfig& c) { return run_on(GetParam(), c); }
};

INSTANTIATE_TEST_SUITE_P(Backends, Traffic, ::testing::Values("rtl", "model"));

TEST_P(Traffic, LatencyRisesWithLoadAndLowLoadIsAccepted) {
  TrafficConfig c;
  c.topology = "mesh:4x4";
  c.length = 4;
  c.warmup = 300;
  c.measure = 1500;
  std::vector<double> latency;
  for (const double load : {0.05, 0.25, 0.45}) {
    c.load = load;
    const TrafficResult r = run(c);
    EXPECT_EQ(r.delivered_packets, r.measured_packets) << "load " << load;
    latency.push_back(r.mean_latency);
    if (load == 0.05) {
      EXPECT_FALSE(r.saturated);
      // Below saturation the network takes what is offered (flits of packets created in the window
      // against flits ejected in it: equal up to the packets crossing the window's edges).
      EXPECT_NEAR(r.accepted, r.offered, 0.1 * r.offered);
      EXPECT_NEAR(r.offered, load, 0.2 * load);
    }
  }
  EXPECT_LT(latency[0], latency[1]);
  EXPECT_LT(latency[1], latency[2]);
}

TEST_P(Traffic, SameSeedSameResultOtherSeedOtherTraffic) {
  TrafficConfig c;
  c.topology = "torus:4x4";
  c.load = 0.2;
  c.length = 4;
  c.warmup = 100;
  c.measure = 500;
  const TrafficResult a = run(c), b = run(c);
  EXPECT_EQ(a.mean_latency, b.mean_latency);
  EXPECT_EQ(a.ejected_flits, b.ejected_flits);
  EXPECT_EQ(a.cycles, b.cycles);
  c.seed = 2;
  EXPECT_NE(run(c).ejected_flits, a.ejected_flits);
}

TEST_P(Traffic, MulticastsReachEveryDestinationAfterTheirUnicastLatency) {
  TrafficConfig c;
  c.topology = "mesh:4x4";
  c.load = 0.05;
  c.length = 4;
  c.multicast_fraction = 0.5;
  c.destinations = 5;
  c.warmup = 200;
  c.measure = 1500;
  c.keep_packets = true;
  const TrafficResult r = run(c);
  EXPECT_EQ(r.routing, "hamiltonian-path");
  ASSERT_FALSE(r.saturated);
  EXPECT_EQ(r.delivered_packets, r.measured_packets);
  int multicasts = 0;
  for (const sim::PacketRecord& p : r.packets) {
    if (p.destinations.size() == 1) continue;
    ++multicasts;
    ASSERT_EQ(p.destinations.size(), 5u);
    for (const long d : p.delivered) EXPECT_GT(d, p.created);
  }
  EXPECT_GE(multicasts, 10);
  // A destination's copy arrives no earlier than the last one of its packet.
  EXPECT_LE(r.mean_destination_latency, r.mean_multicast_latency);
  EXPECT_GT(r.mean_multicast_latency, r.mean_unicast_latency);
}

// The model backend against the RTL under the same traffic (same seed): every measured packet
// delivered to every destination in the same cycle, below and beyond saturation, unicast and mixed
// with multicasts.
TEST(TrafficBackends, ModelDeliversEveryPacketInTheSameCycleAsTheRtl) {
  // mesh:3x3x3: 6-port routers come with two local pairs, and eject on either.
  for (const char* topology : {"mesh:4x4", "torus:4x4", "mesh:3x3x3"}) {
    for (const double load : {0.1, 0.5}) {
      for (const double multicast : {0.0, 0.25}) {
        TrafficConfig c;
        c.topology = topology;
        c.load = load;
        c.length = 6;
        c.multicast_fraction = multicast;
        c.destinations = 4;
        c.warmup = 100;
        c.measure = 400;
        c.keep_packets = true;
        const TrafficResult rtl = run_on("rtl", c), model = run_on("model", c);
        const std::string point = fmt::format("{} load {} multicast {}", topology, load, multicast);
        if (load < 0.2) {
          EXPECT_EQ(rtl.delivered_packets, rtl.measured_packets) << point;
        }
        ASSERT_EQ(rtl.packets.size(), model.packets.size()) << point;
        EXPECT_GT(rtl.packets.size(), 20u) << point;
        for (std::size_t i = 0; i < rtl.packets.size(); ++i) {
          EXPECT_EQ(rtl.packets[i].source, model.packets[i].source) << point << " packet " << i;
          EXPECT_EQ(rtl.packets[i].created, model.packets[i].created) << point << " packet " << i;
          EXPECT_EQ(rtl.packets[i].delivered, model.packets[i].delivered) << point << " packet " << i;
        }
        EXPECT_EQ(rtl.cycles, model.cycles) << point;
        EXPECT_EQ(rtl.ejected_flits, model.ejected_flits) << point;
      }
    }
  }
}

// The channel dependency graph of the worms routed by `routings` (model::make_routing_function's
// names, the functions the routers' route compute runs per head mode), every channel on the
// router VC its class takes: class mod the network's VCs, as the routers map it.
model::ChannelDependencyGraph sweep_graph(const model::Topology& t, unsigned vcs,
                                          const std::vector<std::string>& routings) {
  model::ChannelDependencyGraph graph(t, static_cast<int>(vcs));
  const auto vc = [vcs](model::VcClass c) { return static_cast<model::VcClass>(static_cast<unsigned>(c) % vcs); };
  for (const std::string& name : routings) {
    const std::unique_ptr<model::RoutingFunction> routing = model::make_routing_function(name, t);
    for (const auto& [a, b] : model::ChannelDependencyGraph::build(*routing).dependencies()) {
      graph.add_dependency({a.node, a.port, vc(a.vc)}, {b.node, b.port, vc(b.vc)});
    }
  }
  return graph;
}

// The VCs per port of the network both backends build for `t` (they must agree).
unsigned network_vcs(const model::Topology& t) {
  const unsigned rtl = sim::make_backend("rtl")->make_network(t)->vcs();
  EXPECT_EQ(sim::make_backend("model")->make_network(t)->vcs(), rtl) << t.spec();
  return rtl;
}

// Why the sweep refuses --routing dimension-order with multicasts. The unicasts would route in
// dimension order (class 0, and on a torus class 1 once the ring's wrap link is behind) beside the
// multicasts' dual-path worms, which route on the Hamiltonian path (class 0 in the high network, 1
// in the low), and the routers put class c on VC c mod their VCs (4 on 2D networks, 2 on 3D): the
// dateline classes share VCs 0 and 1 with the two networks. Each routing alone is acyclic and the
// union is acyclic on meshes, but on tori such as torus:5x5, torus:8x8 and torus:4x4x4 it closes a
// cycle through both VCs: on torus:5x5 a dimension-order worm takes the -Y wrap in class 0 and
// goes on down in class 1, the low network turns -Y -> +X -> -Y -> -X on VC 1, and a
// dimension-order worm that arrived over that -X channel turns into the -Y wrap in class 0.
// (Not every torus: torus:4x4 is acyclic.)
TEST(TrafficRouting, DimensionOrderUnicastsWithDualPathWormsAreAcyclicOnMeshesAndCloseACycleOnTori) {
  const std::vector<std::string> mixed = {"dimension-order", "hamiltonian-path"};
  for (const char* spec : {"mesh:4x4", "mesh:8x8", "mesh:6x5", "mesh:3x3x3", "mesh:4x4x4", "torus:4x4"}) {
    const model::Topology t = model::Topology::parse(spec);
    const unsigned vcs = network_vcs(t);
    EXPECT_EQ(vcs, t.dimensions() == 2 ? 4u : 2u) << spec;
    const model::ChannelDependencyGraph graph = sweep_graph(t, vcs, mixed);
    const auto cycle = graph.find_shortest_cycle();
    EXPECT_FALSE(cycle.has_value()) << spec << ": " << graph.describe_cycle(*cycle);
    EXPECT_GT(graph.dependency_count(), 0u) << spec;
  }
  for (const char* spec : {"torus:5x5", "torus:8x8", "torus:4x4x4"}) {
    const model::Topology t = model::Topology::parse(spec);
    const unsigned vcs = network_vcs(t);
    EXPECT_EQ(vcs, t.dimensions() == 2 ? 4u : 2u) << spec;
    for (const std::string& alone : mixed) {
      EXPECT_FALSE(sweep_graph(t, vcs, {alone}).find_cycle().has_value()) << spec << " " << alone;
    }
    const model::ChannelDependencyGraph graph = sweep_graph(t, vcs, mixed);
    const auto cycle = graph.find_shortest_cycle();
    ASSERT_TRUE(cycle.has_value()) << spec;
    std::set<model::VcClass> on;
    for (const model::VirtualChannel& c : *cycle) on.insert(c.vc);
    EXPECT_EQ(on, (std::set<model::VcClass>{0, 1})) << spec << ": " << graph.describe_cycle(*cycle);
  }
}

// The message of `c`'s validation error.
std::string error_of(const TrafficConfig& c) {
  try {
    sim::validate(c);
  } catch (const model::ModelError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(TrafficInput, BadParametersAreClearErrors) {
  const TrafficConfig good;
  TrafficConfig c = good;
  c.load = 0;
  EXPECT_EQ(error_of(c), "load 0 is not in (0, 1] flits per node per cycle");
  c.load = 1.5;
  EXPECT_EQ(error_of(c), "load 1.5 is not in (0, 1] flits per node per cycle");
  c = good;
  c.length = 0;
  EXPECT_EQ(error_of(c), "packet length 0 is not in 1..4096 flits");
  c = good;
  c.topology = "ring:8";
  EXPECT_NE(error_of(c).find("ring"), std::string::npos) << error_of(c);
  c.topology = "star:4";
  EXPECT_EQ(error_of(c), "topology 'star:4': synthetic traffic runs on 2D or 3D meshes and tori");
  c = good;
  c.multicast_fraction = 0.1;
  c.destinations = 64;
  EXPECT_EQ(error_of(c), "64 destinations per multicast: valid 1..63 on mesh:8x8");
  c.destinations = 4;
  c.routing = "dimension-order";
  EXPECT_EQ(error_of(c),
            "routing 'dimension-order' with multicasts: the multicasts' dual-path worms route on the Hamiltonian "
            "path, whose high and low networks share VCs 0 and 1 with dimension order's dateline classes, and the two "
            "together close a channel dependency cycle on tori (torus:5x5, torus:4x4x4; docs/timing.md \"Synthetic "
            "traffic\"); use 'hamiltonian-path' or 'auto'");
  c = good;
  c.routing = "west-first";
  EXPECT_EQ(error_of(c), "routing 'west-first' is not one of: auto, dimension-order, hamiltonian-path");
  EXPECT_THROW(sim::make_backend("verilog"), model::SpecError);
}

// A router that takes flits and never sends anything or returns a credit: a network that hangs.
class SinkRouter final : public sim::RouterModel {
 public:
  explicit SinkRouter(unsigned net) : net_(net) {}
  unsigned net_ports() const override { return net_; }
  unsigned locals() const override { return 1; }
  unsigned vcs() const override { return sim::router_variant_vcs(net_); }
  void configure(const sim::RouterConfig&) override {}
  void set_reset(bool) override {}
  sim::Link output(unsigned) const override { return {}; }
  std::uint32_t credits_to_senders() const override { return 0; }
  std::uint64_t draining() const override { return 0; }
  unsigned route_drops() const override { return 0; }
  unsigned errors() const override { return 0; }
  void set_input(unsigned, const sim::Link&) override {}
  void set_credits_from_receivers(std::uint32_t) override {}
  void set_clock(bool) override {}

 private:
  unsigned net_;
};

class SinkBackend final : public sim::RouterBackend {
 public:
  std::string name() const override { return "sink"; }
  std::unique_ptr<sim::RouterModel> make(unsigned net, unsigned, const std::string&) override {
    return std::make_unique<SinkRouter>(net);
  }
};

TEST(TrafficWatchdog, TurnsAHangIntoAnErrorNamingTheWorms) {
  TrafficConfig c;
  c.topology = "mesh:4x4";
  c.load = 0.5;
  c.watchdog = 50;
  SinkBackend backend;
  try {
    sim::run_traffic(c, backend);
    FAIL() << "the run finished on routers that never send";
  } catch (const sim::TrafficError& e) {
    const std::string what = e.what();
    std::smatch header;
    ASSERT_TRUE(std::regex_search(
        what, header,
        std::regex("^watchdog: no flit moved for 50 cycles \\(cycle [0-9]+, ([0-9]+) worms in flight\\):")))
        << what;
    const long in_flight = std::stol(header[1]);
    EXPECT_GE(in_flight, 1) << what;
    // Each worm named by its source node (x,y), its tag and the destinations it still owes; the
    // report names the first eight.
    const std::regex worm(" worm [0-3],[0-3] tag [0-9]+ \\([1-9][0-9]* destination\\(s\\) outstanding\\);");
    const auto named = std::distance(std::sregex_iterator(what.begin(), what.end(), worm), std::sregex_iterator());
    EXPECT_EQ(named, std::min(in_flight, 8L)) << what;
  }
}

}  // namespace
}  // namespace wormcast::verif
