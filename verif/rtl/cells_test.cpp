// SPDX-License-Identifier: Apache-2.0
// Verilator unit tests of the router's reusable cells: rtl/noc_fifo.sv, rtl/noc_rr_arbiter.sv and
// rtl/noc_credit_counter.sv. Each cell is verilated with --assert (its NOC_ASSERTs are live) for a
// few parameter values and driven cycle by cycle against an independent C++ reference model:
// std::deque for the FIFO, a rotating priority index for the arbiter, an integer for the credit
// counter. Random stimulus uses fixed seeds, so every run drives the same cycles.
#include <gtest/gtest.h>
#include <verilated.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <random>
#include <type_traits>
#include <utility>
#include <vector>

#include "Vnoc_credit_counter_d1.h"
#include "Vnoc_credit_counter_d4.h"
#include "Vnoc_fifo_w16_d4.h"
#include "Vnoc_fifo_w3_d1.h"
#include "Vnoc_fifo_w8_d5.h"
#include "Vnoc_rr_arbiter_n1.h"
#include "Vnoc_rr_arbiter_n4.h"
#include "Vnoc_rr_arbiter_n5.h"
#include "verif/rtl/verilated_dut.hpp"

namespace wormcast::verif {
namespace {

// ---------------------------------------------------------------------------------------------
// noc_fifo

struct FifoWidth8Depth5 {
  using Model = Vnoc_fifo_w8_d5;
  static constexpr unsigned kWidth = 8;
  static constexpr unsigned kDepth = 5;
};
struct FifoWidth16Depth4 {
  using Model = Vnoc_fifo_w16_d4;
  static constexpr unsigned kWidth = 16;
  static constexpr unsigned kDepth = 4;
};
struct FifoWidth3Depth1 {
  using Model = Vnoc_fifo_w3_d1;
  static constexpr unsigned kWidth = 3;
  static constexpr unsigned kDepth = 1;
};

// Drives a noc_fifo cycle by cycle.
template <class P>
class FifoBench {
 public:
  static constexpr std::uint32_t kMask = (std::uint32_t{1} << P::kWidth) - 1;

  // Drives one cycle: push and/or pop at the clock edge, then the outputs settle.
  void Cycle(bool push, std::uint32_t data, bool pop) {
    dut_->push_i = push;
    dut_->data_i = static_cast<std::remove_reference_t<decltype(dut_->data_i)>>(data & kMask);
    dut_->pop_i = pop;
    dut_.Tick();
    dut_->push_i = 0;
    dut_->pop_i = 0;
    dut_.Settle();
  }

  // The FIFO's outputs agree with the reference queue.
  void ExpectMatches(const std::deque<std::uint32_t>& ref, long cycle) {
    ASSERT_EQ(dut_->count_o, ref.size()) << "cycle " << cycle;
    ASSERT_EQ(dut_->empty_o, ref.empty()) << "cycle " << cycle;
    ASSERT_EQ(dut_->full_o, ref.size() == P::kDepth) << "cycle " << cycle;
    if (!ref.empty()) {
      ASSERT_EQ(dut_->data_o, ref.front()) << "cycle " << cycle;
    }
  }

  Dut<typename P::Model> dut_;
};

template <class P>
void OrderAndFlagsMatchDequeUnderRandomPushPop() {
  FifoBench<P> bench;
  constexpr unsigned kDepth = P::kDepth;
  std::mt19937 rng(20240611);
  std::uniform_int_distribution<std::uint32_t> data(0, bench.kMask);
  // Phases that fill, drain and churn the FIFO, so full and empty are both reached many times.
  const std::vector<std::pair<double, double>> phases = {{0.8, 0.3}, {0.3, 0.8}, {0.5, 0.5}, {0.9, 0.9}};
  std::deque<std::uint32_t> ref;
  long full_cycles = 0;
  long empty_cycles = 0;
  long push_pop_cycles = 0;
  for (long cycle = 0; cycle < 20000; ++cycle) {
    bench.ExpectMatches(ref, cycle);
    if (::testing::Test::HasFatalFailure()) return;
    full_cycles += ref.size() == kDepth;
    empty_cycles += ref.empty();
    const auto [p_push, p_pop] = phases[(cycle / 250) % phases.size()];
    const bool push = ref.size() < kDepth && std::bernoulli_distribution(p_push)(rng);
    const bool pop = !ref.empty() && std::bernoulli_distribution(p_pop)(rng);
    const std::uint32_t value = data(rng);
    push_pop_cycles += push && pop;
    bench.Cycle(push, value, pop);
    if (pop) ref.pop_front();
    if (push) ref.push_back(value);
  }
  EXPECT_FALSE(bench.dut_.AssertionFired()) << "legal traffic fired an assertion";
  // The stimulus really reached the corners.
  EXPECT_GT(full_cycles, 500);
  EXPECT_GT(empty_cycles, 500);
  if (kDepth > 1) {
    EXPECT_GT(push_pop_cycles, 1000);  // at Depth 1 a push and a pop never meet
  }
}

template <class P>
void PushWhenFullFiresAssertionAndIsDropped() {
  FifoBench<P> bench;
  constexpr unsigned kDepth = P::kDepth;
  for (unsigned i = 0; i < kDepth; ++i) bench.Cycle(true, i + 1, false);
  ASSERT_TRUE(bench.dut_->full_o);
  ASSERT_FALSE(bench.dut_.AssertionFired()) << "filling the FIFO is legal";
  bench.Cycle(true, 0, false);
  EXPECT_TRUE(bench.dut_.AssertionFired()) << "PushNotFull_A did not fire";
  // The extra entry was dropped: the FIFO still holds 1..Depth in order.
  for (unsigned i = 0; i < kDepth; ++i) {
    ASSERT_FALSE(bench.dut_->empty_o);
    EXPECT_EQ(bench.dut_->data_o, (i + 1) & bench.kMask);
    bench.Cycle(false, 0, true);
  }
  EXPECT_TRUE(bench.dut_->empty_o);
}

template <class P>
void PopWhenEmptyFiresAssertion() {
  FifoBench<P> bench;
  ASSERT_TRUE(bench.dut_->empty_o);
  bench.Cycle(false, 0, true);
  EXPECT_TRUE(bench.dut_.AssertionFired()) << "PopNotEmpty_A did not fire";
  EXPECT_TRUE(bench.dut_->empty_o);
  EXPECT_EQ(bench.dut_->count_o, 0u);
}

// ---------------------------------------------------------------------------------------------
// noc_rr_arbiter

// Reference round-robin arbiter: `next_` is the requester with the highest priority; the others
// follow in cyclic index order. After a grant, `next_` moves past the winner if the grant was used
// up (advance) and onto the winner otherwise (the winner keeps priority while it holds the grant).
class RoundRobinReference {
 public:
  explicit RoundRobinReference(unsigned num_req) : num_req_(num_req) {}

  std::optional<unsigned> Winner(std::uint32_t req) const {
    for (unsigned k = 0; k < num_req_; ++k) {
      const unsigned i = (next_ + k) % num_req_;
      if ((req >> i) & 1u) return i;
    }
    return std::nullopt;
  }

  void Clock(std::uint32_t req, bool advance) {
    if (const auto winner = Winner(req)) next_ = advance ? (*winner + 1) % num_req_ : *winner;
  }

 private:
  unsigned num_req_;
  unsigned next_ = 0;
};

struct ArbiterNumReq5 {
  using Model = Vnoc_rr_arbiter_n5;
  static constexpr unsigned kNumReq = 5;
};
struct ArbiterNumReq4 {
  using Model = Vnoc_rr_arbiter_n4;
  static constexpr unsigned kNumReq = 4;
};
struct ArbiterNumReq1 {
  using Model = Vnoc_rr_arbiter_n1;
  static constexpr unsigned kNumReq = 1;
};

// Drives a noc_rr_arbiter cycle by cycle.
template <class P>
class ArbiterBench {
 public:
  static constexpr std::uint32_t kAll = (std::uint32_t{1} << P::kNumReq) - 1;

  // Applies the requests and returns the (combinational) grant of this cycle.
  std::uint32_t Request(std::uint32_t req) {
    dut_->req_i = static_cast<std::remove_reference_t<decltype(dut_->req_i)>>(req);
    dut_.Settle();
    return dut_->gnt_o;
  }

  // Ends the cycle: the clock edge, with `advance` telling whether the grant was used up.
  void Clock(bool advance) {
    dut_->advance_i = advance;
    dut_.Tick();
    dut_->advance_i = 0;
  }

  Dut<typename P::Model> dut_;
};

template <class P>
void AllRequestsHeldGrantsRotateThroughEveryRequester() {
  ArbiterBench<P> bench;
  constexpr unsigned n = P::kNumReq;
  for (unsigned cycle = 0; cycle < 3 * n; ++cycle) {
    // After reset requester 0 has the highest priority; each used grant passes it on.
    EXPECT_EQ(bench.Request(bench.kAll), 1u << (cycle % n)) << "cycle " << cycle;
    bench.Clock(true);
  }
  EXPECT_FALSE(bench.dut_.AssertionFired());
}

template <class P>
void GrantHeldWhileAdvanceLow() {
  ArbiterBench<P> bench;
  constexpr unsigned n = P::kNumReq;
  const unsigned holder = n / 2;
  const std::uint32_t holder_bit = 1u << holder;
  // The holder requests alone and wins; no advance: the grant is not used up yet.
  EXPECT_EQ(bench.Request(holder_bit), holder_bit);
  bench.Clock(false);
  // Everyone requests now, including requesters that rank before the holder after reset;
  // the holder keeps the grant for as long as advance_i stays low.
  for (int cycle = 0; cycle < 10; ++cycle) {
    EXPECT_EQ(bench.Request(bench.kAll), holder_bit) << "cycle " << cycle;
    bench.Clock(false);
  }
  // The packet ends (advance): the next requester in cyclic order gets the grant.
  EXPECT_EQ(bench.Request(bench.kAll), holder_bit);
  bench.Clock(true);
  EXPECT_EQ(bench.Request(bench.kAll), 1u << ((holder + 1) % n));
  EXPECT_FALSE(bench.dut_.AssertionFired());
}

template <class P>
void MatchesReferenceUnderRandomRequests() {
  ArbiterBench<P> bench;
  constexpr unsigned n = P::kNumReq;
  std::mt19937 rng(7);
  std::uniform_int_distribution<std::uint32_t> requests(0, bench.kAll);
  std::bernoulli_distribution advance_coin(0.6);
  RoundRobinReference ref(n);
  for (long cycle = 0; cycle < 20000; ++cycle) {
    const std::uint32_t req = requests(rng);
    const bool advance = advance_coin(rng);
    const auto winner = ref.Winner(req);
    const std::uint32_t expected = winner ? (1u << *winner) : 0u;
    ASSERT_EQ(bench.Request(req), expected) << "cycle " << cycle << " req " << req;
    bench.Clock(advance);
    ref.Clock(req, advance);
  }
  EXPECT_FALSE(bench.dut_.AssertionFired());
}

template <class P>
void WaitingRequesterSeesAtMostNumReqMinusOneOtherGrants() {
  ArbiterBench<P> bench;
  constexpr unsigned n = P::kNumReq;
  std::mt19937 rng(11);
  std::bernoulli_distribution raise(0.4);
  std::bernoulli_distribution advance_coin(0.5);
  // A raised request stays up until it is granted with advance (a packet holds its request).
  std::uint32_t req = 0;
  std::vector<unsigned> grants_seen(n, 0);  // used grants to others since the request went up
  unsigned worst_wait = 0;
  long served = 0;
  for (long cycle = 0; cycle < 20000; ++cycle) {
    for (unsigned i = 0; i < n; ++i) {
      if (!((req >> i) & 1u) && raise(rng)) {
        req |= 1u << i;
        grants_seen[i] = 0;
      }
    }
    const std::uint32_t gnt = bench.Request(req);
    ASSERT_EQ(gnt != 0, req != 0) << "cycle " << cycle;
    const bool advance = gnt != 0 && advance_coin(rng);
    bench.Clock(advance);
    if (!advance) continue;
    ++served;
    for (unsigned i = 0; i < n; ++i) {
      if ((gnt >> i) & 1u) {
        req &= ~(1u << i);
      } else if ((req >> i) & 1u) {
        ++grants_seen[i];
        ASSERT_LE(grants_seen[i], n - 1) << "requester " << i << " starved at cycle " << cycle;
        worst_wait = std::max(worst_wait, grants_seen[i]);
      }
    }
  }
  EXPECT_GT(served, 5000);
  // The bound is tight: some requester did wait for all the others.
  EXPECT_EQ(worst_wait, n - 1);
  EXPECT_FALSE(bench.dut_.AssertionFired());
}

// ---------------------------------------------------------------------------------------------
// noc_credit_counter

struct CreditDepth4 {
  using Model = Vnoc_credit_counter_d4;
  static constexpr unsigned kDepth = 4;
};
struct CreditDepth1 {
  using Model = Vnoc_credit_counter_d1;
  static constexpr unsigned kDepth = 1;
};

// Drives a noc_credit_counter cycle by cycle.
template <class P>
class CreditBench {
 public:
  void Cycle(bool consume, bool ret) {
    dut_->consume_i = consume;
    dut_->return_i = ret;
    dut_.Tick();
    dut_->consume_i = 0;
    dut_->return_i = 0;
    dut_.Settle();
  }

  Dut<typename P::Model> dut_;
};

template <class P>
void TracksReferenceUnderRandomConsumeReturn() {
  CreditBench<P> bench;
  constexpr unsigned kDepth = P::kDepth;
  std::mt19937 rng(3);
  const std::vector<std::pair<double, double>> phases = {{0.7, 0.3}, {0.3, 0.7}, {0.6, 0.6}};
  unsigned credits = kDepth;  // the reference
  long at_zero = 0;
  long at_depth = 0;
  long both_at_depth = 0;
  for (long cycle = 0; cycle < 20000; ++cycle) {
    ASSERT_EQ(bench.dut_->count_o, credits) << "cycle " << cycle;
    ASSERT_EQ(bench.dut_->available_o, credits > 0) << "cycle " << cycle;
    at_zero += credits == 0;
    at_depth += credits == kDepth;
    const auto [p_consume, p_return] = phases[(cycle / 300) % phases.size()];
    // Legal traffic: send only with a credit; a credit comes back only for a flit in flight,
    // or in the cycle a new flit leaves.
    const bool consume = credits > 0 && std::bernoulli_distribution(p_consume)(rng);
    const bool ret = (credits < kDepth || consume) && std::bernoulli_distribution(p_return)(rng);
    both_at_depth += consume && ret && credits == kDepth;
    bench.Cycle(consume, ret);
    credits = credits - (consume ? 1 : 0) + (ret ? 1 : 0);
  }
  EXPECT_FALSE(bench.dut_.AssertionFired()) << "legal traffic fired an assertion";
  EXPECT_GT(at_zero, 500);
  EXPECT_GT(at_depth, 500);
  EXPECT_GT(both_at_depth, 50);
}

template <class P>
void ConsumeAtZeroFiresAssertionAndKeepsZero() {
  CreditBench<P> bench;
  constexpr unsigned kDepth = P::kDepth;
  EXPECT_EQ(bench.dut_->count_o, kDepth) << "reset value";
  for (unsigned i = 0; i < kDepth; ++i) bench.Cycle(true, false);
  ASSERT_EQ(bench.dut_->count_o, 0u);
  ASSERT_FALSE(bench.dut_->available_o);
  ASSERT_FALSE(bench.dut_.AssertionFired()) << "spending every credit is legal";
  bench.Cycle(true, false);
  EXPECT_TRUE(bench.dut_.AssertionFired()) << "ConsumeNeedsCredit_A did not fire";
  EXPECT_EQ(bench.dut_->count_o, 0u) << "the count wrapped below zero";
}

template <class P>
void ReturnAtDepthFiresAssertionUnlessConsumedTogether() {
  CreditBench<P> bench;
  constexpr unsigned kDepth = P::kDepth;
  bench.Cycle(true, true);  // a flit leaves as a credit comes back: legal at Depth
  EXPECT_EQ(bench.dut_->count_o, kDepth);
  ASSERT_FALSE(bench.dut_.AssertionFired());
  bench.Cycle(false, true);
  EXPECT_TRUE(bench.dut_.AssertionFired()) << "ReturnBelowDepth_A did not fire";
  EXPECT_EQ(bench.dut_->count_o, kDepth) << "the count rose above Depth";
}

// ---------------------------------------------------------------------------------------------
// The tests: each check above for each verilated parameterization (verif/rtl/CMakeLists.txt).
// Suites are named after the cell and its parameter values.

TEST(CellFifoWidth8Depth5, OrderAndFlagsMatchDequeUnderRandomPushPop) {
  OrderAndFlagsMatchDequeUnderRandomPushPop<FifoWidth8Depth5>();
}
TEST(CellFifoWidth8Depth5, PushWhenFullFiresAssertionAndIsDropped) {
  PushWhenFullFiresAssertionAndIsDropped<FifoWidth8Depth5>();
}
TEST(CellFifoWidth8Depth5, PopWhenEmptyFiresAssertion) { PopWhenEmptyFiresAssertion<FifoWidth8Depth5>(); }

TEST(CellFifoWidth16Depth4, OrderAndFlagsMatchDequeUnderRandomPushPop) {
  OrderAndFlagsMatchDequeUnderRandomPushPop<FifoWidth16Depth4>();
}
TEST(CellFifoWidth16Depth4, PushWhenFullFiresAssertionAndIsDropped) {
  PushWhenFullFiresAssertionAndIsDropped<FifoWidth16Depth4>();
}
TEST(CellFifoWidth16Depth4, PopWhenEmptyFiresAssertion) { PopWhenEmptyFiresAssertion<FifoWidth16Depth4>(); }

TEST(CellFifoWidth3Depth1, OrderAndFlagsMatchDequeUnderRandomPushPop) {
  OrderAndFlagsMatchDequeUnderRandomPushPop<FifoWidth3Depth1>();
}
TEST(CellFifoWidth3Depth1, PushWhenFullFiresAssertionAndIsDropped) {
  PushWhenFullFiresAssertionAndIsDropped<FifoWidth3Depth1>();
}
TEST(CellFifoWidth3Depth1, PopWhenEmptyFiresAssertion) { PopWhenEmptyFiresAssertion<FifoWidth3Depth1>(); }

TEST(CellRrArbiterNumReq5, AllRequestsHeldGrantsRotateThroughEveryRequester) {
  AllRequestsHeldGrantsRotateThroughEveryRequester<ArbiterNumReq5>();
}
TEST(CellRrArbiterNumReq5, GrantHeldWhileAdvanceLow) { GrantHeldWhileAdvanceLow<ArbiterNumReq5>(); }
TEST(CellRrArbiterNumReq5, MatchesReferenceUnderRandomRequests) {
  MatchesReferenceUnderRandomRequests<ArbiterNumReq5>();
}
TEST(CellRrArbiterNumReq5, WaitingRequesterSeesAtMostNumReqMinusOneOtherGrants) {
  WaitingRequesterSeesAtMostNumReqMinusOneOtherGrants<ArbiterNumReq5>();
}

TEST(CellRrArbiterNumReq4, AllRequestsHeldGrantsRotateThroughEveryRequester) {
  AllRequestsHeldGrantsRotateThroughEveryRequester<ArbiterNumReq4>();
}
TEST(CellRrArbiterNumReq4, GrantHeldWhileAdvanceLow) { GrantHeldWhileAdvanceLow<ArbiterNumReq4>(); }
TEST(CellRrArbiterNumReq4, MatchesReferenceUnderRandomRequests) {
  MatchesReferenceUnderRandomRequests<ArbiterNumReq4>();
}
TEST(CellRrArbiterNumReq4, WaitingRequesterSeesAtMostNumReqMinusOneOtherGrants) {
  WaitingRequesterSeesAtMostNumReqMinusOneOtherGrants<ArbiterNumReq4>();
}

TEST(CellRrArbiterNumReq1, AllRequestsHeldGrantsRotateThroughEveryRequester) {
  AllRequestsHeldGrantsRotateThroughEveryRequester<ArbiterNumReq1>();
}
TEST(CellRrArbiterNumReq1, GrantHeldWhileAdvanceLow) { GrantHeldWhileAdvanceLow<ArbiterNumReq1>(); }
TEST(CellRrArbiterNumReq1, MatchesReferenceUnderRandomRequests) {
  MatchesReferenceUnderRandomRequests<ArbiterNumReq1>();
}
TEST(CellRrArbiterNumReq1, WaitingRequesterSeesAtMostNumReqMinusOneOtherGrants) {
  WaitingRequesterSeesAtMostNumReqMinusOneOtherGrants<ArbiterNumReq1>();
}

TEST(CellCreditCounterDepth4, TracksReferenceUnderRandomConsumeReturn) {
  TracksReferenceUnderRandomConsumeReturn<CreditDepth4>();
}
TEST(CellCreditCounterDepth4, ConsumeAtZeroFiresAssertionAndKeepsZero) {
  ConsumeAtZeroFiresAssertionAndKeepsZero<CreditDepth4>();
}
TEST(CellCreditCounterDepth4, ReturnAtDepthFiresAssertionUnlessConsumedTogether) {
  ReturnAtDepthFiresAssertionUnlessConsumedTogether<CreditDepth4>();
}

TEST(CellCreditCounterDepth1, TracksReferenceUnderRandomConsumeReturn) {
  TracksReferenceUnderRandomConsumeReturn<CreditDepth1>();
}
TEST(CellCreditCounterDepth1, ConsumeAtZeroFiresAssertionAndKeepsZero) {
  ConsumeAtZeroFiresAssertionAndKeepsZero<CreditDepth1>();
}
TEST(CellCreditCounterDepth1, ReturnAtDepthFiresAssertionUnlessConsumedTogether) {
  ReturnAtDepthFiresAssertionUnlessConsumedTogether<CreditDepth1>();
}
}  // namespace
}  // namespace wormcast::verif
