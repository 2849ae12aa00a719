// SPDX-License-Identifier: Apache-2.0
// The timing model's router (model/timing_router.hpp) behind the harness's RouterModel interface,
// so the co-simulation runs on either backend (docs/timing.md).
#pragma once

#include <memory>
#include <string>

#include "sim/rtl_router.hpp"

namespace wormcast::model {
class TimingRouter;
}  // namespace wormcast::model

namespace wormcast::sim {

// The model router with the same ports as make_router's variant for (`net_ports`, `locals`):
// `net_ports` network ports and the fewest built local pairs >= `locals`, router_variant_vcs VCs of
// kRouterDepth flits. Throws std::invalid_argument naming the variants when there is none.
// configure() takes the network (mesh or torus) from the configuration's sizes and the node from
// its coordinates.
std::unique_ptr<RouterModel> make_model_router(unsigned net_ports, unsigned locals, const std::string& name);

// The same router with the model's own parameters (any VC count and depth the model holds); the
// harness's fixed variants are the default.
std::unique_ptr<RouterModel> make_model_router(unsigned net_ports, unsigned locals, unsigned vcs, unsigned depth,
                                               const std::string& name);

// Test-only: the model router `router` (from make_model_router) holds back its first switch grant
// for `cycles` cycles. Throws std::invalid_argument for an RTL router.
void perturb_model_router(RouterModel& router, unsigned cycles);

// The timing model inside `router` when it is a configured model router (make_model_router), else
// nullptr: a harness may then read its outputs and write its network inputs in place, the same
// values the RouterModel interface carries (sim/link_wiring.hpp), without a virtual call per port.
model::TimingRouter* timing_router_of(RouterModel& router);
const model::TimingRouter* timing_router_of(const RouterModel& router);

}  // namespace wormcast::sim
