// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: the request file of `wormcast run --requests FILE.json`
// (sim/commands/request_file.hpp), read on a 2D mesh, a 2D torus, a 3D mesh and a star graph.
// Input: the file's text. A bad file must throw CommandError naming the file, the entry and the
// field; anything else escaping, a sanitizer report or an accepted request outside the network or
// the bounds is a finding.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "firmware/fw_config.hpp"
#include "model/topology.hpp"
#include "sim/commands/command.hpp"
#include "sim/commands/request_file.hpp"

namespace {

using wormcast::model::Topology;
namespace commands = wormcast::sim::commands;

constexpr long kMaxStart = 1000;

// Deeper nesting overflows nlohmann::json's recursive reader: a known fault with its own fix and
// test (a request file is at most three levels deep: array, entry, dests).
constexpr int kMaxNesting = 64;

void require(bool property) {
  if (!property) std::abort();
}

bool nested_deeper_than(const std::uint8_t* data, std::size_t size, int limit) {
  int depth = 0;
  for (std::size_t i = 0; i < size; ++i) {
    if (data[i] == '[' || data[i] == '{') {
      if (++depth > limit) return true;
    } else if (data[i] == ']' || data[i] == '}') {
      --depth;
    }
  }
  return false;
}

// The file the reader reads: one per process, rewritten for every input.
const std::string& file_path() {
  static const std::string path = [] {
    char name[] = "/tmp/wormcast-fuzz-requests-XXXXXX";
    const int fd = mkstemp(name);
    require(fd >= 0);
    close(fd);
    return std::string(name);
  }();
  return path;
}

void write_input(const std::uint8_t* data, std::size_t size) {
  std::FILE* file = std::fopen(file_path().c_str(), "wb");
  require(file != nullptr);
  require(std::fwrite(data, 1, size, file) == size);
  require(std::fclose(file) == 0);
}

void read_on(const Topology& t) {
  const commands::RequestOptions defaults;
  std::vector<commands::FileRequest> requests;
  try {
    requests = commands::read_request_file(file_path(), t, defaults, 1, kMaxStart);
  } catch (const commands::CommandError&) {
    return;
  }
  require(!requests.empty());
  for (const commands::FileRequest& r : requests) {
    require(r.start_cycle >= 0 && r.start_cycle <= kMaxStart);
    require(r.request.length_flits >= 1 &&
            static_cast<std::size_t>(r.request.length_flits) <= wormcast::fw::kMaxDataWords);
    require(r.request.source >= 0 && r.request.source < t.node_count());
    for (const auto d : r.request.destinations) require(d >= 0 && d < t.node_count() && d != r.request.source);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (nested_deeper_than(data, size, kMaxNesting)) return 0;
  write_input(data, size);
  static const std::vector<Topology> topologies = {Topology::parse("mesh:4x4"), Topology::parse("torus:4x4"),
                                                   Topology::parse("mesh:3x3x3"), Topology::parse("star:4")};
  for (const Topology& t : topologies) read_on(t);
  return 0;
}
