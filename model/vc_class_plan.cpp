// SPDX-License-Identifier: Apache-2.0
#include "model/vc_class_plan.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "model/errors.hpp"
#include "model/planner.hpp"

namespace wormcast::model {

std::vector<RoutingFamily> routing_families() {
  using F = RoutingFamily;
  return {F::kHamiltonianPath, F::kHamiltonianCycle, F::kDimensionOrder, F::kCprLine,
          F::kPcpBranch,       F::kXyPathRoute,      F::kEdnYxLeg,       F::kMultiPathPrefix};
}

const char* to_string(RoutingFamily family) {
  switch (family) {
    case RoutingFamily::kHamiltonianPath:
      return "hamiltonian-path";
    case RoutingFamily::kHamiltonianCycle:
      return "hamiltonian-cycle";
    case RoutingFamily::kDimensionOrder:
      return "dimension-order";
    case RoutingFamily::kCprLine:
      return "cpr-line";
    case RoutingFamily::kPcpBranch:
      return "pcp-branch";
    case RoutingFamily::kXyPathRoute:
      return "xy-path-route";
    case RoutingFamily::kEdnYxLeg:
      return "edn-yx-leg";
    case RoutingFamily::kMultiPathPrefix:
      return "multi-path-prefix";
  }
  return "?";
}

std::vector<std::string> family_classes(RoutingFamily family) {
  switch (family) {
    case RoutingFamily::kHamiltonianPath:
    case RoutingFamily::kMultiPathPrefix:
      return {"high", "low"};
    case RoutingFamily::kHamiltonianCycle:
      return {"ph", "qh", "pl", "ql"};
    case RoutingFamily::kDimensionOrder:
      return {"wrap-ahead", "no-wrap"};
    case RoutingFamily::kCprLine:
      return {"line"};
    case RoutingFamily::kPcpBranch:
      return {"plus-x", "minus-x"};
    case RoutingFamily::kXyPathRoute:
      return {"x-path-up", "x-path-down", "y-path-right", "y-path-left"};
    case RoutingFamily::kEdnYxLeg:
      return {"route"};
  }
  return {};
}

std::vector<std::string> firmware_algorithms(const Topology& topology) {
  std::vector<std::string> names;
  for (const AlgorithmInfo& a : algorithms()) {
    if (a.firmware_runs_on(topology)) names.push_back(a.name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<std::string> family_algorithms(RoutingFamily family) {
  std::vector<std::string> names;
  for (const AlgorithmInfo& a : algorithms()) {
    if (std::find(a.routing_families.begin(), a.routing_families.end(), family) != a.routing_families.end()) {
      names.push_back(a.name);
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

const FamilyVcs* VcClassPlan::find(RoutingFamily family) const {
  for (const FamilyVcs& f : families) {
    if (f.family == family) return &f;
  }
  return nullptr;
}

int VcClassPlan::vc(RoutingFamily family, int family_class) const {
  const FamilyVcs* f = find(family);
  const std::vector<std::string> classes = family_classes(family);
  if (f == nullptr) {
    throw RoutingError(fmt::format("VC-class plan '{}' has no family {}: no algorithm on this topology emits it", name,
                                   to_string(family)));
  }
  if (family_class < 0 || family_class >= static_cast<int>(f->vc_of_class.size())) {
    throw RoutingError(fmt::format("{} has no class {}; valid: 0..{} ({})", to_string(family), family_class,
                                   classes.size() - 1, fmt::join(classes, ", ")));
  }
  return f->vc_of_class[static_cast<std::size_t>(family_class)];
}

std::vector<std::string> vc_class_plan_names() { return {"shipped", "single-class"}; }

std::vector<int> family_wire_classes(RoutingFamily family) {
  switch (family) {
    case RoutingFamily::kHamiltonianPath:
    case RoutingFamily::kMultiPathPrefix:
      return {0, 1};
    case RoutingFamily::kHamiltonianCycle:
      return {0, 1, 2, 3};
    case RoutingFamily::kDimensionOrder:
      return {0, 1};
    case RoutingFamily::kCprLine:
      return {0};
    case RoutingFamily::kPcpBranch:
      return {3, 2};
    case RoutingFamily::kXyPathRoute:
      return {0, 1, 2, 3};
    case RoutingFamily::kEdnYxLeg:
      return {1};
  }
  return {};
}

int router_vc_count(const Topology& topology) { return topology.port_count() == 4 ? 4 : 2; }

VcClassPlan make_vc_class_plan(std::string name, const Topology& topology, const std::vector<FamilyVcEntry>& table) {
  VcClassPlan plan{std::move(name), 0, {}};
  const std::vector<std::string> running = firmware_algorithms(topology);
  for (RoutingFamily family : routing_families()) {
    std::vector<std::string> users;
    for (const std::string& a : family_algorithms(family)) {
      if (std::find(running.begin(), running.end(), a) != running.end()) users.push_back(a);
    }
    if (users.empty()) continue;
    const auto entry =
        std::find_if(table.begin(), table.end(), [family](const FamilyVcEntry& e) { return e.family == family; });
    const std::size_t classes = family_classes(family).size();
    if (entry == table.end() || entry->vc_of_class.size() != classes) {
      throw SpecError(fmt::format("VC-class plan '{}' needs {} VCs for {} ({}) on {}", plan.name, classes,
                                  to_string(family), fmt::join(family_classes(family), ", "), topology.spec()));
    }
    for (std::size_t c = 0; c < classes; ++c) {
      const int vc = entry->vc_of_class[c];
      if (vc < 0)
        throw SpecError(
            fmt::format("VC-class plan '{}' gives {} VC {}; VCs are 0 or more", plan.name, to_string(family), vc));
      // Meshes have no dateline: dimension order's no-wrap class exists on tori only.
      if (family == RoutingFamily::kDimensionOrder && c == 1 && !topology.is_torus()) continue;
      plan.vc_count = std::max(plan.vc_count, vc + 1);
    }
    plan.families.push_back(FamilyVcs{family, entry->vc_of_class, std::move(users)});
  }
  return plan;
}

VcClassPlan vc_class_plan(std::string_view name, const Topology& topology) {
  using F = RoutingFamily;
  if (name == "shipped") {
    // docs/rtl.md, "VC-class plan": VC = head class mod the router's VC count, for every family.
    const int vcs = router_vc_count(topology);
    std::vector<FamilyVcEntry> table;
    for (RoutingFamily family : routing_families()) {
      std::vector<int> vc_of_class = family_wire_classes(family);
      for (int& c : vc_of_class) c %= vcs;
      table.push_back({family, std::move(vc_of_class)});
    }
    return make_vc_class_plan(std::string(name), topology, table);
  }
  if (name == "single-class") {
    // The design before the plan (until Nov 2026): class bit 0 named the VC, the Hamiltonian path
    // wrote class 0 in both networks, xy-path class 0 on every path, multi-path's prefix class 0;
    // p -> 0, q -> 1; the torus dateline class c -> VC c; spawned branches VC 1; edn's YX legs class
    // 1. Cyclic on 2D meshes (docs/rtl.md); kept as the evidence.
    return make_vc_class_plan(std::string(name), topology,
                              {{F::kHamiltonianPath, {0, 0}},
                               {F::kHamiltonianCycle, {0, 1, 0, 1}},
                               {F::kDimensionOrder, {0, 1}},
                               {F::kCprLine, {0}},
                               {F::kPcpBranch, {1, 1}},
                               {F::kXyPathRoute, {0, 0, 0, 0}},
                               {F::kEdnYxLeg, {1}},
                               {F::kMultiPathPrefix, {0, 0}}});
  }
  throw SpecError(
      fmt::format("VC-class plan '{}' is unknown; valid: {}", name, fmt::join(vc_class_plan_names(), ", ")));
}

}  // namespace wormcast::model
