// SPDX-License-Identifier: Apache-2.0
// CPR broadcasts on all-port meshes: PCP ([3], Figs. 1-2, eqs. (3)-(5)) and 3-DBS ([4], Section 3.2).
//
// Every worm is a CPR line worm (WormKind::kCprLine, RoutingMode::kCprLine, routed straight by
// CprLineRouting) addressed to the node at the end of its line, with control field 11: every router
// on the line delivers and passes it, and the addressed end router delivers and absorbs it
// (cpr_router_action: [3]'s Fig. 1 under reading A, docs/algorithms.md "The control field";
// V17). Algorithms:
//   "pcp"    PCP broadcast, all-port 2D mesh ([3], Fig. 2; the spine is the source column): the
//            source sends up to four worms to the ends of its row and column; every router of the
//            source column (the spine) spawns +-X worms to the ends of its row. Router replication
//            is not a send, so it is one message-passing step (Worm::spawned_from).
//   "3dbs"  3-DBS, all-port 3D mesh, reading R1 of [4] (docs/algorithms.md "3-DBS"): the
//            straight-line XYZ spanning tree. The source sends +-X, +-Y, +-Z lines; every node
//            that a line along dimension d reaches re-injects lines along every higher dimension,
//            so X-line nodes send +-Y and +-Z lines, Y-line nodes +-Z lines, and the line phases
//            X -> Y -> Z are 3 steps.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/plan.hpp"

namespace wormcast::model {

// Algorithm names (Request::algorithm).
inline constexpr const char* kPcpAlgorithm = "pcp";
inline constexpr const char* kThreeDbsAlgorithm = "3dbs";
std::vector<std::string> cpr_broadcast_names();

// The 2-bit CPR control field ([3], Fig. 1).
inline constexpr std::uint8_t kCprUnicast = 0b00;
inline constexpr std::uint8_t kCprReceiveAndStop = 0b01;
inline constexpr std::uint8_t kCprPassOnly = 0b10;
inline constexpr std::uint8_t kCprReceiveAndPass = 0b11;

// What a router does with a CPR worm that reaches it.
struct CprRouterAction {
  bool deliver = false;  // hand a copy to the local node
  bool pass = false;     // forward the worm to the next router of its line
  bool operator==(const CprRouterAction&) const = default;
};

// [3], Fig. 1, reading A (docs/algorithms.md "The control field"; V17). The addressed router
// delivers and absorbs whatever the field; a router that is not addressed passes 00 (ordinary
// unicast transit) and 10, delivers and passes 11, and delivers 01, where the worm ends. Throws
// RoutingError for a value wider than 2 bits.
CprRouterAction cpr_router_action(std::uint8_t control_field, bool addressed);

// The routers that keep a copy of a CPR worm travelling `route` (route[0] its sender, route.back()
// the addressed router) with `control_field`, in route order, by cpr_router_action.
std::vector<NodeId> cpr_deliveries(const std::vector<NodeId>& route, std::uint8_t control_field);

// [3], eq. (4): how far the source's row and column reach, d_X = max(Nx-1-Sx, Sx) and
// d_Y = max(Ny-1-Sy, Sy). The hop distance to PCP's last node is d_X + d_Y (V18).
struct PcpReach {
  int d_x = 0;
  int d_y = 0;
  bool operator==(const PcpReach&) const = default;
};
PcpReach pcp_reach(const Topology& topology, NodeId source);

// [3], eq. (5) with M = `copies`: tau_PCP = beta (d_X + d_Y) + beta L + M alpha + 2 mu + gamma.
// The paper prints M = 4 and V16 uses 4 for every source, corners included. A PCP plan's source
// prepares only its non-empty directions ([3]'s edge note), so compute_metrics on the plan
// equals this with `copies` = the source's worm count when router_delay = beta; for a source off
// the edges that is M = 4, eq. (5) exactly.
double pcp_latency_eq5(const Topology& topology, NodeId source, int length_flits, const LatencyParameters& latency,
                       int copies = 4);

// The 3-DBS partition of the destinations ([4], Section 3.2, steps 1-3; V21): D_XS = {x = x0} (without the
// source), D_XR = {x > x0}, D_XL = {x < x0}; D_XS splits into D_ZU = {x0, y0, z > z0} sorted by z
// ascending, D_ZL = {x0, y0, z < z0} by z descending, D_YU = {x0, y > y0, any z} by y ascending and
// D_YL = {x0, y < y0, any z} by y descending (ties by z ascending: the seed gives no order). D_XS,
// D_XR and D_XL are in node-id order. In the XYZ tree each of the source's six lines reaches
// exactly one of D_XR, D_XL, D_YU, D_YL, D_ZU, D_ZL. Throws UnsupportedError unless `topology` is
// a 3D mesh, NodeError for a source outside it.
struct ThreeDbsPartition {
  std::vector<NodeId> d_xs, d_xr, d_xl;
  std::vector<NodeId> d_zu, d_zl, d_yu, d_yl;
  bool operator==(const ThreeDbsPartition&) const = default;
};
ThreeDbsPartition three_dbs_partition(const Topology& topology, NodeId source);

// The plan of a CPR broadcast. Both are broadcasts: the destinations must be every node but the
// source (RequestError otherwise). Throws what validate() throws, SpecError for an algorithm name
// not in cpr_broadcast_names(), UnsupportedError for a topology other than a 2D mesh (pcp) or 3D
// mesh (3dbs) or a port model other than all-port.
Plan plan_cpr_broadcast(const Request& request);

// Whether the plan has routers replicate a worm (Worm::spawned_from; PCP's spine). Such a
// worm is tree-shaped: it advances in lock step into several outputs, and several of them in
// flight at once can wait on each other in a cycle ([3]; docs/algorithms.md "PCP"). One plan is one broadcast and is
// deadlock-free alone.
bool replicates_in_routers(const Plan& plan);

// The flag for concurrent PCP broadcasts: true when two or more of `plans` would be in flight at
// once and one of them replicates in routers. Whoever runs them together (simulator, RTL) must then
// serialise them, buffer whole messages at the spine, or give spawned worms their own VC class.
bool concurrent_broadcasts_may_deadlock(const std::vector<Plan>& plans);

}  // namespace wormcast::model
