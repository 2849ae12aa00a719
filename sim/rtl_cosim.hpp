// The co-simulation: the node firmware on every node of a network of verilated routers (or of the
// timing model's routers, docs/timing.md), each node bound to its router's local channels by a
// network interface that packetizes and depacketizes flits and charges the processor's start-up
// costs (docs/firmware.md, "Harness").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/plan.hpp"
#include "sim/rtl_router.hpp"
#include "sim/scoreboard.hpp"

namespace wormcast::sim {

// The routers a run simulates: the verilated RTL, or the cycle-level timing model
// (model/timing_router.hpp, docs/timing.md) built to behave the same, cycle for cycle.
enum class Backend { kRtl, kModel };
// "rtl" / "model"; parse_backend throws model::RequestError naming the bad value and the valid ones.
std::string backend_name(Backend backend);
Backend parse_backend(const std::string& name);

// One valid router output in one cycle (what a link trace records).
struct LinkEvent {
  long cycle = 0;
  model::NodeId router = model::kNoNode;
  unsigned port = 0;
  Link link;
};
using LinkTrace = std::vector<LinkEvent>;

struct RtlRunOptions {
  long alpha = 227;          // processor cycles per send start-up (per injection channel)
  long gamma = 227;          // processor cycles per receive
  double eject_stall = 0.0;  // probability that an ejection port takes no flit in a cycle
  std::uint64_t seed = 1;    // of the back-pressure
  long watchdog = 3000;      // cycles without any flit moving or processor working: stalled
  long max_cycles = 5'000'000;
  // Fault injection for the scoreboard's own tests: flip bit 0 of the tail flit of every worm
  // ejected at this node (kNoNode: none).
  model::NodeId corrupt_tail_at = model::kNoNode;
  Backend backend = Backend::kRtl;
  // When set, every valid router output (network and ejection ports) is appended here, in cycle,
  // router, port-read order: two runs' traces diff to their first divergence (sim/compare.hpp).
  LinkTrace* trace = nullptr;
  // Test-only, model backend (the RTL ignores it): this router holds back its first switch grant
  // for one cycle (the comparison's negative test).
  model::NodeId perturb_model_at = model::kNoNode;
};

// Every router's configuration inputs for a mesh or torus, node by node, from the model (path
// labeling, neighbour labels, wrap and cycle-boundary flags, coordinates; docs/rtl.md).
std::vector<RouterConfig> router_configs(const model::Topology& topology);

// The algorithms the firmware implements on the RTL, and a sentence naming them.
bool rtl_supports(const std::string& algorithm);
std::string rtl_supported_algorithms();
// The error for an algorithm without RTL support: names it, what is missing and what is supported.
std::string rtl_unsupported_message(const std::string& algorithm);

// Runs the plans' multicasts concurrently (all sources start at cycle 0; multicast i is plans[i])
// on the RTL (or on the timing model: options.backend) and records what happened. All plans must
// share one topology. Throws model::UnsupportedError for an algorithm, topology or port model the
// RTL cannot run.
RunRecord run_on_rtl(const std::vector<model::Plan>& plans, const RtlRunOptions& options);

// The data words multicast `multicast` carries: L words of a fixed pseudo-random pattern.
std::vector<std::uint64_t> multicast_data(int multicast, int length_flits);

}  // namespace wormcast::sim
