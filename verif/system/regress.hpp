// SPDX-License-Identifier: Apache-2.0
// How `make regress` lengthens the system suites (Makefile, docs/firmware.md "Tests"): shared by
// the multicast suite (cosim_test.cpp) and the random mixes (random_mix_test.cpp).
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>

namespace wormcast::verif {

// WORMCAST_REGRESS_SCALE (1..1000, default 1 = the `make test` length) multiplies every random run
// count, concurrent round count and mix cycle budget, and WORMCAST_REGRESS_SEED (default 0) is
// added to every seed. Fixed and bounded, so a failure reproduces with the same two numbers.
struct Regress {
  int scale = 1;
  std::uint64_t seed = 0;
};

// The environment variable `name` as an integer in low..high (`fallback` when unset or empty); any
// other value ends the process with a message naming it and the range (test Regress.BadScaleIsNamed).
inline long env_number(const char* name, long low, long high, long fallback) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return fallback;
  char* end = nullptr;
  const long value = std::strtol(text, &end, 10);
  if (*end != '\0' || value < low || value > high) {
    std::fprintf(stderr, "%s='%s' is not an integer in %ld..%ld\n", name, text, low, high);
    std::exit(2);
  }
  return value;
}

inline const Regress& regress() {
  static const Regress r{static_cast<int>(env_number("WORMCAST_REGRESS_SCALE", 1, 1000, 1)),
                         static_cast<std::uint64_t>(env_number("WORMCAST_REGRESS_SEED", 0, 1L << 30, 0))};
  return r;
}

// A generator for one test: its own fixed seed plus the regression's offset.
inline std::mt19937_64 seeded(std::uint64_t seed) { return std::mt19937_64(seed + regress().seed); }

}  // namespace wormcast::verif
