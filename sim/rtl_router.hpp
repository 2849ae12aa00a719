// SPDX-License-Identifier: Apache-2.0
// One verilated router (rtl/noc_router.sv) behind a small interface, so the harness wires any
// parameter variant the same way (docs/firmware.md, "The harness"). Variants: rtl/CMakeLists.txt.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>

#include "firmware/noc_wire_format.hpp"

class VerilatedContext;

namespace wormcast::sim {

inline constexpr unsigned kMaxRouterVcs = 4;   // NumVcs of the widest variant (fixed-capacity arrays)
inline constexpr unsigned kRouterDepth = 4;    // BufDepth: flits per input VC = credits per output VC
inline constexpr unsigned kRouterLabelW = 16;  // LabelW (default)
// noc_router DimSizeW: one dimension's size, 1..2^CoordW (a side of 64 has coordinates 0..63).
inline constexpr unsigned kRouterDimSizeW = wire::kCoordW + 1;

// The configuration inputs, captured by the router (RegisterConfig = 1) at the clock edges while
// reset is low (docs/rtl.md, "Router top").
struct RouterConfig {
  std::uint32_t own_label = 0;
  std::array<std::uint32_t, 6> nbr_label{};
  std::uint32_t connected = 0, wrap = 0, boundary = 0;  // one bit per network port
  std::array<std::uint32_t, 3> coord{};
  std::array<std::uint32_t, 3> size{1, 1, 1};
  bool torus = false;
  unsigned dims = 2;
};

// A link in one cycle: a flit and the VC it travels on.
struct Link {
  bool valid = false;
  unsigned vc = 0;
  wire::Flit flit;
  // Ejection ports only: the router input VC the flit comes from (eject_stream_o); flits of
  // different worms interleave per flit on an ejection port.
  unsigned stream = 0;
};

// route_drops_o saturates here (noc_pkg::RouteDropsW = 8 bits).
inline constexpr unsigned kRouteDropsMax = 255;

// errors_o's bits (noc_pkg::Err*, docs/rtl-modules.md "Sticky errors and cover points"): protocol
// errors the router survives by dropping a flit or a credit, sticky until reset. kRouterErrorsW bits
// (noc_pkg::ErrorsW).
inline constexpr unsigned kRouterErrorsW = 3;
inline constexpr unsigned kRouterErrorBufferOverflow = 1u << 0;       // a flit into a full input VC buffer
inline constexpr unsigned kRouterErrorCreditOverflow = 1u << 1;       // a credit into a full output-VC counter
inline constexpr unsigned kRouterErrorEjectCreditOverflow = 1u << 2;  // a credit into a full ejection pool
// The errors of `bits` in words ("a flit arrived for a full input VC buffer; ..."), "" for none.
std::string router_error_text(unsigned bits);

class RouterModel {
 public:
  virtual ~RouterModel() = default;
  virtual unsigned net_ports() const = 0;
  virtual unsigned locals() const = 0;
  unsigned ports() const { return net_ports() + locals(); }
  // NumVcs: VCs per port, input and output (router_variant_vcs).
  virtual unsigned vcs() const = 0;
  virtual void configure(const RouterConfig& config) = 0;
  virtual void set_reset(bool active) = 0;
  // Registered outputs.
  virtual Link output(unsigned port) const = 0;
  virtual std::uint32_t credits_to_senders() const = 0;  // in_credit_o, bit port * vcs() + vc
  // Status (docs/rtl-modules.md, "Drained worms"): input VCs draining a worm whose head had no route
  // decision (draining_o, bit port * vcs() + vc), and the sticky count of worms drained since
  // reset (route_drops_o, saturating at kRouteDropsMax).
  virtual std::uint64_t draining() const = 0;
  virtual unsigned route_drops() const = 0;
  // Sticky protocol errors since reset (errors_o, kRouterError* bits).
  virtual unsigned errors() const = 0;
  // Inputs for the next edge.
  virtual void set_input(unsigned port, const Link& link) = 0;
  virtual void set_credits_from_receivers(std::uint32_t bits) = 0;  // out_credit_i
  virtual void set_clock(bool high) = 0;                            // and evaluate
  // Activity-driven evaluation (docs/timing.md, "Activity-driven evaluation"): true when the next
  // clock edge cannot change the router, so both evaluations of the cycle may be skipped (clock
  // and state left as they are; the router sees its next rising edge when it is next clocked). It
  // holds nothing that moves (quiescent: every input buffer empty, no registered output valid, no
  // credit owed to a sender) and the inputs set for the next edge are idle (no valid flit, no
  // credit bit). The default, false, always evaluates: a wrapper that must see every edge (the
  // waveform recorder) or a router that cannot tell.
  virtual bool can_skip() const { return false; }
};

// The variant with `net_ports` network ports and the fewest local pairs >= `locals`. Throws
// std::invalid_argument naming the variants when there is none.
std::unique_ptr<RouterModel> make_router(VerilatedContext* context, unsigned net_ports, unsigned locals,
                                         const std::string& name);
// The variants built, in words.
std::string router_variants();
// NumVcs of the variants with `net_ports` network ports (docs/rtl.md "VC-class plan"): 4 with four
// network ports (2D meshes and tori, star:5: xy-path's classes need four VCs on 2D meshes), 2
// otherwise. model::router_vc_count says the same per topology (SimTopology test compares them).
unsigned router_variant_vcs(unsigned net_ports);
// The local pairs of the variant make_router builds for (`net_ports`, `locals`); the model
// backend (sim/model_router.hpp) builds the same. Throws std::invalid_argument like make_router.
unsigned router_variant_locals(unsigned net_ports, unsigned locals);

}  // namespace wormcast::sim
