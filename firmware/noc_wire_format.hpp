// SPDX-License-Identifier: Apache-2.0
// The wire format of wormcast: the one C++ definition of the flit and header layout, shared by the
// firmware and the model (docs/header-format.md draws it bit by bit). Its SystemVerilog twin is
// rtl/noc_pkg.sv; verif/rtl/wire_format_test.cpp proves the two bit-identical.
//
// Freestanding: only <cstdint>, no exceptions, no heap, no I/O; everything is constexpr.
//
// Values that do not fit their field are never truncated silently: every pack function has the
// precondition that its argument fits (check with the matching `fits` first). In a constant
// expression a value that does not fit is a compile error. At run time pack masks each field to its
// width, so a bad field can never spill into its neighbours, but the packed value is then wrong:
// callers must not rely on the mask.
#pragma once

#include <cstdint>

namespace wormcast::wire {

// ------------------------------------------------------------------------------------------------
// Head layouts. The flit's data width (noc_pkg::DataW, the RTL's NOC_DATA_W define) selects one of
// two head layouts: the 64-bit one the firmware, the model and the harness use, and a compact
// 32-bit one for small FPGA networks (narrower `more`, `dest` and coordinates; a 2-bit tag and no
// src). Every pack and unpack function takes the layout, kWide by default.

// The largest value of a field `width` bits wide.
constexpr std::uint64_t field_max(unsigned width) {
  return width >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1;
}

// The widths of the head fields that vary with the data width (noc_pkg localparams of the same
// names); the others (mode 3, network 1, vc_class 2, cf 2 bits) are the same in every layout.
struct Layout {
  unsigned data_w;   // DataW: payload bits of every flit
  unsigned more_w;   // MoreW: head.more
  unsigned addr_w;   // AddrW: head.dest, address flit dest
  unsigned coord_w;  // CoordW: one coordinate of a coordinate dest
  unsigned node_w;   // NodeW: head.src (0: the layout has no src)
  unsigned tag_w;    // TagW: head.tag

  constexpr unsigned flit_w() const { return 2 + data_w; }  // link flit {head, tail, data}
  // Head fields from MSB to LSB: the shift is the field's lowest bit.
  constexpr unsigned tag_shift() const { return 0; }
  constexpr unsigned src_shift() const { return tag_w; }
  constexpr unsigned dest_shift() const { return tag_w + node_w; }
  constexpr unsigned more_shift() const { return dest_shift() + addr_w; }
  constexpr unsigned cf_shift() const { return more_shift() + more_w; }
  constexpr unsigned class_shift() const { return cf_shift() + 2; }
  constexpr unsigned network_shift() const { return class_shift() + 2; }
  constexpr unsigned mode_shift() const { return network_shift() + 1; }
  // Link flit bits in the flit_w()-bit flit_t.
  constexpr unsigned flit_tail_bit() const { return data_w; }
  constexpr unsigned flit_head_bit() const { return data_w + 1; }
  // Limits that follow from the widths.
  constexpr std::uint32_t max_more() const { return static_cast<std::uint32_t>(field_max(more_w)); }
  constexpr std::uint32_t max_destinations_per_worm() const { return max_more() + 1; }
  constexpr std::uint32_t max_coord() const { return static_cast<std::uint32_t>(field_max(coord_w)); }
  constexpr unsigned coord_pad_w() const { return addr_w - 3 * coord_w; }
  constexpr unsigned route_entries() const { return addr_w / 4; }  // NumRouteEntries
  // A dest field whose route entries are all unused (every bit set).
  constexpr std::uint32_t route_all_unused() const { return static_cast<std::uint32_t>(field_max(addr_w)); }

  constexpr bool operator==(const Layout&) const = default;
};

// The 64-bit layout (NOC_DATA_W = 64, the default): firmware, model and harness.
inline constexpr Layout kWide{64, 12, 20, 6, 20, 4};
// The compact 32-bit layout (NOC_DATA_W = 32).
inline constexpr Layout kCompact{32, 6, 16, 5, 0, 2};
static_assert(kWide.mode_shift() + 3 == kWide.data_w, "the 64-bit head fields must fill the data exactly");
static_assert(kCompact.mode_shift() + 3 == kCompact.data_w, "the 32-bit head fields must fill the data exactly");
static_assert(kWide.route_entries() * 4 == kWide.addr_w && kCompact.route_entries() * 4 == kCompact.addr_w,
              "the route entries must fill the dest field exactly");

// The layout of a data width, or nullptr when there is none (valid widths: 64 and 32).
constexpr const Layout* layout_for_data_width(unsigned data_w) {
  return data_w == kWide.data_w ? &kWide : data_w == kCompact.data_w ? &kCompact : nullptr;
}

// ------------------------------------------------------------------------------------------------
// Field widths of the 64-bit layout (noc_pkg localparams of the same names without the k, built
// with the default NOC_DATA_W).

inline constexpr unsigned kDataW = kWide.data_w;                       // payload bits of every flit
inline constexpr unsigned kFlitW = kWide.flit_w();                     // link flit {head, tail, data}
inline constexpr unsigned kModeW = 3;                                  // head.mode
inline constexpr unsigned kNetworkW = 1;                               // head.network
inline constexpr unsigned kClassW = 2;                                 // head.vc_class
inline constexpr unsigned kCfW = 2;                                    // head.cf
inline constexpr unsigned kMoreW = kWide.more_w;                       // head.more
inline constexpr unsigned kAddrW = kWide.addr_w;                       // head.dest, address flit dest
inline constexpr unsigned kCoordW = kWide.coord_w;                     // one coordinate of a coordinate dest
inline constexpr unsigned kNumCoords = 3;                              // x, y, z
inline constexpr unsigned kCoordPadW = kAddrW - kNumCoords * kCoordW;  // zero bits above z
inline constexpr unsigned kNodeW = kWide.node_w;                       // head.src
inline constexpr unsigned kTagW = kWide.tag_w;                         // head.tag

// Head flit data of the 64-bit layout, fields from MSB to LSB: the shift is the field's lowest bit.
inline constexpr unsigned kTagShift = kWide.tag_shift();          // [3:0]
inline constexpr unsigned kSrcShift = kWide.src_shift();          // [23:4]
inline constexpr unsigned kDestShift = kWide.dest_shift();        // [43:24]
inline constexpr unsigned kMoreShift = kWide.more_shift();        // [55:44]
inline constexpr unsigned kCfShift = kWide.cf_shift();            // [57:56]
inline constexpr unsigned kClassShift = kWide.class_shift();      // [59:58]
inline constexpr unsigned kNetworkShift = kWide.network_shift();  // [60]
inline constexpr unsigned kModeShift = kWide.mode_shift();        // [63:61]
static_assert(kModeW == 3 && kNetworkW == 1 && kClassW == 2 && kCfW == 2, "Layout's fixed fields");

// Link flit {head, tail, data}: bit positions in the kFlitW-bit flit_t of noc_pkg.
inline constexpr unsigned kFlitTailBit = kWide.flit_tail_bit();  // 64
inline constexpr unsigned kFlitHeadBit = kWide.flit_head_bit();  // 65

// Limits that follow from the widths.
inline constexpr std::uint32_t kMaxMore = kWide.max_more();  // 4095 address flits
inline constexpr std::uint32_t kMaxDestinationsPerWorm =
    kWide.max_destinations_per_worm();                             // head dest + one per address flit
inline constexpr std::uint64_t kMaxNodes = field_max(kNodeW) + 1;  // node ids and labels 0..2^20-1
inline constexpr std::uint32_t kMaxCoord = kWide.max_coord();      // 63

// ------------------------------------------------------------------------------------------------
// Field values.

// Routing mode (noc_pkg::route_mode_e). 5..7 are reserved.
enum class Mode : std::uint8_t {
  kHamiltonianPath = 0,   // RouteHamPath: dest is a label
  kHamiltonianCycle = 1,  // RouteHamCycle: dest is a label
  kDimensionOrder = 2,    // RouteDimOrder: dest is coordinates
  kCprLine = 3,           // RouteCprLine: dest is coordinates, cf says what the line does
  kSourceRouted = 4,      // RouteSourceRouted: dest is kRouteEntries route entries
};

// Channel network of a Hamiltonian worm (noc_pkg::NetworkHigh/NetworkLow); 0 in other modes.
inline constexpr std::uint8_t kNetworkLow = 0;
inline constexpr std::uint8_t kNetworkHigh = 1;

// VC classes of the Hamiltonian-path routing function (noc_pkg::HpClass*): the channel network, high
// on VC 0, low on VC 1 (docs/rtl.md "VC-class plan"); routers write it on every hop.
inline constexpr std::uint8_t kHpClassHigh = 0;
inline constexpr std::uint8_t kHpClassLow = 1;
constexpr std::uint8_t ham_path_class(std::uint8_t network) {
  return network == kNetworkHigh ? kHpClassHigh : kHpClassLow;
}

// VC classes of the branches a PCP spine router spawns into +X and -X (noc_pkg::BranchClass*): the
// VCs of xy-path's column paths that advance left and right, which never move the other way along
// X, so a branch's channels carry only branches (docs/rtl.md "VC-class plan"). Routers write them.
inline constexpr std::uint8_t kBranchClassPlusX = 3;
inline constexpr std::uint8_t kBranchClassMinusX = 2;

// VC classes of xy-path's source-routed worms (docs/firmware.md "VC classes"): the partition path and
// the direction it advances in across its rows (columns), set by the source's corner. Each needs a
// VC of its own on a 2D mesh.
inline constexpr std::uint8_t kXyClassXPathUp = 0;     // X path from a bottom corner (y = 0)
inline constexpr std::uint8_t kXyClassXPathDown = 1;   // X path from a top corner
inline constexpr std::uint8_t kXyClassYPathRight = 2;  // Y path from a left corner (x = 0)
inline constexpr std::uint8_t kXyClassYPathLeft = 3;   // Y path from a right corner

// VC classes of the Hamiltonian-cycle routing function (noc_pkg::HcClass*): bit 0 q, bit 1 low.
inline constexpr std::uint8_t kHcClassPHigh = 0;
inline constexpr std::uint8_t kHcClassQHigh = 1;
inline constexpr std::uint8_t kHcClassPLow = 2;
inline constexpr std::uint8_t kHcClassQLow = 3;
// Dimension-order dateline classes on tori (noc_pkg::DorClass*); always 0 on meshes.
inline constexpr std::uint8_t kDorClassWrapAhead = 0;
inline constexpr std::uint8_t kDorClassNoWrap = 1;

// CPR control field (noc_pkg::cf_e). The addressed router always delivers and absorbs the worm; a
// router of the line that is not addressed acts as the comment says.
enum class Cf : std::uint8_t {
  kUnicastTransit = 0b00,  // passes the worm on
  kDeliverStop = 0b01,     // delivers a copy; the worm stops there
  kPassOnly = 0b10,        // passes the worm on without a copy
  kDeliverPass = 0b11,     // delivers a copy and passes the worm on
};

// ------------------------------------------------------------------------------------------------
// Head flit.

// The fields of a head flit (noc_pkg::head_t), each in the low bits of its member.
struct HeadFields {
  Mode mode = Mode::kHamiltonianPath;
  std::uint8_t network = 0;   // kNetworkLow / kNetworkHigh (Hamiltonian modes), else 0
  std::uint8_t vc_class = 0;  // input VC class of the routing function
  Cf cf = Cf::kUnicastTransit;
  std::uint16_t more = 0;  // address flits after the head, 0..kMaxMore
  std::uint32_t dest = 0;  // label, pack_coord_dest() or route entries
  std::uint32_t src = 0;   // source node id
  std::uint8_t tag = 0;    // message tag chosen by the sender

  constexpr bool operator==(const HeadFields&) const = default;
};

// Every field of `h` fits its width in `layout` (a compact head needs src = 0).
constexpr bool fits(const HeadFields& h, const Layout& layout = kWide) {
  return static_cast<std::uint64_t>(h.mode) <= field_max(kModeW) && h.network <= field_max(kNetworkW) &&
         h.vc_class <= field_max(kClassW) && static_cast<std::uint64_t>(h.cf) <= field_max(kCfW) &&
         h.more <= field_max(layout.more_w) && h.dest <= field_max(layout.addr_w) &&
         h.src <= field_max(layout.node_w) && h.tag <= field_max(layout.tag_w);
}

namespace detail {
// Not constexpr: reaching it in a constant expression is a compile error that names the problem.
inline void value_does_not_fit_its_field() {}

constexpr std::uint64_t put(std::uint64_t value, unsigned width, unsigned shift) {
  return (value & field_max(width)) << shift;
}
constexpr std::uint64_t get(std::uint64_t data, unsigned width, unsigned shift) {
  return (data >> shift) & field_max(width);
}
}  // namespace detail

// The data bits (layout.data_w) of a head flit. Precondition: fits(h, layout) (see the top of
// this file).
constexpr std::uint64_t pack_head(const HeadFields& h, const Layout& layout = kWide) {
  if (!fits(h, layout)) detail::value_does_not_fit_its_field();
  return detail::put(static_cast<std::uint64_t>(h.mode), kModeW, layout.mode_shift()) |
         detail::put(h.network, kNetworkW, layout.network_shift()) |
         detail::put(h.vc_class, kClassW, layout.class_shift()) |
         detail::put(static_cast<std::uint64_t>(h.cf), kCfW, layout.cf_shift()) |
         detail::put(h.more, layout.more_w, layout.more_shift()) |
         detail::put(h.dest, layout.addr_w, layout.dest_shift()) |
         detail::put(h.src, layout.node_w, layout.src_shift()) | detail::put(h.tag, layout.tag_w, layout.tag_shift());
}

// The fields of head flit data (bits above layout.data_w ignored). Every value decodes (reserved
// modes included); the result always fits.
constexpr HeadFields unpack_head(std::uint64_t data, const Layout& layout = kWide) {
  HeadFields h;
  h.mode = static_cast<Mode>(detail::get(data, kModeW, layout.mode_shift()));
  h.network = static_cast<std::uint8_t>(detail::get(data, kNetworkW, layout.network_shift()));
  h.vc_class = static_cast<std::uint8_t>(detail::get(data, kClassW, layout.class_shift()));
  h.cf = static_cast<Cf>(detail::get(data, kCfW, layout.cf_shift()));
  h.more = static_cast<std::uint16_t>(detail::get(data, layout.more_w, layout.more_shift()));
  h.dest = static_cast<std::uint32_t>(detail::get(data, layout.addr_w, layout.dest_shift()));
  h.src = static_cast<std::uint32_t>(detail::get(data, layout.node_w, layout.src_shift()));
  h.tag = static_cast<std::uint8_t>(detail::get(data, layout.tag_w, layout.tag_shift()));
  return h;
}

// ------------------------------------------------------------------------------------------------
// Address flits. A multidestination worm is its head followed by `more` address flits. Address flit
// k (1..more) has the head's layout (pack_head; its flit head bit is 0): it is the head of the rest
// of the worm after the k-th destination, with dest = the next destination (or the next
// kRouteEntries route entries) and more = head.more - k, every other field as the head's. The
// router that delivers to a destination and forwards the worm (intermediate reception) promotes the
// first address flit to the head of the worm it forwards (docs/header-format.md).

// A dest value fits the layout's dest field.
constexpr bool fits_dest(std::uint32_t dest, const Layout& layout = kWide) { return dest <= field_max(layout.addr_w); }

// The data bits of address flit k of a worm whose head is `head`. Preconditions: 1 <= k <=
// head.more, fits_dest(dest, layout), fits(head, layout).
constexpr std::uint64_t pack_addr_flit(HeadFields head, std::uint32_t dest, unsigned k, const Layout& layout = kWide) {
  if (k == 0 || k > head.more) detail::value_does_not_fit_its_field();
  head.dest = dest;
  head.more = static_cast<std::uint16_t>(head.more - k);
  return pack_head(head, layout);
}

// ------------------------------------------------------------------------------------------------
// Coordinate destination (dimension-order and CPR modes): {kCoordPadW zero bits, z, y, x}.

struct Coords {
  std::uint8_t x = 0;
  std::uint8_t y = 0;
  std::uint8_t z = 0;  // 0 in 2D

  constexpr bool operator==(const Coords&) const = default;
};

// Every coordinate fits the layout's coordinate width (0..max_coord()).
constexpr bool fits(const Coords& c, const Layout& layout = kWide) {
  return c.x <= layout.max_coord() && c.y <= layout.max_coord() && c.z <= layout.max_coord();
}

// The dest field of coordinates (noc_pkg::coord_dest). Precondition: fits(c, layout).
constexpr std::uint32_t pack_coord_dest(const Coords& c, const Layout& layout = kWide) {
  if (!fits(c, layout)) detail::value_does_not_fit_its_field();
  const unsigned w = layout.coord_w;
  return static_cast<std::uint32_t>(detail::put(c.x, w, 0) | detail::put(c.y, w, w) | detail::put(c.z, w, 2 * w));
}

// The coordinates of a dest field (noc_pkg::coord_dest_x/y/z); the pad bits are ignored.
constexpr Coords unpack_coord_dest(std::uint32_t dest, const Layout& layout = kWide) {
  const unsigned w = layout.coord_w;
  Coords c;
  c.x = static_cast<std::uint8_t>(detail::get(dest, w, 0));
  c.y = static_cast<std::uint8_t>(detail::get(dest, w, w));
  c.z = static_cast<std::uint8_t>(detail::get(dest, w, 2 * w));
  return c;
}

// A dest value is a well-formed coordinate destination: pad bits (and every bit above the field)
// zero (noc_pkg::coord_dest_ok).
constexpr bool coord_dest_ok(std::uint32_t dest, const Layout& layout = kWide) {
  return (dest >> (kNumCoords * layout.coord_w)) == 0;
}

// ------------------------------------------------------------------------------------------------
// Source routes (Mode::kSourceRouted): a dest field holds layout.route_entries() entries (5; 4 in
// the compact layout), entry i at bits [4i+3:4i], entry 0 the hop of the router the head is at.
// Each entry is {deliver, port}.

inline constexpr unsigned kRouteEntries = kWide.route_entries();  // 5 in the 64-bit layout
inline constexpr unsigned kRouteEntryW = 4;
inline constexpr unsigned kRoutePortW = 3;
inline constexpr std::uint8_t kRoutePortEnd = 7;                            // "end": eject here, go no further
inline constexpr std::uint8_t kRouteEntryUnused = 0xF;                      // deliver = 1, port = end
inline constexpr std::uint32_t kRouteAllUnused = kWide.route_all_unused();  // 0xFFFFF: all entries unused
static_assert(kRouteEntries * kRouteEntryW == kAddrW, "the route entries must fill the dest field exactly");

struct RouteEntry {
  bool deliver = false;   // deliver a copy here as well as forwarding on port
  std::uint8_t port = 0;  // network port (docs/model.md numbering) or kRoutePortEnd

  constexpr bool operator==(const RouteEntry&) const = default;
};

// The port fits kRoutePortW bits.
constexpr bool fits(const RouteEntry& e) { return e.port <= field_max(kRoutePortW); }

// The 4-bit encoding {deliver, port}. Precondition: fits(e).
constexpr std::uint8_t pack_route_entry(const RouteEntry& e) {
  if (!fits(e)) detail::value_does_not_fit_its_field();
  return static_cast<std::uint8_t>(((e.deliver ? 1U : 0U) << kRoutePortW) | detail::put(e.port, kRoutePortW, 0));
}

// The entry of a 4-bit encoding (higher bits ignored).
constexpr RouteEntry unpack_route_entry(std::uint8_t bits) {
  RouteEntry e;
  e.deliver = detail::get(bits, 1, kRoutePortW) != 0;
  e.port = static_cast<std::uint8_t>(detail::get(bits, kRoutePortW, 0));
  return e;
}

// Entry i (0..layout.route_entries()-1) of a route.
constexpr RouteEntry route_entry(std::uint32_t dest, unsigned i) {
  return unpack_route_entry(static_cast<std::uint8_t>(detail::get(dest, kRouteEntryW, kRouteEntryW * i)));
}

// The route with entry i (0..layout.route_entries()-1) replaced by e. Precondition: fits(e).
constexpr std::uint32_t with_route_entry(std::uint32_t dest, unsigned i, const RouteEntry& e) {
  const unsigned shift = kRouteEntryW * i;
  const std::uint64_t cleared = dest & ~(field_max(kRouteEntryW) << shift);
  return static_cast<std::uint32_t>(cleared | detail::put(pack_route_entry(e), kRouteEntryW, shift));
}

// The route a router forwards after taking entry 0 (noc_pkg::route_shift): entries 1.. move down
// one place and an unused entry enters at the top.
constexpr std::uint32_t route_shift(std::uint32_t dest, const Layout& layout = kWide) {
  const unsigned w = layout.addr_w;
  return static_cast<std::uint32_t>(detail::put(kRouteEntryUnused, kRouteEntryW, w - kRouteEntryW) |
                                    detail::get(dest, w - kRouteEntryW, kRouteEntryW));
}

// Every entry is unused (noc_pkg::route_used_up): the router refills the route from the next
// address flit when more > 0.
constexpr bool route_used_up(std::uint32_t dest, const Layout& layout = kWide) {
  return dest == layout.route_all_unused();
}

// ------------------------------------------------------------------------------------------------
// Link flit (noc_pkg::flit_t). The VC id travels beside the flit on the link; credits return per VC.

struct Flit {
  bool head = false;       // first flit of a worm: data is a head (pack_head)
  bool tail = false;       // last flit of a worm; a single-flit worm has head = tail = 1
  std::uint64_t data = 0;  // head, address flit (the `more` flits after the head) or payload (the
                           // layout's data_w low bits)

  constexpr bool operator==(const Flit&) const = default;
};

}  // namespace wormcast::wire
