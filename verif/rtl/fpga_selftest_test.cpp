// SPDX-License-Identifier: Apache-2.0
// The FPGA self-test network in simulation (issue #14, item 5; docs/fpga.md, "The self-test
// network"): fpga/noc_selftest.sv verilated with --assert and the FPGA build's 32-bit flits, run
// from reset until it reports. Without a fault it must reach pass_o (every message kind at its
// target of checked deliveries, then a clean credit audit) with fail_o = 0 and no assertion, and
// stay clean for several more audits; with a corrupted flit (Fault = 1) or a dropped credit
// (Fault = 2) it must report fail_o within a bounded number of cycles, on the counter that names
// the check that caught it.
#include <gtest/gtest.h>
#include <verilated.h>

#include <cstdint>
#include <memory>

#include "Vnoc_selftest_f0.h"
#include "Vnoc_selftest_f1.h"
#include "Vnoc_selftest_f2.h"

namespace wormcast::verif {
namespace {

// noc_selftest's defaults (fpga/noc_selftest.sv): kinds, target per kind, audit period.
constexpr std::uint32_t kKinds = 8, kTarget = 64, kAuditPeriod = 2048, kFaultAfter = 512;

struct Outcome {
  std::uint64_t cycles = 0;  // cycles run after reset
  bool assertion = false;    // an RTL assertion fired
  std::uint32_t sent = 0, delivered = 0, cycles_o = 0;
  std::uint16_t check_errors = 0;
  std::uint8_t router_errors = 0;
  bool pass = false, fail = false;
};

// Runs the model from reset until `stop(model)` or `max_cycles`, then `extra` more cycles.
template <class Model, class Stop>
Outcome RunSelftest(std::uint64_t max_cycles, std::uint64_t extra, Stop stop) {
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
    if (!stopped && stop(m)) {
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

TEST(FpgaSelftest, PassesEveryKindWithNoErrorAndStaysCleanForFortyMoreAudits) {
  const Outcome o = RunSelftest<Vnoc_selftest_f0>(200000, 40 * kAuditPeriod, [](auto& m) { return m.pass_o || m.fail_o; });
  EXPECT_FALSE(o.assertion) << "an RTL assertion fired at cycle " << o.cycles;
  EXPECT_TRUE(o.pass) << "no pass within " << o.cycles << " cycles";
  EXPECT_FALSE(o.fail);
  EXPECT_EQ(o.check_errors, 0);
  EXPECT_EQ(o.router_errors, 0);
  EXPECT_EQ(o.cycles_o, o.cycles);
  // Every kind reached its target, each message is delivered at 1 or 2 destinations.
  EXPECT_GE(o.delivered, kKinds * kTarget);
  EXPECT_GE(o.delivered, o.sent - 6) << "at most 3 messages per source are outstanding";
  EXPECT_LE(o.delivered, 2 * o.sent);
  std::cout << "self-test: " << o.sent << " worms sent, " << o.delivered << " deliveries checked, "
            << o.cycles << " cycles\n";
}

TEST(FpgaSelftest, CorruptedPayloadFlitIsReportedAsACheckError) {
  const Outcome o = RunSelftest<Vnoc_selftest_f1>(20000, 0, [](auto& m) { return m.fail_o || m.pass_o; });
  EXPECT_FALSE(o.assertion) << "an RTL assertion fired at cycle " << o.cycles;
  EXPECT_TRUE(o.fail);
  EXPECT_FALSE(o.pass);
  EXPECT_GE(o.check_errors, 1);
  EXPECT_EQ(o.router_errors, 0) << "a corrupted payload word is the checkers' to find";
  // Found when the corrupted worm is delivered, a few cycles after the fault.
  EXPECT_GT(o.cycles, kFaultAfter);
  EXPECT_LT(o.cycles, kFaultAfter + 1000);
}

TEST(FpgaSelftest, DroppedCreditIsReportedByTheCreditAudit) {
  const Outcome o = RunSelftest<Vnoc_selftest_f2>(20000, 0, [](auto& m) { return m.fail_o || m.pass_o; });
  EXPECT_FALSE(o.assertion) << "an RTL assertion fired at cycle " << o.cycles;
  EXPECT_TRUE(o.fail);
  EXPECT_FALSE(o.pass) << "a dropped credit must be found before the pass verdict";
  EXPECT_GE(o.check_errors, 1);
  EXPECT_EQ(o.router_errors, 0) << "a lost credit raises no router error bit: only the audit sees it";
  // Found at the first audit after the fault: the network still runs on three credits.
  EXPECT_GT(o.cycles, kAuditPeriod);
  EXPECT_LT(o.cycles, 2 * kAuditPeriod + 500);
}

}  // namespace
}  // namespace wormcast::verif
