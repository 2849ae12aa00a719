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

// THE registry: one entry per algorithm, naming its family planner; plan(), algorithms(), the CLI
// and the sweep driver pick it up. The firmware and the VC-class plan list the algorithms too
// (docs/algorithms.md, "Adding an algorithm").
const std::vector<Entry>& registry() {
  static const std::vector<Entry> entries = {
      {plan_unicast_multicast,
       {kUnicastAlgorithm, "unicast-based multicast (seed 000)", "2D/3D meshes; tori with the wraps unused",
        "one-port or an even number of ports", false,
        "separate addressing: one unicast per destination (K = 1: the plain unicast)", PortModel::one_port()}},
      {plan_unicast_multicast,
       {kOnePortAlgorithm, "unicast-based multicast (seed 000)", "2D/3D meshes; tori with the wraps unused", "one-port",
        false, "recursive halving of the labeling-ordered chain, ceil(log2(K+1)) steps", PortModel::one_port()}},
      {plan_unicast_multicast,
       {kTwoPortAlgorithm, "unicast-based multicast (seed 000)", "2D/3D meshes; tori with the wraps unused", "two-port",
        false, "Figure 4: two-thirds partitions of the chain, one worm per channel network", PortModel::two_port()}},
      {plan_unicast_multicast,
       {kDPortAlgorithm, "unicast-based multicast (seed 000)", "2D/3D meshes; tori with the wraps unused",
        "an even number of ports (two-port, d-port, all-port)", false,
        "the even-d generalisation of Figure 4 (experimental for d > 2)", PortModel::two_port()}},
      {plan_broadcast_baseline,
       {kRecursiveDoublingAlgorithm, "unicast-based broadcast baseline (seed 002)", "2D/3D meshes of any size",
        "any (uses one port)", true, "Recursive Doubling: halve rows, then columns; 2k steps on 2^k x 2^k",
        PortModel::one_port()}},
      {plan_broadcast_baseline,
       {kExtendedDominatingNodeAlgorithm, "unicast-based broadcast baseline (seed 002)", "2^k x 2^k meshes, k >= 2",
        "all-port", true,
        "Extended Dominating Node: two steps to the four top EDNs, then one level per step; k+1 steps",
        PortModel::all_port()}},
      {plan_broadcast_baseline,
       {kNetworkPartitioningAlgorithm, "unicast-based broadcast baseline (seed 002)", "2^k x 2^k meshes, k >= 1",
        "all-port", true,
        "Network Partitioning: 4 sub-messages, one per DDN, broadcast in the DDNs, combined in 2x2 blocks; k+2 steps",
        PortModel::all_port()}},
      {plan_path_multicast,
       {kLinAlgorithm, "path-based multicast (seed 004, Lin-Ni)", "2D/3D meshes; tori with the wraps unused",
        "any (all-port sends its worms at once)", false,
        "one worm along the row-snake Hamiltonian path (from label 0; dual-path's worms elsewhere)",
        PortModel::all_port()}},
      {plan_path_multicast,
       {kDualPathAlgorithm, "path-based multicast (Lin-Ni)", "2D/3D meshes; tori with the wraps unused",
        "any (all-port sends its worms at once)", false,
        "two worms: labels above the source ascending (high network), below descending (low network)",
        PortModel::all_port()}},
      {plan_path_multicast,
       {kMultiPathAlgorithm, "path-based multicast (Lin-Ni)", "2D meshes", "all-port", false,
        "up to four worms, dual-path's halves split by the source column", PortModel::all_port()}},
      {plan_path_multicast,
       {kUniformDualPathAlgorithm, "path-based multicast, Hamiltonian cycle (seed 001)",
        "2D tori with an even row count; star graphs", "any (all-port sends its worms at once)", false,
        "two worms around the cycle, the first ceil(K/2) destinations in the high network", PortModel::all_port()}},
      {plan_path_multicast,
       {kFixedDualPathAlgorithm, "path-based multicast, Hamiltonian cycle (seed 001)",
        "2D tori with an even row count; star graphs", "any (all-port sends its worms at once)", false,
        "two worms around the cycle, split at the pivot label(s) +- ceil(N/2)", PortModel::all_port()}},
      {plan_path_multicast,
       {kThreeDblAlgorithm, "path-based broadcast (seed 003)", "3D meshes", "any (all-port sends its worms at once)",
        false, "Z column worms to the layer sources, then a dual-path in every layer; 2 start-up phases",
        PortModel::all_port()}},
      {plan_cpr_broadcast,
       {kPcpAlgorithm, "coded path routing broadcast (seed 002)", "2D meshes", "all-port", true,
        "control field 11 worms along the source row and column; the column's routers replicate into rows",
        PortModel::all_port()}},
      {plan_cpr_broadcast,
       {kThreeDbsAlgorithm, "coded path routing broadcast (seed 003)", "3D meshes", "all-port", true,
        "straight-line XYZ tree: the X line, Y lines from it, Z lines from those; 3 steps", PortModel::all_port()}},
      {plan_xy_path,
       {kXyPathAlgorithm, "path-based multicast (seed 004)", "2D meshes, source at a corner", "all-port", false,
        "two worms on the X and Y Hamiltonian paths of Algorithm 3.3.1 (Y path built first)", PortModel::all_port()}},
      {plan_xy_path,
       {kXyPathXFirstAlgorithm, "path-based multicast (seed 004)", "2D meshes, source at a corner", "all-port", false,
        "xy-path with the X path built first (the pseudo-code's order)", PortModel::all_port()}},
      {plan_tree_multicast,
       {kVhAlgorithm, "store-and-forward tree (seed 004)", "2D/3D meshes and tori", "any (the thesis: one-port)", false,
        "dimension-ordered (X, then Y, then Z) shortest-path tree", PortModel::one_port()}},
      {plan_tree_multicast,
       {kDiagAlgorithm, "store-and-forward tree (seed 004)", "2D/3D meshes and tori", "any (the thesis: one-port)",
        false, "diagonal stem toward the coordinate-wise maxima, destinations attached to the nearest tree node",
        PortModel::one_port()}},
      {plan_tree_multicast,
       {kDdsAlgorithm, "store-and-forward tree (seed 004)", "2D/3D meshes and tori", "any (the thesis: one-port)",
        false, "destinations in dimensional-distance-sorted order, each attached to the nearest tree node",
        PortModel::one_port()}},
      {plan_tree_multicast,
       {kMinAlgorithm, "store-and-forward tree (Harutyunyan and Liu, via seed 004)", "2D/3D meshes and tori",
        "any (the thesis: one-port)", false,
        "our reading of MIN: smallest coordinate per dimension in turn, attached to the nearest tree node",
        PortModel::one_port()}},
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
