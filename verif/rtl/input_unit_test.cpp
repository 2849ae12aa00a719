// SPDX-License-Identifier: Apache-2.0
// Verilator unit tests of the router stages rtl/noc_crossbar.sv and rtl/noc_input_unit.sv
// (docs/rtl-modules.md, "The router stages"). Each is verilated with --assert for two parameter sets and
// driven cycle by cycle against a C++ reference model written from the documented behaviour, with
// fixed-seed random stimulus. The input unit's route decisions are compared with the model's
// routing functions (model::make_routing_function) on a 4x4 mesh. Each stimulus-reachable
// assertion is made to fire by one illegal stimulus.
#include <gtest/gtest.h>
#include <verilated.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <iterator>
#include <memory>
#include <optional>
#include <random>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "Vnoc_crossbar_i3_o4.h"
#include "Vnoc_crossbar_i5_o5.h"
#include "Vnoc_input_unit_p4_v2_d4.h"
#include "Vnoc_input_unit_p4_v3_d1.h"
#include "model/labeling.hpp"
#include "model/routing.hpp"
#include "model/topology.hpp"
#include "verif/rtl/verilated_dut.hpp"

namespace wormcast::verif {
namespace {

using model::NodeId;
using model::RouteStep;
using model::Topology;

// noc_pkg::flit_t: {head, tail, data[64]}.
constexpr unsigned kFlitW = 66;
struct Flit {
  bool head = false;
  bool tail = false;
  std::uint64_t data = 0;
  bool operator==(const Flit&) const = default;
};
template <class T>
void SetFlit(T& sig, unsigned lsb, const Flit& f) {
  SetField(sig, lsb, 64, f.data);
  SetBit(sig, lsb + 64, f.tail);
  SetBit(sig, lsb + 65, f.head);
}
template <class T>
Flit GetFlit(const T& sig, unsigned lsb) {
  return {GetBit(sig, lsb + 65), GetBit(sig, lsb + 64), GetField(sig, lsb, 64)};
}

// ---------------------------------------------------------------------------------------------
// noc_crossbar

struct CrossbarIn5Out5 {
  using Model = Vnoc_crossbar_i5_o5;
  static constexpr unsigned kIn = 5, kOut = 5;
};
struct CrossbarIn3Out4 {
  using Model = Vnoc_crossbar_i3_o4;
  static constexpr unsigned kIn = 3, kOut = 4;
};

template <class P>
class StageCrossbar : public testing::Test {};
using CrossbarParams = testing::Types<CrossbarIn5Out5, CrossbarIn3Out4>;
class CrossbarNames {
 public:
  template <class T>
  static std::string GetName(int) {
    return std::is_same_v<T, CrossbarIn5Out5> ? "In5Out5" : "In3Out4";
  }
};
TYPED_TEST_SUITE(StageCrossbar, CrossbarParams, CrossbarNames);

// Random flits and random one-hot-or-zero selects: every output carries exactly its selected
// input's flit (zero when none), and an input selected by several outputs appears on all of them.
TYPED_TEST(StageCrossbar, RoutesAndReplicatesFlitsLikeReference) {
  using P = TypeParam;
  Dut<typename P::Model> dut;
  std::mt19937_64 rng(20261122);
  long replications = 0, idle_outputs = 0;
  for (int cycle = 0; cycle < 20000; ++cycle) {
    std::vector<Flit> in(P::kIn);
    for (unsigned i = 0; i < P::kIn; ++i) {
      in[i] = {static_cast<bool>(rng() & 1), static_cast<bool>(rng() & 1), rng()};
      SetFlit(dut->in_i, i * kFlitW, in[i]);
    }
    std::vector<std::optional<unsigned>> sel(P::kOut);
    std::vector<unsigned> uses(P::kIn, 0);
    for (unsigned o = 0; o < P::kOut; ++o) {
      if (rng() % 5 != 0) sel[o] = static_cast<unsigned>(rng() % P::kIn);
      for (unsigned i = 0; i < P::kIn; ++i) SetBit(dut->sel_i, o * P::kIn + i, sel[o] == i);
      if (sel[o]) ++uses[*sel[o]];
    }
    dut.Settle();
    for (unsigned o = 0; o < P::kOut; ++o) {
      ASSERT_EQ(GetBit(dut->valid_o, o), sel[o].has_value()) << "cycle " << cycle << " output " << o;
      ASSERT_EQ(GetFlit(dut->out_o, o * kFlitW), sel[o] ? in[*sel[o]] : Flit{}) << "cycle " << cycle << " output " << o;
      idle_outputs += !sel[o].has_value();
    }
    for (unsigned u : uses) replications += u >= 2;
    dut.Tick();
  }
  EXPECT_GT(replications, 1000);
  EXPECT_GT(idle_outputs, 1000);
  EXPECT_FALSE(dut.AssertionFired());
}

// One input on every output at once (a full broadcast) is legal.
TYPED_TEST(StageCrossbar, OneInputDrivesEveryOutput) {
  using P = TypeParam;
  Dut<typename P::Model> dut;
  const Flit flit{true, false, 0x0123456789ABCDEFull};
  SetFlit(dut->in_i, (P::kIn - 1) * kFlitW, flit);
  for (unsigned o = 0; o < P::kOut; ++o) SetBit(dut->sel_i, o * P::kIn + P::kIn - 1, true);
  dut.Settle();
  for (unsigned o = 0; o < P::kOut; ++o) EXPECT_EQ(GetFlit(dut->out_o, o * kFlitW), flit);
  dut.Tick();
  EXPECT_FALSE(dut.AssertionFired());
}

TYPED_TEST(StageCrossbar, TwoInputsOnOneOutputFiresAssertion) {
  using P = TypeParam;
  Dut<typename P::Model> dut;
  SetBit(dut->sel_i, (P::kOut - 1) * P::kIn + 0, true);
  SetBit(dut->sel_i, (P::kOut - 1) * P::kIn + 1, true);
  dut.Settle();
  dut.Tick();
  EXPECT_TRUE(dut.AssertionFired());
}

// ---------------------------------------------------------------------------------------------
// noc_input_unit

struct InputUnitVcs2Depth4 {
  using Model = Vnoc_input_unit_p4_v2_d4;
  static constexpr unsigned kVcs = 2, kDepth = 4;
};
struct InputUnitVcs3Depth1 {
  using Model = Vnoc_input_unit_p4_v3_d1;
  static constexpr unsigned kVcs = 3, kDepth = 1;
};

constexpr unsigned kPorts = 4;  // NumPorts of both variants (2D mesh)
constexpr unsigned kEjectBit = kPorts;
constexpr unsigned kLabelW = 16;
constexpr unsigned kCoordW = 6;              // noc_pkg::CoordW
constexpr unsigned kDimSizeW = kCoordW + 1;  // noc_input_unit DimSizeW
constexpr unsigned kClassW = 2;
constexpr int kModeHamPath = 0, kModeDimOrder = 2, kModeReserved = 5;

// Head flit data (docs/header-format.md): mode [63:61], vc_class [59:58], more [55:44],
// dest [43:24], src [23:4], tag [3:0].
std::uint64_t HeadData(int mode, std::uint64_t dest, std::uint64_t src, std::uint64_t tag) {
  return (std::uint64_t(mode) << 61) | (dest << 24) | ((src & 0xFFFFF) << 4) | (tag & 0xF);
}

// The 4x4 mesh, its path labeling and the two routing functions the test uses.
struct Mesh {
  Mesh()
      : topology(Topology::parse("mesh:4x4")),
        labels(model::HamiltonianLabeling::path(topology)),
        ham_path(model::make_routing_function("hamiltonian-path", topology)),
        dim_order(model::make_routing_function("dimension-order", topology)) {}
  std::uint64_t Dest(int mode, NodeId node) const {
    if (mode == kModeHamPath) return static_cast<std::uint64_t>(labels.label(node));
    const model::Coord c = topology.coord(node);
    return static_cast<std::uint64_t>(c[0]) | (static_cast<std::uint64_t>(c[1]) << kCoordW);
  }
  Topology topology;
  model::HamiltonianLabeling labels;
  std::unique_ptr<model::RoutingFunction> ham_path;
  std::unique_ptr<model::RoutingFunction> dim_order;
};

// The input unit's expected decision: target set (bit kEjectBit = eject) and class.
struct Route {
  unsigned target = 0;
  unsigned vc_class = 0;
  bool operator==(const Route&) const = default;
};

template <class P>
class InputUnitBench {
 public:
  explicit InputUnitBench(NodeId node) : node_(node) {
    const Topology& t = mesh_.topology;
    dut_->own_label_i = static_cast<std::uint16_t>(mesh_.labels.label(node));
    dut_->nbr_label_i = 0;
    dut_->port_connected_i = 0;
    for (unsigned p = 0; p < kPorts; ++p) {
      const NodeId nbr = t.neighbour(node, static_cast<model::Port>(p));
      if (nbr == model::kNoNode) continue;
      SetField(dut_->nbr_label_i, p * kLabelW, kLabelW, static_cast<std::uint64_t>(mesh_.labels.label(nbr)));
      SetBit(dut_->port_connected_i, p, true);
    }
    dut_->port_is_wrap_i = 0;
    dut_->port_is_boundary_i = 0;
    const model::Coord c = t.coord(node);
    dut_->own_coord_i = static_cast<std::uint32_t>(c[0] | (c[1] << kCoordW));
    dut_->dim_size_i = static_cast<std::uint32_t>(t.size(0) | (t.size(1) << kDimSizeW));
    dut_->is_torus_i = 0;
    dut_->num_dims_i = 2;
    dut_->valid_i = 0;
    dut_->va_ok_i = 0;
    dut_->sa_gnt_i = 0;
    dut_.Settle();
  }

  // What the model's routing function decides for a head flit at this router.
  Route Expected(const Flit& head) const {
    const int mode = static_cast<int>(head.data >> 61);
    const std::uint64_t dest = (head.data >> 24) & 0xFFFFF;
    std::optional<RouteStep> step;
    for (NodeId n = 0; n < mesh_.topology.node_count(); ++n) {
      if (mesh_.Dest(mode, n) != dest) continue;
      step = (mode == kModeHamPath ? *mesh_.ham_path : *mesh_.dim_order).try_route(node_, 0, n);
    }
    if (!step) return {};
    if (step->ejects()) return {1u << kEjectBit, 0};
    return {1u << step->port, static_cast<unsigned>(step->vc)};
  }

  Flit RandomHead(std::mt19937_64& rng, bool tail) const {
    const int mode = rng() % 2 ? kModeHamPath : kModeDimOrder;
    // One destination in four is this router, so ejections are frequent.
    const NodeId dest = rng() % 4 == 0 ? node_ : static_cast<NodeId>(rng() % 16);
    return {true, tail, HeadData(mode, mesh_.Dest(mode, dest), rng(), rng())};
  }

  // Drives one link flit (or none) for the next Cycle.
  void Send(std::optional<unsigned> vc, const Flit& f = {}) {
    dut_->valid_i = vc.has_value();
    dut_->vc_i = vc.value_or(0);
    SetFlit(dut_->flit_i, 0, f);
  }

  Mesh mesh_;
  NodeId node_;
  Dut<typename P::Model> dut_;
};

template <class P>
class StageInputUnit : public testing::Test {};
using InputUnitParams = testing::Types<InputUnitVcs2Depth4, InputUnitVcs3Depth1>;
class InputUnitNames {
 public:
  template <class T>
  static std::string GetName(int) {
    return std::is_same_v<T, InputUnitVcs2Depth4> ? "Vcs2Depth4" : "Vcs3Depth1";
  }
};
TYPED_TEST_SUITE(StageInputUnit, InputUnitParams, InputUnitNames);

// Random worms (1..6 flits, random routing mode and destination) on random VCs, sent whenever
// the upstream holds a credit, with random VC and switch grants. A reference of the buffers and of
// the per-VC state machine (docs/rtl-modules.md "noc_input_unit": Idle -> Routed -> Active -> Idle; every
// head is decided as it arrives, and its decision loaded at once into an Idle, empty VC, else in
// the first cycle it is at the front of an Idle VC, in every such VC at once; a Routed VC whose
// VCs are free to take, or ejecting only, requests the switch; it holds
// them (Active) from the edge its lead leaves, and a Routed lead the switch did not carry stays Routed)
// predicts every request, route, popped flit and credit each cycle; routes equal the model's
// routing functions on the 4x4 mesh.
TYPED_TEST(StageInputUnit, WormsLeaveInOrderWithOneCreditEachAndRoutesMatchModel) {
  using P = TypeParam;
  for (const NodeId node : {NodeId{5}, NodeId{0}, NodeId{15}}) {
    InputUnitBench<P> bench(node);
    auto& dut = bench.dut_;
    std::mt19937_64 rng(20261123 + static_cast<unsigned>(node));
    enum class St { kIdle, kRouted, kActive };
    struct Vc {
      std::deque<Flit> upstream;  // flits still to send
      unsigned credits = P::kDepth;
      std::deque<Flit> buffer;  // reference of the FIFO
      St state = St::kIdle;
      Route route;
    };
    std::vector<Vc> ref(P::kVcs);
    std::uint32_t expected_credit = 0;
    long worms = 0, ejects = 0, full_cycles = 0, flits_out = 0, on_arrival = 0, from_front = 0, same_cycle = 0;
    std::optional<Flit> last_read;  // the flit the last switch grant read
    for (int cycle = 0; cycle < 20000; ++cycle) {
      // Outputs of the state after the last edge.
      for (unsigned v = 0; v < P::kVcs; ++v) {
        const Vc& r = ref[v];
        const bool ejects_only = r.route.target == 1u << kEjectBit;
        ASSERT_EQ(GetBit(dut->va_req_o, v), r.state == St::kRouted && !ejects_only) << "cycle " << cycle << " vc " << v;
        ASSERT_FALSE(GetBit(dut->draining_o, v));
        ASSERT_FALSE(GetBit(dut->drop_worm_o, v));
        ASSERT_EQ(GetBit(dut->lead_o, v),
                  r.state == St::kRouted || (r.state == St::kActive && !r.buffer.empty() && r.buffer.front().head))
            << "cycle " << cycle << " vc " << v;
        if (r.state != St::kIdle) {
          const auto target = static_cast<unsigned>(GetField(dut->net_o, v * kPorts, kPorts)) |
                              (static_cast<unsigned>(GetBit(dut->eject_o, v)) << kEjectBit);
          ASSERT_EQ(target, r.route.target) << "cycle " << cycle << " vc " << v;
          ASSERT_EQ(GetField(dut->class_o, v * kClassW, kClassW), r.route.vc_class) << "cycle " << cycle;
        }
        full_cycles += r.buffer.size() == P::kDepth;
      }
      ASSERT_EQ(dut->credit_o, expected_credit) << "cycle " << cycle;
      for (unsigned v = 0; v < P::kVcs; ++v) ref[v].credits += GetBit(dut->credit_o, v);

      // Upstream: new worms, and one flit on a random VC that holds a credit.
      for (Vc& r : ref) {
        if (!r.upstream.empty()) continue;
        const unsigned len = 1 + static_cast<unsigned>(rng() % 6);
        r.upstream.push_back(bench.RandomHead(rng, len == 1));
        for (unsigned k = 1; k < len; ++k) r.upstream.push_back({false, k == len - 1, rng()});
      }
      std::optional<unsigned> send;
      if (rng() % 10 < 7) {
        const unsigned v = static_cast<unsigned>(rng() % P::kVcs);
        if (ref[v].credits > 0) send = v;
      }
      bench.Send(send, send ? ref[*send].upstream.front() : Flit{});
      // Route on arrival: a head into an Idle, empty VC, whatever the other VCs' fronts do.
      const bool arrival = send && ref[*send].state == St::kIdle && ref[*send].buffer.empty();
      // Allocators: random "output VCs free to take" to the waiting heads; the VCs that go then
      // request the switch, and one random switch grant among them.
      std::uint32_t va_ok = 0;
      for (unsigned v = 0; v < P::kVcs; ++v) {
        const bool requests = ref[v].state == St::kRouted && ref[v].route.target != 1u << kEjectBit;
        if (requests && rng() % 2) va_ok |= 1u << v;
      }
      dut->va_ok_i = va_ok;
      dut.Settle();
      std::vector<unsigned> sa_req;
      std::vector<bool> goes(P::kVcs);
      for (unsigned v = 0; v < P::kVcs; ++v) {
        const Vc& r = ref[v];
        goes[v] = r.state == St::kActive ||
                  (r.state == St::kRouted && (((va_ok >> v) & 1u) || r.route.target == 1u << kEjectBit));
        const bool requests = goes[v] && !r.buffer.empty();
        ASSERT_EQ(GetBit(dut->sa_req_o, v), requests) << "cycle " << cycle << " vc " << v;
        if (requests) sa_req.push_back(v);
      }
      // One random switch grant among the requests, or none. The grant reads its VC's front: it
      // is on flit_o after the edge (the RAM's output register), and stays there until the next
      // read; VCs interleave at random, so a read of the wrong VC or slot shows here.
      std::optional<unsigned> sa_gnt;
      if (!sa_req.empty() && rng() % 10 < 7) sa_gnt = sa_req[rng() % sa_req.size()];
      dut->sa_gnt_i = sa_gnt ? 1u << *sa_gnt : 0u;
      if (sa_gnt) last_read = ref[*sa_gnt].buffer.front();
      dut.Settle();
      dut.Tick();
      if (last_read) {
        ASSERT_EQ(GetFlit(dut->flit_o, 0), *last_read) << "cycle " << cycle;
      }

      // The reference takes the same edge.
      expected_credit = sa_gnt ? 1u << *sa_gnt : 0u;
      for (unsigned v = 0; v < P::kVcs; ++v) {
        Vc& r = ref[v];
        if (r.state == St::kIdle && !r.buffer.empty()) {
          r.state = St::kRouted;
          r.route = bench.Expected(r.buffer.front());
          ASSERT_NE(r.route.target, 0u) << "the model routes every head of these modes";
          ejects += r.route.target == 1u << kEjectBit;
          ++from_front;
        } else if (goes[v]) {
          same_cycle += r.state == St::kRouted && sa_gnt == v;
          // A head with network ports holds its VCs only once the switch carries it.
          if (r.state == St::kActive || r.route.target == 1u << kEjectBit || sa_gnt == v) r.state = St::kActive;
          if (sa_gnt == v) {
            if (r.buffer.front().tail) {
              r.state = St::kIdle;
              ++worms;
            }
            r.buffer.pop_front();
            ++flits_out;
          }
        }
      }
      if (send) {
        Vc& r = ref[*send];
        r.buffer.push_back(r.upstream.front());
        r.upstream.pop_front();
        --r.credits;
        if (arrival) {
          r.state = St::kRouted;
          r.route = bench.Expected(r.buffer.front());
          ASSERT_NE(r.route.target, 0u) << "the model routes every head of these modes";
          ejects += r.route.target == 1u << kEjectBit;
          ++on_arrival;
        }
      }
      bench.Send(std::nullopt);
      dut->va_ok_i = 0;
      dut->sa_gnt_i = 0;
      dut.Settle();
    }
    EXPECT_GT(worms, 1000) << "node " << node;
    EXPECT_GT(ejects, 200) << "node " << node;
    EXPECT_GT(full_cycles, 500) << "node " << node;
    EXPECT_GT(flits_out, 3000) << "node " << node;
    // Both decision paths and the same-cycle VC and switch grant are exercised.
    EXPECT_GT(on_arrival, 200) << "node " << node;
    // With one flit per VC a head only ever arrives into an Idle, empty VC: every head is routed
    // on arrival. Deeper buffers queue heads behind worms, whose decisions are loaded at the
    // front.
    if (P::kDepth > 1) {
      EXPECT_GT(from_front, 200) << "node " << node;
    } else {
      EXPECT_EQ(from_front, 0) << "node " << node;
    }
    EXPECT_GT(same_cycle, 200) << "node " << node;
    EXPECT_FALSE(dut.AssertionFired()) << "node " << node;
  }
}

// Zero load: a head written into an empty, Idle VC is decided in the same edge (it requests its
// output VC in the next cycle), and with its VC free to take and the switch granted in that cycle
// it leaves.
TYPED_TEST(StageInputUnit, HeadIntoEmptyVcIsRoutedOnArrivalAndLeavesNextCycle) {
  using P = TypeParam;
  InputUnitBench<P> bench(5);
  auto& dut = bench.dut_;
  // Dimension order from (1,1) to (3,1): +X, network port 0.
  const Flit head{true, true, HeadData(kModeDimOrder, bench.mesh_.Dest(kModeDimOrder, 7), 1, 2)};
  ASSERT_EQ(bench.Expected(head).target, 1u);
  bench.Send(P::kVcs - 1, head);
  dut.Tick();
  bench.Send(std::nullopt);
  dut.Settle();
  EXPECT_EQ(dut->va_req_o, 1u << (P::kVcs - 1));
  EXPECT_EQ(GetField(dut->net_o, (P::kVcs - 1) * kPorts, kPorts), 1u);
  EXPECT_EQ(dut->sa_req_o, 0u) << "no switch request while its output VCs are not free to take";
  dut->va_ok_i = dut->va_req_o;
  dut.Settle();
  EXPECT_EQ(dut->sa_req_o, 1u << (P::kVcs - 1));
  dut->sa_gnt_i = dut->sa_req_o;
  dut.Settle();
  dut.Tick();
  EXPECT_EQ(GetFlit(dut->flit_o, 0), head) << "the grant read the head: it leaves the buffer's RAM";
  dut->va_ok_i = 0;
  dut->sa_gnt_i = 0;
  dut.Settle();
  EXPECT_EQ(dut->credit_o, 1u << (P::kVcs - 1));
  EXPECT_EQ(dut->va_req_o, 0u) << "the one-flit worm left: the VC is Idle";
  EXPECT_FALSE(dut.AssertionFired());
}

// The switch grant reads its VC's front out of the buffer RAM: two VCs hold worms written in one
// order and are granted in the other, and the last VC holds two flits, so a read that took the
// wrong VC or the wrong slot of the right one shows on flit_o after the edge.
TYPED_TEST(StageInputUnit, GrantReadsItsOwnVcsFrontFromTheRam) {
  using P = TypeParam;
  InputUnitBench<P> bench(5);
  auto& dut = bench.dut_;
  std::mt19937_64 rng(11);
  const unsigned first = 0, last = P::kVcs - 1;
  const Flit a = bench.RandomHead(rng, true);
  const Flit b = bench.RandomHead(rng, P::kDepth == 1);
  const Flit b_body{false, true, 0x0123456789abcdefULL};
  bench.Send(first, a);
  dut.Tick();
  bench.Send(last, b);
  dut.Tick();
  if (P::kDepth > 1) {
    bench.Send(last, b_body);
    dut.Tick();
  }
  bench.Send(std::nullopt);
  // Grants VC vc's switch request (its output VCs free to take) and returns the flit read.
  const auto grant = [&](unsigned vc) {
    dut->va_ok_i = dut->va_req_o;
    dut.Settle();
    EXPECT_TRUE(GetBit(dut->sa_req_o, vc)) << "VC " << vc << " requests the switch";
    dut->sa_gnt_i = 1u << vc;
    dut.Settle();
    dut.Tick();
    dut->va_ok_i = 0;
    dut->sa_gnt_i = 0;
    dut.Settle();
    return GetFlit(dut->flit_o, 0);
  };
  EXPECT_EQ(grant(last), b);
  if (P::kDepth > 1) {
    EXPECT_EQ(grant(last), b_body);
  }
  dut.Tick();
  EXPECT_EQ(GetFlit(dut->flit_o, 0), P::kDepth > 1 ? b_body : b) << "held while nothing is read";
  EXPECT_EQ(grant(first), a);
  EXPECT_FALSE(dut.AssertionFired());
}

// What the input unit did with the flits of a script (docs/rtl-modules.md, "Drained worms").
struct DrainObservation {
  int drop_pulses = 0;       // cycles with drop_worm_o set for the VC
  int draining_cycles = 0;   // cycles with draining_o set for the VC
  int credits = 0;           // credits returned for the VC
  int forwarded = 0;         // switch requests for the VC while draining on a network port
  std::vector<Flit> left;    // flits that left through the switch (granted whenever requested)
  bool routed_next = false;  // a later head got its route (a VC request for network port 0)
};

// Drives `flits` into VC `vc`, at most one per `gap` + 1 cycles and only with a credit (the
// upstream starts with BufDepth and gets one back per credit_o), lets every waiting head take its
// output VCs and grants every switch request
// at once, and runs `cycles` cycles.
template <class P>
DrainObservation RunScript(InputUnitBench<P>& bench, unsigned vc, const std::vector<Flit>& flits, int gap, int cycles) {
  auto& dut = bench.dut_;
  DrainObservation o;
  std::size_t next = 0;
  int credits = static_cast<int>(P::kDepth);
  int wait = 0;
  for (int cycle = 0; cycle < cycles; ++cycle) {
    const bool send = next < flits.size() && wait == 0 && credits > 0;
    wait = send ? gap : std::max(0, wait - 1);
    credits -= send ? 1 : 0;
    if (send) {
      bench.Send(vc, flits[next++]);
    } else {
      bench.Send(std::nullopt);
    }
    dut->va_ok_i = 0;
    dut->sa_gnt_i = 0;
    dut.Settle();
    dut->va_ok_i = dut->va_req_o;
    dut.Settle();
    dut->sa_gnt_i = dut->sa_req_o & (0 - dut->sa_req_o);  // the lowest requesting VC
    dut.Settle();
    o.drop_pulses += GetBit(dut->drop_worm_o, vc);
    const bool draining = GetBit(dut->draining_o, vc);
    o.draining_cycles += draining;
    o.credits += GetBit(dut->credit_o, vc);
    credits += GetBit(dut->credit_o, vc);
    if (draining && GetField(dut->net_o, vc * kPorts, kPorts) != 0) ++o.forwarded;
    if (draining && GetBit(dut->va_req_o, vc)) ++o.forwarded;
    const bool read = GetBit(dut->sa_gnt_i, vc);
    if (!draining && GetBit(dut->va_req_o, vc) && GetField(dut->net_o, vc * kPorts, kPorts) == 1u) {
      o.routed_next = true;
    }
    dut.Tick();
    if (read) o.left.push_back(GetFlit(dut->flit_o, 0));  // the grant's read, after the edge
  }
  dut->va_ok_i = 0;
  dut->sa_gnt_i = 0;
  bench.Send(std::nullopt);
  dut.Settle();
  return o;
}

// A head without a decision (a reserved mode) is drained: its flits, arriving over several
// cycles, leave the buffer without the switch up to the tail, one credit each; drop_worm_o pulses
// once; nothing is requested meanwhile; the next worm on the same VC is routed normally.
TYPED_TEST(StageInputUnit, HeadWithoutDecisionIsDrainedToItsTailAndTheNextWormIsRouted) {
  using P = TypeParam;
  InputUnitBench<P> bench(5);
  const unsigned vc = P::kVcs - 1;
  // Dimension order from (1,1) to (3,1): +X, network port 0.
  const Flit good{true, true, HeadData(kModeDimOrder, bench.mesh_.Dest(kModeDimOrder, 7), 1, 3)};
  const std::vector<Flit> flits{{true, false, HeadData(kModeReserved, 0, 1, 2)},
                                {false, false, 0x111},
                                {false, false, 0x222},
                                {false, true, 0x333},
                                good};
  const DrainObservation o = RunScript(bench, vc, flits, 2, 40);
  EXPECT_EQ(o.drop_pulses, 1);
  EXPECT_GE(o.draining_cycles, 4) << "the drain lasts until the tail, at least 9 cycles after the head";
  EXPECT_EQ(o.forwarded, 0);
  ASSERT_EQ(o.left.size(), 1u) << "only the good worm leaves through the switch";
  EXPECT_EQ(o.left[0], good);
  EXPECT_TRUE(o.routed_next);
  EXPECT_EQ(o.credits, 5) << "one credit per flit, drained or forwarded";
  EXPECT_FALSE(GetBit(bench.dut_->draining_o, vc));
  EXPECT_FALSE(bench.dut_.AssertionFired());
}

// One-flit worms (head = tail) without a decision, back to back: a label wider than LabelW
// (Hamiltonian path, dest bit 16 set: route compute alone sees label 5 and would route it), and
// coordinates outside the 4x4 mesh ((5, 1): route compute alone would head +X, and leave the east
// column on its unconnected port). Each is dropped in its own drain with one credit and one pulse,
// and the good worm behind them is routed.
TYPED_TEST(StageInputUnit, OneFlitWormsWithoutDecisionAreDroppedOneCreditEach) {
  using P = TypeParam;
  InputUnitBench<P> bench(5);
  const Flit good{true, true, HeadData(kModeDimOrder, bench.mesh_.Dest(kModeDimOrder, 7), 1, 3)};
  const std::uint64_t wide_label = (std::uint64_t{1} << kLabelW) | 5u;
  const std::uint64_t outside = 5u | (1u << kCoordW);  // (5, 1)
  const std::vector<Flit> flits{{true, true, HeadData(kModeHamPath, wide_label, 1, 1)},
                                {true, true, HeadData(kModeDimOrder, outside, 1, 2)},
                                good};
  ASSERT_EQ(bench.Expected({true, true, HeadData(kModeHamPath, wide_label, 1, 1)}), Route{})
      << "the model names no node for the label";
  const DrainObservation o = RunScript(bench, 0, flits, 0, 20);
  EXPECT_EQ(o.drop_pulses, 2);
  EXPECT_EQ(o.forwarded, 0);
  ASSERT_EQ(o.left.size(), 1u);
  EXPECT_EQ(o.left[0], good);
  EXPECT_TRUE(o.routed_next);
  EXPECT_EQ(o.credits, 3);
  EXPECT_FALSE(bench.dut_.AssertionFired());
}

// Intermediate reception, then no decision for the address flit (a reserved mode in the address
// flit, the head of the worm the router would forward): the copy this router delivers stays whole
// (every flit still goes to local ejection, through the switch), nothing is forwarded, one pulse.
TYPED_TEST(StageInputUnit, AddressFlitWithoutDecisionKeepsTheLocalCopyAndForwardsNothing) {
  using P = TypeParam;
  InputUnitBench<P> bench(5);
  // Hamiltonian path to this node (label of node 5) with one address flit: delivered here.
  const std::uint64_t head = HeadData(kModeHamPath, bench.mesh_.Dest(kModeHamPath, 5), 1, 2) | (std::uint64_t{1} << 44);
  const std::vector<Flit> flits{{true, false, head},
                                {false, false, HeadData(kModeReserved, 0, 1, 2)},
                                {false, false, 0x444},
                                {false, true, 0x555}};
  const DrainObservation o = RunScript(bench, 0, flits, 1, 30);
  EXPECT_EQ(o.drop_pulses, 1);
  EXPECT_EQ(o.forwarded, 0);
  ASSERT_EQ(o.left.size(), 4u) << "the local copy: head, address flit, body, tail";
  for (std::size_t k = 0; k < 4; ++k) EXPECT_EQ(o.left[k], flits[k]) << "flit " << k;
  EXPECT_GE(o.draining_cycles, 3);
  EXPECT_EQ(o.credits, 4);
  EXPECT_FALSE(bench.dut_.AssertionFired());
}

// The decision RAM reads once per cycle (docs/rtl.md, "The decision store"): a pop that ends a
// segment with a flit behind it reads that flit's decision, and a drained worm's tail that does
// so claims the read. Two scripts on buffers filled while nothing may leave (no grant):
//   DrainedTailsOfTwoVcs  VC 0 [A0, B0 head, B0 tail, C0], VC 1 [A1, B1 (head and tail), C1]:
//                         A0 granted at edge g, A1 at g + 1; each B is then loaded and drained
//                         (no decision), and both B tails would drop in cycle g + 3. VC 0 drops
//                         there, VC 1 a cycle later. Credits: A0 g+1, A1 g+2, B0 head g+3,
//                         B0 tail g+4, B1 g+5.
//   DrainedTailBesideRequest  VC 0 [A0, B0 (head and tail), C0], VC 1 [A1, C1]: A0 granted at g,
//                         B0 loaded at g + 1 and dropped at g + 2 (its credit at g + 3); VC 1's
//                         A1 (a tail with C1 behind it) requests the switch in every cycle but
//                         g + 2.
// A, C: dimension order from (1,1) to (3,1), leaving on +X (port 0); B: a reserved mode. Every C
// is routed on port 0 afterwards: its decision came through the RAM.
enum class ClaimScript { kDrainedTailsOfTwoVcs, kDrainedTailBesideRequest };
struct ClaimTrace {
  std::vector<std::uint32_t> credits;  // credit_o from cycle g + 1 on
  std::vector<bool> vc1_requests;      // sa_req_o[1] from cycle g on
  unsigned routed_c = 0;               // VCs whose C was loaded routed to port 0
  bool assertion = false;
};
template <class P>
ClaimTrace RunClaimScript(ClaimScript script) {
  InputUnitBench<P> bench(5);
  auto& dut = bench.dut_;
  const Flit good{true, true, HeadData(kModeDimOrder, bench.mesh_.Dest(kModeDimOrder, 7), 1, 3)};
  const Flit bad_head{true, false, HeadData(kModeReserved, 0, 1, 2)}, bad_tail{false, true, 0x777};
  const Flit bad_one{true, true, HeadData(kModeReserved, 0, 1, 4)};
  std::vector<std::pair<unsigned, Flit>> sends;
  if (script == ClaimScript::kDrainedTailsOfTwoVcs) {
    sends = {{0, good}, {1, good}, {0, bad_head}, {0, bad_tail}, {1, bad_one}, {0, good}, {1, good}};
  } else {
    sends = {{0, good}, {1, good}, {0, bad_one}, {0, good}, {1, good}};
  }
  for (const auto& [vc, f] : sends) {
    bench.Send(vc, f);
    dut.Tick();
  }
  bench.Send(std::nullopt);
  ClaimTrace t;
  const int g = 2;  // cycles after the sends: the first grant's edge
  for (int cycle = 0; cycle < 14; ++cycle) {
    dut->va_ok_i = 0;
    dut->sa_gnt_i = 0;
    dut.Settle();
    dut->va_ok_i = dut->va_req_o;
    dut.Settle();
    std::uint32_t grant = 0;
    if (cycle == g) grant = 1;                                                      // A0
    if (cycle == g + 1 && script == ClaimScript::kDrainedTailsOfTwoVcs) grant = 2;  // A1
    if (script == ClaimScript::kDrainedTailBesideRequest && cycle >= g)
      t.vc1_requests.push_back(GetBit(dut->sa_req_o, 1));
    dut->sa_gnt_i = grant & dut->sa_req_o;
    dut.Settle();
    if (cycle > g) t.credits.push_back(dut->credit_o);
    for (unsigned v = 0; v < 2; ++v) {
      if (cycle > g + 3 && GetBit(dut->va_req_o, v) && !GetBit(dut->draining_o, v) &&
          GetField(dut->net_o, v * kPorts, kPorts) == 1u) {
        t.routed_c |= 1u << v;
      }
    }
    dut.Tick();
  }
  t.assertion = dut.AssertionFired();
  return t;
}

TEST(StageInputUnitVcs2Depth4, DrainedTailsOfTwoVcsReadTheirNextDecisionsOneCycleApart) {
  const ClaimTrace t = RunClaimScript<InputUnitVcs2Depth4>(ClaimScript::kDrainedTailsOfTwoVcs);
  ASSERT_GE(t.credits.size(), 6u);
  EXPECT_EQ(t.credits[0], 1u) << "g+1: A0";
  EXPECT_EQ(t.credits[1], 2u) << "g+2: A1";
  EXPECT_EQ(t.credits[2], 1u) << "g+3: B0's head";
  EXPECT_EQ(t.credits[3], 1u) << "g+4: B0's tail only; VC 1's drained tail waited";
  EXPECT_EQ(t.credits[4], 2u) << "g+5: B1";
  EXPECT_EQ(t.routed_c, 3u) << "both C heads routed from the decision RAM";
  EXPECT_FALSE(t.assertion);
}

TEST(StageInputUnitVcs2Depth4, DrainedTailHoldsTheSwitchRequestOfATailWithAFlitBehind) {
  const ClaimTrace t = RunClaimScript<InputUnitVcs2Depth4>(ClaimScript::kDrainedTailBesideRequest);
  ASSERT_GE(t.vc1_requests.size(), 4u);
  EXPECT_TRUE(t.vc1_requests[0]) << "g";
  EXPECT_TRUE(t.vc1_requests[1]) << "g+1";
  EXPECT_FALSE(t.vc1_requests[2]) << "g+2: B0's drained tail reads C0's decision";
  EXPECT_TRUE(t.vc1_requests[3]) << "g+3";
  EXPECT_EQ(t.credits[1], 0u) << "g+2";
  EXPECT_EQ(t.credits[2], 1u) << "g+3: B0 dropped at g+2";
  EXPECT_EQ(t.routed_c & 1u, 1u) << "C0 routed from the decision RAM";
  EXPECT_FALSE(t.assertion);
}

TYPED_TEST(StageInputUnit, WriteIntoFullBufferFiresAssertion) {
  using P = TypeParam;
  InputUnitBench<P> bench(5);
  auto& dut = bench.dut_;
  std::mt19937_64 rng(1);
  for (unsigned k = 0; k < P::kDepth; ++k) {
    bench.Send(0u, k == 0 ? bench.RandomHead(rng, false) : Flit{false, false, k});
    dut.Tick();
    EXPECT_FALSE(dut.AssertionFired()) << "flit " << k;
  }
  bench.Send(0u, {false, true, 99});
  dut.Tick();
  EXPECT_TRUE(dut.AssertionFired());
}

TYPED_TEST(StageInputUnit, BodyFlitWithoutHeadFiresAssertion) {
  using P = TypeParam;
  InputUnitBench<P> bench(5);
  auto& dut = bench.dut_;
  bench.Send(P::kVcs - 1, {false, true, 7});
  dut.Tick();
  bench.Send(std::nullopt);
  dut.Tick();
  EXPECT_TRUE(dut.AssertionFired());
}

TYPED_TEST(StageInputUnit, HeadInsideWormFiresAssertion) {
  using P = TypeParam;
  InputUnitBench<P> bench(5);
  auto& dut = bench.dut_;
  std::mt19937_64 rng(3);
  bench.Send(0u, bench.RandomHead(rng, false));  // a worm without its tail...
  dut.Tick();                                    // written and routed on arrival
  bench.Send(std::nullopt);
  dut.Settle();
  dut->va_ok_i = dut->va_req_o;  // (an eject-only head needs no output VC)
  dut->sa_gnt_i = 1;
  dut.Settle();
  dut.Tick();  // the head leaves
  ASSERT_TRUE(GetFlit(dut->flit_o, 0).head);
  dut->va_ok_i = 0;
  dut->sa_gnt_i = 0;
  EXPECT_FALSE(dut.AssertionFired());
  bench.Send(0u, bench.RandomHead(rng, true));  // ...followed by another head
  dut.Tick();
  bench.Send(std::nullopt);
  dut.Tick();
  EXPECT_TRUE(dut.AssertionFired());
}

TYPED_TEST(StageInputUnit, SwitchGrantWithoutRequestFiresAssertion) {
  using P = TypeParam;
  InputUnitBench<P> bench(5);
  auto& dut = bench.dut_;
  dut->sa_gnt_i = 1;
  dut.Settle();
  dut.Tick();
  EXPECT_TRUE(dut.AssertionFired());
}

}  // namespace
}  // namespace wormcast::verif
