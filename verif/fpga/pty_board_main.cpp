// SPDX-License-Identifier: Apache-2.0
// fpga_pty_board COMMAND [ARG...]: the verilated board top with the host link running freely behind
// a pseudo-terminal pair (verif/fpga/pty_board.hpp), and COMMAND run with every ARG `{pty}` replaced
// by the path of the pty's other side, the serial port a host opens. Exits with COMMAND's exit code
// (125 when it cannot be started), so a test of `wormcast run --backend fpga --serial {pty}` checks
// the command line as it would run against a board on a serial port.
#include <spawn.h>
#include <sys/wait.h>

#include <cstdio>
#include <string>
#include <vector>

#include "Vwormcast_ulx3s_host2x2.h"
#include "sim/board_top.hpp"
#include "verif/fpga/pty_board.hpp"

extern char** environ;

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: fpga_pty_board COMMAND [ARG...] ({pty} in an ARG is the serial port)\n");
    return 2;
  }
  constexpr unsigned kCyclesPerPoll = 64;  // board cycles between looks at the pty
  wormcast::verif::fpga::PtyBoard<Vwormcast_ulx3s_host2x2> board(wormcast::sim::kBoardTopCyclesPerBit, kCyclesPerPoll);
  std::vector<std::string> args(argv + 1, argv + argc);
  for (std::string& arg : args) {
    if (arg == "{pty}") arg = board.path();
  }
  std::vector<char*> pointers;
  for (std::string& arg : args) pointers.push_back(arg.data());
  pointers.push_back(nullptr);
  pid_t child = 0;
  if (::posix_spawnp(&child, pointers[0], nullptr, nullptr, pointers.data(), environ) != 0) {
    std::fprintf(stderr, "fpga_pty_board: cannot start '%s'\n", pointers[0]);
    return 125;
  }
  int status = 0;
  while (::waitpid(child, &status, 0) < 0) {
  }
  if (board.assertion_failed()) {
    std::fprintf(stderr, "fpga_pty_board: an RTL assertion fired on the board top\n");
    return 1;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 125;
}
