// SPDX-License-Identifier: Apache-2.0
#include "sim/board_top.hpp"

#include "Vwormcast_ulx3s_host2x2.h"
#include "sim/simulated_board.hpp"

namespace wormcast::sim {
namespace {

// Board cycles read_byte waits for an answer's next byte: 400 bit times, far more than the longest
// gap between two bytes of an answer.
constexpr std::uint64_t kPatienceCycles = 400 * kBoardTopCyclesPerBit;
// The reset synchronizer's hold: a byte whose start bit comes earlier is not received.
constexpr std::uint64_t kResetCycles = 64;

class VerilatedBoardTop final : public BoardTop {
 public:
  VerilatedBoardTop() : board_(kBoardTopCyclesPerBit, kPatienceCycles) { board_.run(kResetCycles); }
  void write(const std::vector<std::uint8_t>& bytes) override { board_.write(bytes); }
  std::optional<std::uint8_t> read_byte() override { return board_.read_byte(); }
  bool assertion_failed() const override { return board_.assertion_failed(); }
  int framing_errors() const override { return board_.framing_errors(); }
  std::uint64_t cycles() const override { return board_.cycles(); }

 private:
  SimulatedBoard<Vwormcast_ulx3s_host2x2> board_;
};

}  // namespace

bool board_top_built() { return true; }

std::unique_ptr<BoardTop> make_board_top() { return std::make_unique<VerilatedBoardTop>(); }

}  // namespace wormcast::sim
