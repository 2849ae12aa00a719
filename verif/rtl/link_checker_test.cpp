// SPDX-License-Identifier: Apache-2.0
// Verilator unit tests of rtl/noc_link_checker.sv, the link-protocol checker at the receiving end
// of every link (docs/verification.md, "Link checkers"). Legal traffic from a C++ sender and
// receiver that follow the protocol (credits per pool, a credit used in the cycle it comes back,
// whole worms per VC or per stream) must never fire an assertion; each assertion then fires on a
// link that breaks exactly its rule, and no other assertion fires with it.
#include <gtest/gtest.h>
#include <verilated.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "Vnoc_link_checker_eject_v4_d4_s20.h"
#include "Vnoc_link_checker_v1_d1.h"
#include "Vnoc_link_checker_v2_d2.h"
#include "sim/ejection_link_checker.hpp"
#include "verif/rtl/verilated_dut.hpp"

namespace wormcast::verif {
namespace {

constexpr unsigned kHeadBit = 65;  // noc_pkg::flit_t {head, tail, data[63:0]}
constexpr unsigned kTailBit = 64;

const std::array<const char*, 7> kAssertions = {"FlitHasCredit_A",       "CreditWithinDepth_A", "VcInRange_A",
                                                "StreamInRange_A",       "HeadOpensWorm_A",     "BodyInsideWorm_A",
                                                "EjectCreditOnPoolBit_A"};

struct NetworkLink {  // a network or injection link: 2 VCs of 2 credits
  using Model = Vnoc_link_checker_v2_d2;
  static constexpr unsigned kVcs = 2, kDepth = 2, kStreams = 1;
  static constexpr bool kEject = false;
};
struct OneVcLink {
  using Model = Vnoc_link_checker_v1_d1;
  static constexpr unsigned kVcs = 1, kDepth = 1, kStreams = 1;
  static constexpr bool kEject = false;
};
struct EjectLink {  // an ejection port of a 4-VC router with 5 ports: one pool, 20 streams
  using Model = Vnoc_link_checker_eject_v4_d4_s20;
  static constexpr unsigned kVcs = 4, kDepth = 4, kStreams = 20;
  static constexpr bool kEject = true;
};

// One cycle on the link.
struct Beat {
  bool valid = false;
  unsigned vc = 0;
  bool head = false, tail = false;
  std::uint64_t data = 0;
  unsigned stream = 0;
  std::uint32_t credits = 0;  // bit v: a credit for VC v
};

// The checker registers the link and judges cycle t at the edge that ends cycle t + 1, so what it
// prints about a beat comes out in the next Cycle().
template <class L>
class LinkBench {
 public:
  // Drives one cycle and returns what the checker printed in it (its assertion messages).
  std::string Cycle(const Beat& b) {
    dut_->valid_i = b.valid;
    dut_->vc_i = b.vc;
    SetBit(dut_->flit_i, kHeadBit, b.head);
    SetBit(dut_->flit_i, kTailBit, b.tail);
    for (unsigned i = 0; i < 64; ++i) SetBit(dut_->flit_i, i, ((b.data >> i) & 1) != 0);
    dut_->stream_i = b.stream;
    dut_->credit_i = b.credits;
    std::fflush(stdout);
    testing::internal::CaptureStdout();
    dut_.Tick();
    std::fflush(stdout);
    return testing::internal::GetCapturedStdout();
  }
  bool Fired() const { return dut_.AssertionFired(); }

 private:
  Dut<typename L::Model> dut_;
};

// A sender and a receiver that keep the protocol, with random timing: the sender sends whenever it
// holds a credit of the flit's pool (counting a credit returned in the same cycle), worms of 1..5
// flits, whole per worm key; the receiver returns one credit per pool per cycle at random for a
// flit it holds (on an ejection link also for the flit arriving in that cycle: the NI's bypass).
template <class L>
void LegalTrafficNeverFires() {
  constexpr unsigned kPools = L::kEject ? 1 : L::kVcs;
  constexpr unsigned kKeys = L::kEject ? L::kStreams : L::kVcs;
  LinkBench<L> bench;
  std::mt19937_64 rng(0x11C4 + kKeys);
  std::vector<unsigned> credits(kPools, L::kDepth), held(kPools, 0);
  std::vector<unsigned> left(kKeys, 0);  // flits of the open worm still to send, 0: none open
  long flits = 0, sent_on_returned_credit = 0, empty_pool_cycles = 0, interleaved = 0;
  unsigned last_key = 0;
  for (int cycle = 0; cycle < 20'000; ++cycle) {
    Beat b;
    const unsigned key = static_cast<unsigned>(rng() % kKeys);
    const unsigned pool = L::kEject ? 0 : key;
    const bool send = rng() % 4 != 0;
    // The receiver's credits first: the sender may spend them in this cycle.
    std::vector<unsigned> returned(kPools, 0);
    for (unsigned p = 0; p < kPools; ++p) {
      const bool arriving = L::kEject && send && p == pool && credits[p] > 0;
      if ((held[p] > 0 || arriving) && rng() % 3 == 0) {
        returned[p] = 1;
        b.credits |= 1u << (L::kEject ? 0 : p);
      }
    }
    if (send && credits[pool] + returned[pool] > 0) {
      b.valid = true;
      b.vc = L::kEject ? 0 : key;
      b.stream = L::kEject ? key : 0;
      b.data = rng();
      if (left[key] == 0) {
        b.head = true;
        left[key] = 1 + static_cast<unsigned>(rng() % 5);
      }
      b.tail = --left[key] == 0;
      if (credits[pool] == 0) ++sent_on_returned_credit;
      if (flits > 0 && key != last_key && left[last_key] != 0) ++interleaved;
      last_key = key;
      --credits[pool];
      ++held[pool];
      ++flits;
    }
    for (unsigned p = 0; p < kPools; ++p) {
      credits[p] += returned[p];
      held[p] -= returned[p];
      if (credits[p] == 0) ++empty_pool_cycles;
    }
    const std::string out = bench.Cycle(b);
    ASSERT_FALSE(bench.Fired()) << "cycle " << cycle - 1 << ": " << out;
  }
  const std::string out = bench.Cycle(Beat{});  // the judgement of the last beat
  ASSERT_FALSE(bench.Fired()) << out;
  EXPECT_GT(flits, 5'000);
  EXPECT_GT(sent_on_returned_credit, 100);  // a credit spent in the cycle it came back
  EXPECT_GT(empty_pool_cycles, 1'000);      // the sender waited for credits
  if (kKeys > 1) {
    EXPECT_GT(interleaved, 1'000);  // worms of other keys between a worm's flits
  }
}

// Drives `legal` (must not fire), then `bad` (must fire `name` and no other assertion).
template <class L>
void ExpectOnlyFires(const std::vector<Beat>& legal, const Beat& bad, const std::string& name) {
  LinkBench<L> bench;
  for (std::size_t i = 0; i <= legal.size(); ++i) {
    const std::string out = bench.Cycle(i < legal.size() ? legal[i] : bad);
    ASSERT_FALSE(bench.Fired()) << (i == 0 ? std::string("reset") : "legal beat " + std::to_string(i - 1))
                                << " fired: " << out;
  }
  const std::string out = bench.Cycle(Beat{});  // the bad beat's judgement
  EXPECT_TRUE(bench.Fired()) << name << " did not fire";
  EXPECT_NE(out.find(name + " failed"), std::string::npos) << out;
  for (const char* other : kAssertions) {
    if (other != name) {
      EXPECT_EQ(out.find(std::string(other) + " failed"), std::string::npos) << out;
    }
  }
}

Beat Flit(unsigned vc, bool head, bool tail, unsigned stream = 0) {
  Beat b;
  b.valid = true;
  b.vc = vc;
  b.head = head;
  b.tail = tail;
  b.stream = stream;
  b.data = 0x5A5A'0000'0000'0000ull | (vc << 8) | stream;
  return b;
}
Beat Credit(std::uint32_t bits) {
  Beat b;
  b.credits = bits;
  return b;
}

TEST(LinkChecker, NetworkLinkLegalTrafficNeverFires) { LegalTrafficNeverFires<NetworkLink>(); }
TEST(LinkChecker, OneVcLinkLegalTrafficNeverFires) { LegalTrafficNeverFires<OneVcLink>(); }
TEST(LinkChecker, EjectionLinkInterleavedStreamsNeverFire) { LegalTrafficNeverFires<EjectLink>(); }

TEST(LinkChecker, FlitWithoutCreditFires) {
  // VC 1's two credits spent, VC 0's credit returned in the same cycle does not help VC 1.
  Beat third = Flit(1, true, true);
  third.credits = 0b01;
  ExpectOnlyFires<NetworkLink>({Flit(0, true, true), Flit(1, true, true), Flit(1, true, true)}, third,
                               "FlitHasCredit_A");
}

TEST(LinkChecker, CreditSpentInTheCycleItReturnsDoesNotFire) {
  // A credit returned with the flit that needs it is legal (the NI's injection spends it at once);
  // a second credit then exceeds the depth.
  Beat with_credit = Flit(0, true, true);
  with_credit.credits = 0b01;
  ExpectOnlyFires<OneVcLink>({Flit(0, true, true), with_credit, Credit(0b1)}, Credit(0b1), "CreditWithinDepth_A");
}

TEST(LinkChecker, CreditWithoutFlitFires) {
  ExpectOnlyFires<NetworkLink>({Flit(1, true, true), Credit(0b10)}, Credit(0b10), "CreditWithinDepth_A");
}

TEST(LinkChecker, VcOutOfRangeFires) { ExpectOnlyFires<OneVcLink>({}, Flit(1, true, true), "VcInRange_A"); }

TEST(LinkChecker, EjectionLinkOffVcZeroFires) { ExpectOnlyFires<EjectLink>({}, Flit(2, true, true, 3), "VcInRange_A"); }

TEST(LinkChecker, StreamOutOfRangeFires) {
  ExpectOnlyFires<EjectLink>({Flit(0, true, true, 19)}, Flit(0, true, true, 20), "StreamInRange_A");
}

TEST(LinkChecker, HeadInsideAWormOfItsVcFires) {
  // A head on the other VC is legal; a second head on VC 0 before its tail is not.
  ExpectOnlyFires<NetworkLink>({Flit(0, true, false), Flit(1, true, false)}, Flit(0, true, false), "HeadOpensWorm_A");
}

TEST(LinkChecker, BodyFlitOutsideAWormFires) {
  // The worm on VC 1 ended with its tail: a body flit after it opens nothing.
  ExpectOnlyFires<NetworkLink>({Flit(1, true, false), Flit(1, false, true), Credit(0b10)}, Flit(1, false, false),
                               "BodyInsideWorm_A");
}

TEST(LinkChecker, EjectionWormsArePerStream) {
  // Streams 3 and 4 interleave (legal); a head on stream 3 inside its worm is not.
  ExpectOnlyFires<EjectLink>(
      {Flit(0, true, false, 3), Flit(0, true, false, 4), Flit(0, false, false, 3), Credit(1), Flit(0, false, true, 4)},
      Flit(0, true, true, 3), "HeadOpensWorm_A");
}

TEST(LinkChecker, EjectionBodyOnIdleStreamFires) {
  ExpectOnlyFires<EjectLink>({Flit(0, true, false, 3)}, Flit(0, false, true, 5), "BodyInsideWorm_A");
}

TEST(LinkChecker, EjectionCreditOffThePoolBitFires) {
  ExpectOnlyFires<EjectLink>({Flit(0, true, true, 7), Credit(0b1)}, Credit(0b100), "EjectCreditOnPoolBit_A");
}

TEST(LinkChecker, EjectionPoolCountsEveryStream) {
  // Four flits of four streams spend the pool of four: a fifth needs a credit.
  ExpectOnlyFires<EjectLink>(
      {Flit(0, true, true, 0), Flit(0, true, true, 1), Flit(0, true, true, 2), Flit(0, true, true, 3)},
      Flit(0, true, true, 4), "FlitHasCredit_A");
}

// The harness's C++ ejection-link checker (sim/ejection_link_checker.hpp, on the ejection links of
// the C++-wired networks) against this one, on the same random beats, legal and not: flits beyond
// the credits, credits beyond the depth, credits off the pool bit, VCs and streams out of range,
// heads and bodies on any stream. In every cycle the two break the same rules.
TEST(LinkChecker, HarnessEjectionCheckerBreaksTheSameRulesCycleByCycle) {
  LinkBench<EjectLink> bench;
  sim::EjectionLinkChecker harness(EjectLink::kVcs, EjectLink::kStreams, EjectLink::kDepth);
  std::mt19937_64 rng(0xE7EC);
  const auto fired = [](const std::string& out) {
    std::string names;
    for (const char* name : kAssertions) {
      if (out.find(std::string(name) + " failed") != std::string::npos) names += std::string(name) + " ";
    }
    return names;
  };
  std::string judged = fired("");  // the harness checker's verdict on the beat the SV judges next cycle
  std::vector<long> counts(sim::kLinkRules, 0);
  for (int cycle = 0; cycle <= 20'000; ++cycle) {
    Beat b;
    if (cycle < 20'000) {
      b.valid = rng() % 2 == 0;
      b.vc = rng() % 10 == 0 ? 1 + static_cast<unsigned>(rng() % 3) : 0;
      b.stream = static_cast<unsigned>(rng() % (EjectLink::kStreams + 1));
      b.head = rng() % 3 == 0;
      b.tail = rng() % 5 < 2;
      b.data = rng();
      b.credits = (rng() % 20 < 9 ? 1u : 0u) | (rng() % 20 == 0 ? 1u << (1 + rng() % 3) : 0u);
    }
    const std::string out = bench.Cycle(b);
    ASSERT_EQ(fired(out), judged) << "beat " << cycle - 1;
    sim::Link l;
    l.valid = b.valid;
    l.vc = b.vc;
    l.stream = b.stream;
    l.flit = {b.head, b.tail, b.data};
    const std::uint32_t broken = harness.cycle(l, b.credits);
    judged.clear();
    for (unsigned r = 0; r < sim::kLinkRules; ++r) {
      if (((broken >> r) & 1) == 0) continue;
      judged += std::string(sim::link_rule_name(static_cast<sim::LinkRule>(r))) + "_A ";
      ++counts[r];
    }
  }
  for (unsigned r = 0; r < sim::kLinkRules; ++r) {
    EXPECT_GT(counts[r], 50) << sim::link_rule_name(static_cast<sim::LinkRule>(r)) << " broke too rarely to compare";
  }
}

}  // namespace
}  // namespace wormcast::verif
