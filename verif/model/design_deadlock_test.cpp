// SPDX-License-Identifier: Apache-2.0
// The whole design's channel dependency graph under a VC-class plan (model/design_deadlock.hpp,
// docs/rtl.md "VC-class plan").
#include "model/design_deadlock.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <tuple>

#include "model/broadcast_baselines.hpp"
#include "model/cpr_broadcast.hpp"
#include "model/errors.hpp"
#include "model/path_multicast.hpp"
#include "model/planner.hpp"
#include "model/tree_multicast.hpp"
#include "model/vc_class_plan.hpp"
#include "model/xy_path.hpp"

namespace wormcast::model {
namespace {

using F = RoutingFamily;

bool contains(const std::vector<RoutingFamily>& families, RoutingFamily f) {
  return std::find(families.begin(), families.end(), f) != families.end();
}

// The shipped table with one family's classes replaced.
VcClassPlan shipped_with(const Topology& t, RoutingFamily family, std::vector<int> vcs) {
  std::vector<FamilyVcEntry> table;
  for (const FamilyVcs& f : vc_class_plan("shipped", t).families) {
    table.push_back({f.family, f.family == family ? vcs : f.vc_of_class});
  }
  return make_vc_class_plan("shipped-variant", t, table);
}

TEST(DesignDeadlock, SingleClassPlanOnEightByEightMeshIsCyclicAndEveryCycleEdgeNamesFamiliesThatAddIt) {
  const Topology t = Topology::parse("mesh:8x8");
  const VcClassPlan plan = vc_class_plan("single-class", t);
  EXPECT_EQ(plan.vc_count, 2);
  const DesignDeadlockCheck check = check_design_deadlock(t, plan);
  ASSERT_TRUE(check.cycle.has_value());
  const std::vector<VirtualChannel>& cycle = *check.cycle;
  ASSERT_EQ(check.cycle_families.size(), cycle.size());
  // Each edge's families really add that dependency.
  std::set<std::tuple<int, int, int, int, int, int, RoutingFamily>> added;
  for (const DesignDependency& d : design_dependencies(t, plan)) {
    added.insert({d.from.node, d.from.port, d.from.vc, d.to.node, d.to.port, d.to.vc, d.family});
  }
  for (std::size_t i = 0; i < cycle.size(); ++i) {
    const VirtualChannel& a = cycle[i];
    const VirtualChannel& b = cycle[(i + 1) % cycle.size()];
    ASSERT_FALSE(check.cycle_families[i].empty());
    for (RoutingFamily f : check.cycle_families[i]) {
      EXPECT_TRUE(added.count({a.node, a.port, a.vc, b.node, b.port, b.vc, f})) << to_string(f) << " edge " << i;
    }
  }
  EXPECT_TRUE(contains(families_in_cycle(check), F::kHamiltonianPath)) << check.cycle_text;
}

// The claim: Hamiltonian-path and dimension-order worms on VC 0 together close a cycle on a
// mesh, though each family alone is acyclic.
TEST(DesignDeadlock, SingleClassPlanHamiltonianPathWithDimensionOrderOnVcZeroIsCyclicEachAloneIsNot) {
  const Topology t = Topology::parse("mesh:8x8");
  const VcClassPlan plan = vc_class_plan("single-class", t);
  EXPECT_FALSE(check_design_deadlock(t, plan, {F::kHamiltonianPath}).cycle);
  EXPECT_FALSE(check_design_deadlock(t, plan, {F::kDimensionOrder}).cycle);
  const DesignDeadlockCheck both = check_design_deadlock(t, plan, {F::kHamiltonianPath, F::kDimensionOrder});
  ASSERT_TRUE(both.cycle.has_value());
  EXPECT_EQ(families_in_cycle(both), (std::vector<RoutingFamily>{F::kHamiltonianPath, F::kDimensionOrder}))
      << both.cycle_text;
}

// Today's xy-path worms from different corners close a cycle on VC 0 by themselves: the column
// path from a left corner turns -Y -> +X where the one from a right corner turns +X -> +Y, ...
TEST(DesignDeadlock, SingleClassPlanXyPathRoutesFromAllCornersAreCyclicByThemselves) {
  const Topology t = Topology::parse("mesh:8x8");
  const DesignDeadlockCheck check = check_design_deadlock(t, vc_class_plan("single-class", t), {F::kXyPathRoute});
  ASSERT_TRUE(check.cycle.has_value());
  EXPECT_EQ(families_in_cycle(check), std::vector<RoutingFamily>{F::kXyPathRoute});
  for (const VirtualChannel& c : *check.cycle) EXPECT_EQ(c.vc, 0);
}

// Issue 12 item 1: the plan the RTL and firmware ship (head class mod the router's VC count) is
// deadlock-free on every topology the RTL runs.
TEST(DesignDeadlock, ShippedPlanIsAcyclicOnEveryTopologyTheRtlRuns) {
  for (const char* spec :
       {"mesh:8x8", "mesh:4x4", "mesh:6x5", "mesh:4x4x4", "torus:4x4", "torus:4x4x4", "star:4", "star:5"}) {
    const Topology t = Topology::parse(spec);
    const DesignDeadlockCheck check = check_design_deadlock(t, vc_class_plan("shipped", t));
    EXPECT_FALSE(check.cycle.has_value()) << spec << ":\n" << check.cycle_text;
    EXPECT_GT(check.dependency_count, 0u) << spec;
  }
}

// Four VCs on the four-port routers (2D meshes and tori, star:5), two on the others; on 2D meshes
// xy-path's column paths use all four.
TEST(DesignDeadlock, ShippedPlanUsesFourVcsOnFourPortRoutersAndTwoElsewhere) {
  EXPECT_EQ(vc_class_plan("shipped", Topology::parse("mesh:8x8")).vc_count, 4);
  for (const char* spec : {"mesh:4x4", "mesh:6x5", "torus:4x4", "star:5"}) {
    EXPECT_EQ(router_vc_count(Topology::parse(spec)), 4) << spec;
  }
  for (const char* spec : {"mesh:4x4x4", "torus:4x4x4", "star:4"}) {
    EXPECT_EQ(router_vc_count(Topology::parse(spec)), 2) << spec;
    EXPECT_EQ(vc_class_plan("shipped", Topology::parse(spec)).vc_count, 2) << spec;
  }
}

// The rule is class mod VCs: on a four-VC torus the Hamiltonian cycle's four classes get a VC each,
// on S4's two-VC routers p and q of both networks share VCs 0 and 1, as before the plan.
TEST(VcClassPlan, ShippedPlanIsTheHeadClassModTheRoutersVcCount) {
  const VcClassPlan torus = vc_class_plan("shipped", Topology::parse("torus:4x4"));
  EXPECT_EQ(torus.vc(F::kHamiltonianCycle, HamiltonianCycleRouting::kQLow), 3);
  EXPECT_EQ(torus.vc(F::kHamiltonianPath, 1), 1);
  const VcClassPlan star = vc_class_plan("shipped", Topology::parse("star:4"));
  EXPECT_EQ(star.vc(F::kHamiltonianCycle, HamiltonianCycleRouting::kQLow), 1);
  EXPECT_EQ(star.vc(F::kHamiltonianCycle, HamiltonianCycleRouting::kPLow), 0);
  const VcClassPlan mesh = vc_class_plan("shipped", Topology::parse("mesh:8x8"));
  for (RoutingFamily f : routing_families()) {
    const FamilyVcs* vcs = mesh.find(f);
    if (vcs == nullptr) continue;
    EXPECT_EQ(vcs->vc_of_class, family_wire_classes(f)) << to_string(f);  // below 4 already
  }
}

// edn's YX legs on the VC of the XY worms: the textbook XY + YX cycle, so the check can fail.
TEST(DesignDeadlock, YxLegsOnTheDimensionOrderVcAreReportedCyclic) {
  const Topology t = Topology::parse("mesh:8x8");
  const DesignDeadlockCheck check = check_design_deadlock(t, shipped_with(t, F::kEdnYxLeg, {0}));
  ASSERT_TRUE(check.cycle.has_value());
  EXPECT_TRUE(contains(families_in_cycle(check), F::kEdnYxLeg)) << check.cycle_text;
}

// A spine travelling -Y spawns a +-X branch: on the spine's own VC, next to XY routes that turn
// -X -> -Y, that closes a square, so the spawn dependencies are in the graph.
TEST(DesignDeadlock, SpawnedBranchesOnTheSpineVcAreReportedCyclic) {
  const Topology t = Topology::parse("mesh:8x8");
  const DesignDeadlockCheck check = check_design_deadlock(t, shipped_with(t, F::kPcpBranch, {0, 0}));
  ASSERT_TRUE(check.cycle.has_value());
  EXPECT_TRUE(contains(families_in_cycle(check), F::kPcpBranch)) << check.cycle_text;
}

// The starvation dependency of synchronous replication (a branch gets flits only while its spine
// moves on) is in the graph: with every branch on VC 1, as the first 4-VC plan had it, a
// low-network worm holding X VC 1 in the row a +Y spine is about to spawn into, descending toward
// a row whose branch the blocked spine starves, closes a cycle that channel orders alone do not
// show. One +Y spine and the Hamiltonian path suffice; the shipped branch VCs (+X 3, -X 2) have it
// not.
TEST(DesignDeadlock, BranchesOnTheLowNetworksVcStarveIntoACycleWithOneSpine) {
  const Topology t = Topology::parse("mesh:8x8");
  const std::vector<RoutingFamily> spine_and_path = {F::kHamiltonianPath, F::kCprLine, F::kPcpBranch};
  const DesignDeadlockCheck both_on_one =
      check_design_deadlock(t, shipped_with(t, F::kPcpBranch, {1, 1}), spine_and_path);
  ASSERT_TRUE(both_on_one.cycle.has_value());
  const std::vector<RoutingFamily> in = families_in_cycle(both_on_one);
  EXPECT_TRUE(contains(in, F::kPcpBranch)) << both_on_one.cycle_text;
  EXPECT_TRUE(contains(in, F::kHamiltonianPath)) << both_on_one.cycle_text;
  const DesignDeadlockCheck shipped = check_design_deadlock(t, vc_class_plan("shipped", t), spine_and_path);
  EXPECT_FALSE(shipped.cycle.has_value()) << shipped.cycle_text;
}

// With XY and YX worms in the design, the Hamiltonian path's two networks cannot share a VC.
TEST(DesignDeadlock, HamiltonianPathNetworksSharingAVcAreReportedCyclic) {
  const Topology t = Topology::parse("mesh:8x8");
  const DesignDeadlockCheck check = check_design_deadlock(t, shipped_with(t, F::kHamiltonianPath, {0, 0}));
  ASSERT_TRUE(check.cycle.has_value());
  EXPECT_TRUE(contains(families_in_cycle(check), F::kHamiltonianPath)) << check.cycle_text;
}

// Why the shipped plan gives the rightward and leftward column paths separate VCs, and keeps them
// off VCs 0 and 1.
TEST(DesignDeadlock, XyPathColumnPathsSharingAVcOrJoiningVcZeroOrOneAreCyclic) {
  const Topology t = Topology::parse("mesh:8x8");
  for (const std::vector<int>& vcs :
       {std::vector<int>{0, 1, 2, 2}, std::vector<int>{0, 1, 0, 3}, std::vector<int>{0, 1, 1, 3},
        std::vector<int>{0, 1, 2, 0}, std::vector<int>{0, 1, 2, 1}}) {
    const DesignDeadlockCheck check = check_design_deadlock(t, shipped_with(t, F::kXyPathRoute, vcs));
    ASSERT_TRUE(check.cycle.has_value()) << fmt::format("{}", fmt::join(vcs, ","));
    EXPECT_TRUE(contains(families_in_cycle(check), F::kXyPathRoute)) << check.cycle_text;
  }
}

// The graph is not vacuous: consecutive channels of planned worms (with their intermediate
// deliveries) are dependencies of the family that routes them.
TEST(DesignDeadlock, PlannedWormsConsecutiveChannelsAreDependenciesOfTheirFamily) {
  const Topology t = Topology::parse("mesh:8x8");
  const VcClassPlan vcs = vc_class_plan("shipped", t);
  std::set<std::tuple<int, int, int, int, RoutingFamily>> added;
  for (const DesignDependency& d : design_dependencies(t, vcs)) {
    added.insert({d.from.node, d.from.port, d.to.node, d.to.port, d.family});
  }
  const std::vector<NodeId> dests = {t.parse_node("1,2"), t.parse_node("5,5"), t.parse_node("6,1"),
                                     t.parse_node("2,6"), t.parse_node("7,0"), t.parse_node("0,4")};
  const std::vector<std::pair<const char*, RoutingFamily>> cases = {{kDualPathAlgorithm, F::kHamiltonianPath},
                                                                    {kXyPathAlgorithm, F::kXyPathRoute},
                                                                    {kXyPathXFirstAlgorithm, F::kXyPathRoute}};
  int checked = 0;
  for (const auto& [algorithm, family] : cases) {
    for (const char* source : {"0,0", "7,7", "7,3"}) {
      const NodeId s = t.parse_node(source);
      if (family == F::kXyPathRoute && std::string(source) == "7,3") continue;  // corners only
      std::vector<NodeId> d;
      for (NodeId n : dests) {
        if (n != s) d.push_back(n);
      }
      const Plan p = plan(make_request(t, algorithm, s, d, 4, PortModel::all_port()));
      for (const Worm& w : p.worms) {
        for (std::size_t i = 1; i < w.hops.size(); ++i) {
          EXPECT_TRUE(added.count({w.hops[i - 1].node, w.hops[i - 1].port, w.hops[i].node, w.hops[i].port, family}))
              << algorithm << " from " << source << " hop " << i;
          ++checked;
        }
      }
    }
  }
  EXPECT_GT(checked, 50);
}

// Where np-d runs and edn does not (the 2x2 mesh), np-d's XY worms still turn: the dimension-order
// family walks every pair there (AlgorithmInfo::dimension_order_worms), not rd's lines.
TEST(DesignDeadlock, NpdWormsOnATwoByTwoMeshAreDependenciesOfTheDimensionOrderFamily) {
  const Topology t = Topology::parse("mesh:2x2");
  std::set<std::tuple<int, int, int, int>> added;
  for (const DesignDependency& d : design_dependencies(t, vc_class_plan("shipped", t), {F::kDimensionOrder})) {
    added.insert({d.from.node, d.from.port, d.to.node, d.to.port});
  }
  int turns = 0;
  for (NodeId s = 0; s < t.node_count(); ++s) {
    const Plan p =
        plan(make_request(t, kNetworkPartitioningAlgorithm, s, broadcast_destinations(t, s), 4, PortModel::all_port()));
    for (const Worm& w : p.worms) {
      if (w.header.mode != RoutingMode::kDimensionOrder) continue;
      for (std::size_t i = 1; i < w.hops.size(); ++i) {
        EXPECT_TRUE(added.count({w.hops[i - 1].node, w.hops[i - 1].port, w.hops[i].node, w.hops[i].port}))
            << "np-d from " << t.node_name(s) << " hop " << i;
        turns += w.hops[i].port != w.hops[i - 1].port;
      }
    }
  }
  EXPECT_GT(turns, 0);
}

// What the dimension-order family walks rests on these: rd's worms stay on one line, the trees'
// worms take one hop.
TEST(DesignDeadlock, RdWormsStayOnOneLineAndTreeWormsTakeOneHop) {
  int worms = 0;
  for (const char* spec : {"mesh:8x8", "mesh:5x3", "mesh:4x4x4"}) {
    const Topology t = Topology::parse(spec);
    for (NodeId s : {0, t.node_count() / 2 + 1, t.node_count() - 1}) {
      const Plan p =
          plan(make_request(t, kRecursiveDoublingAlgorithm, s, broadcast_destinations(t, s), 4, PortModel::one_port()));
      for (const Worm& w : p.worms) {
        const Coord a = t.coord(w.route.front()), b = t.coord(w.route.back());
        int differing = 0;
        for (int d = 0; d < t.dimensions(); ++d)
          differing += a[static_cast<std::size_t>(d)] != b[static_cast<std::size_t>(d)];
        EXPECT_EQ(differing, 1) << spec << " rd from " << t.node_name(s);
        EXPECT_EQ(static_cast<int>(w.hops.size()), t.distance(w.route.front(), w.route.back()));
        ++worms;
      }
    }
  }
  for (const char* spec : {"mesh:8x8", "torus:4x4", "torus:4x4x4", "mesh:4x4x4"}) {
    const Topology t = Topology::parse(spec);
    std::vector<NodeId> dests;
    for (NodeId n = 1; n < t.node_count(); n += 3) dests.push_back(n);
    for (const char* tree : {kVhAlgorithm, kDiagAlgorithm, kDdsAlgorithm, kMinAlgorithm}) {
      const Plan p = plan(make_request(t, tree, 0, dests, 4, PortModel::one_port()));
      for (const Worm& w : p.worms) {
        EXPECT_EQ(w.hops.size(), 1u) << spec << " " << tree;
        ++worms;
      }
    }
  }
  EXPECT_GT(worms, 500);
}

TEST(VcClassPlan, SingleClassPlanIsTheOldClassBitZeroMapping) {
  const VcClassPlan plan = vc_class_plan("single-class", Topology::parse("mesh:8x8"));
  EXPECT_EQ(plan.vc(F::kHamiltonianPath, 1), 0);  // both networks on VC 0
  EXPECT_EQ(plan.vc(F::kPcpBranch, 0), 1);
  EXPECT_EQ(plan.vc(F::kEdnYxLeg, 0), 1);
  EXPECT_EQ(plan.vc(F::kXyPathRoute, 3), 0);
  const VcClassPlan torus = vc_class_plan("single-class", Topology::parse("torus:4x4"));
  EXPECT_EQ(torus.vc(F::kHamiltonianCycle, HamiltonianCycleRouting::kQLow), 1);
  EXPECT_EQ(torus.vc(F::kHamiltonianCycle, HamiltonianCycleRouting::kPLow), 0);
  EXPECT_EQ(torus.find(F::kCprLine), nullptr);  // pcp and 3dbs run on meshes only
}

TEST(VcClassPlan, FamiliesFollowWhereTheFirmwareRunsEachAlgorithm) {
  const auto has = [](const char* spec, const char* algorithm) {
    const std::vector<std::string> a = firmware_algorithms(Topology::parse(spec));
    return std::find(a.begin(), a.end(), algorithm) != a.end();
  };
  EXPECT_TRUE(has("mesh:8x8", kExtendedDominatingNodeAlgorithm));
  EXPECT_FALSE(has("mesh:6x6", kExtendedDominatingNodeAlgorithm));  // 2^k x 2^k only
  EXPECT_FALSE(has("torus:4x4", kRecursiveDoublingAlgorithm));
  EXPECT_TRUE(has("torus:4x4", kUniformDualPathAlgorithm));
  EXPECT_FALSE(has("torus:4x5", kUniformDualPathAlgorithm));  // an odd row count has no Hamiltonian cycle
  EXPECT_TRUE(has("mesh:4x4x4", kThreeDbsAlgorithm));
  EXPECT_FALSE(has("mesh:4x4x4", kPcpAlgorithm));
  EXPECT_FALSE(has("torus:4x4", kHpDualPathAlgorithm));  // star graphs only; dual-path runs on tori
  EXPECT_EQ(firmware_algorithms(Topology::parse("star:5")),
            (std::vector<std::string>{kFixedDualPathAlgorithm, kHpDualPathAlgorithm, kUniformDualPathAlgorithm}));
}

TEST(VcClassPlan, BadNamesAndClassesAreClearErrors) {
  const Topology t = Topology::parse("mesh:4x4");
  try {
    vc_class_plan("newest", t);
    FAIL();
  } catch (const SpecError& e) {
    EXPECT_STREQ(e.what(), "VC-class plan 'newest' is unknown; valid: shipped, single-class");
  }
  const VcClassPlan plan = vc_class_plan("single-class", t);
  try {
    plan.vc(F::kHamiltonianPath, 2);
    FAIL();
  } catch (const RoutingError& e) {
    EXPECT_STREQ(e.what(), "hamiltonian-path has no class 2; valid: 0..1 (high, low)");
  }
  EXPECT_THROW(make_vc_class_plan("short", t, {{F::kHamiltonianPath, {0}}}), SpecError);
}

}  // namespace
}  // namespace wormcast::model
