// SPDX-License-Identifier: Apache-2.0
// wormcast deadlock: a routing function's channel dependency graph, or with --mixed the whole
// design's (every routing family the firmware emits, on the VCs of a VC-class plan), and the cycle
// if it has one (exit 1: the deadlock-freedom check failed).
#include <fmt/format.h>

#include <memory>

#include "model/channel_dependency_graph.hpp"
#include "model/design_deadlock.hpp"
#include "model/routing.hpp"
#include "model/vc_class_plan.hpp"
#include "sim/commands/command.hpp"
#include "sim/commands/common.hpp"
#include "sim/network_views.hpp"

namespace wormcast::sim::commands {
namespace {

// {"routing", "topology", "acyclic", "vc_classes", "cycle": [{"node", "port", "vc"}, ...]} (the
// cycle's channels in dependency order, empty when acyclic).
nlohmann::json deadlock_to_json(const model::RoutingFunction& routing,
                                const std::optional<std::vector<model::VirtualChannel>>& cycle) {
  const model::Topology& t = routing.topology();
  nlohmann::json channels = nlohmann::json::array();
  for (const model::VirtualChannel& c : cycle.value_or(std::vector<model::VirtualChannel>{})) {
    channels.push_back({{"node", t.node_name(c.node)}, {"port", t.port_name(c.port)}, {"vc", c.vc}});
  }
  return {{"routing", routing.name()},
          {"topology", t.spec()},
          {"acyclic", !cycle.has_value()},
          {"vc_classes", routing.vc_class_count()},
          {"cycle", channels}};
}

// The same shape for the whole design: routing "mixed", the plan's name, its VC count, and per cycle
// channel the families that add its dependency to the next channel.
nlohmann::json design_to_json(const model::Topology& t, const model::VcClassPlan& plan,
                              const model::DesignDeadlockCheck& check) {
  nlohmann::json channels = nlohmann::json::array();
  const auto cycle = check.cycle.value_or(std::vector<model::VirtualChannel>{});
  for (std::size_t i = 0; i < cycle.size(); ++i) {
    nlohmann::json families = nlohmann::json::array();
    for (model::RoutingFamily f : check.cycle_families[i]) families.push_back(model::to_string(f));
    channels.push_back({{"node", t.node_name(cycle[i].node)},
                        {"port", t.port_name(cycle[i].port)},
                        {"vc", cycle[i].vc},
                        {"families", families}});
  }
  nlohmann::json vcs = nlohmann::json::object();
  for (const model::FamilyVcs& f : plan.families) vcs[model::to_string(f.family)] = f.vc_of_class;
  return {
      {"routing", "mixed"},          {"plan", plan.name}, {"topology", t.spec()}, {"acyclic", !check.cycle.has_value()},
      {"vc_classes", plan.vc_count}, {"family_vcs", vcs}, {"cycle", channels}};
}

std::string render_design_check(const model::Topology& t, const model::VcClassPlan& plan,
                                const model::DesignDeadlockCheck& check) {
  std::string out = fmt::format("mixed ({} plan, {} VCs) on {}:\n", plan.name, plan.vc_count, t.spec());
  for (const model::FamilyVcs& f : plan.families) {
    const std::vector<std::string> classes = model::family_classes(f.family);
    std::vector<std::string> mapping;
    // Meshes have no dateline: dimension order's no-wrap class exists on tori only.
    const std::size_t shown =
        f.family == model::RoutingFamily::kDimensionOrder && !t.is_torus() ? std::size_t{1} : classes.size();
    for (std::size_t c = 0; c < shown; ++c) {
      mapping.push_back(fmt::format("{}->VC{}", classes[c], f.vc_of_class[c]));
    }
    out += fmt::format("  {:<18} {:<58} ({})\n", model::to_string(f.family), fmt::format("{}", fmt::join(mapping, " ")),
                       fmt::join(f.algorithms, ", "));
  }
  out += fmt::format("{} virtual channels in use, {} dependencies", check.used_channel_count, check.dependency_count);
  if (!check.cycle) return out + "; acyclic, so deadlock-free\n";
  return out + fmt::format("; CYCLIC ({} channels), each dependency with the families that add it:\n{}",
                           check.cycle->size(), check.cycle_text);
}

// The largest network `deadlock` checks. Both checks walk the route of every source-destination
// pair (the design check also every tree), N^2 routes of up to N hops: 256 nodes take seconds
// (mesh:16x16, torus:16x16, star:5), 1024 nodes from 25 s (dimension order) to many minutes (the
// Hamiltonian routings, the design check), star:6 (720) minutes (docs/architecture.md, "Sizes each command handles").
constexpr int kMaxDeadlockNodes = 256;

model::Topology checked_topology(const std::string& spec) {
  model::Topology t = model::Topology::parse(spec);
  if (t.node_count() > kMaxDeadlockNodes) {
    throw CommandError(fmt::format(
        "{} has {} nodes; deadlock checks networks of at most {} (e.g. mesh:16x16, torus:16x16, star:5): it walks "
        "the route of every source-destination pair, which takes minutes beyond that",
        t.spec(), t.node_count(), kMaxDeadlockNodes));
  }
  return t;
}

}  // namespace

Command add_deadlock(CLI::App& app) {
  struct Options {
    std::string topology;
    std::string routing;
    bool mixed = false;
    std::string plan = "shipped";
    bool json = false;
  };
  auto o = std::make_shared<Options>();
  CLI::App* command = app.add_subcommand(
      "deadlock", "Build the channel dependency graph and look for a cycle (exit 1 when there is one)");
  command->add_option("-t,--topology", o->topology, "topology spec")->required();
  CLI::Option* routing = command->add_option("-r,--routing", o->routing,
                                             fmt::format("{}", fmt::join(model::routing_function_names(), ", ")));
  CLI::Option* mixed = command->add_flag(
      "--mixed", o->mixed, "the whole design: every routing family the firmware emits, on the VCs of --plan");
  routing->excludes(mixed);
  command
      ->add_option("--plan", o->plan,
                   fmt::format("with --mixed, the VC-class plan: {}", fmt::join(model::vc_class_plan_names(), ", ")))
      ->needs(mixed)
      ->capture_default_str();
  command->add_flag(
      "--json", o->json,
      "print {routing, topology, acyclic, vc_classes, cycle} as JSON (with --mixed also plan, family_vcs)");
  return {command, [o] {
            if (o->mixed) {
              const model::Topology t = checked_topology(o->topology);
              const model::VcClassPlan plan = model::vc_class_plan(o->plan, t);
              const model::DesignDeadlockCheck check = model::check_design_deadlock(t, plan);
              if (o->json) {
                print_json(design_to_json(t, plan, check));
              } else {
                fmt::print("{}", render_design_check(t, plan, check));
              }
              return check.cycle ? ExitCode::kCheckFailed : ExitCode::kSuccess;
            }
            if (o->routing.empty()) throw CommandError("deadlock needs --routing NAME or --mixed");
            const auto routing = model::make_routing_function(o->routing, checked_topology(o->topology));
            const auto cycle = model::ChannelDependencyGraph::build(*routing).find_cycle();
            if (o->json) {
              print_json(deadlock_to_json(*routing, cycle));
            } else {
              fmt::print("{}\n", render_deadlock_check(*routing));
            }
            return cycle ? ExitCode::kCheckFailed : ExitCode::kSuccess;
          }};
}

}  // namespace wormcast::sim::commands
