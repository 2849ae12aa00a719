// SPDX-License-Identifier: Apache-2.0
// The timing model on its own (no RTL, no firmware): the zero-load latency docs/rtl.md states
// ("Latency": 2 cycles per hop including the link, 4 from injection to ejection for one hop, body
// flits one per cycle behind the head), credits, and its parameter errors.
#include "model/timing_router.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <vector>

namespace wormcast::model {
namespace {

// Routers of a mesh wired as docs/rtl-modules.md "Network tops" says: input p of node n is fed by
// output p XOR 1 of its neighbour on port p, and that input's credits go back there.
class Wired {
 public:
  explicit Wired(const Topology& t) : t_(t), routing_(std::make_shared<const TimingRouting>(t)) {
    for (NodeId n = 0; n < t.node_count(); ++n) {
      routers_.push_back(std::make_unique<TimingRouter>(TimingRouterParams{}, routing_, n));
    }
  }
  TimingRouter& at(NodeId n) { return *routers_[static_cast<std::size_t>(n)]; }

  // One cycle: neighbour links and credits, `inject` on node `from`'s local input, every ejected
  // flit credited back at once; returns the ejection outputs of this cycle (before the edge).
  std::vector<TimingLink> cycle(NodeId from, const TimingLink& inject) {
    const unsigned net = static_cast<unsigned>(t_.port_count());
    std::vector<TimingLink> ejected;
    std::vector<std::vector<TimingLink>> out(routers_.size());
    std::vector<std::uint64_t> credits(routers_.size());
    for (std::size_t n = 0; n < routers_.size(); ++n) {
      for (unsigned p = 0; p <= net; ++p) out[n].push_back(routers_[n]->output(p));
      credits[n] = routers_[n]->credits_to_senders();
      ejected.push_back(out[n][net]);
    }
    for (NodeId n = 0; n < t_.node_count(); ++n) {
      TimingRouter& r = at(n);
      std::uint64_t back = out[static_cast<std::size_t>(n)][net].valid ? std::uint64_t{1} << (net * 2) : 0;
      for (unsigned p = 0; p < net; ++p) {
        const NodeId nbr = t_.neighbour(n, static_cast<Port>(p));
        TimingLink in;
        if (nbr != kNoNode) {
          const auto toward = static_cast<unsigned>(t_.reverse_port(static_cast<Port>(p)));
          in = out[static_cast<std::size_t>(nbr)][toward];
          back |= ((credits[static_cast<std::size_t>(nbr)] >> (toward * 2)) & 3u) << (p * 2);
        }
        r.set_input(p, in);
      }
      r.set_input(net, n == from ? inject : TimingLink{});
      r.set_credits_from_receivers(back);
    }
    for (auto& r : routers_) r->clock();
    return ejected;
  }

 private:
  Topology t_;
  std::shared_ptr<const TimingRouting> routing_;
  std::vector<std::unique_ptr<TimingRouter>> routers_;
};

wire::Flit dimension_order_head(const Topology& t, NodeId from, NodeId to, bool tail) {
  wire::HeadFields h;
  h.mode = wire::Mode::kDimensionOrder;
  const Coord c = t.coord(to);
  h.dest = wire::pack_coord_dest({static_cast<std::uint8_t>(c[0]), static_cast<std::uint8_t>(c[1]), 0});
  h.src = static_cast<std::uint32_t>(from);
  return {true, tail, wire::pack_head(h)};
}

// Cycles from the cycle a worm's first flit is on the source's injection link to the cycle each of
// its flits is on the destination's ejection link.
std::vector<long> eject_cycles(const Topology& t, NodeId from, NodeId to, int flits) {
  Wired w(t);
  std::vector<long> cycles;
  for (long c = 0; c < 200 && static_cast<int>(cycles.size()) < flits; ++c) {
    TimingLink in;
    if (c < flits) {
      in.valid = true;
      in.flit = c == 0 ? dimension_order_head(t, from, to, flits == 1) : wire::Flit{false, c + 1 == flits, 7};
    }
    const std::vector<TimingLink> ejected = w.cycle(from, in);
    if (ejected[static_cast<std::size_t>(to)].valid) cycles.push_back(c);
  }
  return cycles;
}

// Per router: the edge that writes the head also decides it; in the next cycle it is granted its
// output VC and the switch and crosses into the link register. One hop passes two routers.
TEST(TimingRouter, ZeroLoadLatencyIsTwoCyclesPerHopAndFourForOneHop) {
  const Topology t = Topology::mesh({4, 4});
  // Hops 1..6 from node 0: along X, then up Y.
  const std::vector<NodeId> dests = {1, 2, 3, 7, 11, 15};
  for (std::size_t h = 0; h < dests.size(); ++h) {
    const std::vector<long> c = eject_cycles(t, 0, dests[h], 1);
    ASSERT_EQ(c.size(), 1u) << "destination " << dests[h];
    EXPECT_EQ(c[0], 4 + 2 * static_cast<long>(h)) << "hops " << h + 1;
  }
  // To itself: through the local router only (routed on arrival; switch to the VC-free ejection
  // port): 2 cycles.
  EXPECT_EQ(eject_cycles(t, 5, 5, 1), std::vector<long>{2});
}

TEST(TimingRouter, BodyFlitsFollowTheHeadOnePerCycle) {
  const Topology t = Topology::mesh({4, 4});
  EXPECT_EQ(eject_cycles(t, 0, 15, 6), (std::vector<long>{14, 15, 16, 17, 18, 19}));  // 6 hops
}

TEST(TimingRouter, CreditsComeBackOneCycleAfterTheFlitLeavesTheBuffer) {
  const Topology t = Topology::mesh({4, 4});
  Wired w(t);
  TimingLink head;
  head.valid = true;
  head.flit = dimension_order_head(t, 5, 6, true);
  w.cycle(5, head);  // edge 0: buffered and routed; 1: output VC and switch, popped
  EXPECT_EQ(w.at(5).credits_to_senders(), 0u);
  w.cycle(5, {});
  // The local input (port 4), VC 0: bit 4 * 2.
  EXPECT_EQ(w.at(5).credits_to_senders(), std::uint64_t{1} << 8);
  w.cycle(5, {});
  EXPECT_EQ(w.at(5).credits_to_senders(), 0u);
}

TEST(TimingRouter, ParametersBeyondItsCapacityAreClearErrors) {
  const auto routing = std::make_shared<const TimingRouting>(Topology::mesh({4, 4}));
  try {
    TimingRouter r(TimingRouterParams{4, 1, 5, 4}, routing, 0);
    FAIL() << "5 VCs accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "timing router: 5 VCs of depth 4; valid: 1, 2 or 4 VCs, depth 1..16");
  }
  EXPECT_THROW(TimingRouter(TimingRouterParams{4, 9, 2, 4}, routing, 0), std::invalid_argument);
  EXPECT_THROW(TimingRouter(TimingRouterParams{}, routing, 16), std::invalid_argument);  // node outside
  EXPECT_THROW(
      TimingRouter(TimingRouterParams{4, 1, 2, 4}, std::make_shared<const TimingRouting>(Topology::mesh({3, 3, 3})), 0),
      std::invalid_argument);  // 6 network ports on a 4-port router
}

}  // namespace
}  // namespace wormcast::model
