// SPDX-License-Identifier: Apache-2.0
// wormcast run: multicasts run by the node firmware on the verilated routers (or on the timing
// model: --backend model; or on a board through its host link: --backend fpga-sim | fpga,
// sim/commands/board_run.hpp), each checked against its plan (exit 1 when a check fails).
#include <fmt/format.h>

#include <filesystem>
#include <memory>
#include <optional>

#include "model/errors.hpp"
#include "model/planner.hpp"
#include "sim/algorithm_race.hpp"
#include "sim/commands/board_run.hpp"
#include "sim/commands/command.hpp"
#include "sim/commands/common.hpp"
#include "sim/commands/request_file.hpp"
#include "sim/fpga_backend.hpp"
#include "sim/network_svg.hpp"
#include "sim/plan_views.hpp"
#include "sim/run_views.hpp"
#include "sim/scoreboard.hpp"

namespace wormcast::sim::commands {
namespace {

// The file of run `index` (0-based) of `count`: `path` itself for a single run, else `a-2.svg` for
// `a.svg`.
std::string numbered_path(const std::string& path, int index, int count) {
  if (count == 1 || path.empty()) return path;
  const std::filesystem::path p(path);
  return (p.parent_path() / fmt::format("{}-{}{}", p.stem().string(), index + 1, p.extension().string())).string();
}

// `--requests FILE`: the file's multicasts at once, each at its start cycle, each checked.
ExitCode run_requests(const std::string& path, const model::Topology& t, const RequestOptions& defaults,
                      double eject_stall, int credit_delay, std::uint64_t seed, Backend backend, Evaluation evaluation,
                      const std::string& trace, bool json) {
  const std::vector<FileRequest> entries = read_request_file(path, t, defaults, seed, RunOptions{}.max_cycles - 1);
  RunOptions options = harness_options(entries.front().request.algorithm, defaults, eject_stall, seed);
  options.credit_delay = credit_delay;
  options.backend = backend;
  options.evaluation = evaluation;
  options.trace_path = trace;
  // The run takes the requests; the plans are the scoreboard's.
  std::vector<model::Request> requests;
  std::vector<model::Plan> plans;
  std::vector<long> start_cycles;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    requests.push_back(entries[i].request);
    try {
      plans.push_back(model::plan(entries[i].request));
    } catch (const std::invalid_argument& e) {
      throw CommandError(fmt::format("{} entry {}: {}", path, i, e.what()));
    }
    start_cycles.push_back(entries[i].start_cycle);
  }
  const RunRecord record = run_multicasts(requests, options, start_cycles);
  const std::vector<std::string> checks = check_each_multicast(plans, record);
  const std::string check = check_run(plans, record);
  if (json) {
    print_json(requests_run_to_json(plans, start_cycles, record, checks, check, options));
  } else {
    fmt::print("{}", render_requests_text(plans, start_cycles, record, checks, check, options));
  }
  return check.empty() ? ExitCode::kSuccess : ExitCode::kCheckFailed;
}

// `run --requests` on a board backend: the file's multicasts in one board run at their start cycles.
ExitCode run_requests_on_board(const std::string& path, const model::Topology& t, const RequestOptions& defaults,
                               std::uint64_t seed, BoardCommand command) {
  const std::vector<FileRequest> entries = read_request_file(path, t, defaults, seed, BoardRunOptions{}.max_cycles - 1);
  const RunOptions options = harness_options(entries.front().request.algorithm, defaults, 0.0, seed);
  command.alpha = options.alpha;
  command.gamma = options.gamma;
  std::vector<model::Plan> plans;
  std::vector<long> start_cycles;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    try {
      plans.push_back(model::plan(entries[i].request));
    } catch (const std::invalid_argument& e) {
      throw CommandError(fmt::format("{} entry {}: {}", path, i, e.what()));
    }
    start_cycles.push_back(entries[i].start_cycle);
  }
  return run_requests_on_board_backend(command, plans, start_cycles);
}

// The routers' backend of `--backend name`; the error names every backend run takes.
Backend parse_router_backend(const std::string& name) {
  try {
    return parse_backend(name);
  } catch (const model::SpecError&) {
    throw model::SpecError(
        fmt::format("backend '{}' is not one of: {}, {}", echo(name), backend_names(), board_backend_names()));
  }
}

// The options a board run has no use for (the board reports deliveries, not links; a run starts
// every request at cycle 0, one request at a time), and the serial port's.
struct BoardOptions {
  std::vector<const CLI::Option*> router_only;
  const CLI::Option* serial;
  const CLI::Option* baud;
  const CLI::Option* serial_timeout;
};

// Refuses, not ignores, the routers' options on a board and the serial port's off the serial board.
void check_board_options(const std::string& backend, const BoardOptions& board) {
  if (is_board_backend(backend)) {
    for (const CLI::Option* option : board.router_only) {
      if (option->count() != 0) {
        throw CommandError(fmt::format(
            "{} does not apply to --backend {}: a board run takes -t, -a, -s, -d, -L, -p, --alpha, --gamma, --seed, "
            "--count, --requests, --json (and --serial, --baud, --serial-timeout with --backend fpga)",
            option->get_name(), backend));
      }
    }
  }
  if (backend == "fpga") {
    if (board.serial->count() == 0) {
      throw CommandError("--backend fpga needs --serial DEV: the serial port of the board (e.g. /dev/ttyUSB0)");
    }
    return;
  }
  for (const CLI::Option* option : {board.serial, board.baud, board.serial_timeout}) {
    if (option->count() != 0) {
      throw CommandError(fmt::format("{} is for --backend fpga (a board on a serial port), not --backend {}",
                                     option->get_name(), echo(backend)));
    }
  }
}

}  // namespace

Command add_run(CLI::App& app) {
  struct Options {
    std::string topology;
    RequestSpec spec;
    std::string requests;
    std::string backend = "rtl";
    std::string evaluation = "activity";
    double eject_stall = 0.0;
    int credit_delay = 0;
    bool block_ejection = false;
    RequestOptions request;
    bool json = false;
    std::string svg;
    std::string trace;
    std::string serial;
    unsigned baud = 115200;
    unsigned serial_timeout_ms = kDefaultSerialTimeoutMs;
  };
  auto o = std::make_shared<Options>();
  CLI::App* command = app.add_subcommand(
      "run", "Run multicasts with the node firmware on the verilated routers; check them against the plan");
  command->add_option("-t,--topology", o->topology, "topology spec")->required();
  // -a, -s and -d are required unless --requests gives the multicasts (checked after parsing).
  CLI::Option* algorithm = command->add_option(
      "-a,--algorithm", o->spec.algorithm,
      firmware_algorithm_names() +
          ", or auto: the one with the lowest predicted latency on the routers (needs --ports) (required without "
          "--requests)");
  CLI::Option* source = command->add_option("-s,--source", o->spec.source,
                                            "source node, 'origin' or 'random' (required without --requests)");
  CLI::Option* dests =
      command->add_option("-d,--dests", o->spec.destinations,
                          "destination nodes, 'all' for a broadcast, or random:K (required without --requests)");
  CLI::Option* requests = command->add_option(
      "--requests", o->requests,
      "a JSON file of multicasts to run at once, each [{\"algorithm\", \"source\", \"dests\", \"ports\", "
      "\"length\", \"start_cycle\"}] (docs/run.md, \"Mixed runs\"); -L and -p give the defaults of its entries");
  command->add_option("--seed", o->spec.seed, "seed for random sources and destinations")
      ->capture_default_str()
      ->check(seed_value());
  CLI::Option* count =
      command->add_option("--count", o->spec.count, "random requests to run, one after another")->capture_default_str();
  command->add_option("--backend", o->backend, backend_help())->capture_default_str();
  CLI::Option* serial = command->add_option(
      "--serial", o->serial, "--backend fpga: the board's serial port (e.g. /dev/ttyUSB0), opened raw 8N1");
  CLI::Option* baud = command
                          ->add_option("--baud", o->baud,
                                       "--backend fpga: the serial port's rate, 9600, 19200, 38400, 57600, 115200, "
                                       "230400, 460800 or 921600 (the board's)")
                          ->capture_default_str();
  CLI::Option* serial_timeout =
      command
          ->add_option("--serial-timeout", o->serial_timeout_ms,
                       "--backend fpga: milliseconds to wait for the board's next byte before giving up, 10 to 600000")
          ->capture_default_str()
          ->check(CLI::Range(10u, 600000u));
  CLI::Option* evaluation =
      command
          ->add_option("--evaluation", o->evaluation,
                       "activity (clock only the routers that can change, visit only the nodes that can act) or full "
                       "(every router and every node every cycle); the same run either way (docs/timing.md, "
                       "\"Activity-driven evaluation\")")
          ->capture_default_str();
  CLI::Option* eject_stall =
      command->add_option("--eject-stall", o->eject_stall, "probability an ejection port takes no flit in a cycle")
          ->capture_default_str()
          ->check(probability_in(kMaxEjectStall));
  CLI::Option* credit_delay =
      command
          ->add_option("--credit-delay", o->credit_delay,
                       fmt::format("back-pressure on the network links: each credit reaches its sender 0..N cycles "
                                   "late, drawn from --seed (N in 0..{})",
                                   kMaxCreditDelay))
          ->capture_default_str()
          ->check(whole_cycles_in(kMaxCreditDelay));
  // Test only (hidden from --help): the watchdog's report on a network that cannot drain.
  CLI::Option* block_ejection =
      command->add_flag("--block-ejection", o->block_ejection, "fault injection: no ejection port ever takes a flit")
          ->group("");
  o->request.add_to(*command, LatencyOptions::kStartUpOnly);
  command->add_flag(
      "--json", o->json,
      "print each run as the plan's JSON plus backend, delivery_cycles, rtl (what the backend did; a board run: "
      "board, its figures) and check (with --requests: topology, backend, requests with each one's "
      "delivery_cycles and check, cycles, check)");
  CLI::Option* svg = command->add_option("--svg", o->svg,
                                         "draw the network and each worm's links as the RTL monitor saw them into this "
                                         "SVG file (with --count N: FILE-1.svg ... FILE-N.svg)");
  CLI::Option* trace = command->add_option(
      "--trace", o->trace, "write a waveform of every router into this FST file (with --count N: FILE-1.fst ...)");
  for (CLI::Option* excluded : {algorithm, source, dests, count, svg}) requests->excludes(excluded);
  const BoardOptions board{
      {svg, trace, evaluation, eject_stall, credit_delay, block_ejection}, serial, baud, serial_timeout};
  return {command, [o, algorithm, source, dests, requests, board] {
            check_board_options(o->backend, board);
            check_backend_built(o->backend);
            const bool on_board = is_board_backend(o->backend);
            // The routers' backend, checked before anything else runs (a board run has no routers here).
            const Backend backend = on_board ? Backend::kRtl : parse_router_backend(o->backend);
            const Evaluation evaluation = parse_evaluation(o->evaluation);
            const model::Topology t = model::Topology::parse(o->topology);
            const double eject_stall = o->block_ejection ? 1.0 : o->eject_stall;
            if (requests->count() != 0 && on_board) {
              return run_requests_on_board(o->requests, t, o->request, o->spec.seed,
                                           {o->backend, o->serial, o->baud, o->serial_timeout_ms, 0, 0, o->json});
            }
            if (requests->count() != 0) {
              return run_requests(o->requests, t, o->request, eject_stall, o->credit_delay, o->spec.seed, backend,
                                  evaluation, o->trace, o->json);
            }
            for (const CLI::Option* needed : {algorithm, source, dests}) {
              if (needed->count() == 0) throw CLI::RequiredError(needed->get_name());
            }
            const bool automatic = o->spec.algorithm == model::kAutoAlgorithm;
            if (automatic && o->request.ports.empty()) throw model::SpecError(kAutoNeedsPorts);
            RunOptions options = harness_options(o->spec.algorithm, o->request, eject_stall, o->spec.seed);
            options.evaluation = evaluation;
            options.credit_delay = o->credit_delay;
            // auto: each request gets the model's pick among the algorithms the firmware runs.
            const auto pick = [&](const model::Request& request) {
              PickedRequest picked{request, std::nullopt};
              if (automatic) {
                picked.choice = choose_for_run(request, options.alpha, options.gamma);
                picked.request.algorithm = picked.choice->ranking.front().algorithm;
              }
              return picked;
            };
            if (on_board) {
              std::vector<PickedRequest> picked;
              for (const model::Request& request : requests_of(t, o->spec, o->request)) picked.push_back(pick(request));
              return run_on_board_backend(
                  {o->backend, o->serial, o->baud, o->serial_timeout_ms, options.alpha, options.gamma, o->json},
                  picked);
            }
            options.backend = backend;
            const int count = o->spec.count;
            int passed = 0;
            int index = 0;
            nlohmann::json runs = nlohmann::json::array();
            for (const model::Request& request : requests_of(t, o->spec, o->request)) {
              const auto [picked, choice] = pick(request);
              const model::Plan plan = model::plan(picked);
              options.trace_path = numbered_path(o->trace, index, count);
              const RunRecord record = run_multicasts({plan.request}, options);
              const std::string check = check_run({plan}, record);
              if (!o->svg.empty()) {
                write_svg(numbered_path(o->svg, index, count), drawing_of_run(plan, 0, record, check, options.backend));
              }
              ++index;
              passed += check.empty() ? 1 : 0;
              constexpr const char* kPredictor = "the analytic latency under the RTL's parameters";
              if (o->json) {
                nlohmann::json run = run_to_json(plan, 0, record, check, options);
                if (choice) run["auto"] = choice_to_json(*choice, kPredictor);
                runs.push_back(run);
              } else {
                if (choice) fmt::print("{}\n", render_choice_text(*choice, kPredictor));
                fmt::print("{}", render_run_text(plan, 0, record, check, options));
              }
            }
            if (o->json) {
              print_json(count == 1 ? runs.front() : runs);
            } else if (count > 1) {
              fmt::print("{} runs, {} passed the check\n", count, passed);
            }
            return passed == count ? ExitCode::kSuccess : ExitCode::kCheckFailed;
          }};
}

}  // namespace wormcast::sim::commands
