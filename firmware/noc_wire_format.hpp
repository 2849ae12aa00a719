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
// Field widths (noc_pkg localparams of the same names without the k).

inline constexpr unsigned kDataW = 64;                                 // payload bits of every flit
inline constexpr unsigned kFlitW = 2 + kDataW;                         // link flit {head, tail, data}
inline constexpr unsigned kModeW = 3;                                  // head.mode
inline constexpr unsigned kNetworkW = 1;                               // head.network
inline constexpr unsigned kClassW = 2;                                 // head.vc_class
inline constexpr unsigned kCfW = 2;                                    // head.cf
inline constexpr unsigned kMoreW = 12;                                 // head.more
inline constexpr unsigned kAddrW = 20;                                 // head.dest, address flit dest
inline constexpr unsigned kCoordW = 6;                                 // one coordinate of a coordinate dest
inline constexpr unsigned kNumCoords = 3;                              // x, y, z
inline constexpr unsigned kCoordPadW = kAddrW - kNumCoords * kCoordW;  // zero bits above z
inline constexpr unsigned kNodeW = 20;                                 // head.src
inline constexpr unsigned kTagW = 4;                                   // head.tag

// ------------------------------------------------------------------------------------------------
// Head flit data, fields from MSB to LSB: the shift is the field's lowest bit.

inline constexpr unsigned kTagShift = 0;                           // [3:0]
inline constexpr unsigned kSrcShift = kTagShift + kTagW;           // [23:4]
inline constexpr unsigned kDestShift = kSrcShift + kNodeW;         // [43:24]
inline constexpr unsigned kMoreShift = kDestShift + kAddrW;        // [55:44]
inline constexpr unsigned kCfShift = kMoreShift + kMoreW;          // [57:56]
inline constexpr unsigned kClassShift = kCfShift + kCfW;           // [59:58]
inline constexpr unsigned kNetworkShift = kClassShift + kClassW;   // [60]
inline constexpr unsigned kModeShift = kNetworkShift + kNetworkW;  // [63:61]
static_assert(kModeShift + kModeW == kDataW, "the head fields must fill the flit data exactly");

// Link flit {head, tail, data}: bit positions in the kFlitW-bit flit_t of noc_pkg.
inline constexpr unsigned kFlitTailBit = kDataW;      // 64
inline constexpr unsigned kFlitHeadBit = kDataW + 1;  // 65

// The largest value of a field `width` bits wide.
constexpr std::uint64_t field_max(unsigned width) {
  return width >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1;
}

// Limits that follow from the widths.
inline constexpr std::uint32_t kMaxMore = static_cast<std::uint32_t>(field_max(kMoreW));  // 4095 address flits
inline constexpr std::uint32_t kMaxDestinationsPerWorm = kMaxMore + 1;  // head dest + one per address flit
inline constexpr std::uint64_t kMaxNodes = field_max(kNodeW) + 1;       // node ids and labels 0..2^20-1
inline constexpr std::uint32_t kMaxCoord = static_cast<std::uint32_t>(field_max(kCoordW));  // 63

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

// Every field of `h` fits its width.
constexpr bool fits(const HeadFields& h) {
  return static_cast<std::uint64_t>(h.mode) <= field_max(kModeW) && h.network <= field_max(kNetworkW) &&
         h.vc_class <= field_max(kClassW) && static_cast<std::uint64_t>(h.cf) <= field_max(kCfW) &&
         h.more <= field_max(kMoreW) && h.dest <= field_max(kAddrW) && h.src <= field_max(kNodeW) &&
         h.tag <= field_max(kTagW);
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

// The 64 data bits of a head flit. Precondition: fits(h) (see the top of this file).
constexpr std::uint64_t pack_head(const HeadFields& h) {
  if (!fits(h)) detail::value_does_not_fit_its_field();
  return detail::put(static_cast<std::uint64_t>(h.mode), kModeW, kModeShift) |
         detail::put(h.network, kNetworkW, kNetworkShift) | detail::put(h.vc_class, kClassW, kClassShift) |
         detail::put(static_cast<std::uint64_t>(h.cf), kCfW, kCfShift) | detail::put(h.more, kMoreW, kMoreShift) |
         detail::put(h.dest, kAddrW, kDestShift) | detail::put(h.src, kNodeW, kSrcShift) |
         detail::put(h.tag, kTagW, kTagShift);
}

// The fields of head flit data. Every 64-bit value decodes (reserved modes included); the result
// always fits.
constexpr HeadFields unpack_head(std::uint64_t data) {
  HeadFields h;
  h.mode = static_cast<Mode>(detail::get(data, kModeW, kModeShift));
  h.network = static_cast<std::uint8_t>(detail::get(data, kNetworkW, kNetworkShift));
  h.vc_class = static_cast<std::uint8_t>(detail::get(data, kClassW, kClassShift));
  h.cf = static_cast<Cf>(detail::get(data, kCfW, kCfShift));
  h.more = static_cast<std::uint16_t>(detail::get(data, kMoreW, kMoreShift));
  h.dest = static_cast<std::uint32_t>(detail::get(data, kAddrW, kDestShift));
  h.src = static_cast<std::uint32_t>(detail::get(data, kNodeW, kSrcShift));
  h.tag = static_cast<std::uint8_t>(detail::get(data, kTagW, kTagShift));
  return h;
}

// ------------------------------------------------------------------------------------------------
// Address flits. A multidestination worm is its head followed by `more` address flits. Address flit
// k (1..more) has the head's layout (pack_head; its flit head bit is 0): it is the head of the rest
// of the worm after the k-th destination, with dest = the next destination (or the next
// kRouteEntries route entries) and more = head.more - k, every other field as the head's. The
// router that delivers to a destination and forwards the worm (intermediate reception) promotes the
// first address flit to the head of the worm it forwards (docs/header-format.md).

// A dest value fits the kAddrW-bit field.
constexpr bool fits_dest(std::uint32_t dest) { return dest <= field_max(kAddrW); }

// The 64 data bits of address flit k of a worm whose head is `head`. Preconditions: 1 <= k <=
// head.more, fits_dest(dest), fits(head).
constexpr std::uint64_t pack_addr_flit(HeadFields head, std::uint32_t dest, unsigned k) {
  if (k == 0 || k > head.more) detail::value_does_not_fit_its_field();
  head.dest = dest;
  head.more = static_cast<std::uint16_t>(head.more - k);
  return pack_head(head);
}

// ------------------------------------------------------------------------------------------------
// Coordinate destination (dimension-order and CPR modes): {kCoordPadW zero bits, z, y, x}.

struct Coords {
  std::uint8_t x = 0;
  std::uint8_t y = 0;
  std::uint8_t z = 0;  // 0 in 2D

  constexpr bool operator==(const Coords&) const = default;
};

// Every coordinate fits kCoordW bits (0..kMaxCoord).
constexpr bool fits(const Coords& c) { return c.x <= kMaxCoord && c.y <= kMaxCoord && c.z <= kMaxCoord; }

// The dest field of coordinates (noc_pkg::coord_dest). Precondition: fits(c).
constexpr std::uint32_t pack_coord_dest(const Coords& c) {
  if (!fits(c)) detail::value_does_not_fit_its_field();
  return static_cast<std::uint32_t>(detail::put(c.x, kCoordW, 0) | detail::put(c.y, kCoordW, kCoordW) |
                                    detail::put(c.z, kCoordW, 2 * kCoordW));
}

// The coordinates of a dest field (noc_pkg::coord_dest_x/y/z); the pad bits are ignored.
constexpr Coords unpack_coord_dest(std::uint32_t dest) {
  Coords c;
  c.x = static_cast<std::uint8_t>(detail::get(dest, kCoordW, 0));
  c.y = static_cast<std::uint8_t>(detail::get(dest, kCoordW, kCoordW));
  c.z = static_cast<std::uint8_t>(detail::get(dest, kCoordW, 2 * kCoordW));
  return c;
}

// A dest value is a well-formed coordinate destination: pad bits (and every bit above the field)
// zero (noc_pkg::coord_dest_ok).
constexpr bool coord_dest_ok(std::uint32_t dest) { return (dest >> (kNumCoords * kCoordW)) == 0; }

// ------------------------------------------------------------------------------------------------
// Source routes (Mode::kSourceRouted): a dest field holds kRouteEntries entries, entry i at bits
// [4i+3:4i], entry 0 the hop of the router the head is at. Each entry is {deliver, port}.

inline constexpr unsigned kRouteEntries = 5;
inline constexpr unsigned kRouteEntryW = 4;
inline constexpr unsigned kRoutePortW = 3;
inline constexpr std::uint8_t kRoutePortEnd = 7;           // "end": eject here, go no further
inline constexpr std::uint8_t kRouteEntryUnused = 0xF;     // deliver = 1, port = end
inline constexpr std::uint32_t kRouteAllUnused = 0xFFFFF;  // a route whose entries are all unused
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

// Entry i (0..kRouteEntries-1) of a route.
constexpr RouteEntry route_entry(std::uint32_t dest, unsigned i) {
  return unpack_route_entry(static_cast<std::uint8_t>(detail::get(dest, kRouteEntryW, kRouteEntryW * i)));
}

// The route with entry i (0..kRouteEntries-1) replaced by e. Precondition: fits(e).
constexpr std::uint32_t with_route_entry(std::uint32_t dest, unsigned i, const RouteEntry& e) {
  const unsigned shift = kRouteEntryW * i;
  const std::uint64_t cleared = dest & ~(field_max(kRouteEntryW) << shift);
  return static_cast<std::uint32_t>(cleared | detail::put(pack_route_entry(e), kRouteEntryW, shift));
}

// The route a router forwards after taking entry 0 (noc_pkg::route_shift): entries 1..4 move down
// one place and an unused entry enters at the top.
constexpr std::uint32_t route_shift(std::uint32_t dest) {
  return static_cast<std::uint32_t>(detail::put(kRouteEntryUnused, kRouteEntryW, kAddrW - kRouteEntryW) |
                                    detail::get(dest, kAddrW - kRouteEntryW, kRouteEntryW));
}

// Every entry is unused (noc_pkg::route_used_up): the router refills the route from the next
// address flit when more > 0.
constexpr bool route_used_up(std::uint32_t dest) { return dest == kRouteAllUnused; }

// ------------------------------------------------------------------------------------------------
// Link flit (noc_pkg::flit_t). The VC id travels beside the flit on the link; credits return per VC.

struct Flit {
  bool head = false;       // first flit of a worm: data is a head (pack_head)
  bool tail = false;       // last flit of a worm; a single-flit worm has head = tail = 1
  std::uint64_t data = 0;  // head, address flit (the `more` flits after the head) or payload

  constexpr bool operator==(const Flit&) const = default;
};

}  // namespace wormcast::wire
