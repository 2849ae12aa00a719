// SPDX-License-Identifier: Apache-2.0
// wormcast plan: one multicast or broadcast planned by the model, its worms and metrics (text,
// JSON or an SVG drawing).
#include <fmt/format.h>

#include <memory>
#include <optional>

#include "model/algorithm_choice.hpp"
#include "model/errors.hpp"
#include "model/planner.hpp"
#include "sim/commands/command.hpp"
#include "sim/commands/common.hpp"
#include "sim/network_svg.hpp"
#include "sim/plan_views.hpp"

namespace wormcast::sim::commands {

namespace {

// The largest network `plan` takes: a broadcast on mesh:256x256 (65,536 nodes) plans in seconds
// with one worm per path (dual-path), the planner's work grows with nodes x destinations, and
// mesh:1024x1024 would take an hour (docs/architecture.md, "Sizes each command handles").
constexpr int kMaxPlanNodes = 65'536;

}  // namespace

Command add_plan(CLI::App& app) {
  struct Options {
    std::string topology;
    std::string algorithm;
    std::string source;
    std::vector<std::string> destinations;
    std::uint64_t seed = 1;
    RequestOptions request;
    bool json = false;
    std::string svg;
  };
  auto o = std::make_shared<Options>();
  CLI::App* command = app.add_subcommand("plan", "Plan one multicast or broadcast and show its worms and metrics");
  command->add_option("-t,--topology", o->topology, "topology spec")->required();
  command
      ->add_option("-a,--algorithm", o->algorithm,
                   fmt::format("{}, or auto: the one with the lowest predicted latency (needs --ports)",
                               fmt::join(model::algorithm_names(), ", ")))
      ->required();
  command->add_option("-s,--source", o->source, "source node (3,2 / 1,1,1 / 1432)")->required();
  command->add_option("-d,--dests", o->destinations, "destination nodes, 'all' for a broadcast, or random:K")
      ->required();
  command->add_option("--seed", o->seed, "seed for --dests random:K")->capture_default_str()->check(seed_value());
  o->request.add_to(*command, LatencyOptions::kAll);
  command->add_flag("--json", o->json, "print the plan as JSON (schema: docs/algorithms.md)");
  command->add_option("--svg", o->svg, "draw the network and the plan's worms into this SVG file");
  return {
      command, [o] {
        const model::Topology t = model::Topology::parse(o->topology);
        if (t.node_count() > kMaxPlanNodes) {
          throw CommandError(
              fmt::format("{} has {} nodes; plan takes networks of at most {} (e.g. mesh:256x256, "
                          "mesh:40x40x40), whose broadcasts plan in seconds",
                          t.spec(), t.node_count(), kMaxPlanNodes));
        }
        const model::NodeId source = t.parse_node(o->source);
        const std::vector<model::NodeId> destinations = parse_destinations(t, source, o->destinations, o->seed);
        std::optional<model::AlgorithmChoice> choice;
        std::string algorithm = o->algorithm;
        if (algorithm == model::kAutoAlgorithm) {
          // The port model is the machine's, part of the request the algorithms compete for.
          if (o->request.ports.empty()) throw model::SpecError(kAutoNeedsPorts);
          choice = model::choose_algorithm(model::make_request(t, algorithm, source, destinations, o->request.length,
                                                               parse_port_model(o->request.ports), o->request.latency));
          algorithm = choice->ranking.front().algorithm;
        }
        const model::Plan plan = model::plan(model::make_request(t, algorithm, source, destinations, o->request.length,
                                                                 o->request.ports_for(algorithm), o->request.latency));
        if (!o->svg.empty()) write_svg(o->svg, drawing_of_plan(plan));
        constexpr const char* kPredictor = "the analytic latency under the given latency parameters";
        if (o->json) {
          nlohmann::json out = plan_to_json(plan);
          if (choice) out["auto"] = choice_to_json(*choice, kPredictor);
          print_json(out);
        } else {
          if (choice) fmt::print("{}\n", render_choice_text(*choice, kPredictor));
          fmt::print("{}", render_plan_text(plan));
        }
        return ExitCode::kSuccess;
      }};
}

}  // namespace wormcast::sim::commands
