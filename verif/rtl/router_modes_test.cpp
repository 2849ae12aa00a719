// SPDX-License-Identifier: Apache-2.0
// Routing modes per build (docs/rtl.md, "Routing modes per build"): noc_router with Modes = 5
// (Hamiltonian path and dimension order only, Vnoc_router_p4_v4_d4_m5) against the router with
// every mode (Vnoc_router_p4_v4_d4), on router_bench.hpp's random legal traffic.
//   - On worms of the modes it implements it is the full router: every output bit equal every
//     cycle (intermediate reception, back-pressure and the drained reserved-mode worms included).
//   - Worms of a mode it leaves out get no decision: they are drained (nothing leaves, every
//     credit comes back, route_drops_o counts each) where the full router routes them, and the
//     worms behind them on the same VCs are routed normally.
#include <gtest/gtest.h>
#include <verilated.h>

#include <cstdint>
#include <ostream>
#include <string>
#include <utility>

#include "Vnoc_router_p4_v4_d4.h"
#include "Vnoc_router_p4_v4_d4_m5.h"
#include "firmware/noc_wire_format.hpp"
#include "router_bench.hpp"

namespace wormcast::verif {
namespace {

using namespace router_bench;
using FullBench = RouterBench<Vnoc_router_p4_v4_d4, wire::kWide>;
using HpDorBench = RouterBench<Vnoc_router_p4_v4_d4_m5, wire::kWide>;

constexpr unsigned Bit(wire::Mode m) { return 1u << static_cast<unsigned>(m); }
constexpr unsigned kHpDor = Bit(wire::Mode::kHamiltonianPath) | Bit(wire::Mode::kDimensionOrder);
static_assert(kHpDor == 5, "Vnoc_router_p4_v4_d4_m5 is verilated with -GModes=5");

TEST(RouterModes, HpAndDorBuildMatchesTheFullRouterOnItsModesAndRefusesTheOthers) {
  VerilatedContext context;
  context.fatalOnError(false);
  constexpr std::uint64_t kSeed = 20261125;
  FullBench full(context, "full", kSeed);
  HpDorBench hp_dor(context, "hp_dor", kSeed);
  std::ostream no_vectors(nullptr);
  full.set_traffic_modes(kHpDor);
  hp_dor.set_traffic_modes(kHpDor);
  for (const auto& [spec, node] : {std::pair<const char*, model::NodeId>{"mesh:4x4", 5}, {"torus:4x4", 0}}) {
    full.StartPhase(spec, node, 3000, no_vectors);
    hp_dor.StartPhase(spec, node, 3000, no_vectors);
    while (full.Step(no_vectors)) {
      ASSERT_TRUE(hp_dor.Step(no_vectors));
      ASSERT_EQ(FirstOutputDifference(full.router(), hp_dor.router(), wire::kFlitW), "")
          << spec << ", cycle " << full.cycles_run();
    }
  }
  ASSERT_FALSE(context.gotError()) << "an assertion fired";
  EXPECT_GT(hp_dor.flits_out(), 5000);
  EXPECT_GT(hp_dor.ejected(), 1000);

  // Source routes and CPR lines: the full router sends them on, the HP/DOR build drains them (no
  // decision): nothing leaves, every flit's credit comes back (the senders run out of flits to
  // send, not of credits), route_drops_o counts one per worm, and the VCs carry on: Hamiltonian-
  // path and dimension-order worms sent behind them on the same VCs are routed as by the full
  // router.
  const long full_before = full.flits_out();
  const long hp_dor_before = hp_dor.flits_out();
  const long drops_before = hp_dor.route_drops();
  const auto unsupported = [](const HpDorBench& b) {
    return b.heads_in(static_cast<unsigned>(wire::Mode::kSourceRouted)) +
           b.heads_in(static_cast<unsigned>(wire::Mode::kCprLine)) + b.heads_in(5);
  };
  const long unsupported_before = unsupported(hp_dor);
  full.set_traffic_modes(Bit(wire::Mode::kSourceRouted) | Bit(wire::Mode::kCprLine));
  hp_dor.set_traffic_modes(Bit(wire::Mode::kSourceRouted) | Bit(wire::Mode::kCprLine));
  full.StartPhase("mesh:4x4", 5, 800, no_vectors);
  hp_dor.StartPhase("mesh:4x4", 5, 800, no_vectors);
  // 120 cycles: fewer drained worms than the count's saturation at 255.
  for (int cycle = 0; cycle < 120; ++cycle) {
    ASSERT_TRUE(full.Step(no_vectors));
    ASSERT_TRUE(hp_dor.Step(no_vectors));
  }
  EXPECT_GT(full.flits_out() - full_before, 100);
  EXPECT_EQ(hp_dor.flits_out() - hp_dor_before, 0);
  const long drained = unsupported(hp_dor) - unsupported_before;
  EXPECT_GT(drained, 50);
  const long hp_dor_mid = hp_dor.flits_out();
  full.set_traffic_modes(kHpDor);
  hp_dor.set_traffic_modes(kHpDor);
  for (int cycle = 0; cycle < 100; ++cycle) {
    ASSERT_TRUE(full.Step(no_vectors));
    ASSERT_TRUE(hp_dor.Step(no_vectors));
  }
  full.stop_new_worms();
  hp_dor.stop_new_worms();
  while (full.Step(no_vectors)) ASSERT_TRUE(hp_dor.Step(no_vectors));
  EXPECT_EQ(hp_dor.pending_flits(), 0) << "a sender still waits for credits";
  EXPECT_GT(hp_dor.draining_cycles(), 0);
  EXPECT_EQ(hp_dor.route_drops() - drops_before, unsupported(hp_dor) - unsupported_before);
  EXPECT_GT(hp_dor.flits_out() - hp_dor_mid, 100) << "the VCs did not carry on after the drained worms";
  // The full router drains only the reserved-mode worms (one every 100 cycles on port 0, VC 1).
  EXPECT_GT(full.route_drops(), 50);
  EXPECT_LE(full.route_drops(), full.heads_in(5));
  EXPECT_FALSE(context.gotError()) << "an assertion fired";

  // The count is sticky and saturates: 400 cycles of source routes and CPR lines drain more than
  // 255 worms; it stays at 255 (RouteDropsNeverWrap_A would fire on a wrap).
  hp_dor.set_traffic_modes(Bit(wire::Mode::kSourceRouted) | Bit(wire::Mode::kCprLine));
  hp_dor.StartPhase("mesh:4x4", 5, 400, no_vectors);
  const long sent_before = unsupported(hp_dor);
  while (hp_dor.Step(no_vectors)) {
  }
  EXPECT_GT(unsupported(hp_dor) - sent_before, 300);
  EXPECT_EQ(hp_dor.router().route_drops_o, 255);
  EXPECT_FALSE(context.gotError()) << "an assertion fired";
}

}  // namespace
}  // namespace wormcast::verif
