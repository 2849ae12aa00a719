// SPDX-License-Identifier: Apache-2.0
// Routing modes per build (docs/rtl.md, "Routing modes per build"): noc_router with Modes = 5
// (Hamiltonian path and dimension order only, Vnoc_router_p4_v4_d4_m5) against the router with
// every mode (Vnoc_router_p4_v4_d4), on router_bench.hpp's random legal traffic.
//   - On worms of the modes it implements it is the full router: every output bit equal every
//     cycle (intermediate reception, back-pressure and the blocked reserved-mode head included).
//   - Worms of a mode it leaves out get no decision: they wait with no_route_o set and nothing
//     leaves, where the full router routes them.
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

  // Source routes and CPR lines: the full router sends them on, the HP/DOR build holds them.
  const long full_before = full.flits_out();
  const long hp_dor_before = hp_dor.flits_out();
  const long no_route_before = hp_dor.no_route_cycles();
  full.set_traffic_modes(Bit(wire::Mode::kSourceRouted) | Bit(wire::Mode::kCprLine));
  hp_dor.set_traffic_modes(Bit(wire::Mode::kSourceRouted) | Bit(wire::Mode::kCprLine));
  full.StartPhase("mesh:4x4", 5, 400, no_vectors);
  hp_dor.StartPhase("mesh:4x4", 5, 400, no_vectors);
  while (full.Step(no_vectors)) ASSERT_TRUE(hp_dor.Step(no_vectors));
  EXPECT_GT(full.flits_out() - full_before, 500);
  EXPECT_EQ(hp_dor.flits_out() - hp_dor_before, 0);
  EXPECT_GT(hp_dor.no_route_cycles() - no_route_before, 300);
  EXPECT_FALSE(context.gotError()) << "an assertion fired";
}

}  // namespace
}  // namespace wormcast::verif
