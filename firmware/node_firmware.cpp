// The node firmware's state machine and the unicast-based algorithms, derived from
// ../shared/spec/algorithms.md (sections 1.8, 1.10, 1.11) and docs/algorithms.md ("Recursive
// Doubling"); independent of model/ (docs/firmware.md, "HW/SW split").
#include "firmware/node_firmware.hpp"

namespace wormcast::fw {
namespace {

constexpr std::uint32_t ceil_div(std::uint32_t a, std::uint32_t b) { return (a + b - 1) / b; }

// ceil(log2 n) for n >= 1.
constexpr std::uint32_t ceil_log2(std::uint32_t n) {
  std::uint32_t k = 0;
  while ((std::uint32_t{1} << k) < n) ++k;
  return k;
}

// Packs a source route (head mode 4) of `hops` >= 1 entries into header flits: entry_at(i), called
// once per i in order, is route node i's {deliver, port} (the sender's first); five entries per
// flit, the unused ones after the last hop end the route at its last node; more = flits - 1.
// Returns the flit count, 0 when the route needs more flits than `capacity` or `more` holds.
template <class EntryAt>
std::uint32_t pack_source_route(wire::HeadFields head, std::uint32_t hops, EntryAt entry_at, std::uint64_t* header,
                                std::uint32_t capacity) {
  const std::uint32_t groups = (hops + wire::kRouteEntries - 1) / wire::kRouteEntries;
  if (groups == 0 || groups > capacity || groups - 1 > wire::kMaxMore) return 0;
  head.mode = wire::Mode::kSourceRouted;
  head.more = static_cast<std::uint16_t>(groups - 1);
  std::uint32_t flits = 0, group = wire::kRouteAllUnused;
  for (std::uint32_t i = 0; i < hops; ++i) {
    group = wire::with_route_entry(group, i % wire::kRouteEntries, entry_at(i));
    if (i % wire::kRouteEntries == wire::kRouteEntries - 1 || i + 1 == hops) {
      head.dest = group;
      header[flits] = flits == 0 ? wire::pack_head(head) : wire::pack_addr_flit(head, group, flits);
      ++flits;
      group = wire::kRouteAllUnused;
    }
  }
  return flits;
}

}  // namespace

const char* to_string(Status status) {
  switch (status) {
    case Status::kOk:
      return "ok";
    case Status::kBadConfig:
      return "bad node configuration";
    case Status::kNotInitialized:
      return "firmware not initialized";
    case Status::kUnsupportedAlgorithm:
      return "algorithm not implemented by the firmware";
    case Status::kUnsupportedTopology:
      return "algorithm does not run on this topology";
    case Status::kBadPortCount:
      return "port count does not suit the algorithm or exceeds the node's channels";
    case Status::kBadDestinations:
      return "bad destination set";
    case Status::kTooManyDestinations:
      return "more destinations than the firmware's chain capacity";
    case Status::kTooMuchData:
      return "more data words than the firmware's capacity";
    case Status::kNoFreeJob:
      return "node already serves its maximum number of multicasts";
    case Status::kBadMessage:
      return "received payload does not decode or does not name this node";
    case Status::kNetworkTooLarge:
      return "network larger than the firmware's tree tables";
  }
  return "unknown status";
}

namespace {

// A star graph's configuration: S_4..S_6, and the labels form a Hamiltonian cycle of it (each label
// once, consecutive labels and the last and the first on neighbouring nodes).
bool star_cycle_valid(const Grid& g) {
  if (g.dims != 0 || g.star_order < kMinStarOrder || g.star_order > kMaxStarOrder || g.star_labels == nullptr) {
    return false;
  }
  const std::uint32_t n = g.nodes();
  std::uint16_t at[kMaxStarNodes] = {};  // node of each label, + 1 (0: not seen)
  for (std::uint32_t v = 0; v < n; ++v) {
    const std::uint32_t l = g.star_labels[v];
    if (l >= n || at[l] != 0) return false;
    at[l] = static_cast<std::uint16_t>(v + 1);
  }
  for (std::uint32_t l = 0; l < n; ++l) {
    const std::uint32_t u = at[l] - 1u, w = at[(l + 1) % n] - 1u;
    bool adjacent = false;
    for (unsigned p = 0; p < g.ports(); ++p) adjacent |= g.neighbour(u, p) == w;
    if (!adjacent) return false;
  }
  return true;
}

}  // namespace

Status NodeFirmware::init(const NodeConfig& config, NetworkInterface* ni) {
  const Grid& g = config.grid;
  if (ni == nullptr || ni->channels() == 0) return Status::kBadConfig;
  if (g.kind == GridKind::kStar) {
    if (!star_cycle_valid(g) || config.node >= g.nodes()) return Status::kBadConfig;
    config_ = config;
    ni_ = ni;
    return Status::kOk;
  }
  if (g.dims != 2 && g.dims != 3) return Status::kBadConfig;
  for (unsigned d = 0; d < 3; ++d) {
    if (g.size[d] == 0 || g.size[d] > wire::kMaxCoord + 1 || (d >= g.dims && g.size[d] != 1)) return Status::kBadConfig;
  }
  if (config.node >= g.nodes()) return Status::kBadConfig;
  config_ = config;
  ni_ = ni;
  return Status::kOk;
}

bool NodeFirmware::idle() const {
  for (const Job& job : jobs_) {
    if (job.active) return false;
  }
  return true;
}

NodeFirmware::Job* NodeFirmware::free_job() {
  for (Job& job : jobs_) {
    if (!job.active) return &job;
  }
  return nullptr;
}

// Insertion sort by Hamiltonian-path label: the labeling-ordered chain of spec 1.6.
void NodeFirmware::sort_chain(Job& job) const {
  for (std::size_t i = 1; i < job.chain.size(); ++i) {
    const std::uint32_t node = job.chain[i], key = config_.grid.label(node);
    std::size_t j = i;
    for (; j > 0 && config_.grid.label(job.chain[j - 1]) > key; --j) job.chain[j] = job.chain[j - 1];
    job.chain[j] = node;
  }
}

Status NodeFirmware::on_start_multicast(const MulticastRequest& r) {
  if (ni_ == nullptr) return Status::kNotInitialized;
  const Grid& g = config_.grid;
  const std::uint32_t self = config_.node;
  if (static_cast<unsigned>(r.algorithm) >= kAlgorithmCount) return Status::kUnsupportedAlgorithm;
  if (r.ports == 0 || r.ports > ni_->channels()) return Status::kBadPortCount;
  // On a star graph only the Hamiltonian-cycle algorithms run (seed 001).
  if (g.kind == GridKind::kStar && !on_cycle(r.algorithm)) return Status::kUnsupportedTopology;
  const bool even = r.ports % 2 == 0;
  switch (r.algorithm) {
    case Algorithm::kUnicast:
      if (r.ports != 1 && !even) return Status::kBadPortCount;
      break;
    case Algorithm::kOnePort:
      if (r.ports != 1) return Status::kBadPortCount;
      break;
    case Algorithm::kTwoPort:
      if (r.ports != 2) return Status::kBadPortCount;
      break;
    case Algorithm::kDPort:
      if (!even) return Status::kBadPortCount;
      break;
    case Algorithm::kRecursiveDoubling:
      if (g.kind != GridKind::kMesh) return Status::kUnsupportedTopology;
      break;
    case Algorithm::kVh:
    case Algorithm::kDiag:
    case Algorithm::kDds:
    case Algorithm::kMin:
      break;
    case Algorithm::kLin:
    case Algorithm::kDualPath:
      // All-port: a worm leaves on its first hop's channel, one per network direction.
      if (r.all_port && r.ports != 2u * g.dims) return Status::kBadPortCount;
      break;
    case Algorithm::kUniform:
    case Algorithm::kFixed:
      // The snake is a Hamiltonian cycle of a 2D torus with an even row count (spec 2.8); a star
      // graph's cycle comes with the configuration.
      if (g.kind != GridKind::kStar && (g.kind != GridKind::kTorus || g.dims != 2 || g.size[1] % 2 != 0)) {
        return Status::kUnsupportedTopology;
      }
      if (r.all_port && r.ports != g.ports()) return Status::kBadPortCount;
      break;
    case Algorithm::kPcp:
    case Algorithm::kThreeDbs:
      // One injection channel per direction; PCP is 2D, 3-DBS 3D; both broadcasts (spec 3.2, 4.3).
      if (g.kind != GridKind::kMesh || g.dims != (r.algorithm == Algorithm::kPcp ? 2 : 3)) {
        return Status::kUnsupportedTopology;
      }
      if (!r.all_port || r.ports != 2u * g.dims) return Status::kBadPortCount;
      break;
    case Algorithm::kXyPath:
    case Algorithm::kXyPathXFirst: {
      // From a corner of a 2D mesh (A-004-1), both worms at once.
      if (g.kind != GridKind::kMesh || g.dims != 2) return Status::kUnsupportedTopology;
      const std::uint32_t x = g.coord(self, 0), y = g.coord(self, 1);
      if ((x != 0 && x + 1u != g.size[0]) || (y != 0 && y + 1u != g.size[1])) return Status::kUnsupportedTopology;
      if (g.nodes() > kMaxGridNodes) return Status::kNetworkTooLarge;
      if (!r.all_port || r.ports != 4) return Status::kBadPortCount;
      break;
    }
    case Algorithm::kThreeDbl:
      if (g.dims != 3) return Status::kUnsupportedTopology;
      if (r.all_port && r.ports != 6) return Status::kBadPortCount;
      break;
    case Algorithm::kEdn:
      // A 2^k x 2^k mesh; each worm leaves on the channel of its first hop (all-port, spec 3.3).
      if (g.kind != GridKind::kMesh || edn_side(g.size, g.dims) == 0) return Status::kUnsupportedTopology;
      if (r.ports < 4) return Status::kBadPortCount;
      break;
    case Algorithm::kMultiPath:
      // Row worms are injected straight into the row channel: one injection channel per direction.
      if (g.dims != 2) return Status::kUnsupportedTopology;
      if (!r.all_port || r.ports != 4) return Status::kBadPortCount;
      break;
  }
  if (r.count == 0 || r.destinations == nullptr) return Status::kBadDestinations;
  if (r.count + 1 > kMaxChain) return Status::kTooManyDestinations;
  if (r.words > kMaxDataWords || (r.words > 0 && r.data == nullptr)) return Status::kTooMuchData;
  for (std::uint32_t i = 0; i < r.count; ++i) {
    if (r.destinations[i] >= g.nodes() || r.destinations[i] == self) return Status::kBadDestinations;
    for (std::uint32_t j = 0; j < i; ++j) {
      if (r.destinations[j] == r.destinations[i]) return Status::kBadDestinations;
    }
  }
  if ((r.algorithm == Algorithm::kRecursiveDoubling || r.algorithm == Algorithm::kEdn || cpr_lines(r.algorithm)) &&
      r.count + 1 != g.nodes()) {
    return Status::kBadDestinations;
  }
  Job* job = free_job();
  if (job == nullptr) return Status::kNoFreeJob;
  *job = Job{};
  job->algorithm = r.algorithm;
  job->ports = r.ports;
  job->all_port = r.all_port;
  job->multicast = r.multicast;
  job->origin = self;
  job->step = 1;
  for (std::uint32_t i = 0; i < r.words; ++i) job->data.push_back(r.data[i]);
  if (r.algorithm == Algorithm::kRecursiveDoubling) {
    job->dim = 0;
    job->lo = 0;
    job->hi = g.size[0];
  } else if (r.algorithm == Algorithm::kEdn) {
    const std::uint32_t n = edn_side(g.size, g.dims);
    job->edn_top_count = static_cast<std::uint8_t>(edn_first_two_steps(n, self, job->edn_top));
    job->edn_phase = 0;
    if (!edn_source_role(n, self, job->edn_region, job->edn_cover_step)) job->edn_region = {};
  } else if (carries_tree(r.algorithm)) {
    const TreeKind kind = r.algorithm == Algorithm::kVh     ? TreeKind::kVh
                          : r.algorithm == Algorithm::kDiag ? TreeKind::kDiag
                          : r.algorithm == Algorithm::kDds  ? TreeKind::kDds
                                                            : TreeKind::kMin;
    const TreeBuilder::Result built = tree_builder_.build(g, self, kind, r.destinations, r.count, job->chain);
    if (built == TreeBuilder::Result::kNetworkTooLarge) return Status::kNetworkTooLarge;
    if (built != TreeBuilder::Result::kOk) return Status::kTooManyDestinations;
    job->next = 1;  // entry 0 is the source itself
  } else if (xy_path(r.algorithm)) {
    if (const Status s = plan_xy_path(*job, r.destinations, r.count); s != Status::kOk) return s;
  } else if (path_based(r.algorithm)) {
    for (std::uint32_t i = 0; i < r.count; ++i) job->chain.push_back(r.destinations[i]);
    if (on_cycle(r.algorithm)) {
      split_cycle_dual_path(*job);
    } else if (r.algorithm == Algorithm::kThreeDbl) {
      if (const Status s = plan_three_dbl(*job, r.destinations, r.count); s != Status::kOk) return s;
    } else {
      split_dual_path(*job);
      if (r.algorithm == Algorithm::kMultiPath) split_multi_path(*job);
    }
  } else {
    job->chain.push_back(self);
    for (std::uint32_t i = 0; i < r.count; ++i) job->chain.push_back(r.destinations[i]);
    sort_chain(*job);
    for (std::uint32_t i = 0; i < job->chain.size(); ++i) {
      if (job->chain[i] == self) job->s = i;
    }
    job->m = static_cast<std::uint32_t>(job->chain.size()) - 1;
    job->lo = 0;
    job->hi = job->m;
  }
  job->active = true;
  if (!next_iteration(*job)) job->active = false;
  pump();
  return Status::kOk;
}

Status NodeFirmware::on_message_received(const wire::HeadFields& head, const std::uint64_t* payload,
                                         std::uint32_t words) {
  if (ni_ == nullptr) return Status::kNotInitialized;
  MessageInfo info;
  if (payload == nullptr || !decode_control(payload, words, info)) return Status::kBadMessage;
  if (info.address_entries > kMaxChain || info.data_words > kMaxDataWords) return Status::kBadMessage;
  const std::uint32_t self = config_.node;
  const std::uint64_t* data = payload + kControlWords + address_words(info.address_entries);
  if (info.algorithm == Algorithm::kRecursiveDoubling) ni_->deliver(info.multicast, data, info.data_words);
  if (xy_path(info.algorithm)) {
    // A source-routed copy: the route's deliver bit or its end named this node.
    if (info.address_entries != 0 || head.mode != wire::Mode::kSourceRouted) return Status::kBadMessage;
    ni_->deliver(info.multicast, data, info.data_words);
    return Status::kOk;
  }
  if (cpr_lines(info.algorithm)) {
    // A line worm's router delivered this copy (cf = 11 on the way, absorbed at the line's end).
    if (info.address_entries != 0 || head.mode != wire::Mode::kCprLine || info.rd_dim >= config_.grid.dims) {
      return Status::kBadMessage;
    }
    ni_->deliver(info.multicast, data, info.data_words);
    // 3-DBS: a node a line along dimension d reaches sends lines along every higher dimension.
    if (info.algorithm == Algorithm::kPcp || info.rd_dim + 1u >= config_.grid.dims) return Status::kOk;
  } else if (path_based(info.algorithm)) {
    // The router delivered this copy because the head names this node; the worm goes on by itself.
    const wire::Mode mode = on_cycle(info.algorithm) ? wire::Mode::kHamiltonianCycle : wire::Mode::kHamiltonianPath;
    if (head.mode != mode || head.dest != config_.grid.label(self)) return Status::kBadMessage;
    if (info.address_entries == 0) {
      ni_->deliver(info.multicast, data, info.data_words);
      return Status::kOk;
    }
    // A 3-DBL column worm: this node is a layer source; the address field holds the destinations
    // of the column's layers. Deliver if it is one of them, then run dual-path in its layer.
    if (info.algorithm != Algorithm::kThreeDbl) return Status::kBadMessage;
    Job* slot = free_job();
    if (slot == nullptr) return Status::kNoFreeJob;
    *slot = Job{};
    Job& job = *slot;
    const std::uint32_t z = config_.grid.coord(self, 2);
    bool destination = false;
    for (std::uint32_t i = 0; i < info.address_entries; ++i) {
      const std::uint32_t node = address_entry(payload, i);
      if (node >= config_.grid.nodes()) return Status::kBadMessage;
      if (node == self) {
        destination = true;
      } else if (config_.grid.coord(node, 2) == z) {
        job.chain.push_back(node);
      }
    }
    if (destination) ni_->deliver(info.multicast, data, info.data_words);
    if (job.chain.empty()) return Status::kOk;
    job.algorithm = info.algorithm;
    job.ports = info.ports;
    job.all_port = info.all_port;
    job.multicast = info.multicast;
    job.origin = info.origin;
    job.first_step = job.step = info.step + 1u;
    split_dual_path(job);
    for (std::uint32_t i = 0; i < info.data_words; ++i) job.data.push_back(data[i]);
    job.active = true;
    if (!next_iteration(job)) job.active = false;
    pump();
    return Status::kOk;
  }

  if (info.algorithm == Algorithm::kEdn) return receive_edn(head, info, data);

  // The sender's state for this node, built in place in a free job slot.
  Job* slot = free_job();
  std::uint32_t own_index = 0;
  if (cpr_lines(info.algorithm)) {
    // Checked and delivered above.
  } else if (carries_tree(info.algorithm)) {
    if (info.address_entries == 0 || tree_node(address_entry(payload, 0)) != self) return Status::kBadMessage;
    if (tree_destination(address_entry(payload, 0))) ni_->deliver(info.multicast, data, info.data_words);
    if (info.address_entries == 1) return Status::kOk;  // a leaf
  } else if (info.algorithm == Algorithm::kRecursiveDoubling) {
    if (info.rd_dim >= config_.grid.dims || info.rd_lo >= info.rd_hi) return Status::kBadMessage;
    const std::uint32_t own = config_.grid.coord(self, info.rd_dim);
    if (own < info.rd_lo || own >= info.rd_hi || info.address_entries != 0) return Status::kBadMessage;
  } else {
    bool found = false;
    for (std::uint32_t i = 0; i < info.address_entries; ++i) {
      const std::uint32_t node = address_entry(payload, i);
      if (node >= config_.grid.nodes()) return Status::kBadMessage;
      if (node == self) {
        own_index = i;
        found = true;
      }
    }
    // The receiver of a unicast-based message is a destination and in its address field.
    if (!found) return Status::kBadMessage;
    ni_->deliver(info.multicast, data, info.data_words);
    if (info.address_entries == 1) return Status::kOk;  // responsible for itself only
  }
  if (slot == nullptr) return Status::kNoFreeJob;
  *slot = Job{};
  Job& job = *slot;
  job.algorithm = info.algorithm;
  job.ports = info.ports;
  job.multicast = info.multicast;
  job.origin = info.origin;
  job.step = info.step + 1u;
  job.dim = cpr_lines(info.algorithm) ? static_cast<std::uint8_t>(info.rd_dim + 1u) : info.rd_dim;
  if (info.algorithm == Algorithm::kRecursiveDoubling) {
    job.lo = info.rd_lo;
    job.hi = info.rd_hi;
  } else if (carries_tree(info.algorithm)) {
    for (std::uint32_t i = 0; i < info.address_entries; ++i) {
      if (tree_node(address_entry(payload, i)) >= config_.grid.nodes()) return Status::kBadMessage;
      job.chain.push_back(address_entry(payload, i));
    }
    // The list must be exactly one subtree: its child counts account for every entry.
    if (tree_subtree_end(job.chain.begin(), job.chain.size(), 0) != job.chain.size()) return Status::kBadMessage;
    job.next = 1;
  } else {
    for (std::uint32_t i = 0; i < info.address_entries; ++i) job.chain.push_back(address_entry(payload, i));
    job.s = own_index;
    job.m = info.address_entries - 1u;
    job.lo = 0;
    job.hi = job.m;
  }
  for (std::uint32_t i = 0; i < info.data_words; ++i) job.data.push_back(data[i]);
  job.active = true;
  if (!next_iteration(job)) job.active = false;
  pump();
  return Status::kOk;
}

void NodeFirmware::on_channel_free() { pump(); }

// Issues every pending send the NI takes, moving each job on to its next step when its current
// step's sends are all queued.
void NodeFirmware::pump() {
  for (Job& job : jobs_) {
    while (job.active) {
      while (job.issued < job.pending.size() && issue(job, job.pending[job.issued])) ++job.issued;
      if (job.issued < job.pending.size()) break;  // a queue is full: on_channel_free resumes
      ++job.step;
      if (!next_iteration(job)) job.active = false;
    }
  }
}

// Fills job.pending with the sends of step job.step; false when the job has nothing left to send.
bool NodeFirmware::next_iteration(Job& job) {
  job.pending.clear();
  job.issued = 0;
  switch (job.algorithm) {
    case Algorithm::kUnicast:
      iterate_unicast(job);
      break;
    case Algorithm::kOnePort:
      iterate_one_port(job);
      break;
    case Algorithm::kTwoPort:
    case Algorithm::kDPort:
      iterate_d_port(job);
      break;
    case Algorithm::kRecursiveDoubling:
      return iterate_recursive_doubling(job);
    case Algorithm::kVh:
    case Algorithm::kDiag:
    case Algorithm::kDds:
    case Algorithm::kMin:
      iterate_carried_tree(job);
      break;
    case Algorithm::kLin:
    case Algorithm::kDualPath:
    case Algorithm::kMultiPath:
    case Algorithm::kUniform:
    case Algorithm::kFixed:
    case Algorithm::kThreeDbl:
    case Algorithm::kXyPath:
    case Algorithm::kXyPathXFirst:
      iterate_path(job);
      break;
    case Algorithm::kPcp:
    case Algorithm::kThreeDbs:
      iterate_lines(job);
      break;
    case Algorithm::kEdn:
      return iterate_edn(job);
  }
  return !job.pending.empty();
}

// Separate addressing: one port goes through the chain in order; d = 2p ports send to the p
// nearest unserved destinations below the source on the low ports and above it on the high ports.
void NodeFirmware::iterate_unicast(Job& job) {
  const std::uint32_t m = job.m, s = job.s;
  if (job.ports == 1) {
    std::uint32_t index = job.next + (job.next >= s ? 1 : 0);
    if (index > m) return;
    job.pending.push_back({0, index, index, 1, 0, 0});
    ++job.next;
    return;
  }
  const std::uint32_t p = job.ports / 2u, round = job.next;  // job.next counts steps here
  for (std::uint32_t j = 0; j < p; ++j) {
    const std::uint32_t k = round * p + j + 1;  // k-th nearest below
    if (k <= s) job.pending.push_back({static_cast<std::uint8_t>(j), s - k, s - k, 1, 0, 0});
  }
  for (std::uint32_t j = 0; j < p; ++j) {
    const std::uint32_t k = round * p + j + 1;
    if (s + k <= m) job.pending.push_back({static_cast<std::uint8_t>(p + j), s + k, s + k, 1, 0, 0});
  }
  ++job.next;
}

// Spec 1.11: the holder of block [lo, hi] hands the half it is not in to that half's element
// nearest it.
void NodeFirmware::iterate_one_port(Job& job) {
  if (job.lo >= job.hi) return;
  const std::uint32_t mid = (job.lo + job.hi) / 2;
  if (job.s <= mid) {
    job.pending.push_back({0, mid + 1, mid + 1, job.hi - mid, 0, 0});
    job.hi = mid;
  } else {
    job.pending.push_back({0, mid, job.lo, mid - job.lo + 1, 0, 0});
    job.lo = mid + 1;
  }
}

// Spec 1.8 (d = 2) and 1.10: keep chain[l .. u] of the window, cut the lower part into d/2 blocks
// sent on low ports j, the upper part into d/2 blocks sent on high ports d/2 + j, each to the
// block's centre nearest the sender.
void NodeFirmware::iterate_d_port(Job& job) {
  const std::uint32_t m = job.m, s = job.s, d = job.ports, h = d / 2;
  if (m == 0) return;
  const std::uint32_t l = ceil_div(d * s, d + 1);
  const std::uint32_t u = m - ceil_div(d * (m - s), d + 1);
  for (std::uint32_t j = 0; j < h; ++j) {
    const std::uint32_t a = j * l / h, b = (j + 1) * l / h;
    if (b > a) {
      job.pending.push_back({static_cast<std::uint8_t>(j), job.base + a + (b - a) / 2, job.base + a, b - a, 0, 0});
    }
  }
  const std::uint32_t upper = m - u;
  for (std::uint32_t j = 0; j < h; ++j) {
    const std::uint32_t a = u + 1 + j * upper / h, b = u + 1 + (j + 1) * upper / h;
    if (b > a) {
      job.pending.push_back(
          {static_cast<std::uint8_t>(h + j), job.base + a + ceil_div(b - a, 2) - 1, job.base + a, b - a, 0, 0});
    }
  }
  job.base += l;
  job.s = s - l;
  job.m = u - l;
}

// The first step of dimension `dim`'s phase, minus one: the phases before it take ceil(log2 size)
// steps each, everywhere at once.
std::uint32_t NodeFirmware::rd_base(std::uint8_t dim) const {
  std::uint32_t base = 0;
  for (unsigned d = 0; d < dim; ++d) base += ceil_log2(config_.grid.size[d]);
  return base;
}

// Recursive doubling: halve the own segment of the current line, lower half taking the odd node;
// send the other half to the node at the same relative position (clamped); at a segment of one
// node go on to the next dimension's whole line.
bool NodeFirmware::iterate_recursive_doubling(Job& job) {
  const Grid& g = config_.grid;
  while (job.hi - job.lo <= 1) {
    if (job.dim + 1u >= g.dims) return false;
    ++job.dim;
    job.lo = 0;
    job.hi = g.size[job.dim];
    job.step = rd_base(job.dim) + 1;
  }
  const std::uint32_t own = g.coord(config_.node, job.dim);
  const std::uint32_t mid = job.lo + ceil_div(job.hi - job.lo, 2);
  const bool in_lower = own < mid;
  const std::uint32_t own_lo = in_lower ? job.lo : mid, other_lo = in_lower ? mid : job.lo;
  const std::uint32_t other_hi = in_lower ? job.hi : mid;
  const std::uint32_t offset = own - own_lo, other_size = other_hi - other_lo;
  const std::uint32_t target = other_lo + (offset < other_size - 1 ? offset : other_size - 1);
  job.pending.push_back({0, g.with_coord(config_.node, job.dim, target), 0, 0, other_lo, other_hi});
  if (in_lower) {
    job.hi = mid;
  } else {
    job.lo = mid;
  }
  return true;
}

// A carried tree: the children follow their parent's entry in send order, each with its subtree;
// p children per step on channels 0..p-1: the i-th child in step t + 1 + floor(i/p) after receiving
// in step t (docs/algorithms.md, "Time rule").
void NodeFirmware::iterate_carried_tree(Job& job) {
  for (std::uint32_t c = 0; c < job.ports && job.next < job.chain.size(); ++c) {
    const std::size_t end = tree_subtree_end(job.chain.begin(), job.chain.size(), job.next);
    job.pending.push_back({static_cast<std::uint8_t>(c), tree_node(job.chain[job.next]), job.next,
                           static_cast<std::uint32_t>(end) - job.next, 0, 0});
    job.next = static_cast<std::uint32_t>(end);
  }
}

namespace {

// Reverses chain[a .. b).
template <class Chain>
void reverse_range(Chain& chain, std::uint32_t a, std::uint32_t b) {
  for (; a + 1 < b; ++a, --b) {
    const std::uint32_t t = chain[a];
    chain[a] = chain[b - 1];
    chain[b - 1] = t;
  }
}

}  // namespace

// Sorts the chain by label and rotates it to start after the source's label: the labels above
// the source's ascending, then those below ascending (spec 2.7's phi). Returns how many are below.
std::uint32_t NodeFirmware::sort_from_source(Job& job) const {
  sort_chain(job);
  const std::uint32_t own = config_.grid.label(config_.node), n = static_cast<std::uint32_t>(job.chain.size());
  std::uint32_t below = 0;
  while (below < n && config_.grid.label(job.chain[below]) < own) ++below;
  reverse_range(job.chain, 0, below);  // rotate left by `below`: three reversals
  reverse_range(job.chain, below, n);
  reverse_range(job.chain, 0, n);
  return below;
}

// Sets the job's two worms: chain[0 .. h) high, chain[h ..) low (possibly empty).
void NodeFirmware::set_high_low(Job& job, std::uint32_t h) {
  const std::uint32_t n = static_cast<std::uint32_t>(job.chain.size());
  job.worm_count = 0;
  if (h > 0) job.worms[job.worm_count++] = {0, h, true, kNoPrefixPort, 0, 0};
  if (n > h) job.worms[job.worm_count++] = {h, n - h, false, kNoPrefixPort, 0, 0};
}

// Lin-Ni dual-path lists (spec 4.1, 5.8): the destinations above the source's label ascending
// (high worm), then those below it descending (low worm).
void NodeFirmware::split_dual_path(Job& job) const {
  const std::uint32_t below = sort_from_source(job), n = static_cast<std::uint32_t>(job.chain.size());
  reverse_range(job.chain, n - below, n);
  set_high_low(job, n - below);
}

// Multi-path (spec 5.11, docs/algorithms.md "Multi-path"): each dual-path list split into a row
// part (destinations strictly on the row channel's side of the source: the row channel is +X in
// an even row's high network and -X in its low one, the other way round in an odd row) and a
// column part (the rest, the source's column included), each keeping its label order. Worms in
// sending order: high row, high column, low row, low column.
void NodeFirmware::split_multi_path(Job& job) const {
  const Grid& g = config_.grid;
  const std::uint32_t x0 = g.coord(config_.node, 0), y0 = g.coord(config_.node, 1);
  FixedVector<std::uint32_t, kMaxChain> parts;
  PathWorm worms[4]{};
  std::uint8_t count = 0;
  for (std::uint8_t w = 0; w < job.worm_count; ++w) {
    const PathWorm list = job.worms[w];
    const bool plus_x = list.high == (y0 % 2 == 0);
    const std::uint8_t row_port = plus_x ? 0 : 1;
    for (int kind = 0; kind < 2; ++kind) {  // row part, then column part
      const bool row = kind == 0;
      PathWorm part{static_cast<std::uint32_t>(parts.size()), 0, list.high, row ? row_port : kNoPrefixPort, 0, 0};
      for (std::uint32_t i = list.first; i < list.first + list.count; ++i) {
        const std::uint32_t x = g.coord(job.chain[i], 0);
        const bool beside = plus_x ? x > x0 : x < x0;
        if (beside != row) continue;
        parts.push_back(job.chain[i]);
        ++part.count;
      }
      if (part.count > 0) worms[count++] = part;
    }
  }
  job.chain.clear();
  for (const std::uint32_t node : parts) job.chain.push_back(node);
  job.worm_count = count;
  for (std::uint8_t w = 0; w < count; ++w) job.worms[w] = worms[w];
}

// The network port of the Hamiltonian-path routing function's first hop toward `destination`
// (spec 5.8): the neighbour with the largest label in (own, label(destination)] (high network) or
// the smallest in [label(destination), own) (low). Torus wraps are unused.
std::uint8_t NodeFirmware::first_hop_port(std::uint32_t destination, bool high) const {
  const Grid& g = config_.grid;
  const std::uint32_t self = config_.node, own = g.label(self), target = g.label(destination);
  std::uint8_t best_port = 0;
  bool found = false;
  std::uint32_t best = 0;
  for (unsigned d = 0; d < g.dims; ++d) {
    const std::uint32_t c = g.coord(self, d);
    for (unsigned minus = 0; minus < 2; ++minus) {
      if (minus == 0 ? c + 1 >= g.size[d] : c == 0) continue;
      const std::uint32_t l = g.label(g.with_coord(self, d, minus == 0 ? c + 1 : c - 1));
      const bool on_path = high ? (own < l && l <= target) : (target <= l && l < own);
      if (!on_path || (found && (high ? l <= best : l >= best))) continue;
      found = true;
      best = l;
      best_port = static_cast<std::uint8_t>(2 * d + minus);
    }
  }
  return best_port;  // a label neighbour always qualifies, so `found` holds for any destination
}

// 3-DBL (spec 4.2, reading R1 of A-003-1): the layer source of layer z is (x0, y0, z). Worms in
// sending order: the +Z column worm through the layer sources above that are needed (a layer with
// a destination, the layer source included), ascending (high network), the -Z column worm
// likewise below, descending (low), then dual-path in the own layer. A column worm carries its
// layers' destinations in the payload; layer sources that are not destinations only relay.
Status NodeFirmware::plan_three_dbl(Job& job, const std::uint32_t* destinations, std::uint32_t count) const {
  const Grid& g = config_.grid;
  const std::uint32_t self = config_.node, z0 = g.coord(self, 2);
  job.chain.clear();
  for (std::uint32_t i = 0; i < count; ++i) {
    if (g.coord(destinations[i], 2) == z0) job.chain.push_back(destinations[i]);
  }
  split_dual_path(job);
  PathWorm layer[2]{};
  const std::uint8_t layer_worms = job.worm_count;
  for (std::uint8_t i = 0; i < layer_worms; ++i) layer[i] = job.worms[i];
  const auto needed = [&](std::uint32_t z) {
    for (std::uint32_t i = 0; i < count; ++i) {
      if (g.coord(destinations[i], 2) == z) return true;
    }
    return false;
  };
  job.worm_count = 0;
  for (int up = 1; up >= 0; --up) {
    PathWorm column{static_cast<std::uint32_t>(job.chain.size()), 0, up == 1, kNoPrefixPort, 0, 0};
    for (std::uint32_t i = 1; up == 1 ? z0 + i < g.size[2] : i <= z0; ++i) {
      const std::uint32_t z = up == 1 ? z0 + i : z0 - i;
      if (!needed(z)) continue;
      if (!job.chain.push_back(g.with_coord(self, 2, z))) return Status::kTooManyDestinations;
      ++column.count;
    }
    column.addr_first = static_cast<std::uint32_t>(job.chain.size());
    for (std::uint32_t i = 0; i < count; ++i) {
      const std::uint32_t z = g.coord(destinations[i], 2);
      if (up == 1 ? z <= z0 : z >= z0) continue;
      if (!job.chain.push_back(destinations[i])) return Status::kTooManyDestinations;
      ++column.addr_count;
    }
    if (column.count > 0) job.worms[job.worm_count++] = column;
  }
  for (std::uint8_t i = 0; i < layer_worms; ++i) job.worms[job.worm_count++] = layer[i];
  return Status::kOk;
}

// XY-path (spec 5.9). Partition (Algorithm 3.3.1) built from the source's corner inward (other
// corners by reflection): X runs along rows, Y along columns; the paths take turns, the one to
// move goes straight while the next cell is free, U-turns into the next row (column) otherwise,
// and is done when the U-turn cell is taken or outside; a path at the far boundary at the end of
// its row (column) hands the turn over when it is strictly longer and the other is not done.
// Routing (Algorithm 3.3.2): per path, the destinations on it by label, each hop to the
// neighbour on the same path with the largest label in (L(u), L(next destination)].
// Job layout: per path worm, chain[first ..) = its destinations in visiting order and
// chain[addr_first ..) = its route's nodes after the source (the routed hops); row_port = first hop.
Status NodeFirmware::plan_xy_path(Job& job, const std::uint32_t* destinations, std::uint32_t count) {
  const Grid& g = config_.grid;
  const std::uint32_t self = config_.node, sx = g.size[0], sy = g.size[1];
  const bool flip_x = g.coord(self, 0) != 0, flip_y = g.coord(self, 1) != 0;
  // Reflected coordinates: the source at (0, 0).
  const auto node_at = [&](std::uint32_t x, std::uint32_t y) {
    return (flip_x ? sx - 1 - x : x) + sx * (flip_y ? sy - 1 - y : y);
  };
  for (std::uint32_t n = 0; n < g.nodes(); ++n) xy_path_[n] = 0;
  xy_path_[self] = 3;  // on both
  xy_label_[self] = 0;
  std::uint32_t length[2] = {0, 0};
  std::uint32_t last[2][2] = {{0, 0}, {0, 0}};  // reflected (x, y) of each path's end
  int dir[2] = {1, 1};
  bool done[2] = {false, false};
  int turn = job.algorithm == Algorithm::kXyPathXFirst ? 0 : 1;  // 0: X (rows), 1: Y (columns)
  while (!done[0] || !done[1]) {
    if (done[turn]) {
      turn = 1 - turn;
      continue;
    }
    const unsigned along = turn == 0 ? 0 : 1, across = 1 - along;  // the path's travel coordinate
    const std::uint32_t size_along = along == 0 ? sx : sy, size_across = across == 0 ? sx : sy;
    std::uint32_t* v = last[turn];
    if (v[along] + 1 == size_along && dir[turn] == 1 && length[turn] > length[1 - turn] && !done[1 - turn]) {
      turn = 1 - turn;
      continue;
    }
    std::uint32_t next[2] = {v[0], v[1]};
    const bool straight_ok = dir[turn] == 1 ? v[along] + 1 < size_along : v[along] > 0;
    bool moved = false;
    if (straight_ok) {
      next[along] = dir[turn] == 1 ? v[along] + 1 : v[along] - 1;
      moved = xy_path_[node_at(next[0], next[1])] == 0;
    }
    if (!moved && v[across] + 1 < size_across) {
      next[along] = v[along];
      next[across] = v[across] + 1;
      moved = xy_path_[node_at(next[0], next[1])] == 0;
      if (moved) dir[turn] = -dir[turn];
    }
    if (!moved) {
      done[turn] = true;
      turn = 1 - turn;
      continue;
    }
    ++length[turn];
    const std::uint32_t n = node_at(next[0], next[1]);
    xy_path_[n] = static_cast<std::uint8_t>(turn + 1);
    xy_label_[n] = static_cast<std::uint16_t>(length[turn]);
    v[0] = next[0];
    v[1] = next[1];
  }
  for (std::uint32_t i = 0; i < count; ++i) {
    if (xy_path_[destinations[i]] != 1 && xy_path_[destinations[i]] != 2) return Status::kBadDestinations;
  }
  // Per path: destinations by label (insertion sort), then the route through them.
  job.chain.clear();
  job.worm_count = 0;
  for (std::uint8_t p = 1; p <= 2; ++p) {
    PathWorm w{static_cast<std::uint32_t>(job.chain.size()), 0, false, kNoPrefixPort, 0, 0};
    for (std::uint32_t i = 0; i < count; ++i) {
      if (xy_path_[destinations[i]] != p) continue;
      if (!job.chain.push_back(destinations[i])) return Status::kTooManyDestinations;
      std::uint32_t j = w.first + w.count++;
      for (; j > w.first && xy_label_[job.chain[j - 1]] > xy_label_[destinations[i]]; --j) {
        job.chain[j] = job.chain[j - 1];
      }
      job.chain[j] = destinations[i];
    }
    if (w.count == 0) continue;
    w.addr_first = static_cast<std::uint32_t>(job.chain.size());
    std::uint32_t u = self, label = 0;
    for (std::uint32_t k = w.first; k < w.first + w.count; ++k) {
      const std::uint32_t target = xy_label_[job.chain[k]];
      while (label < target) {
        std::uint32_t best = u, best_label = label;
        for (unsigned d = 0; d < 2; ++d) {
          const std::uint32_t c = g.coord(u, d);
          for (unsigned minus = 0; minus < 2; ++minus) {
            if (minus == 0 ? c + 1 >= g.size[d] : c == 0) continue;
            const std::uint32_t nb = g.with_coord(u, d, minus == 0 ? c + 1 : c - 1);
            const std::uint32_t l = xy_label_[nb];
            if (xy_path_[nb] != p || l <= label || l > target || l <= best_label) continue;
            best = nb;
            best_label = l;
            if (u == self) w.row_port = static_cast<std::uint8_t>(2 * d + minus);
          }
        }
        if (best == u || !job.chain.push_back(best)) return Status::kTooManyDestinations;
        ++w.addr_count;
        u = best;
        label = best_label;
      }
    }
    job.worms[job.worm_count++] = w;
  }
  return Status::kOk;
}

// Queues an XY-path worm: a source route (mode 4) of {deliver, port} entries, five per header
// flit; entry i is taken by route node i (the source first, never delivering), the unused
// entries after the last hop end the route at the last destination.
bool NodeFirmware::issue_source_routed(Job& job, const Send& send) {
  const Grid& g = config_.grid;
  std::uint32_t u = config_.node, next_destination = send.first;
  wire::HeadFields head;
  head.src = config_.node;
  head.tag = static_cast<std::uint8_t>(sequence_ & 0xF);
  const auto entry_at = [&](std::uint32_t i) {
    const std::uint32_t w = job.chain[send.addr_first + i];
    const bool deliver = i > 0 && next_destination < send.first + send.count && job.chain[next_destination] == u;
    if (deliver) ++next_destination;
    std::uint8_t port = 0;
    for (unsigned d = 0; d < 2; ++d) {
      if (g.coord(w, d) == g.coord(u, d) + 1) port = static_cast<std::uint8_t>(2 * d);
      if (g.coord(w, d) + 1 == g.coord(u, d)) port = static_cast<std::uint8_t>(2 * d + 1);
    }
    u = w;
    return wire::RouteEntry{deliver, port};
  };
  const std::uint32_t flits = pack_source_route(head, send.addr_count, entry_at, header_, kMaxChain + 1);
  if (flits == 0) return false;
  MessageInfo info = job_info(job);
  encode_control(info, message_);
  for (std::size_t i = 0; i < job.data.size(); ++i) message_[kControlWords + i] = job.data[i];
  if (!ni_->send(send.channel, header_, flits, message_, message_words(info))) return false;
  sequence_ = (sequence_ + 1) & 0xFFFFF;
  return true;
}

// Seed 001's message preparation (spec 2.7): phi = the destinations by label, rotated to start
// after the source's; uniform: D^h = the first ceil(n/2) of phi; fixed (c = ceil(N/2)): D^h = phi's
// labels in (s, s+c) when s < c, else all but D^l = phi's labels in (s-c, s); D^l = the rest of phi
// reversed. Both are a prefix of phi and the reversed suffix.
void NodeFirmware::split_cycle_dual_path(Job& job) const {
  sort_from_source(job);  // chain = phi
  const Grid& g = config_.grid;
  const std::uint32_t n = static_cast<std::uint32_t>(job.chain.size()), own = g.label(config_.node);
  const std::uint32_t c = (g.nodes() + 1) / 2;
  std::uint32_t h = 0;
  if (job.algorithm == Algorithm::kUniform) {
    h = (n + 1) / 2;
  } else if (own < c) {
    while (h < n && g.label(job.chain[h]) > own && g.label(job.chain[h]) < own + c) ++h;
  } else {
    std::uint32_t low = 0;
    while (low < n && g.label(job.chain[n - 1 - low]) < own && g.label(job.chain[n - 1 - low]) + c > own) ++low;
    h = n - low;
  }
  reverse_range(job.chain, h, n);
  set_high_low(job, h);
}

// The first hop of the Hamiltonian-cycle routing function from the source (spec 2.6, classes ph /
// pl): the high network holds the common channels toward larger labels and the boundary channels
// (label difference > ceil(N/2)) toward smaller ones; high: the neighbour in it with the largest
// label <= label(v), else the largest (case 3); low mirrored; ties to the lowest port. Torus wraps
// count; on a star graph every generator's port.
std::uint8_t NodeFirmware::cycle_first_hop_port(std::uint32_t destination, bool high) const {
  const Grid& g = config_.grid;
  const std::uint32_t self = config_.node, own = g.label(self), target = g.label(destination);
  const std::uint32_t c = (g.nodes() + 1) / 2;
  // best[0]: among those on the destination's side of the target, best[1]: among all.
  bool found[2] = {false, false};
  std::uint32_t best[2] = {0, 0};
  std::uint8_t port[2] = {0, 0};
  for (unsigned p = 0; p < g.ports(); ++p) {
    const std::uint32_t l = g.label(g.neighbour(self, p));
    const bool boundary = (l > own ? l - own : own - l) > c;
    if ((boundary ? l < own : l > own) != high) continue;  // not in this network
    for (unsigned k = 0; k < 2; ++k) {
      if (k == 0 && (high ? l > target : l < target)) continue;
      if (found[k] && (high ? l <= best[k] : l >= best[k])) continue;
      found[k] = true;
      best[k] = l;
      port[k] = static_cast<std::uint8_t>(p);
    }
  }
  return found[0] ? port[0] : port[1];
}

// CPR lines (spec 3.2, 4.3): one cf = 11 worm per open direction of every dimension from job.dim
// on, + before -, to the end of its line, on the injection channel of that direction, all in one
// step. PCP's source sends X and Y lines and the routers of its column spawn the rows; 3-DBS's
// receivers continue with the dimensions after their line's.
void NodeFirmware::iterate_lines(Job& job) {
  if (job.next != 0) return;
  job.next = 1;
  const Grid& g = config_.grid;
  const std::uint32_t self = config_.node;
  for (unsigned d = job.dim; d < g.dims; ++d) {
    const std::uint32_t x = g.coord(self, d);
    if (x + 1 < g.size[d])
      job.pending.push_back({static_cast<std::uint8_t>(2 * d), g.with_coord(self, d, g.size[d] - 1u), 0, 0, d, 0});
    if (x > 0) job.pending.push_back({static_cast<std::uint8_t>(2 * d + 1), g.with_coord(self, d, 0), 0, 0, d, 0});
  }
}

// Path-based worms in sending order, high then low (docs/algorithms.md, "Port models"): all-port
// sends both in step 1 on their first hop's channel; even d binds channels 0..d/2-1 to the low
// network and d/2..d-1 to the high one (one worm each, step 1); odd d takes channels in turn, the
// k-th worm in step 1 + k / d.
//
// A multi-path row worm leaves on its row channel; when the routing function's first hop is
// another port, a source-routed prefix head takes the worm there (issue()).
void NodeFirmware::iterate_path(Job& job) {
  const std::uint32_t d = job.ports, h = d / 2;
  const bool bound = !job.all_port && d % 2 == 0;
  std::uint32_t in_network[2] = {0, 0};  // worms so far in the low / high network
  for (std::uint32_t k = 0; k < job.worm_count; ++k) {
    const PathWorm& w = job.worms[k];
    const std::uint32_t kn = in_network[w.high ? 1 : 0]++;
    const std::uint32_t step = job.first_step + (job.all_port ? 0 : bound ? kn / h : k / d);
    if (step != job.step) continue;
    const std::uint8_t routed = xy_path(job.algorithm)    ? w.row_port
                                : on_cycle(job.algorithm) ? cycle_first_hop_port(job.chain[w.first], w.high)
                                                          : first_hop_port(job.chain[w.first], w.high);
    const std::uint8_t channel = w.row_port != kNoPrefixPort ? w.row_port
                                 : job.all_port              ? routed
                                 : bound                     ? static_cast<std::uint8_t>((w.high ? h : 0) + kn % h)
                                                             : static_cast<std::uint8_t>(k % d);
    Send send{channel, w.first, w.first, w.count, 0, 0};
    send.high = w.high;
    send.addr_first = w.addr_first;
    send.addr_count = w.addr_count;
    if (w.row_port != kNoPrefixPort && w.row_port != routed) send.prefix_port = w.row_port;
    send.addr_first = xy_path(job.algorithm) ? w.addr_first : send.addr_first;  // XY: the route's nodes
    job.pending.push_back(send);
  }
}

// Queues one send on its channel: head flit per the algorithm's routing mode, payload = control
// words, address field, data. False when the channel's queue is full.
MessageInfo NodeFirmware::job_info(const Job& job) const {
  MessageInfo info;
  info.multicast = job.multicast;
  info.data_words = static_cast<std::uint16_t>(job.data.size());
  info.step = static_cast<std::uint8_t>(job.step);
  info.algorithm = job.algorithm;
  info.ports = job.ports;
  info.all_port = job.all_port;
  info.origin = job.origin;
  info.sequence = sequence_;
  return info;
}

bool NodeFirmware::issue(Job& job, const Send& send) {
  if (!ni_->can_send(send.channel)) return false;
  if (xy_path(job.algorithm)) return issue_source_routed(job, send);
  if (job.algorithm == Algorithm::kEdn) return issue_edn(job, send);
  const Grid& g = config_.grid;
  const std::uint32_t self = config_.node;
  const bool by_coords =
      job.algorithm == Algorithm::kRecursiveDoubling || carries_tree(job.algorithm) || cpr_lines(job.algorithm);
  const std::uint32_t receiver = by_coords ? send.receiver : job.chain[send.receiver];
  wire::HeadFields head;
  if (on_cycle(job.algorithm)) {
    // Seed 001: the class is the VC type at injection, ph (0) high, pl (2) low; the router keeps
    // it until the boundary crossing turns it to q.
    head.mode = wire::Mode::kHamiltonianCycle;
    head.network = send.high ? wire::kNetworkHigh : wire::kNetworkLow;
    head.vc_class = send.high ? 0 : 2;
    head.dest = g.label(receiver);
  } else if (by_coords) {
    head.mode = cpr_lines(job.algorithm) ? wire::Mode::kCprLine : wire::Mode::kDimensionOrder;
    if (cpr_lines(job.algorithm)) head.cf = wire::Cf::kDeliverPass;
    head.dest = wire::pack_coord_dest({static_cast<std::uint8_t>(g.coord(receiver, 0)),
                                       static_cast<std::uint8_t>(g.coord(receiver, 1)),
                                       static_cast<std::uint8_t>(g.coord(receiver, 2))});
  } else {
    head.mode = wire::Mode::kHamiltonianPath;
    head.network = g.label(receiver) > g.label(self) ? wire::kNetworkHigh : wire::kNetworkLow;
    head.dest = g.label(receiver);
  }
  head.src = self;
  head.tag = static_cast<std::uint8_t>(sequence_ & 0xF);
  const bool path = path_based(job.algorithm);
  std::uint32_t flits = 0;
  if (path) {
    // A multidestination worm: the head names the first destination, the address flits the rest
    // (the head's layout, `more` counting down). A prefix head, source-routed over the one hop
    // the routing function would not take, goes in front; the sender's router drops it.
    if (send.count > wire::kMaxMore) return false;
    head.more = static_cast<std::uint16_t>(send.count - 1);
    if (send.prefix_port != kNoPrefixPort) {
      wire::HeadFields prefix = head;
      prefix.mode = wire::Mode::kSourceRouted;
      prefix.network = 0;
      prefix.more = static_cast<std::uint16_t>(head.more + 1);
      prefix.dest = wire::with_route_entry(wire::kRouteAllUnused, 0, {false, send.prefix_port});
      if (!wire::fits(prefix)) return false;
      header_[flits++] = wire::pack_head(prefix);
    }
  }
  if (!wire::fits(head)) return false;
  header_[flits++] = wire::pack_head(head);
  for (std::uint32_t i = 1; path && i < send.count; ++i) {
    header_[flits++] = wire::pack_addr_flit(head, g.label(job.chain[send.first + i]), i);
  }
  MessageInfo info = job_info(job);
  info.address_entries = static_cast<std::uint16_t>(path ? send.addr_count : send.count);
  const std::uint32_t addr_first = path ? send.addr_first : send.first;
  // A CPR line carries its dimension in the rd field (Send::rd_lo).
  info.rd_dim = cpr_lines(job.algorithm) ? static_cast<std::uint8_t>(send.rd_lo) : job.dim;
  info.rd_lo = cpr_lines(job.algorithm) ? 0 : send.rd_lo;
  info.rd_hi = send.rd_hi;
  encode_control(info, message_);
  std::uint64_t* address = message_ + kControlWords;
  for (std::uint32_t i = 0; i < address_words(info.address_entries); ++i) address[i] = 0;
  for (std::uint32_t i = 0; i < info.address_entries; ++i) {
    address[i / 2] |= std::uint64_t{job.chain[addr_first + i]} << (32 * (i % 2));
  }
  std::uint64_t* data = address + address_words(info.address_entries);
  for (std::size_t i = 0; i < job.data.size(); ++i) data[i] = job.data[i];
  if (!ni_->send(send.channel, header_, flits, message_, message_words(info))) return false;
  sequence_ = (sequence_ + 1) & 0xFFFFF;
  return true;
}

}  // namespace wormcast::fw

namespace wormcast::fw {

// ---------------------------------------------------------------------------------------------
// Extended Dominating Node (docs/algorithms.md, "EDN step by step"; firmware/edn_broadcast.hpp)

// An edn message: XY worms arrive by dimension order addressed to this node, YX worms by their
// source route's end; the payload names the region this node covers and its step-2 forwards.
Status NodeFirmware::receive_edn(const wire::HeadFields& head, const MessageInfo& info, const std::uint64_t* data) {
  const Grid& g = config_.grid;
  const std::uint32_t self = config_.node, n = edn_side(g.size, g.dims);
  const wire::Coords own{static_cast<std::uint8_t>(g.coord(self, 0)), static_cast<std::uint8_t>(g.coord(self, 1)), 0};
  const bool addressed = head.mode == wire::Mode::kSourceRouted ||
                         (head.mode == wire::Mode::kDimensionOrder && head.dest == wire::pack_coord_dest(own));
  const EdnRegion region{{info.edn_rot, info.edn_tx, info.edn_ty}, info.edn_level};
  if (n == 0 || !addressed || info.address_entries != 0 || info.edn_tx >= n || info.edn_ty >= n ||
      (1u << info.edn_level) > n || edn_holder(region, n) != self || (info.edn_forward != 0 && info.step != 1)) {
    return Status::kBadMessage;
  }
  ni_->deliver(info.multicast, data, info.data_words);
  if (region.level == kEdnLeaf && info.edn_forward == 0) return Status::kOk;
  Job* slot = free_job();
  if (slot == nullptr) return Status::kNoFreeJob;
  *slot = Job{};
  Job& job = *slot;
  job.algorithm = info.algorithm;
  job.ports = info.ports;
  job.all_port = info.all_port;
  job.multicast = info.multicast;
  job.origin = info.origin;
  job.edn_phase = 1;  // a top EDN reached in step 1 forwards in step 2, then every holder covers
  job.edn_forward = info.edn_forward;
  job.edn_forward_yx = info.edn_forward_yx;
  job.edn_region = region;
  job.edn_cover_step = info.step + 1u < 3 ? 3 : info.step + 1u;
  for (std::uint32_t i = 0; i < info.data_words; ++i) job.data.push_back(data[i]);
  job.active = true;
  if (!next_iteration(job)) job.active = false;
  pump();
  return Status::kOk;
}

// The source's step-`step` sends of steps 1-2 to the top EDNs, each carrying the forwards of the
// targets it is the via of.
void NodeFirmware::push_edn_top_sends(Job& job, std::uint8_t step) {
  const std::uint32_t n = edn_side(config_.grid.size, config_.grid.dims);
  for (std::uint8_t i = 0; i < job.edn_top_count; ++i) {
    const EdnTopSend& t = job.edn_top[i];
    if (t.step != step || t.via != kEdnFromSource) continue;
    Send send{};
    send.edn_region = edn_top_region(n, t.quadrant);
    send.receiver = edn_holder(send.edn_region, n);
    send.yx = t.yx;
    for (std::uint8_t j = 0; j < job.edn_top_count; ++j) {
      if (job.edn_top[j].via != t.quadrant) continue;
      send.edn_forward = static_cast<std::uint8_t>(send.edn_forward | 1u << job.edn_top[j].quadrant);
      if (job.edn_top[j].yx)
        send.edn_forward_yx = static_cast<std::uint8_t>(send.edn_forward_yx | 1u << job.edn_top[j].quadrant);
    }
    send.channel = edn_first_port(n, config_.node, send.receiver, send.yx);
    job.pending.push_back(send);
  }
}

// Fills the sends of the job's next step that has any: the source's steps 1 and 2 (phase 0, 1),
// a top EDN's step-2 forwards (phase 1), then one level of the region per step (phase 2).
bool NodeFirmware::iterate_edn(Job& job) {
  const std::uint32_t n = edn_side(config_.grid.size, config_.grid.dims), self = config_.node;
  const bool source = job.origin == self;
  while (job.pending.empty()) {
    if (job.edn_phase == 0) {
      job.step = 1;
      push_edn_top_sends(job, 1);
    } else if (job.edn_phase == 1) {
      job.step = 2;
      if (source) push_edn_top_sends(job, 2);
      for (unsigned q = 0; q < 4; ++q) {
        if (source || ((job.edn_forward >> q) & 1u) == 0) continue;
        Send send{};
        send.edn_region = edn_top_region(n, q);
        send.receiver = edn_holder(send.edn_region, n);
        send.yx = ((job.edn_forward_yx >> q) & 1u) != 0;
        send.channel = edn_first_port(n, self, send.receiver, send.yx);
        job.pending.push_back(send);
      }
    } else {
      if (job.edn_region.level == kEdnLeaf) return false;
      job.step = job.edn_cover_step++;
      EdnSend sends[3];
      EdnRegion next;
      const unsigned count = edn_level_sends(job.edn_region, n, job.origin, sends, next);
      job.edn_region = next;
      for (unsigned i = 0; i < count; ++i) {
        Send send{};
        send.receiver = sends[i].receiver;
        send.edn_region = sends[i].region;
        send.yx = sends[i].yx;
        send.channel = edn_first_port(n, self, send.receiver, send.yx);
        job.pending.push_back(send);
      }
    }
    if (job.edn_phase < 2) ++job.edn_phase;
  }
  return true;
}

// Queues one edn worm on its first hop's channel: XY as a dimension-order unicast (class 0), YX
// as a source route (Y leg, then X leg; class 1, five entries per header flit, ended at the
// receiver); the payload carries the receiver's region and forwards, no address field.
bool NodeFirmware::issue_edn(Job& job, const Send& send) {
  const Grid& g = config_.grid;
  const std::uint32_t self = config_.node;
  wire::HeadFields head;
  head.src = self;
  head.tag = static_cast<std::uint8_t>(sequence_ & 0xF);
  std::uint32_t flits = 0;
  if (!send.yx) {
    head.mode = wire::Mode::kDimensionOrder;
    head.dest = wire::pack_coord_dest({static_cast<std::uint8_t>(g.coord(send.receiver, 0)),
                                       static_cast<std::uint8_t>(g.coord(send.receiver, 1)), 0});
    header_[flits++] = wire::pack_head(head);
  } else {
    head.vc_class = 1;  // YX legs never share a VC with XY worms (docs/rtl.md, "VC classes to VCs")
    const std::uint32_t x0 = g.coord(self, 0), y0 = g.coord(self, 1);
    const std::uint32_t x1 = g.coord(send.receiver, 0), y1 = g.coord(send.receiver, 1);
    const std::uint32_t dy = y1 > y0 ? y1 - y0 : y0 - y1, dx = x1 > x0 ? x1 - x0 : x0 - x1;
    const auto entry_at = [&](std::uint32_t i) {
      return wire::RouteEntry{false, static_cast<std::uint8_t>(i < dy ? (y1 > y0 ? 2 : 3) : (x1 > x0 ? 0 : 1))};
    };
    flits = pack_source_route(head, dx + dy, entry_at, header_, kMaxChain + 1);
    if (flits == 0) return false;
  }
  MessageInfo info = job_info(job);
  info.edn_rot = send.edn_region.frame.rot;
  info.edn_tx = send.edn_region.frame.tx;
  info.edn_ty = send.edn_region.frame.ty;
  info.edn_level = send.edn_region.level;
  info.edn_forward = send.edn_forward;
  info.edn_forward_yx = send.edn_forward_yx;
  encode_control(info, message_);
  for (std::size_t i = 0; i < job.data.size(); ++i) message_[kControlWords + i] = job.data[i];
  if (!ni_->send(send.channel, header_, flits, message_, message_words(info))) return false;
  sequence_ = (sequence_ + 1) & 0xFFFFF;
  return true;
}

}  // namespace wormcast::fw
