// SPDX-License-Identifier: Apache-2.0
// Cell test of rtl/noc_ebr_buffer.sv, the input buffers in block RAM (docs/rtl.md, "Input buffers
// in block RAM"): verif/rtl/noc_ebr_buffer_pair.sv holds it beside the NumVcs register FIFOs
// (rtl/noc_fifo.sv) it replaces, both driven by the same random legal push/pop stream (all VCs,
// phases that fill and drain them so full and empty are reached often), and every cycle the two
// must agree: empty, full, count, overflow and the flag bits of every VC's head exactly; the data
// bits of every head under the read budget (at most one pop per cycle, as the switch pops), and of
// every head the buffer reports loaded under any number of pops per cycle, which must all be
// loaded again after a few cycles without pops.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "Vnoc_ebr_buffer_pair_v2_w3_d1.h"
#include "Vnoc_ebr_buffer_pair_v3_w8_d5.h"
#include "Vnoc_ebr_buffer_pair_v4_w16_d4.h"
#include "verif/rtl/verilated_dut.hpp"

namespace wormcast::verif {
namespace {

struct Vcs4Width16Depth4 {
  using Model = Vnoc_ebr_buffer_pair_v4_w16_d4;
  static constexpr unsigned kVcs = 4, kWidth = 16, kDepth = 4;
};
struct Vcs3Width8Depth5 {
  using Model = Vnoc_ebr_buffer_pair_v3_w8_d5;
  static constexpr unsigned kVcs = 3, kWidth = 8, kDepth = 5;
};
struct Vcs2Width3Depth1 {
  using Model = Vnoc_ebr_buffer_pair_v2_w3_d1;
  static constexpr unsigned kVcs = 2, kWidth = 3, kDepth = 1;
};

constexpr unsigned CountBits(unsigned depth) {
  unsigned w = 0;
  while ((1u << w) < depth + 1) ++w;
  return w;
}

template <class P>
class PairBench {
 public:
  static constexpr unsigned kCountW = CountBits(P::kDepth);
  static constexpr unsigned kDataW = P::kWidth - 2;  // the bits in the RAM; the top 2 are flags
  static constexpr unsigned kVcIdW = P::kVcs > 1 ? CountBits(P::kVcs - 1) : 1;

  unsigned Count(unsigned v) { return static_cast<unsigned>(GetField(dut_->reg_count_o, v * kCountW, kCountW)); }
  bool Loaded(unsigned v) { return GetBit(dut_->ebr_loaded_o, v); }

  // Every output the two must agree on this cycle; `need_data`: every non-empty head's data too.
  // Returns the number of non-empty VCs whose head data the buffer has not loaded.
  int Compare(bool need_data, long cycle) {
    int unloaded = 0;
    for (unsigned v = 0; v < P::kVcs; ++v) {
      EXPECT_EQ(GetBit(dut_->ebr_empty_o, v), GetBit(dut_->reg_empty_o, v)) << "cycle " << cycle << " VC " << v;
      EXPECT_EQ(GetBit(dut_->ebr_full_o, v), GetBit(dut_->reg_full_o, v)) << "cycle " << cycle << " VC " << v;
      EXPECT_EQ(GetField(dut_->ebr_count_o, v * kCountW, kCountW), Count(v)) << "cycle " << cycle << " VC " << v;
      EXPECT_EQ(GetBit(dut_->ebr_overflow_o, v), GetBit(dut_->reg_overflow_o, v)) << "cycle " << cycle;
      if (Count(v) == 0) {
        EXPECT_FALSE(Loaded(v)) << "cycle " << cycle << " VC " << v << ": loaded while empty";
        continue;
      }
      const unsigned lsb = v * P::kWidth;
      EXPECT_EQ(GetField(dut_->ebr_data_o, lsb + kDataW, 2), GetField(dut_->reg_data_o, lsb + kDataW, 2))
          << "cycle " << cycle << " VC " << v << ": head/tail flags";
      if (need_data) {
        EXPECT_TRUE(Loaded(v)) << "cycle " << cycle << " VC " << v << ": head data not loaded";
      }
      if (Loaded(v)) {
        EXPECT_EQ(GetField(dut_->ebr_data_o, lsb, kDataW), GetField(dut_->reg_data_o, lsb, kDataW))
            << "cycle " << cycle << " VC " << v << ": head data";
      } else {
        ++unloaded;
      }
    }
    return unloaded;
  }

  void Cycle(bool push, unsigned vc, std::uint32_t data, std::uint32_t pops) {
    dut_->push_i = push;
    SetField(dut_->push_vc_i, 0, kVcIdW, vc);
    SetField(dut_->data_i, 0, P::kWidth, data);
    SetField(dut_->pop_i, 0, P::kVcs, pops);
    dut_.Settle();
    dut_.Tick();
  }

  Dut<typename P::Model> dut_;
};

// `multi_pop`: pops on any subset of the non-empty VCs (a switch pop beside drained or dropped
// flits); otherwise at most one pop per cycle.
template <class P>
void MatchesRegisterFifos(bool multi_pop) {
  PairBench<P> bench;
  std::mt19937 rng(multi_pop ? 20261124 : 20261123);
  std::uniform_int_distribution<std::uint32_t> data(0, (std::uint32_t{1} << P::kWidth) - 1);
  // Fill, drain, churn; in the multi-pop run every fifth phase has no pops (the recovery).
  const std::vector<std::pair<double, double>> phases = {{0.9, 0.3}, {0.3, 0.9}, {0.6, 0.6}, {1.0, 1.0}, {0.7, 0.0}};
  long full_cycles = 0, deep_cycles = 0, unloaded_cycles = 0, quiet = 0;
  for (long cycle = 0; cycle < 30000; ++cycle) {
    const int unloaded = bench.Compare(!multi_pop, cycle);
    if (::testing::Test::HasFailure()) return;
    unloaded_cycles += unloaded > 0;
    // One read a cycle refills at most two positions per VC.
    if (quiet > static_cast<long>(2 * P::kVcs)) {
      ASSERT_EQ(unloaded, 0) << "cycle " << cycle << ": still unloaded after " << quiet << " cycles without a pop";
    }
    bool any_full = false, any_deep = false;
    for (unsigned v = 0; v < P::kVcs; ++v) {
      any_full |= bench.Count(v) == P::kDepth;
      any_deep |= bench.Count(v) >= 3;  // an entry that arrived behind two others came from the RAM
    }
    full_cycles += any_full;
    deep_cycles += any_deep;
    const auto [p_push, p_pop] = phases[(cycle / 200) % phases.size()];
    const auto vc = static_cast<unsigned>(rng() % P::kVcs);
    const bool push = bench.Count(vc) < P::kDepth && std::bernoulli_distribution(p_push)(rng);
    std::uint32_t pops = 0;
    if (multi_pop) {
      for (unsigned v = 0; v < P::kVcs; ++v) {
        if (bench.Count(v) > 0 && std::bernoulli_distribution(p_pop)(rng)) pops |= 1u << v;
      }
    } else {
      const auto v = static_cast<unsigned>(rng() % P::kVcs);
      if (bench.Count(v) > 0 && std::bernoulli_distribution(p_pop)(rng)) pops = 1u << v;
    }
    quiet = pops == 0 ? quiet + 1 : 0;
    bench.Cycle(push, vc, data(rng), pops);
  }
  EXPECT_FALSE(bench.dut_.AssertionFired()) << "legal traffic fired an assertion";
  EXPECT_GT(full_cycles, 1000);
  if (P::kDepth >= 3) {
    EXPECT_GT(deep_cycles, 1000);
    // Several pops in one cycle do leave heads unloaded (so the budget is real, and tested).
    if (multi_pop) {
      EXPECT_GT(unloaded_cycles, 5);
    }
  }
}

TEST(CellEbrBufferVcs4Width16Depth4, OnePopPerCycleMatchesRegisterFifosEveryCycle) {
  MatchesRegisterFifos<Vcs4Width16Depth4>(false);
}
TEST(CellEbrBufferVcs4Width16Depth4, ManyPopsPerCycleLoadedHeadsMatchAndRecover) {
  MatchesRegisterFifos<Vcs4Width16Depth4>(true);
}
TEST(CellEbrBufferVcs3Width8Depth5, OnePopPerCycleMatchesRegisterFifosEveryCycle) {
  MatchesRegisterFifos<Vcs3Width8Depth5>(false);
}
TEST(CellEbrBufferVcs3Width8Depth5, ManyPopsPerCycleLoadedHeadsMatchAndRecover) {
  MatchesRegisterFifos<Vcs3Width8Depth5>(true);
}
TEST(CellEbrBufferVcs2Width3Depth1, OnePopPerCycleMatchesRegisterFifosEveryCycle) {
  MatchesRegisterFifos<Vcs2Width3Depth1>(false);
}
TEST(CellEbrBufferVcs2Width3Depth1, ManyPopsPerCycleLoadedHeadsMatchAndRecover) {
  MatchesRegisterFifos<Vcs2Width3Depth1>(true);
}

}  // namespace
}  // namespace wormcast::verif
