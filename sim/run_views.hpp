// SPDX-License-Identifier: Apache-2.0
// Views of RTL runs for `wormcast run`: readable text and JSON (docs/run.md).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "model/plan.hpp"
#include "sim/multicast_run.hpp"
#include "sim/network_svg.hpp"
#include "sim/scoreboard.hpp"

namespace wormcast::sim {

// What the RTL did with multicast `multicast` of a run: the steps and links it saw.
struct RunSummary {
  int steps = 0;    // largest step of its worms, derived from causality by the monitor
  int traffic = 0;  // network links the worms' heads crossed
  int worms = 0;
};
RunSummary summarize(int multicast, const RunRecord& record);

// The request, per-destination step (the plan's) and delivery cycle, steps (derived by the monitor,
// docs/firmware.md "Scoreboard") and traffic beside the plan's, the run's cycles and the check
// ("pass" or the failure), under a title naming the backend that ran.
std::string render_run_text(const model::Plan& plan, int multicast, const RunRecord& record, const std::string& check,
                            const RunOptions& options);
// plan_to_json(plan) plus "backend" ("rtl" or "model"), "alpha", "gamma", "delivery_cycles" (per destination, in
// request order, by node name), "observed" ({steps, traffic, worms, cycles}: what the backend's
// routers did) and "check".
nlohmann::json run_to_json(const model::Plan& plan, int multicast, const RunRecord& record, const std::string& check,
                           const RunOptions& options);

// A run of several requests at their start cycles (`wormcast run --requests`, docs/run.md
// "Mixed runs"): multicast i is plans[i]'s request, started in start_cycles[i], with its own
// verdict checks[i] (check_each_multicast); `check` is the run's (check_run: "" only when every
// request passed and the run had no error). Text: a header naming the topology and backend, one row
// per request (algorithm, source, K, ports, L, start cycle, last delivery cycle, pass or FAIL), the
// reason of each failing request, the run's cycles and "check: pass" or its first failure.
std::string render_requests_text(const std::vector<model::Plan>& plans, const std::vector<long>& start_cycles,
                                 const RunRecord& record, const std::vector<std::string>& checks,
                                 const std::string& check, const RunOptions& options);
// The table of render_requests_text: its header and one row per request.
std::string render_request_rows(const std::vector<model::Plan>& plans, const std::vector<long>& start_cycles,
                                const RunRecord& record, const std::vector<std::string>& checks);
// The "requests" array of requests_run_to_json.
nlohmann::json request_rows_to_json(const std::vector<model::Plan>& plans, const std::vector<long>& start_cycles,
                                    const RunRecord& record, const std::vector<std::string>& checks);
// {"topology", "backend", "alpha", "gamma", "eject_stall", "requests": [{"algorithm", "source",
// "ports", "length", "start_cycle", "delivery_cycles" (destination name -> cycle, -1 never),
// "last_delivery", "check"}], "cycles", "check"}, each check "pass" or the failure.
nlohmann::json requests_run_to_json(const std::vector<model::Plan>& plans, const std::vector<long>& start_cycles,
                                    const RunRecord& record, const std::vector<std::string>& checks,
                                    const std::string& check, const RunOptions& options);

// The links each worm of multicast `multicast` crossed on the routers of `backend`, as the link
// monitor saw them, for render_svg (wormcast run --svg); the title names the backend.
NetworkDrawing drawing_of_run(const model::Plan& plan, int multicast, const RunRecord& record, const std::string& check,
                              Backend backend);

}  // namespace wormcast::sim
