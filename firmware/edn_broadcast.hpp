// SPDX-License-Identifier: Apache-2.0
// Extended Dominating Node broadcast (edn) on a 2^k x 2^k mesh, k >= 2: the geometry of its block
// hierarchy and its route choice, as docs/algorithms.md ("Extended Dominating Node", "EDN step by
// step") describes them. Pure functions over small values, freestanding; broadcast_baselines.cpp runs
// the sends.
//
// A frame maps canonical block coordinates (u, v) to the mesh: R^rot (u, v) + (tx, ty), R the
// quarter turn (u, v) -> (-v, u). A region is what a receiver becomes responsible for: the block
// of side 2^level in the frame's lower-left corner (level >= 2), the T-tetromino of the frame
// (level 1: centre (2, 0), leaves (1, 0), (3, 0), (2, 1)), or one node, the frame's (0, 0)
// (level 0).
#pragma once

#include <cstdint>

namespace wormcast::fw {

struct EdnFrame {
  std::uint8_t rot = 0;
  std::uint8_t tx = 0, ty = 0;
};

inline constexpr std::uint8_t kEdnLeaf = 0;
inline constexpr std::uint8_t kEdnTee = 1;

struct EdnRegion {
  EdnFrame frame;
  std::uint8_t level = kEdnLeaf;
};

// A unicast of the broadcast: receiver, the region it becomes responsible for, YX (source-routed
// in class 1) or XY (dimension order, class 0).
struct EdnSend {
  std::uint32_t receiver = 0;
  EdnRegion region;
  bool yx = false;
};

// Steps 1 and 2 at the source: the highest-level EDN of quadrant `quadrant`, sent in `step` by
// the source (via = kEdnFromSource) or by the EDN of quadrant `via` reached in step 1.
// (No member initializers: jobs hold arrays of these (EdnJob), and GCC 12 fails internally on
// resetting a job's state with them.)
inline constexpr std::uint8_t kEdnFromSource = 0xFF;
struct EdnTopSend {
  std::uint8_t quadrant;
  std::uint8_t step;
  std::uint8_t via;
  bool yx;
};

// The mesh side n = 2^k if `sizes` is a square 2D mesh with k >= 2 (n <= 64), else 0.
std::uint32_t edn_side(const std::uint16_t* sizes, std::uint8_t dims);

// The node at canonical (u, v) of frame f on the n x n mesh.
std::uint32_t edn_node(const EdnFrame& f, int u, int v, std::uint32_t n);
// The node that holds `region` and covers it: its EDN (2, 0), or the leaf itself.
std::uint32_t edn_holder(const EdnRegion& region, std::uint32_t n);
// The region of quadrant i (0..3) of the whole mesh: a block of side n/2, or a T on 4x4.
EdnRegion edn_top_region(std::uint32_t n, unsigned i);

// One level step of the holder of `region` (level >= 1): the sends to the holders of its three
// other sub-regions (a block) or to its three leaves (a T), in the plan's order, the source
// (`origin`) left out, with their routes chosen; `out` gets at most 3. `next` is the region the
// holder keeps for the following step (its own sub-region; a leaf after a T).
unsigned edn_level_sends(const EdnRegion& region, std::uint32_t n, std::uint32_t origin, EdnSend* out, EdnRegion& next);

// Steps 1 and 2: the source's choice of who sends each highest-level EDN the message in which
// step, with routes. `out` gets one entry per quadrant whose EDN is not the source (at most 4).
unsigned edn_first_two_steps(std::uint32_t n, std::uint32_t source, EdnTopSend* out);

// The region the source covers as a member of the hierarchy (the region whose worm would have
// been sent to it) and the step its covering starts in; false when it covers none (a leaf).
bool edn_source_role(std::uint32_t n, std::uint32_t source, EdnRegion& region, std::uint32_t& first_step);

// For `count` unicasts sent in one step (from[i] -> to[i], in this order): the first YX choice
// (bit i = worm i takes YX) in increasing numeric order under which no two worms share a directed
// channel. False when none exists (then every worm takes XY).
bool edn_disjoint_routes(std::uint32_t n, const std::uint32_t* from, const std::uint32_t* to, unsigned count,
                         std::uint8_t& yx_mask);

// The network port of a route's first hop (docs/model.md numbering: +X 0, -X 1, +Y 2, -Y 3).
std::uint8_t edn_first_port(std::uint32_t n, std::uint32_t from, std::uint32_t to, bool yx);

}  // namespace wormcast::fw
