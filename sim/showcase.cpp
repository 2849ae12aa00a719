// SPDX-License-Identifier: Apache-2.0
#include "sim/showcase.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>

#include "model/broadcast_baselines.hpp"
#include "model/errors.hpp"
#include "model/planner.hpp"
#include "model/sweep.hpp"
#include "sim/network_svg.hpp"
#include "sim/random_mix.hpp"
#include "sim/run_views.hpp"
#include "sim/scoreboard.hpp"

namespace wormcast::sim {

using model::NodeId;
using model::Topology;

const std::vector<ShowcaseNetwork>& showcase_networks() {
  static const std::vector<ShowcaseNetwork> networks{
      {"mesh:8x8", 10}, {"torus:4x4", 6}, {"mesh:4x4x4", 10}, {"star:4", 6}};
  return networks;
}

bool ShowcaseResult::passed() const {
  return std::all_of(rows.begin(), rows.end(), [](const ShowcaseRow& r) { return r.check.empty(); });
}

namespace {

// The model's latency parameters for the RTL with the harness's start-up costs, so its estimate is
// the analytic opinion of the RTL's latency (docs/timing.md, "The analytic opinion").
model::LatencyParameters latency_of(const ShowcaseConfig& c) {
  return model::LatencyParameters::rtl(static_cast<double>(c.rtl.alpha), static_cast<double>(c.rtl.gamma));
}

// How an algorithm runs on a network: the widest port model its planner accepts (it uses as many
// channels as it can), and random sources unless the planner needs the origin (xy-path: a corner).
struct Setup {
  model::PortModel ports;
  model::SourceChoice source;
};

// The broadcast of a showcase: from a source drawn apart from the multicasts'.
model::Sample broadcast_sample(const Topology& t, const model::SourceChoice& choice, std::uint64_t seed) {
  const NodeId source = model::draw_samples(t, choice, 1, 1, seed + 1).front().source;
  return {source, model::broadcast_destinations(t, source)};
}

std::optional<Setup> find_setup(const Topology& t, const model::AlgorithmInfo& info, const ShowcaseConfig& c, int k,
                                std::string& why) {
  for (const model::PortModel ports :
       {model::PortModel::all_port(), model::PortModel::two_port(), model::PortModel::one_port()}) {
    for (const model::SourceChoice source : {model::SourceChoice::random(), model::SourceChoice::origin()}) {
      const model::Sample s =
          info.broadcast ? broadcast_sample(t, source, c.seed) : model::draw_samples(t, source, k, 1, c.seed).front();
      try {
        model::plan(model::make_request(t, info.name, s.source, s.destinations, c.length, ports, latency_of(c)));
        return Setup{ports, source};
      } catch (const model::ModelError& e) {
        why = e.what();
      }
    }
  }
  return std::nullopt;
}

// The requests of one algorithm: `multicasts` random multicasts and a broadcast (a broadcast
// algorithm: the broadcast alone), all from the setup's sources.
std::vector<model::Sample> samples_for(const Topology& t, const model::AlgorithmInfo& info, const Setup& setup,
                                       const ShowcaseConfig& c, int k) {
  std::vector<model::Sample> samples;
  if (!info.broadcast && c.multicasts > 0) samples = model::draw_samples(t, setup.source, k, c.multicasts, c.seed);
  samples.push_back(broadcast_sample(t, setup.source, c.seed));
  return samples;
}

std::string file_name(const std::string& topology, const std::string& algorithm, int index) {
  std::string name = fmt::format("{}_{}_{}.svg", topology, algorithm, index);
  std::replace(name.begin(), name.end(), ':', '-');
  return name;
}

// The row of a run; draws it into the output folder.
ShowcaseRow make_row(const model::Plan& plan, const RunRecord& record, const ShowcaseConfig& c, int index) {
  const model::Request& r = plan.request;
  const Topology& t = r.topology;
  const RunSummary s = summarize(0, record);
  ShowcaseRow row;
  row.topology = t.spec();
  row.algorithm = r.algorithm;
  row.ports = r.ports.name();
  const bool broadcast = static_cast<int>(r.destinations.size()) == t.node_count() - 1;
  row.request = broadcast ? "broadcast" : fmt::format("multicast K={}", r.destinations.size());
  row.source = t.node_name(r.source);
  row.destinations = static_cast<int>(r.destinations.size());
  row.steps = s.steps;
  row.plan_steps = plan.metrics.steps;
  row.traffic = s.traffic;
  row.plan_traffic = plan.metrics.traffic;
  const std::vector<long> cycles = delivery_cycles(plan, 0, record);
  row.latency = cycles.empty() ? -1 : *std::max_element(cycles.begin(), cycles.end());
  row.model_latency = plan.metrics.latency;
  row.check = check_run({plan}, record);
  if (!c.out_dir.empty()) {
    row.drawing = file_name(row.topology, row.algorithm, index);
    write_svg((std::filesystem::path(c.out_dir) / row.drawing).string(),
              drawing_of_run(plan, 0, record, row.check, c.rtl.backend));
  }
  return row;
}

// The VC-class plan the RTL and the firmware implement (model/vc_class_plan.hpp): a mix keeps to the
// algorithms it proves deadlock-free together.
constexpr const char* kBuiltPlan = "shipped";

// The mixed row of network t: a random mix of the algorithms run, all at once on the RTL, every
// request checked; its request file goes to the output folder. nullopt (with why) when the
// network runs none of the algorithms.
std::optional<ShowcaseRow> mixed_row(const Topology& t, const ShowcaseConfig& c, std::string& why) {
  MixOptions options;
  options.size = c.mix_size;
  options.alpha = c.rtl.alpha;
  options.gamma = c.rtl.gamma;
  for (const std::string& a : acyclic_mix_algorithms(t, kBuiltPlan)) {
    if (c.algorithms.empty() || std::find(c.algorithms.begin(), c.algorithms.end(), a) != c.algorithms.end()) {
      options.algorithms.push_back(a);
    }
  }
  if (options.algorithms.empty()) {
    why = fmt::format("{} mixed: none of the algorithms run is deadlock-free with the others there", t.spec());
    return std::nullopt;
  }
  const RandomMix mix = random_mix(t, c.seed, options);
  RunOptions run = mix.options;
  run.backend = c.rtl.backend;
  run.corrupt_tail_at = c.rtl.corrupt_tail_at;
  std::vector<model::Plan> plans;
  for (const model::Request& r : mix.requests) plans.push_back(model::plan(r));
  const RunRecord record = run_multicasts(mix.requests, run, mix.start_cycles);
  ShowcaseRow row;
  row.topology = t.spec();
  row.algorithm = "mixed";
  row.ports = "mixed";
  row.request = fmt::format("{} requests", mix.requests.size());
  std::vector<NodeId> sources;
  for (std::size_t i = 0; i < plans.size(); ++i) {
    const model::Plan& plan = plans[i];
    sources.push_back(plan.request.source);
    row.destinations += static_cast<int>(plan.request.destinations.size());
    const RunSummary s = summarize(static_cast<int>(i), record);
    row.steps = std::max(row.steps, s.steps);
    row.plan_steps = std::max(row.plan_steps, plan.metrics.steps);
    row.traffic += s.traffic;
    row.plan_traffic += plan.metrics.traffic;
  }
  std::sort(sources.begin(), sources.end());
  row.source = fmt::format("{} sources", std::unique(sources.begin(), sources.end()) - sources.begin());
  row.latency = -1;
  for (const Delivery& d : record.deliveries) row.latency = std::max(row.latency, d.cycle);
  row.model_latency = -1;
  row.check = check_run(plans, record);
  if (!c.out_dir.empty()) {
    row.request_file = fmt::format("{}_mixed.json", t.spec());
    std::replace(row.request_file.begin(), row.request_file.end(), ':', '-');
    const std::string path = (std::filesystem::path(c.out_dir) / row.request_file).string();
    std::ofstream out(path);
    out << mix_request_file(mix);
    out.close();  // a full device shows only when the buffer goes out
    if (!out) throw model::RequestError(fmt::format("cannot write the request file '{}'", path));
    row.rerun = mix_command(mix, path, run.backend);
  }
  return row;
}

void check_config(const ShowcaseConfig& c) {
  if (c.networks.empty()) throw model::RequestError("the showcase needs at least one network");
  if (c.rtl.alpha < 0 || c.rtl.gamma < 0) {
    throw model::RequestError(fmt::format("alpha {} and gamma {} must be at least 0 cycles", c.rtl.alpha, c.rtl.gamma));
  }
  if (c.length < 1) throw model::RequestError(fmt::format("message length {} must be at least 1 flit", c.length));
  if (c.multicasts < 0) throw model::RequestError(fmt::format("--multicasts {} must be at least 0", c.multicasts));
  if (c.mix_size < 0) throw model::RequestError(fmt::format("--mix-size {} must be at least 0", c.mix_size));
  for (const std::string& name : c.algorithms) {
    model::algorithm_info(name);  // an unknown name: the registry's error lists the valid ones
    if (!firmware_supports(name)) throw model::UnsupportedError(no_firmware_message(name));
  }
  for (const ShowcaseNetwork& n : c.networks) {
    const Topology t = Topology::parse(n.topology);
    // The routers' limits before any work: the mixed row's deadlock proof alone takes minutes on a
    // network far beyond them.
    check_routers_run(t);
    if (c.rtl.corrupt_tail_at != model::kNoNode) t.check_node(c.rtl.corrupt_tail_at);
    if (n.multicast_size < 1 || n.multicast_size > t.node_count() - 1) {
      throw model::RequestError(
          fmt::format("multicast size {} on {} is not in 1..{}", n.multicast_size, n.topology, t.node_count() - 1));
    }
  }
  if (!c.out_dir.empty()) {
    std::error_code error;
    std::filesystem::create_directories(c.out_dir, error);
    if (error || !std::filesystem::is_directory(c.out_dir)) {
      throw model::RequestError(fmt::format("cannot create the output folder '{}': {}", c.out_dir,
                                            error ? error.message() : "a file of that name is in the way"));
    }
  }
}

// A CSV field in quotes, its quotes doubled.
std::string csv_quoted(const std::string& text) {
  std::string out = "\"";
  for (const char ch : text) out += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return out + "\"";
}

std::string latency_text(long cycles) { return cycles < 0 ? "-" : std::to_string(cycles); }
std::string model_latency_text(double cycles) { return cycles < 0 ? "-" : fmt::format("{:.0f}", cycles); }

}  // namespace

ShowcaseResult run_showcase(const ShowcaseConfig& c, const std::function<void(const ShowcaseRow&)>& on_row) {
  check_config(c);
  ShowcaseResult result;
  for (const ShowcaseNetwork& network : c.networks) {
    const Topology t = Topology::parse(network.topology);
    for (const model::AlgorithmInfo& info : model::algorithms()) {
      if (!firmware_supports(info.name)) continue;
      if (!c.algorithms.empty() &&
          std::find(c.algorithms.begin(), c.algorithms.end(), info.name) == c.algorithms.end()) {
        continue;
      }
      std::string why;
      const std::optional<Setup> setup = find_setup(t, info, c, network.multicast_size, why);
      if (!setup) {
        result.skipped.push_back(fmt::format("{} {}: {}", t.spec(), info.name, why));
        continue;
      }
      int index = 0;
      for (const model::Sample& s : samples_for(t, info, *setup, c, network.multicast_size)) {
        std::optional<model::Plan> plan;
        RunRecord record;
        try {
          plan = model::plan(
              model::make_request(t, info.name, s.source, s.destinations, c.length, setup->ports, latency_of(c)));
          record = run_multicasts({plan->request}, c.rtl);
        } catch (const model::ModelError& e) {
          // The planner or the RTL cannot run this request (a limit of the firmware or the routers).
          result.skipped.push_back(fmt::format("{} {} from ({}), {} destinations: {}", t.spec(), info.name,
                                               t.node_name(s.source), s.destinations.size(), e.what()));
          continue;
        }
        result.rows.push_back(make_row(*plan, record, c, ++index));
        if (on_row) on_row(result.rows.back());
      }
    }
    if (c.mix_size == 0) continue;
    std::string why;
    if (std::optional<ShowcaseRow> row = mixed_row(t, c, why)) {
      result.rows.push_back(std::move(*row));
      if (on_row) on_row(result.rows.back());
    } else {
      result.skipped.push_back(why);
    }
  }
  return result;
}

std::string showcase_header_line() {
  return fmt::format("{:<11} {:<16} {:<9} {:<15} {:<10} {:>5} {:>7} {:>8} {:>8}  {}\n", "topology", "algorithm",
                     "ports", "request", "source", "steps", "traffic", "latency", "(model)", "check");
}

std::string showcase_row_line(const ShowcaseRow& r) {
  return fmt::format("{:<11} {:<16} {:<9} {:<15} {:<10} {:>5} {:>7} {:>8} {:>8}  {}\n", r.topology, r.algorithm,
                     r.ports, r.request, r.source, r.steps, r.traffic, latency_text(r.latency),
                     model_latency_text(r.model_latency), r.check.empty() ? "pass" : "FAIL");
}

std::string showcase_markdown(const ShowcaseResult& result, const ShowcaseConfig& c) {
  std::string out = fmt::format(
      "# wormcast showcase: every algorithm on the RTL\n\n"
      "Node firmware on the verilated routers, each run checked against the model's plan (deliveries, "
      "links, steps). L = {} flits, alpha = {}, gamma = {} cycles, seed {}. Latency: the last delivery "
      "cycle on the RTL; (model): the plan's latency under the RTL's parameters (the analytic opinion, "
      "docs/timing.md). A mixed row runs a random mix of the network's algorithms at once (sim/random_mix.hpp), "
      "every request checked against its plan; steps: the largest request's, traffic: the sum; its request file "
      "reruns it with `wormcast run --requests`.\n\n",
      c.length, c.rtl.alpha, c.rtl.gamma, c.seed);
  out +=
      "| topology | algorithm | ports | request | source | steps | traffic | latency (cycles) | (model) | check | "
      "drawing |\n|---|---|---|---|---|--:|--:|--:|--:|---|---|\n";
  for (const ShowcaseRow& r : result.rows) {
    const std::string drawing = !r.drawing.empty()        ? fmt::format("[svg]({})", r.drawing)
                                : !r.request_file.empty() ? fmt::format("[requests]({})", r.request_file)
                                                          : "";
    const std::string source = r.algorithm == "mixed" ? r.source : "(" + r.source + ")";
    out += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n", r.topology, r.algorithm, r.ports,
                       r.request, source, r.steps, r.traffic, latency_text(r.latency),
                       model_latency_text(r.model_latency), r.check.empty() ? "pass" : "FAIL: " + r.check, drawing);
  }
  std::string reruns;
  for (const ShowcaseRow& r : result.rows) {
    if (!r.rerun.empty()) reruns += fmt::format("- {}: `{}`\n", r.topology, r.rerun);
  }
  if (!reruns.empty()) out += "\nThe mixes rerun with:\n\n" + reruns;
  if (!result.skipped.empty()) {
    out += "\nNot run (the algorithm or the RTL does not support the network):\n\n";
    for (const std::string& s : result.skipped) out += fmt::format("- {}\n", s);
  }
  return out;
}

std::string showcase_csv(const ShowcaseResult& result) {
  std::string out =
      "topology,algorithm,ports,request,source,destinations,steps,plan_steps,traffic,plan_traffic,latency_cycles,"
      "model_latency,check,drawing,request_file\n";
  for (const ShowcaseRow& r : result.rows) {
    out += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{:.1f},{},{},{}\n", r.topology, r.algorithm, r.ports,
                       r.request, csv_quoted(r.source), r.destinations, r.steps, r.plan_steps, r.traffic,
                       r.plan_traffic, r.latency, r.model_latency,
                       csv_quoted(r.check.empty() ? "pass" : "FAIL: " + r.check), r.drawing, r.request_file);
  }
  return out;
}

}  // namespace wormcast::sim
