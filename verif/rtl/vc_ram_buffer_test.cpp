// SPDX-License-Identifier: Apache-2.0
// Verilator unit tests of rtl/noc_vc_ram_buffer.sv, the input buffers whose data the switch grant
// reads from a RAM: verilated with --assert for three shapes and driven cycle by cycle against a
// reference of one std::deque per VC. Random pushes, grant reads and drops (several VCs in one
// cycle, a read and a drop of the same VC) and side reads (one per cycle where a flit waits behind
// the popped front) with fixed seeds.
#include <gtest/gtest.h>
#include <verilated.h>

#include <cstdint>
#include <deque>
#include <optional>
#include <random>
#include <vector>

#include "Vnoc_vc_ram_buffer_v1_w3_d1.h"
#include "Vnoc_vc_ram_buffer_v3_w8_d5.h"
#include "Vnoc_vc_ram_buffer_v4_w32_d16.h"
#include "verif/rtl/verilated_dut.hpp"

namespace wormcast::verif {
namespace {

constexpr unsigned kFlagW = 2;   // the router's head and tail flags
constexpr unsigned kSideW = 11;  // the router's decision (3 or 4 network ports)
constexpr std::uint32_t kSideMask = (1u << kSideW) - 1;

// The router's shape: 4 VCs of 16 flits, 32-bit data.
struct RouterShape {
  using Model = Vnoc_vc_ram_buffer_v4_w32_d16;
  static constexpr unsigned kVcs = 4;
  static constexpr unsigned kDataW = 32;
  static constexpr unsigned kDepth = 16;
};
// A VC count and depth that are not powers of two (regions with unused slots, pointers wrapping).
struct OddShape {
  using Model = Vnoc_vc_ram_buffer_v3_w8_d5;
  static constexpr unsigned kVcs = 3;
  static constexpr unsigned kDataW = 8;
  static constexpr unsigned kDepth = 5;
};
// One VC of one flit: the pointers tied off.
struct SingleSlotShape {
  using Model = Vnoc_vc_ram_buffer_v1_w3_d1;
  static constexpr unsigned kVcs = 1;
  static constexpr unsigned kDataW = 3;
  static constexpr unsigned kDepth = 1;
};

struct StoredFlit {
  std::uint32_t data;
  unsigned flags;
  std::uint32_t side = 0;
};

// Drives one noc_vc_ram_buffer and keeps the reference queues in step.
template <class P>
class RamBufferBench {
 public:
  static constexpr unsigned kCountW = [] {
    unsigned w = 0;
    while ((1u << w) < P::kDepth + 1) ++w;
    return w;
  }();
  static constexpr std::uint32_t kDataMask = P::kDataW == 32 ? 0xffffffffu : (std::uint32_t{1} << P::kDataW) - 1;

  RamBufferBench() : queues_(P::kVcs) {}

  // One clock edge: a push into `push_vc` (if given), the grant read of `read_vc` (if given) and
  // the drops of `drops` (a bit per VC). The reference follows the contract: a read and a drop of
  // one VC pop it once; the read flit is expected on rdata_o after the edge.
  // `side_reads` (a bit per VC): the pops that ask for their next flit's side word. After the
  // edge a VC's front shows its side word iff the front is new and was pushed there, or a side
  // read popped the flit ahead of it.
  void Cycle(std::optional<unsigned> push_vc, StoredFlit flit, std::optional<unsigned> read_vc, unsigned drops,
             unsigned side_reads = 0) {
    dut_->push_i = push_vc.has_value();
    dut_->push_vc_i = push_vc.value_or(0);
    dut_->push_data_i = flit.data & kDataMask;
    dut_->push_flags_i = flit.flags;
    dut_->push_side_i = flit.side & kSideMask;
    dut_->read_i = read_vc ? (1u << *read_vc) : 0u;
    dut_->drop_i = drops;
    dut_->side_read_i = side_reads;
    dut_.Tick();
    dut_->push_i = 0;
    dut_->read_i = 0;
    dut_->drop_i = 0;
    dut_->side_read_i = 0;
    dut_.Settle();
    if (read_vc) expected_read_ = queues_[*read_vc].front().data;
    side_shown_.assign(P::kVcs, false);
    for (unsigned v = 0; v < P::kVcs; ++v) {
      if ((read_vc && *read_vc == v) || (drops >> v & 1u)) {
        queues_[v].pop_front();
        side_shown_[v] = (side_reads >> v & 1u) && !queues_[v].empty();
      }
    }
    if (push_vc) {
      side_shown_[*push_vc] = side_shown_[*push_vc] || queues_[*push_vc].empty();
      queues_[*push_vc].push_back({flit.data & kDataMask, flit.flags, flit.side & kSideMask});
    }
  }

  // Every output agrees with the reference: per VC count, empty, full and front flags; the data of
  // the last read.
  void ExpectMatches(long cycle) {
    for (unsigned v = 0; v < P::kVcs; ++v) {
      const std::deque<StoredFlit>& q = queues_[v];
      const unsigned count = (dut_->count_o >> (v * kCountW)) & ((1u << kCountW) - 1);
      ASSERT_EQ(count, q.size()) << "cycle " << cycle << " vc " << v;
      ASSERT_EQ(dut_->empty_o >> v & 1u, q.empty() ? 1u : 0u) << "cycle " << cycle << " vc " << v;
      ASSERT_EQ(dut_->full_o >> v & 1u, q.size() == P::kDepth ? 1u : 0u) << "cycle " << cycle << " vc " << v;
      if (!q.empty()) {
        ASSERT_EQ((dut_->front_flags_o >> (v * kFlagW)) & 3u, q.front().flags) << "cycle " << cycle << " vc " << v;
      }
      const bool shown = !side_shown_.empty() && side_shown_[v];
      ASSERT_EQ(GetBit(dut_->front_side_valid_o, v), shown) << "cycle " << cycle << " vc " << v;
      if (shown) {
        ASSERT_EQ(GetField(dut_->front_side_o, v * kSideW, kSideW), q.front().side) << "cycle " << cycle << " vc " << v;
        ++sides_shown_;
      }
    }
    if (expected_read_) {
      ASSERT_EQ(dut_->rdata_o, *expected_read_) << "cycle " << cycle;
    }
  }

  const std::deque<StoredFlit>& queue(unsigned vc) const { return queues_[vc]; }
  long sides_shown() const { return sides_shown_; }
  Dut<typename P::Model> dut_;

 private:
  std::vector<std::deque<StoredFlit>> queues_;
  std::vector<bool> side_shown_;  // per VC: the front shows its side word after the last edge
  long sides_shown_ = 0;
  std::optional<std::uint32_t> expected_read_;
};

template <class P>
void MatchesPerVcQueuesUnderRandomPushReadDrop() {
  RamBufferBench<P> bench;
  std::mt19937 rng(20261128);
  std::uniform_int_distribution<std::uint32_t> data(0, bench.kDataMask);
  std::uniform_int_distribution<unsigned> flags(0, 3);
  std::uniform_int_distribution<std::uint32_t> side(0, kSideMask);
  std::uniform_int_distribution<unsigned> any_vc(0, P::kVcs - 1);
  // Phases that fill, drain and churn the VCs, so full and empty are reached many times.
  const std::vector<std::pair<double, double>> phases = {{0.9, 0.3}, {0.3, 0.9}, {0.7, 0.7}};
  long reads = 0, drops_with_read = 0, read_and_drop_same_vc = 0, full_pushes_avoided = 0, side_reads_behind = 0;
  for (long cycle = 0; cycle < 20000; ++cycle) {
    bench.ExpectMatches(cycle);
    if (::testing::Test::HasFatalFailure()) return;
    const auto [p_push, p_pop] = phases[(cycle / 300) % phases.size()];
    std::optional<unsigned> push_vc;
    if (std::bernoulli_distribution(p_push)(rng)) {
      const unsigned v = any_vc(rng);
      if (bench.queue(v).size() < P::kDepth) {
        push_vc = v;
      } else {
        ++full_pushes_avoided;
      }
    }
    std::optional<unsigned> read_vc;
    if (std::bernoulli_distribution(p_pop)(rng)) {
      const unsigned v = any_vc(rng);
      if (!bench.queue(v).empty()) read_vc = v;
    }
    unsigned drops = 0;
    for (unsigned v = 0; v < P::kVcs; ++v) {
      if (!bench.queue(v).empty() && std::bernoulli_distribution(p_pop / 4)(rng)) drops |= 1u << v;
    }
    // Side reads: any popping VC may ask, but at most one of those with a flit behind the front
    // (the RAM's one read); the others asking have none, so they read nothing.
    const unsigned pops = drops | (read_vc ? 1u << *read_vc : 0u);
    unsigned side_reads = 0;
    bool waiting_read = false;
    for (unsigned v = 0; v < P::kVcs; ++v) {
      if (!(pops >> v & 1u) || !std::bernoulli_distribution(0.7)(rng)) continue;
      const bool behind = bench.queue(v).size() > 1;
      if (behind && waiting_read) continue;
      waiting_read = waiting_read || behind;
      side_reads |= 1u << v;
    }
    reads += read_vc.has_value();
    drops_with_read += read_vc && drops != 0;
    read_and_drop_same_vc += read_vc && (drops >> *read_vc & 1u);
    side_reads_behind += waiting_read;
    bench.Cycle(push_vc, {data(rng), flags(rng), side(rng)}, read_vc, drops, side_reads);
  }
  if (P::kDepth > 1) {
    EXPECT_GT(side_reads_behind, 1000);  // one slot: nothing waits behind
  }
  EXPECT_GT(bench.sides_shown(), 2000);
  EXPECT_FALSE(bench.dut_.AssertionFired()) << "legal traffic fired an assertion";
  // The stimulus reached the cases the contract names.
  EXPECT_GT(reads, 5000);
  EXPECT_GT(drops_with_read, 500);
  EXPECT_GT(read_and_drop_same_vc, 100);
  EXPECT_GT(full_pushes_avoided, 100);
}

template <class P>
void PushWhenFullFiresAssertionAndIsDropped() {
  RamBufferBench<P> bench;
  const unsigned vc = P::kVcs - 1;
  for (unsigned i = 0; i < P::kDepth; ++i) bench.Cycle(vc, {i + 1, i & 3u}, std::nullopt, 0);
  ASSERT_TRUE(bench.dut_->full_o >> vc & 1u);
  ASSERT_FALSE(bench.dut_.AssertionFired()) << "filling a VC is legal";
  bench.dut_->push_i = 1;
  bench.dut_->push_vc_i = vc;
  bench.dut_->push_data_i = 0;
  bench.dut_.Settle();
  EXPECT_TRUE(bench.dut_->overflow_o >> vc & 1u);
  bench.dut_.Tick();
  bench.dut_->push_i = 0;
  bench.dut_.Settle();
  EXPECT_TRUE(bench.dut_.AssertionFired()) << "PushNotFull_A did not fire";
  // The extra flit was dropped: the VC still reads 1..Depth in order.
  for (unsigned i = 0; i < P::kDepth; ++i) {
    bench.Cycle(std::nullopt, {}, vc, 0);
    EXPECT_EQ(bench.dut_->rdata_o, (i + 1) & bench.kDataMask);
  }
  EXPECT_TRUE(bench.dut_->empty_o >> vc & 1u);
}

template <class P>
void ReadOrDropOfEmptyVcFiresAssertion() {
  for (const bool read : {true, false}) {
    RamBufferBench<P> bench;
    bench.dut_->read_i = read ? 1u : 0u;
    bench.dut_->drop_i = read ? 0u : 1u;
    bench.dut_.Tick();
    bench.dut_.Settle();
    EXPECT_TRUE(bench.dut_.AssertionFired()) << (read ? "read" : "drop") << ": PopNotEmpty_A did not fire";
    EXPECT_EQ(bench.dut_->count_o, 0u);
  }
}

TEST(CellVcRamBufferRouterShape, MatchesPerVcQueuesUnderRandomPushReadDrop) {
  MatchesPerVcQueuesUnderRandomPushReadDrop<RouterShape>();
}
TEST(CellVcRamBufferRouterShape, PushWhenFullFiresAssertionAndIsDropped) {
  PushWhenFullFiresAssertionAndIsDropped<RouterShape>();
}
TEST(CellVcRamBufferRouterShape, ReadOrDropOfEmptyVcFiresAssertion) {
  ReadOrDropOfEmptyVcFiresAssertion<RouterShape>();
}
// Two VCs granted in one cycle is a switch-allocator bug the buffer reports.
TEST(CellVcRamBufferRouterShape, ReadOfTwoVcsFiresAssertion) {
  RamBufferBench<RouterShape> bench;
  bench.Cycle(0u, {1, 0}, std::nullopt, 0);
  bench.Cycle(1u, {2, 0}, std::nullopt, 0);
  ASSERT_FALSE(bench.dut_.AssertionFired());
  bench.dut_->read_i = 3u;
  bench.dut_.Tick();
  bench.dut_.Settle();
  EXPECT_TRUE(bench.dut_.AssertionFired()) << "ReadOneVc_A did not fire";
}
TEST(CellVcRamBufferOddShape, MatchesPerVcQueuesUnderRandomPushReadDrop) {
  MatchesPerVcQueuesUnderRandomPushReadDrop<OddShape>();
}
TEST(CellVcRamBufferOddShape, PushWhenFullFiresAssertionAndIsDropped) {
  PushWhenFullFiresAssertionAndIsDropped<OddShape>();
}
TEST(CellVcRamBufferSingleSlot, MatchesPerVcQueuesUnderRandomPushReadDrop) {
  MatchesPerVcQueuesUnderRandomPushReadDrop<SingleSlotShape>();
}
TEST(CellVcRamBufferSingleSlot, ReadOrDropOfEmptyVcFiresAssertion) {
  ReadOrDropOfEmptyVcFiresAssertion<SingleSlotShape>();
}

}  // namespace
}  // namespace wormcast::verif
