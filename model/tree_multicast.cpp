#include "model/tree_multicast.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <map>
#include <set>
#include <stdexcept>
#include <tuple>

#include "model/errors.hpp"
#include "model/routing.hpp"

namespace wormcast::model {
namespace {

// Zone numbering of spec 5.3 as sets of negative dimensions (bit 0 = X, 1 = Y, 2 = Z): zone i + 1
// has the mask kZoneMasks[n][i]. 2D: M1 {}, M2 {X}, M3 {Y}, M4 {X,Y}. 3D: 1 {}, 2 {X}, 3 {X,Z},
// 4 {Z}, 5 {Y}, 6 {X,Y}, 7 {X,Y,Z}, 8 {Y,Z}.
constexpr std::array<unsigned, 4> kZoneMasks2D = {0b000, 0b001, 0b010, 0b011};
constexpr std::array<unsigned, 8> kZoneMasks3D = {0b000, 0b001, 0b101, 0b100, 0b010, 0b011, 0b111, 0b110};
// The links from the source to a zone origin cross the negative dimensions in this order
// (spec 5.3: s2 <- s, s3 <- s2, s7 <- s3, ...): X, then Z, then Y.
constexpr std::array<int, kMaxDimensions> kZoneLinkOrder = {0, 2, 1};

std::vector<unsigned> zone_masks(int dimensions) {
  if (dimensions == 2) return {kZoneMasks2D.begin(), kZoneMasks2D.end()};
  return {kZoneMasks3D.begin(), kZoneMasks3D.end()};
}

int zone_number(int dimensions, unsigned mask) {
  const std::vector<unsigned> masks = zone_masks(dimensions);
  return static_cast<int>(std::find(masks.begin(), masks.end(), mask) - masks.begin()) + 1;
}

std::size_t at(int d) { return static_cast<std::size_t>(d); }

int manhattan(const Coord& a, const Coord& b) {
  return std::abs(a[0] - b[0]) + std::abs(a[1] - b[1]) + std::abs(a[2] - b[2]);
}

// ceil(k/2): the size of the + half of a torus ring (spec 5.3).
int half(int k) { return (k + 1) / 2; }

void require_grid(const Topology& topology, std::string_view what) {
  if (topology.is_star()) {
    throw UnsupportedError(
        fmt::format("{} does not run on {}; it supports 2D/3D meshes and tori (mesh:8x8, "
                    "torus:8x8, mesh:5x5x5, torus:5x5x5)",
                    what, topology.spec()));
  }
}

// ---------------------------------------------------------------------------------------------
// Zones: the local coordinate frame of each.

struct Frame {
  const Topology* topology = nullptr;
  Coord source{};
  unsigned mask = 0;  // negative dimensions

  bool negative(int d) const { return ((mask >> d) & 1U) != 0; }

  Coord to_global(const Coord& local) const {
    const Topology& t = *topology;
    Coord g{};
    for (int d = 0; d < t.dimensions(); ++d) {
      const int l = local[at(d)];
      const int s = source[at(d)];
      if (t.is_torus()) {
        const int k = t.size(d);
        const int offset = negative(d) ? k - 1 - l : l;  // offset from the source along +d
        g[at(d)] = (s + offset) % k;
      } else {
        g[at(d)] = negative(d) ? s - l : s + l;
      }
    }
    return g;
  }

  Coord to_local(const Coord& global) const {
    const Topology& t = *topology;
    Coord l{};
    for (int d = 0; d < t.dimensions(); ++d) {
      const int g = global[at(d)];
      const int s = source[at(d)];
      if (t.is_torus()) {
        const int k = t.size(d);
        const int offset = ((g - s) % k + k) % k;
        l[at(d)] = negative(d) ? k - 1 - offset : offset;
      } else {
        l[at(d)] = negative(d) ? s - g : g - s;
      }
    }
    return l;
  }

  Coord extent() const {
    const Topology& t = *topology;
    Coord e{};
    for (int d = 0; d < t.dimensions(); ++d) {
      const int k = t.size(d);
      const int s = source[at(d)];
      if (t.is_torus()) {
        e[at(d)] = negative(d) ? k - 1 - half(k) : half(k) - 1;
      } else {
        e[at(d)] = negative(d) ? s : k - 1 - s;
      }
    }
    return e;
  }
};

// Whether `global` lies in the zone of `mask` (meshes: the zones overlap on the source's planes).
bool in_zone(const Topology& t, const Coord& source, unsigned mask, const Coord& global) {
  for (int d = 0; d < t.dimensions(); ++d) {
    const bool negative = ((mask >> d) & 1U) != 0;
    if (t.is_torus()) {
      const int k = t.size(d);
      const int offset = ((global[at(d)] - source[at(d)]) % k + k) % k;
      if ((offset >= half(k)) != negative) return false;
    } else {
      const int diff = global[at(d)] - source[at(d)];
      if ((diff > 0 && negative) || (diff < 0 && !negative)) return false;
    }
  }
  return true;
}

// The first zone in the order of spec 5.3 that holds `global` (A-004-2 for the mesh's planes).
int first_zone(const Topology& t, const Coord& source, const Coord& global) {
  const std::vector<unsigned> masks = zone_masks(t.dimensions());
  for (std::size_t i = 0; i < masks.size(); ++i) {
    if (in_zone(t, source, masks[i], global)) return static_cast<int>(i) + 1;
  }
  throw std::logic_error("a node outside every zone");
}

// ---------------------------------------------------------------------------------------------
// One zone's subtree, built by the mesh algorithm in local coordinates (origin = 0).

struct LocalTree {
  std::map<Coord, Coord> parent;  // every tree node but the origin
  std::vector<Coord> stem;
  std::vector<std::pair<Coord, Coord>> attachments;  // (destination, node it was connected to)

  bool contains(const Coord& v) const { return v == Coord{} || parent.count(v) != 0; }
};

bool inside_box(const Coord& v, const Coord& corner) {
  for (std::size_t d = 0; d < v.size(); ++d) {
    if (v[d] < 0 || v[d] > corner[d]) return false;
  }
  return true;
}

// The tree node nearest u; only nodes in the zone {origin <=> u} where the algorithm says so
// (DIAG, DDS). Ties: lexicographically largest (x, y, z) (A-004-4). The origin is always in the
// zone and is the lexicographically smallest candidate, so it is the starting point.
Coord closest_tree_node(const LocalTree& tree, const Coord& u, bool within_zone) {
  Coord best{};
  int best_distance = manhattan(best, u);
  for (const auto& [v, unused] : tree.parent) {
    if (within_zone && !inside_box(v, u)) continue;
    const int distance = manhattan(v, u);
    if (distance < best_distance || (distance == best_distance && v > best)) {
      best = v;
      best_distance = distance;
    }
  }
  return best;
}

// Adds the dimension-ordered (X, Y, Z) path from the tree node `from` to u. Every node after
// `from` is nearer u than `from`, so none is on the tree when `from` is the nearest tree node.
void add_dimension_ordered_path(LocalTree& tree, const Coord& from, const Coord& u) {
  Coord here = from;
  for (std::size_t d = 0; d < here.size(); ++d) {
    while (here[d] != u[d]) {
      Coord next = here;
      next[d] += u[d] > here[d] ? 1 : -1;
      if (!tree.parent.emplace(next, here).second) {
        throw std::logic_error("a dimension-ordered attachment path crosses the tree");
      }
      here = next;
    }
  }
}

// Deletes, repeatedly, the leaves that are neither destinations nor the origin (DIAG step 5).
template <typename Node>
void prune(std::map<Node, Node>& parent, const std::set<Node>& keep) {
  std::map<Node, int> children;
  for (const auto& [child, p] : parent) ++children[p];
  std::vector<Node> leaves;
  for (const auto& [child, p] : parent) {
    if (children[child] == 0 && keep.count(child) == 0) leaves.push_back(child);
  }
  while (!leaves.empty()) {
    const Node leaf = leaves.back();
    leaves.pop_back();
    const auto it = parent.find(leaf);
    if (it == parent.end()) continue;
    const Node p = it->second;
    parent.erase(it);
    if (--children[p] == 0 && keep.count(p) == 0 && parent.count(p) != 0) leaves.push_back(p);
  }
}

LocalTree vh_tree(const std::vector<Coord>& destinations) {
  LocalTree tree;
  for (const Coord& u : destinations) {
    // The X, then Y, then Z path from the origin; paths to different destinations share prefixes.
    Coord here{};
    for (std::size_t d = 0; d < here.size(); ++d) {
      while (here[d] != u[d]) {
        Coord next = here;
        ++next[d];
        tree.parent.emplace(next, here);
        here = next;
      }
    }
    tree.attachments.emplace_back(u, Coord{});
  }
  return tree;
}

// Attaches each destination, in `order`, to the nearest tree node in its zone (DIAG, DDS).
void attach_in_order(LocalTree& tree, const std::vector<Coord>& order) {
  for (const Coord& u : order) {
    if (tree.contains(u)) {
      tree.attachments.emplace_back(u, u);
      continue;
    }
    const Coord c = closest_tree_node(tree, u, true);
    add_dimension_ordered_path(tree, c, u);
    tree.attachments.emplace_back(u, c);
  }
}

LocalTree diag_tree(const std::vector<Coord>& destinations, int dimensions) {
  Coord diagonal{};
  for (const Coord& u : destinations) {
    for (std::size_t d = 0; d < diagonal.size(); ++d) diagonal[d] = std::max(diagonal[d], u[d]);
  }
  LocalTree tree;
  tree.stem = diagonal_path(diagonal, dimensions);
  for (std::size_t i = 1; i < tree.stem.size(); ++i) tree.parent.emplace(tree.stem[i], tree.stem[i - 1]);
  // Nearest the origin first; equal distances keep the request order (A-004-3).
  std::vector<Coord> order = destinations;
  std::stable_sort(order.begin(), order.end(),
                   [](const Coord& a, const Coord& b) { return manhattan(a, Coord{}) < manhattan(b, Coord{}); });
  attach_in_order(tree, order);
  prune(tree.parent, std::set<Coord>(destinations.begin(), destinations.end()));
  return tree;
}

LocalTree dds_tree(const std::vector<Coord>& destinations, int dimensions) {
  std::vector<Coord> order = destinations;
  std::stable_sort(order.begin(), order.end(),
                   [dimensions](const Coord& a, const Coord& b) { return dds_precedes(a, b, dimensions); });
  LocalTree tree;
  attach_in_order(tree, order);
  return tree;
}

// Spec 5.7's reading of MIN: in turn per dimension j, the remaining destination with the smallest
// j-th coordinate (ties: the next coordinates, cyclically), joined to the nearest tree node
// anywhere by its dimension-ordered path.
LocalTree min_tree(const std::vector<Coord>& destinations, int dimensions) {
  LocalTree tree;
  std::vector<Coord> remaining = destinations;
  int j = 0;
  while (!remaining.empty()) {
    const auto key = [&](const Coord& v) {
      Coord k{};
      for (int i = 0; i < dimensions; ++i) k[at(i)] = v[at((j + i) % dimensions)];
      return k;
    };
    const auto pick = std::min_element(remaining.begin(), remaining.end(),
                                       [&](const Coord& a, const Coord& b) { return key(a) < key(b); });
    const Coord u = *pick;
    remaining.erase(pick);
    const Coord c = closest_tree_node(tree, u, false);
    add_dimension_ordered_path(tree, c, u);
    tree.attachments.emplace_back(u, c);
    j = (j + 1) % dimensions;
  }
  return tree;
}

LocalTree local_tree(const std::string& algorithm, const std::vector<Coord>& destinations, int dimensions) {
  if (algorithm == kVhAlgorithm) return vh_tree(destinations);
  if (algorithm == kDiagAlgorithm) return diag_tree(destinations, dimensions);
  if (algorithm == kDdsAlgorithm) return dds_tree(destinations, dimensions);
  return min_tree(destinations, dimensions);
}

// ---------------------------------------------------------------------------------------------
// The whole tree: zone subtrees joined, then the time rule.

struct Link {
  NodeId parent = kNoNode;
  int zone = 1;
  bool zone_link = false;
  bool stem = false;
  int dimension = 0;
  bool local_negative = false;  // against the zone's local + direction (only MIN does this)
};

// Send order at a node (spec 5.2): zone links first, lower zone first; then DIAG's stem; then by
// dimension X, Y, Z, the zone's local + direction first; then by zone (meshes, where the source and
// the nodes on its planes serve several zones).
auto priority(const Link& link) {
  return std::make_tuple(link.zone_link ? 0 : 1, link.zone_link ? link.zone : 0, link.stem ? 0 : 1,
                         link.stem ? link.zone : 0, link.dimension, link.local_negative ? 1 : 0, link.zone);
}

int link_dimension(const Coord& a, const Coord& b) {
  for (int d = 0; d < kMaxDimensions; ++d) {
    if (a[at(d)] != b[at(d)]) return d;
  }
  throw std::logic_error("a tree link between equal coordinates");
}

// Joins `zone`'s subtree to the tree: the links from the source to the zone origin (tori), then
// the subtree's links. A node some earlier zone's subtree already holds keeps that parent (mesh
// zones overlap on the source's planes); every subtree is rooted at the source, so the parents
// still lead there.
void join_zone(const Topology& t, NodeId source, const Frame& frame, int number, const LocalTree& local,
               std::map<NodeId, Link>& links) {
  const int n = t.dimensions();
  if (t.is_torus()) {
    unsigned reached = 0;
    NodeId here = source;
    for (int d : kZoneLinkOrder) {
      if (d >= n || !frame.negative(d)) continue;
      reached |= 1U << d;
      const Frame next_frame{&t, frame.source, reached};
      const NodeId next = t.node_at(next_frame.to_global(Coord{}));
      links.try_emplace(next, Link{here, zone_number(n, reached), true, false, d, false});
      here = next;
    }
  }
  std::set<Coord> stem(local.stem.begin(), local.stem.end());
  for (const auto& [child, parent] : local.parent) {
    const NodeId c = t.node_at(frame.to_global(child));
    const NodeId p = t.node_at(frame.to_global(parent));
    const int d = link_dimension(child, parent);
    links.try_emplace(c, Link{p, number, false, stem.count(child) != 0, d, child[at(d)] < parent[at(d)]});
  }
}

void schedule(NodeId source, int ports, const std::map<NodeId, Link>& links, MulticastTree& tree) {
  std::map<NodeId, std::vector<NodeId>> children;
  for (const auto& [child, link] : links) children[link.parent].push_back(child);
  std::vector<std::pair<NodeId, int>> frontier = {{source, 0}};
  while (!frontier.empty()) {
    const auto [node, hop] = frontier.back();
    frontier.pop_back();
    std::vector<NodeId>& list = children[node];
    std::stable_sort(list.begin(), list.end(),
                     [&](NodeId a, NodeId b) { return priority(links.at(a)) < priority(links.at(b)); });
    for (std::size_t i = 0; i < list.size(); ++i) {
      const Link& link = links.at(list[i]);
      const int arrives = hop + 1 + static_cast<int>(i) / ports;
      tree.edges.push_back(TreeEdge{node, list[i], arrives, link.zone, link.zone_link, link.stem});
      frontier.emplace_back(list[i], arrives);
    }
  }
  std::stable_sort(tree.edges.begin(), tree.edges.end(), [](const TreeEdge& a, const TreeEdge& b) {
    return std::tie(a.hop, a.parent) < std::tie(b.hop, b.parent);
  });
  tree.time = 0;
  for (const TreeEdge& e : tree.edges) tree.time = std::max(tree.time, e.hop);
}

void check_algorithm(const std::string& name) {
  const std::vector<std::string> names = tree_multicast_names();
  if (std::find(names.begin(), names.end(), name) == names.end()) {
    throw SpecError(
        fmt::format("algorithm '{}' is not a multicast tree algorithm; valid: {}", name, fmt::join(names, ", ")));
  }
}

}  // namespace

std::vector<std::string> tree_multicast_names() { return {kVhAlgorithm, kDiagAlgorithm, kDdsAlgorithm, kMinAlgorithm}; }

int tree_zone_of(const Topology& topology, NodeId source, NodeId node) {
  require_grid(topology, "the zone reduction");
  topology.check_node(source);
  topology.check_node(node);
  return first_zone(topology, topology.coord(source), topology.coord(node));
}

std::vector<Coord> diagonal_path(const Coord& d, int dimensions) {
  std::int64_t dd = 0;
  for (int i = 0; i < dimensions; ++i) dd += static_cast<std::int64_t>(d[at(i)]) * d[at(i)];
  const auto key = [&](const Coord& v) {
    std::int64_t vv = 0;
    std::int64_t vd = 0;
    for (int i = 0; i < dimensions; ++i) {
      vv += static_cast<std::int64_t>(v[at(i)]) * v[at(i)];
      vd += static_cast<std::int64_t>(v[at(i)]) * d[at(i)];
    }
    return vv * dd - vd * vd;  // |d|^2 times the squared distance from v to the line
  };
  std::vector<Coord> path = {Coord{}};
  Coord u{};
  while (u != d) {
    Coord best{};
    std::int64_t best_key = 0;
    bool found = false;
    for (int i = 0; i < dimensions; ++i) {
      if (u[at(i)] >= d[at(i)]) continue;  // never past d
      Coord v = u;
      ++v[at(i)];
      const std::int64_t k = key(v);
      if (!found || k < best_key) {  // strict: ties go to the lower dimension
        best = v;
        best_key = k;
        found = true;
      }
    }
    u = best;
    path.push_back(u);
  }
  return path;
}

bool dds_precedes(const Coord& a, const Coord& b, int dimensions) {
  std::array<bool, kMaxDimensions> deleted{};
  // Each round compares the smallest remaining coordinate, then the first dimension holding it;
  // when both agree, that dimension is deleted from both nodes.
  for (int round = 0; round < dimensions; ++round) {
    int ia = -1;
    int ib = -1;
    for (int i = 0; i < dimensions; ++i) {
      if (deleted[at(i)]) continue;
      if (ia < 0 || a[at(i)] < a[at(ia)]) ia = i;
      if (ib < 0 || b[at(i)] < b[at(ib)]) ib = i;
    }
    if (a[at(ia)] != b[at(ib)]) return a[at(ia)] < b[at(ib)];
    if (ia != ib) return ia < ib;
    deleted[at(ia)] = true;
  }
  return false;
}

std::vector<Coord> dds_scan_order(const Coord& sizes, int dimensions) {
  std::vector<Coord> order;
  std::set<Coord> seen;
  const auto visit = [&](const Coord& v) {
    if (seen.insert(v).second) order.push_back(v);
  };
  // The 2D scan of the plane spanned by dimensions p and q (the others fixed as in `base`), from
  // the aligning point (e, e): column p = e upward in q, then row q = e upward in p, e = e0, ...
  const auto scan_plane = [&](Coord base, int p, int q, int e0) {
    for (int e = e0; e < std::min(sizes[at(p)], sizes[at(q)]); ++e) {
      for (int v = e; v < sizes[at(q)]; ++v) {
        base[at(p)] = e;
        base[at(q)] = v;
        visit(base);
      }
      for (int v = e; v < sizes[at(p)]; ++v) {
        base[at(p)] = v;
        base[at(q)] = e;
        visit(base);
      }
    }
  };
  if (dimensions == 2) {
    scan_plane(Coord{}, 0, 1, 0);
    return order;
  }
  const int last = std::min({sizes[0], sizes[1], sizes[2]});
  for (int d = 0; d < last; ++d) {
    scan_plane(Coord{d, 0, 0}, 1, 2, d);  // surface x = d
    scan_plane(Coord{0, d, 0}, 0, 2, d);  // surface y = d
    scan_plane(Coord{0, 0, d}, 0, 1, d);  // surface z = d
  }
  return order;
}

MulticastTree build_multicast_tree(const Request& request) {
  validate(request);
  check_algorithm(request.algorithm);
  const Topology& t = request.topology;
  require_grid(t, fmt::format("multicast tree algorithm {}", request.algorithm));
  const int n = t.dimensions();
  const Coord source = t.coord(request.source);

  MulticastTree tree;
  const std::vector<unsigned> masks = zone_masks(n);
  for (std::size_t i = 0; i < masks.size(); ++i) {
    const Frame frame{&t, source, masks[i]};
    TreeZone zone;
    zone.number = static_cast<int>(i) + 1;
    for (int d = 0; d < n; ++d) zone.negative[at(d)] = frame.negative(d);
    zone.origin = t.node_at(frame.to_global(Coord{}));
    zone.extent = frame.extent();
    tree.zones.push_back(zone);
  }
  for (NodeId d : request.destinations) {
    tree.zones[at(first_zone(t, source, t.coord(d)) - 1)].destinations.push_back(d);
  }

  std::map<NodeId, Link> links;
  for (TreeZone& zone : tree.zones) {
    if (zone.destinations.empty()) continue;
    const Frame frame{&t, source, masks[at(zone.number - 1)]};
    std::vector<Coord> local;
    for (NodeId d : zone.destinations) local.push_back(frame.to_local(t.coord(d)));
    const LocalTree subtree = local_tree(request.algorithm, local, n);
    for (const Coord& v : subtree.stem) zone.stem.push_back(t.node_at(frame.to_global(v)));
    for (const auto& [u, c] : subtree.attachments) {
      tree.attachments.push_back(TreeAttachment{t.node_at(frame.to_global(u)), t.node_at(frame.to_global(c))});
    }
    join_zone(t, request.source, frame, zone.number, subtree, links);
  }
  // Where mesh zones share a node, a subtree can lose the only child of one of its nodes to an
  // earlier zone; such a node is a leaf that no destination needs.
  std::map<NodeId, NodeId> parents;
  for (const auto& [child, link] : links) parents.emplace(child, link.parent);
  std::set<NodeId> keep(request.destinations.begin(), request.destinations.end());
  prune(parents, keep);
  for (auto it = links.begin(); it != links.end();) {
    it = parents.count(it->first) != 0 ? std::next(it) : links.erase(it);
  }
  schedule(request.source, request.ports.injection_ports(t), links, tree);
  return tree;
}

Plan plan_tree_multicast(const Request& request) {
  const MulticastTree tree = build_multicast_tree(request);
  const Topology& t = request.topology;
  const DimensionOrderRouting routing(t);
  const int ports = request.ports.injection_ports(t);
  std::map<NodeId, int> sent;  // worms each node has sent so far, for its port number
  Plan plan{request, {}, {}};
  for (const TreeEdge& edge : tree.edges) {
    Worm worm;
    worm.sender = edge.parent;
    worm.step = edge.hop;
    worm.kind = WormKind::kStoreAndForwardHop;
    worm.header.mode = RoutingMode::kDimensionOrder;
    worm.header.vc = 0;
    worm.header.destinations = {edge.child};
    worm.port = sent[edge.parent]++ % ports;
    worm.hops = trace_route(routing, edge.parent, 0, edge.child);
    worm.route = route_nodes(routing, worm.hops, edge.parent);
    if (worm.hops.size() != 1) {
      throw std::logic_error(
          fmt::format("tree link {} -> {} is not a single link", t.node_name(edge.parent), t.node_name(edge.child)));
    }
    worm.keeps_copy = {edge.child};
    plan.worms.push_back(std::move(worm));
  }
  plan.metrics = compute_metrics(request, plan.worms);
  return plan;
}

}  // namespace wormcast::model
