// SPDX-License-Identifier: Apache-2.0
// Synthetic traffic on a network of routers (either backend, sim/router_network.hpp): uniform random
// unicast packets with Bernoulli injection, optionally mixed with path-based multicasts, through
// infinite source queues, in warm-up, measurement and drain phases (docs/timing.md, "Benchmarks").
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "model/topology.hpp"
#include "sim/router_network.hpp"

namespace wormcast::sim {

struct TrafficConfig {
  std::string topology = "mesh:8x8";  // a 2D or 3D mesh or torus
  // Offered load in flits per node per cycle, in (0, 1]: each node creates a packet in a cycle with
  // probability load / length (Bernoulli), whatever the network accepts.
  double load = 0.1;
  int length = 20;  // L: flits of a unicast packet (head + L - 1 payload words), >= 1
  // Fraction of the packets that are multicasts to `destinations` random nodes (not the source),
  // sent as model::plan's dual-path worms: head, one address flit per further destination of the
  // worm, then the L - 1 payload words.
  double multicast_fraction = 0.0;
  int destinations = 4;  // K of a multicast, 1..N-1
  // "dimension-order" (dateline VCs on tori) or "hamiltonian-path"; "auto": dimension order for
  // unicast-only traffic, Hamiltonian path with multicasts (the dual-path worms' routing function).
  // Dimension order with multicasts is refused: its classes (0, and 1 past a torus's dateline) share
  // VCs 0 and 1 with the Hamiltonian path's high and low networks, and the two together close a
  // channel dependency cycle on tori such as torus:5x5 and torus:4x4x4 (acyclic on meshes):
  // TrafficRouting.DimensionOrderUnicastsWithDualPathWormsAreAcyclicOnMeshesAndCloseACycleOnTori.
  std::string routing = "auto";
  long warmup = 1000;   // cycles before packets are measured
  long measure = 2000;  // cycles in which created packets are measured
  // Drain: traffic goes on until every measured packet is delivered, at most this many cycles.
  long drain_limit = 20000;
  long watchdog = 2000;  // cycles without a flit on any link or ejection port while worms are in flight
  std::uint64_t seed = 1;
  bool keep_packets = false;  // fill TrafficResult::packets (the measured packets)
};

// One measured packet.
struct PacketRecord {
  model::NodeId source = model::kNoNode;
  std::vector<model::NodeId> destinations;  // one for a unicast
  long created = 0;
  std::vector<long> delivered;  // per destination: the cycle its tail left the ejection port; -1 not yet
  int hops = 0;                 // unicast: minimal hop count (the route's length in both routings)
};

struct TrafficResult {
  std::string backend;
  TrafficConfig config;
  std::string routing;  // the routing function used
  long cycles = 0;      // simulated, all phases
  long measured_packets = 0;
  long delivered_packets = 0;  // measured packets delivered in whole
  long created_packets = 0;    // all phases
  long ejected_flits = 0;      // in the measurement window, every copy's flits
  // Offered load as created: packets created in the measurement window x L, per node per cycle.
  double offered = 0;
  // Accepted throughput: flits ejected per node per cycle in the measurement window, every copy's
  // flits (so with multicasts it exceeds the offered load).
  double accepted = 0;
  // Means over the measured packets delivered: creation to the tail leaving the (last)
  // destination's ejection port.
  double mean_latency = 0;
  double mean_unicast_latency = 0;
  double mean_multicast_latency = 0;    // to the last destination
  double mean_destination_latency = 0;  // multicasts: over every (packet, destination)
  long max_latency = 0;
  double mean_hops = 0;  // unicasts
  // Beyond saturation: the flits ejected in the measurement window are below 90 % of the flits the
  // packets created in it must eject (every copy: head, address flits still to come, payload), or
  // a measured packet was still undelivered at the drain limit (its latency is then not in the
  // means).
  bool saturated = false;
  double wall_seconds = 0;            // of the cycle loop (construction excluded)
  double cpu_seconds = 0;             // the same in process CPU time (a shared machine's fairer figure)
  std::vector<PacketRecord> packets;  // with keep_packets
};

// The routing names run_traffic accepts.
std::string traffic_routings();

// Checks the configuration: throws model::SpecError naming the bad value and the valid range
// (load outside (0, 1], L < 1, a fraction outside [0, 1], K outside 1..N-1, an unknown routing or
// topology, phases < 0, watchdog < 1).
model::Topology validate(const TrafficConfig& config);

// A run that cannot go on: the watchdog fired (the message names the cycle, the worms in flight and
// the routers without a route), an RTL assertion fired, or a copy arrived damaged.
class TrafficError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Runs the traffic on routers from `backend` (validate() first). Throws TrafficError.
TrafficResult run_traffic(const TrafficConfig& config, RouterBackend& backend);

}  // namespace wormcast::sim
