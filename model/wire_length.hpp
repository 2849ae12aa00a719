// SPDX-License-Identifier: Apache-2.0
// The length of each worm of a plan on the wire, as the node firmware sends it (docs/firmware.md,
// "Message format"; docs/header-format.md, "Address flit"): what the analytic latency with
// LatencyParameters::wire_lengths counts. Written from those documents, not from the firmware.
#pragma once

#include <vector>

#include "model/plan.hpp"

namespace wormcast::model {

struct WireLength {
  int header_flits = 1;   // the head and its address flits
  int payload_words = 0;  // control words, address-field words, the L data words
  int flits() const { return header_flits + payload_words; }
  bool operator==(const WireLength&) const = default;
};

// Control words in front of every payload (docs/firmware.md, "Message format": words 0..2).
inline constexpr int kControlWords = 3;
// Route entries one source-routed head or address flit carries (docs/header-format.md).
inline constexpr int kRouteEntriesPerFlit = 5;

// Per worm of `worms` (same order), for `request`'s algorithm:
//   header: 1 head + one address flit per further destination of a multidestination path worm;
//           a source route: one flit per kRouteEntriesPerFlit hops;
//   payload: kControlWords + ceil(entries / 2) address words + L, the entries being the receiver's
//            chain (unicast-based algorithms: Worm::address_field), the receiver's subtree, itself
//            included (the trees), or the destinations in the layers a 3-DBL column worm reaches
//            (beyond its sender's layer); no entries for the other algorithms.
std::vector<WireLength> wire_lengths(const Request& request, const std::vector<Worm>& worms);

}  // namespace wormcast::model
