// SPDX-License-Identifier: Apache-2.0
// The host link (docs/host-link.md) on the verilated ULX3S top with HostLink = 1, a
// 2x2 mesh, 64-bit flits, 4 cycles per UART bit, driven through the host's UART pin model: the
// status block, injection at a requested board cycle with the documented zero-load latency, the
// refusals and their codes, the resynchronization after a partial command, late starts and the
// delivery log's back-pressure.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

#include "Vwormcast_ulx3s_host2x2.h"
#include "firmware/noc_wire_format.hpp"
#include "sim/host_link_client.hpp"
#include "sim/serial_link.hpp"
#include "sim/simulated_board.hpp"
#include "verif/fpga/pty_board.hpp"

namespace wormcast::verif::fpga {
namespace {

using Board = sim::SimulatedBoard<Vwormcast_ulx3s_host2x2>;
using sim::HostLinkClient;
using sim::InjectCode;
using sim::LinkStatus;

constexpr unsigned kDivisor = 4;  // -GClkHz=1000000 -GBaud=250000 (verif/rtl/CMakeLists.txt)
constexpr unsigned kSizeX = 2;
constexpr unsigned kNodes = 4;
constexpr unsigned kInjDepth = 16;  // noc_host_mesh's defaults
constexpr unsigned kLogDepth = 16;

// A dimension-order head from `src` to `dst` with `payload` words after it (docs/header-format.md).
std::uint64_t dor_head(unsigned src, unsigned dst) {
  wire::HeadFields h;
  h.mode = wire::Mode::kDimensionOrder;
  h.vc_class = 0;  // dimension order on a mesh: class 0 (docs/header-format.md)
  h.dest = wire::pack_coord_dest({static_cast<std::uint8_t>(dst % kSizeX), static_cast<std::uint8_t>(dst / kSizeX), 0});
  h.src = src;
  h.tag = static_cast<std::uint8_t>(dst);
  return wire::pack_head(h);
}

std::vector<std::uint64_t> message(unsigned src, unsigned dst, unsigned payload) {
  std::vector<std::uint64_t> words{dor_head(src, dst)};
  for (unsigned i = 0; i < payload; ++i) words.push_back(0x5eed'0000'0000'0000ull | (src << 16) | (dst << 8) | i);
  return words;
}

unsigned hops(unsigned a, unsigned b) {
  const int dx = static_cast<int>(a % kSizeX) - static_cast<int>(b % kSizeX);
  const int dy = static_cast<int>(a / kSizeX) - static_cast<int>(b / kSizeX);
  return static_cast<unsigned>(std::abs(dx) + std::abs(dy));
}

// docs/rtl.md, "Latency": 2 + 2 H cycles from the head entering the sender's router to leaving the
// destination's ejection port, the body one flit per cycle behind it. The NI adds no cycle on
// either side (docs/ni.md: the message word is on the link in the cycle it is taken, the ejected
// flit bypasses the empty FIFO to the receive port).
long documented_latency(unsigned h, unsigned flits) { return 2 + 2L * h + (flits - 1); }

// Board cycles from `start` to `now`, negative before it (board cycles wrap at 2^32).
std::int32_t since(std::uint32_t now, std::uint32_t start) { return static_cast<std::int32_t>(now - start); }

class HostLink : public ::testing::Test {
 protected:
  HostLink() : board_(kDivisor, 400 * kDivisor) { board_.run(64); }  // past the reset hold
  ~HostLink() override {
    EXPECT_FALSE(board_.assertion_failed()) << "an RTL assertion fired";
    EXPECT_EQ(board_.framing_errors(), 0);
  }
  Board board_;
};

TEST_F(HostLink, StatusDescribesTheMeshAndTheBoardCycleAdvances) {
  HostLinkClient host(board_);
  const LinkStatus a = host.status();
  const LinkStatus b = host.status();
  EXPECT_EQ(a.nodes.size(), kNodes);
  EXPECT_EQ(a.word_bytes, 8u);
  EXPECT_EQ(a.max_words, kInjDepth - 1);
  EXPECT_EQ(a.log_depth, kLogDepth);
  EXPECT_EQ(a.link_errors, 0);
  EXPECT_EQ(a.late, 0);
  EXPECT_EQ(a.stalls, 0);
  for (const LinkStatus::Node& n : a.nodes) {
    EXPECT_EQ(n.errors, 0);
    EXPECT_EQ(n.free, kInjDepth);
    EXPECT_EQ(n.queued, 0);
    EXPECT_EQ(n.logged, 0);
  }
  // Between the two snapshots: the status answer (1 + 13 + 16 bytes) and the next command byte,
  // 10 bits each.
  EXPECT_GE(b.cycle - a.cycle, (1u + 13u + 4u * kNodes + 1u) * 10u * kDivisor);
}

TEST_F(HostLink, UnicastsStartAtTheirBoardCycleAndArriveWithTheDocumentedLatency) {
  HostLinkClient host(board_);
  // One and two hops, along x, along y, and with the x-to-y turn in both directions.
  const std::vector<std::pair<unsigned, unsigned>> pairs{{0, 1}, {1, 3}, {0, 3}, {3, 0}, {2, 1}};
  for (const auto& [src, dst] : pairs) {
    const std::vector<std::uint64_t> words = message(src, dst, 3);
    // Ahead by the status answer and the inject command at line rate (30 + 39 bytes), and more.
    const std::uint32_t start = host.status().cycle + 4000;
    ASSERT_EQ(host.inject(src, start, words).code, InjectCode::kAccepted);
    while (since(host.status().cycle, start) < 200) {
    }
    const std::vector<sim::LinkDelivery> got = host.collect(dst);
    ASSERT_EQ(got.size(), 1u) << src << " -> " << dst;
    EXPECT_EQ(got[0].words, words) << src << " -> " << dst;
    EXPECT_EQ(static_cast<long>(got[0].cycle - start), documented_latency(hops(src, dst), 4))
        << src << " -> " << dst << ", " << hops(src, dst) << " hops";
  }
  const LinkStatus s = host.status();
  EXPECT_EQ(s.late, 0);
  EXPECT_EQ(s.stalls, 0);
  EXPECT_EQ(s.link_errors, 0);
  for (const LinkStatus::Node& n : s.nodes) EXPECT_EQ(n.errors, 0);
}

TEST_F(HostLink, RefusedInjectsAnswerTheirCodeAndTheBoardStaysInStep) {
  HostLinkClient host(board_);
  const std::uint32_t far = host.status().cycle + 1'000'000;
  EXPECT_EQ(host.inject(kNodes, far, message(0, 1, 1)).code, InjectCode::kBadNode);
  EXPECT_EQ(host.inject(0, far, {}).code, InjectCode::kBadLength);
  EXPECT_EQ(host.inject(0, far, message(0, 1, kInjDepth - 1)).code, InjectCode::kBadLength);  // 16 words
  // A message of 7 words takes 8 entries; the front message's start entry moves to the queue's
  // start register at once, so the first leaves 9 free and the second 1, too few for a third.
  sim::InjectAnswer first = host.inject(0, far, message(0, 1, 6));
  EXPECT_EQ(first.code, InjectCode::kAccepted);
  EXPECT_EQ(first.free, kInjDepth - 7);
  EXPECT_EQ(host.inject(0, far, message(0, 1, 6)).free, 1u);
  EXPECT_EQ(host.inject(0, far, message(0, 1, 1)).code, InjectCode::kNoRoom);
  const LinkStatus s = host.status();
  EXPECT_EQ(s.link_errors, 1u << 1);  // a refused inject, nothing else: no byte was misread
  EXPECT_EQ(s.nodes[0].queued, 2);
  EXPECT_EQ(s.nodes[0].free, 1);
}

TEST_F(HostLink, UnknownCommandIsAnsweredWithEAndAPartialCommandTimesOut) {
  HostLinkClient host(board_);
  board_.write({'x'});
  EXPECT_EQ(board_.read_byte(), std::optional<std::uint8_t>('E'));
  EXPECT_EQ(board_.read_byte(), std::optional<std::uint8_t>('x'));
  board_.write({'I', 0, 1});  // an inject cut short after its node and one cycle byte
  EXPECT_EQ(board_.read_byte(), std::nullopt);
  const LinkStatus s = host.status();  // the next command is read from its first byte
  EXPECT_EQ(s.link_errors, (1u << 0) | (1u << 2));
  EXPECT_EQ(s.nodes[0].free, kInjDepth);
}

TEST_F(HostLink, AStartInThePastIsSentAtOnceAndCountedLate) {
  HostLinkClient host(board_);
  const std::uint32_t past = host.status().cycle - 10;
  ASSERT_EQ(host.inject(0, past, message(0, 3, 2)).code, InjectCode::kAccepted);
  board_.run(200);
  const std::vector<sim::LinkDelivery> got = host.collect(3);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].words, message(0, 3, 2));
  EXPECT_EQ(host.status().late, 1);
}

TEST_F(HostLink, AFullDeliveryLogHoldsTheNetworkAndLosesNothing) {
  HostLinkClient host(board_);
  const std::uint32_t start = host.status().cycle + 8000;
  // Three messages of 12 flits into node 3 (36 flits, its log holds 16): the log fills and holds
  // its receive port until the host reads.
  for (unsigned src = 0; src < 3; ++src) {
    ASSERT_EQ(host.inject(src, start, message(src, 3, 11)).code, InjectCode::kAccepted);
  }
  while (since(host.status().cycle, start) < 400) {
  }
  std::vector<sim::LinkDelivery> got;
  for (int round = 0; round < 10 && got.size() < 3; ++round) {
    for (sim::LinkDelivery& d : host.collect(3)) got.push_back(std::move(d));
  }
  ASSERT_EQ(got.size(), 3u);
  std::vector<bool> seen(3, false);
  for (const sim::LinkDelivery& d : got) {
    const unsigned src = static_cast<unsigned>(wire::unpack_head(d.words[0]).src);
    ASSERT_LT(src, 3u);
    EXPECT_EQ(d.words, message(src, 3, 11));
    seen[src] = true;
  }
  EXPECT_EQ(seen, std::vector<bool>(3, true));
  const LinkStatus s = host.status();
  EXPECT_GT(s.stalls, 0);
  for (const LinkStatus::Node& n : s.nodes) EXPECT_EQ(n.errors, 0);
}

// The link's cost per message and the simulation's speed, printed (WORMCAST_FPGA_ECHO=1 prints
// more): the board cycles from the inject command's first byte to the answer's last, and the
// board cycles per second of the verilated top.
TEST_F(HostLink, LinkLatencyPerMessageIsTheCommandsBytesAtLineRate) {
  HostLinkClient host(board_);
  const auto t0 = std::chrono::steady_clock::now();
  const std::uint64_t c0 = board_.cycles();
  const std::uint32_t start = host.status().cycle + 20'000;
  const std::uint64_t before = board_.cycles();
  ASSERT_EQ(host.inject(0, start, message(0, 3, 3)).code, InjectCode::kAccepted);
  const std::uint64_t inject_cycles = board_.cycles() - before;
  // Command 1 + 1 + 4 + 1 + 4 x 8 bytes, answer 4 bytes, 10 bits each; the answer starts in the
  // cycle the command's last byte is received (its stop bit's middle) plus a few cycles.
  const std::uint64_t line_cycles = (39u + 4u) * 10u * kDivisor;
  EXPECT_GE(inject_cycles, line_cycles - kDivisor);
  EXPECT_LE(inject_cycles, line_cycles + 4u * kDivisor);
  board_.run(20'000);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf(
      "host link: an inject of 4 words takes %llu board cycles (%llu bit times) from its first byte "
      "to its answer's last; the 2x2 board simulates %.0f cycles/s\n",
      static_cast<unsigned long long>(inject_cycles), static_cast<unsigned long long>(inject_cycles / kDivisor),
      static_cast<double>(board_.cycles() - c0) / seconds);
}

// The same board behind a pseudo-terminal pair, running freely in a thread of its own; the host
// talks to it through sim::SerialLink on the pty's other side, as `--serial DEV` would to the
// board's FTDI port. The board cycles of the deliveries are the board's, whatever the pty's delays.
TEST(HostLinkSerial, UnicastsThroughAPseudoTerminalArriveAtTheirDocumentedBoardCycles) {
  PtyBoard<Vwormcast_ulx3s_host2x2> board(kDivisor, 64);
  {
    sim::SerialLink port(board.path(), 115200, std::chrono::milliseconds(5000));
    HostLinkClient host(port);
    ASSERT_EQ(host.nodes(), kNodes);
    // The board runs on while the host thinks: a start cycle is set ahead by ten status round trips
    // (each one command and its answer), so the inject arrives before it.
    const std::uint32_t first = host.status().cycle;
    const std::uint32_t round_trip = host.status().cycle - first;
    for (unsigned dst = 1; dst < kNodes; ++dst) {
      const std::vector<std::uint64_t> words = message(0, dst, 5);
      const std::uint32_t start = host.status().cycle + 10 * round_trip;
      ASSERT_EQ(host.inject(0, start, words).code, InjectCode::kAccepted);
      while (since(host.status().cycle, start) < 300) {
      }
      const std::vector<sim::LinkDelivery> got = host.collect(dst);
      ASSERT_EQ(got.size(), 1u);
      EXPECT_EQ(got[0].words, words);
      EXPECT_EQ(static_cast<long>(got[0].cycle - start), documented_latency(hops(0, dst), 6));
    }
    const LinkStatus s = host.status();
    EXPECT_EQ(s.late, 0);
    EXPECT_EQ(s.link_errors, 0);
  }
}

TEST(HostLinkSerial, AnUnsupportedBaudRateOrAMissingDeviceIsAClearError) {
  EXPECT_THROW(sim::SerialLink("/dev/null", 12345, std::chrono::milliseconds(1)), std::invalid_argument);
  EXPECT_THROW(sim::SerialLink("/nonexistent/tty", 115200, std::chrono::milliseconds(1)), std::runtime_error);
}

}  // namespace
}  // namespace wormcast::verif::fpga
