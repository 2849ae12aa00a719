// SPDX-License-Identifier: Apache-2.0
// The mesh self-test network in simulation (issue #14; docs/fpga.md, "The mesh self-test"):
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

namespace wormcast::verif {
namespace {

// noc_selftest_mesh's defaults (fpga/noc_selftest_mesh.sv): kinds sent (noc_selftest_mesh_pkg::
// KindsSent has 6 bits set), target per kind, audit period, fault cycle.
constexpr std::uint32_t kKindsSent = 6, kTarget = 64, kAuditPeriod = 2048, kFaultAfter = 512;

struct Outcome {
  std::uint64_t cycles = 0;  // cycles run after reset
  bool assertion = false;    // an RTL assertion fired
  std::uint32_t sent = 0, delivered = 0, cycles_o = 0;
  std::uint16_t check_errors = 0;
  std::uint8_t router_errors = 0;
  bool pass = false, fail = false;
};

// Runs the model from reset until pass_o or fail_o or `max_cycles`, then `extra` more cycles.
template <class Model>
Outcome RunSelftest(std::uint64_t max_cycles, std::uint64_t extra) {
  VerilatedContext context;
  context.fatalOnError(false);
  Model m(&context);
  m.clk_i = 0;
  m.rst_ni = 0;
  m.eval();
  for (int i = 0; i < 3; ++i) {
    m.clk_i = 1;
    m.eval();
    m.clk_i = 0;
    m.eval();
  }
  m.rst_ni = 1;
  m.eval();
  Outcome o;
  std::uint64_t limit = max_cycles;
  bool stopped = false;
  while (o.cycles < limit) {
    m.clk_i = 1;
    m.eval();
    m.clk_i = 0;
    m.eval();
    ++o.cycles;
    if (context.gotError()) {
      o.assertion = true;
      break;
    }
    if (!stopped && (m.pass_o || m.fail_o)) {
      stopped = true;
      limit = o.cycles + extra;
    }
  }
  o.sent = m.worms_sent_o;
  o.delivered = m.worms_delivered_o;
  o.cycles_o = m.cycles_o;
  o.check_errors = m.check_errors_o;
  o.router_errors = m.router_errors_o;
  o.pass = m.pass_o;
  o.fail = m.fail_o;
  m.final();
  return o;
}

TEST(FpgaSelftestMesh, TwoByTwoPassesEveryKindWithNoErrorAndStaysCleanForFourMoreAudits) {
  const Outcome o = RunSelftest<Vnoc_selftest_mesh2x2_f0>(200000, 4 * kAuditPeriod);
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
  const Outcome o = RunSelftest<Vnoc_selftest_mesh2x2_f1>(20000, 0);
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
