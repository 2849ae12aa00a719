// SPDX-License-Identifier: Apache-2.0
// Netlist versus RTL for the router top (docs/verification.md, "Router netlist versus RTL"; docs/sv-subset.md,
// "Equivalence by simulation"): random legal traffic drives the verilated noc_router
// (Vnoc_router_p4_v4_d4) and every cycle's inputs and outputs go to a vector file; then
// netlist_equiv_top.sh synthesizes noc_router with yosys and netlist_tb_router.v replays the
// inputs on the gate netlist in iverilog, comparing every output every cycle.
//
// The traffic (router_bench.hpp): one router configured as a node of a 4x4 mesh, then (after a
// second reset) as a node of a 4x4 torus, random worms of every kind on every input port and VC,
// random back-pressure, and a reserved-mode head near the end of each phase.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>

#include "Vnoc_router_p4_v4_d4.h"
#include "firmware/noc_wire_format.hpp"
#include "router_bench.hpp"

namespace wormcast::verif {
namespace {

using namespace router_bench;
using NetlistBench = RouterBench<Vnoc_router_p4_v4_d4, wire::kWide>;

TEST(RouterNetlist, YosysGateNetlistMatchesVerilatorRtlEveryCycle) {
  const std::string work = WORMCAST_NETLIST_WORK_DIR;
  std::filesystem::create_directories(work);
  const std::string vector_file = work + "/router_vectors.txt";
  VerilatedContext context;
  context.fatalOnError(false);
  NetlistBench bench(context, "router", 20261122);
  {
    std::ofstream out(vector_file);
    bench.RunPhase("mesh:4x4", 5, 3000, out);
    bench.RunPhase("torus:4x4", 0, 3000, out);
  }
  // Legal traffic, and enough of it that the comparison means something.
  ASSERT_FALSE(bench.assertion_fired()) << "the stimulus broke an RTL assertion";
  EXPECT_GT(bench.flits_out(), 7000);
  // Copies: intermediate reception, source routes that deliver and pass, the PCP spine.
  EXPECT_GT(bench.flits_out(), bench.flits_in() + 1000);
  EXPECT_GT(bench.heads_out(), 1500);
  EXPECT_GT(bench.vc1_out(), 500);
  EXPECT_GT(bench.ejected(), 1000);
  EXPECT_GT(bench.full_vc_cycles(), 1000);
  EXPECT_GT(bench.route_drops(), 50);  // drained reserved-mode worms (router_bench.hpp)

  const std::string command = fmt::format(
      "{} noc_router netlist_tb_router {} {} {} {} {} {} {} {} {} {} {} {} > {}/router_netlist_equiv.out 2>&1",
      WORMCAST_NETLIST_TOP_SCRIPT, WORMCAST_RTL_DIR, WORMCAST_ROUTER_NETLIST_TB, vector_file, bench.cycles(), work,
      WORMCAST_YOSYS, WORMCAST_IVERILOG, WORMCAST_VVP, kNetPorts, kLocal, kVcs, kDepth, work);
  const int status = std::system(command.c_str());
  std::ifstream log(work + "/router_netlist_equiv.out");
  const std::string output((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
  EXPECT_EQ(status, 0) << command << "\n" << output;
  std::cout << fmt::format(
      "{} cycles, {} flits in, {} flits out ({} heads, {} on VC 1, {} ejected), {} input-VC cycles without credit, "
      "{} worms drained, replayed on the yosys netlist: {}",
      bench.cycles(), bench.flits_in(), bench.flits_out(), bench.heads_out(), bench.vc1_out(), bench.ejected(),
      bench.full_vc_cycles(), bench.route_drops(), output);
}

}  // namespace
}  // namespace wormcast::verif
