// SPDX-License-Identifier: Apache-2.0
// Network partitioning: written from docs/algorithms.md ("Network partitioning"), independent of
// model/ (docs/firmware.md, "HW/SW split").
#include "firmware/network_partitioning.hpp"

namespace wormcast::fw {
namespace {

constexpr std::uint32_t node_at(std::uint32_t x, std::uint32_t y, std::uint32_t n) { return x + n * y; }

// The network port of an XY route's first hop (docs/model.md numbering: +X 0, -X 1, +Y 2, -Y 3).
std::uint8_t xy_first_port(std::uint32_t n, std::uint32_t from, std::uint32_t to) {
  const std::uint32_t x0 = from % n, y0 = from / n, x1 = to % n, y1 = to / n;
  if (x1 != x0) return x1 > x0 ? 0 : 1;
  return y1 > y0 ? 2 : 3;
}

// Appends a worm to `to` on its first hop's channel or, when an earlier worm of the step has that
// one, on the lowest channel none of them has (all-port: one message per channel per step).
void add_send(std::uint32_t n, std::uint32_t from, std::uint32_t to, NpdSend* out, unsigned& count) {
  unsigned used = 0;
  for (unsigned i = 0; i < count; ++i) used |= 1u << out[i].channel;
  std::uint8_t channel = xy_first_port(n, from, to);
  if ((used >> channel) & 1u) {
    channel = 0;
    while ((used >> channel) & 1u) ++channel;
  }
  out[count++] = {to, channel};
}

}  // namespace

std::uint32_t npd_side(const std::uint16_t* sizes, std::uint8_t dims) {
  const std::uint32_t n = sizes[0];
  if (dims != 2 || sizes[1] != n || n < 2 || n > 64 || (n & (n - 1)) != 0) return 0;
  return n;
}

std::uint32_t npd_levels(std::uint32_t n) {
  std::uint32_t k = 0;
  while ((std::uint32_t{1} << k) < n) ++k;
  return k;
}

unsigned npd_ddn(std::uint32_t node, std::uint32_t n) { return (node % n) % 2 + 2 * ((node / n) % 2); }

std::uint32_t npd_part_offset(std::uint32_t words, unsigned i) {
  const std::uint32_t longer = words % kNpdParts;
  return i * (words / kNpdParts) + (i < longer ? i : longer);
}

std::uint32_t npd_part_words(std::uint32_t words, unsigned i) {
  return words / kNpdParts + (i < words % kNpdParts ? 1 : 0);
}

// The representatives: the source's X and Y neighbours in its 2x2 block (DDNs own ^ 1 and own ^ 2),
// and for the diagonal DDN (own ^ 3) the node one column outside the block in the block's other
// row, so that its XY route leaves on a third channel; the block's diagonal node when that column
// is off the mesh.
unsigned npd_first_step(std::uint32_t n, std::uint32_t source, NpdSend* out, std::uint8_t* ddn) {
  const std::uint32_t x = source % n, y = source / n;
  const unsigned own = npd_ddn(source, n);
  const std::uint32_t outside = (x % 2 == 0) ? x - 1 : x + 1;  // x - dx; wraps past n when x = 0
  const std::uint32_t diagonal_x = outside < n ? outside : x ^ 1u;
  unsigned count = 0;
  for (unsigned i = 0; i < kNpdParts; ++i) {
    if (i == own) continue;
    const unsigned relation = i ^ own;  // 1: X neighbour, 2: Y neighbour, 3: diagonal
    const std::uint32_t to = relation == 1   ? node_at(x ^ 1u, y, n)
                             : relation == 2 ? node_at(x, y ^ 1u, n)
                                             : node_at(diagonal_x, y ^ 1u, n);
    ddn[count] = static_cast<std::uint8_t>(i);
    add_send(n, source, to, out, count);
  }
  return count;
}

// In DDN coordinates (u, v) = (x / 2, y / 2), DDN step j = step - 1 sends to u xor h, v xor h with
// h = 2^(k-1-j): 2h = 2^(k+1-step) in mesh coordinates. The diagonal's XY route shares the X
// partner's links, its YX route the Y partner's: no choice of routes is disjoint, so all stay XY
// and the diagonal takes a free channel.
unsigned npd_ddn_step(std::uint32_t n, std::uint32_t node, std::uint32_t step, NpdSend* out) {
  const std::uint32_t x = node % n, y = node / n;
  const std::uint32_t span = std::uint32_t{1} << (npd_levels(n) + 1 - step);
  unsigned count = 0;
  add_send(n, node, node_at(x ^ span, y, n), out, count);
  add_send(n, node, node_at(x, y ^ span, n), out, count);
  add_send(n, node, node_at(x ^ span, y ^ span, n), out, count);
  return count;
}

NpdSend npd_x_partner(std::uint32_t n, std::uint32_t node) {
  const std::uint32_t to = node_at((node % n) ^ 1u, node / n, n);
  return {to, xy_first_port(n, node, to)};
}

NpdSend npd_y_partner(std::uint32_t n, std::uint32_t node) {
  const std::uint32_t to = node_at(node % n, (node / n) ^ 1u, n);
  return {to, xy_first_port(n, node, to)};
}

}  // namespace wormcast::fw
