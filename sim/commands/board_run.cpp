// SPDX-License-Identifier: Apache-2.0
#include "sim/commands/board_run.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <memory>

#include "model/errors.hpp"
#include "model/planner.hpp"
#include "sim/board_top.hpp"
#include "sim/commands/common.hpp"
#include "sim/fpga_backend.hpp"
#include "sim/plan_views.hpp"
#include "sim/run_views.hpp"
#include "sim/scoreboard.hpp"
#include "sim/serial_link.hpp"

namespace wormcast::sim::commands {
namespace {

// Status round trips added to every injection's lead on a board that runs freely while the host
// works between commands (BoardRunOptions::margin_round_trips): the board on a serial port. The
// simulated board stops between the host's bytes and needs only the default.
constexpr long kFreeRunningMargin = 10;

// The board the runs go to: its bytes, and what the simulated one saw besides.
class Board {
 public:
  explicit Board(const BoardCommand& command) {
    if (command.backend == "fpga-sim") {
      top_ = make_board_top();
      client_ = std::make_unique<HostLinkClient>(*top_);
      title_ = fmt::format("verilated board top, {} cycles per UART bit", kBoardTopCyclesPerBit);
      return;
    }
    serial_ = std::make_unique<SerialLink>(command.serial, command.baud,
                                           std::chrono::milliseconds(command.serial_timeout_ms));
    try {
      client_ = std::make_unique<HostLinkClient>(*serial_);
    } catch (const HostLinkError& e) {
      throw CommandError(fmt::format("no board answered the status command on serial port '{}' at {} baud: {}",
                                     echo(command.serial), command.baud, e.what()));
    }
    title_ = fmt::format("board on {} at {} baud", echo(command.serial), command.baud);
  }

  HostLinkClient& link() { return *client_; }
  const std::string& title() const { return title_; }
  bool free_running() const { return top_ == nullptr; }
  // What the simulated board's pins and assertions reported since it was made ("" when nothing).
  std::string fault() const {
    if (top_ == nullptr) return "";
    if (top_->assertion_failed()) return "an RTL assertion fired on the board top";
    if (top_->framing_errors() != 0)
      return fmt::format("{} bytes from the board had a low stop bit", top_->framing_errors());
    return "";
  }

 private:
  std::unique_ptr<BoardTop> top_;
  std::unique_ptr<SerialLink> serial_;
  std::unique_ptr<HostLinkClient> client_;
  std::string title_;
};

// The run's verdict: its errors (the board's sticky errors, a stall, the simulated board's faults),
// then the scoreboard's check of the deliveries against the plan.
std::string check_board_run(const model::Plan& plan, const BoardRun& run) {
  if (!run.record.errors.empty()) return run.record.errors.front();
  return check_deliveries(plan, 0, run.record);
}

long last_delivery(const std::vector<long>& cycles) {
  return cycles.empty() ? -1 : *std::max_element(cycles.begin(), cycles.end());
}

// The link's figures of a board run (both outputs' last line before the check).
std::string render_link_figures(const BoardRun& run) {
  return fmt::format(
      "link wait {} cycles (the most a send waited for the host link), status round trip {} cycles, late starts {}, "
      "log stalls {}\n",
      run.link_wait, run.status_round_trip, run.late, run.stalls);
}

// The board's figures of a run, as both JSON outputs give them.
nlohmann::json board_figures_to_json(const BoardRun& run) {
  return {{"messages", run.injections.size()},          {"cycles", run.record.cycles}, {"link_wait", run.link_wait},
          {"status_round_trip", run.status_round_trip}, {"late_starts", run.late},     {"log_stalls", run.stalls}};
}

std::string render_board_run_text(const model::Plan& plan, const BoardRun& run, const std::string& check,
                                  const BoardCommand& command, const std::string& title) {
  const model::Request& r = plan.request;
  const model::Topology& t = r.topology;
  std::string out = fmt::format("{} on {} ({}: {}), source ({}), {} destinations, L = {}, {}, alpha = {}, gamma = {}\n",
                                r.algorithm, t.spec(), command.backend, title, t.node_name(r.source),
                                r.destinations.size(), r.length_flits, r.ports.name(), command.alpha, command.gamma);
  out += fmt::format("  {:<12} {:>4} {:>14}\n", "destination", "step", "delivery cycle");
  const std::vector<long> cycles = delivery_cycles(plan, 0, run.record);
  for (std::size_t i = 0; i < r.destinations.size(); ++i) {
    out += fmt::format("  {:<12} {:>4} {:>14}\n", fmt::format("({})", t.node_name(r.destinations[i])),
                       plan.metrics.destinations[i].step, cycles[i]);
  }
  out += fmt::format("messages injected {}, last delivery at cycle {}, board cycles {}\n", run.injections.size(),
                     last_delivery(cycles), run.record.cycles);
  out += render_link_figures(run);
  out += fmt::format("check: {}\n", check.empty() ? "pass" : check);
  return out;
}

nlohmann::json board_run_to_json(const model::Plan& plan, const BoardRun& run, const std::string& check,
                                 const BoardCommand& command) {
  const model::Topology& t = plan.request.topology;
  nlohmann::json j = plan_to_json(plan);
  const std::vector<long> cycles = delivery_cycles(plan, 0, run.record);
  nlohmann::json deliveries = nlohmann::json::object();
  for (std::size_t i = 0; i < cycles.size(); ++i) deliveries[t.node_name(plan.request.destinations[i])] = cycles[i];
  j["backend"] = command.backend;
  j["alpha"] = command.alpha;
  j["gamma"] = command.gamma;
  j["delivery_cycles"] = deliveries;
  j["board"] = board_figures_to_json(run);
  j["check"] = check.empty() ? "pass" : check;
  return j;
}

}  // namespace

std::string board_backend_names() { return "fpga-sim, fpga"; }
bool is_board_backend(const std::string& name) { return name == "fpga-sim" || name == "fpga"; }

std::string backend_help() {
  return fmt::format(
      "rtl (verilated routers), model (the cycle-level timing model), fpga-sim (the firmware on the host, the network "
      "on the verilated board top behind its UART: mesh:2x2, one-port{}) or fpga (the same through a board on --serial "
      "DEV) (docs/host-link.md, \"wormcast run on the board\")",
      board_top_built() ? "" : "; not in this build, made with WORMCAST_BOARD_SIM=OFF");
}

void check_backend_built(const std::string& backend) {
  if (backend != "fpga-sim" || board_top_built()) return;
  throw CommandError(
      "this wormcast was built without the simulated board (the verilated board top of --backend fpga-sim: build "
      "option WORMCAST_BOARD_SIM, off in `make run`'s cli-only build); build it with `make run "
      "CMAKE_FLAGS=-DWORMCAST_BOARD_SIM=ON` or `make build`, or configure CMake with -DWORMCAST_BOARD_SIM=ON. "
      "--backend fpga --serial DEV (a board on a serial port) runs in this build");
}

namespace {

// The board of `command`, checked for `requests` before and after it answers (fpga-sim's shape is
// known before; a board's node count once it has answered).
std::unique_ptr<Board> board_for(const BoardCommand& command, const std::vector<model::Request>& requests) {
  if (command.backend == "fpga-sim") {
    const model::Topology board = model::Topology::parse(kBoardTopTopology);
    if (requests.front().topology.spec() != board.spec()) {
      throw model::UnsupportedError(
          fmt::format("topology {} is not the verilated board top's: --backend fpga-sim runs {}",
                      requests.front().topology.spec(), board.spec()));
    }
    check_board_requests(requests, static_cast<unsigned>(board.node_count()));
  }
  auto board = std::make_unique<Board>(command);
  check_board_requests(requests, board->link().nodes());
  return board;
}

BoardRunOptions board_run_options(const BoardCommand& command, const Board& board) {
  BoardRunOptions options;
  options.alpha = command.alpha;
  options.gamma = command.gamma;
  if (board.free_running()) options.margin_round_trips = kFreeRunningMargin;
  return options;
}

}  // namespace

ExitCode run_requests_on_board_backend(const BoardCommand& command, const std::vector<model::Plan>& plans,
                                       const std::vector<long>& start_cycles) {
  std::vector<model::Request> all;
  for (const model::Plan& p : plans) all.push_back(p.request);
  const std::unique_ptr<Board> board = board_for(command, all);
  BoardRun run = run_on_board(all, board_run_options(command, *board), board->link(), start_cycles);
  if (const std::string fault = board->fault(); !fault.empty())
    run.record.errors.insert(run.record.errors.begin(), fault);
  std::vector<std::string> checks;
  std::string check = run.record.errors.empty() ? "" : run.record.errors.front();
  for (std::size_t i = 0; i < plans.size(); ++i) {
    checks.push_back(check_deliveries(plans[i], static_cast<int>(i), run.record));
    if (check.empty() && !checks.back().empty()) check = fmt::format("request {}: {}", i, checks.back());
  }
  const model::Topology& t = all.front().topology;
  if (command.json) {
    print_json({{"topology", t.spec()},
                {"backend", command.backend},
                {"alpha", command.alpha},
                {"gamma", command.gamma},
                {"requests", request_rows_to_json(plans, start_cycles, run.record, checks)},
                {"board", board_figures_to_json(run)},
                {"check", check.empty() ? "pass" : check}});
  } else {
    std::string out = fmt::format("{} requests on {} ({}: {}), alpha = {}, gamma = {}\n", plans.size(), t.spec(),
                                  command.backend, board->title(), command.alpha, command.gamma);
    out += render_request_rows(plans, start_cycles, run.record, checks);
    out += fmt::format("messages injected {}, board cycles {}\n", run.injections.size(), run.record.cycles);
    out += render_link_figures(run);
    out += fmt::format("check: {}\n", check.empty() ? "pass" : check);
    fmt::print("{}", out);
  }
  return check.empty() ? ExitCode::kSuccess : ExitCode::kCheckFailed;
}

ExitCode run_on_board_backend(const BoardCommand& command, const std::vector<PickedRequest>& requests) {
  std::vector<model::Request> all;
  for (const PickedRequest& r : requests) all.push_back(r.request);
  const std::unique_ptr<Board> board_owner = board_for(command, all);
  Board& board = *board_owner;
  const BoardRunOptions options = board_run_options(command, board);

  int passed = 0;
  nlohmann::json runs = nlohmann::json::array();
  constexpr const char* kPredictor = "the analytic latency under the RTL's parameters";
  for (const PickedRequest& r : requests) {
    const model::Plan plan = model::plan(r.request);
    BoardRun run = run_on_board({r.request}, options, board.link());
    if (const std::string fault = board.fault(); !fault.empty())
      run.record.errors.insert(run.record.errors.begin(), fault);
    const std::string check = check_board_run(plan, run);
    passed += check.empty() ? 1 : 0;
    if (command.json) {
      nlohmann::json j = board_run_to_json(plan, run, check, command);
      if (r.choice) j["auto"] = choice_to_json(*r.choice, kPredictor);
      runs.push_back(j);
    } else {
      if (r.choice) fmt::print("{}\n", render_choice_text(*r.choice, kPredictor));
      fmt::print("{}", render_board_run_text(plan, run, check, command, board.title()));
    }
  }
  const int count = static_cast<int>(requests.size());
  if (command.json) {
    print_json(count == 1 ? runs.front() : runs);
  } else if (count > 1) {
    fmt::print("{} runs, {} passed the check\n", count, passed);
  }
  return passed == count ? ExitCode::kSuccess : ExitCode::kCheckFailed;
}

}  // namespace wormcast::sim::commands
