// SPDX-License-Identifier: Apache-2.0
#include "sim/node_interface.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "firmware/message.hpp"

namespace wormcast::sim {
namespace {

using model::NodeId;

constexpr std::size_t kSendQueue = 8;  // messages each injection channel's queue holds

// The two ejection adapters. Ejection ports carry eject_stream_o (the router input VC a flit comes
// from; flits of different worms interleave per flit) and take one pooled credit, returned on VC 0.
// The stream an ejected flit belongs to, as messages name it: per ejection port, since consecutive
// worms of one input VC may leave on different ejection ports (each EjectionPort keeps its own).
unsigned ejection_stream(unsigned local_port, unsigned stream) { return local_port * 64u + stream; }
// The VC whose credit the flit's buffer slot returns: the port's pool.
unsigned ejection_credit_vc() { return 0; }

}  // namespace

bool replicates_onto_network(const model::Topology& topology, NodeId sender, const wire::HeadFields& head) {
  if (topology.is_star() || topology.dimensions() != 2) return false;
  if (head.mode != wire::Mode::kCprLine || head.cf != wire::Cf::kDeliverPass) return false;
  const wire::Coords end = wire::unpack_coord_dest(head.dest);
  return static_cast<int>(end.y) != topology.coord(sender)[1] && topology.size(0) > 1;
}

NodeInterface::NodeInterface(NetworkMonitor& monitor, const model::Topology& topology, const long& cycle, NodeId id,
                             unsigned channels, unsigned vcs, NodeTiming timing)
    : monitor_(monitor),
      topology_(topology),
      cycle_(cycle),
      id_(id),
      timing_(timing),
      queues_(channels),
      vcs_(vcs),
      channel_free_(channels, 0),
      eject_(channels) {
  if (vcs_ == 0 || vcs_ > kMaxRouterVcs || (vcs_ & (vcs_ - 1)) != 0) {
    throw std::invalid_argument(
        fmt::format("a router has {} VCs per port; the harness takes 1, 2 or 4 (kMaxRouterVcs)", vcs_));
  }
  credits_.assign(channels, InjectionCredits(vcs_));
}

bool NodeInterface::can_send(unsigned k) const { return k < queues_.size() && queues_[k].size() < kSendQueue; }

bool NodeInterface::send(unsigned k, const fw::OutgoingWorm& worm) {
  if (!can_send(k) || !worm.well_formed()) return false;
  const wire::HeadFields head = wire::unpack_head(worm.header->flit(0));
  if (head.more + 1u != worm.header->count()) return false;
  // The NI's own copy of the message (its send queue): the header as the firmware generates it,
  // the payload gathered from the spans.
  CopiedWorm copy = copy_worm(worm);
  const std::uint64_t* header = copy.header.data();
  const auto header_flits = static_cast<std::uint32_t>(copy.header.size());
  std::vector<std::uint64_t>& body = copy.payload;
  const auto words = static_cast<std::uint32_t>(body.size());
  fw::MessageInfo info;
  const bool decodes = fw::decode_control(body.data(), words, info);
  if (timing_.mislabel_step && decodes && info.kind == fw::MessageKind::kMulticast) {
    ++info.step;
    fw::encode_control(info, body.data());
  }
  Outgoing out;
  out.flits = packetize(header, header_flits, body.data(), words);
  if (timing_.unroutable_worm && !unroutable_sent_) {
    // The monitor registers the header the firmware wrote (below); the routers get the broken one.
    wire::HeadFields last = wire::unpack_head(out.flits[header_flits - 1].data);
    last.mode = static_cast<wire::Mode>(kUnroutableMode);
    out.flits[header_flits - 1].data = wire::pack_head(last);
    unroutable_sent_ = true;
  }
  out.queued = cycle_;
  out.worm = monitor_.worm_sent(id_, k, header, header_flits, body.data(), words,
                                replicates_onto_network(topology_, id_, head), cycle_);
  queues_[k].push_back(std::move(out));
  return true;
}

void NodeInterface::deliver(std::uint32_t multicast, const std::uint64_t* words_in, std::uint32_t words) {
  Delivery d;
  d.multicast = static_cast<int>(multicast);
  d.node = id_;
  d.cycle = cycle_;
  if (data != nullptr && multicast < data->size()) {
    const std::vector<std::uint64_t>& want = (*data)[multicast];
    d.payload_ok = want.size() == words && std::equal(want.begin(), want.end(), words_in);
  }
  monitor_.delivered(d);
}

void NodeInterface::take_ejected(unsigned local, const Link& link) {
  if (!eject_[local].hold(link)) {
    monitor_.error(fmt::format("node {} ejection port {} VC {}: a flit without a credit at cycle {}", id_, local,
                               ejection_credit_vc(), cycle_));
  }
}

// Every ejection port takes at most one flit per cycle unless the random back-pressure holds it;
// each flit taken returns a credit.
std::uint32_t NodeInterface::drain_ejection(std::mt19937_64& rng, double stall) {
  std::uint32_t credits = 0;
  if (timing_.spurious_eject_credit && !spurious_credit_sent_) {
    credits |= 1u << ejection_credit_vc();
    spurious_credit_sent_ = true;
  }
  for (unsigned local = 0; local < eject_.size(); ++local) {
    if (stall > 0 && ejection_stall_draw(rng) < stall) continue;
    EjectionPort& port = eject_[local];
    const EjectionPort::Taken taken = port.take(timing_.corrupt_tail);
    if (taken == EjectionPort::Taken::kNone) continue;
    credits |= 1u << (local * vcs_ + ejection_credit_vc());
    if (taken == EjectionPort::Taken::kMisplaced) {
      const bool head = port.flit().head;
      monitor_.error(fmt::format("node {} ejection stream {}: {} flit {} a worm at cycle {}", id_,
                                 ejection_stream(local, port.stream()), head ? "head" : "body",
                                 head ? "inside" : "outside", cycle_));
    } else if (taken == EjectionPort::Taken::kWhole) {
      message_complete(local, port.stream());
    }
  }
  return credits;
}

void NodeInterface::message_complete(unsigned local, unsigned stream) {
  std::vector<wire::Flit>& got = eject_[local].worm(stream);
  // An ejected copy is the head, its `more` address flits, then the payload (docs/header-format.md).
  Depacketized whole = depacketize(got);
  got.clear();
  Received r;
  r.head = whole.head;
  r.payload = std::move(whole.payload);
  fw::MessageInfo info;
  if (!fw::decode_control(r.payload.data(), static_cast<std::uint32_t>(r.payload.size()), info)) {
    monitor_.error(fmt::format("node {} ejection port {}: a worm from node {} whose payload does not decode (cycle {})",
                               id_, local, r.head.src, cycle_));
    return;
  }
  r.worm = monitor_.copy_taken_in(id_, static_cast<NodeId>(r.head.src), info.sequence, cycle_);
  received_.push_back(std::move(r));
}

// Hands a received message to the firmware. A message it cannot take yet (every job busy,
// kNoFreeJob: nothing done) is held, oldest first, and presented again once a job is free.
void NodeInterface::present(Received r) {
  // The sends the firmware makes while it takes the message are caused by it (a held message
  // causes nothing yet: the node has no job of its multicast to send from).
  if (r.worm >= 0) monitor_.message_received(id_, r.worm);
  const fw::Status s =
      firmware.on_message_received(r.head, r.payload.data(), static_cast<std::uint32_t>(r.payload.size()));
  if (s == fw::Status::kNoFreeJob) {
    held_.push_back(std::move(r));
    return;
  }
  if (s != fw::Status::kOk) {
    monitor_.error(fmt::format("node {} firmware rejected a message from node {} at cycle {}: {}", id_, r.head.src,
                               cycle_, fw::to_string(s)));
  }
}

// The processor: receives one message at a time, gamma cycles each, then runs the firmware. A held
// message goes first once a job is free (its receive was paid); messages behind it still go in
// turn (one that needs no job, such as a replication-lock grant, is never stuck behind it).
void NodeInterface::run_processor() {
  for (;;) {
    if (processing_ && cycle_ >= processor_ready_) {
      Received r = std::move(received_.front());
      received_.pop_front();
      processing_ = false;
      present(std::move(r));
    }
    while (!held_.empty() && firmware.has_free_job()) {
      Received r = std::move(held_.front());
      held_.pop_front();
      present(std::move(r));
    }
    if (processing_ || received_.empty()) return;
    processing_ = true;
    processor_ready_ = cycle_ + timing_.gamma;
  }
}

bool NodeInterface::inject(unsigned k, Link& out, std::uint32_t credit_bits) {
  credits_[k].add(credit_bits);
  if (queues_[k].empty()) return false;
  Outgoing& m = queues_[k].front();
  if (m.ready < 0) m.ready = std::max(m.queued, channel_free_[k]) + timing_.alpha;
  if (cycle_ < m.ready) return false;
  const wire::Flit& flit = m.flits[m.next];
  const unsigned vc = injection_vc(wire::unpack_head(m.flits.front().data), vcs_);
  if (!credits_[k].take(vc)) return false;
  out = Link{true, vc, flit};
  if (m.next == 0) {
    monitor_.head_injected(m.worm, id_, static_cast<unsigned>(topology_.port_count()) + k, vc, cycle_);
  }
  if (++m.next == m.flits.size()) {
    const bool was_full = queues_[k].size() >= kSendQueue;
    queues_[k].pop_front();
    channel_free_[k] = cycle_ + 1;
    if (was_full) firmware.on_channel_free();
  }
  return true;
}

bool NodeInterface::working() const {
  if (processing_) return true;
  return std::any_of(queues_.begin(), queues_.end(),
                     [this](const std::deque<Outgoing>& q) { return !q.empty() && q.front().ready > cycle_; });
}

bool NodeInterface::busy() const {
  if (processing_ || !received_.empty() || !held_.empty()) return true;
  for (const auto& q : queues_) {
    if (!q.empty()) return true;
  }
  for (const EjectionPort& port : eject_) {
    if (port.held() != 0) return true;
    for (const auto& [stream, flits] : port.worms()) {
      if (!flits.empty()) return true;
    }
  }
  return false;
}

std::string NodeInterface::state() const {
  std::string s;
  const std::string name = topology_.node_name(id_);
  if (!held_.empty()) s += fmt::format(" node {}: {} message(s) held for a free job;", name, held_.size());
  for (std::size_t k = 0; k < queues_.size(); ++k) {
    if (!queues_[k].empty()) s += fmt::format(" node {} channel {}: {} message(s) queued;", name, k, queues_[k].size());
  }
  for (unsigned local = 0; local < eject_.size(); ++local) {
    for (const auto& [stream, flits] : eject_[local].worms()) {
      if (!flits.empty()) {
        s += fmt::format(" node {} stream {}: {} flit(s) of a worm;", name, ejection_stream(local, stream),
                         flits.size());
      }
    }
  }
  for (std::size_t local = 0; local < eject_.size(); ++local) {
    const std::size_t held = eject_[local].held();
    if (held != 0) {
      s += fmt::format(" node {} ejection port {} VC {}: {} flit(s) not taken;", name, local, ejection_credit_vc(),
                       held);
    }
  }
  return s;
}

}  // namespace wormcast::sim
