// SPDX-License-Identifier: Apache-2.0
#include "sim/model_router.hpp"

#include <fmt/format.h>

#include <bit>
#include <map>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <vector>

#include "model/labeling.hpp"
#include "model/timing_router.hpp"
#include "sim/link_wiring.hpp"

namespace wormcast::sim {
namespace {

static_assert(model::TimingRouter::kRouteDropsMax == kRouteDropsMax, "both backends' drop counts saturate alike");

// The routers of one network share its route-compute tables (labelings, routing functions).
std::shared_ptr<const model::TimingRouting> shared_routing(const model::Topology& topology) {
  static std::mutex mutex;
  static std::map<std::string, std::weak_ptr<const model::TimingRouting>> cache;
  const std::lock_guard<std::mutex> lock(mutex);
  std::weak_ptr<const model::TimingRouting>& slot = cache[topology.spec()];
  std::shared_ptr<const model::TimingRouting> routing = slot.lock();
  if (!routing) {
    routing = std::make_shared<const model::TimingRouting>(topology);
    slot = routing;
  }
  return routing;
}

// The network a router configuration describes: a mesh or torus of the configured sizes, or, with
// no dimensions, the star graph S_n whose n - 1 generator ports are the connected ones.
model::Topology configured_topology(const RouterConfig& c) {
  if (c.dims == 0) {
    const int degree = std::popcount(c.connected);
    if (degree + 1 < model::kMinStarOrder || degree + 1 > model::kMaxStarOrder) {
      throw std::invalid_argument(
          fmt::format("the timing model runs star graphs S{}..S{}; the configuration connects {} ports",
                      model::kMinStarOrder, model::kMaxStarOrder, degree));
    }
    return model::Topology::star(degree + 1);
  }
  if (c.dims != 2 && c.dims != 3) {
    throw std::invalid_argument(fmt::format(
        "the timing model runs meshes and tori (2 or 3 dimensions) and star graphs (0); the configuration has {}",
        c.dims));
  }
  std::vector<int> sizes;
  for (unsigned d = 0; d < c.dims; ++d) sizes.push_back(static_cast<int>(c.size[d]));
  return c.torus ? model::Topology::torus(sizes) : model::Topology::mesh(sizes);
}

// The configured router's node: by its coordinates, or on a star graph by its cycle label (the
// labels the routers are configured with, docs/rtl.md).
model::NodeId configured_node(const model::Topology& topology, const RouterConfig& c) {
  if (!topology.is_star()) {
    return topology.node_at({static_cast<int>(c.coord[0]), static_cast<int>(c.coord[1]), static_cast<int>(c.coord[2])});
  }
  const model::HamiltonianLabeling cycle = model::HamiltonianLabeling::cycle(topology);
  if (c.own_label >= static_cast<std::uint32_t>(cycle.size())) {
    throw std::invalid_argument(
        fmt::format("label {} is not a node of {} (labels 0..{})", c.own_label, topology.spec(), cycle.size() - 1));
  }
  return cycle.node(static_cast<int>(c.own_label));
}

class ModelRouter final : public RouterModel {
 public:
  ModelRouter(unsigned net_ports, unsigned locals, unsigned vcs, unsigned depth)
      : params_{net_ports, locals, vcs, depth} {}
  unsigned net_ports() const override { return params_.net_ports; }
  unsigned locals() const override { return params_.locals; }
  unsigned vcs() const override { return params_.vcs; }

  void configure(const RouterConfig& c) override {
    const model::Topology topology = configured_topology(c);
    const model::NodeId node = configured_node(topology, c);
    router_.emplace(params_, shared_routing(topology), node);
    router_->hold_first_grant(hold_);
  }
  void set_reset(bool active) override {
    reset_ = active;
    if (active && router_) {
      router_->reset();
      router_->hold_first_grant(hold_);
    }
  }
  Link output(unsigned port) const override {
    if (!router_) return {};
    return link_of(router_->output(port));
  }
  std::uint32_t credits_to_senders() const override {
    return router_ ? static_cast<std::uint32_t>(router_->credits_to_senders()) : 0;
  }
  std::uint64_t draining() const override { return router_ ? router_->draining() : 0; }
  unsigned route_drops() const override { return router_ ? router_->route_drops() : 0; }
  unsigned errors() const override { return router_ ? router_->errors() : 0; }
  void set_input(unsigned port, const Link& l) override {
    if (router_) router_->set_input(port, l.valid, l.vc, l.flit);  // no stream on inputs
  }
  void set_credits_from_receivers(std::uint32_t bits) override {
    if (router_) router_->set_credits_from_receivers(bits);
  }
  void set_clock(bool high) override {
    if (high && !clock_high_ && !reset_ && router_) router_->clock();
    clock_high_ = high;
  }
  bool can_skip() const override { return !reset_ && router_ && router_->quiescent() && router_->inputs_idle(); }
  model::TimingRouter* timing_router() { return router_ ? &*router_ : nullptr; }
  const model::TimingRouter* timing_router() const { return router_ ? &*router_ : nullptr; }
  void hold_first_grant(unsigned cycles) {
    hold_ = cycles;
    if (router_) router_->hold_first_grant(cycles);
  }

 private:
  model::TimingRouterParams params_;
  std::optional<model::TimingRouter> router_;
  bool reset_ = false, clock_high_ = false;
  unsigned hold_ = 0;
};

}  // namespace

std::unique_ptr<RouterModel> make_model_router(unsigned net_ports, unsigned locals, unsigned vcs, unsigned depth,
                                               const std::string& /*name*/) {
  return std::make_unique<ModelRouter>(net_ports, router_variant_locals(net_ports, locals), vcs, depth);
}

std::unique_ptr<RouterModel> make_model_router(unsigned net_ports, unsigned locals, const std::string& name) {
  return make_model_router(net_ports, locals, router_variant_vcs(net_ports), kRouterDepth, name);
}

void perturb_model_router(RouterModel& router, unsigned cycles) {
  auto* model = dynamic_cast<ModelRouter*>(&router);
  if (model == nullptr) throw std::invalid_argument("only a model router can be perturbed");
  model->hold_first_grant(cycles);
}

model::TimingRouter* timing_router_of(RouterModel& router) {
  auto* model = dynamic_cast<ModelRouter*>(&router);
  return model != nullptr ? model->timing_router() : nullptr;
}

const model::TimingRouter* timing_router_of(const RouterModel& router) {
  const auto* model = dynamic_cast<const ModelRouter*>(&router);
  return model != nullptr ? model->timing_router() : nullptr;
}

}  // namespace wormcast::sim
