// SPDX-License-Identifier: Apache-2.0
// The firmware on the host, the network on the board (sim/fpga_backend.hpp): the verilated ULX3S
// top with HostLink = 1 (2x2 mesh, 64-bit flits, 4 cycles per UART bit) behind the host's UART pin
// model. Every run is checked against its plan's deliveries; where every worm leaves its source at
// once, each destination's delivery cycle on the board equals the timing model's; a multi-step
// algorithm's is later by the link's wait, which the run reports.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "Vwormcast_ulx3s_host2x2.h"
#include "model/errors.hpp"
#include "model/path_multicast.hpp"
#include "model/planner.hpp"
#include "model/tree_multicast.hpp"
#include "model/unicast_multicast.hpp"
#include "sim/fpga_backend.hpp"
#include "sim/multicast_run.hpp"
#include "sim/scoreboard.hpp"
#include "sim/serial_link.hpp"
#include "sim/simulated_board.hpp"
#include "verif/fpga/pty_board.hpp"

namespace wormcast::verif::fpga {
namespace {

using Board = sim::SimulatedBoard<Vwormcast_ulx3s_host2x2>;

constexpr unsigned kDivisor = 4;  // -GClkHz=1000000 -GBaud=250000 (verif/rtl/CMakeLists.txt)
constexpr long kAlpha = 40, kGamma = 30;

model::Request request(const std::string& algorithm, model::NodeId source, std::vector<model::NodeId> dests,
                       int length) {
  return model::make_request(model::Topology::parse("mesh:2x2"), algorithm, source, std::move(dests), length,
                             model::PortModel::one_port());
}

// The same requests on the timing model's routers, every multicast starting at cycle 0.
sim::RunRecord on_timing_model(const std::vector<model::Request>& requests, long alpha) {
  sim::RunOptions options;
  options.backend = sim::Backend::kModel;
  options.alpha = alpha;
  options.gamma = kGamma;
  return sim::run_multicasts(requests, options);
}

class BoardRun : public ::testing::Test {
 protected:
  BoardRun() : board_(kDivisor, 400 * kDivisor) { board_.run(64); }  // past the reset hold
  ~BoardRun() override {
    EXPECT_FALSE(board_.assertion_failed()) << "an RTL assertion fired";
    EXPECT_EQ(board_.framing_errors(), 0);
  }
  sim::BoardRun run(const std::vector<model::Request>& requests, long alpha = kAlpha,
                    const std::vector<long>& start_cycles = {}) {
    sim::HostLinkClient host(board_);
    sim::BoardRunOptions options;
    options.alpha = alpha;
    options.gamma = kGamma;
    options.quiet_cycles = 400;
    return sim::run_on_board(requests, options, host, start_cycles);
  }
  // The run did what each request's plan says: every destination got its data once.
  static void expect_delivered(const std::vector<model::Request>& requests, const sim::BoardRun& got) {
    EXPECT_TRUE(got.record.errors.empty()) << got.record.errors.front();
    EXPECT_FALSE(got.record.stalled);
    for (std::size_t i = 0; i < requests.size(); ++i) {
      EXPECT_EQ(sim::check_deliveries(model::plan(requests[i]), static_cast<int>(i), got.record), "")
          << requests[i].algorithm;
    }
  }
  Board board_;
};

// Single unicasts and the path-based algorithms: the host knows every injection before run cycle
// 0, so the board injects each at the cycle the timing model's NI does, and the network alone
// decides the delivery cycles.
TEST_F(BoardRun, SingleStepAlgorithmsDeliverAtTheTimingModelsCycles) {
  const std::vector<std::vector<model::Request>> runs{
      {request(model::kUnicastAlgorithm, 0, {3}, 2)},
      {request(model::kUnicastAlgorithm, 0, {1}, 2), request(model::kUnicastAlgorithm, 3, {2}, 3)},
      {request(model::kDualPathAlgorithm, 1, {0, 2, 3}, 2)},
      {request(model::kLinAlgorithm, 0, {1, 2, 3}, 2)},
  };
  for (const std::vector<model::Request>& requests : runs) {
    const sim::BoardRun got = run(requests);
    expect_delivered(requests, got);
    EXPECT_EQ(got.late, 0u);
    EXPECT_EQ(got.stalls, 0u);
    EXPECT_EQ(got.link_wait, 0) << "every injection is known before the run starts";
    const sim::RunRecord want = on_timing_model(requests, kAlpha);
    for (std::size_t i = 0; i < requests.size(); ++i) {
      const model::Plan plan = model::plan(requests[i]);
      EXPECT_EQ(sim::delivery_cycles(plan, static_cast<int>(i), got.record),
                sim::delivery_cycles(plan, static_cast<int>(i), want))
          << requests[i].algorithm << " multicast " << i;
    }
  }
}

// Start cycles (`run --requests` on a board): each multicast starts at its own cycle. A late start
// is seen by the host once the board has passed its cycle, so each destination's delivery is the
// timing model's for the multicast alone, shifted by its start, and later by at most the link's
// wait.
TEST_F(BoardRun, EachMulticastStartsAtItsStartCycle) {
  const std::vector<model::Request> requests{request(model::kUnicastAlgorithm, 0, {3}, 2),
                                             request(model::kDualPathAlgorithm, 1, {0, 2, 3}, 2)};
  const std::vector<long> starts{0, 300};
  const sim::BoardRun got = run(requests, kAlpha, starts);
  expect_delivered(requests, got);
  for (std::size_t i = 0; i < requests.size(); ++i) {
    const model::Plan plan = model::plan(requests[i]);
    const std::vector<long> alone = sim::delivery_cycles(plan, 0, on_timing_model({requests[i]}, kAlpha));
    const std::vector<long> board = sim::delivery_cycles(plan, static_cast<int>(i), got.record);
    ASSERT_EQ(board.size(), alone.size());
    for (std::size_t d = 0; d < board.size(); ++d) {
      EXPECT_GE(board[d] - starts[i], alone[d]) << "multicast " << i << " destination " << d;
      EXPECT_LE(board[d] - starts[i], alone[d] + got.link_wait) << "multicast " << i << " destination " << d;
    }
  }
}

TEST_F(BoardRun, StartCyclesOfAnotherCountOrBelowZeroAreRequestErrors) {
  const std::vector<model::Request> requests{request(model::kUnicastAlgorithm, 0, {3}, 2)};
  sim::HostLinkClient host(board_);
  EXPECT_THROW(sim::run_on_board(requests, sim::BoardRunOptions{}, host, {0, 5}), model::RequestError);
  EXPECT_THROW(sim::run_on_board(requests, sim::BoardRunOptions{}, host, {-1}), model::RequestError);
}

// The comparison above can fail: the timing model run with a start-up one cycle longer than the
// board's delivers every destination one cycle later.
TEST_F(BoardRun, AnotherStartUpOnTheTimingModelIsSeenAsADifference) {
  const std::vector<model::Request> requests{request(model::kDualPathAlgorithm, 0, {1, 2, 3}, 2)};
  const sim::BoardRun got = run(requests);
  const model::Plan plan = model::plan(requests[0]);
  const std::vector<long> board = sim::delivery_cycles(plan, 0, got.record);
  const std::vector<long> model = sim::delivery_cycles(plan, 0, on_timing_model(requests, kAlpha + 1));
  ASSERT_EQ(board.size(), model.size());
  for (std::size_t d = 0; d < board.size(); ++d) EXPECT_EQ(board[d] + 1, model[d]);
}

// The check a board run gets (`wormcast run --backend fpga-sim`) fails on each way a board's record
// can differ from its plan: a destination without its delivery, a corrupted payload, a delivery
// twice, a delivery at a node that is not a destination.
TEST_F(BoardRun, TheDeliveryCheckRejectsEachDoctoredBoardRecord) {
  const std::vector<model::Request> requests{request(model::kDualPathAlgorithm, 1, {0, 2, 3}, 2)};
  const sim::BoardRun got = run(requests);
  const model::Plan plan = model::plan(requests[0]);
  ASSERT_EQ(sim::check_deliveries(plan, 0, got.record), "");
  ASSERT_EQ(got.record.deliveries.size(), 3u);
  const auto doctored = [&](auto change) {
    sim::RunRecord record = got.record;
    change(record.deliveries);
    return sim::check_deliveries(plan, 0, record);
  };
  EXPECT_NE(doctored([](auto& d) { d.erase(d.begin()); }).find("never received the message"), std::string::npos);
  EXPECT_NE(doctored([](auto& d) { d.back().payload_ok = false; }).find("corrupted payload"), std::string::npos);
  EXPECT_NE(doctored([](auto& d) { d.push_back(d.front()); }).find("received the message twice"), std::string::npos);
  EXPECT_NE(doctored([](auto& d) { d.front().node = 1; }).find("is not a destination"), std::string::npos);
}

// A multi-step algorithm: a node's firmware sends in reaction to what it received, which the host
// learns only by reading the board's log, so each later step waits for the link. Checked against
// its plan; every delivery is no earlier than the timing model's, and the wait is printed.
TEST_F(BoardRun, MultiStepAlgorithmsWaitForTheLinkAndReportHowLong) {
  for (const char* algorithm : {model::kOnePortAlgorithm, model::kVhAlgorithm}) {
    const std::vector<model::Request> requests{request(algorithm, 0, {1, 2, 3}, 2)};
    const sim::BoardRun got = run(requests);
    expect_delivered(requests, got);
    EXPECT_EQ(got.late, 0u);
    EXPECT_EQ(got.stalls, 0u);
    EXPECT_GT(got.link_wait, 0) << algorithm << ": a later step was sent at the time the model sends it";
    const model::Plan plan = model::plan(requests[0]);
    const std::vector<long> board = sim::delivery_cycles(plan, 0, got.record);
    const std::vector<long> model = sim::delivery_cycles(plan, 0, on_timing_model(requests, kAlpha));
    long last_board = 0, last_model = 0;
    for (std::size_t d = 0; d < board.size(); ++d) {
      EXPECT_GE(board[d], model[d]) << algorithm << " destination " << d;
      last_board = std::max(last_board, board[d]);
      last_model = std::max(last_model, model[d]);
    }
    std::printf(
        "%s on the 2x2 board: last delivery at cycle %ld, timing model %ld; the link's wait %ld cycles "
        "(a status round trip: %ld board cycles at %u cycles per bit)\n",
        algorithm, last_board, last_model, got.link_wait, got.status_round_trip, kDivisor);
  }
}

// The same run through a serial port: the board runs freely in its own thread behind a
// pseudo-terminal pair, the host opens the other side as it would the board's FTDI port.
TEST(BoardRunSerial, APathMulticastThroughAPseudoTerminalDeliversAtTheTimingModelsCycles) {
  const std::vector<model::Request> requests{request(model::kDualPathAlgorithm, 0, {1, 2, 3}, 2)};
  PtyBoard<Vwormcast_ulx3s_host2x2> board(kDivisor, 64);
  sim::BoardRun got;
  {
    sim::SerialLink port(board.path(), 115200, std::chrono::milliseconds(5000));
    sim::HostLinkClient host(port);
    sim::BoardRunOptions options;
    options.alpha = kAlpha;
    options.gamma = kGamma;
    options.quiet_cycles = 400;
    options.margin_round_trips = 10;  // the host's time between commands, as the board runs on
    got = sim::run_on_board(requests, options, host);
  }
  EXPECT_TRUE(got.record.errors.empty()) << got.record.errors.front();
  EXPECT_EQ(got.late, 0u);
  const model::Plan plan = model::plan(requests[0]);
  EXPECT_EQ(sim::check_deliveries(plan, 0, got.record), "");
  EXPECT_EQ(sim::delivery_cycles(plan, 0, got.record),
            sim::delivery_cycles(plan, 0, on_timing_model(requests, kAlpha)));
}

}  // namespace
}  // namespace wormcast::verif::fpga
