// The software of one node: the source side and the relay side of the unicast-based multicasts
// (docs/firmware.md). An event-driven state machine: the harness (or a real node's interrupt
// handlers) calls on_start_multicast, on_message_received and on_channel_free; each call advances
// the node's multicasts as far as the NI's send queues allow and returns. No heap, no exceptions:
// every buffer is sized by fw_config.hpp and every error is a Status.
#pragma once

#include <cstddef>
#include <cstdint>

#include "firmware/edn_broadcast.hpp"
#include "firmware/fixed_vector.hpp"
#include "firmware/fw_config.hpp"
#include "firmware/message.hpp"
#include "firmware/multicast_tree.hpp"
#include "firmware/network.hpp"
#include "firmware/network_interface.hpp"
#include "firmware/noc_wire_format.hpp"

namespace wormcast::fw {

enum class Status : std::uint8_t {
  kOk,
  kBadConfig,             // init: node outside the grid, no channel, a size out of range
  kNotInitialized,        // an event before init
  kUnsupportedAlgorithm,  // an algorithm id this firmware does not implement
  kUnsupportedTopology,   // rd or vh on a torus
  kBadPortCount,          // the port count does not suit the algorithm or exceeds the channels
  kBadDestinations,       // none, repeated, outside the grid, the source itself; rd: not a broadcast
  kTooManyDestinations,   // more than kMaxChain - 1
  kTooMuchData,           // more than kMaxDataWords
  kNoFreeJob,             // already serving kMaxJobs multicasts
  kBadMessage,            // a payload that does not decode or does not name this node
  kNetworkTooLarge,       // a tree source's network exceeds kMaxGridNodes
};

const char* to_string(Status status);

struct NodeConfig {
  Grid grid;
  std::uint32_t node = 0;  // own id
};

// What the application asks the source to multicast.
struct MulticastRequest {
  Algorithm algorithm = Algorithm::kUnicast;
  std::uint8_t ports = 1;       // d of the port model
  std::uint16_t multicast = 0;  // id the application chose, carried in every message
  const std::uint32_t* destinations = nullptr;
  std::uint32_t count = 0;
  const std::uint64_t* data = nullptr;
  std::uint32_t words = 0;
  // All-port node: one injection channel per network direction (channel = network port); a
  // path-based worm leaves on the channel of its first hop.
  bool all_port = false;
};

// A path worm without a source-routed prefix (Send::prefix_port, PathWorm::row_port).
inline constexpr std::uint8_t kNoPrefixPort = 0xFF;

class NodeFirmware {
 public:
  Status init(const NodeConfig& config, NetworkInterface* ni);
  Status on_start_multicast(const MulticastRequest& request);
  Status on_message_received(const wire::HeadFields& head, const std::uint64_t* payload, std::uint32_t words);
  // A send queue has room again: retry the sends that waited for it.
  void on_channel_free();
  // No multicast has sends left to issue.
  bool idle() const;

 private:
  // One unicast of the current step: its channel, receiver and address field (chain indices).
  struct Send {
    std::uint8_t channel = 0;
    std::uint32_t receiver = 0;  // chain index (rd, vh: node id)
    std::uint32_t first = 0;     // address field: chain[first .. first + count)
    std::uint32_t count = 0;
    std::uint32_t rd_lo = 0, rd_hi = 0;                // rd: the receiver's segment
    std::uint8_t prefix_port = kNoPrefixPort;          // path worms: a first hop the routing function would not take
    bool high = false;                                 // path worms: the high channel network
    std::uint32_t addr_first = 0, addr_count = 0;      // path worms: payload address field chain[first ..)
    EdnRegion edn_region{};                            // edn: the receiver's region, its step-2 forwards,
    std::uint8_t edn_forward = 0, edn_forward_yx = 0;  // and this worm's route (YX or XY)
    bool yx = false;
  };

  // One multidestination worm of a path-based source: chain[first .. first + count).
  // (No member initializers: GCC 12 fails internally on `*slot = Job{}` with them.)
  struct PathWorm {
    std::uint32_t first, count;
    bool high;
    std::uint8_t row_port;                 // multi-path row worm: injected into this row channel; else kNoPrefixPort
    std::uint32_t addr_first, addr_count;  // 3-DBL column worm: its layers' destinations (payload)
  };

  struct Job {
    bool active = false;
    Algorithm algorithm = Algorithm::kUnicast;
    std::uint8_t ports = 1;
    bool all_port = false;
    std::uint16_t multicast = 0;
    std::uint32_t origin = 0;
    std::uint32_t step = 1;                       // step of the next iteration's sends
    FixedVector<std::uint32_t, kMaxChain> chain;  // label-sorted node ids; trees: the carried tree list
    std::uint32_t base = 0, m = 0, s = 0;         // two-/d-port window chain[base .. base+m], own index s
    std::uint32_t lo = 0, hi = 0;                 // one-port block; rd segment [lo, hi)
    std::uint32_t next = 0;                       // unicast: sends issued so far; trees: chain index of the next child
    std::uint8_t dim = 0;                         // rd: current dimension
    PathWorm worms[4]{};                          // path-based: the worms in sending order
    std::uint8_t worm_count = 0;
    std::uint32_t first_step = 1;  // path-based: the step of the holder's first worms
    // edn: the phase (0 the source's step 1, 1 step 2, 2 covering), the source's steps 1-2, the
    // step-2 forwards of a top EDN reached in step 1, the region still to cover and its step.
    std::uint8_t edn_phase = 0;
    EdnTopSend edn_top[4]{};
    std::uint8_t edn_top_count = 0;
    std::uint8_t edn_forward = 0, edn_forward_yx = 0;
    EdnRegion edn_region{};
    std::uint32_t edn_cover_step = 0;
    FixedVector<std::uint64_t, kMaxDataWords> data;
    FixedVector<Send, kMaxChannels> pending;  // this step's sends
    std::size_t issued = 0;                   // of pending
  };

  Job* free_job();
  void sort_chain(Job& job) const;
  void pump();
  bool next_iteration(Job& job);
  void iterate_unicast(Job& job);
  void iterate_one_port(Job& job);
  void iterate_d_port(Job& job);
  bool iterate_recursive_doubling(Job& job);
  void iterate_carried_tree(Job& job);
  void iterate_path(Job& job);
  void iterate_lines(Job& job);
  std::uint32_t sort_from_source(Job& job) const;
  static void set_high_low(Job& job, std::uint32_t h);
  void split_dual_path(Job& job) const;
  void split_multi_path(Job& job) const;
  void split_cycle_dual_path(Job& job) const;
  Status plan_three_dbl(Job& job, const std::uint32_t* destinations, std::uint32_t count) const;
  Status plan_xy_path(Job& job, const std::uint32_t* destinations, std::uint32_t count);
  bool issue_source_routed(Job& job, const Send& send);
  bool iterate_edn(Job& job);
  void push_edn_top_sends(Job& job, std::uint8_t step);
  Status receive_edn(const wire::HeadFields& head, const MessageInfo& info, const std::uint64_t* data);
  bool issue_edn(Job& job, const Send& send);
  std::uint8_t cycle_first_hop_port(std::uint32_t destination, bool high) const;
  std::uint8_t first_hop_port(std::uint32_t destination, bool high) const;
  bool issue(Job& job, const Send& send);
  // The control fields every message of `job` carries (the caller adds the per-send ones).
  MessageInfo job_info(const Job& job) const;
  std::uint32_t rd_base(std::uint8_t dim) const;

  NodeConfig config_{};
  NetworkInterface* ni_ = nullptr;
  std::uint32_t sequence_ = 0;
  Job jobs_[kMaxJobs]{};
  TreeBuilder tree_builder_{};  // VH, DIAG, DDS, MIN at the source
  // XY-path's partition at the source: each node's path (0 none, 1 X, 2 Y) and label on it.
  std::uint8_t xy_path_[kMaxGridNodes]{};
  std::uint16_t xy_label_[kMaxGridNodes]{};
  std::uint64_t header_[kMaxChain + 1]{};  // a worm's header flits (prefix, head, address flits)
  std::uint64_t message_[kControlWords + (kMaxChain + 1) / 2 + kMaxDataWords]{};
};

}  // namespace wormcast::fw
