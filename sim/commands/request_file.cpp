// SPDX-License-Identifier: Apache-2.0
#include "sim/commands/request_file.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "firmware/fw_config.hpp"
#include "model/planner.hpp"
#include "sim/commands/command.hpp"

namespace wormcast::sim::commands {
namespace {

using nlohmann::json;

// A value as the file wrote it (cut short), with its JSON type: `"20" (a string)`.
std::string shown(const json& value) {
  const std::string type = value.type_name();
  const bool vowel = type == "array" || type == "object";
  return fmt::format("{} ({} {})", echo(value.dump()), vowel ? "an" : "a", type);
}

// The reader of one entry: every failure names the file, the entry and the field.
class EntryReader {
 public:
  EntryReader(const std::string& path, std::size_t index, const json& entry)
      : path_(path), index_(index), entry_(entry) {}

  [[noreturn]] void fail(const std::string& field, const std::string& message) const {
    throw CommandError(fmt::format("{} entry {} (\"{}\"): {}", path_, index_, field, message));
  }
  [[noreturn]] void fail(const std::string& message) const {
    throw CommandError(fmt::format("{} entry {}: {}", path_, index_, message));
  }

  // The field's value, or nullptr when the entry lacks it.
  const json* find(const std::string& field) const {
    const auto it = entry_.find(field);
    return it == entry_.end() ? nullptr : &*it;
  }
  const json& required(const std::string& field) const {
    const json* v = find(field);
    if (v == nullptr) {
      fail(field, "missing; every entry needs algorithm, source and dests (ports, length, start_cycle are optional)");
    }
    return *v;
  }
  std::string string(const std::string& field, const json& v, const std::string& valid) const {
    if (!v.is_string()) fail(field, fmt::format("{} is not a string; give {}", shown(v), valid));
    return v.get<std::string>();
  }
  // A whole number in lo..hi `unit` (JSON integers only: 20, not 20.0, "20" or true).
  long integer(const std::string& field, const json& v, long lo, long hi, const std::string& unit) const {
    if (!v.is_number_integer()) {
      fail(field, fmt::format("{} is not a whole number; give {}..{} ({})", shown(v), lo, hi, unit));
    }
    const long value = v.is_number_unsigned()
                           ? static_cast<long>(std::min<std::uint64_t>(v.get<std::uint64_t>(), 1ull << 62))
                           : v.get<long>();
    if (value < lo || value > hi) fail(field, fmt::format("{} is not in {}..{} ({})", v.dump(), lo, hi, unit));
    return value;
  }
  // Runs `parse`, naming the field in the model's error.
  template <typename F>
  auto model_value(const std::string& field, F parse) const {
    try {
      return parse();
    } catch (const std::invalid_argument& e) {
      fail(field, e.what());
    }
  }

 private:
  const std::string& path_;
  std::size_t index_;
  const json& entry_;
};

FileRequest read_entry(const EntryReader& in, const json& entry, const model::Topology& t,
                       const RequestOptions& defaults, std::uint64_t seed, long max_start) {
  for (const auto& [key, value] : entry.items()) {
    const std::vector<std::string> fields = request_file_fields();
    if (std::find(fields.begin(), fields.end(), key) == fields.end()) {
      in.fail(key, fmt::format("unknown field; an entry has: {}", fmt::join(fields, ", ")));
    }
  }
  const std::string algorithm = in.string("algorithm", in.required("algorithm"),
                                          fmt::format("an algorithm name: {}", firmware_algorithm_names()));
  in.model_value("algorithm", [&] { return model::algorithm_info(algorithm).name; });
  if (!firmware_supports(algorithm)) in.fail("algorithm", no_firmware_message(algorithm));

  const std::string source_text = in.string("source", in.required("source"),
                                            fmt::format("a node name of {} like \"{}\"", t.spec(), t.node_name(0)));
  const model::NodeId source = in.model_value("source", [&] { return t.parse_node(source_text); });

  const json& dests = in.required("dests");
  std::vector<std::string> texts;
  const std::string dests_valid =
      fmt::format("an array of node names of {} (like [\"{}\"]), \"all\" or \"random:K\"", t.spec(), t.node_name(0));
  if (dests.is_string()) {
    texts.push_back(dests.get<std::string>());
    if (texts.front() != "all" && texts.front().rfind("random:", 0) != 0) {
      in.fail("dests", fmt::format("{} is neither \"all\" nor \"random:K\"; give {}", shown(dests), dests_valid));
    }
  } else if (dests.is_array()) {
    for (std::size_t k = 0; k < dests.size(); ++k) {
      if (!dests[k].is_string()) {
        in.fail("dests", fmt::format("element {} is {}, not a node name; give {}", k, shown(dests[k]), dests_valid));
      }
      texts.push_back(dests[k].get<std::string>());
      try {
        t.parse_node(texts.back());
      } catch (const std::invalid_argument& e) {
        in.fail("dests", fmt::format("node \"{}\" (element {}): {}", texts.back(), k, e.what()));
      }
    }
  } else {
    in.fail("dests", fmt::format("{} is not a list of destinations; give {}", shown(dests), dests_valid));
  }
  const std::vector<model::NodeId> destinations =
      in.model_value("dests", [&] { return parse_destinations(t, source, texts, seed); });

  model::PortModel ports = defaults.ports_for(algorithm);
  if (const json* p = in.find("ports")) {
    std::string text;
    if (p->is_number_integer()) {
      text = p->dump();
    } else {
      text = in.string("ports", *p, "one, two, all or a port count d >= 1");
    }
    ports = in.model_value("ports", [&] { return port_model_for(algorithm, text); });
  }
  int length = defaults.length;
  if (const json* l = in.find("length")) {
    length = static_cast<int>(in.integer("length", *l, 1, static_cast<long>(fw::kMaxDataWords), "flits"));
  }
  long start_cycle = 0;
  if (const json* s = in.find("start_cycle")) start_cycle = in.integer("start_cycle", *s, 0, max_start, "cycles");

  // The request as a whole: the source among the destinations, a repeated destination.
  return {in.model_value(
              "dests",
              [&] { return model::make_request(t, algorithm, source, destinations, length, ports, defaults.latency); }),
          start_cycle};
}

// The deepest a request file may nest arrays and objects. A request file nests three deep (the
// array, an entry, its dests); the bound keeps a hostile file from exhausting the stack of the
// code that walks or prints the parsed value.
constexpr int kMaxNesting = 64;

// The line (from 1) where `text` first nests arrays and objects deeper than kMaxNesting, counting
// brackets outside strings; 0 when it never does.
int line_too_deep(const std::string& text) {
  int depth = 0, line = 1;
  bool in_string = false, escaped = false;
  for (const char c : text) {
    if (c == '\n') ++line;
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') in_string = true;
    if (c == '[' || c == '{') {
      if (++depth > kMaxNesting) return line;
    }
    if (c == ']' || c == '}') --depth;
  }
  return 0;
}

}  // namespace

std::vector<std::string> request_file_fields() {
  return {"algorithm", "source", "dests", "ports", "length", "start_cycle"};
}

std::vector<FileRequest> read_request_file(const std::string& path, const model::Topology& t,
                                           const RequestOptions& defaults, std::uint64_t seed, long max_start) {
  std::ifstream file(path);
  if (!file) throw CommandError(fmt::format("cannot read the requests file '{}': {}", path, std::strerror(errno)));
  const std::string text{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
  if (const int line = line_too_deep(text); line != 0) {
    throw CommandError(
        fmt::format("{} nests arrays and objects more than {} deep (line {}); expected an array of "
                    "request objects, which nests 3 deep",
                    path, kMaxNesting, line));
  }
  json root;
  try {
    root = json::parse(text);
  } catch (const json::exception& e) {
    // A syntax error (parse_error) or a number past the reader's range (out_of_range: 1e400).
    throw CommandError(fmt::format("{} is not JSON ({}); expected an array of request objects", path, e.what()));
  }
  if (!root.is_array()) {
    throw CommandError(
        fmt::format("{} holds {}; expected an array of request objects {{\"algorithm\", \"source\", "
                    "\"dests\", ...}}",
                    path, root.is_object() ? "an object" : shown(root)));
  }
  if (root.empty()) throw CommandError(fmt::format("{} holds an empty array; give at least one request", path));
  std::vector<FileRequest> requests;
  for (std::size_t i = 0; i < root.size(); ++i) {
    const EntryReader in(path, i, root[i]);
    if (!root[i].is_object()) {
      in.fail(fmt::format("{} is not a request object {{\"algorithm\", \"source\", \"dests\", ...}}", shown(root[i])));
    }
    requests.push_back(read_entry(in, root[i], t, defaults, seed + i, max_start));
  }
  return requests;
}

}  // namespace wormcast::sim::commands
