// SPDX-License-Identifier: Apache-2.0
#include "sim/algorithm_race.hpp"

#include <algorithm>

#include "model/planner.hpp"
#include "sim/scoreboard.hpp"

namespace wormcast::sim {

model::AlgorithmChoice choose_for_run(const model::Request& request, long alpha, long gamma) {
  model::Request predicted = request;
  predicted.latency = model::LatencyParameters::rtl(static_cast<double>(alpha), static_cast<double>(gamma));
  std::vector<std::string> runnable;
  std::vector<model::Candidate> without_firmware;
  for (const std::string& name : model::algorithm_names()) {
    if (firmware_supports(name)) {
      runnable.push_back(name);
    } else {
      model::Candidate c;
      c.algorithm = name;
      c.excluded_because = "the node firmware does not run it";
      without_firmware.push_back(c);
    }
  }
  model::AlgorithmChoice choice = model::choose_algorithm(predicted, runnable);
  choice.excluded.insert(choice.excluded.end(), without_firmware.begin(), without_firmware.end());
  return choice;
}

const RaceEntry& Race::measured_best() const {
  const RaceEntry* best = &entries.front();
  for (const RaceEntry& e : entries) {
    if (e.measured >= 0 && (best->measured < 0 || e.measured < best->measured)) best = &e;
  }
  return *best;
}

double Race::pick_gap() const {
  const long best = measured_best().measured;
  const long pick = entries.front().measured;
  if (pick < 0 || best <= 0) return pick == best ? 0.0 : 1.0;
  return static_cast<double>(pick - best) / static_cast<double>(best);
}

bool Race::all_checks_pass() const {
  return std::all_of(entries.begin(), entries.end(), [](const RaceEntry& e) { return e.check.empty(); });
}

Race race_algorithms(const model::Request& request, const RunOptions& options) {
  const model::AlgorithmChoice choice = choose_for_run(request, options.alpha, options.gamma);
  Race race{request, {}, choice.excluded};
  for (const model::Candidate& candidate : choice.ranking) {
    model::Request r = request;
    r.algorithm = candidate.algorithm;
    const model::Plan plan = model::plan(r);
    const RunRecord record = run_multicasts({r}, options);
    RaceEntry entry{candidate, -1, check_run({plan}, record)};
    long last = -1;
    std::size_t delivered = 0;
    for (const Delivery& d : record.deliveries) {
      if (d.multicast != 0) continue;
      last = std::max(last, d.cycle);
      ++delivered;
    }
    entry.measured = delivered >= r.destinations.size() ? last : -1;
    race.entries.push_back(entry);
  }
  return race;
}

}  // namespace wormcast::sim
