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
  // The replication lock's messages are the run's, not the multicast's (its plan has none).
  const auto lock_messages = std::count_if(record.worms.begin(), record.worms.end(), [](const ObservedWorm& w) {
    return w.lock_kind != fw::MessageKind::kMulticast;
  });
  j["observed"] = {{"steps", s.steps},
                   {"traffic", s.traffic},
                   {"worms", s.worms},
                   {"cycles", record.cycles},
                   {"lock_messages", lock_messages}};
  j["check"] = check.empty() ? "pass" : check;
  return j;
}

namespace {

// The replication lock's messages of the whole run (docs/firmware.md, "The replication lock").
long lock_messages(const RunRecord& record) {
  return std::count_if(record.worms.begin(), record.worms.end(),
                       [](const ObservedWorm& w) { return w.lock_kind != fw::MessageKind::kMulticast; });
}

long last_of(const std::vector<long>& cycles) {
  if (std::find(cycles.begin(), cycles.end(), -1) != cycles.end()) return -1;
  return cycles.empty() ? -1 : *std::max_element(cycles.begin(), cycles.end());
}

}  // namespace

std::string render_request_rows(const std::vector<model::Plan>& plans, const std::vector<long>& start_cycles,
                                const RunRecord& record, const std::vector<std::string>& checks) {
  const model::Topology& t = plans.front().request.topology;
  std::string out = fmt::format("  {:>3}  {:<16} {:<10} {:>4}  {:<9} {:>3} {:>7} {:>14}  {}\n", "#", "algorithm",
                                "source", "K", "ports", "L", "start", "last delivery", "check");
  for (std::size_t i = 0; i < plans.size(); ++i) {
    const model::Request& r = plans[i].request;
    const long last = last_of(delivery_cycles(plans[i], static_cast<int>(i), record));
    out += fmt::format("  {:>3}  {:<16} {:<10} {:>4}  {:<9} {:>3} {:>7} {:>14}  {}\n", i, r.algorithm,
                       fmt::format("({})", t.node_name(r.source)), r.destinations.size(), r.ports.name(),
                       r.length_flits, start_cycles[i], last < 0 ? std::string("-") : std::to_string(last),
                       checks[i].empty() ? "pass" : "FAIL");
  }
  return out;
}

std::string render_requests_text(const std::vector<model::Plan>& plans, const std::vector<long>& start_cycles,
                                 const RunRecord& record, const std::vector<std::string>& checks,
                                 const std::string& check, const RunOptions& options) {
  const model::Topology& t = plans.front().request.topology;
  std::string out =
      fmt::format("{} requests on {} ({}), alpha = {}, gamma = {}, eject stall {}\n", plans.size(), t.spec(),
                  backend_title(options.backend), options.alpha, options.gamma, options.eject_stall);
  out += render_request_rows(plans, start_cycles, record, checks);
  const auto passed = std::count(checks.begin(), checks.end(), std::string());
  for (std::size_t i = 0; i < plans.size(); ++i) {
    if (!checks[i].empty()) out += fmt::format("request {}: {}\n", i, checks[i]);
  }
  const long locks = lock_messages(record);
  out += fmt::format("{} of {} requests passed, {} cycles{}\n", passed, plans.size(), record.cycles,
                     locks == 0 ? "" : fmt::format(", {} replication-lock messages", locks));
  out += fmt::format("check: {}\n", check.empty() ? "pass" : check);
  return out;
}

nlohmann::json request_rows_to_json(const std::vector<model::Plan>& plans, const std::vector<long>& start_cycles,
                                    const RunRecord& record, const std::vector<std::string>& checks) {
  const model::Topology& t = plans.front().request.topology;
  nlohmann::json requests = nlohmann::json::array();
  for (std::size_t i = 0; i < plans.size(); ++i) {
    const model::Request& r = plans[i].request;
    const std::vector<long> cycles = delivery_cycles(plans[i], static_cast<int>(i), record);
    nlohmann::json deliveries = nlohmann::json::object();
    for (std::size_t k = 0; k < cycles.size(); ++k) deliveries[t.node_name(r.destinations[k])] = cycles[k];
    requests.push_back({{"algorithm", r.algorithm},
                        {"source", t.node_name(r.source)},
                        {"ports", r.ports.name()},
                        {"length", r.length_flits},
                        {"start_cycle", start_cycles[i]},
                        {"delivery_cycles", deliveries},
                        {"last_delivery", last_of(cycles)},
                        {"check", checks[i].empty() ? "pass" : checks[i]}});
  }
  return requests;
}

nlohmann::json requests_run_to_json(const std::vector<model::Plan>& plans, const std::vector<long>& start_cycles,
                                    const RunRecord& record, const std::vector<std::string>& checks,
                                    const std::string& check, const RunOptions& options) {
  const model::Topology& t = plans.front().request.topology;
  const nlohmann::json requests = request_rows_to_json(plans, start_cycles, record, checks);
  return {
      {"topology", t.spec()},    {"backend", backend_name(options.backend)}, {"alpha", options.alpha},
      {"gamma", options.gamma},  {"eject_stall", options.eject_stall},       {"requests", requests},
      {"cycles", record.cycles}, {"lock_messages", lock_messages(record)},   {"check", check.empty() ? "pass" : check}};
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
