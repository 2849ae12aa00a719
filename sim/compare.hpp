// SPDX-License-Identifier: Apache-2.0
// The RTL-versus-model timing comparison (docs/timing.md, "Comparing"): one scenario on both
// backends, per-destination delivery cycles side by side with the plan's analytic latency under the
// RTL's parameters (model::LatencyParameters::rtl, docs/timing.md "The analytic opinion"), error
// statistics, and the first cycle, router and port where the two networks' link outputs diverge.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "model/plan.hpp"
#include "sim/multicast_run.hpp"

namespace wormcast::sim {

struct DestinationTiming {
  int multicast = 0;
  model::NodeId node = model::kNoNode;
  long rtl = -1;  // delivery cycle on each backend (-1: not delivered)
  long model = -1;
  double analytic = 0;  // the plan's latency under the RTL's parameters (the analytic opinion)
};

// A multicast's latency (its last delivery) on each backend and in the analytic model.
struct MulticastTiming {
  long rtl = -1;  // -1: a destination was not delivered
  long model = -1;
  double analytic = 0;
};

// The first (cycle, router, port) at which the two link traces differ; the link each backend
// had there (nullopt: no flit on that port in that cycle).
struct Divergence {
  long cycle = 0;
  model::NodeId router = model::kNoNode;
  unsigned port = 0;
  std::optional<Link> rtl, model;
};

struct Comparison {
  std::vector<DestinationTiming> destinations;  // multicast by multicast, destinations in request order
  double mean_relative_error = 0;               // mean of |model - rtl| / rtl over the destinations
  double max_relative_error = 0;
  long max_difference = 0;                  // largest |model - rtl| in cycles
  int differing = 0;                        // destinations whose cycles differ
  std::vector<MulticastTiming> multicasts;  // one per plan
  // The analytic latency against the RTL: |analytic - rtl| / rtl over the destinations, and over
  // the multicasts' latencies.
  double analytic_mean_relative_error = 0;
  double analytic_max_relative_error = 0;
  double analytic_max_latency_error = 0;
  std::optional<Divergence> divergence;
  std::string rtl_check, model_check;  // the scoreboard's verdicts ("" = the run matches the plans)
  long rtl_cycles = 0, model_cycles = 0;
  double rtl_seconds = 0, model_seconds = 0;  // wall time of each run
};

// Runs the plans on both backends with the same options (options.backend and options.trace are
// set here) and compares them.
Comparison compare_backends(const std::vector<model::Plan>& plans, const RunOptions& options);

// The analytic delivery cycle of each of the plan's destinations (request order) for a run with
// these start-up costs: the plan's metrics under model::LatencyParameters::rtl(alpha, gamma).
std::vector<double> analytic_delivery_cycles(const model::Plan& plan, long alpha, long gamma);

// |estimate - measured| / measured (0 when both are 0; 1 for a nonzero estimate of 0 cycles).
double relative_error(double estimate, long measured);

// The first divergence of two link traces recorded by the co-simulation, or nullopt when they are
// equal. `net_ports` orders the ports as the co-simulation reads them (ejection ports first).
std::optional<Divergence> first_divergence(const LinkTrace& rtl, const LinkTrace& model, unsigned net_ports);

// "cycle 42, router 5 (1,1), port +X: RTL head flit 0x... on VC 0; model no flit".
std::string describe(const Divergence& d, const model::Topology& topology);

// `wormcast compare`'s views: the per-destination table (multicast, destination, RTL cycle, model
// cycle, difference, analytic cycle, its error against the RTL), the error statistics of both, the
// first divergence, both checks and run times.
std::string render_comparison_text(const std::vector<model::Plan>& plans, const Comparison& c);
// {"destinations": [{multicast, node, rtl, model, difference, analytic}], "mean_relative_error",
// "max_relative_error", "max_difference", "differing", "multicasts": [{multicast, rtl, model,
// analytic}] (latencies), "analytic_mean_relative_error", "analytic_max_relative_error",
// "analytic_max_latency_error", "divergence" (null or {cycle, router, port, text}), "rtl" and
// "model": {check, cycles, seconds}, "speed_ratio" (RTL seconds / model seconds)}.
nlohmann::json comparison_to_json(const std::vector<model::Plan>& plans, const Comparison& c);

}  // namespace wormcast::sim
