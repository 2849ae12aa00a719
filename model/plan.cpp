// SPDX-License-Identifier: Apache-2.0
#include "model/plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <utility>

#include "model/counting_sort.hpp"
#include "model/errors.hpp"
#include "model/wire_length.hpp"

namespace wormcast::model {
namespace {

void check_member(const Topology& topology, NodeId node, std::string_view role) {
  if (node < 0 || node >= topology.node_count()) {
    throw NodeError(fmt::format("{} (node id {}) is outside {}; valid ids are 0..{}", role, node, topology.spec(),
                                topology.node_count() - 1));
  }
}

// Links from the sender of worm `index`'s parent (Worm::spawned_from) to the router that spawns it.
// Throws std::logic_error unless the parent is an earlier worm of the same step (`departed`) whose
// route passes that router.
int hops_to_spawning_router(const Topology& topology, const std::vector<Worm>& worms, std::size_t index,
                            const std::vector<bool>& departed) {
  const Worm& w = worms[index];
  const std::size_t parent = *w.spawned_from;
  if (parent >= worms.size() || !departed[parent] || worms[parent].step != w.step) {
    throw std::logic_error(fmt::format(
        "worm {} of step {} is spawned off worm {}, which is not an earlier worm of that step", index, w.step, parent));
  }
  const std::vector<NodeId>& route = worms[parent].route;
  const auto at = route.empty() ? route.end() : std::find(route.begin() + 1, route.end(), w.sender);
  if (at == route.end()) {
    throw std::logic_error(fmt::format("worm {} is spawned at {}, which worm {} does not pass", index,
                                       topology.node_name(w.sender), parent));
  }
  return static_cast<int>(at - route.begin());
}

// Address flits promoted to the head before the worm's copy reaches the node `hops` links from its
// sender (docs/header-format.md, "Address flit"): at each earlier destination of a multidestination
// worm, and where a source route's group of entries is used up (every kRouteEntriesPerFlit hops).
template <typename HopsTo>
int promotions_before(const Worm& w, int hops, const HopsTo& hops_to) {
  if (w.header.mode == RoutingMode::kSourceRouted) return std::max(0, hops - 1) / kRouteEntriesPerFlit;
  if (w.kind != WormKind::kMultidestinationPath) return 0;
  int promotions = 0;
  for (NodeId d : w.header.destinations) promotions += hops_to(d) < hops ? 1 : 0;
  return promotions;
}

// The lowest and highest Worm::port of the worms a processor sends ({0, 0} if there are none).
std::pair<int, int> port_range(const std::vector<Worm>& worms) {
  std::pair<int, int> range{0, 0};
  for (const Worm& w : worms) {
    if (w.spawned_from) continue;
    range.first = std::min(range.first, w.port);
    range.second = std::max(range.second, w.port);
  }
  return range;
}

// Channel sharing: every pair of worms on every directed physical channel they both use, the
// distinct channels, and the stepwise and depth contention counts (PlanMetrics). Channels are
// numbered node * port_count + port, so the per-channel tables are flat and channel order is
// (node, port) order.
void add_channel_sharing(const Topology& t, const std::vector<Worm>& worms, PlanMetrics& metrics) {
  const auto ports = static_cast<std::size_t>(t.port_count());
  const auto channel_of = [&](std::size_t worm, const RouteHop& hop) {
    if (hop.node < 0 || hop.node >= t.node_count() || hop.port < 0 || hop.port >= t.port_count()) {
      throw std::logic_error(fmt::format("worm {} has a hop on port {} of node id {}, not a channel of {}", worm,
                                         hop.port, hop.node, t.spec()));
    }
    return static_cast<std::size_t>(hop.node) * ports + static_cast<std::size_t>(hop.port);
  };
  // 32-bit tables (half the memory to clear per plan): worm indices and counts fit.
  using Index = std::uint32_t;
  constexpr Index kNone = std::numeric_limits<Index>::max();
  const std::size_t channels = static_cast<std::size_t>(t.node_count()) * ports;
  // users[c]: the worms on channel c, each counted once however often it crosses c.
  std::vector<Index> first_user(channels + 1, 0);  // then: where c's users start in `users`
  std::vector<Index> last_user(channels, kNone);
  for (std::size_t i = 0; i < worms.size(); ++i) {
    for (const RouteHop& hop : worms[i].hops) {
      const std::size_t c = channel_of(i, hop);
      if (last_user[c] != static_cast<Index>(i)) {
        last_user[c] = static_cast<Index>(i);
        ++first_user[c + 1];
      }
    }
  }
  bool shared = false;
  for (std::size_t c = 0; c < channels; ++c) {
    metrics.distinct_channels += first_user[c + 1] > 0 ? 1 : 0;
    shared = shared || first_user[c + 1] > 1;
  }
  if (!shared) return;
  for (std::size_t c = 0; c < channels; ++c) first_user[c + 1] += first_user[c];
  std::vector<Index> users(first_user.back());
  std::vector<Index> next = first_user;
  std::fill(last_user.begin(), last_user.end(), kNone);
  for (std::size_t i = 0; i < worms.size(); ++i) {
    for (const RouteHop& hop : worms[i].hops) {
      const std::size_t c = channel_of(i, hop);
      if (last_user[c] != static_cast<Index>(i)) {
        last_user[c] = static_cast<Index>(i);
        users[next[c]++] = static_cast<Index>(i);  // ascending worm index
      }
    }
  }
  for (std::size_t c = 0; c < channels; ++c) {
    for (std::size_t a = first_user[c]; a < first_user[c + 1]; ++a) {
      for (std::size_t b = a + 1; b < first_user[c + 1]; ++b) {
        metrics.shared_channels.push_back(
            SharedChannel{static_cast<NodeId>(c / ports), static_cast<Port>(c % ports), users[a], users[b]});
      }
    }
  }
  // The list is in channel order; two stable counting sorts, by the second worm and then by the
  // first, order it by (first worm, second worm, channel) in linear time (unicast-based plans can
  // share channels between thousands of pairs).
  std::vector<SharedChannel>& shared_channels = metrics.shared_channels;
  stable_counting_sort(shared_channels, worms.size(), [](const SharedChannel& c) { return c.second_worm; });
  stable_counting_sort(shared_channels, worms.size(), [](const SharedChannel& c) { return c.first_worm; });
  // Each pair once: the list is sorted by pair.
  for (std::size_t i = 0; i < shared_channels.size(); ++i) {
    const SharedChannel& c = shared_channels[i];
    if (i > 0 && shared_channels[i - 1].first_worm == c.first_worm &&
        shared_channels[i - 1].second_worm == c.second_worm) {
      continue;
    }
    const Worm& first = worms[c.first_worm];
    const Worm& second = worms[c.second_worm];
    if (first.step == second.step) {
      ++metrics.stepwise_contention;
    } else if (first.sender != second.sender) {
      ++metrics.depth_contention;
    }
  }
}

}  // namespace

int PortModel::injection_ports(const Topology& topology) const {
  switch (kind) {
    case PortModelKind::kOnePort:
      return 1;
    case PortModelKind::kTwoPort:
      return 2;
    case PortModelKind::kAllPort:
      return topology.port_count();
    case PortModelKind::kDPort:
      return count;
  }
  return count;
}

std::string PortModel::name() const {
  return kind == PortModelKind::kDPort ? fmt::format("{}-port", count) : std::string(to_string(kind));
}

const char* to_string(PortModelKind kind) {
  switch (kind) {
    case PortModelKind::kOnePort:
      return "one-port";
    case PortModelKind::kTwoPort:
      return "two-port";
    case PortModelKind::kAllPort:
      return "all-port";
    case PortModelKind::kDPort:
      return "d-port";
  }
  return "?";
}

const char* to_string(WormKind kind) {
  switch (kind) {
    case WormKind::kUnicast:
      return "unicast";
    case WormKind::kMultidestinationPath:
      return "multidestination path";
    case WormKind::kCprLine:
      return "CPR line";
    case WormKind::kStoreAndForwardHop:
      return "store-and-forward hop";
  }
  return "?";
}

const char* to_string(RoutingMode mode) {
  switch (mode) {
    case RoutingMode::kHamiltonianPath:
      return "hamiltonian-path";
    case RoutingMode::kHamiltonianCycle:
      return "hamiltonian-cycle";
    case RoutingMode::kDimensionOrder:
      return "dimension-order";
    case RoutingMode::kCprLine:
      return "cpr-line";
    case RoutingMode::kSourceRouted:
      return "source-routed";
  }
  return "?";
}

void validate(const Request& request) {
  const Topology& t = request.topology;
  check_member(t, request.source, "source");
  if (request.destinations.empty()) {
    throw RequestError(fmt::format("the destination set is empty; give 1..{} destinations other than the source {}",
                                   t.node_count() - 1, t.node_name(request.source)));
  }
  std::vector<bool> seen(static_cast<std::size_t>(t.node_count()), false);
  for (std::size_t i = 0; i < request.destinations.size(); ++i) {
    const NodeId d = request.destinations[i];
    if (d < 0 || d >= t.node_count()) check_member(t, d, fmt::format("destination #{}", i + 1));
    if (d == request.source) {
      throw RequestError(fmt::format("destination #{} ({}) is the source; destinations must be other nodes of {}",
                                     i + 1, t.node_name(d), t.spec()));
    }
    if (seen[static_cast<std::size_t>(d)]) {
      throw RequestError(fmt::format("destination #{} ({}) is listed twice; each destination must appear once", i + 1,
                                     t.node_name(d)));
    }
    seen[static_cast<std::size_t>(d)] = true;
  }
  if (request.length_flits < 1) {
    throw RequestError(
        fmt::format("message length {} flits is too short; L must be at least 1 flit", request.length_flits));
  }
  if (request.ports.kind == PortModelKind::kDPort && request.ports.count < 1) {
    throw RequestError(fmt::format("a {}-port node has no injection port; d must be at least 1", request.ports.count));
  }
}

Request make_request(Topology topology, std::string algorithm, NodeId source, std::vector<NodeId> destinations,
                     int length_flits, PortModel ports, LatencyParameters latency) {
  Request request{
      std::move(topology), std::move(algorithm), source, std::move(destinations), length_flits, ports, latency};
  validate(request);
  return request;
}

LatencyParameters LatencyParameters::rtl(double alpha, double gamma) {
  LatencyParameters p;
  p.alpha = alpha;
  p.gamma = gamma;
  p.beta = 1.0;             // a flit crosses a link (the injection channel too) in one cycle
  p.mu = 0.0;               // the firmware writes the control field into the head it packs
  p.router_delay = 2.0;     // per hop: the link's cycle, then the next router's switch cycle
  p.injection_delay = 1.0;  // the sender's router's switch cycle
  p.ejection_delay = 0.0;   // the NI takes a flit off the ejection port in the cycle it is there
  p.promotion_delay = 1.0;  // the promoted address flit is decided from the FIFO front
  p.wire_lengths = true;
  p.startup_per_channel = true;
  p.channel_queueing = true;  // a head waits for a channel until the worm before it there has left
  p.replication_lock = true;  // PCP's spines wait for the firmware's lock
  return p;
}

int worm_data_flits(const Request& request, const Worm& worm) {
  return worm.data_flits > 0 ? worm.data_flits : request.length_flits;
}

namespace {

// When a node holds part or all of the message: the time, the step that brought it, and the links
// its copy crossed from the source.
struct Holding {
  double time = 0.0;
  int step = 0;
  int path_hops = 0;
};

// The contention-free timeline of one plan (plan.hpp, compute_metrics): worms costed in step order,
// each leaving its sender when the sender holds the message and its injection port is free (and,
// for PCP's spines, the replication lock is held), waiting behind earlier worms on each channel
// (channel queueing), and delivering to the nodes on its route. Tables are indexed by node id (and
// injection port or channel): O(N) per plan, with no per-entry allocation.
class WormTimeline {
 public:
  WormTimeline(const Request& request, const std::vector<Worm>& worms);
  // Costs every worm, in step order (stable, so the plan's order breaks ties).
  void run();
  // When node holds the whole message (its delivery), or nothing if no worm brings it.
  const std::optional<Holding>& whole_message(NodeId node) const { return latest_[at(node)]; }

 private:
  static std::size_t at(NodeId node) { return static_cast<std::size_t>(node); }
  double flits(std::size_t index) const;
  // What was received in earlier steps becomes what a node sends from.
  void begin_step(int step);
  // When worm `index` leaves its sender (or, spawned in a router, passes the spawning router).
  Holding departure(std::size_t index, double length);
  // A lock message from `from` to `to` whose start-up begins at `start`: when `to`'s processor has it.
  double lock_message(NodeId from, NodeId to, double start);
  // waited_[i]: the head's waits before hop i of worm w (channel queueing; zeros without it).
  void queue_on_channels(const Worm& w, const Holding& depart, double length);
  void record_arrivals(const Worm& w, const Holding& depart, double length);

  const Request& request_;
  const std::vector<Worm>& worms_;
  const Topology& t_;
  const LatencyParameters& p_;
  std::vector<WireLength> lengths_;
  // Senders hold the message from their first arrival (holds_). A node that receives parts of the
  // message in several worms (np-d's sub-messages) has all it received in earlier steps at ready_
  // (what it sends from), and the whole at its latest arrival (latest_, its delivery, in the last
  // step that brings a part). With one receipt per node, both are its first arrival.
  std::vector<std::optional<Holding>> holds_, latest_;
  std::vector<double> ready_;
  std::vector<NodeId> received_this_step_;
  int current_step_ = 0;
  int lowest_port_ = 0;
  std::size_t port_slots_ = 0;
  std::vector<double> port_free_;  // per (sender, injection port): when it is free
  std::vector<int> position_;      // a node's first position on the route of the current worm
  // Per worm: when its header leaves the sender, and the links its copy crossed before the sender.
  std::vector<Holding> departs_;
  std::vector<bool> departed_;
  // Channel queueing: per directed channel (node * ports + port), when the next head may take it.
  std::size_t ports_ = 0;
  std::vector<double> channel_free_;
  std::vector<double> waited_;
  // The replication lock (docs/firmware.md, "The replication lock"): the source's request to the
  // coordinator and the grant back, each a kLockMessageFlits-flit worm on its dimension-order
  // route, costed like any worm (start-up, hops, flits, gamma, and with channel queueing the waits
  // behind the worms costed before it: the source's X lines, whose row the request's route starts
  // along). The request leaves when the source starts, on the channel of the first replicating worm.
  std::vector<bool> replicated_;
  std::optional<double> lock_held_;
};

WormTimeline::WormTimeline(const Request& request, const std::vector<Worm>& worms)
    : request_(request), worms_(worms), t_(request.topology), p_(request.latency) {
  const auto nodes = static_cast<std::size_t>(t_.node_count());
  if (p_.wire_lengths) lengths_ = wire_lengths(request, worms);
  holds_.resize(nodes);
  holds_[at(request.source)] = Holding{};
  latest_.resize(nodes);
  latest_[at(request.source)] = Holding{};
  ready_.assign(nodes, 0.0);
  const auto [lowest_port, highest_port] = port_range(worms);
  lowest_port_ = lowest_port;
  port_slots_ = static_cast<std::size_t>(highest_port - lowest_port + 1);
  port_free_.assign(nodes * port_slots_, 0.0);
  position_.assign(nodes, -1);
  departs_.resize(worms.size());
  departed_.assign(worms.size(), false);
  ports_ = static_cast<std::size_t>(t_.port_count());
  if (p_.channel_queueing) channel_free_.assign(nodes * ports_, -std::numeric_limits<double>::infinity());
  replicated_.assign(worms.size(), false);
  for (const Worm& w : worms) {
    if (w.spawned_from) replicated_[*w.spawned_from] = true;
  }
  const bool needs_lock = p_.replication_lock && request.source != kReplicationLockCoordinator &&
                          std::find(replicated_.begin(), replicated_.end(), true) != replicated_.end();
  if (!needs_lock) lock_held_ = 0.0;
}

void WormTimeline::run() {
  std::vector<std::size_t> order(worms_.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  const auto by_step = [&](std::size_t a, std::size_t b) { return worms_[a].step < worms_[b].step; };
  if (!std::is_sorted(order.begin(), order.end(), by_step)) std::stable_sort(order.begin(), order.end(), by_step);
  for (std::size_t index : order) {
    const Worm& w = worms_[index];
    begin_step(w.step);
    const double length = flits(index);
    const Holding depart = departure(index, length);
    departs_[index] = depart;
    departed_[index] = true;
    queue_on_channels(w, depart, length);
    record_arrivals(w, depart, length);
  }
}

double WormTimeline::flits(std::size_t index) const {
  return p_.wire_lengths ? lengths_[index].flits() : worm_data_flits(request_, worms_[index]);
}

void WormTimeline::begin_step(int step) {
  if (step == current_step_) return;
  for (NodeId node : received_this_step_) ready_[at(node)] = latest_[at(node)]->time;
  received_this_step_.clear();
  current_step_ = step;
}

Holding WormTimeline::departure(std::size_t index, double length) {
  const Worm& w = worms_[index];
  if (w.spawned_from) {  // router replication: no processor, no start-up, no injection port
    const int hops = hops_to_spawning_router(t_, worms_, index, departed_);
    Holding depart = departs_[*w.spawned_from];
    depart.time += hops * p_.router_delay;
    depart.path_hops += hops;
    return depart;
  }
  const std::optional<Holding>& sender = holds_[at(w.sender)];
  if (!sender || sender->step >= w.step) {
    throw std::logic_error(fmt::format("worm {} of step {} leaves {}, which does not hold the message before that step",
                                       index, w.step, t_.node_name(w.sender)));
  }
  double& free_at = port_free_[at(w.sender) * port_slots_ + static_cast<std::size_t>(w.port - lowest_port_)];
  if (replicated_[index] && !lock_held_) {
    const double request_in = lock_message(request_.source, kReplicationLockCoordinator, sender->time);
    lock_held_ = lock_message(kReplicationLockCoordinator, request_.source, request_in);
  }
  const double held_at = std::max(sender->time, ready_[at(w.sender)]);
  const double start = std::max(std::max(held_at, free_at), replicated_[index] ? *lock_held_ : 0.0);
  const int copies = p_.startup_per_channel ? 1 : w.prepared_copies;
  const double startup = copies * p_.alpha + w.control_field_changes * p_.mu;
  free_at = start + startup + length * p_.beta;
  return Holding{start + startup, w.step, sender->path_hops};
}

double WormTimeline::lock_message(NodeId from, NodeId to, double start) {
  const double depart = start + p_.alpha;
  const double length = kLockMessageFlits;
  double wait = 0;
  int hops = 0;
  NodeId node = from;
  for (int d = 0; d < t_.dimensions(); ++d) {  // dimension order on a mesh
    const auto dim = static_cast<std::size_t>(d);
    while (t_.coord(node)[dim] != t_.coord(to)[dim]) {
      const bool up = t_.coord(node)[dim] < t_.coord(to)[dim];
      const auto port = static_cast<Port>(2 * d + (up ? 0 : 1));
      if (p_.channel_queueing) {
        double& free_at = channel_free_[at(node) * ports_ + static_cast<std::size_t>(port)];
        const double head = depart + p_.injection_delay + hops * p_.router_delay + wait;
        wait += std::max(0.0, free_at - head);
        free_at = std::max(free_at, head) + length * p_.beta + 1.0;
      }
      node = t_.neighbour(node, port);
      ++hops;
    }
  }
  const double in = depart + hops * p_.router_delay + length * p_.beta + p_.injection_delay + p_.ejection_delay + wait;
  // The receiver's processor takes one message at a time: a message of the multicast that arrived
  // there first (the coordinator ends the -X line of a source in row 0) is taken first.
  const std::optional<Holding>& busy = holds_[at(to)];
  const double free = busy && busy->time - p_.gamma <= in ? busy->time : in;
  return std::max(in, free) + p_.gamma;
}

void WormTimeline::queue_on_channels(const Worm& w, const Holding& depart, double length) {
  waited_.assign(w.hops.size() + 1, 0.0);
  if (!p_.channel_queueing) return;
  // The head takes channel i when the worm before it there has left it: that worm's head took it
  // at h, its tail crossed F - 1 cycles later, and its output VC is free the cycle after.
  double wait = 0;
  for (std::size_t i = 0; i < w.hops.size(); ++i) {
    const RouteHop& hop = w.hops[i];
    if (hop.node < 0 || hop.node >= t_.node_count() || hop.port < 0 || hop.port >= t_.port_count()) break;
    double& free_at = channel_free_[at(hop.node) * ports_ + static_cast<std::size_t>(hop.port)];
    const double head = depart.time + p_.injection_delay + static_cast<double>(i) * p_.router_delay + wait;
    wait += std::max(0.0, free_at - head);
    free_at = std::max(free_at, head) + length * p_.beta + 1.0;
    waited_[i + 1] = wait;
  }
}

void WormTimeline::record_arrivals(const Worm& w, const Holding& depart, double length) {
  // Deliveries and relays alike take the whole message in: same arrival. A node not on the route
  // (a planner bug) counts the whole route, as std::find would.
  for (std::size_t i = w.route.size(); i-- > 0;) position_[at(w.route[i])] = static_cast<int>(i);
  const auto hops_to = [&](NodeId node) {
    const int on_route = position_[at(node)];
    return on_route < 0 ? static_cast<int>(w.route.size()) : on_route;
  };
  for (const std::vector<NodeId>* receivers : {&w.keeps_copy, &w.relays, &w.part_receivers}) {
    for (NodeId node : *receivers) {
      const int hops = hops_to(node);
      // The papers' terms first, in their order, so their results stay bit for bit; the RTL's
      // pipeline terms are 0 there.
      const double arrival = depart.time + hops * p_.router_delay + length * p_.beta + p_.gamma + p_.injection_delay +
                             promotions_before(w, hops, hops_to) * p_.promotion_delay + p_.ejection_delay +
                             waited_[std::min<std::size_t>(static_cast<std::size_t>(hops), w.hops.size())];
      const Holding holding{arrival, w.step, depart.path_hops + hops};
      std::optional<Holding>& held = holds_[at(node)];
      if (!held) held = holding;
      std::optional<Holding>& last = latest_[at(node)];
      if (!last) {
        last = holding;
      } else {  // the whole message: its last part's arrival, in the last step that brings one
        if (last->time < arrival) last->path_hops = holding.path_hops;
        last->time = std::max(last->time, arrival);
        last->step = std::max(last->step, holding.step);
      }
      received_this_step_.push_back(node);
    }
  }
  for (NodeId node : w.route) position_[at(node)] = -1;
}

}  // namespace

PlanMetrics compute_metrics(const Request& request, const std::vector<Worm>& worms) {
  const Topology& t = request.topology;
  WormTimeline timeline(request, worms);
  timeline.run();
  PlanMetrics metrics;
  for (const Worm& w : worms) {
    metrics.steps = std::max(metrics.steps, w.step);
    metrics.traffic += static_cast<int>(w.hops.size());
  }
  metrics.additional_traffic = metrics.traffic - static_cast<int>(request.destinations.size());
  for (NodeId d : request.destinations) {
    const std::optional<Holding>& held = timeline.whole_message(d);
    if (!held) throw std::logic_error(fmt::format("no worm delivers to destination {}", t.node_name(d)));
    metrics.destinations.push_back(
        DestinationMetrics{d, held->step, t.distance(request.source, d), held->path_hops, held->time});
    metrics.latency = std::max(metrics.latency, held->time);
  }
  add_channel_sharing(t, worms, metrics);
  return metrics;
}

}  // namespace wormcast::model
