// SPDX-License-Identifier: Apache-2.0
// A multicast run on a board through its host link (docs/host-link.md, "Runs on the board"): the
// node firmware runs on the host, one fw::NetworkInterface per node; each message a firmware sends
// is injected into the board's NI of its node at the board cycle its start-up ends, and every
// message the board's NIs log is read back with its board cycle and given to the receiver's
// firmware after its receive cost. The board is a verilated board top behind the UART pin model
// (fpga-sim) or a serial port (fpga): any sim::ByteLink.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/plan.hpp"
#include "sim/host_link_client.hpp"
#include "sim/run_record.hpp"

namespace wormcast::sim {

struct BoardRunOptions {
  long alpha = 227;  // processor cycles per send start-up
  long gamma = 227;  // processor cycles per receive
  // Board cycles without a new logged flit, once every queue is empty and no node is busy, after
  // which the network is taken as drained (at least the longest worm's latency on the board).
  long quiet_cycles = 2000;
  // Status round trips added to every injection's lead: the host's own time between commands,
  // which a board that runs freely (a real one, or one behind a pseudo-terminal) does not wait for.
  long margin_round_trips = 2;
  // Board cycles the run may take before it is stopped as stalled.
  long max_cycles = 5'000'000;
};

// One message a node's firmware handed to the link.
struct BoardInjection {
  model::NodeId node = model::kNoNode;
  long wanted = 0;    // run cycle its start-up ended (the timing model would inject it then)
  long injected = 0;  // run cycle the board was asked to inject it (wanted + the link's wait)
  unsigned words = 0;
};

struct BoardRun {
  // Deliveries at run cycles (board cycle - base); worms are not recorded (the board does not
  // report links), so the record is checked with check_deliveries.
  RunRecord record;
  std::vector<BoardInjection> injections;
  // The board cycle that is run cycle 0: set when the first messages are injected, far enough
  // ahead for all of them to arrive in time.
  std::uint32_t base = 0;
  // One status command's round trip in board cycles, measured before the run: the link latency
  // unit the margins are made of.
  long status_round_trip = 0;
  // Late starts and log stalls the board counted (0 on a run that measured the network alone).
  unsigned late = 0, stalls = 0;
  // The run cycles added to sends by the link: the largest injected - wanted.
  long link_wait = 0;
};

// Throws model::UnsupportedError naming what the board cannot run: a topology other than a 2D mesh
// of `nodes` nodes (the board's status block gives its node count, not its shape: the caller knows
// that the mesh it names is the board's), a port model other than one-port (rd excepted: it injects
// on one port whatever the model says). model::RequestError when the requests' topologies differ.
void check_board_requests(const std::vector<model::Request>& requests, unsigned nodes);

// Runs the requests on the board behind `link`, request i's source starting it at run cycle
// start_cycles[i] (empty: every one at 0; multicasts due in one cycle start in index order, before
// the receives that end in that cycle), as run_multicasts does on the routers. A start, like a
// receive, is known to the host only once the board has passed its cycle, so a send it makes may
// wait for the link (BoardRun::link_wait). Throws model::UnsupportedError for a request the board
// cannot run (more than one port, a message longer than its queue takes, a topology other than the
// board's mesh), model::RequestError for start cycles of another count than the requests or below
// 0, and HostLinkError when the link breaks its protocol.
BoardRun run_on_board(const std::vector<model::Request>& requests, const BoardRunOptions& options, HostLinkClient& link,
                      const std::vector<long>& start_cycles = {});

}  // namespace wormcast::sim
