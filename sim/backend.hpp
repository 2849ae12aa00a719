// The one backend selector: which routers a simulation runs on, by name, and how to make them. The
// verilated RTL, or the cycle-level timing model (model/timing_router.hpp, docs/timing.md) built to
// behave the same, cycle for cycle. Used by the multicast runs (sim/multicast_run.hpp), the
// synthetic traffic (sim/traffic_sweep.hpp) and the command line.
#pragma once

#include <memory>
#include <string>

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

class Network;

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
};

// The routers of `backend`: the verilated RTL (owning its one VerilatedContext) or the model.
std::unique_ptr<RouterBackend> make_backend(Backend backend);
// make_backend(parse_backend(name)).
std::unique_ptr<RouterBackend> make_backend(const std::string& name);

}  // namespace wormcast::sim
