// SPDX-License-Identifier: Apache-2.0
// `wormcast sweep --backend rtl|model`: synthetic traffic (sim/traffic.hpp) over a list of offered
// loads and multicast destination counts, one CSV row per point, and the latency plots drawn from
// the CSV by scripts/plot_traffic.py (docs/timing.md, "Benchmarks").
#pragma once

#include <string>
#include <vector>

#include "sim/backend.hpp"
#include "sim/progress.hpp"
#include "sim/shard.hpp"
#include "sim/traffic.hpp"

namespace wormcast::sim {

struct TrafficSweepConfig {
  Backend backend = Backend::kRtl;
  TrafficConfig base;                   // everything but load and K
  std::vector<double> loads;            // at least one
  std::vector<int> destination_counts;  // K values; one entry (base.destinations) when empty
};

// Loads from "0.05,0.1,0.2" (a list) or "0.05:0.3:0.05" (start:stop:step, stop included); throws
// model::SpecError naming the bad text.
std::vector<double> parse_loads(const std::vector<std::string>& texts);

// The CSV header, and one row per result. Both end in a newline. A row holds what the point's
// configuration decides and nothing else (no wall time: the stdout line per point has it), so the
// same sweep writes the same file, sharded or not (sim/shard.hpp).
std::string traffic_csv_header();
std::string traffic_csv_row(const TrafficResult& result);

// The sweep's points, K-major ((K1, load1), (K1, load2), ...): the order of the CSV's rows and the
// numbering of its shards. Throws what validate() throws for the first bad point: a bad value late
// in a list fails before anything runs.
std::vector<TrafficConfig> traffic_sweep_points(const TrafficSweepConfig& config);

// Runs the points of `shard` (all of them by default) on one backend, in order, printing a line
// per point to stdout as it finishes and telling `progress` (when given). Every point uses the
// sweep's seed, whichever shard runs it. A point the watchdog stops becomes an error
// (TrafficError).
std::vector<TrafficResult> run_traffic_sweep(const TrafficSweepConfig& config, const Shard& shard = {},
                                             Progress* progress = nullptr);

}  // namespace wormcast::sim
