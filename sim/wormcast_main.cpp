// The wormcast command line. Today it shows the model's network layer: labelings, routes and
// deadlock proofs; later issues add `plan`, `run`, `compare` and `sweep`.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <string>
#include <vector>

#include "model/errors.hpp"
#include "model/routing.hpp"
#include "sim/network_views.hpp"

namespace {

using namespace wormcast;
using model::NodeId;
using model::Topology;

model::HamiltonianLabeling labeling_for(const Topology& t, const std::string& kind) {
  if (kind == "path") return model::HamiltonianLabeling::path(t);
  if (kind == "cycle") return model::HamiltonianLabeling::cycle(t);
  // auto: the cycle where one exists (star graphs, 2D tori with even rows), else the path.
  if (t.is_star() || (t.is_torus() && t.dimensions() == 2 && t.size(1) % 2 == 0)) {
    return model::HamiltonianLabeling::cycle(t);
  }
  return model::HamiltonianLabeling::path(t);
}

model::VcClass parse_class(const model::RoutingFunction& routing, const std::string& text) {
  if (text.empty()) return routing.injection_classes().front();
  for (model::VcClass vc = 0; vc < routing.vc_class_count(); ++vc) {
    if (text == routing.vc_class_name(vc) || text == std::to_string(vc)) return vc;
  }
  std::vector<std::string> names;
  for (model::VcClass vc = 0; vc < routing.vc_class_count(); ++vc) names.push_back(routing.vc_class_name(vc));
  throw model::SpecError(
      fmt::format("class '{}' does not exist for {}; valid: {}", text, routing.name(), fmt::join(names, ", ")));
}

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
      fmt::print("  {}\n", sim::render_worm(*routing, s, routing->injection_classes().front(), {t.parse_node(to)}));
    }
    fmt::print("  deadlock check: {}\n", sim::render_deadlock_check(*routing));
  }
}

void run_demo() {
  fmt::print("wormcast model demo: labelings, routes and deadlock proofs of the golden model.\n");
  fmt::print("Ports: +X/-X/+Y/-Y(/+Z/-Z) on meshes and tori; gi on star graphs. See docs/model.md.\n");

  const Topology mesh = Topology::parse("mesh:8x8");
  print_section("mesh:8x8, Hamiltonian path labeling (row snake, spec 1.2)");
  fmt::print("{}", sim::render_labeling(model::HamiltonianLabeling::path(mesh)));
  demo_routes(mesh, {{"1,2", "6,5"}, {"7,7", "0,0"}, {"6,1", "2,6"}}, {{"3,0", "3,7"}, {"7,4", "0,4"}});

  const Topology torus = Topology::parse("torus:4x4");
  print_section("torus:4x4, Hamiltonian cycle labeling (spec 2.8; boundary links = y-wraps)");
  fmt::print("{}", sim::render_labeling(model::HamiltonianLabeling::cycle(torus)));
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
             sim::render_worm(cycle, source, model::HamiltonianCycleRouting::kPHigh, by_labels({12, 13, 15, 0, 1})));
  fmt::print("  low:  {}\n",
             sim::render_worm(cycle, source, model::HamiltonianCycleRouting::kPLow, by_labels({10, 8, 6, 2})));
  fmt::print("\nWithout dateline classes, XY routing on the torus deadlocks; the checker finds the cycle:\n  {}\n",
             sim::render_deadlock_check(
                 model::DimensionOrderRouting(torus, model::DimensionOrderRouting::TorusClasses::kSingleClass)));

  const Topology mesh3 = Topology::parse("mesh:4x4x4");
  print_section("mesh:4x4x4, layer-snake Hamiltonian path labeling");
  fmt::print("{}", sim::render_labeling(model::HamiltonianLabeling::path(mesh3)));
  demo_routes(mesh3, {{"1,1,0", "1,1,3"}, {"0,0,0", "3,3,3"}}, {{"1,1,1", "1,1,3"}});

  const Topology star = Topology::parse("star:4");
  print_section("star:4, Hamiltonian cycle labeling (spec 2.9, vector V11)");
  fmt::print("{}", sim::render_labeling(model::HamiltonianLabeling::cycle(star)));
  demo_routes(star, {{"1432", "2413"}, {"1234", "4321"}}, {});
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"wormcast: multicast and broadcast on wormhole-routed networks (model network layer)"};
  app.require_subcommand(1);

  std::string topology_spec = "mesh:8x8";
  std::string labeling_kind = "auto";
  auto* labeling_cmd = app.add_subcommand("labeling", "Draw a topology's Hamiltonian labeling");
  labeling_cmd->add_option("-t,--topology", topology_spec, "mesh:8x8, torus:4x4, mesh:4x4x4, torus:5x5x5, star:4");
  labeling_cmd->add_option("--kind", labeling_kind, "path, cycle or auto")
      ->check(CLI::IsMember({"auto", "path", "cycle"}));

  std::string routing_name = "hamiltonian-path";
  std::string source_text;
  std::vector<std::string> dest_texts;
  std::string class_text;
  auto* route_cmd = app.add_subcommand("route", "Trace a worm through one or more destinations in order");
  route_cmd->add_option("-t,--topology", topology_spec, "topology spec")->required();
  route_cmd->add_option("-r,--routing", routing_name,
                        fmt::format("{}", fmt::join(model::routing_function_names(), ", ")));
  route_cmd->add_option("-s,--source", source_text, "source node (3,2 / 1,1,1 / 1432)")->required();
  route_cmd->add_option("-d,--dests", dest_texts, "destinations, visited in order")->required();
  route_cmd->add_option("-c,--class", class_text, "VC class to inject in (e.g. ph or pl); default: the first");

  auto* deadlock_cmd = app.add_subcommand("deadlock", "Build the channel dependency graph and look for a cycle");
  deadlock_cmd->add_option("-t,--topology", topology_spec, "topology spec")->required();
  deadlock_cmd->add_option("-r,--routing", routing_name, "routing function")->required();

  app.add_subcommand("demo", "Tour: labelings, routes and deadlock proofs on the default networks");

  CLI11_PARSE(app, argc, argv);
  try {
    if (app.got_subcommand("demo")) {
      run_demo();
    } else if (app.got_subcommand(labeling_cmd)) {
      const Topology t = Topology::parse(topology_spec);
      fmt::print("{}", sim::render_labeling(labeling_for(t, labeling_kind)));
    } else if (app.got_subcommand(route_cmd)) {
      const Topology t = Topology::parse(topology_spec);
      const auto routing = model::make_routing_function(routing_name, t);
      std::vector<NodeId> stops;
      for (const std::string& text : dest_texts) stops.push_back(t.parse_node(text));
      fmt::print("{}\n",
                 sim::render_worm(*routing, t.parse_node(source_text), parse_class(*routing, class_text), stops));
    } else if (app.got_subcommand(deadlock_cmd)) {
      const Topology t = Topology::parse(topology_spec);
      const std::string result = sim::render_deadlock_check(*model::make_routing_function(routing_name, t));
      fmt::print("{}\n", result);
      if (result.find("CYCLIC") != std::string::npos) return 3;
    }
  } catch (const model::ModelError& error) {
    fmt::print(stderr, "wormcast: {}\n", error.what());
    return 2;
  }
  return 0;
}
