// SPDX-License-Identifier: Apache-2.0
// The board top of a build without it (WORMCAST_BOARD_SIM=OFF, CMakeLists.txt): the command line
// refuses --backend fpga-sim before it asks for one (sim/commands/board_run.cpp), so a call here is a
// bug of the caller.
#include <stdexcept>

#include "sim/board_top.hpp"

namespace wormcast::sim {

bool board_top_built() { return false; }

std::unique_ptr<BoardTop> make_board_top() {
  throw std::logic_error("make_board_top: this build has no board top (WORMCAST_BOARD_SIM=OFF); ask board_top_built()");
}

}  // namespace wormcast::sim
