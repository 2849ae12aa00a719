// SPDX-License-Identifier: Apache-2.0
// Seeded random mixes of concurrent requests (docs/run.md, "Random mixes"): several sources at
// once of every algorithm the firmware runs on a topology, single-destination unicasts in the
// background, every request at a random start cycle, the run under a random ejection stall. The
// same topology, seed and options give the same mix. The system tests (verif/system/
// random_mix_test.cpp), `make regress` and the showcase run them; a mix written as a request file
// (mix_request_file) reruns exactly with `wormcast run --requests` and the options mix_command
// names.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/plan.hpp"
#include "sim/multicast_run.hpp"

namespace wormcast::sim {

struct MixOptions {
  // Multicasts of each algorithm, each from its own random source: the mix's size.
  int size = 2;
  // The algorithms mixed; empty: every one the firmware runs on the topology (mix_algorithms).
  std::vector<std::string> algorithms;
  // Background unicasts: this many per node and per unit of size, each to one random node.
  double unicasts_per_node = 0.5;
  // Start cycles are drawn from 0..window-1; 0: window_cycles_per_request times the request count,
  // so the requests overlap without piling up at the nodes: a node's firmware serves kMaxJobs = 4
  // multicasts at a time, and a message or request that finds every job busy waits for one
  // (docs/firmware.md, "The job limit"; at 40 cycles per request mixes on mesh:8x8 and mesh:4x4x4
  // reach that limit).
  long window = 0;
  long window_cycles_per_request = 100;
  int max_length = 6;            // each message 1..max_length flits
  double max_eject_stall = 0.5;  // the run's stall probability: 0, 0.1, ... up to this
  int max_credit_delay = 4;      // the run's credit delay (RunOptions::credit_delay): 0..this
  long alpha = 20;               // the harness's start-up costs (RunOptions)
  long gamma = 10;
};

struct RandomMix {
  std::uint64_t seed = 0;
  // The multicasts (options.size per algorithm, in algorithm order), then the background unicasts.
  std::vector<model::Request> requests;
  std::vector<long> start_cycles;  // one per request
  // The run's options: alpha, gamma, the ejection stall, the credit delay and their seed (the
  // mix's seed).
  RunOptions options;
};

// Every algorithm the node firmware runs on `t`, in name order (the firmware's table, restated by
// model::firmware_algorithms and kept equal to it by verif/model/vc_class_plan_firmware_test.cpp).
std::vector<std::string> mix_algorithms(const model::Topology& t);

// The algorithms of mix_algorithms(t) whose worms, on the VCs of the named VC-class plan
// (model/vc_class_plan.hpp), have an acyclic channel dependency graph together: a greedy subset,
// checked by model::check_design_deadlock on the plan narrowed to the chosen algorithms (so a family
// is walked only as far as the chosen algorithms send it). Algorithms are tried by their count of
// routing families, then by name; each is kept when the union stays acyclic. On a plan the checker
// proves acyclic whole, it is mix_algorithms(t).
std::vector<std::string> acyclic_mix_algorithms(const model::Topology& t, const std::string& plan_name);

// The mix of `seed` on `t`. Throws model::RequestError naming a bad option (size < 1, a length,
// window, stall or credit delay out of range) and model::UnsupportedError naming an algorithm the firmware does
// not run on `t`, or one for which no random request could be planned.
RandomMix random_mix(const model::Topology& t, std::uint64_t seed, const MixOptions& options = {});

// The mix as a request file of `wormcast run --requests` (one entry per line, every field given).
std::string mix_request_file(const RandomMix& mix);

// The command that reruns the mix from its request file at `path` on `backend`.
std::string mix_command(const RandomMix& mix, const std::string& path, Backend backend);

}  // namespace wormcast::sim
