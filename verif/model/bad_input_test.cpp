// SPDX-License-Identifier: Apache-2.0
// Bad input at the model's entry points (model/errors.hpp): each case throws its typed error, and the
// message names the bad value and what would be valid (docs/model.md, its `model/errors.hpp` row).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "model/errors.hpp"
#include "model/labeling.hpp"
#include "model/routing.hpp"
#include "model/topology.hpp"

namespace wormcast::model {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

// Runs `action`, expects it to throw exactly `Error` (not only a base class), and returns the message.
template <typename Error>
std::string message_of(const std::function<void()>& action) {
  try {
    action();
  } catch (const Error& e) {
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "threw the wrong type: " << e.what();
    return {};
  }
  ADD_FAILURE() << "did not throw";
  return {};
}

// --- Topology specs ------------------------------------------------------------------------------

TEST(BadInput, ZeroDimensionNamesTheSizeAndTheValidRange) {
  EXPECT_THAT(message_of<TopologyError>([] { Topology::parse("mesh:0x4"); }),
              AllOf(HasSubstr("mesh:0x4"), HasSubstr("size 0"), HasSubstr("2..1024")));
  EXPECT_THAT(message_of<TopologyError>([] {
                Topology::mesh({4, 0});
              }),
              AllOf(HasSubstr("mesh:4x0"), HasSubstr("size 0"), HasSubstr("dimension Y"), HasSubstr("2..1024")));
  EXPECT_THAT(message_of<TopologyError>([] {
                Topology::torus({1, 4});
              }),
              AllOf(HasSubstr("size 1"), HasSubstr("2..1024")));
}

TEST(BadInput, NegativeDimensionNamesTheSizeAndTheValidRange) {
  EXPECT_THAT(message_of<TopologyError>([] { Topology::parse("mesh:-2x4"); }),
              AllOf(HasSubstr("-2"), HasSubstr("2..1024")));
  EXPECT_THAT(message_of<TopologyError>([] {
                Topology::torus({4, 4, -1});
              }),
              AllOf(HasSubstr("-1"), HasSubstr("dimension Z"), HasSubstr("2..1024")));
}

TEST(BadInput, OversizedDimensionOrNodeCountNamesTheLimit) {
  EXPECT_THAT(message_of<TopologyError>([] { Topology::parse("mesh:1025x4"); }),
              AllOf(HasSubstr("1025"), HasSubstr("2..1024")));
  // Each dimension is in range but 1024*1024*2 nodes exceed kMaxNodes = 2^20.
  EXPECT_THAT(message_of<TopologyError>([] { Topology::parse("torus:1024x1024x2"); }),
              AllOf(HasSubstr("2097152"), HasSubstr("1048576")));
}

TEST(BadInput, WrongDimensionCountNamesTheCountAndValidExamples) {
  EXPECT_THAT(message_of<TopologyError>([] { Topology::parse("mesh:2x2x2x2"); }),
              AllOf(HasSubstr("4"), HasSubstr("2 or 3 dimensions"), HasSubstr("mesh:8x8")));
  EXPECT_THAT(message_of<TopologyError>([] { Topology::mesh({8}); }),
              AllOf(HasSubstr("mesh:8"), HasSubstr("2 or 3 dimensions")));
  EXPECT_THAT(message_of<TopologyError>([] { Topology::torus({}); }), HasSubstr("2 or 3 dimensions"));
}

TEST(BadInput, MalformedSpecStringsNameTheTextAndValidSpecs) {
  EXPECT_THAT(message_of<SpecError>([] { Topology::parse("mesh8x8"); }),
              AllOf(HasSubstr("'mesh8x8'"), HasSubstr("mesh:8x8")));
  EXPECT_THAT(message_of<SpecError>([] { Topology::parse("mesh:8by8"); }),
              AllOf(HasSubstr("'8by8'"), HasSubstr("mesh:8x8")));
  EXPECT_THAT(message_of<SpecError>([] { Topology::parse("ring:8"); }),
              AllOf(HasSubstr("'ring'"), HasSubstr("mesh, torus, star")));
  EXPECT_THAT(message_of<SpecError>([] { Topology::parse("mesh:8x"); }),
              AllOf(HasSubstr("'mesh:8x'"), HasSubstr("mesh:8x8")));
  EXPECT_THAT(message_of<SpecError>([] { Topology::parse("star:x"); }), AllOf(HasSubstr("'x'"), HasSubstr("star:4")));
  EXPECT_THAT(message_of<SpecError>([] { Topology::parse(""); }), HasSubstr("mesh:8x8"));
  EXPECT_THAT(message_of<SpecError>([] { Topology::parse("torus:4x4 "); }), HasSubstr("torus:4x4"));
}

TEST(BadInput, StarOrderOutsideThreeToSixNamesTheOrderAndTheRange) {
  EXPECT_THAT(message_of<TopologyError>([] { Topology::parse("star:2"); }), AllOf(HasSubstr("S2"), HasSubstr("3..6")));
  EXPECT_THAT(message_of<TopologyError>([] { Topology::parse("star:7"); }), AllOf(HasSubstr("S7"), HasSubstr("3..6")));
  EXPECT_THAT(message_of<TopologyError>([] { Topology::star(0); }), AllOf(HasSubstr("S0"), HasSubstr("3..6")));
}

// --- Nodes and ports -----------------------------------------------------------------------------

TEST(BadInput, CoordinateOutsideTheMeshNamesItAndTheValidRange) {
  const Topology mesh = Topology::parse("mesh:8x8");
  EXPECT_THAT(message_of<NodeError>([&] { mesh.parse_node("8,0"); }),
              AllOf(HasSubstr("x=8"), HasSubstr("mesh:8x8"), HasSubstr("0..7")));
  EXPECT_THAT(message_of<NodeError>([&] { mesh.parse_node("0,-1"); }), AllOf(HasSubstr("y=-1"), HasSubstr("0..7")));
  const Topology cube = Topology::parse("mesh:4x4x3");
  EXPECT_THAT(message_of<NodeError>([&] { cube.parse_node("0,0,3"); }), AllOf(HasSubstr("z=3"), HasSubstr("0..2")));
}

TEST(BadInput, WrongCoordinateCountNamesTheNodeAndTheExpectedCount) {
  const Topology mesh = Topology::parse("mesh:8x8");
  EXPECT_THAT(message_of<SpecError>([&] { mesh.parse_node("1,2,3"); }),
              AllOf(HasSubstr("'1,2,3'"), HasSubstr("3 coordinates"), HasSubstr("have 2"), HasSubstr("3,2")));
  EXPECT_THAT(message_of<SpecError>([&] { mesh.parse_node("3;2"); }), AllOf(HasSubstr("'3;2'"), HasSubstr("have 2")));
  const Topology cube = Topology::parse("torus:4x4x4");
  EXPECT_THAT(message_of<SpecError>([&] { cube.parse_node("1,1"); }), AllOf(HasSubstr("'1,1'"), HasSubstr("1,1,1")));
}

TEST(BadInput, NonNumericCoordinateNamesItAndTheValidForm) {
  const Topology mesh = Topology::parse("mesh:8x8");
  EXPECT_THAT(message_of<SpecError>([&] { mesh.parse_node("a,2"); }),
              AllOf(HasSubstr("'a'"), HasSubstr("'a,2'"), HasSubstr("0..7")));
}

TEST(BadInput, NodeIdOutsideTheNetworkNamesItAndTheValidIds) {
  const Topology mesh = Topology::parse("mesh:8x8");
  EXPECT_THAT(message_of<NodeError>([&] { mesh.check_node(64); }),
              AllOf(HasSubstr("64"), HasSubstr("mesh:8x8"), HasSubstr("0..63")));
  EXPECT_THAT(message_of<NodeError>([&] { mesh.neighbour(64, 0); }), AllOf(HasSubstr("64"), HasSubstr("0..63")));
  EXPECT_THAT(message_of<NodeError>([&] { mesh.neighbour(-1, 0); }), AllOf(HasSubstr("-1"), HasSubstr("0..63")));
  EXPECT_THAT(message_of<NodeError>([&] { mesh.distance(0, 64); }), HasSubstr("0..63"));
  const Topology star = Topology::parse("star:4");
  EXPECT_THAT(message_of<NodeError>([&] { star.node_name(24); }), AllOf(HasSubstr("24"), HasSubstr("0..23")));
}

TEST(BadInput, PortOutsideTheRouterNamesItAndTheValidPorts) {
  const Topology mesh = Topology::parse("mesh:8x8");
  EXPECT_THAT(message_of<NodeError>([&] { mesh.neighbour(0, 4); }),
              AllOf(HasSubstr("port 4"), HasSubstr("mesh:8x8"), HasSubstr("0..3")));
  const Topology star = Topology::parse("star:5");
  EXPECT_THAT(message_of<NodeError>([&] { star.neighbour(0, -1); }), AllOf(HasSubstr("port -1"), HasSubstr("0..3")));
}

TEST(BadInput, StarNodeOfTheWrongLengthNamesItAndAnExample) {
  const Topology star = Topology::parse("star:5");
  EXPECT_THAT(message_of<SpecError>([&] { star.parse_node("1234"); }),
              AllOf(HasSubstr("'1234'"), HasSubstr("1..5"), HasSubstr("12345")));
}

TEST(BadInput, StarNodeThatIsNoPermutationNamesItAndTheSymbols) {
  const Topology star = Topology::parse("star:4");
  EXPECT_THAT(message_of<NodeError>([&] { star.parse_node("1123"); }),
              AllOf(HasSubstr("1123"), HasSubstr("permutation of 1..4")));
  EXPECT_THAT(message_of<NodeError>([&] { star.parse_node("1235"); }),
              AllOf(HasSubstr("1235"), HasSubstr("permutation of 1..4")));
  EXPECT_THAT(message_of<SpecError>([&] { star.parse_node("12a4"); }),
              AllOf(HasSubstr("'12a4'"), HasSubstr("permutation of 1..4")));
}

TEST(BadInput, CoordinatesAndPermutationsAreNotMixedUp) {
  const Topology star = Topology::parse("star:4");
  EXPECT_THAT(message_of<UnsupportedError>([&] { star.coord(0); }),
              AllOf(HasSubstr("star:4"), HasSubstr("permutations")));
  const Topology mesh = Topology::parse("mesh:4x4");
  EXPECT_THAT(message_of<UnsupportedError>([&] { mesh.permutation(0); }),
              AllOf(HasSubstr("mesh:4x4"), HasSubstr("coordinates")));
}

// --- Labelings -----------------------------------------------------------------------------------

TEST(BadInput, TorusCycleWithOddRowCountNamesTheRowsAndAsksForAnEvenCount) {
  // [2], Section 4.1 (docs/model.md "2D torus cycle"): the cycle needs an even number of rows Y.
  EXPECT_THAT(message_of<LabelingError>([] { HamiltonianLabeling::cycle(Topology::parse("torus:4x5")); }),
              AllOf(HasSubstr("torus:4x5"), HasSubstr("5 rows"), HasSubstr("even"), HasSubstr("torus:4x6")));
  EXPECT_THAT(message_of<LabelingError>([] { HamiltonianLabeling::cycle(Topology::parse("torus:4x3")); }),
              AllOf(HasSubstr("3 rows"), HasSubstr("even")));
}

TEST(BadInput, CycleLabelingOfAMeshOr3DTorusIsUnsupportedAndNamesWhereCyclesExist) {
  EXPECT_THAT(message_of<UnsupportedError>([] { HamiltonianLabeling::cycle(Topology::parse("mesh:4x4")); }),
              AllOf(HasSubstr("mesh:4x4"), HasSubstr("2D tori"), HasSubstr("star graphs")));
  EXPECT_THAT(message_of<UnsupportedError>([] { HamiltonianLabeling::cycle(Topology::parse("torus:4x4x4")); }),
              AllOf(HasSubstr("torus:4x4x4"), HasSubstr("2D tori")));
  EXPECT_THAT(message_of<UnsupportedError>([] { HamiltonianLabeling::path(Topology::parse("star:4")); }),
              AllOf(HasSubstr("star:4"), HasSubstr("cycle labeling")));
}

TEST(BadInput, LabelOutsideTheLabelingNamesItAndTheValidLabels) {
  const HamiltonianLabeling labeling = HamiltonianLabeling::path(Topology::parse("mesh:4x4"));
  EXPECT_THAT(message_of<NodeError>([&] { labeling.node(16); }), AllOf(HasSubstr("label 16"), HasSubstr("0..15")));
  EXPECT_THAT(message_of<NodeError>([&] { labeling.label(16); }), HasSubstr("0..15"));
}

TEST(BadInput, ClassOrNetworkOfAnUnusedLinkNamesTheLink) {
  // A mesh port that leaves the network, and a torus wrap under the path labeling ([1]; docs/model.md).
  const Topology mesh = Topology::parse("mesh:4x4");
  const HamiltonianLabeling mesh_path = HamiltonianLabeling::path(mesh);
  const NodeId corner = mesh.parse_node("3,3");
  EXPECT_THAT(message_of<RoutingError>([&] { mesh_path.link_class(corner, 0); }),
              AllOf(HasSubstr("+X"), HasSubstr("3,3"), HasSubstr("does not use")));
  EXPECT_THAT(message_of<RoutingError>([&] { mesh_path.network(corner, 0); }),
              AllOf(HasSubstr("+X"), HasSubstr("3,3"), HasSubstr("does not use")));
  const Topology torus = Topology::parse("torus:4x4");
  const HamiltonianLabeling torus_path = HamiltonianLabeling::path(torus);
  EXPECT_THAT(message_of<RoutingError>([&] { torus_path.network(torus.parse_node("0,2"), 1); }),
              AllOf(HasSubstr("-X"), HasSubstr("0,2"), HasSubstr("path labeling")));
}

// --- Routing functions ---------------------------------------------------------------------------

TEST(BadInput, HamiltonianCycleRoutingOnAMeshIsUnsupported) {
  EXPECT_THAT(
      message_of<UnsupportedError>([] { make_routing_function("hamiltonian-cycle", Topology::parse("mesh:4x4")); }),
      AllOf(HasSubstr("hamiltonian-cycle"), HasSubstr("mesh:4x4"), HasSubstr("2D tori"), HasSubstr("star graphs")));
}

TEST(BadInput, HamiltonianCycleRoutingOnATorusWithOddRowsIsALabelingError) {
  EXPECT_THAT(
      message_of<LabelingError>([] { make_routing_function("hamiltonian-cycle", Topology::parse("torus:4x3")); }),
      AllOf(HasSubstr("torus:4x3"), HasSubstr("3 rows"), HasSubstr("even")));
}

TEST(BadInput, RoutingFunctionsOutsideTheirTopologiesAreUnsupported) {
  EXPECT_THAT(
      message_of<UnsupportedError>([] { make_routing_function("hamiltonian-path", Topology::parse("star:4")); }),
      AllOf(HasSubstr("hamiltonian-path"), HasSubstr("star:4"), HasSubstr("meshes and tori")));
  EXPECT_THAT(message_of<UnsupportedError>([] { make_routing_function("dimension-order", Topology::parse("star:4")); }),
              AllOf(HasSubstr("dimension-order"), HasSubstr("star:4"), HasSubstr("meshes and tori")));
  EXPECT_THAT(message_of<UnsupportedError>(
                  [] { make_routing_function("dimension-order-single-vc", Topology::parse("star:5")); }),
              AllOf(HasSubstr("star:5"), HasSubstr("meshes and tori")));
  EXPECT_THAT(message_of<UnsupportedError>([] { make_routing_function("cpr-line", Topology::parse("torus:4x4")); }),
              AllOf(HasSubstr("cpr-line"), HasSubstr("torus:4x4"), HasSubstr("meshes")));
}

TEST(BadInput, UnknownRoutingFunctionNamesItAndListsTheValidNames) {
  EXPECT_THAT(message_of<SpecError>([] { make_routing_function("xy", Topology::parse("mesh:4x4")); }),
              AllOf(HasSubstr("'xy'"), HasSubstr("hamiltonian-path"), HasSubstr("hamiltonian-cycle"),
                    HasSubstr("dimension-order"), HasSubstr("cpr-line")));
}

TEST(BadInput, RouteInAStateTheFunctionNeverProducesIsARoutingError) {
  // A CPR worm only travels along one dimension ([3]); (0,0) -> (1,1) is off every line.
  const Topology mesh = Topology::parse("mesh:4x4");
  const auto cpr = make_routing_function("cpr-line", mesh);
  EXPECT_THAT(message_of<RoutingError>([&] { cpr->route(mesh.parse_node("0,0"), 0, mesh.parse_node("1,1")); }),
              AllOf(HasSubstr("cpr-line"), HasSubstr("mesh:4x4"), HasSubstr("0,0"), HasSubstr("1,1"),
                    HasSubstr("one dimension only")));
  // A q-class worm has already crossed the boundary ([2], Section 3.1); V9's boundary hop 15 -> 0 is illegal.
  const Topology torus = Topology::parse("torus:4x4");
  const auto cycle = make_routing_function("hamiltonian-cycle", torus);
  EXPECT_THAT(message_of<RoutingError>([&] {
                cycle->route(torus.parse_node("0,3"), HamiltonianCycleRouting::kQHigh, torus.parse_node("0,0"));
              }),
              AllOf(HasSubstr("0,3"), HasSubstr("qh"), HasSubstr("0,0"), HasSubstr("q-class")));
  // Route requests with a node or class outside the network.
  EXPECT_THAT(message_of<NodeError>([&] { cpr->route(0, 0, 16); }), AllOf(HasSubstr("16"), HasSubstr("0..15")));
  // (cpr-line has classes 0, source lines, and 3 and 2, the +X and -X branches PCP spines spawn.)
  EXPECT_THAT(message_of<RoutingError>([&] { cpr->route(0, 4, 1); }),
              AllOf(HasSubstr("VC class 4"), HasSubstr("cpr-line"), HasSubstr("0..3")));
}

}  // namespace
}  // namespace wormcast::model
