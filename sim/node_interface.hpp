// SPDX-License-Identifier: Apache-2.0
// One node's network interface in a multicast run: the fw::NetworkInterface its firmware sees,
// bound to its router's local channels (docs/firmware.md, "The harness"). Send queues per injection
// channel, the packetizer and the injection credits, the depacketizer and the ejection credits,
// and the processor's start-up costs: alpha per send, gamma per receive, one message at a time.
#pragma once

#include <algorithm>
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
  // decides that flit has no decision and drains the worm (docs/rtl-modules.md, "Drained worms").
  bool unroutable_worm = false;
  // Test-only fault injection: the first drain_ejection returns a credit on ejection port 0 that
  // no flit earned (the ejection-link checker's CreditWithinDepth).
  bool spurious_eject_credit = false;
};

// A routing mode no router implements (reserved, docs/header-format.md).
inline constexpr unsigned kUnroutableMode = 5;

// Its head and injection make the routers replicate the worm onto network channels (docs/rtl.md,
// "CPR control field"): a CPR line worm with cf = 11 (deliver and pass) whose line runs along Y on a
// 2D mesh or torus with more than one column enters its next router on a Y port, which spawns the
// row's ±X branches. The monitor's classification for the replication lock's invariant (an
// assertion, never a gate: the firmware's lock decides when such a worm goes).
bool replicates_onto_network(const model::Topology& topology, model::NodeId sender, const wire::HeadFields& head);

// ------------------------------------------------------------------------------------------------
// The NI's packetizer, injection credits and depacketizer, the parts of NodeInterface that the RTL
// network interface (rtl/noc_ni.sv) implements. Header-only, so that verif/rtl/ni_test.cpp runs
// the RTL against exactly this code without linking the co-simulation library.

// The flits of a message (NodeInterface::send): its header flits (the head, then the head's `more`
// address flits), then its payload words; head = 1 on the first flit, tail = 1 on the last.
inline std::vector<wire::Flit> packetize(const std::uint64_t* header, std::uint32_t header_flits,
                                         const std::uint64_t* payload, std::uint32_t words) {
  std::vector<wire::Flit> flits;
  for (std::uint32_t i = 0; i < header_flits; ++i) {
    flits.push_back({i == 0, words == 0 && i + 1 == header_flits, header[i]});
  }
  for (std::uint32_t i = 0; i < words; ++i) flits.push_back({false, i + 1 == words, payload[i]});
  return flits;
}

// The NI's copy of a worm the firmware sends (fw::OutgoingWorm): its header flits, asked of the
// firmware's generator one at a time in order, and its payload gathered from the three spans.
struct CopiedWorm {
  std::vector<std::uint64_t> header, payload;
};
inline CopiedWorm copy_worm(const fw::OutgoingWorm& worm) {
  CopiedWorm c;
  c.header.reserve(worm.header->count());
  for (std::uint32_t i = 0; i < worm.header->count(); ++i) c.header.push_back(worm.header->flit(i));
  c.payload.reserve(worm.payload_words());
  for (std::uint32_t i = 0; i < worm.payload_words(); ++i) c.payload.push_back(worm.payload_word(i));
  return c;
}

// The VC a worm travels in from its injection: class mod the router's VCs, as the routers map
// every class (docs/rtl.md "VC-class plan"; VC counts are powers of two).
inline unsigned injection_vc(const wire::HeadFields& head, unsigned vcs) { return head.vc_class & (vcs - 1u); }

// One injection channel's credits, per VC of its router input port (NodeInterface::inject):
// kRouterDepth each after reset.
class InjectionCredits {
 public:
  explicit InjectionCredits(unsigned vcs = 1) : vcs_(std::min(vcs, kMaxRouterVcs)) {
    counts_.fill(0);
    std::fill_n(counts_.begin(), vcs_, static_cast<int>(kRouterDepth));
  }
  // The credits the router returned this cycle (bit v: VC v): they count for this cycle's flit.
  void add(std::uint32_t bits) {
    for (unsigned v = 0; v < vcs_; ++v) counts_[v] += (bits >> v) & 1;
  }
  // A flit may go on VC vc: takes one of its credits if it has one.
  bool take(unsigned vc) {
    if (counts_[vc] == 0) return false;
    --counts_[vc];
    return true;
  }
  int count(unsigned vc) const { return counts_[vc]; }

 private:
  unsigned vcs_;
  std::array<int, kMaxRouterVcs> counts_;
};

// One ejection port (NodeInterface::take_ejected, drain_ejection): the flits the router ejected
// and the NI has not taken yet (the port's one credit pool, kRouterDepth flits), and the
// depacketizer: the flits of the current worm of every stream (eject_stream_o, the router input VC
// a flit comes from; flits of different worms interleave per flit).
class EjectionPort {
 public:
  // What take() did.
  enum class Taken {
    kNone,       // nothing was held
    kPart,       // a head or body flit joined its stream's worm
    kWhole,      // the tail joined it: worm(stream()) is the whole worm (until cleared)
    kMisplaced,  // a head inside a worm, or a body flit outside one: dropped
  };

  // A flit the router ejected this cycle. False when the port already held kRouterDepth flits (the
  // router spent a credit it did not have); the flit is held all the same.
  bool hold(const Link& link) {
    const bool fits = held_.size() < kRouterDepth;
    held_.push_back({link.flit, link.stream});
    return fits;
  }
  // Takes the oldest held flit, if any, into its stream's worm; each flit taken (misplaced or not)
  // returns one credit to the router. corrupt_tail: test-only fault, flips bit 0 of a tail that is
  // not a head.
  Taken take(bool corrupt_tail = false) {
    if (held_.empty()) return Taken::kNone;
    flit_ = held_.front().flit;
    stream_ = held_.front().stream;
    held_.pop_front();
    std::vector<wire::Flit>& got = worms_[stream_];
    if (flit_.head != got.empty()) return Taken::kMisplaced;
    if (flit_.tail && !flit_.head && corrupt_tail) flit_.data ^= 1;
    got.push_back(flit_);
    return flit_.tail ? Taken::kWhole : Taken::kPart;
  }
  // The flit the last take() took, and its stream.
  const wire::Flit& flit() const { return flit_; }
  unsigned stream() const { return stream_; }
  // The flits of stream s's current worm.
  std::vector<wire::Flit>& worm(unsigned s) { return worms_[s]; }
  // Every stream's current worm, by stream.
  const std::map<unsigned, std::vector<wire::Flit>>& worms() const { return worms_; }
  // Flits ejected and not taken yet.
  std::size_t held() const { return held_.size(); }

 private:
  struct Held {
    wire::Flit flit;
    unsigned stream = 0;
  };
  std::deque<Held> held_;
  std::map<unsigned, std::vector<wire::Flit>> worms_;
  wire::Flit flit_;
  unsigned stream_ = 0;
};

// One ejection stall draw, uniform in [0, 1): exactly one call of the engine, the value
// std::uniform_real_distribution<double> gives from one 64-bit draw in libstdc++ (which these runs
// drew before: the same runs), written out so that skipping a node can discard its draws.
inline double ejection_stall_draw(std::mt19937_64& rng) {
  const double u = static_cast<double>(rng()) * 0x1p-64;
  return u < 1.0 ? u : 0x1.fffffffffffffp-1;  // rounding can give 1.0: the largest double below it
}

// A whole worm as the receiver reads it: the head, and the payload after its `more` address flits
// (docs/header-format.md).
struct Depacketized {
  wire::HeadFields head;
  std::vector<std::uint64_t> payload;
};
inline Depacketized depacketize(const std::vector<wire::Flit>& worm) {
  Depacketized d;
  d.head = wire::unpack_head(worm.front().data);
  for (std::size_t i = 1 + d.head.more; i < worm.size(); ++i) d.payload.push_back(worm[i].data);
  return d;
}

// ------------------------------------------------------------------------------------------------

class NodeInterface final : public fw::NetworkInterface {
 public:
  NodeInterface(NetworkMonitor& monitor, const model::Topology& topology, const long& cycle, model::NodeId id,
                unsigned channels, unsigned vcs, NodeTiming timing);

  unsigned channels() const override { return static_cast<unsigned>(queues_.size()); }
  bool can_send(unsigned k) const override;
  bool send(unsigned k, const fw::OutgoingWorm& worm) override;
  void deliver(std::uint32_t multicast, const std::uint64_t* data, std::uint32_t words) override;
  std::uint64_t cycle() const override { return static_cast<std::uint64_t>(cycle_); }

  fw::NodeFirmware firmware;
  // The data each multicast carries, for the delivery check (indexed by multicast).
  const std::vector<std::vector<std::uint64_t>>* data = nullptr;

  // Per cycle, in this order: the flits its router ejected, the ejection credits for the router,
  // the processor, then each injection channel's flit. A node that is not busy() may skip the
  // last three for add_injection_credits (docs/timing.md, "Event-driven node interface"): they
  // would change nothing else.
  void take_ejected(unsigned local, const Link& link);
  // With stall > 0, draws exactly channels() numbers from rng (one per ejection port, in port
  // order, whether or not the port holds a flit: one engine call each, ejection_stall_draw), so a
  // caller that skips the node keeps the sequence by discarding channels() draws.
  std::uint32_t drain_ejection(std::mt19937_64& rng, double stall);
  void run_processor();
  // Channel k's next flit, if its message's start-up is over and its VC has a credit.
  bool inject(unsigned k, Link& out, std::uint32_t credit_bits);
  // What a cycle does to a node that is not busy() instead of the calls above: the credits its
  // router returned to injection channel k this cycle (bit v: VC v) count for its next flits.
  void add_injection_credits(unsigned k, std::uint32_t credit_bits) { credits_[k].add(credit_bits); }
  // A send start-up or a receive is in progress (the watchdog's "processor working").
  bool working() const;
  // Something is held, queued, received or in progress: a node that is not busy does nothing in a
  // cycle until a flit is ejected to it or its firmware is given a multicast (docs/timing.md,
  // "Event-driven node interface"). working() implies busy().
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
  void message_complete(unsigned local, unsigned stream);
  void present(Received r);

  NetworkMonitor& monitor_;
  const model::Topology& topology_;
  const long& cycle_;
  model::NodeId id_;
  NodeTiming timing_;
  std::vector<std::deque<Outgoing>> queues_;
  unsigned vcs_;                           // the router's VCs per port
  std::vector<InjectionCredits> credits_;  // per injection channel
  std::vector<long> channel_free_;
  // Ejection, per local port: the flits the router delivered (at most kRouterDepth: one credit
  // pool per port, returned on VC 0) and the depacketizer per ejection stream.
  std::vector<EjectionPort> eject_;
  std::deque<Received> received_;
  // Received messages the firmware could not take yet (every job busy), oldest first: kept until a
  // job frees, never dropped (docs/firmware.md, "The job limit").
  std::deque<Received> held_;
  bool processing_ = false;
  long processor_ready_ = 0;
  bool unroutable_sent_ = false;
  bool spurious_credit_sent_ = false;
};

}  // namespace wormcast::sim
