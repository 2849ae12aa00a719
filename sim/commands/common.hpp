// SPDX-License-Identifier: Apache-2.0
// What several commands share: the request options (-L, --ports, the latency parameters), the
// default port model of an algorithm, destination and count lists, random requests, file output.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "model/plan.hpp"
#include "model/planner.hpp"
#include "sim/multicast_run.hpp"

namespace wormcast::sim::commands {

// `text` parsed (one, two, all, or a port count), or, when it is empty, the algorithm's default
// (AlgorithmInfo::default_ports: two-port runs two-port, dual-path all-port, vh the thesis's
// one-port; README.md, "Command line").
// Throws model::SpecError for an unknown algorithm or port model, naming the valid ones.
model::PortModel port_model_for(const std::string& algorithm, const std::string& text);

// An echoed value cut to its first 60 characters (and how many more there were): an error line
// stays short whatever the value.
std::string echo(const std::string& value);

// Option checks that name the bad value and what is valid (CLI11 puts the option's name first).
// A number of cycles: finite, in 0..max (NaN, infinities and negative costs give the planners
// nonsense latencies; the harness takes whole cycles).
CLI::Validator cycles_in(double max);
// A whole number of cycles in 0..max.
CLI::Validator whole_cycles_in(int max);
// A probability in 0..max.
CLI::Validator probability_in(double max);
// A seed: a whole number in 0..2^64-1, never clamped.
CLI::Validator seed_value();

// The largest latency parameter the planners take, in cycles.
inline constexpr double kMaxPlanCycles = 1e9;

// Which latency parameters a command takes: all five for the planners (plan, sweep); only the
// processor's start-up costs for the firmware runs (run, compare, showcase), whose routers have
// their own flit, hop and control-field timing, so --beta, --mu and --router-delay would have no
// effect there and are not accepted.
enum class LatencyOptions { kAll, kStartUpOnly };

// The request options: message length, port model and latency parameters.
struct RequestOptions {
  int length = 20;
  std::string ports;  // "": the algorithm's default_port_model
  model::LatencyParameters latency;

  // Adds -L, -p and the latency options to `command`; returns the options besides -L (those only
  // a planning request uses, for the traffic sweep to refuse).
  std::vector<CLI::Option*> add_to(CLI::App& command, LatencyOptions which);
  model::PortModel ports_for(const std::string& algorithm) const { return port_model_for(algorithm, ports); }
};

// Destination names; `all` for every node but the source (a broadcast); `random:K` for K distinct
// random destinations drawn from `seed` as the sweep draws them (model/sweep.hpp).
std::vector<model::NodeId> parse_destinations(const model::Topology& t, model::NodeId source,
                                              const std::vector<std::string>& texts, std::uint64_t seed);

// K values, or `all` for N-1.
std::vector<int> parse_counts(const model::Topology& t, const std::vector<std::string>& texts);

// The requests of `run` and `compare`: one, or `count` with random sources (`-s random`) and/or
// random destination sets (`-d random:K`), drawn from `seed`.
struct RequestSpec {
  std::string algorithm;
  std::string source;  // a node, `origin` or `random`
  std::vector<std::string> destinations;
  int count = 1;
  std::uint64_t seed = 1;
};
std::vector<model::Request> requests_of(const model::Topology& t, const RequestSpec& spec,
                                        const RequestOptions& options);

// The harness options of `run` and `compare`, once the firmware is known to run `algorithm` or it
// is `auto` (throws model::SpecError for an unknown one, model::UnsupportedError for one without
// firmware).
RunOptions harness_options(const std::string& algorithm, const RequestOptions& options, double eject_stall,
                           std::uint64_t seed);

// The error of `--algorithm auto` without --ports.
inline constexpr const char* kAutoNeedsPorts =
    "--algorithm auto needs --ports (one, two, all or a port count d): the port model is the machine's, part of the "
    "request the algorithms are ranked for";

// Writes `text` to `path`; throws CommandError naming the path and why.
void write_file(const std::string& path, const std::string& text);

// The --json output of every command: the value, indented, on stdout.
void print_json(const nlohmann::json& value);

}  // namespace wormcast::sim::commands
