// SPDX-License-Identifier: Apache-2.0
// `--algorithm auto` on the routers: the model's choice for a run (the analytic
// latency under the RTL's parameters, model/algorithm_choice.hpp) and the race that checks it: every
// applicable algorithm the firmware runs, each alone on a backend, its measured multicast latency
// (last delivery) beside its prediction (`wormcast rank`, the test AutoAlgorithm.*).
#pragma once

#include <string>
#include <vector>

#include "model/algorithm_choice.hpp"
#include "sim/multicast_run.hpp"

namespace wormcast::sim {

// The choice among the algorithms the firmware runs, predicted under
// model::LatencyParameters::rtl(alpha, gamma); the algorithms without firmware are excluded with
// that reason. Throws what model::choose_algorithm throws.
model::AlgorithmChoice choose_for_run(const model::Request& request, long alpha, long gamma);

struct RaceEntry {
  model::Candidate predicted;
  long measured = -1;  // the last delivery cycle; -1: a destination was not delivered
  std::string check;   // the scoreboard's verdict ("" = the run matches the plan)
};

struct Race {
  model::Request request;
  std::vector<RaceEntry> entries;  // in the choice's ranking: entries.front() is auto's pick
  std::vector<model::Candidate> excluded;
  // The entry with the lowest measured latency (ties: the earlier in the ranking).
  const RaceEntry& measured_best() const;
  // How much slower auto's pick ran than the measured best: (pick - best) / best, 0 when it is
  // the best.
  double pick_gap() const;
  // Every run delivered everything and matched its plan.
  bool all_checks_pass() const;
};

// Runs every applicable algorithm of choose_for_run(request, options.alpha, options.gamma) alone on
// options.backend, one after another, and records what each measured.
Race race_algorithms(const model::Request& request, const RunOptions& options);

}  // namespace wormcast::sim
