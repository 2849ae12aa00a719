// SPDX-License-Identifier: Apache-2.0
// The FPGA self-test network in simulation (docs/fpga.md, "The self-test network"):
// fpga/noc_selftest.sv verilated with --assert and the FPGA build's 32-bit flits, run
// from reset until it reports. Without a fault it must reach pass_o (every message kind at its
// target of checked deliveries, then a clean credit audit) with fail_o = 0 and no assertion, and
// stay clean for forty more audits, with the FPGA build's one-flit buffers and with four; with a
// corrupted flit (Fault = 1) or a dropped credit (Fault = 2) it must report fail_o within a bounded
// number of cycles, in check_errors_o, with no router error bit.
#include <gtest/gtest.h>
#include <verilated.h>

#include <cstdint>
#include <memory>

#include "Vnoc_selftest_f0.h"
#include "Vnoc_selftest_f1.h"
#include "Vnoc_selftest_f2.h"
#include "Vnoc_selftest_f2_d4.h"
#if WORMCAST_REGRESS  // the pass at BufDepth 4 is make regress's (verif/rtl/CMakeLists.txt)
#include "Vnoc_selftest_f0_d4.h"
#endif
#include "verif/rtl/selftest_run.hpp"

namespace wormcast::verif {
namespace {

// noc_selftest's defaults (fpga/noc_selftest.sv): kinds, target per kind, audit period, fault
// cycle, watchdog. The models: _f<Fault> the FPGA build (BufDepth 1), _d4 with BufDepth 4.
constexpr std::uint32_t kKinds = 8, kTarget = 64, kAuditPeriod = 2048, kFaultAfter = 512, kWatchdog = 4096;

// Pass within 200,000 cycles, no error, and forty more audit periods still clean.
template <class Model>
void ExpectPassAndStayClean() {
  const SelftestOutcome o = run_selftest<Model>(200000, 40 * kAuditPeriod);
  EXPECT_FALSE(o.assertion) << "an RTL assertion fired at cycle " << o.cycles;
  EXPECT_TRUE(o.pass) << "no pass within " << o.cycles << " cycles";
  EXPECT_FALSE(o.fail);
  EXPECT_EQ(o.check_errors, 0);
  EXPECT_EQ(o.router_errors, 0);
  EXPECT_EQ(o.cycles_o, o.cycles);
  // Every kind reached its target; each message is delivered at 1 or 2 destinations, and at most
  // 3 deliveries per source are outstanding.
  EXPECT_GE(o.delivered, kKinds * kTarget);
  EXPECT_GE(o.delivered + 6, o.sent);
  EXPECT_LE(o.delivered, 2 * o.sent);
  std::cout << "self-test: " << o.sent << " worms sent, " << o.delivered << " deliveries checked, " << o.cycles
            << " cycles\n";
}

TEST(FpgaSelftest, PassesEveryKindWithNoErrorAndStaysCleanForFortyMoreAudits) {
  ExpectPassAndStayClean<Vnoc_selftest_f0>();
}

#if WORMCAST_REGRESS
TEST(FpgaSelftest, PassesWithFourFlitBuffersToo) { ExpectPassAndStayClean<Vnoc_selftest_f0_d4>(); }
#endif

TEST(FpgaSelftest, CorruptedPayloadFlitIsReportedAsACheckError) {
  const SelftestOutcome o = run_selftest<Vnoc_selftest_f1>(20000, 0);
  EXPECT_FALSE(o.assertion) << "an RTL assertion fired at cycle " << o.cycles;
  EXPECT_TRUE(o.fail);
  EXPECT_FALSE(o.pass);
  EXPECT_GE(o.check_errors, 1);
  EXPECT_EQ(o.router_errors, 0) << "a corrupted payload word is the checkers' to find";
  // Found when the corrupted worm is delivered, a few cycles after the fault.
  EXPECT_GT(o.cycles, kFaultAfter);
  EXPECT_LT(o.cycles, kFaultAfter + 1000);
}

// With one-flit buffers the dropped credit was the VC's only one: the link's VC 0 stops, the
// watchdog trips (and the audit after it finds the credit missing).
TEST(FpgaSelftest, DroppedOnlyCreditIsReportedByTheWatchdog) {
  const SelftestOutcome o = run_selftest<Vnoc_selftest_f2>(20000, 0);
  EXPECT_FALSE(o.assertion) << "an RTL assertion fired at cycle " << o.cycles;
  EXPECT_TRUE(o.fail);
  EXPECT_FALSE(o.pass);
  EXPECT_GE(o.check_errors, 1);
  EXPECT_EQ(o.router_errors, 0) << "a lost credit raises no router error bit";
  EXPECT_GT(o.cycles, kFaultAfter + kWatchdog - 1);
  EXPECT_LT(o.cycles, kFaultAfter + kWatchdog + 500);
}

// With four-flit buffers the network runs on three credits: only the credit audit sees it, at the
// first audit after the fault, before any pass verdict.
TEST(FpgaSelftest, DroppedCreditIsReportedByTheCreditAudit) {
  const SelftestOutcome o = run_selftest<Vnoc_selftest_f2_d4>(20000, 0);
  EXPECT_FALSE(o.assertion) << "an RTL assertion fired at cycle " << o.cycles;
  EXPECT_TRUE(o.fail);
  EXPECT_FALSE(o.pass) << "a dropped credit must be found before the pass verdict";
  EXPECT_GE(o.check_errors, 1);
  EXPECT_EQ(o.router_errors, 0) << "a lost credit raises no router error bit: only the audit sees it";
  EXPECT_GT(o.cycles, kAuditPeriod);
  EXPECT_LT(o.cycles, 2 * kAuditPeriod + 500);
}

}  // namespace
}  // namespace wormcast::verif
