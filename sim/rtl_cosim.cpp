#include "sim/rtl_cosim.hpp"

#include <fmt/format.h>
#include <verilated.h>

#include <algorithm>
#include <array>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>

#include "firmware/message.hpp"
#include "firmware/node_firmware.hpp"
#include "model/cpr_broadcast.hpp"
#include "model/errors.hpp"
#include "model/labeling.hpp"
#include "sim/model_router.hpp"
#include "sim/network_waveform.hpp"
#include "sim/router_network.hpp"
#include "sim/rtl_router.hpp"

namespace wormcast::sim {
namespace {

using model::NodeId;

constexpr std::size_t kSendQueue = 8;  // messages each injection channel's queue holds

const std::map<std::string, fw::Algorithm>& firmware_algorithms() {
  static const std::map<std::string, fw::Algorithm> names{{"unicast", fw::Algorithm::kUnicast},
                                                          {"one-port", fw::Algorithm::kOnePort},
                                                          {"two-port", fw::Algorithm::kTwoPort},
                                                          {"d-port", fw::Algorithm::kDPort},
                                                          {"rd", fw::Algorithm::kRecursiveDoubling},
                                                          {"edn", fw::Algorithm::kEdn},
                                                          {"vh", fw::Algorithm::kVh},
                                                          {"diag", fw::Algorithm::kDiag},
                                                          {"dds", fw::Algorithm::kDds},
                                                          {"min", fw::Algorithm::kMin},
                                                          {"lin", fw::Algorithm::kLin},
                                                          {"dual-path", fw::Algorithm::kDualPath},
                                                          {"multi-path", fw::Algorithm::kMultiPath},
                                                          {"uniform", fw::Algorithm::kUniform},
                                                          {"fixed", fw::Algorithm::kFixed},
                                                          {"pcp", fw::Algorithm::kPcp},
                                                          {"3dbs", fw::Algorithm::kThreeDbs},
                                                          {"3dbl", fw::Algorithm::kThreeDbl},
                                                          {"xy-path", fw::Algorithm::kXyPath},
                                                          {"xy-path-x-first", fw::Algorithm::kXyPathXFirst}};
  return names;
}

// The two ejection adapters. Ejection ports carry eject_stream_o (the router input VC a flit comes
// from; flits of different worms interleave per flit) and take one pooled credit, returned on VC 0.
// The stream an ejected flit belongs to (the depacketizer's key): per ejection port, since
// consecutive worms of one input VC may leave on different ejection ports.
unsigned ejection_stream(unsigned local_port, const Link& link) { return local_port * 64u + link.stream; }
// The VC whose credit the flit's buffer slot returns: the port's pool.
unsigned ejection_credit_vc(const Link&) { return 0; }

// The VC a worm travels in from its injection: the router maps class bit 0 to the VC (docs/rtl.md).
unsigned injection_vc(const wire::HeadFields& head) { return head.vc_class & 1u; }

std::uint64_t mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

int port_count(const model::Request& r) {
  switch (r.ports.kind) {
    case model::PortModelKind::kOnePort:
      return 1;
    case model::PortModelKind::kTwoPort:
      return 2;
    case model::PortModelKind::kAllPort:
      return r.topology.port_count();
    case model::PortModelKind::kDPort:
      return r.ports.count;
  }
  return 1;
}

// The channels the algorithm injects on: rd uses one port whatever the model says.
int channels_used(const model::Request& r) { return r.algorithm == "rd" ? 1 : port_count(r); }

class Cosim;

// A message being sent on one injection channel.
struct Outgoing {
  std::vector<wire::Flit> flits;
  std::size_t next = 0;
  long queued = 0;
  long ready = -1;  // cycle the start-up ends (set when it reaches the front)
  int worm = -1;    // index into RunRecord::worms
};

// One node: its firmware, its network interface (the fw::NetworkInterface the firmware sees) and
// its processor's timing.
class Node final : public fw::NetworkInterface {
 public:
  Node(Cosim& cosim, NodeId id, unsigned channels)
      : cosim_(cosim),
        id_(id),
        queues_(channels),
        credits_(channels, {static_cast<int>(kRouterDepth), static_cast<int>(kRouterDepth)}),
        channel_free_(channels, 0),
        eject_(channels) {}

  unsigned channels() const override { return static_cast<unsigned>(queues_.size()); }
  bool can_send(unsigned k) const override { return k < queues_.size() && queues_[k].size() < kSendQueue; }
  bool send(unsigned k, const std::uint64_t* header, std::uint32_t header_flits, const std::uint64_t* payload,
            std::uint32_t words) override;
  void deliver(std::uint32_t multicast, const std::uint64_t* data, std::uint32_t words) override;
  std::uint64_t cycle() const override;

  fw::NodeFirmware firmware;

  // Per cycle, in this order.
  void take_ejected(unsigned local, const Link& link);
  std::uint32_t drain_ejection(std::mt19937_64& rng, double stall);  // credits for the router
  void run_processor();
  bool inject(unsigned k, Link& out, std::uint32_t credit_bits);
  bool busy() const;
  std::string state() const;

 private:
  struct Received {
    wire::HeadFields head;
    std::vector<std::uint64_t> payload;
  };
  void message_complete(unsigned local, unsigned stream);

  Cosim& cosim_;
  NodeId id_;
  std::vector<std::deque<Outgoing>> queues_;
  std::vector<std::array<int, kRouterVcs>> credits_;  // per injection channel and VC
  std::vector<long> channel_free_;
  // Ejection: flits the router delivered, per local port and credit VC (at most kRouterDepth each).
  struct Ejected {
    wire::Flit flit;
    unsigned stream = 0;
  };
  std::vector<std::array<std::deque<Ejected>, kRouterVcs>> eject_;
  std::map<unsigned, std::vector<wire::Flit>> streams_;  // depacketizer, per ejection stream
  std::deque<Received> received_;
  bool processing_ = false;
  long processor_ready_ = 0;
  unsigned next_drain_vc_ = 0;

  friend class Cosim;
};

class Cosim {
 public:
  Cosim(const std::vector<model::Plan>& plans, const RtlRunOptions& options);
  RunRecord run();

  long cycle = 0;
  RunRecord record;
  const RtlRunOptions options;
  const std::vector<model::Plan>& plans;
  std::vector<std::vector<std::uint64_t>> data;  // per multicast

  void error(std::string message) {
    if (record.errors.size() < 8) record.errors.push_back(std::move(message));
  }
  int register_worm(NodeId sender, unsigned channel, const wire::HeadFields& head, const std::uint64_t* payload,
                    std::uint32_t words);
  bool live(int worm) const { return live_.count(worm) != 0; }
  // The worm's head entered its sender's router: from now on the monitor looks for it there. Not
  // when it is queued: a source queues more worms than its 4-bit tags tell apart (separate
  // addressing's broadcast queues 32 on 4 channels), and only the injected ones are at the router.
  void head_injected(int worm, NodeId sender) { live_[worm].insert(sender); }
  void decode_source_route(int worm, const std::uint64_t* header, std::uint32_t flits);
  NodeId addressed(const wire::HeadFields& head) const;
  const model::Topology& topology() const { return topology_; }

 private:
  void configure(NodeId n, RouterModel& r);
  int find_worm(NodeId at, const wire::Flit& head, const char* where);
  void monitor(NodeId r, unsigned port, const Link& link);
  bool finished() const;
  std::string stall_report() const;
  void tick();

  model::Topology topology_;
  model::HamiltonianLabeling labels_;
  std::vector<std::uint16_t> star_labels_;  // star graphs: each node's cycle label, the firmware's configuration
  std::unique_ptr<VerilatedContext> context_;
  std::unique_ptr<NetworkWaveform> wave_;  // --trace; before routers_, which record into it
  std::vector<std::unique_ptr<RouterModel>> routers_;
  std::vector<std::unique_ptr<Node>> nodes_;
  // A copy ejected at router r with this head is the last one of its branch there.
  bool final_copy(const wire::HeadFields& head, NodeId r) const;
  bool start_multicast(std::size_t i);
  bool admit_next_replicating();
  void left_router(int worm, NodeId r);
  void ejected(NodeId r, const Link& link);

  // worm -> the routers holding one of its heads: one for a plain worm, one per branch of a worm
  // the routers replicate (PCP's spine spawns +-X branches under the spine's src and tag).
  std::map<int, std::multiset<NodeId>> live_;
  std::set<int> departed_;  // worms whose heads left the router being read this cycle
  std::set<int> absorbed_;  // worms whose last copy at that router was ejected this cycle
  std::mt19937_64 rng_;
  unsigned locals_ = 1;
  // Replication admission (RtlRunOptions::replication_admission): the replicating multicast in
  // flight and those waiting for it, in request order.
  std::optional<std::size_t> admitted_replication_;
  std::deque<std::size_t> waiting_replication_;
  std::vector<RouterConfig> configs_;
};

// ---------------------------------------------------------------------------------------------
// Node

std::uint64_t Node::cycle() const { return static_cast<std::uint64_t>(cosim_.cycle); }

bool Node::send(unsigned k, const std::uint64_t* header, std::uint32_t header_flits, const std::uint64_t* payload,
                std::uint32_t words) {
  if (!can_send(k) || header == nullptr || header_flits == 0) return false;
  const wire::HeadFields head = wire::unpack_head(header[0]);
  if (head.more + 1u != header_flits) return false;
  // The node a worm is for: its first header flit, or the real head behind a source-routed prefix
  // (a first hop the routing function would not take).
  const bool prefixed = header_flits > 1 && head.mode == wire::Mode::kSourceRouted &&
                        wire::unpack_head(header[1]).mode != wire::Mode::kSourceRouted;
  const wire::HeadFields routing = prefixed ? wire::unpack_head(header[1]) : head;
  Outgoing out;
  for (std::uint32_t i = 0; i < header_flits; ++i) {
    out.flits.push_back({i == 0, words == 0 && i + 1 == header_flits, header[i]});
  }
  for (std::uint32_t i = 0; i < words; ++i) out.flits.push_back({false, i + 1 == words, payload[i]});
  out.queued = cosim_.cycle;
  out.worm = cosim_.register_worm(id_, k, routing, payload, words);
  if (routing.mode == wire::Mode::kSourceRouted) cosim_.decode_source_route(out.worm, header, header_flits);
  queues_[k].push_back(std::move(out));
  return true;
}

void Node::deliver(std::uint32_t multicast, const std::uint64_t* data, std::uint32_t words) {
  Delivery d;
  d.multicast = static_cast<int>(multicast);
  d.node = id_;
  d.cycle = cosim_.cycle;
  if (multicast < cosim_.data.size()) {
    const std::vector<std::uint64_t>& want = cosim_.data[multicast];
    d.payload_ok = want.size() == words && std::equal(want.begin(), want.end(), data);
  }
  cosim_.record.deliveries.push_back(d);
}

void Node::take_ejected(unsigned local, const Link& link) {
  const unsigned vc = ejection_credit_vc(link);
  std::deque<Ejected>& buffer = eject_[local][vc];
  if (buffer.size() >= kRouterDepth) {
    cosim_.error(fmt::format("node {} ejection port {} VC {}: a flit without a credit at cycle {}", id_, local, vc,
                             cosim_.cycle));
  }
  buffer.push_back({link.flit, ejection_stream(local, link)});
}

// Every ejection port takes at most one flit per cycle (round robin over its VCs) unless the
// random back-pressure holds it; each flit taken returns a credit.
std::uint32_t Node::drain_ejection(std::mt19937_64& rng, double stall) {
  std::uint32_t credits = 0;
  std::uniform_real_distribution<double> u(0, 1);
  for (unsigned local = 0; local < eject_.size(); ++local) {
    if (stall > 0 && u(rng) < stall) continue;
    for (unsigned i = 0; i < kRouterVcs; ++i) {
      const unsigned vc = (next_drain_vc_ + i) % kRouterVcs;
      std::deque<Ejected>& buffer = eject_[local][vc];
      if (buffer.empty()) continue;
      wire::Flit flit = buffer.front().flit;
      const unsigned stream = buffer.front().stream;
      buffer.pop_front();
      credits |= 1u << (local * kRouterVcs + vc);
      std::vector<wire::Flit>& got = streams_[stream];
      if (flit.head != got.empty()) {
        cosim_.error(fmt::format("node {} ejection stream {}: {} flit {} a worm at cycle {}", id_, stream,
                                 flit.head ? "head" : "body", flit.head ? "inside" : "outside", cosim_.cycle));
        break;
      }
      if (flit.tail && !flit.head && id_ == cosim_.options.corrupt_tail_at) flit.data ^= 1;
      got.push_back(flit);
      if (flit.tail) message_complete(local, stream);
      break;
    }
  }
  next_drain_vc_ = (next_drain_vc_ + 1) % kRouterVcs;
  return credits;
}

void Node::message_complete(unsigned local, unsigned stream) {
  std::vector<wire::Flit>& got = streams_[stream];
  Received r;
  r.head = wire::unpack_head(got.front().data);
  // An ejected copy is the head, its `more` address flits, then the payload (docs/header-format.md).
  for (std::size_t i = 1 + r.head.more; i < got.size(); ++i) r.payload.push_back(got[i].data);
  got.clear();
  fw::MessageInfo info;
  if (!fw::decode_control(r.payload.data(), static_cast<std::uint32_t>(r.payload.size()), info)) {
    cosim_.error(fmt::format("node {} ejection port {}: a worm from node {} whose payload does not decode (cycle {})",
                             id_, local, r.head.src, cosim_.cycle));
    return;
  }
  // The monitor followed the head here; the payload names the worm too: they must agree.
  bool matched = false;
  for (std::size_t i = 0; i < cosim_.record.worms.size() && !matched; ++i) {
    RtlWorm& w = cosim_.record.worms[i];
    if (w.sender != static_cast<NodeId>(r.head.src) || w.sequence != info.sequence) continue;
    for (std::size_t c = 0; c < w.copies.size() && !matched; ++c) {
      if (w.copies[c].node != id_ || w.copies[c].tail_cycle >= 0) continue;
      w.copies[c].tail_cycle = cosim_.cycle;
      matched = true;
    }
    // The worm is done when no head of it is left in the network and every copy is taken in.
    const bool all_in =
        std::all_of(w.copies.begin(), w.copies.end(), [](const EjectedCopy& c) { return c.tail_cycle >= 0; });
    if (matched && all_in && !cosim_.live(static_cast<int>(i))) w.eject_cycle = cosim_.cycle;
  }
  if (!matched) {
    cosim_.error(
        fmt::format("node {}: ejected worm from node {} sequence {} (cycle {}) does not match the worm the "
                    "monitor followed here",
                    id_, r.head.src, info.sequence, cosim_.cycle));
  }
  received_.push_back(std::move(r));
}

// The processor: receives one message at a time, gamma cycles each, then runs the firmware.
void Node::run_processor() {
  for (;;) {
    if (processing_ && cosim_.cycle >= processor_ready_) {
      Received r = std::move(received_.front());
      received_.pop_front();
      processing_ = false;
      const fw::Status s =
          firmware.on_message_received(r.head, r.payload.data(), static_cast<std::uint32_t>(r.payload.size()));
      if (s != fw::Status::kOk) {
        cosim_.error(fmt::format("node {} firmware rejected a message from node {} at cycle {}: {}", id_, r.head.src,
                                 cosim_.cycle, fw::to_string(s)));
      }
    }
    if (processing_ || received_.empty()) return;
    processing_ = true;
    processor_ready_ = cosim_.cycle + cosim_.options.gamma;
  }
}

// Channel k's next flit, if its message's start-up is over and its VC has a credit.
bool Node::inject(unsigned k, Link& out, std::uint32_t credit_bits) {
  for (unsigned v = 0; v < kRouterVcs; ++v) credits_[k][v] += (credit_bits >> v) & 1;
  if (queues_[k].empty()) return false;
  Outgoing& m = queues_[k].front();
  if (m.ready < 0) m.ready = std::max(m.queued, channel_free_[k]) + cosim_.options.alpha;
  if (cosim_.cycle < m.ready) return false;
  const wire::Flit& flit = m.flits[m.next];
  const unsigned vc = injection_vc(wire::unpack_head(m.flits.front().data));
  if (credits_[k][vc] == 0) return false;
  --credits_[k][vc];
  out = Link{true, vc, flit};
  if (m.next == 0) {
    cosim_.record.worms[static_cast<std::size_t>(m.worm)].inject_cycle = cosim_.cycle;
    cosim_.head_injected(m.worm, id_);
  }
  if (++m.next == m.flits.size()) {
    const bool was_full = queues_[k].size() >= kSendQueue;
    queues_[k].pop_front();
    channel_free_[k] = cosim_.cycle + 1;
    if (was_full) firmware.on_channel_free();
  }
  return true;
}

bool Node::busy() const {
  if (processing_ || !received_.empty()) return true;
  for (const auto& q : queues_) {
    if (!q.empty()) return true;
  }
  for (const auto& port : eject_) {
    for (const auto& buffer : port) {
      if (!buffer.empty()) return true;
    }
  }
  for (const auto& [stream, flits] : streams_) {
    if (!flits.empty()) return true;
  }
  return false;
}

std::string Node::state() const {
  std::string s;
  const std::string name = cosim_.topology().node_name(id_);
  for (std::size_t k = 0; k < queues_.size(); ++k) {
    if (!queues_[k].empty()) s += fmt::format(" node {} channel {}: {} message(s) queued;", name, k, queues_[k].size());
  }
  for (const auto& [stream, flits] : streams_) {
    if (!flits.empty()) s += fmt::format(" node {} stream {}: {} flit(s) of a worm;", name, stream, flits.size());
  }
  for (std::size_t local = 0; local < eject_.size(); ++local) {
    for (unsigned vc = 0; vc < kRouterVcs; ++vc) {
      const std::size_t held = eject_[local][vc].size();
      if (held != 0) s += fmt::format(" node {} ejection port {} VC {}: {} flit(s) not taken;", name, local, vc, held);
    }
  }
  return s;
}

// ---------------------------------------------------------------------------------------------
// Cosim

Cosim::Cosim(const std::vector<model::Plan>& p, const RtlRunOptions& o)
    : options(o),
      plans(p),
      topology_(p.front().request.topology),
      labels_(router_labeling(topology_)),
      // Only the RTL backend needs a Verilator context (and never two alive in one process).
      context_(o.backend == Backend::kRtl ? std::make_unique<VerilatedContext>() : nullptr),
      rng_(o.seed) {
  if (context_) context_->fatalOnError(false);
  for (const model::Plan& plan : plans) {
    locals_ = std::max(locals_, static_cast<unsigned>(channels_used(plan.request)));
  }
  const int n = topology_.node_count();
  // A star graph's firmware gets the cycle's labels with its configuration (docs/firmware.md).
  for (NodeId node = 0; topology_.is_star() && node < n; ++node) {
    star_labels_.push_back(static_cast<std::uint16_t>(labels_.label(node)));
  }
  if (!options.trace_path.empty()) wave_ = std::make_unique<NetworkWaveform>(options.trace_path);
  for (NodeId node = 0; node < n; ++node) {
    const unsigned net = static_cast<unsigned>(topology_.port_count());
    const std::string name = fmt::format("router{}", node);
    auto router = context_ ? make_router(context_.get(), net, locals_, name) : make_model_router(net, locals_, name);
    if (!context_ && node == options.perturb_model_at) perturb_model_router(*router, 1);
    routers_.push_back(wave_ ? wave_->record(std::move(router), name) : std::move(router));
    configure(node, *routers_.back());
    // The node sees every local pair its router has: the router ejects on any of them.
    nodes_.push_back(std::make_unique<Node>(*this, node, routers_.back()->locals()));
    fw::NodeConfig config;
    config.grid.kind = topology_.is_star()    ? fw::GridKind::kStar
                       : topology_.is_torus() ? fw::GridKind::kTorus
                                              : fw::GridKind::kMesh;
    config.grid.dims = static_cast<std::uint8_t>(topology_.dimensions());
    if (topology_.is_star()) {
      config.grid.star_order = static_cast<std::uint8_t>(topology_.star_order());
      config.grid.star_labels = star_labels_.data();
    }
    for (int d = 0; d < topology_.dimensions(); ++d) {
      config.grid.size[d] = static_cast<std::uint16_t>(topology_.size(d));
    }
    config.node = static_cast<std::uint32_t>(node);
    if (nodes_.back()->firmware.init(config, nodes_.back().get()) != fw::Status::kOk) {
      throw model::UnsupportedError(fmt::format("the firmware cannot run on {}", topology_.spec()));
    }
  }
  for (auto& r : routers_) {
    r->set_clock(false);
    r->set_reset(true);
  }
  tick();
  for (auto& r : routers_) r->set_reset(false);
}

void Cosim::configure(NodeId node, RouterModel& r) {
  if (configs_.empty()) configs_ = router_configs(topology_);
  r.configure(configs_[static_cast<std::size_t>(node)]);
}

NodeId Cosim::addressed(const wire::HeadFields& head) const {
  if (head.mode == wire::Mode::kHamiltonianPath || head.mode == wire::Mode::kHamiltonianCycle) {
    for (NodeId n = 0; n < topology_.node_count(); ++n) {
      if (labels_.label(n) == static_cast<int>(head.dest)) return n;
    }
    return model::kNoNode;
  }
  if (head.mode == wire::Mode::kSourceRouted) return model::kNoNode;  // decode_source_route names it
  const wire::Coords c = wire::unpack_coord_dest(head.dest);
  return topology_.node_at({c.x, c.y, c.z});
}

int Cosim::register_worm(NodeId sender, unsigned channel, const wire::HeadFields& head, const std::uint64_t* payload,
                         std::uint32_t words) {
  RtlWorm w;
  fw::MessageInfo info;
  if (fw::decode_control(payload, words, info)) {
    w.multicast = info.multicast;
    w.step = info.step;
    w.sequence = info.sequence;
  } else {
    w.multicast = -1;
    error(fmt::format("node {} sent a message whose payload does not decode (cycle {})", sender, cycle));
  }
  w.sender = sender;
  w.addressed = addressed(head);
  w.channel = static_cast<int>(channel);
  record.worms.push_back(std::move(w));
  return static_cast<int>(record.worms.size()) - 1;
}

// The live worm whose head is at router `at` and carries this head's (src, tag).
int Cosim::find_worm(NodeId at, const wire::Flit& flit, const char* where) {
  const wire::HeadFields h = wire::unpack_head(flit.data);
  int found = -1;
  for (const auto& [worm, positions] : live_) {
    const RtlWorm& w = record.worms[static_cast<std::size_t>(worm)];
    if (positions.count(at) == 0 || w.sender != static_cast<NodeId>(h.src) || (w.sequence & 0xF) != h.tag) continue;
    if (found >= 0) {
      error(fmt::format("{} of node {} at cycle {}: two worms from node {} with tag {} are at this router", where, at,
                        cycle, h.src, h.tag));
    }
    found = worm;
  }
  if (found < 0) {
    error(fmt::format("{} of node {} at cycle {}: a head from node {} tag {} that no worm at this router carries",
                      where, at, cycle, h.src, h.tag));
  }
  return found;
}

void Cosim::monitor(NodeId r, unsigned port, const Link& link) {
  if (!link.flit.head) return;
  const int worm = find_worm(r, link.flit, "output link");
  if (worm < 0) return;
  RtlWorm& w = record.worms[static_cast<std::size_t>(worm)];
  w.hops.push_back({r, static_cast<model::Port>(port), wire::unpack_head(link.flit.data).vc_class});
  w.hop_cycles.push_back(cycle);
  live_[worm].insert(topology_.neighbour(r, static_cast<model::Port>(port)));
  departed_.insert(worm);  // the head(s) it sent this cycle are the one it had at r
}

// A source route names its nodes only through ports: follow its entries from the sender to find
// the first node that keeps a copy (the worm's name in the scoreboard) and the route's end.
void Cosim::decode_source_route(int worm, const std::uint64_t* header, std::uint32_t flits) {
  RtlWorm& w = record.worms[static_cast<std::size_t>(worm)];
  NodeId node = w.sender, first = model::kNoNode;
  for (std::uint32_t k = 0; k < flits && node != model::kNoNode; ++k) {
    const std::uint32_t dest = wire::unpack_head(header[k]).dest;
    for (unsigned j = 0; j < wire::kRouteEntries; ++j) {
      const wire::RouteEntry e = wire::route_entry(dest, j);
      if (e.port == wire::kRoutePortEnd) break;
      if (e.deliver && node != w.sender && first == model::kNoNode) first = node;
      node = e.port < topology_.port_count() ? topology_.neighbour(node, static_cast<model::Port>(e.port))
                                             : model::kNoNode;
      if (node == model::kNoNode) break;
    }
  }
  if (node == model::kNoNode) error(fmt::format("node {} sent a source route that leaves the network", w.sender));
  w.route_end = node;
  w.addressed = first == model::kNoNode ? node : first;
}

bool Cosim::final_copy(const wire::HeadFields& head, NodeId r) const {
  // CPR: the addressed router absorbs; 01 delivers and stops; 11 delivers and passes on.
  if (head.mode == wire::Mode::kCprLine) return addressed(head) == r || head.cf == wire::Cf::kDeliverStop;
  // Intermediate reception announces the address flits still to come.
  return head.more == 0;
}

// One of the worm's heads at r is gone (ejected for good, or sent on).
void Cosim::left_router(int worm, NodeId r) {
  const auto it = live_.find(worm);
  if (it == live_.end()) return;
  if (const auto at = it->second.find(r); at != it->second.end()) it->second.erase(at);
  if (it->second.empty()) live_.erase(it);
}

void Cosim::ejected(NodeId r, const Link& l) {
  if (!l.flit.head) return;
  const int worm = find_worm(r, l.flit, "ejection port");
  if (worm < 0) return;
  RtlWorm& w = record.worms[static_cast<std::size_t>(worm)];
  w.copies.push_back({r, cycle, -1});
  const wire::HeadFields head = wire::unpack_head(l.flit.data);
  if (w.route_end != model::kNoNode ? r == w.route_end : final_copy(head, r)) {
    w.ejected_at = r;
    // Unless the router also sends the head on this cycle (PCP's spine end spawns its row
    // branches while it absorbs the spine), the head is gone from r.
    absorbed_.insert(worm);
  }
}

// As RouterNetwork::clock: the inputs settle with the clock low, one time step before the edge.
void Cosim::tick() {
  for (auto& r : routers_) r->set_clock(false);
  if (context_) context_->timeInc(1);
  for (auto& r : routers_) r->set_clock(true);
  if (context_) context_->timeInc(1);
}

bool Cosim::finished() const {
  if (!live_.empty()) return false;
  for (const auto& n : nodes_) {
    if (n->busy()) return false;
  }
  return true;
}

// Every worm not yet taken in whole by its receiver, with where its head is, and the nodes' queues,
// partial worms and ejection buffers, and the routers holding a head without a route.
std::string Cosim::stall_report() const {
  std::string s;
  for (std::size_t i = 0; i < record.worms.size(); ++i) {
    const RtlWorm& w = record.worms[i];
    if (w.eject_cycle >= 0) continue;
    std::string where;
    if (w.inject_cycle < 0) {
      where = "queued at its sender";
    } else if (const auto it = live_.find(static_cast<int>(i)); it != live_.end()) {
      std::string at;
      for (const NodeId n : it->second) at += (at.empty() ? "" : ", ") + topology_.node_name(n);
      where = "head at " + at;
    } else {
      where = "head ejected at " + topology_.node_name(w.ejected_at) + ", tail not taken in";
    }
    s += fmt::format(" worm {}->{} (multicast {}, step {}) {};", topology_.node_name(w.sender),
                     topology_.node_name(w.addressed), w.multicast, w.step, where);
  }
  for (const auto& n : nodes_) s += n->state();
  for (std::size_t r = 0; r < routers_.size(); ++r) {
    if (routers_[r]->no_route() != 0) s += fmt::format(" router {} no_route {:#x};", r, routers_[r]->no_route());
  }
  return s;
}

// Hands multicast i to its source's firmware; false (with the error recorded) if it refuses.
bool Cosim::start_multicast(std::size_t i) {
  const model::Request& r = plans[i].request;
  std::vector<std::uint32_t> dests(r.destinations.begin(), r.destinations.end());
  fw::MulticastRequest m;
  m.algorithm = firmware_algorithms().at(r.algorithm);
  m.ports = static_cast<std::uint8_t>(channels_used(r));
  m.multicast = static_cast<std::uint16_t>(i);
  m.destinations = dests.data();
  m.count = static_cast<std::uint32_t>(dests.size());
  m.data = data[i].data();
  m.words = static_cast<std::uint32_t>(data[i].size());
  m.all_port = r.ports.kind == model::PortModelKind::kAllPort;
  const fw::Status s = nodes_[static_cast<std::size_t>(r.source)]->firmware.on_start_multicast(m);
  if (s != fw::Status::kOk) {
    error(fmt::format("multicast {}: the source's firmware refused it: {}", i, fw::to_string(s)));
    return false;
  }
  return true;
}

// The replicating multicast in flight is done once every destination has the message and no copy
// of any of its worms is left in the network; then the next waiting one starts.
bool Cosim::admit_next_replicating() {
  if (admitted_replication_) {
    const int m = static_cast<int>(*admitted_replication_);
    const auto delivered = std::count_if(record.deliveries.begin(), record.deliveries.end(),
                                         [m](const Delivery& d) { return d.multicast == m; });
    if (static_cast<std::size_t>(delivered) < plans[*admitted_replication_].request.destinations.size()) return true;
    for (const auto& [worm, routers] : live_) {
      if (record.worms[static_cast<std::size_t>(worm)].multicast == m) return true;
    }
    admitted_replication_.reset();
  }
  if (waiting_replication_.empty()) return true;
  admitted_replication_ = waiting_replication_.front();
  waiting_replication_.pop_front();
  return start_multicast(*admitted_replication_);
}

RunRecord Cosim::run() {
  const int n = topology_.node_count();
  const unsigned net = static_cast<unsigned>(topology_.port_count());
  const unsigned ports = routers_.front()->ports();
  const unsigned hw_locals = routers_.front()->locals();
  for (std::size_t i = 0; i < plans.size(); ++i) {
    const model::Request& r = plans[i].request;
    data.push_back(multicast_data(static_cast<int>(i), r.length_flits));
  }
  for (std::size_t i = 0; i < plans.size(); ++i) {
    if (options.replication_admission && model::replicates_in_routers(plans[i])) {
      waiting_replication_.push_back(i);
    } else if (!start_multicast(i)) {
      return record;
    }
  }
  if (!admit_next_replicating()) return record;
  std::vector<Link> outputs(static_cast<std::size_t>(n) * ports);
  std::vector<std::uint32_t> credits(static_cast<std::size_t>(n));
  long last_progress = 0;
  for (cycle = 0; cycle < options.max_cycles; ++cycle) {
    bool moved = false;
    for (NodeId r = 0; r < n; ++r) {
      RouterModel& m = *routers_[static_cast<std::size_t>(r)];
      credits[static_cast<std::size_t>(r)] = m.credits_to_senders();
      // Ejection ports first: a multidestination worm's copy leaves here while its promoted head
      // may leave on a network port in the same cycle, and the monitor must see the copy at r.
      for (unsigned q = 0; q < ports; ++q) {
        const unsigned p = (q + net) % ports;
        const Link l = m.output(p);
        outputs[static_cast<std::size_t>(r) * ports + p] = l;
        if (!l.valid) continue;
        moved = true;
        if (options.trace != nullptr) options.trace->push_back({cycle, r, p, l});
        if (p < net) {
          monitor(r, p, l);
        } else {
          ejected(r, l);
          nodes_[static_cast<std::size_t>(r)]->take_ejected(p - net, l);
        }
      }
      for (const int worm : departed_) left_router(worm, r);
      for (const int worm : absorbed_) {
        if (departed_.count(worm) == 0) left_router(worm, r);
      }
      departed_.clear();
      absorbed_.clear();
    }
    for (NodeId r = 0; r < n; ++r) {
      Node& node = *nodes_[static_cast<std::size_t>(r)];
      RouterModel& m = *routers_[static_cast<std::size_t>(r)];
      std::uint32_t to_router = node.drain_ejection(rng_, options.eject_stall) << (net * kRouterVcs);
      node.run_processor();
      for (unsigned p = 0; p < net; ++p) {
        const NodeId nbr = topology_.neighbour(r, static_cast<model::Port>(p));
        Link in;
        if (nbr != model::kNoNode) {
          // The neighbour's port toward r (docs/model.md port numbering): the opposite direction on
          // a mesh or torus; on a star graph the same generator, which is its own inverse.
          const unsigned back = topology_.is_star() ? p : p ^ 1u;
          in = outputs[static_cast<std::size_t>(nbr) * ports + back];
          to_router |= ((credits[static_cast<std::size_t>(nbr)] >> (back * kRouterVcs)) & ((1u << kRouterVcs) - 1))
                       << (p * kRouterVcs);
        }
        m.set_input(p, in);
      }
      for (unsigned k = 0; k < hw_locals; ++k) {
        Link in;
        if (k < node.channels()) {
          const std::uint32_t bits =
              (credits[static_cast<std::size_t>(r)] >> ((net + k) * kRouterVcs)) & ((1u << kRouterVcs) - 1);
          moved |= node.inject(k, in, bits);
        }
        m.set_input(net + k, in);
      }
      m.set_credits_from_receivers(to_router);
    }
    tick();
    if (context_ && context_->gotError()) error(fmt::format("an RTL assertion fired in cycle {}", cycle));
    if (!record.errors.empty()) break;
    bool working = moved;
    for (const auto& node : nodes_) {
      for (const auto& q : node->queues_) working |= !q.empty() && q.front().ready > cycle;
      working |= node->processing_;
    }
    if (working) last_progress = cycle;
    if (!admit_next_replicating()) break;
    if (finished() && !admitted_replication_) break;
    if (cycle - last_progress > options.watchdog) {
      record.stalled = true;
      error(fmt::format("watchdog: no flit moved for {} cycles (cycle {}); blocked:{}", options.watchdog, cycle,
                        stall_report()));
      break;
    }
  }
  if (cycle >= options.max_cycles) error(fmt::format("the run did not finish in {} cycles", options.max_cycles));
  record.cycles = cycle;
  if (wave_) wave_->close();
  return record;
}

}  // namespace

std::string backend_name(Backend backend) { return backend == Backend::kRtl ? "rtl" : "model"; }

Backend parse_backend(const std::string& name) {
  if (name == "rtl") return Backend::kRtl;
  if (name == "model") return Backend::kModel;
  throw model::RequestError(fmt::format("backend '{}' is not one of: rtl, model", name));
}

std::vector<RouterConfig> router_configs(const model::Topology& topology) {
  const model::HamiltonianLabeling labels = router_labeling(topology);
  const std::optional<model::HamiltonianLabeling> cycle = router_cycle_labeling(topology);
  std::vector<RouterConfig> configs;
  for (NodeId node = 0; node < topology.node_count(); ++node) {
    configs.push_back(router_config(topology, labels, cycle, node));
  }
  return configs;
}

bool rtl_supports(const std::string& algorithm) { return firmware_algorithms().count(algorithm) != 0; }

std::string rtl_unsupported_message(const std::string& algorithm) {
  return fmt::format("algorithm '{}' has no firmware for the RTL; supported: {}", algorithm,
                     rtl_supported_algorithms());
}

std::string rtl_supported_algorithms() {
  std::string names;
  for (const auto& [name, id] : firmware_algorithms()) names += (names.empty() ? "" : ", ") + name;
  return names;
}

std::vector<std::uint64_t> multicast_data(int multicast, int length_flits) {
  std::vector<std::uint64_t> words;
  for (int i = 0; i < length_flits; ++i) {
    words.push_back(mix((static_cast<std::uint64_t>(multicast) << 32) | static_cast<std::uint64_t>(i)));
  }
  return words;
}

RunRecord run_on_rtl(const std::vector<model::Plan>& plans, const RtlRunOptions& options) {
  if (plans.empty()) throw model::RequestError("run_on_rtl needs at least one plan");
  if (options.alpha < 0 || options.gamma < 0) {
    throw model::RequestError(
        fmt::format("alpha {} and gamma {} must be at least 0 cycles", options.alpha, options.gamma));
  }
  if (!(options.eject_stall >= 0.0 && options.eject_stall <= 1.0)) {
    throw model::RequestError(fmt::format("eject stall probability {} is not in 0..1", options.eject_stall));
  }
  if (options.watchdog < 1) throw model::RequestError(fmt::format("watchdog {} must be at least 1", options.watchdog));
  const model::Topology& t = plans.front().request.topology;
  for (const model::Plan& p : plans) {
    const model::Request& r = p.request;
    if (!(r.topology == t)) throw model::RequestError("all multicasts of one run must share one topology");
    if (!rtl_supports(r.algorithm)) {
      throw model::UnsupportedError(rtl_unsupported_message(r.algorithm));
    }
    if (static_cast<std::size_t>(r.length_flits) > fw::kMaxDataWords) {
      throw model::UnsupportedError(
          fmt::format("message length {} exceeds the firmware's {} data words", r.length_flits, fw::kMaxDataWords));
    }
    if (r.destinations.size() + 1 > fw::kMaxChain) {
      throw model::UnsupportedError(
          fmt::format("{} destinations exceed the firmware's chain of {} nodes", r.destinations.size(), fw::kMaxChain));
    }
  }
  if (t.is_star() && t.port_count() != 3 && t.port_count() != 4) {
    throw model::UnsupportedError(fmt::format(
        "{} has {} network ports; the RTL runs star:4 and star:5 (verilated routers with 3 and 4 network ports)",
        t.spec(), t.port_count()));
  }
  if (plans.size() > fw::kMaxJobs * static_cast<std::size_t>(t.node_count())) {
    throw model::UnsupportedError("too many concurrent multicasts");
  }
  if (plans.size() > 0xFFFF) throw model::UnsupportedError("at most 65535 multicasts per run");
  try {
    Cosim cosim(plans, options);
    return cosim.run();
  } catch (const std::invalid_argument& e) {
    if (dynamic_cast<const model::ModelError*>(&e) != nullptr) throw;
    throw model::UnsupportedError(e.what());
  }
}

}  // namespace wormcast::sim
