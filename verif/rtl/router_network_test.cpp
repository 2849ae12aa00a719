// SPDX-License-Identifier: Apache-2.0
// System test of the router top rtl/noc_router.sv (docs/rtl.md, "Router top"): one verilated
// router (4 network ports, 1 local pair, 2 VCs of 4 flits) instantiated once per node of a 4x4 mesh
// or torus and wired cycle by cycle in C++ (verif/rtl/router_mesh.hpp: each router's registered
// output links and credits are copied to its neighbours' inputs, valid because the router has no
// combinational input-to-output path), each router configured from the model.
// Two workloads, one checker:
//   - random unicast worms (Hamiltonian-path or dimension-order mode, one per run, 1..6 flits);
//   - the worms of model plans (every algorithm the topology supports, path-based multidestination
//     worms with intermediate reception, CPR lines with the PCP spine, source routes, unicasts),
//     injected all at once, from several plans concurrently: every worm's header is built from the
//     plan with firmware/noc_wire_format.hpp, not by the router's own code.
// Checks: every worm is delivered exactly at the nodes the plan says (keeps_copy and relays; a PCP
// line together with the branches its spine spawns), each ejected copy well formed (its head, then
// `more` address flits, then the payload intact and in order), the links the heads crossed (every
// router's output links are monitored) with the VC class carried on each equal to the plan's hops
// (model trace_route), VC = class mod NumVcs on every link, no assertion fired; a watchdog fails the test
// when no flit moves for 1000 cycles, naming the input VCs that still hold flits.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <verilated.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <vector>

#include "firmware/noc_wire_format.hpp"
#include "model/cpr_broadcast.hpp"
#include "model/errors.hpp"
#include "model/labeling.hpp"
#include "model/planner.hpp"
#include "model/routing.hpp"
#include "model/topology.hpp"
#include "verif/rtl/router_mesh.hpp"

namespace wormcast::verif {
namespace {

using model::NodeId;
using model::RouteHop;
using model::Topology;
constexpr unsigned kNetPorts = RouterMesh::kNetPorts;
constexpr unsigned kPorts = RouterMesh::kPorts;
constexpr unsigned kLocal = RouterMesh::kLocal;
constexpr unsigned kVcs = RouterMesh::kVcs;
constexpr unsigned kVcIdW = RouterMesh::kVcIdW;
constexpr unsigned kDepth = RouterMesh::kDepth;

// A link crossing of a worm's head: router, output port, VC class carried.
using Hop = std::tuple<NodeId, int, int>;

// One worm as the injector sends it, and what the plan (or trace_route) expects of it.
struct Worm {
  std::string name;
  NodeId sender = 0;
  std::vector<wire::HeadFields> heads;  // the head and its address flits (the heads of the rest)
  std::vector<std::uint64_t> payload;   // body flits; the last flit of the worm is the tail
  std::multiset<NodeId> expected_deliveries;
  std::multiset<Hop> expected_hops;
  // Filled while the network runs.
  long inject_cycle = -1;                   // the cycle the head entered the sender's router
  std::map<NodeId, long> head_eject_cycle;  // the cycle a head left on each ejection port
  std::multiset<NodeId> deliveries;
  std::multiset<Hop> hops;
  bool done() const { return deliveries.size() == expected_deliveries.size(); }

  // The flits, with the tag the injector chose.
  std::deque<Flit> Flits(int tag) const {
    std::deque<Flit> flits;
    const std::size_t n = heads.size() + payload.size();
    for (std::size_t i = 0; i < heads.size(); ++i) {
      wire::HeadFields h = heads[i];
      h.tag = static_cast<std::uint8_t>(tag);
      flits.push_back({i == 0, i + 1 == n, wire::pack_head(h)});
    }
    for (std::size_t i = 0; i < payload.size(); ++i) {
      flits.push_back({false, heads.size() + i + 1 == n, payload[i]});
    }
    return flits;
  }
};

class NetworkBench {
 public:
  explicit NetworkBench(const std::string& spec, std::uint64_t seed)
      : topology_(Topology::parse(spec)),
        labels_(model::HamiltonianLabeling::path(topology_)),
        ham_path_(model::make_routing_function("hamiltonian-path", topology_)),
        dim_order_(model::make_routing_function("dimension-order", topology_)),
        rng_(seed),
        context_(std::make_unique<VerilatedContext>()) {
    if (topology_.is_torus()) cycle_.emplace(model::HamiltonianLabeling::cycle(topology_));
    context_->fatalOnError(false);
    mesh_ = std::make_unique<RouterMesh>(topology_, context_.get());
    const int n = topology_.node_count();
    injectors_.resize(static_cast<std::size_t>(n));
    sinks_.resize(static_cast<std::size_t>(n));
    occupancy_.assign(static_cast<std::size_t>(n) * kPorts * kVcs, 0);
  }

  const Topology& topology() const { return topology_; }

  // Queues every worm of `plan` at its sender. A PCP line and the branches its spine spawns are one
  // worm on the wire: the branches' links and deliveries are expected under the line's key.
  void AddPlan(const model::Plan& plan) {
    const std::vector<model::Worm>& worms = plan.worms;
    std::vector<std::size_t> index(worms.size());
    for (std::size_t i = 0; i < worms.size(); ++i) {
      if (worms[i].spawned_from) {
        Worm& parent = planned_[index[*worms[i].spawned_from]];
        AddExpectations(worms[i], parent);
        continue;
      }
      index[i] = planned_.size();
      planned_.push_back(FromPlan(worms[i], plan.request.algorithm));
    }
  }

  // Queues one worm the model describes (a plan's worm built by hand).
  void AddWorm(const model::Worm& worm, const std::string& name) { planned_.push_back(FromPlan(worm, name)); }

  // Moves the queued plan worms to their senders' injectors.
  void StartPlans() {
    for (Worm& w : planned_) injectors_[static_cast<std::size_t>(w.sender)].queue.push_back(std::move(w));
    planned_.clear();
  }

  // Runs until `random_worms` random unicasts (mode `mode`) and every queued worm have been
  // injected and delivered; a stall or a check fails the test.
  void Run(int random_worms, double load, int mode) {
    mode_ = mode;
    random_target_ = random_worms;
    const int n = topology_.node_count();
    long last_move = 0;
    for (long cycle = 0;; ++cycle) {
      now_ = cycle;
      if (AllDone()) break;
      bool moved = false;
      for (NodeId r = 0; r < n; ++r) {
        RouterMesh::Router& m = mesh_->router(r);
        for (unsigned p = 0; p < kPorts; ++p) {
          if (!GetBit(m.out_valid_o, p)) continue;
          moved = true;
          const Flit f = GetFlit(m.out_flit_o, p * kFlitW);
          if (p < kNetPorts) {
            const auto vc = static_cast<unsigned>(GetField(m.out_vc_o, p * kVcIdW, kVcIdW));
            Monitor(r, p, vc, f);
            const NodeId nbr = topology_.neighbour(r, static_cast<model::Port>(p));
            ++occupancy_[Index(nbr, p ^ 1, vc)];
          } else {
            Eject(r, static_cast<unsigned>(m.eject_stream_o), f);
          }
          if (HasFailure()) return;
        }
        for (unsigned b = 0; b < kPorts * kVcs; ++b) {
          if (GetBit(m.in_credit_o, b)) --occupancy_[Index(r, b / kVcs, b % kVcs)];
        }
      }
      // The local inputs; RouterMesh::Step wires the network ports and clocks every router.
      for (NodeId r = 0; r < n; ++r) {
        RouterMesh::Router& m = mesh_->router(r);
        const bool ejected = GetBit(m.out_valid_o, kLocal);
        const auto local_credits = static_cast<std::uint32_t>(GetField(m.in_credit_o, kLocal * kVcs, kVcs));
        SetBit(m.in_valid_i, kLocal, false);
        SetField(m.in_vc_i, kLocal * kVcIdW, kVcIdW, 0);
        // Local ejection always drains: a credit for every flit ejected (one pool, VC 0's bit).
        SetField(m.out_credit_i, kLocal * kVcs, kVcs, ejected ? 1 : 0);
        moved |= Inject(r, local_credits, load);
      }
      mesh_->Step();
      if (HasFailure()) return;
      if (context_->gotError()) {
        ADD_FAILURE() << "an assertion fired in cycle " << cycle;
        return;
      }
      if (moved) last_move = cycle;
      if (cycle - last_move > 1000) {
        ADD_FAILURE() << "no flit moved for 1000 cycles (cycle " << cycle << ", " << completed_ << " of " << started_
                      << " worms complete); input VCs holding flits: " << Holding();
        return;
      }
    }
    // Every worm crossed exactly the links the model says, in the classes it says.
    for (const Worm& w : finished_) {
      EXPECT_EQ(w.hops, w.expected_hops) << w.name << ": links differ from the model";
    }
  }

  int completed() const { return completed_; }
  const std::vector<Worm>& finished() const { return finished_; }
  // Queues a unicast at its sender (mode 0 Hamiltonian path, 2 dimension order).
  void AddUnicast(NodeId src, NodeId dest, int mode, int payload_flits) {
    mode_ = mode;
    planned_.push_back(Unicast(src, dest, payload_flits));
  }
  long hops() const { return hops_; }
  long vc1_hops() const { return vc1_hops_; }
  long address_flits_ejected() const { return address_flits_ejected_; }
  long intermediate_deliveries() const { return intermediate_deliveries_; }
  long prefixed_worms() const { return prefixed_; }
  int modes_seen(int mode) const { return mode_count_[static_cast<std::size_t>(mode)]; }
  bool assertion_fired() const { return context_->gotError(); }

 private:
  static bool HasFailure() { return testing::Test::HasFailure(); }
  std::size_t Index(NodeId r, unsigned p, unsigned v) const {
    return (static_cast<std::size_t>(r) * kPorts + p) * kVcs + v;
  }

  bool AllDone() const {
    if (random_made_ < random_target_ || completed_ < started_) return false;
    for (const Injector& inj : injectors_) {
      if (!inj.queue.empty()) return false;
    }
    return true;
  }

  static std::uint32_t Key(NodeId sender, int tag) {
    return (static_cast<std::uint32_t>(sender) << 4) | static_cast<std::uint32_t>(tag);
  }
  static std::uint32_t Key(std::uint64_t head_data) {
    const wire::HeadFields h = wire::unpack_head(head_data);
    return (h.src << 4) | h.tag;
  }

  Worm* Find(std::uint64_t head_data) {
    const auto it = in_flight_.find(Key(head_data));
    return it == in_flight_.end() ? nullptr : &it->second;
  }

  // The dest field of `node` in a worm of `mode`.
  std::uint32_t Dest(model::RoutingMode mode, NodeId node) const {
    switch (mode) {
      case model::RoutingMode::kHamiltonianPath:
        return static_cast<std::uint32_t>(labels_.label(node));
      case model::RoutingMode::kHamiltonianCycle:
        return static_cast<std::uint32_t>(cycle_->label(node));
      default: {
        const model::Coord c = topology_.coord(node);
        return wire::pack_coord_dest({static_cast<std::uint8_t>(c[0]), static_cast<std::uint8_t>(c[1]), 0});
      }
    }
  }

  void AddExpectations(const model::Worm& pw, Worm& w) const {
    for (const NodeId n : pw.keeps_copy) w.expected_deliveries.insert(n);
    for (const NodeId n : pw.relays) w.expected_deliveries.insert(n);
    // np-d's sub-messages: a part receiver ejects the worm as a destination does.
    for (const NodeId n : pw.part_receivers) w.expected_deliveries.insert(n);
    for (const RouteHop& h : pw.hops) w.expected_hops.insert({h.node, h.port, h.vc});
  }

  // A plan worm's flits, built from its header and route with the wire-format header.
  Worm FromPlan(const model::Worm& pw, const std::string& algorithm) {
    Worm w;
    w.name = fmt::format("{} worm {}->{} step {}", algorithm, pw.sender, pw.route.back(), pw.step);
    w.sender = pw.sender;
    AddExpectations(pw, w);
    wire::HeadFields h;
    h.vc_class = static_cast<std::uint8_t>(pw.header.vc);
    h.cf = static_cast<wire::Cf>(pw.header.control_field);
    h.src = static_cast<std::uint32_t>(pw.sender);
    std::vector<std::uint32_t> dests;
    switch (pw.header.mode) {
      case model::RoutingMode::kHamiltonianPath:
        h.mode = wire::Mode::kHamiltonianPath;
        break;
      case model::RoutingMode::kHamiltonianCycle:
        h.mode = wire::Mode::kHamiltonianCycle;
        break;
      case model::RoutingMode::kDimensionOrder:
        h.mode = wire::Mode::kDimensionOrder;
        break;
      case model::RoutingMode::kCprLine:
        h.mode = wire::Mode::kCprLine;
        break;
      case model::RoutingMode::kSourceRouted:
        h.mode = wire::Mode::kSourceRouted;
        break;
    }
    if (pw.header.subnetwork) {
      h.network = *pw.header.subnetwork == model::ChannelNetwork::kHigh ? wire::kNetworkHigh : wire::kNetworkLow;
    }
    if (pw.header.mode == model::RoutingMode::kSourceRouted) {
      // Entry i is consumed by route[i]: its port, and whether route[i] keeps a copy. Five entries
      // per dest field; the unused entries after the last one end the route at route.back().
      const std::set<NodeId> keeps(pw.keeps_copy.begin(), pw.keeps_copy.end());
      for (std::size_t i = 0; i < pw.hops.size(); i += wire::kRouteEntries) {
        std::uint32_t group = wire::kRouteAllUnused;
        for (std::size_t k = 0; k < wire::kRouteEntries && i + k < pw.hops.size(); ++k) {
          const RouteHop& hop = pw.hops[i + k];
          const bool deliver = i + k > 0 && keeps.count(hop.node) > 0;
          group =
              wire::with_route_entry(group, static_cast<unsigned>(k), {deliver, static_cast<std::uint8_t>(hop.port)});
        }
        dests.push_back(group);
      }
    } else {
      for (const NodeId d : pw.header.destinations) dests.push_back(Dest(pw.header.mode, d));
    }
    h.more = static_cast<std::uint16_t>(dests.size() - 1);
    h.dest = dests.front();
    // A first hop the routing function would not take (multi-path's row worms are injected
    // straight into the row channel): a source-routed prefix head with that one hop, whose
    // regroup promotes the real head at the sender's router (docs/header-format.md).
    if (pw.header.mode == model::RoutingMode::kHamiltonianPath && !pw.hops.empty()) {
      const auto step = ham_path_->try_route(pw.sender, 0, pw.header.destinations.front());
      if (!step || step->port != pw.hops.front().port) {
        wire::HeadFields prefix = h;
        prefix.mode = wire::Mode::kSourceRouted;
        prefix.network = 0;
        prefix.more = static_cast<std::uint16_t>(h.more + 1);
        prefix.dest =
            wire::with_route_entry(wire::kRouteAllUnused, 0, {false, static_cast<std::uint8_t>(pw.hops.front().port)});
        w.heads.push_back(prefix);
        ++prefixed_;
      }
    }
    EXPECT_TRUE(wire::fits(h)) << w.name;
    w.heads.push_back(h);
    for (std::size_t k = 1; k < dests.size(); ++k) {
      wire::HeadFields a = h;
      a.dest = dests[k];
      a.more = static_cast<std::uint16_t>(h.more - k);
      w.heads.push_back(a);
    }
    const int length = 1 + static_cast<int>(rng_() % 3);
    for (int i = 0; i < length; ++i) w.payload.push_back(rng_());
    return w;
  }

  Worm RandomUnicast(NodeId src) {
    const auto dest = static_cast<NodeId>(rng_() % static_cast<std::uint64_t>(topology_.node_count()));
    return Unicast(src, dest, static_cast<int>(rng_() % 6));
  }

  // A unicast in mode_ (0 Hamiltonian path, 2 dimension order) with `length` payload flits.
  Worm Unicast(NodeId src, NodeId dest, int length) {
    Worm w;
    w.sender = src;
    w.name = fmt::format("unicast {}->{} mode {}", src, dest, mode_);
    ++mode_count_[static_cast<std::size_t>(mode_)];
    wire::HeadFields h;
    const bool ham = mode_ == 0;
    h.mode = ham ? wire::Mode::kHamiltonianPath : wire::Mode::kDimensionOrder;
    if (ham) h.network = labels_.label(dest) > labels_.label(src) ? wire::kNetworkHigh : wire::kNetworkLow;
    h.dest = Dest(ham ? model::RoutingMode::kHamiltonianPath : model::RoutingMode::kDimensionOrder, dest);
    h.src = static_cast<std::uint32_t>(src);
    w.heads.push_back(h);
    for (int i = 0; i < length; ++i) w.payload.push_back(rng_());
    w.expected_deliveries.insert(dest);
    for (const RouteHop& hop : model::trace_route(ham ? *ham_path_ : *dim_order_, src, 0, dest)) {
      w.expected_hops.insert({hop.node, hop.port, hop.vc});
    }
    return w;
  }

  // A head on a network output link: one hop of its worm, in the class its VC says.
  void Monitor(NodeId r, unsigned p, unsigned vc, const Flit& f) {
    if (!f.head) return;
    Worm* w = Find(f.data);
    if (w == nullptr) {
      ADD_FAILURE() << fmt::format("router {} port {}: head of no injected worm ({:#x})", r, p, f.data);
      return;
    }
    const int cls = wire::unpack_head(f.data).vc_class;
    EXPECT_EQ(static_cast<int>(vc), cls % static_cast<int>(kVcs))
        << w->name << ": router " << r << " port " << p << " class " << cls;
    w->hops.insert({r, static_cast<int>(p), cls});
    ++hops_;
    vc1_hops_ += vc != 0;
  }

  // A flit on a local ejection link: reassemble its stream; at the tail, check the copy: its head,
  // exactly `more` address flits (heads of the rest of the worm, head bit 0), the payload intact.
  void Eject(NodeId r, unsigned stream, const Flit& f) {
    std::vector<Flit>& got = sinks_[static_cast<std::size_t>(r)][stream];
    if (f.head != got.empty()) {
      ADD_FAILURE() << fmt::format("router {} ejection stream {}: {} flit {} a worm", r, stream,
                                   f.head ? "head" : "body", f.head ? "inside" : "outside");
      return;
    }
    got.push_back(f);
    if (f.head) {
      if (Worm* w = Find(f.data)) w->head_eject_cycle[r] = now_;
    }
    if (!f.tail) return;
    Worm* w = Find(got.front().data);
    if (w == nullptr) {
      ADD_FAILURE() << fmt::format("router {}: ejected worm was never injected ({:#x})", r, got.front().data);
      return;
    }
    const wire::HeadFields h = wire::unpack_head(got.front().data);
    EXPECT_EQ(h.mode, w->heads.back().mode) << w->name << " at " << r;  // (past a prefix)
    const std::size_t more = h.more;
    ASSERT_EQ(got.size(), 1 + more + w->payload.size()) << w->name << " ejected at " << r << ": more " << more;
    for (std::size_t k = 1; k <= more; ++k) {
      EXPECT_FALSE(got[k].head) << w->name << " at " << r;
      EXPECT_EQ(wire::unpack_head(got[k].data).more, more - k) << w->name << " at " << r << ": address flit " << k;
      ++address_flits_ejected_;
    }
    for (std::size_t i = 0; i < w->payload.size(); ++i) {
      EXPECT_EQ(got[1 + more + i].data, w->payload[i]) << w->name << " at " << r << ": payload word " << i;
    }
    EXPECT_TRUE(w->expected_deliveries.count(r) > w->deliveries.count(r))
        << w->name << " delivered at " << r << " (again, or not a destination)";
    w->deliveries.insert(r);
    intermediate_deliveries_ += more > 0;
    got.clear();
    if (w->done()) Complete(Key(w->sender, static_cast<int>(h.tag)));
  }

  void Complete(std::uint32_t key) {
    auto it = in_flight_.find(key);
    EXPECT_EQ(it->second.deliveries, it->second.expected_deliveries) << it->second.name;
    in_flight_tags_[it->second.sender].erase(static_cast<int>(key & 0xF));
    finished_.push_back(std::move(it->second));
    in_flight_.erase(it);
    ++completed_;
  }

  // The injector of node r: per VC at most one worm in progress; one flit per cycle on a VC with a
  // credit; a worm starts when one of its sender's 16 tags is free. Returns whether a flit was sent.
  bool Inject(NodeId r, std::uint32_t credit_bits, double load) {
    Injector& inj = injectors_[static_cast<std::size_t>(r)];
    for (unsigned v = 0; v < kVcs; ++v) inj.credits[v] += (credit_bits >> v) & 1;
    std::uniform_real_distribution<double> u(0, 1);
    std::set<int>& tags = in_flight_tags_[r];
    for (unsigned v = 0; v < kVcs; ++v) {
      if (!inj.pending[v].empty() || tags.size() >= 16) continue;
      if (inj.queue.empty() && random_made_ < random_target_ && u(rng_) < load) {
        inj.queue.push_back(RandomUnicast(r));
        ++random_made_;
      }
      if (inj.queue.empty()) continue;
      int tag = 0;
      while (tags.count(tag)) ++tag;
      tags.insert(tag);
      Worm w = std::move(inj.queue.front());
      inj.queue.pop_front();
      inj.pending[v] = w.Flits(tag);
      in_flight_.emplace(Key(r, tag), std::move(w));
      ++started_;
    }
    std::vector<unsigned> ready;
    for (unsigned v = 0; v < kVcs; ++v) {
      if (!inj.pending[v].empty() && inj.credits[v] > 0) ready.push_back(v);
    }
    if (ready.empty()) return false;
    const unsigned v = ready[rng_() % ready.size()];
    if (inj.pending[v].front().head)
      in_flight_.at(Key(r, wire::unpack_head(inj.pending[v].front().data).tag)).inject_cycle = now_;
    RouterMesh::Router& m = mesh_->router(r);
    SetBit(m.in_valid_i, kLocal, true);
    SetField(m.in_vc_i, kLocal * kVcIdW, kVcIdW, v);
    SetFlit(m.in_flit_i, kLocal * kFlitW, inj.pending[v].front());
    inj.pending[v].pop_front();
    --inj.credits[v];
    ++occupancy_[Index(r, kLocal, v)];
    return true;
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
      const auto draining = static_cast<unsigned>(mesh_->router(r).draining_o);
      if (draining != 0) s += fmt::format(" router {} draining {:#x};", r, draining);
      if (mesh_->router(r).route_drops_o != 0)
        s += fmt::format(" router {} dropped {} worm(s);", r, mesh_->router(r).route_drops_o);
    }
    return s.empty() ? " none" : s;
  }

  struct Injector {
    std::array<int, kVcs> credits = RouterMesh::FullCredits();
    std::array<std::deque<Flit>, kVcs> pending;
    std::deque<Worm> queue;  // worms waiting for a VC and a tag
  };

  Topology topology_;
  model::HamiltonianLabeling labels_;
  std::optional<model::HamiltonianLabeling> cycle_;  // tori: boundary links, cycle labels
  std::unique_ptr<model::RoutingFunction> ham_path_;
  std::unique_ptr<model::RoutingFunction> dim_order_;
  std::mt19937_64 rng_;
  std::unique_ptr<VerilatedContext> context_;
  std::unique_ptr<RouterMesh> mesh_;
  std::vector<Injector> injectors_;
  std::vector<std::map<unsigned, std::vector<Flit>>> sinks_;  // per node, per ejection stream
  std::vector<int> occupancy_;                                // flits in each input VC buffer, from links and credits
  std::vector<Worm> planned_;
  std::map<std::uint32_t, Worm> in_flight_;  // by (sender, tag)
  std::vector<Worm> finished_;
  std::map<NodeId, std::set<int>> in_flight_tags_;
  int random_target_ = 0;
  int random_made_ = 0;
  int started_ = 0;
  int completed_ = 0;
  long hops_ = 0;
  long vc1_hops_ = 0;
  long address_flits_ejected_ = 0;
  long intermediate_deliveries_ = 0;
  long prefixed_ = 0;
  std::array<int, 4> mode_count_{};
  int mode_ = 0;
  long now_ = 0;  // the cycle Run is in
};

std::string TopologyName(const testing::TestParamInfo<const char*>& info) {
  std::string name = info.param;
  return name.substr(0, name.find(':')) + "4x4";
}

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
      EXPECT_EQ(bench.completed(), kWorms);
      EXPECT_FALSE(bench.assertion_fired());
      EXPECT_EQ(bench.modes_seen(mode), kWorms);
      EXPECT_GT(bench.hops(), kWorms);
      if (mode == 2 && std::string(GetParam()).starts_with("torus")) {
        EXPECT_GT(bench.vc1_hops(), 200);  // the dateline class travels on VC 1
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Topologies, RouterNetwork, testing::Values("mesh:4x4", "torus:4x4"), TopologyName);

// Zero-load latency per hop (docs/rtl.md, "Latency"): one single-flit dimension-order worm at a time
// on an idle mesh, from (0,0) to (d,0) and to (0,d). The head's cycles from entering the sender's
// router to leaving the destination's ejection port grow by the same number per hop, the router
// pipeline plus the link: 2 (written and routed on arrival; VC and switch allocation and the
// crossbar in the next cycle). One hop passes two routers: 4 cycles from injection to ejection.
TEST(RouterLatency, ZeroLoadIsTwoCyclesPerHopAndFourForOneHop) {
  NetworkBench bench("mesh:4x4", 3);
  std::vector<long> latency;
  for (const NodeId dest : {NodeId{1}, NodeId{2}, NodeId{3}, NodeId{7}, NodeId{11}, NodeId{15}}) {
    bench.AddUnicast(0, dest, 2, 0);
    bench.StartPlans();
    bench.Run(0, 0, 2);
    ASSERT_FALSE(HasFailure());
    const Worm& w = bench.finished().back();
    latency.push_back(w.head_eject_cycle.at(dest) - w.inject_cycle);
  }
  // Hops: 1, 2, 3 along X; then 4, 5, 6 (X then Y).
  const long per_hop = latency[1] - latency[0];
  for (std::size_t i = 1; i < latency.size(); ++i) {
    EXPECT_EQ(latency[i] - latency[i - 1], per_hop) << "hop " << i + 1;
  }
  std::printf("zero-load head latency: %ld cycles per hop, %ld cycles for 1 hop (injection to ejection)\n", per_hop,
              latency[0]);
  EXPECT_EQ(per_hop, 2);
  EXPECT_EQ(latency[0], 4);
}

// The algorithms of the model's registry that plan on `topology` with a multicast to `dests` from
// `source`, each with the first port model it accepts.
std::vector<model::Plan> PlansFor(const Topology& topology, NodeId source, const std::vector<NodeId>& dests,
                                  bool broadcast) {
  std::vector<model::Plan> plans;
  for (const model::AlgorithmInfo& info : model::algorithms()) {
    if (info.broadcast != broadcast) continue;
    for (const model::PortModel ports :
         {model::PortModel::one_port(), model::PortModel::two_port(), model::PortModel::all_port()}) {
      try {
        plans.push_back(model::plan(model::make_request(topology, info.name, source, dests, 1, ports)));
        break;
      } catch (const model::UnsupportedError&) {
      } catch (const model::RequestError&) {
      }
    }
  }
  return plans;
}

// Every CPR control-field code on a line of the idle mesh: from (0,1) along +X to the addressed
// router (3,1), and along +Y from (1,0) to (1,3), where a cf = 11 worm also spawns the +-X branches
// of every row it reaches (the PCP spine rule). The model's cpr_deliveries says who keeps a copy
// ([3], Fig. 1, reading A); the plan-worm checks compare deliveries and links.
TEST(RouterCpr, EveryControlFieldCodeActsAsSpec) {
  const Topology t = Topology::parse("mesh:4x4");
  const model::CprLineRouting routing(t);
  NetworkBench bench("mesh:4x4", 5);
  for (const bool spine : {false, true}) {
    for (std::uint8_t cf = 0; cf < 4; ++cf) {
      if (spine && cf != 3) continue;  // only cf = 11 replicates
      model::Worm w;
      w.sender = spine ? t.node_at({1, 0}) : t.node_at({0, 1});
      const NodeId end = spine ? t.node_at({1, 3}) : t.node_at({3, 1});
      w.kind = model::WormKind::kCprLine;
      w.header.mode = model::RoutingMode::kCprLine;
      w.header.control_field = cf;
      w.header.destinations = {end};
      w.hops = model::trace_route(routing, w.sender, 0, end);
      w.route = model::route_nodes(routing, w.hops, w.sender);
      w.keeps_copy = model::cpr_deliveries(w.route, cf);
      if (cf == 1) w.hops.resize(1);  // 01: the first router delivers and the worm ends there
      if (spine) {
        // The rows y = 1..3 each get a -X branch to (0,y) in class 2 and a +X branch to (3,y) in
        // class 3 (docs/rtl.md, "VC-class plan": the branches).
        for (int y = 1; y < 4; ++y) {
          for (const int x_end : {0, 3}) {
            const NodeId from = t.node_at({1, y});
            const NodeId to = t.node_at({x_end, y});
            const model::VcClass branch_class = model::CprLineRouting::spawned_branch_class(x_end == 0 ? 1 : 0);
            for (const RouteHop& h : model::trace_route(routing, from, branch_class, to)) w.hops.push_back(h);
            for (int x = x_end == 0 ? 0 : 2; x_end == 0 ? x < 1 : x <= 3; ++x)
              w.keeps_copy.push_back(t.node_at({x, y}));
          }
        }
      }
      bench.AddWorm(w, fmt::format("cpr cf {}{}{}", cf >> 1, cf & 1, spine ? " spine" : ""));
      bench.StartPlans();
      bench.Run(0, 0, 0);
      ASSERT_FALSE(HasFailure()) << "cf " << int{cf} << (spine ? " spine" : "");
    }
  }
  EXPECT_EQ(bench.completed(), 5);
  EXPECT_FALSE(bench.assertion_fired());
}

class RouterNetworkPlans : public testing::TestWithParam<const char*> {};

// Every algorithm's worms on the RTL, one plan at a time on an idle network: random multicasts
// (K = 1..12) and a broadcast from random sources. The router must deliver each worm at exactly the
// plan's nodes, along the plan's links and classes (intermediate reception, source routes, CPR
// control fields and the PCP spine included).
TEST_P(RouterNetworkPlans, EveryAlgorithmsWormsDeliveredAlongThePlan) {
  std::mt19937_64 rng(20261121);
  std::map<std::string, int> plans_run;
  NetworkBench bench(GetParam(), 7);
  const Topology& t = bench.topology();
  long worms = 0;
  for (int round = 0; round < 12; ++round) {
    const auto source = static_cast<NodeId>(rng() % static_cast<std::uint64_t>(t.node_count()));
    std::vector<NodeId> others;
    for (NodeId n = 0; n < t.node_count(); ++n) {
      if (n != source) others.push_back(n);
    }
    std::shuffle(others.begin(), others.end(), rng);
    const std::vector<NodeId> dests(others.begin(), others.begin() + 1 + static_cast<long>(rng() % 12));
    for (const bool broadcast : {false, true}) {
      for (const model::Plan& plan : PlansFor(t, source, broadcast ? others : dests, broadcast)) {
        bench.AddPlan(plan);
        bench.StartPlans();
        ++plans_run[plan.request.algorithm];
        worms += static_cast<long>(plan.worms.size());
        bench.Run(0, 0, 0);
        ASSERT_FALSE(HasFailure()) << plan.request.algorithm << " from " << source;
      }
    }
  }
  EXPECT_FALSE(bench.assertion_fired());
  EXPECT_GT(bench.intermediate_deliveries(), 50);
  EXPECT_GT(bench.address_flits_ejected(), 100);
  std::string run;
  for (const auto& [name, count] : plans_run) run += fmt::format(" {}x{}", name, count);
  std::printf("%s: %ld worms of %zu algorithms:%s\n", GetParam(), worms, plans_run.size(), run.c_str());
  EXPECT_GE(plans_run.size(), std::string(GetParam()).starts_with("mesh") ? 15u : 5u);
}

// Concurrent multicasts and broadcasts: the plans of one algorithm from four sources at once, for
// every algorithm (the papers' deadlock-freedom claims; for PCP, the spawned-branch VC of
// docs/rtl.md). The watchdog fails a run that stops moving.
// The plans of algorithm `info` from four random sources of `t` at once (each to 2..11 random
// destinations, or a broadcast), added to `bench`; returns how many.
int AddPlansFromFourSources(NetworkBench& bench, const Topology& t, const model::AlgorithmInfo& info,
                            std::mt19937_64& rng) {
  std::vector<NodeId> all(static_cast<std::size_t>(t.node_count()));
  std::iota(all.begin(), all.end(), 0);
  std::vector<NodeId> sources = all;
  std::shuffle(sources.begin(), sources.end(), rng);
  int added = 0;
  for (int s = 0; s < 4; ++s) {
    std::vector<NodeId> others;
    for (const NodeId n : all) {
      if (n != sources[static_cast<std::size_t>(s)]) others.push_back(n);
    }
    std::shuffle(others.begin(), others.end(), rng);
    if (!info.broadcast) others.resize(2 + rng() % 10);
    for (const model::Plan& plan : PlansFor(t, sources[static_cast<std::size_t>(s)], others, info.broadcast)) {
      if (plan.request.algorithm != info.name) continue;
      bench.AddPlan(plan);
      ++added;
    }
  }
  return added;
}

// A seed per algorithm from its name (FNV-1a), so the sources one algorithm draws do not move when
// another algorithm joins the registry.
std::uint64_t SeedFor(std::string_view name) {
  std::uint64_t h = 14695981039346656037ull;
  for (const char c : name) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  return h;
}

TEST_P(RouterNetworkPlans, ConcurrentPlansFromFourSourcesDoNotDeadlock) {
  // (Not a second NetworkBench: two live VerilatedContexts in one process hang at teardown.)
  const Topology t = Topology::parse(GetParam());
  long prefixed = 0;
  for (const model::AlgorithmInfo& info : model::algorithms()) {
    std::mt19937_64 rng(20261122 ^ SeedFor(info.name));
    for (int trial = 0; trial < 3; ++trial) {
      NetworkBench bench(GetParam(), 100 + static_cast<std::uint64_t>(trial));
      const int added = AddPlansFromFourSources(bench, t, info, rng);
      if (added == 0) break;
      bench.StartPlans();
      bench.Run(0, 0, 0);
      ASSERT_FALSE(HasFailure()) << info.name << " trial " << trial;
      EXPECT_FALSE(bench.assertion_fired());
      prefixed += bench.prefixed_worms();
    }
  }
  // Multi-path's row worms leave the source on a port the routing function would not take.
  if (t.is_mesh()) {
    EXPECT_GT(prefixed, 0);
  }
}

INSTANTIATE_TEST_SUITE_P(Topologies, RouterNetworkPlans, testing::Values("mesh:4x4", "torus:4x4"), TopologyName);

}  // namespace
}  // namespace wormcast::verif
