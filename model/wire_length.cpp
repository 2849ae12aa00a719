// SPDX-License-Identifier: Apache-2.0
#include "model/wire_length.hpp"

#include <algorithm>
#include <string>

#include "model/planner.hpp"

namespace wormcast::model {
namespace {

// Tree nodes in the subtree of every node: itself plus the subtrees of the receivers of the worms it
// sends. Worms are in step order and a receiver sends only after it received, so walking the worms
// backwards finishes every receiver's subtree before its parent's.
std::vector<int> subtree_sizes(const Topology& t, const std::vector<Worm>& worms) {
  std::vector<int> size(static_cast<std::size_t>(t.node_count()), 1);
  for (std::size_t i = worms.size(); i-- > 0;) {
    const Worm& w = worms[i];
    if (w.route.empty()) continue;
    size[static_cast<std::size_t>(w.sender)] += size[static_cast<std::size_t>(w.route.back())];
  }
  return size;
}

// A 3-DBL column worm (along Z from its sender): the destinations in the layers beyond the sender's.
int column_entries(const Request& request, const Worm& w) {
  const Topology& t = request.topology;
  if (t.dimensions() != 3 || w.hops.empty() || w.kind != WormKind::kMultidestinationPath) return 0;
  const Port first = w.hops.front().port;
  if (first != port_of(2, false) && first != port_of(2, true)) return 0;
  const int z0 = t.coord(w.sender)[2];
  int entries = 0;
  for (NodeId d : request.destinations) {
    const int z = t.coord(d)[2];
    if (first == port_of(2, false) ? z > z0 : z < z0) ++entries;
  }
  return entries;
}

}  // namespace

std::vector<WireLength> wire_lengths(const Request& request, const std::vector<Worm>& worms) {
  const AddressEntries address_entries = algorithm_info(request.algorithm).address_entries;
  std::vector<int> subtree;
  if (address_entries == AddressEntries::kTreeSubtree) subtree = subtree_sizes(request.topology, worms);
  std::vector<WireLength> lengths;
  lengths.reserve(worms.size());
  for (const Worm& w : worms) {
    WireLength length;
    const int hops = static_cast<int>(w.hops.size());
    if (w.header.mode == RoutingMode::kSourceRouted) {
      length.header_flits = std::max(1, (hops + kRouteEntriesPerFlit - 1) / kRouteEntriesPerFlit);
    } else if (w.kind == WormKind::kMultidestinationPath) {
      length.header_flits = std::max<int>(1, static_cast<int>(w.header.destinations.size()));
    }
    int entries = 0;
    switch (address_entries) {
      case AddressEntries::kNone:
        break;
      case AddressEntries::kUnicastChain:
        entries = static_cast<int>(w.address_field.size());
        break;
      case AddressEntries::kTreeSubtree:
        if (!w.route.empty()) entries = subtree[static_cast<std::size_t>(w.route.back())];
        break;
      case AddressEntries::kColumnLayers:
        entries = column_entries(request, w);
        break;
    }
    length.payload_words = kControlWords + (entries + 1) / 2 + worm_data_flits(request, w);
    lengths.push_back(length);
  }
  return lengths;
}

}  // namespace wormcast::model
