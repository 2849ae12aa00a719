// SPDX-License-Identifier: Apache-2.0
#include "model/sweep.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <limits>
#include <thread>
#include <tuple>
#include <utility>

#include "model/errors.hpp"
#include "model/planner.hpp"

namespace wormcast::model {
namespace {

// SplitMix64's finaliser: spreads (seed, K) over the generator's seed space.
std::uint64_t mix(std::uint64_t value) {
  value += 0x9e3779b97f4a7c15ULL;
  value = (value ^ (value >> 30)) * 0xbf58476d1ce4e5b9ULL;
  value = (value ^ (value >> 27)) * 0x94d049bb133111ebULL;
  return value ^ (value >> 31);
}

std::tuple<double, Spread> split(const MeanEstimate& e) { return {e.mean, e.spread}; }

NodeId choose_source(const Topology& topology, const SourceChoice& source, std::mt19937_64& engine) {
  switch (source.policy) {
    case SourcePolicy::kOrigin:
      return 0;  // (0,0) / (0,0,0) on meshes and tori; the identity permutation on star graphs
    case SourcePolicy::kRandom:
      return static_cast<NodeId>(uniform_below(engine, static_cast<std::uint64_t>(topology.node_count())));
    case SourcePolicy::kFixed:
      return source.node;
  }
  return 0;
}

// The rows of one K: every algorithm on the same samples.
std::vector<SweepRow> sweep_one_count(const SweepConfig& config, int k) {
  const Topology& t = config.topology;
  const std::vector<Sample> samples = draw_samples(t, config.source, k, config.runs, config.seed);
  std::vector<SweepRow> rows;
  for (const std::string& name : config.algorithms) {
    SweepRow row{name, k, config.runs};
    std::vector<double> steps, traffic, additional_traffic, latency;
    for (const Sample& sample : samples) {
      const Plan p =
          plan(Request{t, name, sample.source, sample.destinations, config.length_flits, config.ports, config.latency});
      steps.push_back(p.metrics.steps);
      row.max_steps = std::max(row.max_steps, p.metrics.steps);
      traffic.push_back(p.metrics.traffic);
      additional_traffic.push_back(p.metrics.additional_traffic);
      latency.push_back(p.metrics.latency);
      row.max_latency = std::max(row.max_latency, p.metrics.latency);
    }
    std::tie(row.mean_steps, row.steps_spread) = split(estimate_mean(steps));
    std::tie(row.mean_traffic, row.traffic_spread) = split(estimate_mean(traffic));
    std::tie(row.mean_additional_traffic, row.additional_traffic_spread) = split(estimate_mean(additional_traffic));
    std::tie(row.mean_latency, row.latency_spread) = split(estimate_mean(latency));
    rows.push_back(std::move(row));
  }
  return rows;
}

void check_counts(const Topology& topology, int k, int runs) {
  if (k < 1 || k > topology.node_count() - 1) {
    throw RequestError(fmt::format("K = {} destinations is impossible on {}; K must be in 1..{}", k, topology.spec(),
                                   topology.node_count() - 1));
  }
  if (runs < 1) throw RequestError(fmt::format("{} runs per K is too few; give at least 1", runs));
}

}  // namespace

std::uint64_t uniform_below(std::mt19937_64& engine, std::uint64_t bound) {
  // Accept draws below the largest multiple of `bound`, so every residue is equally likely.
  const std::uint64_t limit =
      std::numeric_limits<std::uint64_t>::max() - std::numeric_limits<std::uint64_t>::max() % bound;
  std::uint64_t draw = engine();
  while (draw >= limit) draw = engine();
  return draw % bound;
}

std::vector<Sample> draw_samples(const Topology& topology, const SourceChoice& source, int k, int runs,
                                 std::uint64_t seed) {
  check_counts(topology, k, runs);
  if (source.policy == SourcePolicy::kFixed) topology.check_node(source.node);
  std::mt19937_64 engine(mix(seed ^ mix(static_cast<std::uint64_t>(k))));
  std::vector<Sample> samples;
  samples.reserve(static_cast<std::size_t>(runs));
  for (int run = 0; run < runs; ++run) {
    Sample sample;
    sample.source = choose_source(topology, source, engine);
    std::vector<NodeId> others;
    others.reserve(static_cast<std::size_t>(topology.node_count() - 1));
    for (NodeId node = 0; node < topology.node_count(); ++node) {
      if (node != sample.source) others.push_back(node);
    }
    for (std::size_t i = 0; i < static_cast<std::size_t>(k); ++i) {
      const std::size_t j = i + static_cast<std::size_t>(uniform_below(engine, others.size() - i));
      std::swap(others[i], others[j]);
    }
    others.resize(static_cast<std::size_t>(k));
    sample.destinations = std::move(others);
    samples.push_back(std::move(sample));
  }
  return samples;
}

void check_sweep(const SweepConfig& config) {
  const Topology& t = config.topology;
  if (config.algorithms.empty()) {
    throw SpecError(
        fmt::format("the sweep has no algorithm; give one or more of: {}", fmt::join(algorithm_names(), ", ")));
  }
  if (config.destination_counts.empty()) {
    throw SpecError(fmt::format("the sweep has no destination count; give K values in 1..{}", t.node_count() - 1));
  }
  for (const std::string& name : config.algorithms) {
    const AlgorithmInfo& info = algorithm_info(name);
    for (int k : config.destination_counts) {
      if (info.broadcast && k != t.node_count() - 1) {
        throw RequestError(fmt::format("{} is a broadcast: it runs only with K = N-1 = {} on {}, not K = {}", name,
                                       t.node_count() - 1, t.spec(), k));
      }
    }
  }
  for (int k : config.destination_counts) check_counts(t, k, config.runs);
  if (config.source.policy == SourcePolicy::kFixed) t.check_node(config.source.node);

  if (config.threads < 0) {
    throw RequestError(
        fmt::format("{} threads is impossible; give 1 or more, or 0 for one per hardware thread", config.threads));
  }
}

SweepResult run_sweep(const SweepConfig& config, const std::function<void()>& count_done) {
  check_sweep(config);

  // Each worker takes the next K not yet taken and fills its slot, so the rows come out in config
  // order however the work interleaves. A planner's error is kept with its K and the first one (in
  // config order) is rethrown: the error a single thread would have met first.
  const std::vector<int>& counts = config.destination_counts;
  std::vector<std::vector<SweepRow>> rows_of(counts.size());
  std::vector<std::exception_ptr> error_of(counts.size());
  std::atomic<std::size_t> next{0};
  const auto work = [&] {
    for (std::size_t i = next++; i < counts.size(); i = next++) {
      try {
        rows_of[i] = sweep_one_count(config, counts[i]);
        if (count_done) count_done();
      } catch (...) {
        error_of[i] = std::current_exception();
      }
    }
  };
  const std::size_t wanted =
      config.threads > 0 ? static_cast<std::size_t>(config.threads) : std::max(1U, std::thread::hardware_concurrency());
  {
    std::vector<std::jthread> helpers;
    for (std::size_t i = 1; i < std::min(wanted, counts.size()); ++i) helpers.emplace_back(work);
    work();
  }  // the helpers join here
  for (const std::exception_ptr& error : error_of) {
    if (error) std::rethrow_exception(error);
  }
  SweepResult result{config, {}};
  for (std::vector<SweepRow>& rows : rows_of) {
    for (SweepRow& row : rows) result.rows.push_back(std::move(row));
  }
  return result;
}

}  // namespace wormcast::model
