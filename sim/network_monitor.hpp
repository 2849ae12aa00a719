// SPDX-License-Identifier: Apache-2.0
// The monitor of a multicast run (docs/firmware.md, "The harness"): follows every worm's heads over
// the links from the cycle its sender's NI injects it (one position per branch: PCP's spine routers
// send the spine and its row branches under one src and tag), records its links, its ejected copies
// and the deliveries into the RunRecord, knows which worms are still in the network, and derives
// each worm's step from causality, never from its payload (docs/firmware.md, "Scoreboard").
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "firmware/noc_wire_format.hpp"
#include "model/labeling.hpp"
#include "model/topology.hpp"
#include "sim/rtl_router.hpp"
#include "sim/run_record.hpp"

namespace wormcast::sim {

class NetworkMonitor {
 public:
  NetworkMonitor(const model::Topology& topology, const model::HamiltonianLabeling& labels);

  const RunRecord& record() const { return record_; }
  RunRecord& record() { return record_; }
  // A protocol error (the first few are kept).
  void error(std::string message);

  // --- What the network interfaces report ---
  // The firmware of `sender` queued a message on injection channel `channel`: registers its worm
  // (multicast, step and sequence from the payload, the node its header addresses, its derived
  // step) and returns its index in RunRecord::worms.
  int worm_sent(model::NodeId sender, unsigned channel, const std::uint64_t* header, std::uint32_t header_flits,
                const std::uint64_t* payload, std::uint32_t words, bool replicates, long cycle);
  // The worm's head entered its sender's router on input `port` (a local one), VC `vc`: from now
  // on the monitor looks for it there. A replicating worm's head asserts the replication lock's
  // invariant (RunRecord::violations). Not when it is queued: a source queues more worms than its
  // 4-bit tags tell apart (separate addressing's broadcast queues 32 on 4 channels), and only the
  // injected ones are at the router.
  void head_injected(int worm, model::NodeId sender, unsigned port, unsigned vc, long cycle);
  // Node `node` took in the whole copy of the worm from `src` with this sequence number: returns
  // the worm (-1, with an error, when no copy the monitor followed there matches).
  int copy_taken_in(model::NodeId node, model::NodeId src, std::uint32_t sequence, long cycle);
  // The firmware of `node` received the message of `worm` (on_message_received): its later sends
  // of that multicast are caused by it (a replication-lock message causes no step).
  void message_received(model::NodeId node, int worm);
  void delivered(const Delivery& delivery) { record_.deliveries.push_back(delivery); }

  // --- What the routers' registered outputs show, per router: ejection ports, then network ports,
  // then router_read ---
  void ejection_output(model::NodeId r, const Link& link, long cycle);
  void network_output(model::NodeId r, unsigned port, const Link& link, long cycle);
  void router_read(model::NodeId r);
  // Router r drained a worm whose head had no route decision, on input `port`, VC `vc` (-1: not
  // known), at the clock edge of `cycle` (docs/rtl-modules.md, "Drained worms"): records a RouteDrop with
  // the worm whose head entered there, and the worm's head is gone from r. Returns the drop's
  // index in RunRecord::route_drops.
  int route_drop(model::NodeId r, int port, int vc, long cycle);

  // No head of any worm is left in the network.
  bool network_empty() const { return live_.empty(); }
  // Every worm not yet taken in whole by its receiver, with where its head is.
  std::string unfinished_worms() const;

 private:
  // The live worms at router `at` this head can be (`stream`: the input VC an ejection port names,
  // Link::stream, -1 on a network port): the one it is, or on a network port several that only
  // the payload's sequence number tells apart (open_pending).
  std::vector<int> find_worms(model::NodeId at, const wire::Flit& head, int stream);
  // The one worm the head is (-1, with an error, when none or several are).
  int find_worm(model::NodeId at, const wire::Flit& head, int stream, const char* where, long cycle);
  // The worm `id` names: a followed worm (id >= 0) or a head not yet named (a pending id < 0).
  ObservedWorm& observed(int id);
  // A head left router r on output (port, vc) and several live worms of its source there carry its
  // tag: it is followed as a pending worm until the payload's sequence word crosses that output.
  int open_pending(const std::vector<int>& candidates, model::NodeId r, unsigned port, const Link& link);
  // A body flit on router r's output (port, vc): the sequence word of a pending worm names it.
  void pending_flit(model::NodeId r, unsigned port, const Link& link, long cycle);
  // The pending worm `id` is `worm`: what was observed of it moves there.
  void name_pending(int id, int worm);
  void decode_source_route(ObservedWorm& w, const std::uint64_t* header, std::uint32_t flits);
  model::NodeId addressed(const wire::HeadFields& head) const;
  // A copy ejected at router r with this head is the last one of its branch there.
  bool final_copy(const wire::HeadFields& head, model::NodeId r) const;
  void left_router(int worm, model::NodeId r);
  int derive_step(model::NodeId sender, int multicast, unsigned channel, int claimed_step);

  model::Topology topology_;
  const model::HamiltonianLabeling& labels_;
  unsigned router_vcs_;  // VCs per port of every router of the topology: decodes an ejection's stream
  RunRecord record_;
  // worm -> the routers holding one of its heads: one for a plain worm, one per branch of a worm
  // the routers replicate (PCP's spine spawns +-X branches under the spine's src and tag).
  std::map<int, std::multiset<model::NodeId>> live_;
  // (worm, router) -> the input port and VC its head entered the router on, and when (a count of
  // entries: a VC is a FIFO, so of the worms still at r that entered one VC the first is at its front).
  struct Entry {
    unsigned port = 0, vc = 0;
    long order = 0;
  };
  std::map<std::pair<int, model::NodeId>, Entry> entered_;
  // worm -> its header is one head flit whose address no router rewrites (no address flits to
  // promote, no CPR line, no source route, no replication): the address names the worm.
  std::vector<bool> single_address_;
  long entries_ = 0;
  std::set<int> departed_;  // worms whose heads left the router being read this cycle
  std::set<int> absorbed_;  // worms whose last copy at that router was ejected this cycle
  // Causality: (node, multicast) -> per step its payloads claimed, the largest derived step of the
  // worms its firmware received; (node, multicast, channel) -> the derived step of its last worm
  // sent there.
  std::map<std::pair<model::NodeId, int>, std::map<int, int>> received_step_;
  std::map<std::tuple<model::NodeId, int, unsigned>, int> channel_step_;
  // Tags repeat every 16 sends of a source, so a head can leave a router while several live worms
  // there carry its (src, tag) at the fronts of their input VCs. It is then followed under a
  // pending id (negative) until its payload's word 1, with the full 20-bit sequence number,
  // crosses the same output VC (wormhole: the worm holds it from head to tail) and names it.
  struct Pending {
    ObservedWorm seen;  // its sender, its tag as the sequence, and what is observed until named
    std::vector<int> candidates;
    model::NodeId from = model::kNoNode;  // the router it left
    std::uint32_t flits = 0;              // of it on that output so far
    std::uint32_t sequence_flit = 0;      // index of payload word 1 there: 2 + the head's `more`
  };
  std::map<int, Pending> pending_;
  std::map<std::tuple<model::NodeId, unsigned, unsigned>, int> pending_outputs_;  // (router, port, VC) -> id
  int next_pending_ = -2;
};

}  // namespace wormcast::sim
