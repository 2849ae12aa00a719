// SPDX-License-Identifier: Apache-2.0
// A list of node ids in the firmware's fixed capacity, and the label orderings the chain-based
// and path-based algorithms build on ([1], Definition 5: the labeling-ordered chain).
#pragma once

#include <cstdint>

#include "firmware/fixed_vector.hpp"
#include "firmware/fw_config.hpp"
#include "firmware/network.hpp"

namespace wormcast::fw {

using Chain = FixedVector<std::uint32_t, kMaxChain>;

// Insertion sort by Hamiltonian-path label.
template <std::size_t N>
constexpr void sort_by_label(const Grid& g, FixedVector<std::uint32_t, N>& chain) {
  for (std::size_t i = 1; i < chain.size(); ++i) {
    const std::uint32_t node = chain[i], key = g.label(node);
    std::size_t j = i;
    for (; j > 0 && g.label(chain[j - 1]) > key; --j) chain[j] = chain[j - 1];
    chain[j] = node;
  }
}

// Reverses chain[a .. b).
template <std::size_t N>
constexpr void reverse_range(FixedVector<std::uint32_t, N>& chain, std::uint32_t a, std::uint32_t b) {
  for (; a + 1 < b; ++a, --b) {
    const std::uint32_t t = chain[a];
    chain[a] = chain[b - 1];
    chain[b - 1] = t;
  }
}

}  // namespace wormcast::fw
