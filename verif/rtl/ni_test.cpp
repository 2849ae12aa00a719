// SPDX-License-Identifier: Apache-2.0
// The RTL network interface (rtl/noc_ni.sv; docs/rtl.md, "Network interface") against the
// harness's C++ NI (sim/node_interface.hpp), cycle by cycle (ni_bench.hpp): the same messages in
// give the same flits on the same VCs in the same cycles; the same ejected flits and consumer
// back-pressure give the same credits back and the same flit to the consumer; every message comes
// out whole and in order per stream. Then the sink guarantee, and the protocol errors the NI
// survives (flagged in errors_o, caught by its assertions).
#include <gtest/gtest.h>

#include <cstdint>
#include <iostream>

#include "Vnoc_ni_p4_l1_v2_d4_w32.h"
#include "Vnoc_ni_p4_l1_v4_d4.h"
#include "Vnoc_ni_p4_l2_v2_d4.h"
#include "firmware/noc_wire_format.hpp"
#include "ni_bench.hpp"
#include "verilated_dut.hpp"

namespace wormcast::verif {
namespace {

using namespace ni_bench;
using HarnessShape = NiBench<Vnoc_ni_p4_l1_v4_d4, 1, 4, 64>;
using TwoLocal = NiBench<Vnoc_ni_p4_l2_v2_d4, 2, 2, 64>;
using Compact = NiBench<Vnoc_ni_p4_l1_v2_d4_w32, 1, 2, 32>;

// Traffic mixes: balanced; a slow consumer (the ejection FIFO fills); a fast consumer with a slow
// router (injection waits for credits); long messages with many address flits.
const Traffic kMixes[] = {
    {0.3, 0.7, 0.6, 6, 3, 8},
    {0.5, 0.9, 0.15, 2, 2, 4},
    {0.6, 0.5, 1.0, 12, 1, 3},
    {0.2, 0.8, 0.5, 4, 6, 20},
};

template <class Bench>
void RunMixes(std::uint64_t seed, long cycles, long min_messages) {
  Stats total;
  for (const Traffic& mix : kMixes) {
    Bench bench(seed++, mix);
    bench.Run(cycles);
    ASSERT_FALSE(::testing::Test::HasFailure());
    EXPECT_FALSE(bench.assertion_fired()) << "legal traffic fired an RTL assertion";
    const Stats& s = bench.stats();
    total.injected += s.injected;
    total.inject_stalls += s.inject_stalls;
    total.messages_in += s.messages_in;
    total.taken += s.taken;
    total.messages_out += s.messages_out;
    total.held_full += s.held_full;
    total.interleaved += s.interleaved;
  }
  // Enough happened for the comparison to mean something.
  EXPECT_GT(total.messages_in, min_messages);
  EXPECT_GT(total.messages_out, min_messages);
  EXPECT_GT(total.inject_stalls, 500);  // words that waited for a credit
  EXPECT_GT(total.held_full, 500);      // cycles with the ejection FIFO full
  EXPECT_GT(total.interleaved, 2000);   // streams interleaved on the ejection port
  std::cout << total.injected << " flits / " << total.messages_in << " messages injected (" << total.inject_stalls
            << " credit waits), " << total.taken << " flits / " << total.messages_out << " messages received ("
            << total.held_full << " cycles with a full FIFO, " << total.interleaved << " stream switches)\n";
}

TEST(RtlNi, HarnessShapeMatchesCppNiEveryCycle) { RunMixes<HarnessShape>(1, 6000, 2000); }
TEST(RtlNi, TwoLocalPairsTwoVcsMatchCppNiEveryCycle) { RunMixes<TwoLocal>(101, 4000, 2000); }
TEST(RtlNi, CompactLayoutMatchesCppNiEveryCycle) { RunMixes<Compact>(201, 5000, 1500); }

// Long messages: up to 300 payload words, past the papers' 120 flits and 2,000 bytes
// (250 words of 8 bytes), leave and arrive whole and flit for flit as the C++ NI's, on the 64-bit
// and the compact 32-bit layout. The NI counts nothing of a message's length but its address flits
// (the head's `more`); rx_pos_o, the payload index, is taken modulo 2^PosW (6 bits in the compact
// layout), so no message length is a limit of the NI.
template <class Bench>
void RunLongMessages(std::uint64_t seed) {
  const Traffic slow{0.004, 0.8, 0.7, 4, 2, 300};
  Bench bench(seed, slow);
  bench.Run(16000);
  ASSERT_FALSE(::testing::Test::HasFailure());
  EXPECT_FALSE(bench.assertion_fired()) << "legal traffic fired an RTL assertion";
  EXPECT_GE(bench.stats().messages_out, 20);
  EXPECT_GE(bench.stats().longest_out, 250) << "no message of 2,000 bytes or more went through";
  std::cout << bench.stats().messages_out << " messages received whole, the longest " << bench.stats().longest_out
            << " payload words\n";
}
TEST(RtlNi, LongMessagesMatchCppNiEveryCycle) { RunLongMessages<HarnessShape>(301); }
TEST(RtlNi, CompactLayoutLongMessagesMatchCppNiEveryCycle) { RunLongMessages<Compact>(401); }

// Directed: a one-flit message is head and tail; a message's VC is its class mod NumVcs, kept for
// every flit; back-to-back messages leave in consecutive cycles.
TEST(RtlNi, PacketizesOneFlitAndBackToBackMessagesOnTheirClassVc) {
  Dut<Vnoc_ni_p4_l2_v2_d4> ni;  // 2 VCs: class 3 -> VC 1
  wire::HeadFields h;
  h.vc_class = 3;
  h.more = 0;
  // Cycle 0: a one-flit message (head = tail).
  ni->msg_valid_i = 1;
  ni->msg_data_i[0] = 0;
  ni->msg_data_i[1] = 0;
  Put(ni->msg_data_i, 0, 64, wire::pack_head(h));
  ni->msg_last_i = 1;
  ni.Settle();
  EXPECT_EQ(ni->inj_valid_o, 1);
  EXPECT_EQ(Get(ni->inj_vc_o, 0, 1), 1u);
  EXPECT_TRUE(GetBit(ni->inj_flit_o, 65));  // head
  EXPECT_TRUE(GetBit(ni->inj_flit_o, 64));  // tail
  ni.Tick();
  // Cycle 1: the next message's head (class 2 -> VC 0, one address flit), then its address flit.
  h.vc_class = 2;
  h.more = 1;
  Put(ni->msg_data_i, 0, 64, wire::pack_head(h));
  ni->msg_last_i = 0;
  ni.Settle();
  EXPECT_EQ(ni->inj_valid_o, 1);
  EXPECT_EQ(Get(ni->inj_vc_o, 0, 1), 0u);
  EXPECT_TRUE(GetBit(ni->inj_flit_o, 65));
  EXPECT_FALSE(GetBit(ni->inj_flit_o, 64));
  ni.Tick();
  // Cycle 2: an address flit whose data reads as class 1: it stays on the worm's VC 0.
  h.vc_class = 1;
  h.more = 0;
  Put(ni->msg_data_i, 0, 64, wire::pack_head(h));
  ni->msg_last_i = 1;
  ni.Settle();
  EXPECT_EQ(ni->inj_valid_o, 1);
  EXPECT_EQ(Get(ni->inj_vc_o, 0, 1), 0u);
  EXPECT_FALSE(GetBit(ni->inj_flit_o, 65));
  EXPECT_TRUE(GetBit(ni->inj_flit_o, 64));
  ni.Tick();
  EXPECT_FALSE(ni.AssertionFired());
}

// The sink guarantee (docs/rtl.md, "Network interface"): with injection blocked for good (a word
// offered on every channel, no credit ever returned), the ejection side still takes every flit
// the router ejects, one per cycle the consumer is ready, and returns every credit.
TEST(RtlNi, EjectionSinksEveryFlitWhileInjectionIsBlocked) {
  Dut<Vnoc_ni_p4_l1_v4_d4> ni;
  wire::HeadFields h;
  h.more = 0;
  unsigned pool = 4;  // the router's ejection credits
  long ejected = 0, taken = 0, longest_wait = 0, wait = 0;
  unsigned next = 0;  // flits of the current 5-flit worm sent on stream 7
  for (long cycle = 0; cycle < 3000; ++cycle) {
    // Injection: a head word offered forever, no credits: after 4 flits on VC 0 it is stuck.
    ni->msg_valid_i = 1;
    Put(ni->msg_data_i, 0, 64, wire::pack_head(h));
    ni->msg_last_i = 0;
    ni->inj_credit_i = 0;
    // Ejection: the router ejects whenever it has a credit; the consumer is ready every 3rd cycle.
    const bool send = pool > 0;
    ni->ej_valid_i = send;
    for (auto& w : ni->ej_flit_i.m_storage) w = 0;
    if (send) {
      wire::HeadFields e;
      e.more = 0;
      Put(ni->ej_flit_i, 0, 64, next == 0 ? wire::pack_head(e) : static_cast<std::uint64_t>(cycle));
      SetBit(ni->ej_flit_i, 65, next == 0);
      SetBit(ni->ej_flit_i, 64, next == 4);
      ni->ej_stream_i = 7;
      --pool;
      ++ejected;
      next = (next + 1) % 5;
    }
    ni->rx_ready_i = cycle % 3 == 0;
    ni.Settle();
    if (cycle >= 4) {
      ASSERT_EQ(ni->msg_ready_o, 0) << "cycle " << cycle << ": injection should be blocked";
    }
    // A ready consumer always takes the offered flit, and its credit goes back at once.
    if (ni->rx_valid_o && ni->rx_ready_i) {
      ASSERT_EQ(ni->ej_credit_o & 1u, 1u);
      ++taken;
      ++pool;
      wait = 0;
    } else if (ni->rx_valid_o) {
      longest_wait = std::max(longest_wait, ++wait);
    }
    ASSERT_EQ(ni->ej_credit_o, (ni->rx_valid_o && ni->rx_ready_i) ? 1u : 0u) << "cycle " << cycle;
    ni.Tick();
  }
  EXPECT_GT(taken, 900);
  EXPECT_LE(ejected - taken, 4);  // what is still held: at most the pool
  EXPECT_LE(longest_wait, 2);     // a flit waits only for the consumer's next ready cycle
  EXPECT_EQ(ni->errors_o, 0);
  EXPECT_FALSE(ni.AssertionFired());
}

// A body flit on an idle stream breaks the wire protocol: it is dropped in the cycle it arrives,
// without waiting for the consumer, its credit goes back, errors_o's misplaced bit sticks, and
// the NI's assertion fires. The stream then takes a proper message.
TEST(RtlNi, MisplacedFlitIsDroppedWithItsCreditFlaggedAndAsserted) {
  Dut<Vnoc_ni_p4_l1_v4_d4> ni;
  ni->ej_valid_i = 1;
  Put(ni->ej_flit_i, 0, 64, 0x1234);
  SetBit(ni->ej_flit_i, 65, false);
  SetBit(ni->ej_flit_i, 64, true);
  ni->ej_stream_i = 3;
  ni->rx_ready_i = 0;
  ni.Settle();
  EXPECT_EQ(ni->rx_valid_o, 0);
  EXPECT_EQ(ni->ej_credit_o, 1u);
  ni.Tick();
  EXPECT_EQ(ni->errors_o, 4u);  // bit 2, ErrEjectMisplaced
  EXPECT_TRUE(ni.AssertionFired());
  // A one-flit message on the same stream still goes through.
  wire::HeadFields h;
  Put(ni->ej_flit_i, 0, 64, wire::pack_head(h));
  SetBit(ni->ej_flit_i, 65, true);
  ni->rx_ready_i = 1;
  ni.Settle();
  EXPECT_EQ(ni->rx_valid_o, 1);
  EXPECT_EQ(ni->rx_head_o, 1);
  EXPECT_EQ(ni->rx_last_o, 1);
  EXPECT_EQ(ni->rx_stream_o, 3);
  ni.Tick();
  EXPECT_EQ(ni->errors_o, 4u);  // sticky
}

// A credit returned to an injection VC that already has all BufDepth credits is dropped, flagged
// and asserted.
TEST(RtlNi, InjectionCreditOverflowIsFlaggedAndAsserted) {
  Dut<Vnoc_ni_p4_l1_v4_d4> ni;
  ni->inj_credit_i = 0x4;  // VC 2, full after reset
  ni.Settle();
  ni.Tick();
  ni->inj_credit_i = 0;
  ni.Settle();
  ni.Tick();
  EXPECT_EQ(ni->errors_o, 1u);  // bit 0, ErrInjectCredit
  EXPECT_TRUE(ni.AssertionFired());
}

}  // namespace
}  // namespace wormcast::verif
