// SPDX-License-Identifier: Apache-2.0
// The harness's ejection-link checker (sim/ejection_link_checker.hpp; docs/verification.md, "Link
// checkers"), as verif/rtl/link_checker_test.cpp tests the SV checker: legal traffic from a sender
// and a receiver that follow the protocol (one pool of credits, a credit used in the cycle it comes
// back, whole worms per stream, interleaved) never breaks a rule; each rule then breaks on a link
// that breaks it alone, and no other rule with it. Then the run fails on it, naming the link, the
// cycle and the rule, on both backends.
#include "sim/ejection_link_checker.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "model/path_multicast.hpp"
#include "model/planner.hpp"
#include "sim/multicast_run.hpp"

namespace wormcast::verif {
namespace {

// An ejection port of a 4-VC router with 5 ports (4 network, 1 local): one pool of 4, 20 streams.
constexpr unsigned kVcs = 4, kDepth = 4, kStreams = 20;

// One cycle on the link.
struct Beat {
  sim::Link link;
  std::uint32_t credits = 0;  // bit v: a credit for VC v
};

std::uint32_t bit(sim::LinkRule r) { return 1u << static_cast<unsigned>(r); }

std::string rules(std::uint32_t broken) {
  std::string s;
  for (unsigned r = 0; r < sim::kLinkRules; ++r) {
    if (((broken >> r) & 1) != 0) s += std::string(s.empty() ? "" : ", ") + link_rule_name(sim::LinkRule(r));
  }
  return s.empty() ? "none" : s;
}

// Drives `legal` (must break nothing), then `bad` (must break `rule` and no other).
void ExpectOnlyBreaks(const std::vector<Beat>& legal, const Beat& bad, sim::LinkRule rule) {
  sim::EjectionLinkChecker c(kVcs, kStreams, kDepth);
  for (std::size_t i = 0; i < legal.size(); ++i) {
    ASSERT_EQ(rules(c.cycle(legal[i].link, legal[i].credits)), "none") << "legal beat " << i;
  }
  EXPECT_EQ(rules(c.cycle(bad.link, bad.credits)), rules(bit(rule)));
}

Beat Flit(bool head, bool tail, unsigned stream, unsigned vc = 0) {
  Beat b;
  b.link.valid = true;
  b.link.vc = vc;
  b.link.stream = stream;
  b.link.flit = {head, tail, 0x5A5A'0000'0000'0000ull | stream};
  return b;
}
Beat Credit(std::uint32_t bits) {
  Beat b;
  b.credits = bits;
  return b;
}

// A sender that sends whenever it holds a credit (counting one returned in the same cycle), worms
// of 1..5 flits on random streams, interleaved per flit; a receiver that returns a credit at random
// for a flit it holds or the one arriving (the NI's bypass).
TEST(EjectionLinkChecker, InterleavedStreamsLegalTrafficBreaksNothing) {
  sim::EjectionLinkChecker c(kVcs, kStreams, kDepth);
  std::mt19937_64 rng(0xE1EC);
  unsigned credits = kDepth, held = 0;
  std::vector<unsigned> left(kStreams, 0);  // flits of the open worm still to send, 0: none open
  long flits = 0, sent_on_returned_credit = 0, empty_pool_cycles = 0, interleaved = 0;
  unsigned last = 0;
  for (int cycle = 0; cycle < 20'000; ++cycle) {
    Beat b;
    const unsigned stream = static_cast<unsigned>(rng() % kStreams);
    const bool send = rng() % 4 != 0;
    const bool arriving = send && credits > 0;
    const unsigned returned = (held > 0 || arriving) && rng() % 3 == 0 ? 1 : 0;
    b.credits = returned;
    if (send && credits + returned > 0) {
      const bool head = left[stream] == 0;
      if (head) left[stream] = 1 + static_cast<unsigned>(rng() % 5);
      b = Flit(head, --left[stream] == 0, stream);
      b.credits = returned;
      if (credits == 0) ++sent_on_returned_credit;
      if (flits > 0 && stream != last && left[last] != 0) ++interleaved;
      last = stream;
      --credits;
      ++held;
      ++flits;
    }
    credits += returned;
    held -= returned;
    if (credits == 0) ++empty_pool_cycles;
    ASSERT_EQ(rules(c.cycle(b.link, b.credits)), "none") << "cycle " << cycle;
    ASSERT_EQ(c.credits(), credits) << "cycle " << cycle;
  }
  EXPECT_GT(flits, 5'000);
  EXPECT_GT(sent_on_returned_credit, 100);  // a credit spent in the cycle it came back
  EXPECT_GT(empty_pool_cycles, 1'000);      // the sender waited for credits
  EXPECT_GT(interleaved, 1'000);            // worms of other streams between a worm's flits
}

TEST(EjectionLinkChecker, FlitWithoutCreditBreaksFlitHasCredit) {
  // Four flits of four streams spend the pool of four: a fifth needs a credit.
  ExpectOnlyBreaks({Flit(true, true, 0), Flit(true, true, 1), Flit(true, true, 2), Flit(true, true, 3)},
                   Flit(true, true, 4), sim::LinkRule::kFlitHasCredit);
}

TEST(EjectionLinkChecker, CreditSpentInTheCycleItReturnsIsLegalASecondBreaksCreditWithinDepth) {
  Beat with_credit = Flit(true, true, 4);
  with_credit.credits = 1;
  ExpectOnlyBreaks({Flit(true, true, 0), Flit(true, true, 1), Flit(true, true, 2), Flit(true, true, 3), with_credit,
                    Credit(1), Credit(1), Credit(1), Credit(1)},
                   Credit(1), sim::LinkRule::kCreditWithinDepth);
}

TEST(EjectionLinkChecker, FlitOffVcZeroBreaksVcInRange) {
  ExpectOnlyBreaks({Flit(true, false, 3)}, Flit(true, true, 5, 2), sim::LinkRule::kVcInRange);
}

TEST(EjectionLinkChecker, StreamBeyondTheRoutersInputVcsBreaksStreamInRange) {
  ExpectOnlyBreaks({Flit(true, true, kStreams - 1), Credit(1)}, Flit(true, true, kStreams),
                   sim::LinkRule::kStreamInRange);
}

TEST(EjectionLinkChecker, HeadInsideItsStreamsWormBreaksHeadOpensWorm) {
  // Streams 3 and 4 interleave (legal); a head on stream 3 inside its worm is not.
  ExpectOnlyBreaks({Flit(true, false, 3), Flit(true, false, 4), Flit(false, false, 3), Credit(1), Flit(false, true, 4)},
                   Flit(true, true, 3), sim::LinkRule::kHeadOpensWorm);
}

TEST(EjectionLinkChecker, BodyOnAStreamWithoutAWormBreaksBodyInsideWorm) {
  // Stream 5's worm ended with its tail; stream 3 has one open.
  ExpectOnlyBreaks({Flit(true, false, 3), Flit(true, false, 5), Flit(false, true, 5), Credit(1)}, Flit(false, true, 5),
                   sim::LinkRule::kBodyInsideWorm);
}

TEST(EjectionLinkChecker, CreditOffThePoolBitBreaksEjectCreditOnPoolBit) {
  ExpectOnlyBreaks({Flit(true, true, 7), Credit(1), Flit(true, true, 7)}, Credit(0b100),
                   sim::LinkRule::kEjectCreditOnPoolBit);
}

TEST(EjectionLinkChecker, ABrokenWormRuleLeavesTheWormAsItWas) {
  // A misplaced head does not open a second worm: the open one's tail still closes it.
  sim::EjectionLinkChecker c(kVcs, kStreams, kDepth);
  EXPECT_EQ(c.cycle(Flit(true, false, 2).link, 0), 0u);
  EXPECT_EQ(c.cycle(Flit(true, false, 2).link, 1), bit(sim::LinkRule::kHeadOpensWorm));
  EXPECT_TRUE(c.open(2));
  EXPECT_EQ(c.cycle(Flit(false, true, 2).link, 1), 0u);
  EXPECT_FALSE(c.open(2));
}

TEST(EjectionLinkChecker, NetworkMessageNamesTheLinkTheCycleAndTheRule) {
  const model::Topology t = model::Topology::parse("mesh:4x4");
  sim::EjectionLinkCheckers checkers(t, 4, 1, kVcs);
  const model::NodeId n = t.parse_node("1,2");
  EXPECT_EQ(checkers.cycle(n, 0, 16, Flit(true, false, 6).link, 0), "");
  EXPECT_EQ(checkers.cycle(n, 0, 17, Flit(true, false, 6).link, 1),
            "ejection link router 1,2 port 4 (local 0) in cycle 17: HeadOpensWorm (a head on stream 6, whose worm "
            "is open)");
  // Another node's link is another checker.
  EXPECT_EQ(checkers.cycle(t.parse_node("2,1"), 0, 17, Flit(true, false, 6).link, 0), "");
}

// A node interface that returns an ejection credit it does not owe (NodeTiming::spurious_eject_credit)
// fails the run in that cycle with the checker's message, on the RTL and the timing model.
class EjectionLinkCheck : public testing::TestWithParam<sim::Backend> {};

TEST_P(EjectionLinkCheck, SpuriousCreditFailsTheRunNamingLinkCycleAndRule) {
  const model::Topology t = model::Topology::parse("mesh:4x4");
  const model::NodeId source = t.parse_node("1,1");
  const model::Plan plan =
      model::plan(model::make_request(t, model::kDualPathAlgorithm, source, {t.parse_node("3,3"), t.parse_node("0,2")},
                                      4, model::PortModel::all_port()));
  sim::RunOptions o;
  o.backend = GetParam();
  o.spurious_eject_credit_at = source;
  const sim::RunRecord record = sim::run_multicasts(sim::requests_of({plan}), o);
  ASSERT_FALSE(record.errors.empty());
  EXPECT_EQ(record.errors.front(),
            "ejection link router 1,1 port 4 (local 0) in cycle 0: CreditWithinDepth (a credit returned while the "
            "router held all 4 credits of the pool)");
  o.spurious_eject_credit_at = model::kNoNode;
  EXPECT_TRUE(sim::run_multicasts(sim::requests_of({plan}), o).errors.empty());
}

INSTANTIATE_TEST_SUITE_P(Backends, EjectionLinkCheck, testing::Values(sim::Backend::kRtl, sim::Backend::kModel),
                         [](const testing::TestParamInfo<sim::Backend>& i) {
                           return i.param == sim::Backend::kRtl ? std::string("Rtl") : std::string("Model");
                         });

}  // namespace
}  // namespace wormcast::verif
