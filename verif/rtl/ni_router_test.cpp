// SPDX-License-Identifier: Apache-2.0
// The RTL network interface wired to the verilated router (docs/rtl.md, "Network interface"): a
// node of the harness's shape (Vnoc_ni_p4_l1_v4_d4 on Vnoc_router_p4_v4_d4), its ports connected as
// a node top would (inj_* to the local input port, in_credit_o to inj_credit_i, the ejection port
// and eject_stream_o to ej_*, ej_credit_o to out_credit_i). The node sends random source-routed
// messages to itself through its NI on every class (VC 0..3), and the bench's neighbours send
// source-routed worms that end here on all four network ports, so the ejection port interleaves up
// to 20 streams. With random consumer back-pressure every message must come out whole, in order
// per stream (one input VC), with no assertion, no router error and no NI error: the NI's credits
// and stream ids agree with the real router's.
#include <gtest/gtest.h>
#include <verilated.h>

#include <cstdint>
#include <deque>
#include <iostream>
#include <map>
#include <memory>
#include <random>
#include <vector>

#include "Vnoc_ni_p4_l1_v4_d4.h"
#include "Vnoc_router_p4_v4_d4.h"
#include "firmware/noc_wire_format.hpp"
#include "ni_bench.hpp"
#include "sim/node_interface.hpp"
#include "verilated_dut.hpp"

namespace wormcast::verif {
namespace {

using ni_bench::Get;
using ni_bench::Put;

constexpr unsigned kNet = 4, kLocalPort = 4, kVcs = 4, kDepth = 4, kFlitW = 66, kDataW = 64, kVcIdW = 2;

// A random message that ends at this router: a source route whose entries are all unused (entry 0
// is {deliver, end}), class `vc_class`, random ident, 0..8 random payload words.
std::vector<wire::Flit> RandomSelfMessage(std::mt19937_64& rng, unsigned vc_class) {
  wire::HeadFields h;
  h.mode = wire::Mode::kSourceRouted;
  h.vc_class = static_cast<std::uint8_t>(vc_class);
  h.dest = wire::kRouteAllUnused;
  h.src = static_cast<std::uint32_t>(rng() & 0xFFFFF);
  h.tag = static_cast<std::uint8_t>(rng() & 0xF);
  const std::uint64_t head = wire::pack_head(h);
  std::vector<std::uint64_t> payload(std::uniform_int_distribution<unsigned>(0, 8)(rng));
  for (std::uint64_t& w : payload) w = rng();
  return sim::packetize(&head, 1, payload.data(), static_cast<std::uint32_t>(payload.size()));
}

void PutFlit(VlWide<11>& sig, unsigned lo, const wire::Flit& f) {
  Put(sig, lo, kDataW, f.data);
  SetBit(sig, lo + kDataW, f.tail);
  SetBit(sig, lo + kDataW + 1, f.head);
}

TEST(RtlNiRouter, NodeSendsToItselfAndReceivesFromNeighboursThroughTheRouter) {
  VerilatedContext context;
  context.fatalOnError(false);
  Vnoc_router_p4_v4_d4 router(&context, "router");
  Vnoc_ni_p4_l1_v4_d4 ni(&context, "ni");
  std::mt19937_64 rng(14);
  std::uniform_real_distribution<double> u(0, 1);

  // Reset; the router captures its configuration (a 4x4 mesh node at (1,1)) while rst_ni is low.
  router.own_label_i = 5;
  router.port_connected_i = 0xF;
  router.own_coord_i = 1 | (1 << 6);
  router.dim_size_i = 4 | (4 << 7);  // DimSizeW = CoordW + 1 = 7
  router.num_dims_i = 2;
  router.is_torus_i = 0;
  auto edge = [&] {
    router.clk_i = 1;
    ni.clk_i = 1;
    router.eval();
    ni.eval();
    router.clk_i = 0;
    ni.clk_i = 0;
    router.eval();
    ni.eval();
  };
  router.rst_ni = 0;
  ni.rst_ni = 0;
  router.clk_i = 0;
  ni.clk_i = 0;
  router.eval();
  ni.eval();
  edge();
  edge();
  router.rst_ni = 1;
  ni.rst_ni = 1;
  router.eval();
  ni.eval();

  // Senders: the NI's message queue; per network port and VC, a neighbour's worms and credits.
  std::deque<std::vector<wire::Flit>> local_queue;
  std::size_t local_next = 0;
  struct VcSender {
    std::deque<std::vector<wire::Flit>> worms;
    std::size_t next = 0;
    unsigned credits = kDepth;
  };
  VcSender net[kNet][kVcs];
  std::map<unsigned, std::deque<std::vector<wire::Flit>>> expected;  // per stream, in send order
  std::map<unsigned, std::vector<wire::Flit>> got;                   // per stream, the RTL's flits
  long sent = 0, received = 0, switches = 0, full = 0;
  unsigned last_stream = ~0u;

  const long kCycles = 20000;
  for (long cycle = 0; cycle < kCycles + 3000; ++cycle) {
    const bool generate = cycle < kCycles;
    if (generate && u(rng) < 0.15 && local_queue.size() < 4) {
      const unsigned c = std::uniform_int_distribution<unsigned>(0, 3)(rng);
      local_queue.push_back(RandomSelfMessage(rng, c));
      expected[kLocalPort * kVcs + c].push_back(local_queue.back());
      ++sent;
    }
    for (unsigned p = 0; p < kNet; ++p) {
      if (generate && u(rng) < 0.05) {
        const unsigned v = std::uniform_int_distribution<unsigned>(0, 3)(rng);
        if (net[p][v].worms.size() < 3) {
          net[p][v].worms.push_back(RandomSelfMessage(rng, v));
          expected[p * kVcs + v].push_back(net[p][v].worms.back());
          ++sent;
        }
      }
    }

    // The router's outputs (registers) into the NI; the consumer's back-pressure.
    ni.inj_credit_i = static_cast<std::uint8_t>((router.in_credit_o >> (kLocalPort * kVcs)) & 0xF);
    ni.ej_valid_i = (router.out_valid_o >> kLocalPort) & 1;
    for (unsigned b = 0; b < kFlitW; ++b) SetBit(ni.ej_flit_i, b, GetBit(router.out_flit_o, kLocalPort * kFlitW + b));
    ni.ej_stream_i = static_cast<std::uint8_t>(router.eject_stream_o);
    ni.rx_ready_i = u(rng) < 0.5;
    const bool offer = !local_queue.empty();
    ni.msg_valid_i = offer;
    ni.msg_data_i = offer ? local_queue.front()[local_next].data : 0;
    ni.msg_last_i = offer && local_next + 1 == local_queue.front().size();
    ni.eval();

    // The consumer: reassemble per stream.
    if (ni.rx_valid_o && ni.rx_ready_i) {
      const unsigned s = ni.rx_stream_o;
      if (s != last_stream) ++switches;
      last_stream = s;
      got[s].push_back({static_cast<bool>(ni.rx_head_o), static_cast<bool>(ni.rx_last_o), ni.rx_data_o});
      if (ni.rx_last_o) {
        ASSERT_FALSE(expected[s].empty()) << "cycle " << cycle << " stream " << s << ": a message nobody sent";
        ASSERT_EQ(got[s], expected[s].front()) << "cycle " << cycle << " stream " << s;
        expected[s].pop_front();
        got[s].clear();
        ++received;
      }
    }
    if (offer && ni.msg_ready_o) {
      if (++local_next == local_queue.front().size()) {
        local_queue.pop_front();
        local_next = 0;
      }
    }

    // The NI's outputs and the neighbours' flits into the router.
    router.in_valid_i = 0;
    router.in_vc_i = 0;
    for (auto& w : router.in_flit_i.m_storage) w = 0;
    for (unsigned p = 0; p < kNet; ++p) {
      for (unsigned v = 0; v < kVcs; ++v) net[p][v].credits += (router.in_credit_o >> (p * kVcs + v)) & 1;
      std::vector<unsigned> ready;
      for (unsigned v = 0; v < kVcs; ++v) {
        if (!net[p][v].worms.empty() && net[p][v].credits > 0) ready.push_back(v);
      }
      if (ready.empty() || u(rng) < 0.3) continue;
      const unsigned v = ready[std::uniform_int_distribution<std::size_t>(0, ready.size() - 1)(rng)];
      VcSender& snd = net[p][v];
      SetBit(router.in_valid_i, p, true);
      Put(router.in_vc_i, p * kVcIdW, kVcIdW, v);
      PutFlit(router.in_flit_i, p * kFlitW, snd.worms.front()[snd.next]);
      --snd.credits;
      if (++snd.next == snd.worms.front().size()) {
        snd.worms.pop_front();
        snd.next = 0;
      }
    }
    SetBit(router.in_valid_i, kLocalPort, ni.inj_valid_o);
    Put(router.in_vc_i, kLocalPort * kVcIdW, kVcIdW, ni.inj_vc_o);
    for (unsigned b = 0; b < kFlitW; ++b) SetBit(router.in_flit_i, kLocalPort * kFlitW + b, GetBit(ni.inj_flit_o, b));
    router.out_credit_i = static_cast<std::uint32_t>(ni.ej_credit_o) << (kLocalPort * kVcs);
    router.eval();
    if (ni.ej_valid_i && !ni.rx_ready_i) ++full;
    edge();
    ASSERT_FALSE(context.gotError()) << "an RTL assertion fired at cycle " << cycle;
  }
  for (const auto& [s, q] : expected) EXPECT_TRUE(q.empty()) << "stream " << s << ": " << q.size() << " not received";
  EXPECT_EQ(router.errors_o, 0);
  EXPECT_EQ(router.route_drops_o, 0);
  EXPECT_EQ(ni.errors_o, 0);
  EXPECT_GT(received, 2000);
  EXPECT_GT(switches, 10000);
  EXPECT_EQ(received, sent);
  std::cout << sent << " messages sent, " << received << " received, " << switches << " stream switches on the "
            << "ejection port, " << full << " cycles a flit arrived while the consumer stalled\n";
}

}  // namespace
}  // namespace wormcast::verif
