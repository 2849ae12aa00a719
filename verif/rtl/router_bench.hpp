// SPDX-License-Identifier: Apache-2.0
// Random legal traffic on one verilated noc_router, cycle by cycle (docs/verification.md, "Router
// netlist versus RTL"; docs/rtl.md, "Flit width"): shared by router_netlist_test.cpp (the cycles go to a vector file
// that the yosys netlist replays in iverilog) and router_width_test.cpp (the 32-bit router against
// the 64-bit one in lockstep).
//
// Traffic: one router configured as a node of a 4x4 mesh or torus, with random worms on every input
// port (network and local) and VC (NewWorm: unicast, intermediate reception, source routes, CPR
// lines with PCP-spine replication), sent only into VCs with a credit (counted from in_credit_o);
// every flit that leaves is credited back after a random delay, sometimes a long one, so buffers
// fill and drain. Every 100 cycles a worm of 1..3 flits with a reserved-mode head (no decision)
// follows the worm in progress on input port 0, VC 1: the router drains it (draining_o, one more
// in route_drops_o) and the VC carries on with the next worm. A local ejection port has one
// credit pool (noc_eject_unit): its credits come back on VC 0's bit. The random draws depend on the
// router's outputs only through their timing, so two benches with one seed on routers that behave
// alike drive identical traffic.
#pragma once

#include <fmt/format.h>
#include <verilated.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <optional>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "firmware/noc_wire_format.hpp"
#include "model/labeling.hpp"
#include "model/topology.hpp"
#include "verif/rtl/verilated_dut.hpp"

namespace wormcast::verif::router_bench {

using model::NodeId;
using model::Topology;

inline constexpr unsigned kNetPorts = 4;
inline constexpr unsigned kLocal = 1;
inline constexpr unsigned kPorts = kNetPorts + kLocal;
inline constexpr unsigned kVcs = 4;  // the shipped four-port router (docs/rtl.md "VC-class plan")
inline constexpr unsigned kDepth = 4;
inline constexpr unsigned kVcIdW = 2;
inline constexpr unsigned kLabelW = 16;
inline constexpr unsigned kAllModes = 0x1F;  // bit m = wire::Mode m, the five routing modes
inline constexpr unsigned kStreamW = 5;      // noc_router StreamW: $clog2(kPorts * kVcs)
inline constexpr unsigned kRouteDropsW = 8;  // noc_pkg::RouteDropsW
inline constexpr unsigned kErrorsW = 3;      // noc_pkg::ErrorsW
static_assert((1u << kStreamW) >= kPorts * kVcs && (1u << (kStreamW - 1)) < kPorts * kVcs);

// One link flit: {head, tail, data} (data: the layout's data_w low bits).
struct Flit {
  bool head = false;
  bool tail = false;
  std::uint64_t data = 0;
};

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

// Random legal traffic on one verilated noc_router (4 network ports, 1 local pair, 2 VCs of 4
// flits) of head layout `Layout`, in a context the caller owns (several benches may share it: never
// two contexts alive at once).
template <class Router, const wire::Layout& Layout>
class RouterBench {
 public:
  static constexpr unsigned kFlitW = Layout.flit_w();
  static constexpr unsigned kCoordW = Layout.coord_w;
  static constexpr unsigned kDimSizeW = kCoordW + 1;  // noc_router DimSizeW

  RouterBench(VerilatedContext& context, const char* name, std::uint64_t seed)
      : rng_(seed), context_(context), router_(&context, name) {
    router_.clk_i = 0;
  }

  // Resets the router with the configuration of `node` of `spec`, then runs `cycles` cycles of
  // traffic; every cycle goes to `out` as one line.
  void RunPhase(const std::string& spec, NodeId node, int cycles, std::ostream& out) {
    StartPhase(spec, node, cycles, out);
    while (Step(out)) {
    }
  }

  // RunPhase one cycle at a time: StartPhase resets and configures, each Step runs one cycle of
  // traffic and returns false once the phase's cycles are done.
  void StartPhase(const std::string& spec, NodeId node, int cycles, std::ostream& out) {
    topology_ = Topology::parse(spec);
    labels_ = model::HamiltonianLabeling::path(*topology_);
    node_ = node;
    phase_cycles_ = cycles;
    phase_cycle_ = 0;
    Configure(*topology_, *labels_, node);
    ResetState();
    for (int i = 0; i < 3; ++i) Cycle(out);  // reset held over rising edges
    router_.rst_ni = 1;
  }
  bool Step(std::ostream& out) {
    if (phase_cycle_ >= phase_cycles_) return false;
    Drive(*topology_, *labels_, node_, phase_cycle_ % 100 == 50);
    Cycle(out);
    ReadOutputs();
    ++phase_cycle_;
    return true;
  }

  const Router& router() const { return router_; }

  // The routing modes of the worms NewWorm makes from now on (bit m = wire::Mode m; default all).
  // Each needs a mode the topology uses: on a torus only Hamiltonian path, dimension order and
  // source routes.
  void set_traffic_modes(unsigned modes) { traffic_modes_ = modes; }
  // From now on NewWorm also makes two rare paths (router_cover_test.cpp): source routes that
  // regroup onto an address flit here (a third of those whose entry 0 is a port), and dimension-
  // order worms delivered here whose next address flit has no decision (a quarter; x beyond the
  // network), drained after the local copy started. Off by default, so the other benches' traffic,
  // random draws and drop counts stay as they are.
  void set_rare_paths(bool on) { rare_paths_ = on; }
  // From now on no new worms (the reserved-mode ones included): the senders only finish theirs.
  void stop_new_worms() { new_worms_ = false; }
  // Flits the senders still hold (a sender holds flits it has no credit for).
  long pending_flits() const {
    long n = 0;
    for (const auto& port : inputs_) {
      for (const VcSender& s : port) n += static_cast<long>(s.pending.size());
    }
    return n;
  }
  // Heads sent into the router with routing mode m (wire::Mode, 5..7 reserved).
  long heads_in(unsigned mode) const { return heads_in_[mode]; }

  long cycles() const { return cycles_; }
  long flits_in() const { return flits_in_; }
  long flits_out() const { return flits_out_; }
  long heads_out() const { return heads_out_; }
  long vc1_out() const { return vc1_out_; }
  long ejected() const { return ejected_; }
  long full_vc_cycles() const { return full_vc_cycles_; }
  // Cycles with an input VC draining, and worms the router counted as drained (route_drops_o,
  // summed over the phases).
  long draining_cycles() const { return draining_cycles_; }
  long route_drops() const { return route_drops_; }
  long dropped_worms_sent() const { return dropped_worms_sent_; }
  bool assertion_fired() const { return context_.gotError(); }
  long cycles_run() const { return cycles_; }

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
    router_.dim_size_i = static_cast<std::uint32_t>(topology.size(0) | (topology.size(1) << kDimSizeW));
    router_.is_torus_i = topology.is_torus();
    router_.num_dims_i = static_cast<std::uint8_t>(topology.dimensions());
  }

  void ResetState() {
    phase_drops_ = 0;
    new_worms_ = true;
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
  void Drive(const Topology& topology, const model::HamiltonianLabeling& labels, NodeId node, bool drop_one_worm) {
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
        if (new_worms_ && s.pending.empty() && u(rng_) < 0.3) s.pending = NewWorm(topology, labels, node, p);
      }
      // After the worm in progress on the VC, so wormhole order holds.
      if (new_worms_ && drop_one_worm && p == 0) {
        for (const Flit& f : ReservedModeWorm(1 + static_cast<int>(rng_() % 3))) inputs_[p][1].pending.push_back(f);
        ++dropped_worms_sent_;
      }
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
        SetField(router_.in_flit_i, p * kFlitW, Layout.data_w, f.data);
        SetBit(router_.in_flit_i, p * kFlitW + Layout.flit_tail_bit(), f.tail);
        SetBit(router_.in_flit_i, p * kFlitW + Layout.flit_head_bit(), f.head);
        ++flits_in_;
        if (f.head) ++heads_in_[static_cast<unsigned>(wire::unpack_head(f.data, Layout).mode)];
        break;
      }
    }
  }

  // Settles the inputs, writes the cycle's line (inputs, then the outputs as they are now: after
  // the previous rising edge, with this cycle's inputs applied) unless `out` is a null stream, and
  // clocks the router.
  void Cycle(std::ostream& out) {
    router_.eval();
    const Router& r = router_;
    if (out) WriteLine(r, out);
    router_.clk_i = 1;
    router_.eval();
    context_.timeInc(1);
    router_.clk_i = 0;
    router_.eval();
    context_.timeInc(1);
    ++cycles_;
  }

  // One cycle's line of the vector file: the inputs, then the outputs.
  static void WriteLine(const Router& r, std::ostream& out) {
    out << fmt::format("{} {} {} {} {} {} {} {} {} {} {} {} {} {} ", Hex(r.rst_ni, 1), Hex(r.own_label_i, kLabelW),
                       Hex(r.nbr_label_i, kNetPorts * kLabelW), Hex(r.port_connected_i, kNetPorts),
                       Hex(r.port_is_wrap_i, kNetPorts), Hex(r.port_is_boundary_i, kNetPorts),
                       Hex(r.own_coord_i, 3 * kCoordW), Hex(r.dim_size_i, 3 * kDimSizeW), Hex(r.is_torus_i, 1),
                       Hex(r.num_dims_i, 2), Hex(r.in_valid_i, kPorts), Hex(r.in_vc_i, kPorts * kVcIdW),
                       Hex(r.in_flit_i, kPorts * kFlitW), Hex(r.out_credit_i, kPorts * kVcs));
    out << fmt::format("{} {} {} {} {} {} {} {}\n", Hex(r.in_credit_o, kPorts * kVcs), Hex(r.out_valid_o, kPorts),
                       Hex(r.out_vc_o, kPorts * kVcIdW), Hex(r.out_flit_o, kPorts * kFlitW),
                       Hex(r.eject_stream_o, kLocal * kStreamW), Hex(r.draining_o, kPorts * kVcs),
                       Hex(r.route_drops_o, kRouteDropsW), Hex(r.errors_o, kErrorsW));
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
      heads_out_ += GetBit(router_.out_flit_o, p * kFlitW + Layout.flit_head_bit()) ? 1 : 0;
      vc1_out_ += v;
      ejected_ += p >= kNetPorts ? 1 : 0;
      // Mostly a quick return; one in sixteen waits long (and holds up the VC's later credits), so
      // the router's output credits run out now and then.
      const long delay = (rng_() % 16 == 0) ? 5 + static_cast<long>(rng_() % 16) : static_cast<long>(rng_() % 3);
      std::deque<long>& due = credit_due_[p][p < kNetPorts ? v : 0];
      due.push_back(std::max(cycles_ + delay, due.empty() ? 0 : due.back() + 1));
    }
    draining_cycles_ += router_.draining_o != 0 ? 1 : 0;
    // The count is sticky until the next phase's reset; it never wraps here (far below 255).
    route_drops_ += static_cast<long>(router_.route_drops_o) - phase_drops_;
    phase_drops_ = static_cast<long>(router_.route_drops_o);
  }

  // The dest field of a Hamiltonian-path or dimension-order worm toward `dest`.
  static std::uint32_t DestField(const Topology& topology, const model::HamiltonianLabeling& labels, wire::Mode mode,
                                 NodeId dest) {
    if (mode == wire::Mode::kHamiltonianPath) return static_cast<std::uint32_t>(labels.label(dest));
    const model::Coord c = topology.coord(dest);
    return wire::pack_coord_dest({static_cast<std::uint8_t>(c[0]), static_cast<std::uint8_t>(c[1]), 0}, Layout);
  }

  // A worm arriving on input port p, every kind with a decision at this router:
  //   - Hamiltonian-path or dimension-order toward a random destination (this node included; on a
  //     torus, heads on network ports in dimension order carry either dateline class); a quarter of
  //     them are for this node with 1 or 2 address flits (intermediate reception: delivered here
  //     and forwarded toward the next destination);
  //   - source-routed, in a random class: entry 0 a connected port or "end", with or without a
  //     delivered copy;
  //   - on the mesh, CPR line toward a node in this node's row or column with a random control
  //     field (cf = 11 on a Y input replicates into +X and -X: the PCP spine).
  // Then 0..4 body flits (at least one after address flits); the last flit is the tail.
  std::deque<Flit> NewWorm(const Topology& topology, const model::HamiltonianLabeling& labels, NodeId node,
                           unsigned port) {
    const auto random_node = [&] {
      return static_cast<NodeId>(rng_() % static_cast<std::uint64_t>(topology.node_count()));
    };
    wire::HeadFields h;
    h.src = static_cast<std::uint32_t>(rng_() % 16);
    h.tag = static_cast<std::uint8_t>(rng_() % 16);
    std::vector<std::uint32_t> next_dests;  // address flits
    // The kind of worm, drawn again until its routing mode is one of traffic_modes_.
    unsigned kind = 0;
    do {
      kind = static_cast<unsigned>(rng_() % 10);
    } while (((traffic_modes_ >> static_cast<unsigned>(ModeOfKind(kind, topology))) & 1) == 0);
    if (kind < 7) {
      h.mode = kind % 2 == 0 ? wire::Mode::kHamiltonianPath : wire::Mode::kDimensionOrder;
      NodeId dest = random_node();
      if (rng_() % 4 == 0) {
        dest = node;
        for (std::uint64_t k = 0, n = 1 + rng_() % 2; k < n; ++k) {
          NodeId next = random_node();
          while (next == node) next = random_node();
          next_dests.push_back(DestField(topology, labels, h.mode, next));
        }
        if (rare_paths_ && h.mode == wire::Mode::kDimensionOrder && rng_() % 4 == 0) {
          next_dests.front() = wire::pack_coord_dest({static_cast<std::uint8_t>(topology.size(0)), 0, 0}, Layout);
        }
      }
      h.dest = DestField(topology, labels, h.mode, dest);
      if (h.mode == wire::Mode::kHamiltonianPath) {
        h.network = labels.label(dest) >= labels.label(node) ? wire::kNetworkHigh : wire::kNetworkLow;
        h.vc_class = wire::ham_path_class(h.network);
      } else if (topology.is_torus() && port < kNetPorts) {
        h.vc_class = static_cast<std::uint8_t>(rng_() % 2);
      }
    } else if (kind < 8 || topology.is_torus()) {
      h.mode = wire::Mode::kSourceRouted;
      std::vector<std::uint8_t> ports{wire::kRoutePortEnd};
      for (unsigned p = 0; p < kNetPorts; ++p) {
        if (topology.neighbour(node, static_cast<model::Port>(p)) != model::kNoNode) {
          ports.push_back(static_cast<std::uint8_t>(p));
        }
      }
      h.dest = wire::with_route_entry(Layout.route_all_unused(), 0, {rng_() % 2 == 0, ports[rng_() % ports.size()]});
      h.vc_class = static_cast<std::uint8_t>(rng_() % kVcs);  // any class names a VC of its own
      if (rare_paths_ && wire::route_entry(h.dest, 0).port != wire::kRoutePortEnd && rng_() % 3 == 0) {
        next_dests.push_back(
            wire::with_route_entry(Layout.route_all_unused(), 0, {rng_() % 2 == 0, ports[rng_() % ports.size()]}));
      }
    } else {
      h.mode = wire::Mode::kCprLine;
      h.cf = static_cast<wire::Cf>(rng_() % 4);
      model::Coord c = topology.coord(node);
      const std::size_t dim = rng_() % 2;
      c[dim] = static_cast<int>(rng_() % 4);  // same row or column (or this node)
      h.dest = wire::pack_coord_dest({static_cast<std::uint8_t>(c[0]), static_cast<std::uint8_t>(c[1]), 0}, Layout);
    }
    h.more = static_cast<std::uint16_t>(next_dests.size());
    // The identification the layout has room for (the compact one: a 2-bit tag, no src).
    h.src &= static_cast<std::uint32_t>(wire::field_max(Layout.node_w));
    h.tag &= static_cast<std::uint8_t>(wire::field_max(Layout.tag_w));
    std::deque<Flit> flits{{true, false, wire::pack_head(h, Layout)}};
    for (std::size_t k = 0; k < next_dests.size(); ++k) {
      flits.push_back({false, false, wire::pack_addr_flit(h, next_dests[k], static_cast<unsigned>(k + 1), Layout)});
    }
    const int body = static_cast<int>(rng_() % 5) + (next_dests.empty() ? 0 : 1);
    for (int i = 0; i < body; ++i) flits.push_back({false, false, rng_() & wire::field_max(Layout.data_w)});
    flits.back().tail = true;
    return flits;
  }

  static wire::Mode ModeOfKind(unsigned kind, const Topology& topology) {
    if (kind < 7) return kind % 2 == 0 ? wire::Mode::kHamiltonianPath : wire::Mode::kDimensionOrder;
    if (kind < 8 || topology.is_torus()) return wire::Mode::kSourceRouted;
    return wire::Mode::kCprLine;
  }

  // A worm of `flits` flits whose head has a reserved mode: route compute has no decision.
  static std::vector<Flit> ReservedModeWorm(int flits) {
    wire::HeadFields h;
    h.mode = static_cast<wire::Mode>(5);
    std::vector<Flit> worm{{true, false, wire::pack_head(h, Layout)}};
    for (int i = 1; i < flits; ++i) worm.push_back({false, false, 0x5A5Au + static_cast<std::uint64_t>(i)});
    worm.back().tail = true;
    return worm;
  }

  struct VcSender {
    int credits = static_cast<int>(kDepth);
    std::deque<Flit> pending;
  };

  std::mt19937_64 rng_;
  VerilatedContext& context_;
  Router router_;
  std::optional<Topology> topology_;
  std::optional<model::HamiltonianLabeling> labels_;
  NodeId node_ = 0;
  int phase_cycles_ = 0;
  unsigned traffic_modes_ = kAllModes;
  int phase_cycle_ = 0;
  std::array<std::array<VcSender, kVcs>, kPorts> inputs_{};
  std::array<std::array<std::deque<long>, kVcs>, kPorts> credit_due_{};
  long cycles_ = 0;
  long flits_in_ = 0;
  long flits_out_ = 0;
  long heads_out_ = 0;
  long vc1_out_ = 0;
  long ejected_ = 0;
  long full_vc_cycles_ = 0;
  bool new_worms_ = true;
  std::array<long, 8> heads_in_{};
  long draining_cycles_ = 0;
  long route_drops_ = 0;
  bool rare_paths_ = false;
  long phase_drops_ = 0;
  long dropped_worms_sent_ = 0;
};

// The name of the first output that differs between two routers of the same shape and flit width
// (a bench's router against another in lockstep), or "".
template <class A, class B>
std::string FirstOutputDifference(const A& a, const B& b, unsigned flit_w) {
  const unsigned flit_bits = kPorts * flit_w;
  if (a.in_credit_o != b.in_credit_o) return "in_credit_o";
  if (a.out_valid_o != b.out_valid_o) return "out_valid_o";
  if (a.out_vc_o != b.out_vc_o) return "out_vc_o";
  if (a.eject_stream_o != b.eject_stream_o) return "eject_stream_o";
  if (a.draining_o != b.draining_o) return "draining_o";
  if (a.route_drops_o != b.route_drops_o) return "route_drops_o";
  if (a.errors_o != b.errors_o) return "errors_o";
  for (unsigned lsb = 0; lsb < flit_bits; lsb += 64) {
    const unsigned width = std::min(64u, flit_bits - lsb);
    if (GetField(a.out_flit_o, lsb, width) != GetField(b.out_flit_o, lsb, width)) return "out_flit_o";
  }
  return "";
}

}  // namespace wormcast::verif::router_bench
