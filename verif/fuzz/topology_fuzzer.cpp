// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: the topology spec, node and destination-list parsers of the command line.
// Input: lines; the first is a topology spec (`mesh:8x8`, `torus:4x4`, `star:5`), the second a
// source (`3,2`, `origin`, `random`), the rest a destination list as `-d` takes it (node names,
// `all`, `random:K`) and a K list as `sweep -k` takes it. Bad input must throw the model's errors
// (a message naming the value, exit 2 on the command line); anything else escaping, a sanitizer
// report or a broken round trip is a finding.
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "model/errors.hpp"
#include "model/topology.hpp"
#include "sim/commands/common.hpp"
#include "sim/plan_views.hpp"
#include "verif/fuzz/fuzz_input.hpp"

namespace {

using wormcast::model::ModelError;
using wormcast::model::NodeId;
using wormcast::model::Topology;

// Networks this large parse like the small ones; the lists on them only cost time.
constexpr int kMaxFuzzedNodes = 4096;

void require(bool property) {
  if (!property) std::abort();
}

// Every node name the topology accepts names a node whose name parses back to it.
void check_node(const Topology& t, const std::string& text) {
  NodeId node = wormcast::model::kNoNode;
  try {
    node = t.parse_node(text);
  } catch (const ModelError&) {
    return;
  }
  require(node >= 0 && node < t.node_count());
  require(t.parse_node(t.node_name(node)) == node);
}

void check_lists(const Topology& t, const std::vector<std::string>& lines) {
  namespace commands = wormcast::sim::commands;
  NodeId source = 0;
  try {
    wormcast::sim::parse_source_choice(t, lines[1]);
  } catch (const ModelError&) {
  }
  try {
    source = t.parse_node(lines[1]);
  } catch (const ModelError&) {
  }
  const std::vector<std::string> texts(lines.begin() + 2, lines.end());
  if (texts.empty()) return;
  try {
    for (const NodeId d : commands::parse_destinations(t, source, texts, 1)) require(d >= 0 && d < t.node_count());
  } catch (const ModelError&) {
  }
  try {
    commands::parse_counts(t, texts);
  } catch (const ModelError&) {
  }
  try {
    wormcast::sim::parse_port_model(texts.front());
  } catch (const ModelError&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::vector<std::string> lines = wormcast::fuzz::lines_of(data, size);
  if (lines.empty()) return 0;
  std::optional<Topology> t;
  try {
    t = Topology::parse(lines[0]);
  } catch (const ModelError&) {
    return 0;
  }
  require(Topology::parse(t->spec()) == *t);
  if (t->node_count() > kMaxFuzzedNodes) return 0;
  for (std::size_t i = 1; i < lines.size(); ++i) check_node(*t, lines[i]);
  if (lines.size() >= 2) check_lists(*t, lines);
  return 0;
}
