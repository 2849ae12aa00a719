// SPDX-License-Identifier: Apache-2.0
#include "sim/multicast_load.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <tuple>
#include <unordered_map>

#include "model/errors.hpp"
#include "model/planner.hpp"
#include "model/sweep.hpp"
#include "model/unicast_multicast.hpp"
#include "model/wire_length.hpp"
#include "sim/compare.hpp"
#include "sim/firmware_algorithms.hpp"
#include "sim/plan_views.hpp"
#include "sim/scoreboard.hpp"

namespace wormcast::sim {
namespace {

using model::NodeId;

// The generators' streams: each node has its own of each kind, so a node's arrivals do not depend
// on the network's other nodes or on the other kind.
enum class Stream : std::uint64_t { kMulticastTimes = 1, kMulticastDestinations, kUnicastTimes, kUnicastDestinations };

std::uint64_t mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

std::uint64_t stream_seed(std::uint64_t seed, NodeId node, Stream stream) {
  return mix(mix(mix(seed) ^ static_cast<std::uint64_t>(stream)) ^ static_cast<std::uint64_t>(node));
}

// A unit-rate exponential draw: -ln(1 - u), u uniform in [0, 1) from 53 bits of the engine (the
// std distributions may differ between standard libraries).
double unit_exponential(std::mt19937_64& engine) {
  const double u = static_cast<double>(engine() >> 11) * 0x1.0p-53;
  return -std::log1p(-u);
}

// The start cycles of a Poisson process of `rate` per cycle over [0, end): the floors of its
// arrival times. Stops after `cap` + 1 starts (more than a run takes).
std::vector<long> poisson_starts(std::uint64_t seed, double rate, long end, std::size_t cap) {
  std::mt19937_64 engine(seed);
  std::vector<long> starts;
  double t = 0;
  while (starts.size() <= cap) {
    t += unit_exponential(engine) / rate;
    if (!(t < static_cast<double>(end))) break;
    starts.push_back(static_cast<long>(std::floor(t)));
  }
  return starts;
}

double parse_rate_number(const std::string& text, const std::string& whole) {
  std::size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size()) {
    throw model::SpecError(
        fmt::format("rate '{}' is not a number; give rates in multicasts per node per cycle, "
                    "e.g. 0.0002,0.0004 or 0.0001:0.0005:0.0001",
                    whole));
  }
  return value;
}

void check_rate(double rate) {
  if (!(rate > 0 && rate <= kMaxGenerationRate)) {
    throw model::SpecError(
        fmt::format("rate {} is not in (0, {}] multicasts per node per cycle", rate, kMaxGenerationRate));
  }
}

// The command that reruns one point of the sweep.
std::string rerun_command(const LoadSweepConfig& c, const std::string& algorithm, const LoadSweepPoint& p) {
  return fmt::format(
      "wormcast sweep --backend {} -t {} -a {} -p {} -k {} --rates {} -L {} --unicast-load {} --warmup {} --measure "
      "{} --drain-limit {} --seed {} --alpha {} --gamma {}",
      backend_name(c.backend), c.topology.spec(), algorithm, c.ports.name(), p.k, p.rate, c.length, c.unicast_load,
      c.warmup, c.measure, c.drain_limit, c.seed, c.harness.alpha, c.harness.gamma);
}

[[noreturn]] void fail(const LoadSweepConfig& c, const std::string& algorithm, const LoadSweepPoint& p,
                       const std::string& what) {
  throw MulticastLoadError(fmt::format("load point {} K = {}, rate {}: {}; rerun it with: {}", algorithm, p.k, p.rate,
                                       what, rerun_command(c, algorithm, p)));
}

long max_cycles(const LoadSweepConfig& c) { return c.warmup + c.measure + c.drain_limit; }

RunRecord run_on(const LoadSweepConfig& c, const LoadArrivals& a, Backend backend) {
  RunOptions options = c.harness;
  options.backend = backend;
  options.trace = nullptr;
  options.max_cycles = max_cycles(c);
  return run_multicasts(a.requests, options, a.start_cycles);
}

const char* backend_label(Backend b) { return b == Backend::kRtl ? "RTL" : "timing model"; }

// The scoreboard's check of one run: the whole run when it drained; when it stopped at the drain
// limit (its one error), every message that finished against its plan. Returns whether it drained.
bool check(const LoadSweepConfig& c, const std::string& algorithm, const LoadSweepPoint& p,
           const std::vector<model::Plan>& plans, const RunRecord& record, Backend backend) {
  const bool undrained = record.cycles >= max_cycles(c) && record.errors.size() == 1 && !record.stalled;
  if (!undrained) {
    const std::string verdict = check_run(plans, record);
    if (!verdict.empty()) {
      fail(c, algorithm, p,
           fmt::format("the run on the {} does not match its plans: {}", backend_label(backend), verdict));
    }
    return true;
  }
  const std::vector<std::string> verdicts = check_each_multicast(plans, record);
  for (std::size_t i = 0; i < verdicts.size(); ++i) {
    if (!verdicts[i].empty() && verdicts[i] != record.errors.front()) {
      fail(c, algorithm, p,
           fmt::format("message {} on the {} does not match its plan: {}", i, backend_label(backend), verdicts[i]));
    }
  }
  return false;
}

// Per message, its destinations' delivery cycles in request order (-1: none), as delivery_cycles
// reads them (the last delivery of a (message, node) pair), from one pass over the deliveries.
std::vector<std::vector<long>> all_delivery_cycles(const std::vector<model::Plan>& plans, const RunRecord& record) {
  std::unordered_map<std::uint64_t, long> cycle_of;
  for (const Delivery& d : record.deliveries) {
    cycle_of[(static_cast<std::uint64_t>(d.multicast) << 32) | static_cast<std::uint32_t>(d.node)] = d.cycle;
  }
  std::vector<std::vector<long>> cycles;
  for (std::size_t i = 0; i < plans.size(); ++i) {
    std::vector<long> mine;
    for (const NodeId node : plans[i].request.destinations) {
      const auto it = cycle_of.find((static_cast<std::uint64_t>(i) << 32) | static_cast<std::uint32_t>(node));
      mine.push_back(it == cycle_of.end() ? -1 : it->second);
    }
    cycles.push_back(std::move(mine));
  }
  return cycles;
}

LoadSweepRow run_row(const LoadSweepConfig& c, const std::string& algorithm, const LoadSweepPoint& p) {
  const LoadArrivals a = load_arrivals(c, algorithm, p);
  std::vector<model::Plan> plans;
  plans.reserve(a.requests.size());
  for (const model::Request& r : a.requests) plans.push_back(model::plan(r));
  const RunRecord model_record = run_on(c, a, Backend::kModel);
  const bool drained = check(c, algorithm, p, plans, model_record, Backend::kModel);
  const std::vector<std::vector<long>> cycles = all_delivery_cycles(plans, model_record);
  if (c.backend == Backend::kRtl) {
    const RunRecord rtl_record = run_on(c, a, Backend::kRtl);
    check(c, algorithm, p, plans, rtl_record, Backend::kRtl);
    const std::vector<std::vector<long>> rtl_cycles = all_delivery_cycles(plans, rtl_record);
    for (std::size_t i = 0; i < plans.size(); ++i) {
      for (std::size_t j = 0; j < cycles[i].size(); ++j) {
        if (rtl_cycles[i][j] != cycles[i][j]) {
          fail(c, algorithm, p,
               fmt::format("message {} (from {}, started in cycle {}): the RTL delivers {} in cycle {}, the timing "
                           "model in cycle {}",
                           i, c.topology.node_name(plans[i].request.source), a.start_cycles[i],
                           c.topology.node_name(plans[i].request.destinations[j]), rtl_cycles[i][j], cycles[i][j]));
        }
      }
    }
    if (rtl_record.cycles != model_record.cycles) {
      fail(c, algorithm, p,
           fmt::format("the RTL's run ends in cycle {}, the timing model's in cycle {}", rtl_record.cycles,
                       model_record.cycles));
    }
  }

  LoadSweepRow row;
  row.algorithm = algorithm;
  row.k = p.k;
  row.rate = p.rate;
  row.ratio = p.rate * p.k * static_cast<double>(c.harness.alpha + c.harness.gamma);
  row.cycles = model_record.cycles;
  const long window_end = c.warmup + c.measure;
  std::vector<double> latencies, analytic;
  long owed = 0;
  for (std::size_t i = 0; i < plans.size(); ++i) {
    const long start = a.start_cycles[i];
    const bool in_window = start >= c.warmup && start < window_end;
    if (in_window) owed += static_cast<long>(cycles[i].size());
    if (!a.is_multicast[i]) {
      ++row.unicasts;
      continue;
    }
    ++row.multicasts;
    if (!in_window) continue;
    ++row.measured;
    const std::vector<double> zero_load = analytic_delivery_cycles(plans[i], c.harness.alpha, c.harness.gamma);
    analytic.push_back(*std::max_element(zero_load.begin(), zero_load.end()));
    if (std::find(cycles[i].begin(), cycles[i].end(), -1) != cycles[i].end()) {
      ++row.unfinished;
      continue;
    }
    latencies.push_back(static_cast<double>(*std::max_element(cycles[i].begin(), cycles[i].end()) - start));
  }
  long delivered = 0;
  for (const Delivery& d : model_record.deliveries) delivered += d.cycle >= c.warmup && d.cycle < window_end ? 1 : 0;
  row.delivered_fraction = owed == 0 ? 1.0 : static_cast<double>(delivered) / static_cast<double>(owed);
  if (!analytic.empty()) row.mean_analytic = model::estimate_mean(analytic).mean;
  if (!latencies.empty()) {
    row.finished = true;
    const model::MeanEstimate e = model::estimate_mean(latencies);
    row.mean_latency = e.mean;
    row.spread = e.spread;
    std::sort(latencies.begin(), latencies.end());
    // The nearest rank: the smallest latency that at least 95 % of the measured ones do not exceed.
    const auto rank = static_cast<std::size_t>(std::ceil(0.95 * static_cast<double>(latencies.size())));
    row.p95_latency = static_cast<long>(latencies[std::max<std::size_t>(rank, 1) - 1]);
    row.max_latency = static_cast<long>(latencies.back());
  }
  if (!drained) {
    row.saturated = true;
    row.saturation = "drain";
  } else if (row.delivered_fraction < 0.9) {
    row.saturated = true;
    row.saturation = "throughput";
  }
  return row;
}

// The messages one run of `rate` starts (no more than kMaxLoadMessages + 1 counted): the
// arrivals' count without their requests.
std::size_t message_count(const LoadSweepConfig& c, double rate) {
  const long end = c.warmup + c.measure;
  const double unicast_rate = c.unicast_load / static_cast<double>(unicast_flits(c));
  std::size_t count = 0;
  for (NodeId n = 0; n < c.topology.node_count() && count <= kMaxLoadMessages; ++n) {
    count +=
        poisson_starts(stream_seed(c.seed, n, Stream::kMulticastTimes), rate, end, kMaxLoadMessages - count).size();
    if (unicast_rate > 0 && count <= kMaxLoadMessages) {
      count +=
          poisson_starts(stream_seed(c.seed, n, Stream::kUnicastTimes), unicast_rate, end, kMaxLoadMessages - count)
              .size();
    }
  }
  return count;
}

// An empty cell for a value a row does not have.
std::string cell(bool has, const std::string& text) { return has ? text : std::string(); }

}  // namespace

std::vector<double> parse_rates(const std::vector<std::string>& texts) {
  std::vector<double> rates;
  for (const std::string& text : texts) {
    const std::size_t c1 = text.find(':');
    if (c1 == std::string::npos) {
      rates.push_back(parse_rate_number(text, text));
      check_rate(rates.back());
      continue;
    }
    const std::size_t c2 = text.find(':', c1 + 1);
    if (c2 == std::string::npos) throw model::SpecError(fmt::format("rate range '{}' needs start:stop:step", text));
    const double start = parse_rate_number(text.substr(0, c1), text);
    const double stop = parse_rate_number(text.substr(c1 + 1, c2 - c1 - 1), text);
    const double step = parse_rate_number(text.substr(c2 + 1), text);
    if (!(step > 0) || !(stop >= start)) {
      throw model::SpecError(fmt::format("rate range '{}': step must be > 0 and stop >= start", text));
    }
    check_rate(start);
    check_rate(stop);
    // Counted, not accumulated, and rounded to 1e-12, so that 0.0001:0.0003:0.0001 ends at 0.0003.
    const long count = std::lround(std::floor((stop - start) / step + 1e-9)) + 1;
    if (count > 1000) {
      throw model::SpecError(fmt::format("rate range '{}' has {} points; at most 1000", text, count));
    }
    for (long i = 0; i < count; ++i) {
      rates.push_back(std::round((start + static_cast<double>(i) * step) * 1e12) / 1e12);
    }
  }
  if (rates.empty()) throw model::SpecError("no rate given; give --rates 0.0002,0.0004 or a range start:stop:step");
  return rates;
}

std::vector<LoadSweepPoint> load_sweep_points(const LoadSweepConfig& config) {
  std::vector<LoadSweepPoint> points;
  for (const int k : config.destination_counts) {
    for (const double rate : config.rates) points.push_back({k, rate});
  }
  return points;
}

int unicast_flits(const LoadSweepConfig& c) {
  const NodeId other = c.topology.node_count() > 1 ? 1 : 0;
  const model::Plan plan = model::plan(
      model::make_request(c.topology, model::kUnicastAlgorithm, 0, {other}, c.length, model::PortModel::one_port()));
  return model::wire_lengths(plan.request, plan.worms).front().flits();
}

LoadArrivals load_arrivals(const LoadSweepConfig& c, const std::string& algorithm, const LoadSweepPoint& p) {
  struct Message {
    long start;
    NodeId node;
    int kind;  // 0: a multicast, 1: a unicast (after the node's multicast of the same cycle)
    model::Request request;
  };
  std::vector<Message> messages;
  const long end = c.warmup + c.measure;
  const double unicast_rate = c.unicast_load / static_cast<double>(unicast_flits(c));
  for (NodeId n = 0; n < c.topology.node_count(); ++n) {
    const std::vector<long> starts =
        poisson_starts(stream_seed(c.seed, n, Stream::kMulticastTimes), p.rate, end, kMaxLoadMessages);
    if (!starts.empty()) {
      const std::vector<model::Sample> samples =
          model::draw_samples(c.topology, model::SourceChoice::fixed(n), p.k, static_cast<int>(starts.size()),
                              stream_seed(c.seed, n, Stream::kMulticastDestinations));
      for (std::size_t i = 0; i < starts.size(); ++i) {
        messages.push_back({starts[i], n, 0,
                            model::make_request(c.topology, algorithm, n, samples[i].destinations, c.length, c.ports)});
      }
    }
    if (!(unicast_rate > 0)) continue;
    const std::vector<long> unicasts =
        poisson_starts(stream_seed(c.seed, n, Stream::kUnicastTimes), unicast_rate, end, kMaxLoadMessages);
    if (unicasts.empty()) continue;
    const std::vector<model::Sample> targets =
        model::draw_samples(c.topology, model::SourceChoice::fixed(n), 1, static_cast<int>(unicasts.size()),
                            stream_seed(c.seed, n, Stream::kUnicastDestinations));
    for (std::size_t i = 0; i < unicasts.size(); ++i) {
      messages.push_back({unicasts[i], n, 1,
                          model::make_request(c.topology, model::kUnicastAlgorithm, n, targets[i].destinations,
                                              c.length, model::PortModel::one_port())});
    }
  }
  std::stable_sort(messages.begin(), messages.end(), [](const Message& a, const Message& b) {
    return std::tie(a.start, a.node, a.kind) < std::tie(b.start, b.node, b.kind);
  });
  LoadArrivals arrivals;
  for (Message& m : messages) {
    arrivals.start_cycles.push_back(m.start);
    arrivals.is_multicast.push_back(m.kind == 0);
    arrivals.requests.push_back(std::move(m.request));
  }
  return arrivals;
}

void check_load_sweep(const LoadSweepConfig& c) {
  if (c.algorithms.empty() || c.destination_counts.empty() || c.rates.empty()) {
    throw model::SpecError("the load sweep needs at least one algorithm (--algorithms), K (--k) and rate (--rates)");
  }
  for (const double rate : c.rates) check_rate(rate);
  if (!(c.unicast_load >= 0 && c.unicast_load <= kMaxUnicastLoad)) {
    throw model::SpecError(
        fmt::format("--unicast-load {} is not in [0, {}] flits per node per cycle", c.unicast_load, kMaxUnicastLoad));
  }
  for (const auto& [name, value, least] :
       {std::tuple{"--warmup", c.warmup, 0L}, {"--measure", c.measure, 1L}, {"--drain-limit", c.drain_limit, 1L}}) {
    if (value < least || value > kMaxLoadPhaseCycles) {
      throw model::SpecError(fmt::format("{} {} is not in {}..{} cycles", name, value, least, kMaxLoadPhaseCycles));
    }
  }
  if (c.length < 1) throw model::SpecError(fmt::format("-L {} is not at least 1 data word", c.length));
  for (const std::string& algorithm : c.algorithms) {
    model::algorithm_info(algorithm);  // an unknown name: the registry's error lists the valid ones
    if (!firmware_supports(algorithm)) throw model::UnsupportedError(no_firmware_message(algorithm));
  }
  // The sampler checks K, the planner the request (L, port model, a broadcast's K), one request per
  // K and algorithm; the generators the run's size, at the highest rate.
  const double top_rate = *std::max_element(c.rates.begin(), c.rates.end());
  for (const int k : c.destination_counts) {
    const model::Sample s = model::draw_samples(c.topology, model::SourceChoice::random(), k, 1, c.seed).front();
    for (const std::string& algorithm : c.algorithms) {
      model::plan(model::make_request(c.topology, algorithm, s.source, s.destinations, c.length, c.ports));
    }
    if (message_count(c, top_rate) > kMaxLoadMessages) {
      throw model::SpecError(
          fmt::format("rate {} with --unicast-load {} starts more than {} messages in {} cycles on {} nodes, more "
                      "than one run takes; lower the rate or the load, or shorten --warmup/--measure",
                      top_rate, c.unicast_load, kMaxLoadMessages, c.warmup + c.measure, c.topology.node_count()));
    }
  }
}

std::vector<LoadSweepRow> run_load_sweep(const LoadSweepConfig& config, const Shard& shard, Progress* progress) {
  check_load_sweep(config);
  const std::vector<LoadSweepPoint> points = load_sweep_points(config);
  std::vector<LoadSweepRow> rows;
  for (const std::size_t p : shard.points(points.size())) {
    for (const std::string& algorithm : config.algorithms) rows.push_back(run_row(config, algorithm, points[p]));
    if (progress != nullptr) progress->point_done();
  }
  return rows;
}

std::string describe(const LoadSweepConfig& c) {
  return fmt::format(
      "load sweep; backend {}; topology {}; algorithms {}; k {}; rates {}; length {}; unicast load {}; warmup {}; "
      "measure {}; drain limit {}; seed {}; ports {}; alpha {}; gamma {}",
      backend_name(c.backend), c.topology.spec(), fmt::join(c.algorithms, ","), fmt::join(c.destination_counts, ","),
      fmt::join(c.rates, ","), c.length, c.unicast_load, c.warmup, c.measure, c.drain_limit, c.seed, c.ports.name(),
      c.harness.alpha, c.harness.gamma);
}

std::string load_csv_header() {
  return "backend,topology,algorithm,ports,k,length,alpha,gamma,rate,ratio,unicast_load,warmup,measure,drain_limit,"
         "seed,multicasts,unicasts,measured,unfinished,mean_latency,sd_latency,ci95_latency,p95_latency,max_latency,"
         "mean_analytic,delivered_fraction,saturated,saturation,cycles\n";
}

std::string load_csv_row(const LoadSweepConfig& c, const LoadSweepRow& r) {
  return fmt::format("{},{},{},{},{},{},{},{},{},{:.4f},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{:.4f},{},{},{}\n",
                     backend_name(c.backend), c.topology.spec(), r.algorithm, c.ports.name(), r.k, c.length,
                     c.harness.alpha, c.harness.gamma, r.rate, r.ratio, c.unicast_load, c.warmup, c.measure,
                     c.drain_limit, c.seed, r.multicasts, r.unicasts, r.measured, r.unfinished,
                     cell(r.finished, fmt::format("{:.2f}", r.mean_latency)), spread_csv_cells(r.spread),
                     cell(r.finished, std::to_string(r.p95_latency)), cell(r.finished, std::to_string(r.max_latency)),
                     cell(r.measured > 0, fmt::format("{:.2f}", r.mean_analytic)), r.delivered_fraction,
                     r.saturated ? 1 : 0, r.saturation, r.cycles);
}

}  // namespace wormcast::sim
