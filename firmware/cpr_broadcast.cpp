// SPDX-License-Identifier: Apache-2.0
// PCP and 3-DBS ([3], Fig. 2; [4], Section 3.2); independent of model/ (docs/firmware.md, "HW/SW split").
#include "firmware/cpr_broadcast.hpp"

#include "firmware/job.hpp"
#include "firmware/replication_lock.hpp"

namespace wormcast::fw {
namespace {

// One injection channel per direction on a mesh of `dims` dimensions; a broadcast (the table's
// row says so).
Status check_lines(const Grid& g, const MulticastRequest& r, std::uint8_t dims) {
  if (g.kind != GridKind::kMesh || g.dims != dims) return Status::kUnsupportedTopology;
  return !r.all_port || r.ports != 2u * g.dims ? Status::kBadPortCount : Status::kOk;
}

// The head of a line worm: a cf = 11 worm (mode 3) to the line's end.
wire::HeadFields line_head(const NodeContext& node, const CprLine& line) {
  wire::HeadFields head = node.dimension_order_head(line.end);
  head.mode = wire::Mode::kCprLine;
  head.cf = wire::Cf::kDeliverPass;
  return head;
}

// A line worm's router delivered this copy (cf = 11 on the way, absorbed at the line's end).
Status receive_line_copy(const NodeContext& node, const Received& m) {
  if (m.info.address_entries != 0 || m.head.mode != wire::Mode::kCprLine || m.info.rd_dim >= node.grid().dims) {
    return Status::kBadMessage;
  }
  node.deliver(m);
  return Status::kOk;
}

}  // namespace

Status check_pcp(const Grid& g, std::uint32_t, const MulticastRequest& r) { return check_lines(g, r, 2); }
Status check_three_dbs(const Grid& g, std::uint32_t, const MulticastRequest& r) { return check_lines(g, r, 3); }

Status start_lines(NodeContext&, Job& job, const MulticastRequest&) {
  job.state.cpr = {};
  return Status::kOk;
}

// A copy that ends a head of a spine (the spine's end, a spawned branch's row end) is acknowledged
// to the replication lock's coordinator once taken in (firmware/replication_lock.hpp).
Status receive_pcp(NodeContext& node, const Received& m, Job*) {
  if (const Status s = receive_line_copy(node, m); s != Status::kOk) return s;
  if (!absorbs_replicated_head(node.grid(), node.self(), m.head, m.info)) return Status::kOk;
  return node.lock.absorbed(node, m.info.origin, m.info.multicast, m.info.algorithm);
}

// A node a line along dimension d reaches sends lines along every higher dimension.
Status receive_three_dbs(NodeContext& node, const Received& m, Job* slot) {
  const bool relays = m.info.rd_dim + 1u < node.grid().dims;
  if (relays && slot == nullptr) return Status::kNoFreeJob;
  if (const Status s = receive_line_copy(node, m); s != Status::kOk) return s;
  if (!relays) return Status::kOk;
  begin_relay(node, *slot, m);
  slot->all_port = false;
  slot->state.cpr = {};
  slot->state.cpr.first_dim = static_cast<std::uint8_t>(m.info.rd_dim + 1u);
  slot->active = true;
  return Status::kOk;
}

// One worm per open direction of every dimension from first_dim on, + before -, to the end of its
// line, on the injection channel of that direction, all in one step.
std::uint32_t iterate_lines(NodeContext& node, Job& job) {
  CprJob& c = job.state.cpr;
  c.pending.clear();
  if (c.sent) return 0;
  c.sent = true;
  const Grid& g = node.grid();
  const std::uint32_t self = node.self();
  for (unsigned d = c.first_dim; d < g.dims; ++d) {
    const std::uint32_t x = g.coord(self, d);
    const auto dim = static_cast<std::uint8_t>(d);
    if (x + 1 < g.size[d])
      c.pending.push_back({static_cast<std::uint8_t>(2 * d), g.with_coord(self, d, g.size[d] - 1u), dim});
    if (x > 0) c.pending.push_back({static_cast<std::uint8_t>(2 * d + 1), g.with_coord(self, d, 0), dim});
  }
  // Lines the routers replicate (PCP's spines) wait for the replication lock; the coordinator
  // expects one acknowledgement per head they end in.
  std::uint32_t heads = 0;
  for (const CprLine& line : c.pending) {
    const std::uint32_t h = replicated_heads(g, self, line_head(node, line));
    if (h > 0 && heads == 0) job.lock.channel = line.channel;
    heads += h;
  }
  if (heads > 0) {
    job.lock.heads = static_cast<std::uint16_t>(heads);
    job.lock.state = node.config.skip_replication_lock ? LockState::kGranted : LockState::kWanted;
  }
  return static_cast<std::uint32_t>(c.pending.size());
}

// A cf = 11 worm (mode 3) to the line's end; word 2 carries the line's dimension. A line the
// routers replicate waits for the lock (the job's lines are in dimension order, so the X lines
// have gone when the first Y line waits).
bool issue_line(NodeContext& node, Job& job, std::uint32_t index) {
  const CprLine& line = job.state.cpr.pending[index];
  const wire::HeadFields head = line_head(node, line);
  if (job.lock.state != LockState::kGranted && replicates_onto_network(node.grid(), node.self(), head)) return false;
  if (!node.put_head(0, head)) return false;
  MessageInfo info;
  info.rd_dim = line.dim;
  return node.send(job, line.channel, 1, info, nullptr, 0);
}

}  // namespace wormcast::fw
