// SPDX-License-Identifier: Apache-2.0
// The node firmware's state machine: init, the job slots, dispatch through the algorithm table
// (firmware/algorithm_table.hpp) and the send pump; independent of model/ (docs/firmware.md,
// "HW/SW split").
#include "firmware/node_firmware.hpp"

#include "firmware/algorithm_table.hpp"

namespace wormcast::fw {

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
      return "more destinations than the firmware's list holds (kMaxChain - 1, WORMCAST_FW_MAX_CHAIN)";
    case Status::kTooMuchData:
      return "more data words than the firmware's maximum message (kMaxDataWords, WORMCAST_FW_MAX_DATA_WORDS)";
    case Status::kNoFreeJob:
      return "every job slot is busy (kMaxJobs, WORMCAST_FW_MAX_JOBS): nothing done, to be presented again when a "
             "job frees";
    case Status::kBadMessage:
      return "received payload does not decode or does not name this node";
    case Status::kNetworkTooLarge:
      return "network larger than the firmware's tree tables (kMaxGridNodes, WORMCAST_FW_MAX_GRID_NODES)";
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
    node_.config = config;
    node_.ni = ni;
    node_.jobs = jobs_;
    node_.lock.bind(jobs_, kMaxJobs);
    return Status::kOk;
  }
  if (g.dims != 2 && g.dims != 3) return Status::kBadConfig;
  for (unsigned d = 0; d < 3; ++d) {
    if (g.size[d] == 0 || g.size[d] > wire::kMaxCoord + 1 || (d >= g.dims && g.size[d] != 1)) return Status::kBadConfig;
  }
  if (config.node >= g.nodes()) return Status::kBadConfig;
  node_.config = config;
  node_.ni = ni;
  node_.jobs = jobs_;
  node_.lock.bind(jobs_, kMaxJobs);
  return Status::kOk;
}

bool NodeFirmware::idle() const {
  for (const Job& job : jobs_) {
    if (job.active) return false;
  }
  return true;
}

bool NodeFirmware::has_free_job() const {
  for (const Job& job : jobs_) {
    if (!job.active) return true;
  }
  return false;
}

Job* NodeFirmware::free_job() {
  for (Job& job : jobs_) {
    if (!job.active) return &job;
  }
  return nullptr;
}

Status NodeFirmware::on_start_multicast(const MulticastRequest& r) {
  if (node_.ni == nullptr) return Status::kNotInitialized;
  const Grid& g = node_.grid();
  const std::uint32_t self = node_.self();
  const AlgorithmRow* row = find_algorithm(r.algorithm);
  if (row == nullptr) return Status::kUnsupportedAlgorithm;
  if (r.ports == 0 || r.ports > node_.ni->channels()) return Status::kBadPortCount;
  if (g.kind == GridKind::kStar && !row->on_star_graphs) return Status::kUnsupportedTopology;
  if (row->check != nullptr) {
    if (const Status s = row->check(g, self, r); s != Status::kOk) return s;
  }
  if (r.count == 0 || r.destinations == nullptr) return Status::kBadDestinations;
  // A broadcast is a flag: its algorithm derives the receivers from the grid and keeps no list.
  const bool unlisted = row->broadcast || (row->broadcast_unlisted && r.count + 1 == g.nodes());
  if (!unlisted && r.count + 1 > kMaxChain) return Status::kTooManyDestinations;
  if (r.words > kMaxDataWords || (r.words > 0 && r.data == nullptr)) return Status::kTooMuchData;
  // Checked in place (no table of the network's nodes): quadratic, once per multicast.
  for (std::uint32_t i = 0; i < r.count; ++i) {
    if (r.destinations[i] >= g.nodes() || r.destinations[i] == self) return Status::kBadDestinations;
    for (std::uint32_t j = 0; j < i; ++j) {
      if (r.destinations[j] == r.destinations[i]) return Status::kBadDestinations;
    }
  }
  if (row->broadcast && r.count + 1 != g.nodes()) return Status::kBadDestinations;
  Job* job = free_job();
  if (job == nullptr) return Status::kNoFreeJob;
  *job = Job{};
  job->row = row;
  job->ports = r.ports;
  job->all_port = r.all_port;
  job->multicast = r.multicast;
  job->origin = self;
  job->slot = static_cast<std::uint8_t>(job - jobs_);
  job->data = r.data;  // sent from the application's words (valid until the multicast is done)
  job->words = r.words;
  if (const Status s = row->start(node_, *job, r); s != Status::kOk) return s;
  job->active = true;
  launch(*job);
  return Status::kOk;
}

Status NodeFirmware::on_message_received(const wire::HeadFields& head, const std::uint64_t* payload,
                                         std::uint32_t words) {
  if (node_.ni == nullptr) return Status::kNotInitialized;
  Received m;
  m.head = head;
  m.payload = payload;
  if (payload == nullptr || !decode_control(payload, words, m.info)) return Status::kBadMessage;
  if (m.info.kind != MessageKind::kMulticast) {  // the replication lock's (no job, no delivery)
    const Status status = node_.lock.receive(node_, m);
    pump();
    return status;
  }
  // An address field is read where the NI holds it; a receiver that keeps one checks it fits.
  if (m.info.data_words > kMaxDataWords) return Status::kBadMessage;
  const AlgorithmRow* row = find_algorithm(m.info.algorithm);
  if (row == nullptr) return Status::kBadMessage;
  m.data = payload + kControlWords + address_words(m.info.address_entries);
  Job* slot = free_job();
  if (slot != nullptr) {
    *slot = Job{};
    slot->row = row;
    slot->slot = static_cast<std::uint8_t>(slot - jobs_);
  }
  const Status status = row->receive(node_, m, slot);
  if (status == Status::kOk && slot != nullptr && slot->active) {
    launch(*slot);
  } else {
    pump();  // an acknowledgement the receive posted, a grant it moved on
  }
  return status;
}

void NodeFirmware::on_channel_free() { pump(); }

void NodeFirmware::launch(Job& job) {
  if (!next_iteration(job)) job.active = job.waiting;
  pump();
}

// Issues every pending send the NI takes, moving each job on to its next step when its current
// step's sends are all queued. A job that waits for a message stays active and is passed over.
void NodeFirmware::pump() {
  node_.lock.pump(node_);
  for (Job& job : jobs_) {
    while (job.active && !job.waiting) {
      while (job.issued < job.sends && job.row->issue(node_, job, job.issued)) ++job.issued;
      if (job.issued < job.sends) break;  // a queue is full: on_channel_free resumes
      ++job.step;
      if (!next_iteration(job)) job.active = job.waiting;
    }
  }
}

bool NodeFirmware::next_iteration(Job& job) {
  job.issued = 0;
  job.sends = job.row->iterate(node_, job);
  return job.sends > 0;
}

}  // namespace wormcast::fw
