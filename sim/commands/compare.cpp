// SPDX-License-Identifier: Apache-2.0
// wormcast compare: the same multicasts on the RTL and on the timing model, delivery cycle by
// delivery cycle (docs/timing.md); exit 1 when a check fails or any cycle differs.
#include "sim/compare.hpp"

#include <fmt/format.h>

#include <memory>

#include "model/planner.hpp"
#include "sim/commands/command.hpp"
#include "sim/commands/common.hpp"

namespace wormcast::sim::commands {

Command add_compare(CLI::App& app) {
  struct Options {
    std::string topology;
    RequestSpec spec;
    bool concurrent = false;
    double eject_stall = 0.0;
    RequestOptions request;
    bool json = false;
    std::string perturb_at;
  };
  auto o = std::make_shared<Options>();
  CLI::App* command = app.add_subcommand(
      "compare", "Run multicasts on the RTL and on the timing model; compare delivery cycles per destination");
  command->add_option("-t,--topology", o->topology, "topology spec")->required();
  command->add_option("-a,--algorithm", o->spec.algorithm, firmware_algorithm_names())->required();
  command->add_option("-s,--source", o->spec.source, "source node, 'origin' or 'random'")->required();
  command->add_option("-d,--dests", o->spec.destinations, "destination nodes, 'all' for a broadcast, or random:K")
      ->required();
  command->add_option("--seed", o->spec.seed, "seed for random sources, destinations and back-pressure")
      ->capture_default_str()
      ->check(seed_value());
  command->add_option("--count", o->spec.count, "random requests, compared one after another")->capture_default_str();
  command->add_flag("--concurrent", o->concurrent, "run the --count requests at once (a load scenario)");
  command->add_option("--eject-stall", o->eject_stall, "probability an ejection port takes no flit in a cycle")
      ->capture_default_str()
      ->check(probability_in(kMaxEjectStall));
  o->request.add_to(*command, LatencyOptions::kStartUpOnly);
  command->add_flag("--json", o->json, "print each comparison as JSON (docs/timing.md)");
  // Test only (hidden from --help): shows the divergence report on a model that differs.
  command
      ->add_option("--perturb-model-at", o->perturb_at,
                   "this node's model router holds back its first switch grant one cycle")
      ->group("");
  return {command, [o] {
            const model::Topology t = model::Topology::parse(o->topology);
            RunOptions options = harness_options(o->spec.algorithm, o->request, o->eject_stall, o->spec.seed);
            if (!o->perturb_at.empty()) options.perturb_model_at = t.parse_node(o->perturb_at);
            std::vector<std::vector<model::Plan>> scenarios;
            for (const model::Request& request : requests_of(t, o->spec, o->request)) {
              if (!o->concurrent || scenarios.empty()) scenarios.emplace_back();
              scenarios.back().push_back(model::plan(request));
            }
            bool all_equal = true;
            nlohmann::json out = nlohmann::json::array();
            for (const std::vector<model::Plan>& plans : scenarios) {
              const Comparison c = compare_backends(plans, options);
              all_equal = all_equal && c.rtl_check.empty() && c.model_check.empty() && c.differing == 0;
              if (o->json) {
                out.push_back(comparison_to_json(plans, c));
              } else {
                fmt::print("{}", render_comparison_text(plans, c));
              }
            }
            if (o->json) print_json(scenarios.size() == 1 ? out.front() : out);
            return all_equal ? ExitCode::kSuccess : ExitCode::kCheckFailed;
          }};
}

}  // namespace wormcast::sim::commands
