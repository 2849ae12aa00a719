// SPDX-License-Identifier: Apache-2.0
// The FPGA board's core (fpga/wormcast_hx8k_core.sv) with the self-test network
// (fpga/noc_selftest.sv) as the bitstream has it, verilated with its assertions: the C++ UART
// receiver decodes the status lines from the transmit pin until the line says PASS, and the LEDs
// must agree. With a fault injected through the test-only parameter (Fault 1: a corrupted payload
// flit; Fault 2: a dropped credit) the line must say FAIL and the error LED light. The UART runs at
// 4 cycles per bit (ClkHz 1 MHz, 250 kbaud) and a line comes every LinePeriod cycles, so the run
// takes as many cycles as the self-test needs plus one line. `make fpga-sim` runs these tests alone
// and prints every line (WORMCAST_FPGA_ECHO).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <iostream>

#include "Vwormcast_hx8k_core_f0.h"
#include "Vwormcast_hx8k_core_f1.h"
#if WORMCAST_REGRESS  // Fault 2 on the board is make regress's (verif/rtl/CMakeLists.txt)
#include "Vwormcast_hx8k_core_f2.h"
#endif
#include "board_harness.hpp"

namespace wormcast::verif::fpga {
namespace {

constexpr unsigned kDivisor = 4;  // ClkHz 1,000,000 / Baud 250,000 (verif/rtl/CMakeLists.txt)
// A bound, not a target: the self-test passes long before (the test prints the cycle).
constexpr std::uint64_t kMaxCycles = 4'000'000;

bool Echo() { return std::getenv("WORMCAST_FPGA_ECHO") != nullptr; }

template <class Model>
void Start(Board<Model>& board) {
  board.Run(4);
  board.SetResetRequest(false);
}

template <class Model>
void ExpectWellFormed(const Board<Model>& board) {
  EXPECT_EQ(board.framing_errors(), 0);
  EXPECT_TRUE(board.malformed().empty()) << board.malformed().front();
  for (const StatusLine& line : board.lines()) {
    EXPECT_LE(line.delivered, 2 * line.sent) << "a worm has at most two destinations here";
  }
}

TEST(FpgaBoard, SelfTestPassesAndTheUartLineAndLedsSayPass) {
  Board<Vwormcast_hx8k_core_f0> board(kDivisor, Echo());
  Start(board);
  board.RunUntilVerdict("PASS", kMaxCycles);
  ExpectWellFormed(board);
  ASSERT_FALSE(board.lines().empty());
  const StatusLine& last = board.lines().back();
  std::cout << "PASS line after " << board.cycle() << " cycles (cycles=" << last.cycles << ", " << last.sent
            << " worms sent, " << last.delivered << " deliveries)" << std::endl;
  ASSERT_EQ(last.verdict, "PASS");
  EXPECT_EQ(last.errors, 0u);
  EXPECT_EQ(last.router, 0u);
  EXPECT_GT(last.sent, 0u);
  EXPECT_GT(last.delivered, 0u);
  for (const StatusLine& line : board.lines()) EXPECT_NE(line.verdict, "FAIL");
  EXPECT_TRUE(board.led(kLedPass));
  EXPECT_FALSE(board.led(kLedError));
  EXPECT_FALSE(board.led(kLedRouterError));
  EXPECT_FALSE(board.led(kLedCheckError));
  EXPECT_TRUE(board.led(kLedRunning));
  EXPECT_TRUE(board.heartbeat_blinked());
  EXPECT_FALSE(board.assertion_fired()) << "an RTL assertion fired in the fault-free self-test";
}

template <class Model>
void ExpectFailLine(const char* what) {
  Board<Model> board(kDivisor, Echo());
  Start(board);
  board.RunUntilVerdict("FAIL", kMaxCycles);
  ExpectWellFormed(board);
  ASSERT_FALSE(board.lines().empty());
  const StatusLine& last = board.lines().back();
  std::cout << what << ": FAIL line after " << board.cycle() << " cycles (errors=" << last.errors << " router=0x"
            << std::hex << last.router << std::dec << ")" << std::endl;
  ASSERT_EQ(last.verdict, "FAIL");
  EXPECT_TRUE(last.errors != 0 || last.router != 0);
  for (const StatusLine& line : board.lines()) EXPECT_NE(line.verdict, "PASS");
  EXPECT_TRUE(board.led(kLedError));
  EXPECT_FALSE(board.led(kLedPass));
  EXPECT_EQ(board.led(kLedCheckError), last.errors != 0);
  EXPECT_EQ(board.led(kLedRouterError), last.router != 0);
}

TEST(FpgaBoard, CorruptedPayloadFlitEndsInAFailLine) { ExpectFailLine<Vwormcast_hx8k_core_f1>("Fault 1"); }

#if WORMCAST_REGRESS
TEST(FpgaBoard, DroppedCreditEndsInAFailLine) { ExpectFailLine<Vwormcast_hx8k_core_f2>("Fault 2"); }
#endif

}  // namespace
}  // namespace wormcast::verif::fpga
