// SPDX-License-Identifier: Apache-2.0
// wormcast demo: the model's tour: labelings, worm routes and deadlock proofs on the default
// networks, and one line per algorithm for the papers' worked examples.
#include <fmt/format.h>

#include <string>
#include <utility>
#include <vector>

#include "model/broadcast_baselines.hpp"
#include "model/cpr_broadcast.hpp"
#include "model/labeling.hpp"
#include "model/path_multicast.hpp"
#include "model/planner.hpp"
#include "model/routing.hpp"
#include "model/tree_multicast.hpp"
#include "model/unicast_multicast.hpp"
#include "model/xy_path.hpp"
#include "sim/commands/command.hpp"
#include "sim/commands/common.hpp"
#include "sim/network_views.hpp"

namespace wormcast::sim::commands {
namespace {

using model::NodeId;
using model::Topology;

void print_section(const std::string& title) { fmt::print("\n== {} ==\n", title); }

void demo_routes(const Topology& t, const std::vector<std::pair<std::string, std::string>>& pairs,
                 const std::vector<std::pair<std::string, std::string>>& lines) {
  for (const std::string& name : model::routing_functions_for(t)) {
    if (name == "dimension-order-single-vc") continue;  // shown once, as the deadlock counterexample
    const auto routing = model::make_routing_function(name, t);
    fmt::print("\n{} ({} VC class{}):\n", name, routing->vc_class_count(), routing->vc_class_count() == 1 ? "" : "es");
    const auto& list = name == "cpr-line" ? lines : pairs;
    for (const auto& [from, to] : list) {
      const NodeId s = t.parse_node(from);
      fmt::print("  {}\n", render_worm(*routing, s, routing->injection_classes().front(), {t.parse_node(to)}));
    }
    fmt::print("  deadlock check: {}\n", render_deadlock_check(*routing));
  }
}

// One line per plan: what each algorithm does with a request from the papers' examples.
void demo_plans() {
  print_section("plans: the papers' worked examples (wormcast plan ... prints one in full)");
  struct Example {
    const char* topology;
    const char* algorithm;
    const char* source;
    std::vector<std::string> destinations;  // {"all"} for a broadcast
    model::PortModel ports;
    const char* vector;
  };
  const std::vector<Example> examples = {
      {"mesh:6x6",
       model::kTwoPortAlgorithm,
       "3,3",
       {"0,1", "3,1", "2,2", "5,2", "2,5"},
       model::PortModel::two_port(),
       "V4(b)"},
      {"mesh:6x6",
       model::kOnePortAlgorithm,
       "3,3",
       {"0,1", "3,1", "2,2", "5,2", "2,5"},
       model::PortModel::one_port(),
       "1.11"},
      {"torus:4x4",
       model::kUniformDualPathAlgorithm,
       "3,2",
       {"0,0", "1,0", "2,0", "1,1", "0,2", "2,2", "3,3", "2,3", "0,3"},
       model::PortModel::all_port(),
       "V9"},
      {"torus:4x4",
       model::kFixedDualPathAlgorithm,
       "3,2",
       {"0,0", "1,0", "2,0", "1,1", "0,2", "2,2", "3,3", "2,3", "0,3"},
       model::PortModel::all_port(),
       "V10"},
      {"mesh:10x10",
       model::kXyPathAlgorithm,
       "0,0",
       {"2,0", "3,1", "7,2", "7,5", "0,4", "1,3"},
       model::PortModel::all_port(),
       "V36"},
      {"mesh:10x10",
       model::kLinAlgorithm,
       "0,0",
       {"2,0", "3,1", "7,2", "7,5", "0,4", "1,3"},
       model::PortModel::all_port(),
       "V38"},
      {"mesh:8x8",
       model::kDiagAlgorithm,
       "0,0",
       {"0,2", "3,0", "4,0", "4,6", "6,6", "7,4"},
       model::PortModel::one_port(),
       "V25"},
      {"mesh:8x8",
       model::kDdsAlgorithm,
       "0,0",
       {"0,2", "3,0", "4,0", "4,6", "6,6", "7,4"},
       model::PortModel::one_port(),
       "V27"},
      {"mesh:8x8", model::kPcpAlgorithm, "0,0", {"all"}, model::PortModel::all_port(), "V18"},
      {"mesh:8x8", model::kRecursiveDoublingAlgorithm, "0,0", {"all"}, model::PortModel::one_port(), "V15"},
      {"mesh:4x4x4", model::kThreeDblAlgorithm, "1,1,1", {"all"}, model::PortModel::all_port(), "V20"},
      {"mesh:4x4x4", model::kThreeDbsAlgorithm, "1,1,1", {"all"}, model::PortModel::all_port(), "V22"},
  };
  fmt::print("{:<10} {:<18} {:<10} {:>3} {:>6} {:>6} {:>8} {:>8}  {}\n", "network", "algorithm", "source", "K", "worms",
             "steps", "traffic", "latency", "vector");
  for (const Example& e : examples) {
    const Topology t = Topology::parse(e.topology);
    const NodeId source = t.parse_node(e.source);
    const model::Plan p = model::plan(
        model::make_request(t, e.algorithm, source, parse_destinations(t, source, e.destinations, 1), 20, e.ports));
    fmt::print("{:<10} {:<18} {:<10} {:>3} {:>6} {:>6} {:>8} {:>8}  {}\n", e.topology, e.algorithm, e.source,
               p.request.destinations.size(), p.worms.size(), p.metrics.steps, p.metrics.traffic, p.metrics.latency,
               e.vector);
  }
  fmt::print("(L = 20 flits; latency in cycles with alpha = gamma = mu = 227, beta = router delay = 1)\n");
}

void run_demo() {
  fmt::print("wormcast model demo: labelings, routes and deadlock proofs of the golden model.\n");
  fmt::print("Ports: +X/-X/+Y/-Y(/+Z/-Z) on meshes and tori; gi on star graphs. See docs/model.md.\n");

  const Topology mesh = Topology::parse("mesh:8x8");
  print_section("mesh:8x8, Hamiltonian path labeling (row snake, [1])");
  fmt::print("{}", render_labeling(model::HamiltonianLabeling::path(mesh)));
  demo_routes(mesh, {{"1,2", "6,5"}, {"7,7", "0,0"}, {"6,1", "2,6"}}, {{"3,0", "3,7"}, {"7,4", "0,4"}});

  const Topology torus = Topology::parse("torus:4x4");
  print_section("torus:4x4, Hamiltonian cycle labeling ([2]; boundary links = y-wraps)");
  fmt::print("{}", render_labeling(model::HamiltonianLabeling::cycle(torus)));
  demo_routes(torus, {{"3,2", "0,0"}, {"0,0", "3,3"}, {"1,3", "2,0"}}, {});
  const model::HamiltonianCycleRouting cycle(torus);
  fmt::print(
      "\nVector V9, uniform dual-path from (3,2) (label 11): the high worm visits labels 12,13,15,0,1 and\n"
      "crosses the boundary once (p -> q); the low worm visits 10,8,6,2 (* marks a destination):\n");
  const auto by_labels = [&](std::initializer_list<int> labels) {
    std::vector<NodeId> nodes;
    for (int l : labels) nodes.push_back(cycle.labeling().node(l));
    return nodes;
  };
  const NodeId source = torus.parse_node("3,2");
  fmt::print("  high: {}\n",
             render_worm(cycle, source, model::HamiltonianCycleRouting::kPHigh, by_labels({12, 13, 15, 0, 1})));
  fmt::print("  low:  {}\n",
             render_worm(cycle, source, model::HamiltonianCycleRouting::kPLow, by_labels({10, 8, 6, 2})));
  fmt::print("\nWithout dateline classes, XY routing on the torus deadlocks; the checker finds the cycle:\n  {}\n",
             render_deadlock_check(
                 model::DimensionOrderRouting(torus, model::DimensionOrderRouting::TorusClasses::kSingleClass)));

  const Topology mesh3 = Topology::parse("mesh:4x4x4");
  print_section("mesh:4x4x4, layer-snake Hamiltonian path labeling");
  fmt::print("{}", render_labeling(model::HamiltonianLabeling::path(mesh3)));
  demo_routes(mesh3, {{"1,1,0", "1,1,3"}, {"0,0,0", "3,3,3"}}, {{"1,1,1", "1,1,3"}});

  const Topology star = Topology::parse("star:4");
  print_section("star:4, Hamiltonian cycle labeling ([2], vector V11)");
  fmt::print("{}", render_labeling(model::HamiltonianLabeling::cycle(star)));
  demo_routes(star, {{"1432", "2413"}, {"1234", "4321"}}, {});

  demo_plans();
}

}  // namespace

Command add_demo(CLI::App& app) {
  CLI::App* command = app.add_subcommand("demo", "Tour: labelings, routes and deadlock proofs on the default networks");
  return {command, [] {
            run_demo();
            return ExitCode::kSuccess;
          }};
}

}  // namespace wormcast::sim::commands
