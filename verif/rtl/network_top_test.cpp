// SPDX-License-Identifier: Apache-2.0
// System test of the network top rtl/noc_network_top.sv (docs/rtl-modules.md, "Network tops"),
// verilated as a 4x4 mesh and a 4x4 torus (1 local pair, 4 VCs of 4 flits). Two properties:
//   - Configuration: every router configuration the top computes by its constant functions (own
//     and neighbour labels, connected, wrap and boundary ports, coordinates, sizes, torus flag,
//     dimensions), read through Verilator's public access to the top's cfg_* vectors, equals the
//     model's (HamiltonianLabeling, Topology) on every node and port.
//   - Traffic: the same random unicast workload drives the SV top and 16 Vnoc_router_p4_v4_d4
//     wired in C++ and configured from the model (router_mesh.hpp, the network of
//     router_network_test.cpp). Their local outputs (ejection valid, VC and flit, injection
//     credits, draining, route drops) must agree in every cycle: the same RTL, so any difference is a wiring or
//     configuration difference of the top. On both, every worm is delivered exactly once, at its
//     destination, intact and in order. Worms are 1..6 flits in Hamiltonian-path or dimension-order
//     mode (one mode per run), from random sources to random destinations; injectors respect the
//     credits; the ejection sink either returns each credit at once or after a random delay, which
//     back-pressures the ejection ports. No assertion may fire, and a watchdog fails a run in which
//     no flit moves for 1000 cycles. The assertions live in the C++-wired routers: the tops are
//     verilated without --assert (verif/rtl/CMakeLists.txt says why), which loses nothing, since
//     the wired routers go through the same states, cycle for cycle, as long as the outputs agree.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <verilated.h>

#include <array>
#include <bit>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#if WORMCAST_REGRESS  // the mesh top is make regress's (verif/rtl/CMakeLists.txt)
#include "Vnoc_network_top_mesh4x4.h"
#include "Vnoc_network_top_mesh4x4___024root.h"
#endif
#include "Vnoc_network_top_torus4x4.h"
#include "Vnoc_network_top_torus4x4___024root.h"
#include "firmware/noc_wire_format.hpp"
#include "model/labeling.hpp"
#include "model/routing.hpp"
#include "model/topology.hpp"
#include "verif/rtl/router_mesh.hpp"
#include "verif/rtl/verilated_dut.hpp"

namespace wormcast::verif {
namespace {

using model::NodeId;
using model::Topology;

constexpr unsigned kNetPorts = RouterMesh::kNetPorts;
constexpr unsigned kPorts = RouterMesh::kPorts;
constexpr unsigned kLocal = RouterMesh::kLocal;
constexpr unsigned kVcs = RouterMesh::kVcs;
constexpr unsigned kDepth = RouterMesh::kDepth;
constexpr unsigned kVcIdW = RouterMesh::kVcIdW;
constexpr unsigned kStreamW = 5;  // noc_router StreamW for 5 ports x 4 VCs
constexpr unsigned kLabelW = RouterMesh::kLabelW;
constexpr unsigned kCoordW = RouterMesh::kCoordW;
constexpr unsigned kDimSizeW = RouterMesh::kDimSizeW;

// ---------------------------------------------------------------------------------------------
// Configuration.

// The configuration the top drives into router `node`, read from its public cfg_* vectors.
template <class Top>
RouterConfig TopRouterConfig(Top& top, NodeId node) {
  const auto* root = top.rootp;
  const auto n = static_cast<unsigned>(node);
  RouterConfig config;
  config.own_label = static_cast<int>(GetField(root->noc_network_top__DOT__cfg_own_label, n * kLabelW, kLabelW));
  for (unsigned p = 0; p < kNetPorts; ++p) {
    config.nbr_label[p] =
        static_cast<int>(GetField(root->noc_network_top__DOT__cfg_nbr_label, (n * kNetPorts + p) * kLabelW, kLabelW));
  }
  config.connected =
      static_cast<std::uint32_t>(GetField(root->noc_network_top__DOT__cfg_connected, n * kNetPorts, kNetPorts));
  config.wrap = static_cast<std::uint32_t>(GetField(root->noc_network_top__DOT__cfg_is_wrap, n * kNetPorts, kNetPorts));
  config.boundary =
      static_cast<std::uint32_t>(GetField(root->noc_network_top__DOT__cfg_is_boundary, n * kNetPorts, kNetPorts));
  for (unsigned d = 0; d < 2; ++d) {
    config.coord[d] =
        static_cast<int>(GetField(root->noc_network_top__DOT__cfg_own_coord, (n * 3 + d) * kCoordW, kCoordW));
    config.sizes[d] = static_cast<int>(GetField(root->noc_network_top__DOT__cfg_dim_size, d * kDimSizeW, kDimSizeW));
  }
  // z and its size are 0 in 2D.
  EXPECT_EQ(GetField(root->noc_network_top__DOT__cfg_own_coord, (n * 3 + 2) * kCoordW, kCoordW), 0U);
  EXPECT_EQ(GetField(root->noc_network_top__DOT__cfg_dim_size, 2 * kDimSizeW, kDimSizeW), 0U);
  config.torus = root->noc_network_top__DOT__cfg_is_torus != 0;
  config.dims = root->noc_network_top__DOT__cfg_num_dims;
  return config;
}

std::string Describe(const RouterConfig& c) {
  std::string s = fmt::format("label {} coord ({}, {}) size {}x{} torus {} dims {}; ports", c.own_label, c.coord[0],
                              c.coord[1], c.sizes[0], c.sizes[1], c.torus, c.dims);
  for (unsigned p = 0; p < kNetPorts; ++p) {
    s += fmt::format(" [{}: nbr label {} connected {} wrap {} boundary {}]", p, c.nbr_label[p], (c.connected >> p) & 1,
                     (c.wrap >> p) & 1, (c.boundary >> p) & 1);
  }
  return s;
}

template <class Top>
void CheckConfigurationEqualsModel(const std::string& spec) {
  const Topology topology = Topology::parse(spec);
  Dut<Top> top;
  int wraps = 0, boundaries = 0, unconnected = 0;
  for (NodeId node = 0; node < topology.node_count(); ++node) {
    const RouterConfig expected = ModelRouterConfig(topology, node);
    EXPECT_TRUE(TopRouterConfig(*top, node) == expected)
        << spec << " node " << node << "\n  top:   " << Describe(TopRouterConfig(*top, node))
        << "\n  model: " << Describe(expected);
    wraps += std::popcount(expected.wrap);
    boundaries += std::popcount(expected.boundary);
    unconnected += static_cast<int>(kNetPorts) - std::popcount(expected.connected);
  }
  // The comparison covers every kind of port: a mesh has 16 unconnected edge ports, a 4x4 torus
  // 16 wrap ports, 8 of them y-wraps (the cycle labeling's boundary links).
  if (topology.is_torus()) {
    EXPECT_EQ(wraps, 16);
    EXPECT_EQ(boundaries, 8);
  } else {
    EXPECT_EQ(unconnected, 16);
  }
}

#if WORMCAST_REGRESS
TEST(NetworkTopMesh4x4, ConfigurationEqualsModelOnEveryNode) {
  CheckConfigurationEqualsModel<Vnoc_network_top_mesh4x4>("mesh:4x4");
}
#endif

TEST(NetworkTopTorus4x4, ConfigurationEqualsModelOnEveryNode) {
  CheckConfigurationEqualsModel<Vnoc_network_top_torus4x4>("torus:4x4");
}

// ---------------------------------------------------------------------------------------------
// Traffic.

// The local pair of one node in one cycle: registered outputs, and the inputs the bench drives.
struct LocalOutputs {
  bool ej_valid = false;
  unsigned ej_vc = 0;
  Flit ej_flit;
  unsigned inj_credit = 0;     // one bit per VC
  std::uint64_t draining = 0;  // the router's draining_o, kPorts * kVcs bits
  unsigned route_drops = 0;    // the router's route_drops_o
  unsigned ej_stream = 0;      // eject_stream_o: the router input VC the ejected flit comes from
  unsigned errors = 0;         // the router's errors_o
  bool operator==(const LocalOutputs&) const = default;
};
struct LocalInputs {
  bool inj_valid = false;
  unsigned inj_vc = 0;
  Flit inj_flit;
  unsigned ej_credit = 0;  // one bit per VC
};

std::string Describe(const LocalOutputs& o) {
  return fmt::format(
      "eject valid {} VC {} stream {} flit head {} tail {} data {:#x}; injection credits {:#x}; draining {:#x}; "
      "route drops {}; errors {:#x}",
      o.ej_valid, o.ej_vc, o.ej_stream, o.ej_flit.head, o.ej_flit.tail, o.ej_flit.data, o.inj_credit, o.draining,
      o.route_drops, o.errors);
}

template <class Top>
LocalOutputs ReadTop(Top& t, NodeId node) {
  const auto n = static_cast<unsigned>(node);
  // The top's valid and data outputs hold registered values; the flit is meaningful only when valid,
  // and a router's link register keeps the last flit while idle, identically in both networks.
  return {GetBit(t.ej_valid_o, n),
          static_cast<unsigned>(GetField(t.ej_vc_o, n * kVcIdW, kVcIdW)),
          GetFlit(t.ej_flit_o, n * kFlitW),
          static_cast<unsigned>(GetField(t.inj_credit_o, n * kVcs, kVcs)),
          GetField(t.draining_o, n * kPorts * kVcs, kPorts * kVcs),
          static_cast<unsigned>(GetField(t.route_drops_o, n * 8, 8)),
          static_cast<unsigned>(GetField(t.ej_stream_o, n * kStreamW, kStreamW)),
          static_cast<unsigned>(GetField(t.errors_o, n * 3, 3))};  // noc_pkg::ErrorsW
}

LocalOutputs ReadMesh(RouterMesh& mesh, NodeId node) {
  RouterMesh::Router& m = mesh.router(node);
  return {GetBit(m.out_valid_o, kLocal),
          static_cast<unsigned>(GetField(m.out_vc_o, kLocal * kVcIdW, kVcIdW)),
          GetFlit(m.out_flit_o, kLocal * kFlitW),
          static_cast<unsigned>(GetField(m.in_credit_o, kLocal * kVcs, kVcs)),
          GetField(m.draining_o, 0, kPorts * kVcs),
          static_cast<unsigned>(m.route_drops_o),
          static_cast<unsigned>(m.eject_stream_o),
          static_cast<unsigned>(m.errors_o)};
}

template <class Top>
void DriveTop(Top& t, NodeId node, const LocalInputs& in) {
  const auto n = static_cast<unsigned>(node);
  SetBit(t.inj_valid_i, n, in.inj_valid);
  SetField(t.inj_vc_i, n * kVcIdW, kVcIdW, in.inj_vc);
  SetFlit(t.inj_flit_i, n * kFlitW, in.inj_flit);
  SetField(t.ej_credit_i, n * kVcs, kVcs, in.ej_credit);
}

void DriveMesh(RouterMesh& mesh, NodeId node, const LocalInputs& in) {
  RouterMesh::Router& m = mesh.router(node);
  SetBit(m.in_valid_i, kLocal, in.inj_valid);
  SetField(m.in_vc_i, kLocal * kVcIdW, kVcIdW, in.inj_vc);
  SetFlit(m.in_flit_i, kLocal * kFlitW, in.inj_flit);
  SetField(m.out_credit_i, kLocal * kVcs, kVcs, in.ej_credit);
}

// The credit a sink returns for an ejected flit: an ejection port's credits are one pool, returned
// on VC 0's bit (noc_eject_unit).
constexpr unsigned kEjectionCreditVc = 0;

struct Worm {
  NodeId src = 0;
  NodeId dest = 0;
  std::vector<Flit> expected;  // as ejected: the head carries the class of the last hop
  std::array<int, 2> deliveries{};
};

struct RunStats {
  int injected = 0;
  int delivered = 0;
  long cycles = 0;
  long ejected_flits = 0;
  long vc1_link_flits = 0;    // flits on VC 1 of network links (C++-wired routers)
  long sink_full_cycles = 0;  // cycles with a sink holding all kDepth credits of its ejection pool
};

// One run: a top and a C++-wired network of the same topology, driven in lockstep.
template <class Top>
class LockstepBench {
 public:
  LockstepBench(const std::string& spec, std::uint64_t seed)
      : topology_(Topology::parse(spec)),
        labels_(model::HamiltonianLabeling::path(topology_)),
        ham_path_(model::make_routing_function("hamiltonian-path", topology_)),
        dim_order_(model::make_routing_function("dimension-order", topology_)),
        rng_(seed),
        context_(MakeContext()),
        top_(MakeTop(context_.get())),
        mesh_(topology_, context_.get()) {
    const auto n = static_cast<std::size_t>(topology_.node_count());
    injectors_.resize(n);
    sinks_.resize(n);
  }

  // Injects `worms` worms of one mode (0 Hamiltonian path, 2 dimension order) at `load` per VC per
  // cycle and runs until all are delivered on both networks. An ejection flit's credit returns
  // after 0..max_credit_delay cycles.
  RunStats Run(int worms, double load, int mode, int max_credit_delay) {
    const int n = topology_.node_count();
    long last_move = 0;
    for (long cycle = 0;; ++cycle) {
      if (stats_.injected >= worms && stats_.delivered == stats_.injected) break;
      bool moved = false;
      std::vector<LocalInputs> in(static_cast<std::size_t>(n));
      for (NodeId r = 0; r < n; ++r) {
        const LocalOutputs a = ReadTop(*top_, r);
        const LocalOutputs b = ReadMesh(mesh_, r);
        if (a != b) {
          ADD_FAILURE() << fmt::format(
              "cycle {} node {}: the top and the C++-wired routers differ\n  top:   {}\n  "
              "wired: {}",
              cycle, r, Describe(a), Describe(b));
          return stats_;
        }
        for (unsigned p = 0; p < kNetPorts; ++p) {
          if (GetBit(mesh_.router(r).out_valid_o, p)) {
            moved = true;
            stats_.vc1_link_flits += GetField(mesh_.router(r).out_vc_o, p * kVcIdW, kVcIdW) == 1 ? 1 : 0;
          }
        }
        if (a.ej_valid) {
          moved = true;
          Eject(0, r, a.ej_stream, a.ej_flit);
          Eject(1, r, b.ej_stream, b.ej_flit);
          if (testing::Test::HasFailure()) return stats_;
          const long delay = max_credit_delay == 0 ? 0 : static_cast<long>(rng_() % (max_credit_delay + 1));
          sinks_[static_cast<std::size_t>(r)].due[kEjectionCreditVc].push_back(cycle + delay);
        }
        LocalInputs& li = in[static_cast<std::size_t>(r)];
        li.ej_credit = SinkCredits(r, cycle);
        moved |= Inject(r, a.inj_credit, worms, load, mode, li);
      }
      for (NodeId r = 0; r < n; ++r) {
        DriveTop(*top_, r, in[static_cast<std::size_t>(r)]);
        DriveMesh(mesh_, r, in[static_cast<std::size_t>(r)]);
      }
      TickTop();
      mesh_.Step();
      stats_.cycles = cycle + 1;
      if (context_->gotError()) {
        ADD_FAILURE() << "an assertion fired in cycle " << cycle
                      << " (its message names the network: top or router<n>)";
        return stats_;
      }
      if (moved) last_move = cycle;
      if (cycle - last_move > 1000) {
        ADD_FAILURE() << "no flit moved for 1000 cycles (cycle " << cycle << ", " << stats_.delivered << " of "
                      << stats_.injected << " worms delivered)";
        return stats_;
      }
    }
    for (const auto& [key, w] : worms_) {
      ADD_FAILURE() << fmt::format("worm {}->{} (key {:#x}) delivered {} and {} times", w.src, w.dest, key,
                                   w.deliveries[0], w.deliveries[1]);
    }
    return stats_;
  }

 private:
  static std::unique_ptr<VerilatedContext> MakeContext() {
    auto context = std::make_unique<VerilatedContext>();
    context->fatalOnError(false);
    return context;
  }

  // The top, reset for one cycle as RouterMesh resets its routers.
  static std::unique_ptr<Top> MakeTop(VerilatedContext* context) {
    auto top = std::make_unique<Top>(context, "top");
    top->clk_i = 0;
    top->rst_ni = 0;
    top->eval();
    Tick(*top, context);
    top->rst_ni = 1;
    top->eval();
    return top;
  }

  // One cycle. The inputs settle while the clock is low, before the rising edge: with the inputs
  // and the edge in one eval, a concurrent assertion samples the previous cycle's inputs (IEEE
  // 1800 sampled values) while the logic sees the new ones; PushNotFull_A then fired on a push
  // of the cycle before.
  static void Tick(Top& top, VerilatedContext* context) {
    top.eval();
    top.clk_i = 1;
    top.eval();
    context->timeInc(1);
    top.clk_i = 0;
    top.eval();
    context->timeInc(1);
  }
  void TickTop() { Tick(*top_, context_.get()); }

  static std::uint32_t Key(std::uint64_t head_data) {
    const wire::HeadFields h = wire::unpack_head(head_data);
    return (h.src << wire::kTagW) | h.tag;
  }

  // A flit ejected at node r of network `net` (0 top, 1 wired): reassemble per VC, check at the tail.
  void Eject(int net, NodeId r, unsigned stream, const Flit& f) {
    std::vector<Flit>& got = sinks_[static_cast<std::size_t>(r)].worm[static_cast<std::size_t>(net)][stream];
    const char* name = net == 0 ? "top" : "wired";
    if (f.head != got.empty()) {
      ADD_FAILURE() << fmt::format("{} node {} ejection stream {}: {} flit {} a worm", name, r, stream,
                                   f.head ? "head" : "body", f.head ? "inside" : "outside");
      return;
    }
    got.push_back(f);
    if (net == 0) ++stats_.ejected_flits;
    if (!f.tail) return;
    const std::uint32_t key = Key(got.front().data);
    const auto it = worms_.find(key);
    if (it == worms_.end()) {
      ADD_FAILURE() << fmt::format("{} node {}: ejected worm was never injected or already delivered ({:#x})", name, r,
                                   got.front().data);
      return;
    }
    Worm& w = it->second;
    const std::string what = fmt::format("{}: worm {}->{}", name, w.src, w.dest);
    EXPECT_EQ(w.dest, r) << what << " ejected at " << r;
    EXPECT_EQ(w.deliveries[static_cast<std::size_t>(net)], 0) << what << " delivered twice";
    EXPECT_EQ(got, w.expected) << what << ": flits changed";
    ++w.deliveries[static_cast<std::size_t>(net)];
    got.clear();
    if (w.deliveries[0] == 1 && w.deliveries[1] == 1) {
      ++stats_.delivered;
      injectors_[static_cast<std::size_t>(w.src)].tags.erase(static_cast<int>(key & ((1U << wire::kTagW) - 1)));
      worms_.erase(it);
    }
  }

  // The sink of node r returns at most one due credit per VC per cycle.
  unsigned SinkCredits(NodeId r, long cycle) {
    Sink& sink = sinks_[static_cast<std::size_t>(r)];
    unsigned bits = 0;
    for (unsigned v = 0; v < kVcs; ++v) {
      if (sink.due[v].size() >= kDepth) ++stats_.sink_full_cycles;
      if (!sink.due[v].empty() && sink.due[v].front() <= cycle) {
        sink.due[v].pop_front();
        bits |= 1U << v;
      }
    }
    return bits;
  }

  // The injector of node r: per VC at most one worm in progress, one flit per cycle on a VC with a
  // credit. Returns whether a flit is sent.
  bool Inject(NodeId r, unsigned credit_bits, int worms, double load, int mode, LocalInputs& li) {
    Injector& inj = injectors_[static_cast<std::size_t>(r)];
    for (unsigned v = 0; v < kVcs; ++v) inj.credits[v] += (credit_bits >> v) & 1;
    std::uniform_real_distribution<double> u(0, 1);
    for (unsigned v = 0; v < kVcs; ++v) {
      if (!inj.pending[v].empty() || stats_.injected >= worms || u(rng_) >= load || inj.tags.size() >= 16) continue;
      int tag = 0;
      while (inj.tags.count(tag)) ++tag;
      inj.tags.insert(tag);
      inj.pending[v] = NewWorm(r, tag, mode);
      ++stats_.injected;
    }
    std::vector<unsigned> ready;
    for (unsigned v = 0; v < kVcs; ++v) {
      if (!inj.pending[v].empty() && inj.credits[v] > 0) ready.push_back(v);
    }
    if (ready.empty()) return false;
    const unsigned v = ready[rng_() % ready.size()];
    li.inj_valid = true;
    li.inj_vc = v;
    li.inj_flit = inj.pending[v].front();
    inj.pending[v].pop_front();
    --inj.credits[v];
    return true;
  }

  std::deque<Flit> NewWorm(NodeId src, int tag, int mode) {
    Worm w;
    w.src = src;
    w.dest = static_cast<NodeId>(rng_() % static_cast<std::uint64_t>(topology_.node_count()));
    const bool ham = mode == 0;
    wire::HeadFields h;
    h.mode = ham ? wire::Mode::kHamiltonianPath : wire::Mode::kDimensionOrder;
    if (ham) {
      h.network = labels_.label(w.dest) > labels_.label(src) ? wire::kNetworkHigh : wire::kNetworkLow;
      h.dest = static_cast<std::uint32_t>(labels_.label(w.dest));
    } else {
      const model::Coord c = topology_.coord(w.dest);
      h.dest = wire::pack_coord_dest({static_cast<std::uint8_t>(c[0]), static_cast<std::uint8_t>(c[1]), 0});
    }
    h.src = static_cast<std::uint32_t>(src);
    h.tag = static_cast<std::uint8_t>(tag);
    const int length = 1 + static_cast<int>(rng_() % 6);
    std::deque<Flit> flits;
    for (int i = 0; i < length; ++i) flits.push_back({i == 0, i == length - 1, i == 0 ? wire::pack_head(h) : rng_()});
    // Ejected, the head carries the class of the last hop of the model's route (0 without hops).
    const std::vector<model::RouteHop> hops = model::trace_route(ham ? *ham_path_ : *dim_order_, src, 0, w.dest);
    w.expected.assign(flits.begin(), flits.end());
    h.vc_class = static_cast<std::uint8_t>(hops.empty() ? 0 : hops.back().vc);
    w.expected.front().data = wire::pack_head(h);
    worms_.emplace((static_cast<std::uint32_t>(src) << wire::kTagW) | static_cast<std::uint32_t>(tag), std::move(w));
    return flits;
  }

  struct Injector {
    std::array<int, kVcs> credits = RouterMesh::FullCredits();
    std::array<std::deque<Flit>, kVcs> pending;
    std::set<int> tags;  // of this node's worms in flight
  };
  struct Sink {
    std::array<std::map<unsigned, std::vector<Flit>>, 2> worm;  // per network, per stream: the worm being ejected
    std::array<std::deque<long>, kVcs> due;                     // cycles at which credits may return
  };

  Topology topology_;
  model::HamiltonianLabeling labels_;
  std::unique_ptr<model::RoutingFunction> ham_path_;
  std::unique_ptr<model::RoutingFunction> dim_order_;
  std::mt19937_64 rng_;
  // Both networks live in one context: Verilator 5.006 reports assertion failures to, and erases a
  // model's public scopes from, the context of the thread's last evaluated model, which with two
  // contexts is the wrong one (a destroyed one, at teardown, which hangs).
  std::unique_ptr<VerilatedContext> context_;
  std::unique_ptr<Top> top_;
  RouterMesh mesh_;
  std::vector<Injector> injectors_;
  std::vector<Sink> sinks_;
  std::map<std::uint32_t, Worm> worms_;
  RunStats stats_;
};

// One routing mode per run (Hamiltonian-path and dimension-order worms mixed can deadlock on a
// mesh; router_network_test.cpp). Each mode runs at a light load with a sink that always accepts,
// and at a heavy load with credits delayed by up to 12 cycles, which fills the ejection VCs.
template <class Top>
void CheckLockstepTraffic(const std::string& spec) {
  constexpr int kWorms = 600;
  for (const int mode : {0, 2}) {
    for (const auto& [load, delay] : {std::pair{0.05, 0}, std::pair{0.3, 12}}) {
      SCOPED_TRACE(fmt::format("{} mode {} load {} credit delay 0..{}", spec, mode, load, delay));
      LockstepBench<Top> bench(spec, 20261122 + static_cast<std::uint64_t>(mode));
      const RunStats stats = bench.Run(kWorms, load, mode, delay);
      ASSERT_FALSE(testing::Test::HasFailure());
      EXPECT_EQ(stats.injected, kWorms);
      EXPECT_EQ(stats.delivered, kWorms);
      EXPECT_GT(stats.ejected_flits, kWorms);  // multi-flit worms
      if (delay > 0) {
        EXPECT_GT(stats.sink_full_cycles, 100) << "the sink must back-pressure the ejection ports";
      }
      if (mode == 2 && spec.starts_with("torus")) {
        EXPECT_GT(stats.vc1_link_flits, 200) << "dimension order on the torus uses the dateline VC";
      }
    }
  }
}

#if WORMCAST_REGRESS
TEST(NetworkTopMesh4x4, EveryWormDeliveredOnceIntactAndEjectionAgreesWithWiredRoutersEveryCycle) {
  CheckLockstepTraffic<Vnoc_network_top_mesh4x4>("mesh:4x4");
}
#endif

TEST(NetworkTopTorus4x4, EveryWormDeliveredOnceIntactAndEjectionAgreesWithWiredRoutersEveryCycle) {
  CheckLockstepTraffic<Vnoc_network_top_torus4x4>("torus:4x4");
}

}  // namespace
}  // namespace wormcast::verif
