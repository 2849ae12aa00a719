// SPDX-License-Identifier: Apache-2.0
// A multicast run: the node firmware on every node of a network of routers of either backend
// (sim/backend.hpp), each node bound to its router's local channels by its network interface
// (sim/node_interface.hpp), the links followed by the monitor (sim/network_monitor.hpp). The run
// takes requests, never plans: what the nodes do is the firmware's and the routers' own; the
// plans are for the scoreboard (docs/firmware.md, "The harness").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/plan.hpp"
#include "sim/backend.hpp"
#include "sim/firmware_algorithms.hpp"
#include "sim/rtl_router.hpp"
#include "sim/run_record.hpp"

namespace wormcast::sim {

// One valid router output in one cycle (what a link trace records).
struct LinkEvent {
  long cycle = 0;
  model::NodeId router = model::kNoNode;
  unsigned port = 0;
  Link link;
};
using LinkTrace = std::vector<LinkEvent>;

// How a cycle visits the nodes' interfaces (docs/timing.md, "Event-driven node interface"):
// every node every cycle, or only the nodes that can act in it (a flit ejected to them or
// held in their ejection ports, a partial worm, a receive pending or in progress, a message
// queued) while the others only take their injection credits. The same run either way, ejection stalls included.
enum class NodeVisits { kEvery, kActive };

struct RunOptions {
  long alpha = 227;  // processor cycles per send start-up (per injection channel)
  long gamma = 227;  // processor cycles per receive
  // Probability that an ejection port takes no flit in a cycle; 1 blocks every ejection port (the
  // watchdog's own tests).
  double eject_stall = 0.0;
  // Back-pressure on the network links (sim/credit_delay.hpp): each credit a router returns on a
  // network link reaches its sender after a random delay of 0..credit_delay cycles (0: at once,
  // as wired). Drawn from the seed, the same for both backends.
  int credit_delay = 0;
  std::uint64_t seed = 1;  // of the back-pressure
  // Cycles without any flit moving or processor working: stalled. Both limits are for a network
  // without back-pressure; a run scales them by 1 / (1 - eject_stall), the mean cycles an
  // ejection port takes for one flit, so a slow drain is not taken for a stall, and with a credit
  // delay adds it to the watchdog (a flit waits at most that much longer for a credit) and
  // multiplies max_cycles by 1 + credit_delay.
  long watchdog = 3000;
  long max_cycles = 5'000'000;
  // Test-only: every node's firmware sends the worms the routers replicate (PCP's spines) without
  // the replication lock (fw::NodeConfig::skip_replication_lock), to show what the lock prevents:
  // the monitor's assertion of its invariant (RunRecord::violations) and the deadlock.
  bool skip_replication_lock = false;
  // Fault injection for the scoreboard's own tests: flip bit 0 of the tail flit of every worm
  // ejected at this node (kNoNode: none).
  model::NodeId corrupt_tail_at = model::kNoNode;
  // Fault injection for the scoreboard's own tests: this node's NI adds one to the step field of
  // every message its firmware sends (kNoNode: none).
  model::NodeId mislabel_step_at = model::kNoNode;
  // Fault injection for the drain's tests: the first worm this node's NI sends gets a reserved
  // routing mode in its last header flit, so a router drains it (docs/rtl-modules.md, "Drained worms").
  model::NodeId unroutable_worm_at = model::kNoNode;
  // Fault injection for the ejection-link checker's tests: this node's NI returns one ejection
  // credit it does not owe, on its first visit (kNoNode: none).
  model::NodeId spurious_eject_credit_at = model::kNoNode;
  Backend backend = Backend::kRtl;
  // Every router every cycle, or only those that can change (docs/timing.md, "Activity-driven
  // evaluation"): the same run either way. kFull also visits every node (as NodeVisits::kEvery),
  // so `wormcast run --evaluation full` is the loop before both changes.
  Evaluation evaluation = Evaluation::kActivity;
  // Every node every cycle, or only the busy ones (NodeVisits; kEvery also checks, every cycle,
  // that a node left out of the busy set would have stayed idle, as a run error if not).
  NodeVisits visits = NodeVisits::kActive;
  // When set, receives the run's router evaluations and router cycles (RouterBackend::evaluated,
  // router_cycles): what the evaluation skipped.
  std::uint64_t* evaluated = nullptr;
  std::uint64_t* router_cycles = nullptr;
  // When set, receives the run's node visits (one per node whose ejection, processor and injection
  // ran in a cycle) and node cycles (one per node per cycle): what NodeVisits::kActive skipped.
  std::uint64_t* node_visits = nullptr;
  std::uint64_t* node_cycles = nullptr;
  // When set, receives CreditDelay::held_credit_cycles: credits returned on network links and held
  // back, summed over the cycles they were held (0 without a credit delay).
  std::uint64_t* held_credit_cycles = nullptr;
  // When set, every valid router output (network and ejection ports) is appended here, in cycle,
  // router, port-read order: two runs' traces diff to their first divergence (sim/compare.hpp).
  LinkTrace* trace = nullptr;
  // Test-only, model backend (the RTL ignores it): this router holds back its first switch grant
  // for one cycle (the comparison's negative test).
  model::NodeId perturb_model_at = model::kNoNode;
  // A waveform of every router's ports, one scope each (`router<node id>`), into this FST file
  // (sim/network_waveform.hpp; "": none, and nothing recorded).
  std::string trace_path;
};

// The largest start-up cost (alpha, gamma) a run takes, in cycles: the firmware's sends and
// receives, each paying it, then still fit RunOptions::max_cycles on every network the routers run.
inline constexpr long kMaxStartUpCycles = 10'000;
// The largest ejection stall probability a run takes from the command line: at 0.99 an ejection
// port takes a flit every 100 cycles on average, and the limits grow a hundredfold.
inline constexpr double kMaxEjectStall = 0.99;
// The largest credit delay a run takes (RunOptions::credit_delay), in cycles.
inline constexpr int kMaxCreditDelay = 64;

// Throws model::UnsupportedError naming the limit when the verilated routers cannot be built for
// `t` (a star graph's port count, a side or node count beyond the routers' fields).
void check_routers_run(const model::Topology& t);

// Runs the requests' multicasts concurrently (every source starts at cycle 0; multicast i is
// requests[i]) on the routers of options.backend and records what happened. All requests must
// share one topology. Throws model::RequestError for bad options and model::UnsupportedError for
// an algorithm, topology or port model the firmware or routers cannot run.
RunRecord run_multicasts(const std::vector<model::Request>& requests, const RunOptions& options);

// The same with a start cycle per multicast (`wormcast run --requests`): the source of multicast i
// gets it (fw::NodeFirmware::on_start_multicast) at the top of cycle start_cycles[i], before any
// router output of that cycle is read; multicasts due in one cycle start in index order. Empty
// start_cycles: every one at 0, the overload above. While the network is empty and no node is busy,
// waiting for a later start is not a stall (the watchdog does not count it); with worms in the
// network it is. Throws model::RequestError when start_cycles has another size than requests or a
// start cycle outside 0..options.max_cycles - 1.
RunRecord run_multicasts(const std::vector<model::Request>& requests, const RunOptions& options,
                         const std::vector<long>& start_cycles);

// The requests of `plans`, in order (the run's input when the caller holds plans for the check).
std::vector<model::Request> requests_of(const std::vector<model::Plan>& plans);

// The data words multicast `multicast` carries: L words of a fixed pseudo-random pattern.
std::vector<std::uint64_t> multicast_data(int multicast, int length_flits);

}  // namespace wormcast::sim
