// SPDX-License-Identifier: Apache-2.0
// fpga/mesh_sim.sh: the by-hand run of the mesh self-test (docs/fpga.md, "The mesh self-test", the
// 4x4 run). The verilated fpga/noc_selftest_mesh (Vnoc_selftest_mesh, built by the script with the
// mesh size) runs from reset until pass_o or fail_o or <max-cycles>, then <extra> cycles more, and
// prints the verdict and the counters. Exit 0 only on pass with no fail and no assertion.
//
// Usage: mesh_selftest [max-cycles (600000)] [extra (8192)]
#include <verilated.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "Vnoc_selftest_mesh.h"

namespace {

void Tick(Vnoc_selftest_mesh& m) {
  m.clk_i = 1;
  m.eval();
  m.clk_i = 0;
  m.eval();
}

}  // namespace

int main(int argc, char** argv) {
  const std::uint64_t max_cycles = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 600000;
  const std::uint64_t extra = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 8192;
  VerilatedContext context;
  context.fatalOnError(false);
  Vnoc_selftest_mesh m(&context);
  m.clk_i = 0;
  m.rst_ni = 0;
  m.eval();
  for (int i = 0; i < 3; ++i) Tick(m);
  m.rst_ni = 1;
  m.eval();
  std::uint64_t cycles = 0, limit = max_cycles, verdict = 0;
  bool assertion = false;
  while (cycles < limit) {
    Tick(m);
    ++cycles;
    if (context.gotError()) {
      assertion = true;
      break;
    }
    if (verdict == 0 && (m.pass_o || m.fail_o)) {
      verdict = cycles;
      limit = cycles + extra;
    }
  }
  std::printf(
      "mesh self-test: verdict at cycle %llu (0: none), pass %d, fail %d, assertion %d; after %llu cycles: "
      "%u worms sent, %u deliveries checked, check_errors %u, router_errors %u\n",
      static_cast<unsigned long long>(verdict), m.pass_o, m.fail_o, assertion, static_cast<unsigned long long>(cycles),
      m.worms_sent_o, m.worms_delivered_o, m.check_errors_o, m.router_errors_o);
  const bool ok = m.pass_o && !m.fail_o && !assertion;
  m.final();
  return ok ? 0 : 1;
}
