// SPDX-License-Identifier: Apache-2.0
// The mesh self-test network in simulation (docs/fpga.md, "The mesh self-test"):
// fpga/noc_selftest_mesh.sv as a 2x2 mesh (noc_network_top, 4 VCs of 4 flits, 32-bit flits)
// verilated with --assert, run from reset until it reports. Without a fault it must reach pass_o
// (every kind it sends at its target of checked deliveries, then a clean credit audit) with
// fail_o = 0 and no assertion, and stay clean for four more audits; with a corrupted payload flit
// on node 0's injection link (Fault = 1) it must report fail_o soon after the fault, in
// check_errors_o, with no router error bit.
#include <gtest/gtest.h>
#include <verilated.h>

#include <cstdint>
#include <iostream>

#include "Vnoc_selftest_mesh2x2_f0.h"
#include "Vnoc_selftest_mesh2x2_f1.h"
#include "verif/rtl/selftest_run.hpp"

namespace wormcast::verif {
namespace {

// noc_selftest_mesh's defaults (fpga/noc_selftest_mesh.sv): kinds sent (noc_selftest_mesh_pkg::
// KindsSent has 6 bits set), target per kind, audit period, fault cycle.
constexpr std::uint32_t kKindsSent = 6, kTarget = 64, kAuditPeriod = 2048, kFaultAfter = 512;

TEST(FpgaSelftestMesh, TwoByTwoPassesEveryKindWithNoErrorAndStaysCleanForFourMoreAudits) {
  const SelftestOutcome o = run_selftest<Vnoc_selftest_mesh2x2_f0>(200000, 4 * kAuditPeriod);
  EXPECT_FALSE(o.assertion) << "an RTL assertion fired at cycle " << o.cycles;
  EXPECT_TRUE(o.pass) << "no pass within " << o.cycles << " cycles";
  EXPECT_FALSE(o.fail);
  EXPECT_EQ(o.check_errors, 0);
  EXPECT_EQ(o.router_errors, 0);
  EXPECT_EQ(o.cycles_o, o.cycles);
  // Every kind reached its target; a message has 1..3 deliveries (noc_selftest_mesh_pkg::
  // MaxDeliveries), and at most 4 messages per source (one per tag) are outstanding.
  EXPECT_GE(o.delivered, kKindsSent * kTarget);
  EXPECT_GE(o.delivered + 4 * 4, o.sent);
  EXPECT_LE(o.delivered, 3 * o.sent);
  std::cout << "mesh 2x2 self-test: " << o.sent << " worms sent, " << o.delivered << " deliveries checked, " << o.cycles
            << " cycles\n";
}

TEST(FpgaSelftestMesh, TwoByTwoCorruptedPayloadFlitIsReportedAsACheckError) {
  const SelftestOutcome o = run_selftest<Vnoc_selftest_mesh2x2_f1>(20000, 0);
  EXPECT_FALSE(o.assertion) << "an RTL assertion fired at cycle " << o.cycles;
  EXPECT_TRUE(o.fail);
  EXPECT_FALSE(o.pass);
  EXPECT_GE(o.check_errors, 1);
  EXPECT_EQ(o.router_errors, 0) << "a corrupted payload word is the checkers' to find";
  // Found when the corrupted worm is delivered, a few cycles after the fault.
  EXPECT_GT(o.cycles, kFaultAfter);
  EXPECT_LT(o.cycles, kFaultAfter + 1000);
}

}  // namespace
}  // namespace wormcast::verif
