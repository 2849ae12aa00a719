// SPDX-License-Identifier: Apache-2.0
// The router top on the star graph S4: 24 verilated routers with 3 network ports
// (Vnoc_router_p3_v2_d4) wired in C++ as star:4 and configured from the model's cycle labeling;
// random Hamiltonian-cycle worms from every node at once, each checked against the model's
// routing function hop by hop (docs/rtl.md, "Router top"; the star graph wiring of
// docs/firmware.md, "Star graphs in the harness").
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <verilated.h>

#include <deque>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "Vnoc_router_p3_v2_d4.h"
#include "firmware/noc_wire_format.hpp"
#include "model/labeling.hpp"
#include "model/routing.hpp"
#include "model/topology.hpp"
#include "verif/rtl/router_mesh.hpp"
#include "verif/rtl/verilated_dut.hpp"

namespace wormcast::verif {
namespace {

using model::NodeId;
using Router = Vnoc_router_p3_v2_d4;

constexpr unsigned kNet = 3;  // network ports of S4: g2, g3, g4
constexpr unsigned kLocal = kNet;
constexpr unsigned kVcs = 2;
constexpr unsigned kDepth = 4;
constexpr unsigned kLabelW = 16;
constexpr unsigned kStreamW = 3;  // noc_router StreamW: $clog2(4 ports x 2 VCs)

struct Worm {
  NodeId src = 0, dest = 0;
  unsigned vc_class = 0;  // ph (0) or pl (2): the Hamiltonian-cycle input class at injection
  std::vector<Flit> flits;
  std::vector<model::RouteHop> hops;  // heads seen on network links
  int delivered = 0;
  NodeId delivered_at = model::kNoNode;
};

class StarNetwork {
 public:
  StarNetwork() : topology_(model::Topology::star(4)), labels_(model::HamiltonianLabeling::cycle(topology_)) {
    context_.fatalOnError(false);
    for (NodeId n = 0; n < topology_.node_count(); ++n) {
      routers_.push_back(std::make_unique<Router>(&context_, fmt::format("router{}", n).c_str()));
      Router& m = *routers_.back();
      m.own_label_i = static_cast<std::uint16_t>(labels_.label(n));
      m.nbr_label_i = 0;
      m.port_is_boundary_i = 0;
      for (unsigned p = 0; p < kNet; ++p) {
        const NodeId nbr = topology_.neighbour(n, static_cast<model::Port>(p));
        SetField(m.nbr_label_i, p * kLabelW, kLabelW, static_cast<std::uint64_t>(labels_.label(nbr)));
        if (labels_.link_class(n, static_cast<model::Port>(p)) == model::LinkClass::kBoundary) {
          SetBit(m.port_is_boundary_i, p, true);
        }
      }
      m.port_connected_i = (1u << kNet) - 1;  // every generator has a neighbour
      m.port_is_wrap_i = 0;
      m.own_coord_i = 0;  // star graphs: no coordinates, sizes or dimensions
      m.dim_size_i = 0;
      m.is_torus_i = 0;
      m.num_dims_i = 0;
      m.in_valid_i = 0;
      m.out_credit_i = 0;
      m.clk_i = 0;
      m.rst_ni = 0;
      m.eval();
    }
    Tick();
    for (auto& r : routers_) {
      r->rst_ni = 1;
      r->eval();
    }
  }

  const model::Topology& topology() const { return topology_; }
  const model::HamiltonianLabeling& labels() const { return labels_; }
  Router& router(NodeId n) { return *routers_[static_cast<std::size_t>(n)]; }
  bool assertion_fired() const { return context_.gotError(); }

  // Network inputs from the neighbours' registered outputs: port p of n is fed by port p of its
  // neighbour on p (g_i is its own inverse), credits likewise; then one clock edge.
  void Step() {
    for (NodeId n = 0; n < topology_.node_count(); ++n) {
      Router& m = router(n);
      for (unsigned p = 0; p < kNet; ++p) {
        const Router& o = router(topology_.neighbour(n, static_cast<model::Port>(p)));
        SetBit(m.in_valid_i, p, GetBit(o.out_valid_o, p));
        SetField(m.in_vc_i, p, 1, GetField(o.out_vc_o, p, 1));
        SetFlit(m.in_flit_i, p * kFlitW, GetFlit(o.out_flit_o, p * kFlitW));
        SetField(m.out_credit_i, p * kVcs, kVcs, GetField(o.in_credit_o, p * kVcs, kVcs));
      }
    }
    Tick();
  }

 private:
  void Tick() {
    for (auto& r : routers_) r->eval();
    for (auto& r : routers_) {
      r->clk_i = 1;
      r->eval();
    }
    context_.timeInc(1);
    for (auto& r : routers_) {
      r->clk_i = 0;
      r->eval();
    }
    context_.timeInc(1);
  }

  VerilatedContext context_;
  model::Topology topology_;
  model::HamiltonianLabeling labels_;
  std::vector<std::unique_ptr<Router>> routers_;
};

// Every node sends `per_node` worms of 1..5 flits to random other nodes, in class ph or pl, with
// up to 8 in flight per node (tags stay unique among them), injecting a flit whenever VC 0 of its
// local input has a credit and with probability `load`; ejection ports take a flit per cycle
// unless stalled with probability `stall`. Every worm must be delivered once, at its destination,
// intact, its head having crossed exactly the model's route (node, port, class).
void RunTraffic(int per_node, double load, double stall, std::uint64_t seed) {
  StarNetwork net;
  const model::Topology& t = net.topology();
  const auto routing = model::make_routing_function("hamiltonian-cycle", t);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  const int n = t.node_count();
  std::vector<Worm> worms;
  std::vector<std::deque<int>> queued(static_cast<std::size_t>(n));
  for (NodeId src = 0; src < n; ++src) {
    for (int i = 0; i < per_node; ++i) {
      Worm w;
      w.src = src;
      do {
        w.dest = static_cast<NodeId>(rng() % static_cast<std::uint64_t>(n));
      } while (w.dest == src);
      w.vc_class = rng() % 2 == 0 ? 0u : 2u;
      const int id = static_cast<int>(worms.size());
      wire::HeadFields h;
      h.mode = wire::Mode::kHamiltonianCycle;
      h.network = w.vc_class == 0 ? wire::kNetworkHigh : wire::kNetworkLow;
      h.vc_class = static_cast<std::uint8_t>(w.vc_class);
      h.dest = static_cast<std::uint32_t>(net.labels().label(w.dest));
      h.src = static_cast<std::uint32_t>(src);
      h.tag = static_cast<std::uint8_t>(i & 0xF);
      const int length = 1 + static_cast<int>(rng() % 5);
      w.flits.push_back({true, length == 1, wire::pack_head(h)});
      for (int f = 1; f < length; ++f)
        w.flits.push_back({false, f + 1 == length, std::uint64_t(id) << 8 | unsigned(f)});
      worms.push_back(std::move(w));
      queued[static_cast<std::size_t>(src)].push_back(id);
    }
  }
  // (src, tag) -> worm, among the worms in flight.
  std::map<std::pair<NodeId, unsigned>, int> in_flight;
  std::vector<int> sending(static_cast<std::size_t>(n), -1);
  std::vector<std::size_t> next_flit(static_cast<std::size_t>(n), 0);
  std::vector<int> credits(static_cast<std::size_t>(n), static_cast<int>(kDepth));
  std::vector<std::deque<std::pair<unsigned, Flit>>> eject_buffer(static_cast<std::size_t>(n));
  std::map<std::pair<NodeId, unsigned>, std::vector<Flit>> streams;
  std::map<std::pair<NodeId, unsigned>, int> stream_worm;
  int done = 0;
  long idle = 0;
  for (long cycle = 0; done < static_cast<int>(worms.size()); ++cycle) {
    ASSERT_LT(idle, 1000) << "no flit moved for 1000 cycles at cycle " << cycle << "; delivered " << done;
    bool moved = false;
    for (NodeId r = 0; r < n; ++r) {
      Router& m = net.router(r);
      const std::size_t ri = static_cast<std::size_t>(r);
      credits[ri] += static_cast<int>(GetBit(m.in_credit_o, kLocal * kVcs));
      for (unsigned p = 0; p < kNet; ++p) {
        if (!GetBit(m.out_valid_o, p)) continue;
        moved = true;
        const Flit f = GetFlit(m.out_flit_o, p * kFlitW);
        if (!f.head) continue;
        const wire::HeadFields h = wire::unpack_head(f.data);
        const auto it = in_flight.find({static_cast<NodeId>(h.src), h.tag});
        ASSERT_NE(it, in_flight.end()) << "a head no worm in flight carries, router " << r;
        worms[static_cast<std::size_t>(it->second)].hops.push_back({r, static_cast<model::Port>(p), h.vc_class});
        EXPECT_EQ(GetField(m.out_vc_o, p, 1), h.vc_class & 1u) << "the link's VC is the class's q bit";
      }
      if (GetBit(m.out_valid_o, kLocal)) {
        moved = true;
        eject_buffer[ri].push_back(
            {static_cast<unsigned>(GetField(m.eject_stream_o, 0, kStreamW)), GetFlit(m.out_flit_o, kLocal * kFlitW)});
        ASSERT_LE(eject_buffer[ri].size(), kDepth) << "an ejected flit without a credit at router " << r;
      }
      // Ejection: one flit per cycle unless stalled; its credit goes back to the pool (VC 0's bit).
      bool credit = false;
      if (!eject_buffer[ri].empty() && u(rng) >= stall) {
        const auto [stream, f] = eject_buffer[ri].front();
        eject_buffer[ri].pop_front();
        credit = true;
        std::vector<Flit>& got = streams[{r, stream}];
        if (f.head) {
          ASSERT_TRUE(got.empty()) << "a head inside a worm on stream " << stream << " of router " << r;
          const wire::HeadFields h = wire::unpack_head(f.data);
          stream_worm[{r, stream}] = in_flight.at({static_cast<NodeId>(h.src), h.tag});
        }
        ASSERT_FALSE(got.empty() && !f.head) << "a body flit outside a worm at router " << r;
        got.push_back(f);
        if (f.tail) {
          const int id = stream_worm.at({r, stream});
          Worm& w = worms[static_cast<std::size_t>(id)];
          EXPECT_EQ(got.size(), w.flits.size()) << "worm " << id;
          for (std::size_t i = 1; i < std::min(got.size(), w.flits.size()); ++i) EXPECT_EQ(got[i], w.flits[i]);
          ++w.delivered;
          w.delivered_at = r;
          in_flight.erase({w.src, wire::unpack_head(w.flits.front().data).tag});
          got.clear();
          ++done;
        }
      }
      SetField(m.out_credit_i, kLocal * kVcs, kVcs, credit ? 1 : 0);
      // Injection on VC 0 (classes ph and pl are p: VC 0).
      SetBit(m.in_valid_i, kLocal, false);
      if (sending[ri] < 0 && !queued[ri].empty()) {
        const int id = queued[ri].front();
        const Worm& w = worms[static_cast<std::size_t>(id)];
        const std::pair<NodeId, unsigned> key{r, wire::unpack_head(w.flits.front().data).tag};
        int mine = 0;
        for (const auto& [k, v] : in_flight) mine += k.first == r ? 1 : 0;
        if (mine < 8 && in_flight.count(key) == 0) {
          queued[ri].pop_front();
          in_flight[key] = id;
          sending[ri] = id;
          next_flit[ri] = 0;
        }
      }
      if (sending[ri] >= 0 && credits[ri] > 0 && u(rng) < load) {
        const Worm& w = worms[static_cast<std::size_t>(sending[ri])];
        SetBit(m.in_valid_i, kLocal, true);
        SetField(m.in_vc_i, kLocal, 1, 0);
        SetFlit(m.in_flit_i, kLocal * kFlitW, w.flits[next_flit[ri]]);
        --credits[ri];
        moved = true;
        if (++next_flit[ri] == w.flits.size()) sending[ri] = -1;
      }
    }
    idle = moved ? 0 : idle + 1;
    net.Step();
    ASSERT_FALSE(net.assertion_fired()) << "an RTL assertion fired by cycle " << cycle;
  }
  long boundary_hops = 0;
  for (std::size_t i = 0; i < worms.size(); ++i) {
    const Worm& w = worms[i];
    SCOPED_TRACE(fmt::format("worm {}: {} -> {} class {}", i, t.node_name(w.src), t.node_name(w.dest), w.vc_class));
    EXPECT_EQ(w.delivered, 1);
    EXPECT_EQ(w.delivered_at, w.dest);
    const std::vector<model::RouteHop> want =
        model::trace_route(*routing, w.src, static_cast<model::VcClass>(w.vc_class), w.dest);
    EXPECT_EQ(w.hops, want);
    for (const model::RouteHop& h : w.hops) boundary_hops += (h.vc & 1) != 0 ? 1 : 0;
  }
  EXPECT_GT(boundary_hops, 100) << "worms cross boundary links and travel on in class q (VC 1)";
}

TEST(RouterStarNetwork, FourStarWormsFollowTheModelsCycleRouteAtLowLoad) { RunTraffic(20, 0.1, 0.0, 1); }

TEST(RouterStarNetwork, FourStarWormsFollowTheModelsCycleRouteUnderLoadAndEjectionStalls) {
  RunTraffic(40, 0.9, 0.5, 2);
}

}  // namespace
}  // namespace wormcast::verif
