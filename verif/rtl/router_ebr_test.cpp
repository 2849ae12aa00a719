// SPDX-License-Identifier: Apache-2.0
// The input buffers in block RAM (docs/rtl.md, "Input buffers in block RAM"): the router built with
// BufImpl = 1 (Vnoc_router_p4_v4_d4_ebr: rtl/noc_ebr_buffer.sv per input port) against the same
// router with register FIFOs (Vnoc_router_p4_v4_d4) in lockstep, both driven by router_bench.hpp's
// random legal traffic with one seed: unicast in every routing mode, intermediate reception,
// source routes with regroups, CPR lines with PCP-spine replication, random back-pressure that
// fills the buffers, and a reserved-mode worm every 100 cycles that the router drains (a drained
// flit leaves its buffer beside a flit through the switch: two pops of one port in one cycle).
// Every output of the two must be equal every cycle, and no assertion may fire (the buffer's read
// budget, FrontLoadedWhenUsed_A and every router assertion).
#include <gtest/gtest.h>
#include <verilated.h>

#include <cstdint>
#include <ostream>
#include <string>
#include <utility>

#include "Vnoc_router_p4_v4_d4.h"
#include "Vnoc_router_p4_v4_d4_ebr.h"
#include "firmware/noc_wire_format.hpp"
#include "router_bench.hpp"

namespace wormcast::verif {
namespace {

using namespace router_bench;
using RegisterBench = RouterBench<Vnoc_router_p4_v4_d4, wire::kWide>;
using BlockRamBench = RouterBench<Vnoc_router_p4_v4_d4_ebr, wire::kWide>;

// The first output on which the two routers differ this cycle; empty when they agree.
std::string CompareCycle(const Vnoc_router_p4_v4_d4& a, const Vnoc_router_p4_v4_d4_ebr& b) {
  if (a.in_credit_o != b.in_credit_o) return "in_credit_o";
  if (a.out_valid_o != b.out_valid_o) return "out_valid_o";
  if (a.out_vc_o != b.out_vc_o) return "out_vc_o";
  if (a.out_flit_o != b.out_flit_o) return "out_flit_o";
  if (a.eject_stream_o != b.eject_stream_o) return "eject_stream_o";
  if (a.draining_o != b.draining_o) return "draining_o";
  if (a.route_drops_o != b.route_drops_o) return "route_drops_o";
  if (a.errors_o != b.errors_o) return "errors_o";
  return "";
}

TEST(RouterBlockRam, BlockRamBuffersMatchRegisterFifosEveryCycle) {
  VerilatedContext context;
  context.fatalOnError(false);
  constexpr std::uint64_t kSeed = 20261124;
  RegisterBench reg(context, "router_reg", kSeed);
  BlockRamBench ebr(context, "router_ebr", kSeed);
  std::ostream no_vectors(nullptr);
  for (const auto& [spec, node] : {std::pair<const char*, NodeId>{"mesh:4x4", 5}, {"torus:4x4", 0}}) {
    reg.StartPhase(spec, node, 3000, no_vectors);
    ebr.StartPhase(spec, node, 3000, no_vectors);
    for (;;) {
      const bool more_reg = reg.Step(no_vectors);
      const bool more_ebr = ebr.Step(no_vectors);
      ASSERT_EQ(more_reg, more_ebr);
      if (!more_reg) break;
      ASSERT_EQ(CompareCycle(reg.router(), ebr.router()), "") << spec << ", cycle " << reg.cycles_run();
      ASSERT_FALSE(context.gotError()) << spec << ", cycle " << reg.cycles_run() << ": an assertion fired";
    }
  }
  // The same traffic, and enough of every kind to mean something.
  EXPECT_EQ(reg.flits_in(), ebr.flits_in());
  EXPECT_EQ(reg.flits_out(), ebr.flits_out());
  EXPECT_GT(ebr.flits_out(), 7000);
  EXPECT_GT(ebr.heads_out(), 1500);
  EXPECT_GT(ebr.full_vc_cycles(), 1000);  // buffers full: flits read back from the RAM
  EXPECT_GT(ebr.route_drops(), 50);       // drained worms: two pops of one port in a cycle
}

}  // namespace
}  // namespace wormcast::verif
