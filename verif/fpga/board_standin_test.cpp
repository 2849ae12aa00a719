// SPDX-License-Identifier: Apache-2.0
// The board's own parts (fpga/reset_sync.sv, status_line.sv, uart_tx.sv and the LEDs of
// wormcast_hx8k_core.sv) around the TEST-ONLY counter stand-in of the self-test network
// (verif/fpga/standin/noc_selftest.sv), whose counters are fixed functions of its cycle count: every
// number of every line is recomputed from the line's own `cycles=` field, so the serial decimal
// conversion is checked on many 10-digit values. The UART runs at 4 cycles per bit
// (ClkHz 1 MHz, 250 kbaud) to keep the test short; the divisor is the same arithmetic at any rate.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>

#include "Vwormcast_hx8k_core_standin_f0.h"
#include "Vwormcast_hx8k_core_standin_f1.h"
#include "Vwormcast_hx8k_core_standin_f2.h"
#include "board_harness.hpp"

namespace wormcast::verif::fpga {
namespace {

// The parameters the models are verilated with (verif/rtl/CMakeLists.txt, the FPGA block).
constexpr unsigned kDivisor = 4;             // ClkHz 1,000,000 / Baud 250,000
constexpr std::uint64_t kLinePeriod = 8000;  // LinePeriod
constexpr std::uint64_t kResetHold = 16;
// The stand-in's defaults.
constexpr std::uint64_t kPassCycles = 20000;
constexpr std::uint64_t kFaultCycle = 15000;

bool Echo() { return std::getenv("WORMCAST_FPGA_ECHO") != nullptr; }

template <class Model>
Board<Model> StartedBoard() {
  Board<Model> board(kDivisor, Echo());
  board.Run(4);
  board.SetResetRequest(false);
  return board;
}

// The stand-in's counters at cycle count `c`.
void ExpectStandinCounters(const StatusLine& line) {
  const auto c = static_cast<std::uint32_t>(line.cycles);
  EXPECT_EQ(line.sent, static_cast<std::uint32_t>(c * 2654435761u)) << "cycles=" << line.cycles;
  EXPECT_EQ(line.delivered, static_cast<std::uint32_t>(c * 3u)) << "cycles=" << line.cycles;
}

TEST(FpgaBoardStandin, StatusLinesCarryTheCountersInDecimalAndPassIsReportedAtOnce) {
  auto board = StartedBoard<Vwormcast_hx8k_core_standin_f0>();
  board.Run(kPassCycles + 3 * kLinePeriod);
  EXPECT_EQ(board.framing_errors(), 0);
  EXPECT_TRUE(board.malformed().empty()) << board.malformed().front();
  EXPECT_FALSE(board.assertion_fired());
  ASSERT_GE(board.lines().size(), 5u);
  int ten_digit = 0;
  const StatusLine* first_pass = nullptr;
  for (const StatusLine& line : board.lines()) {
    ExpectStandinCounters(line);
    EXPECT_EQ(line.errors, 0u);
    EXPECT_EQ(line.router, 0u);
    EXPECT_EQ(line.verdict, line.cycles >= kPassCycles ? "PASS" : "RUN") << "cycles=" << line.cycles;
    if (line.sent >= 1000000000u) ++ten_digit;
    if (line.verdict == "PASS" && first_pass == nullptr) first_pass = &line;
  }
  EXPECT_GE(ten_digit, 2) << "too few 10-digit numbers to check the conversion";
  // Periodic lines start every LinePeriod cycles (the stand-in counts from the same release).
  EXPECT_EQ(board.lines()[0].cycles, kLinePeriod);
  // The pass line starts within a few cycles of pass rising, between two periodic lines.
  ASSERT_NE(first_pass, nullptr);
  EXPECT_LE(first_pass->cycles, kPassCycles + 4);
  // LEDs: heartbeat blinking, pass on, no error, running.
  EXPECT_TRUE(board.heartbeat_blinked());
  EXPECT_TRUE(board.led(kLedPass));
  EXPECT_FALSE(board.led(kLedError));
  EXPECT_TRUE(board.led(kLedRunning));
  EXPECT_FALSE(board.led(kLedRouterError));
  EXPECT_FALSE(board.led(kLedCheckError));
}

TEST(FpgaBoardStandin, CheckerErrorsEndInAFailLineAndTheErrorLeds) {
  auto board = StartedBoard<Vwormcast_hx8k_core_standin_f1>();
  board.RunUntilVerdict("FAIL", kFaultCycle + kLinePeriod);
  board.Run(2 * kLinePeriod);
  EXPECT_EQ(board.framing_errors(), 0);
  EXPECT_TRUE(board.malformed().empty());
  ASSERT_FALSE(board.lines().empty());
  bool failed = false;
  for (const StatusLine& line : board.lines()) {
    ExpectStandinCounters(line);
    const bool faulty = line.cycles >= kFaultCycle;
    EXPECT_EQ(line.errors, faulty ? (line.cycles >> 6) & 0xffffu : 0u);
    EXPECT_EQ(line.verdict, faulty ? "FAIL" : "RUN");
    failed = failed || faulty;
  }
  EXPECT_TRUE(failed);
  EXPECT_TRUE(board.led(kLedError));
  EXPECT_TRUE(board.led(kLedCheckError));
  EXPECT_FALSE(board.led(kLedPass));
  EXPECT_FALSE(board.led(kLedRouterError));
}

TEST(FpgaBoardStandin, RouterFlagsArePrintedInHex) {
  auto board = StartedBoard<Vwormcast_hx8k_core_standin_f2>();
  board.RunUntilVerdict("FAIL", kFaultCycle + kLinePeriod);
  ASSERT_FALSE(board.lines().empty());
  const StatusLine& last = board.lines().back();
  EXPECT_EQ(last.verdict, "FAIL");
  EXPECT_EQ(last.router, 0x5au);
  EXPECT_EQ(last.errors, 0u);
  EXPECT_LE(last.cycles, kFaultCycle + 4) << "the fail line starts when fail rises";
  EXPECT_TRUE(board.led(kLedError));
  EXPECT_TRUE(board.led(kLedRouterError));
  EXPECT_FALSE(board.led(kLedCheckError));
}

TEST(FpgaBoardStandin, ResetAssertsAtOnceAndReleasesSynchronouslyAfterTheHoldTime) {
  Board<Vwormcast_hx8k_core_standin_f0> board(kDivisor, Echo());
  board.Run(10);
  EXPECT_EQ(board->led_o, 0u);
  EXPECT_EQ(board->uart_tx_o, 1u);
  board.SetResetRequest(false);
  // Two synchronizer stages, the hold count, the reset register, the LED register.
  std::uint64_t edges = 0;
  while (!board.led(kLedRunning) && edges < 100) {
    board.Tick();
    ++edges;
  }
  EXPECT_EQ(edges, kResetHold + 4);
  // Reset again in the middle of a line: the line goes idle and the LEDs off without a clock edge.
  board.Run(kLinePeriod + 200 - edges);
  EXPECT_EQ(board.lines().size(), 0u) << "the first line is still being sent";
  board.SetResetRequest(true);
  EXPECT_EQ(board->uart_tx_o, 1u);
  EXPECT_EQ(board->led_o, 0u);
  board.Run(3 * kDivisor * 10);
  EXPECT_EQ(board.lines().size(), 0u);
  board.DiscardPartialLine();  // what the host received of the cut line
  // Released again: the counters start from zero, the first line comes LinePeriod cycles later.
  board.SetResetRequest(false);
  board.Run(kResetHold + 4 + kLinePeriod + 4000);
  ASSERT_EQ(board.lines().size(), 1u);
  EXPECT_EQ(board.lines()[0].cycles, kLinePeriod);
  EXPECT_TRUE(board.malformed().empty());
  EXPECT_FALSE(board.assertion_fired());
}

}  // namespace
}  // namespace wormcast::verif::fpga
