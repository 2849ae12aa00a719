// SPDX-License-Identifier: Apache-2.0
// wormcast sweep: random requests planned for several K and algorithms, aggregated (the planning
// sweep, docs/algorithms.md); with --backend, synthetic traffic on the routers or the timing model
// over a list of loads, a CSV and latency plots (the traffic sweep, docs/timing.md "Benchmarks");
// with --backend and --algorithms, random multicasts through the node firmware on the routers, the
// measured latency beside the model's and the analytic one (the multicast sweep, docs/results-rtl.md);
// with --rates as well, every node starting multicasts as a Poisson process, latency against the
// rate (the load sweep, docs/results-rtl.md "Multicasts under load").
#include "model/sweep.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <memory>
#include <vector>

#include "model/errors.hpp"
#include "sim/commands/command.hpp"
#include "sim/commands/common.hpp"
#include "sim/multicast_load.hpp"
#include "sim/multicast_run.hpp"
#include "sim/multicast_sweep.hpp"
#include "sim/plan_views.hpp"
#include "sim/progress.hpp"
#include "sim/router_network.hpp"
#include "sim/shard.hpp"
#include "sim/traffic_sweep.hpp"

namespace wormcast::sim::commands {
namespace {

struct Options {
  std::string topology;
  std::vector<std::string> algorithms;
  std::vector<std::string> counts;
  int runs = 100;
  std::uint64_t seed = 1;
  std::string source = "origin";
  int threads = 0;
  RequestOptions request;
  std::string csv_file;
  std::string json_file;
  bool json = false;
  std::string shard;  // "i/n"; "": the whole sweep
  // The multicast sweep.
  std::vector<int> lengths;
  // The load sweep (--rates).
  std::vector<std::string> rates;
  double unicast_load = 0.0;
  // The traffic sweep.
  std::string backend;
  std::vector<std::string> loads;
  TrafficConfig traffic;
  std::string out;
};

// --ports, or the default port model every algorithm shares; algorithms whose defaults differ need
// --ports, since the sweep plans them all under one port model.
model::PortModel sweep_ports(const Options& o) {
  if (!o.request.ports.empty()) return parse_port_model(o.request.ports);
  const model::PortModel ports = port_model_for(o.algorithms.front(), "");
  std::vector<std::string> defaults;
  bool same = true;
  for (const std::string& name : o.algorithms) {
    const model::PortModel other = port_model_for(name, "");
    same = same && other == ports;
    defaults.push_back(fmt::format("{}: {}", name, other.name()));
  }
  if (!same) {
    throw model::RequestError(
        fmt::format("the algorithms run with different port models ({}); give --ports to plan them all under one",
                    fmt::join(defaults, ", ")));
  }
  return ports;
}

// What decides a planning sweep's rows, as text: its identity in the shard files. Every field of
// the configuration but the thread count (which changes no number).
std::string describe(const model::SweepConfig& c) {
  const model::LatencyParameters& p = c.latency;
  return fmt::format(
      "planning sweep; topology {}; algorithms {}; k {}; runs {}; seed {}; source {} {}; length {}; ports {}; latency "
      "{} {} {} {} {} {} {} {} {} {} {} {}",
      c.topology.spec(), fmt::join(c.algorithms, ","), fmt::join(c.destination_counts, ","), c.runs, c.seed,
      static_cast<int>(c.source.policy), c.source.node, c.length_flits, c.ports.name(), p.alpha, p.gamma, p.beta, p.mu,
      p.router_delay, p.injection_delay, p.ejection_delay, p.promotion_delay, p.wire_lengths, p.startup_per_channel,
      p.channel_queueing, p.replication_lock);
}

// The progress line's name for the run.
std::string progress_name(const Options& o) {
  return o.shard.empty() ? std::string("sweep") : fmt::format("sweep shard {}", o.shard);
}

ExitCode run_planning_sweep(const Options& o) {
  if (o.algorithms.empty() || o.counts.empty()) {
    throw model::SpecError(
        "sweep needs --algorithms and --k (or --backend rtl|model for synthetic traffic with --loads)");
  }
  model::SweepConfig config;
  config.topology = model::Topology::parse(o.topology);
  config.algorithms = o.algorithms;
  config.destination_counts = parse_counts(config.topology, o.counts);
  config.runs = o.runs;
  config.seed = o.seed;
  config.source = parse_source_choice(config.topology, o.source);
  config.length_flits = o.request.length;
  config.ports = sweep_ports(o);
  config.latency = o.request.latency;
  config.threads = o.threads;
  model::check_sweep(config);  // the whole sweep, also in a shard with no K of its own
  if (!o.shard.empty()) {
    if (o.csv_file.empty()) {
      throw model::SpecError("--shard needs --csv FILE: the shard's rows go there, for wormcast merge");
    }
    if (o.json || !o.json_file.empty()) {
      throw model::SpecError(
          "--shard writes a shard CSV for wormcast merge; --json and --json-file are for the whole sweep");
    }
  }
  // A point is one K (every algorithm on its samples): its rows depend on (seed, K) alone.
  const Shard shard = o.shard.empty() ? Shard{} : parse_shard(o.shard);
  const std::vector<std::size_t> points = shard.points(config.destination_counts.size());
  model::SweepConfig mine = config;
  mine.destination_counts.clear();
  for (const std::size_t p : points) mine.destination_counts.push_back(config.destination_counts[p]);
  Progress progress(progress_name(o), points.size());
  model::SweepResult result{mine, {}};
  if (!points.empty()) result = model::run_sweep(mine, [&progress] { progress.point_done(); });
  if (o.json) {
    print_json(sweep_to_json(result));
  } else {
    fmt::print("{}", render_sweep_table(result));
  }
  if (!o.shard.empty()) {
    std::vector<std::pair<std::size_t, std::string>> rows;
    for (std::size_t i = 0; i < result.rows.size(); ++i) {
      rows.emplace_back(points[i / config.algorithms.size()], sweep_csv_row(result.rows[i]));
    }
    write_file(o.csv_file, shard_csv(shard, sweep_id(describe(config)), config.destination_counts.size(),
                                     sweep_csv_header(), rows));
    return ExitCode::kSuccess;
  }
  if (!o.csv_file.empty()) write_file(o.csv_file, sweep_to_csv(result));
  if (!o.json_file.empty()) write_file(o.json_file, sweep_to_json(result).dump(2) + "\n");
  return ExitCode::kSuccess;
}

// What decides a traffic sweep's rows, as text: its identity in the shard files.
std::string describe(const TrafficSweepConfig& c) {
  const TrafficConfig& b = c.base;
  return fmt::format(
      "traffic sweep; backend {}; topology {}; loads {}; k {}; base k {}; length {}; multicast fraction {}; routing "
      "{}; warmup {}; measure {}; drain limit {}; watchdog {}; seed {}",
      backend_name(c.backend), b.topology, fmt::join(c.loads, ","), fmt::join(c.destination_counts, ","),
      b.destinations, b.length, b.multicast_fraction, b.routing, b.warmup, b.measure, b.drain_limit, b.watchdog,
      b.seed);
}

ExitCode run_traffic_sweep_command(const Options& o) {
  TrafficSweepConfig config;
  config.backend = parse_backend(o.backend);  // the valid names, before anything runs
  config.base = o.traffic;
  config.base.topology = o.topology;
  config.base.length = o.request.length;
  config.base.seed = o.seed;
  config.loads = parse_loads(o.loads);
  if (!o.counts.empty()) config.destination_counts = parse_counts(model::Topology::parse(o.topology), o.counts);
  const Shard shard = o.shard.empty() ? Shard{} : parse_shard(o.shard);
  // Every point is valid, the plot script there and the folder made before the first point runs: a
  // long sweep does not fail at its end. A shard draws no plots: they come from the merged CSV.
  const std::size_t total = traffic_sweep_points(config).size();
  const std::filesystem::path script = o.shard.empty() ? plot_script() : std::filesystem::path();
  const std::string out = o.out.empty() ? "sweep-" + o.backend : o.out;
  std::filesystem::create_directories(out);
  const std::vector<std::size_t> points = shard.points(total);
  Progress progress(progress_name(o), points.size());
  const std::vector<TrafficResult> results = run_traffic_sweep(config, shard, &progress);
  if (!o.shard.empty()) {
    std::vector<std::pair<std::size_t, std::string>> rows;
    for (std::size_t i = 0; i < results.size(); ++i) {
      std::string row = traffic_csv_row(results[i]);
      row.pop_back();  // its newline
      rows.emplace_back(points[i], row);
    }
    std::string header = traffic_csv_header();
    header.pop_back();
    const std::string csv_file = fmt::format("{}/shard-{}-of-{}.csv", out, shard.index, shard.count);
    write_file(csv_file, shard_csv(shard, sweep_id(describe(config)), total, header, rows));
    fmt::print("wrote {} (wormcast merge puts the shards together into sweep.csv)\n", csv_file);
    return ExitCode::kSuccess;
  }
  std::string csv = traffic_csv_header();
  for (const TrafficResult& r : results) csv += traffic_csv_row(r);
  const std::string csv_file = out + "/sweep.csv";
  write_file(csv_file, csv);
  fmt::print("wrote {}\n", csv_file);
  draw_plots(script, csv_file, out);
  return ExitCode::kSuccess;
}

// One line per row: what the CSV holds, for a reader.
std::string render_multicast_rows(const MulticastSweepConfig& config, const std::vector<MulticastSweepRow>& rows) {
  std::string text =
      fmt::format("{:<16} {:>5} {:>4} {:>5} {:>10} {:>7} {:>10} {:>7} {:>10} {:>9} {:>6} {:>6}\n", "algorithm", "K",
                  "L", "runs", "RTL mean", "max", "model mean", "max", "analytic", "max", "steps", "hops");
  const bool rtl = config.backend == Backend::kRtl;
  for (const MulticastSweepRow& r : rows) {
    text += fmt::format("{:<16} {:>5} {:>4} {:>5} {:>10} {:>7} {:>10.1f} {:>7} {:>10.1f} {:>9.0f} {:>6.2f} {:>6.1f}\n",
                        r.algorithm, r.k, r.length, r.runs, rtl ? fmt::format("{:.1f}", r.mean_rtl) : "-",
                        rtl ? fmt::format("{}", r.max_rtl) : "-", r.mean_model, r.max_model, r.mean_analytic,
                        r.max_analytic, r.mean_steps, r.mean_max_hops);
  }
  return text;
}

ExitCode run_multicast_sweep_command(const Options& o) {
  if (o.counts.empty()) throw model::SpecError("the multicast sweep (--backend with --algorithms) needs --k");
  MulticastSweepConfig config;
  config.backend = parse_backend(o.backend);  // the valid names, before anything runs
  config.topology = model::Topology::parse(o.topology);
  config.algorithms = o.algorithms;
  config.destination_counts = parse_counts(config.topology, o.counts);
  config.lengths = o.lengths.empty() ? std::vector<int>{o.request.length} : o.lengths;
  config.runs = o.runs;
  config.seed = o.seed;
  config.source = parse_source_choice(config.topology, o.source);
  config.ports = sweep_ports(o);
  config.harness = harness_options(o.algorithms.front(), o.request, 0.0, o.seed);
  check_multicast_sweep(config);  // the whole sweep, also in a shard with no point of its own
  if (!o.shard.empty() && o.csv_file.empty()) {
    throw model::SpecError("--shard needs --csv FILE: the shard's rows go there, for wormcast merge");
  }
  const Shard shard = o.shard.empty() ? Shard{} : parse_shard(o.shard);
  const std::size_t total = multicast_sweep_points(config).size();
  const std::vector<std::size_t> points = shard.points(total);
  Progress progress(progress_name(o), points.size());
  const std::vector<MulticastSweepRow> rows = run_multicast_sweep(config, shard, &progress);
  fmt::print("{}", render_multicast_rows(config, rows));
  if (o.csv_file.empty()) return ExitCode::kSuccess;
  if (o.shard.empty()) {
    std::string csv = multicast_csv_header();
    for (const MulticastSweepRow& r : rows) csv += multicast_csv_row(config, r);
    write_file(o.csv_file, csv);
    return ExitCode::kSuccess;
  }
  std::vector<std::pair<std::size_t, std::string>> shard_rows;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    std::string row = multicast_csv_row(config, rows[i]);
    row.pop_back();  // its newline
    shard_rows.emplace_back(points[i / config.algorithms.size()], row);
  }
  std::string header = multicast_csv_header();
  header.pop_back();
  write_file(o.csv_file, shard_csv(shard, sweep_id(describe(config)), total, header, shard_rows));
  return ExitCode::kSuccess;
}

// One line per row: what the CSV holds, for a reader.
std::string render_load_rows(const std::vector<LoadSweepRow>& rows) {
  std::string text =
      fmt::format("{:<12} {:>5} {:>9} {:>7} {:>9} {:>9} {:>8} {:>8} {:>8} {:>9} {:>10}\n", "algorithm", "K", "rate",
                  "ratio", "measured", "mean", "ci95", "p95", "max", "zero-load", "saturated");
  for (const LoadSweepRow& r : rows) {
    const auto ci = r.spread.ci95_half_width;
    text += fmt::format("{:<12} {:>5} {:>9} {:>7.3f} {:>9} {:>9} {:>8} {:>8} {:>8} {:>9.1f} {:>10}\n", r.algorithm, r.k,
                        r.rate, r.ratio, r.measured, r.finished ? fmt::format("{:.1f}", r.mean_latency) : "-",
                        ci ? fmt::format("{:.1f}", *ci) : "-", r.finished ? std::to_string(r.p95_latency) : "-",
                        r.finished ? std::to_string(r.max_latency) : "-", r.mean_analytic,
                        r.saturated ? r.saturation : "no");
  }
  return text;
}

// The load sweep's phase lengths: the ones given, else its own defaults (LoadSweepConfig), which are
// longer than the traffic sweep's: a multicast takes thousands of cycles.
long phase_or_default(const CLI::Option* option, long given, long fallback) {
  return option->count() > 0 ? given : fallback;
}

ExitCode run_load_sweep_command(const Options& o, const std::vector<CLI::Option*>& phases) {
  if (o.counts.empty()) throw model::SpecError("the load sweep (--backend with --algorithms and --rates) needs --k");
  LoadSweepConfig config;
  config.backend = parse_backend(o.backend);  // the valid names, before anything runs
  config.topology = model::Topology::parse(o.topology);
  config.algorithms = o.algorithms;
  config.destination_counts = parse_counts(config.topology, o.counts);
  config.rates = parse_rates(o.rates);
  config.length = o.request.length;
  config.unicast_load = o.unicast_load;
  config.warmup = phase_or_default(phases[0], o.traffic.warmup, config.warmup);
  config.measure = phase_or_default(phases[1], o.traffic.measure, config.measure);
  config.drain_limit = phase_or_default(phases[2], o.traffic.drain_limit, config.drain_limit);
  config.seed = o.seed;
  config.ports = sweep_ports(o);
  config.harness = harness_options(o.algorithms.front(), o.request, 0.0, o.seed);
  check_load_sweep(config);  // the whole sweep, also in a shard with no point of its own
  if (!o.shard.empty() && o.csv_file.empty()) {
    throw model::SpecError("--shard needs --csv FILE: the shard's rows go there, for wormcast merge");
  }
  const Shard shard = o.shard.empty() ? Shard{} : parse_shard(o.shard);
  const std::size_t total = load_sweep_points(config).size();
  const std::vector<std::size_t> points = shard.points(total);
  Progress progress(progress_name(o), points.size());
  const std::vector<LoadSweepRow> rows = run_load_sweep(config, shard, &progress);
  fmt::print("{}", render_load_rows(rows));
  if (o.csv_file.empty()) return ExitCode::kSuccess;
  if (o.shard.empty()) {
    std::string csv = load_csv_header();
    for (const LoadSweepRow& r : rows) csv += load_csv_row(config, r);
    write_file(o.csv_file, csv);
    return ExitCode::kSuccess;
  }
  std::vector<std::pair<std::size_t, std::string>> shard_rows;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    std::string row = load_csv_row(config, rows[i]);
    row.pop_back();  // its newline
    shard_rows.emplace_back(points[i / config.algorithms.size()], row);
  }
  std::string header = load_csv_header();
  header.pop_back();
  write_file(o.csv_file, shard_csv(shard, sweep_id(describe(config)), total, header, shard_rows));
  return ExitCode::kSuccess;
}

// Options given that have no effect on the chosen sweep: refused, naming the first and why.
void refuse_given(const std::vector<CLI::Option*>& options, const std::string& why) {
  for (const CLI::Option* option : options) {
    if (option->count() > 0) throw model::SpecError(fmt::format("{} {}", option->get_name(), why));
  }
}

}  // namespace

Command add_sweep(CLI::App& app) {
  auto o = std::make_shared<Options>();
  CLI::App* command = app.add_subcommand(
      "sweep",
      "Plan random requests for several K and algorithms; aggregate (--backend: synthetic traffic; --backend with "
      "--algorithms: the multicasts run on the routers)");
  command->add_option("-t,--topology", o->topology, "topology spec")->required();
  // Every sweep takes -t, -k, -L and --seed. The planning sweep (no --backend) and the multicast
  // sweep (--backend and --algorithms) share the request options; what has no effect on the chosen
  // sweep is refused when it runs (refuse_given), naming the option.
  CLI::Option* algorithms =
      command
          ->add_option("-a,--algorithms", o->algorithms,
                       "comma-separated algorithm names (with --backend: the multicast sweep on the routers)")
          ->delimiter(',');
  command->add_option("-k,--k", o->counts, "comma-separated destination counts K ('all' = N-1)")->delimiter(',');
  std::vector<CLI::Option*> requests = {
      algorithms, command->add_option("-n,--runs", o->runs, "random samples per K")->capture_default_str()};
  command->add_option("--seed", o->seed, "seed of the sample generator (traffic: of the traffic)")
      ->capture_default_str()
      ->check(seed_value());
  requests.push_back(command->add_option("-s,--source", o->source, "origin, random, or a node")->capture_default_str());
  const std::vector<CLI::Option*> request_options = o->request.add_to(*command, LatencyOptions::kAll);
  // -p, --alpha and --gamma also run the firmware; --beta, --mu and --router-delay are the planner's
  // (the routers have their own flit, hop and control-field timing).
  requests.insert(requests.end(), request_options.begin(), request_options.begin() + 3);
  std::vector<CLI::Option*> planning_only(request_options.begin() + 3, request_options.end());
  planning_only.push_back(command
                              ->add_option("-j,--threads", o->threads,
                                           "threads planning the K values in parallel (0: one per hardware thread; "
                                           "same numbers either way)")
                              ->capture_default_str());
  requests.push_back(command->add_option("--csv", o->csv_file, "write the rows as CSV to this file"));
  planning_only.push_back(
      command->add_option("--json-file", o->json_file, "write the configuration and rows as JSON to this file"));
  planning_only.push_back(
      command->add_flag("--json", o->json, "print the configuration and rows as JSON (not the table)"));
  command->add_option("--shard", o->shard,
                      "run shard i of n (0-based): the points p with p mod n = i, into a shard file for wormcast merge "
                      "(planning and multicast: --csv FILE; traffic: <out>/shard-i-of-n.csv, no plots)");
  CLI::Option* length = command->get_option("--length");
  const std::vector<CLI::Option*> multicast_only = {
      command
          ->add_option("--lengths", o->lengths,
                       "multicast sweep: comma-separated message lengths L (a point per (K, L); instead of -L)")
          ->delimiter(',')
          ->excludes(length)};

  // Synthetic traffic on a router network (sim/traffic_sweep.hpp): --backend selects it, and with
  // --algorithms the multicast sweep (sim/multicast_sweep.hpp).
  TrafficConfig& traffic = o->traffic;
  CLI::Option* backend = command->add_option(
      "--backend", o->backend,
      "run on the routers instead of planning: " + backend_names() +
          "; synthetic traffic, or with --algorithms random multicasts through the node firmware (there rtl runs "
          "the RTL and the timing model side by side)");
  const std::vector<CLI::Option*> traffic_only = {
      command->add_option("--loads", o->loads, "traffic: offered loads, 0.05,0.1 or start:stop:step (flits/node/cycle)")
          ->delimiter(','),
      command
          ->add_option("--multicast-fraction", traffic.multicast_fraction,
                       "traffic: fraction of packets that are dual-path multicasts to K destinations")
          ->capture_default_str(),
      command->add_option("--routing", traffic.routing, "traffic: " + traffic_routings())->capture_default_str(),
      command->add_option("-o,--out", o->out,
                          "traffic: output folder for sweep.csv and the plots (default sweep-<backend>)")};
  // The phases of the traffic sweep and of the load sweep (each with its own defaults).
  const std::vector<CLI::Option*> phases = {
      command->add_option("--warmup", traffic.warmup,
                          "traffic and --rates: warm-up cycles, not measured (default: traffic 1000, --rates 5000)"),
      command->add_option("--measure", traffic.measure,
                          "traffic and --rates: measurement cycles (default: traffic 2000, --rates 20000)"),
      command->add_option("--drain-limit", traffic.drain_limit,
                          "traffic and --rates: most cycles after the measurement before a point is saturated "
                          "(default: traffic 20000, --rates 50000)")};
  // Multicasts under load (sim/multicast_load.hpp): --backend, --algorithms and --rates.
  const std::vector<CLI::Option*> load_only = {
      command
          ->add_option("--rates", o->rates,
                       "load sweep (with --backend and --algorithms): multicasts each node starts per cycle, a "
                       "Poisson process; 0.0002,0.0004 or start:stop:step")
          ->delimiter(','),
      command
          ->add_option("--unicast-load", o->unicast_load,
                       "load sweep: background unicasts to random nodes, flits per node per cycle (0: none)")
          ->capture_default_str()};
  for (CLI::Option* option : traffic_only) option->needs(backend);
  for (CLI::Option* option : phases) option->needs(backend);
  for (CLI::Option* option : multicast_only) option->needs(backend);
  for (CLI::Option* option : load_only) option->needs(backend);
  return {command, [o, requests, planning_only, multicast_only, traffic_only, phases, load_only] {
            if (o->backend.empty()) return run_planning_sweep(*o);
            if (o->algorithms.empty()) {
              const std::string why =
                  "has no effect on the traffic sweep (--backend without --algorithms); with --backend, give "
                  "--algorithms for the multicast sweep";
              refuse_given(requests, why);
              refuse_given(planning_only, why);
              refuse_given(multicast_only, "is for the multicast sweep (--backend with --algorithms)");
              refuse_given(load_only, "is for the load sweep (--backend with --algorithms and --rates)");
              return run_traffic_sweep_command(*o);
            }
            refuse_given(planning_only,
                         "has no effect on the multicast sweep (--backend with --algorithms): the routers have their "
                         "own flit, hop and control-field timing; it takes -L or --lengths, -p, --alpha, --gamma, "
                         "--csv and --shard");
            if (!o->rates.empty()) {
              refuse_given(planning_only,
                           "has no effect on the load sweep (--backend with --algorithms and --rates): the routers "
                           "have their own flit, hop and control-field timing");
              refuse_given(traffic_only, "is for the traffic sweep (--backend without --algorithms)");
              refuse_given(multicast_only, "is for the multicast sweep; the load sweep takes one length, -L");
              refuse_given({requests[1], requests[2]},
                           "has no effect on the load sweep: every node is a source, of as many multicasts as its "
                           "Poisson process starts");
              return run_load_sweep_command(*o, phases);
            }
            refuse_given(traffic_only,
                         "is for the traffic sweep (--backend without --algorithms); the multicast sweep runs "
                         "one multicast at a time");
            refuse_given(phases,
                         "is for the traffic sweep or the load sweep (--rates); the multicast sweep runs one "
                         "multicast at a time");
            refuse_given(load_only, "is for the load sweep (--backend with --algorithms and --rates)");
            return run_multicast_sweep_command(*o);
          }};
}

}  // namespace wormcast::sim::commands
