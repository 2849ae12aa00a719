// SPDX-License-Identifier: Apache-2.0
#include "sim/multicast_run.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <deque>
#include <iterator>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <stdexcept>

#include "firmware/algorithm_table.hpp"
#include "firmware/message.hpp"
#include "firmware/node_firmware.hpp"
#include "model/errors.hpp"
#include "model/labeling.hpp"
#include "model/planner.hpp"
#include "model/vc_class_plan.hpp"
#include "sim/credit_delay.hpp"
#include "sim/ejection_link_checker.hpp"
#include "sim/link_wiring.hpp"
#include "sim/model_router.hpp"
#include "sim/network_monitor.hpp"
#include "sim/network_waveform.hpp"
#include "sim/node_interface.hpp"
#include "sim/router_network.hpp"

namespace wormcast::sim {
namespace {

using model::NodeId;

std::uint64_t mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

int port_count(const model::Request& r) {
  switch (r.ports.kind) {
    case model::PortModelKind::kOnePort:
      return 1;
    case model::PortModelKind::kTwoPort:
      return 2;
    case model::PortModelKind::kAllPort:
      return r.topology.port_count();
    case model::PortModelKind::kDPort:
      return r.ports.count;
  }
  return 1;
}

// The channels the algorithm injects on: rd uses one port whatever the model says.
int channels_used(const model::Request& r) {
  return model::algorithm_info(r.algorithm).one_injection_channel ? 1 : port_count(r);
}

// The network, the nodes and the clock of one run.
class MulticastRun {
 public:
  MulticastRun(const std::vector<model::Request>& requests, const RunOptions& options,
               const std::vector<long>& start_cycles);
  RunRecord run();

 private:
  // Multicast i is due: its source's application submits it, or holds it behind the ones it
  // already holds. False (with the error recorded) when the firmware refuses it for good.
  bool submit(std::size_t i);
  // Submits the held multicasts of every source whose firmware has a free job, oldest first.
  bool submit_held();
  // Hands multicast i to its source's firmware: kOk, kNoFreeJob (every job busy: the application
  // holds it), or another refusal (recorded as an error).
  fw::Status start_multicast(std::size_t i);
  bool finished() const;
  // Node `node` may act in this cycle: it is visited in it (and in every later one while busy).
  void wake(NodeId node);
  // The nodes visited in this cycle: the busy ones of the last cycle and the ones woken since, in
  // node order.
  void merge_woken();
  // Node r's ejection, processor and injection in this cycle (visited) or only the injection
  // credits its router returned (not visited); drives its router's local inputs and credits.
  bool serve_node(NodeId r, bool visit);
  std::string stall_report() const;
  // Reads router r's registered outputs: ejection ports first (a multidestination worm's copy
  // leaves there while its promoted head may leave on a network port in the same cycle, and the
  // monitor must see the copy at r). Returns whether a flit left.
  bool read_outputs(NodeId r);
  // After a clock edge: the worms the routers drained at it (a head without a route decision),
  // each recorded with its router, input port and VC (docs/rtl-modules.md, "Drained worms"), and any new
  // sticky error (errors_o, "Sticky errors"), reported as a run error.
  void read_router_status();

  const RunOptions options_;
  const std::vector<model::Request>& requests_;
  // Multicast indices by start cycle (then index), and each one's start cycle.
  std::vector<std::size_t> start_order_;
  std::vector<long> start_cycles_;
  // Per source, the multicasts its application holds because every job of its firmware was busy
  // (fw::Status::kNoFreeJob), oldest first; held_starts_ counts them over all sources.
  std::vector<std::deque<std::size_t>> held_;
  std::size_t held_starts_ = 0;
  model::Topology topology_;
  model::HamiltonianLabeling labels_;
  std::vector<std::uint16_t> star_labels_;        // star graphs: each node's cycle label, the firmware's configuration
  std::vector<std::vector<std::uint64_t>> data_;  // per multicast
  long cycle_ = 0;
  NetworkMonitor monitor_;
  std::unique_ptr<RouterBackend> backend_;
  std::unique_ptr<NetworkWaveform> wave_;  // --trace; before routers_, which record into it
  std::vector<std::unique_ptr<RouterModel>> routers_;
  std::vector<std::unique_ptr<NodeInterface>> nodes_;
  std::vector<unsigned> drops_seen_;          // per router: route_drops() after the last edge
  std::vector<unsigned> drops_pending_;       // per router: worms counted as dropped, not yet draining
  std::vector<std::uint64_t> draining_seen_;  // per router: draining() after the last edge
  std::vector<unsigned> errors_seen_;         // per router: errors() after the last edge
  LinkWiring links_;
  CreditDelay credit_delay_;  // late credits on the network links (RunOptions::credit_delay)
  // The link protocol on every ejection link, router to node interface (sim/ejection_link_checker.hpp):
  // the flits read_outputs took from the ejection ports in this cycle (r * locals_ + local), checked
  // with the credits the node returns in serve_node.
  std::optional<EjectionLinkCheckers> eject_check_;
  std::vector<Link> ejected_;
  // Per router: evaluated in the last cycle (clock_routers). One that was not shows the outputs it
  // showed before, all idle (RouterModel::can_skip), so its outputs and status are not read again.
  std::vector<std::uint8_t> clocked_;
  // What was last written to each router's inputs that the nodes drive: local input k of router r
  // (r * max locals + k) was valid, and the credits from the receivers. An idle input that stays
  // idle is not written again: an idle router's model is not touched (it is large, and cold).
  std::vector<std::uint8_t> local_was_valid_;
  // Per router: serve_node set one of its inputs in this cycle (LinkWiring::drive, a local input,
  // the credits): with clocked_, which routers clock_routers asks can_skip (every_node_: all).
  std::vector<std::uint8_t> inputs_set_;
  std::vector<std::uint32_t> credits_written_;
  std::mt19937_64 rng_;
  // Event-driven node visits (docs/timing.md, "Event-driven node interface").
  // active_ lists, in node order, the nodes visited in this cycle; busy_ the nodes still busy
  // after their visit (next cycle's active_ with woken_ merged in); woken_ the nodes a multicast
  // start or an ejected flit woke since; listed_ flags the nodes in busy_ or woken_. Invariant: a node not
  // listed is not busy (NodeInterface::busy), checked every cycle under NodeVisits::kEvery.
  bool every_node_;
  std::vector<NodeId> active_, busy_, woken_, merged_;
  std::vector<std::uint8_t> listed_;
  // The ejection stall's draws: each node's visit in cycle c draws draws_per_node_ numbers
  // (NodeInterface::drain_ejection) at slot c * nodes + node; a skipped node's draws are
  // discarded, so the sequence is the one of a run that visits every node. drawn_slots_: the
  // slots drawn or discarded so far.
  std::uint64_t draws_per_node_ = 0;
  std::uint64_t drawn_slots_ = 0;
  std::uint64_t node_visits_ = 0, node_cycles_ = 0;
  // Every router's network ports, VCs and local pairs, and every node's channels: one variant per
  // run (checked at construction), read once rather than from each router every cycle.
  unsigned net_ = 0, vcs_ = 0, locals_ = 0, channels_ = 0;
  // Per router: the last cycle whose LinkWiring::drive can set an input or return a credit, two
  // cycles after a neighbour's last evaluation (mark_neighbours_of_clocked). A router not evaluated
  // in a cycle leaves the wiring idle outputs and no credit (RouterModel::can_skip held before
  // the cycle, so what capture() last took from it was idle), so a drive with no neighbour
  // evaluated in the last two cycles reads idle links and finds its inputs idle already: it is
  // not called (under NodeVisits::kEvery it is, every cycle). One cycle would do (a router with a
  // valid output is evaluated again, so its neighbours' inputs are cleared by a marked drive), two
  // need nothing but the rule above.
  std::vector<long> drive_until_;
  std::vector<NodeId> neighbours_;  // r * net_ + p, the routers whose drive reads r's outputs
  void mark_neighbours_of_clocked();
};

MulticastRun::MulticastRun(const std::vector<model::Request>& requests, const RunOptions& options,
                           const std::vector<long>& start_cycles)
    : options_(options),
      requests_(requests),
      start_cycles_(start_cycles.empty() ? std::vector<long>(requests.size(), 0) : start_cycles),
      topology_(requests.front().topology),
      labels_(router_labeling(topology_)),
      monitor_(topology_, labels_),
      backend_(make_backend(options.backend)),
      links_(topology_),
      credit_delay_(topology_.node_count(), static_cast<unsigned>(topology_.port_count()),
                    model::router_vc_count(topology_), static_cast<unsigned>(options.credit_delay), options.seed),
      rng_(options.seed),
      every_node_(options.visits == NodeVisits::kEvery || options.evaluation == Evaluation::kFull) {
  backend_->set_evaluation(options_.evaluation);
  for (std::size_t i = 0; i < requests_.size(); ++i) start_order_.push_back(i);
  std::stable_sort(start_order_.begin(), start_order_.end(),
                   [this](std::size_t a, std::size_t b) { return start_cycles_[a] < start_cycles_[b]; });
  unsigned locals = 1;
  for (std::size_t i = 0; i < requests_.size(); ++i) {
    locals = std::max(locals, static_cast<unsigned>(channels_used(requests_[i])));
    data_.push_back(multicast_data(static_cast<int>(i), requests_[i].length_flits));
  }
  const int n = topology_.node_count();
  // A star graph's firmware gets the cycle's labels with its configuration (docs/firmware.md).
  for (NodeId node = 0; topology_.is_star() && node < n; ++node) {
    star_labels_.push_back(static_cast<std::uint16_t>(labels_.label(node)));
  }
  if (!options_.trace_path.empty()) wave_ = std::make_unique<NetworkWaveform>(options_.trace_path);
  const std::vector<RouterConfig> configs = router_configs(topology_);
  const unsigned net = static_cast<unsigned>(topology_.port_count());
  // The verilated models' names, zero-padded to one width: each model's ~900 scopes (one per
  // module instance and assertion) go into the Verilator context's map of scope names, ordered by
  // strcmp, and with one width the models' names ascend, so each one's scopes land at the map's
  // end (router9 sorts after router10 otherwise): 4 % less CPU for building and tearing down a
  // torus:64x64 (docs/timing.md, "Event-driven node interface"). The waveform's scopes
  // keep `router<node id>`.
  const int digits = static_cast<int>(std::to_string(n - 1).size());
  for (NodeId node = 0; node < n; ++node) {
    const std::string name = fmt::format("router{}", node);
    auto router = backend_->make(net, locals, fmt::format("router{:0{}}", node, digits));
    if (options_.backend == Backend::kModel && node == options_.perturb_model_at) perturb_model_router(*router, 1);
    routers_.push_back(wave_ ? wave_->record(std::move(router), name) : std::move(router));
    routers_.back()->configure(configs[static_cast<std::size_t>(node)]);
    NodeTiming timing;
    timing.alpha = options_.alpha;
    timing.gamma = options_.gamma;
    timing.corrupt_tail = node == options_.corrupt_tail_at;
    timing.mislabel_step = node == options_.mislabel_step_at;
    timing.unroutable_worm = node == options_.unroutable_worm_at;
    timing.spurious_eject_credit = node == options_.spurious_eject_credit_at;
    // The node sees every local pair its router has: the router ejects on any of them.
    nodes_.push_back(std::make_unique<NodeInterface>(monitor_, topology_, cycle_, node, routers_.back()->locals(),
                                                     routers_.back()->vcs(), timing));
    nodes_.back()->data = &data_;
    fw::NodeConfig config;
    config.grid.kind = topology_.is_star()    ? fw::GridKind::kStar
                       : topology_.is_torus() ? fw::GridKind::kTorus
                                              : fw::GridKind::kMesh;
    config.grid.dims = static_cast<std::uint8_t>(topology_.dimensions());
    if (topology_.is_star()) {
      config.grid.star_order = static_cast<std::uint8_t>(topology_.star_order());
      config.grid.star_labels = star_labels_.data();
    }
    for (int d = 0; d < topology_.dimensions(); ++d) {
      config.grid.size[d] = static_cast<std::uint16_t>(topology_.size(d));
    }
    config.node = static_cast<std::uint32_t>(node);
    config.skip_replication_lock = options_.skip_replication_lock;
    if (nodes_.back()->firmware.init(config, nodes_.back().get()) != fw::Status::kOk) {
      throw model::UnsupportedError(fmt::format("the firmware cannot run on {}", topology_.spec()));
    }
  }
  reset_routers(routers_, *backend_);
  clocked_.assign(routers_.size(), 1);
  local_was_valid_.assign(routers_.size() * routers_.front()->locals(), 1);
  credits_written_.assign(routers_.size(), ~std::uint32_t{0});
  drops_seen_.assign(routers_.size(), 0);
  drops_pending_.assign(routers_.size(), 0);
  draining_seen_.assign(routers_.size(), 0);
  errors_seen_.assign(routers_.size(), 0);
  held_.resize(routers_.size());
  listed_.assign(routers_.size(), 0);
  inputs_set_.assign(routers_.size(), 1);
  net_ = routers_.front()->net_ports();
  vcs_ = routers_.front()->vcs();
  locals_ = routers_.front()->locals();
  channels_ = nodes_.front()->channels();
  for (NodeId node = 0; node < n; ++node) {
    const RouterModel& m = *routers_[static_cast<std::size_t>(node)];
    if (m.net_ports() != net_ || m.vcs() != vcs_ || m.locals() != locals_ ||
        nodes_[static_cast<std::size_t>(node)]->channels() != channels_) {
      throw std::logic_error(fmt::format("router {} is another variant than router 0", topology_.node_name(node)));
    }
  }
  // Every input starts as possibly valid (LinkWiring sets each one once): cycles 0 and 1 drive all.
  drive_until_.assign(routers_.size(), 1);
  for (NodeId node = 0; node < n; ++node) {
    for (unsigned p = 0; p < net_; ++p) neighbours_.push_back(topology_.neighbour(node, static_cast<model::Port>(p)));
  }
  // Every node has one ejection port per channel (a local pair of its router).
  draws_per_node_ = options_.eject_stall > 0 ? channels_ : 0;
  eject_check_.emplace(topology_, net_, locals_, vcs_);
  ejected_.assign(routers_.size() * locals_, Link{});
}

bool MulticastRun::finished() const {
  if (!monitor_.network_empty()) return false;
  if (!every_node_) return busy_.empty();  // the invariant: no other node is busy
  return std::none_of(nodes_.begin(), nodes_.end(), [](const auto& node) { return node->busy(); });
}

void MulticastRun::wake(NodeId node) {
  std::uint8_t& listed = listed_[static_cast<std::size_t>(node)];
  if (listed != 0) return;
  listed = 1;
  woken_.push_back(node);
}

void MulticastRun::merge_woken() {
  active_.swap(busy_);
  busy_.clear();
  if (woken_.empty()) return;
  std::sort(woken_.begin(), woken_.end());
  merged_.clear();
  std::merge(active_.begin(), active_.end(), woken_.begin(), woken_.end(), std::back_inserter(merged_));
  active_.swap(merged_);
  woken_.clear();
}

// Every worm not yet taken in whole by its receiver, with where its head is, and the nodes' queues,
// partial worms and ejection buffers.
std::string MulticastRun::stall_report() const {
  std::string s = monitor_.unfinished_worms();
  for (const auto& n : nodes_) s += n->state();
  return s;
}

void MulticastRun::read_router_status() {
  for (std::size_t r = 0; r < routers_.size(); ++r) {
    if (clocked_[r] == 0) continue;  // not evaluated: the same status as after the last edge
    const RouterModel& m = *routers_[r];
    const unsigned drops = m.route_drops();
    const std::uint64_t draining = m.draining();
    // A worm is counted as dropped in the edge its undecidable flit arrives (docs/rtl-modules.md, "Drained
    // worms"); its VC starts draining when that flit's decision is loaded, in the same edge or
    // later. Each drain lasts at least one cycle and a VC is Idle for a cycle between two drains:
    // a drain starts where a draining bit rises, and takes one of the router's counted drops.
    std::uint64_t started = draining & ~draining_seen_[r];
    const unsigned starts = static_cast<unsigned>(std::popcount(started));
    if (drops < drops_seen_[r]) {
      monitor_.error(fmt::format("router {}: its count of dropped worms fell from {} to {} in cycle {}",
                                 topology_.node_name(static_cast<NodeId>(r)), drops_seen_[r], drops, cycle_));
    } else if (drops != kRouteDropsMax) {
      drops_pending_[r] += drops - drops_seen_[r];
      if (starts > drops_pending_[r]) {
        monitor_.error(fmt::format(
            "router {}: {} input VC(s) started draining in cycle {}, but only {} worm(s) were counted as dropped "
            "and not yet drained",
            topology_.node_name(static_cast<NodeId>(r)), starts, cycle_, drops_pending_[r]));
      }
      drops_pending_[r] -= std::min(starts, drops_pending_[r]);
    }
    for (; started != 0; started &= started - 1) {
      const int j = std::countr_zero(started);
      const int vcs = static_cast<int>(m.vcs());
      monitor_.route_drop(static_cast<NodeId>(r), j / vcs, j % vcs, cycle_);
    }
    drops_seen_[r] = drops;
    draining_seen_[r] = draining;
    // A sticky error (errors_o) is a broken protocol: a lost flit or credit. Reported once, in the
    // cycle it first shows.
    const unsigned errors = m.errors();
    if ((errors & ~errors_seen_[r]) != 0) {
      monitor_.error(fmt::format("router {}: {} (errors_o {:#x}) in cycle {}",
                                 topology_.node_name(static_cast<NodeId>(r)),
                                 router_error_text(errors & ~errors_seen_[r]), errors, cycle_));
    }
    errors_seen_[r] = errors;
  }
}

bool MulticastRun::submit(std::size_t i) {
  std::deque<std::size_t>& held = held_[static_cast<std::size_t>(requests_[i].source)];
  const fw::Status s = held.empty() ? start_multicast(i) : fw::Status::kNoFreeJob;  // never ahead of one held
  if (s == fw::Status::kNoFreeJob) {
    held.push_back(i);
    ++held_starts_;
  }
  return s == fw::Status::kOk || s == fw::Status::kNoFreeJob;
}

bool MulticastRun::submit_held() {
  if (held_starts_ == 0) return true;
  for (std::size_t node = 0; node < held_.size(); ++node) {
    std::deque<std::size_t>& held = held_[node];
    while (!held.empty() && nodes_[node]->firmware.has_free_job()) {
      const fw::Status s = start_multicast(held.front());
      if (s == fw::Status::kNoFreeJob) break;
      held.pop_front();
      --held_starts_;
      if (s != fw::Status::kOk) return false;
    }
  }
  return true;
}

fw::Status MulticastRun::start_multicast(std::size_t i) {
  const model::Request& r = requests_[i];
  std::vector<std::uint32_t> dests(r.destinations.begin(), r.destinations.end());
  fw::MulticastRequest m;
  m.algorithm = fw::find_algorithm(r.algorithm.c_str())->id;  // run_multicasts checked the name
  m.ports = static_cast<std::uint8_t>(channels_used(r));
  m.multicast = static_cast<std::uint16_t>(i);
  m.destinations = dests.data();
  m.count = static_cast<std::uint32_t>(dests.size());
  m.data = data_[i].data();
  m.words = static_cast<std::uint32_t>(data_[i].size());
  m.all_port = r.ports.kind == model::PortModelKind::kAllPort;
  wake(r.source);  // its firmware may queue worms now
  const fw::Status s = nodes_[static_cast<std::size_t>(r.source)]->firmware.on_start_multicast(m);
  if (s != fw::Status::kOk && s != fw::Status::kNoFreeJob) {
    monitor_.error(fmt::format("multicast {}: the source's firmware refused it: {}", i, fw::to_string(s)));
  }
  return s;
}

bool MulticastRun::read_outputs(NodeId r) {
  if (clocked_[static_cast<std::size_t>(r)] == 0) return false;  // idle since it was last read
  RouterModel& m = *routers_[static_cast<std::size_t>(r)];
  const unsigned net = m.net_ports(), ports = m.ports();
  bool moved = links_.capture(r, m);
  for (unsigned q = 0; q < ports; ++q) {
    const unsigned p = (q + net) % ports;
    const Link l = m.output(p);
    if (!l.valid) continue;
    moved = true;
    if (options_.trace != nullptr) options_.trace->push_back({cycle_, r, p, l});
    if (p < net) {
      monitor_.network_output(r, p, l, cycle_);
    } else {
      monitor_.ejection_output(r, l, cycle_);
      ejected_[static_cast<std::size_t>(r) * locals_ + (p - net)] = l;
      nodes_[static_cast<std::size_t>(r)]->take_ejected(p - net, l);
      wake(r);
    }
  }
  monitor_.router_read(r);
  return moved;
}

bool MulticastRun::serve_node(NodeId r, bool visit) {
  NodeInterface& node = *nodes_[static_cast<std::size_t>(r)];
  RouterModel& m = *routers_[static_cast<std::size_t>(r)];
  const unsigned net = net_, vcs = vcs_, locals = locals_;
  const std::size_t ri = static_cast<std::size_t>(r);
  // A router not evaluated in the last cycle owes no credit (can_skip).
  const std::uint32_t own_credits = clocked_[ri] != 0 ? m.credits_to_senders() : 0;
  std::uint32_t to_router = 0, eject_credits = 0;
  bool moved = false;
  if (visit) {
    if (draws_per_node_ != 0) {
      // The draws of the nodes skipped since the last visit, as if they had drawn them.
      const std::uint64_t slot = static_cast<std::uint64_t>(cycle_) * static_cast<std::uint64_t>(nodes_.size()) + ri;
      rng_.discard((slot - drawn_slots_) * draws_per_node_);
      drawn_slots_ = slot + 1;
    }
    eject_credits = node.drain_ejection(rng_, options_.eject_stall);
    to_router = eject_credits << (net * vcs);
    node.run_processor();
  }
  // The ejection links in this cycle: the flits read_outputs took and the credits returned (a flit
  // wakes its node, so a node not visited has neither).
  for (unsigned k = 0; k < locals; ++k) {
    Link& l = ejected_[ri * locals + k];
    const std::uint32_t bits = (eject_credits >> (k * vcs)) & ((1u << vcs) - 1);
    if (!l.valid && bits == 0) continue;
    const std::string broken = eject_check_->cycle(r, k, cycle_, l, bits);
    if (!broken.empty()) monitor_.error(broken);
    l = Link{};
  }
  // Without a drive no neighbour was evaluated in the last two cycles, so none returns a credit.
  const bool drive = every_node_ || drive_until_[ri] >= cycle_;
  const std::uint32_t returned = drive ? links_.drive(r, m) : 0;
  to_router |= credit_delay_.active() ? credit_delay_.pass(r, cycle_, returned) : returned;
  bool inputs_set = drive;
  for (unsigned k = 0; k < locals; ++k) {
    Link in;
    if (k < channels_) {
      const std::uint32_t bits = (own_credits >> ((net + k) * vcs)) & ((1u << vcs) - 1);
      if (visit) {
        moved |= node.inject(k, in, bits);
      } else if (bits != 0) {
        node.add_injection_credits(k, bits);  // not busy: nothing queued to send
      }
    }
    std::uint8_t& was_valid = local_was_valid_[ri * locals + k];
    if (in.valid || was_valid != 0) {
      m.set_input(net + k, in);
      inputs_set = true;
    }
    was_valid = in.valid ? 1 : 0;
  }
  if (to_router != credits_written_[ri]) {
    m.set_credits_from_receivers(to_router);
    inputs_set = true;
  }
  credits_written_[ri] = to_router;
  inputs_set_[ri] = inputs_set ? 1 : 0;
  return moved;
}

void MulticastRun::mark_neighbours_of_clocked() {
  // Their outputs and credits after this cycle's edge are captured next cycle and driven into the
  // neighbours then; the cycle after, the neighbours' drives set those inputs idle again.
  for (std::size_t r = 0; r < clocked_.size(); ++r) {
    if (clocked_[r] == 0) continue;
    for (unsigned p = 0; p < net_; ++p) {
      const NodeId q = neighbours_[r * net_ + p];
      if (q != model::kNoNode) drive_until_[static_cast<std::size_t>(q)] = cycle_ + 2;
    }
  }
}

RunRecord MulticastRun::run() {
  const int n = topology_.node_count();
  std::size_t started = 0;  // into start_order_
  long last_progress = 0;
  for (cycle_ = 0; cycle_ < options_.max_cycles; ++cycle_) {
    // The multicasts due in this cycle, at its top: with every start at 0, as before the first cycle.
    bool refused = !submit_held();
    while (!refused && started < start_order_.size() && start_cycles_[start_order_[started]] == cycle_) {
      refused = !submit(start_order_[started++]);
    }
    if (refused) break;
    bool moved = false;
    for (NodeId r = 0; r < n; ++r) moved |= read_outputs(r);
    merge_woken();
    std::size_t next = 0;  // into active_
    for (NodeId r = 0; r < n; ++r) {
      const bool listed = next < active_.size() && active_[next] == r;
      if (listed) ++next;
      moved |= serve_node(r, listed || every_node_);
      if (listed) {
        const bool busy = nodes_[static_cast<std::size_t>(r)]->busy();
        if (busy) busy_.push_back(r);  // visited again next cycle
        listed_[static_cast<std::size_t>(r)] = busy ? 1 : 0;
      } else if (every_node_ && nodes_[static_cast<std::size_t>(r)]->busy()) {
        // A node left out would have been skipped: the event-driven run would differ from this one.
        monitor_.error(
            fmt::format("harness: node {} became busy in cycle {} without being woken (an event the "
                        "event-driven node visits miss)",
                        topology_.node_name(r), cycle_));
      }
    }
    node_visits_ += every_node_ ? static_cast<std::uint64_t>(n) : active_.size();
    node_cycles_ += static_cast<std::uint64_t>(n);
    clock_routers(routers_, *backend_, &clocked_, every_node_ ? nullptr : &inputs_set_);
    if (!every_node_) mark_neighbours_of_clocked();
    read_router_status();
    if (backend_->assertion_failed()) monitor_.error(fmt::format("an RTL assertion fired in cycle {}", cycle_));
    if (!monitor_.record().errors.empty()) break;
    // working() implies busy(): with the invariant, only the busy nodes can be working.
    const auto is_working = [this](NodeId r) { return nodes_[static_cast<std::size_t>(r)]->working(); };
    const bool working = moved || (every_node_ ? std::any_of(nodes_.begin(), nodes_.end(),
                                                             [](const auto& node) { return node->working(); })
                                               : std::any_of(busy_.begin(), busy_.end(), is_working));
    if (working) last_progress = cycle_;
    if (finished()) {
      if (started == start_order_.size() && held_starts_ == 0) break;
      last_progress = cycle_;  // idle until the next start: not a stall
    }
    if (cycle_ - last_progress > options_.watchdog) {
      monitor_.record().stalled = true;
      monitor_.error(fmt::format("watchdog: no flit moved for {} cycles (cycle {}); blocked:{}", options_.watchdog,
                                 cycle_, stall_report()));
      break;
    }
  }
  if (cycle_ >= options_.max_cycles) {
    monitor_.error(fmt::format("the run did not finish in {} cycles", options_.max_cycles));
  }
  monitor_.record().cycles = cycle_;
  if (options_.evaluated != nullptr) *options_.evaluated = backend_->evaluated;
  if (options_.router_cycles != nullptr) *options_.router_cycles = backend_->router_cycles;
  if (options_.node_visits != nullptr) *options_.node_visits = node_visits_;
  if (options_.node_cycles != nullptr) *options_.node_cycles = node_cycles_;
  if (options_.held_credit_cycles != nullptr) *options_.held_credit_cycles = credit_delay_.held_credit_cycles();
  if (wave_) wave_->close();
  return monitor_.record();
}

}  // namespace

std::vector<std::uint64_t> multicast_data(int multicast, int length_flits) {
  std::vector<std::uint64_t> words;
  for (int i = 0; i < length_flits; ++i) {
    words.push_back(mix((static_cast<std::uint64_t>(multicast) << 32) | static_cast<std::uint64_t>(i)));
  }
  return words;
}

std::vector<model::Request> requests_of(const std::vector<model::Plan>& plans) {
  std::vector<model::Request> requests;
  for (const model::Plan& p : plans) requests.push_back(p.request);
  return requests;
}

RunRecord run_multicasts(const std::vector<model::Request>& requests, const RunOptions& options) {
  return run_multicasts(requests, options, {});
}

void check_routers_run(const model::Topology& t) {
  if (t.is_star() && (t.port_count() < 3 || t.port_count() > 5)) {
    throw model::UnsupportedError(
        fmt::format("{} has {} network ports; the RTL runs star:4, star:5 and star:6 (verilated routers with 3, 4 and "
                    "5 network ports)",
                    t.spec(), t.port_count()));
  }
  check_routers_fit(t);
}

RunRecord run_multicasts(const std::vector<model::Request>& requests, const RunOptions& options,
                         const std::vector<long>& start_cycles) {
  if (requests.empty()) throw model::RequestError("run_multicasts needs at least one request");
  if (!start_cycles.empty() && start_cycles.size() != requests.size()) {
    throw model::RequestError(fmt::format("{} start cycles for {} multicasts; give one per multicast or none",
                                          start_cycles.size(), requests.size()));
  }
  for (std::size_t i = 0; i < start_cycles.size(); ++i) {
    if (start_cycles[i] < 0 || start_cycles[i] >= options.max_cycles) {
      throw model::RequestError(
          fmt::format("start cycle {} of multicast {} is not in 0..{}", start_cycles[i], i, options.max_cycles - 1));
    }
  }
  if (options.alpha < 0 || options.gamma < 0) {
    throw model::RequestError(
        fmt::format("alpha {} and gamma {} must be at least 0 cycles", options.alpha, options.gamma));
  }
  if (!(options.eject_stall >= 0.0 && options.eject_stall <= 1.0)) {
    throw model::RequestError(fmt::format("eject stall probability {} is not in 0..1", options.eject_stall));
  }
  if (options.credit_delay < 0 || options.credit_delay > kMaxCreditDelay) {
    throw model::RequestError(
        fmt::format("credit delay {} is not in 0..{} cycles", options.credit_delay, kMaxCreditDelay));
  }
  if (options.watchdog < 1) throw model::RequestError(fmt::format("watchdog {} must be at least 1", options.watchdog));
  const model::Topology& t = requests.front().topology;
  for (const model::Request& r : requests) {
    if (!(r.topology == t)) throw model::RequestError("all multicasts of one run must share one topology");
    if (!firmware_supports(r.algorithm)) {
      throw model::UnsupportedError(no_firmware_message(r.algorithm));
    }
    if (static_cast<std::size_t>(r.length_flits) > fw::kMaxDataWords) {
      throw model::UnsupportedError(
          fmt::format("message length {} exceeds the firmware's maximum of {} data words ({} bytes; raise "
                      "WORMCAST_FW_MAX_DATA_WORDS, firmware/fw_config.hpp)",
                      r.length_flits, fw::kMaxDataWords, fw::kMaxDataWords * 8));
    }
    const fw::AlgorithmRow& row = *fw::find_algorithm(r.algorithm.c_str());
    // A broadcast algorithm keeps no destination list (a broadcast is a flag), nor does a broadcast
    // of lin, dual-path or 3dbl (label ranges); the others list the source and their destinations
    // in one list of kMaxChain nodes (by default the kMaxGridNodes of the largest network the
    // source-side tables take).
    const bool whole = static_cast<int>(r.destinations.size()) + 1 == t.node_count();
    if (!row.broadcast && !(row.broadcast_unlisted && whole) && r.destinations.size() + 1 > fw::kMaxChain) {
      throw model::UnsupportedError(
          fmt::format("{} destinations exceed the firmware's list of {} nodes: {} lists its destinations, 1..{} of "
                      "them (raise WORMCAST_FW_MAX_CHAIN, firmware/fw_config.hpp, or use a broadcast algorithm)",
                      r.destinations.size(), fw::kMaxChain, r.algorithm, fw::kMaxChain - 1));
    }
    if (fw::plans_over_grid(row.id) && static_cast<std::size_t>(t.node_count()) > fw::kMaxGridNodes) {
      throw model::UnsupportedError(
          fmt::format("{} has {} nodes, more than the {} of the firmware's tables {} plans over at the source (raise "
                      "WORMCAST_FW_MAX_GRID_NODES, firmware/fw_config.hpp)",
                      t.spec(), t.node_count(), fw::kMaxGridNodes, r.algorithm));
    }
  }
  // The coordinator queues at most one lock request per node (a node's next request goes after its
  // grant), so what must fit its queue is the number of nodes that source PCP broadcasts, however
  // many broadcasts each one starts.
  std::set<NodeId> lock_sources;
  for (const model::Request& r : requests) {
    if (model::algorithm_info(r.algorithm).takes_replication_lock) lock_sources.insert(r.source);
  }
  if (lock_sources.size() > fw::kMaxLockQueue) {
    throw model::UnsupportedError(
        fmt::format("{} nodes start PCP broadcasts in one run, more than the replication lock's queue of {} (one "
                    "request per node at a time; raise WORMCAST_FW_MAX_LOCK_QUEUE, firmware/fw_config.hpp)",
                    lock_sources.size(), fw::kMaxLockQueue));
  }
  check_routers_run(t);
  if (requests.size() > 0xFFFF) throw model::UnsupportedError("at most 65535 multicasts per run");
  RunOptions scaled = options;
  if (options.eject_stall < 1.0) {
    const double slowdown = 1.0 / (1.0 - options.eject_stall);
    scaled.watchdog = std::lround(static_cast<double>(options.watchdog) * slowdown);
    scaled.max_cycles = std::lround(static_cast<double>(options.max_cycles) * slowdown);
  }
  scaled.watchdog += options.credit_delay;
  scaled.max_cycles *= 1 + options.credit_delay;
  try {
    MulticastRun run(requests, scaled, start_cycles);
    return run.run();
  } catch (const std::invalid_argument& e) {
    if (dynamic_cast<const model::ModelError*>(&e) != nullptr) throw;
    throw model::UnsupportedError(e.what());
  }
}

}  // namespace wormcast::sim
