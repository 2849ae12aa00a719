// SPDX-License-Identifier: Apache-2.0
// N routers of a mesh or torus wired and configured as the topology says, behind the RouterModel
// interface, so a simulation drives the verilated routers or the cycle-level model the same way
// (docs/timing.md, "Benchmarks"). Shared by the synthetic traffic (sim/traffic.hpp) and, for the
// configuration, the multicast runs (sim/multicast_run.cpp).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/labeling.hpp"
#include "model/topology.hpp"
#include "sim/backend.hpp"
#include "sim/link_wiring.hpp"
#include "sim/rtl_router.hpp"

namespace wormcast::sim {

// The configuration inputs of router `node` (docs/rtl.md, "The route-compute stage"): the path
// labeling's labels, the neighbours' labels, wrap flags, the cycle labeling's boundary links
// (`cycle`: where the topology has one), coordinates and sizes.
RouterConfig router_config(const model::Topology& topology, const model::HamiltonianLabeling& labels,
                           const std::optional<model::HamiltonianLabeling>& cycle, model::NodeId node);

// Throws model::UnsupportedError naming the limit when the routers cannot be configured for
// `topology`: a side longer than 2^CoordW = 64 nodes (coordinates 0..63), more nodes than LabelW
// bits of labels.
void check_routers_fit(const model::Topology& topology);

// Every router's configuration inputs, node by node (router_config with router_labeling and
// router_cycle_labeling).
std::vector<RouterConfig> router_configs(const model::Topology& topology);

// The labels the routers are configured with: a star graph's Hamiltonian cycle, else the path.
model::HamiltonianLabeling router_labeling(const model::Topology& topology);

// The cycle labeling whose boundary links configure the routers' Hamiltonian-cycle mode: on star
// graphs and on 2D tori with an even row count (the same labels as the path); nullopt elsewhere.
std::optional<model::HamiltonianLabeling> router_cycle_labeling(const model::Topology& topology);

// A network of routers as a traffic source sees it: per node one injection link with its VC
// credits, and the ejection links of every local pair the router has (a router ejects a worm on
// any of them: docs/rtl.md, "Ejection is not allocated"), whose credits the node returns. Each
// cycle the caller reads the ejection links and injection credits (registered outputs), drives the
// injection link and the ejection credits, then calls step().
class Network {
 public:
  virtual ~Network() = default;
  virtual const model::Topology& topology() const = 0;
  // The path labeling the routers are configured with (Hamiltonian-path destinations).
  virtual const model::HamiltonianLabeling& labels() const = 0;
  virtual unsigned ejection_ports() const = 0;
  virtual Link ejection(model::NodeId n, unsigned port) const = 0;
  virtual std::uint32_t injection_credits(model::NodeId n) const = 0;  // bit v: VC v
  // VCs per port of the routers (the same in every router of a network).
  virtual unsigned vcs() const = 0;
  virtual void set_injection(model::NodeId n, const Link& link) = 0;
  // Credits of ejection port `port`, bit v: VC v (the port's pooled credit returns on VC 0).
  virtual void set_ejection_credits(model::NodeId n, unsigned port, std::uint32_t bits) = 0;
  // One clock edge. Returns whether a flit crossed a network link, where the network shows its
  // links (progress, for watchdogs; a network top hides them and returns false).
  virtual bool step() = 0;
  // Routers that drained worms without a routing decision (docs/rtl-modules.md, "Drained worms"):
  // "router n dropped k worm(s) with no route;" for each; and routers with a sticky error
  // ("Sticky errors"): "router n: <what was lost>;".
  virtual std::string drop_report() const = 0;
  // An RTL assertion fired.
  virtual bool assertion_failed() const = 0;
};

// The routers of a 2D or 3D mesh or torus, configured and reset, the variant with the fewest local
// pairs (one on 2D networks, two on 3D), injecting on the first, wired by LinkWiring (sim/link_wiring.hpp): step()
// copies every network output and credit to the neighbour's input and clocks the routers (every
// one, or those that can change). Model routers take a fast path with the same behaviour
// (step_models below).
class RouterNetwork final : public Network {
 public:
  RouterNetwork(const model::Topology& topology, RouterBackend& backend);

  const model::Topology& topology() const override { return topology_; }
  const model::HamiltonianLabeling& labels() const override { return labels_; }
  unsigned ejection_ports() const override { return locals_; }
  // A router not evaluated in the last cycle has no flit on any output and owes no credit
  // (RouterModel::can_skip): not read again.
  Link ejection(model::NodeId n, unsigned port) const override {
    if (clocked_[index(n)] == 0) return Link{};
    if (!models_.empty()) {
      // The valid mask first: an idle ejection link's register is not read.
      const model::TimingRouter& m = *models_[index(n)];
      if (((m.valid_outputs() >> (net_ + port)) & 1) == 0) return Link{};
      return link_of(m.output(net_ + port));
    }
    return routers_[index(n)]->output(net_ + port);
  }
  unsigned vcs() const override { return vcs_; }
  std::uint32_t injection_credits(model::NodeId n) const override {
    if (clocked_[index(n)] == 0) return 0;
    const std::uint64_t bits =
        !models_.empty() ? models_[index(n)]->credits_to_senders() : routers_[index(n)]->credits_to_senders();
    return static_cast<std::uint32_t>(bits >> (net_ * vcs_)) & ((1u << vcs_) - 1);
  }
  // An idle injection link that stays idle is not written again; a model router's inputs are idle
  // after each edge (step_models), so only a valid link is written there.
  void set_injection(model::NodeId n, const Link& link) override {
    if (!models_.empty()) {
      if (!link.valid) return;
      models_[index(n)]->set_input(net_, true, link.vc, link.flit);  // no stream on inputs
      wake(n);
      return;
    }
    std::uint8_t& was_valid = injection_was_valid_[index(n)];
    if (link.valid || was_valid != 0) routers_[index(n)]->set_input(net_, link);
    was_valid = link.valid ? 1 : 0;
  }
  void set_ejection_credits(model::NodeId n, unsigned port, std::uint32_t bits) override {
    eject_credits_[index(n) * locals_ + port] = bits;
  }
  bool step() override;
  std::string drop_report() const override;
  bool assertion_failed() const override { return backend_.assertion_failed(); }

 private:
  static std::size_t index(model::NodeId n) { return static_cast<std::size_t>(n); }

  model::Topology topology_;
  RouterBackend& backend_;
  model::HamiltonianLabeling labels_;
  unsigned net_;
  unsigned locals_ = 1;  // local pairs of the variant built (6-port routers come with 2)
  std::vector<std::unique_ptr<RouterModel>> routers_;
  LinkWiring links_;
  std::vector<std::uint32_t> eject_credits_;  // node * locals_ + port
  // Per router: evaluated in the last cycle (clock_routers); the credits last written to it.
  std::vector<std::uint8_t> clocked_;
  std::vector<std::uint32_t> credits_written_;
  std::vector<std::uint8_t> injection_was_valid_;  // per router: the last injection link set was valid
  unsigned vcs_;                                   // VCs per port (every router is the same variant)

  // The timing model's fast path (docs/timing.md, "How the timing model runs fast"): when every router
  // is a model router (timing_router_of), step() works on the models in place. Each router
  // evaluated in the last cycle pushes its valid network outputs and its credits into the
  // neighbours' inputs (the others show idle links and owe nothing: RouterModel::can_skip held
  // before their last cycle), and only the routers that were evaluated or were given something
  // are asked whether they can skip. The same inputs, credits and evaluations as the interface path
  // (TrafficBackends and ActivityRuns compare the two backends and both evaluations).
  bool step_models();
  // Lists router n among this cycle's candidates for evaluation (once).
  void wake(model::NodeId n) {
    if (woken_[index(n)] != stamp_) {
      woken_[index(n)] = stamp_;
      candidates_.push_back(n);
    }
  }
  std::vector<model::TimingRouter*> models_;  // empty unless every router is a model router
  // r * net_ + p: the router port p's link reaches (kNoNode where none) and its input port there.
  std::vector<model::NodeId> push_to_;
  std::vector<std::uint8_t> push_port_;
  std::vector<model::NodeId> active_;      // evaluated in the last cycle
  std::vector<model::NodeId> candidates_;  // this cycle: given a flit or a credit, or evaluated last cycle
  std::vector<std::uint64_t> woken_;       // per router: the stamp of the cycle it was last listed
  std::uint64_t stamp_ = 1;
};

}  // namespace wormcast::sim
