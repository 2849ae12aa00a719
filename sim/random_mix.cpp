// SPDX-License-Identifier: Apache-2.0
#include "sim/random_mix.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>

#include "firmware/fw_config.hpp"
#include "model/broadcast_baselines.hpp"
#include "model/design_deadlock.hpp"
#include "model/errors.hpp"
#include "model/planner.hpp"
#include "model/unicast_multicast.hpp"
#include "model/vc_class_plan.hpp"

namespace wormcast::sim {
namespace {

using model::NodeId;

// Draws are rng() % n, never a std:: distribution, whose output the standard leaves to the library:
// a seed gives the same mix with every compiler.
std::uint64_t draw(std::mt19937_64& rng, std::uint64_t n) { return rng() % n; }

// The routing families `algorithm` emits (model/vc_class_plan.hpp).
std::vector<model::RoutingFamily> families_of(const std::string& algorithm) {
  std::vector<model::RoutingFamily> families;
  for (const model::RoutingFamily f : model::routing_families()) {
    const std::vector<std::string> users = model::family_algorithms(f);
    if (std::find(users.begin(), users.end(), algorithm) != users.end()) families.push_back(f);
  }
  return families;
}

// `plan` narrowed to the algorithms in `chosen`: each family keeps the chosen algorithms that emit
// it, and a family none of them emits goes.
model::VcClassPlan narrowed(const model::VcClassPlan& plan, const std::vector<std::string>& chosen) {
  model::VcClassPlan out = plan;
  out.families.clear();
  for (model::FamilyVcs f : plan.families) {
    std::erase_if(f.algorithms, [&chosen](const std::string& a) {
      return std::find(chosen.begin(), chosen.end(), a) == chosen.end();
    });
    if (!f.algorithms.empty()) out.families.push_back(std::move(f));
  }
  return out;
}

// K random distinct destinations other than the source.
std::vector<NodeId> random_destinations(const model::Topology& t, NodeId source, int k, std::mt19937_64& rng) {
  std::vector<NodeId> others;
  for (NodeId v = 0; v < t.node_count(); ++v) {
    if (v != source) others.push_back(v);
  }
  for (std::size_t i = 0; i < static_cast<std::size_t>(k); ++i) {  // a partial Fisher-Yates shuffle
    std::swap(others[i], others[i + draw(rng, others.size() - i)]);
  }
  others.resize(static_cast<std::size_t>(k));
  return others;
}

// A random request of `algorithm` the planner accepts: a random source not in `taken` (when the
// planner refuses it, the next nodes in turn: xy-path runs from the corners only; when every node
// that works is taken, a taken one), K random destinations in 1..max_k (a broadcast algorithm:
// every other node), a random length, the algorithm's own port model. nullopt when no source works.
std::optional<model::Request> random_request(const model::Topology& t, const std::string& algorithm, int max_k,
                                             const std::vector<NodeId>& taken, const MixOptions& o,
                                             const model::LatencyParameters& latency, std::mt19937_64& rng,
                                             std::string& why) {
  const model::AlgorithmInfo& info = model::algorithm_info(algorithm);
  const int n = t.node_count();
  const NodeId first = static_cast<NodeId>(draw(rng, static_cast<std::uint64_t>(n)));
  const int k = 1 + static_cast<int>(draw(rng, static_cast<std::uint64_t>(max_k)));
  const int length = 1 + static_cast<int>(draw(rng, static_cast<std::uint64_t>(o.max_length)));
  for (int i = 0; i < 2 * n; ++i) {
    const NodeId source = (first + i) % n;
    const bool free = std::find(taken.begin(), taken.end(), source) == taken.end();
    if (free != (i < n)) continue;  // the free nodes first, then the taken ones
    const std::vector<NodeId> dests =
        info.broadcast ? model::broadcast_destinations(t, source) : random_destinations(t, source, k, rng);
    try {
      const model::Request r = model::make_request(t, algorithm, source, dests, length, info.default_ports, latency);
      model::plan(r);
      return r;
    } catch (const model::ModelError& e) {
      why = e.what();
    }
  }
  return std::nullopt;
}

void check_options(const model::Topology& t, const MixOptions& o) {
  if (o.size < 1) throw model::RequestError(fmt::format("mix size {} must be at least 1", o.size));
  if (!(o.unicasts_per_node >= 0.0)) {
    throw model::RequestError(fmt::format("{} unicasts per node must be at least 0", o.unicasts_per_node));
  }
  if (o.window < 0) throw model::RequestError(fmt::format("start window {} must be at least 0 cycles", o.window));
  if (o.window_cycles_per_request < 1) {
    throw model::RequestError(
        fmt::format("{} window cycles per request must be at least 1", o.window_cycles_per_request));
  }
  if (o.max_length < 1 || o.max_length > static_cast<int>(fw::kMaxDataWords)) {
    throw model::RequestError(
        fmt::format("maximum length {} is not in 1..{} flits (the firmware's maximum message; raise "
                    "WORMCAST_FW_MAX_DATA_WORDS, firmware/fw_config.hpp)",
                    o.max_length, fw::kMaxDataWords));
  }
  if (!(o.max_eject_stall >= 0.0 && o.max_eject_stall <= 1.0)) {
    throw model::RequestError(fmt::format("maximum eject stall {} is not in 0..1", o.max_eject_stall));
  }
  if (o.max_credit_delay < 0 || o.max_credit_delay > kMaxCreditDelay) {
    throw model::RequestError(
        fmt::format("maximum credit delay {} is not in 0..{} cycles", o.max_credit_delay, kMaxCreditDelay));
  }
  const std::vector<std::string> running = mix_algorithms(t);
  for (const std::string& a : o.algorithms) {
    model::algorithm_info(a);  // an unknown name: the registry's error lists the valid ones
    if (std::find(running.begin(), running.end(), a) == running.end()) {
      throw model::UnsupportedError(
          fmt::format("the firmware does not run {} on {}; it runs: {}", a, t.spec(), fmt::join(running, ", ")));
    }
  }
}

// The background's algorithm: separate addressing where the firmware runs it (every mesh and
// torus); on star graphs, where only the Hamiltonian-cycle algorithms run, fixed, whose single
// destination is a unicast along the cycle.
std::string background_algorithm(const model::Topology& t) {
  const std::vector<std::string> running = mix_algorithms(t);
  if (std::find(running.begin(), running.end(), model::kUnicastAlgorithm) != running.end()) {
    return model::kUnicastAlgorithm;
  }
  return running.front();
}

}  // namespace

std::vector<std::string> mix_algorithms(const model::Topology& t) {
  std::vector<std::string> names;
  for (const std::string& a : model::firmware_algorithms(t)) {
    if (firmware_supports(a)) names.push_back(a);
  }
  return names;
}

std::vector<std::string> acyclic_mix_algorithms(const model::Topology& t, const std::string& plan_name) {
  const model::VcClassPlan plan = model::vc_class_plan(plan_name, t);
  std::vector<std::string> order = mix_algorithms(t);
  std::stable_sort(order.begin(), order.end(), [](const std::string& a, const std::string& b) {
    return families_of(a).size() < families_of(b).size();
  });
  std::vector<std::string> chosen;
  for (const std::string& a : order) {
    chosen.push_back(a);
    if (model::check_design_deadlock(t, narrowed(plan, chosen)).cycle.has_value()) chosen.pop_back();
  }
  std::sort(chosen.begin(), chosen.end());
  return chosen;
}

RandomMix random_mix(const model::Topology& t, std::uint64_t seed, const MixOptions& o) {
  check_options(t, o);
  std::mt19937_64 rng(seed);
  RandomMix mix;
  mix.seed = seed;
  model::LatencyParameters latency;
  latency.alpha = static_cast<double>(o.alpha);  // as `wormcast run --alpha --gamma` plans them
  latency.gamma = static_cast<double>(o.gamma);
  const int n = t.node_count();
  for (const std::string& a : o.algorithms.empty() ? mix_algorithms(t) : o.algorithms) {
    std::vector<NodeId> sources;  // each multicast of an algorithm from its own source
    for (int i = 0; i < o.size; ++i) {
      std::string why;
      const std::optional<model::Request> r = random_request(t, a, n - 1, sources, o, latency, rng, why);
      if (!r) throw model::UnsupportedError(fmt::format("no request of {} on {} can be planned: {}", a, t.spec(), why));
      mix.requests.push_back(*r);
      sources.push_back(r->source);
    }
  }
  const std::string background = background_algorithm(t);
  const int unicasts = static_cast<int>(std::lround(o.unicasts_per_node * n * o.size));
  for (int i = 0; i < unicasts; ++i) {
    std::string why;
    const std::optional<model::Request> r = random_request(t, background, 1, {}, o, latency, rng, why);
    if (!r) throw model::UnsupportedError(fmt::format("no unicast of {} on {}: {}", background, t.spec(), why));
    mix.requests.push_back(*r);
  }
  const long window = o.window > 0 ? o.window : o.window_cycles_per_request * static_cast<long>(mix.requests.size());
  for (std::size_t i = 0; i < mix.requests.size(); ++i) {
    mix.start_cycles.push_back(static_cast<long>(draw(rng, static_cast<std::uint64_t>(window))));
  }
  const int stall_steps = static_cast<int>(std::floor(o.max_eject_stall * 10.0 + 1e-9));
  mix.options.alpha = o.alpha;
  mix.options.gamma = o.gamma;
  mix.options.eject_stall = static_cast<double>(draw(rng, static_cast<std::uint64_t>(stall_steps) + 1)) / 10.0;
  // Drawn last, so the requests, start cycles and stall of a seed are the ones without it.
  mix.options.credit_delay = static_cast<int>(draw(rng, static_cast<std::uint64_t>(o.max_credit_delay) + 1));
  mix.options.seed = seed;
  return mix;
}

std::string mix_request_file(const RandomMix& mix) {
  std::string out = "[\n";
  for (std::size_t i = 0; i < mix.requests.size(); ++i) {
    const model::Request& r = mix.requests[i];
    const model::Topology& t = r.topology;
    nlohmann::ordered_json entry;
    entry["algorithm"] = r.algorithm;
    entry["source"] = t.node_name(r.source);
    if (model::algorithm_info(r.algorithm).broadcast) {
      entry["dests"] = "all";  // the same nodes in the same order (model::broadcast_destinations)
    } else {
      nlohmann::ordered_json dests = nlohmann::ordered_json::array();
      for (const NodeId d : r.destinations) dests.push_back(t.node_name(d));
      entry["dests"] = dests;
    }
    if (r.ports.kind == model::PortModelKind::kDPort) {
      entry["ports"] = r.ports.count;
    } else {
      entry["ports"] = r.ports.name();  // "one-port", "4-port": parse_port_model reads them
    }
    entry["length"] = r.length_flits;
    entry["start_cycle"] = mix.start_cycles[i];
    out += fmt::format("  {}{}\n", entry.dump(), i + 1 < mix.requests.size() ? "," : "");
  }
  return out + "]\n";
}

std::string mix_command(const RandomMix& mix, const std::string& path, Backend backend) {
  return fmt::format(
      "wormcast run -t {} --requests {} --backend {} --alpha {} --gamma {} --eject-stall {} --credit-delay {} --seed "
      "{}",
      mix.requests.front().topology.spec(), path, backend_name(backend), mix.options.alpha, mix.options.gamma,
      mix.options.eject_stall, mix.options.credit_delay, mix.options.seed);
}

}  // namespace wormcast::sim
