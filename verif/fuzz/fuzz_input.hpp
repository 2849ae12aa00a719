// SPDX-License-Identifier: Apache-2.0
// What the fuzz targets share: the input as lines, and the topologies too large to fuzz quickly.
#pragma once

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/errors.hpp"
#include "model/topology.hpp"

namespace wormcast::fuzz {

// The input split at '\n' (a final newline ends the last line, it does not start an empty one).
inline std::vector<std::string> lines_of(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> lines;
  std::string line;
  for (std::size_t i = 0; i < size; ++i) {
    if (data[i] == '\n') {
      lines.push_back(line);
      line.clear();
    } else {
      line.push_back(static_cast<char>(data[i]));
    }
  }
  if (!line.empty()) lines.push_back(line);
  return lines;
}

// The node count of the topology `text` names from position `start` on, or 0 when it names none.
inline int node_count_from(std::string_view text, std::size_t start) {
  try {
    return model::Topology::parse(text.substr(start)).node_count();
  } catch (const model::ModelError&) {
    return 0;
  }
}

// The largest network any argument names (`-t mesh:8x8`, `--topology=torus:4x4`, `-tstar:5`): the
// topology spec may start at any word inside the argument.
inline int largest_network_named(const std::vector<std::string>& arguments) {
  int largest = 0;
  for (const std::string& argument : arguments) {
    for (std::size_t i = 0; i < argument.size(); ++i) {
      const bool word_start = std::isalpha(static_cast<unsigned char>(argument[i])) &&
                              (i == 0 || !std::isalpha(static_cast<unsigned char>(argument[i - 1])));
      if (word_start) largest = std::max(largest, node_count_from(argument, i));
    }
  }
  return largest;
}

}  // namespace wormcast::fuzz
