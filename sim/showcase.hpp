// SPDX-License-Identifier: Apache-2.0
// `wormcast showcase`, the demo of `make run`: every algorithm the RTL runs, on each demo network,
// on a few random multicasts and a broadcast, each run by the node firmware on the verilated
// routers and checked against the model's plan, then per network a random mix of its algorithms
// run at once (sim/random_mix.hpp), every request checked (docs/firmware.md, "make run: the
// showcase"). The result is a table (text, markdown, CSV), one SVG drawing per single run and one
// request file per mix.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "sim/multicast_run.hpp"

namespace wormcast::sim {

// One demo network: a row of the showcase.
struct ShowcaseNetwork {
  std::string topology;    // spec, e.g. mesh:8x8
  int multicast_size = 8;  // K of its random multicasts
};

// The networks `make run` shows. Adding a topology is adding a row here.
const std::vector<ShowcaseNetwork>& showcase_networks();

struct ShowcaseConfig {
  std::vector<ShowcaseNetwork> networks = showcase_networks();
  // Algorithms to run, in the planner registry's order; empty: every algorithm the RTL runs.
  std::vector<std::string> algorithms;
  int multicasts = 3;  // random multicasts per multicast algorithm, each network; plus one broadcast
  // The mixed row of each network: a random mix of this size (MixOptions::size) of the algorithms
  // run (those of `algorithms` the network runs), narrowed to the ones the design's VC-class plan
  // proves deadlock-free together there (sim::acyclic_mix_algorithms); 0: no mixed rows.
  int mix_size = 1;
  std::uint64_t seed = 1;
  int length = 20;  // message length in flits
  RunOptions rtl;
  std::string out_dir;  // the drawings go here ("": none)
};

// One run: a request of one algorithm on one network, what the RTL did and the check; or a mixed
// run of many requests at once (algorithm "mixed").
struct ShowcaseRow {
  std::string topology;
  std::string algorithm;              // "mixed" for a mix
  std::string ports;                  // the port model, e.g. all-port ("mixed": each algorithm its own)
  std::string request;                // "multicast K=8", "broadcast" or, for a mix, "46 requests"
  std::string source;                 // a mix: its distinct sources, "30 sources"
  int destinations = 0;               // a mix: summed over its requests
  int steps = 0, plan_steps = 0;      // a mix: the largest of its requests'
  int traffic = 0, plan_traffic = 0;  // a mix: summed
  long latency = 0;                   // the last destination's delivery cycle on the RTL
  double model_latency = 0;           // the analytic estimate of it (model::LatencyParameters::rtl); -1 for a
                                      // mix, whose requests' start cycles and contention it does not model
  std::string check;                  // "" for pass, else the scoreboard's difference
  std::string drawing;                // file name of the SVG in out_dir ("" when none was written)
  std::string request_file;           // a mix: its request file in out_dir (`wormcast run --requests` reruns it)
  std::string rerun;                  // a mix: the command that reruns it
};

struct ShowcaseResult {
  std::vector<ShowcaseRow> rows;
  // Algorithms a network cannot run, with why: "<topology> <algorithm>: <reason>".
  std::vector<std::string> skipped;
  bool passed() const;
};

// Runs the showcase. `on_row` sees each row as soon as its run is checked (for progress output).
// Throws model::RequestError for a bad configuration (naming the value) and when out_dir cannot be
// created or written.
ShowcaseResult run_showcase(const ShowcaseConfig& config, const std::function<void(const ShowcaseRow&)>& on_row);

// The table as aligned text (header_line + row_line), markdown and CSV (with a header line).
std::string showcase_header_line();
std::string showcase_row_line(const ShowcaseRow& row);
std::string showcase_markdown(const ShowcaseResult& result, const ShowcaseConfig& config);
std::string showcase_csv(const ShowcaseResult& result);

}  // namespace wormcast::sim
