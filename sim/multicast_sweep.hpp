// SPDX-License-Identifier: Apache-2.0
// `wormcast sweep --backend rtl|model --algorithms ...`: the multicast-latency sweep
// (docs/results-rtl.md). For every point (K, L) it draws
// `runs` random requests (the planning sweep's sampler: the requests of one K depend on (seed, K)
// alone, the same at every L), runs each algorithm's multicast alone through the node firmware on
// the verilated routers and on the timing model, and reports per algorithm the measured latency
// (the last delivery) on both beside the analytic estimate (the plan's latency under
// model::LatencyParameters::rtl) and the plan's own figures (steps, longest path, traffic).
//
// Every run is checked: the scoreboard against the plan on each backend, and every destination
// delivered in the same cycle by the RTL and the timing model. A run that fails either check stops
// the sweep with MulticastSweepError naming the request and the command that reruns it; it is
// never averaged in.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "model/plan.hpp"
#include "model/sweep.hpp"
#include "sim/backend.hpp"
#include "sim/multicast_run.hpp"
#include "sim/progress.hpp"
#include "sim/shard.hpp"

namespace wormcast::sim {

struct MulticastSweepConfig {
  model::Topology topology = model::Topology::mesh({4, 4});
  std::vector<std::string> algorithms;  // every one on the same samples
  std::vector<int> destination_counts;  // K values
  std::vector<int> lengths;             // L values (data words)
  int runs = 10;                        // random requests per K
  std::uint64_t seed = 1;
  model::SourceChoice source = model::SourceChoice::random();
  model::PortModel ports;
  // kRtl: every request on the RTL and on the timing model, which must agree to the cycle; kModel:
  // on the timing model alone (the RTL's columns stay empty), for networks the RTL runs too slowly.
  Backend backend = Backend::kRtl;
  // The harness: alpha, gamma (the processor's start-ups) and the test-only fault injections.
  // backend and trace are set per run.
  RunOptions harness;
};

// One row: one algorithm at one point, over the point's `runs` requests.
struct MulticastSweepRow {
  std::string algorithm;
  int k = 0;
  int length = 0;
  int runs = 0;
  double mean_rtl = 0;  // the multicast latency (last delivery cycle; every source starts at 0)
  long max_rtl = 0;
  double mean_model = 0;
  long max_model = 0;
  double mean_analytic = 0;  // the plan's latency under LatencyParameters::rtl(alpha, gamma)
  double max_analytic = 0;
  double mean_steps = 0;     // the plan's message-passing steps
  double mean_max_hops = 0;  // the plan's longest source-to-destination path over its worms, in hops
  double mean_traffic = 0;   // the plan's channel traversals
  // Each mean's standard deviation and 95 % confidence interval over the runs (empty for one run;
  // the RTL's also on the model backend).
  model::Spread rtl_spread{};
  model::Spread model_spread{};
  model::Spread analytic_spread{};
  model::Spread steps_spread{};
  model::Spread max_hops_spread{};
  model::Spread traffic_spread{};
};

// A run that did not match its plan, or a destination the RTL and the timing model delivered in
// different cycles: a failed check (exit 1), naming the request and the rerun command.
class MulticastSweepError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The sweep's points, K-major: (K1, L1), (K1, L2), ..., the order of the CSV's rows and the
// numbering of its shards.
struct MulticastSweepPoint {
  int k = 0;
  int length = 0;
};
std::vector<MulticastSweepPoint> multicast_sweep_points(const MulticastSweepConfig& config);

// Checks the configuration before anything runs and throws model::SpecError naming the bad value
// and what is valid (no algorithm, K or L, runs < 1, an algorithm the firmware does not run), or
// what the planner throws for a request of the sweep (a broadcast algorithm with K < N - 1, a
// port model it does not take). Every point's first request is planned, so a bad K late in the
// list fails before the first run.
void check_multicast_sweep(const MulticastSweepConfig& config);

// Runs the points of `shard`, in order, telling `progress` (when given) after each; one row per
// (point, algorithm), algorithms in config order. Throws MulticastSweepError for a failed check
// and what run_multicasts throws for a request the firmware or routers cannot run.
std::vector<MulticastSweepRow> run_multicast_sweep(const MulticastSweepConfig& config, const Shard& shard = {},
                                                   Progress* progress = nullptr);

// The sweep's identity: the canonical text of every field that decides its rows (sim/shard.hpp).
std::string describe(const MulticastSweepConfig& config);

// The CSV header and one row per result, both ending in a newline. A row holds what the sweep
// decides and nothing else (no wall time), so the same sweep writes the same bytes, sharded or not.
// The RTL's columns are empty on the model backend. After the means and maxima, each mean's standard
// deviation (sd_) and 95 % confidence interval half-width (ci95_): rtl, model, analytic, steps,
// max_hops, traffic.
std::string multicast_csv_header();
std::string multicast_csv_row(const MulticastSweepConfig& config, const MulticastSweepRow& row);

}  // namespace wormcast::sim
