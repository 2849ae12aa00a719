// SPDX-License-Identifier: Apache-2.0
// Verilator unit tests of the router stages rtl/noc_output_unit.sv, rtl/noc_switch_allocator.sv and
// rtl/noc_vc_allocator.sv (docs/rtl-modules.md). Each stage is verilated with --assert for two parameter
// sets and driven cycle by cycle against a small C++ reference model written from the stage's
// documented behaviour, with fixed-seed random stimulus. Property checks that do not depend on the
// reference (all-or-nothing grants, one grant per output, bounded waiting) run beside it.
#include <gtest/gtest.h>
#include <verilated.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <random>
#include <type_traits>
#include <vector>

#include "Vnoc_output_unit_v2_d4.h"
#include "Vnoc_output_unit_v3_d1.h"
#include "Vnoc_switch_allocator_i3_o4_v3.h"
#include "Vnoc_switch_allocator_i5_o5_v2.h"
#include "Vnoc_vc_allocator_i2_o3_v2.h"
#include "Vnoc_vc_allocator_i5_o5_v2.h"
#include "verif/rtl/verilated_dut.hpp"

namespace wormcast::verif {
namespace {

constexpr unsigned Clog2(unsigned n) {
  unsigned w = 0;
  while ((1u << w) < n) ++w;
  return w;
}

// Round-robin reference (as noc_rr_arbiter): `next_` has the highest priority; after a grant it
// moves past the winner if the grant was used (advance) and onto it otherwise.
class RoundRobin {
 public:
  explicit RoundRobin(unsigned n) : n_(n) {}
  std::optional<unsigned> Winner(const std::vector<bool>& req) const {
    for (unsigned k = 0; k < n_; ++k) {
      const unsigned i = (next_ + k) % n_;
      if (req[i]) return i;
    }
    return std::nullopt;
  }
  void Clock(const std::vector<bool>& req, bool advance) {
    if (const auto w = Winner(req)) next_ = advance ? (*w + 1) % n_ : *w;
  }
  unsigned next() const { return next_; }

 private:
  unsigned n_;
  unsigned next_ = 0;
};

// ---------------------------------------------------------------------------------------------
// noc_output_unit

constexpr unsigned kFlitW = 66;  // noc_pkg::FlitW: {head, tail, data[64]}
constexpr unsigned kTailBit = 64;
constexpr unsigned kHeadBit = 65;

struct OutputUnitVcs2Depth4 {
  using Model = Vnoc_output_unit_v2_d4;
  static constexpr unsigned kVcs = 2, kDepth = 4, kInVcs = 10;
};
struct OutputUnitVcs3Depth1 {
  using Model = Vnoc_output_unit_v3_d1;
  static constexpr unsigned kVcs = 3, kDepth = 1, kInVcs = 5;
};

template <class P>
class OutputUnitBench {
 public:
  static constexpr unsigned kOwnerW = Clog2(P::kInVcs) ? Clog2(P::kInVcs) : 1;
  static constexpr unsigned kCountW = Clog2(P::kDepth + 1);
  static constexpr unsigned kVcIdW = Clog2(P::kVcs) ? Clog2(P::kVcs) : 1;

  // Applies one cycle's inputs (alloc: VC -> owner, send: VC with flit, credit returns), checks
  // that the link outputs did not change combinationally, then clocks.
  void Cycle(const std::vector<std::optional<unsigned>>& alloc, std::uint32_t send_mask,
             const std::vector<std::uint32_t>& flit_words, std::uint32_t credit_mask) {
    const bool valid_before = dut_->valid_o;
    dut_->alloc_i = 0;
    dut_->alloc_owner_i = 0;
    for (unsigned v = 0; v < P::kVcs; ++v) {
      if (alloc[v]) {
        SetBit(dut_->alloc_i, v, true);
        SetField(dut_->alloc_owner_i, v * kOwnerW, kOwnerW, *alloc[v]);
      }
    }
    dut_->send_i = send_mask;
    dut_->tail_i = flit_words[2] & 1u;  // the flit's tail bit (the flit itself is the router's)
    dut_->credit_i = credit_mask;
    dut_.Settle();
    no_comb_path_ = no_comb_path_ && dut_->valid_o == valid_before;
    dut_.Tick();
    dut_->alloc_i = 0;
    dut_->send_i = 0;
    dut_->credit_i = 0;
    dut_.Settle();
  }

  Dut<typename P::Model> dut_;
  bool no_comb_path_ = true;
};

// Random worms on random VCs against a reference: per VC the credits (the downstream buffer, which
// drains at random), the holder, and the registered link.
template <class P>
void CreditsAllocationAndLinkMatchReferenceUnderRandomWorms() {
  OutputUnitBench<P> bench;
  std::mt19937 rng(20261121);
  struct Vc {
    unsigned credits = P::kDepth;
    std::optional<unsigned> owner;
    bool started = false;  // the head has been sent
  };
  std::vector<Vc> ref(P::kVcs);
  bool link_valid = false;
  unsigned link_vc = 0;
  long worms_done = 0, zero_credit_cycles = 0, alloc_cycles = 0, send_cycles = 0, same_cycle_sends = 0;
  for (long cycle = 0; cycle < 20000; ++cycle) {
    // The outputs agree with the reference.
    for (unsigned v = 0; v < P::kVcs; ++v) {
      ASSERT_EQ(GetBit(bench.dut_->allocated_o, v), ref[v].owner.has_value()) << "cycle " << cycle << " vc " << v;
      ASSERT_EQ(GetField(bench.dut_->owner_o, v * bench.kOwnerW, bench.kOwnerW), ref[v].owner.value_or(0))
          << "cycle " << cycle << " vc " << v;
      ASSERT_EQ(GetBit(bench.dut_->credit_o, v), ref[v].credits > 0) << "cycle " << cycle;
      ASSERT_EQ(GetField(bench.dut_->credit_count_o, v * bench.kCountW, bench.kCountW), ref[v].credits)
          << "cycle " << cycle;
      zero_credit_cycles += ref[v].credits == 0;
    }
    ASSERT_EQ(bench.dut_->valid_o, link_valid) << "cycle " << cycle;
    if (link_valid) {
      ASSERT_EQ(bench.dut_->vc_o, link_vc) << "cycle " << cycle;
    } else {
      ASSERT_EQ(bench.dut_->vc_o, 0u) << "cycle " << cycle;
    }
    // Stimulus: allocate free VCs, send one flit on a ready VC, return credits at random.
    std::vector<std::optional<unsigned>> alloc(P::kVcs);
    for (unsigned v = 0; v < P::kVcs; ++v) {
      if (!ref[v].owner && std::bernoulli_distribution(0.3)(rng)) {
        alloc[v] = std::uniform_int_distribution<unsigned>(0, P::kInVcs - 1)(rng);
      }
    }
    // A VC may carry its worm's head in the cycle it is allocated (docs/rtl.md "Latency").
    std::vector<unsigned> ready;
    for (unsigned v = 0; v < P::kVcs; ++v) {
      if ((ref[v].owner || alloc[v]) && ref[v].credits > 0) ready.push_back(v);
    }
    std::uint32_t send_mask = 0;
    std::vector<std::uint32_t> flit = {static_cast<std::uint32_t>(rng()), static_cast<std::uint32_t>(rng()), 0};
    std::optional<unsigned> sent;
    if (!ready.empty() && std::bernoulli_distribution(0.7)(rng)) {
      sent = ready[std::uniform_int_distribution<std::size_t>(0, ready.size() - 1)(rng)];
      send_mask = 1u << *sent;
      const bool tail = std::bernoulli_distribution(0.25)(rng);
      const bool head = alloc[*sent].has_value() || !ref[*sent].started;
      flit[2] = (tail ? 1u : 0u) | (head ? 2u : 0u);
      same_cycle_sends += alloc[*sent].has_value();
    }
    std::uint32_t credit_mask = 0;
    for (unsigned v = 0; v < P::kVcs; ++v) {
      if (ref[v].credits < P::kDepth && std::bernoulli_distribution(0.35)(rng)) credit_mask |= 1u << v;
    }
    bench.Cycle(alloc, send_mask, flit, credit_mask);
    // Reference update.
    alloc_cycles += std::any_of(alloc.begin(), alloc.end(), [](const auto& a) { return a.has_value(); });
    for (unsigned v = 0; v < P::kVcs; ++v) {
      if ((credit_mask >> v) & 1u) ++ref[v].credits;
      if (alloc[v]) {
        ref[v].owner = alloc[v];
        ref[v].started = false;
      }
    }
    link_valid = sent.has_value();
    if (sent) {
      ++send_cycles;
      --ref[*sent].credits;
      ref[*sent].started = true;
      link_vc = *sent;
      if (flit[2] & 1u) {
        ref[*sent].owner.reset();
        ++worms_done;
      }
    }
  }
  EXPECT_FALSE(bench.dut_.AssertionFired()) << "legal traffic fired an assertion";
  EXPECT_TRUE(bench.no_comb_path_) << "valid_o changed combinationally with the inputs";
  EXPECT_GT(worms_done, 1000);
  EXPECT_GT(zero_credit_cycles, 500);
  EXPECT_GT(alloc_cycles, 1000);
  EXPECT_GT(send_cycles, 5000);
  EXPECT_GT(same_cycle_sends, 500);
}

// Allocates VC 0 to input VC 1 and returns a bench with that state.
template <class P>
std::unique_ptr<OutputUnitBench<P>> BenchWithVc0Allocated() {
  auto bench = std::make_unique<OutputUnitBench<P>>();
  std::vector<std::optional<unsigned>> alloc(P::kVcs);
  alloc[0] = 1;
  bench->Cycle(alloc, 0, {0, 0, 0}, 0);
  EXPECT_TRUE(GetBit(bench->dut_->allocated_o, 0));
  EXPECT_FALSE(bench->dut_.AssertionFired());
  return bench;
}

template <class P>
void SendOnFreeVcFiresAssertion() {
  auto bench = BenchWithVc0Allocated<P>();
  bench->Cycle(std::vector<std::optional<unsigned>>(P::kVcs), 1u << 1, {0, 0, 0}, 0);
  EXPECT_TRUE(bench->dut_.AssertionFired()) << "SendOnAllocatedVc_A did not fire";
}

template <class P>
void SendWithoutCreditFiresAssertionAndKeepsZero() {
  auto bench = BenchWithVc0Allocated<P>();
  const std::vector<std::optional<unsigned>> none(P::kVcs);
  for (unsigned i = 0; i < P::kDepth; ++i) bench->Cycle(none, 1u, {i, 0, 0}, 0);
  ASSERT_FALSE(bench->dut_->credit_o & 1u);
  ASSERT_FALSE(bench->dut_.AssertionFired()) << "using every credit is legal";
  bench->Cycle(none, 1u, {0, 0, 0}, 0);
  EXPECT_TRUE(bench->dut_.AssertionFired()) << "SendNeedsCredit_A did not fire";
  EXPECT_EQ(GetField(bench->dut_->credit_count_o, 0, bench->kCountW), 0u);
}

template <class P>
void TwoFlitsInOneCycleFiresAssertion() {
  OutputUnitBench<P> bench;
  std::vector<std::optional<unsigned>> alloc(P::kVcs);
  alloc[0] = 0;
  alloc[1] = 1;
  bench.Cycle(alloc, 0, {0, 0, 0}, 0);
  ASSERT_FALSE(bench.dut_.AssertionFired());
  bench.Cycle(std::vector<std::optional<unsigned>>(P::kVcs), 3u, {0, 0, 0}, 0);
  EXPECT_TRUE(bench.dut_.AssertionFired()) << "OneFlitPerCycle_A did not fire";
}

template <class P>
void AllocOnHeldVcFiresAssertion() {
  auto bench = BenchWithVc0Allocated<P>();
  std::vector<std::optional<unsigned>> alloc(P::kVcs);
  alloc[0] = 2;
  bench->Cycle(alloc, 0, {0, 0, 0}, 0);
  EXPECT_TRUE(bench->dut_.AssertionFired()) << "AllocOnlyFreeVc_A did not fire";
}

template <class P>
void AllocToNonexistentInputVcFiresAssertion() {
  OutputUnitBench<P> bench;
  std::vector<std::optional<unsigned>> alloc(P::kVcs);
  alloc[0] = P::kInVcs;  // one past the last input VC (fits in OwnerW for both parameter sets)
  bench.Cycle(alloc, 0, {0, 0, 0}, 0);
  EXPECT_TRUE(bench.dut_.AssertionFired()) << "AllocOwnerInRange_A did not fire";
}

template <class P>
void ReleasedByTailOnlyAndReusableNextCycle() {
  auto bench = BenchWithVc0Allocated<P>();
  const std::vector<std::optional<unsigned>> none(P::kVcs);
  // Head (not tail): the VC stays held.
  bench->Cycle(none, 1u, {0, 0, 2u}, 1u);
  EXPECT_TRUE(GetBit(bench->dut_->allocated_o, 0));
  // Tail: released; a new head can be allocated the next cycle.
  bench->Cycle(none, 1u, {0, 0, 1u}, 1u);
  EXPECT_FALSE(GetBit(bench->dut_->allocated_o, 0));
  EXPECT_EQ(GetField(bench->dut_->owner_o, 0, bench->kOwnerW), 0u);
  std::vector<std::optional<unsigned>> alloc(P::kVcs);
  alloc[0] = 3;
  bench->Cycle(alloc, 0, {0, 0, 0}, 0);
  EXPECT_EQ(GetField(bench->dut_->owner_o, 0, bench->kOwnerW), 3u);
  EXPECT_FALSE(bench->dut_.AssertionFired());
}

// A one-flit worm allocated and sent in the same cycle leaves the VC free for the next head.
template <class P>
void OneFlitWormAllocatedAndSentInOneCycleLeavesVcFree() {
  OutputUnitBench<P> bench;
  std::vector<std::optional<unsigned>> alloc(P::kVcs);
  alloc[0] = 2;
  bench.Cycle(alloc, 1u, {5, 6, 3u}, 0);  // head and tail
  EXPECT_FALSE(GetBit(bench.dut_->allocated_o, 0));
  EXPECT_TRUE(bench.dut_->valid_o);
  EXPECT_EQ(GetField(bench.dut_->credit_count_o, 0, bench.kCountW), P::kDepth - 1);
  alloc[0] = 3;
  bench.Cycle(alloc, 0, {0, 0, 0}, 0);
  EXPECT_TRUE(GetBit(bench.dut_->allocated_o, 0));
  EXPECT_EQ(GetField(bench.dut_->owner_o, 0, bench.kOwnerW), 3u);
  EXPECT_FALSE(bench.dut_.AssertionFired());
}

#define OUTPUT_UNIT_TESTS(Suite, P)                                                                              \
  TEST(Suite, CreditsAllocationAndLinkMatchReferenceUnderRandomWorms) {                                          \
    CreditsAllocationAndLinkMatchReferenceUnderRandomWorms<P>();                                                 \
  }                                                                                                              \
  TEST(Suite, ReleasedByTailOnlyAndReusableNextCycle) { ReleasedByTailOnlyAndReusableNextCycle<P>(); }           \
  TEST(Suite, OneFlitWormAllocatedAndSentInOneCycleLeavesVcFree) {                                               \
    OneFlitWormAllocatedAndSentInOneCycleLeavesVcFree<P>();                                                      \
  }                                                                                                              \
  TEST(Suite, SendOnFreeVcFiresAssertion) { SendOnFreeVcFiresAssertion<P>(); }                                   \
  TEST(Suite, SendWithoutCreditFiresAssertionAndKeepsZero) { SendWithoutCreditFiresAssertionAndKeepsZero<P>(); } \
  TEST(Suite, TwoFlitsInOneCycleFiresAssertion) { TwoFlitsInOneCycleFiresAssertion<P>(); }                       \
  TEST(Suite, AllocOnHeldVcFiresAssertion) { AllocOnHeldVcFiresAssertion<P>(); }                                 \
  TEST(Suite, AllocToNonexistentInputVcFiresAssertion) { AllocToNonexistentInputVcFiresAssertion<P>(); }

OUTPUT_UNIT_TESTS(StageOutputUnitVcs2Depth4, OutputUnitVcs2Depth4)
OUTPUT_UNIT_TESTS(StageOutputUnitVcs3Depth1, OutputUnitVcs3Depth1)

// ---------------------------------------------------------------------------------------------
// noc_switch_allocator

struct SwitchAllocIn5Out5Vcs2 {
  using Model = Vnoc_switch_allocator_i5_o5_v2;
  static constexpr unsigned kIn = 5, kOut = 5, kVcs = 2;
};
struct SwitchAllocIn3Out4Vcs3 {
  using Model = Vnoc_switch_allocator_i3_o4_v3;
  static constexpr unsigned kIn = 3, kOut = 4, kVcs = 3;
};

// The allocator's grants of one cycle: per input the granted VC and outputs, per output the input.
struct SwitchGrants {
  std::vector<std::optional<unsigned>> in_vc;
  std::vector<std::uint32_t> in_out;
  std::vector<std::optional<unsigned>> out_in;
  bool operator==(const SwitchGrants&) const = default;
};

// Reference of the separable input-first allocator with the rotating token, passed among the
// inputs that requested in the previous cycle (docs/rtl-modules.md).
template <class P>
class SwitchAllocReference {
 public:
  using Requests = std::vector<std::vector<std::uint32_t>>;  // [input][vc] -> set of outputs

  SwitchGrants Allocate(const Requests& req) {
    SwitchGrants g{std::vector<std::optional<unsigned>>(P::kIn), std::vector<std::uint32_t>(P::kIn, 0),
                   std::vector<std::optional<unsigned>>(P::kOut)};
    vc_req_.assign(P::kIn, std::vector<bool>(P::kVcs));
    active_.assign(P::kIn, false);
    std::vector<std::optional<unsigned>> pick(P::kIn);
    std::vector<std::uint32_t> pick_req(P::kIn, 0);
    for (unsigned i = 0; i < P::kIn; ++i) {
      for (unsigned v = 0; v < P::kVcs; ++v) vc_req_[i][v] = req[i][v] != 0;
      pick[i] = vc_arb_[i].Winner(vc_req_[i]);
      if (pick[i]) pick_req[i] = req[i][*pick[i]];
      active_[i] = pick[i].has_value();
    }
    const auto token = token_.Winner(active_before_);
    out_req_.assign(P::kOut, std::vector<bool>(P::kIn));
    arb_.assign(P::kOut, std::nullopt);
    std::vector<std::optional<unsigned>> tent(P::kOut);
    for (unsigned o = 0; o < P::kOut; ++o) {
      for (unsigned i = 0; i < P::kIn; ++i) out_req_[o][i] = (pick_req[i] >> o) & 1u;
      arb_[o] = out_arb_[o].Winner(out_req_[o]);
      tent[o] = (token && out_req_[o][*token]) ? token : arb_[o];
    }
    win_.assign(P::kIn, false);
    for (unsigned i = 0; i < P::kIn; ++i) {
      win_[i] = active_[i];
      for (unsigned o = 0; o < P::kOut; ++o) {
        if (((pick_req[i] >> o) & 1u) && tent[o] != i) win_[i] = false;
      }
      if (win_[i]) {
        g.in_vc[i] = pick[i];
        g.in_out[i] = pick_req[i];
      }
    }
    for (unsigned o = 0; o < P::kOut; ++o) {
      if (tent[o] && win_[*tent[o]]) g.out_in[o] = tent[o];
    }
    grants_ = g;
    return g;
  }

  void Clock() {
    for (unsigned i = 0; i < P::kIn; ++i) vc_arb_[i].Clock(vc_req_[i], win_[i]);
    token_.Clock(active_before_, true);
    active_before_ = active_;
    for (unsigned o = 0; o < P::kOut; ++o) out_arb_[o].Clock(out_req_[o], arb_[o] && grants_.out_in[o] == arb_[o]);
  }

 private:
  std::vector<RoundRobin> vc_arb_ = std::vector<RoundRobin>(P::kIn, RoundRobin(P::kVcs));
  RoundRobin token_{P::kIn};
  std::vector<RoundRobin> out_arb_ = std::vector<RoundRobin>(P::kOut, RoundRobin(P::kIn));
  std::vector<std::vector<bool>> vc_req_, out_req_;
  std::vector<bool> active_, win_;
  std::vector<bool> active_before_ = std::vector<bool>(P::kIn, false);  // last cycle's active_
  std::vector<std::optional<unsigned>> arb_;
  SwitchGrants grants_;
};

template <class P>
class SwitchAllocBench {
 public:
  using Requests = typename SwitchAllocReference<P>::Requests;

  // Applies the requests and reads this cycle's (combinational) grants; checks the properties that
  // hold whatever the arbitration order: a granted VC requested, and got, exactly its outputs; each
  // output goes to at most one input, the one whose grant lists it.
  SwitchGrants Request(const Requests& req) {
    dut_->req_i = 0;
    for (unsigned i = 0; i < P::kIn; ++i) {
      for (unsigned v = 0; v < P::kVcs; ++v) SetField(dut_->req_i, (i * P::kVcs + v) * P::kOut, P::kOut, req[i][v]);
    }
    dut_.Settle();
    SwitchGrants g{std::vector<std::optional<unsigned>>(P::kIn), std::vector<std::uint32_t>(P::kIn, 0),
                   std::vector<std::optional<unsigned>>(P::kOut)};
    for (unsigned i = 0; i < P::kIn; ++i) {
      unsigned count = 0;
      for (unsigned v = 0; v < P::kVcs; ++v) {
        if (GetBit(dut_->in_gnt_vc_o, i * P::kVcs + v)) {
          g.in_vc[i] = v;
          ++count;
        }
      }
      EXPECT_LE(count, 1u) << "input " << i << " granted several VCs";
      g.in_out[i] = static_cast<std::uint32_t>(GetField(dut_->in_gnt_out_o, i * P::kOut, P::kOut));
      EXPECT_EQ(g.in_out[i], g.in_vc[i] ? req[i][*g.in_vc[i]] : 0u) << "input " << i << " not all-or-nothing";
    }
    for (unsigned o = 0; o < P::kOut; ++o) {
      unsigned count = 0;
      for (unsigned i = 0; i < P::kIn; ++i) {
        if (GetBit(dut_->out_gnt_o, o * P::kIn + i)) {
          g.out_in[o] = i;
          ++count;
        }
        EXPECT_EQ(GetBit(dut_->out_gnt_o, o * P::kIn + i), ((g.in_out[i] >> o) & 1u) != 0)
            << "output " << o << " input " << i;
      }
      EXPECT_LE(count, 1u) << "output " << o << " granted twice";
    }
    CheckTentative(req, g);
    return g;
  }

  // The tentative grants (pick_vc_o, tent_gnt_o), which steer the router's flit data: per input a
  // requesting VC, or none exactly when the input requests nothing; per output an input whose pick
  // requests it, or none exactly when no pick does; both equal to the final grants wherever those
  // are given. Counts the tentative choices that lost the all-or-nothing check.
  void CheckTentative(const Requests& req, const SwitchGrants& g) {
    std::vector<std::uint32_t> pick_set(P::kIn, 0);
    for (unsigned i = 0; i < P::kIn; ++i) {
      std::optional<unsigned> pick;
      unsigned count = 0;
      bool any = false;
      for (unsigned v = 0; v < P::kVcs; ++v) {
        any = any || req[i][v] != 0;
        if (GetBit(dut_->pick_vc_o, i * P::kVcs + v)) {
          pick = v;
          ++count;
        }
      }
      EXPECT_LE(count, 1u) << "input " << i << " picked several VCs";
      EXPECT_EQ(pick.has_value(), any) << "input " << i;
      if (pick) {
        EXPECT_NE(req[i][*pick], 0u) << "input " << i << " picked a VC without a request";
        pick_set[i] = req[i][*pick];
      }
      if (g.in_vc[i]) {
        EXPECT_EQ(pick, g.in_vc[i]) << "input " << i << ": the pick is not the granted VC";
      }
      lost_picks_ += pick && !g.in_vc[i];
    }
    for (unsigned o = 0; o < P::kOut; ++o) {
      std::optional<unsigned> tent;
      unsigned count = 0;
      bool any = false;
      for (unsigned i = 0; i < P::kIn; ++i) {
        any = any || ((pick_set[i] >> o) & 1u) != 0;
        if (GetBit(dut_->tent_gnt_o, o * P::kIn + i)) {
          tent = i;
          ++count;
        }
      }
      EXPECT_LE(count, 1u) << "output " << o << " tentatively given twice";
      EXPECT_EQ(tent.has_value(), any) << "output " << o;
      if (tent) {
        EXPECT_NE((pick_set[*tent] >> o) & 1u, 0u) << "output " << o << " given to an input not asking";
      }
      if (g.out_in[o]) {
        EXPECT_EQ(tent, g.out_in[o]) << "output " << o << ": tentative is not the grant";
      }
      lost_outputs_ += tent && !g.out_in[o];
    }
  }

  void Clock() { dut_.Tick(); }

  Dut<typename P::Model> dut_;
  long lost_picks_ = 0;    // inputs whose pick was not granted
  long lost_outputs_ = 0;  // outputs tentatively given to an input that was not granted
};

// A random request set: one output (3 in 4) or two to three distinct outputs (a replicating flit).
template <class P>
std::uint32_t RandomOutputSet(std::mt19937& rng) {
  std::uint32_t set = 1u << std::uniform_int_distribution<unsigned>(0, P::kOut - 1)(rng);
  if (std::bernoulli_distribution(0.25)(rng)) {
    const unsigned extra = std::uniform_int_distribution<unsigned>(1, 2)(rng);
    for (unsigned k = 0; k < extra; ++k) set |= 1u << std::uniform_int_distribution<unsigned>(0, P::kOut - 1)(rng);
  }
  return set;
}

template <class P>
void SwitchMatchesReferenceUnderRandomRequests() {
  SwitchAllocBench<P> bench;
  SwitchAllocReference<P> ref;
  std::mt19937 rng(7700417);
  typename SwitchAllocBench<P>::Requests req(P::kIn, std::vector<std::uint32_t>(P::kVcs, 0));
  long multi_grants = 0, multi_refused = 0, grants = 0;
  for (long cycle = 0; cycle < 20000; ++cycle) {
    // A VC keeps its request until granted (its front flit waits), and gets a new one at random.
    for (auto& in : req) {
      for (auto& r : in) {
        if (r == 0 && std::bernoulli_distribution(0.3)(rng)) r = RandomOutputSet<P>(rng);
      }
    }
    const SwitchGrants got = bench.Request(req);
    const SwitchGrants want = ref.Allocate(req);
    ASSERT_TRUE(got == want) << "cycle " << cycle;
    if (::testing::Test::HasFailure()) return;
    bench.Clock();
    ref.Clock();
    for (unsigned i = 0; i < P::kIn; ++i) {
      for (unsigned v = 0; v < P::kVcs; ++v) {
        const bool multi = (req[i][v] & (req[i][v] - 1)) != 0;
        if (got.in_vc[i] == v) {
          ++grants;
          multi_grants += multi;
          req[i][v] = 0;
        } else {
          multi_refused += multi;
        }
      }
    }
  }
  EXPECT_FALSE(bench.dut_.AssertionFired()) << "legal traffic fired an assertion";
  EXPECT_GT(grants, 20000);
  EXPECT_GT(multi_grants, 1000);
  EXPECT_GT(multi_refused, 1000);
  // The tentative grants differ from the final ones often (so the checks above are not vacuous):
  // an input loses its pick's all-or-nothing check, and its outputs carry a flit that is not sent.
  EXPECT_GT(bench.lost_picks_, 1000);
  EXPECT_GT(bench.lost_outputs_, 1000);
}

// Every VC requests a fixed set forever (a quarter of them replicating, and inputs 0 and 1 both
// want outputs 0 and 1: the crossed pattern that livelocks a plain separable allocator). Each VC
// waits at most NumIn * NumVcs cycles (the proven bound, docs/verification.md), so it is granted
// at least once in every NumIn * NumVcs + 1 cycles.
template <class P>
void SwitchNoStarvationUnderPermanentRequests() {
  for (unsigned seed = 1; seed <= 4; ++seed) {
    SwitchAllocBench<P> bench;
    std::mt19937 rng(seed);
    typename SwitchAllocBench<P>::Requests req(P::kIn, std::vector<std::uint32_t>(P::kVcs, 0));
    for (unsigned i = 0; i < P::kIn; ++i) {
      for (unsigned v = 0; v < P::kVcs; ++v) req[i][v] = (i < 2 && v == 0) ? 3u : RandomOutputSet<P>(rng);
    }
    std::vector<std::vector<long>> last(P::kIn, std::vector<long>(P::kVcs, -1));
    long max_gap = 0;
    for (long cycle = 0; cycle < 5000; ++cycle) {
      const SwitchGrants got = bench.Request(req);
      bench.Clock();
      for (unsigned i = 0; i < P::kIn; ++i) {
        if (!got.in_vc[i]) continue;
        max_gap = std::max(max_gap, cycle - last[i][*got.in_vc[i]]);
        last[i][*got.in_vc[i]] = cycle;
      }
    }
    for (unsigned i = 0; i < P::kIn; ++i) {
      for (unsigned v = 0; v < P::kVcs; ++v) {
        max_gap = std::max(max_gap, 5000 - last[i][v]);
      }
    }
    EXPECT_LE(max_gap, static_cast<long>(P::kIn * P::kVcs + 1)) << "seed " << seed;
    EXPECT_FALSE(bench.dut_.AssertionFired());
  }
}

// Directed: a replicating flit that gets only one of its two outputs gets neither, and the output
// it did get stays idle; it wins both in the next cycle.
template <class P>
void SwitchMultiOutputGrantedOnlyWithAllItsOutputs() {
  SwitchAllocBench<P> bench;
  typename SwitchAllocBench<P>::Requests req(P::kIn, std::vector<std::uint32_t>(P::kVcs, 0));
  // Cycle 1: input 1 alone (output 2), so the token is input 1's in the next cycle.
  req[1][0] = 1u << 2;
  SwitchGrants g = bench.Request(req);
  ASSERT_EQ(g.out_in[2], 1u);
  bench.Clock();
  // Cycle 2: input 0 wants outputs 0 and 1, input 1 (the token holder) wants output 1.
  req[0][0] = 3u;
  req[1][0] = 2u;
  g = bench.Request(req);
  EXPECT_EQ(g.out_in[1], 1u);
  EXPECT_EQ(g.in_vc[1], 0u);
  EXPECT_FALSE(g.in_vc[0].has_value()) << "replicating flit granted without all its outputs";
  EXPECT_FALSE(g.out_in[0].has_value()) << "output 0 granted to a flit that did not get output 1";
  bench.Clock();
  // Cycle 3: the token moves on to input 0 (both requested in cycle 2): input 0 gets both outputs,
  // input 1 nothing.
  g = bench.Request(req);
  EXPECT_EQ(g.in_vc[0], 0u);
  EXPECT_EQ(g.in_out[0], 3u);
  EXPECT_EQ(g.out_in[0], 0u);
  EXPECT_EQ(g.out_in[1], 0u);
  EXPECT_FALSE(g.in_vc[1].has_value());
  EXPECT_FALSE(bench.dut_.AssertionFired());
}

#define SWITCH_ALLOC_TESTS(Suite, P)                                                                   \
  TEST(Suite, MatchesReferenceUnderRandomRequests) { SwitchMatchesReferenceUnderRandomRequests<P>(); } \
  TEST(Suite, NoStarvationUnderPermanentRequests) { SwitchNoStarvationUnderPermanentRequests<P>(); }   \
  TEST(Suite, MultiOutputGrantedOnlyWithAllItsOutputs) { SwitchMultiOutputGrantedOnlyWithAllItsOutputs<P>(); }

SWITCH_ALLOC_TESTS(StageSwitchAllocIn5Out5Vcs2, SwitchAllocIn5Out5Vcs2)
SWITCH_ALLOC_TESTS(StageSwitchAllocIn3Out4Vcs3, SwitchAllocIn3Out4Vcs3)

// ---------------------------------------------------------------------------------------------
// noc_vc_allocator

struct VcAllocIn5Out5Vcs2 {
  using Model = Vnoc_vc_allocator_i5_o5_v2;
  static constexpr unsigned kIn = 5, kOut = 5, kVcs = 2;
};
struct VcAllocIn2Out3Vcs2 {
  using Model = Vnoc_vc_allocator_i2_o3_v2;
  static constexpr unsigned kIn = 2, kOut = 3, kVcs = 2;
};

// Reference of the allocator folded into switch allocation, with registered admission
// (docs/rtl.md, "Admission and starvation"): each cycle a round-robin pick among the waiting heads is
// registered with its set; in the next cycle that head is the top if it still waits. A waiting head
// may request the switch iff all its output VCs are free and, unless it is the top, none of them
// is in the registered set (nothing is reserved without a top). The pointer moves past the top once
// the switch carries it.
template <class P>
class VcAllocReference {
 public:
  static constexpr unsigned kInVcs = P::kIn * P::kVcs;

  std::vector<bool> Admit(const std::vector<bool>& req, const std::vector<std::uint32_t>& target, std::uint32_t free) {
    req_ = req;
    ok_.assign(kInVcs, false);
    pick_ = rr_.Winner(req);
    pick_set_ = pick_ ? target[*pick_] : 0;
    top_now_ = (top_q_ && req[*top_q_]) ? top_q_ : std::nullopt;
    const std::uint32_t reserved = top_now_ ? top_set_q_ : 0;
    for (unsigned j = 0; j < kInVcs; ++j) {
      ok_[j] = req[j] && (target[j] & ~free) == 0 && (j == top_now_ || (target[j] & reserved) == 0);
    }
    return ok_;
  }
  std::optional<unsigned> top() const { return top_now_; }

  void Clock(const std::vector<bool>& taken) {
    rr_.Clock(req_, top_now_ && taken[*top_now_]);
    top_q_ = pick_;
    top_set_q_ = pick_set_;
  }

 private:
  RoundRobin rr_{kInVcs};
  std::optional<unsigned> pick_, top_q_, top_now_;
  std::uint32_t pick_set_ = 0, top_set_q_ = 0;
  std::vector<bool> req_, ok_;
};

template <class P>
class VcAllocBench {
 public:
  static constexpr unsigned kInVcs = P::kIn * P::kVcs;
  static constexpr unsigned kOutVcs = P::kOut * P::kVcs;

  // Applies the waiting heads and returns which may request the switch (nothing taken yet).
  std::vector<bool> Request(const std::vector<bool>& req, const std::vector<std::uint32_t>& target,
                            std::uint32_t free) {
    dut_->req_i = 0;
    dut_->taken_i = 0;
    for (unsigned j = 0; j < kInVcs; ++j) {
      SetBit(dut_->req_i, j, req[j]);
      SetField(dut_->target_i, j * kOutVcs, kOutVcs, target[j]);
    }
    dut_->free_i = free;
    dut_.Settle();
    std::vector<bool> ok(kInVcs);
    for (unsigned j = 0; j < kInVcs; ++j) {
      ok[j] = GetBit(dut_->ok_o, j);
      if (!ok[j]) continue;
      EXPECT_TRUE(req[j]) << "ok without request";
      EXPECT_EQ(target[j] & ~free, 0u) << "input VC " << j << " may take a busy output VC";
    }
    return ok;
  }

  // The switch carries the heads in `taken` (the caller's stand-in for the switch allocator). Which
  // output VCs they take, and by whom, the router derives from the switch grants (noc_router's
  // SendIsGrantedVc_A and AllocIsTakenSet_A check that against the taken sets in simulation).
  void Take(const std::vector<bool>& taken) {
    dut_->taken_i = 0;
    for (unsigned j = 0; j < kInVcs; ++j) SetBit(dut_->taken_i, j, taken[j]);
    dut_.Settle();
  }

  void Clock() { dut_.Tick(); }

  Dut<typename P::Model> dut_;
};

// A random head's targets: one output VC, or (1 in 4) two or three on distinct ports; the VC per
// port is random (as the route's class would name it).
template <class P>
std::uint32_t RandomTargets(std::mt19937& rng) {
  const unsigned ports =
      std::bernoulli_distribution(0.25)(rng) ? std::uniform_int_distribution<unsigned>(2, 3)(rng) : 1;
  std::vector<unsigned> order(P::kOut);
  for (unsigned o = 0; o < P::kOut; ++o) order[o] = o;
  std::shuffle(order.begin(), order.end(), rng);
  std::uint32_t set = 0;
  for (unsigned k = 0; k < std::min(ports, P::kOut); ++k) {
    set |= 1u << (order[k] * P::kVcs + std::uniform_int_distribution<unsigned>(0, P::kVcs - 1)(rng));
  }
  return set;
}

// The output ports of a set of output VCs (bit o = port o).
template <class P>
std::uint32_t PortsOf(std::uint32_t out_vcs) {
  std::uint32_t ports = 0;
  for (unsigned k = 0; k < P::kOut * P::kVcs; ++k) {
    if ((out_vcs >> k) & 1u) ports |= 1u << (k / P::kVcs);
  }
  return ports;
}

// A stand-in for the switch allocator: it carries heads that may go, each output port to one of
// them, all of a head's ports or none. `first` (the top, when given) is served before the others,
// as the switch allocator's token serves every input in turn; the others in `order`, each with
// probability `p` (a head can lose the switch to a body flit of another worm).
template <class P>
std::vector<bool> StandInSwitch(const std::vector<bool>& ok, const std::vector<std::uint32_t>& target,
                                std::optional<unsigned> first, const std::vector<unsigned>& order, double p,
                                std::mt19937& rng) {
  std::vector<bool> taken(ok.size(), false);
  std::uint32_t used = 0;
  auto offer = [&](unsigned j, bool always) {
    const std::uint32_t ports = PortsOf<P>(target[j]);
    if (!ok[j] || taken[j] || (ports & used) != 0) return;
    if (!always && !std::bernoulli_distribution(p)(rng)) return;
    taken[j] = true;
    used |= ports;
  };
  if (first) offer(*first, true);
  for (const unsigned j : order) offer(j, false);
  return taken;
}

// Heads arrive at random and wait until the switch carries them; a worm holds its output VCs for a
// random number of cycles (its length), then frees them. As in the router, an input VC whose head
// was carried has no head waiting in the next cycle (its lead has left Routed). The RTL's
// admissions match the reference every cycle, and a head is never admitted to a held output VC.
// With `permanent`, every input VC has a head waiting from the second cycle after its last one was
// carried, and each head must go within the round-robin bound.
template <class P>
void VcAllocRun(bool permanent, unsigned seed) {
  using Bench = VcAllocBench<P>;
  Bench bench;
  VcAllocReference<P> ref;
  std::mt19937 rng(seed);
  constexpr unsigned kMaxWorm = 6;
  std::vector<bool> req(Bench::kInVcs, false);
  std::vector<std::uint32_t> target(Bench::kInVcs, 0);
  std::vector<long> since(Bench::kInVcs, 0);
  std::vector<unsigned> busy_for(Bench::kOutVcs, 0);  // cycles until the output VC is free
  std::vector<unsigned> order(Bench::kInVcs);
  for (unsigned j = 0; j < Bench::kInVcs; ++j) order[j] = j;
  std::vector<bool> carried(Bench::kInVcs, false);  // the input VC's head was carried last cycle
  long grants = 0, multi_grants = 0, max_wait = 0;
  for (long cycle = 0; cycle < 20000; ++cycle) {
    for (unsigned j = 0; j < Bench::kInVcs; ++j) {
      if (!req[j] && !carried[j] && (permanent || std::bernoulli_distribution(0.2)(rng))) {
        req[j] = true;
        target[j] = RandomTargets<P>(rng);
        since[j] = cycle;
      }
    }
    std::uint32_t free = 0;
    for (unsigned k = 0; k < Bench::kOutVcs; ++k) free |= (busy_for[k] == 0 ? 1u : 0u) << k;
    const std::vector<bool> ok = bench.Request(req, target, free);
    ASSERT_EQ(ok, ref.Admit(req, target, free)) << "cycle " << cycle;
    std::shuffle(order.begin(), order.end(), rng);
    const std::vector<bool> taken = StandInSwitch<P>(ok, target, ref.top(), order, 0.75, rng);
    bench.Take(taken);
    if (::testing::Test::HasFailure()) return;
    bench.Clock();
    ref.Clock(taken);
    carried = taken;
    for (unsigned k = 0; k < Bench::kOutVcs; ++k) busy_for[k] -= busy_for[k] > 0;
    for (unsigned j = 0; j < Bench::kInVcs; ++j) {
      if (!taken[j]) continue;
      ++grants;
      multi_grants += (target[j] & (target[j] - 1)) != 0;
      max_wait = std::max(max_wait, cycle - since[j]);
      const unsigned length = std::uniform_int_distribution<unsigned>(1, kMaxWorm)(rng);
      for (unsigned k = 0; k < Bench::kOutVcs; ++k) {
        if ((target[j] >> k) & 1u) busy_for[k] = length;
      }
      req[j] = false;
    }
  }
  EXPECT_FALSE(bench.dut_.AssertionFired()) << "legal traffic fired an assertion";
  EXPECT_GT(grants, 2000);
  EXPECT_GT(multi_grants, 300);
  if (permanent) {
    // A head is picked after at most kInVcs - 1 other picks, each carried before the next pick
    // (a waiting top keeps the pick). A pick made in cycle e is top from e + 1, and its VCs are
    // reserved from then on, so only worms that took them by cycle e hold them: they are free by
    // e + kMaxWorm + 1, when the top goes (served first). So a pick is carried by e + kMaxWorm + 1
    // and the next pick is made in the cycle after: kMaxWorm + 2 cycles per pick, the waiting
    // head's own included.
    EXPECT_LE(max_wait, static_cast<long>(Bench::kInVcs * (kMaxWorm + 2)));
  }
}

template <class P>
void VcAllocMatchesReferenceUnderRandomHeads() {
  VcAllocRun<P>(false, 31337);
}

template <class P>
void VcAllocNoStarvationUnderPermanentRequests() {
  for (unsigned seed = 1; seed <= 3; ++seed) VcAllocRun<P>(true, seed);
}

// Directed: input VC 2 needs output VCs 0 and NumVcs (port 0 VC 0, port 1 VC 0); input VCs 0 and 1
// each need one of them and re-request as soon as their worm (2 cycles) has left, out of phase, so
// the two VCs are never free together unless the allocator reserves them. The switch carries every
// head that may go (input VC 2 has no precedence there). Input VC 2 still gets both, again and
// again.
template <class P>
void VcAllocMultiVcRequestNotStarvedBySingleVcRequests() {
  using Bench = VcAllocBench<P>;
  Bench bench;
  std::mt19937 rng(7);
  std::vector<bool> req(Bench::kInVcs, false);
  std::vector<std::uint32_t> target(Bench::kInVcs, 0);
  const std::uint32_t a = 1u, b = 1u << P::kVcs;
  target[0] = a;
  target[1] = b;
  target[2] = a | b;
  std::vector<unsigned> busy_for(Bench::kOutVcs, 0);
  busy_for[0] = 1;  // out of phase from the start
  const std::vector<unsigned> order = {0, 1, 2};
  std::vector<bool> carried(Bench::kInVcs, false);
  long multi_grants = 0;
  for (long cycle = 0; cycle < 1000; ++cycle) {
    for (unsigned j = 0; j < 3; ++j) req[j] = !carried[j];  // a carried head's VC waits a cycle
    std::uint32_t free = 0;
    for (unsigned k = 0; k < Bench::kOutVcs; ++k) free |= (busy_for[k] == 0 ? 1u : 0u) << k;
    const std::vector<bool> ok = bench.Request(req, target, free);
    const std::vector<bool> taken = StandInSwitch<P>(ok, target, std::nullopt, order, 1.0, rng);
    bench.Take(taken);
    bench.Clock();
    carried = taken;
    for (unsigned k = 0; k < Bench::kOutVcs; ++k) busy_for[k] -= busy_for[k] > 0;
    for (unsigned j = 0; j < 3; ++j) {
      if (!taken[j]) continue;
      multi_grants += j == 2;
      for (unsigned k = 0; k < Bench::kOutVcs; ++k) {
        if ((target[j] >> k) & 1u) busy_for[k] = 2;
      }
    }
  }
  EXPECT_GT(multi_grants, 100);
  EXPECT_FALSE(bench.dut_.AssertionFired());
}

// Directed, the registered rule: input VC 0 waits for output VCs a and b (b busy), input VC 1 for
// a alone. In the first cycle VC 0 is picked but reserves nothing yet, so VC 1 may go; from the
// next cycle VC 0 is the top and a is reserved for it; once b is free VC 0 goes and VC 1 does not.
template <class P>
void VcAllocPickReservesFromTheNextCycle() {
  using Bench = VcAllocBench<P>;
  Bench bench;
  std::vector<bool> req(Bench::kInVcs, false);
  std::vector<std::uint32_t> target(Bench::kInVcs, 0);
  const std::uint32_t a = 1u, b = 1u << P::kVcs, all_free = (1u << Bench::kOutVcs) - 1;
  req[0] = req[1] = true;
  target[0] = a | b;
  target[1] = a;
  std::vector<bool> ok = bench.Request(req, target, all_free & ~b);
  EXPECT_FALSE(ok[0]);
  EXPECT_TRUE(ok[1]) << "a head picked this cycle reserved its set at once";
  bench.Clock();
  ok = bench.Request(req, target, all_free & ~b);
  EXPECT_FALSE(ok[0]);
  EXPECT_FALSE(ok[1]) << "the top's set was not reserved";
  bench.Clock();
  ok = bench.Request(req, target, all_free);
  EXPECT_TRUE(ok[0]);
  EXPECT_FALSE(ok[1]);
  EXPECT_FALSE(bench.dut_.AssertionFired());
}

// A head of the same input VC waiting in the cycle after its VC's head was carried breaks the
// router's contract (the registered pick would name it with the old head's set).
template <class P>
void VcAllocWaitingRightAfterCarriedFiresAssertion() {
  using Bench = VcAllocBench<P>;
  Bench bench;
  std::vector<bool> req(Bench::kInVcs, false), taken(Bench::kInVcs, false);
  std::vector<std::uint32_t> target(Bench::kInVcs, 0);
  const std::uint32_t all_free = (1u << Bench::kOutVcs) - 1;
  req[1] = taken[1] = true;
  target[1] = 1u;
  ASSERT_TRUE(bench.Request(req, target, all_free)[1]);
  bench.Take(taken);
  bench.Clock();
  ASSERT_FALSE(bench.dut_.AssertionFired());
  bench.Request(req, target, all_free);
  bench.Clock();
  EXPECT_TRUE(bench.dut_.AssertionFired()) << "TakenStopsWaiting_A did not fire";
}

template <class P>
void VcAllocRequestWithoutTargetsFiresAssertion() {
  VcAllocBench<P> bench;
  std::vector<bool> req(VcAllocBench<P>::kInVcs, false);
  std::vector<std::uint32_t> target(VcAllocBench<P>::kInVcs, 0);
  const std::uint32_t all_free = (1u << VcAllocBench<P>::kOutVcs) - 1;
  req[1] = true;
  target[1] = 1u;
  bench.Request(req, target, all_free);
  bench.Clock();
  ASSERT_FALSE(bench.dut_.AssertionFired());
  target[1] = 0;
  bench.Request(req, target, all_free);
  bench.Clock();
  EXPECT_TRUE(bench.dut_.AssertionFired()) << "RequestHasTargets_A did not fire";
}

// A switch that carries a head whose output VC is busy breaks the router's contract.
template <class P>
void VcAllocTakenWithoutOkFiresAssertion() {
  using Bench = VcAllocBench<P>;
  Bench bench;
  std::vector<bool> req(Bench::kInVcs, false), taken(Bench::kInVcs, false);
  std::vector<std::uint32_t> target(Bench::kInVcs, 0);
  req[1] = taken[1] = true;
  target[1] = 1u;
  const std::uint32_t all_free = (1u << Bench::kOutVcs) - 1;
  ASSERT_TRUE(bench.Request(req, target, all_free)[1]);
  bench.Clock();  // not carried: it still waits in the next cycle
  ASSERT_FALSE(bench.dut_.AssertionFired());
  EXPECT_FALSE(bench.Request(req, target, all_free & ~1u)[1]);
  bench.Take(taken);
  bench.Clock();
  EXPECT_TRUE(bench.dut_.AssertionFired()) << "TakenOnlyOk_A did not fire";
}

#define VC_ALLOC_TESTS(Suite, P)                                                                                      \
  TEST(Suite, MatchesReferenceUnderRandomHeads) { VcAllocMatchesReferenceUnderRandomHeads<P>(); }                     \
  TEST(Suite, NoStarvationUnderPermanentRequests) { VcAllocNoStarvationUnderPermanentRequests<P>(); }                 \
  TEST(Suite, MultiVcRequestNotStarvedBySingleVcRequests) { VcAllocMultiVcRequestNotStarvedBySingleVcRequests<P>(); } \
  TEST(Suite, PickReservesFromTheNextCycle) { VcAllocPickReservesFromTheNextCycle<P>(); }                             \
  TEST(Suite, WaitingRightAfterCarriedFiresAssertion) { VcAllocWaitingRightAfterCarriedFiresAssertion<P>(); }         \
  TEST(Suite, RequestWithoutTargetsFiresAssertion) { VcAllocRequestWithoutTargetsFiresAssertion<P>(); }               \
  TEST(Suite, TakenWithoutOkFiresAssertion) { VcAllocTakenWithoutOkFiresAssertion<P>(); }

VC_ALLOC_TESTS(StageVcAllocIn5Out5Vcs2, VcAllocIn5Out5Vcs2)
VC_ALLOC_TESTS(StageVcAllocIn2Out3Vcs2, VcAllocIn2Out3Vcs2)

}  // namespace
}  // namespace wormcast::verif
