// SPDX-License-Identifier: Apache-2.0
// Sharding a sweep (sim/shard.hpp) and the progress lines of long runs (sim/progress.hpp): which
// points a shard runs, the shard file's form, merge's order and its refusals, and what the
// progress lines say. The byte equality of merged and unsharded sweeps, end to end through the
// command line, is Cli.SweepShardsMergeIntoTheUnshardedFile (verif/check_sweep_shards.cmake).
#include "sim/shard.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model/errors.hpp"
#include "sim/progress.hpp"

namespace wormcast::verif {
namespace {

using sim::Shard;

TEST(Shard, ShardsRunEveryPointOnceRoundRobin) {
  EXPECT_EQ(Shard({0, 3}).points(8), (std::vector<std::size_t>{0, 3, 6}));
  EXPECT_EQ(Shard({1, 3}).points(8), (std::vector<std::size_t>{1, 4, 7}));
  EXPECT_EQ(Shard({2, 3}).points(8), (std::vector<std::size_t>{2, 5}));
  EXPECT_EQ(Shard({}).points(3), (std::vector<std::size_t>{0, 1, 2}));  // unsharded: all
  EXPECT_TRUE(Shard({4, 5}).points(3).empty());                         // more shards than points
}

TEST(Shard, ParseTakesZeroBasedIndexOverCount) {
  EXPECT_EQ(sim::parse_shard("0/1"), (Shard{0, 1}));
  EXPECT_EQ(sim::parse_shard("3/4"), (Shard{3, 4}));
}

TEST(Shard, BadShardTextNamesItAndTheValidForm) {
  const auto message = [](const std::string& text) {
    try {
      sim::parse_shard(text);
    } catch (const model::SpecError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message("4/4"), "shard '4/4' does not exist; with n = 4 shards the index i must be in 0..3");
  EXPECT_EQ(message("0/0"), "shard '0/0' does not exist; with n = 0 shards the index i must be in 0..0");
  for (const std::string bad : {"1", "a/4", "-1/4", "1/", "/4", "1/4/2", "1 /4"}) {
    EXPECT_EQ(message(bad),
              "shard '" + bad + "' is not i/n; give the 0-based shard index and the shard count, e.g. 0/4")
        << bad;
  }
}

// A sweep of five points, two rows each, in two shards.
std::vector<std::pair<std::string, std::string>> two_shards(const std::string& id = "0123456789abcdef") {
  const auto rows = [](const std::vector<std::size_t>& points) {
    std::vector<std::pair<std::size_t, std::string>> out;
    for (const std::size_t p : points) {
      out.emplace_back(p, "a," + std::to_string(p));
      out.emplace_back(p, "b," + std::to_string(p));
    }
    return out;
  };
  return {{"s0.csv", sim::shard_csv({0, 2}, id, 5, "name,point", rows({0, 2, 4}))},
          {"s1.csv", sim::shard_csv({1, 2}, id, 5, "name,point", rows({1, 3}))}};
}

TEST(Shard, ShardFileNamesShardAndSweepThenPointColumn) {
  EXPECT_EQ(two_shards()[1].second,
            "# wormcast shard 1/2; sweep 0123456789abcdef; 5 points\npoint,name,point\n1,a,1\n1,b,1\n3,a,3\n3,b,3\n"
            "# end of shard 1/2: 4 rows\n");
}

TEST(Shard, MergeRestoresPointOrderWhateverTheFileOrder) {
  const std::string whole = "name,point\na,0\nb,0\na,1\nb,1\na,2\nb,2\na,3\nb,3\na,4\nb,4\n";
  auto files = two_shards();
  EXPECT_EQ(sim::merge_shard_csvs(files), whole);
  std::swap(files[0], files[1]);
  EXPECT_EQ(sim::merge_shard_csvs(files), whole);
}

std::string merge_error(const std::vector<std::pair<std::string, std::string>>& files) {
  try {
    sim::merge_shard_csvs(files);
  } catch (const model::SpecError& e) {
    return e.what();
  }
  return "no error";
}

TEST(Shard, MergeRefusesAMissingShardNamingIt) {
  EXPECT_EQ(merge_error({two_shards()[1]}),
            "shard 0 of 2 is missing: merge needs all 2 shards of sweep 0123456789abcdef (0..1)");
}

TEST(Shard, MergeRefusesAShardGivenTwice) {
  const auto files = two_shards();
  EXPECT_EQ(merge_error({files[0], files[1], {"copy.csv", files[1].second}}),
            "shard 1/2 is given twice (s1.csv and copy.csv)");
}

TEST(Shard, MergeRefusesShardsOfDifferentSweeps) {
  const auto files = two_shards();
  const auto other = two_shards("fedcba9876543210");
  EXPECT_EQ(merge_error({files[0], other[1]}),
            "s0.csv and s1.csv are shards of different sweeps (sweep 0123456789abcdef in 2 shards of 5 points, sweep "
            "fedcba9876543210 in 2 shards of 5 points); merge the n shards of one sweep, run with the same options "
            "and --shard i/n");
}

TEST(Shard, MergeRefusesAFileThatIsNoShard) {
  EXPECT_EQ(merge_error({{"plain.csv", "name,point\na,0\n"}}),
            "plain.csv is not a shard file: it should start with '# wormcast shard i/n; sweep <id>; <total> points' "
            "and a 'point,...' header, as wormcast sweep --shard writes");
  EXPECT_EQ(merge_error({}), "merge needs the shard files of a sweep (wormcast sweep --shard i/n)");
}

// `text` with `from` (which it holds once) replaced by `to`.
std::string replaced(std::string text, const std::string& from, const std::string& to) {
  return text.replace(text.find(from), from.size(), to);
}

TEST(Shard, MergeRefusesARowOfAnotherShardsPointAndAPointWithoutRows) {
  auto files = two_shards();
  files[1].second = replaced(files[1].second, "# end of shard 1/2: 4 rows", "2,a,2\n# end of shard 1/2: 5 rows");
  EXPECT_EQ(merge_error(files),
            "s1.csv line 7: '2,a,2' is not a row of a point that shard 1/2 runs (points p < 5 with p mod 2 = 1)");
  files = two_shards();
  files[1].second = replaced(files[1].second, "3,a,3\n3,b,3\n# end of shard 1/2: 4 rows", "# end of shard 1/2: 2 rows");
  EXPECT_EQ(merge_error(files), "no row for point 3 of sweep 0123456789abcdef in s1.csv: the shard file is truncated");
}

TEST(Shard, MergeRefusesAShardCutMidRow) {
  auto files = two_shards();
  files[1].second = files[1].second.substr(0, files[1].second.find("3,b,3") + 3);
  EXPECT_EQ(merge_error(files),
            "s1.csv is cut short: its last line '3,b' is not the '# end of shard i/n: <rows> rows' line that wormcast "
            "sweep --shard ends a shard with; run the shard again");
  files = two_shards();
  files[1].second = replaced(files[1].second, "3,b,3\n", "3,b\n");
  EXPECT_EQ(merge_error(files),
            "s1.csv line 6: '3,b' has 2 fields where the header has 3: the row is cut or edited; run the shard again");
}

TEST(Shard, MergeRefusesAShardMissingARow) {
  auto files = two_shards();
  files[1].second = replaced(files[1].second, "3,b,3\n", "");
  EXPECT_EQ(
      merge_error(files),
      "s1.csv ends with '# end of shard 1/2: 4 rows' but holds 3 rows of shard 1/2: a row is missing or added; run "
      "the shard again");
}

TEST(Shard, SweepIdIsTheDescriptionsFnv1aHash) {
  // FNV-1a 64 of "" and "a": the published test values of the hash.
  EXPECT_EQ(sim::sweep_id(""), "cbf29ce484222325");
  EXPECT_EQ(sim::sweep_id("a"), "af63dc4c8601ec8c");
}

// A clock the test moves and a sink that keeps the lines.
struct FakeRun {
  double now = 100;
  std::vector<std::string> lines;
  sim::Progress progress(std::size_t total, double interval) {
    return sim::Progress(
        "sweep", total, interval, [this] { return now; }, [this](const std::string& l) { lines.push_back(l); });
  }
};

TEST(Progress, ShortRunPrintsNothing) {
  FakeRun run;
  sim::Progress p = run.progress(3, 10);
  for (int i = 0; i < 3; ++i) {
    run.now += 1;
    p.point_done();
  }
  EXPECT_TRUE(run.lines.empty());
}

TEST(Progress, LongRunPrintsDoneRateAndTimeLeftEveryIntervalThenTheEnd) {
  FakeRun run;
  sim::Progress p = run.progress(4, 10);
  run.now += 4;  // point 1 after 4 s: within the interval, silent
  p.point_done();
  run.now += 8;  // point 2 after 12 s: 2 points in 12 s, 2 left at 1/6 point/s = 12 s
  p.point_done();
  run.now += 3;  // point 3 after 15 s: 3 s since the last line, silent
  p.point_done();
  run.now += 15;  // point 4 after 30 s: the last, printed since a line was
  p.point_done();
  ASSERT_EQ(run.lines.size(), 2U);
  EXPECT_EQ(run.lines[0], "sweep: 2/4 points (50.0 %), 10.00 points/min, about 12 s left (12 s so far)");
  EXPECT_EQ(run.lines[1], "sweep: 4/4 points (100.0 %), 8.00 points/min, done (30 s so far)");
}

TEST(Progress, FastPointsAreCountedPerSecondAndLongTimesInMinutesAndHours) {
  FakeRun run;
  const sim::Progress p = run.progress(1000, 10);
  EXPECT_EQ(p.line(500, 250),
            "sweep: 500/1000 points (50.0 %), 2.00 points/s, about 4 min 10 s left (4 min 10 s so far)");
  EXPECT_EQ(sim::format_duration(7325), "2 h 02 min");
}

}  // namespace
}  // namespace wormcast::verif
