// SPDX-License-Identifier: Apache-2.0
// Every algorithm the firmware runs, one row each: its name (the model's, docs/algorithms.md), its
// wire id, what it accepts, and the handlers the node's state machine (firmware/node_firmware.cpp)
// dispatches to. Rows are in name order.
//
// For the harness: find_algorithm("two-port") is the row of a name (nullptr: no such algorithm);
// algorithm_rows() iterates all of them in name order, e.g. to list the supported names.
#pragma once

#include <cstddef>
#include <cstdint>

#include "firmware/broadcast_baselines.hpp"
#include "firmware/cpr_broadcast.hpp"
#include "firmware/message.hpp"
#include "firmware/network.hpp"
#include "firmware/node_types.hpp"
#include "firmware/path_multicast.hpp"
#include "firmware/tree_multicast.hpp"
#include "firmware/unicast_multicast.hpp"
#include "firmware/xy_path.hpp"

namespace wormcast::fw {

struct AlgorithmRow {
  const char* name;
  Algorithm id;
  bool broadcast;       // the destinations must be every other node
  bool on_star_graphs;  // runs on star graphs too (only the cycle-routed ones do)
  // A request naming every other node runs without a list, on any network (its worms take label
  // ranges: lin, dual-path, 3dbl); other requests list their destinations (kMaxChain).
  bool broadcast_unlisted;
  // The request's port count and the topology, beyond what every algorithm checks (nullptr: any).
  Status (*check)(const Grid& grid, std::uint32_t self, const MulticastRequest& request);
  // The source's plan into job.state (the job's common fields and data are set).
  Status (*start)(NodeContext& node, Job& job, const MulticastRequest& request);
  // A message of this algorithm arrived (control words decoded and sized): check it, deliver if
  // this node is a destination; to send on, fill `slot` (a reset free job whose row is this one)
  // and set its `active`. When the message needs a job and `slot` is nullptr (every job busy), it
  // returns kNoFreeJob having done nothing, no delivery either: the message is held and presented
  // again (docs/firmware.md, "The job limit").
  Status (*receive)(NodeContext& node, const Received& message, Job* slot);
  // Fills the sends of step job.step (a handler may move job.step on); their count, 0 when done.
  std::uint32_t (*iterate)(NodeContext& node, Job& job);
  // Queues send `send` of the current step; false, and nothing sent, when its channel is full.
  bool (*issue)(NodeContext& node, Job& job, std::uint32_t send);
};

inline constexpr AlgorithmRow kAlgorithmRows[] = {
    {"3dbl", Algorithm::kThreeDbl, false, false, true, check_three_dbl, start_three_dbl, receive_three_dbl,
     iterate_path, issue_path_worm},
    {"3dbs", Algorithm::kThreeDbs, true, false, false, check_three_dbs, start_lines, receive_three_dbs, iterate_lines,
     issue_line},
    {"d-port", Algorithm::kDPort, false, false, false, check_d_port, start_chain, receive_chain, iterate_d_port,
     issue_chain_send},
    {"dds", Algorithm::kDds, false, false, false, nullptr, start_dds, receive_tree, iterate_tree, issue_tree_send},
    {"diag", Algorithm::kDiag, false, false, false, nullptr, start_diag, receive_tree, iterate_tree, issue_tree_send},
    {"dual-path", Algorithm::kDualPath, false, false, true, check_lin, start_dual_path, receive_path_copy, iterate_path,
     issue_path_worm},
    {"edn", Algorithm::kEdn, true, false, false, check_edn, start_edn, receive_edn, iterate_edn, issue_edn},
    {"fixed", Algorithm::kFixed, false, true, false, check_cycle, start_fixed, receive_cycle_copy, iterate_path,
     issue_path_worm},
    {"hp-dual-path", Algorithm::kHpDualPath, false, true, false, check_hp_dual_path, start_hp_dual_path,
     receive_cycle_copy, iterate_path, issue_path_worm},
    // lin from a source off label 0 is dual-path (docs/algorithms.md).
    {"lin", Algorithm::kLin, false, false, true, check_lin, start_dual_path, receive_path_copy, iterate_path,
     issue_path_worm},
    {"min", Algorithm::kMin, false, false, false, nullptr, start_min, receive_tree, iterate_tree, issue_tree_send},
    {"multi-path", Algorithm::kMultiPath, false, false, false, check_multi_path, start_multi_path, receive_path_copy,
     iterate_path, issue_path_worm},
    {"np-d", Algorithm::kNpD, true, false, false, check_npd, start_npd, receive_npd, iterate_npd, issue_npd},
    {"one-port", Algorithm::kOnePort, false, false, false, check_one_port, start_chain, receive_chain, iterate_one_port,
     issue_chain_send},
    {"pcp", Algorithm::kPcp, true, false, false, check_pcp, start_lines, receive_pcp, iterate_lines, issue_line},
    {"rd", Algorithm::kRecursiveDoubling, true, false, false, check_rd, start_rd, receive_rd, iterate_rd, issue_rd},
    {"two-port", Algorithm::kTwoPort, false, false, false, check_two_port, start_chain, receive_chain, iterate_two_port,
     issue_chain_send},
    {"unicast", Algorithm::kUnicast, false, false, false, check_unicast, start_chain, receive_chain, iterate_unicast,
     issue_chain_send},
    {"uniform", Algorithm::kUniform, false, true, false, check_cycle, start_uniform, receive_cycle_copy, iterate_path,
     issue_path_worm},
    {"vh", Algorithm::kVh, false, false, false, nullptr, start_vh, receive_tree, iterate_tree, issue_tree_send},
    {"xy-path", Algorithm::kXyPath, false, false, false, check_xy_path, start_xy_path, receive_xy_copy, iterate_xy_path,
     issue_xy_worm},
    {"xy-path-x-first", Algorithm::kXyPathXFirst, false, false, false, check_xy_path, start_xy_path_x_first,
     receive_xy_copy, iterate_xy_path, issue_xy_worm},
};

struct AlgorithmRows {
  constexpr const AlgorithmRow* begin() const { return kAlgorithmRows; }
  constexpr const AlgorithmRow* end() const { return kAlgorithmRows + sizeof kAlgorithmRows / sizeof *kAlgorithmRows; }
  constexpr std::size_t size() const { return sizeof kAlgorithmRows / sizeof *kAlgorithmRows; }
};

// All rows in name order: for (const AlgorithmRow& row : algorithm_rows()) ...
constexpr AlgorithmRows algorithm_rows() { return {}; }

// The algorithms whose source plans over a table of every node of the network (the tree builder's
// and XY-path's partition tables, kMaxGridNodes entries): on a larger network they answer
// Status::kNetworkTooLarge.
constexpr bool plans_over_grid(Algorithm id) {
  return id == Algorithm::kVh || id == Algorithm::kDiag || id == Algorithm::kDds || id == Algorithm::kMin ||
         id == Algorithm::kXyPath || id == Algorithm::kXyPathXFirst;
}

// strcmp for the freestanding build: < 0, 0, > 0.
constexpr int compare_names(const char* a, const char* b) {
  for (; *a != '\0' && *a == *b; ++a, ++b) {
  }
  return static_cast<int>(static_cast<unsigned char>(*a)) - static_cast<int>(static_cast<unsigned char>(*b));
}

// The row named `name` (a NUL-terminated model name such as "two-port"); nullptr when none is.
constexpr const AlgorithmRow* find_algorithm(const char* name) {
  if (name == nullptr) return nullptr;
  for (const AlgorithmRow& row : algorithm_rows()) {
    if (compare_names(row.name, name) == 0) return &row;
  }
  return nullptr;
}

// The row of wire id `id`; nullptr for an id no row has (a payload's unknown algorithm).
constexpr const AlgorithmRow* find_algorithm(Algorithm id) {
  for (const AlgorithmRow& row : algorithm_rows()) {
    if (row.id == id) return &row;
  }
  return nullptr;
}

// One row per wire id, in name order.
constexpr bool rows_hold_together() {
  if (algorithm_rows().size() != kAlgorithmCount) return false;
  for (unsigned id = 0; id < kAlgorithmCount; ++id) {
    if (find_algorithm(static_cast<Algorithm>(id)) == nullptr) return false;
  }
  for (std::size_t i = 1; i < algorithm_rows().size(); ++i) {
    if (compare_names(kAlgorithmRows[i - 1].name, kAlgorithmRows[i].name) >= 0) return false;
  }
  return true;
}
static_assert(rows_hold_together(), "kAlgorithmRows: one row per Algorithm id, names strictly in order");

}  // namespace wormcast::fw
