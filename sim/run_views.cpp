// SPDX-License-Identifier: Apache-2.0
#include "sim/run_views.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "sim/plan_views.hpp"

namespace wormcast::sim {

RunSummary summarize(int multicast, const RunRecord& record) {
  RunSummary s;
  for (const ObservedWorm& w : record.worms) {
    if (w.multicast != multicast) continue;
    s.steps = std::max(s.steps, w.derived_step);  // from causality, not the firmware's claim
    s.traffic += static_cast<int>(w.hops.size());
    ++s.worms;
  }
  return s;
}

std::string render_run_text(const model::Plan& plan, int multicast, const RunRecord& record, const std::string& check,
                            const RunOptions& options) {
  const model::Request& r = plan.request;
  const model::Topology& t = r.topology;
  const RunSummary s = summarize(multicast, record);
  std::string out = fmt::format("{} on {} ({}), source ({}), {} destinations, L = {}, {}, alpha = {}, gamma = {}\n",
                                r.algorithm, t.spec(), backend_title(options.backend), t.node_name(r.source),
                                r.destinations.size(), r.length_flits, r.ports.name(), options.alpha, options.gamma);
  out += fmt::format("  {:<12} {:>4} {:>14}\n", "destination", "step", "delivery cycle");
  const std::vector<long> cycles = delivery_cycles(plan, multicast, record);
  for (std::size_t i = 0; i < r.destinations.size(); ++i) {
    out += fmt::format("  {:<12} {:>4} {:>14}\n", fmt::format("({})", t.node_name(r.destinations[i])),
                       plan.metrics.destinations[i].step, cycles[i]);
  }
  // Worms the routers spawn (PCP's row branches) travel as part of the worm they branch from.
  const auto spawned = std::count_if(plan.worms.begin(), plan.worms.end(),
                                     [](const model::Worm& w) { return w.spawned_from.has_value(); });
  const std::string branches = spawned == 0 ? "" : fmt::format(" + {} spawned by routers", spawned);
  out += fmt::format("steps {} (plan {}), traffic {} (plan {}), worms {} (plan {}{}), last delivery at cycle {}\n",
                     s.steps, plan.metrics.steps, s.traffic, plan.metrics.traffic, s.worms,
                     plan.worms.size() - static_cast<std::size_t>(spawned), branches,
                     cycles.empty() ? -1 : *std::max_element(cycles.begin(), cycles.end()));
  out += fmt::format("check: {}\n", check.empty() ? "pass" : check);
  return out;
}

nlohmann::json run_to_json(const model::Plan& plan, int multicast, const RunRecord& record, const std::string& check,
                           const RunOptions& options) {
  const model::Topology& t = plan.request.topology;
  nlohmann::json j = plan_to_json(plan);
  const std::vector<long> cycles = delivery_cycles(plan, multicast, record);
  nlohmann::json deliveries = nlohmann::json::object();
  for (std::size_t i = 0; i < cycles.size(); ++i) deliveries[t.node_name(plan.request.destinations[i])] = cycles[i];
  const RunSummary s = summarize(multicast, record);
  j["backend"] = backend_name(options.backend);
  j["alpha"] = options.alpha;
  j["gamma"] = options.gamma;
  j["delivery_cycles"] = deliveries;
  j["observed"] = {{"steps", s.steps}, {"traffic", s.traffic}, {"worms", s.worms}, {"cycles", record.cycles}};
  j["check"] = check.empty() ? "pass" : check;
  return j;
}

NetworkDrawing drawing_of_run(const model::Plan& plan, int multicast, const RunRecord& record, const std::string& check,
                              Backend backend) {
  const model::Request& r = plan.request;
  const model::Topology& t = r.topology;
  const RunSummary s = summarize(multicast, record);
  NetworkDrawing d{t,
                   fmt::format("{} on {} ({}): source ({}), {} destinations, steps {}, traffic {}, check: {}",
                               r.algorithm, t.spec(), backend_title(backend), t.node_name(r.source),
                               r.destinations.size(), s.steps, s.traffic, check.empty() ? "pass" : "FAIL"),
                   r.source,
                   r.destinations,
                   {}};
  for (const ObservedWorm& w : record.worms) {
    if (w.multicast != multicast) continue;
    d.worms.push_back(
        {fmt::format("step {}: ({}) -> {} cop{}, {} hops, cycles {}..{}", w.derived_step, t.node_name(w.sender),
                     w.copies.size(), w.copies.size() == 1 ? "y" : "ies", w.hops.size(), w.inject_cycle, w.eject_cycle),
         w.hops});
  }
  return d;
}

}  // namespace wormcast::sim
