// SPDX-License-Identifier: Apache-2.0
#include "model/timing_router.hpp"

#include <fmt/format.h>

#include <bit>
#include <stdexcept>
#include <utility>

#include "model/errors.hpp"

namespace wormcast::model {

// ---------------------------------------------------------------------------------------------
// Route compute

namespace {

constexpr unsigned kModeFunctions = 4;  // modes 0..3 have a routing function (docs/header-format.md)
constexpr const char* kModeFunctionNames[kModeFunctions] = {"hamiltonian-path", "hamiltonian-cycle", "dimension-order",
                                                            "cpr-line"};

template <class Make>
auto defined_or_empty(Make make) -> decltype(make()) {
  try {
    return make();
  } catch (const UnsupportedError&) {
  } catch (const LabelingError&) {
  }
  return {};
}

}  // namespace

TimingRouting::TimingRouting(const Topology& topology) : topology_(topology) {
  path_ = defined_or_empty([&] { return std::optional(HamiltonianLabeling::path(topology_)); });
  cycle_ = defined_or_empty([&] { return std::optional(HamiltonianLabeling::cycle(topology_)); });
  for (unsigned m = 0; m < kModeFunctions; ++m) {
    functions_[m] = defined_or_empty([&] { return make_routing_function(kModeFunctionNames[m], topology_); });
  }
}

NodeId TimingRouting::label_node(const std::optional<HamiltonianLabeling>& labels, std::uint32_t dest) const {
  if (!labels || dest >= static_cast<std::uint32_t>(labels->size())) return kNoNode;
  return labels->node(static_cast<int>(dest));
}

NodeId TimingRouting::coord_node(std::uint32_t dest) const {
  if (topology_.is_star() || !wire::coord_dest_ok(dest)) return kNoNode;
  const wire::Coords c = wire::unpack_coord_dest(dest);
  const Coord coord{c.x, c.y, c.z};
  for (int d = 0; d < kMaxDimensions; ++d) {
    const int size = d < topology_.dimensions() ? topology_.size(d) : 1;
    if (coord[static_cast<std::size_t>(d)] >= size) return kNoNode;
  }
  return topology_.node_at(coord);
}

TimingRouting::Decision TimingRouting::route(NodeId node, unsigned mode, unsigned vc_class, std::uint32_t dest) const {
  if (mode >= kModeFunctions || !functions_[mode]) return {};
  // The label modes address labels: the path labeling for mode 0, the cycle labeling for mode 1.
  const NodeId target = mode == 0 ? label_node(path_, dest) : mode == 1 ? label_node(cycle_, dest) : coord_node(dest);
  if (target == kNoNode) return {};
  const std::optional<RouteStep> step = functions_[mode]->try_route(node, static_cast<VcClass>(vc_class), target);
  if (!step) return {};
  Decision d;
  d.valid = true;
  d.eject = step->ejects();
  d.port = d.eject ? 0 : step->port;
  d.vc_class = d.eject ? 0 : step->vc;
  return d;
}

// ---------------------------------------------------------------------------------------------
// Router

TimingRouter::TimingRouter(const TimingRouterParams& params, std::shared_ptr<const TimingRouting> routing, NodeId node)
    : params_(params), routing_(std::move(routing)), node_(node) {
  const unsigned ports = params.net_ports + params.locals;
  if (params.net_ports < 1 || params.net_ports > kMaxNetPorts || params.locals < 1 || ports > kMaxPorts) {
    throw std::invalid_argument(
        fmt::format("timing router: {} network ports and {} local pairs; at most {} and {} ports", params.net_ports,
                    params.locals, kMaxNetPorts, kMaxPorts));
  }
  // A class takes VC class mod VCs, as the RTL's class bits: the VC count is a power of two.
  const bool vcs_ok = params.vcs == 1 || params.vcs == 2 || params.vcs == 4;
  if (!vcs_ok || params.vcs > kMaxVcs || params.depth < 1 || params.depth > kMaxDepth) {
    throw std::invalid_argument(fmt::format("timing router: {} VCs of depth {}; valid: 1, 2 or 4 VCs, depth 1..{}",
                                            params.vcs, params.depth, kMaxDepth));
  }
  const Topology& t = routing_->topology();
  t.check_node(node);
  if (static_cast<unsigned>(t.port_count()) > params.net_ports) {
    throw std::invalid_argument(fmt::format("timing router: {} has {} network ports, the router {}", t.spec(),
                                            t.port_count(), params.net_ports));
  }
  if (!t.is_star()) coord_ = t.coord(node);
  for (int p = 0; p < t.port_count(); ++p) {
    if (t.neighbour(node, p) != kNoNode) connected_ |= 1u << p;
  }
  in_vcs_ = ports * params.vcs;
  vc_shift_ = static_cast<unsigned>(std::countr_zero(params.vcs));
  fifo_.resize(static_cast<std::size_t>(in_vcs_) * params.depth);
  decision_.resize(fifo_.size());
  reset();
}

void TimingRouter::reset() {
  ivc_.fill(InputVc{});
  for (OutputUnit& o : net_out_) o.credits.fill(params_.depth);
  allocated_ = 0;
  eject_credits_.fill(params_.depth);
  out_.fill(TimingLink{});
  credit_q_ = 0;
  buffered_ = 0;
  busy_ = 0;
  active_vcs_ = 0;
  out_valid_ = 0;
  route_drops_ = 0;
  errors_ = 0;
  va_top_.reset(in_vcs_);
  va_pick_q_ = va_pick_set_q_ = 0;
  sa_token_.reset(ports());
  sa_active_q_ = 0;
  for (RrArbiter& a : sa_vc_) a.reset(params_.vcs);
  for (RrArbiter& a : sa_out_) a.reset(ports());
}

std::uint64_t TimingRouter::draining() const {
  std::uint64_t bits = 0;
  for (std::uint64_t b = busy_; b != 0; b &= b - 1) {
    const unsigned j = static_cast<unsigned>(std::countr_zero(b));
    const InputVc& q = ivc_[j];
    if ((q.state == State::kRouted || q.state == State::kActive) && q.drain) bits |= std::uint64_t{1} << j;
  }
  return bits;
}

// The head decision (docs/rtl.md "Segments", "Source routes", "CPR control field"): route compute's
// answer for the head, turned into the segment's outputs by the head's mode.
TimingRouter::Segment TimingRouter::decide(unsigned in_port, const wire::HeadFields& head) const {
  Segment s;
  const unsigned mode = static_cast<unsigned>(head.mode);
  if (head.mode == wire::Mode::kSourceRouted) {
    const wire::RouteEntry e = wire::route_entry(head.dest, 0);
    const bool class_ok = head.vc_class < params_.vcs;  // a source route's class names a VC of its own
    s.vc_class = head.vc_class;
    if (e.port == wire::kRoutePortEnd) {
      s.valid = class_ok;
      s.eject = true;
    } else {
      s.valid = class_ok && e.port < params_.net_ports && ((connected_ >> e.port) & 1) != 0;
      s.eject = e.deliver;
      if (wire::route_used_up(wire::route_shift(head.dest)) && head.more != 0) {
        // The route is used up here: the head is its own segment, the next address flit (the next
        // entries) leaves on the same port without a decision.
        s.promote = s.fixed = true;
        s.fixed_port = e.port;
      } else {
        s.net = 1u << e.port;
        s.shift = true;
      }
    }
  } else {
    const TimingRouting::Decision rc = routing_->route(node_, mode, head.vc_class, head.dest);
    s.valid = rc.valid;
    s.vc_class = static_cast<std::uint8_t>(rc.vc_class);
    if (rc.valid && head.mode == wire::Mode::kCprLine) {
      // The control field acts on the routers of the line; the sender's own router (the worm
      // comes from a local port) only sends it on.
      const bool from_line = in_port < params_.net_ports;
      const bool deliver = from_line && (static_cast<unsigned>(head.cf) & 1u) != 0;
      const bool pass = head.cf != wire::Cf::kDeliverStop || !from_line;
      s.eject = rc.eject || deliver;
      if (!rc.eject && pass) s.net = 1u << rc.port;
      // The PCP spine (2D only): a deliver-and-pass worm arriving on a Y input also replicates
      // into the connected X ports.
      if (head.cf == wire::Cf::kDeliverPass && (in_port == 2 || in_port == 3) &&
          routing_->topology().dimensions() == 2) {
        s.spawn = connected_ & 3u;
        s.net |= s.spawn;
      }
    } else if (rc.valid && rc.eject) {
      s.eject = true;
      s.promote = head.more != 0;  // intermediate reception: the next address flit takes over
    } else if (rc.valid) {
      s.net = 1u << rc.port;
    }
  }
  if (!s.valid) s = Segment{};
  return s;
}

// VC-class plan (docs/rtl.md): VC = class mod VCs (a power of two); a spawned branch travels in
// the class of its X direction.
unsigned TimingRouter::out_vc(const InputVc& ivc, unsigned port) const {
  if (params_.vcs < 2) return 0;
  const unsigned cls = ((ivc.seg.spawn >> port) & 1u) != 0
                           ? CprLineRouting::spawned_branch_class(static_cast<Port>(port))
                           : ivc.seg.vc_class;
  return cls & (params_.vcs - 1u);
}

// The lead flit of a segment leaves a network port as the worm's head there.
wire::Flit TimingRouter::rewrite_head(const InputVc& ivc, unsigned port, wire::Flit flit) const {
  wire::HeadFields h = wire::unpack_head(flit.data);
  flit.head = true;
  if (((ivc.seg.spawn >> port) & 1u) != 0) {
    h.vc_class = static_cast<std::uint8_t>(CprLineRouting::spawned_branch_class(static_cast<Port>(port)));
    // A spawned branch addresses the end of its row: x = X-1 going +X (port 0), x = 0 going -X.
    const int x = port == 0 ? routing_->topology().size(0) - 1 : 0;
    h.dest = wire::pack_coord_dest(
        {static_cast<std::uint8_t>(x), static_cast<std::uint8_t>(coord_[1]), static_cast<std::uint8_t>(coord_[2])});
  } else {
    h.vc_class = ivc.seg.vc_class;
    if (ivc.seg.shift) h.dest = wire::route_shift(h.dest);
  }
  flit.data = wire::pack_head(h);
  return flit;
}

// A decision loaded: the VC is Routed with the flit at its front as the segment's lead. Without a
// decision the segment is empty and drains the worm to its tail (docs/rtl-modules.md, "Drained worms").
void TimingRouter::enter_routed(InputVc& q, const Segment& seg, bool first_seg, std::uint8_t head_class) {
  q.seg = seg;
  q.drain = !seg.valid;
  q.first_seg = first_seg;
  if (first_seg) q.in_class = head_class;
  q.lead = true;
  q.state = State::kRouted;
}

bool TimingRouter::count_credit(unsigned& count, bool consume, bool give_back, unsigned depth) {
  const bool take = consume && count > 0;
  const bool back = give_back && (take || count != depth);
  if (back && !take) ++count;
  if (take && !back) --count;
  return give_back && !back;
}

namespace {

unsigned lowest(std::uint64_t bits) { return static_cast<unsigned>(std::countr_zero(bits)); }

}  // namespace

// Output-VC allocation folded into switch allocation (docs/rtl-modules.md, noc_vc_allocator): a waiting
// head may request the switch when its whole target set is free and the top waits for none of it.
// The top is the head picked (round robin) in the last edge if it still waits, and what it
// reserves is its set as registered then (docs/rtl.md, "Admission and starvation"). Returns the heads
// that may request (ok); `pick` is this edge's pick among the waiting heads (one bit, or 0), to be
// registered, and `top` the top (one bit, or 0).
std::uint64_t TimingRouter::vc_admission(const std::array<std::uint64_t, kMaxInVcs>& target, std::uint64_t req,
                                         std::uint64_t& pick, std::uint64_t& top) const {
  pick = va_top_.grant(req);
  top = va_pick_q_ & req;
  if (req == 0) return 0;
  const std::uint64_t reserved = top != 0 ? va_pick_set_q_ : 0;
  std::uint64_t ok = 0;
  for (std::uint64_t r = req; r != 0; r &= r - 1) {
    const unsigned j = lowest(r);
    const std::uint64_t bit = std::uint64_t{1} << j;
    if ((target[j] & allocated_) == 0 && (bit == top || (target[j] & reserved) == 0)) ok |= bit;
  }
  return ok;
}

// Separable input-first switch allocation with all-or-nothing request sets and the token that
// beats the output arbiters (docs/rtl-modules.md, noc_switch_allocator). sa_req: the requesting input VCs
// (req_set holds their output sets); out_gnt: the input + 1 granted per output (0: none); sa_gnt:
// the granted input VCs. Only the requesting inputs and the outputs they want are visited: an
// arbiter without a grant keeps its pointer.
[[gnu::always_inline]] inline std::uint32_t TimingRouter::allocate_switch(
    const std::array<std::uint32_t, kMaxInVcs>& req_set, std::uint64_t sa_req,
    std::array<std::uint8_t, kMaxPorts>& out_gnt, std::uint64_t& sa_gnt) {
  const unsigned sh = vc_shift_;
  const std::uint64_t vc_mask = (std::uint64_t{1} << params_.vcs) - 1;
  std::array<std::uint32_t, kMaxPorts> pick_req;
  std::array<std::uint64_t, kMaxPorts> pick;
  std::uint64_t active = 0;
  std::uint32_t outs = 0;
  for (std::uint64_t rem = sa_req; rem != 0;) {
    const unsigned i = lowest(rem) >> sh;
    const std::uint64_t vc_req = (rem >> (i << sh)) & vc_mask;
    rem &= ~(vc_mask << (i << sh));
    active |= std::uint64_t{1} << i;
    pick[i] = sa_vc_[i].grant(vc_req);
    pick_req[i] = req_set[(i << sh) + lowest(pick[i])];
    outs |= pick_req[i];
  }
  sa_gnt = 0;
  out_gnt.fill(0);
  // The token passes among the inputs that requested in the last edge, one step per edge.
  const std::uint64_t token = sa_token_.grant(sa_active_q_);
  sa_token_.update(token, true);
  sa_active_q_ = active;
  if (active == 0) return 0;
  if ((active & (active - 1)) == 0) {
    // One requesting input (most edges at low load): every output it wants has it alone as the
    // request, so the output arbiters grant it everything it asks for (the token, held by it or by
    // an input without a request, takes nothing from it); the same
    // pointer updates as the general case below.
    const unsigned i = lowest(active);
    bool won = true;
    if (hold_first_grant_ > 0) {
      --hold_first_grant_;
      won = false;  // test-only: nothing leaves this cycle
    }
    std::uint32_t granted = 0;
    for (std::uint32_t set = outs; set != 0; set &= set - 1) {
      const unsigned o = lowest(set);
      if (won) {
        out_gnt[o] = static_cast<std::uint8_t>(i + 1);
        granted |= 1u << o;
      }
      sa_out_[o].update(active, won);
    }
    sa_vc_[i].update(pick[i], won);
    if (won) sa_gnt = pick[i] << (i << sh);
    return granted;
  }
  // Only the wanted outputs' entries are written and read (cleared here: no fill of the whole array).
  std::array<std::uint64_t, kMaxPorts> want, arb, tent;
  for (std::uint32_t set = outs; set != 0; set &= set - 1) want[lowest(set)] = 0;
  for (std::uint64_t in = active; in != 0; in &= in - 1) {
    const unsigned i = lowest(in);
    for (std::uint32_t set = pick_req[i]; set != 0; set &= set - 1) want[lowest(set)] |= std::uint64_t{1} << i;
  }
  for (std::uint32_t set = outs; set != 0; set &= set - 1) {
    const unsigned o = lowest(set);
    arb[o] = sa_out_[o].grant(want[o]);
    tent[o] = (want[o] & token) != 0 ? token : arb[o];
  }
  std::uint64_t win = 0;
  for (std::uint64_t in = active; in != 0; in &= in - 1) {
    const unsigned i = lowest(in);
    bool all = true;
    for (std::uint32_t set = pick_req[i]; set != 0 && all; set &= set - 1) all = ((tent[lowest(set)] >> i) & 1) != 0;
    if (all) win |= std::uint64_t{1} << i;
  }
  if (hold_first_grant_ > 0 && win != 0) {
    --hold_first_grant_;
    win = 0;  // test-only: nothing leaves this cycle
  }
  std::uint32_t granted = 0;
  for (std::uint32_t set = outs; set != 0; set &= set - 1) {
    const unsigned o = lowest(set);
    const std::uint64_t g = tent[o] & win;
    if (g != 0) {
      out_gnt[o] = static_cast<std::uint8_t>(lowest(g) + 1);
      granted |= 1u << o;
    }
    sa_out_[o].update(arb[o], (arb[o] & g) != 0);
  }
  for (std::uint64_t in = active; in != 0; in &= in - 1) {
    const unsigned i = lowest(in);
    const bool won = ((win >> i) & 1) != 0;
    sa_vc_[i].update(pick[i], won);
    if (won) sa_gnt |= pick[i] << (i << sh);
  }
  return granted;
}

// An edge with every input VC Idle and empty and no flit arriving (a worm's tail has left: the
// router still owes credits, gets credits back, or shows the tail on an output): no stage has a
// request, so no arbiter moves; the output registers go idle, the output units count the credits
// that come back, and no credit is owed after it. The same state as the full edge below, without
// its stages (most edges of a router that a worm has just left).
void TimingRouter::idle_edge() {
  const unsigned sh = vc_shift_, net_ports = params_.net_ports;
  const std::uint64_t vc_mask = (std::uint64_t{1} << params_.vcs) - 1;
  for (std::uint32_t set = out_valid_; set != 0; set &= set - 1) {
    const unsigned o = lowest(set);
    out_[o].valid = false;
    if (o < net_ports) out_[o].vc = 0;  // a network output register goes idle with VC 0
  }
  out_valid_ = 0;
  va_pick_q_ = va_pick_set_q_ = 0;  // no head waits, so none is picked
  // No input requests the switch; the token still takes its step among last edge's requesters.
  sa_token_.update(sa_token_.grant(sa_active_q_), true);
  sa_active_q_ = 0;
  for (std::uint64_t c = credit_in_; c != 0;) {
    const unsigned o = lowest(c) >> sh;
    const std::uint64_t back = (c >> (o << sh)) & vc_mask;
    c &= ~(vc_mask << (o << sh));
    if (o < net_ports) {
      for (std::uint64_t w_set = back; w_set != 0; w_set &= w_set - 1) {
        if (count_credit(net_out_[o].credits[lowest(w_set)], false, true, params_.depth)) errors_ |= kErrCreditOverflow;
      }
    } else if ((back & 1) != 0 && count_credit(eject_credits_[o - net_ports], false, true, params_.depth)) {
      errors_ |= kErrEjectCreditOverflow;  // an ejection pool's credit comes back on VC 0's bit
    }
  }
  credit_q_ = 0;
}

// Route on arrival: the input VCs that load the decision of the flit arriving on their link in
// this edge (bit j): a head or rerouted address flit arriving into an Idle, empty VC. The others
// load a front's stored decision in update_input_vcs (an Idle or Reroute VC does not go, so its
// front is not popped in this edge).
[[gnu::always_inline]] inline std::uint64_t TimingRouter::vcs_routed_on_arrival() const {
  const unsigned sh = vc_shift_;
  std::uint64_t arr_vcs = 0;
  for (std::uint32_t set = in_valid_; set != 0; set &= set - 1) {
    const unsigned i = lowest(set);
    const TimingLink& in = in_[i];
    if (in.vc >= params_.vcs) continue;
    const unsigned j = (i << sh) + in.vc;
    const InputVc& q = ivc_[j];
    if (q.arrive != Arrive::kBody && q.state == State::kIdle && q.count == 0) {
      arr_vcs |= std::uint64_t{1} << j;
    }
  }
  return arr_vcs;
}

// The heads that wait for output VCs (the Routed VCs with network ports among `routing`, the busy
// VCs that are not Active), with the output VCs each needs in va_target_. On the way, a worm
// whose first segment is Routed chooses its ejection port: the first local port from (input port
// mod locals) on with a credit before this edge, used by its switch requests from this cycle on
// and kept to the tail.
[[gnu::always_inline]] inline std::uint64_t TimingRouter::request_output_vcs(std::uint64_t routing) {
  const unsigned sh = vc_shift_;
  std::uint64_t va_req = 0;
  for (std::uint64_t b = routing; b != 0; b &= b - 1) {
    const unsigned j = lowest(b);
    InputVc& q = ivc_[j];
    if (q.state != State::kRouted) continue;
    if (q.first_seg) {
      const unsigned i = j >> sh;
      unsigned chosen = i % params_.locals;
      for (unsigned k = 0; k < params_.locals; ++k) {
        const unsigned l = (i + k) % params_.locals;
        if (eject_credits_[l] > 0) {
          chosen = l;
          break;
        }
      }
      q.ej_port = static_cast<std::uint8_t>(chosen);
    }
    if (q.seg.net == 0) continue;
    va_req |= std::uint64_t{1} << j;
    std::uint64_t t = 0;
    for (std::uint32_t set = q.seg.net; set != 0; set &= set - 1) {
      const unsigned o = lowest(set);
      t |= std::uint64_t{1} << ((o << sh) + out_vc(q, o));
    }
    va_target_[j] = t;
  }
  return va_req;
}

// Input VC j's front flit ends its segment (a tail, or the lead of a promote segment without a
// fixed port) with a flit waiting behind it: its pop reads the next flit's decision from the
// port's decision RAM, which has one read per cycle (docs/rtl.md, "The decision store").
[[gnu::always_inline]] inline bool TimingRouter::claims_decision_read(unsigned j) const {
  const InputVc& q = ivc_[j];
  return q.count > 1 && (front(j).tail || (q.lead && q.seg.promote && !q.seg.fixed));
}

// The VCs that go (e.go: Active, or Routed with their output VCs admitted or without network
// ports) request the switch for their front flit (returned; req_set_ holds each requester's
// outputs) or drop it (e.drop: a drained worm's flits, or a used-up source-route head that
// delivers nowhere). A flit requests all of its outputs only when each has a credit (synchronous
// replication). Of the drops that claim the port's decision read (claims_decision_read), only
// the lowest VC's drops; while one does, the port's other claimants neither drop nor request.
[[gnu::always_inline]] inline std::uint64_t TimingRouter::request_switch(Edge& e) {
  const unsigned net_ports = params_.net_ports;
  std::uint64_t sa_req = 0, drain_claims = 0;
  for (std::uint64_t b = e.busy; b != 0; b &= b - 1) {
    const unsigned j = lowest(b);
    const InputVc& q = ivc_[j];
    const bool goes =
        q.state == State::kActive || (q.state == State::kRouted && (q.seg.net == 0 || ((e.va_ok >> j) & 1) != 0));
    if (!goes) continue;
    e.go |= std::uint64_t{1} << j;
    if (q.count == 0) continue;
    if (q.seg.net == 0 && !q.seg.eject) {
      e.drop |= std::uint64_t{1} << j;
      if (claims_decision_read(j)) drain_claims |= std::uint64_t{1} << j;
      continue;
    }
    bool ok = !q.seg.eject || eject_credits_[q.ej_port] > 0;
    for (std::uint32_t set = q.seg.net; set != 0 && ok; set &= set - 1) {
      const unsigned o = lowest(set);
      ok = net_out_[o].credits[out_vc(q, o)] > 0;
    }
    if (ok) {
      req_set_[j] = q.seg.net | (q.seg.eject ? 1u << (net_ports + q.ej_port) : 0u);
      sa_req |= std::uint64_t{1} << j;
    }
  }
  // Rare: two drained worms end in one port and cycle, or one beside a worm the switch ends.
  while (drain_claims != 0) {
    const unsigned j = lowest(drain_claims);
    const std::uint64_t port = ((std::uint64_t{1} << params_.vcs) - 1) << ((j >> vc_shift_) << vc_shift_);
    const std::uint64_t others = drain_claims & port & ~(std::uint64_t{1} << j);
    e.drop &= ~others;
    for (std::uint64_t r = sa_req & port; r != 0; r &= r - 1) {
      if (claims_decision_read(lowest(r))) sa_req &= ~(std::uint64_t{1} << lowest(r));
    }
    drain_claims &= ~port;
  }
  return sa_req;
}

// A waiting head the switch carries takes its output VCs, before traverse_network_outputs releases
// the VCs of the tails that leave: a one-flit worm takes and releases its VCs in the same edge (a
// taken VC was free, so no other worm's release collides with it). The top moves on once it is
// carried (a waiting top is also this edge's pick); the pick and its set are registered.
[[gnu::always_inline]] inline void TimingRouter::take_output_vcs(const Edge& e) {
  const std::uint64_t taken = e.sa_gnt & e.va_req;
  for (std::uint64_t g = taken; g != 0; g &= g - 1) allocated_ |= va_target_[lowest(g)];
  va_top_.update(e.va_pick, (e.va_top & taken) != 0);
  va_pick_q_ = e.va_pick;
  va_pick_set_q_ = e.va_pick != 0 ? va_target_[lowest(e.va_pick)] : 0;
}

// Crossbar, head rewrite and the network output units: their link registers and credits. A
// network port with no grant, no credit coming back and no valid output keeps its state.
[[gnu::always_inline]] inline void TimingRouter::traverse_network_outputs(const Edge& e) {
  const unsigned vcs = params_.vcs, net_ports = params_.net_ports, sh = vc_shift_;
  const std::uint64_t vc_mask = (std::uint64_t{1} << vcs) - 1;
  std::uint32_t credit_ports = 0;
  for (std::uint64_t c = credit_in_ & ((std::uint64_t{1} << (net_ports << sh)) - 1); c != 0;) {
    const unsigned o = lowest(c) >> sh;
    credit_ports |= 1u << o;
    c &= ~(vc_mask << (o << sh));
  }
  const std::uint32_t net_mask = (1u << net_ports) - 1;
  for (std::uint32_t set = (e.granted | credit_ports | out_valid_) & net_mask; set != 0; set &= set - 1) {
    const unsigned o = lowest(set);
    OutputUnit& u = net_out_[o];
    unsigned sent_vc = vcs;  // none
    if (e.out_gnt[o] != 0) {
      const unsigned i = e.out_gnt[o] - 1u;
      const unsigned j = (i << sh) + lowest(e.sa_gnt >> (i << sh));
      const InputVc& q = ivc_[j];
      sent_vc = out_vc(q, o);
      out_[o].valid = true;
      out_[o].vc = sent_vc;
      out_[o].flit = q.lead ? rewrite_head(q, o, front(j)) : front(j);
      out_valid_ |= 1u << o;
      if (front(j).tail) allocated_ &= ~(std::uint64_t{1} << ((o << sh) + sent_vc));
    } else {
      out_[o].valid = false;
      out_[o].vc = 0;
      out_valid_ &= ~(1u << o);
    }
    // Only the VCs that send or get a credit back: count_credit leaves the others as they are.
    const std::uint64_t back = (credit_in_ >> (o << sh)) & vc_mask;
    for (std::uint64_t w_set = back | (sent_vc < vcs ? std::uint64_t{1} << sent_vc : 0); w_set != 0;
         w_set &= w_set - 1) {
      const unsigned w = lowest(w_set);
      if (count_credit(u.credits[w], w == sent_vc, ((back >> w) & 1) != 0, params_.depth))
        errors_ |= kErrCreditOverflow;
    }
  }
}

// The ejection units: each local port's link register, the stream (input VC) of its flit, and its
// credits, one pool per port returned on VC 0's bit.
[[gnu::always_inline]] inline void TimingRouter::traverse_ejection_outputs(const Edge& e) {
  const unsigned net_ports = params_.net_ports, sh = vc_shift_;
  for (unsigned l = 0; l < params_.locals; ++l) {
    const unsigned p = net_ports + l;
    const bool send = e.out_gnt[p] != 0;
    if (send) {
      const unsigned i = e.out_gnt[p] - 1u;
      const unsigned j = (i << sh) + lowest(e.sa_gnt >> (i << sh));
      out_[p].flit = front(j);
      out_[p].stream = j;
      out_valid_ |= 1u << p;
    } else {
      out_valid_ &= ~(1u << p);
    }
    out_[p].valid = send;
    if (count_credit(eject_credits_[l], send, ((credit_in_ >> (p << sh)) & 1) != 0, params_.depth))
      errors_ |= kErrEjectCreditOverflow;
  }
}

// The input VC state machines and the pops of their buffers. The state and count are kept in
// locals and stored once (a byte store then a wider load of the same word stalls).
[[gnu::always_inline]] inline void TimingRouter::update_input_vcs(const Edge& e) {
  for (std::uint64_t b = e.busy; b != 0; b &= b - 1) {
    const unsigned j = lowest(b);
    InputVc& q = ivc_[j];
    const State was = q.state;
    unsigned count = q.count;
    if (was == State::kIdle && count == 0) continue;  // nothing to do, nothing arrived yet
    const bool popped = ((e.pop >> j) & 1) != 0;
    if (count != 0 && (was == State::kIdle || (was == State::kReroute && !q.seg.fixed))) {
      // The front's decision, stored when it arrived, is loaded (every VC in the same edge: no
      // VC waits for another's). In Reroute the local copy, once started, continues.
      const bool kept_eject = was == State::kReroute && q.seg.eject;
      enter_routed(q, front_decision(j), was == State::kIdle, wire::unpack_head(front(j).data).vc_class);
      q.seg.eject = q.seg.eject || kept_eject;
    } else if (was == State::kReroute && q.seg.fixed && count != 0) {
      // The next address flit of a regrouped source route leaves on the port already known.
      q.seg.net = 1u << q.seg.fixed_port;
      q.seg.spawn = 0;
      q.seg.vc_class = q.in_class;
      q.seg.shift = q.seg.promote = q.seg.fixed = false;
      q.first_seg = false;
      q.lead = true;
      q.state = State::kRouted;
    } else if (((e.go >> j) & 1) != 0 && (was == State::kActive || q.seg.net == 0 || popped)) {
      // A VC holds its output VCs (Active) from the edge its lead leaves; one without network
      // ports goes Active at once. After the tail it is Idle, after a promote segment's lead it
      // reroutes. A Routed lead the switch did not carry waits in Routed, holding nothing.
      State next = State::kActive;
      if (popped) {
        q.lead = false;
        if (front(j).tail) {
          next = State::kIdle;
        } else if (q.seg.promote) {
          next = State::kReroute;
        }
      }
      q.state = next;
    }
    if (popped) {
      q.first = static_cast<std::uint8_t>(q.first + 1u == params_.depth ? 0u : q.first + 1u);
      q.count = static_cast<std::uint8_t>(--count);
      --buffered_;
    }
    if (count == 0 && q.state == State::kIdle) busy_ &= ~(std::uint64_t{1} << j);
    active_vcs_ =
        q.state == State::kActive ? active_vcs_ | (std::uint64_t{1} << j) : active_vcs_ & ~(std::uint64_t{1} << j);
  }
}

// The buffer writes of the flits arriving on the links. A head is decided in its own class (the
// worm's arrival class from then on), an address flit a promotion reroutes in the worm's arrival
// class; the decision is stored beside the flit, and a VC routed on arrival loads it at once. A
// worm without a decision is counted here.
[[gnu::always_inline]] inline void TimingRouter::write_arrivals(const Edge& e) {
  const unsigned sh = vc_shift_;
  for (std::uint32_t set = in_valid_; set != 0; set &= set - 1) {
    const unsigned p = lowest(set);
    const TimingLink& in = in_[p];
    if (in.vc >= params_.vcs) continue;
    const unsigned j = (p << sh) + in.vc;
    InputVc& q = ivc_[j];
    // A flit into a buffer that was full before this edge had no credit upstream: the RTL drops it
    // (asserts, and keeps errors_o's flag).
    if (q.count + ((e.pop >> j) & 1) == params_.depth) {
      errors_ |= kErrBufferOverflow;
      continue;
    }
    Segment seg;
    const bool decided = q.arrive != Arrive::kBody;
    wire::HeadFields h{};
    if (decided) {
      h = wire::unpack_head(in.flit.data);
      if (q.arrive == Arrive::kHead) {
        q.arr_class = h.vc_class;
      } else {
        h.vc_class = q.arr_class;
      }
      seg = decide(p, h);
      if (!seg.valid && route_drops_ < kRouteDropsMax) ++route_drops_;
    }
    if (in.flit.tail) {
      q.arrive = Arrive::kHead;
    } else if (decided) {
      q.arrive = seg.promote && !seg.fixed ? Arrive::kAddress : Arrive::kBody;
    }
    const unsigned slot = q.first + q.count;
    const std::size_t at = j * params_.depth + (slot >= params_.depth ? slot - params_.depth : slot);
    fifo_[at] = in.flit;
    decision_[at] = seg;
    ++q.count;
    ++buffered_;
    busy_ |= std::uint64_t{1} << j;
    if (((e.routed_on_arrival >> j) & 1) != 0) enter_routed(q, seg, true, h.vc_class);
  }
}

// One clock edge: its stages in the order their signals flow (docs/timing.md, "How the model
// mirrors the RTL"). Each stage reads the earlier stages' signals from `e`; where one updates
// state that a later stage of the same edge reads (an ejection port chosen, output VCs taken and
// released), its comment says why that is the RTL's order.
void TimingRouter::clock() {
  // An idle router (empty buffers, nothing arriving, no credits moving, nothing on its links)
  // keeps its state: no request reaches any stage.
  if (quiescent() && inputs_idle()) return;
  if (busy_ == 0 && in_valid_ == 0) {
    idle_edge();
    return;
  }
  // Every stage visits only the busy VCs (busy_, taken before this edge) and the ports with a
  // valid input or output: the others are Idle and empty, and no stage has a request from them.
  Edge e;
  e.busy = busy_;
  e.routed_on_arrival = vcs_routed_on_arrival();
  e.va_req = request_output_vcs(e.busy & ~active_vcs_);
  e.va_ok = vc_admission(va_target_, e.va_req, e.va_pick, e.va_top);
  e.sa_req = request_switch(e);
  e.granted = allocate_switch(req_set_, e.sa_req, e.out_gnt, e.sa_gnt);
  e.pop = e.sa_gnt | e.drop;
  take_output_vcs(e);
  traverse_network_outputs(e);
  traverse_ejection_outputs(e);
  update_input_vcs(e);
  write_arrivals(e);
  credit_q_ = e.pop;
}

}  // namespace wormcast::model
