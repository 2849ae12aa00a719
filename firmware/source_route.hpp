// Packing a source route (head mode 4) into header flits, for the algorithms whose worms carry
// their route: XY-path and EDN's YX legs (docs/header-format.md).
#pragma once

#include <cstdint>

#include "firmware/noc_wire_format.hpp"

namespace wormcast::fw {

// Packs a route of `hops` >= 1 entries: entry_at(i), called once per i in order, is route node i's
// {deliver, port} (the sender's first); five entries per flit, the unused ones after the last hop
// end the route at its last node; more = flits - 1. Returns the flit count, 0 when the route needs
// more flits than `capacity` or `more` holds.
template <class EntryAt>
std::uint32_t pack_source_route(wire::HeadFields head, std::uint32_t hops, EntryAt entry_at, std::uint64_t* header,
                                std::uint32_t capacity) {
  const std::uint32_t groups = (hops + wire::kRouteEntries - 1) / wire::kRouteEntries;
  if (groups == 0 || groups > capacity || groups - 1 > wire::kMaxMore) return 0;
  head.mode = wire::Mode::kSourceRouted;
  head.more = static_cast<std::uint16_t>(groups - 1);
  std::uint32_t flits = 0, group = wire::kRouteAllUnused;
  for (std::uint32_t i = 0; i < hops; ++i) {
    group = wire::with_route_entry(group, i % wire::kRouteEntries, entry_at(i));
    if (i % wire::kRouteEntries == wire::kRouteEntries - 1 || i + 1 == hops) {
      head.dest = group;
      header[flits] = flits == 0 ? wire::pack_head(head) : wire::pack_addr_flit(head, group, flits);
      ++flits;
      group = wire::kRouteAllUnused;
    }
  }
  return flits;
}

}  // namespace wormcast::fw
