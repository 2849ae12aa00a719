// SPDX-License-Identifier: Apache-2.0
#include "sim/traffic.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <ctime>
#include <deque>
#include <random>
#include <unordered_map>

#include "firmware/noc_wire_format.hpp"
#include "model/errors.hpp"
#include "model/path_multicast.hpp"
#include "model/plan.hpp"
#include "model/planner.hpp"
#include "model/routing.hpp"
#include "sim/ejection_link_checker.hpp"

namespace wormcast::sim {
namespace {

using model::NodeId;

constexpr unsigned kTags = 1u << wire::kTagW;  // worms a node can have in flight (head tag)
constexpr std::size_t kStreams = 64;           // stream ids per ejection port (router input VCs)

// A packet: one unicast, or one multicast whose dual-path worms share it.
struct Packet {
  PacketRecord record;
  bool measured = false;
  bool multicast = false;
  int outstanding = 0;  // destinations whose tail has not arrived
};

// A worm waiting in, or leaving, its source's queue.
struct OutWorm {
  long packet = 0;
  wire::HeadFields head;             // tag filled in when it starts
  std::vector<std::uint32_t> addr;   // dest fields of the address flits
  std::vector<NodeId> destinations;  // in delivery order
  std::size_t next = 0;              // next flit to send: 0 head, 1..more address, then payload
};

// A worm in flight, by its source and tag.
struct Flight {
  long packet = -1;
  std::vector<NodeId> destinations;
  int outstanding = 0;
};

// One copy being taken in at an ejection port (per stream): head, `more` address flits, payload.
struct Arriving {
  bool active = false;
  NodeId source = model::kNoNode;
  unsigned tag = 0;
  long packet = -1;
  std::size_t flits = 0, expected = 0;
  std::size_t more = 0;          // address flits of this copy
  std::size_t worm_address = 0;  // address flits of the worm as sent (its payload's first index - 1)
};

struct NodeState {
  std::deque<OutWorm> queue;                 // infinite: the offered load is what the sources create
  std::array<int, kMaxRouterVcs> credits{};  // VCs 0..network.vcs()-1
  std::array<Flight, kTags> flights;
  unsigned next_tag = 0;
  std::vector<Arriving> streams;
};

std::uint64_t mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// Payload word of flit `index` (the worm's flit number, head = 0) of packet `packet`.
std::uint64_t payload_word(long packet, std::size_t index) {
  return mix((static_cast<std::uint64_t>(packet) << 16) ^ index);
}

// The Bernoulli draw `uniform_real_distribution<double>(0, 1)(rng) < p` as a compare of the
// engine's raw output: the distribution maps one 64-bit output x to a double that does not decrease
// with x, so the draw holds iff x < threshold, the least x whose double is >= p (found by bisection
// through the same distribution), or always when none is. Same engine output consumed, same answer.
class BernoulliThreshold {
 public:
  explicit BernoulliThreshold(double p) {
    const auto at = [](std::uint64_t x) {
      Fixed engine{x};
      std::uniform_real_distribution<double> u(0, 1);
      return u(engine);
    };
    always_ = at(Fixed::max()) < p;
    std::uint64_t lo = Fixed::min(), hi = Fixed::max();
    while (lo < hi) {
      const std::uint64_t mid = lo + (hi - lo) / 2;
      if (at(mid) >= p) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    threshold_ = lo;
  }
  bool operator()(std::uint64_t x) const { return always_ || x < threshold_; }

 private:
  // An engine with std::mt19937_64's range that returns one fixed output.
  struct Fixed {
    using result_type = std::uint64_t;
    static constexpr result_type min() { return std::mt19937_64::min(); }
    static constexpr result_type max() { return std::mt19937_64::max(); }
    result_type operator()() const { return x; }
    result_type x;
  };
  bool always_ = false;
  std::uint64_t threshold_ = 0;
};

class Traffic {
 public:
  Traffic(const TrafficConfig& config, const model::Topology& topology, RouterBackend& backend)
      : config_(config),
        topology_(topology),
        network_ptr_(backend.make_network(topology_)),
        network_(*network_ptr_),
        routing_name_(resolve_routing(config)),
        routing_(model::make_routing_function(routing_name_, topology_)),
        injection_class_(static_cast<std::uint8_t>(routing_->injection_classes().front())),
        nodes_(static_cast<std::size_t>(topology_.node_count())),
        vcs_(network_.vcs()),
        ejection_ports_(network_.ejection_ports()),
        eject_check_(topology_, static_cast<unsigned>(topology_.port_count()), ejection_ports_, vcs_),
        rng_(config.seed) {
    for (NodeState& n : nodes_) {
      n.credits.fill(static_cast<int>(kRouterDepth));
      n.streams.resize(network_.ejection_ports() * kStreams);
    }
    result_.backend = backend.name();
    result_.config = config;
    result_.routing = routing_name_;
  }

  TrafficResult run();

 private:
  static std::string resolve_routing(const TrafficConfig& c) {
    if (c.routing != "auto") return c.routing;
    return c.multicast_fraction > 0 ? "hamiltonian-path" : "dimension-order";
  }
  std::size_t at(NodeId n) const { return static_cast<std::size_t>(n); }
  bool measuring(long cycle) const { return cycle >= config_.warmup && cycle < config_.warmup + config_.measure; }

  void create(NodeId source, long cycle);
  void queue_worm(NodeId source, long packet, const std::vector<NodeId>& destinations);
  // The cycle loop on `network`: the Network interface, or a RouterNetwork (final) whose calls the
  // compiler inlines (four per node and cycle: the model's fast path).
  template <class Net>
  TrafficResult run_on(Net& network);
  // The flit node n injects this cycle, after taking `credit_bits`, the injection credits the
  // router returned (bit v: VC v).
  Link inject(NodeId n, std::uint32_t credit_bits) {
    NodeState& node = nodes_[at(n)];
    for (std::uint32_t b = credit_bits & ((1u << vcs_) - 1); b != 0; b &= b - 1) ++node.credits[std::countr_zero(b)];
    return node.queue.empty() ? Link{} : send(node);  // inline: most nodes most cycles have nothing queued
  }
  // The front worm's next flit of `node`, whose queue is not empty (inject).
  Link send(NodeState& node);
  void eject(NodeId n, unsigned port, const Link& link, long cycle);
  void delivered(Flight& flight, NodeId at, long cycle);
  std::string in_flight_report() const;

  const TrafficConfig& config_;
  model::Topology topology_;
  std::unique_ptr<Network> network_ptr_;
  Network& network_;
  std::string routing_name_;
  std::unique_ptr<model::RoutingFunction> routing_;
  std::uint8_t injection_class_;
  std::vector<NodeState> nodes_;
  // The network's VCs per port and ejection ports, fixed at construction: asked once, not per
  // node and cycle (each is a virtual call into the routers).
  unsigned vcs_, ejection_ports_;
  // The link protocol on every ejection link (sim/ejection_link_checker.hpp). The sink returns each
  // flit's credit in its cycle, so an idle cycle (no flit, no credit) is not checked.
  EjectionLinkCheckers eject_check_;
  std::unordered_map<long, Packet> packets_;
  long next_packet_ = 0;
  long measured_outstanding_ = 0;
  long worms_in_flight_ = 0;
  std::mt19937_64 rng_;
  TrafficResult result_;
  // Sums for the means.
  double latency_sum_ = 0, unicast_sum_ = 0, multicast_sum_ = 0, destination_sum_ = 0, hops_sum_ = 0;
  long unicasts_ = 0, multicasts_ = 0, destination_count_ = 0, offered_flits_ = 0, demand_flits_ = 0;
};

void Traffic::create(NodeId source, long cycle) {
  const int n = topology_.node_count();
  std::uniform_real_distribution<double> u(0, 1);
  const bool multicast = config_.multicast_fraction > 0 && u(rng_) < config_.multicast_fraction;
  const int k = multicast ? config_.destinations : 1;
  // K distinct destinations, none the source: a partial Fisher-Yates over the other nodes.
  std::vector<NodeId> others;
  others.reserve(static_cast<std::size_t>(n - 1));
  for (NodeId d = 0; d < n; ++d) {
    if (d != source) others.push_back(d);
  }
  for (int i = 0; i < k; ++i) {
    std::uniform_int_distribution<std::size_t> pick(static_cast<std::size_t>(i), others.size() - 1);
    std::swap(others[static_cast<std::size_t>(i)], others[pick(rng_)]);
  }
  others.resize(static_cast<std::size_t>(k));

  const long id = next_packet_++;
  Packet& p = packets_[id];
  p.record.source = source;
  p.record.destinations = others;
  p.record.created = cycle;
  p.record.delivered.assign(others.size(), -1);
  p.measured = measuring(cycle);
  p.multicast = multicast;
  p.outstanding = k;
  ++result_.created_packets;
  if (p.measured) {
    offered_flits_ += config_.length;
    ++result_.measured_packets;
    ++measured_outstanding_;
  }
  if (!multicast) {
    p.record.hops = static_cast<int>(model::trace_route(*routing_, source, injection_class_, others.front()).size());
    queue_worm(source, id, others);
    return;
  }
  // The multicast's worms as the model plans them (dual-path: one worm per channel network, its
  // destinations in label order).
  const model::Plan plan = model::plan(model::make_request(topology_, model::kDualPathAlgorithm, source, others,
                                                           config_.length, model::PortModel::one_port()));
  for (const model::Worm& w : plan.worms) {
    if (w.header.mode != model::RoutingMode::kHamiltonianPath || w.keeps_copy != w.header.destinations) {
      throw model::UnsupportedError(
          "dual-path planned a worm that is not one Hamiltonian-path worm per destination list");
    }
    queue_worm(source, id, w.header.destinations);
  }
}

void Traffic::queue_worm(NodeId source, long packet, const std::vector<NodeId>& destinations) {
  OutWorm w;
  w.packet = packet;
  w.destinations = destinations;
  const model::HamiltonianLabeling& labels = network_.labels();
  auto dest_field = [&](NodeId d) -> std::uint32_t {
    if (routing_name_ == "dimension-order") {
      const model::Coord c = topology_.coord(d);
      return wire::pack_coord_dest(
          {static_cast<std::uint8_t>(c[0]), static_cast<std::uint8_t>(c[1]), static_cast<std::uint8_t>(c[2])});
    }
    return static_cast<std::uint32_t>(labels.label(d));
  };
  w.head.mode = routing_name_ == "dimension-order" ? wire::Mode::kDimensionOrder : wire::Mode::kHamiltonianPath;
  if (w.head.mode == wire::Mode::kHamiltonianPath) {
    w.head.network = labels.label(destinations.front()) > labels.label(source) ? wire::kNetworkHigh : wire::kNetworkLow;
  }
  w.head.vc_class = injection_class_;
  if (packets_.at(packet).measured) {
    // The copy at destination i: head, the address flits after it, the payload.
    for (std::size_t i = 0; i < destinations.size(); ++i) {
      demand_flits_ += static_cast<long>(destinations.size() - i) + config_.length - 1;
    }
  }
  w.head.more = static_cast<std::uint16_t>(destinations.size() - 1);
  w.head.dest = dest_field(destinations.front());
  w.head.src = static_cast<std::uint32_t>(source);
  for (std::size_t k = 1; k < destinations.size(); ++k) w.addr.push_back(dest_field(destinations[k]));
  nodes_[at(source)].queue.push_back(std::move(w));
}

// The front worm's next flit when its VC has a credit; a worm starts only with a free tag (16
// worms per node in flight).
Link Traffic::send(NodeState& node) {
  OutWorm& w = node.queue.front();
  const unsigned vc = w.head.vc_class & (vcs_ - 1u);  // class mod VCs, as the routers map it
  if (node.credits[vc] == 0) return {};
  if (w.next == 0) {
    Flight& slot = node.flights[node.next_tag];
    if (slot.packet >= 0) return {};  // the tag is still in flight: wait
    w.head.tag = static_cast<std::uint8_t>(node.next_tag);
    slot.packet = w.packet;
    slot.destinations = w.destinations;
    slot.outstanding = static_cast<int>(w.destinations.size());
    node.next_tag = (node.next_tag + 1) % kTags;
    ++worms_in_flight_;
  }
  const std::size_t more = w.addr.size(), total = 1 + more + static_cast<std::size_t>(config_.length - 1);
  Link l;
  l.valid = true;
  l.vc = vc;
  l.flit.head = w.next == 0;
  l.flit.tail = w.next + 1 == total;
  if (w.next == 0) {
    l.flit.data = wire::pack_head(w.head);
  } else if (w.next <= more) {
    l.flit.data = wire::pack_addr_flit(w.head, w.addr[w.next - 1], static_cast<unsigned>(w.next));
  } else {
    l.flit.data = payload_word(w.packet, w.next);
  }
  --node.credits[vc];
  if (++w.next == total) node.queue.pop_front();
  return l;
}

void Traffic::eject(NodeId n, unsigned port, const Link& link, long cycle) {
  NodeState& node = nodes_[at(n)];
  // Streams (router input VCs) interleave per ejection port: one reassembly per (port, stream).
  const std::size_t key = port * kStreams + link.stream;
  if (link.stream >= kStreams || key >= node.streams.size()) {
    throw TrafficError(
        fmt::format("node {}: ejection port {} stream {} out of range", topology_.node_name(n), port, link.stream));
  }
  Arriving& a = node.streams[key];
  if (link.flit.head == a.active) {
    throw TrafficError(fmt::format("node {} ejection stream {}: a {} flit {} a copy at cycle {}",
                                   topology_.node_name(n), link.stream, link.flit.head ? "head" : "body",
                                   link.flit.head ? "inside" : "outside", cycle));
  }
  if (link.flit.head) {
    const wire::HeadFields h = wire::unpack_head(link.flit.data);
    const NodeId source = static_cast<NodeId>(h.src);
    if (source >= topology_.node_count() || nodes_[at(source)].flights[h.tag].packet < 0) {
      throw TrafficError(fmt::format("node {}: a head from node {} tag {} that no worm in flight carries (cycle {})",
                                     topology_.node_name(n), h.src, h.tag, cycle));
    }
    const Flight& f = nodes_[at(source)].flights[h.tag];
    const auto it = std::find(f.destinations.begin(), f.destinations.end(), n);
    if (it == f.destinations.end()) {
      throw TrafficError(fmt::format("node {}: a copy of a worm from node {} not addressed to it (cycle {})",
                                     topology_.node_name(n), topology_.node_name(source), cycle));
    }
    // The copy at destination i: its head, the address flits still to come, the payload.
    const std::size_t i = static_cast<std::size_t>(it - f.destinations.begin());
    const std::size_t more = f.destinations.size() - 1 - i;
    a = {true,  source,
         h.tag, f.packet,
         0,     1 + more + static_cast<std::size_t>(config_.length - 1),
         more,  f.destinations.size() - 1};
  } else if (a.flits > a.more) {
    const std::size_t index = a.worm_address + (a.flits - a.more);  // the flit's number in the worm as sent
    if (link.flit.data != payload_word(a.packet, index)) {
      throw TrafficError(fmt::format("node {}: payload word {} of a copy from node {} is damaged (cycle {})",
                                     topology_.node_name(n), a.flits - a.more - 1, topology_.node_name(a.source),
                                     cycle));
    }
  }
  ++a.flits;
  if (!link.flit.tail) return;
  if (a.flits != a.expected) {
    throw TrafficError(fmt::format("node {}: a copy of {} flits from node {}, expected {} (cycle {})",
                                   topology_.node_name(n), a.flits, topology_.node_name(a.source), a.expected, cycle));
  }
  a.active = false;
  delivered(nodes_[at(a.source)].flights[a.tag], n, cycle);
}

void Traffic::delivered(Flight& flight, NodeId at_node, long cycle) {
  const long id = flight.packet;
  Packet& p = packets_.at(id);
  const auto& dests = p.record.destinations;
  const std::size_t i = static_cast<std::size_t>(std::find(dests.begin(), dests.end(), at_node) - dests.begin());
  p.record.delivered[i] = cycle;
  if (--flight.outstanding == 0) {
    flight.packet = -1;
    --worms_in_flight_;
  }
  if (--p.outstanding > 0) return;
  if (p.measured) {
    --measured_outstanding_;
    ++result_.delivered_packets;
    const long latency = *std::max_element(p.record.delivered.begin(), p.record.delivered.end()) - p.record.created;
    latency_sum_ += static_cast<double>(latency);
    result_.max_latency = std::max(result_.max_latency, latency);
    if (!p.multicast) {
      ++unicasts_;
      unicast_sum_ += static_cast<double>(latency);
      hops_sum_ += p.record.hops;
    } else {
      ++multicasts_;
      multicast_sum_ += static_cast<double>(latency);
      for (const long d : p.record.delivered) destination_sum_ += static_cast<double>(d - p.record.created);
      destination_count_ += static_cast<long>(dests.size());
    }
    if (config_.keep_packets) result_.packets.push_back(p.record);
  }
  packets_.erase(id);
}

std::string Traffic::in_flight_report() const {
  std::string s;
  int shown = 0;
  for (NodeId n = 0; n < topology_.node_count() && shown < 8; ++n) {
    const NodeState& node = nodes_[at(n)];
    for (unsigned t = 0; t < kTags && shown < 8; ++t) {
      const Flight& f = node.flights[t];
      if (f.packet < 0) continue;
      s += fmt::format(" worm {} tag {} ({} destination(s) outstanding);", topology_.node_name(n), t, f.outstanding);
      ++shown;
    }
  }
  return s + network_.drop_report();
}

TrafficResult Traffic::run() {
  if (auto* routers = dynamic_cast<RouterNetwork*>(&network_)) return run_on(*routers);
  return run_on(network_);
}

template <class Net>
TrafficResult Traffic::run_on(Net& network) {
  const auto start = std::chrono::steady_clock::now();
  const std::clock_t cpu_start = std::clock();
  const int n = topology_.node_count();
  const BernoulliThreshold creates(config_.load / config_.length);
  const long measured_end = config_.warmup + config_.measure;
  long cycle = 0, last_progress = 0;
  for (;; ++cycle) {
    bool moved = false;
    for (NodeId r = 0; r < n; ++r) {
      for (unsigned k = 0; k < ejection_ports_; ++k) {
        const Link l = network.ejection(r, k);
        // The sink takes every flit at once; the credit returns to the port's pool (VC 0's bit).
        network.set_ejection_credits(r, k, l.valid ? 1u : 0u);
        if (!l.valid) continue;
        if (const std::string broken = eject_check_.cycle(r, k, cycle, l, 1u); !broken.empty()) {
          throw TrafficError(broken);
        }
        moved = true;
        if (measuring(cycle)) ++result_.ejected_flits;
        eject(r, k, l, cycle);
      }
    }
    if (cycle >= measured_end && measured_outstanding_ == 0) break;
    if (cycle >= measured_end + config_.drain_limit) {
      result_.saturated = true;
      break;
    }
    // Creation then injection, node by node: a node's creation draws the random numbers in node
    // order as before, and its injection reads only its own queue and credits.
    for (NodeId r = 0; r < n; ++r) {
      if (creates(rng_())) create(r, cycle);
      const Link l = inject(r, network.injection_credits(r));
      moved |= l.valid;
      network.set_injection(r, l);
    }
    moved |= network.step();
    if (network.assertion_failed()) throw TrafficError(fmt::format("an RTL assertion fired in cycle {}", cycle));
    if (moved || worms_in_flight_ == 0) last_progress = cycle;
    if (cycle - last_progress > config_.watchdog) {
      throw TrafficError(fmt::format("watchdog: no flit moved for {} cycles (cycle {}, {} worms in flight):{}",
                                     config_.watchdog, cycle, worms_in_flight_, in_flight_report()));
    }
  }
  result_.cycles = cycle;
  const double node_cycles = static_cast<double>(n) * static_cast<double>(config_.measure);
  result_.accepted = static_cast<double>(result_.ejected_flits) / node_cycles;
  result_.offered = static_cast<double>(offered_flits_) / node_cycles;
  result_.saturated |= static_cast<double>(result_.ejected_flits) < 0.9 * static_cast<double>(demand_flits_);
  const auto mean = [](double sum, long count) { return count == 0 ? 0.0 : sum / static_cast<double>(count); };
  result_.mean_latency = mean(latency_sum_, result_.delivered_packets);
  result_.mean_unicast_latency = mean(unicast_sum_, unicasts_);
  result_.mean_multicast_latency = mean(multicast_sum_, multicasts_);
  result_.mean_destination_latency = mean(destination_sum_, destination_count_);
  result_.mean_hops = mean(hops_sum_, unicasts_);
  result_.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  result_.cpu_seconds = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
  return std::move(result_);
}

}  // namespace

std::string traffic_routings() { return "auto, dimension-order, hamiltonian-path"; }

model::Topology validate(const TrafficConfig& c) {
  const model::Topology t = model::Topology::parse(c.topology);
  if (t.is_star()) {
    throw model::SpecError(
        fmt::format("topology '{}': synthetic traffic runs on 2D or 3D meshes and tori", c.topology));
  }
  if (!(c.load > 0.0 && c.load <= 1.0)) {
    throw model::SpecError(fmt::format("load {} is not in (0, 1] flits per node per cycle", c.load));
  }
  if (c.length < 1 || c.length > 4096) {
    throw model::SpecError(fmt::format("packet length {} is not in 1..4096 flits", c.length));
  }
  if (!(c.multicast_fraction >= 0.0 && c.multicast_fraction <= 1.0)) {
    throw model::SpecError(fmt::format("multicast fraction {} is not in [0, 1]", c.multicast_fraction));
  }
  if (c.multicast_fraction > 0 && (c.destinations < 1 || c.destinations > t.node_count() - 1)) {
    throw model::SpecError(
        fmt::format("{} destinations per multicast: valid 1..{} on {}", c.destinations, t.node_count() - 1, t.spec()));
  }
  if (c.routing != "auto" && c.routing != "dimension-order" && c.routing != "hamiltonian-path") {
    throw model::SpecError(fmt::format("routing '{}' is not one of: {}", c.routing, traffic_routings()));
  }
  if (c.routing == "dimension-order" && c.multicast_fraction > 0) {
    throw model::SpecError(
        "routing 'dimension-order' with multicasts: the multicasts' dual-path worms route on the Hamiltonian path, "
        "whose high and low networks share VCs 0 and 1 with dimension order's dateline classes, and the two together "
        "close a channel dependency cycle on tori (torus:5x5, torus:4x4x4; docs/timing.md \"Synthetic traffic\"); "
        "use 'hamiltonian-path' or 'auto'");
  }
  if (c.warmup < 0 || c.measure < 1 || c.drain_limit < 0) {
    throw model::SpecError(fmt::format("phases: warm-up {} >= 0, measurement {} >= 1, drain limit {} >= 0 cycles",
                                       c.warmup, c.measure, c.drain_limit));
  }
  if (c.watchdog < 1) throw model::SpecError(fmt::format("watchdog {} must be at least 1 cycle", c.watchdog));
  return t;
}

TrafficResult run_traffic(const TrafficConfig& config, RouterBackend& backend) {
  const model::Topology t = validate(config);
  Traffic traffic(config, t, backend);
  return traffic.run();
}

}  // namespace wormcast::sim
