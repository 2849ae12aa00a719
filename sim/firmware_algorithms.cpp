// SPDX-License-Identifier: Apache-2.0
#include "sim/firmware_algorithms.hpp"

#include <fmt/format.h>

#include "firmware/algorithm_table.hpp"

namespace wormcast::sim {

bool firmware_supports(const std::string& algorithm) { return fw::find_algorithm(algorithm.c_str()) != nullptr; }

std::string no_firmware_message(const std::string& algorithm) {
  return fmt::format("algorithm '{}' has no node firmware; the firmware runs: {}", algorithm,
                     firmware_algorithm_names());
}

std::string firmware_algorithm_names() {
  std::string names;
  for (const fw::AlgorithmRow& row : fw::algorithm_rows()) names += (names.empty() ? "" : ", ") + std::string(row.name);
  return names;
}

}  // namespace wormcast::sim
