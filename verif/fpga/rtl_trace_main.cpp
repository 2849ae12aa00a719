// SPDX-License-Identifier: Apache-2.0
// make fpga-check (verif/fpga/fpga_check.sh): the RTL reference of the placed-design simulation.
// The verilated core (Vwormcast_hx8k_core, built by the script with the board's parameters) runs
// <cycles> cycles with its reset request released after <lock-cycles> rising edges, as
// placed_tb.v's PLL model does, and writes the same trace: "<cycle> <uart> <leds>" whenever they
// change, the cycle counted in rising edges from 1.
//
// Usage: rtl_trace <cycles> <lock-cycles> <trace-file>
#include <verilated.h>

#include <bitset>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>

#include "Vwormcast_hx8k_core.h"

int main(int argc, char** argv) {
  if (argc != 4) {
    std::cerr << "usage: rtl_trace <cycles> <lock-cycles> <trace-file>\n";
    return 2;
  }
  const long cycles = std::atol(argv[1]);
  const long lock_cycles = std::atol(argv[2]);
  std::ofstream out(argv[3]);
  auto context = std::make_unique<VerilatedContext>();
  auto core = std::make_unique<Vwormcast_hx8k_core>(context.get(), "core");
  core->clk_i = 0;
  core->rst_req_ni = 0;
  core->eval();
  unsigned last = 0x1ff;
  for (long cycle = 1; cycle <= cycles; ++cycle) {
    core->clk_i = 1;
    core->eval();
    context->timeInc(1);
    core->clk_i = 0;
    core->eval();
    context->timeInc(1);
    if (cycle == lock_cycles) {
      core->rst_req_ni = 1;
      core->eval();
    }
    const unsigned now = (static_cast<unsigned>(core->uart_tx_o) << 8) | core->led_o;
    if (now != last) {
      out << cycle << ' ' << (now >> 8) << ' ' << std::bitset<8>(now & 0xff) << '\n';
      last = now;
    }
  }
  core->final();
  return 0;
}
