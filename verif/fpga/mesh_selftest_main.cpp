// SPDX-License-Identifier: Apache-2.0
// fpga/mesh_sim.sh: the by-hand run of the mesh self-test (docs/fpga.md, "The mesh self-test", the
// 4x4 run). The verilated fpga/noc_selftest_mesh (Vnoc_selftest_mesh, built by the script with the
// mesh size) runs from reset until pass_o or fail_o or <max-cycles>, then <extra> cycles more, and
// prints the verdict and the counters. Exit 0 only on pass with no fail and no assertion.
//
// Usage: mesh_selftest [max-cycles (600000)] [extra (8192)]
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "Vnoc_selftest_mesh.h"
#include "verif/rtl/selftest_run.hpp"

int main(int argc, char** argv) {
  const std::uint64_t max_cycles = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 600000;
  const std::uint64_t extra = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 8192;
  const wormcast::verif::SelftestOutcome o = wormcast::verif::run_selftest<Vnoc_selftest_mesh>(max_cycles, extra);
  std::printf(
      "mesh self-test: verdict at cycle %llu (0: none), pass %d, fail %d, assertion %d; after %llu cycles: "
      "%u worms sent, %u deliveries checked, check_errors %u, router_errors %u\n",
      static_cast<unsigned long long>(o.verdict), o.pass, o.fail, o.assertion,
      static_cast<unsigned long long>(o.cycles), o.sent, o.delivered, o.check_errors, o.router_errors);
  return o.pass && !o.fail && !o.assertion ? 0 : 1;
}
