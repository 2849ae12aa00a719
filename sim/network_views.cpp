// SPDX-License-Identifier: Apache-2.0
#include "sim/network_views.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace wormcast::sim {

using model::Coord;
using model::HamiltonianLabeling;
using model::LinkClass;
using model::NodeId;
using model::Port;
using model::Topology;

namespace {

std::string render_star_labeling(const HamiltonianLabeling& labeling) {
  const Topology& t = labeling.topology();
  std::string out;
  for (int label = 0; label < labeling.size(); ++label) {
    out += fmt::format("{:>4}:{}{}", label, t.node_name(labeling.node(label)), (label + 1) % 8 == 0 ? "\n" : " ");
  }
  if (labeling.size() % 8 != 0) out += '\n';
  if (!labeling.is_cycle()) return out;
  std::string boundary;
  for (NodeId node = 0; node < t.node_count(); ++node) {
    for (Port p = 0; p < t.port_count(); ++p) {
      const NodeId other = t.neighbour(node, p);
      if (node < other && labeling.link_class(node, p) == LinkClass::kBoundary) {
        boundary += fmt::format(" {{{},{}}}", labeling.label(node), labeling.label(other));
      }
    }
  }
  return out + "boundary links (labels):" + boundary + "\n";
}

}  // namespace

std::string render_labeling(const HamiltonianLabeling& labeling) {
  const Topology& t = labeling.topology();
  if (t.is_star()) return render_star_labeling(labeling);
  const int width = static_cast<int>(fmt::format("{}", t.node_count() - 1).size()) + 1;
  const int layers = t.dimensions() == 3 ? t.size(2) : 1;
  std::string out;
  for (int z = 0; z < layers; ++z) {
    if (layers > 1) out += fmt::format("z = {}\n", z);
    for (int y = t.size(1) - 1; y >= 0; --y) {
      out += fmt::format("{:>3} |", y);
      for (int x = 0; x < t.size(0); ++x) {
        out += fmt::format("{:>{}}", labeling.label(t.node_at(Coord{x, y, z})), width);
      }
      out += '\n';
    }
    out += "    +" + std::string(static_cast<std::size_t>(width * t.size(0)), '-') + "\n     ";
    for (int x = 0; x < t.size(0); ++x) out += fmt::format("{:>{}}", x, width);
    out += "  (x)\n";
  }
  return out;
}

std::string render_worm(const model::RoutingFunction& routing, NodeId source, model::VcClass vc,
                        const std::vector<NodeId>& stops) {
  const Topology& t = routing.topology();
  std::string out = fmt::format("({})", t.node_name(source));
  std::size_t hop_count = 0;
  NodeId here = source;
  for (NodeId stop : stops) {
    for (const model::RouteHop& hop : model::trace_route(routing, here, vc, stop)) {
      out += fmt::format(" -[{} {}]-> ({})", t.port_name(hop.port), routing.vc_class_name(hop.vc),
                         t.node_name(t.neighbour(hop.node, hop.port)));
      vc = hop.vc;
      ++hop_count;
    }
    out += '*';
    here = stop;
  }
  if (stops.size() == 1) {
    return out + fmt::format("   [{} hops, shortest {}]", hop_count, t.distance(source, stops.front()));
  }
  return out + fmt::format("   [{} hops]", hop_count);
}

std::string render_deadlock_check(const model::RoutingFunction& routing) {
  const model::ChannelDependencyGraph graph = model::ChannelDependencyGraph::build(routing);
  const std::string size = fmt::format("{} on {}: {} virtual channels in use, {} dependencies", routing.name(),
                                       routing.topology().spec(), graph.used_channel_count(), graph.dependency_count());
  const auto cycle = graph.find_cycle();
  if (!cycle) return size + "; acyclic, so deadlock-free";
  return size + fmt::format("; CYCLIC ({} channels): {}", cycle->size(), graph.describe_cycle(*cycle));
}

}  // namespace wormcast::sim
