// SPDX-License-Identifier: Apache-2.0
// make fpga-check BOARD=ulx3s (verif/fpga/fpga_check_ulx3s.sh): the RTL reference of the placed
// ULX3S design's simulation. The verilated board top (Vwormcast_ulx3s, built by the script with the
// build's parameters) runs <cycles> cycles from its power-on state (the reset request register at
// its initial 0, the receive line idle high), as placed_ulx3s_tb.v runs the placed netlist, and
// writes the same trace: "<cycle> <uart> <leds>" whenever they change, the cycle counted in rising
// edges from 1 and sampled after the falling edge.
//
// Usage: rtl_trace_ulx3s <cycles> <trace-file>
#include <verilated.h>

#include <bitset>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>

#include "Vwormcast_ulx3s.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: rtl_trace_ulx3s <cycles> <trace-file>\n";
    return 2;
  }
  const long cycles = std::atol(argv[1]);
  std::ofstream out(argv[2]);
  auto context = std::make_unique<VerilatedContext>();
  auto top = std::make_unique<Vwormcast_ulx3s>(context.get(), "top");
  top->clk_25mhz_i = 0;
  top->uart_rx_i = 1;
  top->eval();
  unsigned last = 0x1ff;
  for (long cycle = 1; cycle <= cycles; ++cycle) {
    top->clk_25mhz_i = 1;
    top->eval();
    context->timeInc(1);
    top->clk_25mhz_i = 0;
    top->eval();
    context->timeInc(1);
    const unsigned now = (static_cast<unsigned>(top->uart_tx_o) << 8) | top->led_o;
    if (now != last) {
      out << cycle << ' ' << (now >> 8) << ' ' << std::bitset<8>(now & 0xff) << '\n';
      last = now;
    }
  }
  top->final();
  return 0;
}
