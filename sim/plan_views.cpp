// SPDX-License-Identifier: Apache-2.0
#include "sim/plan_views.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <vector>

#include "model/errors.hpp"

namespace wormcast::sim {

using model::NodeId;
using model::Plan;
using model::Topology;
using model::Worm;
using nlohmann::json;

namespace {

json optional_json(const std::optional<double>& value) { return value ? json(*value) : json(nullptr); }

std::string names(const Topology& t, const std::vector<NodeId>& nodes) {
  std::vector<std::string> out;
  out.reserve(nodes.size());
  for (NodeId node : nodes) out.push_back(t.node_name(node));
  return fmt::format("{}", fmt::join(out, " "));
}

json name_list(const Topology& t, const std::vector<NodeId>& nodes) {
  json list = json::array();
  for (NodeId node : nodes) list.push_back(t.node_name(node));
  return list;
}

bool contains(const std::vector<NodeId>& nodes, NodeId node) {
  return std::find(nodes.begin(), nodes.end(), node) != nodes.end();
}

// `(1,2) -[+Y vc0]-> (1,3)* ...`: the route with the channel of each hop; * marks a delivery,
// ~ a relay (a node that takes the message in only to forward it) and + a destination taking in a
// part of the message (np-d's sub-messages).
std::string render_route(const Topology& t, const Worm& w) {
  const auto keeps = [&](NodeId node) {
    return contains(w.keeps_copy, node)       ? "*"
           : contains(w.relays, node)         ? "~"
           : contains(w.part_receivers, node) ? "+"
                                              : "";
  };
  std::string out = fmt::format("({})", t.node_name(w.route.front()));
  for (std::size_t i = 0; i < w.hops.size(); ++i) {
    out += fmt::format(" -[{} vc{}]-> ({}){}", t.port_name(w.hops[i].port), w.hops[i].vc, t.node_name(w.route[i + 1]),
                       keeps(w.route[i + 1]));
  }
  return out;
}

std::string header_text(const Worm& w) {
  std::string out = fmt::format("mode {}", model::to_string(w.header.mode));
  if (w.header.subnetwork) out += fmt::format(", {} network", model::to_string(*w.header.subnetwork));
  out += fmt::format(", vc {}", w.header.vc);
  if (w.kind == model::WormKind::kCprLine) out += fmt::format(", cf {:02b}", w.header.control_field);
  return out;
}

std::string format_number(double value) { return fmt::format("{:.6g}", value); }

}  // namespace

model::PortModel parse_port_model(std::string_view text) {
  if (text == "one" || text == "one-port") return model::PortModel::one_port();
  if (text == "two" || text == "two-port") return model::PortModel::two_port();
  if (text == "all" || text == "all-port") return model::PortModel::all_port();
  std::string_view digits = text;
  if (digits.ends_with("-port")) digits.remove_suffix(5);
  int d = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), d);
  if (error == std::errc() && end == digits.data() + digits.size() && d >= 1) return model::PortModel::d_port(d);
  throw model::SpecError(
      fmt::format("port model '{}' is not one of: one, two, all, or a port count d >= 1 (e.g. 4)", text));
}

model::SourceChoice parse_source_choice(const Topology& topology, std::string_view text) {
  if (text == "origin") return model::SourceChoice::origin();
  if (text == "random") return model::SourceChoice::random();
  return model::SourceChoice::fixed(topology.parse_node(text));
}

std::string render_plan_text(const Plan& plan) {
  const model::Request& r = plan.request;
  const Topology& t = r.topology;
  const model::PlanMetrics& m = plan.metrics;
  std::string out = fmt::format("{} on {}: source ({}), {} destination{}, L = {} flits, {}\n", r.algorithm, t.spec(),
                                t.node_name(r.source), r.destinations.size(), r.destinations.size() == 1 ? "" : "s",
                                r.length_flits, r.ports.name());
  out += fmt::format("latency parameters: alpha {} gamma {} beta {} mu {} router_delay {}\n",
                     format_number(r.latency.alpha), format_number(r.latency.gamma), format_number(r.latency.beta),
                     format_number(r.latency.mu), format_number(r.latency.router_delay));
  out += fmt::format("\n{} worm{}:\n", plan.worms.size(), plan.worms.size() == 1 ? "" : "s");
  for (std::size_t i = 0; i < plan.worms.size(); ++i) {
    const Worm& w = plan.worms[i];
    out += fmt::format("  #{} step {}: ({}) {} [{}] port {}{}\n", i, w.step, t.node_name(w.sender),
                       model::to_string(w.kind), header_text(w), w.port,
                       w.port_network ? fmt::format(" ({})", model::to_string(*w.port_network)) : "");
    out +=
        fmt::format("      route {}   [{} hop{}]\n", render_route(t, w), w.hops.size(), w.hops.size() == 1 ? "" : "s");
    if (!w.keeps_copy.empty() || (w.relays.empty() && w.part_receivers.empty())) {
      out += fmt::format("      delivers to {}\n", names(t, w.keeps_copy));
    }
    if (!w.relays.empty()) out += fmt::format("      relays through {}\n", names(t, w.relays));
    if (!w.part_receivers.empty()) {
      out += fmt::format("      part of the message ({} flits) to {}\n", model::worm_data_flits(r, w),
                         names(t, w.part_receivers));
    }
    if (!w.address_field.empty() && w.address_field.size() <= 16) {
      out += fmt::format("      address field {}\n", names(t, w.address_field));
    } else if (!w.address_field.empty()) {
      out += fmt::format("      address field: {} nodes\n", w.address_field.size());
    }
  }
  out += fmt::format(
      "\nsteps {}   traffic {} ({} distinct channels)   additional traffic {}   latency {}\n"
      "contention: stepwise {}, depth {} (pairs of worms sharing a channel)\n",
      m.steps, m.traffic, m.distinct_channels, m.additional_traffic, format_number(m.latency), m.stepwise_contention,
      m.depth_contention);
  out += "\ndestination   step  distance  path hops  latency\n";
  for (const model::DestinationMetrics& d : m.destinations) {
    out += fmt::format("{:<12}  {:>4}  {:>8}  {:>9}  {}\n", t.node_name(d.destination), d.step, d.distance, d.path_hops,
                       format_number(d.latency));
  }
  if (!m.shared_channels.empty()) {
    out += "\nshared channels:\n";
    for (const model::SharedChannel& c : m.shared_channels) {
      out += fmt::format("  ({}) {}: worms #{} and #{}\n", t.node_name(c.node), t.port_name(c.port), c.first_worm,
                         c.second_worm);
    }
  }
  return out;
}

json plan_to_json(const Plan& plan) {
  const model::Request& r = plan.request;
  const Topology& t = r.topology;
  const model::PlanMetrics& m = plan.metrics;
  json worms = json::array();
  for (std::size_t i = 0; i < plan.worms.size(); ++i) {
    const Worm& w = plan.worms[i];
    json hops = json::array();
    for (const model::RouteHop& hop : w.hops) {
      hops.push_back({{"from", t.node_name(hop.node)}, {"port", t.port_name(hop.port)}, {"vc", hop.vc}});
    }
    worms.push_back({
        {"index", i},
        {"sender", t.node_name(w.sender)},
        {"step", w.step},
        {"kind", model::to_string(w.kind)},
        {"header",
         {{"mode", model::to_string(w.header.mode)},
          {"subnetwork", w.header.subnetwork ? json(model::to_string(*w.header.subnetwork)) : json(nullptr)},
          {"vc", w.header.vc},
          {"control_field", w.header.control_field},
          {"destinations", name_list(t, w.header.destinations)}}},
        {"port", w.port},
        {"port_network", w.port_network ? json(model::to_string(*w.port_network)) : json(nullptr)},
        {"route", name_list(t, w.route)},
        {"hops", hops},
        {"keeps_copy", name_list(t, w.keeps_copy)},
        {"relays", name_list(t, w.relays)},
        {"part_receivers", name_list(t, w.part_receivers)},
        {"data_flits", model::worm_data_flits(plan.request, w)},
        {"address_field", name_list(t, w.address_field)},
    });
  }
  json destinations = json::array();
  for (const model::DestinationMetrics& d : m.destinations) {
    destinations.push_back({{"node", t.node_name(d.destination)},
                            {"step", d.step},
                            {"hops", d.path_hops},
                            {"distance", d.distance},
                            {"latency", d.latency}});
  }
  json shared = json::array();
  for (const model::SharedChannel& c : m.shared_channels) {
    shared.push_back({{"node", t.node_name(c.node)},
                      {"port", t.port_name(c.port)},
                      {"first_worm", c.first_worm},
                      {"second_worm", c.second_worm}});
  }
  return {
      {"request",
       {{"topology", t.spec()},
        {"algorithm", r.algorithm},
        {"source", t.node_name(r.source)},
        {"destinations", name_list(t, r.destinations)},
        {"length_flits", r.length_flits},
        {"ports", r.ports.name()},
        {"latency_parameters",
         {{"alpha", r.latency.alpha},
          {"gamma", r.latency.gamma},
          {"beta", r.latency.beta},
          {"mu", r.latency.mu},
          {"router_delay", r.latency.router_delay}}}}},
      {"worms", worms},
      {"steps", m.steps},
      {"traffic", m.traffic},
      {"distinct_channels", m.distinct_channels},
      {"additional_traffic", m.additional_traffic},
      {"latency", m.latency},
      {"stepwise_contention", m.stepwise_contention},
      {"depth_contention", m.depth_contention},
      {"destinations", destinations},
      {"shared_channels", shared},
  };
}

std::string render_sweep_table(const model::SweepResult& result) {
  const model::SweepConfig& c = result.config;
  std::string source = c.source.policy == model::SourcePolicy::kOrigin   ? "origin"
                       : c.source.policy == model::SourcePolicy::kRandom ? "random"
                                                                         : c.topology.node_name(c.source.node);
  std::string out = fmt::format("sweep on {}: {} runs per K, seed {}, source {}, L = {} flits, {}\n", c.topology.spec(),
                                c.runs, c.seed, source, c.length_flits, c.ports.name());
  out += fmt::format("{:<12} {:>5} {:>10} {:>9} {:>12} {:>14} {:>12} {:>10} {:>12}\n", "algorithm", "K", "mean steps",
                     "max steps", "mean traffic", "mean add. traf", "mean latency", "95% CI +-", "max latency");
  for (const model::SweepRow& r : result.rows) {
    const std::optional<double>& ci = r.latency_spread.ci95_half_width;
    out += fmt::format("{:<12} {:>5} {:>10.3f} {:>9} {:>12.2f} {:>14.2f} {:>12.2f} {:>10} {:>12.2f}\n", r.algorithm,
                       r.destinations, r.mean_steps, r.max_steps, r.mean_traffic, r.mean_additional_traffic,
                       r.mean_latency, ci ? fmt::format("{:.2f}", *ci) : "-", r.max_latency);
  }
  return out;
}

std::string choice_reason(const model::AlgorithmChoice& choice) {
  const model::Candidate& pick = choice.ranking.front();
  if (choice.ranking.size() == 1) {
    return fmt::format("the only applicable algorithm, predicted {:.6g} cycles", pick.latency);
  }
  const model::Candidate& next = choice.ranking[1];
  if (!model::same_latency(pick.latency, next.latency)) {
    return fmt::format("the lowest predicted latency, {:.6g} cycles, {:.1f} % below the next, {} ({:.6g})",
                       pick.latency, 100.0 * (next.latency - pick.latency) / next.latency, next.algorithm,
                       next.latency);
  }
  if (pick.traffic != next.traffic) {
    return fmt::format("tied with {} on predicted latency ({:.6g} cycles); less traffic ({} vs {} channel traversals)",
                       next.algorithm, pick.latency, pick.traffic, next.traffic);
  }
  return fmt::format("tied with {} on predicted latency ({:.6g} cycles) and traffic ({}); first in registry order",
                     next.algorithm, pick.latency, pick.traffic);
}

std::string render_choice_text(const model::AlgorithmChoice& choice, const std::string& predictor) {
  std::string out = fmt::format(
      "auto: {} applicable algorithms ranked by predicted latency ({}; ties: less traffic)\n"
      "  rank  {:<15} {:>12} {:>8} {:>6}\n",
      choice.ranking.size(), predictor, "algorithm", "latency", "traffic", "steps");
  for (std::size_t i = 0; i < choice.ranking.size(); ++i) {
    const model::Candidate& c = choice.ranking[i];
    out += fmt::format("  {:>4}  {:<15} {:>12.6g} {:>8} {:>6}\n", i + 1, c.algorithm, c.latency, c.traffic, c.steps);
  }
  for (const model::Candidate& c : choice.excluded) {
    out += fmt::format("  not applicable: {} ({})\n", c.algorithm, c.excluded_because);
  }
  out += fmt::format("auto picks {}: {}\n", choice.ranking.front().algorithm, choice_reason(choice));
  return out;
}

json choice_to_json(const model::AlgorithmChoice& choice, const std::string& predictor) {
  json ranking = json::array();
  for (const model::Candidate& c : choice.ranking) {
    ranking.push_back({{"algorithm", c.algorithm}, {"latency", c.latency}, {"traffic", c.traffic}, {"steps", c.steps}});
  }
  json excluded = json::array();
  for (const model::Candidate& c : choice.excluded) {
    excluded.push_back({{"algorithm", c.algorithm}, {"reason", c.excluded_because}});
  }
  return {{"predictor", predictor},
          {"pick", choice.ranking.front().algorithm},
          {"reason", choice_reason(choice)},
          {"ranking", ranking},
          {"excluded", excluded}};
}

std::string spread_csv_cells(const model::Spread& spread) {
  if (!spread.standard_deviation || !spread.ci95_half_width) return ",";
  return fmt::format("{:.6g},{:.6g}", *spread.standard_deviation, *spread.ci95_half_width);
}

std::string sweep_csv_header() {
  return "algorithm,k,runs,mean_steps,max_steps,mean_traffic,mean_additional_traffic,mean_latency,max_latency,"
         "sd_steps,ci95_steps,sd_traffic,ci95_traffic,sd_additional_traffic,ci95_additional_traffic,sd_latency,"
         "ci95_latency";
}

std::string sweep_csv_row(const model::SweepRow& r) {
  return fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{}", r.algorithm, r.destinations, r.runs, r.mean_steps,
                     r.max_steps, r.mean_traffic, r.mean_additional_traffic, r.mean_latency, r.max_latency,
                     spread_csv_cells(r.steps_spread), spread_csv_cells(r.traffic_spread),
                     spread_csv_cells(r.additional_traffic_spread), spread_csv_cells(r.latency_spread));
}

std::string sweep_to_csv(const model::SweepResult& result) {
  std::string out = sweep_csv_header() + "\n";
  for (const model::SweepRow& r : result.rows) out += sweep_csv_row(r) + "\n";
  return out;
}

json sweep_to_json(const model::SweepResult& result) {
  const model::SweepConfig& c = result.config;
  json rows = json::array();
  for (const model::SweepRow& r : result.rows) {
    rows.push_back({{"algorithm", r.algorithm},
                    {"k", r.destinations},
                    {"runs", r.runs},
                    {"mean_steps", r.mean_steps},
                    {"max_steps", r.max_steps},
                    {"mean_traffic", r.mean_traffic},
                    {"mean_additional_traffic", r.mean_additional_traffic},
                    {"mean_latency", r.mean_latency},
                    {"max_latency", r.max_latency},
                    {"sd_steps", optional_json(r.steps_spread.standard_deviation)},
                    {"ci95_steps", optional_json(r.steps_spread.ci95_half_width)},
                    {"sd_traffic", optional_json(r.traffic_spread.standard_deviation)},
                    {"ci95_traffic", optional_json(r.traffic_spread.ci95_half_width)},
                    {"sd_additional_traffic", optional_json(r.additional_traffic_spread.standard_deviation)},
                    {"ci95_additional_traffic", optional_json(r.additional_traffic_spread.ci95_half_width)},
                    {"sd_latency", optional_json(r.latency_spread.standard_deviation)},
                    {"ci95_latency", optional_json(r.latency_spread.ci95_half_width)}});
  }
  const char* policy = c.source.policy == model::SourcePolicy::kOrigin   ? "origin"
                       : c.source.policy == model::SourcePolicy::kRandom ? "random"
                                                                         : "fixed";
  return {{"config",
           {{"topology", c.topology.spec()},
            {"algorithms", c.algorithms},
            {"k", c.destination_counts},
            {"runs", c.runs},
            {"seed", c.seed},
            {"source", policy},
            {"source_node", c.source.policy == model::SourcePolicy::kFixed ? json(c.topology.node_name(c.source.node))
                                                                           : json(nullptr)},
            {"length_flits", c.length_flits},
            {"ports", c.ports.name()},
            {"latency_parameters",
             {{"alpha", c.latency.alpha},
              {"gamma", c.latency.gamma},
              {"beta", c.latency.beta},
              {"mu", c.latency.mu},
              {"router_delay", c.latency.router_delay}}}}},
          {"rows", rows}};
}

}  // namespace wormcast::sim
