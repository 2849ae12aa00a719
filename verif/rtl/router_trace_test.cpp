// SPDX-License-Identifier: Apache-2.0
// A router verilated with --trace-fst behaves like the one without (docs/run.md, "Waveforms"):
// Vnoc_router_p4_v4_d4_fst and Vnoc_router_p4_v4_d4_plain (the same router) in lockstep, in one
// context with tracing on, on router_bench.hpp's random legal traffic (every routing mode,
// replication, back-pressure).
// Every output bit must agree every cycle and no assertion may fire in either, so a waveform of a
// traced router shows the run the untraced one makes.
#include <gtest/gtest.h>
#include <verilated.h>

#include <cstdint>
#include <ostream>
#include <string>
#include <utility>

#include "Vnoc_router_p4_v4_d4_fst.h"
#include "Vnoc_router_p4_v4_d4_plain.h"
#include "firmware/noc_wire_format.hpp"
#include "router_bench.hpp"

namespace wormcast::verif {
namespace {

using namespace router_bench;

TEST(RouterTrace, FstTracedBuildMatchesTheUntracedRouterEveryCycle) {
  VerilatedContext context;
  context.fatalOnError(false);
  context.traceEverOn(true);
  constexpr std::uint64_t kSeed = 20261124;
  RouterBench<Vnoc_router_p4_v4_d4_plain, wire::kWide> plain(context, "plain", kSeed);
  RouterBench<Vnoc_router_p4_v4_d4_fst, wire::kWide> traced(context, "traced", kSeed);
  std::ostream no_vectors(nullptr);
  for (const auto& [spec, node] : {std::pair<const char*, model::NodeId>{"mesh:4x4", 5}, {"torus:4x4", 0}}) {
    plain.StartPhase(spec, node, 3000, no_vectors);
    traced.StartPhase(spec, node, 3000, no_vectors);
    while (plain.Step(no_vectors)) {
      ASSERT_TRUE(traced.Step(no_vectors));
      ASSERT_EQ(FirstOutputDifference(plain.router(), traced.router(), wire::kFlitW), "")
          << spec << ", cycle " << plain.cycles_run();
      ASSERT_FALSE(context.gotError()) << spec << ", cycle " << plain.cycles_run() << ": an assertion fired";
    }
  }
  EXPECT_GT(traced.flits_out(), 7000);
  EXPECT_EQ(traced.flits_out(), plain.flits_out());
}

}  // namespace
}  // namespace wormcast::verif
