// SPDX-License-Identifier: Apache-2.0
// Verilator test of the route-compute stage (rtl/noc_route_compute.sv) against the model's routing
// functions (model/*_routing.cpp), exhaustive per topology: every router is configured from the
// model (own and neighbour labels, port flags, coordinates, sizes), and for every destination,
// every input class 0..3 and every mode encoding 0..7 the RTL decision (valid, eject, port, class)
// must equal the model's try_route, with nullopt as valid_o = 0. A mode whose routing function the
// topology does not support (model::routing_functions_for), source routing (mode 4: the router
// follows the worm's route entries instead) and the reserved modes 5..7 must give no decision at all.
// The mode encodings are the wire format's (firmware/noc_wire_format.hpp, rtl/noc_pkg.sv).
//
// The module is verilated with --assert (its NOC_ASSERTs are live) for NumPorts = 3, 4, 5, 6. The
// 6-port model runs every topology with the ports beyond the network's degree unconnected; the
// model whose port count fits the network (max(3, ports)) runs every topology with fewer than 6
// ports again, so the narrower port_o of the 3- and 4-port instances is covered too.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <verilated.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "Vnoc_route_compute_p3.h"
#include "Vnoc_route_compute_p4.h"
#include "Vnoc_route_compute_p5.h"
#include "Vnoc_route_compute_p6.h"
#include "firmware/noc_wire_format.hpp"
#include "model/errors.hpp"
#include "model/labeling.hpp"
#include "model/routing.hpp"
#include "model/topology.hpp"

namespace wormcast::verif {
namespace {

using model::Coord;
using model::HamiltonianLabeling;
using model::LinkClass;
using model::NodeId;
using model::Port;
using model::RouteStep;
using model::RoutingFunction;
using model::Topology;

// Parameters and encodings of rtl/noc_route_compute.sv and rtl/noc_pkg.sv.
constexpr int kLabelW = 16;         // LabelW default
constexpr int kCoordW = 8;          // CoordW default
constexpr int kDimSizeW = 9;        // DimSizeW = CoordW + 1: a side of 2**CoordW nodes
constexpr int kModeEncodings = 8;   // 3-bit mode field; 4 is source routing, 5..7 are reserved
constexpr int kClassEncodings = 4;  // 2-bit class field
// route_mode_e value of each routing function of the model.
constexpr const char* kModeFunction[] = {"hamiltonian-path", "hamiltonian-cycle", "dimension-order", "cpr-line"};
constexpr int kModeHamCycle = static_cast<int>(wire::Mode::kHamiltonianCycle);
constexpr int kModeDimOrder = static_cast<int>(wire::Mode::kDimensionOrder);
static_assert(static_cast<int>(wire::Mode::kHamiltonianPath) == 0 && kModeHamCycle == 1 && kModeDimOrder == 2 &&
                  static_cast<int>(wire::Mode::kCprLine) == 3,
              "kModeFunction lists the routing functions in wire-format mode order");
// Reported for mismatches beyond this many only in the count.
constexpr int kMaxReportedMismatches = 10;

// A flat vector port (`logic [N*W-1:0]`), packed into 32-bit words the way Verilator stores it.
class FlatBits {
 public:
  explicit FlatBits(int width) : words_(static_cast<std::size_t>((width + 31) / 32), 0) {}

  void Set(int lsb, int width, std::uint32_t value) {
    for (int i = 0; i < width; ++i) {
      const int bit = lsb + i;
      std::uint32_t& word = words_.at(static_cast<std::size_t>(bit / 32));
      const std::uint32_t mask = std::uint32_t{1} << (bit % 32);
      word = ((value >> i) & 1U) != 0 ? (word | mask) : (word & ~mask);
    }
  }

  // Copies the value into a verilated port: an integer (CData .. QData) or a VlWide.
  template <class PortData>
  void DriveTo(PortData& port) const {
    if constexpr (std::is_integral_v<PortData>) {
      std::uint64_t value = words_[0];
      if (words_.size() > 1) value |= std::uint64_t{words_[1]} << 32;
      port = static_cast<PortData>(value);
    } else {
      for (std::size_t i = 0; i < std::size(port.m_storage); ++i) port.at(i) = i < words_.size() ? words_[i] : 0;
    }
  }

 private:
  std::vector<std::uint32_t> words_;
};

// Three fields of `width` bits, x lowest (coordinates: CoordW; dimension sizes: DimSizeW).
FlatBits CoordBits(const Coord& coord, int width = kCoordW) {
  FlatBits bits(3 * width);
  for (int d = 0; d < 3; ++d)
    bits.Set(d * width, width, static_cast<std::uint32_t>(coord[static_cast<std::size_t>(d)]));
  return bits;
}

// The configuration inputs of one router, from the model.
struct RouterConfig {
  int own_label = 0;
  std::vector<int> nbr_label;  // one per RTL port
  std::uint32_t connected = 0;
  std::uint32_t wrap = 0;
  std::uint32_t boundary = 0;
  Coord coord{};
  Coord sizes{};
  bool torus = false;
  int dims = 0;
};

// Everything the test needs to know about one topology: its labels (the path labeling on meshes
// and tori, the cycle labeling on star graphs; on 2D tori with even Y they coincide), the cycle
// labeling's boundary links, and the routing function behind each mode encoding (null where the
// topology does not support it).
struct Network {
  explicit Network(Topology t) : topology(std::move(t)) {
    if (!topology.is_star()) path = HamiltonianLabeling::path(topology);
    try {
      cycle = HamiltonianLabeling::cycle(topology);
    } catch (const model::LabelingError&) {
    } catch (const model::UnsupportedError&) {
    }
    const std::vector<std::string> supported = model::routing_functions_for(topology);
    for (const char* name : kModeFunction) {
      const bool has = std::find(supported.begin(), supported.end(), name) != supported.end();
      functions.push_back(has ? model::make_routing_function(name, topology) : nullptr);
    }
  }

  const HamiltonianLabeling& labels() const { return path ? *path : *cycle; }

  RouterConfig Config(NodeId node, int rtl_ports) const {
    RouterConfig config;
    config.own_label = labels().label(node);
    config.nbr_label.assign(static_cast<std::size_t>(rtl_ports), 0);
    for (Port p = 0; p < rtl_ports; ++p) {
      const NodeId nbr = p < topology.port_count() ? topology.neighbour(node, p) : model::kNoNode;
      if (nbr == model::kNoNode) {
        // An unconnected port's label must be ignored: drive a label the search would like.
        config.nbr_label[static_cast<std::size_t>(p)] = (0xA5A5 ^ (p * 0x1111)) & 0xFFFF;
        continue;
      }
      config.nbr_label[static_cast<std::size_t>(p)] = labels().label(nbr);
      config.connected |= 1U << p;
      if (topology.is_torus() && topology.is_wraparound(node, p)) config.wrap |= 1U << p;
      if (cycle && cycle->link_class(node, p) == LinkClass::kBoundary) config.boundary |= 1U << p;
    }
    if (!topology.is_star()) {
      config.coord = topology.coord(node);
      for (int d = 0; d < topology.dimensions(); ++d) {
        config.sizes[static_cast<std::size_t>(d)] = topology.size(d);
      }
    }
    config.torus = topology.is_torus();
    config.dims = topology.dimensions();
    return config;
  }

  Coord DestCoord(NodeId node) const { return topology.is_star() ? Coord{} : topology.coord(node); }

  Topology topology;
  std::optional<HamiltonianLabeling> path;
  std::optional<HamiltonianLabeling> cycle;
  std::vector<std::unique_ptr<RoutingFunction>> functions;  // indexed by mode encoding 0..3
};

// One decision: what the RTL outputs, or what the model's try_route says in the same terms.
struct Decision {
  bool valid = false;
  bool eject = false;
  int port = 0;
  int vc = 0;
  bool operator==(const Decision&) const = default;
};

Decision FromModel(const std::optional<RouteStep>& step) {
  if (!step) return {};
  if (step->ejects()) return {true, true, 0, 0};
  return {true, false, step->port, step->vc};
}

std::string ModeName(int mode) {
  return mode < static_cast<int>(std::size(kModeFunction)) ? kModeFunction[mode]
                                                           : fmt::format("reserved mode {}", mode);
}

std::string ClassName(int mode, int vc) {
  static constexpr const char* kCycleClasses[] = {"ph", "qh", "pl", "ql"};
  return mode == kModeHamCycle ? kCycleClasses[vc] : fmt::format("vc{}", vc);
}

std::string Describe(const Decision& d, const Topology& topology, int mode) {
  if (!d.valid)
    return d == Decision{} ? "none" : fmt::format("none (but eject={} port={} class={})", d.eject, d.port, d.vc);
  if (d.eject) return d.port == 0 && d.vc == 0 ? "eject" : fmt::format("eject (but port={} class={})", d.port, d.vc);
  const std::string port =
      d.port < topology.port_count() ? topology.port_name(d.port) : fmt::format("unconnected port {}", d.port);
  return fmt::format("{} (port {}) class {}", port, d.port, ClassName(mode, d.vc));
}

// One verilated route-compute instance in its own context; a failed assertion is recorded
// (AssertionFired) instead of aborting.
template <class Model>
class RouteComputeDut {
 public:
  explicit RouteComputeDut(int ports) : ports_(ports), context_(std::make_unique<VerilatedContext>()) {
    context_->fatalOnError(false);
    model_ = std::make_unique<Model>(context_.get(), "dut");
    model_->clk_i = 0;
    model_->rst_ni = 0;
    model_->eval();
  }

  Model* operator->() { return model_.get(); }

  // Loads a router's configuration while reset is low, as the harness does, then releases reset.
  void Configure(const RouterConfig& config) {
    model_->rst_ni = 0;
    model_->own_label_i = static_cast<std::remove_reference_t<decltype(model_->own_label_i)>>(config.own_label);
    FlatBits labels(ports_ * kLabelW);
    for (int p = 0; p < ports_; ++p) {
      labels.Set(p * kLabelW, kLabelW, static_cast<std::uint32_t>(config.nbr_label[static_cast<std::size_t>(p)]));
    }
    labels.DriveTo(model_->nbr_label_i);
    model_->port_connected_i =
        static_cast<std::remove_reference_t<decltype(model_->port_connected_i)>>(config.connected);
    model_->port_is_wrap_i = static_cast<std::remove_reference_t<decltype(model_->port_is_wrap_i)>>(config.wrap);
    model_->port_is_boundary_i =
        static_cast<std::remove_reference_t<decltype(model_->port_is_boundary_i)>>(config.boundary);
    CoordBits(config.coord).DriveTo(model_->own_coord_i);
    CoordBits(config.sizes, kDimSizeW).DriveTo(model_->dim_size_i);
    model_->is_torus_i = config.torus ? 1 : 0;
    model_->num_dims_i = static_cast<std::remove_reference_t<decltype(model_->num_dims_i)>>(config.dims);
    Tick();
    model_->rst_ni = 1;
    model_->eval();
  }

  // Applies one head flit, reads the combinational decision, then clocks once so that the
  // assertions sample this state.
  Decision Decide(int mode, int vc, int dest_label, const Coord& dest_coord) {
    model_->mode_i = static_cast<std::remove_reference_t<decltype(model_->mode_i)>>(mode);
    model_->class_i = static_cast<std::remove_reference_t<decltype(model_->class_i)>>(vc);
    model_->dest_label_i = static_cast<std::remove_reference_t<decltype(model_->dest_label_i)>>(dest_label);
    CoordBits(dest_coord).DriveTo(model_->dest_coord_i);
    model_->eval();
    const Decision decision{model_->valid_o != 0, model_->eject_o != 0, model_->port_o, model_->class_o};
    Tick();
    return decision;
  }

  bool AssertionFired() const { return context_->gotError(); }

 private:
  void Tick() {
    model_->clk_i = 1;
    model_->eval();
    context_->timeInc(1);
    model_->clk_i = 0;
    model_->eval();
    context_->timeInc(1);
  }

  int ports_;
  std::unique_ptr<VerilatedContext> context_;
  std::unique_ptr<Model> model_;
};

std::vector<int> AllModes() {
  std::vector<int> modes;
  for (int mode = 0; mode < kModeEncodings; ++mode) modes.push_back(mode);
  return modes;
}

// What an exhaustive sweep compared, so a test can check that the interesting cases occurred.
struct SweepStats {
  long decisions = 0;
  long mismatches = 0;
  long ejects = 0;
  long hops = 0;
  long model_none = 0;           // supported mode, valid class, but try_route is nullopt
  long cycle_boundary_hops = 0;  // hamiltonian-cycle p -> q on a boundary link
  long dateline_wrap_ahead = 0;  // dimension-order hops in class 0 on a torus
  long dateline_no_wrap = 0;     // dimension-order hops in class 1 on a torus
};

// Every node x destination x class x mode of `network` on a route-compute model with `ports`
// network ports (>= the topology's port count); `modes` (default: all 8 encodings) narrows the sweep.
template <class Model>
SweepStats SweepEveryDecision(const Network& network, int ports, const std::vector<int>& modes = AllModes()) {
  const Topology& t = network.topology;
  SweepStats stats;
  if (network.path && network.cycle) {
    for (NodeId n = 0; n < t.node_count(); ++n) {
      EXPECT_EQ(network.path->label(n), network.cycle->label(n))
          << t.spec() << ": one own_label configuration must serve both label modes";
    }
  }
  RouteComputeDut<Model> dut(ports);
  for (NodeId node = 0; node < t.node_count(); ++node) {
    dut.Configure(network.Config(node, ports));
    for (NodeId dest = 0; dest < t.node_count(); ++dest) {
      const int dest_label = network.labels().label(dest);
      const Coord dest_coord = network.DestCoord(dest);
      for (const int mode : modes) {
        const RoutingFunction* function = mode < static_cast<int>(network.functions.size())
                                              ? network.functions[static_cast<std::size_t>(mode)].get()
                                              : nullptr;
        for (int vc = 0; vc < kClassEncodings; ++vc) {
          const std::optional<RouteStep> step =
              function != nullptr ? function->try_route(node, vc, dest) : std::optional<RouteStep>{};
          const Decision expected = FromModel(step);
          const Decision actual = dut.Decide(mode, vc, dest_label, dest_coord);
          ++stats.decisions;
          if (actual != expected) {
            if (++stats.mismatches <= kMaxReportedMismatches) {
              ADD_FAILURE() << fmt::format(
                  "{} ({} ports): node {} (label {}) -> destination {} (label {}), input class {}, mode {}: "
                  "RTL {}, model {}",
                  t.spec(), ports, t.node_name(node), network.labels().label(node), t.node_name(dest), dest_label,
                  ClassName(mode, vc), ModeName(mode), Describe(actual, t, mode), Describe(expected, t, mode));
            }
            continue;
          }
          if (function != nullptr && vc < function->vc_class_count() && !expected.valid) ++stats.model_none;
          if (expected.eject) ++stats.ejects;
          if (expected.valid && !expected.eject) {
            ++stats.hops;
            if (mode == kModeHamCycle && (vc & 1) == 0 && (expected.vc & 1) == 1) ++stats.cycle_boundary_hops;
            if (mode == kModeDimOrder && t.is_torus())
              ++(expected.vc == 0 ? stats.dateline_wrap_ahead : stats.dateline_no_wrap);
          }
        }
      }
    }
  }
  EXPECT_EQ(stats.mismatches, 0) << t.spec() << " (" << ports << " ports): " << stats.mismatches << " of "
                                 << stats.decisions << " decisions differ from the model";
  EXPECT_FALSE(dut.AssertionFired()) << t.spec() << " (" << ports << " ports): an RTL assertion fired";
  std::cout << fmt::format(
      "{} ({} ports): {} decisions, {} ejects, {} hops, {} model-none, {} cycle boundary hops, dateline "
      "classes 0/1: {}/{}\n",
      t.spec(), ports, stats.decisions, stats.ejects, stats.hops, stats.model_none, stats.cycle_boundary_hops,
      stats.dateline_wrap_ahead, stats.dateline_no_wrap);
  return stats;
}

// The model verilated with exactly max(3, port count) ports.
SweepStats SweepFittedPorts(const Network& network) {
  const int ports = std::max(3, network.topology.port_count());
  switch (ports) {
    case 3:
      return SweepEveryDecision<Vnoc_route_compute_p3>(network, 3);
    case 4:
      return SweepEveryDecision<Vnoc_route_compute_p4>(network, 4);
    case 5:
      return SweepEveryDecision<Vnoc_route_compute_p5>(network, 5);
    default:
      return SweepEveryDecision<Vnoc_route_compute_p6>(network, 6);
  }
}

// Checks that the sweep met the cases each routing function is known to have on this network.
void ExpectInterestingCases(const Network& network, const SweepStats& stats) {
  const Topology& t = network.topology;
  EXPECT_GT(stats.hops, 0);
  EXPECT_GT(stats.ejects, 0);
  if (t.is_mesh()) {
    EXPECT_GT(stats.model_none, 0) << "cpr-line has no decision off the line";
  }
  if (network.functions[kModeHamCycle] != nullptr) {
    EXPECT_GT(stats.cycle_boundary_hops, 0) << "hamiltonian-cycle takes boundary links";
    EXPECT_GT(stats.model_none, 0) << "q-class worms that would need a second boundary hop";
  }
  if (t.is_torus()) {
    EXPECT_GT(stats.dateline_wrap_ahead, 0);
    EXPECT_GT(stats.dateline_no_wrap, 0);
  }
}

std::string TopologyTestName(const testing::TestParamInfo<std::string>& info) {
  std::string name = info.param;
  std::replace(name.begin(), name.end(), ':', '_');
  return name;
}

// The topologies of the task, plus torus:2x4 (parallel x links in one channel network: the
// lowest-port tie rule of the label argmax), torus:2x2x2 (parallel links in every dimension) and
// torus:4x3 (odd row count: no Hamiltonian cycle, so no hamiltonian-cycle decisions).
const std::vector<std::string> kTopologies = {
    "mesh:4x4",    "mesh:5x3",    "mesh:8x8", "mesh:3x3x3", "mesh:4x3x2", "torus:4x4", "torus:5x4",   "torus:6x2",
    "torus:3x3x3", "torus:4x4x4", "star:3",   "star:4",     "star:5",     "torus:2x4", "torus:2x2x2", "torus:4x3",
};

class RouteComputeSixPorts : public testing::TestWithParam<std::string> {};

TEST_P(RouteComputeSixPorts, EveryDecisionMatchesModel) {
  const Network network(Topology::parse(GetParam()));
  ExpectInterestingCases(network, SweepEveryDecision<Vnoc_route_compute_p6>(network, 6));
}

INSTANTIATE_TEST_SUITE_P(Topologies, RouteComputeSixPorts, testing::ValuesIn(kTopologies), TopologyTestName);

class RouteComputeFittedPorts : public testing::TestWithParam<std::string> {};

TEST_P(RouteComputeFittedPorts, EveryDecisionMatchesModel) {
  const Network network(Topology::parse(GetParam()));
  ExpectInterestingCases(network, SweepFittedPorts(network));
}

// The networks with fewer than 6 ports (3D networks are already covered by the 6-port model).
std::vector<std::string> FittedTopologies() {
  std::vector<std::string> specs;
  for (const std::string& spec : kTopologies) {
    if (Topology::parse(spec).port_count() < 6) specs.push_back(spec);
  }
  return specs;
}

INSTANTIATE_TEST_SUITE_P(Topologies, RouteComputeFittedPorts, testing::ValuesIn(FittedTopologies()), TopologyTestName);

// S_6 (720 nodes, 5 ports) on the model verilated with exactly 5 ports: every Hamiltonian-cycle
// decision (the only mode S_6 supports; the other modes are covered on the smaller star graphs).
TEST(RouteComputeFittedPorts, SixStarEveryHamiltonianCycleDecisionMatchesModel) {
  const Network network(Topology::parse("star:6"));
  ExpectInterestingCases(network, SweepEveryDecision<Vnoc_route_compute_p5>(network, 5, {kModeHamCycle}));
}

// A head flit whose destination lies outside the mesh has no decision (the input unit drains its
// worm, docs/rtl-modules.md "Drained worms"), where dimension-order routing alone would pick the edge port
// without a neighbour. A misconfigured router (its -X link marked unconnected while the size puts a
// node there) does pick that port: the HopOnConnectedPort_A assertion must fire (assertions are
// live).
TEST(RouteCompute, OutsideDestinationHasNoDecisionAndHopToUnconnectedPortFiresAssertion) {
  const Network network(Topology::parse("mesh:4x4"));
  const NodeId corner = network.topology.parse_node("3,0");
  RouteComputeDut<Vnoc_route_compute_p4> dut(4);
  dut.Configure(network.Config(corner, 4));
  const Decision legal = dut.Decide(kModeDimOrder, 0, 0, network.topology.coord(network.topology.parse_node("0,0")));
  EXPECT_EQ(legal, (Decision{true, false, model::port_of(0, true), 0}));
  for (const Coord outside : {Coord{4, 0, 0}, Coord{0, 4, 0}, Coord{0, 0, 1}}) {
    EXPECT_EQ(dut.Decide(kModeDimOrder, 0, 0, outside), Decision{})
        << outside[0] << "," << outside[1] << "," << outside[2];
    EXPECT_EQ(dut.Decide(static_cast<int>(wire::Mode::kCprLine), 0, 0, outside), Decision{})
        << outside[0] << "," << outside[1] << "," << outside[2];
  }
  EXPECT_FALSE(dut.AssertionFired());
  RouterConfig miswired = network.Config(corner, 4);
  miswired.connected &= ~(1U << model::port_of(0, true));
  dut.Configure(miswired);
  const Decision hop = dut.Decide(kModeDimOrder, 0, 0, network.topology.coord(network.topology.parse_node("0,0")));
  EXPECT_EQ(hop, (Decision{true, false, model::port_of(0, true), 0}));
  EXPECT_TRUE(dut.AssertionFired());
}

// ---------------------------------------------------------------------------------------------
// Netlist versus RTL (docs/sv-subset.md, "Equivalence by simulation"): decisions recorded from the
// Verilator RTL model replayed on the yosys gate netlist in iverilog must give the same outputs.

// Appends the low `width` bits of `value`, most significant first, as '0'/'1' characters.
void AppendBits(std::string& bits, std::uint64_t value, int width) {
  for (int i = width - 1; i >= 0; --i) bits.push_back(((value >> i) & 1U) != 0 ? '1' : '0');
}

std::string BitsToHex(std::string bits) {
  bits.insert(0, (4 - bits.size() % 4) % 4, '0');
  std::string hex;
  for (std::size_t i = 0; i < bits.size(); i += 4)
    hex.push_back("0123456789abcdef"[std::stoi(bits.substr(i, 4), nullptr, 2)]);
  return hex;
}

// One vector in netlist_tb_route_compute.v's layout: the inputs driven, then the RTL's outputs.
std::string NetlistVector(const RouterConfig& config, int mode, int vc, int dest_label, const Coord& dest_coord,
                          const Decision& rtl) {
  constexpr int kPorts = 6;
  std::string bits;
  AppendBits(bits, static_cast<std::uint64_t>(config.own_label), kLabelW);
  for (int p = kPorts - 1; p >= 0; --p) {
    AppendBits(bits, static_cast<std::uint64_t>(config.nbr_label[static_cast<std::size_t>(p)]), kLabelW);
  }
  AppendBits(bits, config.connected, kPorts);
  AppendBits(bits, config.wrap, kPorts);
  AppendBits(bits, config.boundary, kPorts);
  for (int d = 2; d >= 0; --d)
    AppendBits(bits, static_cast<std::uint64_t>(config.coord[static_cast<std::size_t>(d)]), kCoordW);
  for (int d = 2; d >= 0; --d)
    AppendBits(bits, static_cast<std::uint64_t>(config.sizes[static_cast<std::size_t>(d)]), kDimSizeW);
  AppendBits(bits, config.torus ? 1 : 0, 1);
  AppendBits(bits, static_cast<std::uint64_t>(config.dims), 2);
  AppendBits(bits, static_cast<std::uint64_t>(mode), 3);
  AppendBits(bits, static_cast<std::uint64_t>(vc), 2);
  AppendBits(bits, static_cast<std::uint64_t>(dest_label), kLabelW);
  for (int d = 2; d >= 0; --d)
    AppendBits(bits, static_cast<std::uint64_t>(dest_coord[static_cast<std::size_t>(d)]), kCoordW);
  AppendBits(bits, rtl.valid ? 1 : 0, 1);
  AppendBits(bits, rtl.eject ? 1 : 0, 1);
  AppendBits(bits, static_cast<std::uint64_t>(rtl.port), 3);
  AppendBits(bits, static_cast<std::uint64_t>(rtl.vc), 2);
  return BitsToHex(bits);
}

TEST(RouteComputeNetlist, YosysGateNetlistMatchesVerilatorRtlOnEveryRecordedDecision) {
  // Every node x destination x class x mode (the four routing modes and encoding 4, source routing) of
  // networks that exercise each mode, the tie rules (torus:2x4) and 3D coordinates.
  std::vector<std::string> vectors;
  for (const char* spec : {"mesh:5x3", "mesh:4x3x2", "torus:4x4", "torus:2x4", "star:4"}) {
    const Network network(Topology::parse(spec));
    const Topology& t = network.topology;
    RouteComputeDut<Vnoc_route_compute_p6> dut(6);
    for (NodeId node = 0; node < t.node_count(); ++node) {
      const RouterConfig config = network.Config(node, 6);
      dut.Configure(config);
      for (NodeId dest = 0; dest < t.node_count(); ++dest) {
        for (int mode = 0; mode <= 4; ++mode) {
          for (int vc = 0; vc < kClassEncodings; ++vc) {
            const int dest_label = network.labels().label(dest);
            const Coord dest_coord = network.DestCoord(dest);
            const Decision rtl = dut.Decide(mode, vc, dest_label, dest_coord);
            vectors.push_back(NetlistVector(config, mode, vc, dest_label, dest_coord, rtl));
          }
        }
      }
    }
  }
  const std::string work = WORMCAST_NETLIST_WORK_DIR;
  std::filesystem::create_directories(work);
  const std::string vector_file = work + "/vectors.hex";
  {
    std::ofstream out(vector_file);
    for (const std::string& v : vectors) out << v << '\n';
  }
  const std::string command = fmt::format("{} {} {} {} {} {} {} {} {} > {}/netlist_equiv.out 2>&1",
                                          WORMCAST_NETLIST_SCRIPT, WORMCAST_RTL_DIR, WORMCAST_NETLIST_TB, vector_file,
                                          vectors.size(), work, WORMCAST_YOSYS, WORMCAST_IVERILOG, WORMCAST_VVP, work);
  const int status = std::system(command.c_str());
  std::ifstream log(work + "/netlist_equiv.out");
  const std::string output((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
  EXPECT_EQ(status, 0) << command << "\n" << output;
  std::cout << fmt::format("{} decisions replayed on the yosys netlist: {}", vectors.size(), output);
}

}  // namespace
}  // namespace wormcast::verif
