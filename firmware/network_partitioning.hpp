// SPDX-License-Identifier: Apache-2.0
// Network partitioning broadcast (np-d) on a 2^k x 2^k mesh, k >= 1: who sends which sub-message
// to whom in which step, as docs/algorithms.md ("Network partitioning") describes our reading of
// Tseng, Wang and Ho. Pure functions over small values, freestanding; broadcast_baselines.cpp runs
// the sends.
//
// Node (x, y) belongs to DDN (x mod 2) + 2 (y mod 2), and sub-message i of the message is DDN i's.
// Steps: 1, the source to the other DDNs' representatives; 2 .. k, a four-way split per step in
// every DDN; k + 1, every node to its X neighbour in its 2x2 block; k + 2, the two sub-messages it
// then holds to its Y neighbour. Nobody sends to the source. Every worm is an XY (dimension-order)
// unicast.
#pragma once

#include <cstdint>

namespace wormcast::fw {

inline constexpr unsigned kNpdParts = 4;

// A worm of one step: its receiver and its injection channel.
struct NpdSend {
  std::uint32_t receiver = 0;
  std::uint8_t channel = 0;
};

// The mesh side n = 2^k if `sizes` is a square 2D mesh with 2 <= n <= 64, else 0.
std::uint32_t npd_side(const std::uint16_t* sizes, std::uint8_t dims);
// k for the side n = 2^k.
std::uint32_t npd_levels(std::uint32_t n);

// The DDN of `node`, which is also the index of its sub-message.
unsigned npd_ddn(std::uint32_t node, std::uint32_t n);
// Sub-message i (0..3) of a message of `words` data words: words / 4 each, the first words mod 4
// one word longer. Its first word, and its length.
std::uint32_t npd_part_offset(std::uint32_t words, unsigned i);
std::uint32_t npd_part_words(std::uint32_t words, unsigned i);

// Step 1 at the source: the representative of each other DDN in DDN order, its DDN in `ddn`, with
// its channel; 3 sends.
unsigned npd_first_step(std::uint32_t n, std::uint32_t source, NpdSend* out, std::uint8_t* ddn);

// Step `step` (2 .. k) of a node that holds its DDN's sub-message: its X, Y and diagonal partners
// in the DDN, in that order, with their channels; 3 sends.
unsigned npd_ddn_step(std::uint32_t n, std::uint32_t node, std::uint32_t step, NpdSend* out);

// The exchange partners in the node's 2x2 block: its X neighbour (step k + 1) and its Y neighbour
// (step k + 2), each sent to on the channel of its direction.
NpdSend npd_x_partner(std::uint32_t n, std::uint32_t node);
NpdSend npd_y_partner(std::uint32_t n, std::uint32_t node);

}  // namespace wormcast::fw
