// SPDX-License-Identifier: Apache-2.0
#include "sim/fpga_backend.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <memory>

#include "firmware/algorithm_table.hpp"
#include "firmware/message.hpp"
#include "firmware/network_interface.hpp"
#include "firmware/node_firmware.hpp"
#include "model/errors.hpp"
#include "model/planner.hpp"
#include "sim/multicast_run.hpp"
#include "sim/node_interface.hpp"

namespace wormcast::sim {
namespace {

using model::NodeId;

// The bytes of an inject command of `words` words and its answer (docs/host-link.md, "The protocol").
std::size_t inject_bytes(std::size_t words, unsigned word_bytes) { return 1 + 1 + 4 + 1 + words * word_bytes + 4; }
// The bytes of a status command and its answer.
std::size_t status_bytes(unsigned nodes) { return 1 + 1 + 13 + 4 * static_cast<std::size_t>(nodes); }

// Board cycles from `from` to `to` (board cycles wrap at 2^32).
long since(std::uint32_t to, std::uint32_t from) { return static_cast<std::int32_t>(to - from); }

// A message one node's firmware sent, waiting to be injected.
struct Outgoing {
  std::vector<std::uint64_t> words;  // the packetized worm's flits' words
  long wanted = 0;                   // run cycle its start-up ends
};

// A message the board logged at a node, waiting for the node's processor.
struct Arrived {
  wire::HeadFields head;
  std::vector<std::uint64_t> payload;
  long ready = 0;  // run cycle its receive ends (the firmware takes it then)
};

// One node on the host: its firmware and the network interface the firmware sees. Sends are
// queued for the link; received messages are taken one at a time, gamma cycles each, as
// NodeInterface's processor takes them.
class HostNode final : public fw::NetworkInterface {
 public:
  HostNode(NodeId id, const long& now, const BoardRunOptions& options,
           const std::vector<std::vector<std::uint64_t>>& data, RunRecord& record)
      : id_(id), now_(now), options_(options), data_(data), record_(record) {}

  unsigned channels() const override { return 1; }
  bool can_send(unsigned k) const override { return k == 0; }
  bool send(unsigned k, const fw::OutgoingWorm& worm) override {
    if (k != 0 || !worm.well_formed()) return false;
    if (wire::unpack_head(worm.header->flit(0)).more + 1u != worm.header->count()) return false;
    const CopiedWorm copy = copy_worm(worm);
    Outgoing out;
    for (const wire::Flit& f : packetize(copy.header.data(), static_cast<std::uint32_t>(copy.header.size()),
                                         copy.payload.data(), static_cast<std::uint32_t>(copy.payload.size()))) {
      out.words.push_back(f.data);
    }
    // NodeInterface::inject: the start-up begins when the message is queued or the channel's last
    // message has gone, whichever is later.
    out.wanted = std::max(now_, channel_free_) + options_.alpha;
    channel_free_ = out.wanted + static_cast<long>(out.words.size());
    outgoing.push_back(std::move(out));
    return true;
  }
  void deliver(std::uint32_t multicast, const std::uint64_t* words, std::uint32_t count) override {
    Delivery d;
    d.multicast = static_cast<int>(multicast);
    d.node = id_;
    d.cycle = now_;
    if (multicast < data_.size()) {
      const std::vector<std::uint64_t>& want = data_[multicast];
      d.payload_ok = want.size() == count && std::equal(want.begin(), want.end(), words);
    }
    record_.deliveries.push_back(d);
  }
  std::uint64_t cycle() const override { return static_cast<std::uint64_t>(now_); }

  // A message the board logged here, its last flit at run cycle `tail`.
  void arrive(const std::vector<std::uint64_t>& words, long tail) {
    std::vector<wire::Flit> worm;
    for (std::size_t i = 0; i < words.size(); ++i) worm.push_back({i == 0, i + 1 == words.size(), words[i]});
    Depacketized whole = depacketize(worm);
    Arrived a{whole.head, std::move(whole.payload), std::max(tail, processor_free_) + options_.gamma};
    processor_free_ = a.ready;
    inbox_.push_back(std::move(a));
  }
  // The run cycle of this node's next receive's end (max when none is pending).
  long next_event() const { return inbox_.empty() ? std::numeric_limits<long>::max() : inbox_.front().ready; }
  // Hands the next received message to the firmware (at next_event()), then any it held.
  void take_next() {
    held_.push_back(std::move(inbox_.front()));
    inbox_.pop_front();
    present_held();
  }
  void present_held() {
    while (!held_.empty() && firmware.has_free_job()) {
      Arrived a = std::move(held_.front());
      held_.pop_front();
      const fw::Status s =
          firmware.on_message_received(a.head, a.payload.data(), static_cast<std::uint32_t>(a.payload.size()));
      if (s == fw::Status::kNoFreeJob) {
        held_.push_front(std::move(a));
        return;
      }
      if (s != fw::Status::kOk) {
        record_.errors.push_back(fmt::format("node {} firmware rejected a message from node {} at cycle {}: {}", id_,
                                             a.head.src, now_, fw::to_string(s)));
      }
    }
  }
  bool busy() const { return !inbox_.empty() || !held_.empty() || !outgoing.empty(); }

  fw::NodeFirmware firmware;
  std::deque<Outgoing> outgoing;

 private:
  NodeId id_;
  const long& now_;
  const BoardRunOptions& options_;
  const std::vector<std::vector<std::uint64_t>>& data_;
  RunRecord& record_;
  long channel_free_ = 0;
  long processor_free_ = 0;
  std::deque<Arrived> inbox_;
  std::deque<Arrived> held_;
};

fw::NodeConfig node_config(const model::Topology& t, NodeId node) {
  fw::NodeConfig config;
  config.grid.kind = fw::GridKind::kMesh;
  config.grid.dims = static_cast<std::uint8_t>(t.dimensions());
  for (int d = 0; d < t.dimensions(); ++d) config.grid.size[d] = static_cast<std::uint16_t>(t.size(d));
  config.node = static_cast<std::uint32_t>(node);
  return config;
}

class BoardRunLoop {
 public:
  BoardRunLoop(const std::vector<model::Request>& requests, const BoardRunOptions& options, HostLinkClient& link,
               const std::vector<long>& start_cycles)
      : requests_(requests), options_(options), link_(link), topology_(requests.front().topology) {
    check_requests();
    for (std::size_t i = 0; i < requests_.size(); ++i) {
      pending_starts_.push_back({start_cycles.empty() ? 0 : start_cycles[i], i});
    }
    // By start cycle, then index (stable: the index order within a cycle).
    std::stable_sort(pending_starts_.begin(), pending_starts_.end(),
                     [](const PendingStart& a, const PendingStart& b) { return a.cycle < b.cycle; });
    for (std::size_t i = 0; i < requests_.size(); ++i) {
      data_.push_back(multicast_data(static_cast<int>(i), requests_[i].length_flits));
    }
    for (NodeId node = 0; node < topology_.node_count(); ++node) {
      nodes_.push_back(std::make_unique<HostNode>(node, now_, options_, data_, run_.record));
      if (nodes_.back()->firmware.init(node_config(topology_, node), nodes_.back().get()) != fw::Status::kOk) {
        throw model::UnsupportedError(fmt::format("the firmware cannot run on {}", topology_.spec()));
      }
    }
  }

  BoardRun run() {
    measure_link();
    process_until(1);  // the multicasts due at run cycle 0: their sends set run cycle 0 on the board
    long last_activity = 0;
    for (;;) {
      last_activity = std::max(last_activity, inject_pending());
      const LinkStatus s = link_.status();
      const long horizon = since(s.cycle, run_.base);
      last_activity = std::max(last_activity, collect());
      process_until(horizon);
      if (idle(s) && horizon - last_activity >= options_.quiet_cycles) {
        finish(s, horizon);
        break;
      }
      if (horizon > options_.max_cycles) {
        run_.record.stalled = true;
        run_.record.errors.push_back(
            fmt::format("the board run passed {} cycles without finishing", options_.max_cycles));
        finish(s, horizon);
        break;
      }
    }
    return std::move(run_);
  }

 private:
  void check_requests() const {
    if (link_.word_bytes() != 8) {
      throw model::UnsupportedError(fmt::format(
          "the board's words are {} bytes; the firmware writes 64-bit heads (docs/header-format.md), so the "
          "board must be built with 64-bit flits",
          link_.word_bytes()));
    }
    check_board_requests(requests_, link_.nodes());
  }

  // Two status commands back to back: their round trip in board cycles.
  void measure_link() {
    const LinkStatus a = link_.status();
    const LinkStatus b = link_.status();
    run_.status_round_trip = since(b.cycle, a.cycle);
    cycles_per_byte_ = static_cast<double>(run_.status_round_trip) / static_cast<double>(status_bytes(link_.nodes()));
    run_.base = b.cycle;  // until the first injections set it
  }

  // Request i's source starts it (at now_). A source whose jobs are all busy holds it (its
  // application waits, as on the routers) until a job frees: retried after every event.
  void start_multicast(std::size_t i) {
    const model::Request& r = requests_[i];
    std::vector<std::uint32_t> dests(r.destinations.begin(), r.destinations.end());
    fw::MulticastRequest m;
    const fw::AlgorithmRow* entry = fw::find_algorithm(r.algorithm.c_str());
    if (entry == nullptr) throw model::UnsupportedError(fmt::format("no firmware algorithm {}", r.algorithm));
    m.algorithm = entry->id;
    m.ports = 1;
    m.multicast = static_cast<std::uint16_t>(i);
    m.destinations = dests.data();
    m.count = static_cast<std::uint32_t>(dests.size());
    m.data = data_[i].data();
    m.words = static_cast<std::uint32_t>(data_[i].size());
    const fw::Status s = nodes_[static_cast<std::size_t>(r.source)]->firmware.on_start_multicast(m);
    if (s == fw::Status::kNoFreeJob) {
      held_starts_.push_back(i);
    } else if (s != fw::Status::kOk) {
      run_.record.errors.push_back(
          fmt::format("multicast {}: the source's firmware refused it: {}", i, fw::to_string(s)));
    }
  }

  // The held starts again, in index order (a job may have freed).
  void retry_held_starts() {
    std::vector<std::size_t> held;
    held.swap(held_starts_);
    for (std::size_t i : held) start_multicast(i);
  }

  // Sends every queued message to the board, each at the run cycle its start-up ends or, when the
  // link cannot get it there by then, as soon as it can. The first round's messages were all sent
  // before the board was asked anything, so run cycle 0 is set by them: every one arrives in time.
  // Returns the latest start.
  long inject_pending() {
    std::size_t bytes = status_bytes(link_.nodes());
    for (const auto& node : nodes_) {
      for (const Outgoing& o : node->outgoing) bytes += inject_bytes(o.words.size(), link_.word_bytes());
    }
    if (bytes == status_bytes(link_.nodes())) return 0;
    // The commands' bytes twice over (each command waits for its answer's turnaround), and the
    // margin for the host's own time.
    const long lead = options_.margin_round_trips * run_.status_round_trip +
                      static_cast<long>(std::ceil(2 * cycles_per_byte_ * static_cast<double>(bytes)));
    // Each node's free queue entries: a message goes only when it fits (a refused inject would set
    // the board's sticky link error bit), the rest on a later round as the queue drains.
    const LinkStatus before = link_.status();
    const std::uint32_t now = before.cycle;
    if (!based_) {
      run_.base = now + static_cast<std::uint32_t>(lead);
      based_ = true;
    }
    const long earliest = since(now, run_.base) + lead;
    long latest = 0;
    for (NodeId n = 0; n < static_cast<NodeId>(nodes_.size()); ++n) {
      HostNode& node = *nodes_[static_cast<std::size_t>(n)];
      unsigned free = before.nodes[static_cast<std::size_t>(n)].free;
      while (!node.outgoing.empty()) {
        Outgoing& o = node.outgoing.front();
        if (o.words.size() > link_.max_words()) {
          throw model::UnsupportedError(fmt::format("node {} sends a {}-word message; the board's queue takes {}", n,
                                                    o.words.size(), link_.max_words()));
        }
        if (o.words.size() + 1 > free) break;  // a message takes its words and a start entry
        const long start = std::max(o.wanted, earliest);
        const InjectAnswer a =
            link_.inject(static_cast<unsigned>(n), run_.base + static_cast<std::uint32_t>(start), o.words);
        if (a.code != InjectCode::kAccepted) {
          throw HostLinkError(
              fmt::format("the board refused node {}'s message (code {})", n, static_cast<int>(a.code)));
        }
        run_.injections.push_back({n, o.wanted, start, static_cast<unsigned>(o.words.size())});
        run_.link_wait = std::max(run_.link_wait, start - o.wanted);
        latest = std::max(latest, start + static_cast<long>(o.words.size()));
        node.outgoing.pop_front();
        free = a.free;
      }
    }
    return latest;
  }

  // Reads every node's log; returns the latest tail's run cycle (0 when nothing came).
  long collect() {
    long latest = 0;
    for (NodeId n = 0; n < static_cast<NodeId>(nodes_.size()); ++n) {
      for (const LinkDelivery& d : link_.collect(static_cast<unsigned>(n))) {
        const long tail = since(d.cycle, run_.base);
        nodes_[static_cast<std::size_t>(n)]->arrive(d.words, tail);
        latest = std::max(latest, tail);
      }
    }
    return latest;
  }

  // Every start and every receive that ends before `horizon`, in cycle order (a cycle's starts
  // first, then its receives in node order): every message whose tail the board logged before the
  // status command's cycle has been read, so none can come earlier.
  void process_until(long horizon) {
    for (;;) {
      HostNode* next = nullptr;
      for (const auto& node : nodes_) {
        if (node->next_event() < horizon && (next == nullptr || node->next_event() < next->next_event())) {
          next = node.get();
        }
      }
      const bool start_due = next_start_ < pending_starts_.size() && pending_starts_[next_start_].cycle < horizon;
      if (start_due && (next == nullptr || pending_starts_[next_start_].cycle <= next->next_event())) {
        now_ = pending_starts_[next_start_].cycle;
        start_multicast(pending_starts_[next_start_++].index);
        continue;
      }
      if (next == nullptr) return;
      now_ = next->next_event();
      next->take_next();
      retry_held_starts();
    }
  }

  bool idle(const LinkStatus& s) const {
    if (next_start_ < pending_starts_.size() || !held_starts_.empty()) return false;
    for (std::size_t n = 0; n < nodes_.size(); ++n) {
      if (nodes_[n]->busy() || s.nodes[n].queued != 0 || s.nodes[n].logged != 0) return false;
    }
    return true;
  }

  void finish(const LinkStatus& s, long horizon) {
    run_.late = s.late;
    run_.stalls = s.stalls;
    run_.record.cycles = horizon;
    if (s.link_errors != 0) {
      run_.record.errors.push_back(fmt::format("the host link reported errors {:#x}", s.link_errors));
    }
    for (std::size_t n = 0; n < s.nodes.size(); ++n) {
      if (s.nodes[n].errors != 0) {
        run_.record.errors.push_back(fmt::format("board node {}: sticky errors {:#x}", n, s.nodes[n].errors));
      }
    }
  }

  const std::vector<model::Request>& requests_;
  const BoardRunOptions& options_;
  HostLinkClient& link_;
  model::Topology topology_;
  std::vector<std::vector<std::uint64_t>> data_;
  std::vector<std::unique_ptr<HostNode>> nodes_;
  BoardRun run_;
  long now_ = 0;
  double cycles_per_byte_ = 0;
  bool based_ = false;  // run cycle 0 has been set (by the first injections)
  struct PendingStart {
    long cycle = 0;
    std::size_t index = 0;
  };
  std::vector<PendingStart> pending_starts_;  // in start order
  std::size_t next_start_ = 0;                // the first not yet started
  std::vector<std::size_t> held_starts_;      // started while the source had no free job
};

}  // namespace

void check_board_requests(const std::vector<model::Request>& requests, unsigned nodes) {
  for (const model::Request& r : requests) {
    const model::Topology& t = r.topology;
    if (!t.is_mesh() || t.dimensions() != 2 || static_cast<unsigned>(t.node_count()) != nodes) {
      throw model::UnsupportedError(
          fmt::format("topology {} ({} nodes) is not the board's: the board runs a 2D mesh of {} nodes", t.spec(),
                      t.node_count(), nodes));
    }
    if (t.spec() != requests.front().topology.spec()) throw model::RequestError("all requests must share one topology");
    const bool one_port = r.ports.kind == model::PortModelKind::kOnePort ||
                          (r.ports.kind == model::PortModelKind::kDPort && r.ports.count == 1);
    if (!one_port && !model::algorithm_info(r.algorithm).one_injection_channel) {
      throw model::UnsupportedError(fmt::format(
          "{} with the {} model: the board's nodes have one injection channel each, so it runs the one-port model "
          "only (-p one, for an algorithm that takes it)",
          r.algorithm, r.ports.name()));
    }
  }
}

BoardRun run_on_board(const std::vector<model::Request>& requests, const BoardRunOptions& options, HostLinkClient& link,
                      const std::vector<long>& start_cycles) {
  if (requests.empty()) throw model::RequestError("a board run needs at least one request");
  if (!start_cycles.empty() && start_cycles.size() != requests.size()) {
    throw model::RequestError(fmt::format("{} start cycles for {} requests: give one per request, or none",
                                          start_cycles.size(), requests.size()));
  }
  for (std::size_t i = 0; i < start_cycles.size(); ++i) {
    if (start_cycles[i] < 0) {
      throw model::RequestError(fmt::format("request {}'s start cycle {} is below 0", i, start_cycles[i]));
    }
  }
  return BoardRunLoop(requests, options, link, start_cycles).run();
}

}  // namespace wormcast::sim
