// SPDX-License-Identifier: Apache-2.0
#include "sim/network_monitor.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "firmware/message.hpp"

namespace wormcast::sim {

using model::NodeId;

NetworkMonitor::NetworkMonitor(const model::Topology& topology, const model::HamiltonianLabeling& labels)
    : topology_(topology),
      labels_(labels),
      router_vcs_(router_variant_vcs(static_cast<unsigned>(topology.port_count()))) {}

void NetworkMonitor::error(std::string message) {
  if (record_.errors.size() < 8) record_.errors.push_back(std::move(message));
}

NodeId NetworkMonitor::addressed(const wire::HeadFields& head) const {
  if (head.mode == wire::Mode::kHamiltonianPath || head.mode == wire::Mode::kHamiltonianCycle) {
    for (NodeId n = 0; n < topology_.node_count(); ++n) {
      if (labels_.label(n) == static_cast<int>(head.dest)) return n;
    }
    return model::kNoNode;
  }
  if (head.mode == wire::Mode::kSourceRouted) return model::kNoNode;  // decode_source_route names it
  const wire::Coords c = wire::unpack_coord_dest(head.dest);
  return topology_.node_at({c.x, c.y, c.z});
}

// One message per port per step (the papers' port models): a send follows both the messages that
// caused it and the sender's previous send of the multicast on the same channel. The messages that
// caused it are those received before it of an earlier step than the one it claims: np-d's nodes
// receive in the step they send in (their 2x2 exchanges do not wait for each other), and a
// neighbour's exchange that happens to arrive first causes nothing. For every other algorithm a
// node receives in earlier steps only, so the claim filters nothing and the derivation stays
// causal (ScoreboardDetects.DerivedStepsComeFromCausalityNotFromThePayload).
int NetworkMonitor::derive_step(NodeId sender, int multicast, unsigned channel, int claimed_step) {
  int before = 0;
  if (const auto it = received_step_.find({sender, multicast}); it != received_step_.end()) {
    for (const auto& [claimed, derived] : it->second) {
      if (claimed < claimed_step) before = std::max(before, derived);
    }
  }
  int& previous = channel_step_[{sender, multicast, channel}];
  previous = 1 + std::max(before, previous);
  return previous;
}

int NetworkMonitor::worm_sent(NodeId sender, unsigned channel, const std::uint64_t* header, std::uint32_t header_flits,
                              const std::uint64_t* payload, std::uint32_t words, bool replicates, long cycle) {
  const wire::HeadFields head = wire::unpack_head(header[0]);
  // The node a worm is for: its first header flit, or the real head behind a source-routed prefix
  // (a first hop the routing function would not take).
  const bool prefixed = header_flits > 1 && head.mode == wire::Mode::kSourceRouted &&
                        wire::unpack_head(header[1]).mode != wire::Mode::kSourceRouted;
  const wire::HeadFields routing = prefixed ? wire::unpack_head(header[1]) : head;
  ObservedWorm w;
  fw::MessageInfo info;
  const bool decodes = fw::decode_control(payload, words, info);
  if (decodes && info.kind != fw::MessageKind::kMulticast) {
    // The replication lock's messages belong to no plan and take no step (docs/firmware.md,
    // "Scoreboard"): recorded apart, under multicast -1.
    w.multicast = -1;
    w.lock_kind = info.kind;
    w.lock_multicast = info.multicast;
    w.lock_holder = static_cast<NodeId>(info.origin);
    w.lock_count = info.lock_count;
    w.sequence = info.sequence;
  } else if (decodes) {
    w.multicast = info.multicast;
    w.step = info.step;
    w.sequence = info.sequence;
    w.derived_step = derive_step(sender, w.multicast, channel, w.step);
  } else {
    w.multicast = -1;
    error(fmt::format("node {} sent a message whose payload does not decode (cycle {})", sender, cycle));
  }
  w.sender = sender;
  w.addressed = addressed(routing);
  w.channel = static_cast<int>(channel);
  w.replicates = replicates;
  if (routing.mode == wire::Mode::kSourceRouted) decode_source_route(w, header, header_flits);
  single_address_.push_back(header_flits == 1 && !replicates && routing.mode != wire::Mode::kCprLine &&
                            routing.mode != wire::Mode::kSourceRouted);
  record_.worms.push_back(std::move(w));
  return static_cast<int>(record_.worms.size()) - 1;
}

void NetworkMonitor::head_injected(int worm, NodeId sender, unsigned port, unsigned vc, long cycle) {
  const ObservedWorm& w = record_.worms[static_cast<std::size_t>(worm)];
  // The replication lock's invariant: one multicast's replicating heads in the network at a time.
  for (const auto& [other, positions] : live_) {
    const ObservedWorm& o = observed(other);
    if (!w.replicates || !o.replicates || o.multicast == w.multicast) continue;
    if (record_.violations.size() >= 8) break;
    std::string at;
    for (const NodeId n : positions) at += (at.empty() ? "" : ", ") + topology_.node_name(n);
    record_.violations.push_back(
        {w.multicast, o.multicast, cycle,
         fmt::format("replication lock violated at cycle {}: worm {}->{} of multicast {} entered the network while "
                     "worm {}->{} of multicast {} had replicating heads at {}",
                     cycle, topology_.node_name(w.sender), topology_.node_name(w.addressed), w.multicast,
                     topology_.node_name(o.sender), topology_.node_name(o.addressed), o.multicast, at)});
  }
  record_.worms[static_cast<std::size_t>(worm)].inject_cycle = cycle;
  live_[worm].insert(sender);
  entered_[{worm, sender}] = {port, vc, entries_++};
}

void NetworkMonitor::message_received(NodeId node, int worm) {
  const ObservedWorm& w = record_.worms[static_cast<std::size_t>(worm)];
  if (w.lock_kind != fw::MessageKind::kMulticast) return;
  int& step = received_step_[{node, w.multicast}][w.step];
  step = std::max(step, w.derived_step);
}

ObservedWorm& NetworkMonitor::observed(int id) {
  return id >= 0 ? record_.worms[static_cast<std::size_t>(id)] : pending_.at(id).seen;
}

// The live worms whose head is at router `at` and carries this head's (src, tag). A source may have
// more worms at one router than 4-bit tags tell apart (a unicast-based broadcast queues hundreds),
// so when several match, the head must be the one at the front of its input VC (a VC is a FIFO:
// of the worms still at `at` that entered one VC, only the first can send its head), and on an
// ejection port the router names that VC (`stream`: input port x VCs + VC; -1 on a network port).
std::vector<int> NetworkMonitor::find_worms(NodeId at, const wire::Flit& flit, int stream) {
  const wire::HeadFields h = wire::unpack_head(flit.data);
  std::vector<int> matches;
  for (const auto& [id, positions] : live_) {
    const ObservedWorm& w = observed(id);
    if (positions.count(at) != 0 && w.sender == static_cast<NodeId>(h.src) && (w.sequence & 0xF) == h.tag)
      matches.push_back(id);
  }
  if (matches.size() > 1) {
    std::vector<int> fronts;
    for (const int id : matches) {
      const auto entry = entered_.find({id, at});
      if (entry == entered_.end()) continue;  // one of a replicating worm's heads already left `at`
      const Entry& e = entry->second;
      if (stream >= 0 && static_cast<unsigned>(stream) != e.port * router_vcs_ + e.vc) continue;
      const bool behind = std::any_of(entered_.begin(), entered_.end(), [&](const auto& other) {
        return other.first.second == at && other.second.port == e.port && other.second.vc == e.vc &&
               other.second.order < e.order;
      });
      if (!behind) fronts.push_back(id);
    }
    matches = fronts;
  }
  const bool all_single_address = std::all_of(matches.begin(), matches.end(), [this](int id) {
    return id >= 0 && single_address_[static_cast<std::size_t>(id)];
  });
  if (matches.size() > 1 && all_single_address) {
    // Fronts of different VCs, all worms whose one head flit keeps its address all the way (the
    // unicasts a unicast-based multicast queues by the hundred): the address names the worm.
    std::vector<int> same_address;
    for (const int id : matches) {
      if (observed(id).addressed == addressed(h)) same_address.push_back(id);
    }
    if (same_address.size() == 1) matches = same_address;
  }
  return matches;
}

int NetworkMonitor::find_worm(NodeId at, const wire::Flit& flit, int stream, const char* where, long cycle) {
  const std::vector<int> matches = find_worms(at, flit, stream);
  const wire::HeadFields h = wire::unpack_head(flit.data);
  if (matches.size() > 1) {
    error(
        fmt::format("{} of node {} at cycle {}: {} worms from node {} with tag {} are at the front of their input "
                    "VCs at this router",
                    where, at, cycle, matches.size(), h.src, h.tag));
  }
  if (matches.empty()) {
    error(fmt::format("{} of node {} at cycle {}: a head from node {} tag {} that no worm at this router carries",
                      where, at, cycle, h.src, h.tag));
    return -1;
  }
  return matches.front();
}

int NetworkMonitor::open_pending(const std::vector<int>& candidates, NodeId r, unsigned port, const Link& link) {
  const wire::HeadFields h = wire::unpack_head(link.flit.data);
  const int id = next_pending_--;
  Pending& p = pending_[id];
  p.seen.sender = static_cast<NodeId>(h.src);
  p.seen.sequence = h.tag;
  p.seen.multicast = -1;
  p.candidates = candidates;
  p.from = r;
  p.flits = 1;
  p.sequence_flit = 2u + h.more;
  pending_outputs_[{r, port, link.vc}] = id;
  return id;
}

void NetworkMonitor::pending_flit(NodeId r, unsigned port, const Link& link, long cycle) {
  const auto it = pending_outputs_.find({r, port, link.vc});
  if (it == pending_outputs_.end()) return;
  const int id = it->second;
  Pending& p = pending_.at(id);
  if (p.flits++ == p.sequence_flit) {
    pending_outputs_.erase(it);
    const std::uint32_t sequence = static_cast<std::uint32_t>((link.flit.data >> 20) & 0xFFFFF);
    const auto named = std::find_if(p.candidates.begin(), p.candidates.end(), [&](int c) {
      return record_.worms[static_cast<std::size_t>(c)].sequence == sequence;
    });
    if (named == p.candidates.end()) {
      error(
          fmt::format("output link of node {} at cycle {}: the worm from node {} with sequence {} is none of the {} "
                      "worms with its tag at this router",
                      r, cycle, p.seen.sender, sequence, p.candidates.size()));
      return;
    }
    name_pending(id, *named);
  } else if (link.flit.tail) {
    pending_outputs_.erase(it);
    error(
        fmt::format("output link of node {} at cycle {}: a worm from node {} tag {} ended before its sequence "
                    "number named it",
                    r, cycle, p.seen.sender, p.seen.sequence));
  }
}

void NetworkMonitor::name_pending(int id, int named) {
  Pending p = std::move(pending_.at(id));
  pending_.erase(id);
  ObservedWorm& w = record_.worms[static_cast<std::size_t>(named)];
  w.hops.insert(w.hops.end(), p.seen.hops.begin(), p.seen.hops.end());
  w.hop_cycles.insert(w.hop_cycles.end(), p.seen.hop_cycles.begin(), p.seen.hop_cycles.end());
  w.copies.insert(w.copies.end(), p.seen.copies.begin(), p.seen.copies.end());
  if (p.seen.ejected_at != model::kNoNode) w.ejected_at = p.seen.ejected_at;
  if (p.seen.route_drop >= 0) {
    w.route_drop = p.seen.route_drop;
    record_.route_drops[static_cast<std::size_t>(p.seen.route_drop)].worm = named;
  }
  left_router(named, p.from);  // its head is the one that left
  if (const auto it = live_.find(id); it != live_.end()) {
    for (const NodeId at : it->second) {
      live_[named].insert(at);
      if (const auto e = entered_.find({id, at}); e != entered_.end()) {
        entered_[{named, at}] = e->second;
        entered_.erase(e);
      }
    }
    live_.erase(id);
  }
  for (std::set<int>* ids : {&departed_, &absorbed_}) {
    if (ids->erase(id) != 0) ids->insert(named);
  }
  // Another head of the same tag left that router as one of the same worms: not this one.
  for (auto& [other, q] : pending_) {
    q.candidates.erase(std::remove(q.candidates.begin(), q.candidates.end(), named), q.candidates.end());
  }
  for (auto it = pending_.begin(); it != pending_.end(); ++it) {
    if (it->second.candidates.size() == 1) {
      const int other = it->first, only = it->second.candidates.front();
      for (auto o = pending_outputs_.begin(); o != pending_outputs_.end(); ++o) {
        if (o->second == other) {
          pending_outputs_.erase(o);
          break;
        }
      }
      name_pending(other, only);
      return;  // name_pending went on through the rest
    }
  }
}

void NetworkMonitor::network_output(NodeId r, unsigned port, const Link& link, long cycle) {
  if (!link.flit.head) {
    if (!pending_outputs_.empty()) pending_flit(r, port, link, cycle);
    return;
  }
  const std::vector<int> matches = find_worms(r, link.flit, -1);
  if (matches.empty()) {
    find_worm(r, link.flit, -1, "output link", cycle);  // reports it
    return;
  }
  const int id = matches.size() == 1 ? matches.front() : open_pending(matches, r, port, link);
  ObservedWorm& w = observed(id);
  w.hops.push_back({r, static_cast<model::Port>(port), wire::unpack_head(link.flit.data).vc_class});
  w.hop_cycles.push_back(cycle);
  const NodeId next = topology_.neighbour(r, static_cast<model::Port>(port));
  live_[id].insert(next);
  entered_[{id, next}] = {static_cast<unsigned>(topology_.reverse_port(static_cast<model::Port>(port))), link.vc,
                          entries_++};
  departed_.insert(id);  // the head(s) it sent this cycle are the one it had at r
}

// A source route names its nodes only through ports: follow its entries from the sender to find
// the first node that keeps a copy (the worm's name in the scoreboard) and the route's end.
void NetworkMonitor::decode_source_route(ObservedWorm& w, const std::uint64_t* header, std::uint32_t flits) {
  NodeId node = w.sender, first = model::kNoNode;
  for (std::uint32_t k = 0; k < flits && node != model::kNoNode; ++k) {
    const std::uint32_t dest = wire::unpack_head(header[k]).dest;
    for (unsigned j = 0; j < wire::kRouteEntries; ++j) {
      const wire::RouteEntry e = wire::route_entry(dest, j);
      if (e.port == wire::kRoutePortEnd) break;
      if (e.deliver && node != w.sender && first == model::kNoNode) first = node;
      node = e.port < topology_.port_count() ? topology_.neighbour(node, static_cast<model::Port>(e.port))
                                             : model::kNoNode;
      if (node == model::kNoNode) break;
    }
  }
  if (node == model::kNoNode) error(fmt::format("node {} sent a source route that leaves the network", w.sender));
  w.route_end = node;
  w.addressed = first == model::kNoNode ? node : first;
}

bool NetworkMonitor::final_copy(const wire::HeadFields& head, NodeId r) const {
  // CPR: the addressed router absorbs; 01 delivers and stops; 11 delivers and passes on.
  if (head.mode == wire::Mode::kCprLine) return addressed(head) == r || head.cf == wire::Cf::kDeliverStop;
  // Intermediate reception announces the address flits still to come.
  return head.more == 0;
}

// One of the worm's heads at r is gone (ejected for good, or sent on).
void NetworkMonitor::left_router(int worm, NodeId r) {
  const auto it = live_.find(worm);
  if (it == live_.end()) return;
  if (const auto at = it->second.find(r); at != it->second.end()) it->second.erase(at);
  entered_.erase({worm, r});
  if (it->second.empty()) live_.erase(it);
}

void NetworkMonitor::ejection_output(NodeId r, const Link& l, long cycle) {
  if (!l.flit.head) return;
  const int id = find_worm(r, l.flit, static_cast<int>(l.stream), "ejection port", cycle);
  if (id == -1) return;
  ObservedWorm& w = observed(id);
  w.copies.push_back({r, cycle, -1});
  const wire::HeadFields head = wire::unpack_head(l.flit.data);
  if (w.route_end != model::kNoNode ? r == w.route_end : final_copy(head, r)) {
    w.ejected_at = r;
    // Unless the router also sends the head on this cycle (PCP's spine end spawns its row
    // branches while it absorbs the spine), the head is gone from r.
    absorbed_.insert(id);
  }
}

void NetworkMonitor::router_read(NodeId r) {
  for (const int worm : departed_) left_router(worm, r);
  for (const int worm : absorbed_) {
    if (departed_.count(worm) == 0) left_router(worm, r);
  }
  departed_.clear();
  absorbed_.clear();
}

int NetworkMonitor::route_drop(NodeId r, int port, int vc, long cycle) {
  RouteDrop d{r, port, vc, cycle, -1};
  long first = 0;
  bool found = false;
  for (const auto& [id, positions] : live_) {
    if (positions.count(r) == 0) continue;
    const auto it = entered_.find({id, r});
    if (it == entered_.end() || static_cast<int>(it->second.port) != port || static_cast<int>(it->second.vc) != vc) {
      continue;
    }
    // The VC drains the worm at its front: the first of those still here that entered it.
    if (!found || it->second.order < first) {
      d.worm = id;
      first = it->second.order;
      found = true;
    }
  }
  record_.route_drops.push_back(d);
  const int index = static_cast<int>(record_.route_drops.size()) - 1;
  if (found) {
    observed(d.worm).route_drop = index;
    left_router(d.worm, r);
  }
  return index;
}

int NetworkMonitor::copy_taken_in(NodeId node, NodeId src, std::uint32_t sequence, long cycle) {
  // The monitor followed the head here; the payload names the worm too: they must agree.
  for (std::size_t i = 0; i < record_.worms.size(); ++i) {
    ObservedWorm& w = record_.worms[i];
    if (w.sender != src || w.sequence != sequence) continue;
    const auto copy = std::find_if(w.copies.begin(), w.copies.end(),
                                   [node](const EjectedCopy& c) { return c.node == node && c.tail_cycle < 0; });
    if (copy == w.copies.end()) continue;
    copy->tail_cycle = cycle;
    // The worm is done when no head of it is left in the network and every copy is taken in.
    const bool all_in =
        std::all_of(w.copies.begin(), w.copies.end(), [](const EjectedCopy& c) { return c.tail_cycle >= 0; });
    if (all_in && live_.count(static_cast<int>(i)) == 0) w.eject_cycle = cycle;
    return static_cast<int>(i);
  }
  error(
      fmt::format("node {}: ejected worm from node {} sequence {} (cycle {}) does not match the worm the "
                  "monitor followed here",
                  node, src, sequence, cycle));
  return -1;
}

std::string NetworkMonitor::unfinished_worms() const {
  std::string s;
  for (std::size_t i = 0; i < record_.worms.size(); ++i) {
    const ObservedWorm& w = record_.worms[i];
    if (w.eject_cycle >= 0) continue;
    std::string where;
    if (w.inject_cycle < 0) {
      where = "queued at its sender";
    } else if (const auto it = live_.find(static_cast<int>(i)); it != live_.end()) {
      std::string at;
      for (const NodeId n : it->second) at += (at.empty() ? "" : ", ") + topology_.node_name(n);
      where = fmt::format("head held by router{} {}", it->second.size() == 1 ? "" : "s", at);
    } else {
      where = "head ejected at " + topology_.node_name(w.ejected_at) + ", tail not taken in";
    }
    s += fmt::format(" worm {}->{} (multicast {}, step {}) {};", topology_.node_name(w.sender),
                     topology_.node_name(w.addressed), w.multicast, w.derived_step, where);
  }
  return s;
}

}  // namespace wormcast::sim
