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
  fifo_.resize(static_cast<std::size_t>(in_vcs_) * params.depth);
  reset();
}

void TimingRouter::reset() {
  ivc_.fill(InputVc{});
  for (OutputUnit& o : net_out_) {
    o.allocated = 0;
    o.credits.fill(params_.depth);
  }
  eject_credits_.fill(params_.depth);
  out_.fill(TimingLink{});
  credit_q_ = 0;
  buffered_ = 0;
  route_drops_ = 0;
  errors_ = 0;
  va_top_.reset(in_vcs_);
  sa_token_.reset(ports());
  for (RrArbiter& a : sa_vc_) a.reset(params_.vcs);
  for (RrArbiter& a : sa_out_) a.reset(ports());
}

std::uint64_t TimingRouter::draining() const {
  std::uint64_t bits = 0;
  for (unsigned j = 0; j < in_vcs_; ++j) {
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

// A head decision registered: the VC is Routed with the flit at its front as the segment's lead.
// Without a decision the segment is empty and drains the worm to its tail (docs/rtl.md, "Drained
// worms"); the router counts the worm.
void TimingRouter::enter_routed(InputVc& q, const Segment& seg, bool first_seg, std::uint8_t head_class) {
  q.seg = seg;
  q.drain = !seg.valid;
  if (q.drain && route_drops_ < kRouteDropsMax) ++route_drops_;
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

// All-or-nothing output-VC allocation (docs/rtl.md, noc_vc_allocator): requesters in round-robin
// order from the top one; each reserves its targets against every later requester.
void TimingRouter::allocate_vcs(const std::array<std::uint64_t, kMaxInVcs>& target, std::uint64_t req,
                                std::uint64_t& gnt) {
  gnt = 0;
  if (req == 0) return;
  std::uint64_t busy = 0;
  for (unsigned o = 0; o < params_.net_ports; ++o) {
    busy |= static_cast<std::uint64_t>(net_out_[o].allocated) << (o * params_.vcs);
  }
  const std::uint64_t top = va_top_.grant(req);
  const unsigned first = static_cast<unsigned>(std::countr_zero(top));
  std::uint64_t reserved = 0;
  for (unsigned k = 0; k < in_vcs_; ++k) {
    const unsigned j = (first + k) % in_vcs_;
    if (((req >> j) & 1) == 0) continue;
    if ((target[j] & (busy | reserved)) == 0) gnt |= std::uint64_t{1} << j;
    reserved |= target[j];
  }
  va_top_.update(top, (top & gnt) != 0);
}

// Separable input-first switch allocation with all-or-nothing request sets and the token that
// beats the output arbiters (docs/rtl.md, noc_switch_allocator). out_gnt: the input + 1 granted
// per output (0: none); sa_gnt: the granted input VCs.
void TimingRouter::allocate_switch(const std::array<std::uint32_t, kMaxInVcs>& req_set,
                                   std::array<std::uint8_t, kMaxPorts>& out_gnt, std::uint64_t& sa_gnt) {
  const unsigned ports = this->ports(), vcs = params_.vcs;
  std::array<std::uint32_t, kMaxPorts> pick_req{};
  std::array<std::uint64_t, kMaxPorts> pick{};
  std::uint64_t active = 0;
  for (unsigned i = 0; i < ports; ++i) {
    std::uint64_t vc_req = 0;
    for (unsigned v = 0; v < vcs; ++v) {
      if (req_set[i * vcs + v] != 0) vc_req |= std::uint64_t{1} << v;
    }
    if (vc_req == 0) continue;
    active |= std::uint64_t{1} << i;
    pick[i] = sa_vc_[i].grant(vc_req);
    pick_req[i] = req_set[i * vcs + static_cast<unsigned>(std::countr_zero(pick[i]))];
  }
  sa_gnt = 0;
  out_gnt.fill(0);
  if (active == 0) return;
  const std::uint64_t token = sa_token_.grant(active);
  std::array<std::uint64_t, kMaxPorts> want{}, arb{}, tent{};
  for (std::uint64_t in = active; in != 0; in &= in - 1) {
    const unsigned i = static_cast<unsigned>(std::countr_zero(in));
    for (std::uint32_t set = pick_req[i]; set != 0; set &= set - 1) {
      want[static_cast<unsigned>(std::countr_zero(set))] |= std::uint64_t{1} << i;
    }
  }
  for (unsigned o = 0; o < ports; ++o) {
    if (want[o] == 0) continue;
    arb[o] = sa_out_[o].grant(want[o]);
    tent[o] = (want[o] & token) != 0 ? token : arb[o];
  }
  std::uint64_t win = 0;
  for (unsigned i = 0; i < ports; ++i) {
    if (((active >> i) & 1) == 0) continue;
    bool all = true;
    for (std::uint32_t set = pick_req[i]; set != 0; set &= set - 1) {
      all = all && ((tent[static_cast<unsigned>(std::countr_zero(set))] >> i) & 1) != 0;
    }
    if (all) win |= std::uint64_t{1} << i;
  }
  if (hold_first_grant_ > 0 && win != 0) {
    --hold_first_grant_;
    win = 0;  // test-only: nothing leaves this cycle
  }
  for (unsigned o = 0; o < ports; ++o) {
    const std::uint64_t g = tent[o] & win;
    if (g != 0) out_gnt[o] = static_cast<std::uint8_t>(std::countr_zero(g) + 1);
    sa_out_[o].update(arb[o], (arb[o] & g) != 0);
  }
  for (unsigned i = 0; i < ports; ++i) {
    const bool won = ((win >> i) & 1) != 0;
    sa_vc_[i].update(pick[i], won);
    if (won) sa_gnt |= pick[i] << (i * vcs);
  }
  sa_token_.update(token, true);
}

bool TimingRouter::quiescent() const {
  if (buffered_ != 0 || credit_q_ != 0) return false;
  for (unsigned p = 0; p < ports(); ++p) {
    if (out_[p].valid) return false;
  }
  return true;
}

bool TimingRouter::inputs_idle() const {
  if (credit_in_ != 0) return false;
  for (unsigned p = 0; p < ports(); ++p) {
    if (in_[p].valid) return false;
  }
  return true;
}

void TimingRouter::clock() {
  // An idle router (empty buffers, nothing arriving, no credits moving, nothing on its links)
  // keeps its state: no request reaches any stage.
  if (quiescent() && inputs_idle()) return;
  const unsigned ports = this->ports(), vcs = params_.vcs, net_ports = params_.net_ports;

  // Stage 1, per input port: the lowest VC with a head at an Idle front, or a Reroute VC with a
  // flit to route, uses the port's route compute and head decision; when there is none, a head
  // arriving into an Idle, empty VC does (route on arrival: decided in the edge that writes it).
  std::array<int, kMaxPorts> rc_vc{}, arr_vc{};
  std::array<Segment, kMaxPorts> rc_seg{};
  std::array<std::uint8_t, kMaxPorts> rc_class{};
  for (unsigned i = 0; i < ports; ++i) {
    rc_vc[i] = arr_vc[i] = -1;
    for (unsigned v = 0; v < vcs; ++v) {
      const InputVc& q = ivc_[i * vcs + v];
      if (q.count == 0) continue;
      if ((q.state == State::kIdle && front(i * vcs + v).head) || (q.state == State::kReroute && !q.seg.fixed)) {
        wire::HeadFields h = wire::unpack_head(front(i * vcs + v).data);
        rc_class[i] = h.vc_class;
        // A promoted address flit routes in the class the worm arrived in.
        if (q.state == State::kReroute) h.vc_class = q.in_class;
        rc_vc[i] = static_cast<int>(v);
        rc_seg[i] = decide(i, h);
        break;
      }
    }
    const TimingLink& in = in_[i];
    if (rc_vc[i] < 0 && in.valid && in.vc < vcs && in.flit.head) {
      const InputVc& q = ivc_[i * vcs + in.vc];
      if (q.state == State::kIdle && q.count == 0) {
        const wire::HeadFields h = wire::unpack_head(in.flit.data);
        rc_class[i] = h.vc_class;
        arr_vc[i] = static_cast<int>(in.vc);
        rc_seg[i] = decide(i, h);
      }
    }
  }

  // Ejection port of a worm whose first segment is Routed: the first local port from (input port
  // mod locals) on with a credit before this edge, used by its switch requests from this cycle on
  // and kept to the tail.
  for (unsigned j = 0; j < in_vcs_; ++j) {
    InputVc& q = ivc_[j];
    if (q.state != State::kRouted || !q.first_seg) continue;
    const unsigned i = j / vcs;
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

  // Stage 2: VC allocation for the Routed VCs with network ports.
  // Only the first in_vcs_ entries are used (set below): no per-cycle clearing of the rest.
  std::array<std::uint64_t, kMaxInVcs> target;
  std::uint64_t va_req = 0;
  for (unsigned j = 0; j < in_vcs_; ++j) {
    const InputVc& q = ivc_[j];
    target[j] = 0;
    if (q.state != State::kRouted || q.seg.net == 0) continue;
    va_req |= std::uint64_t{1} << j;
    for (std::uint32_t set = q.seg.net; set != 0; set &= set - 1) {
      const unsigned o = static_cast<unsigned>(std::countr_zero(set));
      target[j] |= std::uint64_t{1} << (o * vcs + out_vc(q, o));
    }
  }
  std::uint64_t va_gnt = 0;
  allocate_vcs(target, va_req, va_gnt);

  // Stage 3: the VCs that go (Active; Routed and granted this cycle, or without network ports)
  // request the switch for their front flit, or drop it.
  std::array<std::uint32_t, kMaxInVcs> req_set{};
  std::uint64_t go = 0, drop = 0;
  for (unsigned j = 0; j < in_vcs_; ++j) {
    const InputVc& q = ivc_[j];
    const bool goes =
        q.state == State::kActive || (q.state == State::kRouted && (q.seg.net == 0 || ((va_gnt >> j) & 1) != 0));
    if (!goes) continue;
    go |= std::uint64_t{1} << j;
    if (q.count == 0) continue;
    if (q.seg.net == 0 && !q.seg.eject) {
      // A drained worm's flits, or a used-up source-route head that delivers nowhere.
      drop |= std::uint64_t{1} << j;
      continue;
    }
    // A flit requests all of its outputs only when each has a credit (synchronous replication).
    bool ok = !q.seg.eject || eject_credits_[q.ej_port] > 0;
    for (std::uint32_t set = q.seg.net; set != 0 && ok; set &= set - 1) {
      const unsigned o = static_cast<unsigned>(std::countr_zero(set));
      ok = net_out_[o].credits[out_vc(q, o)] > 0;
    }
    if (ok) req_set[j] = q.seg.net | (q.seg.eject ? 1u << (net_ports + q.ej_port) : 0u);
  }
  std::array<std::uint8_t, kMaxPorts> out_gnt{};
  std::uint64_t sa_gnt = 0;
  allocate_switch(req_set, out_gnt, sa_gnt);
  const std::uint64_t pop = sa_gnt | drop;

  // VC allocation takes effect first: a worm's lead may leave in its grant's cycle, and a one-flit
  // worm then releases its VCs in the same edge (a granted VC was free, so no other worm's
  // release collides with it).
  for (std::uint64_t g = va_gnt; g != 0; g &= g - 1) {
    const unsigned j = static_cast<unsigned>(std::countr_zero(g));
    for (std::uint64_t t = target[j]; t != 0; t &= t - 1) {
      const unsigned k = static_cast<unsigned>(std::countr_zero(t));
      net_out_[k / vcs].allocated |= 1u << (k % vcs);
    }
  }

  // Stage 4: crossbar, head rewrite, output and ejection units (their link registers and credits).
  for (unsigned o = 0; o < net_ports; ++o) {
    OutputUnit& u = net_out_[o];
    unsigned sent_vc = params_.vcs;  // none
    if (out_gnt[o] != 0) {
      const unsigned i = out_gnt[o] - 1u;
      const unsigned j = i * vcs + static_cast<unsigned>(std::countr_zero(sa_gnt >> (i * vcs)));
      const InputVc& q = ivc_[j];
      sent_vc = out_vc(q, o);
      out_[o].valid = true;
      out_[o].vc = sent_vc;
      out_[o].flit = q.lead ? rewrite_head(q, o, front(j)) : front(j);
      if (front(j).tail) u.allocated &= ~(1u << sent_vc);
    } else {
      out_[o].valid = false;
      out_[o].vc = 0;
    }
    for (unsigned w = 0; w < vcs; ++w) {
      if (count_credit(u.credits[w], w == sent_vc, ((credit_in_ >> (o * vcs + w)) & 1) != 0, params_.depth))
        errors_ |= kErrCreditOverflow;
    }
  }
  for (unsigned l = 0; l < params_.locals; ++l) {
    const unsigned p = net_ports + l;
    const bool send = out_gnt[p] != 0;
    if (send) {
      const unsigned i = out_gnt[p] - 1u;
      const unsigned j = i * vcs + static_cast<unsigned>(std::countr_zero(sa_gnt >> (i * vcs)));
      out_[p].flit = front(j);
      out_[p].stream = j;
    }
    out_[p].valid = send;
    // An ejection port's credits are one pool, returned on VC 0's bit.
    if (count_credit(eject_credits_[l], send, ((credit_in_ >> (p * vcs)) & 1) != 0, params_.depth))
      errors_ |= kErrEjectCreditOverflow;
  }

  // Input VC state machines, buffers and the credits back to the senders.
  for (unsigned j = 0; j < in_vcs_; ++j) {
    InputVc& q = ivc_[j];
    const State was = q.state;
    if (was == State::kIdle && q.count == 0) continue;  // nothing to do, nothing arrived yet
    const unsigned i = j / vcs, v = j - i * vcs;
    if (rc_vc[i] == static_cast<int>(v)) {
      const bool kept_eject = was == State::kReroute && q.seg.eject;
      enter_routed(q, rc_seg[i], was == State::kIdle, rc_class[i]);
      q.seg.eject = q.seg.eject || kept_eject;
    } else if (was == State::kReroute && q.seg.fixed && q.count != 0) {
      // The next address flit of a regrouped source route leaves on the port already known.
      q.seg.net = 1u << q.seg.fixed_port;
      q.seg.spawn = 0;
      q.seg.vc_class = q.in_class;
      q.seg.shift = q.seg.promote = q.seg.fixed = false;
      q.first_seg = false;
      q.lead = true;
      q.state = State::kRouted;
    } else if (((go >> j) & 1) != 0) {
      // A VC that goes holds its output VCs (Active) until its lead leaves; after the tail it is
      // Idle, after a promote segment's lead it reroutes.
      q.state = State::kActive;
      if (((pop >> j) & 1) != 0) {
        q.lead = false;
        if (front(j).tail) {
          q.state = State::kIdle;
        } else if (q.seg.promote) {
          q.state = State::kReroute;
        }
      }
    }
    if (((pop >> j) & 1) != 0) {
      if (++q.first == params_.depth) q.first = 0;
      --q.count;
      --buffered_;
    }
  }
  for (unsigned p = 0; p < ports; ++p) {
    const TimingLink& in = in_[p];
    if (!in.valid || in.vc >= vcs) continue;
    const unsigned j = p * vcs + in.vc;
    InputVc& q = ivc_[j];
    // A flit into a buffer that was full before this edge had no credit upstream: the RTL drops it
    // (asserts, and keeps errors_o's flag).
    if (q.count + ((pop >> j) & 1) == params_.depth) {
      errors_ |= kErrBufferOverflow;
      continue;
    }
    const unsigned slot = q.first + q.count;
    fifo_[j * params_.depth + (slot >= params_.depth ? slot - params_.depth : slot)] = in.flit;
    ++q.count;
    ++buffered_;
    if (arr_vc[p] == static_cast<int>(in.vc)) enter_routed(q, rc_seg[p], true, rc_class[p]);
  }
  credit_q_ = pop;
}

}  // namespace wormcast::model
