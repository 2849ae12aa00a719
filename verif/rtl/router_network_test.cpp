// System test of the router top rtl/noc_router.sv (docs/rtl.md, "Router top"): one verilated
// router (4 network ports, 1 local pair, 2 VCs of 4 flits) instantiated once per node of a 4x4 mesh
// or torus and wired cycle by cycle in C++, by copying each router's registered output links and
// credits to its neighbours' inputs (valid because the router has no combinational input-to-output
// path; verif/rtl/router_mesh.hpp). Each router is configured from the model as in
// route_compute_test.cpp. Random unicast worms (Hamiltonian-path or dimension-order mode, one per
// run, 1..6 flits, heads packed with firmware/noc_wire_format.hpp) are injected at the local ports
// by credit-respecting injectors and ejected at the destinations. The test checks that every worm
// arrives exactly once, at its destination, with its flits intact and in order; that the links each
// worm's head crossed (every router's output links are monitored) and the VC class it carried on
// each equal the model's trace_route; that no assertion fired; and a watchdog fails the test when
// no flit moves for 1000 cycles, naming the input VCs that still hold flits.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <verilated.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "firmware/noc_wire_format.hpp"
#include "model/labeling.hpp"
#include "model/routing.hpp"
#include "model/topology.hpp"
#include "verif/rtl/router_mesh.hpp"

namespace wormcast::verif {
namespace {

using model::NodeId;
using model::RouteHop;
using model::Topology;
using Router = RouterMesh::Router;

constexpr unsigned kNetPorts = RouterMesh::kNetPorts;
constexpr unsigned kPorts = RouterMesh::kPorts;
constexpr unsigned kLocal = RouterMesh::kLocal;
constexpr unsigned kVcs = RouterMesh::kVcs;
constexpr unsigned kDepth = RouterMesh::kDepth;

// One worm: what was injected and what the model says about its route.
struct Worm {
  NodeId src = 0;
  NodeId dest = 0;
  int mode = 0;
  std::vector<Flit> flits;
  std::vector<RouteHop> expected_hops;
  std::vector<RouteHop> hops;  // seen on the output links
  bool delivered = false;
};

// The registered outputs of one router in one cycle.
struct Outputs {
  std::uint32_t valid = 0;
  std::uint32_t vc = 0;
  std::array<Flit, kPorts> flit{};
  std::uint32_t credit = 0;
};

class NetworkBench {
 public:
  explicit NetworkBench(const std::string& spec, std::uint64_t seed)
      : topology_(Topology::parse(spec)),
        labels_(model::HamiltonianLabeling::path(topology_)),
        ham_path_(model::make_routing_function("hamiltonian-path", topology_)),
        dim_order_(model::make_routing_function("dimension-order", topology_)),
        rng_(seed),
        context_(MakeContext()),
        mesh_(topology_, context_.get()) {
    const int n = topology_.node_count();
    injectors_.resize(static_cast<std::size_t>(n));
    sinks_.resize(static_cast<std::size_t>(n));
    occupancy_.assign(static_cast<std::size_t>(n) * kPorts * kVcs, 0);
  }

  // Runs until `worms` worms have been injected and delivered; a stall or a check fails the test.
  void Run(int worms, double load, int mode) {
    mode_ = mode;
    const int n = topology_.node_count();
    long last_move = 0;
    for (long cycle = 0;; ++cycle) {
      if (injected_ >= worms && delivered_ == injected_) break;
      std::vector<Outputs> out(static_cast<std::size_t>(n));
      bool moved = false;
      for (NodeId r = 0; r < n; ++r) {
        Router& m = mesh_.router(r);
        Outputs& o = out[static_cast<std::size_t>(r)];
        o.valid = m.out_valid_o;
        o.vc = m.out_vc_o;
        o.credit = m.in_credit_o;
        for (unsigned p = 0; p < kPorts; ++p) o.flit[p] = GetFlit(m.out_flit_o, p * kFlitW);
        for (unsigned p = 0; p < kPorts; ++p) {
          if (!((o.valid >> p) & 1)) continue;
          moved = true;
          const unsigned vc = (o.vc >> p) & 1;
          if (p < kNetPorts) {
            Monitor(r, p, vc, o.flit[p]);
            // The flit enters the neighbour's input p^1 (RouterMesh::Step).
            ++occupancy_[Index(topology_.neighbour(r, static_cast<model::Port>(p)), p ^ 1, vc)];
          } else {
            Eject(r, vc, o.flit[p]);
          }
          if (HasFailure()) return;
        }
        for (unsigned b = 0; b < kPorts * kVcs; ++b) {
          if ((o.credit >> b) & 1) --occupancy_[Index(r, b / kVcs, b % kVcs)];
        }
      }
      for (NodeId r = 0; r < n; ++r) {
        Router& m = mesh_.router(r);
        // Local ejection always drains: a credit for every flit ejected.
        const Outputs& own = out[static_cast<std::size_t>(r)];
        SetField(m.out_credit_i, kLocal * kVcs, kVcs, 0);
        if ((own.valid >> kLocal) & 1) SetBit(m.out_credit_i, kLocal * kVcs + ((own.vc >> kLocal) & 1), true);
        SetBit(m.in_valid_i, kLocal, false);
        moved |= Inject(r, own.credit >> (kLocal * kVcs), worms, load);
      }
      mesh_.Step();
      if (context_->gotError()) {
        ADD_FAILURE() << "an assertion fired in cycle " << cycle;
        return;
      }
      if (moved) last_move = cycle;
      if (cycle - last_move > 1000) {
        ADD_FAILURE() << "no flit moved for 1000 cycles (cycle " << cycle << ", " << delivered_ << " of " << injected_
                      << " worms delivered); input VCs holding flits: " << Holding();
        return;
      }
    }
  }

  int injected() const { return injected_; }
  int delivered() const { return delivered_; }
  long hops() const { return hops_; }
  long vc1_hops() const { return vc1_hops_; }
  int modes_seen(int mode) const { return mode_count_[static_cast<std::size_t>(mode)]; }
  bool assertion_fired() const { return context_->gotError(); }

 private:
  static bool HasFailure() { return testing::Test::HasFailure(); }
  std::size_t Index(NodeId r, unsigned p, unsigned v) const {
    return (static_cast<std::size_t>(r) * kPorts + p) * kVcs + v;
  }

  static std::unique_ptr<VerilatedContext> MakeContext() {
    auto context = std::make_unique<VerilatedContext>();
    context->fatalOnError(false);
    return context;
  }

  static std::uint32_t Key(std::uint64_t head_data) {
    const wire::HeadFields h = wire::unpack_head(head_data);
    return (h.src << 4) | h.tag;
  }

  Worm* Find(std::uint64_t head_data) {
    const auto it = worms_.find(Key(head_data));
    return it == worms_.end() ? nullptr : &it->second;
  }

  // A head on a network output link: one hop of its worm.
  void Monitor(NodeId r, unsigned p, unsigned vc, const Flit& f) {
    if (!f.head) return;
    Worm* w = Find(f.data);
    if (w == nullptr) {
      ADD_FAILURE() << fmt::format("router {} port {}: head of no injected worm ({:#x})", r, p, f.data);
      return;
    }
    const int cls = wire::unpack_head(f.data).vc_class;
    EXPECT_EQ(static_cast<int>(vc), cls & 1) << "router " << r << " port " << p << ": class " << cls << " on VC " << vc;
    w->hops.push_back({r, static_cast<model::Port>(p), cls});
    ++hops_;
    vc1_hops_ += vc;
  }

  // A flit on a local ejection link: reassemble the worm of its VC and check it at the tail.
  void Eject(NodeId r, unsigned vc, const Flit& f) {
    std::vector<Flit>& got = sinks_[static_cast<std::size_t>(r)][vc];
    if (f.head != got.empty()) {
      ADD_FAILURE() << fmt::format("router {} ejection VC {}: {} flit {} a worm", r, vc, f.head ? "head" : "body",
                                   f.head ? "inside" : "outside");
      return;
    }
    got.push_back(f);
    if (!f.tail) return;
    Worm* w = Find(got.front().data);
    if (w == nullptr) {
      ADD_FAILURE() << fmt::format("router {}: ejected worm was never injected ({:#x})", r, got.front().data);
      return;
    }
    const std::string name = fmt::format("worm {}->{} mode {}", w->src, w->dest, w->mode);
    EXPECT_EQ(w->dest, r) << name << " ejected at " << r;
    EXPECT_FALSE(w->delivered) << name << " delivered twice";
    // The head keeps the class it carried on the last hop (or its injection class).
    std::vector<Flit> expected = w->flits;
    wire::HeadFields h = wire::unpack_head(expected.front().data);
    h.vc_class = static_cast<std::uint8_t>(w->expected_hops.empty() ? 0 : w->expected_hops.back().vc);
    expected.front().data = wire::pack_head(h);
    EXPECT_EQ(got, expected) << name << ": flits changed";
    EXPECT_EQ(w->hops, w->expected_hops) << name << ": links differ from the model's trace_route";
    w->delivered = true;
    ++delivered_;
    in_flight_tags_[static_cast<std::size_t>(w->src)].erase(h.tag);
    worms_.erase(Key(got.front().data));
    got.clear();
  }

  // The injector of node r: per VC at most one worm in progress; one flit per cycle on a VC with a
  // credit. Returns whether a flit was sent.
  bool Inject(NodeId r, std::uint32_t credit_bits, int worms, double load) {
    Injector& inj = injectors_[static_cast<std::size_t>(r)];
    for (unsigned v = 0; v < kVcs; ++v) inj.credits[v] += (credit_bits >> v) & 1;
    std::uniform_real_distribution<double> u(0, 1);
    std::set<int>& tags = in_flight_tags_[static_cast<std::size_t>(r)];
    for (unsigned v = 0; v < kVcs; ++v) {
      if (!inj.pending[v].empty() || injected_ >= worms || u(rng_) >= load || tags.size() >= 16) continue;
      int tag = 0;
      while (tags.count(tag)) ++tag;
      tags.insert(tag);
      inj.pending[v] = NewWorm(r, tag);
      ++injected_;
    }
    std::vector<unsigned> ready;
    for (unsigned v = 0; v < kVcs; ++v) {
      if (!inj.pending[v].empty() && inj.credits[v] > 0) ready.push_back(v);
    }
    if (ready.empty()) return false;
    const unsigned v = ready[rng_() % ready.size()];
    Router& m = mesh_.router(r);
    SetBit(m.in_valid_i, kLocal, true);
    SetField(m.in_vc_i, kLocal, 1, v);
    SetFlit(m.in_flit_i, kLocal * kFlitW, inj.pending[v].front());
    inj.pending[v].pop_front();
    --inj.credits[v];
    ++occupancy_[Index(r, kLocal, v)];
    return true;
  }

  std::deque<Flit> NewWorm(NodeId src, int tag) {
    Worm w;
    w.src = src;
    w.dest = static_cast<NodeId>(rng_() % static_cast<std::uint64_t>(topology_.node_count()));
    w.mode = mode_;
    ++mode_count_[static_cast<std::size_t>(w.mode)];
    wire::HeadFields h;
    const bool ham = w.mode == 0;
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
    for (int i = 0; i < length; ++i) {
      Flit f{i == 0, i == length - 1, i == 0 ? wire::pack_head(h) : rng_()};
      w.flits.push_back(f);
    }
    w.expected_hops = model::trace_route(ham ? *ham_path_ : *dim_order_, src, 0, w.dest);
    const std::deque<Flit> flits(w.flits.begin(), w.flits.end());
    worms_.emplace((static_cast<std::uint32_t>(src) << 4) | static_cast<std::uint32_t>(tag), std::move(w));
    return flits;
  }

  std::string Holding() const {
    std::string s;
    for (NodeId r = 0; r < topology_.node_count(); ++r) {
      for (unsigned p = 0; p < kPorts; ++p) {
        for (unsigned v = 0; v < kVcs; ++v) {
          const int n = occupancy_[Index(r, p, v)];
          if (n != 0) s += fmt::format(" router {} input {} VC {}: {} flit(s);", r, p, v, n);
        }
      }
      const unsigned stuck = mesh_.router(r).no_route_o;
      if (stuck != 0) s += fmt::format(" router {} no_route {:#x};", r, stuck);
    }
    return s.empty() ? " none" : s;
  }

  struct Injector {
    std::array<int, kVcs> credits{static_cast<int>(kDepth), static_cast<int>(kDepth)};
    std::array<std::deque<Flit>, kVcs> pending;
  };

  Topology topology_;
  model::HamiltonianLabeling labels_;
  std::unique_ptr<model::RoutingFunction> ham_path_;
  std::unique_ptr<model::RoutingFunction> dim_order_;
  std::mt19937_64 rng_;
  std::unique_ptr<VerilatedContext> context_;
  RouterMesh mesh_;
  std::vector<Injector> injectors_;
  std::vector<std::array<std::vector<Flit>, kVcs>> sinks_;
  std::vector<int> occupancy_;  // flits in each input VC buffer, from links and credits
  std::map<std::uint32_t, Worm> worms_;
  std::map<int, std::set<int>> in_flight_tags_;
  int injected_ = 0;
  int delivered_ = 0;
  long hops_ = 0;
  long vc1_hops_ = 0;
  std::array<int, 4> mode_count_{};
  int mode_ = 0;
};

class RouterNetwork : public testing::TestWithParam<const char*> {};

// One routing mode per run: Hamiltonian-path and dimension-order worms both use VC 0 on a mesh, and
// their channel dependencies together contain cycles (mixed at load 0.2 they deadlocked here, and
// the watchdog reported the full buffers), so each run keeps to one deadlock-free function.
TEST_P(RouterNetwork, EveryWormDeliveredOnceIntactAlongModelRoute) {
  constexpr int kWorms = 1500;
  for (const int mode : {0, 2}) {
    for (const double load : {0.02, 0.3}) {
      SCOPED_TRACE(fmt::format("mode {} load {}", mode, load));
      NetworkBench bench(GetParam(), 20261121);
      bench.Run(kWorms, load, mode);
      ASSERT_FALSE(HasFailure());
      EXPECT_EQ(bench.delivered(), kWorms);
      EXPECT_FALSE(bench.assertion_fired());
      EXPECT_EQ(bench.modes_seen(mode), kWorms);
      EXPECT_GT(bench.hops(), kWorms);
      if (mode == 2 && std::string(GetParam()).starts_with("torus")) {
        EXPECT_GT(bench.vc1_hops(), 200);  // the dateline class travels on VC 1
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Topologies, RouterNetwork, testing::Values("mesh:4x4", "torus:4x4"),
                         [](const testing::TestParamInfo<const char*>& info) {
                           std::string name = info.param;
                           return name.substr(0, name.find(':')) + "4x4";
                         });

}  // namespace
}  // namespace wormcast::verif
