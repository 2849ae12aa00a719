// SPDX-License-Identifier: Apache-2.0
// XY-path multicast on the 2D mesh ([5], Algorithms 3.3.1 and 3.3.2).
//
// The mesh is split into two Hamiltonian paths that meet only at the source: X runs back and forth
// along rows, Y along columns (xy_partition). A node's label on its path is its position. Each path
// carries one multidestination worm from the source through the destinations that lie on it, in
// label order, every hop chosen by R of eq. 3.3.1 (xy_route), with intermediate reception. Routers
// do not know the partition, so the worm is source-routed (RoutingMode::kSourceRouted) along the
// explicit hops. Both worms leave in step 1 (all-port). Metrics ([5], eqs. 4.3.1-4.3.2): d_x = |X'|, d_y = |Y'|;
// time = max(d_x, d_y) + L, traffic = d_x + d_y.
//
// The thesis puts the source at the origin (docs/algorithms.md "XY-path"). The model also accepts the three other
// corners by reflecting the mesh (the partition is built from the source's corner inward); any
// other source throws UnsupportedError.
#pragma once

#include <string>
#include <vector>

#include "model/plan.hpp"

namespace wormcast::model {

// Algorithm names (Request::algorithm): which path Algorithm 3.3.1 advances first
// (docs/algorithms.md, "Which path starts").
inline constexpr const char* kXyPathAlgorithm = "xy-path";                // Y first: the published example
inline constexpr const char* kXyPathXFirstAlgorithm = "xy-path-x-first";  // X first: the pseudo-code
std::vector<std::string> xy_path_names();

enum class XyFirstPath { kY, kX };

// The two Hamiltonian base paths; each starts at the source, and a node's label is its index.
struct XyPartition {
  std::vector<NodeId> x_path;
  std::vector<NodeId> y_path;
  bool operator==(const XyPartition&) const = default;
};

// Algorithm 3.3.1 from the source's corner ([5], Section 3.3.3): the paths take turns; each continues along
// its row (X) or column (Y) while the next cell is free, U-turns into the next row (column) when it
// is not, and is done when the U-turn cell is taken or outside. A path that reaches the far
// boundary at the end of its row (column) hands the turn over when it is strictly longer than the
// other path and that one is not done. Throws UnsupportedError unless `topology` is a 2D mesh and
// `source` one of its corners; NodeError for a source outside it.
XyPartition xy_partition(const Topology& topology, NodeId source, XyFirstPath first);

// The VC class of the worm on the X path (`x_path`) or the Y path from corner `source` (docs/rtl.md
// "VC-class plan"): the path and the one direction it advances in across its rows (columns), set by
// the corner. 0 x-path-up (source at y = 0), 1 x-path-down, 2 y-path-right (source at x = 0),
// 3 y-path-left. Each needs a VC of its own: the column paths turn into and out of both Y
// directions. Throws what xy_partition throws for a source that is not a corner.
int xy_path_class(const Topology& topology, NodeId source, bool x_path);

// Labels of `base_path` by node id: the node's index on the path, -1 for nodes not on it.
std::vector<int> base_path_labels(const Topology& topology, const std::vector<NodeId>& base_path);

// R of eq. 3.3.1, followed from `from` to `to` on the base path with `labels`: each hop goes to the
// neighbour w on the same path with the largest label L(u) < L(w) <= L(to). Returns the nodes,
// `from` and `to` included. Throws RoutingError unless both lie on the path and L(from) <= L(to).
std::vector<NodeId> xy_route(const Topology& topology, const std::vector<int>& labels, NodeId from, NodeId to);

// X' (or Y'): from the path's first node (the source) through `destinations` (all on the path) in
// label order, each leg by xy_route. Returns the nodes visited; its length - 1 is d_x (d_y).
std::vector<NodeId> xy_path_worm_route(const Topology& topology, const std::vector<NodeId>& base_path,
                                       std::vector<NodeId> destinations);

// The plan of an XY-path request. Throws what validate() throws, SpecError for an algorithm name
// not in xy_path_names(), UnsupportedError for a topology other than a 2D mesh, a source that is
// not a corner, or a port model other than all-port.
Plan plan_xy_path(const Request& request);

}  // namespace wormcast::model
