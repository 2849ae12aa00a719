// SPDX-License-Identifier: Apache-2.0
// Planning speed: plans per second of every registered algorithm, and the time of the thesis's
// chapter-4 sweep (`make bench`; docs/algorithms.md, "Speed").
//
// Each algorithm plans requests of 100 random destinations (broadcasts: every node but the source)
// on a 20x20 mesh, from a random source, with the first port model of one-port, two-port, all-port
// it accepts. An algorithm that does not run there takes the first network of kNetworks it accepts
// (uniform and fixed: torus:20x20; edn: mesh:16x16; 3dbl and 3dbs: mesh:8x8x8), and one that
// needs a particular source (xy-path: a corner) the origin. The benchmark's name says which. The
// requests are drawn once, with a fixed seed, so that every run plans the same ones.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "model/errors.hpp"
#include "model/planner.hpp"
#include "model/sweep.hpp"

namespace wormcast::model {
namespace {

constexpr int kDestinations = 100;
constexpr int kLengthFlits = 20;
constexpr int kSamples = 64;  // distinct requests per algorithm, planned in turn
constexpr std::uint64_t kSeed = 4;
const char* const kNetworks[] = {"mesh:20x20", "torus:20x20", "mesh:16x16", "mesh:8x8x8"};

struct Setup {
  Topology topology;
  PortModel ports;
  std::vector<Sample> samples;
  std::string label;
};

Request request_of(const std::string& algorithm, const Setup& setup, const Sample& sample) {
  return Request{setup.topology, algorithm, sample.source, sample.destinations, kLengthFlits, setup.ports, {}};
}

// The first network, port model and source policy under which `algorithm` plans every sample.
std::optional<Setup> find_setup(const std::string& algorithm) {
  const bool broadcast = algorithm_info(algorithm).broadcast;
  for (const char* network : kNetworks) {
    const Topology t = Topology::parse(network);
    const int k = broadcast ? t.node_count() - 1 : std::min(kDestinations, t.node_count() - 1);
    for (const PortModel ports : {PortModel::one_port(), PortModel::two_port(), PortModel::all_port()}) {
      for (const bool random_source : {true, false}) {
        const SourceChoice source = random_source ? SourceChoice::random() : SourceChoice::origin();
        Setup setup{t, ports, draw_samples(t, source, k, kSamples, kSeed), {}};
        try {
          for (const Sample& sample : setup.samples) plan(request_of(algorithm, setup, sample));
        } catch (const ModelError&) {
          continue;
        }
        setup.label = algorithm + "/" + network + "/" + ports.name() + "/K=" + std::to_string(k) +
                      (random_source ? "" : "/origin");
        return setup;
      }
    }
  }
  return std::nullopt;
}

void plan_requests(benchmark::State& state, const std::string& algorithm, const Setup& setup) {
  std::vector<Request> requests;
  for (const Sample& sample : setup.samples) requests.push_back(request_of(algorithm, setup, sample));
  std::size_t next = 0;
  for (auto _ : state) {
    Plan p = plan(requests[next]);
    benchmark::DoNotOptimize(p);
    next = (next + 1) % requests.size();
  }
  state.counters["plans/s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

// The thesis's chapter-4 experiment: VH, DIAG, DDS and MIN on a 20x20 mesh from the origin, K = 10,
// 20, ..., 380, 1000 runs each (the same as `wormcast sweep -t mesh:20x20 -a vh,diag,dds,min -k
// 10,20,...,380 -n 1000 -s origin --seed 4 -p one -j <threads>`), on state.range(0) threads.
void thesis_sweep(benchmark::State& state) {
  SweepConfig config;
  config.topology = Topology::mesh({20, 20});
  config.algorithms = {"vh", "diag", "dds", "min"};
  for (int k = 10; k <= 380; k += 10) config.destination_counts.push_back(k);
  config.runs = 1000;
  config.seed = kSeed;
  config.source = SourceChoice::origin();
  config.length_flits = kLengthFlits;
  config.ports = PortModel::one_port();
  config.threads = static_cast<int>(state.range(0));
  for (auto _ : state) {
    SweepResult result = run_sweep(config);
    benchmark::DoNotOptimize(result);
  }
  const double plans = static_cast<double>(config.algorithms.size() * config.destination_counts.size()) * config.runs;
  state.counters["plans/s"] =
      benchmark::Counter(plans * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

}  // namespace
}  // namespace wormcast::model

int main(int argc, char** argv) {
  using namespace wormcast::model;
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  for (const std::string& algorithm : algorithm_names()) {
    std::optional<Setup> setup = find_setup(algorithm);
    if (!setup) {
      std::fprintf(stderr, "plan_bench: %s plans on none of the benchmark networks; skipped\n", algorithm.c_str());
      continue;
    }
    benchmark::RegisterBenchmark(setup->label.c_str(), [algorithm, s = *setup](benchmark::State& state) {
      plan_requests(state, algorithm, s);
    })->Unit(benchmark::kMicrosecond);
  }
  auto* sweep = benchmark::RegisterBenchmark("thesis_sweep/mesh:20x20/vh,diag,dds,min/38x1000", thesis_sweep)
                    ->ArgName("threads")
                    ->Arg(1)
                    ->Unit(benchmark::kSecond)
                    ->Iterations(1)
                    ->UseRealTime();
  if (std::thread::hardware_concurrency() > 1) sweep->Arg(std::thread::hardware_concurrency());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
