// SPDX-License-Identifier: Apache-2.0
// The verilated board top the command line runs as `--backend fpga-sim` (docs/host-link.md,
// "wormcast run on the board"): the ULX3S top with the host link (fpga/ulx3s/wormcast_ulx3s.sv,
// HostLink = 1) on a 2x2 mesh with 64-bit flits, its UART at 4 board cycles per bit, verilated with
// --assert (fpga/CMakeLists.txt), behind the host's UART pin model (sim/simulated_board.hpp).
#pragma once

#include <cstdint>
#include <memory>

#include "sim/host_link_client.hpp"

namespace wormcast::sim {

// The board top's mesh, as a topology spec.
inline constexpr const char* kBoardTopTopology = "mesh:2x2";
// Its UART's board cycles per bit.
inline constexpr unsigned kBoardTopCyclesPerBit = 4;

class BoardTop : public ByteLink {
 public:
  // An RTL assertion fired since the board was made.
  virtual bool assertion_failed() const = 0;
  // Bytes from the board whose stop bit was low.
  virtual int framing_errors() const = 0;
  // Board cycles simulated since the board was made.
  virtual std::uint64_t cycles() const = 0;
};

// Whether this build has the board top: the build option WORMCAST_BOARD_SIM (CMakeLists.txt), off in
// `make run`'s cli-only build, where make_board_top throws std::logic_error (sim/board_top_absent.cpp).
bool board_top_built();

// The board top, out of its reset (its first bytes may go out at once). One at a time per process:
// it has its own VerilatedContext, and two contexts alive at once hang Verilator 5.006 at teardown
// (sim/backend.hpp).
std::unique_ptr<BoardTop> make_board_top();

}  // namespace wormcast::sim
