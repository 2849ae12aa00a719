// SPDX-License-Identifier: Apache-2.0
// The CPR line broadcasts ([3], Fig. 2; [4], Section 3.2): PCP on 2D meshes and 3-DBS on 3D meshes. cf = 11 worms
// run to the ends of lines and every router they pass delivers a copy (PCP's spine branches are
// the router's); a 3-DBS node a line reaches sends lines along every higher dimension. The row
// handlers of firmware/algorithm_table.hpp.
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

// A line worm along dimension `dim` to the line's end node.
struct CprLine {
  std::uint8_t channel = 0;
  std::uint32_t end = 0;
  std::uint8_t dim = 0;
};

struct CprJob {
  std::uint8_t first_dim = 0;  // lines along this dimension and the higher ones
  bool sent = false;           // all of them go in one step
  FixedVector<CprLine, kMaxChannels> pending;
};

Status check_pcp(const Grid& g, std::uint32_t self, const MulticastRequest& r);
Status check_three_dbs(const Grid& g, std::uint32_t self, const MulticastRequest& r);
Status start_lines(NodeContext& node, Job& job, const MulticastRequest& r);
Status receive_pcp(NodeContext& node, const Received& m, Job* slot);
Status receive_three_dbs(NodeContext& node, const Received& m, Job* slot);
std::uint32_t iterate_lines(NodeContext& node, Job& job);
bool issue_line(NodeContext& node, Job& job, std::uint32_t send);

}  // namespace wormcast::fw
