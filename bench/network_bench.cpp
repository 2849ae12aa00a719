// SPDX-License-Identifier: Apache-2.0
// Network simulation speed (`make bench`; docs/timing.md, "Benchmarks"): network cycles per second
// and memory per router of each router backend, under the synthetic traffic of sim/traffic.hpp.
//
// Workloads (the issue's): an 8x8 mesh of routers with 2 VCs x 4-flit buffers, 20-flit packets,
// uniform unicast traffic at 0.1 flits/node/cycle (dimension order); a multicast workload on the
// same mesh, a tenth of the packets dual-path multicasts to 8 destinations, at 0.05 (every packet
// then routes on the Hamiltonian path, which saturates near 0.1 on this mesh); and a 32x32 mesh,
// uniform at 0.1 (beyond its saturation), for a bounded 2000 cycles. Each runs once per backend
// with a fixed seed (the same traffic on every backend: the model delivers every packet in the
// RTL's cycle, verif/system/traffic_test.cpp). Speed: simulated cycles over the time of the cycle
// loop (construction excluded), in wall time (net_cycles_per_s) and in process CPU time
// (net_cycles_per_cpu_s, the fairer figure on a shared machine). Memory per router: the heap the
// backend allocates to build the network (glibc mallinfo2), over the routers. A 4x4 mesh, uniform
// at 0.1, compares the C++-wired routers with the SV network top verilated as one model.
// After the table, the model/RTL speed ratio of each workload. network_bench_top (`make bench`)
// adds the SV network top verilated as one model ("rtl-top", 4x4 only: bench/top_network.hpp).
#include <benchmark/benchmark.h>
#include <malloc.h>

#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "model/errors.hpp"
#include "model/topology.hpp"
#include "sim/router_network.hpp"
#include "sim/traffic.hpp"
#ifdef WORMCAST_BENCH_TOP
#include "Vnoc_network_top_bench_mesh4x4.h"
#include "bench/top_network.hpp"
#endif

namespace wormcast::sim {
namespace {

struct Workload {
  const char* name;
  TrafficConfig config;
};

TrafficConfig workload(const char* topology, double load, double multicast_fraction, long cycles) {
  TrafficConfig c;
  c.topology = topology;
  c.load = load;
  c.length = 20;
  c.multicast_fraction = multicast_fraction;
  c.destinations = 8;
  c.warmup = cycles / 5;
  c.measure = cycles - cycles / 5;
  c.drain_limit = cycles;
  c.seed = 1;
  return c;
}

const std::vector<Workload>& workloads() {
  static const std::vector<Workload> list{{"mesh4x4_uniform", workload("mesh:4x4", 0.1, 0.0, 20000)},
                                          {"mesh8x8_uniform", workload("mesh:8x8", 0.1, 0.0, 20000)},
                                          {"mesh8x8_multicast", workload("mesh:8x8", 0.05, 0.1, 20000)},
                                          {"mesh32x32_uniform", workload("mesh:32x32", 0.1, 0.0, 1000)}};
  return list;
}

std::map<std::string, std::map<std::string, double>> speeds;  // workload -> backend -> cycles/s

// Heap in use: arena blocks plus blocks glibc maps on their own (large allocations).
std::size_t heap_in_use() {
  const struct mallinfo2 m = mallinfo2();
  return m.uordblks + m.hblkhd;
}

// "rtl" and "model" clock only the routers that can change (activity-driven evaluation, the
// default); "rtl-full" and "model-full" every router every cycle, as before it (docs/timing.md,
// "Activity-driven evaluation").
std::unique_ptr<RouterBackend> backend_of(const std::string& name) {
#ifdef WORMCAST_BENCH_TOP
  if (name == "rtl-top") return std::make_unique<bench::TopBackend<Vnoc_network_top_bench_mesh4x4>>("mesh:4x4");
#endif
  const std::string suffix = "-full";
  const bool full = name.size() > suffix.size() && name.ends_with(suffix);
  std::unique_ptr<RouterBackend> backend = make_backend(full ? name.substr(0, name.size() - suffix.size()) : name);
  backend->set_evaluation(full ? Evaluation::kFull : Evaluation::kActivity);
  return backend;
}

void run(benchmark::State& state, const std::string& backend_name, const Workload& w) {
  std::unique_ptr<RouterBackend> backend;
  try {
    backend = backend_of(backend_name);
  } catch (const model::UnsupportedError& e) {
    state.SkipWithError(e.what());
    return;
  }
  const model::Topology topology = model::Topology::parse(w.config.topology);
  double bytes_per_router = 0;
  {
    const std::size_t before = heap_in_use();
    const std::unique_ptr<Network> network = backend->make_network(topology);
    bytes_per_router = static_cast<double>(heap_in_use() - before) / topology.node_count();
  }
  long cycles = 0;
  double seconds = 0, cpu_seconds = 0;
  TrafficResult last;
  for (auto _ : state) {
    last = run_traffic(w.config, *backend);
    state.SetIterationTime(last.wall_seconds);
    cycles += last.cycles;
    seconds += last.wall_seconds;
    cpu_seconds += last.cpu_seconds;
  }
  const double cpu_speed = static_cast<double>(cycles) / cpu_seconds;
  speeds[w.name][backend_name] = cpu_speed;
  state.counters["net_cycles_per_s"] = static_cast<double>(cycles) / seconds;
  state.counters["net_cycles_per_cpu_s"] = cpu_speed;
  state.counters["bytes_per_router"] = bytes_per_router;
  state.counters["cycles"] = static_cast<double>(cycles);
  state.counters["accepted"] = last.accepted;
  state.counters["latency"] = last.mean_latency;
  // The fraction of router cycles in which a router was evaluated (1 under full evaluation; the
  // network top, one model clocked whole, counts none).
  if (backend->router_cycles != 0) {
    state.counters["evaluated"] = static_cast<double>(backend->evaluated) / static_cast<double>(backend->router_cycles);
  }
}

std::vector<const char*> backends() {
#ifdef WORMCAST_BENCH_TOP
  return {"rtl", "rtl-full", "rtl-top", "model", "model-full"};
#else
  return {"rtl", "rtl-full", "model", "model-full"};
#endif
}

void register_all() {
  for (const char* backend : backends()) {
    for (const Workload& w : workloads()) {
      // The verilated top exists for the 4x4 mesh only.
      if (std::string(backend) == "rtl-top" && std::string(w.config.topology) != "mesh:4x4") continue;
      benchmark::RegisterBenchmark((std::string(backend) + "/" + w.name).c_str(),
                                   [backend, &w](benchmark::State& s) { run(s, backend, w); })
          ->Iterations(1)
          ->UseManualTime()
          ->Unit(benchmark::kMillisecond);
    }
  }
}

void print_ratios() {
  std::printf("\nSpeed ratios (network cycles per CPU second, one run):\n");
  for (const Workload& w : workloads()) {
    const auto& s = speeds[w.name];
    const auto rtl = s.find("rtl"), model = s.find("model"), top = s.find("rtl-top");
    const auto rtl_full = s.find("rtl-full"), model_full = s.find("model-full");
    if (rtl == s.end() || model == s.end()) {
      std::printf("  %-18s n/a (a backend did not run)\n", w.name);
      continue;
    }
    std::printf("  %-18s rtl %9.0f  model %9.0f  model/rtl %6.1f", w.name, rtl->second, model->second,
                model->second / rtl->second);
    // What activity-driven evaluation gains over evaluating every router every cycle.
    if (rtl_full != s.end()) std::printf("  rtl/rtl-full %5.2f", rtl->second / rtl_full->second);
    if (model_full != s.end()) std::printf("  model/model-full %5.2f", model->second / model_full->second);
    if (top != s.end()) {
      std::printf("  rtl-top %9.0f  rtl-top/rtl %5.1f  model/rtl-top %5.1f", top->second, top->second / rtl->second,
                  model->second / top->second);
    }
    std::printf("\n");
  }
}

}  // namespace
}  // namespace wormcast::sim

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  wormcast::sim::register_all();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  wormcast::sim::print_ratios();
  return 0;
}
