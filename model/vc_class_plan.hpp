// SPDX-License-Identifier: Apache-2.0
// The design's VC usage as data: which router VC each routing family's classes occupy.
//
// The firmware emits worms of eight routing families (docs/rtl.md, "VC-class plan"). Each family
// distinguishes a few classes of its own (the channel network of a Hamiltonian-path worm, the p/q
// and high/low class of a Hamiltonian-cycle worm, the dateline class of a dimension-order worm on a
// torus, ...); a VcClassPlan says which router VC each of those classes occupies on a topology. Two
// plans exist: "shipped", what the RTL and firmware do (each class is a value of the head's
// vc_class field, and a router with NumVcs VCs puts class c on VC c mod NumVcs), which the
// whole-design channel dependency graph proves deadlock-free (model/design_deadlock.hpp); and
// "single-class", the design before the plan (the Hamiltonian path's both networks and every
// xy-path worm on VC 0), kept as the evidence that mixing families on one VC deadlocks.
//
// Which algorithms run on which topology is the firmware's knowledge (the `check` handlers of
// firmware/algorithm_table.hpp); the model may not include the firmware, so each algorithm's
// descriptor (model/planner.hpp) restates it, firmware_algorithms() reads it, and
// verif/model/vc_class_plan_firmware_test.cpp keeps the two equal.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "model/routing_family.hpp"
#include "model/topology.hpp"

namespace wormcast::model {

// Every family, in the order of model/routing_family.hpp.
std::vector<RoutingFamily> routing_families();
// `hamiltonian-path`, `pcp-branch`, ...
const char* to_string(RoutingFamily family);
// The classes the family tells apart on one channel, by name, indexed by class:
//   hamiltonian-path, multi-path-prefix: high, low (the channel network the worm travels in)
//   hamiltonian-cycle: ph, qh, pl, ql (HamiltonianCycleRouting::Class)
//   dimension-order: wrap-ahead, no-wrap (the torus dateline classes; meshes use wrap-ahead only)
//   xy-path-route: x-path-up, x-path-down, y-path-right, y-path-left: the partition path and the one
//     direction it advances in across its rows (columns), set by the source's corner
//   the others: one class each
std::vector<std::string> family_classes(RoutingFamily family);

// The algorithms the firmware runs on `topology` (its algorithm table's checks), in name order.
std::vector<std::string> firmware_algorithms(const Topology& topology);
// The algorithms that emit worms of `family`, in name order.
std::vector<std::string> family_algorithms(RoutingFamily family);

struct FamilyVcs {
  RoutingFamily family = RoutingFamily::kHamiltonianPath;
  // The router VC of each of the family's classes (index: family_classes()).
  std::vector<int> vc_of_class;
  // The algorithms on this topology that emit the family.
  std::vector<std::string> algorithms;
  bool operator==(const FamilyVcs&) const = default;
};

struct VcClassPlan {
  std::string name;
  // Router VCs per network channel the plan needs: one more than the highest VC it gives.
  int vc_count = 0;
  // The families some algorithm on the topology emits, in routing_families() order.
  std::vector<FamilyVcs> families;
  bool operator==(const VcClassPlan&) const = default;

  // nullptr when no algorithm on the topology emits `family`.
  const FamilyVcs* find(RoutingFamily family) const;
  // The router VC of `family`'s class `family_class`; throws RoutingError naming the family and its
  // valid classes when the plan has no such family or class.
  int vc(RoutingFamily family, int family_class) const;
};

// "shipped", "single-class".
std::vector<std::string> vc_class_plan_names();
// The head class (vc_class field value) the firmware or a router writes for each of the family's
// classes (index: family_classes()): the Hamiltonian path's network high 0 / low 1, the
// Hamiltonian cycle's ph/qh/pl/ql 0..3, the dateline class, CPR lines 0, spawned branches +X 3 and -X 2,
// xy-path's paths 0..3, edn's YX legs 1, multi-path's prefix its row worm's network 0 / 1.
std::vector<int> family_wire_classes(RoutingFamily family);
// VCs per port of the routers the RTL runs `topology` on (docs/rtl.md "VC-class plan"): 4 on
// routers with four network ports (2D meshes and tori, star:5), 2 on every other.
int router_vc_count(const Topology& topology);
// A plan from its class -> VC table for every family the firmware emits on `topology`; throws
// SpecError naming a family without an entry or an entry of the wrong size.
struct FamilyVcEntry {
  RoutingFamily family;
  std::vector<int> vc_of_class;
};
VcClassPlan make_vc_class_plan(std::string name, const Topology& topology, const std::vector<FamilyVcEntry>& table);
// The named plan on `topology`; throws SpecError for an unknown name, listing the valid ones.
VcClassPlan vc_class_plan(std::string_view name, const Topology& topology);

}  // namespace wormcast::model
