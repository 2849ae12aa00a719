// SPDX-License-Identifier: Apache-2.0
#include "sim/network_svg.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <numbers>

#include "model/errors.hpp"
#include "model/labeling.hpp"

namespace wormcast::sim {

using model::NodeId;
using model::Port;
using model::Topology;

namespace {

constexpr double kSpacing = 64;  // between neighbouring grid nodes
constexpr double kMargin = 44;   // around the network: room for torus wraparound stubs
constexpr double kTitleHeight = 34;
constexpr double kLegendRow = 18;
constexpr double kLegendColumn = 360;
constexpr double kWormSpread = 2.5;  // parallel worms on one link sit this far apart

struct Point {
  double x = 0, y = 0;
};

Point operator+(Point a, Point b) { return {a.x + b.x, a.y + b.y}; }
Point operator-(Point a, Point b) { return {a.x - b.x, a.y - b.y}; }
Point operator*(double k, Point a) { return {k * a.x, k * a.y}; }
double length(Point a) { return std::hypot(a.x, a.y); }

std::string escape(const std::string& text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// Worm i's colour: hues a golden angle apart, so neighbours in the legend differ most.
std::string worm_colour(std::size_t i) {
  const double h = std::fmod(static_cast<double>(i) * 137.508, 360.0) / 60.0;
  const double s = 0.75, l = 0.42;
  const double c = (1 - std::abs(2 * l - 1)) * s, x = c * (1 - std::abs(std::fmod(h, 2.0) - 1)), m = l - c / 2;
  double r = 0, g = 0, b = 0;
  switch (static_cast<int>(h)) {
    case 0:
      r = c, g = x;
      break;
    case 1:
      r = x, g = c;
      break;
    case 2:
      g = c, b = x;
      break;
    case 3:
      g = x, b = c;
      break;
    case 4:
      r = x, b = c;
      break;
    default:
      r = c, b = x;
  }
  const auto byte = [&](double v) { return static_cast<int>(std::lround((v + m) * 255)); };
  return fmt::format("#{:02x}{:02x}{:02x}", byte(r), byte(g), byte(b));
}

// Where each node sits and how big the picture of the network is.
class Layout {
 public:
  explicit Layout(const Topology& t) : t_(t) {
    if (t.is_star()) {
      const model::HamiltonianLabeling cycle = model::HamiltonianLabeling::cycle(t);
      node_radius_ = 13;
      const double n = t.node_count();
      radius_ = std::max(110.0, n * 4.5 * node_radius_ / (2 * std::numbers::pi));
      positions_.resize(static_cast<std::size_t>(t.node_count()));
      for (int label = 0; label < cycle.size(); ++label) {
        const double a = 2 * std::numbers::pi * label / n - std::numbers::pi / 2;
        positions_[static_cast<std::size_t>(cycle.node(label))] = {
            kMargin + radius_ + radius_ * std::cos(a), kTitleHeight + kMargin + radius_ + radius_ * std::sin(a)};
      }
      width_ = 2 * (kMargin + radius_);
      height_ = kTitleHeight + 2 * (kMargin + radius_);
      return;
    }
    const int layers = t.dimensions() == 3 ? t.size(2) : 1;
    layer_width_ = (t.size(0) - 1) * kSpacing + 2 * kMargin;
    width_ = layers * layer_width_;
    height_ = kTitleHeight + (layers > 1 ? 16 : 0) + (t.size(1) - 1) * kSpacing + 2 * kMargin;
    for (NodeId n = 0; n < t.node_count(); ++n) {
      const model::Coord c = t.coord(n);
      positions_.push_back({c[2] * layer_width_ + kMargin + c[0] * kSpacing, height_ - kMargin - c[1] * kSpacing});
    }
  }

  Point at(NodeId n) const { return positions_.at(static_cast<std::size_t>(n)); }
  double width() const { return width_; }
  double height() const { return height_; }
  double node_radius() const { return node_radius_; }
  int layers() const { return t_.dimensions() == 3 ? t_.size(2) : 1; }
  double layer_width() const { return layer_width_; }

 private:
  const Topology& t_;
  std::vector<Point> positions_;
  double width_ = 0, height_ = 0, layer_width_ = 0, radius_ = 0, node_radius_ = 15;
};

// One link as drawn: a straight segment between two node circles (shifted sideways by `spread`),
// an arc between z layers, or for a torus wraparound two stubs, out of the edge and back in.
class LinkPainter {
 public:
  LinkPainter(const Topology& t, const Layout& layout) : t_(t), layout_(layout) {}

  // Path data of the link node --port-->; each string is one piece (a wraparound has two; the
  // arrow belongs on the last).
  std::vector<std::string> pieces(NodeId node, Port port, double spread) const {
    const NodeId to = t_.neighbour(node, port);
    const Point a = layout_.at(node), b = layout_.at(to);
    const double r = layout_.node_radius() + 1;
    if (!t_.is_star() && t_.is_wraparound(node, port)) {
      // Out of the edge beyond `a`, then in from beyond the opposite edge toward `b`.
      const Point dir = unit(direction(port));
      const Point side = spread * normal(dir);
      const Point out_end = a + (kMargin - 6) * dir;
      const Point in_start = b - (kMargin - 6) * dir;
      return {segment(a + r * dir + side, out_end + side), segment(in_start + side, b - (r + 3) * dir + side)};
    }
    if (!t_.is_star() && model::dimension_of(port) == 2) {
      // A Z hop between layers drawn side by side: an arc over the layers in between.
      const double lift = 0.35 * kSpacing + 0.12 * std::abs(b.x - a.x) + spread * 1.5;
      const Point control{(a.x + b.x) / 2, std::min(a.y, b.y) - lift};
      const Point start = a + r * unit(control - a), end = b + (r + 3) * unit(control - b);
      return {fmt::format("M {:.1f} {:.1f} Q {:.1f} {:.1f} {:.1f} {:.1f}", start.x, start.y, control.x, control.y,
                          end.x, end.y)};
    }
    const Point dir = unit(b - a);
    const Point side = spread * normal(dir);
    return {segment(a + r * dir + side, b - (r + 3) * dir + side)};
  }

 private:
  static Point unit(Point p) {
    const double l = length(p);
    return l == 0 ? Point{1, 0} : (1 / l) * p;
  }
  static Point normal(Point dir) { return {-dir.y, dir.x}; }
  static std::string segment(Point a, Point b) {
    return fmt::format("M {:.1f} {:.1f} L {:.1f} {:.1f}", a.x, a.y, b.x, b.y);
  }
  // The screen direction of a grid port (+Y is up on screen).
  static Point direction(Port port) {
    const Point dirs[] = {{1, 0}, {-1, 0}, {0, -1}, {0, 1}, {1, 0}, {-1, 0}};
    return dirs[port];
  }

  const Topology& t_;
  const Layout& layout_;
};

void check_hops(const NetworkDrawing& d) {
  const Topology& t = d.topology;
  for (std::size_t w = 0; w < d.worms.size(); ++w) {
    const std::vector<model::RouteHop>& hops = d.worms[w].hops;
    for (std::size_t h = 0; h < hops.size(); ++h) {
      const model::RouteHop& hop = hops[h];
      const bool link = hop.node >= 0 && hop.node < t.node_count() && hop.port >= 0 && hop.port < t.port_count() &&
                        t.neighbour(hop.node, hop.port) != model::kNoNode;
      if (!link) {
        throw model::RequestError(
            fmt::format("worm {} ({}) hop {}: node {} port {} is not a link of {} (nodes 0..{}, ports 0..{})", w + 1,
                        d.worms[w].label, h + 1, hop.node, hop.port, t.spec(), t.node_count() - 1, t.port_count() - 1));
      }
    }
  }
}

std::string network_layer(const Topology& t, const LinkPainter& painter) {
  std::string out = "<g class=\"network\" stroke=\"#c8c8c8\" stroke-width=\"1.2\" fill=\"none\">\n";
  for (NodeId n = 0; n < t.node_count(); ++n) {
    for (Port p = 0; p < t.port_count(); ++p) {
      const NodeId m = t.neighbour(n, p);
      if (m == model::kNoNode) continue;
      // Each undirected link once; a wraparound from its + end, which draws both of its stubs.
      const bool wrap = !t.is_star() && t.is_wraparound(n, p);
      if (wrap ? model::is_negative(p) : m < n) continue;
      for (const std::string& piece : painter.pieces(n, p, 0)) {
        out += fmt::format("<path d=\"{}\"{}/>\n", piece, wrap ? " stroke-dasharray=\"4 3\"" : "");
      }
    }
  }
  out += "</g>\n";
  return out;
}

std::string nodes_layer(const NetworkDrawing& d, const Layout& layout) {
  const Topology& t = d.topology;
  const double r = layout.node_radius();
  const double font = t.is_star() ? 7.5 : (t.dimensions() == 3 ? 8 : 9);
  std::string out = "<g class=\"nodes\">\n";
  for (NodeId n = 0; n < t.node_count(); ++n) {
    const Point p = layout.at(n);
    const bool dest = std::find(d.destinations.begin(), d.destinations.end(), n) != d.destinations.end();
    out += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"{:.1f}\" fill=\"{}\" stroke=\"#555\"/>\n", p.x, p.y, r,
                       n == d.source ? "#222"
                       : dest        ? "#ffe9a8"
                                     : "#ffffff");
    out += fmt::format(
        "<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"{}\" text-anchor=\"middle\" dominant-baseline=\"central\" "
        "fill=\"{}\">{}</text>\n",
        p.x, p.y, font, n == d.source ? "#fff" : "#222", escape(t.node_name(n)));
  }
  out += "</g>\n";
  const Point s = layout.at(d.source);
  out += fmt::format(
      "<rect class=\"source\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"none\" "
      "stroke=\"#000\" stroke-width=\"2.5\"><title>source ({})</title></rect>\n",
      s.x - r - 4, s.y - r - 4, 2 * r + 8, 2 * r + 8, escape(t.node_name(d.source)));
  for (const NodeId n : d.destinations) {
    const Point p = layout.at(n);
    out += fmt::format(
        "<circle class=\"destination\" cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"{:.1f}\" fill=\"none\" stroke=\"#000\" "
        "stroke-width=\"2\"><title>destination ({})</title></circle>\n",
        p.x, p.y, r + 3.5, escape(t.node_name(n)));
  }
  return out;
}

std::string legend(const NetworkDrawing& d, double top, int columns) {
  std::string out = fmt::format("<g class=\"legend\" font-size=\"11\" transform=\"translate(12 {:.1f})\">\n", top);
  out += fmt::format(
      "<rect x=\"0\" y=\"-9\" width=\"12\" height=\"12\" fill=\"none\" stroke=\"#000\" stroke-width=\"2\"/>"
      "<text x=\"18\" y=\"0\">source ({})</text>\n"
      "<circle cx=\"156\" cy=\"-3\" r=\"6.5\" fill=\"#ffe9a8\" stroke=\"#000\" stroke-width=\"2\"/>"
      "<text x=\"168\" y=\"0\">destination ({})</text>\n",
      escape(d.topology.node_name(d.source)), d.destinations.size());
  for (std::size_t i = 0; i < d.worms.size(); ++i) {
    const double x = static_cast<double>(i % static_cast<std::size_t>(columns)) * kLegendColumn;
    const double y = (1 + static_cast<double>(i / static_cast<std::size_t>(columns))) * kLegendRow;
    out += fmt::format(
        "<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"{}\" stroke-width=\"3\"/>"
        "<text x=\"{:.1f}\" y=\"{:.1f}\">{}</text>\n",
        x, y - 4, x + 14, y - 4, worm_colour(i), x + 18, y, escape(d.worms[i].label));
  }
  out += "</g>\n";
  return out;
}

}  // namespace

NetworkDrawing drawing_of_plan(const model::Plan& plan) {
  const model::Request& r = plan.request;
  const Topology& t = r.topology;
  NetworkDrawing d{
      t,
      fmt::format("{} on {} (plan): source ({}), {} destinations, steps {}, traffic {}", r.algorithm, t.spec(),
                  t.node_name(r.source), r.destinations.size(), plan.metrics.steps, plan.metrics.traffic),
      r.source,
      r.destinations,
      {}};
  for (const model::Worm& w : plan.worms) {
    const std::string spawned = w.spawned_from ? fmt::format(", spawned by worm {}", *w.spawned_from + 1) : "";
    d.worms.push_back({fmt::format("step {}: ({}) -> {} destination(s), {} hops{}", w.step, t.node_name(w.sender),
                                   w.keeps_copy.size(), w.hops.size(), spawned),
                       w.hops});
  }
  return d;
}

std::string render_svg(const NetworkDrawing& d) {
  const Topology& t = d.topology;
  t.check_node(d.source);
  for (const NodeId n : d.destinations) t.check_node(n);
  check_hops(d);
  const Layout layout(t);
  const LinkPainter painter(t, layout);
  const int columns = std::max(1, static_cast<int>(layout.width() / kLegendColumn));
  const double legend_top = layout.height() + 14;
  const double rows = 1 + std::ceil(static_cast<double>(d.worms.size()) / columns);
  // Wide enough for the title (about 7.6 px per character at 14 px) and two legend columns.
  const double width =
      std::max({layout.width(), 2 * kLegendColumn * 0.75, 24 + 7.6 * static_cast<double>(d.title.size())});
  const double height = legend_top + rows * kLegendRow + 8;

  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"{0:.0f}\" height=\"{1:.0f}\" "
      "viewBox=\"0 0 {0:.0f} {1:.0f}\" font-family=\"sans-serif\">\n",
      width, height);
  out += fmt::format("<title>{}</title>\n", escape(d.title));
  out += fmt::format("<rect width=\"{:.0f}\" height=\"{:.0f}\" fill=\"#fff\"/>\n", width, height);
  out += fmt::format("<text x=\"12\" y=\"22\" font-size=\"14\">{}</text>\n", escape(d.title));
  if (layout.layers() > 1) {
    for (int z = 0; z < layout.layers(); ++z) {
      out += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"#f4f4f8\"/>\n",
                         z * layout.layer_width() + 4, kTitleHeight, layout.layer_width() - 8,
                         layout.height() - kTitleHeight - 4);
      out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"12\" fill=\"#555\">z = {}</text>\n",
                         z * layout.layer_width() + 12, kTitleHeight + 14, z);
    }
  }
  out += "<defs>\n";
  for (std::size_t i = 0; i < d.worms.size(); ++i) {
    out += fmt::format(
        "<marker id=\"arrow{}\" viewBox=\"0 0 10 10\" refX=\"8\" refY=\"5\" markerWidth=\"4\" markerHeight=\"4\" "
        "orient=\"auto\"><path d=\"M 0 0 L 10 5 L 0 10 z\" fill=\"{}\"/></marker>\n",
        i, worm_colour(i));
  }
  out += "</defs>\n";
  out += network_layer(t, painter);
  out += nodes_layer(d, layout);
  for (std::size_t i = 0; i < d.worms.size(); ++i) {
    const double spread = (static_cast<double>(i % 5) - 2) * kWormSpread;
    out += fmt::format(
        "<g class=\"worm\" id=\"worm{}\" stroke=\"{}\" stroke-width=\"2.2\" fill=\"none\" "
        "stroke-linecap=\"round\"><title>{}</title>\n",
        i + 1, worm_colour(i), escape(d.worms[i].label));
    for (const model::RouteHop& hop : d.worms[i].hops) {
      const std::vector<std::string> pieces = painter.pieces(hop.node, hop.port, spread);
      for (std::size_t k = 0; k < pieces.size(); ++k) {
        const std::string arrow = k + 1 == pieces.size() ? fmt::format(" marker-end=\"url(#arrow{})\"", i) : "";
        out += fmt::format("<path d=\"{}\"{}/>\n", pieces[k], arrow);
      }
    }
    out += "</g>\n";
  }
  out += legend(d, legend_top, columns);
  out += "</svg>\n";
  return out;
}

void write_svg(const std::string& path, const NetworkDrawing& drawing) {
  const std::string text = render_svg(drawing);
  std::ofstream out(path);
  out << text;
  out.close();
  if (!out) {
    throw model::RequestError(
        fmt::format("cannot write the SVG drawing to '{}' (does its folder exist and is it writable?)", path));
  }
}

}  // namespace wormcast::sim
