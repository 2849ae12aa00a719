// SPDX-License-Identifier: Apache-2.0
#include "sim/backend.hpp"

#include <fmt/format.h>
#include <verilated.h>

#include "model/errors.hpp"
#include "sim/model_router.hpp"

namespace wormcast::sim {
namespace {

// The verilated routers of rtl/CMakeLists.txt, all in the backend's one context.
class RtlBackend final : public RouterBackend {
 public:
  RtlBackend() : context_(std::make_unique<VerilatedContext>()) { context_->fatalOnError(false); }
  std::string name() const override { return "rtl"; }
  std::unique_ptr<RouterModel> make(unsigned net_ports, unsigned locals, const std::string& name) override {
    return make_router(context_.get(), net_ports, locals, name);
  }
  void advance_time() override { context_->timeInc(1); }
  bool assertion_failed() const override { return context_->gotError(); }

 private:
  std::unique_ptr<VerilatedContext> context_;
};

// The cycle-level model of the router (sim/model_router.hpp): plain C++, no context.
class ModelBackend final : public RouterBackend {
 public:
  std::string name() const override { return "model"; }
  std::unique_ptr<RouterModel> make(unsigned net_ports, unsigned locals, const std::string& name) override {
    return make_model_router(net_ports, locals, name);
  }
};

}  // namespace

std::string backend_name(Backend backend) { return backend == Backend::kRtl ? "rtl" : "model"; }

std::string backend_names() { return "rtl, model"; }

std::string backend_title(Backend backend) { return backend == Backend::kRtl ? "RTL" : "timing model"; }

Backend parse_backend(const std::string& name) {
  if (name == "rtl") return Backend::kRtl;
  if (name == "model") return Backend::kModel;
  throw model::SpecError(fmt::format("backend '{}' is not one of: {}", name, backend_names()));
}

std::string evaluation_name(Evaluation evaluation) { return evaluation == Evaluation::kFull ? "full" : "activity"; }

Evaluation parse_evaluation(const std::string& name) {
  if (name == "full") return Evaluation::kFull;
  if (name == "activity") return Evaluation::kActivity;
  throw model::SpecError(fmt::format("evaluation '{}' is not one of: full, activity", name));
}

namespace {

// Both edges of the routers in `active`.
void clock_active(const std::vector<RouterModel*>& active, RouterBackend& backend) {
  backend.evaluated += active.size();
  for (RouterModel* r : active) r->set_clock(false);
  backend.advance_time();
  for (RouterModel* r : active) r->set_clock(true);
  backend.advance_time();
}

// clock_routers under kActivity with the harness's inputs_set flags: can_skip asked only of the
// routers evaluated in the last cycle or given an input since.
void clock_woken_routers(const std::vector<std::unique_ptr<RouterModel>>& routers, RouterBackend& backend,
                         std::vector<std::uint8_t>& clocked, const std::vector<std::uint8_t>& inputs_set) {
  thread_local std::vector<RouterModel*> active;
  active.clear();
  for (std::size_t i = 0; i < routers.size(); ++i) {
    const bool may_change = clocked[i] != 0 || inputs_set[i] != 0;
    clocked[i] = may_change && !routers[i]->can_skip() ? 1 : 0;
    if (clocked[i] != 0) active.push_back(routers[i].get());
  }
  clock_active(active, backend);
}

}  // namespace

void clock_routers(const std::vector<std::unique_ptr<RouterModel>>& routers, RouterBackend& backend,
                   std::vector<std::uint8_t>* clocked, const std::vector<std::uint8_t>* inputs_set) {
  backend.router_cycles += routers.size();
  if (backend.evaluation() == Evaluation::kActivity && clocked != nullptr && inputs_set != nullptr) {
    clock_woken_routers(routers, backend, *clocked, *inputs_set);
    return;
  }
  if (clocked != nullptr) clocked->assign(routers.size(), 1);
  if (backend.evaluation() == Evaluation::kFull) {
    backend.evaluated += routers.size();
    for (const auto& r : routers) r->set_clock(false);
    backend.advance_time();
    for (const auto& r : routers) r->set_clock(true);
    backend.advance_time();
    return;
  }
  // Decided for every router before any is clocked: can_skip reads the inputs set for this edge.
  thread_local std::vector<RouterModel*> active;
  active.clear();
  for (std::size_t i = 0; i < routers.size(); ++i) {
    if (!routers[i]->can_skip()) {
      active.push_back(routers[i].get());
    } else if (clocked != nullptr) {
      (*clocked)[i] = 0;
    }
  }
  clock_active(active, backend);
}

void reset_routers(const std::vector<std::unique_ptr<RouterModel>>& routers, RouterBackend& backend) {
  for (const auto& r : routers) {
    r->set_clock(false);
    r->set_reset(true);
  }
  clock_routers(routers, backend);
  for (const auto& r : routers) r->set_reset(false);
}

std::unique_ptr<RouterBackend> make_backend(Backend backend) {
  if (backend == Backend::kRtl) return std::make_unique<RtlBackend>();
  return std::make_unique<ModelBackend>();
}

std::unique_ptr<RouterBackend> make_backend(const std::string& name) { return make_backend(parse_backend(name)); }

}  // namespace wormcast::sim
