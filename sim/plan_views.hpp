// SPDX-License-Identifier: Apache-2.0
// Views of plans and sweeps for the command line: readable text, JSON and CSV. Pure functions;
// the caller prints or writes the result. The JSON schemas are documented in docs/algorithms.md
// ("Command line: plan and sweep").
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "model/algorithm_choice.hpp"
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

// `--algorithm auto`'s ranking (model/algorithm_choice.hpp) as text: what the latencies are
// (`predictor`, e.g. "the analytic latency under the RTL's parameters"), one line per applicable
// algorithm (rank, predicted latency, traffic, steps), the excluded ones with their reasons, and
// the pick with why: how far ahead of the next it is, or on a tie, the traffic that decided it.
std::string render_choice_text(const model::AlgorithmChoice& choice, const std::string& predictor);
// The pick's reason alone (the last line of render_choice_text, without "auto picks <name>: ").
std::string choice_reason(const model::AlgorithmChoice& choice);
// {"predictor", "pick", "reason", "ranking": [{"algorithm", "latency", "traffic", "steps"}],
//  "excluded": [{"algorithm", "reason"}]}.
nlohmann::json choice_to_json(const model::AlgorithmChoice& choice, const std::string& predictor);

// The sweep as an aligned table, one row per (K, algorithm).
std::string render_sweep_table(const model::SweepResult& result);
// CSV with a header line: algorithm,k,runs,mean_steps,max_steps,mean_traffic,
// mean_additional_traffic,mean_latency,max_latency, then the standard deviation (sd_) and the 95 %
// confidence interval's half-width (ci95_) of each mean: steps, traffic, additional_traffic, latency.
std::string sweep_to_csv(const model::SweepResult& result);
// Two CSV cells "sd,ci95" of a mean's spread, to 6 significant digits (a last-bit difference of
// the maths library's tan does not reach the file); two empty cells for one sample.
std::string spread_csv_cells(const model::Spread& spread);
// sweep_to_csv's header and one row, each without the newline (the shard files, sim/shard.hpp).
std::string sweep_csv_header();
std::string sweep_csv_row(const model::SweepRow& row);
// {"config": {...}, "rows": [{...}, ...]} with the CSV's columns as row fields.
nlohmann::json sweep_to_json(const model::SweepResult& result);

}  // namespace wormcast::sim
