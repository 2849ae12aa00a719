// SPDX-License-Identifier: Apache-2.0
// Store-and-forward multicast trees of the thesis ([5], Chapter 3 and Section 4.2.1): VH, DIAG, DDS
// and MIN on 2D/3D meshes and tori.
//
// The network is split into 2^n zones with the source at the origin of each ([5], Fig. 3.1.1 for meshes,
// Section 3.1.3 for tori); the zone's mesh algorithm builds a subtree in the zone's local coordinates, and
// the subtrees are joined at the source (meshes) or by the links that lead from the source to the
// other zone origins (tori, the thesis's wraparound links). Algorithms (Request::algorithm):
//   "vh"    the union of the dimension-ordered (X, Y, Z) shortest paths from the origin ([5], VH)
//   "diag"  a stem along the zone's diagonal, destinations attached nearest first, pruned ([5], 3.2.1)
//   "dds"   destinations attached in the dimensional-distance order, no stem ([5], 3.2.2)
//   "min"   our reading (docs/algorithms.md, MIN): smallest coordinate in turn, attached to the nearest
//           tree node anywhere; not a shortest-path tree, and it cannot be validated against [22]
// Every tree link is one worm of kind kStoreAndForwardHop: a one-hop dimension-ordered unicast to
// the neighbour, sent in the hop (step) of the time rule of [5] (eq. 2.1.9), so the plan's steps are the
// thesis's multicast time and its traffic is |E(MT)|.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "model/plan.hpp"
#include "model/topology.hpp"

namespace wormcast::model {

inline constexpr const char* kVhAlgorithm = "vh";
inline constexpr const char* kDiagAlgorithm = "diag";
inline constexpr const char* kDdsAlgorithm = "dds";
inline constexpr const char* kMinAlgorithm = "min";
std::vector<std::string> tree_multicast_names();

// One of the 2^n zones of [5] (mesh: Fig. 3.1.1; torus: Section 3.1.3), numbered 1..2^n in
// Section 3.1.3's order.
// In local coordinates the zone is the box 0..extent[d] per dimension with its origin at 0; a
// `negative` dimension runs against the network's + direction. Mesh zones all have their origin at
// the source and overlap on the planes through it; torus zones are disjoint and their origins are
// the source's neighbours across the links of 5.3.
struct TreeZone {
  int number = 1;
  std::array<bool, kMaxDimensions> negative{};
  NodeId origin = kNoNode;
  Coord extent{};
  std::vector<NodeId> destinations;  // the request's destinations in this zone, in request order
  std::vector<NodeId> stem;          // DIAG: the diagonal path from the origin, before pruning
  bool operator==(const TreeZone&) const = default;
};

// How a destination joined its zone's subtree: the tree node it was connected to (itself when it
// was already on the tree, e.g. on DIAG's stem; the origin for VH), in construction order.
struct TreeAttachment {
  NodeId destination = kNoNode;
  NodeId attached_to = kNoNode;
  bool operator==(const TreeAttachment&) const = default;
};

// A link of the tree: `parent` forwards the message to `child` in store-and-forward hop `hop`.
struct TreeEdge {
  NodeId parent = kNoNode;
  NodeId child = kNoNode;
  int hop = 0;
  int zone = 1;            // the zone whose subtree holds the link; for a zone link, the zone it enters
  bool zone_link = false;  // a link from one zone origin to the next ([5]'s wraparound links)
  bool stem = false;       // a link of DIAG's (pruned) stem
  bool operator==(const TreeEdge&) const = default;
};

struct MulticastTree {
  std::vector<TreeZone> zones;              // all 2^n zones, by number
  std::vector<TreeAttachment> attachments;  // zone by zone, in construction order
  std::vector<TreeEdge> edges;              // by hop, then parent, then the parent's send order
  int time = 0;                             // the largest hop ([5], eq. 2.1.9 / 2.1.8)
  bool operator==(const MulticastTree&) const = default;
};

// The zone (1..2^n) of `node` for a multicast from `source` (meshes: a node on a plane through the
// source belongs to the + side of it, docs/algorithms.md "Zones and sources other than the
// origin"). Throws UnsupportedError for a star graph.
int tree_zone_of(const Topology& topology, NodeId source, NodeId node);

// DIAG's diagonal path (Alg. 3.2.1.1 / 3.2.1.4) from the origin to d >= 0 in local coordinates:
// each step takes the unit step, not past d, whose end is nearest the line through the origin and d
// (integer key |v|^2 |d|^2 - (v.d)^2), ties to the lower dimension.
std::vector<Coord> diagonal_path(const Coord& d, int dimensions);

// The DDS comparator (Alg. 3.2.2.1) on local coordinates (>= 0): true if `a` comes before `b`.
bool dds_precedes(const Coord& a, const Coord& b, int dimensions);
// Every node of the box 0..sizes[d]-1 in the order of the DDS scan (Algs. 3.2.2.3 / 3.2.2.5).
std::vector<Coord> dds_scan_order(const Coord& sizes, int dimensions);

// The tree of a request, with the hop of every link under the request's port model (one-port is
// the thesis's; with p ports a node sends its i-th child, in priority order, in hop t + 1 + i / p).
// Throws what validate() throws, SpecError for an unknown algorithm, UnsupportedError for a star.
MulticastTree build_multicast_tree(const Request& request);

// The plan: one kStoreAndForwardHop worm per tree link (see the file comment). Throws as
// build_multicast_tree.
Plan plan_tree_multicast(const Request& request);

}  // namespace wormcast::model
