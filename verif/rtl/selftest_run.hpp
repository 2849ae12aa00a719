// SPDX-License-Identifier: Apache-2.0
// Runs a verilated FPGA self-test top (fpga/noc_selftest.sv, fpga/noc_selftest_mesh.sv: the ports
// clk_i, rst_ni, pass_o, fail_o and the UART line's counters) from reset until it reports, as the
// board would: shared by the self-test suites (verif/rtl/fpga_selftest_test.cpp,
// fpga_selftest_mesh_test.cpp) and the by-hand mesh run (verif/fpga/mesh_selftest_main.cpp).
#pragma once

#include <verilated.h>

#include <cstdint>

namespace wormcast::verif {

struct SelftestOutcome {
  std::uint64_t cycles = 0;   // cycles run after reset
  std::uint64_t verdict = 0;  // the cycle pass_o or fail_o first rose (0: never)
  bool assertion = false;     // an RTL assertion fired
  std::uint32_t sent = 0, delivered = 0, cycles_o = 0;
  std::uint16_t check_errors = 0;
  std::uint8_t router_errors = 0;
  bool pass = false, fail = false;
};

// Holds reset over three clock edges (the routers' RegisterConfig capture needs one), then clocks
// the model until pass_o or fail_o or `max_cycles`, then `extra` cycles more (a verdict must stay),
// stopping early when an assertion fires.
template <class Model>
SelftestOutcome run_selftest(std::uint64_t max_cycles, std::uint64_t extra) {
  VerilatedContext context;
  context.fatalOnError(false);
  Model m(&context);
  const auto tick = [&m] {
    m.clk_i = 1;
    m.eval();
    m.clk_i = 0;
    m.eval();
  };
  m.clk_i = 0;
  m.rst_ni = 0;
  m.eval();
  for (int i = 0; i < 3; ++i) tick();
  m.rst_ni = 1;
  m.eval();
  SelftestOutcome o;
  std::uint64_t limit = max_cycles;
  while (o.cycles < limit) {
    tick();
    ++o.cycles;
    if (context.gotError()) {
      o.assertion = true;
      break;
    }
    if (o.verdict == 0 && (m.pass_o || m.fail_o)) {
      o.verdict = o.cycles;
      limit = o.cycles + extra;
    }
  }
  o.sent = m.worms_sent_o;
  o.delivered = m.worms_delivered_o;
  o.cycles_o = m.cycles_o;
  o.check_errors = m.check_errors_o;
  o.router_errors = m.router_errors_o;
  o.pass = m.pass_o;
  o.fail = m.fail_o;
  m.final();
  return o;
}

}  // namespace wormcast::verif
