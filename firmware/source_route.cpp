// SPDX-License-Identifier: Apache-2.0
// Source routes in header flits (docs/header-format.md, mode 4).
#include "firmware/source_route.hpp"

namespace wormcast::fw {

SourceRoute::SourceRoute(const wire::HeadFields& head, std::uint32_t hops, std::uint64_t* header,
                         std::uint32_t capacity)
    : head_(head), hops_(hops), header_(header) {
  const std::uint32_t groups = (hops + wire::kRouteEntries - 1) / wire::kRouteEntries;
  if (groups == 0 || groups > capacity || groups - 1 > wire::kMaxMore) return;
  flits_needed_ = groups;
  head_.mode = wire::Mode::kSourceRouted;
  head_.more = static_cast<std::uint16_t>(groups - 1);
}

void SourceRoute::push(const wire::RouteEntry& entry) {
  group_ = wire::with_route_entry(group_, pushed_ % wire::kRouteEntries, entry);
  ++pushed_;
  if (pushed_ % wire::kRouteEntries != 0 && pushed_ != hops_) return;
  head_.dest = group_;
  header_[written_] = written_ == 0 ? wire::pack_head(head_) : wire::pack_addr_flit(head_, group_, written_);
  ++written_;
  group_ = wire::kRouteAllUnused;
}

}  // namespace wormcast::fw
