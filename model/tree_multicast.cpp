// SPDX-License-Identifier: Apache-2.0
#include "model/tree_multicast.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <set>
#include <span>
#include <stdexcept>
#include <tuple>

#include "model/counting_sort.hpp"
#include "model/errors.hpp"
#include "model/routing.hpp"

namespace wormcast::model {
namespace {

// Zone numbering of [5], Section 3.1.3, as sets of negative dimensions (bit 0 = X, 1 = Y, 2 = Z): zone i + 1
// has the mask kZoneMasks[n][i]. 2D: M1 {}, M2 {X}, M3 {Y}, M4 {X,Y}. 3D: 1 {}, 2 {X}, 3 {X,Z},
// 4 {Z}, 5 {Y}, 6 {X,Y}, 7 {X,Y,Z}, 8 {Y,Z}.
constexpr std::array<unsigned, 4> kZoneMasks2D = {0b000, 0b001, 0b010, 0b011};
constexpr std::array<unsigned, 8> kZoneMasks3D = {0b000, 0b001, 0b101, 0b100, 0b010, 0b011, 0b111, 0b110};
// The links from the source to a zone origin cross the negative dimensions in this order
// ([5], Section 3.1.3: s2 <- s, s3 <- s2, s7 <- s3, ...): X, then Z, then Y.
constexpr std::array<int, kMaxDimensions> kZoneLinkOrder = {0, 2, 1};

std::span<const unsigned> zone_masks(int dimensions) {
  if (dimensions == 2) return kZoneMasks2D;
  return kZoneMasks3D;
}

int zone_number(int dimensions, unsigned mask) {
  const std::span<const unsigned> masks = zone_masks(dimensions);
  return static_cast<int>(std::find(masks.begin(), masks.end(), mask) - masks.begin()) + 1;
}

std::size_t at(int d) { return static_cast<std::size_t>(d); }

int manhattan(const Coord& a, const Coord& b) {
  return std::abs(a[0] - b[0]) + std::abs(a[1] - b[1]) + std::abs(a[2] - b[2]);
}

// ceil(k/2): the size of the + half of a torus ring ([5], Section 3.1.3).
int half(int k) { return (k + 1) / 2; }

// `what` and `name` make the message: "multicast tree algorithm vh does not run on star:4; ...".
void require_grid(const Topology& topology, std::string_view what, std::string_view name = {}) {
  if (topology.is_star()) {
    throw UnsupportedError(
        fmt::format("{}{}{} does not run on {}; it supports 2D/3D meshes and tori (mesh:8x8, "
                    "torus:8x8, mesh:5x5x5, torus:5x5x5)",
                    what, name.empty() ? "" : " ", name, topology.spec()));
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

  // t.node_at(to_global(local)) without its range checks: a local coordinate of the zone maps
  // into the network by construction.
  NodeId node(const Coord& local) const {
    const Coord g = to_global(local);
    NodeId id = 0;
    for (int d = topology->dimensions() - 1; d >= 0; --d) id = id * topology->size(d) + g[at(d)];
    return id;
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

// The first zone in the order of [5], Section 3.1.3, that holds `global` (the mesh's planes:
// docs/algorithms.md "Zones and sources other than the origin").
int first_zone(const Topology& t, const Coord& source, const Coord& global) {
  const std::span<const unsigned> masks = zone_masks(t.dimensions());
  for (std::size_t i = 0; i < masks.size(); ++i) {
    if (in_zone(t, source, masks[i], global)) return static_cast<int>(i) + 1;
  }
  throw std::logic_error("a node outside every zone");
}

// ---------------------------------------------------------------------------------------------
// Parent tables: a tree over dense indices (box cells, node ids) as one flat array, so that
// building a tree of N nodes costs O(N) without a node allocation per tree node.

inline constexpr int kAbsent = -1;  // not on the tree

// Deletes, repeatedly, the leaves that are neither kept nor the root: DIAG step 5, and the leaves
// the mesh zones' overlap leaves behind. `parent[v]` is v's parent, kAbsent off the tree, and the
// root's own index for the root. The result does not depend on the order leaves are taken in.
void prune(std::vector<int>& parent, const std::vector<bool>& keep) {
  std::vector<int> children(parent.size(), 0);
  for (std::size_t v = 0; v < parent.size(); ++v) {
    if (parent[v] != kAbsent && parent[v] != static_cast<int>(v)) ++children[at(parent[v])];
  }
  std::vector<int> leaves;
  for (std::size_t v = 0; v < parent.size(); ++v) {
    const bool root = parent[v] == static_cast<int>(v);
    if (parent[v] != kAbsent && !root && children[v] == 0 && !keep[v]) leaves.push_back(static_cast<int>(v));
  }
  while (!leaves.empty()) {
    const int leaf = leaves.back();
    leaves.pop_back();
    const int p = parent[at(leaf)];
    parent[at(leaf)] = kAbsent;
    if (--children[at(p)] == 0 && !keep[at(p)] && parent[at(p)] != p) leaves.push_back(p);
  }
}

// ---------------------------------------------------------------------------------------------
// One zone's subtree, built by the mesh algorithm in local coordinates (origin = 0).

class LocalTree {
 public:
  // The tree of the origin alone, in the box 0..extent.
  explicit LocalTree(const Coord& extent) : extent_(extent) {
    std::size_t cells = 1;
    for (int e : extent_) cells *= at(e + 1);
    parent_.assign(cells, kAbsent);
    parent_[0] = 0;  // the origin is the root
  }

  const Coord& extent() const { return extent_; }
  bool contains(const Coord& v) const { return parent_[index(v)] != kAbsent; }
  // Adds `child` under `parent` (a tree node); false, and no change, if `child` is on the tree.
  bool add(const Coord& child, const Coord& parent) {
    int& slot = parent_[index(child)];
    if (slot != kAbsent) return false;
    slot = static_cast<int>(index(parent));
    return true;
  }
  // Every tree node but the origin with its parent, in no particular order.
  template <typename Visit>
  void for_each_link(Visit visit) const {
    std::size_t i = 0;
    Coord v{};
    for (v[2] = 0; v[2] <= extent_[2]; ++v[2]) {
      for (v[1] = 0; v[1] <= extent_[1]; ++v[1]) {
        for (v[0] = 0; v[0] <= extent_[0]; ++v[0], ++i) {  // i = index(v)
          if (i > 0 && parent_[i] != kAbsent) visit(v, cell(at(parent_[i])));
        }
      }
    }
  }
  // DIAG step 5: deletes the leaves that are not destinations.
  void prune_to(const std::vector<Coord>& destinations) {
    std::vector<bool> keep(parent_.size(), false);
    for (const Coord& d : destinations) keep[index(d)] = true;
    prune(parent_, keep);
  }

  std::vector<Coord> stem;
  std::vector<std::pair<Coord, Coord>> attachments;  // (destination, node it was connected to)

 private:
  std::size_t index(const Coord& v) const {
    return (at(v[2]) * at(extent_[1] + 1) + at(v[1])) * at(extent_[0] + 1) + at(v[0]);
  }
  Coord cell(std::size_t i) const {
    Coord v{};
    for (std::size_t d = 0; d < v.size(); ++d) {
      v[d] = static_cast<int>(i % at(extent_[d] + 1));
      i /= at(extent_[d] + 1);
    }
    return v;
  }

  Coord extent_;
  std::vector<int> parent_;  // by cell index: the parent's cell index, kAbsent, or 0 for the origin
};

// Calls visit(v) for the cells v of the box 0..bound at Manhattan distance `d` from u, in decreasing
// lexicographic (x, y, z) order, until it returns true; coordinates before `dim` are already set in
// v. Returns whether a call returned true.
template <typename Visit>
bool scan_diamond(Coord& v, const Coord& u, const Coord& bound, std::size_t dim, int d, Visit& visit) {
  if (dim + 1 == v.size()) {
    for (int c : {u[dim] + d, u[dim] - d}) {
      if (c < 0 || c > bound[dim]) continue;
      v[dim] = c;
      if (visit(v)) return true;
      if (d == 0) break;  // u[dim] + 0 and u[dim] - 0 are one cell
    }
    return false;
  }
  int reach = 0;  // the farthest the later coordinates can get from u's
  for (std::size_t k = dim + 1; k < v.size(); ++k) reach += std::max(u[k], bound[k] - u[k]);
  for (int c = std::min(u[dim] + d, bound[dim]); c >= std::max(u[dim] - d, 0); --c) {
    const int rest = d - std::abs(c - u[dim]);
    if (rest > reach) continue;
    v[dim] = c;
    if (scan_diamond(v, u, bound, dim + 1, rest, visit)) return true;
  }
  return false;
}

// The tree node nearest u; only nodes in the zone {origin <=> u} where the algorithm says so
// (DIAG, DDS). Ties: lexicographically largest (x, y, z) (docs/algorithms.md, "DIAG, DDS, VH and
// MIN in one zone"). Every tree node lies in the zone's box, so the search scans the box's cells at
// distance 0, 1, 2, ... from u, each distance in decreasing lexicographic order, and stops at the
// first tree node. The origin, at distance |u|, ends it at the latest.
Coord closest_tree_node(const LocalTree& tree, const Coord& u, bool within_zone) {
  const Coord& bound = within_zone ? u : tree.extent();
  Coord found{};
  const auto on_tree = [&](const Coord& v) {
    if (!tree.contains(v)) return false;
    found = v;
    return true;
  };
  Coord v{};
  int d = 0;
  while (!scan_diamond(v, u, bound, 0, d, on_tree)) ++d;
  return found;
}

// Adds the dimension-ordered (X, Y, Z) path from the tree node `from` to u. Every node after
// `from` is nearer u than `from`, so none is on the tree when `from` is the nearest tree node.
void add_dimension_ordered_path(LocalTree& tree, const Coord& from, const Coord& u) {
  Coord here = from;
  for (std::size_t d = 0; d < here.size(); ++d) {
    while (here[d] != u[d]) {
      Coord next = here;
      next[d] += u[d] > here[d] ? 1 : -1;
      if (!tree.add(next, here)) throw std::logic_error("a dimension-ordered attachment path crosses the tree");
      here = next;
    }
  }
}

// The node before v (not the origin) on the X, then Y, then Z path from the origin to v: the last
// dimension the path moves in is the last one in which v is not 0.
Coord xyz_path_parent(Coord v) {
  std::size_t d = v.size() - 1;
  while (v[d] == 0) --d;
  --v[d];
  return v;
}

LocalTree vh_tree(const std::vector<Coord>& destinations, const Coord& extent) {
  LocalTree tree(extent);
  for (const Coord& u : destinations) {
    // The X, then Y, then Z path from the origin. The XYZ path to any node of an XYZ path is its
    // prefix, so once the walk back from u meets the tree, the rest of the path is on it already.
    for (Coord v = u; !tree.contains(v);) {
      const Coord parent = xyz_path_parent(v);
      tree.add(v, parent);
      v = parent;
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

LocalTree diag_tree(const std::vector<Coord>& destinations, int dimensions, const Coord& extent) {
  Coord diagonal{};
  for (const Coord& u : destinations) {
    for (std::size_t d = 0; d < diagonal.size(); ++d) diagonal[d] = std::max(diagonal[d], u[d]);
  }
  LocalTree tree(extent);
  tree.stem = diagonal_path(diagonal, dimensions);
  for (std::size_t i = 1; i < tree.stem.size(); ++i) tree.add(tree.stem[i], tree.stem[i - 1]);
  // Nearest the origin first; equal distances keep the request order (docs/algorithms.md, "DIAG,
  // DDS, VH and MIN in one zone").
  std::vector<Coord> order = destinations;
  std::stable_sort(order.begin(), order.end(),
                   [](const Coord& a, const Coord& b) { return manhattan(a, Coord{}) < manhattan(b, Coord{}); });
  attach_in_order(tree, order);
  tree.prune_to(destinations);
  return tree;
}

LocalTree dds_tree(const std::vector<Coord>& destinations, int dimensions, const Coord& extent) {
  std::vector<Coord> order = destinations;
  std::stable_sort(order.begin(), order.end(),
                   [dimensions](const Coord& a, const Coord& b) { return dds_precedes(a, b, dimensions); });
  LocalTree tree(extent);
  attach_in_order(tree, order);
  return tree;
}

// Our reading of MIN (docs/algorithms.md, "DIAG, DDS, VH and MIN in one zone"): in turn per
// dimension j, the remaining destination with the smallest j-th coordinate (ties: the next
// coordinates, cyclically), joined to the nearest tree node anywhere by its dimension-ordered path.
// Destinations are distinct, so the keys never tie: each dimension's turn takes the next untaken
// destination of that dimension's key order.
LocalTree min_tree(const std::vector<Coord>& destinations, int dimensions, const Coord& extent) {
  LocalTree tree(extent);
  const auto key = [dimensions](const Coord& v, int j) {
    Coord k{};
    for (int i = 0; i < dimensions; ++i) k[at(i)] = v[at((j + i) % dimensions)];
    return k;
  };
  // Per j: (key, destination index), smallest key first.
  std::vector<std::vector<std::pair<Coord, std::size_t>>> by_key(at(dimensions));
  for (int j = 0; j < dimensions; ++j) {
    std::vector<std::pair<Coord, std::size_t>>& order = by_key[at(j)];
    for (std::size_t i = 0; i < destinations.size(); ++i) order.emplace_back(key(destinations[i], j), i);
    std::sort(order.begin(), order.end());
  }
  std::vector<bool> taken(destinations.size(), false);
  std::vector<std::size_t> next(at(dimensions), 0);  // per j: where the untaken ones start
  int j = 0;
  for (std::size_t turn = 0; turn < destinations.size(); ++turn) {
    const std::vector<std::pair<Coord, std::size_t>>& order = by_key[at(j)];
    std::size_t& i = next[at(j)];
    while (taken[order[i].second]) ++i;
    taken[order[i].second] = true;
    const Coord u = destinations[order[i].second];
    const Coord c = closest_tree_node(tree, u, false);
    add_dimension_ordered_path(tree, c, u);
    tree.attachments.emplace_back(u, c);
    j = (j + 1) % dimensions;
  }
  return tree;
}

LocalTree local_tree(const std::string& algorithm, const std::vector<Coord>& destinations, int dimensions,
                     const Coord& extent) {
  if (algorithm == kVhAlgorithm) return vh_tree(destinations, extent);
  if (algorithm == kDiagAlgorithm) return diag_tree(destinations, dimensions, extent);
  if (algorithm == kDdsAlgorithm) return dds_tree(destinations, dimensions, extent);
  return min_tree(destinations, dimensions, extent);
}

// ---------------------------------------------------------------------------------------------
// The whole tree: zone subtrees joined, then the time rule.

struct Link {
  NodeId parent = kNoNode;  // kNoNode: the node is not on the tree (or is the source)
  int zone = 1;
  bool zone_link = false;
  bool stem = false;
  int dimension = 0;
  bool local_negative = false;  // against the zone's local + direction (only MIN does this)
};

// Send order at a node ([5], eq. 2.1.9; docs/algorithms.md "Time rule"): zone links first, lower
// zone first; then DIAG's stem; then by dimension X, Y, Z, the zone's local + direction first; then
// by zone (meshes, where the source and the nodes on its planes serve several zones).
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

// Joins `zone`'s subtree to the tree (`links`, by node id): the links from the source to the zone
// origin (tori), then the subtree's links. A node some earlier zone's subtree already holds keeps
// that parent (mesh zones overlap on the source's planes); every subtree is rooted at the source,
// so the parents still lead there.
void join_zone(const Topology& t, NodeId source, const Frame& frame, int number, const LocalTree& local,
               std::vector<Link>& links) {
  const int n = t.dimensions();
  const auto join = [&](NodeId child, const Link& link) {
    if (links[at(child)].parent == kNoNode) links[at(child)] = link;
  };
  if (t.is_torus()) {
    unsigned reached = 0;
    NodeId here = source;
    for (int d : kZoneLinkOrder) {
      if (d >= n || !frame.negative(d)) continue;
      reached |= 1U << d;
      const Frame next_frame{&t, frame.source, reached};
      const NodeId next = t.node_at(next_frame.to_global(Coord{}));
      join(next, Link{here, zone_number(n, reached), true, false, d, false});
      here = next;
    }
  }
  std::vector<bool> on_stem(local.stem.empty() ? 0 : static_cast<std::size_t>(t.node_count()), false);
  for (const Coord& v : local.stem) on_stem[at(frame.node(v))] = true;
  local.for_each_link([&](const Coord& child, const Coord& parent) {
    const NodeId c = frame.node(child);
    const NodeId p = frame.node(parent);
    const int d = link_dimension(child, parent);
    join(c, Link{p, number, false, !on_stem.empty() && on_stem[at(c)], d, child[at(d)] < parent[at(d)]});
  });
}

void schedule(NodeId source, int ports, const std::vector<Link>& links, MulticastTree& tree) {
  // Each node's children, in node id order: children[first[v] .. first[v + 1]) for node v.
  std::vector<std::size_t> first(links.size() + 1, 0);
  for (const Link& link : links) {
    if (link.parent != kNoNode) ++first[at(link.parent) + 1];
  }
  for (std::size_t v = 0; v < links.size(); ++v) first[v + 1] += first[v];
  std::vector<NodeId> children(first.back());
  std::vector<std::size_t> next = first;
  for (NodeId child = 0; child < static_cast<NodeId>(links.size()); ++child) {
    if (links[at(child)].parent != kNoNode) children[next[at(links[at(child)].parent)]++] = child;
  }
  tree.edges.reserve(children.size());
  std::vector<std::pair<NodeId, int>> frontier = {{source, 0}};
  while (!frontier.empty()) {
    const auto [node, hop] = frontier.back();
    frontier.pop_back();
    const auto begin = children.begin() + static_cast<std::ptrdiff_t>(first[at(node)]);
    const auto end = children.begin() + static_cast<std::ptrdiff_t>(first[at(node) + 1]);
    // By priority, equal priorities in node id order: a stable insertion sort, as a node has only a
    // handful of children.
    for (auto i = begin; i != end; ++i) {
      for (auto j = i; j != begin && priority(links[at(*j)]) < priority(links[at(*(j - 1))]); --j)
        std::iter_swap(j, j - 1);
    }
    for (auto child = begin; child != end; ++child) {
      const Link& link = links[at(*child)];
      const int arrives = hop + 1 + static_cast<int>(child - begin) / ports;
      tree.edges.push_back(TreeEdge{node, *child, arrives, link.zone, link.zone_link, link.stem});
      frontier.emplace_back(*child, arrives);
    }
  }
  tree.time = 0;
  for (const TreeEdge& e : tree.edges) tree.time = std::max(tree.time, e.hop);
  // By (hop, parent), a parent's edges of one hop in send order: stable sorts by parent, then hop.
  stable_counting_sort(tree.edges, links.size(), [](const TreeEdge& e) { return e.parent; });
  stable_counting_sort(tree.edges, static_cast<std::size_t>(tree.time) + 1, [](const TreeEdge& e) { return e.hop; });
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
  require_grid(t, "multicast tree algorithm", request.algorithm);
  const int n = t.dimensions();
  const Coord source = t.coord(request.source);

  MulticastTree tree;
  const std::span<const unsigned> masks = zone_masks(n);
  for (std::size_t i = 0; i < masks.size(); ++i) {
    const Frame frame{&t, source, masks[i]};
    TreeZone zone;
    zone.number = static_cast<int>(i) + 1;
    for (int d = 0; d < n; ++d) zone.negative[at(d)] = frame.negative(d);
    zone.origin = frame.node((Coord{}));
    zone.extent = frame.extent();
    tree.zones.push_back(zone);
  }
  for (NodeId d : request.destinations) {
    tree.zones[at(first_zone(t, source, t.coord(d)) - 1)].destinations.push_back(d);
  }

  std::vector<Link> links(static_cast<std::size_t>(t.node_count()));
  for (TreeZone& zone : tree.zones) {
    if (zone.destinations.empty()) continue;
    const Frame frame{&t, source, masks[at(zone.number - 1)]};
    std::vector<Coord> local;
    for (NodeId d : zone.destinations) local.push_back(frame.to_local(t.coord(d)));
    const LocalTree subtree = local_tree(request.algorithm, local, n, zone.extent);
    for (const Coord& v : subtree.stem) zone.stem.push_back(frame.node(v));
    for (const auto& [u, c] : subtree.attachments) {
      tree.attachments.push_back(TreeAttachment{frame.node(u), frame.node(c)});
    }
    join_zone(t, request.source, frame, zone.number, subtree, links);
  }
  // Where mesh zones share a node, a subtree can lose the only child of one of its nodes to an
  // earlier zone; such a node is a leaf that no destination needs.
  std::vector<int> parents(links.size(), kAbsent);
  for (std::size_t v = 0; v < links.size(); ++v) {
    if (links[v].parent != kNoNode) parents[v] = links[v].parent;
  }
  parents[at(request.source)] = request.source;
  std::vector<bool> keep(links.size(), false);
  for (NodeId d : request.destinations) keep[at(d)] = true;
  prune(parents, keep);
  for (std::size_t v = 0; v < links.size(); ++v) {
    if (parents[v] == kAbsent) links[v].parent = kNoNode;
  }
  schedule(request.source, request.ports.injection_ports(t), links, tree);
  return tree;
}

Plan plan_tree_multicast(const Request& request) {
  const MulticastTree tree = build_multicast_tree(request);
  const Topology& t = request.topology;
  const DimensionOrderRouting routing(t);
  const int ports = request.ports.injection_ports(t);
  std::vector<int> sent(static_cast<std::size_t>(t.node_count()), 0);  // worms sent so far, per node
  std::vector<bool> is_destination(static_cast<std::size_t>(t.node_count()), false);
  for (NodeId d : request.destinations) is_destination[static_cast<std::size_t>(d)] = true;
  Plan plan{request, {}, {}};
  plan.worms.reserve(tree.edges.size());
  for (const TreeEdge& edge : tree.edges) {
    Worm& worm = plan.worms.emplace_back();
    worm.sender = edge.parent;
    worm.step = edge.hop;
    worm.kind = WormKind::kStoreAndForwardHop;
    worm.header.mode = RoutingMode::kDimensionOrder;
    worm.header.vc = 0;
    worm.header.destinations = {edge.child};
    worm.port = sent[at(edge.parent)]++ % ports;
    // The routing function's first decision: a tree link is one hop, so it must lead to the child
    // (what trace_route would follow, without tracing to the ejection).
    const RouteStep first = routing.route(edge.parent, 0, edge.child);
    if (first.ejects() || t.neighbour(edge.parent, first.port) != edge.child) {
      throw std::logic_error(
          fmt::format("tree link {} -> {} is not a single link", t.node_name(edge.parent), t.node_name(edge.child)));
    }
    worm.hops = {RouteHop{edge.parent, first.port, first.vc}};
    worm.route = {edge.parent, edge.child};
    // Store-and-forward: the child takes the whole message in either way; a tree node that is not a
    // destination is a relay (the tree has no non-destination leaves, so it forwards).
    (is_destination[static_cast<std::size_t>(edge.child)] ? worm.keeps_copy : worm.relays) = {edge.child};
  }
  plan.metrics = compute_metrics(request, plan.worms);
  return plan;
}

}  // namespace wormcast::model
