// What a node knows about its network, given at init: the grid, its own id, and the labels and
// coordinates it computes itself from them (docs/firmware.md). Pure functions, freestanding.
#pragma once

#include <cstdint>

namespace wormcast::fw {

enum class GridKind : std::uint8_t { kMesh, kTorus };

// A 2D or 3D mesh or torus. Node ids are x + X * (y + Y * z) (docs/model.md, "Node ids").
struct Grid {
  GridKind kind = GridKind::kMesh;
  std::uint8_t dims = 2;              // 2 or 3
  std::uint16_t size[3] = {1, 1, 1};  // X, Y, Z (Z = 1 in 2D)

  constexpr std::uint32_t nodes() const { return static_cast<std::uint32_t>(size[0]) * size[1] * size[2]; }
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
  // Hamiltonian-path label (spec 1.2 row snake; in 3D the layer snake with odd layers reversed;
  // a torus uses its mesh's labels, wraps unused).
  constexpr std::uint32_t label(std::uint32_t node) const {
    const std::uint32_t x = coord(node, 0), y = coord(node, 1), z = coord(node, 2);
    const std::uint32_t xs = size[0], layer = xs * size[1];
    const std::uint32_t snake = y * xs + ((y % 2 == 0) ? x : xs - 1 - x);
    return z * layer + ((z % 2 == 0) ? snake : layer - 1 - snake);
  }
};

}  // namespace wormcast::fw
