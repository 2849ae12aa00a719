// The wormcast command line: the model's network layer (labelings, routes, deadlock proofs), the
// planners (`plan`, `algorithms`), the experiment driver (`sweep`; with `--backend`, synthetic
// traffic on the routers or the timing model), the firmware on the verilated routers or the timing
// model (`run`), and the RTL-versus-model timing comparison (`compare`).
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "model/broadcast_baselines.hpp"
#include "model/errors.hpp"
#include "model/planner.hpp"
#include "model/routing.hpp"
#include "model/sweep.hpp"
#include "sim/compare.hpp"
#include "sim/multicast_run.hpp"
#include "sim/network_svg.hpp"
#include "sim/network_views.hpp"
#include "sim/plan_views.hpp"
#include "sim/run_views.hpp"
#include "sim/showcase.hpp"
#include "sim/traffic_sweep.hpp"

namespace {

using namespace wormcast;
using model::NodeId;
using model::Topology;

model::HamiltonianLabeling labeling_for(const Topology& t, const std::string& kind) {
  if (kind == "path") return model::HamiltonianLabeling::path(t);
  if (kind == "cycle") return model::HamiltonianLabeling::cycle(t);
  // auto: the cycle where one exists (star graphs, 2D tori with even rows), else the path.
  if (t.is_star() || (t.is_torus() && t.dimensions() == 2 && t.size(1) % 2 == 0)) {
    return model::HamiltonianLabeling::cycle(t);
  }
  return model::HamiltonianLabeling::path(t);
}

model::VcClass parse_class(const model::RoutingFunction& routing, const std::string& text) {
  if (text.empty()) return routing.injection_classes().front();
  for (model::VcClass vc = 0; vc < routing.vc_class_count(); ++vc) {
    if (text == routing.vc_class_name(vc) || text == std::to_string(vc)) return vc;
  }
  std::vector<std::string> names;
  for (model::VcClass vc = 0; vc < routing.vc_class_count(); ++vc) names.push_back(routing.vc_class_name(vc));
  throw model::SpecError(
      fmt::format("class '{}' does not exist for {}; valid: {}", text, routing.name(), fmt::join(names, ", ")));
}

void print_section(const std::string& title) { fmt::print("\n== {} ==\n", title); }

void demo_routes(const Topology& t, const std::vector<std::pair<std::string, std::string>>& pairs,
                 const std::vector<std::pair<std::string, std::string>>& lines) {
  for (const std::string& name : model::routing_functions_for(t)) {
    if (name == "dimension-order-single-vc") continue;  // shown once, as the deadlock counterexample
    const auto routing = model::make_routing_function(name, t);
    fmt::print("\n{} ({} VC class{}):\n", name, routing->vc_class_count(), routing->vc_class_count() == 1 ? "" : "es");
    const auto& list = name == "cpr-line" ? lines : pairs;
    for (const auto& [from, to] : list) {
      const NodeId s = t.parse_node(from);
      fmt::print("  {}\n", sim::render_worm(*routing, s, routing->injection_classes().front(), {t.parse_node(to)}));
    }
    fmt::print("  deadlock check: {}\n", sim::render_deadlock_check(*routing));
  }
}

// Destination names; `all` for every node but the source (a broadcast); `random:K` for K distinct
// random destinations drawn from `seed` as the sweep draws them (model/sweep.hpp).
std::vector<NodeId> parse_destinations(const Topology& t, NodeId source, const std::vector<std::string>& texts,
                                       std::uint64_t seed = 1) {
  if (texts.size() == 1 && texts.front() == "all") return model::broadcast_destinations(t, source);
  constexpr std::string_view kRandom = "random:";
  if (texts.size() == 1 && texts.front().rfind(kRandom, 0) == 0) {
    const std::string count = texts.front().substr(kRandom.size());
    std::size_t used = 0;
    int k = 0;
    try {
      k = std::stoi(count, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != count.size()) {
      throw model::SpecError(fmt::format("'{}' does not give a destination count; write random:K with K in 1..{}",
                                         texts.front(), t.node_count() - 1));
    }
    return model::draw_samples(t, model::SourceChoice::fixed(source), k, 1, seed).front().destinations;
  }
  std::vector<NodeId> nodes;
  for (const std::string& text : texts) nodes.push_back(t.parse_node(text));
  return nodes;
}

// One line per plan: what each algorithm does with a request from the papers' examples.
void demo_plans() {
  print_section("plans: the papers' worked examples (wormcast plan ... prints one in full)");
  struct Example {
    const char* topology;
    const char* algorithm;
    const char* source;
    std::vector<std::string> destinations;  // {"all"} for a broadcast
    model::PortModel ports;
    const char* vector;
  };
  const std::vector<Example> examples = {
      {"mesh:6x6", "two-port", "3,3", {"0,1", "3,1", "2,2", "5,2", "2,5"}, model::PortModel::two_port(), "V4(b)"},
      {"mesh:6x6", "one-port", "3,3", {"0,1", "3,1", "2,2", "5,2", "2,5"}, model::PortModel::one_port(), "1.11"},
      {"torus:4x4",
       "uniform",
       "3,2",
       {"0,0", "1,0", "2,0", "1,1", "0,2", "2,2", "3,3", "2,3", "0,3"},
       model::PortModel::all_port(),
       "V9"},
      {"torus:4x4",
       "fixed",
       "3,2",
       {"0,0", "1,0", "2,0", "1,1", "0,2", "2,2", "3,3", "2,3", "0,3"},
       model::PortModel::all_port(),
       "V10"},
      {"mesh:10x10", "xy-path", "0,0", {"2,0", "3,1", "7,2", "7,5", "0,4", "1,3"}, model::PortModel::all_port(), "V36"},
      {"mesh:10x10", "lin", "0,0", {"2,0", "3,1", "7,2", "7,5", "0,4", "1,3"}, model::PortModel::all_port(), "V38"},
      {"mesh:8x8", "diag", "0,0", {"0,2", "3,0", "4,0", "4,6", "6,6", "7,4"}, model::PortModel::one_port(), "V25"},
      {"mesh:8x8", "dds", "0,0", {"0,2", "3,0", "4,0", "4,6", "6,6", "7,4"}, model::PortModel::one_port(), "V27"},
      {"mesh:8x8", "pcp", "0,0", {"all"}, model::PortModel::all_port(), "V18"},
      {"mesh:8x8", "rd", "0,0", {"all"}, model::PortModel::one_port(), "V15"},
      {"mesh:4x4x4", "3dbl", "1,1,1", {"all"}, model::PortModel::all_port(), "V20"},
      {"mesh:4x4x4", "3dbs", "1,1,1", {"all"}, model::PortModel::all_port(), "V22"},
  };
  fmt::print("{:<10} {:<18} {:<10} {:>3} {:>6} {:>6} {:>8} {:>8}  {}\n", "network", "algorithm", "source", "K", "worms",
             "steps", "traffic", "latency", "vector");
  for (const Example& e : examples) {
    const Topology t = Topology::parse(e.topology);
    const NodeId source = t.parse_node(e.source);
    const model::Plan p = model::plan(
        model::make_request(t, e.algorithm, source, parse_destinations(t, source, e.destinations), 20, e.ports));
    fmt::print("{:<10} {:<18} {:<10} {:>3} {:>6} {:>6} {:>8} {:>8}  {}\n", e.topology, e.algorithm, e.source,
               p.request.destinations.size(), p.worms.size(), p.metrics.steps, p.metrics.traffic, p.metrics.latency,
               e.vector);
  }
  fmt::print("(L = 20 flits; latency in cycles with alpha = gamma = mu = 227, beta = router delay = 1)\n");
}

void run_demo() {
  fmt::print("wormcast model demo: labelings, routes and deadlock proofs of the golden model.\n");
  fmt::print("Ports: +X/-X/+Y/-Y(/+Z/-Z) on meshes and tori; gi on star graphs. See docs/model.md.\n");

  const Topology mesh = Topology::parse("mesh:8x8");
  print_section("mesh:8x8, Hamiltonian path labeling (row snake, spec 1.2)");
  fmt::print("{}", sim::render_labeling(model::HamiltonianLabeling::path(mesh)));
  demo_routes(mesh, {{"1,2", "6,5"}, {"7,7", "0,0"}, {"6,1", "2,6"}}, {{"3,0", "3,7"}, {"7,4", "0,4"}});

  const Topology torus = Topology::parse("torus:4x4");
  print_section("torus:4x4, Hamiltonian cycle labeling (spec 2.8; boundary links = y-wraps)");
  fmt::print("{}", sim::render_labeling(model::HamiltonianLabeling::cycle(torus)));
  demo_routes(torus, {{"3,2", "0,0"}, {"0,0", "3,3"}, {"1,3", "2,0"}}, {});
  const model::HamiltonianCycleRouting cycle(torus);
  fmt::print(
      "\nVector V9, uniform dual-path from (3,2) (label 11): the high worm visits labels 12,13,15,0,1 and\n"
      "crosses the boundary once (p -> q); the low worm visits 10,8,6,2 (* marks a destination):\n");
  const auto by_labels = [&](std::initializer_list<int> labels) {
    std::vector<NodeId> nodes;
    for (int l : labels) nodes.push_back(cycle.labeling().node(l));
    return nodes;
  };
  const NodeId source = torus.parse_node("3,2");
  fmt::print("  high: {}\n",
             sim::render_worm(cycle, source, model::HamiltonianCycleRouting::kPHigh, by_labels({12, 13, 15, 0, 1})));
  fmt::print("  low:  {}\n",
             sim::render_worm(cycle, source, model::HamiltonianCycleRouting::kPLow, by_labels({10, 8, 6, 2})));
  fmt::print("\nWithout dateline classes, XY routing on the torus deadlocks; the checker finds the cycle:\n  {}\n",
             sim::render_deadlock_check(
                 model::DimensionOrderRouting(torus, model::DimensionOrderRouting::TorusClasses::kSingleClass)));

  const Topology mesh3 = Topology::parse("mesh:4x4x4");
  print_section("mesh:4x4x4, layer-snake Hamiltonian path labeling");
  fmt::print("{}", sim::render_labeling(model::HamiltonianLabeling::path(mesh3)));
  demo_routes(mesh3, {{"1,1,0", "1,1,3"}, {"0,0,0", "3,3,3"}}, {{"1,1,1", "1,1,3"}});

  const Topology star = Topology::parse("star:4");
  print_section("star:4, Hamiltonian cycle labeling (spec 2.9, vector V11)");
  fmt::print("{}", sim::render_labeling(model::HamiltonianLabeling::cycle(star)));
  demo_routes(star, {{"1432", "2413"}, {"1234", "4321"}}, {});

  demo_plans();
}

// Options shared by `plan` and `sweep`: message length, port model, latency parameters.
struct PlanOptions {
  int length = 20;
  std::string ports = "one";
  model::LatencyParameters latency;

  void add_to(CLI::App& command) {
    command.add_option("-L,--length", length, "message length in flits")->capture_default_str();
    command.add_option("-p,--ports", ports, "port model: one, two, all, or a port count d")->capture_default_str();
    command.add_option("--alpha", latency.alpha, "send start-up (cycles)")->capture_default_str();
    command.add_option("--gamma", latency.gamma, "receive start-up (cycles)")->capture_default_str();
    command.add_option("--beta", latency.beta, "one flit over one channel (cycles)")->capture_default_str();
    command.add_option("--mu", latency.mu, "CPR control-field change (cycles)")->capture_default_str();
    command.add_option("--router-delay", latency.router_delay, "header per hop (cycles)")->capture_default_str();
  }
};

// K values, or `all` for N-1.
std::vector<int> parse_counts(const Topology& t, const std::vector<std::string>& texts) {
  std::vector<int> counts;
  for (const std::string& text : texts) {
    if (text == "all") {
      counts.push_back(t.node_count() - 1);
      continue;
    }
    std::size_t used = 0;
    int k = 0;
    try {
      k = std::stoi(text, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != text.size()) {
      throw model::SpecError(
          fmt::format("K value '{}' is not a number; give counts in 1..{} or 'all'", text, t.node_count() - 1));
    }
    counts.push_back(k);
  }
  return counts;
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
  if (!out) throw model::RequestError(fmt::format("cannot write '{}'", path));
}

std::string algorithm_list() {
  std::string out;
  for (const model::AlgorithmInfo& info : model::algorithms()) {
    out +=
        fmt::format("{:<10} {}{}\n           family: {}; topologies: {}; ports: {}\n", info.name, info.summary,
                    info.broadcast ? " [broadcast: --dests all]" : "", info.family, info.topologies, info.port_models);
  }
  return out;
}

// The requests of `wormcast run`: one, or `count` with random sources (`-s random`) and/or random
// destination sets (`-d random:K`), drawn from `seed`.
std::vector<model::Request> run_requests(const Topology& t, const std::string& algorithm,
                                         const std::string& source_text, const std::vector<std::string>& dest_texts,
                                         int count, std::uint64_t seed, int length, const model::PortModel& ports,
                                         const model::LatencyParameters& latency) {
  if (count < 1) throw model::RequestError(fmt::format("--count {} must be at least 1", count));
  const model::SourceChoice choice = sim::parse_source_choice(t, source_text);
  std::vector<model::Request> requests;
  const bool random_dests = dest_texts.size() == 1 && dest_texts.front().rfind("random:", 0) == 0;
  if (random_dests) {
    const std::vector<NodeId> first = parse_destinations(t, 0, dest_texts, seed);  // validates K
    for (const model::Sample& s : model::draw_samples(t, choice, static_cast<int>(first.size()), count, seed)) {
      requests.push_back(model::make_request(t, algorithm, s.source, s.destinations, length, ports, latency));
    }
    return requests;
  }
  const std::vector<model::Sample> sources = model::draw_samples(t, choice, 1, count, seed);
  for (const model::Sample& s : sources) {
    requests.push_back(model::make_request(t, algorithm, s.source, parse_destinations(t, s.source, dest_texts, seed),
                                           length, ports, latency));
  }
  return requests;
}

// --- wormcast run --svg/--trace, wormcast showcase (make run) ---
// The file of run `index` (0-based) of `count`: `path` itself for a single run, else `a-2.svg` for
// `a.svg`.
std::string numbered_path(const std::string& path, int index, int count) {
  if (count == 1 || path.empty()) return path;
  const std::filesystem::path p(path);
  return (p.parent_path() / fmt::format("{}-{}{}", p.stem().string(), index + 1, p.extension().string())).string();
}

// The showcase's networks: the demo table's, or the named topologies (their K from the table, else
// a quarter of the nodes).
std::vector<sim::ShowcaseNetwork> showcase_networks_for(const std::vector<std::string>& specs) {
  if (specs.empty()) return sim::showcase_networks();
  std::vector<sim::ShowcaseNetwork> networks;
  for (const std::string& spec : specs) {
    const Topology t = Topology::parse(spec);
    const auto& table = sim::showcase_networks();
    const auto row = std::find_if(table.begin(), table.end(),
                                  [&](const sim::ShowcaseNetwork& n) { return Topology::parse(n.topology) == t; });
    networks.push_back(row != table.end() ? *row
                                          : sim::ShowcaseNetwork{t.spec(), std::max(1, std::min(t.node_count() - 1,
                                                                                                t.node_count() / 4))});
  }
  return networks;
}

int run_showcase_command(sim::ShowcaseConfig config) {
  const auto start = std::chrono::steady_clock::now();
  fmt::print(
      "wormcast showcase: every algorithm the firmware runs, on the verilated routers, checked against the plan\n");
  fmt::print("(L = {} flits, alpha = {}, gamma = {} cycles; output folder {})\n\n", config.length, config.rtl.alpha,
             config.rtl.gamma, config.out_dir);
  fmt::print("{}", sim::showcase_header_line());
  const sim::ShowcaseResult result =
      sim::run_showcase(config, [](const sim::ShowcaseRow& row) { fmt::print("{}", sim::showcase_row_line(row)); });
  write_file((std::filesystem::path(config.out_dir) / "summary.md").string(), sim::showcase_markdown(result, config));
  write_file((std::filesystem::path(config.out_dir) / "summary.csv").string(), sim::showcase_csv(result));
  const auto failed =
      std::count_if(result.rows.begin(), result.rows.end(), [](const sim::ShowcaseRow& r) { return !r.check.empty(); });
  for (const sim::ShowcaseRow& r : result.rows) {
    if (!r.check.empty()) fmt::print("FAIL {} {} from ({}): {}\n", r.topology, r.algorithm, r.source, r.check);
  }
  if (!result.skipped.empty()) {
    fmt::print("\nnot run ({}):\n", result.skipped.size());
    for (const std::string& s : result.skipped) fmt::print("  {}\n", s);
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  fmt::print("\n{} runs, {} passed the check, {} failed; {:.1f} s\n", result.rows.size(),
             result.rows.size() - static_cast<std::size_t>(failed), failed, seconds);
  fmt::print("wrote {}/summary.md, summary.csv and {} drawings\n", config.out_dir, result.rows.size());
  return result.passed() && !result.rows.empty() ? 0 : 1;
}
// --- end run --svg/--trace, showcase ---

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"wormcast: multicast and broadcast on wormhole-routed networks (model network layer)"};
  app.require_subcommand(1);

  std::string topology_spec = "mesh:8x8";
  std::string labeling_kind = "auto";
  auto* labeling_cmd = app.add_subcommand("labeling", "Draw a topology's Hamiltonian labeling");
  labeling_cmd->add_option("-t,--topology", topology_spec, "mesh:8x8, torus:4x4, mesh:4x4x4, torus:5x5x5, star:4");
  labeling_cmd->add_option("--kind", labeling_kind, "path, cycle or auto")
      ->check(CLI::IsMember({"auto", "path", "cycle"}));

  std::string routing_name = "hamiltonian-path";
  std::string source_text;
  std::vector<std::string> dest_texts;
  std::string class_text;
  auto* route_cmd = app.add_subcommand("route", "Trace a worm through one or more destinations in order");
  route_cmd->add_option("-t,--topology", topology_spec, "topology spec")->required();
  route_cmd->add_option("-r,--routing", routing_name,
                        fmt::format("{}", fmt::join(model::routing_function_names(), ", ")));
  route_cmd->add_option("-s,--source", source_text, "source node (3,2 / 1,1,1 / 1432)")->required();
  route_cmd->add_option("-d,--dests", dest_texts, "destinations, visited in order")->required();
  route_cmd->add_option("-c,--class", class_text, "VC class to inject in (e.g. ph or pl); default: the first");

  auto* deadlock_cmd = app.add_subcommand("deadlock", "Build the channel dependency graph and look for a cycle");
  deadlock_cmd->add_option("-t,--topology", topology_spec, "topology spec")->required();
  deadlock_cmd->add_option("-r,--routing", routing_name, "routing function")->required();

  app.add_subcommand("demo", "Tour: labelings, routes and deadlock proofs on the default networks");

  app.add_subcommand("algorithms", "List the planners' algorithms, their topologies and port models");

  std::string algorithm_name;
  bool as_json = false;
  PlanOptions plan_options;
  auto* plan_cmd = app.add_subcommand("plan", "Plan one multicast or broadcast and show its worms and metrics");
  plan_cmd->add_option("-t,--topology", topology_spec, "topology spec")->required();
  plan_cmd->add_option("-a,--algorithm", algorithm_name, fmt::format("{}", fmt::join(model::algorithm_names(), ", ")))
      ->required();
  plan_cmd->add_option("-s,--source", source_text, "source node (3,2 / 1,1,1 / 1432)")->required();
  plan_cmd->add_option("-d,--dests", dest_texts, "destination nodes, 'all' for a broadcast, or random:K")->required();
  std::uint64_t plan_seed = 1;
  plan_cmd->add_option("--seed", plan_seed, "seed for --dests random:K")->capture_default_str();
  plan_options.add_to(*plan_cmd);
  plan_cmd->add_flag("--json", as_json, "print the plan as JSON (schema: docs/algorithms.md)");
  std::string svg_path;
  plan_cmd->add_option("--svg", svg_path, "draw the network and the plan's worms into this SVG file");

  // wormcast run: the plan's request options, run by the node firmware on the verilated routers.
  std::string run_source = "random";
  std::vector<std::string> run_dests;
  std::string backend = "rtl";
  int run_count = 1;
  std::uint64_t run_seed = 1;
  double eject_stall = 0.0;
  PlanOptions run_options;
  auto* run_cmd = app.add_subcommand("run",
                                     "Run multicasts with the node firmware on the verilated routers; check them "
                                     "against the plan");
  run_cmd->add_option("-t,--topology", topology_spec, "topology spec")->required();
  run_cmd->add_option("-a,--algorithm", algorithm_name, sim::rtl_supported_algorithms())->required();
  run_cmd->add_option("-s,--source", run_source, "source node, 'origin' or 'random'")->capture_default_str();
  run_cmd->add_option("-d,--dests", run_dests, "destination nodes, 'all' for a broadcast, or random:K")->required();
  run_cmd->add_option("--seed", run_seed, "seed for random sources and destinations")->capture_default_str();
  run_cmd->add_option("--count", run_count, "random requests to run, one after another")->capture_default_str();
  run_cmd->add_option("--backend", backend, "rtl (verilated routers) or model (the cycle-level timing model)")
      ->capture_default_str();
  run_cmd->add_option("--eject-stall", eject_stall, "probability an ejection port takes no flit in a cycle")
      ->capture_default_str();
  run_options.add_to(*run_cmd);
  run_cmd->add_flag("--json", as_json, "print each run as the plan's JSON plus delivery_cycles, rtl and check");
  run_cmd->add_option("--svg", svg_path,
                      "draw the network and each worm's links as the RTL monitor saw them into this SVG file "
                      "(with --count N: FILE-1.svg ... FILE-N.svg)");
  std::string trace_path;
  run_cmd->add_option("--trace", trace_path,
                      "write a waveform of every router into this FST file (with --count N: FILE-1.fst ...)");

  // wormcast showcase (make run): every algorithm on the demo networks, on the RTL, checked.
  sim::ShowcaseConfig showcase;
  showcase.out_dir = "build/demo";
  std::vector<std::string> showcase_topologies;
  auto* showcase_cmd = app.add_subcommand(
      "showcase", "The demo of make run: every algorithm the RTL runs on the demo networks, checked; table and SVGs");
  showcase_cmd->add_option("-o,--out", showcase.out_dir, "output folder for summary.md, summary.csv and the drawings")
      ->capture_default_str();
  showcase_cmd->add_option("-t,--topologies", showcase_topologies, "comma-separated topologies (default: the demo's)")
      ->delimiter(',');
  showcase_cmd
      ->add_option("-a,--algorithms", showcase.algorithms, "comma-separated algorithms (default: all on the RTL)")
      ->delimiter(',');
  showcase_cmd->add_option("--multicasts", showcase.multicasts, "random multicasts per algorithm (plus a broadcast)")
      ->capture_default_str();
  showcase_cmd->add_option("--seed", showcase.seed, "seed of the random requests")->capture_default_str();
  showcase_cmd->add_option("-L,--length", showcase.length, "message length in flits")->capture_default_str();
  showcase_cmd->add_option("--alpha", showcase.rtl.alpha, "send start-up (cycles)")->capture_default_str();
  showcase_cmd->add_option("--gamma", showcase.rtl.gamma, "receive start-up (cycles)")->capture_default_str();
  showcase_cmd->add_option("--corrupt-tail-at", showcase.rtl.corrupt_tail_at,
                           "fault injection for the tests: flip a bit of every tail ejected at this node id");

  // wormcast compare: the same requests on the RTL and on the timing model (docs/timing.md).
  bool concurrent = false;
  auto* compare_cmd = app.add_subcommand(
      "compare", "Run multicasts on the RTL and on the timing model; compare delivery cycles per destination");
  compare_cmd->add_option("-t,--topology", topology_spec, "topology spec")->required();
  compare_cmd->add_option("-a,--algorithm", algorithm_name, sim::rtl_supported_algorithms())->required();
  compare_cmd->add_option("-s,--source", run_source, "source node, 'origin' or 'random'")->capture_default_str();
  compare_cmd->add_option("-d,--dests", run_dests, "destination nodes, 'all' for a broadcast, or random:K")->required();
  compare_cmd->add_option("--seed", run_seed, "seed for random sources, destinations and back-pressure")
      ->capture_default_str();
  compare_cmd->add_option("--count", run_count, "random requests, compared one after another")->capture_default_str();
  compare_cmd->add_flag("--concurrent", concurrent, "run the --count requests at once (a load scenario)");
  compare_cmd->add_option("--eject-stall", eject_stall, "probability an ejection port takes no flit in a cycle")
      ->capture_default_str();
  PlanOptions compare_options;
  compare_options.add_to(*compare_cmd);
  compare_cmd->add_flag("--json", as_json, "print each comparison as JSON (docs/timing.md)");
  std::string perturb_text;
  compare_cmd->add_option("--perturb-model-at", perturb_text,
                          "test only: this node's model router holds back its first switch grant one cycle (shows "
                          "the divergence report)");

  std::vector<std::string> sweep_algorithms;
  std::vector<std::string> count_texts;
  int runs = 100;
  std::uint64_t seed = 1;
  std::string source_policy = "origin";
  std::string csv_path;
  std::string json_path;
  PlanOptions sweep_options;
  auto* sweep_cmd = app.add_subcommand("sweep", "Plan random requests for several K and algorithms; aggregate");
  sweep_cmd->add_option("-t,--topology", topology_spec, "topology spec")->required();
  // -a and -k are required for the planning sweep; with --backend (synthetic traffic) -a is
  // refused and -k optional (checked after parsing).
  sweep_cmd->add_option("-a,--algorithms", sweep_algorithms, "comma-separated algorithm names")->delimiter(',');
  sweep_cmd->add_option("-k,--k", count_texts, "comma-separated destination counts K ('all' = N-1)")->delimiter(',');
  sweep_cmd->add_option("-n,--runs", runs, "random samples per K")->capture_default_str();
  sweep_cmd->add_option("--seed", seed, "seed of the sample generator")->capture_default_str();
  sweep_cmd->add_option("-s,--source", source_policy, "origin, random, or a node")->capture_default_str();
  int sweep_threads = 0;
  sweep_cmd
      ->add_option("-j,--threads", sweep_threads,
                   "threads planning the K values in parallel (0: one per hardware thread; same numbers either way)")
      ->capture_default_str();
  sweep_options.add_to(*sweep_cmd);
  sweep_cmd->add_option("--csv", csv_path, "write the rows as CSV to this file");
  sweep_cmd->add_option("--json", json_path, "write the configuration and rows as JSON to this file");
  // Synthetic traffic on a router network (sim/traffic_sweep.hpp): --backend selects it.
  std::string traffic_backend;
  std::vector<std::string> load_texts;
  std::string traffic_out;
  sim::TrafficConfig traffic;
  sweep_cmd->add_option("--backend", traffic_backend,
                        "synthetic traffic on the routers instead of planning: " + sim::backend_names());
  sweep_cmd->add_option("--loads", load_texts, "traffic: offered loads, 0.05,0.1 or start:stop:step (flits/node/cycle)")
      ->delimiter(',');
  sweep_cmd
      ->add_option("--multicast-fraction", traffic.multicast_fraction,
                   "traffic: fraction of packets that are dual-path multicasts to K destinations")
      ->capture_default_str();
  sweep_cmd->add_option("--routing", traffic.routing, "traffic: " + sim::traffic_routings())->capture_default_str();
  sweep_cmd->add_option("--warmup", traffic.warmup, "traffic: warm-up cycles")->capture_default_str();
  sweep_cmd->add_option("--measure", traffic.measure, "traffic: measurement cycles")->capture_default_str();
  sweep_cmd->add_option("--drain-limit", traffic.drain_limit, "traffic: most drain cycles before a point is saturated")
      ->capture_default_str();
  sweep_cmd->add_option("-o,--out", traffic_out,
                        "traffic: output folder for sweep.csv and the plots (default sweep-<backend>)");

  CLI11_PARSE(app, argc, argv);
  // The harness options `run` and `compare` share, once the firmware is known to run the algorithm.
  const auto harness_options = [&](const auto& latency) {
    if (!sim::rtl_supports(algorithm_name)) {
      model::algorithm_info(algorithm_name);  // an unknown name: the registry's error lists the valid ones
      throw model::UnsupportedError(sim::rtl_unsupported_message(algorithm_name));
    }
    sim::RunOptions options;
    options.alpha = std::lround(latency.alpha);
    options.gamma = std::lround(latency.gamma);
    options.eject_stall = eject_stall;
    options.seed = run_seed;
    return options;
  };
  try {
    if (app.got_subcommand("demo")) {
      run_demo();
    } else if (app.got_subcommand("algorithms")) {
      fmt::print("{}", algorithm_list());
    } else if (app.got_subcommand(plan_cmd)) {
      const Topology t = Topology::parse(topology_spec);
      const NodeId source = t.parse_node(source_text);
      const model::Plan plan = model::plan(
          model::make_request(t, algorithm_name, source, parse_destinations(t, source, dest_texts, plan_seed),
                              plan_options.length, sim::parse_port_model(plan_options.ports), plan_options.latency));
      if (!svg_path.empty()) sim::write_svg(svg_path, sim::drawing_of_plan(plan));
      if (as_json) {
        fmt::print("{}\n", sim::plan_to_json(plan).dump(2));
      } else {
        fmt::print("{}", sim::render_plan_text(plan));
      }
    } else if (app.got_subcommand(compare_cmd)) {
      const Topology t = Topology::parse(topology_spec);
      sim::RunOptions options = harness_options(compare_options.latency);
      if (!perturb_text.empty()) options.perturb_model_at = t.parse_node(perturb_text);
      std::vector<std::vector<model::Plan>> scenarios;
      for (const model::Request& request :
           run_requests(t, algorithm_name, run_source, run_dests, run_count, run_seed, compare_options.length,
                        sim::parse_port_model(compare_options.ports), compare_options.latency)) {
        if (!concurrent || scenarios.empty()) scenarios.emplace_back();
        scenarios.back().push_back(model::plan(request));
      }
      bool all_equal = true;
      nlohmann::json out = nlohmann::json::array();
      for (const std::vector<model::Plan>& plans : scenarios) {
        const sim::Comparison c = sim::compare_backends(plans, options);
        all_equal = all_equal && c.rtl_check.empty() && c.model_check.empty() && c.differing == 0;
        if (as_json) {
          out.push_back(sim::comparison_to_json(plans, c));
        } else {
          fmt::print("{}", sim::render_comparison_text(plans, c));
        }
      }
      if (as_json) fmt::print("{}\n", (scenarios.size() == 1 ? out.front() : out).dump(2));
      if (!all_equal) return 1;
    } else if (app.got_subcommand(run_cmd)) {
      const sim::Backend run_backend = sim::parse_backend(backend);
      const Topology t = Topology::parse(topology_spec);
      sim::RunOptions options = harness_options(run_options.latency);
      options.backend = run_backend;
      int passed = 0;
      int index = 0;
      nlohmann::json runs_json = nlohmann::json::array();
      for (const model::Request& request :
           run_requests(t, algorithm_name, run_source, run_dests, run_count, run_seed, run_options.length,
                        sim::parse_port_model(run_options.ports), run_options.latency)) {
        const model::Plan plan = model::plan(request);
        options.trace_path = numbered_path(trace_path, index, run_count);
        const sim::RunRecord record = sim::run_multicasts({plan.request}, options);
        const std::string check = sim::check_run({plan}, record);
        if (!svg_path.empty()) {
          sim::write_svg(numbered_path(svg_path, index, run_count), sim::drawing_of_run(plan, 0, record, check));
        }
        ++index;
        passed += check.empty() ? 1 : 0;
        if (as_json) {
          runs_json.push_back(sim::run_to_json(plan, 0, record, check, options));
        } else {
          fmt::print("{}", sim::render_run_text(plan, 0, record, check, options));
        }
      }
      if (as_json) {
        fmt::print("{}\n", (run_count == 1 ? runs_json.front() : runs_json).dump(2));
      } else if (run_count > 1) {
        fmt::print("{} runs, {} passed the check\n", run_count, passed);
      }
      if (passed != run_count) return 1;
    } else if (app.got_subcommand(showcase_cmd)) {
      showcase.networks = showcase_networks_for(showcase_topologies);
      return run_showcase_command(showcase);
    } else if (app.got_subcommand(sweep_cmd) && !traffic_backend.empty()) {
      if (!sweep_algorithms.empty()) {
        throw model::SpecError("--algorithms plans multicasts; the traffic sweep (--backend) takes --loads and -k");
      }
      if (!csv_path.empty() || !json_path.empty()) {
        throw model::SpecError(
            "the traffic sweep (--backend) writes sweep.csv into --out; --csv and --json belong to "
            "the planning sweep");
      }
      sim::TrafficSweepConfig config;
      config.backend = sim::parse_backend(traffic_backend);
      config.base = traffic;
      config.base.topology = topology_spec;
      config.base.length = sweep_options.length;
      config.base.seed = seed;
      config.loads = sim::parse_loads(load_texts);
      if (!count_texts.empty()) config.destination_counts = parse_counts(Topology::parse(topology_spec), count_texts);
      const std::string out = traffic_out.empty() ? "sweep-" + traffic_backend : traffic_out;
      const std::vector<sim::TrafficResult> results = sim::run_traffic_sweep(config);
      std::filesystem::create_directories(out);
      std::string csv = sim::traffic_csv_header();
      for (const sim::TrafficResult& r : results) csv += sim::traffic_csv_row(r);
      const std::string csv_file = out + "/sweep.csv";
      write_file(csv_file, csv);
      fmt::print("wrote {}\n", csv_file);
      const std::string plot = fmt::format("'{}' '{}' '{}' '{}'", WORMCAST_PYTHON, WORMCAST_PLOT_SCRIPT, csv_file, out);
      if (std::system(plot.c_str()) != 0) {
        fmt::print(stderr,
                   "wormcast: plots not drawn ({} failed; scripts/ensure-deps.sh installs python3-matplotlib)\n", plot);
        return 1;
      }
      fmt::print("wrote the plots to {}/\n", out);
    } else if (app.got_subcommand(sweep_cmd)) {
      if (sweep_algorithms.empty() || count_texts.empty()) {
        throw model::SpecError(
            "sweep needs --algorithms and --k (or --backend rtl|model for synthetic traffic with --loads)");
      }
      model::SweepConfig config;
      config.topology = Topology::parse(topology_spec);
      config.algorithms = sweep_algorithms;
      config.destination_counts = parse_counts(config.topology, count_texts);
      config.runs = runs;
      config.seed = seed;
      config.source = sim::parse_source_choice(config.topology, source_policy);
      config.length_flits = sweep_options.length;
      config.ports = sim::parse_port_model(sweep_options.ports);
      config.latency = sweep_options.latency;
      config.threads = sweep_threads;
      const model::SweepResult result = model::run_sweep(config);
      fmt::print("{}", sim::render_sweep_table(result));
      if (!csv_path.empty()) write_file(csv_path, sim::sweep_to_csv(result));
      if (!json_path.empty()) write_file(json_path, sim::sweep_to_json(result).dump(2) + "\n");
    } else if (app.got_subcommand(labeling_cmd)) {
      const Topology t = Topology::parse(topology_spec);
      fmt::print("{}", sim::render_labeling(labeling_for(t, labeling_kind)));
    } else if (app.got_subcommand(route_cmd)) {
      const Topology t = Topology::parse(topology_spec);
      const auto routing = model::make_routing_function(routing_name, t);
      std::vector<NodeId> stops;
      for (const std::string& text : dest_texts) stops.push_back(t.parse_node(text));
      fmt::print("{}\n",
                 sim::render_worm(*routing, t.parse_node(source_text), parse_class(*routing, class_text), stops));
    } else if (app.got_subcommand(deadlock_cmd)) {
      const Topology t = Topology::parse(topology_spec);
      const std::string result = sim::render_deadlock_check(*model::make_routing_function(routing_name, t));
      fmt::print("{}\n", result);
      if (result.find("CYCLIC") != std::string::npos) return 3;
    }
  } catch (const model::ModelError& error) {
    fmt::print(stderr, "wormcast: {}\n", error.what());
    return 2;
  } catch (const sim::TrafficError& error) {
    fmt::print(stderr, "wormcast: {}\n", error.what());
    return 4;
  }
  return 0;
}
