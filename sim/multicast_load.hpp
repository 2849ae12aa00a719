// SPDX-License-Identifier: Apache-2.0
// `wormcast sweep --backend rtl|model --algorithms A --rates ...`: multicasts under load, the
// dynamic experiment (docs/results-rtl.md, "Multicasts under load"). For every point (K, rate)
// every node's application starts multicasts of one algorithm to K random destinations as a
// Poisson process of `rate` multicasts per node per cycle, optionally beside background unicasts
// at `unicast_load` flits per node per cycle, during warm-up + measurement cycles; all of them run
// concurrently through the node firmware on the routers (run_multicasts with a start cycle each)
// until the network drains. A multicast's latency is its last delivery cycle minus its start
// cycle; the multicasts started in the measurement window are measured.
//
// Every run is checked: the scoreboard against the plans (every message's, the unicasts'
// included), and on the RTL backend every destination of every message delivered in the same
// cycle by the RTL and the timing model. A run that fails either check stops the sweep with
// MulticastLoadError (exit 1). A saturated point (the rule at LoadSweepRow::saturated) is
// reported, not a failure.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "model/mean_estimate.hpp"
#include "model/plan.hpp"
#include "sim/backend.hpp"
#include "sim/multicast_run.hpp"
#include "sim/progress.hpp"
#include "sim/shard.hpp"

namespace wormcast::sim {

// The largest generation rate, in multicasts per node per cycle.
inline constexpr double kMaxGenerationRate = 1.0;
// The largest background unicast load, in flits per node per cycle.
inline constexpr double kMaxUnicastLoad = 1.0;
// The longest warm-up, measurement window or drain limit, in cycles.
inline constexpr long kMaxLoadPhaseCycles = 10'000'000;
// Most messages (multicasts and unicasts) one run takes: the firmware's multicast number is 16 bits.
inline constexpr std::size_t kMaxLoadMessages = 0xFFFF;

struct LoadSweepConfig {
  model::Topology topology = model::Topology::mesh({4, 4});
  std::vector<std::string> algorithms;  // every one on the same arrivals and destinations
  std::vector<int> destination_counts;  // K values
  std::vector<double> rates;            // multicasts per node per cycle, each in (0, kMaxGenerationRate]
  int length = 20;                      // L: data words of every message
  // Background unicasts (the `unicast` algorithm, one destination each, uniform over the other
  // nodes) in flits per node per cycle, counting every flit of the worm the firmware sends (its
  // head, control words and the L data words: model/wire_length.hpp); 0: none.
  double unicast_load = 0.0;
  long warmup = 5000;        // cycles whose multicasts are not measured
  long measure = 20000;      // cycles whose multicasts are measured; no message starts after them
  long drain_limit = 50000;  // cycles after the measurement window before a run that has not drained stops
  std::uint64_t seed = 1;
  model::PortModel ports;  // of the multicasts (the unicasts run one-port)
  // kRtl: every point on the RTL and on the timing model, which must agree to the cycle; kModel:
  // on the timing model alone.
  Backend backend = Backend::kRtl;
  // alpha, gamma; backend, max_cycles and trace are set per run.
  RunOptions harness;
};

// One row: one algorithm at one point (K, rate).
struct LoadSweepRow {
  std::string algorithm;
  int k = 0;
  double rate = 0;  // multicasts per node per cycle
  // The generation ratio: rate x K x (alpha + gamma), the start-up work the multicasts bring to a
  // node per cycle when every destination costs one send start-up and one receive (as in every
  // unicast-based algorithm); 1 would keep a one-port node's processor busy all the time.
  double ratio = 0;
  long multicasts = 0;  // started, all phases
  long unicasts = 0;    // background unicasts started, all phases
  long measured = 0;    // multicasts started in the measurement window
  long unfinished = 0;  // of those, not delivered in whole when the run stopped (a saturated point)
  // Over the measured multicasts delivered in whole (none: `finished` false and these 0): mean,
  // its standard deviation and 95 % confidence interval, the 95th percentile (nearest rank) and the
  // maximum of the latency, in cycles.
  bool finished = false;
  double mean_latency = 0;
  model::Spread spread{};
  long p95_latency = 0;
  long max_latency = 0;
  // The zero-load value for the same requests: the mean over the measured multicasts of the plan's
  // analytic latency under LatencyParameters::rtl(alpha, gamma), which a multicast run alone
  // measures exactly (docs/results-rtl.md): the curve's asymptote at low rates.
  double mean_analytic = 0;
  // Deliveries in the measurement window over the deliveries the messages started in it owe (every
  // message, unicasts included; 1 for none owed).
  double delivered_fraction = 1;
  // Saturated: the run did not drain within drain_limit cycles after the measurement window
  // ("drain"), or the deliveries in the window fell below 90 % of those owed ("throughput"), the
  // traffic sweep's rule (sim/traffic.hpp).
  bool saturated = false;
  std::string saturation;  // "", "drain" or "throughput"
  long cycles = 0;         // the run's length
};

// A run that did not match its plans, or a destination the RTL and the timing model delivered in
// different cycles: a failed check (exit 1), naming the point and the message.
class MulticastLoadError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Rates from "0.0001,0.0002" (a list) or "0.0001:0.0005:0.0001" (start:stop:step, stop
// included). Throws model::SpecError naming the bad text and the valid range.
std::vector<double> parse_rates(const std::vector<std::string>& texts);

// The sweep's points, K-major: (K1, rate1), (K1, rate2), ...: the CSV's row order and the shards'
// numbering.
struct LoadSweepPoint {
  int k = 0;
  double rate = 0;
};
std::vector<LoadSweepPoint> load_sweep_points(const LoadSweepConfig& config);

// One run's messages: the multicasts of `algorithm` and the background unicasts, in start order
// (ties: node order, a node's multicast before its unicast), with their start cycles.
// is_multicast[i] tells which.
struct LoadArrivals {
  std::vector<model::Request> requests;
  std::vector<long> start_cycles;
  std::vector<bool> is_multicast;
};

// The arrivals of one point for one algorithm. Node n's multicasts come from a generator seeded
// from (seed, n): unit-rate exponential gaps scaled by 1 / rate (so a higher rate starts the same
// sequence sooner, and more of it), each start the floor of its arrival time, in
// [0, warmup + measure); the i-th multicast of node n goes to the i-th sample of
// model::draw_samples for the fixed source n, the same at every rate and for every algorithm. The
// unicasts likewise from their own generator per node.
LoadArrivals load_arrivals(const LoadSweepConfig& config, const std::string& algorithm, const LoadSweepPoint& point);

// The flits of one background unicast on the wire (model/wire_length.hpp).
int unicast_flits(const LoadSweepConfig& config);

// Checks the configuration before anything runs; throws model::SpecError naming the bad value and
// what is valid (no algorithm, K or rate, a rate or load outside its range, phases out of range, an
// algorithm the firmware does not run, more than kMaxLoadMessages messages in a run), or what the
// planner throws for a request of the sweep.
void check_load_sweep(const LoadSweepConfig& config);

// Runs the points of `shard`, in order, telling `progress` (when given) after each; one row per
// (point, algorithm), algorithms in config order. Throws MulticastLoadError for a failed check.
std::vector<LoadSweepRow> run_load_sweep(const LoadSweepConfig& config, const Shard& shard = {},
                                         Progress* progress = nullptr);

// The sweep's identity: the canonical text of every field that decides its rows (sim/shard.hpp).
std::string describe(const LoadSweepConfig& config);

// The CSV header and one row, each ending in a newline; a row holds what the sweep decides and
// nothing else (no wall time).
std::string load_csv_header();
std::string load_csv_row(const LoadSweepConfig& config, const LoadSweepRow& row);

}  // namespace wormcast::sim
