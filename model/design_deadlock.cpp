// SPDX-License-Identifier: Apache-2.0
#include "model/design_deadlock.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <utility>

#include "model/labeling.hpp"
#include "model/planner.hpp"
#include "model/routing.hpp"
#include "model/xy_path.hpp"

namespace wormcast::model {
namespace {

constexpr Port kPlusX = 0;
constexpr Port kMinusX = 1;
constexpr Port kPlusY = 2;
constexpr Port kMinusY = 3;

// Dependencies on router VCs, each from a channel of one family's class to a channel of a class of
// the same family or, where a worm changes family at a router (a spawned branch, a prefix), another.
class Collector {
 public:
  explicit Collector(const VcClassPlan& plan) : plan_(plan) {}

  void add(RoutingFamily family, const RouteHop& from, int from_class, const RouteHop& to, int to_class) {
    add_across(family, family, from, from_class, family, to, to_class);
  }
  void add_across(RoutingFamily family, RoutingFamily from_family, const RouteHop& from, int from_class,
                  RoutingFamily to_family, const RouteHop& to, int to_class) {
    out_.push_back(DesignDependency{VirtualChannel{from.node, from.port, plan_.vc(from_family, from_class)},
                                    VirtualChannel{to.node, to.port, plan_.vc(to_family, to_class)}, family});
  }
  std::vector<DesignDependency> take() { return std::move(out_); }

 private:
  const VcClassPlan& plan_;
  std::vector<DesignDependency> out_;
};

RouteHop hop_of(const VirtualChannel& c) { return RouteHop{c.node, c.port, c.vc}; }

// The channel network of a channel under the path labeling: class 0 high, 1 low.
int network_class(const HamiltonianLabeling& labeling, NodeId node, Port port) {
  return labeling.network(node, port) == ChannelNetwork::kHigh ? 0 : 1;
}

void add_hamiltonian_path(const Topology& t, Collector& out) {
  const HamiltonianPathRouting routing(t);
  for (const auto& [a, b] : ChannelDependencyGraph::build(routing).dependencies()) {
    out.add(RoutingFamily::kHamiltonianPath, hop_of(a), network_class(routing.labeling(), a.node, a.port), hop_of(b),
            network_class(routing.labeling(), b.node, b.port));
  }
}

// Functions whose own class is the family's class.
void add_by_class(const RoutingFunction& routing, RoutingFamily family, Collector& out) {
  for (const auto& [a, b] : ChannelDependencyGraph::build(routing).dependencies()) {
    out.add(family, hop_of(a), a.vc, hop_of(b), b.vc);
  }
}

// Dimension-order worms by what the algorithms that send them send (AlgorithmInfo::
// dimension_order_worms): edn's and np-d's XY worms go between any two nodes (the function's whole
// graph); rd's go along one line (dimension order on a straight line is the line: the cpr-line
// function's routes); the trees' go one hop (no dependency: nothing is held while the one channel is
// requested).
void add_dimension_order(const Topology& t, const FamilyVcs& f, Collector& out) {
  const auto sends = [&](DimensionOrderWorms worms) {
    return std::any_of(f.algorithms.begin(), f.algorithms.end(),
                       [&](const std::string& a) { return algorithm_info(a).dimension_order_worms == worms; });
  };
  if (sends(DimensionOrderWorms::kAnyPair)) {
    add_by_class(DimensionOrderRouting(t), f.family, out);
  } else if (sends(DimensionOrderWorms::kAlongLine)) {
    add_by_class(CprLineRouting(t), f.family, out);  // rd runs on meshes: class 0, as dimension order there
  }
}

// A spine worm that arrived over a Y channel requests the +-X branches the router spawns, each in
// the branch class of its X direction (CprLineRouting::spawned_branch_class); each branch runs
// straight along X to the row end. (The starvation dependencies of synchronous replication are
// per tree: add_pcp_tree_starvation.)
void add_pcp_branches(const Topology& t, Collector& out) {
  constexpr RoutingFamily kFamily = RoutingFamily::kPcpBranch;
  for (NodeId node = 0; node < t.node_count(); ++node) {
    for (Port x : {kPlusX, kMinusX}) {
      if (t.neighbour(node, x) == kNoNode) continue;
      const int cls = x == kPlusX ? 0 : 1;  // the family's classes: plus-x, minus-x
      const RouteHop branch{node, x, 0};
      for (Port y : {kPlusY, kMinusY}) {
        const NodeId previous = t.neighbour(node, y);
        if (previous == kNoNode) continue;
        // The spine is a cpr-line worm (class 0) that arrived over previous -> node.
        out.add_across(kFamily, RoutingFamily::kCprLine, RouteHop{previous, t.reverse_port(y), 0}, 0, kFamily, branch,
                       cls);
      }
      const NodeId next = t.neighbour(node, x);
      if (t.neighbour(next, x) != kNoNode) out.add(kFamily, branch, cls, RouteHop{next, x, 0}, cls);
    }
  }
}

// PCP's replicating tree from `source` (docs/rtl.md, "Replication and deadlock"): each spine
// router after the source (entered over Y) spawns +-X branches, which run straight to the row
// end; and synchronous replication adds a starvation dependency: a spine router forwards a flit
// only when every output it replicates into has room, so a branch gets its flits only while its
// spine moves on, and every channel of a branch waits for the spine's next Y channel out of the
// spawning router. (A spine that ends at a router replicates into ejection there, which always
// drains: no such dependency.) One tree at a time, as the replication lock lets into the network:
// the union over all sources would join trees that never coexist (a +Y spine's branch channel is
// also a -Y spine's in another tree).
void add_pcp_tree(const Topology& t, NodeId source, Collector& out) {
  constexpr RoutingFamily kFamily = RoutingFamily::kPcpBranch;
  for (Port direction : {kPlusY, kMinusY}) {
    NodeId previous = source;
    for (NodeId node = t.neighbour(source, direction); node != kNoNode;
         previous = node, node = t.neighbour(node, direction)) {
      const bool spine_goes_on = t.neighbour(node, direction) != kNoNode;
      for (Port x : {kPlusX, kMinusX}) {
        if (t.neighbour(node, x) == kNoNode) continue;
        const int cls = x == kPlusX ? 0 : 1;  // the family's classes: plus-x, minus-x
        out.add_across(kFamily, RoutingFamily::kCprLine, RouteHop{previous, direction, 0}, 0, kFamily,
                       RouteHop{node, x, 0}, cls);
        RouteHop hop{node, x, 0};
        for (int h = 0; h + 1 < t.size(0) && t.neighbour(hop.node, x) != kNoNode;
             ++h, hop.node = t.neighbour(hop.node, x)) {
          const NodeId next = t.neighbour(hop.node, x);
          if (t.neighbour(next, x) != kNoNode) out.add(kFamily, hop, cls, RouteHop{next, x, 0}, cls);
          if (spine_goes_on)
            out.add_across(kFamily, kFamily, hop, cls, RoutingFamily::kCprLine, RouteHop{node, direction, 0}, 0);
        }
      }
    }
  }
}

// Hops of the node sequence `nodes` (consecutive nodes adjacent).
std::vector<RouteHop> hops_of(const Topology& t, const std::vector<NodeId>& nodes) {
  std::vector<RouteHop> hops;
  for (std::size_t i = 1; i < nodes.size(); ++i)
    hops.push_back(RouteHop{nodes[i - 1], t.port_towards(nodes[i - 1], nodes[i]), 0});
  return hops;
}

// Consecutive hops of each route, and at every node the continuation from each route ending there
// to each route starting there (the routes of one path all move forward along it).
void add_routes_with_continuations(const Topology& t, RoutingFamily family, int family_class,
                                   const std::vector<std::vector<RouteHop>>& routes, bool continues, Collector& out) {
  std::vector<std::set<std::pair<int, int>>> arrivals(static_cast<std::size_t>(t.node_count()));
  std::vector<std::set<std::pair<int, int>>> departures(static_cast<std::size_t>(t.node_count()));
  for (const std::vector<RouteHop>& route : routes) {
    if (route.empty()) continue;
    for (std::size_t i = 1; i < route.size(); ++i) out.add(family, route[i - 1], family_class, route[i], family_class);
    const RouteHop& last = route.back();
    arrivals[static_cast<std::size_t>(t.neighbour(last.node, last.port))].insert({last.node, last.port});
    departures[static_cast<std::size_t>(route.front().node)].insert({route.front().node, route.front().port});
  }
  if (!continues) return;
  for (NodeId node = 0; node < t.node_count(); ++node) {
    for (const auto& [an, ap] : arrivals[static_cast<std::size_t>(node)]) {
      for (const auto& [dn, dp] : departures[static_cast<std::size_t>(node)]) {
        out.add(family, RouteHop{an, ap, 0}, family_class, RouteHop{dn, dp, 0}, family_class);
      }
    }
  }
}

// Per partition path of both variants from every corner: every forward route along the path.
void add_xy_path_routes(const Topology& t, Collector& out) {
  const int xs[] = {0, t.size(0) - 1};
  const int ys[] = {0, t.size(1) - 1};
  for (int x : xs) {
    for (int y : ys) {
      const NodeId corner = t.node_at(Coord{x, y, 0});
      for (XyFirstPath first : {XyFirstPath::kY, XyFirstPath::kX}) {
        const XyPartition partition = xy_partition(t, corner, first);
        // The class names the direction the path advances in: x-path-up, x-path-down, y-path-right,
        // y-path-left.
        const int x_class = xy_path_class(t, corner, true);
        const int y_class = xy_path_class(t, corner, false);
        for (const auto& [path, family_class] :
             {std::pair{&partition.x_path, x_class}, std::pair{&partition.y_path, y_class}}) {
          const std::vector<int> labels = base_path_labels(t, *path);
          std::vector<std::vector<RouteHop>> routes;
          for (std::size_t i = 0; i < path->size(); ++i) {
            for (std::size_t j = i + 1; j < path->size(); ++j) {
              routes.push_back(hops_of(t, xy_route(t, labels, (*path)[i], (*path)[j])));
            }
          }
          add_routes_with_continuations(t, RoutingFamily::kXyPathRoute, family_class, routes, true, out);
        }
      }
    }
  }
}

// The YX route between every ordered pair: the Y leg, then the X leg; single-destination worms.
void add_edn_yx_legs(const Topology& t, Collector& out) {
  std::vector<std::vector<RouteHop>> routes;
  for (NodeId from = 0; from < t.node_count(); ++from) {
    for (NodeId to = 0; to < t.node_count(); ++to) {
      if (from == to) continue;
      const Coord a = t.coord(from), b = t.coord(to);
      std::vector<NodeId> nodes = {from};
      Coord c = a;
      for (int d : {1, 0}) {
        while (c[static_cast<std::size_t>(d)] != b[static_cast<std::size_t>(d)]) {
          c[static_cast<std::size_t>(d)] += c[static_cast<std::size_t>(d)] < b[static_cast<std::size_t>(d)] ? 1 : -1;
          nodes.push_back(t.node_at(c));
        }
      }
      routes.push_back(hops_of(t, nodes));
    }
  }
  add_routes_with_continuations(t, RoutingFamily::kEdnYxLeg, 0, routes, false, out);
}

// A row worm's prefix takes the source's row channel (+X when the worm's network runs +X along
// the source's row, else -X); the real head then leaves the neighbour by Hamiltonian-path routing
// toward the worm's first destination, or (delivering there) toward the next.
void add_multi_path_prefixes(const Topology& t, Collector& out) {
  const HamiltonianPathRouting routing(t);
  const HamiltonianLabeling& labeling = routing.labeling();
  for (NodeId source = 0; source < t.node_count(); ++source) {
    const Coord s = t.coord(source);
    for (int network : {0, 1}) {  // high, low
      const bool high = network == 0;
      const Port row = high == (s[1] % 2 == 0) ? kPlusX : kMinusX;
      const NodeId next = t.neighbour(source, row);
      if (next == kNoNode || t.is_wraparound(source, row)) continue;
      const auto beyond = [&](NodeId from, NodeId n) {
        return high ? labeling.label(n) > labeling.label(from) : labeling.label(n) < labeling.label(from);
      };
      std::set<Port> first_ports;
      for (NodeId d = 0; d < t.node_count(); ++d) {
        const int dx = t.coord(d)[0];
        const bool beside = row == kPlusX ? dx > s[0] : dx < s[0];
        if (!beside || !beyond(source, d)) continue;
        if (d != next) {
          first_ports.insert(routing.route(next, 0, d).port);
          continue;
        }
        for (NodeId later = 0; later < t.node_count(); ++later) {  // delivered at next: the next leg
          if (later != next && beyond(next, later)) first_ports.insert(routing.route(next, 0, later).port);
        }
      }
      for (Port p : first_ports) {
        out.add_across(RoutingFamily::kMultiPathPrefix, RoutingFamily::kMultiPathPrefix, RouteHop{source, row, 0},
                       network, RoutingFamily::kHamiltonianPath, RouteHop{next, p, 0},
                       network_class(labeling, next, p));
      }
    }
  }
}

std::string channel_name(const Topology& t, const VirtualChannel& c) {
  return fmt::format("({}) {} vc{}", t.node_name(c.node), t.port_name(c.port), c.vc);
}

}  // namespace

std::vector<DesignDependency> design_dependencies(const Topology& topology, const VcClassPlan& plan,
                                                  const std::vector<RoutingFamily>& only) {
  Collector out(plan);
  for (const FamilyVcs& f : plan.families) {
    if (!only.empty() && std::find(only.begin(), only.end(), f.family) == only.end()) continue;
    switch (f.family) {
      case RoutingFamily::kHamiltonianPath:
        add_hamiltonian_path(topology, out);
        break;
      case RoutingFamily::kHamiltonianCycle:
        add_by_class(HamiltonianCycleRouting(topology), f.family, out);
        break;
      case RoutingFamily::kDimensionOrder:
        add_dimension_order(topology, f, out);
        break;
      case RoutingFamily::kCprLine:
        add_by_class(CprLineRouting(topology), f.family, out);
        break;
      case RoutingFamily::kPcpBranch:
        add_pcp_branches(topology, out);
        break;
      case RoutingFamily::kXyPathRoute:
        add_xy_path_routes(topology, out);
        break;
      case RoutingFamily::kEdnYxLeg:
        add_edn_yx_legs(topology, out);
        break;
      case RoutingFamily::kMultiPathPrefix:
        add_multi_path_prefixes(topology, out);
        break;
    }
  }
  return out.take();
}

DesignDeadlockCheck check_design_deadlock(const Topology& topology, const VcClassPlan& plan,
                                          const std::vector<RoutingFamily>& only) {
  DesignDeadlockCheck check;
  check.vc_count = std::max(plan.vc_count, 1);
  ChannelDependencyGraph graph(topology, check.vc_count);
  const auto key = [&](const VirtualChannel& c) { return std::tuple<int, int, int>{c.node, c.port, c.vc}; };
  std::map<std::pair<std::tuple<int, int, int>, std::tuple<int, int, int>>, std::set<RoutingFamily>> families;
  const bool has_branches =
      std::any_of(plan.families.begin(), plan.families.end(),
                  [](const FamilyVcs& f) { return f.family == RoutingFamily::kPcpBranch; }) &&
      (only.empty() || std::find(only.begin(), only.end(), RoutingFamily::kPcpBranch) != only.end());
  // PCP's branches per tree (add_pcp_tree), everything else at once.
  for (const DesignDependency& d : design_dependencies(topology, plan, only)) {
    if (d.family == RoutingFamily::kPcpBranch) continue;
    graph.add_dependency(d.from, d.to);
    families[{key(d.from), key(d.to)}].insert(d.family);
  }
  check.dependency_count = graph.dependency_count();
  check.used_channel_count = graph.used_channel_count();
  check.cycle = graph.find_shortest_cycle();
  std::set<std::pair<std::tuple<int, int, int>, std::tuple<int, int, int>>> starvation, spawned;
  for (NodeId source = 0; !check.cycle && has_branches && source < topology.node_count(); ++source) {
    Collector tree(plan);
    add_pcp_tree(topology, source, tree);
    ChannelDependencyGraph with_tree = graph;
    starvation.clear();
    spawned.clear();
    for (const DesignDependency& d : tree.take()) {
      with_tree.add_dependency(d.from, d.to);
      (d.to.port == kPlusY || d.to.port == kMinusY ? starvation : spawned).insert({key(d.from), key(d.to)});
    }
    check.dependency_count = std::max(check.dependency_count, with_tree.dependency_count());
    check.used_channel_count = std::max(check.used_channel_count, with_tree.used_channel_count());
    if (!with_tree.find_cycle()) continue;
    check.cycle = with_tree.find_shortest_cycle();
    check.starvation_tree = source;
  }
  if (!check.cycle) return check;
  const std::vector<VirtualChannel>& cycle = *check.cycle;
  if (check.starvation_tree)
    check.cycle_text += fmt::format("  (with the PCP tree from {}: its branches and their starvation dependencies)\n",
                                    topology.node_name(*check.starvation_tree));
  for (std::size_t i = 0; i < cycle.size(); ++i) {
    const VirtualChannel& from = cycle[i];
    const VirtualChannel& to = cycle[(i + 1) % cycle.size()];
    std::set<RoutingFamily> by;
    std::vector<std::string> names;
    if (const auto it = families.find({key(from), key(to)}); it != families.end()) {
      by = it->second;
      for (RoutingFamily f : by) names.emplace_back(to_string(f));
    }
    if (spawned.count({key(from), key(to)}) != 0) {
      by.insert(RoutingFamily::kPcpBranch);
      names.emplace_back("pcp-branch");
    }
    if (starvation.count({key(from), key(to)}) != 0) {
      by.insert(RoutingFamily::kPcpBranch);
      names.emplace_back("pcp-branch starvation");
    }
    check.cycle_families.emplace_back(by.begin(), by.end());
    check.cycle_text += fmt::format("  {} -> {}  [{}]\n", channel_name(topology, from), channel_name(topology, to),
                                    fmt::join(names, ", "));
  }
  return check;
}

std::vector<RoutingFamily> families_in_cycle(const DesignDeadlockCheck& check) {
  std::vector<RoutingFamily> in;
  for (RoutingFamily f : routing_families()) {
    for (const auto& edge : check.cycle_families) {
      if (std::find(edge.begin(), edge.end(), f) != edge.end()) {
        in.push_back(f);
        break;
      }
    }
  }
  return in;
}

}  // namespace wormcast::model
