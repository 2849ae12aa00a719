// SPDX-License-Identifier: Apache-2.0
// The request file of `wormcast run --requests FILE.json` (docs/run.md, "Mixed runs"): a JSON
// array of objects, one multicast each, run concurrently on one topology.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/plan.hpp"
#include "sim/commands/common.hpp"

namespace wormcast::sim::commands {

// One entry of the file: its validated request and the cycle its source starts it.
struct FileRequest {
  model::Request request;
  long start_cycle = 0;
};

// The fields an entry may have, in the order the docs list them.
std::vector<std::string> request_file_fields();

// Reads `path` on topology `t`. Each entry is an object with exactly these fields:
//   algorithm    required, a registry name with node firmware
//   source       required, a node name ("3,2", star "1432")
//   dests        required, an array of node names, "all" (a broadcast) or "random:K" (K distinct
//                destinations drawn from seed + the entry's index, so entries differ)
//   ports        optional, "one", "two", "all" or a port count (string or number); default -p when
//                given, else the algorithm's (AlgorithmInfo::default_ports)
//   length       optional, flits, 1..the firmware's data words; default -L
//   start_cycle  optional, 0..max_start; default 0
// with `defaults` giving -L, -p and the latency parameters. Entries are numbered from 0, as the
// JSON array and the multicasts of the run. Throws CommandError naming the file and what was
// expected (unreadable, not JSON, not a non-empty array), or the file, the entry, the field and the
// bad value with what is valid: `requests.json entry 3 ("dests"): ...`.
std::vector<FileRequest> read_request_file(const std::string& path, const model::Topology& t,
                                           const RequestOptions& defaults, std::uint64_t seed, long max_start);

}  // namespace wormcast::sim::commands
