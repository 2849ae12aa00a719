// SPDX-License-Identifier: Apache-2.0
// wormcast labeling: a topology's Hamiltonian labeling, drawn as a grid (or listed, on star graphs).
#include "model/labeling.hpp"

#include <fmt/format.h>

#include <memory>

#include "sim/commands/command.hpp"
#include "sim/commands/common.hpp"
#include "sim/network_views.hpp"

namespace wormcast::sim::commands {
namespace {

model::HamiltonianLabeling labeling_for(const model::Topology& t, const std::string& kind) {
  if (kind == "path") return model::HamiltonianLabeling::path(t);
  if (kind == "cycle") return model::HamiltonianLabeling::cycle(t);
  // auto: the cycle where one exists (star graphs, 2D tori with even rows), else the path.
  if (t.is_star() || (t.is_torus() && t.dimensions() == 2 && t.size(1) % 2 == 0)) {
    return model::HamiltonianLabeling::cycle(t);
  }
  return model::HamiltonianLabeling::path(t);
}

// {"topology", "kind": "path" | "cycle", "nodes": node names in label order}.
nlohmann::json labeling_to_json(const model::HamiltonianLabeling& labeling) {
  const model::Topology& t = labeling.topology();
  nlohmann::json nodes = nlohmann::json::array();
  for (int label = 0; label < labeling.size(); ++label) nodes.push_back(t.node_name(labeling.node(label)));
  return {{"topology", t.spec()}, {"kind", labeling.is_cycle() ? "cycle" : "path"}, {"nodes", nodes}};
}

}  // namespace

Command add_labeling(CLI::App& app) {
  struct Options {
    std::string topology = "mesh:8x8";
    std::string kind = "auto";
    bool json = false;
  };
  auto o = std::make_shared<Options>();
  CLI::App* command = app.add_subcommand("labeling", "Draw a topology's Hamiltonian labeling");
  command->add_option("-t,--topology", o->topology, "mesh:8x8, torus:4x4, mesh:4x4x4, torus:5x5x5, star:4")
      ->capture_default_str();
  command->add_option("--kind", o->kind, "path, cycle or auto")
      ->check(CLI::IsMember({"auto", "path", "cycle"}))
      ->capture_default_str();
  command->add_flag("--json", o->json, "print {topology, kind, nodes: the node of each label} as JSON");
  return {command, [o] {
            const model::HamiltonianLabeling labeling = labeling_for(model::Topology::parse(o->topology), o->kind);
            if (o->json) {
              print_json(labeling_to_json(labeling));
            } else {
              fmt::print("{}", render_labeling(labeling));
            }
            return ExitCode::kSuccess;
          }};
}

}  // namespace wormcast::sim::commands
