// SPDX-License-Identifier: Apache-2.0
// lin, dual-path, multi-path, uniform, fixed and 3-DBL ([5], [4], [2]; docs/algorithms.md);
// independent of model/ (docs/firmware.md, "HW/SW split").
#include "firmware/path_multicast.hpp"

#include "firmware/job.hpp"

namespace wormcast::fw {
namespace {

// Sorts the chain by label and rotates it to start after the source's label: the labels above
// the source's ascending, then those below ascending ([2]'s phi, Section 3.2). Returns how many are below.
std::uint32_t sort_from_source(const NodeContext& node, PathList& chain) {
  sort_by_label(node.grid(), chain);
  const std::uint32_t own = node.grid().label(node.self()), n = static_cast<std::uint32_t>(chain.size());
  std::uint32_t below = 0;
  while (below < n && node.grid().label(chain[below]) < own) ++below;
  reverse_range(chain, 0, below);  // rotate left by `below`: three reversals
  reverse_range(chain, below, n);
  reverse_range(chain, 0, n);
  return below;
}

// The job's two worms: chain[0 .. h) high, chain[h ..) low (possibly empty).
void set_high_low(PathJob& p, std::uint32_t h) {
  const std::uint32_t n = static_cast<std::uint32_t>(p.chain.size());
  p.worm_count = 0;
  if (h > 0) p.worms[p.worm_count++] = {0, h, true, kNoPrefixPort, 0, 0, false, false};
  if (n > h) p.worms[p.worm_count++] = {h, n - h, false, kNoPrefixPort, 0, 0, false, false};
}

// Dual-path over every node labelled lo .. hi but the source (in that range): the labels above
// its own ascending (high worm), those below descending (low worm), generated from the range.
void set_whole_range(const NodeContext& node, PathJob& p, std::uint32_t lo, std::uint32_t hi) {
  const std::uint32_t own = node.grid().label(node.self());
  p.worm_count = 0;
  if (own < hi) p.worms[p.worm_count++] = {own + 1, hi - own, true, kNoPrefixPort, 0, 0, true, false};
  if (own > lo) p.worms[p.worm_count++] = {own - 1, own - lo, false, kNoPrefixPort, 0, 0, true, false};
}

// Destination k (< w.count) of worm w.
std::uint32_t worm_destination(const Grid& g, const PathJob& p, const PathWorm& w, std::uint32_t k) {
  if (!w.labels_in_range) return p.chain[w.first + k];
  return g.node_at_label(w.high ? w.first + k : w.first - k);
}

// Lin-Ni dual-path lists ([4], Section 2; [5]): the destinations above the source's label ascending
// (high worm), then those below it descending (low worm).
void split_dual_path(const NodeContext& node, PathJob& p) {
  const std::uint32_t below = sort_from_source(node, p.chain), n = static_cast<std::uint32_t>(p.chain.size());
  reverse_range(p.chain, n - below, n);
  set_high_low(p, n - below);
}

// Multi-path (our reading of [5], docs/algorithms.md "Multi-path"): each dual-path list split into a row
// part (destinations strictly on the row channel's side of the source: the row channel is +X in
// an even row's high network and -X in its low one, the other way round in an odd row) and a
// column part (the rest, the source's column included), each keeping its label order. Worms in
// sending order: high row, high column, low row, low column.
void split_multi_path(const NodeContext& node, PathJob& p) {
  const Grid& g = node.grid();
  const std::uint32_t x0 = g.coord(node.self(), 0), y0 = g.coord(node.self(), 1);
  PathList parts;
  PathWorm worms[4]{};
  std::uint8_t count = 0;
  for (std::uint8_t w = 0; w < p.worm_count; ++w) {
    const PathWorm list = p.worms[w];
    const bool plus_x = list.high == (y0 % 2 == 0);
    const std::uint8_t row_port = plus_x ? 0 : 1;
    for (int kind = 0; kind < 2; ++kind) {  // row part, then column part
      const bool row = kind == 0;
      PathWorm part{
          static_cast<std::uint32_t>(parts.size()), 0, list.high, row ? row_port : kNoPrefixPort, 0, 0, false, false};
      for (std::uint32_t i = list.first; i < list.first + list.count; ++i) {
        const std::uint32_t x = g.coord(p.chain[i], 0);
        const bool beside = plus_x ? x > x0 : x < x0;
        if (beside != row) continue;
        parts.push_back(p.chain[i]);
        ++part.count;
      }
      if (part.count > 0) worms[count++] = part;
    }
  }
  p.chain = parts;
  p.worm_count = count;
  for (std::uint8_t w = 0; w < count; ++w) p.worms[w] = worms[w];
}

// [2]'s message preparation (Section 3.2): phi = the destinations by label, rotated to start
// after the source's; uniform: D^h = the first ceil(n/2) of phi; fixed (c = ceil(N/2)): D^h = phi's
// labels in (s, s+c) when s < c, else all but D^l = phi's labels in (s-c, s); D^l = the rest of phi
// reversed. Both are a prefix of phi and the reversed suffix.
// Marks the job's worms as routed on the cycle.
void split_cycle_dual_path(const NodeContext& node, PathJob& p, bool uniform) {
  p.on_cycle = true;
  sort_from_source(node, p.chain);  // chain = phi
  const Grid& g = node.grid();
  const std::uint32_t n = static_cast<std::uint32_t>(p.chain.size()), own = g.label(node.self());
  const std::uint32_t c = (g.nodes() + 1) / 2;
  std::uint32_t h = 0;
  if (uniform) {
    h = (n + 1) / 2;
  } else if (own < c) {
    while (h < n && g.label(p.chain[h]) > own && g.label(p.chain[h]) < own + c) ++h;
  } else {
    std::uint32_t low = 0;
    while (low < n && g.label(p.chain[n - 1 - low]) < own && g.label(p.chain[n - 1 - low]) + c > own) ++low;
    h = n - low;
  }
  reverse_range(p.chain, h, n);
  set_high_low(p, h);
}

// The network port of the Hamiltonian-path routing function's first hop toward `destination`
// ([5], Section 3.3.2): the neighbour with the largest label in (own, label(destination)] (high network) or
// the smallest in [label(destination), own) (low). Torus wraps are unused.
std::uint8_t first_hop_port(const NodeContext& node, std::uint32_t destination, bool high) {
  const Grid& g = node.grid();
  const std::uint32_t self = node.self(), own = g.label(self), target = g.label(destination);
  std::uint8_t best_port = 0;
  bool found = false;
  std::uint32_t best = 0;
  for (unsigned d = 0; d < g.dims; ++d) {
    const std::uint32_t c = g.coord(self, d);
    for (unsigned minus = 0; minus < 2; ++minus) {
      if (minus == 0 ? c + 1 >= g.size[d] : c == 0) continue;
      const std::uint32_t l = g.label(g.with_coord(self, d, minus == 0 ? c + 1 : c - 1));
      const bool on_path = high ? (own < l && l <= target) : (target <= l && l < own);
      if (!on_path || (found && (high ? l <= best : l >= best))) continue;
      found = true;
      best = l;
      best_port = static_cast<std::uint8_t>(2 * d + minus);
    }
  }
  return best_port;  // a label neighbour always qualifies, so `found` holds for any destination
}

// The first hop of the Hamiltonian-cycle routing function from the source ([2], Section 3.1, classes ph /
// pl): the high network holds the common channels toward larger labels and the boundary channels
// toward smaller ones; high: the neighbour in it with the largest label <= label(v), else the
// largest (case 3); low mirrored; ties to the lowest port. Torus wraps count; on a star graph every
// generator's port. The boundary links: on a torus the y-wraps (seed 001; on a 2-row torus a y-wrap
// runs parallel to a y-mesh link joining the same two nodes, and only the wrap is boundary), on a
// star graph the links whose label difference exceeds ceil(N/2) ([2], Section 2.2.2).
std::uint8_t cycle_first_hop_port(const NodeContext& node, std::uint32_t destination, bool high) {
  const Grid& g = node.grid();
  const std::uint32_t self = node.self(), own = g.label(self), target = g.label(destination);
  const std::uint32_t c = (g.nodes() + 1) / 2;
  // best[0]: among those on the destination's side of the target, best[1]: among all.
  bool found[2] = {false, false};
  std::uint32_t best[2] = {0, 0};
  std::uint8_t port[2] = {0, 0};
  for (unsigned p = 0; p < g.ports(); ++p) {
    const std::uint32_t l = g.label(g.neighbour(self, p));
    const bool boundary =
        g.kind == GridKind::kTorus ? p / 2 == 1 && g.is_wrap(self, p) : (l > own ? l - own : own - l) > c;
    if ((boundary ? l < own : l > own) != high) continue;  // not in this network
    for (unsigned k = 0; k < 2; ++k) {
      if (k == 0 && (high ? l > target : l < target)) continue;
      if (found[k] && (high ? l <= best[k] : l >= best[k])) continue;
      found[k] = true;
      best[k] = l;
      port[k] = static_cast<std::uint8_t>(p);
    }
  }
  return found[0] ? port[0] : port[1];
}

// 3-DBL ([4], Section 3.1; reading R1, docs/algorithms.md "3-DBL"): the layer source of layer z is
// (x0, y0, z). Worms in sending order: the +Z column worm through the layer sources above that are
// needed (a layer with a destination, the layer source included), ascending (high network), the -Z
// column worm likewise below, descending (low), then dual-path in the own layer. A column worm
// carries its layers' destinations in the payload; layer sources that are not destinations only
// relay. A broadcast keeps no list: its layer worms take label ranges and its column worms' address
// fields are the node ranges of their layers (node ids are x + X (y + Y z): a layer's are
// consecutive).
Status plan_three_dbl(const NodeContext& node, PathJob& p, const std::uint32_t* destinations, std::uint32_t count) {
  const Grid& g = node.grid();
  const std::uint32_t self = node.self(), z0 = g.coord(self, 2), layer = g.size[0] * g.size[1];
  const bool whole = count + 1 == g.nodes();
  p.chain.clear();
  if (whole) {
    set_whole_range(node, p, z0 * layer, (z0 + 1) * layer - 1);
  } else {
    for (std::uint32_t i = 0; i < count; ++i) {
      if (g.coord(destinations[i], 2) == z0) p.chain.push_back(destinations[i]);
    }
    split_dual_path(node, p);
  }
  PathWorm layer_worm[2]{};
  const std::uint8_t layer_worms = p.worm_count;
  for (std::uint8_t i = 0; i < layer_worms; ++i) layer_worm[i] = p.worms[i];
  const auto needed = [&](std::uint32_t z) {
    for (std::uint32_t i = 0; i < count && !whole; ++i) {
      if (g.coord(destinations[i], 2) == z) return true;
    }
    return whole;
  };
  p.worm_count = 0;
  for (int up = 1; up >= 0; --up) {
    PathWorm column{static_cast<std::uint32_t>(p.chain.size()), 0, up == 1, kNoPrefixPort, 0, 0, false, whole};
    for (std::uint32_t i = 1; up == 1 ? z0 + i < g.size[2] : i <= z0; ++i) {
      const std::uint32_t z = up == 1 ? z0 + i : z0 - i;
      if (!needed(z)) continue;
      if (!p.chain.push_back(g.with_coord(self, 2, z))) return Status::kTooManyDestinations;
      ++column.count;
    }
    if (whole) {
      column.payload_first = up == 1 ? (z0 + 1) * layer : 0;
      column.payload_count = up == 1 ? g.nodes() - (z0 + 1) * layer : z0 * layer;
    } else {
      column.payload_first = static_cast<std::uint32_t>(p.chain.size());
      for (std::uint32_t i = 0; i < count; ++i) {
        const std::uint32_t z = g.coord(destinations[i], 2);
        if (up == 1 ? z <= z0 : z >= z0) continue;
        if (!p.chain.push_back(destinations[i])) return Status::kTooManyDestinations;
        ++column.payload_count;
      }
    }
    if (column.count > 0) p.worms[p.worm_count++] = column;
  }
  for (std::uint8_t i = 0; i < layer_worms; ++i) p.worms[p.worm_count++] = layer_worm[i];
  return Status::kOk;
}

// A fresh path state holding the request's destinations.
PathJob& start_path(Job& job, const MulticastRequest& r) {
  job.state.path = {};
  PathJob& p = job.state.path;
  for (std::uint32_t i = 0; i < r.count; ++i) p.chain.push_back(r.destinations[i]);
  return p;
}

// The router delivered this copy because the head names this node; the worm goes on by itself.
// (Only a 3-DBL column worm carries an address field.)
Status receive_copy(NodeContext& node, const Received& m, wire::Mode mode) {
  if (m.head.mode != mode || m.head.dest != node.grid().label(node.self())) return Status::kBadMessage;
  if (m.info.address_entries != 0) return Status::kBadMessage;
  node.deliver(m);
  return Status::kOk;
}

}  // namespace

Status check_lin(const Grid& g, std::uint32_t, const MulticastRequest& r) {
  // All-port: a worm leaves on its first hop's channel, one per network direction.
  return r.all_port && r.ports != 2u * g.dims ? Status::kBadPortCount : Status::kOk;
}

Status check_multi_path(const Grid& g, std::uint32_t, const MulticastRequest& r) {
  // Row worms are injected straight into the row channel: one injection channel per direction.
  if (g.dims != 2) return Status::kUnsupportedTopology;
  return !r.all_port || r.ports != 4 ? Status::kBadPortCount : Status::kOk;
}

Status check_cycle(const Grid& g, std::uint32_t, const MulticastRequest& r) {
  // The snake is a Hamiltonian cycle of a 2D torus with an even row count ([2], Section 4.1); a star
  // graph's cycle comes with the configuration.
  if (g.kind != GridKind::kStar && (g.kind != GridKind::kTorus || g.dims != 2 || g.size[1] % 2 != 0)) {
    return Status::kUnsupportedTopology;
  }
  return r.all_port && r.ports != g.ports() ? Status::kBadPortCount : Status::kOk;
}

Status check_hp_dual_path(const Grid& g, std::uint32_t, const MulticastRequest& r) {
  // The star graph's Hamiltonian path is its configured cycle opened at the closing edge; on
  // meshes and tori the same lists are dual-path's.
  if (g.kind != GridKind::kStar) return Status::kUnsupportedTopology;
  return r.all_port && r.ports != g.ports() ? Status::kBadPortCount : Status::kOk;
}

Status check_three_dbl(const Grid& g, std::uint32_t, const MulticastRequest& r) {
  if (g.dims != 3) return Status::kUnsupportedTopology;
  return r.all_port && r.ports != 6 ? Status::kBadPortCount : Status::kOk;
}

Status start_dual_path(NodeContext& node, Job& job, const MulticastRequest& r) {
  if (r.count + 1 == node.grid().nodes()) {  // a broadcast: two label ranges, no list
    job.state.path = {};
    set_whole_range(node, job.state.path, 0, node.grid().nodes() - 1);
    return Status::kOk;
  }
  split_dual_path(node, start_path(job, r));
  return Status::kOk;
}

Status start_multi_path(NodeContext& node, Job& job, const MulticastRequest& r) {
  PathJob& p = start_path(job, r);
  split_dual_path(node, p);
  split_multi_path(node, p);
  return Status::kOk;
}

Status start_uniform(NodeContext& node, Job& job, const MulticastRequest& r) {
  split_cycle_dual_path(node, start_path(job, r), true);
  return Status::kOk;
}

Status start_fixed(NodeContext& node, Job& job, const MulticastRequest& r) {
  split_cycle_dual_path(node, start_path(job, r), false);
  return Status::kOk;
}

// Dual-path's lists (labels above the source ascending, below descending) routed by the cycle
// routing from ph / pl: each leg moves toward the next label along the path, so the worms keep to
// the common channels and never change class (docs/algorithms.md "HP dual-path").
Status start_hp_dual_path(NodeContext& node, Job& job, const MulticastRequest& r) {
  PathJob& p = start_path(job, r);
  p.on_cycle = true;
  split_dual_path(node, p);
  return Status::kOk;
}

Status start_three_dbl(NodeContext& node, Job& job, const MulticastRequest& r) {
  return plan_three_dbl(node, start_path(job, r), r.destinations, r.count);
}

Status receive_path_copy(NodeContext& node, const Received& m, Job*) {
  return receive_copy(node, m, wire::Mode::kHamiltonianPath);
}

Status receive_cycle_copy(NodeContext& node, const Received& m, Job*) {
  return receive_copy(node, m, wire::Mode::kHamiltonianCycle);
}

// A column worm's copy at a layer source: the address field holds the destinations of the
// column's layers, read where the NI holds it. Deliver if this node is one of them, then run
// dual-path in its layer: over a label range when they name every other node of the layer (a
// broadcast's column worm; the source lists each node once), else over the list of them.
Status receive_three_dbl(NodeContext& node, const Received& m, Job* slot) {
  if (m.head.mode != wire::Mode::kHamiltonianPath || m.head.dest != node.grid().label(node.self())) {
    return Status::kBadMessage;
  }
  if (m.info.address_entries == 0) {
    node.deliver(m);
    return Status::kOk;
  }
  const Grid& g = node.grid();
  const std::uint32_t self = node.self(), z = g.coord(self, 2), layer = g.size[0] * g.size[1];
  bool destination = false;
  std::uint32_t others = 0;  // the other destinations in this layer
  for (std::uint32_t i = 0; i < m.info.address_entries; ++i) {
    const std::uint32_t entry = address_entry(m.payload, i);
    if (entry >= g.nodes()) return Status::kBadMessage;
    destination |= entry == self;
    others += entry != self && g.coord(entry, 2) == z ? 1u : 0u;
  }
  const bool whole_layer = others + 1 == layer;
  if (!whole_layer && others > PathList::capacity()) return Status::kBadMessage;
  if (others > 0 && slot == nullptr) return Status::kNoFreeJob;
  if (destination) node.deliver(m);
  if (others == 0) return Status::kOk;
  slot->state.path = {};
  PathJob& p = slot->state.path;
  begin_relay(node, *slot, m);
  p.first_step = slot->step;
  if (whole_layer) {
    set_whole_range(node, p, z * layer, (z + 1) * layer - 1);
  } else {
    for (std::uint32_t i = 0; i < m.info.address_entries; ++i) {
      const std::uint32_t entry = address_entry(m.payload, i);
      if (entry != self && g.coord(entry, 2) == z) p.chain.push_back(entry);
    }
    split_dual_path(node, p);
  }
  slot->active = true;
  return Status::kOk;
}

// Path-based worms in sending order, high then low (docs/algorithms.md, "Port models"): all-port
// sends both in step 1 on their first hop's channel; even d binds channels 0..d/2-1 to the low
// network and d/2..d-1 to the high one (one worm each, step 1); odd d takes channels in turn, the
// k-th worm in step 1 + k / d.
//
// A multi-path row worm leaves on its row channel; when the routing function's first hop is
// another port, a source-routed prefix head takes the worm there (issue_path_worm).
std::uint32_t iterate_path(NodeContext& node, Job& job) {
  PathJob& p = job.state.path;
  p.pending.clear();
  const std::uint32_t d = job.ports, h = d / 2;
  const bool bound = !job.all_port && d % 2 == 0;
  std::uint32_t in_network[2] = {0, 0};  // worms so far in the low / high network
  for (std::uint32_t k = 0; k < p.worm_count; ++k) {
    const PathWorm& w = p.worms[k];
    const std::uint32_t kn = in_network[w.high ? 1 : 0]++;
    const std::uint32_t step = p.first_step + (job.all_port ? 0 : bound ? kn / h : k / d);
    if (step != job.step) continue;
    const std::uint32_t first = worm_destination(node.grid(), p, w, 0);
    const std::uint8_t routed =
        p.on_cycle ? cycle_first_hop_port(node, first, w.high) : first_hop_port(node, first, w.high);
    const std::uint8_t channel = w.row_port != kNoPrefixPort ? w.row_port
                                 : job.all_port              ? routed
                                 : bound                     ? static_cast<std::uint8_t>((w.high ? h : 0) + kn % h)
                                                             : static_cast<std::uint8_t>(k % d);
    const bool prefix = w.row_port != kNoPrefixPort && w.row_port != routed;
    p.pending.push_back({channel, static_cast<std::uint8_t>(k), prefix ? w.row_port : kNoPrefixPort});
  }
  return static_cast<std::uint32_t>(p.pending.size());
}

namespace {

// A path worm's header as the NI takes it: the packed lead flits (a prefix head, then the real
// head), then address flit k = 1 .. count - 1 naming destination k of the worm (the head's layout,
// `more` counting down), generated from the worm's list or label range: no header table.
class PathHeader final : public HeaderFlits {
 public:
  PathHeader(const NodeContext& node, std::uint32_t lead, const wire::HeadFields& head, const PathJob& p,
             const PathWorm& w)
      : node_(node), lead_(lead), head_(head), p_(p), w_(w) {}
  std::uint32_t count() const override { return lead_ + w_.count - 1; }
  std::uint64_t flit(std::uint32_t i) const override {
    if (i < lead_) return node_.header[i];
    const std::uint32_t k = i - lead_ + 1;
    const std::uint32_t label = !w_.labels_in_range ? node_.grid().label(p_.chain[w_.first + k])
                                : w_.high           ? w_.first + k
                                                    : w_.first - k;
    return wire::pack_addr_flit(head_, label, k);
  }

 private:
  const NodeContext& node_;
  std::uint32_t lead_;
  wire::HeadFields head_;
  const PathJob& p_;
  const PathWorm& w_;
};

// A broadcast's column worm's address field: the node ids of its layers, in order.
class NodeRange final : public AddressEntries {
 public:
  NodeRange(std::uint32_t first, std::uint32_t count) : first_(first), count_(count) {}
  std::uint32_t count() const override { return count_; }
  std::uint32_t entry(std::uint32_t i) const override { return first_ + i; }

 private:
  std::uint32_t first_, count_;
};

}  // namespace

// A multidestination worm: the head names the first destination, the address flits the rest. A
// prefix head, source-routed over the one hop the routing function would not take, goes in front;
// the sender's router drops it. On the cycle the class is the VC type at injection, ph (0) high, pl
// (2) low; the router keeps it until the boundary crossing turns it to q (seed 001).
bool issue_path_worm(NodeContext& node, Job& job, std::uint32_t index) {
  const PathJob& p = job.state.path;
  const PathSend& send = p.pending[index];
  const PathWorm& w = p.worms[send.worm];
  const Grid& g = node.grid();
  const std::uint32_t receiver = worm_destination(g, p, w, 0);
  wire::HeadFields head = node.head();
  head.dest = g.label(receiver);
  if (p.on_cycle) {
    head.mode = wire::Mode::kHamiltonianCycle;
    head.network = w.high ? wire::kNetworkHigh : wire::kNetworkLow;
    head.vc_class = w.high ? 0 : 2;
  } else {
    head.mode = wire::Mode::kHamiltonianPath;
    head.network = g.label(receiver) > g.label(node.self()) ? wire::kNetworkHigh : wire::kNetworkLow;
    head.vc_class = wire::ham_path_class(head.network);
  }
  if (w.count > wire::kMaxMore) return false;
  head.more = static_cast<std::uint16_t>(w.count - 1);
  std::uint32_t lead = 0;
  if (send.prefix_port != kNoPrefixPort) {
    wire::HeadFields prefix = head;
    prefix.mode = wire::Mode::kSourceRouted;
    prefix.network = 0;
    // The prefix hop is a hop of the row worm: in its network's class (head.vc_class), which the
    // worm then keeps (docs/firmware.md "VC classes").
    prefix.vc_class = head.vc_class;
    prefix.more = static_cast<std::uint16_t>(head.more + 1);
    prefix.dest = wire::with_route_entry(wire::kRouteAllUnused, 0, {false, send.prefix_port});
    if (!node.put_head(lead++, prefix)) return false;
  }
  if (!node.put_head(lead++, head)) return false;
  const PathHeader header(node, lead, head, p, w);
  if (w.payload_in_range)
    return node.send(job, send.channel, header, MessageInfo{}, NodeRange(w.payload_first, w.payload_count));
  return node.send(job, send.channel, header, MessageInfo{},
                   ListedEntries(p.chain.begin() + w.payload_first, w.payload_count));
}

}  // namespace wormcast::fw
