// SPDX-License-Identifier: Apache-2.0
#include "sim/scoreboard.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <tuple>

#include "model/plan_steps.hpp"

namespace wormcast::sim {
namespace {

std::string hop_text(const model::Topology& t, const model::RouteHop& h) {
  return fmt::format("{} {} class {}", t.node_name(h.node), t.port_name(h.port), h.vc);
}

// "router R dropped a worm with no route at cycle C (input P VC V, worm S->D)".
std::string drop_text(const model::Topology& t, const RunRecord& record, const RouteDrop& d) {
  std::string input;
  if (d.input_port >= 0) {
    input = d.input_port < t.port_count() ? t.port_name(d.input_port)
                                          : fmt::format("local {}", d.input_port - t.port_count());
    input = fmt::format("input {} VC {}", input, d.vc);
  }
  std::string worm;
  if (d.worm >= 0) {
    const ObservedWorm& w = record.worms[static_cast<std::size_t>(d.worm)];
    worm = fmt::format("{}worm {}->{}", input.empty() ? "" : ", ", t.node_name(w.sender),
                       w.addressed == model::kNoNode ? "?" : t.node_name(w.addressed));
  }
  return fmt::format("router {} dropped a worm with no route at cycle {}{}", t.node_name(d.router), d.cycle,
                     input.empty() && worm.empty() ? "" : fmt::format(" ({}{})", input, worm));
}

// The route drops of the multicast's worms, in words ("" when there are none).
std::string drops_of(const model::Topology& t, int multicast, const RunRecord& record) {
  std::string s;
  for (const RouteDrop& d : record.route_drops) {
    if (d.worm < 0 || record.worms[static_cast<std::size_t>(d.worm)].multicast != multicast) continue;
    s += (s.empty() ? "" : "; ") + drop_text(t, record, d);
  }
  return s;
}

std::string check_deliveries(const model::Plan& plan, int multicast, const RunRecord& record) {
  const model::Topology& t = plan.request.topology;
  std::map<model::NodeId, const Delivery*> got;
  for (const Delivery& d : record.deliveries) {
    if (d.multicast != multicast) continue;
    if (!d.payload_ok) {
      return fmt::format("multicast {}: node {} got a corrupted payload (cycle {})", multicast, t.node_name(d.node),
                         d.cycle);
    }
    const auto [it, fresh] = got.emplace(d.node, &d);
    if (!fresh) {
      return fmt::format("multicast {}: node {} received the message twice (cycles {} and {})", multicast,
                         t.node_name(d.node), it->second->cycle, d.cycle);
    }
  }
  const std::set<model::NodeId> wanted(plan.request.destinations.begin(), plan.request.destinations.end());
  for (const auto& [node, d] : got) {
    if (!wanted.count(node)) {
      return fmt::format("multicast {}: node {} received the message (cycle {}) but is not a destination", multicast,
                         t.node_name(node), d->cycle);
    }
  }
  for (const model::NodeId node : plan.request.destinations) {
    if (!got.count(node)) {
      const std::string drops = drops_of(t, multicast, record);
      return fmt::format("multicast {}: destination {} never received the message{}", multicast, t.node_name(node),
                         drops.empty() ? "" : ": " + drops);
    }
  }
  return "";
}

std::string check_worms(const model::Plan& plan, int multicast, const RunRecord& record) {
  const model::Topology& t = plan.request.topology;
  std::map<std::pair<model::NodeId, model::NodeId>, const ObservedWorm*> rtl;
  for (const ObservedWorm& w : record.worms) {
    if (w.multicast != multicast) continue;
    const std::string name = fmt::format("multicast {}: worm {}->{} (sequence {})", multicast, t.node_name(w.sender),
                                         t.node_name(w.addressed), w.sequence);
    if (w.route_drop >= 0) {
      return name + ": " + drop_text(t, record, record.route_drops[static_cast<std::size_t>(w.route_drop)]);
    }
    if (w.ejected_at == model::kNoNode) return name + " was never ejected";
    if (!rtl.emplace(std::pair{w.sender, w.addressed}, &w).second) return name + " was sent twice";
  }
  // A worm the routers spawn (PCP's spine branches, Worm::spawned_from) travels under its root's
  // src and tag: its links and copies belong to the root's RTL worm.
  const std::vector<int> causal = model::causal_steps(plan);
  std::vector<std::size_t> root(plan.worms.size());
  for (std::size_t i = 0; i < plan.worms.size(); ++i) {
    root[i] = i;
    while (plan.worms[root[i]].spawned_from) root[i] = *plan.worms[root[i]].spawned_from;
  }
  for (std::size_t index = 0; index < plan.worms.size(); ++index) {
    const model::Worm& p = plan.worms[index];
    if (p.spawned_from) continue;
    std::vector<model::NodeId> copies_wanted;
    std::vector<model::RouteHop> hops_wanted;
    bool family = false;
    for (std::size_t i = 0; i < plan.worms.size(); ++i) {
      if (root[i] != index) continue;
      const model::Worm& m = plan.worms[i];
      family |= i != index;
      copies_wanted.insert(copies_wanted.end(), m.keeps_copy.begin(), m.keeps_copy.end());
      copies_wanted.insert(copies_wanted.end(), m.relays.begin(), m.relays.end());
      hops_wanted.insert(hops_wanted.end(), m.hops.begin(), m.hops.end());
    }
    const model::NodeId receiver = p.header.destinations.front();
    const auto it = rtl.find({p.sender, receiver});
    const std::string name = fmt::format("multicast {}: worm {}->{} (step {})", multicast, t.node_name(p.sender),
                                         t.node_name(receiver), p.step);
    if (it == rtl.end()) return name + " of the plan was never sent on the RTL";
    const ObservedWorm& w = *it->second;
    // Steps: the monitor's, from causality, against the same rule applied to the plan; then the
    // firmware's own claim against the monitor's, off by exactly what the plan's numbering is off
    // from causality (0 except where an algorithm numbers its steps globally: rd, edn).
    const int want = causal[index];
    if (w.derived_step != want) {
      return fmt::format("{}: sent in step {} by causality, the plan's causal step is {}", name, w.derived_step, want);
    }
    if (w.step - w.derived_step != p.step - want) {
      return fmt::format("{}: the firmware claims step {}, the monitor derived step {} (plan step {}, causal {})", name,
                         w.step, w.derived_step, p.step, want);
    }
    if (w.channel != p.port) {
      return fmt::format("{}: the firmware injected it on channel {}, the plan on port {} (cycle {})", name, w.channel,
                         p.port, w.inject_cycle);
    }
    // Where copies left the network: the nodes the plan's worm (and its spawned branches) keeps a
    // copy at or relays through (intermediate reception, CPR deliveries, the receiver of a
    // unicast), each copy taken in whole.
    for (const EjectedCopy& c : w.copies) {
      if (c.tail_cycle < 0) {
        return fmt::format("{}: the copy ejected at {} (cycle {}) was never taken in whole", name, t.node_name(c.node),
                           c.head_cycle);
      }
    }
    std::vector<model::NodeId> copies_seen;
    for (const EjectedCopy& c : w.copies) copies_seen.push_back(c.node);
    std::sort(copies_seen.begin(), copies_seen.end());
    std::sort(copies_wanted.begin(), copies_wanted.end());
    if (copies_seen != copies_wanted) {
      const auto names = [&t](const std::vector<model::NodeId>& nodes) {
        std::string s;
        for (const model::NodeId n : nodes) s += (s.empty() ? "" : " ") + t.node_name(n);
        return s;
      };
      return fmt::format("{}: copies ejected at [{}], plan [{}]", name, names(copies_seen), names(copies_wanted));
    }
    if (family) {
      // Branches advance in parallel: compare the links as sets.
      const auto key = [](const model::RouteHop& h) { return std::tuple(h.node, h.port, h.vc); };
      const auto by_key = [&key](const model::RouteHop& a, const model::RouteHop& b) { return key(a) < key(b); };
      std::vector<model::RouteHop> seen = w.hops;
      std::sort(seen.begin(), seen.end(), by_key);
      std::sort(hops_wanted.begin(), hops_wanted.end(), by_key);
      for (std::size_t i = 0; i < std::max(seen.size(), hops_wanted.size()); ++i) {
        if (i < seen.size() && i < hops_wanted.size() && seen[i] == hops_wanted[i]) continue;
        return fmt::format("{}: its branches' links differ: RTL {}, plan {}", name,
                           i < seen.size() ? hop_text(t, seen[i]) : "nothing",
                           i < hops_wanted.size() ? hop_text(t, hops_wanted[i]) : "nothing");
      }
    } else {
      for (std::size_t i = 0; i < std::max(w.hops.size(), p.hops.size()); ++i) {
        if (i < w.hops.size() && i < p.hops.size() && w.hops[i] == p.hops[i]) continue;
        const std::string seen = i < w.hops.size()
                                     ? fmt::format("{} at cycle {}", hop_text(t, w.hops[i]), w.hop_cycles[i])
                                     : "nothing (the worm ended)";
        const std::string want = i < p.hops.size() ? hop_text(t, p.hops[i]) : "nothing (the route ends)";
        return fmt::format("{}: link {} differs: RTL {}, plan {}", name, i + 1, seen, want);
      }
    }
    rtl.erase(it);
  }
  if (!rtl.empty()) {
    const ObservedWorm& w = *rtl.begin()->second;
    return fmt::format("multicast {}: worm {}->{} (step {}, injected at cycle {}) is not in the plan", multicast,
                       t.node_name(w.sender), t.node_name(w.addressed), w.step, w.inject_cycle);
  }
  return "";
}

}  // namespace

std::string check_multicast(const model::Plan& plan, int multicast, const RunRecord& record) {
  if (std::string e = check_deliveries(plan, multicast, record); !e.empty()) return e;
  return check_worms(plan, multicast, record);
}

std::string check_run(const std::vector<model::Plan>& plans, const RunRecord& record) {
  if (!record.errors.empty()) return record.errors.front();
  // A drained worm the monitor could not name fails the run even if every multicast finished.
  for (const RouteDrop& d : record.route_drops) {
    if (d.worm < 0 && !plans.empty()) return drop_text(plans.front().request.topology, record, d);
  }
  for (std::size_t i = 0; i < plans.size(); ++i) {
    if (std::string e = check_multicast(plans[i], static_cast<int>(i), record); !e.empty()) return e;
  }
  for (const ObservedWorm& w : record.worms) {
    if (w.multicast < 0 || w.multicast >= static_cast<int>(plans.size())) {
      return fmt::format("worm of unknown multicast {} from node {}", w.multicast, w.sender);
    }
  }
  return "";
}

std::vector<std::string> check_each_multicast(const std::vector<model::Plan>& plans, const RunRecord& record) {
  std::vector<std::string> checks;
  for (std::size_t i = 0; i < plans.size(); ++i) {
    const int multicast = static_cast<int>(i);
    const std::vector<long> cycles = delivery_cycles(plans[i], multicast, record);
    const bool finished = std::find(cycles.begin(), cycles.end(), -1) == cycles.end() &&
                          std::none_of(record.worms.begin(), record.worms.end(), [multicast](const ObservedWorm& w) {
                            return w.multicast == multicast && w.eject_cycle < 0;
                          });
    checks.push_back(!record.errors.empty() && !finished ? record.errors.front()
                                                         : check_multicast(plans[i], multicast, record));
  }
  return checks;
}

std::vector<long> delivery_cycles(const model::Plan& plan, int multicast, const RunRecord& record) {
  std::vector<long> cycles;
  for (const model::NodeId node : plan.request.destinations) {
    long cycle = -1;
    for (const Delivery& d : record.deliveries) {
      if (d.multicast == multicast && d.node == node) cycle = d.cycle;
    }
    cycles.push_back(cycle);
  }
  return cycles;
}

}  // namespace wormcast::sim
