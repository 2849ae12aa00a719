// SPDX-License-Identifier: Apache-2.0
// The model restates where the firmware runs each algorithm (model/vc_class_plan.cpp,
// firmware_algorithms), because the model may not include the firmware. This test may: it asks the
// firmware's own algorithm table, so the whole-design check walks the families the firmware emits.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "firmware/algorithm_table.hpp"
#include "model/topology.hpp"
#include "model/vc_class_plan.hpp"

namespace wormcast::model {
namespace {

fw::Grid grid_of(const Topology& t) {
  fw::Grid g;
  if (t.is_star()) {
    g.kind = fw::GridKind::kStar;
    g.dims = 0;
    g.star_order = static_cast<std::uint8_t>(t.star_order());
    return g;
  }
  g.kind = t.is_torus() ? fw::GridKind::kTorus : fw::GridKind::kMesh;
  g.dims = static_cast<std::uint8_t>(t.dimensions());
  for (int d = 0; d < t.dimensions(); ++d) g.size[d] = static_cast<std::uint16_t>(t.size(d));
  return g;
}

// The row accepts the topology from node 0 (a corner, for xy-path) with some port model: only
// kUnsupportedTopology (and a network too large for its tables) say the topology is wrong.
bool row_runs(const fw::AlgorithmRow& row, const fw::Grid& g) {
  if (g.kind == fw::GridKind::kStar && !row.on_star_graphs) return false;
  if (row.check == nullptr) return true;
  fw::MulticastRequest request;
  request.algorithm = row.id;
  request.ports = static_cast<std::uint8_t>(g.ports());
  request.all_port = true;
  const fw::Status s = row.check(g, 0, request);
  return s != fw::Status::kUnsupportedTopology && s != fw::Status::kNetworkTooLarge;
}

TEST(VcClassPlan, FirmwareAlgorithmsAreTheOnesTheFirmwareTableAcceptsOnEachTopology) {
  for (const char* spec : {"mesh:8x8", "mesh:4x4", "mesh:6x6", "mesh:5x4", "mesh:4x4x4", "mesh:3x3x2", "torus:4x4",
                           "torus:4x5", "torus:5x4", "torus:4x4x4", "star:4", "star:5"}) {
    const Topology t = Topology::parse(spec);
    std::vector<std::string> accepted;
    for (const fw::AlgorithmRow& row : fw::algorithm_rows()) {
      if (row_runs(row, grid_of(t))) accepted.emplace_back(row.name);
    }
    EXPECT_EQ(firmware_algorithms(t), accepted) << spec;
  }
}

}  // namespace
}  // namespace wormcast::model
