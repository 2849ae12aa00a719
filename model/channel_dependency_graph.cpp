// SPDX-License-Identifier: Apache-2.0
#include "model/channel_dependency_graph.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "model/errors.hpp"

namespace wormcast::model {
namespace {

bool is_injection_class(const RoutingFunction& routing, VcClass vc) {
  const std::vector<VcClass> injection = routing.injection_classes();
  return std::find(injection.begin(), injection.end(), vc) != injection.end();
}

}  // namespace

ChannelDependencyGraph::ChannelDependencyGraph(const Topology& topology, int vc_class_count)
    : topology_(topology),
      vc_class_count_(vc_class_count),
      successors_(static_cast<std::size_t>(topology.node_count() * topology.port_count() * vc_class_count)) {}

int ChannelDependencyGraph::index(const VirtualChannel& c) const {
  topology_.check_node(c.node);
  topology_.check_port(c.port);
  if (c.vc < 0 || c.vc >= vc_class_count_) {
    throw RoutingError(fmt::format("VC class {} is outside 0..{}", c.vc, vc_class_count_ - 1));
  }
  return (c.node * topology_.port_count() + c.port) * vc_class_count_ + c.vc;
}

VirtualChannel ChannelDependencyGraph::channel(int i) const {
  const int vc = i % vc_class_count_;
  const int rest = i / vc_class_count_;
  return VirtualChannel{rest / topology_.port_count(), rest % topology_.port_count(), vc};
}

void ChannelDependencyGraph::add_dependency(const VirtualChannel& from, const VirtualChannel& to) {
  std::vector<int>& next = successors_[static_cast<std::size_t>(index(from))];
  const int target = index(to);
  if (std::find(next.begin(), next.end(), target) == next.end()) next.push_back(target);
}

bool ChannelDependencyGraph::has_dependency(const VirtualChannel& from, const VirtualChannel& to) const {
  const std::vector<int>& next = successors_[static_cast<std::size_t>(index(from))];
  return std::find(next.begin(), next.end(), index(to)) != next.end();
}

std::size_t ChannelDependencyGraph::dependency_count() const {
  std::size_t count = 0;
  for (const auto& next : successors_) count += next.size();
  return count;
}

std::size_t ChannelDependencyGraph::used_channel_count() const {
  std::vector<bool> used(successors_.size(), false);
  for (std::size_t i = 0; i < successors_.size(); ++i) {
    if (!successors_[i].empty()) used[i] = true;
    for (int j : successors_[i]) used[static_cast<std::size_t>(j)] = true;
  }
  return static_cast<std::size_t>(std::count(used.begin(), used.end(), true));
}

std::vector<std::pair<VirtualChannel, VirtualChannel>> ChannelDependencyGraph::dependencies() const {
  std::vector<std::pair<VirtualChannel, VirtualChannel>> all;
  for (std::size_t i = 0; i < successors_.size(); ++i) {
    for (int j : successors_[i]) all.emplace_back(channel(static_cast<int>(i)), channel(j));
  }
  return all;
}

ChannelDependencyGraph ChannelDependencyGraph::build(const RoutingFunction& routing) {
  const Topology& t = routing.topology();
  ChannelDependencyGraph graph(t, routing.vc_class_count());
  const int hop_limit = t.node_count() * routing.vc_class_count();
  // Per node: the channels completed routes arrive over, and (start class, first channel) of the
  // routes that leave it, for the multidestination continuations added at the end.
  struct Departure {
    VcClass start;
    RouteHop first_hop;
    bool operator==(const Departure&) const = default;
  };
  std::vector<std::vector<RouteHop>> arrivals(static_cast<std::size_t>(t.node_count()));
  std::vector<std::vector<Departure>> departures(static_cast<std::size_t>(t.node_count()));
  const auto add_unique = [](auto& list, const auto& item) {
    if (std::find(list.begin(), list.end(), item) == list.end()) list.push_back(item);
  };
  std::vector<VirtualChannel> walk;
  for (NodeId source = 0; source < t.node_count(); ++source) {
    for (NodeId destination = 0; destination < t.node_count(); ++destination) {
      if (source == destination) continue;
      for (VcClass entry : routing.entry_classes()) {
        walk.clear();
        NodeId here = source;
        VcClass vc = entry;
        bool complete = false;
        while (static_cast<int>(walk.size()) <= hop_limit) {
          const std::optional<RouteStep> step = routing.try_route(here, vc, destination);
          if (!step) break;
          if (step->ejects()) {
            complete = here == destination;
            break;
          }
          walk.push_back(VirtualChannel{here, step->port, step->vc});
          here = t.neighbour(here, step->port);
          vc = step->vc;
          if (here == kNoNode) break;
        }
        if (!complete) {
          if (walk.empty()) continue;  // a request this function does not serve
          if (is_injection_class(routing, entry)) {
            // Reproduce the failure with the checked tracer so the message names the state.
            trace_route(routing, source, entry, destination);
            throw RoutingError(fmt::format("{} on {} does not complete the route {} -> {}", routing.name(), t.spec(),
                                           t.node_name(source), t.node_name(destination)));
          }
          continue;  // an entry state the function never reaches
        }
        for (std::size_t i = 1; i < walk.size(); ++i) graph.add_dependency(walk[i - 1], walk[i]);
        const VirtualChannel& first = walk.front();
        const VirtualChannel& last = walk.back();
        add_unique(departures[static_cast<std::size_t>(source)],
                   Departure{entry, RouteHop{first.node, first.port, first.vc}});
        add_unique(arrivals[static_cast<std::size_t>(destination)], RouteHop{last.node, last.port, last.vc});
      }
    }
  }
  // A multidestination worm holds the channel it arrived over at an intermediate destination while
  // it requests the first channel toward the next one.
  for (NodeId node = 0; node < t.node_count(); ++node) {
    for (const RouteHop& arrival : arrivals[static_cast<std::size_t>(node)]) {
      for (const Departure& departure : departures[static_cast<std::size_t>(node)]) {
        if (routing.continues_after_delivery(arrival, departure.start, departure.first_hop)) {
          graph.add_dependency(
              VirtualChannel{arrival.node, arrival.port, arrival.vc},
              VirtualChannel{departure.first_hop.node, departure.first_hop.port, departure.first_hop.vc});
        }
      }
    }
  }
  return graph;
}

std::optional<std::vector<VirtualChannel>> ChannelDependencyGraph::find_cycle() const {
  // Iterative depth-first search; a back edge to a vertex on the stack closes a cycle.
  enum class Mark : unsigned char { kUnseen, kOnStack, kDone };
  std::vector<Mark> mark(successors_.size(), Mark::kUnseen);
  std::vector<std::pair<int, std::size_t>> stack;  // (vertex, next successor to try)
  for (std::size_t root = 0; root < successors_.size(); ++root) {
    if (mark[root] != Mark::kUnseen) continue;
    stack.emplace_back(static_cast<int>(root), 0);
    mark[root] = Mark::kOnStack;
    while (!stack.empty()) {
      auto& [vertex, next] = stack.back();
      const std::vector<int>& out = successors_[static_cast<std::size_t>(vertex)];
      if (next == out.size()) {
        mark[static_cast<std::size_t>(vertex)] = Mark::kDone;
        stack.pop_back();
        continue;
      }
      const int target = out[next++];
      if (mark[static_cast<std::size_t>(target)] == Mark::kOnStack) {
        std::vector<VirtualChannel> cycle;
        auto it = std::find_if(stack.begin(), stack.end(), [target](const auto& e) { return e.first == target; });
        for (; it != stack.end(); ++it) cycle.push_back(channel(it->first));
        return cycle;
      }
      if (mark[static_cast<std::size_t>(target)] == Mark::kUnseen) {
        mark[static_cast<std::size_t>(target)] = Mark::kOnStack;
        stack.emplace_back(target, 0);
      }
    }
  }
  return std::nullopt;
}

std::optional<std::vector<VirtualChannel>> ChannelDependencyGraph::find_shortest_cycle() const {
  if (!find_cycle()) return std::nullopt;
  const std::size_t n = successors_.size();
  std::vector<int> best;
  std::vector<int> parent(n);
  std::vector<int> queue;
  for (std::size_t root = 0; root < n; ++root) {
    if (successors_[root].empty()) continue;
    // Shortest path root -> ... -> root: breadth-first until an edge returns to root.
    std::fill(parent.begin(), parent.end(), -1);
    queue.assign(1, static_cast<int>(root));
    int closing = -1;
    for (std::size_t head = 0; head < queue.size() && closing < 0; ++head) {
      const int v = queue[head];
      for (int w : successors_[static_cast<std::size_t>(v)]) {
        if (w == static_cast<int>(root)) {
          closing = v;
          break;
        }
        if (parent[static_cast<std::size_t>(w)] < 0) {
          parent[static_cast<std::size_t>(w)] = v;
          queue.push_back(w);
        }
      }
    }
    if (closing < 0) continue;
    std::vector<int> cycle;
    for (int v = closing; v != static_cast<int>(root); v = parent[static_cast<std::size_t>(v)]) cycle.push_back(v);
    cycle.push_back(static_cast<int>(root));
    if (best.empty() || cycle.size() < best.size()) best.assign(cycle.rbegin(), cycle.rend());
  }
  std::vector<VirtualChannel> out;
  for (int v : best) out.push_back(channel(v));
  return out;
}

std::string ChannelDependencyGraph::describe_cycle(const std::vector<VirtualChannel>& cycle) const {
  std::string out;
  for (std::size_t i = 0; i <= cycle.size() && !cycle.empty(); ++i) {
    const VirtualChannel& c = cycle[i % cycle.size()];
    out += fmt::format("{}({}) {} vc{}", i == 0 ? "" : " -> ", topology_.node_name(c.node), topology_.port_name(c.port),
                       c.vc);
  }
  return out;
}

}  // namespace wormcast::model
