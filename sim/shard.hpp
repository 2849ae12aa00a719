// SPDX-License-Identifier: Apache-2.0
// Sharding a sweep (`wormcast sweep --shard i/n`, `wormcast merge`; docs/results.md, "Sharding"):
// the sweep's points (the planning sweep's K values, the traffic sweep's (K, load) pairs) are
// numbered in the order the unsharded sweep runs them, and shard i of n runs the points p with
// p mod n = i. Round robin, not blocks, because a sweep's cost grows along its lists (larger K,
// higher load): every shard gets a share of the cheap and of the dear points.
//
// A point's result depends only on the point (its seed comes from the sweep's seed and the point,
// never from the shard that runs it), so the shards' rows, put back in point order, are the
// unsharded sweep's rows byte for byte. A shard file is the unsharded CSV with a first line that
// names the shard and the sweep, and a leading `point` column, so that merge can check it has
// every shard of one sweep and restore the order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace wormcast::sim {

struct Shard {
  int index = 0;  // 0-based, as GTEST_SHARD_INDEX and a Slurm array task id from 0
  int count = 1;
  // The points of a sweep of `total` points this shard runs, in order.
  std::vector<std::size_t> points(std::size_t total) const;
  bool operator==(const Shard&) const = default;
};

// "i/n" with 0 <= i < n; throws model::SpecError naming the bad text and the valid form.
Shard parse_shard(const std::string& text);

// A sweep's identity in its shard files: a 64-bit FNV-1a hash of `description`, the canonical text
// of every option that decides the sweep's results (not the shard, the output paths or the thread
// count), as 16 hex digits.
std::string sweep_id(const std::string& description);

// The shard file of `shard` of the sweep `id` with `total` points: the first line
// `# wormcast shard i/n; sweep <id>; <total> points`, then `point,<header>`, then each row of
// `rows` (point index, one line of the unsharded CSV without its newline), then the end line
// `# end of shard i/n: <R> rows`. `header` is the unsharded CSV's header line without its newline.
std::string shard_csv(const Shard& shard, const std::string& id, std::size_t total, const std::string& header,
                      const std::vector<std::pair<std::size_t, std::string>>& rows);

// The unsharded CSV from the shard files (name, content): every shard of one sweep exactly once,
// in any order. Throws model::SpecError naming the file and what is wrong: not a shard file,
// shards of different sweeps or shard counts, a shard missing or given twice, a file cut short
// (no end line), a row missing or added (the end line's count), a row with another field count
// than the header, a row of a point the shard does not run, a point no shard has rows for.
std::string merge_shard_csvs(const std::vector<std::pair<std::string, std::string>>& files);

}  // namespace wormcast::sim
