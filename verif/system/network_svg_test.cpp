// SPDX-License-Identifier: Apache-2.0
// The SVG drawings of `wormcast plan/run --svg` (sim/network_svg.hpp): every worm drawn, markers in
// place, wraparounds and Z hops drawn their way, and a path that is not in the network refused with
// a message naming the worm, the hop and the network.
#include "sim/network_svg.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <regex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "model/errors.hpp"
#include "model/path_multicast.hpp"
#include "model/planner.hpp"
#include "model/unicast_multicast.hpp"

namespace wormcast::sim {
namespace {

using model::RouteHop;
using model::Topology;

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(NetworkSvg, V4PlanDrawsEveryWormWithOneArrowPerHop) {
  const Topology t = Topology::parse("mesh:6x6");
  const model::Plan plan = model::plan(model::make_request(
      t, model::kTwoPortAlgorithm, t.parse_node("3,3"),
      {t.parse_node("0,1"), t.parse_node("3,1"), t.parse_node("2,2"), t.parse_node("5,2"), t.parse_node("2,5")}, 20,
      model::PortModel::two_port()));
  const std::string svg = render_svg(drawing_of_plan(plan));
  EXPECT_EQ(count(svg, "<g class=\"worm\""), static_cast<int>(plan.worms.size()));
  // V4's traffic is 17 links: one arrow each, none elsewhere (the legend draws plain lines).
  EXPECT_EQ(count(svg, "marker-end="), 17);
  EXPECT_EQ(count(svg, "class=\"source\""), 1);
  EXPECT_EQ(count(svg, "class=\"destination\""), 5);
  EXPECT_EQ(svg.rfind("</svg>\n"), svg.size() - 7);
}

TEST(NetworkSvg, TorusWraparoundIsTwoStubsWithOneArrow) {
  const Topology t = Topology::parse("torus:4x4");
  const model::NodeId from = t.parse_node("3,1");
  NetworkDrawing d{t, "wrap", from, {t.parse_node("0,1")}, {{"east wrap", {RouteHop{from, 0, 0}}}}};
  const std::string svg = render_svg(d);
  const std::string worm = svg.substr(svg.find("<g class=\"worm\""));
  EXPECT_EQ(count(worm.substr(0, worm.find("</g>")), "<path "), 2);
  EXPECT_EQ(count(svg, "marker-end="), 1);
}

TEST(NetworkSvg, ThreeDimensionalZHopIsAnArcBetweenLayers) {
  const Topology t = Topology::parse("mesh:4x4x4");
  const model::NodeId from = t.parse_node("1,1,0");
  NetworkDrawing d{t, "z", from, {t.parse_node("1,1,1")}, {{"up", {RouteHop{from, 4, 0}}}}};
  const std::string svg = render_svg(d);
  EXPECT_NE(svg.find(" Q "), std::string::npos);
  EXPECT_NE(svg.find(">z = 3<"), std::string::npos);
}

TEST(NetworkSvg, StarGraphPutsEveryNodeOnTheCircle) {
  const Topology t = Topology::parse("star:4");
  const model::Plan plan = model::plan(model::make_request(
      t, model::kUniformDualPathAlgorithm, t.parse_node("1234"),
      {t.parse_node("4321"), t.parse_node("2143"), t.parse_node("3412")}, 20, model::PortModel::all_port()));
  const std::string svg = render_svg(drawing_of_plan(plan));
  EXPECT_EQ(count(svg, "<g class=\"worm\""), static_cast<int>(plan.worms.size()));
  EXPECT_EQ(count(svg, "marker-end="), plan.metrics.traffic);
  const std::size_t nodes = svg.find("<g class=\"nodes\">");
  const std::string group = svg.substr(nodes, svg.find("</g>", nodes) - nodes);
  EXPECT_EQ(count(group, "<circle "), 24);
  EXPECT_EQ(count(svg, "class=\"destination\""), 3);
  // The node centres: one circle, the 24 nodes evenly around it (every 15 degrees, one node each).
  std::vector<std::pair<double, double>> centres;
  const std::regex centre("<circle cx=\"([-0-9.]+)\" cy=\"([-0-9.]+)\"");
  for (std::sregex_iterator m(group.begin(), group.end(), centre), end; m != end; ++m) {
    centres.emplace_back(std::stod((*m)[1]), std::stod((*m)[2]));
  }
  ASSERT_EQ(centres.size(), 24U);
  double cx = 0, cy = 0;
  for (const auto& [x, y] : centres) {
    cx += x / 24;
    cy += y / 24;
  }
  const double radius = std::hypot(centres[0].first - cx, centres[0].second - cy);
  EXPECT_GT(radius, 100.0);
  std::set<long> slots;
  for (const auto& [x, y] : centres) {
    EXPECT_NEAR(std::hypot(x - cx, y - cy), radius, 0.2) << x << "," << y;
    const double degrees = std::atan2(y - cy, x - cx) * 180 / std::numbers::pi + 360;
    EXPECT_NEAR(degrees / 15, std::round(degrees / 15), 0.01) << x << "," << y;
    slots.insert(std::lround(degrees / 15) % 24);
  }
  EXPECT_EQ(slots.size(), 24U);
}

TEST(NetworkSvg, HopOffTheMeshIsAClearError) {
  const Topology t = Topology::parse("mesh:4x4");
  const model::NodeId corner = t.parse_node("3,0");
  NetworkDrawing d{t, "bad", 0, {corner}, {{"ok", {RouteHop{0, 0, 0}}}, {"off the edge", {RouteHop{corner, 0, 0}}}}};
  try {
    render_svg(d);
    FAIL() << "a hop through a port without a link was drawn";
  } catch (const model::RequestError& e) {
    EXPECT_STREQ(e.what(),
                 "worm 2 (off the edge) hop 1: node 3 port 0 is not a link of mesh:4x4 (nodes 0..15, ports 0..3)");
  }
}

TEST(NetworkSvg, NodeOutsideTheNetworkIsAClearError) {
  const Topology t = Topology::parse("mesh:4x4");
  NetworkDrawing d{t, "bad", 0, {16}, {}};
  EXPECT_THROW(render_svg(d), model::NodeError);
  d.destinations = {1};
  d.worms = {{"bad port", {RouteHop{1, 7, 0}}}};
  EXPECT_THROW(render_svg(d), model::RequestError);
}

TEST(NetworkSvg, UnwritablePathIsAClearError) {
  const Topology t = Topology::parse("mesh:4x4");
  try {
    write_svg("/nonexistent-folder/x.svg", NetworkDrawing{t, "x", 0, {1}, {}});
    FAIL() << "wrote into a folder that does not exist";
  } catch (const model::RequestError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot write the SVG drawing to '/nonexistent-folder/x.svg'"),
              std::string::npos);
  }
}

}  // namespace
}  // namespace wormcast::sim
