// SPDX-License-Identifier: Apache-2.0
#include "sim/compare.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <tuple>

#include "sim/scoreboard.hpp"

namespace wormcast::sim {
namespace {

bool same_link(const Link& a, const Link& b) {
  return a.valid == b.valid && a.vc == b.vc && a.flit == b.flit && a.stream == b.stream;
}

// The order the co-simulation reads a router's ports in: ejection ports first, then network ports.
std::tuple<long, model::NodeId, unsigned> position(const LinkEvent& e, unsigned net_ports) {
  return {e.cycle, e.router, e.port >= net_ports ? e.port - net_ports : 64 + e.port};
}

std::string describe_link(const std::optional<Link>& l, bool ejection) {
  if (!l) return "no flit";
  const char* kind = l->flit.head ? (l->flit.tail ? "head+tail" : "head") : (l->flit.tail ? "tail" : "body");
  return ejection ? fmt::format("{} flit {:#018x} from stream {}", kind, l->flit.data, l->stream)
                  : fmt::format("{} flit {:#018x} on VC {}", kind, l->flit.data, l->vc);
}

RunRecord timed_run(const std::vector<model::Plan>& plans, RunOptions options, Backend backend, LinkTrace& trace,
                    double& seconds) {
  options.backend = backend;
  options.trace = &trace;
  const auto start = std::chrono::steady_clock::now();
  RunRecord record = run_multicasts(requests_of(plans), options);
  seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return record;
}

}  // namespace

std::vector<double> analytic_delivery_cycles(const model::Plan& plan, long alpha, long gamma) {
  model::Request request = plan.request;
  request.latency = model::LatencyParameters::rtl(static_cast<double>(alpha), static_cast<double>(gamma));
  std::vector<double> cycles;
  for (const model::DestinationMetrics& d : model::compute_metrics(request, plan.worms).destinations) {
    cycles.push_back(d.latency);
  }
  return cycles;
}

double relative_error(double estimate, long measured) {
  const double diff = std::abs(estimate - static_cast<double>(measured));
  return measured > 0 ? diff / static_cast<double>(measured) : (diff == 0 ? 0.0 : 1.0);
}

std::optional<Divergence> first_divergence(const LinkTrace& rtl, const LinkTrace& model, unsigned net_ports) {
  const std::size_t n = std::min(rtl.size(), model.size());
  std::size_t k = 0;
  while (k < n && rtl[k].cycle == model[k].cycle && rtl[k].router == model[k].router && rtl[k].port == model[k].port &&
         same_link(rtl[k].link, model[k].link)) {
    ++k;
  }
  if (k == rtl.size() && k == model.size()) return std::nullopt;
  Divergence d;
  const bool rtl_first =
      k < rtl.size() && (k == model.size() || position(rtl[k], net_ports) <= position(model[k], net_ports));
  const bool model_first =
      k < model.size() && (k == rtl.size() || position(model[k], net_ports) <= position(rtl[k], net_ports));
  const LinkEvent& e = rtl_first ? rtl[k] : model[k];
  d.cycle = e.cycle;
  d.router = e.router;
  d.port = e.port;
  if (rtl_first) d.rtl = rtl[k].link;
  if (model_first) d.model = model[k].link;
  return d;
}

std::string describe(const Divergence& d, const model::Topology& t) {
  const bool ejection = d.port >= static_cast<unsigned>(t.port_count());
  const std::string port = ejection ? fmt::format("ejection {}", d.port - static_cast<unsigned>(t.port_count()))
                                    : t.port_name(static_cast<model::Port>(d.port));
  return fmt::format("cycle {}, router {} ({}), port {}: RTL {}; model {}", d.cycle, d.router, t.node_name(d.router),
                     port, describe_link(d.rtl, ejection), describe_link(d.model, ejection));
}

Comparison compare_backends(const std::vector<model::Plan>& plans, const RunOptions& options) {
  Comparison c;
  LinkTrace rtl_trace, model_trace;
  const RunRecord rtl = timed_run(plans, options, Backend::kRtl, rtl_trace, c.rtl_seconds);
  const RunRecord model = timed_run(plans, options, Backend::kModel, model_trace, c.model_seconds);
  c.rtl_check = check_run(plans, rtl);
  c.model_check = check_run(plans, model);
  c.rtl_cycles = rtl.cycles;
  c.model_cycles = model.cycles;
  double sum = 0, analytic_sum = 0;
  for (std::size_t i = 0; i < plans.size(); ++i) {
    const std::vector<long> a = delivery_cycles(plans[i], static_cast<int>(i), rtl);
    const std::vector<long> b = delivery_cycles(plans[i], static_cast<int>(i), model);
    const std::vector<double> estimate = analytic_delivery_cycles(plans[i], options.alpha, options.gamma);
    MulticastTiming latency{0, 0, 0.0};
    for (std::size_t k = 0; k < a.size(); ++k) {
      DestinationTiming d{static_cast<int>(i), plans[i].request.destinations[k], a[k], b[k], estimate[k]};
      c.destinations.push_back(d);
      latency.rtl = d.rtl < 0 || latency.rtl < 0 ? -1 : std::max(latency.rtl, d.rtl);
      latency.model = d.model < 0 || latency.model < 0 ? -1 : std::max(latency.model, d.model);
      latency.analytic = std::max(latency.analytic, d.analytic);
      const long diff = std::abs(d.model - d.rtl);
      const double rel = relative_error(static_cast<double>(d.model), d.rtl);
      sum += rel;
      c.max_relative_error = std::max(c.max_relative_error, rel);
      c.max_difference = std::max(c.max_difference, diff);
      if (diff != 0) ++c.differing;
      const double analytic_rel = relative_error(d.analytic, d.rtl);
      analytic_sum += analytic_rel;
      c.analytic_max_relative_error = std::max(c.analytic_max_relative_error, analytic_rel);
    }
    c.multicasts.push_back(latency);
    c.analytic_max_latency_error =
        std::max(c.analytic_max_latency_error, relative_error(latency.analytic, latency.rtl));
  }
  if (!c.destinations.empty()) {
    c.mean_relative_error = sum / static_cast<double>(c.destinations.size());
    c.analytic_mean_relative_error = analytic_sum / static_cast<double>(c.destinations.size());
  }
  c.divergence =
      first_divergence(rtl_trace, model_trace, static_cast<unsigned>(plans.front().request.topology.port_count()));
  return c;
}

std::string render_comparison_text(const std::vector<model::Plan>& plans, const Comparison& c) {
  const model::Topology& t = plans.front().request.topology;
  std::string out;
  for (std::size_t i = 0; i < plans.size(); ++i) {
    const model::Request& r = plans[i].request;
    out += fmt::format("multicast {}: {} on {}, source ({}), {} destinations, L = {}, {}\n", i, r.algorithm, t.spec(),
                       t.node_name(r.source), r.destinations.size(), r.length_flits, r.ports.name());
  }
  out += fmt::format("  {:>9} {:<12} {:>9} {:>11} {:>10} {:>9} {:>8}\n", "multicast", "destination", "RTL cycle",
                     "model cycle", "difference", "analytic", "error");
  for (const DestinationTiming& d : c.destinations) {
    out += fmt::format("  {:>9} {:<12} {:>9} {:>11} {:>10} {:>9} {:>6.1f} %\n", d.multicast,
                       fmt::format("({})", t.node_name(d.node)), d.rtl, d.model, d.model - d.rtl, d.analytic,
                       100 * (d.analytic - static_cast<double>(d.rtl)) / static_cast<double>(std::max(1L, d.rtl)));
  }
  out += fmt::format(
      "destinations {}, differing {}, mean relative error {:.4f} %, max {:.4f} % (largest difference {} cycles)\n",
      c.destinations.size(), c.differing, 100 * c.mean_relative_error, 100 * c.max_relative_error, c.max_difference);
  for (std::size_t i = 0; i < c.multicasts.size(); ++i) {
    const MulticastTiming& m = c.multicasts[i];
    out += fmt::format("multicast {} latency: RTL {}, model {}, analytic {}\n", i, m.rtl, m.model, m.analytic);
  }
  out += fmt::format(
      "analytic (LatencyParameters::rtl) against the RTL: mean relative error {:.2f} %, max {:.2f} % per destination, "
      "max {:.2f} % per multicast latency\n",
      100 * c.analytic_mean_relative_error, 100 * c.analytic_max_relative_error, 100 * c.analytic_max_latency_error);
  out += fmt::format("first divergence: {}\n", c.divergence ? describe(*c.divergence, t) : "none");
  out += fmt::format("rtl: {}, {} cycles, {:.3f} s; model: {}, {} cycles, {:.3f} s; speed ratio {:.1f}\n",
                     c.rtl_check.empty() ? "pass" : c.rtl_check, c.rtl_cycles, c.rtl_seconds,
                     c.model_check.empty() ? "pass" : c.model_check, c.model_cycles, c.model_seconds,
                     c.model_seconds > 0 ? c.rtl_seconds / c.model_seconds : 0.0);
  return out;
}

nlohmann::json comparison_to_json(const std::vector<model::Plan>& plans, const Comparison& c) {
  const model::Topology& t = plans.front().request.topology;
  nlohmann::json j;
  nlohmann::json rows = nlohmann::json::array();
  for (const DestinationTiming& d : c.destinations) {
    rows.push_back({{"multicast", d.multicast},
                    {"node", t.node_name(d.node)},
                    {"rtl", d.rtl},
                    {"model", d.model},
                    {"difference", d.model - d.rtl},
                    {"analytic", d.analytic}});
  }
  nlohmann::json multicasts = nlohmann::json::array();
  for (std::size_t i = 0; i < c.multicasts.size(); ++i) {
    const MulticastTiming& m = c.multicasts[i];
    multicasts.push_back({{"multicast", i}, {"rtl", m.rtl}, {"model", m.model}, {"analytic", m.analytic}});
  }
  j["topology"] = t.spec();
  j["destinations"] = rows;
  j["mean_relative_error"] = c.mean_relative_error;
  j["max_relative_error"] = c.max_relative_error;
  j["max_difference"] = c.max_difference;
  j["differing"] = c.differing;
  j["multicasts"] = multicasts;
  j["analytic_mean_relative_error"] = c.analytic_mean_relative_error;
  j["analytic_max_relative_error"] = c.analytic_max_relative_error;
  j["analytic_max_latency_error"] = c.analytic_max_latency_error;
  j["divergence"] = nullptr;
  if (c.divergence) {
    j["divergence"] = {{"cycle", c.divergence->cycle},
                       {"router", t.node_name(c.divergence->router)},
                       {"port", c.divergence->port},
                       {"text", describe(*c.divergence, t)}};
  }
  j["rtl"] = {
      {"check", c.rtl_check.empty() ? "pass" : c.rtl_check}, {"cycles", c.rtl_cycles}, {"seconds", c.rtl_seconds}};
  j["model"] = {{"check", c.model_check.empty() ? "pass" : c.model_check},
                {"cycles", c.model_cycles},
                {"seconds", c.model_seconds}};
  j["speed_ratio"] = c.model_seconds > 0 ? c.rtl_seconds / c.model_seconds : 0.0;
  return j;
}

}  // namespace wormcast::sim
