// SPDX-License-Identifier: Apache-2.0
// Multicast plans: what must happen for one request (docs/algorithms.md, "Requests and plans").
//
// A Request names the network, the algorithm, the source, the destinations, the message length and
// the node architecture (port model and processor/network latency parameters). A Plan lists the
// worms the algorithm sends, each with its sender, message-passing step, header, route, the
// destinations that keep a copy and the relays that take one only to forward it, plus the metrics
// computed from them (compute_metrics, below).
//
// Plans are value types built by pure functions; nothing here does I/O.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/labeling.hpp"
#include "model/routing.hpp"
#include "model/topology.hpp"

namespace wormcast::model {

// The node's injection/ejection channel pairs ([1]'s "d-port architecture").
enum class PortModelKind { kOnePort, kTwoPort, kAllPort, kDPort };

struct PortModel {
  PortModelKind kind = PortModelKind::kOnePort;
  // d for kDPort (>= 1); 1 for kOnePort and 2 for kTwoPort; ignored for kAllPort, whose count is
  // the router's network port count (4 in a 2D mesh, 6 in a 3D mesh).
  int count = 1;

  static PortModel one_port() { return {PortModelKind::kOnePort, 1}; }
  static PortModel two_port() { return {PortModelKind::kTwoPort, 2}; }
  static PortModel all_port() { return {PortModelKind::kAllPort, 0}; }
  static PortModel d_port(int d) { return {PortModelKind::kDPort, d}; }

  // Messages a node can inject at a time on `topology`.
  int injection_ports(const Topology& topology) const;
  // `one-port`, `two-port`, `all-port`, `4-port`.
  std::string name() const;
  bool operator==(const PortModel&) const = default;
};

// Latency parameters, in cycles of the network clock (the unit of the RTL runs). The defaults are
// the papers': one cycle per flit per link (beta) and per router hop, and the start-up costs at the
// Cray T3D ratio of [3]: alpha = 0.75 us over beta = 0.0033 us per flit gives about 227 flit
// times; the papers assume gamma ~= alpha and mu = alpha. rtl() is the RTL and its harness, each
// figure derived from the router's pipeline and the network interface (docs/timing.md, "The
// analytic opinion"); its plan latencies are the independent timing opinion `wormcast compare`
// puts beside the RTL's delivery cycles.
struct LatencyParameters {
  double alpha = 227.0;       // send start-up: the processor prepares and injects one message
  double gamma = 227.0;       // receive start-up: the processor takes one message out
  double beta = 1.0;          // transmitting one flit over one channel
  double mu = 227.0;          // a router changing a CPR control field (unused by unicast plans)
  double router_delay = 1.0;  // the header crossing one router and link (per hop)
  // The sender's router: what the head adds once it has crossed the injection channel (whose
  // cycle is its beta), before it leaves on the first link.
  double injection_delay = 0.0;
  // From the last router's ejection port to the receiving processor (before gamma).
  double ejection_delay = 0.0;
  // A router promoting an address flit to the head (docs/header-format.md, "Address flit"): each
  // intermediate destination of a multidestination worm, each further group of a source route.
  double promotion_delay = 0.0;
  // true: a worm is as many flits as the firmware sends (the head, its address flits, the payload's
  // control and address-field words, then the L data words: docs/firmware.md, "Message format");
  // false: L flits, the papers' message.
  bool wire_lengths = false;
  // true: each injection channel pays its own alpha, so a worm costs alpha whatever the copies its
  // sender prepares in the step (the harness's network interface); false: prepared_copies * alpha,
  // [3], eq. (3).
  bool startup_per_channel = false;
  // true: a worm's head waits for a directed channel until the worm before it there has left it
  // (its head F - 1 cycles ahead of its tail, its output VC free the cycle after): the queueing of
  // one multicast's own worms on a shared channel, in the order the worms are costed (step, then
  // plan order). false: contention-free, the papers' formula.
  bool channel_queueing = false;
  // true: a worm the routers replicate onto network channels (a root with spawned worms: PCP's
  // spine) leaves only once its source holds the replication lock (docs/firmware.md, "The
  // replication lock"): a request to the coordinator, kReplicationLockCoordinator, and its grant
  // back, two lock messages of kLockMessageFlits flits on dimension-order routes, each paying
  // alpha, its flits and hops and gamma like any worm; nothing when the source is the coordinator.
  // false: the papers' routers, which need no lock.
  bool replication_lock = false;

  // The RTL with the harness's start-up costs alpha and gamma (the `wormcast run` options).
  static LatencyParameters rtl(double alpha, double gamma);
  bool operator==(const LatencyParameters&) const = default;
};

// The replication lock's coordinator and the length of its messages on the wire (a head, then the
// three control words: docs/firmware.md, "The replication lock").
inline constexpr NodeId kReplicationLockCoordinator = 0;
inline constexpr int kLockMessageFlits = 4;

struct Request {
  Topology topology;
  std::string algorithm;
  NodeId source = kNoNode;
  std::vector<NodeId> destinations;  // K distinct nodes, none of them the source
  int length_flits = 1;              // L >= 1
  PortModel ports = PortModel::one_port();
  LatencyParameters latency;
  bool operator==(const Request&) const = default;
};

// Throws unless the request can be planned: NodeError for a source or destination outside the
// network, RequestError for an empty destination set, a repeated destination, the source among
// the destinations, L < 1, or a d-port model with d < 1. Each message names the bad value and
// what is valid. It does not check the algorithm name (each planner does).
void validate(const Request& request);

// A validated Request (see validate()).
Request make_request(Topology topology, std::string algorithm, NodeId source, std::vector<NodeId> destinations,
                     int length_flits, PortModel ports, LatencyParameters latency = {});

enum class WormKind { kUnicast, kMultidestinationPath, kCprLine, kStoreAndForwardHop };

// How routers route the worm (the head flit's routing-mode field).
enum class RoutingMode { kHamiltonianPath, kHamiltonianCycle, kDimensionOrder, kCprLine, kSourceRouted };

const char* to_string(PortModelKind kind);
const char* to_string(WormKind kind);
const char* to_string(RoutingMode mode);

// Width of the CPR control field ([3], Fig. 1); other worms carry 0.
inline constexpr int kControlFieldBits = 2;

struct WormHeader {
  RoutingMode mode = RoutingMode::kHamiltonianPath;
  // The channel network the route uses, where the labeling defines one (Hamiltonian modes).
  std::optional<ChannelNetwork> subnetwork;
  VcClass vc = 0;
  std::uint8_t control_field = 0;  // kControlFieldBits wide
  // The nodes the routers deliver to, in order: the receiver of a unicast, the destinations of a
  // multidestination worm.
  std::vector<NodeId> destinations;
  bool operator==(const WormHeader&) const = default;
};

struct Worm {
  NodeId sender = kNoNode;
  int step = 1;  // message-passing step, 1-based
  WormKind kind = WormKind::kUnicast;
  WormHeader header;
  // The injection port of the sender (0 .. ports-1) and, where the architecture binds ports to
  // channel networks (the two-port and d-port models of seed 000: the first half of the ports
  // inject into the low network, the second half into the high one), that port's network.
  int port = 0;
  std::optional<ChannelNetwork> port_network;
  // route[0] is the sender and route.back() the last node; hops[i] is the channel from route[i]
  // to route[i + 1] (the port disambiguates parallel links of 2-wide tori).
  std::vector<NodeId> route;
  std::vector<RouteHop> hops;
  // Destinations that keep a copy of the message (deliveries), in route order. Only destinations:
  // a node that takes the message in without being one is a relay (below).
  std::vector<NodeId> keeps_copy;
  // Nodes that are not destinations but take the whole message in only to forward it (a
  // store-and-forward tree's inner nodes, a 3-DBL layer source whose layer holds destinations): the
  // processor receives it (gamma) and sends later worms, but does not deliver it to the
  // application. In route order; empty for most worms.
  std::vector<NodeId> relays;
  // Unicast-based algorithms: the destinations the receiver becomes responsible for (including
  // itself), carried in the payload. Empty for other worms.
  std::vector<NodeId> address_field;
  // Start-up of a worm the sender's processor injects ([3], eq. (3)): the sender prepares
  // `prepared_copies` copies of the message one after another and injects them together, so this
  // worm pays prepared_copies * alpha, after changing the CPR control field `control_field_changes`
  // times (mu each). The defaults are the plain send: one alpha, no mu.
  int prepared_copies = 1;
  int control_field_changes = 0;
  // Router replication (PCP's spine, [3], Fig. 2): the index in Plan::worms of the worm whose router at
  // `sender` spawns this one, in the same step. No processor is involved: the spawned worm leaves
  // when the parent's header reaches `sender` and pays no alpha or mu (its start-up fields are
  // ignored, and `port` names the router output it leaves on, not an injection port). nullopt for
  // every worm a node's processor sends.
  std::optional<std::size_t> spawned_from;
  // Destinations that take in a part of the message to forward and combine it (np-d's
  // sub-messages): received like a delivery, but the message is delivered to a destination by the
  // worm that completes it (keeps_copy). In route order; empty for other algorithms.
  std::vector<NodeId> part_receivers;
  // The data flits this worm carries: 0 for the whole message (L). A positive value is part of it,
  // as network partitioning (np-d) sends: its sub-messages, alone or combined.
  int data_flits = 0;
  bool operator==(const Worm&) const = default;
};

// The data flits `worm` carries: its data_flits, or the request's L when that is 0.
int worm_data_flits(const Request& request, const Worm& worm);

struct DestinationMetrics {
  NodeId destination = kNoNode;
  int step = 0;          // step of the worm that delivers to it
  int distance = 0;      // shortest hop distance from the source
  int path_hops = 0;     // links the delivered copy crossed since the source, over its chain of worms
  double latency = 0.0;  // contention-free latency (compute_metrics)
  bool operator==(const DestinationMetrics&) const = default;
};

// Two worms that use the same directed physical channel.
struct SharedChannel {
  NodeId node = kNoNode;  // the channel leaves `node` on `port`
  Port port = kNoPort;
  std::size_t first_worm = 0;  // indices into Plan::worms, first_worm < second_worm
  std::size_t second_worm = 0;
  bool operator==(const SharedChannel&) const = default;
};

struct PlanMetrics {
  int steps = 0;
  // Channel traversals: the sum over worms of the links each crosses. A directed channel used by
  // two worms counts twice, because it carries the message twice (docs/algorithms.md, "Traffic").
  // For trees and single path worms, where no channel is reused, this is the thesis's |E(MT)|.
  int traffic = 0;
  int distinct_channels = 0;                     // directed channels used by at least one worm
  int additional_traffic = 0;                    // traffic - K
  double latency = 0.0;                          // the largest destination latency (multicast latency)
  std::vector<DestinationMetrics> destinations;  // in Request::destinations order
  // Every (pair of worms, channel) they share, ordered by worm indices then channel.
  std::vector<SharedChannel> shared_channels;
  // [1]'s contention diagnostics (Definitions 3-4, Theorems 1-3), counted as pairs of worms that
  // share at least one channel: stepwise = both sent in the same step; depth = sent in different
  // steps by different senders (V6's "cross-step channel sharing"; a sender's own worms leave
  // through its ports one after another). Two-port plans have stepwise 0 (Thm 1-3); depth is not 0
  // in general (docs/algorithms.md, the unicast-based "Resolved ambiguities").
  int stepwise_contention = 0;
  int depth_contention = 0;
  bool operator==(const PlanMetrics&) const = default;
};

struct Plan {
  Request request;
  std::vector<Worm> worms;  // ordered by step
  PlanMetrics metrics;
  bool operator==(const Plan&) const = default;
};

// Metrics of `worms` for `request`. Contention-free latency, per worm ([3], eq. (3) with one copy
// and no control-field change, and the thesis's wormhole D + L, eq. 2.1.10), with F the worm's
// flits (L, or its wire length: LatencyParameters::wire_lengths):
//   start   = max(time the sender holds the message, time its injection port is free)
//   depart  = start + alpha
//   arrival = depart + F * beta + injection_delay + hops_to_node * router_delay
//             + promotions_before_node * promotion_delay + ejection_delay + gamma
//             + the head's waits for channels before the node (channel_queueing; 0 without)
//   the port is free again at depart + F * beta (the tail has left the sender)
// With Worm::prepared_copies = M and control_field_changes = C, "alpha" above is M * alpha + C * mu
// (eq. 3; alpha + C * mu with startup_per_channel). A worm spawned by a router (Worm::spawned_from)
// has no start or port: its header leaves `sender` when the parent's header gets there, so its
// depart is the parent's plus hops * router_delay and its arrivals follow the formula above.
// The source holds the message at 0; any other node from its first arrival, as a delivery
// (Worm::keeps_copy) or a relay (Worm::relays) alike. A destination's latency is its arrival.
// Throws std::logic_error if a worm's sender never received the message, a spawned worm's parent
// is not an earlier worm of its step passing its sender, a hop is not a channel of the topology,
// or a destination is never delivered to (a planner bug, not bad input).
PlanMetrics compute_metrics(const Request& request, const std::vector<Worm>& worms);

}  // namespace wormcast::model
