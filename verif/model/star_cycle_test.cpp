// SPDX-License-Identifier: Apache-2.0
// The star-graph Hamiltonian cycle ([2], Section 4.2): V11 for S4, and a valid cycle for every n.
#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <string>

#include "model/labeling.hpp"
#include "model/star_hamiltonian_cycle.hpp"
#include "model/topology.hpp"

namespace wormcast::model {
namespace {

TEST(StarCycle, FourStarLabelsMatchVectorV11) {
  // V11 ([2], Section 4.2, reconstructed and consistent with all printed labels).
  const std::string expected =
      "1234 2134 3124 1324 2314 3214 4213 1243 2143 4123 1423 2413 "
      "3412 4312 1342 3142 4132 1432 2431 3421 4321 2341 3241 4231";
  const Topology star4 = Topology::star(4);
  const HamiltonianLabeling labeling = HamiltonianLabeling::cycle(star4);
  std::istringstream in(expected);
  std::string name;
  for (int label = 0; in >> name; ++label) {
    EXPECT_EQ(star4.node_name(labeling.node(label)), name) << "label " << label;
  }
}

class StarCycleEveryOrder : public ::testing::TestWithParam<int> {};

TEST_P(StarCycleEveryOrder, VisitsEveryNodeOnceAlongStarEdgesAndCloses) {
  const int n = GetParam();
  const std::vector<Permutation> cycle = star_hamiltonian_cycle(n);
  const Topology star = Topology::star(n);
  ASSERT_EQ(static_cast<int>(cycle.size()), star.node_count());
  std::set<NodeId> seen;
  for (std::size_t i = 0; i < cycle.size(); ++i) {
    const NodeId here = star.node_of(cycle[i]);
    const NodeId next = star.node_of(cycle[(i + 1) % cycle.size()]);
    seen.insert(here);
    EXPECT_NE(star.port_towards(here, next), kNoPort) << star.node_name(here) << " -> " << star.node_name(next);
  }
  EXPECT_EQ(static_cast<int>(seen.size()), star.node_count());
  EXPECT_EQ(star.node_of(cycle.front()), 0) << "the cycle starts at the identity";
}

INSTANTIATE_TEST_SUITE_P(AllOrders, StarCycleEveryOrder, ::testing::Values(3, 4, 5, 6));

}  // namespace
}  // namespace wormcast::model
