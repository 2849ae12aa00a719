// SPDX-License-Identifier: Apache-2.0
#include "sim/router_network.hpp"

#include <fmt/format.h>

#include <bit>

#include "model/errors.hpp"
#include "sim/model_router.hpp"

namespace wormcast::sim {
std::unique_ptr<Network> RouterBackend::make_network(const model::Topology& topology) {
  return std::make_unique<RouterNetwork>(topology, *this);
}

void check_routers_fit(const model::Topology& topology) {
  constexpr int kMaxSide = 1 << wire::kCoordW;  // coordinates 0..63, sizes 1..64 (kRouterDimSizeW bits)
  for (int d = 0; !topology.is_star() && d < topology.dimensions(); ++d) {
    if (topology.size(d) > kMaxSide) {
      throw model::UnsupportedError(
          fmt::format("{}: {} nodes along dimension {} exceed the routers' {} (a coordinate is noc_pkg::CoordW = {} "
                      "bits)",
                      topology.spec(), topology.size(d), d, kMaxSide, wire::kCoordW));
    }
  }
  if (topology.node_count() > (1 << kRouterLabelW)) {
    throw model::UnsupportedError(fmt::format("{}: {} nodes exceed the routers' {} labels (LabelW = {} bits)",
                                              topology.spec(), topology.node_count(), 1 << kRouterLabelW,
                                              kRouterLabelW));
  }
}

std::vector<RouterConfig> router_configs(const model::Topology& topology) {
  check_routers_fit(topology);
  const model::HamiltonianLabeling labels = router_labeling(topology);
  const std::optional<model::HamiltonianLabeling> cycle = router_cycle_labeling(topology);
  std::vector<RouterConfig> configs;
  for (model::NodeId node = 0; node < topology.node_count(); ++node) {
    configs.push_back(router_config(topology, labels, cycle, node));
  }
  return configs;
}

model::HamiltonianLabeling router_labeling(const model::Topology& topology) {
  return topology.is_star() ? model::HamiltonianLabeling::cycle(topology) : model::HamiltonianLabeling::path(topology);
}

std::optional<model::HamiltonianLabeling> router_cycle_labeling(const model::Topology& topology) {
  if (topology.is_star() || (topology.is_torus() && topology.dimensions() == 2 && topology.size(1) % 2 == 0)) {
    return model::HamiltonianLabeling::cycle(topology);
  }
  return std::nullopt;
}

RouterConfig router_config(const model::Topology& topology, const model::HamiltonianLabeling& labels,
                           const std::optional<model::HamiltonianLabeling>& cycle, model::NodeId node) {
  RouterConfig c;
  c.own_label = static_cast<std::uint32_t>(labels.label(node));
  for (int p = 0; p < topology.port_count(); ++p) {
    const model::NodeId nbr = topology.neighbour(node, p);
    if (nbr == model::kNoNode) continue;
    c.nbr_label[static_cast<std::size_t>(p)] = static_cast<std::uint32_t>(labels.label(nbr));
    c.connected |= 1u << p;
    if (topology.is_torus() && topology.is_wraparound(node, p)) c.wrap |= 1u << p;
    if (cycle && cycle->link_class(node, p) == model::LinkClass::kBoundary) c.boundary |= 1u << p;
  }
  // Star graphs: no coordinates, sizes or dimensions (docs/rtl.md, route compute's configuration).
  if (topology.is_star()) c.size = {0, 0, 0};
  for (int d = 0; !topology.is_star() && d < topology.dimensions(); ++d) {
    c.coord[static_cast<std::size_t>(d)] =
        static_cast<std::uint32_t>(topology.coord(node)[static_cast<std::size_t>(d)]);
    c.size[static_cast<std::size_t>(d)] = static_cast<std::uint32_t>(topology.size(d));
  }
  c.torus = topology.is_torus();
  c.dims = static_cast<unsigned>(topology.dimensions());
  return c;
}

RouterNetwork::RouterNetwork(const model::Topology& topology, RouterBackend& backend)
    : topology_(topology),
      backend_(backend),
      labels_(model::HamiltonianLabeling::path(topology_)),
      net_(static_cast<unsigned>(topology_.port_count())),
      links_(topology_) {
  if (topology_.is_star()) {
    throw model::UnsupportedError(fmt::format("{}: the router network is built for meshes and tori", topology_.spec()));
  }
  check_routers_fit(topology_);
  const std::optional<model::HamiltonianLabeling> cycle = router_cycle_labeling(topology_);
  const int n = topology_.node_count();
  for (model::NodeId node = 0; node < n; ++node) {
    routers_.push_back(backend_.make(net_, 1, fmt::format("router{}", node)));
    routers_.back()->configure(router_config(topology_, labels_, cycle, node));
  }
  locals_ = routers_.front()->locals();
  eject_credits_.assign(index(n) * locals_, 0);
  reset_routers(routers_, backend_);
  clocked_.assign(routers_.size(), 1);
  credits_written_.assign(routers_.size(), ~std::uint32_t{0});
  injection_was_valid_.assign(routers_.size(), 1);
  vcs_ = routers_.front()->vcs();
  // The model's fast path when every router is a model router (a wrapped or verilated one takes
  // the interface).
  for (const auto& r : routers_) {
    model::TimingRouter* m = timing_router_of(*r);
    if (m == nullptr) {
      models_.clear();
      break;
    }
    models_.push_back(m);
  }
  if (!models_.empty()) {
    for (model::NodeId node = 0; node < n; ++node) {
      for (unsigned p = 0; p < net_; ++p) {
        push_to_.push_back(topology_.neighbour(node, static_cast<model::Port>(p)));
        push_port_.push_back(static_cast<std::uint8_t>(topology_.reverse_port(static_cast<model::Port>(p))));
      }
    }
    woken_.assign(routers_.size(), 0);
    // Every router counts as evaluated before the first cycle (all idle after reset).
    for (model::NodeId node = 0; node < n; ++node) {
      active_.push_back(node);
    }
  }
}

bool RouterNetwork::step() {
  if (!models_.empty()) return step_models();
  bool moved = false;
  const model::NodeId n = static_cast<model::NodeId>(routers_.size());
  // A router not evaluated in the last cycle shows what LinkWiring captured before (all idle).
  for (model::NodeId r = 0; r < n; ++r) {
    if (clocked_[index(r)] != 0) moved |= links_.capture(r, *routers_[index(r)]);
  }
  for (model::NodeId r = 0; r < n; ++r) {
    std::uint32_t to_router = links_.drive(r, *routers_[index(r)]);
    for (unsigned k = 0; k < locals_; ++k)
      to_router |= eject_credits_[index(r) * locals_ + k] << ((net_ + k) * routers_[index(r)]->vcs());
    if (to_router != credits_written_[index(r)]) routers_[index(r)]->set_credits_from_receivers(to_router);
    credits_written_[index(r)] = to_router;
  }
  clock_routers(routers_, backend_, &clocked_);
  return moved;
}

bool RouterNetwork::step_models() {
  const std::uint32_t net_mask = (1u << net_) - 1;
  const unsigned vcs = vcs_, sh = static_cast<unsigned>(std::countr_zero(vcs_));
  const std::uint64_t vc_mask = (std::uint64_t{1} << vcs) - 1;
  const std::uint64_t net_credits = net_ * vcs >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << (net_ * vcs)) - 1;
  // Every router's network inputs are idle and it has no credit here (each router given one in the
  // last cycle was evaluated, and its inputs were cleared after its edge). The routers evaluated in
  // the last cycle push their network outputs and credits to their neighbours; the others hold
  // none.
  bool moved = false;
  for (const model::NodeId r : active_) {
    const model::TimingRouter& m = *models_[index(r)];
    wake(r);
    clocked_[index(r)] = 0;
    const std::size_t base = index(r) * net_;
    const std::uint32_t valid = m.valid_outputs() & net_mask;
    moved |= valid != 0;
    for (std::uint32_t set = valid; set != 0; set &= set - 1) {
      const unsigned p = static_cast<unsigned>(std::countr_zero(set));
      const model::NodeId to = push_to_[base + p];
      if (to == model::kNoNode) continue;
      const model::TimingLink& l = m.output(p);
      models_[index(to)]->set_input(push_port_[base + p], true, l.vc, l.flit);
      wake(to);
    }
    for (std::uint64_t c = m.credits_to_senders() & net_credits; c != 0;) {
      const unsigned p = static_cast<unsigned>(std::countr_zero(c)) >> sh;
      const std::uint64_t bits = (c >> (p << sh)) & vc_mask;
      c &= ~(vc_mask << (p << sh));
      const model::NodeId to = push_to_[base + p];
      if (to == model::kNoNode) continue;
      models_[index(to)]->add_credits_from_receivers(bits << (push_port_[base + p] << sh));
      wake(to);
    }
  }
  // The local ports' credits from the sinks.
  const model::NodeId n = static_cast<model::NodeId>(routers_.size());
  for (model::NodeId r = 0; r < n; ++r) {
    for (unsigned k = 0; k < locals_; ++k) {
      const std::uint32_t bits = eject_credits_[index(r) * locals_ + k];
      if (bits == 0) continue;
      models_[index(r)]->add_credits_from_receivers(static_cast<std::uint32_t>(bits << ((net_ + k) * vcs)));
      wake(r);
    }
  }
  // The candidates that can change over the edge are evaluated (the rest hold can_skip: not
  // evaluated in the last cycle, and given nothing since). Each router's test reads only its own
  // state and inputs, which no other router's edge changes (every input is set above), so each is
  // tested and clocked in turn. An evaluated router's inputs are used up by its edge: cleared at
  // once, while its state is in the caches (a router given a flit or a credit cannot skip, so every
  // input set is cleared).
  backend_.router_cycles += routers_.size();
  const bool full = backend_.evaluation() == Evaluation::kFull;
  active_.clear();
  backend_.advance_time();
  const auto evaluate = [&](model::NodeId r) {
    model::TimingRouter& m = *models_[index(r)];
    if (!full && m.quiescent() && m.inputs_idle()) return;
    m.clock();
    m.clear_inputs();
    clocked_[index(r)] = 1;
    active_.push_back(r);
  };
  if (full) {
    for (model::NodeId r = 0; r < n; ++r) evaluate(r);
  } else {
    for (const model::NodeId r : candidates_) evaluate(r);
  }
  backend_.evaluated += active_.size();
  backend_.advance_time();
  candidates_.clear();
  ++stamp_;
  return moved;
}

std::string RouterNetwork::drop_report() const {
  std::string s;
  for (std::size_t r = 0; r < routers_.size(); ++r) {
    const unsigned drops = routers_[r]->route_drops();
    if (drops != 0) {
      s += fmt::format(" router {} dropped {}{} worm(s) with no route;",
                       topology_.node_name(static_cast<model::NodeId>(r)), drops,
                       drops == kRouteDropsMax ? " or more" : "");
    }
    const unsigned errors = routers_[r]->errors();
    if (errors != 0)
      s +=
          fmt::format(" router {}: {};", topology_.node_name(static_cast<model::NodeId>(r)), router_error_text(errors));
  }
  return s;
}

}  // namespace wormcast::sim
