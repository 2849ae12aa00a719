// SPDX-License-Identifier: Apache-2.0
// The multicast-latency sweep (sim/multicast_sweep.hpp, `wormcast sweep --backend rtl|model
// --algorithms`): its rows against single runs of the same requests, the RTL and the timing model
// side by side, the same rows sharded and merged, and a run off its plan stopping the sweep.
// Small networks and few runs: a few seconds.
#include "sim/multicast_sweep.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "model/broadcast_baselines.hpp"
#include "model/errors.hpp"
#include "model/path_multicast.hpp"
#include "model/planner.hpp"
#include "model/unicast_multicast.hpp"
#include "sim/scoreboard.hpp"
#include "sim/shard.hpp"

namespace wormcast::verif {
namespace {

using sim::MulticastSweepConfig;
using sim::MulticastSweepRow;

MulticastSweepConfig small_sweep() {
  MulticastSweepConfig c;
  c.topology = model::Topology::mesh({4, 4});
  c.algorithms = {model::kDualPathAlgorithm, model::kTwoPortAlgorithm};
  c.destination_counts = {3, 9};
  c.lengths = {4, 12};
  c.runs = 3;
  c.seed = 7;
  c.source = model::SourceChoice::random();
  c.ports = model::PortModel::two_port();
  c.harness.alpha = 9;
  c.harness.gamma = 4;
  return c;
}

std::string csv_of(const MulticastSweepConfig& c, const std::vector<MulticastSweepRow>& rows) {
  std::string csv = sim::multicast_csv_header();
  for (const MulticastSweepRow& r : rows) csv += sim::multicast_csv_row(c, r);
  return csv;
}

// The last delivery of one request run alone on the RTL: what the sweep averages.
long rtl_latency(const MulticastSweepConfig& c, const std::string& algorithm, const model::Sample& s, int length) {
  const model::Plan plan =
      model::plan(model::make_request(c.topology, algorithm, s.source, s.destinations, length, c.ports));
  const sim::RunRecord record = sim::run_multicasts({plan.request}, c.harness);
  EXPECT_EQ(sim::check_run({plan}, record), "");
  const std::vector<long> cycles = sim::delivery_cycles(plan, 0, record);
  return *std::max_element(cycles.begin(), cycles.end());
}

TEST(MulticastSweep, RowsAreTheMeanAndMaxOfTheSameRequestsRunAlone) {
  const MulticastSweepConfig c = small_sweep();
  const std::vector<MulticastSweepRow> rows = sim::run_multicast_sweep(c);
  ASSERT_EQ(rows.size(), 8u);  // (K, L) K-major, the algorithms in order
  EXPECT_EQ(rows[0].algorithm, model::kDualPathAlgorithm);
  EXPECT_EQ(rows[1].algorithm, model::kTwoPortAlgorithm);
  EXPECT_EQ(rows[2].length, 12);
  EXPECT_EQ(rows[4].k, 9);
  // The first row again by hand: the sweep's samples of K = 3, each run alone on the RTL.
  long sum = 0, most = 0;
  for (const model::Sample& s : model::draw_samples(c.topology, c.source, 3, c.runs, c.seed)) {
    const long latency = rtl_latency(c, model::kDualPathAlgorithm, s, 4);
    sum += latency;
    most = std::max(most, latency);
  }
  EXPECT_DOUBLE_EQ(rows[0].mean_rtl, static_cast<double>(sum) / c.runs);
  EXPECT_EQ(rows[0].max_rtl, most);
  for (const MulticastSweepRow& r : rows) {
    EXPECT_EQ(r.runs, 3);
    EXPECT_DOUBLE_EQ(r.mean_model, r.mean_rtl) << r.algorithm << " K " << r.k;  // a lockstep mirror
    EXPECT_EQ(r.max_model, r.max_rtl);
    EXPECT_GE(static_cast<double>(r.max_rtl), r.mean_rtl);
    EXPECT_GT(r.mean_analytic, 0.0);
    EXPECT_GE(r.mean_steps, 1.0);
  }
  // A longer message takes longer, by at least the extra flits, on the same requests.
  EXPECT_GE(rows[2].mean_rtl, rows[0].mean_rtl + 8);
  // Two-port's unicasts take more steps than dual-path's one-step worms.
  EXPECT_DOUBLE_EQ(rows[4].mean_steps, 1.0);
  EXPECT_GT(rows[5].mean_steps, 1.0);
}

TEST(MulticastSweep, ModelBackendLeavesTheRtlColumnsEmpty) {
  MulticastSweepConfig c = small_sweep();
  c.destination_counts = {3};
  c.lengths = {4};
  c.backend = sim::Backend::kModel;
  const std::vector<MulticastSweepRow> rows = sim::run_multicast_sweep(c);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(sim::multicast_csv_row(c, rows[0]).rfind("model,mesh:4x4,dual-path,two-port,random,3,4,9,4,3,,,", 0), 0u)
      << sim::multicast_csv_row(c, rows[0]);
  // The spreads: the RTL's (sd_rtl, ci95_rtl: cells 19, 20) empty as well, the timing model's
  // there; dual-path is one step every time, so sd_steps and ci95_steps (25, 26) are 0.
  std::string line = sim::multicast_csv_row(c, rows[0]);
  line.pop_back();
  std::vector<std::string> cells(1);
  for (const char ch : line) {
    if (ch == ',') {
      cells.emplace_back();
    } else {
      cells.back().push_back(ch);
    }
  }
  ASSERT_EQ(cells.size(), 31u) << line;
  EXPECT_EQ(cells[19], "");
  EXPECT_EQ(cells[20], "");
  EXPECT_NE(cells[21], "");
  EXPECT_EQ(cells[25], "0");
  EXPECT_EQ(cells[26], "0");
}

TEST(MulticastSweep, ShardsMergeIntoTheUnshardedCsv) {
  MulticastSweepConfig c = small_sweep();
  c.backend = sim::Backend::kModel;
  const std::string whole = csv_of(c, sim::run_multicast_sweep(c));
  std::string header = sim::multicast_csv_header();
  header.pop_back();
  std::vector<std::pair<std::string, std::string>> files;
  for (int i = 2; i >= 0; --i) {  // reversed: merge restores the order
    const sim::Shard shard{i, 3};
    const std::vector<std::size_t> points = shard.points(sim::multicast_sweep_points(c).size());
    const std::vector<MulticastSweepRow> rows = sim::run_multicast_sweep(c, shard);
    std::vector<std::pair<std::size_t, std::string>> numbered;
    for (std::size_t r = 0; r < rows.size(); ++r) {
      std::string row = sim::multicast_csv_row(c, rows[r]);
      row.pop_back();
      numbered.emplace_back(points[r / c.algorithms.size()], row);
    }
    files.emplace_back("shard" + std::to_string(i),
                       sim::shard_csv(shard, sim::sweep_id(sim::describe(c)), 4, header, numbered));
  }
  EXPECT_EQ(sim::merge_shard_csvs(files), whole);
}

// A broadcast of dual-path from (0,0): every other node is a destination.
MulticastSweepConfig one_broadcast() {
  MulticastSweepConfig c = small_sweep();
  c.source = model::SourceChoice::fixed(0);
  c.destination_counts = {15};
  c.lengths = {4};
  c.runs = 1;
  c.algorithms = {model::kDualPathAlgorithm};
  return c;
}

// The message of the MulticastSweepError the sweep throws ("" when it throws none).
std::string sweep_failure(const MulticastSweepConfig& c) {
  try {
    sim::run_multicast_sweep(c);
  } catch (const sim::MulticastSweepError& e) {
    return e.what();
  }
  return "";
}

TEST(MulticastSweep, ARunOffItsPlanStopsTheSweepNamingTheRequest) {
  MulticastSweepConfig c = one_broadcast();
  // Every worm ejected at (1,1) arrives with a damaged tail: the scoreboard must refuse the run.
  c.harness.corrupt_tail_at = c.topology.parse_node("1,1");
  const std::string what = sweep_failure(c);
  EXPECT_NE(what.find("sweep point K = 15, L = 4: dual-path from 0,0: the run on the timing model does not match "
                      "its plan"),
            std::string::npos)
      << what;
  EXPECT_NE(what.find("rerun it with: wormcast compare -t mesh:4x4 -a dual-path -p two-port -s 0,0 -d "),
            std::string::npos)
      << what;
}

TEST(MulticastSweep, TheRtlAndTheModelApartStopsTheSweep) {
  MulticastSweepConfig c = one_broadcast();
  // The model's router at the source holds back its first switch grant one cycle; the RTL does not.
  c.harness.perturb_model_at = 0;
  const std::string what = sweep_failure(c);
  EXPECT_NE(what.find("the RTL delivers "), std::string::npos) << what;
  EXPECT_NE(what.find(", the timing model in cycle "), std::string::npos) << what;
  // On the model alone there is nothing to compare with, and the run matches its plan.
  c.backend = sim::Backend::kModel;
  EXPECT_EQ(sweep_failure(c), "");
}

TEST(MulticastSweep, BadConfigurationsAreRefusedBeforeAnyRun) {
  MulticastSweepConfig c = small_sweep();
  c.runs = 0;
  EXPECT_THROW(sim::check_multicast_sweep(c), model::SpecError);
  c = small_sweep();
  c.algorithms = {model::kDualPathAlgorithm, "three-port"};
  EXPECT_THROW(sim::check_multicast_sweep(c), model::SpecError);
  c = small_sweep();
  c.destination_counts = {3, 16};  // K beyond N - 1 = 15, late in the list
  EXPECT_THROW(sim::check_multicast_sweep(c), model::ModelError);
  c = small_sweep();
  c.algorithms = {model::kRecursiveDoublingAlgorithm};  // a broadcast, with K < N - 1
  c.ports = model::PortModel::one_port();
  EXPECT_THROW(sim::check_multicast_sweep(c), model::ModelError);
}

}  // namespace
}  // namespace wormcast::verif
