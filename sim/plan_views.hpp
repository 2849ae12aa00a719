// SPDX-License-Identifier: Apache-2.0
// Views of plans and sweeps for the command line: readable text, JSON and CSV. Pure functions;
// the caller prints or writes the result. The JSON schemas are documented in docs/algorithms.md
// ("Command line: plan and sweep").
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "model/plan.hpp"
#include "model/sweep.hpp"

namespace wormcast::sim {

// `one`, `two`, `all`, a number d >= 1, or the model's names (`one-port`, `4-port`, ...). Throws
// model::SpecError naming the valid forms.
model::PortModel parse_port_model(std::string_view text);
// `origin`, `random`, or a node of `topology` (`3,2`). Throws model::SpecError / NodeError.
model::SourceChoice parse_source_choice(const model::Topology& topology, std::string_view text);

// The plan as text: the request, each worm (step, sender, kind, header, port, route, deliveries),
// the metrics, the per-destination table and the shared channels.
std::string render_plan_text(const model::Plan& plan);
// The plan as JSON; nodes are written by name (`3,2`), ports by name (`+X`).
nlohmann::json plan_to_json(const model::Plan& plan);

// The sweep as an aligned table, one row per (K, algorithm).
std::string render_sweep_table(const model::SweepResult& result);
// CSV with a header line: algorithm,k,runs,mean_steps,max_steps,mean_traffic,
// mean_additional_traffic,mean_latency,max_latency.
std::string sweep_to_csv(const model::SweepResult& result);
// sweep_to_csv's header and one row, each without the newline (the shard files, sim/shard.hpp).
std::string sweep_csv_header();
std::string sweep_csv_row(const model::SweepRow& row);
// {"config": {...}, "rows": [{...}, ...]} with the CSV's columns as row fields.
nlohmann::json sweep_to_json(const model::SweepResult& result);

}  // namespace wormcast::sim
