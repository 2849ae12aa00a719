// SPDX-License-Identifier: Apache-2.0
// Compile-time checks of firmware/noc_wire_format.hpp, built the way the firmware is: this file is
// compiled with -ffreestanding -fno-exceptions -fno-rtti (verif/rtl/CMakeLists.txt), so it also
// proves that the header needs nothing a freestanding target lacks. Every check is a static_assert:
// the examples drawn in docs/header-format.md, the documented bit ranges, and constexpr round trips.
#include "firmware/noc_wire_format.hpp"

namespace wormcast::verif {
namespace {

namespace wire = wormcast::wire;

// The documented bit ranges (docs/header-format.md, "Head flit").
static_assert(wire::kModeShift == 61 && wire::kNetworkShift == 60 && wire::kClassShift == 58 && wire::kCfShift == 56);
static_assert(wire::kMoreShift == 44 && wire::kDestShift == 24 && wire::kSrcShift == 4 && wire::kTagShift == 0);
static_assert(wire::kFlitW == 66 && wire::kFlitHeadBit == 65 && wire::kFlitTailBit == 64);
static_assert(wire::kCoordPadW == 2);

// The documented limits.
static_assert(wire::kMaxMore == 4095 && wire::kMaxDestinationsPerWorm == 4096);
static_assert(wire::kMaxNodes == (std::uint64_t{1} << 20) && wire::kMaxCoord == 63);

// Example 1: a dual-path worm on mesh:8x8 from (1,1) (node 9, label 14) in the high network to the
// labels 19, 40 and 45: the head carries 19 (more 2), the two address flits are the heads of the
// rest of the worm: 40 (more 1) and 45 (more 0).
constexpr wire::HeadFields kDualPath{
    wire::Mode::kHamiltonianPath, wire::kNetworkHigh, 0, wire::Cf::kUnicastTransit, 2, 19, 9, 5};
static_assert(wire::fits(kDualPath));
static_assert(wire::pack_head(kDualPath) == 0x1000'2000'1300'0095);
static_assert(wire::unpack_head(0x1000'2000'1300'0095) == kDualPath);
static_assert(wire::pack_addr_flit(kDualPath, 40, 1) == 0x1000'1000'2800'0095);
static_assert(wire::pack_addr_flit(kDualPath, 45, 2) == 0x1000'0000'2D00'0095);

// Example 2: a PCP line worm on mesh:8x8 from (3,0) (node 3) to (7,0), control field 11.
constexpr wire::HeadFields kCprLine{
    wire::Mode::kCprLine, 0, 0, wire::Cf::kDeliverPass, 0, wire::pack_coord_dest({7, 0, 0}), 3, 1};
static_assert(wire::pack_head(kCprLine) == 0x6300'0000'0700'0031);

// Example 3: a source-routed worm from node 0: +X, +X delivering a copy, +Y, end.
constexpr std::uint32_t kRoute = wire::with_route_entry(
    wire::with_route_entry(
        wire::with_route_entry(wire::with_route_entry(wire::kRouteAllUnused, 0, {false, 0}), 1, {true, 0}), 2,
        {false, 2}),
    3, {false, wire::kRoutePortEnd});
static_assert(kRoute == 0xF7280);
constexpr wire::HeadFields kSourceRouted{wire::Mode::kSourceRouted, 0, 0, wire::Cf::kUnicastTransit, 0, kRoute, 0, 2};
static_assert(wire::pack_head(kSourceRouted) == 0x8000'0F72'8000'0002);
static_assert(wire::route_shift(kRoute) == 0xFF728 && wire::route_entry(wire::route_shift(kRoute), 0).deliver);

// Round trips and the unused entry.
static_assert(wire::unpack_coord_dest(wire::pack_coord_dest({63, 1, 62})) == wire::Coords{63, 1, 62});
static_assert(wire::unpack_route_entry(wire::kRouteEntryUnused) == wire::RouteEntry{true, wire::kRoutePortEnd});
static_assert(wire::route_used_up(wire::kRouteAllUnused) && !wire::route_used_up(kRoute));

// The compact 32-bit layout (docs/header-format.md, "The compact 32-bit layout"): bit ranges,
// limits, and the three examples again (src dropped, tag 2 bits).
static_assert(wire::kCompact.mode_shift() == 29 && wire::kCompact.network_shift() == 28 &&
              wire::kCompact.class_shift() == 26 && wire::kCompact.cf_shift() == 24);
static_assert(wire::kCompact.more_shift() == 18 && wire::kCompact.dest_shift() == 2 && wire::kCompact.tag_shift() == 0);
static_assert(wire::kCompact.flit_w() == 34 && wire::kCompact.coord_pad_w() == 1 &&
              wire::kCompact.route_entries() == 4);
static_assert(wire::kCompact.max_destinations_per_worm() == 64 && wire::kCompact.max_coord() == 31);
constexpr wire::HeadFields kDualPath32{
    wire::Mode::kHamiltonianPath, wire::kNetworkHigh, 0, wire::Cf::kUnicastTransit, 2, 19, 0, 1};
static_assert(wire::pack_head(kDualPath32, wire::kCompact) == 0x1008'004D);
static_assert(wire::pack_addr_flit(kDualPath32, 40, 1, wire::kCompact) == 0x1004'00A1);
static_assert(!wire::fits(kDualPath, wire::kCompact));  // src 9 and tag 5 do not fit
constexpr wire::HeadFields kCprLine32{
    wire::Mode::kCprLine, 0, 0, wire::Cf::kDeliverPass, 0, wire::pack_coord_dest({7, 0, 0}, wire::kCompact), 0, 1};
static_assert(wire::pack_head(kCprLine32, wire::kCompact) == 0x6300'001D);
constexpr std::uint32_t kRoute32 = 0x7280;  // kRoute's four entries: a compact dest holds four
static_assert(wire::with_route_entry(wire::kCompact.route_all_unused(), 0, {false, 0}) == 0xFFF0);
constexpr wire::HeadFields kSourceRouted32{
    wire::Mode::kSourceRouted, 0, 0, wire::Cf::kUnicastTransit, 0, kRoute32, 0, 2};
static_assert(wire::pack_head(kSourceRouted32, wire::kCompact) == 0x8001'CA02);
static_assert(wire::route_shift(kRoute32, wire::kCompact) == 0xF728);

}  // namespace
}  // namespace wormcast::verif
