// SPDX-License-Identifier: Apache-2.0
// The one backend selector: which routers a simulation runs on, by name, and how to make them. The
// verilated RTL, or the cycle-level timing model (model/timing_router.hpp, docs/timing.md) built to
// behave the same, cycle for cycle. Used by the multicast runs (sim/multicast_run.hpp), the
// synthetic traffic (sim/traffic_sweep.hpp) and the command line.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "model/topology.hpp"
#include "sim/rtl_router.hpp"

namespace wormcast::sim {

enum class Backend { kRtl, kModel };

// "rtl" / "model".
std::string backend_name(Backend backend);
// Throws model::SpecError naming the bad value and backend_names().
Backend parse_backend(const std::string& name);
// "rtl, model".
std::string backend_names();
// How output names the routers that ran: "RTL" / "timing model".
std::string backend_title(Backend backend);

class Network;

// How a cycle clocks the routers (docs/timing.md, "Activity-driven evaluation"): every router on
// every edge, or only those whose next edge can change them (RouterModel::can_skip false). Both
// give the same outputs in every cycle (verif/system/activity_lockstep_test.cpp).
enum class Evaluation { kFull, kActivity };
// "full" / "activity".
std::string evaluation_name(Evaluation evaluation);
// Throws model::SpecError naming the bad value and "full, activity".
Evaluation parse_evaluation(const std::string& name);

// Where routers come from. One RTL backend per process at a time (two VerilatedContexts alive at
// once hang Verilator 5.006 at teardown).
class RouterBackend {
 public:
  virtual ~RouterBackend() = default;
  virtual std::string name() const = 0;
  // A router with `net_ports` network ports and at least `locals` local pairs; throws
  // std::invalid_argument naming what exists when there is none.
  virtual std::unique_ptr<RouterModel> make(unsigned net_ports, unsigned locals, const std::string& name) = 0;
  // The routers of `topology` wired as a Network: by default a RouterNetwork of make()'s routers.
  virtual std::unique_ptr<Network> make_network(const model::Topology& topology);
  // Between the clock's edges (the RTL advances simulation time).
  virtual void advance_time() {}
  // An RTL assertion fired since construction.
  virtual bool assertion_failed() const { return false; }
  // How clock_routers clocks this backend's networks (activity-driven unless set).
  Evaluation evaluation() const { return evaluation_; }
  void set_evaluation(Evaluation evaluation) { evaluation_ = evaluation; }
  // Router evaluations (one per router clocked in a cycle) and router cycles (one per router per
  // cycle) since construction: their ratio is the fraction of the routers evaluated.
  std::uint64_t evaluated = 0, router_cycles = 0;

 private:
  Evaluation evaluation_ = Evaluation::kActivity;
};

// One clock cycle of `routers` (all of `backend`), under backend.evaluation(): with kActivity a
// router whose can_skip() holds before the cycle is not evaluated at all (its clock stays high, so
// its next evaluation is again a falling then a rising edge). The falling edge first: it settles this cycle's
// inputs while the clock is low, one time step before the rising edge. New inputs and the edge in
// one eval let a concurrent assertion sample the previous cycle's inputs (IEEE 1800 sampled values)
// while the logic sees the new ones, and a build with --trace-fst then fires PushNotFull_A
// (RouterTrace test, docs/run.md "Waveforms").
// With `clocked` (sized like `routers`), entry i says whether router i was evaluated: a router that
// was not shows the same outputs as before the cycle (all idle), so a harness need not read them.
// With `inputs_set` as well (kActivity only; `clocked` holding the last cycle's flags), entry i says
// whether the harness set any input of router i since the last cycle: a router neither evaluated in
// the last cycle nor given an input is skipped without asking can_skip (it held before the last
// cycle, and neither its state nor its inputs changed since), so a cycle costs the busy routers,
// not all of them.
void clock_routers(const std::vector<std::unique_ptr<RouterModel>>& routers, RouterBackend& backend,
                   std::vector<std::uint8_t>* clocked = nullptr, const std::vector<std::uint8_t>* inputs_set = nullptr);
// Reset held over one clock edge (the configuration is captured then), then released.
void reset_routers(const std::vector<std::unique_ptr<RouterModel>>& routers, RouterBackend& backend);

// The routers of `backend`: the verilated RTL (owning its one VerilatedContext) or the model.
std::unique_ptr<RouterBackend> make_backend(Backend backend);
// make_backend(parse_backend(name)).
std::unique_ptr<RouterBackend> make_backend(const std::string& name);

}  // namespace wormcast::sim
