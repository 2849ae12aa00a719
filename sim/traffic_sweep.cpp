// SPDX-License-Identifier: Apache-2.0
#include "sim/traffic_sweep.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <utility>

#include "model/errors.hpp"

namespace wormcast::sim {
namespace {

double parse_number(const std::string& text, const std::string& whole) {
  std::size_t used = 0;
  double v = 0;
  try {
    v = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size()) {
    throw model::SpecError(
        fmt::format("load '{}' is not a number; give loads as 0.05,0.1 or a range start:stop:step", whole));
  }
  return v;
}

}  // namespace

std::vector<double> parse_loads(const std::vector<std::string>& texts) {
  std::vector<double> loads;
  for (const std::string& text : texts) {
    const std::size_t c1 = text.find(':');
    if (c1 == std::string::npos) {
      loads.push_back(parse_number(text, text));
      continue;
    }
    const std::size_t c2 = text.find(':', c1 + 1);
    if (c2 == std::string::npos) {
      throw model::SpecError(fmt::format("load range '{}' needs start:stop:step", text));
    }
    const double start = parse_number(text.substr(0, c1), text);
    const double stop = parse_number(text.substr(c1 + 1, c2 - c1 - 1), text);
    const double step = parse_number(text.substr(c2 + 1), text);
    if (!(step > 0) || stop < start) {
      throw model::SpecError(fmt::format("load range '{}': step must be > 0 and stop >= start", text));
    }
    // Counted, not accumulated, so that 0.1:0.3:0.1 ends at 0.3 exactly.
    const long count = std::lround(std::floor((stop - start) / step + 1e-9)) + 1;
    // Rounded to 1e-9 so that 0.05:0.2:0.05 gives 0.15, not 0.15000000000000002, in the CSV.
    for (long i = 0; i < count; ++i) loads.push_back(std::round((start + static_cast<double>(i) * step) * 1e9) / 1e9);
  }
  if (loads.empty()) throw model::SpecError("no load given; give --loads 0.05,0.1 or a range start:stop:step");
  return loads;
}

std::string traffic_csv_header() {
  return "backend,topology,routing,load,length,multicast_fraction,destinations,seed,offered,accepted,mean_latency,"
         "mean_unicast_latency,mean_multicast_latency,mean_destination_latency,max_latency,mean_hops,measured_packets,"
         "delivered_packets,saturated,cycles\n";
}

std::string traffic_csv_row(const TrafficResult& r) {
  const TrafficConfig& c = r.config;
  return fmt::format("{},{},{},{},{},{},{},{},{:.5f},{:.5f},{:.3f},{:.3f},{:.3f},{:.3f},{},{:.3f},{},{},{},{}\n",
                     r.backend, c.topology, r.routing, c.load, c.length, c.multicast_fraction,
                     c.multicast_fraction > 0 ? c.destinations : 1, c.seed, r.offered, r.accepted, r.mean_latency,
                     r.mean_unicast_latency, r.mean_multicast_latency, r.mean_destination_latency, r.max_latency,
                     r.mean_hops, r.measured_packets, r.delivered_packets, r.saturated ? 1 : 0, r.cycles);
}

std::vector<TrafficConfig> traffic_sweep_points(const TrafficSweepConfig& config) {
  if (config.loads.empty()) throw model::SpecError("a traffic sweep needs at least one load");
  std::vector<int> counts = config.destination_counts;
  if (counts.empty()) counts.push_back(config.base.destinations);
  std::vector<TrafficConfig> points;
  for (const int k : counts) {
    for (const double load : config.loads) {
      TrafficConfig c = config.base;
      c.destinations = k;
      c.load = load;
      validate(c);
      points.push_back(std::move(c));
    }
  }
  return points;
}

std::vector<TrafficResult> run_traffic_sweep(const TrafficSweepConfig& config, const Shard& shard, Progress* progress) {
  const std::vector<TrafficConfig> points = traffic_sweep_points(config);
  const std::unique_ptr<RouterBackend> backend = make_backend(config.backend);
  std::vector<TrafficResult> results;
  for (const std::size_t point : shard.points(points.size())) {
    const TrafficConfig& c = points[point];
    results.push_back(run_traffic(c, *backend));
    const TrafficResult& r = results.back();
    std::printf("%s %s K=%d load %.3f: offered %.4f accepted %.4f latency %.1f (max %ld)%s, %.1f s\n",
                r.backend.c_str(), c.topology.c_str(), c.multicast_fraction > 0 ? c.destinations : 1, c.load, r.offered,
                r.accepted, r.mean_latency, r.max_latency, r.saturated ? " SATURATED" : "", r.wall_seconds);
    std::fflush(stdout);
    if (progress != nullptr) progress->point_done();
  }
  return results;
}

}  // namespace wormcast::sim
