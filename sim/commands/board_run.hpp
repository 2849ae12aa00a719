// SPDX-License-Identifier: Apache-2.0
// `wormcast run --backend fpga-sim | fpga` (docs/host-link.md, "wormcast run on the board"): the node
// firmware on the host, the network on a board through its host link (sim/fpga_backend.hpp): the
// verilated board top behind the UART pin model (fpga-sim, sim/board_top.hpp) or a board on a serial
// port (fpga, sim/serial_link.hpp). Each run is checked against its plan's deliveries.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/algorithm_choice.hpp"
#include "model/plan.hpp"
#include "sim/commands/command.hpp"

namespace wormcast::sim::commands {

// "fpga-sim, fpga".
std::string board_backend_names();
bool is_board_backend(const std::string& name);
// --backend's help: every backend, and which board ones this build runs.
std::string backend_help();
// Throws CommandError (exit 2) for --backend fpga-sim in a build without the verilated board top
// (WORMCAST_BOARD_SIM=OFF), naming how to build it; every other backend passes.
void check_backend_built(const std::string& backend);

// --serial-timeout's default: an answer's bytes follow one another at line rate, so a silence this
// long means no board is answering.
inline constexpr unsigned kDefaultSerialTimeoutMs = 3000;

// Where the board is and how the runs are printed.
struct BoardCommand {
  std::string backend;  // "fpga-sim" or "fpga"
  std::string serial;   // fpga: the serial port's device
  unsigned baud = 115200;
  // fpga: how long the host waits for the board's next byte before it gives up (a board answers at
  // line rate; a simulated board behind a pty on a busy machine may need longer).
  unsigned serial_timeout_ms = kDefaultSerialTimeoutMs;
  long alpha = 0, gamma = 0;
  bool json = false;
};

// One request and, for --algorithm auto, the model's pick that made it.
struct PickedRequest {
  model::Request request;
  std::optional<model::AlgorithmChoice> choice;
};

// Checks every request against the board (a topology or port model it cannot run: model errors,
// exit 2) before a board is made, then runs them one after another on one board, each as its own
// run from cycle 0, and prints each (text, or JSON: one object, or an array for several runs).
// Exit 1 when a run fails its check. Throws CommandError when the board cannot be reached.
ExitCode run_on_board_backend(const BoardCommand& command, const std::vector<PickedRequest>& requests);

// `run --requests` on a board: the plans' multicasts in one run, plan i's source starting it at
// start_cycles[i]; prints each request's last delivery and check, the board's figures and the run's
// check (text, or JSON). Exit 1 when a check fails; the board's errors as run_on_board_backend.
ExitCode run_requests_on_board_backend(const BoardCommand& command, const std::vector<model::Plan>& plans,
                                       const std::vector<long>& start_cycles);

}  // namespace wormcast::sim::commands
