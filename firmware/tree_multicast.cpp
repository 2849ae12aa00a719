// SPDX-License-Identifier: Apache-2.0
// VH, DIAG, DDS and MIN trees at the source, re-derived from the thesis (paper [5]) as
// docs/algorithms.md states it (independent of model/).
#include "firmware/tree_multicast.hpp"

#include "firmware/job.hpp"

namespace wormcast::fw {
namespace {

constexpr std::uint8_t kDest = 1;       // a destination of the multicast
constexpr std::uint8_t kInZone = 2;     // in the current zone's subtree
constexpr std::uint8_t kZoneStem = 4;   // reached by the current zone's DIAG stem
constexpr std::uint8_t kEdgeStem = 8;   // the tree edge into this node is a stem edge
constexpr std::uint8_t kZoneDest = 16;  // a destination assigned to the current zone
constexpr std::uint8_t kZoneLink = 32;  // torus: the edge into this zone origin is a zone link

// Zones in the thesis's order ([5], Section 3.1.3), as masks of mirrored dimensions (bit d = dimension d).
constexpr std::uint8_t kZones2[] = {0b000, 0b001, 0b010, 0b011};
constexpr std::uint8_t kZones3[] = {0b000, 0b001, 0b101, 0b100, 0b010, 0b011, 0b111, 0b110};

// The zone whose origin links to the origin of zone `mask` on a torus: the source reaches a zone
// origin by one link per mirrored dimension in the order X, Z, Y ([5], Section 3.1.3: s2, s4, s5 <- s;
// s3, s6 <- s2; s8 <- s4; s7 <- s3), so the last of them is the final link.
std::uint8_t zone_link_parent(std::uint8_t mask) {
  constexpr unsigned kLastLinkFirst[] = {1, 2, 0};  // Y, then Z, then X
  for (const unsigned d : kLastLinkFirst) {
    if (((mask >> d) & 1) != 0) return static_cast<std::uint8_t>(mask & ~(1u << d));
  }
  return 0;
}

int abs_int(int v) { return v < 0 ? -v : v; }

}  // namespace

std::size_t tree_subtree_end(const std::uint32_t* list, std::size_t size, std::size_t i) {
  std::size_t pending = 1;
  std::size_t j = i;
  while (pending > 0 && j < size) {
    pending += tree_children(list[j]);
    --pending;
    ++j;
  }
  return j;
}

// Mesh: |v - s| per dimension, the zone's side of the source (negative outside the zone). Torus
// ([5], Section 3.1.3; docs/algorithms.md "Zones and sources other than the origin"): offsets from
// the source, the + half 0 .. ceil(k/2)-1 as they are, the - half mirrored (k-1-offset) so that its
// origin is the source's - neighbour; -1 outside the zone.
void TreeBuilder::local_in(std::uint32_t node, std::uint8_t mask, int* l) const {
  for (unsigned d = 0; d < 3; ++d) {
    l[d] = 0;
    if (d >= grid_.dims) continue;
    const int v = static_cast<int>(grid_.coord(node, d)), s = static_cast<int>(grid_.coord(source_, d));
    const bool mirrored = ((mask >> d) & 1) != 0;
    if (grid_.kind == GridKind::kMesh) {
      l[d] = mirrored ? s - v : v - s;
      continue;
    }
    const int k = grid_.size[d], half = (k + 1) / 2, offset = ((v - s) % k + k) % k;
    if (mirrored) {
      l[d] = offset < half ? -1 : k - 1 - offset;
    } else {
      l[d] = offset >= half ? -1 : offset;
    }
  }
}

void TreeBuilder::local(std::uint32_t node, int* l) const { local_in(node, mask_, l); }

std::uint32_t TreeBuilder::global(const int* l) const {
  std::uint32_t node = source_;
  for (unsigned d = 0; d < grid_.dims; ++d) {
    const int s = static_cast<int>(grid_.coord(source_, d)), k = grid_.size[d];
    const bool mirrored = ((mask_ >> d) & 1) != 0;
    int v = mirrored ? s - l[d] : s + l[d];
    if (grid_.kind == GridKind::kTorus) v = ((mirrored ? s + k - 1 - l[d] : s + l[d]) % k + k) % k;
    node = grid_.with_coord(node, d, static_cast<std::uint32_t>(v));
  }
  return node;
}

bool TreeBuilder::in_zone(std::uint32_t node) const {
  int l[3];
  local(node, l);
  return l[0] >= 0 && l[1] >= 0 && l[2] >= 0;
}

void TreeBuilder::zone_add(std::uint32_t node, std::uint32_t parent, bool stem) {
  if ((flags_[node] & kInZone) != 0) return;
  flags_[node] = static_cast<std::uint8_t>(flags_[node] | kInZone | (stem ? kZoneStem : 0));
  zone_parent_[node] = static_cast<std::int16_t>(parent);
}

// The zone-tree node nearest u (inside the zone {origin <=> u} when inside_box); ties: the
// lexicographically largest local coordinates, x first (docs/algorithms.md, "DIAG, DDS, VH and MIN in one zone").
std::uint32_t TreeBuilder::nearest(std::uint32_t u, bool inside_box) const {
  int lu[3];
  local(u, lu);
  std::uint32_t best = origin_;
  int best_dist = -1;
  int best_l[3] = {0, 0, 0};
  for (std::uint32_t c = 0; c < grid_.nodes(); ++c) {
    if ((flags_[c] & kInZone) == 0) continue;
    int lc[3];
    local(c, lc);
    int dist = 0;
    bool inside = true;
    for (unsigned d = 0; d < 3; ++d) {
      dist += abs_int(lc[d] - lu[d]);
      inside = inside && lc[d] <= lu[d];
    }
    if (inside_box && !inside) continue;
    bool better = best_dist < 0 || dist < best_dist;
    if (!better && dist == best_dist) {
      for (unsigned d = 0; d < 3; ++d) {
        if (lc[d] != best_l[d]) {
          better = lc[d] > best_l[d];
          break;
        }
      }
    }
    if (better) {
      best = c;
      best_dist = dist;
      for (unsigned d = 0; d < 3; ++d) best_l[d] = lc[d];
    }
  }
  return best;
}

// Joins u to its nearest tree node c by the X-, then Y-, then Z-ordered path c -> u.
void TreeBuilder::attach(std::uint32_t u, bool inside_box) {
  if ((flags_[u] & kInZone) != 0) return;
  path(nearest(u, inside_box), u);
}

// Adds the X-, then Y-, then Z-ordered path from -> u, stepping in the zone's local coordinates
// (on a torus the path never leaves the zone); nodes already in the zone tree keep their parent:
// VH's paths from the origin share their prefixes.
void TreeBuilder::path(std::uint32_t from, std::uint32_t u) {
  int l[3], lu[3];
  local(from, l);
  local(u, lu);
  std::uint32_t at = from;
  for (unsigned d = 0; d < grid_.dims; ++d) {
    while (l[d] != lu[d]) {
      l[d] += lu[d] > l[d] ? 1 : -1;
      const std::uint32_t next = global(l);
      zone_add(next, at, false);
      at = next;
    }
  }
}

// DIAG's stem (Alg. 3.2.1.1/3.2.1.4): from the origin toward the diagonal node, each step to the
// neighbour nearest the line origin-d (integer key |v|^2 |d|^2 - (v.d)^2), ties to the lower
// dimension, never past d.
void TreeBuilder::diag_stem(const std::uint32_t* dests, std::uint32_t count) {
  long long dmax[3] = {0, 0, 0};
  for (std::uint32_t i = 0; i < count; ++i) {
    int l[3];
    local(dests[i], l);
    for (unsigned d = 0; d < 3; ++d) dmax[d] = l[d] > dmax[d] ? l[d] : dmax[d];
  }
  const long long dd = dmax[0] * dmax[0] + dmax[1] * dmax[1] + dmax[2] * dmax[2];
  int u[3] = {0, 0, 0};
  for (;;) {
    int best = -1;
    long long best_key = 0;
    for (unsigned k = 0; k < grid_.dims; ++k) {
      if (u[k] >= dmax[k]) continue;
      long long v[3] = {u[0], u[1], u[2]};
      ++v[k];
      const long long vv = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
      const long long vd = v[0] * dmax[0] + v[1] * dmax[1] + v[2] * dmax[2];
      const long long key = vv * dd - vd * vd;
      if (best < 0 || key < best_key) {
        best = static_cast<int>(k);
        best_key = key;
      }
    }
    if (best < 0) return;
    const std::uint32_t from = global(u);
    ++u[best];
    zone_add(global(u), from, true);
  }
}

// Removes, repeatedly, zone-tree leaves that are not the zone's destinations (the stem's tail).
void TreeBuilder::prune_zone() {
  for (bool changed = true; changed;) {
    changed = false;
    for (std::uint32_t v = 0; v < grid_.nodes(); ++v) {
      if ((flags_[v] & kInZone) == 0 || v == origin_ || (flags_[v] & kZoneDest) != 0) continue;
      bool leaf = true;
      for (std::uint32_t c = 0; c < grid_.nodes() && leaf; ++c) {
        leaf = !((flags_[c] & kInZone) != 0 && c != origin_ && zone_parent_[c] == static_cast<std::int16_t>(v));
      }
      if (leaf) {
        flags_[v] = static_cast<std::uint8_t>(flags_[v] & ~(kInZone | kZoneStem));
        changed = true;
      }
    }
  }
}

// Algorithm 3.2.2.1: the smallest local coordinate first, then the first dimension holding it;
// equal: drop that dimension and repeat.
bool TreeBuilder::dds_precedes(std::uint32_t a, std::uint32_t b) const {
  int la[3], lb[3];
  local(a, la);
  local(b, lb);
  bool removed[3] = {false, false, false};
  for (unsigned round = 0; round < grid_.dims; ++round) {
    int ia = -1, ib = -1;
    for (unsigned d = 0; d < grid_.dims; ++d) {
      if (removed[d]) continue;
      if (ia < 0 || la[d] < la[ia]) ia = static_cast<int>(d);
      if (ib < 0 || lb[d] < lb[ib]) ib = static_cast<int>(d);
    }
    if (la[ia] != lb[ib]) return la[ia] < lb[ib];
    if (ia != ib) return ia < ib;
    removed[ia] = true;
  }
  return false;
}

void TreeBuilder::build_zone(TreeKind kind, std::uint32_t zone_index) {
  const std::uint32_t n = zone_count_;
  std::uint32_t* z = zone_dests_;
  if (kind == TreeKind::kVh) {
    // The union of the XYZ paths from the origin ([5], VH).
    for (std::uint32_t i = 0; i < n; ++i) path(origin_, z[i]);
  } else if (kind == TreeKind::kDiag) {
    diag_stem(z, n);
    // By distance from the origin, stable in request order (docs/algorithms.md, "DIAG, DDS, VH and MIN in
    // one zone"): insertion sort.
    for (std::uint32_t i = 1; i < n; ++i) {
      const std::uint32_t u = z[i];
      int lu[3];
      local(u, lu);
      const int du = lu[0] + lu[1] + lu[2];
      std::uint32_t j = i;
      for (; j > 0; --j) {
        int lp[3];
        local(z[j - 1], lp);
        if (lp[0] + lp[1] + lp[2] <= du) break;
        z[j] = z[j - 1];
      }
      z[j] = u;
    }
    for (std::uint32_t i = 0; i < n; ++i) attach(z[i], true);
    prune_zone();
  } else if (kind == TreeKind::kDds) {
    for (std::uint32_t i = 1; i < n; ++i) {
      const std::uint32_t u = z[i];
      std::uint32_t j = i;
      for (; j > 0 && dds_precedes(u, z[j - 1]); --j) z[j] = z[j - 1];
      z[j] = u;
    }
    for (std::uint32_t i = 0; i < n; ++i) attach(z[i], true);
  } else {
    // MIN (our reading, docs/algorithms.md): alternately the smallest coordinate j (ties: j+1, j+2
    // cyclically), joined to the nearest tree node of the zone.
    bool* used = picked_;
    for (std::uint32_t i = 0; i < n; ++i) used[i] = false;
    for (std::uint32_t pick = 0, j = 0; pick < n; ++pick, j = (j + 1) % grid_.dims) {
      std::uint32_t best = n;
      int lb[3] = {0, 0, 0};
      for (std::uint32_t i = 0; i < n; ++i) {
        if (used[i]) continue;
        int l[3];
        local(z[i], l);
        bool better = best == n;
        for (unsigned k = 0; k < grid_.dims && !better; ++k) {
          const unsigned d = (j + k) % grid_.dims;
          if (l[d] != lb[d]) {
            better = l[d] < lb[d];
            break;
          }
        }
        if (better) {
          best = i;
          for (unsigned d = 0; d < 3; ++d) lb[d] = l[d];
        }
      }
      used[best] = true;
      attach(z[best], false);
    }
  }
  // Merge: a node keeps the parent of the first zone whose subtree holds it.
  for (std::uint32_t v = 0; v < grid_.nodes(); ++v) {
    if ((flags_[v] & kInZone) == 0 || v == origin_ || parent_[v] != kNone) continue;
    parent_[v] = zone_parent_[v];
    edge_zone_[v] = static_cast<std::uint8_t>(zone_index);
    edge_mask_[v] = mask_;
    if ((flags_[v] & kZoneStem) != 0) flags_[v] = static_cast<std::uint8_t>(flags_[v] | kEdgeStem);
  }
}

// Send priority at a node (docs/algorithms.md, "Time rule"): torus zone links first, lower zone
// first; then DIAG's stem children, lower zone first (the doc's rule is silent on two stems; the model orders them by
// zone, which the RTL check showed), then by dimension, the zone's + direction before -, then by zone; equal keys in
// node id order.
bool TreeBuilder::child_before(std::uint32_t parent, std::uint32_t a, std::uint32_t b) const {
  const auto key = [&](std::uint32_t c, unsigned* k) {
    unsigned dim = 0;
    for (unsigned d = 0; d < grid_.dims; ++d) {
      if (grid_.coord(c, d) != grid_.coord(parent, d)) dim = d;
    }
    int lc[3], lp[3];
    local_in(c, edge_mask_[c], lc);
    local_in(parent, edge_mask_[c], lp);
    const bool link = (flags_[c] & kZoneLink) != 0, stem = (flags_[c] & kEdgeStem) != 0;
    k[0] = link ? 0 : 1;  // torus zone links first, lower zone first
    k[1] = link ? edge_zone_[c] : 0;
    k[2] = stem ? 0 : 1;
    k[3] = stem ? edge_zone_[c] : 0;  // two stems (of two zones) leave the source: lower zone first
    k[4] = dim;
    k[5] = lc[dim] > lp[dim] ? 0 : 1;  // the zone's + direction first
    k[6] = edge_zone_[c];
  };
  unsigned ka[7], kb[7];
  key(a, ka);
  key(b, kb);
  for (unsigned i = 0; i < 7; ++i) {
    if (ka[i] != kb[i]) return ka[i] < kb[i];
  }
  return false;
}

// Torus: the zone links from the source to the origin of every zone that holds destinations, and
// of the zones on its way.
void TreeBuilder::link_zone_origins(const std::uint8_t* zones, std::uint32_t zone_total, const std::uint8_t* assigned,
                                    std::uint32_t count) {
  bool needed[8] = {};
  for (std::uint32_t i = 0; i < count; ++i) {
    for (std::uint8_t mask = zones[assigned[i]];; mask = zone_link_parent(mask)) {
      for (std::uint32_t z = 0; z < zone_total; ++z) {
        if (zones[z] == mask) needed[z] = true;
      }
      if (mask == 0) break;
    }
  }
  const int zero[3] = {0, 0, 0};
  for (std::uint32_t z = 0; z < zone_total; ++z) {
    if (!needed[z] || zones[z] == 0) continue;
    mask_ = zone_link_parent(zones[z]);
    const std::uint32_t from = global(zero);
    mask_ = zones[z];
    const std::uint32_t origin = global(zero);
    parent_[origin] = static_cast<std::int16_t>(from);
    flags_[origin] = static_cast<std::uint8_t>(flags_[origin] | kZoneLink);
    edge_zone_[origin] = static_cast<std::uint8_t>(z);
    edge_mask_[origin] = zones[z];
  }
}

// The children of `parent` in send order; their count (at most 6).
std::uint32_t TreeBuilder::children_of(std::uint32_t parent, std::uint32_t* children) const {
  std::uint32_t count = 0;
  for (std::uint32_t c = 0; c < grid_.nodes(); ++c) {
    if (c == source_ || parent_[c] != static_cast<std::int16_t>(parent) || count == 6) continue;
    std::uint32_t j = count++;
    for (; j > 0 && child_before(parent, c, children[j - 1]); --j) children[j] = children[j - 1];
    children[j] = c;
  }
  return count;
}

TreeBuilder::Result TreeBuilder::build(const Grid& grid, std::uint32_t source, TreeKind kind,
                                       const std::uint32_t* destinations, std::uint32_t count, TreeList& out) {
  if (grid.nodes() > kMaxGridNodes) return Result::kNetworkTooLarge;
  grid_ = grid;
  source_ = source;
  for (std::uint32_t v = 0; v < grid.nodes(); ++v) {
    parent_[v] = kNone;
    flags_[v] = 0;
    edge_zone_[v] = 0;
    edge_mask_[v] = 0;
  }
  for (std::uint32_t i = 0; i < count; ++i) flags_[destinations[i]] = kDest;
  const std::uint8_t* zones = grid.dims == 3 ? kZones3 : kZones2;
  const std::uint32_t zone_total = grid.dims == 3 ? 8 : 4;
  // Each destination belongs to the first zone that contains it (docs/algorithms.md, "Zones and
  // sources other than the origin").
  std::uint8_t* assigned = zone_of_;
  for (std::uint32_t i = 0; i < count; ++i) {
    assigned[i] = 0xFF;
    for (std::uint32_t z = 0; z < zone_total && assigned[i] == 0xFF; ++z) {
      mask_ = zones[z];
      if (in_zone(destinations[i])) assigned[i] = static_cast<std::uint8_t>(z);
    }
  }
  if (grid.kind == GridKind::kTorus) link_zone_origins(zones, zone_total, assigned, count);
  for (std::uint32_t z = 0; z < zone_total; ++z) {
    mask_ = zones[z];
    int zero[3] = {0, 0, 0};
    origin_ = global(zero);
    zone_count_ = 0;
    for (std::uint32_t v = 0; v < grid.nodes(); ++v)
      flags_[v] = static_cast<std::uint8_t>(flags_[v] & (kDest | kEdgeStem | kZoneLink));
    for (std::uint32_t i = 0; i < count; ++i) {
      if (assigned[i] != z) continue;
      zone_dests_[zone_count_++] = destinations[i];
      flags_[destinations[i]] = static_cast<std::uint8_t>(flags_[destinations[i]] | kZoneDest);
    }
    if (zone_count_ == 0) continue;
    flags_[origin_] = static_cast<std::uint8_t>(flags_[origin_] | kInZone);
    build_zone(kind, z);
  }
  // Leaves left without a purpose where zone subtrees overlapped.
  for (bool changed = true; changed;) {
    changed = false;
    for (std::uint32_t v = 0; v < grid.nodes(); ++v) {
      if (parent_[v] == kNone || (flags_[v] & kDest) != 0) continue;
      bool leaf = true;
      for (std::uint32_t c = 0; c < grid.nodes() && leaf; ++c) leaf = parent_[c] != static_cast<std::int16_t>(v);
      if (leaf) {
        parent_[v] = kNone;
        changed = true;
      }
    }
  }
  // Preorder, children in send order, with an explicit stack (no recursion on a small core).
  out.clear();
  std::uint32_t* stack = preorder_stack_;
  std::uint32_t top = 0;
  stack[top++] = source;
  while (top > 0) {
    const std::uint32_t v = stack[--top];
    std::uint32_t children[6];
    const std::uint32_t n = children_of(v, children);
    if (!out.push_back(tree_entry(v, n, (flags_[v] & kDest) != 0))) return Result::kTreeTooLarge;
    for (std::uint32_t i = n; i > 0; --i) {
      if (top == kMaxGridNodes) return Result::kTreeTooLarge;
      stack[top++] = children[i - 1];
    }
  }
  return Result::kOk;
}

}  // namespace wormcast::fw

namespace wormcast::fw {
namespace {

Status start_tree(NodeContext& node, Job& job, const MulticastRequest& r, TreeKind kind) {
  job.state.tree = {};
  TreeJob& t = job.state.tree;
  const TreeBuilder::Result built =
      node.tree_builder.build(node.grid(), node.self(), kind, r.destinations, r.count, t.list);
  if (built == TreeBuilder::Result::kNetworkTooLarge) return Status::kNetworkTooLarge;
  if (built != TreeBuilder::Result::kOk) return Status::kTooManyDestinations;
  t.next_child = 1;  // entry 0 is the source itself
  return Status::kOk;
}

}  // namespace

Status start_vh(NodeContext& node, Job& job, const MulticastRequest& r) {
  return start_tree(node, job, r, TreeKind::kVh);
}
Status start_diag(NodeContext& node, Job& job, const MulticastRequest& r) {
  return start_tree(node, job, r, TreeKind::kDiag);
}
Status start_dds(NodeContext& node, Job& job, const MulticastRequest& r) {
  return start_tree(node, job, r, TreeKind::kDds);
}
Status start_min(NodeContext& node, Job& job, const MulticastRequest& r) {
  return start_tree(node, job, r, TreeKind::kMin);
}

// The address field is the receiver's subtree, its own entry first: deliver if the entry says so,
// relay to the children unless it is a leaf.
Status receive_tree(NodeContext& node, const Received& m, Job* slot) {
  if (m.info.address_entries == 0 || m.info.address_entries > TreeList::capacity() ||
      tree_node(address_entry(m.payload, 0)) != node.self()) {
    return Status::kBadMessage;
  }
  const bool leaf = m.info.address_entries == 1;
  if (!leaf && slot == nullptr) return Status::kNoFreeJob;
  if (tree_destination(address_entry(m.payload, 0))) node.deliver(m);
  if (leaf) return Status::kOk;
  begin_relay(node, *slot, m);
  slot->all_port = false;
  slot->state.tree = {};
  TreeJob& t = slot->state.tree;
  for (std::uint32_t i = 0; i < m.info.address_entries; ++i) {
    if (tree_node(address_entry(m.payload, i)) >= node.grid().nodes()) return Status::kBadMessage;
    t.list.push_back(address_entry(m.payload, i));
  }
  // The list must be exactly one subtree: its child counts account for every entry.
  if (tree_subtree_end(t.list.begin(), t.list.size(), 0) != t.list.size()) return Status::kBadMessage;
  t.next_child = 1;
  slot->active = true;
  return Status::kOk;
}

// The children follow their parent's entry in send order, each with its subtree; p children per
// step on channels 0..p-1: the i-th child in step t + 1 + floor(i/p) after receiving in step t
// (docs/algorithms.md, "Time rule").
std::uint32_t iterate_tree(NodeContext&, Job& job) {
  TreeJob& t = job.state.tree;
  t.pending.clear();
  for (std::uint32_t c = 0; c < job.ports && t.next_child < t.list.size(); ++c) {
    const std::size_t end = tree_subtree_end(t.list.begin(), t.list.size(), t.next_child);
    t.pending.push_back({static_cast<std::uint8_t>(c), tree_node(t.list[t.next_child]), t.next_child,
                         static_cast<std::uint32_t>(end) - t.next_child});
    t.next_child = static_cast<std::uint32_t>(end);
  }
  return static_cast<std::uint32_t>(t.pending.size());
}

// A one-hop dimension-order worm carrying the child's subtree.
bool issue_tree_send(NodeContext& node, Job& job, std::uint32_t index) {
  const TreeJob& t = job.state.tree;
  const TreeSend& send = t.pending[index];
  if (!node.put_head(0, node.dimension_order_head(send.child))) return false;
  return node.send(job, send.channel, 1, MessageInfo{}, t.list.begin() + send.first, send.count);
}

}  // namespace wormcast::fw
