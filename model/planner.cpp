// SPDX-License-Identifier: Apache-2.0
#include "model/planner.hpp"

#include <fmt/format.h>

#include "model/broadcast_baselines.hpp"
#include "model/cpr_broadcast.hpp"
#include "model/errors.hpp"
#include "model/path_multicast.hpp"
#include "model/tree_multicast.hpp"
#include "model/unicast_multicast.hpp"
#include "model/xy_path.hpp"

namespace wormcast::model {
namespace {

using Planner = Plan (*)(const Request&);

struct Entry {
  Planner planner;
  AlgorithmInfo info;
};

// Where the firmware's `check` handlers accept an algorithm, port counts aside (firmware/*.cpp,
// check_*; restated here because the model may not include the firmware).
bool on_grid(const Topology& t) { return t.is_mesh() || t.is_torus(); }
bool on_grid_2d(const Topology& t) { return on_grid(t) && t.dimensions() == 2; }
bool on_grid_3d(const Topology& t) { return on_grid(t) && t.dimensions() == 3; }
bool on_mesh(const Topology& t) { return t.is_mesh(); }
bool on_mesh_2d(const Topology& t) { return t.is_mesh() && t.dimensions() == 2; }
bool on_mesh_3d(const Topology& t) { return t.is_mesh() && t.dimensions() == 3; }
// check_hp_dual_path.
bool on_star(const Topology& t) { return t.is_star(); }
// check_cycle: a star graph, or a 2D torus with an even row count.
bool on_hamiltonian_cycle(const Topology& t) {
  return t.is_star() || (t.is_torus() && t.dimensions() == 2 && t.size(1) % 2 == 0);
}
// A 2^k x 2^k mesh with sides from `smallest` to 64 (edn_side, npd_side).
template <int smallest>
bool on_square_power_of_two_mesh(const Topology& t) {
  if (!on_mesh_2d(t)) return false;
  const int n = t.size(0);
  return t.size(1) == n && n >= smallest && n <= 64 && (n & (n - 1)) == 0;
}

using F = RoutingFamily;
using A = AddressEntries;

// THE registry: one entry per algorithm, naming its family planner and describing it; plan(),
// algorithms(), the CLI, the sweep driver, the wire lengths and the VC-class plan read it. The
// firmware lists the algorithms too (firmware/algorithm_table.hpp; docs/algorithms.md, "Adding an
// algorithm").
const std::vector<Entry>& registry() {
  static const std::vector<Entry> entries = {
      {plan_unicast_multicast,
       {.name = kUnicastAlgorithm,
        .family = "unicast-based multicast (seed 000)",
        .topologies = "2D/3D meshes; tori with the wraps unused",
        .port_models = "one-port or an even number of ports",
        .summary = "separate addressing: one unicast per destination (K = 1: the plain unicast)",
        .default_ports = PortModel::one_port(),
        .routing_families = {F::kHamiltonianPath},
        .firmware_runs_on = on_grid,
        .address_entries = A::kUnicastChain}},
      {plan_unicast_multicast,
       {.name = kOnePortAlgorithm,
        .family = "unicast-based multicast (seed 000)",
        .topologies = "2D/3D meshes; tori with the wraps unused",
        .port_models = "one-port",
        .summary = "recursive halving of the labeling-ordered chain, ceil(log2(K+1)) steps",
        .default_ports = PortModel::one_port(),
        .routing_families = {F::kHamiltonianPath},
        .firmware_runs_on = on_grid,
        .address_entries = A::kUnicastChain}},
      {plan_unicast_multicast,
       {.name = kTwoPortAlgorithm,
        .family = "unicast-based multicast (seed 000)",
        .topologies = "2D/3D meshes; tori with the wraps unused",
        .port_models = "two-port",
        .summary = "Figure 4: two-thirds partitions of the chain, one worm per channel network",
        .default_ports = PortModel::two_port(),
        .routing_families = {F::kHamiltonianPath},
        .firmware_runs_on = on_grid,
        .address_entries = A::kUnicastChain}},
      {plan_unicast_multicast,
       {.name = kDPortAlgorithm,
        .family = "unicast-based multicast (seed 000)",
        .topologies = "2D/3D meshes; tori with the wraps unused",
        .port_models = "an even number of ports (two-port, d-port, all-port)",
        .summary = "the even-d generalisation of Figure 4 (experimental for d > 2)",
        .default_ports = PortModel::two_port(),
        .routing_families = {F::kHamiltonianPath},
        .firmware_runs_on = on_grid,
        .address_entries = A::kUnicastChain}},
      {plan_broadcast_baseline,
       {.name = kRecursiveDoublingAlgorithm,
        .family = "unicast-based broadcast baseline (seed 002)",
        .topologies = "2D/3D meshes of any size",
        .port_models = "any (uses one port)",
        .broadcast = true,
        .summary = "Recursive Doubling: halve rows, then columns; 2k steps on 2^k x 2^k",
        .default_ports = PortModel::one_port(),
        .routing_families = {F::kDimensionOrder},
        .firmware_runs_on = on_mesh,
        .dimension_order_worms = DimensionOrderWorms::kAlongLine,
        .one_injection_channel = true}},
      {plan_broadcast_baseline,
       {.name = kExtendedDominatingNodeAlgorithm,
        .family = "unicast-based broadcast baseline (seed 002)",
        .topologies = "2^k x 2^k meshes, k >= 2",
        .port_models = "all-port",
        .broadcast = true,
        .summary = "Extended Dominating Node: two steps to the four top EDNs, then one level per step; k+1 steps",
        .default_ports = PortModel::all_port(),
        .routing_families = {F::kDimensionOrder, F::kEdnYxLeg},
        .firmware_runs_on = on_square_power_of_two_mesh<4>,
        .dimension_order_worms = DimensionOrderWorms::kAnyPair}},
      {plan_broadcast_baseline,
       {.name = kNetworkPartitioningAlgorithm,
        .family = "unicast-based broadcast baseline (seed 002)",
        .topologies = "2^k x 2^k meshes, k >= 1",
        .port_models = "all-port",
        .broadcast = true,
        .summary = "Network Partitioning: 4 sub-messages, one per DDN, broadcast in the DDNs, combined in 2x2 blocks; "
                   "k+2 steps",
        .default_ports = PortModel::all_port(),
        .routing_families = {F::kDimensionOrder, F::kEdnYxLeg},
        .firmware_runs_on = on_square_power_of_two_mesh<2>,
        .dimension_order_worms = DimensionOrderWorms::kAnyPair}},
      {plan_path_multicast,
       {.name = kLinAlgorithm,
        .family = "path-based multicast (seed 004, Lin-Ni)",
        .topologies = "2D/3D meshes; tori with the wraps unused",
        .port_models = "any (all-port sends its worms at once)",
        .summary = "one worm along the row-snake Hamiltonian path (from label 0; dual-path's worms elsewhere)",
        .default_ports = PortModel::all_port(),
        .routing_families = {F::kHamiltonianPath},
        .firmware_runs_on = on_grid}},
      {plan_path_multicast,
       {.name = kDualPathAlgorithm,
        .family = "path-based multicast (Lin-Ni)",
        .topologies = "2D/3D meshes; tori with the wraps unused",
        .port_models = "any (all-port sends its worms at once)",
        .summary = "two worms: labels above the source ascending (high network), below descending (low network)",
        .default_ports = PortModel::all_port(),
        .routing_families = {F::kHamiltonianPath},
        .firmware_runs_on = on_grid}},
      {plan_path_multicast,
       {.name = kMultiPathAlgorithm,
        .family = "path-based multicast (Lin-Ni)",
        .topologies = "2D meshes",
        .port_models = "all-port",
        .summary = "up to four worms, dual-path's halves split by the source column",
        .default_ports = PortModel::all_port(),
        .routing_families = {F::kHamiltonianPath, F::kMultiPathPrefix},
        .firmware_runs_on = on_grid_2d}},
      {plan_path_multicast,
       {.name = kUniformDualPathAlgorithm,
        .family = "path-based multicast, Hamiltonian cycle (seed 001)",
        .topologies = "2D tori with an even row count; star graphs",
        .port_models = "any (all-port sends its worms at once)",
        .summary = "two worms around the cycle, the first ceil(K/2) destinations in the high network",
        .default_ports = PortModel::all_port(),
        .routing_families = {F::kHamiltonianCycle},
        .firmware_runs_on = on_hamiltonian_cycle}},
      {plan_path_multicast,
       {.name = kFixedDualPathAlgorithm,
        .family = "path-based multicast, Hamiltonian cycle (seed 001)",
        .topologies = "2D tori with an even row count; star graphs",
        .port_models = "any (all-port sends its worms at once)",
        .summary = "two worms around the cycle, split at the pivot label(s) +- ceil(N/2)",
        .default_ports = PortModel::all_port(),
        .routing_families = {F::kHamiltonianCycle},
        .firmware_runs_on = on_hamiltonian_cycle}},
      {plan_path_multicast,
       {.name = kHpDualPathAlgorithm,
        .family = "path-based multicast, Hamiltonian path of the star cycle (seed 001's baseline)",
        .topologies = "star graphs",
        .port_models = "any (all-port sends its worms at once)",
        .summary = "dual-path's two worms on the star graph's Hamiltonian path, routed over its common links",
        .default_ports = PortModel::all_port(),
        .routing_families = {F::kHamiltonianCycle},
        .firmware_runs_on = on_star}},
      {plan_path_multicast,
       {.name = kThreeDblAlgorithm,
        .family = "path-based broadcast (seed 003)",
        .topologies = "3D meshes",
        .port_models = "any (all-port sends its worms at once)",
        .summary = "Z column worms to the layer sources, then a dual-path in every layer; 2 start-up phases",
        .default_ports = PortModel::all_port(),
        .routing_families = {F::kHamiltonianPath},
        .firmware_runs_on = on_grid_3d,
        .address_entries = A::kColumnLayers}},
      {plan_cpr_broadcast,
       {.name = kPcpAlgorithm,
        .family = "coded path routing broadcast (seed 002)",
        .topologies = "2D meshes",
        .port_models = "all-port",
        .broadcast = true,
        .summary = "control field 11 worms along the source row and column; the column's routers replicate into rows",
        .default_ports = PortModel::all_port(),
        .routing_families = {F::kCprLine, F::kPcpBranch},
        .firmware_runs_on = on_mesh_2d,
        .takes_replication_lock = true}},
      {plan_cpr_broadcast,
       {.name = kThreeDbsAlgorithm,
        .family = "coded path routing broadcast (seed 003)",
        .topologies = "3D meshes",
        .port_models = "all-port",
        .broadcast = true,
        .summary = "straight-line XYZ tree: the X line, Y lines from it, Z lines from those; 3 steps",
        .default_ports = PortModel::all_port(),
        .routing_families = {F::kCprLine},
        .firmware_runs_on = on_mesh_3d}},
      {plan_xy_path,
       {.name = kXyPathAlgorithm,
        .family = "path-based multicast (seed 004)",
        .topologies = "2D meshes, source at a corner",
        .port_models = "all-port",
        .summary = "two worms on the X and Y Hamiltonian paths of Algorithm 3.3.1 (Y path built first)",
        .default_ports = PortModel::all_port(),
        .routing_families = {F::kXyPathRoute},
        .firmware_runs_on = on_mesh_2d}},
      {plan_xy_path,
       {.name = kXyPathXFirstAlgorithm,
        .family = "path-based multicast (seed 004)",
        .topologies = "2D meshes, source at a corner",
        .port_models = "all-port",
        .summary = "xy-path with the X path built first (the pseudo-code's order)",
        .default_ports = PortModel::all_port(),
        .routing_families = {F::kXyPathRoute},
        .firmware_runs_on = on_mesh_2d}},
      {plan_tree_multicast,
       {.name = kVhAlgorithm,
        .family = "store-and-forward tree (seed 004)",
        .topologies = "2D/3D meshes and tori",
        .port_models = "any (the thesis: one-port)",
        .summary = "dimension-ordered (X, then Y, then Z) shortest-path tree",
        .default_ports = PortModel::one_port(),
        .routing_families = {F::kDimensionOrder},
        .firmware_runs_on = on_grid,
        .address_entries = A::kTreeSubtree,
        .dimension_order_worms = DimensionOrderWorms::kOneHop}},
      {plan_tree_multicast,
       {.name = kDiagAlgorithm,
        .family = "store-and-forward tree (seed 004)",
        .topologies = "2D/3D meshes and tori",
        .port_models = "any (the thesis: one-port)",
        .summary = "diagonal stem toward the coordinate-wise maxima, destinations attached to the nearest tree node",
        .default_ports = PortModel::one_port(),
        .routing_families = {F::kDimensionOrder},
        .firmware_runs_on = on_grid,
        .address_entries = A::kTreeSubtree,
        .dimension_order_worms = DimensionOrderWorms::kOneHop}},
      {plan_tree_multicast,
       {.name = kDdsAlgorithm,
        .family = "store-and-forward tree (seed 004)",
        .topologies = "2D/3D meshes and tori",
        .port_models = "any (the thesis: one-port)",
        .summary = "destinations in dimensional-distance-sorted order, each attached to the nearest tree node",
        .default_ports = PortModel::one_port(),
        .routing_families = {F::kDimensionOrder},
        .firmware_runs_on = on_grid,
        .address_entries = A::kTreeSubtree,
        .dimension_order_worms = DimensionOrderWorms::kOneHop}},
      {plan_tree_multicast,
       {.name = kMinAlgorithm,
        .family = "store-and-forward tree (Harutyunyan and Liu, via seed 004)",
        .topologies = "2D/3D meshes and tori",
        .port_models = "any (the thesis: one-port)",
        .summary = "our reading of MIN: smallest coordinate per dimension in turn, attached to the nearest tree node",
        .default_ports = PortModel::one_port(),
        .routing_families = {F::kDimensionOrder},
        .firmware_runs_on = on_grid,
        .address_entries = A::kTreeSubtree,
        .dimension_order_worms = DimensionOrderWorms::kOneHop}},
  };
  return entries;
}

const Entry& entry(std::string_view name) {
  for (const Entry& e : registry()) {
    if (e.info.name == name) return e;
  }
  throw SpecError(fmt::format("unknown algorithm '{}'; valid: {}", name, fmt::join(algorithm_names(), ", ")));
}

}  // namespace

std::vector<AlgorithmInfo> algorithms() {
  std::vector<AlgorithmInfo> infos;
  for (const Entry& e : registry()) infos.push_back(e.info);
  return infos;
}

std::vector<std::string> algorithm_names() {
  std::vector<std::string> names;
  for (const Entry& e : registry()) names.push_back(e.info.name);
  return names;
}

const AlgorithmInfo& algorithm_info(std::string_view name) { return entry(name).info; }

Plan plan(const Request& request) { return entry(request.algorithm).planner(request); }

}  // namespace wormcast::model
