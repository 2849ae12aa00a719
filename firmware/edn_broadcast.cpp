// SPDX-License-Identifier: Apache-2.0
// Extended Dominating Node: written from docs/algorithms.md ("EDN step by step"), independent of
// model/ (docs/firmware.md, "HW/SW split").
#include "firmware/edn_broadcast.hpp"

namespace wormcast::fw {
namespace {

struct Point {
  int x = 0, y = 0;
};

// R^rot (u, v), R the quarter turn (u, v) -> (-v, u).
constexpr Point rotate(unsigned rot, int u, int v) {
  switch (rot & 3u) {
    case 1:
      return {-v, u};
    case 2:
      return {-u, -v};
    case 3:
      return {v, -u};
    default:
      return {u, v};
  }
}

Point apply(const EdnFrame& f, int u, int v) {
  const Point r = rotate(f.rot, u, v);
  return {r.x + f.tx, r.y + f.ty};
}

// f after i quarter turns of its m x m block onto itself: (f o Q_m^i)(p) = f(Q_m^i(p)), with
// Q_m(u, v) = (m-1-v, u), so Q_m^i = R^i plus the image of (0, 0): (m-1, 0), (m-1, m-1), (0, m-1).
EdnFrame turned(const EdnFrame& f, int m, unsigned i) {
  const Point t[4] = {{0, 0}, {m - 1, 0}, {m - 1, m - 1}, {0, m - 1}};
  const Point origin = apply(f, t[i & 3u].x, t[i & 3u].y);
  return {static_cast<std::uint8_t>((f.rot + i) & 3u), static_cast<std::uint8_t>(origin.x),
          static_cast<std::uint8_t>(origin.y)};
}

Point coords(std::uint32_t node, std::uint32_t n) { return {static_cast<int>(node % n), static_cast<int>(node / n)}; }

std::uint32_t node_at(Point p, std::uint32_t n) {
  return static_cast<std::uint32_t>(p.x) + n * static_cast<std::uint32_t>(p.y);
}

bool contains(const EdnRegion& r, std::uint32_t node, std::uint32_t n) {
  const Point p = coords(node, n);
  const Point c = rotate(4u - r.frame.rot, p.x - r.frame.tx, p.y - r.frame.ty);  // R^-rot
  if (r.level == kEdnLeaf) return c.x == 0 && c.y == 0;
  if (r.level == kEdnTee) return (c.y == 0 && c.x >= 1 && c.x <= 3) || (c.x == 2 && c.y == 1);
  const int side = 1 << r.level;
  return c.x >= 0 && c.y >= 0 && c.x < side && c.y < side;
}

// Sub-region i (0..3) of a block region (level >= 2): quadrant i turned into place, a T when the
// block is 4 x 4.
EdnRegion sub_region(const EdnRegion& r, unsigned i) {
  const std::uint8_t level = r.level == 2 ? kEdnTee : static_cast<std::uint8_t>(r.level - 1);
  return {turned(r.frame, 1 << r.level, i), level};
}

EdnRegion leaf(std::uint32_t node, std::uint32_t n) {
  const Point p = coords(node, n);
  return {{0, static_cast<std::uint8_t>(p.x), static_cast<std::uint8_t>(p.y)}, kEdnLeaf};
}

// One straight piece of a route: along x (horizontal) or y, on line `line`, from `from` to `to`.
struct Leg {
  bool horizontal = false;
  int line = 0, from = 0, to = 0;
};

// The legs of an XY or YX route (an empty leg has from == to).
void legs_of(std::uint32_t n, std::uint32_t a, std::uint32_t b, bool yx, Leg* legs) {
  const Point p = coords(a, n), q = coords(b, n);
  if (yx) {
    legs[0] = {false, p.x, p.y, q.y};
    legs[1] = {true, q.y, p.x, q.x};
  } else {
    legs[0] = {true, p.y, p.x, q.x};
    legs[1] = {false, q.x, p.y, q.y};
  }
}

// Two legs use a common directed channel: same line and direction, and their channels' start
// nodes ([from, to) going up, (to, from] going down) overlap.
bool share_channel(const Leg& a, const Leg& b) {
  if (a.from == a.to || b.from == b.to || a.horizontal != b.horizontal || a.line != b.line) return false;
  const bool up = a.to > a.from;
  if (up != (b.to > b.from)) return false;
  const int a_lo = up ? a.from : a.to + 1, a_hi = up ? a.to - 1 : a.from;
  const int b_lo = up ? b.from : b.to + 1, b_hi = up ? b.to - 1 : b.from;
  return a_lo <= b_hi && b_lo <= a_hi;
}

bool disjoint(std::uint32_t n, const std::uint32_t* from, const std::uint32_t* to, unsigned count, unsigned mask) {
  Leg legs[8][2];
  for (unsigned i = 0; i < count; ++i) legs_of(n, from[i], to[i], ((mask >> i) & 1u) != 0, legs[i]);
  for (unsigned i = 0; i < count; ++i) {
    for (unsigned j = i + 1; j < count; ++j) {
      for (const Leg& a : legs[i]) {
        for (const Leg& b : legs[j]) {
          if (share_channel(a, b)) return false;
        }
      }
    }
  }
  return true;
}

// The source's role below a region whose holder is not the source but which contains it; the
// holder covers it from step `step`.
bool role_below(const EdnRegion& r, std::uint32_t n, std::uint32_t source, std::uint32_t step, EdnRegion& region,
                std::uint32_t& first_step) {
  if (r.level <= kEdnTee) return false;  // the source is a leaf of a T
  for (unsigned i = 0; i < 4; ++i) {
    const EdnRegion sub = sub_region(r, i);
    if (!contains(sub, source, n)) continue;
    if (edn_holder(sub, n) == source) {
      region = sub;
      first_step = step + 1;
      return true;
    }
    return role_below(sub, n, source, step + 1, region, first_step);
  }
  return false;
}

}  // namespace

std::uint32_t edn_side(const std::uint16_t* sizes, std::uint8_t dims) {
  const std::uint32_t n = sizes[0];
  if (dims != 2 || sizes[1] != n || n < 4 || n > 64 || (n & (n - 1)) != 0) return 0;
  return n;
}

std::uint32_t edn_node(const EdnFrame& f, int u, int v, std::uint32_t n) { return node_at(apply(f, u, v), n); }

std::uint32_t edn_holder(const EdnRegion& region, std::uint32_t n) {
  return region.level == kEdnLeaf ? edn_node(region.frame, 0, 0, n) : edn_node(region.frame, 2, 0, n);
}

EdnRegion edn_top_region(std::uint32_t n, unsigned i) {
  int level = 0;
  while ((1u << level) < n) ++level;
  return sub_region({EdnFrame{}, static_cast<std::uint8_t>(level)}, i);
}

unsigned edn_level_sends(const EdnRegion& region, std::uint32_t n, std::uint32_t origin, EdnSend* out,
                         EdnRegion& next) {
  unsigned count = 0;
  const std::uint32_t holder = edn_holder(region, n);
  if (region.level == kEdnTee) {
    const int leaves[3][2] = {{1, 0}, {3, 0}, {2, 1}};
    for (const auto& l : leaves) {
      const std::uint32_t node = edn_node(region.frame, l[0], l[1], n);
      if (node != origin) out[count++] = {node, leaf(node, n), false};
    }
    next = leaf(holder, n);
  } else if (region.level >= 2) {
    for (unsigned i = 1; i < 4; ++i) {
      const EdnRegion sub = sub_region(region, i);
      const std::uint32_t node = edn_holder(sub, n);
      if (node != origin) out[count++] = {node, sub, false};
    }
    next = sub_region(region, 0);
  } else {
    next = region;
    return 0;
  }
  std::uint32_t from[3], to[3];
  for (unsigned i = 0; i < count; ++i) {
    from[i] = holder;
    to[i] = out[i].receiver;
  }
  std::uint8_t mask = 0;
  edn_disjoint_routes(n, from, to, count, mask);
  for (unsigned i = 0; i < count; ++i) out[i].yx = ((mask >> i) & 1u) != 0;
  return count;
}

unsigned edn_first_two_steps(std::uint32_t n, std::uint32_t source, EdnTopSend* out) {
  std::uint8_t targets[4];  // quadrants whose top EDN is not the source, ascending
  std::uint32_t node[4];
  unsigned m = 0;
  for (unsigned i = 0; i < 4; ++i) {
    const std::uint32_t e = edn_holder(edn_top_region(n, i), n);
    if (e == source) continue;
    targets[m] = static_cast<std::uint8_t>(i);
    node[m++] = e;
  }
  // Option per target: 0 step 1 from the source, 1 step 2 from the source, 2 + v step 2 from target v.
  const unsigned options = 2 + m;
  unsigned choice[4] = {0, 0, 0, 0};
  const auto sender = [&](unsigned option) { return option <= 1 ? source : node[option - 2]; };
  const auto step_of = [](unsigned option) { return option == 0 ? 1u : 2u; };
  // The pairs of one step in target order.
  const auto step_disjoint = [&](unsigned step) {
    std::uint32_t from[4], to[4];
    unsigned count = 0;
    for (unsigned j = 0; j < m; ++j) {
      if (step_of(choice[j]) != step) continue;
      from[count] = sender(choice[j]);
      to[count++] = node[j];
    }
    std::uint8_t mask = 0;
    return edn_disjoint_routes(n, from, to, count, mask);
  };
  bool have_fallback = false, found = false;
  unsigned fallback[4] = {0, 0, 0, 0};
  for (bool more = true; more && !found;) {
    bool well_formed = true, step1 = false, step2 = false;
    for (unsigned j = 0; j < m; ++j) {
      if (choice[j] >= 2) well_formed &= choice[j] - 2 != j && choice[choice[j] - 2] == 0;
      (step_of(choice[j]) == 1 ? step1 : step2) = true;
    }
    if (well_formed && step1 && step2) {
      if (!have_fallback) {
        have_fallback = true;
        for (unsigned j = 0; j < m; ++j) fallback[j] = choice[j];
      }
      found = step_disjoint(1) && step_disjoint(2);
    }
    if (found) break;
    int j = static_cast<int>(m) - 1;  // next assignment, the last target varying fastest
    while (j >= 0 && ++choice[j] == options) choice[j--] = 0;
    more = j >= 0;
  }
  if (!found) {
    for (unsigned j = 0; j < m; ++j) choice[j] = fallback[j];
  }
  // The routes: per step, the worms ordered by sender id, then target order.
  bool yx[4] = {false, false, false, false};
  for (unsigned step = 1; step <= 2; ++step) {
    unsigned order[4], count = 0;
    for (unsigned j = 0; j < m; ++j) {
      if (step_of(choice[j]) == step) order[count++] = j;
    }
    for (unsigned a = 1; a < count; ++a) {  // stable insertion sort by sender id
      const unsigned x = order[a];
      unsigned b = a;
      for (; b > 0 && sender(choice[order[b - 1]]) > sender(choice[x]); --b) order[b] = order[b - 1];
      order[b] = x;
    }
    std::uint32_t from[4], to[4];
    for (unsigned i = 0; i < count; ++i) {
      from[i] = sender(choice[order[i]]);
      to[i] = node[order[i]];
    }
    std::uint8_t mask = 0;
    edn_disjoint_routes(n, from, to, count, mask);
    for (unsigned i = 0; i < count; ++i) yx[order[i]] = ((mask >> i) & 1u) != 0;
  }
  for (unsigned j = 0; j < m; ++j) {
    out[j].quadrant = targets[j];
    out[j].step = static_cast<std::uint8_t>(step_of(choice[j]));
    out[j].via = choice[j] >= 2 ? targets[choice[j] - 2] : kEdnFromSource;
    out[j].yx = yx[j];
  }
  return m;
}

bool edn_source_role(std::uint32_t n, std::uint32_t source, EdnRegion& region, std::uint32_t& first_step) {
  for (unsigned i = 0; i < 4; ++i) {
    const EdnRegion top = edn_top_region(n, i);
    if (!contains(top, source, n)) continue;
    if (edn_holder(top, n) == source) {
      region = top;
      first_step = 3;
      return true;
    }
    return role_below(top, n, source, 3, region, first_step);
  }
  return false;
}

bool edn_disjoint_routes(std::uint32_t n, const std::uint32_t* from, const std::uint32_t* to, unsigned count,
                         std::uint8_t& yx_mask) {
  yx_mask = 0;
  for (unsigned mask = 0; mask < (1u << count); ++mask) {
    if (disjoint(n, from, to, count, mask)) {
      yx_mask = static_cast<std::uint8_t>(mask);
      return true;
    }
  }
  return false;
}

std::uint8_t edn_first_port(std::uint32_t n, std::uint32_t from, std::uint32_t to, bool yx) {
  const Point p = coords(from, n), q = coords(to, n);
  const bool x_first = yx ? p.y == q.y : p.x != q.x;
  if (x_first) return q.x > p.x ? 0 : 1;
  return q.y > p.y ? 2 : 3;
}

}  // namespace wormcast::fw
