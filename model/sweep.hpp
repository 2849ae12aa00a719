// SPDX-License-Identifier: Apache-2.0
// The experiment driver: many random requests per destination count K, every algorithm planned on
// exactly the same samples (as the thesis does, [5], Section 4.2.1), aggregated per (algorithm, K).
//
// Deterministic for a seed on every platform: the generator is std::mt19937_64, whose output the
// standard fixes, and the sampling on top of it is our own (uniform_below, Fisher-Yates), because
// the std distributions may differ between standard libraries.
#pragma once

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "model/mean_estimate.hpp"
#include "model/plan.hpp"

namespace wormcast::model {

enum class SourcePolicy { kOrigin, kRandom, kFixed };

struct SourceChoice {
  SourcePolicy policy = SourcePolicy::kOrigin;
  NodeId node = kNoNode;  // kFixed only
  static SourceChoice origin() { return {SourcePolicy::kOrigin, kNoNode}; }
  static SourceChoice random() { return {SourcePolicy::kRandom, kNoNode}; }
  static SourceChoice fixed(NodeId node) { return {SourcePolicy::kFixed, node}; }
  bool operator==(const SourceChoice&) const = default;
};

struct SweepConfig {
  Topology topology = Topology::mesh({8, 8});
  std::vector<std::string> algorithms;
  std::vector<int> destination_counts;  // the K values, each in 1 .. N-1
  int runs = 100;                       // samples per K
  std::uint64_t seed = 1;
  SourceChoice source;
  int length_flits = 20;
  PortModel ports = PortModel::one_port();
  LatencyParameters latency;
  // Worker threads that plan the K values in parallel; 0: one per hardware thread. The result does
  // not depend on it: each K's samples come from their own generator and rows keep config order.
  int threads = 1;
  bool operator==(const SweepConfig&) const = default;
};

// One random request: its source and its K destinations (distinct, not the source).
struct Sample {
  NodeId source = kNoNode;
  std::vector<NodeId> destinations;
  bool operator==(const Sample&) const = default;
};

// The aggregate of one algorithm over the `runs` samples of one K: each mean with the spread of
// its samples (standard deviation, 95 % confidence interval; empty for runs = 1).
struct SweepRow {
  std::string algorithm;
  int destinations = 0;  // K
  int runs = 0;
  double mean_steps = 0.0;
  int max_steps = 0;
  double mean_traffic = 0.0;
  double mean_additional_traffic = 0.0;
  double mean_latency = 0.0;
  double max_latency = 0.0;
  Spread steps_spread{};
  Spread traffic_spread{};
  Spread additional_traffic_spread{};
  Spread latency_spread{};
  bool operator==(const SweepRow&) const = default;
};

struct SweepResult {
  SweepConfig config;
  std::vector<SweepRow> rows;  // for each K in config order, each algorithm in config order
  bool operator==(const SweepResult&) const = default;
};

// A uniform integer in [0, bound) for bound >= 1, by rejection (no modulo bias), from one or more
// draws of `engine`.
std::uint64_t uniform_below(std::mt19937_64& engine, std::uint64_t bound);

// The samples of one K: a generator seeded from (seed, K) alone, so a K's samples do not depend on
// the other K values of the sweep. Per run: the source (kRandom: uniform over all nodes), then K
// destinations uniform without replacement among the other nodes (a partial Fisher-Yates shuffle
// of the other nodes in id order), in the order drawn. Throws RequestError for K outside 1..N-1,
// runs < 1, and NodeError for a fixed source outside the network.
std::vector<Sample> draw_samples(const Topology& topology, const SourceChoice& source, int k, int runs,
                                 std::uint64_t seed);

// Throws what run_sweep() throws before its first plan (the configuration's errors): a sharded
// sweep checks the whole sweep in every shard, also one with no K of its own.
void check_sweep(const SweepConfig& config);

// Plans every algorithm on every sample (through plan()) and aggregates, the K values spread over
// config.threads threads. Throws SpecError for an unknown algorithm or an empty algorithm/K list,
// RequestError for a broadcast algorithm with a K other than N-1 or threads < 0, and what
// draw_samples() and the planners throw (a planner's error for the first K, in config order, that
// has one); everything but the planners' errors is checked before the first plan. `count_done`,
// when given, is called once per K as its rows are done (from the worker threads, so it must be
// safe to call concurrently): a long sweep's progress.
SweepResult run_sweep(const SweepConfig& config, const std::function<void()>& count_done = {});

}  // namespace wormcast::model
