// SPDX-License-Identifier: Apache-2.0
// Recursive doubling, the EDN broadcast and network partitioning (docs/algorithms.md, "Recursive
// Doubling", "EDN step by step" and "Network partitioning"); independent of model/
// (docs/firmware.md, "HW/SW split").
#include "firmware/broadcast_baselines.hpp"

#include "firmware/algorithm_table.hpp"
#include "firmware/job.hpp"
#include "firmware/source_route.hpp"

namespace wormcast::fw {
namespace {

constexpr std::uint32_t ceil_div(std::uint32_t a, std::uint32_t b) { return (a + b - 1) / b; }

// ceil(log2 n) for n >= 1.
constexpr std::uint32_t ceil_log2(std::uint32_t n) {
  std::uint32_t k = 0;
  while ((std::uint32_t{1} << k) < n) ++k;
  return k;
}

// The first step of dimension `dim`'s phase, minus one: the phases before it take ceil(log2 size)
// steps each, everywhere at once.
std::uint32_t rd_base(const Grid& g, std::uint8_t dim) {
  std::uint32_t base = 0;
  for (unsigned d = 0; d < dim; ++d) base += ceil_log2(g.size[d]);
  return base;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Recursive doubling: halving rows, then columns, then Z lines.

Status check_rd(const Grid& g, std::uint32_t, const MulticastRequest&) {
  return g.kind == GridKind::kMesh ? Status::kOk : Status::kUnsupportedTopology;
}

Status start_rd(NodeContext& node, Job& job, const MulticastRequest&) {
  job.state.rd = {};
  job.state.rd.hi = node.grid().size[0];
  return Status::kOk;
}

// Every receiver is a destination; it then halves the segment it was given.
Status receive_rd(NodeContext& node, const Received& m, Job* slot) {
  const Grid& g = node.grid();
  if (m.info.rd_dim >= g.dims || m.info.rd_lo >= m.info.rd_hi) return Status::kBadMessage;
  const std::uint32_t own = g.coord(node.self(), m.info.rd_dim);
  if (own < m.info.rd_lo || own >= m.info.rd_hi || m.info.address_entries != 0) return Status::kBadMessage;
  if (slot == nullptr) return Status::kNoFreeJob;
  node.deliver(m);
  begin_relay(node, *slot, m);
  slot->all_port = false;
  slot->state.rd = {};
  slot->state.rd.dim = m.info.rd_dim;
  slot->state.rd.lo = m.info.rd_lo;
  slot->state.rd.hi = m.info.rd_hi;
  slot->active = true;
  return Status::kOk;
}

// Halve the own segment of the current line, lower half taking the odd node; send the other half
// to the node at the same relative position (clamped); at a segment of one node go on to the next
// dimension's whole line.
std::uint32_t iterate_rd(NodeContext& node, Job& job) {
  const Grid& g = node.grid();
  RdJob& rd = job.state.rd;
  while (rd.hi - rd.lo <= 1) {
    if (rd.dim + 1u >= g.dims) return 0;
    ++rd.dim;
    rd.lo = 0;
    rd.hi = g.size[rd.dim];
    job.step = rd_base(g, rd.dim) + 1;
  }
  const std::uint32_t own = g.coord(node.self(), rd.dim);
  const std::uint32_t mid = rd.lo + ceil_div(rd.hi - rd.lo, 2);
  const bool in_lower = own < mid;
  const std::uint32_t own_lo = in_lower ? rd.lo : mid, other_lo = in_lower ? mid : rd.lo;
  const std::uint32_t other_hi = in_lower ? rd.hi : mid;
  const std::uint32_t offset = own - own_lo, other_size = other_hi - other_lo;
  const std::uint32_t target = other_lo + (offset < other_size - 1 ? offset : other_size - 1);
  rd.send = {g.with_coord(node.self(), rd.dim, target), other_lo, other_hi};
  if (in_lower) {
    rd.hi = mid;
  } else {
    rd.lo = mid;
  }
  return 1;
}

// A dimension-order unicast on channel 0; word 2 names the receiver's segment.
bool issue_rd(NodeContext& node, Job& job, std::uint32_t) {
  const RdJob& rd = job.state.rd;
  if (!node.put_head(0, node.dimension_order_head(rd.send.receiver))) return false;
  MessageInfo info;
  info.rd_dim = rd.dim;
  info.rd_lo = rd.send.lo;
  info.rd_hi = rd.send.hi;
  return node.send(job, 0, 1, info, nullptr, 0);
}

// ---------------------------------------------------------------------------------------------
// Extended Dominating Node (firmware/edn_broadcast.hpp)

Status check_edn(const Grid& g, std::uint32_t, const MulticastRequest& r) {
  // A 2^k x 2^k mesh; each worm leaves on the channel of its first hop (all-port, [3]'s EDN).
  if (g.kind != GridKind::kMesh || edn_side(g.size, g.dims) == 0) return Status::kUnsupportedTopology;
  return r.ports < 4 ? Status::kBadPortCount : Status::kOk;
}

Status start_edn(NodeContext& node, Job& job, const MulticastRequest&) {
  job.state.edn = {};
  EdnJob& e = job.state.edn;
  const std::uint32_t n = edn_side(node.grid().size, node.grid().dims);
  e.top_count = static_cast<std::uint8_t>(edn_first_two_steps(n, node.self(), e.top));
  if (!edn_source_role(n, node.self(), e.region, e.cover_step)) e.region = {};
  return Status::kOk;
}

// XY worms arrive by dimension order addressed to this node, YX worms by their source route's end;
// the payload names the region this node covers and its step-2 forwards.
Status receive_edn(NodeContext& node, const Received& m, Job* slot) {
  const Grid& g = node.grid();
  const MessageInfo& info = m.info;
  const std::uint32_t self = node.self(), n = edn_side(g.size, g.dims);
  const wire::Coords own{static_cast<std::uint8_t>(g.coord(self, 0)), static_cast<std::uint8_t>(g.coord(self, 1)), 0};
  const bool addressed = m.head.mode == wire::Mode::kSourceRouted ||
                         (m.head.mode == wire::Mode::kDimensionOrder && m.head.dest == wire::pack_coord_dest(own));
  const EdnRegion region{{info.edn_rot, info.edn_tx, info.edn_ty}, info.edn_level};
  if (n == 0 || !addressed || info.address_entries != 0 || info.edn_tx >= n || info.edn_ty >= n ||
      (1u << info.edn_level) > n || edn_holder(region, n) != self || (info.edn_forward != 0 && info.step != 1)) {
    return Status::kBadMessage;
  }
  const bool relays = region.level != kEdnLeaf || info.edn_forward != 0;
  if (relays && slot == nullptr) return Status::kNoFreeJob;
  node.deliver(m);
  if (!relays) return Status::kOk;
  begin_relay(node, *slot, m);  // iterate_edn sets each step
  slot->state.edn = {};
  EdnJob& e = slot->state.edn;
  e.phase = 1;  // a top EDN reached in step 1 forwards in step 2, then every holder covers
  e.forward = info.edn_forward;
  e.forward_yx = info.edn_forward_yx;
  e.region = region;
  e.cover_step = info.step + 1u < 3 ? 3 : info.step + 1u;
  slot->active = true;
  return Status::kOk;
}

namespace {

// A worm to the holder of `region` on the channel of its route's first hop.
EdnWorm edn_worm(std::uint32_t n, std::uint32_t self, const EdnRegion& region, std::uint32_t receiver, bool yx) {
  EdnWorm w;
  w.region = region;
  w.receiver = receiver;
  w.yx = yx;
  w.channel = edn_first_port(n, self, receiver, yx);
  return w;
}

// The source's step-`step` sends of steps 1-2 to the top EDNs, each carrying the forwards of the
// targets it is the via of.
void push_edn_top_sends(EdnJob& e, std::uint32_t n, std::uint32_t self, std::uint8_t step) {
  for (std::uint8_t i = 0; i < e.top_count; ++i) {
    const EdnTopSend& t = e.top[i];
    if (t.step != step || t.via != kEdnFromSource) continue;
    const EdnRegion region = edn_top_region(n, t.quadrant);
    EdnWorm w = edn_worm(n, self, region, edn_holder(region, n), t.yx);
    for (std::uint8_t j = 0; j < e.top_count; ++j) {
      if (e.top[j].via != t.quadrant) continue;
      w.forward = static_cast<std::uint8_t>(w.forward | 1u << e.top[j].quadrant);
      if (e.top[j].yx) w.forward_yx = static_cast<std::uint8_t>(w.forward_yx | 1u << e.top[j].quadrant);
    }
    e.pending.push_back(w);
  }
}

}  // namespace

// The sends of the job's next step that has any: the source's steps 1 and 2 (phase 0, 1), a top
// EDN's step-2 forwards (phase 1), then one level of the region per step (phase 2).
std::uint32_t iterate_edn(NodeContext& node, Job& job) {
  EdnJob& e = job.state.edn;
  const std::uint32_t n = edn_side(node.grid().size, node.grid().dims), self = node.self();
  const bool source = job.origin == self;
  e.pending.clear();
  while (e.pending.empty()) {
    if (e.phase == 0) {
      job.step = 1;
      push_edn_top_sends(e, n, self, 1);
    } else if (e.phase == 1) {
      job.step = 2;
      if (source) push_edn_top_sends(e, n, self, 2);
      for (unsigned q = 0; q < 4; ++q) {
        if (source || ((e.forward >> q) & 1u) == 0) continue;
        const EdnRegion region = edn_top_region(n, q);
        e.pending.push_back(edn_worm(n, self, region, edn_holder(region, n), ((e.forward_yx >> q) & 1u) != 0));
      }
    } else {
      if (e.region.level == kEdnLeaf) return 0;
      job.step = e.cover_step++;
      EdnSend sends[3];
      EdnRegion next;
      const unsigned count = edn_level_sends(e.region, n, job.origin, sends, next);
      e.region = next;
      for (unsigned i = 0; i < count; ++i) {
        e.pending.push_back(edn_worm(n, self, sends[i].region, sends[i].receiver, sends[i].yx));
      }
    }
    if (e.phase < 2) ++e.phase;
  }
  return static_cast<std::uint32_t>(e.pending.size());
}

// XY as a dimension-order unicast (class 0), YX as a source route (Y leg, then X leg; class 1,
// five entries per header flit, ended at the receiver); the payload carries the receiver's region
// and forwards, no address field.
bool issue_edn(NodeContext& node, Job& job, std::uint32_t index) {
  const EdnWorm& w = job.state.edn.pending[index];
  const Grid& g = node.grid();
  std::uint32_t flits = 1;
  if (!w.yx) {
    if (!node.put_head(0, node.dimension_order_head(w.receiver))) return false;
  } else {
    wire::HeadFields head = node.head();
    head.vc_class = 1;  // YX legs never share a VC with XY worms (docs/rtl.md, "VC classes to VCs")
    const std::uint32_t x0 = g.coord(node.self(), 0), y0 = g.coord(node.self(), 1);
    const std::uint32_t x1 = g.coord(w.receiver, 0), y1 = g.coord(w.receiver, 1);
    const std::uint32_t dy = y1 > y0 ? y1 - y0 : y0 - y1, dx = x1 > x0 ? x1 - x0 : x0 - x1;
    SourceRoute route(head, dx + dy, node.header, kMaxPackedHeaderFlits);
    if (!route.fits()) return false;
    for (std::uint32_t i = 0; i < dx + dy; ++i) {
      route.push({false, static_cast<std::uint8_t>(i < dy ? (y1 > y0 ? 2 : 3) : (x1 > x0 ? 0 : 1))});
    }
    flits = route.flits();
  }
  MessageInfo info;
  info.edn_rot = w.region.frame.rot;
  info.edn_tx = w.region.frame.tx;
  info.edn_ty = w.region.frame.ty;
  info.edn_level = w.region.level;
  info.edn_forward = w.forward;
  info.edn_forward_yx = w.forward_yx;
  return node.send(job, w.channel, flits, info, nullptr, 0);
}

// ---------------------------------------------------------------------------------------------
// Network partitioning (firmware/network_partitioning.hpp)

Status check_npd(const Grid& g, std::uint32_t, const MulticastRequest& r) {
  // A 2^k x 2^k mesh; up to three worms a step, each on its own channel (all-port, [3]'s NP-D).
  if (g.kind != GridKind::kMesh || npd_side(g.size, g.dims) == 0) return Status::kUnsupportedTopology;
  return r.ports < 4 ? Status::kBadPortCount : Status::kOk;
}

// The source holds every sub-message (the application's data) and starts with step 1.
Status start_npd(NodeContext&, Job& job, const MulticastRequest&) {
  job.state.npd = {};
  job.state.npd.held = (1u << kNpdParts) - 1u;
  job.state.npd.next_step = 1;
  return Status::kOk;
}

namespace {

// The np-d job this node already has for the message's multicast; nullptr when none.
Job* npd_job_of(NodeContext& node, const MessageInfo& info) {
  for (std::size_t i = 0; i < kMaxJobs; ++i) {
    Job& job = node.jobs[i];
    if (job.active && job.row->id == Algorithm::kNpD && job.origin == info.origin && job.multicast == info.multicast) {
      return &job;
    }
  }
  return nullptr;
}

// What a message of step `step` from `sender` may bring `self`: in steps 1 .. k its DDN's
// sub-message (in step 1 from the source), in step k + 1 its X neighbour's from it, in step k + 2
// its Y neighbour's two from it.
bool npd_expected(std::uint32_t n, std::uint32_t self, std::uint32_t sender, const MessageInfo& info) {
  const std::uint32_t k = npd_levels(n), step = info.step;
  const unsigned own = npd_ddn(self, n);
  if (step == 1 && sender != info.origin) return false;
  if (step >= 1 && step <= k) return info.npd_parts == 1 && info.npd_first_part == own;
  if (step == k + 1) {
    return sender == npd_x_partner(n, self).receiver && info.npd_parts == 1 && info.npd_first_part == (own ^ 1u);
  }
  if (step == k + 2) {
    return sender == npd_y_partner(n, self).receiver && info.npd_parts == 2 && info.npd_first_part == ((own ^ 2u) & 2u);
  }
  return false;
}

// The data words of sub-messages first .. first + parts - 1 of a message of `words` data words.
std::uint32_t npd_words_of(std::uint32_t words, unsigned first, unsigned parts) {
  std::uint32_t total = 0;
  for (unsigned i = first; i < first + parts; ++i) total += npd_part_words(words, i);
  return total;
}

}  // namespace

// A sub-message joins the node's job of its multicast, or starts one (its relay buffer holds the
// whole message, each sub-message at its place); the whole message is delivered when the last of
// the four is in.
Status receive_npd(NodeContext& node, const Received& m, Job* slot) {
  const Grid& g = node.grid();
  const MessageInfo& info = m.info;
  const std::uint32_t self = node.self(), n = npd_side(g.size, g.dims);
  const wire::Coords own{static_cast<std::uint8_t>(g.coord(self, 0)), static_cast<std::uint8_t>(g.coord(self, 1)), 0};
  const bool addressed = m.head.mode == wire::Mode::kDimensionOrder && m.head.dest == wire::pack_coord_dest(own);
  if (n == 0 || !addressed || info.address_entries != 0 || info.origin >= g.nodes() || info.origin == self ||
      info.npd_words > kMaxDataWords || info.npd_first_part + info.npd_parts > kNpdParts ||
      !npd_expected(n, self, m.head.src, info) ||
      npd_words_of(info.npd_words, info.npd_first_part, info.npd_parts) != info.data_words) {
    return Status::kBadMessage;
  }
  const auto parts = static_cast<std::uint8_t>(((1u << info.npd_parts) - 1u) << info.npd_first_part);
  Job* job = npd_job_of(node, info);
  if (job != nullptr && (job->words != info.npd_words || (job->state.npd.held & parts) != 0)) {
    return Status::kBadMessage;  // another length, or a sub-message it has already
  }
  if (job == nullptr) {
    if (slot == nullptr) return Status::kNoFreeJob;
    job = slot;
    job->ports = info.ports;
    job->all_port = info.all_port;
    job->multicast = info.multicast;
    job->origin = info.origin;
    job->data = node.relay_data[job->slot];
    job->words = info.npd_words;
    job->state.npd = {};
    job->active = true;
  }
  NpdJob& p = job->state.npd;
  std::uint64_t* whole = node.relay_data[job->slot];
  const std::uint32_t at = npd_part_offset(info.npd_words, info.npd_first_part);
  for (std::uint32_t i = 0; i < info.data_words; ++i) whole[at + i] = m.data[i];
  p.held = static_cast<std::uint8_t>(p.held | parts);
  if (info.step <= npd_levels(n)) p.next_step = info.step + 1u;  // its DDN's: its DDN steps follow
  if (p.held == (1u << kNpdParts) - 1u) {
    node.deliver(job->multicast, whole, job->words);
    p.delivered = true;
  }
  job->waiting = false;  // the pump lets it go on
  return Status::kOk;
}

// The sends of the job's next step that has any: the source's step 1, the DDN steps, the X
// exchange, the Y exchange (none to the source). Waits where the next step needs a sub-message not
// yet in, and after step k + 2 until the whole message is delivered.
std::uint32_t iterate_npd(NodeContext& node, Job& job) {
  NpdJob& p = job.state.npd;
  const std::uint32_t n = npd_side(node.grid().size, node.grid().dims), k = npd_levels(n), self = node.self();
  const unsigned own = npd_ddn(self, n);
  const bool source = job.origin == self;
  p.pending.clear();
  while (p.pending.empty()) {
    const std::uint32_t step = p.next_step;
    const bool needs_x_part = step == k + 2 && ((p.held >> (own ^ 1u)) & 1u) == 0;
    job.waiting = step == 0 || needs_x_part || (step > k + 2 && !source && !p.delivered);
    if (job.waiting || step > k + 2) return 0;
    NpdSend sends[3];
    if (step == 1) {
      std::uint8_t ddn[3];
      const unsigned count = npd_first_step(n, self, sends, ddn);
      for (unsigned i = 0; i < count; ++i) p.pending.push_back({sends[i].receiver, sends[i].channel, ddn[i], 1});
    } else if (step <= k) {
      const unsigned count = npd_ddn_step(n, self, step, sends);
      for (unsigned i = 0; i < count; ++i) {
        p.pending.push_back({sends[i].receiver, sends[i].channel, static_cast<std::uint8_t>(own), 1});
      }
    } else if (step == k + 1) {
      const NpdSend x = npd_x_partner(n, self);
      if (x.receiver != job.origin) p.pending.push_back({x.receiver, x.channel, static_cast<std::uint8_t>(own), 1});
    } else {  // its own and its X neighbour's, consecutive sub-messages
      const NpdSend y = npd_y_partner(n, self);
      if (y.receiver != job.origin) {
        p.pending.push_back({y.receiver, y.channel, static_cast<std::uint8_t>(own & 2u), 2});
      }
    }
    job.step = step;
    ++p.next_step;
  }
  return static_cast<std::uint32_t>(p.pending.size());
}

// A dimension-order unicast (class 0) of its sub-messages; word 2 names them and the whole length.
bool issue_npd(NodeContext& node, Job& job, std::uint32_t index) {
  const NpdWorm& w = job.state.npd.pending[index];
  if (!node.put_head(0, node.dimension_order_head(w.receiver))) return false;
  MessageInfo info;
  info.npd_words = static_cast<std::uint16_t>(job.words);
  info.npd_first_part = w.first_part;
  info.npd_parts = w.parts;
  return node.send_part(job, w.channel, 1, info, job.data + npd_part_offset(job.words, w.first_part),
                        npd_words_of(job.words, w.first_part, w.parts));
}

}  // namespace wormcast::fw
