// SPDX-License-Identifier: Apache-2.0
// Cycle-level timing model of one wormcast router (docs/timing.md), written from docs/rtl.md and
// docs/header-format.md: the same registered outputs, pipeline stages, arbitration order, credits
// and buffer depths as rtl/noc_router.sv, cycle for cycle, with the route decisions taken by the
// model's own routing functions (model/routing.hpp). Pure C++: no simulator, no firmware code
// (only the shared wire-format header). The harness adapter is sim/model_router.hpp.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "firmware/noc_wire_format.hpp"
#include "model/labeling.hpp"
#include "model/routing.hpp"
#include "model/topology.hpp"

namespace wormcast::model {

// The route-compute stage of every router of one network (docs/rtl.md, "The route-compute stage"):
// a head's mode, input class and dest field to a decision. Shared by the routers of a network.
class TimingRouting {
 public:
  explicit TimingRouting(const Topology& topology);

  struct Decision {
    bool valid = false;  // false: no decision (the worm is drained)
    bool eject = false;
    Port port = 0;
    VcClass vc_class = 0;
  };
  // Mode 0..3 through the routing function of that mode; source routes (4) and reserved modes
  // (5..7) have no route-compute decision.
  Decision route(NodeId node, unsigned mode, unsigned vc_class, std::uint32_t dest) const;
  const Topology& topology() const { return topology_; }

 private:
  NodeId label_node(const std::optional<HamiltonianLabeling>& labels, std::uint32_t dest) const;
  NodeId coord_node(std::uint32_t dest) const;

  Topology topology_;
  std::optional<HamiltonianLabeling> path_, cycle_;
  // Indexed by mode: hamiltonian-path, hamiltonian-cycle, dimension-order, cpr-line (null where
  // the function is not defined on the topology: no decision, as in route compute).
  std::array<std::unique_ptr<RoutingFunction>, 4> functions_;
};

// One link in one cycle, as the RTL's registered output or input (valid, VC, flit, and on an
// ejection port the input VC the flit comes from).
struct TimingLink {
  bool valid = false;
  unsigned vc = 0;
  wire::Flit flit;
  unsigned stream = 0;
};

struct TimingRouterParams {
  unsigned net_ports = 4;  // network ports (2 x dimensions), <= kMaxNetPorts
  unsigned locals = 1;     // local injection/ejection pairs
  unsigned vcs = 2;        // VCs per port
  unsigned depth = 4;      // flits per input VC buffer = credits per output VC and per ejection pool
};

class TimingRouter {
 public:
  static constexpr unsigned kMaxNetPorts = 6;
  static constexpr unsigned kMaxPorts = 12;
  static constexpr unsigned kMaxVcs = 4;
  static constexpr unsigned kMaxDepth = 16;
  static constexpr unsigned kMaxInVcs = kMaxPorts * kMaxVcs;

  // Throws std::invalid_argument naming a parameter outside the fixed capacities above, or a
  // node outside the network.
  TimingRouter(const TimingRouterParams& params, std::shared_ptr<const TimingRouting> routing, NodeId node);

  const TimingRouterParams& params() const { return params_; }
  unsigned ports() const { return params_.net_ports + params_.locals; }

  // Asynchronous reset: buffers empty, every VC free, full credits, arbiters at requester 0.
  void reset();
  // Registered outputs.
  const TimingLink& output(unsigned port) const { return out_[port]; }
  std::uint32_t valid_outputs() const { return out_valid_; }      // bit port: output(port).valid
  std::uint64_t credits_to_senders() const { return credit_q_; }  // bit port * vcs + vc
  // Input VCs draining a worm whose head had no decision (draining_o), bit port * vcs + vc.
  std::uint64_t draining() const;
  // Worms drained since reset, sticky, saturating at kRouteDropsMax (route_drops_o).
  unsigned route_drops() const { return route_drops_; }
  static constexpr unsigned kRouteDropsMax = 255;  // noc_pkg::RouteDropsW = 8
  // Sticky protocol errors since reset (errors_o, docs/rtl-modules.md "Sticky errors and cover points"): bit
  // kErrBufferOverflow a flit arrived for a full input buffer, kErrCreditOverflow a credit came
  // back to a full output-VC counter, kErrEjectCreditOverflow to a full ejection pool. The flit or
  // credit is dropped, as in the RTL.
  unsigned errors() const { return errors_; }
  static constexpr unsigned kErrBufferOverflow = 1u << 0;       // noc_pkg::ErrBufferOverflow
  static constexpr unsigned kErrCreditOverflow = 1u << 1;       // noc_pkg::ErrCreditOverflow
  static constexpr unsigned kErrEjectCreditOverflow = 1u << 2;  // noc_pkg::ErrEjectCreditOverflow
  // Inputs, sampled by the next clock edge.
  void set_input(unsigned port, const TimingLink& link) { set_input(port, link.valid, link.vc, link.flit); }
  // An idle input (its VC and flit are not read while it is idle).
  void set_input_idle(unsigned port) {
    in_[port].valid = false;
    in_valid_ &= ~(1u << port);
  }
  // The same from the link's fields (a harness copying another router's output in place).
  void set_input(unsigned port, bool valid, unsigned vc, const wire::Flit& flit) {
    TimingLink& in = in_[port];
    in.valid = valid;
    in.vc = vc;
    in.flit = flit;
    // The ports with a valid input: the idle test and the arrival stage visit only those.
    const std::uint32_t bit = port < ports() ? 1u << port : 0u;
    in_valid_ = valid ? in_valid_ | bit : in_valid_ & ~bit;
  }
  void set_credits_from_receivers(std::uint64_t bits) { credit_in_ = bits; }
  // A network harness that pushes each router's outputs into its neighbours (sim/router_network.cpp,
  // the model's fast path): after the edge that used them, every input link goes idle and the
  // credits from the receivers to none; the next edge's links and credits are then set only where
  // they carry something.
  void clear_inputs() {
    for (std::uint32_t set = in_valid_; set != 0; set &= set - 1) in_[std::countr_zero(set)].valid = false;
    in_valid_ = 0;
    credit_in_ = 0;
  }
  // Credits from one receiver, added to those of the others (bits of other ports are not touched).
  void add_credits_from_receivers(std::uint64_t bits) { credit_in_ |= bits; }
  // One rising clock edge.
  void clock();
  // Activity-driven evaluation (docs/timing.md): the router holds nothing that moves (no flit in
  // any input buffer, no registered output valid, no credit owed to a sender), and the inputs for
  // the next edge are idle (no flit, no credit). Both: clock() changes nothing (it returns at once),
  // so a harness may skip the edge.
  bool quiescent() const { return buffered_ == 0 && credit_q_ == 0 && out_valid_ == 0; }
  bool inputs_idle() const { return credit_in_ == 0 && in_valid_ == 0; }

  // Test-only perturbation (the comparison's negative test): the router holds back the first
  // switch grant it would give for `cycles` edges, delaying that flit and everything behind it.
  void hold_first_grant(unsigned cycles) { hold_first_grant_ = cycles; }

 private:
  enum class State : std::uint8_t { kIdle, kRouted, kActive, kReroute };
  // A segment (docs/rtl.md "Segments"): what one head decision sends where.
  struct Segment {
    bool valid = false;
    std::uint32_t net = 0, spawn = 0;  // network port masks
    bool eject = false, shift = false, promote = false, fixed = false;
    std::uint8_t vc_class = 0, fixed_port = 0;
  };
  // The state of an input VC; its buffer is in fifo_ (kept apart so that the per-cycle scans over
  // the VCs' states stay in a few cache lines).
  // What the next flit to arrive on an input VC is (docs/rtl.md, "The decision store"): a head,
  // an address flit a promotion reroutes (both decided as they arrive), or a flit without a
  // decision of its own.
  enum class Arrive : std::uint8_t { kHead, kAddress, kBody };
  struct InputVc {
    std::uint8_t first = 0, count = 0;
    State state = State::kIdle;
    Segment seg;
    bool drain = false, lead = false, first_seg = false;  // drain: the segment drains a worm without a decision
    // in_class: the class of the worm at the front (its head's); arr_class: the class of the worm
    // arriving (the arrival side decides its address flits in it).
    std::uint8_t in_class = 0, ej_port = 0;
    Arrive arrive = Arrive::kHead;
    std::uint8_t arr_class = 0;
  };
  struct OutputUnit {
    std::array<unsigned, kMaxVcs> credits{};
  };
  // A round-robin arbiter whose winner keeps (advance = 0) or drops (advance = 1) the top place
  // (docs/rtl-modules.md, noc_rr_arbiter).
  struct RrArbiter {
    std::uint64_t prio = 0, all = 0;
    void reset(unsigned n) { prio = all = n >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1; }
    std::uint64_t grant(std::uint64_t req) const {
      const std::uint64_t hi = req & prio, sel = hi != 0 ? hi : req;
      return sel & (~sel + 1);
    }
    void update(std::uint64_t gnt, bool advance) {
      if (gnt == 0) return;
      const std::uint64_t at_or_after = ~(gnt - 1) & all;
      prio = advance ? at_or_after & ~gnt : at_or_after;
    }
  };

  // The combinational signals of one clock edge, passed from stage to stage of clock() (bit j:
  // input VC j; bit o: port o).
  struct Edge {
    std::uint64_t busy = 0;               // busy_ before the edge
    std::uint64_t routed_on_arrival = 0;  // VCs that load their arriving flit's decision
    std::uint64_t va_req = 0, va_ok = 0;  // heads waiting for output VCs; those admitted
    std::uint64_t va_pick = 0, va_top = 0;
    std::uint64_t go = 0, drop = 0;  // VCs that go; of those, the ones dropping their front
    std::uint64_t sa_req = 0, sa_gnt = 0, pop = 0;
    std::uint32_t granted = 0;                    // outputs granted
    std::array<std::uint8_t, kMaxPorts> out_gnt;  // per output: the input port granted + 1, 0 none
  };

  Segment decide(unsigned in_port, const wire::HeadFields& head) const;
  // clock() when no input VC is busy and no flit arrives.
  void idle_edge();
  // The stages of clock(), in order (timing_router.cpp says what each does).
  std::uint64_t vcs_routed_on_arrival() const;
  std::uint64_t request_output_vcs(std::uint64_t routing);
  bool claims_decision_read(unsigned j) const;
  std::uint64_t request_switch(Edge& e);
  void take_output_vcs(const Edge& e);
  void traverse_network_outputs(const Edge& e);
  void traverse_ejection_outputs(const Edge& e);
  void update_input_vcs(const Edge& e);
  void write_arrivals(const Edge& e);
  unsigned out_vc(const InputVc& ivc, unsigned port) const;
  std::uint64_t vc_admission(const std::array<std::uint64_t, kMaxInVcs>& target, std::uint64_t req, std::uint64_t& pick,
                             std::uint64_t& top) const;
  // Returns the outputs granted (bit per port).
  std::uint32_t allocate_switch(const std::array<std::uint32_t, kMaxInVcs>& req_set, std::uint64_t sa_req,
                                std::array<std::uint8_t, kMaxPorts>& out_gnt, std::uint64_t& sa_gnt);
  wire::Flit rewrite_head(const InputVc& ivc, unsigned port, wire::Flit flit) const;
  void enter_routed(InputVc& q, const Segment& seg, bool first_seg, std::uint8_t head_class);
  // Returns true when the credit given back does not fit (it is dropped).
  static bool count_credit(unsigned& count, bool consume, bool give_back, unsigned depth);

  // What the idle test and a network harness read of every router each cycle, first and together
  // (one cache line): the credits to and from the neighbours, the valid inputs and outputs, the
  // buffered flits and the busy VCs. The masks let each stage visit only the VCs and ports with
  // something to do (at 0.1 flits/node/cycle most VCs are Idle and empty): busy_, input VCs that
  // are not Idle or hold a flit (a superset is harmless: every stage tests the state itself);
  // in_valid_, out_valid_, the ports whose input link or registered output is valid.
  std::uint64_t credit_q_ = 0, credit_in_ = 0;
  std::uint32_t in_valid_ = 0, out_valid_ = 0;
  unsigned buffered_ = 0;  // flits in all input buffers (the idle test)
  std::uint64_t busy_ = 0;
  // The input VCs in state Active (a subset of busy_): they neither route nor request a VC, so
  // stages 1 and 2 skip them.
  std::uint64_t active_vcs_ = 0;
  TimingRouterParams params_;
  std::shared_ptr<const TimingRouting> routing_;
  NodeId node_;
  Coord coord_{};
  std::uint32_t connected_ = 0;
  unsigned in_vcs_ = 0;
  unsigned vc_shift_ = 0;  // log2(vcs): input VC j is port j >> vc_shift_, VC j & (vcs - 1)

  const wire::Flit& front(unsigned j) const { return fifo_[j * params_.depth + ivc_[j].first]; }
  const Segment& front_decision(unsigned j) const { return decision_[j * params_.depth + ivc_[j].first]; }

  std::array<InputVc, kMaxInVcs> ivc_{};
  // Input VC j's buffer is fifo_[j * depth ..]; sized once at construction, so a network of
  // routers stays small in the caches (no allocation per cycle).
  std::vector<wire::Flit> fifo_;
  // The decision stored beside each flit of fifo_ (meaningful for the heads and address flits
  // decided on arrival).
  std::vector<Segment> decision_;
  std::array<OutputUnit, kMaxNetPorts> net_out_{};
  std::uint64_t allocated_ = 0;                      // output VCs held by a worm, bit port * vcs + VC (network ports)
  std::array<unsigned, kMaxPorts> eject_credits_{};  // per local port
  std::array<TimingLink, kMaxPorts> out_{}, in_{};
  RrArbiter va_top_, sa_token_;
  // The inputs that requested the switch in the last edge: the token passes among them (registered
  // in the RTL, so that the token is off the allocation cycle; docs/rtl-modules.md, noc_switch_allocator).
  std::uint64_t sa_active_q_ = 0;
  // Registered admission (docs/rtl.md, "Admission and starvation"): the waiting head va_top_ picked
  // in the last edge (one bit, or 0) and its target set then; it is the top while it still waits.
  std::uint64_t va_pick_q_ = 0, va_pick_set_q_ = 0;
  std::array<RrArbiter, kMaxPorts> sa_vc_{}, sa_out_{};
  // Scratch of clock(): the switch request set of each requesting input VC, written and read in
  // the same edge (a member, so that no edge clears it).
  std::array<std::uint32_t, kMaxInVcs> req_set_;
  // Scratch of clock(): the output VCs each waiting head needs, written for the Routed VCs with
  // network ports and read for those only, in the same edge.
  std::array<std::uint64_t, kMaxInVcs> va_target_;
  unsigned route_drops_ = 0;
  unsigned errors_ = 0;
  unsigned hold_first_grant_ = 0;
};

}  // namespace wormcast::model
