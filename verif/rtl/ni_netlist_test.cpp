// SPDX-License-Identifier: Apache-2.0
// Netlist versus RTL for the network interface (docs/rtl.md, "Network interface"; docs/sv-subset.md,
// "Equivalence by simulation"), as router_netlist_test.cpp does for the router: random traffic
// (ni_bench.hpp, checked against the C++ NI on the way) drives the verilated noc_ni
// (Vnoc_ni_p4_l1_v4_d4), every cycle's inputs and outputs go to a vector file, then
// netlist_equiv_top.sh synthesizes noc_ni with yosys and ni_netlist_tb.v replays the inputs on the
// gate netlist in iverilog, comparing every output every cycle.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>

#include "Vnoc_ni_p4_l1_v4_d4.h"
#include "ni_bench.hpp"

namespace wormcast::verif {
namespace {

using namespace ni_bench;
using Bench = NiBench<Vnoc_ni_p4_l1_v4_d4, 1, 4, 64>;

TEST(RtlNiNetlist, YosysGateNetlistMatchesVerilatorRtlEveryCycle) {
  const std::string work = WORMCAST_NI_NETLIST_WORK_DIR;
  std::filesystem::create_directories(work);
  const std::string vector_file = work + "/ni_vectors.txt";
  long cycles = 0;
  {
    std::ofstream out(vector_file);
    Bench bench(20261124, Traffic{0.4, 0.8, 0.4, 6, 3, 6}, &out);
    bench.Run(3000);
    ASSERT_FALSE(::testing::Test::HasFailure());
    ASSERT_FALSE(bench.assertion_fired()) << "the stimulus broke an RTL assertion";
    EXPECT_GT(bench.stats().messages_in, 400);
    EXPECT_GT(bench.stats().messages_out, 200);
    EXPECT_GT(bench.stats().held_full, 100);
    cycles = bench.stats().cycles + 1;  // and the reset line
  }
  const std::string command =
      fmt::format("{} noc_ni ni_netlist_tb {} {} {} {} {} {} {} {} {} {} {} {} > {}/ni_netlist_equiv.out 2>&1",
                  WORMCAST_NETLIST_TOP_SCRIPT, WORMCAST_RTL_DIR, WORMCAST_NI_NETLIST_TB, vector_file, cycles, work,
                  WORMCAST_YOSYS, WORMCAST_IVERILOG, WORMCAST_VVP, Bench::kNetPorts, 1, 4, Bench::kDepth, work);
  const int status = std::system(command.c_str());
  std::ifstream log(work + "/ni_netlist_equiv.out");
  const std::string output((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
  EXPECT_EQ(status, 0) << command << "\n" << output;
  std::cout << cycles << " cycles replayed on the yosys netlist: " << output;
}

}  // namespace
}  // namespace wormcast::verif
