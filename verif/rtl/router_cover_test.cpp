// SPDX-License-Identifier: Apache-2.0
// The RTL's cover points (`NOC_COVER`, rtl/noc_assert.svh) on the rare paths are reached: the
// router verilated with --coverage-user (Vnoc_router_p4_v4_d4_cov) runs router_bench.hpp's random
// legal traffic (every routing mode, intermediate reception, CPR lines with PCP spines, drained
// worms, back-pressure; with its rare paths on: source-route regroups, an address flit drained
// after its worm's local copy started) as a node of a 4x4 mesh and of a 4x4 torus, and every
// cover point of the router must have held in at least one cycle (docs/rtl-modules.md, "Sticky errors and
// cover points"). A cover point that is never reached names a path no test exercises.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <verilated.h>
#include <verilated_cov.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <ostream>
#include <sstream>
#include <string>
#include <utility>

#include "Vnoc_router_p4_v4_d4_cov.h"
#include "firmware/noc_wire_format.hpp"
#include "router_bench.hpp"

namespace wormcast::verif {
namespace {

using namespace router_bench;

// Cover point name ('o' key) -> cycles it held, summed over the instances, from a Verilator
// coverage file (lines "C '<\001key\002value...>' <count>").
std::map<std::string, long> ReadUserCoverage(const std::string& path) {
  std::map<std::string, long> counts;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("C '", 0) != 0) continue;
    const std::size_t close = line.rfind('\'');
    const std::string keys = line.substr(3, close - 3);
    if (keys.find("\002v_user/") == std::string::npos) continue;
    const std::size_t o = keys.find("\001o\002");
    if (o == std::string::npos) continue;
    const std::size_t start = o + 3, end = keys.find('\001', start);
    counts[keys.substr(start, end == std::string::npos ? std::string::npos : end - start)] +=
        std::stol(line.substr(close + 1));
  }
  return counts;
}

TEST(RouterCover, RandomTrafficReachesEveryCoverPoint) {
  VerilatedContext context;
  context.fatalOnError(false);
  RouterBench<Vnoc_router_p4_v4_d4_cov, wire::kWide> bench(context, "cov", 20261124);
  bench.set_rare_paths(true);  // source-route regroups, address flits drained after a local copy
  std::ostream no_vectors(nullptr);
  for (const auto& [spec, node] :
       {std::pair<const char*, model::NodeId>{"mesh:4x4", 5}, {"mesh:4x4", 6}, {"torus:4x4", 0}}) {
    bench.StartPhase(spec, node, 6000, no_vectors);
    while (bench.Step(no_vectors)) {
    }
    ASSERT_FALSE(context.gotError()) << spec << ": an assertion fired";
  }
  const std::string path = (std::filesystem::temp_directory_path() / "wormcast_router_cover.dat").string();
  context.coveragep()->write(path.c_str());
  const std::map<std::string, long> counts = ReadUserCoverage(path);
  std::filesystem::remove(path);
  // The cover points the RTL declares (rtl/noc_input_unit.sv, noc_vc_allocator.sv,
  // noc_switch_allocator.sv): each must be in the file, so a renamed or lost one fails here too.
  for (const char* name :
       {"SpineSpawnsThree_C", "RegroupDropsHead_C", "RerouteKeepsEjecting_C", "DrainFinishesStartedCopy_C",
        "ArrivalBesideFrontLoad_C", "TakesThreeVcsAtOnce_C", "GoesBesideAWaitingTop_C", "TokenOverridesArbiter_C",
        "CarriedBeforeTop_C", "RequestWaitsForDrainClaim_C", "TokenOnInputWithoutRequest_C"}) {
    const auto it = counts.find(name);
    ASSERT_NE(it, counts.end()) << name << " is not in the coverage file";
    EXPECT_GT(it->second, 0) << name << " was never reached";
  }
  // And no cover point the list above misses.
  EXPECT_EQ(counts.size(), 11u) << "cover points in the RTL: " << [&] {
    std::string s;
    for (const auto& [name, n] : counts) s += fmt::format("{} ({}) ", name, n);
    return s;
  }();
}

}  // namespace
}  // namespace wormcast::verif
