// SPDX-License-Identifier: Apache-2.0
#include "model/xy_path.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <stdexcept>

#include "model/errors.hpp"

namespace wormcast::model {
namespace {

// Cells in the source's frame: the source at (0, 0), both coordinates growing inward.
using Cell = std::array<int, 2>;

// One base path of Algorithm 3.3.1 while it grows. `major` is the dimension it travels along
// (0: X runs along rows; 1: Y along columns); a U-turn steps +1 in the other dimension.
struct GrowingPath {
  int major = 0;
  std::vector<Cell> cells;
  int direction = +1;
  bool done = false;
  int length() const { return static_cast<int>(cells.size()) - 1; }
};

class Partitioner {
 public:
  explicit Partitioner(std::array<int, 2> size) : size_(size), taken_(static_cast<std::size_t>(size[0] * size[1])) {
    take({0, 0});
  }

  // Runs the turns until both paths are done; paths_[0] is X, paths_[1] is Y.
  std::array<GrowingPath, 2> run(XyFirstPath first) {
    std::array<GrowingPath, 2> paths = {GrowingPath{0, {{0, 0}}}, GrowingPath{1, {{0, 0}}}};
    int turn = first == XyFirstPath::kX ? 0 : 1;
    while (!paths[0].done || !paths[1].done) {
      GrowingPath& p = paths[static_cast<std::size_t>(turn)];
      const GrowingPath& other = paths[static_cast<std::size_t>(1 - turn)];
      if (at_far_end(p) && p.length() > other.length() && !other.done) {
        turn = 1 - turn;
        continue;
      }
      if (!advance(p)) {
        p.done = true;
        turn = 1 - turn;
      }
    }
    return paths;
  }

 private:
  bool inside(const Cell& c) const { return c[0] >= 0 && c[0] < size_[0] && c[1] >= 0 && c[1] < size_[1]; }
  std::size_t index(const Cell& c) const { return static_cast<std::size_t>(c[1] * size_[0] + c[0]); }
  bool is_free(const Cell& c) const { return inside(c) && !taken_[index(c)]; }
  void take(const Cell& c) { taken_[index(c)] = true; }

  Cell ahead(const GrowingPath& p) const {
    Cell c = p.cells.back();
    c[static_cast<std::size_t>(p.major)] += p.direction;
    return c;
  }

  // The path stands on the far boundary (x = X-1 for X, y = Y-1 for Y) at the end of its row or
  // column: the next cell in its travel direction does not exist.
  bool at_far_end(const GrowingPath& p) const {
    const std::size_t major = static_cast<std::size_t>(p.major);
    return p.cells.back()[major] == size_[major] - 1 && !inside(ahead(p));
  }

  // One cell straight on, or a U-turn into the next row (column); false when neither is free.
  bool advance(GrowingPath& p) {
    Cell next = ahead(p);
    if (!is_free(next)) {
      next = p.cells.back();
      next[static_cast<std::size_t>(1 - p.major)] += 1;
      if (!is_free(next)) return false;
      p.direction = -p.direction;
    }
    take(next);
    p.cells.push_back(next);
    return true;
  }

  std::array<int, 2> size_;
  std::vector<bool> taken_;
};

// Maps cells of the source's frame to nodes: a reflection per dimension where the source is at the
// high end.
std::vector<NodeId> to_nodes(const Topology& t, const Coord& source, const std::vector<Cell>& cells) {
  std::vector<NodeId> nodes;
  nodes.reserve(cells.size());
  for (const Cell& c : cells) {
    Coord at{0, 0, 0};
    for (std::size_t d = 0; d < 2; ++d) at[d] = source[d] == 0 ? c[d] : t.size(static_cast<int>(d)) - 1 - c[d];
    nodes.push_back(t.node_at(at));
  }
  return nodes;
}

void require_mesh_2d(const Topology& t, std::string_view what) {
  if (!t.is_mesh() || t.dimensions() != 2) {
    throw UnsupportedError(fmt::format("{} is defined on 2D meshes (mesh:XxY), not on {}", what, t.spec()));
  }
}

// The worm of one base path: the destinations that lie on it, in label order, by R.
std::optional<Worm> path_worm(const Request& request, const std::vector<NodeId>& base_path, bool x_path) {
  const Topology& t = request.topology;
  const std::vector<int> labels = base_path_labels(t, base_path);
  std::vector<NodeId> on_path;
  for (const NodeId d : request.destinations) {
    if (labels[static_cast<std::size_t>(d)] >= 0) on_path.push_back(d);
  }
  if (on_path.empty()) return std::nullopt;
  std::sort(on_path.begin(), on_path.end(), [&](NodeId a, NodeId b) {
    return labels[static_cast<std::size_t>(a)] < labels[static_cast<std::size_t>(b)];
  });
  Worm worm;
  worm.sender = request.source;
  worm.step = 1;
  worm.kind = WormKind::kMultidestinationPath;
  worm.header.mode = RoutingMode::kSourceRouted;
  worm.header.vc = xy_path_class(t, request.source, x_path);
  worm.header.destinations = on_path;
  worm.route = xy_path_worm_route(t, base_path, on_path);
  for (std::size_t i = 0; i + 1 < worm.route.size(); ++i) {
    const Port port = t.port_towards(worm.route[i], worm.route[i + 1]);
    if (port == kNoPort) {
      throw std::logic_error(fmt::format("XY-path route steps from {} to {}, which are not adjacent",
                                         t.node_name(worm.route[i]), t.node_name(worm.route[i + 1])));
    }
    worm.hops.push_back(RouteHop{worm.route[i], port, worm.header.vc});  // a source route keeps its class
  }
  // All-port: one injection channel per direction, numbered like the network port it feeds.
  worm.port = worm.hops.front().port;
  worm.keeps_copy = on_path;
  return worm;
}

}  // namespace

std::vector<std::string> xy_path_names() { return {kXyPathAlgorithm, kXyPathXFirstAlgorithm}; }

XyPartition xy_partition(const Topology& topology, NodeId source, XyFirstPath first) {
  require_mesh_2d(topology, "the XY-path partition");
  topology.check_node(source);
  const Coord s = topology.coord(source);
  const int nx = topology.size(0);
  const int ny = topology.size(1);
  if ((s[0] != 0 && s[0] != nx - 1) || (s[1] != 0 && s[1] != ny - 1)) {
    throw UnsupportedError(fmt::format(
        "XY-path needs the source at a corner of the mesh (the thesis [5] puts it at the origin, the other corners "
        "are its reflections: docs/algorithms.md, \"Other sources\"); ({}) is not a corner of {}: use (0,0), ({},0), "
        "(0,{}) or ({},{})",
        topology.node_name(source), topology.spec(), nx - 1, ny - 1, nx - 1, ny - 1));
  }
  const std::array<GrowingPath, 2> paths = Partitioner({nx, ny}).run(first);
  return XyPartition{to_nodes(topology, s, paths[0].cells), to_nodes(topology, s, paths[1].cells)};
}

int xy_path_class(const Topology& topology, NodeId source, bool x_path) {
  require_mesh_2d(topology, "the XY-path classes");
  topology.check_node(source);
  const Coord s = topology.coord(source);
  if ((s[0] != 0 && s[0] != topology.size(0) - 1) || (s[1] != 0 && s[1] != topology.size(1) - 1)) {
    throw UnsupportedError(fmt::format("XY-path classes are defined for corner sources; ({}) is not a corner of {}",
                                       topology.node_name(source), topology.spec()));
  }
  if (x_path) return s[1] == 0 ? 0 : 1;
  return s[0] == 0 ? 2 : 3;
}

std::vector<int> base_path_labels(const Topology& topology, const std::vector<NodeId>& base_path) {
  std::vector<int> labels(static_cast<std::size_t>(topology.node_count()), -1);
  for (std::size_t i = 0; i < base_path.size(); ++i) {
    topology.check_node(base_path[i]);
    labels[static_cast<std::size_t>(base_path[i])] = static_cast<int>(i);
  }
  return labels;
}

std::vector<NodeId> xy_route(const Topology& topology, const std::vector<int>& labels, NodeId from, NodeId to) {
  topology.check_node(from);
  topology.check_node(to);
  const auto label = [&](NodeId n) { return labels.at(static_cast<std::size_t>(n)); };
  if (label(from) < 0 || label(to) < 0 || label(from) > label(to)) {
    throw RoutingError(
        fmt::format("R of eq. 3.3.1 routes forward along one base path; ({}) label {} to ({}) label {} "
                    "is not such a pair (-1: not on the path)",
                    topology.node_name(from), label(from), topology.node_name(to), label(to)));
  }
  std::vector<NodeId> nodes = {from};
  NodeId u = from;
  while (u != to) {
    NodeId best = kNoNode;
    for (Port p = 0; p < topology.port_count(); ++p) {
      const NodeId w = topology.neighbour(u, p);
      if (w == kNoNode || label(w) <= label(u) || label(w) > label(to)) continue;
      if (best == kNoNode || label(w) > label(best)) best = w;
    }
    // The path's successor of u always qualifies, so best exists and the labels strictly rise.
    u = best;
    nodes.push_back(u);
  }
  return nodes;
}

std::vector<NodeId> xy_path_worm_route(const Topology& topology, const std::vector<NodeId>& base_path,
                                       std::vector<NodeId> destinations) {
  const std::vector<int> labels = base_path_labels(topology, base_path);
  const auto label = [&](NodeId n) { return labels.at(static_cast<std::size_t>(n)); };
  std::sort(destinations.begin(), destinations.end(), [&](NodeId a, NodeId b) { return label(a) < label(b); });
  std::vector<NodeId> route = {base_path.front()};
  for (const NodeId d : destinations) {
    const std::vector<NodeId> leg = xy_route(topology, labels, route.back(), d);
    route.insert(route.end(), leg.begin() + 1, leg.end());
  }
  return route;
}

Plan plan_xy_path(const Request& request) {
  validate(request);
  const std::string& name = request.algorithm;
  XyFirstPath first = XyFirstPath::kY;
  if (name == kXyPathAlgorithm) {
    first = XyFirstPath::kY;
  } else if (name == kXyPathXFirstAlgorithm) {
    first = XyFirstPath::kX;
  } else {
    throw SpecError(
        fmt::format("algorithm '{}' is not an XY-path multicast; valid: {}", name, fmt::join(xy_path_names(), ", ")));
  }
  require_mesh_2d(request.topology, fmt::format("algorithm {}", name));
  if (request.ports.kind != PortModelKind::kAllPort) {
    throw UnsupportedError(
        fmt::format("algorithm {} does not run on a {} node; it needs the all-port model (its X and Y worms "
                    "leave the source at once)",
                    name, request.ports.name()));
  }
  const XyPartition partition = xy_partition(request.topology, request.source, first);
  Plan plan{request, {}, {}};
  for (const bool x_path : {true, false}) {
    const std::vector<NodeId>& base = x_path ? partition.x_path : partition.y_path;
    if (std::optional<Worm> worm = path_worm(request, base, x_path)) plan.worms.push_back(std::move(*worm));
  }
  plan.metrics = compute_metrics(request, plan.worms);
  return plan;
}

}  // namespace wormcast::model
