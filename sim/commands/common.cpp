// SPDX-License-Identifier: Apache-2.0
#include "sim/commands/common.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <optional>
#include <string_view>

#include "model/algorithm_choice.hpp"
#include "model/broadcast_baselines.hpp"
#include "model/errors.hpp"
#include "model/sweep.hpp"
#include "sim/commands/command.hpp"
#include "sim/plan_views.hpp"

namespace wormcast::sim::commands {

using model::NodeId;
using model::Topology;

namespace {

// The number `text`, or nullopt when it is not all digits of an int.
std::optional<int> parse_int(const std::string& text) {
  std::size_t used = 0;
  try {
    const int value = std::stoi(text, &used);
    if (used == text.size()) return value;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

// The number `text` when all of it reads as one (NaN and infinities included), else nullopt.
std::optional<double> parse_double(const std::string& text) {
  std::size_t used = 0;
  try {
    const double value = std::stod(text, &used);
    if (used != 0 && used == text.size()) return value;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

}  // namespace

std::string echo(const std::string& value) {
  constexpr std::size_t kShown = 60;
  if (value.size() <= kShown) return value;
  return fmt::format("{}... ({} characters)", value.substr(0, kShown), value.size());
}

CLI::Validator cycles_in(double max) {
  return CLI::Validator(
      [max](std::string& text) -> std::string {
        const std::optional<double> value = parse_double(text);
        if (!value || !std::isfinite(*value) || *value < 0.0 || *value > max) {
          return fmt::format("'{}' is not a number of cycles in 0..{}", echo(text), max);
        }
        return "";
      },
      fmt::format("in 0..{}", max));
}

CLI::Validator whole_cycles_in(int max) {
  return CLI::Validator(
      [max](std::string& text) -> std::string {
        const std::optional<int> value = parse_int(text);
        if (!value || *value < 0 || *value > max) {
          return fmt::format("'{}' is not a whole number of cycles in 0..{}", echo(text), max);
        }
        return "";
      },
      fmt::format("in 0..{}", max));
}

CLI::Validator probability_in(double max) {
  return CLI::Validator(
      [max](std::string& text) -> std::string {
        const std::optional<double> value = parse_double(text);
        if (!value || !(*value >= 0.0 && *value <= max)) {
          return fmt::format("'{}' is not a probability in 0..{}", echo(text), max);
        }
        return "";
      },
      fmt::format("in 0..{}", max));
}

CLI::Validator seed_value() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        std::uint64_t value = 0;
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (text.empty() || error != std::errc() || end != text.data() + text.size()) {
          return fmt::format("'{}' is not a seed; give a whole number in 0..{}", echo(text),
                             std::numeric_limits<std::uint64_t>::max());
        }
        return "";
      },
      "in 0..2^64-1");
}

model::PortModel port_model_for(const std::string& algorithm, const std::string& text) {
  if (text.empty()) return model::algorithm_info(algorithm).default_ports;
  return parse_port_model(text);
}

std::vector<CLI::Option*> RequestOptions::add_to(CLI::App& command, LatencyOptions which) {
  command.add_option("-L,--length", length, "message length in flits")->capture_default_str();
  std::vector<CLI::Option*> planning = {
      command.add_option("-p,--ports", ports,
                         "port model: one, two, all, or a port count d (default: the algorithm's, as `wormcast "
                         "algorithms` lists)"),
      command.add_option("--alpha", latency.alpha, "send start-up (cycles)")->capture_default_str(),
      command.add_option("--gamma", latency.gamma, "receive start-up (cycles)")->capture_default_str()};
  // The firmware runs pay the start-ups in whole cycles, within the run's cycle limit.
  const double start_up_max = which == LatencyOptions::kAll ? kMaxPlanCycles : kMaxStartUpCycles;
  planning[1]->check(cycles_in(start_up_max));
  planning[2]->check(cycles_in(start_up_max));
  if (which == LatencyOptions::kAll) {
    planning.push_back(command.add_option("--beta", latency.beta, "one flit over one channel (cycles)")
                           ->capture_default_str()
                           ->check(cycles_in(kMaxPlanCycles)));
    planning.push_back(command.add_option("--mu", latency.mu, "CPR control-field change (cycles)")
                           ->capture_default_str()
                           ->check(cycles_in(kMaxPlanCycles)));
    planning.push_back(command.add_option("--router-delay", latency.router_delay, "header per hop (cycles)")
                           ->capture_default_str()
                           ->check(cycles_in(kMaxPlanCycles)));
  }
  return planning;
}

std::vector<NodeId> parse_destinations(const Topology& t, NodeId source, const std::vector<std::string>& texts,
                                       std::uint64_t seed) {
  if (texts.size() == 1 && texts.front() == "all") return model::broadcast_destinations(t, source);
  constexpr std::string_view kRandom = "random:";
  if (texts.size() == 1 && texts.front().rfind(kRandom, 0) == 0) {
    const std::optional<int> k = parse_int(texts.front().substr(kRandom.size()));
    if (!k) {
      throw model::SpecError(fmt::format("'{}' does not give a destination count; write random:K with K in 1..{}",
                                         texts.front(), t.node_count() - 1));
    }
    return model::draw_samples(t, model::SourceChoice::fixed(source), *k, 1, seed).front().destinations;
  }
  std::vector<NodeId> nodes;
  for (const std::string& text : texts) nodes.push_back(t.parse_node(text));
  return nodes;
}

std::vector<int> parse_counts(const Topology& t, const std::vector<std::string>& texts) {
  std::vector<int> counts;
  for (const std::string& text : texts) {
    if (text == "all") {
      counts.push_back(t.node_count() - 1);
      continue;
    }
    const std::optional<int> k = parse_int(text);
    if (!k) {
      throw model::SpecError(
          fmt::format("K value '{}' is not a number; give counts in 1..{} or 'all'", text, t.node_count() - 1));
    }
    counts.push_back(*k);
  }
  return counts;
}

std::vector<model::Request> requests_of(const Topology& t, const RequestSpec& spec, const RequestOptions& options) {
  if (spec.count < 1) throw model::RequestError(fmt::format("--count {} must be at least 1", spec.count));
  const model::SourceChoice choice = parse_source_choice(t, spec.source);
  const model::PortModel ports = options.ports_for(spec.algorithm);
  const auto request = [&](const model::Sample& s, const std::vector<NodeId>& destinations) {
    return model::make_request(t, spec.algorithm, s.source, destinations, options.length, ports, options.latency);
  };
  std::vector<model::Request> requests;
  const bool random_dests = spec.destinations.size() == 1 && spec.destinations.front().rfind("random:", 0) == 0;
  if (random_dests) {
    const std::vector<NodeId> first = parse_destinations(t, 0, spec.destinations, spec.seed);  // validates K
    for (const model::Sample& s :
         model::draw_samples(t, choice, static_cast<int>(first.size()), spec.count, spec.seed)) {
      requests.push_back(request(s, s.destinations));
    }
    return requests;
  }
  for (const model::Sample& s : model::draw_samples(t, choice, 1, spec.count, spec.seed)) {
    requests.push_back(request(s, parse_destinations(t, s.source, spec.destinations, spec.seed)));
  }
  return requests;
}

RunOptions harness_options(const std::string& algorithm, const RequestOptions& options, double eject_stall,
                           std::uint64_t seed) {
  // auto chooses among the algorithms the firmware runs (sim/algorithm_race.hpp).
  if (algorithm != model::kAutoAlgorithm && !firmware_supports(algorithm)) {
    model::algorithm_info(algorithm);  // an unknown name: the registry's error lists the valid ones
    throw model::UnsupportedError(no_firmware_message(algorithm));
  }
  // The traffic sweep takes the planners' latency range; the firmware pays the start-ups per send.
  for (const auto& [name, value] : {std::pair{"--alpha", options.latency.alpha}, {"--gamma", options.latency.gamma}}) {
    if (value > kMaxStartUpCycles) {
      throw model::SpecError(
          fmt::format("{} {} is more than the firmware runs take; give 0..{} cycles", name, value, kMaxStartUpCycles));
    }
  }
  RunOptions harness;
  harness.alpha = std::lround(options.latency.alpha);
  harness.gamma = std::lround(options.latency.gamma);
  harness.eject_stall = eject_stall;
  harness.seed = seed;
  return harness;
}

void write_file(const std::string& path, const std::string& text) {
  // The stream buffers: a full device or a lost disk shows only when the buffer goes out, so the
  // file is closed and checked here rather than by the destructor, which cannot report.
  errno = 0;
  std::ofstream out(path);
  out << text;
  out.close();
  if (!out) {
    throw CommandError(
        fmt::format("cannot write '{}': {}", path, errno != 0 ? std::strerror(errno) : "the write failed"));
  }
}

void print_json(const nlohmann::json& value) { fmt::print("{}\n", value.dump(2)); }

}  // namespace wormcast::sim::commands
