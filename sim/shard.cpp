// SPDX-License-Identifier: Apache-2.0
#include "sim/shard.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <sstream>
#include <string_view>

#include "model/errors.hpp"

namespace wormcast::sim {
namespace {

// `text` as a non-negative integer of at most 9 digits, or nullopt.
std::optional<long> parse_digits(const std::string& text) {
  if (text.empty() || text.size() > 9 ||
      !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return std::nullopt;
  }
  return std::stol(text);
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// What a shard file's first line says.
struct ShardHeader {
  Shard shard;
  std::string id;
  std::size_t total = 0;
};

std::optional<ShardHeader> parse_first_line(const std::string& line) {
  // "# wormcast shard i/n; sweep <id>; <total> points"
  constexpr std::string_view kPrefix = "# wormcast shard ";
  if (line.rfind(kPrefix, 0) != 0) return std::nullopt;
  const std::string rest = line.substr(kPrefix.size());
  const std::size_t semi1 = rest.find("; sweep ");
  const std::size_t semi2 = rest.find("; ", semi1 == std::string::npos ? 0 : semi1 + 1);
  constexpr std::string_view kPoints = " points";
  if (semi1 == std::string::npos || semi2 == std::string::npos || rest.size() < semi2 + 2 + kPoints.size() ||
      rest.substr(rest.size() - kPoints.size()) != kPoints) {
    return std::nullopt;
  }
  ShardHeader h;
  try {
    h.shard = parse_shard(rest.substr(0, semi1));
  } catch (const model::SpecError&) {
    return std::nullopt;
  }
  h.id = rest.substr(semi1 + 8, semi2 - semi1 - 8);
  const std::optional<long> total = parse_digits(rest.substr(semi2 + 2, rest.size() - kPoints.size() - semi2 - 2));
  if (!total) return std::nullopt;
  h.total = static_cast<std::size_t>(*total);
  return h;
}

// The last line of a shard file: a file cut short, or short of a row, does not end with it.
std::string end_line(const Shard& shard, std::size_t rows) {
  return fmt::format("# end of shard {}/{}: {} rows", shard.index, shard.count, rows);
}

// The fields of a CSV line (commas inside double quotes do not count).
std::size_t field_count(const std::string& line) {
  std::size_t fields = 1;
  bool quoted = false;
  for (const char c : line) {
    if (c == '"') quoted = !quoted;
    if (c == ',' && !quoted) ++fields;
  }
  return fields;
}

// A line of a file, shown in an error: at most 60 characters.
std::string shown(const std::string& line) {
  constexpr std::size_t kShown = 60;
  return line.size() <= kShown ? line : fmt::format("{}... ({} characters)", line.substr(0, kShown), line.size());
}

}  // namespace

std::vector<std::size_t> Shard::points(std::size_t total) const {
  std::vector<std::size_t> mine;
  for (std::size_t p = static_cast<std::size_t>(index); p < total; p += static_cast<std::size_t>(count)) {
    mine.push_back(p);
  }
  return mine;
}

Shard parse_shard(const std::string& text) {
  const std::size_t slash = text.find('/');
  const std::optional<long> index = slash == std::string::npos ? std::nullopt : parse_digits(text.substr(0, slash));
  const std::optional<long> count = slash == std::string::npos ? std::nullopt : parse_digits(text.substr(slash + 1));
  if (!index || !count) {
    throw model::SpecError(
        fmt::format("shard '{}' is not i/n; give the 0-based shard index and the shard count, e.g. 0/4", text));
  }
  if (*count < 1 || *index >= *count) {
    throw model::SpecError(fmt::format("shard '{}' does not exist; with n = {} shards the index i must be in 0..{}",
                                       text, *count, *count < 1 ? 0 : *count - 1));
  }
  return {static_cast<int>(*index), static_cast<int>(*count)};
}

std::string sweep_id(const std::string& description) {
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (const char c : description) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ULL;
  }
  return fmt::format("{:016x}", hash);
}

std::string shard_csv(const Shard& shard, const std::string& id, std::size_t total, const std::string& header,
                      const std::vector<std::pair<std::size_t, std::string>>& rows) {
  std::string out = fmt::format("# wormcast shard {}/{}; sweep {}; {} points\npoint,{}\n", shard.index, shard.count, id,
                                total, header);
  for (const auto& [point, row] : rows) out += fmt::format("{},{}\n", point, row);
  return out + end_line(shard, rows.size()) + "\n";
}

std::string merge_shard_csvs(const std::vector<std::pair<std::string, std::string>>& files) {
  if (files.empty()) throw model::SpecError("merge needs the shard files of a sweep (wormcast sweep --shard i/n)");
  std::optional<ShardHeader> first;
  std::string first_name, header;
  std::map<int, std::string> file_of_shard;
  // point -> its rows, in file order; a point is one shard's, so its rows come from one file.
  std::map<std::size_t, std::vector<std::string>> rows_of;
  for (const auto& [name, text] : files) {
    const std::vector<std::string> lines = lines_of(text);
    const std::optional<ShardHeader> h = lines.empty() ? std::nullopt : parse_first_line(lines.front());
    if (!h || lines.size() < 2 || lines[1].rfind("point,", 0) != 0) {
      throw model::SpecError(fmt::format(
          "{} is not a shard file: it should start with '# wormcast shard i/n; sweep <id>; <total> points' and a "
          "'point,...' header, as wormcast sweep --shard writes",
          name));
    }
    if (!first) {
      first = h;
      first_name = name;
      header = lines[1].substr(6);
    } else if (h->id != first->id || h->total != first->total || h->shard.count != first->shard.count) {
      throw model::SpecError(fmt::format(
          "{} and {} are shards of different sweeps (sweep {} in {} shards of {} points, sweep {} in {} shards of {} "
          "points); merge the n shards of one sweep, run with the same options and --shard i/n",
          first_name, name, first->id, first->shard.count, first->total, h->id, h->shard.count, h->total));
    } else if (lines[1].substr(6) != header) {
      throw model::SpecError(fmt::format("{} has another CSV header than {}", name, first_name));
    }
    // A shard ends with its end line, which counts its rows: a file cut mid-row, or short of a
    // row, would otherwise merge into a CSV that looks whole.
    const std::size_t rows = lines.size() - 3;
    if (text.back() != '\n' || lines.size() < 3 || lines.back().rfind("# end of shard ", 0) != 0) {
      throw model::SpecError(fmt::format(
          "{} is cut short: its last line '{}' is not the '# end of shard i/n: <rows> rows' line that wormcast "
          "sweep --shard ends a shard with; run the shard again",
          name, shown(lines.back())));
    }
    if (lines.back() != end_line(h->shard, rows)) {
      throw model::SpecError(fmt::format(
          "{} ends with '{}' but holds {} rows of shard {}/{}: a row is missing or added; run the shard again", name,
          shown(lines.back()), rows, h->shard.index, h->shard.count));
    }
    const std::size_t fields = field_count(lines[1]);
    for (std::size_t i = 2; i + 1 < lines.size(); ++i) {
      if (field_count(lines[i]) != fields) {
        throw model::SpecError(
            fmt::format("{} line {}: '{}' has {} fields where the header has {}: the row is cut "
                        "or edited; run the shard again",
                        name, i + 1, shown(lines[i]), field_count(lines[i]), fields));
      }
    }
    const auto [at, added] = file_of_shard.emplace(h->shard.index, name);
    if (!added) {
      throw model::SpecError(
          fmt::format("shard {}/{} is given twice ({} and {})", h->shard.index, h->shard.count, at->second, name));
    }
    for (std::size_t i = 2; i + 1 < lines.size(); ++i) {
      const std::size_t comma = lines[i].find(',');
      const std::optional<long> point =
          comma == std::string::npos ? std::nullopt : parse_digits(lines[i].substr(0, comma));
      if (!point || static_cast<std::size_t>(*point) >= h->total ||
          static_cast<std::size_t>(*point) % static_cast<std::size_t>(h->shard.count) !=
              static_cast<std::size_t>(h->shard.index)) {
        throw model::SpecError(fmt::format(
            "{} line {}: '{}' is not a row of a point that shard {}/{} runs (points "
            "p < {} with p mod {} = {})",
            name, i + 1, lines[i], h->shard.index, h->shard.count, h->total, h->shard.count, h->shard.index));
      }
      rows_of[static_cast<std::size_t>(*point)].push_back(lines[i].substr(comma + 1));
    }
  }
  std::vector<int> missing;
  for (int s = 0; s < first->shard.count; ++s) {
    if (!file_of_shard.contains(s)) missing.push_back(s);
  }
  if (!missing.empty()) {
    throw model::SpecError(fmt::format("shard{} {} of {} {} missing: merge needs all {} shards of sweep {} (0..{})",
                                       missing.size() == 1 ? "" : "s", fmt::join(missing, ", "), first->shard.count,
                                       missing.size() == 1 ? "is" : "are", first->shard.count, first->id,
                                       first->shard.count - 1));
  }
  for (std::size_t p = 0; p < first->total; ++p) {
    if (!rows_of.contains(p)) {
      throw model::SpecError(fmt::format("no row for point {} of sweep {} in {}: the shard file is truncated", p,
                                         first->id, file_of_shard.at(static_cast<int>(p % first->shard.count))));
    }
  }
  std::string out = header + "\n";
  for (const auto& [point, rows] : rows_of) {
    for (const std::string& row : rows) out += row + "\n";
  }
  return out;
}

}  // namespace wormcast::sim
