// SPDX-License-Identifier: Apache-2.0
// The timing model and the verilated routers in lockstep under saturating random traffic (no
// firmware): two networks of the same topology, one of each backend, get the same injections and
// ejection credits, and every router output (links, stream ids, credits, the drained-worm status,
// the sticky errors) must agree in every cycle. This reaches what the firmware scenarios rarely do: full buffers,
// contended VC and switch allocation, both VCs, several local ports, promotion, source-route
// regrouping, and worms without a route decision drained at their first router or further on.
// The same harness runs two networks of one backend, one clocked in full and one by activity
// (sim::Evaluation, docs/timing.md "Activity-driven evaluation"): the skipped network must equal
// the fully evaluated one in every output of every router in every cycle.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <verilated.h>

#include <algorithm>
#include <array>
#include <deque>
#include <memory>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "model/labeling.hpp"
#include "sim/backend.hpp"
#include "sim/link_wiring.hpp"
#include "sim/model_router.hpp"
#include "sim/router_network.hpp"
#include "sim/rtl_router.hpp"

namespace wormcast::verif {
namespace {

using model::NodeId;
using sim::Link;
using sim::RouterModel;

enum class Traffic { kDimensionOrder, kHamiltonianPath, kHamiltonianCycle, kSourceRoutedXy, kCprLine };

// One side of the lockstep: a backend and how its routers are clocked.
struct Side {
  sim::Backend backend;
  sim::Evaluation evaluation;
  std::string title() const { return sim::backend_title(backend) + " (" + sim::evaluation_name(evaluation) + ")"; }
};
inline const Side kRtlFull{sim::Backend::kRtl, sim::Evaluation::kFull};
inline const Side kModelFull{sim::Backend::kModel, sim::Evaluation::kFull};

// One network of routers of one backend, wired by the same LinkWiring as the multicast runs.
struct Network {
  Side side{};
  std::vector<std::unique_ptr<RouterModel>> routers;
  std::vector<RouterModel*> clocked;  // this cycle's (all, or those that cannot skip)
  long evaluated = 0, router_cycles = 0;
  std::vector<Link> out;                // router * ports + port, this cycle
  std::vector<std::uint32_t> credits;   // per router
  std::vector<std::uint64_t> draining;  // per router
  std::vector<unsigned> route_drops;    // per router
  std::vector<unsigned> errors;         // per router
  std::optional<sim::LinkWiring> links;
  void read() {
    const unsigned ports = routers.front()->ports();
    for (std::size_t r = 0; r < routers.size(); ++r) {
      links->capture(static_cast<NodeId>(r), *routers[r]);
      for (unsigned p = 0; p < ports; ++p) out[r * ports + p] = routers[r]->output(p);
      credits[r] = routers[r]->credits_to_senders();
      draining[r] = routers[r]->draining();
      route_drops[r] = routers[r]->route_drops();
      errors[r] = routers[r]->errors();
    }
  }
};

class Lockstep {
 public:
  // Side a's outputs drive the injections and sinks; the comparison is a against b.
  Lockstep(const model::Topology& t, unsigned locals, Traffic traffic, double load, double stall, std::uint64_t seed,
           const Side& a = kRtlFull, const Side& b = kModelFull)
      : t_(t),
        path_(model::HamiltonianLabeling::path(t)),
        traffic_(traffic),
        load_(load),
        stall_(stall),
        rng_(seed),
        context_(std::make_unique<VerilatedContext>()) {
    context_->fatalOnError(false);
    const unsigned net = static_cast<unsigned>(t.port_count());
    const std::vector<sim::RouterConfig> configs = sim::router_configs(t);
    a_.side = a;
    b_.side = b;
    for (NodeId n = 0; n < t.node_count(); ++n) {
      for (Network* w : {&a_, &b_}) {
        // Distinct names: both networks may be verilated routers in the one context.
        const std::string name = fmt::format("{}{}", w == &a_ ? "a" : "b", n);
        w->routers.push_back(w->side.backend == sim::Backend::kRtl ? sim::make_router(context_.get(), net, locals, name)
                                                                   : sim::make_model_router(net, locals, name));
      }
    }
    for (Network* w : {&a_, &b_}) {
      for (std::size_t n = 0; n < w->routers.size(); ++n) {
        w->routers[n]->configure(configs[n]);
        w->routers[n]->set_clock(false);
        w->routers[n]->set_reset(true);
      }
      w->out.resize(w->routers.size() * w->routers.front()->ports());
      w->credits.resize(w->routers.size());
      w->draining.resize(w->routers.size());
      w->route_drops.resize(w->routers.size());
      w->errors.resize(w->routers.size());
      w->links.emplace(t);
    }
    tick();
    for (Network* w : {&a_, &b_}) {
      for (auto& r : w->routers) r->set_reset(false);
    }
    locals_ = a_.routers.front()->locals();
    vcs_ = a_.routers.front()->vcs();
    if (b_.routers.front()->vcs() != vcs_) {
      throw std::logic_error(fmt::format("the {} router has {} VCs, the {} router {}", a_.side.title(), vcs_,
                                         b_.side.title(), b_.routers.front()->vcs()));
    }
    injectors_.resize(static_cast<std::size_t>(t.node_count()) * locals_);
    for (Injector& in : injectors_) std::fill_n(in.credits.begin(), vcs_, static_cast<int>(sim::kRouterDepth));
    sinks_.resize(injectors_.size());
  }

  // Runs `cycles` cycles; "" or the first difference.
  std::string run(long cycles) {
    for (long c = 0; c < cycles; ++c) {
      a_.read();
      b_.read();
      if (std::string d = difference(c); !d.empty()) return d;
      drive();
      if (faults_) break_protocol(c);
      tick();
      if (context_->gotError() && !faults_) return fmt::format("an RTL assertion fired in cycle {}", c);
    }
    return "";
  }

  // From now on run() breaks the flow-control protocol at fixed points (break_protocol) and goes
  // on past the RTL assertions that catch it.
  void break_protocol_from_now_on() { faults_ = true; }
  // One worm in `n` has no route decision somewhere (16 unless set).
  void set_unroutable_one_in(unsigned n) { unroutable_one_in_ = n; }
  unsigned rtl_errors(NodeId r) const { return a_.errors[static_cast<std::size_t>(r)]; }
  unsigned model_errors(NodeId r) const { return b_.errors[static_cast<std::size_t>(r)]; }
  // The fraction of router cycles side b evaluated.
  double b_evaluated() const {
    return static_cast<double>(b_.evaluated) / static_cast<double>(std::max(b_.router_cycles, 1L));
  }
  bool assertion_fired() const { return context_->gotError(); }
  long flits_ejected = 0, worms_injected = 0, full_sink_cycles = 0, unroutable_injected = 0;
  // Worms the RTL routers counted as drained (route_drops_o after the last cycle, summed).
  long route_drops() const {
    long n = 0;
    for (const unsigned d : a_.route_drops) n += d;
    return n;
  }

 private:
  struct Injector {
    std::deque<wire::Flit> flits;
    unsigned vc = 0;
    std::array<int, sim::kMaxRouterVcs> credits{};  // VCs 0..vcs_-1 start with kRouterDepth
  };

  // As sim::clock_routers: the inputs settle with the clock low, one time step before the edge;
  // under activity-driven evaluation only the routers that cannot skip the edge are clocked.
  void tick() {
    for (Network* w : {&a_, &b_}) {
      w->clocked.clear();
      for (auto& r : w->routers) {
        if (w->side.evaluation == sim::Evaluation::kFull || !r->can_skip()) w->clocked.push_back(r.get());
      }
      w->evaluated += static_cast<long>(w->clocked.size());
      w->router_cycles += static_cast<long>(w->routers.size());
    }
    for (Network* w : {&a_, &b_}) {
      for (RouterModel* r : w->clocked) r->set_clock(false);
    }
    context_->timeInc(1);
    for (Network* w : {&a_, &b_}) {
      for (RouterModel* r : w->clocked) r->set_clock(true);
    }
    context_->timeInc(1);
  }

  std::string difference(long cycle) {
    const unsigned ports = a_.routers.front()->ports();
    for (std::size_t r = 0; r < a_.routers.size(); ++r) {
      for (unsigned p = 0; p < ports; ++p) {
        const Link& a = a_.out[r * ports + p];
        const Link& b = b_.out[r * ports + p];
        if (a.valid != b.valid || (a.valid && (a.vc != b.vc || !(a.flit == b.flit) || a.stream != b.stream))) {
          return fmt::format(
              "cycle {} router {} port {}: {} valid {} vc {} flit {:#x} stream {}; {} valid {} vc {} "
              "flit {:#x} stream {}",
              cycle, t_.node_name(static_cast<NodeId>(r)), p, a_.side.title(), a.valid, a.vc, a.flit.data, a.stream,
              b_.side.title(), b.valid, b.vc, b.flit.data, b.stream);
        }
      }
      if (a_.credits[r] != b_.credits[r] || a_.draining[r] != b_.draining[r] ||
          a_.route_drops[r] != b_.route_drops[r] || a_.errors[r] != b_.errors[r]) {
        return fmt::format(
            "cycle {} router {}: credits {:#x}/{:#x}, draining {:#x}/{:#x}, route drops {}/{}, errors {:#x}/{:#x} "
            "({}/{})",
            cycle, t_.node_name(static_cast<NodeId>(r)), a_.credits[r], b_.credits[r], a_.draining[r], b_.draining[r],
            a_.route_drops[r], b_.route_drops[r], a_.errors[r], b_.errors[r], a_.side.title(), b_.side.title());
      }
    }
    return "";
  }

  wire::HeadFields head(wire::Mode mode, NodeId src, std::uint32_t dest, unsigned vc_class) {
    wire::HeadFields h;
    h.mode = mode;
    h.vc_class = static_cast<std::uint8_t>(vc_class);
    h.dest = dest;
    h.src = static_cast<std::uint32_t>(src);
    h.tag = static_cast<std::uint8_t>(worms_injected & 0xF);
    return h;
  }
  std::uint32_t coords(NodeId n) const {
    const model::Coord c = t_.coord(n);
    return wire::pack_coord_dest(
        {static_cast<std::uint8_t>(c[0]), static_cast<std::uint8_t>(c[1]), static_cast<std::uint8_t>(c[2])});
  }

  // A new worm's header flits (head, then address flits) for the run's kind of traffic; with
  // `unroutable` one of them is broken so that a router has no decision for it and drains the worm
  // (docs/rtl-modules.md, "Drained worms"): the head gets a reserved mode, or a destination outside the
  // network (a label wider than LabelW, coordinates beyond the size, a route entry naming a port
  // the routers lack), or the last header flit a reserved mode (drained where it becomes the
  // head: after intermediate reception, or a source route's regroup, further on).
  std::vector<std::uint64_t> header(NodeId src, unsigned& vc, bool unroutable) {
    std::vector<std::uint64_t> flits = routable_header(src, vc);
    if (!unroutable) return flits;
    const unsigned how = static_cast<unsigned>(rng_() % 3);
    std::uint64_t& flit = how == 2 ? flits.back() : flits.front();
    wire::HeadFields h = wire::unpack_head(flit);
    if (how != 1) {
      h.mode = static_cast<wire::Mode>(5 + rng_() % 3);
    } else if (h.mode == wire::Mode::kHamiltonianPath || h.mode == wire::Mode::kHamiltonianCycle) {
      h.dest |= 1u << sim::kRouterLabelW;
    } else if (h.mode == wire::Mode::kSourceRouted) {
      h.dest = wire::with_route_entry(h.dest, 0, {false, static_cast<std::uint8_t>(t_.port_count())});
    } else {
      h.dest = wire::pack_coord_dest({static_cast<std::uint8_t>(t_.size(0)), 0, 0});
    }
    flit = wire::pack_head(h);
    return flits;
  }

  std::vector<std::uint64_t> routable_header(NodeId src, unsigned& vc) {
    const NodeId n = t_.node_count();
    const NodeId dest = static_cast<NodeId>(rng_() % static_cast<std::uint64_t>(n));
    vc = 0;
    switch (traffic_) {
      case Traffic::kCprLine: {
        // A line along X or Y to a node of the source's row or column, with any control field but
        // deliver-and-pass on Y lines (a PCP spine: one at a time, docs/rtl.md).
        const int d = static_cast<int>(rng_() % 2);
        model::Coord c = t_.coord(src);
        c[static_cast<std::size_t>(d)] = static_cast<int>(rng_() % static_cast<unsigned>(t_.size(d)));
        wire::HeadFields h = head(wire::Mode::kCprLine, src, coords(t_.node_at(c)), 0);
        h.cf = static_cast<wire::Cf>(rng_() % (d == 0 ? 4 : 3));
        return {wire::pack_head(h)};
      }
      case Traffic::kDimensionOrder:
        return {wire::pack_head(head(wire::Mode::kDimensionOrder, src, coords(dest), 0))};
      case Traffic::kHamiltonianCycle: {
        const unsigned cls = path_.label(dest) > path_.label(src) ? wire::kHcClassPHigh : wire::kHcClassPLow;
        return {wire::pack_head(
            head(wire::Mode::kHamiltonianCycle, src, static_cast<std::uint32_t>(path_.label(dest)), cls))};
      }
      case Traffic::kHamiltonianPath: {
        // Up to three destinations on one side of the source's label, visited in label order
        // (intermediate reception at all but the last).
        const int own = path_.label(src);
        const bool high = rng_() % 2 == 0;
        std::vector<int> labels;
        for (int k = 0; k < 3; ++k) {
          const int span = high ? n - 1 - own : own;
          if (span <= 0) break;
          const int l = high ? own + 1 + static_cast<int>(rng_() % static_cast<unsigned>(span))
                             : static_cast<int>(rng_() % static_cast<unsigned>(span));
          if (std::find(labels.begin(), labels.end(), l) == labels.end()) labels.push_back(l);
        }
        if (labels.empty()) labels.push_back(own);
        std::sort(labels.begin(), labels.end());
        if (!high) std::reverse(labels.begin(), labels.end());
        // In the class of its network (high 0, low 1), injected on that VC.
        vc = high ? wire::kHpClassHigh : wire::kHpClassLow;
        wire::HeadFields h = head(wire::Mode::kHamiltonianPath, src, static_cast<std::uint32_t>(labels[0]), vc);
        h.more = static_cast<std::uint16_t>(labels.size() - 1);
        std::vector<std::uint64_t> flits{wire::pack_head(h)};
        for (unsigned k = 1; k < labels.size(); ++k) {
          flits.push_back(wire::pack_addr_flit(h, static_cast<std::uint32_t>(labels[k]), k));
        }
        return flits;
      }
      case Traffic::kSourceRoutedXy: {
        // X hops then Y hops, a delivered copy at a quarter of the routers on the way, "end" at the
        // destination; five entries per header flit (a used-up head regroups onto the next one).
        std::vector<wire::RouteEntry> entries;
        const model::Coord a = t_.coord(src), b = t_.coord(dest);
        for (int d = 0; d < 2; ++d) {
          for (int k = 0; k < std::abs(b[d] - a[d]); ++k) {
            entries.push_back({rng_() % 4 == 0, static_cast<std::uint8_t>(2 * d + (b[d] < a[d] ? 1 : 0))});
          }
        }
        entries.push_back({true, wire::kRoutePortEnd});
        vc = static_cast<unsigned>(rng_() % vcs_);  // any class: each names a VC
        std::vector<std::uint32_t> dests;
        for (std::size_t i = 0; i < entries.size(); i += wire::kRouteEntries) {
          std::uint32_t d = wire::kRouteAllUnused;
          for (std::size_t k = i; k < std::min(entries.size(), i + wire::kRouteEntries); ++k) {
            d = wire::with_route_entry(d, static_cast<unsigned>(k - i), entries[k]);
          }
          dests.push_back(d);
        }
        wire::HeadFields h = head(wire::Mode::kSourceRouted, src, dests[0], vc);
        h.more = static_cast<std::uint16_t>(dests.size() - 1);
        std::vector<std::uint64_t> flits{wire::pack_head(h)};
        for (unsigned k = 1; k < dests.size(); ++k) flits.push_back(wire::pack_addr_flit(h, dests[k], k));
        return flits;
      }
    }
    return {};
  }

  // Injections and ejection credits from the RTL network's outputs, applied to both networks.
  void drive() {
    const unsigned net = static_cast<unsigned>(t_.port_count()), ports = net + locals_;
    std::uniform_real_distribution<double> u(0, 1);
    for (NodeId r = 0; r < t_.node_count(); ++r) {
      std::uint32_t to_router = 0;
      std::vector<Link> local_in(locals_);
      for (unsigned l = 0; l < locals_; ++l) {
        const std::size_t k = static_cast<std::size_t>(r) * locals_ + l;
        // Sink: the port's pool holds up to kRouterDepth flits; one leaves per cycle unless stalled.
        if (a_.out[static_cast<std::size_t>(r) * ports + net + l].valid) {
          ++sinks_[k];
          ++flits_ejected;
        }
        if (sinks_[k] == static_cast<int>(sim::kRouterDepth)) ++full_sink_cycles;
        if (sinks_[k] > 0 && u(rng_) >= stall_) {
          --sinks_[k];
          to_router |= 1u << ((net + l) * vcs_);
        }
        Injector& in = injectors_[k];
        for (unsigned v = 0; v < vcs_; ++v) {
          in.credits[v] += (a_.credits[static_cast<std::size_t>(r)] >> ((net + l) * vcs_ + v)) & 1;
        }
        // One worm in 16 (unroutable_one_in_) has no route decision somewhere (header()).
        if (in.flits.empty() && u(rng_) < load_) {
          const bool unroutable = rng_() % unroutable_one_in_ == 0;
          unroutable_injected += unroutable ? 1 : 0;
          const std::vector<std::uint64_t> hdr = header(r, in.vc, unroutable);
          const unsigned payload = static_cast<unsigned>(rng_() % 5);
          for (std::size_t i = 0; i < hdr.size(); ++i) {
            in.flits.push_back({i == 0, payload == 0 && i + 1 == hdr.size(), hdr[i]});
          }
          for (unsigned i = 0; i < payload; ++i) in.flits.push_back({false, i + 1 == payload, rng_()});
          ++worms_injected;
        }
        if (!in.flits.empty() && in.credits[in.vc] > 0) {
          --in.credits[in.vc];
          local_in[l] = Link{true, in.vc, in.flits.front()};
          in.flits.pop_front();
        }
      }
      for (Network* w : {&a_, &b_}) {
        RouterModel& m = *w->routers[static_cast<std::size_t>(r)];
        const std::uint32_t credits = to_router | w->links->drive(r, m);
        for (unsigned l = 0; l < locals_; ++l) m.set_input(net + l, local_in[l]);
        m.set_credits_from_receivers(credits);
      }
    }
  }

  // The protocol faults of break_protocol_from_now_on(), on an idle network (every credit counter
  // full, every buffer empty): cycle 10, a credit nobody sent back to router 0's output port 0
  // (VC 0); cycle 20, an ejection credit the sink never owed to router 1; cycles 30..39, ten
  // flits of one worm addressed to router 2 itself on its local port, VC 0, without credits,
  // while its sink takes nothing: four fill the ejection pool, four the VC's buffer, the ninth
  // finds it full.
  void break_protocol(long cycle) {
    const unsigned net = static_cast<unsigned>(t_.port_count());
    for (Network* w : {&a_, &b_}) {
      if (cycle == 10) {
        RouterModel& m = *w->routers[0];
        m.set_credits_from_receivers(1u);  // port 0, VC 0
      }
      if (cycle == 20) w->routers[1]->set_credits_from_receivers(1u << (net * vcs_));
      if (cycle >= 30 && cycle < 40) {
        const std::uint64_t data = wire::pack_head(head(wire::Mode::kDimensionOrder, 2, coords(2), 0));
        w->routers[2]->set_input(net, Link{true, 0, {cycle == 30, cycle == 39, cycle == 30 ? data : 0}});
      }
    }
  }

  model::Topology t_;
  model::HamiltonianLabeling path_;
  Traffic traffic_;
  double load_, stall_;
  std::mt19937_64 rng_;
  std::unique_ptr<VerilatedContext> context_;
  Network a_, b_;
  unsigned locals_ = 1;
  unsigned vcs_ = 2;  // the routers' VCs per port
  std::vector<Injector> injectors_;
  std::vector<int> sinks_;
  bool faults_ = false;
  unsigned unroutable_one_in_ = 16;
};

struct LockstepCase {
  const char* topology;
  unsigned locals;
  Traffic traffic;
  const char* name;
};

class TimingLockstep : public testing::TestWithParam<LockstepCase> {};

// 4000 cycles at two loads (a new worm whenever an injector is idle with probability 0.05 and 0.5)
// and 30 % ejection stalls, one worm in 16 without a route decision somewhere (drained): every
// output of every router agrees in every cycle.
TEST_P(TimingLockstep, EveryOutputAgreesEveryCycleUnderRandomTraffic) {
  const LockstepCase c = GetParam();
  for (const double load : {0.05, 0.5}) {
    Lockstep net(model::Topology::parse(c.topology), c.locals, c.traffic, load, 0.3, 42);
    EXPECT_EQ(net.run(4000), "") << "load " << load;
    // Not vacuous: worms flowed, and the sinks were full (back-pressure reached the routers).
    EXPECT_GT(net.worms_injected, 300) << "load " << load;
    EXPECT_GT(net.flits_ejected, 1000) << "load " << load;
    if (load > 0.1) {
      EXPECT_GT(net.full_sink_cycles, 50);
    }
    // The broken worms were drained (each counted once where it had no decision; some are still
    // queued at their injectors when the run ends).
    EXPECT_GT(net.unroutable_injected, 10) << "load " << load;
    EXPECT_LE(net.route_drops(), net.unroutable_injected) << "load " << load;
    EXPECT_GT(net.route_drops(), net.unroutable_injected / 2) << "load " << load;
  }
}

// A lost flit or credit sets the same sticky error bit in the RTL router and in the model in the
// same cycle, and the bits stay set (docs/rtl-modules.md, "Sticky errors and cover points"). No traffic but the faults
// (Lockstep::break_protocol), ejection stalled throughout; the RTL's assertions fire, as they should.
TEST(TimingLockstepErrors, LostFlitsAndCreditsSetTheSameStickyErrorsInRtlAndModel) {
  Lockstep net(model::Topology::parse("mesh:4x4"), 1, Traffic::kDimensionOrder, 0.0, 1.0, 7);
  net.break_protocol_from_now_on();
  ASSERT_EQ(net.run(200), "");
  EXPECT_EQ(net.rtl_errors(0), sim::kRouterErrorCreditOverflow);
  EXPECT_EQ(net.rtl_errors(1), sim::kRouterErrorEjectCreditOverflow);
  EXPECT_EQ(net.rtl_errors(2), sim::kRouterErrorBufferOverflow);
  EXPECT_EQ(net.rtl_errors(3), 0u);
  EXPECT_TRUE(net.assertion_fired());
  for (const NodeId r : {0, 1, 2, 3}) EXPECT_EQ(net.model_errors(r), net.rtl_errors(r)) << "router " << r;
}

// Drained worms beside other worms in one input port: a drained worm's tail with a flit behind it
// takes the port's one decision read, and the port's other VCs whose front ends a segment with a
// flit behind it wait that cycle (docs/rtl.md, "The decision store"). One worm in three without a
// decision, heavy ejection stalls so that flits queue behind fronts: every output agrees every
// cycle (the model's rule, TimingRouter::claims_decision_read, dropped, this fails).
TEST(TimingLockstepDrains, DrainedTailsBesideOtherWormsAgreeEveryCycle) {
  for (const LockstepCase& c : {LockstepCase{"mesh:4x4", 2, Traffic::kHamiltonianPath, "path"},
                                LockstepCase{"mesh:5x4", 1, Traffic::kSourceRoutedXy, "source"}}) {
    Lockstep net(model::Topology::parse(c.topology), c.locals, c.traffic, 0.5, 0.6, 7);
    net.set_unroutable_one_in(3);
    EXPECT_EQ(net.run(4000), "") << c.name;
    EXPECT_GT(net.route_drops(), 200) << c.name;
  }
}

const auto kLockstepCases =
    testing::Values(LockstepCase{"mesh:4x4", 1, Traffic::kDimensionOrder, "mesh4x4_dimension_order"},
                    LockstepCase{"mesh:4x4", 2, Traffic::kHamiltonianPath, "mesh4x4_two_locals_hamiltonian_path"},
                    LockstepCase{"mesh:5x4", 1, Traffic::kSourceRoutedXy, "mesh5x4_source_routed_xy"},
                    LockstepCase{"mesh:4x4", 4, Traffic::kDimensionOrder, "mesh4x4_four_locals_dimension_order"},
                    LockstepCase{"torus:4x4", 1, Traffic::kDimensionOrder, "torus4x4_dimension_order_dateline"},
                    LockstepCase{"torus:4x4", 2, Traffic::kHamiltonianCycle, "torus4x4_two_locals_hamiltonian_cycle"},
                    LockstepCase{"mesh:3x3x3", 2, Traffic::kDimensionOrder, "mesh3x3x3_dimension_order"},
                    LockstepCase{"mesh:3x3x3", 1, Traffic::kHamiltonianPath, "mesh3x3x3_hamiltonian_path"},
                    LockstepCase{"mesh:5x4", 2, Traffic::kCprLine, "mesh5x4_two_locals_cpr_lines"});
const auto kLockstepCaseName = [](const testing::TestParamInfo<LockstepCase>& info) {
  return std::string(info.param.name);
};

INSTANTIATE_TEST_SUITE_P(Traffic, TimingLockstep, kLockstepCases, kLockstepCaseName);

// Activity-driven evaluation (docs/timing.md): on each backend, a network clocked only where a
// router can change against the same network clocked in full, fed the same traffic of every kind
// above (every routing mode, promotion, source-route regrouping, drained worms, several local
// ports, ejection stalls): every output of every router (links, streams, credits, draining, drop
// counts, sticky errors) agrees in every cycle. At a low load most routers are skipped most cycles,
// at a high one few: both are checked, and the skipping is not vacuous.
class ActivityLockstep : public testing::TestWithParam<LockstepCase> {};

TEST_P(ActivityLockstep, SkippedNetworkEqualsFullyEvaluatedEveryCycle) {
  const LockstepCase c = GetParam();
  for (const sim::Backend backend : {sim::Backend::kRtl, sim::Backend::kModel}) {
    for (const double load : {0.005, 0.4}) {
      Lockstep net(model::Topology::parse(c.topology), c.locals, c.traffic, load, 0.3, 17,
                   Side{backend, sim::Evaluation::kFull}, Side{backend, sim::Evaluation::kActivity});
      const std::string what = fmt::format("{} at load {}", sim::backend_title(backend), load);
      EXPECT_EQ(net.run(2500), "") << what;
      EXPECT_GT(net.worms_injected, 40) << what;
      EXPECT_GT(net.route_drops(), 0) << what;
      // Routers were skipped at the low load, and evaluated.
      if (load < 0.1) {
        EXPECT_LT(net.b_evaluated(), 0.8) << what;
      }
      EXPECT_GT(net.b_evaluated(), 0.05) << what;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Traffic, ActivityLockstep, kLockstepCases, kLockstepCaseName);

// The protocol faults (a credit nobody owed, a flit into a full buffer) reach a skipped router as
// inputs: it is evaluated and sets the same sticky errors as the fully evaluated one.
TEST(ActivityLockstepErrors, LostFlitsAndCreditsSetTheSameStickyErrorsWhenSkipping) {
  for (const sim::Backend backend : {sim::Backend::kRtl, sim::Backend::kModel}) {
    Lockstep net(model::Topology::parse("mesh:4x4"), 1, Traffic::kDimensionOrder, 0.0, 1.0, 7,
                 Side{backend, sim::Evaluation::kFull}, Side{backend, sim::Evaluation::kActivity});
    net.break_protocol_from_now_on();
    ASSERT_EQ(net.run(200), "") << sim::backend_title(backend);
    EXPECT_EQ(net.model_errors(0), sim::kRouterErrorCreditOverflow);
    EXPECT_EQ(net.model_errors(1), sim::kRouterErrorEjectCreditOverflow);
    EXPECT_EQ(net.model_errors(2), sim::kRouterErrorBufferOverflow);
    EXPECT_LT(net.b_evaluated(), 0.5);
  }
}

}  // namespace
}  // namespace wormcast::verif
