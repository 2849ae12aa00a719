// SPDX-License-Identifier: Apache-2.0
// The store-and-forward multicasts VH, DIAG, DDS and MIN: the source's tree builder (thesis
// sections 3.2.1-3.2.2, paper [5] in docs/algorithms.md; docs/algorithms.md "Zones and sources other than the origin",
// "DIAG, DDS, VH and MIN in one zone", "Time rule") on meshes and tori. The tree travels in the message as
// a preorder list, each node's children in send order, so relays only walk it; every tree node
// sends one one-hop dimension-order worm per child. The row handlers of firmware/algorithm_table.hpp.
//
// One list entry (32 bits): [19:0] node id, [22:20] number of children, [31] the node is a
// destination. Entry 0 is the receiver itself; a child's subtree is the entries up to the next
// sibling (tree_subtree_end).
#pragma once

#include <cstddef>
#include <cstdint>

#include "firmware/fixed_vector.hpp"
#include "firmware/fw_config.hpp"
#include "firmware/network.hpp"
#include "firmware/node_types.hpp"

namespace wormcast::fw {

enum class TreeKind : std::uint8_t { kVh, kDiag, kDds, kMin };

constexpr std::uint32_t tree_entry(std::uint32_t node, std::uint32_t children, bool destination) {
  return (node & 0xFFFFFu) | (children & 7u) << 20 | (destination ? 1u : 0u) << 31;
}
constexpr std::uint32_t tree_node(std::uint32_t entry) { return entry & 0xFFFFFu; }
constexpr std::uint32_t tree_children(std::uint32_t entry) { return (entry >> 20) & 7u; }
constexpr bool tree_destination(std::uint32_t entry) { return (entry >> 31) != 0; }

// The index after the subtree that starts at list[i] (i < size); size if the list is cut short.
std::size_t tree_subtree_end(const std::uint32_t* list, std::size_t size, std::size_t i);

// A carried tree: its nodes, entry 0 the receiver (a tree holds at most the network's nodes).
using TreeList = FixedVector<std::uint32_t, kMaxChain>;

class TreeBuilder {
 public:
  enum class Result : std::uint8_t { kOk, kNetworkTooLarge, kTreeTooLarge };

  // The preorder list of the tree of `kind` from `source` to `destinations` on mesh `grid`.
  Result build(const Grid& grid, std::uint32_t source, TreeKind kind, const std::uint32_t* destinations,
               std::uint32_t count, TreeList& out);

 private:
  static constexpr std::int16_t kNone = -1;

  // Coordinates relative to the source in the current zone (mirrored dimensions count down).
  void local_in(std::uint32_t node, std::uint8_t mask, int* l) const;
  void local(std::uint32_t node, int* l) const;
  std::uint32_t global(const int* l) const;
  bool in_zone(std::uint32_t node) const;
  void zone_add(std::uint32_t node, std::uint32_t parent, bool stem);
  std::uint32_t nearest(std::uint32_t u, bool inside_box) const;
  void attach(std::uint32_t u, bool inside_box);
  void path(std::uint32_t from, std::uint32_t to);
  void diag_stem(const std::uint32_t* dests, std::uint32_t count);
  void prune_zone();
  void build_zone(TreeKind kind, std::uint32_t zone_index);
  bool dds_precedes(std::uint32_t a, std::uint32_t b) const;
  void link_zone_origins(const std::uint8_t* zones, std::uint32_t zone_total, const std::uint8_t* assigned,
                         std::uint32_t count);
  bool child_before(std::uint32_t parent, std::uint32_t a, std::uint32_t b) const;
  std::uint32_t children_of(std::uint32_t parent, std::uint32_t* children) const;

  Grid grid_{};
  std::uint32_t source_ = 0;
  std::uint32_t origin_ = 0;  // the current zone's origin: the source (mesh) or a neighbour chain (torus)
  std::uint8_t mask_ = 0;     // mirrored dimensions of the current zone
  // Per destination (fewer than the network's nodes): the current zone's, each one's zone, MIN's
  // picks; the preorder walk's stack (at most one entry per node).
  std::uint32_t zone_dests_[kMaxGridNodes]{};
  std::uint8_t zone_of_[kMaxGridNodes]{};
  bool picked_[kMaxGridNodes]{};
  std::uint32_t preorder_stack_[kMaxGridNodes]{};
  std::uint32_t zone_count_ = 0;
  // Per node of the network: the whole tree and the current zone's subtree.
  std::int16_t parent_[kMaxGridNodes]{};
  std::int16_t zone_parent_[kMaxGridNodes]{};
  std::uint8_t flags_[kMaxGridNodes]{};
  std::uint8_t edge_zone_[kMaxGridNodes]{};  // zone order index of the edge parent -> node
  std::uint8_t edge_mask_[kMaxGridNodes]{};  // that zone's mirrored dimensions
};

// One worm to a child: the list entries [first, first + count) are its subtree.
struct TreeSend {
  std::uint8_t channel = 0;
  std::uint32_t child = 0;  // node id
  std::uint32_t first = 0, count = 0;
};

struct TreeJob {
  TreeList list;                 // the carried tree, entry 0 this node
  std::uint32_t next_child = 1;  // list index of the next child to send to
  FixedVector<TreeSend, kMaxChannels> pending;
};

struct Job;
struct NodeContext;
struct Received;

Status start_vh(NodeContext& node, Job& job, const MulticastRequest& r);
Status start_diag(NodeContext& node, Job& job, const MulticastRequest& r);
Status start_dds(NodeContext& node, Job& job, const MulticastRequest& r);
Status start_min(NodeContext& node, Job& job, const MulticastRequest& r);
Status receive_tree(NodeContext& node, const Received& m, Job* slot);
std::uint32_t iterate_tree(NodeContext& node, Job& job);
bool issue_tree_send(NodeContext& node, Job& job, std::uint32_t send);

}  // namespace wormcast::fw
