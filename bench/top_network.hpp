// SPDX-License-Identifier: Apache-2.0
// The SV network top (rtl/noc_network_top.sv) verilated as one model, behind sim::Network, so the
// same synthetic traffic runs on it as on the C++-wired routers: the faster RTL backend of the
// network benchmark (docs/timing.md, "Benchmarks"). The top wires the links and computes every
// router's configuration inside (docs/rtl-modules.md, "Network tops"; network_top_test.cpp checks
// both against the model and the C++-wired routers cycle for cycle).
#pragma once

#include <fmt/format.h>
#include <verilated.h>

#include <memory>
#include <string>

#include "model/errors.hpp"
#include "sim/router_network.hpp"
#include "verif/rtl/verilated_dut.hpp"

namespace wormcast::bench {

// Top: a verilated noc_network_top with NumLocal = 1, NumVcs = 2, BufDepth = 4, of `Spec`'s mesh.
// Two VCs, not the VC-class plan's four: the bench mirrors a BookSim configuration of 2 VCs and runs
// single-family traffic, which two VCs keep deadlock-free.
template <class Top>
class TopNetwork final : public sim::Network {
 public:
  static constexpr unsigned kVcs = 2;          // NumVcs (bench/CMakeLists.txt)
  static constexpr unsigned kStreamW = 4;      // $clog2(NumPorts * NumVcs) = $clog2(5 * 2)
  static constexpr unsigned kRouteDropsW = 8;  // noc_pkg::RouteDropsW

  TopNetwork(const model::Topology& topology, VerilatedContext* context)
      : topology_(topology),
        labels_(model::HamiltonianLabeling::path(topology_)),
        context_(context),
        top_(std::make_unique<Top>(context, "top")) {
    top_->clk_i = 0;
    top_->rst_ni = 0;
    top_->eval();
    step();
    top_->rst_ni = 1;
    top_->eval();
  }

  const model::Topology& topology() const override { return topology_; }
  const model::HamiltonianLabeling& labels() const override { return labels_; }
  unsigned ejection_ports() const override { return 1; }
  sim::Link ejection(model::NodeId n, unsigned) const override {
    const unsigned i = static_cast<unsigned>(n);
    sim::Link l;
    l.valid = verif::GetBit(top_->ej_valid_o, i);
    l.vc = static_cast<unsigned>(verif::GetField(top_->ej_vc_o, i, 1));
    const unsigned lsb = i * wire::kFlitW;
    l.flit = {verif::GetBit(top_->ej_flit_o, lsb + wire::kFlitHeadBit),
              verif::GetBit(top_->ej_flit_o, lsb + wire::kFlitTailBit), verif::GetField(top_->ej_flit_o, lsb, 64)};
    l.stream = static_cast<unsigned>(verif::GetField(top_->ej_stream_o, i * kStreamW, kStreamW));
    return l;
  }
  unsigned vcs() const override { return kVcs; }
  std::uint32_t injection_credits(model::NodeId n) const override {
    return static_cast<std::uint32_t>(verif::GetField(top_->inj_credit_o, static_cast<unsigned>(n) * kVcs, kVcs));
  }
  void set_injection(model::NodeId n, const sim::Link& l) override {
    const unsigned i = static_cast<unsigned>(n);
    verif::SetBit(top_->inj_valid_i, i, l.valid);
    verif::SetField(top_->inj_vc_i, i, 1, l.vc);
    const unsigned lsb = i * wire::kFlitW;
    verif::SetField(top_->inj_flit_i, lsb, 64, l.flit.data);
    verif::SetBit(top_->inj_flit_i, lsb + wire::kFlitTailBit, l.flit.tail);
    verif::SetBit(top_->inj_flit_i, lsb + wire::kFlitHeadBit, l.flit.head);
  }
  void set_ejection_credits(model::NodeId n, unsigned, std::uint32_t bits) override {
    verif::SetField(top_->ej_credit_i, static_cast<unsigned>(n) * kVcs, kVcs, bits);
  }
  // The top hides its links: progress shows only at the injection and ejection ports. The inputs
  // settle with the clock low before the edge: an edge in the same eval() as new inputs lets the
  // top's concurrent assertions sample the previous cycle's inputs (docs/sv-subset.md, "Tool notes").
  bool step() override {
    top_->eval();
    top_->clk_i = 1;
    top_->eval();
    context_->timeInc(1);
    top_->clk_i = 0;
    top_->eval();
    context_->timeInc(1);
    return false;
  }
  std::string drop_report() const override {
    std::string s;
    for (model::NodeId n = 0; n < topology_.node_count(); ++n) {
      const std::uint64_t drops =
          verif::GetField(top_->route_drops_o, static_cast<unsigned>(n) * kRouteDropsW, kRouteDropsW);
      if (drops != 0) s += fmt::format(" router {} dropped {} worm(s) with no route;", topology_.node_name(n), drops);
      const auto errors = static_cast<unsigned>(
          verif::GetField(top_->errors_o, static_cast<unsigned>(n) * sim::kRouterErrorsW, sim::kRouterErrorsW));
      if (errors != 0) s += fmt::format(" router {}: {};", topology_.node_name(n), sim::router_error_text(errors));
    }
    return s;
  }
  bool assertion_failed() const override { return context_->gotError(); }

 private:
  model::Topology topology_;
  model::HamiltonianLabeling labels_;
  VerilatedContext* context_;
  std::unique_ptr<Top> top_;
};

// A backend whose only network is the verilated top of `spec` (network_bench: "mesh:4x4").
template <class Top>
class TopBackend final : public sim::RouterBackend {
 public:
  explicit TopBackend(std::string spec) : spec_(std::move(spec)), context_(std::make_unique<VerilatedContext>()) {
    context_->fatalOnError(false);
  }
  std::string name() const override { return "rtl-top"; }
  std::unique_ptr<sim::RouterModel> make(unsigned, unsigned, const std::string&) override {
    throw model::UnsupportedError("the network top has no separate routers");
  }
  std::unique_ptr<sim::Network> make_network(const model::Topology& topology) override {
    if (topology.spec() != spec_) {
      throw model::UnsupportedError(
          fmt::format("the verilated network top is built for {} only, not {}", spec_, topology.spec()));
    }
    return std::make_unique<TopNetwork<Top>>(topology, context_.get());
  }
  bool assertion_failed() const override { return context_->gotError(); }

 private:
  std::string spec_;
  std::unique_ptr<VerilatedContext> context_;
};

}  // namespace wormcast::bench
