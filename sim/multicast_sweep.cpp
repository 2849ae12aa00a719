// SPDX-License-Identifier: Apache-2.0
#include "sim/multicast_sweep.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <tuple>

#include "model/errors.hpp"
#include "model/planner.hpp"
#include "sim/compare.hpp"
#include "sim/plan_views.hpp"
#include "sim/scoreboard.hpp"

namespace wormcast::sim {
namespace {

// What one request measured on the backends, and what its plan says.
struct Measured {
  long rtl = -1;
  long model = -1;
  double analytic = 0;
};

model::Request request_of(const MulticastSweepConfig& c, const std::string& algorithm, const model::Sample& s,
                          int length) {
  return model::make_request(c.topology, algorithm, s.source, s.destinations, length, c.ports);
}

// The command that reruns one request on both backends, destination by destination.
std::string rerun_command(const MulticastSweepConfig& c, const model::Request& r) {
  std::vector<std::string> names;
  for (const model::NodeId d : r.destinations) names.push_back(c.topology.node_name(d));
  return fmt::format("wormcast compare -t {} -a {} -p {} -s {} -d {} -L {} --alpha {} --gamma {}", c.topology.spec(),
                     r.algorithm, c.ports.name(), c.topology.node_name(r.source), fmt::join(names, " "), r.length_flits,
                     c.harness.alpha, c.harness.gamma);
}

[[noreturn]] void fail(const MulticastSweepConfig& c, const model::Request& r, const std::string& what) {
  throw MulticastSweepError(fmt::format("sweep point K = {}, L = {}: {} from {}: {}; rerun it with: {}",
                                        r.destinations.size(), r.length_flits, r.algorithm,
                                        c.topology.node_name(r.source), what, rerun_command(c, r)));
}

// The multicast latency of one run (its last delivery), after the scoreboard's check.
std::vector<long> checked_run(const MulticastSweepConfig& c, const model::Plan& plan, Backend backend) {
  RunOptions options = c.harness;
  options.backend = backend;
  options.trace = nullptr;
  const RunRecord record = run_multicasts({plan.request}, options);
  const std::string check = check_run({plan}, record);
  if (!check.empty())
    fail(c, plan.request,
         fmt::format("the run on the {} does not match its plan: {}", backend == Backend::kRtl ? "RTL" : "timing model",
                     check));
  return delivery_cycles(plan, 0, record);
}

Measured measure(const MulticastSweepConfig& c, const model::Plan& plan) {
  Measured m;
  const std::vector<long> model_cycles = checked_run(c, plan, Backend::kModel);
  m.model = *std::max_element(model_cycles.begin(), model_cycles.end());
  if (c.backend == Backend::kRtl) {
    const std::vector<long> rtl_cycles = checked_run(c, plan, Backend::kRtl);
    for (std::size_t i = 0; i < rtl_cycles.size(); ++i) {
      if (rtl_cycles[i] != model_cycles[i]) {
        fail(c, plan.request,
             fmt::format("the RTL delivers {} in cycle {}, the timing model in cycle {}",
                         c.topology.node_name(plan.request.destinations[i]), rtl_cycles[i], model_cycles[i]));
      }
    }
    m.rtl = m.model;
  }
  const std::vector<double> analytic = analytic_delivery_cycles(plan, c.harness.alpha, c.harness.gamma);
  m.analytic = *std::max_element(analytic.begin(), analytic.end());
  return m;
}

int longest_path(const model::Plan& plan) {
  int hops = 0;
  for (const model::DestinationMetrics& d : plan.metrics.destinations) hops = std::max(hops, d.path_hops);
  return hops;
}

// The rows of one point: every algorithm on the same samples.
std::vector<MulticastSweepRow> run_point(const MulticastSweepConfig& c, const MulticastSweepPoint& p) {
  const std::vector<model::Sample> samples = model::draw_samples(c.topology, c.source, p.k, c.runs, c.seed);
  std::vector<MulticastSweepRow> rows;
  for (const std::string& algorithm : c.algorithms) {
    MulticastSweepRow row{algorithm, p.k, p.length, c.runs};
    std::vector<double> rtl, timing_model, analytic, steps, max_hops, traffic;
    for (const model::Sample& s : samples) {
      const model::Plan plan = model::plan(request_of(c, algorithm, s, p.length));
      const Measured m = measure(c, plan);
      rtl.push_back(static_cast<double>(m.rtl));
      row.max_rtl = std::max(row.max_rtl, m.rtl);
      timing_model.push_back(static_cast<double>(m.model));
      row.max_model = std::max(row.max_model, m.model);
      analytic.push_back(m.analytic);
      row.max_analytic = std::max(row.max_analytic, m.analytic);
      steps.push_back(plan.metrics.steps);
      max_hops.push_back(longest_path(plan));
      traffic.push_back(plan.metrics.traffic);
    }
    for (auto [values, mean, spread] : {std::tuple{&rtl, &row.mean_rtl, &row.rtl_spread},
                                        {&timing_model, &row.mean_model, &row.model_spread},
                                        {&analytic, &row.mean_analytic, &row.analytic_spread},
                                        {&steps, &row.mean_steps, &row.steps_spread},
                                        {&max_hops, &row.mean_max_hops, &row.max_hops_spread},
                                        {&traffic, &row.mean_traffic, &row.traffic_spread}}) {
      const model::MeanEstimate e = model::estimate_mean(*values);
      *mean = e.mean;
      *spread = e.spread;
    }
    if (c.backend != Backend::kRtl) row.rtl_spread = {};  // no RTL run: its -1 "not measured" values have no spread
    rows.push_back(row);
  }
  return rows;
}

// The CSV's source column: origin, random, or the fixed node (quoted).
std::string source_text(const MulticastSweepConfig& c) {
  switch (c.source.policy) {
    case model::SourcePolicy::kOrigin:
      return "origin";
    case model::SourcePolicy::kRandom:
      return "random";
    case model::SourcePolicy::kFixed:
      break;
  }
  return fmt::format("\"{}\"", c.topology.node_name(c.source.node));  // a node name has commas
}

}  // namespace

std::vector<MulticastSweepPoint> multicast_sweep_points(const MulticastSweepConfig& config) {
  std::vector<MulticastSweepPoint> points;
  for (const int k : config.destination_counts) {
    for (const int length : config.lengths) points.push_back({k, length});
  }
  return points;
}

void check_multicast_sweep(const MulticastSweepConfig& c) {
  if (c.algorithms.empty() || c.destination_counts.empty() || c.lengths.empty()) {
    throw model::SpecError("the multicast sweep needs at least one algorithm (--algorithms), K (--k) and L");
  }
  if (c.runs < 1) throw model::SpecError(fmt::format("--runs {} is too few; give at least 1", c.runs));
  for (const std::string& algorithm : c.algorithms) {
    model::algorithm_info(algorithm);  // an unknown name: the registry's error lists the valid ones
    if (!firmware_supports(algorithm)) throw model::UnsupportedError(no_firmware_message(algorithm));
  }
  // The sampler checks K, the planner the request (L, port model, a broadcast's K): one request per
  // point and algorithm, planned and not run.
  for (const MulticastSweepPoint& p : multicast_sweep_points(c)) {
    const model::Sample s = model::draw_samples(c.topology, c.source, p.k, 1, c.seed).front();
    for (const std::string& algorithm : c.algorithms) model::plan(request_of(c, algorithm, s, p.length));
  }
}

std::vector<MulticastSweepRow> run_multicast_sweep(const MulticastSweepConfig& config, const Shard& shard,
                                                   Progress* progress) {
  check_multicast_sweep(config);
  const std::vector<MulticastSweepPoint> points = multicast_sweep_points(config);
  std::vector<MulticastSweepRow> rows;
  for (const std::size_t p : shard.points(points.size())) {
    const std::vector<MulticastSweepRow> point_rows = run_point(config, points[p]);
    rows.insert(rows.end(), point_rows.begin(), point_rows.end());
    if (progress != nullptr) progress->point_done();
  }
  return rows;
}

std::string describe(const MulticastSweepConfig& c) {
  return fmt::format(
      "multicast sweep; backend {}; topology {}; algorithms {}; k {}; lengths {}; runs {}; seed {}; source {} {}; "
      "ports {}; alpha {}; gamma {}",
      backend_name(c.backend), c.topology.spec(), fmt::join(c.algorithms, ","), fmt::join(c.destination_counts, ","),
      fmt::join(c.lengths, ","), c.runs, c.seed, static_cast<int>(c.source.policy), c.source.node, c.ports.name(),
      c.harness.alpha, c.harness.gamma);
}

std::string multicast_csv_header() {
  return "backend,topology,algorithm,ports,source,k,length,alpha,gamma,runs,mean_rtl,max_rtl,mean_model,max_model,"
         "mean_analytic,max_analytic,mean_steps,mean_max_hops,mean_traffic,sd_rtl,ci95_rtl,sd_model,ci95_model,"
         "sd_analytic,ci95_analytic,sd_steps,ci95_steps,sd_max_hops,ci95_max_hops,sd_traffic,ci95_traffic\n";
}

std::string multicast_csv_row(const MulticastSweepConfig& c, const MulticastSweepRow& r) {
  const bool rtl = c.backend == Backend::kRtl;
  return fmt::format(
      "{},{},{},{},{},{},{},{},{},{},{},{},{:.2f},{},{:.2f},{:.2f},{:.3f},{:.3f},{:.3f},"
      "{},{},{},{},{},{}\n",
      backend_name(c.backend), c.topology.spec(), r.algorithm, c.ports.name(), source_text(c), r.k, r.length,
      c.harness.alpha, c.harness.gamma, r.runs, rtl ? fmt::format("{:.2f}", r.mean_rtl) : "",
      rtl ? fmt::format("{}", r.max_rtl) : "", r.mean_model, r.max_model, r.mean_analytic, r.max_analytic, r.mean_steps,
      r.mean_max_hops, r.mean_traffic, spread_csv_cells(r.rtl_spread), spread_csv_cells(r.model_spread),
      spread_csv_cells(r.analytic_spread), spread_csv_cells(r.steps_spread), spread_csv_cells(r.max_hops_spread),
      spread_csv_cells(r.traffic_spread));
}

}  // namespace wormcast::sim
