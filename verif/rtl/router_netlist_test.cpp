// Netlist versus RTL for the router top (docs/rtl.md, "Router netlist versus RTL"; rtl-subset.md,
// "Equivalence by simulation"): random legal traffic drives the verilated noc_router
// (Vnoc_router_p4_v2_d4) and every cycle's inputs and outputs go to a vector file; then
// netlist_equiv_router.sh synthesizes noc_router with yosys and netlist_tb_router.v replays the
// inputs on the gate netlist in iverilog, comparing every output every cycle.
//
// Traffic: one router configured as a node of a 4x4 mesh, then (after a second reset) as a node of
// a 4x4 torus, with random worms of 1..6 flits on every input port (network and local) and VC, in
// Hamiltonian-path and dimension-order mode toward random destinations (this node included), sent
// only into VCs with a credit (counted from in_credit_o); every flit that leaves is credited back
// after a random delay, sometimes a long one, so buffers fill and drain. Near the end of each phase
// a source-routed head (no route-compute decision) blocks one input VC, so no_route_o is exercised
// and then cleared by the reset.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <random>
#include <string>

#include "Vnoc_router_p4_v2_d4.h"
#include "firmware/noc_wire_format.hpp"
#include "model/labeling.hpp"
#include "model/topology.hpp"
#include "verilated_dut.hpp"

namespace wormcast::verif {
namespace {

using model::NodeId;
using model::Topology;
using Router = Vnoc_router_p4_v2_d4;

constexpr unsigned kNetPorts = 4;
constexpr unsigned kLocal = 1;
constexpr unsigned kPorts = kNetPorts + kLocal;
constexpr unsigned kVcs = 2;
constexpr unsigned kDepth = 4;
constexpr unsigned kVcIdW = 1;
constexpr unsigned kFlitW = 66;
constexpr unsigned kLabelW = 16;
constexpr unsigned kCoordW = wire::kCoordW;

// A verilated port of any width as hex, most significant digit first, `width` bits.
template <class T>
std::string Hex(const T& sig, unsigned width) {
  std::string s;
  for (unsigned digit = (width + 3) / 4; digit-- > 0;) {
    const unsigned lsb = digit * 4;
    s.push_back("0123456789abcdef"[GetField(sig, lsb, std::min(4u, width - lsb))]);
  }
  return s;
}

struct Flit {
  bool head = false;
  bool tail = false;
  std::uint64_t data = 0;
};

class NetlistBench {
 public:
  explicit NetlistBench(std::uint64_t seed) : rng_(seed) {
    context_.fatalOnError(false);
    router_.clk_i = 0;
  }

  // Resets the router with the configuration of `node` of `spec`, then runs `cycles` cycles of
  // traffic; every cycle goes to `out` as one line.
  void RunPhase(const std::string& spec, NodeId node, int cycles, std::ostream& out) {
    const Topology topology = Topology::parse(spec);
    const model::HamiltonianLabeling labels = model::HamiltonianLabeling::path(topology);
    Configure(topology, labels, node);
    ResetState();
    for (int i = 0; i < 3; ++i) Cycle(out);  // reset held over rising edges
    router_.rst_ni = 1;
    for (int cycle = 0; cycle < cycles; ++cycle) {
      Drive(topology, labels, node, cycle == cycles - 300);
      Cycle(out);
      ReadOutputs();
    }
  }

  long cycles() const { return cycles_; }
  long flits_in() const { return flits_in_; }
  long flits_out() const { return flits_out_; }
  long heads_out() const { return heads_out_; }
  long vc1_out() const { return vc1_out_; }
  long full_vc_cycles() const { return full_vc_cycles_; }
  long no_route_cycles() const { return no_route_cycles_; }
  bool assertion_fired() const { return context_.gotError(); }

 private:
  void Configure(const Topology& topology, const model::HamiltonianLabeling& labels, NodeId node) {
    router_.rst_ni = 0;
    router_.own_label_i = static_cast<std::uint16_t>(labels.label(node));
    router_.nbr_label_i = 0;
    router_.port_connected_i = 0;
    router_.port_is_wrap_i = 0;
    router_.port_is_boundary_i = 0;
    for (unsigned p = 0; p < kNetPorts; ++p) {
      const NodeId nbr = topology.neighbour(node, static_cast<model::Port>(p));
      if (nbr == model::kNoNode) continue;
      SetField(router_.nbr_label_i, p * kLabelW, kLabelW, static_cast<std::uint64_t>(labels.label(nbr)));
      SetBit(router_.port_connected_i, p, true);
      if (topology.is_torus() && topology.is_wraparound(node, static_cast<model::Port>(p))) {
        SetBit(router_.port_is_wrap_i, p, true);
      }
    }
    const model::Coord c = topology.coord(node);
    router_.own_coord_i = static_cast<std::uint32_t>(c[0] | (c[1] << kCoordW));
    router_.dim_size_i = static_cast<std::uint32_t>(topology.size(0) | (topology.size(1) << kCoordW));
    router_.is_torus_i = topology.is_torus();
    router_.num_dims_i = static_cast<std::uint8_t>(topology.dimensions());
  }

  void ResetState() {
    router_.in_valid_i = 0;
    router_.in_vc_i = 0;
    router_.out_credit_i = 0;
    for (auto& port : inputs_) {
      for (VcSender& s : port) s = VcSender{};
    }
    for (auto& port : credit_due_) {
      for (auto& due : port) due.clear();
    }
  }

  // The inputs of one cycle: credits due on the outputs, and at most one flit per input port.
  void Drive(const Topology& topology, const model::HamiltonianLabeling& labels, NodeId node, bool block_one_vc) {
    router_.in_valid_i = 0;
    router_.in_vc_i = 0;
    router_.out_credit_i = 0;
    for (unsigned p = 0; p < kPorts; ++p) {
      for (unsigned v = 0; v < kVcs; ++v) {
        std::deque<long>& due = credit_due_[p][v];
        if (!due.empty() && due.front() <= cycles_) {
          due.pop_front();
          SetBit(router_.out_credit_i, p * kVcs + v, true);
        }
      }
    }
    std::uniform_real_distribution<double> u(0, 1);
    for (unsigned p = 0; p < kPorts; ++p) {
      for (unsigned v = 0; v < kVcs; ++v) {
        VcSender& s = inputs_[p][v];
        if (s.credits == 0) ++full_vc_cycles_;
        if (s.pending.empty() && u(rng_) < 0.3) s.pending = NewWorm(topology, labels, node, p);
      }
      // After the worm in progress on the VC, so wormhole order holds.
      if (block_one_vc && p == 0) inputs_[p][1].pending.push_back(SourceRoutedHead());
      if (u(rng_) >= 0.7) continue;  // the link idles
      const unsigned first = static_cast<unsigned>(rng_() % kVcs);
      for (unsigned k = 0; k < kVcs; ++k) {
        const unsigned v = (first + k) % kVcs;
        VcSender& s = inputs_[p][v];
        if (s.pending.empty() || s.credits == 0) continue;
        const Flit f = s.pending.front();
        s.pending.pop_front();
        --s.credits;
        SetBit(router_.in_valid_i, p, true);
        SetField(router_.in_vc_i, p * kVcIdW, kVcIdW, v);
        SetField(router_.in_flit_i, p * kFlitW, 64, f.data);
        SetBit(router_.in_flit_i, p * kFlitW + 64, f.tail);
        SetBit(router_.in_flit_i, p * kFlitW + 65, f.head);
        ++flits_in_;
        break;
      }
    }
  }

  // Settles the inputs, writes the cycle's line (inputs, then the outputs as they are now: after
  // the previous rising edge, with this cycle's inputs applied), and clocks the router.
  void Cycle(std::ostream& out) {
    router_.eval();
    const Router& r = router_;
    out << fmt::format("{} {} {} {} {} {} {} {} {} {} {} {} {} {} ", Hex(r.rst_ni, 1), Hex(r.own_label_i, kLabelW),
                       Hex(r.nbr_label_i, kNetPorts * kLabelW), Hex(r.port_connected_i, kNetPorts),
                       Hex(r.port_is_wrap_i, kNetPorts), Hex(r.port_is_boundary_i, kNetPorts),
                       Hex(r.own_coord_i, 3 * kCoordW), Hex(r.dim_size_i, 3 * kCoordW), Hex(r.is_torus_i, 1),
                       Hex(r.num_dims_i, 2), Hex(r.in_valid_i, kPorts), Hex(r.in_vc_i, kPorts * kVcIdW),
                       Hex(r.in_flit_i, kPorts * kFlitW), Hex(r.out_credit_i, kPorts * kVcs));
    out << fmt::format("{} {} {} {} {}\n", Hex(r.in_credit_o, kPorts * kVcs), Hex(r.out_valid_o, kPorts),
                       Hex(r.out_vc_o, kPorts * kVcIdW), Hex(r.out_flit_o, kPorts * kFlitW),
                       Hex(r.no_route_o, kPorts * kVcs));
    router_.clk_i = 1;
    router_.eval();
    context_.timeInc(1);
    router_.clk_i = 0;
    router_.eval();
    context_.timeInc(1);
    ++cycles_;
  }

  // After the edge: credits back to the senders, flits on the outputs to be credited back later.
  void ReadOutputs() {
    for (unsigned p = 0; p < kPorts; ++p) {
      for (unsigned v = 0; v < kVcs; ++v) {
        if (GetBit(router_.in_credit_o, p * kVcs + v)) ++inputs_[p][v].credits;
      }
      if (!GetBit(router_.out_valid_o, p)) continue;
      const auto v = static_cast<unsigned>(GetField(router_.out_vc_o, p * kVcIdW, kVcIdW));
      ++flits_out_;
      heads_out_ += GetBit(router_.out_flit_o, p * kFlitW + 65) ? 1 : 0;
      vc1_out_ += v;
      // Mostly a quick return; one in sixteen waits long (and holds up the VC's later credits), so
      // the router's output credits run out now and then.
      const long delay = (rng_() % 16 == 0) ? 5 + static_cast<long>(rng_() % 16) : static_cast<long>(rng_() % 3);
      std::deque<long>& due = credit_due_[p][v];
      due.push_back(std::max(cycles_ + delay, due.empty() ? 0 : due.back() + 1));
    }
    no_route_cycles_ += router_.no_route_o != 0 ? 1 : 0;
  }

  // A worm arriving on input port p: Hamiltonian-path or dimension-order mode toward a random
  // destination. Heads on a torus's network ports in dimension order carry either dateline class.
  std::deque<Flit> NewWorm(const Topology& topology, const model::HamiltonianLabeling& labels, NodeId node,
                           unsigned port) {
    const auto dest = static_cast<NodeId>(rng_() % static_cast<std::uint64_t>(topology.node_count()));
    wire::HeadFields h;
    if (rng_() % 2 == 0) {
      h.mode = wire::Mode::kHamiltonianPath;
      h.network = labels.label(dest) > labels.label(node) ? wire::kNetworkHigh : wire::kNetworkLow;
      h.dest = static_cast<std::uint32_t>(labels.label(dest));
    } else {
      h.mode = wire::Mode::kDimensionOrder;
      const model::Coord c = topology.coord(dest);
      h.dest = wire::pack_coord_dest({static_cast<std::uint8_t>(c[0]), static_cast<std::uint8_t>(c[1]), 0});
      if (topology.is_torus() && port < kNetPorts) h.vc_class = static_cast<std::uint8_t>(rng_() % 2);
    }
    h.src = static_cast<std::uint32_t>(rng_() % 16);
    h.tag = static_cast<std::uint8_t>(rng_() % 16);
    std::deque<Flit> flits;
    const int length = 1 + static_cast<int>(rng_() % 6);
    for (int i = 0; i < length; ++i) flits.push_back({i == 0, i == length - 1, i == 0 ? wire::pack_head(h) : rng_()});
    return flits;
  }

  static Flit SourceRoutedHead() {
    wire::HeadFields h;
    h.mode = wire::Mode::kSourceRouted;
    return {true, true, wire::pack_head(h)};
  }

  struct VcSender {
    int credits = static_cast<int>(kDepth);
    std::deque<Flit> pending;
  };

  std::mt19937_64 rng_;
  VerilatedContext context_;
  Router router_{&context_, "router"};
  std::array<std::array<VcSender, kVcs>, kPorts> inputs_{};
  std::array<std::array<std::deque<long>, kVcs>, kPorts> credit_due_{};
  long cycles_ = 0;
  long flits_in_ = 0;
  long flits_out_ = 0;
  long heads_out_ = 0;
  long vc1_out_ = 0;
  long full_vc_cycles_ = 0;
  long no_route_cycles_ = 0;
};

TEST(RouterNetlist, YosysGateNetlistMatchesVerilatorRtlEveryCycle) {
  const std::string work = WORMCAST_NETLIST_WORK_DIR;
  std::filesystem::create_directories(work);
  const std::string vector_file = work + "/router_vectors.txt";
  NetlistBench bench(20261122);
  {
    std::ofstream out(vector_file);
    bench.RunPhase("mesh:4x4", 5, 3000, out);
    bench.RunPhase("torus:4x4", 0, 3000, out);
  }
  // Legal traffic, and enough of it that the comparison means something.
  ASSERT_FALSE(bench.assertion_fired()) << "the stimulus broke an RTL assertion";
  EXPECT_GT(bench.flits_out(), 7000);
  EXPECT_GT(bench.heads_out(), 1500);
  EXPECT_GT(bench.vc1_out(), 1000);
  EXPECT_GT(bench.full_vc_cycles(), 1000);
  EXPECT_GT(bench.no_route_cycles(), 300);

  const std::string command = fmt::format("{} {} {} {} {} {} {} {} {} {} {} {} {} > {}/router_netlist_equiv.out 2>&1",
                                          WORMCAST_ROUTER_NETLIST_SCRIPT, WORMCAST_RTL_DIR, WORMCAST_ROUTER_NETLIST_TB,
                                          vector_file, bench.cycles(), work, WORMCAST_YOSYS, WORMCAST_IVERILOG,
                                          WORMCAST_VVP, kNetPorts, kLocal, kVcs, kDepth, work);
  const int status = std::system(command.c_str());
  std::ifstream log(work + "/router_netlist_equiv.out");
  const std::string output((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
  EXPECT_EQ(status, 0) << command << "\n" << output;
  std::cout << fmt::format(
      "{} cycles, {} flits in, {} flits out ({} heads, {} on VC 1), {} input-VC cycles without credit, {} cycles "
      "with no_route_o, replayed on the yosys netlist: {}",
      bench.cycles(), bench.flits_in(), bench.flits_out(), bench.heads_out(), bench.vc1_out(), bench.full_vc_cycles(),
      bench.no_route_cycles(), output);
}

}  // namespace
}  // namespace wormcast::verif
