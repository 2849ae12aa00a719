// SPDX-License-Identifier: Apache-2.0
// One node's network interface in a multicast run: the fw::NetworkInterface its firmware sees,
// bound to its router's local channels (docs/firmware.md, "Harness"). Send queues per injection
// channel, the packetizer and the injection credits, the depacketizer and the ejection credits,
// and the processor's start-up costs: alpha per send, gamma per receive, one message at a time.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "firmware/network_interface.hpp"
#include "firmware/node_firmware.hpp"
#include "model/topology.hpp"
#include "sim/network_monitor.hpp"
#include "sim/rtl_router.hpp"

namespace wormcast::sim {

// What a node's interface is told by the run (sim/multicast_run.hpp's RunOptions, in the NI's terms).
struct NodeTiming {
  long alpha = 0;  // processor cycles per send start-up (per injection channel)
  long gamma = 0;  // processor cycles per receive
  // Test-only fault injection: flip bit 0 of the tail flit of every worm ejected here.
  bool corrupt_tail = false;
  // Test-only fault injection: add one to the step field of every message sent from here.
  bool mislabel_step = false;
  // Test-only fault injection: the first worm sent from here carries the reserved routing mode
  // kUnroutableMode in its last header flit (the head, or the last address flit): the router that
  // decides that flit has no decision and drains the worm (docs/rtl.md, "Drained worms").
  bool unroutable_worm = false;
};

// A routing mode no router implements (reserved, docs/header-format.md).
inline constexpr unsigned kUnroutableMode = 5;

// Its head and injection make the routers replicate the worm onto network channels (docs/rtl.md,
// "CPR control field"): a CPR line worm with cf = 11 (deliver and pass) whose line runs along Y on a
// 2D mesh or torus with more than one column enters its next router on a Y port, which spawns the
// row's ±X branches. The monitor's classification for the replication lock's invariant (an
// assertion, never a gate: the firmware's lock decides when such a worm goes).
bool replicates_onto_network(const model::Topology& topology, model::NodeId sender, const wire::HeadFields& head);

class NodeInterface final : public fw::NetworkInterface {
 public:
  NodeInterface(NetworkMonitor& monitor, const model::Topology& topology, const long& cycle, model::NodeId id,
                unsigned channels, unsigned vcs, NodeTiming timing);

  unsigned channels() const override { return static_cast<unsigned>(queues_.size()); }
  bool can_send(unsigned k) const override;
  bool send(unsigned k, const std::uint64_t* header, std::uint32_t header_flits, const std::uint64_t* payload,
            std::uint32_t words) override;
  void deliver(std::uint32_t multicast, const std::uint64_t* data, std::uint32_t words) override;
  std::uint64_t cycle() const override { return static_cast<std::uint64_t>(cycle_); }

  fw::NodeFirmware firmware;
  // The data each multicast carries, for the delivery check (indexed by multicast).
  const std::vector<std::vector<std::uint64_t>>* data = nullptr;

  // Per cycle, in this order: the flits its router ejected, the ejection credits for the router,
  // the processor, then each injection channel's flit.
  void take_ejected(unsigned local, const Link& link);
  std::uint32_t drain_ejection(std::mt19937_64& rng, double stall);
  void run_processor();
  // Channel k's next flit, if its message's start-up is over and its VC has a credit.
  bool inject(unsigned k, Link& out, std::uint32_t credit_bits);
  // A send start-up or a receive is in progress (the watchdog's "processor working").
  bool working() const;
  bool busy() const;
  std::string state() const;

 private:
  // A message being sent on one injection channel.
  struct Outgoing {
    std::vector<wire::Flit> flits;
    std::size_t next = 0;
    long queued = 0;
    long ready = -1;  // cycle the start-up ends (set when it reaches the front)
    int worm = -1;    // index into RunRecord::worms
  };
  struct Received {
    wire::HeadFields head;
    std::vector<std::uint64_t> payload;
    int worm = -1;
  };
  struct Ejected {
    wire::Flit flit;
    unsigned stream = 0;
  };
  void message_complete(unsigned local, unsigned stream);

  NetworkMonitor& monitor_;
  const model::Topology& topology_;
  const long& cycle_;
  model::NodeId id_;
  NodeTiming timing_;
  std::vector<std::deque<Outgoing>> queues_;
  unsigned vcs_;                                         // the router's VCs per port
  std::vector<std::array<int, kMaxRouterVcs>> credits_;  // per injection channel and VC
  std::vector<long> channel_free_;
  // Ejection: flits the router delivered, per local port and credit VC (at most kRouterDepth each).
  std::vector<std::array<std::deque<Ejected>, kMaxRouterVcs>> eject_;
  std::map<unsigned, std::vector<wire::Flit>> streams_;  // depacketizer, per ejection stream
  std::deque<Received> received_;
  bool processing_ = false;
  long processor_ready_ = 0;
  unsigned next_drain_vc_ = 0;
  bool unroutable_sent_ = false;
};

}  // namespace wormcast::sim
