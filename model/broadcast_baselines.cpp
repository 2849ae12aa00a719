// SPDX-License-Identifier: Apache-2.0
#include "model/broadcast_baselines.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string_view>
#include <tuple>
#include <utility>

#include "model/errors.hpp"
#include "model/routing.hpp"

namespace wormcast::model {
namespace {

int ceil_log2(int n) {
  int k = 0;
  while ((1 << k) < n) ++k;
  return k;
}

// One unicast before it is routed: the receiver becomes responsible for `region`.
struct Send {
  int step = 1;
  NodeId sender = kNoNode;
  NodeId receiver = kNoNode;
  std::vector<NodeId> region;
};

// A routed unicast: XY (the routers' dimension-order function) or YX (source-routed, VC class 1).
struct Route {
  std::vector<NodeId> nodes;
  std::vector<RouteHop> hops;
  bool dimension_order = true;
};

inline constexpr VcClass kYxClass = 1;

void require_broadcast(const Request& request) {
  const Topology& t = request.topology;
  const auto expected = static_cast<std::size_t>(t.node_count() - 1);
  if (request.destinations.size() != expected) {
    throw RequestError(
        fmt::format("{} is a broadcast: the destinations must be all {} nodes of {} other than the source {}; "
                    "got {} destinations",
                    request.algorithm, expected, t.spec(), t.node_name(request.source), request.destinations.size()));
  }
}

Worm make_worm(const Send& send, Route route, int port) {
  Worm worm;
  worm.sender = send.sender;
  worm.step = send.step;
  worm.kind = WormKind::kUnicast;
  worm.header.mode = route.dimension_order ? RoutingMode::kDimensionOrder : RoutingMode::kSourceRouted;
  worm.header.vc = route.dimension_order ? 0 : kYxClass;
  worm.header.destinations = {send.receiver};
  worm.port = port;
  worm.route = std::move(route.nodes);
  worm.hops = std::move(route.hops);
  worm.keeps_copy = {send.receiver};
  worm.address_field = send.region;
  return worm;
}

Plan finish(const Request& request, std::vector<Worm> worms) {
  std::stable_sort(worms.begin(), worms.end(), [](const Worm& a, const Worm& b) {
    return std::tie(a.step, a.sender) < std::tie(b.step, b.sender);
  });
  Plan plan{request, std::move(worms), {}};
  plan.metrics = compute_metrics(request, plan.worms);
  return plan;
}

// ---------------------------------------------------------------------------------------------
// Recursive Doubling

// The nodes a receiver of dimension d becomes responsible for: its segment [lo, hi) of dimension
// d, the whole range of every later dimension, its own coordinate in the earlier ones.
std::vector<NodeId> segment_region(const Topology& t, const Coord& at, int d, int lo, int hi) {
  std::array<int, kMaxDimensions> first{0, 0, 0};
  std::array<int, kMaxDimensions> last{1, 1, 1};  // exclusive
  for (int e = 0; e < t.dimensions(); ++e) {
    const auto i = static_cast<std::size_t>(e);
    first[i] = e < d ? at[i] : (e == d ? lo : 0);
    last[i] = e < d ? at[i] + 1 : (e == d ? hi : t.size(e));
  }
  std::vector<NodeId> region;
  for (int z = first[2]; z < last[2]; ++z) {
    for (int y = first[1]; y < last[1]; ++y) {
      for (int x = first[0]; x < last[0]; ++x) region.push_back(t.node_at(Coord{x, y, z}));
    }
  }
  std::sort(region.begin(), region.end());
  return region;
}

// Recursive halving of the segment [0, size_d) of dimension d through `holder`, from `first_step`.
// The lower half takes the extra node of an odd segment; the holder sends to the node at its
// relative position in the other half (the last node of a shorter half if that position is
// beyond it). Appends the sends and the nodes reached.
void halve_segment(const Topology& t, int d, NodeId holder, int first_step, std::vector<Send>& sends,
                   std::vector<NodeId>& reached) {
  struct Piece {
    NodeId holder;
    int lo;
    int hi;
    int step;
  };
  const auto dim = static_cast<std::size_t>(d);
  std::vector<Piece> work = {Piece{holder, 0, t.size(d), first_step}};
  while (!work.empty()) {
    Piece piece = work.back();
    work.pop_back();
    while (piece.hi - piece.lo > 1) {
      const int mid = piece.lo + (piece.hi - piece.lo + 1) / 2;
      const Coord here = t.coord(piece.holder);
      const bool in_lower = here[dim] < mid;
      const int own_lo = in_lower ? piece.lo : mid;
      const int other_lo = in_lower ? mid : piece.lo;
      const int other_hi = in_lower ? piece.hi : mid;
      Coord there = here;
      there[dim] = other_lo + std::min(here[dim] - own_lo, other_hi - other_lo - 1);
      const NodeId target = t.node_at(there);
      sends.push_back(Send{piece.step, piece.holder, target, segment_region(t, there, d, other_lo, other_hi)});
      work.push_back(Piece{target, other_lo, other_hi, piece.step + 1});
      reached.push_back(target);
      if (in_lower) {
        piece.hi = mid;
      } else {
        piece.lo = mid;
      }
      ++piece.step;
    }
  }
}

std::vector<Send> recursive_doubling_sends(const Topology& t, NodeId source) {
  std::vector<Send> sends;
  std::vector<NodeId> holders = {source};
  int steps_so_far = 0;
  for (int d = 0; d < t.dimensions(); ++d) {
    std::vector<NodeId> reached;
    for (NodeId holder : holders) halve_segment(t, d, holder, steps_so_far + 1, sends, reached);
    holders.insert(holders.end(), reached.begin(), reached.end());
    steps_so_far += ceil_log2(t.size(d));
  }
  return sends;
}

Plan plan_recursive_doubling(const Request& request) {
  const Topology& t = request.topology;
  if (!t.is_mesh()) {
    throw UnsupportedError(fmt::format("{} runs on 2D and 3D meshes (mesh:8x8, mesh:6x5, mesh:4x4x4); {} is not a mesh",
                                       request.algorithm, t.spec()));
  }
  require_broadcast(request);
  const DimensionOrderRouting routing(t);
  std::vector<Worm> worms;
  for (const Send& send : recursive_doubling_sends(t, request.source)) {
    Route route;
    route.hops = trace_route(routing, send.sender, 0, send.receiver);
    route.nodes = route_nodes(routing, route.hops, send.sender);
    worms.push_back(make_worm(send, std::move(route), 0));
  }
  return finish(request, std::move(worms));
}

// ---------------------------------------------------------------------------------------------
// Extended Dominating Node

// Maps a block's canonical coordinates (u, v) to mesh coordinates: (a u + b v + tx, c u + d v + ty).
// Blocks are rotated copies of one canonical block, so one set of canonical positions serves all.
struct Frame {
  int a = 1, b = 0, c = 0, d = 1, tx = 0, ty = 0;

  std::pair<int, int> apply(int u, int v) const { return {a * u + b * v + tx, c * u + d * v + ty}; }
  // this after inner: (this o inner)(p) = this(inner(p)).
  Frame after(const Frame& inner) const {
    return Frame{a * inner.a + b * inner.c, a * inner.b + b * inner.d,        c * inner.a + d * inner.c,
                 c * inner.b + d * inner.d, a * inner.tx + b * inner.ty + tx, c * inner.tx + d * inner.ty + ty};
  }
  // A quarter turn of the n x n block onto itself, `times` times: (u, v) -> (n-1-v, u) maps the
  // lower-left quadrant to the lower-right one, then the upper-right, then the upper-left.
  static Frame quarter_turns(int n, int times) {
    Frame f;
    for (int i = 0; i < times; ++i) f = Frame{0, -1, 1, 0, n - 1, 0}.after(f);
    return f;
  }
};

// Canonical positions: the EDN of every block sits at (2, 0) of its canonical frame. A 4x4 block
// is tiled by four T-tetrominoes (the pinwheel tiling, invariant under the quarter turn); T_0 has
// its centre at (2, 0) and its leaves at (1, 0), (3, 0), (2, 1), and T_i is T_0 turned i times.
inline constexpr std::pair<int, int> kEdnPosition = {2, 0};
inline constexpr std::array<std::pair<int, int>, 3> kTeeLeaves = {{{1, 0}, {3, 0}, {2, 1}}};
inline constexpr int kTeeBlock = 4;

class EdnBuilder {
 public:
  EdnBuilder(const Topology& topology, NodeId source) : t_(topology), source_(source), size_(topology.size(0)) {}

  // The four highest-level EDNs (sub-region i of the whole mesh) and the regions they cover.
  NodeId top_node(int i) const { return edn_of(Frame::quarter_turns(size_, i)); }
  std::vector<NodeId> top_region(int i) const { return sub_region(Frame{}, size_, i); }

  // Every level below the top, from `step`: the top-level EDNs already hold the message.
  void cover_from_top(int step) {
    for (int i = 0; i < 4; ++i) cover_sub_region(Frame{}, size_, i, step);
  }

  std::vector<Send> take_sends() { return std::move(sends_); }

 private:
  NodeId node(const Frame& f, std::pair<int, int> uv) const {
    const auto [x, y] = f.apply(uv.first, uv.second);
    return t_.node_at(Coord{x, y, 0});
  }
  NodeId edn_of(const Frame& f) const { return node(f, kEdnPosition); }

  // Sub-region i of the n x n block in frame f: its quadrant i (n > 4) or its T-tetromino i.
  std::vector<NodeId> sub_region(const Frame& f, int n, int i) const {
    const Frame turned = f.after(Frame::quarter_turns(n, i));
    std::vector<NodeId> region;
    const auto keep = [&](NodeId v) {
      if (v != source_) region.push_back(v);
    };
    if (n == kTeeBlock) {
      keep(node(turned, kEdnPosition));
      for (const auto& leaf : kTeeLeaves) keep(node(turned, leaf));
    } else {
      for (int v = 0; v < n / 2; ++v) {
        for (int u = 0; u < n / 2; ++u) keep(node(turned, {u, v}));
      }
    }
    std::sort(region.begin(), region.end());
    return region;
  }

  void add(int step, NodeId sender, NodeId receiver, std::vector<NodeId> region) {
    if (receiver == source_) return;  // the source holds the message from the start
    sends_.push_back(Send{step, sender, receiver, std::move(region)});
  }

  // Sub-region i of the n x n block in frame f, whose EDN holds the message before `step`.
  void cover_sub_region(const Frame& f, int n, int i, int step) {
    const Frame turned = f.after(Frame::quarter_turns(n, i));
    if (n == kTeeBlock) {
      const NodeId centre = edn_of(turned);
      for (const auto& leaf : kTeeLeaves) add(step, centre, node(turned, leaf), {node(turned, leaf)});
    } else {
      cover_block(turned, n / 2, step);
    }
  }

  // The EDN of the n x n block in frame f sends to the EDNs of the three other sub-regions, which
  // then cover theirs, one level per step.
  void cover_block(const Frame& f, int n, int step) {
    const NodeId edn = edn_of(f);
    for (int i = 1; i < 4; ++i) add(step, edn, edn_of(f.after(Frame::quarter_turns(n, i))), sub_region(f, n, i));
    for (int i = 0; i < 4; ++i) cover_sub_region(f, n, i, step + 1);
  }

  const Topology& t_;
  NodeId source_;
  int size_;
  std::vector<Send> sends_;
};

void require_edn_mesh(const Topology& t, std::string_view algorithm) {
  const int n = t.is_mesh() && t.dimensions() == 2 ? t.size(0) : 0;
  if (n < kTeeBlock || t.size(1) != n || (n & (n - 1)) != 0) {
    throw UnsupportedError(fmt::format(
        "{} runs on square 2D meshes whose side is a power of two, at least 4 (mesh:4x4, mesh:8x8, mesh:16x16, ...); "
        "{} is not one",
        algorithm, t.spec()));
  }
}

Route xy_route(const DimensionOrderRouting& routing, NodeId from, NodeId to) {
  Route route;
  route.hops = trace_route(routing, from, 0, to);
  route.nodes = route_nodes(routing, route.hops, from);
  return route;
}

// Y first, then X, built hop by hop; every hop is checked to be a link of the mesh.
Route yx_route(const Topology& t, NodeId from, NodeId to) {
  Route route;
  route.dimension_order = false;
  route.nodes = {from};
  Coord here = t.coord(from);
  const Coord there = t.coord(to);
  for (const std::size_t d : {std::size_t{1}, std::size_t{0}}) {
    while (here[d] != there[d]) {
      here[d] += here[d] < there[d] ? 1 : -1;
      const NodeId next = t.node_at(here);
      const Port port = t.port_towards(route.nodes.back(), next);
      if (port == kNoPort) throw std::logic_error("a YX route left the mesh");
      route.hops.push_back(RouteHop{route.nodes.back(), port, kYxClass});
      route.nodes.push_back(next);
    }
  }
  return route;
}

// Routes for unicasts sent in the same step such that no two share a directed channel: XY where
// possible, YX for some (tried in a fixed order, XY first). nullopt if no choice works.
std::optional<std::vector<Route>> disjoint_routes(const Topology& t, const DimensionOrderRouting& routing,
                                                  const std::vector<std::pair<NodeId, NodeId>>& pairs) {
  const std::size_t m = pairs.size();
  for (unsigned mask = 0; mask < (1u << m); ++mask) {
    std::vector<Route> routes;
    std::set<std::pair<NodeId, Port>> used;
    bool ok = true;
    for (std::size_t i = 0; i < m && ok; ++i) {
      const auto [from, to] = pairs[i];
      routes.push_back((mask >> i) & 1u ? yx_route(t, from, to) : xy_route(routing, from, to));
      for (const RouteHop& hop : routes.back().hops) ok = ok && used.insert({hop.node, hop.port}).second;
    }
    if (ok) return routes;
  }
  return std::nullopt;
}

// The first two steps: the source reaches the highest-level EDNs it is not. Tries every
// assignment of each EDN to (step 1 from the source) or (step 2 from the source or from an EDN
// reached in step 1), in a fixed order, and keeps the first whose steps are both used and
// contention-free. If none is (not seen on any tested mesh), it keeps the first assignment that
// uses both steps, with XY routes, and the plan counts the contention.
std::vector<Send> edn_first_two_steps(const EdnBuilder& builder, const Topology& t,
                                      const DimensionOrderRouting& routing, NodeId source) {
  std::vector<int> targets;  // sub-region indices of the top-level EDNs other than the source
  for (int i = 0; i < 4; ++i) {
    if (builder.top_node(i) != source) targets.push_back(i);
  }
  const int m = static_cast<int>(targets.size());
  const int options = 2 + m;  // 0: step 1 from the source; 1: step 2 from the source; 2 + j: step 2 from target j
  std::vector<int> choice(static_cast<std::size_t>(m), 0);
  std::optional<std::vector<int>> fallback;
  const auto sender_of = [&](int option) {
    return option <= 1 ? source : builder.top_node(targets[static_cast<std::size_t>(option - 2)]);
  };
  const auto pairs_of_step = [&](int step) {
    std::vector<std::pair<NodeId, NodeId>> pairs;
    for (int j = 0; j < m; ++j) {
      const int option = choice[static_cast<std::size_t>(j)];
      if ((option == 0 ? 1 : 2) == step) pairs.push_back({sender_of(option), builder.top_node(targets[j])});
    }
    return pairs;
  };
  const auto make_sends = [&](const std::vector<int>& assignment) {
    std::vector<Send> sends;
    for (int j = 0; j < m; ++j) {
      const int option = assignment[static_cast<std::size_t>(j)];
      sends.push_back(
          Send{option == 0 ? 1 : 2, sender_of(option), builder.top_node(targets[j]), builder.top_region(targets[j])});
    }
    return sends;
  };
  for (;;) {
    bool well_formed = true;
    for (int j = 0; j < m; ++j) {
      const int option = choice[static_cast<std::size_t>(j)];
      if (option >= 2) {
        const int via = option - 2;
        well_formed = well_formed && via != j && choice[static_cast<std::size_t>(via)] == 0;
      }
    }
    if (well_formed) {
      const auto first = pairs_of_step(1);
      const auto second = pairs_of_step(2);
      if (!first.empty() && !second.empty()) {
        if (!fallback) fallback = choice;
        if (disjoint_routes(t, routing, first) && disjoint_routes(t, routing, second)) return make_sends(choice);
      }
    }
    int j = m - 1;  // next assignment, the last target varying fastest
    while (j >= 0 && ++choice[static_cast<std::size_t>(j)] == options) choice[static_cast<std::size_t>(j--)] = 0;
    if (j < 0) break;
  }
  return make_sends(fallback.value());
}

Plan plan_extended_dominating_node(const Request& request) {
  const Topology& t = request.topology;
  require_edn_mesh(t, request.algorithm);
  const int ports = request.ports.injection_ports(t);
  if (ports < t.port_count()) {
    throw UnsupportedError(fmt::format("{} needs an all-port node ({} injection channels on {}); a {} node has {}",
                                       request.algorithm, t.port_count(), t.spec(), request.ports.name(), ports));
  }
  require_broadcast(request);
  const DimensionOrderRouting routing(t);
  EdnBuilder builder(t, request.source);
  std::vector<Send> sends = edn_first_two_steps(builder, t, routing, request.source);
  builder.cover_from_top(3);
  for (Send& send : builder.take_sends()) sends.push_back(std::move(send));

  // Route each step's unicasts together: within a level, the worms of different senders stay in
  // their disjoint blocks, so choosing per (step, sender) keeps the whole step contention-free.
  std::map<std::pair<int, NodeId>, std::vector<const Send*>> groups;
  for (const Send& send : sends) groups[{send.step, send.sender}].push_back(&send);
  std::map<int, std::vector<const Send*>> first_steps;  // steps 1 and 2 cross the whole mesh: route them jointly
  std::vector<Worm> worms;
  const auto emit = [&](const std::vector<const Send*>& group) {
    std::vector<std::pair<NodeId, NodeId>> pairs;
    for (const Send* send : group) pairs.push_back({send->sender, send->receiver});
    std::vector<Route> routes;
    if (auto chosen = disjoint_routes(t, routing, pairs)) {
      routes = std::move(*chosen);
    } else {
      for (const auto& [from, to] : pairs) routes.push_back(xy_route(routing, from, to));
    }
    // Seed 002 costs a node's copies as prepared one after another (eq. 3: M alpha; eq. 7 charges
    // EDN 3 alpha per level), as the PCP plans do: each worm pays for its sender's copies in the step.
    std::map<NodeId, int> copies;
    for (const Send* send : group) ++copies[send->sender];
    for (std::size_t i = 0; i < group.size(); ++i) {
      const Port port = routes[i].hops.front().port;  // all-port: the worm leaves on its own direction
      worms.push_back(make_worm(*group[i], std::move(routes[i]), port));
      worms.back().prepared_copies = copies[group[i]->sender];
    }
  };
  for (const auto& [key, group] : groups) {
    if (key.first <= 2) {
      auto& step = first_steps[key.first];
      step.insert(step.end(), group.begin(), group.end());
    } else {
      emit(group);
    }
  }
  for (const auto& [step, group] : first_steps) emit(group);
  return finish(request, std::move(worms));
}

// ---------------------------------------------------------------------------------------------
// Network partitioning (docs/algorithms.md, "Network partitioning")

void require_np_d_request(const Request& request) {
  const Topology& t = request.topology;
  const int n = t.is_mesh() && t.dimensions() == 2 ? t.size(0) : 0;
  if (n < 2 || t.size(1) != n || (n & (n - 1)) != 0) {
    throw UnsupportedError(fmt::format(
        "{} runs on square 2D meshes whose side is a power of two, at least 2 (mesh:2x2, mesh:4x4, mesh:8x8, ...); "
        "{} is not one",
        request.algorithm, t.spec()));
  }
  const int ports = request.ports.injection_ports(t);
  if (ports < t.port_count()) {
    throw UnsupportedError(fmt::format("{} needs an all-port node ({} injection channels on {}); a {} node has {}",
                                       request.algorithm, t.port_count(), t.spec(), request.ports.name(), ports));
  }
  require_broadcast(request);
}

// One sub-message worm before it is routed.
struct PartSend {
  int step = 1;
  NodeId sender = kNoNode;
  NodeId receiver = kNoNode;
  int flits = 0;
  bool completes = false;  // the receiver then holds the whole message
};

Plan plan_network_partitioning(const Request& request) {
  require_np_d_request(request);
  const Topology& t = request.topology;
  const int n = t.size(0);
  const int k = np_d_k(n);
  const DimensionOrderRouting routing(t);
  const auto at = [&](int x, int y) { return t.node_at(Coord{x, y}); };
  const auto ddn = [&](NodeId node) { return np_d_ddn(t, node); };
  const auto flits = [&](int ddn_index) { return np_d_submessage_flits(request.length_flits, ddn_index); };
  std::vector<PartSend> sends;

  // Phase 1 (step 1): the source sends sub-message i to the representative of DDN i.
  const std::vector<NodeId> reps = np_d_representatives(t, request.source);
  for (NodeId rep : reps) {
    if (rep != request.source) sends.push_back({1, request.source, rep, flits(ddn(rep)), false});
  }
  // Phase 2 (steps 2 .. k): every DDN, a 2^(k-1) x 2^(k-1) mesh of every other row and column,
  // broadcasts its sub-message from its representative: each holder of a block of side 2h sends
  // to the nodes at its relative position in the three other quarters (coordinates XOR h).
  for (NodeId rep : reps) {
    const Coord r = t.coord(rep);
    const int ox = r[0] & 1;
    const int oy = r[1] & 1;
    std::vector<std::pair<int, int>> holders = {{r[0] >> 1, r[1] >> 1}};
    for (int j = 1; j <= k - 1; ++j) {
      const int h = (n / 2) >> j;
      std::vector<std::pair<int, int>> next = holders;
      for (const auto& [u, v] : holders) {
        for (const auto& [pu, pv] : {std::pair{u ^ h, v}, std::pair{u, v ^ h}, std::pair{u ^ h, v ^ h}}) {
          sends.push_back({1 + j, at(2 * u + ox, 2 * v + oy), at(2 * pu + ox, 2 * pv + oy), flits(ddn(rep)), false});
          next.push_back({pu, pv});
        }
      }
      holders = std::move(next);
    }
  }
  // Phase 3 (steps k + 1, k + 2): every 2x2 block is a DCN. Each node sends its sub-message to its
  // X neighbour in the block, then the two it holds to its Y neighbour; nobody sends to the source.
  for (NodeId node = 0; node < t.node_count(); ++node) {
    const Coord c = t.coord(node);
    const NodeId x_mate = at(c[0] ^ 1, c[1]);
    const NodeId y_mate = at(c[0], c[1] ^ 1);
    if (x_mate != request.source) sends.push_back({k + 1, node, x_mate, flits(ddn(node)), false});
    if (y_mate != request.source) {
      sends.push_back({k + 2, node, y_mate, flits(ddn(node)) + flits(ddn(x_mate)), true});
    }
  }

  // Route each sender's worms of a step together, disjoint where XY/YX allows.
  std::map<std::pair<int, NodeId>, std::vector<const PartSend*>> groups;
  for (const PartSend& send : sends) groups[{send.step, send.sender}].push_back(&send);
  std::vector<Worm> worms;
  for (const auto& [key, group] : groups) {
    std::vector<std::pair<NodeId, NodeId>> pairs;
    for (const PartSend* send : group) pairs.push_back({send->sender, send->receiver});
    std::vector<Route> routes;
    if (auto chosen = disjoint_routes(t, routing, pairs)) {
      routes = std::move(*chosen);
    } else {
      for (const auto& [from, to] : pairs) routes.push_back(xy_route(routing, from, to));
    }
    // All-port: a worm is injected on the channel of its first hop's direction; a holder's diagonal
    // worm, whose first hop is its X (or Y) partner's, takes a free injection channel and shares
    // that link (counted as stepwise contention).
    std::set<int> taken;
    for (std::size_t i = 0; i < group.size(); ++i) {
      const PartSend& send = *group[i];
      int port = routes[i].hops.front().port;
      if (taken.count(port) != 0) {
        port = 0;
        while (taken.count(port) != 0) ++port;
      }
      taken.insert(port);
      Worm worm = make_worm(Send{send.step, send.sender, send.receiver, {}}, std::move(routes[i]), port);
      if (!send.completes) {
        worm.keeps_copy.clear();
        worm.part_receivers = {send.receiver};
      }
      worm.data_flits = send.flits;
      worm.prepared_copies = static_cast<int>(group.size());
      worms.push_back(std::move(worm));
    }
  }
  return finish(request, std::move(worms));
}

}  // namespace

int np_d_k(int side) {
  int k = 0;
  while ((1 << k) < side) ++k;
  return k;
}

int np_d_ddn(const Topology& topology, NodeId node) {
  const Coord c = topology.coord(node);
  return (c[0] & 1) + 2 * (c[1] & 1);
}

int np_d_submessage_flits(int length_flits, int ddn) {
  // A message shorter than four flits leaves some sub-messages empty; they are sent as one flit.
  return std::max(1, length_flits / kNpdSubmessages + (ddn < length_flits % kNpdSubmessages ? 1 : 0));
}

std::vector<NodeId> np_d_representatives(const Topology& topology, NodeId source) {
  const Coord s = topology.coord(source);
  const int n = topology.size(0);
  const int dx = (s[0] & 1) == 0 ? 1 : -1;  // toward the other column of the source's 2x2 block
  const int dy = (s[1] & 1) == 0 ? 1 : -1;
  const int diagonal_x = s[0] - dx >= 0 && s[0] - dx < n ? s[0] - dx : s[0] + dx;
  std::vector<NodeId> reps(kNpdSubmessages, kNoNode);
  for (const Coord& c : {s, Coord{s[0] + dx, s[1]}, Coord{s[0], s[1] + dy}, Coord{diagonal_x, s[1] + dy}}) {
    const NodeId node = topology.node_at(c);
    reps[static_cast<std::size_t>(np_d_ddn(topology, node))] = node;
  }
  return reps;
}

std::vector<std::string> broadcast_baseline_names() {
  return {kRecursiveDoublingAlgorithm, kExtendedDominatingNodeAlgorithm, kNetworkPartitioningAlgorithm};
}

std::vector<NodeId> broadcast_destinations(const Topology& topology, NodeId source) {
  topology.check_node(source);
  std::vector<NodeId> destinations;
  for (NodeId node = 0; node < topology.node_count(); ++node) {
    if (node != source) destinations.push_back(node);
  }
  return destinations;
}

int recursive_doubling_steps(const Topology& topology) {
  int steps = 0;
  for (int d = 0; d < topology.dimensions(); ++d) steps += ceil_log2(topology.size(d));
  return steps;
}

std::vector<NodeId> edn_top_level_nodes(const Topology& topology) {
  require_edn_mesh(topology, kExtendedDominatingNodeAlgorithm);
  const EdnBuilder builder(topology, kNoNode);
  return {builder.top_node(0), builder.top_node(1), builder.top_node(2), builder.top_node(3)};
}

Plan plan_broadcast_baseline(const Request& request) {
  validate(request);
  if (request.algorithm == kRecursiveDoublingAlgorithm) return plan_recursive_doubling(request);
  if (request.algorithm == kExtendedDominatingNodeAlgorithm) return plan_extended_dominating_node(request);
  if (request.algorithm == kNetworkPartitioningAlgorithm) return plan_network_partitioning(request);
  throw SpecError(fmt::format("algorithm '{}' is not a broadcast baseline; valid: {}", request.algorithm,
                              fmt::join(broadcast_baseline_names(), ", ")));
}

double recursive_doubling_latency_formula(int k, int length_flits, const LatencyParameters& p) {
  const double distance = 2.0 * ((1 << k) - 1);
  return 2.0 * k * (p.alpha + p.gamma + p.beta * length_flits) + distance * p.beta;
}

namespace {
// The smallest e with base^e >= value: ceil(log_base(value)), exactly.
int ceil_log(int base, long long value) {
  int e = 0;
  for (long long power = 1; power < value; power *= base) ++e;
  return e;
}
}  // namespace

double network_partitioning_latency_formula(int k, int d, int length_flits, const LatencyParameters& p) {
  if (k < 1 || d < 0 || d > k) {
    throw RequestError(fmt::format("eq. (8) needs k >= 1 and 0 <= d <= k; got k = {}, d = {}", k, d));
  }
  const int log3 = ceil_log(3, 1LL << (d + 1));  // ceil((d + 1) log_3 2)
  const int log5 = ceil_log(5, 1LL << d);        // ceil(d log_5 2)
  const double two_d = static_cast<double>(1 << d);
  return (k - d + two_d + 3 + log3 + log5) * p.alpha + (9.0 / 4.0 + (k - d + 2 + log3) / two_d) * p.gamma +
         (3.0 * (1 << k) + 2.0 * two_d - 3.0) * p.beta * length_flits;
}

double extended_dominating_node_latency_formula(int k, int length_flits, double d1, double d2,
                                                const LatencyParameters& p) {
  const double level = 3.0 * p.alpha + p.beta * length_flits + p.gamma + d1 * p.beta;
  return (k - 1) * level + 3.0 * p.alpha + 2.0 * p.beta * length_flits + 2.0 * p.gamma + d2 * p.beta;
}

}  // namespace wormcast::model
