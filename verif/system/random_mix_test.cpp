// SPDX-License-Identifier: Apache-2.0
// Random mixes (docs/run.md, "Random mixes"): several sources at once of every algorithm the
// firmware runs on a topology, unicasts in the background, random start cycles, ejection stalls and
// late credits on the network links (sim/random_mix.hpp), run on the RTL and on the timing model;
// every request must pass the scoreboard (each destination served exactly once, every worm as its
// plan says) with no watchdog, and both backends must deliver in the same cycles. `make regress` runs more of them:
// longer by WORMCAST_REGRESS_SCALE, other seeds by WORMCAST_REGRESS_SEED (cycle_budget, verif/system/ regress.hpp). A
// failing mix prints its seed, writes its request file and prints the `wormcast run --requests` command that reruns it.
#include "sim/random_mix.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "firmware/fw_config.hpp"
#include "model/cpr_broadcast.hpp"
#include "model/errors.hpp"
#include "model/path_multicast.hpp"
#include "model/planner.hpp"
#include "model/tree_multicast.hpp"
#include "model/unicast_multicast.hpp"
#include "model/vc_class_plan.hpp"
#include "sim/commands/request_file.hpp"
#include "sim/multicast_run.hpp"
#include "sim/scoreboard.hpp"
#include "verif/system/regress.hpp"
#include "verif/system/run_record_queries.hpp"

namespace wormcast::verif {
namespace {

// The VC-class plan the RTL and firmware implement (model/vc_class_plan.hpp).
constexpr const char* kBuiltPlan = "shipped";

// Network cycles each backend runs per topology: `make test` (scale 1) this many, about 2 minutes
// for the suite on the shared 2-core machine; `make regress` (scale s > 1) s times
// kRegressCyclesPerScale, 10^6 at its default scale of 20.
constexpr long kTestCycles = 20'000;
constexpr long kRegressCyclesPerScale = 50'000;
long cycle_budget() { return regress().scale == 1 ? kTestCycles : kRegressCyclesPerScale * regress().scale; }

std::vector<model::Plan> plans_of(const sim::RandomMix& mix) {
  std::vector<model::Plan> plans;
  for (const model::Request& r : mix.requests) plans.push_back(model::plan(r));
  return plans;
}

// The mix's request file in the test's temporary folder, and what reruns it and why it failed.
std::string failure_report(const sim::RandomMix& mix, sim::Backend backend, const std::vector<model::Plan>& plans,
                           const sim::RunRecord& record, const std::vector<std::string>& checks) {
  const model::Topology& t = mix.requests.front().topology;
  std::string name = fmt::format("random_mix_{}_{}.json", t.spec(), mix.seed);
  std::replace(name.begin(), name.end(), ':', '-');
  const std::string path = (std::filesystem::path(testing::TempDir()) / name).string();
  const std::string file = sim::mix_request_file(mix);
  std::ofstream(path) << file;
  std::string report =
      fmt::format("random mix seed {} on {} ({}): {} requests, {} cycles{}\nrerun: {}\nrequest file ({}):\n{}",
                  mix.seed, t.spec(), sim::backend_name(backend), mix.requests.size(), record.cycles,
                  record.stalled ? ", stalled" : "", sim::mix_command(mix, path, backend), path, file);
  // Each failure once, with the requests it failed (a stopped run fails every unfinished request
  // with the same error).
  std::vector<std::pair<std::string, std::string>> failures;  // check, requests
  for (std::size_t i = 0; i < checks.size(); ++i) {
    if (checks[i].empty()) continue;
    const auto same =
        std::find_if(failures.begin(), failures.end(), [&](const auto& f) { return f.first == checks[i]; });
    const std::string request =
        fmt::format("{} ({} from {})", i, plans[i].request.algorithm, t.node_name(plans[i].request.source));
    if (same == failures.end()) {
      failures.emplace_back(checks[i], request);
    } else {
      same->second += ", " + request;
    }
  }
  for (const auto& [check, requests] : failures) report += fmt::format("requests {}: {}\n", requests, check);
  return report + "run: " + sim::check_run(plans, record);
}

struct Totals {
  long cycles = 0;
  long worms = 0;
  long deliveries = 0;
};

// Runs random mixes of `algorithms` (empty: every one the firmware runs) on `spec`, each on both
// backends, until each backend has run the cycle budget; expects every request to pass and both
// backends to deliver alike. Prints the cycles run and worms delivered per backend.
void run_mixes(const std::string& spec, const std::vector<std::string>& algorithms, std::uint64_t seed) {
  const model::Topology t = model::Topology::parse(spec);
  const long budget = cycle_budget();
  std::mt19937_64 seeds = seeded(seed);
  sim::MixOptions options;
  options.algorithms = algorithms;
  Totals totals[2];
  int mixes = 0, delayed = 0;  // delayed: mixes with late credits on the network links
  while (totals[0].cycles < budget || totals[1].cycles < budget) {
    const sim::RandomMix mix = sim::random_mix(t, seeds(), options);
    const std::vector<model::Plan> plans = plans_of(mix);
    std::vector<sim::RunRecord> records;
    for (const sim::Backend backend : {sim::Backend::kRtl, sim::Backend::kModel}) {
      sim::RunOptions o = mix.options;
      o.backend = backend;
      records.push_back(sim::run_multicasts(mix.requests, o, mix.start_cycles));
      const sim::RunRecord& record = records.back();
      const std::vector<std::string> checks = sim::check_each_multicast(plans, record);
      if (record.stalled || !sim::check_run(plans, record).empty()) {
        ADD_FAILURE() << failure_report(mix, backend, plans, record, checks);
        return;
      }
      Totals& total = totals[records.size() - 1];
      total.cycles += record.cycles;
      total.deliveries += static_cast<long>(record.deliveries.size());
      total.worms += std::count_if(record.worms.begin(), record.worms.end(),
                                   [](const sim::ObservedWorm& w) { return w.ejected_at != model::kNoNode; });
    }
    // The timing model follows the RTL cycle for cycle (docs/timing.md), under a mix too.
    if (deliveries(records[0]) != deliveries(records[1]) || records[0].cycles != records[1].cycles) {
      ADD_FAILURE() << "the RTL and the timing model deliver differently\n"
                    << failure_report(mix, sim::Backend::kModel, plans, records[1],
                                      std::vector<std::string>(plans.size()));
      return;
    }
    ++mixes;
    delayed += mix.options.credit_delay > 0 ? 1 : 0;
  }
  const auto line = [](const char* name, const Totals& x) {
    return fmt::format("{} {} cycles, {} worms delivered, {} deliveries", name, x.cycles, x.worms, x.deliveries);
  };
  fmt::print("random mixes on {} ({} algorithms, seed {}): {} mixes, {} with late credits; {}; {}\n", spec,
             algorithms.empty() ? sim::mix_algorithms(t).size() : algorithms.size(), seed + regress().seed, mixes,
             delayed, line("rtl", totals[0]), line("model", totals[1]));
  std::fflush(stdout);
  EXPECT_GE(totals[0].cycles, budget);
  EXPECT_GT(totals[0].worms, 0);
  EXPECT_GT(delayed, 0);
}

// --- The generator -------------------------------------------------------------------------------

TEST(RandomMixGenerator, TheSameSeedGivesTheSameMixAndAnotherSeedAnother) {
  const model::Topology t = model::Topology::parse("torus:4x4");
  const sim::RandomMix a = sim::random_mix(t, 5);
  const sim::RandomMix b = sim::random_mix(t, 5);
  const sim::RandomMix c = sim::random_mix(t, 6);
  EXPECT_EQ(a.requests, b.requests);
  EXPECT_EQ(a.start_cycles, b.start_cycles);
  EXPECT_EQ(a.options.eject_stall, b.options.eject_stall);
  EXPECT_EQ(a.options.credit_delay, b.options.credit_delay);
  EXPECT_NE(a.requests, c.requests);
  EXPECT_EQ(sim::mix_request_file(a), sim::mix_request_file(b));
}

// Every algorithm the firmware runs on mesh:8x8, `size` times each from distinct sources, with its
// own port model, broadcasts to every other node; then node_count * size / 2 single-destination
// unicasts; start cycles in the window; a stall probability of 0, 0.1, ..., 0.5; a credit delay of
// 0..4 cycles.
TEST(RandomMixGenerator, EveryAlgorithmFromSeveralSourcesThenBackgroundUnicasts) {
  const model::Topology t = model::Topology::parse("mesh:8x8");
  sim::MixOptions o;
  o.size = 3;
  const std::vector<std::string> algorithms = sim::mix_algorithms(t);
  ASSERT_EQ(algorithms, model::firmware_algorithms(t));
  EXPECT_EQ(algorithms.size(), 17u);
  std::set<double> stalls;
  std::set<int> delays;
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    const sim::RandomMix mix = sim::random_mix(t, seed, o);
    const std::size_t multicasts = algorithms.size() * 3;
    ASSERT_EQ(mix.requests.size(), multicasts + 96);
    ASSERT_EQ(mix.start_cycles.size(), mix.requests.size());
    for (std::size_t a = 0; a < algorithms.size(); ++a) {
      const model::AlgorithmInfo& info = model::algorithm_info(algorithms[a]);
      std::set<model::NodeId> sources;
      for (std::size_t i = 3 * a; i < 3 * a + 3; ++i) {
        const model::Request& r = mix.requests[i];
        EXPECT_EQ(r.algorithm, algorithms[a]);
        EXPECT_EQ(r.ports, info.default_ports) << r.algorithm;
        if (info.broadcast) {
          EXPECT_EQ(r.destinations.size(), 63u) << r.algorithm;
        }
        EXPECT_LE(r.length_flits, o.max_length);
        sources.insert(r.source);
      }
      EXPECT_EQ(sources.size(), 3u) << algorithms[a];
    }
    for (std::size_t i = multicasts; i < mix.requests.size(); ++i) {
      EXPECT_EQ(mix.requests[i].algorithm, model::kUnicastAlgorithm);
      EXPECT_EQ(mix.requests[i].destinations.size(), 1u);
    }
    for (const long start : mix.start_cycles) {
      EXPECT_GE(start, 0);
      EXPECT_LT(start, o.window_cycles_per_request * static_cast<long>(mix.requests.size()));
    }
    EXPECT_EQ(mix.options.seed, seed);
    stalls.insert(mix.options.eject_stall);
    delays.insert(mix.options.credit_delay);
  }
  EXPECT_GE(delays.size(), 3u);
  for (const int d : delays) EXPECT_TRUE(d >= 0 && d <= 4) << d;
  EXPECT_GE(stalls.size(), 3u);
  for (const double s : stalls) EXPECT_TRUE(s >= 0.0 && s <= 0.5 + 1e-9) << s;
}

// Star graphs run only the cycle-routed algorithms: the background unicasts are fixed's, with one
// destination each.
TEST(RandomMixGenerator, StarGraphBackgroundUnicastsRideTheCycle) {
  const model::Topology t = model::Topology::parse("star:4");
  EXPECT_EQ(sim::mix_algorithms(t),
            (std::vector<std::string>{model::kFixedDualPathAlgorithm, model::kHpDualPathAlgorithm,
                                      model::kUniformDualPathAlgorithm}));
  const sim::RandomMix mix = sim::random_mix(t, 3);
  ASSERT_EQ(mix.requests.size(), 6u + 24u);  // 2 multicasts per algorithm, then one unicast per node
  for (std::size_t i = 6; i < mix.requests.size(); ++i) {
    EXPECT_EQ(mix.requests[i].algorithm, model::kFixedDualPathAlgorithm);
    EXPECT_EQ(mix.requests[i].destinations.size(), 1u);
  }
}

// The request file reads back (as `wormcast run --requests` reads it) into the same requests and
// start cycles, broadcasts written as "all" and d-port's port count as a number.
TEST(RandomMixGenerator, TheRequestFileReadsBackAsTheSameRequests) {
  for (const char* spec : {"mesh:8x8", "mesh:4x4x4", "star:5"}) {
    const model::Topology t = model::Topology::parse(spec);
    const sim::RandomMix mix = sim::random_mix(t, 11);
    const std::string path = (std::filesystem::path(testing::TempDir()) / "random_mix_round_trip.json").string();
    std::ofstream(path) << sim::mix_request_file(mix);
    sim::commands::RequestOptions defaults;
    defaults.latency.alpha = static_cast<double>(mix.options.alpha);
    defaults.latency.gamma = static_cast<double>(mix.options.gamma);
    const std::vector<sim::commands::FileRequest> read =
        sim::commands::read_request_file(path, t, defaults, 1, sim::RunOptions{}.max_cycles - 1);
    ASSERT_EQ(read.size(), mix.requests.size()) << spec;
    for (std::size_t i = 0; i < read.size(); ++i) {
      EXPECT_EQ(read[i].request, mix.requests[i]) << spec << " entry " << i;
      EXPECT_EQ(read[i].start_cycle, mix.start_cycles[i]) << spec << " entry " << i;
    }
    EXPECT_NE(
        sim::mix_command(mix, path, sim::Backend::kModel)
            .find(fmt::format("--backend model --alpha 20 --gamma 10 --eject-stall {} --credit-delay {} --seed 11",
                              mix.options.eject_stall, mix.options.credit_delay)),
        std::string::npos);
  }
}

TEST(RandomMixGenerator, BadOptionsAreNamed) {
  const model::Topology t = model::Topology::parse("torus:4x4");
  sim::MixOptions o;
  o.size = 0;
  EXPECT_THROW(
      {
        try {
          sim::random_mix(t, 1, o);
        } catch (const model::RequestError& e) {
          EXPECT_STREQ(e.what(), "mix size 0 must be at least 1");
          throw;
        }
      },
      model::RequestError);
  o = {};
  o.algorithms = {model::kPcpAlgorithm};
  try {
    sim::random_mix(t, 1, o);
    FAIL() << "pcp on a torus was accepted";
  } catch (const model::UnsupportedError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("the firmware does not run pcp on torus:4x4; it runs: d-port, dds,", 0), 0u)
        << e.what();
  }
  o.algorithms = {"dual_path"};
  EXPECT_THROW(sim::random_mix(t, 1, o), model::SpecError);
  o = {};
  o.max_length = static_cast<int>(fw::kMaxDataWords) + 1;  // 257 with the shipped fw_config.hpp
  try {
    sim::random_mix(t, 1, o);
    FAIL() << "a length beyond the firmware's data words was accepted";
  } catch (const model::RequestError& e) {
    EXPECT_EQ(std::string(e.what()),
              fmt::format("maximum length {} is not in 1..{} flits (the firmware's maximum message; raise "
                          "WORMCAST_FW_MAX_DATA_WORDS, firmware/fw_config.hpp)",
                          fw::kMaxDataWords + 1, fw::kMaxDataWords));
  }
  o = {};
  o.max_credit_delay = sim::kMaxCreditDelay + 1;
  try {
    sim::random_mix(t, 1, o);
    FAIL() << "a credit delay beyond the limit was accepted";
  } catch (const model::RequestError& e) {
    EXPECT_EQ(std::string(e.what()), fmt::format("maximum credit delay {} is not in 0..{} cycles",
                                                 sim::kMaxCreditDelay + 1, sim::kMaxCreditDelay));
  }
}

// Under the shipped VC-class plan every algorithm is in the subset on every network of the suite;
// under the old single-class VCs, mesh:8x8 keeps the Hamiltonian-path algorithms and the trees
// (which MixedRun runs together there) and leaves out the ones whose worms closed the cycles.
TEST(RandomMixGenerator, TheShippedPlanKeepsEveryAlgorithmTheSingleClassOneLeavesOutTheCyclicOnes) {
  for (const char* spec : {"mesh:8x8", "torus:4x4", "mesh:4x4x4", "star:4", "star:5"}) {
    const model::Topology t = model::Topology::parse(spec);
    EXPECT_EQ(sim::acyclic_mix_algorithms(t, kBuiltPlan), sim::mix_algorithms(t)) << spec;
  }
  const model::Topology t = model::Topology::parse("mesh:8x8");
  const std::vector<std::string> chosen = sim::acyclic_mix_algorithms(t, "single-class");
  for (const char* a : {model::kUnicastAlgorithm, model::kOnePortAlgorithm, model::kTwoPortAlgorithm,
                        model::kDPortAlgorithm, model::kLinAlgorithm, model::kDualPathAlgorithm, model::kVhAlgorithm,
                        model::kDdsAlgorithm, model::kDiagAlgorithm, model::kMinAlgorithm}) {
    EXPECT_NE(std::find(chosen.begin(), chosen.end(), a), chosen.end()) << a;
  }
  EXPECT_LT(chosen.size(), sim::mix_algorithms(t).size());
}

// --- Mixed runs on both backends -------------------------------------------------------------------

TEST(RandomMix, EveryAlgorithmOnTheFourByFourTorusDeliversEverythingOnceOnBothBackends) {
  run_mixes("torus:4x4", {}, 1201);
}

TEST(RandomMix, EveryAlgorithmOnTheFourByFourByFourMeshDeliversEverythingOnceOnBothBackends) {
  run_mixes("mesh:4x4x4", {}, 1202);
}

TEST(RandomMix, EveryAlgorithmOnTheFourStarDeliversEverythingOnceOnBothBackends) { run_mixes("star:4", {}, 1203); }

TEST(RandomMix, EveryAlgorithmOnTheFiveStarDeliversEverythingOnceOnBothBackends) { run_mixes("star:5", {}, 1204); }

// Every algorithm the firmware runs on mesh:8x8, which the shipped VC-class plan proves
// deadlock-free together (`wormcast deadlock -t mesh:8x8 --mixed`), PCP under the replication lock.
TEST(RandomMix, EveryAlgorithmOnTheEightByEightMeshDeliversEverythingOnceOnBothBackends) {
  run_mixes("mesh:8x8", {}, 1205);
}

}  // namespace
}  // namespace wormcast::verif
