// SPDX-License-Identifier: Apache-2.0
#include "sim/scoreboard.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <set>
#include <tuple>

#include "firmware/replication_lock.hpp"
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

std::string check_worms(const model::Plan& plan, int multicast, const RunRecord& record) {
  const model::Topology& t = plan.request.topology;
  // (sender, addressed) -> its worms in the order they were sent: a sender may address a node more
  // than once in a multicast (np-d's source, its block neighbours in step 1 and the exchanges), and
  // the plan's worms of a pair, in plan order, are matched with them in turn.
  std::map<std::pair<model::NodeId, model::NodeId>, std::deque<const ObservedWorm*>> rtl;
  for (const ObservedWorm& w : record.worms) {
    if (w.multicast != multicast) continue;
    const std::string name = fmt::format("multicast {}: worm {}->{} (sequence {})", multicast, t.node_name(w.sender),
                                         t.node_name(w.addressed), w.sequence);
    if (w.route_drop >= 0) {
      return name + ": " + drop_text(t, record, record.route_drops[static_cast<std::size_t>(w.route_drop)]);
    }
    if (w.ejected_at == model::kNoNode) return name + " was never ejected";
    rtl[{w.sender, w.addressed}].push_back(&w);
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
      copies_wanted.insert(copies_wanted.end(), m.part_receivers.begin(), m.part_receivers.end());
      hops_wanted.insert(hops_wanted.end(), m.hops.begin(), m.hops.end());
    }
    const model::NodeId receiver = p.header.destinations.front();
    const auto it = rtl.find({p.sender, receiver});
    const std::string name = fmt::format("multicast {}: worm {}->{} (step {})", multicast, t.node_name(p.sender),
                                         t.node_name(receiver), p.step);
    if (it == rtl.end() || it->second.empty()) return name + " of the plan was never sent on the RTL";
    const ObservedWorm& w = *it->second.front();
    // Steps: the monitor's, from causality, against the same rule applied to the plan; then the
    // firmware's own claim against the monitor's, off by exactly what the plan's numbering is off
    // from causality (0 except where an algorithm numbers its steps globally: rd, edn, np-d).
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
    it->second.pop_front();
  }
  for (const auto& [pair, left] : rtl) {
    if (left.empty()) continue;
    const ObservedWorm& w = *left.front();
    return fmt::format("multicast {}: worm {}->{} (step {}, injected at cycle {}) is not in the plan", multicast,
                       t.node_name(w.sender), t.node_name(w.addressed), w.step, w.inject_cycle);
  }
  return "";
}

const char* lock_kind_name(fw::MessageKind kind) {
  switch (kind) {
    case fw::MessageKind::kLockRequest:
      return "lock request";
    case fw::MessageKind::kLockGrant:
      return "lock grant";
    case fw::MessageKind::kLockDone:
      return "lock done";
    case fw::MessageKind::kMulticast:
      break;
  }
  return "multicast message";
}

// A multicast's hold of the replication lock, as its messages and worms show it.
struct Hold {
  int multicast = -1;
  long granted = -1;   // the grant's injection (the coordinator's own: its first replicating worm's)
  long released = -1;  // its last acknowledgement taken in at the coordinator
};

}  // namespace

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

std::string check_replication_lock(const std::vector<model::Plan>& plans, const RunRecord& record) {
  if (plans.empty()) return "";
  const auto coordinator = static_cast<model::NodeId>(fw::kLockCoordinator);
  std::vector<const ObservedWorm*> messages;
  for (const ObservedWorm& w : record.worms) {
    if (w.lock_kind == fw::MessageKind::kMulticast) continue;
    const model::Topology& t = plans.front().request.topology;
    const std::string name = fmt::format("{} {}->{} for multicast {} (sequence {})", lock_kind_name(w.lock_kind),
                                         t.node_name(w.sender), t.node_name(w.addressed), w.lock_multicast, w.sequence);
    if (w.ejected_at != w.addressed || w.eject_cycle < 0) return name + " was never taken in at its receiver";
    const bool to_coordinator = w.lock_kind != fw::MessageKind::kLockGrant;
    if ((to_coordinator ? w.addressed : w.sender) != coordinator) {
      return fmt::format("{}: the coordinator is node {}", name, t.node_name(coordinator));
    }
    if (w.lock_multicast < 0 || w.lock_multicast >= static_cast<int>(plans.size())) {
      return name + ": no such multicast";
    }
    messages.push_back(&w);
  }
  std::vector<Hold> holds;
  for (std::size_t i = 0; i < plans.size(); ++i) {
    const model::Plan& plan = plans[i];
    const model::Topology& t = plan.request.topology;
    const int m = static_cast<int>(i);
    // The heads the plan's replicated worms end in: each root with spawned worms, and those.
    std::vector<bool> replicated(plan.worms.size(), false);
    for (const model::Worm& w : plan.worms) {
      if (w.spawned_from) replicated[*w.spawned_from] = true;
    }
    std::vector<model::NodeId> ends;
    for (std::size_t k = 0; k < plan.worms.size(); ++k) {
      if (replicated[k] || plan.worms[k].spawned_from) ends.push_back(plan.worms[k].route.back());
    }
    const auto of = [&](fw::MessageKind kind) {
      std::vector<const ObservedWorm*> found;
      for (const ObservedWorm* w : messages) {
        if (w->lock_kind == kind && w->lock_multicast == m) found.push_back(w);
      }
      return found;
    };
    const std::vector<const ObservedWorm*> requests = of(fw::MessageKind::kLockRequest);
    const std::vector<const ObservedWorm*> grants = of(fw::MessageKind::kLockGrant);
    const std::vector<const ObservedWorm*> dones = of(fw::MessageKind::kLockDone);
    const std::string name = fmt::format("multicast {}", m);
    if (ends.empty()) {
      if (!requests.empty() || !grants.empty() || !dones.empty()) {
        return name + ": lock messages name it, but the routers replicate none of its worms";
      }
      continue;
    }
    const model::NodeId holder = plan.request.source;
    Hold hold{m, -1, -1};
    long first_replicating = -1;
    for (const ObservedWorm& w : record.worms) {
      if (w.multicast == m && w.replicates && (first_replicating < 0 || w.inject_cycle < first_replicating)) {
        first_replicating = w.inject_cycle;
      }
    }
    if (holder == coordinator) {
      if (!requests.empty() || !grants.empty()) {
        return name + ": its source is the coordinator, yet lock requests or grants travel for it";
      }
      hold.granted = first_replicating;
    } else {
      if (requests.size() != 1 || grants.size() != 1) {
        return fmt::format("{}: {} lock request(s) and {} grant(s) for source {}; want one of each", name,
                           requests.size(), grants.size(), t.node_name(holder));
      }
      const ObservedWorm& request = *requests.front();
      const ObservedWorm& grant = *grants.front();
      if (request.sender != holder || request.lock_holder != holder || grant.addressed != holder ||
          grant.lock_holder != holder) {
        return fmt::format("{}: the lock request or grant names another holder than source {}", name,
                           t.node_name(holder));
      }
      if (request.lock_count != static_cast<int>(ends.size())) {
        return fmt::format(
            "{}: the lock request expects {} acknowledgements, the plan's replicated worms end in {} "
            "heads",
            name, request.lock_count, ends.size());
      }
      if (grant.inject_cycle < request.eject_cycle) {
        return fmt::format("{}: granted at cycle {} before its request arrived (cycle {})", name, grant.inject_cycle,
                           request.eject_cycle);
      }
      if (first_replicating < grant.eject_cycle) {
        return fmt::format("{}: a replicating worm went at cycle {}, before the grant arrived (cycle {})", name,
                           first_replicating, grant.eject_cycle);
      }
      hold.granted = grant.inject_cycle;
    }
    // One acknowledgement from every end but the coordinator (whose own acknowledges locally).
    std::vector<model::NodeId> want, got;
    for (const model::NodeId n : ends) {
      if (n != coordinator) want.push_back(n);
    }
    for (const ObservedWorm* w : dones) {
      got.push_back(w->sender);
      hold.released = std::max(hold.released, w->eject_cycle);
    }
    std::sort(want.begin(), want.end());
    std::sort(got.begin(), got.end());
    if (want != got) {
      return fmt::format(
          "{}: {} lock acknowledgement(s) from the heads' ends, want {} (one per end but the "
          "coordinator)",
          name, got.size(), want.size());
    }
    if (std::find(ends.begin(), ends.end(), coordinator) != ends.end()) {
      for (const ObservedWorm& w : record.worms) {
        if (w.multicast != m || !w.replicates) continue;
        for (const EjectedCopy& c : w.copies) {
          if (c.node == coordinator) hold.released = std::max(hold.released, c.tail_cycle);
        }
      }
    }
    holds.push_back(hold);
  }
  std::sort(holds.begin(), holds.end(), [](const Hold& a, const Hold& b) { return a.granted < b.granted; });
  for (std::size_t i = 1; i < holds.size(); ++i) {
    if (holds[i].granted < holds[i - 1].released) {
      return fmt::format(
          "multicast {} was granted the replication lock at cycle {}, before multicast {} released it "
          "(cycle {})",
          holds[i].multicast, holds[i].granted, holds[i - 1].multicast, holds[i - 1].released);
    }
  }
  return "";
}

std::string check_multicast(const model::Plan& plan, int multicast, const RunRecord& record) {
  if (std::string e = check_deliveries(plan, multicast, record); !e.empty()) return e;
  return check_worms(plan, multicast, record);
}

std::string check_run(const std::vector<model::Plan>& plans, const RunRecord& record) {
  if (!record.errors.empty()) return record.errors.front();
  if (!record.violations.empty()) return record.violations.front().message;
  // A drained worm the monitor could not name fails the run even if every multicast finished.
  for (const RouteDrop& d : record.route_drops) {
    if (d.worm < 0 && !plans.empty()) return drop_text(plans.front().request.topology, record, d);
  }
  for (std::size_t i = 0; i < plans.size(); ++i) {
    if (std::string e = check_multicast(plans[i], static_cast<int>(i), record); !e.empty()) return e;
  }
  if (std::string e = check_replication_lock(plans, record); !e.empty()) return e;
  for (const ObservedWorm& w : record.worms) {
    if (w.lock_kind != fw::MessageKind::kMulticast) continue;
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
    const auto violation = std::find_if(record.violations.begin(), record.violations.end(),
                                        [multicast](const LockViolation& v) { return v.multicast == multicast; });
    checks.push_back(!record.errors.empty() && !finished    ? record.errors.front()
                     : violation != record.violations.end() ? violation->message
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
