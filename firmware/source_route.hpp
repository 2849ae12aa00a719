// SPDX-License-Identifier: Apache-2.0
// Packing a source route (head mode 4) into header flits, for the algorithms whose worms carry
// their route packed: EDN's YX legs (docs/header-format.md; XY-path generates its long routes as the
// NI takes them, firmware/xy_path.cpp).
#pragma once

#include <cstdint>

#include "firmware/noc_wire_format.hpp"

namespace wormcast::fw {

// A route of `hops` >= 1 entries, packed into header[0 ..) as they are pushed: route node i's
// {deliver, port} (the sender's first), five entries per flit; the unused entries after the last
// hop end the route at its last node; more = flits - 1.
class SourceRoute {
 public:
  SourceRoute(const wire::HeadFields& head, std::uint32_t hops, std::uint64_t* header, std::uint32_t capacity);
  // False when the route needs more flits than `capacity` or `more` holds (push nothing then).
  bool fits() const { return flits_needed_ != 0; }
  // Entry i, i = 0, 1, ... in order.
  void push(const wire::RouteEntry& entry);
  // The header flits, once every hop is pushed.
  std::uint32_t flits() const { return flits_needed_; }

 private:
  wire::HeadFields head_;
  std::uint32_t hops_;
  std::uint64_t* header_;
  std::uint32_t flits_needed_ = 0;
  std::uint32_t pushed_ = 0, written_ = 0;
  std::uint32_t group_ = wire::kRouteAllUnused;
};

}  // namespace wormcast::fw
