// SPDX-License-Identifier: Apache-2.0
// The links between routers, wired in C++: each cycle a router's network inputs are its
// neighbours' registered outputs toward it and its output credits are what the neighbours' inputs
// return (docs/model.md, "Port numbering": the link from port p arrives on Topology::reverse_port(p)).
// Valid because a router has no combinational path from an input to an output (docs/rtl.md,
// "Registered outputs"). Shared by the multicast runs (sim/multicast_run.cpp) and RouterNetwork.
#pragma once

#include <cstdint>
#include <vector>

#include "model/timing_router.hpp"
#include "model/topology.hpp"
#include "sim/rtl_router.hpp"

namespace wormcast::sim {

// A model router's output register as the harness's Link.
inline Link link_of(const model::TimingLink& l) { return Link{l.valid, l.vc, l.flit, l.stream}; }

class LinkWiring {
 public:
  explicit LinkWiring(const model::Topology& topology);

  // Before the clock edge, every router first: router r's registered network outputs and its
  // credits to senders. Returns whether a flit left on a network port.
  bool capture(model::NodeId r, const RouterModel& router);
  // Then every router: drives r's network inputs from the neighbours' captured outputs and returns
  // the credit bits its network output VCs get back (bit port * router.vcs() + VC), for the caller to
  // combine with the local ports' credits in set_credits_from_receivers.
  std::uint32_t drive(model::NodeId r, RouterModel& router);

 private:
  unsigned net_;
  std::vector<model::NodeId> neighbours_;  // r * net_ + p, kNoNode where unconnected
  std::vector<unsigned> toward_;           // r * net_ + p: the neighbour's port toward r
  std::vector<Link> outputs_;              // r * net_ + p
  std::vector<std::uint32_t> credits_;     // per router
  // r * net_ + p: the last link set on that input was valid (1 at first, so every input is set
  // once). An idle input that stays idle is not set again: most links idle at low load.
  std::vector<std::uint8_t> input_was_valid_;
  // Per router: the router object last passed in and the timing model inside it (nullptr for a
  // verilated one). A model router's links are read and written in place, without a virtual call
  // per port (the model's fast path): the same flits its RouterModel interface carries, and an
  // input that goes idle only has its valid bit cleared (the model reads nothing else of it).
  struct Reading {
    const RouterModel* router = nullptr;
    const model::TimingRouter* model = nullptr;
  };
  struct Writing {
    RouterModel* router = nullptr;
    model::TimingRouter* model = nullptr;
  };
  std::vector<Reading> read_;
  // Per model router: its valid network outputs when captured (bit port), so that drive() reads a
  // neighbour's output register only when it holds a flit.
  std::vector<std::uint32_t> valid_outputs_;
  std::vector<Writing> write_;
  const model::TimingRouter* reading(model::NodeId r, const RouterModel& router);
  model::TimingRouter* writing(model::NodeId r, RouterModel& router);
};

}  // namespace wormcast::sim
