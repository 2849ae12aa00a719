// SPDX-License-Identifier: Apache-2.0
// A fixed Hamiltonian cycle of the star graph S_n (n = 3..6), used for its cycle labeling.
//
// The seeds give the S4 cycle only by its labels (vector V11) and no cycle for n >= 5
// (docs/model.md, "Resolved ambiguities"). This construction reproduces V11 exactly for n = 4 and
// extends it to every n:
//   * S_n splits into n sub-stars S_{n-1} by the symbol in the last position. The cycle visits
//     each sub-star contiguously, joined by g_n edges, so labels of a sub-star form one range
//     (as the row snake keeps a mesh row together).
//   * Between a fixed entry a and exit b in a sub-star (opposite parity; star graphs are bipartite
//     and Hamiltonian-laceable for n >= 4), the path is built recursively: sub-sub-stars in the
//     order [block of a, remaining blocks by ascending symbol, block of b], each left through the
//     lexicographically first exit that starts with the next block's symbol, has the parity
//     opposite to the block's entry and (so that the recursion stays in distinct blocks) a
//     different symbol than the entry in the block's second-to-last free position.
//   * S4 and S3 pieces are found by depth-first search trying the neighbour with the fewest
//     unvisited neighbours first (ties: lower generator), keeping S3 blocks contiguous in S4
//     when that is possible.
// The cycle starts at the identity and closes with g_n back to it. docs/model.md lists it.
#pragma once

#include <vector>

#include "model/topology.hpp"

namespace wormcast::model {

// The cycle as a node sequence starting at the identity permutation; throws TopologyError for n
// outside 3..6.
std::vector<Permutation> star_hamiltonian_cycle(int n);

}  // namespace wormcast::model
