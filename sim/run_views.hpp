// SPDX-License-Identifier: Apache-2.0
// Views of RTL runs for `wormcast run`: readable text and JSON (docs/firmware.md, "wormcast run").
#pragma once

#include <nlohmann/json.hpp>
#include <string>

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

// The links each worm of multicast `multicast` crossed on the routers of `backend`, as the link
// monitor saw them, for render_svg (wormcast run --svg); the title names the backend.
NetworkDrawing drawing_of_run(const model::Plan& plan, int multicast, const RunRecord& record, const std::string& check,
                              Backend backend);

}  // namespace wormcast::sim
