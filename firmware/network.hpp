// SPDX-License-Identifier: Apache-2.0
// What a node knows about its network, given at init: the grid, its own id, and the labels and
// coordinates it computes itself from them; on a star graph, the labels of the network's fixed
// Hamiltonian cycle come with the configuration (docs/firmware.md). Pure functions, freestanding.
#pragma once

#include <cstdint>

namespace wormcast::fw {

enum class GridKind : std::uint8_t { kMesh, kTorus, kStar };

// Star graphs the firmware runs on: S_4 .. S_6 (3 to 5 network ports, as the router's 3..6).
inline constexpr std::uint8_t kMinStarOrder = 4;
inline constexpr std::uint8_t kMaxStarOrder = 6;
inline constexpr std::uint32_t kNoNeighbour = 0xFFFFFFFFu;

// The node of S_n reached from `node` through port p: generator g_(p+2) swaps the first symbol
// with symbol p+2 (docs/model.md, "Port numbering"). Ids are the permutations' lexicographic ranks
// (Lehmer code): unrank, swap, rank.
constexpr std::uint32_t star_neighbour(std::uint32_t node, unsigned n, unsigned port) {
  std::uint8_t perm[kMaxStarOrder] = {};
  bool used[kMaxStarOrder + 1] = {};
  std::uint32_t radix = 1;
  for (unsigned i = 2; i < n; ++i) radix *= i;  // (n-1)!
  for (unsigned i = 0; i < n; ++i) {
    std::uint32_t digit = node / radix;
    node %= radix;
    if (i + 1 < n) radix /= n - 1 - i;
    for (std::uint8_t s = 1; s <= n; ++s) {
      if (used[s]) continue;
      if (digit-- == 0) {
        perm[i] = s;
        used[s] = true;
        break;
      }
    }
  }
  const std::uint8_t t = perm[0];
  perm[0] = perm[port + 1];
  perm[port + 1] = t;
  std::uint32_t rank = 0;
  for (unsigned i = 0; i < n; ++i) {
    std::uint32_t smaller_after = 0;
    for (unsigned j = i + 1; j < n; ++j) smaller_after += perm[j] < perm[i] ? 1u : 0u;
    rank = rank * (n - i) + smaller_after;
  }
  return rank;
}

// A 2D or 3D mesh or torus, or a star graph. Mesh and torus node ids are x + X * (y + Y * z)
// (docs/model.md, "Node ids"); star graph ids are permutation ranks.
struct Grid {
  GridKind kind = GridKind::kMesh;
  std::uint8_t dims = 2;              // 2 or 3; 0 for a star graph
  std::uint16_t size[3] = {1, 1, 1};  // X, Y, Z (Z = 1 in 2D)
  // Star graph S_n: n, and each node's label on the network's fixed Hamiltonian cycle. The cycle is
  // a configuration choice (docs/model.md, "Star graph cycle"), loaded like the routers' labels;
  // init checks that it is one.
  std::uint8_t star_order = 0;
  const std::uint16_t* star_labels = nullptr;

  constexpr std::uint32_t nodes() const {
    if (kind == GridKind::kStar) {
      std::uint32_t f = 1;
      for (std::uint32_t i = 2; i <= star_order; ++i) f *= i;
      return f;
    }
    return static_cast<std::uint32_t>(size[0]) * size[1] * size[2];
  }
  // Network ports of every router: 2 per dimension, n - 1 on S_n.
  constexpr unsigned ports() const { return kind == GridKind::kStar ? star_order - 1u : 2u * dims; }
  // The node through network port p (docs/model.md numbering), kNoNeighbour off a mesh's edge.
  constexpr std::uint32_t neighbour(std::uint32_t node, unsigned p) const {
    if (kind == GridKind::kStar) return star_neighbour(node, star_order, p);
    const unsigned d = p / 2;
    const std::uint32_t c = coord(node, d), k = size[d];
    if (p % 2 == 0)
      return c + 1 < k ? with_coord(node, d, c + 1) : kind == GridKind::kTorus ? with_coord(node, d, 0) : kNoNeighbour;
    return c > 0 ? with_coord(node, d, c - 1) : kind == GridKind::kTorus ? with_coord(node, d, k - 1) : kNoNeighbour;
  }
  // Whether network port p of `node` is a torus wraparound link (the link leaving the last
  // coordinate on +, the first on -).
  constexpr bool is_wrap(std::uint32_t node, unsigned p) const {
    if (kind != GridKind::kTorus) return false;
    const std::uint32_t c = coord(node, p / 2);
    return p % 2 == 0 ? c + 1 == size[p / 2] : c == 0;
  }
  // Coordinate d of `node`.
  constexpr std::uint32_t coord(std::uint32_t node, unsigned d) const {
    std::uint32_t v = node;
    for (unsigned i = 0; i < d; ++i) v /= size[i];
    return v % size[d];
  }
  // The node whose coordinate d is `value` and whose other coordinates are those of `node`.
  constexpr std::uint32_t with_coord(std::uint32_t node, unsigned d, std::uint32_t value) const {
    std::uint32_t stride = 1;
    for (unsigned i = 0; i < d; ++i) stride *= size[i];
    return node - coord(node, d) * stride + value * stride;
  }
  // Hamiltonian-path label ([1] Definition 1's row snake; in 3D the layer snake with odd layers reversed;
  // a torus uses its mesh's labels, wraps unused); a star graph's cycle label.
  constexpr std::uint32_t label(std::uint32_t node) const {
    if (kind == GridKind::kStar) return star_labels[node];
    const std::uint32_t x = coord(node, 0), y = coord(node, 1), z = coord(node, 2);
    const std::uint32_t xs = size[0], layer = xs * size[1];
    const std::uint32_t snake = y * xs + ((y % 2 == 0) ? x : xs - 1 - x);
    return z * layer + ((z % 2 == 0) ? snake : layer - 1 - snake);
  }
  // The mesh or torus node of Hamiltonian-path label `l` (label's inverse; l < nodes()).
  constexpr std::uint32_t node_at_label(std::uint32_t l) const {
    const std::uint32_t xs = size[0], layer = xs * size[1];
    const std::uint32_t z = l / layer, in_layer = l % layer;
    const std::uint32_t snake = z % 2 == 0 ? in_layer : layer - 1 - in_layer;
    const std::uint32_t y = snake / xs, along = snake % xs;
    const std::uint32_t x = y % 2 == 0 ? along : xs - 1 - along;
    return x + xs * (y + size[1] * z);
  }
};

}  // namespace wormcast::fw
