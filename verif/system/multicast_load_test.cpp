// SPDX-License-Identifier: Apache-2.0
// Multicasts under load (sim/multicast_load.hpp, `wormcast sweep --backend rtl|model --algorithms
// --rates`): the rate parsing, the Poisson arrivals, a low rate at the zero-load value, the RTL
// and the timing model identical at a loaded point, latency rising with the rate, saturation
// reported rather than failed, the firmware's job limit holding multicasts back without losing
// any, and a run off its plans or the RTL and the model apart stopping the sweep. A 4x4 mesh with
// short start-ups: a few seconds.
#include "sim/multicast_load.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "firmware/fw_config.hpp"
#include "model/cpr_broadcast.hpp"
#include "model/errors.hpp"
#include "model/planner.hpp"
#include "model/unicast_multicast.hpp"
#include "sim/scoreboard.hpp"
#include "sim/shard.hpp"

namespace wormcast::verif {
namespace {

using sim::LoadSweepConfig;
using sim::LoadSweepRow;

LoadSweepConfig small_load() {
  LoadSweepConfig c;
  c.topology = model::Topology::mesh({4, 4});
  c.algorithms = {model::kOnePortAlgorithm};
  c.destination_counts = {5};
  c.rates = {0.0005};
  c.length = 8;
  c.warmup = 1000;
  c.measure = 5000;
  c.drain_limit = 20000;
  c.seed = 3;
  c.ports = model::PortModel::one_port();
  c.backend = sim::Backend::kModel;
  c.harness.alpha = 50;
  c.harness.gamma = 50;
  return c;
}

// The SpecError's message parse_rates throws for `texts` ("" for none).
std::string rate_error(const std::vector<std::string>& texts) {
  try {
    sim::parse_rates(texts);
  } catch (const model::SpecError& e) {
    return e.what();
  }
  return "";
}

TEST(MulticastLoad, RatesParseListsAndRangesAndRefuseBadValuesNamingThem) {
  EXPECT_EQ(sim::parse_rates({"0.0002", "0.0004"}), (std::vector<double>{0.0002, 0.0004}));
  // A range includes its stop, exactly.
  EXPECT_EQ(sim::parse_rates({"0.0001:0.0003:0.0001"}), (std::vector<double>{0.0001, 0.0002, 0.0003}));
  EXPECT_EQ(sim::parse_rates({"1"}), std::vector<double>{1.0});
  EXPECT_EQ(rate_error({"0.001", "0"}), "rate 0 is not in (0, 1] multicasts per node per cycle");
  EXPECT_EQ(rate_error({"-0.001"}), "rate -0.001 is not in (0, 1] multicasts per node per cycle");
  EXPECT_EQ(rate_error({"1.5"}), "rate 1.5 is not in (0, 1] multicasts per node per cycle");
  EXPECT_EQ(rate_error({"nan"}), "rate nan is not in (0, 1] multicasts per node per cycle");
  EXPECT_NE(rate_error({"0.001x"}).find("rate '0.001x' is not a number"), std::string::npos);
  EXPECT_EQ(rate_error({"0.3:0.1:0.1"}), "rate range '0.3:0.1:0.1': step must be > 0 and stop >= start");
  EXPECT_EQ(rate_error({"0.1:0.3"}), "rate range '0.1:0.3' needs start:stop:step");
  EXPECT_EQ(rate_error({"0:0.3:0.1"}), "rate 0 is not in (0, 1] multicasts per node per cycle");
  EXPECT_EQ(rate_error({}), "no rate given; give --rates 0.0002,0.0004 or a range start:stop:step");
}

TEST(MulticastLoad, ArrivalsArePoissonAtTheRateWithTheSameDestinationsAtEveryRate) {
  LoadSweepConfig c = small_load();
  c.unicast_load = 0.05;
  const long window = c.warmup + c.measure;
  const sim::LoadArrivals low = sim::load_arrivals(c, model::kOnePortAlgorithm, {5, 0.001});
  const sim::LoadArrivals high = sim::load_arrivals(c, model::kOnePortAlgorithm, {5, 0.003});
  // Per node, the multicasts' starts and destinations, and the unicasts'.
  std::map<model::NodeId, std::vector<std::pair<long, std::vector<model::NodeId>>>> low_by_node, high_by_node;
  long unicasts = 0;
  for (const auto* a : {&low, &high}) {
    ASSERT_EQ(a->requests.size(), a->start_cycles.size());
    ASSERT_TRUE(std::is_sorted(a->start_cycles.begin(), a->start_cycles.end()));
    EXPECT_GE(a->start_cycles.front(), 0);
    EXPECT_LT(a->start_cycles.back(), window);
    for (std::size_t i = 0; i < a->requests.size(); ++i) {
      const model::Request& r = a->requests[i];
      if (!a->is_multicast[i]) {
        EXPECT_EQ(r.algorithm, model::kUnicastAlgorithm);
        ASSERT_EQ(r.destinations.size(), 1u);
        EXPECT_NE(r.destinations.front(), r.source);
        unicasts += a == &low ? 1 : 0;
        continue;
      }
      EXPECT_EQ(r.algorithm, model::kOnePortAlgorithm);
      EXPECT_EQ(r.destinations.size(), 5u);
      (a == &low ? low_by_node : high_by_node)[r.source].emplace_back(a->start_cycles[i], r.destinations);
    }
  }
  // The counts are the Poisson means N x rate x window within 4 standard deviations.
  const auto near_mean = [](long count, double mean) { return std::abs(count - mean) < 4 * std::sqrt(mean); };
  long low_count = 0, high_count = 0;
  for (const auto& [node, list] : low_by_node) low_count += static_cast<long>(list.size());
  for (const auto& [node, list] : high_by_node) high_count += static_cast<long>(list.size());
  EXPECT_TRUE(near_mean(low_count, 16 * 0.001 * window)) << low_count;
  EXPECT_TRUE(near_mean(high_count, 16 * 0.003 * window)) << high_count;
  const double unicast_rate = c.unicast_load / sim::unicast_flits(c);
  EXPECT_TRUE(near_mean(unicasts, 16 * unicast_rate * window)) << unicasts;
  EXPECT_EQ(sim::unicast_flits(c), 13);  // head, 3 control words, 1 address word, L = 8
  // The higher rate runs each node's sequence three times as fast: the i-th multicast of a node
  // starts about a third as late and goes to the same destinations.
  for (const auto& [node, list] : low_by_node) {
    const auto& faster = high_by_node[node];
    ASSERT_GE(faster.size(), list.size()) << node;
    for (std::size_t i = 0; i < list.size(); ++i) {
      EXPECT_EQ(faster[i].second, list[i].second) << node << " " << i;
      EXPECT_NEAR(static_cast<double>(faster[i].first), static_cast<double>(list[i].first) / 3.0, 1.0);
    }
  }
  // The same arrivals for every algorithm, and from the same seed again.
  const sim::LoadArrivals other = sim::load_arrivals(c, model::kTwoPortAlgorithm, {5, 0.001});
  EXPECT_EQ(other.start_cycles, low.start_cycles);
  for (std::size_t i = 0; i < other.requests.size(); ++i) {
    EXPECT_EQ(other.requests[i].destinations, low.requests[i].destinations);
  }
  EXPECT_EQ(sim::load_arrivals(c, model::kOnePortAlgorithm, {5, 0.001}).start_cycles, low.start_cycles);
  c.seed = 4;
  EXPECT_NE(sim::load_arrivals(c, model::kOnePortAlgorithm, {5, 0.001}).start_cycles, low.start_cycles);
}

TEST(MulticastLoad, ALowRateMeasuresTheZeroLoadValue) {
  LoadSweepConfig c = small_load();
  c.rates = {0.0001};
  c.measure = 20000;
  const std::vector<LoadSweepRow> rows = sim::run_load_sweep(c);
  ASSERT_EQ(rows.size(), 1u);
  const LoadSweepRow& r = rows.front();
  EXPECT_GT(r.measured, 20);
  EXPECT_EQ(r.unfinished, 0);
  EXPECT_FALSE(r.saturated);
  ASSERT_TRUE(r.finished);
  // Multicasts this rare rarely overlap: the mean is the zero-load value within 2 %.
  EXPECT_NEAR(r.mean_latency, r.mean_analytic, 0.02 * r.mean_analytic);
  EXPECT_GE(static_cast<double>(r.p95_latency), r.mean_latency);
  EXPECT_GE(r.max_latency, r.p95_latency);
  EXPECT_DOUBLE_EQ(r.ratio, 0.0001 * 5 * 100);
  ASSERT_TRUE(r.spread.ci95_half_width.has_value());
}

TEST(MulticastLoad, LatencyRisesWithTheRateUpToSaturation) {
  LoadSweepConfig c = small_load();
  c.rates = {0.0002, 0.0008, 0.0014, 0.002, 0.003};
  const std::vector<LoadSweepRow> rows = sim::run_load_sweep(c);
  ASSERT_EQ(rows.size(), c.rates.size());
  for (std::size_t i = 1; i < rows.size(); ++i) {
    EXPECT_GE(rows[i].mean_latency, rows[i - 1].mean_latency) << "rate " << rows[i].rate;
    EXPECT_GE(rows[i].p95_latency, rows[i - 1].p95_latency) << "rate " << rows[i].rate;
    EXPECT_GT(rows[i].measured, rows[i - 1].measured);
  }
  EXPECT_FALSE(rows.front().saturated);
  EXPECT_GT(rows.back().mean_latency, 3 * rows.front().mean_latency);
  EXPECT_TRUE(rows.back().saturated);  // the one-port node's start-ups are busy 1.5 times over
}

TEST(MulticastLoad, ASaturatedPointIsReportedNotFailed) {
  LoadSweepConfig c = small_load();
  c.rates = {0.003};
  const std::vector<LoadSweepRow> late = sim::run_load_sweep(c);
  ASSERT_EQ(late.size(), 1u);
  // Delivered in time, but far fewer deliveries in the window than it owed.
  EXPECT_TRUE(late[0].saturated);
  EXPECT_EQ(late[0].saturation, "throughput");
  EXPECT_LT(late[0].delivered_fraction, 0.9);
  EXPECT_EQ(late[0].unfinished, 0);
  c.rates = {0.006};
  c.drain_limit = 3000;
  const std::vector<LoadSweepRow> rows = sim::run_load_sweep(c);
  ASSERT_EQ(rows.size(), 1u);
  // Not drained within the limit: the run stops there, its unfinished multicasts counted.
  EXPECT_TRUE(rows[0].saturated);
  EXPECT_EQ(rows[0].saturation, "drain");
  EXPECT_GT(rows[0].unfinished, 0);
  EXPECT_EQ(rows[0].cycles, c.warmup + c.measure + c.drain_limit);
  // Its CSV row says so.
  const std::string line = sim::load_csv_row(c, rows[0]);
  EXPECT_NE(line.find(",1,drain,"), std::string::npos) << line;
}

TEST(MulticastLoad, TheJobLimitHoldsMulticastsAtTheSourceAndLosesNone) {
  LoadSweepConfig c = small_load();
  const sim::LoadArrivals a = sim::load_arrivals(c, model::kOnePortAlgorithm, {5, 0.004});
  std::vector<model::Plan> plans;
  for (const model::Request& r : a.requests) plans.push_back(model::plan(r));
  sim::RunOptions options = c.harness;
  options.backend = sim::Backend::kModel;
  const sim::RunRecord record = sim::run_multicasts(a.requests, options, a.start_cycles);
  ASSERT_EQ(sim::check_run(plans, record), "");
  // Some source had more multicasts of its own outstanding at once than its firmware has jobs
  // (a start that finds every job busy is held by the application, docs/firmware.md, "The job
  // limit"), and the scoreboard above saw every one delivered: none refused or lost.
  std::size_t most = 0;
  for (std::size_t i = 0; i < plans.size(); ++i) {
    std::size_t in_flight = 0;
    for (std::size_t j = 0; j < plans.size(); ++j) {
      if (plans[j].request.source != plans[i].request.source || a.start_cycles[j] > a.start_cycles[i]) continue;
      const std::vector<long> cycles = sim::delivery_cycles(plans[j], static_cast<int>(j), record);
      if (*std::max_element(cycles.begin(), cycles.end()) > a.start_cycles[i]) ++in_flight;
    }
    most = std::max(most, in_flight);
  }
  EXPECT_GT(most, fw::kMaxJobs);
}

TEST(MulticastLoad, TheRtlAndTheModelAgreeAtALoadedPointWithUnicasts) {
  LoadSweepConfig c = small_load();
  c.algorithms = {model::kTwoPortAlgorithm};
  c.ports = model::PortModel::two_port();
  c.rates = {0.0015};
  c.unicast_load = 0.03;
  c.warmup = 500;
  c.measure = 1500;
  c.backend = sim::Backend::kRtl;
  const std::vector<LoadSweepRow> rtl = sim::run_load_sweep(c);
  ASSERT_EQ(rtl.size(), 1u);
  EXPECT_GT(rtl[0].unicasts, 0);
  EXPECT_GT(rtl[0].mean_latency, 1.2 * rtl[0].mean_analytic);  // loaded: well above the zero-load value
  c.backend = sim::Backend::kModel;
  const std::vector<LoadSweepRow> model_rows = sim::run_load_sweep(c);
  EXPECT_EQ(model_rows[0].mean_latency, rtl[0].mean_latency);
  EXPECT_EQ(model_rows[0].p95_latency, rtl[0].p95_latency);
  EXPECT_EQ(model_rows[0].cycles, rtl[0].cycles);
}

TEST(MulticastLoad, TheLockQueueBoundsTheNodesThatStartPcpNotTheBroadcasts) {
  // More PCP broadcasts in one run than the coordinator's queue has entries, from 16 nodes: each
  // node has one request outstanding at a time, so they all run.
  LoadSweepConfig c = small_load();
  c.algorithms = {model::kPcpAlgorithm};
  c.ports = model::PortModel::all_port();
  c.destination_counts = {15};
  c.rates = {0.005};
  c.length = 4;
  c.harness.alpha = 5;
  c.harness.gamma = 5;
  c.warmup = 500;
  c.measure = 3000;
  c.drain_limit = 100000;
  const sim::LoadArrivals a = sim::load_arrivals(c, model::kPcpAlgorithm, {15, 0.005});
  ASSERT_GT(a.requests.size(), fw::kMaxLockQueue);
  const std::vector<LoadSweepRow> rows = sim::run_load_sweep(c);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].unfinished, 0);
  // More nodes starting PCP broadcasts than the queue holds is refused before the run.
  const model::Topology big = model::Topology::mesh({17, 16});
  std::vector<model::Request> requests;
  for (model::NodeId n = 0; n <= static_cast<model::NodeId>(fw::kMaxLockQueue); ++n) {
    std::vector<model::NodeId> others;
    for (model::NodeId d = 0; d < big.node_count(); ++d) {
      if (d != n) others.push_back(d);
    }
    requests.push_back(model::make_request(big, model::kPcpAlgorithm, n, others, 4, model::PortModel::all_port()));
  }
  try {
    sim::run_multicasts(requests, c.harness);
    ADD_FAILURE() << "257 PCP sources ran";
  } catch (const model::UnsupportedError& e) {
    EXPECT_NE(std::string(e.what()).find("257 nodes start PCP broadcasts in one run, more than the replication "
                                         "lock's queue of 256"),
              std::string::npos)
        << e.what();
  }
}

// The message of the MulticastLoadError the sweep throws ("" when it throws none).
std::string load_failure(const LoadSweepConfig& c) {
  try {
    sim::run_load_sweep(c);
  } catch (const sim::MulticastLoadError& e) {
    return e.what();
  }
  return "";
}

TEST(MulticastLoad, TheRtlAndTheModelApartStopsTheSweep) {
  LoadSweepConfig c = small_load();
  c.rates = {0.001};
  c.measure = 2000;
  c.backend = sim::Backend::kRtl;
  // The model's router at (0,0) holds back its first switch grant one cycle; the RTL does not.
  c.harness.perturb_model_at = 0;
  const std::string what = load_failure(c);
  EXPECT_NE(what.find("load point one-port K = 5, rate 0.001: message "), std::string::npos) << what;
  EXPECT_NE(what.find(": the RTL delivers "), std::string::npos) << what;
  EXPECT_NE(what.find("rerun it with: wormcast sweep --backend rtl -t mesh:4x4 -a one-port -p one-port -k 5 "
                      "--rates 0.001 -L 8"),
            std::string::npos)
      << what;
  c.backend = sim::Backend::kModel;
  EXPECT_EQ(load_failure(c), "");
}

TEST(MulticastLoad, ARunOffItsPlansStopsTheSweep) {
  LoadSweepConfig c = small_load();
  c.rates = {0.001};
  c.measure = 2000;
  c.harness.corrupt_tail_at = c.topology.parse_node("1,1");
  const std::string what = load_failure(c);
  EXPECT_NE(what.find("the run on the timing model does not match its plans"), std::string::npos) << what;
}

TEST(MulticastLoad, ShardsMergeIntoTheUnshardedCsv) {
  LoadSweepConfig c = small_load();
  c.destination_counts = {3, 5};
  c.rates = {0.0005, 0.001};
  c.measure = 2000;
  std::string whole = sim::load_csv_header();
  for (const LoadSweepRow& r : sim::run_load_sweep(c)) whole += sim::load_csv_row(c, r);
  std::string header = sim::load_csv_header();
  header.pop_back();
  std::vector<std::pair<std::string, std::string>> files;
  for (int i = 1; i >= 0; --i) {
    const sim::Shard shard{i, 2};
    const std::vector<std::size_t> points = shard.points(4);
    const std::vector<LoadSweepRow> rows = sim::run_load_sweep(c, shard);
    std::vector<std::pair<std::size_t, std::string>> numbered;
    for (std::size_t r = 0; r < rows.size(); ++r) {
      std::string row = sim::load_csv_row(c, rows[r]);
      row.pop_back();
      numbered.emplace_back(points[r], row);
    }
    files.emplace_back("shard" + std::to_string(i),
                       sim::shard_csv(shard, sim::sweep_id(sim::describe(c)), 4, header, numbered));
  }
  EXPECT_EQ(sim::merge_shard_csvs(files), whole);
  // The header and every row have the same cells.
  const auto cells = [](const std::string& line) { return std::count(line.begin(), line.end(), ','); };
  EXPECT_EQ(cells(sim::load_csv_header()), cells(whole.substr(whole.rfind('\n', whole.size() - 2) + 1)));
}

// The SpecError's message check_load_sweep throws for `c` ("" for none).
std::string config_error(const LoadSweepConfig& c) {
  try {
    sim::check_load_sweep(c);
  } catch (const model::ModelError& e) {
    return e.what();
  }
  return "";
}

TEST(MulticastLoad, BadConfigurationsAreRefusedNamingTheValue) {
  EXPECT_EQ(config_error(small_load()), "");
  LoadSweepConfig c = small_load();
  c.unicast_load = -0.1;
  EXPECT_EQ(config_error(c), "--unicast-load -0.1 is not in [0, 1] flits per node per cycle");
  c = small_load();
  c.warmup = -1;
  EXPECT_EQ(config_error(c), "--warmup -1 is not in 0..10000000 cycles");
  c = small_load();
  c.measure = 0;
  EXPECT_EQ(config_error(c), "--measure 0 is not in 1..10000000 cycles");
  c = small_load();
  c.drain_limit = 20'000'000;
  EXPECT_EQ(config_error(c), "--drain-limit 20000000 is not in 1..10000000 cycles");
  c = small_load();
  c.rates = {0.001, 0.0};
  EXPECT_EQ(config_error(c), "rate 0 is not in (0, 1] multicasts per node per cycle");
  c = small_load();
  c.rates = {0.001, 0.8};  // 16 nodes x 0.8 x 6000 cycles: 76,800 multicasts
  EXPECT_NE(config_error(c).find("starts more than 65535 messages in 6000 cycles on 16 nodes"), std::string::npos)
      << config_error(c);
  c = small_load();
  c.destination_counts = {5, 16};  // K beyond N - 1 = 15, late in the list
  EXPECT_NE(config_error(c), "");
  c = small_load();
  c.algorithms = {"three-port"};
  EXPECT_NE(config_error(c).find("unknown algorithm 'three-port'"), std::string::npos) << config_error(c);
}

}  // namespace
}  // namespace wormcast::verif
