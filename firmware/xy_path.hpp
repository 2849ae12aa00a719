// SPDX-License-Identifier: Apache-2.0
// XY-path ([5], Algorithms 3.3.1-3.3.2) from a corner of a 2D mesh: the source partitions the mesh into an X path
// (along rows) and a Y path (along columns), Y-first (the published example) or X-first (the
// pseudo-code), and sends one source-routed worm (mode 4) along each path that holds destinations,
// with a deliver bit at each. Receivers only deliver. The row handlers of
// firmware/algorithm_table.hpp.
#pragma once

#include <cstdint>

#include "firmware/fixed_vector.hpp"
#include "firmware/fw_config.hpp"
#include "firmware/network.hpp"
#include "firmware/node_types.hpp"

namespace wormcast::fw {

struct Job;
struct NodeContext;
struct Received;

// The source's partition: each node's path (0 none, 1 X, 2 Y, 3 the source on both; plus
// kXyDestination while a plan marks the request's destinations) and label on it, and the nodes in
// the order the partition took them (each path's in label order).
struct XyPartition {
  std::uint8_t path[kMaxGridNodes]{};
  std::uint16_t label[kMaxGridNodes]{};
  std::uint16_t order[kMaxGridNodes]{};
  std::uint32_t taken = 0;  // order[0 .. taken)
};
inline constexpr std::uint8_t kXyDestination = 4;

// A route node of XyPathJob::route: the node id, and kXyDeliver when it is a destination.
inline constexpr std::uint32_t kXyDeliver = 1u << 31;

// One path's worm: its route's nodes after the source route[route_first .. route_first + hops),
// the last one its last destination, leaving on first_port.
// (No member initializers: GCC 12 fails internally on resetting a job's state with them.)
struct XyWorm {
  std::uint32_t route_first, hops;
  std::uint8_t first_port;
  std::uint8_t vc_class;  // wire::kXyClass*: the path and the corner it starts from
};

// Both routes. A route visits a node at most once and the two paths share only the source, so
// the routes hold fewer nodes than the network: sized by kMaxGridNodes, whatever the destination
// count.
struct XyPathJob {
  FixedVector<std::uint32_t, kMaxGridNodes> route;
  XyWorm worms[2];
  std::uint8_t worm_count = 0;
};

Status check_xy_path(const Grid& g, std::uint32_t self, const MulticastRequest& r);
Status start_xy_path(NodeContext& node, Job& job, const MulticastRequest& r);          // Y first
Status start_xy_path_x_first(NodeContext& node, Job& job, const MulticastRequest& r);  // X first
Status receive_xy_copy(NodeContext& node, const Received& m, Job* slot);
std::uint32_t iterate_xy_path(NodeContext& node, Job& job);
bool issue_xy_worm(NodeContext& node, Job& job, std::uint32_t send);

}  // namespace wormcast::fw
