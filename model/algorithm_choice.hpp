// SPDX-License-Identifier: Apache-2.0
// `--algorithm auto`: for one request (topology, source, destinations, port
// model, L and the latency parameters), plan it with every candidate algorithm that accepts it,
// predict each plan's multicast latency, and rank them: fastest first, ties broken by less traffic,
// then by registry order. The prediction is the plan's analytic latency (compute_metrics under the
// request's LatencyParameters; under LatencyParameters::rtl it is the RTL's contention-free figure,
// docs/timing.md "The analytic opinion"), so the choice is the model's own, made without running
// anything (docs/results.md, "Which algorithm wins where: --algorithm auto").
#pragma once

#include <string>
#include <vector>

#include "model/plan.hpp"

namespace wormcast::model {

// The name that asks for the choice instead of an algorithm.
inline constexpr const char* kAutoAlgorithm = "auto";

struct Candidate {
  std::string algorithm;
  // Applicable: its plan of the request (metrics.latency is the prediction).
  double latency = 0.0;
  int traffic = 0;
  int steps = 0;
  // Not applicable: why, in the planner's words ("... runs only on tori", "... is a broadcast").
  std::string excluded_because;
  bool operator==(const Candidate&) const = default;
};

struct AlgorithmChoice {
  std::vector<Candidate> ranking;   // the applicable candidates, best first
  std::vector<Candidate> excluded;  // the others, in candidate order
  // Two latencies closer than this fraction of the larger count as a tie (the prediction's
  // floating-point noise under fractional parameters; RTL figures are whole cycles).
  static constexpr double kTie = 1e-9;
  bool operator==(const AlgorithmChoice&) const = default;
};

// Whether predicted latencies a and b tie (AlgorithmChoice::kTie).
bool same_latency(double a, double b);

// Ranks `candidates` (registry names; every registered algorithm when empty) for `request`, whose
// `algorithm` is ignored. An algorithm whose planner refuses the request (UnsupportedError,
// RequestError, LabelingError: the wrong topology, port model, source or destination set) is
// excluded with the planner's message. Throws SpecError for an unknown candidate name, and
// UnsupportedError naming each candidate's reason when none applies.
AlgorithmChoice choose_algorithm(const Request& request, const std::vector<std::string>& candidates = {});

}  // namespace wormcast::model
