// SPDX-License-Identifier: Apache-2.0
// A 2D mesh or torus of verilated noc_router models (Vnoc_router_p4_v4_d4: 4 network ports, 1 local
// pair, 4 VCs of 4 flits) wired in C++ as the model's topology, each router configured from the
// model. Shared by router_network_test.cpp and network_top_test.cpp (docs/rtl.md, "Router top", and
// docs/rtl-modules.md, "Network tops").
//
// Wiring, cycle by cycle: input port p of router r is fed by output port p^1 of its neighbour on
// port p, and that input's credits go back to the same neighbour port (docs/model.md port numbers).
// This is valid because a router has no combinational path from an input to an output: every
// output is a register, so copying all outputs to inputs and then clocking every router is the
// same as clocking one netlist of routers.
#pragma once

#include <verilated.h>

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "Vnoc_router_p4_v4_d4.h"
#include "model/errors.hpp"
#include "model/labeling.hpp"
#include "model/topology.hpp"
#include "verif/rtl/verilated_dut.hpp"

namespace wormcast::verif {

// One link flit (noc_pkg::flit_t): {head, tail, data}.
struct Flit {
  bool head = false;
  bool tail = false;
  std::uint64_t data = 0;
  bool operator==(const Flit&) const = default;
};

inline constexpr unsigned kFlitW = 66;

template <class T>
Flit GetFlit(const T& sig, unsigned lsb) {
  return {GetBit(sig, lsb + 65), GetBit(sig, lsb + 64), GetField(sig, lsb, 64)};
}
template <class T>
void SetFlit(T& sig, unsigned lsb, const Flit& f) {
  SetField(sig, lsb, 64, f.data);
  SetBit(sig, lsb + 64, f.tail);
  SetBit(sig, lsb + 65, f.head);
}

// The configuration inputs of one router of a 2D mesh or torus, from the model: the path labeling
// (on a torus with an even row count it is also the cycle labeling), and the cycle labeling's
// boundary links where one exists.
struct RouterConfig {
  static constexpr unsigned kNetPorts = 4;
  int own_label = 0;
  std::array<int, kNetPorts> nbr_label{};  // 0 where unconnected
  std::uint32_t connected = 0;             // bit p: port p has a neighbour
  std::uint32_t wrap = 0;                  // bit p: port p is a torus wraparound link
  std::uint32_t boundary = 0;              // bit p: port p is a boundary link of the cycle labeling
  std::array<int, 2> coord{};              // x, y
  std::array<int, 2> sizes{};              // X, Y
  bool torus = false;
  int dims = 0;
  bool operator==(const RouterConfig&) const = default;
};

inline std::optional<model::HamiltonianLabeling> CycleLabeling(const model::Topology& topology) {
  try {
    return model::HamiltonianLabeling::cycle(topology);
  } catch (const model::LabelingError&) {
  } catch (const model::UnsupportedError&) {
  }
  return std::nullopt;
}

inline RouterConfig ModelRouterConfig(const model::Topology& topology, model::NodeId node) {
  const model::HamiltonianLabeling path = model::HamiltonianLabeling::path(topology);
  const std::optional<model::HamiltonianLabeling> cycle = CycleLabeling(topology);
  RouterConfig config;
  config.own_label = path.label(node);
  for (model::Port p = 0; p < static_cast<model::Port>(RouterConfig::kNetPorts); ++p) {
    const model::NodeId nbr = topology.neighbour(node, p);
    if (nbr == model::kNoNode) continue;
    config.nbr_label[static_cast<std::size_t>(p)] = path.label(nbr);
    config.connected |= 1U << p;
    if (topology.is_wraparound(node, p)) config.wrap |= 1U << p;
    if (cycle && cycle->link_class(node, p) == model::LinkClass::kBoundary) config.boundary |= 1U << p;
  }
  const model::Coord c = topology.coord(node);
  config.coord = {c[0], c[1]};
  config.sizes = {topology.size(0), topology.size(1)};
  config.torus = topology.is_torus();
  config.dims = topology.dimensions();
  return config;
}

// `R`: a verilated noc_router of this shape (Vnoc_router_p4_v4_d4 or a variant with the same ports
// and other parameters).
template <class R>
class RouterMeshOf {
 public:
  using Router = R;
  static constexpr unsigned kNetPorts = RouterConfig::kNetPorts;
  static constexpr unsigned kPorts = kNetPorts + 1;  // + the local pair
  static constexpr unsigned kLocal = kNetPorts;      // the local pair's port index
  static constexpr unsigned kVcs = 4;                // the shipped four-port router (docs/rtl.md "VC-class plan")
  static constexpr unsigned kVcIdW = 2;              // noc_router VcIdW
  static constexpr unsigned kDepth = 4;
  static constexpr unsigned kLabelW = 16;
  static constexpr unsigned kCoordW = 6;              // noc_pkg::CoordW
  static constexpr unsigned kDimSizeW = kCoordW + 1;  // noc_router DimSizeW
  // An injector's credits after reset: kDepth per VC.
  static std::array<int, kVcs> FullCredits() {
    std::array<int, kVcs> credits{};
    credits.fill(static_cast<int>(kDepth));
    return credits;
  }

  // Builds one router per node of a 2D `topology` in `context`, configures each from the model and
  // resets them for one cycle (as Dut does), leaving the clock low. Models sharing a context need
  // distinct names: `name` + node number.
  RouterMeshOf(model::Topology topology, VerilatedContext* context, const std::string& name = "router")
      : topology_(std::move(topology)), context_(context) {
    for (model::NodeId node = 0; node < topology_.node_count(); ++node) {
      routers_.push_back(std::make_unique<Router>(context_, (name + std::to_string(node)).c_str()));
      Configure(*routers_.back(), ModelRouterConfig(topology_, node));
    }
    for (auto& r : routers_) {
      r->clk_i = 0;
      r->rst_ni = 0;
      r->eval();
    }
    Tick();
    for (auto& r : routers_) {
      r->rst_ni = 1;
      r->eval();
    }
  }

  const model::Topology& topology() const { return topology_; }
  int node_count() const { return topology_.node_count(); }
  Router& router(model::NodeId node) { return *routers_[static_cast<std::size_t>(node)]; }
  const Router& router(model::NodeId node) const { return *routers_[static_cast<std::size_t>(node)]; }

  // One cycle: every network input and network credit input from the neighbours' registered
  // outputs, then one clock edge of every router. The caller drives the local inputs (port kLocal:
  // in_valid_i, in_vc_i, in_flit_i and out_credit_i) before.
  void Step() {
    for (model::NodeId r = 0; r < node_count(); ++r) {
      Router& m = router(r);
      for (unsigned p = 0; p < kNetPorts; ++p) {
        const model::NodeId nbr = topology_.neighbour(r, static_cast<model::Port>(p));
        if (nbr == model::kNoNode) {
          SetBit(m.in_valid_i, p, false);
          SetField(m.in_vc_i, p * kVcIdW, kVcIdW, 0);
          SetFlit(m.in_flit_i, p * kFlitW, Flit{});
          SetField(m.out_credit_i, p * kVcs, kVcs, 0);
          continue;
        }
        const Router& o = router(nbr);
        const auto back = static_cast<unsigned>(topology_.reverse_port(static_cast<model::Port>(p)));
        SetBit(m.in_valid_i, p, GetBit(o.out_valid_o, back));
        SetField(m.in_vc_i, p * kVcIdW, kVcIdW, GetField(o.out_vc_o, back * kVcIdW, kVcIdW));
        SetFlit(m.in_flit_i, p * kFlitW, GetFlit(o.out_flit_o, back * kFlitW));
        SetField(m.out_credit_i, p * kVcs, kVcs, GetField(o.in_credit_o, back * kVcs, kVcs));
      }
    }
    Tick();
  }

 private:
  static void Configure(Router& m, const RouterConfig& config) {
    m.own_label_i = static_cast<std::uint16_t>(config.own_label);
    m.nbr_label_i = 0;
    for (unsigned p = 0; p < kNetPorts; ++p) {
      SetField(m.nbr_label_i, p * kLabelW, kLabelW, static_cast<std::uint64_t>(config.nbr_label[p]));
    }
    m.port_connected_i = static_cast<std::uint8_t>(config.connected);
    m.port_is_wrap_i = static_cast<std::uint8_t>(config.wrap);
    m.port_is_boundary_i = static_cast<std::uint8_t>(config.boundary);
    m.own_coord_i = static_cast<std::uint32_t>(config.coord[0] | (config.coord[1] << kCoordW));
    m.dim_size_i = static_cast<std::uint32_t>(config.sizes[0] | (config.sizes[1] << kDimSizeW));
    m.is_torus_i = config.torus;
    m.num_dims_i = static_cast<std::uint8_t>(config.dims);
    m.in_valid_i = 0;
    m.in_vc_i = 0;
    m.out_credit_i = 0;
  }

  // The inputs settle while the clock is low, then the rising edge (as the network top's bench in
  // network_top_test.cpp: an edge in the same eval as new inputs lets a concurrent assertion
  // sample the previous cycle's inputs).
  void Tick() {
    for (auto& r : routers_) r->eval();
    for (auto& r : routers_) {
      r->clk_i = 1;
      r->eval();
    }
    context_->timeInc(1);
    for (auto& r : routers_) {
      r->clk_i = 0;
      r->eval();
    }
    context_->timeInc(1);
  }

  model::Topology topology_;
  VerilatedContext* context_;
  std::vector<std::unique_ptr<Router>> routers_;
};

using RouterMesh = RouterMeshOf<Vnoc_router_p4_v4_d4>;

}  // namespace wormcast::verif
