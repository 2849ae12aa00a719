// SPDX-License-Identifier: Apache-2.0
// XY-path ([5], Algorithms 3.3.1 and 3.3.2); independent of model/ (docs/firmware.md,
// "HW/SW split").
#include "firmware/xy_path.hpp"

#include "firmware/job.hpp"

namespace wormcast::fw {
namespace {

// The partition (Algorithm 3.3.1), built from the source's corner inward (other corners by
// reflection): X runs along rows, Y along columns; the paths take turns, the one to move goes
// straight while the next cell is free, U-turns into the next row (column) otherwise, and is done
// when the U-turn cell is taken or outside; a path at the far boundary at the end of its row
// (column) hands the turn over when it is strictly longer and the other is not done.
void partition(const Grid& g, std::uint32_t self, bool x_first, XyPartition& xy) {
  const std::uint32_t sx = g.size[0], sy = g.size[1];
  const bool flip_x = g.coord(self, 0) != 0, flip_y = g.coord(self, 1) != 0;
  // Reflected coordinates: the source at (0, 0).
  const auto node_at = [&](std::uint32_t x, std::uint32_t y) {
    return (flip_x ? sx - 1 - x : x) + sx * (flip_y ? sy - 1 - y : y);
  };
  for (std::uint32_t n = 0; n < g.nodes(); ++n) xy.path[n] = 0;
  xy.path[self] = 3;  // on both
  xy.label[self] = 0;
  xy.order[0] = static_cast<std::uint16_t>(self);
  xy.taken = 1;
  std::uint32_t length[2] = {0, 0};
  std::uint32_t last[2][2] = {{0, 0}, {0, 0}};  // reflected (x, y) of each path's end
  int dir[2] = {1, 1};
  bool done[2] = {false, false};
  int turn = x_first ? 0 : 1;  // 0: X (rows), 1: Y (columns)
  while (!done[0] || !done[1]) {
    if (done[turn]) {
      turn = 1 - turn;
      continue;
    }
    const unsigned along = turn == 0 ? 0 : 1, across = 1 - along;  // the path's travel coordinate
    const std::uint32_t size_along = along == 0 ? sx : sy, size_across = across == 0 ? sx : sy;
    std::uint32_t* v = last[turn];
    if (v[along] + 1 == size_along && dir[turn] == 1 && length[turn] > length[1 - turn] && !done[1 - turn]) {
      turn = 1 - turn;
      continue;
    }
    std::uint32_t next[2] = {v[0], v[1]};
    const bool straight_ok = dir[turn] == 1 ? v[along] + 1 < size_along : v[along] > 0;
    bool moved = false;
    if (straight_ok) {
      next[along] = dir[turn] == 1 ? v[along] + 1 : v[along] - 1;
      moved = xy.path[node_at(next[0], next[1])] == 0;
    }
    if (!moved && v[across] + 1 < size_across) {
      next[along] = v[along];
      next[across] = v[across] + 1;
      moved = xy.path[node_at(next[0], next[1])] == 0;
      if (moved) dir[turn] = -dir[turn];
    }
    if (!moved) {
      done[turn] = true;
      turn = 1 - turn;
      continue;
    }
    ++length[turn];
    const std::uint32_t n = node_at(next[0], next[1]);
    xy.path[n] = static_cast<std::uint8_t>(turn + 1);
    xy.label[n] = static_cast<std::uint16_t>(length[turn]);
    xy.order[xy.taken++] = static_cast<std::uint16_t>(n);
    v[0] = next[0];
    v[1] = next[1];
  }
}

// Routing (Algorithm 3.3.2): per path, the destinations on it by label, each hop to the neighbour
// on the same path with the largest label in (L(u), L(next destination)]. The destinations are
// marked in the partition and met in label order by walking the partition's order, so the plan
// keeps no list of them: the job holds only the routes.
Status plan(NodeContext& node, Job& job, const MulticastRequest& r, bool x_first) {
  const Grid& g = node.grid();
  const std::uint32_t self = node.self();
  XyPartition& xy = node.xy_partition;
  partition(g, self, x_first, xy);
  for (std::uint32_t i = 0; i < r.count; ++i) {
    const std::uint8_t path = xy.path[r.destinations[i]];
    if (path != 1 && path != 2) return Status::kBadDestinations;  // the source, or listed twice
    xy.path[r.destinations[i]] = static_cast<std::uint8_t>(path | kXyDestination);
  }
  job.state.xy = {};
  XyPathJob& j = job.state.xy;
  for (std::uint8_t p = 1; p <= 2; ++p) {
    // The class (docs/firmware.md "VC classes"): the X path advances up from a bottom corner and
    // down from a top one, the Y path right from a left corner and left from a right one.
    const std::uint8_t vc_class = p == 1 ? (g.coord(self, 1) == 0 ? wire::kXyClassXPathUp : wire::kXyClassXPathDown)
                                         : (g.coord(self, 0) == 0 ? wire::kXyClassYPathRight : wire::kXyClassYPathLeft);
    XyWorm w{static_cast<std::uint32_t>(j.route.size()), 0, 0, vc_class};
    std::uint32_t u = self, label = 0;
    for (std::uint32_t k = 1; k < xy.taken; ++k) {
      const std::uint32_t destination = xy.order[k];
      if (xy.path[destination] != (p | kXyDestination)) continue;
      const std::uint32_t target = xy.label[destination];
      while (label < target) {
        std::uint32_t best = u, best_label = label;
        for (unsigned d = 0; d < 2; ++d) {
          const std::uint32_t c = g.coord(u, d);
          for (unsigned minus = 0; minus < 2; ++minus) {
            if (minus == 0 ? c + 1 >= g.size[d] : c == 0) continue;
            const std::uint32_t nb = g.with_coord(u, d, minus == 0 ? c + 1 : c - 1);
            const std::uint32_t l = xy.label[nb];
            if ((xy.path[nb] & 3u) != p || l <= label || l > target || l <= best_label) continue;
            best = nb;
            best_label = l;
            if (u == self) w.first_port = static_cast<std::uint8_t>(2 * d + minus);
          }
        }
        if (best == u || !j.route.push_back(best | (best_label == target ? kXyDeliver : 0u))) {
          return Status::kTooManyDestinations;
        }
        ++w.hops;
        u = best;
        label = best_label;
      }
    }
    if (w.hops > 0) j.worms[j.worm_count++] = w;
  }
  return Status::kOk;
}

// A route's header as the NI takes it (mode 4): flit i holds route entries 5i .. 5i + 4, entry e
// taken by route node e (the source first, never delivering) = {node e is a destination, the port
// toward node e + 1}; the unused entries after the last hop end the route at the last destination.
// Generated from the job's route, so no header table.
class XyRouteHeader final : public HeaderFlits {
 public:
  XyRouteHeader(const Grid& g, std::uint32_t self, const wire::HeadFields& head, const std::uint32_t* route,
                std::uint32_t hops)
      : g_(g), self_(self), head_(head), route_(route), hops_(hops) {
    head_.mode = wire::Mode::kSourceRouted;
    head_.more = static_cast<std::uint16_t>(count() - 1);
  }
  std::uint32_t count() const override { return (hops_ + wire::kRouteEntries - 1) / wire::kRouteEntries; }
  std::uint64_t flit(std::uint32_t i) const override {
    std::uint32_t group = wire::kRouteAllUnused;
    for (std::uint32_t e = 0; e < wire::kRouteEntries && i * wire::kRouteEntries + e < hops_; ++e) {
      const std::uint32_t hop = i * wire::kRouteEntries + e;
      const std::uint32_t u = hop == 0 ? self_ : route_[hop - 1] & ~kXyDeliver, v = route_[hop] & ~kXyDeliver;
      std::uint8_t port = 0;
      for (unsigned d = 0; d < 2; ++d) {
        if (g_.coord(v, d) == g_.coord(u, d) + 1) port = static_cast<std::uint8_t>(2 * d);
        if (g_.coord(v, d) + 1 == g_.coord(u, d)) port = static_cast<std::uint8_t>(2 * d + 1);
      }
      group = wire::with_route_entry(group, e, {hop > 0 && (route_[hop - 1] & kXyDeliver) != 0, port});
    }
    if (i > 0) return wire::pack_addr_flit(head_, group, i);
    wire::HeadFields head = head_;
    head.dest = group;
    return wire::pack_head(head);
  }

 private:
  const Grid& g_;
  std::uint32_t self_;
  wire::HeadFields head_;
  const std::uint32_t* route_;
  std::uint32_t hops_;
};

}  // namespace

Status check_xy_path(const Grid& g, std::uint32_t self, const MulticastRequest& r) {
  // From a corner of a 2D mesh (docs/algorithms.md "XY-path"), both worms at once.
  if (g.kind != GridKind::kMesh || g.dims != 2) return Status::kUnsupportedTopology;
  const std::uint32_t x = g.coord(self, 0), y = g.coord(self, 1);
  if ((x != 0 && x + 1u != g.size[0]) || (y != 0 && y + 1u != g.size[1])) return Status::kUnsupportedTopology;
  if (g.nodes() > kMaxGridNodes) return Status::kNetworkTooLarge;
  return !r.all_port || r.ports != 4 ? Status::kBadPortCount : Status::kOk;
}

Status start_xy_path(NodeContext& node, Job& job, const MulticastRequest& r) { return plan(node, job, r, false); }
Status start_xy_path_x_first(NodeContext& node, Job& job, const MulticastRequest& r) {
  return plan(node, job, r, true);
}

// A source-routed copy: the route's deliver bit or its end named this node.
Status receive_xy_copy(NodeContext& node, const Received& m, Job*) {
  if (m.info.address_entries != 0 || m.head.mode != wire::Mode::kSourceRouted) return Status::kBadMessage;
  node.deliver(m);
  return Status::kOk;
}

// Both worms in step 1 (all-port).
std::uint32_t iterate_xy_path(NodeContext&, Job& job) { return job.step == 1 ? job.state.xy.worm_count : 0; }

// Each worm's source route on the channel of its first hop.
bool issue_xy_worm(NodeContext& node, Job& job, std::uint32_t index) {
  const XyPathJob& j = job.state.xy;
  const XyWorm& w = j.worms[index];
  wire::HeadFields head = node.head();
  head.vc_class = w.vc_class;
  const XyRouteHeader header(node.grid(), node.self(), head, j.route.begin() + w.route_first, w.hops);
  if (header.count() - 1 > wire::kMaxMore) return false;
  return node.send(job, w.first_port, header, MessageInfo{}, ListedEntries(nullptr, 0));
}

}  // namespace wormcast::fw
